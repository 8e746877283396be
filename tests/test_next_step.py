"""A refusal says the next step: what is due, with the command to record it (issue 14, 4).

Each test makes the mistake a scorekeeper makes at the table, through the
command line, and reads the refusal as he would: exit 1, nothing recorded,
the situation, then the command to type (with the match id and the
players' names), then the rule the profile cites.
"""

from __future__ import annotations

import json
import random
from copy import deepcopy
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.cli.main import main
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.errors import ActionRefusedError, OutOfTurnError, RulesError
from tests.match_driver import play_lines


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'next.db'}"
    started = run(url, "start", "--a", "Ann", "--b", "Ben", "--length", "5", "--id", "m5")
    assert started.exit_code == 0, started.output
    return url


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args])


def events(db: str) -> int:
    shown = run(db, "show", "m5", "--json")
    count: int = json.loads(shown.stdout)["events"]
    return count


def refusal(db: str, *args: str) -> str:
    """The message of a refused command; it must exit 1 and record nothing."""
    before = events(db)
    result = run(db, *args)
    assert result.exit_code == 1, result.output
    assert events(db) == before
    return result.stderr.strip()


def recorded(db: str, *lines: str) -> None:
    for line in lines:
        verb, *rest = line.split(" ", 1)
        result = run(db, verb, "m5", *rest[0].split(" ") if rest else [])
        assert result.exit_code == 0, (line, result.output)


def test_a_move_when_a_roll_is_due_says_to_record_the_roll(db: str) -> None:
    recorded(db, "opening 3 1")
    assert run(db, "move", "m5", "8/5 6/5").exit_code == 0
    assert refusal(db, "move", "m5", "13/7") == (
        "Error: refused: cannot move: Ben is on roll, to double or to roll; "
        "record Ben's roll first, e.g. `roll m5 6 4` (USBGF Appendix B)"
    )


def test_a_roll_when_a_play_is_due_says_to_record_the_play_with_a_legal_example(db: str) -> None:
    recorded(db, "opening 6 1")
    message = refusal(db, "roll", "m5", "5", "2")
    # 6-1 at the start: 13/7 8/7 is one of its legal plays; the example is a legal play of 6-1.
    assert message.startswith(
        "Error: refused: cannot roll: Ann has rolled 6-1 and must move; "
        "record Ann's play of 6-1 first, e.g. `move m5 '"
    ), message
    assert message.endswith("'` (USBGF 4.1.7.1)"), message
    example = message.split("`move m5 '")[1].split("'`")[0]
    assert run(db, "move", "m5", example).exit_code == 0, example


def test_take_or_drop_when_nobody_doubled_says_to_record_the_double(db: str) -> None:
    recorded(db, "opening 3 1")
    assert run(db, "move", "m5", "8/5 6/5").exit_code == 0
    expected = (
        "Error: refused: cannot {verb}: Ben is on roll, to double or to roll; "
        "record Ben's double first: `double m5` (USBGF 4.4.4)"
    )
    for verb in ("take", "drop"):
        assert refusal(db, verb, "m5") == expected.format(verb=verb)


def test_a_roll_or_a_double_while_a_double_waits_says_take_or_drop(db: str) -> None:
    recorded(db, "opening 3 1")
    assert run(db, "move", "m5", "8/5 6/5").exit_code == 0
    recorded(db, "double")
    answer = "record Ann's answer to the double first: `take m5` or `drop m5` (USBGF 4.4.4)"
    assert refusal(db, "roll", "m5", "6", "4") == (
        f"Error: refused: cannot roll: Ben has doubled to 2: Ann takes or drops; {answer}"
    )
    assert refusal(db, "double", "m5").endswith(f"Ann takes or drops; {answer}")


def test_a_double_after_the_roll_says_to_record_the_play(db: str) -> None:
    recorded(db, "opening 3 1")
    assert refusal(db, "double", "m5") == (
        "Error: refused: cannot double: Ann has rolled 3-1 and must move; "
        "record Ann's play of 3-1 first, e.g. `move m5 '24/23 24/21'` (USBGF 4.4.2)"
    )


