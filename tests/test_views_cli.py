"""``show``, ``replay`` and ``history`` as a scorekeeper reads them (issue 14, section 4).

One orientation: player a at the bottom unless ``--from b``, whoever is on
roll; ``show --at N`` says what event N was, in the history's words;
``history`` by game, with its legend, and ``--game N``.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.cli.replay_commands import ReplaySession
from bgledger.service import Ledger

ZONE = "times in UTC, the zone the match started in"  # the match was started on a UTC clock
LEGEND = (
    "marks: '!' illegal, recorded as played · 'x' not in force (voided by a ruling, or "
    "withdrawn or amended) · 'R' a ruling · 'C' a recording error corrected"
)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'views.db'}"


def run(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def ok(db: str, *args: str, stdin: str | None = None) -> str:
    result = run(db, *args, stdin=stdin)
    assert result.exit_code == 0, (args, result.output)
    return result.stdout


# Two games of a 3-point match, Ann v Ben.  Game 1: Ben opens 1-3 and plays 8/5 6/5, Ann
# doubles on her first turn and Ben passes: Ann 1-0.  Game 2: Ann opens 3-1, Ann's illegal
# 13/10 recorded as played, Ben rolls.
# Events: 1 started, 2 game 1, 3 opening 1-3, 4 Ben 8/5 6/5, 5 Ann doubles, 6 Ben passes,
# 7 game 1 won; 8 game 2, 9 opening 3-1, 10 Ann's illegal 13/10, 11 Ben rolls 6-4.
LINES = """\
opening 1 3
move 8/5 6/5
double
drop
opening 3 1
move 13/10 --as-played
roll 6 4
"""


@pytest.fixture
def match(db: str) -> str:
    ok(db, "start", "--a", "Ann", "--b", "Ben", "--length", "3", "--id", "m")
    ok(db, "record", "m", stdin=LINES)
    return db


def legend_of(board: str) -> str:
    return next(line for line in board.splitlines() if line.startswith(" X = "))


def test_show_keeps_ann_at_the_bottom_whoever_is_on_roll(match: str) -> None:
    for at in ("4", "5", "9", "10", "11"):  # Ann, then Ben, on roll
        assert legend_of(ok(match, "show", "m", "--at", at)) == (
            " X = Ann, O = Ben, from Ann's side"
        ), at
    assert legend_of(ok(match, "show", "m")) == " X = Ann, O = Ben, from Ann's side"
    assert legend_of(ok(match, "show", "m", "--from", "b")) == " X = Ben, O = Ann, from Ben's side"


def test_replay_keeps_one_side_at_every_step(match: str) -> None:
    ledger = Ledger(match)
    session = ReplaySession(partial(ledger.replay, "m"), at=3)
    sides = {legend_of(session.screen())}
    for _ in range(8):
        sides.add(legend_of(session.step("n")))
    assert sides == {" X = Ann, O = Ben, from Ann's side"}
    from_b = ReplaySession(partial(ledger.replay, "m"), at=3, viewer="b")
    assert legend_of(from_b.step("n")) == " X = Ben, O = Ann, from Ben's side"
    ledger.close()


def test_replay_from_the_terminal_draws_from_a_unless_asked(match: str) -> None:
    screens = ok(match, "replay", "m", "--at", "3", stdin="n\nn\nq\n")  # Ben, then Ann
    sides = {line for line in screens.splitlines() if line.startswith(" X = ")}
    assert sides == {" X = Ann, O = Ben, from Ann's side"}


def test_show_at_says_what_the_event_was_in_the_historys_words(match: str) -> None:
    history = ok(match, "history", "m").splitlines()
    played = next(line for line in history if line.lstrip().startswith("4 "))
    assert played.endswith("Ben played 8/5 6/5")
    shown = ok(match, "show", "m", "--at", "4").splitlines()
    assert shown[1] == "as recorded after event 4"
    assert shown[2] == played
    illegal = ok(match, "show", "m", "--at", "10").splitlines()[2]
    assert illegal.lstrip().startswith("10 ! ") and "ILLEGAL: Ann played 13/10 with 3-1" in illegal


def test_show_at_in_the_corrected_view_marks_an_event_voided_since(match: str) -> None:
    ok(match, "revert", "m", "10", "--ruled-by", "director", "--reason", "one die", "--agreed")
    as_recorded = ok(match, "show", "m", "--at", "10").splitlines()[2]
    assert "voided" not in as_recorded  # as the log stood after event 10
    corrected = ok(match, "show", "m", "--at", "10", "--corrected").splitlines()[2]
    assert corrected.lstrip().startswith("10 x ") and corrected.endswith("[voided by ruling 12]")


def test_history_prints_its_legend_and_a_heading_per_game_with_the_score_before_it(
    match: str,
) -> None:
    lines = ok(match, "history", "m").splitlines()
    assert lines[:2] == [LEGEND, ZONE]
    assert lines[2].lstrip().startswith("1 ") and "match started: Ann v Ben" in lines[2]
    assert lines[3:5] == ["", "game 1 · Ann 0, Ben 0"]
    assert [line.split()[0] for line in lines[5:11]] == ["2", "3", "4", "5", "6", "7"]
    assert lines[11:13] == ["", "game 2 · Ann 1, Ben 0"]
    assert [line.split()[0] for line in lines[13:]] == ["8", "9", "10", "11"]


def test_history_headings_name_the_crawford_game(db: str) -> None:
    ok(db, "start", "--a", "Ann", "--b", "Ben", "--length", "2", "--id", "c")
    ok(db, "record", "c", stdin="opening 1 3\nmove 8/5 6/5\ndouble\ndrop\nopening 3 1\n")
    assert "game 2 · Ann 1, Ben 0 (Crawford game)" in ok(db, "history", "c").splitlines()


def test_history_game_n_prints_that_game_alone(match: str) -> None:
    lines = ok(match, "history", "m", "--game", "1").splitlines()
    assert lines[:4] == [LEGEND, ZONE, "", "game 1 · Ann 0, Ben 0"]
    assert [line.split()[0] for line in lines[4:]] == ["2", "3", "4", "5", "6", "7"]
    second = ok(match, "history", "m", "--game", "2", "--json")
    assert '"number": 8' in second and '"number": 7' not in second


def test_history_of_a_game_that_is_not_there_is_a_usage_error(match: str) -> None:
    result = run(match, "history", "m", "--game", "3")
    assert result.exit_code == 2
    assert "--game 3: match 'm' has games 1-2" in result.stderr


def test_a_heading_has_the_score_a_ruling_made_before_the_game(db: str) -> None:
    ok(db, "start", "--a", "Ann", "--b", "Ben", "--length", "5", "--id", "s")
    ok(db, "record", "s", stdin="opening 1 3\nmove 8/5 6/5\ndouble\ndrop\n")  # Ann 1-0
    ok(db, "correct-score", "s", "1", "2", "--ruled-by", "director", "--reason", "sheet says 1-2")
    ok(db, "opening", "s", "3", "1")
    lines = ok(db, "history", "s").splitlines()
    assert "game 2 · Ann 1, Ben 2" in lines
    assert lines.index("game 2 · Ann 1, Ben 2") == len(lines) - 3  # then events 9 and 10
