"""What every ruling shares: who rules and why, the windows, and the one way to record.

:func:`record` writes a compensating event: its facts (what it voids, restores
and sets), from which the fold works out the match it leads to;
:func:`choose` finds the profile's correction rule whose window is still
open, or refuses naming what closed each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bgledger.commands.decide import match_winner
from bgledger.commands.stream import MatchStream
from bgledger.commands.windows import closed_by, describe_closing
from bgledger.errors import ActionRefusedError, RulesError
from bgledger.events import (
    TIME_EVENTS,
    MatchEvent,
    MatchWon,
    RulingMade,
    RulingOverturned,
)
from bgledger.projections.state.corrected import in_force, voided_by
from bgledger.rules.profiles import CorrectionRule, Subject, Window

__all__ = [
    "RULERS",
    "InvalidRulingError",
    "Ruling",
    "RulingRefusedError",
    "actions_after",
    "check_in_force",
    "choose",
    "find",
    "finish_if_won",
    "in_force_after",
    "is_game_action",
    "record",
    "rule_name",
]

RULERS = ("director", "committee", "players")


class RulingRefusedError(ActionRefusedError):
    """A ruling outside its window, or one the rules do not provide for; the rule is cited."""


class InvalidRulingError(RulesError):
    """A ruling that names no event it could apply to, or an unknown ruler."""


@dataclass(frozen=True, slots=True)
class Ruling:
    """Who rules, under which rule (``None``: the first that applies) and why.

    ``agreed`` records the players' agreement (needed by USBGF 4.2.3(f)).
    """

    ruled_by: str
    reason: str
    rule: str | None = None
    agreed: bool = False
    by: str = "director"
    at: str | None = None

    def __post_init__(self) -> None:
        if self.ruled_by not in RULERS:
            raise InvalidRulingError(f"--ruled-by {self.ruled_by!r}: one of {', '.join(RULERS)}")
        if not self.reason.strip():
            raise InvalidRulingError("a ruling needs a reason (--reason)")


# -- the one way every ruling is recorded ------------------------------------------


def record(
    match: MatchStream,
    history: Sequence[MatchEvent],
    kind: type[RulingMade],
    given: Ruling,
    rule: str,
    voids: Sequence[int] = (),
    restores: Sequence[int] = (),
    **fields: Any,
) -> RulingMade:
    """Record ``kind``: the facts of the ruling, never the state it leads to (DESIGN 7).

    ``history`` is the match's events before it: the fold works out the
    match after the ruling from the events in force
    (:mod:`bgledger.projections.state.rulings`).
    """
    common: dict[str, Any] = {
        "rule": rule,
        "ruled_by": given.ruled_by,
        "reason": given.reason.strip(),
        "agreed": given.agreed,
        "voids": sorted(voids),
        "restores": sorted(restores),
    }
    return match._record(kind, given.by, given.at, history, **common, **fields)


def find(history: Sequence[MatchEvent], number: int) -> MatchEvent:
    if not 1 <= number <= len(history):
        raise InvalidRulingError(f"event {number}: the match has events 1-{len(history)}")
    return history[number - 1]


def in_force_after(history: Sequence[MatchEvent], number: int) -> list[MatchEvent]:
    return [e for e in in_force(history) if e.originator_version > number]


def actions_after(history: Sequence[MatchEvent], number: int) -> list[int]:
    """The game actions in force after event ``number``: what undoing it undoes.

    Rulings are not game actions (USBGF 4.2.3(c) undoes "the illegal move and
    all subsequent game actions"): a later ruling stays in force until an
    appeal names it.  Neither are the clock, break and penalty-point events:
    the time that ran on the clock ran (:mod:`bgledger.events`).
    """
    return [e.originator_version for e in in_force_after(history, number) if is_game_action(e)]


def is_game_action(event: MatchEvent) -> bool:
    """False for rulings and for the clock, break and penalty-point events."""
    return not isinstance(event, RulingMade) and type(event) not in TIME_EVENTS


def check_in_force(history: Sequence[MatchEvent], number: int) -> None:
    """Refuse a ruling on a void event, or on one a committee's appeal already decided."""
    for event in in_force(history):
        if isinstance(event, RulingOverturned):
            overturned = history[event.ruling - 1]
            if getattr(overturned, "event", None) == number:
                raise RulingRefusedError(
                    f"a ruling committee decided on event {number} at event "
                    f"{event.originator_version}; its decision binds the director",
                    "USBGF 5.2",
                )
    voided = voided_by(history)
    if number in voided:
        raise RulingRefusedError(
            f"event {number} is already void (ruling at event {voided[number]})",
            "USBGF 5.2",
        )


def choose(
    match: MatchStream,
    history: Sequence[MatchEvent],
    subjects: Sequence[Subject],
    number: int,
    offender: str,
    ruling: Ruling,
) -> CorrectionRule:
    """The first correction rule for ``subjects`` whose window is open (or ``ruling.rule``'s).

    :raises RulingRefusedError: if every window has closed, naming what closed each.
    """
    rules = [r for s in subjects for r in match.profile.corrections_for(s)]
    if ruling.rule is not None:
        rules = [r for r in rules if r.window.rule == ruling.rule]
        if not rules:
            raise RulingRefusedError(
                f"{ruling.rule} does not correct event {number} under {match.profile.name}",
                ruling.rule,
            )
    if not rules:
        raise RulingRefusedError(
            f"{match.profile.name} provides no correction for event {number}", "USBGF 4.2.3"
        )
    after = in_force_after(history, number)
    reasons = []
    for rule in rules:
        why = _closed(rule, after, offender, ruling, match.state.players)
        if why is None:
            return rule
        reasons.append(f"{rule.window.rule}: {why}")
    raise RulingRefusedError(
        f"too late to correct event {number}: " + "; ".join(reasons), rules[0].window.rule
    )


def _closed(
    rule: CorrectionRule,
    after: Sequence[MatchEvent],
    offender: str,
    ruling: Ruling,
    names: tuple[str, str],
) -> str | None:
    window = rule.window.value
    if window is Window.DIRECTOR_APPROVAL:
        if ruling.ruled_by == "director" and ruling.agreed:
            return None
        return "only with the director's approval and both players' agreement (--agreed)"
    closing = closed_by(window, after, offender)
    return None if closing is None else describe_closing(closing, names) + " closed it"


def rule_name(rule: CorrectionRule) -> str:
    return rule.window.rule or rule.remedy.rule or "USBGF 4.2.3"


def finish_if_won(match: MatchStream, ruling: Ruling, rule: str) -> None:
    """A corrected score that still wins the match ends it again, at the corrected score."""
    winner = match_winner(match.state)
    if winner is not None:
        a, b = match.state.score
        match.append(MatchWon, by=ruling.by, at=ruling.at, winner=winner, score_a=a, score_b=b)
