"""Attacks on what the ledger says (issue 15): caches, deletions, seals, files, hostile rows.

Each test is the attack as someone with write access to the database and a
shell would make it: rows edited with sqlite3 (or SQLAlchemy on PostgreSQL)
behind the ledger's back, then the command a user runs.  What must hold: a
command never decides on, or shows, a snapshot that disagrees with the events
it checks; ``verify`` names every forged snapshot and read-model row and every
deleted match, and exits 1; nothing prints a traceback.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, inspect, update

from bgledger.cli.main import main
from bgledger.commands.match import match_uuid
from bgledger.projections.readmodels.tables import matches_table, rulings_table
from bgledger.projections.readmodels.tracking import ReadModels
from bgledger.projections.state.fold import fold
from bgledger.store.application import SNAPSHOT_INTERVAL, MatchStore
from tests.conftest import unique_id
from tests.match_driver import next_line
from tests.test_integrity import acting, record_match

ZEN = "Beautiful is better than ugly"


def cli(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", url, *args])


def verdicts(url: str, *args: str) -> tuple[int, list[dict[str, Any]]]:
    """``verify --json``'s exit code and its verdicts."""
    result = cli(url, "verify", *args, "--json")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads(result.stdout)["matches"]


@pytest.fixture(scope="module")
def recorded_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A SQLite file with one match of more than two snapshot intervals."""
    path = tmp_path_factory.mktemp("trust") / "ledger.db"
    return path, record_match(f"sqlite:///{path}", 130, seed=11)


@pytest.fixture
def copy(recorded_file: tuple[Path, str], tmp_path: Path) -> tuple[Path, str]:
    """A copy of the recorded file, to attack."""
    source, match_id = recorded_file
    path = tmp_path / "copy.db"
    with sqlite3.connect(source) as old, sqlite3.connect(path) as new:
        old.backup(new)
    return path, match_id


def latest_snapshot(db: sqlite3.Connection) -> tuple[int, dict[str, Any]]:
    version, state = db.execute(
        "SELECT originator_version, state FROM bgledger_snapshots "
        "ORDER BY originator_version DESC LIMIT 1"
    ).fetchone()
    return int(version), json.loads(state)


def store_snapshot(db: sqlite3.Connection, version: int, data: dict[str, Any]) -> None:
    db.execute(
        "UPDATE bgledger_snapshots SET state = ? WHERE originator_version = ?",
        (json.dumps(data).encode(), version),
    )


def forger_digest(state: dict[str, Any]) -> str:
    """What a forger who read the source would store: SHA-256 of the canonical JSON."""
    kept = {k: v for k, v in state.items() if k != "digest"}
    text = json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def shown_players(url: str, match_id: str) -> list[str]:
    result = cli(url, "show", match_id, "--json")
    assert result.exit_code == 0, result.output
    players = json.loads(result.stdout)["players"]
    return [players["a"], players["b"]]


# -- 1. forged snapshots --------------------------------------------------------------------


def test_an_edited_snapshot_is_not_believed_and_verify_names_it(copy: tuple[Path, str]) -> None:
    path, match_id = copy
    url = f"sqlite:///{path}"
    with sqlite3.connect(path) as db:
        version, data = latest_snapshot(db)
        data["state"]["players"] = ["Ann", "Mallory"]  # head and digest kept
        data["state"]["score"] = [7, 0]
        store_snapshot(db, version, data)
    assert version >= 2 * SNAPSHOT_INTERVAL
    assert shown_players(url, match_id) == ["Ann", "Bob"]
    warned = cli(url, "show", match_id).stderr
    assert warned.count("warning: ") == 1
    assert f"match {match_id!r}: the snapshot at event {version} no longer matches" in warned
    listed = cli(url, "list")
    assert listed.exit_code == 0 and "Bob" in listed.stdout and "Mallory" not in listed.stdout
    code, found = verdicts(url, match_id)
    assert code == 1
    assert found[0]["problem"]["kind"] == "snapshot" and found[0]["problem"]["event"] == version
    # live recording decides on the events, and its snapshots are right
    record_match(url, 2 * SNAPSHOT_INTERVAL, seed=5, match_id=match_id)
    ledger = MatchStore(url)
    events = ledger.history(match_id)
    assert ledger.state(match_id) == fold(events)
    assert ledger.state(match_id).players == ("Ann", "Bob")
    ledger.close()
    with sqlite3.connect(path) as db:
        _, newest = latest_snapshot(db)
    assert newest["state"]["players"] == ["Ann", "Bob"]


def test_a_snapshot_forged_with_its_digest_recomputed_fails_verify(
    copy: tuple[Path, str],
) -> None:
    path, match_id = copy
    url = f"sqlite:///{path}"
    assert verdicts(url, match_id)[0] == 0
    with sqlite3.connect(path) as db:
        version, data = latest_snapshot(db)
        data["state"]["players"] = ["Ann", "Mallory"]
        data["state"]["digest"] = forger_digest(data["state"])
        store_snapshot(db, version, data)
    code, found = verdicts(url, match_id)
    assert code == 1
    problem = found[0]["problem"]
    assert (problem["kind"], problem["event"]) == ("snapshot", version)
    assert "players" in problem["why"] and "forged" in problem["why"]
    text = cli(url, "verify", match_id)
    assert text.exit_code == 1 and f"{match_id}: event {version}: " in text.stderr


@pytest.mark.parametrize("cache_size", [0, 16], ids=["one-shot", "console"])
def test_no_command_decides_on_a_snapshot_forged_with_its_digest_recomputed(
    copy: tuple[Path, str], cache_size: int
) -> None:
    """DESIGN principle 8: a command folds the match from its events, so a forgery that passes
    the snapshot's own checks is never built on, nor copied into the snapshots it writes."""
    path, match_id = copy
    url = f"sqlite:///{path}"
    with sqlite3.connect(path) as db:
        version, data = latest_snapshot(db)
        data["state"]["players"] = ["Ann", "Mallory"]
        data["state"]["digest"] = forger_digest(data["state"])
        store_snapshot(db, version, data)
    ledger = MatchStore(url, cache_size=cache_size)
    ledger.state(match_id)  # a read first (the console shows the match): it may seed the cache
    rng = random.Random(2)
    for _ in range(SNAPSHOT_INTERVAL + 5):  # past the next snapshot
        line = next_line(ledger.state(match_id), rng)
        if line is None:
            break
        ledger.act(match_id, acting(line))
    assert ledger.state(match_id).players == ("Ann", "Bob")
    ledger.close()
    with sqlite3.connect(path) as db:
        newest, written = latest_snapshot(db)
    assert newest > version and written["state"]["players"] == ["Ann", "Bob"]


