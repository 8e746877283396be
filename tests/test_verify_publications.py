"""``verify`` checks the events' publications: rows edited behind the ledger's back are named.

``bgledger_publications`` is append-only (ledger/publication.py): each event's
rows are one history, each following the event's change before it, each
changing the wall (the first opens it), dated in UTC, never earlier than the
change it follows, naming an event a match was started in.  A ledger with
publications verifies clean; each damage done with sqlite3 on the file, as
someone with the database would, makes ``verify`` exit 1 naming the table
and the row.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.service import Ledger

EARLY = "2000-01-01T00:00:00+00:00"


def cli(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", url, *args])


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger whose 'Open Cup' was published (row 1), withdrawn (2), published again (3),
    whose 'Ladder' was published (4), and 'Open Cup' then delayed 15 minutes (5)."""
    path = tmp_path_factory.mktemp("published") / "ledger.db"
    ledger = Ledger(f"sqlite:///{path}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open Cup", by="kim")
    ledger.start(("Eve", "Fay"), 3, match_id="other", event="Ladder", by="kim")
    ledger.publish("Open Cup", by="Dana")
    ledger.publish("Open Cup", on=False, by="Eli")
    ledger.publish("Open Cup", by="Dana")
    ledger.publish("Ladder", by="Dana")
    ledger.publish("Open Cup", by="Dana", delay=900)  # 15 minutes behind: a change (row 5)
    assert [p.sequence for p in ledger.publications("Open Cup")] == [1, 2, 3, 5]
    assert ledger.publication("Open Cup").delay == 900
    ledger.close()
    return path


@pytest.fixture
def copy(published: Path, tmp_path: Path) -> Path:
    """The published ledger's file, for one test to damage."""
    path = tmp_path / "ledger.db"
    shutil.copy(published, path)
    return path


def test_a_ledger_with_publications_verifies_clean(copy: Path) -> None:
    result = cli(f"sqlite:///{copy}", "verify")
    assert result.exit_code == 0, result.output + result.stderr
    assert "final: " in result.output and "chain intact" in result.output
    assert "bgledger_publications" not in result.output + result.stderr


def _without_the_one_history_pair(db: sqlite3.Connection) -> None:
    """The table made again without its unique (event, follows): what someone rewriting the
    file could do to grow a second history."""
    db.executescript(
        """
        CREATE TABLE loose (sequence INTEGER PRIMARY KEY, event TEXT NOT NULL,
            published BOOLEAN NOT NULL, "by" TEXT NOT NULL, at TEXT NOT NULL,
            follows INTEGER NOT NULL);
        INSERT INTO loose SELECT sequence, event, published, "by", at, follows
            FROM bgledger_publications;
        DROP TABLE bgledger_publications;
        ALTER TABLE loose RENAME TO bgledger_publications;
        """
    )


