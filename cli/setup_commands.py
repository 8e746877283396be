"""``setup``: the checkers of a game were not set up as the rules say (USBGF 4.2.4)."""

from __future__ import annotations

import click

from bgledger.cli.common import json_option, record_command, stamp_options
from bgledger.commands.vocabulary import Setup


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.argument("position", metavar="POSITION")
@stamp_options
@json_option
@click.pass_context
def setup(
    ctx: click.Context, match_id: str, position: str, by: str, at: str | None, as_json: bool
) -> None:
    """The game began from POSITION (a gnubg position id, player a on roll), not the standard one.

    Recorded before the game's first play and flagged; 'correct-setup' is the
    director's remedy (USBGF 4.2.4).
    """
    record_command(ctx, match_id, Setup(position), by, at, as_json)
