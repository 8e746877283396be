"""The score sheet (USBGF 4.7), as text and as a printable HTML page.

The rows expected for the scenario transcripts were worked out by hand from
their stories (the header comments of ``fixtures/scenarios/*.txt``, as in
``test_scenarios``), not read back from the ledger.
"""

from __future__ import annotations

import contextlib
import re
from functools import partial
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import Ruling
from bgledger.commands.vocabulary import parse
from bgledger.errors import BgLedgerError
from bgledger.events import MatchEvent
from bgledger.interchange.importer import matches_from_mat
from bgledger.interchange.mat import read_mat_file
from bgledger.projections.state.corrected import corrected
from bgledger.projections.state.fold import MatchState, fold
from bgledger.projections.views.scoresheet import scoresheet_html, scoresheet_text
from bgledger.store.application import MatchStore
from tests.ruled_match import record_ruled_match
from tests.test_scenarios import SCENARIOS
from tests.test_store import PROFILES, random_match

T0 = "2026-11-21T10:00:00+01:00"
TIME = re.compile(r"\d\d:\d\d")


def scenario(name: str, **setup: str) -> tuple[MatchState, list[MatchEvent]]:
    """The scenario recorded line by line, as ``record`` does (refused lines record nothing)."""
    text = (SCENARIOS / name).read_text()
    length = re.search(r"^# start: .*--length (\d+)", text, re.MULTILINE)
    assert length, name
    match = Match.start(
        match_uuid("m"), "m", ("Ann", "Bob"), int(length.group(1)), by="kim", at=T0, **setup
    )
    for line in text.splitlines():
        if line.split("#", 1)[0].strip():
            with contextlib.suppress(BgLedgerError):  # a refused line records nothing
                parse(line).run(match, "kim")
    events = match.collect_events()
    state = fold(events)
    assert state is not None
    return state, events


def text_rows(sheet: str) -> list[list[str]]:
    """The game rows of the text sheet, cells split on runs of spaces, without the time."""
    lines = sheet.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Game "))
    rows = []
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        rows.append([c for c in re.split(r"\s{2,}", line.strip()) if not TIME.fullmatch(c)])
    return rows


class Page(HTMLParser):
    """Reads a page: its text, the cells of the games table, and whether tags balance."""

    VOID = frozenset({"meta", "br", "hr", "img", "link", "input"})

    def __init__(self, page: str) -> None:
        super().__init__()
        self.open: list[str] = []
        self.balanced = True
        self.tables: list[list[list[str]]] = []
        self.text: list[str] = []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.tables[-1][-1].append("")

    def handle_endtag(self, tag: str) -> None:
        self.balanced = self.balanced and bool(self.open) and self.open.pop() == tag

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.open and self.open[-1] in ("td", "th"):
            self.tables[-1][-1][-1] += data


