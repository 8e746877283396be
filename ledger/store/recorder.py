"""The MatchStore's storage: ``eventsourcing``'s recorders on SQLAlchemy Core.

The events go through the ``eventsourcing`` library (its application,
repository, mapper and recorder interfaces) into two tables of one SQLAlchemy
database: ``bgledger_events`` (every event, its ``id`` the application's
notification sequence) and ``bgledger_snapshots``.  The tables, their columns
and indexes, and the rows stored in them are those eventsourcing-sqlalchemy
1.0 made and makes (a ledger written by either is read by the other): the
stream id is a native ``UUID`` on PostgreSQL and its 16 bytes elsewhere, as
``sqlalchemy_utils``' ``UUIDType`` stores it.

This module is that package's recorders (aggregate, application, tracking,
process), written on SQLAlchemy Core rather than imported; eventsourcing's
own recorder test cases run against them on every store
(``tests/test_recorder_contract.py``):

- eventsourcing-sqlalchemy builds an ORM object for every row it reads or
  writes; replaying a 1,500-event match spent more time in that than in
  reading the rows and folding the events together.
- Importing it loads SQLAlchemy's ORM and ``sqlalchemy_utils`` (for that one
  column type), which loads SQLAlchemy's PostgreSQL, Oracle and SQL Server
  dialects and much of ``cryptography`` whatever the database: about 9 times
  the CPU of starting Python, paid by every one-shot command before it reads
  a row (``bench/bench_startup.py``, ``bench/README.md``).

What the library's recorders guarantee is kept, a reader of the notification
log never passes over an id that a later commit fills in, but on PostgreSQL
the wait moved from the writers to the readers.  The library locks the events
table (``LOCK TABLE ... IN EXCLUSIVE MODE``) in every inserting transaction and
NOTIFYs its channel, so every commit, with its WAL flush, waits for the one
before it: one server took about one writer's rate however many wrote
(``bench/bench_load.py``).  Here a writer's transaction is its one ``INSERT``,
sent in autocommit mode (the insert and its commit in one round trip), and
commits run side by side (PostgreSQL flushes concurrent commits together).
Ids are then drawn in insert order, not commit order, so a reader first
settles the log (:meth:`LedgerRecorder.settle`): ``LOCK TABLE ... IN SHARE
MODE``, which waits for the inserts in flight to commit or roll back and holds
new ones back for the length of one read; what it reads is then a prefix of the
log as it will stay.  :meth:`LedgerRecorder.select_notifications`,
:meth:`LedgerRecorder.max_notification_id` and the read models read that way.
A stream's events still number in order (a scorekeeper's insert follows the
commit it decided on).  A batch of several events is the exception: its
transaction takes the library's ``EXCLUSIVE`` lock before inserting, so that
its ids are contiguous, as the library's contract has them
(:meth:`LedgerAggregateRecorder._locks_batch`).  No ``NOTIFY``: it serialises
commits too; :meth:`~LedgerRecorder.subscribe` polls the settled log instead
(:class:`PollingSubscription`).  A SQLite file has one writer
at a time per process and is put in WAL mode; an in-memory SQLite database is
one connection shared under a lock.  Database errors become
``eventsourcing.persistence`` errors (an ``IntegrityError`` for a lost race),
as the library raises them.

:class:`LedgerMapper` stores each event under its name in the vocabulary
(:mod:`bgledger.events.names`), not under its class's module path, and reads
back only those names: moving a class changes no stored row, and a row whose
topic names anything else is refused instead of being imported.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from datetime import datetime
from threading import Event, Lock, Semaphore
from typing import Any, NoReturn, cast
from uuid import UUID

import sqlalchemy.exc
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    DatabaseError,
    DataError,
    DatetimeAsISO,
    InfrastructureFactory,
    IntegrityError,
    InterfaceError,
    InternalError,
    JSONTranscoder,
    Mapper,
    Notification,
    NotSupportedError,
    OperationalError,
    PersistenceError,
    ProcessRecorder,
    ProgrammingError,
    StoredEvent,
    Subscription,
    Tracking,
    TrackingRecorder,
)
from eventsourcing.utils import TopicError, register_topic, resolve_topic, strtobool
from sqlalchemy import (
    BINARY,
    BigInteger,
    Column,
    Connection,
    Dialect,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    create_engine,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.pool import StaticPool
from sqlalchemy.types import UUID as NativeUUID
from sqlalchemy.types import TypeEngine

from bgledger.events.names import KINDS
from bgledger.store.keys import KEYS, Keyed

__all__ = [
    "Guard",
    "LedgerAggregateRecorder",
    "LedgerDatastore",
    "LedgerFactory",
    "LedgerMapper",
    "LedgerProcessRecorder",
    "LedgerRecorder",
    "LedgerTrackingRecorder",
    "PollingSubscription",
    "SnapshotRecorder",
    "UnreadableRowError",
    "events_table",
    "snapshots_table",
    "store_as",
    "stored_state",
    "tracking_table",
]

Guard = Callable[[Connection], None]
"""A check a write makes in its own transaction before it inserts (``insert_events(...,
guard=)``): it raises to refuse the write, which then rolls back (a token revoked while
the line's body was on its way: :meth:`bgledger.access.TokenBook.still_held`)."""

_NAMES: dict[type[Any], str] = {}
_KNOWN: set[str] = set()


def store_as(kind: type[Any], topic: str) -> None:
    """Store ``kind`` under ``topic`` and read ``topic`` back as ``kind``."""
    register_topic(topic, kind)
    _NAMES[kind] = topic
    _KNOWN.add(topic)


for _topic, _kind in KINDS.items():
    store_as(_kind, _topic)


class UnreadableRowError(DataError, TopicError):
    """A stored row that does not read back as what bgledger stores (the CLI exits 3).

    A topic outside the vocabulary, a state that is not the JSON of its
    event's fields.  ``match_id`` names the match once the store knows it.
    """

    def __init__(self, stream: UUID, number: int, why: str, match_id: str | None = None) -> None:
        self.stream, self.number, self.why, self.match_id = stream, number, why, match_id
        whose = f"match {match_id!r}" if match_id is not None else f"stream {stream}"
        super().__init__(
            f"{whose}: stored event {number} cannot be read ({why}); "
            "bgledger verify names what was changed"
        )

    def of(self, match_id: str) -> UnreadableRowError:
        """The same error, naming the match ``match_id``."""
        return UnreadableRowError(self.stream, self.number, self.why, match_id)


class LedgerMapper(Mapper[UUID]):
    """eventsourcing's mapper, storing and reading events by their names in the vocabulary."""

    def to_stored_event(self, domain_event: DomainEventProtocol[UUID]) -> StoredEvent:
        """The stored form of ``domain_event``, its topic the vocabulary's name for its kind."""
        topic = _NAMES.get(type(domain_event))
        if topic is None:
            raise TopicError(f"{type(domain_event).__name__} is not in the event vocabulary")
        stored = super().to_stored_event(domain_event)
        return StoredEvent(stored.originator_id, stored.originator_version, topic, stored.state)

    def to_stored_events(self, events: Iterable[DomainEventProtocol[UUID]]) -> list[StoredEvent]:
        """:meth:`to_stored_event` of each of ``events`` (a whole import's): the same rows.

        With the library's JSON transcoder and no compressor or cipher (bgledger's
        ledger), the state is encoded here, as the mapper encodes it, by the
        transcoder's own encoder: the fields in declared order, ``class_version``
        last, the stored time as :class:`~eventsourcing.persistence.DatetimeAsISO`
        writes it (given to the encoder ready, instead of through its ``default``
        for each event).  The same bytes (``tests/test_import_shortcuts.py``), in four
        fifths of the time.
        """
        transcoder = self.transcoder
        if (
            self.compressor is not None
            or self.cipher is not None
            or type(transcoder) is not JSONTranscoder
            or type(transcoder.types.get(datetime)) is not DatetimeAsISO
        ):
            return [self.to_stored_event(event) for event in events]
        encode, names, rows = transcoder.encoder.encode, _NAMES, []
        for event in events:
            kind = type(event)
            topic = names.get(kind)
            if topic is None:
                raise TopicError(f"{kind.__name__} is not in the event vocabulary")
            state = dict(vars(event))
            stream = state.pop("originator_id")
            number = state.pop("originator_version")
            stamp = state["timestamp"]
            if type(stamp) is datetime:
                state["timestamp"] = {"_type_": DatetimeAsISO.name, "_data_": stamp.isoformat()}
            version = getattr(kind, "class_version", 1)
            if version > 1:
                state["class_version"] = version
            rows.append(StoredEvent(stream, number, topic, encode(state).encode("utf8")))
        return rows

    def to_domain_event(self, stored_event: StoredEvent) -> DomainEventProtocol[UUID]:
        """The event a stored row holds.

        :raises UnreadableRowError: (a ``TopicError``) for a topic that names
            no kind of the vocabulary (no module is imported to find out), or
            a row that does not decode as its kind.
        """
        topic = stored_event.topic
        stream, number = stored_event.originator_id, stored_event.originator_version
        if topic not in _KNOWN:
            why = f"topic {topic!r} names no kind of event bgledger stores"
            raise UnreadableRowError(UUID(str(stream)), number, why)
        if not isinstance(stored_event.state, bytes):  # (see stored_state)
            kind = type(stored_event.state).__name__
            why = f"its state is {kind} (TEXT?), not the bytes bgledger stores"
            raise UnreadableRowError(UUID(str(stream)), number, why)
        try:
            return super().to_domain_event(stored_event)
        except Exception as error:  # whatever a hand-made row makes the decoder raise
            cause = error.__cause__ or error  # the mapper wraps the decoder's error
            why = f"{type(cause).__name__}: {cause}"
            raise UnreadableRowError(UUID(str(stream)), number, why) from None


def stored_state(value: Any) -> bytes:
    """A row's ``state`` as the mapper reads it: the bytes of the BLOB (``bytea``).

    Any other value (a TEXT that ``sqlite3``'s ``replace()`` wrote over the BLOB)
    is passed on as it is, for :meth:`LedgerMapper.to_domain_event` to refuse as
    an :class:`UnreadableRowError` naming the row, never a ``TypeError`` here.
    """
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    return cast(bytes, value)


# -- the tables ---------------------------------------------------------------------------------


class StreamId(TypeDecorator[UUID]):
    """A stream's UUID as ``sqlalchemy_utils.UUIDType()`` stores it.

    A native ``UUID`` on PostgreSQL, its 16 bytes (``BINARY(16)``) elsewhere.
    A string is read as a UUID.
    """

    impl = BINARY(16)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(NativeUUID())
        return dialect.type_descriptor(BINARY(16))

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        stream = value if isinstance(value, UUID) else UUID(str(value))
        return stream if dialect.name == "postgresql" else stream.bytes

    def process_result_value(self, value: Any, dialect: Dialect) -> UUID | None:
        if value is None or isinstance(value, UUID):
            return value
        return UUID(value) if dialect.name == "postgresql" else UUID(bytes=bytes(value))


def _sequence_number() -> TypeEngine[int]:
    """A 64-bit integer, plain ``INTEGER`` on SQLite (so that ``id`` is the rowid)."""
    return BigInteger().with_variant(Integer(), "sqlite")


WAL_ATTEMPTS = 20
"""Transactions that try to put a SQLite file in WAL mode while another program keeps it
in its own, before the ledger goes on in the file's mode."""
_METADATA = MetaData()
_TABLES: dict[str, Table] = {}


def events_table(name: str) -> Table:
    """The events table ``name``: notification id, stream, version, topic, state."""
    if name not in _TABLES:
        _TABLES[name] = Table(
            name,
            _METADATA,
            Column("id", _sequence_number(), primary_key=True, autoincrement=True),
            Column("originator_id", StreamId(), nullable=False),
            Column("originator_version", _sequence_number(), nullable=False),
            Column("topic", Text(), nullable=False),
            Column("state", LargeBinary(), nullable=False),
            Index(f"{name}_aggregate_idx", "originator_id", "originator_version", unique=True),
        )
    return _TABLES[name]


def snapshots_table(name: str) -> Table:
    """The snapshots table ``name``: keyed by stream and version, with topic and state."""
    if name not in _TABLES:
        _TABLES[name] = Table(
            name,
            _METADATA,
            Column("originator_id", StreamId(), primary_key=True),
            Column("originator_version", _sequence_number(), primary_key=True),
            Column("topic", Text(), nullable=False),
            Column("state", LargeBinary(), nullable=False),
        )
    return _TABLES[name]


def tracking_table(name: str) -> Table:
    """The tracking table ``name``: per upstream application, the last notification id processed.

    As eventsourcing-sqlalchemy's ``NotificationTrackingRecord`` stores it: one row per
    application name (``VARCHAR(32)``, the key), its notification id moved forward.
    """
    if name not in _TABLES:
        _TABLES[name] = Table(
            name,
            _METADATA,
            Column("application_name", String(32), primary_key=True),
            Column("notification_id", _sequence_number()),
        )
    return _TABLES[name]


class _Rows:
    """What eventsourcing-sqlalchemy's recorders call ``events_record_cls``: here its table only.

    The read models and some tests reach a recorder's table as
    ``recorder.events_record_cls.__table__``; :attr:`LedgerRecorder.table` is the same table.
    """

    def __init__(self, table: Table) -> None:
        self.__table__ = table


# -- connections and transactions ---------------------------------------------------------------

_ERRORS: tuple[tuple[type[sqlalchemy.exc.SQLAlchemyError], type[PersistenceError]], ...] = (
    (sqlalchemy.exc.InterfaceError, InterfaceError),
    (sqlalchemy.exc.DataError, DataError),
    (sqlalchemy.exc.OperationalError, OperationalError),
    (sqlalchemy.exc.IntegrityError, IntegrityError),
    (sqlalchemy.exc.InternalError, InternalError),
    (sqlalchemy.exc.ProgrammingError, ProgrammingError),
    (sqlalchemy.exc.NotSupportedError, NotSupportedError),
    (sqlalchemy.exc.DatabaseError, DatabaseError),
    (sqlalchemy.exc.SQLAlchemyError, PersistenceError),
)


def _translated(error: sqlalchemy.exc.SQLAlchemyError) -> NoReturn:
    """Raise ``error`` as the ``eventsourcing.persistence`` error the library raises for it."""
    for sqlalchemy_kind, kind in _ERRORS:
        if isinstance(error, sqlalchemy_kind):
            raise kind(error) from error
    raise error  # pragma: no cover - SQLAlchemyError is the last entry


_DRIVER_ERRORS = (
    ("InterfaceError", InterfaceError),
    ("DataError", DataError),
    ("OperationalError", OperationalError),
    ("IntegrityError", IntegrityError),
    ("InternalError", InternalError),
    ("ProgrammingError", ProgrammingError),
    ("NotSupportedError", NotSupportedError),
    ("DatabaseError", DatabaseError),
    ("Error", PersistenceError),
)


def _driver_error(error: BaseException, dbapi: Any) -> type[PersistenceError] | None:
    """The ``eventsourcing.persistence`` error for an error of the DB-API module ``dbapi``.

    None for any other error.
    """
    for name, kind in _DRIVER_ERRORS:
        if isinstance(error, getattr(dbapi, name)):
            return kind
    return None


def _sqlite_returns() -> bool:
    """Whether this Python's SQLite has ``INSERT ... RETURNING`` (3.35)."""
    import sqlite3

    return sqlite3.sqlite_version_info >= (3, 35)


class LedgerDatastore:
    """One SQLAlchemy engine and its transactions.

    :param url: a SQLAlchemy URL.
    :ivar engine: the engine (the read models run their own transactions on it).
    """

    def __init__(self, url: str) -> None:
        options: dict[str, Any] = {}
        self.access_lock: Semaphore | None = None
        self.write_lock: Semaphore | None = None
        if url.startswith("sqlite"):
            if ":memory:" in url or "mode=memory" in url:
                # One connection for every thread, one user at a time.
                options = {"connect_args": {"check_same_thread": False}, "poolclass": StaticPool}
                self.access_lock = Semaphore()
            else:
                self.write_lock = Semaphore()
        self.engine = create_engine(url, **options)
        self.is_postgres = self.engine.dialect.name == "postgresql"
        self._is_sqlite_file = self.engine.dialect.name == "sqlite" and self.access_lock is None
        self.direct = self.is_postgres or (self._is_sqlite_file and _sqlite_returns())
        """Whether the recorders may use :meth:`autocommit` (PostgreSQL, a SQLite file)."""
        self._wal_tried = False
        self._wal_attempts = 0
        self._wal_lock = Lock()
        self._kept: Any = None
        self._kept_pid = os.getpid()
        self._kept_lock = Lock()
        self._current: ContextVar[tuple[Connection, bool] | None] = ContextVar(
            f"bgledger-transaction-{id(self)}", default=None
        )

    def _init_wal_mode(self) -> None:
        """Put a SQLite file in WAL mode, once (after its tables exist, as the library does)."""
        with self._wal_lock:
            if self._wal_tried:
                return
            self._wal_tried = True
            if not self._is_sqlite_file:
                return
            # Another program with the file open keeps it in its mode ("database is locked",
            # or the old mode answered).  WAL is for speed, not for correctness: the caller's
            # statement goes on, and the next transactions try again, a few times.
            self._wal_attempts += 1
            mode = None
            locked = contextlib.suppress(sqlalchemy.exc.OperationalError)
            with locked, self.engine.connect() as connection:
                mode = connection.execute(text("PRAGMA journal_mode=WAL;")).scalar()
            if str(mode).lower() != "wal" and self._wal_attempts < WAL_ATTEMPTS:
                self._wal_tried = False

    def in_transaction(self) -> bool:
        """Whether a :meth:`transaction` is open in this thread or task."""
        return self._current.get() is not None

    @contextlib.contextmanager
    def autocommit(self) -> Iterator[Any]:
        """The driver's own connection (psycopg's, sqlite3's), each statement its own transaction.

        On PostgreSQL the connection is in autocommit mode: a statement is
        committed in the round trip that runs it, so a read is one round trip
        instead of three (BEGIN, the SELECT, ROLLBACK) and an insert one
        instead of three, with no SQLAlchemy statement to build.  sqlite3
        reads without a transaction and begins one before an ``INSERT``: the
        caller commits it (:meth:`write`).  The datastore keeps one such
        connection for the first caller (a scorekeeper's process has one
        thread); a caller that finds it in use takes one from the pool.  The
        driver's errors leave as ``eventsourcing.persistence`` errors; a
        connection that broke is dropped.
        """
        if not self._wal_tried:
            self._init_wal_mode()
        kept = self._kept_lock.acquire(blocking=False)
        if kept and self._kept_pid != os.getpid():  # a forked child: the parent's is not ours
            self._kept, self._kept_pid = None, os.getpid()
        fairy = self._kept if kept else None
        try:
            if fairy is None:
                fairy = self.engine.raw_connection()
                if kept:
                    self._kept = fairy
            driver = fairy.driver_connection
            assert driver is not None
            if self.is_postgres:
                driver.autocommit = True
                try:
                    yield driver
                finally:
                    if not kept and not driver.closed:
                        driver.autocommit = False
            else:
                yield driver
        except Exception as error:
            kind = _driver_error(error, self.engine.dialect.dbapi)
            if kind is None:
                raise
            if fairy is not None and kind in (OperationalError, InterfaceError):
                fairy.invalidate(error)
                self._drop(fairy)
            raise kind(error) from error
        finally:
            if kept:
                self._kept_lock.release()
            elif fairy is not None:
                fairy.close()

    @contextlib.contextmanager
    def write(self) -> Iterator[Any]:
        """:meth:`autocommit` for one insert: on SQLite, under the write lock, committed at the end.

        On SQLite a failed insert is rolled back; on PostgreSQL the statement
        commits itself.
        """
        lock = self.write_lock
        if lock is not None:
            lock.acquire()
        try:
            with self.autocommit() as driver:
                if self.is_postgres:
                    yield driver
                    return
                try:
                    yield driver
                    driver.commit()
                except BaseException:
                    driver.rollback()
                    raise
        finally:
            if lock is not None:
                lock.release()

    def _drop(self, fairy: Any) -> None:
        if self._kept is fairy:
            self._kept = None
            with contextlib.suppress(Exception):
                fairy.close()

    def close(self) -> None:
        """Close every connection: the kept one and the pool's.

        An in-memory database's one connection is closed once no thread is
        using it (closing it under a running statement crashed the process).
        """
        with self._kept_lock:
            if self._kept is not None:
                # Closed, not returned: the pool it came from may have been disposed.
                self._kept.invalidate()
                self._kept = None
        if self.access_lock is None:
            self.engine.dispose()
            return
        with self.access_lock:
            self.engine.dispose()

    @contextlib.contextmanager
    def transaction(self, commit: bool) -> Iterator[Connection]:
        """A connection in a transaction, committed at the end if ``commit`` (else rolled back).

        A transaction opened inside another one (in the same thread or task)
        joins it.  SQLAlchemy's errors leave as ``eventsourcing.persistence`` errors.

        :raises ProgrammingError: for ``commit=True`` inside a read-only transaction.
        """
        current = self._current.get()
        if current is not None:
            if commit and not current[1]:
                raise ProgrammingError("Transaction already started with commit=False")
            yield current[0]
            return
        if not self._wal_tried:
            self._init_wal_mode()
        lock = self.access_lock or (self.write_lock if commit else None)
        if lock is not None:
            lock.acquire()
        try:
            with self.engine.connect() as connection:
                token = self._current.set((connection, commit))
                try:
                    yield connection
                    if commit:
                        connection.commit()
                    else:
                        connection.rollback()
                except sqlalchemy.exc.SQLAlchemyError as error:
                    _translated(error)
                finally:
                    self._current.reset(token)
        finally:
            if lock is not None:
                lock.release()


# -- the recorders ------------------------------------------------------------------------------


class LedgerAggregateRecorder(AggregateRecorder):
    """eventsourcing's aggregate recorder on one table: an events table, or the snapshots'.

    ``insert_events`` answers None, as the library's aggregate recorders do
    (:class:`LedgerRecorder` answers the notification ids).  On an events
    table the ``id`` column is drawn as rows are inserted; on PostgreSQL a
    batch of several events takes the table's lock first (:meth:`_lock_for_batch`),
    so that its ids are contiguous.

    :ivar datastore: the engine and its transactions.
    :ivar table: the table.
    """

    def __init__(self, datastore: LedgerDatastore, table: Table) -> None:
        self.datastore = datastore
        self.table = table
        self.events_record_cls = _Rows(table)
        self._draws_ids = "id" in table.c
        self._lock_sql = ""

    def transaction(self, commit: bool = True) -> contextlib.AbstractContextManager[Connection]:
        """:meth:`LedgerDatastore.transaction`."""
        return self.datastore.transaction(commit)

    def create_table(self) -> None:
        """Create the table and its index unless they exist."""
        self.table.create(self.datastore.engine, checkfirst=True)

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """Store ``stored_events`` in one transaction; ``keyed``: with the client's key;
        ``guard`` (a :data:`Guard`): called first in the transaction, which it may refuse.

        ``tracking`` (an ``eventsourcing.persistence.Tracking``): with that
        tracking record, for a :class:`LedgerProcessRecorder` only.

        :raises IntegrityError: if one of them, or the key, or the tracking
            record, is stored already (nothing is stored).
        :raises ProgrammingError: for ``tracking`` given to a recorder that keeps none.
        """
        tracking: Tracking | None = kwargs.get("tracking")
        if tracking is not None and not isinstance(self, LedgerTrackingRecorder):
            raise ProgrammingError(f"{type(self).__name__} records no tracking")
        if not stored_events and tracking is None:
            # (an INSERT of no rows would be one row of NULLs)
            return [] if self._returning else None
        keyed: Keyed | None = kwargs.get("keyed")
        guard: Guard | None = kwargs.get("guard")
        direct = self.datastore.direct and not self.datastore.in_transaction()
        if (
            keyed is None
            and guard is None
            and tracking is None
            and direct
            and (self.datastore.is_postgres or len(stored_events) == 1)
        ):
            return self._insert_in_one_statement(stored_events)
        with self.transaction(commit=True) as connection:
            if guard is not None:  # a check made in the write's own transaction
                guard(connection)
            if tracking is not None:
                assert isinstance(self, LedgerTrackingRecorder)
                self._insert_tracking(connection, tracking)
            if not stored_events:
                return [] if self._returning else None
            ids = self._insert_stored_events(connection, stored_events)
            if keyed is not None:  # the client's key, committed with what it recorded
                versions = [event.originator_version for event in stored_events]
                connection.execute(insert(KEYS), keyed.row(min(versions), max(versions)))
            return ids

    def _insert_stored_events(
        self, connection: Connection, stored_events: Sequence[StoredEvent]
    ) -> Sequence[int] | None:
        self._lock_for_batch(connection, len(stored_events))
        connection.execute(insert(self.table), _rows(stored_events))
        return None

    def _batch_lock_sql(self) -> str:
        if not self._lock_sql:
            name = self.datastore.engine.dialect.identifier_preparer.quote(self.table.name)
            self._lock_sql = f"LOCK TABLE {name} IN EXCLUSIVE MODE"
        return self._lock_sql

    def _locks_batch(self, count: int) -> bool:
        """Whether an insert of ``count`` events takes the table's lock first.

        On PostgreSQL, into an events table, for more than one event.  Ids are
        drawn from the table's sequence row by row, by every inserting
        transaction at once: without the lock two batches (or a batch and a
        single event) interleave their ids.  ``EXCLUSIVE`` waits for the
        inserts in flight to end and holds back every other insert (and a
        reader's :meth:`LedgerRecorder.settle`) until the batch commits; plain
        reads go on.  One event alone takes no lock: its id is contiguous by
        itself, and most actions are one event (a writer's commit does not
        wait for another's, issue 17).  SQLite has one writer at a time.
        """
        return count > 1 and self._draws_ids and self.datastore.is_postgres

    def _lock_for_batch(self, connection: Connection, count: int) -> None:
        """In ``connection``'s transaction: the table's lock, if :meth:`_locks_batch`."""
        if self._locks_batch(count):
            connection.execute(text(self._batch_lock_sql()))

    _returning = ""
    _insert_sql: str | None = None
    _insert_one_sql = ""
    _selects: dict[tuple[bool, ...], str] | None = None

    def _insert_in_one_statement(self, stored_events: Sequence[StoredEvent]) -> list[int] | None:
        """Every row in one ``INSERT`` on the driver's connection, committed with it.

        The rows are the same as SQLAlchemy's ``insert`` stores.  On PostgreSQL
        one row is plain ``VALUES``; several go as arrays, ``unnest`` ``WITH
        ORDINALITY ... ORDER BY`` inserting them in the order given, so the ids
        drawn (ascending) are in that order.  On SQLite one row only (the
        caller's choice).
        """
        postgres = self.datastore.is_postgres
        if self._insert_sql is None:
            name = self.datastore.engine.dialect.identifier_preparer.quote(self.table.name)
            into = f"INSERT INTO {name} (originator_id, originator_version, topic, state) "
            self._insert_sql = (
                into + "SELECT i, v, t, s FROM unnest(%s::uuid[], %s::bigint[], %s::text[], "
                f"%s::bytea[]) WITH ORDINALITY AS e(i, v, t, s, n) ORDER BY n{self._returning}"
            )
            marks = "%s, %s, %s, %s" if postgres else "?, ?, ?, ?"
            self._insert_one_sql = into + f"VALUES ({marks}){self._returning}"
        streams = [
            e.originator_id if isinstance(e.originator_id, UUID) else UUID(str(e.originator_id))
            for e in stored_events
        ]
        params: tuple[Any, ...]
        if len(stored_events) == 1:  # most actions: no arrays to build
            (one,) = stored_events
            sql = self._insert_one_sql
            stream = streams[0] if postgres else streams[0].bytes
            params = (stream, one.originator_version, one.topic, one.state)
        else:
            sql = self._insert_sql
            params = (
                streams,
                [e.originator_version for e in stored_events],
                [e.topic for e in stored_events],
                [e.state for e in stored_events],
            )
        with self.datastore.write() as driver:
            if postgres and self._locks_batch(len(stored_events)):
                # BEGIN, the lock, the insert, COMMIT: sent together (psycopg's pipeline).
                with driver.pipeline():
                    with driver.transaction():
                        driver.execute(self._batch_lock_sql())
                        cursor = driver.execute(sql, params, prepare=True)
                    found = cursor.fetchall() if self._returning else []
            elif postgres:
                cursor = driver.execute(sql, params, prepare=True)
                found = cursor.fetchall() if self._returning else []
            else:
                cursor = driver.execute(sql, params)
                found = cursor.fetchall() if self._returning else []
            return sorted(row[0] for row in found) if self._returning else None

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> list[StoredEvent]:
        """The stored events of one stream, by version (after ``gt``, up to ``lte``)."""
        if self.datastore.direct and not self.datastore.in_transaction():
            return self._select_in_one_statement(originator_id, gt, lte, desc, limit)
        table = self.table
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
        with self.transaction(commit=False) as connection:
            rows = connection.execute(query).all()
        # The stream id is the one asked for: not converting it back row by row
        # saves a fifth of a replay.
        return [StoredEvent(originator_id, row[0], row[1], stored_state(row[2])) for row in rows]

    def _select_in_one_statement(
        self,
        originator_id: UUID | str,
        gt: int | None,
        lte: int | None,
        desc: bool,
        limit: int | None,
    ) -> list[StoredEvent]:
        """:meth:`select_events` as one statement on the driver's connection, outside a transaction.

        (Prepared on PostgreSQL; sqlite3 keeps its own statement cache.)
        """
        postgres = self.datastore.is_postgres
        key = (gt is not None, lte is not None, desc, limit is not None)
        if self._selects is None:
            self._selects = {}
        statements = self._selects
        sql = statements.get(key)
        if sql is None:
            name = self.datastore.engine.dialect.identifier_preparer.quote(self.table.name)
            mark = "%s" if postgres else "?"
            sql = "SELECT originator_version, topic, state FROM "
            sql += f"{name} WHERE originator_id = {mark}"
            sql += f" AND originator_version > {mark}" if gt is not None else ""
            sql += f" AND originator_version <= {mark}" if lte is not None else ""
            sql += " ORDER BY originator_version" + (" DESC" if desc else "")
            sql += f" LIMIT {mark}" if limit is not None else ""
            statements[key] = sql
        stream = originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id))
        params: list[Any] = [stream if postgres else stream.bytes]
        params += [x for x in (gt, lte, limit) if x is not None]
        with self.datastore.autocommit() as driver:
            if postgres:
                rows = driver.execute(sql, params, prepare=True).fetchall()
            else:
                rows = driver.execute(sql, params).fetchall()
        return [StoredEvent(originator_id, row[0], row[1], stored_state(row[2])) for row in rows]


