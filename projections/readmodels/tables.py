"""The tables of the tournament-wide read models (SQLAlchemy Core), beside the events.

:mod:`bgledger.projections.readmodels.tracking` describes what each holds and keeps them
current; their names all begin ``bgledger_rm_`` so that they never meet the
event store's own tables (``bgledger_events``, ``bgledger_snapshots``).

Every number is a ``BigInteger``: wide enough for every value a command can
record (the commands bound them, DESIGN principle 11), on PostgreSQL too, whose
``INTEGER`` stops at 2**31 - 1.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Boolean, Column, Engine, MetaData, Table, Text, select

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
    Column("length", BigInteger, nullable=False),
    Column("score_a", BigInteger, nullable=False),
    Column("score_b", BigInteger, nullable=False),
    Column("game", BigInteger, nullable=False),
    Column("crawford", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("winner", Text),
    Column("last_at", Text, nullable=False),
    Column("events", BigInteger, nullable=False),
    Column("version", BigInteger, nullable=False),
    Column("state", Text, nullable=False),
    Column("summary", Text, nullable=False),
)
rulings_table = Table(
    "bgledger_rm_rulings",
    metadata,
    Column("match_id", Text, primary_key=True),
    Column("number", BigInteger, primary_key=True),
    Column("notification_id", BigInteger, nullable=False, index=True),
    Column("event", Text, nullable=False, index=True),
    Column("kind", Text, nullable=False),
    Column("rule", Text, nullable=False),
    Column("ruled_by", Text, nullable=False),
    Column("reason", Text, nullable=False),
    Column("at", Text, nullable=False),
    Column("recorded_by", Text, nullable=False),
    Column("agreed", Boolean),
    Column("overturns", BigInteger),
    Column("details", Text, nullable=False),
    Column("voided_by", BigInteger),
)
standings_table = Table(
    "bgledger_rm_standings",
    metadata,
    Column("event", Text, primary_key=True),
    Column("player", Text, primary_key=True),
    Column("played", BigInteger, nullable=False),
    Column("won", BigInteger, nullable=False),
    Column("lost", BigInteger, nullable=False),
    Column("in_progress", BigInteger, nullable=False),
    Column("points_for", BigInteger, nullable=False),
    Column("points_against", BigInteger, nullable=False),
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
