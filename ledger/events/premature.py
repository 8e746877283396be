"""Premature actions: a roll or a double before the opponent finished (USBGF 4.1.7.1, 4.4.7)."""

from __future__ import annotations

from dataclasses import dataclass

from bgledger.events.base import MatchEvent

__all__ = [
    "PrematureDoubleMade",
    "PrematureRollAccepted",
    "PrematureRollMade",
    "PrematureRollRefused",
]


@dataclass(frozen=True)
class PrematureRollMade(MatchEvent):
    """``player`` rolled ``die1``-``die2`` while his opponent was still to move (USBGF 4.1.7.1).

    The mover accepts or refuses it (:mod:`ledger.premature`); where premature rolls stand
    (ABT 4.6) the acceptance is recorded with the roll.
    """

    player: str
    die1: int
    die2: int


@dataclass(frozen=True)
class PrematureRollAccepted(MatchEvent):
    """The mover ``player`` let the premature roll stand (USBGF 4.1.7.1, ABT 4.6)."""

    player: str


@dataclass(frozen=True)
class PrematureRollRefused(MatchEvent):
    """The mover ``player`` refused the premature roll: the Fast Roll Rule (USBGF 4.1.7.1)."""

    player: str


@dataclass(frozen=True)
class PrematureDoubleMade(MatchEvent):
    """``player`` doubled to ``value`` before his opponent finished his turn (USBGF 4.4.7).

    It stands if otherwise valid (:mod:`ledger.premature`); a forbidden one is flagged as
    :class:`CubeOffered` is.
    """

    player: str
    value: int
    legal: bool
    reason: str | None
    rule: str | None
