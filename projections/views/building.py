"""The board at the table: the pad's view of a play being built, and of the next game.

The pad draws each checker where the scorekeeper has moved it so far, before the play is
recorded: :func:`as_built` makes the moves tapped so far on the board, literally, in the
order tapped (a blot landed on goes to the bar), and refuses a move from a point where the
mover has no checker.  Whether the play is legal (the dice, a point held) is decided when it
is recorded, where an illegal play made at the board may be recorded as played (DESIGN
principle 2); this only draws it.  Between games the table shows the next game's start
(:func:`at_table`), not the last game's final position.

>>> from bgledger.projections.state.model import MatchState, Phase
>>> state = MatchState("m", ("Ann", "Bob"), 5, "usbgf-2016", "none", True,
...                    phase=Phase.PLAY, turn="a", dice=(6, 4))
>>> built = as_built(state, "24/18 13/9")
>>> built.board[0][24], built.board[0][18], built.board[0][13], built.board[0][9]
(1, 1, 4, 1)
"""

from __future__ import annotations

from dataclasses import replace

from bgledger.projections.state.fold import MatchState, Phase, seat
from bgledger.projections.state.model import START_SIDE
from bgledger.projections.views.svg import board_svg
from bgledger.rules.errors import InvalidPlayError
from bgledger.rules.notation import BAR, Play

__all__ = ["NotPlayingError", "as_built", "at_table", "table_svg"]


class NotPlayingError(ValueError):
    """A play drawn while nobody is to play (the dice not rolled, the game over)."""


def at_table(state: MatchState, play: str = "") -> MatchState:
    """``state`` as the table shows it: between games the next game's start (the checkers
    set up, the cube in the middle at 1); while a player moves, after ``play`` so far."""
    if state.phase is Phase.BETWEEN_GAMES and state.game:
        return replace(state, board=(START_SIDE, START_SIDE), cube=1, cube_owner=None, dice=None)
    if play.strip():
        return as_built(state, play)
    return state


def table_svg(state: MatchState, viewer: str, play: str = "") -> str:
    """The board as the pad shows it at the table, from ``viewer``'s side: between games the
    next game's start; while a player moves, his play built so far (``play``, in his
    numbering), the points numbered from his side.

    :raises ValueError: if ``play`` cannot be drawn (see :func:`as_built`).
    """
    numbered = state.turn if state.phase is Phase.PLAY else None
    return board_svg(at_table(state, play), viewer, numbered)


def as_built(state: MatchState, play: str) -> MatchState:
    """``state`` after the moves of ``play`` so far (in the mover's numbering), made in the
    order written: a blot landed on goes to the bar.

    :raises NotPlayingError: if nobody is to play (the phase is not ``play``).
    :raises InvalidNotationError: if ``play`` is not play notation.
    :raises InvalidPlayError: if a move leaves a point where the mover has no checker.
    """
    if state.phase is not Phase.PLAY or state.turn is None or state.dice is None:
        raise NotPlayingError(
            f"play {play!r}: nobody is moving now (the match is at {state.phase.value})"
        )
    made = Play.parse(play)
    mover = seat(state.turn)
    me, them = list(state.board[mover]), list(state.board[1 - mover])
    for move in made.written:
        if not me[move.source]:
            where = "the bar" if move.source == BAR else f"point {move.source}"
            raise InvalidPlayError(
                f"play {play!r}: {state.name(state.turn)} has no checker on {where} to play {move}"
            )
        me[move.source] -= 1
        me[move.destination] += 1
        if move.destination and them[BAR - move.destination] == 1:
            them[BAR - move.destination] = 0
            them[BAR] += 1
    board = (tuple(me), tuple(them)) if mover == 0 else (tuple(them), tuple(me))
    return replace(state, board=board)
