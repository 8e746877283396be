"""The recording console: ``bgledger record MATCH`` on a terminal.

A scorekeeper names the match once and then types the lines of the record
language (``roll 6 4``, ``64: 24/18 13/9``, ``take``, ``hit``, ``undo`` ...),
each passed unchanged to :meth:`bgledger.Ledger.record_line`, the one path the
scripts and the web pad take too.  Four words are the console's own and are
never recorded: ``help [WORD]``, ``show [a|b]`` (or ``board``), ``history
[N|all]`` and ``quit`` (or ``exit``, or Ctrl-D).

On a terminal the line is edited with the standard library's :mod:`readline`
(imported only here, so the one-shot commands never pay for it): arrows,
Ctrl-A/Ctrl-E, the up-arrow for earlier lines, Tab for the verbs.  The lines
are kept between sessions in ``$XDG_STATE_HOME/bgledger/record_history``
(``~/.local/state/...``); a file that cannot be read or written only costs the
recall, never the session.  Ctrl-C clears the line being typed.

After each recorded line the console prints each event it recorded as
``bgledger history`` prints it (:attr:`bgledger.service.Recorded.lines`), then
the new state in one line::

    m1> 64: 24/18 13/9
          7   2026-11-21 14:05:10  kim  Ann rolled 6-4
          8   2026-11-21 14:05:10  kim  Ann played 24/18 13/9
      game 1 · Ann 0, Bob 0 (to 7) · cube 1 · Bob is on roll, to double or to roll

``help`` lists the vocabulary's commands (:data:`bgledger.commands.vocabulary.VOCABULARY`:
each one's usage, summary and example), then the console's own words.

A refused line is printed once, with the reason and the rule; nothing of it
is recorded and the console goes on.
"""

from __future__ import annotations

import contextlib
import os
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import click

from bgledger.cli.common import RefusedError, library_errors, refusal_text, say
from bgledger.cli.view_commands import _print_show, _title
from bgledger.commands import vocabulary
from bgledger.commands.vocabulary import help_lines
from bgledger.errors import ActionRefusedError, BgLedgerError
from bgledger.projections.views.audit import history_line
from bgledger.projections.views.text import brief, may_now, resolve_viewer
from bgledger.service import Ledger, MatchState, without_comment

__all__ = ["CONSOLE_WORDS", "Console", "help_entries", "help_table", "history_file", "refusal_once"]

HISTORY_LINES = 1000
"""How many typed lines the history file keeps."""

RECENT = 10
"""How many entries ``history`` shows without a number."""

Entry = tuple[str, str, str]
"""One entry of ``help``: usage, summary, example."""

TIMED: Entry = (
    "@TIME LINE",
    "when it happened, ISO 8601 (a transcription); '# ...' after a line is a comment",
    "@2026-11-21T14:05:00+01:00 roll 6 6",
)
"""What any line of the record language may carry."""

CONSOLE_WORDS: tuple[Entry, ...] = (
    ("help [WORD]", "these lines, or those that mention WORD", "help clock"),
    ("show [a|b] | board", "the board and the state, as 'bgledger show' draws them", "show b"),
    ("history [N|all]", "the last N entries (10), numbered for amend and rulings", "history 20"),
    ("quit | exit", "leave (or Ctrl-D); Ctrl-C clears the line being typed", "quit"),
)
"""The console's own words: never recorded."""


def history_file(environ: os._Environ[str] | dict[str, str] = os.environ) -> Path | None:
    """Where the console keeps the lines typed: ``$XDG_STATE_HOME/bgledger/record_history``.

    ``None`` when there is no home to keep it in.
    """
    state = environ.get("XDG_STATE_HOME")
    if not state:
        try:
            state = str(Path.home() / ".local" / "state")
        except RuntimeError:
            return None
    return Path(state) / "bgledger" / "record_history"


def help_entries() -> list[Entry]:
    """What ``help`` lists: every command of the vocabulary, ``@TIME``, the console's words."""
    return [*help_lines(), TIMED, *CONSOLE_WORDS]


def help_table(entries: Iterable[Entry]) -> list[str]:
    """``entries`` as ``help`` prints them: the usage, then the summary and an example."""
    lines = []
    for usage, summary, example in entries:
        said = textwrap.wrap(summary, 80, break_on_hyphens=False)
        lines.extend([f"  {usage}", *(f"      {line}" for line in said), f"      e.g. {example}"])
    return lines


def refusal_once(line: str, message: str) -> str:
    """``message`` without a leading ``'LINE': `` : the line is on the screen already."""
    quoted = f"{line!r}: "
    return message[len(quoted) :] if message.startswith(quoted) else message


