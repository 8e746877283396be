"""The move lines of a ``.mat`` transcription: two columns, and what each column says.

Part of the syntactic reader :mod:`bgledger.interchange.mat`, which hands each
line of a game that is not a comment, a header or a score line to
:func:`move_actions`.  Nothing is interpreted: plays stay raw text and dice are
not checked against the board.

Column 0 is the left column: gnubg's player 0, whom the reference data
``expected-gnubg.jsonl`` calls ``X``; column 1 is the right one (``O``).  Move
lines are split the way gnubg 1.07 splits them (``ImportGame`` in its
``import.c``): if the line holds a second colon after its fourth character, the
right column starts two characters before that colon, at the dice, and the left
column ends one character earlier; otherwise, if the line is longer than 15
characters, the right column starts after the first two blanks found from index
15 on; otherwise the whole line is the left column.  The left column then starts
after the move number ``N)``.  A line without a move number (``      Wins 2
point``) is split by the same rule, so a ``Wins`` line indented past column 15
belongs to the right player.

An online server writes a forfeit after a play as the line's move number again
and the result, in the right column (`` 24) 43: 21/18 18/14       24)  Losses 2
point       Wins 2 point and the match``) or after a play in that column (``  3)
Takes     53: 8/3 6/3   3)  Losses 2 point   Wins 2 point and the match``):
the repeated number is dropped and the result read as written there (the
importer settles whose game it is: :mod:`bgledger.interchange.written_results`).
A number other than the line's own is refused.  gnubg reads the play on the
left and neither the result nor a play before it in the right column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["NUMBER", "ActionKind", "MatAction", "move_actions", "split_columns"]

ActionKind = Literal[
    "roll", "illegal-play", "double", "beaver", "raccoon", "take", "drop", "win", "loss",
    "concede", "unknown",
]  # fmt: skip
"""What a column of a move line says; see :class:`MatAction`."""

NUMBER = r"[0-9]{1,9}"
"""A count as a ``.mat`` file writes it (a match length, a game number, a score, points)."""

_MOVE_NUMBER = re.compile(r"\s*[0-9]+\)")
_ROLL = re.compile(r"([1-6])([1-6]):\s*(.*)", re.DOTALL)
_ILLEGAL = re.compile(r"illegal\s+play\s*\((.*)\)", re.IGNORECASE | re.DOTALL)
_CUBE = re.compile(rf"(double|beaver|raccoon)s?(?:\s*=>\s*({NUMBER}))?", re.IGNORECASE)
_WIN = re.compile(rf"wins?\s+({NUMBER})\s+points?(\s+and\s+the\s+match)?", re.IGNORECASE)
_LOSS = re.compile(
    rf"(?:loses|losses?)\s+({NUMBER})\s+points?(\s+and\s+the\s+match)?", re.IGNORECASE
)
_RESULT_THEN_MORE = re.compile(
    rf"((?:wins?|loses|losses?)\s+{NUMBER}\s+points?(?:\s+and\s+the\s+match)?)\s{{2,}}(\S.*)",
    re.IGNORECASE | re.DOTALL,
)
_RESULT_AFTER_PLAY = re.compile(
    rf"\s{{2,}}(?:([0-9]+)\)\s*)?((?:wins?|loses|losses?)\s+{NUMBER}\s+points?\b.*)",
    re.IGNORECASE | re.DOTALL,
)
_REPEATED_NUMBER = re.compile(r"([0-9]+)\)\s*(\S.*)", re.DOTALL)
_UNKNOWN = re.compile(r"(?:00:\s*)?\?{3,4}")
_WORDS: dict[str, ActionKind] = {"take": "take", "drop": "drop", "concede": "concede"}
_ANIMALS: dict[str, ActionKind] = {"double": "double", "beaver": "beaver", "raccoon": "raccoon"}


@dataclass(frozen=True)
class MatAction:
    """One thing a column of a move line says, in the order written.

    ``kind`` is one of:

    - ``roll``: ``dice`` and ``play``.  ``play`` is the play text as written,
      stripped (``'13/8 13/11'``); ``''`` when no checker moved (nothing written,
      or ``Cannot Move``); ``None`` when the play was not recorded: XG's ``????``
      (written when the player resigned after rolling) or a roll followed by
      ``Concedes``, which then follows as its own ``concede`` action.
    - ``illegal-play``: Snowie's ``53: Illegal play (...)``: ``dice``, and in
      ``play`` the Snowie position record between the parentheses.
    - ``double``, ``beaver``, ``raccoon``: ``value`` is the cube value offered
      (``Doubles => 2``), ``None`` if not written.
    - ``take``, ``drop``, ``concede``: no data.
    - ``win``: ``value`` is the points (``Wins 2 points``) and ``and_match``
      tells whether ``and the match`` follows.
    - ``loss``: the same, written in the loser's column (``Losses 2 points``,
      ``Loses 2 points``): the other player wins.  A column that holds
      ``Losses N point`` and then ``Wins N point`` gives a ``loss`` and a
      ``win`` in that column; the importer settles whose game it is.  A result
      phrase followed, after two blanks or more, by something else (``Wins 1
      point and the match   43: 24/20 13/10``) gives the result's action and then
      that column's other actions, in the order written.
    - ``unknown``: a turn written as ``????`` or ``00: ????`` with no roll.

    ``raw`` is the column's text as written, stripped.
    """

    line: int
    column: Literal[0, 1]
    kind: ActionKind
    raw: str
    dice: tuple[int, int] | None = None
    play: str | None = None
    value: int | None = None
    and_match: bool = False


def split_columns(line: str) -> tuple[str, str]:
    """Split a move line into its left and right column, as gnubg does.

    See the module docstring for the rule.  The move number ``N)`` stays in the
    left column; the texts are not stripped.

    :param line: a move line, without its line break.
    :returns: the left and the right column (``''`` when there is none).
    """
    first = line.find(":")
    second = line.find(":", first + 1) if first >= 0 else -1
    if second > 3:
        return line[: second - 3], line[second - 2 :]
    gap = line.find("  ", 15) if len(line) > 15 else -1
    if gap >= 0:
        return line[:gap], line[gap + 1 :]
    return line, ""


def move_actions(number: int, line: str) -> list[MatAction]:
    """Read the actions of move line ``number``, left column first.

    :param number: the 1-based line number, kept in each action.
    :param line: the line, without its line break.
    :raises ValueError: with the reason and the column, if a column is not understood.
    """
    left, right = split_columns(line)
    move = None
    if move_number := _MOVE_NUMBER.match(left):
        left, move = left[move_number.end() :], int(move_number[0].strip()[:-1])
    actions: list[MatAction] = []
    columns: tuple[tuple[Literal[0, 1], str], ...] = ((0, left), (1, right))
    for column, text in columns:
        try:
            actions.extend(_column(_unrepeated(text.strip(), move), number, column, move))
        except ValueError as exc:
            side = "right" if column else "left"
            raise ValueError(f"{exc} in the {side} column") from None
    return actions


def _unrepeated(text: str, move: int | None) -> str:
    """``text`` without the line's move number written again before it (``24)  Losses 2 point``).

    :raises ValueError: for another move number there.
    """
    repeated = _REPEATED_NUMBER.fullmatch(text)
    if repeated is None:
        return text
    if move is None or int(repeated[1]) != move:
        line = "no move number" if move is None else f"move number {move})"
        raise ValueError(f"{repeated[1]}) in a line of {line}: {text!r}")
    return repeated[2]


def _column(
    text: str, number: int, column: Literal[0, 1], move: int | None = None
) -> list[MatAction]:
    """Read the actions of one column's stripped text (``move``: the line's move number).

    :raises ValueError: with the reason, if the text is not understood.
    """
    if not text:
        return []
    if roll := _ROLL.fullmatch(text):
        return _roll(roll, number, column, move)
    if cube := _CUBE.fullmatch(text):
        value = int(cube[2]) if cube[2] else None
        return [MatAction(number, column, _ANIMALS[cube[1].lower()], text, value=value)]
    if win := _WIN.fullmatch(text):
        return [MatAction(number, column, "win", text, value=int(win[1]), and_match=bool(win[2]))]
    if loss := _LOSS.fullmatch(text):
        return [
            MatAction(number, column, "loss", text, value=int(loss[1]), and_match=bool(loss[2]))
        ]
    if more := _RESULT_THEN_MORE.fullmatch(text):
        # A result phrase and, after two blanks or more, what else the column holds, in the
        # order written.  An online server writes ``Losses 2 point   Wins 2 point and the
        # match`` as one column (its numbered result line; gnubg's ParseMatMove reads
        # neither), and a forfeit beside a move as ``Losses 1 point   Wins 1 point and the
        # match   43: 24/20 13/10``, which gnubg's split leaves as ``Wins 1 point and the
        # match   43: 24/20 13/10`` in the right column: gnubg reads the ``Wins`` (its
        # ``atoi`` stops at the points) and nothing after it.  The importer records the win
        # and reports what follows it as written after the end of the game.
        return [*_column(more[1], number, column), *_column(more[2], number, column)]
    if _UNKNOWN.fullmatch(text):
        return [MatAction(number, column, "unknown", text)]
    if kind := _WORDS.get(text.lower().removesuffix("s")):
        return [MatAction(number, column, kind, text)]
    raise ValueError(f"unrecognised action {text!r}")


def _roll(
    roll: re.Match[str], number: int, column: Literal[0, 1], move: int | None
) -> list[MatAction]:
    """Read ``53: play`` (and its variants: ``Cannot Move``, ``????``, ``Concedes``)."""
    text, rest = roll[0], roll[3].strip()
    dice = (int(roll[1]), int(roll[2]))
    if after := _RESULT_AFTER_PLAY.search(rest):
        if after[1] is not None:
            _unrepeated(f"{after[1]}) {after[2]}", move)  # the line's number again, or refused
        # ``43: 24/20 13/10   Losses 1 point   Wins 1 point and the match``: a play and the
        # result written after it in one column.  gnubg's ParseMove fails on the whole text,
        # and ParseMatMove then drops the roll and the result as one unrecognised move.
        head = roll[0][: roll.start(3)] + rest[: after.start()]
        return [*_column(head.strip(), number, column), *_column(after[2], number, column)]
    if illegal := _ILLEGAL.fullmatch(rest):
        return [MatAction(number, column, "illegal-play", text, dice, illegal[1].strip())]
    if rest.lower().startswith("illegal play"):
        raise ValueError(f"no '(position)' after 'Illegal play' in {text!r}")
    if rest.lower() == "concedes":
        return [
            MatAction(number, column, "roll", text, dice, None),
            MatAction(number, column, "concede", text),
        ]
    if re.fullmatch(r"\?{3,4}", rest):
        return [MatAction(number, column, "roll", text, dice, None)]
    if re.fullmatch(r"(?i)cannot\s+move", rest):
        return [MatAction(number, column, "roll", text, dice, "")]
    return [MatAction(number, column, "roll", text, dice, rest)]