DAMAGES = {
    "an event no match was started in": (
        ["UPDATE bgledger_publications SET event = 'Nowhere' WHERE sequence = 4"],
        "row 4 (event 'Nowhere') names an event no match was started in",
    ),
    "an unknown action": (
        ["UPDATE bgledger_publications SET published = 7 WHERE sequence = 2"],
        "row 2 (event 'Open Cup') neither publishes nor withdraws: published is 7",
    ),
    "a change deleted": (
        ["DELETE FROM bgledger_publications WHERE sequence = 2"],
        "row 3 (event 'Open Cup') follows row 2, which is not in the table: it was deleted "
        "(the event's change before it: row 1)",
    ),
    "a withdrawal turned into a publication": (
        ["UPDATE bgledger_publications SET published = 1 WHERE sequence = 2"],
        "row 2 (event 'Open Cup') publishes an event public already",
    ),
    "a change that follows another event's": (
        ["UPDATE bgledger_publications SET follows = 4 WHERE sequence = 3"],
        "row 3 (event 'Open Cup') follows row 4 (the event's change before it: row 2): the rows "
        "were edited, inserted or moved",
    ),
    "a second history": (
        ["UPDATE bgledger_publications SET follows = 1 WHERE sequence = 3"],
        "row 3 (event 'Open Cup') follows row 1, as row 2 does: two histories",
    ),
    "a change dated before the one it follows": (
        [f"UPDATE bgledger_publications SET at = '{EARLY}' WHERE sequence = 2"],
        f"row 2 (event 'Open Cup') is dated {EARLY}, before row 1 it follows",
    ),
    "a date that is no time": (
        ["UPDATE bgledger_publications SET at = 'yesterday' WHERE sequence = 1"],
        "row 1 (event 'Open Cup') is dated 'yesterday': not a time in UTC",
    ),
    "a date not in UTC": (
        ["UPDATE bgledger_publications SET at = replace(at, '+00:00', '+02:00')"],
        "row 1 (event 'Open Cup') is dated",
    ),
    # the spectator delay (publish --delay): whole seconds from 0 to a day, none on a withdrawal
    "a negative delay": (
        ["UPDATE bgledger_publications SET delay = -900 WHERE sequence = 3"],
        "row 3 (event 'Open Cup') has the delay -900: not whole seconds from 0 (live) to 86400",
    ),
    "a delay past a day": (
        ["UPDATE bgledger_publications SET delay = 86401 WHERE sequence = 1"],
        "row 1 (event 'Open Cup') has the delay 86401: not whole seconds from 0 (live) to 86400",
    ),
    "a delay that is no number": (
        ["UPDATE bgledger_publications SET delay = '15m' WHERE sequence = 4"],
        "row 4 (event 'Ladder') has the delay '15m': not whole seconds",
    ),
    "a withdrawal with a delay": (
        ["UPDATE bgledger_publications SET delay = 900 WHERE sequence = 2"],
        "row 2 (event 'Open Cup') withdraws with a delay of 900 s: a withdrawal has none",
    ),
    "a change of nothing, its delay set back to the one before": (
        ["UPDATE bgledger_publications SET delay = 0 WHERE sequence = 5"],
        "row 5 (event 'Open Cup') publishes an event public already with that delay",
    ),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_publication_row_fails_verify_by_name(copy: Path, damage: str) -> None:
    statements, named = DAMAGES[damage]
    with sqlite3.connect(copy) as db:
        if damage == "a second history":
            _without_the_one_history_pair(db)
        for statement in statements:
            assert db.execute(statement).rowcount >= 1
    url = f"sqlite:///{copy}"
    result = cli(url, "verify")
    assert result.exit_code == 1, result.output + result.stderr
    assert f"bgledger_publications: {named}" in result.stderr
    assert "final: " in result.output and "chain intact" in result.output  # the matches are fine
    document = cli(url, "verify", "--json")
    assert document.exit_code == 1
    found = json.loads(document.stdout)
    assert found["ok"] is False
    problems = [m["problem"] for m in found["matches"] if m["match_id"] == "bgledger_publications"]
    assert problems and problems[0]["kind"] == "publication"
    assert named in problems[0]["why"]


def test_verifying_one_match_leaves_the_publications_to_the_whole_ledger(copy: Path) -> None:
    with sqlite3.connect(copy) as db:
        db.execute("UPDATE bgledger_publications SET published = 7 WHERE sequence = 2")
    url = f"sqlite:///{copy}"
    assert cli(url, "verify", "final").exit_code == 0
    assert cli(url, "verify").exit_code == 1


def test_a_table_made_before_the_delay_is_given_it_and_verifies_clean(tmp_path: Path) -> None:
    """A ledger published before ``--delay`` existed: its table has no ``delay`` column; the
    first use adds it (0: every row before was live), and ``verify`` and ``publish`` go on."""
    path = tmp_path / "ledger.db"
    ledger = Ledger(f"sqlite:///{path}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open Cup", by="kim")
    ledger.close()
    with sqlite3.connect(path) as db:  # the table as the ledger made it before the delay
        db.execute(
            "CREATE TABLE bgledger_publications (sequence INTEGER PRIMARY KEY AUTOINCREMENT, "
            "event TEXT NOT NULL, published BOOLEAN NOT NULL, by TEXT NOT NULL, at TEXT NOT "
            "NULL, follows INTEGER NOT NULL, CONSTRAINT bgledger_publications_one_history "
            "UNIQUE (event, follows))"
        )
        db.execute(
            "INSERT INTO bgledger_publications (event, published, by, at, follows) "
            "VALUES ('Open Cup', 1, 'Dana', '2026-11-27T18:35:18+00:00', 0)"
        )
    url = f"sqlite:///{path}"
    assert cli(url, "verify").exit_code == 0
    listed = json.loads(cli(url, "publish", "--event", "Open Cup", "--history", "--json").stdout)
    assert [(p["by"], p["delay_seconds"]) for p in listed["publications"]] == [("Dana", 0)]
    delayed = cli(url, "publish", "--event", "Open Cup", "--delay", "15m", "--by", "Eli")
    assert delayed.exit_code == 0, delayed.output
    assert cli(url, "verify").exit_code == 0
