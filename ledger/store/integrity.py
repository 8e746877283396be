"""Checking a match stream's hash chain (DESIGN principle 6, ``bgledger verify``).

:func:`verify` recomputes every link of the chain (:mod:`bgledger.events.chain`),
every event, never a sample, and names the first event that does not match:

* an edited event (a die, a play, a time, its type, the line that made its
  entry: :attr:`~bgledger.events.MatchEvent.said`, DESIGN principle 12) no
  longer hashes to its ``chain``;
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
dropped on reading since class version 3; an event stored before lines were
kept, whose ``said`` is given on reading, is linked without it:
:func:`bgledger.events.chain.content`).

Events stored by a bgledger before the chain (class version 1) carry none.
Setting rows back to that form is also how an attacker would silence the
chain, so an unchained event fails verify unless the operator says the ledger
predates the chain (``allow_unchained``, ``verify --allow-unchained``); even
then they can only be a leading run of the stream (an unchained event after a
chained one is always a mismatch).

Once the chain holds, every snapshot of the stream is checked
(:func:`check_snapshots`): the match is folded again from its events and each
snapshot's state must equal the fold at its event, its chain head and digest
must match (:func:`bgledger.store.snapshots.check`).  A snapshot in an older
form, which no command uses, is skipped; one that cannot be read at all, or
whose state, head or digest disagree with the events, is a mismatch.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, cast
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from sqlalchemy import func, select

from bgledger.commands.match import match_uuid
from bgledger.errors import MatchNotFoundError
from bgledger.events import MatchEvent, MatchStarted
from bgledger.events.chain import link_content, stored_content
from bgledger.projections.state.codec import state_to_dict
from bgledger.projections.state.fold import HistoryNeededError, MatchState, fold
from bgledger.projections.state.witness import marked
from bgledger.store.application import MatchStore
from bgledger.store.recorder import LedgerRecorder
from bgledger.store.snapshots import MatchSnapshot, StaleSnapshotError, check, thaw

if TYPE_CHECKING:  # a seal's module loads cryptography: only ``verify --seal`` needs it
    from bgledger.store.seal import Seal

__all__ = [
    "Finding",
    "Problem",
    "ReadModelAudit",
    "Row",
    "UnreadableEventError",
    "Verdict",
    "Witness",
    "check_snapshots",
    "log_gaps",
    "streams",
    "verify",
    "verify_ledger",
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
    ``rewritten``, ``truncated`` or ``snapshot`` (a snapshot that disagrees
    with the events, or cannot be read); :func:`verify_ledger` adds ``readmodel``
    (a read-model row the events do not give, ``number`` 0) and ``deleted``
    (a hole in the notification log, ``number`` its first id; a sealed match
    whose events are gone, ``number`` 0); the front door adds ``publication``
    (a row of the events' publications that breaks what that table holds to,
    ``number`` 0: the words name the row).
    """

    number: int
    kind: str
    why: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """What :func:`verify` found in the stream of ``match_id``.

    ``events`` is how many events were checked (up to the first problem),
    ``unchained`` how many leading ones were stored before the chain,
    ``head`` the chain of the last event checked, ``snapshots`` how many
    snapshots were found equal to the match folded from its events.  ``marked``
    lists the entries whose time the ledger could not take as claimed, or that reached
    it more than the pad's offline window after their time (DESIGN principle 13,
    :func:`~bgledger.projections.state.witness.marked`): a listing for the director,
    not a fault (the chain holds; ``history`` says what each claimed and when it came).
    """

    match_id: str
    events: int = 0
    unchained: int = 0
    head: str = ""
    witnesses: tuple[str, ...] = ()
    problem: Problem | None = None
    snapshots: int = 0
    marked: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        """True when every link and every witness matches."""
        return self.problem is None

    def to_json(self) -> dict[str, Any]:
        """The verdict as JSON-stable values (``marked``, the entries :attr:`marked`, only
        when there are some)."""
        problem = self.problem
        marks = {"marked": list(self.marked)} if self.marked else {}
        return marks | {
            "match_id": self.match_id,
            "ok": self.ok,
            "events": self.events,
            "unchained": self.unchained,
            "head": self.head,
            "witnesses": list(self.witnesses),
            "snapshots": self.snapshots,
            "problem": None
            if problem is None
            else {"event": problem.number, "kind": problem.kind, "why": problem.why},
        }

    def text(self) -> str:
        """The verdict in one line: the first problem, or what was checked.

        E.g. ``final: 412 events, chain intact (head 9c1f...), matches the seal``.
        """
        problem = self.problem
        if problem is not None and problem.kind == "readmodel":
            return f"{self.match_id}: read models: {problem.why}"
        if problem is not None and problem.kind in ("deleted", "publication"):
            return f"{self.match_id}: {problem.why}"
        if problem is not None:
            return f"{self.match_id}: event {problem.number}: {problem.why}"
        text = f"{self.match_id}: {self.events} events, chain intact"
        if self.unchained:
            text = (
                f"{self.match_id}: events 1-{self.unchained} recorded before hash chains: "
                f"not verifiable; {self.events - self.unchained} chained events intact"
            )
        if self.head:
            text += f" (head {self.head[:16]})"
        text += "".join(f", matches {source}" for source in self.witnesses)
        if self.snapshots:
            text += f", {self.snapshots} snapshot(s) equal to the events refolded"
        if self.marked:
            numbers = ", ".join(str(number) for number in self.marked)
            text += f"; entered late or not at the time claimed (see history): {numbers}"
        return text


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
    allow_unchained: bool = False
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
        if not walk.allow_unchained:
            why = (
                f"event {number} has no chain: its chain was removed, or the ledger was "
                "recorded before hash chains (then say so: verify --allow-unchained)"
            )
            return Problem(number, "unchained", why)
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


