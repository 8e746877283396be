"""Breaks and penalty points (USBGF 2.2.2-2.2.4): refusals and rules, on matches in memory.

Each refusal is checked for its exception, the rule its message cites, and
that nothing was recorded.  The break transcripts
(tests/test_clock_scenarios.py) cover the refusals met in play; these are
the rest.  Points and minutes are worked out by hand.
"""

from __future__ import annotations

from typing import Any

import pytest
from timeline import at, play_lines, refused

from bgledger.commands import breaks
from bgledger.commands.language import InvalidActionError
from bgledger.commands.match import Match, match_uuid
from bgledger.errors import (
    ActionRefusedError,
    BreakRefusedError,
    InvalidClockError,
    PenaltyRefusedError,
)
from bgledger.events import MatchWon, PenaltyPointsAssessed
from bgledger.projections.state.breaks import allowance, minutes_between
from bgledger.projections.state.fold import Crawford

BY = "td"


def new(length: int = 5, **setup: Any) -> Match:
    """A match in memory, set up at 10:00:00."""
    return Match.start(
        match_uuid("b"), "b", ("Ann", "Bob"), length, by=BY, at=at("10:00:00"), **setup
    )


def play(match: Match, *lines: str) -> None:
    """``record`` lines, each ``HH:MM:SS action``."""
    play_lines(match, BY, *lines)


# -- the allowance (USBGF 2.2.2) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "allowed"),
    [(1, 1), (7, 1), (9, 1), (10, 1), (11, 2), (13, 2), (14, 2), (15, 3), (19, 3), (20, 4)],
)
def test_breaks_per_match_length(length: int, allowed: int) -> None:
    # 9 or less: one; 11-13: two; 15-19: three; longer than 19: four; 10 and 14, which the
    # rule does not name, get the band below.
    assert allowance("usbgf-2016", length) == allowed


def test_no_breaks_without_break_rules() -> None:
    assert allowance("classic", 9) is None
    match = Match.start(
        match_uuid("k"), "k", ("Ann", "Bob"), 9, by=BY, profile="classic", at=at("10:00:00")
    )
    message = refused(
        match, BreakRefusedError, "USBGF 2.2.2", lambda: match.start_break(("a",), by=BY)
    )
    assert "profile classic allots no breaks" in message
    refused(match, BreakRefusedError, "USBGF 2.2.2", lambda: match.end_break(by=BY))
    lateness = refused(
        match,
        PenaltyRefusedError,
        "USBGF 2.2.4",
        lambda: match.late("b", by=BY, at=at("10:30:00")),
    )
    assert "no lateness rules" in lateness


def test_whole_minutes_between() -> None:
    assert minutes_between(0, 59_999) == 0
    assert minutes_between(0, 60_000) == 1
    assert minutes_between(60_000, 0) == 0


def test_both_players_combining_two_breaks_each() -> None:
    # An 11-point match: two each.  Both combine both of theirs: 4 x 5 = 20 minutes.
    match = new(11)
    started = match.start_break(("a", "b"), combine=2, by=BY, at=at("10:00:00"))
    assert (started.players, started.breaks, started.minutes) == (["a", "b"], 2, 20)
    assert match.state.breaks.open is not None
    assert match.state.breaks.open.ends_ms - match.state.breaks.open.start_ms == 20 * 60_000
    assert match.state.breaks.used == (2, 2)


@pytest.mark.parametrize(
    "players",
    [("c",), (), ("a", "x")],
)
def test_a_break_by_nobody_or_a_stranger_is_invalid(players: tuple[str, ...]) -> None:
    match = new()
    refused(match, InvalidClockError, None, lambda: match.start_break(players, by=BY))


def test_no_break_after_the_match() -> None:
    match = new(1)
    play(match, '10:01:00 penalty b 1 "USBGF 2.2.4" left the board')  # Ann reaches 1
    assert match.state.winner == "a"
    message = refused(
        match, BreakRefusedError, "USBGF 2.2.2", lambda: match.start_break(("a",), by=BY)
    )
    assert "the match is over" in message


