"""Judging a double without a search: :func:`plain_double` against the full generator.

A recorded double whose four steps are each legal in turn is legal with no other play
looked at (every legal play then uses four dice).  The judge takes that verdict from
:func:`~bgledger.rules.legal.plain_double`; only when it says None (a play of fewer
steps, or not legal) does the judge generate every legal play.
These properties check, over positions of random games and arbitrary boards (checkers
on the bar, all home, bearing off), that the short verdict is the full one: the same
play, steps, hits and result as :func:`legal_plays` gives (and None only where no play of
four steps leaves those checkers), and the same judgement as the judge gives with the
short way taken out (every legal play generated).
"""

from __future__ import annotations

from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.rules.errors import InvalidPlayError
from bgledger.rules.judge import judge
from bgledger.rules.legal import LegalPlay, Step, legal_plays, plain_double
from bgledger.rules.notation import Play
from bgledger.rules.position import BAR, Position
from tests.strategies import game_positions
from tests.test_legal_oracle import boards


def _made(position: Position, die: int, sources: list[int]) -> tuple[Step, ...]:
    """Steps of ``die`` from ``sources`` as a player could push checkers, whatever the rules:
    from the bar and then from the highest point down, a source with no checker left out."""
    me = list(position.mover)
    steps: list[Step] = []
    for src in sorted(sources, reverse=True):
        if me[src]:
            dst = max(src - die, 0)
            me[src] -= 1
            me[dst] += 1
            steps.append((src, dst))
    return tuple(steps)


def _after(position: Position, steps: tuple[Step, ...]) -> tuple[int, ...]:
    me = list(position.mover)
    for src, dst in steps:
        me[src] -= 1
        me[dst] += 1
    return tuple(me)


def _candidates(position: Position, die: int, data: st.DataObject) -> list[tuple[Step, ...]]:
    """Plays a recorder might write for ``die``-``die``: every legal play, each with a step
    a pip short (no play of the die leaves that), each with its last step dropped, and a
    few plays of four steps of the die pushed anyhow (onto held points, past checkers on
    the bar, bearing off with checkers outside or from below the highest point)."""
    found: list[tuple[Step, ...]] = []
    for option in legal_plays(position, (die, die)):
        if not option.steps:
            continue
        found.append(option.steps)
        found.append(option.steps[:-1])
        src, dst = option.steps[-1]
        if dst > 1:
            found.append((*option.steps[:-1], (src, dst - 1)))
    held = [point for point in range(1, BAR + 1) if position.mover[point]]
    for _ in range(data.draw(st.integers(0, 4), label="pushed") if held else 0):
        sources = data.draw(st.lists(st.sampled_from(held), min_size=4, max_size=4))
        found.append(_made(position, die, sources))
    return found


def _check(position: Position, die: int, data: st.DataObject) -> None:
    dice = (die, die)
    # the plays of four steps by the checkers they leave, in the search's order (looked up
    # once a candidate, not searched: a board's hundreds of candidates by its thousands of plays)
    full_by_after: dict[tuple[int, ...], tuple[LegalPlay, ...]] = {}
    for option in legal_plays(position, dice):
        if option.dice_used == 4:
            after = option.result.opponent
            full_by_after[after] = (*full_by_after.get(after, ()), option)
    candidates = _candidates(position, die, data)
    for steps in candidates:
        after = _after(position, steps)
        full = full_by_after.get(after, ())
        fast = plain_double(position, die, after)
        # None only where no play of four steps leaves these checkers; else that one play.
        assert (() if fast is None else (fast,)) == full, (position.position_id, dice, steps)
    if not candidates:
        return
    for steps in data.draw(st.lists(st.sampled_from(candidates), max_size=6), label="judged"):
        if not steps:
            continue
        written = Play.parse(" ".join(f"{a}/{b}" for a, b in steps))
        try:
            verdict = judge(position, dice, written)
        except InvalidPlayError:
            continue  # moves a checker before it arrives where the order allows no other
        with mock.patch("bgledger.rules.legal.plain_double", return_value=None):
            searched = judge(position, dice, written)
        assert verdict == searched, (position.position_id, dice, steps)


@settings(max_examples=300, deadline=None)
@given(game_positions(), st.integers(1, 6), st.data())
def test_a_plain_double_is_judged_as_the_search_judges_it_in_random_games(
    case: tuple[Position, tuple[int, int]], die: int, data: st.DataObject
) -> None:
    _check(case[0], die, data)


@settings(max_examples=300, deadline=None)
@given(boards(), st.integers(1, 6), st.data())
def test_a_plain_double_is_judged_as_the_search_judges_it_on_any_board(
    position: Position, die: int, data: st.DataObject
) -> None:
    _check(position, die, data)


def test_the_judge_takes_a_plain_double_without_the_search() -> None:
    """13/11(2) 6/4(2) for 2-2 at the start: four legal steps, so no legal play is generated."""
    with mock.patch("bgledger.rules.judge.legal_plays") as search:
        verdict = judge(Position.start(), (2, 2), Play.parse("13/11(2) 6/4(2)"))
    assert verdict.legal and str(verdict.play) == "13/11(2) 6/4(2)"
    search.assert_not_called()


def test_a_double_of_fewer_steps_still_goes_to_the_search() -> None:
    """13/9 alone for 4-4 is a play of one step: only every legal play can say whether more
    of the roll could be played (it could, so the play is illegal)."""
    with mock.patch("bgledger.rules.judge.legal_plays", wraps=legal_plays) as search:
        verdict = judge(Position.start(), (4, 4), Play.parse("13/9"))
    assert not verdict.legal and verdict.reason
    search.assert_called_once()
