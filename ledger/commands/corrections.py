"""Recording errors corrected: ``undo`` and ``amend``, decided then recorded (DESIGN principle 9).

A scorekeeper who typed ``roll 6 3`` for a 6-4, or ``13/7`` for ``13/8``,
corrects the record, not the game: nothing happened at the board for a
director to rule on, so these are not rulings (no rule window, no
``--rule``).  The mistaken entry stays in the log as it was recorded; the
correction is an event of its own (:mod:`bgledger.events.corrections`) that
says who corrected it, when and why.

- :meth:`CorrectionCommands.withdraw` (``undo``): the last entry in force was
  never made.  Undoing again withdraws the entry before it.
- :meth:`CorrectionCommands.remark` (``note TEXT``): the scorekeeper's own
  remark for the record, which changes nothing and is no ruling either.
- :meth:`CorrectionCommands.amend` (``amend N LINE``): entry ``N`` was
  mis-entered and ``LINE`` is what happened.  The line is decided by the
  match's own command on the match as it stood before entry ``N`` (as
  corrected), at that entry's time unless the line gives its own; then every
  later entry's line (DESIGN principle 12) is run again after it, at the
  entry's own time, and must record the same facts
  (:func:`bgledger.commands.redecide.differences`; an entry stored before lines
  were kept is decided by :mod:`bgledger.commands.legacy`).  If one no longer
  fits, the amendment is refused naming it, and nothing is appended.

Who may correct what (USBGF 4.7: the players agree the score before each
new game starts, and the director resolves scoring disputes): the
scorekeeper alone may correct any entry of the game in progress (or of the
game that just ended, before the next one starts).  An entry of an earlier
game needs ``--ruled-by director``.  An entry that a director's ruling was
decided on after it (a ruling, or a reserve restored: ``pickup-with-hit``,
``missed-hit``, USBGF 4.1.8.1) is not a recording error any more: the director
corrects it by a ruling (or a committee's appeal).  The clock's sanctions
(an expired reserve, a penalty, a clock set by the director) are rulings
themselves and are never withdrawn as typos.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import fields
from typing import Any

from bgledger.commands import legacy
from bgledger.commands.redecide import differences
from bgledger.commands.stream import HistoryMismatchError, MatchStream
from bgledger.errors import ActionRefusedError, BgLedgerError, RulesError
from bgledger.events import (
    ClockRestored,
    ClockSet,
    ClockStopped,
    CopyImported,
    EntryAmended,
    EntryCorrected,
    EntryWithdrawn,
    MatchEvent,
    PenaltyPointsAssessed,
    RemarkRecorded,
    ReserveTimePenalized,
    ReserveTimeRestored,
    RulingMade,
    RulingNoted,
    TimeExpired,
)
from bgledger.events.names import topic_of
from bgledger.projections.state.corrections import Entry, entries
from bgledger.projections.state.fold import fold_in_force
from bgledger.projections.state.rulings import amended_slots, in_force, voided_by
from bgledger.rules.profiles import Decision

__all__ = [
    "CORRECTORS",
    "CorrectionCommands",
    "CorrectionRefusedError",
    "EntryNoLongerFitsError",
    "InvalidCorrectionError",
    "entries_in_force",
    "replacement_fields",
]

CORRECTORS = ("", "director")
"""Who corrects a recording error: the scorekeeper alone (``""``) or with the director's leave."""

SANCTIONS: tuple[type[MatchEvent], ...] = (
    ClockRestored,
    TimeExpired,
    ReserveTimePenalized,
    ReserveTimeRestored,
    PenaltyPointsAssessed,
    ClockSet,
)
"""The director's decisions among the clock's events: never withdrawn as a typo."""


class CorrectionRefusedError(ActionRefusedError):
    """A correction the ledger cannot make: nothing to undo, an earlier game without the
    director, an entry a ruling was decided on."""


class EntryNoLongerFitsError(CorrectionRefusedError):
    """An amendment after which a later entry would not be recorded as it was.

    ``number`` is that entry's event.
    """

    def __init__(self, number: int, message: str, rule: str | None = None) -> None:
        self.number = number
        super().__init__(message, rule)


