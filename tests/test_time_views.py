"""The clock, break and penalty-point events in the views: history, score sheet and replay.

The figures expected were worked out by hand from the stories of
``tests/clocked_match.py`` and ``fixtures/scenarios/*.txt`` (simple delay, 12
seconds: a turn of t seconds costs max(0, t - 12) of the reserve), not read
back from the ledger.
"""

from __future__ import annotations

import contextlib
import json
import re
import shlex
from html.parser import HTMLParser

import pytest

from bgledger import events as vocabulary
from bgledger.cli.replay_commands import ReplaySession
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.errors import BgLedgerError
from bgledger.events import TIME_EVENTS, MatchEvent, MatchWon, RulingMade
from bgledger.projections.state.corrected import corrected
from bgledger.projections.state.fold import MatchState, fold
from bgledger.projections.views import audit
from bgledger.projections.views.audit import HistoryEntry, history, history_json
from bgledger.projections.views.scoresheet import score_sheet, scoresheet_html, scoresheet_text
from bgledger.projections.views.step import replayed, step
from bgledger.service import Ledger
from tests.clocked_match import (
    T0,
    both_expired_match,
    missed_hit_match,
    penalty_after_game,
    record_clocked_match,
    record_lines,
)
from tests.test_scenarios import SCENARIOS

TIMED = [path.name for path in sorted(SCENARIOS.glob("*.txt")) if "--at" in path.read_text()]


def scenario(name: str) -> list[MatchEvent]:
    """A scenario recorded line by line with its ``# start:`` options (refused lines skipped)."""
    text = (SCENARIOS / name).read_text()
    found = re.search(r"^# start: (.*)$", text, re.MULTILINE)
    assert found, name
    words = shlex.split(found.group(1))
    options = dict(zip(words[::2], words[1::2], strict=True))
    clock = {"clock": options["--clock"]} if "--clock" in options else {}
    match = Match.start(
        match_uuid("m"), "m", (options["--a"], options["--b"]), int(options["--length"]),
        by="kim", at=options.get("--at", T0), **clock,
    )  # fmt: skip
    for line in text.splitlines():
        if line.split("#", 1)[0].strip():
            with contextlib.suppress(BgLedgerError):  # a refused line records nothing
                parse(line).run(match, "kim")
    return match.collect_events()


def texts(events: list[MatchEvent]) -> dict[int, str]:
    return {entry.number: entry.text for entry in history(events)}


def state_of(events: list[MatchEvent]) -> MatchState:
    state = corrected(events)
    assert state is not None
    return state


# -- history --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def clocked() -> list[MatchEvent]:
    return record_clocked_match()


def test_the_clocked_match_is_told_with_the_clocks_worked_out_by_hand(
    clocked: list[MatchEvent],
) -> None:
    said = texts(clocked)
    assert len(said) == 30
    assert {n: said[n] for n in (2, 5, 7, 9, 10, 11, 13, 14, 16)} == {
        2: "game clock set: simple delay (USBGF 3.5.5), 12 s delay, 10:00 each; "
        "the opening roll starts it",
        5: "Bob rolled the lower die: Ann's time runs (Bob 10:00, Ann 10:00)",  # CLOCK 3.3
        7: "Ann hit the clock: Bob's time runs (Ann 9:27, Bob 10:00)",  # 45 s: 33 off
        9: "clock stopped: a dispute, or the director was called (USBGF 4.3.2(d)); "
        "Ann 9:27, Bob 9:57",  # Bob 15 s in: 3 past the delay
        10: "clock read Ann 9:26, Bob 10:16; the ledger has 9:27, 9:57: drift -0:01 / +0:19",
        11: "clock restarted: Bob's time runs again (Ann 9:27, Bob 9:57)",
        13: "Bob hit the clock: Ann's time runs (Bob 9:47, Ann 9:27)",  # 25 s: 13 off
        14: "early pick-up by Bob (USBGF 4.1.7.2, director): a warning; "
        "reason: picked up the dice before the opponent hit the clock",
        16: "Ann hit the clock: Bob's time runs (Ann 9:19, Bob 9:47)",  # 20 s: 8 off
    }
    assert {n: said[n] for n in (19, 20, 21, 27, 28, 29, 30)} == {
        19: "break (USBGF 2.2.2): Bob, 5 minutes, until 10:15 (Ann 9:19, Bob 9:29 on the clock)",
        20: "break of 5 minutes ended 17 minutes over: Bob returned late",
        21: "1 penalty point against Bob (USBGF 2.2.4: 17 minutes late after the end of the "
        "break): Ann scores it (Ann 2, Bob 0)",
        27: "clock set (USBGF 4.3.4, director): Ann 0:30, Bob 9:29 (was Ann 9:19, Bob 9:29); "
        "reason: clock error",
        28: "1 penalty point against Bob (USBGF 1.2.3, director: rude to the director): "
        "Ann scores it (Ann 3, Bob 0)",
        29: "Ann's reserve expired (USBGF 4.3.3): Bob wins the match on time",
        30: "match won by Bob (Ann 3, Bob 0) on time: Ann's reserve expired (USBGF 4.3.3)",
    }


