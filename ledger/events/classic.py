"""The classic laws of the throw and the touch (CLASSIC 7, 8, 11): what happened at the table.

Each event is a fact at the board, with the rule it was recorded under (the match's profile
cites it: ``profile.cite(Decision.TOUCH_MOVE)``); the fold derives what it obliges
(:mod:`bgledger.projections.state.classic`).  Points are the player's own (1-24, 25 the
bar), as in a play.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgledger.events.base import MatchEvent
from bgledger.events.rulings import RulingMade

__all__ = ["CallCorrected", "DiceSet", "ManAdjusted", "ManTouched", "ThrowCalled"]


@dataclass(frozen=True)
class ManTouched(MatchEvent):
    """``player``, on roll, touched a man on ``point`` without saying "J'adoube": he must move
    it if it is playable (CLASSIC 11)."""

    player: str
    point: int
    rule: str


@dataclass(frozen=True)
class ManAdjusted(MatchEvent):
    """``player`` said "J'adoube" and adjusted a man on ``point``: no obligation (CLASSIC 11)."""

    player: str
    point: int
    rule: str


@dataclass(frozen=True)
class DiceSet(MatchEvent):
    """``player``, the caster, interfered with the dice before they came to rest; his
    adversary set them to ``die1``-``die2``, which the caster must play as if thrown
    (CLASSIC 7)."""

    player: str
    die1: int
    die2: int
    rule: str


@dataclass(frozen=True)
class ThrowCalled(MatchEvent):
    """``player``, the caster, called his throw ``die1``-``die2``, other than the dice show:
    played as called it stands good (CLASSIC 8)."""

    player: str
    die1: int
    die2: int
    rule: str


@dataclass(frozen=True)
class CallCorrected(RulingMade):
    """The error in the call ``event`` was found before the dice were taken up again: what
    was played on the call is void (``voids``) and the caster plays the dice thrown
    (CLASSIC 8)."""

    event: int
