"""Tamper evidence (DESIGN principle 6): the hash chain, ``verify``, seals, an old store.

Each test records a real match (random legal actions, one command each, so
snapshots are taken and loaded on the way), then edits the stored rows
directly (SQLAlchemy on the ``bgledger_events`` table, on SQLite and
PostgreSQL; the sqlite3 module on the file) and shows that ``bgledger
verify`` names the event at fault and exits 1, and passes on the untouched
store.  Events stored by a bgledger before the chain (class version 1: no
``chain``, no ``class_version`` in the row) still load, fold and verify as
unchained.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import Table, delete, insert, select, update
from sqlalchemy.orm import Session

from bgledger.cli.main import main
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import Ruling
from bgledger.commands.vocabulary import parse
from bgledger.interchange.json_stream import export_json, import_json, read_json
from bgledger.projections.state.fold import fold
from bgledger.store.application import SNAPSHOT_INTERVAL, MatchStore
from bgledger.store.integrity import verify_stream
from tests.conftest import unique_id
from tests.match_driver import next_line

BY = "kim"


def record_match(url: str, actions: int, seed: int = 7, match_id: str | None = None) -> str:
    """Up to ``actions`` random legal actions, one command each, in a new match or ``match_id``."""
    ledger = MatchStore(url)
    if match_id is None:
        match_id = unique_id("chain")
        ledger.start(("Ann", "Bob"), 25, match_id=match_id, by=BY)
    rng = random.Random(seed)
    for _ in range(actions):
        line = next_line(ledger.state(match_id), rng)
        if line is None:
            break
        ledger.act(match_id, acting(line))
    ledger.close()
    return match_id


def acting(line: str) -> Callable[[Match], None]:
    """The command that applies the action ``line`` to a match."""
    action = parse(line)

    def command(match: Match) -> None:
        action.run(match, BY)

    return command


def cli(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", url, *args])


def edit(url: str, change: Callable[[Session, Table], None]) -> None:
    """Run ``change`` on the events table, behind the ledger's back, and commit."""
    ledger = MatchStore(url)
    table = ledger.recorder.events_record_cls.__table__  # type: ignore[attr-defined]
    with ledger.recorder.transaction(commit=True) as session:  # type: ignore[attr-defined]
        change(session, table)
    ledger.close()


def rows(session: Session, table: Table, match_id: str) -> list[Any]:
    query = select(table.c.id, table.c.originator_version, table.c.topic, table.c.state)
    query = query.where(table.c.originator_id == match_uuid(match_id))
    return list(session.execute(query.order_by(table.c.originator_version)).all())


def first_of(session: Session, table: Table, match_id: str, kind: str) -> Any:
    return next(row for row in rows(session, table, match_id) if row.topic.endswith(":" + kind))


def set_state(session: Session, table: Table, row_id: int, state: dict[str, Any]) -> None:
    data = json.dumps(state).encode()
    session.execute(update(table).where(table.c.id == row_id).values(state=data))


def failure(url: str, *args: str) -> dict[str, Any]:
    """The problem ``verify --json`` reports (it must exit 1)."""
    result = cli(url, "verify", *args, "--json")
    assert result.exit_code == 1, result.output
    (verdict,) = json.loads(result.stdout)["matches"]
    problem: dict[str, Any] = verdict["problem"]
    return problem


