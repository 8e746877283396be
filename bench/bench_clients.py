"""Benchmark: slow and heavy clients leave the venue's reads and lines their time (issue 32).

    python bench/bench_clients.py [--seconds S] [--dir DIR] [--check]

One real ``bgledger serve`` on 127.0.0.1, in a process of its own whose open-files
limit is 1,024, soft and hard (a laptop's; ``serve`` cannot raise it), on one
SQLite file with two matches: **desk**, a fresh 7-point match a scorekeeper posts
``note x`` lines to, and **long**, a real match of the corpus
(``yokooo_-_FB_15pt...`` imported whole, 1,504 events).

1. **Half-sent requests.**  20 reads of ``GET /api/matches/desk``, one after
   another: the baseline.  Then 1,100 connections, from 11 loopback addresses
   (127.0.0.2-12), each sending half a request's headers and nothing more, held
   open by this process; 20 reads again, the first ones while the flood comes in.
   **Target: every read within 3 s** (before: every descriptor was taken and the
   reads timed out).
2. **Heavy reads.**  The scorekeeper posts ``note x`` lines back to back for S
   seconds (default 10): the baseline.  Then the same for S seconds while 10
   clients loop the appeal packet of the long match's last 200 events
   (``/matches/long/packet?from=1305&to=1504``: 400 boards, megabytes), each from
   a loopback address of its own (127.0.0.20-29), on a new connection each time;
   a client refused (429) waits 0.2 s.  p50 / p99 of a line, and the ratio of the p99s.
   **Target: at most 5x** (before: 33 to 787 ms with 20 clients, 24x).  The packet
   is asked once before (its first render, timed apart): the loop measured is the
   steady one, the match standing still as a match under appeal does.

The two parts run back to back in the same run, against the same server.  All
traffic is loopback, bounded in count and time, and stops by itself.  Prints a
table and PASS/FAIL per target; exit 0 either way (``--check``: 1 if one is missed).
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import resource
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bgledger.service import Ledger  # noqa: E402
from tests.served import serve_processes  # noqa: E402

CORPUS = REPO.parent / "shared" / "fixtures" / "matches" / "tournament"
LONG = "yokooo_-_FB_15pt_Backgammon_Studio_2022_08_16_14_41_00_1660660935.mat"
LIMIT = 1024
HALF_SENT = 1100
ADDRESSES = 11
READS = 20
READ_TARGET = 3.0
LOOPERS = 10
PACKET_EVENTS = 200
RATIO_TARGET = 5.0


@dataclass
class Venue:
    """The served ledger: its port, the scorekeeper's token, the packet's path, and the
    committee's token every read carries (an unpublished event's pages answer only a token
    that reaches them: DESIGN principle 14)."""

    port: int
    token: str
    packet: str
    pid: int
    reader: str = ""

    def get(self, path: str, timeout: float = 10, source: str = "") -> tuple[int, float, int]:
        """``GET path`` on a new connection (from the loopback address ``source``): its
        status, seconds and bytes."""
        began = time.monotonic()
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=timeout, source_address=(source, 0) if source else None
        )
        try:
            headers = {"Authorization": f"Bearer {self.reader}"} if self.reader else {}
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            size = len(response.read())
            return response.status, time.monotonic() - began, size
        finally:
            connection.close()


def prepare(folder: Path) -> tuple[str, str, str]:
    """The ledger (its URL) with ``desk`` and ``long``, the scorekeeper's token of desk and a
    committee's token that reads both."""
    url = f"sqlite:///{folder / 'bench.db'}"
    ledger = Ledger(url)
    try:
        ledger.start(("Ann", "Bob"), 7, match_id="desk", by="bench")
        ledger.import_file(CORPUS / LONG, match_id="long")
        token = ledger.issue_token("scorekeeper", match_id="desk", label="kim")
        reader = ledger.issue_token("committee", label="readers")
        return url, token, reader
    finally:
        ledger.close()


@contextmanager
def serving(url: str, token: str, reader: str, folder: Path) -> Iterator[Venue]:
    """``bgledger serve`` under ``ulimit -n 1024`` while the block runs."""
    ledger = Ledger(url)
    events = ledger.state("long").events
    ledger.close()
    packet = f"/matches/long/packet?from={events - PACKET_EVENTS + 1}&to={events}"
    with serve_processes(url, 1, folder, open_files=LIMIT) as (one,):
        yield Venue(int(one.base.rsplit(":", 1)[1]), token, packet, one.pid, reader)


# -- 1. half-sent requests --------------------------------------------------------------------


@dataclass
class Flood:
    """Reads alone and reads with the half-sent requests held open."""

    alone: list[float] = field(default_factory=list)
    flooded: list[float] = field(default_factory=list)
    failed: int = 0
    opened: int = 0
    took: float = 0.0


def half_sent(venue: Venue) -> Flood:
    """Part 1 (:data:`HALF_SENT` connections, :data:`READS` reads before and with them)."""
    flood = Flood()
    for _ in range(READS):
        flood.alone.append(venue.get("/api/matches/desk")[1])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, HALF_SENT + 500)), hard))
    opened: list[socket.socket] = []
    began = time.monotonic()
    every = HALF_SENT // (READS // 2)
    try:
        for n in range(HALF_SENT):
            client = socket.socket()
            opened.append(client)
            client.bind((f"127.0.0.{2 + n % ADDRESSES}", 0))
            client.settimeout(5)
            with suppress(OSError):  # one the server has cut off already
                client.connect(("127.0.0.1", venue.port))
                client.sendall(b"GET /api/matches/desk HTTP/1.1\r\nHost: t\r\nX-Half: ")
                flood.opened += 1
            if n % every == every - 1:  # reads while the flood comes in
                _read(venue, flood)
            if time.monotonic() - began > 60:
                break
        flood.took = time.monotonic() - began
        while len(flood.flooded) < READS:  # and while it is held open
            _read(venue, flood)
    finally:
        for client in opened:
            client.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return flood


