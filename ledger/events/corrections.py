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

A scorekeeper's remark for the record (:class:`RemarkRecorded`, ``note TEXT``
without ``--ruled-by``) is not a ruling either: it changes nothing.

``voids`` lists the events taken out of force: the entry and what the
command that recorded it recorded along with it (a game won with its last
play).  ``ruled_by`` is ``""`` when the scorekeeper corrected the entry alone
(within the current game), ``"director"`` when a director allowed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bgledger.events.base import MatchEvent

__all__ = ["EntryAmended", "EntryCorrected", "EntryWithdrawn", "RemarkRecorded"]


@dataclass(frozen=True)
class EntryCorrected(MatchEvent):
    """Base of the corrections of a recording error (not a ruling: no rule, no window).

    :ivar event: the entry corrected (the first event its command recorded).
    :ivar voids: the events taken out of force: the entry and its consequences.
    :ivar reason: why, in the corrector's words (may be empty).
    :ivar ruled_by: ``""`` for the scorekeeper alone, ``"director"`` with his leave.
    """

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
    """The scorekeeper's remark for the record (``note TEXT``): not a ruling, changes nothing."""

    text: str
