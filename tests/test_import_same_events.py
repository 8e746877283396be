"""An import stores the same events, hashes and snapshots as it did before issue 34's speed-ups.

``fixtures/import_sample.json`` was written by this file (``python -m
tests.test_import_same_events``) on the code before the import was made
faster (issue 34: the duplicated folds removed, a cheaper judge and fold):
for a sample of 20 real transcriptions of the corpus (every 16th file, sorted,
both rules profiles), each match's id, its number of events, the hash-chain
head (the last event's hash), and a SHA-256 of every stored row of the events
and the snapshots tables, every column but the notification id.  The stored
time is fixed, so that the rows can be compared at all.  A speed-up that
changed any event, any hash or any snapshot byte fails here.

Rewritten once since, when issues 32 and 33 merged beside the speed-ups: their events'
new fields (a token's ``claimed`` time, the classic laws' ``moved_on``) raised class
versions, which every stored row names, and their states' new fields change every
snapshot.  Before it was rewritten, all 20 matches' event counts and hash-chain heads (the
chain covers every field of every event) were checked equal to the ones written on the
code before the speed-ups.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.domain import DomainEvent

from bgledger.commands import decide
from bgledger.commands.match import match_uuid
from bgledger.service import Ledger
from tests.conftest import shared_matches
from tests.corpus import profile_for

FIXTURE = Path(__file__).parent / "fixtures" / "import_sample.json"
T0 = datetime.fromisoformat("2026-11-28T22:00:00+00:00")
EVERY = 16


class _Clock(datetime):
    """``datetime`` whose ``now`` is :data:`T0`: the time an event without one is stamped."""

    @classmethod
    def now(cls, tz: Any = None) -> Any:
        return T0 if tz is None else T0.astimezone(tz)


def fix_time(patch: Any) -> None:
    """The stored time and the time an event is stamped with, both :data:`T0`."""
    patch(DomainEvent, "create_timestamp", staticmethod(lambda: T0))
    patch(decide, "datetime", _Clock)


def sample(root: Path) -> list[Path]:
    """Every 16th file of the corpus, sorted: 20 files of both folders."""
    return sorted(root.glob("*/*.mat"))[::EVERY]


def _digest(rows: list[tuple[Any, ...]]) -> str:
    sha = hashlib.sha256()
    for row in rows:
        for value in row:
            sha.update(value if isinstance(value, bytes) else repr(value).encode())
            sha.update(b"\x1f")
        sha.update(b"\x1e")
    return sha.hexdigest()


def _uuid(value: object) -> str:
    """A stored originator id (16 bytes or text) as a UUID's text."""
    return str(UUID(bytes=value) if isinstance(value, bytes) else UUID(str(value)))


def stored(path: Path) -> dict[str, dict[str, Any]]:
    """Per stream: events, the chain head, and digests of its event and snapshot rows."""
    connection = sqlite3.connect(path)
    try:
        found: dict[str, dict[str, Any]] = {}
        events = connection.execute(
            "SELECT originator_id, originator_version, topic, state FROM bgledger_events "
            "ORDER BY id"
        ).fetchall()
        snapshots = connection.execute(
            "SELECT originator_id, originator_version, topic, state FROM bgledger_snapshots "
            "ORDER BY originator_id, originator_version"
        ).fetchall()
    finally:
        connection.close()
    for stream in sorted({_uuid(row[0]) for row in events}):
        mine = [row for row in events if _uuid(row[0]) == stream]
        last = json.loads(mine[-1][3])  # its chain link: the hash of every event up to it
        found[stream] = {
            "events": len(mine),
            "head": last["chain"],
            "events_sha256": _digest(mine),
            "snapshots_sha256": _digest([row for row in snapshots if _uuid(row[0]) == stream]),
        }
    return found


def imported(root: Path, folder: Path) -> dict[str, Any]:
    """Import the sample into a fresh SQLite ledger in ``folder``; what it stored, by file."""
    path = folder / "sample.db"
    ledger = Ledger(f"sqlite:///{path}")
    ids: dict[str, list[str]] = {}
    try:
        for one in sample(root):
            name = str(one.relative_to(root))
            done = ledger.import_file(one, profile=profile_for(name), by="import")
            ids[name] = [match.match_id for match in done]
    finally:
        ledger.close()
    rows = stored(path)
    return {
        name: [{"match_id": match_id, **rows[str(match_uuid(match_id))]} for match_id in found]
        for name, found in ids.items()
    }


def test_the_import_stores_the_events_it_stored_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fix_time(monkeypatch.setattr)
    expected = json.loads(FIXTURE.read_text())
    assert len(expected) == 20
    now = imported(shared_matches(), tmp_path)
    assert sorted(now) == sorted(expected)
    for name in expected:
        assert now[name] == expected[name], name


def _write() -> None:  # pragma: no cover - run by hand on the code before a change
    import tempfile

    from tests.conftest import MATCHES

    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        fix_time(patch.setattr)
        found = imported(MATCHES, Path(folder))
    FIXTURE.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    print(f"wrote {FIXTURE}: {sum(len(v) for v in found.values())} matches", file=sys.stderr)


if __name__ == "__main__":
    _write()
