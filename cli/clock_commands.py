"""The game clock from the command line: ``hit`` and ``clock``, and what clock commands share.

Each command records its command value through the front door
(:meth:`bgledger.Ledger.record`): the match's clock commands decide (USBGF
3.5.5, 3.5.6, 4.1.7.2, 4.1.8.1, 4.3; CLOCK 1.1-5.3) and the ledger stores what
they recorded.  The command prints the events recorded as ``history`` words
them (the clock's figures with them), then the match in one line; ``--json``
prints the state (``show --json``'s fields, the clock as of the command's
time) with ``recorded`` and ``entries``, as ``history --json`` has them.  Figures are
written ``M:SS`` (``H:MM:SS`` from an hour).  A refusal cites the rule and
exits 1; bad input exits 2; either way nothing is recorded.

``clock`` and ``break`` are groups that take the match first:
``bgledger clock M1 stop dispute``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from bgledger.cli.common import (
    BadInputError,
    json_option,
    library_errors,
    record_command,
    stamp_options,
)
from bgledger.commands.vocabulary import (
    ClockRead,
    ClockResume,
    ClockSetting,
    ClockStart,
    ClockStop,
    Hit,
)
from bgledger.errors import InvalidClockError
from bgledger.projections.views.text import REASONS, reason_text
from bgledger.projections.views.words import profile_of, rule_for
from bgledger.service import DEFAULT_PROFILE, RULERS, SET_RULES, Decision, parse_clock

__all__ = [
    "CLOCK_FIGURE",
    "COMMANDS",
    "PLAYER",
    "RULED_BY",
    "parse_figures",
]

F = TypeVar("F", bound=Callable[..., Any])
PLAYER = click.Choice(["a", "b"])
RULED_BY = click.option(
    "--ruled-by",
    "ruled_by",
    type=click.Choice(RULERS),
    default="director",
    show_default=True,
    help="Who ruled: the director, an appeal committee, or the players.",
)


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


def parse_figures(words: tuple[str, ...]) -> tuple[int, int]:
    """``('a=9:31', 'b=9:58')`` as both players' figures in ms (either order).

    :raises BadInputError: unless exactly ``a=M:SS`` and ``b=M:SS`` are given.
    """
    given = dict(word.split("=", 1) for word in words if "=" in word)
    if len(words) != 2 or set(given) != {"a", "b"}:
        raise BadInputError(f"{' '.join(words)!r}: give both figures, a=M:SS b=M:SS")
    with library_errors():
        return parse_clock(given["a"]), parse_clock(given["b"])


# -- hit --------------------------------------------------------------------------------


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.argument("player", type=PLAYER, metavar="[PLAYER]", required=False)
@stamp_options
@json_option
@click.pass_context
def hit(
    ctx: click.Context, match_id: str, player: str | None, by: str, at: str | None, as_json: bool
) -> None:
    """PLAYER (a or b; default: whose time runs) hits the clock: his turn ends (USBGF 4.1.8.1).

    A player hits after his play, his double, his take or a roll he cannot
    play; the opening roll starts the winner's clock itself (CLOCK 3.3: the
    lower die's hit is recorded with it).  Prints both reserves after the hit.
    """
    record_command(ctx, match_id, Hit(player), by, at, as_json)


# -- the clock group --------------------------------------------------------------------


@click.group("clock")
@click.argument("match_id", metavar="MATCH")
@click.pass_context
def clock_group(ctx: click.Context, match_id: str) -> None:
    """The game clock of MATCH: start, stop, resume, read or set it (USBGF 3.5.5, 4.3).

    \b
    bgledger clock M1 start simple-delay [--reserve 10:00] [--delay 12]
    bgledger clock M1 stop dispute       bgledger clock M1 resume
    bgledger clock M1 read a=9:31 b=9:58
    bgledger clock M1 set a=9:00 b=8:30 --reason "clock reset wrongly"
    """
    ctx.obj = {**(ctx.obj or {}), "match_id": match_id}


def _in_group(func: F) -> F:
    return json_option(stamp_options(func))


@clock_group.command("start")
@click.argument("mode", type=click.Choice(["simple-delay", "bronstein"]))
@click.option(
    "--reserve",
    type=CLOCK_FIGURE,
    default=None,
    help="Each player's reserve, M:SS; default: the profile's for the length and "
    "score (USBGF 3.5.5, 3.5.6; CLOCK 2.1).",
)
@click.option(
    "--delay",
    type=click.IntRange(min=0),
    default=None,
    metavar="SECONDS",
    help="The delay per turn; default: the profile's (12 s, USBGF 3.5.5).",
)
@click.option("--doubles", is_flag=True, help="A team (doubles) match: its time (CLOCK 2.2).")
@_in_group
@click.pass_context
def clock_start(
    ctx: click.Context,
    mode: str,
    reserve: int | None,
    delay: int | None,
    doubles: bool,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """Put a MODE clock on the match (a Bronstein clock only between games, CLOCK 1.1).

    A clock may be brought in during a match (USBGF 3.5.6, 2.3): the
    reserves are then set for the points still to go.
    """
    delay_ms = None if delay is None else delay * 1000
    command = ClockStart(mode, reserve, delay_ms, doubles)
    record_command(ctx, ctx.obj["match_id"], command, by, at, as_json)


_REASON_HELP = f"\n\n\b\nREASON ({rule_for(DEFAULT_PROFILE, Decision.CLOCK_STOP)}):\n" + "\n".join(
    f"  {letter}  {code:<16} {reason_text(code, profile_of(DEFAULT_PROFILE))}"
    for code, (letter, _) in REASONS.items()
    if letter
)
"""The stop reasons for ``clock stop --help``, with the default profile's rules."""


