"""kill -9 while the read models catch up and while they are rebuilt: never half a batch.

The tournament read models (:mod:`bgledger.projections.readmodels.tracking`) promise that each
transaction of a catch-up moves rows and tracking position together, and that
a rebuild is one transaction.  Here the real ``bgledger`` command runs in a
child process (this interpreter, as in :mod:`tests.test_crash`) and is killed
with SIGKILL while it works, on a fresh SQLite file and on a throwaway
PostgreSQL database.  The ledger holds real transcriptions of
``../shared/fixtures/matches/tournament``: a first few matches, caught up,
then some 16,500 more events (four batches of up to 5,000 notifications) not
yet caught up.

1. ``bgledger list`` (which catches up first) is killed twice at seeded random
   moments inside its work, then let finish (a run that finished the work
   before its kill leaves the next one a fresh copy of the store).  After each kill, read by a new
   :class:`~bgledger.store.application.MatchStore`: the tracking position has not gone back, is
   the id of a notification the log holds (or is unchanged), and every match
   row's version is the stream's last event at or below it, no more, no less;
   the tables, tracking row included, are exactly what ``rebuild`` computes
   on a copy of the store whose log ends at that position (rows committed
   without the tracking id, or the tracking id moved past rows not written,
   differ from it).  Finally a complete catch-up equals a rebuild.
2. ``bgledger rebuild`` is killed inside its work, twice, each time on a
   fresh copy of the store, caught up to the first matches only so that the
   old tables and the rebuilt ones differ.  After each kill the tables and
   tracking row are exactly either what they were before or what a complete
   rebuild gives (on a twin copy), and a later ``catch_up`` and ``rebuild``
   both give the complete rebuild.

In both, ``bgledger verify`` passes afterwards and the event store (events,
streams, snapshots) is unchanged.

The kill moments land inside the work, not in interpreter start-up.  A
child is watched from outside while it runs, by a look that takes no lock
(SQLite: another process holds the WAL write lock; PostgreSQL: another
session holds a write lock on a read-model table), and is seen writing when
two looks in a row find so (a connection opening a SQLite file may hold the
write lock for a moment to build the WAL index).  An unkilled run of the
same command on a twin copy of the store gives the window from its first
write transaction seen open to its last; each killed run is killed a seeded
uniform 5-80 % of that window after its first write transaction is seen
(for a catch-up, of the part of the window left to do; a kill that finds
the work already done narrows the window to its delay).  A kill counts as
landing mid-work when the child had not exited, its write transaction had
been seen, and the store shows the work unfinished (catch-up: tracking short
of the last notification; rebuild: the tables as before, which differ from
the rebuilt ones).  If none of the first two does, up to three more kills
are tried; each test requires one and records the count (printed, and
``kills_mid_work`` in the JUnit properties).

``BGLEDGER_CRASH_SEED`` (an integer) varies the kill moments between runs.
"""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import pickle
import random
import signal
import sqlite3
import struct
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import psycopg
import pytest
import sqlalchemy
from psycopg import sql
from sqlalchemy import delete, func, select
from sqlalchemy.engine import make_url

from bgledger.interchange.importer import match_id_for, matches_from_mat
from bgledger.interchange.mat import read_mat_file
from bgledger.projections.readmodels.tables import (
    MODEL_TABLES,
    dump_tables,
    matches_table,
    tracking_table,
)
from bgledger.projections.readmodels.tracking import ReadModels
from bgledger.store.application import MatchStore
from tests.conftest import POSTGRES_ENV, shared_matches
from tests.test_crash import WAIT, _command, _environment, _raw_streams, _run

