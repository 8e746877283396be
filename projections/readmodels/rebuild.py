"""Rebuilding the read models in one pass: each match from its latest snapshot and its tail.

:meth:`bgledger.projections.readmodels.tracking.ReadModels.rebuild` (and the first catch-up of
a ledger whose read models are empty) works out every match's row from the
match's latest snapshot at or before the rebuilt position, plus the events
recorded after it, instead of decoding and folding every event again.

A snapshot (:class:`bgledger.store.snapshots.MatchSnapshot`) is the one fold's state
at an event (:func:`bgledger.projections.state.fold.fold`), taken by the ledger as it
records, and the state every command that loads a match starts from.  It is
used here only if it passes the checks every command makes
(:func:`bgledger.store.snapshots.check`): its digest matches its state, and the
event it was taken at carries the hash-chain head (:mod:`bgledger.events.chain`)
the snapshot kept.  A snapshot from another history (a store restored from a backup, a
stream edited by hand), one in an older form, or none at all, and the match
is folded from its first event, and so is a match with a ruling after its
snapshot (the match after a ruling is worked out from the events before it,
:mod:`bgledger.projections.state.rulings`).  ``bgledger rebuild --full``
folds every event of every match and reads no snapshot: after an upgrade of
bgledger that changes the fold, or to prove the snapshots right.

The rulings log needs every ruling's own fields, so every ruling is decoded
(one query, by topic); they are a few events a match.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent
from sqlalchemy import Connection, Table, func, select, true, tuple_

from bgledger.events import MatchEvent
from bgledger.projections.readmodels.rows import match_row, ruling_row
from bgledger.projections.state.corrected import voided_by
from bgledger.projections.state.fold import HistoryNeededError, MatchState, fold
from bgledger.store.recorder import stored_state
from bgledger.store.snapshots import MatchSnapshot, StaleSnapshotError, check, thaw

__all__ = ["Rebuilt", "Span", "rebuild_rows"]

_CHUNK = 500
"""Snapshots fetched per query (a bound on the statement's parameters)."""


@dataclass(frozen=True, slots=True)
class Span:
    """A stream up to the rebuilt position: its last event and its first notification."""

    stream: UUID
    version: int
    started_id: int


@dataclass
class Rebuilt:
    """The rows a one-pass rebuild computed, and what it read to compute them.

    ``events`` counts the events the rows cover (every event up to the
    position), ``folded`` those decoded and folded, ``snapshots`` the matches
    that started from a snapshot.
    """

    matches: list[dict[str, Any]] = field(default_factory=list)
    rulings: list[dict[str, Any]] = field(default_factory=list)
    events: int = 0
    folded: int = 0
    snapshots: int = 0


def rebuild_rows(
    connection: Connection,
    mapper: Mapper[UUID],
    tables: tuple[Table, Table],
    ruling_topics: Sequence[str],
    position: int,
    *,
    snapshots: bool = True,
    stream: UUID | None = None,
) -> Rebuilt:
    """The match index and rulings rows of every stream, as of notification ``position``.

    :param tables: the events table and the snapshots table.
    :param ruling_topics: the topics of the events the rulings log lists.
    :param snapshots: start from each match's snapshot if it passes its checks
        (False: fold every event, as ``verify`` does).
    :param stream: only this stream's rows (None: every stream's).
    :raises sqlalchemy.exc.SQLAlchemyError: on a database error.
    """
    events_table, snapshots_table = tables
    reader = _Reader(connection, mapper, events_table)
    spans = _spans(connection, events_table, position, stream)
    latest = _snapshots(connection, mapper, snapshots_table, spans) if snapshots else {}
    rebuilt = Rebuilt(events=sum(span.version for span in spans))
    states: dict[UUID, MatchState] = {}
    for span in spans:
        state = _state(reader, span, latest.get(span.stream), rebuilt)
        if state is not None:
            states[span.stream] = state
            rebuilt.matches.append(
                {**match_row(state, str(span.stream), span.version), "started_id": span.started_id}
            )
    rebuilt.rulings = _rulings(reader, ruling_topics, position, states, stream)
    return rebuilt


class _Reader:
    """Decodes rows of the events table into match events."""

    def __init__(self, connection: Connection, mapper: Mapper[UUID], table: Table) -> None:
        self.connection, self.mapper, self.table = connection, mapper, table

    def decode(self, stream: Any, version: int, topic: str, state: Any) -> MatchEvent:
        stored = StoredEvent(stream, version, topic, stored_state(state))
        return cast(MatchEvent, self.mapper.to_domain_event(stored))

    def stream(self, stream: UUID, first: int, last: int) -> list[MatchEvent]:
        """The stream's events ``first`` to ``last``, in order."""
        column = self.table.c
        rows = self.connection.execute(
            select(column.originator_id, column.originator_version, column.topic, column.state)
            .where(column.originator_id == stream)
            .where(column.originator_version.between(first, last))
            .order_by(column.originator_version)
        ).all()
        return [self.decode(*row) for row in rows]


def _spans(
    connection: Connection, table: Table, position: int, stream: UUID | None = None
) -> list[Span]:
    """Every stream with an event at or before ``position``, in the order it began."""
    column = table.c
    rows = connection.execute(
        select(column.originator_id, func.max(column.originator_version), func.min(column.id))
        .where(column.id <= position)
        .where(column.originator_id == stream if stream is not None else true())
        .group_by(column.originator_id)
    ).all()
    spans = [Span(_uuid(stream), int(version), int(first)) for stream, version, first in rows]
    return sorted(spans, key=lambda span: span.started_id)


def _snapshots(
    connection: Connection, mapper: Mapper[UUID], table: Table, spans: Sequence[Span]
) -> dict[UUID, MatchSnapshot]:
    """Each stream's latest snapshot at or before its span's last event (none: no entry)."""
    last = {span.stream: span.version for span in spans}
    column = table.c
    best: dict[UUID, int] = {}
    for stream, version in connection.execute(
        select(column.originator_id, column.originator_version)
    ):
        key = _uuid(stream)
        if version <= last.get(key, 0) and version > best.get(key, 0):
            best[key] = int(version)
    wanted = sorted(best.items())
    found: dict[UUID, MatchSnapshot] = {}
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        rows = connection.execute(
            select(
                column.originator_id, column.originator_version, column.topic, column.state
            ).where(tuple_(column.originator_id, column.originator_version).in_(chunk))
        ).all()
        for stream, version, topic, state in rows:
            try:
                snapshot = mapper.to_domain_event(
                    StoredEvent(stream, version, topic, stored_state(state))
                )
            except Exception:  # a snapshot that cannot be read is not used: fold the events
                continue
            if isinstance(snapshot, MatchSnapshot):
                found[_uuid(stream)] = snapshot
    return found


def _state(
    reader: _Reader, span: Span, snapshot: MatchSnapshot | None, rebuilt: Rebuilt
) -> MatchState | None:
    """The stream's state after its span: from the snapshot if it is the stream's, else folded."""
    if snapshot is not None:
        try:
            state: MatchState | None = thaw(snapshot)
        except StaleSnapshotError:
            state = None
        if state is not None:
            tail = reader.stream(span.stream, snapshot.originator_version, span.version)
            number = snapshot.originator_version
            at = tail[0] if tail and tail[0].originator_version == number else None
            if at is not None and check(snapshot, at.chain) is None:
                with contextlib.suppress(HistoryNeededError):  # else: a ruling in the tail
                    after = fold(tail[1:], state)
                    rebuilt.snapshots += 1
                    rebuilt.folded += len(tail) - 1
                    return after
    events = reader.stream(span.stream, 1, span.version)
    rebuilt.folded += len(events)
    return fold(events)


def _rulings(
    reader: _Reader,
    topics: Sequence[str],
    position: int,
    states: dict[UUID, MatchState],
    stream: UUID | None = None,
) -> list[dict[str, Any]]:
    """The rulings log rows of every match, ``voided_by`` set from the rulings in force."""
    column = reader.table.c
    rows = reader.connection.execute(
        select(column.id, column.originator_id, column.originator_version)
        .add_columns(column.topic, column.state)
        .where(column.topic.in_(topics), column.id <= position)
        .where(column.originator_id == stream if stream is not None else true())
        .order_by(column.id)
    ).all()
    by_stream: dict[UUID, list[tuple[int, MatchEvent]]] = defaultdict(list)
    for number, stream, version, topic, state in rows:
        by_stream[_uuid(stream)].append((number, reader.decode(stream, version, topic, state)))
    log: list[dict[str, Any]] = []
    for stream, rulings in by_stream.items():
        match = states.get(stream)
        if match is None:
            continue
        voided = voided_by(event for _, event in rulings)
        for number, event in rulings:
            row = ruling_row(event, match.match_id, match.event, number)
            row["voided_by"] = voided.get(event.originator_version)
            log.append(row)
    return sorted(log, key=lambda row: row["notification_id"])


def _uuid(value: Any) -> UUID:
    return value if isinstance(value, UUID) else UUID(str(value))
