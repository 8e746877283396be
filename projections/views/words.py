"""Phrases every view words the same way: points, who ruled, whether a ruling stands.

The audit trail, the score sheet, the rulings in force that ``show`` and
``replay`` list, the rulings log and the CLI take these words from here, so
a ruling reads the same wherever it is shown, and the rule a view names
comes from the match's profile (:func:`rule_for`), never from a string.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bgledger.rules.profiles import DEFAULT_PROFILE, PROFILES, Decision, Profile

__all__ = [
    "PENALISING",
    "numbers_text",
    "penalty_rules",
    "points_of",
    "profile_of",
    "rule_for",
    "ruled_by_text",
    "rules_cited",
    "rules_text",
    "ruling_status",
    "where_text",
]


def profile_of(name: str) -> Profile:
    """The profile a match names; the default for one this version does not know.

    A view shows whatever it is given and never raises.
    """
    return PROFILES.get(name) or PROFILES[DEFAULT_PROFILE]


def rule_for(profile: str, decision: Decision) -> str:
    """The rule the match's ``profile`` (its name) takes ``decision`` under.

    >>> rule_for("usbgf-2016", Decision.SCORE), rule_for("classic", Decision.SAME_CHECKER)
    ('USBGF 4.7', 'CLASSIC 10')
    """
    return profile_of(profile).cite(decision)


def rules_cited(profile: str) -> tuple[str, ...]:
    """Every rule the match's ``profile`` cites, once each, in the rulebook's order.

    What a director picks a penalty's rule from: the rules this ledger knows the words of.

    >>> rules = rules_cited("usbgf-2016")
    >>> rules.index("USBGF 4.4.2") < rules.index("USBGF 4.4.10"), "USBGF 2.2.4" in rules
    (True, True)
    """
    cited = {c.rule for c in profile_of(profile).citations() if c.rule}
    return tuple(sorted(cited, key=_rule_order))


PENALISING = (Decision.PENALTY_POINTS, Decision.TIME_EXPIRED)
"""The decisions whose rules let the director assess penalty points: lateness and breaks
(USBGF 2.2.4) and a reserve that ran out (USBGF 4.3.3: "time or penalty point sanctions")."""


def penalty_rules(profile: str) -> tuple[str, ...]:
    """The rules of ``profile`` under which the director assesses penalty points, in the
    rulebook's order: those of :data:`PENALISING`, and any rule it quotes on penalty points.

    What the desk's penalty form offers (not every rule cited: a cube or Crawford rule
    assesses no penalty).

    >>> penalty_rules("usbgf-2016")
    ('USBGF 2.2.4', 'USBGF 4.3.3')
    """
    rules = profile_of(profile)
    found = {rules.cite(decision) for decision in PENALISING}
    for cited in rules.citations():
        words = f"{cited.quote or ''} {cited.note or ''}".lower()
        if cited.rule and "penalty point" in words:
            found.add(cited.rule)
    return tuple(sorted(found, key=_rule_order))


def where_text(event: str, round_: str, table: str) -> str:
    """Where a match is played, each part labelled: ``'Club night · round 1 · table 4'``.

    A round or table already named as such (``'Round 2'``, ``'table 4'``) is not labelled
    twice; an empty part is left out.

    >>> where_text("Club night", "1", "4"), where_text("", "Round 2", "")
    ('Club night · round 1 · table 4', 'Round 2')
    """
    parts = [event]
    for label, value in (("round", round_), ("table", table)):
        named = value.lower().startswith(label)
        parts.append(value if not value or named else f"{label} {value}")
    return " · ".join(part for part in parts if part)


def _rule_order(rule: str) -> list[tuple[int, str]]:
    """``'USBGF 4.4.10'`` after ``'USBGF 4.4.2'``: numbers as numbers, the rest as text."""
    return [(int(part), "") if part.isdigit() else (-1, part) for part in re.split(r"(\d+)", rule)]


def numbers_text(numbers: Iterable[int]) -> str:
    """Event numbers in words, runs collapsed: ``'event 4'``, ``'events 41-44, 47'``.

    >>> numbers_text([47, 41, 42, 43, 44])
    'events 41-44, 47'
    """
    ordered = sorted(set(numbers))
    runs: list[list[int]] = []
    for number in ordered:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    parts = [str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs]
    return ("event " if len(ordered) == 1 else "events ") + ", ".join(parts)


def points_of(points: int, what: str = "point") -> str:
    """``'1 point'``, ``'4 points'``, ``'2 penalty points'``."""
    return f"{points} {what}" + ("" if points == 1 else "s")


def rules_text(profile: str, *decisions: Decision) -> str:
    """The rules of ``decisions`` under ``profile``, a book named once for its sections.

    >>> rules_text("usbgf-2016", Decision.EARLY_PICKUP, Decision.TIME_EXPIRED)
    'USBGF 4.1.7.2, 4.3.3'
    """
    said: list[str] = []
    book = ""
    for decision in decisions:
        rule = rule_for(profile, decision)
        named, _, section = rule.rpartition(" ")
        said.append(section if named == book else rule)
        book = named
    return ", ".join(said)


def ruled_by_text(rule: str | None, ruled_by: str, agreed: bool = False) -> str:
    """Under which rule and by whom a ruling was made.

    >>> ruled_by_text("USBGF 4.2.3(f)", "director", agreed=True)
    'USBGF 4.2.3(f), director, players agreed'
    >>> ruled_by_text(None, "committee")
    'committee'
    """
    who = ruled_by + (", players agreed" if agreed else "")
    return f"{rule}, {who}" if rule else who


def ruling_status(voided_by: int | None, overturned: bool) -> str:
    """Whether a ruling is in force.

    ``voided_by`` is the ruling that took it out of force (None: it is in
    force); ``overturned`` says that ruling was an appeal against it (USBGF 5.2).

    >>> ruling_status(None, False), ruling_status(31, True), ruling_status(44, False)
    ('in force', 'overturned by ruling 31', 'voided by ruling 44')
    """
    if voided_by is None:
        return "in force"
    return f"{'overturned' if overturned else 'voided'} by ruling {voided_by}"
