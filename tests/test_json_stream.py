"""The lossless JSON export of a match, and its import into another ledger.

The scenario transcripts are recorded through the CLI (as in
``test_scenarios``), exported, imported into a fresh SQLite ledger and
compared with the original: the folded state and the audit trail must be the
same.  Tampered files must be refused naming the event at fault, with nothing
stored.  The expected event numbers are worked out by hand from the
transcripts (three-point-match.txt: 1 MatchStarted, 2 GameStarted, 3 and 4 the
opening rolls 1-1 and 1-3, 5 Bob's 13/9, 6 Ann's roll 6-6, 7 her play, 8 Bob's
roll 3-5, 9 his 13/5, 10 Ann's double, 11 Bob's take).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bgledger import events as vocabulary
from bgledger.commands.match import Match, match_uuid
from bgledger.errors import BgLedgerError, MatchExistsError, MatchNotFoundError
from bgledger.events import MatchEvent
from bgledger.interchange.json_stream import (
    COMMANDS,
    CONSEQUENCES,
    RULINGS,
    InconsistentMatchJsonError,
    InvalidMatchJsonError,
    MatchDocument,
    NotAMatchError,
    export_json,
    import_json,
    read_json,
)
from bgledger.projections.state.corrected import corrected
from bgledger.projections.state.fold import MatchState, Phase, fold
from bgledger.projections.views.audit import history
from bgledger.store.application import MatchStore
from tests.clocked_match import (
    both_expired_match,
    clocked_random_match,
    missed_hit_match,
    penalty_after_game,
    record_clocked_match,
)
from tests.conftest import shared_matches
from tests.ruled_match import RULINGS_AT, record_crawford_void, record_ruled_match
from tests.test_scenarios import SCENARIOS, record_scenario
from tests.test_scenarios import run as cli
from tests.test_store import PROFILES, random_match

AT = "2026-11-21T10:00:00+00:00"
SCENARIO_NAMES = sorted(path.name for path in SCENARIOS.glob("*.txt"))
RANDOM = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def sha256_of(entry: dict[str, Any]) -> str:
    """The hash the format specifies, computed here from the entry itself."""
    content = {k: entry[k] for k in ("number", "type", "at", "recorded_by", "fields", "line")
               if k in entry}  # fmt: skip
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rehash(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with every event's hash recomputed (a careful forger's last step)."""
    for entry in document["events"]:
        entry["hash"] = sha256_of(entry)
    return document


def copied_history(store: MatchStore, match_id: str) -> list[MatchEvent]:
    """The events an import stored from the copy: all but its own record, the last event."""
    events = store.history(match_id)
    assert isinstance(events[-1], vocabulary.CopyImported), "an import records its copy"
    return events[:-1]


def copied_state(store: MatchStore, match_id: str) -> MatchState:
    """The imported match as the copy left it, before the import's own record."""
    return store.state(match_id, at=len(store.history(match_id)) - 1)


def trail(events: list[MatchEvent]) -> list[tuple[Any, ...]]:
    """The audit trail as a tournament director reads it."""
    return [
        (e.number, e.at, e.recorded_by, e.kind, e.text, e.flagged, e.rule) for e in history(events)
    ]


# -- a match with one ruling of each kind ---------------------------------------------------------


@pytest.fixture(scope="module")
def ruled_once() -> tuple[MatchStore, dict[str, Any]]:
    """The ruled match in a ledger of its own, and its export (through JSON text)."""
    ledger = MatchStore("sqlite:///:memory:")
    events = record_ruled_match(ledger)
    assert {n: type(events[n - 1]).__name__ for n in RULINGS_AT} == RULINGS_AT
    assert len(events) == 51 and isinstance(events[-1], vocabulary.MatchWon)
    return ledger, json.loads(json.dumps(export_json(events)))


@pytest.fixture
def ruled(ruled_once: tuple[MatchStore, dict[str, Any]]) -> tuple[MatchStore, dict[str, Any]]:
    """The ruled match's ledger and a copy of its export, for a test to change."""
    ledger, document = ruled_once
    return ledger, copy.deepcopy(document)


Recorded = Callable[[str], tuple[MatchStore, dict[str, Any]]]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    """A scenario recorded through the CLI into its SQLite file (once), and a copy of its export."""
    base = tmp_path_factory.mktemp("scenarios")
    done: dict[str, tuple[MatchStore, dict[str, Any]]] = {}

    def get(name: str) -> tuple[MatchStore, dict[str, Any]]:
        if name not in done:
            url = f"sqlite:///{base / name}.db"
            result, _ = record_scenario(url, name)
            assert result.exit_code in (0, 1), result.output  # refusals.txt refuses lines
            ledger = MatchStore(url)
            done[name] = ledger, json.loads(json.dumps(export_json(ledger.history("m"))))
        ledger, document = done[name]
        return ledger, copy.deepcopy(document)

    return get


@pytest.fixture
def fresh(tmp_path: Path) -> MatchStore:
    """An empty ledger in its own SQLite file."""
    return MatchStore(f"sqlite:///{tmp_path / 'imported.db'}")


