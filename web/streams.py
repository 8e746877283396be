"""The web's live streams (server-sent events): one polling loop for every stream, and their bounds.

A stream opens with its first messages, then asks ``news`` what to send (the
messages, in the wire format of server-sent events, or none); after
:data:`KEEPALIVE_SECONDS` with nothing to send it sends a comment line, so
that proxies keep a quiet stream open.  The application's streams are fed by
its feed hub (:mod:`bgledger.web.feeds`, :meth:`Streams.follow`): their
``news`` hands over what the hub worked out once for every stream, and reads
nothing (:func:`poll` runs a ``news`` that reads the ledger itself in
Starlette's thread pool).

The streams are the match page's (``/api/matches/MATCH/events``,
:mod:`bgledger.web.app`), the director's console's
(``/api/events/EVENT/events``, :mod:`bgledger.web.director`) and the wall's
(``/api/events/EVENT/wall/events``, :mod:`bgledger.web.wall`), all fed by the
hub.

Bounded at the edge (DESIGN principle 11).  An idle stream costs an open
connection (a file descriptor) and a task, nothing more:

- :class:`Streams` asks the ledger once a tick, for every stream at once,
  whether anything was stored (:meth:`~bgledger.Ledger.last_stored`), and only
  then has the hub work out what changed; a stream asks its ``news`` only then
  (and once a keep-alive interval whatever happened);
- a client (an address) holds at most :data:`PER_CLIENT` streams, the server
  at most :data:`TOTAL` and never more than the open-files limit leaves beside
  :data:`RESERVED_FILES`; past either cap a stream is answered 429 with
  ``Retry-After`` and the connection closed;
- a stream that sent nothing but keep-alives for :data:`IDLE_SECONDS` ends;
  the browser's ``EventSource`` reconnects with ``Last-Event-ID`` (the match
  stream resumes after it).

``serve`` raises the open-files soft limit to the hard limit
(:func:`raise_open_files`) and logs an error repeated in a loop (asyncio's
``accept`` out of file descriptors) once a minute with a count
(:class:`OnceAMinute`).
"""

from __future__ import annotations

import asyncio
import logging
import resource
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlalchemy.exc
from eventsourcing.persistence import PersistenceError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

if TYPE_CHECKING:
    from bgledger.web.feeds import FeedHub, Subscription

__all__ = [
    "IDLE_SECONDS",
    "KEEPALIVE",
    "KEEPALIVE_SECONDS",
    "PER_CLIENT",
    "RESERVED_FILES",
    "RETRY_AFTER",
    "STOPPING",
    "TOTAL",
    "News",
    "OnceAMinute",
    "StreamLimits",
    "Streams",
    "client_of",
    "poll",
    "quiet_repeats",
    "raise_open_files",
    "stream_room",
]

KEEPALIVE_SECONDS = 15.0
"""A comment line on a quiet stream, so that proxies keep it open."""
KEEPALIVE = ": keep-alive\n\n"
"""The comment line."""
PER_CLIENT = 50
"""Live streams one client address may hold.  A browser opens at most 6 connections to a
server over HTTP/1.1, so one device needs a few (a page, a pad, a director's console and
wall); 50 leaves room for a venue's spectators behind one NAT address, and keeps one
client from taking the server's share of :data:`TOTAL`."""
TOTAL = 5000
"""Live streams the server holds in all.  A 1,000-table venue: a scorekeeper's pad and a
match page at every table (2,000), a few directors' consoles and walls, and about three
spectators a table on the busiest day; about 20 KB of memory each (measured: 1,200 idle
streams).  Never more than the open-files limit allows (:func:`stream_room`)."""
RESERVED_FILES = 256
"""File descriptors kept for everything but streams: the database, the normal requests,
the thread pool's connections, the log."""
IDLE_SECONDS = 600.0
"""A stream that sent nothing but keep-alives this long ends (the browser reconnects)."""
RETRY_AFTER = 30
"""Seconds a refused stream is asked to wait (``Retry-After``)."""

_log = logging.getLogger(__name__)

STOPPING = threading.Event()
"""Set when the server stops (``serve``'s Ctrl-C): every stream ends at its next poll, so the
server's graceful shutdown has no open answer to cancel (and no traceback to print)."""

News = Callable[[], Sequence[str]]
"""What a stream has to send since it last asked (server-sent event messages; none: quiet)."""


def client_of(request: Request) -> str:
    """The address a request came from (the live streams are counted by it)."""
    return request.client.host if request.client else "unknown"