def test_a_forged_snapshot_of_another_history_is_not_used(copy: tuple[Path, str]) -> None:
    path, match_id = copy
    url = f"sqlite:///{path}"
    with sqlite3.connect(path) as db:
        version, data = latest_snapshot(db)
        data["state"]["players"] = ["Ann", "Mallory"]
        data["state"]["head"] = "0" * 64
        data["state"]["digest"] = forger_digest(data["state"])
        store_snapshot(db, version, data)
    assert shown_players(url, match_id) == ["Ann", "Bob"]
    assert verdicts(url, match_id)[0] == 1


@pytest.fixture(params=["sqlite", "postgres"])
def stored(request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    """A match of more than one snapshot interval on each store (removed from PostgreSQL after)."""
    url = str(request.getfixturevalue(f"{request.param}_url"))
    match_id = record_match(url, 60, seed=3)
    yield url, match_id
    delete_stream(url, match_id)
    engine = create_engine(url)
    with engine.begin() as connection:  # its read-model rows too, if any were made
        for table in (matches_table, rulings_table):
            if inspect(connection).has_table(table.name):
                connection.execute(table.delete().where(table.c.match_id == match_id))
    engine.dispose()


def delete_stream(url: str, match_id: str) -> None:
    """Delete every event and snapshot of the match, behind the ledger's back."""
    ledger = MatchStore(url)
    assert ledger.snapshots is not None
    stream = match_uuid(match_id)
    for recorder in (ledger.recorder, ledger.snapshots.recorder):
        table = recorder.events_record_cls.__table__  # type: ignore[attr-defined]
        with recorder.transaction(commit=True) as session:  # type: ignore[attr-defined]
            session.execute(table.delete().where(table.c.originator_id == stream))
    ledger.close()


def test_an_edited_snapshot_is_refolded_on_every_store(stored: tuple[str, str]) -> None:
    url, match_id = stored
    ledger = MatchStore(url)
    assert ledger.snapshots is not None
    recorder = ledger.snapshots.recorder
    table = recorder.events_record_cls.__table__  # type: ignore[attr-defined]
    (snapshot,) = recorder.select_events(match_uuid(match_id), desc=True, limit=1)
    data = json.loads(snapshot.state)
    data["state"]["players"] = ["Ann", "Mallory"]
    with recorder.transaction(commit=True) as session:  # type: ignore[attr-defined]
        where = (table.c.originator_id == match_uuid(match_id)) & (
            table.c.originator_version == snapshot.originator_version
        )
        session.execute(update(table).where(where).values(state=json.dumps(data).encode()))
    assert ledger.state(match_id).players == ("Ann", "Bob")
    ledger.close()
    assert shown_players(url, match_id) == ["Ann", "Bob"]
    code, found = verdicts(url, match_id)
    assert code == 1 and found[0]["problem"]["kind"] == "snapshot"


# -- 8. rows that cannot be read ------------------------------------------------------------


def test_a_snapshot_row_without_state_is_refolded_and_named_by_verify(
    copy: tuple[Path, str],
) -> None:
    path, match_id = copy
    url = f"sqlite:///{path}"
    with sqlite3.connect(path) as db:
        version, _ = latest_snapshot(db)
        db.execute(
            "UPDATE bgledger_snapshots SET state = ? WHERE originator_version = ?", (b"", version)
        )
    assert shown_players(url, match_id) == ["Ann", "Bob"]
    assert cli(url, "list").exit_code == 0
    code, found = verdicts(url, match_id)
    assert code == 1
    problem = found[0]["problem"]
    assert (problem["kind"], problem["event"]) == ("snapshot", version)
    assert "cannot be read" in problem["why"]


def test_an_unreadable_event_is_a_message_not_a_traceback(copy: tuple[Path, str]) -> None:
    path, match_id = copy
    url = f"sqlite:///{path}"
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE bgledger_events SET state = ? WHERE originator_version = 5", (b"{not json",)
        )
    for args in (["show", match_id], ["history", match_id], ["rebuild", "--full"]):
        result = cli(url, *args)
        assert result.exit_code == 3, (args, result.output)
        assert "Traceback" not in result.output and not isinstance(result.exception, ValueError)
        assert "stored event 5 cannot be read (JSONDecodeError: " in result.stderr
    assert f"match {match_id!r}" in cli(url, "show", match_id).stderr
    code, found = verdicts(url, match_id)
    assert code == 1 and (found[0]["problem"]["kind"], found[0]["problem"]["event"]) == (
        "unreadable",
        5,
    )


# -- 5. topics that name a module -----------------------------------------------------------


def test_a_topic_naming_a_module_is_refused_never_imported(copy: tuple[Path, str]) -> None:
    path, match_id = copy
    url = f"sqlite:///{path}"
    with sqlite3.connect(path) as db:
        db.execute("UPDATE bgledger_events SET topic = 'this:x' WHERE originator_version = 3")
    shown = cli(url, "show", match_id)
    assert shown.exit_code == 3 and "'this:x' names no kind of event" in shown.stderr
    verified = cli(url, "verify", match_id)
    assert verified.exit_code == 1 and "event 3" in verified.stderr
    assert ZEN not in shown.output + verified.output


# -- read models ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("statement", "named"),
    [
        ("UPDATE bgledger_rm_matches SET player_b = 'Mallory'", "player_b"),
        ("UPDATE bgledger_rm_matches SET score_a = score_a + 1", "score_a"),
        ("UPDATE bgledger_rm_standings SET won = won + 1", "won"),
        ("DELETE FROM bgledger_rm_standings", "no row"),
    ],
)
def test_an_edited_read_model_row_fails_verify(
    copy: tuple[Path, str], statement: str, named: str
) -> None:
    path, _ = copy
    url = f"sqlite:///{path}"
    assert cli(url, "list").exit_code == 0  # the read models are built
    assert verdicts(url)[0] == 0
    with sqlite3.connect(path) as db:
        db.execute(statement)
    result = cli(url, "verify")
    assert result.exit_code == 1
    assert "read models: " in result.stderr and named in result.stderr


