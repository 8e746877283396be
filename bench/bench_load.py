"""Load test: many scorekeepers recording at once into one PostgreSQL database on loopback.

    python bench/bench_load.py [--url URL] [--writers 50] [--per-match 2] [--seconds 20]
                               [--baseline-seconds 5] [--sweep 1,10,25] [--check]

Creates its own database (``bgledger_load_<pid>``) on the server of
``--url`` (default ``BGLEDGER_TEST_POSTGRES``, else
``postgresql+psycopg://postgres@127.0.0.1:5432/test``; only its server is
used) and drops it at the end, so it never touches another database.

Every scorekeeper is a process (forked after the stack is imported, so 50
of them start in a second): a ``record``-like loop on its own
:class:`~bgledger.store.application.MatchStore` (aggregate cache on), recording random legal
actions (``tests/match_driver.py``) with ``MatchStore.act`` as fast as it can
for ``--seconds``: load (the cache, plus the events other scorekeepers
added), decide, save.  ``--per-match`` scorekeepers share each match (2:
25 matches for 50 writers), so some actions lose a race; a lost race
(:class:`~bgledger.errors.ConcurrentWriteError`) is counted and retried,
deciding afresh.  Processes, not threads: deciding an action is Python
work (legal-play generation, JSON transcoding, about 1 ms), and threads
would queue on the GIL instead of on the database.

In the same run, first: the baseline, one scorekeeper alone on one match for
``--baseline-seconds``.  While the writers run, the script samples
``pg_stat_activity`` every 50 ms and counts what the writers' server
backends are waiting on, which shows where they queue: a table lock
(``Lock``/``relation``: before issue 17 every inserting transaction took
``LOCK TABLE bgledger_events IN EXCLUSIVE MODE``, as eventsourcing-sqlalchemy
does), the commit's WAL flush (``IO``/``WALSync``, ``LWLock``/``WALWrite``),
or nothing (CPU, or idle waiting for the Python side: ``Client``/``ClientRead``).
It also reads the CPU time the writers' processes and the database's server
processes spent (``/proc``, a server on this machine), per stored action, and
how many of the machine's CPUs were busy, whoever used them: once the
database no longer queues the writers, the CPUs are the limit.

Printed: actions/s in total and per writer, p50/p99 milliseconds per stored
action (retries included) and per attempt, conflicts (count and share of
attempts), the ratios to the baseline, the wait table, and PASS/FAIL lines
for the integrity check done afterwards (every stream numbered 1..N with no
gap, holding exactly the events the writers were told they stored, its
snapshot-loaded state equal to its fold; every lost race retried).
``--think S`` makes each of the many writers wait a random 0-2S seconds
after each stored action (a scorekeeper's pace; default 0: as fast as
it can).  ``--sweep 1,10,25`` adds short runs with that many writers, each on its own
match, to show where the total stops growing.  Exit 0 either way
(``--check``: 1 if an integrity line FAILs).
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import platform
import random
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import match_driver  # noqa: E402
import psycopg  # noqa: E402
import sqlalchemy  # noqa: E402

from bgledger.commands.match import Match  # noqa: E402
from bgledger.commands.vocabulary import parse as parse_line  # noqa: E402
from bgledger.errors import ConcurrentWriteError, MatchExistsError  # noqa: E402
from bgledger.projections.state.fold import fold  # noqa: E402
from bgledger.store.application import SNAPSHOT_INTERVAL, MatchStore  # noqa: E402

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
LENGTH = 75
"""Points of every match: long, so that few end within a run (one that does is followed by
the next, ``m3.1`` after ``m3.0``)."""
CUBE_RATE = 0.03
SAMPLE = 0.05
"""Seconds between samples of ``pg_stat_activity``."""
CTX = multiprocessing.get_context("fork")


# -- a scorekeeper (a forked process) ------------------------------------------------------


@dataclass(slots=True)
class WriterReport:
    """What one scorekeeper did: latencies in seconds, events stored per match id."""

    stored: int = 0
    conflicts: int = 0
    action_latencies: list[float] = field(default_factory=list)
    attempt_latencies: list[float] = field(default_factory=list)
    events: dict[str, int] = field(default_factory=dict)
    raced_named: int = 0
    cpu: float = 0.0
    """CPU seconds (user + system) the scorekeeper's process spent in the timed loop."""
    error: str = ""