class SnapshotRecorder(LedgerAggregateRecorder):
    """The snapshots: eventsourcing's aggregate recorder on the snapshots table."""


class LedgerRecorder(LedgerAggregateRecorder, ApplicationRecorder):
    """The events: eventsourcing's application recorder, the table's ``id`` its notification ids."""

    _returning = " RETURNING id"

    def __init__(self, datastore: LedgerDatastore, table: Table) -> None:
        super().__init__(datastore, table)
        self.channel_name = table.name.replace(".", "_")

    def _insert_stored_events(
        self, connection: Connection, stored_events: Sequence[StoredEvent]
    ) -> Sequence[int]:
        table = self.table
        self._lock_for_batch(connection, len(stored_events))
        statement = insert(table).returning(table.c.id, sort_by_parameter_order=True)
        return list(connection.execute(statement, _rows(stored_events)).scalars())

    def settle(self, connection: Connection) -> None:
        """Wait, in ``connection``'s transaction, until no insert into the log is in flight.

        On PostgreSQL ids are drawn as rows are inserted and become visible as
        their transactions commit, in any order: a reader that saw id 11
        might pass over an id 10 committed a moment later.  ``LOCK TABLE ...
        IN SHARE MODE`` waits for every transaction that has inserted to end
        and keeps new inserts waiting until this transaction ends; a query
        after it sees every id that will ever be below the highest it sees.
        Hold it for one read only.  Nothing to do on SQLite (one writer).
        """
        if connection.dialect.name == "postgresql":
            name = connection.dialect.identifier_preparer.quote(self.table.name)
            connection.execute(text(f"LOCK TABLE {name} IN SHARE MODE"))

    def insert_new_streams(
        self,
        stored_events: Sequence[StoredEvent],
        snapshots: SnapshotRecorder,
        stored_snapshots: Sequence[StoredEvent],
    ) -> None:
        """Whole new streams (an import) and their snapshots, in one transaction.

        The rows are those :meth:`insert_events` and the snapshots' recorder
        store; on SQLite they go straight to the driver in one ``executemany``
        each (SQLAlchemy's ``INSERT ... RETURNING`` sends them one row at a time,
        and binds each stream id through :class:`StreamId`).  The notification
        ids are not read back: nothing of an import waits for them.  Elsewhere
        the events go through :meth:`_insert_stored_events`, in this one
        transaction; readers of the log wait for it to commit (:meth:`settle`).

        :raises IntegrityError: if one of the streams or snapshots exists (nothing is stored).
        """
        with self.transaction(commit=True) as connection:
            if connection.dialect.name == "sqlite":
                _insert_sqlite(connection, self.table, stored_events)
                _insert_sqlite(connection, snapshots.table, stored_snapshots)
            else:
                self._insert_stored_events(connection, stored_events)
                if stored_snapshots:
                    snapshots._insert_stored_events(connection, stored_snapshots)

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> list[Notification]:
        """Up to ``limit`` events in notification order, from ``start`` (to ``stop``).

        Read once the log is settled (:meth:`settle`): no id is missing that a
        later read would find.
        """
        table = self.table
        query = select(table)
        if start is not None:
            query = query.where(table.c.id >= start if inclusive_of_start else table.c.id > start)
        if stop is not None:
            query = query.where(table.c.id <= stop)
        if topics:
            query = query.where(table.c.topic.in_(topics))
        query = query.order_by(table.c.id).limit(limit)
        with self.transaction(commit=False) as connection:
            self.settle(connection)
            rows = connection.execute(query).all()
        return [
            Notification(
                id=row.id,
                originator_id=row.originator_id,
                originator_version=row.originator_version,
                topic=row.topic,
                state=stored_state(row.state),
            )
            for row in rows
        ]

    def max_notification_id(self) -> int | None:
        """The highest notification id, None if nothing is stored.

        Read once the log is settled (:meth:`settle`): every id below it is
        committed or never will be.
        """
        with self.transaction(commit=False) as connection:
            self.settle(connection)
            found: int | None = connection.execute(select(func.max(self.table.c.id))).scalar()
        return found

    def moved_streams(self, after: int) -> tuple[int, list[tuple[UUID, int]]]:
        """The highest notification id, and each stream with events after ``after`` up to it,
        with the number of its first event there.

        One settled read (:meth:`settle`) of the ids alone (the primary key and the
        streams' index, no event's body): what a live feed asks once a tick.
        """
        table = self.table
        with self.transaction(commit=False) as connection:
            self.settle(connection)
            last = int(connection.execute(select(func.max(table.c.id))).scalar() or 0)
            if last <= after:
                return last, []
            rows = connection.execute(
                select(table.c.originator_id, func.min(table.c.originator_version))
                .where(table.c.id > after, table.c.id <= last)
                .group_by(table.c.originator_id)
            ).all()
        return last, [(row[0], int(row[1])) for row in rows]

    def subscribe(
        self, gt: int | None = None, topics: Sequence[str] = ()
    ) -> Subscription[ApplicationRecorder]:
        """The notifications after ``gt`` (of ``topics``), then each as it is recorded.

        By polling the log (:class:`PollingSubscription`): no ``NOTIFY`` is sent.
        """
        return PollingSubscription(self, gt=gt, topics=topics)


