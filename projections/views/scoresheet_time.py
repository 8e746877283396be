"""The clock, breaks and penalty points on the score sheet
(:mod:`bgledger.projections.views.scoresheet`).

USBGF 2.2.2: for each break, the score sheet shows the wall clock time, the
game clock times and who asked for it; USBGF 2.2.4: penalty points for
lateness are scored by the opponent.  From the match's events:

- :func:`clock_setting`: the clock the match was played with (its mode, delay
  and reserves, and the game it came in if it came in late, USBGF 3.5.6);
- :func:`break_rows`: every break: when it began (wall clock), both game
  clocks then, who asked, its length, when it ended, how many minutes over
  and who was late back;
- :func:`penalty_rows`: every penalty-point assessment: when, against whom,
  how many points, the rule, the reason and who ruled;
- :func:`match_ending`: how a match was won if not by its games (on time,
  USBGF 4.3.3, or by penalty points, USBGF 2.2.4), for the final line.

These events are never voided by a ruling (:mod:`bgledger.events`), so
every one recorded is listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bgledger.events import (
    BreakEnded,
    BreakStarted,
    ClockStarted,
    GameStarted,
    GameWon,
    MatchEvent,
    MatchWon,
    PenaltyPointsAssessed,
)
from bgledger.projections.state.clock import clock_text
from bgledger.projections.state.model import MatchState
from bgledger.projections.views.audit_time import ending, mode_text, wall_clock
from bgledger.projections.views.words import points_of, rule_for
from bgledger.rules.profiles import Decision

__all__ = [
    "BREAK_COLUMNS",
    "PENALTY_COLUMNS",
    "BreakRow",
    "PenaltyRow",
    "break_rows",
    "clock_setting",
    "match_ending",
    "penalty_rows",
]

PENALTY_COLUMNS = ("Time", "Player", "Points", "Rule", "Reason", "Ruled by")
BREAK_COLUMNS = (
    "Wall clock", "Game clocks", "Requested by", "Length", "Ended", "Over", "Late", "Note",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class PenaltyRow:
    """One assessment of penalty points, as the sheet lists it.

    :ivar time: the wall clock time it was assessed (``'10:32'``).
    :ivar player: the name of the player the points are against (his opponent scores them).
    """

    time: str
    player: str
    points: int
    rule: str
    reason: str
    ruled_by: str

    def cells(self) -> tuple[str, ...]:
        """The row's cells in :data:`PENALTY_COLUMNS` order."""
        return (self.time, self.player, str(self.points), self.rule, self.reason, self.ruled_by)


@dataclass(frozen=True, slots=True)
class BreakRow:
    """One break, as USBGF 2.2.2 wants it on the sheet.

    :ivar start: the wall clock time it began (``'10:10'``).
    :ivar clocks: both game clocks then (``'Ann 9:24, Bob 9:29'``), ``'no clock'`` without one.
    :ivar requested: who asked for it (``'Bob'``, ``'Ann and Bob'``).
    :ivar length: its allowance (``'5 min'``, ``'10 min (2 combined)'``).
    :ivar ended: the wall clock time it ended, '' while it is on.
    :ivar over: minutes past the allowance (``'17 min'``), '' if none.
    :ivar late: who was late back, '' if nobody.
    :ivar note: a break during a game and why, or the director's exception (USBGF 2.2.3).
    """

    start: str
    clocks: str
    requested: str
    length: str
    ended: str = ""
    over: str = ""
    late: str = ""
    note: str = ""

    def cells(self) -> tuple[str, ...]:
        """The row's cells in :data:`BREAK_COLUMNS` order."""
        return (
            self.start, self.clocks, self.requested, self.length,
            self.ended, self.over, self.late, self.note,
        )  # fmt: skip


def penalty_rows(events: Sequence[MatchEvent], state: MatchState) -> tuple[PenaltyRow, ...]:
    """Every :class:`PenaltyPointsAssessed` of ``events``, in order; names from ``state``."""
    return tuple(
        PenaltyRow(wall_clock(e.at), state.name(e.player), e.points, e.rule, e.reason, e.ruled_by)
        for e in events
        if isinstance(e, PenaltyPointsAssessed)
    )