def verify(
    match_id: str,
    rows: Iterable[Row],
    witnesses: Sequence[Witness] = (),
    *,
    allow_unchained: bool = False,
) -> Verdict:
    """Recompute every link of a match's chain; check it against ``witnesses``.

    ``rows`` are the stream's, in the stored order; an
    :class:`UnreadableEventError` raised while iterating them is reported as
    the event at fault.  Stops at the first problem.  An event without a chain
    is one unless ``allow_unchained`` (a ledger recorded before hash chains).
    """
    walk = _Walk(allow_unchained=allow_unchained)
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
            why = getattr(error, "why", str(error))
            raise UnreadableEventError(row.originator_version, why) from None
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


def _snapshot_rows(ledger: MatchStore, stream: UUID) -> list[StoredEvent]:
    """The stream's stored snapshots as rows, oldest first (read as stored, nothing checked)."""
    if ledger.snapshots is None:
        return []
    return list(ledger.snapshots.recorder.select_events(stream))


def _witness(ledger: MatchStore, rows: Sequence[StoredEvent]) -> Witness | None:
    """The chain at the latest of a stream's snapshot ``rows`` that keeps one (None: none does)."""
    for row in reversed(rows):
        try:
            snapshot = ledger.mapper.to_domain_event(row)
        except Exception:  # an unreadable snapshot vouches for nothing (check_snapshots names it)
            continue
        head = snapshot.state.get("head") if isinstance(snapshot, MatchSnapshot) else None
        if isinstance(head, str) and head:
            return Witness(row.originator_version, head, "the latest snapshot")
    return None


def check_snapshots(
    ledger: MatchStore, rows: Sequence[StoredEvent], events: Sequence[MatchEvent]
) -> tuple[int, Problem | None]:
    """Each snapshot ``rows`` hold against the match folded from ``events`` (the stream's, intact).

    :return: how many snapshots equal the fold at their event, and the first
        that cannot be read or disagrees with the events (None: none).
    """
    state: MatchState | None = None
    folded_to = 0
    equal = 0
    for row in rows:
        number = row.originator_version
        try:
            snapshot = ledger.mapper.to_domain_event(row)
        except Exception as error:  # any row that does not read back is a finding
            why = f"the snapshot at event {number} cannot be read: {getattr(error, 'why', error)}"
            return equal, Problem(number, "snapshot", why)
        if not isinstance(snapshot, MatchSnapshot):
            why = f"the snapshot at event {number} is a {type(snapshot).__name__}"
            return equal, Problem(number, "snapshot", why)
        chain_at = events[number - 1].chain if 0 < number <= len(events) else None
        unusable = check(snapshot, chain_at)
        if unusable is not None:
            if unusable.forged:
                return equal, Problem(number, "snapshot", unusable.why)
            continue  # an older form: no command uses it
        try:
            kept = thaw(snapshot)
        except StaleSnapshotError:  # a form this bgledger does not read: not used either
            continue
        try:
            state = fold(events[folded_to:number], state)
        except HistoryNeededError:  # a ruling needs the events before it
            state = fold(events[:number])
        folded_to = number
        assert state is not None  # number >= 1 and the stream begins with MatchStarted
        differ = _differences(kept, state)
        if differ:
            why = (
                f"the snapshot at event {number} does not match the match folded from events "
                f"1-{number} ({', '.join(differ)} differ): the snapshot was forged"
            )
            return equal, Problem(number, "snapshot", why)
        equal += 1
    return equal, None


