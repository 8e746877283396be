"""Terminal views of a match: the board diagram, a one-line summary, the games table.

Pure functions from a :class:`~projections.state.MatchState` to text; the
commands print them.  The board is drawn as GNU Backgammon draws its ASCII
board, from one player's side: his checkers are ``X`` and he moves from his
24 point (top right) round to his 1 point (bottom right); the opponent's are
``O``.  Each side's checkers are counted in its own numbering, so the
opponent's point ``p`` is the viewer's point ``25 - p``.

A point shows up to five checkers; a taller stack shows four and then its
count.  Checkers on the bar are drawn in the bar column (``O`` above, ``X``
below, as gnubg has them) and borne-off checkers are counted beside the board,
so every one of a side's fifteen checkers can be found in the diagram.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger._decide import situation
from ledger.rules.position import BAR, OFF
from projections.audit import score_text
from projections.state import Crawford, GameRecord, MatchState, Phase, other, seat
from projections.summary import gnubg_match_id

__all__ = ["board_diagram", "brief", "games_table", "resolve_viewer"]

_STACK = 5
"""Checkers drawn on a point before the stack shows its count instead."""

_TOP = (range(13, 19), range(19, 25))
_BOTTOM = (range(12, 6, -1), range(6, 0, -1))
_INDENT = "   "

_ACTING = {
    Phase.ROLL: "on roll",
    Phase.REROLL: "to roll again",
    Phase.DOUBLED: "to take or drop",
    Phase.RESIGNED: "to accept or reject",
    Phase.PREMATURE_ROLL: "to accept or refuse the early roll",
}


# -- the board ------------------------------------------------------------------


def board_diagram(state: MatchState, viewer: str | None = None) -> str:
    """The board from ``viewer``'s side, with the score, cube, dice and what happens next.

    ``viewer`` is ``'a'``, ``'b'`` or a player's name; by default the player
    on roll, else ``a``.

    :raises ValueError: if ``viewer`` is neither a player nor a player's name.
    """
    me = resolve_viewer(state, viewer)
    grid = _grid(state.board[seat(me)], state.board[seat(other(me))])
    panel = _panel(state, me)
    ids = f" Position ID: {state.position.position_id}   Match ID: {gnubg_match_id(state)}"
    beside = [f"{row}{_INDENT}{note}".rstrip() for row, note in zip(grid, panel, strict=True)]
    return "\n".join([ids, *beside, *_footer(state, me)])


def resolve_viewer(state: MatchState, viewer: str | None) -> str:
    """``'a'`` or ``'b'`` for ``viewer``: a player, a player's name, or ``None`` (on roll).

    :raises ValueError: if ``viewer`` is neither a player nor a player's name.
    """
    if viewer is None:
        return state.turn or "a"
    if viewer in ("a", "b"):
        return viewer
    for player in ("a", "b"):
        if state.name(player).casefold() == viewer.strip().casefold():
            return player
    names = f"{state.players[0]!r} or {state.players[1]!r}"
    raise ValueError(f"viewer {viewer!r}: 'a', 'b', {names}")


def _cell(mine: int, theirs: int, level: int) -> str:
    """One point's (or the bar's) slot at ``level`` (0 at the edge of the board)."""
    stack = "X" * mine + "O" * theirs
    if level == _STACK - 1 and len(stack) > _STACK:
        return f"{len(stack):^3}"
    return f" {stack[level]} " if level < len(stack) else "   "


def _row(mine: Sequence[int], theirs: Sequence[int], top: bool, level: int) -> str:
    halves = _TOP if top else _BOTTOM
    left, right = ("".join(_cell(mine[p], theirs[BAR - p], level) for p in half) for half in halves)
    bar = _cell(0, theirs[BAR], level) if top else _cell(mine[BAR], 0, level)
    return f" |{left}|{bar}|{right}|"


def _numbers(points: tuple[range, range]) -> str:
    left, right = ("".join(f"{p:->2}-" for p in half) for half in points)
    return f" +{left}-----{right}+"


def _grid(mine: Sequence[int], theirs: Sequence[int]) -> list[str]:
    """The 13 lines of the board: numbers, 5 rows, the bar line, 5 rows, numbers."""
    top = [_row(mine, theirs, True, level) for level in range(_STACK)]
    bottom = [_row(mine, theirs, False, level) for level in reversed(range(_STACK))]
    bar = " |" + " " * 18 + "|BAR|" + " " * 18 + "|"
    return [_numbers(_TOP), *top, bar, *bottom, _numbers(_BOTTOM)]


# -- beside and below the board ---------------------------------------------------


def _panel(state: MatchState, me: str) -> list[str]:
    """What is written beside each of the 13 lines of the grid."""
    them = _side(state, other(me), "O")
    mine = _side(state, me, "X")
    return [*them, "", "", _centre(state), "", "", *reversed(mine)]


def _side(state: MatchState, player: str, symbol: str) -> list[str]:
    """Beside the player's half, outward in: his name and score, pips, the cube, his turn."""
    index = seat(player)
    owns = state.cube_owner == player and not _crawford_game(state)
    return [
        f"{symbol}: {state.name(player)}, {state.score[index]} of {state.length}",
        f"pips {state.pips()[index]}, off {state.board[index][OFF]}",
        f"cube {state.cube}" if owns else "",
        _acting(state, player),
    ]


