"""The web pages' words for the ledger's codes: a phase, a match's status, a ruling's kind.

Registered as Jinja filters (``phase_words``, ``status_words``, ``kind_words``)
so that no page shows ``between-games`` or ``PlaysReverted``.

>>> kind_words("PlaysReverted"), kind_words("CrawfordPassNullified")
('plays reverted', 'Crawford pass nullified')
>>> phase_words("between-games")
'between games'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["kind_words", "phase_words", "status_words"]

PHASES = {
    "between-games": "between games",
    "opening": "opening roll",
    "roll": "on roll",  # whether he may double is the status line's (``situation``) to say
    "reroll": "to roll again",
    "play": "to move",
    "doubled": "to take or drop",
    "resigned": "to accept or reject a resignation",
    "premature-roll": "to answer an early roll",
    "over": "match over",
}
"""Each phase of ``show --json`` in words."""

_PROPER = {"crawford": "Crawford"}


def phase_words(phase: str | None) -> str:
    """``phase`` (``show --json``'s) in words; an unknown one with its hyphens as spaces."""
    return PHASES.get(phase or "", (phase or "").replace("-", " "))


def kind_words(kind: str) -> str:
    """An event's class name in words: ``PlaysReverted`` -> ``plays reverted``."""
    words = re.findall(r"[A-Z][a-z]*|[a-z]+|\d+", kind) or [kind]
    return " ".join(_PROPER.get(w.lower(), w.lower()) for w in words)


def status_words(row: Mapping[str, Any]) -> str:
    """A row of :meth:`Ledger.matches <bgledger.service.Ledger.matches>`: its status in words
    (``won by Ann``, ``not begun``, ``game 2``), or, between two games, ``game 1 over; game 2
    next``."""
    summary = row.get("summary")
    document = json.loads(summary) if isinstance(summary, str) else summary or {}
    if not row.get("winner") and row.get("game") and document.get("phase") == "between-games":
        return f"game {row['game']} over; game {row['game'] + 1} next"
    return str(row["status"])
