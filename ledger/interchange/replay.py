"""Replaying the checker plays of a transcribed game through the rules engine.

Each roll of a :class:`~bgledger.interchange.mat.MatGame` is judged on the
board the earlier plays left (:func:`bgledger.rules.judge.judge`).  A legal play
moves the board on; an illegal one is applied as it was made and flagged
(DESIGN principle 2: it stands unless corrected, USBGF 4.2.3(a)).  A play
that names checkers the board does not have (a transcription that lost an
earlier play) is *unplayable*: reported with the reason, the board unchanged,
as gnubg's importer does.  A roll written with no play as the last action
before the game's result is a player who rolled and then resigned.

:func:`written_result` reads how the file writes a game's end: whose game it
is, for how many points, and whether the file says it won the match.
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


@dataclass(frozen=True, slots=True)
class WrittenResult:
    """A game's end as the transcription writes it.

    ``action`` is the result line that decides (the others only announce it);
    ``winner`` the column whose player wins (0 left, 1 right); ``points`` and
    ``and_match`` as written there; ``note`` says why the winner is not the one
    the line's column gives, if it is not.
    """

    action: MatAction
    winner: Literal[0, 1]
    note: str | None = None

    @property
    def points(self) -> int:
        """The points the line gives (``Wins 2 points``: 2)."""
        return self.action.value or 0

    @property
    def and_match(self) -> bool:
        """Whether the line says ``and the match``."""
        return self.action.and_match


def written_result(game: MatGame, length: int, score: tuple[int, int]) -> WrittenResult | None:
    """Whose game ``game`` is by its result lines, at ``score`` before it; ``None`` if none.

    GNU Backgammon reads only ``Wins`` lines, and gives the game to the
    player in whose column the first one stands (``ParseMatMove`` in its
    ``import.c``: a ``Wins`` in column ``iPlayer`` while the game is in play
    is a resignation by ``!iPlayer``; ``Losses`` is an unrecognised move).
    So does this: a ``Losses N`` line decides only when no ``Wins`` line is
    written (the loser-column dialect: the other player wins).

    An online server also writes ``Losses N point`` and ``Wins N point`` at
    one fixed indentation (or both on one line), so both stand in the same
    column and neither is a player's column.  The ``Wins`` line's column
    stands then too, unless it says ``and the match`` and only the other
    player's score reaches the match length ``length`` with its points: the
    file names the match's winner, and the game is his.
    """
    wins = [a for a in game.actions if a.kind == "win"]
    losses = [a for a in game.actions if a.kind == "loss"]
    if not wins:
        return WrittenResult(losses[0], _other(losses[0].column)) if losses else None
    first = wins[0]
    if not first.and_match or not any(loss.column == first.column for loss in losses):
        return WrittenResult(first, first.column)
    points = first.value or 0
    reach = [c for c in (0, 1) if length and score[c] + points >= length]
    if reach != [_other(first.column)]:
        return WrittenResult(first, first.column)
    side = "right" if first.column else "left"
    note = (
        f"line {first.line}: {first.raw!r} stands in the {side} column, as its 'Losses' line "
        f"does, in no player's column; at {score[0]}-{score[1]} of {length} only the other "
        "player wins the match with it: the game is his"
    )
    return WrittenResult(first, _other(first.column), note)


def _other(column: Literal[0, 1]) -> Literal[0, 1]:
    return 1 if column == 0 else 0
