"""The Match aggregate's rules, and the MatchStore commands around it.

Every refusal is checked three ways: the exception class, the rule its
message cites, and that nothing was recorded (the aggregate's version, state
and pending events; through the MatchStore, the stored event count).

Scenarios are driven with the record language (``opening 3 1``, ``roll 6 5``,
``move 13/7 13/8``).  The openings used: ``opening 3 1`` lets Ann (a) move
first, ``8/5 6/5``; ``opening 1 3`` lets Bob (b) move first, the same play in
his own numbering.  Endgames that would take dozens of random rolls to reach
are set up by replacing the board of a state the fold made (:func:`set_board`);
everything else (score, cube, Crawford status, turn) comes from real events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

import pytest

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.errors import (
    ActionRefusedError,
    CubeActionRefusedError,
    IllegalPlayRefusedError,
    InvalidMatchSetupError,
    InvalidTimeError,
    InvalidVoidReasonError,
    MatchExistsError,
    MatchNotFoundError,
    MatchOverError,
    OutOfTurnError,
    ResignationRefusedError,
    RulesError,
)
from bgledger.events import (
    CheckersPlayed,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    GameStarted,
    GameWon,
    MatchEvent,
    MatchStarted,
    MatchWon,
    OpeningRollMade,
    ResignationAccepted,
    ResignationOffered,
    RollVoided,
)
from bgledger.projections.state.fold import Crawford, Phase
from bgledger.rules.errors import InvalidDiceError, InvalidNotationError, InvalidPlayError
from bgledger.rules.profiles import UnknownProfileError
from bgledger.rules.results import InvalidResultError
from bgledger.store.application import MatchStore
from tests.conftest import board, unique_id

BY = "kim"
T0 = "2026-11-21T10:00:00+00:00"
PAST = "2000-01-01T00:00:00+00:00"
"""Earlier than any match started now."""
S16 = "usbgf-2016"


# -- helpers ----------------------------------------------------------------------------------


def new_match(length: int = 3, profile: str = "usbgf-2016", *lines: str) -> Match:
    """A match Ann (a) v Bob (b) with ``lines`` played; nothing pending."""
    match_id = unique_id("m")
    match = Match.start(
        match_uuid(match_id), match_id, ("Ann", "Bob"), length, profile=profile, by=BY
    )
    play(match, *lines)
    return match


def play(match: Match, *lines: str) -> list[MatchEvent]:
    """Apply record-language ``lines``; the events they recorded (the pending list is emptied)."""
    match.collect_events()
    for line in lines:
        parse(line).run(match, BY)
    return match.collect_events()


def set_board(match: Match, a: Mapping[int, int], b: Mapping[int, int]) -> Match:
    """The match with the checkers replaced: ``{point: n}`` in each side's own numbering.

    Points not listed are empty; what is missing from 15 is borne off.
    """
    position = board(a, b)
    state = replace(match.state, board=(position.mover, position.opponent))
    return Match(match.id, match.version, state)


def refused(
    match: Match, error: type[Exception], rule: str | None, action: Callable[[], object]
) -> Exception:
    """Run ``action``: it must raise ``error`` citing ``rule`` and record nothing."""
    match.collect_events()
    version, state = match.version, match.state
    with pytest.raises(error) as caught:
        action()
    if rule is not None:
        assert str(caught.value).endswith(f"({rule})"), str(caught.value)
        assert isinstance(caught.value, ActionRefusedError)
        assert caught.value.rule == rule
    assert match.version == version
    assert match.state == state
    assert match.collect_events() == []
    return caught.value


def acting(text: str) -> Callable[[Match], None]:
    """A record-language action as a :meth:`MatchStore.act` command."""
    action = parse(text)
    return lambda match: action.run(match, BY)


def line(match: Match, text: str) -> Callable[[], object]:
    """A deferred record-language action, for :func:`refused`."""
    return lambda: parse(text).run(match, BY)


# Bob on roll after Ann's opening 3-1 (events: MatchStarted, GameStarted, opening, play).
BOB_ON_ROLL = ("opening 3 1", "move 8/5 6/5")
# Ann on roll after Bob's opening 3-1.
ANN_ON_ROLL = ("opening 1 3", "move 8/5 6/5")
# Ann doubles, Bob drops: Ann wins one point (6 events, GameStarted to GameWon).
ANN_WINS_A_POINT = (*ANN_ON_ROLL, "double", "drop")
# Bob has rolled 6-5 after Ann's opening 3-1.
ROLLED = (*BOB_ON_ROLL, "roll 6 5")
# Bob concedes a gammon at once (the online profile allows it): 2 points to Ann.
GAMMON_CONCEDED = (*BOB_ON_ROLL, "resign gammon", "accept")


# -- sequence: what may happen when -----------------------------------------------------------


def test_no_roll_while_a_double_is_pending() -> None:
    match = new_match(3, "usbgf-2016", *BOB_ON_ROLL, "double")
    assert match.state.phase is Phase.DOUBLED
    error = refused(match, OutOfTurnError, "USBGF 4.4.4", line(match, "roll 6 5"))
    assert "Bob has doubled to 2: Ann takes or drops" in str(error)


def test_no_play_before_the_roll() -> None:
    match = new_match(3, "usbgf-2016", *BOB_ON_ROLL)
    error = refused(match, OutOfTurnError, "USBGF Appendix B", line(match, "move 13/7 13/8"))
    assert "Bob is on roll" in str(error)


def test_no_double_after_rolling() -> None:
    match = new_match(3, "usbgf-2016", *BOB_ON_ROLL, "roll 6 5")
    error = refused(match, OutOfTurnError, "USBGF 4.4.2", line(match, "double"))
    assert "rolled 6-5" in str(error)


def test_no_double_after_a_voided_roll_but_the_reroll_is_recorded() -> None:
    match = new_match(3, "usbgf-2016", *BOB_ON_ROLL, "roll 6 5")
    events = play(match, "void-roll cocked")
    assert [type(e) for e in events] == [RollVoided]
    voided = events[0]
    assert isinstance(voided, RollVoided)
    assert (voided.player, voided.reason, voided.rule) == ("b", "cocked", "USBGF 4.1.4.1")
    assert (match.state.phase, match.state.turn, match.state.dice) == (Phase.REROLL, "b", None)
    refused(match, OutOfTurnError, "USBGF 4.4.2", line(match, "double"))
    play(match, "roll 4 2")
    rerolled = match.state
    assert (rerolled.phase, rerolled.turn, rerolled.dice) == (Phase.PLAY, "b", (4, 2))


def test_a_voided_opening_roll_is_rolled_again_as_an_opening_roll() -> None:
    match = new_match(3, "usbgf-2016", "opening 3 1")
    play(match, "void-roll die-on-die")
    assert (match.state.phase, match.state.turn, match.state.dice) == (Phase.OPENING, None, None)
    events = play(match, "opening 2 5")
    assert [type(e) for e in events] == [OpeningRollMade]
    assert (match.state.turn, match.state.dice, match.state.game) == ("b", (5, 2), 1)


def test_void_roll_with_an_unknown_reason_lists_the_codes() -> None:
    match = new_match(3, "usbgf-2016", *BOB_ON_ROLL, "roll 6 5")
    error = refused(match, InvalidVoidReasonError, None, lambda: match.void_roll("sneezed", by=BY))
    assert isinstance(error, RulesError)
    text = str(error)
    assert "'sneezed'" in text
    assert "USBGF 4.1.4" in text
    for code in ("wrong-side", "cocked", "die-on-die", "off-board", "baffle-box-side"):
        assert code in text


def test_online_profile_has_no_void_reasons() -> None:
    match = new_match(3, "online", *BOB_ON_ROLL, "roll 6 5")
    error = refused(match, InvalidVoidReasonError, None, lambda: match.void_roll("cocked", by=BY))
    assert "the server rolls" in str(error)


def test_opening_tie_is_recorded_and_rolled_again() -> None:
    match = new_match(3)
    events = play(match, "opening 4 4")
    assert [type(e) for e in events] == [GameStarted, OpeningRollMade]
    assert (match.state.phase, match.state.turn, match.state.game) == (Phase.OPENING, None, 1)
    # A second tie, then Bob's 5 beats Ann's 2: still one game, Bob moves 5-2.
    events = play(match, "opening 4 4", "opening 2 5")
    assert [type(e) for e in events] == [OpeningRollMade, OpeningRollMade]
    assert (match.state.phase, match.state.turn, match.state.dice) == (Phase.PLAY, "b", (5, 2))
    assert match.version == 5
    refused(match, OutOfTurnError, "USBGF Appendix B", line(match, "opening 6 1"))


# -- the cube ---------------------------------------------------------------------------------


def test_take_gives_the_cube_to_the_taker_who_alone_may_redouble() -> None:
    match = new_match(5, "usbgf-2016", *BOB_ON_ROLL, "double")
    events = play(match, "take")
    assert len(events) == 1
    taken = events[0]
    assert isinstance(taken, CubeTaken)
    assert (taken.player, taken.value) == ("a", 2)
    state = match.state
    assert (state.cube, state.cube_owner, state.offer) == (2, "a", None)
    assert (state.phase, state.turn) == (Phase.ROLL, "b")
    # Bob turned the cube: it is Ann's now.
    error = refused(match, CubeActionRefusedError, "USBGF 4.4.2", line(match, "double"))
    assert "Ann owns the cube at 2" in str(error)
    # Ann, on her turn, redoubles to 4.
    events = play(match, "roll 6 5", "move 13/7 13/8", "double")
    offered = events[-1]
    assert isinstance(offered, CubeOffered)
    assert (offered.player, offered.value, offered.legal) == ("a", 4, True)
    assert match.state.flagged == ()


def test_drop_scores_the_cube_value_before_the_double() -> None:
    match = new_match(5, "usbgf-2016", *BOB_ON_ROLL, "double", "take")
    # Ann owns the cube at 2 and redoubles to 4; Bob passes: Ann wins 2, not 4.
    events = play(match, "roll 6 5", "move 13/7 13/8", "double", "drop")
    assert [type(e) for e in events[-2:]] == [CubeDropped, GameWon]
    dropped, won = events[-2:]
    assert isinstance(dropped, CubeDropped) and isinstance(won, GameWon)
    assert (dropped.player, dropped.value) == ("b", 4)
    assert (won.winner, won.result, won.cube, won.points, won.how) == ("a", "single", 2, 2, "drop")
    assert match.state.score == (2, 0)
    assert match.state.phase is Phase.BETWEEN_GAMES
    # The next game starts with the cube in the middle.
    play(match, "opening 3 1")
    assert (match.state.cube, match.state.cube_owner, match.state.game) == (1, None, 2)


def test_dead_cube_when_the_cube_value_already_wins_the_match() -> None:
    # 2-point match at 0-0: Bob doubles, Ann takes; at 2 Ann wins the match by winning the game.
    match = new_match(2, "usbgf-2016", *BOB_ON_ROLL, "double", "take", "roll 6 5")
    play(match, "move 13/7 13/8")
    assert (match.state.turn, match.state.cube_owner, match.state.cube) == ("a", "a", 2)
    error = refused(match, CubeActionRefusedError, "USBGF 4.4.9", line(match, "double"))
    assert "the cube is dead" in str(error)
    # Turned at the board, it is recorded and flagged with the rule.
    events = play(match, "double --as-played")
    offered = events[0]
    assert isinstance(offered, CubeOffered)
    assert (offered.value, offered.legal, offered.rule) == (4, False, "USBGF 4.4.9")
    assert match.state.flagged == (offered.originator_version,)
    assert offered.originator_version == 9


def test_no_initial_double_in_a_one_point_match() -> None:
    match = new_match(1, "usbgf-2016", *BOB_ON_ROLL)
    refused(match, CubeActionRefusedError, "USBGF 4.4.9", line(match, "double"))


def crawford_game() -> Match:
    """A 3-point match at 2-0 to Ann, in the Crawford game, Ann on roll (version 16)."""
    match = new_match(3, "usbgf-2016", *ANN_WINS_A_POINT)
    assert (match.state.score, match.state.crawford) == ((1, 0), Crawford.PRE)
    play(match, *ANN_WINS_A_POINT)
    assert (match.state.score, match.state.crawford) == ((2, 0), Crawford.CRAWFORD)
    play(match, *ANN_ON_ROLL)
    assert (match.state.game, match.state.turn, match.version) == (3, "a", 16)
    return match


def test_crawford_game_has_no_cube_for_either_player() -> None:
    match = crawford_game()
    error = refused(match, CubeActionRefusedError, "USBGF 4.4.6", line(match, "double"))
    assert "Crawford game" in str(error)
    play(match, "roll 6 5", "move 24/13")
    assert match.state.turn == "b"
    refused(match, CubeActionRefusedError, "USBGF 4.4.6", line(match, "double"))


def test_crawford_double_made_at_the_board_is_recorded_and_flagged() -> None:
    match = crawford_game()
    events = play(match, "double --as-played")
    offered = events[0]
    assert isinstance(offered, CubeOffered)
    assert (offered.player, offered.value, offered.legal) == ("a", 2, False)
    assert offered.rule == "USBGF 4.4.6"
    assert offered.reason is not None and "Crawford" in offered.reason
    assert match.state.flagged == (17,)
    assert match.state.phase is Phase.DOUBLED


def bob_on_roll_in_crawford_game() -> Match:
    match = crawford_game()
    play(match, "roll 6 5", "move 24/13")
    return match


def test_gammon_counts_in_the_crawford_game() -> None:
    # Bob bears off his last checker; Ann has borne off none: a gammon, 2 points at cube 1.
    match = set_board(bob_on_roll_in_crawford_game(), {6: 5, 5: 5, 4: 5}, {1: 1})
    events = play(match, "roll 2 1", "move 1/off")
    won = events[-1]
    assert isinstance(won, GameWon)
    assert (won.winner, won.result, won.cube, won.points, won.how) == (
        "b",
        "gammon",
        1,
        2,
        "played",
    )
    assert match.state.score == (2, 2)
    assert match.state.games[-1].crawford is True
    assert match.state.crawford is Crawford.POST
    assert match.state.winner is None


def test_post_crawford_double_allowed_for_the_trailer_refused_for_the_leader() -> None:
    # Bob wins the Crawford game single (Ann has 2 off): 2-1, post-Crawford.
    match = set_board(bob_on_roll_in_crawford_game(), {6: 5, 5: 5, 4: 3}, {1: 1})
    play(match, "roll 2 1", "move 1/off")
    assert (match.state.score, match.state.crawford) == ((2, 1), Crawford.POST)
    play(match, *ANN_ON_ROLL)
    # Ann needs 1 point: winning this game at 1 wins the match; the cube is dead for her.
    error = refused(match, CubeActionRefusedError, "USBGF 4.4.9", line(match, "double"))
    assert "the cube is dead" in str(error)
    events = play(match, "roll 6 5", "move 24/13", "double")
    offered = events[-1]
    assert isinstance(offered, CubeOffered)
    assert (offered.player, offered.value, offered.legal) == ("b", 2, True)
    assert match.state.games[-1].crawford is True
    assert match.state.flagged == ()


# -- the end of a game and of the match -------------------------------------------------------


@pytest.mark.parametrize(
    ("bob", "cube", "result", "points"),
    [
        pytest.param({6: 5, 5: 5, 4: 3}, 1, "single", 1, id="single: Bob has 2 off"),
        pytest.param({6: 5, 5: 5, 4: 5}, 1, "gammon", 2, id="gammon: none off"),
        pytest.param({6: 5, 5: 5, 4: 5}, 2, "gammon", 4, id="gammon at cube 2"),
        pytest.param({6: 5, 5: 5, 4: 4, 19: 1}, 1, "backgammon", 3, id="backgammon: in Ann's home"),
        pytest.param({6: 5, 5: 5, 4: 4, 25: 1}, 2, "backgammon", 6, id="backgammon: on the bar"),
    ],
)
def test_game_ends_when_the_last_checker_is_borne_off(
    bob: dict[int, int], cube: int, result: str, points: int
) -> None:
    match = new_match(7, "usbgf-2016", *ANN_ON_ROLL)
    if cube == 2:
        play(match, "double", "take", "roll 6 5", "move 13/7 13/8")
        play(match, "roll 3 1", "move 8/5 6/5")
    assert (match.state.turn, match.state.cube) == ("a", cube)
    match = set_board(match, {1: 1}, bob)
    events = play(match, "roll 2 1", "move 1/off")
    assert [type(e) for e in events] == [DiceRolled, CheckersPlayed, GameWon]
    won = events[-1]
    assert isinstance(won, GameWon)
    assert (won.number, won.winner, won.result, won.cube) == (1, "a", result, cube)
    assert (won.points, won.how) == (points, "played")
    assert match.state.score == (points, 0)
    assert match.state.board[0][0] == 15
    assert match.state.phase is Phase.BETWEEN_GAMES


def test_bearing_off_with_checkers_left_does_not_end_the_game() -> None:
    match = set_board(new_match(3, "usbgf-2016", *ANN_ON_ROLL), {6: 1, 3: 1}, {6: 15})
    events = play(match, "roll 3 1", "move 6/5 3/off")
    assert [type(e) for e in events] == [DiceRolled, CheckersPlayed]
    assert (match.state.phase, match.state.turn, match.state.score) == (Phase.ROLL, "b", (0, 0))
    assert (match.state.board[0][0], match.state.board[0][5]) == (14, 1)


def won_one_point_match() -> Match:
    """A 1-point match Ann has just won by bearing off (single: Bob has 5 off)."""
    match = set_board(new_match(1, "usbgf-2016", *ANN_ON_ROLL), {3: 1}, {6: 10})
    events = play(match, "roll 3 3", "move 3/off")
    assert [type(e) for e in events] == [DiceRolled, CheckersPlayed, GameWon, MatchWon]
    won = events[-1]
    assert isinstance(won, MatchWon)
    assert (won.winner, won.score_a, won.score_b) == ("a", 1, 0)
    return match


def test_match_ends_at_its_length() -> None:
    match = won_one_point_match()
    state = match.state
    assert (state.phase, state.winner, state.score) == (Phase.OVER, "a", (1, 0))
    assert match.version == 8


def test_match_ends_when_a_resignation_reaches_the_length() -> None:
    # online: Bob concedes a gammon at once; 2 points in a 2-point match.
    match = new_match(2, "online", *BOB_ON_ROLL)
    events = play(match, "resign gammon", "accept")
    assert [type(e) for e in events] == [
        ResignationOffered,
        ResignationAccepted,
        GameWon,
        MatchWon,
    ]
    assert (match.state.score, match.state.winner, match.state.phase) == ((2, 0), "a", Phase.OVER)


@pytest.mark.parametrize(
    "action",
    [
        "opening 3 1",
        "roll 6 5",
        "move 13/7 13/8",
        "double",
        "take",
        "drop",
        "resign single",
        "accept",
        "reject",
        "void-roll cocked",
    ],
)
def test_nothing_is_allowed_after_the_match_is_over(action: str) -> None:
    match = won_one_point_match()
    error = refused(match, MatchOverError, "ABT 4.9", line(match, action))
    assert "the match is over: Ann won (Ann 1, Bob 0)" in str(error)


# -- concessions ------------------------------------------------------------------------------


def test_resignation_refused_in_a_contact_position_under_usbgf_2016() -> None:
    match = new_match(3, "usbgf-2016", *BOB_ON_ROLL)
    error = refused(match, ResignationRefusedError, "USBGF 4.5", line(match, "resign single"))
    assert "non-contact" in str(error)


def test_resignation_allowed_in_a_race_under_usbgf_2016() -> None:
    # No contact: Bob's checkers are all past Ann's.
    match = set_board(new_match(3, "usbgf-2016", *BOB_ON_ROLL), {6: 5, 5: 5}, {6: 8, 1: 2})
    assert not match.state.position.is_contact()
    events = play(match, "resign single b", "accept")
    offered = events[0]
    assert isinstance(offered, ResignationOffered)
    assert (offered.player, offered.level, offered.legal) == ("b", "single", True)
    assert match.state.score == (1, 0)


def test_resignation_allowed_in_contact_under_online_profile() -> None:
    match = new_match(3, "online", *BOB_ON_ROLL)
    events = play(match, "resign backgammon")
    offered = events[0]
    assert isinstance(offered, ResignationOffered)
    assert (offered.player, offered.level, offered.legal) == ("b", "backgammon", True)
    assert (match.state.phase, match.state.actor) == (Phase.RESIGNED, "a")


def test_accepted_resignation_scores_level_times_cube() -> None:
    match = new_match(5, "online", *BOB_ON_ROLL, "double", "take")
    events = play(match, "resign gammon", "accept")
    won = events[-1]
    assert isinstance(won, GameWon)
    assert (won.winner, won.result, won.cube, won.points, won.how) == (
        "a",
        "gammon",
        2,
        4,
        "resign",
    )
    assert match.state.score == (4, 0)
    assert match.state.crawford is Crawford.CRAWFORD


def test_rejected_resignation_resumes_where_play_stopped() -> None:
    match = new_match(3, "online", *BOB_ON_ROLL, "roll 6 5")
    play(match, "resign single", "reject")
    state = match.state
    assert (state.phase, state.turn, state.dice, state.resignation) == (
        Phase.PLAY,
        "b",
        (6, 5),
        None,
    )
    assert state.score == (0, 0)
    play(match, "move 13/7 13/8")
    assert match.state.turn == "a"


# -- plays ------------------------------------------------------------------------------------


def test_illegal_play_refused_without_as_played() -> None:
    match = new_match(3, "usbgf-2016", *BOB_ON_ROLL, "roll 6 5")
    error = refused(match, IllegalPlayRefusedError, "USBGF 4.2.3(a)", line(match, "move 13/7"))
    assert "does not use both dice" in str(error)
    assert "--as-played" in str(error)


def test_illegal_play_recorded_and_flagged_with_as_played() -> None:
    match = new_match(3, "usbgf-2016", *BOB_ON_ROLL, "roll 6 5")
    events = play(match, "move 13/7 --as-played")
    played = events[0]
    assert isinstance(played, CheckersPlayed)
    assert (played.player, played.play, played.legal) == ("b", "13/7", False)
    assert played.rule == "USBGF 4.2.3(a)"
    assert played.reason is not None and "both dice" in played.reason
    assert played.originator_version == 6
    assert match.state.flagged == (6,)
    assert (match.state.turn, match.state.phase) == ("a", Phase.ROLL)
    # Bob's 13-point (Ann's 12 from her side) lost one checker, his 7 (Ann's 18) gained one.
    assert (match.state.board[1][13], match.state.board[1][7]) == (4, 1)


def test_a_roll_with_no_legal_play_records_the_dance_and_passes_the_turn() -> None:
    # Ann has a checker on the bar; Bob holds all six points of his home board.
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    match = set_board(new_match(3, "usbgf-2016", *ANN_ON_ROLL), {25: 1, 6: 5, 8: 3, 13: 6}, closed)
    version = match.version
    match.collect_events()
    assert match.roll(6, 5, by=BY) is True
    events = match.collect_events()
    assert [type(e) for e in events] == [DiceRolled, CheckersPlayed]
    danced = events[1]
    assert isinstance(danced, CheckersPlayed)
    assert (danced.player, danced.play, danced.legal) == ("a", "", True)
    assert match.version == version + 2
    assert (match.state.turn, match.state.phase, match.state.dice) == ("b", Phase.ROLL, None)
    assert match.state.board[0][25] == 1


def test_a_danced_roll_can_still_be_voided_and_the_same_player_rolls_again() -> None:
    # USBGF 4.1.4: an invalid roll is rolled again, even one that could not be played.
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    match = set_board(new_match(3, "usbgf-2016", *ANN_ON_ROLL), {25: 1, 6: 5, 8: 3, 13: 6}, closed)
    assert match.roll(6, 5, by=BY) is True
    match.void_roll("cocked", by=BY)
    assert (match.state.turn, match.state.phase, match.state.dice) == ("a", Phase.REROLL, None)
    voided = match.collect_events()[-1]
    assert isinstance(voided, RollVoided) and voided.player == "a"
    refused(match, OutOfTurnError, "USBGF 4.4.2", lambda: match.double(by=BY))
    rolled_again = match.collect_events()
    assert match.roll(1, 2, by=BY) is True  # Ann rolls again (and dances again: Bob is closed)
    rerolled = match.collect_events()[0]
    assert isinstance(rerolled, DiceRolled) and rerolled.player == "a"
    assert rolled_again == [] and match.state.turn == "b"


def test_only_the_latest_dance_can_be_voided() -> None:
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    match = set_board(new_match(3, "usbgf-2016", *ANN_ON_ROLL), {25: 1, 6: 5, 8: 3, 13: 6}, closed)
    match.roll(6, 5, by=BY)
    match.roll(6, 5, by=BY)  # Bob rolls: the dance is no longer the last thing recorded
    match.move("13/7 13/8", by=BY)
    refused(match, OutOfTurnError, "USBGF 4.1.4", lambda: match.void_roll("cocked", by=BY))


def test_a_roll_with_a_legal_play_waits_for_the_play() -> None:
    match = new_match(3, "usbgf-2016", *BOB_ON_ROLL)
    assert match.roll(6, 5, by=BY) is False
    assert [type(e) for e in match.collect_events()] == [DiceRolled]


@pytest.mark.parametrize(
    ("setup", "action", "error"),
    [
        ((), "opening 7 1", InvalidDiceError),
        ((), "opening 0 3", InvalidDiceError),
        (BOB_ON_ROLL, "roll 6 7", InvalidDiceError),
        (ROLLED, "move x/y", InvalidNotationError),
        (ROLLED, "move 13/8 13", InvalidNotationError),
        (ROLLED, "move 20/14 20/15", InvalidPlayError),
        (BOB_ON_ROLL, "resign double", InvalidResultError),
    ],
)
def test_bad_input_is_a_rules_error_and_records_nothing(
    setup: tuple[str, ...], action: str, error: type[RulesError]
) -> None:
    match = new_match(3, "online", *setup)
    caught = refused(match, error, None, line(match, action))
    assert isinstance(caught, RulesError)


# -- times ------------------------------------------------------------------------------------


def timed_match() -> Match:
    match_id = unique_id("t")
    match = Match.start(match_uuid(match_id), match_id, ("Ann", "Bob"), 3, by=BY, at=T0)
    play(match, "@2026-11-21T10:05:00+00:00 opening 3 1")
    return match


def test_times_going_backwards_are_refused() -> None:
    match = timed_match()
    error = refused(
        match, InvalidTimeError, None, line(match, "@2026-11-21T10:04:59+00:00 move 8/5 6/5")
    )
    assert "before the match's last event" in str(error)
    # 10:59 at +01:00 is 09:59 UTC: also earlier.
    refused(match, InvalidTimeError, None, line(match, "@2026-11-21T10:59:00+01:00 move 8/5 6/5"))
    refused(match, InvalidTimeError, None, line(match, "@yesterday move 8/5 6/5"))


def test_the_same_instant_in_another_offset_is_not_going_backwards() -> None:
    match = timed_match()
    events = play(match, "@2026-11-21T11:05:00+01:00 move 8/5 6/5")
    assert events[0].at == "2026-11-21T11:05:00+01:00"
    assert match.state.last_at == "2026-11-21T11:05:00+01:00"


# -- starting a match -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("match_id", "names", "length", "profile", "error"),
    [
        ("ok-1", ("Ann", "Bob"), 0, "usbgf-2016", InvalidMatchSetupError),
        ("ok-2", ("Ann", "Bob"), 1000, "usbgf-2016", InvalidMatchSetupError),
        ("ok-3", ("Ann", " ann "), 5, "usbgf-2016", InvalidMatchSetupError),
        ("ok-4", ("Ann", "  "), 5, "usbgf-2016", InvalidMatchSetupError),
        ("bad id", ("Ann", "Bob"), 5, "usbgf-2016", InvalidMatchSetupError),
        ("-dash", ("Ann", "Bob"), 5, "usbgf-2016", InvalidMatchSetupError),
        ("ok-5", ("Ann", "Bob"), 5, "usbgf-2099", UnknownProfileError),
    ],
)
def test_start_validation(
    match_id: str, names: tuple[str, str], length: int, profile: str, error: type[RulesError]
) -> None:
    with pytest.raises(error) as caught:
        Match.start(match_uuid(match_id), match_id, names, length, profile=profile, by=BY)
    assert isinstance(caught.value, RulesError)


def test_start_records_the_setup() -> None:
    match_id = unique_id("s")
    match = Match.start(
        match_uuid(match_id), match_id, (" Ann ", "Bob"), 7, event="Open", round="R1", by=BY
    )
    events = match.collect_events()
    assert len(events) == 1
    started = events[0]
    assert isinstance(started, MatchStarted)
    assert (started.player_a, started.player_b, started.length) == ("Ann", "Bob", 7)
    assert (started.profile, started.crawford, started.event, started.round) == (
        "usbgf-2016",
        True,
        "Open",
        "R1",
    )
    state = match.state
    assert (state.score, state.game, state.phase, state.events) == (
        (0, 0),
        0,
        Phase.BETWEEN_GAMES,
        1,
    )


# -- through the MatchStore: stored, refused, looked up -------------------------------------------


@pytest.fixture
def ledger(store_url: str) -> MatchStore:
    return MatchStore(store_url)


def ledger_match(ledger: MatchStore, length: int, profile: str, *lines: str) -> str:
    match_id = ledger.start(("Ann", "Bob"), length, match_id=unique_id("l"), profile=profile, by=BY)
    for text in lines:
        ledger.act(match_id, acting(text))
    return match_id


@pytest.mark.parametrize(
    ("length", "profile", "setup", "action", "error"),
    [
        pytest.param(3, S16, (*BOB_ON_ROLL, "double"), "roll 6 5", OutOfTurnError, id="pending"),
        pytest.param(3, S16, BOB_ON_ROLL, "move 13/7 13/8", OutOfTurnError, id="unrolled"),
        pytest.param(3, S16, ROLLED, "double", OutOfTurnError, id="rolled"),
        pytest.param(1, S16, BOB_ON_ROLL, "double", CubeActionRefusedError, id="dead-cube"),
        pytest.param(3, S16, ROLLED, "move 13/7", IllegalPlayRefusedError, id="illegal"),
        pytest.param(3, S16, BOB_ON_ROLL, "resign single", ResignationRefusedError, id="resign"),
        pytest.param(3, S16, ROLLED, "void-roll sneezed", InvalidVoidReasonError, id="void"),
        pytest.param(3, S16, BOB_ON_ROLL, "roll 6 7", InvalidDiceError, id="die"),
        pytest.param(3, S16, ROLLED, "move x/y", InvalidNotationError, id="notation"),
        pytest.param(3, S16, ROLLED, "move 20/14 20/15", InvalidPlayError, id="empty-point"),
        pytest.param(3, S16, BOB_ON_ROLL, f"@{PAST} roll 6 5", InvalidTimeError, id="time"),
        pytest.param(2, "online", GAMMON_CONCEDED, "opening 3 1", MatchOverError, id="over"),
    ],
)
def test_ledger_stores_nothing_for_a_refused_action(
    ledger: MatchStore,
    store_url: str,
    length: int,
    profile: str,
    setup: tuple[str, ...],
    action: str,
    error: type[Exception],
) -> None:
    match_id = ledger_match(ledger, length, profile, *setup)
    before = ledger.history(match_id)
    with pytest.raises(error):
        ledger.act(match_id, acting(action))
    assert len(ledger.history(match_id)) == len(before)
    fresh = MatchStore(store_url)
    assert len(fresh.history(match_id)) == len(before)
    assert fresh.state(match_id).events == len(before)


def test_duplicate_match_id_is_refused_and_the_first_match_kept(
    ledger: MatchStore, store_url: str
) -> None:
    match_id = ledger_match(ledger, 3, "usbgf-2016", *BOB_ON_ROLL)
    with pytest.raises(MatchExistsError) as caught:
        ledger.start(("Cy", "Dee"), 5, match_id=match_id, by=BY)
    assert repr(match_id) in str(caught.value)
    fresh = MatchStore(store_url)
    assert len(fresh.history(match_id)) == 4
    assert fresh.state(match_id).players == ("Ann", "Bob")
    assert fresh.state(match_id).length == 3


def test_bad_setup_stores_no_match(ledger: MatchStore) -> None:
    match_id = unique_id("bad")
    with pytest.raises(InvalidMatchSetupError):
        ledger.start(("Ann", "Ann"), 3, match_id=match_id, by=BY)
    assert match_id not in ledger.match_ids()
    with pytest.raises(MatchNotFoundError):
        ledger.history(match_id)


def test_unknown_match_is_not_found(ledger: MatchStore) -> None:
    missing = unique_id("missing")
    with pytest.raises(MatchNotFoundError):
        ledger.act(missing, lambda m: m.opening(3, 1, by=BY))
    with pytest.raises(MatchNotFoundError):
        ledger.state(missing)
    with pytest.raises(MatchNotFoundError):
        ledger.history(missing)
    assert missing not in ledger.match_ids()


def test_state_at_gives_the_state_after_that_event(ledger: MatchStore) -> None:
    match_id = ledger_match(ledger, 3, "usbgf-2016", *BOB_ON_ROLL, "double", "take")
    assert ledger.state(match_id).events == 6
    first = ledger.state(match_id, at=1)
    assert (first.phase, first.game, first.events) == (Phase.BETWEEN_GAMES, 0, 1)
    opened = ledger.state(match_id, at=3)
    assert (opened.phase, opened.turn, opened.dice, opened.events) == (Phase.PLAY, "a", (3, 1), 3)
    doubled = ledger.state(match_id, at=5)
    assert (doubled.phase, doubled.offer, doubled.cube) == (Phase.DOUBLED, 2, 1)
    taken = ledger.state(match_id, at=6)
    assert (taken.phase, taken.cube, taken.cube_owner) == (Phase.ROLL, 2, "a")
    for beyond in (0, 7):
        with pytest.raises(MatchNotFoundError):
            ledger.state(match_id, at=beyond)
