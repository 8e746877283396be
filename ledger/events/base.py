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
    """

    class_version: ClassVar[int] = 2

    at: str
    recorded_by: str
    chain: str = field(default="", kw_only=True)

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """An event stored before the hash chain (version 1) is unchained: ``chain`` is ``""``."""
        state["chain"] = ""
