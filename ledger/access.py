"""Who may record through ``bgledger serve``: bearer tokens, stored hashed, revocable.

``bgledger token MATCH --role scorekeeper`` prints a random token (Python's
:func:`secrets.token_urlsafe`) once; the ledger keeps only its SHA-256, with
its role, its scope (one match, one event, or for the committee every match
when neither is given) and its label, the name every event it records is
recorded ``by``.  The table ``bgledger_tokens`` lives in the ledger's own
database and is created on first use.  Reads of a match need a token that
reaches it until its event is published (:meth:`Grant.reads`; DESIGN principle
14); the director's desk needs a director's or the committee's token always.

The front door (:class:`bgledger.Ledger`) owns this module: it issues,
checks and revokes tokens with it; the web server asks the front door.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    MetaData,
    String,
    Table,
    Text,
    inspect,
    or_,
    select,
    update,
)

from bgledger.errors import InvalidTimeError, TokenScopeError, UnknownTokenError
from bgledger.rules.errors import RulesError
from bgledger.rules.text import check_text

__all__ = [
    "LAST_USED_EVERY",
    "ROLES",
    "Grant",
    "InvalidGrantError",
    "TokenBook",
    "TokenEntry",
    "digest",
    "expiry",
    "new_token",
]

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
    Column("expires_at", Text, nullable=True),  # added after the table was first made
    Column("last_used", Text, nullable=True),  # the last write it authorized; likewise
    Column("last_contact", Text, nullable=True),  # the latest time its lines vouched; likewise
)
ADDED = ("expires_at", "last_used", "last_contact")
"""The columns a table made by an older bgledger lacks: added on first use (a migration)."""
LAST_USED_EVERY = timedelta(minutes=1)
"""How stale a token's ``last_used`` may be: a pad posting a line every few seconds would
otherwise add a second write (a commit) to each of its lines just to say it was used."""
ID_LENGTH = 8
"""A token's id in ``token --list``: the first hex digits of its digest (never the secret)."""

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
    digest: str | None = field(default=None, repr=False, compare=False)
    """The digest of the token it was read from (:meth:`TokenBook.held`): what the write's
    transaction checks again (:meth:`TokenBook.still_held`); None for a grant made here."""

    def covers(self, match_id: str, event: str) -> bool:
        """True if the token may record in ``match_id``, a match of ``event``."""
        if self.match_id is not None:
            return self.match_id == match_id
        if self.event is not None:
            return self.event == event
        return self.role == "committee"

    def reads(self, match_id: str, event: str, *, desk: bool = False) -> bool:
        """True if the token reaches ``match_id``, a match of ``event`` (:meth:`covers`): it
        reads the match whether its event is published or not (and its notes, which
        publication never opens).  ``desk``: the director's desk, which only a director's or
        the committee's token reaching it reads."""
        if desk and self.role not in ("director", "committee"):
            return False
        return self.covers(match_id, event)

    def reads_event(self, event: str | None, *, desk: bool = False) -> bool:
        """True if the token reaches every match of ``event`` (None: of the whole ledger): the
        event's director's or committee's token, or the committee's for every match; a
        token for one match reaches no event.  ``desk``: the director's console."""
        if self.match_id is not None or (desk and self.role not in ("director", "committee")):
            return False
        if self.event is not None:
            return event is not None and self.event == event
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

    def check_publishes(self, event: str) -> None:
        """Refuse to open or close the wall of ``event`` with this token: only the event's
        director's token does (``bgledger publish --event E``).

        :raises TokenScopeError: for any other token.
        """
        if self.role != "director" or self.match_id is not None or self.event != event:
            scope = self.match_id or self.event or "every match"
            raise TokenScopeError(
                f"this token ({self.label}, a {self.role}'s of {scope}) does not publish event "
                f"{event!r}: its director does, with the event's director's token ('bgledger "
                "token --event E --role director')"
            )

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
        if event is not None and not event.strip():
            # an empty event would grant every match started without one
            raise InvalidGrantError(f"--event {event!r}: an event's name, not empty")
        if match_id is not None and not match_id.strip():
            raise InvalidGrantError(f"MATCH {match_id!r}: a match's id, not empty")
        for name, text in (("--label", label), ("--event", event)):
            if text is not None:
                try:
                    check_text(name, text)
                except RulesError as error:
                    raise InvalidGrantError(str(error)) from None
        scope = match_id if match_id is not None else event
        default = f"{role} of {scope}" if scope is not None else role
        return cls(label or default, role, match_id, event)


