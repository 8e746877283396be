"""Breaks and penalty points from the command line: ``break``, ``late`` and ``penalty``.

Decided by :class:`bgledger.commands.breaks.BreakCommands`: breaks by match length, between games,
combined on request (USBGF 2.2.2, 2.2.3); lateness penalty points from the
starting time or the end of a break (USBGF 2.2.4); the director's other
penalty points.  Penalty points are scored by the opponent and may end the
match.  Output as in :mod:`bgledger.cli.clock_commands`.
"""

from __future__ import annotations

import click

from bgledger.cli.clock_commands import PLAYER, RULED_BY
from bgledger.cli.common import json_option, record_command, stamp_options
from bgledger.commands.vocabulary import BreakEnd, BreakStart, Late, Penalty

__all__ = ["COMMANDS"]


# -- breaks ----------------------------------------------------------------------------


@click.group("break")
@click.argument("match_id", metavar="MATCH")
@click.pass_context
def break_group(ctx: click.Context, match_id: str) -> None:
    """A break in MATCH: start one, or end it (USBGF 2.2.2; the clock stops, 4.3.2(b)).

    \b
    bgledger break M1 start a [--combine 2]     bgledger break M1 start both
    bgledger break M1 end [--late a|b|none]
    """
    ctx.obj = {**(ctx.obj or {}), "match_id": match_id}


@break_group.command("start")
@click.argument("who", type=click.Choice(["a", "b", "both"]), metavar="PLAYER")
@click.option(
    "--combine",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    metavar="N",
    help="Take N of each requester's breaks as one (USBGF 2.2.2).",
)
@click.option(
    "--exceptional",
    default="",
    metavar="REASON",
    help="The exceptional circumstances of a break during a game (USBGF 2.2.2).",
)
@click.option(
    "--exception",
    default="",
    metavar="REASON",
    help="The director's exception: a break beyond the allowance (USBGF 2.2.3).",
)
@stamp_options
@json_option
@click.pass_context
def break_start(
    ctx: click.Context,
    who: str,
    combine: int,
    exceptional: str,
    exception: str,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """PLAYER (a, b or both) takes a five-minute break, between games (USBGF 2.2.2)."""
    players = ("a", "b") if who == "both" else (who,)
    command = BreakStart(players, combine, exceptional, exception)
    record_command(ctx, ctx.obj["match_id"], command, by, at, as_json)


@break_group.command("end")
@click.option(
    "--late",
    type=click.Choice(["a", "b", "none"]),
    default=None,
    help="Who returned late, if the break overran by 15 minutes or more (USBGF 2.2.4).",
)
@stamp_options
@json_option
@click.pass_context
def break_end(ctx: click.Context, late: str | None, by: str, at: str | None, as_json: bool) -> None:
    """The break is over: both players are back at the board (USBGF 2.2.2, 2.2.4)."""
    record_command(ctx, ctx.obj["match_id"], BreakEnd(late), by, at, as_json)


# -- penalty points ------------------------------------------------------------------------


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.argument("player", type=PLAYER, metavar="PLAYER")
@click.option(
    "--scheduled",
    default=None,
    metavar="TIME",
    help="The match's starting time, ISO 8601; default: when it was set up.",
)
@stamp_options
@json_option
@click.pass_context
def late(
    ctx: click.Context,
    match_id: str,
    player: str,
    scheduled: str | None,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """PLAYER (a or b) is (or was) late at --at: the penalty points due so far (USBGF 2.2.4).

    One point at 15 minutes after the starting time or the end of a break,
    one more every 5 minutes after; only points not yet assessed are added.
    Before the first game, more than half the match length forfeits it.
    """
    record_command(ctx, match_id, Late(player, scheduled), by, at, as_json)


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.argument("player", type=PLAYER, metavar="PLAYER")
@click.argument("points", type=click.IntRange(min=1))
@click.option("--rule", required=True, metavar="RULE", help="The rule the director applies.")
@click.option("--reason", required=True, metavar="TEXT", help="Why, in the ruler's words.")
@RULED_BY
@stamp_options
@json_option
@click.pass_context
def penalty(
    ctx: click.Context,
    match_id: str,
    player: str,
    points: int,
    rule: str,
    reason: str,
    ruled_by: str,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """The director assesses POINTS penalty points against PLAYER (a or b): his opponent scores.

    As for lateness (USBGF 2.2.4), the match is lost once the opponent's
    score reaches its length.
    """
    record_command(ctx, match_id, Penalty(player, points, rule, reason, ruled_by), by, at, as_json)


COMMANDS = (break_group, late, penalty)
