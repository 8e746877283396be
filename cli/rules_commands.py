"""``legal`` and ``judge``: the rules engine on gnubg position ids."""

from __future__ import annotations

import sys

import click

from bgledger.cli.common import emit_json, json_option
from bgledger.projections.views.words import rule_for
from bgledger.rules.errors import RulesError
from bgledger.service import DEFAULT_PROFILE, Decision, Judgement, Ledger, Position


def _position(text: str) -> Position:
    try:
        return Ledger.position(text)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="POSITION") from None


def _dice(values: tuple[int, ...]) -> tuple[int, int]:
    try:
        return Ledger.dice(values)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="D D") from None


def judgement_document(verdict: Judgement) -> dict[str, object]:
    """The ``judge --json`` document."""
    return {
        "position": verdict.position.position_id,
        "dice": list(verdict.dice),
        "play": str(verdict.play),
        "legal": verdict.legal,
        "reason": verdict.reason,
        "rule": verdict.rule,
        "result": verdict.result.position_id,
        "impossible": list(verdict.impossible),
    }


def _legal_stream() -> None:
    """``legal -``: one ``POSID D D`` line in, one JSON line out; bad lines say why."""
    bad = 0
    for number, line in enumerate(sys.stdin, start=1):
        words = line.split()
        if not words:
            continue
        try:
            if len(words) != 3 or not all(w.isascii() and w.isdigit() for w in words[1:]):
                raise click.BadParameter(f"expected 'POSID D D', got {line.strip()!r}")
            plays = Ledger.legal(words[0], (int(words[1]), int(words[2])))
        except (RulesError, click.BadParameter) as exc:
            bad += 1
            message = exc.message if isinstance(exc, click.BadParameter) else str(exc)
            emit_json({"line": number, "input": line.strip(), "error": message})
            click.echo(f"stdin, line {number}: {message}", err=True)
            continue
        emit_json(plays.to_json())
    if bad:
        raise SystemExit(2)


@click.command()
@click.argument("position")
@click.argument("dice", nargs=-1, type=int)
@json_option
def legal(position: str, dice: tuple[int, ...], as_json: bool) -> None:
    """Legal plays for a gnubg POSITION id and two DICE (the player on roll moves).

    One play per distinct resulting position, as gnubg counts them, each
    with the position id after it (opponent on roll).  POSITION '-' reads
    'POSID D D' lines from stdin and prints one JSON line per line.
    """
    if position == "-":
        if dice:
            raise click.UsageError("'legal -' reads the dice from stdin; give no DICE")
        _legal_stream()
        return
    found = Ledger.legal(_position(position), _dice(dice))
    if as_json:
        emit_json(found.to_json())
        return
    click.echo(f"{position} {dice[0]}{dice[1]}: {len(found.plays)} legal play(s)")
    for play, result in found.plays:
        click.echo(f"  {play or 'Cannot Move':<28} -> {result}")


@click.command("judge")
@click.argument("position")
@click.argument("die1", type=int)
@click.argument("die2", type=int)
@click.argument("play")
@json_option
def judge_command(position: str, die1: int, die2: int, play: str, as_json: bool) -> None:
    """Judge PLAY of DIE1 DIE2 in a gnubg POSITION id: legal, or illegal and why.

    Exit status 0 if the play is legal, 1 if it is illegal (the reason and
    the USBGF rule are printed), 2 if the input cannot describe a play.
    """
    board, dice = _position(position), _dice((die1, die2))
    try:
        verdict = Ledger.judge(board, dice, play)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="PLAY") from None
    if as_json:
        emit_json(judgement_document(verdict))
    elif verdict.legal:
        click.echo(f"legal: {verdict.play or 'Cannot Move'}")
    else:
        click.echo(f"illegal: {verdict.reason} ({verdict.rule})")
        impossible = rule_for(DEFAULT_PROFILE, Decision.IMPOSSIBLE_POSITION)
        for problem in verdict.impossible:
            click.echo(f"  impossible position ({impossible}): {problem}")
    if not verdict.legal:
        raise SystemExit(1)
