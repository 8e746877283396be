"""The commands and transcripts of the docs, run: README.md and docs/*.md.

A fenced block's language says what the block is:

- ``sh``: commands.  Each is run, and must succeed (exit 0).
- ``console``: a transcript.  Each ``$ COMMAND`` line is run, and what it
  prints (standard output and error together, as a terminal shows them) is
  compared with the lines under it.  A line ``...`` stands for any lines.
  Dates and times (``2026-11-26 10:01:00``, ``2026-11-26T10:01:00+00:00``,
  ``2026.11.26``) and hex
  digests (a chain's head) are compared as such, not as values: a transcript
  made yesterday still matches.
- any other language (``text``, ``python``, ``json``, none): not run; a
  check refuses a ``$ `` or ``bgledger `` line in it, so no command hides
  where it is not run.

The generated command reference (:data:`GENERATED`) is current by
construction and is not run here.

A line ``<!-- docs-test: skip REASON -->`` just before a block skips it,
with that reason.  Inside a block, a command whose program is in
:data:`NOT_RUN` (a venv, pip, a certificate authority, a browser's window)
is not run, with its reason; ``bgledger serve`` is checked, not started: its
options are parsed by the command itself (``serve`` is started and stopped
by ``tests/test_cli_serve.py``).  A command that addresses the server the
docs show (``http://127.0.0.1:8000``: ``curl``, a headless ``chromium``)
runs against a ``bgledger serve`` of the page's ledger, started for it on a
free port and stopped after it.

Each page runs in a temporary folder of its own, with the project's
``fixtures/`` and the shared corpus (``../shared``) where the docs name them,
and one database: the embedded default, ``bgledger.db`` in that folder
(unless the page exports ``BGLEDGER_DB``).  Commands are the shell's simple
ones: ``&&``, ``;``, ``|``, ``< FILE``, ``> FILE``, ``2>&1``, quotes,
``NAME=VALUE``, ``export NAME=VALUE``, ``$NAME``, ``$?``, ``$(COMMAND)``
(what it prints, its last newline dropped) and a here-document
(``<<'EOF'`` ... ``EOF``, whose lines are the command's input).  ``bgledger`` runs in this
process (:func:`bgledger.cli.main.main`, as the CLI tests run it); any other
program runs as itself.

When the program's words change, the transcripts are rewritten from what it
prints now::

    python -m tests.docs_transcripts --write            # every page
    python -m tests.docs_transcripts --write README.md  # one page

A block that still matches is left as it is (its times and ``...`` kept);
one that does not is written out whole, as the program printed it.  Without
``--write``, the same run prints a diff for each transcript that differs.
``tests/test_docs.py`` runs every block under pytest.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

#: The programs a docs command may name that the docs test does not run, and why.
NOT_RUN: dict[str, str] = {
    "python3": "makes a virtual environment: the tests run in one already",
    ".": "activates the virtual environment the tests already run in",
    "source": "activates the virtual environment the tests already run in",
    "pip": "installs the package the tests already run from",
    "python": "runs the test suite (which this test is part of) or a benchmark",
    "mkcert": "installs a certificate authority on this machine",
    "createdb": "needs a PostgreSQL server (the PostgreSQL tests use BGLEDGER_TEST_POSTGRES)",
    "apt-get": "installs a Debian package",
    "bash": "runs CI or a script of its own",
    "git": "reads the repository, which the docs' temporary folder is not",
}

#: The address the docs show for ``bgledger serve``: a command naming it runs against a server
#: of the page's ledger (:meth:`Workspace.serving`).
SERVED = "127.0.0.1:8000"

#: The languages whose blocks are run.
RUN = ("sh", "console")

_FENCE = re.compile(r"^(```+)\s*([\w+-]*)\s*$")
_SKIP = re.compile(r"^<!--\s*docs-test:\s*skip\s+(.+?)\s*-->\s*$")
#: A digest's leading hex digits (a chain head, a key's id): they change with the times.
_HEX = re.compile(r"\b[0-9a-f]{16,64}\b")
_TIME = re.compile(
    r"\d{4}([-.])\d\d\1\d\d(?:[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:[+-]\d\d:\d\d|Z)?)?"
    r'|(?<=\[EventTime ")\d\d\.\d\d'  # a .mat header's time of day (XG's "19.05")
)


#: Pages generated from the code, not written: current by construction (their own test
#: checks that), so their usage lines are not commands to run here.
GENERATED = {Path("docs/commands.md")}


def pages() -> list[Path]:
    """The pages whose commands run: README.md and docs/*.md (each page's path from the root)."""
    written = sorted(p.relative_to(ROOT) for p in (ROOT / "docs").glob("*.md"))
    return [Path("README.md"), *(page for page in written if page not in GENERATED)]


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its language, its text and where it stands."""

    page: Path
    line: int  # the opening fence's line, from 1
    lang: str
    body: list[str]  # the lines between the fences
    skip: str | None  # the reason of a docs-test skip comment before it

    @property
    def runs(self) -> bool:
        return self.lang in RUN

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of ``page`` (a path from the root), in order."""
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        fence, lang = opening.groups()
        end = index + 1
        while end < len(lines) and lines[end].rstrip() != fence:
            end += 1
        before = lines[index - 1] if index else ""
        skip = _SKIP.match(before)
        found.append(
            Block(page, index + 1, lang, lines[index + 1 : end], skip.group(1) if skip else None)
        )
        index = end + 1
    return found


# -- the commands of a block ------------------------------------------------------


def logical_lines(lines: Sequence[str]) -> list[str]:
    """Lines joined where one ends with a backslash, as the shell joins them."""
    joined: list[str] = []
    pending = ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        joined.append(pending + line)
        pending = ""
    if pending:
        joined.append(pending)
    return joined


@dataclass
class Step:
    """A command of a block and, in a transcript, the output shown under it."""

    command: str
    shown: list[str] = field(default_factory=list)  # the command's lines as written
    expected: list[str] | None = None  # None: a sh block's command, its output not compared
    stdin: str | None = None  # a here-document's lines (``<<'EOF'`` ... ``EOF``)


_HEREDOC = re.compile(r"\s*<<-?\s*(['\"]?)(\w+)\1")


def _here_document(command: str, body: list[str], index: int) -> tuple[str, str | None, int]:
    """The command without its ``<<'EOF'``, the document's text, and the line after it."""
    found = _HEREDOC.search(command)
    if found is None:
        return command, None, index
    end = index
    while end < len(body) and body[end].strip() != found.group(2):
        end += 1
    text = "".join(line + "\n" for line in body[index:end])
    return command[: found.start()] + command[found.end() :], text, end + 1


def steps(block: Block) -> list[Step]:
    """The commands of a ``sh`` block, or the commands and outputs of a ``console`` block."""
    found: list[Step] = []
    if block.lang == "sh":
        lines = logical_lines(block.body)
        index = 0
        while index < len(lines):
            line = lines[index]
            index += 1
            if line.strip() and not line.lstrip().startswith("#"):
                command, stdin, index = _here_document(line, lines, index)
                found.append(Step(command, [line], stdin=stdin))
        return found
    body = list(block.body)
    index = 0
    while index < len(body):
        line = body[index]
        if not line.startswith("$ "):
            if found:
                expected = found[-1].expected
                assert expected is not None
                expected.append(line)
            index += 1
            continue
        shown = [line]
        while shown[-1].rstrip().endswith("\\") and index + 1 < len(body):
            index += 1
            shown.append(body[index])
        command = logical_lines([shown[0][2:], *shown[1:]])[0]
        command, stdin, after = _here_document(command, body, index + 1)
        shown.extend(body[index + 1 : after])
        found.append(Step(command, shown, [], stdin))
        index = after
    return found


# -- a small shell ----------------------------------------------------------------

_OPERATORS = ("&&", "2>&1", "||", "|", ";", "<", ">")


def tokens(command: str) -> list[str]:
    """The words and operators of one command line, as the shell splits them.

    Quotes group and are removed; ``#`` at the start of a word begins a
    comment (``note table #4`` stops at ``#4``, as in the shell, while
    ``pad#token=`` is one word).  Operators come back as themselves.
    """
    words: list[str] = []
    word: str | None = None
    index = 0
    while index < len(command):
        char = command[index]
        operator = next((op for op in _OPERATORS if command.startswith(op, index)), None)
        if operator is not None and (operator != "2>&1" or word is None):
            if word is not None:
                words.append(word)
                word = None
            words.append(operator)
            index += len(operator)
            continue
        if char.isspace():
            if word is not None:
                words.append(word)
                word = None
            index += 1
            continue
        if char == "#" and word is None:
            break
        if command.startswith("$(", index):
            end = _closing(command, index + 1)
            word = (word or "") + command[index : end + 1]
            index = end + 1
            continue
        if char == "'":
            end = command.index("'", index + 1)
            word = (word or "") + command[index + 1 : end]
            index = end + 1
            continue
        if char == '"':
            index += 1
            text = ""
            while command[index] != '"':
                if command.startswith("$(", index):
                    end = _closing(command, index + 1)
                    text += command[index : end + 1]
                    index = end + 1
                    continue
                if command[index] == "\\" and command[index + 1] in '"\\$`':
                    index += 1
                text += command[index]
                index += 1
            word = (word or "") + text
            index += 1
            continue
        if char == "\\":
            word = (word or "") + command[index + 1]
            index += 2
            continue
        word = (word or "") + char
        index += 1
    if word is not None:
        words.append(word)
    return words


def _closing(command: str, opening: int) -> int:
    """The index of the ``)`` that closes the ``(`` at ``opening`` (quotes inside skipped)."""
    depth = 0
    index = opening
    quote: str | None = None
    while index < len(command):
        char = command[index]
        if quote is not None:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    raise ValueError(f"no ')' closes the '$(' in {command!r}")


class NotRun(Exception):
    """A command the docs test does not run; the message says why."""


@dataclass
class Ran:
    """What one command line printed (stdout and stderr as a terminal interleaves them).

    ``not_run``: why each part of it that was not run was not (an ``&&``
    after it runs as after a success).
    """

    output: str
    status: int
    not_run: list[str] = field(default_factory=list)
    ran: int = 0  # how many of its parts ran


class Workspace:
    """A page's temporary folder, its database and its environment.

    ``fixtures`` links to the project's fixtures, and the folder's parent
    holds ``shared``, a link to the shared corpus when it is there, so the
    paths the docs show (``fixtures/...``, ``../shared/...``) resolve.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "bgledger"
        self.folder.mkdir(parents=True)
        (self.folder / "fixtures").symlink_to(ROOT / "fixtures")
        if SHARED.is_dir():
            (folder / "shared").symlink_to(SHARED)
        self.env: dict[str, str] = {"BGLEDGER_USER": "kim"}
        self.status = 0

    def expand(self, word: str) -> str:
        def value(match: re.Match[str]) -> str:
            name = match.group(1) or match.group(2)
            if name == "?":
                return str(self.status)
            return self.env.get(name, os.environ.get(name, ""))

        parts: list[str] = []
        while (start := word.find("$(")) >= 0:
            end = _closing(word, start + 1)
            parts += [re.sub(r"\$(?:\{(\w+)\}|(\?|\w+))", value, word[:start])]
            parts += [self._substituted(word[start + 2 : end])]
            word = word[end + 1 :]
        return "".join([*parts, re.sub(r"\$(?:\{(\w+)\}|(\?|\w+))", value, word)])

    def _substituted(self, command: str) -> str:
        """``$(COMMAND)``, a simple command: its standard output, the last newline dropped.

        It must succeed; what it writes on standard error is not part of the word.
        """
        words = [self.expand(word) for word in tokens(command)]
        if any(word in _OPERATORS for word in words):
            raise ValueError(f"$({command}): only a simple command is run inside $(...)")
        out, err, _, status = self._program(words, None)
        if status != 0:
            raise RuntimeError(f"$({command}) exited {status}:\n{err}{out}")
        return out.removesuffix("\n")

    def run(self, command: str, stdin: str | None = None) -> Ran:
        """Run one command line in the page's folder (``stdin``: its first program's input)."""
        if "../shared/" in command and not SHARED.is_dir():
            return Ran("", 0, [f"'{command}': the shared corpus ({SHARED}) is not here"], 0)
        words = tokens(command)  # each part's $NAME and $? expanded as it runs
        output = ""
        status = 0
        not_run: list[str] = []
        ran = 0
        chain: list[list[str]] = [[]]
        for word in words:
            if word in ("&&", ";", "||"):
                chain.append([word])
            else:
                chain[-1].append(word)
        for part in chain:
            if part and part[0] in ("&&", ";", "||"):
                joiner, part = part[0], part[1:]
                if (joiner == "&&" and status != 0) or (joiner == "||" and status == 0):
                    continue
            if not part:
                continue
            try:
                printed, status = self._pipeline([self.expand(word) for word in part], stdin)
                stdin = None  # a here-document feeds the first program alone
                ran += 1
            except NotRun as reason:
                not_run.append(str(reason))
                printed, status = "", 0
            output += printed
            self.status = status
        return Ran(output, status, not_run, ran)

    def _pipeline(self, words: list[str], stdin: str | None = None) -> tuple[str, int]:
        stages: list[list[str]] = [[]]
        for word in words:
            if word == "|":
                stages.append([])
            else:
                stages[-1].append(word)
        text = stdin
        printed = ""
        status = 0
        for number, stage in enumerate(stages):
            argv, stdin, stdout, merge = self._redirects(stage)
            if stdin is not None:
                text = (self.folder / stdin).read_text(encoding="utf-8")
            out, err, both, status = self._program(argv, text)
            last = number == len(stages) - 1
            if merge:
                out, err = both, ""
            if stdout is not None:
                if stdout != "/dev/null":
                    (self.folder / stdout).write_text(out, encoding="utf-8")
                printed += err
            elif last:
                printed += both  # as a terminal shows them, interleaved
            else:
                printed += err
            text = out
        return printed, status

    @staticmethod
    def _redirects(stage: list[str]) -> tuple[list[str], str | None, str | None, bool]:
        argv: list[str] = []
        stdin = stdout = None
        merge = False
        words = iter(stage)
        for word in words:
            if word == "<":
                stdin = next(words)
            elif word == ">":
                stdout = next(words)
            elif word == "2>&1":
                merge = True
            else:
                argv.append(word)
        return argv, stdin, stdout, merge

    def _program(self, argv: list[str], stdin: str | None) -> tuple[str, str, str, int]:
        """Run one program: its stdout, its stderr, both as a terminal shows them, its status."""
        program = argv[0]
        if program == "export":
            for assignment in argv[1:]:
                name, _, value = assignment.partition("=")
                self.env[name] = value
            return "", "", "", 0
        if len(argv) == 1 and re.fullmatch(r"[A-Za-z_]\w*=.*", program, flags=re.S):
            name, _, value = program.partition("=")  # a shell variable: $NAME reads it
            self.env[name] = value
            return "", "", "", 0
        if program in NOT_RUN:
            raise NotRun(f"'{' '.join(argv)}': {NOT_RUN[program]}")
        if program == "chromium" and not any(word.startswith("--headless") for word in argv):
            raise NotRun(f"'{' '.join(argv)}': opens a browser's window on a screen")
        if program == "bgledger":
            return self._bgledger(argv[1:], stdin)
        if shutil.which(program) is None:
            raise NotRun(f"'{' '.join(argv)}': {program} is not installed here")
        if any(SERVED in word for word in argv):
            with self.serving() as address:
                return self._subprocess([word.replace(SERVED, address) for word in argv], stdin)
        return self._subprocess(argv, stdin)

    def _subprocess(self, argv: list[str], stdin: str | None) -> tuple[str, str, str, int]:
        done = subprocess.run(
            argv,
            input=stdin,
            capture_output=True,
            text=True,
            cwd=self.folder,
            env={**os.environ, **self.env},
            check=False,
            timeout=60,
        )
        return done.stdout, done.stderr, done.stderr + done.stdout, done.returncode

    @contextlib.contextmanager
    def serving(self) -> Iterator[str]:
        """``bgledger serve`` of the page's ledger, as the docs' reader runs it beside the
        command, on a port the system chose (``--port 0``; its banner names it): its address
        (``127.0.0.1:PORT``) once it answers; stopped after."""
        env = {k: v for k, v in os.environ.items() if k not in ("BGLEDGER_DB", "BGLEDGER_USER")}
        with tempfile.TemporaryFile("w+", encoding="utf-8") as log:  # never a full pipe
            server = subprocess.Popen(
                [sys.executable, "-m", "bgledger.cli.main", "serve", "--port", "0"],
                cwd=self.folder, env={**env, **self.env}, stdout=log, stderr=log,
            )  # fmt: skip
            try:
                yield self._answering(server, log)
            finally:
                server.terminate()
                try:
                    server.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()

    @staticmethod
    def _answering(server: subprocess.Popen[bytes], log: IO[str]) -> str:
        """The address ``server``'s banner names, once a request there is answered."""
        deadline = time.monotonic() + 30
        while True:
            log.seek(0)
            banner = re.search(r"http://(127\.0\.0\.1:\d+)/", log.read())
            if banner is not None:
                try:
                    with urllib.request.urlopen(f"http://{banner.group(1)}/", timeout=5):
                        return banner.group(1)
                except urllib.error.HTTPError:
                    return banner.group(1)  # it answers
                except OSError:
                    pass
            if server.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError(f"bgledger serve did not start:\n{log.read()}")
            time.sleep(0.1)

    def _bgledger(self, args: list[str], stdin: str | None) -> tuple[str, str, str, int]:
        from click.testing import CliRunner

        from bgledger.cli.main import main

        if "serve" in args and "--help" not in args:
            return self._serve(args)
        env: dict[str, str | None] = {"BGLEDGER_DB": None, "BGLEDGER_USER": None, **self.env}
        here = Path.cwd()
        os.chdir(self.folder)
        try:
            result = CliRunner(env=env).invoke(main, args, input=stdin, prog_name="bgledger")
        finally:
            os.chdir(here)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.stdout, result.stderr, result.output, result.exit_code

    @staticmethod
    def _serve(args: list[str]) -> tuple[str, str, str, int]:
        """``serve``'s options parsed by the command itself: checked, not started."""
        import click

        from bgledger.cli.main import main

        at = args.index("serve")
        with click.Context(main) as group:
            command = main.get_command(group, "serve")
            assert command is not None
            try:
                with command.make_context("serve", list(args[at + 1 :]), parent=group):
                    pass
            except click.UsageError as error:
                message = f"Error: {error.format_message()}\n"
                return "", message, message, 2
        return "", "", "", 0


# -- a block run and compared -----------------------------------------------------


def normalised(lines: Sequence[str]) -> list[str]:
    """Lines as compared: times masked, trailing spaces and blank lines at the end dropped."""
    kept = [_HEX.sub("<hex>", _TIME.sub("<time>", line.rstrip())) for line in lines]
    while kept and not kept[-1]:
        kept.pop()
    return kept


def matches(expected: Sequence[str], actual: Sequence[str]) -> bool:
    """Whether ``actual`` is ``expected``, each ``...`` line standing for any lines."""
    want, got = normalised(expected), normalised(actual)
    if "..." not in want:
        return want == got
    pattern = "".join(r"(?:.*\n)*?" if line == "..." else re.escape(line) + r"\n" for line in want)
    return re.fullmatch(pattern, "\n".join(got) + "\n") is not None


@dataclass
class Outcome:
    """What running a block found: the differences, the failures, what was not run."""

    block: Block
    steps: list[Step]
    outputs: list[str | None]  # each step's output, None if not run
    differences: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    not_run: list[str] = field(default_factory=list)
    ran: int = 0  # how many commands ran

    def rewritten(self) -> list[str]:
        """The block's lines with each transcript's output as the program printed it."""
        if self.block.lang != "console" or not self.differences:
            return list(self.block.body)
        lines: list[str] = []
        for step, output in zip(self.steps, self.outputs, strict=True):
            lines.extend(step.shown)
            if output is None:
                lines.extend(step.expected or [])
            else:
                lines.extend(line.rstrip() for line in normalise_end(output))
        return lines


def normalise_end(output: str) -> list[str]:
    lines = output.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def run_block(block: Block, workspace: Workspace) -> Outcome:
    """Run every command of ``block`` in ``workspace``, comparing each transcript's output."""
    found = steps(block)
    outcome = Outcome(block, found, [])
    for step in found:
        if outcome.not_run:  # what follows may need it: not run either
            outcome.outputs.append(None)
            outcome.not_run.append(f"'{step.command}': follows a command that was not run")
            continue
        ran = workspace.run(step.command, step.stdin)
        outcome.not_run.extend(ran.not_run)
        outcome.ran += ran.ran
        if ran.not_run and step.expected is not None:
            outcome.outputs.append(None)  # a transcript not run whole is not compared
            continue
        outcome.outputs.append(ran.output)
        if step.expected is None:
            if ran.status != 0:
                outcome.failures.append(
                    f"{block}: '{step.command}' exited {ran.status}:\n{ran.output}"
                )
        elif not matches(step.expected, ran.output.splitlines()):
            diff = difflib.unified_diff(
                normalised(step.expected),
                normalised(ran.output.splitlines()),
                "shown in the docs",
                "printed now",
                lineterm="",
            )
            outcome.differences.append(f"$ {step.command}\n" + "\n".join(diff))
    return outcome


def rewrite(page: Path, outcomes: Sequence[Outcome]) -> int:
    """Write each differing transcript of ``page`` as the program printed it; how many changed."""
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    changed = 0
    for outcome in sorted(outcomes, key=lambda o: o.block.line, reverse=True):
        if outcome.block.page != page or not outcome.differences:
            continue
        start = outcome.block.line  # the body's first line, counted from 0
        lines[start : start + len(outcome.block.body)] = outcome.rewritten()
        changed += 1
    (ROOT / page).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return changed


def run_page(page: Path, folder: Path) -> Iterator[Outcome]:
    """Run the blocks of ``page`` in order, in a workspace under ``folder``."""
    workspace = Workspace(folder)
    for block in blocks(page):
        if block.runs and block.skip is None:
            yield run_block(block, workspace)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.docs_transcripts",
        description="Run the docs' commands; with --write, rewrite their transcripts.",
    )
    parser.add_argument("pages", nargs="*", help="pages from the root (default: every page)")
    parser.add_argument("--write", action="store_true", help="rewrite differing transcripts")
    options = parser.parse_args(argv)
    chosen = [Path(p) for p in options.pages] or pages()
    status = 0
    for page in chosen:
        with tempfile.TemporaryDirectory() as folder:
            outcomes = list(run_page(page, Path(folder)))
        for outcome in outcomes:
            for failure in outcome.failures:
                print(failure, file=sys.stderr)
                status = 1
            for difference in outcome.differences:
                print(f"{outcome.block}:\n{difference}\n", file=sys.stderr)
                status = status if options.write else 1
        if options.write:
            changed = rewrite(page, outcomes)
            print(f"{page}: {changed} transcript(s) rewritten")
    return status


if __name__ == "__main__":
    sys.exit(main())
