"""Checking a match stream's hash chain (DESIGN principle 6, ``bgledger verify``).

:func:`verify` recomputes every link of the chain (:mod:`bgledger.events.chain`),
every event, never a sample, and names the first event that does not match:

* an edited event (a die, a play, a time, its type) no longer hashes to its
  ``chain``;
* a deleted event leaves a gap in the numbers 1..N; an inserted or moved one
  (rows swapped, renumbered) hashes to something else at its new place;
* a row that cannot be read back at all is named as such.

Anyone who can write to the database can also recompute the whole chain
after an edit, and can cut the tail of a stream: what reveals those is a
*witness* of the chain at some event, kept elsewhere (:class:`Witness`): a
director's signed seal (:mod:`bgledger.store.seal`) and, weaker since it lives in
the same database, the match's latest snapshot.  A witness beyond the last
event shows a truncated tail; a witness whose chain differs shows that
something at or before it was rewritten.

Each link is recomputed over the row as stored (its topic and its fields
decoded but not upcast: :func:`bgledger.events.chain.stored_content`), so the
chain covers exactly what the store holds, and a row stored by an older
bgledger still verifies after its class has changed (a ruling's ``state``,
dropped on reading since class version 3).

Events stored by a bgledger before the chain (class version 1) carry none:
they can only be a leading run of the stream and are reported as unchained,
not as a mismatch (an unchained event after a chained one is one).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from sqlalchemy import func, select

from bgledger.commands.match import match_uuid
from bgledger.errors import MatchNotFoundError
from bgledger.events import MatchEvent, MatchStarted
from bgledger.events.chain import link_content, stored_content
from bgledger.store.application import MatchStore
from bgledger.store.recorder import LedgerRecorder
from bgledger.store.snapshots import MatchSnapshot

__all__ = [
    "Problem",
    "Row",
    "UnreadableEventError",
    "Verdict",
    "Witness",
    "snapshot_witness",
    "streams",
    "verify",
    "verify_stream",
]


class UnreadableEventError(Exception):
    """Stored event ``number`` cannot be read back as a match event (``why``)."""

    def __init__(self, number: int, why: str) -> None:
        self.number, self.why = number, why
        super().__init__(f"event {number} cannot be read: {why}")


@dataclass(frozen=True, slots=True)
class Witness:
    """The chain a stream had at event ``number``, as ``source`` (a seal, a snapshot) keeps it."""

    number: int
    chain: str
    source: str


@dataclass(frozen=True, slots=True)
class Problem:
    """The first thing that does not match: at event ``number``, of ``kind``, ``why``.

    ``kind`` is ``edited``, ``missing``, ``unreadable``, ``unchained``,
    ``rewritten`` or ``truncated``.
    """

    number: int
    kind: str
    why: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """What :func:`verify` found in the stream of ``match_id``.

    ``events`` is how many events were checked (up to the first problem),
    ``unchained`` how many leading ones were stored before the chain,
    ``head`` the chain of the last event checked.
    """

    match_id: str
    events: int = 0
    unchained: int = 0
    head: str = ""
    witnesses: tuple[str, ...] = ()
    problem: Problem | None = None

    @property
    def ok(self) -> bool:
        """True when every link and every witness matches."""
        return self.problem is None

    def to_json(self) -> dict[str, Any]:
        """The verdict as JSON-stable values."""
        problem = self.problem
        return {
            "match_id": self.match_id,
            "ok": self.ok,
            "events": self.events,
            "unchained": self.unchained,
            "head": self.head,
            "witnesses": list(self.witnesses),
            "problem": None
            if problem is None
            else {"event": problem.number, "kind": problem.kind, "why": problem.why},
        }


@dataclass(frozen=True, slots=True)
class Row:
    """A stored event: as read back (upcast), and what its link covers, as stored."""

    event: MatchEvent
    covered: dict[str, Any]


@dataclass(slots=True)
class _Walk:
    """The state of a walk along the chain."""

    previous: str = ""
    count: int = 0
    unchained: int = 0
    at: dict[int, str] = field(default_factory=dict)


def _step(walk: _Walk, row: Row, watched: set[int]) -> Problem | None:
    number = walk.count + 1
    event = row.event
    version = event.originator_version
    if version != number:
        if version > number:
            why = f"event {number} is missing: the stream goes from {number - 1} to {version}"
            return Problem(number, "missing", why)
        return Problem(number, "edited", f"event {version} appears again at place {number}")
    if number == 1 and not isinstance(event, MatchStarted):
        return Problem(1, "edited", f"event 1 is {type(event).__name__}, not MatchStarted")
    if not event.chain:
        if walk.unchained < walk.count:
            why = f"event {number} has no chain, after chained events: its chain was removed"
            return Problem(number, "unchained", why)
        walk.unchained += 1
    else:
        try:
            expected = link_content(walk.previous, row.covered)
        except (AttributeError, TypeError, ValueError) as error:
            return Problem(number, "unreadable", f"event {number} cannot be hashed: {error}")
        if event.chain != expected:
            why = (
                f"event {number} ({type(event).__name__}) does not match the chain: "
                "it was changed, or moved here from elsewhere in the stream"
            )
            return Problem(number, "edited", why)
    walk.previous, walk.count = event.chain, number
    if number in watched:
        walk.at[number] = event.chain
    return None


def _check_witnesses(walk: _Walk, witnesses: Sequence[Witness]) -> Problem | None:
    for witness in sorted(witnesses, key=lambda w: w.number):
        if witness.number > walk.count:
            why = (
                f"{witness.source} vouches for {witness.number} events; the stream ends at "
                f"{walk.count}: events {walk.count + 1}-{witness.number} were cut off"
            )
            return Problem(walk.count + 1, "truncated", why)
        if walk.at[witness.number] != witness.chain:
            why = (
                f"events 1-{witness.number} no longer hash to the head {witness.source} "
                f"vouches for: something at or before event {witness.number} was rewritten"
            )
            return Problem(witness.number, "rewritten", why)
    return None


def verify(match_id: str, rows: Iterable[Row], witnesses: Sequence[Witness] = ()) -> Verdict:
    """Recompute every link of a match's chain; check it against ``witnesses``.

    ``rows`` are the stream's, in the stored order; an
    :class:`UnreadableEventError` raised while iterating them is reported as
    the event at fault.  Stops at the first problem.
    """
    walk = _Walk()
    watched = {w.number for w in witnesses}
    problem: Problem | None = None
    try:
        for row in rows:
            problem = _step(walk, row, watched)
            if problem is not None:
                break
    except UnreadableEventError as error:
        problem = Problem(error.number, "unreadable", str(error))
    if problem is None and walk.count == 0:
        problem = Problem(1, "missing", "the stream has no events")
    if problem is None:
        problem = _check_witnesses(walk, witnesses)
    sources = tuple(w.source for w in witnesses)
    return Verdict(match_id, walk.count, walk.unchained, walk.previous, sources, problem)


def _decode(ledger: MatchStore, rows: Sequence[StoredEvent]) -> Iterator[Row]:
    """The stored rows read back one by one as the store holds them now (no snapshot, no cache).

    :raises UnreadableEventError: while iterating, for a row that is not a match event.
    """
    for row in rows:
        try:
            event = ledger.mapper.to_domain_event(row)
            covered = stored_content(
                row.topic, event.originator_id, row.originator_version, _as_stored(ledger, row)
            )
        except Exception as error:  # any row that does not read back is a finding
            raise UnreadableEventError(row.originator_version, str(error)) from None
        if not isinstance(event, MatchEvent):
            raise UnreadableEventError(row.originator_version, f"a {type(event).__name__}")
        yield Row(event, covered)


def _as_stored(ledger: MatchStore, row: StoredEvent) -> dict[str, Any]:
    """The row's fields decoded as the mapper decodes them, but not upcast."""
    mapper = ledger.mapper
    data = row.state
    if mapper.cipher:
        data = mapper.cipher.decrypt(data)
    if mapper.compressor:
        data = mapper.compressor.decompress(data)
    decoded: dict[str, Any] = mapper.transcoder.decode(data)
    return decoded


