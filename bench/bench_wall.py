"""Benchmark: the spectators' wall of a 1,000-match event, with many walls and spectators open.

    python bench/bench_wall.py [--matches N] [--walls W] [--posts P] [--spectators S] [--check]

Stores ``--matches`` (1,000) matches of one event (``MatchStore.store_new``,
50 a transaction, each with an opening roll and a play: in play), publishes the
event, and drives :func:`bgledger.web.create_app` in-process (the whole ASGI
stack, no network):

1. ``GET /events/E/wall`` (12 boards of the 1,000, from the read-model rows),
   the first request after the server starts and then warm: ms and bytes.
2. ``--walls`` (50) wall streams (``GET /api/events/E/wall/events``) open
   while a pad posts ``--posts`` (20) lines to random matches of the event,
   one at a time: the time from the POST to the last wall receiving the
   match's card (**target: < 1 s**, the worst), the bytes each wall receives
   a line (**target: < 2 KB**: one match's figures, never the event), and the
   reads of the event's rows a line (shared by the walls: one or two, not 50).
3. ``--spectators`` (50) spectators of one match refetch its live part after a
   line: how many times it was drawn (**target: 1**) and the ms of the slowest.

Prints a table and PASS/FAIL per target; exit 0 either way (``--check``: 1 if
a target is missed).
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

from bgledger.commands.match import Match, match_uuid  # noqa: E402
from bgledger.service import Ledger  # noqa: E402
from bgledger.web import create_app  # noqa: E402
from tests.match_driver import store_matches  # noqa: E402
from tests.test_web_live import Stream  # noqa: E402

EVENT = "Open"
LIVE_TARGET_S = 1.0
BYTES_TARGET = 2048
OPENING = ("opening 3 1", "move 8/5 6/5")
PLAYS = ("roll 6 4", "move 24/14", "roll 5 2", "move 13/8 13/11")


def build(url: str, matches: int) -> float:
    """Store the matches of the event, each in play; seconds taken."""
    started = time.perf_counter()

    def begun(i: int) -> Match:
        match_id = f"m{i:04d}"
        return Match.start(
            match_uuid(match_id), match_id, (f"A{i}", f"B{i}"), 7, event=EVENT, by="bench"
        )

    store_matches(url, (begun(i) for i in range(matches)))
    return time.perf_counter() - started


async def live(ledger: Ledger, app: Any, walls: int, posts: int) -> dict[str, Any]:
    """The walls open while ``posts`` lines are posted: latency, bytes, row reads."""
    reads = 0
    matches = ledger.matches

    def counted(event: str | None = None, **options: Any) -> list[dict[str, Any]]:
        nonlocal reads
        reads += 1  # the event's rows, or (the feed hub's) the moved matches' rows
        return matches(event, **options)

    ledger.matches = counted  # type: ignore[method-assign]
    streams = [Stream(app, f"/api/events/{EVENT}/wall/events") for _ in range(walls)]
    for stream in streams:
        await asyncio.wait_for(stream.chunks.get(), 30)  # open
    rng = random.Random(7)
    loop = asyncio.get_running_loop()
    latencies, sizes, line_reads = [], [], []
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://bench") as pad:
        for _ in range(posts):
            match_id = f"m{rng.randrange(len(matches(EVENT))):04d}"
            token = ledger.issue_token("scorekeeper", match_id=match_id)
            line = OPENING[0] if ledger.state(match_id).events < 2 else "note bench"
            reads = 0
            posted = loop.time()
            answer = await pad.post(
                f"/api/matches/{match_id}/lines",
                json={"line": line},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.status_code == 201, answer.text
            worst = 0.0
            for stream in streams:
                got = b""
                while b"event: card" not in got or not got.endswith(b"\n\n"):
                    got += await asyncio.wait_for(stream.chunks.get(), 30)
                worst = max(worst, loop.time() - posted)
                sizes.append(len(got))
                assert match_id.encode() in got
            latencies.append(worst)
            line_reads.append(reads)
    for stream in streams:
        await stream.close()
    ledger.matches = matches  # type: ignore[method-assign]
    return {"latencies": latencies, "sizes": sizes, "reads": line_reads}


def spectators(ledger: Ledger, app: Any, count: int) -> tuple[int, float]:
    """``count`` spectators refetch a match's live part after a line: drawings, worst ms."""
    from starlette.testclient import TestClient

    client = TestClient(app)
    ledger.record_line("m0001", "note a line for the spectators", by="bench")
    drawn = 0
    show = ledger.show

    def counted(match_id: str, at: int | None = None, **options: Any) -> Any:
        nonlocal drawn
        drawn += 1
        return show(match_id, at, **options)

    ledger.show = counted  # type: ignore[method-assign]
    worst = 0.0
    for _ in range(count):
        started = time.perf_counter()
        assert client.get("/matches/m0001/watch/live").status_code == 200
        worst = max(worst, (time.perf_counter() - started) * 1000)
    ledger.show = show  # type: ignore[method-assign]
    return drawn, worst


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--walls", type=int, default=50)
    parser.add_argument("--posts", type=int, default=20)
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'wall.db'}"
        built = build(url, args.matches)
        ledger = Ledger(url)
        ledger.publish(EVENT, by="bench")
        for i in range(0, args.matches, 2):  # half of them in play
            for line in OPENING:
                ledger.record_line(f"m{i:04d}", line, by="bench")
        app = create_app(ledger)
        from starlette.testclient import TestClient

        client = TestClient(app)
        started = time.perf_counter()
        first = client.get(f"/events/{EVENT}/wall")
        cold = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        client.get(f"/events/{EVENT}/wall")
        warm = (time.perf_counter() - started) * 1000
        result = asyncio.run(live(ledger, app, args.walls, args.posts))
        drawn, slowest = spectators(ledger, app, args.spectators)
        ledger.close()
    worst = max(result["latencies"])
    size = statistics.mean(result["sizes"])
    checks = [
        ("a line reaches every wall (worst)", f"{worst:.3f} s", worst < LIVE_TARGET_S),
        ("bytes to a wall a line (mean)", f"{size:.0f} B", size < BYTES_TARGET),
        ("drawings for the spectators of a match", f"{drawn}", drawn == 1),
    ]
    print(f"bench_wall on {platform.python_implementation()} {platform.python_version()}")
    print(f"stored {args.matches} matches of one event in {built:.1f} s")
    print(f"the wall's first page: {cold:.0f} ms cold, {warm:.0f} ms warm, {len(first.content)} B")
    print(
        f"{args.walls} walls, {args.posts} lines: median to the last wall"
        f" {statistics.median(result['latencies']) * 1000:.0f} ms;"
        f" reads of the event's rows a line: {result['reads']}"
    )
    print(f"{args.spectators} spectators of one match after a line: slowest {slowest:.1f} ms")
    for name, value, ok in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {value}")
    return 1 if args.check and not all(ok for _, _, ok in checks) else 0


if __name__ == "__main__":
    raise SystemExit(main())