def test_a_forbidden_double_offers_as_played_and_what_is_due_instead(db: str) -> None:
    started = run(db, "start", "--a", "Ann", "--b", "Ben", "--length", "1", "--id", "m1")
    assert started.exit_code == 0
    assert run(db, "opening", "m1", "3", "1").exit_code == 0
    assert run(db, "move", "m1", "8/5 6/5").exit_code == 0
    result = run(db, "double", "m1")
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "Error: refused: Ben may not double: the cube is dead: Ben, with 0 of 1, wins the match "
        "by winning this game at 1; if it happened at the board, record it as played: "
        "`double m1 --as-played`; if not, record Ben's roll first, e.g. `roll m1 6 4` "
        "(USBGF 4.4.9)"
    )


def test_an_opening_roll_during_a_game_says_what_the_game_waits_for(db: str) -> None:
    recorded(db, "opening 3 1")
    assert run(db, "move", "m5", "8/5 6/5").exit_code == 0
    assert refusal(db, "opening", "m5", "4", "2") == (
        "Error: refused: cannot make an opening roll: Ben is on roll, to double or to roll; "
        "record Ben's roll first, e.g. `roll m5 6 4` (USBGF Appendix B)"
    )


def test_a_roll_before_the_game_says_to_record_the_opening_roll(db: str) -> None:
    assert refusal(db, "roll", "m5", "6", "4") == (
        "Error: refused: cannot roll: no game in progress: game 1 starts with an opening roll; "
        "record game 1's opening roll first, e.g. `opening m5 3 1` (Ann's die, then Ben's) "
        "(USBGF Appendix B)"
    )
    recorded(db, "opening 2 2")
    assert refusal(db, "move", "m5", "13/11 13/11").endswith(
        "record game 1's opening roll again, e.g. `opening m5 3 1` (Ann's die, then Ben's) "
        "(USBGF Appendix B)"
    )


def test_a_play_with_the_wrong_dice_names_the_dice_and_every_way_on(db: str) -> None:
    recorded(db, "opening 6 4")
    assert refusal(db, "move", "m5", "13/10 13/11") == (
        "Error: refused: illegal play '13/11 13/10' of 6-4: 13/11 does not match the roll 6-4; "
        "Ann's dice are 6-4: record the play made with them, e.g. `move m5 '24/20 24/18'`, "
        "or, if this play was made at the board, `move m5 '13/11 13/10' --as-played`; "
        "if the dice were entered wrong, `undo m5` the roll and enter it again "
        "(USBGF 4.2.3(a))"
    )


def test_anything_after_the_match_says_nothing_more_is_recorded(db: str) -> None:
    started = run(db, "start", "--a", "Ann", "--b", "Ben", "--length", "1", "--id", "m1")
    assert started.exit_code == 0
    for args in (("opening", "3", "1"), ("move", "8/5 6/5"), ("double", "--as-played"), ("drop",)):
        assert run(db, args[0], "m1", *args[1:]).exit_code == 0, args
    for args in (("roll", "6", "4"), ("opening", "3", "1"), ("double",), ("take",)):
        result = run(db, args[0], "m1", *args[1:])
        assert result.exit_code == 1, args
        assert result.stderr.strip().endswith(
            "the match is over: Ben won (Ann 0, Ben 1); nothing more is recorded in this match; "
            "the next match starts with `start --a NAME --b NAME --length N` (ABT 4.9)"
        ), result.stderr


def test_a_break_says_to_record_its_end(db: str) -> None:
    assert run(db, "break", "m5", "start", "a").exit_code == 0
    message = refusal(db, "opening", "m5", "3", "1")
    assert "the players are on a break; record the end of the break first: `break m5 end`" in (
        message
    ), message


