"""Who may record through ``bgledger serve``: bearer tokens, stored hashed, revocable.

``bgledger token MATCH --role scorekeeper`` prints a random token (Python's
:func:`secrets.token_urlsafe`) once; the ledger keeps only its SHA-256, with
its role, its scope (one match, one event, or for the committee every match
when neither is given) and its label, the name every event it records is
recorded ``by``.  The table ``bgledger_tokens`` lives in the ledger's own
database and is created on first use.  Reads need no token.

The front door (:class:`bgledger.Ledger`) owns this module: it issues,
checks and revokes tokens with it; the web server asks the front door.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Column, Connection, MetaData, String, Table, Text, inspect, select, update

from bgledger.errors import TokenScopeError, UnknownTokenError
from bgledger.rules.errors import RulesError

__all__ = ["ROLES", "Grant", "InvalidGrantError", "TokenBook", "digest", "new_token"]

ROLES = ("scorekeeper", "director", "committee")
"""The roles a token is issued for: one match's pad, an event's director, the appeals committee."""

_METADATA = MetaData()
TOKENS = Table(
    "bgledger_tokens",
    _METADATA,
    Column("digest", String(64), primary_key=True),  # sha256 of the token, hex
    Column("label", Text, nullable=False),
    Column("role", String(16), nullable=False),
    Column("match_id", Text, nullable=True),
    Column("event", Text, nullable=True),
    Column("issued_at", Text, nullable=False),
    Column("revoked_at", Text, nullable=True),
)

Transaction = Callable[[bool], AbstractContextManager[Connection]]
"""The ledger's transactions: ``transaction(commit)`` gives a connection."""


class InvalidGrantError(RulesError):
    """A token asked for with a role or scope that grants nothing (``token`` exits 2)."""


@dataclass(frozen=True, slots=True)
class Grant:
    """What a token may do: its role, its scope (a match, an event, or every match), its label."""

    label: str
    role: str
    match_id: str | None = None
    event: str | None = None

    def covers(self, match_id: str, event: str) -> bool:
        """True if the token may record in ``match_id``, a match of ``event``."""
        if self.match_id is not None:
            return self.match_id == match_id
        if self.event is not None:
            return self.event == event
        return self.role == "committee"

    def check_covers(self, match_id: str, event: Callable[[], str]) -> None:
        """Refuse a match the token does not record in (:meth:`covers`).

        ``event`` gives the match's event; it is asked only of a token for an
        event or for every match (a token for one match needs no lookup).

        :raises TokenScopeError: for a token of another match or event.
        """
        if not self.covers(match_id, event() if self.match_id is None else ""):
            scope = self.match_id or self.event or "no match"
            raise TokenScopeError(f"this token ({self.label}) records in {scope}, not {match_id}")

    def check_starts(self, event: str) -> None:
        """Refuse to start a match of ``event`` with this token (:meth:`may_start`).

        :raises TokenScopeError: for a token that may not start a match of the event.
        """
        if not self.may_start(event):
            scope = self.match_id or self.event
            where = f"the matches of {scope!r}" if self.event is not None else f"match {scope!r}"
            raise TokenScopeError(
                f"this token ({self.label}) starts no match of event {event!r}: a "
                f"{self.role}'s token records in {where} only; start it with the event's "
                "director's token ('bgledger token --event E --role director')"
            )

    def check_starts_some(self) -> None:
        """Refuse a token that starts no match of any event (a scorekeeper's, one match's):
        checked before a setup is read.

        :raises TokenScopeError: for such a token.
        """
        if self.role == "scorekeeper" or self.match_id is not None:
            raise TokenScopeError(
                f"this token ({self.label}) starts no match: a {self.role}'s token for match "
                f"{self.match_id!r} records in it only; start a match with the event's "
                "director's token ('bgledger token --event E --role director')"
            )

    def may_start(self, event: str) -> bool:
        """True if the token may start a new match of ``event``.

        An event's director or committee starts the event's matches, the
        committee's token for every match any match; a token for one match
        (a scorekeeper's, or a director's of that match) starts none.
        """
        if self.role == "scorekeeper" or self.match_id is not None:
            return False
        if self.event is not None:
            return self.event == event
        return self.role == "committee"

    def may_claim(self, ruled_by: str) -> bool:
        """True if a line this token records may say it was ruled by ``ruled_by``.

        The director's word needs a director's or the committee's token, the
        committee's the committee's; a line with no ruler, or the players'
        agreement, any token.
        """
        needs = {"director": ("director", "committee"), "committee": ("committee",)}
        return self.role in needs.get(ruled_by, ROLES)

    @classmethod
    def checked(
        cls, role: str, match_id: str | None, event: str | None, label: str | None
    ) -> Grant:
        """The grant asked for, if it grants something.

        :raises InvalidGrantError: for an unknown role, a scorekeeper without his
            one match, a director without an event or match, or both a match and an event.
        """
        if role not in ROLES:
            raise InvalidGrantError(f"role {role!r}: one of {', '.join(ROLES)}")
        if match_id is not None and event is not None:
            raise InvalidGrantError("a token is for one match or for one event, not both")
        if role == "scorekeeper" and match_id is None:
            raise InvalidGrantError("a scorekeeper's token is for one match: give MATCH")
        if role == "director" and match_id is None and event is None:
            raise InvalidGrantError("a director's token is for an event: give --event E")
        scope = match_id if match_id is not None else event
        default = f"{role} of {scope}" if scope is not None else role
        return cls(label or default, role, match_id, event)


