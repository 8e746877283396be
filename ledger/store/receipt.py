"""A player's receipt: his match's seal in words and as a code, which anyone can check later.

A receipt is a director's seal of one match (:mod:`bgledger.store.seal`) that signs the
match's result in words with its digest (``result``: "Final: Ann 7, Bob 4: Ann wins the
match").  It is printed as a few lines a person reads, and as one code
(:data:`PREFIX` and the seal document in base64url) that a QR code holds::

    bgledger receipt
    Match: final
    Result: Final: Ann 7, Bob 4: Ann wins the match
    Sealed: 2026-11-28T18:02:11+00:00, at event 412
    Digest: 9c1f2a3b 4c5d6e7f ... (the chain of event 412, in groups of eight)
    Director's key: 1a2b3c4d 5e6f7a8b ...
    Check: bgledger verify final --receipt RECEIPT --pub DIRECTOR.pub
    Code: bgledger-receipt:eyJldmVudHMiOjQxMiwi...

The code is what is checked (:func:`read_receipt`); the printed lines must say what it
signs, so a receipt whose result was written over is refused, not believed.  A check
(:func:`check_receipt`) takes the hash chain of the match's first ``events`` events,
from a ledger (verified) or a JSON copy (``export --format json``, linked afresh), and
compares it
and the result they give with what the receipt signs: "this result is the one the
director sealed", or exactly what differs.  Events recorded after the seal (a ruling
after the result) do not void it; the check says if they change the result.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import re
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass

from eventsourcing.persistence import PersistenceError
from sqlalchemy import Column, Connection, Integer, MetaData, Table, Text, insert, inspect, select
from sqlalchemy.exc import DatabaseError

from bgledger.errors import SealRefusedError
from bgledger.events.base import MatchEvent
from bgledger.events.chain import canonical_json
from bgledger.store.seal import InvalidSealError, Seal

__all__ = [
    "PREFIX",
    "SEALS",
    "InvalidReceiptError",
    "ReceiptCheck",
    "SealBook",
    "check_receipt",
    "read_receipt",
    "receipt_code",
    "receipt_lines",
    "receipt_text",
]

PREFIX = "bgledger-receipt:"
"""How a receipt's code begins: a QR code's reader, a page and ``verify`` find it by it."""
_CODE = re.compile(re.escape(PREFIX) + r"([A-Za-z0-9_-]+)")
_PRINTED = re.compile(r"^\s*(Match|Result|Digest|Sealed): (.*?)\s*$", re.MULTILINE)
_TITLE = re.compile(r"^\s*(?:bgledger receipt|Receipt)\s*$", re.MULTILINE)
"""The receipt's title line: its printed lines follow it (a score sheet has others before)."""


class InvalidReceiptError(InvalidSealError):
    """A receipt that cannot be read, or whose printed lines are not what it signs (exit 2)."""


def receipt_code(seal: Seal) -> str:
    """The receipt's code: :data:`PREFIX` and the seal document, base64url without padding."""
    packed = base64.urlsafe_b64encode(canonical_json(seal.to_json()).encode("utf-8"))
    return PREFIX + packed.decode("ascii").rstrip("=")


def _groups(hexdigits: str) -> str:
    """``hexdigits`` in groups of eight, for a person to compare by eye."""
    return " ".join(hexdigits[i : i + 8] for i in range(0, len(hexdigits), 8))


def receipt_lines(seal: Seal) -> tuple[tuple[str, str], ...]:
    """The receipt's printed lines, label and value, its code last."""
    return (
        ("Match", seal.match_id),
        ("Result", seal.result),
        ("Sealed", f"{seal.sealed_at}, at event {seal.events}"),
        ("Digest", _groups(seal.head)),
        ("Director's key", _groups(seal.public_key)),
        ("Check", f"bgledger verify {seal.match_id} --receipt RECEIPT --pub DIRECTOR.pub"),
        ("Code", receipt_code(seal)),
    )


