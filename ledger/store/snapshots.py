"""Snapshots of a match and the one projector that loads a match from the store.

Loading a match reads its latest :class:`MatchSnapshot` (the folded state in
:mod:`bgledger.projections.state.codec` form) and folds only the events after it with
:func:`project_match`, the same fold the aggregate uses live.

A snapshot also keeps the stream's hash chain at its event (``"head"`` beside
the codec's keys; :mod:`bgledger.events.chain`), which the next event recorded links
to.  A snapshot without it (written before the chain), or in a form the codec
no longer reads, is stale: the match is replayed from its events.  Snapshots
are a cache of derived state (DESIGN principle 8); no event depends on their
form, so the codec may change freely.

A ruling among the events after a snapshot (or after a cached match) cannot
be folded onto it: the match after a ruling is worked out from the events in
force before it (:mod:`bgledger.projections.state.rulings`), which a state
does not hold.  :func:`project_match` then raises :class:`StaleSnapshotError`
too, and the match is folded from its first event; the next snapshot, taken
after the ruling, serves again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from eventsourcing.domain import DomainEvent

from bgledger.commands.match import Match
from bgledger.events import MatchEvent
from bgledger.projections.state.codec import state_from_dict, state_to_dict
from bgledger.projections.state.fold import HistoryNeededError, MatchState, fold
from bgledger.store.recorder import store_as

__all__ = ["MatchSnapshot", "StaleSnapshotError", "project_match", "thaw"]


class StaleSnapshotError(Exception):
    """A snapshot (or cached match) this bgledger cannot fold on from: replay the events instead.

    Written in a form it no longer reads, or followed by a ruling, which needs
    the events before it.
    """


@dataclass(frozen=True)
class MatchSnapshot(DomainEvent):
    """The folded state of a match at ``originator_version``, in
    :mod:`bgledger.projections.state.codec` form."""

    state: dict[str, Any]

    @classmethod
    def take(cls, aggregate: Match) -> MatchSnapshot:
        """A snapshot of ``aggregate`` as it stands."""
        return cls(
            originator_id=aggregate.id,
            originator_version=aggregate.version,
            timestamp=cls.create_timestamp(),
            state={**state_to_dict(aggregate.state), "head": aggregate.state.head},
        )


store_as(
    MatchSnapshot, "ledger.snapshots:MatchSnapshot"
)  # its name since snapshots were first stored


def project_match(match: Match | None, events: Iterable[DomainEvent]) -> Match | None:
    """The one projector: a snapshot and/or events folded onto ``match`` (None: from nothing).

    A ``match`` given (a cached one being brought up to date) is advanced in
    place, as the library's aggregate cache expects.

    :raises StaleSnapshotError: for a snapshot this version cannot read, or a ruling
        after the snapshot or the cached match.
    """
    state = match.state if match is not None else None
    stream = match.id if match is not None else None
    version = match.version if match is not None else 0
    pending: list[MatchEvent] = []
    for event in events:
        if isinstance(event, MatchSnapshot):
            pending.clear()
            state = thaw(event)
        elif isinstance(event, MatchEvent):
            pending.append(event)
        stream, version = event.originator_id, event.originator_version
    try:
        state = fold(pending, state)
    except HistoryNeededError as error:
        raise StaleSnapshotError(str(error)) from error
    if state is None or stream is None:
        return None
    if match is not None:
        match.advance(version, state)
        return match
    return Match(stream, version, state)


def thaw(snapshot: MatchSnapshot) -> MatchState:
    """The state a snapshot keeps, with the chain's head.

    :raises StaleSnapshotError: for a snapshot this version cannot read.
    """
    head = snapshot.state.get("head")
    if not isinstance(head, str):
        raise StaleSnapshotError("a snapshot written before the hash chain")
    try:
        return replace(state_from_dict(snapshot.state), head=head)
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise StaleSnapshotError(str(error)) from error