class PollingSubscription(Subscription[ApplicationRecorder]):
    """eventsourcing's subscription to an application recorder, by polling its notification log.

    Each read takes at most ``limit`` notifications after the last one
    yielded (a settled read, :meth:`LedgerRecorder.select_notifications`):
    what is held in memory is bounded.  With nothing new, it waits
    ``interval`` seconds, doubling up to ``max_interval``, and reads again.
    :meth:`stop` (from any thread, or leaving the ``with`` block) ends the
    iteration, waking a waiting reader at once.
    """

    def __init__(
        self,
        recorder: ApplicationRecorder,
        gt: int | None = None,
        topics: Sequence[str] = (),
        *,
        limit: int = 500,
        interval: float = 0.05,
        max_interval: float = 1.0,
    ) -> None:
        super().__init__(recorder, gt=gt, topics=topics)
        self._limit, self._interval, self._max_interval = limit, interval, max_interval
        self._stopped = Event()
        self._pending: Sequence[Notification] = ()
        self._index = 0

    def stop(self) -> None:
        """End the iteration (a reader waiting for events returns at once)."""
        super().stop()
        self._stopped.set()

    def __next__(self) -> Notification:
        wait = self._interval
        while not self._has_been_stopped:
            if self._index < len(self._pending):
                notification = self._pending[self._index]
                self._index += 1
                self._last_notification_id = notification.id
                return notification
            self._pending = self._recorder.select_notifications(
                start=self._last_notification_id,
                limit=self._limit,
                topics=self._topics,
                inclusive_of_start=False,
            )
            self._index = 0
            if not self._pending and self._stopped.wait(wait):
                break
            wait = min(wait * 2, self._max_interval) if not self._pending else self._interval
        raise StopIteration