def new_token() -> str:
    """A new random token (43 characters: 256 bits from :func:`secrets.token_urlsafe`)."""
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """The SHA-256 of ``token``, as stored (hex)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TokenBook:
    """The tokens of one ledger, in its database (table :data:`TOKENS`)."""

    def __init__(self, transaction: Transaction) -> None:
        self._transaction = transaction
        self._ready = False

    def _connection(self, commit: bool) -> AbstractContextManager[Connection]:
        """A transaction on the table, which is made by the first token issued."""
        if not self._ready:
            with self._transaction(True) as connection:
                TOKENS.create(connection, checkfirst=True)
            self._ready = True
        return self._transaction(commit)

    def _any(self) -> bool:
        """True once a token was ever issued: checking or revoking one makes no table."""
        if not self._ready:
            with self._transaction(False) as connection:
                self._ready = inspect(connection).has_table(TOKENS.name)
        return self._ready

    def issue(self, grant: Grant, token: str | None = None) -> str:
        """A new random token for ``grant`` (or ``token``, drawn by :func:`new_token`); only
        its digest is stored."""
        token = new_token() if token is None else token
        with self._connection(True) as connection:
            connection.execute(
                TOKENS.insert().values(
                    digest=digest(token),
                    label=grant.label,
                    role=grant.role,
                    match_id=grant.match_id,
                    event=grant.event,
                    issued_at=_now(),
                )
            )
        return token

    def grant(self, token: str) -> Grant | None:
        """What ``token`` may do; None if it was never issued or is revoked."""
        if not self._any():
            return None
        query = select(TOKENS).where(
            TOKENS.c.digest == digest(token), TOKENS.c.revoked_at.is_(None)
        )
        with self._connection(False) as connection:
            row = connection.execute(query).mappings().first()
        if row is None:
            return None
        return Grant(row["label"], row["role"], row["match_id"], row["event"])

    def held(self, token: str | None, ask: str) -> Grant:
        """What ``token`` may do, for a token in force.

        :raises UnknownTokenError: for no token, or one never issued or revoked
            (the message says to ``ask`` for one: a ``bgledger token`` command line).
        """
        grant = self.grant(token) if token else None
        if grant is None:
            raise UnknownTokenError(f"no valid token: {ask!r}")
        return grant

    def revoke(self, token: str) -> None:
        """Revoke ``token``: it records nothing more.

        :raises UnknownTokenError: if no such token is in force.
        """
        query = (
            update(TOKENS)
            .where(TOKENS.c.digest == digest(token), TOKENS.c.revoked_at.is_(None))
            .values(revoked_at=_now())
        )
        if self._any():
            with self._connection(True) as connection:
                if connection.execute(query).rowcount == 1:
                    return
        raise UnknownTokenError("no such token in force (never issued, or already revoked)")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
