"""Positions: the start, pip counts, faithful wrong positions, results."""

from __future__ import annotations

import pytest

from bgledger.rules.errors import InvalidPositionError
from bgledger.rules.position import Position
from bgledger.rules.results import GameResult, InvalidResultError, final_result, winner_of
from tests.conftest import board


def test_the_starting_position() -> None:
    start = Position.start()
    assert start.mover == start.opponent
    assert {p: n for p, n in enumerate(start.mover) if n} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert start.pip_counts() == (167, 167)
    assert start.problems() == ()
    assert start.position_id == "4HPwATDgc/ABMA"
    assert start.is_contact()


def test_pips_count_the_bar_as_25() -> None:
    assert board({25: 1, 6: 14}, {1: 15}).pip_counts() == (25 + 6 * 14, 15)


def test_wrong_positions_are_kept_and_described() -> None:
    extra = board({6: 6, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert extra.mover[6] == 6
    assert extra.problems() == ("the player on roll has 16 checkers, not 15",)
    shared = board({19: 1, 6: 14}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert shared.problems() == ("point 19 holds checkers of both sides",)


def test_repr_round_trips_for_right_and_wrong_positions() -> None:
    for position in (Position.start(), board({6: 16}, {1: 2})):
        assert eval(repr(position)) == position
    assert repr(Position.start()) == "Position.from_id('4HPwATDgc/ABMA')"


def test_malformed_counts_are_refused() -> None:
    with pytest.raises(InvalidPositionError, match="26 entries"):
        Position((0,) * 25, (0,) * 26)
    with pytest.raises(InvalidPositionError, match="whole number"):
        Position((-1,) + (0,) * 25, (0,) * 26)


def test_gnubg_board_round_trip() -> None:
    position = board({25: 1, 6: 4, 1: 2}, {24: 3, 13: 2})
    assert Position.from_gnubg_board(position.to_gnubg_board()) == position
    assert position.to_gnubg_board()[1][24] == 1  # the mover's bar is gnubg's index 24


def test_swapped_hands_over_the_roll() -> None:
    position = board({6: 15}, {1: 15})
    assert position.swapped().mover == position.opponent
    assert position.swapped().swapped() == position


@pytest.mark.parametrize(
    ("loser", "result"),
    [
        ({1: 14}, GameResult.SINGLE),  # one borne off
        ({6: 15}, GameResult.GAMMON),
        ({7: 14, 19: 1}, GameResult.BACKGAMMON),  # in the winner's home board
        ({25: 1, 6: 14}, GameResult.BACKGAMMON),  # on the bar
    ],
)
def test_game_results(loser: dict[int, int], result: GameResult) -> None:
    finished = board({}, loser)  # the loser's missing checkers count as borne off
    assert winner_of(finished) == "mover"
    assert final_result(finished) is result
    assert final_result(finished.swapped()) is result


def test_a_side_short_of_checkers_can_still_be_gammoned() -> None:
    """USBGF 4.2.4: a player who started with fewer than 15 checkers."""
    short = Position((15,) + (0,) * 25, (0, 0, 0, 0, 0, 0, 14) + (0,) * 19)
    assert final_result(short) is GameResult.GAMMON


def test_points_are_result_times_cube() -> None:
    assert GameResult.GAMMON.points(4) == 8
    assert GameResult.BACKGAMMON.points(2) == 6
    assert GameResult.parse("Gammon") is GameResult.GAMMON
    with pytest.raises(InvalidResultError, match="'triple'"):
        GameResult.parse("triple")


def test_nobody_has_won_a_game_in_progress() -> None:
    assert final_result(Position.start()) is None
