"""The application: one database URL, matches by the ids people type, commands and queries.

Storage is ``eventsourcing`` on SQLAlchemy (:mod:`bgledger.store.recorder`): a SQLite file
by default (``sqlite:///bgledger.db``), PostgreSQL
(``postgresql+psycopg://...``) for a tournament.  One stream per match; its
UUID is derived from the match id (:func:`bgledger.commands.match.match_uuid`).

Loading a match reads its latest snapshot (one every
:data:`SNAPSHOT_INTERVAL` events), checks it against the event it was taken
at (:class:`~bgledger.store.snapshots.CheckedSnapshots`: its digest, chain head
and count; one that fails is not used and the match is folded from its
events), and folds the events after it, so a command on a long match folds
at most that many events.  A ruling among those events
needs the events before it (:mod:`bgledger.projections.state.rulings`): the
match is then folded from its first event.  So that this stays rare, the
match is also snapshot right after each command that records a ruling.

Example::

    >>> ledger = MatchStore("sqlite:///:memory:")
    >>> ledger.start(("Ann", "Bob"), 3, match_id="final", by="kim")
    'final'
    >>> ledger.act("final", lambda m: m.opening(6, 1, by="kim"))
    >>> ledger.state("final").turn
    'a'
"""

from __future__ import annotations

import contextlib
import difflib
import secrets
from collections.abc import Callable, Iterator
from copy import deepcopy
from typing import Any, ClassVar, TypeVar, cast
from uuid import UUID

import sqlalchemy.exc
from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import EventStore, IntegrityError, Mapper, Recording

from bgledger.commands.match import Match, match_uuid
from bgledger.errors import ConcurrentWriteError, MatchExistsError, MatchNotFoundError
from bgledger.events import EntryCorrected, MatchEvent, MatchStarted, RulingMade
from bgledger.events.names import topic_of
from bgledger.projections.state.fold import MatchState, fold
from bgledger.store.keys import Keyed
from bgledger.store.recorder import (
    Guard,
    LedgerMapper,
    LedgerRecorder,
    SnapshotRecorder,
    UnreadableRowError,
)
from bgledger.store.snapshots import (
    CheckedSnapshots,
    ForgedSnapshotError,
    MatchSnapshot,
    StaleSnapshotError,
    check,
    project_match,
    refusal,
)

__all__ = ["DEFAULT_URL", "SNAPSHOT_INTERVAL", "MatchStore"]

DEFAULT_URL = "sqlite:///bgledger.db"
SNAPSHOT_INTERVAL = 50
"""Events between snapshots: a command folds at most this many events after loading one."""

_ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
_CONFLICTS = (IntegrityError, sqlalchemy.exc.IntegrityError)
T = TypeVar("T")


