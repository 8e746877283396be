"""Two scorekeepers at once: real processes on one database (SQLite file, PostgreSQL).

Each worker is a process of its own (multiprocessing ``forkserver``: :data:`CTX`) with its
own :class:`~bgledger.store.application.MatchStore`.  In the race, both workers load the match at
the same version and decide (their command records its event in the
aggregate), then wait on a barrier, so both have decided before either saves.
Who saves first is up to the operating system; what is checked holds either
way.
"""

from __future__ import annotations

import functools
import multiprocessing
import queue
import random
import time
from multiprocessing.synchronize import Barrier
from typing import Any

import pytest

from bgledger.commands.match import Match
from bgledger.commands.vocabulary import parse
from bgledger.errors import ConcurrentWriteError
from bgledger.events import CheckersPlayed, CubeOffered, CubeTaken, DiceRolled
from bgledger.projections.state.codec import state_from_dict, state_to_dict
from bgledger.projections.state.fold import Phase, fold
from bgledger.store.application import MatchStore
from tests.conftest import unique_id
from tests.match_driver import next_line

CTX = multiprocessing.get_context("forkserver")
"""How the workers start: each forked from a server process that has imported this module and
:mod:`tests.test_concurrency_many` and opened nothing (no engine, no connection, no store: the
worker makes its own), so it starts as a fresh interpreter would, without importing the whole
stack again.  Spawned, each of the 24 workers spent most of its CPU importing (issue 34)."""
CTX.set_forkserver_preload(["tests.test_concurrency", "tests.test_concurrency_many"])
TIMEOUT = 120.0
"""Seconds to wait for a worker: generous, a loaded machine starts processes slowly."""

# The scorekeepers' decisions at the same moment, Bob on roll at event 4.
DECISIONS = {"sam": "double", "tess": "roll 6 5"}
EVENT_OF = {"sam": CubeOffered, "tess": DiceRolled}


# -- worker side (module level: the workers' server imports it) -------------------------------


def _decide_then_wait(barrier: Barrier, who: str, match: Match) -> int:
    """Record ``who``'s decision in the loaded aggregate, then wait for the other scorekeeper."""
    loaded = match.version
    parse(DECISIONS[who]).run(match, who)
    barrier.wait(TIMEOUT)
    return loaded


def _follow_up(who: str, match: Match) -> tuple[int, str]:
    """The loser's retry, decided on the state it finds: answer the double or play the roll."""
    loaded, phase = match.version, match.state.phase
    text = "take" if phase is Phase.DOUBLED else "move 13/7 13/8"
    parse(text).run(match, who)
    return loaded, str(phase)


def _race_worker(url: str, match_id: str, who: str, barrier: Barrier, out: Any) -> None:
    try:
        ledger = MatchStore(url)
        command = functools.partial(_decide_then_wait, barrier, who)
        try:
            loaded = ledger.act(match_id, command)
        except ConcurrentWriteError as error:
            retried = ledger.act(match_id, functools.partial(_follow_up, who))
            out.put({"who": who, "stored": False, "message": str(error), "raced": error.raced,
                     "retry_loaded": retried[0], "retry_phase": retried[1]})  # fmt: skip
        else:
            out.put({"who": who, "stored": True, "loaded": loaded})
    except BaseException as error:  # report, so the parent fails with the reason, not a timeout
        barrier.abort()
        out.put({"who": who, "error": repr(error)})


def _steady_worker(
    url: str, match_id: str, seed: int, actions: int, start: Barrier, out: Any
) -> None:
    try:
        ledger = MatchStore(url)
        rng = random.Random(seed)
        start.wait(TIMEOUT)
        for _ in range(actions):
            ledger.act(match_id, lambda m: parse(next_line(m.state, rng) or "").run(m, "w"))
        out.put({"match": match_id, "state": state_to_dict(ledger.state(match_id))})
    except BaseException as error:
        start.abort()
        out.put({"match": match_id, "error": repr(error)})


# -- test side ----------------------------------------------------------------------------------


