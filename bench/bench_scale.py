"""Benchmark: a store of many long matches on SQLite and PostgreSQL: append, rebuild, show.

    python bench/bench_scale.py [--matches N] [--events E] [--pool K] [--batch B]
                                [--catch-up M] [--postgres URL | --no-postgres]
                                [--dir DIR] [--shows N] [--profile] [--check]

Plays ``--pool`` (20) distinct seeded random legal 75-point matches of
``--events`` (1,500) events (``tests/match_driver.py``; every action decided
by the ``Match`` commands, with a director's note, a ``RulingNoted``, every
500 events) once, and keeps their events.  Then,
for one fresh SQLite file (in a temporary folder under ``--dir``) and one
throwaway PostgreSQL database (``bgledger_scale_<pid>`` on the server of
``--postgres``, dropped at the end):

1. **Appends.**  ``--matches`` (1,000) matches, match ``i`` a copy of pool
   match ``i mod K`` under its own id (its own stream UUID,
   ``match_uuid(id)``), its own players and one of ten event names; every
   event of the copy is linked afresh into the stream's hash chain
   (``bgledger.events.chain.rechain``) and the copy folded.  Stored as
   ``MatchStore.store_new`` stores an import: ``--batch`` (10) matches a
   transaction, then one snapshot of each match's end.  Only the storing is
   timed (events/s); the copying is timed apart, for information.
2. **Rebuild.**  ``ReadModels.rebuild()`` (``projections/readmodels/tracking.py``:
   every read model as of the last notification, one transaction; each match
   from its latest snapshot whose hash-chain head matches its stream, plus
   the events after it) and ``ReadModels.rebuild(full=True)`` (every event
   decoded and folded, no snapshot read; its tables must equal the first's),
   against raw ``SELECT state FROM bgledger_events ORDER BY id`` +
   ``json.loads`` of every row through the database driver, in the same run.
   **Target: rebuild >= 100,000 events/s.**  Then ``--catch-up`` (20) more
   matches are stored and one ``catch_up()`` folds their events, for
   information: what keeping the models current costs.
3. **Show.**  ``--shows`` (50) random matches, each loaded by a ledger
   without cache (``MatchStore.state(id)``: latest snapshot + tail) and turned
   into the ``show --json`` document (``bgledger.projections.views.summary.state_json``);
   median and worst.  **Target: median < 50 ms.**  For information, ``verify``
   of one match (``bgledger.store.integrity.verify_stream``: every link recomputed),
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
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import cast

import psycopg
from sqlalchemy import make_url

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "bench"))

import match_driver  # noqa: E402
from bench_ledger import BY, SEED, new_match, profiled, verdict  # noqa: E402

from bgledger.commands.language import Action  # noqa: E402
from bgledger.commands.match import Match, match_uuid  # noqa: E402
from bgledger.commands.rulings import Ruling  # noqa: E402
from bgledger.events import MatchEvent, MatchStarted  # noqa: E402
from bgledger.events.chain import rechain  # noqa: E402
from bgledger.projections.readmodels.tables import dump_tables  # noqa: E402
from bgledger.projections.readmodels.tracking import ReadModels  # noqa: E402
from bgledger.projections.state.fold import fold  # noqa: E402
from bgledger.projections.views.summary import state_json  # noqa: E402
from bgledger.store.application import MatchStore  # noqa: E402
from bgledger.store.integrity import verify_stream  # noqa: E402
from bgledger.store.snapshots import MatchSnapshot  # noqa: E402

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/"
REBUILD_TARGET = 100_000
"""ReadModels.rebuild() events/s: at least this."""
SHOW_TARGET = 50.0
"""Median ms to load and show one match: under this."""
EVENTS_TABLE = "bgledger_events"
NAMES = tuple(f"Player {n:02d}" for n in range(40))
EVENT_NAMES = tuple(f"Scale Open {n}" for n in range(10))
NOTE_EVERY = 500
"""A director's note (``RulingNoted``) every this many events."""
NOTE = Ruling("director", "noted for the scale benchmark", rule="USBGF 5.5")


# -- the matches ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Template:
    """One generated match: its seed and the events it recorded (``MatchStarted`` first)."""

    seed: int
    events: tuple[MatchEvent, ...]


