"""gnubg Position IDs and Match IDs, and eXtreme Gammon's XGID.

Two of the text forms that analysis programs exchange:

* the gnubg **Position ID** (14 characters, :func:`encode_position_id` and
  :func:`decode_position_id`): the checkers of both sides, the player on roll
  implied;
* the gnubg **Match ID** (12 characters, :class:`MatchId`): cube, score, dice,
  whose turn and the state of the game;
* eXtreme Gammon's **XGID** lives in :mod:`bgledger.rules.xgid`.

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

from bgledger.rules.errors import InvalidMatchIdError, InvalidPositionError

__all__ = [
    "GAME_DROPPED",
    "GAME_NONE",
    "GAME_OVER",
    "GAME_PLAYING",
    "GAME_RESIGNED",
    "MatchId",
    "decode_position_id",
    "encode_position_id",
]

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
        check_side("mover", mover)
        check_side("opponent", opponent)
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
    check_cube("cube_value", match.cube_value, error)
    check_owner(match.cube_owner, error)
    check_range("player_on_roll", match.player_on_roll, 0, 1, error)
    check_range("game_state", match.game_state, GAME_NONE, GAME_DROPPED, error)
    check_range("turn", match.turn, 0, 1, error)
    check_range("resigned", match.resigned, 0, 3, error)
    check_range("match_length", match.match_length, 0, MAX_FIELD, error)
    check_bools(match, error, "crawford", "doubled", "jacoby")
    check_dice(match.dice, error)
    check_score(match.score, match.match_length, error)
    require(
        match.match_length > 0 or not match.crawford,
        error,
        "a money game (match_length 0) has no Crawford game",
    )
