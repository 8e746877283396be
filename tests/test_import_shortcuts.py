"""The import's shortcuts (issue 34) give what the long way gives.

Each shortcut skips work that the import did the slow way, and must give the
same result: the stored rows (:meth:`LedgerMapper.to_stored_events` against the
library's mapper), the hash chain's content (read in one copy of an event's
attributes against field by field), the fold's frozen state (made through the
slots' setters against the dataclass's constructor) and the content key of a
match just imported (kept from the same-match check against the key worked out
from the match as stored).
"""

from __future__ import annotations

import shutil
import zlib
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import Compressor
from hypothesis import given
from hypothesis import strategies as st

from bgledger.events import MatchEvent
from bgledger.events.chain import content, link
from bgledger.interchange.files import content_key
from bgledger.interchange.importer import ImportedMatch, matches_from_mat
from bgledger.interchange.mat import read_mat_file
from bgledger.projections.state.fold import _FIELDS, _MAKE, _VALUES
from bgledger.projections.state.model import MatchState
from bgledger.service import ImportRefusedError, Ledger
from bgledger.store.application import MatchStore
from tests.conftest import REPO, shared_matches

MATS = REPO / "fixtures" / "mat"


def _sample() -> list[ImportedMatch]:
    """The matches of every 40th corpus file (both profiles), replayed, not stored."""
    files = sorted(shared_matches().glob("*/*.mat"))[::40]
    matches: list[ImportedMatch] = []
    for path in files:
        profile = "online" if path.parent.name == "online-2009" else "usbgf-2016"
        matches += matches_from_mat(
            read_mat_file(path), str(path), match_id=None, profile=profile, by="t", taken=_no
        )
    return matches


def _no(_: str) -> bool:
    return False


@pytest.fixture(scope="module")
def sample() -> list[ImportedMatch]:
    return _sample()


def test_rows_made_at_once_are_the_mappers_rows(
    sample: list[ImportedMatch], tmp_path: Path
) -> None:
    store = MatchStore(f"sqlite:///{tmp_path / 'rows.db'}")
    mapper: Any = store.mapper
    events = [event for one in sample for event in one.match.pending]
    kinds = {type(event) for event in events}
    assert len(events) > 2000 and len(kinds) >= 8  # plays, rolls, cubes, games, the match
    assert mapper.to_stored_events(events) == [mapper.to_stored_event(e) for e in events]


class _Zlib(Compressor):
    def compress(self, data: bytes) -> bytes:
        return zlib.compress(data)

    def decompress(self, data: bytes) -> bytes:
        return zlib.decompress(data)


def test_rows_of_a_mapper_that_compresses_are_its_own(
    sample: list[ImportedMatch], tmp_path: Path
) -> None:
    store = MatchStore(f"sqlite:///{tmp_path / 'rows.db'}")
    mapper: Any = store.mapper
    mapper.compressor = _Zlib()
    events = list(sample[0].match.pending[:50])
    rows = mapper.to_stored_events(events)
    assert rows == [mapper.to_stored_event(e) for e in events]
    assert zlib.decompress(rows[0].state).startswith(b"{")  # compressed: not the fast path


def _content_field_by_field(event: MatchEvent) -> dict[str, Any]:
    data = {f.name: getattr(event, f.name) for f in fields(event) if f.name != "chain"}
    for name in ("said", "claimed"):
        if not data[name]:
            del data[name]
    data["originator_id"] = str(event.originator_id)
    data["timestamp"] = event.timestamp.isoformat()
    return data


def test_chain_content_is_every_field_of_the_event(sample: list[ImportedMatch]) -> None:
    for one in sample:
        previous = ""
        for event in one.match.pending:
            assert content(event)["event"] == _content_field_by_field(event)
            assert event.chain == link(previous, event)
            previous = event.chain


def test_chain_content_of_an_event_holding_more_than_its_fields(
    sample: list[ImportedMatch],
) -> None:
    event = sample[0].match.pending[3]
    object.__setattr__(event, "extra", "not a field")  # nothing makes one: still not covered
    try:
        assert "extra" not in content(event)["event"]
        assert content(event)["event"] == _content_field_by_field(event)
    finally:
        object.__delattr__(event, "extra")


def test_states_made_by_the_fold_are_the_constructors(sample: list[ImportedMatch]) -> None:
    for state in sample[0].match.made:
        made = _MAKE(_VALUES(state))
        assert type(made) is MatchState and made == state and made.head == state.head
        assert _VALUES(made) == _VALUES(MatchState(*_VALUES(state)))


@given(st.lists(st.integers() | st.text(max_size=3) | st.none(), min_size=len(_FIELDS)))
def test_a_made_state_holds_the_values_it_was_given_in_order(values: list[Any]) -> None:
    values = values[: len(_FIELDS)]
    assert _VALUES(_MAKE(tuple(values))) == tuple(values)


def test_a_match_between_the_same_players_again_is_told_apart_by_its_games(
    tmp_path: Path,
) -> None:
    """The key kept from the same-match check is the key of the match as stored."""
    first = MATS / "mid-match.mat"
    text = first.read_text(encoding="utf-8")
    assert text.count("24/18 13/9") == 1  # the same match but for Bob's 6-4, played otherwise
    other = tmp_path / "other.mat"
    other.write_text(text.replace("24/18 13/9", "13/7 13/9"), encoding="utf-8")
    copy = tmp_path / "copy of the other.mat"
    shutil.copy(other, copy)
    url = f"sqlite:///{tmp_path / 'same.db'}"
    ledger = Ledger(url)
    try:
        ledger.import_file(first)
        kept = ledger.import_file(other)[0].match_id  # checked against the first: its key kept
        stored = content_key(ledger._store.history(kept))
        assert stored is not None and ledger._content_keys[kept] == (
            len(ledger._store.history(kept)),
            stored,
        )
        with pytest.raises(ImportRefusedError, match=f"already in the ledger as match {kept}:"):
            ledger.import_file(copy)
    finally:
        ledger.close()
    fresh = Ledger(url)  # nothing kept: every key worked out from the stored events
    try:
        with pytest.raises(ImportRefusedError, match=f"already in the ledger as match {kept}:"):
            fresh.import_file(copy)
    finally:
        fresh.close()
