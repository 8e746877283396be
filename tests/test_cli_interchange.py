"""``export`` and ``import`` through the CLI: a match out and back in, unchanged."""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.projections.state.corrected import corrected
from bgledger.store.application import MatchStore
from tests.conftest import REPO
from tests.ruled_match import record_ruled_match

SCENARIOS = REPO / "fixtures" / "scenarios"


def run(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'interchange.db'}"
    text = (SCENARIOS / "three-point-match.txt").read_text()
    start = re.search(r"^# start: (.*)$", text, re.MULTILINE)
    assert start
    assert run(url, "start", "--id", "m", *shlex.split(start.group(1))).exit_code == 0
    assert run(url, "record", "m", stdin=text).exit_code == 0
    return url


def shown(db: str, match_id: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(run(db, "show", match_id, "--json").stdout)
    return document


def copied(db: str, match_id: str, original: str) -> dict[str, Any]:
    """``show --json`` of an imported copy of ``original`` as the copy left it: before the
    import's own record (an unsealed copy), under the original's id."""
    count = str(shown(db, original)["events"])
    document: dict[str, Any] = json.loads(run(db, "show", match_id, "--at", count, "--json").stdout)
    assert document["provenance"].startswith("imported from an unsealed copy")
    return {**document, "match_id": original, "provenance": None, "view": "present"}


def copied_history(db: str, match_id: str) -> list[dict[str, Any]]:
    """``history --json`` of an imported copy: the copy's events, then the import's record."""
    events: list[dict[str, Any]] = json.loads(run(db, "history", match_id, "--json").stdout)[
        "events"
    ]
    assert events[-1]["kind"] == "CopyImported"
    return events[:-1]


def test_json_round_trip_gives_the_same_match(db: str, tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    assert run(db, "export", "m", "--format", "json", "-o", str(out)).exit_code == 0
    imported = run(db, "import", str(out), "--id", "again", "--again")
    assert imported.exit_code == 0, imported.output
    assert shown(db, "m") == copied(db, "again", "m")
    old = json.loads(run(db, "history", "m", "--json").stdout)["events"]
    assert old == copied_history(db, "again")


def test_mat_round_trip_gives_the_same_games(db: str, tmp_path: Path) -> None:
    out = tmp_path / "m.mat"
    assert run(db, "export", "m", "--format", "mat", "-o", str(out)).exit_code == 0
    assert run(db, "import", str(out), "--id", "from-mat", "--again").exit_code == 0
    before, after = shown(db, "m"), shown(db, "from-mat")
    assert after["games"] == before["games"] and after["score"] == {"a": 3, "b": 2}
    assert after["winner"] == "a" and after["board"] == before["board"]


def test_score_sheets(db: str) -> None:
    text = run(db, "export", "m", "--format", "scoresheet")
    assert text.exit_code == 0
    rows = [line for line in text.stdout.splitlines() if re.match(r"\s+\d\s", line)]
    assert len(rows) == 4 and "Crawford" in rows[1] and "Crawford" not in rows[0]
    assert "Final: Ann 3, Bob 2: Ann wins the match" in text.stdout
    page = run(db, "export", "m", "--format", "scoresheet-html")
    assert page.exit_code == 0 and page.stdout.lstrip().lower().startswith("<!doctype html")


def test_export_of_an_unknown_match_is_a_usage_error(db: str) -> None:
    result = run(db, "export", "nosuch", "--format", "mat")
    assert result.exit_code == 2 and "nosuch" in result.stderr


# -- a match with rulings ------------------------------------------------------------------------


@pytest.fixture
def ruled_db(tmp_path: Path) -> str:
    """A ledger holding ``record_ruled_match`` (one ruling of each kind) as ``m``."""
    url = f"sqlite:///{tmp_path / 'ruled.db'}"
    with MatchStore(url) as ledger:
        record_ruled_match(ledger)
    return url


def test_json_export_holds_the_rulings_and_imports_corrections_included(
    ruled_db: str, tmp_path: Path
) -> None:
    out = tmp_path / "m.json"
    assert run(ruled_db, "export", "m", "--format", "json", "-o", str(out)).exit_code == 0
    document = json.loads(out.read_text())
    assert len(document["events"]) == 51
    kinds = [entry["type"] for entry in document["events"]]
    assert kinds.count("MatchLengthCorrected") == 2 and "RulingOverturned" in kinds
    imported = run(ruled_db, "import", str(out), "--id", "again", "--again")
    assert imported.exit_code == 0, imported.output
    assert shown(ruled_db, "m") == copied(ruled_db, "again", "m")
    old = json.loads(run(ruled_db, "history", "m", "--json").stdout)["events"]
    assert old == copied_history(ruled_db, "again")
    with MatchStore(ruled_db) as ledger:
        mine, theirs = corrected(ledger.history("again")[:-1]), corrected(ledger.history("m"))
    assert mine is not None and dataclasses.replace(mine, match_id="m") == theirs


def test_mat_and_score_sheet_exports_are_the_match_as_corrected(ruled_db: str) -> None:
    mat = run(ruled_db, "export", "m", "--format", "mat")
    assert mat.exit_code == 0
    assert "24/18 13/8" not in mat.stdout and "64: 24/18 13/9" in mat.stdout  # reverted
    assert mat.stdout.count("Doubles") == 2  # Ann's (at 2, as corrected) and Bob's in game 3
    assert " 3 point match" in mat.stdout and "Wins 2 points and the match" in mat.stdout
    sheet = run(ruled_db, "export", "m", "--format", "scoresheet")
    assert sheet.exit_code == 0
    lines = sheet.stdout.splitlines()
    assert "Final: Ann 2, Bob 3: Bob wins the match" in lines and "Rulings:" in lines
    assert any(re.match(r"\s+2\s+2-0\s+Bob\s+1\s+resigned, single, cube 1\s", x) for x in lines)
    page = run(ruled_db, "export", "m", "--format", "scoresheet-html")
    assert page.exit_code == 0 and "<h2>Rulings</h2>" in page.stdout
    assert "overturned by ruling 31" in page.stdout
