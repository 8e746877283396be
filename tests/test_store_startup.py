"""The ledger's own recorder: the tables and rows of eventsourcing-sqlalchemy, without importing it.

``bgledger.store.recorder`` runs eventsourcing's recorders on SQLAlchemy Core
instead of eventsourcing-sqlalchemy, so that a one-shot command does not load
SQLAlchemy's ORM and ``sqlalchemy_utils`` (``bench/bench_startup.py``).  A
ledger written before must read the same, and one written now must be what
the library would have written: same tables, same columns, same stored rows.
eventsourcing-sqlalchemy is the oracle here (a test dependency).
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import ApplicationRecorder, IntegrityError, StoredEvent
from eventsourcing.utils import Environment
from eventsourcing_sqlalchemy.factory import SQLAlchemyFactory
from sqlalchemy import create_engine, text

from bgledger.store.recorder import LedgerFactory


def recorder(factory: type[Any], url: str, name: str) -> ApplicationRecorder:
    made = factory(Environment(name, {"SQLALCHEMY_URL": url}))
    found: ApplicationRecorder = made.application_recorder()
    return found


def stream_rows(stream: uuid.UUID, count: int = 3) -> list[StoredEvent]:
    return [
        StoredEvent(stream, version, f"Kind{version}", f'{{"n": {version}}}'.encode())
        for version in range(1, count + 1)
    ]


def raw_rows(url: str, table: str) -> list[tuple[Any, ...]]:
    """The rows as the database driver returns them, no column type applied."""
    engine = create_engine(url)
    with engine.connect() as connection:
        query = (
            f"SELECT id, originator_id, originator_version, topic, state FROM {table} ORDER BY id"
        )
        found = [tuple(row) for row in connection.execute(text(query))]
    engine.dispose()
    return found


def as_uuid(raw: Any) -> uuid.UUID:
    return (
        uuid.UUID(bytes=bytes(raw)) if isinstance(raw, (bytes, memoryview)) else uuid.UUID(str(raw))
    )


@pytest.fixture
def compat_url(store_url: str) -> Any:
    """Each store, with a table prefix of this test's own (dropped from PostgreSQL afterwards)."""
    name = f"compat{uuid.uuid4().hex[:10]}"
    yield store_url, name
    if store_url.startswith("postgresql"):
        engine = create_engine(store_url)
        with engine.begin() as connection:
            connection.execute(text(f"DROP TABLE IF EXISTS {name}_events"))
        engine.dispose()


def test_rows_are_those_eventsourcing_sqlalchemy_stores_and_each_reads_the_other(
    compat_url: tuple[str, str],
) -> None:
    url, name = compat_url
    theirs = recorder(SQLAlchemyFactory, url, name)
    ours = recorder(LedgerFactory, url, name)
    first, second = uuid.uuid4(), uuid.uuid4()
    assert theirs.insert_events(stream_rows(first)) == [1, 2, 3]
    assert ours.insert_events(stream_rows(second)) == [4, 5, 6]

    rows = raw_rows(url, f"{name}_events")
    assert [as_uuid(row[1]) for row in rows] == [first] * 3 + [second] * 3
    assert {type(row[1]) for row in rows[:3]} == {type(row[1]) for row in rows[3:]}
    assert [row[2:] for row in rows[:3]] == [row[2:] for row in rows[3:]]

    assert ours.select_events(first) == stream_rows(first)
    assert theirs.select_events(second) == stream_rows(second)
    assert ours.select_events(first, gt=1, lte=2) == stream_rows(first)[1:2]
    notes = ours.select_notifications(2, 3)
    assert [(n.id, n.originator_id, n.originator_version) for n in notes] == [
        (2, first, 2),
        (3, first, 3),
        (4, second, 1),
    ]
    assert ours.max_notification_id() == theirs.max_notification_id() == 6
    with pytest.raises(IntegrityError):  # a lost race, as the library reports it
        ours.insert_events(stream_rows(first, 1))


