"""Shared test helpers: where the shared real data lives, a board builder, ledger stores,
the web app's test client."""

from __future__ import annotations

import compileall
import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bgledger.rules.position import Position

if TYPE_CHECKING:  # the web's imports only where a web test asks for its client
    from starlette.testclient import TestClient

    from bgledger.service import Ledger

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
MATCHES = SHARED / "fixtures" / "matches"


def shared_matches() -> Path:
    """The real match transcriptions beside the repository, or skip saying why."""
    if not MATCHES.is_dir():
        pytest.skip(f"the shared real-match corpus is not at {MATCHES} (clone ../shared beside it)")
    return MATCHES


def board(mover: Mapping[int, int], opponent: Mapping[int, int]) -> Position:
    """A position from ``{point: checkers}`` maps (25 = bar); the rest of 15 is borne off."""
    sides = []
    for counts in (mover, opponent):
        side = [0] * 26
        for point, n in counts.items():
            side[point] = n
        side[0] = max(0, 15 - sum(side))
        sides.append(tuple(side))
    return Position(sides[0], sides[1])


# -- stores: a SQLite file per test, and the shared PostgreSQL server when configured ---------

POSTGRES_ENV = "BGLEDGER_TEST_POSTGRES"


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A SQLAlchemy URL for a fresh SQLite file in the test's temporary directory."""
    return f"sqlite:///{tmp_path / 'ledger.db'}"


@pytest.fixture(scope="session")
def _worker_postgres_url() -> str:
    """The test PostgreSQL database of this pytest-xdist worker, made if missing; skip if not set.

    Without xdist (or on its controller) the configured database itself; on a worker
    ``gw0``, ``gw1``, ... the database ``<configured>_gw0`` beside it on the same server,
    created here when it does not exist yet (kept, like the configured one, for the next run),
    so that two workers never write into the log the other one reads.
    """
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if not url:
        pytest.skip(
            f"PostgreSQL tests need {POSTGRES_ENV}, e.g. "
            "postgresql+psycopg://postgres@127.0.0.1:5432/test"
        )
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker:
        return url
    import sqlalchemy
    from sqlalchemy.engine import make_url

    base = make_url(url)
    name = f"{base.database}_{worker}"
    admin = sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            exists = connection.execute(
                sqlalchemy.text("SELECT 1 FROM pg_database WHERE datname = :name"),
                {"name": name},
            ).first()
            if exists is None:
                try:
                    connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
                except sqlalchemy.exc.ProgrammingError as made:  # made meanwhile by another run
                    if "already exists" not in str(made):
                        raise
            # A test database: a commit need not wait for its log to reach the disk (what a
            # server crash would lose, no test keeps; a killed client loses nothing either way).
            # PostgreSQL-heavy files ran 13% faster.
            connection.execute(
                sqlalchemy.text(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
            )
    finally:
        admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


@pytest.fixture
def postgres_url(_worker_postgres_url: str) -> str:
    """The SQLAlchemy URL of the test PostgreSQL database, or skip saying how to set it.

    The database is shared by this worker's tests and keeps what they write: use unique
    match ids. Each pytest-xdist worker has a database of its own (``_worker_postgres_url``).
    """
    return _worker_postgres_url


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest) -> str:
    """Each store in turn: a fresh SQLite file, then PostgreSQL (skipped when not configured)."""
    return str(request.getfixturevalue(f"{request.param}_url"))


@contextmanager
def own_postgres_database(prefix: str) -> Iterator[str]:
    """The URL of a fresh PostgreSQL database of its own, dropped afterwards; skip if not set.

    For tests that need the whole log to themselves (the shared database keeps
    what other tests wrote).
    """
    base = os.environ.get(POSTGRES_ENV, "").strip()
    if not base:
        pytest.skip(f"PostgreSQL tests need {POSTGRES_ENV}")
    import sqlalchemy
    from sqlalchemy.engine import make_url

    name = f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    admin = sqlalchemy.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def unique_id(prefix: str = "t") -> str:
    """A match id no other test run uses (the PostgreSQL database is shared and persists)."""
    return f"{prefix}-{uuid.uuid4().hex[:16]}"