def read(document: dict[str, Any], name: str = "match.json") -> MatchDocument:
    return read_json(json.dumps(document), name=name)


# -- the document ------------------------------------------------------------------------------


def test_export_lists_every_event_numbered_typed_and_hashed(recorded: Recorded) -> None:
    _, document = recorded("three-point-match.txt")
    assert (document["format"], document["version"], document["match_id"]) == (
        "bgledger-match",
        1,
        "m",
    )
    events = document["events"]
    assert [e["number"] for e in events] == list(range(1, len(events) + 1))
    assert [e["type"] for e in events[:6]] == [
        "MatchStarted",
        "GameStarted",
        "OpeningRollMade",
        "OpeningRollMade",
        "CheckersPlayed",
        "DiceRolled",
    ]
    assert events[5]["fields"] == {"player": "a", "die1": 6, "die2": 6}
    assert events[9]["fields"] == {
        "player": "a",
        "value": 2,
        "legal": True,
        "reason": None,
        "rule": None,
    }
    started = events[0]["fields"]
    assert (started["player_a"], started["player_b"], started["length"]) == ("Ann", "Bob", 3)
    assert events[-1]["type"] == "MatchWon"
    assert events[-1]["fields"] == {"winner": "a", "score_a": 3, "score_b": 2}
    keys = {"number", "type", "at", "recorded_by", "stored_at", "hash", "fields"}
    for entry in events:
        assert set(entry) - {"line"} == keys  # the first event of an entry keeps its line
        assert entry["recorded_by"] == "kim"
        assert entry["hash"] == sha256_of(entry)


def test_export_refuses_events_that_are_not_a_match() -> None:
    with pytest.raises(NotAMatchError):
        export_json([])


# -- round trips --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_import_rebuilds_the_same_match(recorded: Recorded, fresh: MatchStore, name: str) -> None:
    original, document = recorded(name)
    assert import_json(fresh, read(document, name), by="lee") == "m"
    assert copied_state(fresh, "m") == original.state("m")
    assert trail(copied_history(fresh, "m")) == trail(original.history("m"))
    stored = [e.timestamp for e in copied_history(fresh, "m")]
    assert stored == [e.timestamp for e in original.history("m")]
    assert export_json(copied_history(fresh, "m")) == document
    assert fresh.snapshots is not None  # ends on a snapshot, as a .mat import does
    (snapshot,) = fresh.snapshots.get(match_uuid("m"), desc=True, limit=1)
    assert snapshot.originator_version == len(fresh.history("m"))  # the import's record too


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_import_under_a_new_id(recorded: Recorded, fresh: MatchStore, name: str) -> None:
    original, document = recorded(name)
    assert import_json(fresh, read(document, name), match_id="copy", by="lee") == "copy"
    copied = copied_state(fresh, "copy")
    assert copied.match_id == "copy"
    assert dataclasses.replace(copied, match_id="m") == original.state("m")
    assert trail(copied_history(fresh, "copy")) == trail(original.history("m"))
    assert copied_history(fresh, "copy")[0].originator_id == match_uuid("copy")
    with pytest.raises(MatchNotFoundError):
        copied_history(fresh, "m")


def test_imported_three_point_match_has_the_hand_computed_result(
    recorded: Recorded, fresh: MatchStore
) -> None:
    _, document = recorded("three-point-match.txt")
    import_json(fresh, read(document), match_id="final", by="lee")
    state = copied_state(fresh, "final")
    assert state.score == (3, 2) and state.winner == "a"
    assert [(g.number, g.winner, g.points, g.how, g.crawford) for g in state.games] == [
        (1, "a", 2, "played", False),
        (2, "b", 1, "played", True),
        (3, "b", 1, "drop", False),
        (4, "a", 1, "played", False),
    ]


def test_a_flagged_illegal_play_and_an_unplayable_one_survive_the_round_trip(
    fresh: MatchStore,
) -> None:
    match = Match.start(match_uuid("x"), "x", ("Ann", "Bob"), 3, by="kim", at=AT)
    match.opening(3, 1, by="kim", at=AT)  # events 2 and 3: Ann plays 3-1
    match.move("13/7", as_played=True, by="kim", at=AT)  # 4: a 6 played with 3-1
    match.roll(6, 5, by="kim", at=AT)  # 5
    match.record_unplayable("3/off", "no checker on 3", by="kim", at=AT)  # 6
    events = match.collect_events()
    imported = import_json(fresh, read(export_json(events)), by="lee")
    state = copied_state(fresh, imported)
    assert state.flagged == (4, 6)
    assert trail(copied_history(fresh, imported)) == trail(events)
    assert "ILLEGAL: Ann played 13/7 with 3-1" in trail(events)[3][4]


