"""The classic laws of the throw and the touch (issue 33): CLASSIC 7, 8, 10's whole chain and
11, each played out at the board from the law's own words.

Ann is player a, Bob player b.  Under ``classic`` the higher thrower of the opening roll plays
the single dice only by consent (CLASSIC 4): ``opening 5 2`` then ``play-singles`` gives Ann
5-2 to play.  Points are the mover's own (Bob's 24 is Ann's 1).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.commands.classic import LawNotInProfileError, NoManThereError
from bgledger.commands.rulings import Ruling, RulingRefusedError
from bgledger.errors import IllegalPlayRefusedError, OutOfTurnError
from bgledger.events import (
    CallCorrected,
    CheckersPlayed,
    DiceSet,
    ManAdjusted,
    ManTouched,
    PlaysReverted,
    ThrowCalled,
)
from bgledger.projections.state.fold import Phase
from bgledger.projections.state.situation import now
from bgledger.rules.profiles import Decision, get_profile
from tests.conftest import board
from tests.match_driver import InMemory

AT = "2024-05-01T10:00:00+00:00"
ANN_5_2 = ("opening 5 2", "play-singles")  # Ann threw the higher die; both agreed (CLASSIC 4)
BOB_ON_ROLL = (*ANN_5_2, "move 13/8 13/11")  # Ann's 6 point keeps its five men


def _match(profile: str, *lines: str) -> InMemory:
    match = InMemory("classic", 5, by="kim", at=AT, profile=profile)
    for line in lines:
        match.act(line)
    return match


def _last(match: InMemory, kind: type) -> object:
    found = [event for event in match.events if isinstance(event, kind)]
    assert found, kind.__name__
    return found[-1]


def _number(match: InMemory, kind: type) -> int:
    event = _last(match, kind)
    assert isinstance(event, CheckersPlayed | ThrowCalled)
    return event.originator_version


DEMANDED = Ruling("players", "Bob demanded the error be rectified before he threw", by="tom")
FOUND = Ruling("players", "Bob saw the three before Ann took up the dice", by="tom")


# -- CLASSIC 11: the touch -------------------------------------------------------------------


def test_a_man_touched_must_be_moved_if_the_piece_is_playable() -> None:
    """CLASSIC 11: "Any man touched, except for the purpose of adjusting it, must be moved if
    the piece is playable."  Ann, with 5-2, touches a man on her 6 point: 6/4 or 6/1 would
    move it (6/1 is blocked, 6/4 is open), so a play that leaves it is refused, citing the
    law; a play that moves it stands."""
    match = _match("classic", *ANN_5_2, "touch 6")
    touched = _last(match, ManTouched)
    assert isinstance(touched, ManTouched)
    assert (touched.player, touched.point, touched.rule) == ("a", 6, "CLASSIC 11")
    with pytest.raises(IllegalPlayRefusedError) as refused:
        match.act("move 13/8 13/11")
    assert refused.value.rule == "CLASSIC 11" == get_profile("classic").cite(Decision.TOUCH_MOVE)
    assert "the man touched on 6 is playable and must be moved" in str(refused.value)
    match.act("move 13/8 6/4")
    assert match.match.state.turn == "b" and match.match.state.touched == ()


def test_a_man_touched_that_is_not_playable_need_not_be_moved() -> None:
    """CLASSIC 11: a man touched must be moved "if the piece is playable".  Bob's 5-5: his
    men on 24 cannot move five (Ann holds his 19, her 6 point), so touching one obliges
    nothing and his play from the midpoint stands."""
    match = _match("classic", *BOB_ON_ROLL, "roll 5 5", "touch 24")
    match.act("move 13/3 13/3")
    played = _last(match, CheckersPlayed)
    assert isinstance(played, CheckersPlayed) and played.legal and played.player == "b"


def test_jadoube_adjusts_a_man_without_obliging_its_move() -> None:
    """CLASSIC 11: "A player about to adjust a man must give due notice by saying,
    "J'adoube.""  Ann says it and straightens a man on her 6 point, then plays from the
    midpoint: the play stands."""
    match = _match("classic", *ANN_5_2, "jadoube 6")
    adjusted = _last(match, ManAdjusted)
    assert isinstance(adjusted, ManAdjusted) and adjusted.point == 6
    match.act("move 13/8 13/11")
    assert match.match.state.turn == "b"


def test_a_man_touched_and_played_otherwise_as_played_is_flagged_under_the_law() -> None:
    """A play that leaves the man touched, made at the board, is recorded as made (DESIGN
    principle 2), flagged with CLASSIC 11's reason."""
    match = _match("classic", *ANN_5_2, "touch 6", "move 13/8 13/11 --as-played")
    played = _last(match, CheckersPlayed)
    assert isinstance(played, CheckersPlayed)
    assert (played.legal, played.rule) == (False, "CLASSIC 11")