def _opened(event: BreakStarted, state: MatchState, game: int) -> BreakRow:
    clocks = "no clock"
    if event.reserve_a_ms is not None and event.reserve_b_ms is not None:
        (a, b), ms = state.players, (event.reserve_a_ms, event.reserve_b_ms)
        clocks = f"{a} {clock_text(ms[0])}, {b} {clock_text(ms[1])}"
    combined = f" ({event.breaks} combined)" if event.breaks > 1 else ""
    notes = [f"during game {game}: {event.exceptional}"] if event.during_game else []
    if event.exception:
        notes.append(f"exception ({rule_for(state.profile, Decision.BREAK_EXCEPTION)}): "
                     f"{event.exception}")  # fmt: skip
    return BreakRow(
        wall_clock(event.at),
        clocks,
        " and ".join(state.name(p) for p in event.players),
        f"{event.minutes} min{combined}",
        note="; ".join(notes),
    )


def _closed(row: BreakRow, event: BreakEnded, state: MatchState) -> BreakRow:
    over = f"{event.minutes_over} min" if event.minutes_over > 0 else ""
    late = state.name(event.late) if event.late else ""
    return replace(row, ended=wall_clock(event.at), over=over, late=late)


def break_rows(events: Sequence[MatchEvent], state: MatchState) -> tuple[BreakRow, ...]:
    """Every break of ``events``, in order, each with its end if it has ended."""
    rows: list[BreakRow] = []
    game, on = 0, False
    for event in events:
        if isinstance(event, GameStarted):
            game = event.number
        elif isinstance(event, BreakStarted):
            rows.append(_opened(event, state, game))
            on = True
        elif isinstance(event, BreakEnded) and on:
            rows[-1], on = _closed(rows[-1], event, state), False
    return tuple(rows)


def clock_setting(events: Sequence[MatchEvent], state: MatchState) -> str:
    """The game clock: ``'simple delay (USBGF 3.5.5), 12 s delay, 10:00 each'``; '' if none.

    A clock brought in after the first game began says from which game on.
    """
    started = won = 0
    for event in events:
        if isinstance(event, GameStarted):
            started += 1
        elif isinstance(event, GameWon):
            won += 1
        elif isinstance(event, ClockStarted):
            a, b = event.reserve_a_ms, event.reserve_b_ms
            reserves = f"{clock_text(a)} each" if a == b else f"{clock_text(a)}/{clock_text(b)}"
            text = (
                f"{mode_text(event.mode)} ({event.rule}), {event.delay_ms / 1000:g} s delay, "
                f"{reserves}"
            )
            if started and won == started:
                return f"{text}, from game {started + 1}"
            return f"{text}, during game {started}" if started else text
    if state.timer is None:
        return ""
    return f"{mode_text(state.timer.mode)}, {state.timer.delay_ms / 1000:g} s delay"


def match_ending(events: Sequence[MatchEvent], state: MatchState) -> str:
    """How ``state``'s match was won if not by its games, and the penalty points in its score.

    ``' on time: Ann's reserve expired (USBGF 4.3.3)'`` or ``' by forfeit: Bob's penalty
    points (USBGF 2.2.4)'``, then ``'; the score includes 3 penalty points against Bob'``;
    '' for a match won by its games without penalty points, or not won.
    """
    if state.winner is None:
        return ""
    found = [i for i, e in enumerate(events) if isinstance(e, MatchWon)]
    how = ending(events[found[-1] - 1], state) if found and found[-1] > 0 else ""
    against = [
        (state.name(p), points) for p, points in zip("ab", state.penalties, strict=True) if points
    ]
    if len(against) == 1:
        name, points = against[0]
        how += f"; the score includes {points_of(points, 'penalty point')} against {name}"
    elif against:
        listed = ", ".join(f"{points} against {name}" for name, points in against)
        how += f"; the score includes penalty points: {listed}"
    return how
