"""``bgledger serve`` in-process: the pages, the JSON API and its status codes, the tokens.

Every test drives the Starlette application through Starlette's TestClient,
as a browser or a pad would, on a SQLite file; the command line is run
through click's CliRunner on the same file where the API must agree with it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from bgledger.cli.main import main
from bgledger.commands.vocabulary import Command, Double, Roll
from bgledger.service import Ledger
from bgledger.web import create_app
from tests.webclient import bearer, post

HOSTILE = '<script>alert("x")</script>'


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ledger.db'}"


@pytest.fixture
def ledger(db: str) -> Iterator[Ledger]:
    ledger = Ledger(db)
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open", by="kim")
    ledger.start(("Cy", HOSTILE), 3, match_id="side", event="Other", by="kim")
    yield ledger
    ledger.close()


def count(ledger: Ledger, match: str = "final") -> int:
    return len(ledger.events(match))


def cli(db: str, *args: str) -> Any:
    return CliRunner().invoke(main, ["--db", db, *args])


# -- reading: open to anyone ------------------------------------------------------------------


def test_the_api_document_is_what_show_json_prints(client: TestClient, db: str) -> None:
    ledger = Ledger(db)
    ledger.record_line("final", "opening 3 1", by="kim")
    ledger.record_line("final", "move 8/5 6/5", by="kim")
    ledger.close()
    response = client.get("/api/matches/final")
    assert response.status_code == 200
    shown = cli(db, "show", "final", "--json")
    assert shown.exit_code == 0
    assert response.json() == json.loads(shown.output)


def test_the_match_page_has_the_board_the_status_and_the_history(client: TestClient) -> None:
    page = client.get("/matches/final")
    assert page.status_code == 200
    assert "<svg" in page.text and "</svg>" in page.text
    assert "Ann 0, Bob 0 (to 5)" in page.text  # the status line
    assert "match started: Ann v Bob, 5 points" in page.text  # the history
    assert '/static/live.js"' in page.text  # served by the app itself
    assert client.get("/static/live.js").status_code == 200
    assert client.get("/static/style.css").status_code == 200


def test_the_match_page_shows_the_game_clock(client: TestClient, ledger: Ledger) -> None:
    ledger.record_line("final", "clock start simple-delay reserve 10:00 delay 12", by="kim")
    page = client.get("/matches/final")
    assert "clock: simple delay, 12 s · Ann 10:00 · Bob 10:00" in page.text


def test_every_answer_forbids_scripts_and_frames_from_elsewhere(client: TestClient) -> None:
    for url in ("/", "/matches/final", "/api/matches/final", "/static/live.js", "/nope"):
        headers = client.get(url).headers
        assert "default-src 'self'" in headers["content-security-policy"], url
        assert "frame-ancestors 'none'" in headers["content-security-policy"], url
        assert headers["x-content-type-options"] == "nosniff", url


def test_every_page_escapes_what_players_typed(client: TestClient) -> None:
    for url in ("/", "/matches/side"):
        page = client.get(url)
        assert page.status_code == 200
        assert HOSTILE not in page.text
        assert "&lt;script&gt;" in page.text


def test_the_index_lists_every_match(client: TestClient) -> None:
    page = client.get("/")
    assert 'href="/matches/final"' in page.text and 'href="/matches/side"' in page.text
    assert "Ann v Bob" in page.text


def test_an_unknown_match_is_404_on_the_page_and_in_the_api(client: TestClient, db: str) -> None:
    page = client.get("/matches/nope")
    assert page.status_code == 404 and "nothing to show for match &#39;nope&#39;" in page.text
    api = client.get("/api/matches/nope")
    assert api.status_code == 404
    assert "nothing to show for match 'nope'" in api.json()["error"]
    assert db not in api.text  # the database's URL stays on the server


# -- writing: a token, a JSON line, the ledger decides -----------------------------------------


def test_a_line_is_recorded_with_201_and_the_events_by_the_tokens_label(
    client: TestClient, ledger: Ledger
) -> None:
    token = ledger.issue_token("scorekeeper", match_id="final", label="Sam at table 4")
    response = post(client, "final", "opening 3 1", token)
    assert response.status_code == 201
    recorded = response.json()["recorded"]
    assert [r["number"] for r in recorded] == [2, 3]
    assert recorded[1]["text"] == "opening roll: Ann 3, Bob 1: Ann plays first"
    assert response.json()["match"]["turn"] == "a"
    assert [e.recorded_by for e in ledger.history("final")[1:]] == ["Sam at table 4"] * 2


def test_a_refused_line_is_409_with_reason_rule_and_next_step_and_records_nothing(
    client: TestClient, ledger: Ledger
) -> None:
    token = ledger.issue_token("scorekeeper", match_id="final")
    assert post(client, "final", "opening 3 1", token).status_code == 201
    before = count(ledger)
    response = post(client, "final", "roll 6 4", token)  # Ann must play her 3-1 first
    assert response.status_code == 409
    body = response.json()
    assert body["reason"] == "cannot roll: Ann has rolled 3-1 and must move"
    assert body["rule"].startswith("USBGF")
    assert "move " in body["next_step"]
    assert count(ledger) == before


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"line": "frob 3"}, "unknown action"),
        ({"line": "roll 7 1"}, "7"),
        ({"words": "roll 6 4"}, "line"),
        (["roll 6 4"], "line"),
    ],
)
def test_input_that_describes_nothing_is_400_and_records_nothing(
    client: TestClient, ledger: Ledger, body: Any, why: str
) -> None:
    token = ledger.issue_token("scorekeeper", match_id="final")
    post(client, "final", "opening 3 1", token)
    before = count(ledger)
    response = client.post("/api/matches/final/lines", json=body, headers=bearer(token))
    assert response.status_code == 400
    assert why in response.json()["error"]
    assert count(ledger) == before


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b"roll 6 4", 'the body is not JSON: {"line": "roll 6 4"}'),
        (b'{"line": 64}', 'give the line as {"line": "roll 6 4"}'),
        (b'["roll 6 4"]', 'give the line as {"line": "roll 6 4"}'),
    ],
)
def test_a_body_that_is_not_a_json_line_is_400(
    client: TestClient, ledger: Ledger, body: bytes, said: str
) -> None:
    token = ledger.issue_token("scorekeeper", match_id="final")
    headers = {**bearer(token), "Content-Type": "application/json"}
    response = client.post("/api/matches/final/lines", content=body, headers=headers)
    assert response.status_code == 400
    assert response.json() == {"error": said}
    assert count(ledger) == 1


def test_a_cross_site_form_cannot_record(client: TestClient, ledger: Ledger) -> None:
    """A form posts urlencoded data without the token: refused; with it still not JSON: 415."""
    token = ledger.issue_token("scorekeeper", match_id="final")
    form = client.post("/api/matches/final/lines", data={"line": "opening 3 1"})
    assert form.status_code == 401
    with_token = client.post(
        "/api/matches/final/lines", data={"line": "opening 3 1"}, headers=bearer(token)
    )
    assert with_token.status_code == 415
    assert count(ledger) == 1


@pytest.mark.parametrize("token", [None, "made-up", "revoked"])
def test_no_valid_token_is_401(client: TestClient, ledger: Ledger, token: str | None) -> None:
    if token == "revoked":
        token = ledger.issue_token("scorekeeper", match_id="final")
        ledger.revoke_token(token)
    response = post(client, "final", "opening 3 1", token)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert count(ledger) == 1


def test_a_token_records_only_where_its_role_and_scope_allow(
    client: TestClient, ledger: Ledger
) -> None:
    pad = ledger.issue_token("scorekeeper", match_id="final")
    director = ledger.issue_token("director", event="Open")
    committee = ledger.issue_token("committee")
    assert post(client, "side", "opening 3 1", pad).status_code == 403  # another match
    assert post(client, "side", "opening 3 1", director).status_code == 403  # another event
    assert count(ledger, "side") == 1
    assert post(client, "final", "opening 3 1", director).status_code == 201
    assert post(client, "side", "opening 3 1", committee).status_code == 201
    assert post(client, "nope", "opening 3 1", committee).status_code == 404


def test_a_pad_cannot_claim_the_directors_word(client: TestClient, ledger: Ledger) -> None:
    pad = ledger.issue_token("scorekeeper", match_id="final")
    director = ledger.issue_token("director", event="Open")
    assert post(client, "final", "opening 3 1", pad).status_code == 201
    line = "undo --ruled-by director --reason wrong dice"
    refused = post(client, "final", line, pad)
    assert refused.status_code == 403
    assert "director" in refused.json()["error"]
    assert count(ledger) == 3
    assert post(client, "final", line, director).status_code == 201
    over = post(client, "final", "overturn 4 --reason the committee disagrees", director)
    assert over.status_code == 403 and "committee" in over.json()["error"]
    # an undo is the director's at most: the committee's word there is no line at all
    said = post(client, "final", "undo --ruled-by committee --reason x", director)
    assert said.status_code == 400 and "--ruled-by director" in said.json()["error"]


def test_tokens_are_stored_hashed(ledger: Ledger, tmp_path: Path) -> None:
    token = ledger.issue_token("scorekeeper", match_id="final")
    with sqlite3.connect(tmp_path / "ledger.db") as connection:
        rows = connection.execute("SELECT * FROM bgledger_tokens").fetchall()
    stored = json.dumps(rows)
    assert token not in stored
    assert hashlib.sha256(token.encode()).hexdigest() in stored


def test_a_database_failure_is_503(client: TestClient, tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "ledger.db") as connection:
        query = "SELECT name FROM sqlite_master WHERE type = 'table'"
        tables = [name for (name,) in connection.execute(query)]
        for table in tables:
            if "event" in table and "snapshot" not in table:
                connection.execute(f'DROP TABLE "{table}"')
    response = client.get("/api/matches/final")
    assert response.status_code == 503
    assert response.json()["error"].startswith("database error")


# -- two pads racing on one match -----------------------------------------------------------------


def test_two_pads_racing_one_wins_the_other_is_told_which_event_it_raced(
    db: str, ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both pads' lines are decided on the same match before either is stored."""
    ledger.record_line("final", "opening 3 1", by="kim")
    ledger.record_line("final", "move 8/5 6/5", by="kim")  # Bob on roll: double or roll
    token = ledger.issue_token("scorekeeper", match_id="final")
    both_decided = threading.Barrier(2, timeout=10)
    runs = {kind: kind.run for kind in (Double, Roll)}

    def decide_then_wait(self: Command, match: Any, by: str, history: Any = None) -> None:
        runs[type(self)](self, match, by, history)
        both_decided.wait()

    for kind in runs:
        monkeypatch.setattr(kind, "run", decide_then_wait)
    pads = [Ledger(db), Ledger(db)]
    answers: dict[str, Any] = {}

    def pad(which: int, line: str) -> None:
        answers[line] = post(TestClient(create_app(pads[which])), "final", line, token)

    threads = [
        threading.Thread(target=pad, args=(0, "double")),
        threading.Thread(target=pad, args=(1, "roll 6 5")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for other in pads:
        other.close()
    statuses = sorted(answer.status_code for answer in answers.values())
    assert statuses == [201, 409]
    winner = next(line for line, answer in answers.items() if answer.status_code == 201)
    loser = next(answer for answer in answers.values() if answer.status_code == 409)
    won = {"double": "CubeOffered", "roll 6 5": "DiceRolled"}[winner]
    assert "event 5" in loser.json()["raced"] and won in loser.json()["raced"]
    assert count(ledger) == 5  # the winner's event alone


# -- the command line: token and serve ------------------------------------------------------------


def test_the_token_command_prints_a_token_that_records_and_revokes(
    db: str, ledger: Ledger, client: TestClient
) -> None:
    issued = cli(db, "token", "final", "--role", "scorekeeper")
    assert issued.exit_code == 0
    token = issued.output.strip()
    assert post(client, "final", "opening 3 1", token).status_code == 201
    assert cli(db, "token", "--revoke", token).exit_code == 0
    assert post(client, "final", "opening 4 1", token).status_code == 401


@pytest.mark.parametrize(
    "args",
    [
        ["--role", "scorekeeper"],  # whose pad?
        ["--role", "director"],  # which event?
        ["final", "--event", "Open", "--role", "director"],
        ["nope", "--role", "scorekeeper"],
        ["final"],
        ["--revoke", "never-issued"],
    ],
)
def test_a_token_asked_for_badly_is_exit_2(db: str, ledger: Ledger, args: list[str]) -> None:
    result = cli(db, "token", *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_serve_binds_localhost_unless_told_otherwise(db: str) -> None:
    shown = cli(db, "serve", "--help")
    assert "127.0.0.1" in shown.output
