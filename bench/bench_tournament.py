"""Benchmark: a tournament live over HTTP against real ``bgledger serve`` processes (issue 26).

    python bench/bench_tournament.py [--pads 200] [--spectators 50] [--seconds 60]
                                     [--db sqlite|postgres] [--servers 1|2] [--interval 2]
                                     [--resend 0.03] [--walls 5] [--pin] [--no-console]
                                     [--pad-live]
                                     [--url URL] [--dir DIR] [--check]

Starts ``--servers`` ``bgledger serve`` processes on free ports of 127.0.0.1,
all on one ledger: a SQLite file in a temporary folder, or a PostgreSQL
database of its own (``bgledger_tour_<pid>`` on the server of ``--url``,
default ``BGLEDGER_TEST_POSTGRES``; dropped at the end).  A director's token
for the event ``Bench`` comes from the command line (``bgledger token --event
Bench --role director``); with it ``POST /api/matches`` starts one 11-point
match a pad, and each answer gives that pad its scorekeeper's token.

Then, for ``--seconds``, all in one asyncio process over httpx:

- **pads** (``--pads``): each posts the next line of a seeded random legal
  match (``tests/match_driver.py``, played in memory before the run, so the
  timed loop decides nothing) every ``--interval`` seconds to ``POST
  /api/matches/M/lines`` with its token and a fresh ``Idempotency-Key``; with
  two servers, a pad's lines go to them in turn (``--pin``: each pad's to one,
  as a venue pins its tables to a laptop).  ``--pad-live``: each answer is then drawn
  as ``pad.js`` draws it, by refetching the pad's live part
  (``/matches/M/live?from=a``).  A connection error or a 5xx
  is sent again with the same key.  A share ``--resend`` of the lines is sent
  a second time on purpose once answered (to the other server, when there are
  two): it must answer 201 with ``Idempotent-Replayed: true`` and the same
  event numbers, recording nothing.
- **spectators** (``--spectators``): each opens a match's page and holds its
  live stream (``GET /api/matches/M/events``), and does what the page's
  ``live.js`` does: refetch the live part (``/matches/M/live?ids=1``) 30 ms
  after news.  Each comes from its own loopback address (127.0.1.x: a server
  holds at most 50 streams an address), spread over the servers.
- **the director's console**: its page (``/events/Bench/director``), its
  stream (``/api/events/Bench/events``) and what ``director.js`` does on a
  ``changed`` message that names matches only: refetch the live part 30 ms
  later (a message carrying more is counted and not followed up).
- **walls** (``--walls``, 5), where the server has one: the event is
  published (``bgledger publish --event Bench``) and each wall holds its page
  (``/events/Bench/wall``) and, as ``wall.js`` does, the stream it names for
  the 12 boards it shows (``?since=N&matches=...``), from an address of its
  own; the ms from sending a line to its match's card on a wall is measured
  too.

Printed: lines acknowledged and lines/s, the ms from sending a line to its
answer (first send to the answer, resends after an error included) p50/p99,
the ms from sending a line to its event on a spectator's stream p50/p99, the
bytes the console and each spectator received, the servers' CPU a line; then
PASS/FAIL lines: p99 under 150 ms; nothing lost or doubled (each match's
stored events are exactly the numbers its pad was answered, each once);
every resend replayed; every spectator's stream had each event once; ``bgledger
verify`` clean.  Last, one table row to paste into ``bench/README.md``.  Exit 0
either way (``--check``: 1 on a FAIL).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import httpx2  # noqa: E402
import sqlalchemy  # noqa: E402

from bgledger.commands.match import Match, match_uuid  # noqa: E402
from tests.match_driver import play_lines  # noqa: E402
from tests.served import BGLEDGER, serve_processes  # noqa: E402

EVENT = "Bench"
LENGTH = 11
SEED = 20261127
TARGET_P99_MS = 150.0
DEBOUNCE = 0.03  # live.js and director.js refetch 30 ms after news


# -- the ledger and its servers ---------------------------------------------------------------


@contextlib.contextmanager
def ledger_url(db: str, url: str, folder: Path) -> Iterator[str]:
    """The URL of a fresh ledger: a SQLite file in ``folder``, or a PostgreSQL database of its
    own on the server of ``url`` (dropped afterwards)."""
    if db == "sqlite":
        yield f"sqlite:///{folder / f'tournament_{os.getpid()}.db'}"
        return
    base = sqlalchemy.engine.make_url(url)
    name = f"bgledger_tour_{os.getpid()}"
    admin = sqlalchemy.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def cpu_seconds(pid: int) -> float:
    """A process's user and system CPU so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (every CPU; Linux ``/proc/stat``)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = ticks[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# -- what the clients saw ---------------------------------------------------------------------


