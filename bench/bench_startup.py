"""Startup cost of one-shot commands: ``bgledger show``, ``opening``, ``roll``, ``move`` against
bare Python.

    python bench/bench_startup.py [--runs 15] [--check]

A scorekeeper types one command per action, so each one pays for starting
Python and importing what it needs before it reads a single event.  This
script makes a small SQLite ledger in a temporary folder (one 3-point match:
the opening 3-1 and its play, so that Bob is on roll), then runs, each
``--runs`` times as a child process of its own:

- ``python -c pass`` (the baseline: bare Python of the same interpreter);
- ``bgledger --help``;
- ``bgledger show M``;
- ``bgledger opening M2 3 1`` on a second match, just started, of the same
  fresh copy of the ledger;
- ``bgledger roll M 5 2`` and ``bgledger move M '13/11 13/8'``, each on a fresh
  copy of the ledger (copied before the run, not timed), so that every run
  records the same action on the same match;
- for information, ``python -c pass`` in an empty virtual environment of the
  same interpreter (made in the temporary folder): an editable install of
  bgledger adds a path finder that ``site`` imports at every start-up, which
  doubles bare Python's cost here; the targets' ratios to this baseline are
  printed too;
- for information, the floor under any command that reads the ledger:
  ``python -c "import sqlalchemy"`` (SQLAlchemy alone, which every such
  command needs), ``python -c "import sqlalchemy, eventsourcing.application,
  click"`` (the whole third-party stack of a one-shot command, before any
  module of bgledger), and that stack with SQLAlchemy's SQLite dialect,
  imported with the cycle collector paused and left with ``os._exit`` as the
  ``bgledger`` script does (``bgledger.cli.main.run``).

Bytecode: the children run with bytecode caching on, in a cache folder of
their own (``PYTHONPYCACHEPREFIX`` in the temporary folder; an inherited
``PYTHONDONTWRITEBYTECODE`` is dropped), after one untimed round that fills
it, as an installed package runs.  With ``PYTHONDONTWRITEBYTECODE=1`` (set in
some shells here) every module of an editable install is compiled from source
on every run, about 3x bare Python more per command.

The cost of a run is its CPU time, user + system, from
``resource.getrusage(RUSAGE_CHILDREN)`` before and after the child (wall time
on a shared machine measures the neighbours too).  Printed: the machine facts,
the median and minimum milliseconds per command and the ratio of the median
to bare Python's median, with a PASS/FAIL line per target.  **Target:
``show``, ``opening``, ``roll`` and ``move`` at most 8x bare Python** (issue 34 names
``show`` and ``opening``).  Exit 0 either way
(``--check``: 1 if a target is missed).

``--profile`` adds where a command's CPU goes: the command is run in a child
that imports its stack step by step (click and the lazy group, SQLAlchemy,
eventsourcing, bgledger's vocabulary, rules, fold, aggregate, store, front
door, the command's module; dataclasses' methods compiled once for every run,
as the script does) and then runs it, timing each step with
``time.process_time()`` (the minimum of ``--runs`` children); "start-up" is the
CPU before the first step, "exit" the rest of the child's total.
``--instructions`` adds, if valgrind is installed, the instructions each
command executes (``valgrind --tool=cachegrind --cache-sim=no``, one run each)
and their ratio to bare Python's: a count the neighbours on a shared machine
do not change.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

TARGET = 8.0
TARGETS = ("show", "opening", "roll", "move")
FLOOR = {
    "floor: import sqlalchemy": "import sqlalchemy",
    "floor: + eventsourcing, click": "import sqlalchemy, eventsourcing.application, click",
    # The same stack and SQLite dialect, imported and left as bgledger's script does
    # (collector paused, no teardown): what any command costs before bgledger's own code.
    "floor: the stack, left as bgledger": (
        "import gc; gc.disable()\n"
        "import os, click, eventsourcing.application, sqlalchemy.dialects.sqlite\n"
        "os._exit(0)"
    ),
}
MATCH = "m1"
FRESH = "m2"
"""A match just started, for ``opening``."""
PLAIN = "python -c pass, empty venv"
# What a one-shot command imports, in the order it needs it (--profile).
STEPS = (
    ("click and the lazy group", ("click", "bgledger.cli.main")),
    ("SQLAlchemy", ("sqlalchemy",)),
    ("eventsourcing", ("eventsourcing.application",)),
    ("vocabulary (bgledger.events)", ("bgledger.events", "bgledger.events.names")),
    ("rules and profiles", ("bgledger.rules.profiles", "bgledger.rules.judge")),
    ("fold (projections.state)", ("bgledger.projections.state.fold",)),
    ("aggregate (bgledger.commands)", ("bgledger.commands.match", "bgledger.commands.language")),
    ("store (bgledger.store)", ("bgledger.store.application",)),
    ("front door (bgledger.service)", ("bgledger.service",)),
)
COMMAND_MODULE = {"show": "bgledger.cli.view_commands", "roll": "bgledger.cli.verbs"}
PROFILER = """
import gc, time
gc.disable()
marks = [("start-up", time.process_time())]
import atexit, importlib, json, sys
# As bgledger.cli.main.run does: dataclasses' methods compiled once for every run.
from bgledger.cli.classcode import ClassCode, default_path
class_code = ClassCode(default_path())
class_code.install()
for label, modules in STEPS:
    for module in modules:
        importlib.import_module(module)
    marks.append((label, time.process_time()))