@RANDOM
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    length=st.integers(min_value=1, max_value=5),
    profile=st.sampled_from(PROFILES),
    limit=st.integers(min_value=1, max_value=400),
)
def test_random_matches_round_trip(seed: int, length: int, profile: str, limit: int) -> None:
    with MatchStore("sqlite:///:memory:") as original, MatchStore("sqlite:///:memory:") as copy_:
        original.save(*random_match(seed, length, profile, limit))
        (match_id,) = original.match_ids()
        document = json.loads(json.dumps(export_json(original.history(match_id))))
        import_json(copy_, read(document), match_id="copy", by="lee")
        expected: MatchState = original.state(match_id)
        assert copied_state(copy_, "copy") == dataclasses.replace(expected, match_id="copy")
        assert trail(copied_history(copy_, "copy")) == trail(original.history(match_id))


# -- rulings -----------------------------------------------------------------------------------


def test_rulings_are_exported_with_what_they_void_restore_and_set_and_no_state(
    ruled: tuple[MatchStore, dict[str, Any]],
) -> None:
    ledger, document = ruled
    entries = document["events"]
    revert = entries[6]
    assert (revert["type"], revert["recorded_by"], revert["at"]) == (
        "PlaysReverted",
        "tom",
        "2026-11-21T10:05:00+00:00",
    )
    assert revert["fields"] == {  # facts only: the match it leads to is derived (DESIGN 7)
        "rule": "USBGF 4.2.3(a)",
        "ruled_by": "director",
        "reason": "Bob played a 5 with 6-4",
        "agreed": False,
        "voids": [6],
        "restores": [],
        "event": 6,
        "same_checker": [],  # usbgf-2016 does not oblige the same man (CLASSIC 10 does)
        "moved_on": [],  # nor a man moved on (CLASSIC 10's fallback)
    }
    # the match right after the ruling: Bob to play his 6-4 again, as before event 6
    state = ledger.state("m", at=7)
    assert (state.match_id, state.turn, state.dice, state.phase) == ("m", "b", (6, 4), Phase.PLAY)
    assert (state.events, state.last_at) == (7, "2026-11-21T10:05:00+00:00")  # its own time
    assert entries[27]["fields"]["voids"] == [23, 24]
    assert ledger.state("m", at=28).score == (2, 1)
    assert entries[30]["fields"]["voids"] == [30] and entries[30]["fields"]["ruling"] == 30
    assert entries[43]["fields"]["voids"] == [41, 42, 43]
    assert entries[50]["type"] == "MatchWon" and entries[50]["recorded_by"] == "tom"
    assert all(entry["hash"] == sha256_of(entry) for entry in entries)


def test_a_match_with_every_kind_of_ruling_round_trips_under_a_new_id(
    ruled: tuple[MatchStore, dict[str, Any]], fresh: MatchStore
) -> None:
    original, document = ruled
    # The setup correction needs a game begun from a wrong position: tests/test_setup_errors.py
    # round-trips it; a voided concession, tests/test_rulings_from_the_text.py; a call corrected
    # (classic only, CLASSIC 8), tests/test_lines.py's example of correct-call.
    kinds = {k.__name__ for k in RULINGS} - {
        "StartingPositionCorrected",
        "ConcessionVoided",
        "CallCorrected",
    }
    assert {e["type"] for e in document["events"]} >= kinds
    assert import_json(fresh, read(document), match_id="copy", by="lee") == "copy"
    copied, recorded = copied_history(fresh, "copy"), original.history("m")
    assert dataclasses.replace(copied_state(fresh, "copy"), match_id="m") == original.state("m")
    mine, theirs = corrected(copied), corrected(recorded)
    assert mine is not None and dataclasses.replace(mine, match_id="m") == theirs
    assert trail(copied) == trail(recorded)
    assert [e.timestamp for e in copied] == [e.timestamp for e in recorded]
    assert isinstance(copied[6], vocabulary.PlaysReverted)
    assert fresh.state("copy", at=7).match_id == "copy"  # the match after a ruling: its own id
    assert copied_state(fresh, "copy").winner == "b" and copied_state(fresh, "copy").score == (2, 3)


def test_a_void_double_that_had_won_the_match_round_trips(fresh: MatchStore) -> None:
    with MatchStore("sqlite:///:memory:") as original:
        events = record_crawford_void(original)
        assert [type(e).__name__ for e in events[16:]] == [
            "GameWon",
            "MatchWon",
            "CubeActionVoided",
            "MatchWon",
        ]
        document = json.loads(json.dumps(export_json(events)))
        import_json(fresh, read(document), by="lee")
        assert copied_state(fresh, "cv") == original.state("cv")
    state = copied_state(fresh, "cv")
    assert (state.score, state.winner, [g.points for g in state.games]) == ((0, 2), "b", [1, 1])
    assert export_json(copied_history(fresh, "cv")) == document


def test_a_match_with_rulings_exports_again_as_the_same_document(
    ruled: tuple[MatchStore, dict[str, Any]], fresh: MatchStore
) -> None:
    _, document = ruled
    import_json(fresh, read(document), by="lee")
    assert export_json(copied_history(fresh, "m")) == document


def _forge(number: int, key: str, value: Any) -> Tamper:
    def change(events: list[dict[str, Any]]) -> None:
        events[number - 1]["fields"][key] = value

    return change


def _retype_ruling(events: list[dict[str, Any]]) -> None:
    events[11]["type"] = "RulingMade"  # the base of the rulings, with RulingNoted's fields


