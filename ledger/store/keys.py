"""Client keys: a write sent twice is recorded once (DESIGN principle 10).

A phone on venue Wi-Fi that sent a line and lost the answer cannot know
whether the line went in; it sends it again with the same key (the
``Idempotency-Key`` header of ``POST .../lines``, ``record --key``).  The key
is stored with what its command recorded, in the same transaction as the
events (:meth:`bgledger.store.recorder.SnapshotRecorder.insert_events`), one
row per key and match in the table ``bgledger_keys``: the line as the ledger
read it (without the time the ledger gave it), the numbers of the events it
recorded, and for a match started with a key the sealed answer.  Keys are
kept for good: they are part of the record of who sent what.

A retry with the same key and the same command records nothing and gets the
first answer; the same key with another command is refused
(:class:`~bgledger.errors.IdempotencyKeyReusedError`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from eventsourcing.persistence import PersistenceError
from sqlalchemy import (
    Column,
    Connection,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    inspect,
    select,
)
from sqlalchemy.exc import DatabaseError

from bgledger.errors import InvalidIdempotencyKeyError

__all__ = ["KEYS", "MAX_KEY", "KeyBook", "Keyed", "checked_key", "seal", "unseal"]

MAX_KEY = 255
"""The longest key (the IETF draft names no limit; a UUID is 36 characters)."""

_METADATA = MetaData()
KEYS = Table(
    "bgledger_keys",
    _METADATA,
    Column("scope", Text, primary_key=True),  # the match id
    Column("key", String(MAX_KEY), primary_key=True),
    Column("command", Text, nullable=False),  # the line as read, without the ledger's time
    Column("first", Integer, nullable=False),  # the numbers of the events it recorded
    Column("last", Integer, nullable=False),
    Column("answer", Text, nullable=False, default=""),  # a start's sealed pad token
)

Transaction = Callable[[bool], AbstractContextManager[Connection]]


@dataclass(frozen=True, slots=True)
class Keyed:
    """A write's key, as stored with its events: the scope (match), the key, the command."""

    scope: str
    key: str
    command: str
    answer: str = ""

    def row(self, first: int, last: int) -> dict[str, object]:
        """The table's row for the events ``first``-``last``."""
        return {"scope": self.scope, "key": self.key, "command": self.command,
                "first": first, "last": last, "answer": self.answer}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Found:
    """A key's stored row: what the first send recorded."""

    command: str
    first: int
    last: int
    answer: str


def checked_key(key: str) -> str:
    """``key`` if it can be a client key: 1-255 printable ASCII characters.

    :raises InvalidIdempotencyKeyError: otherwise, quoting it.
    """
    if not 0 < len(key) <= MAX_KEY or not all(" " <= c <= "~" for c in key):
        shown = key if len(key) <= 40 else key[:40] + "..."
        raise InvalidIdempotencyKeyError(
            f"Idempotency-Key {shown!r}: 1 to {MAX_KEY} printable ASCII characters "
            "(a UUID is usual)"
        )
    return key


class KeyBook:
    """The keys of one ledger, in its database (table :data:`KEYS`, made on first use)."""

    def __init__(self, transaction: Transaction) -> None:
        self._transaction = transaction
        self._ready = False

    def ready(self) -> None:
        """Make the table unless it exists (before the first keyed write)."""
        if not self._ready:
            try:
                with self._transaction(True) as connection:
                    KEYS.create(connection, checkfirst=True)
            except (
                DatabaseError,
                PersistenceError,
            ):  # another ledger on the database made it since it looked
                with self._transaction(False) as connection:
                    if not inspect(connection).has_table(KEYS.name):
                        raise
            self._ready = True

    def find(self, scope: str, key: str) -> Found | None:
        """What ``key`` recorded in ``scope``, if it was used there."""
        self.ready()
        query = select(KEYS.c.command, KEYS.c.first, KEYS.c.last, KEYS.c.answer).where(
            KEYS.c.scope == scope, KEYS.c.key == key
        )
        with self._transaction(False) as connection:
            row = connection.execute(query).first()
        return None if row is None else Found(row[0], row[1], row[2], row[3] or "")


def _pad(secret: str, key: str, length: int) -> bytes:
    material = f"bgledger-key\x00{secret}\x00{key}".encode()
    return hashlib.shake_256(material).digest(length)


def seal(text: str, secret: str, key: str) -> str:
    """``text`` (a new token) sealed for the holder of ``secret`` (the token that asked), hex.

    The ledger keeps only tokens' hashes; a retried start must still answer the
    pad's token it issued.  Sealed with a pad drawn from the asking token and the
    key, it is readable only by a retry that carries that token again.
    """
    data = text.encode()
    return bytes(a ^ b for a, b in zip(data, _pad(secret, key, len(data)), strict=True)).hex()


def unseal(sealed: str, secret: str, key: str) -> str:
    """The text :func:`seal` sealed, for the same ``secret`` and ``key``."""
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _pad(secret, key, len(data)), strict=True)).decode(
        errors="replace"
    )
