"""Rulings from the command line: a director's or a committee's corrections.

Each command records one compensating event: it builds its command value
(:mod:`bgledger.commands.vocabulary`) and records it through the front door
(:meth:`bgledger.Ledger.record`; the match's ruling commands decide, DESIGN
principle 3): it names the events it voids or restores, the rule, who ruled
and why, and changes nothing recorded.  All share ``--rule``, ``--ruled-by``,
``--reason``, ``--agreed``, ``--by``/``--at`` and ``--json``.  A ruling
outside its window is refused with the rule cited (exit 1); one that names
nothing it could apply to exits 2.  Either way nothing is recorded.

After a ruling the command prints the events it recorded as the history has
them (what it voided, the rule, who ruled, why), then the new state in one
line; ``--json`` prints the state (``show --json``'s fields) with ``recorded``
(every event the command added) and ``entries`` (``history --json``'s: a
ruling's ``voids`` and ``restores``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from bgledger.cli.common import BadInputError, json_option, record_command, stamp_options
from bgledger.commands.vocabulary import (
    CorrectCube,
    CorrectLength,
    CorrectScore,
    CorrectSetup,
    Note,
    NullifyPass,
    Overturn,
    Revert,
    RulingNote,
    VoidConcession,
    VoidCube,
)
from bgledger.service import RULERS

__all__ = ["COMMANDS"]

F = Callable[..., Any]
EventRuling = type[
    Revert | VoidCube | NullifyPass | VoidConcession | CorrectCube | CorrectSetup | Overturn
]
"""A ruling on one recorded event."""


def ruling_options(reason: bool = True, ruler: bool = True) -> Callable[[F], F]:
    """The options every ruling takes (``--reason`` only where the ruling needs one;
    ``--ruled-by`` optional where a scorekeeper's own remark goes without one)."""

    def decorate(func: F) -> F:
        func = json_option(stamp_options(func))
        func = click.option(
            "--agreed",
            is_flag=True,
            help="Both players agreed to the correction (USBGF 4.2.3(f)).",
        )(func)
        if reason:
            func = click.option(
                "--reason", required=True, metavar="TEXT", help="Why, in the ruler's words."
            )(func)
        func = click.option(
            "--ruled-by",
            "ruled_by",
            type=click.Choice(RULERS),
            required=ruler,  # no default=None: click 8.3 would take it as a value given
            help="Who ruled: the director, an appeal committee, or the players."
            + ("" if ruler else " Without it: the scorekeeper's remark, not a ruling."),
        )(func)
        return click.option(
            "--rule",
            metavar="RULE",
            default=None,
            help="The rule applied ('USBGF 4.2.3(f)'); default: the first whose window is open.",
        )(func)

    return decorate


def _ruling(options: dict[str, Any]) -> dict[str, Any]:
    """The ruling's fields the options give (``--reason``, ``--rule``, ``--ruled-by``,
    ``--agreed``); ``--ruled-by`` left out: the command's own ruler."""
    return {
        "reason": options["reason"],
        "rule": options["rule"],
        "ruled_by": options["ruled_by"] or "",
        "agreed": options["agreed"],
    }


def _record(ctx: click.Context, match_id: str, command: Any, options: dict[str, Any]) -> None:
    record_command(ctx, match_id, command, options["by"], options["at"], options["as_json"])


def _event_command(kind: EventRuling, *, help: str, metavar: str = "EVENT") -> click.Command:
    """A ruling on one recorded event: ``VERB MATCH EVENT`` and the ruling options."""

    @click.pass_context
    def command(ctx: click.Context, /, match_id: str, event: int, **options: Any) -> None:
        _record(ctx, match_id, kind(event, **_ruling(options)), options)

    command.__doc__ = help
    decorated = ruling_options()(command)
    decorated = click.argument("event", type=int, metavar=metavar)(decorated)
    decorated = click.argument("match_id", metavar="MATCH")(decorated)
    return click.command(kind.verb)(decorated)


revert = _event_command(
    Revert,
    help="Undo the illegal play EVENT and the game actions after it (USBGF 4.2.3(c)-(f)).",
)
void_cube = _event_command(
    VoidCube,
    help="Void the invalid double EVENT that was taken: the game counts as if it never was "
    "(USBGF 4.4.6.1, 4.4.9, 4.4.10).",
)
nullify_pass = _event_command(
    NullifyPass,
    help="Nullify the pass of the invalid double EVENT: the game resumes at the double "
    "(USBGF 4.4.6.2).",
)
void_concession = _event_command(
    VoidConcession,
    help="Void the accepted concession EVENT the rules did not allow (a contact position): "
    "it and everything after it are void, and the game resumes where it was conceded "
    "(USBGF 4.5, 4.2.6).",
)
correct_cube = _event_command(
    CorrectCube,
    help="The double EVENT to a wrong level stands at the right level (USBGF 4.4.8).",
)
correct_setup = _event_command(
    CorrectSetup,
    help="Correct the wrong setup EVENT (USBGF 4.2.4): the plays stand on the right position if "
    "none was affected, else the game starts again; too late, the position stands.",
)
overturn = _event_command(
    Overturn,
    help="An appeal committee reverses the ruling at event RULING: what it voided is back "
    "in force (USBGF 5.2; --ruled-by committee).",
    metavar="RULING",
)


@click.command("correct-length")
@click.argument("match_id", metavar="MATCH")
@click.argument("length", type=click.IntRange(min=1), metavar="LENGTH")
@ruling_options()
@click.pass_context
def correct_length(ctx: click.Context, /, match_id: str, length: int, **options: Any) -> None:
    """The match is LENGTH points, from the next game (USBGF 4.8.4, 4.8.5)."""
    _record(ctx, match_id, CorrectLength(length, **_ruling(options)), options)


def parse_score(words: tuple[str, ...]) -> tuple[int, int]:
    """``('2', '1')`` or ``('2-1',)`` as ``(2, 1)``.

    :raises BadInputError: for anything else.
    """
    parts = words[0].split("-") if len(words) == 1 else list(words)
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise BadInputError(
            f"score {' '.join(words)!r}: give a's and b's points as A B|A-B, e.g. '2 1' or '2-1'"
        )
    return int(parts[0]), int(parts[1])


@click.command("correct-score")
@click.argument("match_id", metavar="MATCH")
@click.argument("score", nargs=-1, required=True, metavar="A B|A-B")
@ruling_options()
@click.pass_context
def correct_score(
    ctx: click.Context, /, match_id: str, score: tuple[str, ...], **options: Any
) -> None:
    """The score is A (player a) to B (player b): the director settles a dispute (USBGF 4.7)."""
    points = parse_score(score)
    _record(ctx, match_id, CorrectScore(*points, **_ruling(options)), options)


@click.command("note")
@click.argument("match_id", metavar="MATCH")
@click.argument("text", metavar="TEXT")
@ruling_options(reason=False, ruler=False)
@click.pass_context
def note(ctx: click.Context, /, match_id: str, text: str, **options: Any) -> None:
    """Note a ruling or an observation for the record (TEXT); the match is unchanged.

    With --ruled-by it is a ruling noted in the rulings log; without, the
    scorekeeper's remark (not a ruling: no rule, no ruler).

    Example: bgledger note r2t1 'Bob asked for the director at 14:05'
    """
    if options["ruled_by"] is not None:
        _record(ctx, match_id, RulingNote(**_ruling({**options, "reason": text})), options)
        return
    if options["rule"] is not None or options["agreed"]:
        raise BadInputError("--rule and --agreed go with a ruling: add --ruled-by")
    _record(ctx, match_id, Note(text), options)


COMMANDS = (
    revert,
    void_cube,
    nullify_pass,
    void_concession,
    correct_cube,
    correct_setup,
    correct_length,
    correct_score,
    note,
    overturn,
)