def _next_match(ledger: MatchStore, match_id: str) -> str:
    """The match after ``match_id`` once it is over (started here unless a partner did)."""
    base, _, generation = match_id.rpartition(".")
    following = f"{base}.{int(generation) + 1}"
    with contextlib.suppress(MatchExistsError):
        ledger.start(("Ann", "Bob"), LENGTH, match_id=following, by="load")
    return following


def _writer(
    url: str,
    name: str,
    match_id: str,
    seed: int,
    think: float,
    start: Any,
    until: Any,
    out: Any,
    finish: Any,
) -> None:
    report = WriterReport()
    try:
        ledger = MatchStore(url, cache_size=16)
        rng = random.Random(seed)
        ledger.state(match_id)  # connect and cache before the clock starts
        start.wait()
        cpu_began = time.process_time()
        pending_since: float | None = None
        while time.time() < until.value:  # set by the parent just after the start
            over = False

            def decide(match: Match) -> int:
                nonlocal over
                before = match.version
                line = match_driver.next_line(match.state, rng, CUBE_RATE)
                if line is None:
                    over = True
                    return 0
                parse_line(line).run(match, name)
                return int(match.version) - before

            began = time.perf_counter()
            pending_since = pending_since or began
            try:
                added = ledger.act(match_id, decide)
            except ConcurrentWriteError as error:
                report.attempt_latencies.append(time.perf_counter() - began)
                report.conflicts += 1
                report.raced_named += error.raced.startswith("event ") and " by " in error.raced
                continue
            ended = time.perf_counter()
            if over:
                match_id = _next_match(ledger, match_id)
                pending_since = None
                continue
            report.attempt_latencies.append(ended - began)
            report.action_latencies.append(ended - pending_since)
            pending_since = None
            report.stored += 1
            report.events[match_id] = report.events.get(match_id, 0) + added
            if think:
                time.sleep(rng.uniform(0, 2 * think))
        report.cpu = time.process_time() - cpu_began
        finish.wait(300)  # every writer is done: the parent reads the server's CPU time
        finish.wait(300)  # while they are all still connected
        ledger.close()
    except BaseException as error:  # the parent reports it as a FAIL
        finish.abort()
        report.error = repr(error)
    out.put((name, report))


# -- a run -----------------------------------------------------------------------------------