SEED = int(os.environ.get("BGLEDGER_CRASH_SEED", "20261122"))
"""Seeds the kill moments (with the store's kind and the scenario)."""
FIRST_FILES = 2
"""Transcriptions stored and caught up before the rest."""
MORE_FILES = 19
"""Transcriptions stored after the first catch-up (the next ones in name order) ..."""
MORE_EVENTS = 16_000
"""... holding at least this many events: three batches of 5,000 notifications and a fourth."""
KILLS = 2
SPARE = 3
"""Kills more, one by one, while none of the first :data:`KILLS` has landed mid-work."""
POLL = 0.002
"""Seconds between two looks at the store while a child runs."""
FLOCK = struct.Struct("hhqqi4x")
"""Linux's ``struct flock`` (64-bit ``off_t``): type, whence, start, length, pid (to ask
``F_GETLK`` who holds a lock; the project runs on Linux)."""
WAL_WRITE_LOCK = 120
"""The byte of a SQLite ``-shm`` file locked while a write transaction is open."""
Tables = dict[str, list[dict[str, Any]]]
MATCHES = matches_table.name
TRACKING = tracking_table.name
MODEL_NAMES = [table.name for table in (*MODEL_TABLES, tracking_table)]


# -- the corpus and the stores ------------------------------------------------------------------


def _replayed(path: Path) -> tuple[int, bytes]:
    """One transcription replayed as ``import`` replays it: its events, and its match pickled."""
    # One id a file (several files hold matches between the same players on the same day).
    (one,) = matches_from_mat(
        read_mat_file(path), path.name, match_id=match_id_for(path.name), profile="usbgf-2016"
    )
    return one.match.state.events, pickle.dumps(one.match)


@pytest.fixture(scope="module")
def corpus() -> tuple[list[bytes], list[bytes]]:
    """The first matches and the many more, replayed once (in two processes), pickled.

    Pickled because ``store_new`` takes a match's pending events: each store
    gets matches of its own.
    """
    paths = sorted((shared_matches() / "tournament").glob("*.mat"))[: FIRST_FILES + MORE_FILES]
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(2, mp_context=context) as pool:
            replayed = list(pool.map(_replayed, paths))
    else:
        replayed = [_replayed(path) for path in paths]
    more = sum(events for events, _ in replayed[FIRST_FILES:])
    assert more >= MORE_EVENTS, f"only {more} events after the first transcriptions"
    blobs = [blob for _, blob in replayed]
    return blobs[:FIRST_FILES], blobs[FIRST_FILES:]


def _admin() -> str:
    """The libpq URL of the test PostgreSQL server's database (to create and drop others)."""
    base = make_url(os.environ[POSTGRES_ENV].strip())
    return base.set(drivername="postgresql").render_as_string(hide_password=False)


def _database_url(name: str) -> str:
    """The SQLAlchemy URL of the database ``name`` on the test PostgreSQL server."""
    base = make_url(os.environ[POSTGRES_ENV].strip())
    return base.set(database=name).render_as_string(hide_password=False)


def _postgres(statement: str, *names: str) -> None:
    """Run ``statement`` on the server, the database ``names`` in its ``{}`` quoted."""
    with psycopg.connect(_admin(), autocommit=True) as connection:
        connection.execute(sql.SQL(statement).format(*map(sql.Identifier, names)))


