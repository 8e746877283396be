"""The tournament-wide read models (:mod:`bgledger.projections.readmodels.tracking`) on SQLite
and PostgreSQL.

A ledger is filled the ways a tournament fills one (``.mat`` files through
``import``, a match recorded line by line through ``record``, rulings through
:mod:`bgledger.commands.rulings`), and the read models kept current batch by batch must
equal what ``rebuild`` computes from the events; a crash before the commit
must leave them as they were, and the next catch-up must do the work once.

On PostgreSQL each test gets a database of its own (the shared test database
holds every other test's matches, and the read models span a whole database).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
import sqlalchemy
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.cli.readmodel_commands import COMMANDS
from bgledger.commands.match import match_uuid
from bgledger.commands.rulings import Ruling
from bgledger.projections.readmodels.tables import dump_tables
from bgledger.projections.readmodels.tracking import ReadModels
from bgledger.projections.views.summary import state_json
from bgledger.service import Ledger
from bgledger.store.application import MatchStore
from bgledger.store.snapshots import MatchSnapshot
from tests.conftest import REPO, own_postgres_database

MATS = REPO / "fixtures" / "mat"
SCENARIO = REPO / "fixtures" / "scenarios" / "gammon-backgammon.txt"
GOOD_MATS = ("two-matches.mat", "abandoned.mat", "mid-match.mat", "resigned-after-rolling.mat")

cli = click.Group(
    name="bgledger",
    params=main.params,
    callback=main.callback,
    commands={**main.commands, **{command.name or "": command for command in COMMANDS}},
)


def run(url: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["--db", url, *args], input=stdin)


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh SQLite file, then a fresh PostgreSQL database (skipped when not configured)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'rm.db'}"
        return
    with own_postgres_database("bgledger_rm") as url:
        yield url


@pytest.fixture
def ledger(url: str) -> Iterator[MatchStore]:
    opened = MatchStore(url)
    yield opened
    opened.close()


def import_mats(url: str) -> None:
    result = run(url, "import", *(str(MATS / name) for name in GOOD_MATS))
    assert result.exit_code == 0, result.output


def record_scenario(url: str, match_id: str = "live", event: str = "Open") -> None:
    started = run(url, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", match_id)
    assert started.exit_code == 0, started.output
    lines = [line for line in SCENARIO.read_text().splitlines() if line and line[0] != "#"]
    recorded = run(url, "record", match_id, stdin="\n".join(lines[:20]) + "\n")
    assert recorded.exit_code == 0, recorded.output


def start(url: str, match_id: str, event: str) -> None:
    result = run(url, "start", "--a", "Cy", "--b", "Di", "--length", "3", "--id", match_id,
                 "--event", event)  # fmt: skip
    assert result.exit_code == 0, result.output


def rule(ledger: MatchStore, match_id: str) -> None:
    """A noted ruling, then an appeal overturning it."""
    ruling = Ruling("director", "late arrival noted", rule="USBGF 5.5")
    ledger.rule(match_id, lambda m, h: m.note(h, ruling))
    noted = ledger.state(match_id).events
    appeal = Ruling("committee", "the note was wrong")
    ledger.rule(match_id, lambda m, h: m.overturn(h, noted, appeal))


def rebuilt(url: str, full: bool = False) -> dict[str, list[dict[str, Any]]]:
    """The tables as ``rebuild`` computes them, from another ledger on the same database."""
    other = MatchStore(url)
    try:
        models = ReadModels(other)
        models.rebuild(full=full)
        return dump_tables(models.engine)
    finally:
        other.close()


def test_incremental_equals_rebuild_and_catch_up_is_idempotent(
    url: str, ledger: MatchStore
) -> None:
    models = ReadModels(ledger, batch=7)  # small batches: matches split across transactions
    start(url, "first", "Open")
    assert models.catch_up() == 1  # from here on, every catch-up folds notification by notification
    import_mats(url)
    assert models.catch_up() > 7
    record_scenario(url)
    start(url, "club-1", "Club night")
    rule(ledger, "club-1")
    models.catch_up()
    incremental = dump_tables(models.engine)
    assert models.catch_up() == 0
    assert dump_tables(models.engine) == incremental
    assert rebuilt(url) == incremental
    assert rebuilt(url, full=True) == incremental
    assert dump_tables(models.engine) == incremental
    assert {m["match_id"] for m in models.matches()} >= {"live", "club-1", "ann-bob-3p"}


def test_rebuild_starts_each_match_from_its_snapshot_and_folds_only_the_tail(
    url: str, ledger: MatchStore
) -> None:
    import_mats(url)  # an import ends each match on a snapshot
    record_scenario(url)  # 20 actions recorded live: a tail after the last snapshot
    start(url, "ruled", "Open")
    rule(ledger, "ruled")
    models = ReadModels(ledger)
    fast = models.rebuild()
    tables = dump_tables(models.engine)
    full = models.rebuild(full=True)
    assert dump_tables(models.engine) == tables
    assert full.events == fast.events == models.position() and full.folded == full.events
    live, ruled = ledger.state("live").events, ledger.state("ruled").events
    assert live < 50 and ruled < 50  # recorded live, too short for an interval's snapshot yet
    # ... but a ruling is followed by a snapshot (the one after the appeal ends "ruled")
    assert full.snapshots == 0 and fast.snapshots == fast.matches - 1
    assert fast.folded == live  # every imported match ends on its snapshot
    rows = {row["match_id"]: row for row in models.matches()}
    assert rows["live"]["events"] == live and rows["live"]["summary"] == json.dumps(
        state_json(ledger.state("live")), separators=(",", ":"), ensure_ascii=False
    )


def _last_snapshot(ledger: MatchStore, match_id: str) -> MatchSnapshot:
    stream = match_uuid(match_id)
    snapshots = list(ledger.snapshots.get(stream, desc=True, limit=1)) if ledger.snapshots else []
    assert snapshots and isinstance(snapshots[0], MatchSnapshot)
    return snapshots[0]


def _replace_snapshot(ledger: MatchStore, snapshot: MatchSnapshot, state: dict[str, Any]) -> None:
    """Overwrite the stored snapshot as someone with write access to the database could."""
    table = getattr(ledger.snapshots, "recorder").events_record_cls.__table__  # noqa: B009
    engine = getattr(ledger.recorder, "datastore").engine  # noqa: B009
    column = table.c
    with engine.begin() as connection:
        connection.execute(
            sqlalchemy.delete(table).where(
                column.originator_id == snapshot.originator_id,
                column.originator_version == snapshot.originator_version,
            )
        )
    forged = MatchSnapshot(
        originator_id=snapshot.originator_id,
        originator_version=snapshot.originator_version,
        timestamp=snapshot.timestamp,
        state=state,
    )
    assert ledger.snapshots is not None
    ledger.snapshots.put([forged])


@pytest.mark.parametrize("damage", ["other history", "no head", "unreadable"])
def test_a_snapshot_not_of_the_streams_history_is_not_used(
    url: str, ledger: MatchStore, damage: str
) -> None:
    import_mats(url)
    models = ReadModels(ledger)
    honest = models.rebuild(full=True)
    expected = dump_tables(models.engine)
    match_id = "ann-bob-3p"  # two-matches.mat's first match
    snapshot = _last_snapshot(ledger, match_id)
    state = {**snapshot.state, "score": [9, 9], "winner": None}
    if damage == "other history":
        state["head"] = "0" * 64  # a snapshot of a stream whose events were since changed
    elif damage == "no head":
        del state["head"]  # written before the hash chain
    else:
        state["board"] = "not a board"
    _replace_snapshot(ledger, snapshot, state)
    report = models.rebuild()
    assert dump_tables(models.engine) == expected
    assert report.snapshots == honest.matches - 1
    assert report.folded == snapshot.originator_version  # that match, folded from event 1
    row = next(row for row in models.matches() if row["match_id"] == match_id)
    assert (row["score_a"], row["score_b"]) != (9, 9)


def test_the_first_catch_up_of_a_large_ledger_starts_from_the_snapshots(
    url: str, ledger: MatchStore
) -> None:
    import_mats(url)
    record_scenario(url)
    models = ReadModels(ledger)
    covered = models.catch_up()
    assert covered == models.position() > 0
    assert dump_tables(models.engine) == rebuilt(url, full=True)
    start(url, "later", "Open")
    assert models.catch_up() == 1 and models.matches()[-1]["match_id"] == "later"


def test_a_crash_before_the_commit_changes_nothing_and_is_done_once_later(
    url: str, ledger: MatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = ReadModels(ledger)
    start(url, "first", "Open")
    models.catch_up()
    before = dump_tables(models.engine)
    import_mats(url)
    start(url, "ruled", "Open")
    rule(ledger, "ruled")
    advance = ReadModels._advance

    def crash(self: ReadModels, connection: Any, position: int) -> None:
        advance(self, connection, position)
        raise RuntimeError("power cut")

    monkeypatch.setattr(ReadModels, "_advance", crash)
    with pytest.raises(RuntimeError):
        models.catch_up()
    assert dump_tables(models.engine) == before
    monkeypatch.undo()
    models.catch_up()
    after = dump_tables(models.engine)
    assert after != before and after == rebuilt(url)
    numbers = [(r["match_id"], r["number"]) for r in after["bgledger_rm_rulings"]]
    assert len(numbers) == len(set(numbers)) == 2


def test_rulings_log_marks_the_overturned_ruling(url: str, ledger: MatchStore) -> None:
    start(url, "r1", "Open")
    rule(ledger, "r1")
    models = ReadModels(ledger)
    models.catch_up()
    noted, overturn = models.rulings()
    assert noted["kind"] == "RulingNoted" and noted["rule"] == "USBGF 5.5"
    assert noted["voided_by"] == overturn["number"] and overturn["overturns"] == noted["number"]
    assert overturn["voided_by"] is None and overturn["ruled_by"] == "committee"


def test_list_and_rulings_filter_by_event_and_print_json(url: str, ledger: MatchStore) -> None:
    assert "no matches" in run(url, "list").stdout
    start(url, "club-1", "Club night")
    start(url, "open-1", "Open")
    rule(ledger, "open-1")
    listed = json.loads(run(url, "list", "--json", "--event", "Club night").stdout)
    assert [m["match_id"] for m in listed["matches"]] == ["club-1"]
    assert listed["matches"][0]["players"] == {"a": "Cy", "b": "Di"}
    assert listed["matches"][0]["event"] == "Club night"
    text = run(url, "list", "--event", "Open").stdout
    assert "open-1" in text and "club-1" not in text and "Cy v Di" in text
    assert "no rulings" in run(url, "rulings", "--event", "Club night").stdout
    document = json.loads(run(url, "rulings", "--event", "Open", "--json").stdout)
    first, second = document["rulings"]
    assert document["event"] == "Open" and first["match_id"] == "open-1"
    assert set(first) >= {"number", "kind", "rule", "ruled_by", "reason", "at", "recorded_by"}
    assert first["in_force"] is False and second["in_force"] is True
    listing = run(url, "rulings").stdout
    assert f"[overturned by ruling {second['number']}]" in listing  # as history --rulings says


def test_list_keeps_the_old_output_and_order(url: str) -> None:
    start(url, "m", "E")
    run(url, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "second")
    ids = [m["match_id"] for m in json.loads(run(url, "list", "--json").stdout)["matches"]]
    assert ids == ["m", "second"]
    text = run(url, "list").stdout
    assert "Cy v Di" in text and "Ann v Bob" in text and "not begun" in text
    folded = MatchStore(url)  # what the old ``list`` printed: every match folded, in start order
    try:
        expected = [state_json(folded.state(match_id)) for match_id in folded.match_ids()]
    finally:
        folded.close()
    listed = json.loads(run(url, "list", "--json").stdout)["matches"]
    assert listed == json.loads(json.dumps(expected))


def test_standings_count_finished_matches(url: str) -> None:
    import_mats(url)
    document = json.loads(run(url, "standings", "--json", "--event", "Club night").stdout)
    rows = document["standings"]
    assert rows and all(r["event"] == "Club night" for r in rows)
    assert sum(r["won"] for r in rows) == sum(r["lost"] for r in rows)
    assert all(r["played"] == r["won"] + r["lost"] for r in rows)


def test_rebuild_prints_counts(url: str) -> None:
    import_mats(url)
    document = json.loads(run(url, "rebuild", "--json").stdout)
    assert document["events"] > 0 and document["matches"] >= 4
    assert set(document) == {
        "events", "folded", "from_snapshots", "matches", "rulings", "standings", "seconds",
        "events_per_second",
    }  # fmt: skip
    assert document["folded"] < document["events"]  # every imported match ends on a snapshot
    assert document["from_snapshots"] == document["matches"]
    full = json.loads(run(url, "rebuild", "--full", "--json").stdout)
    assert full["folded"] == full["events"] == document["events"] and full["from_snapshots"] == 0
    assert {key: full[key] for key in ("matches", "rulings", "standings")} == {
        key: document[key] for key in ("matches", "rulings", "standings")
    }
    assert "rebuilt from" in run(url, "rebuild").stdout


@pytest.mark.parametrize("attempt", range(3))
def test_a_fresh_servers_first_pages_at_once_all_answer(tmp_path: Path, attempt: int) -> None:
    """The console and spectators' pages of a freshly started ``serve`` came together, each
    creating the read models' tables: all but one were 503 ("table ... already exists")."""
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    start(url, "m", "Open")
    server = Ledger(url)
    together = threading.Barrier(4)
    lists: list[list[str]] = []
    errors: list[Exception] = []

    def page() -> None:
        together.wait()
        try:
            lists.append([row["match_id"] for row in server.matches("Open")])
        except Exception as error:  # what the page would have shown as a 503
            errors.append(error)

    readers = [threading.Thread(target=page) for _ in range(4)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    server.close()
    assert errors == []
    assert lists == [["m"]] * 4


def test_standings_follow_a_match_read_line_by_line(url: str) -> None:
    """Read after every line (a catch-up batch a line), the standings change exactly when
    what they count changes: the match's start and its win, not the lines between."""
    ledger = Ledger(url)
    try:
        ledger.start(("Ann", "Bob"), 2, match_id="m", event="Club", by="kim")
        started = ledger.standings("Club")
        assert [(row["player"], row["in_progress"], row["played"]) for row in started] == [
            ("Ann", 1, 0),
            ("Bob", 1, 0),
        ]
        # Ann opens, Bob replies, Ann doubles and Bob drops: 1-0, then the Crawford game
        for line in ("opening 5 2", "move 13/8 13/11", "roll 6 4", "move 24/18 13/9", "double",
                     "drop", "opening 3 1", "move 8/5 6/5"):  # fmt: skip
            ledger.record_line("m", line, by="kim")
            assert ledger.standings("Club") == started, line  # not won yet: as they were
        ledger.record_line("m", "resign single --as-played", by="kim")
        ledger.record_line("m", "accept", by="kim")
        won = {row["player"]: row for row in ledger.standings("Club")}
        assert {k: won["Ann"][k] for k in ("played", "won", "in_progress", "points_for")} == {
            "played": 1, "won": 1, "in_progress": 0, "points_for": 2}  # fmt: skip
        assert {k: won["Bob"][k] for k in ("played", "lost", "points_for", "points_against")} == {
            "played": 1, "lost": 1, "points_for": 0, "points_against": 2}  # fmt: skip
    finally:
        ledger.close()


def test_catch_ups_racing_while_lines_are_recorded_equal_a_rebuild(url: str) -> None:
    """Each catch-up reads and folds before it takes the write lock; three threads catching
    up at once while a scorekeeper records (each planning from a position another may have
    moved meanwhile) leave the models exactly as a rebuild computes them."""
    ledger = Ledger(url)
    try:
        ledger.start(("Cy", "Di"), 3, match_id="raced", event="Open", by="kim")
        ledger.matches()  # caught up once: from here on the catch-ups fold batch by batch
        lines = [line for line in SCENARIO.read_text().splitlines() if line and line[0] != "#"]
        done = threading.Event()
        errors: list[BaseException] = []

        def catch_up() -> None:
            models = ReadModels(MatchStore(url), batch=3)
            try:
                while not done.is_set():
                    models.catch_up()
            except BaseException as error:  # reported by the test
                errors.append(error)
            finally:
                models.ledger.close()

        threads = [threading.Thread(target=catch_up) for _ in range(3)]
        for thread in threads:
            thread.start()
        ledger.start(("Ann", "Bob"), 5, match_id="live", event="Open", by="kim")
        for line in lines[:20]:
            ledger.record_line("live", line, by="kim")
        done.set()
        for thread in threads:
            thread.join(30)
        assert not errors
        ledger.matches()
        models = ReadModels(MatchStore(url))
        try:
            incremental = dump_tables(models.engine)
        finally:
            models.ledger.close()
        assert len(incremental["bgledger_rm_matches"]) == 2
        assert rebuilt(url) == incremental
    finally:
        ledger.close()
