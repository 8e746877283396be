"""Statements about the cube are binding (issue 33; USBGF 4.4.3 and 4.4.4).

USBGF 4.4.3: "If a player states either that he doubles, or that he is going to double, then
he must double at his first legal opportunity to do so."

USBGF 4.4.4: "If the player states his intention to drop the cube if doubled, then he will be
bound by that statement if the opposing player elects to double at that player's next legal
opportunity to do so (but not on subsequent turns)."

The scorekeeper records what was said with ``announce double a|b`` ("I am going to double")
or ``announce pass a|b`` ("I would pass"); the refusals follow from it.  Ann is player ``a``,
Bob ``b``.  Ann opens with 3-1 (8/5 6/5): Bob is then on roll, before rolling, with the cube
centred.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.errors import ActionRefusedError, CubeStatementRefusedError, StatementBindsError
from bgledger.projections.state.codec import state_from_dict, state_to_dict
from bgledger.projections.state.situation import now
from bgledger.projections.views.audit import history

OPENED = ("opening 3 1", "move 8/5 6/5")
"""Ann's opening 3-1, played: Bob on roll, the cube centred."""


def new_match(*lines: str, profile: str = "usbgf-2016", length: int = 5) -> Match:
    match = Match.start(match_uuid("s"), "s", ("Ann", "Bob"), length, profile=profile, by="kim")
    play(match, *lines)
    return match


def play(match: Match, *lines: str) -> None:
    for line in lines:
        parse(line).run(match, "kim", history=[])


def refused(match: Match, line: str) -> ActionRefusedError:
    before = match.version
    with pytest.raises(ActionRefusedError) as caught:
        play(match, line)
    assert match.version == before, "a refusal records nothing"
    return caught.value


def offered(match: Match, party: str) -> set[str]:
    return set(now(match.state).lines(party))


# -- USBGF 4.4.3: "I am going to double" -----------------------------------------------------


def test_a_player_who_says_he_is_going_to_double_before_rolling_must_double() -> None:
    """ "If a player states ... that he is going to double, then he must double at his first
    legal opportunity to do so": Bob, on roll with the cube centred, is at it now."""
    match = new_match(*OPENED, "announce double b")
    error = refused(match, "roll 6 4")
    assert isinstance(error, StatementBindsError)
    assert error.rule == "USBGF 4.4.3"
    assert "Bob said he is going to double" not in str(error)  # no pronoun is guessed
    assert "Bob stated an intention to double" in str(error)
    assert "`double`" in error.text_for_record()  # the next step: his double
    assert "roll" not in offered(match, "b") and "double" in offered(match, "b")
    assert "must double" in now(match.state).says
    play(match, "double")
    assert match.state.offer == 2
    assert match.state.statements == ()  # done: the statement is kept by the double


def test_said_during_the_opponents_turn_it_binds_his_next_turn() -> None:
    """Said while Ann is still to move (her roll made), Bob's first legal opportunity is his
    next turn, before rolling: his roll is refused there, not Ann's play."""
    match = new_match("opening 3 1", "announce double b", "move 8/5 6/5")
    assert match.state.turn == "b"
    assert isinstance(refused(match, "roll 6 4"), StatementBindsError)


def test_a_premature_roll_skips_the_opportunity_and_is_refused() -> None:
    """Bob said he is going to double, then rolled before Ann moved: rolling early passes up
    the first legal opportunity he is bound to double at (his turn, before rolling)."""
    match = new_match("opening 3 1", "announce double b")
    error = refused(match, "roll 6 4 --premature")
    assert isinstance(error, StatementBindsError) and error.rule == "USBGF 4.4.3"
    play(match, "double --premature", "move 8/5 6/5")
    assert match.state.statements == ()


