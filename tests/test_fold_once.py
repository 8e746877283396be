"""One change, worked out once (issue 31, item 6): a recorded line is folded once, whoever watches.

A server in-process with every watcher a venue has open on one match: the
scorekeeper's pad (its live stream, and the refetch of its live part after
each answer, as ``pad.js`` does), a spectator's match stream, the director's
console, the event's wall.  The read models are read (the console and the wall
read them).  Each line posted must cost one fold of the events it recorded
(:data:`bgledger.projections.state.fold.FOLDED` counts every event folded), not
one more per watcher; and every watcher must still hear it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from bgledger.cli.web_commands import CACHE_SIZE
from bgledger.projections.state.fold import FOLDED
from bgledger.service import Ledger
from bgledger.web import create_app
from tests.test_web_live import WITHIN, Stream
from tests.webclient import committee, reading

LINES = ["move 8/5 6/5", "roll 6 4", "move 24/18 13/9", "double", "take", "roll 5 2"]
"""Bob's turn after Ann's opening 3-1 played: each line records one event."""
PAGES = ["/matches/m1/live?from=a", "/matches/m1/live?ids=1", "/matches/m1/watch/live"]
"""The live parts the pad, the match page and the spectator's page refetch."""


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}", cache_size=CACHE_SIZE)
    yield ledger
    ledger.close()


async def _watched(app: Any, token: str, director: str) -> tuple[list[int], dict[str, list[Any]]]:
    """Post :data:`LINES` with every watcher open: the events folded for each line, and what
    each watcher heard (``director``: the console's token; the event is published)."""
    watchers = {
        "pad": Stream(app, "/api/matches/m1/events", token=token),
        "spectator": Stream(app, "/api/matches/m1/events"),
        "console": Stream(app, "/api/events/Open/events", token=director),
        "wall": Stream(app, "/api/events/Open/wall/events"),
    }
    for stream in watchers.values():
        await asyncio.wait_for(stream.chunks.get(), WITHIN)  # open
    kinds = {"pad": "recorded", "spectator": "recorded", "console": "changes", "wall": "card"}
    heard: dict[str, list[Any]] = {name: [] for name in watchers}
    folded: list[int] = []
    loop = asyncio.get_running_loop()
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://test") as client:
        for line in LINES:
            before = FOLDED.events
            answer = await client.post(
                "/api/matches/m1/lines",
                json={"line": line},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.status_code == 201, answer.json()
            refetched = await client.get(PAGES[0])  # the pad draws the answer
            assert refetched.status_code == 200
            for name, stream in watchers.items():
                heard[name].append(await stream.events(loop.time() + WITHIN, kinds[name]))
            for page in PAGES[1:]:  # live.js and watch.js refetch after news
                assert (await client.get(page)).status_code == 200
            folded.append(FOLDED.events - before)
        for page in PAGES:  # as drawn from the news the hub went on from
            heard.setdefault("pages", []).append((await client.get(page)).text)
    for stream in watchers.values():
        await stream.close()
    return folded, heard


def test_a_line_is_folded_once_whoever_watches(ledger: Ledger) -> None:
    ledger.start(("Ann", "Bob"), 7, match_id="m1", event="Open", table="1", by="kim")
    ledger.record_line("m1", "opening 3 1", by="kim")
    ledger.publish("Open", by="the director")
    token = ledger.issue_token("scorekeeper", match_id="m1")
    app = create_app(ledger, poll_seconds=0.02)
    ledger.matches()  # the read models made and caught up, as a running server has them

    folded, heard = asyncio.run(_watched(app, token, committee(ledger)))

    numbers = [[event["number"] for event in got] for got in heard["pad"]]
    assert numbers == [[n] for n in range(4, 4 + len(LINES))]  # each line, heard once
    assert heard["spectator"] == heard["pad"]
    assert heard["pad"][-1][0]["match"]["dice"] == [5, 2]
    assert all(got and got[-1]["tables"][0]["id"] == "m1" for got in heard["console"])
    assert all(got and got[-1]["match"] == "m1" for got in heard["wall"])
    assert "double offered" in heard["wall"][3][-1]["cube"]
    # the pages drawn from the hub's news are those drawn from the events by a server that
    # follows nothing
    fresh = reading(TestClient(create_app(ledger)), ledger)
    assert heard["pages"] == [fresh.get(page).text for page in PAGES]
    # the read models went on from the recorded states: verify refolds every row and agrees
    ledger.matches()
    assert all(verdict.ok for verdict in ledger.verify()), ledger.verify()
    assert folded == [1] * len(LINES)  # one event a line, folded once


def test_another_servers_line_is_followed_from_the_events(ledger: Ledger, tmp_path: Path) -> None:
    """A line another process records (a second server on the database) reaches every watcher
    from the log, read and folded there; nothing this process kept hides it."""
    ledger.start(("Ann", "Bob"), 7, match_id="m1", event="Open", table="1", by="kim")
    ledger.record_line("m1", "opening 3 1", by="kim")
    ledger.publish("Open", by="the director")
    token = ledger.issue_token("scorekeeper", match_id="m1")
    app = create_app(ledger, poll_seconds=0.02)
    other = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}", cache_size=CACHE_SIZE)

    async def scenario() -> tuple[list[Any], list[Any], list[Any], str]:
        pad = Stream(app, "/api/matches/m1/events", token=committee(ledger))
        console = Stream(app, "/api/events/Open/events", token=committee(ledger))
        wall = Stream(app, "/api/events/Open/wall/events", token=committee(ledger))
        for stream in (pad, console, wall):
            await asyncio.wait_for(stream.chunks.get(), WITHIN)
        loop = asyncio.get_running_loop()
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as client:
            answer = await client.post(
                "/api/matches/m1/lines",
                json={"line": "move 8/5 6/5"},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.status_code == 201
            heard = [await pad.events(loop.time() + WITHIN)]
            await asyncio.to_thread(other.record_line, "m1", "roll 6 4", by="the other server")
            heard.append(await pad.events(loop.time() + WITHIN))
            changes = await console.events(loop.time() + WITHIN, "changes")
            changes += await console.events(loop.time() + 1, "changes")
            cards = await wall.events(loop.time() + WITHIN, "card")
            cards += await wall.events(loop.time() + 1, "card")
            live = (await client.get("/matches/m1/live?from=a")).text
        for stream in (pad, console, wall):
            await stream.close()
        return heard, changes, cards, live

    try:
        heard, changes, cards, live = asyncio.run(scenario())
    finally:
        other.close()
    assert [[event["number"] for event in got] for got in heard] == [[4], [5]]
    assert heard[1][0]["match"]["dice"] == [6, 4]
    assert "the other server" in heard[1][0]["line"]
    assert (cards[-1]["events"], cards[-1]["last"]) == (5, "Bob rolled 6-4")
    assert [table["events"] for change in changes for table in change["tables"]][-1] == 5
    assert "the other server" in live  # the pad's refetch shows it
    assert ledger.matches(ids=["m1"])[0]["events"] == 5
