"""The tables of the tournament-wide read models (SQLAlchemy Core), beside the events.

:mod:`bgledger.projections.readmodels.tracking` describes what each holds and keeps them
current; their names all begin ``bgledger_rm_`` so that they never meet the
event store's own tables (``bgledger_events``, ``bgledger_snapshots``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Boolean, Column, Engine, Integer, MetaData, Table, Text, select

__all__ = [
    "MODEL_TABLES",
    "dump_tables",
    "matches_table",
    "metadata",
    "rulings_table",
    "standings_table",
    "tracking_table",
]

metadata = MetaData()
tracking_table = Table(
    "bgledger_rm_tracking",
    metadata,
    Column("name", Text, primary_key=True),
    Column("notification_id", BigInteger, nullable=False),
)
matches_table = Table(
    "bgledger_rm_matches",
    metadata,
    Column("match_id", Text, primary_key=True),
    Column("stream", Text, nullable=False, unique=True),
    Column("started_id", BigInteger, nullable=False, index=True),
    Column("event", Text, nullable=False, index=True),
    Column("round", Text, nullable=False),
    Column("player_a", Text, nullable=False),
    Column("player_b", Text, nullable=False),
    Column("length", Integer, nullable=False),
    Column("score_a", Integer, nullable=False),
    Column("score_b", Integer, nullable=False),
    Column("game", Integer, nullable=False),
    Column("crawford", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("winner", Text),
    Column("last_at", Text, nullable=False),
    Column("events", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("state", Text, nullable=False),
    Column("summary", Text, nullable=False),
)
rulings_table = Table(
    "bgledger_rm_rulings",
    metadata,
    Column("match_id", Text, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("notification_id", BigInteger, nullable=False, index=True),
    Column("event", Text, nullable=False, index=True),
    Column("kind", Text, nullable=False),
    Column("rule", Text, nullable=False),
    Column("ruled_by", Text, nullable=False),
    Column("reason", Text, nullable=False),
    Column("at", Text, nullable=False),
    Column("recorded_by", Text, nullable=False),
    Column("agreed", Boolean),
    Column("overturns", Integer),
    Column("details", Text, nullable=False),
    Column("voided_by", Integer),
)
standings_table = Table(
    "bgledger_rm_standings",
    metadata,
    Column("event", Text, primary_key=True),
    Column("player", Text, primary_key=True),
    Column("played", Integer, nullable=False),
    Column("won", Integer, nullable=False),
    Column("lost", Integer, nullable=False),
    Column("in_progress", Integer, nullable=False),
    Column("points_for", Integer, nullable=False),
    Column("points_against", Integer, nullable=False),
)
MODEL_TABLES = (matches_table, rulings_table, standings_table)
"""The read models proper (the tracking table aside): what ``rebuild`` clears."""


def dump_tables(engine: Engine) -> dict[str, list[dict[str, Any]]]:
    """Every row of every read model and of the tracking table, in key order (to compare builds).

    :raises sqlalchemy.exc.SQLAlchemyError: on a database error.
    """
    with engine.connect() as connection:
        return {
            table.name: [
                dict(row)
                for row in connection.execute(select(table).order_by(*table.primary_key)).mappings()
            ]
            for table in (*MODEL_TABLES, tracking_table)
        }
