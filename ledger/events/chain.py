"""The hash chain of a match stream (DESIGN principle 6) and the one canonical JSON form.

Every event stores in ``chain`` the SHA-256 (hex) of the previous event's
``chain``, a newline and the event's canonical content (:func:`content`): its
topic, stream id, number, stored time and every field but ``chain`` itself,
as :func:`canonical_json` writes them.  :class:`~bgledger.events.MatchStarted`
links from ``""``.  Changing, removing, inserting or reordering any event
thus changes the chain of every event after it; :mod:`bgledger.store.integrity`
recomputes it.

:func:`canonical_json` is also what the JSON export's per-event hash is
computed over (:func:`bgledger.interchange.json_schema.content_hash`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import fields, replace
from typing import Any, TypeVar

from bgledger.events.base import MatchEvent
from bgledger.events.names import topic_of

__all__ = ["canonical_json", "chained", "content", "link", "rechain", "sha256_hex"]

E = TypeVar("E", bound=MatchEvent)


def canonical_json(value: Any) -> str:
    """``value`` as deterministic JSON: sorted keys, no spaces, UTF-8 text kept as is.

    Tuples and lists both become arrays, so an event hashes the same live
    and read back from the store.

    :raises TypeError: for a value JSON cannot hold.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(text: str) -> str:
    """SHA-256 (hex) of ``text`` in UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content(event: MatchEvent) -> dict[str, Any]:
    """What an event's link covers: topic, stream, number, stored time and its fields.

    :raises TypeError: for a field JSON cannot hold (never for a stored event).
    """
    data = {f.name: getattr(event, f.name) for f in fields(event) if f.name != "chain"}
    data["originator_id"] = str(event.originator_id)
    data["timestamp"] = event.timestamp.isoformat()
    return {"topic": topic_of(type(event)), "event": data}


def link(previous: str, event: MatchEvent) -> str:
    """The chain value ``event`` must carry after an event whose chain is ``previous``.

    :raises TypeError: as :func:`content`.
    """
    return sha256_hex(previous + "\n" + canonical_json(content(event)))


def chained(event: E, previous: str) -> E:
    """``event`` carrying its link to ``previous`` (the chain of the event before it).

    :raises TypeError: as :func:`content`.
    """
    return replace(event, chain=link(previous, event))


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