class MatchStore(Application[UUID]):
    """The match ledger on one SQLAlchemy database.

    :param url: a SQLAlchemy URL; ``sqlite:///:memory:`` for a throwaway ledger.
    :param cache_size: keep this many matches in memory between commands (as
        :class:`bgledger.Ledger`'s); each use still reads any events other scorekeepers
        added since.
    """

    name = "bgledger"
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {Match: SNAPSHOT_INTERVAL}
    snapshotting_projectors: ClassVar[dict[type[Any], Any]] = {Match: project_match}
    snapshot_class = MatchSnapshot

    def __init__(self, url: str = DEFAULT_URL, *, cache_size: int = 16) -> None:
        env = {
            "PERSISTENCE_MODULE": "bgledger.store.recorder:LedgerFactory",
            "SQLALCHEMY_URL": url,
            "IS_SNAPSHOTTING_ENABLED": "y",
            "AGGREGATE_CACHE_MAXSIZE": str(cache_size) if cache_size else "",
        }
        super().__init__(env)
        self.url = url
        self.distrusted: list[str] = []
        """What was found forged and not used (a snapshot), one line each, for the user."""
        self._decided: Match | None = None
        """The match :meth:`act` is saving: folded from its events, then decided on."""
        self._folded: set[UUID] = set()
        """The matches in the aggregate cache that were folded from their events (not seeded
        from a snapshot by a read): a command may decide on them as they fold on."""

    def construct_mapper(self) -> Mapper[UUID]:
        """The :class:`~bgledger.store.recorder.LedgerMapper`: events stored by their names."""
        return self.factory.mapper(
            transcoder=self.construct_transcoder(), mapper_class=LedgerMapper
        )

    def construct_snapshot_store(self) -> EventStore[UUID]:
        """The snapshots, each checked against the events before a command uses it.

        A snapshot whose digest, chain head or event count does not match
        (:func:`bgledger.store.snapshots.check`) is not used: the match is
        folded from its events (DESIGN principle 8, caches never decide).
        """
        return CheckedSnapshots(super().construct_snapshot_store(), self.events)

    # -- commands -------------------------------------------------------------

    def start(
        self,
        players: tuple[str, str],
        length: int,
        *,
        match_id: str | None = None,
        by: str,
        keyed: Keyed | None = None,
        **options: Any,
    ) -> str:
        """Record a new match and return its id (a short generated one if ``match_id`` is None).

        ``keyed``: the client's key, stored with the match's first events.

        ``options`` are :meth:`Match.start`'s keyword arguments (profile,
        clock, crawford, event, round, table, meta, at).

        :raises MatchExistsError: if ``match_id`` is taken.
        :raises InvalidMatchSetupError, UnknownProfileError, InvalidTimeError: as
            :meth:`Match.start`.
        """
        chosen = match_id or self.new_id()
        match = Match.start(match_uuid(chosen), chosen, players, length, by=by, **options)
        try:
            self.save(match, **({"keyed": keyed} if keyed is not None else {}))
        except _CONFLICTS:
            raise MatchExistsError(
                f"a match with id {chosen!r} already exists; choose another --id"
            ) from None
        return chosen

    def forget(self, match_id: str) -> None:
        """Drop the match from the aggregate cache: a transaction it was saved in rolled back."""
        stream, cache = match_uuid(match_id), self.repository.cache
        self._folded.discard(stream)
        if cache is not None:
            with contextlib.suppress(KeyError):
                cache.get(stream, evict=True)

    def act(
        self,
        match_id: str,
        command: Callable[[Match], T],
        keyed: Keyed | None = None,
        guard: Guard | None = None,
    ) -> T:
        """Load the match, run ``command`` on it, store what it recorded; return its result.

        Nothing is stored if ``command`` raises.  ``keyed``: the client's key, stored
        with the events in their transaction (:mod:`bgledger.store.keys`); ``guard``:
        a check made in that transaction before the insert (:data:`Guard`), which
        refuses the write by raising.

        :raises MatchNotFoundError: if there is no such match.
        :raises ConcurrentWriteError: if someone recorded in this match after it
            was loaded; nothing of ours was stored, and retrying decides afresh.
        """
        match = self._to_decide_on(match_id)
        loaded = match.version
        result = command(match)
        self._decided = match
        saved: dict[str, Any] = {"keyed": keyed} if keyed is not None else {}
        if guard is not None:
            saved["guard"] = guard
        try:
            self.save(match, **saved)
        except _CONFLICTS:
            raced = self._describe_event(match.id, loaded + 1)
            raise ConcurrentWriteError(
                f"match {match_id!r}: {raced} was recorded by another scorekeeper while "
                "this action was decided; nothing was recorded: check the match and retry",
                raced,
            ) from None
        finally:
            self._decided = None
        return result

    def _to_decide_on(self, match_id: str) -> Match:
        """The match a command decides on: folded from its events, never from a snapshot.

        A snapshot is checked against the event it was taken at (its digest, head
        and count), but one forged with its digest recomputed would pass: so a
        command, which records events and snapshots of its own from what it
        decides on, folds the stream from its events (DESIGN principle 8: caches
        never decide; about 12 ms for 1,500 events).  With the aggregate cache (the
        console, the web server) that is the first command on the match in the
        process; the cached match then folds on from the events stored since.
        Reads (``show``, ``history``) may start from a checked snapshot.

        :raises MatchNotFoundError: if there is no such match.
        :raises UnreadableRowError: for a stored event that cannot be read.
        """
        stream, cache = match_uuid(match_id), self.repository.cache
        if cache is not None and stream in self._folded:
            try:
                cache.get(stream)  # still cached: it folds on through the repository
            except KeyError:
                self._folded.discard(stream)
            else:
                return self.load(match_id)
        try:
            match = self._replay(stream, None)
        except MatchNotFoundError:
            raise self._not_found(match_id) from None
        except UnreadableRowError as error:
            raise error.of(match_id) from None
        if cache is not None:
            cache.put(stream, deepcopy(match))
            self._folded.add(stream)
        return match

    def rule(
        self,
        match_id: str,
        command: Callable[[Match, list[MatchEvent]], T],
        keyed: Keyed | None = None,
        guard: Guard | None = None,
    ) -> T:
        """:meth:`act` for a ruling: ``command`` also gets the match's whole history.

        :raises MatchNotFoundError, ConcurrentWriteError: as :meth:`act`.
        """

        def decide(match: Match) -> T:
            return command(match, self.history(match_id)[: match.version])

        return self.act(match_id, decide, keyed, guard)

    def to_rule_on(self, match_id: str) -> tuple[Match, list[MatchEvent]]:
        """The match as :meth:`rule` decides on it, and its history; for trying rulings.

        Nothing the caller does to the match is stored (the director's picker tries
        each ruling on a copy of it, :meth:`bgledger.Ledger.open_rulings`).

        :raises MatchNotFoundError: if there is no such match.
        """
        match = self._to_decide_on(match_id)
        return match, self.history(match_id)[: match.version]

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording[UUID]]:
        """The library's ``save``, collecting a :class:`Match`'s events without its protocol checks.

        ``ProcessingEvent.collect_events`` asks ``isinstance`` of two runtime
        protocols for every object saved; on Python 3.11 each such check walks
        the protocol's members (about 40 us: a tenth of storing an action on
        PostgreSQL).  A ``Match`` is an aggregate: its events are collected as
        the library collects an aggregate's; anything else goes the library's way.
        """
        processing_event: ProcessingEvent[UUID] = ProcessingEvent()
        for obj in objs:
            if type(obj) is Match:
                processing_event.events.extend(obj.collect_events())
                processing_event.aggregates[obj.id] = obj
            else:
                processing_event.collect_events(obj)
        processing_event.saved_kwargs.update(kwargs)
        recordings = super()._record(processing_event)  # what this class's _record does
        self._recache(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        self.notify(processing_event.events)  # the library's deprecated hook, as it calls it
        return recordings

    def _record(self, processing_event: ProcessingEvent[UUID]) -> list[Recording[UUID]]:
        # The library caches a saved aggregate only without fast-forwarding;
        # with it (the default, so that another scorekeeper's events are
        # read) the cache would keep the match as first loaded and fold its
        # whole stream again on every command.
        recordings = super()._record(processing_event)
        self._recache(processing_event)
        return recordings

    def _recache(self, processing_event: ProcessingEvent[UUID]) -> None:
        cache = self.repository.cache
        if cache is not None and self.repository.fastforward:
            for stream, aggregate in processing_event.aggregates.items():
                cache.put(stream, aggregate)

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        # A snapshot is an optimisation: losing a race to write one (another
        # process took it first) must not turn a stored action into an error.
        if self.snapshots is None:
            return
        for event in processing_event.events:
            if event.originator_version % SNAPSHOT_INTERVAL:
                continue
            stream, number = event.originator_id, event.originator_version
            match = processing_event.aggregates.get(stream)
            with contextlib.suppress(*_CONFLICTS):
                if isinstance(match, Match) and match is self._decided and match.version == number:
                    # The match :meth:`act` decided on was folded from its events, never
                    # from a snapshot, and its command folded its new events onto it: it
                    # is the fold that :meth:`take_snapshot` would read back and redo
                    # (a quarter of a millisecond an event, every 50 events).
                    self.snapshots.put([MatchSnapshot.take(match)])
                elif isinstance(match, Match):
                    self.take_snapshot(stream, number)
        self._snapshot_rulings(processing_event)

    def _snapshot_rulings(self, processing_event: ProcessingEvent[UUID]) -> None:
        """Snapshot a match right after a command that recorded a ruling.

        A ruling after the latest snapshot cannot be folded onto it (it needs
        the events before it): every load would fold the whole stream again
        until the next snapshot.  The match the command left, in memory, is
        that snapshot.
        """
        if self.snapshots is None:
            return
        ruled = {
            e.originator_id
            for e in processing_event.events
            if isinstance(e, RulingMade | EntryCorrected)
        }
        for stream in ruled:
            match = processing_event.aggregates.get(stream)
            if isinstance(match, Match) and match.version % SNAPSHOT_INTERVAL:
                with contextlib.suppress(*_CONFLICTS):
                    self.snapshots.put([MatchSnapshot.take(match)])

    def take_snapshot(
        self, aggregate_id: UUID, version: int | None = None, projector_func: Any = project_match
    ) -> None:
        """Snapshot the match at ``version``, folded from its events.

        Never from the snapshot before it: a snapshot forged with its digest
        recomputed passes its own checks, and a new snapshot built on it would
        carry the forgery on (DESIGN principle 8).  One every
        :data:`SNAPSHOT_INTERVAL` events, a fold of the stream costs a command
        about a quarter of a millisecond an event.

        :raises AggregateNotFoundError: if there is no such stream.
        """
        assert self.snapshots is not None
        try:
            match = self._replay(aggregate_id, version)
        except MatchNotFoundError:
            raise AggregateNotFoundError(aggregate_id) from None
        self.snapshots.put([MatchSnapshot.take(match)])

    def store_new(self, *matches: Match) -> None:
        """Store whole new matches (an import) and one snapshot each, in one transaction.

        Live recording snapshots every :data:`SNAPSHOT_INTERVAL` events by
        reading the match back; an import has each match in memory already,
        so it writes one snapshot of its final state instead.  The events are
        encoded by the same mapper as :meth:`act`'s (:meth:`_store_whole`).

        :raises IntegrityError: if one of the matches exists (nothing is stored).
        """
        self._store_whole(matches)

    def _store_whole(self, matches: tuple[Match, ...]) -> None:
        """:meth:`store_new`: the events and snapshots in one ``executemany`` each, one commit."""
        recorder = cast(LedgerRecorder, self.recorder)
        mapper = cast(LedgerMapper, self.mapper)
        stored = mapper.to_stored_events(e for match in matches for e in match.pending)
        snapshots, snapshot_rows = self.snapshots, []
        if snapshots is not None:
            taken = [MatchSnapshot.take(match) for match in matches]
            snapshot_rows = [snapshots.mapper.to_stored_event(s) for s in taken]
        snapshot_recorder = cast(SnapshotRecorder, (snapshots or self.events).recorder)
        recorder.insert_new_streams(stored, snapshot_recorder, snapshot_rows)
        for match in matches:
            match.collect_events()  # stored: no longer pending
        cache = self.repository.cache
        if cache is not None and self.repository.fastforward:
            for match in matches:
                cache.put(match.id, match)

    # -- queries --------------------------------------------------------------

    def load(self, match_id: str, at: int | None = None) -> Match:
        """The match as recorded (after event ``at`` if given, else now).

        :raises MatchNotFoundError: if there is no such match or ``at`` is not
            one of its event numbers.
        :raises UnreadableRowError: for a stored event that cannot be read.
        """
        stream = match_uuid(match_id)
        try:
            match = self._get(stream, at, match_id)
        except AggregateNotFoundError:
            raise self._not_found(match_id) from None
        except UnreadableRowError as error:
            raise error.of(match_id) from None
        if at is not None and match.version != at:
            raise MatchNotFoundError(
                f"match {match_id!r} has {match.version} events: --at {at} is not one of them"
            )
        return match

    def _get(self, stream: UUID, at: int | None, match_id: str) -> Match:
        """The match from its checked snapshot and the events after it, else from its events.

        A forged snapshot is noted in :attr:`distrusted`.

        :raises AggregateNotFoundError: if the stream has no events (up to ``at``).
        """
        try:
            if self.repository.cache is not None and at is None:
                return self.repository.get(stream, projector_func=project_match)
            return self._from_snapshot(stream, at)
        except StaleSnapshotError as error:
            if isinstance(error, ForgedSnapshotError):
                self.distrusted.append(f"match {match_id!r}: {error}")
            # else an older form, or a ruling after the snapshot or the cached match
            match = self._replay(stream, at)
            cache = self.repository.cache
            if cache is not None and at is None:  # the next load folds on from this one
                cache.put(stream, deepcopy(match))
            return match

    def _from_snapshot(self, stream: UUID, at: int | None) -> Match:
        """The match from its latest snapshot, checked on the event it was taken at, and the rest.

        The events are read from the snapshot's own event on, so that the check
        costs no extra query (the library's repository reads those after it).

        :raises StaleSnapshotError: for a snapshot that fails its checks, or a ruling after it.
        :raises AggregateNotFoundError: if the stream has no events (up to ``at``).
        """
        snapshots = cast(CheckedSnapshots, self.snapshots)
        snapshot = next(snapshots.unchecked(stream, lte=at, desc=True, limit=1), None)
        if snapshot is None:
            found = project_match(
                None, cast(Iterator[DomainEvent], self.events.get(stream, lte=at))
            )
        else:
            number = snapshot.originator_version
            events = cast(list[DomainEvent], list(self.events.get(stream, gt=number - 1, lte=at)))
            first = cast(MatchEvent, events[0]) if events else None
            chain_at = first.chain if first and first.originator_version == number else None
            unusable = check(snapshot, chain_at)
            if unusable is not None:
                raise refusal(unusable)
            found = project_match(None, [snapshot, *events[1:]])
        if found is None:
            raise AggregateNotFoundError(stream)
        return found

    def _replay(self, stream: UUID, at: int | None) -> Match:
        events = cast(Iterator[MatchEvent], iter(self.events.get(stream, lte=at)))
        state = fold(events)
        if state is None:
            raise MatchNotFoundError(f"no match with stream {stream}")
        return Match(stream, state.events, state)

    def state(self, match_id: str, at: int | None = None) -> MatchState:
        """The folded state of the match (after event ``at`` if given).

        :raises MatchNotFoundError: as :meth:`load`.
        """
        return self.load(match_id, at).state

    def history(self, match_id: str) -> list[MatchEvent]:
        """Every event of the match, in order.

        :raises MatchNotFoundError: if there is no such match.
        :raises UnreadableRowError: for a stored row that cannot be read.
        """
        try:
            events = [cast(MatchEvent, e) for e in self.events.get(match_uuid(match_id))]
        except UnreadableRowError as error:
            raise error.of(match_id) from None
        if not events:
            raise self._not_found(match_id)
        return events

    def _not_found(self, match_id: str) -> MatchNotFoundError:
        """No match ``match_id``: the error names the ids it looks like (a typo at the table)."""
        close = difflib.get_close_matches(match_id, self.match_ids(), n=3, cutoff=0.6)
        hint = f": did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        return MatchNotFoundError(f"no match with id {match_id!r} in {self.url}{hint}")

    def match_ids(self) -> list[str]:
        """The id of every match, in the order they were started."""
        return [started.match_id for started in self.started()]

    def started(self) -> Iterator[MatchStarted]:
        """Every match's :class:`MatchStarted`, in the order they were started, from the log."""
        topic = topic_of(MatchStarted)
        start = 1
        while True:
            page = self.recorder.select_notifications(start, 500, topics=[topic])
            for notification in page:
                yield cast(MatchStarted, self.mapper.to_domain_event(notification))
            if len(page) < 500:
                return
            start = page[-1].id + 1

    def exists(self, match_id: str) -> bool:
        """Whether a match ``match_id`` has any event stored (one row read, none decoded)."""
        return bool(list(self.events.get(match_uuid(match_id), limit=1)))

    def new_id(self) -> str:
        """A short id no match has yet (six letters and digits that cannot be misread)."""
        while True:
            candidate = "".join(secrets.choice(_ID_ALPHABET) for _ in range(6))
            if not self.exists(candidate):
                return candidate

    def _describe_event(self, stream: UUID, version: int) -> str:
        found = list(self.events.get(stream, gt=version - 1, lte=version))
        if not found:
            return f"event {version}"
        event = cast(MatchEvent, found[0])
        return f"event {version} ({type(event).__name__}, by {event.recorded_by} at {event.at})"
