"""The game clock from the command line: ``hit`` and ``clock``, and what clock commands share.

Each command calls its method of the front door (:class:`bgledger.Ledger`):
the match's clock commands decide (USBGF 3.5.5, 3.5.6, 4.1.7.2, 4.1.8.1, 4.3;
CLOCK 1.1-5.3) and the ledger stores what they recorded.  The command prints
what happened with the clock's figures, then the match in one line;
``--json`` prints the state (``show --json``'s fields, the clock as of the
command's time) with ``recorded`` and what the command decided.  Figures are
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
    emit_json,
    json_option,
    library_errors,
    open_ledger,
    stamp_options,
)
from bgledger.errors import InvalidClockError
from bgledger.projections.views.text import (
    REASONS,
    at_ms,
    brief,
    clock_text,
    drift_text,
    figure,
    figures,
    figures_text,
    other,
    reason_text,
    stop_reason,
)
from bgledger.projections.views.words import profile_of, rule_for
from bgledger.service import (
    DEFAULT_PROFILE,
    RULERS,
    SET_RULES,
    ClockHit,
    ClockResumed,
    ClockSet,
    ClockStarted,
    ClockStopped,
    Decision,
    Ledger,
    Recorded,
    parse_clock,
)

__all__ = [
    "CLOCK_FIGURE",
    "COMMANDS",
    "PLAYER",
    "RULED_BY",
    "Say",
    "parse_figures",
    "timed",
]

T = TypeVar("T")
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


Say = Callable[[Recorded[T]], tuple[list[str], dict[str, Any]]]
"""Lines of text and extra JSON fields describing what a command recorded."""


def timed(
    ctx: click.Context, command: Callable[[Ledger], Recorded[T]], say: Say[T], as_json: bool
) -> None:
    """Call ``command`` on the front door and print ``say``'s report of what it recorded.

    :raises BadInputError: (exit 2) for input the library cannot read.
    :raises RefusedError: (exit 1) for an action the rules refuse, with the rule.
    """
    ledger = open_ledger(ctx)
    with library_errors():
        done = command(ledger)
    lines, extra = say(done)
    if as_json:
        emit_json({**done.to_json(), **extra})
        return
    for line in lines:
        click.echo(line)
    click.echo(brief(done.state))


# -- hit --------------------------------------------------------------------------------


def _said_hit(outcome: Recorded[ClockHit]) -> tuple[list[str], dict[str, Any]]:
    state, player = outcome.state, outcome.result.player
    assert state.timer is not None
    after = figures(state.timer, at_ms(outcome.result.at))
    line = (
        f"{state.name(player)} hit the clock: {state.name(other(player))}'s time runs · "
        f"{figures_text(state, after)}"
    )
    return [line], {"hit": player}


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

    timed(ctx, lambda ledger: ledger.hit(match_id, player, by=by, at=at), _said_hit, as_json)


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


def _said_started(outcome: Recorded[ClockStarted]) -> tuple[list[str], dict[str, Any]]:
    started, state = outcome.result, outcome.state
    reserves = (started.reserve_a_ms, started.reserve_b_ms)
    line = (
        f"{started.mode} clock on ({started.rule}): {started.delay_ms / 1000:g} s delay, "
        f"reserves {figures_text(state, reserves)}; the next hit starts it"
    )
    return [line], {}


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

    match_id = ctx.obj["match_id"]

    def command(ledger: Ledger) -> Recorded[ClockStarted]:
        return ledger.start_clock(
            match_id, mode, reserve_ms=reserve, delay_ms=delay_ms, doubles=doubles, by=by, at=at
        )

    timed(ctx, command, _said_started, as_json)


def _said_stopped(outcome: Recorded[ClockStopped]) -> tuple[list[str], dict[str, Any]]:
    state, timer = outcome.state, outcome.state.timer
    assert timer is not None
    line = f"clock stopped, {stop_reason(outcome.result.reason, state.profile)}"
    if timer.turn is not None:
        left = figure(timer, timer.turn, at_ms(outcome.result.at))
        line += (
            f"; {state.name(timer.turn)}'s turn paused at {clock_text(left)}: "
            f"'bgledger clock {state.match_id} resume' restarts it"
        )
    return [line], {}


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
    match_id = ctx.obj["match_id"]
    timed(ctx, lambda led: led.stop_clock(match_id, reason, by=by, at=at), _said_stopped, as_json)


clock_stop.help = (clock_stop.help or "") + _REASON_HELP


def _said_resumed(outcome: Recorded[ClockResumed]) -> tuple[list[str], dict[str, Any]]:
    state, player = outcome.state, outcome.result.player
    assert state.timer is not None
    left = figure(state.timer, player, at_ms(outcome.result.at))
    return [f"{state.name(player)}'s time runs again: {clock_text(left)} left"], {}


@clock_group.command("resume")
@_in_group
@click.pass_context
def clock_resume(ctx: click.Context, by: str, at: str | None, as_json: bool) -> None:
    """Restart the clock of the player whose turn it was stopped in (USBGF 4.3.2)."""
    match_id = ctx.obj["match_id"]
    timed(ctx, lambda led: led.resume_clock(match_id, by=by, at=at), _said_resumed, as_json)


def _said_read(shown: tuple[int, int]) -> Say[tuple[int, int]]:
    def say(outcome: Recorded[tuple[int, int]]) -> tuple[list[str], dict[str, Any]]:
        drift = outcome.result
        ours = (shown[0] - drift[0], shown[1] - drift[1])
        lines = [
            f"{p}: clock {clock_text(shown[i])}, ledger {clock_text(ours[i])} "
            f"({drift_text(drift[i])})"
            for i, p in enumerate(("a", "b"))
        ]
        reading = {
            "shown_ms": {"a": shown[0], "b": shown[1]},
            "ledger_ms": {"a": ours[0], "b": ours[1]},
            "drift_ms": {"a": drift[0], "b": drift[1]},
        }
        return lines, {"reading": reading}

    return say


@clock_group.command("read")
@click.argument("figures_", nargs=-1, required=True, metavar="a=M:SS b=M:SS")
@_in_group
@click.pass_context
def clock_read(
    ctx: click.Context, figures_: tuple[str, ...], by: str, at: str | None, as_json: bool
) -> None:
    """Record what the physical clock shows; prints each figure's drift from the ledger's own."""
    shown = parse_figures(figures_)

    match_id = ctx.obj["match_id"]

    def command(ledger: Ledger) -> Recorded[tuple[int, int]]:
        return ledger.read_clock(match_id, shown, by=by, at=at)

    timed(ctx, command, _said_read(shown), as_json)


def _said_set(outcome: Recorded[ClockSet]) -> tuple[list[str], dict[str, Any]]:
    done, state = outcome.result, outcome.state
    reserves = (done.reserve_a_ms, done.reserve_b_ms)
    line = (
        f"clocks set by the {done.ruled_by} ({done.rule}): {figures_text(state, reserves)}"
        f" - {done.reason}"
    )
    return [line], {}


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
    shown = parse_figures(figures_)

    match_id = ctx.obj["match_id"]

    def command(ledger: Ledger) -> Recorded[ClockSet]:
        return ledger.set_clock(
            match_id, shown, rule=rule, ruled_by=ruled_by, reason=reason, by=by, at=at
        )

    timed(ctx, command, _said_set, as_json)


COMMANDS = (hit, clock_group)