class LedgerTrackingRecorder(TrackingRecorder):
    """eventsourcing's tracking recorder on the ledger's datastore.

    One row per upstream application in ``tracking`` (:func:`tracking_table`),
    its notification id only ever moved forward: recording an id at or below
    the one stored raises ``IntegrityError``, as the library's recorders do.

    :ivar datastore: the engine and its transactions.
    :ivar tracking_table: the table.
    """

    def __init__(self, datastore: LedgerDatastore, tracking: Table) -> None:
        self.datastore = datastore
        self.tracking_table = tracking

    def create_table(self) -> None:
        """Create the tracking table unless it exists."""
        self.tracking_table.create(self.datastore.engine, checkfirst=True)

    def insert_tracking(self, tracking: Tracking) -> None:
        """Record that ``tracking``'s notification is processed, in a transaction of its own.

        :raises IntegrityError: if that notification, or a later one, is recorded already.
        """
        with self.datastore.transaction(commit=True) as connection:
            self._insert_tracking(connection, tracking)

    def _insert_tracking(self, connection: Connection, tracking: Tracking) -> None:
        """Move the application's row forward to ``tracking``, or insert it, in ``connection``.

        The ``UPDATE`` moves the row only forward; when it moves nothing the
        ``INSERT`` either makes the application's first row or collides with
        its key (the id is at or below the one stored, or a concurrent
        transaction recorded it first: on PostgreSQL the update waits for that
        one's row lock and then finds the row already moved).
        """
        table = self.tracking_table
        name, position = tracking.application_name, tracking.notification_id
        moved = connection.execute(
            update(table)
            .where(table.c.application_name == name, table.c.notification_id < position)
            .values(notification_id=position)
        ).rowcount
        if not moved:
            connection.execute(
                insert(table).values(application_name=name, notification_id=position)
            )

    def max_tracking_id(self, application_name: str) -> int | None:
        """The last notification id recorded for ``application_name``, None if none is."""
        table = self.tracking_table
        with self.datastore.transaction(commit=False) as connection:
            found: int | None = connection.execute(
                select(func.max(table.c.notification_id)).where(
                    table.c.application_name == application_name
                )
            ).scalar()
        return found