def _differences(kept: MatchState, folded: MatchState) -> list[str]:
    """The codec keys on which two states differ (and ``head``)."""
    one, two = state_to_dict(kept), state_to_dict(folded)
    differ = [key for key in sorted(one.keys() | two.keys()) if one.get(key) != two.get(key)]
    return differ + (["head"] if kept.head != folded.head else [])


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


def log_gaps(ledger: MatchStore) -> list[tuple[int, int]]:
    """The runs of notification ids missing from a SQLite ledger's log: ``(first, last)`` each.

    SQLite gives each stored event the next id after the highest (a failed or
    rolled-back insert uses none), so the ids of a SQLite ledger run 1..N
    without a hole unless rows were deleted: a hole is events deleted, every
    event of a match included (a stream gone leaves no gap in any stream's
    numbers).  PostgreSQL's sequence skips the ids of rolled-back inserts (a
    lost race between scorekeepers), so there a hole proves nothing and none
    is reported.
    """
    recorder = cast(LedgerRecorder, ledger.recorder)
    table = recorder.table
    with recorder.transaction(commit=False) as session:
        if session.dialect.name != "sqlite":
            return []
        count, last = session.execute(select(func.count(), func.max(table.c.id))).one()
        if not last or count == last:
            return []
        ids = session.execute(select(table.c.id).order_by(table.c.id)).scalars().all()
    gaps: list[tuple[int, int]] = []
    expected = 1
    for found in ids:
        if found > expected:
            gaps.append((expected, found - 1))
        expected = found + 1
    return gaps


def verify_stream(
    ledger: MatchStore,
    stream: UUID,
    witnesses: Sequence[Witness] = (),
    *,
    asked: str | None = None,
    allow_unchained: bool = False,
) -> Verdict:
    """:func:`verify` on the stored rows of ``stream``, then :func:`check_snapshots`.

    The latest snapshot is also a witness of the stream's length.  The
    verdict names the match by the id in its first event (the stream id if
    unreadable); ``asked`` is the match id the stream was asked for by, if any.

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
    snapshots = _snapshot_rows(ledger, stream)
    snapshot = _witness(ledger, snapshots)
    extra = [] if snapshot is None else [snapshot]
    seen: list[MatchEvent] = []

    def decoded() -> Iterator[Row]:
        for row in _decode(ledger, rows):
            seen.append(row.event)
            yield row

    verdict = verify(name, decoded(), [*witnesses, *extra], allow_unchained=allow_unchained)
    if not verdict.ok:
        return verdict
    equal, problem = check_snapshots(ledger, snapshots, seen)
    late = tuple(event.originator_version for event in seen if marked(event))
    return replace(verdict, snapshots=equal, problem=problem, marked=late)


class Finding(Protocol):
    """A read-model row the events do not give: of match ``match_id`` (None: no match)."""

    @property
    def match_id(self) -> str | None: ...

    @property
    def table(self) -> str: ...

    @property
    def why(self) -> str: ...


ReadModelAudit = Callable[[MatchStore, str | None, UUID | None], Iterable[Finding]]
"""The read models checked against the events: of one match id and its stream, or of all.

