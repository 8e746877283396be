"""The director's clock decisions: ``flag``, ``early-pickup``, ``pickup-with-hit``, ``missed-hit``.

``flag`` records a reserve announced expired once the ledger's own figures
confirm it (USBGF 4.3.3, CLOCK 5.3); ``early-pickup`` the sanction for
dice picked up before the opponent hit the clock (USBGF 4.1.7.2, CLOCK
4.1); ``pickup-with-hit`` stops the clock and restores the reserve the player
on roll lost while his opponent held the dice after hitting (USBGF 4.1.8.1);
``missed-hit`` nullifies what was done on the time of a player who
never ended his turn and restores his reserve (USBGF 4.1.8.1).  Output as
in :mod:`bgledger.cli.clock_commands`.
"""

from __future__ import annotations

import click

from bgledger.cli.clock_commands import CLOCK_FIGURE, PLAYER, RULED_BY
from bgledger.cli.common import json_option, record_command, stamp_options
from bgledger.commands.vocabulary import (
    PICKED_UP_WITH_HIT,
    EarlyPickup,
    Flag,
    MissedHit,
    PickupWithHit,
)
from bgledger.service import NOMINAL_MS, PICKUP_REASON

__all__ = ["COMMANDS"]

# -- time expired, early pick-ups, missed hits ------------------------------------------------


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.argument("player", type=PLAYER, metavar="PLAYER")
@click.option(
    "--nominal",
    type=CLOCK_FIGURE,
    default=NOMINAL_MS,
    show_default="1:00",
    help="The reserve both get if both had expired (USBGF 4.3.3: the director's figure).",
)
@stamp_options
@json_option
@click.pass_context
def flag(
    ctx: click.Context,
    match_id: str,
    player: str,
    nominal: int,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """PLAYER's (a or b) reserve is announced expired: he loses the match (USBGF 4.3.3, CLOCK 5.3).

    Refused (exit 1) with the ledger's figure if time remains by its own
    figures.  If both reserves are spent, both get --nominal.
    """
    record_command(ctx, match_id, Flag(player, nominal), by, at, as_json)


@click.command("early-pickup")
@click.argument("match_id", metavar="MATCH")
@click.argument("player", type=PLAYER, metavar="PLAYER")
@RULED_BY
@click.option("--reason", default=PICKUP_REASON, show_default=True, metavar="TEXT", help="Why.")
@stamp_options
@json_option
@click.pass_context
def early_pickup(
    ctx: click.Context,
    match_id: str,
    player: str,
    ruled_by: str,
    reason: str,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """PLAYER (a or b) picked up the dice before his opponent hit the clock: the sanction.

    Simple delay (USBGF 4.1.7.2): a warning first, then 30 seconds off the
    reserve each time, down to one second; a violation at one second
    forfeits the match.  Bronstein (CLOCK 4.1): the delay of his next turn
    is forfeited.
    """
    record_command(ctx, match_id, EarlyPickup(player, reason, ruled_by), by, at, as_json)


@click.command("pickup-with-hit")
@click.argument("match_id", metavar="MATCH")
@click.argument("player", type=PLAYER, metavar="PLAYER")
@RULED_BY
@click.option(
    "--reason", default=PICKED_UP_WITH_HIT, show_default=True, metavar="TEXT", help="Why."
)
@stamp_options
@json_option
@click.pass_context
def pickup_with_hit(
    ctx: click.Context,
    match_id: str,
    player: str,
    ruled_by: str,
    reason: str,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """PLAYER (a or b) hit the clock and also picked up the dice (USBGF 4.1.8.1).

    The clock stops, the dice go to the player on roll and the reserve he
    lost since the hit is restored; 'clock resume' then reactivates his time.
    """
    command = PickupWithHit(player, reason, ruled_by)
    record_command(ctx, match_id, command, by, at, as_json)


@click.command("missed-hit")
@click.argument("match_id", metavar="MATCH")
@click.option("--reason", required=True, metavar="TEXT", help="Why, in the ruler's words.")
@RULED_BY
@stamp_options
@json_option
@click.pass_context
def missed_hit(
    ctx: click.Context,
    match_id: str,
    reason: str,
    ruled_by: str,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """The player whose time runs never hit the clock after his turn (USBGF 4.1.8.1).

    His opponent's rolls and plays since are nullified and the reserve his
    clock took since his turn really ended is restored.
    """
    record_command(ctx, match_id, MissedHit(reason=reason, ruled_by=ruled_by), by, at, as_json)


COMMANDS = (flag, early_pickup, pickup_with_hit, missed_hit)
