"""Benchmark: the feed hub's cost of a line on a long match against a short one (issue 26).

    python bench/bench_feed.py [--lines 20] [--check]

Stores a 1,500-event match (``bench_web.build_long``) and a fresh 5-point
match in a temporary SQLite file, opens one live stream's subscription on each
(``FeedHub.follow_match``), then records ``--lines`` seeded random legal lines
on each (``tests/match_driver.next_line``) and times the hub's work for each
(``FeedHub.advance``: reading what was stored since, wording it, the ``show
--json`` document every ``recorded`` message carries).  Each line's message
must arrive.

Prints the median, mean and worst ms a line for both and their ratio; the
target is a long match costing the spectators' feed at most 1.5 times a short
one (before ``Ledger.followed`` the feed worked the match out whole at every
line: 40-50 times).  Exit 0 either way (``--check``: 1 if the target is missed).
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

from bench_web import build_long  # noqa: E402

from bgledger.service import Ledger  # noqa: E402
from bgledger.web.feeds import FeedHub  # noqa: E402
from tests.match_driver import next_line  # noqa: E402

TARGET = 1.5
"""The most a line on the long match may cost the feed, against one on the short match."""


def feed_ms(ledger: Ledger, match_id: str, lines: int) -> list[float]:
    """The ms of the hub's work after each of ``lines`` lines recorded on ``match_id``."""
    hub = FeedHub(ledger)
    subscription = hub.follow_match(match_id, None)
    rng = random.Random(7)
    took = []
    for _ in range(lines):
        line = next_line(ledger.state(match_id), rng, cube_rate=0.0)
        assert line is not None, f"{match_id} ended"
        ledger.record_line(match_id, line, by="bench")
        started = time.perf_counter()
        hub.advance(ledger.last_stored())
        took.append((time.perf_counter() - started) * 1000)
        assert subscription(), f"{match_id}: no message for {line!r}"
    subscription.close()
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20, help="lines recorded on each match")
    parser.add_argument("--check", action="store_true", help="exit 1 if the target is missed")
    args = parser.parse_args()
    print(f"bench_feed on {platform.python_implementation()} {platform.python_version()}")
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'feed.db'}"
        build_long(url)
        ledger = Ledger(url, cache_size=256)  # as serve keeps its matches
        try:
            ledger.start(("Ann", "Bob"), 5, match_id="short", by="bench")
            measured = {name: feed_ms(ledger, name, args.lines) for name in ("long", "short")}
            for name, took in measured.items():
                print(
                    f"{name:5} ({ledger.state(name).events:,} events): a line costs the feed "
                    f"median {statistics.median(took):.2f} ms, mean {statistics.mean(took):.2f}, "
                    f"worst {max(took):.2f}"
                )
        finally:
            ledger.close()
    ratio = statistics.median(measured["long"]) / statistics.median(measured["short"])
    met = ratio <= TARGET
    print(f"{'PASS' if met else 'FAIL'}  long against short (medians): {ratio:.2f}x <= {TARGET}x")
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
