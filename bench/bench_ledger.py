"""Benchmark: recording and rebuilding a match in the store on SQLite, against raw sqlite3.

    python bench/bench_ledger.py [--repeat N] [--rebuilds N] [--commands N] [--dir DIR]
                                 [--profile] [--check]

Plays one long random legal match (``tests/match_driver.py``, seeded) and
keeps its action lines.  Then, on fresh SQLite files in a temporary folder
(under ``--dir``, else the system's temporary folder):

1. **Appends.**  Records the lines one by one with ``MatchStore.act`` (one
   transaction per action, as live recording does), once with the aggregate
   cache (``cache_size``: a long-lived ``record`` process) and once without
   (one CLI command per action: load from the latest snapshot each time).  The
   baseline is raw ``sqlite3`` inserting the very rows the ledger stored into a
   table of the same shape, with the same journal mode and ``synchronous``
   setting, committed the way the ledger committed them (one transaction per
   action) and, for information, one commit per row.  Target: the cached
   ledger appends at least half as many events per second as raw sqlite3.
   For information, the rows also show ``MatchStore.save`` alone (the actions
   decided in memory first) and deciding alone (no store).
2. **Rebuild.**  Replays the 1,500-event match from its events with no
   snapshot (``fold(ledger.history(id))``) and loads it through its latest
   snapshot (``ledger.load``), against raw ``SELECT`` + ``json.loads`` of the
   same rows (medians).  Target: the full replay within 3x of the raw read.
3. **CLI-like commands.**  Commands per second of load + decide + save on
   the 1,500-event match, with snapshots every ``SNAPSHOT_INTERVAL`` events
   and with none, to show that snapshots keep a command's cost flat.

Targets are reported PASS/FAIL; the exit status is 0 either way (``--check``:
1 if a target is missed).  ``--profile`` adds cProfile tables of an append
run and of a full replay.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import match_driver  # noqa: E402

from bgledger.commands.language import Action  # noqa: E402
from bgledger.commands.match import Match, match_uuid  # noqa: E402
from bgledger.projections.state.fold import fold  # noqa: E402
from bgledger.store.application import SNAPSHOT_INTERVAL, MatchStore  # noqa: E402

MATCH_ID = "bench"
PLAYERS = ("Ann", "Bob")
LENGTH = 75
"""Points of the benchmark match: long enough for 1,500+ events from one match."""
BY = "bench"
SEED = 20_261_121
MATCH_EVENTS = 1_500
APPEND_TARGET = 0.5
"""Cached ledger events/s over raw sqlite3 events/s: at least this."""
REBUILD_TARGET = 3.0
"""Full replay time over raw select + json.loads time: at most this."""
EVENTS_TABLE = "bgledger_events"
SYNCHRONOUS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}

Row = tuple[bytes, int, str, bytes]
"""One stored event: originator_id, originator_version, topic, state."""


class NoSnapshotLedger(MatchStore):
    """The ledger with a snapshot interval so large that no snapshot is ever taken."""

    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {Match: 10**9}


# -- the match ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Script:
    """A random legal match: the actions the append runs record, and the commands after them.

    :ivar actions: the parsed lines recorded after ``MatchStarted``.
    :ivar groups: how many events each of ``actions`` records.
    :ivar extra: the lines that follow, for the CLI-like commands.
    """

    seed: int
    actions: tuple[Action, ...]
    groups: tuple[int, ...]
    extra: tuple[Action, ...]

    @property
    def events(self) -> int:
        """Events the actions record (``MatchStarted`` not counted)."""
        return sum(self.groups)

    @property
    def verbs(self) -> tuple[str, ...]:
        """The verb of each action, in order."""
        return tuple(action.verb for action in self.actions)


def new_match() -> Match:
    """The benchmark match, started and not stored."""
    return Match.start(match_uuid(MATCH_ID), MATCH_ID, PLAYERS, LENGTH, by=BY)


def build_script(events: int, extra: int, seed: int) -> Script:
    """The first seeded random match with ``events`` events and ``extra`` actions after them.

    The recorded part stops at the first action that brings the match to
    ``events`` events (``MatchStarted`` included).
    """
    for attempt in range(seed, seed + 1_000):
        lines = match_driver.play_lines(new_match(), random.Random(attempt), 100_000)
        actions = [Action.parse(line) for line in lines]
        match, groups = new_match(), []
        for action in actions:
            before = match.version
            action.apply(match, BY)
            groups.append(match.version - before)
            if match.version >= events:
                break
        cut = len(groups)
        if match.version >= events and len(actions) - cut >= extra:
            following = tuple(actions[cut : cut + extra])
            return Script(attempt, tuple(actions[:cut]), tuple(groups), following)
    raise RuntimeError(f"no match of {events}+ events in 1,000 seeds from {seed}")


# -- appends ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Appends:
    """One timed run of appends: wall time, and the latency of each commit."""

    label: str
    seconds: float
    latencies: tuple[float, ...]
    events: int
    verbs: tuple[str, ...] = ()

    @property
    def rate(self) -> float:
        """Events stored per second."""
        return self.events / self.seconds

    def quantiles(self, verb: str | None = None) -> tuple[float, float]:
        """p50 and p99 latency in milliseconds (of the actions with ``verb`` only, if given)."""
        picked = self.latencies
        if verb is not None:
            picked = tuple(t for t, v in zip(picked, self.verbs, strict=True) if v == verb)
        cuts = statistics.quantiles(picked, n=100, method="inclusive")
        return 1_000 * cuts[49], 1_000 * cuts[98]

    def line(self, baseline: Appends) -> str:
        """A table line: events/s, actions/s, latencies and the ratio to ``baseline``'s rate."""
        actions = len(self.latencies) / self.seconds if self.verbs else None
        move = self.quantiles("move") if self.verbs else (None, None)
        cells = [_cell(actions, 10, ",.0f"), *(_cell(q, 7, ".2f") for q in self.quantiles())]
        cells += [_cell(q, 8, ".2f") for q in move]
        return (
            f"{self.label:<36} {self.rate:>9,.0f} {' '.join(cells)} "
            f"{self.rate / baseline.rate:>7.3f}x"
        )


