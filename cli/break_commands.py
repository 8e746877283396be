"""Breaks and penalty points from the command line: ``break``, ``late`` and ``penalty``.

Decided by :class:`bgledger.commands.breaks.BreakCommands`: breaks by match length, between games,
combined on request (USBGF 2.2.2, 2.2.3); lateness penalty points from the
starting time or the end of a break (USBGF 2.2.4); the director's other
penalty points.  Penalty points are scored by the opponent and may end the
match.  Output as in :mod:`bgledger.cli.clock_commands`.
"""

from __future__ import annotations

from typing import Any

import click

from bgledger.cli.clock_commands import PLAYER, RULED_BY, timed
from bgledger.cli.common import json_option, stamp_options
from bgledger.projections.views.audit import score_text
from bgledger.projections.views.text import at_ms, break_lines, figures_text, other, time_of_day
from bgledger.projections.views.words import points_of, rule_for
from bgledger.service import (
    BreakEnded,
    BreakStarted,
    Decision,
    Ledger,
    PenaltyPointsAssessed,
    Recorded,
)

__all__ = ["COMMANDS"]


def _points_lines(outcome: Recorded[Any]) -> list[str]:
    """The penalty points the command assessed, the score, and a forfeit if it ended the match."""
    before, after = outcome.before, outcome.state
    lines = []
    for index, player in enumerate(("a", "b")):
        points = after.penalties[index] - before.penalties[index]
        if points:
            lines.append(
                f"{points_of(points, 'penalty point')} against {after.name(player)}, "
                f"scored by {after.name(other(player))}: {score_text(after)}"
            )
    if after.winner is not None and before.winner is None:
        lines.append(f"{after.name(after.winner)} wins the match by forfeit")
    return lines


def _penalty_json(outcome: Recorded[Any]) -> dict[str, Any]:
    before, after = outcome.before, outcome.state
    return {
        "a": after.penalties[0] - before.penalties[0],
        "b": after.penalties[1] - before.penalties[1],
    }


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


def _said_started(outcome: Recorded[BreakStarted]) -> tuple[list[str], dict[str, Any]]:
    started, state = outcome.result, outcome.state
    who = " and ".join(state.name(p) for p in started.players)
    assert state.breaks.open is not None
    ends = time_of_day(state.breaks.open.ends_ms, state.last_at)
    rule = rule_for(state.profile, Decision.BREAK)
    lines = [f"break for {who}: {started.minutes} minutes, until {ends} ({rule})"]
    if started.exception:
        exception = rule_for(state.profile, Decision.BREAK_EXCEPTION)
        lines.append(f"the director's exception ({exception}): {started.exception}")
    if started.reserve_a_ms is not None and started.reserve_b_ms is not None:
        readings = (started.reserve_a_ms, started.reserve_b_ms)
        stopped = rule_for(state.profile, Decision.STOP_BREAK)
        lines.append(f"clocks stopped ({stopped}): {figures_text(state, readings)}")
    return [*lines, *break_lines(state)], {}


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

    match_id = ctx.obj["match_id"]

    def command(ledger: Ledger) -> Recorded[BreakStarted]:
        return ledger.start_break(
            match_id,
            players,
            combine=combine,
            exceptional=exceptional,
            exception=exception,
            by=by,
            at=at,
        )

    timed(ctx, command, _said_started, as_json)


def _said_ended(outcome: Recorded[BreakEnded]) -> tuple[list[str], dict[str, Any]]:
    ended, state = outcome.result, outcome.state
    when = time_of_day(at_ms(ended.at), ended.at)
    over = f", {ended.minutes_over} minutes after its allowance" if ended.minutes_over else ""
    lines = [f"break over at {when}{over}"]
    if ended.late is not None:
        rule = rule_for(state.profile, Decision.PENALTY_POINTS)
        lines.append(f"{state.name(ended.late)} returned late ({rule})")
    lines.extend(_points_lines(outcome))
    if state.timer is not None and state.timer.paused is not None:
        lines.append(f"the clock is stopped: 'bgledger clock {state.match_id} resume'")
    return lines, {"late": ended.late, "penalty_points_assessed": _penalty_json(outcome)}


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

    match_id = ctx.obj["match_id"]
    timed(ctx, lambda led: led.end_break(match_id, late=late, by=by, at=at), _said_ended, as_json)


# -- penalty points ------------------------------------------------------------------------


def _said_penalty(outcome: Recorded[PenaltyPointsAssessed]) -> tuple[list[str], dict[str, Any]]:
    assessed, state = outcome.result, outcome.state
    why = assessed.reason
    lines = [f"{assessed.rule}: {why}", *_points_lines(outcome)]
    document = {
        "player": assessed.player,
        "points": assessed.points,
        "kind": assessed.kind,
        "rule": assessed.rule,
        "minutes_late": assessed.minutes_late,
    }
    return lines, {"penalty": document, "forfeit": state.winner is not None}


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

    def command(ledger: Ledger) -> Recorded[PenaltyPointsAssessed]:
        return ledger.late(match_id, player, scheduled=scheduled, by=by, at=at)

    timed(ctx, command, _said_penalty, as_json)


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

    def command(ledger: Ledger) -> Recorded[PenaltyPointsAssessed]:
        return ledger.penalty(
            match_id, player, points, rule=rule, reason=reason, ruled_by=ruled_by, by=by, at=at
        )

    timed(ctx, command, _said_penalty, as_json)


COMMANDS = (break_group, late, penalty)
