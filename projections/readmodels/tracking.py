"""Tournament-wide read models, kept current from the notification log, exactly once.

Three tables in the ledger's own database, beside the events:

- ``bgledger_rm_matches``: the match index, one row per match (event, round,
  players, length, score, status, winner, last action time, events), with the
  folded state the next catch-up folds on from and ``show --json``'s document;
- ``bgledger_rm_rulings``: every ruling of every match (rule, who ruled, why,
  when, who recorded it), ``voided_by`` naming the ruling that overturned it:
  the rulings a director reports (USBGF 5.5);
- ``bgledger_rm_standings``: per event and player, matches played, won, lost,
  in progress, points for and against (:mod:`bgledger.projections.readmodels.rows`).

``bgledger_rm_tracking`` holds the id of the last notification (a row of the
events table) that the tables include; a catch-up reads no further than the
log's settled end (``LedgerRecorder.settle``: on PostgreSQL no id below it is
still in flight; SQLite has one writer).
:meth:`ReadModels.catch_up` locks that row, reads the notifications after it,
folds each match's new events onto its stored state with the one fold
(:func:`bgledger.projections.state.fold.fold`), writes the rows and moves the tracking id,
all in one transaction: a crash before the commit leaves tables and tracking
as they were, and the next catch-up does the work again, once.  Two
catch-ups at once queue on the row lock; the second finds nothing left.

The models are brought up to date when they are read (``list``, ``rulings``,
``standings``), not when a scorekeeper records: recording stays one short
transaction that never waits on the read models, and a reader pays only for
the events recorded since the last read.  :meth:`ReadModels.rebuild`
recomputes everything in one transaction, each match from its latest
snapshot that belongs to its hash chain plus the events after it
(:mod:`bgledger.projections.readmodels.rebuild`), or with ``full`` from every event;
the first catch-up of a ledger takes the snapshot path too.

Example::

    >>> from bgledger.store.application import MatchStore
    >>> ledger = MatchStore("sqlite:///:memory:")
    >>> ledger.start(("Ann", "Bob"), 3, match_id="final", by="kim", event="Open")
    'final'
    >>> models = ReadModels(ledger)
    >>> models.catch_up()
    1
    >>> [(m["match_id"], m["status"]) for m in models.matches(event="Open")]
    [('final', 'not-begun')]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import sqlalchemy.exc
from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    Integer,
    Table,
    delete,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)

from bgledger.events import MatchStarted, RulingMade
from bgledger.events.names import topic_of
from bgledger.projections.readmodels.catch_up import NotificationFolder
from bgledger.projections.readmodels.rebuild import rebuild_rows
from bgledger.projections.readmodels.rows import (
    ruling_kinds,
    standings_rows,
)
from bgledger.projections.readmodels.tables import (
    MODEL_TABLES,
    matches_table,
    metadata,
    rulings_table,
    standings_table,
    tracking_table,
)
from bgledger.projections.state.fold import MatchState
from bgledger.store.application import MatchStore

__all__ = ["BATCH", "TRACKING_NAME", "ReadModels", "RebuildReport"]

BATCH = 5000
"""Notifications folded per transaction of :meth:`ReadModels.catch_up`."""
TRACKING_NAME = "bgledger_readmodels"


@dataclass(frozen=True, slots=True)
class RebuildReport:
    """What :meth:`ReadModels.rebuild` did, and how long it took.

    ``events`` counts the events the models cover, ``folded`` those decoded
    and folded, ``snapshots`` the matches that started from a snapshot.
    """

    events: int
    folded: int
    snapshots: int
    matches: int
    rulings: int
    standings: int
    seconds: float

    @property
    def events_per_second(self) -> float:
        """Events covered per second (0 for an empty ledger)."""
        return self.events / self.seconds if self.seconds > 0 else 0.0


class ReadModels:
    """The read models of one :class:`~bgledger.store.application.MatchStore`, in its database.

    :param ledger: the ledger whose events are read (its engine and mapper).
    :param batch: notifications folded per transaction.
    :param folded: the state a match's stream was left in by a command of this process
        (:class:`bgledger.service.Fresh`), which :meth:`catch_up` takes for the fold of the
        same events; :meth:`rebuild` folds them.
    :raises sqlalchemy.exc.SQLAlchemyError: if the tables cannot be created.
    """

    def __init__(
        self,
        ledger: MatchStore,
        batch: int = BATCH,
        folded: Callable[[str], tuple[MatchState, dict[str, Any]] | None] | None = None,
    ) -> None:
        self.ledger = ledger
        self.batch = batch
        engine = getattr(ledger.recorder, "datastore").engine  # noqa: B009
        self.engine = cast(Engine, engine)
        self.events_table: Table = getattr(ledger.recorder, "events_record_cls").__table__  # noqa: B009
        self._ruling_topics = [
            topic_of(kind) for kind in ruling_kinds() if issubclass(kind, RulingMade)
        ]
        self._log_topics = [topic_of(kind) for kind in ruling_kinds()]
        self._started = topic_of(MatchStarted)
        # id, match, a, b, length, event
        self._starts: list[tuple[int, str, str, str, int, str]] = []
        self._folder = NotificationFolder(
            ledger.mapper, self.events_table, self._ruling_topics, batch, folded
        )
        snapshots = getattr(ledger.snapshots, "recorder", None)
        self._snapshots_table: Table = getattr(snapshots, "events_record_cls").__table__  # noqa: B009
        self._create()

    # -- maintaining ----------------------------------------------------------

    def catch_up(self) -> int:
        """Fold every notification recorded since the last catch-up; return how many.

        Each batch is one transaction: rows and tracking id move together.
        From position 0 (nothing caught up yet) the first transaction writes
        every model as :meth:`rebuild` does, from the snapshots.

        :raises sqlalchemy.exc.SQLAlchemyError: on a database error (the
            batch being folded is rolled back, tables and tracking unchanged).
        """
        settled = self._last_notification()
        seen = self.position()
        if seen >= settled:
            return 0
        total = 0
        while True:
            # read and fold before taking the write lock (a writer recording a line waits only
            # for the rows' writes); planned from a position another catch-up has since moved,
            # the batch is planned again from there
            batch = None
            if seen:
                with self.engine.connect() as reading:
                    batch = self._folder.plan(reading, seen, settled, reuse=True)
            with self.engine.begin() as connection:
                position = self._lock(connection)
                if position == 0:  # nothing caught up yet: the one-pass rebuild's way
                    for table in MODEL_TABLES:
                        connection.execute(delete(table))
                    total += self._from_snapshots(connection, settled)[0]
                    seen = self._read_position(connection) or 0
                    continue
                if batch is None or batch.position != position:
                    batch = self._folder.plan(connection, position, settled, reuse=True)
                self._folder.write(connection, batch)
                if batch.done:
                    self._advance(connection, batch.reached)
            total += batch.done
            seen = batch.reached
            if batch.done < self.batch:
                return total

    def rebuild(self, full: bool = False) -> RebuildReport:
        """Clear every read model and work it out again from the events, in one transaction.

        Each match starts from its latest snapshot that still belongs to its
        hash chain, and the events after it are folded
        (:mod:`bgledger.projections.readmodels.rebuild`); with ``full``, every event of
        every match is decoded and folded and no snapshot is read.

        :raises sqlalchemy.exc.SQLAlchemyError: on a database error (nothing changes).
        """
        began = time.perf_counter()
        settled = self._last_notification()
        with self.engine.begin() as connection:
            self._lock(connection)
            for table in MODEL_TABLES:
                connection.execute(delete(table))
            if full:
                events = folded = 0
                position = 0
                while True:
                    done, position = self._folder.process(connection, position, settled)
                    events, folded = events + done, folded + done
                    if done < self.batch:
                        break
                self._advance(connection, position)
                snapshots = 0
            else:
                events, folded, snapshots = self._from_snapshots(connection, settled)
        seconds = time.perf_counter() - began
        counts = self.counts()
        return RebuildReport(
            events, folded, snapshots, counts["matches"], counts["rulings"], counts["standings"],
            seconds,
        )  # fmt: skip

    def _from_snapshots(self, connection: Connection, position: int) -> tuple[int, int, int]:
        """Write every model afresh as of notification ``position`` (the tables are empty).

        :return: the events covered, the events folded, the matches started from a snapshot.
        """
        tables = (self.events_table, self._snapshots_table)
        rebuilt = rebuild_rows(connection, self.ledger.mapper, tables, self._log_topics, position)
        left_out = self._folder.left_out  # a row no column holds: that match left out, reported
        matches = left_out.insert_each(
            connection, matches_table, rebuilt.matches, lambda row: f"match {row['match_id']!r}"
        )
        listed = {row["match_id"] for row in matches}
        rulings = [row for row in rebuilt.rulings if row["match_id"] in listed]
        left_out.insert_each(
            connection, rulings_table, rulings, lambda row: f"match {row['match_id']!r}"
        )
        left_out.insert_each(
            connection, standings_table, standings_rows(matches),
            lambda row: f"the standings of {row['event']!r}",
        )  # fmt: skip
        self._advance(connection, position)
        return rebuilt.events, rebuilt.folded, rebuilt.snapshots

    # -- tracking ---------------------------------------------------------------

    def _create(self) -> None:
        """Create the tables and the tracking row if missing (another process may race us)."""
        for attempt in (1, 2):
            try:
                metadata.create_all(self.engine, checkfirst=True)
                self._widen()
                with self.engine.begin() as connection:
                    if self._read_position(connection) is None:
                        connection.execute(
                            insert(tracking_table).values(name=TRACKING_NAME, notification_id=0)
                        )
                return
            # a table another thread or process created meanwhile: PostgreSQL says so with a
            # ProgrammingError, SQLite with an OperationalError ("table ... already exists")
            except (
                sqlalchemy.exc.IntegrityError,
                sqlalchemy.exc.ProgrammingError,
                sqlalchemy.exc.OperationalError,
            ):
                if attempt == 2:
                    raise

    def _widen(self) -> None:
        """Widen to BIGINT the INTEGER columns an earlier version created (PostgreSQL, whose
        INTEGER stops at 2**31 - 1; SQLite's INTEGER holds 64 bits already)."""
        if self.engine.dialect.name != "postgresql":
            return
        found = inspect(self.engine)
        narrow = [
            (table.name, column.name)
            for table in (*MODEL_TABLES, tracking_table)
            for name, kind in ((c["name"], c["type"]) for c in found.get_columns(table.name))
            for column in table.columns
            if column.name == name
            and isinstance(column.type, BigInteger)
            and isinstance(kind, Integer)
            and not isinstance(kind, BigInteger)
        ]
        with self.engine.begin() as connection:
            for table_name, column_name in narrow:
                connection.execute(
                    text(f'ALTER TABLE "{table_name}" ALTER COLUMN "{column_name}" TYPE BIGINT')
                )

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
        """The last notification, read once the log is settled: no id below it is in flight.

        Read models never read past it (``LedgerRecorder.settle``: on PostgreSQL
        ids are drawn as rows are inserted, and commits may land in another order).
        """
        return int(self.ledger.recorder.max_notification_id() or 0)

    # -- reading ------------------------------------------------------------------

    def matches(
        self, event: str | None = None, *, ids: Sequence[str] | None = None, state: bool = False
    ) -> list[dict[str, Any]]:
        """The match index rows, in the order matches were started (only ``ids``, if given);
        the stored state (:mod:`bgledger.projections.state.codec` form) only with ``state``."""
        columns = [c for c in matches_table.c if state or c.name != "state"]
        query = select(*columns).order_by(matches_table.c.started_id)
        if event is not None:
            query = query.where(matches_table.c.event == event)
        if ids is not None:
            query = query.where(matches_table.c.match_id.in_(sorted(ids)))
        return self._rows(query)

    def like(self, players: tuple[str, str], length: int) -> list[str]:
        """The ids of the matches between ``players`` (a, b) at ``length`` points, in order.

        Read without catching up (an import asks, and recording never waits on
        the read models): the match index as it stands, then the matches
        started since its position, from the notification log (their
        ``MatchStarted``, never changed, are kept to be read once).
        """
        column = matches_table.c
        query = (
            select(column.match_id)
            .where(column.player_a == players[0], column.player_b == players[1])
            .where(column.length == length)
            .order_by(column.started_id)
        )
        with self.engine.connect() as connection:
            position = self._read_position(connection) or 0
            found = [row.match_id for row in connection.execute(query)]
        self._read_starts(position)
        found += [
            match_id
            for notification, match_id, *start, _ in self._starts
            if notification > position and tuple(start) == (*players, length)
        ]
        return found

    def event_names(self) -> list[str]:
        """The name of every event a match was started in, as stored, each once.

        Read without catching up, as :meth:`like`: a new match asks before it is started.
        """
        query = select(matches_table.c.event).distinct()
        with self.engine.connect() as connection:
            position = self._read_position(connection) or 0
            found = [row.event for row in connection.execute(query)]
        self._read_starts(position)
        found += [start[-1] for start in self._starts if start[0] > position]
        return list(dict.fromkeys(name for name in found if name))

    def _read_starts(self, position: int) -> None:
        """Keep the ``MatchStarted`` of the notifications after ``position`` not yet read."""
        start = max(position, self._starts[-1][0] if self._starts else 0) + 1
        while True:
            page = self.ledger.recorder.select_notifications(start, 500, topics=[self._started])
            for notification in page:
                event = cast(MatchStarted, self.ledger.mapper.to_domain_event(notification))
                self._starts.append(
                    (
                        notification.id,
                        event.match_id,
                        event.player_a,
                        event.player_b,
                        event.length,
                        event.event,
                    )
                )
            if len(page) < 500:
                return
            start = page[-1].id + 1

    def rulings(
        self, event: str | None = None, *, ids: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """The rulings log, in the order the rulings were recorded (of ``ids``' matches, if
        given)."""
        query = select(rulings_table).order_by(rulings_table.c.notification_id)
        if event is not None:
            query = query.where(rulings_table.c.event == event)
        if ids is not None:
            query = query.where(rulings_table.c.match_id.in_(sorted(ids)))
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
