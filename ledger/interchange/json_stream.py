"""The lossless JSON form of a match (``export --format json``, ``import FILE.json``).

::

    {"format": "bgledger-match", "version": 1, "match_id": "final", "events": [
        {"number": 1, "type": "MatchStarted", "at": "...", "recorded_by": "kim",
         "stored_at": "...", "hash": "3f1c...", "fields": {"match_id": "final", ...}}, ...]}

``number`` is the event's number, ``type`` its class, ``stored_at`` when a
ledger stored it, ``fields`` the class's own fields.  ``hash`` is the SHA-256
of the entry without ``stored_at`` and ``hash`` (:func:`content_hash`): a
per-event content hash.  A hash chain linking each event to the one before
(DESIGN principle 6, ``verify``) comes with a later issue.

Importing re-decides the match (:func:`recheck`): each event's action is
recorded again through the :class:`~ledger.match.Match` commands and must give
the file's events, field by field, so a file this ledger would not have recorded
(a die changed and its hash recomputed) is refused, naming the first event that
differs, and nothing is stored.
"""

from __future__ import annotations

import hashlib
import json
import reprlib
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime
from functools import cache
from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

import sqlalchemy.exc
from eventsourcing.persistence import IntegrityError

from ledger import events as ev
from ledger.app import Ledger
from ledger.errors import BgLedgerError, MatchExistsError, NotAMatchError, RulesError
from ledger.events import MatchEvent, MatchStarted
from ledger.match import Match, match_uuid

__all__ = [
    "InconsistentMatchJsonError",
    "InvalidMatchJsonError",
    "MatchDocument",
    "NotAMatchError",
    "content_hash",
    "export_json",
    "import_json",
    "read_json",
    "recheck",
]

FORMAT = "bgledger-match"
VERSION = 1
_TOP_KEYS = frozenset({"format", "version", "match_id", "events"})
_ENTRY_KEYS = frozenset({"number", "type", "at", "recorded_by", "stored_at", "hash", "fields"})
_BASE = frozenset(f.name for f in fields(MatchEvent))
_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = 60
_short = _repr.repr


class InvalidMatchJsonError(RulesError):
    """Not a match export this version reads: the file ``name``, event ``number``, ``problem``."""

    def __init__(self, name: str, problem: str, number: int | None = None) -> None:
        self.name, self.problem, self.number = name, problem, number
        where = "" if number is None else f"event {number}: "
        super().__init__(f"{name}: {where}{problem}")


class InconsistentMatchJsonError(InvalidMatchJsonError):
    """A well-formed export whose events this ledger would not have recorded as they are."""


@dataclass(frozen=True, slots=True)
class MatchDocument:
    """A match read from a file ``name``: events numbered from 1 on the stream of ``match_id``."""

    name: str
    match_id: str
    events: tuple[MatchEvent, ...]


def own_fields(event: MatchEvent) -> dict[str, Any]:
    """The fields ``event``'s class declares, beyond every event's number, time and recorder."""
    return {f.name: getattr(event, f.name) for f in fields(event) if f.name not in _BASE}


def content_hash(number: int, kind: str, at: str, recorded_by: str, data: dict[str, Any]) -> str:
    """SHA-256 (hex) of an event's canonical content: sorted-key JSON, no spaces, UTF-8."""
    content = {"number": number, "type": kind, "at": at, "recorded_by": recorded_by, "fields": data}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def export_json(events: Sequence[MatchEvent]) -> dict[str, Any]:
    """The JSON document of a match's ``events`` (all of them, in order, as the ledger has them).

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
    return {
        "number": number,
        "type": kind,
        "at": event.at,
        "recorded_by": event.recorded_by,
        "stored_at": event.timestamp.isoformat(),
        "hash": content_hash(number, kind, event.at, event.recorded_by, data),
        "fields": data,
    }


# -- reading --------------------------------------------------------------------------------


@cache
def _schemas() -> dict[str, tuple[type[MatchEvent], dict[str, Any]]]:
    """Each event class of :mod:`ledger.events` by name, with its own fields' declared types."""
    schemas = {}
    for cls in (getattr(ev, name) for name in ev.__all__):
        if issubclass(cls, MatchEvent) and cls is not MatchEvent:
            hints = get_type_hints(cls)
            own = {f.name: hints[f.name] for f in fields(cls) if f.name not in _BASE}
            schemas[cls.__name__] = (cls, own)
    return schemas


