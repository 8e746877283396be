"""kill -9 during a bulk import and during live recording: nothing half-stored, nothing lost.

Each scenario runs the real ``bgledger`` command in a child process and
kills it with SIGKILL after it has reported a seeded random number of files
(or actions), plus a seeded random few milliseconds, so the kill lands
anywhere: while a file is replayed, while its transaction is open, between
the commit and the snapshot, while the line is printed.  Each test kills
twice before letting a run finish, on a fresh SQLite file and on a throwaway
PostgreSQL database (created and dropped here, so "every match in the store"
means only what the test wrote).

After every kill the store is checked from scratch by a new process's
:class:`~bgledger.store.application.MatchStore`: every match in it is complete and exactly what
its source says (its stream numbered 1..N, its fold and its snapshot-loaded
state equal to the state the source produces in memory), the raw event
table holds no row of a match that is not listed (no half-imported match
hides under a missing ``MatchStarted``), and recording or importing can go
on.  If a ``verify`` command exists (the hash-chain work of the same issue),
it must pass on the crashed store too.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.interchange.importer import matches_from_mat
from bgledger.interchange.mat import read_mat_file
from bgledger.interchange.mat_writer import export_mat
from bgledger.projections.state.fold import MatchState, fold
from bgledger.store.application import MatchStore
from tests.conftest import MATCHES, own_postgres_database
from tests.match_driver import play_lines

FILES = 12
"""Transcriptions a bulk import is killed in."""
AT = "2026-11-21T10:00:00+00:00"
"""The time every live-recorded action is stamped with, so the states can be compared."""
CLI = ("-m", "bgledger.cli.main")
"""The ``bgledger`` console script's entry point (:func:`bgledger.cli.main.run`), run by this
interpreter (so the venv is the test's): the command as a user starts it, its start-up too."""
WAIT = 120.0
LENGTH = 75
"""Points of the live-recorded match: long enough that it does not end before the script."""


# -- stores ---------------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def crash_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh SQLite file, then a throwaway PostgreSQL database dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'crash.db'}"
        return
    with own_postgres_database("bgledger_crash") as url:
        yield url


# -- the child process ------------------------------------------------------------------------


def _command(url: str, *args: str) -> list[str]:
    return [sys.executable, *CLI, "--db", url, *args]


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1"}


def _run(url: str, *args: str, stdin: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``bgledger`` to the end."""
    with open(stdin or os.devnull, encoding="utf-8") as source:
        return subprocess.run(
            _command(url, *args), stdin=source, capture_output=True, text=True,
            env=_environment(), timeout=WAIT, check=False,
        )  # fmt: skip


def _kill_after(
    url: str, args: list[str], lines: int, delay: float, stdin: Path | None = None
) -> list[str]:
    """Run ``bgledger``, SIGKILL it ``delay`` seconds after its ``lines``-th line of output.

    ``stdin``'s lines are written to a pipe left open until the kill, so that a fast machine
    cannot finish them and end the run before it is killed: the run ends only by the kill,
    whether in the middle of a line or waiting for the next (``lines`` is capped at the
    lines given).

    :returns: every line it printed.  Fails if it ended before it could be killed.
    """
    feed = stdin.read_text(encoding="utf-8") if stdin is not None else None
    if feed is not None:
        lines = min(lines, feed.count("\n"))
    process = subprocess.Popen(
        _command(url, *args), stdin=subprocess.DEVNULL if feed is None else subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=_environment(),
    )  # fmt: skip
    assert process.stdout is not None
    if process.stdin is not None:
        process.stdin.write(feed or "")  # a few kilobytes: within the pipe's buffer
        process.stdin.flush()
    printed: list[str] = []
    stuck = threading.Timer(WAIT, process.kill)  # a run that stops printing is not waited on
    stuck.start()
    while len(printed) < lines:
        line = process.stdout.readline()
        if not line:
            break
        printed.append(line)
    stuck.cancel()
    stopped = len(printed) < lines and process.wait(WAIT) == -signal.SIGKILL  # by the timer
    assert not stopped, f"it printed {len(printed)} of {lines} lines in {WAIT:g} s"
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    printed.extend(process.stdout.read().splitlines(keepends=True))
    process.stdout.close()
    if process.stdin is not None:
        process.stdin.close()
    code = process.wait(WAIT)
    assert code == -signal.SIGKILL, f"it ended by itself (exit {code}) after {len(printed)} lines"
    return [line.rstrip("\n") for line in printed]


def _verify(url: str) -> None:
    """``bgledger verify`` on the whole store, when the command exists: it must pass."""
    from bgledger.cli.main import main

    if "verify" not in main.commands:
        return
    done = _run(url, "verify")
    assert done.returncode == 0, done.stdout + done.stderr


def _raw_streams(url: str) -> tuple[int, int]:
    """Rows and distinct streams in the event table, read past the ledger."""
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as connection:
            query = "SELECT count(*), count(DISTINCT originator_id) FROM bgledger_events"
            rows, streams = connection.execute(sqlalchemy.text(query)).one()
    finally:
        engine.dispose()
    return int(rows), int(streams)


def _timeless(state: MatchState | None) -> MatchState | None:
    """The state without its times: a file with no ``EventDate`` is stamped when imported."""
    return None if state is None else replace(state, started_at="", last_at="")


def _check_match(ledger: MatchStore, match_id: str, expected: MatchState) -> None:
    history = ledger.history(match_id)
    assert [e.originator_version for e in history] == list(range(1, len(history) + 1))
    assert _timeless(fold(history)) == _timeless(expected), match_id
    assert ledger.load(match_id).state == fold(history), match_id


# -- a bulk import killed ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def transcriptions(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], str]:
    """``FILES`` .mat files and the profile to import them by.

    Files of the real corpus (``online-2009``, judged by the online profile)
    when it is beside the repository; else seeded random legal matches written
    by :func:`export_mat`.
    """
    # Mid-sized files (a few games): a kill lands within a file, and the test stays quick.
    corpus = [
        path
        for path in sorted((MATCHES / "online-2009").glob("*.mat"))
        if 3_000 <= path.stat().st_size <= 5_000
    ]
    if len(corpus) >= FILES:
        return corpus[:FILES], "online"
    folder = tmp_path_factory.mktemp("generated")
    paths = []
    for n in range(FILES):
        match_id = f"generated-{n:02d}"
        match = Match.start(match_uuid(match_id), match_id, ("Ann", "Bob"), 5, by="gen")
        play_lines(match, random.Random(n), 2_000, by="gen")
        path = folder / f"{match_id}.mat"
        path.write_text(export_mat(match.collect_events()), encoding="utf-8")
        paths.append(path)
    return paths, "usbgf-2016"


@pytest.fixture(scope="module")
def imported_states(transcriptions: tuple[list[Path], str]) -> dict[str, MatchState]:
    """What importing each file produces, by match id, in file order (replayed in memory)."""
    paths, profile = transcriptions
    states: dict[str, MatchState] = {}
    for path in paths:
        # Imported in this order, each gets the first readable id the ones before left free.
        (one,) = matches_from_mat(
            read_mat_file(path), str(path), profile=profile, taken=states.__contains__
        )
        assert one.match_id not in states
        states[one.match_id] = one.match.state
    return states


def _id_of(transcriptions: tuple[list[Path], str], states: dict[str, MatchState]) -> dict[str, str]:
    """The id each file's match gets, by file name (the files are imported in order)."""
    return dict(zip(map(str, transcriptions[0]), states, strict=True))


def _check_import(url: str, expected: dict[str, MatchState]) -> list[str]:
    """Every visible match is complete; they are the first files in order; no stray rows."""
    with MatchStore(url) as ledger:
        visible = ledger.match_ids()
        assert visible == list(expected)[: len(visible)]
        for match_id in visible:
            _check_match(ledger, match_id, expected[match_id])
    rows, streams = _raw_streams(url)
    assert (rows, streams) == (sum(expected[m].events for m in visible), len(visible))
    return visible


def test_a_killed_bulk_import_leaves_whole_matches_and_resumes(
    crash_url: str,
    transcriptions: tuple[list[Path], str],
    imported_states: dict[str, MatchState],
) -> None:
    paths, profile = transcriptions
    order = list(imported_states)
    id_of = _id_of(transcriptions, imported_states)
    args = ["import", "--json", "--profile", profile, *map(str, paths)]
    rng = random.Random(20261121)
    before: list[str] = []
    # Each run prints one JSON line a file (imported, or refused as already there); the
    # second run is killed further on than the first got, within 20 ms of its chosen line:
    # in the next file or two, so that a fast machine does not finish the last file first.
    for low, high in ((2, 4), (6, 9)):
        printed = [json.loads(line) for line in _kill_after(
            crash_url, args, rng.randint(low, high), rng.uniform(0.0, 0.02))]  # fmt: skip
        refused = [id_of[d["file"]] for d in printed if "error" in d]
        stored = [d["match_id"] for d in printed if "error" not in d]
        # What the run found already there it refused; what it imported follows in order.
        assert refused == before
        assert all("already in the ledger" in d["error"] for d in printed if "error" in d)
        assert stored == order[len(before) : len(before) + len(stored)]
        visible = _check_import(crash_url, imported_states)
        # Everything it said it stored is there; at most the file it was in was committed
        # (and not yet reported) when it died.
        assert visible[: len(before) + len(stored)] == before + stored
        assert len(visible) - len(before) - len(stored) in (0, 1)
        assert len(visible) < len(order)
        _verify(crash_url)
        before = visible

    # Run again to the end: the files already imported are refused, the rest imported.
    done = _run(crash_url, *args)
    assert done.returncode == 1, done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    assert [id_of[d["file"]] for d in printed if "error" in d] == before
    assert [d["match_id"] for d in printed if "error" not in d] == order[len(before) :]
    assert _check_import(crash_url, imported_states) == order
    _verify(crash_url)

    # Asked to (another id), the same file is imported again.
    again = _run(
        crash_url, "import", "--profile", profile, "--id", "again", "--again", str(paths[0])
    )
    assert again.returncode == 0, again.stderr
    with MatchStore(crash_url) as ledger:
        assert ledger.match_ids() == [*order, "again"]
        assert ledger.state("again").events == imported_states[order[0]].events


# -- live recording killed --------------------------------------------------------------------


def _script(match_id: str, seed: int, actions: int) -> tuple[list[str], list[MatchState]]:
    """Random legal lines and the state after each (index 0: the match as started)."""
    match = Match.start(match_uuid(match_id), match_id, ("Ann", "Bob"), LENGTH, by="kim", at=AT)
    lines = play_lines(
        Match.start(match_uuid(match_id), match_id, ("Ann", "Bob"), LENGTH, by="kim", at=AT),
        random.Random(seed), actions,
    )  # fmt: skip
    states = [match.state]
    for line in lines:
        parse(line).timed(AT).run(match, "crash")
        states.append(match.state)
    return lines, states


def test_killed_live_recording_loses_nothing_and_goes_on(crash_url: str, tmp_path: Path) -> None:
    match_id = "live"
    lines, states = _script(match_id, 32, 240)
    assert len(lines) == 240, "the match ended early: choose another seed"
    events = [state.events for state in states]
    with MatchStore(crash_url) as ledger:
        ledger.start(("Ann", "Bob"), LENGTH, match_id=match_id, by="kim", at=AT)
    record = ["record", match_id, "--by", "crash", "--at", AT]
    rng = random.Random(7)
    done = 0
    # Killed a few milliseconds after a chosen line: within the next few lines' storing, on a
    # fast machine as on a slow one (30 ms let a fast one record a hundred lines more).
    for low, high in ((30, 80), (40, 90)):
        feed = tmp_path / f"from-{done}.txt"
        feed.write_text("".join(f"{line}\n" for line in lines[done:]), encoding="utf-8")
        kill_at, delay = rng.randint(low, high), rng.uniform(0, 0.005)
        printed = _kill_after(crash_url, record, kill_at, delay, feed)
        with MatchStore(crash_url) as ledger:
            stored = len(ledger.history(match_id))
            # The stream is the state after some whole number of our lines: every line it
            # printed, and at most the one it was storing when it died.
            assert stored in events, f"{stored} events is not after a whole action"
            now = events.index(stored)
            assert now - done - len(printed) in (0, 1)
            _check_match(ledger, match_id, states[now])
        _verify(crash_url)
        done = now

    # Recording goes on where the stream ends, with the lines not yet recorded.
    feed = tmp_path / "rest.txt"
    feed.write_text("".join(f"{line}\n" for line in lines[done:]), encoding="utf-8")
    finished = _run(crash_url, *record, stdin=feed)
    assert finished.returncode == 0, finished.stderr
    with MatchStore(crash_url) as ledger:
        _check_match(ledger, match_id, states[-1])
    _verify(crash_url)
