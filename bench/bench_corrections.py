"""Benchmark: what ``undo`` and ``amend`` cost against recording an ordinary line, same run.

    python bench/bench_corrections.py [--actions N] [--repeat N] [--seed N] [--check]

Plays one seeded random legal match (``tests/match_driver.py``) of ``--actions``
lines into a SQLite ledger through the front door (``Ledger.record_line``, as
the console does), then times on copies of that file:

- **line**: recording the next action of the match (the baseline);
- **undo**: withdrawing the last entry (decided on the match's history);
- **amend K back**: amending the roll entered K entries before the last with the
  same dice, so that every one of the K later entries is decided again on the
  amended history (the most an amendment does), with ``ruled_by="director"``
  where the entry is in an earlier game.

Each figure is the median of ``--repeat`` runs, each on a fresh copy of the
file, through a fresh ``Ledger`` (its first command pays the load, as a
one-shot command does).  Target: ``undo`` within 5x of a line and an amendment
20 entries back (a game's worth of typing) within 10x; the deeper rows show how
the cost grows with what is re-decided.  ``--check`` exits 1 if a target is
missed.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bgledger.commands.corrections import entries_in_force  # noqa: E402
from bgledger.events import DiceRolled  # noqa: E402
from bgledger.service import Ledger  # noqa: E402
from tests.match_driver import next_line  # noqa: E402

MATCH = "bench"
UNDO_TARGET = 5.0
AMEND_TARGET = 10.0
AMEND_TARGET_DEPTH = 20


def populate(path: Path, actions: int, seed: int) -> Ledger:
    ledger = Ledger(f"sqlite:///{path}")
    ledger.start(("Ann", "Bob"), 25, match_id=MATCH, by="bench")
    rng = random.Random(seed)
    for _ in range(actions):
        line = next_line(ledger.state(MATCH), rng)
        if line is None:
            break
        ledger.record_line(MATCH, line, by="bench")
    return ledger


def timed(source: Path, folder: Path, run: Callable[[Ledger], object], repeat: int) -> float:
    """Median milliseconds of ``run`` on a fresh copy of ``source``, through a fresh Ledger."""
    times = []
    for index in range(repeat):
        copy = folder / f"copy-{index}.db"
        with sqlite3.connect(source) as old, sqlite3.connect(copy) as new:
            old.backup(new)  # the WAL's pages too, which a file copy would miss
        ledger = Ledger(f"sqlite:///{copy}")
        start = time.perf_counter()
        run(ledger)
        times.append((time.perf_counter() - start) * 1000)
        del ledger
        copy.unlink()
    return statistics.median(times)


def roll_back(ledger: Ledger, depth: int) -> tuple[int, str, bool]:
    """The roll entered about ``depth`` entries before the last: its number, its line, and
    whether it is in an earlier game than the last entry."""
    history = ledger.events(MATCH)
    found = entries_in_force(history)
    for entry in reversed(found[: max(1, len(found) - depth)]):
        first = entry.first
        if isinstance(first, DiceRolled) and len(entry.events) == 1:
            earlier = entry.game < found[-1].game
            return entry.number, f"roll {first.die1} {first.die2}", earlier
    raise SystemExit(f"no plain roll {depth} entries back")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--check", action="store_true")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = folder / "match.db"
        ledger = populate(source, options.actions, options.seed)
        events = len(ledger.events(MATCH))
        following = next_line(ledger.state(MATCH), random.Random(options.seed + 1))
        assert following is not None, "the match ended: use fewer --actions"
        del ledger
        print(f"one match of {events} events ({options.actions} actions), SQLite, ")
        print(f"median of {options.repeat} runs, each on a fresh copy through a fresh Ledger\n")
        base = timed(
            source, folder, lambda lg: lg.record_line(MATCH, following, by="b"), options.repeat
        )
        rows = [("line (the next action)", base)]
        rows.append(
            ("undo", timed(source, folder, lambda lg: lg.undo(MATCH, by="b"), options.repeat))
        )
        probe = Ledger(f"sqlite:///{source}")
        depths = {}
        for depth in (1, AMEND_TARGET_DEPTH, 100, 400):
            number, line, earlier = roll_back(probe, depth)
            ruled = "director" if earlier else ""

            def amend(lg: Ledger, n: int = number, said: str = line, by: str = ruled) -> None:
                lg.amend(MATCH, n, said, ruled_by=by, by="b")

            later = events - number
            depths[depth] = timed(source, folder, amend, options.repeat)
            rows.append(
                (f"amend {depth} entries back (event {number}, {later} after)", depths[depth])
            )
        del probe
    print(f"{'command':<52} {'ms':>9} {'x line':>8}")
    for label, ms in rows:
        print(f"{label:<52} {ms:>9.1f} {ms / base:>8.1f}")
    undo_ratio = rows[1][1] / base
    amend_ratio = depths[AMEND_TARGET_DEPTH] / base
    ok_undo, ok_amend = undo_ratio <= UNDO_TARGET, amend_ratio <= AMEND_TARGET
    print(f"\ntarget: undo / line = {undo_ratio:.1f}x, at most {UNDO_TARGET:g}x: "
          f"{'PASS' if ok_undo else 'FAIL'}")  # fmt: skip
    print(f"target: amend {AMEND_TARGET_DEPTH} back / line = {amend_ratio:.1f}x, at most "
          f"{AMEND_TARGET:g}x: {'PASS' if ok_amend else 'FAIL'}")  # fmt: skip
    return 1 if options.check and not (ok_undo and ok_amend) else 0


if __name__ == "__main__":
    raise SystemExit(main())
