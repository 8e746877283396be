"""Breaks and lateness as the events make them (USBGF 2.2.2, 2.2.4).

Each player is allowed a number of five-minute breaks for the match's
length (:meth:`~bgledger.rules.profiles.BreakRules.breaks_for`); a break may
combine several of one or both players' breaks.  Lateness is counted in
whole minutes from the starting time or from the end of the break's
allowance; penalty points assessed for it are kept per episode, so that a
later assessment adds only the points not yet given.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgledger.rules.profiles import get_profile

__all__ = ["Breaks", "OpenBreak", "allowance", "minutes_between"]


@dataclass(frozen=True, slots=True)
class OpenBreak:
    """A break in progress: when it began, its allowance in minutes, who asked."""

    start_ms: int
    minutes: int
    players: tuple[str, ...]

    @property
    def ends_ms(self) -> int:
        """When the allowance runs out."""
        return self.start_ms + self.minutes * 60_000


@dataclass(frozen=True, slots=True)
class Breaks:
    """Breaks used by ``a`` and ``b``, the break in progress, and lateness points so far.

    ``late_points`` counts the penalty points assessed for the current
    lateness episode (the start of the match, or the last break) per player.
    """

    used: tuple[int, int] = (0, 0)
    open: OpenBreak | None = None
    late_points: tuple[int, int] = (0, 0)


def allowance(profile: str, length: int) -> int | None:
    """Breaks each player may take in this match, ``None`` where the profile has no breaks.

    10 points get one break and 14 points two (USBGF 2.2.2 names neither:
    see :meth:`~bgledger.rules.profiles.BreakRules.breaks_for`).
    """
    rules = get_profile(profile).breaks
    return None if rules is None else rules.breaks_for(length)


def minutes_between(start_ms: int, end_ms: int) -> int:
    """Whole minutes from ``start_ms`` to ``end_ms`` (0 if ``end_ms`` is earlier)."""
    return max(0, end_ms - start_ms) // 60_000
