"""1,200 idle live streams do not starve ``bgledger serve`` under ``ulimit -n 1024`` (issue 25).

A real ``bgledger serve`` runs in a subprocess whose open-files limit is
1,024, soft and hard (so ``serve`` cannot raise it: the worst case of a
laptop).  1,200 streams are opened from 30 loopback addresses (127.0.0.2 to
127.0.0.31, 40 each) and left idle; the match is then asked for, 10 times,
and each answer must come within 5 s.  Loopback only; every wait bounded.
"""

from __future__ import annotations

import http.client
import os
import resource
import selectors
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from bgledger.service import Ledger

pytestmark = pytest.mark.slow

STREAMS = 1200
ADDRESSES = 30
LIMIT = 1024
QUIET = 15.0
"""Seconds with no stream answered after which the streams still unanswered count as unanswered."""
AT_MOST = 120.0
"""Seconds from the first stream opened after which they count whatever happens (every try
of reopening the closed ones included)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _limited() -> None:  # in the child, before exec: a laptop's default, and no way up
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))


def _get(port: int, path: str) -> tuple[int, float]:
    began = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        status = connection.getresponse().status
    finally:
        connection.close()
    return status, time.monotonic() - began


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _open_streams(port: int, count: int, opened: list[socket.socket], began: float) -> Counter[str]:
    """Open ``count`` streams (kept in ``opened``), spread over the addresses; their first
    lines counted ("closed": closed unanswered, "no answer": none by the time the server had
    answered none of them for :data:`QUIET` seconds, or :data:`AT_MOST` after ``began``).

    The wait follows the answers, not a clock: a loaded machine (a whole test run beside
    this server, two CPUs) answers the same streams more slowly, not differently."""
    clients = []
    for n in range(count):
        client = socket.socket()
        opened.append(client)
        clients.append(client)
        client.bind((f"127.0.0.{2 + n % ADDRESSES}", 0))
        client.settimeout(5)
        client.connect(("127.0.0.1", port))
        client.sendall(b"GET /api/matches/final/events HTTP/1.1\r\nHost: t\r\n\r\n")
        assert time.monotonic() - began < 40, "1,200 connections took over 40 s"
    statuses: Counter[str] = Counter()
    waiting = selectors.DefaultSelector()  # epoll: descriptors past 1,024
    for client in clients:
        waiting.register(client, selectors.EVENT_READ)
    left, last, end = len(clients), time.monotonic(), began + AT_MOST
    while left and time.monotonic() - last < QUIET and time.monotonic() < end:
        for key, _ in waiting.select(0.5):
            last = time.monotonic()
            waiting.unregister(key.fileobj)
            left -= 1
            try:
                head = key.fileobj.recv(64).split(b"\r\n")[0]  # type: ignore[union-attr]
            except ConnectionResetError:  # closed with its request unread: a reset, not a FIN
                head = b""
            statuses[head.decode(errors="replace") or "closed"] += 1
    waiting.close()
    statuses["no answer"] += left
    return statuses


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_normal_requests_stay_served_with_1200_idle_streams_under_ulimit_1024(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    ledger = Ledger(url)
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open", by="kim")
    ledger.publish("Open", by="kim")  # spectators' streams: each looked at by the read gate
    ledger.close()
    port = _free_port()
    log = (tmp_path / "serve.log").open("wb")
    command = [sys.executable, "-m", "bgledger.cli.main", "--db", url, "serve", "--port", str(port)]
    server = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, preexec_fn=_limited, cwd=tmp_path
    )
    opened: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                assert _get(port, "/api/matches/final")[0] == 200
                break
            except OSError:
                assert time.monotonic() < deadline, "serve did not start in 20 s"
                time.sleep(0.1)
        # Opened as browsers open them: a stream the server closed unanswered is opened
        # again (EventSource does), at most four times.  The server's waiting room (web/guard.py)
        # closes the connections that waited longest once more wait than it allows: in a burst
        # of 1,200 read more slowly than they came, that was up to 711 of them in one try.
        statuses: Counter[str] = Counter()
        began, pending, tries = time.monotonic(), STREAMS, 0
        while pending and tries < 5:
            tries += 1
            answered = _open_streams(port, pending, opened, began)
            pending = answered.pop("closed", 0)
            statuses += answered
        statuses["closed"] = pending
        answers = [_get(port, "/api/matches/final") for _ in range(10)]
        page = _get(port, "/matches/final")
        rss = _rss_kb(server.pid)
        print(f"\nstreams: {dict(statuses)}; answers {answers}; page {page}; server {rss} KB")
        assert all(status == 200 for status, _ in answers)
        assert page[0] == 200
        held = statuses["HTTP/1.1 200 OK"]
        # refused: too many streams (429) or, at the very edge of the open-files limit, the
        # database not opened for one (503, once in 1,200 in a CI run); either way the page's
        # follow.js opens it again after a wait
        refused = statuses["HTTP/1.1 429 Too Many Requests"]
        refused += statuses["HTTP/1.1 503 Service Unavailable"]
        # the room the limit leaves (RESERVED_FILES); a stream that ended gives its place back
        assert LIMIT - 256 <= held <= LIMIT - 256 + 10
        assert held + refused == STREAMS, statuses  # none left unanswered, none a server error
    finally:
        for client in opened:
            client.close()
        server.send_signal(signal.SIGINT)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)
        log.close()
        said = (tmp_path / "serve.log").read_bytes()
        print(said.decode(errors="replace")[-3000:])  # shown with a failure above, too
    assert len(said) < 20_000, said[-2000:]
    assert b"at most 768 live streams" in said  # the banner says it could not raise the limit
    assert os.path.getsize(tmp_path / "serve.log") == len(said)