@dataclass
class Seen:
    """Everything measured during the run, in one asyncio process (one clock)."""

    latencies: list[float] = field(default_factory=list)  # s, first send to answer
    sent_at: dict[tuple[str, int], float] = field(default_factory=dict)  # (match, event): sent
    acked: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    arrivals: list[tuple[str, int, float]] = field(default_factory=list)  # match, event, when
    resent: int = 0
    resend_faults: list[str] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)  # why a line was sent again
    refused: list[str] = field(default_factory=list)
    spectator_bytes: list[int] = field(default_factory=list)
    spectator_streams: dict[int, tuple[str, int, list[int]]] = field(default_factory=dict)
    console_bytes: int = 0
    console_page: tuple[int, float] = (0, 0.0)  # bytes, s
    console_refetches: list[float] = field(default_factory=list)  # s each
    spectator_refetches: list[float] = field(default_factory=list)  # s each
    failed_reads: list[str] = field(default_factory=list)  # a page or a live part not 200
    console_messages: Counter[str] = field(default_factory=Counter)
    wall_bytes: list[int] = field(default_factory=list)  # each wall's page and stream
    wall_arrivals: list[tuple[str, int, float]] = field(default_factory=list)  # match, events
    walls_settled: int = 0  # walls open, or found absent
    opened: int = 0  # the console's and spectators' streams open (their first message came)


@dataclass(frozen=True)
class Pad:
    match_id: str
    token: str
    events: int  # after the start
    lines: list[str]


async def sse(client: httpx2.AsyncClient, url: str) -> AsyncIterator[tuple[str, str, int]]:
    """A server-sent events stream: (event name, data, bytes of the message) as they arrive."""
    async with client.stream("GET", url, timeout=httpx2.Timeout(10, read=None)) as response:
        if response.status_code != 200:
            raise RuntimeError(f"GET {url}: {response.status_code}")
        buffer = b""
        async for chunk in response.aiter_bytes():
            buffer += chunk
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                name, data = "message", ""
                for line in message.decode().splitlines():
                    if line.startswith("event:"):
                        name = line[6:].strip()
                    elif line.startswith("data:"):
                        data += line[5:].strip()
                yield name, data, len(message) + 2


def attribute(page: httpx2.Response, *names: str) -> str:
    """The first of ``names`` (``data-`` attributes) the page has; exits naming the page if none."""
    for name in names:
        found = re.search(f'{name}="([^"]*)"', page.text)
        if found is not None:
            return found.group(1)
    text = " ".join(re.sub(r"<[^>]+>", " ", page.text).split())[-400:]
    raise SystemExit(f"GET {page.request.url}: {page.status_code}, no {' or '.join(names)}: {text}")


class Debounced:
    """A refetch 30 ms after news, as the pages' scripts do (news while one waits joins it;
    news during a fetch starts another); counts its bytes, times and failures."""

    def __init__(self, client: httpx2.AsyncClient, url: str) -> None:
        self.client, self.url = client, url
        self.bytes = 0
        self.seconds: list[float] = []
        self.failed: list[str] = []
        self._waiting = False
        self._tasks: set[asyncio.Task[None]] = set()

    def poke(self) -> None:
        if not self._waiting:
            self._waiting = True
            task = asyncio.ensure_future(self._fetch())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _fetch(self) -> None:
        await asyncio.sleep(DEBOUNCE)
        self._waiting = False
        began = time.perf_counter()
        response = await self.client.get(self.url)
        self.seconds.append(time.perf_counter() - began)
        self.bytes += len(response.content)
        if response.status_code != 200:
            self.failed.append(f"GET {self.url}: {response.status_code} {response.text[-300:]}")

    async def settle(self) -> None:
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def held(stream: Coroutine[Any, Any, None], stop: asyncio.Event) -> None:
    """Read a stream (``stream`` does) until ``stop`` is set, then hang up."""
    task = asyncio.ensure_future(stream)
    await stop.wait()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def spectator(n: int, base: str, match_id: str, seen: Seen, stop: asyncio.Event) -> None:
    """A match's page and its live stream, from an address of its own."""
    address = f"127.0.{1 + n // 250}.{2 + n % 250}"
    transport = httpx2.AsyncHTTPTransport(local_address=address)
    async with httpx2.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
        page = await client.get(f"/matches/{match_id}")
        events = int(attribute(page, "data-events"))
        received = len(page.content)
        live = Debounced(client, f"/matches/{match_id}/live?ids=1&from=a")
        numbers: list[int] = []
        seen.spectator_streams[n] = (match_id, events, numbers)

        async def follow() -> None:
            nonlocal received
            opened = False
            async for name, data, size in sse(
                client, f"/api/matches/{match_id}/events?since={events}"
            ):
                received += size
                if not opened:
                    opened = True  # its first message: the stream is open
                    seen.opened += 1
                if name == "recorded":
                    number = json.loads(data)["number"]
                    numbers.append(number)
                    seen.arrivals.append((match_id, number, time.perf_counter()))
                    live.poke()

        await held(follow(), stop)
        await live.settle()
        seen.spectator_bytes.append(received + live.bytes)
        seen.spectator_refetches += live.seconds
        seen.failed_reads += live.failed


