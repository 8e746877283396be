"""Properties of the legal-play generator over positions of random legal games."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.rules.errors import InvalidPlayError
from bgledger.rules.judge import judge
from bgledger.rules.legal import Step, can_play, full_plays_to, legal_plays
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


def _candidates(position: Position, dice: tuple[int, int]) -> list[tuple[Step, ...]]:
    """Plays a recorder might write: every legal play, each with its last die dropped
    (fewer dice), each with one step a pip short or long (a wrong die), and every
    single step of either die from a point the mover holds (one die alone, the smaller
    one where the larger could be played)."""
    found: list[tuple[Step, ...]] = []
    for option in legal_plays(position, dice):
        steps = option.steps
        found.append(steps)
        found.append(steps[:-1])
        for i, (a, b) in enumerate(steps):
            for wrong in (b - 1, b + 1):
                if 0 <= wrong < a:
                    found.append((*steps[:i], (a, wrong), *steps[i + 1 :]))
    for point in range(1, 26):
        if position.mover[point]:
            found.extend(((point, max(point - die, 0)),) for die in set(dice))
    return found


def _mover_after(position: Position, steps: tuple[Step, ...]) -> tuple[int, ...]:
    """The mover's checkers after moving ``steps`` literally (hits do not touch them)."""
    me = list(position.mover)
    for a, b in steps:
        me[a] -= 1
        me[b] += 1
    return tuple(me)


@settings(max_examples=300, deadline=None)
@given(game_positions(), st.data())
def test_the_judge_agrees_with_the_full_legal_play_search(
    case: tuple[Position, tuple[int, int]], data: st.DataObject
) -> None:
    """The judge's verdict on a play is the one every legal play of the roll gives.

    Legal: some legal play leaves the same checkers (the judge then picks one of
    them); illegal otherwise.  The plays tried are legal ones and near misses:
    a die dropped, a die a pip wrong, one die alone where both (or the larger)
    could be played.  And the few plays the judge's short search finds for a
    play that uses every die are exactly those of the full search that leave
    its checkers, in the same order.
    """
    position, dice = case
    options = legal_plays(position, dice)
    every_die = 4 if dice[0] == dice[1] else 2
    tried = data.draw(st.lists(st.sampled_from(_candidates(position, dice)), max_size=6))
    for steps in tried:
        text = " ".join(f"{a}/{b}" for a, b in steps)
        after = _mover_after(position, steps)
        if min(after) < 0:
            continue  # a checker the mover does not have: no board shows it
        leaving = [o for o in options if o.result.opponent == after]
        full = tuple(o for o in leaving if o.dice_used == every_die)
        assert full_plays_to(position, dice, after) == full, (position.position_id, dice, text)
        try:
            verdict = judge(position, dice, Play.parse(text))
        except InvalidPlayError:
            continue  # moves a checker before it arrives where the order allows no other
        assert verdict.legal == bool(leaving), (position.position_id, dice, text, verdict.reason)
        if leaving:
            assert verdict.result in {o.result for o in leaving}
            assert verdict.play in {o.play for o in leaving}
        else:
            assert verdict.reason and verdict.rule


@settings(max_examples=300, deadline=None)
@given(game_positions())
def test_a_roll_can_be_played_unless_the_only_legal_play_is_empty(
    case: tuple[Position, tuple[int, int]],
) -> None:
    """A dance is recorded with the roll exactly when no legal play moves a checker."""
    position, dice = case
    assert can_play(position, dice) == bool(legal_plays(position, dice)[0].steps)
