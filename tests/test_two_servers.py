"""Two ``bgledger serve`` processes on one PostgreSQL database serve one tournament (issue 26).

The way a tournament grows past one laptop: two real ``serve`` processes on
one database (its own, dropped afterwards; skipped without
``BGLEDGER_TEST_POSTGRES``).  A scorekeeper's lines are posted to them in
turn, each with its own ``Idempotency-Key``; a line sent again with its key
to the *other* server records nothing and answers as the first send did; a
spectator holding the match's live stream on one server sees every line,
those posted on the other included, each event once and in order; both
servers show the same match; ``bgledger verify`` finds every chain intact.

``tests/test_idempotency.py`` races one key from two ``Ledger``\\ s in one
process; this runs the servers themselves, over HTTP.
"""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2
import pytest

from bgledger.commands.match import Match, match_uuid
from tests.conftest import own_postgres_database
from tests.match_driver import play_lines
from tests.served import BGLEDGER, serve_processes

pytestmark = pytest.mark.slow

LINES = 16


def cli(url: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BGLEDGER, "--db", url, *arguments], capture_output=True, text=True)


@contextmanager
def following(base: str, match_id: str, headers: dict[str, str]) -> Iterator[list[int]]:
    """The numbers of the events a live stream on ``base`` carries, as they arrive (read with
    ``headers``' token: the match is in no published event, DESIGN principle 14)."""
    numbers: list[int] = []
    opened = threading.Event()
    stop = threading.Event()

    def follow() -> None:
        with (
            httpx2.Client(base_url=base, timeout=httpx2.Timeout(10, read=None)) as client,
            client.stream("GET", f"/api/matches/{match_id}/events", headers=headers) as stream,
        ):
            for line in stream.iter_lines():
                opened.set()
                if line.startswith("data:"):
                    numbers.append(json.loads(line[5:])["number"])
                if stop.is_set():
                    return

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    assert opened.wait(15), "the live stream did not open"
    try:
        yield numbers
    finally:
        stop.set()  # the thread ends at the stream's next line (or with the server)


def wait_for(numbers: list[int], last: int, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while (not numbers or numbers[-1] < last) and time.monotonic() < deadline:
        time.sleep(0.05)


def test_two_servers_on_one_database_record_each_line_once_and_stream_each_others(
    tmp_path: Path,
) -> None:
    with own_postgres_database("two_servers") as url:
        started = cli(url, "start", "--a", "Ann", "--b", "Bob", "--length", "7", "--id", "m")
        assert started.returncode == 0, started.stderr
        issued = cli(url, "token", "m", "--role", "scorekeeper")
        assert issued.returncode == 0, issued.stderr
        headers = {"Authorization": f"Bearer {issued.stdout.strip()}"}
        at_start = Match.start(match_uuid("m"), "m", ("Ann", "Bob"), 7, by="test")
        lines = play_lines(at_start, random.Random(26), LINES)
        assert len(lines) == LINES

        with serve_processes(url, 2, tmp_path) as (one, other):
            clients = [httpx2.Client(base_url=s.base, timeout=30) for s in (one, other)]
            answered: list[int] = []
            with following(other.base, "m", headers) as streamed:
                for n, line in enumerate(lines):
                    key = str(uuid.uuid4())
                    sent = {"json": {"line": line}, "headers": headers | {"Idempotency-Key": key}}
                    first = clients[n % 2].post("/api/matches/m/lines", **sent)
                    assert first.status_code == 201, first.text
                    assert "Idempotent-Replayed" not in first.headers
                    numbers = [entry["number"] for entry in first.json()["recorded"]]
                    answered += numbers
                    if n in (3, 8):  # the answer was lost: the pad sends it again, elsewhere
                        again = clients[(n + 1) % 2].post("/api/matches/m/lines", **sent)
                        assert again.status_code == 201, again.text
                        assert again.headers["Idempotent-Replayed"] == "true"
                        assert again.json()["recorded"] == first.json()["recorded"]
                        assert again.json()["match"]["events"] == first.json()["match"]["events"]
                    if n == 0:  # posted on one, on the other's stream
                        wait_for(streamed, numbers[-1])
                        assert streamed == numbers
                wait_for(streamed, answered[-1])
                shown = [client.get("/api/matches/m", headers=headers).json() for client in clients]
            for client in clients:
                client.close()

        # every line once: the events after the start are exactly those answered, in order
        assert answered == list(range(2, answered[-1] + 1))
        assert [document["events"] for document in shown] == [answered[-1]] * 2
        assert shown[0]["score"] == shown[1]["score"] and shown[0]["turn"] == shown[1]["turn"]
        assert streamed == answered  # the stream on the other server: each event once, in order
        verified = cli(url, "verify")
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert f"m: {answered[-1]} events, chain intact" in verified.stdout
