"""Benchmark: a store of many long matches on SQLite and PostgreSQL: append, rebuild, show.

    python bench/bench_scale.py [--matches N] [--events E] [--pool K] [--batch B]
                                [--postgres URL | --no-postgres] [--dir DIR]
                                [--shows N] [--profile] [--check]

Plays ``--pool`` (20) distinct seeded random legal 75-point matches of
``--events`` (1,500) events (``tests/match_driver.py``) once, and keeps
their action lines.  Then, for one fresh SQLite file (in a temporary folder
under ``--dir``) and one throwaway PostgreSQL database
(``bgledger_scale_<pid>`` on the server of ``--postgres``, dropped at the
end):

1. **Appends.**  ``--matches`` (1,000) matches, match ``i`` a copy of pool
   match ``i mod K`` under its own id (its own stream UUID,
   ``match_uuid(id)``), its own players and one of ten event names: the
   action lines are replayed into a fresh ``Match.start`` per id, so every
   event is decided and chained afresh for its stream.  Stored with
   ``Ledger.store_new`` in batches of ``--batch`` (10) matches; only the
   ``store_new`` calls are timed (events/s), the replay is timed apart.
2. **Rebuild.**  ``ReadModels.rebuild()`` (``projections/readmodels.py``:
   every read model from the whole notification log, one transaction),
   against raw ``SELECT state FROM bgledger_events ORDER BY id`` + ``json.loads``
   of every row through the database driver, in the same run.  **Target:
   rebuild >= 100,000 events/s.**
3. **Show.**  ``--shows`` (50) random matches, each loaded by a ledger
   without cache (``Ledger.state(id)``: latest snapshot + tail) and turned
   into the ``show --json`` document (``projections.summary.state_json``);
   median and worst.  **Target: median < 50 ms.**  For information, ``verify``
   of one match (``ledger.integrity.verify_stream``: every link recomputed),
   median of five matches.

Prints a table per store, ratios, PASS/FAIL per target; exit status 0 either
way (``--check``: 1 if a target is missed).  ``--profile`` adds a cProfile
table of one more rebuild of each store.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import psycopg
from sqlalchemy import make_url

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "bench"))

import match_driver  # noqa: E402
from bench_ledger import BY, LENGTH, SEED, Script, new_match, profiled, verdict  # noqa: E402

from ledger.actions import Action  # noqa: E402
from ledger.app import Ledger  # noqa: E402
from ledger.integrity import verify_stream  # noqa: E402
from ledger.match import Match, match_uuid  # noqa: E402
from projections.readmodels import ReadModels  # noqa: E402
from projections.summary import state_json  # noqa: E402

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/"
REBUILD_TARGET = 100_000
"""ReadModels.rebuild() events/s: at least this."""
SHOW_TARGET = 50.0
"""Median ms to load and show one match: under this."""
EVENTS_TABLE = "bgledger_events"
NAMES = tuple(f"Player {n:02d}" for n in range(40))
EVENT_NAMES = tuple(f"Scale Open {n}" for n in range(10))


# -- the matches ----------------------------------------------------------------------------


def build_pool(size: int, events: int, seed: int) -> list[Script]:
    """``size`` distinct seeded random matches, each played only until it has ``events`` events.

    Seeds whose match ends sooner are skipped (``bench_ledger.build_script``
    plays each match to its end: many times slower for the same lines).
    """
    pool: list[Script] = []
    attempt = seed
    while len(pool) < size:
        rng, match = random.Random(attempt), new_match()
        actions, groups = [], []
        while match.version < events:
            line = match_driver.next_line(match.state, rng)
            if line is None:
                break
            action, before = Action.parse(line), match.version
            action.apply(match, BY)
            actions.append(action)
            groups.append(match.version - before)
        if match.version >= events:
            pool.append(Script(attempt, tuple(actions), tuple(groups), ()))
        attempt += 1
    return pool


def copy_match(script: Script, number: int) -> Match:
    """Match ``number``: the script's actions replayed under its own id, players and event."""
    match_id = f"scale-{number:06d}"
    players = (NAMES[number % len(NAMES)], NAMES[(number * 7 + 1) % len(NAMES)])
    if players[0] == players[1]:
        players = (players[0], NAMES[(number + 1) % len(NAMES)])
    match = Match.start(
        match_uuid(match_id), match_id, players, LENGTH, by=BY,
        event=EVENT_NAMES[number % len(EVENT_NAMES)],
    )  # fmt: skip
    for action in script.actions:
        action.apply(match, BY)
    return match