async def console(base: str, seen: Seen, stop: asyncio.Event) -> None:
    """The director's console of the event: its page, its stream, its refetches."""
    async with httpx2.AsyncClient(base_url=base, timeout=30) as client:
        began = time.perf_counter()
        page = await client.get(f"/events/{EVENT}/director")
        seen.console_page = (len(page.content), time.perf_counter() - began)
        # the event's count (the console as it was) or the log's position (after issue 26)
        since = attribute(page, "data-total", "data-position")
        live_url = attribute(page, "data-live")
        live = Debounced(client, live_url)

        async def follow() -> None:
            opened = False
            async for name, data, size in sse(client, f"/api/events/{EVENT}/events?since={since}"):
                seen.console_bytes += size
                seen.console_messages[name] += 1
                if not opened:
                    opened = True  # its first message: the stream is open
                    seen.opened += 1
                # names of moved matches only, or "reload": the console refetches its live part;
                # a message with the changes themselves is applied as it is
                names_only = name == "changed" and set(json.loads(data)) <= {"matches", "total"}
                if names_only or name == "reload":
                    live.poke()

        await held(follow(), stop)
        await live.settle()
        seen.console_bytes += live.bytes
        seen.console_refetches = live.seconds
        seen.failed_reads += live.failed


async def wall(n: int, base: str, seen: Seen, stop: asyncio.Event) -> None:
    """The event's wall (its page and stream) from an address of its own, if the server has one
    and the event is public: each card's match and event count as they arrive."""
    transport = httpx2.AsyncHTTPTransport(local_address=f"127.0.200.{2 + n % 250}")
    async with httpx2.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
        page = await client.get(f"/events/{EVENT}/wall")
        if page.status_code != 200:  # no wall on this server (404), or the event not public
            seen.walls_settled += 1
            return
        received = len(page.content)
        # as wall.js: the stream the page names, since its count, for the boards it shows
        found = {
            name: html.unescape(value)
            for name, value in re.findall(r'data-(stream|since|matches)="([^"]*)"', page.text)
        }
        query = urlencode({"since": found.get("since", ""), "matches": found.get("matches", "")})
        address = f"{found.get('stream', f'/api/events/{EVENT}/wall/events')}?{query}"

        async def follow() -> None:
            nonlocal received
            opened = False
            async for name, data, size in sse(client, address):
                received += size
                if not opened:
                    opened = True  # its first message: the stream is open
                    seen.walls_settled += 1
                if name == "card":
                    card = json.loads(data)
                    seen.wall_arrivals.append((card["match"], card["events"], time.perf_counter()))

        await held(follow(), stop)
        seen.wall_bytes.append(received)


async def post_line(
    client: httpx2.AsyncClient, pad: Pad, line: str, key: str, seen: Seen
) -> httpx2.Response:
    """One line, sent again with the same key after a connection error or a 5xx."""
    headers = {"Authorization": f"Bearer {pad.token}", "Idempotency-Key": key}
    for attempt in range(20):
        try:
            response = await client.post(
                f"/api/matches/{pad.match_id}/lines", json={"line": line}, headers=headers
            )
            if response.status_code < 500:
                return response
            why = f"{response.status_code} {response.text}"[:120]
        except httpx2.TransportError as error:
            why = type(error).__name__
        seen.errors[why] += 1
        await asyncio.sleep(0.2 * (attempt + 1))
    raise RuntimeError(f"{pad.match_id}: {line!r} not answered after 20 sends")