def new_token() -> str:
    """A new random token (43 characters: 256 bits from :func:`secrets.token_urlsafe`)."""
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """The SHA-256 of ``token``, as stored (hex)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class TokenEntry:
    """One token as ``token --list`` shows it: never its secret, nor its whole digest."""

    id: str
    label: str
    role: str
    match_id: str | None
    event: str | None
    issued: str
    last_used: str | None
    expires: str | None
    revoked: str | None

    def status(self, now: str | None = None) -> str:
        """``in force``, ``revoked`` or ``expired`` at ``now`` (ISO 8601, UTC; default: now)."""
        now = now or _now()
        if self.revoked is not None:
            return "revoked"
        if self.expires is not None and self.expires <= now:
            return "expired"
        return "in force"

    def to_json(self, now: str | None = None) -> dict[str, Any]:
        """``token --list --json``'s entry."""
        return {"id": self.id, "label": self.label, "role": self.role, "match": self.match_id,
                "event": self.event, "issued": self.issued, "last_used": self.last_used,
                "expires": self.expires, "revoked": self.revoked,
                "status": self.status(now)}  # fmt: skip


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
                _add_columns(connection)
            self._ready = True
        return self._transaction(commit)

    def ready(self) -> None:
        """Make the table (and add its newer columns) now, outside any transaction to come."""
        with self._connection(False):
            pass

    def _any(self) -> bool:
        """True once a token was ever issued: checking or revoking one makes no table."""
        if not self._ready:
            with self._transaction(False) as connection:
                found = inspect(connection).has_table(TOKENS.name)
            if found:
                with self._connection(False):  # an older table gains its new columns
                    pass
        return self._ready

    def issue(self, grant: Grant, token: str | None = None, *, expires: str | None = None) -> str:
        """A new random token for ``grant`` (or ``token``, drawn by :func:`new_token`); only
        its digest is stored.  ``expires``: when it stops recording (ISO 8601, UTC)."""
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
                    expires_at=expires,
                )
            )
        return token

    def _row(self, token: str) -> Any:
        """The token's row in force (not revoked), expired or not; None if there is none."""
        if not self._any():
            return None
        query = select(TOKENS).where(
            TOKENS.c.digest == digest(token), TOKENS.c.revoked_at.is_(None)
        )
        with self._connection(False) as connection:
            return connection.execute(query).mappings().first()

    def grant(self, token: str) -> Grant | None:
        """What ``token`` may do; None if it was never issued, is revoked or expired."""
        row = self._row(token)
        if row is None or _expired(row):
            return None
        return Grant(row["label"], row["role"], row["match_id"], row["event"])

    def held(
        self,
        token: str | None,
        ask: str,
        check: Callable[[Grant], None] | None = None,
        *,
        mark: bool = True,
    ) -> Grant:
        """What ``token`` may do, for a token in force, once ``check`` (what the request asks
        of it: raises when the grant does not cover it) passed; it is marked used now
        (``last_used``), unless it was marked in the last :data:`LAST_USED_EVERY` or ``mark``
        is False (a read).  A refused request never marks it.

        :raises UnknownTokenError: for no token, or one never issued, revoked or expired
            (the message says to ``ask`` for one: a ``bgledger token`` command line).
        """
        row = self._row(token) if token else None
        if row is None:
            raise UnknownTokenError(f"no valid token: {ask!r}")
        if _expired(row):
            raise UnknownTokenError(
                f"this token ({row['label']}) expired at {row['expires_at']}: ask for a new "
                f"one: {ask!r}"
            )
        grant = Grant(row["label"], row["role"], row["match_id"], row["event"], row["digest"])
        if check is not None:
            check(grant)
        now = datetime.now(UTC)
        stale = _iso(now - LAST_USED_EVERY)
        if mark and (row["last_used"] is None or row["last_used"] <= stale):
            used = (
                update(TOKENS)
                .where(TOKENS.c.digest == row["digest"])
                .where(or_(TOKENS.c.last_used.is_(None), TOKENS.c.last_used <= stale))
                .values(last_used=_iso(now))
            )
            with self._connection(True) as connection:
                connection.execute(used)
        return grant

    @staticmethod
    def still_held(
        grant: Grant, claim: datetime | None = None, slack: timedelta = timedelta(0)
    ) -> Callable[[Connection], None]:
        """The check a write makes in its own transaction, just before it inserts: the token
        ``grant`` was read from (:meth:`held`) is still in force, neither revoked nor expired
        since (its body may have taken long to arrive).  On PostgreSQL the token's row is
        read ``FOR SHARE``: a ``token --revoke`` waits for the write, or the write sees it.

        ``claim``: the time a scorekeeper's line gave (DESIGN principle 13).  It may not be
        earlier than the token's last contact (``last_contact``: the latest time one of its
        lines gave, never later than when it was received; before any, when it was issued),
        but for ``slack``, the few seconds two clocks may disagree
        (:data:`~bgledger.commands.decide.FUTURE_TOLERANCE`): a pad sends what it kept
        offline in the order it was tapped, each after the last it sent, so only a time
        rewritten after the fact falls before.  The contact then moves to the claim (the
        row is read ``FOR UPDATE``).  A contact that lags the truth only loosens the bound.

        The check raises :class:`UnknownTokenError` or, for a claim before the contact,
        :class:`InvalidTimeError` (the transaction rolls back: nothing is recorded); a grant
        made here (no digest: the shell's) passes.
        """

        def check(connection: Connection) -> None:
            if grant.digest is None:
                return
            query = select(TOKENS).where(TOKENS.c.digest == grant.digest)
            locked = query.with_for_update(read=claim is None)
            row = connection.execute(locked).mappings().first()
            if row is None or row["revoked_at"] is not None:
                when = f" at {row['revoked_at']}" if row is not None else ""
                raise UnknownTokenError(
                    f"this token ({grant.label}) was revoked{when}, before the line was "
                    "recorded: nothing was recorded; ask the director for a new link"
                )
            if _expired(row):
                raise UnknownTokenError(
                    f"this token ({grant.label}) expired at {row['expires_at']}, before the "
                    "line was recorded: nothing was recorded; ask the director for a new link"
                )
            if claim is not None:
                _contact(connection, row, claim, slack)

        return check

    def entries(self) -> list[TokenEntry]:
        """Every token ever issued, in the order issued (``token --list``)."""
        if not self._any():
            return []
        query = select(TOKENS).order_by(TOKENS.c.issued_at, TOKENS.c.label, TOKENS.c.digest)
        with self._connection(False) as connection:
            rows = connection.execute(query).mappings().all()
        return [_entry(row) for row in rows]

    def revoke(self, what: str) -> list[TokenEntry]:
        """Revoke the token ``what`` is (the token itself, its id, or its label): it records
        nothing more.  A label revokes every token in force that has it.

        Returns the tokens revoked.

        :raises UnknownTokenError: if no token in force is ``what``, or an id names several.
        """
        if self._any():
            with self._connection(True) as connection:
                found = self._revocable(connection, what)
                if found:
                    digests = [row["digest"] for row in found]
                    connection.execute(
                        update(TOKENS)
                        .where(TOKENS.c.digest.in_(digests), TOKENS.c.revoked_at.is_(None))
                        .values(revoked_at=_now())
                    )
                    return [_entry(row) for row in found]
        raise UnknownTokenError(
            f"no token in force is {what!r} (a token, an id from 'bgledger token --list', or "
            "a label; never issued, or already revoked)"
        )

    @staticmethod
    def _revocable(connection: Connection, what: str) -> list[Any]:
        """The tokens in force ``what`` names: as the token, else as an id, else as a label."""
        live = select(TOKENS).where(TOKENS.c.revoked_at.is_(None))
        rows = connection.execute(live.where(TOKENS.c.digest == digest(what))).mappings().all()
        if rows:
            return list(rows)
        if re.fullmatch(rf"[0-9a-fA-F]{{{ID_LENGTH},64}}", what):
            prefix = what.lower()
            rows = (
                connection.execute(live.where(TOKENS.c.digest.like(f"{prefix}%"))).mappings().all()
            )
            if len(rows) > 1:
                raise UnknownTokenError(
                    f"id {what!r} names {len(rows)} tokens: give more of its digits"
                )
            if rows:
                return list(rows)
        return list(connection.execute(live.where(TOKENS.c.label == what)).mappings().all())


