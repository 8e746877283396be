"""Backgammon positions.

A :class:`Position` is seen from the side of the player on roll, as gnubg sees
it: ``mover`` holds the checkers of the player on roll and ``opponent`` those
of the other player, each counted from its owner's own side.  Index ``0`` is
borne off, ``1`` to ``24`` are the points, ``25`` is the bar, so the indices are
the numbers of the usual notation (``25/20``, ``6/0``).  Point ``p`` of the
mover is point ``25 - p`` of the opponent.

Which of the two players of a match is on roll is the ledger's business; here
"mover" is whoever moves next.  :meth:`Position.swapped` hands the roll over.

A position may be wrong (an error in setup under USBGF 4.2.4, or an impossible
position after an illegal play under USBGF 4.2.3(d)).  It is represented
faithfully, never refused; :meth:`Position.problems` says what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bgledger.rules.errors import InvalidPositionError

OFF = 0
BAR = 25
CHECKERS = 15
HOME = range(1, 7)

Checkers = tuple[int, ...]

_START: Checkers = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def _checkers(name: str, value: Sequence[int]) -> Checkers:
    if len(value) != 26:
        raise InvalidPositionError(
            f"{name} must have 26 entries (off, points 1-24, bar), got {len(value)}: {value!r}"
        )
    counts = tuple(value)
    for index, count in enumerate(counts):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise InvalidPositionError(
                f"{name}[{index}] must be a whole number of checkers, got {count!r}"
            )
    return counts


def _side_problems(label: str, counts: Checkers) -> list[str]:
    total = sum(counts)
    if total != CHECKERS:
        return [f"{label} has {total} checkers, not {CHECKERS}"]
    return []


@dataclass(frozen=True, slots=True)
class Position:
    """Checkers of the player on roll (``mover``) and of the ``opponent``.

    :raises InvalidPositionError: if either side is not 26 non-negative counts.
    """

    mover: Checkers
    opponent: Checkers

    def __post_init__(self) -> None:
        object.__setattr__(self, "mover", _checkers("mover", self.mover))
        object.__setattr__(self, "opponent", _checkers("opponent", self.opponent))

    # -- construction -------------------------------------------------------

    @classmethod
    def start(cls) -> Position:
        """The standard starting position (USBGF 4.2.1)."""
        return cls(_START, _START)

    @classmethod
    def trusted(cls, mover: Sequence[int], opponent: Sequence[int]) -> Position:
        """Build a position from counts already known to be 26 non-negative ints.

        For the legal-play generator's hot path; everything else uses the
        checking constructor.
        """
        made = object.__new__(cls)
        object.__setattr__(made, "mover", tuple(mover))
        object.__setattr__(made, "opponent", tuple(opponent))
        return made

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Decode a gnubg Position ID; borne-off checkers are what the board lacks of 15.

        :raises InvalidPositionError: if ``position_id`` is not a Position ID.
        """
        from bgledger.rules.ids import decode_position_id

        mover, opponent = decode_position_id(position_id)
        return cls(mover, opponent)

    @classmethod
    def from_gnubg_board(cls, board: Sequence[Sequence[int]]) -> Position:
        """From gnubg's ``(opponent, mover)`` pair of 25 counts (index 24 is the bar).

        :raises InvalidPositionError: if ``board`` is not two sequences of 25 counts.
        """
        if len(board) != 2 or any(len(side) != 25 for side in board):
            raise InvalidPositionError(f"a gnubg board is two rows of 25 counts, got {board!r}")
        opp, me = board
        return cls(_with_off(me), _with_off(opp))

    @property
    def position_id(self) -> str:
        """The gnubg Position ID (14 characters); borne-off checkers are implicit in it."""
        from bgledger.rules.ids import encode_position_id

        return encode_position_id(self.mover, self.opponent)

    def to_gnubg_board(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """gnubg's ``(opponent, mover)`` board: 25 counts a side, index 24 the bar."""
        return self.opponent[1:], self.mover[1:]

    def swapped(self) -> Position:
        """The same checkers with the other player on roll."""
        return Position.trusted(self.opponent, self.mover)  # both sides were checked already

    # -- queries -------------------------------------------------------------

    def pip_counts(self) -> tuple[int, int]:
        """Pip counts of ``(mover, opponent)``; a checker on the bar counts 25."""
        return _pips(self.mover), _pips(self.opponent)

    def all_home(self) -> bool:
        """True if every mover checker still in play is in the home board (points 1-6)."""
        return not any(self.mover[7:])

    def opponent_at(self, point: int) -> int:
        """Opponent checkers on the mover's ``point`` (1-24)."""
        return self.opponent[25 - point]

    def is_contact(self) -> bool:
        """True if some checker of one side still has to pass a checker of the other."""
        mover_back = max((i for i in range(1, 26) if self.mover[i]), default=0)
        opp_back = max((i for i in range(1, 26) if self.opponent[i]), default=0)
        return mover_back + opp_back > 25

    def problems(self) -> tuple[str, ...]:
        """What is wrong with this position, in words; empty if nothing is.

        Checks that each side has fifteen checkers and that no point holds
        checkers of both sides (USBGF 4.2.4, 4.2.3(d)).
        """
        found = _side_problems("the player on roll", self.mover)
        found += _side_problems("the opponent", self.opponent)
        for point in range(1, 25):
            if self.mover[point] and self.opponent[25 - point]:
                found.append(f"point {point} holds checkers of both sides")
        return tuple(found)

    def __repr__(self) -> str:
        if not self.problems() and self.mover[OFF] + self.opponent[OFF] == (
            _implied_off(self.mover) + _implied_off(self.opponent)
        ):
            return f"Position.from_id({self.position_id!r})"
        return f"Position(mover={self.mover!r}, opponent={self.opponent!r})"


def _pips(counts: Checkers) -> int:
    return sum(point * counts[point] for point in range(1, 26))


def _implied_off(counts: Checkers) -> int:
    return max(0, CHECKERS - sum(counts[1:]))


def _with_off(on_board: Sequence[int]) -> Checkers:
    """26 counts from 25 (points 1-24 then bar), borne-off being what is missing of 15."""
    return (max(0, CHECKERS - sum(on_board)), *on_board)