async def play(
    n: int,
    pad: Pad,
    clients: Sequence[httpx2.AsyncClient],
    interval: float,
    resend: float,
    end: float,
    seen: Seen,
    pinned: bool,
    pad_live: bool = False,
) -> None:
    """A scorekeeper's pad: a line every ``interval`` seconds until ``end``, to the servers in
    turn (``pinned``: always to the same one)."""
    rng = random.Random(SEED + n)
    await asyncio.sleep(rng.uniform(0, interval))  # the pads do not all post at once
    due = time.perf_counter()
    for index, line in enumerate(pad.lines):
        if time.perf_counter() >= end:
            return
        key = str(uuid.uuid4())
        server = (n + (0 if pinned else index)) % len(clients)
        sent = time.perf_counter()
        response = await post_line(clients[server], pad, line, key, seen)
        seen.latencies.append(time.perf_counter() - sent)
        if response.status_code != 201:
            seen.refused.append(f"{pad.match_id} {line!r}: {response.status_code} {response.text}")
            return  # the pad's match is no longer the server's: stop
        numbers = [entry["number"] for entry in response.json()["recorded"]]
        seen.acked[pad.match_id].extend(numbers)
        if pad_live:  # pad.js draws the answer: its live part refetched
            drawn = await clients[server].get(f"/matches/{pad.match_id}/live?from=a")
            if drawn.status_code != 200:
                seen.failed_reads.append(f"{pad.match_id} pad live: {drawn.status_code}")
        for number in numbers:
            seen.sent_at[(pad.match_id, number)] = sent
        if rng.random() < resend:
            seen.resent += 1
            other = clients[(server + 1) % len(clients)]
            again = await post_line(other, pad, line, key, seen)
            same = (
                again.status_code == 201
                and [entry["number"] for entry in again.json()["recorded"]] == numbers
            )
            if not same or again.headers.get("Idempotent-Replayed") != "true":
                seen.resend_faults.append(f"{pad.match_id} {line!r}: {again.status_code}")
        due += interval
        if due >= end:
            return
        await asyncio.sleep(max(0.0, due - time.perf_counter()))


# -- setting up: the director's token, the matches, their lines -------------------------------


def director_token(url: str) -> str:
    command = [*BGLEDGER, "--db", url, "token", "--event", EVENT, "--role", "director"]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


async def start_matches(bases: Sequence[str], token: str, count: int) -> list[tuple[str, str, int]]:
    """``count`` matches of the event started over the API: (id, scorekeeper's token, events)."""
    limits = httpx2.Limits(max_connections=10)
    clients = [httpx2.AsyncClient(base_url=b, timeout=60, limits=limits) for b in bases]
    gate = asyncio.Semaphore(10)

    async def one(n: int) -> tuple[str, str, int]:
        setup = {"a": f"A{n}", "b": f"B{n}", "length": LENGTH, "event": EVENT, "id": f"t{n:04d}"}
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())}
        async with gate:
            answer = await clients[n % len(clients)].post(
                "/api/matches", json=setup, headers=headers
            )
        if answer.status_code != 201:
            raise SystemExit(f"POST /api/matches: {answer.status_code} {answer.text}")
        document = answer.json()
        return document["match"]["match_id"], document["token"], document["match"]["events"]

    try:
        return list(await asyncio.gather(*(one(n) for n in range(count))))
    finally:
        for client in clients:
            await client.aclose()


def lines_of(match_id: str, count: int, seed: int) -> list[str]:
    """The first ``count`` lines of a seeded random legal match (played in memory)."""
    match = Match.start(match_uuid(match_id), match_id, ("A", "B"), LENGTH, by="bench")
    return play_lines(match, random.Random(seed), count)


# -- the run ----------------------------------------------------------------------------------