def expiry(text: str, now: datetime | None = None) -> str:
    """When a token given ``--expires TEXT`` stops recording, as stored (ISO 8601, UTC).

    ``TEXT`` is a duration from now (``90m``, ``8h``, ``2d``, ``1h30m``, ``45s``) or a
    time (ISO 8601 with its offset: ``2026-11-22T02:00:00+01:00``).

    :raises InvalidGrantError: for anything else, or a time not after now.
    """
    now = now or datetime.now(UTC)
    spoken = text.strip().lower()
    parts = re.fullmatch(r"(?:(\d{1,4})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?(?:(\d{1,8})s)?", spoken)
    if spoken and parts is not None:
        days, hours, minutes, seconds = (int(part or 0) for part in parts.groups())
        when = now + timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)
    else:
        try:
            when = datetime.fromisoformat(text.strip())
        except ValueError:
            raise InvalidGrantError(
                f"--expires {text!r}: a duration (90m, 8h, 2d, 1h30m) or an ISO 8601 time "
                "with its offset (2026-11-22T02:00:00+01:00)"
            ) from None
        if when.tzinfo is None:
            raise InvalidGrantError(
                f"--expires {text!r}: give the time's offset (+01:00, Z): whose 'now' is it?"
            )
    if when <= now:
        raise InvalidGrantError(f"--expires {text!r}: a time after now ({_iso(now)})")
    try:
        return _iso(when)
    except OverflowError:  # 9999-12-31T23:59:59-12:00 is in the year 10000 in UTC
        raise InvalidGrantError(
            f"--expires {text!r}: past the last time this ledger can keep "
            "(9999-12-31T23:59:59Z); give an earlier one"
        ) from None