def test_a_statement_that_no_legal_double_can_follow_is_refused() -> None:
    """A first legal opportunity must be possible: not in the Crawford game (USBGF 4.4.6),
    nor on the opponent's cube (USBGF 4.4.2, only the owner redoubles)."""
    match = new_match(*OPENED, "double", "take")  # Bob doubled, Ann owns the cube at 2
    play(match, "roll 6 4", "move 24/18 13/9")  # Bob plays; Ann on roll
    error = refused(match, "announce double b")
    assert isinstance(error, CubeStatementRefusedError)
    assert error.rule == "USBGF 4.4.2"
    crawford = new_match(*OPENED, "double", "drop", length=2)  # Bob 1 of 2: Crawford game
    play(crawford, *OPENED)
    assert refused(crawford, "announce double b").rule == "USBGF 4.4.6"


def test_the_statement_lapses_when_the_game_ends() -> None:
    """Ann said she is going to double; Bob doubled first and Ann dropped: game 2 binds her
    to nothing."""
    match = new_match(*OPENED, "announce double a", "double", "drop")
    assert match.state.statements == ()
    play(match, *OPENED, "roll 6 4", "move 24/18 13/9")
    play(match, "roll 5 2")  # Ann's first turn of game 2 with the cube hers to turn


# -- USBGF 4.4.4: "I would pass" ---------------------------------------------------------------


def test_a_player_who_said_he_would_pass_may_not_take_the_double_that_follows() -> None:
    """ "If the player states his intention to drop the cube if doubled, then he will be bound
    by that statement if the opposing player elects to double at that player's next legal
    opportunity": Ann said so, Bob doubles at once; her take is refused, her drop is not."""
    match = new_match(*OPENED, "announce pass a", "double")
    error = refused(match, "take")
    assert isinstance(error, StatementBindsError)
    assert error.rule == "USBGF 4.4.4"
    assert "`drop`" in error.text_for_record()
    assert offered(match, "a") >= {"drop"} and "take" not in offered(match, "a")
    assert "must drop" in now(match.state).says
    play(match, "drop")
    assert match.state.score == (0, 1)


def test_said_before_the_doublers_turn_it_binds_his_next_turn() -> None:
    """Said while Ann is still to move, it binds Bob's next legal opportunity: his turn."""
    match = new_match("opening 3 1", "announce pass a", "move 8/5 6/5", "double")
    assert isinstance(refused(match, "take"), StatementBindsError)


def test_not_on_subsequent_turns() -> None:
    """ "(but not on subsequent turns)": Bob rolled instead of doubling, so Ann's statement
    lapsed; when Bob doubles a turn later, she may take."""
    match = new_match(*OPENED, "announce pass a", "roll 6 4", "move 24/18 13/9")
    assert match.state.statements == ()
    play(match, "roll 5 2", "move 13/8 13/11", "double", "take")
    assert match.state.cube == 2 and match.state.cube_owner == "a"


def test_a_pass_statement_binds_nothing_if_the_opponent_may_not_double() -> None:
    match = new_match(*OPENED, "double", "take")  # Ann owns the cube: Bob may not redouble
    play(match, "roll 6 4", "move 24/18 13/9")
    error = refused(match, "announce pass a")
    assert isinstance(error, CubeStatementRefusedError) and error.rule == "USBGF 4.4.2"


def test_a_take_is_not_a_statement_and_an_answer_is_no_statement() -> None:
    """Only the double (4.4.3) and the pass (4.4.4) bind in advance; once the double is made,
    'I pass' is the drop itself."""
    match = new_match(*OPENED)
    with pytest.raises(ValueError, match="'double' or 'pass'"):
        parse("announce take a")
    play(match, "double")
    assert isinstance(refused(match, "announce pass a"), ActionRefusedError)


def test_both_statements_at_once() -> None:
    """Bob said he is going to double and Ann that she would pass: Bob doubles, Ann drops."""
    match = new_match(*OPENED, "announce double b", "announce pass a")
    assert offered(match, "b") & {"roll", "double"} == {"double"}
    play(match, "double")
    assert "take" not in offered(match, "a")
    play(match, "drop")
    assert match.state.score == (0, 1)


# -- the profiles -------------------------------------------------------------------------------


def test_usbgf_2017_keeps_the_rule() -> None:
    """The ABT 2017 procedural rules 4.1-4.10 say nothing of statements: USBGF 4.4.3 stands."""
    match = new_match(*OPENED, "announce double b", profile="usbgf-2017")
    assert refused(match, "roll 6 4").rule == "USBGF 4.4.3"


