"""Re-deciding an imported match: every event recorded again through the ledger's own commands.

A game action is recorded again by its :class:`~bgledger.commands.match.Match` command
(:data:`COMMANDS`), a ruling by its command (:mod:`bgledger.commands.rulings`,
:data:`RULINGS`) on the history before it; what the command records must be
the file's events, field by field (the times aside), including the events a
ruling voids and restores and what it sets.  Events a command
records along with another (:data:`CONSEQUENCES`: a game won with its last
play, a match won again after a ruling) are compared as they come.

The clock, break and penalty-point events are decided at the file's times
(:mod:`~bgledger.interchange.json_recheck_time`: a clock's figures are worked
out from them), as a ruling is: on the match as the file recorded it up to
them, so the times of the game actions before them (recorded again now) do
not count.  A clocked match whose events are out of order in time is refused.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import fields, replace
from typing import Any

from bgledger import events as ev
from bgledger.commands.match import Match
from bgledger.commands.rulings import InvalidRulingError, Ruling
from bgledger.errors import BgLedgerError
from bgledger.events import ClockStarted, MatchEvent, MatchStarted, RulingMade
from bgledger.interchange.json_recheck_time import (
    TIME_COMMANDS,
    TIME_CONSEQUENCES,
    clock_timing,
    revert_plays,
)
from bgledger.interchange.json_schema import InconsistentMatchJsonError, own_fields, short
from bgledger.projections.state.fold import MatchState, apply, fold
from bgledger.rules.position import Position

__all__ = ["COMMANDS", "CONSEQUENCES", "RULINGS", "recheck"]

Decision = Callable[[Match, Sequence[MatchEvent], Any, Ruling], None]

RULINGS: dict[type[RulingMade], Decision] = {
    ev.PlaysReverted: revert_plays,  # an illegal play, or a missed hit (USBGF 4.1.8.1)
    ev.CubeActionVoided: lambda m, h, e, r: m.void_cube(h, e.event, r),
    ev.CrawfordPassNullified: lambda m, h, e, r: m.nullify_pass(h, e.event, r),
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

COMMANDS: dict[type[MatchEvent], Callable[[Match, Any, dict[str, Any]], object]] = {
    ev.OpeningRollMade: lambda m, e, k: m.opening(e.die_a, e.die_b, **k),
    ev.DiceRolled: lambda m, e, k: m.roll(e.die1, e.die2, auto_dance=False, **k),
    ev.RollVoided: lambda m, e, k: m.void_roll(e.reason, **k),
    ev.CheckersPlayed: lambda m, e, k: m.move(e.play, as_played=True, **k),
    ev.UnplayablePlayRecorded: lambda m, e, k: m.record_unplayable(e.play, e.reason, **k),
    ev.CubeOffered: lambda m, e, k: m.double(to=e.value, as_played=True, **k),
    ev.CubeTaken: lambda m, e, k: m.take(**k),
    ev.CubeDropped: lambda m, e, k: m.drop(**k),
    ev.ResignationOffered: lambda m, e, k: m.resign(e.level, player=e.player, as_played=True, **k),
    ev.ResignationAccepted: lambda m, e, k: m.accept(**k),
    ev.ResignationRejected: lambda m, e, k: m.reject(**k),
    ev.PrematureRollMade: lambda m, e, k: m.roll_early(e.die1, e.die2, **k),
    ev.PrematureRollAccepted: lambda m, e, k: m.accept_roll(**k),
    ev.PrematureRollRefused: lambda m, e, k: m.refuse_roll(**k),
    ev.PrematureDoubleMade: lambda m, e, k: m.double_early(to=e.value, as_played=True, **k),
    ev.StartingPositionRecorded: lambda m, e, k: m.record_setup(
        Position(tuple(e.board_a), tuple(e.board_b)).position_id, **k
    ),
    **{kind: lambda m, e, k: _rule(m, e, **k) for kind in _RULING_KINDS},
    **TIME_COMMANDS,
}
"""The command recording each kind of event: ``(match, event, {"by": ..., "at": None})``, and
for a ruling ``"history"``, the events before it.  A dance is re-decided by its empty play
(:meth:`Match.move` records it as :meth:`Match.roll` does; the dance of an accepted premature
roll comes with the mover's play).  Where premature rolls stand (ABT 4.6) the acceptance comes
with the roll.  :class:`RulingMade` itself is refused: a ruling is recorded as one of its kinds.
The clock, break and penalty-point events are :data:`.json_recheck_time.TIME_COMMANDS`."""

CONSEQUENCES = (MatchStarted, ev.GameStarted, ev.GameWon, ev.MatchWon, *TIME_CONSEQUENCES)
"""Events a command records along with another (:meth:`Match.start` records MatchStarted; a
ruling that leaves a match won records MatchWon; a missed hit's ruling, ReserveTimeRestored)."""

_AT_FILE_TIMES: frozenset[type[MatchEvent]] = frozenset({*_RULING_KINDS, *TIME_COMMANDS})
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
    if isinstance(later, RulingMade):
        given["history"] = events[:at]
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
        recorded = apply(recorded, event, events[:index] if isinstance(event, RulingMade) else None)
    if pending:
        problem = f"the file ends here; the ledger records {type(pending[0]).__name__} next"
        raise InconsistentMatchJsonError(name, problem, events[-1].originator_version)
    if match.state.anomalies:
        raise InconsistentMatchJsonError(name, "; ".join(match.state.anomalies))