def receipt_text(seal: Seal) -> str:
    """The receipt as text: a title and :func:`receipt_lines`."""
    lines = ["bgledger receipt", *(f"{label}: {value}" for label, value in receipt_lines(seal))]
    return "\n".join(lines) + "\n"


def read_receipt(text: str, name: str) -> Seal:
    """The seal a receipt's ``text`` holds (its code; its signature not yet checked).

    ``text`` is a printed receipt, its code alone (what its QR code reads), or a
    page's address carrying the code.  The lines it prints (match, result, sealed,
    digest) must say what the code signs.

    :raises InvalidReceiptError: naming ``name`` for no code, a code that is no
        match's seal with a result, or a printed line that differs from the code.
    """
    found = _CODE.search(text)
    if found is None:
        raise InvalidReceiptError(f"receipt {name}: no {PREFIX} code in it")
    packed = found.group(1)
    try:
        raw = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        data = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError) as error:
        raise InvalidReceiptError(f"receipt {name}: its code cannot be read: {error}") from None
    seal = Seal.from_json(data, f"receipt {name}")
    if seal.whole_ledger or not seal.result:
        what = "a whole ledger" if seal.whole_ledger else "a match without a result"
        raise InvalidReceiptError(
            f"receipt {name}: its code is a seal of {what}, not a receipt "
            "(bgledger seal MATCH makes one)"
        )
    printed = dict(receipt_lines(seal))
    titles = list(_TITLE.finditer(text, 0, found.start()))
    block = text[titles[-1].start() : found.start()] if titles else text[: found.start()]
    for label, value in _PRINTED.findall(block):
        if value != printed[label]:
            raise InvalidReceiptError(
                f"receipt {name}: its printed {label.lower()} {value!r} is not what its code "
                f"signs ({printed[label]!r}): the text was changed"
            )
    return seal


@dataclass(frozen=True, slots=True)
class ReceiptCheck:
    """What a receipt's check found against ``against`` (a ledger, or a copy's file).

    :ivar seal: the receipt's seal (signature checked).
    :ivar signer: who signed it, as far as the check could tell.
    :ivar differences: what differs from the seal, each in a sentence; none when it holds.
    :ivar since: after the sealed events, how the result reads now if it changed.
    """

    seal: Seal
    against: str
    signer: str
    differences: tuple[str, ...]
    since: str = ""

    @property
    def ok(self) -> bool:
        """True when the events sealed are those ``against`` holds."""
        return not self.differences

    def lines(self) -> tuple[str, ...]:
        """The check in words: the verdict first, then each difference or what came since."""
        seal = self.seal
        if self.ok:
            head = (
                f"{seal.match_id}: this result is the one the director sealed: {seal.result} "
                f"(event {seal.events}, sealed {seal.sealed_at}, {self.signer}; "
                f"checked against {self.against})"
            )
            return (head, *((self.since,) if self.since else ()))
        head = (
            f"{seal.match_id}: {self.against} does not hold the result the director sealed "
            f"({seal.result}, event {seal.events}, sealed {seal.sealed_at}):"
        )
        return (head, *(f"  {difference}" for difference in self.differences))


