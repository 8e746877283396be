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
from tests.webclient import reading


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
        with reading(
            TestClient(create_app(ledger), raise_server_exceptions=False), ledger
        ) as client:
            answer = client.get(path)
            assert answer.status_code in (200, 503), (path, answer.status_code, answer.text[:300])
            if answer.status_code == 503:
                assert "stored event 2 cannot be read" in answer.text, answer.text[:300]
                assert "is damaged" in answer.text and "bad" in answer.text
            assert client.get("/matches/good").status_code == 200
    finally:
        ledger.close()


# -- terminal escapes written straight into the store (issue 25, Why 8) --------------------------


@pytest.fixture
def escaping(tmp_path: Path) -> str:
    """A match whose player's name and note hold a terminal escape, written into the row."""
    path = tmp_path / "e.db"
    url = f"sqlite:///{path}"
    started = cli(url, "start", "--a", "Zoë", "--b", "José", "--length", "5", "--id", "m")
    assert started.exit_code == 0
    assert cli(url, "note", "m", "NOTEHERE").exit_code == 0
    with sqlite3.connect(path) as db:
        for old, new in (("José", "José\\u001b]0;pwned\\u0007"),
                         ("Jos\\u00e9", "Jos\\u00e9\\u001b]0;pwned\\u0007"),
                         ("NOTEHERE", "NOTE\\u001b[2JHERE\\u202e")):  # fmt: skip
            db.execute(
                "UPDATE bgledger_events SET state = "
                "CAST(replace(CAST(state AS TEXT), ?, ?) AS BLOB)",
                (old, new),
            )
            db.execute(
                "UPDATE bgledger_snapshots SET state = "
                "CAST(replace(CAST(state AS TEXT), ?, ?) AS BLOB)",
                (old, new),
            )
        db.execute(  # the match list's row, if the read models have caught up
            "UPDATE bgledger_matches SET player_b = 'Jos\u00e9\x1b]0;pwned\x07'"
        ) if db.execute(
            "SELECT 1 FROM sqlite_master WHERE name = 'bgledger_matches'"
        ).fetchone() else None
    return url


@pytest.mark.parametrize("args", [["show", "m"], ["history", "m"], ["list"], ["rulings"]])
def test_an_escape_in_the_store_is_shown_escaped(escaping: str, args: list[str]) -> None:
    result = cli(escaping, *args)
    shown = result.output + result.stderr
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown, shown
    if args[0] != "rulings":
        assert "Zoë" in shown
    if args[0] in ("show", "list"):
        assert "José\\x1b]0;pwned\\x07" in shown, shown
    if args[0] == "history":
        assert "NOTE\\x1b[2JHERE\\u202e" in shown, shown
