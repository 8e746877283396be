"""Benchmark: the CPU a line costs a server with every watcher open, short and long match (#31).

    python bench/bench_watched.py [--lines 30] [--dir DIR]

One SQLite file in a temporary folder, a :class:`bgledger.Ledger` configured as
``bgledger serve`` configures it (a cache of 256 matches) and the application
of :func:`bgledger.web.create_app` (live streams polled every 50 ms), driven
in-process over ASGI (``httpx2.ASGITransport``; the streams are raw ASGI calls,
as in ``tests/test_web_live.py``).  Two matches of one published event:

- **fresh**: a 7-point match started for the bench (a few dozen events);
- **long**: ``bench_line.py``'s long match: a real 15-point match of the corpus
  cut before its last game, 1,387 events, topped up with notes to 1,500.

Every watcher a venue has is open on each match: the scorekeeper's pad (its live
stream, and the refetch of its live part after each answer, as ``pad.js`` does),
a spectator's match stream with the match page's and the spectator's page's
live parts refetched after each line (``live.js``, ``watch.js``), the director's
console of the event and its wall.  Each line (the matches' next legal lines,
``tests/match_driver.next_line``, in turn) is posted, every watcher waits for
its message, the pages are refetched; the process's CPU (``time.process_time``:
the server and this in-process client together, the client's share the same
before and after) is taken around it.  Then ``--lines`` more lines each count the
events folded (``projections.state.fold._step`` wrapped, so that the same count
is taken on code without the counter).

Prints, per match: CPU ms a line (median, mean) and events folded a line (median,
max).  Exit 0.
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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import httpx2  # noqa: E402
from bench_line import CORPUS, CUT, LONG, LONG_EVENTS  # noqa: E402

from bgledger.cli.web_commands import CACHE_SIZE  # noqa: E402
from bgledger.projections.state import fold as the_fold  # noqa: E402
from bgledger.service import Ledger  # noqa: E402
from bgledger.web import create_app  # noqa: E402
from tests.match_driver import next_line  # noqa: E402
from tests.test_web_live import Stream  # noqa: E402

EVENT = "2022 Summer Legends"  # the long match's, from its .mat
WITHIN = 10.0


def setup(ledger: Ledger, folder: Path) -> dict[str, str]:
    """The two matches of :data:`EVENT`, published; their ids by kind."""
    cut = folder / "long.mat"
    lines = (CORPUS / LONG).read_text(encoding="utf-8").splitlines(keepends=True)
    cut.write_text("".join(lines[:CUT]), encoding="utf-8")
    ledger.import_file(cut, match_id="long")
    while ledger.state("long").events < LONG_EVENTS:
        ledger.record_line("long", "note before", by="bench")
    ledger.start(("Ann", "Bob"), 7, match_id="fresh", event=EVENT, by="bench")
    ledger.publish(EVENT, by="the director")
    ledger.matches()  # the read models made
    return {"fresh": "fresh", "long": "long"}


class Counted:
    """Events folded, counted by wrapping the fold's one step (on any version of the code)."""

    def __init__(self) -> None:
        self.events = 0
        self._step = the_fold._step

    def __enter__(self) -> Counted:
        step = self._step

        def counted(*args: Any) -> Any:
            self.events += 1
            return step(*args)

        the_fold._step = counted  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        the_fold._step = self._step  # type: ignore[assignment]


async def run(ledger: Ledger, lines: int) -> dict[str, dict[str, list[float]]]:
    app = create_app(ledger, poll_seconds=0.05)
    kinds = ("fresh", "long")
    tokens = {m: ledger.issue_token("scorekeeper", match_id=m, label="kim") for m in kinds}
    streams = {
        m: [Stream(app, f"/api/matches/{m}/events") for _ in range(2)] for m in ("fresh", "long")
    }
    console = Stream(app, f"/api/events/{EVENT}/events")
    wall = Stream(app, f"/api/events/{EVENT}/wall/events")
    for stream in [*streams["fresh"], *streams["long"], console, wall]:
        await asyncio.wait_for(stream.chunks.get(), WITHIN)
    rng = random.Random(20261128)
    loop = asyncio.get_running_loop()
    figures: dict[str, dict[str, list[float]]] = {
        m: {"cpu": [], "folded": []} for m in ("fresh", "long")
    }
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://bench") as client:

        async def one(match: str) -> bool:
            line = next_line(ledger.state(match), rng)
            if line is None:
                return False
            answer = await client.post(
                f"/api/matches/{match}/lines",
                json={"line": line},
                headers={"Authorization": f"Bearer {tokens[match]}"},
            )
            assert answer.status_code == 201, answer.text
            assert (await client.get(f"/matches/{match}/live?from=a")).status_code == 200
            for stream in streams[match]:
                assert await stream.events(loop.time() + WITHIN)
            for page in (f"/matches/{match}/live?ids=1", f"/matches/{match}/watch/live"):
                assert (await client.get(page)).status_code == 200
            assert await console.events(loop.time() + WITHIN, "changes")
            assert await wall.events(loop.time() + WITHIN, "card")
            return True

        for match in ("fresh", "long"):  # warm: each watcher has read the match once
            await one(match)
        for counting in (False, True):
            for _ in range(lines):
                for match in ("fresh", "long"):
                    counted = Counted()
                    started = time.process_time()
                    if counting:
                        with counted:
                            going = await one(match)
                    else:
                        going = await one(match)
                    took = time.process_time() - started
                    if not going:
                        continue
                    if counting:
                        figures[match]["folded"].append(counted.events)
                    else:
                        figures[match]["cpu"].append(1000 * took)
    for stream in [*streams["fresh"], *streams["long"], console, wall]:
        await stream.close()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=30, help="lines a match, timed and counted")
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    if not (CORPUS / LONG).exists():
        sys.exit(f"bench_watched: {CORPUS / LONG} is missing (the real corpus)")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        ledger = Ledger(f"sqlite:///{Path(folder) / 'bench.db'}", cache_size=CACHE_SIZE)
        setup(ledger, Path(folder))
        figures = asyncio.run(run(ledger, args.lines))
        events = {m: ledger.state(m).events for m in ("fresh", "long")}
        ledger.close()
    print(f"# bench_watched: in-process, SQLite, Python {platform.python_version()}; a pad, a "
          f"spectator (stream, match page, spectator's page), the console, a wall")  # fmt: skip
    print(f"# fresh ended at {events['fresh']} events, long at {events['long']}")
    print(f"{'match':8} {'CPU ms a line: median  mean':>30} "
          f"{'events folded a line: median  max':>36}")  # fmt: skip
    for match in ("fresh", "long"):
        cpu, folded = figures[match]["cpu"], figures[match]["folded"]
        print(f"{match:8} {statistics.median(cpu):22.2f} {statistics.mean(cpu):6.2f} "
              f"{statistics.median(folded):28.0f} {max(folded):6.0f}"
              f"   ({len(cpu)} + {len(folded)} lines)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
