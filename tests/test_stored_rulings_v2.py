"""A ledger written before rulings stopped storing their corrected state still verifies and reads.

``fixtures/stores/rulings-v2.rows.jsonl`` holds the stored rows of three ruled
matches as the previous release wrote them (every ruling with its ``state``,
class version 2), and ``rulings-v2.shown.jsonl`` what that release's ``show
--json`` said right after each ruling, as recorded and as corrected, and
today (``fixtures/stores/make_rulings_v2.py`` wrote both).  The rows go into a
fresh ledger as they are: ``verify`` must pass (each link covers the row as
stored, ``state`` included), and this release must show the same match at
every one of those moments, now that it derives the match after a ruling from
the events instead of reading the stored copy.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from bgledger.commands.match import match_uuid
from bgledger.events import RulingMade
from bgledger.events.chain import link
from bgledger.events.names import kind_named
from bgledger.projections.readmodels.tracking import ReadModels
from bgledger.projections.state.clock import at_ms, figures
from bgledger.projections.state.corrected import corrected
from bgledger.projections.views.summary import state_json
from bgledger.store.application import MatchStore
from bgledger.store.integrity import verify_stream
from tests.conftest import REPO

STORES = REPO / "fixtures" / "stores"
MATCHES = ("ruled", "crawford-void", "missed-hit")
CONTRACT = (  # DESIGN, command-line contract: what show --json has at least
    "match_id", "players", "length", "score", "crawford", "game", "cube", "turn", "dice",
    "board", "match_id_gnubg", "winner", "events",
)  # fmt: skip


def fixture_rows() -> list[dict[str, Any]]:
    lines = (STORES / "rulings-v2.rows.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _shown() -> list[dict[str, Any]]:
    lines = (STORES / "rulings-v2.shown.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def store_rows(ledger: MatchStore, rows: list[dict[str, Any]]) -> None:
    ledger.recorder.insert_events(
        [
            StoredEvent(UUID(r["stream"]), r["version"], r["topic"], r["state"].encode("utf-8"))
            for r in rows
        ]
    )


@pytest.fixture
def old(tmp_path: Path) -> Iterator[MatchStore]:
    """A fresh SQLite ledger holding the previous release's rows, and nothing else."""
    ledger = MatchStore(f"sqlite:///{tmp_path / 'old.db'}")
    store_rows(ledger, fixture_rows())
    yield ledger
    ledger.close()


def _same(old_show: dict[str, Any], new_show: dict[str, Any], where: str) -> None:
    shared = old_show.keys() & new_show.keys()
    assert shared >= set(CONTRACT), where
    differing = {
        k: (old_show[k], new_show[k])
        for k in shared
        if _kept(old_show[k]) != _kept(new_show[k], old_show[k])
    }
    assert not differing, where


def _kept(value: Any, like: Any = None) -> Any:
    """``value`` with only the keys ``like`` has, at every depth: a field added since the
    previous release (``clock.delay_left_ms``) is no difference."""
    if isinstance(value, dict):
        keys = like.keys() if isinstance(like, dict) else value.keys()
        return {
            k: _kept(value[k], like.get(k) if isinstance(like, dict) else None)
            for k in keys
            if k in value
        }
    return value


def _is_ruling(row: dict[str, Any]) -> bool:
    kind = kind_named(row["topic"])
    return kind is not None and issubclass(kind, RulingMade)


def test_the_fixture_holds_rulings_with_their_stored_state() -> None:
    rulings = [json.loads(r["state"]) for r in fixture_rows() if _is_ruling(r)]
    assert len(rulings) == 11  # 9 in "ruled", 1 in "crawford-void", 1 in "missed-hit"
    assert all(r["class_version"] == 2 and r["state"]["version"] == 1 for r in rulings)


def test_every_stream_written_before_still_verifies(old: MatchStore) -> None:
    for match_id in MATCHES:
        verdict = verify_stream(old, match_uuid(match_id))
        assert verdict.ok, verdict.problem
        assert verdict.unchained == 0 and verdict.events == len(old.history(match_id))


