"""The MatchStore's storage: eventsourcing-sqlalchemy, reading and writing with SQLAlchemy Core.

eventsourcing-sqlalchemy's recorder builds an ORM object for every row it
reads or writes.  Replaying a 1,500-event match spent more time in that than
in reading the rows and folding the events together; this recorder runs the
same statements on the same tables with SQLAlchemy Core instead.  The table
lock on PostgreSQL (so notification ids are committed in order) and the
notification channel are the library's own.

:class:`LedgerMapper` stores each event under its name in the vocabulary
(:mod:`bgledger.events.names`), not under its class's module path, and reads
back only those names: moving a class changes no stored row, and a row whose
topic names anything else is refused instead of being imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import TopicError, register_topic
from eventsourcing_sqlalchemy.factory import SQLAlchemyFactory
from eventsourcing_sqlalchemy.recorders import SQLAlchemyApplicationRecorder
from sqlalchemy import Table, insert, select
from sqlalchemy.orm import Session

from bgledger.events.names import KINDS

__all__ = ["LedgerFactory", "LedgerMapper", "LedgerRecorder", "store_as"]

_NAMES: dict[type[Any], str] = {}
_KNOWN: set[str] = set()


def store_as(kind: type[Any], topic: str) -> None:
    """Store ``kind`` under ``topic`` and read ``topic`` back as ``kind``."""
    register_topic(topic, kind)
    _NAMES[kind] = topic
    _KNOWN.add(topic)


for _topic, _kind in KINDS.items():
    store_as(_kind, _topic)


class LedgerMapper(Mapper[UUID]):
    """eventsourcing's mapper, storing and reading events by their names in the vocabulary."""

    def to_stored_event(self, domain_event: DomainEventProtocol[UUID]) -> StoredEvent:
        """The stored form of ``domain_event``, its topic the vocabulary's name for its kind."""
        topic = _NAMES.get(type(domain_event))
        if topic is None:
            raise TopicError(f"{type(domain_event).__name__} is not in the event vocabulary")
        stored = super().to_stored_event(domain_event)
        return StoredEvent(stored.originator_id, stored.originator_version, topic, stored.state)

    def to_domain_event(self, stored_event: StoredEvent) -> DomainEventProtocol[UUID]:
        """The event a stored row holds.

        :raises TopicError: for a topic that names no kind of the vocabulary
            (no module is imported to find out).
        """
        topic = stored_event.topic
        if topic not in _KNOWN:
            raise TopicError(f"topic {topic!r} names no kind of event bgledger stores")
        return super().to_domain_event(stored_event)


class LedgerRecorder(SQLAlchemyApplicationRecorder):
    """The application recorder of eventsourcing-sqlalchemy, without ORM objects per row."""

    @property
    def _table(self) -> Table:
        table: Table = self.events_record_cls.__table__
        return table

    def select_events(
        self,
        originator_id: UUID | str,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> list[StoredEvent]:
        """The stored events of one stream, as the library's recorder selects them."""
        table = self._table
        version = table.c.originator_version
        query = select(version, table.c.topic, table.c.state).where(
            table.c.originator_id == originator_id
        )
        if gt is not None:
            query = query.where(version > gt)
        if lte is not None:
            query = query.where(version <= lte)
        query = query.order_by(version.desc() if desc else version)
        if limit is not None:
            query = query.limit(limit)
        with self.transaction(commit=False) as session:
            rows = session.execute(query).all()
        # The stream id is the one asked for: not converting it back row by row
        # saves a fifth of a replay.
        return [StoredEvent(originator_id, row[0], row[1], bytes(row[2])) for row in rows]

    def _insert_stored_events(
        self, session: Session, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int]:
        table = self._table
        rows = [
            {
                "originator_id": event.originator_id,
                "originator_version": event.originator_version,
                "topic": event.topic,
                "state": event.state,
            }
            for event in stored_events
        ]
        self._lock_table(session)
        statement = insert(table).returning(table.c.id, sort_by_parameter_order=True)
        ids = list(session.execute(statement, rows).scalars())
        self._notify_channel(session)
        return ids


class LedgerFactory(SQLAlchemyFactory):
    """eventsourcing-sqlalchemy's factory, with :class:`LedgerRecorder` for the events."""

    application_recorder_class = LedgerRecorder
