"""``legal`` and ``judge``: the rules engine on gnubg position ids."""

from __future__ import annotations

import sys

import click

from bgledger.cli.common import emit_json, json_option
from bgledger.rules.errors import RulesError
from bgledger.rules.judge import Judgement, judge
from bgledger.rules.legal import check_dice, legal_plays
from bgledger.rules.notation import Play
from bgledger.rules.position import Position


def _position(text: str) -> Position:
    try:
        return Position.from_id(text)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="POSITION") from None


def _dice(values: tuple[int, ...]) -> tuple[int, int]:
    try:
        return check_dice(values)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="D D") from None


def legal_document(position: Position, dice: tuple[int, int]) -> dict[str, object]:
    """The ``legal --json`` document: one entry per distinct resulting position."""
    plays = [
        {"play": str(lp.play), "result": lp.result.position_id}
        for lp in legal_plays(position, dice)
    ]
    return {"position": position.position_id, "dice": list(dice), "plays": plays}


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
            position = Position.from_id(words[0])
            dice = check_dice((int(words[1]), int(words[2])))
        except (RulesError, click.BadParameter) as exc:
            bad += 1
            message = exc.message if isinstance(exc, click.BadParameter) else str(exc)
            emit_json({"line": number, "input": line.strip(), "error": message})
            click.echo(f"stdin, line {number}: {message}", err=True)
            continue
        emit_json(legal_document(position, dice))
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
    document = legal_document(_position(position), _dice(dice))
    if as_json:
        emit_json(document)
        return
    plays: list[dict[str, str]] = document["plays"]  # type: ignore[assignment]
    click.echo(f"{position} {dice[0]}{dice[1]}: {len(plays)} legal play(s)")
    for entry in plays:
        click.echo(f"  {entry['play'] or 'Cannot Move':<28} -> {entry['result']}")


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
        verdict = judge(board, dice, Play.parse(play))
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="PLAY") from None
    if as_json:
        emit_json(judgement_document(verdict))
    elif verdict.legal:
        click.echo(f"legal: {verdict.play or 'Cannot Move'}")
    else:
        click.echo(f"illegal: {verdict.reason} ({verdict.rule})")
        for problem in verdict.impossible:
            click.echo(f"  impossible position (USBGF 4.2.3(d)): {problem}")
    if not verdict.legal:
        raise SystemExit(1)