def test_a_ruling_read_back_no_longer_hashes_to_its_link(old: MatchStore) -> None:
    # Why verify links the row as stored: the event read back has lost its state.
    history = old.history("ruled")
    revert = history[6]
    assert isinstance(revert, RulingMade) and not hasattr(revert, "state")
    assert link(history[5].chain, revert) != revert.chain


def test_a_rulings_stored_state_is_still_covered_by_the_chain(tmp_path: Path) -> None:
    # The state is dropped on reading, never from the chain: editing it is found.
    rows = fixture_rows()
    index = next(i for i, r in enumerate(rows) if r["topic"].endswith(":ScoreCorrected"))
    data = json.loads(rows[index]["state"])
    data["state"]["score"] = [0, 0]
    rows[index] = {**rows[index], "state": json.dumps(data, separators=(",", ":"))}
    with MatchStore(f"sqlite:///{tmp_path / 'edited.db'}") as ledger:
        store_rows(ledger, rows)
        verdict = verify_stream(ledger, match_uuid("ruled"))
        assert verdict.problem is not None and verdict.problem.kind == "edited"
        assert verdict.problem.number == rows[index]["version"] == 30
        assert ledger.state("ruled") == _fresh_state(tmp_path)  # and it changes nothing


def _fresh_state(tmp_path: Path) -> Any:
    with MatchStore(f"sqlite:///{tmp_path / 'fresh.db'}") as ledger:
        store_rows(ledger, fixture_rows())
        return ledger.state("ruled")


def test_the_match_after_every_ruling_is_what_the_previous_release_showed(old: MatchStore) -> None:
    for line in _shown():
        match_id, at, view = line["match"], line["at"], line["view"]
        where = f"{match_id} at {at} {view}"
        if view == "corrected":
            state = corrected(old.history(match_id), at=at)
            assert state is not None
        else:
            state = old.state(match_id, at=at)
        _same(line["show"], state_json(state), where)


def test_figures_worked_out_by_hand_from_the_stories(old: MatchStore) -> None:
    ruled = old.state("ruled")  # tests/ruled_match.py: Bob wins 3-2 after the length is 3 again
    assert (ruled.score, ruled.winner, ruled.length) == ((2, 3), "b", 3)
    void = old.state("crawford-void")  # the void double's game scores 1: Bob wins 2-0
    assert (void.score, void.winner, [g.points for g in void.games]) == ((0, 2), "b", [1, 1])
    after = old.state("missed-hit", at=9)  # Bob's roll and play on Ann's time are void
    assert (after.turn, after.dice, after.board[1][24]) == ("b", None, 2)  # his back men stay
    today = old.state("missed-hit")  # and 0:43 is given back to Ann: 10:00 again at 10:02
    assert today.timer is not None and today.last_at == "2026-11-21T10:02:00+00:00"
    assert figures(today.timer, at_ms(today.last_at)) == (600_000, 600_000)


def test_loading_past_a_snapshot_taken_before_a_ruling_folds_the_match_again(
    old: MatchStore,
) -> None:
    expected = {match_id: old.state(match_id) for match_id in MATCHES}
    for match_id in MATCHES:
        old.take_snapshot(match_uuid(match_id), version=5)  # rulings come later in each
    with MatchStore(old.url, cache_size=10) as again:
        for match_id in MATCHES:
            assert again.state(match_id) == expected[match_id]
            assert again.state(match_id) == expected[match_id]  # now from the cache


def test_read_models_fold_the_rulings_of_a_batch_from_the_events(old: MatchStore) -> None:
    today = {line["match"]: line["show"] for line in _shown() if line["view"] == "today"}
    old.take_snapshot(match_uuid("ruled"), version=5)
    models = ReadModels(old, batch=4)  # a batch's rulings fall after a stored state
    for full in (True, False):  # every event in batches; from the snapshots
        models.rebuild(full=full)
        rows = {row["match_id"]: row for row in models.matches()}
        for match_id in MATCHES:
            _same(today[match_id], json.loads(rows[match_id]["summary"]), match_id)
    logged = {(row["match_id"], row["number"]) for row in models.rulings()}
    rulings = {(m, e.originator_version) for m in MATCHES for e in old.history(m)
               if isinstance(e, RulingMade)}  # fmt: skip
    assert len(rulings) == 11 and logged >= rulings
