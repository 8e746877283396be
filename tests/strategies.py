"""Hypothesis strategies: positions reached by random legal games."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bgledger.rules.legal import legal_plays
from bgledger.rules.position import Position
from bgledger.rules.results import winner_of


def random_game_position(seed: int, turns: int) -> tuple[Position, tuple[int, int]]:
    """Play ``turns`` random legal turns from the start; the position and a fresh roll."""
    rng = random.Random(seed)
    position = Position.start()
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        after = rng.choice(legal_plays(position, dice)).result
        if winner_of(after) is not None:
            break
        position = after
    return position, (rng.randint(1, 6), rng.randint(1, 6))


@st.composite
def game_positions(draw: st.DrawFn) -> tuple[Position, tuple[int, int]]:
    """A position of a random legal game and the dice to play in it."""
    seed = draw(st.integers(min_value=0, max_value=2**32))
    turns = draw(st.integers(min_value=0, max_value=120))
    return random_game_position(seed, turns)
