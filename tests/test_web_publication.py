"""Over HTTP: the director opens an event's wall to spectators; a match's live ``.mat``.

``POST /api/events/E/publish`` with ``{"published": true|false}`` and the
event's director's token (401 without a token, 403 with anyone else's, 400 for
a body that says neither, 404 for an event without a match); a retry with the
first send's ``Idempotency-Key`` answers as it did and records nothing.
``GET /api/events/E/publication`` says where the wall stands, to anyone.

``GET /matches/M.mat`` is the match so far as a ``.mat`` file: a match in
progress, read back by the project's own reader and, when Debian's gnubg is
installed, by gnubg, has the games, scores, rolls and plays recorded.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bgledger.interchange.mat import read_mat
from bgledger.service import Ledger
from tests.gnubg_oracle import debian_gnubg, gnubg_matches
from tests.webclient import bearer

GAME_1 = ["opening 3 1", "move 8/5 6/5", "roll 6 4", "move 24/18 13/9", "double", "drop"]
GAME_2 = ["opening 5 2", "move 13/8 13/11", "roll 6 6", "move 24/18 24/18 13/7 13/7"]
GAME_2_ROLLED = "roll 3 1"  # Ann rolled; her play is not recorded yet


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 3, match_id="final", event="Open 2026", by="kim")
    ledger.start(("Cy", "Di"), 3, match_id="other", event="Other", by="kim")
    yield ledger
    ledger.close()


@pytest.fixture
def tokens(ledger: Ledger) -> dict[str, str]:
    return {
        "director": ledger.issue_token("director", event="Open 2026", label="Dana"),
        "other director": ledger.issue_token("director", event="Other"),
        "scorekeeper": ledger.issue_token("scorekeeper", match_id="final"),
        "committee": ledger.issue_token("committee"),
    }


PUBLISH = "/api/events/Open%202026/publish"
PUBLICATION = "/api/events/Open%202026/publication"


def publish(client: TestClient, token: str | None, published: Any, key: str = "") -> Any:
    headers = bearer(token) if token else {}
    if key:
        headers["Idempotency-Key"] = key
    return client.post(PUBLISH, json={"published": published}, headers=headers)


def test_the_wall_is_not_public_until_the_director_publishes_it(
    client: TestClient, tokens: dict[str, str]
) -> None:
    before = client.get(PUBLICATION)
    assert before.status_code == 200
    assert before.json() == {
        "event": "Open 2026",
        "published": False,
        "by": None,
        "at": None,
        "delay_seconds": 0,
    }
    opened = publish(client, tokens["director"], True)
    assert opened.status_code == 201
    answer = opened.json()
    assert answer["published"] is True and answer["recorded"] is True and answer["by"] == "Dana"
    assert answer["message"] == "event 'Open 2026' is public: its wall is open to spectators"
    assert client.get(PUBLICATION).json() == {
        "event": "Open 2026",
        "published": True,
        "by": "Dana",
        "at": answer["at"],
        "delay_seconds": 0,
    }
    again = publish(client, tokens["director"], True)
    assert again.status_code == 200 and again.json()["recorded"] is False
    assert "public already" in again.json()["message"]
    closed = publish(client, tokens["director"], False)
    assert closed.status_code == 201 and closed.json()["published"] is False
    assert client.get(PUBLICATION).json()["published"] is False


def test_no_token_is_401_and_nothing_is_recorded(client: TestClient, ledger: Ledger) -> None:
    refused = publish(client, None, True)
    assert refused.status_code == 401
    assert refused.headers["WWW-Authenticate"] == "Bearer"
    assert "bgledger token --event E --role director" in refused.json()["error"]
    assert publish(client, "not a token", True).status_code == 401
    assert ledger.publications("Open 2026") == []


@pytest.mark.parametrize("who", ["other director", "scorekeeper", "committee"])
def test_anyone_but_the_events_director_is_403(
    client: TestClient, ledger: Ledger, tokens: dict[str, str], who: str
) -> None:
    refused = publish(client, tokens[who], True)
    assert refused.status_code == 403
    assert "does not publish event 'Open 2026'" in refused.json()["error"]
    assert ledger.publications("Open 2026") == []


@pytest.mark.parametrize(
    ("body", "status"),
    [({"published": "yes"}, 400), ({"published": 1}, 400), ({}, 400), ([True], 400)],
)
def test_a_body_that_says_neither_is_400(
    client: TestClient, tokens: dict[str, str], body: Any, status: int
) -> None:
    refused = client.post(PUBLISH, json=body, headers=bearer(tokens["director"]))
    assert refused.status_code == status
    assert refused.json() == {"error": 'give published as true or false: {"published": true}'}


def test_a_form_post_is_415(client: TestClient, tokens: dict[str, str]) -> None:
    headers = bearer(tokens["director"])
    refused = client.post(PUBLISH, content=b"published=true", headers=headers)
    assert refused.status_code == 415


def test_an_event_without_a_match_is_404_naming_it(client: TestClient, ledger: Ledger) -> None:
    token = ledger.issue_token("director", event="Open 2062")
    refused = client.post(
        "/api/events/Open%202062/publish", json={"published": True}, headers=bearer(token)
    )
    assert refused.status_code == 404
    assert refused.json()["error"].startswith("event 'Open 2062': no match of it was started")


def test_a_retry_with_its_key_answers_as_the_first_send(
    client: TestClient, ledger: Ledger, tokens: dict[str, str]
) -> None:
    first = publish(client, tokens["director"], True, key="switch-1")
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    assert publish(client, tokens["director"], False).status_code == 201  # closed since
    retry = publish(client, tokens["director"], True, key="switch-1")
    assert retry.status_code == 201 and retry.headers["Idempotent-Replayed"] == "true"
    assert retry.json() == first.json()
    assert client.get(PUBLICATION).json()["published"] is False  # the retry opened nothing
    reused = publish(client, tokens["director"], False, key="switch-1")
    assert reused.status_code == 422
    assert "'switch-1' was used for 'publish'" in reused.json()["error"]
    assert len(ledger.publications("Open 2026")) == 2


# -- the match so far as a .mat file ---------------------------------------------------------


def in_progress(ledger: Ledger) -> None:
    """Game 1 won by Ann (Bob dropped her double), game 2 under way, Ann's dice rolled."""
    for line in [*GAME_1, *GAME_2, GAME_2_ROLLED]:
        ledger.record_line("final", line, by="kim")


