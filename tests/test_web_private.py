"""Private until published (DESIGN principle 14; issue 32, break 5): every read route's gate.

Before publication, each read route of the application (walked from the app
itself, so that a route added without a gate fails here) answers nothing of
an event's match without a token that reaches it: 404, the same words as for a
match that does not exist, so a private match's id does not leak.  With a token
that reaches the match it is served.  Publication opens the spectators'
surfaces and the record, never the director's desk or console; ``publish
--off`` closes them again, a match stream already open included.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from starlette.routing import Mount, Route
from starlette.testclient import TestClient

from bgledger.service import Ledger
from bgledger.web import create_app
from bgledger.web.reads import READER_COOKIE, READS
from tests.served import serving
from tests.webclient import bare_client, bearer

EVENT = "Open 2026"
LINES = ["opening 3 1", "move 8/5 6/5", "roll 6 4"]


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 3, match_id="final", event=EVENT, by="kim")
    ledger.start(("Cy", "Di"), 3, match_id="loose", by="kim")  # in no event
    for line in LINES:
        ledger.record_line("final", line, by="kim")
    yield ledger
    ledger.close()


@pytest.fixture
def client(ledger: Ledger) -> TestClient:
    """The app carrying no token: each test says which token it reads with."""
    return bare_client(ledger)


@pytest.fixture
def tokens(ledger: Ledger) -> dict[str, str]:
    return {
        "director": ledger.issue_token("director", event=EVENT, label="Dana"),
        "scorekeeper": ledger.issue_token("scorekeeper", match_id="final", label="pad"),
        "other": ledger.issue_token("scorekeeper", match_id="loose", label="loose pad"),
        "committee": ledger.issue_token("committee", label="committee"),
    }


# each route's address on the match "final" of EVENT (a route missing here fails the walk)
ADDRESSES = {
    "/matches/{match_id}.mat": "/matches/final.mat",
    "/matches/{match_id}": "/matches/final",
    "/matches/{match_id}/live": "/matches/final/live",
    "/matches/{match_id}/pad": "/matches/final/pad",
    "/matches/{match_id}/board.svg": "/matches/final/board.svg",
    "/api/matches/{match_id}": "/api/matches/final",
    "/api/matches/{match_id}/events": "/api/matches/final/events",
    "/api/matches/{match_id}/rulings": "/api/matches/final/rulings?event=2",
    "/matches/{match_id}/replay": "/matches/final/replay",
    "/matches/{match_id}/replay/step": "/matches/final/replay/step?at=2",
    "/matches/{match_id}/packet": "/matches/final/packet",
    "/matches/{match_id}/scoresheet": "/matches/final/scoresheet",
    "/events/{event:path}/wall": "/events/Open%202026/wall",
    "/events/{event:path}/wall/standings": "/events/Open%202026/wall/standings",
    "/api/events/{event:path}/wall/events": "/api/events/Open%202026/wall/events",
    "/matches/{match_id}/watch": "/matches/final/watch",
    "/matches/{match_id}/watch/live": "/matches/final/watch/live",
    "/matches/{match_id}/embed": "/matches/final/embed",
    "/matches/{match_id}/embed/live": "/matches/final/embed/live",
    "/matches/{match_id}/board/{n}.svg": "/matches/final/board/2.svg",
    "/director": "/director",
    "/director/live": "/director/live",
    "/director/cards/{match_id}": "/director/cards/final",
    "/director/standings": "/director/standings",
    "/events/{event:path}/director/standings": "/events/Open%202026/director/standings",
    "/events/{event:path}/director/live": "/events/Open%202026/director/live",
    "/events/{event:path}/director/cards/{match_id}": "/events/Open%202026/director/cards/final",
    "/events/{event:path}/director": "/events/Open%202026/director",
    "/api/director/events": "/api/director/events",
    "/api/events/{event:path}/events": "/api/events/Open%202026/events",
    "/matches/{match_id}/desk": "/matches/final/desk",
    "/matches/{match_id}/desk/history": "/matches/final/desk/history",
}
STREAMS = {p for p, read in READS.items() if read.stream}
DESK = {p for p, read in READS.items() if read.shows in ("desk", "console")}
SPECTATORS = {
    "/events/{event:path}/wall",
    "/events/{event:path}/wall/standings",
    "/api/events/{event:path}/wall/events",
}
"""Routes open to spectators only once published (a token before it does not open them)."""
WHOLE_LEDGER = {"/director", "/director/live", "/director/standings", "/api/director/events",
                "/director/cards/{match_id}"}  # fmt: skip
"""The console of every match: the committee's (an event's director has his event's)."""


