"""``verify``'s check of the read models: every row against the events (DESIGN principle 8).

The read models (``bgledger_rm_*``) are a cache that ``list``, ``standings``
and ``rulings`` print, and the next catch-up folds on from a match's stored
state: an edited row would be reported, and built upon, as if recorded.
:func:`audit_read_models` works out every row again from the events alone (no
snapshot, no stored state: :func:`~bgledger.projections.readmodels.rebuild.rebuild_rows`
folding every event) as of the position the models are caught up to, and
names each row that differs, is missing or has no match behind it.

A match whose every event was deleted still has its row in the match index
(until the next ``rebuild``): the row with no stream behind it is how
``verify`` notices the stream disappeared; and a tracking position beyond the
last notification shows the last events recorded were deleted.  Nothing is written: a ledger whose
read models were never built has nothing to compare.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID

from sqlalchemy import Connection, Engine, Table, func, inspect, select

from bgledger.events.names import topic_of
from bgledger.projections.readmodels.rebuild import rebuild_rows
from bgledger.projections.readmodels.rows import ruling_kinds, standings_rows
from bgledger.projections.readmodels.tables import (
    matches_table,
    rulings_table,
    standings_table,
    tracking_table,
)
from bgledger.projections.readmodels.tracking import TRACKING_NAME
from bgledger.store.application import MatchStore

__all__ = ["Finding", "audit_read_models"]


@dataclass(frozen=True, slots=True)
class Finding:
    """A read-model row that does not match the events: of match ``match_id`` (None: no match)."""

    match_id: str | None
    table: str
    why: str


def audit_read_models(
    ledger: MatchStore, match_id: str | None = None, stream: UUID | None = None
) -> list[Finding]:
    """Every read-model row (of ``match_id``'s match, if given) that the events do not give.

    ``stream`` is that match's stream (only its events are folded).

    :raises sqlalchemy.exc.SQLAlchemyError: on a database error.
    :raises Exception: whatever decoding an event raises (verify checks the chain first).
    """
    engine = cast(Engine, getattr(ledger.recorder, "datastore").engine)  # noqa: B009
    if not inspect(engine).has_table(tracking_table.name):
        return []
    events_table: Table = getattr(ledger.recorder, "events_record_cls").__table__  # noqa: B009
    recorder = getattr(ledger.snapshots, "recorder", None)
    snapshots_table: Table = getattr(recorder, "events_record_cls").__table__  # noqa: B009
    topics = [topic_of(kind) for kind in ruling_kinds()]
    with engine.connect() as connection:
        _one_snapshot(connection)
        position = connection.execute(
            select(tracking_table.c.notification_id).where(tracking_table.c.name == TRACKING_NAME)
        ).scalar()
        tables = (events_table, snapshots_table)
        rebuilt = rebuild_rows(
            connection,
            ledger.mapper,
            tables,
            topics,
            int(position or 0),
            snapshots=False,
            stream=stream,
        )
        last = connection.execute(select(func.max(events_table.c.id))).scalar()
        stored = {
            table.name: [dict(row) for row in connection.execute(select(table)).mappings()]
            for table in (matches_table, rulings_table, standings_table)
        }
    findings: list[Finding] = []
    if int(position or 0) > int(last or 0):
        why = (
            f"the read models have read the log up to notification {position}, but it ends at "
            f"{last or 0}: the last events recorded were deleted"
        )
        findings.append(Finding(None, tracking_table.name, why))
    findings += _compare(
        matches_table.name, ("match_id",), stored[matches_table.name], rebuilt.matches, match_id
    )
    findings += _compare(
        rulings_table.name,
        ("match_id", "number"),
        stored[rulings_table.name],
        rebuilt.rulings,
        match_id,
    )
    if match_id is None:
        findings += _compare(
            standings_table.name,
            ("event", "player"),
            stored[standings_table.name],
            standings_rows(rebuilt.matches),
            None,
        )
    return findings


def _one_snapshot(connection: Connection) -> None:
    """Make every read on ``connection`` see the database as of its first one.

    The position the models are caught up to, the events and the rows must be of
    one moment: read apart, a catch-up committed in between (a server's read, a
    ``list``) makes rows past the position look like matches without events.
    SQLite: an explicit ``BEGIN`` (the driver begins none for reads; in WAL mode a
    read transaction keeps its snapshot while writers go on); PostgreSQL:
    ``REPEATABLE READ``.
    """
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN")
    else:
        connection.execution_options(isolation_level="REPEATABLE READ")


def _compare(
    table: str,
    key: tuple[str, ...],
    stored: Iterable[Mapping[str, Any]],
    expected: Iterable[Mapping[str, Any]],
    match_id: str | None,
) -> list[Finding]:
    def keyed(rows: Iterable[Mapping[str, Any]]) -> dict[tuple[Any, ...], Mapping[str, Any]]:
        return {
            tuple(row[k] for k in key): row
            for row in rows
            if match_id is None or row.get("match_id") == match_id
        }

    have, want = keyed(stored), keyed(expected)
    findings: list[Finding] = []
    for k in sorted(have.keys() | want.keys(), key=repr):
        row, right = have.get(k), want.get(k)
        name = (row or right or {}).get("match_id")
        label = "/".join(str(part) for part in k)
        if right is None:
            why = f"{table} row {label} is not what the events give: no recorded match has it"
            if table == matches_table.name:
                why = (
                    f"{table} lists match {label}, but the ledger holds none of its events: "
                    "its events were deleted"
                )
            findings.append(Finding(name, table, why))
        elif row is None:
            findings.append(Finding(name, table, f"{table} has no row {label}: it was deleted"))
        else:
            differ = sorted(c for c in right if c in row and row[c] != right[c])
            if differ:
                verb = "differs" if len(differ) == 1 else "differ"
                why = f"{table} row {label}: {', '.join(differ)} {verb} from what the events give"
                findings.append(Finding(name, table, why))
    return findings