def test_history_entries_cite_the_rule_and_count_the_game(clocked: list[MatchEvent]) -> None:
    entries = {entry.number: entry for entry in history(clocked)}
    assert [entries[n].rule for n in (2, 9, 14, 21, 27, 28, 29)] == [
        "USBGF 3.5.5", "USBGF 4.3.2(d)", "USBGF 4.1.7.2", "USBGF 2.2.4", "USBGF 4.3.4",
        "USBGF 1.2.3", "USBGF 4.3.3",
    ]  # fmt: skip
    assert entries[5].rule is None and not any(e.flagged for e in entries.values())
    assert (entries[19].game, entries[27].game) == (1, 2)


def test_history_json_gives_the_clocks_after_each_event(clocked: list[MatchEvent]) -> None:
    document = history_json(history(clocked))
    assert json.loads(json.dumps(document)) == document
    by_number = {entry["number"]: entry for entry in document}
    assert by_number[7]["clock"] == {
        "reserve_a_ms": 567_000,  # 10:00 - 0:33
        "reserve_b_ms": 600_000,
        "running": "b",
        "stopped": None,
    }
    assert by_number[9]["clock"] == {
        "reserve_a_ms": 567_000,
        "reserve_b_ms": 597_000,  # 15 s in: 3 s past the delay
        "running": None,
        "stopped": "dispute",
    }
    assert by_number[19]["clock"]["stopped"] == "break"
    assert "clock" not in by_number[1]  # MatchStarted: the clock is set with the next event
    assert by_number[2]["clock"]["running"] is None  # nobody's time runs before a hit
    assert by_number[29]["clock"]["reserve_a_ms"] == 0
    assert by_number[30]["text"].startswith("match won by Bob")
    plain = history_json(history(penalty_after_game()))
    assert all("clock" not in entry for entry in plain)  # no clock, no key


@pytest.mark.parametrize("name", TIMED)
def test_every_time_event_of_the_scenarios_has_words_of_its_own(name: str) -> None:
    events = scenario(name)
    entries = history(events)
    told = [e for e in entries if e.kind in {kind.__name__ for kind in TIME_EVENTS}]
    assert all(e.text != e.kind and e.text for e in told)
    assert len(entries) == len(events)


def test_breaks_combined_during_a_game_and_late_returns_are_told() -> None:
    during = texts(scenario("breaks-during-game.txt"))
    assert (  # 15 s into Ann's turn: 3 past the delay
        "break (USBGF 2.2.2): Ann, 5 minutes, until 10:06 (Ann 17:57, Bob 18:00 on the clock); "
        "during game 1: nosebleed"
    ) in during.values()
    assert "break of 5 minutes ended on time" in during.values()
    late = list(texts(scenario("breaks-late-return.txt")).values())
    assert (
        "break (USBGF 2.2.2): Ann, 5 minutes, until 10:10 (Ann 17:52, Bob 17:42 on the clock)"
        in late
    )
    assert "break of 5 minutes ended 21 minutes over: Ann returned late" in late
    assert (
        "2 penalty points against Ann (USBGF 2.2.4: 21 minutes late after the end of the "
        "break): Bob scores them (Ann 0, Bob 3)"
    ) in late
    assert (  # 15 minutes after Bob's break: 1 point; back at 24: only 1 more
        "1 penalty point against Bob (USBGF 2.2.4: 15 minutes late after the end of the "
        "break): Ann scores it (Ann 2, Bob 3)"
    ) in late
    combined = list(texts(scenario("breaks-combined.txt")).values())
    assert combined[1:5] == [  # no clock: no readings
        "break (USBGF 2.2.2): Ann, 10 minutes (2 breaks combined), until 10:10",
        "break of 10 minutes ended 14 minutes over: nobody named late",
        "break (USBGF 2.2.2): Ann and Bob, 10 minutes, until 10:35",
        "break of 10 minutes ended on time",
    ]