def _read(venue: Venue, flood: Flood) -> None:
    try:
        status, took, _ = venue.get("/api/matches/desk")
    except OSError:
        status, took = 0, 10.0
    flood.failed += status != 200
    flood.flooded.append(took)


# -- 2. heavy reads -----------------------------------------------------------------------------


@dataclass
class Lines:
    """A scorekeeper's lines (ms each) and what the packet's loopers got meanwhile."""

    ms: list[float] = field(default_factory=list)
    packets: int = 0
    refused: int = 0
    packet_bytes: int = 0
    rss_kb: int = 0


def post_lines(venue: Venue, seconds: float, loopers: int) -> Lines:
    """The scorekeeper's ``note x`` lines for ``seconds``, with ``loopers`` clients looping
    the packet meanwhile."""
    lines = Lines()
    stop = threading.Event()
    lock = threading.Lock()

    def loop(n: int) -> None:
        while not stop.is_set():
            try:
                status, _, size = venue.get(venue.packet, timeout=30, source=f"127.0.0.{20 + n}")
            except OSError:
                continue
            with lock:
                if status == 200:
                    lines.packets += 1
                    lines.packet_bytes = size
                else:
                    lines.refused += 1
            if status != 200:
                time.sleep(0.2)  # a 429 asks to wait

    threads = [threading.Thread(target=loop, args=(n,), daemon=True) for n in range(loopers)]
    for thread in threads:
        thread.start()
    if loopers:
        time.sleep(1.0)  # the loopers under way
    connection = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=30)
    headers = {"Authorization": f"Bearer {venue.token}", "Content-Type": "application/json"}
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            began = time.perf_counter()
            connection.request("POST", "/api/matches/desk/lines", b'{"line": "note x"}', headers)
            response = connection.getresponse()
            response.read()
            lines.ms.append((time.perf_counter() - began) * 1000)
            assert response.status == 201, response.status
            time.sleep(0.02)  # a busy table, not a flood of lines
    finally:
        connection.close()
        lines.rss_kb = _rss_kb(venue.pid)
        stop.set()
        for thread in threads:
            thread.join(40)
    return lines


def _rss_kb(pid: int) -> int:
    with suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


@dataclass
class Figures:
    """What a run measured, and its verdicts."""

    flood: Flood
    alone: Lines
    loaded: Lines
    verdicts: list[tuple[str, bool]]


def run(seconds: float, folder: Path, say: Callable[[str], None] = print) -> Figures:
    """Both parts against one server; ``say`` prints the table."""
    url, token, reader = prepare(folder)
    with serving(url, token, reader, folder) as venue:
        flood = half_sent(venue)
        time.sleep(6)  # the flood's connections cut off by the server
        status, first, size = venue.get(venue.packet, timeout=60)  # rendered once, then kept
        assert status == 200, status
        alone = post_lines(venue, seconds, 0)
        loaded = post_lines(venue, seconds, LOOPERS)
    worst = max(flood.flooded)
    ratio = percentile(loaded.ms, 0.99) / percentile(alone.ms, 0.99)
    load = os.getloadavg()[0]
    say(
        f"# bench_clients: bgledger serve under ulimit -n {LIMIT}, SQLite, Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, load {load:.1f}"
    )
    alone_median = statistics.median(flood.alone)
    say(
        f"1. GET /api/matches/desk: {READS} alone, median {alone_median:.3f} s, "
        f"worst {max(flood.alone):.3f} s; with {flood.opened} of {HALF_SENT} half-sent requests "
        f"opened in {flood.took:.1f} s: median {statistics.median(flood.flooded):.3f} s, worst "
        f"{worst:.3f} s, {flood.failed} failed"
    )
    say(f"2. the packet ({size / 1e6:.1f} MB), first asked: {first:.2f} s")
    for name, lines in (("alone", alone), (f"with {LOOPERS} looping the packet", loaded)):
        say(
            f"2. note x, {name}: {len(lines.ms)} lines, p50 {percentile(lines.ms, 0.5):.1f} ms, "
            f"p99 {percentile(lines.ms, 0.99):.1f} ms; packets {lines.packets} "
            f"({lines.packet_bytes / 1e6:.1f} MB each), refused {lines.refused}; "
            f"server {lines.rss_kb / 1024:.0f} MB"
        )
    verdicts = [
        (
            f"reads with {HALF_SENT} half-sent requests: worst {worst:.2f} s, within "
            f"{READ_TARGET:g} s",
            worst <= READ_TARGET and flood.failed == 0,
        ),
        (
            f"a line's p99 with {LOOPERS} clients looping the packet: {ratio:.2f}x alone, at "
            f"most {RATIO_TARGET:g}x",
            ratio <= RATIO_TARGET,
        ),
    ]
    for name, passed in verdicts:
        say(f"{'PASS' if passed else 'FAIL'}  {name}")
    return Figures(flood, alone, loaded, verdicts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if not (CORPUS / LONG).exists():
        sys.exit(f"bench_clients: {CORPUS / LONG} is missing (the real corpus)")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        figures = run(args.seconds, Path(folder))
    return 1 if args.check and not all(passed for _, passed in figures.verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
