"""Startup cost of one-shot commands: ``bgledger show``, ``roll``, ``move`` against bare Python.

    python bench/bench_startup.py [--runs 15] [--check]

A scorekeeper types one command per action, so each one pays for starting
Python and importing what it needs before it reads a single event.  This
script makes a small SQLite ledger in a temporary folder (one 3-point match:
the opening 3-1 and its play, so that Bob is on roll), then runs, each
``--runs`` times as a child process of its own:

- ``python -c pass`` (the baseline: bare Python of the same interpreter);
- ``bgledger --help``;
- ``bgledger show M``;
- ``bgledger roll M 5 2`` and ``bgledger move M '13/11 13/8'``, each on a fresh
  copy of the ledger (copied before the run, not timed), so that every run
  records the same action on the same match;
- for information, the floor under any command that reads the ledger:
  ``python -c "import sqlalchemy"`` and ``python -c "import
  eventsourcing_sqlalchemy.factory"`` (the storage stack, which every such
  command needs, imported alone).

The cost of a run is its CPU time, user + system, from
``resource.getrusage(RUSAGE_CHILDREN)`` before and after the child (wall time
on a shared machine measures the neighbours too).  Printed: the machine facts,
the median and minimum milliseconds per command and the ratio of the median
to bare Python's median, with a PASS/FAIL line per target.  **Target:
``show``, ``roll`` and ``move`` at most 8x bare Python.**  Exit 0 either way
(``--check``: 1 if a target is missed).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

TARGET = 8.0
TARGETS = ("show", "roll", "move")
FLOOR = ("sqlalchemy", "eventsourcing_sqlalchemy.factory")
MATCH = "m1"


def child_cpu() -> float:
    """User + system seconds of every child waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(argv: list[str], env: dict[str, str]) -> float:
    """The CPU seconds one child process costs; it must exit 0."""
    before = child_cpu()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    cost = child_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()}")
    return cost


def console_script() -> list[str]:
    """The installed ``bgledger`` script, run by this interpreter (as the shell would)."""
    script = Path(sys.executable).parent / "bgledger"
    if script.exists():
        return [sys.executable, str(script)]
    return [sys.executable, "-m", "bgledger.cli.main"]


def make_ledger(folder: Path, env: dict[str, str], bgledger: list[str]) -> Path:
    """A SQLite ledger holding one match with Bob on roll, made through the CLI."""
    path = folder / "template.db"
    env = {**env, "BGLEDGER_DB": f"sqlite:///{path}"}
    for args in (
        ["start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", MATCH],
        ["opening", MATCH, "3", "1"],
        ["move", MATCH, "8/5 6/5"],
    ):
        subprocess.run([*bgledger, *args], env=env, check=True, stdout=subprocess.DEVNULL)
    return path


def machine_facts() -> str:
    names = ("eventsourcing", "eventsourcing-sqlalchemy", "sqlalchemy", "click", "cryptography")
    versions = ", ".join(f"{name} {metadata.version(name)}" for name in names)
    return (
        f"python {platform.python_version()} ({sys.executable}), {versions}\n"
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs per command (median kept)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)

    print(machine_facts())
    bgledger = console_script()
    env = {**os.environ, "BGLEDGER_USER": "bench"}
    env.pop("BGLEDGER_DB", None)
    costs: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        template = make_ledger(folder, env, bgledger)
        work = folder / "work.db"
        env["BGLEDGER_DB"] = f"sqlite:///{work}"
        # roll starts from a fresh copy of the template; move then plays the roll just recorded.
        commands: dict[str, list[str]] = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "--help": [*bgledger, "--help"],
            "show": [*bgledger, "show", MATCH],
            "roll": [*bgledger, "roll", MATCH, "5", "2"],
            "move": [*bgledger, "move", MATCH, "13/11 13/8"],
        }
        # For information: the floor, what the one storage path costs to import before
        # any module of bgledger (SQLAlchemy alone, then eventsourcing-sqlalchemy with it).
        for module in FLOOR:
            commands[f"import {module.split('.')[0]}"] = [sys.executable, "-c", f"import {module}"]
        # Interleaved, so that a busy spell on the machine lands on every command alike.
        for _ in range(args.runs):
            shutil.copyfile(template, work)
            for name, command in commands.items():
                costs.setdefault(name, []).append(run_once(command, env))

    base = statistics.median(costs["python -c pass"])
    print(f"\n{'command':<32} {'median ms':>10} {'min ms':>8} {'x bare':>7}   ({args.runs} runs)")
    missed = False
    for name, values in costs.items():
        median = statistics.median(values)
        ratio = median / base
        print(f"{name:<32} {median * 1000:>10.1f} {min(values) * 1000:>8.1f} {ratio:>7.1f}")
    print()
    for name in TARGETS:
        ratio = statistics.median(costs[name]) / base
        verdict = "PASS" if ratio <= TARGET else "FAIL"
        missed = missed or verdict == "FAIL"
        print(f"{verdict}: {name} at {ratio:.1f}x bare Python (target <= {TARGET:g}x)")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