def test_touching_a_point_without_a_man_of_his_is_refused() -> None:
    match = _match("classic", *ANN_5_2)
    with pytest.raises(NoManThereError, match="Ann has no man on 7"):
        match.act("touch 7")


def test_the_man_touched_is_drawn_by_what_may_happen_now() -> None:
    """The pad and the console draw the obligation: the play's words name the man."""
    match = _match("classic", *ANN_5_2)
    lines = now(match.match.state).lines("a")
    assert "touch" in lines and "jadoube" in lines
    match.act("touch 6")
    (play,) = [a for a in now(match.match.state).allowed if a.verb == "move"]
    assert play.words == "Ann plays: the man touched on 6 is playable and must be moved"


@pytest.mark.parametrize(
    ("profile", "rule"), [("usbgf-2016", "USBGF 4.2.5"), ("usbgf-2017", "USBGF 4.2.5")]
)
def test_other_profiles_have_no_touch_move_and_say_why(profile: str, rule: str) -> None:
    """USBGF 4.2.5 lets a player shuffle his checkers "in order to test possible plays": no
    touch-move rule.  The touch is refused with that rule, and the pad offers none."""
    match = _match(profile, "opening 5 2")
    with pytest.raises(LawNotInProfileError) as refused:
        match.act("touch 6")
    assert refused.value.rule == rule
    assert "touch" not in now(match.match.state).lines("a")


# -- CLASSIC 7: dice interfered with ---------------------------------------------------------


def test_dice_interfered_with_are_set_by_the_adversary_and_played_as_if_thrown() -> None:
    """CLASSIC 7: "If the caster interferes with the dice in any way ... the adversary may
    place face upward on the die or dice so interfered with, any number he chooses, and the
    caster must play it as if thrown."  Bob threw 6-5 and stopped a die rolling; Ann set them
    to 1-1: Bob plays 1-1, and his 6-5 play is refused."""
    match = _match("classic", *BOB_ON_ROLL, "roll 6 5", "interfered 1 1")
    set_ = _last(match, DiceSet)
    assert isinstance(set_, DiceSet)
    assert (set_.player, set_.die1, set_.die2, set_.rule) == ("b", 1, 1, "CLASSIC 7")
    assert match.match.state.dice == (1, 1)
    with pytest.raises(IllegalPlayRefusedError):
        match.act("move 24/18 18/13")
    match.act("move 6/5 6/5 8/7 8/7")
    assert match.match.state.turn == "a"


def test_dice_are_set_before_the_throw_is_called_not_after() -> None:
    """CLASSIC 7: "before they come absolutely to rest and the throw is called by the caster"."""
    match = _match("classic", *BOB_ON_ROLL, "roll 6 5", "call 6 6")
    with pytest.raises(OutOfTurnError, match="has called the throw"):
        match.act("interfered 1 1")


def test_usbgf_retakes_a_roll_the_caster_touched_and_sets_no_die() -> None:
    """USBGF 4.1.4.1: "During this process, the dice shall not touch the roller's hand"; such
    a roll "shall be deemed invalid and retaken": nobody sets a die."""
    match = _match("usbgf-2016", "opening 5 2", "move 13/8 13/11", "roll 6 5")
    with pytest.raises(LawNotInProfileError) as refused:
        match.act("interfered 1 1")
    assert refused.value.rule == "USBGF 4.1.4.1"
    assert "interfered" not in now(match.match.state).lines("a")


# -- CLASSIC 8: the called throw -------------------------------------------------------------


def test_a_throw_played_as_called_stands_good() -> None:
    """CLASSIC 8: "if the throw is played as called it stands good, unless an error in the
    call is discovered before the dice have been touched for the purpose of putting them in
    the box again."  Bob threw 6-3, called 6-4 and played 6-4; nobody saw it before Ann threw:
    the play stands, and a correction now is refused under the law."""
    match = _match("classic", *BOB_ON_ROLL, "roll 6 3", "call 6 4")
    called = _last(match, ThrowCalled)
    assert isinstance(called, ThrowCalled) and called.rule == "CLASSIC 8"
    assert match.match.state.dice == (6, 4) and match.match.state.thrown == (6, 3)
    match.act("move 24/18 13/9")
    played = _last(match, CheckersPlayed)
    assert isinstance(played, CheckersPlayed) and played.legal
    match.act("roll 3 1")  # Ann takes up the dice and throws
    with pytest.raises(RulingRefusedError) as refused:
        match.rule(lambda m, h, n, r: m.correct_call(h, n, r), called.originator_version, FOUND)
    assert refused.value.rule == "CLASSIC 8"
    assert "the dice were taken up again" in str(refused.value)


