"""The recording console, driven as a scorekeeper drives it: through a real terminal.

Each test starts ``bgledger record MATCH`` on a pseudo-terminal (the child's
controlling terminal, so Ctrl-C is a signal as at a real keyboard), types
keys into it and reads the screen back with the terminal's escape sequences
removed.  The ledger is then read through the front door.  The script path
(lines from stdin) is checked through click's runner.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgledger.cli.console import help_entries, help_table
from bgledger.cli.main import main
from bgledger.commands.vocabulary import VOCABULARY, Command
from bgledger.service import Ledger

UP = "\x1b[A"
CTRL_C = "\x03"
CTRL_D = "\x04"
PROMPT = "m> "
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r|\x07")
_WAIT = 60.0
"""How long to wait for the screen to show something before failing (a shared machine)."""


def _take_the_terminal() -> None:
    """In the child: make the pseudo-terminal its controlling terminal, for Ctrl-C, and let
    Ctrl-C interrupt it, as a shell at a terminal does: a test run started in the background
    of a shell script ignores SIGINT, and a Python started with SIGINT ignored keeps it so."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """``bgledger ARGS`` on a pseudo-terminal of 120 columns: keys in, screen text out."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bgledger.cli.main", *args],  # as the console script runs
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
            preexec_fn=_take_the_terminal,
        )
        os.close(slave)
        self.raw = b""
        self.read_to = 0

    @property
    def screen(self) -> str:
        """Everything the program wrote so far, without escape sequences."""
        return _ESCAPES.sub("", self.raw.decode("utf-8", errors="replace"))

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def expect(self, text: str) -> str:
        """Wait for ``text`` after what was read so far; return the screen up to its end."""
        deadline = time.monotonic() + _WAIT
        while True:
            screen = self.screen
            found = screen.find(text, self.read_to)
            if found >= 0:
                chunk = screen[self.read_to : found + len(text)]
                self.read_to = found + len(text)
                return chunk
            if not self._read(deadline):
                status = self.process.poll()
                ended = "running" if status is None else f"exited with {status}"
                raise AssertionError(f"{text!r} never came ({ended}):\n{screen[-3000:]}")

    def line(self, keys: str) -> str:
        """Type ``keys`` and Enter; return what the console answered, up to its next prompt."""
        self.type(keys + "\r")
        return self.expect(PROMPT)

    def finish(self) -> int:
        """Read to the end; the exit status."""
        while self._read(time.monotonic() + _WAIT):
            pass
        status = self.process.wait(timeout=_WAIT)
        os.close(self.master)
        return status

    def _read(self, deadline: float) -> bool:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    data = os.read(self.master, 4096)
                except OSError:  # the child closed the terminal
                    return False
                if not data:
                    return False
                self.raw += data
                return True
            if self.process.poll() is not None:
                return False
        return False


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'console.db'}"
    ledger = Ledger(url)
    try:
        ledger.start(("Ann", "Bob"), 7, match_id="m", by="kim")
    finally:
        ledger.close()
    return url


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("BGLEDGER_")}
    environ.update(
        XDG_STATE_HOME=str(tmp_path / "state"),
        BGLEDGER_USER="kim",
        TERM="xterm",
        INPUTRC="/dev/null",
    )
    return environ


@pytest.fixture
def console(url: str, env: dict[str, str]) -> Iterator[Terminal]:
    terminal = Terminal(["--db", url, "record", "m"], env)
    terminal.expect(PROMPT)
    yield terminal
    if terminal.process.poll() is None:
        terminal.process.kill()
        terminal.process.wait()
        os.close(terminal.master)


def echoed(number: int, text: str, answer: str) -> bool:
    """Whether ``answer`` echoes event ``number`` as ``bgledger history`` prints it."""
    line = rf"^\s+{number} [ !RCx] \d{{4}}-\d\d-\d\d \d\d:\d\d:\d\d  kim\s+{re.escape(text)}"
    return re.search(line, answer, re.MULTILINE) is not None


def state(url: str) -> tuple[int, str | None, tuple[int, ...] | None]:
    """The match's event count, who is on turn and the dice, read through the front door."""
    ledger = Ledger(url)
    try:
        now = ledger.state("m")
        return now.events, now.turn, tuple(now.dice) if now.dice else None
    finally:
        ledger.close()


def test_each_recorded_event_is_echoed_with_its_number_then_the_state(console: Terminal) -> None:
    answer = console.line("opening 3 1")
    assert echoed(2, "game 1 started", answer)
    assert echoed(3, "opening roll: Ann 3, Bob 1: Ann plays first", answer)
    assert "Ann has rolled 3-1 and must move" in answer
    assert echoed(4, "Ann played 8/5 6/5", console.line("move 8/5 6/5"))
    console.type("quit\r")
    assert console.finish() == 0


def test_the_up_arrow_brings_back_a_refused_line_to_fix_it(console: Terminal, url: str) -> None:
    console.line("opening 3 1")
    console.line("move 8/5 6/5")
    assert "not recorded" in console.line("roll 6")
    fixed = console.line(UP + " 4")  # 'roll 6' again, then ' 4'
    assert echoed(5, "Bob rolled 6-4", fixed)
    console.type(CTRL_D)
    assert console.finish() == 0
    assert state(url) == (5, "b", (6, 4))