# -- the web app ---------------------------------------------------------------------------


@pytest.fixture
def client(ledger: Ledger) -> TestClient:
    """The web app on the test module's own ``ledger`` fixture, through Starlette's TestClient,
    reading as the appeals committee (:func:`tests.webclient.reading`)."""
    from tests.webclient import bare_client, reading

    return reading(bare_client(ledger), ledger)


@pytest.fixture(scope="session", autouse=True)
def _corpus_shared_by_the_workers(tmp_path_factory: pytest.TempPathFactory) -> None:
    """On a pytest-xdist worker, the folder where the workers share the corpus's import
    (:mod:`tests.corpus`): beside the workers' own temporary folders."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        from tests import corpus

        corpus.FOLDER = tmp_path_factory.getbasetemp().parent / "corpus"


# -- bytecode -------------------------------------------------------------------------------

PACKAGE_FOLDERS = ("cli", "ledger", "projections", "web")
"""The folders the editable install maps ``bgledger`` onto (pyproject's package-dir)."""


def pytest_configure(config: pytest.Config) -> None:
    """Before the workers start (on pytest-xdist's controller, or in a run of one process):
    temporary files in memory (:func:`temporary_files_in_memory`), then this run's bytecode
    kept (:func:`keep_bytecode`)."""
    if not hasattr(config, "workerinput"):
        temporary_files_in_memory()
        keep_bytecode(config)


def temporary_files_in_memory() -> None:
    """Put the run's temporary files (each test's SQLite ledgers, the workers' folders, what
    the servers and consoles a test starts write) on ``/dev/shm``, where it is a memory file
    system with room, unless ``TMPDIR`` says where they go.

    A SQLite commit waits for the disk twice (its journal, then the file): on a disk, the
    database-heavy files ran 5% slower.  What the tests check does not depend on the disk:
    their crashes kill processes, not the machine.
    """
    shared = Path("/dev/shm")
    if os.environ.get("TMPDIR") or not shared.is_dir() or not os.access(shared, os.W_OK):
        return
    if shutil.disk_usage(shared).free < 2 * 1024**3:
        return
    folder = shared / f"bgledger-tests-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = None  # read TMPDIR again


def keep_bytecode(config: pytest.Config) -> None:
    """Keep compiled bytecode, for this run and the next, where ``PYTHONDONTWRITEBYTECODE`` is
    set (some CI images and containers set it).

    With it set, every process compiles again from source each module it imports that has no
    bytecode beside it: with an editable install all of bgledger, in each worker and in each
    ``bgledger`` a test starts (the console, the servers, the killed imports), and each worker
    rewrites every test module's asserts again.  A whole run on a quiet 2-CPU machine took
    506 s of CPU with bytecode kept against 567 s without (bench/README.md, "The test suite's
    time").  The bytecode goes under the temporary folder (``PYTHONPYCACHEPREFIX``), so the
    source tree stays as the variable asks; the package and the test modules are compiled here,
    once, before the workers start.
    """
    if not sys.dont_write_bytecode:
        return
    prefix = str(Path(tempfile.gettempdir()) / "bgledger-pycache")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False
    for folder in (*PACKAGE_FOLDERS, "tests"):
        compileall.compile_dir(REPO / folder, quiet=1, workers=0)
    _rewrite_test_modules(config)


def _rewrite_test_modules(config: pytest.Config) -> None:
    """Rewrite the test modules' asserts once, as each worker's import would (pytest's own
    functions: a pytest without them leaves it to the workers)."""
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _read_pyc,
            _rewrite_test,
            _write_pyc,
            assertstate_key,
            get_cache_dir,
        )

        state = config.stash[assertstate_key]
    except (ImportError, KeyError):
        return
    for path in [*sorted((REPO / "tests").glob("test_*.py")), REPO / "tests" / "conftest.py"]:
        pyc = get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)
        if _read_pyc(path, pyc, state.trace) is None:
            pyc.parent.mkdir(parents=True, exist_ok=True)
            source_hash, code = _rewrite_test(path, config)
            _write_pyc(state, code, source_hash, pyc)


