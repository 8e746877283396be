"""Slow clients against a real ``bgledger serve`` (issue 32, breaks 2 and 6).

- a token revoked while its line's body was on the way records nothing: the write
  checks the token again in its own transaction (before: the line was recorded);
- a body or headers that trickle are cut off with 408 after a few seconds (before:
  read for ever);
- 1,100 half-sent requests, under an open-files limit of 1,024, leave normal reads
  answering within 3 s (before: every descriptor taken, normal reads timed out).

Every server is ``bgledger serve`` in a process of its own on 127.0.0.1; every
connection and every wait is bounded.
"""

from __future__ import annotations

import http.client
import json
import resource
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from bgledger.errors import UnknownTokenError
from bgledger.service import Ledger
from bgledger.web.guard import REQUEST_SECONDS
from tests.served import serve_processes

LIMIT = 1024
LINE = b'{"line": "opening 3 1"}'


def _get(port: int, path: str, token: str, timeout: float = 5) -> tuple[int, float]:
    """``GET path`` with ``token`` (the match is in no published event: DESIGN principle 14)."""
    began = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - began
    finally:
        connection.close()


@contextmanager
def _serving(tmp_path: Path, *, limited: bool = False) -> Iterator[tuple[int, str]]:
    """``bgledger serve`` on a ledger with match ``final``; yields its port and a
    scorekeeper's token for the match."""
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    ledger = Ledger(url)
    ledger.start(("Ann", "Bob"), 5, match_id="final", by="kim")
    token = ledger.issue_token("scorekeeper", match_id="final", label="pad of final")
    ledger.close()
    with serve_processes(url, 1, tmp_path, open_files=LIMIT if limited else None) as (one,):
        yield int(one.base.rsplit(":", 1)[1]), token


def _events(tmp_path: Path) -> int:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    try:
        return len(ledger.history("final"))
    finally:
        ledger.close()


def _post_head(port: int, token: str, length: int) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=15)
    client.sendall(
        b"POST /api/matches/final/lines HTTP/1.1\r\nHost: t\r\n"
        b"Content-Type: application/json\r\n"
        + f"Authorization: Bearer {token}\r\nContent-Length: {length}\r\n\r\n".encode()
    )
    return client


def _answer(client: socket.socket) -> tuple[int, bytes]:
    """The status and the body of the answer on ``client`` (read until it closes or 15 s)."""
    received = b""
    with suppress(TimeoutError, ConnectionResetError):
        while chunk := client.recv(65536):
            received += chunk
            head, _, body = received.partition(b"\r\n\r\n")
            if b"content-length:" in head.lower():
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                if len(body) >= length:
                    break
    status = int(received.split(b" ")[1]) if received else 0
    return status, received.partition(b"\r\n\r\n")[2]


def _trickle(client: socket.socket, pieces: list[bytes]) -> tuple[int, bytes]:
    """Send ``pieces`` a second apart until the server answers or cuts off; its answer."""
    for piece in pieces:
        try:
            client.sendall(piece)
        except OSError:  # cut off
            break
        client.settimeout(1)
        with suppress(TimeoutError):
            if client.recv(1, socket.MSG_PEEK):
                break
    client.settimeout(15)
    return _answer(client)


def test_a_token_revoked_while_the_body_comes_in_records_nothing(tmp_path: Path) -> None:
    with _serving(tmp_path) as (port, token):
        before = _events(tmp_path)
        client = _post_head(port, token, len(LINE))
        client.sendall(LINE[:5])  # the token is checked; the rest of the line is on its way
        ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
        deadline = time.monotonic() + 15
        while not any(entry.last_used for entry in ledger.tokens()):  # checked: marked used
            assert time.monotonic() < deadline, "the server never checked the token"
            time.sleep(0.05)
        ledger.revoke_token("pad of final")  # the lost phone's token, as `token --revoke`
        ledger.close()
        client.sendall(LINE[5:])
        status, body = _answer(client)
        client.close()
        assert status == 401, body
        assert b"revoked" in body and b"nothing was recorded" in body
        assert _events(tmp_path) == before  # the roll was not recorded