class InvalidCorrectionError(RulesError):
    """A correction that names no entry (an event number the match does not have, a ruling)."""


Perform = Callable[[Any, str], None]
"""Records a line on a match, at the given time unless the line gives its own."""


def entries_in_force(
    history: Sequence[MatchEvent], kept: Sequence[MatchEvent] | None = None
) -> list[Entry]:
    """The entries of the match as corrected (amended ones in place), in order.

    ``kept`` is ``in_force(history)`` when the caller has it already (the entries hold
    its very events).
    """
    return entries(in_force(history) if kept is None else kept, amended_slots(history))


def replacement_fields(event: MatchEvent) -> dict[str, Any]:
    """``event`` as an amendment stores it: its stored name and its fields (time, recorder)."""
    own = {
        f.name: getattr(event, f.name)
        for f in fields(event)
        if f.name not in ("originator_id", "originator_version", "timestamp", "chain")
    }
    return {"kind": topic_of(type(event)), "fields": own}


class CorrectionCommands(MatchStream):
    """``undo`` and ``amend``: a scorekeeper's recording errors, corrected by events of their own.

    Like a ruling, a correction takes ``history``, the match's events so far
    as stored (:meth:`bgledger.store.application.MatchStore.rule` reads them).
    """

    def withdraw(
        self,
        history: Sequence[MatchEvent],
        *,
        reason: str = "",
        ruled_by: str = "",
        by: str,
        at: str | None = None,
    ) -> EntryWithdrawn:
        """Withdraw the last entry in force (``undo``), with what its command recorded with it.

        :raises CorrectionRefusedError: if there is nothing to undo, or it may not be undone.
        """
        found = entries_in_force(history)
        if not found:
            raise CorrectionRefusedError("nothing to undo: no entry has been recorded yet")
        entry = found[-1]
        self._may_correct(history, found, entry, ruled_by)
        return self._record(
            EntryWithdrawn, by, at, history,
            event=entry.number, voids=list(entry.voids), reason=reason.strip(), ruled_by=ruled_by,
        )  # fmt: skip

    def amend(
        self,
        history: Sequence[MatchEvent],
        number: int,
        perform: Perform,
        *,
        line: str,
        reason: str = "",
        ruled_by: str = "",
        by: str,
        at: str | None = None,
    ) -> EntryAmended:
        """Entry ``number`` was mis-entered: ``perform`` records what happened (``line``).

        :raises InvalidCorrectionError: if ``number`` is no entry of the match.
        :raises CorrectionRefusedError: if the entry may not be corrected.
        :raises EntryNoLongerFitsError: if a later entry would not be recorded as it was.
        :raises BgLedgerError: as the line's own command refuses it (nothing is appended).
        """
        kept = in_force(history)
        found = entries_in_force(history, kept)
        entry = self._entry(history, found, number)
        self._may_correct(history, found, entry, ruled_by)
        index = next(i for i, e in enumerate(kept) if e is entry.events[0])
        scratch = deepcopy(self)
        scratch.advance(self.version, fold_in_force(kept[:index]) or self.state)
        with scratch.saying(line.strip()):  # the replacement's first event keeps its line
            perform(scratch, entry.first.at)
        made = scratch.collect_events()
        self._still_fits(scratch, kept[index + len(entry.events) :], history)
        return self._record(
            EntryAmended, by, at, history,
            event=entry.number, voids=list(entry.voids), reason=reason.strip(),
            ruled_by=ruled_by, line=line.strip(), replacement=[replacement_fields(e) for e in made],
        )  # fmt: skip

    def remark(
        self, text: str, *, by: str, at: str | None = None, role: str = ""
    ) -> RemarkRecorded:
        """A remark for the record (``note TEXT``); the match is unchanged.  ``role``: who
        said it (``scorekeeper``, ``director``, ``committee``; ``""``: no one said).

        Not a ruling: no ``--ruled-by``, no rule.  Like any entry it can be withdrawn.

        :raises InvalidCorrectionError: for an empty remark.
        """
        if not text.strip():
            raise InvalidCorrectionError("a note needs its text, e.g. note 'Bob asked for a break'")
        return self._record(RemarkRecorded, by, at, text=text.strip(), role=role)

    def copy_imported(
        self, file: str, sealed_by: str, sealed_through: int, *, by: str, at: str | None = None
    ) -> CopyImported:
        """Where the match came from: a JSON copy, sealed by ``sealed_by`` (``""``: unsealed).

        Recorded by the import, after the copy's events (and decided again when
        a copy of this match is imported: it is one of its events).
        """
        return self._record(
            CopyImported, by, at, file=file, sealed_by=sealed_by, sealed_through=sealed_through
        )

    # -- what every correction checks ------------------------------------------------------

    def _entry(self, history: Sequence[MatchEvent], found: list[Entry], number: int) -> Entry:
        """The entry in force that event ``number`` belongs to.

        :raises InvalidCorrectionError: for a number the match lacks, a ruling, a correction.
        :raises CorrectionRefusedError: for an event no longer in force.
        """
        if not 1 <= number <= len(history):
            raise InvalidCorrectionError(f"event {number}: the match has events 1-{len(history)}")
        for entry in found:
            if any(e.originator_version == number for e in entry.events):
                return entry
        event = history[number - 1]
        kind = type(event).__name__
        if isinstance(event, RulingMade):
            raise InvalidCorrectionError(
                f"event {number} is a ruling ({kind}), not an entry: an appeal overturns it"
            )
        if isinstance(event, EntryCorrected):
            raise InvalidCorrectionError(
                f"event {number} is a correction ({kind}): amend entry {event.event} itself"
            )
        voided = voided_by(history)
        if number in voided:
            raise CorrectionRefusedError(
                f"event {number} ({kind}) is not in force: event {voided[number]} voided it"
            )
        raise InvalidCorrectionError(f"event {number} ({kind}) is not an entry of a game")

    def _may_correct(
        self, history: Sequence[MatchEvent], found: list[Entry], entry: Entry, ruled_by: str
    ) -> None:
        """Refuse what a scorekeeper may not correct (see the module's text).

        :raises InvalidCorrectionError: for an unknown ``ruled_by``.
        :raises CorrectionRefusedError: for a sanction, an entry a ruling was decided on, or
            an earlier game's entry without the director.
        """
        if ruled_by not in CORRECTORS:
            raise InvalidCorrectionError(
                f"--ruled-by {ruled_by!r}: a recording error is corrected by the scorekeeper "
                "alone, or with --ruled-by director"
            )
        first = entry.first
        if isinstance(first, SANCTIONS):
            raise CorrectionRefusedError(
                f"event {first.originator_version} ({type(first).__name__}) is the director's "
                "decision, not a recording error: the director rules on it"
            )
        last = max(e.originator_version for e in entry.events)
        later = [e for e in history[last:] if _decided_on_before(e)]
        voided = voided_by(history) if later else {}
        for event in later:
            if event.originator_version not in voided:
                raise CorrectionRefusedError(
                    f"entry {entry.number} came before the ruling at event "
                    f"{_ruling_number(history, event)}, which was decided on it: the director "
                    "corrects it by a ruling"
                )
        current = found[-1].game if found else 0
        if entry.game < current and ruled_by != "director":
            raise CorrectionRefusedError(
                f"entry {entry.number} belongs to game {entry.game}, and game {current} has "
                "started: the players agreed that game's score; correcting it needs the "
                "director (--ruled-by director)",
                self.profile.cite(Decision.SCORE),
            )

    def _still_fits(
        self, scratch: Any, later: Sequence[MatchEvent], history: Sequence[MatchEvent]
    ) -> None:
        """Decide every entry in ``later`` again on ``scratch`` (the amended match).

        Each entry's line is run again at the entry's time (:func:`_decide_again`); what
        it records must say what the log says, event by event (a game started with the
        opening roll after it, a game won with the play before it).  Rulings and
        corrections, and what their commands recorded with them, are not entries.

        :raises EntryNoLongerFitsError: naming the first that is not recorded as it was.
        """
        events = _entries_only(later)
        pending: deque[MatchEvent] = deque()
        for index, event in enumerate(events):
            number, kind = event.originator_version, type(event).__name__
            if not pending:
                pending.extend(_decide_again(scratch, events, index, history))
            again = pending.popleft()
            changed = differences(again, event)
            if changed:
                what = _what_changed(again, changed)
                raise EntryNoLongerFitsError(
                    number,
                    f"entry {number} ({kind}) no longer fits the amended history: {what}; "
                    "amend or undo it first",
                )
        if pending:
            raise EntryNoLongerFitsError(
                events[-1].originator_version if events else 0,
                f"after the amendment the ledger would also record {type(pending[0]).__name__}"
                ", which the log does not have; amend the later entries first",
            )