def _settle(url: str) -> None:
    """Wait until no session is left on a PostgreSQL store (a killed child's may still commit).

    A client killed just after sending ``COMMIT`` is committed by its server
    process even so: the store is read only once that process has gone.
    """
    if not url.startswith("postgresql"):
        return
    name = make_url(url).database
    deadline = time.monotonic() + 30
    with psycopg.connect(_admin(), autocommit=True) as connection:
        while True:
            sessions = connection.execute(
                "SELECT pid, state, query FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            ).fetchall()
            if not sessions:
                return
            assert time.monotonic() < deadline, f"sessions left on {name}: {sessions}"
            time.sleep(0.02)


class Stores:
    """Copies of stores: a SQLite file backed up, a PostgreSQL database created from another.

    :param folder: where SQLite copies go.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.databases: list[str] = []
        self.made = 0

    def copy(self, url: str) -> str:
        """A new store holding what ``url`` holds (events, snapshots, read models), its URL."""
        self.made += 1
        number = self.made
        if url.startswith("sqlite"):
            target = self.folder / f"copy-{number}.db"
            source = make_url(url).database
            assert source is not None
            with closing(sqlite3.connect(source)) as old, closing(sqlite3.connect(target)) as new:
                old.backup(new)
            return f"sqlite:///{target}"
        _settle(url)  # (a database is copied only when no session is on it)
        source = str(make_url(url).database)
        name = f"{source}_{number}"
        _postgres("CREATE DATABASE {} TEMPLATE {}", name, source)
        self.databases.append(name)
        return _database_url(name)

    def drop(self) -> None:
        for name in self.databases:
            _postgres("DROP DATABASE IF EXISTS {} WITH (FORCE)", name)


@dataclass(frozen=True)
class Seeded:
    """A store of the first matches, caught up, then of many more not yet caught up."""

    url: str
    caught_up: int
    """The tracking position after the first catch-up."""
    last: int
    """The last notification id."""
    events: tuple[int, int, int]
    """Event rows, streams and snapshot rows (:func:`_event_store`)."""


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def seeded(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Seeded]:
    """The seeded store on a fresh SQLite file, then on a throwaway PostgreSQL database.

    Module-scoped, unlike :func:`tests.test_crash.crash_url`: both tests copy it.
    With :data:`~tests.conftest.POSTGRES_ENV` set, a server that cannot be
    reached fails the PostgreSQL tests.
    """
    name = None
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('seeded') / 'seeded.db'}"
    elif not os.environ.get(POSTGRES_ENV, "").strip():
        pytest.skip(f"PostgreSQL tests need {POSTGRES_ENV}")
    else:
        name = f"bgledger_crashrm_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        _postgres("CREATE DATABASE {}", name)
        url = _database_url(name)
    try:
        corpus: tuple[list[bytes], list[bytes]] = request.getfixturevalue("corpus")
        first, more = ([pickle.loads(blob) for blob in blobs] for blobs in corpus)
        with _models(url) as models:
            models.ledger.store_new(*first)
            models.catch_up()
            caught_up = models.position()
            models.ledger.store_new(*more)
            last = _last_notification(models)
        assert 0 < caught_up < last
        yield Seeded(url, caught_up, last, _event_store(url))
    finally:
        if name is not None:
            _postgres("DROP DATABASE IF EXISTS {} WITH (FORCE)", name)


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[Stores]:
    """Copies made during the test, dropped after it."""
    folder = tmp_path / "copies"
    folder.mkdir()
    made = Stores(folder)
    try:
        yield made
    finally:
        made.drop()


# -- reading a store ------------------------------------------------------------------------------


def _event_store(url: str) -> tuple[int, int, int]:
    """Event rows, distinct streams and snapshot rows, read past the ledger."""
    rows, streams = _raw_streams(url)
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as connection:
            query = sqlalchemy.text("SELECT count(*) FROM bgledger_snapshots")
            snapshots = int(connection.execute(query).scalar_one())
    finally:
        engine.dispose()
    return rows, streams, snapshots


def _last_notification(models: ReadModels) -> int:
    with models.engine.connect() as connection:
        return int(connection.execute(select(func.max(models.events_table.c.id))).scalar_one())


def _versions_as_of(models: ReadModels, position: int) -> dict[str, int]:
    """Each stream with a notification at or below ``position``: its last event there."""
    column = models.events_table.c
    query = (
        select(column.originator_id, func.max(column.originator_version))
        .where(column.id <= position)
        .group_by(column.originator_id)
    )
    with models.engine.connect() as connection:
        rows = connection.execute(query).all()
    return {str(uuid.UUID(str(stream))): int(version) for stream, version in rows}


def _holds(models: ReadModels, notification: int) -> bool:
    """Whether the notification log has the id ``notification``."""
    column = models.events_table.c
    query = select(func.count()).where(column.id == notification)
    with models.engine.connect() as connection:
        return int(connection.execute(query).scalar_one()) == 1


@contextmanager
def _models(url: str) -> Iterator[ReadModels]:
    """The read models of a new ledger on the store; its connections closed afterwards."""
    with MatchStore(url) as ledger:
        models = ReadModels(ledger)
        try:
            yield models
        finally:
            models.engine.dispose()


def _tables(url: str) -> Tables:
    """Every read-model row and the tracking row (:func:`dump_tables`), by a new ledger."""
    with _models(url) as models:
        return dump_tables(models.engine)


def _rebuilt_as_of(stores: Stores, url: str, position: int) -> Tables:
    """What ``rebuild`` computes from the notifications up to ``position``, on a copy."""
    with _models(stores.copy(url)) as models:
        events = models.events_table
        with models.engine.begin() as connection:
            connection.execute(delete(events).where(events.c.id > position))
        models.rebuild()
        return dump_tables(models.engine)


# -- the child process, watched from outside ----------------------------------------------------


@contextmanager
def _watching(url: str) -> Iterator[Callable[[], bool]]:
    """A look, from outside, at whether another process has a write transaction open.

    Only looks: it takes no lock the child could wait for.  SQLite (WAL mode):
    another process holds the WAL write lock, which SQLite's unix VFS takes as
    an fcntl lock on byte 120 of the ``-shm`` file from a write transaction's
    first write to its end (https://www.sqlite.org/walformat.html).
    PostgreSQL: another session holds a lock stronger than a reader's on a
    read-model table.
    """
    if url.startswith("sqlite"):
        shm = Path(f"{make_url(url).database}-shm")
        asked = FLOCK.pack(fcntl.F_WRLCK, os.SEEK_SET, WAL_WRITE_LOCK, 1, 0)

        def locked() -> bool:
            try:
                descriptor = os.open(shm, os.O_RDONLY)
            except FileNotFoundError:  # no connection has opened the file yet
                return False
            try:
                found = fcntl.fcntl(descriptor, fcntl.F_GETLK, asked)
            finally:
                os.close(descriptor)
            return int(FLOCK.unpack(found)[0]) != fcntl.F_UNLCK

        yield locked
        return
    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    query = (
        "SELECT count(*) FROM pg_locks JOIN pg_class ON pg_class.oid = pg_locks.relation"
        " WHERE pg_locks.database = (SELECT oid FROM pg_database"
        " WHERE datname = current_database()) AND pg_locks.granted"
        " AND pg_locks.pid <> pg_backend_pid() AND pg_locks.mode <> 'AccessShareLock'"
        " AND pg_class.relname = ANY(%s)"
    )
    with psycopg.connect(conninfo, autocommit=True) as connection:

        def writing() -> bool:
            found = connection.execute(query, (MODEL_NAMES,)).fetchone()
            return found is not None and int(found[0]) > 0

        yield writing


@dataclass(frozen=True)
class Run:
    """One watched run of ``bgledger``: how it ended and when it was seen writing."""

    code: int
    seen: float | None
    """Seconds from its launch to the first of two looks in a row that found a write
    transaction open."""
    last: float | None
    """... to the last such look (before it ended or was killed)."""
    delay: float | None = None
    """Seconds from ``seen`` to the kill."""

    @property
    def killed(self) -> bool:
        return self.code == -signal.SIGKILL

    @property
    def window(self) -> float:
        """Seconds from its first write transaction seen open to its last."""
        assert self.seen is not None and self.last is not None, "never seen writing"
        return self.last - self.seen


def _watched(url: str, *args: str, kill: Callable[[], float] | None = None) -> Run:
    """Run ``bgledger``, looking at the store every :data:`POLL` seconds while it runs.

    :param kill: if given, the child is SIGKILLed this many seconds (drawn when
        its first write transaction is seen open) after that; else it runs to the
        end.  Killed or not, it is looked at the same way until it ends.
    """
    with _watching(url) as writing, tempfile.TemporaryFile() as errors:
        launched = time.monotonic()
        process = subprocess.Popen(
            _command(url, *args), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=errors, env=_environment(),
        )  # fmt: skip
        seen: float | None = None
        last: float | None = None
        delay: float | None = None
        before: float | None = None  # the previous look, if it found a write transaction
        try:
            while process.poll() is None:
                now = time.monotonic() - launched
                assert now < WAIT, f"bgledger {' '.join(args)} still running after {WAIT} s"
                if seen is not None and delay is not None and now >= seen + delay:
                    process.send_signal(signal.SIGKILL)  # nothing if it has just ended
                    break
                if not writing():
                    before = None
                elif seen is None and before is None:
                    before = now  # once may be SQLite building its WAL index on opening
                else:
                    if seen is None:
                        seen = before
                        delay = None if kill is None else kill()
                    last = now
                time.sleep(POLL)
            code = process.wait(WAIT)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        errors.seek(0)
        assert code in (0, -signal.SIGKILL), errors.read().decode(errors="replace")
    _settle(url)
    return Run(code, seen, last, delay)


def _rng(scenario: str, url: str) -> random.Random:
    return random.Random(f"{SEED}-{scenario}-{url.split(':')[0]}")


def _note(run: Run) -> str:
    """How a killed run went: when it was seen writing, when killed, when last seen writing."""
    if run.seen is None or run.last is None or run.delay is None:
        return f"exit {run.code}, never seen writing"
    return (
        f"exit {run.code}, seen writing at {run.seen:.3f} s, killed {run.delay:.3f} s later, "
        f"last seen writing {run.seen + run.delay - run.last:.3f} s before"
    )


def _record_kills(record: Callable[[str, object], None], mid_work: int, notes: list[str]) -> None:
    """Keep the count in the test's report (JUnit properties; printed with ``-s``)."""
    record("kills_mid_work", mid_work)
    record("kills", "; ".join(notes))
    print(f"seed {SEED}: {mid_work} of {len(notes)} kills mid-work: " + "; ".join(notes))


@contextmanager
def _verifying(url: str) -> Iterator[None]:
    """``bgledger verify`` of every match, in a child running alongside the block: it must pass.

    (It only reads the events: the block may go on with the read models meanwhile.)
    """
    with tempfile.TemporaryFile() as output:
        process = subprocess.Popen(
            _command(url, "verify"), stdin=subprocess.DEVNULL, stdout=output,
            stderr=subprocess.STDOUT, env=_environment(),
        )  # fmt: skip
        try:
            yield
        except BaseException:
            process.kill()
            process.wait()
            raise
        code = process.wait(WAIT)
        output.seek(0)
        assert code == 0, output.read().decode(errors="replace")


# -- 1. a catch-up killed -------------------------------------------------------------------------


def test_a_killed_catch_up_leaves_the_models_exactly_as_of_its_position(
    seeded: Seeded, stores: Stores, record_property: Callable[[str, object], None]
) -> None:
    url = stores.copy(seeded.url)
    span = seeded.last - seeded.caught_up
    # How long the whole catch-up writes, on a twin copy, watched as the killed runs are.
    measured = _watched(stores.copy(seeded.url), "list")
    assert measured.code == 0 and measured.seen is not None, "the catch-up was never seen writing"
    print(f"catch-up of {span} notifications seen writing for {measured.window:.3f} s")
    window = measured.window
    rng = _rng("catch-up", url)
    position = seeded.caught_up
    mid_work = 0
    notes: list[str] = []
    for kill in range(KILLS + SPARE):
        if kill >= KILLS and mid_work:
            break
        if position == seeded.last:  # a run finished before its kill: go on from a fresh copy
            url, position = stores.copy(seeded.url), seeded.caught_up
        left = window * (seeded.last - position) / span
        run = _watched(url, "list", kill=partial(rng.uniform, 0.05 * left, 0.8 * left))
        with _models(url) as models:
            now = models.position()
            tables = dump_tables(models.engine)
            holds = _holds(models, now)
            versions = _versions_as_of(models, now)
        assert position <= now <= seeded.last, f"tracking went from {position} to {now}"
        assert now == position or holds, f"tracking {now} is no notification of the log"
        # No match row claims an event past the position, nor misses one at or below it.
        assert {row["stream"]: row["version"] for row in tables[MATCHES]} == versions
        assert tables[TRACKING][0]["notification_id"] == now
        # Exactly what the events up to the position give, and nothing of those after it.
        assert tables == _rebuilt_as_of(stores, url, now), f"killed at {now} (seed {SEED})"
        assert _event_store(url) == seeded.events
        if run.killed and run.seen is not None and now < seeded.last:
            mid_work += 1
        elif run.delay is not None and now == seeded.last:  # it was done sooner: draw sooner
            window = min(window, run.delay * span / (seeded.last - position))
        notes.append(f"{_note(run)}: tracking {position} -> {now} of {seeded.last}")
        position = now
    _record_kills(record_property, mid_work, notes)

    with _verifying(url):
        finished = _run(url, "list")
        assert finished.returncode == 0, finished.stderr
        assert len(finished.stdout.splitlines()) == 1 + seeded.events[1]  # a header, a match a line
        with _models(url) as models:
            assert models.catch_up() == 0
            assert models.position() == seeded.last
            caught_up = dump_tables(models.engine)
            models.rebuild()
            assert dump_tables(models.engine) == caught_up
    assert _event_store(url) == seeded.events
    assert mid_work >= 1, f"no kill landed inside the catch-up: {notes}"


# -- 2. a rebuild killed --------------------------------------------------------------------------


def test_a_killed_rebuild_changes_all_or_nothing(
    seeded: Seeded, stores: Stores, record_property: Callable[[str, object], None]
) -> None:
    before = _tables(seeded.url)
    # A complete rebuild, by the command, on a twin copy: how long it writes, and what it gives.
    twin = stores.copy(seeded.url)
    measured = _watched(twin, "rebuild")
    assert measured.code == 0 and measured.seen is not None, "the rebuild was never seen writing"
    print(f"rebuild seen writing for {measured.window:.3f} s")
    rebuilt = _tables(twin)
    # The tables before and after differ (tracking, and the matches stored after the catch-up).
    assert before[TRACKING] == [{"name": ANY, "notification_id": seeded.caught_up}]
    assert rebuilt[TRACKING] == [{"name": ANY, "notification_id": seeded.last}]
    assert len(rebuilt[MATCHES]) == seeded.events[1] > len(before[MATCHES])
    window = measured.window
    rng = _rng("rebuild", twin)
    mid_work = 0
    notes: list[str] = []
    outcomes: dict[str, str] = {}
    for kill in range(KILLS + SPARE):
        if kill >= KILLS and mid_work:
            break
        url = stores.copy(seeded.url)  # each kill on the store as it was: the two outcomes differ
        run = _watched(url, "rebuild", kill=partial(rng.uniform, 0.05 * window, 0.8 * window))
        now = _tables(url)
        assert now in (before, rebuilt), f"a killed rebuild left other tables (seed {SEED})"
        assert _event_store(url) == seeded.events
        outcome = "unchanged" if now == before else "rebuilt"
        if run.killed and run.seen is not None and outcome == "unchanged":
            mid_work += 1
        elif outcome == "rebuilt" and run.delay is not None:  # done sooner: draw sooner
            window = min(window, run.delay)
        notes.append(f"{_note(run)}: {outcome}")
        outcomes[outcome] = url
    _record_kills(record_property, mid_work, notes)

    with _verifying(url):
        # Whichever it was (the tables, so what follows, are the same for each kill that
        # left them so), the models go on from there to the complete rebuild.
        for left in outcomes.values():
            with _models(left) as models:
                models.catch_up()
                assert dump_tables(models.engine) == rebuilt
                models.rebuild()
                assert dump_tables(models.engine) == rebuilt
            assert _event_store(left) == seeded.events
    assert mid_work >= 1, f"no kill landed inside the rebuild: {notes}"
