"""Replaying the checker plays of a transcribed game through the rules engine.

Each roll of a :class:`~bgledger.interchange.mat.MatGame` is judged on the
board the earlier plays left (:func:`bgledger.rules.judge.judge`).  A legal play
moves the board on; an illegal one is applied as it was made and flagged
(DESIGN principle 2: it stands unless corrected, USBGF 4.2.3(a)).  A play
that names checkers the board does not have (a transcription that lost an
earlier play) is *unplayable*: reported with the reason, the board unchanged,
as gnubg's importer does.  A roll written with no play as the last action
before the game's result is a player who rolled and then resigned.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from bgledger.interchange.mat import MatAction, MatGame
from bgledger.rules.errors import InvalidPlayError
from bgledger.rules.judge import Judgement, judge
from bgledger.rules.notation import Play
from bgledger.rules.position import Checkers, Position
from bgledger.rules.results import winner_of

Outcome = Literal["legal", "illegal", "unplayable", "resigned-after-rolling", "after-game-end"]


@dataclass(frozen=True, slots=True)
class ReplayedRoll:
    """One roll of a transcribed game and what became of its play.

    ``position`` is the board before the play, the roller on roll; ``verdict``
    is the judge's when the play was judged; ``problem`` says why an
    unplayable play could not be made.
    """

    action: MatAction
    position: Position
    outcome: Outcome
    verdict: Judgement | None = None
    problem: str | None = None


def replay_game(game: MatGame) -> Iterator[ReplayedRoll]:
    """Judge every roll of ``game`` in order, from the starting position.

    :raises InvalidNotationError: if a play's text is not play notation.
    """
    start = Position.start()
    sides: list[Checkers] = [start.mover, start.opponent]
    rolls = [a for a in game.actions if a.kind == "roll"]
    last_roll = rolls[-1] if rolls else None
    for action in rolls:
        mover = action.column
        position = Position(sides[mover], sides[1 - mover])
        if winner_of(position) is not None:
            yield ReplayedRoll(action, position, "after-game-end")
            continue
        if action.play is None or action.dice is None:
            yield ReplayedRoll(action, position, "resigned-after-rolling")
            continue
        replayed = _judge(action, action.dice, action.play, position)
        if replayed.outcome == "illegal" and action is last_roll and not action.play.strip():
            # rolled, could move, wrote nothing, and the game's result follows
            yield ReplayedRoll(action, position, "resigned-after-rolling")
            continue
        if replayed.verdict is not None:
            sides[1 - mover] = replayed.verdict.result.mover
            sides[mover] = replayed.verdict.result.opponent
        yield replayed


def _judge(action: MatAction, dice: tuple[int, int], text: str, position: Position) -> ReplayedRoll:
    play = Play.parse(text)
    try:
        verdict = judge(position, dice, play)
    except InvalidPlayError as exc:
        return ReplayedRoll(action, position, "unplayable", problem=str(exc))
    return ReplayedRoll(action, position, "legal" if verdict.legal else "illegal", verdict)