def test_a_refusal_is_printed_once_with_its_rule_and_recording_goes_on(
    console: Terminal, url: str
) -> None:
    console.line("opening 3 1")
    refused = console.line("take")
    assert refused.count("cannot take") == 1 and "USBGF 4.4.4" in refused
    malformed = console.line("roll 6")
    assert malformed.count("roll 6") == 1  # as typed; the message does not repeat it
    assert "write 'roll D D' (2 words after roll, 1 given)" in malformed
    assert echoed(4, "Ann played 8/5 6/5", console.line("move 8/5 6/5"))
    console.type("exit\r")
    assert console.finish() == 0
    assert state(url)[:2] == (4, "b")


def test_help_lists_every_line_the_console_takes(console: Terminal) -> None:
    listed = console.line("help")
    for usage, _summary, example in help_entries():
        assert f"  {usage}" in listed and f"e.g. {example}" in listed, usage
    for line in ("52: 13/8 13/11", "@2026-11-21T14:05:00+01:00 roll 6 6", "show [a|b]"):
        assert line in listed, line
    about_the_clock = console.line("help clock")
    assert "clock resume" in about_the_clock and "opening 3 1" not in about_the_clock
    assert "no line mentions 'juggle'" in console.line("help juggle")


@pytest.mark.parametrize("kind", VOCABULARY, ids=lambda kind: kind.__name__)
def test_help_and_record_help_list_every_command_of_the_vocabulary(kind: type[Command]) -> None:
    """The console's help and 'record --help' are made from the one table: each command's
    usage, summary and example."""
    help_text = CliRunner().invoke(main, ["record", "--help"], terminal_width=200).stdout
    table = "\n".join(help_table(help_entries()))
    for text in (help_text, table):
        assert f"  {kind.usage}\n" in text and f"e.g. {kind.example}" in text
        assert " ".join(kind.summary.split()[:4]) in text


def test_show_draws_the_board_and_history_numbers_the_entries(console: Terminal) -> None:
    console.line("opening 3 1")
    board = console.line("show")
    assert "Position ID: " in board and "X = Ann, O = Bob, from Ann's side" in board
    assert "Ann has rolled 3-1 and must move" in board
    assert "from Bob's side" in console.line("board b")
    assert "viewer 'c'" in console.line("show c")
    recent = console.line("history 2")
    assert re.search(r"^\s+2 .* kim\s+game 1 started$", recent, re.MULTILINE)
    assert re.search(r"^\s+3 .* kim\s+opening roll", recent, re.MULTILINE)
    assert "match started" not in recent
    assert "match started" in console.line("history all")


def test_ctrl_c_drops_the_line_being_typed_and_ctrl_d_leaves(console: Terminal, url: str) -> None:
    console.line("opening 3 1")
    console.type("move 8/5 6/5")
    console.expect("move 8/5 6/5")  # on the screen, as a scorekeeper sees it before Ctrl-C
    # A person's Ctrl-C comes while readline waits for a key.  One that comes in the
    # microseconds readline spends on the key before is held until the next key
    # (CPython's readline loop checks signals only when its wait is interrupted).
    time.sleep(0.5)
    console.type(CTRL_C)
    console.expect(PROMPT)
    console.type(CTRL_D)
    assert console.finish() == 0
    assert "Traceback" not in console.screen
    assert state(url) == (3, "a", (3, 1))


def test_tab_completes_a_verb(console: Terminal) -> None:
    console.line("opening 3 1")
    console.line("move 8/5 6/5")
    assert echoed(5, "Bob doubled to 2", console.line("dou\t"))


def test_the_lines_typed_are_recalled_in_the_next_session(url: str, env: dict[str, str]) -> None:
    first = Terminal(["--db", url, "record", "m"], env)
    first.expect(PROMPT)
    first.line("help undo")
    first.type("quit\r")
    assert first.finish() == 0
    second = Terminal(["--db", url, "record", "m"], env)
    second.expect(PROMPT)
    second.type(UP + "\r")  # quit
    assert second.finish() == 0
    third = Terminal(["--db", url, "record", "m"], env)
    third.expect(PROMPT)
    assert "recording error: withdraw it" in third.line(UP + UP)  # help undo
    third.type("quit\r")
    assert third.finish() == 0


def test_a_history_file_that_cannot_be_kept_costs_only_the_recall(
    tmp_path: Path, url: str, env: dict[str, str]
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory\n")
    env["XDG_STATE_HOME"] = str(blocked)
    terminal = Terminal(["--db", url, "record", "m"], env)
    terminal.expect(PROMPT)
    first = terminal.line("opening 3 1")
    assert "the lines typed are not kept" in first and echoed(3, "opening roll", first)
    assert "not kept" not in terminal.line("move 8/5 6/5")  # said once
    terminal.type("quit\r")
    assert terminal.finish() == 0
    assert "Traceback" not in terminal.screen
    assert state(url)[0] == 4


# -- the same language from stdin -------------------------------------------------------


def test_a_script_names_a_refused_line_once(url: str) -> None:
    lines = "opening 3 1\nroll 6\nmove 8/5 6/5\n"
    result = CliRunner().invoke(main, ["--db", url, "record", "m"], input=lines)
    assert result.exit_code == 1
    assert "line 2: 'roll 6': write 'roll D D' (2 words after roll, 1 given)" in result.stderr
    assert result.stderr.count("'roll 6'") == 1
    assert "#" not in result.stdout  # the script path prints only the state lines
    assert len(result.stdout.splitlines()) == 2
