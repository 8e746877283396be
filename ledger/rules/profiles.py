"""Rulebook profiles: the rules a match declares, as data (DESIGN principle 5).

A match names its profile (``usbgf-2016`` by default) and the ledger takes
correction windows, break allotments, clock settings, valid-roll reasons and
resignation limits from it, never from ``if`` chains in commands, and the rule
of every decision it refuses, records or shows (:class:`Decision`,
``profile.cite(Decision.ROLL)``), never from string literals.  Every value
is a :class:`Cited`: the value, the rule it comes from (``USBGF 4.2.3(a)``,
``ABT 4.8``, ``CLASSIC 10``, ``CLOCK 2.1``, ``FAQ``) and that rule's words, so
a refusal or a compensating event can quote the rule it applies.  A
:class:`Citation` whose ``rule`` is ``None`` marks a value the rulebook is
silent on; its ``note`` says what the profile does instead.

The profiles:

``usbgf-2016``
    USBGF tournament rules, October 2016, with the 2007 US clock rules for a
    Bronstein clock.
``usbgf-2017``
    ``usbgf-2016`` amended by the ABT 2017 procedural rules 4.1-4.10 where they
    differ: an illegal play is condoned by the opponent's roll or cube turn
    (ABT 4.8), setup errors are corrected before the fifth roll (ABT 4.7),
    premature rolls stand (ABT 4.6), valid rolls per ABT 4.1-4.2 and the USBGF
    valid-rolls FAQ.
``classic``
    The 19th-century laws 3-11: no Crawford rule, the same checker corrected
    (CLASSIC 10), touch-move (CLASSIC 11), no breaks, lateness or clock rules.
``online``
    ``usbgf-2016`` as online servers play it: resignations at any time, no
    clock, no illegal plays, rolls or setup errors to correct.

Example::

    >>> profile = get_profile("usbgf-2017")
    >>> profile.corrections_for(Subject.ILLEGAL_PLAY)[0].window.value
    <Window.CONDONED_BY_OPPONENT_ROLL_OR_CUBE: 'condoned-by-opponent-roll-or-cube'>
    >>> profile.clock("bronstein").reserve_seconds(7, 2, 3)
    540
    >>> profile.cite(Decision.TAKE_OR_DROP), get_profile("classic").cite(Decision.SAME_CHECKER)
    ('USBGF 4.4.4', 'CLASSIC 10')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bgledger.rules._profile_data import ALL
from bgledger.rules._profile_model import (
    BreakBand,
    BreakRules,
    Citation,
    Cited,
    ClockKind,
    ClockRules,
    CorrectionRule,
    CubeRules,
    Decision,
    Decisions,
    EarlyPickup,
    ForgottenHit,
    LatenessRules,
    Limits,
    Party,
    PlayRules,
    PrematureRoll,
    Profile,
    Remedy,
    ResignationRules,
    RollRules,
    Subject,
    VoidReason,
    Window,
)
from bgledger.rules.errors import RulesError

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILES",
    "BreakBand",
    "BreakRules",
    "Citation",
    "Cited",
    "ClockKind",
    "ClockRules",
    "CorrectionRule",
    "CubeRules",
    "Decision",
    "Decisions",
    "EarlyPickup",
    "ForgottenHit",
    "LatenessRules",
    "Limits",
    "Party",
    "PlayRules",
    "PrematureRoll",
    "Profile",
    "Remedy",
    "ResignationRules",
    "RollRules",
    "Subject",
    "UnknownProfileError",
    "VoidReason",
    "Window",
    "get_profile",
]

DEFAULT_PROFILE = "usbgf-2016"

PROFILES: Mapping[str, Profile] = MappingProxyType({profile.name: profile for profile in ALL})


class UnknownProfileError(RulesError):
    """A profile name that is not one of :data:`PROFILES`.

    :ivar name: the name asked for.
    :ivar known: the known names, in :data:`PROFILES` order.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.known = tuple(PROFILES)
        super().__init__(
            f"unknown rulebook profile {name!r}; known profiles: {', '.join(self.known)}"
        )


def get_profile(name: str) -> Profile:
    """The profile called ``name`` (exactly, e.g. ``"usbgf-2016"``).

    :raises UnknownProfileError: if there is none; the message lists the known names.
    """
    try:
        return PROFILES[name]
    except KeyError:
        raise UnknownProfileError(name) from None
