"""Re-deciding an imported match's clock, break and penalty-point events (:mod:`.json_recheck`).

Each event of :mod:`bgledger.events` is recorded again by the command that
decides it (the match's :class:`~bgledger.commands.clock.ClockCommands` and
:class:`~bgledger.commands.breaks.BreakCommands`) with the event's own fields
and time: a clock's figures are worked out from the times of the events, so these are decided
at the file's times, on the match as the file recorded it up to them
(:func:`~.json_recheck.recheck` brings the match there first).  What the
command records must be the file's events, field by field.

Three things the events do not record are recovered from the file:

- the reserve, delay and doubles setting a clock was started with
  (:func:`clock_timing`): the command's options that give the file's
  :class:`ClockStarted`, defaults first;
- the nominal reserve the director set when both reserves had expired
  (USBGF 4.3.3): the :class:`ClockSet` recorded with the :class:`TimeExpired`;
- the scheduled starting time a player was late for (USBGF 2.2.4): the
  assessment's ``minutes_late`` before its time.  So an assessment for a late
  start is checked against the penalty points due for its minutes, not
  against the starting time.

A :class:`TimeExpired` for a player with time left is the forfeit of an
early pick-up after being reduced to one second (USBGF 4.1.7.2), decided by
:meth:`~bgledger.commands.clock.ClockCommands.early_pickup`; any other by the flag
(:meth:`~bgledger.commands.clock.ClockCommands.flag`).  A restored reserve
(:class:`ReserveTimeRestored`) comes with the ruling that nullified the plays
made on the late player's time
(:meth:`~bgledger.commands.clock.ClockCommands.missed_hit`): :func:`revert_plays`
decides a :class:`~bgledger.events.PlaysReverted` citing a rule for a clock not
hit that way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from copy import deepcopy
from datetime import datetime, timedelta
from itertools import product
from typing import Any

from bgledger.commands import clock
from bgledger.commands.match import Match
from bgledger.commands.rulings import Ruling
from bgledger.errors import BgLedgerError
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
    PenaltyPointsAssessed,
    PlaysReverted,
    ReserveTimePenalized,
    ReserveTimeRestored,
    TimeExpired,
)
from bgledger.interchange.json_schema import own_fields
from bgledger.projections.state.clock import at_ms, figure
from bgledger.projections.state.model import seat
from bgledger.rules.profiles import Subject

__all__ = ["TIME_COMMANDS", "TIME_CONSEQUENCES", "clock_timing", "revert_plays"]

Command = Callable[[Match, Any, dict[str, Any]], object]


def _when(given: dict[str, Any]) -> dict[str, Any]:
    return {"by": given["by"], "at": given["at"]}


def _timings(event: ClockStarted) -> Iterator[dict[str, Any]]:
    """The options :meth:`~bgledger.commands.clock.ClockCommands.start_clock` may have had:
    defaults first, then the figures."""
    reserve = {None, event.reserve_a_ms}
    for doubles, reserve_ms, delay_ms in product((False, True), reserve, (None, event.delay_ms)):
        yield {"reserve_ms": reserve_ms, "delay_ms": delay_ms, "doubles": doubles}


def clock_timing(
    event: ClockStarted, attempt: Callable[[dict[str, Any]], MatchEvent | None]
) -> dict[str, Any]:
    """The options of :meth:`~bgledger.commands.clock.ClockCommands.start_clock` that record
    ``event``'s fields.

    ``{}`` if none do.

    ``attempt`` records a clock with the options given, on a copy, and
    returns the :class:`ClockStarted` recorded; the first whose fields are
    the file's is chosen.
    """
    wanted = own_fields(event)
    for timing in _timings(event):
        try:
            started = attempt(timing)
        except BgLedgerError:
            continue
        if started is not None and own_fields(started) == wanted:
            return timing
    return {}


def _clock_started(match: Match, event: ClockStarted, given: dict[str, Any]) -> object:
    def attempt(timing: dict[str, Any]) -> MatchEvent:
        return deepcopy(match).start_clock(event.mode, **timing, **_when(given))

    timing = clock_timing(event, attempt)
    return match.start_clock(event.mode, **timing, **_when(given))


def _early_pickup(match: Match, event: ReserveTimePenalized, given: dict[str, Any]) -> object:
    ruling = Ruling(event.ruled_by, event.reason, by=given["by"], at=given["at"])
    return match.early_pickup(event.player, ruling)


def _expired(match: Match, event: TimeExpired, given: dict[str, Any]) -> object:
    timer = match.state.timer
    if timer is not None and event.player in ("a", "b"):
        left = figure(timer, event.player, at_ms(event.at))
        if timer.at_one_second[seat(event.player)] and left > 0:
            # USBGF 4.1.7.2: the next early pick-up after one second forfeits the match
            why = "picked up the dice early at one second"
            return match.early_pickup(event.player, Ruling("director", why, **_when(given)))
    following = given.get("following")
    nominal = clock.NOMINAL_MS
    if event.outcome == "both-expired" and isinstance(following, ClockSet):
        nominal = following.reserve_a_ms
    return match.flag(event.player, nominal_ms=nominal, **_when(given))


def _set(match: Match, event: ClockSet, given: dict[str, Any]) -> object:
    reserves = (event.reserve_a_ms, event.reserve_b_ms)
    return match.set_clock(
        reserves, rule=event.rule, ruled_by=event.ruled_by, reason=event.reason,
        **_when(given),
    )  # fmt: skip


def _break(match: Match, event: BreakStarted, given: dict[str, Any]) -> object:
    return match.start_break(
        tuple(event.players), combine=event.breaks, exceptional=event.exceptional,
        exception=event.exception, **_when(given),
    )  # fmt: skip


def _penalty(match: Match, event: PenaltyPointsAssessed, given: dict[str, Any]) -> object:
    if event.kind == "director":
        return match.penalty(
            event.player, event.points, rule=event.rule, reason=event.reason,
            ruled_by=event.ruled_by, **_when(given),
        )  # fmt: skip
    scheduled = None
    if event.kind == "late-start" and event.minutes_late is not None:
        with suppress(OverflowError):  # minutes no calendar holds: the starting time stands
            late = datetime.fromisoformat(event.at) - timedelta(minutes=event.minutes_late)
            scheduled = late.isoformat()
    return match.late(event.player, scheduled=scheduled, **_when(given))


TIME_COMMANDS: dict[type[MatchEvent], Command] = {
    ClockStarted: _clock_started,
    ClockHit: lambda m, e, k: m.hit(e.player, **_when(k)),
    ClockStopped: lambda m, e, k: m.stop_clock(e.reason, **_when(k)),
    ClockResumed: lambda m, e, k: m.resume_clock(**_when(k)),
    ClockRead: lambda m, e, k: m.read_clock((e.reserve_a_ms, e.reserve_b_ms), **_when(k)),
    ClockSet: _set,
    ReserveTimePenalized: _early_pickup,
    TimeExpired: _expired,
    BreakStarted: _break,
    BreakEnded: lambda m, e, k: m.end_break(late=e.late or "none", **_when(k)),
    PenaltyPointsAssessed: _penalty,
}
"""The command recording each clock, break and penalty-point event: ``(match, event,
{"by": ..., "at": the event's time, "following": the event after it or None})``."""

TIME_CONSEQUENCES = (ReserveTimeRestored,)
"""Recorded only along with another event: a restore with the ruling of a missed hit."""


def revert_plays(
    match: Match, history: Sequence[MatchEvent], event: PlaysReverted, ruling: Ruling
) -> None:
    """Decide ``event`` again: a missed hit (USBGF 4.1.8.1) if its rule is one for a clock
    not hit (:data:`~bgledger.rules.profiles.Subject.CLOCK_NOT_ACTIVATED`), else an illegal
    play taken back (:meth:`bgledger.commands.rulings.RulingCommands.revert`).

    :raises BgLedgerError: as the decision refuses it.
    """
    missed = match.profile.corrections_for(Subject.CLOCK_NOT_ACTIVATED)
    if event.rule in {rule.window.rule for rule in missed}:
        match.missed_hit(history, ruling)
    else:
        match.revert(history, event.event, ruling)