@dataclass
class Console:
    """One console session on one match: where it records, who records."""

    ledger: Ledger
    match_id: str
    by: str
    at: str | None
    state: MatchState

    def run(self) -> None:
        """Read and act on lines until ``quit``, ``exit`` or Ctrl-D."""
        save = _line_editing(self._verbs())
        title = _title(self.state)
        say(f"{title}\nrecording as {self.by} · 'help' lists the lines, 'quit' leaves")
        say(brief(self.state))
        say(may_now(self.state))
        while True:
            typing = True
            try:
                line = input(f"{self.match_id}> ").strip()
                typing = False
                save()
                if not self.act(line):
                    return
            except EOFError:  # Ctrl-D
                say()
                return
            except KeyboardInterrupt:  # Ctrl-C: the line being typed is dropped
                said = "" if typing else "interrupted: 'history' says what was recorded"
                say(f"\n{said}" if said else "", err=bool(said))

    def act(self, line: str) -> bool:
        """Do what ``line`` says; False when it says to leave."""
        words = without_comment(line).split()
        if not words:
            return True
        word, rest = words[0].lower(), words[1:]
        if word in ("quit", "exit"):
            return False
        command = self._commands().get(word)
        if command is None:
            self.record(line)
        else:
            command(rest)
        return True

    def _commands(self) -> dict[str, Callable[[list[str]], None]]:
        return {
            "help": self.help,
            "?": self.help,
            "show": self.show,
            "board": self.show,
            "history": self.history,
        }

    def record(self, line: str) -> None:
        """Record ``line``: echo its events and the new state, or say once why not."""
        try:
            with library_errors():
                try:
                    done = self.ledger.record_line(self.match_id, line, by=self.by, at=self.at)
                except ActionRefusedError as refusal:  # the next step as a line to type here
                    raise RefusedError(refusal_text(refusal, record=True)) from None
        except (click.ClickException, BgLedgerError) as error:
            said = error.format_message() if isinstance(error, click.ClickException) else None
            message = refusal_once(line, said or refusal_text(error))
            prefix = "" if message.startswith("refused") else "not recorded: "
            say(f"  {prefix}{message}", err=True)
            return
        self.state = done.state
        for said in done.lines:
            say(f"  {said}")
        say(f"  {brief(done.state)}")
        say(f"  {may_now(done.state)}")

    def help(self, words: list[str]) -> None:
        """The lines the console takes, or those that mention ``words``."""
        entries = help_entries()
        if words:
            wanted = " ".join(words).lower()
            entries = [e for e in entries if any(wanted in part.lower() for part in e)]
            if not entries:
                say(f"  no line mentions {wanted!r}; 'help' lists them all")
                return
        say("\n".join(help_table(entries)))

    def show(self, words: list[str]) -> None:
        """The board and the state, as ``bgledger show`` draws them; ``show a|b`` from a side."""
        viewer = words[0] if words else None
        try:
            with library_errors():
                shown = self.ledger.show(self.match_id)
            resolve_viewer(shown.state, viewer)  # before the title is printed
            _print_show(shown, False, viewer)
        except click.ClickException as error:
            say(f"  {error.format_message()}", err=True)
        except ValueError as error:  # a viewer that is neither player
            say(f"  show: {error}", err=True)

    def history(self, words: list[str]) -> None:
        """The last entries of the audit trail (``history all``: every one)."""
        spec = words[0].lower() if words else str(RECENT)
        if spec != "all" and not (spec.isascii() and spec.isdigit()):
            say(f"  history {spec!r}: a number of entries, or 'all'", err=True)
            return
        with library_errors():
            entries = self.ledger.history(self.match_id)
        shown = entries if spec == "all" else entries[-int(spec) :] if int(spec) else []
        width = max((len(entry.recorded_by) for entry in shown), default=0)
        for entry in shown:
            say(history_line(entry, width))

    def _verbs(self) -> list[str]:
        """The words Tab completes: each command's first word and the console's own."""
        found = {verb.split()[0] for verb in vocabulary.verbs()}
        return sorted(found | {"quit", "exit", "help", "show", "board", "history"})


def _line_editing(verbs: Iterable[str]) -> Callable[[], None]:
    """Turn on :mod:`readline` for :func:`input`; return what saves the lines typed.

    Without readline (a Python built without it) the console still reads lines.
    """
    try:
        import readline
    except ImportError:
        return lambda: None
    words = sorted(verbs)

    def complete(text: str, state: int) -> str | None:
        if readline.get_begidx() != 0:
            return None
        found = [word + " " for word in words if word.startswith(text.lower())]
        return found[state] if state < len(found) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" \t")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    readline.set_history_length(HISTORY_LINES)
    path = history_file()
    if path is None:
        return lambda: None
    with contextlib.suppress(OSError, ValueError):  # no file yet, or one we may not read
        readline.read_history_file(path)
    failed: list[OSError] = []

    def save() -> None:
        if failed:
            return
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not path.exists():
                path.touch(mode=0o600)
            readline.write_history_file(path)
        except OSError as error:
            failed.append(error)
            say(f"  (the lines typed are not kept: {error})", err=True)

    return save
