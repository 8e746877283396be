"""Re-deciding an imported match: every entry's line run again through the ledger's own commands.

Each entry of a copy keeps the line of the record language that made it
(``line`` in the copy, :attr:`~bgledger.events.MatchEvent.said` in the ledger;
DESIGN principle 12).  Importing runs that line again
(:func:`bgledger.commands.vocabulary.parse`, then
:meth:`~bgledger.commands.vocabulary.Command.perform`) at the entry's time, on
the match as the file recorded it up to there, by whoever recorded it, with
the events before it for the commands that decide on them (a ruling, a
correction, ``pickup-with-hit``); what it records must be the file's events,
field by field (the times aside), the events the command records along with
its first (a game won with its last play, a reserve restored with a ruling)
included.  So a file this ledger would not have recorded (a die changed, a
ruling made to void other events, a line that does not give its events) is
refused, naming the first event that differs.

Every entry's time is checked as ``record`` checks a line's ``--at``
(:func:`bgledger.commands.decide.stamp`): an ISO 8601 time, not before the year
:data:`~bgledger.commands.decide.EARLIEST_YEAR`, not in the future, and not
before the match's last event at the table, the first (``MatchStarted``)
included; a copy whose times go backwards, in a clocked match or not, is
refused naming the entry, as the ledger refuses such a line.  A copy brings no
:class:`~bgledger.events.CopyImported` of its own (no line makes one: the
import writes its own record) unless the seal given with the import vouches
for it: one forged inside an unsealed copy would make ``history`` say the
match came from a sealed copy.

The match's start is no line: it is :meth:`Match.start` with the file's first
event's setup, and the reserve, delay and doubles setting its clock was started
with recovered from the second (:func:`~bgledger.commands.redecide.clock_timing`).

An event of a copy written before lines were kept (or that no line makes, an
import's own record) is decided again by the one legacy path,
:func:`bgledger.commands.legacy.decide_file_event` (marked for removal), which
guesses the command from the event's kind.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from bgledger.commands import legacy
from bgledger.commands.decide import stamp
from bgledger.commands.legacy import COMMANDS, CONSEQUENCES, RULINGS, TIME_COMMANDS
from bgledger.commands.match import Match
from bgledger.commands.redecide import clock_timing
from bgledger.commands.stream import HistoryMismatchError
from bgledger.commands.vocabulary import parse
from bgledger.errors import BgLedgerError, InvalidTimeError
from bgledger.events import ClockStarted, CopyImported, MatchEvent, MatchStarted
from bgledger.interchange.json_schema import InconsistentMatchJsonError, own_fields, short
from bgledger.projections.state.fold import MatchState, apply, needs_history

__all__ = [
    "COMMANDS",
    "CONSEQUENCES",
    "RULINGS",
    "TIME_COMMANDS",
    "recheck",
]


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


def _decide_again(
    match: Match, events: Sequence[MatchEvent], index: int, name: str, recorded: MatchState
) -> list[MatchEvent]:
    """Run the line of ``events[index]`` again at its time, on the match as the file recorded
    it before (``recorded``); an event without a line goes the legacy way.

    :raises InconsistentMatchJsonError: if the line is no command, or the ledger refuses it.
    """
    event = events[index]
    number = event.originator_version
    if not event.said:
        try:
            return legacy.decide_file_event(match, events, index, recorded)
        except legacy.LegacyRefusedError as error:
            raise InconsistentMatchJsonError(name, str(error), error.number) from None
    try:
        command = parse(event.said)
    except BgLedgerError as error:
        raise InconsistentMatchJsonError(name, f"its line is no command: {error}", number) from None
    if command.at is not None:
        problem = f"its line {short(event.said)} gives a time: the entry's own time is its time"
        raise InconsistentMatchJsonError(name, problem, number)
    match.advance(match.version, recorded)
    decides = command.needs_history or command.reads_history
    try:
        command.timed(event.at).perform(
            match, event.recorded_by, events[:index] if decides else None
        )
    except (BgLedgerError, HistoryMismatchError) as error:
        problem = f"the ledger refuses {type(event).__name__} here ({short(event.said)}): {error}"
        raise InconsistentMatchJsonError(name, problem, number) from None
    made: list[MatchEvent] = match.collect_events()
    return made


def _check_entry(event: MatchEvent, recorded: MatchState | None, name: str, vouched: int) -> None:
    """Refuse ``event`` as ``record`` refuses a line's time, or a :class:`CopyImported` no seal
    vouches for (the first ``vouched`` events are the sealed ones).

    :raises InconsistentMatchJsonError: naming the entry and the rule.
    """
    kind, number = type(event).__name__, event.originator_version
    if isinstance(event, CopyImported) and number > vouched:
        problem = (
            "a copy brings no CopyImported of its own: the ledger writes one when it imports "
            f"(this one says {short(event.file)} sealed by {short(event.sealed_by or 'no key')}"
            "); import it with --seal and --pub of the ledger that imported it, whose seal "
            "vouches for it"
        )
        raise InconsistentMatchJsonError(name, problem, number)
    previous = recorded.last_at if recorded is not None else None
    try:
        stamp(event.at, previous or None, named=f"{kind}'s time")
    except InvalidTimeError as error:
        raise InconsistentMatchJsonError(name, f"{error} (as record refuses it)", number) from None


def _compare(recorded: MatchEvent, event: MatchEvent, name: str) -> None:
    kind, number = type(event).__name__, event.originator_version
    if type(recorded) is not type(event):
        problem = f"the file has {kind}; the ledger records {type(recorded).__name__} here"
        raise InconsistentMatchJsonError(name, problem, number)
    for f in fields(event):
        theirs, mine = getattr(event, f.name), getattr(recorded, f.name)
        # the times are the copy's, a token's claim among them (the line re-decided at the
        # time the ledger took it makes none)
        if f.name not in ("timestamp", "at", "chain", "claimed") and theirs != mine:
            what = f.name
            if isinstance(theirs, dict) and isinstance(mine, dict):  # a match's tags
                key = min(k for k in theirs.keys() | mine.keys() if theirs.get(k) != mine.get(k))
                what, theirs, mine = f"{f.name}[{key!r}]", theirs.get(key), mine.get(key)
            problem = f"{kind}'s {what} is {short(theirs)} in the file; the ledger records "
            raise InconsistentMatchJsonError(name, problem + short(mine), number)


def recheck(events: Sequence[MatchEvent], *, name: str, vouched: int = 0) -> None:
    """Re-decide ``events``, each entry's line run again: they must record the same.

    Every field but the times (and the line, the one run) must be equal, flags
    included, and a ruling's ``voids`` and ``restores``.  The file's ``at`` is
    kept: each line is decided at it (a clock's figures come from the times),
    which is checked as ``record`` checks ``--at``: in order, from the year 1900, not
    in the future.  A :class:`CopyImported` past the first ``vouched`` events (those a
    seal given with the import vouches for) is refused.

    :raises InconsistentMatchJsonError: naming the first event that differs.
    """
    first = events[0]
    if not isinstance(first, MatchStarted):
        raise InconsistentMatchJsonError(name, "a match begins with MatchStarted", 1)
    match = _restart(events, name)
    pending: deque[MatchEvent] = deque(match.collect_events())
    recorded: MatchState | None = None  # the file's events so far, folded
    for index, event in enumerate(events):
        _check_entry(event, recorded, name, vouched)
        if not pending:
            assert recorded is not None
            pending.extend(_decide_again(match, events, index, name, recorded))
        _compare(pending.popleft(), event, name)
        recorded = apply(recorded, event, events[:index] if needs_history(event) else None)
    if pending:
        problem = f"the file ends here; the ledger records {type(pending[0]).__name__} next"
        raise InconsistentMatchJsonError(name, problem, events[-1].originator_version)
    if match.state.anomalies:
        raise InconsistentMatchJsonError(name, "; ".join(match.state.anomalies))
