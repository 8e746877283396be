"""Heavy reads (the appeal packet, the score sheet, the replay's steps): rendered once per
state of the match, and a few at a time.

An appeal packet of a long match is megabytes of boards and takes a second or
more to render; twenty clients looping it took a scorekeeper's p99 from 33 to
787 ms (issue 32).  :class:`HeavyReads` wraps such a route:

- its answer is kept by (the address asked for, the match's last event: its number
  and its link of the hash chain), so that the same page of the same match as it
  stands is rendered once, however many ask; any new event (a ruling, a correction
  included) makes a new key.  The cache is a convenience and decides nothing (DESIGN
  principle 8): it holds rendered pages only, at most :data:`CACHE_BYTES`, the least
  recently used dropped first;
- a page not kept is rendered by at most :data:`RENDERING` requests at once (the
  others wait; the thread pool keeps its threads for the writes), and a client (an
  address) may have at most :data:`PER_CLIENT` such renders waiting or running: past
  them, 429 with ``Retry-After``;
- a client is sent at most :data:`CLIENT_BYTES` of heavy pages a second, with a
  burst of :data:`CLIENT_BURST` (a leaky bucket): past it, 429 with ``Retry-After``.
  Kept pages cost no render, but sending megabytes a client asks for in a loop
  would still take the server's CPU from the scorekeepers; a committee member
  stepping through a replay (a few KB a step) never meets the bound, a packet of
  a long match (about 5 MB) comes about once a second.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from bgledger.service import Ledger

__all__ = ["CACHE_BYTES", "PER_CLIENT", "RENDERING", "HeavyReads"]

CACHE_BYTES = 48 * 1024 * 1024
"""The most bytes of rendered pages kept (ten packets of a long match)."""
LARGEST = 12 * 1024 * 1024
"""A page larger than this is not kept (it would push out every other)."""
RENDERING = 2
"""Heavy pages rendered at once, in all (of the thread pool's 40 threads)."""
PER_CLIENT = 2
"""Heavy renders one address may have waiting or running at once."""
RETRY_AFTER = 2
"""Seconds a client refused for its renders in flight is asked to wait."""
CLIENT_BYTES = 4 * 1024 * 1024
"""Bytes of heavy pages a client is sent a second, on average."""
CLIENT_BURST = 8 * 1024 * 1024
"""Bytes of heavy pages a client may be sent at once, past its average."""
CLIENTS_KEPT = 10_000
"""Clients whose bytes are remembered; past this, those whose bucket has drained are
forgotten."""

Key = tuple[str, int, str]
Handler = Callable[[Request], Response]


@dataclass(frozen=True, slots=True)
class Kept:
    """A rendered answer: its status, headers and body."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def response(self) -> Response:
        return Response(self.body, self.status, headers=dict(self.headers))


class HeavyReads:
    """The heavy routes' cache and bounds, on ``ledger`` (one per application)."""

    def __init__(
        self,
        ledger: Ledger,
        *,
        cache_bytes: int = CACHE_BYTES,
        rendering: int = RENDERING,
        per_client: int = PER_CLIENT,
        client_bytes: int = CLIENT_BYTES,
        client_burst: int = CLIENT_BURST,
    ) -> None:
        self.ledger = ledger
        self.cache_bytes = cache_bytes
        self.per_client = per_client
        self.renders = 0
        """Pages rendered so far (not taken from the cache): for a test or a benchmark."""
        self._kept: OrderedDict[Key, Kept] = OrderedDict()
        self._size = 0
        self._rendering = asyncio.Semaphore(rendering)
        self._in_flight: dict[str, int] = {}
        self._sent: dict[str, tuple[float, float]] = {}  # client: (bytes in the bucket, when)
        self.client_bytes = client_bytes
        self.client_burst = client_burst

    def route(
        self, handler: Handler, also: Callable[[str], int] | None = None
    ) -> Callable[[Request], object]:
        """``handler`` (a route of one match, ``{match_id}`` in its path) cached and bounded.

        ``also(match_id)``: what else the page shows that is not an event (the score
        sheet's receipt: the seals kept of the match), a part of the key.
        """

        async def heavy(request: Request) -> Response:
            match_id = request.path_params["match_id"]
            state = await run_in_threadpool(self.ledger.state, match_id)  # 404 if none
            head = state.head
            if also is not None:
                head = f"{head}+{await run_in_threadpool(also, match_id)}"
            # the notes are shown to the match's officials only (a spectator's page leaves
            # them out): one page kept for each audience, not each reader
            reader = getattr(request.state, "reader", None)
            notes = reader is not None and await run_in_threadpool(
                self.ledger.reads_notes, match_id, reader
            )
            key = (str(request.url), state.events, f"{head}+notes" if notes else head)
            client = request.client.host if request.client else "unknown"
            self._check_rate(client)
            found = self._get(key)
            if found is not None:
                self._charge(client, len(found.body))
                return found.response()
            if self._in_flight.get(client, 0) >= self.per_client:
                raise HTTPException(
                    429,
                    f"this address has {self.per_client} heavy pages being prepared: wait for "
                    "them, then ask again",
                    headers={"Retry-After": str(RETRY_AFTER)},
                )
            self._in_flight[client] = self._in_flight.get(client, 0) + 1
            try:
                async with self._rendering:
                    found = self._get(key)  # rendered by another request while this one waited
                    if found is not None:
                        return found.response()
                    response = await run_in_threadpool(handler, request)
                    self.renders += 1
            finally:
                left = self._in_flight[client] - 1
                if left:
                    self._in_flight[client] = left
                else:
                    del self._in_flight[client]
            if response.status_code == 200:
                self._put(key, response)
            self._charge(client, len(response.body))
            return response

        return heavy

    def _level(self, client: str, now: float) -> float:
        """The bytes in ``client``'s bucket now (it drains at :attr:`client_bytes` a second)."""
        level, when = self._sent.get(client, (0.0, now))
        return max(0.0, level - (now - when) * self.client_bytes)

    def _check_rate(self, client: str) -> None:
        """Refuse (429) a client whose bucket is past its burst."""
        level = self._level(client, time.monotonic())
        if level > self.client_burst:
            wait = math.ceil((level - self.client_burst) / self.client_bytes)
            raise HTTPException(
                429,
                f"this address was sent {level / 1e6:.0f} MB of heavy pages just now: ask "
                f"again in {wait} s",
                headers={"Retry-After": str(wait)},
            )

    def _charge(self, client: str, size: int) -> None:
        now = time.monotonic()
        self._sent[client] = (self._level(client, now) + size, now)
        if len(self._sent) > CLIENTS_KEPT:
            for other in [c for c in self._sent if self._level(c, now) == 0]:
                del self._sent[other]

    def _get(self, key: Key) -> Kept | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def _put(self, key: Key, response: Response) -> None:
        body = bytes(response.body)
        if len(body) > LARGEST or key in self._kept:
            return
        headers = tuple(
            (k.decode("latin-1"), v.decode("latin-1"))
            for k, v in response.raw_headers
            if k.lower() != b"content-length"
        )
        self._kept[key] = Kept(response.status_code, headers, body)
        self._size += len(body)
        while self._size > self.cache_bytes:
            _, dropped = self._kept.popitem(last=False)
            self._size -= len(dropped.body)

    @property
    def kept_bytes(self) -> int:
        """The bytes of the pages kept now."""
        return self._size