def stream_room(total: int = TOTAL) -> int:
    """``total``, or fewer: what the open-files soft limit leaves beside :data:`RESERVED_FILES`."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return total
    return max(1, min(total, soft - RESERVED_FILES))


@dataclass(frozen=True, slots=True)
class StreamLimits:
    """The bounds of the live streams (:data:`PER_CLIENT`, :data:`TOTAL`, :data:`IDLE_SECONDS`)."""

    per_client: int = PER_CLIENT
    total: int = TOTAL
    idle_seconds: float = IDLE_SECONDS
    retry_after: int = RETRY_AFTER
    keepalive_seconds: float = KEEPALIVE_SECONDS


class Streams:
    """The live streams of one application: who holds how many, and the ledger's one clock.

    ``stored`` is the ledger's :meth:`~bgledger.Ledger.last_stored` (None: ask
    every stream's news every tick); ``poll_seconds`` how often it is asked.
    """

    def __init__(
        self,
        limits: StreamLimits,
        stored: Callable[[], int] | None,
        poll_seconds: float,
        hub: FeedHub | None = None,
    ) -> None:
        self.limits = limits
        self.poll_seconds = poll_seconds
        self.held: dict[str, int] = {}
        self.hub = hub
        self._stored = stored
        self._last = 0
        self._asked = float("-inf")
        self._lock = asyncio.Lock()

    @property
    def total(self) -> int:
        """Streams open now."""
        return sum(self.held.values())

    async def moved(self) -> int:
        """The ledger's last stored event, asked at most once a tick for every stream."""
        if self._stored is None:
            return self._last + 1  # always moved: every stream asks its news
        async with self._lock:
            now = time.monotonic()
            if now - self._asked >= self.poll_seconds:
                self._asked = now
                last = await run_in_threadpool(self._stored)
                if self.hub is not None and (last != self._last or self.hub.due()):
                    # the feeds' work, once for every stream, before any stream asks its news
                    await run_in_threadpool(self.hub.advance, last)
                self._last = last
        return self._last

    def refusal(self, client: str) -> Response | None:
        """The 429 for a stream ``client`` may not open now; None if it may."""
        limits = self.limits
        if self.held.get(client, 0) >= limits.per_client:
            why = f"this address holds {limits.per_client} live streams already (the most one may)"
        elif self.total >= limits.total:
            why = f"the server holds {limits.total} live streams already (the most it may)"
        else:
            return None
        headers = {"Retry-After": str(limits.retry_after), "Connection": "close"}
        document = {"error": f"too many live streams: {why}; retry later"}
        return JSONResponse(document, 429, headers=headers)

    async def follow(
        self,
        client: str,
        opening: Callable[[Subscription], Sequence[str]],
        follow: Callable[[], Subscription],
    ) -> Response:
        """A live stream for ``client`` fed by the hub: ``follow`` (run in a thread) subscribes
        it, ``opening`` says what it sends first; the stream takes its messages without
        reading the ledger, and leaves the hub when it ends.  The 429 past a cap (then
        nothing is read or subscribed)."""
        refused = self.refusal(client)
        if refused is not None:
            return refused
        self.held[client] = self.held.get(client, 0) + 1  # released when the response ends
        try:  # counted before the wait: the streams opening meanwhile see this one's place taken
            subscription = await run_in_threadpool(follow)
        except BaseException:
            self.release(client)
            raise
        stream = poll(
            opening(subscription),
            subscription,
            self.poll_seconds,
            keepalive_seconds=self.limits.keepalive_seconds,
            idle_seconds=self.limits.idle_seconds,
            moved=self.moved,
            in_thread=False,
        )
        return _HeldStream(self, client, stream, subscription.close)

    def follow_news(self, client: str, opening: Sequence[str], news: News) -> Response:
        """A live stream for ``client`` that asks ``news`` (run in a thread) once a tick, not fed
        by the hub: a delayed spectator's (:mod:`bgledger.web.delayed`, whose news is worked
        out once a second for all its readers).  The 429 past a cap, as :meth:`follow`."""
        refused = self.refusal(client)
        if refused is not None:
            return refused
        self.held[client] = self.held.get(client, 0) + 1  # released when the response ends
        stream = poll(
            opening,
            news,
            self.poll_seconds,
            keepalive_seconds=self.limits.keepalive_seconds,
            idle_seconds=self.limits.idle_seconds,
        )
        return _HeldStream(self, client, stream)

    def release(self, client: str) -> None:
        """One stream of ``client`` ended."""
        left = self.held.get(client, 0) - 1
        if left > 0:
            self.held[client] = left
        else:
            self.held.pop(client, None)