# -- the stores -----------------------------------------------------------------------------


@contextmanager
def postgres_database(base: str) -> Iterator[str]:
    """A new database ``bgledger_scale_<pid>`` on the server of ``base``; dropped afterwards."""
    url = make_url(base)
    name = f"bgledger_scale_{os.getpid()}"
    admin = url.set(drivername="postgresql", database="postgres")
    conninfo = admin.render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(conninfo, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass(slots=True)
class Results:
    """What one store measured."""

    label: str
    matches: int = 0
    events: int = 0
    replay_s: float = 0.0
    append_s: float = 0.0
    rows: int = 0
    raw_s: float = 0.0
    rebuild_s: float = 0.0
    rebuilt_events: int = 0
    model_rows: tuple[int, int, int] = (0, 0, 0)
    load_ms: list[float] = field(default_factory=list)
    show_ms: list[float] = field(default_factory=list)
    verify_ms: list[float] = field(default_factory=list)
    verify_events: int = 0


def append(ledger: Ledger, pool: Sequence[Script], results: Results, batch: int) -> None:
    """Replay and store ``results.matches`` copies of the pool's matches, ``batch`` a call."""
    clock = time.perf_counter
    for first in range(0, results.matches, batch):
        started = clock()
        numbers = range(first, min(first + batch, results.matches))
        matches = [copy_match(pool[n % len(pool)], n) for n in numbers]
        stored = clock()
        ledger.store_new(*matches)
        results.append_s += clock() - stored
        results.replay_s += stored - started
        results.events += sum(match.version for match in matches)


def raw_select(ledger: Ledger) -> tuple[int, float]:
    """Every event row's state read with the driver and ``json.loads``: (rows, seconds)."""
    engine = ledger.recorder.datastore.engine  # type: ignore[attr-defined]
    connection = engine.raw_connection()
    try:
        started = time.perf_counter()
        cursor = connection.cursor()
        cursor.execute(f"SELECT state FROM {EVENTS_TABLE} ORDER BY id")
        states = [json.loads(bytes(state)) for (state,) in cursor.fetchall()]
        seconds = time.perf_counter() - started
        cursor.close()
    finally:
        connection.close()
    return len(states), seconds


def timed(run: Callable[[], object]) -> float:
    """Milliseconds of one call of ``run``."""
    started = time.perf_counter()
    run()
    return 1_000 * (time.perf_counter() - started)


def shows(url: str, results: Results, count: int, rng: random.Random) -> None:
    """Load and show ``count`` random matches on a new uncached ledger; verify five."""
    ledger = Ledger(url)
    try:
        ids = [f"scale-{n:06d}" for n in range(results.matches)]
        ledger.state(ids[0])  # warm the pool and the imports
        for match_id in rng.sample(ids, min(count, len(ids))):
            results.load_ms.append(timed(lambda: ledger.state(match_id)))  # noqa: B023
            results.show_ms.append(timed(lambda: state_json(ledger.state(match_id))))  # noqa: B023
        for match_id in rng.sample(ids, min(5, len(ids))):
            found: list[int] = []

            def check(match_id: str = match_id, found: list[int] = found) -> None:
                verdict_ = verify_stream(ledger, match_uuid(match_id), asked=match_id)
                assert verdict_.ok, verdict_.to_json()
                found.append(verdict_.events)

            results.verify_ms.append(timed(check))
            results.verify_events = found[0]
    finally:
        ledger.close()


def measure(
    label: str, url: str, pool: Sequence[Script], args: argparse.Namespace
) -> tuple[Results, str]:
    """Fill one store and time it; also a cProfile of a second rebuild if asked."""
    results = Results(label, matches=args.matches)
    ledger = Ledger(url)
    profile = ""
    try:
        append(ledger, pool, results, args.batch)
        results.rows, results.raw_s = raw_select(ledger)
        models = ReadModels(ledger)
        report = models.rebuild()
        results.rebuild_s, results.rebuilt_events = report.seconds, report.events
        results.model_rows = (report.matches, report.rulings, report.standings)
        if args.profile:
            profile = profiled(models.rebuild, 20, "tottime")
    finally:
        ledger.close()
    shows(url, results, args.shows, random.Random(args.seed))
    return results, profile


# -- the report -----------------------------------------------------------------------------


def print_results(results: Results) -> tuple[bool, bool]:
    """The table of one store; returns (rebuild target met, show target met)."""
    r = results
    rebuild_rate = r.rebuilt_events / r.rebuild_s
    raw_rate = r.rows / r.raw_s
    load, show = statistics.median(r.load_ms), statistics.median(r.show_ms)
    print(f"\n{r.label}: {r.matches:,} matches, {r.events:,} events ({r.rows:,} rows)")
    print(f"{'':<46} {'seconds':>9} {'events/s':>10} {'vs raw':>8}")
    lines = (
        ("replay of the action lines (generation, info)", r.replay_s, r.events, None),
        ("appends: Ledger.store_new", r.append_s, r.events, None),
        ("raw SELECT state ORDER BY id + json.loads", r.raw_s, r.rows, 1.0),
        ("ReadModels.rebuild()", r.rebuild_s, r.rebuilt_events, r.rebuild_s / r.raw_s),
    )
    for text, seconds, count, ratio in lines:
        cell = f"{ratio:>7.2f}x" if ratio is not None else f"{'-':>8}"
        print(f"{text:<46} {seconds:>9.2f} {count / seconds:>10,.0f} {cell}")
    print(
        f"rebuilt rows: {r.model_rows[0]:,} matches, {r.model_rows[1]:,} rulings, "
        f"{r.model_rows[2]:,} standings; raw read {raw_rate / rebuild_rate:.1f}x the rebuild rate"
    )
    print(f"{'ms, over ' + str(len(r.show_ms)) + ' random matches':<46} {'median':>9} {'max':>10}")
    for text, times in (
        ("Ledger.state(id)", r.load_ms),
        ("Ledger.state(id) + state_json (show --json)", r.show_ms),
        (f"verify_stream ({r.verify_events:,} events, {len(r.verify_ms)} matches)", r.verify_ms),
    ):
        print(f"{text:<46} {statistics.median(times):>9.2f} {max(times):>10.2f}")
    rebuild_ok, show_ok = rebuild_rate >= REBUILD_TARGET, show < SHOW_TARGET
    print(
        f"target: rebuild {rebuild_rate:,.0f} events/s, at least {REBUILD_TARGET:,}: "
        f"{verdict(rebuild_ok)}"
    )
    print(f"target: show median {show:.2f} ms (load {load:.2f}), under {SHOW_TARGET:g}: "
          f"{verdict(show_ok)}")  # fmt: skip
    return rebuild_ok, show_ok


def machine(pool: Sequence[Script], pool_s: float) -> str:
    """The facts the numbers depend on."""
    versions = ", ".join(
        f"{name} {metadata.version(name)}"
        for name in ("eventsourcing", "eventsourcing-sqlalchemy", "sqlalchemy", "psycopg")
    )
    return (
        f"python {platform.python_version()}, {versions}\n"
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs\n"
        f"pool: {len(pool)} matches (seeds {pool[0].seed}..{pool[-1].seed}), "
        f"{statistics.mean(s.events + 1 for s in pool):,.0f} events each, played in {pool_s:.1f} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, build the pool, measure each store and print the tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1_000, help="matches in each store")
    parser.add_argument("--events", type=int, default=1_500, help="events of each match")
    parser.add_argument("--pool", type=int, default=20, help="distinct matches generated")
    parser.add_argument("--batch", type=int, default=10, help="matches per store_new call")
    parser.add_argument("--shows", type=int, default=50, help="random matches loaded and shown")
    parser.add_argument("--seed", type=int, default=SEED, help="first seed of the pool")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="PostgreSQL server URL")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--dir", type=Path, default=None, help="where the SQLite file goes")
    parser.add_argument("--profile", action="store_true", help="cProfile a second rebuild")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    pool = build_pool(args.pool, args.events, args.seed)
    print(machine(pool, time.perf_counter() - started))
    verdicts: list[bool] = []
    profiles: list[tuple[str, str]] = []

    def run(label: str, url: str) -> None:
        began = time.perf_counter()
        results, profile = measure(label, url, pool, args)
        verdicts.extend(print_results(results))
        print(f"({label}: {time.perf_counter() - began:.0f} s)")
        if profile:
            profiles.append((label, profile))

    with tempfile.TemporaryDirectory(prefix="bench-scale-", dir=args.dir) as folder:
        run("SQLite", f"sqlite:///{Path(folder) / 'scale.db'}")
    if not args.no_postgres:
        with postgres_database(args.postgres) as url:
            run("PostgreSQL", url)
    for label, profile in profiles:
        print(f"\n{label}: second ReadModels.rebuild() (cProfile, own time):\n{profile}")
    print(f"\n(whole run {time.perf_counter() - started:.0f} s)")
    return 1 if args.check and not all(verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
