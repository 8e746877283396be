"""Starting a match from the browser: ``POST /api/matches`` and the form ``/matches/new``.

In-process, through Starlette's TestClient on a SQLite file, as the director's
phone would: the statuses a director, the committee, a scorekeeper and a
stranger get, what is stored (the match, recorded by the token's label, and
a scorekeeper's token that records in it and nowhere else), and that every
refusal leaves the ledger as it was: no match, no token.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bgledger.service import Ledger
from tests.webclient import post

HOSTILE = '<script>alert("x")</script>'
MATCH = {"a": "Ann", "b": "Bob", "length": 7, "event": "Open", "id": "r1t4"}


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Cy", "Di"), 5, match_id="side", event="Open", by="kim")
    yield ledger
    ledger.close()


@pytest.fixture
def director(ledger: Ledger) -> str:
    return ledger.issue_token("director", event="Open", label="Dora the director")


def start(client: TestClient, token: str | None, body: Any = None, **fields: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post("/api/matches", json={**MATCH, **fields} if body is None else body,
                       headers=headers)  # fmt: skip


def stored(ledger: Ledger, tmp_path: Path) -> tuple[list[str], int]:
    """The matches and the number of tokens in the ledger (what a refusal must not change)."""
    with sqlite3.connect(tmp_path / "ledger.db") as connection:
        try:
            (tokens,) = connection.execute("SELECT count(*) FROM bgledger_tokens").fetchone()
        except sqlite3.OperationalError:  # no token was ever issued: no table
            tokens = 0
    return ledger.match_ids(), tokens


# -- 201 ---------------------------------------------------------------------------------------


def test_a_director_starts_a_match_of_his_event_and_gets_its_pad(
    client: TestClient, ledger: Ledger, director: str
) -> None:
    answer = start(client, director, round="3", table="4", scorekeeper="Sam at table 4")
    assert answer.status_code == 201, answer.text
    body = answer.json()
    # show --json, which also says where an imported match came from (this one: recorded here)
    assert {**body["match"], "provenance": None} == client.get("/api/matches/r1t4").json()
    assert body["match"]["players"] == {"a": "Ann", "b": "Bob"}
    assert body["match"]["length"] == 7
    assert answer.headers["location"] == "/matches/r1t4"
    assert body["pad"] == f"/matches/r1t4/pad#token={body['token']}"
    state = ledger.state("r1t4")
    assert (state.event, state.round, state.table) == ("Open", "3", "4")
    # the match was started by the director; the pad's token records as the scorekeeper
    assert ledger.history("r1t4")[0].recorded_by == "Dora the director"
    rolled = post(client, "r1t4", "opening 3 1", body["token"])
    assert rolled.status_code == 201, rolled.text
    assert rolled.json()["recorded"][0]["by"] == "Sam at table 4"
    # ... in that match only
    assert post(client, "side", "opening 3 1", body["token"]).status_code == 403
    assert len(ledger.events("side")) == 1


def test_the_pad_address_opens_the_pad(client: TestClient, director: str) -> None:
    pad = start(client, director).json()["pad"]
    page = client.get(pad.split("#")[0])
    assert page.status_code == 200
    assert "Ann" in page.text and "pad.js" in page.text


def test_without_an_id_the_match_gets_one_and_a_clock_as_start_sets_it(
    client: TestClient, ledger: Ledger, director: str
) -> None:
    answer = start(client, director, id=None, clock="simple-delay", reserve="9:00", delay=12)
    assert answer.status_code == 201, answer.text
    match = answer.json()["match"]
    assert match["match_id"] in ledger.match_ids() and match["match_id"] != "r1t4"
    assert match["clock"]["reserve_ms"] == {"a": 540_000, "b": 540_000}
    assert match["clock"]["delay_ms"] == 12_000  # USBGF 3.5.5


def test_the_committee_starts_a_match_of_any_event(client: TestClient, ledger: Ledger) -> None:
    committee = ledger.issue_token("committee")
    answer = start(client, committee, event="Seniors")
    assert answer.status_code == 201, answer.text
    assert ledger.state("r1t4").event == "Seniors"


# -- refusals: nothing stored ------------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_no_token_or_an_unknown_one_is_401(
    client: TestClient, ledger: Ledger, tmp_path: Path, token: str | None
) -> None:
    before = stored(ledger, tmp_path)
    answer = start(client, token)
    assert answer.status_code == 401
    assert answer.headers["www-authenticate"] == "Bearer"
    assert "bgledger token" in answer.json()["error"]
    assert stored(ledger, tmp_path) == before


def test_a_revoked_directors_token_is_401(
    client: TestClient, ledger: Ledger, director: str
) -> None:
    ledger.revoke_token(director)
    assert start(client, director).status_code == 401
    assert ledger.match_ids() == ["side"]


@pytest.mark.parametrize(
    ("role", "scope"),
    [
        ("director", {"event": "Other"}),  # another event's director
        ("director", {"match_id": "side"}),  # a director of one match starts none
        ("scorekeeper", {"match_id": "side"}),
        ("committee", {"event": "Other"}),  # an event's committee: that event's matches
    ],
)
def test_a_token_for_another_event_or_one_match_is_403(
    client: TestClient, ledger: Ledger, tmp_path: Path, role: str, scope: dict[str, str]
) -> None:
    token = ledger.issue_token(role, **scope)
    before = stored(ledger, tmp_path)
    answer = start(client, token)
    assert answer.status_code == 403
    error = answer.json()["error"]
    if "match_id" in scope:  # a token that starts no match: refused before its body is read
        assert "starts no match" in error
    else:
        assert "'Open'" in error  # the event it asked for
    assert stored(ledger, tmp_path) == before


@pytest.mark.parametrize(
    ("body", "quoted"),
    [
        (["Ann", "Bob", 7], "JSON object"),
        ({"a": "Ann", "length": 7, "event": "Open"}, "give b"),
        ({**MATCH, "length": "7"}, "length '7'"),
        ({**MATCH, "length": True}, "length True"),
        ({**MATCH, "length": 0}, "match length 0"),
        ({**MATCH, "colour": "red"}, "'colour'"),
        ({**MATCH, "b": "ann"}, "'Ann'"),
        ({**MATCH, "id": "no spaces"}, "'no spaces'"),
        ({**MATCH, "profile": "fibs"}, "fibs"),
        ({**MATCH, "clock": "hourglass"}, "'hourglass'"),
        ({**MATCH, "reserve": "9:00"}, "USBGF 3.5.5"),  # a reserve, but no clock
        ({**MATCH, "clock": "simple-delay", "reserve": "nine"}, "'nine'"),
        ({**MATCH, "clock": "simple-delay", "delay": 20}, "USBGF 3.5.5"),  # 12-15 s
    ],
)
def test_a_setup_that_describes_no_match_is_400(
    client: TestClient,
    ledger: Ledger,
    director: str,
    tmp_path: Path,
    body: Any,
    quoted: str,
) -> None:
    before = stored(ledger, tmp_path)
    answer = start(client, director, body=body)
    assert answer.status_code == 400, answer.text
    assert quoted in answer.json()["error"]
    assert stored(ledger, tmp_path) == before


def test_a_body_that_is_not_json_is_400_and_another_type_415(
    client: TestClient, director: str
) -> None:
    headers = {"Authorization": f"Bearer {director}", "Content-Type": "application/json"}
    assert client.post("/api/matches", content="{a", headers=headers).status_code == 400
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    assert client.post("/api/matches", content="a=Ann", headers=headers).status_code == 415


def test_an_id_taken_is_409_and_the_match_stays_as_it_was(
    client: TestClient, ledger: Ledger, director: str, tmp_path: Path
) -> None:
    before = stored(ledger, tmp_path)
    answer = start(client, director, id="side", a="Eve", b="Fay")
    assert answer.status_code == 409
    assert "'side'" in answer.json()["error"]
    assert ledger.state("side").players == ("Cy", "Di")
    assert stored(ledger, tmp_path) == before


# -- the form ----------------------------------------------------------------------------------


def test_the_index_links_the_form_and_the_form_posts_with_a_script(client: TestClient) -> None:
    assert 'href="/matches/new"' in client.get("/").text
    page = client.get("/matches/new")
    assert page.status_code == 200
    assert 'id="new-form"' in page.text
    assert "/static/new.js" in page.text
    assert "<script>" not in page.text  # CSP: no inline script
    assert client.get("/static/new.js").status_code == 200


def test_the_form_escapes_the_event_it_is_given(client: TestClient) -> None:
    page = client.get("/matches/new", params={"event": HOSTILE})
    assert HOSTILE not in page.text
    assert 'value="&lt;script&gt;alert(' in page.text