def _expired(row: Any) -> bool:
    return row["expires_at"] is not None and row["expires_at"] <= _now()


def _entry(row: Any) -> TokenEntry:
    return TokenEntry(row["digest"][:ID_LENGTH], row["label"], row["role"], row["match_id"],
                      row["event"], row["issued_at"], row["last_used"], row["expires_at"],
                      row["revoked_at"])  # fmt: skip


def _contact(connection: Connection, row: Any, claim: datetime, slack: timedelta) -> None:
    """Refuse ``claim`` before the token's last contact (:meth:`TokenBook.still_held`), else
    move the contact on to it.

    :raises InvalidTimeError: naming both times.
    """
    contact = row["last_contact"]
    since = contact or row["issued_at"]
    if claim < datetime.fromisoformat(since) - slack:
        what = "its last line's time" if contact else "when it was issued"
        raise InvalidTimeError(
            f"--at {claim.isoformat()} is before this token's last contact with the ledger, "
            f"{since} ({what}): a line's time is never earlier than what its pad sent before; "
            "nothing was recorded: record it untimed, or ask the director"
        )
    touched = _iso(min(claim, datetime.now(UTC)))
    if contact is None or contact < touched:
        connection.execute(
            update(TOKENS).where(TOKENS.c.digest == row["digest"]).values(last_contact=touched)
        )


def _add_columns(connection: Connection) -> None:
    """Add :data:`ADDED` to a table made before them (the migration, on first use)."""
    have = {column["name"] for column in inspect(connection).get_columns(TOKENS.name)}
    for name in ADDED:
        if name not in have:
            connection.exec_driver_sql(f"ALTER TABLE {TOKENS.name} ADD COLUMN {name} TEXT")


def _now() -> str:
    return _iso(datetime.now(UTC))


def _iso(when: datetime) -> str:
    """``when`` as the table stores times: UTC, to the second (so they compare as text)."""
    return when.astimezone(UTC).isoformat(timespec="seconds")
