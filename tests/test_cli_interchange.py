"""``export`` and ``import`` through the CLI: a match out and back in, unchanged."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.main import main
from tests.conftest import REPO

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


def test_json_round_trip_gives_the_same_match(db: str, tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    assert run(db, "export", "m", "--format", "json", "-o", str(out)).exit_code == 0
    imported = run(db, "import", str(out), "--id", "again")
    assert imported.exit_code == 0, imported.output
    before, after = shown(db, "m"), shown(db, "again")
    assert {**before, "match_id": "again"} == after
    old = json.loads(run(db, "history", "m", "--json").stdout)["events"]
    new = json.loads(run(db, "history", "again", "--json").stdout)["events"]
    assert old == new


def test_mat_round_trip_gives_the_same_games(db: str, tmp_path: Path) -> None:
    out = tmp_path / "m.mat"
    assert run(db, "export", "m", "--format", "mat", "-o", str(out)).exit_code == 0
    assert run(db, "import", str(out), "--id", "from-mat").exit_code == 0
    before, after = shown(db, "m"), shown(db, "from-mat")
    assert after["games"] == before["games"] and after["score"] == {"a": 3, "b": 2}
    assert after["winner"] == "a" and after["board"] == before["board"]


def test_score_sheets(db: str) -> None:
    text = run(db, "export", "m", "--format", "scoresheet")
    assert text.exit_code == 0
    rows = [line for line in text.stdout.splitlines() if re.match(r"\s+\d\s", line)]
    assert len(rows) == 4 and "Crawford" in rows[1] and "Crawford" not in rows[0]
    assert "Ann wins the match 3-2" in text.stdout
    page = run(db, "export", "m", "--format", "scoresheet-html")
    assert page.exit_code == 0 and page.stdout.lstrip().lower().startswith("<!doctype html")


def test_export_of_an_unknown_match_is_a_usage_error(db: str) -> None:
    result = run(db, "export", "nosuch", "--format", "mat")
    assert result.exit_code == 2 and "nosuch" in result.stderr
