"""A ruling is folded from the events before it (DESIGN principle 7): what that asks of callers.

The match after a ruling is the fold of the events in force up to it
(:mod:`bgledger.projections.state.rulings`), so a state alone is not enough to
fold a ruling onto: :func:`~bgledger.projections.state.fold.apply` and
:func:`~bgledger.projections.state.fold.fold` from a state take the events
before as ``history`` and say so when they lack them.  An export written
before rulings stopped keeping a copy of that state still imports.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import Ruling
from bgledger.commands.stream import HistoryMismatchError
from bgledger.events import MatchEvent, PlaysReverted, RulingMade
from bgledger.interchange.json_schema import InvalidMatchJsonError
from bgledger.interchange.json_stream import export_json, import_json, read_json
from bgledger.projections.state.fold import HistoryNeededError, Phase, apply, fold
from bgledger.store.application import MatchStore
from tests.conftest import REPO
from tests.ruled_match import record_ruled_match
from tests.test_stored_rulings_v2 import fixture_rows, store_rows

OLD_EXPORT = REPO / "fixtures" / "stores" / "rulings-v2.ruled.json"


@pytest.fixture(scope="module")
def ruled() -> list[MatchEvent]:
    with MatchStore("sqlite:///:memory:") as ledger:
        return record_ruled_match(ledger)  # event 7 reverts Bob's illegal 6-4 (event 6)


def test_a_ruling_folded_onto_a_state_needs_the_events_before_it(
    ruled: list[MatchEvent],
) -> None:
    before, revert = ruled[:6], ruled[6]
    assert isinstance(revert, PlaysReverted)
    state = fold(before)
    assert state is not None and state.flagged == (6,)
    with pytest.raises(HistoryNeededError, match=r"event 7 \(PlaysReverted\) is a ruling"):
        apply(state, revert)
    with pytest.raises(HistoryNeededError) as needed:
        fold(ruled[6:], state)
    assert needed.value.number == 7
    after = apply(state, revert, before)
    assert (after.turn, after.dice, after.phase, after.flagged) == ("b", (6, 4), Phase.PLAY, ())
    assert fold(ruled[6:], state, history=before) == fold(ruled)
    assert fold(ruled[:5], fold(ruled[:1])) is not None  # no ruling: no history needed


def test_a_ruling_recorded_with_a_history_that_is_not_the_matchs_is_refused() -> None:
    match = Match.start(match_uuid("h"), "h", ("Ann", "Bob"), 3, by="kim")
    history = match.collect_events()
    match.opening(3, 1, by="kim")  # 2, 3 pending
    match.collect_events()  # handed to the application: no longer pending
    note = Ruling("director", "noted")
    with pytest.raises(HistoryMismatchError, match="ends at event 1; the match is at 3"):
        match.note(history, note)
    assert match.version == 3  # nothing recorded


def test_the_events_a_command_recorded_first_are_part_of_a_rulings_history() -> None:
    match = Match.start(match_uuid("p"), "p", ("Ann", "Bob"), 3, by="kim")
    history = match.collect_events()
    match.opening(3, 1, by="kim")  # 2, 3: still pending when the ruling is recorded
    match.note(history, Ruling("director", "noted"))
    events = match.collect_events()
    assert [e.originator_version for e in events] == [2, 3, 4]
    assert match.state == fold([*history, *events])


def test_an_export_from_before_keeps_its_rulings_state_under_its_hash(tmp_path: Path) -> None:
    text = OLD_EXPORT.read_text(encoding="utf-8")
    document = json.loads(text)
    revert = document["events"][6]
    assert revert["type"] == "PlaysReverted" and "state" in revert["fields"]
    read = read_json(text, name="old.json")  # the hash covers the state; then it is dropped
    assert isinstance(read.events[6], RulingMade) and not hasattr(read.events[6], "state")
    revert["fields"]["state"]["score"] = [1, 0]  # the copy edited, the hash left as it was
    with pytest.raises(InvalidMatchJsonError, match="event 7: its hash does not match"):
        read_json(json.dumps(document), name="old.json")


def test_an_export_from_before_imports_as_the_match_its_ledger_held(tmp_path: Path) -> None:
    with (
        MatchStore(f"sqlite:///{tmp_path / 'old.db'}") as old,
        MatchStore(f"sqlite:///{tmp_path / 'new.db'}") as new,
    ):
        store_rows(old, fixture_rows())  # the rows the same release stored
        document = read_json(OLD_EXPORT.read_text(encoding="utf-8"), name="old.json")
        assert import_json(new, document, by="lee") == "ruled"
        count = len(old.history("ruled"))  # then the import's record (CopyImported)
        assert new.state("ruled", at=count) == old.state("ruled")
        for number in (7, 11, 28, 30, 31, 44, 50):  # right after each ruling
            assert new.state("ruled", at=number) == old.state("ruled", at=number), number
        again = export_json(new.history("ruled"))  # facts only, from now on
        fields = again["events"][6]["fields"]
        assert "state" not in fields and fields["voids"] == [6]


def test_a_note_folds_as_it_stands_wherever_it_falls(
    ruled: list[MatchEvent], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A note voids and sets nothing: skipping the refold gives the refold's match.

    At every moment of a match with a ruling of each kind (reverts, a cube
    level corrected, a double voided, a length and a score corrected, an
    appeal), a director's note folded as it stands equals the note folded
    the long way, from the events in force before it.
    """
    from bgledger.events import RulingNoted
    from bgledger.projections.state import fold as fold_module

    def with_note(prefix: list[MatchEvent]) -> list[MatchEvent]:
        last = prefix[-1]
        note = RulingNoted(
            originator_id=last.originator_id,
            originator_version=last.originator_version + 1,
            timestamp=last.timestamp,
            at=last.at,
            recorded_by="td",
            rule="",
            ruled_by="director",
            reason="noted for the record",
            agreed=False,
            voids=[],
            restores=[],
        )
        return [*prefix, note]

    cases = [with_note(ruled[:end]) for end in range(1, len(ruled) + 1)]
    short = [fold(events) for events in cases]
    monkeypatch.setattr(
        fold_module, "needs_history", lambda event: type(event) in fold_module.RULING_HANDLERS
    )
    long = [fold(events) for events in cases]
    assert short == long