FORGED_RULINGS: list[tuple[str, Tamper, int, str]] = [
    ("revert voids more", _forge(7, "voids", [5, 6]), 7, "voids is [5, 6] in the file"),
    ("revert voids nothing", _forge(7, "voids", []), 7, "voids"),
    ("void-cube voids the game", _forge(28, "voids", [23, 24, 27]), 28, "voids"),
    ("appeal restores", _forge(31, "restores", [6]), 31, "restores"),
    ("rule changed", _forge(7, "rule", "USBGF 4.2.3(f)"), 7, "4.2.3(f)"),
    ("reverts a legal play", _forge(7, "event", 4), 7, "legal play"),
    ("director overturns", _forge(31, "ruled_by", "director"), 31, "committee"),
    ("length unchanged", _forge(29, "length", 3), 29, "length 3: the match is 3 points"),
    ("base class", _retype_ruling, 12, "one of its kinds"),
]


@pytest.mark.parametrize(
    ("tamper", "number", "says"),
    [t[1:] for t in FORGED_RULINGS],
    ids=[t[0] for t in FORGED_RULINGS],
)
def test_a_forged_ruling_is_refused_naming_it_and_nothing_is_stored(
    ruled: tuple[MatchStore, dict[str, Any]],
    fresh: MatchStore,
    tamper: Tamper,
    number: int,
    says: str,
) -> None:
    _, document = ruled
    tamper(document["events"])
    parsed = read(rehash(document), "ruled.json")
    with pytest.raises(InconsistentMatchJsonError) as refused:
        import_json(fresh, parsed, match_id="copy", by="lee")
    assert refused.value.number == number
    assert str(refused.value).startswith(f"ruled.json: event {number}: ")
    assert says in str(refused.value)
    assert fresh.match_ids() == []


def test_a_ruling_dropped_from_the_file_is_refused(
    ruled: tuple[MatchStore, dict[str, Any]], fresh: MatchStore
) -> None:
    # Without the void of Bob's double (event 28) the numbers after it move down one: the
    # committee's appeal, now event 30, names ruling 30, itself, not the score correction.
    _, document = ruled
    del document["events"][27]
    for number, entry in enumerate(document["events"], start=1):
        entry["number"] = number
    with pytest.raises(InconsistentMatchJsonError) as refused:
        import_json(fresh, read(rehash(document)), by="lee")
    assert refused.value.number == 30 and "event 30: the match has events 1-29" in str(
        refused.value
    )
    assert fresh.match_ids() == []


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("voids", [True], "field 'voids' is [True], not list[int]"),
        ("voids", "6", "not list[int]"),
        ("restores", None, "not list[int]"),
        ("state", [], "has unknown 'state'"),  # an older export's state was an object
        ("agreed", 0, "not bool"),
    ],
)
def test_ruling_fields_of_the_wrong_type_are_refused_on_reading(
    ruled: tuple[MatchStore, dict[str, Any]], key: str, value: Any, says: str
) -> None:
    _, document = ruled
    document["events"][6]["fields"][key] = value
    with pytest.raises(InvalidMatchJsonError) as refused:
        read(rehash(document), "ruled.json")
    assert refused.value.number == 7 and says in str(refused.value)


# -- refusals --------------------------------------------------------------------------------

Tamper = Callable[[list[dict[str, Any]]], object]


def _set(index: int, key: str, value: Any) -> Tamper:
    def change(events: list[dict[str, Any]]) -> None:
        events[index]["fields"][key] = value

    return change


def _swap(events: list[dict[str, Any]]) -> None:
    events[5], events[6] = events[6], events[5]


def _retype(events: list[dict[str, Any]]) -> None:
    events[4]["type"] = "CheckersTeleported"


TAMPERED: list[tuple[str, Tamper, int, str]] = [
    ("changed die", _set(5, "die2", 5), 6, "hash"),
    ("deleted event", lambda events: events.pop(9), 10, "numbered 11"),
    ("reordered", _swap, 6, "numbered 7"),
    ("wrong hash", lambda events: events[3].update(hash="0" * 64), 4, "hash"),
    ("unknown type", _retype, 5, "unknown event type 'CheckersTeleported'"),
    ("extra field", _set(2, "die_c", 4), 3, "'die_c'"),
    ("missing field", lambda events: events[5]["fields"].pop("player"), 6, "'player'"),
    ("text for a die", _set(5, "die1", "6"), 6, "'6'"),
    ("bool for a die", _set(5, "die1", True), 6, "True"),
    ("time not ISO 8601", lambda events: events[7].update(at="yesterday"), 8, "at 'yesterday'"),
    ("time without offset", lambda events: events[7].update(at="2026-11-21T10:00:00"), 8, "at"),
]


@pytest.mark.parametrize(
    ("tamper", "number", "says"), [t[1:] for t in TAMPERED], ids=[t[0] for t in TAMPERED]
)
def test_a_tampered_file_is_refused_naming_the_event(
    recorded: Recorded, tamper: Tamper, number: int, says: str
) -> None:
    _, document = recorded("three-point-match.txt")
    tamper(document["events"])
    with pytest.raises(InvalidMatchJsonError) as refused:
        read(document, "final.json")
    assert refused.value.number == number
    assert str(refused.value).startswith(f"final.json: event {number}: ")
    assert says in str(refused.value)


