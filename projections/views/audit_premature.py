"""Premature actions in the audit trail (USBGF 4.1.7.1, 4.4.7, ABT 4.6), in words.

:mod:`bgledger.projections.views.audit` describes every event; the four premature ones are
described here, against the state just before and just after them::

    Bob rolled 6-5 early, while Ann was still to move: Ann accepts or refuses it (USBGF 4.1.7.1)
    Ann refused Bob's early 6-5 (the Fast Roll Rule, USBGF 4.1.7.1): Bob rolls again ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bgledger.events import (
    MatchEvent,
    PrematureDoubleMade,
    PrematureRollAccepted,
    PrematureRollMade,
    PrematureRollRefused,
)
from bgledger.projections.state.model import MatchState, Phase, other
from bgledger.projections.views.words import rule_for
from bgledger.rules.profiles import PROFILES, Decision, PrematureRoll

__all__ = ["DESCRIBERS"]


def _stands(state: MatchState) -> str | None:
    """The rule by which premature rolls stand under the match's profile, if they do."""
    profile = PROFILES.get(state.profile)
    if profile is None or profile.rolls.premature_roll.value is not PrematureRoll.STANDS:
        return None
    return profile.rolls.premature_roll.rule or profile.name


def _fast_roll(state: MatchState) -> str:
    """The rule of a premature roll the mover may accept or refuse (the Fast Roll Rule)."""
    return rule_for(state.profile, Decision.PREMATURE_ROLL)


def _early_roll(event: PrematureRollMade, before: MatchState, after: MatchState) -> str:
    roller, mover = after.name(event.player), after.name(other(event.player))
    text = f"{roller} rolled {event.die1}-{event.die2} early, while {mover} was still to move"
    if after.phase is Phase.PREMATURE_ROLL and _stands(after) is None:
        return f"{text}: {mover} accepts or refuses it ({_fast_roll(after)})"
    return text


def _dice(state: MatchState) -> str:
    early = state.premature
    return f"{early.a}-{early.b}" if early is not None else "roll"


def _accepted(event: PrematureRollAccepted, before: MatchState, after: MatchState) -> str:
    mover, roller = after.name(event.player), after.name(other(event.player))
    dice = _dice(before)
    stands = _stands(after)
    if stands is not None:
        head = f"{roller}'s early {dice} stands ({stands})"
    else:
        head = f"{mover} accepted {roller}'s early {dice} ({_fast_roll(after)})"
    return f"{head}: {mover} moves knowing it, then {roller} plays it"


def _refused(event: PrematureRollRefused, before: MatchState, after: MatchState) -> str:
    mover, roller = after.name(event.player), after.name(other(event.player))
    return (
        f"{mover} refused {roller}'s early {_dice(before)} (the Fast Roll Rule, "
        f"{_fast_roll(after)}): {roller} rolls again after {mover}'s move"
    )


def _early_double(event: PrematureDoubleMade, before: MatchState, after: MatchState) -> str:
    doubler, mover = after.name(event.player), after.name(other(event.player))
    text = f"{doubler} doubled to {event.value} early, while {mover} was still to move"
    if not event.legal:
        why = f": {event.reason}" if event.reason else ""
        cited = f" ({event.rule})" if event.rule else ""
        return f"ILLEGAL: {text}{why}{cited}"
    profile = PROFILES.get(after.profile)
    stands = profile.cube.premature_double_stands.rule if profile else None
    rule = stands or rule_for(after.profile, Decision.PREMATURE_DOUBLE)
    return f"{text}: it stands ({rule}); {mover} takes or drops after moving"


DESCRIBERS: dict[type[MatchEvent], Callable[[Any, MatchState, MatchState], str]] = {
    PrematureRollMade: _early_roll,
    PrematureRollAccepted: _accepted,
    PrematureRollRefused: _refused,
    PrematureDoubleMade: _early_double,
}
"""The describer of each premature event: ``(event, before, after) -> text``."""