def _cell(value: float | None, width: int, spec: str) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}{spec}}"


APPEND_HEADER = (
    f"{'':<36} {'events/s':>9} {'actions/s':>10} {'p50 ms':>7} {'p99 ms':>7} "
    f"{'move p50':>8} {'move p99':>8} {'vs raw':>8}"
)


def record(ledger: MatchStore, script: Script, label: str, limit: int | None = None) -> Appends:
    """Start the match and record the script's actions one ``act`` (one transaction) each."""
    actions = script.actions[:limit]
    commands = [partial(action.apply, by=BY) for action in actions]
    ledger.start(PLAYERS, LENGTH, match_id=MATCH_ID, by=BY)
    clock = time.perf_counter
    latencies = []
    started = clock()
    for command in commands:
        before = clock()
        ledger.act(MATCH_ID, command)
        latencies.append(clock() - before)
    seconds = clock() - started
    verbs = script.verbs[: len(actions)]
    return Appends(label, seconds, tuple(latencies), sum(script.groups[: len(actions)]), verbs)


def save_only(ledger: MatchStore, script: Script, label: str) -> Appends:
    """The same actions decided on a match in memory, untimed; each ``save`` (transaction) timed.

    What storing costs through the application (and its snapshots) without
    loading the match or deciding.
    """
    match = new_match()
    ledger.save(match)
    clock = time.perf_counter
    latencies = []
    for action in script.actions:
        action.apply(match, BY)
        before = clock()
        ledger.save(match)
        latencies.append(clock() - before)
    return Appends(label, sum(latencies), tuple(latencies), script.events, script.verbs)


def decide_only(script: Script) -> Appends:
    """The same actions on a match in memory: what deciding costs without any storage."""
    match = new_match()
    clock = time.perf_counter
    latencies = []
    started = clock()
    for action in script.actions:
        before = clock()
        action.apply(match, BY)
        latencies.append(clock() - before)
    seconds = clock() - started
    return Appends(
        "decide only, no store, info", seconds, tuple(latencies), script.events, script.verbs
    )


def stored_rows(path: Path) -> tuple[list[Row], list[str]]:
    """The ledger's event rows in insertion order, and the SQL that made its events table."""
    connection = sqlite3.connect(path)
    try:
        rows = connection.execute(
            "SELECT originator_id, originator_version, topic, state "
            f"FROM {EVENTS_TABLE} ORDER BY id"
        ).fetchall()
        schema = [
            sql
            for (sql,) in connection.execute(
                "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL",
                (EVENTS_TABLE,),
            )
        ]
    finally:
        connection.close()
    return rows, schema


