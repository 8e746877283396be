"""The lossless JSON form of a match (``export --format json``, ``import FILE.json``).

::

    {"format": "bgledger-match", "version": 1, "match_id": "final", "events": [
        {"number": 1, "type": "MatchStarted", "at": "...", "recorded_by": "kim",
         "stored_at": "...", "hash": "3f1c...", "fields": {"match_id": "final", ...}}, ...]}

``number`` is the event's number, ``type`` its class, ``stored_at`` when a
ledger stored it, ``fields`` the class's own fields.  ``hash`` is the SHA-256
of the entry without ``stored_at`` and ``hash`` (:func:`content_hash`): a
per-event content hash, checked on reading.  The stream's hash chain
(:mod:`bgledger.events.chain`, DESIGN principle 6) is not exported: it covers the
time each event was stored in one ledger, and an import stores the events
anew, linked afresh in the ledger that imports them.

The export is the history as recorded, rulings included (each with the
events it voids and restores and what it sets); the match as corrected is
worked out from it (:mod:`bgledger.projections.state.corrected`), as in the
ledger it came from.  An export written before rulings stopped storing the
state they lead to (a ``state`` field in each ruling's ``fields``) still
reads: its hash covers the field, which is then dropped, as the ledger drops
it from a stored ruling (:meth:`~bgledger.events.RulingMade.upcast_v2_v3`).
The form of a document and the checks made on reading it are in
:mod:`bgledger.interchange.json_schema`.

The first event of each entry carries ``line``, the line of the record
language that made it (DESIGN principle 12; :mod:`bgledger.interchange.json_schema`).
Importing re-decides the match (:func:`recheck`, :mod:`bgledger.interchange.json_recheck`):
each entry's line is run again at its time, and must give the file's events,
field by field, so a file this ledger would not have recorded (a die changed,
or a ruling made to void other events, and its hash recomputed) is refused,
naming the first event that differs, and nothing is stored: a hit by the
player whose time is not running, a break's clock readings or lateness points
that the times do not give, a flag while time remained, are refused like a
changed die.  A copy written before lines were kept is re-decided by the legacy
path (:mod:`bgledger.commands.legacy`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import sqlalchemy.exc
from eventsourcing.persistence import IntegrityError

from bgledger.commands.match import Match, match_uuid
from bgledger.errors import MatchExistsError, NotAMatchError, SealRefusedError
from bgledger.events import MatchEvent, MatchStarted, RulingMade
from bgledger.events.chain import rechain
from bgledger.interchange.json_recheck import COMMANDS, CONSEQUENCES, RULINGS, recheck
from bgledger.interchange.json_schema import (
    FORMAT,
    VERSION,
    InconsistentMatchJsonError,
    InvalidMatchJsonError,
    content_hash,
    entry_problem,
    header,
    own_fields,
    parse,
    schemas,
)
from bgledger.projections.state.fold import fold
from bgledger.store.application import MatchStore
from bgledger.store.seal import Seal

__all__ = [
    "COMMANDS",
    "CONSEQUENCES",
    "RULINGS",
    "InconsistentMatchJsonError",
    "InvalidMatchJsonError",
    "MatchDocument",
    "NotAMatchError",
    "content_hash",
    "export_json",
    "import_json",
    "own_fields",
    "read_json",
    "recheck",
    "sealed_through",
]


@dataclass(frozen=True, slots=True)
class MatchDocument:
    """A match read from a file ``name``: events numbered from 1 on the stream of ``match_id``."""

    name: str
    match_id: str
    events: tuple[MatchEvent, ...]


def export_json(events: Sequence[MatchEvent]) -> dict[str, Any]:
    """The JSON document of a match's ``events`` (all of them, in order, as the ledger has them).

    Rulings are events like any other: the export is the history as recorded,
    every ruling with the events it voids and restores and what it sets, not
    the match as corrected.

    :raises NotAMatchError: if ``events`` do not begin with :class:`MatchStarted`.
    """
    if not events or not isinstance(events[0], MatchStarted):
        raise NotAMatchError("a match export begins with its MatchStarted event")
    return {
        "format": FORMAT,
        "version": VERSION,
        "match_id": events[0].match_id,
        "events": [_entry(event) for event in events],
    }


def _entry(event: MatchEvent) -> dict[str, Any]:
    number, kind, data = event.originator_version, type(event).__name__, own_fields(event)
    entry = {
        "number": number,
        "type": kind,
        "at": event.at,
        "recorded_by": event.recorded_by,
        "stored_at": event.timestamp.isoformat(),
        "hash": content_hash(
            number, kind, event.at, event.recorded_by, data, event.said, event.claimed
        ),
        "fields": data,
    }
    if event.said:
        entry["line"] = event.said  # the line that made the entry (json_schema's text)
    if event.claimed:
        entry["claimed"] = event.claimed  # the token's time, taken otherwise (principle 13)
    return entry


# -- reading --------------------------------------------------------------------------------


def _event(entry: dict[str, Any], match_id: str) -> MatchEvent:
    cls = schemas()[entry["type"]][0]
    return cls(
        originator_id=match_uuid(match_id),
        originator_version=entry["number"],
        timestamp=datetime.fromisoformat(entry["stored_at"]),
        at=entry["at"],
        recorded_by=entry["recorded_by"],
        said=entry.get("line", ""),
        claimed=entry.get("claimed", ""),
        **entry["fields"],
    )


def read_json(text: str, *, name: str) -> MatchDocument:
    """Read an export, checking its form, the numbering, every field's name and type, the hashes.

    The field types are the event classes' (:mod:`bgledger.interchange.json_schema`).
    Whether the events are a match this ledger would record is checked on import.

    :raises InvalidMatchJsonError: naming ``name``, the event at fault and what is wrong.
    """
    match_id, entries = header(parse(text, name), name)
    events: list[MatchEvent] = []
    for number, written in enumerate(entries, start=1):
        entry, hashed = _without_ruling_state(written)
        problem = entry_problem(entry, number)
        if problem is None:
            data = (entry["type"], entry["at"], entry["recorded_by"], hashed)
            claimed = entry.get("claimed", "")
            if entry["hash"] != content_hash(number, *data, entry.get("line", ""), claimed):
                problem = "its hash does not match its content: changed since it was exported"
        if problem is not None:
            raise InvalidMatchJsonError(name, problem, number)
        events.append(_event(entry, match_id))
    first = events[0]
    if not isinstance(first, MatchStarted) or first.match_id != match_id:
        raise InvalidMatchJsonError(name, f"a match begins with MatchStarted of {match_id!r}", 1)
    return MatchDocument(name, match_id, tuple(events))


def _without_ruling_state(entry: Any) -> tuple[Any, Any]:
    """``entry`` without an older export's copy of a ruling's state, and the fields as hashed.

    Exports written before rulings stopped storing the state they lead to
    give each ruling a ``state`` object; it was derived, never a fact, and is
    dropped once the hash (over the fields as written) is checked.
    """
    if not isinstance(entry, dict):
        return entry, None
    data, kind = entry.get("fields"), schemas().get(str(entry.get("type")))
    if kind is None or not issubclass(kind[0], RulingMade) or not isinstance(data, dict):
        return entry, data
    if not isinstance(data.get("state"), dict):
        return entry, data
    return {**entry, "fields": {k: v for k, v in data.items() if k != "state"}}, data


# -- importing --------------------------------------------------------------------------------


def _renamed(event: MatchEvent, match_id: str) -> MatchEvent:
    """``event`` on the stream of ``match_id``, the id in MatchStarted too."""
    event = replace(event, originator_id=match_uuid(match_id))
    if isinstance(event, MatchStarted):
        return replace(event, match_id=match_id)
    return event


def sealed_through(document: MatchDocument, seal: Seal) -> int:
    """How many of ``document``'s events ``seal`` vouches for (its signature and signer checked).

    A seal (:mod:`bgledger.store.seal`) signs the chain of a match's event N
    in the ledger that sealed it.  The copy keeps every event's stream, number,
    stored time and fields, so its events 1 to N linked afresh give that chain
    again, unless one was changed since: a forged copy, however well it obeys
    the rules, does not.

    :raises SealRefusedError: for a seal of another match, of more events than
        the copy has, or whose chain the copy's events do not give.
    """
    name = document.name
    if seal.match_id != document.match_id:
        raise SealRefusedError(
            f"{name}: the seal is of match {seal.match_id!r}, the copy of {document.match_id!r}"
        )
    if not 1 <= seal.events <= len(document.events):
        raise SealRefusedError(
            f"{name}: the seal covers {seal.events} events; the copy has {len(document.events)}"
        )
    head = rechain(document.events[: seal.events])[-1].chain
    if head != seal.head:
        raise SealRefusedError(
            f"{name}: events 1-{seal.events} of the copy are not the events sealed: "
            "changed since the match was sealed (a forged or altered copy)"
        )
    return seal.events


def import_json(
    ledger: MatchStore,
    document: MatchDocument,
    *,
    match_id: str | None = None,
    by: str,
    seal: Seal | None = None,
) -> str:
    """Store ``document``'s match in ``ledger`` (under ``match_id`` if given); return its id.

    The events keep their numbers, fields, ``at``, ``recorded_by`` and
    ``stored_at`` (as ``timestamp``); a new id changes only the stream and
    MatchStarted's ``match_id``.  They are re-decided (:func:`recheck`: the game actions through the
    :class:`~bgledger.commands.match.Match` commands, the rulings through
    :mod:`bgledger.commands.rulings`), then linked in a fresh hash chain and stored in one
    transaction, followed by a :class:`~bgledger.events.CopyImported` recorded by ``by``
    (who imports): whether ``seal`` (checked against the importer's trusted
    key: :func:`~bgledger.store.seal.check_seal`) vouches for the copy's events
    (:func:`sealed_through`), or that the copy was unsealed.

    :raises SealRefusedError: for a ``seal`` the copy's events do not give.

    :raises MatchExistsError: if the ledger has a match with that id.
    :raises InconsistentMatchJsonError: if the ledger would not record these events
        (event 1 for an invalid ``match_id``).
    """
    chosen = document.match_id if match_id is None else match_id
    exists = MatchExistsError(f"a match with id {chosen!r} already exists; choose another --id")
    if list(ledger.events.get(match_uuid(chosen), limit=1)):
        raise exists
    events: Sequence[MatchEvent] = document.events
    if chosen != document.match_id:
        events = [_renamed(event, chosen) for event in events]
    through = 0 if seal is None else sealed_through(document, seal)
    recheck(events, name=document.name, vouched=through)
    linked = rechain(events)
    state = fold(linked)
    assert state is not None  # recheck: the copy begins with MatchStarted
    match = Match(match_uuid(chosen), len(linked), state)
    sealed_by = "" if seal is None else seal.public_key
    match.copy_imported(document.name, sealed_by, through, by=by)
    try:
        ledger.save(*linked, *match.collect_events())
    except (IntegrityError, sqlalchemy.exc.IntegrityError):
        raise exists from None
    with contextlib.suppress(IntegrityError, sqlalchemy.exc.IntegrityError):
        ledger.take_snapshot(match_uuid(chosen))  # as an import of .mat ends: on a snapshot
    return chosen