def _conforms(value: object, hint: Any) -> bool:
    """Whether the JSON ``value`` has the declared type ``hint`` (``bool`` is not ``int``)."""
    if hint is NoneType:
        return value is None
    if hint in (str, int, bool):
        return type(value) is hint
    origin = get_origin(hint)
    if origin in (UnionType, Union):
        return any(_conforms(value, arg) for arg in get_args(hint))
    if origin is dict:
        key, item = get_args(hint)
        pairs = value.items() if isinstance(value, dict) else ()
        return isinstance(value, dict) and all(
            _conforms(k, key) and _conforms(v, item) for k, v in pairs
        )
    raise TypeError(f"an event field of type {hint!r} is not JSON-stable")


def _parse(text: str, name: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise InvalidMatchJsonError(name, f"not JSON: {error}") from None


def _keys(found: dict[str, Any], wanted: frozenset[str], what: str) -> str | None:
    for label, names in (("lacks", wanted - found.keys()), ("has unknown", found.keys() - wanted)):
        if names:
            return f"{what} {label} {', '.join(map(repr, sorted(names)))}"
    return None


def _header(document: Any, name: str) -> tuple[str, list[Any]]:
    if not isinstance(document, dict):
        raise InvalidMatchJsonError(name, "not a match export: the document is not an object")
    problem = _keys(document, _TOP_KEYS, "the document")
    version = document.get("version")
    if problem is None and document["format"] != FORMAT:
        problem = f"format is {_short(document['format'])}, not {FORMAT!r}"
    elif problem is None and (type(version) is not int or version != VERSION):
        problem = f"version {_short(version)}: this bgledger reads version {VERSION}"
    elif problem is None and not isinstance(document["match_id"], str):
        problem = "match_id is not a string"
    elif problem is None and not (isinstance(document["events"], list) and document["events"]):
        problem = "events is not a non-empty list"
    if problem is not None:
        raise InvalidMatchJsonError(name, problem)
    return document["match_id"], document["events"]


def _time_problem(value: object, label: str) -> str | None:
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None or when.isoformat() != value:
        return f"{label} {_short(value)} is not an ISO 8601 time with offset as bgledger writes"
    return None


def _entry_problem(entry: Any, number: int) -> str | None:
    if not isinstance(entry, dict):
        return "not an object"
    problem = _keys(entry, _ENTRY_KEYS, "the event")
    if problem is not None:
        return problem
    if entry["number"] != number or type(entry["number"]) is not int:
        return f"numbered {_short(entry['number'])} where event {number} belongs (1, 2, 3 ...)"
    if not isinstance(entry["type"], str) or entry["type"] not in _schemas():
        return f"unknown event type {_short(entry['type'])}"
    if not isinstance(entry["recorded_by"], str):
        return "recorded_by is not a string"
    problem = _time_problem(entry["at"], "at") or _time_problem(entry["stored_at"], "stored_at")
    return problem or _fields_problem(entry["fields"], *_schemas()[entry["type"]])


def _fields_problem(data: Any, cls: type[MatchEvent], schema: dict[str, Any]) -> str | None:
    if not isinstance(data, dict):
        return "fields is not an object"
    problem = _keys(data, frozenset(schema), f"{cls.__name__}'s fields")
    if problem is not None:
        return problem
    for key, hint in schema.items():
        if not _conforms(data[key], hint):
            return f"field {key!r} is {_short(data[key])}, not {getattr(hint, '__name__', hint)}"
    return None


def _event(entry: dict[str, Any], match_id: str) -> MatchEvent:
    cls = _schemas()[entry["type"]][0]
    return cls(
        originator_id=match_uuid(match_id),
        originator_version=entry["number"],
        timestamp=datetime.fromisoformat(entry["stored_at"]),
        at=entry["at"],
        recorded_by=entry["recorded_by"],
        **entry["fields"],
    )


def read_json(text: str, *, name: str) -> MatchDocument:
    """Read an export, checking its form, the numbering, every field's name and type, the hashes.

    Whether the events are a match this ledger would record is checked on import.

    :raises InvalidMatchJsonError: naming ``name``, the event at fault and what is wrong.
    """
    match_id, entries = _header(_parse(text, name), name)
    events: list[MatchEvent] = []
    for number, entry in enumerate(entries, start=1):
        problem = _entry_problem(entry, number)
        if problem is None:
            data = (entry["type"], entry["at"], entry["recorded_by"], entry["fields"])
            if entry["hash"] != content_hash(number, *data):
                problem = "its hash does not match its content: changed since it was exported"
        if problem is not None:
            raise InvalidMatchJsonError(name, problem, number)
        events.append(_event(entry, match_id))
    first = events[0]
    if not isinstance(first, MatchStarted) or first.match_id != match_id:
        raise InvalidMatchJsonError(name, f"a match begins with MatchStarted of {match_id!r}", 1)
    return MatchDocument(name, match_id, tuple(events))


# -- re-deciding ------------------------------------------------------------------------------

COMMANDS: dict[type[MatchEvent], Callable[[Match, Any, dict[str, Any]], object]] = {
    ev.OpeningRollMade: lambda m, e, k: m.opening(e.die_a, e.die_b, **k),
    ev.DiceRolled: lambda m, e, k: m.roll(e.die1, e.die2, auto_dance=False, **k),
    ev.RollVoided: lambda m, e, k: m.void_roll(e.reason, **k),
    ev.CheckersPlayed: lambda m, e, k: m.move(e.play, as_played=True, **k),
    ev.UnplayablePlayRecorded: lambda m, e, k: m.record_unplayable(e.play, e.reason, **k),
    ev.CubeOffered: lambda m, e, k: m.double(as_played=True, **k),
    ev.CubeTaken: lambda m, e, k: m.take(**k),
    ev.CubeDropped: lambda m, e, k: m.drop(**k),
    ev.ResignationOffered: lambda m, e, k: m.resign(e.level, player=e.player, as_played=True, **k),
    ev.ResignationAccepted: lambda m, e, k: m.accept(**k),
    ev.ResignationRejected: lambda m, e, k: m.reject(**k),
}
"""The command recording each kind of event: ``(match, event, {"by": ..., "at": None})``.  A dance
is re-decided by its empty play (:meth:`Match.move` records it as :meth:`Match.roll` does)."""

CONSEQUENCES = (MatchStarted, ev.GameStarted, ev.GameWon, ev.MatchWon)
"""Events a command records along with another (:meth:`Match.start` records MatchStarted)."""


def _restart(event: MatchStarted, name: str) -> Match:
    setup = own_fields(event)
    match_id, a, b, length = (setup.pop(k) for k in ("match_id", "player_a", "player_b", "length"))
    if "score_a" in setup:
        setup["score"] = (setup.pop("score_a"), setup.pop("score_b"))
    by = event.recorded_by
    try:
        return Match.start(event.originator_id, match_id, (a, b), length, by=by, **setup)
    except BgLedgerError as error:
        raise InconsistentMatchJsonError(name, f"refused by the ledger: {error}", 1) from None


def _redecide(match: Match, events: Sequence[MatchEvent], index: int, name: str) -> list[Any]:
    """Run the command that records ``events[index]`` (or the action it goes with)."""
    event = events[index]
    later = next((e for e in events[index:] if type(e) in COMMANDS), None)
    if later is None:
        problem = f"{type(event).__name__} here goes with no action of this ledger"
        raise InconsistentMatchJsonError(name, problem, event.originator_version)
    try:
        COMMANDS[type(later)](match, later, {"by": event.recorded_by, "at": None})
    except BgLedgerError as error:
        problem = f"the ledger refuses {type(later).__name__} here: {error}"
        raise InconsistentMatchJsonError(name, problem, later.originator_version) from None
    return match.collect_events()


def _compare(recorded: MatchEvent, event: MatchEvent, name: str) -> None:
    kind, number = type(event).__name__, event.originator_version
    if type(recorded) is not type(event):
        problem = f"the file has {kind}; the ledger records {type(recorded).__name__} here"
        raise InconsistentMatchJsonError(name, problem, number)
    for f in fields(event):
        theirs, mine = getattr(event, f.name), getattr(recorded, f.name)
        if f.name not in ("timestamp", "at") and theirs != mine:
            problem = f"{kind}'s {f.name} is {_short(theirs)} in the file; the ledger records "
            raise InconsistentMatchJsonError(name, problem + _short(mine), number)


def recheck(events: Sequence[MatchEvent], *, name: str) -> None:
    """Re-decide ``events`` through the :class:`Match` commands: they must record the same.

    Every field but the times must be equal, flags included.  The file's
    ``at`` is kept, not re-decided (:func:`read_json` checks its form): events
    recorded without ``--at`` on machines whose clocks differ may be out of order.

    :raises InconsistentMatchJsonError: naming the first event that differs.
    """
    first = events[0]
    if not isinstance(first, MatchStarted):
        raise InconsistentMatchJsonError(name, "a match begins with MatchStarted", 1)
    match = _restart(first, name)
    pending: deque[MatchEvent] = deque(match.collect_events())
    for index, event in enumerate(events):
        if not pending:
            pending.extend(_redecide(match, events, index, name))
        _compare(pending.popleft(), event, name)
    if pending:
        problem = f"the file ends here; the ledger records {type(pending[0]).__name__} next"
        raise InconsistentMatchJsonError(name, problem, events[-1].originator_version)
    if match.state.anomalies:
        raise InconsistentMatchJsonError(name, "; ".join(match.state.anomalies))


# -- importing --------------------------------------------------------------------------------


def _renamed(events: Sequence[MatchEvent], match_id: str) -> list[MatchEvent]:
    stream = match_uuid(match_id)
    return [
        replace(e, originator_id=stream, match_id=match_id)
        if isinstance(e, MatchStarted)
        else replace(e, originator_id=stream)
        for e in events
    ]


def import_json(
    ledger: Ledger, document: MatchDocument, *, match_id: str | None = None, by: str
) -> str:
    """Store ``document``'s match in ``ledger`` (under ``match_id`` if given); return its id.

    The events keep their numbers, fields, ``at``, ``recorded_by`` and
    ``stored_at`` (as ``timestamp``); a new id changes only the stream and
    MatchStarted's ``match_id``.  They are re-decided (:func:`recheck`), then
    stored in one transaction.  ``by`` (who imports) is not stored yet: the
    vocabulary has no import record, and the events keep their recorders.

    :raises MatchExistsError: if the ledger has a match with that id.
    :raises InconsistentMatchJsonError: if the ledger would not record these events
        (event 1 for an invalid ``match_id``).
    """
    chosen = document.match_id if match_id is None else match_id
    exists = MatchExistsError(f"a match with id {chosen!r} already exists; choose another --id")
    if list(ledger.events.get(match_uuid(chosen), limit=1)):
        raise exists
    events = _renamed(document.events, chosen) if chosen != document.match_id else document.events
    recheck(events, name=document.name)
    try:
        ledger.save(*events)
    except (IntegrityError, sqlalchemy.exc.IntegrityError):
        raise exists from None
    return chosen