def test_a_new_sqlite_ledger_has_the_librarys_tables(tmp_path: Path) -> None:
    schemas = []
    for factory, file in ((SQLAlchemyFactory, "theirs.db"), (LedgerFactory, "ours.db")):
        made = factory(Environment("bgledger", {"SQLALCHEMY_URL": f"sqlite:///{tmp_path / file}"}))
        made.application_recorder()
        made.aggregate_recorder("snapshots")
        with sqlite3.connect(tmp_path / file) as connection:
            schemas.append(
                connection.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
            )
    assert schemas[0] == schemas[1]
    assert {row[1] for row in schemas[1]} >= {"bgledger_events", "bgledger_snapshots"}


def loaded_modules(*args: str) -> set[str]:
    """The modules loaded by ``bgledger ARGS`` in a fresh interpreter; the command must succeed."""
    script = (
        "import sys\n"
        "from bgledger.cli.main import main\n"
        f"try:\n    main({list(args)!r})\n"
        "except SystemExit as done:\n    assert not done.code, done.code\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return set(done.stderr.split())


@pytest.mark.parametrize(
    "command",
    [
        ["show", "m"],
        ["opening", "n", "3", "1", "--by", "kim"],
        ["roll", "m", "5", "2", "--by", "kim"],
        ["move", "m", "13/11 13/8", "--by", "kim"],
    ],
)
def test_one_shot_commands_load_neither_the_orm_nor_sqlalchemy_utils(
    tmp_path: Path, command: list[str]
) -> None:
    from bgledger.service import Ledger

    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    ledger = Ledger(url)
    ledger.start(("Ann", "Bob"), 3, match_id="m", by="kim")
    ledger.record_line("m", "opening 3 1", by="kim")
    ledger.record_line("m", "move 8/5 6/5", by="kim")
    ledger.start(("Cy", "Di"), 3, match_id="n", by="kim")
    if command[0] == "move":
        ledger.record_line("m", "roll 5 2", by="kim")
    ledger.close()
    loaded = loaded_modules("--db", url, *command)
    assert "bgledger.store.recorder" in loaded
    for heavy in ("sqlalchemy.orm", "sqlalchemy_utils", "eventsourcing_sqlalchemy", "cryptography"):
        assert heavy not in loaded, heavy


def test_show_loads_no_vocabulary_of_commands(tmp_path: Path) -> None:
    """``show`` parses no line: the vocabulary of commands (about 60 frozen dataclasses, a
    tenth of a one-shot command's CPU) and the verbs' commands are not imported."""
    from bgledger.service import Ledger

    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    ledger = Ledger(url)
    ledger.start(("Ann", "Bob"), 3, match_id="m", by="kim")
    ledger.record_line("m", "opening 3 1", by="kim")
    ledger.close()
    loaded = loaded_modules("--db", url, "show", "m")
    assert "bgledger.projections.state.fold" in loaded  # it did read and fold the match
    for unneeded in ("bgledger.commands.vocabulary", "bgledger.cli.verbs"):
        assert unneeded not in loaded, unneeded


def test_a_file_another_process_holds_is_still_read_and_put_in_wal_mode_later(
    tmp_path: Path,
) -> None:
    """Putting a SQLite file in WAL mode needs it to itself: while another program is
    writing to it the ledger still reads it, and once that program has let it go the
    next transaction puts it in WAL mode."""
    from bgledger.service import Ledger

    path = tmp_path / "held.db"
    Ledger(f"sqlite:///{path}").close()  # the ledger's tables made
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=DELETE")
    writer.execute("CREATE TABLE other (n INTEGER)")
    writer.execute("BEGIN IMMEDIATE")  # another program's write under way
    writer.execute("INSERT INTO other VALUES (1)")
    ledger = Ledger(f"sqlite:///{path}")
    try:
        assert ledger.match_ids() == []  # read while the other program writes
        writer.execute("COMMIT")
        writer.close()
        assert ledger.match_ids() == []
        with sqlite3.connect(path) as check:
            assert check.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        ledger.close()
