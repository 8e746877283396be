"""Benchmark: the answer to a posted line does not grow with the match (issue 22).

    python bench/bench_line.py [--rounds N] [--dir DIR] [--check]

One SQLite file in a temporary folder, one :class:`bgledger.Ledger` configured
as ``bgledger serve`` configures it (a cache of 256 matches) and the application
of :func:`bgledger.web.create_app`, driven in-process (Starlette's TestClient:
routing, authorization, the JSON answer, no network).  Two matches:

- **fresh**: a 7-point match started for the bench; it is replaced by a new one
  (untimed) once it has 100 events, so its lines are on matches of 1-100 events;
- **long**: a real match of the corpus, ``yokooo_-_FB_15pt...`` (1,504 events
  when whole), imported with :meth:`Ledger.import_file` from its ``.mat`` cut
  before the first move of its last game (14-13 to 15, the cube on 1): 1,387
  events, so game actions are still legal on it; untimed notes take it to 1,500
  events, and the bench plays that game on (random legal lines, to 1,550-1,600
  events) and, when it ends, imports a new copy (untimed).

Each round posts, through ``POST /api/matches/M/lines`` with each match's
scorekeeper token, the same kinds of line to both matches, the order of the two
alternating: ``note x`` (one event, no rules), and a **roll+move pair** (the
next legal lines of ``tests/match_driver.next_line``: the lines before a
``roll`` that are no roll, the opening roll, a cube action, are posted untimed;
the roll and the move after it are timed together; a roll that leaves no play
to make, and so ends the turn by itself, is not counted).  Before the timed
rounds each match takes a few untimed lines (the first line on a match after
the server starts folds it from its events; the long match's top-up notes do
that for it).  Median and p90 in ms, and the ratio long / fresh of the medians.
**Target: at most 1.5x** (the median of the line and of the pair).

Prints a table and PASS/FAIL per target; exit 0 either way (``--check``: 1 if a
target is missed).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from starlette.testclient import TestClient  # noqa: E402

from bgledger.cli.web_commands import CACHE_SIZE  # noqa: E402
from bgledger.service import Ledger  # noqa: E402
from bgledger.web import create_app  # noqa: E402
from tests.match_driver import next_line  # noqa: E402

CORPUS = REPO.parent / "shared" / "fixtures" / "matches" / "tournament"
LONG = "yokooo_-_FB_15pt_Backgammon_Studio_2022_08_16_14_41_00_1660660935.mat"
CUT = 441  # the .mat's lines kept: through the score line of game 17, its last (FB 13, yokooo 14)
FRESH_EVENTS = 100
LONG_EVENTS = 1500
TARGET = 1.5


class Bench:
    """The two matches, their tokens, and posting lines to them."""

    def __init__(self, ledger: Ledger, folder: Path) -> None:
        self.ledger = ledger
        self.client = TestClient(create_app(ledger))
        self.rng = random.Random(20261127)
        self.cut = folder / "long.mat"
        lines = (CORPUS / LONG).read_text(encoding="utf-8").splitlines(keepends=True)
        self.cut.write_text("".join(lines[:CUT]), encoding="utf-8")
        self.copies = 0
        self.ids = {"fresh": self._fresh(), "long": self._long()}
        self.tokens = {kind: self._token(match_id) for kind, match_id in self.ids.items()}

    def _fresh(self) -> str:
        return self.ledger.start(("Ann", "Bob"), 7, by="bench")

    def _long(self) -> str:
        self.copies += 1
        match_id = f"long{self.copies}"
        self.ledger.import_file(self.cut, match_id=match_id, again=True)
        while self.ledger.state(match_id).events < LONG_EVENTS:
            self.ledger.record_line(match_id, "note before", by="bench")
        return match_id

    def _token(self, match_id: str) -> str:
        return self.ledger.issue_token("scorekeeper", match_id=match_id, label="kim")

    def events(self, kind: str) -> int:
        return self.ledger.state(self.ids[kind]).events

    def post(self, kind: str, line: str) -> float:
        """ms to post ``line`` to the match and read its answer."""
        url = f"/api/matches/{self.ids[kind]}/lines"
        headers = {"Authorization": f"Bearer {self.tokens[kind]}"}
        started = time.perf_counter()
        response = self.client.post(url, json={"line": line}, headers=headers)
        took = (time.perf_counter() - started) * 1000
        assert response.status_code == 201, (kind, line, response.text)
        return took

    def _next(self, kind: str) -> str:
        """The match's next legal line, replacing a fresh match grown old or a match over."""
        if kind == "fresh" and self.events(kind) >= FRESH_EVENTS:
            self._replace(kind)
        line = next_line(self.ledger.state(self.ids[kind]), self.rng)
        if line is None:
            self._replace(kind)
            line = next_line(self.ledger.state(self.ids[kind]), self.rng)
            assert line is not None
        return line

    def _replace(self, kind: str) -> None:
        self.ids[kind] = self._fresh() if kind == "fresh" else self._long()
        self.tokens[kind] = self._token(self.ids[kind])
        self.post(kind, "note warm")  # its first line folds it: untimed

    def pair(self, kind: str) -> float:
        """ms of the next roll and the move after it (other lines before them untimed)."""
        while True:
            line = self._next(kind)
            if not line.startswith("roll "):
                self.post(kind, line)
                continue
            took = self.post(kind, line)
            move = next_line(self.ledger.state(self.ids[kind]), self.rng)
            if move is not None and move.startswith("move "):
                return took + self.post(kind, move)
            # a roll with no play to make ends the turn by itself: not a pair, try again


