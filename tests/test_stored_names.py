"""Events are stored under the vocabulary's names, whatever module declares them.

The names were fixed when the events were first stored; a ledger written
before the package moved to ``bgledger`` must still read, chain and verify.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import TopicError

from bgledger import events
from bgledger.events.base import MatchEvent
from bgledger.events.names import KINDS, TOPICS
from bgledger.store.application import MatchStore


def _subclasses(cls: type) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def test_every_kind_of_event_has_a_stored_name() -> None:
    declared = {c for c in _subclasses(MatchEvent) if c.__module__.startswith("bgledger.events")}
    assert declared == set(TOPICS)
    assert len(KINDS) == len(TOPICS)


def test_the_names_are_the_ones_first_stored() -> None:
    # Written out by hand: what the first ledgers stored, before the package moved.
    assert TOPICS[events.CheckersPlayed] == "ledger.events:CheckersPlayed"
    assert TOPICS[events.PlaysReverted] == "ledger.events:PlaysReverted"
    assert TOPICS[events.ClockHit] == "ledger.events_time:ClockHit"
    assert TOPICS[events.PenaltyPointsAssessed] == "ledger.events_time:PenaltyPointsAssessed"


def test_rows_carry_the_names_and_snapshots_theirs(tmp_path: Path) -> None:
    path = tmp_path / "ledger.db"
    ledger = MatchStore(f"sqlite:///{path}")
    ledger.start(("Ann", "Bob"), 3, match_id="m", by="kim")
    ledger.take_snapshot(ledger.load("m").id)
    ledger.close()
    with sqlite3.connect(path) as db:
        topics = {row[0] for row in db.execute("SELECT topic FROM bgledger_events")}
        snapshot_topics = {row[0] for row in db.execute("SELECT topic FROM bgledger_snapshots")}
    assert topics == {"ledger.events:MatchStarted"}
    assert snapshot_topics == {"ledger.snapshots:MatchSnapshot"}


def test_a_topic_outside_the_vocabulary_is_refused_without_importing_it() -> None:
    ledger = MatchStore("sqlite:///:memory:")
    ledger.start(("Ann", "Bob"), 3, match_id="m", by="kim")
    stored = ledger.mapper.to_stored_event(ledger.history("m")[0])
    for topic in ("this:x", "ledger.events:Nothing", "bgledger.events.game:MatchStarted"):
        forged = StoredEvent(stored.originator_id, 1, topic, stored.state)
        with pytest.raises(TopicError, match="names no kind of event"):
            ledger.mapper.to_domain_event(forged)