def test_a_no_show_and_an_early_pickup_forfeit_say_how_the_match_was_won() -> None:
    no_show = list(texts(scenario("penalty-no-show.txt")).values())
    assert (
        no_show[-1]
        == "match won by Ann (Ann 3, Bob 0) by forfeit: Bob's penalty points (USBGF 2.2.4)"
    )
    assert (
        "1 penalty point against Bob (USBGF 2.2.4: 25 minutes late after the starting time): "
        "Ann scores it (Ann 3, Bob 0)"
    ) in no_show
    pickups = list(texts(scenario("clock-early-pickup.txt")).values())
    assert pickups[-2:] == [
        "Bob picked up the dice early again at 0:01 (USBGF 4.1.7.2): Ann wins the match on time",
        "match won by Ann (Ann 0, Bob 0) on time: Bob picked up the dice early at 0:01 "
        "(USBGF 4.1.7.2)",
    ]
    assert (  # the 2nd: 2:00 - 0:30
        "early pick-up by Bob (USBGF 4.1.7.2, director): 0:30 off Bob's reserve: 1:30 left; "
        "reason: picked up the dice before the opponent hit the clock"
    ) in pickups
    assert any("less than 0:30 left: Bob's reserve reduced to 0:01" in t for t in pickups)


def test_a_missed_hit_both_expired_and_a_penalty_after_a_game_are_told() -> None:
    missed = texts(missed_hit_match())
    assert missed[9] == (
        "RULING (USBGF 4.1.8.1, director): events 7-8 void: Bob's roll 6-4 and what followed "
        "nullified: Ann's turn goes on until the clock is hit; reason: Ann never hit her clock"
    )
    assert missed[10] == (  # 60 s of Ann's turn, 48 past the delay, given back
        "0:48 of Ann's reserve restored (USBGF 4.1.8.1, director): Ann 10:00; "
        "reason: Ann never hit her clock"
    )
    both = texts(both_expired_match())
    assert both[7] == (
        "Ann's reserve expired, and Bob's too (USBGF 4.3.3): neither can be shown to have run "
        "out first; the clocks are set again"
    )
    assert both[8].startswith("clock set (USBGF 4.3.3, director): Ann 1:00, Bob 1:00")
    penalty = texts(penalty_after_game())
    assert (
        penalty[9] == "match won by Bob (Ann 0, Bob 2) by forfeit: Ann's penalty points (USBGF 4.7)"
    )


def test_a_bronstein_clock_and_a_clock_brought_in_late_are_told() -> None:
    bronstein = texts(scenario("clock-bronstein-early-pickup.txt"))
    assert bronstein[2].startswith("game clock set: Bronstein delay")
    assert any("no delay on Bob's next checker play" in text for text in bronstein.values())
    late = list(texts(scenario("clock-introduced-at-3-5.txt")).values())
    assert (
        "game clock set: simple delay (USBGF 3.5.6), 12 s delay, 10:00 each; the next hit "
        "starts it" in late  # brought in during a game: the next hit, not an opening roll
    )


# -- the score sheet -------------------------------------------------------------------------


def sheet_lines(events: list[MatchEvent]) -> list[str]:
    return scoresheet_text(state_of(events), events).splitlines()


def section(lines: list[str], title: str) -> list[list[str]]:
    start = lines.index(title)
    rows = []
    for line in lines[start + 2 :]:
        if not line.strip():
            break
        rows.append(re.split(r"\s{2,}", line.strip()))
    return rows


def test_the_sheet_lists_the_breaks_penalty_points_clock_and_time_forfeit(
    clocked: list[MatchEvent],
) -> None:
    lines = sheet_lines(clocked)
    assert "Clock: simple delay (USBGF 3.5.5), 12 s delay, 10:00 each" in lines
    assert "Match: 5 points, Crawford rule, simple-delay clock" in lines
    assert (
        "Final: Ann 3, Bob 0: Bob wins the match on time: Ann's reserve expired (USBGF 4.3.3); "
        "the score includes 2 penalty points against Bob"
    ) in lines
    assert section(lines, "Penalty points (USBGF 2.2.4):") == [
        ["10:32", "Bob", "1", "USBGF 2.2.4", "Bob was 17 minutes late after the end of the break",
         "director"],
        ["10:33", "Bob", "1", "USBGF 1.2.3", "rude to the director", "director"],
    ]  # fmt: skip
    # USBGF 2.2.2: the wall clock time, both game clocks and who asked
    assert section(lines, "Breaks (USBGF 2.2.2):") == [
        ["10:10", "Ann 9:19, Bob 9:29", "Bob", "5 min", "10:32", "17 min", "Bob"],
    ]
    # game 2 was played at 2-0: the penalty point counts in the running score
    assert score_sheet(state_of(clocked), clocked).rows[0].after == (1, 0)


