"""``record``: one action a line, at the recording console or from stdin.

Each line is a command of the record language (:mod:`bgledger.commands.vocabulary`:
``roll 5 2``, ``move 13/8 13/11``, ``52: 13/8 13/11``, ``double``, ``@TIME roll
6 6``, ``undo`` ...), recorded by :meth:`bgledger.Ledger.record_line`, the path
the web pad's lines take too.

On a terminal ``record`` is a console (:mod:`bgledger.cli.console`): line
editing and recall, ``help``, ``show``, ``history``, ``quit``, each recorded
event echoed with its number.  From stdin (a script, a transcription) it
prints the new state in one line after each recorded line; a refused line is
printed once with the reason and the rule, is not recorded, and recording goes
on; the exit status is 1 if any line was refused.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

import click

from bgledger.cli.common import (
    emit_json,
    json_option,
    open_ledger,
    refusal_text,
    say,
    stamp_options,
)
from bgledger.cli.console import Console, help_entries, help_table, refusal_once
from bgledger.errors import BgLedgerError
from bgledger.projections.views.summary import state_json
from bgledger.projections.views.text import brief
from bgledger.service import Ledger, MatchState, without_comment


@dataclass
class _Session:
    """One ``record`` run: where it writes, who records, what happened so far."""

    ledger: Ledger
    match_id: str
    by: str
    at: str | None
    state: MatchState
    recorded: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)

    def take(self, number: int, line: str, quiet: bool) -> None:
        """Record ``line`` (line ``number`` of the input), or say why it was refused."""
        try:
            done = self.ledger.record_line(self.match_id, line, by=self.by, at=self.at)
        except BgLedgerError as error:
            message = refusal_text(error, record=True)
            self.refused.append({"line": number, "text": line, "error": message})
            say(f"line {number}: {line!r}: {refusal_once(line, message)}", err=True)
            return
        self.state = done.state
        self.recorded += 1
        if not quiet:
            say(brief(self.state))


def _lines(stream: TextIO) -> Iterator[tuple[int, str]]:
    """The numbered non-blank lines of ``stream`` (blank lines and comments count)."""
    number = 0
    while True:
        raw = stream.readline()
        if not raw:
            return
        number += 1
        if without_comment(raw):
            yield number, raw.strip()


class _TakesTheLines(click.Command):
    """``record``: its help ends with the lines it takes, from the vocabulary as it is when
    asked, as the console's ``help`` lists them."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_help_text(ctx, formatter)
        formatter.write_paragraph()
        with formatter.indentation():
            for line in help_table(help_entries()):
                formatter.write(" " * formatter.current_indent + line + "\n")


@click.command(cls=_TakesTheLines)
@click.argument("match_id", metavar="MATCH")
@stamp_options
@json_option
@click.pass_context
def record(ctx: click.Context, match_id: str, by: str, at: str | None, as_json: bool) -> None:
    """Record a match one action a line, from stdin or the terminal.

    On a terminal each recorded event is echoed as 'bgledger history' prints it,
    then the state in one line; the up-arrow recalls earlier lines (kept between
    sessions), Tab completes a verb.  From stdin: one state line per recorded
    line, and exit status 1 if any line was refused (--json: one document).
    Blank lines and '# comments' are skipped.  The lines (the record language's
    commands, then the console's own words, never recorded):
    """
    ledger = open_ledger(ctx, cache_size=16, create=True)
    try:
        state = ledger.state(match_id)
    except BgLedgerError as error:
        raise click.BadParameter(str(error), param_hint="MATCH") from None
    if sys.stdin.isatty() and not as_json:
        Console(ledger, match_id, by, at, state).run()
        return
    session = _Session(ledger, match_id, by, at, state)
    for number, line in _lines(sys.stdin):
        session.take(number, line, quiet=as_json)
    if as_json:
        document = {"recorded": session.recorded, "refused": session.refused}
        emit_json({**document, "state": state_json(session.state)})
    elif session.refused:
        say(f"{session.recorded} recorded, {len(session.refused)} refused", err=True)
    if session.refused:
        ctx.exit(1)