def raw_append(
    path: Path, schema: Sequence[str], batches: Sequence[Sequence[Row]], synchronous: int
) -> tuple[float, tuple[float, ...]]:
    """Insert ``batches`` with plain sqlite3 into a new file, one transaction a batch.

    WAL journal and the given ``synchronous`` level, as the ledger's connection has.

    :returns: the wall time of all batches and the latency of each.
    """
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(f"PRAGMA synchronous={synchronous}")
        for sql in schema:
            connection.execute(sql)
        insert = (
            f"INSERT INTO {EVENTS_TABLE} (originator_id, originator_version, topic, state) "
            "VALUES (?, ?, ?, ?)"
        )
        clock = time.perf_counter
        latencies = []
        started = clock()
        for batch in batches:
            before = clock()
            connection.execute("BEGIN")
            connection.executemany(insert, batch)
            connection.execute("COMMIT")
            latencies.append(clock() - before)
        return clock() - started, tuple(latencies)
    finally:
        connection.close()


def batched(rows: Sequence[Row], groups: Sequence[int]) -> list[Sequence[Row]]:
    """``rows`` cut into consecutive batches of the sizes ``groups``."""
    batches, start = [], 0
    for size in groups:
        batches.append(rows[start : start + size])
        start += size
    return batches


def pragmas(ledger: MatchStore) -> tuple[int, str]:
    """``PRAGMA synchronous`` and ``journal_mode`` on a connection of the ledger's own pool."""
    engine = ledger.recorder.datastore.engine  # type: ignore[attr-defined]
    with engine.connect() as connection:
        synchronous = connection.exec_driver_sql("PRAGMA synchronous").scalar()
        journal = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
    return int(synchronous), str(journal)


# -- rebuilds -----------------------------------------------------------------------------


