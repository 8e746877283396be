"""What the read models could not store: left out, reported once, every other row served.

DESIGN principle 11: a row a read model cannot take (a number past its
column, say) must not stop every view.  The catch-up and the rebuilds write
each match's rows under a savepoint; when the database (or its driver) refuses
one, the match is left out of ``list``, ``standings`` and ``rulings``, its stale
rows removed, and one warning naming it is logged (once a process), while the
other matches' rows go in.  The match's own pages read its events and still
serve.  ``bgledger rebuild`` brings it back once the cause is fixed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy.exc
from sqlalchemy import Connection, Table, insert

__all__ = ["UNSTORABLE", "LeftOut"]

log = logging.getLogger("bgledger.readmodels")

UNSTORABLE: tuple[type[Exception], ...] = (OverflowError, sqlalchemy.exc.DataError)
"""What a row no column can hold raises: SQLite's driver an OverflowError past 64 bits,
PostgreSQL a DataError ("integer out of range").  A database that is down or locked
raises other errors, which still fail the transaction (nothing is left out for them)."""


class LeftOut:
    """The matches (and events' standings) the read models left out, each reported once."""

    def __init__(self) -> None:
        self.named: set[str] = set()

    def report(self, what: str, error: BaseException) -> None:
        """Log, once for ``what`` (``match 'x'``), that it is left out and why."""
        if what in self.named:
            return
        self.named.add(what)
        lines = str(error).strip().splitlines()
        why = lines[0] if lines else type(error).__name__
        log.warning(
            "read models: %s cannot be stored (%s); it is left out of list, standings and "
            "rulings, every other view serves; run 'bgledger rebuild' once the cause is fixed",
            what,
            why,
        )

    def insert_each(
        self,
        connection: Connection,
        table: Table,
        rows: Sequence[dict[str, Any]],
        name: Callable[[dict[str, Any]], str],
    ) -> list[dict[str, Any]]:
        """Insert ``rows`` into ``table`` (at once; one by one if that is refused), leaving
        out and reporting (as ``name(row)``) each row that cannot be stored.

        :return: the rows stored.
        """
        if not rows:
            return []
        try:
            with connection.begin_nested():
                connection.execute(insert(table), list(rows))
            return list(rows)
        except UNSTORABLE:
            pass
        stored = []
        for row in rows:
            try:
                with connection.begin_nested():
                    connection.execute(insert(table), [row])
                stored.append(row)
            except UNSTORABLE as error:
                self.report(name(row), error)
        return stored
