"""The game clock as the events' times make it: reserves, delay, who runs, why stopped.

Times are whole milliseconds since the epoch, read from each event's ``at``.
A turn's time is charged when it ends (a hit, the end of the game):

- simple delay (USBGF 3.5.5): the reserve does not move until the delay has
  run out; the turn costs ``max(0, used - delay)``;
- Bronstein (CLOCK 2.1, 3.4): the reserve counts down at once and the
  deductible (up to the delay) is added back at the hit, which comes to the
  same ``max(0, used - delay)``, unless the reserve ran out during the
  turn: the flag fell and the reserve stays at zero.

So the two agree after each hit and differ mid-turn (:func:`figure`).  Time
used while the clock is stopped (USBGF 4.3.2) is not counted, and the delay
never accumulates from turn to turn.  A reserve never goes below zero.

``reserve_ms`` holds each player's reserve at the start of his current turn
(his settled figure when it is not his turn); a setting, a penalty or a
restore mid-turn moves it so that the live figure becomes what was set.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import TypeVar

from bgledger.rules.profiles import Decision, Profile

__all__ = [
    "REASONS",
    "STOPPED_UNDER",
    "ClockState",
    "at_ms",
    "clock_text",
    "figure",
    "figures",
    "hit",
    "pair_with",
    "reason_text",
    "resume",
    "set_figure",
    "settle",
    "stop",
]

REASONS: dict[str, tuple[str, str]] = {
    "game-over": ("a", "a game ended"),
    "break": ("b", "a break"),
    "die-fell": ("c", "a die fell on the floor"),
    "dispute": ("d", "a dispute, or the director was called"),
    "early-pickup": ("e", "the dice were picked up before the turn ended"),
    "dice-picked-up": ("f", "the dice were picked up with the hit"),
    "illegal-move": ("g", "an illegal move was pointed out"),
    "outcome-certain": ("h", "the game's outcome is no longer in doubt"),
    "time-expired": ("", "a reserve expired"),
    "concession": ("", "a concession offered"),  # CLOCK 5.1, 5.2(a): by the offer itself
}
"""The reasons a clock may be stopped: USBGF 4.3.2's letter (what a director may type) and
its words; :func:`reason_text` adds the rule of what happened."""
STOPPED_UNDER: dict[str, Decision] = {
    "game-over": Decision.STOP_GAME_OVER,
    "break": Decision.STOP_BREAK,
    "die-fell": Decision.STOP_DIE_FELL,
    "dispute": Decision.STOP_DISPUTE,
    "early-pickup": Decision.STOP_EARLY_PICKUP,
    "dice-picked-up": Decision.STOP_DICE_PICKED_UP,
    "illegal-move": Decision.STOP_ILLEGAL_MOVE,
    "outcome-certain": Decision.STOP_OUTCOME_CERTAIN,
    "time-expired": Decision.TIME_EXPIRED,
    "concession": Decision.STOP_CONCESSION,
}
"""The decision each stop is cited under: USBGF 4.3.2's clause, 4.3.3 for a reserve expired."""
_WHAT_HAPPENED = {
    "early-pickup": Decision.EARLY_PICKUP,
    "dice-picked-up": Decision.DICE_PICKED_UP_WITH_HIT,
    "illegal-move": Decision.ILLEGAL_PLAY,
    "time-expired": Decision.TIME_EXPIRED,
}
"""The stops for an irregularity, and the decision whose rule says what it was."""


def reason_text(code: str, profile: Profile) -> str:
    """Why the clock stopped, in words, with the rule of what happened under ``profile``.

    A code of a newer bgledger is shown as it is.

    >>> from bgledger.rules.profiles import get_profile
    >>> reason_text("early-pickup", get_profile("usbgf-2016"))
    'the dice were picked up before the turn ended (USBGF 4.1.7.2)'
    """
    words = REASONS.get(code, ("", code))[1]
    about = _WHAT_HAPPENED.get(code)
    return words if about is None else f"{words} ({profile.cite(about)})"


T = TypeVar("T")


def at_ms(at: str) -> int:
    """An event's ``at`` (ISO 8601 with an offset) as milliseconds since the epoch."""
    return round(datetime.fromisoformat(at).timestamp() * 1000)


@dataclass(frozen=True, slots=True)
class ClockState:
    """One match's game clock after some number of events.

    :ivar mode: ``simple-delay`` or ``bronstein``.
    :ivar delay_ms: the delay (deductible) per turn.
    :ivar reserve_ms: each player's reserve at the start of his turn (``a``, ``b``).
    :ivar turn: whose turn the clock is timing (running, or paused mid-turn).
    :ivar running: True while ``turn``'s time runs.
    :ivar stopped: why the clock is stopped (a key of :data:`REASONS`), else None.
    :ivar since_ms: when ``turn``'s time last started running.
    :ivar used_ms: time ``turn`` used this turn before ``since_ms``.
    :ivar turn_delay_ms: the delay of the current turn.
    :ivar no_delay: players who forfeited the deductible of their next checker play (CLOCK
        4.1): they wait until it has counted down before rolling, so their play has none;
        until they roll (a double before it keeps its deductible).
    :ivar pickups: early pick-ups penalised so far (USBGF 4.1.7.2), per player.
    :ivar at_one_second: players reduced to one second by USBGF 4.1.7.2.
    :ivar drift_ms: the last reading minus the ledger's figures, if read.
    """

    mode: str
    delay_ms: int
    reserve_ms: tuple[int, int]
    turn: str | None = None
    running: bool = False
    stopped: str | None = None
    since_ms: int = 0
    used_ms: int = 0
    turn_delay_ms: int = 0
    no_delay: tuple[bool, bool] = (False, False)
    pickups: tuple[int, int] = (0, 0)
    at_one_second: tuple[bool, bool] = (False, False)
    drift_ms: tuple[int, int] | None = None

    def used(self, now_ms: int) -> int:
        """Time the turn's player has used this turn, up to ``now_ms``."""
        return self.used_ms + (max(0, now_ms - self.since_ms) if self.running else 0)

    @property
    def paused(self) -> str | None:
        """The player whose turn the clock was stopped in (resume restarts him)."""
        return None if self.running else self.turn


