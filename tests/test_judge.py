"""Judging recorded plays: legal, or illegal with the reason a director would give.

Every position here is built by hand and every verdict checked by hand
against the rules (USBGF 4.2.3; Appendix B).
"""

from __future__ import annotations

import pytest

from bgledger.rules.errors import InvalidDiceError, InvalidPlayError
from bgledger.rules.judge import judge
from bgledger.rules.legal import legal_plays
from bgledger.rules.notation import Play
from bgledger.rules.position import Position
from tests.conftest import board

START = Position.start()


def verdict(position: Position, dice: tuple[int, int], text: str) -> tuple[bool, str | None]:
    found = judge(position, dice, Play.parse(text))
    return found.legal, found.reason


@pytest.mark.parametrize(
    ("dice", "text", "canonical"),
    [
        ((3, 1), "8/5 6/5", "8/5 6/5"),
        ((3, 1), "8/5* 6/5*", "8/5 6/5"),  # stars where no blot stood are ignored
        ((5, 2), "13/8 13/11", "13/11 13/8"),
        ((5, 2), "13/6", "13/6"),  # consolidated: 13/8/6 or 13/11/6
        ((6, 1), "13/6", "13/6"),  # 13/12 is blocked but 13/7/6 is open
        ((6, 5), "24/18/13", "24/13"),
        ((6, 6), "24/18(2) 13/7(2)", "24/18(2) 13/7(2)"),
    ],
)
def test_legal_plays_are_recognised_in_any_dialect(
    dice: tuple[int, int], text: str, canonical: str
) -> None:
    found = judge(START, dice, Play.parse(text))
    assert (found.legal, found.reason, found.rule) == (True, None, None)
    assert str(found.play) == canonical


def test_an_intermediate_hit_is_taken_only_when_written() -> None:
    position = board({11: 1, 6: 14}, {20: 1, 1: 2, 24: 12})  # opponent's 20 is our 5
    quiet = judge(position, (6, 1), Play.parse("11/4"))
    hitting = judge(position, (6, 1), Play.parse("11/5*/4"))
    assert quiet.legal and hitting.legal
    assert str(quiet.play) == "11/4" and quiet.result.mover[25] == 0
    assert str(hitting.play) == "11/5*/4" and hitting.result.mover[25] == 1


def test_a_checker_on_the_bar_must_enter_first() -> None:
    position = board({25: 1, 13: 4, 6: 10}, {6: 5, 8: 3, 13: 5, 24: 2})
    legal, reason = verdict(position, (6, 5), "13/7 13/8")
    assert not legal
    assert reason == "a checker is still on the bar when 13/8 is played"


def test_landing_on_a_held_point() -> None:
    found = judge(START, (5, 2), Play.parse("24/19 13/11"))
    assert not found.legal
    assert found.reason == "24/19 lands on 19, held by the opponent"
    assert found.rule == "USBGF 4.2.3(a)"
    # the checker is recorded where it was put: an impossible position, USBGF 4.2.3(d)
    assert found.impossible == ("point 19 holds checkers of both sides",)


def test_bearing_off_with_a_checker_outside_is_unrelated_to_the_dice() -> None:
    found = judge(START, (6, 4), Play.parse("24/18 6/off"))
    assert not found.legal
    assert found.reason == "6/off bears off with a checker outside the home board (on point 24)"
    assert found.rule == "USBGF 4.2.3(e)"


def test_both_dice_must_be_used() -> None:
    legal, reason = verdict(START, (5, 2), "13/8")
    assert not legal
    assert reason is not None and reason.startswith("does not use both dice: ")
    example = reason.removeprefix("does not use both dice: ").removesuffix(" was possible")
    assert judge(START, (5, 2), Play.parse(example)).legal
    assert "13/8" in example


def test_doubles_must_be_played_four_times_when_possible() -> None:
    legal, reason = verdict(START, (2, 2), "13/11(2)")
    assert not legal
    assert reason is not None and reason.startswith("plays 2 of the 4 dice that can be played: ")


def test_the_larger_die_when_only_one_can_be_played() -> None:
    # One checker left on our 24; the opponent holds our 17 (his 8): 6-1 lets
    # either die play, never both, so the 6 must be played.
    position = board({24: 1}, {8: 2})
    assert {str(p.play) for p in legal_plays(position, (6, 1))} == {"24/18"}
    legal, reason = verdict(position, (6, 1), "24/23")
    assert not legal
    assert reason == "must play the larger die, 6: 24/18 was possible"


def test_bearing_off_from_a_lower_point_with_a_higher_die() -> None:
    position = board({5: 1, 3: 1}, {24: 2})
    legal, reason = verdict(position, (6, 1), "5/4 3/off")
    assert not legal
    assert reason == (
        "3/off bears off from 3 with a higher die while a checker is on 4; "
        "6-1 cannot be played that way"
    )
    assert verdict(position, (6, 1), "5/4/off")[0]  # 5/4, then the 6 from the highest point


def test_a_move_that_does_not_match_the_roll() -> None:
    assert verdict(START, (5, 2), "13/7 13/12") == (
        False,
        "13/12 lands on 12, held by the opponent",
    )
    assert verdict(START, (5, 2), "13/9 13/10") == (False, "13/10 does not match the roll 5-2")


def test_more_moves_than_the_roll() -> None:
    assert verdict(START, (5, 2), "13/8 13/11 6/4") == (False, "moves more than 5-2 allows")


def test_a_dance_is_the_empty_play() -> None:
    closed = board({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3})
    plays = legal_plays(closed, (6, 5))
    assert [str(p.play) for p in plays] == [""]
    assert verdict(closed, (6, 5), "Cannot Move") == (True, None)
    assert verdict(closed, (6, 5), "bar/20") == (
        False,
        "the checker on the bar cannot enter with 6-5",
    )


def test_not_moving_when_a_play_exists() -> None:
    legal, reason = verdict(START, (6, 5), "")
    assert not legal and reason is not None
    assert reason.startswith("does not use both dice")


def test_a_checker_the_mover_does_not_have_is_an_invalid_play() -> None:
    with pytest.raises(InvalidPlayError, match=r"no checker on point 12 .*4HPwATDgc/ABMA"):
        judge(START, (5, 2), Play.parse("12/7"))


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3,), (1, 2, 3)])
def test_dice_outside_one_to_six_are_refused(dice: tuple[int, ...]) -> None:
    with pytest.raises(InvalidDiceError):
        judge(START, dice, Play.parse("13/8"))
