"""Issue 24's smaller items: words, not codes; a desk opened by its address; the favicon;
tables that scroll inside a phone's width; the desk's 24 px choices; "1 game"; a refusal's
buttons in the 409 answer.  (``serve``'s busy port and Ctrl-C: tests/test_cli_serve.py.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from bgledger.cli.main import main
from bgledger.service import Ledger
from bgledger.web import create_app
from bgledger.web.words import kind_words, phase_words, status_words
from tests.webclient import reading

WEB = Path(__file__).parents[1] / "web"


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Club", by="kim")
    yield ledger
    ledger.close()


@pytest.fixture
def client(ledger: Ledger) -> TestClient:
    return reading(TestClient(create_app(ledger)), ledger)


def between_games(ledger: Ledger) -> None:
    """Game 1 over (Bob doubled, Ann dropped, cube 2 was never turned), game 2 not begun."""
    for line in ["opening 3 1", "move 8/5 6/5", "double", "drop"]:
        ledger.record_line("final", line, by="kim")


def test_words_for_the_codes() -> None:
    assert kind_words("PlaysReverted") == "plays reverted"
    assert kind_words("CubeActionVoided") == "cube action voided"
    assert kind_words("CrawfordPassNullified") == "Crawford pass nullified"
    assert phase_words("between-games") == "between games"
    assert phase_words("doubled") == "to take or drop"
    row = {"winner": None, "game": 1, "status": "game 1", "summary": '{"phase": "between-games"}'}
    assert status_words(row) == "game 1 over; game 2 next"


def test_the_list_and_the_console_say_between_games_in_words(
    ledger: Ledger, client: TestClient
) -> None:
    between_games(ledger)
    listed = client.get("/").text
    assert "game 1 over; game 2 next" in listed
    assert "between-games" not in listed and "in-progress" not in listed
    console = client.get("/events/Club/director/live").text
    assert "between-games" not in console
    assert "1 over, 2 next" in console and "centred for the next game" in console
    assert 'cube</dt><dd class="cube">2' not in console  # no "cube 2, Bob's" between games


def test_the_rulings_log_shows_words_not_class_names(ledger: Ledger, client: TestClient) -> None:
    director = ledger.issue_token("director", event="Club", label="Tom, TD")
    ledger.record_line("final", "opening 3 1", by="kim")
    ledger.record_line("final", "move 24/21 --as-played", by="kim")  # only the 3 played
    played = ledger.state("final").events
    answer = client.post(
        "/api/matches/final/lines",
        json={"line": f'revert {played} --rule "USBGF 4.2.3(a)" --reason "one die unused"'},
        headers={"Authorization": f"Bearer {director}"},
    )
    assert answer.status_code == 201, answer.text
    log = client.get("/events/Club/director/live").text.split('id="rulings-log"')[1]
    assert "plays reverted" in log and "PlaysReverted" not in log


def test_the_wide_tables_scroll_inside_the_phone(ledger: Ledger, client: TestClient) -> None:
    between_games(ledger)
    assert re.search(r'<div class="table-scroll"><table class="matches"', client.get("/").text)
    console = client.get("/events/Club/director/live").text
    assert '<div class="table-scroll"><table class="matches standings"' in console
    style = (WEB / "static" / "style.css").read_text()
    assert re.search(r"\.table-scroll \{[^}]*overflow-x: auto", style)


def test_the_desks_choices_are_24_px() -> None:
    css = (WEB / "static" / "director.css").read_text()
    assert re.search(r'\.desk input\[type="radio"\][^{]*\{[^}]*width: 24px; height: 24px', css)


def test_a_desk_opened_by_its_address_goes_to_the_console(client: TestClient) -> None:
    browsing = {"Accept": "text/html,application/xhtml+xml", "Sec-Fetch-Mode": "navigate"}
    opened = client.get("/matches/final/desk", headers=browsing, follow_redirects=False)
    assert opened.status_code == 303
    assert opened.headers["location"] == "/events/Club/director?desk=final"
    fetched = client.get("/matches/final/desk")  # the console's fetch: the fragment
    assert fetched.status_code == 200 and 'class="desk-match"' in fetched.text
    script = (WEB / "static" / "director.js").read_text()
    assert '.get("desk")' in script  # the console opens the desk it is sent to


def test_the_favicon_is_served(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.startswith("<svg")
    assert 'rel="icon"' in client.get("/").text


def test_a_refusal_offers_buttons_not_command_lines(ledger: Ledger, client: TestClient) -> None:
    pad = ledger.issue_token("scorekeeper", match_id="final")
    ledger.record_line("final", "opening 3 1", by="kim")
    answer = client.post(
        "/api/matches/final/lines",
        json={"line": "move 24/18"},
        headers={"Authorization": f"Bearer {pad}"},
    )
    assert answer.status_code == 409
    document = answer.json()
    assert document["reason"] and document["rule"] == "USBGF 4.2.3(a)"
    buttons = document["next"]["buttons"]
    assert buttons == [
        {"label": "Record as played", "line": "move 24/18 --as-played"},
        {"label": "Undo the roll", "line": "undo"},
    ]
    assert "`" not in document["next"]["words"] and "--as-played" not in document["next"]["words"]


def test_a_forgotten_hit_offers_hit_now(tmp_path: Path) -> None:
    ledger = Ledger(f"sqlite:///{tmp_path / 'clock.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="c", clock="simple-delay", by="kim")
    pad = ledger.issue_token("scorekeeper", match_id="c")
    for line in ["opening 3 1", "move 8/5 6/5"]:  # Ann's hit is not recorded
        ledger.record_line("c", line, by="kim")
    answer = TestClient(create_app(ledger)).post(
        "/api/matches/c/lines",
        json={"line": "roll 6 4"},
        headers={"Authorization": f"Bearer {pad}"},
    )
    ledger.close()
    assert answer.status_code == 409
    document = answer.json()
    assert "'hit'" not in document["reason"] and "--as-played" not in document["reason"]
    assert document["next"]["buttons"] == [
        {"label": "Hit now", "line": "hit a"},
        {"label": "Record as played", "line": "roll 6 4 --as-played"},
    ]


def test_the_import_report_says_1_game(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'l.db'}"
    runner = CliRunner()
    start = ["start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "one"]
    assert runner.invoke(main, ["--db", db, *start]).exit_code == 0
    for line in (["opening", "3", "1"], ["move", "8/5 6/5"], ["double"], ["drop"]):
        assert runner.invoke(main, ["--db", db, line[0], "one", *line[1:]]).exit_code == 0
    mat = runner.invoke(main, ["--db", db, "export", "one", "--format", "mat"]).output
    (tmp_path / "one.mat").write_text(mat)
    other = f"sqlite:///{tmp_path / 'other.db'}"
    report = runner.invoke(main, ["--db", other, "import", str(tmp_path / "one.mat")])
    assert report.exit_code == 0, report.output
    assert ", 1 game, " in report.output and "1 games" not in report.output