def build_pool(size: int, events: int, seed: int) -> list[Template]:
    """``size`` distinct seeded random matches, each played only until it has ``events`` events.

    Every action is decided by the ``Match`` commands, as live recording does.
    Seeds whose match ends sooner are skipped (``bench_ledger.build_script``
    plays each match to its end: many times slower for the same lines).
    """
    pool: list[Template] = []
    attempt = seed
    while len(pool) < size:
        rng, match = random.Random(attempt), new_match()
        recorded = match.collect_events()
        while match.version < events:
            if match.version // NOTE_EVERY > (match.version - 1) // NOTE_EVERY:
                match.note(recorded, NOTE)  # a director's note now and then
            else:
                line = match_driver.next_line(match.state, rng)
                if line is None:
                    break
                Action.parse(line).apply(match, BY)
            recorded.extend(match.collect_events())
        if match.version >= events:
            pool.append(Template(attempt, tuple(recorded)))
        attempt += 1
    return pool


def copy_match(template: Template, number: int) -> tuple[list[MatchEvent], Match]:
    """Match ``number``: the template's events in a stream of their own, chained afresh.

    Its own id (so its own stream UUID), players and event name; every event
    is re-linked (``bgledger.events.chain.rechain``) and the copy folded, so the
    stream, its chain and its snapshot are what recording it would give.
    """
    match_id = f"scale-{number:06d}"
    players = (NAMES[number % len(NAMES)], NAMES[(number * 7 + 1) % len(NAMES)])
    if players[0] == players[1]:
        players = (players[0], NAMES[(number + 1) % len(NAMES)])
    stream = match_uuid(match_id)
    first = cast(MatchStarted, template.events[0])
    opened = replace(
        first, originator_id=stream, match_id=match_id, player_a=players[0],
        player_b=players[1], event=EVENT_NAMES[number % len(EVENT_NAMES)],
    )  # fmt: skip
    rest = [replace(event, originator_id=stream) for event in template.events[1:]]
    events = rechain([opened, *rest])
    state = fold(events)
    assert state is not None
    return events, Match(stream, len(events), state)


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
    copy_s: float = 0.0
    append_s: float = 0.0
    rows: int = 0
    raw_s: float = 0.0
    rebuild_s: float = 0.0
    rebuilt_events: int = 0
    rebuilt_folded: int = 0
    full_s: float = 0.0
    catch_up_s: float = 0.0
    caught_up: int = 0
    model_rows: tuple[int, int, int] = (0, 0, 0)
    load_ms: list[float] = field(default_factory=list)
    show_ms: list[float] = field(default_factory=list)
    verify_ms: list[float] = field(default_factory=list)
    verify_events: int = 0


def append(ledger: MatchStore, pool: Sequence[Template], results: Results, batch: int) -> None:
    """Store ``results.matches`` copies of the pool's matches, ``batch`` a transaction.

    Each batch is saved in one transaction through the application, then one
    snapshot of each match's end (``MatchStore.store_new``, an import, now stores
    both in one transaction, through the driver on SQLite); only that is timed.
    """
    clock = time.perf_counter
    for first in range(0, results.matches, batch):
        started = clock()
        numbers = range(first, min(first + batch, results.matches))
        copies = [copy_match(pool[n % len(pool)], n) for n in numbers]
        stored = clock()
        ledger.save(*(event for events, _ in copies for event in events))
        assert ledger.snapshots is not None
        ledger.snapshots.put([MatchSnapshot.take(match) for _, match in copies])
        results.append_s += clock() - stored
        results.copy_s += stored - started
        results.events += sum(match.version for _, match in copies)


def raw_select(ledger: MatchStore) -> tuple[int, float]:
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
    ledger = MatchStore(url)
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
    label: str, url: str, pool: Sequence[Template], args: argparse.Namespace
) -> tuple[Results, str]:
    """Fill one store and time it; also a cProfile of a third rebuild if asked."""
    results = Results(label, matches=args.matches)
    ledger = MatchStore(url)
    profile = ""
    try:
        append(ledger, pool, results, args.batch)
        results.rows, results.raw_s = raw_select(ledger)
        models = ReadModels(ledger)
        report = models.rebuild()
        results.rebuild_s, results.rebuilt_events = report.seconds, report.events
        results.rebuilt_folded = report.folded
        results.model_rows = (report.matches, report.rulings, report.standings)
        tables = dump_tables(models.engine)
        results.full_s = models.rebuild(full=True).seconds
        assert dump_tables(models.engine) == tables, "rebuild --full differs from rebuild"
        catch_up(ledger, models, pool, results, args.catch_up)
        if args.profile:
            profile = profiled(models.rebuild, 20, "tottime")
    finally:
        ledger.close()
    shows(url, results, args.shows, random.Random(args.seed))
    return results, profile