async def run(
    bases: Sequence[str], pads: Sequence[Pad], spectators: int, seconds: float, interval: float,
    resend: float, with_console: bool, pinned: bool, walls: int, pad_live: bool = False,
) -> tuple[Seen, float]:  # fmt: skip
    seen = Seen()
    stop = asyncio.Event()
    watchers = [
        asyncio.ensure_future(wall(n, bases[n % len(bases)], seen, stop)) for n in range(walls)
    ]
    if with_console:
        watchers.append(asyncio.ensure_future(console(bases[0], seen, stop)))
    for n in range(spectators):
        pad = pads[n * len(pads) // spectators]
        watchers.append(
            asyncio.ensure_future(spectator(n, bases[n % len(bases)], pad.match_id, seen, stop))
        )
    deadline = time.perf_counter() + 600
    # every page drawn and every stream open before the first line
    while seen.opened < spectators + with_console or seen.walls_settled < walls:
        if time.perf_counter() > deadline or any(w.done() for w in watchers[walls:]):
            break
        await asyncio.sleep(0.1)
    limits = httpx2.Limits(max_connections=len(pads) + 10, max_keepalive_connections=len(pads))
    clients = [httpx2.AsyncClient(base_url=b, timeout=30, limits=limits) for b in bases]
    began = time.perf_counter()
    end = began + seconds
    try:
        await asyncio.gather(
            *(
                play(n, pad, clients, interval, resend, end, seen, pinned, pad_live)
                for n, pad in enumerate(pads)
            )
        )
        took = time.perf_counter() - began
        await asyncio.sleep(1.5)  # the last lines reach the streams (a poll is 0.25 s)
    finally:
        stop.set()
        for client in clients:
            await client.aclose()
    for result in await asyncio.gather(*watchers, return_exceptions=True):
        if isinstance(result, BaseException):
            raise result
    return seen, took


def stored_events(bases: Sequence[str], match_ids: Sequence[str]) -> dict[str, int]:
    with httpx2.Client(base_url=bases[-1], timeout=30) as client:
        return {m: client.get(f"/api/matches/{m}").json()["events"] for m in match_ids}


def quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def kb(count: float) -> str:
    return f"{count / 1024:,.1f} KB"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--pads", type=int, default=200, help="scorekeepers, one match each")
    parser.add_argument("--spectators", type=int, default=50, help="match streams held")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the run")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between a pad's lines")
    parser.add_argument("--resend", type=float, default=0.03, help="share of lines sent twice")
    parser.add_argument("--console", action=argparse.BooleanOptionalAction, default=True,
                        help="the director's console connected (--no-console: not)")  # fmt: skip
    parser.add_argument("--walls", type=int, default=5,
                        help="walls of the event held, where serve has them")  # fmt: skip
    parser.add_argument("--pin", action="store_true",
                        help="each pad posts to one server (a table pinned)")  # fmt: skip
    parser.add_argument("--pad-live", action="store_true",
                        help="pads refetch their live part after an answer")  # fmt: skip
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--servers", type=int, choices=(1, 2), default=1)
    parser.add_argument("--url", default=os.environ.get("BGLEDGER_TEST_POSTGRES", ""),
                        help="PostgreSQL: its server is used, not its database")  # fmt: skip
    parser.add_argument("--dir", type=Path, help="where the SQLite file and logs go")
    parser.add_argument("--check", action="store_true", help="exit 1 if a check FAILs")
    args = parser.parse_args(argv)
    if args.db == "postgres" and not args.url:
        parser.error("--db postgres needs --url or BGLEDGER_TEST_POSTGRES (a PostgreSQL URL)")

    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_before = load_average()
    print(f"# bench_tournament: {args.pads} pads, {args.spectators} spectators, "
          f"{args.seconds:g} s, a line every {args.interval:g} s, {args.db}, "
          f"{args.servers} server{'s' if args.servers > 1 else ''}"
          + ("" if args.console else ", no console")
          + (", pads refetch their live part" if args.pad_live else "")
          + (", each pad to one server" if args.pin and args.servers > 1 else ""))  # fmt: skip
    print(f"# {when}; Python {platform.python_version()}, {os.cpu_count()} CPUs; "
          f"load average {load_before} at the start")  # fmt: skip
    with contextlib.ExitStack() as stack:
        folder = args.dir or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        folder.mkdir(parents=True, exist_ok=True)
        url = stack.enter_context(ledger_url(args.db, args.url, folder))
        token = director_token(url)
        with serve_processes(url, args.servers, folder) as running:
            bases = [served.base for served in running]
            made = time.perf_counter()
            started = asyncio.run(start_matches(bases, token, args.pads))
            # the wall is the spectators' once the event is published (where serve has one)
            publish = [*BGLEDGER, "--db", url, "publish", "--event", EVENT]
            if subprocess.run(publish, capture_output=True).returncode == 0:
                print(f"# the event published to spectators (bgledger publish --event {EVENT})")
            count = int(args.seconds / args.interval) + 3
            pads = [
                Pad(m, t, e, lines_of(m, count, SEED + n)) for n, (m, t, e) in enumerate(started)
            ]
            print(f"# {len(pads)} matches started over the API, their lines played in memory, "
                  f"in {time.perf_counter() - made:.1f} s\n")  # fmt: skip
            cpu_before = [cpu_seconds(served.pid) for served in running]
            client_before = time.process_time()
            machine_before, wall_before = machine_busy(), time.perf_counter()
            seen, took = asyncio.run(
                run(
                    bases,
                    pads,
                    args.spectators,
                    args.seconds,
                    args.interval,
                    args.resend,
                    args.console,
                    args.pin,
                    args.walls,
                    args.pad_live,
                )
            )
            cpu = Cpu(
                sum(cpu_seconds(served.pid) for served in running) - sum(cpu_before),
                time.process_time() - client_before,
                machine_busy() - machine_before,
                time.perf_counter() - wall_before,
            )
            stored = stored_events(bases, [p.match_id for p in pads])
        verify = subprocess.run([*BGLEDGER, "--db", url, "verify"], capture_output=True, text=True)
    said = (verify.stdout + verify.stderr).strip().splitlines()
    intact = [line for line in said if line.endswith(")") and "chain intact" in line]
    others = [line for line in said if line not in intact]
    verified = (
        verify.returncode == 0,
        f"exit {verify.returncode}, {len(intact)} matches' chains intact"
        + "".join(f"; {line}" for line in others[:5]),
    )
    checks = report(args, seen, took, pads, stored, cpu, verified)
    print(f"\n# load average {load_average()} at the end")
    failed = not all(ok for ok, _ in checks)
    return 1 if failed and args.check else 0


