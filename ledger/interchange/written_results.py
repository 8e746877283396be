"""How a transcribed game's end is written (the importer replays the plays themselves).

The checker plays of a ``.mat`` game are replayed through the aggregate by
:mod:`bgledger.interchange.importer`, judged as live recording judges them.
:func:`written_result` reads how the file writes a game's end: whose game it
is, for how many points, and whether the file says it won the match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bgledger.interchange.mat import MatAction, MatGame


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
