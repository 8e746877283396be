"""Benchmark: rebuilding a clocked match, against the same match unclocked and raw sqlite3.

    python bench/bench_clock.py [--rebuilds N] [--check]

Plays one seeded random legal 75-point match (``tests/match_driver.py``) on
a simple-delay clock, with a hit after every play, double and take and
times 3-40 seconds apart, until the stream holds 1,500 events, and stores
it in a fresh SQLite file.  Then, medians of ``--rebuilds`` runs:

- the full replay of the clocked stream (``fold(ledger.history(id))``:
  every reserve worked out from the events' times);
- the fold alone of the same events in memory, and of the same events
  without the clock events (what the game alone costs);
- raw ``sqlite3`` ``SELECT`` + ``json.loads`` of the stored rows.

Target: the clocked full replay within 3x of the raw read, the target the
unclocked ledger meets (``bench_ledger.py``).  The per-event cost of the
clock handlers is printed against the game handlers' for information.
The exit status is 0 either way (``--check``: 1 if the target is missed).
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "bench"))

import match_driver  # noqa: E402
from bench_ledger import median_ms, raw_read, verdict  # noqa: E402

from bgledger.commands.language import Action  # noqa: E402
from bgledger.commands.match import Match, match_uuid  # noqa: E402
from bgledger.errors import ClockRefusedError  # noqa: E402
from bgledger.events import TIME_EVENTS  # noqa: E402
from bgledger.projections.state.fold import fold  # noqa: E402
from bgledger.store.application import MatchStore  # noqa: E402

MATCH_ID = "clocked"
EVENTS = 1_500
SEED = 20_261_121
TARGET = 3.0
"""Clocked full replay over raw select + json.loads: at most this."""
START = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)


def clocked_match(seed: int) -> Match:
    """A seeded random legal match on a simple-delay clock, ``EVENTS`` events long."""
    rng = random.Random(seed)
    match = Match.start(
        match_uuid(MATCH_ID), MATCH_ID, ("Ann", "Bob"), 75, by="bench",
        clock="simple-delay", at=START.isoformat(),
    )  # fmt: skip
    when = START
    while match.version < EVENTS:
        line = match_driver.next_line(match.state, rng)
        if line is None:
            break
        when += timedelta(seconds=rng.randint(3, 40))
        Action.parse(f"@{when.isoformat()} {line}").apply(match, "bench")
        try:  # a hit follows a play, a double or a take; otherwise it is refused
            match.hit(by="bench", at=(when + timedelta(seconds=1)).isoformat())
        except ClockRefusedError:
            continue
    return match


def main() -> int:
    """Run the benchmark; print the table and the verdict."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rebuilds", type=int, default=9)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    match = clocked_match(SEED)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "clock.db"
        ledger = MatchStore(f"sqlite:///{path}")
        ledger.save(match)
        events = ledger.history(MATCH_ID)
        game_only = [e for e in events if type(e) not in TIME_EVENTS]
        connection = sqlite3.connect(path)
        stream = match_uuid(MATCH_ID).bytes
        times = {
            "raw": median_ms(lambda: raw_read(connection, stream), args.rebuilds),
            "replay": median_ms(lambda: fold(ledger.history(MATCH_ID)), args.rebuilds),
            "fold": median_ms(lambda: fold(events), args.rebuilds),
            "game": median_ms(lambda: fold(game_only), args.rebuilds),
        }
        connection.close()
        ledger.close()
    clocked = len(events) - len(game_only)
    print(f"clocked match: {len(events)} events, {clocked} of them clock events (seed {SEED})")
    print(f"  raw SELECT + json.loads       {times['raw']:8.2f} ms")
    print(f"  full replay (clocked)         {times['replay']:8.2f} ms")
    print(f"  fold alone, all events        {times['fold']:8.2f} ms")
    print(f"  fold alone, game events only  {times['game']:8.2f} ms ({len(game_only)} events)")
    per_clock = (times["fold"] - times["game"]) / max(clocked, 1) * 1000
    per_game = times["game"] / len(game_only) * 1000
    print(f"  per clock event {per_clock:.1f} us, per game event {per_game:.1f} us")
    ratio = times["replay"] / times["raw"]
    print(f"target: clocked replay / raw = {ratio:.2f}x, at most {TARGET:g}x: "
          f"{verdict(ratio <= TARGET)}")  # fmt: skip
    return 1 if args.check and ratio > TARGET else 0


if __name__ == "__main__":
    sys.exit(main())
