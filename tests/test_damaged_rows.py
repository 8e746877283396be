"""A row edited behind the ledger's back into something it cannot decode (issue 25, Why 5).

``sqlite3 l.db "update bgledger_events set state=replace(state,'a','b') where ..."``
turns the row's BLOB into TEXT.  Every view must survive it: ``show`` and
``history`` name the row (number and match) and exit 3; ``verify`` reports it as
that match's problem and goes on with the others; the web pages show the match
as damaged (503 with the row named), never a 500.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from starlette.testclient import TestClient

from bgledger.cli.main import main
from bgledger.service import Ledger
from bgledger.web import create_app


def cli(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", url, *args])


@pytest.fixture
def damaged(tmp_path: Path) -> Iterator[str]:
    """A ledger of two matches of event 'Open', event 2 of 'bad' turned from BLOB to TEXT."""
    path = tmp_path / "l.db"
    url = f"sqlite:///{path}"
    for match in ("bad", "good"):
        assert cli(url, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", match,
                   "--event", "Open").exit_code == 0  # fmt: skip
        assert cli(url, "opening", match, "3", "1").exit_code == 0
    assert cli(url, "list").exit_code == 0  # the read models have caught up
    with sqlite3.connect(path) as db:
        (stream,) = db.execute("SELECT originator_id FROM bgledger_events WHERE id = 1").fetchone()
        db.execute(
            "UPDATE bgledger_events SET state = replace(state, 'a', 'b') "
            "WHERE originator_id = ? AND originator_version = 2",
            (stream,),
        )
        kinds = db.execute("SELECT typeof(state) FROM bgledger_events").fetchall()
    assert ("text",) in kinds
    yield url


@pytest.mark.parametrize("args", [["show", "bad"], ["history", "bad"], ["show", "bad", "--json"]])
def test_a_view_names_the_row_and_exits_3(damaged: str, args: list[str]) -> None:
    result = cli(damaged, *args)
    assert not isinstance(result.exception, TypeError), result.exception
    assert result.exit_code == 3, result.output
    assert "Traceback" not in result.output
    assert "match 'bad': stored event 2 cannot be read" in result.stderr


def test_verify_reports_the_row_as_its_matchs_problem_and_goes_on(damaged: str) -> None:
    result = cli(damaged, "verify", "--json")
    assert not isinstance(result.exception, TypeError), result.exception
    assert result.exit_code == 1, result.output
    found = {m["match_id"]: m for m in json.loads(result.stdout)["matches"]}
    assert found["bad"]["problem"]["kind"] == "unreadable"
    assert found["bad"]["problem"]["event"] == 2
    assert found["good"]["problem"] is None
    text = cli(damaged, "verify")
    assert "bad" in text.output + text.stderr and "event 2" in text.output + text.stderr
    assert "good: 3 events, chain intact" in text.output


def test_the_other_match_still_shows(damaged: str) -> None:
    assert cli(damaged, "show", "good").exit_code == 0
    assert cli(damaged, "list").exit_code == 0


def test_rebuilding_the_read_models_names_the_match(damaged: str) -> None:
    result = cli(damaged, "rebuild", "--full")
    assert not isinstance(result.exception, TypeError), result.exception
    assert result.exit_code == 3, result.output
    assert "stored event 2 cannot be read" in result.stderr


@pytest.mark.parametrize(
    "path",
    [
        "/matches/bad",
        "/matches/bad/live",
        "/matches/bad/pad",
        "/matches/bad/board.svg",
        "/api/matches/bad",
        "/matches/bad/replay",
        "/matches/bad/desk",
        "/events/Open/director",
        "/director",
        "/",
    ],
)
def test_the_web_shows_the_match_as_damaged_never_a_500(damaged: str, path: str) -> None:
    ledger = Ledger(damaged, cache_size=8)
    try:
        with TestClient(create_app(ledger), raise_server_exceptions=False) as client:
            answer = client.get(path)
            assert answer.status_code in (200, 503), (path, answer.status_code, answer.text[:300])
            if answer.status_code == 503:
                assert "stored event 2 cannot be read" in answer.text, answer.text[:300]
                assert "is damaged" in answer.text and "bad" in answer.text
            assert client.get("/matches/good").status_code == 200
    finally:
        ledger.close()