def test_the_html_sheet_has_the_same_sections_escaped(clocked: list[MatchEvent]) -> None:
    tricky = record_lines(
        '@2026-11-21T10:20:00+00:00 penalty a 2 "USBGF <2.2.4>" came & went <late>',
        "tricky",
    )
    page = scoresheet_html(state_of(tricky), tricky)
    assert "came &amp; went &lt;late&gt;" in page and "USBGF &lt;2.2.4&gt;" in page
    assert "<late>" not in page
    cells = Cells(scoresheet_html(state_of(clocked), clocked))
    assert ["10:10", "Ann 9:19, Bob 9:29", "Bob", "5 min", "10:32", "17 min", "Bob", ""] in (
        cells.rows
    )
    assert ["10:33", "Bob", "1", "USBGF 1.2.3", "rude to the director", "director"] in cells.rows
    assert "Clock" in cells.terms


class Cells(HTMLParser):
    """The rows of every table of a page (cells' text), and the header's terms."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.terms: list[str] = []
        self.where = ""
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.rows[-1].append("")
        self.where = tag

    def handle_endtag(self, tag: str) -> None:
        self.where = ""

    def handle_data(self, data: str) -> None:
        if self.where in ("td", "th"):
            self.rows[-1][-1] += data
        elif self.where == "dt":
            self.terms.append(data)


def test_the_sheet_of_breaks_without_a_clock_and_of_a_no_show() -> None:
    lines = sheet_lines(scenario("breaks-combined.txt"))
    rows = section(lines, "Breaks (USBGF 2.2.2):")
    assert rows and all(row[1] == "no clock" for row in rows)
    assert not any(line.startswith("Clock:") for line in lines)
    no_show = sheet_lines(scenario("penalty-no-show.txt"))
    assert (
        "Final: Ann 3, Bob 0: Ann wins the match by forfeit: Bob's penalty points (USBGF 2.2.4); "
        "the score includes 3 penalty points against Bob"
    ) in no_show
    assert [row[:3] for row in section(no_show, "Penalty points (USBGF 2.2.4):")] == [
        ["10:15", "Bob", "1"], ["10:20", "Bob", "1"], ["10:25", "Bob", "1"],
    ]  # fmt: skip
    assert "No game finished yet." in no_show


def test_the_sheet_of_a_break_during_a_game_and_of_a_clock_brought_in_late() -> None:
    lines = sheet_lines(scenario("breaks-during-game.txt"))
    assert section(lines, "Breaks (USBGF 2.2.2):") == [
        ["10:01", "Ann 17:57, Bob 18:00", "Ann", "5 min", "10:05", "during game 1: nosebleed"],
        ["10:07", "Ann 17:47, Bob 17:52", "Bob", "5 min", "10:12"],
    ]
    late = sheet_lines(scenario("clock-introduced-at-3-5.txt"))
    assert "Clock: simple delay (USBGF 3.5.6), 12 s delay, 10:00 each, during game 6" in late


def test_a_break_still_on_has_no_end_yet() -> None:
    events = record_lines("@2026-11-21T10:01:00+00:00 break start a", "on", clock="simple-delay")
    rows = score_sheet(state_of(events), events).breaks
    assert [row.cells() for row in rows] == [
        ("10:01", "Ann 10:00, Bob 10:00", "Ann", "5 min", "", "", "", ""),
    ]


# -- replay ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "events",
    [record_clocked_match(), missed_hit_match(), both_expired_match()],
    ids=["clocked", "missed-hit", "both-expired"],
)
def test_replay_steps_through_the_time_events_in_both_views(events: list[MatchEvent]) -> None:
    match = replayed(events)
    session = ReplaySession(lambda at, view: step("m", match, at, view, Ledger.rule_text))
    for number in range(1, len(events) + 1):
        for view in (False, True):
            session.corrected = view
            screen = session.go(number)
            entry: HistoryEntry = session.view().entry
            assert entry.number == number and entry.text in screen
    session.corrected = False
    assert session.view().state == fold(events)


def test_every_kind_of_event_has_words_of_its_own() -> None:
    kinds = {
        cls
        for cls in (getattr(vocabulary, name) for name in vocabulary.__all__)
        if isinstance(cls, type) and issubclass(cls, MatchEvent) and cls is not MatchEvent
    }
    rulings = {kind for kind in kinds if issubclass(kind, RulingMade)}
    assert kinds - rulings - {MatchWon} <= set(audit._DESCRIBERS)
    assert set(TIME_EVENTS) <= set(audit._DESCRIBERS)