def test_a_match_in_progress_is_served_as_a_mat_file(client: TestClient, ledger: Ledger) -> None:
    in_progress(ledger)
    served = client.get("/matches/final.mat")
    assert served.status_code == 200
    assert served.headers["content-type"] == "text/plain; charset=utf-8"
    assert served.headers["content-disposition"] == 'attachment; filename="final.mat"'
    assert served.headers["cache-control"] == "no-store"
    parsed = read_mat(served.text)
    (match,) = parsed.matches
    assert match.length == 3
    assert [(g.number, g.players, g.score) for g in match.games] == [
        (1, ("Ann", "Bob"), (0, 0)),
        (2, ("Ann", "Bob"), (1, 0)),
    ]
    said = [[(a.column, a.kind, a.dice, a.play) for a in g.actions] for g in match.games]
    assert said[0] == [
        (0, "roll", (3, 1), "8/5 6/5"),
        (1, "roll", (6, 4), "24/18 13/9"),
        (0, "double", None, None),
        (1, "drop", None, None),
        (0, "win", None, None),
    ]
    assert said[1] == [
        (0, "roll", (5, 2), "13/11 13/8"),  # as gnubg writes it: die by die
        (1, "roll", (6, 6), "24/18 24/18 13/7 13/7"),
        (0, "roll", (3, 1), ""),  # rolled, not played yet
    ]


def test_the_mat_file_follows_the_match(client: TestClient, ledger: Ledger) -> None:
    in_progress(ledger)
    ledger.record_line("final", "move 8/5 6/5", by="kim")
    (match,) = read_mat(client.get("/matches/final.mat").text).matches
    last = match.games[1].actions[-1]
    assert (last.column, last.dice, last.play) == (0, (3, 1), "8/5 6/5")


def test_the_mat_route_leaves_the_match_pages_alone(client: TestClient, ledger: Ledger) -> None:
    page = client.get("/matches/final")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    missing = client.get("/matches/nothing.mat")
    assert missing.status_code == 404
    assert "nothing to show for match &#39;nothing&#39;" in missing.text
    assert "sqlite" not in missing.text  # the database's URL stays on the server


@pytest.mark.skipif(debian_gnubg() is None, reason="Debian's gnubg is not installed")
def test_gnubg_imports_the_match_in_progress(
    client: TestClient, ledger: Ledger, tmp_path: Path
) -> None:
    in_progress(ledger)
    path = tmp_path / "final.mat"
    path.write_bytes(client.get("/matches/final.mat").content)
    (reading,) = gnubg_matches([path])
    assert reading["messages"] == []  # no warning, no unrecognised line
    info = reading["match"]["match-info"]
    assert (info["X"]["name"], info["O"]["name"], info["match-length"]) == ("Ann", "Bob", 3)
    games = reading["match"]["games"]
    assert [(g["info"]["score-X"], g["info"]["score-O"]) for g in games] == [(0, 0), (1, 0)]
    assert games[0]["info"]["winner"] == "X" and games[0]["info"]["points-won"] == 1
    assert games[1]["info"].get("winner") is None  # the game goes on
    kinds = [[(a["action"], a["player"], a.get("dice")) for a in g["game"]] for g in games]
    assert kinds[0] == [
        ("move", "X", [3, 1]),
        ("move", "O", [6, 4]),
        ("double", "X", None),
        ("drop", "O", None),
    ]
    assert kinds[1] == [("move", "X", [5, 2]), ("move", "O", [6, 6]), ("set", "X", [3, 1])]
    moves = [sorted(a["move"]) for a in games[1]["game"] if a["action"] == "move"]
    assert moves == [[[13, 8], [13, 11]], [[13, 7], [13, 7], [24, 18], [24, 18]]]