THREE_POINT = [
    ["1", "0-0", "Ann", "2", "single, cube 2", "2-0"],  # Bob took Ann's double
    ["2", "2-0", "Bob", "1", "single, cube 1", "2-1", "Crawford"],
    ["3", "2-1", "Bob", "1", "doubled to 2, passed", "2-2"],  # Ann passed Bob's double
    ["4", "2-2", "Ann", "1", "single, cube 1", "3-2"],
]
EXPECTED = {
    "three-point-match.txt": (THREE_POINT, "Final: Ann 3, Bob 2: Ann wins the match"),
    "drop-and-resignation.txt": (
        [
            ["1", "0-0", "Bob", "1", "doubled to 2, passed", "0-1"],
            ["2", "0-1", "Ann", "1", "resigned, single, cube 1", "1-1"],
            ["3", "1-1", "Ann", "1", "doubled to 2, passed", "2-1"],
            ["4", "2-1", "Ann", "1", "resigned, single, cube 1", "3-1", "Crawford"],
        ],
        "Final: Ann 3, Bob 1: Ann wins the match",
    ),
    "gammon-backgammon.txt": (
        [
            ["1", "0-0", "Ann", "4", "gammon, cube 2", "4-0"],
            ["2", "4-0", "Ann", "3", "backgammon, cube 1", "7-0", "Crawford"],
        ],
        "Final: Ann 7, Bob 0: Ann wins the match",
    ),
    "refusals.txt": (
        [
            ["1", "0-0", "Bob", "1", "doubled to 2, passed", "0-1"],
            ["2", "0-1", "Bob", "1", "doubled to 2, passed", "0-2"],
            ["3", "0-2", "Ann", "1", "single, cube 1", "1-2", "Crawford"],
            ["4", "1-2", "Ann", "1", "doubled to 2, passed", "2-2"],
        ],
        "In progress: game 5; Ann 2, Bob 2",
    ),
    "bar-dance.txt": ([], "In progress: game 1; Ann 0, Bob 0"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_text_sheet_rows_and_final_line(name: str) -> None:
    rows, final = EXPECTED[name]
    sheet = scoresheet_text(*scenario(name))
    assert final in sheet.splitlines()
    if rows:
        assert text_rows(sheet) == rows
        assert "Scores are Ann-Bob." in sheet.splitlines()
    else:
        assert "No game finished yet." in sheet.splitlines()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_html_sheet_has_the_same_games(name: str) -> None:
    rows, final = EXPECTED[name]
    page = Page(scoresheet_html(*scenario(name)))
    assert page.balanced and not page.open
    games = page.tables[0][1:] if rows else []
    assert [[c for c in row if c and not TIME.fullmatch(c)] for row in games] == rows
    assert final in page.text


def test_header_names_the_event_the_players_and_the_date() -> None:
    state, events = scenario("three-point-match.txt", event="Club night", round="2", table="7")
    lines = scoresheet_text(state, events).splitlines()
    for line in [
        "Score sheet (USBGF 4.7)",
        "Event: Club night",
        "Round: 2",
        "Table: 7",
        "Players: Ann v Bob",
        "Match: 3 points, Crawford rule",
        "Profile: usbgf-2016",
        "Date: 2026-11-21",
        "Started: 10:00 UTC+01:00",
        "Match id: m",
    ]:
        assert line in lines


def test_penalties_and_breaks_have_room_and_say_none_recorded() -> None:
    state, events = scenario("three-point-match.txt")
    lines = scoresheet_text(state, events).splitlines()
    assert "Penalty points (USBGF 2.2.4): none recorded" in lines
    assert "Breaks (USBGF 2.2.2): none recorded" in lines
    page = Page(scoresheet_html(state, events))
    sections = [table for table in page.tables if table[1:] == [["none recorded"]]]
    assert [table[0] for table in sections] == [
        ["Time", "Player", "Points", "Rule", "Reason", "Ruled by"],
        ["Wall clock", "Game clocks", "Requested by", "Length", "Ended", "Over", "Late", "Note"],
    ]


def at(minute: int) -> str:
    return f"2026-11-21T14:{minute:02d}:00+01:00"


def test_each_game_shows_when_it_ended_and_an_unbegun_crawford_game() -> None:
    match = Match.start(match_uuid("t"), "t", ("Ann", "Bob"), 3, by="kim", at=at(0))
    match.opening(5, 3, by="kim", at=at(1))  # Ann plays first
    match.move("13/10 8/3", by="kim", at=at(2))
    match.double(by="kim", at=at(3))  # Bob doubles
    match.drop(by="kim", at=at(5))  # Ann passes: Bob 1
    match.opening(3, 5, by="kim", at=at(6))  # Bob plays first
    match.move("13/10 8/3", by="kim", at=at(7))
    match.double(by="kim", at=at(9))  # Ann doubles
    match.drop(by="kim", at=at(12))  # Bob passes: Ann 1, Bob 1
    match.opening(6, 1, by="kim", at=at(20))
    match.move("13/7 8/7", by="kim", at=at(21))
    match.double(by="kim", at=at(22))  # Bob doubles to 2
    match.take(by="kim", at=at(23))
    match.resign("gammon", player="a", as_played=True, by="kim", at=at(30))
    match.accept(by="kim", at=at(31))  # Ann concedes a gammon at 2: Bob 4 points
    events = match.collect_events()
    state = fold(events)
    assert state is not None
    page = Page(scoresheet_html(state, events))
    assert page.tables[0][1:] == [
        ["1", "0-0", "Bob", "1", "doubled to 2, passed", "0-1", "14:05", ""],
        ["2", "0-1", "Ann", "1", "doubled to 2, passed", "1-1", "14:12", ""],
        ["3", "1-1", "Bob", "4", "resigned, gammon, cube 2", "1-5", "14:31", ""],
    ]
    assert "Final: Ann 1, Bob 5: Bob wins the match" in page.text
    two = fold(events[:13])  # up to game 2's GameWon: game 3 not yet begun
    assert two is not None and two.score == (1, 1)
    assert "In progress: game 3, not begun; Ann 1, Bob 1" in scoresheet_text(two, events[:13])


def test_the_crawford_game_is_announced_before_it_begins() -> None:
    _, events = scenario("three-point-match.txt")
    first = next(i for i, e in enumerate(events) if type(e).__name__ == "GameWon")
    before = fold(events[: first + 1])
    assert before is not None
    sheet = scoresheet_text(before, events[: first + 1])
    assert "In progress: game 2, the Crawford game, not begun; Ann 2, Bob 0" in sheet


def test_every_user_string_is_escaped_in_html() -> None:
    match = Match.start(
        match_uuid("x"),
        "x",
        ("<script>alert(1)</script>", 'Bob "the cube" & co'),
        1,
        event="R&D <b>open</b>",
        round="<i>2</i>",
        by="kim",
        at=T0,
    )
    match.opening(3, 1, by="kim", at=T0)
    match.resign("single", player="b", as_played=True, by="kim", at=T0)
    match.accept(by="kim", at=T0)
    events = match.collect_events()
    state = fold(events)
    assert state is not None
    page = scoresheet_html(state, events)
    assert "<script>" not in page and "<b>" not in page and "<i>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Bob &quot;the cube&quot; &amp; co" in page
    assert "R&amp;D &lt;b&gt;open&lt;/b&gt;" in page
    parsed = Page(page)
    assert parsed.balanced
    assert parsed.tables[0][1][2] == "<script>alert(1)</script>"  # the winner, as text


def test_the_page_is_standalone_and_printable() -> None:
    page = scoresheet_html(*scenario("three-point-match.txt"))
    assert page.startswith("<!DOCTYPE html>\n<html")
    assert page.rstrip().endswith("</html>")
    assert "<style>" in page and "@media print" in page
    assert not re.search(r"<(link|script)\b|src=|href=", page)  # nothing loaded from elsewhere
    assert "<title>Score sheet: Ann v Bob</title>" in page


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    length=st.integers(min_value=1, max_value=7),
    profile=st.sampled_from(PROFILES),
)
def test_the_running_score_adds_up(seed: int, length: int, profile: str) -> None:
    events = random_match(seed, length, profile, limit=600)
    state = fold(events)
    assert state is not None
    rows = text_rows(scoresheet_text(state, events)) if state.games else []
    assert len(rows) == len(state.games)
    score = (0, 0)
    for number, row in enumerate(rows, start=1):
        game, before, winner, points, _how, after = row[:6]
        assert (int(game), before) == (number, f"{score[0]}-{score[1]}")
        won = int(points) if winner == "Ann" else 0, int(points) if winner == "Bob" else 0
        score = (score[0] + won[0], score[1] + won[1])
        assert after == f"{score[0]}-{score[1]}"
    final = "Final: " if state.winner else "In progress: "
    assert any(line.startswith(final) for line in scoresheet_text(state, events).splitlines())


# -- the match as corrected by rulings ---------------------------------------------------------


@pytest.fixture(scope="module")
def ruled() -> list[MatchEvent]:
    """The match of ``record_ruled_match``: one ruling of each kind, every action a minute on."""
    with MatchStore("sqlite:///:memory:") as ledger:
        return record_ruled_match(ledger)


def corrected_sheet(events: list[MatchEvent]) -> str:
    state = corrected(events)
    assert state is not None
    return scoresheet_text(state, events)


def section(sheet: str, title: str) -> list[list[str]]:
    """The rows of a section of the text sheet (after its title and column line)."""
    lines = sheet.splitlines()
    start = lines.index(title)
    rows = []
    for line in lines[start + 2 :]:
        if not line.strip():
            break
        rows.append(re.split(r"\s{2,}", line.strip()))
    return rows


# Worked out by hand from the story in record_ruled_match's docstring (game 1 ends at 10:13,
# game 2 at 10:20, game 3, its first result nullified, at 10:36).
RULED_ROWS = [
    ["1", "0-0", "Ann", "2", "resigned, single, cube 2", "2-0", "10:13"],  # the cube at 2, not 4
    ["2", "2-0", "Bob", "1", "resigned, single, cube 1", "2-1", "10:20", "Crawford"],  # void double
    ["3", "2-1", "Bob", "2", "resigned, single, cube 2", "2-3", "10:36"],
]
RULING_ROWS = [
    [
        "7",
        "play reverted (event 6)",
        "USBGF 4.2.3(a)",
        "director",
        "Bob played a 5 with 6-4",
        "in force",
    ],
    [
        "11",
        "double stands at 2 (event 9)",
        "USBGF 4.4.8",
        "director",
        "the cube goes to 2",
        "in force",
    ],
    [
        "12",
        "noted",
        "director",
        "players reminded to announce doubles",
        "in force",
    ],  # no rule cited
    [
        "28",
        "double voided (event 23)",
        "USBGF 4.4.6.1",
        "director",
        "a Crawford game double",
        "in force",
    ],
    ["29", "match length 5", "USBGF 4.8.4", "director", "the draw sheet says 5", "in force"],
    [
        "30",
        "score Ann 2, Bob 2",
        "USBGF 4.7",
        "director",
        "Bob says 2-2",
        "overturned by ruling 31",
    ],
    ["31", "ruling 30 overturned", "USBGF 5.2", "committee", "the score was 2-1", "in force"],
    [
        "44",
        "pass nullified (event 41)",
        "USBGF 4.4.2",
        "director",
        "Ann owned the cube",
        "in force",
    ],
    ["50", "match length 3", "USBGF 4.8.5", "director", "it was 3 after all", "in force"],
]


def test_the_sheet_of_a_ruled_match_shows_it_as_corrected(ruled: list[MatchEvent]) -> None:
    sheet = corrected_sheet(ruled)
    assert section(sheet, "Scores are Ann-Bob.") == RULED_ROWS
    assert "Final: Ann 2, Bob 3: Bob wins the match" in sheet.splitlines()
    assert "Match: 3 points, Crawford rule" in sheet.splitlines()
    assert section(sheet, "Rulings:") == RULING_ROWS
    assert sheet.splitlines()[-7:] == [
        "Penalty points (USBGF 2.2.4): none recorded",
        "",
        "Breaks (USBGF 2.2.2): none recorded",
        "",
        f"Score agreed (USBGF 4.7), Ann: {'_' * 30}",
        f"Score agreed (USBGF 4.7), Bob: {'_' * 30}",
        f"Result received (USBGF 4.6), Tournament Director: {'_' * 30}",
    ]


def test_a_game_result_a_ruling_voided_is_not_on_the_sheet(ruled: list[MatchEvent]) -> None:
    recorded = ruled[:43]  # game 3 won by Bob's pass of his own double of Ann's cube
    before = corrected_sheet(recorded)
    assert section(before, "Scores are Ann-Bob.")[2] == [
        "3", "2-1", "Bob", "2", "doubled to 4, passed", "2-3", "10:32",
    ]  # fmt: skip
    assert "Final: Ann 2, Bob 3: Bob wins the match" not in before  # the match was 5 points then
    nullified = corrected_sheet(ruled[:44])
    assert section(nullified, "Scores are Ann-Bob.") == RULED_ROWS[:2]
    assert "In progress: game 3; Ann 2, Bob 1" in nullified.splitlines()
    assert section(nullified, "Rulings:")[-1] == RULING_ROWS[-2]


def test_a_revert_leaves_a_ruling_made_since_in_force() -> None:
    with MatchStore("sqlite:///:memory:") as ledger:
        ledger.start(("Ann", "Bob"), 3, match_id="v", by="kim", at=T0)
        for line in ("opening 3 1", "move 8/5 6/5", "roll 6 4", "move 24/18 13/8 --as-played"):
            ledger.act("v", partial(parse(line).run, by="kim"))
        noted = Ruling("director", "Ann says Bob moved a 5", by="tom")
        ledger.rule("v", lambda match, history: match.note(history, noted))
        taken_back = Ruling("director", "Bob played a 5 with 6-4", by="tom")
        ledger.rule("v", lambda match, history: match.revert(history, 6, taken_back))
        events = ledger.history("v")
    assert section(corrected_sheet(events), "Rulings:") == [
        # A revert undoes game actions, not rulings (USBGF 4.2.3(c)): the note stays.
        ["7", "noted", "director", "Ann says Bob moved a 5", "in force"],
        [
            "8",
            "play reverted (event 6)",
            "USBGF 4.2.3(a)",
            "director",
            "Bob played a 5 with 6-4",
            "in force",
        ],
    ]


def test_the_html_sheet_lists_the_rulings(ruled: list[MatchEvent]) -> None:
    state = corrected(ruled)
    assert state is not None
    page = Page(scoresheet_html(state, ruled))
    assert page.balanced and not page.open
    games, listed = page.tables[0], page.tables[1]
    assert [[c for c in row if c] for row in games[1:]] == RULED_ROWS
    assert listed[0] == ["Event", "Ruling", "Rule", "Ruled by", "Reason", "Status"]
    assert [[c for c in row if c] for row in listed[1:]] == RULING_ROWS
    assert listed[3][2] == "" and listed[6][5] == "overturned by ruling 31"
    assert listed[1][5] == "in force"  # the Status column says so, not left blank
    assert '<tr class="void"><td class="number">30</td>' in scoresheet_html(state, ruled)


def test_a_match_without_rulings_says_none_recorded() -> None:
    state, events = scenario("three-point-match.txt")
    assert "Rulings: none recorded" in scoresheet_text(state, events).splitlines()
    page = Page(scoresheet_html(state, events))
    assert "Rulings" in page.text and len(page.tables) == 3  # the games, penalties and breaks


# -- a sheet that can be handed in (USBGF 4.6, 4.7) ----------------------------------------------

TRANSCRIPTION = """\
; [Event "Club night"]
; [Player 1 "Ann"]
; [Player 2 "Bob"]
; [EventDate "2022.07.10"]
{time}
 3 point match

 Game 1
 Ann : 0                           Bob : 0
  1) 31: 8/5 6/5                   64: 24/18 13/9
  2)  Doubles => 2                  Takes
  3) 65: 24/13                      Doubles => 4
  4)  Drops
                                    Wins 2 points
"""


def transcribed(tmp_path: Path, time: str = "") -> tuple[MatchState, list[MatchEvent]]:
    path = tmp_path / "club.mat"
    path.write_text(TRANSCRIPTION.format(time=time), encoding="utf-8")
    (one,) = matches_from_mat(read_mat_file(path), str(path))
    return one.match.state, one.match.collect_events()


def test_a_transcription_without_times_shows_no_invented_times(tmp_path: Path) -> None:
    state, events = transcribed(tmp_path)
    lines = scoresheet_text(state, events).splitlines()
    assert "Date: 2022-07-10" in lines
    assert not any(line.startswith("Started:") for line in lines)  # not 00:00
    assert "Transcribed from: club.mat (the file gives no time for each game)" in lines
    page = Page(scoresheet_html(state, events))
    game = page.tables[0][1]
    assert game[6] == "" and not any(TIME.fullmatch(cell) for cell in game)  # no "Ended" time


def test_a_transcription_with_a_time_shows_only_the_start(tmp_path: Path) -> None:
    state, events = transcribed(tmp_path, '; [EventTime "19:30"]')
    lines = scoresheet_text(state, events).splitlines()
    assert "Started: 19:30" in lines and "Date: 2022-07-10" in lines
    assert Page(scoresheet_html(state, events)).tables[0][1][6] == ""  # no time per game


def test_a_passed_redouble_reads_as_passed_at_the_cube_offered(tmp_path: Path) -> None:
    state, events = transcribed(tmp_path)
    (row,) = text_rows(scoresheet_text(state, events))
    # Ann doubled to 2, Bob took and redoubled to 4, Ann passed: Bob scores the cube of 2.
    assert row == ["1", "0-0", "Bob", "2", "doubled to 4, passed", "0-2"]


def test_every_column_is_labelled_and_the_sheet_can_be_signed() -> None:
    state, events = scenario("three-point-match.txt")
    text = scoresheet_text(state, events).splitlines()
    header = next(line for line in text if line.startswith("Game "))
    assert re.split(r"\s{2,}", header) == [
        "Game", "Score before", "Winner", "Points", "How won", "Score after", "Ended", "Crawford",
    ]  # fmt: skip
    signed = [line for line in text if line.endswith("_" * 30)]
    assert [line.split(":")[0] for line in signed] == [
        "Score agreed (USBGF 4.7), Ann",
        "Score agreed (USBGF 4.7), Bob",
        "Result received (USBGF 4.6), Tournament Director",
    ]
    page = Page(scoresheet_html(state, events))
    assert all(all(cell for cell in table[0]) for table in page.tables)  # every <th> says what
    assert "Transcribed from" not in page.text  # recorded here: no such line to fill in
    words = " ".join(page.text)
    assert "Result received (USBGF 4.6), Tournament Director" in words
    assert "Score agreed (USBGF 4.7), Bob" in words
