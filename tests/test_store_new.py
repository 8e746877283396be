"""An import's bulk store (``MatchStore.store_new``) writes the rows live recording writes.

``store_new`` encodes a whole match's events with the same mapper as a live
command and sends them, with the match's final snapshot, to the database in
one transaction of its own (``LedgerRecorder.insert_new_streams``).  A match
recorded live, one ``act`` a command, and the same match made in memory and
stored whole must leave the same rows, byte for byte: the stored time is
fixed here, so that the rows can be compared at all.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import Command, parse
from bgledger.store.application import SNAPSHOT_INTERVAL, MatchStore
from tests.conftest import unique_id
from tests.match_driver import next_line

BY = "driver"
T0 = datetime.fromisoformat("2026-11-21T10:00:00+00:00")

Row = tuple[object, ...]


def rows(path: Path, table: str) -> list[Row]:
    """Every row of ``table`` in the SQLite file at ``path``, every column, in stored order."""
    connection = sqlite3.connect(path)
    try:
        order = "id" if table == "events" else "originator_id, originator_version"
        return connection.execute(f"SELECT * FROM bgledger_{table} ORDER BY {order}").fetchall()
    finally:
        connection.close()


def actions(seed: int, length: int, limit: int) -> list[Command]:
    """The actions of a random match, each a second after the one before."""
    rng = random.Random(seed)
    twin = Match.start(match_uuid("m"), "m", ("Ann", "Bob"), length, by=BY, at=T0.isoformat())
    found = []
    for step in range(1, limit + 1):
        text = next_line(twin.state, rng)
        if text is None:
            break
        action = parse(f"@{(T0 + timedelta(seconds=step)).isoformat()} {text}")
        action.run(twin, BY)
        found.append(action)
    return found


@pytest.mark.parametrize(("seed", "length", "limit"), [(7, 3, 400), (1234, 1, 60)])
def test_a_match_stored_whole_leaves_the_rows_live_recording_leaves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, length: int, limit: int
) -> None:
    monkeypatch.setattr(DomainEvent, "create_timestamp", staticmethod(lambda: T0))
    played = actions(seed, length, limit)
    match_id = "final"

    live_path = tmp_path / "live.db"
    with MatchStore(f"sqlite:///{live_path}") as live:
        live.start(("Ann", "Bob"), length, match_id=match_id, by=BY, at=T0.isoformat())
        for action in played:
            live.act(match_id, lambda match, action=action: action.run(match, BY))
        version = live.state(match_id).events
        if version % SNAPSHOT_INTERVAL:  # the snapshot store_new takes, taken from the events
            live.take_snapshot(match_uuid(match_id), version)

    whole_path = tmp_path / "whole.db"
    match = Match.start(
        match_uuid(match_id), match_id, ("Ann", "Bob"), length, by=BY, at=T0.isoformat()
    )
    for action in played:
        action.run(match, BY)
    with MatchStore(f"sqlite:///{whole_path}") as whole:
        whole.store_new(match)
        assert not match.pending  # stored: nothing left to collect
        assert whole.state(match_id) == match.state

    live_events, whole_events = rows(live_path, "events"), rows(whole_path, "events")
    assert len(whole_events) == version > len(played)
    assert whole_events == live_events
    (snapshot,) = rows(whole_path, "snapshots")
    assert snapshot[1] == version
    assert snapshot in rows(live_path, "snapshots")


def test_a_match_that_exists_refuses_the_whole_call_and_stores_nothing(store_url: str) -> None:
    first, second = unique_id("first"), unique_id("second")

    def started(match_id: str) -> Match:
        return Match.start(match_uuid(match_id), match_id, ("Ann", "Bob"), 3, by=BY)

    with MatchStore(store_url) as ledger:
        ledger.store_new(started(first))
        assert ledger.state(first).events == 1
        with pytest.raises(IntegrityError):
            ledger.store_new(started(second), started(first))
        assert second not in ledger.match_ids()
        assert ledger.snapshots is not None
        assert list(ledger.snapshots.get(match_uuid(second))) == []
        assert [s.originator_version for s in ledger.snapshots.get(match_uuid(first))] == [1]