def median_ms(run: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` calls of ``run``, in milliseconds, after one warm-up."""
    run()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return 1_000 * statistics.median(times)


def raw_read(connection: sqlite3.Connection, stream: bytes) -> list[Any]:
    """Select the stream's event states by version and ``json.loads`` each."""
    rows = connection.execute(
        f"SELECT state FROM {EVENTS_TABLE} WHERE originator_id = ? ORDER BY originator_version",
        (stream,),
    )
    return [json.loads(state) for (state,) in rows]


def full_replay(ledger: MatchStore) -> object:
    """The match state folded from every event: no snapshot."""
    return fold(ledger.history(MATCH_ID))


def rebuilds(path: Path, repeat: int) -> dict[str, float]:
    """Median milliseconds of the raw read, the full replay, its read part and a snapshot load."""
    ledger = MatchStore(f"sqlite:///{path}")
    connection = sqlite3.connect(path)
    stream = match_uuid(MATCH_ID).bytes
    try:
        return {
            "raw": median_ms(lambda: raw_read(connection, stream), repeat),
            "replay": median_ms(lambda: full_replay(ledger), repeat),
            "history": median_ms(lambda: ledger.history(MATCH_ID), repeat),
            "load": median_ms(lambda: ledger.load(MATCH_ID), repeat),
        }
    finally:
        connection.close()
        ledger.close()


# -- CLI-like commands --------------------------------------------------------------------


def populate(ledger: MatchStore, script: Script) -> None:
    """Store the script's match in one save (snapshots are taken as the ledger's class says)."""
    match = new_match()
    for action in script.actions:
        action.apply(match, BY)
    ledger.save(match)


def commands(ledger: MatchStore, actions: Sequence[Action]) -> list[float]:
    """Seconds of each ``act`` (load, decide, save) on an uncached ledger, one per action."""
    latencies = []
    for action in actions:
        started = time.perf_counter()
        ledger.act(MATCH_ID, partial(action.apply, by=BY))
        latencies.append(time.perf_counter() - started)
    return latencies


def command_rates(folder: Path, script: Script) -> dict[str, list[float]]:
    """Latencies of the script's extra commands on the stored match, with and without snapshots."""
    found = {}
    for label, cls in (("snapshots", MatchStore), ("none", NoSnapshotLedger)):
        ledger = cls(f"sqlite:///{folder / f'commands-{label}.db'}")
        try:
            populate(ledger, script)
            found[label] = commands(ledger, script.extra)
        finally:
            ledger.close()
    return found


# -- the runs -----------------------------------------------------------------------------


@dataclass(slots=True)
class AppendResults:
    """The best round of each kind of append run, and the settings they ran with."""

    best: dict[str, Appends]
    synchronous: int
    journal: str
    store: Path
    """A file with the recorded match, for the rebuilds."""

    def keep(self, run: Appends) -> None:
        """Keep ``run`` if it is the fastest of its label so far."""
        if run.label not in self.best or run.rate > self.best[run.label].rate:
            self.best[run.label] = run


CACHED = "ledger cached (record), target"
UNCACHED = "ledger uncached (CLI), info"
SAVE_ONLY = "ledger.save only (decided), info"
RAW_ACTION = "raw sqlite3, commit per action"
RAW_ROW = "raw sqlite3, commit per row, info"
RAW_RUNS = 3
"""Raw runs a round: they take a fraction of a second, and a stall of the disk hits them hardest."""


def ledger_run(
    path: Path, script: Script, label: str, cache_size: int
) -> tuple[Appends, tuple[int, str]]:
    """Record the script into a new file at ``path`` through a ledger with ``cache_size``.

    :returns: the run, and the ``synchronous`` and journal mode of the ledger's connection.
    """
    ledger = MatchStore(f"sqlite:///{path}", cache_size=cache_size)
    try:
        return record(ledger, script, label), pragmas(ledger)
    finally:
        ledger.close()


def run_appends(folder: Path, script: Script, repeat: int) -> AppendResults:
    """``repeat`` rounds of the append runs, each on new files; the best of each kind."""
    results: AppendResults | None = None
    rows: list[Row] = []
    schema: list[str] = []
    for round_ in range(repeat):
        store = folder / f"cached-{round_}.db"
        cached, (synchronous, journal) = ledger_run(store, script, CACHED, cache_size=16)
        if results is None:
            results = AppendResults({}, synchronous, journal, store)
            stored, schema = stored_rows(store)
            rows = stored[1:]  # after MatchStarted, which start() stored
            assert len(rows) == script.events, (len(rows), script.events)
        results.keep(cached)
        for run in range(RAW_RUNS):
            for label, groups in ((RAW_ACTION, script.groups), (RAW_ROW, [1] * len(rows))):
                path = folder / f"raw-{round_}-{run}-{len(groups)}.db"
                batches = batched(rows, groups)
                seconds, latencies = raw_append(path, schema, batches, results.synchronous)
                results.keep(Appends(label, seconds, latencies, len(rows)))
        results.keep(ledger_run(folder / f"uncached-{round_}.db", script, UNCACHED, 0)[0])
        ledger = MatchStore(f"sqlite:///{folder / f'save-{round_}.db'}")
        results.keep(save_only(ledger, script, SAVE_ONLY))
        ledger.close()
    assert results is not None
    return results


# -- profiles -------------------------------------------------------------------------------


def profiled(run: Callable[[], object], top: int, sort: str) -> str:
    """cProfile of one call of ``run``: the ``top`` functions by ``sort``."""
    profiler = cProfile.Profile()
    profiler.runcall(run)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats(sort).print_stats(top)
    return out.getvalue()


def print_profiles(folder: Path, script: Script, store: Path, limit: int) -> None:
    """Where the time goes: the first ``limit`` appends, cached and uncached, and a full replay."""
    for cache_size in (16, 0):
        ledger = MatchStore(
            f"sqlite:///{folder / f'profile-{cache_size}.db'}", cache_size=cache_size
        )
        count = min(limit, len(script.actions))
        print(f"\nappends, cache_size={cache_size}, first {count} actions (cProfile, cumulative):")
        print(profiled(partial(record, ledger, script, "", limit), 25, "cumulative"))
        ledger.close()
    ledger = MatchStore(f"sqlite:///{store}")
    print(f"full replay of {script.events + 1} events (cProfile, own time):")
    print(profiled(lambda: full_replay(ledger), 15, "tottime"))
    ledger.close()


# -- the report -----------------------------------------------------------------------------


def verdict(ok: bool) -> str:
    """PASS or FAIL."""
    return "PASS" if ok else "FAIL"


def machine(results: AppendResults, script: Script, folder: Path) -> str:
    """The facts the numbers depend on."""
    versions = ", ".join(
        f"{name} {metadata.version(name)}"
        for name in ("eventsourcing", "eventsourcing-sqlalchemy", "sqlalchemy")
    )
    sync = SYNCHRONOUS.get(results.synchronous, "?")
    return (
        f"python {platform.python_version()}, sqlite {sqlite3.sqlite_version}, {versions}\n"
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs; SQLite files in "
        f"{folder.parent}, "
        f"journal_mode={results.journal}, synchronous={sync} ({results.synchronous}) "
        "read from the ledger's connection and set on the raw one\n"
        f"match: seed {script.seed}, {LENGTH} points, {len(script.actions)} actions, "
        f"{script.events + 1} events (MatchStarted included); snapshot every "
        f"{SNAPSHOT_INTERVAL} events"
    )


def print_appends(results: AppendResults, script: Script, repeat: int) -> float:
    """The append table; returns the target ratio (cached ledger over raw, events/s)."""
    baseline = results.best[RAW_ACTION]
    print(f"\n1. appends, one transaction per action (best of {repeat} rounds)")
    print(APPEND_HEADER)
    for label in (RAW_ACTION, RAW_ROW, CACHED, UNCACHED, SAVE_ONLY):
        print(results.best[label].line(baseline))
    print(decide_only(script).line(baseline))
    print(f"p50 ms of the first and the last 100 actions: {flatness(results)}")
    ratio = results.best[CACHED].rate / baseline.rate
    print(
        f"target: cached ledger / raw (commit per action) events/s = {ratio:.3f}x, "
        f"at least {APPEND_TARGET:g}x: {verdict(ratio >= APPEND_TARGET)}"
    )
    return ratio


def flatness(results: AppendResults) -> str:
    """The median latency of the first and the last 100 actions of each ledger run."""
    parts = []
    for label in (CACHED, UNCACHED):
        times = results.best[label].latencies
        first, last = (1_000 * statistics.median(part) for part in (times[:100], times[-100:]))
        parts.append(f"{label.split(' (')[0]} {first:.2f} / {last:.2f}")
    return ", ".join(parts)


def print_rebuilds(times: dict[str, float], script: Script, repeat: int) -> float:
    """The rebuild table; returns the target ratio (full replay over raw read)."""
    raw = times["raw"]
    rows = (
        ("raw sqlite3 SELECT + json.loads", "raw"),
        ("full replay: fold(ledger.history())", "replay"),
        ("  of which ledger.history()", "history"),
        ("ledger.load(): snapshot + tail", "load"),
    )
    print(f"\n2. rebuild of the {script.events + 1}-event match (median of {repeat})")
    print(f"{'':<38} {'ms':>8} {'events/s':>10} {'vs raw':>8}")
    for label, key in rows:
        rate = (script.events + 1) / (times[key] / 1_000)
        print(f"{label:<38} {times[key]:>8.2f} {rate:>10,.0f} {times[key] / raw:>7.2f}x")
    ratio = times["replay"] / raw
    print(
        f"target: full replay / raw read = {ratio:.2f}x, at most {REBUILD_TARGET:g}x: "
        f"{verdict(ratio <= REBUILD_TARGET)}"
    )
    return ratio


def print_commands(latencies: dict[str, list[float]], script: Script) -> None:
    """Commands per second on the long match, with and without snapshots."""
    print(f"\n3. CLI-like commands (load + decide + save) at {script.events + 1}+ events")
    print(f"{'':<38} {'commands/s':>10} {'p50 ms':>8} {'max ms':>8}")
    for label, key in (
        ("snapshot every " + str(SNAPSHOT_INTERVAL), "snapshots"),
        ("no snapshot", "none"),
    ):
        times = latencies[key]
        print(
            f"{label:<38} {len(times) / sum(times):>10,.0f} "
            f"{1_000 * statistics.median(times):>8.2f} {1_000 * max(times):>8.2f}"
        )
    speedup = sum(latencies["none"]) / sum(latencies["snapshots"])
    print(
        f"snapshots make a command {speedup:.1f}x faster here ({len(script.extra)} commands each)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, play the match, run the three parts and print the tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="rounds of append runs (best kept)")
    parser.add_argument("--rebuilds", type=int, default=9, help="timed rebuilds (median kept)")
    parser.add_argument("--commands", type=int, default=30, help="CLI-like commands timed")
    parser.add_argument("--events", type=int, default=MATCH_EVENTS, help="events of the match")
    parser.add_argument("--seed", type=int, default=SEED, help="first seed of the random match")
    parser.add_argument("--dir", type=Path, default=None, help="where the SQLite files go")
    parser.add_argument("--profile", action="store_true", help="cProfile appends and a replay")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    script = build_script(args.events, args.commands, args.seed)
    with tempfile.TemporaryDirectory(prefix="bench-ledger-", dir=args.dir) as name:
        folder = Path(name)
        results = run_appends(folder, script, args.repeat)
        print(machine(results, script, folder))
        append_ratio = print_appends(results, script, args.repeat)
        rebuild_ratio = print_rebuilds(
            rebuilds(results.store, args.rebuilds), script, args.rebuilds
        )
        print_commands(command_rates(folder, script), script)
        if args.profile:
            print_profiles(folder, script, results.store, 400)
    print(f"\n(whole run {time.perf_counter() - started:.0f} s)")
    missed = append_ratio < APPEND_TARGET or rebuild_ratio > REBUILD_TARGET
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
