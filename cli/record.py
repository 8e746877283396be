"""``record``: one action a line, at the recording console or from stdin.

Each line is an action of the record language (:mod:`bgledger.commands.language`:
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

from bgledger.cli.common import emit_json, json_option, open_ledger, refusal_text, stamp_options
from bgledger.cli.console import Console, console_table, refusal_once
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
            click.echo(f"line {number}: {line!r}: {refusal_once(line, message)}", err=True)
            return
        self.state = done.state
        self.recorded += 1
        if not quiet:
            click.echo(brief(self.state))


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


@click.command()
@click.argument("match_id", metavar="MATCH")
@stamp_options
@json_option
@click.pass_context
def record(ctx: click.Context, match_id: str, by: str, at: str | None, as_json: bool) -> None:
    """Record a match one action a line, from stdin or the terminal.

    \b
    The play (blank lines and '# comments' are skipped):
      opening 3 1           the opening roll: a's die, b's die
      roll 5 2 | roll 52    move 13/8 13/11       52: 13/8 13/11 (roll and play)
      double | take | drop  resign gammon [a|b]   accept | reject
      void-roll cocked      (a roll that does not count, USBGF 4.1.4)
      move 13/7 --as-played                 (an illegal play made at the board)
      roll 6 5 --premature | double --premature   (the player not on roll, early)
      accept-roll | refuse-roll             (the mover's answer to an early roll)
      beaver --as-played | automatic-double --as-played   (USBGF 4.4.10, for the director)
      note TEXT             the scorekeeper's remark for the record (not a ruling)
      @2026-11-21T14:05:00+01:00 roll 6 6   (when it happened)

    \b
    Recording errors (a typo at the scorekeeper's table, not a ruling):
      undo [--reason TEXT]              withdraw the last entry
      amend EVENT LINE [--reason TEXT]  entry EVENT was mis-entered; LINE happened
      amend 12 roll 6 4                 (EVENT: the number the echo and history give)

    \b
    The clock, breaks and penalties:
      hit [a|b]           clock stop dispute    clock resume
      clock start simple-delay [reserve 10:00] [delay 12]
      clock read a=9:31 b=9:58              clock set a=9:00 b=8:30 REASON...
      flag a | early-pickup b               (USBGF 4.3.3, 4.1.7.2)
      break start a|b|both [combine N] [exceptional REASON...]
      break end [late a|b|none]             late b    (USBGF 2.2.2, 2.2.4)
      penalty b 1 "USBGF 1.4" REASON...     (the director's penalty points)

    \b
    Rulings (the director's; the committee's for overturn), as their commands:
      revert 6 [--rule "USBGF 4.2.3(f)"] [--agreed] --reason TEXT
      void-cube N | nullify-pass N | void-concession N --reason TEXT
      correct-cube N | correct-setup N --reason TEXT
      correct-length 7 | correct-score 3-2 --reason TEXT
      overturn RULING --reason TEXT         ([--ruled-by director|committee|players])

    \b
    On a terminal, the console's own words (never recorded):
      help [WORD]         these lines, or those that mention WORD
      show [a|b] | board  the board and the state, as 'bgledger show' draws them
      history [N|all]     the last N entries (10), numbered for amend
      quit | exit         or Ctrl-D; Ctrl-C clears the line being typed

    On a terminal each recorded event is echoed with its number, then the
    state in one line; the up-arrow recalls earlier lines (kept between
    sessions), Tab completes a verb.  From stdin: one state line per recorded
    line, and exit status 1 if any line was refused (--json: one document).
    """
    ledger = open_ledger(ctx, cache_size=16, create=True)
    try:
        state = ledger.state(match_id)
    except BgLedgerError as error:
        raise click.BadParameter(str(error), param_hint="MATCH") from None
    if sys.stdin.isatty() and not as_json:
        table = console_table(ctx.command.help or "")
        Console(ledger, match_id, by, at, state, table).run()
        return
    session = _Session(ledger, match_id, by, at, state)
    for number, line in _lines(sys.stdin):
        session.take(number, line, quiet=as_json)
    if as_json:
        document = {"recorded": session.recorded, "refused": session.refused}
        emit_json({**document, "state": state_json(session.state)})
    elif session.refused:
        click.echo(f"{session.recorded} recorded, {len(session.refused)} refused", err=True)
    if session.refused:
        ctx.exit(1)
