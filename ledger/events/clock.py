"""Clock, break and penalty-point events (re-exported by :mod:`bgledger.events`).

Times are whole milliseconds; when each thing happened is the event's ``at``.
The game clock's state (reserves, who is running, why it is stopped) and the
breaks and penalty points are folded from these events by
:mod:`bgledger.projections.state.clock` and :mod:`bgledger.projections.state.breaks`.

These events record what the physical clock and the players did.  They are
not game actions: a ruling that undoes plays (USBGF 4.2.3(c)) leaves them in
force, because time that ran on the clock ran; only a recorded restore
(USBGF 4.1.8.1) or setting (USBGF 3.7.2, 4.3.4) gives it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bgledger.events.base import MatchEvent

__all__ = [
    "TIME_EVENTS",
    "BreakEnded",
    "BreakStarted",
    "ClockHit",
    "ClockHitImplied",
    "ClockRead",
    "ClockRestored",
    "ClockResumed",
    "ClockSet",
    "ClockStarted",
    "ClockStopped",
    "PenaltyPointsAssessed",
    "ReserveTimePenalized",
    "ReserveTimeRestored",
    "TimeExpired",
]


@dataclass(frozen=True)
class ClockStarted(MatchEvent):
    """A game clock was set up: ``mode`` (``simple-delay``, ``bronstein``), delay, reserves.

    Recorded with :class:`~bgledger.events.MatchStarted` for a match started
    with ``--clock``, or later when a clock is introduced (USBGF 3.5.6,
    2.3; CLOCK 1.1: only at the start of a game).  Nobody's time runs until
    the first hit, or the opening roll (CLOCK 3.3: the opening command records
    the lower die's :class:`ClockHit`).
    """

    mode: str
    delay_ms: int
    reserve_a_ms: int
    reserve_b_ms: int
    rule: str


@dataclass(frozen=True)
class ClockHit(MatchEvent):
    """``player`` hit the clock: that player's time stops and the opponent's starts (USBGF
    4.1.8.1).  ``passes``: the player on roll hit without rolling, having no roll to play
    (CLOCK 3.4), so the turn passes: decided by the command, never judged again on replay."""

    class_version: ClassVar[int] = 5

    player: str
    passes: bool = False

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """A hit stored before version 3 passed no turn (a closed-out hit was refused then)."""
        state["passes"] = False

    upcast_v3_v4 = staticmethod(MatchEvent.upcast_said)  # version 4: the line (MatchEvent.said)
    upcast_v4_v5 = staticmethod(MatchEvent.upcast_claimed)  # version 5: MatchEvent.claimed


@dataclass(frozen=True)
class ClockHitImplied(MatchEvent):
    """``player``'s hit was not recorded; his opponent's roll or double, recorded next, implies it.

    Under a profile where that action stands (ABT 4.6, ``usbgf-2017``) the
    ledger records it with the action, at the action's time, citing ``rule``:
    it counts as ``player``'s hit then (his turn is charged up to it) and is
    flagged, so the clock error shows in the history (USBGF 4.3.4).
    """

    player: str
    rule: str


@dataclass(frozen=True)
class ClockStopped(MatchEvent):
    """Both clocks were stopped for ``reason``, a code of USBGF 4.3.2 (a)-(h) cited in ``rule``."""

    reason: str
    rule: str


@dataclass(frozen=True)
class ClockResumed(MatchEvent):
    """The clock was restarted for ``player``, whose turn it stopped in."""

    player: str


@dataclass(frozen=True)
class ClockRead(MatchEvent):
    """The physical clock showed these reserves (the ledger compares its own figures)."""

    reserve_a_ms: int
    reserve_b_ms: int


@dataclass(frozen=True)
class ClockSet(MatchEvent):
    """The reserves were set to these figures (USBGF 3.7.2, 4.3.3, 4.3.4), by ``ruled_by``."""

    reserve_a_ms: int
    reserve_b_ms: int
    rule: str
    ruled_by: str
    reason: str


@dataclass(frozen=True)
class ReserveTimePenalized(MatchEvent):
    """``player`` was penalised for picking up the dice early (USBGF 4.1.7.2, CLOCK 4.1).

    ``kind``: ``warning`` (the first violation), ``reserve`` (``penalty_ms``
    taken off), ``to-one-second`` (less than the penalty was left) or
    ``delay-forfeited`` (CLOCK 4.1: no deductible for his next play).
    """

    player: str
    kind: str
    penalty_ms: int
    rule: str
    ruled_by: str
    reason: str


@dataclass(frozen=True)
class ReserveTimeRestored(MatchEvent):
    """``restored_ms`` of ``player``'s reserve was given back (USBGF 4.1.8.1)."""

    player: str
    restored_ms: int
    rule: str
    ruled_by: str
    reason: str


@dataclass(frozen=True)
class ClockRestored(MatchEvent):
    """The director put the clock back as it stood when event ``event`` was made (USBGF 4.4.6.2).

    A nullified pass resumes the game "based on the checker position and game
    clock reserve times that existed when the improper double was made": each
    player's reserve at the start of his turn then (``reserve_a_ms``,
    ``reserve_b_ms``), whose turn the clock was timing (``player``, ``""`` for
    nobody's), whether it ran (``running``: from this event's time on), what
    of that turn he had used (``used_ms``) and the delay of that turn
    (``turn_delay_ms``).  The figures are the director's, fixed when he ruled.
    """

    event: int
    player: str
    running: bool
    reserve_a_ms: int
    reserve_b_ms: int
    used_ms: int
    turn_delay_ms: int
    rule: str
    ruled_by: str
    reason: str


@dataclass(frozen=True)
class TimeExpired(MatchEvent):
    """``player``'s reserve was announced expired and the ledger's figures confirm it.

    ``outcome``: ``forfeit`` (he loses the match, USBGF 4.3.3, CLOCK 5.3; a
    :class:`~bgledger.events.MatchWon` follows) or ``both-expired`` (neither
    can be shown to have run out first: nominal reserves are set next).
    ``reserve_a_ms``/``reserve_b_ms`` are the ledger's figures then.
    """

    player: str
    outcome: str
    rule: str
    reserve_a_ms: int
    reserve_b_ms: int


@dataclass(frozen=True)
class BreakStarted(MatchEvent):
    """A break began (USBGF 2.2.2): who asked, how many of their breaks, the clocks.

    ``breaks`` of each requester's breaks are combined into one of
    ``minutes``; ``during_game`` with the ``exceptional`` circumstances, and
    ``exception`` for a director's exception under USBGF 2.2.3.  The game
    clock readings (the ledger's figures, ``None`` without a clock) are
    what the score sheet must show.
    """

    players: list[str]
    breaks: int
    minutes: int
    during_game: bool
    exceptional: str
    exception: str
    reserve_a_ms: int | None
    reserve_b_ms: int | None


@dataclass(frozen=True)
class BreakEnded(MatchEvent):
    """The break ended, ``minutes_over`` its allowance; ``late``: who returned late, if anyone."""

    late: str | None
    minutes_over: int


@dataclass(frozen=True)
class PenaltyPointsAssessed(MatchEvent):
    """``points`` were assessed against ``player``: his opponent scores them.

    ``kind``: ``late-start`` and ``late-return`` (USBGF 2.2.4, with
    ``minutes_late``) or ``director`` (any other rule the director applies).
    ``scheduled``: the starting time a ``late-start`` counted from, as the director gave
    it; ``None`` when it counted from the match's setting up (or the end of a break).
    Class version 3 added it; an assessment stored before has none.
    """

    class_version: ClassVar[int] = 5

    player: str
    points: int
    kind: str
    rule: str
    ruled_by: str
    reason: str
    minutes_late: int | None
    scheduled: str | None = None

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """An assessment stored before version 3 names no scheduled start."""
        state["scheduled"] = None

    upcast_v3_v4 = staticmethod(MatchEvent.upcast_said)  # version 4: the line (MatchEvent.said)
    upcast_v4_v5 = staticmethod(MatchEvent.upcast_claimed)  # version 5: MatchEvent.claimed


TIME_EVENTS: tuple[type[MatchEvent], ...] = (
    ClockStarted,
    ClockHit,
    ClockHitImplied,
    ClockStopped,
    ClockResumed,
    ClockRead,
    ClockSet,
    ReserveTimePenalized,
    ReserveTimeRestored,
    ClockRestored,
    TimeExpired,
    BreakStarted,
    BreakEnded,
    PenaltyPointsAssessed,
)
"""The events that record time, not game actions: rulings never void them."""
