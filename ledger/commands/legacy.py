"""LEGACY, marked for removal: events stored before lines were kept, decided again from their kinds.

Since DESIGN principle 12, an entry keeps the line that made it
(:attr:`~bgledger.events.MatchEvent.said`), and re-deciding it (``amend``, the
JSON copy's import) runs that line again.  A stream stored, or a JSON copy
written, before lines were kept has none: for those events alone, this module
guesses the command back from the event (:data:`ACTIONS`, :data:`CLOCK_LINES`,
and the clock's sanctions and rulings :mod:`bgledger.interchange.json_recheck`
adds to them).  The guess is lossy where two verbs record the same kinds of
event (``pickup-with-hit`` and ``clock stop dice-picked-up`` both record a
:class:`~bgledger.events.ClockStopped`), which is why lines are kept.

This is the one legacy path: :func:`decide_again` for ``amend``, and
:data:`ACTIONS`/:data:`CLOCK_LINES` for the JSON import's legacy branch
(:func:`bgledger.interchange.json_recheck.recheck`).  Remove it, with
:func:`bgledger.projections.state.corrections._legacy_follows`, once no ledger
or copy without lines is kept (``verify`` of such a ledger and the import of such
a copy then refuse them).

An opening roll records the lower die's hit with it (CLOCK 3.3) unless ``given`` says
``start_clock`` False (a match recorded before it did); a roll is re-decided as played, after
the implied hit it came with, if any (its own line, :class:`~bgledger.events.ClockHitImplied`).
A dance is re-decided by its empty play (:meth:`~bgledger.commands.play.PlayCommands.move`
records it as the roll does): the roll is re-decided without its automatic dance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from copy import deepcopy
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bgledger import events as ev
from bgledger.commands import clock
from bgledger.commands.redecide import clock_timing
from bgledger.commands.rulings import Ruling
from bgledger.errors import BgLedgerError
from bgledger.events import (
    BreakStarted,
    ClockSet,
    ClockStarted,
    EntryAmended,
    EntryCorrected,
    EntryWithdrawn,
    GameStarted,
    MatchEvent,
    MatchStarted,
    PenaltyPointsAssessed,
    PlaysReverted,
    ReserveTimePenalized,
    ReserveTimeRestored,
    RulingMade,
    TimeExpired,
)
from bgledger.projections.state.clock import at_ms, figure
from bgledger.projections.state.corrections import AFTER
from bgledger.projections.state.fold import MatchState, fold
from bgledger.projections.state.model import seat
from bgledger.rules.position import Position
from bgledger.rules.profiles import Subject

if TYPE_CHECKING:
    from bgledger.commands.match import Match

__all__ = [
    "ACTIONS",
    "CLOCK_LINES",
    "COMMANDS",
    "CONSEQUENCES",
    "RULINGS",
    "TIME_COMMANDS",
    "TIME_CONSEQUENCES",
    "Command",
    "LegacyRefusedError",
    "decide_again",
    "decide_file_event",
    "revert_plays",
    "when",
]

Command = Callable[["Match", Any, dict[str, Any]], object]
"""A command re-deciding one event: ``(match, event, {"by": ..., "at": ...})``."""


class LegacyRefusedError(BgLedgerError):
    """An event without a line that no command records again here; ``number`` is its event."""

    def __init__(self, number: int, message: str) -> None:
        self.number = number
        super().__init__(message)


def when(given: dict[str, Any]) -> dict[str, Any]:
    """Who records and when, out of ``given``."""
    return {"by": given["by"], "at": given["at"]}


ACTIONS: dict[type[MatchEvent], Command] = {
    ev.OpeningRollMade: lambda m, e, k: m.opening(
        e.die_a, e.die_b, start_clock=k.get("start_clock", True), **when(k)
    ),
    ev.DiceRolled: lambda m, e, k: m.roll(
        e.die1, e.die2, auto_dance=False, as_played=True, **when(k)
    ),
    ev.RollVoided: lambda m, e, k: m.void_roll(e.reason, **when(k)),
    ev.CheckersPlayed: lambda m, e, k: m.move(e.play, as_played=True, **when(k)),
    ev.UnplayablePlayRecorded: lambda m, e, k: m.record_unplayable(e.play, e.reason, **when(k)),
    ev.CubeOffered: lambda m, e, k: m.double(to=e.value, as_played=True, **when(k)),
    ev.CubeTaken: lambda m, e, k: m.take(**when(k)),
    ev.SocialDoubleMade: lambda m, e, k: (
        m.beaver(as_played=True, **when(k))
        if e.kind == "beaver"
        else m.automatic_double(as_played=True, **when(k))
    ),
    ev.CubeDropped: lambda m, e, k: m.drop(**when(k)),
    ev.ResignationOffered: lambda m, e, k: m.resign(
        e.level, player=e.player, as_played=True, **when(k)
    ),
    ev.ResignationAccepted: lambda m, e, k: m.accept(**when(k)),
    ev.ResignationRejected: lambda m, e, k: m.reject(**when(k)),
    ev.PrematureRollMade: lambda m, e, k: m.roll_early(e.die1, e.die2, **when(k)),
    ev.SingleDiceAgreed: lambda m, e, k: m.play_singles(**when(k)),
    ev.PrematureRollAccepted: lambda m, e, k: m.accept_roll(**when(k)),
    ev.PrematureRollRefused: lambda m, e, k: m.refuse_roll(**when(k)),
    ev.PrematureDoubleMade: lambda m, e, k: m.double_early(to=e.value, as_played=True, **when(k)),
    ev.StartingPositionRecorded: lambda m, e, k: m.record_setup(
        Position(tuple(e.board_a), tuple(e.board_b)).position_id, **when(k)
    ),
    ev.RemarkRecorded: lambda m, e, k: m.remark(e.text, role=e.role, **when(k)),
    ev.CopyImported: lambda m, e, k: m.copy_imported(
        e.file, e.sealed_by, e.sealed_through, **when(k)
    ),
    ev.MatchForfeited: lambda m, e, k: m.forfeit_match(e.player, e.reason, **when(k)),
    # cube statements (issue 33)
    ev.CubeStatementMade: lambda m, e, k: m.announce(e.statement, player=e.player, **when(k)),
}
"""The command recording each kind of game action."""

ACTIONS.update(
    {  # the classic laws of the throw and the touch (CLASSIC 7, 8, 11)
        ev.ManTouched: lambda m, e, k: m.touch(e.point, **when(k)),
        ev.ManAdjusted: lambda m, e, k: m.jadoube(e.point, **when(k)),
        ev.DiceSet: lambda m, e, k: m.interfered(e.die1, e.die2, **when(k)),
        ev.ThrowCalled: lambda m, e, k: m.call(e.die1, e.die2, **when(k)),
    }
)

CLOCK_LINES: dict[type[MatchEvent], Command] = {
    ev.ClockHit: lambda m, e, k: m.hit(e.player, **when(k)),
    ev.ClockHitImplied: lambda m, e, k: m.hit_implied(**when(k)),  # then the action as played
    ev.ClockStopped: lambda m, e, k: m.stop_clock(e.reason, **when(k)),
    ev.ClockResumed: lambda m, e, k: m.resume_clock(**when(k)),
    ev.ClockRead: lambda m, e, k: m.read_clock((e.reserve_a_ms, e.reserve_b_ms), **when(k)),
    ev.BreakEnded: lambda m, e, k: m.end_break(late=e.late or "none", **when(k)),
}
"""The command recording each clock and break line a scorekeeper enters that its event's
fields decide alone (the clock's start, a break's start and the director's sanctions need
what :mod:`bgledger.interchange.json_recheck` recovers)."""


_WITH_NEXT: tuple[type[MatchEvent], ...] = (GameStarted,)
"""Recorded by the command of the event after it (a game starts with its opening roll)."""


def decide_again(match: Match, events: Sequence[MatchEvent], index: int) -> list[MatchEvent]:
    """What the command of ``events[index]`` (or of the entry it opens) records on ``match``,
    guessed from its kind (an event stored without its line).

    :raises LegacyRefusedError: if no command records it, or the command refuses.
    """
    event = events[index]
    number, kind = event.originator_version, type(event).__name__
    if isinstance(event, AFTER):
        raise LegacyRefusedError(
            number,
            f"event {number} ({kind}) no longer follows: after the amendment the entry "
            "before it does not lead to it; amend or undo that entry first",
        )
    given = next((e for e in events[index:] if not isinstance(e, _WITH_NEXT)), event)
    command = ACTIONS.get(type(given)) or CLOCK_LINES.get(type(given))
    if command is None:
        raise LegacyRefusedError(
            number,
            f"entry {number} ({kind}) cannot be decided again after an amendment: "
            "undo back to the mistaken entry instead",
        )
    try:
        command(match, given, {"by": given.recorded_by, "at": given.at})
    except BgLedgerError as error:
        raise LegacyRefusedError(
            given.originator_version,
            f"entry {given.originator_version} ({type(given).__name__}) no longer fits the "
            f"amended history: {error}",
        ) from None
    made: list[MatchEvent] = match.collect_events()
    return made


# -- the JSON copy's events without lines ---------------------------------------------------


def _clock_started(match: Match, event: ClockStarted, given: dict[str, Any]) -> object:
    def attempt(timing: dict[str, Any]) -> MatchEvent:
        return deepcopy(match).start_clock(event.mode, **timing, **when(given))

    timing = clock_timing(event, attempt)
    return match.start_clock(event.mode, **timing, **when(given))


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
            return match.early_pickup(event.player, Ruling("director", why, **when(given)))
    following = given.get("following")
    nominal = clock.NOMINAL_MS
    if event.outcome == "both-expired" and isinstance(following, ClockSet):
        nominal = following.reserve_a_ms
    return match.flag(event.player, nominal_ms=nominal, **when(given))


def _set(match: Match, event: ClockSet, given: dict[str, Any]) -> object:
    reserves = (event.reserve_a_ms, event.reserve_b_ms)
    return match.set_clock(
        reserves, rule=event.rule, ruled_by=event.ruled_by, reason=event.reason,
        **when(given),
    )  # fmt: skip


def _break(match: Match, event: BreakStarted, given: dict[str, Any]) -> object:
    return match.start_break(
        tuple(event.players), combine=event.breaks, exceptional=event.exceptional,
        exception=event.exception, **when(given),
    )  # fmt: skip


def _penalty(match: Match, event: PenaltyPointsAssessed, given: dict[str, Any]) -> object:
    if event.kind == "director":
        return match.penalty(
            event.player, event.points, rule=event.rule, reason=event.reason,
            ruled_by=event.ruled_by, **when(given),
        )  # fmt: skip
    if event.scheduled is not None:  # the director's scheduled start, recorded with it
        return match.late(event.player, scheduled=event.scheduled, **when(given))
    scheduled = None
    if event.kind == "late-start" and event.minutes_late is not None:
        with suppress(OverflowError):  # minutes no calendar holds: the starting time stands
            late = datetime.fromisoformat(event.at) - timedelta(minutes=event.minutes_late)
            scheduled = late.isoformat()
    return match.late(event.player, scheduled=scheduled, stated=False, **when(given))


TIME_COMMANDS: dict[type[MatchEvent], Command] = {
    **CLOCK_LINES,
    ClockStarted: _clock_started,
    ClockSet: _set,
    ReserveTimePenalized: _early_pickup,
    TimeExpired: _expired,
    BreakStarted: _break,
    PenaltyPointsAssessed: _penalty,
    # issue 33 (clockrules): the director requires a concession's acceptance (CLOCK 5.1)
    ev.ConcessionAcceptanceRequired: lambda m, e, k: m.must_accept(
        Ruling(e.ruled_by, e.reason, by=k["by"], at=k["at"])
    ),
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


Decision = Callable[["Match", Sequence[MatchEvent], Any, Ruling], None]

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

RULINGS[ev.CallCorrected] = lambda m, h, e, r: m.correct_call(h, e.event, r)  # CLASSIC 8


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
        raise LegacyRefusedError(
            event.originator_version, f"a ruling is recorded as one of its kinds ({kinds})"
        )
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
    from bgledger.commands.vocabulary import parse  # the vocabulary runs on the aggregate

    if isinstance(event, EntryAmended):
        said = parse(event.line)

        def perform(scratch: Match, when: str) -> None:
            said.timed(when).perform(scratch, by)

        match.amend(
            history, event.event, perform,
            line=event.line, reason=event.reason, ruled_by=event.ruled_by, by=by, at=at,
        )  # fmt: skip
    elif isinstance(event, EntryWithdrawn):
        match.withdraw(history, reason=event.reason, ruled_by=event.ruled_by, by=by, at=at)
    else:
        raise LegacyRefusedError(
            event.originator_version, "a correction is recorded as EntryWithdrawn or EntryAmended"
        )


COMMANDS: dict[type[MatchEvent], Command] = {
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


def decide_file_event(
    match: Match, events: Sequence[MatchEvent], index: int, recorded: MatchState
) -> list[MatchEvent]:
    """Run the command that records ``events[index]`` of a JSON copy (or the action it goes
    with), guessed from its kind: an event written without its line.

    ``recorded`` is the match as the file recorded it before ``events[index]``.

    :raises LegacyRefusedError: if no command records it, or the command refuses (its
        message is the problem :mod:`bgledger.interchange.json_recheck` reports).
    """
    event = events[index]
    at = next((i for i in range(index, len(events)) if type(events[i]) in COMMANDS), None)
    if at is None:
        problem = f"{type(event).__name__} here goes with no action of this ledger"
        raise LegacyRefusedError(event.originator_version, problem)
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
        raise LegacyRefusedError(later.originator_version, problem) from None
    made: list[MatchEvent] = match.collect_events()
    return made
