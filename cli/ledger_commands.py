"""``start``: a new match (the verbs recorded in it are :mod:`bgledger.cli.verbs`'s).

``start`` records the match's setup through the front door
(:meth:`bgledger.Ledger.start`) and prints its id (``--json``: its state).
"""

from __future__ import annotations

from typing import Any

import click

from bgledger.cli.common import emit_json, json_option, library_errors, open_ledger, stamp_options
from bgledger.errors import InvalidClockError
from bgledger.projections.views.summary import state_json
from bgledger.service import DEFAULT_PROFILE, PROFILES, parse_clock


class ClockFigure(click.ParamType[int]):
    """A clock figure on the command line, ``M:SS``, as milliseconds."""

    name = "M:SS"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """``value`` in milliseconds.

        :raises click.BadParameter: for anything but ``M:SS`` (a usage error, exit 2).
        """
        if isinstance(value, int):
            return value
        try:
            return parse_clock(str(value))
        except InvalidClockError as error:
            self.fail(str(error), param, ctx)


CLOCK_FIGURE = ClockFigure()


@click.command()
@click.option("--a", "player_a", required=True, metavar="NAME", help="Player a.")
@click.option("--b", "player_b", required=True, metavar="NAME", help="Player b.")
@click.option("--length", required=True, type=int, metavar="N", help="Match length in points.")
@click.option(
    "--profile",
    type=click.Choice(list(PROFILES)),
    default=DEFAULT_PROFILE,
    show_default=True,
    help="The rulebook the match is played under.",
)
@click.option(
    "--clock",
    type=click.Choice(["none", "simple-delay", "bronstein"]),
    default="none",
    show_default=True,
    help="The game clock (simple delay: USBGF 3.5.5; Bronstein: CLOCK 2.1).",
)
@click.option(
    "--reserve",
    type=CLOCK_FIGURE,
    default=None,
    help="With --clock: each player's reserve, M:SS; default: the profile's for the length.",
)
@click.option(
    "--delay",
    type=click.IntRange(min=0),
    default=None,
    metavar="SECONDS",
    help="With --clock: the delay per turn; default: the profile's (USBGF 3.5.5).",
)
@click.option(
    "--doubles", is_flag=True, help="With --clock: a team match's time and delay (CLOCK 2.2)."
)
@click.option(
    "--best-of-three",
    "best_of_three",
    is_flag=True,
    help="One match of a best-of-three series (to 7 or less: breaks only between matches, "
    "USBGF 2.2.2).",
)
@click.option(
    "--no-time-forfeit",
    "no_time_forfeit",
    is_flag=True,
    help="The players agreed not to end the match if a reserve expires (USBGF 3.5.2.1): a "
    "flag is then refused and play goes on.",
)
@click.option("--event", default="", help="The tournament or event.")
@click.option(
    "--new-event",
    is_flag=True,
    help="The --event is a new event, though its name reads as an existing one's "
    "(a start in such an event is refused without it).",
)
@click.option("--round", "round_", default="", help="The round.")
@click.option("--table", default="", help="The table or board number.")
@click.option("--id", "match_id", default=None, metavar="MATCH", help="Choose the match id.")
@stamp_options
@json_option
@click.pass_context
def start(
    ctx: click.Context,
    player_a: str,
    player_b: str,
    length: int,
    profile: str,
    clock: str,
    reserve: int | None,
    delay: int | None,
    doubles: bool,
    best_of_three: bool,
    no_time_forfeit: bool,
    event: str,
    new_event: bool,
    round_: str,
    table: str,
    match_id: str | None,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """Start a match between players a and b; prints its id.

    With --clock the game clock is set up too (the opening roll starts it);
    --reserve, --delay and --doubles need --clock.
    """
    ledger = open_ledger(ctx, create=True)
    options: dict[str, Any] = {"profile": profile, "clock": clock, "event": event}
    options.update(round=round_, **_clock_setup(reserve, delay, doubles))
    options.update(best_of_three=best_of_three, table=table, new_event=new_event)
    options.update(no_time_forfeit=no_time_forfeit)
    with library_errors():
        chosen = ledger.start(
            (player_a, player_b), length, match_id=match_id, by=by, at=at, **options
        )
        state = ledger.state(chosen)
    if as_json:
        emit_json(state_json(state))
    else:
        click.echo(chosen)


def _clock_setup(reserve: int | None, delay: int | None, doubles: bool) -> dict[str, Any]:
    """``start``'s clock settings for :meth:`Ledger.start` (which refuses them without a clock)."""
    return {
        "reserve_ms": reserve,
        "delay_ms": None if delay is None else delay * 1000,
        "doubles": doubles,
    }
