"""gnubg Position IDs and Match IDs, and eXtreme Gammon's XGID.

Three text forms that analysis programs exchange:

* the gnubg **Position ID** (14 characters, :func:`encode_position_id` and
  :func:`decode_position_id`): the checkers of both sides, the player on roll
  implied;
* the gnubg **Match ID** (12 characters, :class:`MatchId`): cube, score, dice,
  whose turn and the state of the game;
* eXtreme Gammon's **XGID** (:class:`Xgid`, :func:`xgid`, :func:`decode_xgid`):
  board and match state in one string, ``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10``.

Players are numbered as gnubg numbers them, ``0`` and ``1``.  In an XGID,
player ``1`` is eXtreme Gammon's bottom player (``X``, upper-case checkers,
turn ``1``) and player ``0`` the top player (``O``, lower-case, turn ``-1``):
that is how gnubg itself reads an XGID.

Layouts follow gnubg's ``positionid.c`` and ``matchid.c`` (gnubg 1.06 and
later) and its reader of XGIDs (``SetXGID`` in ``set.c``).  Nothing here does
I/O.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeGuard

from ledger.rules.errors import InvalidMatchIdError, InvalidPositionError, RulesError
from ledger.rules.position import Position

__all__ = [
    "GAME_DROPPED",
    "GAME_NONE",
    "GAME_OVER",
    "GAME_PLAYING",
    "GAME_RESIGNED",
    "MatchId",
    "Xgid",
    "decode_position_id",
    "decode_xgid",
    "encode_position_id",
    "xgid",
]

CHECKERS = 15
MAX_CUBE = 1 << 15
"""The largest cube a Match ID can hold (its cube field is a 4-bit exponent)."""
MAX_FIELD = (1 << 15) - 1
"""The largest match length or score a Match ID can hold (15-bit fields)."""

# gnubg's ``gamestate`` enum, the Match ID's game-state field.
GAME_NONE = 0
GAME_PLAYING = 1
GAME_OVER = 2
GAME_RESIGNED = 3
GAME_DROPPED = 4

Side = tuple[int, ...]

# -- Position ID ---------------------------------------------------------------
#
# The key is a stream of 80 bits: for each of gnubg's 50 slots (the 25 of
# anBoard[0], the player *not* on roll, points 1-24 then the bar; then the 25
# of anBoard[1], the player on roll) as many 1 bits as checkers, then a 0.
# Stream bit n is bit n % 8 of byte n // 8, so the key is the little-endian
# integer whose bit n is stream bit n.  Written as a binary numeral, most
# significant digit first, the stream reads backwards: slot 49 first, each slot
# as "0" followed by its ones.

_RUNS: dict[int, str] = {count: "0" + "1" * count for count in range(CHECKERS + 1)}
_POSITION_ID = re.compile(r"[A-Za-z0-9+/]{13}[AQgw]")
_SLOTS = 50


def _check_side(name: str, side: Sequence[int]) -> None:
    """Refuse a side that no Position ID (nor XGID) can hold.

    :raises InvalidPositionError: if ``side`` is not 26 counts with 0 to 15
        checkers, none negative, on points and bar.
    """
    if len(side) != 26:
        raise InvalidPositionError(
            f"{name} must have 26 entries (off, points 1-24, bar), got {len(side)}: {side!r}"
        )
    try:
        fits = all(count in _RUNS for count in side[1:]) and sum(side[1:]) <= CHECKERS
    except TypeError:
        fits = False
    if not fits:
        raise InvalidPositionError(
            f"{name} must have 0 to {CHECKERS} checkers on points and bar, got {side!r}"
        )


def encode_position_id(mover: Sequence[int], opponent: Sequence[int]) -> str:
    """The gnubg Position ID of a board (14 characters of base64, no padding).

    :param mover: 26 counts of the player on roll (off, points 1-24, bar).
    :param opponent: 26 counts of the other player, in that player's numbering.
    :returns: the Position ID; borne-off counts (index 0) are not part of it.
    :raises InvalidPositionError: if a side is not 26 whole numbers or has more
        than 15 checkers (or a negative count) on points and bar.
    """
    try:
        me, them = mover[25:0:-1], opponent[25:0:-1]
        numeral = "".join([_RUNS[count] for count in (*me, *them)])
        fits = sum(me) <= CHECKERS and sum(them) <= CHECKERS
    except (KeyError, TypeError):  # a count below 0 or above 15, or not a count
        fits = False
    if not fits or len(mover) != 26 or len(opponent) != 26:
        _check_side("mover", mover)
        _check_side("opponent", opponent)
        raise InvalidPositionError(f"no Position ID for {mover!r} and {opponent!r}")
    key = int(numeral, 2).to_bytes(10, "little")
    return binascii.b2a_base64(key, newline=False)[:14].decode("ascii")


def decode_position_id(position_id: str) -> tuple[Side, Side]:
    """The ``(mover, opponent)`` counts of a gnubg Position ID.

    Each side is 26 counts in its owner's numbering: index 0 borne off (15
    less the checkers on the board), 1-24 the points, 25 the bar.  Points held
    by both sides are decoded as written (gnubg would refuse them).

    :param position_id: exactly 14 base64 characters, as gnubg writes them.
    :raises InvalidPositionError: if ``position_id`` is not 14 base64 characters,
        sets bits beyond the 80 of the key, or gives a side more than 15 checkers.
    """
    if not isinstance(position_id, str) or not _POSITION_ID.fullmatch(position_id):
        raise InvalidPositionError(
            f"a Position ID is 14 base64 characters ending in A, Q, g or w, got {position_id!r}"
        )
    key = int.from_bytes(binascii.a2b_base64(position_id + "=="), "little")
    pieces = format(key, "080b")[::-1].split("0")
    if len(pieces) <= _SLOTS or any(pieces[_SLOTS:]):
        raise InvalidPositionError(f"Position ID {position_id!r} holds more than 30 checkers")
    counts = tuple(map(len, pieces[:_SLOTS]))
    them, me = counts[:25], counts[25:]
    if sum(them) > CHECKERS or sum(me) > CHECKERS:
        raise InvalidPositionError(
            f"Position ID {position_id!r} gives a side more than {CHECKERS} checkers"
        )
    return (CHECKERS - sum(me), *me), (CHECKERS - sum(them), *them)


# -- shared checks ---------------------------------------------------------------


def _whole(value: object, low: int, high: int) -> TypeGuard[int]:
    """True if ``value`` is an ``int`` (not a ``bool``) from ``low`` to ``high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _require(ok: bool, error: type[RulesError], message: str) -> None:
    if not ok:
        raise error(message)