The tournament read models sit above the store
(:func:`bgledger.projections.readmodels.row_audit.audit_read_models`): the front
door hands their audit to :func:`verify_ledger`.
"""


def verify_ledger(
    ledger: MatchStore,
    match_id: str | None = None,
    *,
    audit: ReadModelAudit,
    seal: Seal | None = None,
    allow_unchained: bool = False,
) -> list[Verdict]:
    """One match, or every stream, checked against its events (DESIGN principles 6 and 8).

    Every link of the hash chain is recomputed (:func:`verify_stream`), with
    the latest snapshot as a witness of the length; with ``seal``, the stream
    must still extend it (a ledger seal: every sealed match, one gone named as
    deleted).  Of every match, a SQLite ledger's notification log must also
    have no hole (:func:`log_gaps`).  Once the events hold, every read-model
    row is compared with the rows the events give (``audit``; a row whose match
    has no events left is a deleted match).

    :raises MatchNotFoundError: for an unknown match (one the read models
        list is reported as deleted instead).
    """
    if match_id is None and seal is not None and seal.whole_ledger:
        verdicts = _verify_sealed(ledger, seal, allow_unchained)
    elif match_id is None:
        verdicts = [
            verify_stream(ledger, stream, allow_unchained=allow_unchained)
            for stream in streams(ledger)
        ]
    else:
        witnesses = [] if seal is None else [Witness(seal.events, seal.head, "the seal")]
        try:
            verdicts = [
                verify_stream(
                    ledger,
                    match_uuid(match_id),
                    witnesses,
                    asked=match_id,
                    allow_unchained=allow_unchained,
                )
            ]
        except MatchNotFoundError:  # unknown, unless a seal or the read models list it
            if seal is not None:
                why = (
                    f"the seal of {seal.sealed_at} has it at event {seal.events}; its events "
                    "are gone: the match was deleted"
                )
                return [Verdict(match_id, problem=Problem(0, "deleted", why))]
            gone = audit(ledger, match_id, match_uuid(match_id))
            gone = [finding for finding in gone if finding.match_id == match_id]
            if not gone:
                raise
            return [Verdict(match_id, problem=Problem(0, "readmodel", gone[0].why))]
    if match_id is None:
        for first, last in log_gaps(ledger):
            why = (
                f"notifications {first}-{last} are missing from the log: events were "
                "deleted (a whole match, if no match shows a gap)"
            )
            verdicts.append(Verdict("the ledger", problem=Problem(first, "deleted", why)))
    if not all(verdict.ok for verdict in verdicts):
        return verdicts  # the read models are compared once the events hold
    by_id = {verdict.match_id: i for i, verdict in enumerate(verdicts)}
    only = None if match_id is None else match_uuid(match_id)
    for finding in audit(ledger, match_id, only):
        problem = Problem(0, "readmodel", finding.why)
        name = finding.match_id or finding.table
        at = by_id.get(name)
        if at is None:
            by_id[name] = len(verdicts)
            verdicts.append(Verdict(name, problem=problem))
        elif verdicts[at].ok:
            verdicts[at] = replace(verdicts[at], problem=problem)
    return verdicts


def _verify_sealed(ledger: MatchStore, seal: Seal, allow_unchained: bool) -> list[Verdict]:
    """Every stream, each sealed match against the ledger seal's head (one gone is named)."""
    verdicts = []
    sealed = {
        match_uuid(match_id): (match_id, events, head) for match_id, events, head in seal.matches
    }
    present = streams(ledger)
    for stream in present:
        if stream in sealed:
            match_id, events, head = sealed[stream]
            witness = Witness(events, head, f"the ledger seal of {seal.sealed_at}")
            verdicts.append(
                verify_stream(
                    ledger, stream, [witness], asked=match_id, allow_unchained=allow_unchained
                )
            )
        else:
            verdicts.append(verify_stream(ledger, stream, allow_unchained=allow_unchained))
    for stream in sorted(set(sealed) - set(present), key=lambda s: sealed[s][0]):
        match_id, events, _ = sealed[stream]
        why = (
            f"the ledger seal of {seal.sealed_at} has it at event {events}; its events are "
            "gone: the match was deleted"
        )
        verdicts.append(Verdict(match_id, problem=Problem(0, "deleted", why)))
    return verdicts