def test_an_error_in_the_call_found_in_time_is_played_with_the_dice_thrown() -> None:
    """CLASSIC 8: "unless an error in the call is discovered before the dice have been
    touched for the purpose of putting them in the box again".  Bob threw 6-3, called 6-4 and
    played 24/18 13/9; Ann saw the three before the dice were taken up: the play is void and
    Bob plays 6-3."""
    match = _match("classic", *BOB_ON_ROLL, "roll 6 3", "call 6 4", "move 24/18 13/9")
    played = _number(match, CheckersPlayed)
    call = _number(match, ThrowCalled)
    match.rule(lambda m, h, n, r: m.correct_call(h, n, r), call, FOUND)
    corrected = _last(match, CallCorrected)
    assert isinstance(corrected, CallCorrected)
    assert (corrected.rule, corrected.event, corrected.voids) == ("CLASSIC 8", call, [played])
    state = match.match.state
    assert (state.turn, state.phase, state.dice, state.thrown) == ("b", Phase.PLAY, (6, 3), None)
    assert state.board[1][24] == 2 and state.board[1][13] == 5  # Bob's men are back
    with pytest.raises(IllegalPlayRefusedError):
        match.act("move 24/18 13/9")  # 6-4 no longer
    match.act("move 24/18 13/10")


def test_an_error_in_the_call_found_before_the_play() -> None:
    match = _match("classic", *BOB_ON_ROLL, "roll 6 3", "call 6 4")
    match.rule(lambda m, h, n, r: m.correct_call(h, n, r), _number(match, ThrowCalled), FOUND)
    assert _last(match, CallCorrected).voids == []  # type: ignore[attr-defined]
    assert match.match.state.dice == (6, 3)


def test_a_call_that_is_the_dice_records_nothing() -> None:
    match = _match("classic", *BOB_ON_ROLL, "roll 6 3")
    with pytest.raises(OutOfTurnError, match="nothing to record"):
        match.act("call 3 6")


def test_usbgf_reads_the_dice_as_they_lie() -> None:
    """USBGF 4.1.4.1: a die's "top-facing number is clearly identifiable": no call stands in
    its place."""
    match = _match("usbgf-2016", "opening 5 2", "move 13/8 13/11", "roll 6 3")
    with pytest.raises(LawNotInProfileError) as refused:
        match.act("call 6 4")
    assert refused.value.rule == "USBGF 4.1.4.1"
    assert "call" not in now(match.match.state).lines("b")


# -- CLASSIC 10: the whole chain -------------------------------------------------------------

# Ann's man on 24 cannot move 2, 5 or 7: Bob holds her 22, 19 and 17 (his 3, 6 and 8).
BLOCKED = board({24: 1, 13: 2, 6: 4}, {3: 2, 6: 2, 8: 2, 1: 2}).position_id
# ... and her midpoint men cannot go on to 6 either: Bob also holds her 6 (his 19).
NO_ONWARD = board({24: 1, 13: 2, 5: 4}, {3: 2, 6: 2, 8: 2, 19: 2}).position_id


def _reverted(position: str, play: str) -> InMemory:
    match = _match("classic", f"setup {position}", *ANN_5_2, f"move {play} --as-played")
    match.rule(lambda m, h, n, r: m.revert(h, n, r), _number(match, CheckersPlayed), DEMANDED)
    return match


def test_the_man_moved_correctly_is_moved_on_when_the_wrong_one_cannot_be() -> None:
    """CLASSIC 10: "If he cannot be moved correctly, the other man that was moved correctly
    on the same throw must be moved on the number of points on the second die, if possible."
    Ann's 5-2: 13/8 is right, 24/21 moves three points, the wrong number.  Her man from 24
    cannot be moved with 5 or 2, so the man she moved 13/8 must go on by the 2: 13/6."""
    match = _reverted(BLOCKED, "13/8 24/21")
    reverted = _last(match, PlaysReverted)
    assert isinstance(reverted, PlaysReverted)
    assert (reverted.same_checker, reverted.moved_on) == ([24], [13])
    with pytest.raises(IllegalPlayRefusedError) as refused:
        match.act("move 13/8 6/4")
    assert refused.value.rule == "CLASSIC 10"
    assert "moved correctly on the same throw (from 13) must be moved on" in str(refused.value)
    (play,) = [a for a in now(match.match.state).allowed if a.verb == "move"]
    assert "must be moved on by the second die" in play.words
    match.act("move 13/6")
    assert match.match.state.turn == "b"