def _drop_and_renumber(events: list[dict[str, Any]]) -> None:
    del events[4]  # Bob's 13/9: then Ann's roll comes while Bob has still to move
    for number, entry in enumerate(events, start=1):
        entry["number"] = number


def _roll_said_otherwise(events: list[dict[str, Any]]) -> None:
    """Ann's 6-6 made a 6-5, its line too (a careful forger's change)."""
    events[5]["fields"]["die2"] = 5
    events[5]["line"] = "roll 6 5"


def _win_bigger(events: list[dict[str, Any]]) -> None:
    game_won = next(e for e in events if e["type"] == "GameWon")
    game_won["fields"]["points"] = 4


REHASHED: list[tuple[str, Tamper, int | None, str]] = [
    ("die changed", _set(5, "die2", 5), 6, "die2 is 5 in the file"),  # its line says 6 6
    ("die and line changed", _roll_said_otherwise, 7, "the ledger"),  # 6-5 cannot play 8/2
    ("event dropped", _drop_and_renumber, 5, "refuses DiceRolled"),
    ("double's flags", _set(9, "legal", False), 10, "legal"),
    ("taker changed", _set(10, "player", "a"), 11, "player"),
    ("points changed", _win_bigger, None, "points"),
    ("player renamed", _set(0, "player_a", "Bob"), 1, "both players"),
]


@pytest.mark.parametrize(
    ("tamper", "number", "says"), [t[1:] for t in REHASHED], ids=[t[0] for t in REHASHED]
)
def test_a_consistent_looking_forgery_is_refused_and_nothing_is_stored(
    recorded: Recorded, fresh: MatchStore, tamper: Tamper, number: int | None, says: str
) -> None:
    _, document = recorded("three-point-match.txt")
    tamper(document["events"])
    if number is None:  # the GameWon of game 1, wherever the random play put it
        number = next(e["number"] for e in document["events"] if e["type"] == "GameWon")
    parsed = read(rehash(document), "final.json")
    with pytest.raises(InconsistentMatchJsonError) as refused:
        import_json(fresh, parsed, by="lee")
    assert refused.value.number == number
    assert says in str(refused.value)
    assert fresh.match_ids() == []


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"version": 2}, "version 2"),
        ({"version": True}, "version True"),
        ({"format": "gnubg"}, "format"),
        ({"events": []}, "events"),
        ({"match_id": 7}, "match_id"),
        ({"extra": 1}, "'extra'"),
    ],
)
def test_a_wrong_header_is_refused(recorded: Recorded, change: dict[str, Any], says: str) -> None:
    _, document = recorded("bar-dance.txt")
    with pytest.raises(InvalidMatchJsonError) as refused:
        read({**document, **change}, "dance.json")
    assert refused.value.number is None
    assert str(refused.value).startswith("dance.json: ") and says in str(refused.value)


def test_not_json_is_refused_with_the_file_name() -> None:
    with pytest.raises(InvalidMatchJsonError, match=r"^notes\.txt: not JSON"):
        read_json("game 1: Ann won", name="notes.txt")


def test_a_match_id_that_does_not_match_its_first_event_is_refused(recorded: Recorded) -> None:
    _, document = recorded("bar-dance.txt")
    document["match_id"] = "other"
    with pytest.raises(InvalidMatchJsonError) as refused:
        read(document)
    assert refused.value.number == 1


def test_a_copy_whose_times_go_backwards_is_refused_naming_the_entry(
    recorded: Recorded, fresh: MatchStore
) -> None:
    # issue 32, break 7: record refuses a line before the match's last event; so does an import
    _, document = recorded("bar-dance.txt")
    document["events"][7]["at"] = "2000-01-01T00:00:00+00:00"
    with pytest.raises(InconsistentMatchJsonError) as refused:
        import_json(fresh, read(rehash(document), "dance.json"), by="lee")
    assert refused.value.number == 8
    said = str(refused.value)
    assert said.startswith("dance.json: event 8: DiceRolled's time '2000-01-01T00:00:00+00:00'")
    assert "is before the match's last event" in said and "in the order they happened" in said
    assert fresh.match_ids() == []


@pytest.mark.parametrize(
    ("year", "says"),
    [("1800", "a year before 1900 is not a match's"), ("2099", "is in the future")],
)
def test_a_copy_dated_1800_or_2099_is_refused_at_its_first_entry(
    recorded: Recorded, fresh: MatchStore, year: str, says: str
) -> None:
    # issue 32, break 7: every entry moved to 1800 (or 2099), in order: imported before
    _, document = recorded("bar-dance.txt")
    for entry in document["events"]:
        entry["at"] = year + entry["at"][4:]
    with pytest.raises(InconsistentMatchJsonError) as refused:
        import_json(fresh, read(rehash(document), "dance.json"), by="lee")
    assert refused.value.number == 1
    assert str(refused.value).startswith(f"dance.json: event 1: MatchStarted's time '{year}-")
    assert says in str(refused.value)
    assert fresh.match_ids() == []


