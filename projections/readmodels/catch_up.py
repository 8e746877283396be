"""The read models' catch-up: the notifications after a position, folded onto each match's row.

:meth:`bgledger.projections.readmodels.tracking.ReadModels.catch_up` reads a batch of
notifications (rows of the events table, in commit order), groups them by
stream, folds each match's new events onto the state its match index row
keeps (:func:`bgledger.projections.state.fold.fold`, the one fold) and writes the match's
rows, its rulings and the standings of its event, in the caller's
transaction.  ``rebuild --full`` does the same from the first notification.

A ruling among a match's new events cannot be folded onto the stored state:
the match after it is worked out from the events in force before it
(:mod:`bgledger.projections.state.rulings`).  That match is then folded from
its events, read in the same transaction; rulings are a few events a match.

Each match's rows are written under a savepoint: a match whose rows the
database cannot take is left out and reported once
(:mod:`bgledger.projections.readmodels.left_out`), and the batch goes on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent
from sqlalchemy import Connection, Table, delete, insert, select, update

from bgledger.events import MatchEvent, RulingMade
from bgledger.projections.readmodels.left_out import UNSTORABLE, LeftOut
from bgledger.projections.readmodels.rows import (
    is_ruling,
    match_row,
    ruling_row,
    standing,
    standings_rows,
)
from bgledger.projections.readmodels.tables import matches_table, rulings_table, standings_table
from bgledger.projections.state.codec import state_from_dict
from bgledger.projections.state.corrected import voided_by
from bgledger.projections.state.fold import HistoryNeededError, MatchState, fold
from bgledger.store.recorder import UnreadableRowError, stored_state

__all__ = ["Batch", "NotificationFolder"]


@dataclass
class _Stream:
    """One match's notifications in a batch: (notification id, event), in order."""

    stream: str
    items: list[tuple[int, MatchEvent]] = field(default_factory=list)

    @property
    def first(self) -> int:
        """The number of its first event in the batch."""
        return self.items[0][1].originator_version


@dataclass(frozen=True)
class _Planned:
    """One match's rows as a batch makes them (its match index row with ``started_id``, its
    new rulings' rows) and the events whose standings they change."""

    stream: _Stream
    row: dict[str, Any]
    rulings: list[dict[str, Any]]
    standings: set[str]


@dataclass(frozen=True)
class Batch:
    """A batch of notifications planned (:meth:`NotificationFolder.plan`): read after
    ``position``, ``done`` of them up to ``reached``, making ``matches``' rows."""

    position: int
    done: int
    reached: int
    matches: list[_Planned]