def snapshot_witness(ledger: MatchStore, stream: UUID) -> Witness | None:
    """The chain at the match's latest snapshot (None without one, or an older one without it)."""
    if ledger.snapshots is None:
        return None
    try:
        found = ledger.snapshots.get(stream, desc=True, limit=1)
        latest = [cast(MatchSnapshot, snapshot) for snapshot in found]
    except Exception:  # an unreadable snapshot vouches for nothing; the events are checked
        return None
    head = latest[0].state.get("head") if latest else None
    if not isinstance(head, str) or not head:
        return None
    return Witness(latest[0].originator_version, head, "the latest snapshot")


def streams(ledger: MatchStore) -> list[UUID]:
    """Every stream with stored events, read from the events table itself.

    Unlike :meth:`~bgledger.store.application.MatchStore.match_ids` this does not need a
    readable :class:`MatchStarted`: a match whose first event was deleted or
    garbled is still checked.
    """
    recorder = cast(LedgerRecorder, ledger.recorder)
    table = recorder.table
    query = select(table.c.originator_id).group_by(table.c.originator_id)
    query = query.order_by(func.min(table.c.id))
    with recorder.transaction(commit=False) as session:
        found = session.execute(query).scalars().all()
    return [stream if isinstance(stream, UUID) else UUID(str(stream)) for stream in found]


def verify_stream(
    ledger: MatchStore, stream: UUID, witnesses: Sequence[Witness] = (), *, asked: str | None = None
) -> Verdict:
    """:func:`verify` on the stored rows of ``stream``, with its latest snapshot as a witness.

    The verdict names the match by the id in its first event (the stream id if unreadable);
    ``asked`` is the match id the stream was asked for by, if any.

    :raises MatchNotFoundError: if the stream has no stored events.
    """
    rows = ledger.recorder.select_events(stream)
    if not rows:
        what = f"stream {stream}" if asked is None else f"id {asked!r}"
        raise MatchNotFoundError(f"no match with {what} in {ledger.url}")
    name = str(stream)
    with contextlib.suppress(Exception):  # the verdict on the rows says what is wrong
        first = ledger.mapper.to_domain_event(rows[0])
        if isinstance(first, MatchStarted) and match_uuid(first.match_id) == stream:
            name = first.match_id
    snapshot = snapshot_witness(ledger, stream)
    extra = [] if snapshot is None else [snapshot]
    return verify(name, _decode(ledger, rows), [*witnesses, *extra])