def stats(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[round(0.9 * (len(ordered) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if not (CORPUS / LONG).exists():
        sys.exit(f"bench_line: {CORPUS / LONG} is missing (the real corpus)")

    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        ledger = Ledger(url, cache_size=CACHE_SIZE)
        bench = Bench(ledger, Path(folder))
        start_events = {kind: bench.events(kind) for kind in ("fresh", "long")}
        for kind in ("fresh", "long"):  # warm-up
            for _ in range(5):
                bench.post(kind, "note warm")
                bench.pair(kind)
        notes: dict[str, list[float]] = {"fresh": [], "long": []}
        pairs: dict[str, list[float]] = {"fresh": [], "long": []}
        for i in range(args.rounds):
            order = ("fresh", "long") if i % 2 == 0 else ("long", "fresh")
            for kind in order:
                notes[kind].append(bench.post(kind, "note x"))
            for kind in order:
                pairs[kind].append(bench.pair(kind))
        end_events = bench.events("long")
        copies = bench.copies
        ledger.close()

    print(f"# bench_line: POST /api/matches/M/lines, in-process, SQLite, "
          f"Python {platform.python_version()}, {args.rounds} rounds")  # fmt: skip
    print(
        f"# fresh: 7-point matches of 1-{FRESH_EVENTS} events (started at "
        f"{start_events['fresh']}); long: {LONG[:22]}... cut, {start_events['long']} events "
        f"at the start, {end_events} at the end, {copies} cop{'y' if copies == 1 else 'ies'}"
    )
    print(f"{'':30} {'fresh':>14} {'long':>14} {'ratio':>7}")
    print(f"{'':30} {'median   p90':>14} {'median   p90':>14}  (ms)")
    verdicts = []
    for name, values in (("note x (one line)", notes), ("roll + move (two lines)", pairs)):
        fresh, long = stats(values["fresh"]), stats(values["long"])
        ratio = long[0] / fresh[0]
        print(f"{name:30} {fresh[0]:6.2f} {fresh[1]:6.2f} {long[0]:7.2f} {long[1]:6.2f} "
              f"{ratio:6.2f}x")  # fmt: skip
        verdicts.append((f"{name}: long / fresh = {ratio:.2f}x, at most {TARGET}x", ratio))
    for name, ratio in verdicts:
        print(f"{'PASS' if ratio <= TARGET else 'FAIL'}  {name}")
    return 1 if args.check and any(ratio > TARGET for _, ratio in verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