def check_receipt(
    seal: Seal,
    events: Sequence[MatchEvent],
    against: str,
    result_of: Callable[[Sequence[MatchEvent]], str],
    signer: str,
) -> ReceiptCheck:
    """``seal`` (a receipt's) against a match's ``events`` from ``against``, linked.

    ``events`` are a ledger's, its chain verified, or a copy's linked afresh from their
    content (:func:`~bgledger.events.chain.rechain`: a copy's own links prove nothing a
    forger could not rewrite).  Event ``seal.events``'s chain must be the head the
    receipt signs, and the result those events give (``result_of``) its result.

    :raises SealRefusedError: for a receipt whose signature does not match its content.
    """
    if not seal.genuine():
        raise SealRefusedError(
            f"{seal.match_id}: the receipt's signature does not match its content: the "
            "receipt was altered or forged"
        )
    count = seal.events
    if len(events) < count:
        missing = (
            f"{against} has {len(events)} events; the receipt sealed {count}: "
            f"events {len(events) + 1}-{count} are missing"
        )
        return ReceiptCheck(seal, against, signer, (missing,))
    sealed = events[:count]
    differences: list[str] = []
    if sealed[-1].chain != seal.head:
        differences.append(
            f"events 1-{count} are not the events sealed: their digest is "
            f"{sealed[-1].chain[:16]}..., the receipt's {seal.head[:16]}...: one was "
            "changed, added or removed since the seal"
        )
    result = result_of(sealed)
    if result != seal.result:
        differences.append(
            f"the result: the receipt says {seal.result!r}; {against} gives {result!r}"
        )
    since = ""
    if not differences and len(events) > count:
        now = result_of(events)
        later = len(events) - count
        if now != seal.result:
            since = f"  since the seal, {later} more events; the result now reads: {now}"
    return ReceiptCheck(seal, against, signer, tuple(differences), since)


# -- the seals a ledger keeps, for its score sheets' receipts -----------------------------------

_METADATA = MetaData()
SEALS = Table(
    "bgledger_seals",
    _METADATA,
    Column("sequence", Integer, primary_key=True, autoincrement=True),
    Column("match_id", Text, nullable=False, index=True),
    Column("document", Text, nullable=False),  # the seal's JSON (Seal.to_json), as signed
)
Transaction = Callable[[bool], AbstractContextManager[Connection]]
"""The ledger's transactions: ``transaction(commit)`` gives a connection."""


class SealBook:
    """The seals ``bgledger seal`` made of this ledger's matches, kept in its database
    (table :data:`SEALS`) so that a score sheet can print the latest as a receipt.

    A kept seal is a signed document like the file: it decides nothing, and is shown
    only once checked against the match's events (:meth:`receipt_of`).
    """

    def __init__(self, transaction: Transaction) -> None:
        self._transaction = transaction
        self._ready = False

    def _made(self) -> bool:
        if not self._ready:
            with self._transaction(False) as connection:
                self._ready = inspect(connection).has_table(SEALS.name)
        return self._ready

    def keep(self, seal: Seal) -> None:
        """Keep ``seal`` (of one match) beside the events."""
        if not self._ready:
            try:
                with self._transaction(True) as connection:
                    SEALS.create(connection, checkfirst=True)
            except (DatabaseError, PersistenceError):  # another process made it since
                if not self._made():
                    raise
            self._ready = True
        row = {"match_id": seal.match_id, "document": canonical_json(seal.to_json())}
        with self._transaction(True) as connection:
            connection.execute(insert(SEALS).values(row))

    def seals(self, match_id: str) -> list[Seal]:
        """The seals kept of ``match_id``, the latest first (one unreadable is skipped)."""
        if not self._made():
            return []
        query = (
            select(SEALS.c.document)
            .where(SEALS.c.match_id == match_id)
            .order_by(SEALS.c.sequence.desc())
        )
        with self._transaction(False) as connection:
            documents = list(connection.execute(query).scalars())
        found = []
        for document in documents:
            with contextlib.suppress(ValueError, InvalidSealError):
                found.append(Seal.from_json(json.loads(document), f"kept seal of {match_id}"))
        return found

    def receipt_of(self, match_id: str, events: Sequence[MatchEvent]) -> Seal | None:
        """The latest kept seal of ``match_id`` with a result that ``events`` (the match's,
        as stored) still extend, its signature checked; None if there is none."""
        for seal in self.seals(match_id):
            if not seal.result or seal.whole_ledger or not 1 <= seal.events <= len(events):
                continue
            if events[seal.events - 1].chain == seal.head and seal.genuine():
                return seal
        return None
