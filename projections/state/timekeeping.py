"""The fold's handlers for the clock, break and penalty-point events.

:mod:`bgledger.projections.state.fold` registers :data:`HANDLERS` (one per event type)
and calls :data:`AFTER` once a game or the match has ended, while a clock is
on: a game's end stops both clocks (USBGF 4.3.2(a)) and charges the turn in
progress.  A handler gets the fold's mutable draft (the :class:`MatchState`
fields) and never raises.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from bgledger.events import (
    TIME_EVENTS,
    BreakEnded,
    BreakStarted,
    ClockHit,
    ClockHitImplied,
    ClockRead,
    ClockRestored,
    ClockResumed,
    ClockSet,
    ClockStarted,
    ClockStopped,
    GameWon,
    MatchEvent,
    MatchWon,
    PenaltyPointsAssessed,
    ReserveTimePenalized,
    ReserveTimeRestored,
    TimeExpired,
)
from bgledger.projections.state import clock as clk
from bgledger.projections.state.breaks import Breaks, OpenBreak
from bgledger.projections.state.model import Crawford, Phase, crawford_status, other, seat

__all__ = ["AFTER", "HANDLERS", "KEEP_DANCE"]

Handler = Callable[[Any, Any], None]
HANDLERS: dict[type[MatchEvent], Handler] = {}
AFTER: dict[type[MatchEvent], Handler] = {}
E = TypeVar("E", bound=MatchEvent)


def _on(event_type: type[E]) -> Callable[[Callable[[Any, E], None]], Handler]:
    def register(handler: Callable[[Any, E], None]) -> Handler:
        HANDLERS[event_type] = handler
        return handler

    return register


def _timed(
    d: Any, event: MatchEvent, change: Callable[[clk.ClockState, int], clk.ClockState]
) -> None:
    if d.timer is not None:
        d.timer = change(d.timer, clk.at_ms(event.at))


# -- the clock -------------------------------------------------------------------------


@_on(ClockStarted)
def _started(d: Any, event: ClockStarted) -> None:
    reserves = (event.reserve_a_ms, event.reserve_b_ms)
    d.timer = clk.ClockState(event.mode, event.delay_ms, reserves, stopped=None)
    d.clock = event.mode


@_on(ClockHit)
def _hit(d: Any, event: ClockHit) -> None:
    _timed(d, event, lambda c, now: clk.hit(c, event.player, now))
    if event.passes:
        # The player on roll hit without rolling, having no legal move (CLOCK 3.4): the turn
        # passes, as the command decided and recorded.
        d.turn = other(event.player)
    if d.replay == event.player:
        d.replay = None  # his replay ends with his hit (CLOCK 4.3)


@_on(ClockHitImplied)
def _hit_implied(d: Any, event: ClockHitImplied) -> None:
    # A hit all the same, at the time of the action that implies it; flagged: a clock error.
    _timed(d, event, lambda c, now: clk.hit(c, event.player, now))
    d.flagged = (*d.flagged, event.originator_version)
    if d.replay == event.player:
        d.replay = None


@_on(ClockStopped)
def _stopped(d: Any, event: ClockStopped) -> None:
    _timed(d, event, lambda c, now: clk.stop(c, now, event.reason))


@_on(ClockResumed)
def _resumed(d: Any, event: ClockResumed) -> None:
    _timed(d, event, clk.resume)


@_on(ClockRead)
def _read(d: Any, event: ClockRead) -> None:
    def drift(c: clk.ClockState, now: int) -> clk.ClockState:
        a, b = clk.figures(c, now)
        return replace(c, drift_ms=(event.reserve_a_ms - a, event.reserve_b_ms - b))

    _timed(d, event, drift)


@_on(ClockSet)
def _set(d: Any, event: ClockSet) -> None:
    def both(c: clk.ClockState, now: int) -> clk.ClockState:
        c = clk.set_figure(c, "a", event.reserve_a_ms, now)
        return replace(clk.set_figure(c, "b", event.reserve_b_ms, now), drift_ms=None)

    _timed(d, event, both)


@_on(ReserveTimeRestored)
def _restored(d: Any, event: ReserveTimeRestored) -> None:
    def give(c: clk.ClockState, now: int) -> clk.ClockState:
        return clk.set_figure(
            c, event.player, clk.figure(c, event.player, now) + event.restored_ms, now
        )

    _timed(d, event, give)


@_on(ClockRestored)
def _clock_restored(d: Any, event: ClockRestored) -> None:
    # The clock as it stood when the event the ruling resumes at was made (USBGF 4.4.6.2):
    # the turn it timed goes on from here, with what was used of it then.
    def back(c: clk.ClockState, now: int) -> clk.ClockState:
        turn = event.player or None
        return replace(
            c,
            reserve_ms=(event.reserve_a_ms, event.reserve_b_ms),
            turn=turn,
            running=turn is not None and event.running,
            stopped=None if turn is not None and event.running else c.stopped,
            since_ms=now,
            used_ms=event.used_ms,
            turn_delay_ms=event.turn_delay_ms,
            drift_ms=None,
        )

    _timed(d, event, back)


@_on(ReserveTimePenalized)
def _penalized(d: Any, event: ReserveTimePenalized) -> None:
    def penalize(c: clk.ClockState, now: int) -> clk.ClockState:
        player = event.player
        c = replace(c, pickups=clk.pair_with(c.pickups, player, c.pickups[seat(player)] + 1))
        if event.kind == "delay-forfeited":  # CLOCK 4.1: no deductible next turn
            return replace(c, no_delay=clk.pair_with(c.no_delay, player, True))
        if event.kind == "to-one-second":  # USBGF 4.1.7.2: reduced to one second (never raised)
            c = replace(c, at_one_second=clk.pair_with(c.at_one_second, player, True))
            return clk.set_figure(c, player, min(1000, clk.figure(c, player, now)), now)
        return clk.set_figure(c, player, clk.figure(c, player, now) - event.penalty_ms, now)

    _timed(d, event, penalize)


@_on(TimeExpired)
def _expired(d: Any, event: TimeExpired) -> None:
    _timed(d, event, lambda c, now: clk.settle(c, now, "time-expired"))


def _game_over(d: Any, event: MatchEvent) -> None:
    def end(c: clk.ClockState, now: int) -> clk.ClockState:
        if c.stopped == "time-expired":  # a forfeit on time: the reason stays
            return c
        return clk.settle(c, now, "game-over")

    _timed(d, event, end)


AFTER[GameWon] = _game_over
AFTER[MatchWon] = _game_over


# -- breaks and penalty points ------------------------------------------------------------


@_on(BreakStarted)
def _break_started(d: Any, event: BreakStarted) -> None:
    used = d.breaks.used
    for player in event.players:
        used = clk.pair_with(used, player, used[seat(player)] + event.breaks)
    opened = OpenBreak(clk.at_ms(event.at), event.minutes, tuple(event.players))
    d.breaks = Breaks(used, opened, (0, 0))  # a new lateness episode
    _timed(d, event, lambda c, now: clk.stop(c, now, "break"))


@_on(BreakEnded)
def _break_ended(d: Any, event: BreakEnded) -> None:
    d.breaks = replace(d.breaks, open=None)


@_on(PenaltyPointsAssessed)
def _penalty(d: Any, event: PenaltyPointsAssessed) -> None:
    player, points = event.player, event.points
    gainer = other(player)
    d.score = clk.pair_with(d.score, gainer, d.score[seat(gainer)] + points)
    d.penalties = clk.pair_with(d.penalties, player, d.penalties[seat(player)] + points)
    if event.kind.startswith("late"):
        late = clk.pair_with(
            d.breaks.late_points, player, d.breaks.late_points[seat(player)] + points
        )
        d.breaks = replace(d.breaks, late_points=late)
    if d.phase is Phase.BETWEEN_GAMES and d.crawford is Crawford.PRE:
        # the next game is the Crawford game if the points made a player one away (USBGF 4.4.6)
        d.crawford = crawford_status(d.crawford_rule, d.length, d.score)


KEEP_DANCE = frozenset(kind for kind in TIME_EVENTS if kind not in (ClockHit, ClockHitImplied))
"""Events after which a roll that could not be played can still be voided (USBGF 4.1.4).

A hit ends the turn (USBGF 4.1.8.1), an implied one too: after it the dance stands.
"""