def catch_up(
    ledger: MatchStore, models: ReadModels, pool: Sequence[Template], results: Results, extra: int
) -> None:
    """``extra`` more matches stored after the rebuild, then one timed ``catch_up()``."""
    more = Results(results.label, matches=extra)
    for number in range(results.matches, results.matches + extra):
        events, match = copy_match(pool[number % len(pool)], number)
        ledger.save(*events)
        more.events += match.version
    started = time.perf_counter()
    results.caught_up = models.catch_up()
    results.catch_up_s = time.perf_counter() - started
    assert results.caught_up == more.events


# -- the report -----------------------------------------------------------------------------


def print_results(results: Results) -> tuple[bool, bool]:
    """The table of one store; returns (rebuild target met, show target met)."""
    r = results
    rebuild_rate = r.rebuilt_events / r.rebuild_s
    load, show = statistics.median(r.load_ms), statistics.median(r.show_ms)
    print(f"\n{r.label}: {r.matches:,} matches, {r.events:,} events ({r.rows:,} rows)")
    print(f"{'':<46} {'seconds':>9} {'events/s':>10} {'vs raw':>8}")
    lines = (
        ("copies: rechained and folded (info)", r.copy_s, r.events, None),
        ("appends: MatchStore.save + one snapshot a match", r.append_s, r.events, None),
        ("raw SELECT state ORDER BY id + json.loads", r.raw_s, r.rows, 1.0),
        (
            "ReadModels.rebuild(): snapshots + tails",
            r.rebuild_s,
            r.rebuilt_events,
            r.rebuild_s / r.raw_s,
        ),
        (
            "ReadModels.rebuild(full=True): every event",
            r.full_s,
            r.rebuilt_events,
            r.full_s / r.raw_s,
        ),
        (f"catch_up() of {r.caught_up:,} new events", r.catch_up_s, r.caught_up, None),
    )
    for text, seconds, count, ratio in lines:
        cell = f"{ratio:>7.2f}x" if ratio is not None else f"{'-':>8}"
        print(f"{text:<46} {seconds:>9.2f} {count / seconds:>10,.0f} {cell}")
    print(
        f"rebuilt rows: {r.model_rows[0]:,} matches, {r.model_rows[1]:,} rulings, "
        f"{r.model_rows[2]:,} standings; rebuild folded {r.rebuilt_folded:,} events; "
        f"rebuild --full equals rebuild"
    )
    print(f"{'ms, over ' + str(len(r.show_ms)) + ' random matches':<46} {'median':>9} {'max':>10}")
    for text, times in (
        ("MatchStore.state(id)", r.load_ms),
        ("MatchStore.state(id) + state_json (show --json)", r.show_ms),
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


def machine(pool: Sequence[Template], pool_s: float) -> str:
    """The facts the numbers depend on."""
    versions = ", ".join(
        f"{name} {metadata.version(name)}"
        for name in ("eventsourcing", "eventsourcing-sqlalchemy", "sqlalchemy", "psycopg")
    )
    return (
        f"python {platform.python_version()}, {versions}\n"
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs\n"
        f"pool: {len(pool)} matches (seeds {pool[0].seed}..{pool[-1].seed}), "
        f"{statistics.mean(len(t.events) for t in pool):,.0f} events each, played in {pool_s:.1f} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, build the pool, measure each store and print the tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1_000, help="matches in each store")
    parser.add_argument("--events", type=int, default=1_500, help="events of each match")
    parser.add_argument("--pool", type=int, default=20, help="distinct matches generated")
    parser.add_argument("--batch", type=int, default=10, help="matches per store_new call")
    parser.add_argument(
        "--catch-up", type=int, default=20, help="matches added after the rebuild, then caught up"
    )
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
