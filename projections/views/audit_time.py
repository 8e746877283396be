"""The clock, break and penalty-point events in the audit trail, in words.

:mod:`bgledger.projections.views.audit` describes every event; those of
:mod:`bgledger.events` are described here, against the state just before
and just after them, with the game clocks as the ledger works them out at the
event's time (:func:`bgledger.projections.state.clock.figures`)::

    Bob hit the clock: Ann's time runs (Bob 9:28, Ann 9:32)
    clock stopped: a dispute, or the director was called (USBGF 4.3.2(d)); Ann 9:32, Bob 9:59
    clock read Ann 9:31, Bob 10:16; the ledger has 9:32, 10:00: drift -0:01 / +0:16
    Ann's reserve expired (USBGF 4.3.3): Bob wins the match on time
    break: Bob, 5 minutes, until 10:15 (Ann 9:24, Bob 9:29 on the clock)
    break of 5 minutes ended 17 minutes over: Bob returned late
    1 penalty point against Bob (USBGF 2.2.4: 17 minutes late after the end of the break): ...

A match won on time or by penalty points says so (:func:`ending`, which the
score sheet's final line shares), and every entry of a match with a clock
carries the clock's figures after it (:class:`ClockReading`, for
``history --json``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bgledger.events import (
    BreakEnded,
    BreakStarted,
    ClockHit,
    ClockRead,
    ClockResumed,
    ClockSet,
    ClockStarted,
    ClockStopped,
    MatchEvent,
    MatchWon,
    PenaltyPointsAssessed,
    ReserveTimePenalized,
    ReserveTimeRestored,
    TimeExpired,
)
from bgledger.projections.state.clock import REASONS, at_ms, clock_text, figure, figures
from bgledger.projections.state.model import MatchState, other, seat
from bgledger.projections.views.words import points_of, rule_for, ruled_by_text
from bgledger.rules.profiles import Decision

__all__ = [
    "DESCRIBERS",
    "ClockReading",
    "clock_reading",
    "ending",
    "match_won_text",
    "mode_text",
    "penalty_text",
    "signed_clock",
    "wall_clock",
]

_MODES = {"simple-delay": "simple delay", "bronstein": "Bronstein delay"}


@dataclass(frozen=True, slots=True)
class ClockReading:
    """The game clocks just after an event, at its time (``history --json``'s ``clock``).

    :ivar reserve_a_ms: ``a``'s reserve as his clock shows it, in milliseconds.
    :ivar reserve_b_ms: ``b``'s.
    :ivar running: whose time runs (``a``, ``b``), or None.
    :ivar stopped: why the clock is stopped (a key of
    :data:`bgledger.projections.state.clock.REASONS`).
    """

    reserve_a_ms: int
    reserve_b_ms: int
    running: str | None
    stopped: str | None


def clock_reading(event: MatchEvent, state: MatchState) -> ClockReading | None:
    """The clocks of ``state`` (the state ``event`` made) at its time; None without a clock."""
    timer = state.timer
    if timer is None:
        return None
    a, b = figures(timer, at_ms(event.at))
    return ClockReading(a, b, timer.turn if timer.running else None, timer.stopped)


def mode_text(mode: str) -> str:
    """A clock mode in words: ``'simple delay'``, ``'Bronstein delay'``."""
    return _MODES.get(mode, mode)


def signed_clock(ms: int) -> str:
    """A difference of clock figures: ``'+0:16'``, ``'-0:01'``."""
    return ("-" if ms < 0 else "+") + clock_text(abs(ms))


def _shown(state: MatchState, now: int, order: tuple[str, str] = ("a", "b")) -> str:
    """``'Ann 9:32, Bob 10:00'``: the clocks at ``now``, in ``order``; '' without a clock."""
    timer = state.timer
    if timer is None:
        return ""
    return ", ".join(f"{state.name(p)} {clock_text(figure(timer, p, now))}" for p in order)


def _pair(state: MatchState, reserves: tuple[int, int]) -> str:
    if reserves[0] == reserves[1]:
        return f"{clock_text(reserves[0])} each"
    a, b = state.players
    return f"{a} {clock_text(reserves[0])}, {b} {clock_text(reserves[1])}"


def _why(reason: str) -> str:
    return f"; reason: {reason}" if reason else ""


# -- the clock ----------------------------------------------------------------------------


def _started(event: ClockStarted, before: MatchState, after: MatchState) -> str:
    reserves = _pair(after, (event.reserve_a_ms, event.reserve_b_ms))
    return (
        f"game clock set: {mode_text(event.mode)} ({event.rule}), {event.delay_ms / 1000:g} s "
        f"delay, {reserves}; the first hit starts it"
    )


def _hit(event: ClockHit, before: MatchState, after: MatchState) -> str:
    hitter, opponent = event.player, other(event.player)
    shown = _shown(after, at_ms(event.at), (hitter, opponent))
    return f"{after.name(hitter)} hit the clock: {after.name(opponent)}'s time runs ({shown})"


def _stopped(event: ClockStopped, before: MatchState, after: MatchState) -> str:
    why = REASONS.get(event.reason, ("", event.reason))[1]
    return f"clock stopped: {why} ({event.rule}); {_shown(after, at_ms(event.at))}"


def _resumed(event: ClockResumed, before: MatchState, after: MatchState) -> str:
    shown = _shown(after, at_ms(event.at))
    return f"clock restarted: {after.name(event.player)}'s time runs again ({shown})"


def _read(event: ClockRead, before: MatchState, after: MatchState) -> str:
    (a, b), read = after.players, (event.reserve_a_ms, event.reserve_b_ms)
    head = f"clock read {a} {clock_text(read[0])}, {b} {clock_text(read[1])}"
    if before.timer is None:
        return head
    ours = figures(before.timer, at_ms(event.at))
    drift = (read[0] - ours[0], read[1] - ours[1])
    if max(abs(d) for d in drift) < 1000:
        return f"{head}: as the ledger has it"
    return (
        f"{head}; the ledger has {clock_text(ours[0])}, {clock_text(ours[1])}: "
        f"drift {signed_clock(drift[0])} / {signed_clock(drift[1])}"
    )


def _set(event: ClockSet, before: MatchState, after: MatchState) -> str:
    was = _shown(before, at_ms(event.at))
    shown = _shown(after, at_ms(event.at))
    source = ruled_by_text(event.rule, event.ruled_by)
    return f"clock set ({source}): {shown} (was {was}){_why(event.reason)}"


_PENALIZED = {
    "warning": "a warning",
    "reserve": "{penalty} off {name}'s reserve: {left} left",
    "to-one-second": "less than {penalty} left: {name}'s reserve reduced to 0:01",
    "delay-forfeited": "no delay on {name}'s next turn",
}


def _penalized(event: ReserveTimePenalized, before: MatchState, after: MatchState) -> str:
    name = after.name(event.player)
    left = figure(after.timer, event.player, at_ms(event.at)) if after.timer else 0
    template = _PENALIZED.get(event.kind)
    what = event.kind  # a kind of a newer bgledger, as it is
    if template is not None:
        what = template.format(
            penalty=clock_text(event.penalty_ms), name=name, left=clock_text(left)
        )
    head = f"early pick-up by {name} ({ruled_by_text(event.rule, event.ruled_by)}): {what}"
    return head + _why(event.reason)


def _restored(event: ReserveTimeRestored, before: MatchState, after: MatchState) -> str:
    name = after.name(event.player)
    left = figure(after.timer, event.player, at_ms(event.at)) if after.timer else 0
    return (
        f"{clock_text(event.restored_ms)} of {name}'s reserve restored "
        f"({ruled_by_text(event.rule, event.ruled_by)}): {name} {clock_text(left)}"
        + _why(event.reason)
    )


def _expired(event: TimeExpired, before: MatchState, after: MatchState) -> str:
    name, opponent = after.name(event.player), after.name(other(event.player))
    if event.outcome == "both-expired":
        return (
            f"{name}'s reserve expired, and {opponent}'s too ({event.rule}): neither can be "
            "shown to have run out first; the clocks are set again"
        )
    left = (event.reserve_a_ms, event.reserve_b_ms)[seat(event.player)]
    if left > 0:  # an early pick-up after being reduced to one second (USBGF 4.1.7.2)
        return (
            f"{name} picked up the dice early again at {clock_text(left)} ({event.rule}): "
            f"{opponent} wins the match on time"
        )
    return f"{name}'s reserve expired ({event.rule}): {opponent} wins the match on time"


# -- breaks and penalty points ----------------------------------------------------------


def _break_started(event: BreakStarted, before: MatchState, after: MatchState) -> str:
    who = " and ".join(after.name(p) for p in event.players)
    combined = f" ({event.breaks} breaks combined)" if event.breaks > 1 else ""
    until = wall_clock(event.at, event.minutes)
    parts = [f"break: {who}, {event.minutes} minutes{combined}, until {until}"]
    if event.reserve_a_ms is not None and event.reserve_b_ms is not None:
        a, b = clock_text(event.reserve_a_ms), clock_text(event.reserve_b_ms)
        parts[0] += f" ({after.players[0]} {a}, {after.players[1]} {b} on the clock)"
    if event.during_game:
        parts.append(f"during game {after.game}: {event.exceptional or 'no reason given'}")
    if event.exception:
        rule = rule_for(after.profile, Decision.BREAK_EXCEPTION)
        parts.append(f"director's exception ({rule}): {event.exception}")
    return "; ".join(parts)


def wall_clock(at: str, minutes: int = 0) -> str:
    """``HH:MM``: the event time ``at`` (in its own offset), ``minutes`` on; '' if malformed."""
    try:
        return (datetime.fromisoformat(at) + timedelta(minutes=minutes)).strftime("%H:%M")
    except ValueError:
        return ""


def _break_ended(event: BreakEnded, before: MatchState, after: MatchState) -> str:
    opened = before.breaks.open
    head = f"break of {opened.minutes} minutes ended" if opened is not None else "break ended"
    if event.minutes_over <= 0:
        return f"{head} on time"
    head += f" {event.minutes_over} minutes over"
    if event.late is None:
        return f"{head}: nobody named late"
    return f"{head}: {after.name(event.late)} returned late"


def penalty_text(event: PenaltyPointsAssessed, state: MatchState) -> str:
    """``'1 penalty point against Bob (USBGF 2.2.4: 17 minutes late after ...)'``."""
    head = f"{points_of(event.points, 'penalty point')} against {state.name(event.player)}"
    if event.kind.startswith("late") and event.minutes_late is not None:
        where = "the starting time" if event.kind == "late-start" else "the end of the break"
        return f"{head} ({event.rule}: {event.minutes_late} minutes late after {where})"
    return f"{head} ({ruled_by_text(event.rule, event.ruled_by)}: {event.reason})"


def _penalty(event: PenaltyPointsAssessed, before: MatchState, after: MatchState) -> str:
    gainer = after.name(other(event.player))
    score = f"{after.players[0]} {after.score[0]}, {after.players[1]} {after.score[1]}"
    them = "it" if event.points == 1 else "them"
    return f"{penalty_text(event, after)}: {gainer} scores {them} ({score})"


# -- how a match ended ----------------------------------------------------------------------


def ending(previous: MatchEvent | None, state: MatchState) -> str:
    """How a match was won, if not by its games: ``' on time: ...'``, ``' by forfeit: ...'``.

    ``previous`` is the event recorded just before the :class:`MatchWon` (a
    forfeit is recorded with the event that caused it); '' for a match won
    by its games.
    """
    if isinstance(previous, TimeExpired) and previous.outcome == "forfeit":
        name = state.name(previous.player)
        left = (previous.reserve_a_ms, previous.reserve_b_ms)[seat(previous.player)]
        if left > 0:
            early = f"{name} picked up the dice early at {clock_text(left)}"
            return f" on time: {early} ({previous.rule})"
        return f" on time: {name}'s reserve expired ({previous.rule})"
    if isinstance(previous, PenaltyPointsAssessed):
        return f" by forfeit: {state.name(previous.player)}'s penalty points ({previous.rule})"
    return ""


def match_won_text(event: MatchWon, state: MatchState, previous: MatchEvent | None) -> str:
    """``'match won by Ann, 5-3'``, with how if not by its games (:func:`ending`)."""
    won, lost = (event.score_a, event.score_b)[:: 1 if event.winner == "a" else -1]
    return f"match won by {state.name(event.winner)}, {won}-{lost}{ending(previous, state)}"


DESCRIBERS: dict[type[MatchEvent], Callable[[Any, MatchState, MatchState], str]] = {
    ClockStarted: _started,
    ClockHit: _hit,
    ClockStopped: _stopped,
    ClockResumed: _resumed,
    ClockRead: _read,
    ClockSet: _set,
    ReserveTimePenalized: _penalized,
    ReserveTimeRestored: _restored,
    TimeExpired: _expired,
    BreakStarted: _break_started,
    BreakEnded: _break_ended,
    PenaltyPointsAssessed: _penalty,
}
"""The describer of each clock, break and penalty-point event: ``(event, before, after)``."""