def _entries_only(later: Sequence[MatchEvent]) -> list[MatchEvent]:
    """``later`` without the rulings and corrections, and what their lines recorded with them."""
    kept: list[MatchEvent] = []
    skipping = False
    for event in later:
        if isinstance(event, RulingMade | EntryCorrected):
            skipping = bool(event.said)  # a legacy ruling's followers: as before lines
            continue
        if skipping and not event.said:
            continue
        skipping = False
        kept.append(event)
    return kept


def _decide_again(
    scratch: Any, events: Sequence[MatchEvent], index: int, history: Sequence[MatchEvent]
) -> list[MatchEvent]:
    """What the line of ``events[index]`` records on ``scratch``, run again at its time.

    An event stored before lines were kept is decided again by the command its kind
    names (:func:`bgledger.commands.legacy.decide_again`).

    :raises EntryNoLongerFitsError: if the line (or no command) records it, or the command
        refuses.
    """
    from bgledger.commands.vocabulary import parse  # the vocabulary runs on this aggregate

    event = events[index]
    if not event.said:
        try:
            return legacy.decide_again(scratch, events, index)
        except legacy.LegacyRefusedError as error:
            raise EntryNoLongerFitsError(error.number, str(error)) from None
    number, kind = event.originator_version, type(event).__name__
    command = parse(event.said).timed(event.at)
    before = history[: number - 1]
    decides = command.needs_history or command.reads_history
    try:
        command.perform(scratch, event.recorded_by, before if decides else None)
    except (BgLedgerError, HistoryMismatchError) as error:
        raise EntryNoLongerFitsError(
            number,
            f"entry {number} ({kind}) no longer fits the amended history: "
            f"{event.said!r} is refused there: {error}",
        ) from None
    made: list[MatchEvent] = scratch.collect_events()
    return made


