"""Tournament-wide read models, kept current from the notification log, exactly once.

Three tables in the ledger's own database, beside the events:

- ``bgledger_rm_matches``: the match index, one row per match (event, round,
  players, length, score, status, winner, last action time, events), with the
  folded state the next catch-up folds on from and ``show --json``'s document;
- ``bgledger_rm_rulings``: every ruling of every match (rule, who ruled, why,
  when, who recorded it), ``voided_by`` naming the ruling that overturned it:
  the rulings a director reports (USBGF 5.5);
- ``bgledger_rm_standings``: per event and player, matches played, won, lost,
  in progress, points for and against (:mod:`projections.readmodel_rows`).

``bgledger_rm_tracking`` holds the id of the last notification (a row of the
events table, ids in commit order: the recorder locks the table on
PostgreSQL, SQLite has one writer) that the tables include.
:meth:`ReadModels.catch_up` locks that row, reads the notifications after it,
folds each match's new events onto its stored state with the one fold
(:func:`projections.state.fold`), writes the rows and moves the tracking id,
all in one transaction: a crash before the commit leaves tables and tracking
as they were, and the next catch-up does the work again, once.  Two
catch-ups at once queue on the row lock; the second finds nothing left.

The models are brought up to date when they are read (``list``, ``rulings``,
``standings``), not when a scorekeeper records: recording stays one short
transaction that never waits on the read models, and a reader pays only for
the events recorded since the last read.  :meth:`ReadModels.rebuild`
recomputes everything from the events in one transaction.

Example::

    >>> from ledger.app import Ledger
    >>> ledger = Ledger("sqlite:///:memory:")
    >>> ledger.start(("Ann", "Bob"), 3, match_id="final", by="kim", event="Open")
    'final'
    >>> models = ReadModels(ledger)
    >>> models.catch_up()
    1
    >>> [(m["match_id"], m["status"]) for m in models.matches(event="Open")]
    [('final', 'not-begun')]
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast
from uuid import UUID

import sqlalchemy.exc
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic
from sqlalchemy import Connection, Engine, Table, delete, func, insert, select, update

from ledger.app import Ledger
from ledger.events import MatchEvent, RulingMade
from projections.codec import state_from_dict
from projections.effective import voided_by
from projections.readmodel_rows import is_ruling, match_row, ruling_row, standings_rows
from projections.readmodel_tables import (
    MODEL_TABLES,
    matches_table,
    metadata,
    rulings_table,
    standings_table,
    tracking_table,
)
from projections.state import MatchState, fold

__all__ = ["BATCH", "TRACKING_NAME", "ReadModels", "RebuildReport"]

BATCH = 5000
"""Notifications folded per transaction of :meth:`ReadModels.catch_up`."""
TRACKING_NAME = "bgledger_readmodels"


@dataclass(frozen=True, slots=True)
class RebuildReport:
    """What :meth:`ReadModels.rebuild` did: events folded, rows written, seconds taken."""

    events: int
    matches: int
    rulings: int
    standings: int
    seconds: float

    @property
    def events_per_second(self) -> float:
        """Events folded per second (0 for an empty ledger)."""
        return self.events / self.seconds if self.seconds > 0 else 0.0


@dataclass
class _Stream:
    """One match's notifications in a batch: (notification id, event), in order."""

    stream: str
    items: list[tuple[int, MatchEvent]] = field(default_factory=list)