def read_routes() -> list[str]:
    """Every GET route of the application that shows something of a match or an event."""
    app = create_app(Ledger("sqlite:///:memory:"))
    found = []
    for route in app.routes:
        if isinstance(route, Mount) or not isinstance(route, Route):
            continue
        if "GET" in (route.methods or ()) and READS[route.path].shows not in (
            "open",
            "list",
            "write",
        ):
            found.append(route.path)
    return found


ROUTES = read_routes()


def get(client: TestClient, route: str, token: str | None = None, cookie: bool = False) -> int:
    """The status of ``route`` read (a stream: its first answer, then closed)."""
    address = ADDRESSES[route]
    headers = bearer(token) if token and not cookie else {}
    if cookie and token:
        client.cookies.set(READER_COOKIE, token)
    try:
        if route in STREAMS:
            return _opens(client, address, headers)
        return int(client.get(address, headers=headers, follow_redirects=False).status_code)
    finally:
        client.cookies.clear()


def _opens(client: TestClient, address: str, headers: dict[str, str]) -> int:
    """The status a stream opens with (it is closed at once)."""
    with client.stream("GET", address, headers=headers) as answer:
        return int(answer.status_code)


def test_every_read_route_is_declared_and_addressed() -> None:
    assert set(ROUTES) == set(ADDRESSES), "a read route with no address in this test"
    assert len(ROUTES) >= 30


@pytest.mark.parametrize("route", ROUTES)
def test_before_publication_nothing_answers_without_a_token(
    client: TestClient, route: str, tokens: dict[str, str]
) -> None:
    answer = client.get(ADDRESSES[route], follow_redirects=False)  # a stream refused: no stream
    assert answer.status_code == 404
    text = answer.text
    assert "Ann" not in text and "8/5" not in text
    assert get(client, route, tokens["other"]) == 404  # another match's token reaches nothing


def test_an_unknown_match_and_a_private_one_answer_alike(client: TestClient) -> None:
    private = client.get("/api/matches/final")
    unknown = client.get("/api/matches/nosuch")
    assert private.status_code == unknown.status_code == 404
    assert private.json()["error"] == unknown.json()["error"].replace("nosuch", "final")
    assert "private until its event is published" in private.json()["error"]


@pytest.mark.parametrize("route", ROUTES)
def test_a_token_that_reaches_the_match_reads_it(
    client: TestClient, route: str, tokens: dict[str, str]
) -> None:
    if route in SPECTATORS:  # the wall is the spectators': 403 "not public" until published
        assert get(client, route, tokens["director"]) in (200, 403)
        return
    token = tokens["committee"] if route in WHOLE_LEDGER else tokens["director"]
    assert get(client, route, token) in (200, 303), route
    if route not in DESK | SPECTATORS:
        assert get(client, route, tokens["scorekeeper"]) in (200, 303), route
    else:  # the desk and the console are never the scorekeeper's
        assert get(client, route, tokens["scorekeeper"]) == 404, route


def test_a_browser_reads_with_the_cookie_its_page_script_sets(
    client: TestClient, tokens: dict[str, str]
) -> None:
    refused = client.get("/matches/final", headers={"Accept": "text/html"})
    assert refused.status_code == 404
    assert "/static/reader.js" in refused.text  # the page's script sends the kept token
    assert get(client, "/matches/{match_id}", tokens["scorekeeper"], cookie=True) == 200
    assert get(client, "/matches/{match_id}.mat", tokens["scorekeeper"], cookie=True) == 200


