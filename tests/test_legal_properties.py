"""Properties of the legal-play generator over positions of random legal games."""

from __future__ import annotations

from hypothesis import given, settings

from bgledger.rules.judge import judge
from bgledger.rules.legal import legal_plays
from bgledger.rules.notation import Play
from bgledger.rules.position import Position
from tests.strategies import game_positions


@settings(max_examples=300, deadline=None)
@given(game_positions())
def test_every_legal_play_keeps_fifteen_checkers_a_side(
    case: tuple[Position, tuple[int, int]],
) -> None:
    position, dice = case
    for option in legal_plays(position, dice):
        assert sum(option.result.mover) == 15
        assert sum(option.result.opponent) == 15
        assert option.result.problems() == ()


@settings(max_examples=300, deadline=None)
@given(game_positions())
def test_plays_are_distinct_and_use_the_same_number_of_dice(
    case: tuple[Position, tuple[int, int]],
) -> None:
    position, dice = case
    options = legal_plays(position, dice)
    assert len({o.result for o in options}) == len(options)
    assert len({o.dice_used for o in options}) == 1
    assert options[0].dice_used <= (4 if dice[0] == dice[1] else 2)


@settings(max_examples=200, deadline=None)
@given(game_positions())
def test_the_judge_accepts_every_generated_play_in_canonical_notation(
    case: tuple[Position, tuple[int, int]],
) -> None:
    position, dice = case
    for option in legal_plays(position, dice):
        verdict = judge(position, dice, Play.parse(str(option.play)))
        assert verdict.legal, (position, dice, str(option.play), verdict.reason)
        assert verdict.result == option.result


@settings(max_examples=200, deadline=None)
@given(game_positions())
def test_a_partial_play_is_judged_illegal(case: tuple[Position, tuple[int, int]]) -> None:
    """Dropping the last die of a legal play is never legal while not bearing off.

    (Bearing off, a shorter play can leave the same checkers as a legal one:
    6/off for 6-1 leaves what 6/5/off leaves, and a board cannot tell them apart.)
    """
    position, dice = case
    if position.all_home():
        return
    for option in legal_plays(position, dice):
        if option.dice_used < 2:
            continue
        partial = Play.parse(" ".join(f"{a}/{b}" for a, b in option.steps[:-1]))
        verdict = judge(position, dice, partial)
        assert not verdict.legal
        assert verdict.reason
