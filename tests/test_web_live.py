"""A page following a match live: a line posted by a pad reaches an open event stream.

The stream (``GET /api/matches/MATCH/events``, server-sent events) is driven
as a raw ASGI call, so that it stays open while a pad posts through httpx's
ASGI transport in the same event loop; the wait is bounded, never a sleep.
The bound is generous (a loaded CI machine): issue 16's target, within one
second, is measured by ``bench/bench_web.py`` (about 0.26 s), not timed here.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from bgledger.service import Ledger
from bgledger.web import create_app
from tests.conftest import unique_id
from tests.webclient import committee

WITHIN = 10.0
"""Seconds to wait for a posted line on an open stream before calling it lost (the one-second
target is bench_web.py's)."""


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", by="kim")
    yield ledger
    ledger.close()


@pytest.fixture
def any_store(store_url: str) -> Iterator[tuple[Ledger, str]]:
    """A ledger on SQLite, then on PostgreSQL (shared: a match id of its own)."""
    ledger = Ledger(store_url)
    match_id = unique_id("live")
    ledger.start(("Ann", "Bob"), 5, match_id=match_id, by="kim")
    yield ledger, match_id
    ledger.close()


class Stream:
    """An open ``GET`` on the app, its body read chunk by chunk as the server sends it."""

    def __init__(self, app: Any, path: str, query: str = "", token: str | None = None) -> None:
        """``token``: sent as ``Authorization: Bearer`` (what reads a match before its event is
        published: DESIGN principle 14)."""
        self.chunks: asyncio.Queue[bytes] = asyncio.Queue()
        self.status = 0
        self.headers: dict[str, str] = {}
        self._gone = asyncio.Event()
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "headers": [(b"host", b"test")]
            + ([(b"authorization", f"Bearer {token}".encode())] if token else []),
            "client": ("test", 1),
            "server": ("test", 80),
            "root_path": "",
        }
        self.task = asyncio.create_task(app(scope, self._receive, self._send))

    async def _receive(self) -> dict[str, Any]:
        await self._gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            await self.chunks.put(message.get("body", b""))

    async def events(self, deadline: float, kind: str = "recorded") -> list[dict[str, Any]]:
        """The ``kind`` events received by the loop's time ``deadline`` (or once some came)."""
        loop = asyncio.get_running_loop()
        text = ""
        while loop.time() < deadline:
            try:
                chunk = await asyncio.wait_for(self.chunks.get(), deadline - loop.time())
            except TimeoutError:
                break
            text += chunk.decode()
            if text.endswith("\n\n") and f"event: {kind}" in text:
                break
        found = []
        for block in text.split("\n\n"):
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if fields.get("event") == kind:
                found.append(json.loads(fields["data"]))
        return found

    async def close(self) -> None:
        self._gone.set()
        await asyncio.wait_for(self.task, 5)


async def _follow_a_posted_line(
    ledger: Ledger, match_id: str
) -> tuple[list[dict[str, Any]], float, Stream]:
    app = create_app(ledger)
    token = ledger.issue_token("scorekeeper", match_id=match_id)
    stream = Stream(app, f"/api/matches/{match_id}/events", token=committee(ledger))
    loop = asyncio.get_running_loop()
    await asyncio.wait_for(stream.chunks.get(), WITHIN)  # the stream is open
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://test") as pad:
        posted = loop.time()
        response = await pad.post(
            f"/api/matches/{match_id}/lines",
            json={"line": "opening 3 1"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 201
    events: list[dict[str, Any]] = []
    while len(events) < 2 and loop.time() < posted + WITHIN:
        events += await stream.events(posted + WITHIN)
    return events, loop.time() - posted, stream


def test_a_posted_line_reaches_an_open_stream(
    any_store: tuple[Ledger, str],
) -> None:
    ledger, match_id = any_store

    async def scenario() -> tuple[list[dict[str, Any]], float, Stream]:
        events, took, stream = await _follow_a_posted_line(ledger, match_id)
        await stream.close()
        return events, took, stream

    events, took, stream = asyncio.run(scenario())
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert [event["number"] for event in events] == [2, 3], f"after {took:.2f}s"
    assert "opening roll: Ann 3, Bob 1: Ann plays first" in events[1]["line"]
    assert events[1]["match"]["turn"] == "a"  # the show document after the event
    assert events[1]["match"]["events"] == 3


def test_a_stream_resumes_after_the_event_it_last_saw(ledger: Ledger) -> None:
    """A reconnecting page (``since=N``, or the browser's ``Last-Event-ID``) misses nothing."""
    ledger.record_line("final", "opening 3 1", by="kim")
    ledger.record_line("final", "move 8/5 6/5", by="kim")

    async def scenario() -> list[dict[str, Any]]:
        stream = Stream(
            create_app(ledger), "/api/matches/final/events", "since=3", token=committee(ledger)
        )
        loop = asyncio.get_running_loop()
        events = await stream.events(loop.time() + WITHIN)
        await stream.close()
        return events

    events = asyncio.run(scenario())
    assert [event["number"] for event in events] == [4]
    assert "Ann played 8/5 6/5" in events[0]["line"]


def test_a_stream_of_an_unknown_match_is_404(ledger: Ledger) -> None:
    async def scenario() -> int:
        stream = Stream(create_app(ledger), "/api/matches/nope/events", token=committee(ledger))
        await asyncio.wait_for(stream.task, 5)
        return stream.status

    assert asyncio.run(scenario()) == 404
