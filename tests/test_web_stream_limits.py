"""The live streams are bounded (issue 25): per client, in all, in idle time; errors logged once.

Streams are driven as raw ASGI calls (as in ``test_web_live``), each from a
client address of its own choosing; the server under a lowered open-files
limit is ``test_web_stream_flood``.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from bgledger.web import create_app
from bgledger.web.streams import OnceAMinute, StreamLimits, raise_open_files
from tests.webclient import bearer, committee


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", by="kim")
    yield ledger
    ledger.close()


class Opened:
    """A ``GET`` of a stream from ``client``, held open until :meth:`close`."""

    def __init__(self, app: Any, path: str, client: str, headers: dict[str, str]) -> None:
        self.status = 0
        self.headers: dict[str, str] = {}
        self.body = b""
        self.started = asyncio.Event()
        self._gone = asyncio.Event()
        raw = [(b"host", b"test")] + [(k.lower().encode(), v.encode()) for k, v in headers.items()]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": raw,
            "client": (client, 1),
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
            self.headers = {k.decode().lower(): v.decode() for k, v in message["headers"]}
            self.started.set()
        elif message["type"] == "http.response.body":
            self.body += message.get("body", b"")

    async def close(self) -> None:
        self._gone.set()
        await asyncio.wait_for(self.task, 5)


async def _open(
    app: Any,
    client: str,
    path: str = "/api/matches/final/events",
    read: dict[str, str] | None = None,
) -> Opened:
    """A stream opened; ``read``: the headers that read it (a token that reaches it)."""
    opened = Opened(app, path, client, read or {})
    await asyncio.wait_for(opened.started.wait(), 5)
    return opened


def test_past_a_clients_cap_and_the_servers_a_stream_is_refused_429_with_retry_after(
    ledger: Ledger,
) -> None:
    limits = StreamLimits(per_client=2, total=3, retry_after=7)
    app = create_app(ledger, poll_seconds=0.01, streams=limits)
    read = bearer(committee(ledger))

    async def scenario() -> None:
        first = [await _open(app, "10.0.0.1", read=read) for _ in range(2)]
        assert [o.status for o in first] == [200, 200]
        third = await _open(app, "10.0.0.1", read=read)  # this client's cap
        await asyncio.wait_for(third.task, 5)
        assert third.status == 429
        assert third.headers["retry-after"] == "7"
        assert third.headers["connection"] == "close"
        assert b"this address holds 2 live streams" in third.body
        other = await _open(app, "10.0.0.2", "/api/events/open/events", read)  # the director's too
        assert other.status == 200
        refused = await _open(app, "10.0.0.3", read=read)  # the server's cap
        await asyncio.wait_for(refused.task, 5)
        assert refused.status == 429
        assert b"the server holds 3 live streams" in refused.body
        await first[0].close()  # a place given back
        again = await _open(app, "10.0.0.3", read=read)
        assert again.status == 200
        for opened in (first[1], other, again):
            await opened.close()

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_an_idle_stream_ends_and_a_reconnect_resumes_after_last_event_id(ledger: Ledger) -> None:
    limits = StreamLimits(idle_seconds=0.2, keepalive_seconds=0.05)
    app = create_app(ledger, poll_seconds=0.01, streams=limits)
    ledger.record_line("final", "opening 3 1", by="kim")
    ledger.record_line("final", "move 8/5 6/5", by="kim")
    read = bearer(committee(ledger))

    async def scenario() -> tuple[bytes, bytes]:
        idle = await _open(app, "10.0.0.1", read=read)
        await asyncio.wait_for(idle.task, 5)  # ended by itself: nothing but keep-alives
        path = "/api/matches/final/events"
        resumed = Opened(app, path, "10.0.0.1", {"Last-Event-ID": "1", **read})
        await asyncio.wait_for(resumed.task, 5)  # it too ends once idle, after the news
        return idle.body, resumed.body

    idle, resumed = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert b"keep-alive" in idle and b"event: recorded" not in idle
    ids = [line for line in resumed.decode().splitlines() if line.startswith("id: ")]
    assert ids == [f"id: {n}" for n in range(2, ledger.state("final").events + 1)]


def test_the_same_error_is_logged_once_a_minute_with_a_count() -> None:
    logger = logging.getLogger("tests.repeated")
    once = OnceAMinute(60)
    logger.addFilter(once)
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep()
    logger.addHandler(keep)
    try:
        for _ in range(1000):
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                logger.exception("socket.accept() out of system resource")
        logger.error("another error")
    finally:
        logger.removeHandler(keep)
        logger.removeFilter(once)
    assert [r.getMessage() for r in records] == [
        "socket.accept() out of system resource",
        "another error",
    ]


def test_serve_raises_the_open_files_soft_limit_to_the_hard_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 1024:
        pytest.skip(f"the hard limit is {hard}: nothing to raise to")
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
    try:
        said = raise_open_files()
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (hard, hard)
        assert said is None or "limited to" in said
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
