"""A long-lived ledger (``record``, ``import``) caches matches and still sees others' events."""

from __future__ import annotations

import random

import pytest

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.errors import OutOfTurnError
from bgledger.store.application import MatchStore
from tests.conftest import unique_id
from tests.match_driver import next_line


def test_the_cache_follows_the_match_it_saves(sqlite_url: str) -> None:
    ledger = MatchStore(sqlite_url, cache_size=4)
    match_id = ledger.start(("Ann", "Bob"), 25, match_id="cached", by="kim")
    rng = random.Random(7)
    for _ in range(120):
        line = next_line(ledger.state(match_id), rng)
        assert line is not None
        ledger.act(match_id, lambda m, line=line: parse(line).run(m, "kim"))
        cached = ledger.repository.cache
        assert cached is not None
        # Regression: the cached match stayed at version 1 and every command
        # folded the whole stream again.
        assert (
            cached.get(match_uuid(match_id)).version
            == ledger.history(match_id)[-1].originator_version
        )


def test_a_cached_ledger_decides_on_another_scorekeepers_events(store_url: str) -> None:
    cached = MatchStore(store_url, cache_size=4)
    other = MatchStore(store_url)
    match_id = cached.start(("Ann", "Bob"), 5, match_id=unique_id(), by="kim")
    cached.act(match_id, lambda m: m.opening(3, 1, by="kim"))
    cached.act(match_id, lambda m: m.move("8/5 6/5", by="kim"))
    other.act(match_id, lambda m: m.double(by="lee"))  # Bob doubles, recorded elsewhere
    with pytest.raises(OutOfTurnError, match=r"USBGF 4\.4\.4"):
        cached.act(match_id, lambda m: m.roll(6, 5, by="kim"))
    cached.act(match_id, lambda m: m.take(by="kim"))
    assert other.state(match_id).cube_owner == "a"
    assert cached.state(match_id) == other.state(match_id)


def test_a_failed_command_leaves_the_cache_as_it_was(sqlite_url: str) -> None:
    ledger = MatchStore(sqlite_url, cache_size=4)
    match_id = ledger.start(("Ann", "Bob"), 5, match_id="m", by="kim")
    ledger.act(match_id, lambda m: m.opening(3, 1, by="kim"))

    def half_done(match: Match) -> None:
        match.move("8/5 6/5", by="kim")
        raise OutOfTurnError("the scorekeeper changed his mind")

    with pytest.raises(OutOfTurnError):
        ledger.act(match_id, half_done)
    assert ledger.state(match_id).turn == "a" and ledger.state(match_id).events == 3
