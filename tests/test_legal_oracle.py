"""The legal-play generator against the search it replaced, kept here as an oracle.

``legal_plays`` was rewritten for speed (issue 34: an in-place walk, the dice
tried the other way round only where something new can come of it, positions
told apart by an integer).  Its answers must not change by one play, one step
or one place in the order: :func:`oracle_plays` is the generator as it was
(``ledger/rules/legal.py`` before issue 34, its search copied whole), and the
properties below compare the two over positions of random legal games and
over arbitrary boards (checkers on the bar, all home, bearing off, crowded
points), for every roll.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.rules.legal import LegalPlay, check_dice, legal_plays
from bgledger.rules.position import BAR, Position
from tests.strategies import game_positions

_Step = tuple[int, int]
_Key = tuple[tuple[int, ...], tuple[int, ...]]


class _OracleSearch:
    """The depth-first search of the generator before issue 34, unchanged."""

    def __init__(self, dice: tuple[int, ...]) -> None:
        self.dice = dice
        self.doubles = len(dice) == 4
        self.found: dict[_Key, tuple[_Step, ...]] = {}
        self.best_moves = 0
        self.best_pips = 0

    def save(self, me: list[int], opp: list[int], steps: list[_Step], pips: int) -> None:
        moves = len(steps)
        if moves < self.best_moves or pips < self.best_pips:
            return
        if moves > self.best_moves or pips > self.best_pips:
            self.found.clear()
            self.best_moves, self.best_pips = moves, pips
        key = (tuple(me), tuple(opp))
        if key not in self.found:
            self.found[key] = tuple(steps)

    def run(self, me: list[int], opp: list[int], depth: int, top: int, steps: list[_Step]) -> bool:
        if depth == len(self.dice):
            return True
        die = self.dice[depth]
        pips = sum(self.dice[:depth]) + die
        if me[BAR]:
            if opp[die] >= 2:
                return True
            self._step(me, opp, depth, BAR, BAR - die, 24, steps, pips)
            return False
        used = False
        highest = 24
        while highest and not me[highest]:
            highest -= 1
        for src in range(min(top, highest), 0, -1):
            if not me[src]:
                continue
            dst = src - die
            if dst > 0:
                if opp[25 - dst] >= 2:
                    continue
            elif highest > 6 or (dst < 0 and src != highest):
                continue
            else:
                dst = 0
            self._step(me, opp, depth, src, dst, src if self.doubles else 24, steps, pips)
            used = True
        return not used

    def _step(
        self,
        me: list[int],
        opp: list[int],
        depth: int,
        src: int,
        dst: int,
        top: int,
        steps: list[_Step],
        pips: int,
    ) -> None:
        new_me = me.copy()
        new_me[src] -= 1
        new_me[dst] += 1
        new_opp = opp
        if dst and opp[25 - dst] == 1:
            new_opp = opp.copy()
            new_opp[25 - dst] = 0
            new_opp[BAR] += 1
        steps.append((src, dst))
        if self.run(new_me, new_opp, depth + 1, top, steps):
            self.save(new_me, new_opp, steps, pips)
        steps.pop()


def oracle_plays(position: Position, dice: Sequence[int]) -> tuple[LegalPlay, ...]:
    """``legal_plays`` as it was before issue 34."""
    d1, d2 = check_dice(dice)
    me, opp = list(position.mover), list(position.opponent)
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    found: dict[_Key, tuple[_Step, ...]] = {}
    best = (0, 0)
    for order in orders:
        search = _OracleSearch(order)
        search.run(me, opp, 0, 24, [])
        score = (search.best_moves, search.best_pips)
        if score > best:
            found, best = {}, score
        if score == best:
            for key, steps in search.found.items():
                found.setdefault(key, steps)
    if not found:
        return (LegalPlay((), frozenset(), position.swapped()),)
    plays = []
    for (mover, opponent), steps in found.items():
        hits = frozenset(dst for _, dst in steps if dst and position.opponent_at(dst))
        plays.append(LegalPlay(steps, hits, Position.trusted(opponent, mover)))
    return tuple(plays)


@st.composite
def boards(draw: st.DrawFn) -> Position:
    """Fifteen checkers a side anywhere, points never shared: often some on the
    bar, sometimes all home or partly borne off, crowded points and blots."""
    mover = [0] * 26
    opponent = [0] * 26
    mover_home = draw(st.booleans())
    for _ in range(15):
        low, high = (0, 6) if mover_home else (0, 25)
        point = draw(st.integers(low, high))
        while point not in (0, BAR) and opponent[25 - point]:
            point = draw(st.integers(low, high))
        mover[point] += 1
    for _ in range(15):
        point = draw(st.integers(0, 25))
        while point not in (0, BAR) and mover[25 - point]:
            point = draw(st.integers(0, 25))
        opponent[point] += 1
    return Position(tuple(mover), tuple(opponent))


ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, 7)]


@settings(max_examples=300, deadline=None)
@given(game_positions())
def test_the_same_plays_as_before_in_random_games(case: tuple[Position, tuple[int, int]]) -> None:
    position, _ = case
    for dice in ROLLS:
        assert legal_plays(position, dice) == oracle_plays(position, dice), (position, dice)


@settings(max_examples=400, deadline=None)
@given(boards())
def test_the_same_plays_as_before_on_any_board(position: Position) -> None:
    for dice in ROLLS:
        assert legal_plays(position, dice) == oracle_plays(position, dice), (position, dice)


def test_the_same_plays_as_before_in_hand_picked_positions() -> None:
    """Positions where the rewrite's shortcuts apply or must not: two on the bar,
    one on the bar with the other die blocked, bearing off with a gap, a
    prime that blocks one die only."""
    cases = [
        Position.start(),
        Position.trusted(
            (0, 0, 0, 0, 0, 0, 4, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2),
            (0, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0),
        ),
        Position.trusted(
            (7, 0, 1, 0, 3, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 2, 2, 8, 0),
        ),
        Position.trusted(
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 12, 1),
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0),
        ),
    ]
    for position in cases:
        for dice in ROLLS:
            assert legal_plays(position, dice) == oracle_plays(position, dice), (position, dice)