@pytest.mark.parametrize("profile", ["online", "classic"])
def test_profiles_without_binding_statements_refuse_to_record_one(profile: str) -> None:
    """Online servers hear no spoken statement; the classic laws predate the cube."""
    opened = ("opening 3 1", "play-singles", "move 8/5 6/5") if profile == "classic" else OPENED
    match = new_match(*opened, profile=profile)
    error = refused(match, "announce double b")
    assert isinstance(error, CubeStatementRefusedError)
    assert "announce double b" not in offered(match, "b")
    play(match, "roll 6 4")


# -- the record ---------------------------------------------------------------------------------


def test_the_statement_is_in_the_history_and_survives_a_snapshot_and_undo() -> None:
    match = new_match(*OPENED, "announce double b")
    assert state_from_dict(state_to_dict(match.state)) == match.state
    texts = [entry.text for entry in history(match.collect_events())]
    assert texts[-1] == "Bob: 'I am going to double' (USBGF 4.4.3)"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 's.db'}"


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args])


def test_the_command_line_records_a_statement_and_refuses_the_roll(db: str) -> None:
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m").exit_code == 0
    for args in (("opening", "m", "3", "1"), ("move", "m", "8/5 6/5")):
        assert run(db, *args).exit_code == 0
    said = run(db, "announce", "m", "double", "b")
    assert said.exit_code == 0, said.output
    rolled = run(db, "roll", "m", "6", "4")
    assert rolled.exit_code == 1
    assert "USBGF 4.4.3" in rolled.stderr and "`double m`" in rolled.stderr
    document = json.loads(run(db, "show", "m", "--json").output)
    lines = {a["line"] for a in document["now"]["allowed"] if a["party"] == "b"}
    assert "double" in lines and "roll" not in lines
    assert run(db, "undo", "m").exit_code == 0  # a statement mis-entered is undone
    assert run(db, "roll", "m", "6", "4").exit_code == 0


def test_each_profile_says_whether_statements_bind_and_why() -> None:
    """usbgf-2016 cites USBGF 4.4.3 and 4.4.4 with their words; usbgf-2017 keeps them (ABT
    4.1-4.10 are silent on statements); online and classic bind none, and say why."""
    from bgledger.rules.profiles import Decision, get_profile

    for name in ("usbgf-2016", "usbgf-2017"):
        cube = get_profile(name).cube
        assert cube.double_statement_binds.value and cube.pass_statement_binds.value
        assert cube.double_statement_binds.rule == "USBGF 4.4.3"
        assert "he must double at his first legal opportunity" in cube.double_statement_binds.quote
        assert cube.pass_statement_binds.rule == "USBGF 4.4.4"
        assert "(but not on subsequent turns)" in cube.pass_statement_binds.quote
        assert get_profile(name).cite(Decision.DOUBLE_STATEMENT) == "USBGF 4.4.3"
        assert get_profile(name).cite(Decision.PASS_STATEMENT) == "USBGF 4.4.4"
    online, classic = get_profile("online").cube, get_profile("classic").cube
    assert not online.double_statement_binds.value and not online.pass_statement_binds.value
    assert "no statement is spoken" in online.double_statement_binds.note
    assert not classic.double_statement_binds.value and not classic.pass_statement_binds.value
    assert "predate the doubling cube" in classic.pass_statement_binds.note


def test_the_pads_next_step_after_a_refusal_is_the_double_or_the_drop_button() -> None:
    """The refusal's next step is drawn on the pad as the verb's button (Command.button)."""
    from bgledger.web.steps import pad_step

    match = new_match(*OPENED, "announce double b")
    step = refused(match, "roll 6 4").next_step
    assert step is not None and pad_step(step)["buttons"] == [{"label": "Double", "line": "double"}]
    match = new_match(*OPENED, "announce pass a", "double")
    step = refused(match, "take").next_step
    assert step is not None and pad_step(step)["buttons"] == [{"label": "Drop", "line": "drop"}]