def test_an_edited_ruling_row_fails_verify(copy: tuple[Path, str]) -> None:
    path, match_id = copy
    url = f"sqlite:///{path}"
    noted = cli(url, "note", match_id, "for the record", "--ruled-by", "director")
    assert noted.exit_code == 0, noted.output
    assert cli(url, "rulings").exit_code == 0
    with sqlite3.connect(path) as db:
        db.execute("UPDATE bgledger_rm_rulings SET ruled_by = 'mallory'")
    result = cli(url, "verify", match_id)
    assert result.exit_code == 1 and "ruled_by" in result.stderr


# -- 2. a match deleted whole ---------------------------------------------------------------


def delete_match(path: Path, match_id: str) -> None:
    stream = match_uuid(match_id).bytes
    with sqlite3.connect(path) as db:
        for table in ("bgledger_events", "bgledger_snapshots"):
            db.execute(f"DELETE FROM {table} WHERE originator_id = ?", (stream,))


def test_a_match_deleted_whole_fails_verify(copy: tuple[Path, str]) -> None:
    path, _ = copy
    url = f"sqlite:///{path}"
    for name in ("gone", "after"):
        assert (
            cli(url, "start", "--a", "Cy", "--b", "Di", "--length", "3", "--id", name).exit_code
            == 0
        )
        assert cli(url, "opening", name, "3", "1").exit_code == 0
    assert verdicts(url)[0] == 0
    delete_match(path, "gone")
    result = cli(url, "verify")
    assert result.exit_code == 1
    assert "missing from the log: events were deleted" in result.stderr