def _collect(processes: list[Any], out: Any, *, started: bool = False) -> list[dict[str, Any]]:
    """Start ``processes`` (unless ``started``) and gather one report from each.

    Fails on a worker's error or death.
    """
    for process in processes if not started else ():
        process.start()
    reports: list[dict[str, Any]] = []
    deadline = time.monotonic() + TIMEOUT
    try:
        while len(reports) < len(processes):
            try:
                reports.append(out.get(timeout=1.0))
            except queue.Empty:
                dead = [p.exitcode for p in processes if p.exitcode not in (None, 0)]
                if dead:
                    pytest.fail(f"a worker died (exit codes {dead}) before reporting: {reports}")
                if time.monotonic() > deadline:
                    pytest.fail(f"the workers did not report within {TIMEOUT} s: {reports}")
    finally:
        for process in processes:
            process.join(TIMEOUT)
            if process.is_alive():
                process.terminate()
                process.join()
    errors = [r for r in reports if "error" in r]
    assert not errors, errors
    assert [p.exitcode for p in processes] == [0] * len(processes)
    return reports


def test_two_scorekeepers_racing_one_wins_the_other_is_told_and_retries(store_url: str) -> None:
    ledger = MatchStore(store_url)
    match_id = ledger.start(("Ann", "Bob"), 5, match_id=unique_id("race"), by="kim")
    for text in ("opening 3 1", "move 8/5 6/5"):
        ledger.act(match_id, functools.partial(parse(text).run, by="kim"))
    assert ledger.state(match_id).events == 4

    barrier = CTX.Barrier(2)
    out = CTX.Queue()
    workers = [
        CTX.Process(target=_race_worker, args=(store_url, match_id, who, barrier, out))
        for who in DECISIONS
    ]
    reports = {r["who"]: r for r in _collect(workers, out)}

    winners = [who for who, r in reports.items() if r["stored"]]
    assert len(winners) == 1, reports
    (winner,) = winners
    (loser,) = set(DECISIONS) - {winner}
    assert reports[winner]["loaded"] == 4
    lost = reports[loser]
    # The loser is told which event beat it, and by whom.
    assert "event 5" in lost["message"]
    assert f"{EVENT_OF[winner].__name__}, by {winner}" in lost["message"]
    assert lost["raced"].startswith("event 5 ")
    # Its retry loaded the winner's event and decided on it.
    assert lost["retry_loaded"] == 5
    assert lost["retry_phase"] == ("doubled" if winner == "sam" else "play")

    history = MatchStore(store_url).history(match_id)
    assert len(history) == 6
    assert [e.originator_version for e in history] == [1, 2, 3, 4, 5, 6]
    assert isinstance(history[4], EVENT_OF[winner])
    assert history[4].recorded_by == winner
    # Nothing of the loser's first decision was kept; its retry is event 6.
    assert [e.recorded_by for e in history] == ["kim"] * 4 + [winner, loser]
    assert isinstance(history[5], CubeTaken if winner == "sam" else CheckersPlayed)
    state = MatchStore(store_url).state(match_id)
    assert state == fold(history)
    if winner == "sam":
        assert (state.cube, state.cube_owner, state.phase) == (2, "a", Phase.ROLL)
    else:
        assert (state.turn, state.phase) == ("a", Phase.ROLL)


def test_scorekeepers_on_different_matches_all_store(store_url: str) -> None:
    workers_count, actions = 4, 40
    ledger = MatchStore(store_url)
    match_ids = [
        ledger.start(("Ann", "Bob"), 25, match_id=unique_id(f"par{n}"), by="kim")
        for n in range(workers_count)
    ]
    start = CTX.Barrier(workers_count)
    out = CTX.Queue()
    workers = [
        CTX.Process(target=_steady_worker, args=(store_url, match_id, n, actions, start, out))
        for n, match_id in enumerate(match_ids)
    ]
    reports = _collect(workers, out)

    assert sorted(r["match"] for r in reports) == sorted(match_ids)
    with MatchStore(store_url) as fresh:
        for report in reports:
            told = state_from_dict(report["state"])
            history = fresh.history(report["match"])
            # Every action was at least one event; each was stored once, numbered without gaps.
            assert len(history) >= 1 + actions
            assert [e.originator_version for e in history] == list(range(1, len(history) + 1))
            assert told.events == len(history)
            assert fold(history) == told
            assert fresh.state(report["match"]) == told
        ours = set(match_ids)
        assert [m for m in fresh.match_ids() if m in ours] == match_ids
