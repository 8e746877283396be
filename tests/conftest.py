"""Shared test helpers: where the shared real data lives, and a board builder."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from ledger.rules.position import Position

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
MATCHES = SHARED / "fixtures" / "matches"


def shared_matches() -> Path:
    """The real match transcriptions beside the repository, or skip saying why."""
    if not MATCHES.is_dir():
        pytest.skip(f"the shared real-match corpus is not at {MATCHES} (clone ../shared beside it)")
    return MATCHES


def board(mover: Mapping[int, int], opponent: Mapping[int, int]) -> Position:
    """A position from ``{point: checkers}`` maps (25 = bar); the rest of 15 is borne off."""
    sides = []
    for counts in (mover, opponent):
        side = [0] * 26
        for point, n in counts.items():
            side[point] = n
        side[0] = max(0, 15 - sum(side))
        sides.append(tuple(side))
    return Position(sides[0], sides[1])
