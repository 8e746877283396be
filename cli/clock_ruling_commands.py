"""The director's clock decisions: ``flag``, ``early-pickup`` and ``missed-hit``.

``flag`` records a reserve announced expired once the ledger's own figures
confirm it (USBGF 4.3.3, CLOCK 5.3); ``early-pickup`` the sanction for
dice picked up before the opponent hit the clock (USBGF 4.1.7.2, CLOCK
4.1); ``missed-hit`` nullifies what was done on the time of a player who
never ended his turn and restores his reserve (USBGF 4.1.8.1).  Output as
in :mod:`bgledger.cli.clock_commands`.
"""

from __future__ import annotations

from typing import Any

import click

from bgledger.cli.clock_commands import CLOCK_FIGURE, PLAYER, RULED_BY, Say, timed
from bgledger.cli.common import json_option, stamp_options
from bgledger.projections.views.text import (
    at_ms,
    clock_line,
    clock_text,
    figure,
    figures_text,
    other,
)
from bgledger.projections.views.words import numbers_text, rule_for, rules_text
from bgledger.service import (
    NOMINAL_MS,
    PICKUP_REASON,
    Decision,
    Ledger,
    PlaysReverted,
    Recorded,
    ReserveTimePenalized,
    ReserveTimeRestored,
    Ruling,
    TimeExpired,
)

__all__ = ["COMMANDS"]

# -- time expired, early pick-ups, missed hits ------------------------------------------------


def _said_flag(outcome: Recorded[TimeExpired]) -> tuple[list[str], dict[str, Any]]:
    expired, state = outcome.result, outcome.state
    reserves = (expired.reserve_a_ms, expired.reserve_b_ms)
    if expired.outcome == "forfeit":
        line = (
            f"{state.name(expired.player)}'s time has expired ({expired.rule}): "
            f"{state.name(other(expired.player))} wins the match on time"
        )
    else:
        line = (
            f"both reserves had expired ({expired.rule}): neither can be shown to have run "
            f"out first; both are set to a nominal reserve "
            f"({rule_for(state.profile, Decision.TIME_EXPIRED)})"
        )
    lines = [line, f"the ledger's figures then: {figures_text(state, reserves)}"]
    now = clock_line(state)
    document = {"player": expired.player, "outcome": expired.outcome, "rule": expired.rule}
    return [*lines, *([now] if now else [])], {"expired": document}


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

    def command(ledger: Ledger) -> Recorded[TimeExpired]:
        return ledger.flag(match_id, player, nominal_ms=nominal, by=by, at=at)

    timed(ctx, command, _said_flag, as_json)


_SANCTIONS = {
    "warning": "warned: the next violation costs reserve time",
    "reserve": "penalised {penalty} of reserve: {left} left",
    "to-one-second": "reduced to one second of reserve (less than {penalty} was left): "
    "the next violation forfeits the match",
    "delay-forfeited": "forfeits the delay of his next turn",
}


def _said_pickup(player: str) -> Say[ReserveTimePenalized | None]:
    def say(outcome: Recorded[ReserveTimePenalized | None]) -> tuple[list[str], dict[str, Any]]:
        state, sanction = outcome.state, outcome.result
        name = state.name(player)
        if sanction is None:
            rules = rules_text(state.profile, Decision.EARLY_PICKUP, Decision.TIME_EXPIRED)
            line = (
                f"{name} picked up the dice early again, at one second: he forfeits the "
                f"match on time ({rules})"
            )
            return [line], {"sanction": {"player": player, "kind": "forfeit"}}
        assert state.timer is not None
        left = figure(state.timer, player, at_ms(sanction.at))
        words = _SANCTIONS[sanction.kind].format(
            penalty=clock_text(sanction.penalty_ms), left=clock_text(left)
        )
        document = {
            "player": player,
            "kind": sanction.kind,
            "penalty_ms": sanction.penalty_ms,
            "rule": sanction.rule,
        }
        return [f"{name} {words} ({sanction.rule})"], {"sanction": document}

    return say


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

    def command(ledger: Ledger) -> Recorded[ReserveTimePenalized | None]:
        return ledger.early_pickup(match_id, player, Ruling(ruled_by, reason, by=by, at=at))

    timed(ctx, command, _said_pickup(player), as_json)


Nullified = tuple[PlaysReverted, ReserveTimeRestored | None]


def _said_missed(outcome: Recorded[Nullified]) -> tuple[list[str], dict[str, Any]]:
    reverted, restored = outcome.result
    state = outcome.state
    lines = [f"{numbers_text(reverted.voids)} nullified ({reverted.rule}): made on the time of a "
             "player who never hit the clock"]  # fmt: skip
    if not reverted.voids:
        lines = [f"nothing nullified ({reverted.rule}): no roll or move was made on his time"]
    if restored is None:
        lines.append("no reserve to restore: his clock took nothing since his turn ended")
    else:
        assert state.timer is not None
        now = figure(state.timer, restored.player, at_ms(restored.at))
        lines.append(
            f"{state.name(restored.player)}'s reserve restored: {clock_text(restored.restored_ms)}"
            f" back, {clock_text(now)} now"
        )
    document = {
        "ruling": reverted.originator_version,
        "voided": list(reverted.voids),
        "restored_ms": 0 if restored is None else restored.restored_ms,
    }
    return lines, document


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

    def command(ledger: Ledger) -> Recorded[Nullified]:
        return ledger.missed_hit(match_id, Ruling(ruled_by, reason, by=by, at=at))

    timed(ctx, command, _said_missed, as_json)


COMMANDS = (flag, early_pickup, missed_hit)