def test_the_step_is_also_a_line_of_record() -> None:
    match = Match.start(match_uuid("rec"), "rec", ("Ann", "Ben"), 5, by="kim")
    match.opening(3, 1, by="kim")
    with pytest.raises(OutOfTurnError) as caught:
        match.roll(6, 4, by="kim")
    step = caught.value.next_step
    assert step is not None
    assert step.text_for_record() == "record Ann's play of 3-1 first, e.g. `move 24/23 24/21`"
    assert caught.value.reason == "cannot roll: Ann has rolled 3-1 and must move"
    assert caught.value.rule == "USBGF 4.1.7.1"


def test_a_name_with_braces_is_printed_as_typed() -> None:
    match = Match.start(match_uuid("br"), "br", ("{Ann}", "Ben}{0}"), 5, by="kim")
    with pytest.raises(OutOfTurnError) as caught:
        match.roll(6, 4, by="kim")
    assert "({Ann}'s die, then Ben}{0}'s)" in str(caught.value)


def test_the_message_for_record_has_the_lines_without_the_match_id() -> None:
    match = Match.start(match_uuid("rl"), "rl", ("Ann", "Ben"), 5, by="kim")
    with pytest.raises(OutOfTurnError) as caught:
        match.take(by="kim")
    assert caught.value.text_for_record() == (
        "cannot take: no game in progress: game 1 starts with an opening roll; "
        "record game 1's opening roll first, e.g. `opening 3 1` (Ann's die, then Ben's) "
        "(USBGF Appendix B)"
    )


VERBS = ["roll 6 4", "move 13/7", "double", "take", "drop", "opening 3 1", "accept", "reject"]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120), tried=st.sampled_from(VERBS))
def test_every_command_a_refusal_offers_is_itself_accepted(
    seed: int, steps: int, tried: str
) -> None:
    """Whatever was refused, the next step it names is an action the ledger records."""
    match = Match.start(match_uuid("prop"), "prop", ("Ann", "Ben"), 5, by="kim")
    play_lines(match, random.Random(seed), steps)
    history = match.collect_events()  # what the store would hand a correction
    try:
        parse(tried).run(deepcopy(match), "kim")
    except ActionRefusedError as refused:
        step = refused.next_step
        assert step is not None, refused
        assert match.state.match_id in str(refused) or not step.commands
        for command in step.commands:
            line = step.record_line(command)
            if command[0] == "undo":  # a recording error: decided on the history
                deepcopy(match).withdraw(history, by="kim")
                continue
            parse(line).run(deepcopy(match), "kim")  # raises if refused
    except RulesError:
        pass  # '13/7' with no checker there: input that describes nothing, not a refusal


def test_take_when_the_player_on_roll_may_not_double_says_to_record_his_roll(db: str) -> None:
    started = run(db, "start", "--a", "Ann", "--b", "Ben", "--length", "1", "--id", "m1")
    assert started.exit_code == 0
    assert run(db, "opening", "m1", "3", "1").exit_code == 0
    assert run(db, "move", "m1", "8/5 6/5").exit_code == 0
    result = run(db, "take", "m1")  # the cube is dead at 0-0 of 1 point (USBGF 4.4.9)
    assert result.exit_code == 1
    assert result.stderr.strip() == (  # (the status line no longer offers the dead cube)
        "Error: refused: cannot take: Ben is on roll, to roll; "
        "record Ben's roll first, e.g. `roll m1 6 4` (USBGF 4.4.4)"
    )


def test_a_second_early_roll_says_to_record_the_movers_play() -> None:
    match = Match.start(match_uuid("pre"), "pre", ("Ann", "Ben"), 5, by="kim")
    match.opening(3, 1, by="kim")
    match.roll_early(6, 4, by="kim")
    match.accept_roll(by="kim")
    with pytest.raises(OutOfTurnError) as caught:
        match.roll_early(5, 5, by="kim")
    assert str(caught.value) == (
        "cannot roll early: Ann has rolled 3-1 and must move; then Ben plays the early 6-4; "
        "record Ann's play of 3-1 first, e.g. `move pre '24/23 24/21'` (USBGF 4.1.7.1)"
    )