# -- the order the files run in ------------------------------------------------------------

SLOWEST_FIRST = (
    "test_import_corpus.py",
    "test_web_offline_browser.py",
    "test_crash_readmodels.py",
    "test_web_heavy.py",
    "test_corpus_replay.py",
    "test_web_wall_browser.py",
    "test_crash.py",
    "test_web_slow_clients.py",
    "test_judge_doubles.py",
    "test_web_live_reconnect_browser.py",
    "test_legal_gnubg.py",
    "test_recorder_contract.py",
    "test_json_stream.py",
    "test_web_pad_phone_browser.py",
    "test_legal_oracle.py",
    "test_web_pad_table_browser.py",
    "test_fuzz_cli.py",
    "test_readmodels.py",
    "test_mat_writer.py",
    "test_store.py",
    "test_legal_properties.py",
    "test_web_delay.py",
    "test_feed_incremental.py",
    "test_web_desk_and_spectators.py",
    "test_people_views.py",
    "test_web_director_browser.py",
    "test_vocabulary.py",
    "test_bounds_readmodels.py",
    "test_concurrency.py",
    "test_web_pad_browser.py",
    "test_fuzz_corpus.py",
    "test_web_console_browser.py",
)
"""The files that take 8 s or more, as a whole run on a quiet 2-CPU machine measured them
(bench/README.md, "The test suite's time"), longest first, one that mostly computes, then one
that mostly waits (on a browser, a server, a timeout), in turn.  pytest-xdist hands out whole
files in the order collected (pyproject's addopts: ``--dist loadfile --no-loadscope-reorder``;
without the latter it hands out the files with the most tests first, whatever their time).
These start first, so the last files to finish are short ones, not a worker left alone with a
long file; and the waits run beside computing, not together with the CPUs idle."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """Workers for ``-n auto`` (pyproject's addopts): three for every two CPUs, at least two.

    On one worker a CPU, a third of a whole run's time on a quiet 2-CPU machine was spent
    waiting, not computing: on Chromium drawing a page, on a server or a killed import in
    another process, on PostgreSQL, on a slow client's timeout.  A third worker fills those
    waits (bench/README.md, "The test suite's time").  ``PYTEST_XDIST_AUTO_NUM_WORKERS``
    still decides where it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(2, (cpus or 1) * 3 // 2)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run :data:`SLOWEST_FIRST` first, in its order; then the rest, the browser files spread
    among the others (:func:`spread`), each file's tests as collected (a stable sort)."""
    rank: dict[str, float] = {name: n for n, name in enumerate(SLOWEST_FIRST)}
    rest = [name for name in dict.fromkeys(item.path.name for item in items) if name not in rank]
    rank |= {name: len(SLOWEST_FIRST) + share for name, share in spread(rest).items()}
    items.sort(key=lambda item: rank[item.path.name])


def spread(names: list[str]) -> dict[str, float]:
    """Each file's place, from 0 to 1: the browser files (``*_browser.py``, which mostly wait
    on Chromium) evenly among the others, each kind in its own order.

    As collected, the browser files came last (``test_web_*``), together: the last 40 s of a
    whole run were spent waiting, the CPUs half idle (bench/README.md, "Fourth pass")."""
    waiting = [name for name in names if name.endswith("_browser.py")]
    computing = [name for name in names if not name.endswith("_browser.py")]
    return {
        name: (n + 0.5) / len(kind) for kind in (computing, waiting) for n, name in enumerate(kind)
    }
