"""Snapshots of a match and the one projector that loads a match from the store.

Loading a match reads its latest :class:`MatchSnapshot` (the folded state in
:mod:`bgledger.projections.state.codec` form) and folds only the events after it with
:func:`project_match`, the same fold the aggregate uses live.

A snapshot also keeps the stream's hash chain at its event (``"head"`` beside
the codec's keys; :mod:`bgledger.events.chain`), which the next event recorded links
to, and ``"digest"``: the SHA-256 of the canonical JSON of everything else it
keeps, computed when it was taken.  Snapshots are a cache of derived state
(DESIGN principle 8): a command never decides on one it has not checked
(:func:`check`, run by :class:`CheckedSnapshots` on every load):

- its digest must still match its state (an edited state, a careless forgery);
- its head must be the ``chain`` of the stored event it was taken at, and its
  event count that event's number (a snapshot of another history, or moved);

and one that fails, or that cannot be read (written before the chain or the
digest, in a form the codec no longer reads, a row without state), is stale:
the match is folded from its events instead.  A forger who rewrites a state
*and* recomputes its digest passes these checks; ``bgledger verify`` refolds
every match from its events and compares every snapshot
(:mod:`bgledger.store.integrity`).  No event depends on a snapshot's form, so the
codec may change freely.

A ruling among the events after a snapshot (or after a cached match) cannot
be folded onto it: the match after a ruling is worked out from the events in
force before it (:mod:`bgledger.projections.state.rulings`), which a state
does not hold.  :func:`project_match` then raises :class:`StaleSnapshotError`
too, and the match is folded from its first event; the next snapshot, taken
after the ruling, serves again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, cast
from uuid import UUID

from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import EventStore

from bgledger.commands.match import Match
from bgledger.events import MatchEvent
from bgledger.events.chain import canonical_json, sha256_hex
from bgledger.projections.state.codec import state_from_dict, state_to_dict
from bgledger.projections.state.fold import HistoryNeededError, MatchState, fold
from bgledger.store.recorder import store_as

__all__ = [
    "CheckedSnapshots",
    "ForgedSnapshotError",
    "MatchSnapshot",
    "StaleSnapshotError",
    "Unusable",
    "check",
    "digest",
    "project_match",
    "refusal",
    "thaw",
]


class StaleSnapshotError(Exception):
    """A snapshot (or cached match) this bgledger cannot fold on from: replay the events instead.

    Written in a form it no longer reads, or followed by a ruling, which needs
    the events before it.
    """


class ForgedSnapshotError(StaleSnapshotError):
    """A snapshot changed after it was taken (its digest, head or count disagree): not used."""


@dataclass(frozen=True)
class MatchSnapshot(DomainEvent):
    """The folded state of a match at ``originator_version``, in
    :mod:`bgledger.projections.state.codec` form."""

    state: dict[str, Any]

    @classmethod
    def take(cls, aggregate: Match) -> MatchSnapshot:
        """A snapshot of ``aggregate`` as it stands."""
        state = {**state_to_dict(aggregate.state), "head": aggregate.state.head}
        return cls(
            originator_id=aggregate.id,
            originator_version=aggregate.version,
            timestamp=cls.create_timestamp(),
            state={**state, "digest": digest(state)},
        )


store_as(
    MatchSnapshot, "ledger.snapshots:MatchSnapshot"
)  # its name since snapshots were first stored


def digest(state: dict[str, Any]) -> str:
    """The digest a snapshot keeps of ``state``: SHA-256 of its canonical JSON, ``digest`` aside."""
    return sha256_hex(canonical_json({k: v for k, v in state.items() if k != "digest"}))


@dataclass(frozen=True, slots=True)
class Unusable:
    """Why a snapshot must not be used: ``why``; ``forged`` if it was changed after it was taken.

    A snapshot that is merely old (written before the chain or the digest) is
    not forged: it is replaced as the match goes on.
    """

    why: str
    forged: bool


def check(snapshot: MatchSnapshot, chain_at: str | None) -> Unusable | None:
    """Why ``snapshot`` must not be used (None: it may), ``chain_at`` the stored chain at its event.

    ``chain_at`` is the ``chain`` of the stream's stored event numbered as the
    snapshot (None: there is no such event).  The snapshot's digest must match
    its state, its head that chain, and its event count its number.
    """
    state = snapshot.state
    number = snapshot.originator_version
    if not isinstance(state.get("head"), str):
        return Unusable(f"the snapshot at event {number} was written before the hash chain", False)
    if not isinstance(state.get("digest"), str):
        return Unusable(f"the snapshot at event {number} was written without a digest", False)
    if state["digest"] != digest(state):
        why = f"the snapshot at event {number} no longer matches its digest: its state was edited"
        return Unusable(why, True)
    if chain_at is None:
        why = f"the snapshot at event {number} is of an event the stream does not hold"
        return Unusable(why, True)
    if state["head"] != chain_at:
        why = (
            f"the snapshot at event {number} keeps a chain head that is not event {number}'s: "
            "it is of another history"
        )
        return Unusable(why, True)
    if state.get("events") != number:
        why = f"the snapshot at event {number} says it covers {state.get('events')!r} events"
        return Unusable(why, True)
    return None


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
    if pending:  # a cached match nobody else wrote to stays as it is
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
        state = {k: v for k, v in snapshot.state.items() if k not in ("head", "digest")}
        return replace(state_from_dict(state), head=head)
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise StaleSnapshotError(str(error)) from error


def refusal(unusable: Unusable) -> StaleSnapshotError:
    """The error that keeps a command off a snapshot: :class:`ForgedSnapshotError` if forged."""
    kind = ForgedSnapshotError if unusable.forged else StaleSnapshotError
    return kind(unusable.why)


class CheckedSnapshots(EventStore[UUID]):
    """The snapshot store, handing out only snapshots that pass :func:`check`.

    Each snapshot read is checked against the events table (one row: the
    event it was taken at); one that fails, or that cannot be read, raises
    :class:`StaleSnapshotError`, and the caller folds the match from its events.

    :ivar events: the events' store (for the chain at a snapshot's event).
    """

    def __init__(self, snapshots: EventStore[UUID], events: EventStore[UUID]) -> None:
        super().__init__(snapshots.mapper, snapshots.recorder)
        self.events = events

    def get(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Iterator[DomainEvent]:
        """The snapshots of a stream, each checked against the stored event it was taken at.

        :raises StaleSnapshotError: for a snapshot that cannot be read or fails :func:`check`.
        """
        for snapshot in self.unchecked(originator_id, gt=gt, lte=lte, desc=desc, limit=limit):
            number = snapshot.originator_version
            at = self.events.recorder.select_events(originator_id, gt=number - 1, lte=number)
            chain_at: str | None = None
            if at:
                event = cast(MatchEvent, self.events.mapper.to_domain_event(at[0]))
                chain_at = event.chain
            unusable = check(snapshot, chain_at)
            if unusable is not None:
                raise refusal(unusable)
            yield snapshot

    def unchecked(self, originator_id: UUID | str, **options: Any) -> Iterator[MatchSnapshot]:
        """The snapshots of a stream as stored: the caller must :func:`check` each before use.

        ``options`` are the recorder's ``select_events`` ones (gt, lte, desc, limit).

        :raises StaleSnapshotError: for a row that cannot be read as a snapshot.
        """
        for row in self.recorder.select_events(originator_id, **options):
            try:
                snapshot = self.mapper.to_domain_event(row)
            except Exception as error:  # a row no bgledger wrote: fold from the events
                why = getattr(error, "why", error)
                raise StaleSnapshotError(
                    f"the snapshot at event {row.originator_version} cannot be read: {why}"
                ) from None
            if not isinstance(snapshot, MatchSnapshot):
                why = f"the row at event {row.originator_version} is not a snapshot"
                raise StaleSnapshotError(why)
            yield snapshot
