"""Shared test helpers: where the shared real data lives, a board builder, ledger stores,
the web app's test client."""

from __future__ import annotations

import os
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


# -- the order the files run in ------------------------------------------------------------

SLOWEST_FIRST = (
    "test_import_corpus.py",
    "test_corpus_replay.py",
    "test_crash_readmodels.py",
    "test_crash.py",
    "test_vocabulary.py",
    "test_legal_gnubg.py",
    "test_feed_incremental.py",
    "test_vocabulary_recorded.py",
    "test_mat_writer.py",
    "test_store.py",
    "test_lines.py",
    "test_people_views.py",
    "test_render.py",
    "test_codec_change.py",
    "test_web_heavy.py",
    "test_rulings_properties.py",
    "test_legal_properties.py",
)
"""The files that take longest (``--durations``, bench/README.md's "The test suite's time"),
longest first: pytest-xdist hands out whole files in the order collected (pyproject's addopts:
``--dist loadfile --no-loadscope-reorder``; without the latter it hands out the files with
the most tests first, whatever their time), so these start first and the last files to
finish are short ones, not a worker left alone with a two-minute file while the other is idle."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run :data:`SLOWEST_FIRST` first, in its order; the rest as collected (a stable sort)."""
    rank = {name: n for n, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