@pytest.fixture(scope="module")
def long_sqlite(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A SQLite file with one match of more than two snapshot intervals, to copy per test."""
    path = tmp_path_factory.mktemp("long") / "ledger.db"
    url = f"sqlite:///{path}"
    return url, record_match(url, 150)


@pytest.fixture(params=["sqlite", "postgres"])
def recorded(request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    """A recorded match of 60 actions (more than one snapshot) on each store.

    The PostgreSQL database is shared: the (tampered) match is removed afterwards,
    so that ``verify`` of every match there is not failed by these tests.
    """
    url = str(request.getfixturevalue(f"{request.param}_url"))
    match_id = record_match(url, 60)
    yield url, match_id
    if request.param == "postgres":
        ledger = MatchStore(url)
        assert ledger.snapshots is not None
        for recorder in (ledger.recorder, ledger.snapshots.recorder):
            table = recorder.events_record_cls.__table__  # type: ignore[attr-defined]
            with recorder.transaction(commit=True) as session:  # type: ignore[attr-defined]
                session.execute(delete(table).where(table.c.originator_id == match_uuid(match_id)))
        ledger.close()


# -- the untouched store ----------------------------------------------------------------------


def test_an_untouched_store_verifies(recorded: tuple[str, str]) -> None:
    url, match_id = recorded
    result = cli(url, "verify", match_id)
    assert result.exit_code == 0, result.output
    assert f"{match_id}: " in result.stdout and "chain intact" in result.stdout
    everything = cli(url, "verify", "--json")
    verdicts = {v["match_id"]: v for v in json.loads(everything.stdout)["matches"]}
    assert verdicts[match_id]["ok"] and verdicts[match_id]["unchained"] == 0
    if url.startswith("sqlite"):  # the PostgreSQL database is shared with other tests
        assert everything.exit_code == 0, everything.output


def test_the_chain_survives_snapshots_and_later_actions(long_sqlite: tuple[str, str]) -> None:
    url, match_id = long_sqlite
    ledger = MatchStore(url)
    events = ledger.history(match_id)
    assert len(events) > 2 * SNAPSHOT_INTERVAL
    assert all(event.chain for event in events)
    verdict = verify_stream(ledger, match_uuid(match_id))
    assert verdict.ok and verdict.events == len(events)
    assert verdict.witnesses == ("the latest snapshot",)
    assert ledger.state(match_id).head == events[-1].chain  # loaded from a snapshot


# -- edits behind the ledger's back -------------------------------------------------------


def test_a_changed_die_is_caught(recorded: tuple[str, str]) -> None:
    url, match_id = recorded
    changed: list[int] = []

    def change(session: Session, table: Table) -> None:
        row = first_of(session, table, match_id, "DiceRolled")
        state = json.loads(row.state)
        state["die1"] = state["die1"] % 6 + 1
        set_state(session, table, row.id, state)
        changed.append(row.originator_version)

    edit(url, change)
    problem = failure(url, match_id)
    assert (problem["event"], problem["kind"]) == (changed[0], "edited")
    text = cli(url, "verify", match_id)
    assert text.exit_code == 1
    assert f"{match_id}: event {changed[0]}: " in text.stderr


def test_a_deleted_event_is_caught(recorded: tuple[str, str]) -> None:
    url, match_id = recorded

    def change(session: Session, table: Table) -> None:
        row = rows(session, table, match_id)[9]
        session.execute(delete(table).where(table.c.id == row.id))

    edit(url, change)
    problem = failure(url, match_id)
    assert (problem["event"], problem["kind"]) == (10, "missing")


def test_two_swapped_events_are_caught(recorded: tuple[str, str]) -> None:
    url, match_id = recorded

    def change(session: Session, table: Table) -> None:
        one, two = rows(session, table, match_id)[11:13]
        set_state(session, table, one.id, json.loads(two.state))
        set_state(session, table, two.id, json.loads(one.state))
        session.execute(update(table).where(table.c.id == one.id).values(topic=two.topic))
        session.execute(update(table).where(table.c.id == two.id).values(topic=one.topic))

    edit(url, change)
    problem = failure(url, match_id)
    assert (problem["event"], problem["kind"]) == (12, "edited")


def test_a_forged_event_is_caught(recorded: tuple[str, str]) -> None:
    url, match_id = recorded
    last: list[int] = []

    def change(session: Session, table: Table) -> None:
        found = rows(session, table, match_id)
        roll = first_of(session, table, match_id, "DiceRolled")
        state = json.loads(roll.state)
        state["chain"] = found[-1].state.decode()[:64]  # anything but the right link
        last.append(found[-1].originator_version)
        values = {"originator_id": match_uuid(match_id), "topic": roll.topic}
        values |= {"originator_version": last[0] + 1, "state": json.dumps(state).encode()}
        session.execute(insert(table).values(**values))

    edit(url, change)
    problem = failure(url, match_id)
    assert (problem["event"], problem["kind"]) == (last[0] + 1, "edited")


def test_an_unreadable_row_is_named(recorded: tuple[str, str]) -> None:
    url, match_id = recorded

    def change(session: Session, table: Table) -> None:
        row = rows(session, table, match_id)[4]
        session.execute(update(table).where(table.c.id == row.id).values(state=b"{not json"))

    edit(url, change)
    problem = failure(url, match_id)
    assert (problem["event"], problem["kind"]) == (5, "unreadable")


def test_a_tail_cut_below_the_snapshot_is_caught(recorded: tuple[str, str]) -> None:
    url, match_id = recorded

    def change(session: Session, table: Table) -> None:
        stream = match_uuid(match_id)
        cut = (table.c.originator_id == stream) & (table.c.originator_version > 45)
        session.execute(delete(table).where(cut))

    edit(url, change)
    problem = failure(url, match_id)
    assert (problem["event"], problem["kind"]) == (46, "truncated")


def test_the_sqlite_file_edited_with_sqlite3(long_sqlite: tuple[str, str], tmp_path: Path) -> None:
    source, match_id = long_sqlite
    path = tmp_path / "copy.db"
    with sqlite3.connect(source.removeprefix("sqlite:///")) as old, sqlite3.connect(path) as new:
        old.backup(new)
    url = f"sqlite:///{path}"
    assert cli(url, "verify", match_id).exit_code == 0
    with sqlite3.connect(path) as db:
        version, state = db.execute(
            "SELECT originator_version, state FROM bgledger_events "
            "WHERE topic LIKE '%:CheckersPlayed' AND originator_version > 60 "
            "ORDER BY originator_version LIMIT 1"
        ).fetchone()
        data = json.loads(state)
        data["recorded_by"] = "mallory"
        db.execute(
            "UPDATE bgledger_events SET state = ? WHERE originator_version = ?",
            (json.dumps(data).encode(), version),
        )
    problem = failure(url, match_id)
    assert (problem["event"], problem["kind"]) == (version, "edited")


# -- seals ------------------------------------------------------------------------------------


def seal_match(url: str, match_id: str, tmp_path: Path) -> tuple[Path, Path]:
    key = tmp_path / "director.pem"
    assert cli(url, "keygen", "--out", str(key)).exit_code == 0
    seal = tmp_path / "seal.json"
    made = cli(url, "seal", match_id, "--key", str(key), "-o", str(seal))
    assert made.exit_code == 0, made.output
    return seal, Path(f"{key}.pub")


def test_a_seal_allows_later_rulings_and_catches_an_earlier_edit(
    recorded: tuple[str, str], tmp_path: Path
) -> None:
    url, match_id = recorded
    seal, pub = seal_match(url, match_id, tmp_path)
    sealed = json.loads(seal.read_text())["events"]
    ledger = MatchStore(url)
    given = Ruling("director", "for the record", by="td")
    ledger.rule(match_id, lambda m, h: m.note(h, given))
    ledger.close()
    after = cli(url, "verify", match_id, "--seal", str(seal), "--pub", str(pub))
    assert after.exit_code == 0, after.output
    assert "matches the seal" in after.stdout

    def change(session: Session, table: Table) -> None:
        row = first_of(session, table, match_id, "DiceRolled")
        state = json.loads(row.state)
        state["die2"] = state["die2"] % 6 + 1
        set_state(session, table, row.id, state)

    edit(url, change)
    problem = failure(url, match_id, "--seal", str(seal), "--pub", str(pub))
    assert problem["kind"] == "edited" and problem["event"] <= sealed


def test_a_tail_cut_after_the_snapshot_needs_the_seal(
    recorded: tuple[str, str], tmp_path: Path
) -> None:
    url, match_id = recorded
    seal, pub = seal_match(url, match_id, tmp_path)
    sealed = json.loads(seal.read_text())["events"]
    assert sealed > SNAPSHOT_INTERVAL + 3

    def change(session: Session, table: Table) -> None:
        stream = match_uuid(match_id)
        cut = (table.c.originator_id == stream) & (table.c.originator_version > sealed - 3)
        session.execute(delete(table).where(cut))

    edit(url, change)
    assert cli(url, "verify", match_id).exit_code == 0  # nothing else vouches for the tail
    problem = failure(url, match_id, "--seal", str(seal), "--pub", str(pub))
    assert (problem["event"], problem["kind"]) == (sealed - 2, "truncated")


def test_an_edited_or_foreign_seal_fails(recorded: tuple[str, str], tmp_path: Path) -> None:
    url, match_id = recorded
    seal, pub = seal_match(url, match_id, tmp_path)
    document = json.loads(seal.read_text())
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps({**document, "events": document["events"] - 1}))
    result = cli(url, "verify", match_id, "--seal", str(forged), "--pub", str(pub))
    assert result.exit_code == 1 and "signature" in result.stderr
    other = tmp_path / "other" / "key.pem"
    other.parent.mkdir()
    assert cli(url, "keygen", "--out", str(other)).exit_code == 0
    result = cli(url, "verify", match_id, "--seal", str(seal), "--pub", f"{other}.pub")
    assert result.exit_code == 1 and "not signed by" in result.stderr
    (tmp_path / "junk.json").write_text("{")
    junk = cli(url, "verify", match_id, "--seal", str(tmp_path / "junk.json"), "--pub", str(pub))
    assert junk.exit_code == 2
    assert cli(url, "verify", unique_id("nosuch")).exit_code == 2
    assert cli(url, "seal", match_id, "--key", str(tmp_path / "nokey")).exit_code == 2


# -- the JSON export and import -------------------------------------------------------------


def test_an_imported_json_export_gets_a_fresh_chain(long_sqlite: tuple[str, str]) -> None:
    url, match_id = long_sqlite
    ledger = MatchStore(url)
    exported = json.dumps(export_json(ledger.history(match_id)))
    copy = unique_id("copy")
    import_json(ledger, read_json(exported, name="x.json"), match_id=copy, by=BY)
    verdict = verify_stream(ledger, match_uuid(copy))
    # the copy's events, then the import's record of it (CopyImported)
    assert verdict.ok and verdict.events == len(ledger.history(match_id)) + 1
    assert fold(ledger.history(copy)).head == verdict.head  # type: ignore[union-attr]
    copied = fold(ledger.history(copy)[:-1])
    assert copied is not None
    assert replace(copied, match_id=match_id) == ledger.state(match_id)
    ledger.close()


# -- schema evolution: a store written before the chain ---------------------------------------


def test_a_store_written_before_the_chain_loads_and_verifies_as_unchained(
    long_sqlite: tuple[str, str], tmp_path: Path
) -> None:
    source, match_id = long_sqlite
    path = tmp_path / "old.db"
    with sqlite3.connect(source.removeprefix("sqlite:///")) as old, sqlite3.connect(path) as new:
        old.backup(new)
    url = f"sqlite:///{path}"
    with sqlite3.connect(path) as db:  # what bgledger wrote before: no chain, no class_version
        for table in ("bgledger_events", "bgledger_snapshots"):
            for row_id, state in db.execute(f"SELECT rowid, state FROM {table}").fetchall():
                data = json.loads(state)
                for key in ("chain", "class_version"):
                    data.pop(key, None)
                data.get("state", {}).pop("head", None)  # a snapshot's
                update = f"UPDATE {table} SET state = ? WHERE rowid = ?"
                db.execute(update, (json.dumps(data).encode(), row_id))
    ledger = MatchStore(url)
    events = ledger.history(match_id)
    assert all(event.chain == "" for event in events)
    assert ledger.state(match_id) == fold(events)  # the old snapshots are refused, replayed
    unchained = len(events)
    ledger.close()
    refused = cli(url, "verify", match_id)  # unchained rows are how a chain is silenced
    assert refused.exit_code == 1 and "--allow-unchained" in refused.stderr
    result = cli(url, "verify", match_id, "--allow-unchained")
    assert result.exit_code == 0, result.output
    assert f"events 1-{unchained} recorded before hash chains: not verifiable" in result.stdout
    assert cli(url, "keygen", "--out", str(tmp_path / "k.pem")).exit_code == 0
    assert cli(url, "seal", match_id, "--key", str(tmp_path / "k.pem")).exit_code == 1
    record_match(url, 60, 3, match_id)  # new events chain on from the old ones
    verdict = verify_stream(MatchStore(url), match_uuid(match_id), allow_unchained=True)
    assert verdict.ok and verdict.unchained == unchained and verdict.events > unchained + 50