@dataclass(frozen=True)
class Cpu:
    servers: float  # s, every serve process
    client: float  # s, this process (the pads, spectators and console)
    machine: float  # s, every process on every CPU (the database's and other users' too)
    wall: float  # s, while these were measured


def integrity(pads: Sequence[Pad], seen: Seen, stored: dict[str, int]) -> tuple[int, int, int]:
    """Lines answered but not stored, stored events no answer gave, events answered twice."""
    lost = unanswered = doubled = 0
    for pad in pads:
        acked = seen.acked.get(pad.match_id, [])
        doubled += len(acked) - len(set(acked))
        expected = set(range(pad.events + 1, stored[pad.match_id] + 1))
        lost += len(set(acked) - expected)
        unanswered += len(expected - set(acked))
    return lost, unanswered, doubled


def stream_faults(seen: Seen, stored: dict[str, int]) -> int:
    """Spectators whose stream did not carry each event after its page once, in order."""
    faults = 0
    for match_id, since, numbers in seen.spectator_streams.values():
        faults += numbers != list(range(since + 1, stored[match_id] + 1))
    return faults


def report(
    args: argparse.Namespace, seen: Seen, took: float, pads: Sequence[Pad],
    stored: dict[str, int], cpu: Cpu, verified: tuple[bool, str],
) -> list[tuple[bool, str]]:  # fmt: skip
    """Print the figures, the checks and a row for bench/README.md; the checks."""
    lines = len(seen.latencies)
    rate = lines / took
    p50, p99 = (1000 * quantile(seen.latencies, q) for q in (0.5, 0.99))
    lags = [when - seen.sent_at[(m, n)] for m, n, when in seen.arrivals if (m, n) in seen.sent_at]
    lag50, lag99 = (1000 * quantile(lags, q) for q in (0.5, 0.99))
    spectator = statistics.mean(seen.spectator_bytes) if seen.spectator_bytes else 0.0
    per_line = 1000 * cpu.servers / max(lines, 1)
    print(f"lines answered                {lines:>8,}  ({rate:.1f} lines/s in {took:.1f} s)")
    print(f"POST a line, ms               p50 {p50:7.1f}   p99 {p99:7.1f}   "
          f"max {1000 * max(seen.latencies, default=0):7.1f}")  # fmt: skip
    print(f"line -> spectator stream, ms  p50 {lag50:7.1f}   p99 {lag99:7.1f}   "
          f"({len(lags):,} deliveries)")  # fmt: skip
    print(f"sent again after an error     {sum(seen.errors.values()):>8,}")
    for why, count in seen.errors.most_common(3):
        print(f"  {count:,} after: {why}")
    print(f"sent twice on purpose         {seen.resent:>8,}")
    page_bytes, page_s = seen.console_page
    print(f"console: page                 {kb(page_bytes):>12} in {1000 * page_s:.0f} ms")
    print(f"console: stream + refetches   {kb(seen.console_bytes):>12} "
          f"({kb(seen.console_bytes / max(lines, 1))} a line)")  # fmt: skip
    for name, times in (("console", seen.console_refetches),
                        ("spectators'", seen.spectator_refetches)):  # fmt: skip
        print(f"{name + ' refetches, ms':<30}p50 {1000 * quantile(times, 0.5):7.1f}   "
              f"p99 {1000 * quantile(times, 0.99):7.1f}   ({len(times):,} of them)")  # fmt: skip
    print(f"a spectator (mean)            {kb(spectator):>12} (page, stream, live parts)")
    if seen.wall_bytes:
        walled = [when - seen.sent_at[(m, n)] for m, n, when in seen.wall_arrivals
                  if (m, n) in seen.sent_at]  # fmt: skip
        print(f"a wall (mean)                 {kb(statistics.mean(seen.wall_bytes)):>12} "
              f"(page and stream; {len(seen.wall_bytes)} walls)")  # fmt: skip
        print(f"line -> a wall, ms            p50 {1000 * quantile(walled, 0.5):7.1f}   "
              f"p99 {1000 * quantile(walled, 0.99):7.1f}   ({len(walled):,} cards)")  # fmt: skip
    print(f"CPU: servers                  {cpu.servers:8.1f} s ({per_line:.1f} ms a line, "
          f"{100 * cpu.servers / took:.0f}% of one CPU)")  # fmt: skip
    print(f"CPU: this client              {cpu.client:8.1f} s")
    cpus = os.cpu_count() or 1
    print(f"CPU: the whole machine        {cpu.machine:8.1f} s "
          f"({100 * cpu.machine / (cpus * cpu.wall):.0f}% of its {cpus} CPUs; the servers and "
          f"this client {100 * (cpu.servers + cpu.client) / max(cpu.machine, 1e-9):.0f}% "
          f"of that)")  # fmt: skip
    lost, unanswered, doubled = integrity(pads, seen, stored)
    faults = stream_faults(seen, stored)
    checks = [
        (p99 < TARGET_P99_MS, f"p99 {p99:.1f} ms a line < {TARGET_P99_MS:g} ms"),
        (
            lost == unanswered == doubled == 0 and not seen.refused,
            f"nothing lost or doubled: {sum(stored.values()):,} events in {len(pads)} matches; "
            f"answered but not stored {lost}, stored but never answered {unanswered}, "
            f"answered twice {doubled}, refused {len(seen.refused)}",
        ),
        (
            not seen.resend_faults,
            f"{seen.resent} lines sent twice with one key: "
            f"{seen.resent - len(seen.resend_faults)} answered as replayed, same events",
        ),
        (
            faults == 0,
            f"{len(seen.spectator_streams)} spectators' streams carried each event once, in order"
            + (f" ({faults} did not)" if faults else ""),
        ),
        (
            not seen.failed_reads,
            f"every page and live part refetched answered 200 ({len(seen.failed_reads)} did not)",
        ),
        (verified[0], f"bgledger verify: {verified[1]}"),
    ]
    print()
    for ok, text in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    for refusal in seen.refused[:5] + seen.resend_faults[:5] + seen.failed_reads[:3]:
        print(f"  {refusal}")
    verdict = "PASS" if all(ok for ok, _ in checks) else "FAIL"
    print("\n# a row for bench/README.md:")
    print(f"| {args.db} | {args.servers} | {args.pads} | {args.spectators} | {args.seconds:g} "
          f"| {rate:.1f} | {p50:.1f} / {p99:.1f} | {lag50:.0f} / {lag99:.0f} "
          f"| {kb(seen.console_bytes / max(lines, 1))} | {kb(spectator)} "
          f"| {per_line:.1f} | {verdict} |")  # fmt: skip
    return checks


if __name__ == "__main__":
    sys.exit(main())
