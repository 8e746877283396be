"""The ``bgledger`` console script leaves without tearing Python down, and loses nothing.

:func:`bgledger.cli.main.run` flushes the output and calls ``os._exit`` from
the first exit handler it registered (``bench/bench_startup.py``: freeing
every module at exit costs about as much as starting Python).  What a user
would notice if that went wrong: a lost exit status, output cut short, an
exit handler that never ran, a SQLite file left with its write-ahead log.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bgledger.service import Ledger


def bgledger(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``bgledger ARGS`` as the console script runs it (``python -m`` calls the same ``run``)."""
    return subprocess.run(
        [sys.executable, "-m", "bgledger.cli.main", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"BGLEDGER_USER": "kim", "PATH": "/usr/bin:/bin"},
    )


@pytest.fixture
def ledger_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    ledger = Ledger(url)
    ledger.start(("Ann", "Bob"), 3, match_id="m", by="kim")
    ledger.record_line("m", "opening 3 1", by="kim")
    ledger.close()
    return url


def test_exit_status_and_output_are_those_of_the_command(ledger_url: str) -> None:
    shown = bgledger("--db", ledger_url, "show", "m")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0].startswith("m: Ann (a) v Bob (b), 3-point match")
    assert "breaks (USBGF 2.2.2)" in shown.stdout.splitlines()[-1]  # the last line too

    unknown = bgledger("--db", ledger_url, "show", "nothing")
    assert unknown.returncode == 2
    assert "no match with id 'nothing'" in unknown.stderr

    refused = bgledger("--db", ledger_url, "roll", "m", "5", "2")  # Ann must move her 3-1
    assert refused.returncode == 1
    assert "refused" in refused.stderr

    assert bgledger("--db", ledger_url, "no-such-command").returncode == 2


def test_a_recorded_action_is_stored_and_the_sqlite_file_checkpointed(
    ledger_url: str, tmp_path: Path
) -> None:
    moved = bgledger("--db", ledger_url, "move", "m", "8/5 6/5")
    assert moved.returncode == 0, moved.stderr
    assert not (tmp_path / "ledger.db-wal").exists()  # the connection was closed cleanly
    ledger = Ledger(ledger_url)
    assert ledger.state("m").turn == "b"
    ledger.close()


def test_exit_handlers_registered_by_the_command_still_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    script = (
        "import atexit, pathlib, sys\n"
        "import click\n"
        "from bgledger.cli import main as cli\n"
        "@cli.main.command('mark')\n"
        "def mark() -> None:\n"
        f"    atexit.register(pathlib.Path({str(marker)!r}).write_text, 'yes')\n"
        "    click.echo('marked')\n"
        "sys.argv = ['bgledger', 'mark']\n"
        "cli.run()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "marked\n"), done.stderr
    assert marker.read_text() == "yes"


def test_the_cycle_collector_is_paused_for_the_imports_only(tmp_path: Path) -> None:
    script = (
        "import gc, sys\n"
        "from bgledger.cli import main as cli\n"
        "original = cli.load_command\n"
        "def load(target):\n"
        "    print('importing, collector on:', gc.isenabled())\n"
        "    command = original(target)\n"
        "    print('running, collector on:', gc.isenabled())\n"
        "    return command\n"
        "cli.load_command = load\n"
        f"sys.argv = ['bgledger', '--db', 'sqlite:///{tmp_path / 'x.db'}', 'show', 'x']\n"
        "cli.run()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr  # no match x
    assert done.stdout.splitlines() == [
        "importing, collector on: False",
        "running, collector on: True",
    ]
