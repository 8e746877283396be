"""The read models' catch-up: batches of notifications a transaction, or one a transaction.

    python bench/bench_projection.py [--matches 6] [--rounds 2]

eventsourcing's projection machinery (``Projection.process_event(event, tracking)``,
driven one event at a time by ``ProjectionRunner`` from a subscription) writes a
view's rows and its tracking record in one transaction per event.  bgledger's
read models (``ReadModels.catch_up``) fold up to ``BATCH`` (5,000) notifications
and move their tracking position in one transaction.  This times both
disciplines with the same fold and the same tables: ``ReadModels(batch=5000)``
against ``ReadModels(batch=1)`` (one notification, its rows and the tracking
row a transaction, as ``process_event`` would do), on copies of one SQLite
ledger of ``--matches`` random matches recorded after a first catch-up.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import match_driver  # noqa: E402

from bgledger.projections.readmodels.tracking import ReadModels  # noqa: E402
from bgledger.store.application import MatchStore  # noqa: E402


def make_ledger(path: Path, matches: int) -> int:
    """A ledger whose read models are caught up to its first match; the events after it."""
    ledger = MatchStore(f"sqlite:///{path}")
    ledger.start(("Ann", "Bob"), 3, match_id="first", by="kim", event="Open")
    ReadModels(ledger).catch_up()
    first = int(ledger.recorder.max_notification_id() or 0)
    rng = random.Random(7)
    for number in range(matches):
        match_id = f"m{number}"
        ledger.start(("Ann", "Bob"), 25, match_id=match_id, by="kim", event="Open")
        for _ in range(10):
            ledger.act(match_id, lambda match: len(match_driver.play_lines(match, rng, 50)))
    last = int(ledger.recorder.max_notification_id() or 0)
    ledger.close()
    return last - first


def time_catch_up(source: Path, folder: Path, batch: int) -> tuple[int, float]:
    copy = folder / f"copy-{batch}.db"
    for suffix in ("", "-wal", "-shm"):
        found = Path(f"{source}{suffix}")
        if found.exists():
            shutil.copy(found, f"{copy}{suffix}")
    ledger = MatchStore(f"sqlite:///{copy}")
    models = ReadModels(ledger, batch=batch)
    began = time.perf_counter()
    done = models.catch_up()
    took = time.perf_counter() - began
    ledger.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{copy}{suffix}").unlink(missing_ok=True)
    return done, took


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=6, help="matches recorded after")
    parser.add_argument("--rounds", type=int, default=2, help="alternated runs of each")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bgledger-projection-"))
    try:
        source = folder / "ledger.db"
        events = make_ledger(source, args.matches)
        print(f"{events} notifications to catch up on (SQLite file)")
        for _ in range(args.rounds):
            runs = ((5000, "5,000 a transaction (ReadModels)"), (1, "1 a transaction"))
            for batch, label in runs:
                done, took = time_catch_up(source, folder, batch)
                print(f"{label:36s} {done} in {took:6.2f} s: {done / took:8,.0f}/s")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
