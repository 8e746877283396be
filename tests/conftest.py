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


@pytest.fixture
def postgres_url() -> str:
    """The SQLAlchemy URL of the test PostgreSQL database, or skip saying how to set it.

    The database is shared and keeps what tests write: use unique match ids.
    """
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if not url:
        pytest.skip(
            f"PostgreSQL tests need {POSTGRES_ENV}, e.g. "
            "postgresql+psycopg://postgres@127.0.0.1:5432/test"
        )
    return url


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