def _what_changed(again: MatchEvent, changed: list[str]) -> str:
    """What a later entry re-decided on the amended history would say differently."""
    if changed == ["kind"]:
        return f"the ledger would record {type(again).__name__} there"
    if "legal" in changed:
        reason = getattr(again, "reason", None)
        return f"it would be illegal: {reason}" if reason else "it would be legal now"
    return f"its {', '.join(changed)} would differ"


def _bare_note(event: RulingMade) -> bool:
    return isinstance(event, RulingNoted) and not (event.voids or event.restores)


def _decided_on_before(event: MatchEvent) -> bool:
    """A director's decision on what was recorded before it: a ruling (a bare note aside),
    or a reserve restored (``pickup-with-hit``, USBGF 4.1.8.1: the reserve lost since a hit,
    worked out from the entries before it)."""
    if isinstance(event, RulingMade):
        return not _bare_note(event)
    return isinstance(event, ReserveTimeRestored)


def _ruling_number(history: Sequence[MatchEvent], event: MatchEvent) -> int:
    """The event the decision ``event`` belongs to begins at: a restore's stop, if its line's."""
    number = event.originator_version
    if not event.said and number >= 2:
        before = history[number - 2]
        if isinstance(before, ClockStopped) and before.said:
            return before.originator_version
    return number
