"""Whether an event's wall is open to spectators: the director's word, kept as facts.

``bgledger publish --event E`` (or the switch on the director's console, ``POST
/api/events/E/publish``) opens the event's wall to spectators; ``--off`` closes
it.  Each change is one row of the table ``bgledger_publications`` in the
ledger's own database, made on first use: the event, open or closed, who and
when, and the number of the event's change before it.  A row is never updated
or deleted; the latest row of an event decides, and the rows are its history.
Publishing what is public already, or closing what is closed, records nothing.

One history per event, even with two servers on one database: the pair (event,
the change it follows) is unique, so of two directors switching at once one
records and the other decides again on what the first recorded.  A change may
carry a client key (``Idempotency-Key``), stored with it in the same
transaction in the keys' table (:mod:`bgledger.store.keys`), so that a retry
answers as the first send did, even after another director switched since.

The rows are the director's acts, not a match's events: the matches' hash
chains and ``verify`` do not cover them, and ``rebuild`` leaves them alone
(nothing derives them).  The front door (:class:`bgledger.Ledger`) owns this
module, as it owns the bearer tokens (:mod:`bgledger.access`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from eventsourcing.persistence import IntegrityError, PersistenceError
from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Integer,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
    insert,
    inspect,
    select,
)
from sqlalchemy.exc import DatabaseError

from bgledger.errors import IdempotencyKeyReusedError
from bgledger.store.keys import KEYS, KeyBook, Keyed, checked_key

__all__ = ["PUBLICATIONS", "Publication", "PublicationBook", "Published"]

_METADATA = MetaData()
PUBLICATIONS = Table(
    "bgledger_publications",
    _METADATA,
    Column("sequence", Integer, primary_key=True, autoincrement=True),
    Column("event", Text, nullable=False),
    Column("published", Boolean, nullable=False),
    Column("by", Text, nullable=False),
    Column("at", Text, nullable=False),  # ISO 8601, UTC, to the second
    Column("follows", Integer, nullable=False),  # the event's change before it (0: none)
    UniqueConstraint("event", "follows", name="bgledger_publications_one_history"),
)
RETRIES = 5
"""How often a change decides again after another server's change won the race."""

Transaction = Callable[[bool], AbstractContextManager[Connection]]
"""The ledger's transactions: ``transaction(commit)`` gives a connection."""


@dataclass(frozen=True, slots=True)
class Publication:
    """An event's wall as one change left it: open (``published``) or not, who, when.

    ``sequence`` 0 is an event never published: nobody, never.
    """

    event: str
    published: bool
    by: str | None = None
    at: str | None = None
    sequence: int = 0

    def to_json(self) -> dict[str, Any]:
        """``GET /api/events/E/publication``: ``{"event", "published", "by", "at"}``."""
        return {"event": self.event, "published": self.published, "by": self.by, "at": self.at}

    def text(self) -> str:
        """The latest change in words: ``published at AT by BY``, ``withdrawn ...``, ``never
        published``."""
        if self.sequence == 0:
            return "never published"
        state = "published" if self.published else "withdrawn"
        return f"{state} at {self.at} by {self.by}"


@dataclass(frozen=True, slots=True)
class Published:
    """What publishing (or withdrawing) answered: the event's wall as it now stands.

    ``recorded``: the change was recorded now (else the wall was so already);
    ``replayed``: a retry with the first send's key, answered as it was.
    """

    publication: Publication
    recorded: bool
    replayed: bool = False

    def text(self) -> str:
        """The answer in the director's words."""
        now = self.publication
        name = repr(now.event)
        if self.recorded:
            if now.published:
                return f"event {name} is public: its wall is open to spectators"
            return f"event {name} is no longer public: its wall is closed to spectators"
        if now.published:
            return f"event {name} is public already ({now.text()}): nothing recorded"
        return f"event {name} is not public ({now.text()}): nothing recorded"

    def to_json(self) -> dict[str, Any]:
        """The publication's document, with ``recorded``."""
        return {**self.publication.to_json(), "recorded": self.recorded}