@dataclass(slots=True)
class RunResult:
    """One run: ``writers`` scorekeepers, ``per_match`` to a match, ``seconds`` long."""

    writers: int
    per_match: int
    seconds: float
    reports: dict[str, WriterReport]
    waits: Counter[str]
    samples: int
    matches: list[str]
    server_cpu: float | None = None
    """CPU seconds the database's server processes spent during the run (None: not readable)."""
    busy: float | None = None
    """CPUs of the machine busy on average during the run, whoever used them."""

    def _all(self, attribute: str) -> list[float]:
        return [x for r in self.reports.values() for x in getattr(r, attribute)]

    @property
    def stored(self) -> int:
        return sum(r.stored for r in self.reports.values())

    @property
    def conflicts(self) -> int:
        return sum(r.conflicts for r in self.reports.values())

    @property
    def rate(self) -> float:
        """Stored actions per second, all writers."""
        return self.stored / self.seconds

    def per_writer(self) -> tuple[float, float, float]:
        """Actions per second of the slowest, median and fastest writer."""
        rates = sorted(r.stored / self.seconds for r in self.reports.values())
        return rates[0], statistics.median(rates), rates[-1]

    def quantiles(self, attribute: str) -> tuple[float, float]:
        """p50 and p99 in milliseconds."""
        values = sorted(self._all(attribute))
        if not values:
            return float("nan"), float("nan")
        return (
            1000 * values[len(values) // 2],
            1000 * values[min(len(values) - 1, int(len(values) * 0.99))],
        )


def _sampler(admin: str, database: str, stop: threading.Event, waits: Counter[str]) -> int:
    """Count what the database's active backends wait on until ``stop``; the samples taken."""
    query = (
        "SELECT state, wait_event_type, wait_event FROM pg_stat_activity "
        "WHERE datname = %s AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
    )
    samples = 0
    with psycopg.connect(admin, autocommit=True) as connection:
        while not stop.wait(SAMPLE):
            samples += 1
            for state, kind, event in connection.execute(query, (database,)):
                if state == "idle":
                    waits["idle (between transactions)"] += 1
                elif kind is None:
                    waits["running (CPU)"] += 1
                else:
                    waits[f"{kind}/{event}" + (" (in transaction)" if "transaction" in state
                                                else "")] += 1  # fmt: skip
    return samples


def _server_cpu(admin: str, database: str) -> float | None:
    """CPU seconds used so far by the server processes of ``database`` (a local server only)."""
    query = "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
    with psycopg.connect(admin, autocommit=True) as connection:
        pids = [row[0] for row in connection.execute(query, (database,))]
    total = 0
    try:
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return None
    return total / os.sysconf("SC_CLK_TCK")


def _busy_ticks() -> tuple[int, int]:
    """The machine's CPU ticks so far: all, and idle (``/proc/stat``; zeros if unreadable)."""
    try:
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:8]]
    except (OSError, ValueError):
        return 0, 0
    return sum(ticks), ticks[3] + ticks[4]


