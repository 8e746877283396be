"""The one polling loop of the web's live streams: news as it comes, a keep-alive when quiet."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from bgledger.web.streams import KEEPALIVE, poll


def _first(count: int, news: list[list[str]], keepalive_seconds: float) -> list[str]:
    """The first ``count`` messages of a stream whose news is each of ``news``, then none."""
    asked = iter(news)

    async def scenario() -> list[str]:
        stream = poll(
            ["opened\n\n"],
            lambda: next(asked, []),
            0.001,
            keepalive_seconds=keepalive_seconds,
        )
        got = [message async for message in _take(stream, count)]
        await stream.aclose()
        return got

    return asyncio.run(asyncio.wait_for(scenario(), 10))


async def _take(stream: AsyncIterator[str], count: int) -> AsyncIterator[str]:
    async for message in stream:
        yield message
        count -= 1
        if count == 0:
            return


def test_the_opening_then_the_news_as_it_comes() -> None:
    news = [["one\n\n", "two\n\n"], [], ["three\n\n"]]
    got = _first(3, news, keepalive_seconds=60)
    # a tick's messages go out in one write (one send through the middleware, one packet)
    assert got == ["opened\n\n", "one\n\ntwo\n\n", "three\n\n"]


def test_a_quiet_stream_sends_a_keep_alive_comment() -> None:
    got = _first(3, [["one\n\n"]], keepalive_seconds=0.005)
    assert got == ["opened\n\n", "one\n\n", KEEPALIVE]
    assert KEEPALIVE.startswith(":")  # a comment: the browser's EventSource ignores it
