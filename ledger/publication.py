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

The rows are the director's acts, not a match's events: no hash chain covers
them, and ``rebuild`` leaves them alone (nothing derives them).  ``verify``
checks what the table itself holds to (:meth:`PublicationBook.audit`): each
row names an event a match was started in, opens or closes its wall, is dated
in UTC, and follows the event's change before it, the change it follows being
in the table and followed by no other; each change changes the wall (the first
opens it, then they alternate) and is dated no earlier than the one it follows.
A change deleted from the end of an event's history leaves no trace here.

A publication may be delayed (``publish --event E --delay 15m``): spectators then
see every match as it stood that long before (:mod:`bgledger.web.reads`), as chess
broadcasts do, so that nobody relays a live position to an engine.  The delay is
the row's ``delay``, whole seconds from 0 (live) to :data:`MOST_DELAY` (a day); a
withdrawal's is 0.  Changing the delay of a published event is a change (a new
row); publishing it again with the same delay records nothing.  ``delay`` was
added after the table was first made: a table without it is given it, 0 for every
row before (the wall was live then), on first use (:func:`_add_columns`).
The front door (:class:`bgledger.Ledger`) owns this module, as it owns the
bearer tokens (:mod:`bgledger.access`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
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
    type_coerce,
)
from sqlalchemy.exc import DatabaseError
from sqlalchemy.types import NullType

from bgledger.errors import IdempotencyKeyReusedError, InvalidDelayError
from bgledger.store.keys import KEYS, KeyBook, Keyed, checked_key

__all__ = [
    "MOST_DELAY",
    "PUBLICATIONS",
    "Publication",
    "PublicationBook",
    "PublicationFinding",
    "Published",
    "checked_delay",
    "delay_text",
    "parse_delay",
]

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
    Column("delay", Integer, nullable=False, server_default="0"),  # seconds (0: live)
    UniqueConstraint("event", "follows", name="bgledger_publications_one_history"),
)
ADDED = ("delay",)
"""Columns added after the table was first made (:func:`_add_columns`)."""
MOST_DELAY = 24 * 3600
"""The longest spectator delay, in seconds: a day (a round is over long before)."""
RETRIES = 5
"""How often a change decides again after another server's change won the race."""

Transaction = Callable[[bool], AbstractContextManager[Connection]]
"""The ledger's transactions: ``transaction(commit)`` gives a connection."""


@dataclass(frozen=True, slots=True)
class Publication:
    """An event's wall as one change left it: open (``published``) or not, who, when.

    ``sequence`` 0 is an event never published: nobody, never.  ``delay``: the seconds
    spectators see its matches behind (0: live).
    """

    event: str
    published: bool
    by: str | None = None
    at: str | None = None
    sequence: int = 0
    delay: int = 0

    def to_json(self) -> dict[str, Any]:
        """``GET /api/events/E/publication``: ``{"event", "published", "by", "at",
        "delay_seconds"}``."""
        return {"event": self.event, "published": self.published, "by": self.by, "at": self.at,
                "delay_seconds": self.delay}  # fmt: skip

    def text(self) -> str:
        """The latest change in words: ``published at AT by BY``, ``published with a 15 min
        delay at ...``, ``withdrawn ...``, ``never published``."""
        if self.sequence == 0:
            return "never published"
        state = "published" if self.published else "withdrawn"
        if self.published and self.delay:
            state += f" with a {delay_text(self.delay)} delay"
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
        delayed = f", {delay_text(now.delay)} behind" if now.delay else ""
        if self.recorded:
            if now.published:
                return f"event {name} is public: its wall is open to spectators{delayed}"
            return f"event {name} is no longer public: its wall is closed to spectators"
        if now.published:
            return f"event {name} is public already ({now.text()}): nothing recorded"
        return f"event {name} is not public ({now.text()}): nothing recorded"

    def to_json(self) -> dict[str, Any]:
        """The publication's document, with ``recorded``."""
        return {**self.publication.to_json(), "recorded": self.recorded}


@dataclass(frozen=True, slots=True)
class PublicationFinding:
    """A row of :data:`PUBLICATIONS` that breaks what the table holds to: row ``sequence``,
    of ``event``, ``why`` (in words naming the row)."""

    sequence: int
    event: str
    why: str