class LedgerProcessRecorder(LedgerTrackingRecorder, LedgerRecorder, ProcessRecorder):
    """eventsourcing's process recorder: events and a tracking record in one transaction.

    The events table as :class:`LedgerRecorder` keeps it, the tracking table
    as :class:`LedgerTrackingRecorder` does, in one database.
    """

    def __init__(self, datastore: LedgerDatastore, events: Table, tracking: Table) -> None:
        LedgerRecorder.__init__(self, datastore, events)
        LedgerTrackingRecorder.__init__(self, datastore, tracking)

    def create_table(self) -> None:
        """Create the events and tracking tables unless they exist."""
        LedgerRecorder.create_table(self)
        LedgerTrackingRecorder.create_table(self)


def _rows(stored_events: Sequence[StoredEvent]) -> list[dict[str, Any]]:
    return [
        {
            "originator_id": event.originator_id,
            "originator_version": event.originator_version,
            "topic": event.topic,
            "state": event.state,
        }
        for event in stored_events
    ]


def _insert_sqlite(connection: Connection, table: Table, stored: Sequence[StoredEvent]) -> None:
    """``stored`` into ``table`` of a SQLite database, as :func:`_rows` and :class:`StreamId` bind
    them (the stream id's 16 bytes), in one ``executemany`` of the driver."""
    if not stored:
        return
    connection.exec_driver_sql(
        f'INSERT INTO "{table.name}" (originator_id, originator_version, topic, state) '
        "VALUES (?, ?, ?, ?)",
        [
            (_stream_bytes(event.originator_id), event.originator_version, event.topic, event.state)
            for event in stored
        ],
    )


