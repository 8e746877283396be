"""The web's live streams (server-sent events): one polling loop for every stream.

A stream opens with its first messages, then asks ``news`` every
``poll_seconds`` what to send (the messages, in the wire format of
server-sent events, or none); after :data:`KEEPALIVE_SECONDS` with nothing to
send it sends a comment line, so that proxies keep a quiet stream open.
``news`` reads the ledger: it runs in Starlette's thread pool, and keeps what
it last saw (the match's last event, the event's counts) itself.

The streams are the match page's (``/api/matches/MATCH/events``,
:mod:`bgledger.web.app`) and the director's console's
(``/api/events/EVENT/events``, :mod:`bgledger.web.director`).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Sequence

from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse

__all__ = ["KEEPALIVE", "KEEPALIVE_SECONDS", "STOPPING", "News", "event_stream", "poll"]

KEEPALIVE_SECONDS = 15.0
"""A comment line on a quiet stream, so that proxies keep it open."""
KEEPALIVE = ": keep-alive\n\n"
"""The comment line."""

STOPPING = threading.Event()
"""Set when the server stops (``serve``'s Ctrl-C): every stream ends at its next poll, so the
server's graceful shutdown has no open answer to cancel (and no traceback to print)."""

News = Callable[[], Sequence[str]]
"""What a stream has to send since it last asked (server-sent event messages; none: quiet)."""


async def poll(
    opening: Sequence[str],
    news: News,
    poll_seconds: float,
    *,
    keepalive_seconds: float = KEEPALIVE_SECONDS,
) -> AsyncIterator[str]:
    """``opening``, then what ``news`` gives, asked now and every ``poll_seconds``.

    It runs until the client goes away (Starlette then cancels it) or the server stops
    (:data:`STOPPING`; the browser's EventSource reconnects to the next server).
    """
    for message in opening:
        yield message
    quiet = 0.0
    while not STOPPING.is_set():
        messages = await run_in_threadpool(news)
        for message in messages:
            yield message
        if messages:
            quiet = 0.0
        elif quiet >= keepalive_seconds:
            yield KEEPALIVE
            quiet = 0.0
        await asyncio.sleep(poll_seconds)
        quiet += poll_seconds


def event_stream(opening: Sequence[str], news: News, poll_seconds: float) -> StreamingResponse:
    """The response of a live stream (:func:`poll`), never cached nor buffered by a proxy."""
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    stream = poll(opening, news, poll_seconds)
    return StreamingResponse(stream, media_type="text/event-stream", headers=headers)