def test_the_cookie_reads_but_never_writes(client: TestClient, tokens: dict[str, str]) -> None:
    client.cookies.set(READER_COOKIE, tokens["scorekeeper"])
    answer = client.post("/api/matches/final/lines", json={"line": "move 24/18 13/9"})
    assert answer.status_code == 401
    assert len(client.get("/api/matches/final").json()["board"]) > 0


def test_a_revoked_token_reads_nothing(
    client: TestClient, ledger: Ledger, tokens: dict[str, str]
) -> None:
    assert (
        client.get("/api/matches/final", headers=bearer(tokens["scorekeeper"])).status_code == 200
    )
    ledger.revoke_token("pad")
    assert (
        client.get("/api/matches/final", headers=bearer(tokens["scorekeeper"])).status_code == 401
    )


def test_the_list_shows_only_what_its_reader_may_read(
    client: TestClient, ledger: Ledger, tokens: dict[str, str]
) -> None:
    assert "final" not in client.get("/").text and "loose" not in client.get("/").text
    mine = client.get("/", headers=bearer(tokens["other"])).text
    assert "loose" in mine and "final" not in mine
    ledger.publish(EVENT, on=True, by="Dana")
    opened = client.get("/").text
    assert "final" in opened and "loose" not in opened


@pytest.mark.parametrize("route", ROUTES)
def test_publication_opens_the_record_and_spectators_never_the_desk(
    client: TestClient, ledger: Ledger, route: str
) -> None:
    ledger.publish(EVENT, on=True, by="Dana")
    if route in DESK:
        assert get(client, route) == 404, route
    else:
        assert get(client, route) == 200, route
    ledger.publish(EVENT, on=False, by="Dana")
    assert get(client, route) == 404, route


def test_a_match_in_no_event_is_its_tokens_only(
    client: TestClient, ledger: Ledger, tokens: dict[str, str]
) -> None:
    ledger.publish(EVENT, on=True, by="Dana")
    assert client.get("/matches/loose.mat").status_code == 404
    assert client.get("/matches/loose.mat", headers=bearer(tokens["other"])).status_code == 200


def test_publish_off_ends_an_open_stream(ledger: Ledger, tokens: dict[str, str]) -> None:
    ledger.publish(EVENT, on=True, by="Dana")
    stream, pad_headers = "/api/matches/final/events?since=0", bearer(tokens["scorekeeper"])
    with (
        serving(ledger) as base,
        httpx.Client(base_url=base, timeout=10) as http,
        http.stream("GET", stream) as spectator,
        http.stream("GET", stream, headers=pad_headers) as pad,
    ):
        assert spectator.status_code == pad.status_code == 200
        lines = spectator.iter_lines()
        assert any(line.startswith("id: 3") for line in _until(lines, "id: 3"))
        ledger.publish(EVENT, on=False, by="Dana")
        rest = list(lines)  # the stream ends: the iteration stops
        assert "event: withdrawn" in rest
        assert http.get("/api/matches/final/events").status_code == 404
        ledger.record_line("final", "move 24/18 13/9", by="kim")
        assert any(line.startswith("id: 4") for line in _until(pad.iter_lines(), "id: 4"))


def _until(lines: Iterator[str], wanted: str) -> Iterator[str]:
    for line in lines:
        yield line
        if line.startswith(wanted):
            return


def test_readers_arriving_together_ask_the_front_door_once(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """200 spectators' pages opening at once (a server restarted, every page reconnecting) ask
    whether the match may be read once, not once each: each asking took a thread and a
    database connection (issue 34: under load, past the open-files limit, 503s)."""
    ledger.publish(EVENT, on=True, by="Dana")
    asked: list[str] = []
    may_read = ledger.may_read

    def slow_may_read(match_id: str, *args: Any, **kwargs: Any) -> bool:
        asked.append(match_id)
        time.sleep(0.2)  # a busy database: every reader arrives while it is asked
        return may_read(match_id, *args, **kwargs)

    monkeypatch.setattr(ledger, "may_read", slow_may_read)
    app = create_app(ledger)

    async def together() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            answers = await asyncio.gather(*(http.get("/api/matches/final") for _ in range(200)))
        return [answer.status_code for answer in answers]

    assert asyncio.run(asyncio.wait_for(together(), 60)) == [200] * 200
    assert asked == ["final"]
