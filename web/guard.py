"""The server's door against slow clients: each connection must send its request in time.

uvicorn's HTTP/1.1 protocol waits for a request's headers for ever (its
keep-alive timeout starts only after a first answer), so a client that opens
connections and sends half a request, or nothing, holds a file descriptor per
connection until the server has none left for anyone (issue 32: 19,995 half-sent
requests and every normal read timed out).  :func:`guarded_protocol` is uvicorn's
h11 protocol with a waiting room (:class:`WaitingRoom`) in front of it:

- a connection *waits* from the moment it is made (or its last answer was sent)
  until its request's headers and body are in;
- one that waits longer than :data:`REQUEST_SECONDS` is cut off: 408 if it had sent
  part of a request, closed quietly if it had sent nothing (an idle keep-alive);
- a client (an address) has at most :data:`WAITING_PER_CLIENT` connections waiting,
  the server at most :func:`waiting_room` in all; past either, the one that has
  waited longest is cut off (a normal request's headers come in its first packet:
  it waits a few milliseconds, and is the newest, never the longest waiting; the
  caps are applied :data:`SETTLE_SECONDS` after they are passed, once the requests
  that came with a burst of connections are read).

So the descriptors slow clients hold are bounded whatever they do, and the ones
that send their requests are answered.  ``limit_concurrency`` (503 past N
connections) would not do: it counts the half-sent connections too and refuses
the normal ones; the body of a request is also bounded by the route that reads
it (:data:`bgledger.web.body.BODY_SECONDS`).
"""

from __future__ import annotations

import asyncio
import errno
import resource
import socket
from collections import OrderedDict
from typing import Any, Protocol

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = [
    "REQUEST_SECONDS",
    "WAITING_PER_CLIENT",
    "WAITING_TOTAL",
    "ServingLoop",
    "WaitingRoom",
    "guarded_protocol",
    "waiting_room",
]

REQUEST_SECONDS = 5.0
"""Seconds a connection may take to send its request (headers and body), from when it was
made or its last answer sent: a phone's request takes milliseconds, a bad Wi-Fi's a second."""
WAITING_PER_CLIENT = 32
"""Connections one address may have waiting for their requests: a browser opens at most 6 to a
server, and a venue's phones behind one NAT address send their requests as they connect."""
WAITING_TOTAL = 512
"""Connections the server lets wait in all, fewer under a low open-files limit
(:func:`waiting_room`)."""
SETTLE_SECONDS = 0.05
"""How long after a cap is passed the longest waiting are cut off (:meth:`WaitingRoom.wait`)."""
TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
)


def waiting_room(total: int = WAITING_TOTAL) -> int:
    """``total``, or fewer: an eighth of the open-files soft limit (128 of 1,024), so that
    waiting connections leave the live streams and the normal requests their share."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return total
    return max(16, min(total, soft // 8))


class Waiter(Protocol):
    """A connection in the room: it can be cut off."""

    def cut(self) -> None: ...


class WaitingRoom:
    """The connections waiting for their requests, oldest first, in all and per client."""

    def __init__(self, per_client: int = WAITING_PER_CLIENT, total: int | None = None) -> None:
        self.per_client = per_client
        self.total = waiting_room() if total is None else total
        self.cut = 0
        """Connections cut off so far (by time or by a cap): for a test or a benchmark."""
        self._all: OrderedDict[Waiter, str] = OrderedDict()
        self._by_client: dict[str, OrderedDict[Waiter, None]] = {}
        self._checking = False

    def __len__(self) -> int:
        return len(self._all)

    def wait(self, connection: Waiter, client: str, loop: asyncio.AbstractEventLoop) -> None:
        """``connection`` of ``client`` waits (again) from now.  Past a cap, the longest
        waiting are cut off :data:`SETTLE_SECONDS` later: a burst of connections accepted
        at once has its requests read first (they wait no more), and only those still
        waiting then are counted."""
        self.done(connection)
        self._all[connection] = client
        mine = self._by_client.setdefault(client, OrderedDict())
        mine[connection] = None
        if not self._checking and (len(mine) > self.per_client or len(self._all) > self.total):
            self._checking = True
            loop.call_later(SETTLE_SECONDS, self._check)

    def _check(self) -> None:
        """Cut off the longest waiting past the caps: each client's, then all."""
        self._checking = False
        over: list[Waiter] = []
        for mine in self._by_client.values():
            over.extend(list(mine)[: max(0, len(mine) - self.per_client)])
        for connection in over:
            self.done(connection)
        oldest = iter(list(self._all))
        while len(self._all) > self.total:
            connection = next(oldest)
            self.done(connection)
            over.append(connection)
        self.cut += len(over)
        for connection in over:
            connection.cut()

    def done(self, connection: Waiter) -> None:
        """``connection`` waits no more (its request is in, or it is closed)."""
        client = self._all.pop(connection, None)
        if client is None:
            return
        mine = self._by_client[client]
        del mine[connection]
        if not mine:
            del self._by_client[client]


