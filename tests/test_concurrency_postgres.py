"""Fifty scorekeepers at once on one PostgreSQL database, read models and a reader following along.

Fifty worker processes (forked: fifty fresh interpreters would take longer
to import the stack than the test takes to run), two to a match, each with
its own cached :class:`~bgledger.store.application.MatchStore`, store
``ACTIONS`` random legal actions as fast as they can, retrying every lost
race.  On PostgreSQL notification ids are drawn when a row is inserted and
commits land in any order (``bgledger.store.recorder``), so while they write
the test follows the notification log the way a read model does:

- a reader pages through ``select_notifications`` from where it stopped,
  and every id it is ever shown must be the next id of the log as it
  finally stands: no id may turn up later below one it has passed (it would
  never be read), none is shown twice, none is skipped;
- :class:`~bgledger.projections.readmodels.tracking.ReadModels` catch up over
  and over; at the end their tables must equal a rebuild from the events.

Afterwards every stream is numbered 1..N, holds exactly the actions its
writers were told they stored (by the tag each attempt recorded them under),
and loads as the fold of its events; in the log each stream's events come in
their own order.  The test runs in a database of its own.
"""

from __future__ import annotations

import itertools
import multiprocessing
import random
import threading
from collections import defaultdict
from collections.abc import Iterator
from multiprocessing.synchronize import Barrier
from typing import Any

import pytest

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.errors import ConcurrentWriteError
from bgledger.projections.readmodels.tables import dump_tables
from bgledger.projections.readmodels.tracking import ReadModels
from bgledger.projections.state.fold import fold
from bgledger.store.application import MatchStore
from tests.conftest import own_postgres_database
from tests.match_driver import next_line
from tests.test_concurrency import TIMEOUT, _collect

CTX = multiprocessing.get_context("fork")
WRITERS = 50
PER_MATCH = 2
ACTIONS = 12
"""Actions each writer stores."""


@pytest.fixture
def own_database() -> Iterator[str]:
    """A fresh PostgreSQL database, dropped afterwards (skipped when not configured)."""
    with own_postgres_database("bgledger_w50") as url:
        yield url


def _writer(url: str, name: str, match_id: str, seed: int, start: Barrier, out: Any) -> None:
    """Store ``ACTIONS`` actions on ``match_id``, retrying every lost race; report each one."""
    try:
        ledger = MatchStore(url, cache_size=16)
        rng = random.Random(seed)
        stored: list[dict[str, Any]] = []
        conflicts = 0
        ledger.state(match_id)
        start.wait(TIMEOUT)
        for attempt in itertools.count():
            if len(stored) == ACTIONS:
                break
            tag = f"{name}.{attempt}"

            def decide(match: Match, tag: str = tag) -> tuple[int, int]:
                before = match.version
                line = next_line(match.state, rng)
                assert line is not None, f"{match_id} ended: make the match longer"
                parse(line).run(match, tag)
                return before + 1, match.version

            try:
                first, last = ledger.act(match_id, decide)
            except ConcurrentWriteError:
                conflicts += 1
                continue
            stored.append({"tag": tag, "first": first, "last": last})
        ledger.close()
        out.put({"name": name, "match": match_id, "stored": stored, "conflicts": conflicts})
    except BaseException as error:  # report, so the parent fails with the reason, not a timeout
        start.abort()
        out.put({"name": name, "error": repr(error)})


def _follow(url: str, done: threading.Event, seen: list[int], caught: list[int]) -> None:
    """Page through the notification log and catch the read models up until ``done``."""
    with MatchStore(url) as ledger:
        models = ReadModels(ledger)
        while True:
            finished = done.is_set()
            while page := ledger.recorder.select_notifications((seen[-1] if seen else 0) + 1, 50):
                seen.extend(notification.id for notification in page)
            caught.append(models.catch_up())
            if finished:
                return


def test_fifty_writers_lose_nothing_and_readers_never_pass_a_gap(own_database: str) -> None:
    url = own_database
    matches = [f"m{n}" for n in range(WRITERS // PER_MATCH)]
    with MatchStore(url) as ledger:
        for match_id in matches:
            ledger.start(("Ann", "Bob"), 25, match_id=match_id, by="kim")
        ReadModels(ledger).catch_up()
    start = CTX.Barrier(WRITERS)
    out = CTX.Queue()
    workers = [
        CTX.Process(target=_writer, args=(url, f"w{n}", matches[n // PER_MATCH], n, start, out))
        for n in range(WRITERS)
    ]
    seen: list[int] = []
    caught: list[int] = []
    done = threading.Event()
    follower = threading.Thread(target=_follow, args=(url, done, seen, caught))
    for worker in workers:  # all forked before the reader's thread starts: a fork copies no
        worker.start()  # thread, and a lock that thread held would stay held in the child
    follower.start()
    try:
        reports = _collect(workers, out, started=True)
    finally:
        done.set()
        follower.join(TIMEOUT)
    assert not follower.is_alive()

    with MatchStore(url) as ledger:
        log = []
        while page := ledger.recorder.select_notifications((log[-1].id if log else 0) + 1, 500):
            log.extend(page)
        # The reader was shown exactly the log as it stands, in order: no id turned up
        # behind it, none twice, none skipped (the first page began after the starts).
        assert seen == [n.id for n in log]
        assert len(log) == len(matches) + sum(
            s["last"] - s["first"] + 1 for r in reports for s in r["stored"]
        )
        # In the log, each stream's events come in their order.
        numbers: dict[Any, list[int]] = defaultdict(list)
        for notification in log:
            numbers[notification.originator_id].append(notification.originator_version)
        assert all(v == list(range(1, len(v) + 1)) for v in numbers.values())

        by_match: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for report in reports:
            assert len(report["stored"]) == ACTIONS
            by_match[report["match"]].extend(report["stored"])
        for match_id in matches:
            history = ledger.history(match_id)
            assert len(numbers[match_uuid(match_id)]) == len(history)
            # Every action a writer was told was stored is there once, where it was told;
            # nothing else is (a lost race left nothing behind).
            mine = sorted(by_match[match_id], key=lambda s: s["first"])
            expected = ["kim"] + [s["tag"] for s in mine for _ in range(s["first"], s["last"] + 1)]
            assert [e.recorded_by for e in history] == expected, match_id
            assert ledger.load(match_id).state == fold(history)

        # The read models, caught up while the writers wrote and once more now, hold what a
        # rebuild from the events holds.
        models = ReadModels(ledger)
        models.catch_up()
        caught_up = dump_tables(models.engine)
        models.rebuild(full=True)
        assert dump_tables(models.engine) == caught_up
        assert {row["match_id"]: row["events"] for row in models.matches()} == {
            match_id: len(ledger.history(match_id)) for match_id in matches
        }
    assert sum(caught) > 0, "the read models never caught up while the writers wrote"
    print(f"{sum(r['conflicts'] for r in reports)} lost races; {len(caught)} catch-ups")
