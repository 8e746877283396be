"""Rulings: compensating events (USBGF 4.2.3, 4.2.4, 4.4.6-4.4.10, 4.7, 4.8, 5.2).

A ruling names the events it voids and restores and what it corrects; it never
changes an event recorded before it.  It records facts only (DESIGN principle
7): who ruled, under which rule, why, and what it voids, restores and sets.
The match it leads to is derived by the fold
(:mod:`bgledger.projections.state.rulings`) from the events in force, so a
stored ruling means the same whatever the layout of the state or of its
snapshots (:mod:`bgledger.projections.state.codec`) becomes.

Rulings stored before class version 3 also kept a copy of that derived state
(``state``); reading them back drops it (:meth:`RulingMade.upcast_v2_v3`).  The
hash chain still covers it: :mod:`bgledger.store.integrity` links each row as
it is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bgledger.events.base import MatchEvent

__all__ = [
    "ConcessionVoided",
    "CrawfordPassNullified",
    "CubeActionVoided",
    "CubeLevelCorrected",
    "MatchLengthCorrected",
    "PlaysReverted",
    "RulingMade",
    "RulingNoted",
    "RulingOverturned",
    "ScoreCorrected",
    "StartingPositionCorrected",
]


@dataclass(frozen=True)
class RulingMade(MatchEvent):
    """Base of every ruling: a compensating event that changes nothing recorded before it.

    :ivar rule: the rule applied (``USBGF 4.2.3(a)``).
    :ivar ruled_by: ``director``, ``committee`` or ``players``.
    :ivar reason: why, in the ruler's words.
    :ivar agreed: the players agreed to the correction (USBGF 4.2.3(f)).
    :ivar voids: the events this ruling takes out of force (never deletes).
    :ivar restores: the events it puts back in force (an appeal overturning a ruling).

    Each kind adds what it sets (a score, a length, a cube level...).  Class
    version 3: a ruling no longer stores the state it leads to.
    """

    class_version: ClassVar[int] = 5

    rule: str
    ruled_by: str
    reason: str
    agreed: bool
    voids: list[int]
    restores: list[int]

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """Drop the copy of the corrected state a ruling stored before version 3.

        It was derived, never a fact: the fold works it out from the events in
        force.  (A version 1 row is first given its empty ``chain`` by
        :meth:`MatchEvent.upcast_v1_v2`.)
        """
        state.pop("state", None)

    upcast_v3_v4 = staticmethod(MatchEvent.upcast_said)  # version 4: the line (MatchEvent.said)
    upcast_v4_v5 = staticmethod(MatchEvent.upcast_claimed)  # version 5: MatchEvent.claimed


@dataclass(frozen=True)
class PlaysReverted(RulingMade):
    """An illegal play (``event``) and the game actions after it are undone (USBGF 4.2.3(c)-(f)).

    Rulings made since stay in force: they are not game actions.  ``same_checker``: the
    points the wrongly moved men left, when the profile obliges the player to move one of
    them again (CLASSIC 10).
    """

    event: int
    same_checker: list[int]


@dataclass(frozen=True)
class CubeActionVoided(RulingMade):
    """An invalid double (``event``) is void with its answer (USBGF 4.4.6.1, 4.4.9, 4.4.10)."""

    event: int


@dataclass(frozen=True)
class CrawfordPassNullified(RulingMade):
    """An invalid double that was passed (``event``) is nullified (USBGF 4.4.6.2, 4.4.9, 4.4.10)."""

    event: int


@dataclass(frozen=True)
class ConcessionVoided(RulingMade):
    """A concession the rules did not allow (``event``) is void with everything after it
    (USBGF 4.5, 4.2.6: "invalid and unenforceable"); the game resumes where it was conceded."""

    event: int


@dataclass(frozen=True)
class CubeLevelCorrected(RulingMade):
    """The cube action ``event`` stands at the right level, ``value`` (USBGF 4.4.8)."""

    event: int
    value: int


@dataclass(frozen=True)
class MatchLengthCorrected(RulingMade):
    """The match is ``length`` points, from the next game (USBGF 4.8.4, 4.8.5)."""

    length: int


@dataclass(frozen=True)
class ScoreCorrected(RulingMade):
    """The score is ``score_a``-``score_b`` (USBGF 4.7)."""

    score_a: int
    score_b: int


@dataclass(frozen=True)
class RulingNoted(RulingMade):
    """A ruling or observation for the record that changes nothing in the match."""

    bookkeeping: ClassVar[bool] = True  # a note about the table, not the table's time


@dataclass(frozen=True)
class RulingOverturned(RulingMade):
    """An appeal committee reversed the ruling ``ruling`` (USBGF 5.2).

    What it voided is back in force; the ruling and what was recorded under it are void.
    """

    ruling: int


@dataclass(frozen=True)
class StartingPositionCorrected(RulingMade):
    """The wrong setup ``event`` is corrected (USBGF 4.2.4).

    ``replayed``: False if the plays so far stand on the correct position (no move was
    affected), True if the game starts again from the standard position with new rolls.
    """

    event: int
    replayed: bool