def test_a_clocked_play_moved_a_day_before_the_opening_is_refused(fresh: MatchStore) -> None:
    # issue 32, break 7: it imported, charged no time (verify found nothing)
    document = json.loads(json.dumps(export_json(record_clocked_match("m"))))
    play = document["events"][5]
    assert (play["type"], play["at"]) == ("CheckersPlayed", "2026-11-21T10:01:45+00:00")
    play["at"] = "2026-11-20T10:01:45+00:00"  # the opening was rolled at 10:01:00 on the 21st
    with pytest.raises(InconsistentMatchJsonError) as refused:
        import_json(fresh, read(rehash(document), "timed.json"), by="lee")
    assert refused.value.number == 6
    assert "is before the match's last event, at 2026-11-21T10:01:00+00:00" in str(refused.value)
    assert fresh.match_ids() == []


def test_an_existing_match_is_not_overwritten(recorded: Recorded, fresh: MatchStore) -> None:
    _, document = recorded("bar-dance.txt")
    fresh.start(("Cy", "Di"), 1, match_id="m", by="kim")
    with pytest.raises(MatchExistsError):
        import_json(fresh, read(document), by="lee")
    assert [e.originator_version for e in fresh.history("m")] == [1]
    assert fresh.state("m").players == ("Cy", "Di")


def test_an_invalid_new_id_is_refused(recorded: Recorded, fresh: MatchStore) -> None:
    _, document = recorded("bar-dance.txt")
    with pytest.raises(InvalidMatchJsonError, match="match id 'two words'"):
        import_json(fresh, read(document), match_id="two words", by="lee")
    assert fresh.match_ids() == []


# -- the clock, breaks and penalty points -------------------------------------------------------


def test_a_clocked_match_round_trips_through_the_cli(tmp_path: Path) -> None:
    """Hits, a stop, a reading, a setting, an early pick-up, a break with a late return,
    penalty points and a flag forfeit (tests/clocked_match.py): out to JSON and back in."""
    url = f"sqlite:///{tmp_path / 'clocked.db'}"
    with MatchStore(url) as ledger:
        ledger.save(*record_clocked_match("m"))
    out = tmp_path / "m.json"
    assert cli(url, "export", "m", "--format", "json", "-o", str(out)).exit_code == 0
    imported = cli(url, "import", str(out), "--id", "again", "--again")
    assert imported.exit_code == 0, imported.output
    before = json.loads(cli(url, "show", "m", "--json").stdout)
    count = str(before["events"])  # then the import's record: "imported from an unsealed copy"
    after = json.loads(cli(url, "show", "again", "--at", count, "--json").stdout)
    assert {**before, "match_id": "again"} == {**after, "provenance": None, "view": "present"}
    assert (after["score"], after["winner"]) == ({"a": 3, "b": 0}, "b")
    old = json.loads(cli(url, "history", "m", "--json").stdout)["events"]
    new = json.loads(cli(url, "history", "again", "--json").stdout)["events"]
    assert new[-1]["text"].startswith("imported from an unsealed copy")
    assert old == new[:-1] and old[6]["clock"]["reserve_a_ms"] == 567_000  # 10:00 - 0:33
    with MatchStore(url) as ledger:
        again = ledger.state("again", at=len(ledger.history("m")))  # before the import's record
        assert dataclasses.replace(again, match_id="m") == ledger.state("m")
        assert ledger.state("m").timer == ledger.state("again").timer


@pytest.mark.parametrize(
    "make",
    [missed_hit_match, both_expired_match, penalty_after_game, lambda: clocked_random_match(5)],
    ids=["missed-hit", "both-expired", "penalty-after-game", "random-clocked"],
)
def test_the_rarer_time_events_round_trip(make: Callable[[], list[MatchEvent]]) -> None:
    events = make()
    with MatchStore("sqlite:///:memory:") as ledger:
        match_id = import_json(ledger, read(export_json(events)), by="lee")
        assert copied_state(ledger, match_id) == fold(events)
        assert trail(copied_history(ledger, match_id)) == trail(events)
        assert export_json(copied_history(ledger, match_id)) == export_json(events)


def _before_and_after_clock_3_3() -> list[list[MatchEvent]]:
    """Clocked openings as matches recorded before the opening roll started the clock (no
    ClockHit with it: the lower die's hit typed later, or never) and one recorded after, under
    usbgf-2017, with a forgotten hit recorded as implied by the roll (ABT 4.6)."""
    when = "2026-11-21T10:01:{:02d}+00:00".format
    matches = []
    for late_hit in (True, False):
        old = Match.start(match_uuid("o"), "o", ("Ann", "Bob"), 5, by="k", at=AT, clock="bronstein")
        old.opening(3, 1, start_clock=False, by="k", at=when(0))
        if late_hit:
            old.hit("b", by="k", at=when(5))  # Bob's lower die, typed by the scorekeeper
        old.move("8/5 6/5", by="k", at=when(20))
        old.hit("a", by="k", at=when(20))
        old.roll(6, 4, by="k", at=when(25))
        matches.append(old.collect_events())
    new = Match.start(
        match_uuid("n"), "n", ("Ann", "Bob"), 5, by="k", at=AT, clock="simple-delay",
        profile="usbgf-2017",
    )  # fmt: skip
    new.opening(3, 1, by="k", at=when(0))
    new.move("8/5 6/5", by="k", at=when(20))
    new.roll(6, 4, by="k", at=when(40))  # on Ann's time: her hit is implied, flagged
    new.move("24/18 13/9", by="k", at=when(50))
    new.double(by="k", at=when(55))  # on Bob's time: his hit is implied too
    matches.append(new.collect_events())
    return matches


