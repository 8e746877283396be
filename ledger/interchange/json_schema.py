"""The form of bgledger's JSON export, and the checks :func:`~.json_stream.read_json` makes.

A document is ``{"format", "version", "match_id", "events"}``; each event entry is
``{"number", "type", "at", "recorded_by", "stored_at", "hash", "fields"}`` (see
:mod:`bgledger.interchange.json_stream`), and ``"line"`` for the first event of an
entry: the line of the record language that made it (``"roll 6 4"``,
``"pickup-with-hit a"``; :attr:`~bgledger.events.MatchEvent.said`, DESIGN principle
12), a non-empty string, covered by the entry's hash.

The fields of an event must be exactly its class's own fields
(:mod:`bgledger.events`, with the clock, break and penalty-point events of
:mod:`bgledger.events`), each of its declared type:
``str``, ``int``, ``bool``, ``None``, unions of these (a clock reading is
``int | None`` at a break without a clock), ``list[int]`` (the events a ruling
voids or restores), ``list[str]`` (the players who asked for a break),
and ``dict[str, str]`` (a match's header tags).  A ``bool`` is not an
``int``; clock figures are whole milliseconds.  (A ruling's ``state`` in an
older export is dropped before these checks: :mod:`.json_stream`.)

Format change (issue 31, lines kept): a copy written before lines were kept has
no ``line`` anywhere and still reads (its hashes are over what it has; its
events are decided again by :mod:`bgledger.commands.legacy`); the version stays
1, as an entry without ``line`` is exactly what it was.  A bgledger older than
this change refuses a copy with lines, naming the unknown key ``'line'``.
"""

from __future__ import annotations

import json
import reprlib
from dataclasses import MISSING, fields
from datetime import datetime
from functools import cache
from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from bgledger.errors import RulesError
from bgledger.events import MatchEvent
from bgledger.events.chain import canonical_json, sha256_hex
from bgledger.events.names import TOPICS

__all__ = [
    "FORMAT",
    "VERSION",
    "InconsistentMatchJsonError",
    "InvalidMatchJsonError",
    "content_hash",
    "entry_problem",
    "header",
    "own_fields",
    "parse",
    "schemas",
    "short",
]

FORMAT = "bgledger-match"
VERSION = 1
_TOP_KEYS = frozenset({"format", "version", "match_id", "events"})
_ENTRY_KEYS = frozenset({"number", "type", "at", "recorded_by", "stored_at", "hash", "fields"})
_LINE = "line"
CLAIMED = "claimed"
"""An entry's key for the time a token's line gave when the ledger took it otherwise."""
"""The key of an entry's line: only where the event has one (the module's text)."""
_BASE = frozenset(f.name for f in fields(MatchEvent))
_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = 60
short = _repr.repr
"""A value as an error message quotes it: ``repr``, cut short."""


class InvalidMatchJsonError(RulesError):
    """Not a match export this version reads: the file ``name``, event ``number``, ``problem``."""

    def __init__(self, name: str, problem: str, number: int | None = None) -> None:
        self.name, self.problem, self.number = name, problem, number
        where = "" if number is None else f"event {number}: "
        super().__init__(f"{name}: {where}{problem}")


class InconsistentMatchJsonError(InvalidMatchJsonError):
    """A well-formed export whose events this ledger would not have recorded as they are."""


def own_fields(event: MatchEvent) -> dict[str, Any]:
    """The fields ``event``'s class declares, beyond every event's number, time and recorder."""
    return {f.name: getattr(event, f.name) for f in fields(event) if f.name not in _BASE}


def content_hash(
    number: int,
    kind: str,
    at: str,
    recorded_by: str,
    data: dict[str, Any],
    line: str = "",
    claimed: str = "",
) -> str:
    """SHA-256 (hex) of an event's canonical content: sorted-key JSON, no spaces, UTF-8.

    The JSON is :func:`bgledger.events.chain.canonical_json`, the form the hash chain hashes.
    ``line`` is covered where there is one; an entry without (a command's later
    events, a copy written before lines were kept) hashes as it always did.  So is
    ``claimed``, a token's time the ledger did not take as given
    (:attr:`~bgledger.events.MatchEvent.claimed`, DESIGN principle 13).
    """
    content = {"number": number, "type": kind, "at": at, "recorded_by": recorded_by, "fields": data}
    if line:
        content[_LINE] = line
    if claimed:
        content[CLAIMED] = claimed
    return sha256_hex(canonical_json(content))


@cache
def schemas() -> dict[str, tuple[type[MatchEvent], dict[str, Any]]]:
    """Each event class of :mod:`bgledger.events` by name, with its own fields' declared types."""
    found = {}
    for cls in TOPICS:  # every kind of the vocabulary
        hints = get_type_hints(cls)
        own = {f.name: hints[f.name] for f in fields(cls) if f.name not in _BASE}
        found[cls.__name__] = (cls, own)
    return found