def test_a_grant_whose_token_was_revoked_since_records_nothing_on_every_store(
    store_url: str,
) -> None:
    """The front door itself: a grant read before ``token --revoke`` (or before the token
    expired) writes nothing after it, with a key or without, on SQLite and PostgreSQL."""
    match_id = f"revoked-{uuid.uuid4().hex[:8]}"  # the PostgreSQL database is shared
    ledger = Ledger(store_url)
    try:
        ledger.start(("Ann", "Bob"), 5, match_id=match_id, by="kim")
        token = ledger.issue_token("scorekeeper", match_id=match_id, label=f"pad {match_id}")
        grant = ledger.authorize(token, match_id)
        ledger.record_line(match_id, "opening 3 1", by=grant.label, grant=grant)
        ledger.revoke_token(token)
        before = len(ledger.history(match_id))
        for key in (None, "k1"):
            with pytest.raises(UnknownTokenError, match=r"was revoked at .* nothing was recorded"):
                ledger.record_line(match_id, "move 8/5 6/5", by=grant.label, key=key, grant=grant)
        assert len(ledger.history(match_id)) == before
        ledger.record_line(match_id, "move 8/5 6/5", by="kim")  # the shell needs no token
        assert len(ledger.history(match_id)) == before + 1
    finally:
        ledger.close()


def test_a_body_that_trickles_is_cut_off_with_408(tmp_path: Path) -> None:
    with _serving(tmp_path) as (port, token):
        before = _events(tmp_path)
        client = _post_head(port, token, len(LINE))
        began = time.monotonic()
        status = 0
        # a byte a second: 20 s for the whole line
        status, body = _trickle(client, [bytes([byte]) for byte in LINE])
        took = time.monotonic() - began
        client.close()
        assert status == 408, body
        assert b"did not arrive within" in body
        assert took < 10  # a few seconds, not the 20 the body would take
        assert _events(tmp_path) == before


def test_headers_that_trickle_are_cut_off_with_408(tmp_path: Path) -> None:
    with _serving(tmp_path) as (port, _):
        client = socket.create_connection(("127.0.0.1", port), timeout=15)
        began = time.monotonic()
        client.sendall(b"GET /api/matches/final HTTP/1.1\r\nHost: t\r\n")
        # a header a second: never the blank line that ends them
        status, body = _trickle(client, [f"X-Slow-{n}: 1\r\n".encode() for n in range(20)])
        took = time.monotonic() - began
        client.close()
        assert status == 408, body
        assert REQUEST_SECONDS - 1 < took < REQUEST_SECONDS + 4
        # a connection that sent nothing is closed as quietly, as soon
        silent = socket.create_connection(("127.0.0.1", port), timeout=15)
        began = time.monotonic()
        assert silent.recv(64) == b""
        assert time.monotonic() - began < REQUEST_SECONDS + 4
        silent.close()


HALF_SENT = 1100
ADDRESSES = 11


