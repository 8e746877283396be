"""The game clock commands' refusals and settings, on matches in memory.

Each refusal is checked for its exception, the rule its message cites, and
that nothing was recorded (the match's version and state unchanged).  The
clock transcripts (tests/test_clock_scenarios.py) cover the refusals met in
play; these are the rest.  Figures are milliseconds, worked out by hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from timeline import at, play_lines, refused

from bgledger.cli.main import main
from bgledger.commands import clock
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import Ruling, RulingRefusedError
from bgledger.commands.vocabulary import Amend, Move, Opening, Roll, Undo, parse
from bgledger.errors import (
    BgLedgerError,
    ClockRefusedError,
    InvalidClockError,
    InvalidMatchSetupError,
    TimeNotExpiredError,
)
from bgledger.events import (
    ClockHit,
    ClockHitImplied,
    ClockSet,
    ClockStarted,
    DiceRolled,
    MatchEvent,
    TimeExpired,
)
from bgledger.projections.state.clock import at_ms, figures
from bgledger.projections.views.audit import history
from bgledger.service import Ledger

BY = "kim"


def new(length: int = 5, clock_mode: str = "simple-delay", **setup: Any) -> Match:
    """A match in memory, started at 10:00:00."""
    return Match.start(
        match_uuid("c"), "c", ("Ann", "Bob"), length, by=BY, clock=clock_mode,
        at=at("10:00:00"), **setup,
    )  # fmt: skip


def play(match: Match, *lines: str) -> None:
    """``record`` lines, each ``HH:MM:SS action``."""
    play_lines(match, BY, *lines)


# The opening 3-1: Ann moves first; Bob's lower die starts her clock with it (CLOCK 3.3).
OPENED = ("10:01:05 opening 3 1",)


# -- a match without a clock, a profile without clocks ------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        lambda m: m.hit(by=BY, at=at("10:02:00")),
        lambda m: m.stop_clock("dispute", by=BY, at=at("10:02:00")),
        lambda m: m.resume_clock(by=BY, at=at("10:02:00")),
        lambda m: m.read_clock((60_000, 60_000), by=BY, at=at("10:02:00")),
        lambda m: m.set_clock((60_000, 60_000), reason="x", by=BY, at=at("10:02:00")),
        lambda m: m.flag("a", by=BY, at=at("10:02:00")),
        lambda m: m.early_pickup("b", Ruling("director", "early", at=at("10:02:00"))),
    ],
    ids=["hit", "stop", "resume", "read", "set", "flag", "early-pickup"],
)
def test_no_clock_no_clock_commands(command: Callable[[Match], object]) -> None:
    match = new(clock_mode="none")
    play(match, "10:01:00 opening 3 1")
    message = refused(match, ClockRefusedError, "USBGF 3.5.5", lambda: command(match))
    assert "has no game clock" in message


def test_a_profile_without_clocks_refuses_one() -> None:
    match = Match.start(
        match_uuid("k"), "k", ("Ann", "Bob"), 5, by=BY, profile="classic", at=at("10:00:00")
    )
    message = refused(
        match, InvalidClockError, None, lambda: match.start_clock("simple-delay", by=BY)
    )
    assert "profile classic has no 'simple-delay' clock" in message
    with pytest.raises(InvalidMatchSetupError):
        Match.start(
            match_uuid("k2"), "k2", ("Ann", "Bob"), 5, by=BY, profile="classic",
            clock="simple-delay", at=at("10:00:00"),
        )  # fmt: skip


# -- setting the clock (USBGF 3.5.5, 3.5.6; CLOCK 2.1) -------------------------------------------


def test_default_settings_two_minutes_a_point_twelve_seconds() -> None:
    # USBGF 3.5.5: 2 minutes a point: 9 points, 18:00; CLOCK 2.1: the same at 0-0.
    for mode, rule in (("simple-delay", "USBGF 3.5.5"), ("bronstein", "CLOCK 2.1")):
        match = new(9, mode)
        timer = match.state.timer
        assert timer is not None
        assert (timer.mode, timer.reserve_ms, timer.delay_ms) == (
            mode,
            (1_080_000, 1_080_000),
            12_000,
        )
        assert timer.turn is None and not timer.running  # the first hit starts it
        assert match.state.clock == mode
        started = [e for e in match.collect_events() if isinstance(e, ClockStarted)]
        assert [e.rule for e in started] == [rule]


@pytest.mark.parametrize(
    ("mode", "rule"),
    [("simple-delay", "USBGF 3.5.6"), ("bronstein", "CLOCK 2.1")],
)
def test_a_clock_brought_in_between_games_at_3_5(mode: str, rule: str) -> None:
    # USBGF 3.5.6: RA + RB = 6 + 4 = 10 minutes; CLOCK 2.1: 2 x 9 - 1 x (3 + 5) = 10 minutes.
    match = new(9, "none", score=(3, 5))
    started = match.start_clock(mode, by=BY, at=at("10:01:00"))
    assert (started.reserve_a_ms, started.reserve_b_ms, started.delay_ms) == (
        600_000,
        600_000,
        12_000,
    )
    assert started.rule == rule


def test_reserve_and_delay_given() -> None:
    match = new(5, "none")
    started = match.start_clock(
        "simple-delay", reserve_ms=90_000, delay_ms=15_000, by=BY, at=at("10:00:10")
    )
    assert (started.reserve_a_ms, started.delay_ms, started.rule) == (90_000, 15_000, "USBGF 3.5.5")
    assert clock.parse_clock("1:30") == 90_000


@pytest.mark.parametrize(
    ("mode", "delay_ms", "allowed"),
    [
        ("simple-delay", 11_000, "USBGF 3.5.5 allows 12-15 s"),
        ("simple-delay", 16_000, "USBGF 3.5.5 allows 12-15 s"),
        ("bronstein", 15_000, "CLOCK 2.1 allows 12-12 s"),
    ],
)
def test_a_delay_outside_the_rules_range_is_refused(mode: str, delay_ms: int, allowed: str) -> None:
    match = new(5, "none")
    message = refused(
        match,
        InvalidClockError,
        None,
        lambda: match.start_clock(mode, delay_ms=delay_ms, by=BY, at=at("10:00:10")),
    )
    assert allowed in message


def test_refused_settings() -> None:
    match = new(5, "none")
    no_reserve = refused(
        match,
        InvalidClockError,
        None,
        lambda: match.start_clock("simple-delay", reserve_ms=0, by=BY, at=at("10:00:10")),
    )
    assert "must be more than 0:00" in no_reserve
    doubles = refused(
        match,
        InvalidClockError,
        None,
        lambda: match.start_clock("simple-delay", doubles=True, by=BY, at=at("10:00:10")),
    )
    assert "USBGF 3.5.5" in doubles and "--delay" in doubles
    unknown = refused(match, InvalidClockError, None, lambda: match.start_clock("sandglass", by=BY))
    assert "no 'sandglass' clock" in unknown
    for text in ("9.32", "9:60", "", "1:2"):
        with pytest.raises(InvalidClockError):
            clock.parse_clock(text)


def test_doubles_bronstein_clock_per_clock_2_2() -> None:
    # CLOCK 2.2: 2.5 minutes a point (5 points: 12:30), an 18-second deductible.
    match = new(5, "none")
    started = match.start_clock("bronstein", doubles=True, by=BY, at=at("10:00:10"))
    assert (started.reserve_a_ms, started.delay_ms) == (750_000, 18_000)


def test_a_clock_after_the_match_is_refused() -> None:
    match = new(1, "none")
    play(match, '10:01:00 penalty b 1 "USBGF 2.2.4" left the board')  # Ann reaches 1
    assert match.state.winner == "a"
    refused(
        match, ClockRefusedError, "USBGF 3.5.6", lambda: match.start_clock("simple-delay", by=BY)
    )


# -- hits (USBGF 4.1.8.1; CLOCK 3.3, 3.4) ------------------------------------------------------


def test_nobody_hits_between_games_or_during_the_opening_roll() -> None:
    match = new()
    between = refused(
        match, ClockRefusedError, "CLOCK 3.3", lambda: match.hit(by=BY, at=at("10:00:30"))
    )
    assert "nobody hits now" in between
    play(match, "10:01:00 opening 4 4")  # a tie: roll again
    refused(match, ClockRefusedError, "CLOCK 3.3", lambda: match.hit(by=BY, at=at("10:01:05")))


def test_the_opening_roll_starts_the_winners_clock_and_charges_his_opening_turn() -> None:
    # CLOCK 3.3: Bob's lower die starts Ann's clock at the opening roll, 10:01:00.  Her
    # opening turn ends with her hit at 10:01:40: 40 s, 28 past the delay: 9:32.
    match = new()
    play(match, "10:01:00 opening 3 1")
    hit = match.collect_events()[-1]
    assert isinstance(hit, ClockHit) and (hit.player, hit.at) == ("b", at("10:01:00"))
    # nobody hits before Ann has played but Bob, whose hit is recorded as he made it
    # (tests/test_clock_at_the_table.py); with the roll's moment standing in, none is needed
    for player in ("a", None):
        message = refused(
            match, ClockRefusedError, "CLOCK 3.3", lambda p=player: match.hit(p, by=BY)
        )
        assert "the opening roll started Ann's clock (Bob's lower die)" in message
        assert "missed-hit" not in message
    play(match, "10:01:40 move 8/5 6/5", "10:01:40 hit")
    assert match.state.timer is not None and match.state.timer.reserve_ms == (572_000, 600_000)


@pytest.mark.parametrize("mode", ["simple-delay", "bronstein"])
def test_a_clock_set_between_games_starts_with_the_next_opening_roll_not_a_tie(mode: str) -> None:
    # No clock at first; set between games (CLOCK 1.1 allows a Bronstein clock only then).
    # A tie has no lower die: nothing starts.  The 2-5 at 10:01:10 starts Bob's clock; his
    # opening turn ends with his hit at 10:01:40: 30 s, 18 past the delay: 9:42.
    match = new(clock_mode="none")
    match.start_clock(mode, by=BY, at=at("10:00:30"))
    play(match, "10:01:00 opening 4 4")
    assert match.state.timer is not None and match.state.timer.turn is None
    play(match, "10:01:10 opening 2 5", "10:01:40 move 13/8 13/11", "10:01:40 hit")
    assert match.state.timer.reserve_ms == (600_000, 582_000)


def test_a_voided_opening_roll_leaves_the_clock_to_the_next_one() -> None:
    # 10:01:05 Ann wins 3-1 and her clock starts; the roll was cocked (void at 10:01:08);
    # 10:01:10 Bob wins 1-3: Ann's lower die stops her clock (5 s, inside the delay) and
    # starts Bob's.  Nobody is charged for a roll that did not count.
    match = new()
    play(match, *OPENED, "10:01:08 void-roll cocked", "10:01:10 opening 1 3")
    hit = match.collect_events()[-1]
    assert isinstance(hit, ClockHit) and hit.player == "a"
    assert match.state.timer is not None and match.state.timer.turn == "b"
    assert match.state.timer.reserve_ms == (600_000, 600_000)


# -- a forgotten hit (USBGF 4.1.8.1; ABT 4.6) ---------------------------------------------------


@pytest.mark.parametrize("mode", ["simple-delay", "bronstein"])
@pytest.mark.parametrize("action", ["10:01:20 roll 6 4", "10:01:20 double"])
def test_usbgf_2016_refuses_a_roll_or_double_on_the_opponents_time(mode: str, action: str) -> None:
    # Ann plays at 10:01:15 and nobody records her hit: Bob's roll (or double) would be made
    # on her time, and USBGF 4.1.8.1 nullifies it.  The refusal says how to put it right.
    match = new(clock_mode=mode)
    play(match, *OPENED, "10:01:15 move 8/5 6/5")
    message = refused(match, ClockRefusedError, "USBGF 4.1.8.1", lambda: play(match, action))
    assert "Ann's time is still running" in message
    assert "record that hit first: `hit c a`" in message
    assert "missed-hit" not in message
    play(match, "10:01:18 hit", action)  # the hit was made: recorded first, then the roll
    assert match.state.timer is not None
    assert match.state.timer.reserve_ms[0] == 599_000  # Ann 13 s: 1 past the delay
    assert match.state.flagged == ()


@pytest.mark.parametrize("mode", ["simple-delay", "bronstein"])
def test_usbgf_2017_records_the_implied_hit_with_the_roll_flagged(mode: str) -> None:
    # ABT 4.6: the roll stands.  Ann's hit is recorded as implied, at the roll's time
    # (10:01:40): her turn ran 35 s, 23 past the delay: 9:37.  Bob's time runs from then.
    match = new(clock_mode=mode, profile="usbgf-2017")
    play(match, *OPENED, "10:01:15 move 8/5 6/5", "10:01:40 roll 6 4")
    events = match.collect_events()
    implied, rolled = events[-2:]
    assert isinstance(implied, ClockHitImplied) and isinstance(rolled, DiceRolled)
    assert (implied.player, implied.rule, implied.at) == ("a", "ABT 4.6", at("10:01:40"))
    assert rolled.at == implied.at
    timer = match.state.timer
    assert timer is not None and timer.turn == "b" and timer.reserve_ms == (577_000, 600_000)
    assert match.state.flagged == (implied.originator_version,)
    told = history(events)[-2]  # flagged, and told apart from a hit that was made
    assert told.flagged and told.rule == "ABT 4.6"
    assert told.text.startswith("Ann's hit was not recorded: Bob's action next implies it")


def test_usbgf_2017_implies_the_hit_before_a_double_too() -> None:
    match = new(profile="usbgf-2017")
    play(match, *OPENED, "10:01:15 move 8/5 6/5", "10:01:30 double", "10:01:40 hit")
    # Ann's turn: 10:01:05 to the double at 10:01:30, 25 s, 13 past the delay: 9:47.
    kinds = [type(e).__name__ for e in match.collect_events()[-3:]]
    assert kinds == ["ClockHitImplied", "CubeOffered", "ClockHit"]
    assert match.state.timer is not None and match.state.timer.reserve_ms == (587_000, 600_000)


# -- a hit by the wrong player says what happened, not "missed-hit" --------------------------


def test_a_hit_by_the_wrong_player_says_whose_hit_is_missing() -> None:
    match = new()
    play(match, *OPENED, "10:01:15 move 8/5 6/5")  # Ann has played; her hit is not recorded
    message = refused(
        match, ClockRefusedError, "USBGF 4.1.8.1", lambda: play(match, "10:01:16 hit b")
    )
    assert "Bob's time is not running, Ann's is" in message
    assert "record Ann's hit first: `hit c a`" in message and "missed-hit" not in message
    play(match, "10:01:16 hit a")


def test_a_second_hit_when_nothing_moved_is_refused_without_the_sanction() -> None:
    match = new()
    play(match, *OPENED, "10:01:15 move 8/5 6/5", "10:01:15 hit a")  # Bob's time runs
    again = refused(
        match, ClockRefusedError, "USBGF 4.1.8.1", lambda: play(match, "10:01:16 hit a")
    )
    assert "Ann's time is not running, Bob's is, and it is Bob's turn" in again
    assert "Ann has nothing to hit" in again and "missed-hit" not in again
    mine = refused(match, ClockRefusedError, "USBGF 4.1.8.1", lambda: play(match, "10:01:16 hit"))
    assert "Bob has not finished the turn (Bob is on roll" in mine


def test_a_hit_by_a_player_c_is_invalid() -> None:
    match = new()
    play(match, *OPENED)
    refused(match, InvalidClockError, None, lambda: match.hit("c", by=BY))


def test_times_before_the_last_event_are_refused() -> None:
    match = new()
    play(match, *OPENED)
    refused(match, BgLedgerError, None, lambda: match.hit(by=BY, at=at("10:01:00")))


def test_time_offsets_do_not_change_the_figures() -> None:
    # Ann's 20 s turn written in UTC and in UTC+1: 8 s past the delay either way: 9:52.
    utc, paris = new(), new()
    play(utc, *OPENED, "10:01:25 move 8/5 6/5", "10:01:25 hit a")
    play(paris, *OPENED)
    parse(f"@{at('11:01:25', '+01:00')} move 8/5 6/5").run(paris, BY)
    parse(f"@{at('11:01:25', '+01:00')} hit a").run(paris, BY)
    assert utc.state.timer is not None and paris.state.timer is not None
    assert utc.state.timer.reserve_ms == paris.state.timer.reserve_ms == (592_000, 600_000)


# -- stops, resumes, readings and settings (USBGF 4.3.2, 4.3.4, 3.7.2) --------------------------


def test_nothing_to_stop_before_the_first_hit_nor_to_resume_between_games() -> None:
    match = new()
    message = refused(
        match,
        ClockRefusedError,
        "USBGF 4.3.2",
        lambda: match.stop_clock("dispute", by=BY, at=at("10:00:30")),
    )
    assert "nobody's time has started" in message
    play(match, *OPENED, "10:01:15 move 8/5 6/5", "10:01:15 hit a")
    play(match, "10:01:20 double", "10:01:20 hit b", "10:01:30 drop")  # game over: 4.3.2(a)
    message = refused(match, ClockRefusedError, "USBGF 4.3.2", lambda: match.resume_clock(by=BY))
    assert "the next hit starts it" in message


def test_stop_reasons_are_usbgf_4_3_2s_by_name_or_letter() -> None:
    match = new()
    play(match, *OPENED)
    for reason in ("time-expired", "z", "game over", ""):
        refused(
            match,
            InvalidClockError,
            None,
            partial(match.stop_clock, reason, by=BY, at=at("10:01:06")),
        )
    stopped = match.stop_clock("USBGF 4.3.2(g)", by=BY, at=at("10:01:06"))
    assert (stopped.reason, stopped.rule) == ("illegal-move", "USBGF 4.3.2(g)")


def test_refused_settings_of_the_clock() -> None:
    match = new()
    play(match, *OPENED)

    def setting(rule: str, reserves: tuple[int, int], reason: str) -> Callable[[], object]:
        return lambda: match.set_clock(reserves, rule=rule, reason=reason, by=BY, at=at("10:01:10"))

    wrong_rule = refused(match, InvalidClockError, None, setting("USBGF 4.4.1", (1, 1), "x"))
    assert "USBGF 4.3.4, USBGF 3.7.2, USBGF 4.3.2(b), USBGF 4.3.3" in wrong_rule
    refused(match, InvalidClockError, None, setting("USBGF 3.7.2", (-1_000, 60_000), "x"))
    refused(match, InvalidClockError, None, setting("USBGF 3.7.2", (60_000, 60_000), "  "))
    done = match.set_clock(
        (60_000, 0), rule="USBGF 3.7.2", reason="new clock", by=BY, at=at("10:01:10")
    )
    assert isinstance(done, ClockSet)
    assert match.state.timer is not None
    # Ann's clock runs, 5 s into her turn (inside the delay): it shows the 1:00 set.
    assert figures(match.state.timer, at_ms(at("10:01:10"))) == (60_000, 0)
    assert figures(match.state.timer, at_ms(at("10:01:22"))) == (55_000, 0)  # 17 s: 5 s off


def test_a_reading_reports_the_drift() -> None:
    match = new()
    play(match, *OPENED, "10:01:15 move 8/5 6/5", "10:01:15 hit a")
    # Bob 20 s into his turn: 10:00 - 8 s = 9:52; the clock shows 9:50 and Ann's 10:00.
    assert match.read_clock((600_000, 590_000), by=BY, at=at("10:01:35")) == (0, -2_000)
    assert match.state.timer is not None and match.state.timer.drift_ms == (0, -2_000)


# -- time expired (USBGF 4.3.3; CLOCK 5.3) ----------------------------------------------------


def test_flag_of_player_c_is_invalid() -> None:
    match = new()
    play(match, *OPENED)
    refused(match, InvalidClockError, None, lambda: match.flag("c", by=BY))


def test_bronstein_flag_falls_before_the_deductible_returns() -> None:
    # A 0:10 reserve: 10 s into Ann's turn a Bronstein clock shows 0:00 (it counts down at
    # once); simple delay still shows 0:10 (the 12-second delay has 2 s to run).
    for mode, expired in (("bronstein", True), ("simple-delay", False)):
        match = new(3, mode, reserve_ms=10_000)
        play(match, *OPENED)
        if expired:
            flagged = match.flag("a", by=BY, at=at("10:01:15"))
            assert (flagged.outcome, flagged.rule) == ("forfeit", "CLOCK 5.3")
            assert match.state.winner == "b"
        else:
            message = refused(
                match,
                TimeNotExpiredError,
                "USBGF 4.3.3",
                partial(match.flag, "a", by=BY, at=at("10:01:15")),
            )
            assert "Ann has 0:10 left" in message
            # 22 s in: 0:10 - (22 - 12) s = 0:00.
            assert match.flag("a", by=BY, at=at("10:01:27")).outcome == "forfeit"


def test_both_expired_get_the_nominal_reserve() -> None:
    # 0:10 each.  Ann's turn 30 s: 18 s past the delay: 0:00 (never below).  Bob's clock then
    # runs 25 s: 13 s past: 0:00.  Nobody can say whose ran out first: a minute each.
    match = new(3, "simple-delay", reserve_ms=10_000)
    play(match, *OPENED, "10:01:35 move 8/5 6/5", "10:01:35 hit a", "10:02:00 roll 6 4")
    expired = match.flag("b", by=BY, at=at("10:02:00"))
    assert (expired.outcome, expired.reserve_a_ms, expired.reserve_b_ms) == ("both-expired", 0, 0)
    events = match.collect_events()
    setting = events[-1]
    assert isinstance(setting, ClockSet) and isinstance(events[-2], TimeExpired)
    assert (setting.reserve_a_ms, setting.reserve_b_ms, setting.rule) == (
        60_000,
        60_000,
        "USBGF 4.3.3",
    )
    assert match.state.winner is None
    timer = match.state.timer
    assert timer is not None and timer.reserve_ms == (60_000, 60_000)
    assert timer.turn is None and timer.stopped == "time-expired"


# -- early pick-ups (USBGF 4.1.7.2; CLOCK 4.1) ---------------------------------------------


def test_early_pickup_by_player_c_is_invalid() -> None:
    match = new()
    play(match, *OPENED)
    ruling = Ruling("director", "early", at=at("10:01:06"))
    refused(match, InvalidClockError, None, lambda: match.early_pickup("c", ruling))


def test_exactly_thirty_seconds_left_takes_the_penalty_in_full() -> None:
    # USBGF 4.1.7.2 reduces to one second only with less than 30 s left.
    match = new(1, "simple-delay", reserve_ms=60_000)
    play(match, *OPENED)
    ruling = Ruling("director", "early", at=at("10:01:06"))
    assert match.early_pickup("b", ruling) is not None  # the warning
    second = match.early_pickup("b", Ruling("director", "again", at=at("10:01:07")))
    assert second is not None and second.kind == "reserve"
    third = match.early_pickup("b", Ruling("director", "again", at=at("10:01:08")))
    assert third is not None and third.kind == "reserve"  # 0:30 left: 0:30 - 0:30 = 0:00
    assert match.state.timer is not None and match.state.timer.reserve_ms == (60_000, 0)


def test_the_one_second_reduction_never_raises_a_reserve() -> None:
    # Bob's 2:20 turn uses his 2:00 (140 - 12 = 128 s past the delay): 0:00, unflagged.
    match = new(1)
    play(match, *OPENED, "10:01:06 early-pickup b")  # the warning
    play(match, "10:01:15 move 8/5 6/5", "10:01:15 hit a", "10:01:20 roll 6 4")
    play(match, "10:03:35 move 24/14", "10:03:35 hit b")
    assert match.state.timer is not None and match.state.timer.reserve_ms == (120_000, 0)
    play(match, "10:03:40 early-pickup b")  # less than 30 s left: "reduced" to one second
    assert match.state.timer.reserve_ms[1] == 0  # not raised to 0:01
    assert match.state.timer.at_one_second == (False, True)


# -- USBGF 4.1.8.1's missed hit: refusals ---------------------------------------------------


def test_missed_hit_needs_a_running_clock_and_something_to_nullify() -> None:
    match = new()
    history: list[MatchEvent] = match.collect_events()
    ruling = Ruling("director", "no hit", at=at("10:01:00"))
    message = refused(
        match, ClockRefusedError, "USBGF 4.1.8.1", lambda: match.missed_hit(history, ruling)
    )
    assert "nobody's time is running" in message
    play(match, *OPENED, "10:01:15 move 8/5 6/5")  # Ann has not hit: nothing since
    history += match.collect_events()
    ruling = Ruling("director", "no hit", at=at("10:01:20"))
    message = refused(
        match, RulingRefusedError, "USBGF 4.1.8.1", lambda: match.missed_hit(history, ruling)
    )
    assert "Ann just hits the clock" in message


def test_a_take_on_the_doublers_time_gives_his_reserve_back() -> None:
    # Bob's clock starts at 10:01:15; he doubles at 10:01:20 (5 s, inside the delay: 10:00)
    # and does not hit.  Ann takes at 10:02:20 on his time.  At 10:02:21 his clock has run
    # 66 s: 54 s past the delay: 9:06.  USBGF 4.1.8.1: the lost 54 s are restored.
    match = new()
    history: list[MatchEvent] = match.collect_events()
    play(match, *OPENED, "10:01:15 move 8/5 6/5", "10:01:15 hit a", "10:01:20 double")
    with pytest.raises(ClockRefusedError):  # USBGF 4.4.3, CLOCK 3.5: Bob hits after doubling
        play(match, "10:02:20 take")
    play(match, "10:02:20 take --as-played")  # made at the board on his time regardless
    history += match.collect_events()
    assert match.state.timer is not None
    assert figures(match.state.timer, at_ms(at("10:02:21"))) == (600_000, 546_000)
    with pytest.raises(ClockRefusedError):
        match.hit("b", by=BY, at=at("10:02:21"))  # Bob is on roll now
    match.missed_hit(history, Ruling("director", "Bob never hit", at=at("10:02:21")))
    assert figures(match.state.timer, at_ms(at("10:02:21"))) == (600_000, 600_000)


def test_a_record_line_sets_the_clocks_under_the_rule_it_names() -> None:
    # A faulty clock replaced (USBGF 3.7.2): the director sets 9:00 and 8:30.
    match = new()
    play(match, *OPENED, '10:02:00 clock set a=9:00 b=8:30 rule "USBGF 3.7.2" clock replaced')
    event = match.collect_events()[-1]
    assert isinstance(event, ClockSet)
    assert (event.rule, event.reason) == ("USBGF 3.7.2", "clock replaced")
    assert (event.reserve_a_ms, event.reserve_b_ms) == (540_000, 510_000)


def test_lateness_after_the_match_is_refused_as_over() -> None:
    # A no-show in a 1-point match: one point at 15 minutes is more than half: forfeit.
    match = Match.start(match_uuid("n"), "n", ("Ann", "Bob"), 1, by=BY, at=at("10:00:00"))
    play(match, "10:15:00 late b")
    assert match.state.winner == "a"
    refused(match, BgLedgerError, "USBGF 2.2.4", lambda: play(match, "10:20:00 late b"))


def test_a_command_refused_halfway_leaves_a_bare_match_as_it_was() -> None:
    # Match.atomic: a hit recorded, then a refusal inside the same block: neither is kept.
    match = new()
    play(match, "10:01:00 opening 3 1")
    match.collect_events()
    version, state = match.version, match.state
    with pytest.raises(ClockRefusedError), match.atomic():
        match.hit(by=BY, at=at("10:01:05"))
        match.hit(by=BY, at=at("10:01:06"))  # Ann has not moved: refused (4.1.8.1)
    assert (match.version, match.state, match.collect_events()) == (version, state, [])


# -- recording errors: the ledger's own hits go with the entry they came with ---------------


def test_undo_and_amend_take_the_opening_hit_and_an_implied_hit_with_their_entry() -> None:
    ledger = Ledger("sqlite:///:memory:")
    ledger.start(
        ("Ann", "Bob"), 5, match_id="u", by=BY, clock="simple-delay", profile="usbgf-2017",
        at=at("10:00:00"),
    )  # fmt: skip
    ledger.record("u", Opening(5, 2), by=BY, at=at("10:01:00"))  # 3-5, with Bob's lower-die hit
    undone = ledger.record("u", Undo(reason="typo"), by=BY, at=at("10:01:01"))
    assert list(undone.result.voids) == [3, 4, 5]  # the opening's hit goes with it
    timer = undone.state.timer
    assert timer is not None and timer.turn is None and undone.state.game == 0
    ledger.record("u", Opening(2, 5), by=BY, at=at("10:01:10"))  # 7-9: Bob plays first
    ledger.record("u", Move("13/8 13/11"), by=BY, at=at("10:01:30"))  # 10; his hit forgotten
    ledger.record("u", Roll(6, 4), by=BY, at=at("10:01:50"))  # 11 his hit, implied; 12 Ann's roll
    amended = ledger.record("u", Amend(11, Roll(6, 3), reason="typo"), by=BY, at=at("10:01:55"))
    state = amended.state
    assert state.dice == (6, 3) and state.turn == "a"
    # Bob's turn 10:01:10-10:01:50 (the amended roll keeps the entry's time): 40 s, 28 off.
    assert state.timer is not None and state.timer.reserve_ms == (600_000, 572_000)
    assert state.timer.turn == "a" and state.timer.running


def test_record_reads_a_roll_made_on_the_opponents_time_as_played(tmp_path: Path) -> None:
    """USBGF 4.1.8.1: a roll made before the opponent hit is void, so usbgf-2016 refuses it;
    one that was played on regardless is recorded ``--as-played`` for the director, from
    ``record`` as from the command line."""
    db = ["--db", f"sqlite:///{tmp_path / 'asplayed.db'}"]
    runner = CliRunner()
    start = ["start", "--a", "Gus", "--b", "Hal", "--length", "5", "--clock", "simple-delay"]
    runner.invoke(main, [*db, *start, "--id", "c", "--at", "2026-11-26T03:00:00+00:00"])
    lines = (
        "@2026-11-26T03:00:00+00:00 opening 3 1\n@2026-11-26T03:00:20+00:00 move 8/5 6/5\n"
        "@2026-11-26T03:00:30+00:00 roll 6 4\n@2026-11-26T03:00:31+00:00 roll 6 4 --as-played\n"
    )
    result = runner.invoke(main, [*db, "record", "c"], input=lines)
    assert result.exit_code == 1  # the plain roll was refused
    assert "for the director: `roll 6 4 --as-played`" in result.output
    shown = json.loads(runner.invoke(main, [*db, "show", "c", "--json"]).output)
    assert shown["dice"] == [6, 4] and shown["turn"] == "b"