@clock_group.command("stop")
@click.argument("reason", metavar="REASON")
@_in_group
@click.pass_context
def clock_stop(ctx: click.Context, reason: str, by: str, at: str | None, as_json: bool) -> None:
    """Stop both clocks for REASON, a code or its USBGF 4.3.2 letter (a break: 'break start')."""
    record_command(ctx, ctx.obj["match_id"], ClockStop(reason), by, at, as_json)


clock_stop.help = (clock_stop.help or "") + _REASON_HELP


@clock_group.command("resume")
@_in_group
@click.pass_context
def clock_resume(ctx: click.Context, by: str, at: str | None, as_json: bool) -> None:
    """Restart the clock of the player whose turn it was stopped in (USBGF 4.3.2)."""
    record_command(ctx, ctx.obj["match_id"], ClockResume(), by, at, as_json)


@clock_group.command("read")
@click.argument("figures_", nargs=-1, required=True, metavar="a=M:SS b=M:SS")
@_in_group
@click.pass_context
def clock_read(
    ctx: click.Context, figures_: tuple[str, ...], by: str, at: str | None, as_json: bool
) -> None:
    """Record what the physical clock shows; prints each figure's drift from the ledger's own."""
    record_command(ctx, ctx.obj["match_id"], ClockRead(*parse_figures(figures_)), by, at, as_json)


@clock_group.command("set")
@click.argument("figures_", nargs=-1, required=True, metavar="a=M:SS b=M:SS")
@click.option("--reason", required=True, metavar="TEXT", help="Why, in the ruler's words.")
@click.option(
    "--rule",
    type=click.Choice(SET_RULES),
    default=SET_RULES[0],
    show_default=True,
    help="Errors in clock management, a faulty clock, a break, both reserves expired.",
)
@RULED_BY
@_in_group
@click.pass_context
def clock_set(
    ctx: click.Context,
    figures_: tuple[str, ...],
    reason: str,
    rule: str,
    ruled_by: str,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """The director sets both reserves (USBGF 3.7.2, 4.3.2(b), 4.3.3, 4.3.4)."""
    command = ClockSetting(*parse_figures(figures_), reason, rule, ruled_by)
    record_command(ctx, ctx.obj["match_id"], command, by, at, as_json)


COMMANDS = (hit, clock_group)
