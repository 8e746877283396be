"""Recording errors corrected: a scorekeeper's typo is withdrawn or amended (DESIGN principle 9).

A recording error is not a ruling.  Nothing happened at the board that a
director must rule on: the scorekeeper typed ``6 3`` for a 6-4, or ``13/7``
for ``13/8``.  The mistaken entry stays in the log as it was recorded; an
event of its own says who corrected it, when and why, and what it voids:

- :class:`EntryWithdrawn` (``bgledger undo``): the last entry was never made;
- :class:`EntryAmended` (``bgledger amend``): an entry was mis-entered, and
  ``line`` (a line of the record language) is what happened.  ``replacement``
  holds the events the match's own command recorded for that line, as
  decided on the match as it stood before the entry: facts, each stored as
  ``{"kind": its stored name, "fields": its own fields}``.  In the match as
  corrected they stand where the mistaken entry stood
  (:mod:`bgledger.projections.state.corrections`), and the later entries,
  re-decided on the amended history before the amendment was recorded, still
  fit after them.

A remark for the record (:class:`RemarkRecorded`, ``note TEXT`` without
``--ruled-by``; the scorekeeper's, the director's or the committee's) is not a
ruling either: it changes nothing.

Nor is where a match came from (:class:`CopyImported`): a ledger that imports
a JSON copy records, after the copy's events, whether a key it trusts sealed
them.  It is no entry: ``undo`` and ``amend`` never reach it.

``voids`` lists the events taken out of force: the entry and what the
command that recorded it recorded along with it (a game won with its last
play).  ``ruled_by`` is ``""`` when the scorekeeper corrected the entry alone
(within the current game), ``"director"`` when a director allowed it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from bgledger.events.base import MatchEvent

__all__ = ["CopyImported", "EntryAmended", "EntryCorrected", "EntryWithdrawn", "RemarkRecorded"]


@dataclass(frozen=True)
class EntryCorrected(MatchEvent):
    """Base of the corrections of a recording error (not a ruling: no rule, no window).

    :ivar event: the entry corrected (the first event its command recorded).
    :ivar voids: the events taken out of force: the entry and its consequences.
    :ivar reason: why, in the corrector's words (may be empty).
    :ivar ruled_by: ``""`` for the scorekeeper alone, ``"director"`` with his leave.
    """

    bookkeeping: ClassVar[bool] = True  # the scorekeeper's, whenever he noticed

    event: int
    voids: list[int]
    reason: str
    ruled_by: str


@dataclass(frozen=True)
class EntryWithdrawn(EntryCorrected):
    """The entry ``event`` was never made (``undo``): a recording error withdrawn."""


@dataclass(frozen=True)
class EntryAmended(EntryCorrected):
    """The entry ``event`` was mis-entered; ``line`` is what happened (``amend``).

    :ivar line: the record-language line as the corrector gave it (``roll 6 4``).
    :ivar replacement: the events that line records, in order, each
        ``{"kind": stored name, "fields": {field: value}}`` with its own time and recorder.
    """

    line: str
    replacement: list[dict[str, Any]]


@dataclass(frozen=True)
class RemarkRecorded(MatchEvent):
    """A remark for the record (``note TEXT``): not a ruling, changes nothing.

    :ivar role: who said it: ``scorekeeper``, ``director`` or ``committee`` (the role of
        the token that posted it, or ``note --as WHO``: its line says it); ``""`` for a note
        that says no one (the operator's, or one stored before version 5).

    Class version 5: ``role``.  An empty one is linked as before it existed
    (:func:`bgledger.events.chain.content`), so older chains, copies and seals verify.
    """

    class_version: ClassVar[int] = 5
    bookkeeping: ClassVar[bool] = True  # a note about the table, not the table's time

    text: str
    role: str = field(default="", kw_only=True)

    @staticmethod
    def upcast_v4_v5(state: dict[str, Any]) -> None:
        """A note stored before version 5 says no one's: ``role`` is ``""`` (read as before)."""
        state["role"] = ""


@dataclass(frozen=True)
class CopyImported(MatchEvent):
    """The events before it were imported from a JSON copy (``bgledger import FILE.json``).

    The copy was re-decided event by event; this says whether it was also
    vouched for: ``sealed_by`` is the public key (Ed25519, hex) that sealed
    its events 1 to ``sealed_through`` (``import --seal S --pub P``: the seal
    checked against the importer's trusted key and the events' chain), ``""``
    and 0 for an unsealed copy, whose players, recorders and times are only
    as the file says.

    :ivar file: the copy's file name, as given to ``import``.
    """

    bookkeeping: ClassVar[bool] = True  # stamped when imported, not when played

    file: str
    sealed_by: str
    sealed_through: int
