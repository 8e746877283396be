"""eXtreme Gammon's XGID: board and match state in one string.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10``.  Players are numbered
as gnubg numbers them: player ``1`` is eXtreme Gammon's bottom player (``X``,
upper-case checkers, turn ``1``) and player ``0`` the top player (``O``,
lower-case, turn ``-1``), which is how gnubg itself reads an XGID (``SetXGID``
in ``set.c``).  Nothing here does I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bgledger.rules._id_checks import (
    CHECKERS,
    MAX_FIELD,
    check_bools,
    check_cube,
    check_dice,
    check_owner,
    check_range,
    check_score,
    check_side,
    require,
)
from bgledger.rules.errors import InvalidPositionError
from bgledger.rules.ids import GAME_PLAYING, MatchId
from bgledger.rules.position import Position

__all__ = ["Xgid", "decode_xgid", "xgid"]

# -- XGID ------------------------------------------------------------------------
#
# 26 characters from the bottom player's (X's, gnubg's player 1) side: index 0
# is O's bar, 1-24 X's points 1-24 (O's 24-1), 25 X's bar; "-" empty, "A"-"P"
# 1-16 of X's checkers, "a"-"p" 1-16 of O's.  Then, separated by colons: cube
# exponent, cube owner (0 centred, 1 X, -1 O), turn (1 X, -1 O), dice ("00" not
# rolled, "D" doubled, else the two dice), X's score, O's score, rules (match:
# 1 Crawford game; money: 1 Jacoby + 2 beavers), match length (0 money), and
# the exponent of the largest cube allowed.

_UPPER = "-ABCDEFGHIJKLMNOP"
_LOWER = "-abcdefghijklmnop"
_XGID = re.compile(
    r"(?:XGID=)?([-A-Pa-p]{26}):([0-9]{1,2}):(-1|0|1):(-1|1):(D|[0-6]{2})"
    r":([0-9]{1,5}):([0-9]{1,5}):([0-3]):([0-9]{1,5}):([0-9]{1,2})"
)
_XG_OWNER: dict[int | None, int] = {None: 0, 0: -1, 1: 1}
_XG_OWNER_READ: dict[str, int | None] = {"0": None, "-1": 0, "1": 1}


def _xg_board(position: Position, bottom_on_roll: bool) -> str:
    """The 26 board characters of an XGID."""
    if bottom_on_roll:
        bottom, top = position.mover, position.opponent
    else:
        bottom, top = position.opponent, position.mover
    check_side("the bottom player", bottom)
    check_side("the top player", top)
    chars = [_LOWER[top[25]]]
    for point in range(1, 25):
        mine, theirs = bottom[point], top[25 - point]
        if mine and theirs:
            raise InvalidPositionError(
                f"an XGID cannot show point {point} held by both sides: {position!r}"
            )
        chars.append(_UPPER[mine] if mine else _LOWER[theirs])
    chars.append(_UPPER[bottom[25]])
    return "".join(chars)


def _read_xg_board(board: str, bottom_on_roll: bool) -> Position:
    """The position the 26 board characters of an XGID show."""
    if board[0].isupper() or board[25].islower():
        raise InvalidPositionError(f"XGID board {board!r} puts a checker on the wrong side's bar")
    bottom = [0] * 26
    top = [0] * 26
    for index, char in enumerate(board):
        if char.isupper():
            bottom[index] = ord(char) - ord("A") + 1
        elif char.islower():
            top[25 - index] = ord(char) - ord("a") + 1
    for side in (bottom, top):
        side[0] = CHECKERS - sum(side)
        if side[0] < 0:
            raise InvalidPositionError(f"XGID board {board!r} gives a side more than 15 checkers")
    if bottom_on_roll:
        return Position(tuple(bottom), tuple(top))
    return Position(tuple(top), tuple(bottom))


@dataclass(frozen=True, slots=True)
class Xgid:
    """An eXtreme Gammon XGID: a position and the state of the match around it.

    Players are gnubg's: ``1`` is XG's bottom player (X), ``0`` the top player (O).

    :ivar position: the checkers, seen from ``player_on_roll``.
    :ivar player_on_roll: the player on roll; with ``doubled``, the player who doubled.
    :ivar cube_value: the cube (before the double, if ``doubled``).
    :ivar cube_owner: ``None`` if centred, else the owner (before the double).
    :ivar dice: the roll to play, ``(0, 0)`` if not rolled (or ``doubled``).
    :ivar doubled: True if ``player_on_roll`` has doubled and the other must answer.
    :ivar score: points of player 0 and player 1.
    :ivar match_length: 0 for money.
    :ivar crawford: True in the Crawford game (match play only).
    :ivar jacoby: Jacoby rule in force (money only).
    :ivar beavers: beavers allowed (money only).
    :ivar max_cube: the largest cube allowed (XG's last field holds its exponent).
    :raises InvalidPositionError: if a field is out of range or the position cannot
        be shown in an XGID (a point held by both sides, more than 15 checkers a side).
    """

    position: Position
    player_on_roll: int = 1
    cube_value: int = 1
    cube_owner: int | None = None
    dice: tuple[int, int] = (0, 0)
    doubled: bool = False
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 1024

    def __post_init__(self) -> None:
        _check_xgid_fields(self)
        _xg_board(self.position, self.player_on_roll == 1)

    @classmethod
    def decode(cls, text: str) -> Xgid:
        """Read an XGID, with or without its ``XGID=`` prefix.

        :raises InvalidPositionError: if ``text`` is not an XGID with a board of
            at most 15 checkers a side, or uses beaver/raccoon dice (``B``, ``R``).
        """
        found = _XGID.fullmatch(text) if isinstance(text, str) else None
        if found is None:
            raise InvalidPositionError(f"not an XGID: {text!r}")
        board, cube, owner, turn, dice, score_x, score_o, rules, length, top = found.groups()
        bottom_on_roll = turn == "1"
        match_length, flags = int(length), int(rules)
        try:
            require(
                match_length == 0 or flags < 2,
                InvalidPositionError,
                f"the rules field must be 0 or 1 in match play, got {rules!r}",
            )
            return cls(
                position=_read_xg_board(board, bottom_on_roll),
                player_on_roll=int(bottom_on_roll),
                cube_value=1 << int(cube),
                cube_owner=_XG_OWNER_READ[owner],
                dice=(0, 0) if dice == "D" else (int(dice[0]), int(dice[1])),
                doubled=dice == "D",
                score=(int(score_o), int(score_x)),
                match_length=match_length,
                crawford=match_length > 0 and flags == 1,
                jacoby=match_length == 0 and flags & 1 == 1,
                beavers=match_length == 0 and flags & 2 == 2,
                max_cube=1 << int(top),
            )
        except InvalidPositionError as error:
            raise InvalidPositionError(f"XGID {text!r} is not valid: {error}") from error

    def encode(self) -> str:
        """The XGID text, ``XGID=`` prefix included."""
        bottom_on_roll = self.player_on_roll == 1
        if self.match_length:
            rules = int(self.crawford)
        else:
            rules = int(self.jacoby) | int(self.beavers) << 1
        fields = (
            _xg_board(self.position, bottom_on_roll),
            self.cube_value.bit_length() - 1,
            _XG_OWNER[self.cube_owner],
            1 if bottom_on_roll else -1,
            "D" if self.doubled else f"{self.dice[0]}{self.dice[1]}",
            self.score[1],
            self.score[0],
            rules,
            self.match_length,
            self.max_cube.bit_length() - 1,
        )
        return "XGID=" + ":".join(map(str, fields))

    def __str__(self) -> str:
        return self.encode()

    def match_id(self) -> MatchId:
        """The gnubg Match ID gnubg makes of this XGID (game in play, no resignation).

        :raises InvalidMatchIdError: if the cube is beyond 32768.
        """
        return MatchId(
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            player_on_roll=self.player_on_roll,
            crawford=self.crawford,
            game_state=GAME_PLAYING,
            turn=1 - self.player_on_roll if self.doubled else self.player_on_roll,
            doubled=self.doubled,
            dice=self.dice,
            match_length=self.match_length,
            score=self.score,
            jacoby=self.jacoby,
        )


def _check_xgid_fields(found: Xgid) -> None:
    error = InvalidPositionError
    require(
        isinstance(found.position, Position),
        error,
        f"position must be a Position, got {found.position!r}",
    )
    check_range("player_on_roll", found.player_on_roll, 0, 1, error)
    check_cube("cube_value", found.cube_value, error)
    check_cube("max_cube", found.max_cube, error)
    check_owner(found.cube_owner, error)
    check_range("match_length", found.match_length, 0, MAX_FIELD, error)
    check_bools(found, error, "doubled", "crawford", "jacoby", "beavers")
    check_dice(found.dice, error)
    require(
        not found.doubled or found.dice == (0, 0),
        error,
        f"a double is offered before rolling: doubled=True needs dice (0, 0), got {found.dice!r}",
    )
    check_score(found.score, found.match_length, error)
    money_rules = found.jacoby or found.beavers
    require(
        (found.match_length > 0 or not found.crawford)
        and (found.match_length == 0 or not money_rules),
        error,
        f"Crawford is for match play, Jacoby and beavers for money; got match_length "
        f"{found.match_length!r} with crawford={found.crawford!r}, jacoby={found.jacoby!r}, "
        f"beavers={found.beavers!r}",
    )


def xgid(
    position: Position,
    *,
    player_on_roll: int = 1,
    cube_value: int = 1,
    cube_owner: int | None = None,
    dice: tuple[int, int] = (0, 0),
    doubled: bool = False,
    score: tuple[int, int] = (0, 0),
    match_length: int = 0,
    crawford: bool = False,
    jacoby: bool = False,
    beavers: bool = False,
    max_cube: int = 1024,
) -> str:
    """The XGID of ``position`` with ``player_on_roll`` to play; see :class:`Xgid`.

    Players are gnubg's: ``1`` is XG's bottom player (X, upper case, turn ``1``),
    ``0`` the top player (O); ``score`` is ``(player 0, player 1)``.

    >>> xgid(Position.start(), dice=(5, 2))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'

    :raises InvalidPositionError: if a field is out of range or the position cannot
        be shown in an XGID (a point held by both sides, more than 15 checkers a side).
    """
    fields = (cube_value, cube_owner, dice, doubled, score, match_length, crawford, jacoby)
    return Xgid(position, player_on_roll, *fields, beavers, max_cube).encode()


def decode_xgid(text: str) -> Xgid:
    """Read an XGID; see :meth:`Xgid.decode`.

    :raises InvalidPositionError: if ``text`` is not a readable XGID.
    """
    return Xgid.decode(text)
