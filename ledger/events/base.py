"""What every match event carries: when it happened, who recorded it, its link in the chain.

Every event is a frozen dataclass on :class:`eventsourcing.domain.DomainEvent`
(``originator_id``; ``originator_version``, its number in the match from 1;
``timestamp``, when the ledger stored it) plus :class:`MatchEvent`'s fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from eventsourcing.domain import DomainEvent

__all__ = ["MatchEvent"]


@dataclass(frozen=True)
class MatchEvent(DomainEvent):
    """Base of every match event.

    :ivar at: when it happened at the board (ISO 8601 with a UTC offset; ``--at`` for a
        transcription, else now).
    :ivar recorded_by: who recorded it (a scorekeeper, ``import``, a director).
    :ivar chain: the stream's hash chain up to this event (:mod:`ledger.chain`);
        ``""`` for an event stored before there were chains (class version 1).
    :ivar said: the line of the record language that made the entry this event begins
        (``str(command)`` without its ``@TIME``: the event's ``at`` is its time; DESIGN
        principle 12), under the hash chain like every field.  ``""`` for an event a
        command recorded after the first of its entry (a game won with the play that won
        it), for what no line makes (the match's start, an import's record), and for every
        event stored before lines were kept (class version 2 and earlier;
        :mod:`bgledger.commands.legacy` re-decides those).
    :ivar claimed: the time a token's line gave (ISO 8601) when the ledger could not vouch
        for it as given (DESIGN principle 13): a scorekeeper's ``@TIME`` (his pad's claim,
        every event of the entry keeps it), or any token's time taken later than given
        because it fell before the match's last event.  ``at`` is then the time the match
        takes (the claim, or the ledger's: :func:`bgledger.commands.decide.vouched_time`),
        and ``timestamp`` when the ledger received it: the two witnesses.  ``""`` for a time
        the ledger stamped or the shell, a director or an import gave as it stands, and for
        every event stored before it was kept (class version 3); left out of the hash
        chain's content when ``""``, as ``said`` is, so older streams, copies and seals verify.
    :cvar bookkeeping: True for a kind of entry that is not something that happened at
        the table, and so keeps no match time (DESIGN principle 13).

    Why a field and not a row of its own: the line is part of the event's content, so the
    hash chain, ``verify``, the seals, the snapshots' digests, the JSON copy and the
    replicas carry it with nothing added, in the transaction that stores the event.  A
    row beside the events would need a second chain, a second write and a second read in
    every one of them.  An event whose ``said`` is ``""`` is linked as it was before the
    field existed (:func:`bgledger.events.chain.content`), so the chains and seals of older
    streams and copies still verify.
    """

    class_version: ClassVar[int] = 4
    bookkeeping: ClassVar[bool] = False
    """Whether this kind of entry is bookkeeping: about the record, not at the table.

    The match's time (its "as of": the moment ``show``, the pad, the wall and
    the director's console read a running clock at, and the time a later
    untimed line is stamped no earlier than) is the time of the last thing
    that happened at the table.  A bookkeeping entry may be written at any
    time after it, a week later or at the end of the round: it never moves
    that time, nor the clock.  Which kinds are bookkeeping, and why:

    - :class:`~.corrections.CopyImported`: where the match came from, stamped
      when a copy is imported, perhaps long after the match was played;
    - :class:`~.corrections.RemarkRecorded` and :class:`~.rulings.RulingNoted`:
      a note about the table (a remark, a ruling or an observation that changes
      nothing), written when or after it happened, not the table's time;
    - :class:`~.corrections.EntryWithdrawn` and :class:`~.corrections.EntryAmended`:
      a recording error corrected; the entry corrected keeps its own time
      (an amendment's replacement events take it), and the correction is
      the scorekeeper's, whenever he noticed the typo.

    Every other kind is something that happened at the table (a roll, a hit,
    a stop, a break, a penalty) or a ruling that changes the match there
    (voids, restores, corrects), made while the players wait: those keep time.
    Set on the class, never on an event: it is no field, not stored, not chained.
    """

    at: str
    recorded_by: str
    chain: str = field(default="", kw_only=True)
    said: str = field(default="", kw_only=True)
    claimed: str = field(default="", kw_only=True)

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """An event stored before the hash chain (version 1) is unchained: ``chain`` is ``""``."""
        state["chain"] = ""

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """An event stored before lines were kept (version 2) says no line: ``said`` is ``""``."""
        state["said"] = ""

    upcast_said = upcast_v2_v3
    """The same step for a kind with versions of its own (its ``upcast_vN_vN+1``)."""

    @staticmethod
    def upcast_v3_v4(state: dict[str, Any]) -> None:
        """An event stored before claims were kept (version 3) claims nothing: ``claimed`` is
        ``""`` (its time was taken as given)."""
        state["claimed"] = ""

    upcast_claimed = upcast_v3_v4
    """The same step for a kind with versions of its own (its ``upcast_vN_vN+1``)."""