@pytest.mark.slow
def test_1100_half_sent_requests_under_ulimit_1024_leave_reads_answering(
    tmp_path: Path,
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < HALF_SENT + 200:
        pytest.skip(f"this test's own open-files limit ({hard}) is below {HALF_SENT + 200}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, HALF_SENT + 200), hard))
    opened: list[socket.socket] = []
    try:
        with _serving(tmp_path, limited=True) as (port, token):
            began = time.monotonic()
            times: list[float] = []
            for n in range(HALF_SENT):
                client = socket.socket()
                opened.append(client)
                client.bind((f"127.0.0.{2 + n % ADDRESSES}", 0))
                client.settimeout(5)
                with suppress(OSError):  # a connection already cut off by the server
                    client.connect(("127.0.0.1", port))
                    client.sendall(b"GET /api/matches/final HTTP/1.1\r\nHost: t\r\nX-Half: ")
                if n % 100 == 99:  # reads while the flood comes in
                    status, took = _get(port, "/api/matches/final", token, timeout=10)
                    assert status == 200
                    times.append(took)
                assert time.monotonic() - began < 60, "1,100 connections took over 60 s"
            # and while the flood is held (its sockets stay open on this side)
            for _ in range(10):
                status, took = _get(port, "/api/matches/final", token, timeout=10)
                assert status == 200
                times.append(took)
            page = _get(port, "/matches/final", token, timeout=10)
            print(f"\nreads while {HALF_SENT} half-sent: max {max(times):.3f} s; page {page}")
            assert max(times) < 3
            assert page[0] == 200 and page[1] < 3
    finally:
        for client in opened:
            client.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


# Run in a process of its own: it lowers its open-files limit to 64.
_OUT_OF_DESCRIPTORS = r'''
import asyncio, json, os, resource, socket, sys, time
from bgledger.web.guard import ServingLoop

resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
retries, errors, accepted = [], [], []


class Counted(asyncio.Protocol):
    def connection_made(self, transport):
        accepted.append(transport)


def hog():
    """Every descriptor left, taken."""
    held = []
    try:
        while True:
            held.append(open(os.devnull))
    except OSError:
        return held


def connect(port, count):
    made = []
    for _ in range(count):
        client = socket.socket()
        client.setblocking(False)
        try:
            client.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        made.append(client)
    return made


async def until(condition):
    """Wait until ``condition()`` holds (10 s at most): a loaded machine is late, not wrong."""
    deadline = time.monotonic() + 10
    while not condition() and time.monotonic() < deadline:
        await asyncio.sleep(0.01)


async def scenario():
    loop = asyncio.get_running_loop()
    later = loop.call_later

    def counting(delay, callback, *args, **kwargs):
        if getattr(callback, "__name__", "") == "_start_serving":
            retries.append(delay)
        return later(delay, callback, *args, **kwargs)

    loop.call_later = counting
    loop.set_exception_handler(lambda _loop, context: errors.append(context["message"]))
    server = await loop.create_server(Counted, "127.0.0.1", 0, backlog=512)
    port = server.sockets[0].getsockname()[1]
    held = hog()
    for spare in held[-3:]:
        spare.close()
    clients = connect(port, 3)  # the last descriptors: the server cannot accept them
    await until(lambda: retries)  # its turn failed: the retry is set, a second on
    await asyncio.sleep(0.2)  # (any other retry of that turn would be set by now)
    turn = {"retries": len(retries), "accepted": len(accepted)}
    for file in held[:-3]:
        file.close()
    await until(lambda: len(accepted) == 3)  # the retry: descriptors free again
    freed = {"accepted": len(accepted), "errors": len(errors)}
    held = hog()
    held.pop().close()
    set_before = len(retries)
    clients += connect(port, 1)
    await until(lambda: len(retries) > set_before)  # out again: a retry waits as it stops
    server.close()
    await server.wait_closed()
    for file in held:
        file.close()
    logged = len(errors)
    await asyncio.sleep(1.5)  # the retry comes after the server stopped
    print(json.dumps({"turn": turn, "freed": freed, "after_stop": len(errors) - logged}))


with asyncio.Runner(loop_factory=ServingLoop) as runner:
    runner.run(scenario())
'''


def test_out_of_descriptors_the_server_retries_accepting_once_and_then_accepts() -> None:
    """``serve``'s event loop (bgledger.web.guard.ServingLoop) out of file descriptors:
    asyncio's own set a retry for every connection it tried to accept in the turn (511
    from one turn of a 512 backlog, each a traceback once the server stopped)."""
    done = subprocess.run(
        [sys.executable, "-c", _OUT_OF_DESCRIPTORS], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["turn"] == {"retries": 1, "accepted": 0}  # one retry, a second later
    assert said["freed"] == {"accepted": 3, "errors": 1}  # then all three, one error logged
    assert said["after_stop"] == 0  # a retry after the server stopped does nothing
