"""Recording errors from the command line: ``undo`` and ``amend`` (not rulings).

A scorekeeper's typo is corrected by an event of its own that keeps the
mistaken entry, who corrected it, when and why (DESIGN principle 9); the
front door decides (:meth:`bgledger.Ledger.record` of an ``Undo`` or an ``Amend``).
The scorekeeper alone may correct the game in progress; an earlier game's
entry needs ``--ruled-by director`` (USBGF 4.7).  A refusal exits 1 and an
entry that does not exist exits 2; either way nothing is recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

import click

from bgledger.cli.common import json_option, library_errors, record_command, stamp_options
from bgledger.commands.vocabulary import Amend, Undo, parse

__all__ = ["COMMANDS"]

F = Callable[..., Any]


def _options(func: F) -> F:
    func = json_option(stamp_options(func))
    func = click.option(
        "--ruled-by",
        "ruled_by",
        type=click.Choice(["director"]),
        default=None,
        help="The director allowed it: needed for an entry of an earlier game (USBGF 4.7).",
    )(func)
    return click.option(
        "--reason", default="", metavar="TEXT", help="Why, e.g. 'typed 6-3 for 6-4'."
    )(func)


@click.command()
@click.argument("match_id", metavar="MATCH")
@_options
@click.pass_context
def undo(
    ctx: click.Context,
    match_id: str,
    reason: str,
    ruled_by: str | None,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """Withdraw the last entry as a recording error; undo again for the one before.

    The entry stays in the history, marked withdrawn, with who corrected it,
    when and why.  It is not a ruling: an illegal play that really happened is
    a director's matter (revert).

    Example: bgledger undo r2t1 --reason 'typed 6-3 for 6-4'
    """
    record_command(ctx, match_id, Undo(reason, ruled_by or ""), by, at, as_json)


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.argument("event", type=int)
@click.argument("line", metavar="'LINE'")
@_options
@click.pass_context
def amend(
    ctx: click.Context,
    match_id: str,
    event: int,
    line: str,
    reason: str,
    ruled_by: str | None,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """Entry EVENT was mis-entered; LINE (as 'record' reads it) is what happened.

    LINE is decided on the match as it stood before EVENT, at EVENT's time;
    every later entry must still be recorded as it was on the amended history,
    else the amendment is refused naming the first that no longer fits.

    Example: bgledger amend r2t1 12 'roll 6 4' --reason 'typed 6-3'
    """
    with library_errors():  # LINE read as the record language's amend reads it
        said = cast(Amend, parse(f"amend {event} {line}"))
    command = replace(said, reason=reason, ruled_by=ruled_by or "")
    record_command(ctx, match_id, command, by, at, as_json)


COMMANDS = (undo, amend)
