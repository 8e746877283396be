"""The names events are stored under: words of the vocabulary, never module paths.

Each stored row names its event's kind in its ``topic`` column, and the hash
chain (:mod:`bgledger.events.chain`) and the JSON copy's hashes cover that
name.  The names were fixed when the vocabulary was first stored (they read
like the module paths of that day: ``ledger.events:CheckersPlayed``); they
stay, so that moving a class to another module changes no stored row, no
chain and no hash.  The ledger's mapper (:mod:`bgledger.store.recorder`)
stores and reads events by these names only, and decodes no other topic.

A kind added to one of those feature modules is named the same way (its
module's ``__all__`` lists it); a new feature module of events adds its kinds
here.  A test checks that every event class has a name.
"""

from __future__ import annotations

from bgledger.events import corrections, game, premature, rulings, statements
from bgledger.events.base import MatchEvent
from bgledger.events.clock import TIME_EVENTS

__all__ = ["KINDS", "TOPICS", "kind_named", "topic_of"]

_FIRST_VOCABULARY: tuple[type[MatchEvent], ...] = tuple(
    getattr(module, name) for module in (game, premature, rulings) for name in module.__all__
)
"""The kinds first stored under ``ledger.events:`` (all but the clock's), by their modules."""

_CORRECTIONS: tuple[type[MatchEvent], ...] = tuple(
    getattr(corrections, name) for name in corrections.__all__
)
"""Recording errors corrected (added later, named like the first vocabulary)."""

_STATEMENTS: tuple[type[MatchEvent], ...] = tuple(
    getattr(statements, name) for name in statements.__all__
)
"""Cube statements (issue 33, USBGF 4.4.3 and 4.4.4; named like the first vocabulary)."""

TOPICS: dict[type[MatchEvent], str] = {
    **{kind: f"ledger.events:{kind.__name__}" for kind in _FIRST_VOCABULARY},
    **{kind: f"ledger.events_time:{kind.__name__}" for kind in TIME_EVENTS},
    **{kind: f"ledger.events:{kind.__name__}" for kind in _CORRECTIONS},
    **{kind: f"ledger.events:{kind.__name__}" for kind in _STATEMENTS},
}
"""Each kind of event and the name it is stored under."""

KINDS: dict[str, type[MatchEvent]] = {topic: kind for kind, topic in TOPICS.items()}
"""Each stored name and its kind of event."""


def topic_of(kind: type[MatchEvent]) -> str:
    """The name ``kind`` is stored under.

    :raises KeyError: for a class that is not a kind of event of the vocabulary.
    """
    return TOPICS[kind]


def kind_named(topic: str) -> type[MatchEvent] | None:
    """The kind of event stored under ``topic``; None for a name the vocabulary lacks."""
    return KINDS.get(topic)