def test_the_last_match_deleted_whole_fails_verify_once_listed(copy: tuple[Path, str]) -> None:
    path, _ = copy
    url = f"sqlite:///{path}"
    assert (
        cli(url, "start", "--a", "Cy", "--b", "Di", "--length", "3", "--id", "last").exit_code == 0
    )
    assert cli(url, "list").exit_code == 0
    delete_match(path, "last")
    code, found = verdicts(url)
    assert code == 1
    assert any(
        v["match_id"] == "last" and "its events were deleted" in v["problem"]["why"]
        for v in found
        if v["problem"]
    )


def test_a_listed_match_deleted_whole_is_named_on_every_store(stored: tuple[str, str]) -> None:
    url, match_id = stored
    ledger = MatchStore(url)
    ReadModels(ledger).catch_up()  # the match is in the tournament's list
    ledger.close()
    delete_stream(url, match_id)
    code, found = verdicts(url, match_id)
    assert code == 1
    assert found[0]["match_id"] == match_id
    assert "its events were deleted" in found[0]["problem"]["why"]
    assert cli(url, "verify", unique_id("never")).exit_code == 2  # unknown is still unknown


# -- 4. seals need the director's key -------------------------------------------------------


def test_verify_seal_without_pub_is_a_usage_error(copy: tuple[Path, str], tmp_path: Path) -> None:
    path, match_id = copy
    url = f"sqlite:///{path}"
    key = tmp_path / "mallory.pem"
    assert cli(url, "keygen", "--out", str(key)).exit_code == 0
    seal = tmp_path / "seal.json"
    assert cli(url, "seal", match_id, "--key", str(key), "-o", str(seal)).exit_code == 0
    result = cli(url, "verify", match_id, "--seal", str(seal))
    assert result.exit_code == 2 and "--seal needs --pub" in result.stderr
    assert "matches the seal" not in result.output


# -- 6. read-only commands do not create a ledger -------------------------------------------


