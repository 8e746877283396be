"""The audit trail: what ``bgledger history`` tells a tournament director, event by event."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from uuid import uuid4

from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.commands.match import Match, match_uuid
from bgledger.events import CheckersPlayed, MatchEvent
from bgledger.projections.state.fold import apply, fold
from bgledger.projections.views.audit import HistoryEntry, describe, history, history_json
from tests.match_driver import play_lines

AT = "2026-11-21T10:00:00+00:00"


class Recorder:
    """A match being recorded, keeping every event in order as ``history`` would read them."""

    def __init__(self, length: int = 5, profile: str = "usbgf-2016") -> None:
        self.match = Match.start(
            match_uuid("t"), "t", ("Ann", "Bob"), length, profile=profile, by="kim", at=AT
        )
        self.events: list[MatchEvent] = []

    def texts(self) -> list[str]:
        """The text of every history line so far."""
        return [entry.text for entry in self.entries()]

    def entries(self) -> list[HistoryEntry]:
        """The history of every event so far."""
        self.events += self.match.collect_events()
        return history(self.events)

    def last(self, n: int) -> list[str]:
        """The text of the last ``n`` history lines."""
        return self.texts()[-n:]


def test_a_match_opens_with_its_setup_the_game_and_the_opening_roll() -> None:
    rec = Recorder()
    rec.match.opening(4, 4, by="kim")
    rec.match.opening(3, 1, by="kim")
    rec.match.move("8/5 6/5", by="kim")
    rec.match.roll(6, 4, by="kim")
    assert rec.texts() == [
        "match started: Ann v Bob, 5 points, usbgf-2016, Crawford rule",
        "game 1 started",
        "opening roll tied 4-4: rolled again",
        "opening roll: Ann 3, Bob 1: Ann plays first",
        "Ann played 8/5 6/5",
        "Bob rolled 6-4",
    ]


def test_entries_are_numbered_one_to_n_with_time_recorder_kind_and_game() -> None:
    rec = Recorder()
    rec.match.opening(1, 2, by="lee", at="2026-11-21T10:01:00+00:00")
    entries = rec.entries()
    assert [e.number for e in entries] == [1, 2, 3]
    assert [e.kind for e in entries] == ["MatchStarted", "GameStarted", "OpeningRollMade"]
    assert [e.recorded_by for e in entries] == ["kim", "lee", "lee"]
    assert entries[0].at == AT
    assert entries[2].at == "2026-11-21T10:01:00+00:00"
    assert [e.game for e in entries] == [0, 1, 1]
    assert entries[2].text == "opening roll: Ann 1, Bob 2: Bob plays first"
    assert not any(e.flagged for e in entries)


def test_an_illegal_play_made_at_the_board_is_flagged_with_its_rule() -> None:
    rec = Recorder()
    rec.match.opening(3, 1, by="kim")
    rec.match.move("13/7", as_played=True, by="kim")
    rec.match.roll(2, 1, by="kim")
    entries = rec.entries()
    illegal = entries[3]
    assert illegal.flagged
    assert illegal.rule == "USBGF 4.2.3(a)"
    assert illegal.text.startswith("ILLEGAL: Ann played 13/7 with 3-1: ")
    assert illegal.text.endswith(" (USBGF 4.2.3(a))")
    assert [e.number for e in entries if e.flagged] == [4]
    assert entries[4].text == "Bob rolled 2-1"


def test_a_voided_roll_names_the_roller_the_reason_and_the_rule() -> None:
    rec = Recorder()
    rec.match.opening(3, 1, by="kim")
    rec.match.void_roll("cocked", by="kim")
    rec.match.opening(5, 6, by="kim")
    rec.match.move("24/18 13/8", by="kim")
    rec.match.roll(6, 6, by="kim")
    rec.match.void_roll("cocked", by="kim")
    texts = rec.texts()
    assert texts[3].startswith("the opening roll was voided: cocked (USBGF 4.1.4")
    assert texts[-2] == "Ann rolled 6-6"
    assert texts[-1].startswith("Ann's roll was voided: cocked (USBGF 4.1.4")
    assert rec.entries()[-1].rule is not None
    assert not rec.entries()[-1].flagged


def test_double_take_redouble_pass_and_the_game_it_ends() -> None:
    rec = Recorder()
    rec.match.opening(3, 1, by="kim")
    rec.match.move("8/5 6/5", by="kim")
    rec.match.double(by="kim")  # Bob, on roll
    rec.match.take(by="kim")
    rec.match.roll(6, 5, by="kim")
    rec.match.move("24/13", by="kim")
    rec.match.double(by="kim")  # Ann redoubles
    rec.match.drop(by="kim")
    assert rec.last(7) == [
        "Bob doubled to 2",
        "Ann took: cube at 2, Ann owns it",
        "Bob rolled 6-5",
        "Bob played 24/13",
        "Ann doubled to 4",
        "Bob passed at 4: Ann wins 2 points",
        "game 1: Ann wins a single game (a pass), cube 2: 2 points (Ann 2, Bob 0)",
    ]


def _drop_game(rec: Recorder, opening: tuple[int, int]) -> None:
    """A game in which the opening roll's loser doubles straight away and is passed."""
    rec.match.opening(*opening, by="kim")
    rec.match.move("8/5 6/5", by="kim")
    rec.match.double(by="kim")
    rec.match.drop(by="kim")


