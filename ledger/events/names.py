"""The names events are stored under: words of the vocabulary, never module paths.

Each stored row names its event's kind in its ``topic`` column, and the hash
chain (:mod:`bgledger.events.chain`) and the JSON copy's hashes cover that
name.  The names were fixed when the vocabulary was first stored (they read
like the module paths of that day: ``ledger.events:CheckersPlayed``); they
stay, so that moving a class to another module changes no stored row, no
chain and no hash.  The ledger's mapper (:mod:`bgledger.store.recorder`)
stores and reads events by these names only, and decodes no other topic.

A new kind of event adds its name here (``bgledger:NewKind``); a test checks
that every event class has one.
"""

from __future__ import annotations

from bgledger.events.base import MatchEvent
from bgledger.events.clock import TIME_EVENTS
from bgledger.events.game import (
    CheckersPlayed,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    GameStarted,
    GameWon,
    MatchStarted,
    MatchWon,
    OpeningRollMade,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    RollVoided,
    StartingPositionRecorded,
    UnplayablePlayRecorded,
)
from bgledger.events.premature import (
    PrematureDoubleMade,
    PrematureRollAccepted,
    PrematureRollMade,
    PrematureRollRefused,
)
from bgledger.events.rulings import (
    CrawfordPassNullified,
    CubeActionVoided,
    CubeLevelCorrected,
    MatchLengthCorrected,
    PlaysReverted,
    RulingMade,
    RulingNoted,
    RulingOverturned,
    ScoreCorrected,
    StartingPositionCorrected,
)

__all__ = ["KINDS", "TOPICS", "kind_named", "topic_of"]

_FIRST_VOCABULARY: tuple[type[MatchEvent], ...] = (
    MatchStarted, GameStarted, OpeningRollMade, DiceRolled, RollVoided, CheckersPlayed,
    UnplayablePlayRecorded, CubeOffered, CubeTaken, CubeDropped, ResignationOffered,
    ResignationAccepted, ResignationRejected, GameWon, MatchWon, StartingPositionRecorded,
    PrematureRollMade, PrematureRollAccepted, PrematureRollRefused, PrematureDoubleMade,
    RulingMade, PlaysReverted, CubeActionVoided, CrawfordPassNullified, CubeLevelCorrected,
    MatchLengthCorrected, ScoreCorrected, RulingNoted, RulingOverturned,
    StartingPositionCorrected,
)  # fmt: skip

TOPICS: dict[type[MatchEvent], str] = {
    **{kind: f"ledger.events:{kind.__name__}" for kind in _FIRST_VOCABULARY},
    **{kind: f"ledger.events_time:{kind.__name__}" for kind in TIME_EVENTS},
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