def _check_range(name: str, value: object, low: int, high: int, error: type[RulesError]) -> None:
    _require(
        _whole(value, low, high),
        error,
        f"{name} must be a whole number from {low} to {high}, got {value!r}",
    )


def _check_cube(name: str, value: object, error: type[RulesError]) -> None:
    _require(
        _whole(value, 1, MAX_CUBE) and value & (value - 1) == 0,
        error,
        f"{name} must be a power of 2 from 1 to {MAX_CUBE}, got {value!r}",
    )


def _check_owner(value: object, error: type[RulesError]) -> None:
    _require(
        value is None or _whole(value, 0, 1),
        error,
        f"cube_owner must be None (centred), 0 or 1, got {value!r}",
    )


def _check_bools(owner: object, error: type[RulesError], *names: str) -> None:
    for name in names:
        value = getattr(owner, name)
        _require(isinstance(value, bool), error, f"{name} must be True or False, got {value!r}")


def _check_pair(name: str, value: object, high: int, error: type[RulesError]) -> None:
    _require(
        isinstance(value, tuple) and len(value) == 2 and all(_whole(n, 0, high) for n in value),
        error,
        f"{name} must be a tuple of two whole numbers from 0 to {high}, got {value!r}",
    )


def _check_dice(value: object, error: type[RulesError]) -> None:
    _require(
        isinstance(value, tuple)
        and (value == (0, 0) or (len(value) == 2 and all(_whole(n, 1, 6) for n in value))),
        error,
        f"dice must be a tuple of two numbers from 1 to 6, or (0, 0) if not rolled, got {value!r}",
    )


def _check_score(score: tuple[int, int], match_length: int, error: type[RulesError]) -> None:
    _check_pair("score", score, MAX_FIELD, error)
    _require(
        match_length == 0 or max(score) <= match_length,
        error,
        f"score {score!r} is beyond the match length {match_length!r}",
    )


# -- Match ID --------------------------------------------------------------------

_MATCH_ID = re.compile(r"[A-Za-z0-9+/]{12}")