@pytest.mark.parametrize(
    "events", _before_and_after_clock_3_3(), ids=["late-opening-hit", "no-opening-hit", "implied"]
)
def test_clocked_openings_recorded_before_and_after_clock_3_3_round_trip(
    events: list[MatchEvent],
) -> None:
    """An old copy keeps its meaning (its opening turn uncharged, as it was recorded), and an
    implied hit is re-decided as made, flagged."""
    with MatchStore("sqlite:///:memory:") as ledger:
        match_id = import_json(ledger, read(export_json(events)), by="lee")
        assert copied_state(ledger, match_id) == fold(events)
        assert trail(copied_history(ledger, match_id)) == trail(events)
    kinds = [type(e).__name__ for e in events]
    assert kinds.count("ClockHitImplied") in (0, 2)


@pytest.mark.parametrize(
    ("mode", "timing"),
    [
        ("bronstein", {}),
        ("simple-delay", {"reserve_ms": 300_000}),
        ("simple-delay", {"doubles": True, "delay_ms": 8_000, "reserve_ms": 900_000}),
        ("bronstein", {"doubles": True, "delay_ms": 8_000, "reserve_ms": 900_000}),
    ],
)
def test_a_clock_set_up_with_figures_of_its_own_round_trips(
    mode: str, timing: dict[str, Any]
) -> None:
    """The clock's options are not in its event: the import finds those that give its figures."""
    match = Match.start(
        match_uuid("c"), "c", ("Ann", "Bob"), 5, by="k", at=AT, clock=mode, **timing
    )
    match.opening(3, 1, by="k", at="2026-11-21T10:01:00+00:00")  # with Bob's hit (CLOCK 3.3)
    later = Match.start(match_uuid("d"), "d", ("Ann", "Bob"), 5, by="k", at=AT)  # no clock yet
    later.start_clock(mode, reserve_ms=420_000, by="k", at="2026-11-21T10:01:00+00:00")
    for events in (match.collect_events(), later.collect_events()):
        with MatchStore("sqlite:///:memory:") as ledger:
            match_id = import_json(ledger, read(export_json(events)), by="lee")
            state = fold(events)
            assert state is not None and copied_state(ledger, match_id).timer == state.timer


def forge_clocked(number: int, **changes: Any) -> dict[str, Any]:
    """The clocked match's export with event ``number`` changed and every hash recomputed."""
    document = base_document("clocked")
    entry = document["events"][number - 1]
    for key, value in changes.items():
        if key == "at":
            entry["at"] = value
        else:
            entry["fields"][key] = value
    return rehash(document)


# (what the forger did, event, changes, what the refusal says); numbers of tests/clocked_match.py
FORGED_TIME: list[tuple[str, int, dict[str, Any], str]] = [
    ("hit by the wrong player", 7, {"player": "b"},
     r"event 7: the ledger refuses ClockHit here: Bob's time is not running, Ann's is"),
    ("lateness points raised", 21, {"points": 2},
     r"event 21: PenaltyPointsAssessed's points is 2 in the file; the ledger records 1"),
    ("lateness minutes cut", 20, {"minutes_over": 9},
     r"event 20: BreakEnded's minutes_over is 9 in the file; the ledger records 17"),
    ("break clock reading changed", 19, {"reserve_b_ms": 600_000},
     r"event 19: BreakStarted's reserve_b_ms is 600000 in the file; the ledger records 569000"),
    ("flag while time remained", 29, {"at": "2026-11-21T10:33:50+00:00"},
     r"event 29: the ledger refuses TimeExpired here: Ann has 0:02 left"),  # 40 s in: 0:30 - 0:28
    ("flag figures changed", 29, {"reserve_b_ms": 1},
     r"event 29: TimeExpired's reserve_b_ms is 1 in the file; the ledger records 569000"),
    ("a warning made a deduction", 14, {"kind": "reserve", "penalty_ms": 30_000},
     r"event 14: ReserveTimePenalized's kind is 'reserve' in the file; the ledger records "
     r"'warning'"),
    ("the clock's reserves changed", 2, {"reserve_a_ms": 500_000},
     r"event 2: ClockStarted's reserve_a_ms is 500000 in the file; the ledger records 600000"),
    ("a hit moved before the play", 7, {"at": "2026-11-21T10:01:40+00:00"},
     r"event 7: ClockHit's time '2026-11-21T10:01:40\+00:00' is before the match's last event"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("number", "changes", "said"), [t[1:] for t in FORGED_TIME], ids=[t[0] for t in FORGED_TIME]
)
def test_forged_clock_break_and_penalty_events_are_refused_naming_them(
    fresh: MatchStore, number: int, changes: dict[str, Any], said: str
) -> None:
    with pytest.raises(InconsistentMatchJsonError, match=said):
        import_json(fresh, read(forge_clocked(number, **changes), "forged.json"), by="lee")
    assert fresh.match_ids() == []


def test_a_forged_restore_of_reserve_is_refused() -> None:
    document = json.loads(json.dumps(export_json(missed_hit_match())))
    document["events"][9]["fields"]["restored_ms"] = 60_000
    with (
        MatchStore("sqlite:///:memory:") as ledger,
        pytest.raises(
            InconsistentMatchJsonError,
            match=r"event 10: ReserveTimeRestored's restored_ms is 60000",
        ),
    ):
        import_json(ledger, read(rehash(document)), by="lee")


def test_every_event_type_can_be_imported() -> None:
    kinds = {
        cls
        for cls in (getattr(vocabulary, name) for name in vocabulary.__all__)
        if isinstance(cls, type) and issubclass(cls, MatchEvent) and cls is not MatchEvent
    }
    assert kinds == set(COMMANDS) | set(CONSEQUENCES)
    assert not set(COMMANDS) & set(CONSEQUENCES)


# -- robustness: only the project's own errors ---------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=6,
)
PLAUSIBLE = (
    st.integers(min_value=-2, max_value=30)
    | st.sampled_from(["a", "b", "c", "", "single", "gammon", "13/8", "bar/22", "cocked", "pre"])
    | st.booleans()
    | st.none()
    | JSON_VALUES
)