def _conforms(value: object, hint: Any) -> bool:
    """Whether the JSON ``value`` has the declared type ``hint`` (``bool`` is not ``int``).

    ``Any`` is any JSON value: ``value`` was read by :func:`json.loads`.
    """
    if hint is Any:
        return True
    if hint is NoneType:
        return value is None
    if hint in (str, int, bool):
        return type(value) is hint
    origin = get_origin(hint)
    if origin in (UnionType, Union):
        return any(_conforms(value, arg) for arg in get_args(hint))
    if origin is list:
        (item,) = get_args(hint)
        return isinstance(value, list) and all(_conforms(v, item) for v in value)
    if origin is dict:
        key, item = get_args(hint)
        pairs = value.items() if isinstance(value, dict) else ()
        return isinstance(value, dict) and all(
            _conforms(k, key) and _conforms(v, item) for k, v in pairs
        )
    raise TypeError(f"an event field of type {hint!r} is not JSON-stable")


def _type_name(hint: Any) -> str:
    return hint.__name__ if isinstance(hint, type) else str(hint).replace("typing.", "")


def parse(text: str, name: str) -> Any:
    """The JSON value of ``text``.

    :raises InvalidMatchJsonError: if it is not JSON.
    """
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise InvalidMatchJsonError(name, f"not JSON: {error}") from None


def _keys(found: dict[str, Any], wanted: frozenset[str], what: str) -> str | None:
    for label, names in (("lacks", wanted - found.keys()), ("has unknown", found.keys() - wanted)):
        if names:
            return f"{what} {label} {', '.join(map(repr, sorted(names)))}"
    return None


def header(document: Any, name: str) -> tuple[str, list[Any]]:
    """The match id and the event entries of a document, its format and version checked.

    :raises InvalidMatchJsonError: for anything but a match export of this version.
    """
    if not isinstance(document, dict):
        raise InvalidMatchJsonError(name, "not a match export: the document is not an object")
    problem = _keys(document, _TOP_KEYS, "the document")
    version = document.get("version")
    if problem is None and document["format"] != FORMAT:
        problem = f"format is {short(document['format'])}, not {FORMAT!r}"
    elif problem is None and (type(version) is not int or version != VERSION):
        problem = f"version {short(version)}: this bgledger reads version {VERSION}"
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
        return f"{label} {short(value)} is not an ISO 8601 time with offset as bgledger writes"
    return None


def entry_problem(entry: Any, number: int) -> str | None:
    """What is wrong with the form of event entry ``number``, or None (its hash is not checked)."""
    if not isinstance(entry, dict):
        return "not an object"
    line = entry.get(_LINE)
    optional = {key for key in (_LINE, CLAIMED) if key in entry}
    problem = _keys(entry, _ENTRY_KEYS | optional, "the event")
    if problem is not None:
        return problem
    if _LINE in entry and not (isinstance(line, str) and line):
        return f"line is {short(line)}, not the line of the record language that made it"
    claimed = entry.get(CLAIMED)
    if CLAIMED in entry and not (isinstance(claimed, str) and claimed):
        return f"claimed is {short(claimed)}, not the time a token's line gave"
    if entry["number"] != number or type(entry["number"]) is not int:
        return f"numbered {short(entry['number'])} where event {number} belongs (1, 2, 3 ...)"
    if not isinstance(entry["type"], str) or entry["type"] not in schemas():
        return f"unknown event type {short(entry['type'])}"
    if not isinstance(entry["recorded_by"], str):
        return "recorded_by is not a string"
    problem = _time_problem(entry["at"], "at") or _time_problem(entry["stored_at"], "stored_at")
    return problem or _fields_problem(entry["fields"], *schemas()[entry["type"]])


def _later(cls: type[MatchEvent]) -> frozenset[str]:
    """The fields ``cls`` gained after its first version, each with a default (a reverted
    play's ``moved_on``, CLASSIC 10): an export written before lacks them, and is read with
    the default, as a stored row is upcast."""
    return (
        frozenset(
            f.name
            for f in fields(cls)
            if f.default is not MISSING or f.default_factory is not MISSING
        )
        - _BASE
    )


def _fields_problem(data: Any, cls: type[MatchEvent], schema: dict[str, Any]) -> str | None:
    if not isinstance(data, dict):
        return "fields is not an object"
    given = {**{name: None for name in _later(cls) if name in schema}, **data}
    problem = _keys(given, frozenset(schema), f"{cls.__name__}'s fields")
    if problem is not None:
        return problem
    for key, hint in schema.items():
        if key in data and not _conforms(data[key], hint):
            return f"field {key!r} is {short(data[key])}, not {_type_name(hint)}"
    return None