@pytest.mark.parametrize("length", [3, 5, 7])
def test_best_of_three_to_seven_or_less_breaks_only_between_matches(length: int) -> None:
    match = new(length, meta={breaks.BEST_OF_THREE: "yes"})
    message = refused(
        match,
        BreakRefusedError,
        "USBGF 2.2.2",
        lambda: match.start_break(("a",), by=BY, at=at("10:00:00")),
    )
    assert "only between matches" in message
    # The director may make an exception (USBGF 2.2.3).
    granted = match.start_break(("a",), exception="the player is unwell", by=BY, at=at("10:00:00"))
    assert granted.exception == "the player is unwell"


def test_best_of_three_to_nine_takes_breaks() -> None:
    match = new(9, meta={breaks.BEST_OF_THREE: "yes"})
    assert match.start_break(("a",), by=BY, at=at("10:00:00")).minutes == 5


def test_the_directors_exception_beyond_the_allowance() -> None:
    # USBGF 2.2.3: a 5-point match's one break, then a second by the director's exception.
    match = new(5)
    play(match, "10:00:00 break start a", "10:05:00 break end")
    refused(
        match,
        BreakRefusedError,
        "USBGF 2.2.2",
        lambda: match.start_break(("a",), by=BY, at=at("10:06:00")),
    )
    second = match.start_break(("a",), exception="special significance", by=BY, at=at("10:06:00"))
    assert second.exception == "special significance"
    assert match.state.breaks.used == (2, 0)


def test_a_break_end_naming_player_c_is_invalid() -> None:
    match = new()
    play(match, "10:00:00 break start a")
    refused(
        match,
        InvalidClockError,
        None,
        lambda: match.end_break(late="c", by=BY, at=at("10:30:00")),
    )


def test_no_game_action_while_the_players_are_on_a_break() -> None:
    match = new(9)
    play(match, "10:00:00 break start a")
    refused(match, ActionRefusedError, None, lambda: play(match, "10:01:00 opening 3 1"))


# -- lateness (USBGF 2.2.4) ----------------------------------------------------------------------


def test_lateness_counts_from_the_scheduled_time() -> None:
    # Set up at 10:00, due to start at 10:10; Bob arrives 10:26: 16 minutes late, 1 point
    # (from 10:00 it would be 26 minutes: 1 + 11 // 5 = 3).
    match = new(5)
    assessed = match.late("b", scheduled=at("10:10:00"), by=BY, at=at("10:26:00"))
    assert (assessed.points, assessed.minutes_late, assessed.kind) == (1, 16, "late-start")
    assert match.state.score == (1, 0)


def test_late_player_c_is_invalid() -> None:
    match = new()
    refused(match, InvalidClockError, None, lambda: match.late("c", by=BY))


def test_after_a_break_the_match_is_lost_only_at_the_opponents_length() -> None:
    # 5 points.  Ann's break 10:00-10:05.  At 10:35 she is 30 minutes late: 1 + 15 // 5 = 4
    # points, more than half the length, but after a break that forfeits nothing: 0-4.  At
    # 10:40, 35 minutes: 5 points, 1 more: 0-5, Bob's points reach the length: he wins.
    match = new(5)
    play(match, "10:00:00 break start a")
    assert match.late("a", by=BY, at=at("10:35:00")).points == 4
    assert match.state.score == (0, 4) and match.state.winner is None
    assert match.late("a", by=BY, at=at("10:40:00")).points == 1
    assert match.state.score == (0, 5) and match.state.winner == "b"
    won = match.collect_events()[-1]
    assert isinstance(won, MatchWon) and (won.score_a, won.score_b) == (0, 5)


def test_each_break_is_a_new_lateness_episode() -> None:
    # 11 points, two breaks each.  Ann 16 minutes late after her first: 1 point.  After her
    # second she is 16 minutes late again: 1 point again (not 1 minus the 1 already given).
    match = new(11)
    play(match, "10:00:00 break start a", "10:21:00 break end late a")
    play(match, "10:22:00 break start a", "10:43:00 break end late a")
    assert match.state.penalties == (2, 0) and match.state.score == (0, 2)