class ReadModels:
    """The read models of one :class:`~ledger.app.Ledger`, in its database.

    :param ledger: the ledger whose events are read (its engine and mapper).
    :param batch: notifications folded per transaction.
    :raises sqlalchemy.exc.SQLAlchemyError: if the tables cannot be created.
    """

    def __init__(self, ledger: Ledger, batch: int = BATCH) -> None:
        self.ledger = ledger
        self.batch = batch
        engine = getattr(ledger.recorder, "datastore").engine  # noqa: B009
        self.engine = cast(Engine, engine)
        self.events_table: Table = getattr(ledger.recorder, "events_record_cls").__table__  # noqa: B009
        self._ruling_topics = [get_topic(cls) for cls in _subclasses(RulingMade)]
        self._create()

    # -- maintaining ----------------------------------------------------------

    def catch_up(self) -> int:
        """Fold every notification recorded since the last catch-up; return how many.

        Each batch is one transaction: rows and tracking id move together.

        :raises sqlalchemy.exc.SQLAlchemyError: on a database error (the
            batch being folded is rolled back, tables and tracking unchanged).
        """
        if self.position() >= self._last_notification():
            return 0
        total = 0
        while True:
            with self.engine.begin() as connection:
                position = self._lock(connection)
                done, reached = self._process(connection, position)
                if done:
                    self._advance(connection, reached)
            total += done
            if done < self.batch:
                return total

    def rebuild(self) -> RebuildReport:
        """Clear every read model and fold the whole notification log again, in one transaction.

        :raises sqlalchemy.exc.SQLAlchemyError: on a database error (nothing changes).
        """
        began = time.perf_counter()
        total = 0
        with self.engine.begin() as connection:
            self._lock(connection)
            for table in MODEL_TABLES:
                connection.execute(delete(table))
            position = 0
            while True:
                done, position = self._process(connection, position)
                total += done
                if done < self.batch:
                    break
            self._advance(connection, position)
        seconds = time.perf_counter() - began
        counts = self.counts()
        return RebuildReport(
            total, counts["matches"], counts["rulings"], counts["standings"], seconds
        )

    def _process(self, connection: Connection, position: int) -> tuple[int, int]:
        """Fold the notifications after ``position`` (one batch) into the tables.

        :return: how many were folded and the id of the last one (``position`` if none).
        """
        table = self.events_table
        rows = connection.execute(
            select(table.c.id, table.c.originator_id, table.c.originator_version)
            .add_columns(table.c.topic, table.c.state)
            .where(table.c.id > position)
            .order_by(table.c.id)
            .limit(self.batch)
        ).all()
        streams: dict[str, _Stream] = {}
        for row in rows:
            event = self._event(row.originator_id, row.originator_version, row.topic, row.state)
            key = str(row.originator_id)
            streams.setdefault(key, _Stream(key)).items.append((row.id, event))
        events_touched: set[str] = set()
        for stream in streams.values():
            events_touched.update(self._fold_stream(connection, stream))
        self._write_standings(connection, events_touched)
        return len(rows), rows[-1].id if rows else position

    def _fold_stream(self, connection: Connection, stream: _Stream) -> set[str]:
        """Fold one match's new events onto its stored state; write its rows.

        :return: the event names whose standings change (none if the stream is no match).
        """
        first = stream.items[0][1].originator_version
        prior = self._prior_state(connection, stream.stream, first)
        state = fold((event for _, event in stream.items), prior)
        if state is None:
            return set()
        version = stream.items[-1][1].originator_version
        row = match_row(state, stream.stream, version)
        started = self._started_id(connection, stream, prior)
        connection.execute(delete(matches_table).where(matches_table.c.stream == stream.stream))
        connection.execute(insert(matches_table), [{**row, "started_id": started}])
        rulings = [
            ruling_row(event, state.match_id, state.event, number)
            for number, event in stream.items
            if is_ruling(event)
        ]
        if rulings:
            connection.execute(insert(rulings_table), rulings)
        if any(isinstance(event, RulingMade) for _, event in stream.items):
            self._mark_overturned(connection, stream.stream, state.match_id, version)
        return {state.event}

    def _prior_state(self, connection: Connection, stream: str, first: int) -> MatchState | None:
        """The match's state before event ``first``: stored, else folded from its events."""
        if first <= 1:
            return None
        found = connection.execute(
            select(matches_table.c.version, matches_table.c.state).where(
                matches_table.c.stream == stream
            )
        ).first()
        if found is not None and found.version == first - 1:
            try:
                return state_from_dict(json.loads(found.state))
            except (ValueError, KeyError, TypeError, IndexError):
                pass  # a state stored in an older form: fold the events instead
        return fold(self._stream_events(connection, stream, first - 1))

    def _started_id(self, connection: Connection, stream: _Stream, prior: MatchState | None) -> int:
        """The notification id of the match's start (the match index's order)."""
        if prior is None:
            return stream.items[0][0]
        found = connection.execute(
            select(matches_table.c.started_id).where(matches_table.c.stream == stream.stream)
        ).scalar()
        return int(found) if found is not None else stream.items[0][0]

    def _mark_overturned(
        self, connection: Connection, stream: str, match_id: str, version: int
    ) -> None:
        """Set ``voided_by`` on the match's rulings from the rulings in force (one rule)."""
        rulings = self._stream_events(connection, stream, version, self._ruling_topics)
        voided = voided_by(rulings)
        column = rulings_table.c
        connection.execute(
            update(rulings_table).where(column.match_id == match_id).values(voided_by=None)
        )
        for number, ruling in voided.items():
            connection.execute(
                update(rulings_table)
                .where(column.match_id == match_id, column.number == number)
                .values(voided_by=ruling)
            )

    def _write_standings(self, connection: Connection, events: set[str]) -> None:
        """Recompute the standings of ``events`` from the match index rows."""
        if not events:
            return
        column = matches_table.c
        matches = connection.execute(
            select(column.event, column.player_a, column.player_b)
            .add_columns(column.score_a, column.score_b, column.winner)
            .where(column.event.in_(sorted(events)))
        ).mappings()
        rows = standings_rows(dict(match) for match in matches)
        connection.execute(delete(standings_table).where(standings_table.c.event.in_(events)))
        if rows:
            connection.execute(insert(standings_table), rows)

    def _stream_events(
        self, connection: Connection, stream: str, lte: int, topics: Sequence[str] = ()
    ) -> list[MatchEvent]:
        """The stream's events up to ``lte`` (only those with ``topics`` if given), in order."""
        table = self.events_table
        query = (
            select(table.c.originator_id, table.c.originator_version)
            .add_columns(table.c.topic, table.c.state)
            .where(table.c.originator_id == UUID(stream), table.c.originator_version <= lte)
            .order_by(table.c.originator_version)
        )
        if topics:
            query = query.where(table.c.topic.in_(topics))
        rows = connection.execute(query).all()
        return [self._event(*row) for row in rows]

    def _event(self, stream: Any, version: int, topic: str, state: Any) -> MatchEvent:
        stored = StoredEvent(stream, version, topic, bytes(state))
        return cast(MatchEvent, self.ledger.mapper.to_domain_event(stored))

    # -- tracking ---------------------------------------------------------------

    def _create(self) -> None:
        """Create the tables and the tracking row if missing (another process may race us)."""
        for attempt in (1, 2):
            try:
                metadata.create_all(self.engine, checkfirst=True)
                with self.engine.begin() as connection:
                    if self._read_position(connection) is None:
                        connection.execute(
                            insert(tracking_table).values(name=TRACKING_NAME, notification_id=0)
                        )
                return
            except (sqlalchemy.exc.IntegrityError, sqlalchemy.exc.ProgrammingError):
                if attempt == 2:
                    raise

    def _lock(self, connection: Connection) -> int:
        """Lock the tracking row for this transaction and return the position it holds.

        The first statement writes, so SQLite takes its write lock before
        anything is read, and PostgreSQL locks the row until the commit.
        """
        connection.execute(
            update(tracking_table)
            .where(tracking_table.c.name == TRACKING_NAME)
            .values(notification_id=tracking_table.c.notification_id)
        )
        return self._read_position(connection) or 0

    def _advance(self, connection: Connection, position: int) -> None:
        """Move the tracking id to ``position``, in the transaction that wrote the rows."""
        connection.execute(
            update(tracking_table)
            .where(tracking_table.c.name == TRACKING_NAME)
            .values(notification_id=position)
        )

    @staticmethod
    def _read_position(connection: Connection) -> int | None:
        found = connection.execute(
            select(tracking_table.c.notification_id).where(tracking_table.c.name == TRACKING_NAME)
        ).scalar()
        return None if found is None else int(found)

    def position(self) -> int:
        """The id of the last notification the read models include (0: none)."""
        with self.engine.connect() as connection:
            return self._read_position(connection) or 0

    def _last_notification(self) -> int:
        with self.engine.connect() as connection:
            found = connection.execute(select(func.max(self.events_table.c.id))).scalar()
        return int(found or 0)

    # -- reading ------------------------------------------------------------------

    def matches(self, event: str | None = None) -> list[dict[str, Any]]:
        """The match index rows (without the stored state), in the order matches were started."""
        columns = [c for c in matches_table.c if c.name != "state"]
        query = select(*columns).order_by(matches_table.c.started_id)
        if event is not None:
            query = query.where(matches_table.c.event == event)
        return self._rows(query)

    def rulings(self, event: str | None = None) -> list[dict[str, Any]]:
        """The rulings log, in the order the rulings were recorded."""
        query = select(rulings_table).order_by(rulings_table.c.notification_id)
        if event is not None:
            query = query.where(rulings_table.c.event == event)
        return self._rows(query)

    def standings(self, event: str | None = None) -> list[dict[str, Any]]:
        """The standings rows, by event and player name."""
        column = standings_table.c
        query = select(standings_table).order_by(column.event, column.player)
        if event is not None:
            query = query.where(column.event == event)
        return self._rows(query)

    def counts(self) -> dict[str, int]:
        """The number of rows in each read model."""
        with self.engine.connect() as connection:
            return {
                table.name.removeprefix("bgledger_rm_"): int(
                    connection.execute(select(func.count()).select_from(table)).scalar() or 0
                )
                for table in MODEL_TABLES
            }

    def _rows(self, query: Any) -> list[dict[str, Any]]:
        with self.engine.connect() as connection:
            return [dict(row) for row in connection.execute(query).mappings()]


def _subclasses(cls: type) -> Iterator[type]:
    yield cls
    sub: type
    for sub in cls.__subclasses__():
        yield from _subclasses(sub)
