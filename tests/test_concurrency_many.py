"""Many scorekeepers at once: six processes, one shared match and one match each, on each store.

Each worker is a process of its own (:data:`tests.test_concurrency.CTX`) with its own
:class:`~bgledger.store.application.MatchStore` (half of them with the aggregate cache, as a
``record`` process, half without, as one CLI command per action).  It
alternates between the match all six share and a match of its own, each
time loading the match, choosing a random legal next action for the state
it finds (:func:`tests.match_driver.next_line`), thinking a few
milliseconds (so that races on the shared match are certain, not lucky) and
storing it.  On :class:`~bgledger.errors.ConcurrentWriteError` it notes what
it was told and tries again, deciding afresh.

Every action is recorded ``by`` a tag naming the worker and the attempt
(``w3.17``), so the stream itself says whose attempt each stored event is.
Afterwards: each stream is numbered 1..N without gaps; its snapshot-loaded
state equals the fold of its events; every action a worker was told was
stored is in the stream exactly once, as the run of events it reported, and
nothing else is (no lost, duplicated or ghost events); every conflict named
the event it raced (its number, type and who recorded it, checked against
the stream) and was the event right after the version the loser had loaded;
and each worker stored all its actions, so every retry got through.
"""

from __future__ import annotations

import itertools
import random
import re
import time
from collections import Counter
from multiprocessing.synchronize import Barrier
from typing import Any

from bgledger.commands.match import Match
from bgledger.commands.vocabulary import parse
from bgledger.errors import ConcurrentWriteError
from bgledger.projections.state.fold import fold
from bgledger.store.application import MatchStore
from tests.conftest import unique_id
from tests.match_driver import next_line
from tests.test_concurrency import CTX, TIMEOUT, _collect

WORKERS = 6
ACTIONS = 16
"""Actions each worker stores on the shared match, and as many on its own."""
THINK = 0.004
"""Most seconds a worker thinks between loading a match and storing its action."""
RACED = re.compile(r"^event (\d+) \((\w+), by (\S+) at (\S+)\)$")


# -- worker side (module level: the workers' server imports it) -------------------------------


def _scorekeeper(
    url: str, name: str, matches: list[str], seed: int, cache: bool, start: Barrier, out: Any
) -> None:
    """Store ``ACTIONS`` actions on each of ``matches`` in turn, retrying every lost race."""
    try:
        ledger = MatchStore(url, cache_size=16 if cache else 0)
        rng = random.Random(seed)
        stored: list[dict[str, Any]] = []
        conflicts: list[dict[str, Any]] = []
        attempts = 0
        loaded = [0]
        start.wait(TIMEOUT)
        while len(stored) < ACTIONS * len(matches):
            match_id = matches[len(stored) % len(matches)]
            tag = f"{name}.{attempts}"
            attempts += 1

            def decide(
                match: Match, tag: str = tag, match_id: str = match_id
            ) -> tuple[int, int, str]:
                loaded[0] = match.version
                line = next_line(match.state, rng)
                assert line is not None, f"{match_id} ended: make the match longer"
                time.sleep(rng.uniform(0, THINK))
                parse(line).run(match, tag)
                return loaded[0], match.version, line

            try:
                before, after, line = ledger.act(match_id, decide)
            except ConcurrentWriteError as error:
                conflicts.append({"match": match_id, "tag": tag, "loaded": loaded[0],
                                  "message": str(error), "raced": error.raced})  # fmt: skip
                continue
            stored.append({"match": match_id, "tag": tag, "first": before + 1, "last": after,
                           "line": line})  # fmt: skip
        out.put({"name": name, "stored": stored, "conflicts": conflicts, "attempts": attempts})
    except BaseException as error:  # report, so the parent fails with the reason, not a timeout
        start.abort()
        out.put({"name": name, "error": repr(error)})


# -- test side ----------------------------------------------------------------------------------


def test_six_scorekeepers_on_one_shared_match_and_their_own(store_url: str) -> None:
    started = time.monotonic()
    ledger = MatchStore(store_url)
    shared = ledger.start(("Ann", "Bob"), 25, match_id=unique_id("shared"), by="kim")
    own = [
        ledger.start(("Cy", "Di"), 25, match_id=unique_id(f"own{n}"), by="kim")
        for n in range(WORKERS)
    ]
    start = CTX.Barrier(WORKERS)
    out = CTX.Queue()
    workers = [
        CTX.Process(
            target=_scorekeeper,
            args=(store_url, f"w{n}", [shared, own[n]], 1000 + n, n % 2 == 0, start, out),
        )
        for n in range(WORKERS)
    ]
    reports = _collect(workers, out)
    assert sorted(r["name"] for r in reports) == [f"w{n}" for n in range(WORKERS)]

    # Every retry got through: each worker stored all its actions on both matches.
    for report in reports:
        where = Counter(s["match"] for s in report["stored"])
        assert set(where.values()) == {ACTIONS}, report["name"]
        assert report["attempts"] == len(report["stored"]) + len(report["conflicts"])

    stored = [s for r in reports for s in r["stored"]]
    conflicts = [c for r in reports for c in r["conflicts"]]
    fresh = MatchStore(store_url)
    histories = {match_id: fresh.history(match_id) for match_id in [shared, *own]}
    for match_id, history in histories.items():
        # Numbered 1..N without gaps; the snapshot-loaded state is the fold of the events.
        assert [e.originator_version for e in history] == list(range(1, len(history) + 1))
        assert fresh.load(match_id).state == fold(history)
        assert fresh.load(match_id).version == len(history)
        # Every stored action is in its stream exactly once, where its worker was told it
        # went; nothing else is (the losers' attempts left nothing behind).
        mine = sorted((s for s in stored if s["match"] == match_id), key=lambda s: s["first"])
        expected = ["kim"] + [s["tag"] for s in mine for _ in range(s["first"], s["last"] + 1)]
        assert [e.recorded_by for e in history] == expected, match_id
        assert mine[0]["first"] == 2
        assert all(a["last"] + 1 == b["first"] for a, b in itertools.pairwise(mine))
        assert mine[-1]["last"] == len(history)

    # Only the shared match is raced, and with six workers thinking before they store, it is.
    assert {c["match"] for c in conflicts} <= {shared}
    assert conflicts, "no race on the shared match: the workers did not overlap"
    tags = {s["tag"] for s in stored}
    for conflict in conflicts:
        assert conflict["tag"] not in tags  # the attempt that lost stored nothing
        found = RACED.match(conflict["raced"])
        assert found, conflict["raced"]
        number, kind, by = int(found[1]), found[2], found[3]
        # The event it raced is the one after the version it loaded, as the stream has it.
        assert number == conflict["loaded"] + 1
        event = histories[shared][number - 1]
        assert (type(event).__name__, event.recorded_by) == (kind, by)
        assert by.split(".")[0] != conflict["tag"].split(".")[0]  # someone else's
        assert conflict["raced"] in conflict["message"]
        assert conflict["message"].startswith(f"match {shared!r}: event {number} (")
    elapsed = time.monotonic() - started
    print(f"{len(conflicts)} conflicts in {len(stored) + len(conflicts)} attempts, {elapsed:.1f} s")
