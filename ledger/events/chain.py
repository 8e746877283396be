"""The hash chain of a match stream (DESIGN principle 6) and the one canonical JSON form.

Every event stores in ``chain`` the SHA-256 (hex) of the previous event's
``chain``, a newline and the event's canonical content (:func:`content`): its
topic, stream id, number, stored time and every field but ``chain`` itself,
as :func:`canonical_json` writes them.  :class:`~bgledger.events.MatchStarted`
links from ``""``.  Changing, removing, inserting or reordering any event
thus changes the chain of every event after it; :mod:`bgledger.store.integrity`
recomputes it.

An event's line (``said``, DESIGN principle 12) is covered like any field when
it has one; an empty ``said`` is left out of the content, so an event with no
line (a command's later events, an event stored before lines were kept) is
linked exactly as it was before the field existed: older streams, copies and
seals still verify.  An empty ``claimed`` (a time taken as given,
:attr:`~bgledger.events.MatchEvent.claimed`) is left out the same way, and a note's
empty ``role`` (:attr:`~bgledger.events.RemarkRecorded.role`: a note stored before it
was kept, or that says no one's).

A link covers what is stored.  An event is linked when it is recorded, from
the event itself (:func:`link`); it is checked from its row as stored
(:func:`stored_content`, :func:`link_content`): the same content for an event
of the current class version, and for an older row what it held when it was
linked, before any upcast changed its fields (a ruling's dropped ``state``,
:meth:`~bgledger.events.RulingMade.upcast_v2_v3`).  An event class may thus
change its fields without breaking the chain of any stored event.

:func:`canonical_json` is also what the JSON export's per-event hash is
computed over (:func:`bgledger.interchange.json_schema.content_hash`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import fields, replace
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID

from bgledger.events.base import MatchEvent
from bgledger.events.names import topic_of

__all__ = [
    "canonical_json",
    "chain_new",
    "chained",
    "content",
    "link",
    "link_content",
    "rechain",
    "sha256_hex",
    "stored_content",
]

E = TypeVar("E", bound=MatchEvent)


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""``json.dumps`` with these options builds an encoder like this one on every call."""


def canonical_json(value: Any) -> str:
    """``value`` as deterministic JSON: sorted keys, no spaces, UTF-8 text kept as is.

    Tuples and lists both become arrays, so an event hashes the same live
    and read back from the store.

    :raises TypeError: for a value JSON cannot hold.
    """
    return _CANONICAL.encode(value)


def sha256_hex(text: str) -> str:
    """SHA-256 (hex) of ``text`` in UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_COVERED: dict[type[MatchEvent], tuple[str, ...]] = {}
"""The fields each kind of event's link covers (all but ``chain``), in declared order."""
_HELD: dict[type[MatchEvent], frozenset[str]] = {}
"""The attributes an event of each kind holds: its fields, ``chain`` included."""


def content(event: MatchEvent) -> dict[str, Any]:
    """What an event's link covers: topic, stream, number, stored time and its fields.

    The fields are read from the event's attributes in one copy when it holds
    its fields and nothing else (every event: checked each time); their order
    does not matter, :func:`canonical_json` sorts them.

    :raises TypeError: for a field JSON cannot hold (never for a stored event).
    """
    kind = type(event)
    names = _COVERED.get(kind)
    if names is None:
        names = _COVERED[kind] = tuple(f.name for f in fields(event) if f.name != "chain")
        _HELD[kind] = frozenset((*names, "chain"))
    held = vars(event)
    if held.keys() == _HELD[kind]:
        data = dict(held)
        del data["chain"]
    else:
        data = {name: getattr(event, name) for name in names}
    if not data["said"]:
        del data["said"]  # linked as before lines were kept (the module's text)
    if not data["claimed"]:
        del data["claimed"]  # likewise a time taken as given (MatchEvent.claimed)
    if not data.get("role", True):
        del data["role"]  # likewise a note that says no one's (RemarkRecorded.role)
    data["originator_id"] = str(event.originator_id)
    data["timestamp"] = event.timestamp.isoformat()
    return {"topic": topic_of(type(event)), "event": data}


def stored_content(
    topic: str, stream: UUID, number: int, stored: Mapping[str, Any]
) -> dict[str, Any]:
    """What the link of a stored row covers: :func:`content` of the event as it was stored.

    ``stored`` is the row's state decoded but not upcast (the fields the event
    had when it was linked, ``timestamp`` a datetime); ``chain`` and the
    mapper's ``class_version`` are left out (and an empty ``said``), the stream and
    number added as :func:`content` writes them.
    """
    data = {k: v for k, v in stored.items() if k not in ("chain", "class_version")}
    if not data.get("said", True):
        del data["said"]  # no line: linked without it, as :func:`content` links it
    if not data.get("claimed", True):
        del data["claimed"]  # no claim: likewise
    if not data.get("role", True):
        del data["role"]  # a note that says no one's: likewise
    stamp = data.get("timestamp")
    data["originator_id"] = str(stream)
    data["originator_version"] = number
    data["timestamp"] = stamp.isoformat() if isinstance(stamp, datetime) else stamp
    return {"topic": topic, "event": data}


def link_content(previous: str, covered: Mapping[str, Any]) -> str:
    """The chain value of an event whose content is ``covered``, after the chain ``previous``.

    :raises TypeError: for a value JSON cannot hold.
    """
    return sha256_hex(previous + "\n" + canonical_json(covered))


def link(previous: str, event: MatchEvent) -> str:
    """The chain value ``event`` must carry after an event whose chain is ``previous``.

    :raises TypeError: as :func:`content`.
    """
    return link_content(previous, content(event))


def chained(event: E, previous: str) -> E:
    """``event`` carrying its link to ``previous`` (the chain of the event before it).

    :raises TypeError: as :func:`content`.
    """
    return replace(event, chain=link(previous, event))


def chain_new(event: E, previous: str) -> E:
    """:func:`chained` for an event just made and not yet seen by anything else: linked in place.

    The event is frozen for everyone after its maker; copying it whole to set
    one field (:func:`dataclasses.replace` runs its ``__init__`` again) cost a
    sixth of recording an event.

    :raises TypeError: as :func:`content`.
    """
    object.__setattr__(event, "chain", link(previous, event))
    return event


def rechain(events: Iterable[E], previous: str = "") -> list[E]:
    """``events`` (a stream's, in order) each linked afresh to the one before it.

    For events made elsewhere and stored here anew (an import from JSON).

    :raises TypeError: as :func:`content`.
    """
    linked: list[E] = []
    for event in events:
        event = chained(event, previous)
        previous = event.chain
        linked.append(event)
    return linked
