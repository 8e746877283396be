"""Benchmark: the director's console of one event of 1,000 matches, drawn and followed live.

    python bench/bench_console.py [--matches N] [--actions A] [--lines L] [--dir DIR]
                                  [--browser] [--check]

Stores ``--matches`` (1,000) matches of one event in a fresh SQLite file, as
``bench_web.py`` does (seeded random legal actions, ``MatchStore.store_new``
50 a transaction), then, on one :class:`bgledger.Ledger` configured as
``bgledger serve`` configures it and the application of
:func:`bgledger.web.create_app`, in-process (Starlette's TestClient and raw
ASGI calls: the whole stack, no network):

1. **first drawing**: ``GET /events/E/director`` (every table from its
   read-model row and the state it keeps), the first after the server
   starts (cold) and then warm, median of 5.  **Target: < 1 s.**  With
   ``--browser``, the same page served by uvicorn (in this process) in
   Chromium (selenium): the time to the page's ``load`` event (parsed, styled,
   laid out, scripts run), and of it the time to the answer's first byte.
2. **bytes per line**: the console's stream (``/api/events/E/events``) is open
   while ``--lines`` (20) lines are posted one at a time, each at a random
   match under way; the bytes the stream carries for each line (its
   ``changes`` message: the table's row and card, the rulings and standings
   rows).  **Target: <= 20 KB** (the worst line).  Against it, measured in the
   same run: the console's whole live part and its standings (``GET
   .../director/live`` and ``.../standings``), what the console before issue 26
   fetched again for every line (then 1.36 MB, its cards larger).
3. **one computation for many**: 50 match streams of one match and 5
   consoles open while a line is posted there: how many times the match's
   news was worked out (1: one feed per match).

Prints a table and PASS/FAIL per target; exit 0 either way (``--check``: 1
if a target is missed).
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from starlette.testclient import TestClient  # noqa: E402

from bgledger.commands.match import Match, match_uuid  # noqa: E402
from bgledger.service import Ledger  # noqa: E402
from bgledger.web import create_app  # noqa: E402
from tests.match_driver import next_line, play_lines, store_matches  # noqa: E402
from tests.test_web_live import Stream  # noqa: E402

CACHE = 256  # as bgledger serve (cli/web_commands.py)
EVENT = "Open"
DRAW_TARGET_S = 1.0
BYTES_TARGET = 20_000


def build(url: str, matches: int, actions: int) -> float:
    """Store the matches, all of one event; seconds taken."""
    started = time.perf_counter()

    def played(i: int) -> Match:
        match_id = f"m{i:04d}"
        match = Match.start(
            match_uuid(match_id), match_id, (f"A{i}", f"B{i}"), 7,
            event=EVENT, table=str(i + 1), by="bench",
        )  # fmt: skip
        play_lines(match, random.Random(i), actions if i % 10 else 0, by="bench")
        return match

    store_matches(url, (played(i) for i in range(matches)))
    return time.perf_counter() - started


def timed(call: Any) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


async def follow_lines(ledger: Ledger, lines: int) -> tuple[list[int], int]:
    """Bytes on an open console's stream for each of ``lines`` lines posted at random tables;
    and the live part's size (the whole refetch of the old console)."""
    app = create_app(ledger, poll_seconds=0.05)
    rng = random.Random(7)
    playing = [
        row["match_id"] for row in ledger.matches(EVENT) if row["game"] and not row["winner"]
    ]
    stream = Stream(app, f"/api/events/{EVENT}/events", f"since={ledger.last_stored()}")
    loop = asyncio.get_running_loop()
    await asyncio.wait_for(stream.chunks.get(), 5)  # the opening
    sizes: list[int] = []
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://bench") as client:
        # the old console's refetch: the live part with the standings (now drawn on demand)
        whole = len((await client.get(f"/events/{EVENT}/director/live")).content)
        whole += len((await client.get(f"/events/{EVENT}/director/standings")).content)
        for _ in range(lines):
            match_id = rng.choice(playing)
            line = next_line(ledger.state(match_id), rng)
            if line is None:
                continue
            token = ledger.issue_token("scorekeeper", match_id=match_id, label=f"pad {match_id}")
            answer = await client.post(
                f"/api/matches/{match_id}/lines",
                json={"line": line},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.status_code == 201, answer.text
            received = b""
            deadline = loop.time() + 5
            while b"event: changes" not in received or not received.endswith(b"\n\n"):
                left = deadline - loop.time()
                if left <= 0:
                    break
                try:
                    received += await asyncio.wait_for(stream.chunks.get(), left)
                except TimeoutError:
                    break
            assert match_id.encode() in received, f"the console did not hear of {match_id}"
            sizes.append(len(received))
    await stream.close()
    return sizes, whole


async def shared(ledger: Ledger) -> tuple[int, int]:
    """(matches worked out, streams) for one line posted while 50 match streams and 5 consoles
    follow."""
    app = create_app(ledger, poll_seconds=0.05)
    match_id = next(
        row["match_id"] for row in ledger.matches(EVENT) if row["game"] and not row["winner"]
    )
    streams = [Stream(app, f"/api/matches/{match_id}/events") for _ in range(50)]
    streams += [Stream(app, f"/api/events/{EVENT}/events") for _ in range(5)]
    for stream in streams:
        await asyncio.wait_for(stream.chunks.get(), 5)
    feeds = app.state.feeds
    before = feeds.worked
    token = ledger.issue_token("scorekeeper", match_id=match_id, label="pad shared")
    line = next_line(ledger.state(match_id), random.Random(3))
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://bench") as client:
        answer = await client.post(
            f"/api/matches/{match_id}/lines",
            json={"line": line},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 201, answer.text
    loop = asyncio.get_running_loop()
    for stream in streams[:50]:
        assert await stream.events(loop.time() + 5), "a match stream missed the line"
    for stream in streams:
        await stream.close()
    return feeds.worked - before, len(streams)


def paint(ledger: Ledger) -> tuple[float, float] | None:
    """Seconds to the console's ``load`` event in headless Chromium, and of them until the
    answer's first byte (the server's part); None without Chromium."""
    try:
        from selenium import webdriver

        from tests.served import CHROMEDRIVER, CHROMIUM, serving
    except ImportError:
        return None
    if CHROMIUM is None or CHROMEDRIVER is None:
        return None
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(CHROMEDRIVER))
    try:
        with serving(ledger) as base:
            took, served = [], []
            for _ in range(5):
                driver.get(f"{base}/events/{EVENT}/director")
                timing = driver.execute_script(
                    "var t = performance.getEntriesByType('navigation')[0];"
                    "return [t.startTime, t.responseStart, t.loadEventEnd];"
                )
                took.append((timing[2] - timing[0]) / 1000)
                served.append((timing[1] - timing[0]) / 1000)
            return statistics.median(took), statistics.median(served)
    finally:
        driver.quit()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--lines", type=int, default=20)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        build_s = build(url, args.matches, args.actions)
        ledger = Ledger(url, cache_size=CACHE)
        ledger.matches()  # the read models caught up once, as a server's first list does
        client = TestClient(create_app(ledger))
        console = f"/events/{EVENT}/director"
        page = client.get(console)
        cold = [timed(lambda: client.get(console))]
        warm = [timed(lambda: client.get(console)) for _ in range(5)]
        page_bytes = len(page.content)
        sizes, whole = asyncio.run(follow_lines(ledger, args.lines))
        worked, followers = asyncio.run(shared(ledger))
        painted = paint(ledger) if args.browser else None
        ledger.close()

    print(
        f"# bench_console: {args.matches} matches of one event ({args.actions} actions each, "
        f"one in ten not begun), SQLite, Python {platform.python_version()}, "
        f"stored in {build_s:.1f} s"
    )
    print(f"console first drawing, server (cold)     {cold[0] * 1000:8.0f} ms")
    print(f"console first drawing, server (warm)     {statistics.median(warm) * 1000:8.0f} ms"
          f"  (median of {len(warm)}; page {page_bytes / 1000:.0f} KB)")  # fmt: skip
    if painted is not None:
        loaded, first = (round(seconds * 1000) for seconds in painted)
        print(f"console in Chromium, to its load event   {loaded:8d} ms  (median of 5; "
              f"{first} ms of it to the first byte)")  # fmt: skip
    mean, worst = statistics.mean(sizes), max(sizes)
    print(f"bytes to the console per line            {mean:8.0f} mean, {worst} max  "
          f"({len(sizes)} lines)")  # fmt: skip
    print(f"live part + standings (the old refetch)  {whole:8d} bytes  "
          f"= {whole / mean:.0f} x the mean line")  # fmt: skip
    print(f"news worked out for one line, {followers} streams  {worked:8d}")
    verdicts = [
        ("first drawing < 1 s (cold)", cold[0] < DRAW_TARGET_S),
        ("first drawing < 1 s (warm median)", statistics.median(warm) < DRAW_TARGET_S),
        ("a line costs the console <= 20 KB (worst)", worst <= BYTES_TARGET),
        ("one computation per match for many streams", worked == 1),
    ]
    if painted is not None:
        verdicts.append(("drawn in Chromium < 1 s", painted[0] < DRAW_TARGET_S))
    for name, ok in verdicts:
        print(f"{'PASS' if ok else 'FAIL'}  {name}")
    return 1 if args.check and not all(ok for _, ok in verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