@dataclass(frozen=True, slots=True)
class MatchId:
    """A gnubg Match ID: the 67-bit match key (bits 0-66 of 9 bytes) in 12 base64 characters.

    Players are gnubg's ``0`` and ``1``.  The fields, in the key's bit order:

    :ivar cube_value: the cube, a power of 2 up to 32768.
    :ivar cube_owner: ``None`` if the cube is centred, else the player who owns it.
    :ivar player_on_roll: the player on roll, or who has just rolled (gnubg's ``fMove``).
    :ivar crawford: True in the Crawford game.
    :ivar game_state: gnubg's ``gamestate``: :data:`GAME_NONE` (0), :data:`GAME_PLAYING`
        (1), :data:`GAME_OVER` (2), :data:`GAME_RESIGNED` (3), :data:`GAME_DROPPED` (4).
    :ivar turn: the player to make the next decision (gnubg's ``fTurn``): after a
        double or a resignation offer, the opponent of the player on roll.
    :ivar doubled: True while a double is offered.
    :ivar resigned: the resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon.
    :ivar dice: the roll, higher die first (gnubg writes it so, and the order
        given is normalised to it); ``(0, 0)`` if not rolled.
    :ivar match_length: points to win the match; 0 for a money game.
    :ivar score: points of player 0 and player 1.
    :ivar jacoby: gnubg's ``fJacoby`` (the key stores its negation, in bit 66).
    :raises InvalidMatchIdError: if a field is out of range, the score is beyond the
        match length, or a money game is marked Crawford.
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: int = GAME_PLAYING
    turn: int = 0
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        _check_match_fields(self)
        high, low = self.dice
        if high < low:
            object.__setattr__(self, "dice", (low, high))

    @classmethod
    def decode(cls, match_id: str) -> MatchId:
        """Read a Match ID.

        :param match_id: exactly 12 base64 characters, as gnubg writes them.
        :raises InvalidMatchIdError: if ``match_id`` is not 12 base64 characters,
            sets bits gnubg never sets (a cube owner of 2, bits 67-71), or
            holds a field :class:`MatchId` refuses (dice of 7, game state 5...).
        """
        if not isinstance(match_id, str) or not _MATCH_ID.fullmatch(match_id):
            raise InvalidMatchIdError(f"a Match ID is 12 base64 characters, got {match_id!r}")
        key = int.from_bytes(binascii.a2b_base64(match_id), "little")
        owner = key >> 4 & 3
        if owner == 2 or key >> 67:
            raise InvalidMatchIdError(f"Match ID {match_id!r} sets bits gnubg never sets")
        try:
            return cls(
                cube_value=1 << (key & 15),
                cube_owner=None if owner == 3 else owner,
                player_on_roll=key >> 6 & 1,
                crawford=bool(key >> 7 & 1),
                game_state=key >> 8 & 7,
                turn=key >> 11 & 1,
                doubled=bool(key >> 12 & 1),
                resigned=key >> 13 & 3,
                dice=(key >> 15 & 7, key >> 18 & 7),
                match_length=key >> 21 & MAX_FIELD,
                score=(key >> 36 & MAX_FIELD, key >> 51 & MAX_FIELD),
                jacoby=not key >> 66 & 1,
            )
        except InvalidMatchIdError as error:
            raise InvalidMatchIdError(f"Match ID {match_id!r} is not valid: {error}") from error

    def encode(self) -> str:
        """The Match ID, 12 characters, exactly as gnubg's ``MatchID()`` writes it."""
        owner = 3 if self.cube_owner is None else self.cube_owner
        key = (
            (self.cube_value.bit_length() - 1)
            | owner << 4
            | self.player_on_roll << 6
            | int(self.crawford) << 7
            | self.game_state << 8
            | self.turn << 11
            | int(self.doubled) << 12
            | self.resigned << 13
            | self.dice[0] << 15
            | self.dice[1] << 18
            | self.match_length << 21
            | self.score[0] << 36
            | self.score[1] << 51
            | int(not self.jacoby) << 66
        )
        return binascii.b2a_base64(key.to_bytes(9, "little"), newline=False).decode("ascii")

    def __str__(self) -> str:
        return self.encode()

    def __repr__(self) -> str:
        return f"MatchId.decode({self.encode()!r})"


def _check_match_fields(match: MatchId) -> None:
    error = InvalidMatchIdError
    _check_cube("cube_value", match.cube_value, error)
    _check_owner(match.cube_owner, error)
    _check_range("player_on_roll", match.player_on_roll, 0, 1, error)
    _check_range("game_state", match.game_state, GAME_NONE, GAME_DROPPED, error)
    _check_range("turn", match.turn, 0, 1, error)
    _check_range("resigned", match.resigned, 0, 3, error)
    _check_range("match_length", match.match_length, 0, MAX_FIELD, error)
    _check_bools(match, error, "crawford", "doubled", "jacoby")
    _check_dice(match.dice, error)
    _check_score(match.score, match.match_length, error)
    _require(
        match.match_length > 0 or not match.crawford,
        error,
        "a money game (match_length 0) has no Crawford game",
    )


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
    _check_side("the bottom player", bottom)
    _check_side("the top player", top)
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
            _require(
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
    _require(
        isinstance(found.position, Position),
        error,
        f"position must be a Position, got {found.position!r}",
    )
    _check_range("player_on_roll", found.player_on_roll, 0, 1, error)
    _check_cube("cube_value", found.cube_value, error)
    _check_cube("max_cube", found.max_cube, error)
    _check_owner(found.cube_owner, error)
    _check_range("match_length", found.match_length, 0, MAX_FIELD, error)
    _check_bools(found, error, "doubled", "crawford", "jacoby", "beavers")
    _check_dice(found.dice, error)
    _require(
        not found.doubled or found.dice == (0, 0),
        error,
        f"a double is offered before rolling: doubled=True needs dice (0, 0), got {found.dice!r}",
    )
    _check_score(found.score, found.match_length, error)
    money_rules = found.jacoby or found.beavers
    _require(
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