def _stream_bytes(stream: Any) -> bytes:
    return (stream if isinstance(stream, UUID) else UUID(str(stream))).bytes


class LedgerFactory(InfrastructureFactory[LedgerTrackingRecorder]):
    """eventsourcing's infrastructure factory for one SQLAlchemy URL (``SQLALCHEMY_URL``).

    Tables are named after the application (``bgledger_events``,
    ``bgledger_snapshots``) and created unless they exist (``CREATE_TABLE``,
    default yes).
    """

    SQLALCHEMY_URL = "SQLALCHEMY_URL"
    CREATE_TABLE = "CREATE_TABLE"

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        url = self.env.get(self.SQLALCHEMY_URL)
        if not url:
            raise ValueError(f"{self.SQLALCHEMY_URL} is not set")
        self.datastore = LedgerDatastore(url)

    def close(self) -> None:
        """Close the database connections (a SQLite file in WAL mode is checkpointed).

        An in-memory SQLite database is gone with its one connection.
        """
        self.datastore.close()

    def _table_name(self, purpose: str) -> str:
        return f"{self.env.name.lower() or 'stored'}_{purpose}"

    def _created(self, recorder: LedgerAggregateRecorder | LedgerTrackingRecorder) -> None:
        if strtobool(self.env.get(self.CREATE_TABLE) or "yes"):
            recorder.create_table()

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        """The snapshots' recorder for ``"snapshots"``, else an events table's aggregate recorder.

        (The application's events are recorded by :meth:`application_recorder`.)
        """
        name = self._table_name(purpose)
        recorder = (
            SnapshotRecorder(self.datastore, snapshots_table(name))
            if purpose == "snapshots"
            else LedgerAggregateRecorder(self.datastore, events_table(name))
        )
        self._created(recorder)
        return recorder

    def application_recorder(self) -> ApplicationRecorder:
        """The events' recorder."""
        recorder = LedgerRecorder(self.datastore, events_table(self._table_name("events")))
        self._created(recorder)
        return recorder

    def tracking_recorder(
        self, tracking_recorder_class: type[LedgerTrackingRecorder] | None = None
    ) -> LedgerTrackingRecorder:
        """A tracking recorder on the ``tracking`` table (``bgledger_tracking``).

        Of ``tracking_recorder_class``, else of the class named by
        ``TRACKING_RECORDER_TOPIC``, else :class:`LedgerTrackingRecorder`.

        :raises TypeError: for a class that is not a :class:`LedgerTrackingRecorder`.
        """
        kind = tracking_recorder_class
        if kind is None:
            topic = self.env.get(self.TRACKING_RECORDER_TOPIC)
            kind = resolve_topic(topic) if topic else LedgerTrackingRecorder
        if not (isinstance(kind, type) and issubclass(kind, LedgerTrackingRecorder)):
            raise TypeError(f"{kind!r} is not a LedgerTrackingRecorder")
        recorder = kind(self.datastore, tracking_table(self._table_name("tracking")))
        self._created(recorder)
        return recorder

    def process_recorder(self) -> ProcessRecorder:
        """A process recorder: the events table and the tracking table."""
        recorder = LedgerProcessRecorder(
            self.datastore,
            events_table(self._table_name("events")),
            tracking_table(self._table_name("tracking")),
        )
        self._created(recorder)
        return recorder