class NotificationFolder:
    """Folds batches of notifications from the events ``table`` into the read model tables.

    :param mapper: the ledger's mapper (stored events to domain events).
    :param table: the events table.
    :param ruling_topics: the topics of :class:`~bgledger.events.RulingMade` and its kinds.
    :param batch: notifications read per :meth:`process`.
    :param folded: the state a command of this process left a match's stream in, if any
        (by stream), with its ``show --json`` summary: :meth:`plan` with ``reuse`` takes them
        for the fold of those events when they are theirs (:meth:`_fresh`).
    """

    def __init__(
        self,
        mapper: Mapper[UUID],
        table: Table,
        ruling_topics: Sequence[str],
        batch: int,
        folded: Callable[[str], tuple[MatchState, dict[str, Any]] | None] | None = None,
    ) -> None:
        self.mapper = mapper
        self.table = table
        self.ruling_topics = ruling_topics
        self.batch = batch
        self.folded = folded
        self.left_out = LeftOut()

    def process(self, connection: Connection, position: int, stop: int) -> tuple[int, int]:
        """Fold the notifications after ``position``, up to ``stop`` (one batch), into the tables.

        ``stop`` is an id the log was settled at (``LedgerRecorder.max_notification_id``):
        on PostgreSQL an id above it may still be filled in below one already committed.

        :return: how many were folded and the id of the last one (``position`` if none).
        """
        batch = self.plan(connection, position, stop)
        self.write(connection, batch)
        return batch.done, batch.reached

    def plan(self, connection: Connection, position: int, stop: int, reuse: bool = False) -> Batch:
        """The rows the notifications after ``position`` (up to ``stop``, one batch) make: read
        and folded, nothing written (the catch-up plans before it takes the write lock).

        ``reuse``: a match whose new events a command of this process recorded last takes
        the state that command's fold left (:meth:`_fresh`) instead of folding them again.
        """
        table = self.table
        rows = connection.execute(
            select(table.c.id, table.c.originator_id, table.c.originator_version)
            .add_columns(table.c.topic, table.c.state)
            .where(table.c.id > position, table.c.id <= stop)
            .order_by(table.c.id)
            .limit(self.batch)
        ).all()
        streams: dict[str, _Stream] = {}
        for row in rows:
            try:
                event = self._event(row.originator_id, row.originator_version, row.topic, row.state)
            except UnreadableRowError as error:
                raise _named(connection, error) from None
            key = str(row.originator_id)
            streams.setdefault(key, _Stream(key)).items.append((row.id, event))
        kept = self._kept_rows(connection, [s.stream for s in streams.values() if s.first > 1])
        planned = [
            self._plan_stream(connection, s, kept.get(s.stream), reuse) for s in streams.values()
        ]
        matches = [match for match in planned if match is not None]
        return Batch(position, len(rows), rows[-1].id if rows else position, matches)

    def write(self, connection: Connection, batch: Batch) -> None:
        """Write ``batch``'s rows and the standings it changes: all the matches' at once (a
        few statements, whatever their number), else, if the database refuses a row, each
        match under a savepoint of its own."""
        events_touched: set[str] = set()
        try:
            with connection.begin_nested():
                self._write_all(connection, batch.matches)
            for match in batch.matches:
                events_touched.update(match.standings)
        except UNSTORABLE:
            for match in batch.matches:
                events_touched.update(self._write_planned(connection, match))
        self._write_standings(connection, events_touched)

    def _write_all(self, connection: Connection, matches: list[_Planned]) -> None:
        """Replace the matches' rows, add their new rulings, mark those overturned."""
        if not matches:
            return
        column = matches_table.c
        streams = [match.stream.stream for match in matches]
        for start in range(0, len(streams), 500):  # a statement's parameters are bounded
            part = streams[start : start + 500]
            connection.execute(delete(matches_table).where(column.stream.in_(part)))
        connection.execute(insert(matches_table), [match.row for match in matches])
        rulings = [ruling for match in matches for ruling in match.rulings]
        if rulings:
            connection.execute(insert(rulings_table), rulings)
        for match in matches:
            if any(isinstance(event, RulingMade) for _, event in match.stream.items):
                version = match.stream.items[-1][1].originator_version
                self._mark_overturned(
                    connection, match.stream.stream, match.row["match_id"], version
                )

    def _kept_rows(self, connection: Connection, streams: list[str]) -> dict[str, Any]:
        """The match index rows of ``streams`` (version, state, started id), in one read
        (a read per 500 of them)."""
        column = matches_table.c
        kept: dict[str, Any] = {}
        for start in range(0, len(streams), 500):  # a statement's parameters are bounded
            query = select(column.stream, column.version, column.state, column.started_id)
            query = query.where(column.stream.in_(streams[start : start + 500]))
            kept.update((row.stream, row) for row in connection.execute(query))
        return kept

    def _plan_stream(
        self, connection: Connection, stream: _Stream, kept: Any, reuse: bool = False
    ) -> _Planned | None:
        """Fold one match's new events onto its stored state (``kept``: its match index row,
        if any): its rows to write (None if the stream is no match).  ``reuse``: see
        :meth:`plan`."""
        first = stream.first
        version = stream.items[-1][1].originator_version
        fresh = self._fresh(stream, kept) if reuse else None
        state: MatchState | None
        summary = None
        if fresh is not None:
            prior, state, summary = fresh
        else:
            prior = self._prior_state(connection, stream.stream, first, kept)
            try:
                state = fold((event for _, event in stream.items), prior)
            except HistoryNeededError:  # a ruling: the state alone does not give the match after
                state = fold(self._stream_events(connection, stream.stream, version))
        if state is None:
            return None
        row = match_row(state, stream.stream, version, summary)
        # the notification id of the match's start (the match index's order)
        started = stream.items[0][0] if prior is None or kept is None else int(kept.started_id)
        rulings = [
            ruling_row(event, state.match_id, state.event, number)
            for number, event in stream.items
            if is_ruling(event)
        ]
        # most lines (a roll, a play, a cube) leave the standings as they were: recomputed
        # only when the match is new to them or what they count of it changed
        standings: set[str] = set()
        if kept is None or prior is None or standing(prior) != standing(state):
            standings = {state.event} if prior is None else {prior.event, state.event}
        return _Planned(stream, {**row, "started_id": started}, rulings, standings)

    def _fresh(
        self, stream: _Stream, kept: Any
    ) -> tuple[MatchState | None, MatchState, dict[str, Any]] | None:
        """The match's state before its new events (from its row) and after them, with the
        summary of the latter, as the command of this process that recorded them last left
        them (:attr:`folded`), when that is the fold of these very events: the same last
        event, the same head of the hash chain (which every earlier event is linked into),
        and the row one event before the first (else None: they are folded)."""
        found = self.folded(stream.stream) if self.folded is not None else None
        if found is None:
            return None
        state, summary = found
        last = stream.items[-1][1]
        if state.events != last.originator_version or state.head != last.chain:
            return None
        if stream.first <= 1:
            return None, state, summary
        if kept is None or kept.version != stream.first - 1:
            return None
        try:
            return state_from_dict(json.loads(kept.state)), state, summary
        except (ValueError, KeyError, TypeError, IndexError):
            return None  # a state stored in an older form: fold the events instead

    def _write_planned(self, connection: Connection, planned: _Planned) -> set[str]:
        """Write one match's rows under a savepoint.

        :return: the event names whose standings change (none if its new events leave what
            the standings count of it as it was: :func:`standing`).
        """
        match_id = planned.row["match_id"]
        try:
            with connection.begin_nested():
                self._write_all(connection, [planned])
        except UNSTORABLE as error:  # left out: no stale row shows it as it was
            self.left_out.report(f"match {match_id!r}", error)
            column = matches_table.c
            connection.execute(delete(matches_table).where(column.stream == planned.stream.stream))
            connection.execute(delete(rulings_table).where(rulings_table.c.match_id == match_id))
            return {planned.row["event"]}
        return planned.standings

    def _prior_state(
        self, connection: Connection, stream: str, first: int, kept: Any
    ) -> MatchState | None:
        """The match's state before event ``first``: stored in ``kept`` (its match index
        row), else folded from its events."""
        if first <= 1:
            return None
        if kept is not None and kept.version == first - 1:
            try:
                return state_from_dict(json.loads(kept.state))
            except (ValueError, KeyError, TypeError, IndexError):
                pass  # a state stored in an older form: fold the events instead
        return fold(self._stream_events(connection, stream, first - 1))

    def _mark_overturned(
        self, connection: Connection, stream: str, match_id: str, version: int
    ) -> None:
        """Set ``voided_by`` on the match's rulings from the rulings in force (one rule)."""
        rulings = self._stream_events(connection, stream, version, self.ruling_topics)
        voided = voided_by(rulings)
        column = rulings_table.c
        connection.execute(
            update(rulings_table).where(column.match_id == match_id).values(voided_by=None)
        )
        for number, ruling in voided.items():
            connection.execute(
                update(rulings_table)
                .where(column.match_id == match_id, column.number == number)
                .values(voided_by=ruling)
            )

    def _write_standings(self, connection: Connection, events: set[str]) -> None:
        """Recompute the standings of ``events`` from the match index rows."""
        if not events:
            return
        column = matches_table.c
        matches = connection.execute(
            select(column.event, column.player_a, column.player_b)
            .add_columns(column.score_a, column.score_b, column.winner)
            .where(column.event.in_(sorted(events)))
        ).mappings()
        rows = standings_rows(dict(match) for match in matches)
        connection.execute(delete(standings_table).where(standings_table.c.event.in_(events)))
        self.left_out.insert_each(
            connection, standings_table, rows, lambda row: f"the standings of {row['event']!r}"
        )

    def _stream_events(
        self, connection: Connection, stream: str, lte: int, topics: Sequence[str] = ()
    ) -> list[MatchEvent]:
        """The stream's events up to ``lte`` (only those with ``topics`` if given), in order."""
        table = self.table
        query = (
            select(table.c.originator_id, table.c.originator_version)
            .add_columns(table.c.topic, table.c.state)
            .where(table.c.originator_id == UUID(stream), table.c.originator_version <= lte)
            .order_by(table.c.originator_version)
        )
        if topics:
            query = query.where(table.c.topic.in_(topics))
        rows = connection.execute(query).all()
        try:
            return [self._event(*row) for row in rows]
        except UnreadableRowError as error:
            raise _named(connection, error) from None

    def _event(self, stream: Any, version: int, topic: str, state: Any) -> MatchEvent:
        stored = StoredEvent(stream, version, topic, stored_state(state))
        return cast(MatchEvent, self.mapper.to_domain_event(stored))


def _named(connection: Connection, error: UnreadableRowError) -> UnreadableRowError:
    """``error`` naming its match, if the match's row knows the stream (else as it was)."""
    found = connection.execute(
        select(matches_table.c.match_id).where(matches_table.c.stream == str(error.stream))
    ).first()
    return error.of(found.match_id) if found is not None else error