class PublicationBook:
    """The publications of one ledger, in its database (table :data:`PUBLICATIONS`)."""

    def __init__(self, transaction: Transaction, keys: KeyBook) -> None:
        self._transaction = transaction
        self._keys = keys
        self._ready = False

    def _made(self) -> bool:
        """True once the table exists (a read makes none: nothing was ever published)."""
        if not self._ready:
            with self._transaction(False) as connection:
                self._ready = inspect(connection).has_table(PUBLICATIONS.name)
        return self._ready

    def _make(self) -> None:
        if not self._ready:
            try:
                with self._transaction(True) as connection:
                    PUBLICATIONS.create(connection, checkfirst=True)
            except (DatabaseError, PersistenceError):  # another server made it since it looked
                if not self._made():
                    raise
            self._ready = True
        self._keys.ready()

    def latest(self, event: str) -> Publication:
        """The event's wall as its latest change left it (never published: not public)."""
        if not self._made():
            return Publication(event, False)
        with self._transaction(False) as connection:
            return _latest(connection, event)

    def history(self, event: str) -> list[Publication]:
        """Every change of the event's wall, the first first."""
        if not self._made():
            return []
        query = (
            select(PUBLICATIONS)
            .where(PUBLICATIONS.c.event == event)
            .order_by(PUBLICATIONS.c.sequence)
        )
        with self._transaction(False) as connection:
            return [_publication(row) for row in connection.execute(query).mappings()]

    def change(self, event: str, on: bool, by: str, key: str | None = None) -> Published:
        """Open (``on``) or close the event's wall, recorded ``by`` whom, now; nothing if it is
        so already.  ``key``: the client's key (a retry answers as the first send did).

        :raises InvalidIdempotencyKeyError: for a key that cannot be one.
        :raises IdempotencyKeyReusedError: for a key used for the other change.
        """
        keyed = None
        if key is not None:
            command = "publish" if on else "publish --off"
            keyed = Keyed(f"publish:{event}", checked_key(key), command)
        self._make()
        for _ in range(RETRIES):
            if keyed is not None:
                known = self._keys.find(keyed.scope, keyed.key)
                if known is not None:
                    return self._replayed(event, keyed, known.command, known.first, known.answer)
            try:
                return self._decide(event, on, by, keyed)
            except IntegrityError:  # another change (or the same key) was recorded first
                continue
        return self._decide(event, on, by, keyed)

    def _decide(self, event: str, on: bool, by: str, keyed: Keyed | None) -> Published:
        with self._transaction(True) as connection:
            before = _latest(connection, event)
            if before.published == on:
                done = Published(before, recorded=False)
            else:
                at = datetime.now(UTC).isoformat(timespec="seconds")
                row = {"event": event, "published": on, "by": by, "at": at,
                       "follows": before.sequence}  # fmt: skip
                number = connection.execute(
                    insert(PUBLICATIONS).values(row).returning(PUBLICATIONS.c.sequence)
                ).scalar_one()
                done = Published(Publication(event, on, by, at, number), recorded=True)
            if keyed is not None:
                sequence = done.publication.sequence
                answer = "recorded" if done.recorded else ""
                stored = Keyed(keyed.scope, keyed.key, keyed.command, answer)
                connection.execute(insert(KEYS), stored.row(sequence, sequence))
        return done

    def _replayed(
        self, event: str, keyed: Keyed, command: str, sequence: int, answer: str
    ) -> Published:
        """The answer a keyed change first got, for its retry: nothing is recorded."""
        if command != keyed.command:
            raise IdempotencyKeyReusedError(
                f"Idempotency-Key {keyed.key!r} was used for {command!r} of event {event!r}, "
                f"not {keyed.command!r}; nothing was recorded: a new change takes a new key"
            )
        found = Publication(event, False)
        if sequence:
            query = select(PUBLICATIONS).where(PUBLICATIONS.c.sequence == sequence)
            with self._transaction(False) as connection:
                found = _publication(connection.execute(query).mappings().one())
        return Published(found, recorded=answer == "recorded", replayed=True)


def _latest(connection: Connection, event: str) -> Publication:
    query = (
        select(PUBLICATIONS)
        .where(PUBLICATIONS.c.event == event)
        .order_by(PUBLICATIONS.c.sequence.desc())
        .limit(1)
    )
    row = connection.execute(query).mappings().first()
    return Publication(event, False) if row is None else _publication(row)


def _publication(row: Any) -> Publication:
    return Publication(row["event"], bool(row["published"]), row["by"], row["at"],
                       row["sequence"])  # fmt: skip