# -- penalty points (USBGF 2.2.4 and the director's others) --------------------------------------


@pytest.mark.parametrize(
    ("player", "points", "rule", "reason"),
    [
        ("c", 1, "USBGF 2.2.4", "x"),
        ("a", 0, "USBGF 2.2.4", "x"),
        ("a", 1, " ", "x"),
        ("a", 1, "USBGF 2.2.4", ""),
    ],
)
def test_invalid_penalties(player: str, points: int, rule: str, reason: str) -> None:
    match = new()
    refused(
        match,
        InvalidClockError,
        None,
        lambda: match.penalty(player, points, rule=rule, reason=reason, by=BY),
    )


@pytest.mark.parametrize(
    ("line", "rule", "reason"),
    [
        ('penalty a 1 "USBGF 2.2.4" Ann\'s phone rang', "USBGF 2.2.4", "Ann's phone rang"),
        ("penalty a 1 'USBGF 2.2.4' Ann's phone rang", "USBGF 2.2.4", "Ann's phone rang"),
        ('penalty a 1 "USBGF 2.2.4" "Ann\'s phone rang"', "USBGF 2.2.4", "Ann's phone rang"),
        ('penalty a 1 "USBGF 2.2.4" "a \\"loud\\" phone"', "USBGF 2.2.4", 'a "loud" phone'),
        ('penalty a 1 USBGF-2.2.4 it said "hello"', "USBGF-2.2.4", 'it said "hello"'),
    ],
)
def test_a_penalty_lines_reason_is_the_rest_of_the_line(line: str, rule: str, reason: str) -> None:
    """As ``--reason``: an apostrophe is no quotation; a quoted reason reads as before."""
    match = new()
    play(match, f"10:01:00 {line}")
    assessed = match.collect_events()[-1]
    assert isinstance(assessed, PenaltyPointsAssessed)
    assert (assessed.player, assessed.points) == ("a", 1)
    assert (assessed.rule, assessed.reason) == (rule, reason)


def test_a_penalty_rule_without_its_closing_quotation_is_refused() -> None:
    match = new()
    with pytest.raises(InvalidActionError, match="closing quotation"):
        play(match, '10:01:00 penalty a 1 "USBGF 2.2.4 left the board')
    assert match.state.penalties == (0, 0)


def test_penalty_points_between_games_can_make_the_next_game_crawford() -> None:
    # 5 points at 3-0: a point against Bob makes it 4-0, one away: the next game is the
    # Crawford game (USBGF 4.4.6).
    match = new(5, score=(3, 0))
    before = match.state
    assert before.crawford is Crawford.PRE
    match.penalty("b", 1, rule="USBGF 2.2.4", reason="left the board", by=BY)
    assert match.state.score == (4, 0)
    assert match.state.crawford is Crawford.CRAWFORD


def test_penalty_points_during_a_game_make_the_next_game_crawford() -> None:
    # 5 points at 0-0: during game 1 four points against Bob make Ann 4-0, one away.  Bob
    # then doubles and Ann passes: 4-1.  Ann reached one away in game 1: game 2 is the
    # Crawford game, and Bob may not double in it.
    match = new(5)
    play(match, "10:01:00 opening 3 1", "10:01:10 move 8/5 6/5")
    play(match, '10:01:20 penalty b 4 "USBGF 2.2.4" left the board')
    assert match.state.score == (4, 0) and match.state.winner is None
    play(match, "10:01:30 double", "10:01:40 drop")
    assert match.state.score == (4, 1)
    assert match.state.crawford is Crawford.CRAWFORD
    play(match, "10:02:00 opening 1 3", "10:02:10 move 8/5 6/5")
    refused(match, ActionRefusedError, "USBGF 4.4.6", lambda: match.double(by=BY))