class _HeldStream(StreamingResponse):
    """A live stream that gives its place back however it ends (client gone, idle, shutdown)."""

    def __init__(
        self,
        streams: Streams,
        client: str,
        stream: AsyncIterator[str],
        closed: Callable[[], None] | None = None,
    ) -> None:
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        super().__init__(stream, media_type="text/event-stream", headers=headers)
        self._streams, self._client, self._closed = streams, client, closed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._streams.release(self._client)
            if self._closed is not None:
                self._closed()


async def poll(
    opening: Sequence[str],
    news: News,
    poll_seconds: float,
    *,
    keepalive_seconds: float = KEEPALIVE_SECONDS,
    idle_seconds: float = IDLE_SECONDS,
    moved: Callable[[], Awaitable[int]] | None = None,
    in_thread: bool = True,
) -> AsyncIterator[str]:
    """``opening``, then what ``news`` gives, asked now and every ``poll_seconds``; each
    tick's messages in one write (one send through the middleware and the socket).

    With ``moved`` (an awaitable's maker: :meth:`Streams.moved`), ``news`` is
    asked only when what it answers has changed, or once a keep-alive
    interval.  It runs until the client goes away (Starlette then cancels
    it), or ends after ``idle_seconds`` with nothing sent but keep-alives, or
    when ``news`` says it has ``ended``.  ``in_thread``: ``news`` reads the
    ledger, and runs in the thread pool (a hub's subscription does not).
    """
    if opening:
        yield "".join(opening)
    quiet = idle = 0.0
    seen: object = None
    while idle < idle_seconds and not STOPPING.is_set() and not getattr(news, "ended", False):
        messages: Sequence[str] = []
        try:
            now = None if moved is None else await moved()
            # a hub's subscription is asked every tick (it only hands over what it holds)
            if not in_thread or moved is None or now != seen or quiet >= keepalive_seconds:
                messages = await run_in_threadpool(news) if in_thread else news()
                seen = now
        except (OSError, sqlalchemy.exc.SQLAlchemyError, PersistenceError) as error:
            # out of file descriptors or the database away: asked again next tick
            _log.warning("a live stream could not read the ledger: %s", type(error).__name__)
        if messages:  # one write for the tick's messages, however many
            yield "".join(messages)
        if messages:
            quiet = idle = 0.0
        elif quiet >= keepalive_seconds:
            yield KEEPALIVE
            quiet = 0.0
        await asyncio.sleep(poll_seconds)
        quiet += poll_seconds
        idle += poll_seconds


def raise_open_files() -> str | None:
    """Raise this process's open-files soft limit to its hard limit; None, or why it could not.

    Each live stream holds a file descriptor; a laptop's default soft limit
    (1,024) would otherwise let idle streams starve every other request.
    """
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft == resource.RLIM_INFINITY or soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ValueError, OSError) as error:
        return f"open files: the limit could not be raised ({error})"
    if soft != resource.RLIM_INFINITY and soft - RESERVED_FILES < TOTAL:
        room = stream_room()
        return f"open files: limited to {soft} (ulimit -n): at most {room} live streams"
    return None


class OnceAMinute(logging.Filter):
    """Lets the same error through once a ``seconds``, the next time with how many were held back.

    The same error is the same logger, message and exception type (asyncio's
    "socket.accept() out of system resource" while file descriptors run out,
    retried every second, or a failing request's traceback at every poll).
    """

    def __init__(self, seconds: float = 60.0) -> None:
        super().__init__()
        self.seconds = seconds
        self._last: dict[tuple[str, object, object], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        kind = type(record.exc_info[1]) if record.exc_info else None
        key = (record.name, record.msg if isinstance(record.msg, str) else repr(record.msg), kind)
        now = time.monotonic()
        last = self._last.get(key)
        if last is not None and now - last[0] < self.seconds:
            self._last[key] = (last[0], last[1] + 1)
            return False
        if last is not None and last[1]:
            record.msg = f"{record.msg} (and {last[1]} times more in the last minute, not logged)"
        if len(self._last) > 1000:  # bounded: forget the oldest
            self._last.pop(next(iter(self._last)))
        self._last[key] = (now, 0)
        return True


QUIETED = ("asyncio", "uvicorn.error", "uvicorn.access", __name__)
"""The loggers whose repeated errors :func:`quiet_repeats` holds back (a logger's filter sees
what is logged to it, not what its children pass up)."""


def quiet_repeats(seconds: float = 60.0) -> OnceAMinute:
    """Add one :class:`OnceAMinute` to each of :data:`QUIETED` (returned, for a test to remove)."""
    once = OnceAMinute(seconds)
    for name in QUIETED:
        logging.getLogger(name).addFilter(once)
    return once