def test_the_crawford_game_is_named_and_a_double_in_it_is_flagged() -> None:
    rec = Recorder(length=3)
    _drop_game(rec, (1, 3))  # Bob plays first; Ann doubles, Bob passes: Ann 1
    _drop_game(rec, (1, 3))  # Ann 2: one away from 3
    rec.match.opening(3, 1, by="kim")
    rec.match.move("8/5 6/5", by="kim")
    rec.match.double(as_played=True, by="kim")
    entries = rec.entries()
    texts = [e.text for e in entries]
    assert "game 1: Ann wins a single game (a pass), cube 1: 1 point (Ann 1, Bob 0)" in texts
    assert "game 2 started at Ann 1, Bob 0" in texts
    assert "game 3 started at Ann 2, Bob 0 (Crawford game)" in texts
    crawford_double = entries[-1]
    assert crawford_double.flagged
    assert crawford_double.game == 3
    assert crawford_double.text.startswith("ILLEGAL: Bob doubled to 2: ")
    assert "Crawford" in crawford_double.text
    assert crawford_double.rule is not None
    assert crawford_double.text.endswith(f"({crawford_double.rule})")


def test_a_rejected_then_accepted_resignation_and_the_match_it_wins() -> None:
    rec = Recorder(length=2, profile="online")
    rec.match.opening(3, 1, by="kim")
    rec.match.move("8/5 6/5", by="kim")
    rec.match.resign("single", player="a", by="kim")
    rec.match.reject(by="kim")
    rec.match.resign("gammon", player="a", by="kim")
    rec.match.accept(by="kim")
    entries = rec.entries()
    assert [e.text for e in entries[-6:]] == [
        "Ann offered to resign a single game",
        "Bob rejected the resignation (a single game): play goes on",
        "Ann offered to resign a gammon",
        "Bob accepted the resignation (a gammon)",
        "game 1: Bob wins a gammon (a resignation), cube 1: 2 points (Ann 0, Bob 2)",
        "match won by Bob, 2-0",
    ]
    assert not any(e.flagged for e in entries)


def test_a_concession_the_profile_forbids_is_flagged() -> None:
    rec = Recorder()
    rec.match.opening(3, 1, by="kim")
    rec.match.resign("backgammon", as_played=True, by="kim")
    last = rec.entries()[-1]
    assert last.flagged
    assert last.text.startswith("ILLEGAL: Ann offered to resign a backgammon: ")
    assert last.rule is not None


def _event(kind: type[MatchEvent], number: int, **fields: object) -> MatchEvent:
    return kind(
        originator_id=uuid4(),
        originator_version=number,
        timestamp=kind.create_timestamp(),
        at=AT,
        recorded_by="kim",
        **fields,
    )


@dataclass(frozen=True)
class TimeoutCalled(MatchEvent):
    """An event of a kind a newer bgledger might record (ClockHit is one of ours now)."""

    player: str


def test_a_dance_and_an_unknown_kind_of_event_are_described_without_error() -> None:
    rec = Recorder()
    rec.match.opening(3, 1, by="kim")
    events = [*rec.match.collect_events()]
    events.append(_event(TimeoutCalled, 4, player="a"))
    events.append(
        _event(CheckersPlayed, 5, player="a", play="", legal=True, reason=None, rule=None)
    )
    entries = history(events)
    assert [(e.kind, e.text) for e in entries[-2:]] == [
        ("TimeoutCalled", "TimeoutCalled"),
        ("CheckersPlayed", "Ann could not move"),
    ]
    state = fold(events[:3])
    assert describe(events[3], state, apply(state, events[3])) == "TimeoutCalled"


def test_history_json_has_the_contract_keys_and_survives_json() -> None:
    rec = Recorder()
    rec.match.opening(3, 1, by="kim")
    document = history_json(rec.entries())
    assert json.loads(json.dumps(document)) == document
    assert set(document[0]) == {
        "number",
        "at",
        "recorded_by",
        "kind",
        "text",
        "flagged",
        "rule",
        "game",
        "voided_by",
        "voided_as",
    }
    assert document[2]["text"] == "opening roll: Ann 3, Bob 1: Ann plays first"
    assert document[2]["number"] == 3
    assert document[2]["rule"] is None


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=400))
def test_random_legal_matches_have_one_entry_per_event(seed: int, actions: int) -> None:
    match = Match.start(match_uuid("r"), "r", ("Ann", "Bob"), 3, by="kim")
    play_lines(match, random.Random(seed), actions)
    events = match.collect_events()
    entries = history(events)
    assert [e.number for e in entries] == list(range(1, len(events) + 1))
    assert all(e.text and "?" not in e.text for e in entries)
    assert not any(e.flagged for e in entries)
    assert entries[-1].game == match.state.game