@settings(max_examples=200, deadline=None)
@given(text=st.text() | st.from_regex(r'\{"format": "bgledger-match".*', fullmatch=True))
def test_read_json_on_any_text_raises_only_its_own_error(text: str) -> None:
    with contextlib.suppress(InvalidMatchJsonError):
        read_json(text, name="x.json")


_BASE_DOCUMENTS: dict[str, dict[str, Any]] = {}


def base_document(kind: str = "plain") -> dict[str, Any]:
    """A short match with a double, a drop and a concession (``plain``), the match with every
    kind of ruling (``ruled``: :func:`record_ruled_match`) or the match with a clock, a break
    and penalty points (``clocked``: :func:`record_clocked_match`), exported once per run."""
    if kind not in _BASE_DOCUMENTS:
        if kind == "ruled":
            with MatchStore("sqlite:///:memory:") as ledger:
                events = record_ruled_match(ledger)
        elif kind == "clocked":
            events = record_clocked_match()
        else:
            events = random_match(7, 3, "online", 120)
        _BASE_DOCUMENTS[kind] = json.loads(json.dumps(export_json(events)))
    return copy.deepcopy(_BASE_DOCUMENTS[kind])


@settings(max_examples=400, deadline=None)
@given(
    data=st.data(),
    rehashed=st.booleans(),
    kind=st.sampled_from(["plain", "ruled", "clocked"]),
)
def test_mutated_documents_raise_only_the_projects_errors(
    data: st.DataObject, rehashed: bool, kind: str
) -> None:
    document = base_document(kind)
    events = document["events"]
    entry = events[data.draw(st.integers(0, len(events) - 1), label="event")]
    where = data.draw(st.sampled_from(["fields", "entry", "drop-key", "drop-event"]), label="where")
    if where == "fields" and entry["fields"]:
        key = data.draw(st.sampled_from(sorted(entry["fields"])), label="field")
        entry["fields"][key] = data.draw(PLAUSIBLE, label="value")
    elif where == "entry":
        entry[data.draw(st.sampled_from(sorted(entry)), label="key")] = data.draw(PLAUSIBLE)
    elif where == "drop-key":
        del entry[data.draw(st.sampled_from(sorted(entry)), label="key")]
    else:
        events.remove(entry)
    if rehashed:
        assume(all(isinstance(e, dict) and "fields" in e for e in events))
        try:
            rehash(document)
        except (KeyError, TypeError):
            assume(False)
    try:
        parsed = read(document)
        with MatchStore("sqlite:///:memory:") as ledger:
            import_json(ledger, parsed, by="lee")
    except BgLedgerError as error:
        assert isinstance(error, InvalidMatchJsonError), repr(error)


# -- real transcriptions ------------------------------------------------------------------------


def test_real_matches_round_trip_through_json() -> None:
    importer = pytest.importorskip("bgledger.interchange.importer")
    mat = pytest.importorskip("bgledger.interchange.mat")
    files = sorted(shared_matches().rglob("*.mat"))
    for path in random.Random(4).sample(files, min(12, len(files))):
        for imported in importer.matches_from_mat(mat.read_mat_file(path), path.name):
            events = imported.match.collect_events()
            with MatchStore("sqlite:///:memory:") as ledger:
                import_json(ledger, read(export_json(events), path.name), by="lee")
                assert trail(copied_history(ledger, imported.match_id)) == trail(events), path.name