def _acting(state: MatchState, player: str) -> str:
    if state.actor != player:
        return ""
    if state.phase is Phase.PLAY and state.dice:
        return f"rolled {state.dice[0]}-{state.dice[1]}: to move"
    return _ACTING.get(state.phase, "")


def _centre(state: MatchState) -> str:
    """The cube when it is in the middle: centred, offered, or out of play."""
    if _crawford_game(state):
        return "no cube: Crawford game"
    if state.phase is Phase.DOUBLED and state.offer is not None and state.turn is not None:
        return f"cube offered at {state.offer} by {state.name(state.turn)}"
    return f"cube {state.cube}, centred" if state.cube_owner is None else ""


def _crawford_game(state: MatchState) -> bool:
    return state.crawford_rule and state.crawford is Crawford.CRAWFORD


def _crawford_status(state: MatchState) -> str:
    if not state.crawford_rule:
        return "no Crawford rule"
    if state.crawford is Crawford.POST:
        return "post-Crawford"
    if state.crawford is Crawford.CRAWFORD:
        return "Crawford game" if state.in_game else "next game is the Crawford game"
    return "pre-Crawford"


def _footer(state: MatchState, me: str) -> list[str]:
    legend = f" X = {state.name(me)}, O = {state.name(other(me))}, from {state.name(me)}'s side"
    match = f" {state.length}-point match · {score_text(state)} · {_crawford_status(state)}"
    if state.game:
        match += f" · game {state.game}"
    lines = [legend, match, f" {situation(state)}"]
    problems = state.position.problems()
    if problems:
        lines.append(" wrong position: " + "; ".join(problems))
    return lines


# -- one line, and the games ------------------------------------------------------------


def brief(state: MatchState) -> str:
    """One line after each recorded action: game, score, cube and what happens next.

    E.g. ``game 2 · Ann 3, Bob 1 (to 7) · cube 2 Bob · Ann has rolled 5-2 and must move``.
    """
    parts = [f"game {state.game}"] if state.game else []
    parts.append(f"{score_text(state)} (to {state.length})")
    if _crawford_game(state):
        parts.append("Crawford game")
    else:
        owner = f" {state.name(state.cube_owner)}" if state.cube_owner else ""
        parts.append(f"cube {state.cube}{owner}")
    parts.append(situation(state))
    return " · ".join(parts)


_HOW = {"played": "played", "drop": "dropped", "resign": "resigned"}


def games_table(state: MatchState) -> str:
    """The finished games as a score sheet has them (USBGF 4.7), the Crawford game marked."""
    if not state.games:
        return "no game finished yet"
    header = ["game", "winner", "result", "cube", "points", "how", *state.players, ""]
    rows = [header, *(_game_row(state, game) for game in state.games)]
    numeric = {0, 3, 4, 6, 7}
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.rjust(width) if i in numeric else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
    return "\n".join(lines)


def _game_row(state: MatchState, game: GameRecord) -> list[str]:
    return [
        str(game.number),
        state.name(game.winner),
        game.result,
        str(game.cube),
        str(game.points),
        _HOW.get(game.how, game.how),
        str(game.score[0]),
        str(game.score[1]),
        "Crawford" if game.crawford else "",
    ]