def guarded_protocol(room: WaitingRoom, seconds: float = REQUEST_SECONDS) -> type[H11Protocol]:
    """uvicorn's h11 protocol whose connections wait in ``room`` and for at most ``seconds``
    (``uvicorn.Config(http=...)``)."""

    class Guarded(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _sent_part = False  # part of a request's headers is in
        _in_body = False  # the headers are in, the body is coming

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._wait()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if not self._waiting():
                self._stop_waiting()
            elif self.conn.their_state is h11.IDLE:
                self._sent_part = True
            elif not self._in_body and self._timer is not None:
                # the headers are in: the route reading the body answers 408 at its own
                # deadline (BODY_SECONDS); this one only closes what no route reads
                self._in_body = True
                self._timer.cancel()
                self._timer = self.loop.call_later(2 * seconds, self._too_slow)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._waiting() and self.conn.their_state is h11.IDLE:
                self._wait()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            super().connection_lost(exc)

        def _waiting(self) -> bool:
            """Whether the request is still coming (its headers, or its body)."""
            return not self.transport.is_closing() and self.conn.their_state in (
                h11.IDLE,
                h11.SEND_BODY,
            )

        def _wait(self) -> None:
            self._stop_waiting()
            self._sent_part = self._in_body = False
            client = self.client[0] if self.client else "unknown"
            room.wait(self, client, self.loop)
            self._timer = self.loop.call_later(seconds, self._too_slow)

        def _stop_waiting(self) -> None:
            room.done(self)
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            if self._waiting():
                room.done(self)
                room.cut += 1
                self.cut()

        def cut(self) -> None:
            """Cut this connection off: 408 if it had sent part of a request's headers."""
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self.transport.is_closing():
                return
            if self.conn.their_state is h11.IDLE and self._sent_part:
                message = f"the request did not arrive within {seconds:g} s".encode()
                self.transport.write(TIMED_OUT % (len(message), message))
            # a body still coming: the route reading it answers 408 first (BODY_SECONDS)
            self.transport.close()

    Guarded.__name__ = Guarded.__qualname__ = "GuardedH11Protocol"
    return Guarded


_OUT_OF = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
"""The errors of ``accept`` for want of a resource (asyncio waits a second, then accepts again)."""


class ServingLoop(asyncio.SelectorEventLoop):
    """asyncio's event loop, but out of file descriptors it waits once, not once a connection.

    asyncio accepts up to the listen backlog's count of connections a turn (uvicorn's 2,048).
    Until python/cpython#151615 (June 2026; Python 3.11 takes security fixes only) a failed
    ``accept`` for want of a file descriptor did not end that turn: each of the remaining
    tries failed too and set its own retry a second later, 2,047 of them from one turn, then
    as many again from each turn after (a venue's server at the open-files limit spent its
    CPU on them and left 1,000 streams unanswered), and every retry left after the server
    stopped logged a traceback (3.4 MB in one test's log).  Here the turn ends at the first
    such failure, as CPython's own fix does, and a retry that finds the server stopped does
    nothing.  ``uvicorn.Config(loop="bgledger.web.guard:ServingLoop")``.
    """

    def _accept_connection(
        self, protocol_factory: Any, sock: socket.socket, *args: Any, **kwargs: Any
    ) -> None:
        listening = sock.listening if isinstance(sock, _Listening) else sock
        # asyncio's own (private, not in typeshed), its arguments passed on as given
        accept = super()._accept_connection  # type: ignore[misc]
        accept(protocol_factory, _Listening(listening), *args, **kwargs)

    def _start_serving(
        self, protocol_factory: Any, sock: socket.socket, *args: Any, **kwargs: Any
    ) -> None:
        if sock.fileno() == -1:  # a retry that comes after the server stopped: closed
            return
        super()._start_serving(protocol_factory, sock, *args, **kwargs)  # type: ignore[misc]


class _Listening:
    """A listening socket, for one turn of asyncio's accept loop: after an ``accept`` failed
    for want of a resource, the next one says there is nothing more to accept (the turn
    ends, with the one retry that failure set)."""

    def __init__(self, listening: socket.socket) -> None:
        self.listening = listening
        self._out = False

    def accept(self) -> tuple[socket.socket, Any]:
        if self._out:
            raise BlockingIOError(errno.EAGAIN, "the turn ended at a failed accept")
        try:
            return self.listening.accept()
        except OSError as error:
            self._out = error.errno in _OUT_OF
            raise

    def fileno(self) -> int:
        return self.listening.fileno()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.listening, name)
