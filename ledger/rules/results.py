"""Game results: single game, gammon or backgammon, and the points they score.

USBGF 4.2.1 incorporates the standard rules (Appendix B): a player who bears
off all his checkers wins; if the loser has borne off none he is gammoned, and
if he also still has a checker on the bar or in the winner's home board he is
backgammoned.  The points are the result's value times the cube.  Under USBGF
4.2.4 a side that started with fewer than fifteen checkers can still lose a
gammon or backgammon, so what counts is the checkers borne off, not fifteen: a
checker missing from the start was never borne off, and one removed from play
by an illegal bear-off does not count either (ABT 4.4: "A player with a
checker illegally removed from play may still be gammoned or backgammoned").
"""

from __future__ import annotations

import enum

from bgledger.rules.errors import RulesError
from bgledger.rules.position import BAR, Checkers, Position


class InvalidResultError(RulesError):
    """Text that names no game result."""


class GameResult(enum.IntEnum):
    """How a game was won; the value is the multiple of the cube it scores."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3

    @classmethod
    def parse(cls, text: str) -> GameResult:
        """``'single'``, ``'gammon'`` or ``'backgammon'`` (any case).

        :raises InvalidResultError: for anything else.
        """
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise InvalidResultError(
                f"{text!r} is not a game result: single, gammon or backgammon"
            ) from None

    def points(self, cube: int) -> int:
        """Points scored with the cube at ``cube``."""
        return int(self) * cube

    def __str__(self) -> str:
        return self.name.lower()


def is_borne_off(side: Checkers) -> bool:
    """True if ``side`` has no checker left on the board or the bar."""
    return not any(side[1:])


def result_against(loser: Checkers, removed: int = 0) -> GameResult:
    """The result a finished game scores against ``loser`` (his own numbering).

    The winner's home board is the loser's points 19-24.  ``removed``: how many
    of the loser's borne-off checkers were removed from play illegally; they do
    not save the gammon.

    >>> lost = (1, *[0] * 11, 14, *[0] * 13)  # one off, fourteen on the 12 point
    >>> str(result_against(lost)), str(result_against(lost, removed=1))
    ('single', 'gammon')
    """
    if loser[0] > removed:
        return GameResult.SINGLE
    if loser[BAR] or any(loser[19:25]):
        return GameResult.BACKGAMMON
    return GameResult.GAMMON


def winner_of(position: Position) -> str | None:
    """``'mover'`` or ``'opponent'`` if that side has borne off every checker, else None."""
    if is_borne_off(position.mover):
        return "mover"
    if is_borne_off(position.opponent):
        return "opponent"
    return None


def final_result(position: Position, removed: tuple[int, int] = (0, 0)) -> GameResult | None:
    """The result of a game that is over in ``position``, or None if nobody has finished.

    ``removed``: the checkers of (mover, opponent) removed from play illegally.
    """
    winner = winner_of(position)
    if winner is None:
        return None
    if winner == "mover":
        return result_against(position.opponent, removed[1])
    return result_against(position.mover, removed[0])