def test_only_when_neither_can_be_moved_is_the_player_free() -> None:
    """CLASSIC 10: "If the second man cannot be so moved onward, the player is at liberty to
    move any man he pleases."  Bob holds Ann's 6 point too: neither 13/8/6 nor 13/11/6 is
    open, so any legal play stands."""
    match = _reverted(NO_ONWARD, "13/8 24/21")
    match.act("move 13/11 13/8")
    played = _last(match, CheckersPlayed)
    assert isinstance(played, CheckersPlayed) and played.legal


def test_the_man_wrongly_moved_comes_first_when_he_can_be_moved() -> None:
    """CLASSIC 10: "If a man wrongly moved can be moved correctly, the player in error is
    obliged to move that man" (the chain's first link, unchanged)."""
    match = _match("classic", *ANN_5_2, "move 13/8 24/20 --as-played")
    match.rule(lambda m, h, n, r: m.revert(h, n, r), _number(match, CheckersPlayed), DEMANDED)
    with pytest.raises(IllegalPlayRefusedError, match="from 24"):
        match.act("move 13/6")
    match.act("move 24/22 13/8")


# -- on the command line -----------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'classic.db'}"


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args])


def _start(db: str, profile: str = "classic") -> None:
    started = run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m",
                  "--profile", profile)  # fmt: skip
    assert started.exit_code == 0, started.output


def test_the_command_line_records_a_touch_and_refuses_the_play_that_leaves_it(db: str) -> None:
    _start(db)
    for args in (("opening", "m", "5", "2"), ("play-singles", "m"), ("touch", "m", "6")):
        assert run(db, *args).exit_code == 0, args
    refused = run(db, "move", "m", "13/8 13/11")
    assert refused.exit_code == 1
    assert "CLASSIC 11" in refused.stderr and "touched on 6" in refused.stderr
    assert run(db, "move", "m", "13/8 6/4").exit_code == 0
    shown = json.loads(run(db, "show", "m", "--json").output)
    assert shown["turn"] == "b"
    history = run(db, "history", "m").output
    assert "Ann touched a man on 6: it must be moved if playable (CLASSIC 11)" in history


def test_the_command_line_records_a_call_and_its_correction(db: str) -> None:
    _start(db)
    lines = (
        ("opening", "m", "5", "2"),
        ("play-singles", "m"),
        ("move", "m", "13/8 13/11"),
        ("roll", "m", "6", "3"),
        ("call", "m", "6", "4"),
        ("move", "m", "24/18 13/9"),
    )
    for args in lines:
        assert run(db, *args).exit_code == 0, args
    corrected = run(db, "correct-call", "m", "7", "--ruled-by", "players", "--reason",
                    "Ann saw the three before Bob took up the dice")  # fmt: skip
    assert corrected.exit_code == 0, corrected.output
    shown = json.loads(run(db, "show", "m", "--json").output)
    assert (shown["turn"], shown["dice"]) == ("b", [6, 3])
    history = run(db, "history", "m").output
    assert "Bob called the throw 6-4 (the dice show 6-3): played as called it stands" in history
    assert "the call at event 7 corrected: Bob plays the dice thrown, 6-3" in history


def test_the_command_line_refuses_a_touch_under_usbgf_with_its_rule(db: str) -> None:
    _start(db, "usbgf-2016")
    assert run(db, "opening", "m", "5", "2").exit_code == 0
    refused = run(db, "touch", "m", "6")
    assert refused.exit_code == 1 and "USBGF 4.2.5" in refused.stderr
    assert "Traceback" not in refused.output
    bad = run(db, "touch", "m", "26")  # no board has a point 26: bad input, exit 2
    assert bad.exit_code == 2 and "point '26'" in bad.stderr


def test_interfered_on_the_command_line(db: str) -> None:
    _start(db)
    for args in (("opening", "m", "5", "2"), ("play-singles", "m"), ("move", "m", "13/8 13/11"),
                 ("roll", "m", "6", "5"), ("interfered", "m", "1", "1")):  # fmt: skip
        assert run(db, *args).exit_code == 0, args
    shown = json.loads(run(db, "show", "m", "--json").output)
    assert shown["dice"] == [1, 1]