class PublicationBook:
    """The publications of one ledger, in its database (table :data:`PUBLICATIONS`)."""

    def __init__(self, transaction: Transaction, keys: KeyBook) -> None:
        self._transaction = transaction
        self._keys = keys
        self._ready = False

    def _made(self) -> bool:
        """True once the table exists (a read makes none: nothing was ever published); a
        table made before :data:`ADDED` is given them first."""
        if not self._ready:
            with self._transaction(False) as connection:
                made = inspect(connection).has_table(PUBLICATIONS.name)
            if made:
                self._migrate()
            self._ready = made
        return self._ready

    def _migrate(self) -> None:
        """Add :data:`ADDED` to a table made before them (another server may at once)."""
        try:
            with self._transaction(True) as connection:
                _add_columns(connection)
        except (DatabaseError, PersistenceError):  # another server added them since it looked
            with self._transaction(False) as connection:
                if _missing(connection):
                    raise

    def _make(self) -> None:
        if not self._ready:
            try:
                with self._transaction(True) as connection:
                    PUBLICATIONS.create(connection, checkfirst=True)
            except (DatabaseError, PersistenceError):  # another server made it since it looked
                if not self._made():
                    raise
            self._migrate()
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

    def audit(self, events: Collection[str] | None) -> list[PublicationFinding]:
        """Every row that breaks what the table holds to, the first first (``verify``).

        ``events``: the events matches were started in (None: not known, the
        events not holding; a row's event is then not checked).  Each event's
        rows must form one history in the order stored: the first follows no
        change (0), each next one the row before it, so a row deleted, edited,
        inserted or moved (or a second history grown beside the first) is named
        at the first row whose ``follows`` is not the event's change before it.
        Every change changes the wall: the first opens it, then they alternate.
        A row is one finding (its first); after a break the history goes on from
        that row, so one damage is one finding.  Nothing is written; a ledger
        that never published has nothing to check.
        """
        if not self._made():
            return []
        raw = type_coerce(PUBLICATIONS.c.published, NullType()).label("published")
        query = select(
            PUBLICATIONS.c.sequence,
            PUBLICATIONS.c.event,
            raw,
            PUBLICATIONS.c.at,
            PUBLICATIONS.c.follows,
            type_coerce(PUBLICATIONS.c.delay, NullType()).label("delay"),
        ).order_by(PUBLICATIONS.c.sequence)
        with self._transaction(False) as connection:
            rows = [dict(row) for row in connection.execute(query).mappings()]
        return _audit(rows, events)

    def change(
        self, event: str, on: bool, by: str, key: str | None = None, delay: int = 0
    ) -> Published:
        """Open (``on``) or close the event's wall, recorded ``by`` whom, now; nothing if it is
        so already.  ``delay``: the seconds spectators see it behind (only ``on``; a change
        of it is a change).  ``key``: the client's key (a retry answers as the first send did).

        :raises InvalidDelayError: for a delay outside 0 to :data:`MOST_DELAY`, or with ``--off``.
        :raises InvalidIdempotencyKeyError: for a key that cannot be one.
        :raises IdempotencyKeyReusedError: for a key used for another change.
        """
        delay = checked_delay(delay)
        if delay and not on:
            raise InvalidDelayError(
                f"--delay {delay_text(delay)} with --off: a withdrawn wall shows nothing, "
                "late or live; nothing was recorded"
            )
        keyed = None
        if key is not None:
            command = "publish --off" if not on else "publish"
            if delay:
                command += f" --delay {delay}s"
            keyed = Keyed(f"publish:{event}", checked_key(key), command)
        self._make()
        for _ in range(RETRIES):
            if keyed is not None:
                known = self._keys.find(keyed.scope, keyed.key)
                if known is not None:
                    return self._replayed(event, keyed, known.command, known.first, known.answer)
            try:
                return self._decide(event, on, by, keyed, delay)
            except IntegrityError:  # another change (or the same key) was recorded first
                continue
        return self._decide(event, on, by, keyed, delay)

    def _decide(self, event: str, on: bool, by: str, keyed: Keyed | None, delay: int) -> Published:
        with self._transaction(True) as connection:
            before = _latest(connection, event)
            if before.published == on and (not on or before.delay == delay):
                done = Published(before, recorded=False)
            else:
                at = datetime.now(UTC).isoformat(timespec="seconds")
                row = {"event": event, "published": on, "by": by, "at": at,
                       "follows": before.sequence, "delay": delay}  # fmt: skip
                number = connection.execute(
                    insert(PUBLICATIONS).values(row).returning(PUBLICATIONS.c.sequence)
                ).scalar_one()
                made = Publication(event, on, by, at, number, delay)
                done = Published(made, recorded=True)
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
    delay = row["delay"] if isinstance(row["delay"], int) else 0
    return Publication(row["event"], bool(row["published"]), row["by"], row["at"],
                       row["sequence"], delay)  # fmt: skip


def _missing(connection: Connection) -> list[str]:
    """The columns of :data:`ADDED` the table has not (yet)."""
    have = {column["name"] for column in inspect(connection).get_columns(PUBLICATIONS.name)}
    return [name for name in ADDED if name not in have]


def _add_columns(connection: Connection) -> None:
    """Add :data:`ADDED` to a table made before them (the migration, on first use): every
    row before was a live publication (delay 0)."""
    for name in _missing(connection):
        connection.exec_driver_sql(
            f"ALTER TABLE {PUBLICATIONS.name} ADD COLUMN {name} INTEGER NOT NULL DEFAULT 0"
        )


_DELAY = re.compile(r"(?:(\d{1,6})h)?(?:(\d{1,6})m(?:in)?)?(?:(\d{1,6})s)?")