def _seat(player: str) -> int:
    return 0 if player == "a" else 1


def pair_with(pair: tuple[T, T], player: str, value: T) -> tuple[T, T]:
    """``pair`` (``a``'s, ``b``'s) with ``player``'s item replaced by ``value``."""
    return (value, pair[1]) if player == "a" else (pair[0], value)


def _charged(clock: ClockState, reserve: int, used: int) -> int:
    """What is left of ``reserve`` after a turn of ``used`` ms (see the module text)."""
    if clock.mode == "bronstein" and used >= reserve:
        return 0  # the flag fell before the deductible came back
    return max(0, reserve - max(0, used - clock.turn_delay_ms))


def figure(clock: ClockState, player: str, now_ms: int) -> int:
    """``player``'s reserve as his clock shows it at ``now_ms`` (never below zero)."""
    reserve = clock.reserve_ms[_seat(player)]
    if clock.turn != player:
        return reserve
    used = clock.used(now_ms)
    if clock.mode == "bronstein":
        return max(0, reserve - used)
    return max(0, reserve - max(0, used - clock.turn_delay_ms))


def figures(clock: ClockState, now_ms: int) -> tuple[int, int]:
    """Both players' reserves at ``now_ms``."""
    return figure(clock, "a", now_ms), figure(clock, "b", now_ms)


def settle(clock: ClockState, now_ms: int, reason: str | None) -> ClockState:
    """The current turn ends at ``now_ms`` and is charged; the clock stops for ``reason``."""
    if clock.turn is None:
        return replace(clock, running=False, stopped=reason)
    left = _charged(clock, clock.reserve_ms[_seat(clock.turn)], clock.used(now_ms))
    reserves = pair_with(clock.reserve_ms, clock.turn, left)
    return replace(clock, reserve_ms=reserves, turn=None, running=False, stopped=reason, used_ms=0)


def hit(clock: ClockState, player: str, now_ms: int) -> ClockState:
    """``player`` hits: his turn is charged and his opponent's time starts."""
    reserves = clock.reserve_ms
    if clock.turn == player:
        left = _charged(clock, reserves[_seat(player)], clock.used(now_ms))
        reserves = pair_with(reserves, player, left)
    opponent = "b" if player == "a" else "a"
    # Built whole, not by dataclasses.replace: a hit follows most turns of a clocked match.
    return ClockState(
        clock.mode,
        clock.delay_ms,
        reserves,
        turn=opponent,
        running=True,
        stopped=None,
        since_ms=now_ms,
        used_ms=0,
        turn_delay_ms=clock.delay_ms,  # a forfeited one too: he waits it out (CLOCK 4.1)
        no_delay=clock.no_delay,
        pickups=clock.pickups,
        at_one_second=clock.at_one_second,
        drift_ms=clock.drift_ms,
    )


def stop(clock: ClockState, now_ms: int, reason: str) -> ClockState:
    """Both clocks stop for ``reason``; the turn's player keeps what he used so far."""
    if not clock.running:
        return replace(clock, stopped=reason)
    return replace(clock, running=False, stopped=reason, used_ms=clock.used(now_ms))


def resume(clock: ClockState, now_ms: int) -> ClockState:
    """The paused player's time runs again."""
    if clock.turn is None:
        return replace(clock, stopped=None)
    return replace(clock, running=True, stopped=None, since_ms=now_ms)


def set_figure(clock: ClockState, player: str, value_ms: int, now_ms: int) -> ClockState:
    """``player``'s clock shows ``value_ms`` from ``now_ms`` on (never below zero).

    Mid-turn, the time used so far and what is left of the delay carry on:
    the reserve at the start of the turn is moved so that the live figure is
    ``value_ms`` now.
    """
    value = max(0, value_ms)
    if clock.turn != player:
        return replace(clock, reserve_ms=pair_with(clock.reserve_ms, player, value))
    used = clock.used(now_ms)
    charged = used if clock.mode == "bronstein" else max(0, used - clock.turn_delay_ms)
    base = value + charged
    return replace(clock, reserve_ms=pair_with(clock.reserve_ms, player, base))


def clock_text(ms: int) -> str:
    """``ms`` as the clock shows it: ``M:SS`` (``H:MM:SS`` from an hour), rounded down."""
    seconds = max(0, ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"
