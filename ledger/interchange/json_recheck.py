"""Re-deciding an imported match: every event recorded again through the ledger's own commands.

A game action is recorded again by its :class:`~bgledger.commands.match.Match` command
(:data:`COMMANDS`), a ruling by its command (:mod:`bgledger.commands.rulings`,
:data:`RULINGS`) on the history before it; what the command records must be
the file's events, field by field (the times aside), including the events a
ruling voids and restores and what it sets.  Events a command
records along with another (:data:`CONSEQUENCES`: a game won with its last
play, a match won again after a ruling) are compared as they come.

The clock, break and penalty-point events (:data:`TIME_COMMANDS`) are
decided at the file's times, as a ruling is: a clock's figures are worked out
from the times of the events, so each is recorded again by the command that
decides it (the match's :class:`~bgledger.commands.clock.ClockCommands` and
:class:`~bgledger.commands.breaks.BreakCommands`) with the event's own fields
and time, on the match as the file recorded it up to them; the times of the
game actions before them (recorded again now) do not count.  What the command
records must be the file's events, field by field.  A clocked match whose
events are out of order in time is refused.

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

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from copy import deepcopy
from dataclasses import fields, replace
from datetime import datetime, timedelta
from itertools import product
from typing import Any

from bgledger import events as ev
from bgledger.commands import clock
from bgledger.commands.corrections import InvalidCorrectionError
from bgledger.commands.match import Match
from bgledger.commands.redecide import ACTIONS, CLOCK_LINES, Command
from bgledger.commands.rulings import InvalidRulingError, Ruling
from bgledger.commands.vocabulary import parse
from bgledger.errors import BgLedgerError
from bgledger.events import (
    BreakStarted,
    ClockSet,
    ClockStarted,
    EntryAmended,
    EntryCorrected,
    EntryWithdrawn,
    MatchEvent,
    MatchStarted,
    PenaltyPointsAssessed,
    PlaysReverted,
    ReserveTimePenalized,
    ReserveTimeRestored,
    RulingMade,
    TimeExpired,
)
from bgledger.interchange.json_schema import InconsistentMatchJsonError, own_fields, short
from bgledger.projections.state.clock import at_ms, figure
from bgledger.projections.state.fold import MatchState, apply, fold, needs_history
from bgledger.projections.state.model import seat
from bgledger.rules.profiles import Subject

__all__ = [
    "COMMANDS",
    "CONSEQUENCES",
    "RULINGS",
    "TIME_COMMANDS",
    "TIME_CONSEQUENCES",
    "clock_timing",
    "recheck",
    "revert_plays",
]


# -- the clock, break and penalty-point events ----------------------------------------------


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
    if event.scheduled is not None:  # the director's scheduled start, recorded with it
        return match.late(event.player, scheduled=event.scheduled, **_when(given))
    scheduled = None
    if event.kind == "late-start" and event.minutes_late is not None:
        with suppress(OverflowError):  # minutes no calendar holds: the starting time stands
            late = datetime.fromisoformat(event.at) - timedelta(minutes=event.minutes_late)
            scheduled = late.isoformat()
    return match.late(event.player, scheduled=scheduled, stated=False, **_when(given))


TIME_COMMANDS: dict[type[MatchEvent], Command] = {
    **CLOCK_LINES,
    ClockStarted: _clock_started,
    ClockSet: _set,
    ReserveTimePenalized: _early_pickup,
    TimeExpired: _expired,
    BreakStarted: _break,
    PenaltyPointsAssessed: _penalty,
}
"""The command recording each clock, break and penalty-point event: ``(match, event,
{"by": ..., "at": the event's time, "following": the event after it or None})``."""

TIME_CONSEQUENCES = (ReserveTimeRestored, ev.ClockRestored)
"""Recorded only along with another event: a restore with the ruling of a missed hit, the
clock put back with a nullified pass."""


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


# -- every event of the match ---------------------------------------------------------------


Decision = Callable[[Match, Sequence[MatchEvent], Any, Ruling], None]

RULINGS: dict[type[RulingMade], Decision] = {
    ev.PlaysReverted: revert_plays,  # an illegal play, or a missed hit (USBGF 4.1.8.1)
    ev.CubeActionVoided: lambda m, h, e, r: m.void_cube(h, e.event, r),
    ev.CrawfordPassNullified: lambda m, h, e, r: m.nullify_pass(h, e.event, r),
    ev.ConcessionVoided: lambda m, h, e, r: m.void_concession(h, e.event, r),
    ev.CubeLevelCorrected: lambda m, h, e, r: m.correct_cube(h, e.event, r),
    ev.MatchLengthCorrected: lambda m, h, e, r: m.correct_length(h, e.length, r),
    ev.ScoreCorrected: lambda m, h, e, r: m.correct_score(h, (e.score_a, e.score_b), r),
    ev.RulingNoted: lambda m, h, e, r: m.note(h, r),
    ev.RulingOverturned: lambda m, h, e, r: m.overturn(h, e.ruling, r),
    ev.StartingPositionCorrected: lambda m, h, e, r: m.correct_setup(h, e.event, r),
}
"""The decision recording each kind of ruling: ``(match, history before it, event, ruling)``."""


def _rule(
    match: Match, event: RulingMade, *, by: str, at: str | None, history: Sequence[MatchEvent]
) -> None:
    """Decide the ruling ``event`` again: who ruled, why, under which rule, as the file says.

    A ruling is decided on the match as the file recorded it, at the file's
    times (a missed hit's restore counts the clock up to it): :func:`_redecide`
    brought the match there (the commands before it recorded theirs as now).
    The rule is the file's where the decision takes one; a ruling whose
    recorded rule names no window of the profile (a double's rule, or a
    remedy's) is decided as it was, by the first rule whose window is open.
    """
    decide = RULINGS.get(type(event))
    if decide is None:
        kinds = ", ".join(kind.__name__ for kind in RULINGS)
        raise InvalidRulingError(f"a ruling is recorded as one of its kinds ({kinds})")
    given = Ruling(event.ruled_by, event.reason, event.rule, event.agreed, by=by, at=at)
    try:
        decide(deepcopy(match), history, event, given)
    except BgLedgerError:
        given = replace(given, rule=None)
    decide(match, history, event, given)


_RULING_KINDS: tuple[type[MatchEvent], ...] = (RulingMade, *RULINGS)
_CORRECTIONS: tuple[type[MatchEvent], ...] = (EntryCorrected, EntryWithdrawn, EntryAmended)


def _correct(
    match: Match, event: MatchEvent, *, by: str, at: str | None, history: Sequence[MatchEvent]
) -> None:
    """Decide the correction of a recording error ``event`` again (``undo`` or ``amend``)."""
    if isinstance(event, EntryAmended):
        said = parse(event.line)

        def perform(scratch: Match, when: str) -> None:
            said.timed(when).run(scratch, by)

        match.amend(
            history, event.event, perform,
            line=event.line, reason=event.reason, ruled_by=event.ruled_by, by=by, at=at,
        )  # fmt: skip
    elif isinstance(event, EntryWithdrawn):
        match.withdraw(history, reason=event.reason, ruled_by=event.ruled_by, by=by, at=at)
    else:
        raise InvalidCorrectionError("a correction is recorded as EntryWithdrawn or EntryAmended")


COMMANDS: dict[type[MatchEvent], Callable[[Match, Any, dict[str, Any]], object]] = {
    **ACTIONS,
    **{kind: lambda m, e, k: _rule(m, e, **k) for kind in _RULING_KINDS},
    **{kind: lambda m, e, k: _correct(m, e, **k) for kind in _CORRECTIONS},
    **TIME_COMMANDS,
}
"""The command recording each kind of event: ``(match, event, {"by": ..., "at": None})``, and
for a ruling ``"history"``, the events before it.  A dance is re-decided by its empty play
(:meth:`Match.move` records it as :meth:`Match.roll` does; the dance of an accepted premature
roll comes with the mover's play).  Where premature rolls stand (ABT 4.6) the acceptance comes
with the roll.  :class:`RulingMade` itself is refused: a ruling is recorded as one of its kinds.
The clock, break and penalty-point events are :data:`TIME_COMMANDS`."""

CONSEQUENCES = (MatchStarted, ev.GameStarted, ev.GameWon, ev.MatchWon, *TIME_CONSEQUENCES)
"""Events a command records along with another (:meth:`Match.start` records MatchStarted; a
ruling that leaves a match won records MatchWon; a missed hit's ruling, ReserveTimeRestored)."""

_AT_FILE_TIMES: frozenset[type[MatchEvent]] = frozenset(
    {*_RULING_KINDS, *_CORRECTIONS, *TIME_COMMANDS}
)
"""The events decided at their own time on the match as the file recorded it (see above)."""


def _restart(events: Sequence[MatchEvent], name: str) -> Match:
    """:meth:`Match.start` as the file's first event, with its clock as the second sets it.

    :raises InconsistentMatchJsonError: if the ledger refuses the setup (event 1).
    """
    event = events[0]
    assert isinstance(event, MatchStarted)
    setup = own_fields(event)
    match_id, a, b, length = (setup.pop(k) for k in ("match_id", "player_a", "player_b", "length"))
    if "score_a" in setup:
        setup["score"] = (setup.pop("score_a"), setup.pop("score_b"))
    by = event.recorded_by

    def start(timing: dict[str, Any]) -> Match:
        return Match.start(event.originator_id, match_id, (a, b), length, by=by, **setup, **timing)

    def clock_of(timing: dict[str, Any]) -> MatchEvent | None:
        return next(iter(start(timing).collect_events()[1:]), None)

    second = events[1] if len(events) > 1 else None
    timing: dict[str, Any] = {}
    if isinstance(second, ClockStarted) and event.clock != "none":
        timing = clock_timing(second, clock_of)  # the reserve and delay it was started with
    try:
        return start(timing)
    except BgLedgerError as error:
        raise InconsistentMatchJsonError(name, f"refused by the ledger: {error}", 1) from None


def _redecide(
    match: Match, events: Sequence[MatchEvent], index: int, name: str, recorded: MatchState
) -> list[Any]:
    """Run the command that records ``events[index]`` (or the action it goes with).

    ``recorded`` is the match as the file recorded it before ``events[index]``.

    :raises InconsistentMatchJsonError: if no command records it, or the command refuses.
    """
    event = events[index]
    at = next((i for i in range(index, len(events)) if type(events[i]) in COMMANDS), None)
    if at is None:
        problem = f"{type(event).__name__} here goes with no action of this ledger"
        raise InconsistentMatchJsonError(name, problem, event.originator_version)
    later = events[at]
    given: dict[str, Any] = {"by": event.recorded_by, "at": None}
    if type(later) in _AT_FILE_TIMES:
        # A ruling and a clock count the events' times:
        # decide it at that time, on the match as the file recorded it.
        match.advance(match.version, fold(events[index:at], recorded) or recorded)
        given["at"] = later.at
    if isinstance(later, RulingMade | EntryCorrected):
        given["history"] = events[:at]
    elif isinstance(later, ev.OpeningRollMade):  # CLOCK 3.3's hit, unless recorded before it was
        given["start_clock"] = at + 1 < len(events) and isinstance(events[at + 1], ev.ClockHit)
    elif type(later) in TIME_COMMANDS:
        given["following"] = events[at + 1] if at + 1 < len(events) else None
    try:
        COMMANDS[type(later)](match, later, given)
    except BgLedgerError as error:
        problem = f"the ledger refuses {type(later).__name__} here: {error}"
        raise InconsistentMatchJsonError(name, problem, later.originator_version) from None
    return match.collect_events()


def _compare(recorded: MatchEvent, event: MatchEvent, name: str) -> None:
    kind, number = type(event).__name__, event.originator_version
    if type(recorded) is not type(event):
        problem = f"the file has {kind}; the ledger records {type(recorded).__name__} here"
        raise InconsistentMatchJsonError(name, problem, number)
    for f in fields(event):
        theirs, mine = getattr(event, f.name), getattr(recorded, f.name)
        if f.name not in ("timestamp", "at", "chain") and theirs != mine:
            what = f.name
            if isinstance(theirs, dict) and isinstance(mine, dict):  # a match's tags
                key = min(k for k in theirs.keys() | mine.keys() if theirs.get(k) != mine.get(k))
                what, theirs, mine = f"{f.name}[{key!r}]", theirs.get(key), mine.get(key)
            problem = f"{kind}'s {what} is {short(theirs)} in the file; the ledger records "
            raise InconsistentMatchJsonError(name, problem + short(mine), number)


def recheck(events: Sequence[MatchEvent], *, name: str) -> None:
    """Re-decide ``events`` through the :class:`Match` commands: they must record the same.

    Every field but the times must be equal, flags included, and a ruling's
    ``voids`` and ``restores``.  The file's ``at`` is kept, not
    re-decided (:func:`~bgledger.interchange.json_stream.read_json` checks its
    form): events recorded without ``--at`` on machines whose clocks differ
    may be out of order.  Rulings and the clock, break and penalty-point
    events are decided at their ``at`` (a clock's figures come from the
    times), which must not be before the event recorded ahead of them.

    :raises InconsistentMatchJsonError: naming the first event that differs.
    """
    first = events[0]
    if not isinstance(first, MatchStarted):
        raise InconsistentMatchJsonError(name, "a match begins with MatchStarted", 1)
    match = _restart(events, name)
    pending: deque[MatchEvent] = deque(match.collect_events())
    recorded: MatchState | None = None  # the file's events so far, folded
    for index, event in enumerate(events):
        if not pending:
            assert recorded is not None
            pending.extend(_redecide(match, events, index, name, recorded))
        _compare(pending.popleft(), event, name)
        recorded = apply(recorded, event, events[:index] if needs_history(event) else None)
    if pending:
        problem = f"the file ends here; the ledger records {type(pending[0]).__name__} next"
        raise InconsistentMatchJsonError(name, problem, events[-1].originator_version)
    if match.state.anomalies:
        raise InconsistentMatchJsonError(name, "; ".join(match.state.anomalies))