def parse_delay(text: str) -> int:
    """A spectator delay as given (``15m``, ``90s``, ``1h``, ``1h30m``; ``0``: live) in seconds.

    :raises InvalidDelayError: for anything else, or a delay longer than :data:`MOST_DELAY`,
        naming the input and the rule.
    """
    given = text.strip().lower()
    rule = "a length of time from 0 (live) to 24h, as 15m, 90s or 1h"
    if given.startswith("-"):
        raise InvalidDelayError(f"--delay {text!r}: a delay is never negative: {rule}")
    if given == "0":
        return 0
    found = _DELAY.fullmatch(given)
    if not given or found is None or not any(found.groups()):
        if given.isdigit():
            rule = f"give its unit ({given}m, {given}s or {given}h): {rule}"
        raise InvalidDelayError(f"--delay {text!r}: not a delay: {rule}")
    hours, minutes, seconds = (int(part or 0) for part in found.groups())
    return checked_delay(hours * 3600 + minutes * 60 + seconds, text)


def checked_delay(seconds: int, given: str | None = None) -> int:
    """``seconds`` if it is a delay (0 to :data:`MOST_DELAY`).

    :raises InvalidDelayError: naming ``given`` (else the seconds) and the rule.
    """
    if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds < 0:
        shown = given if given is not None else seconds
        raise InvalidDelayError(f"delay {shown!r}: a whole number of seconds from 0 (live)")
    if seconds > MOST_DELAY:
        shown = given if given is not None else f"{seconds}s"
        raise InvalidDelayError(
            f"--delay {shown!r} is {delay_text(seconds)}: a spectator delay is at most 24h "
            "(a day); a wall further behind than that shows nothing of use"
        )
    return seconds


def delay_text(seconds: int) -> str:
    """A delay as the wall says it: ``15 min``, ``90 s``, ``1 h``, ``1 h 30 min``."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h"] if hours else []
    parts += [f"{minutes} min"] if minutes else []
    parts += [f"{secs} s"] if secs else []
    return " ".join(parts) or "no"


def _audit(rows: list[dict[str, Any]], events: Collection[str] | None) -> list[PublicationFinding]:
    """:meth:`PublicationBook.audit` on the rows as stored, in the order of their sequence."""
    by_sequence = {row["sequence"]: row for row in rows}
    followed: dict[int, int] = {}  # a change: the first row that follows it
    last: dict[str, dict[str, Any]] = {}  # each event's change before the row at hand
    findings = []
    for row in rows:
        number, event, follows = row["sequence"], row["event"], row["follows"]
        name = f"row {number} (event {event!r})"
        before = last.get(event)
        opens = row["published"]
        when = _utc(row["at"])
        delay = row.get("delay", 0)
        why = None
        if opens not in (0, 1):  # True and False are 1 and 0: SQLite keeps what it is given
            why = f"{name} neither publishes nor withdraws: published is {opens!r}"
        elif type(delay) is not int or not 0 <= delay <= MOST_DELAY:
            why = (
                f"{name} has the delay {delay!r}: not whole seconds from 0 (live) to "
                f"{MOST_DELAY} (a day)"
            )
        elif delay and not opens:
            why = f"{name} withdraws with a delay of {delay} s: a withdrawal has none"
        elif when is None:
            why = f"{name} is dated {row['at']!r}: not a time in UTC"
        elif events is not None and event not in events:
            why = f"{name} names an event no match was started in: nothing could publish it"
        elif follows != (0 if before is None else before["sequence"]):
            why = f"{name} follows {_follows_what(follows, by_sequence, followed, before)}"
        elif bool(opens) == (before is not None and bool(before["published"])) and (
            not opens or before is None or before.get("delay", 0) == delay
        ):
            state = "public already with that delay" if opens else "not public"
            why = (
                f"{name} {'publishes' if opens else 'withdraws'} an event {state}: a change "
                "that changes nothing is never recorded"
            )
        elif before is not None and (_utc(before["at"]) or when) > when:
            why = (
                f"{name} is dated {row['at']}, before row {before['sequence']} it follows "
                f"({before['at']}): the rows' times go backwards"
            )
        if why is not None:
            findings.append(PublicationFinding(number, event, why))
        followed.setdefault(follows, number)
        last[event] = row
    return findings


def _follows_what(
    follows: int,
    by_sequence: dict[int, dict[str, Any]],
    followed: dict[int, int],
    before: dict[str, Any] | None,
) -> str:
    """Why a row's ``follows`` is not its event's change before it, in words."""
    before_it = "none: it is the event's first" if before is None else f"row {before['sequence']}"
    expected = f"(the event's change before it: {before_it})"
    if follows == 0:
        return f"no change, as only the event's first may {expected}: a second history"
    if follows not in by_sequence:
        return f"row {follows}, which is not in the table: it was deleted {expected}"
    if follows in followed:
        return f"row {follows}, as row {followed[follows]} does: two histories {expected}"
    return f"row {follows} {expected}: the rows were edited, inserted or moved"


def _utc(text: Any) -> datetime | None:
    """A row's ``at`` as a time, if it is one in UTC (``2026-11-27T18:35:18+00:00``)."""
    try:
        when = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return when if when.utcoffset() == timedelta(0) else None