def run(url: str, admin: str, database: str, prefix: str, writers: int, per_match: int,
        seconds: float, think: float = 0.0) -> RunResult:  # fmt: skip
    """Start the matches, fork the writers, run them ``seconds`` while sampling; gather."""
    matches = [f"{prefix}{n}.0" for n in range(-(-writers // per_match))]
    with MatchStore(url) as ledger:
        for match_id in matches:
            ledger.start(("Ann", "Bob"), LENGTH, match_id=match_id, by="load")
    start = CTX.Barrier(writers + 1)
    finish = CTX.Barrier(writers + 1)
    until = CTX.Value("d", 0.0)
    out = CTX.Queue()
    processes = [
        CTX.Process(
            target=_writer,
            args=(
                url,
                f"{prefix}w{n}",
                matches[n // per_match],
                n,
                think,
                start,
                until,
                out,
                finish,
            ),
        )
        for n in range(writers)
    ]
    for process in processes:
        process.start()
    until.value = time.time() + 10**6  # set for real once every writer is ready
    start.wait(300)
    server_began, ticks_began = _server_cpu(admin, database), _busy_ticks()
    began = time.time()
    until.value = began + seconds
    waits: Counter[str] = Counter()
    stop = threading.Event()
    sampled: list[int] = []
    sampler = threading.Thread(
        target=lambda: sampled.append(_sampler(admin, database, stop, waits)), daemon=True
    )
    sampler.start()
    with contextlib.suppress(threading.BrokenBarrierError):
        finish.wait(seconds + 300)  # every writer has left its loop, still connected
    server_ended, ticks_ended = _server_cpu(admin, database), _busy_ticks()
    with contextlib.suppress(threading.BrokenBarrierError):
        finish.wait(60)  # the writers may disconnect now
    reports: dict[str, WriterReport] = {}
    for _ in processes:
        name, report = out.get(timeout=seconds + 300)
        reports[name] = report
    stop.set()
    sampler.join()
    for process in processes:
        process.join(60)
    elapsed = max(seconds, 1e-9)
    result = RunResult(writers, per_match, elapsed, reports, waits, sampled[0], matches)
    if server_began is not None and server_ended is not None:
        result.server_cpu = server_ended - server_began
    all_ticks, idle_ticks = (e - b for e, b in zip(ticks_ended, ticks_began, strict=True))
    if all_ticks:
        result.busy = (os.cpu_count() or 1) * (all_ticks - idle_ticks) / all_ticks
    return result


# -- integrity -----------------------------------------------------------------------------


def check(url: str, result: RunResult) -> list[tuple[str, bool, str]]:
    """Every stream 1..N, holding exactly the events the writers stored; fold == load."""
    expected: Counter[str] = Counter()
    for report in result.reports.values():
        expected.update(report.events)
    lines = []
    errors = [f"{n}: {r.error}" for n, r in result.reports.items() if r.error]
    lines.append(("no scorekeeper failed", not errors, "; ".join(errors[:3])))
    bad: list[str] = []
    with MatchStore(url) as ledger:
        streams = {m for m in expected} | set(result.matches)
        for match_id in sorted(streams):
            history = ledger.history(match_id)
            versions = [e.originator_version for e in history]
            if versions != list(range(1, len(history) + 1)):
                bad.append(f"{match_id}: versions not 1..{len(history)}")
            elif len(history) != 1 + expected[match_id]:
                bad.append(f"{match_id}: {len(history)} events, writers stored "
                           f"{expected[match_id]} after MatchStarted")  # fmt: skip
            elif ledger.load(match_id).state != fold(history):
                bad.append(f"{match_id}: the snapshot-loaded state is not the fold")
    lines.append((f"{len(streams)} streams contiguous, no lost or extra event, fold == load",
                  not bad, "; ".join(bad[:3])))  # fmt: skip
    named = sum(r.raced_named for r in result.reports.values())
    lines.append((f"every conflict named the raced event ({named} of {result.conflicts})",
                  named == result.conflicts, ""))  # fmt: skip
    return lines


# -- the report ----------------------------------------------------------------------------


def _ms(pair: tuple[float, float]) -> str:
    return f"{pair[0]:.2f} / {pair[1]:.2f}"


COLUMNS = (
    ("run", 40), ("actions/s (x base)", 18), ("per writer: median (min-max)", 28),
    ("ms/action p50 / p99 (p50 x base)", 32), ("ms/attempt p50 / p99", 20), ("conflicts", 15),
)  # fmt: skip


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(f"{c:<{w}}" for c, (_, w) in zip(cells, COLUMNS, strict=True)) + " |"


def print_header() -> None:
    print(_row([name for name, _ in COLUMNS]))
    print("|" + "|".join("-" * (w + 2) for _, w in COLUMNS) + "|")


def print_run(label: str, result: RunResult, baseline: RunResult | None) -> None:
    low, mid, high = result.per_writer()
    attempts = result.stored + result.conflicts
    action = result.quantiles("action_latencies")
    rate, each, ms = f"{result.rate:,.0f}", f"{mid:.1f}", _ms(action)
    if baseline:
        rate += f" ({result.rate / baseline.rate:.2f}x)"
        each += f" ({mid / baseline.rate:.2f}x)"
        ms += f" ({action[0] / baseline.quantiles('action_latencies')[0]:.1f}x)"
    share = 100 * result.conflicts / attempts if attempts else 0.0
    attempt = _ms(result.quantiles("attempt_latencies"))
    conflicts = f"{result.conflicts:,} ({share:.1f}%)"
    print(_row([label, rate, f"{each} ({low:.1f}-{high:.1f})", ms, attempt, conflicts]))


def print_cpu(results: Sequence[tuple[str, RunResult]]) -> None:
    """Where the CPU went: per stored action, in the writers and in the server."""
    print("\nCPU per stored action (user + system), ms, and the machine's busy CPUs:")
    for label, result in results:
        stored = max(result.stored, 1)
        writers = 1000 * sum(r.cpu for r in result.reports.values()) / stored
        server = "?" if result.server_cpu is None else f"{1000 * result.server_cpu / stored:.2f}"
        busy = "?" if result.busy is None else f"{result.busy:.2f}"
        print(f"  {label:<40} writers {writers:5.2f}  server {server:>5}  "
              f"machine busy {busy} of {os.cpu_count()} CPUs")  # fmt: skip


def print_waits(result: RunResult) -> None:
    total = sum(result.waits.values())
    every = f"{SAMPLE * 1000:.0f} ms apart, {result.writers} writers"
    print(f"\nwhat the writers' backends were doing ({result.samples} samples, {every}):")
    for what, count in result.waits.most_common(10):
        print(f"  {what:<48} {100 * count / total:5.1f}%  (on average {count / result.samples:.1f} "
              "backends)")  # fmt: skip


def machine(admin: str) -> str:
    with psycopg.connect(admin) as connection:
        server = connection.execute("SHOW server_version").fetchone()
        settings = {
            name: connection.execute(f"SHOW {name}").fetchone()
            for name in ("synchronous_commit", "fsync", "max_connections", "shared_buffers")
        }
    versions = ", ".join(
        f"{name} {metadata.version(name)}"
        for name in ("eventsourcing", "eventsourcing-sqlalchemy", "sqlalchemy", "psycopg")
    )
    setting_text = ", ".join(f"{k}={v[0] if v else '?'}" for k, v in settings.items())
    return (
        f"python {platform.python_version()}, {versions}\n"
        f"PostgreSQL {server[0] if server else '?'} on loopback ({setting_text})\n"
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs shared by the "
        f"writers and the server; matches of {LENGTH} points, snapshot every "
        f"{SNAPSHOT_INTERVAL} events"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the load test and print the report."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("BGLEDGER_TEST_POSTGRES") or DEFAULT_URL,
                        help="a PostgreSQL URL: its server is used, not its database")  # fmt: skip
    parser.add_argument("--writers", type=int, default=50, help="concurrent scorekeepers")
    parser.add_argument("--per-match", type=int, default=2, help="scorekeepers sharing a match")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the load run")
    parser.add_argument("--baseline-seconds", type=float, default=5.0, help="the lone writer's")
    parser.add_argument("--sweep", default="", help="writer counts of extra runs, e.g. 1,10,25")
    parser.add_argument("--sweep-seconds", type=float, default=6.0, help="length of each")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a writer waits between actions (0: none)")  # fmt: skip
    parser.add_argument("--check", action="store_true", help="exit 1 if a check FAILs")
    args = parser.parse_args(argv)

    url = sqlalchemy.engine.make_url(args.url)
    database = f"bgledger_load_{os.getpid()}"
    admin = url.set(drivername="postgresql").render_as_string(hide_password=False)
    ours = url.set(database=database).render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{database}"')
    try:
        print(machine(admin))
        print(f"database {database} (dropped at the end)\n")
        baseline = run(ours, admin, database, "base", 1, 1, args.baseline_seconds)
        load = run(
            ours, admin, database, "m", args.writers, args.per_match, args.seconds, args.think
        )
        sweeps = [
            run(ours, admin, database, f"s{n}x", n, 1, args.sweep_seconds)
            for n in (int(x) for x in args.sweep.split(",") if x.strip())
        ]
        print_header()
        print_run("1 writer alone (baseline)", baseline, None)
        paced = f", think {args.think:g} s" if args.think else ""
        label = f"{args.writers} writers, {args.per_match} a match{paced}"
        print_run(label, load, baseline)
        for sweep in sweeps:
            print_run(f"{sweep.writers} writers, 1 a match (sweep)", sweep, baseline)
        print_cpu([("1 writer alone (baseline)", baseline), (label, load)]
                  + [(f"{r.writers} writers, 1 a match (sweep)", r) for r in sweeps])  # fmt: skip
        print_waits(load)
        print()
        failed = False
        for result in (baseline, load, *sweeps):
            for text, ok, detail in check(ours, result):
                failed |= not ok
                print(f"{'PASS' if ok else 'FAIL'}  {result.writers} writers: {text}"
                      + (f": {detail}" if detail else ""))  # fmt: skip
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