@pytest.mark.parametrize(
    "args", [["verify"], ["show", "m"], ["list"], ["history", "m"], ["standings"], ["rebuild"]]
)
def test_a_read_only_command_on_a_missing_file_creates_nothing(
    tmp_path: Path, args: list[str]
) -> None:
    path = tmp_path / "typo.db"
    result = cli(f"sqlite:///{path}", *args)
    assert result.exit_code == 2, result.output
    assert f"there is no ledger file {path}" in result.stderr
    assert "no matches" not in result.output
    assert not path.exists()


def test_start_and_import_still_create_the_file(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    started = cli(f"sqlite:///{path}", "start", "--a", "Ann", "--b", "Bob", "--length", "3")
    assert started.exit_code == 0 and path.exists()
    other = tmp_path / "other.db"
    mat = tmp_path / "m.mat"
    mat.write_text(" 1 point match\n\n Game 1\n Ann : 0                  Bob : 0\n")
    cli(f"sqlite:///{other}", "import", str(mat))
    assert other.exists()


# -- 7. keygen ------------------------------------------------------------------------------


def test_keygen_never_follows_a_link_at_the_public_key(tmp_path: Path) -> None:
    target = tmp_path / "victim.txt"
    target.write_text("precious\n")
    key = tmp_path / "director.pem"
    Path(f"{key}.pub").symlink_to(target)
    result = CliRunner().invoke(main, ["keygen", "--out", str(key)])
    assert result.exit_code == 2 and "exists" in result.stderr
    assert target.read_text() == "precious\n"
    assert not key.exists()  # no half of a pair left behind
    dangling = tmp_path / "d.pem"
    Path(f"{dangling}.pub").symlink_to(tmp_path / "nowhere")
    assert CliRunner().invoke(main, ["keygen", "--out", str(dangling)]).exit_code == 2
    assert not (tmp_path / "nowhere").exists()


def test_keygen_never_follows_a_link_at_the_private_key(tmp_path: Path) -> None:
    key = tmp_path / "director.pem"
    key.symlink_to(tmp_path / "elsewhere.pem")
    assert CliRunner().invoke(main, ["keygen", "--out", str(key)]).exit_code == 2
    assert not (tmp_path / "elsewhere.pem").exists()


def test_keygen_makes_the_private_key_owner_only_from_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = tmp_path / "director.pem"
    # No mode may be set after the file exists (a reader could open it in between):
    # with chmod doing nothing, the mode must come from the creation itself.
    monkeypatch.setattr(os, "chmod", lambda *args, **kwargs: None)
    monkeypatch.setattr(Path, "chmod", lambda *args, **kwargs: None)
    old = os.umask(0)  # the loosest umask
    try:
        assert CliRunner().invoke(main, ["keygen", "--out", str(key)]).exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert Path(f"{key}.pub").read_text().startswith("-----BEGIN PUBLIC KEY-----")


# -- 3. chains removed ----------------------------------------------------------------------


def test_rows_set_back_to_the_pre_chain_form_fail_verify(copy: tuple[Path, str]) -> None:
    path, match_id = copy
    url = f"sqlite:///{path}"
    with sqlite3.connect(path) as db:
        for row_id, state in db.execute("SELECT id, state FROM bgledger_events").fetchall():
            data = json.loads(state)
            data.pop("chain", None)
            data.pop("class_version", None)
            db.execute(
                "UPDATE bgledger_events SET state = ? WHERE id = ?",
                (json.dumps(data).encode(), row_id),
            )
        snapshots = db.execute("SELECT originator_version, state FROM bgledger_snapshots")
        for version, state in snapshots.fetchall():
            data = json.loads(state)
            data["state"].pop("head")  # as a bgledger before the chain wrote them
            store_snapshot(db, version, data)
    code, found = verdicts(url, match_id)
    assert code == 1 and found[0]["problem"]["kind"] == "unchained"
    allowed = cli(url, "verify", match_id, "--allow-unchained")
    assert allowed.exit_code == 0, allowed.output


def test_every_check_passes_on_an_untouched_ledger(copy: tuple[Path, str]) -> None:
    path, match_id = copy
    url = f"sqlite:///{path}"
    assert cli(url, "note", match_id, "for the record", "--ruled-by", "director").exit_code == 0
    assert cli(url, "list").exit_code == 0
    result = cli(url, "verify")
    assert result.exit_code == 0, result.output
    assert "snapshot(s) equal to the events refolded" in result.stdout
    _, found = verdicts(url)
    assert found[0]["snapshots"] >= 2


# -- 2. a match deleted whole, against a director's seal (any store) ---------------------------


def test_a_sealed_match_deleted_whole_is_named_on_every_store(
    stored: tuple[str, str], tmp_path: Path
) -> None:
    """A seal lives outside the database: a match it holds cannot vanish unnoticed, whether or
    not the read models ever listed it."""
    url, match_id = stored
    key, seal = tmp_path / "td.pem", tmp_path / "m.seal"
    assert cli(url, "keygen", "--out", str(key)).exit_code == 0
    assert cli(url, "seal", match_id, "--key", str(key), "-o", str(seal)).exit_code == 0
    delete_stream(url, match_id)
    code, found = verdicts(url, match_id, "--seal", str(seal), "--pub", f"{key}.pub")
    assert code == 1 and found[0]["match_id"] == match_id
    assert "its events are gone: the match was deleted" in found[0]["problem"]["why"]


def test_a_ledger_seal_names_every_match_deleted_since(
    copy: tuple[Path, str], tmp_path: Path
) -> None:
    path, match_id = copy
    url = f"sqlite:///{path}"
    other = "second"
    assert (
        cli(url, "start", "--a", "Cy", "--b", "Di", "--length", "1", "--id", other).exit_code == 0
    )
    key, seal = tmp_path / "td.pem", tmp_path / "ledger.seal"
    assert cli(url, "keygen", "--out", str(key)).exit_code == 0
    made = cli(url, "seal", "--all", "--key", str(key), "-o", str(seal))
    assert made.exit_code == 0 and "sealed 2 matches" in made.stderr
    pub = f"{key}.pub"
    assert verdicts(url, "--seal", str(seal), "--pub", pub)[0] == 0
    code, found = verdicts(url, match_id, "--seal", str(seal), "--pub", pub)  # one of them
    assert code == 0 and found[0]["match_id"] == match_id
    assert cli(url, "list").exit_code == 0  # the read models list it...
    delete_match(path, other)
    with sqlite3.connect(path) as db:  # ...and lose every trace of it too
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in (t for t in tables if t.startswith("bgledger_rm_")):
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            if "match_id" in columns:
                db.execute(f"DELETE FROM {table} WHERE match_id = ?", (other,))
    code, found = verdicts(url, "--seal", str(seal), "--pub", pub)
    assert code == 1
    gone = [v for v in found if v["problem"] and v["match_id"] == other]
    assert gone and "the ledger seal of" in gone[0]["problem"]["why"]
    forged = json.loads(seal.read_text())
    forged["matches"] = [m for m in forged["matches"] if m["match_id"] != other]
    seal.write_text(json.dumps(forged))
    result = cli(url, "verify", "--seal", str(seal), "--pub", pub)
    assert result.exit_code == 1 and "altered or forged" in result.stderr


def test_verify_reads_the_read_models_as_of_one_moment(
    stored: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A catch-up committed while verify compares the rows (a server's page, a 'list') is
    not a deleted match: verify reads the position, the events and the rows as of one moment."""
    import bgledger.projections.readmodels.row_audit as audit

    url, _ = stored
    assert cli(url, "list").exit_code == 0  # the read models are built
    later = f"later-{unique_id()}"
    started = cli(url, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", later)
    assert started.exit_code == 0, started.output
    folded = audit.rebuild_rows

    def caught_up_meanwhile(*args: Any, **kwargs: Any) -> Any:
        store = MatchStore(url)
        try:
            ReadModels(store).catch_up()  # another process, between verify's reads
        finally:
            store.close()
        return folded(*args, **kwargs)

    monkeypatch.setattr(audit, "rebuild_rows", caught_up_meanwhile)
    try:
        code, found = verdicts(url, later)
        assert code == 0, found
    finally:
        delete_stream(url, later)
        engine = create_engine(url)
        with engine.begin() as connection:
            connection.execute(matches_table.delete().where(matches_table.c.match_id == later))
        engine.dispose()