importlib.import_module(COMMAND)
gc.freeze()
gc.enable()
marks.append(("the command's module and views", time.process_time()))
# What bgledger.cli.main.run does around the group: leave through _leave.
from bgledger.cli import main as cli
atexit.register(cli._leave)
try:
    cli.main(ARGS, prog_name="bgledger")
except SystemExit as done:
    assert not done.code, done.code
marks.append(("running it", time.process_time()))
class_code.save()  # before _leave's os._exit; writes only what is new
sys.stderr.write(json.dumps(marks))
cli._Leaving.status = 0
"""


def child_cpu() -> float:
    """User + system seconds of every child waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(argv: list[str], env: dict[str, str]) -> float:
    """The CPU seconds one child process costs; it must exit 0."""
    return run_child(argv, env)[0]


def run_child(argv: list[str], env: dict[str, str]) -> tuple[float, str]:
    """The CPU seconds one child process costs and its stderr; it must exit 0."""
    before = child_cpu()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    cost = child_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()}")
    return cost, done.stderr.decode()


def child_env(folder: Path) -> dict[str, str]:
    """The children's environment: bytecode cached in ``folder``, recorder ``bench``."""
    env = {**os.environ, "BGLEDGER_USER": "bench", "PYTHONPYCACHEPREFIX": str(folder)}
    for name in ("BGLEDGER_DB", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    return env


def step_profile(
    name: str, args: list[str], env: dict[str, str], runs: int, reset: Path | None, template: Path
) -> list[tuple[str, float]]:
    """Where a command's CPU goes, step by step: the minimum over ``runs`` children."""
    module = COMMAND_MODULE.get(name, COMMAND_MODULE["roll"])
    code = f"STEPS = {STEPS!r}\nCOMMAND = {module!r}\nARGS = {args!r}\n{PROFILER}"
    best: dict[str, float] = {}
    order: list[str] = []
    for _ in range(runs):
        if reset is not None:
            shutil.copyfile(template, reset)
        total, stderr = run_child([sys.executable, "-c", code], env)
        marks = json.loads(stderr[stderr.rindex("[[") :])
        steps = [(marks[0][0], marks[0][1])]
        steps += [(label, at - marks[i][1]) for i, (label, at) in enumerate(marks[1:])]
        steps.append(("exit (the rest of the child's CPU)", total - marks[-1][1]))
        for label, cost in steps:
            if label not in best:
                order.append(label)
            best[label] = min(best.get(label, cost), cost)
    return [(label, best[label]) for label in order]


def instructions(argv: list[str], env: dict[str, str]) -> int | None:
    """Instructions one run of ``argv`` executes under valgrind (None without valgrind)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    tool = [valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    done = subprocess.run([*tool, *argv], env=env, capture_output=True, text=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    return int(found.group(1).replace(",", "")) if found else None


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
        ["start", "--a", "Cy", "--b", "Di", "--length", "3", "--id", FRESH],
    ):
        subprocess.run([*bgledger, *args], env=env, check=True, stdout=subprocess.DEVNULL)
    return path


def machine_facts() -> str:
    names = ("eventsourcing", "sqlalchemy", "click")
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
    parser.add_argument("--profile", action="store_true", help="where each command's CPU goes")
    parser.add_argument(
        "--instructions", action="store_true", help="instructions per command (valgrind)"
    )
    args = parser.parse_args(argv)

    print(machine_facts())
    bgledger = console_script()
    costs: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = child_env(folder / "pycache")
        template = make_ledger(folder, env, bgledger)
        work = folder / "work.db"
        env["BGLEDGER_DB"] = f"sqlite:///{work}"
        # roll starts from a fresh copy of the template; move then plays the roll just recorded.
        commands: dict[str, list[str]] = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "--help": [*bgledger, "--help"],
            "show": [*bgledger, "show", MATCH],
            "opening": [*bgledger, "opening", FRESH, "3", "1"],
            "roll": [*bgledger, "roll", MATCH, "5", "2"],
            "move": [*bgledger, "move", MATCH, "13/11 13/8"],
        }
        # For information: bare Python of the same interpreter in an empty virtual
        # environment, without the editable install's path finder that site imports.
        plain = folder / "plain"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(plain)], check=True)
        commands[PLAIN] = [str(plain / "bin" / "python"), "-c", "pass"]
        # For information: the floor, what the third-party stack costs to import before
        # any module of bgledger (SQLAlchemy alone, then with eventsourcing and click).
        for label, code in FLOOR.items():
            commands[label] = [sys.executable, "-c", code]
        # One untimed round fills the bytecode cache, as installing a package does.
        shutil.copyfile(template, work)
        for command in commands.values():
            run_once(command, env)
        # Interleaved, so that a busy spell on the machine lands on every command alike.
        for _ in range(args.runs):
            shutil.copyfile(template, work)
            for name, command in commands.items():
                costs.setdefault(name, []).append(run_once(command, env))
        if args.profile:
            profiles = {
                name: step_profile(
                    name,
                    commands[name][len(bgledger) :],
                    env,
                    args.runs,
                    work if name == "roll" else None,
                    template,
                )
                for name in ("show", "roll")
            }
        if args.instructions:
            shutil.copyfile(template, work)
            counts = {name: instructions(command, env) for name, command in commands.items()}

    base = statistics.median(costs["python -c pass"])
    print(f"\n{'command':<36} {'median ms':>10} {'min ms':>8} {'x bare':>7}   ({args.runs} runs)")
    missed = False
    for name, values in costs.items():
        median = statistics.median(values)
        ratio = median / base
        print(f"{name:<36} {median * 1000:>10.1f} {min(values) * 1000:>8.1f} {ratio:>7.1f}")
    print()
    for name in TARGETS:
        ratio = statistics.median(costs[name]) / base
        verdict = "PASS" if ratio <= TARGET else "FAIL"
        missed = missed or verdict == "FAIL"
        print(f"{verdict}: {name} at {ratio:.1f}x bare Python (target <= {TARGET:g}x)")
    plain_base = statistics.median(costs[PLAIN])
    print(
        "for information, against bare Python in an empty virtual environment: "
        + ", ".join(
            f"{name} {statistics.median(costs[name]) / plain_base:.1f}x" for name in TARGETS
        )
    )
    if args.profile:
        print(f"\nwhere the CPU goes, ms (x bare Python's median), minimum of {args.runs} runs")
        print(f"{'step':<40} {'show':>14} {'roll':>14}")
        labels = [label for label, _ in profiles["show"]]
        for label in labels:
            cells = []
            for name in ("show", "roll"):
                cost = dict(profiles[name]).get(label, 0.0)
                cells.append(f"{cost * 1000:6.1f} ({cost / base:4.1f})")
            print(f"{label:<40} {cells[0]:>14} {cells[1]:>14}")
        sums = [sum(cost for _, cost in profiles[name]) for name in ("show", "roll")]
        print(
            f"{'total (sum of minima)':<40} "
            + " ".join(f"{total * 1000:6.1f} ({total / base:4.1f})".rjust(14) for total in sums)
        )
    if args.instructions:
        bare = counts.get("python -c pass")
        print("\ninstructions (valgrind cachegrind), one run each")
        if not bare:
            print("valgrind is not installed: no counts")
        for name, count in counts.items():
            if count and bare:
                print(f"{name:<36} {count / 1e6:>10.1f} M {count / bare:>6.2f}x")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
