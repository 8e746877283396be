"""The clock, break and penalty-point commands through click's CliRunner.

Every time is given with ``--at``: T(s) is 10:00:00 plus ``s`` seconds on
21 November 2026.  Unless a test says otherwise the match is 5 points under
usbgf-2016 with a simple-delay clock: 2 minutes a point, 10:00 each, and a
12-second delay (USBGF 3.5.5), so a turn of ``u`` seconds costs
``max(0, u - 12)`` seconds of reserve.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from tests.conftest import unique_id

START = datetime(2026, 11, 21, 10, 0, 0, tzinfo=UTC)
NO_CLOCK = {"mode": "none", "delay_ms": None, "reserve_ms": None, "running": None, "stopped": None}


def T(seconds: float) -> str:
    """The time ``seconds`` after 10:00:00 (ISO 8601)."""
    return (START + timedelta(seconds=seconds)).isoformat()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'clock.db'}"


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args])


def ok(db: str, *args: str) -> Result:
    result = run(db, *args)
    assert result.exit_code == 0, result.output
    return result


def show(db: str, *extra: str, match_id: str = "m") -> dict[str, Any]:
    document: dict[str, Any] = json.loads(ok(db, "show", match_id, "--json", *extra).stdout)
    return document


def events(db: str, match_id: str = "m") -> int:
    return int(show(db, match_id=match_id)["events"])


def refused(db: str, code: int, *args: str, cite: str = "", match_id: str = "m") -> str:
    """Run a command that must fail with ``code``, citing ``cite``, and record nothing."""
    before = events(db, match_id)
    result = run(db, *args)
    assert result.exit_code == code, result.output
    assert cite in result.output, result.output
    assert events(db, match_id) == before
    return result.output


def start(db: str, *extra: str, length: int = 5, match_id: str = "m") -> None:
    ok(db, "start", "--a", "Ann", "--b", "Bob", "--length", str(length), "--id", match_id,
       "--at", T(0), *extra)  # fmt: skip


def timed(db: str, *extra: str, length: int = 5) -> None:
    """A clocked match whose first game began: opening 3-1 at T(6).

    Ann rolled the higher die; Bob, with the lower, starts her clock (CLOCK 3.3): the
    ledger records his hit with the roll (events 3-5).
    """
    start(db, "--clock", "simple-delay", *extra, length=length)
    ok(db, "opening", "m", "3", "1", "--at", T(6))


def as_json(db: str, *args: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(ok(db, *args, "--json").stdout)
    return document


# -- start ---------------------------------------------------------------------------------


def test_start_sets_the_clock_up_with_reserve_and_delay(db: str) -> None:
    start(db, "--clock", "simple-delay", "--reserve", "7:30", "--delay", "15")
    state = show(db)
    assert state["events"] == 2  # MatchStarted, ClockStarted
    clock = state["clock"]
    assert clock["mode"] == "simple-delay" and clock["delay_ms"] == 15_000
    assert clock["reserve_ms"] == {"a": 450_000, "b": 450_000}  # 7:30
    assert clock["running"] is None and clock["stopped"] is None and clock["turn"] is None
    assert clock["as_of"] == T(0) and clock["drift_ms"] is None


def test_start_defaults_come_from_the_profile(db: str) -> None:
    start(db, "--clock", "simple-delay", length=9)
    clock = show(db)["clock"]
    assert clock["reserve_ms"] == {"a": 18 * 60_000, "b": 18 * 60_000}  # 2 minutes a point
    assert clock["delay_ms"] == 12_000  # USBGF 3.5.5


@pytest.mark.parametrize(
    "extra",
    [
        ("--reserve", "5:00"),
        ("--delay", "12"),
        ("--doubles",),
        ("--clock", "simple-delay", "--reserve", "5:0"),
        ("--clock", "simple-delay", "--reserve", "five"),
        ("--clock", "simple-delay", "--delay", "20"),  # USBGF 3.5.5: 12-15 s
        ("--clock", "bronstein", "--delay", "15"),  # CLOCK 2.1: 12 s
        ("--clock", "simple-delay", "--reserve", "0:00"),
        ("--clock", "hourglass"),
    ],
)
def test_start_rejects_clock_settings_that_describe_no_clock(db: str, extra: tuple[str]) -> None:
    result = run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m", *extra)
    assert result.exit_code == 2, result.output
    assert run(db, "show", "m").exit_code == 2  # no match was started


def test_start_best_of_three_keeps_breaks_for_between_matches(db: str) -> None:
    start(db, "--best-of-three", length=7)
    refused(db, 1, "break", "m", "start", "a", "--at", T(60), cite="USBGF 2.2.2")
    start(db, "--best-of-three", length=9, match_id="long")  # longer than 7: breaks as usual
    ok(db, "break", "long", "start", "a", "--at", T(60))


def test_a_match_without_clock_shows_none(db: str) -> None:
    start(db)
    state = show(db)
    assert state["clock"] == NO_CLOCK
    assert state["breaks"] == {
        "allowance": 1,  # USBGF 2.2.2: one break up to 9 points
        "a": {"used": 0, "left": 1},
        "b": {"used": 0, "left": 1},
        "on_break": None,
    }
    assert state["penalty_points"] == {"a": 0, "b": 0}
    assert "clock:" not in ok(db, "show", "m").stdout


def test_a_profile_without_breaks_has_no_allowance(db: str) -> None:
    start(db, "--profile", "classic")
    breaks = show(db)["breaks"]
    assert breaks["allowance"] is None and breaks["a"] == {"used": 0, "left": None}


# -- hit ---------------------------------------------------------------------------------------


def test_hit_prints_who_hit_and_both_reserves(db: str) -> None:
    start(db, "--clock", "simple-delay")
    opened = as_json(db, "opening", "m", "3", "1", "--at", T(6))
    assert opened["recorded"] == [3, 4, 5]  # the game, the roll, Bob's hit (CLOCK 3.3)
    assert opened["clock"]["running"] == "a" and opened["clock"]["as_of"] == T(6)
    told = ok(db, "history", "m").stdout
    assert "Bob rolled the lower die: Ann's time runs (Bob 10:00, Ann 10:00)" in told
    ok(db, "move", "m", "8/5 6/5", "--at", T(40))
    # Ann's turn: T(6) to T(46), 40 s; 12 s of delay, so 28 s come off: 9:32.
    document = as_json(db, "hit", "m", "a", "--at", T(46))
    assert document["recorded"] == [7]
    [hit] = document["entries"]  # as history --json gives it
    assert hit["kind"] == "ClockHit"
    assert hit["text"] == "Ann hit the clock: Bob's time runs (Ann 9:32, Bob 10:00)"
    assert hit["clock"] == {
        "reserve_a_ms": 572_000, "reserve_b_ms": 600_000, "running": "b", "stopped": None,
    }  # fmt: skip
    clock = document["clock"]
    assert clock["reserve_ms"] == {"a": 572_000, "b": 600_000}
    assert clock["running"] == "b" and clock["turn"] == "b" and clock["stopped"] is None
    text = ok(db, "show", "m").stdout
    assert "clock: simple delay, 12 s · Ann 9:32 · Bob 10:00 · Bob's time runs" in text


def test_hit_refused_for_the_player_whose_time_is_not_running(db: str) -> None:
    timed(db)  # Ann's time runs
    ok(db, "move", "m", "8/5 6/5", "--at", T(40))
    out = refused(db, 1, "hit", "m", "b", "--at", T(41), cite="USBGF 4.1.8.1")
    assert "Bob's time is not running, Ann's is" in out
    assert "record Ann's hit first: `hit m a`" in out  # what to do: her hit is the missing one
    assert "missed-hit" not in out  # not the director's sanction


def test_hit_refused_before_the_turn_is_done_and_for_bad_input(db: str) -> None:
    timed(db)
    out = refused(db, 1, "hit", "m", "a", "--at", T(10), cite="CLOCK 3.3")  # Ann has not moved
    assert "the opening roll started Ann's clock (Bob's lower die)" in out
    refused(db, 2, "hit", "m", "c", "--at", T(10))
    ok(db, "hit", "m", "b", "--at", T(10))  # Bob's hit recorded as made: Ann's turn from it
    ok(db, "move", "m", "8/5 6/5", "--at", T(20))
    refused(db, 2, "hit", "m", "--at", "half past ten")
    refused(db, 2, "hit", "m", "--at", T(19))  # before the last event


def test_hit_without_clock_is_refused(db: str) -> None:
    start(db)
    ok(db, "opening", "m", "3", "1", "--at", T(5))
    out = refused(db, 1, "hit", "m", "--at", T(6), cite="USBGF 3.5.5")
    assert "clock m start simple-delay" in out


# -- show --now --------------------------------------------------------------------------------


def test_show_reads_a_running_clock_at_the_last_event_or_at_now(db: str) -> None:
    timed(db)
    # By default the figures are those of the last event (Bob's hit at T(6)): nothing used yet.
    assert show(db)["clock"]["reserve_ms"] == {"a": 600_000, "b": 600_000}
    assert show(db)["clock"]["as_of"] == T(6)
    # 40 s into Ann's turn: 28 s past the delay.
    later = show(db, "--now", T(46))["clock"]
    assert later["reserve_ms"] == {"a": 572_000, "b": 600_000} and later["as_of"] == T(46)
    # 10 s in: still within the delay.
    assert show(db, "--now", T(16))["clock"]["reserve_ms"]["a"] == 600_000
    assert (
        "Ann 9:32 · Bob 10:00 · Ann's time runs (at 10:00:46)"
        in ok(db, "show", "m", "--now", T(46)).stdout
    )
    wall = show(db, "--now", "now")["clock"]["as_of"]
    assert datetime.fromisoformat(wall) >= datetime.fromisoformat(T(6))
    assert run(db, "show", "m", "--now", T(5)).exit_code == 2  # before the last event shown
    assert run(db, "show", "m", "--now", "soon").exit_code == 2


def test_show_now_with_an_earlier_event(db: str) -> None:
    timed(db)
    ok(db, "move", "m", "8/5 6/5", "--at", T(40))
    ok(db, "hit", "m", "--at", T(46))
    # After event 5 (Bob's hit at T(6)), read at T(30): Ann has used 24 s, 12 past the delay.
    clock = show(db, "--at", "5", "--now", T(30))["clock"]
    assert clock["reserve_ms"] == {"a": 588_000, "b": 600_000} and clock["running"] == "a"


# -- clock stop, resume ----------------------------------------------------------------------


def test_clock_stop_and_resume(db: str) -> None:
    timed(db)
    stopped = ok(db, "clock", "m", "stop", "dispute", "--at", T(16)).stdout
    assert "clock stopped: a dispute, or the director was called (USBGF 4.3.2(d))" in stopped
    assert "(USBGF 4.3.2(d)); Ann 10:00, Bob 10:00" in stopped  # 10 s used, within the delay
    assert "Ann has rolled 3-1 and must move" in stopped  # the state line: Ann's turn
    clock = show(db, "--now", T(76))["clock"]
    assert clock["stopped"] == "dispute" and clock["running"] is None and clock["turn"] == "a"
    assert clock["reserve_ms"]["a"] == 600_000  # a stopped clock costs nobody time
    text = ok(db, "show", "m").stdout
    assert "stopped in Ann's turn, USBGF 4.3.2(d)" in text
    resumed = ok(db, "clock", "m", "resume", "--at", T(76)).stdout
    assert "clock restarted: Ann's time runs again (Ann 10:00, Bob 10:00)" in resumed
    ok(db, "move", "m", "8/5 6/5", "--at", T(100))
    # 10 s before the stop and 24 s after the resume: 34 s, 22 past the delay.
    document = as_json(db, "hit", "m", "--at", T(100))
    assert document["clock"]["reserve_ms"]["a"] == 578_000


def test_clock_stop_takes_a_letter_and_lists_the_reasons(db: str) -> None:
    timed(db)
    document = as_json(db, "clock", "m", "stop", "c", "--at", T(10))
    assert document["clock"]["stopped"] == "die-fell" and document["recorded"] == [6]
    help_text = ok(db, "clock", "m", "stop", "--help").stdout
    for letter, code in (("a", "game-over"), ("d", "dispute"), ("h", "outcome-certain")):
        assert f"{letter}  {code}" in help_text


def test_clock_stop_and_resume_refusals(db: str) -> None:
    timed(db)
    refused(db, 2, "clock", "m", "stop", "lunch", "--at", T(10), cite="USBGF 4.3.2")
    refused(db, 2, "clock", "m", "stop", "z", "--at", T(10))
    refused(db, 1, "clock", "m", "stop", "break", "--at", T(10), cite="USBGF 4.3.2(b)")
    refused(db, 1, "clock", "m", "resume", "--at", T(10), cite="USBGF 4.3.2")  # it runs
    ok(db, "clock", "m", "stop", "d", "--at", T(10))
    refused(db, 1, "clock", "m", "stop", "d", "--at", T(11), cite="USBGF 4.3.2")  # stopped
    refused(db, 2, "clock", "m", "resume", "--at", T(9))  # before the last event
    refused(db, 2, "clock", "m")  # no subcommand


def test_clock_commands_refused_without_clock(db: str) -> None:
    start(db)
    refused(db, 1, "clock", "m", "stop", "dispute", "--at", T(1), cite="USBGF 3.5.5")
    refused(db, 1, "clock", "m", "read", "a=9:00", "b=9:00", "--at", T(1), cite="USBGF 3.5.5")
    refused(db, 1, "flag", "m", "a", "--at", T(1), cite="USBGF 3.5.5")
    refused(db, 1, "early-pickup", "m", "a", "--at", T(1), cite="USBGF 3.5.5")
    assert run(db, "clock", "nosuch", "resume").exit_code == 2


# -- clock read, set ------------------------------------------------------------------------


def test_clock_read_prints_the_drift_from_the_ledger(db: str) -> None:
    timed(db)
    ok(db, "move", "m", "8/5 6/5", "--at", T(40))
    ok(db, "hit", "m", "--at", T(46))  # Ann 9:32 (see above); Bob's time runs
    # At T(56) Bob has used 10 s, within his delay: the ledger says 10:00.
    out = ok(db, "clock", "m", "read", "a=9:31", "b=10:00", "--at", T(56)).stdout
    assert "clock read Ann 9:31, Bob 10:00; the ledger has 9:32, 10:00: drift -0:01 / +0:00" in out
    state = show(db)
    assert state["clock"]["drift_ms"] == {"a": -1000, "b": 0}
    assert "clock minus ledger: Ann -0:01 · Bob 0:00" in ok(db, "show", "m").stdout
    # Either order; 70 s into Bob's turn: 58 s past the delay, 9:02.
    document = as_json(db, "clock", "m", "read", "b=9:04", "a=9:32", "--at", T(116))
    [read] = document["entries"]
    assert read["kind"] == "ClockRead"
    # Shown 9:32 and 9:04; the ledger has 9:32 and 9:02.
    assert (
        read["text"]
        == "clock read Ann 9:32, Bob 9:04; the ledger has 9:32, 9:02: drift +0:00 / +0:02"
    )
    assert read["clock"]["reserve_a_ms"] == 572_000 and read["clock"]["reserve_b_ms"] == 542_000
    assert document["clock"]["drift_ms"] == {"a": 0, "b": 2000}


@pytest.mark.parametrize(
    "figures",
    [
        ("a=9:31",),
        ("a=9:3x", "b=9:00"),
        ("a=9:31", "c=9:00"),
        ("9:31", "9:00"),
        ("a=9:61", "b=1:00"),
    ],
)
def test_clock_read_rejects_bad_figures(db: str, figures: tuple[str, ...]) -> None:
    timed(db)
    refused(db, 2, "clock", "m", "read", *figures, "--at", T(10))


def test_clock_set_by_the_director(db: str) -> None:
    timed(db)
    ok(db, "clock", "m", "read", "a=9:00", "b=10:00", "--at", T(10))
    out = ok(db, "clock", "m", "set", "a=9:00", "b=8:30", "--reason", "reset wrongly",
             "--rule", "USBGF 3.7.2", "--at", T(20)).stdout  # fmt: skip
    assert (
        "clock set (USBGF 3.7.2, director): Ann 9:00, Bob 8:30 (was Ann 9:58, Bob 10:00); "
        "reason: reset wrongly"
    ) in out
    clock = show(db)["clock"]
    assert clock["reserve_ms"] == {"a": 540_000, "b": 510_000} and clock["drift_ms"] is None
    # Ann's turn goes on: 14 s used at the setting (2 past the delay); 10 s more come off.
    assert show(db, "--now", T(30))["clock"]["reserve_ms"]["a"] == 530_000
    refused(db, 2, "clock", "m", "set", "a=9:00", "b=8:30", "--at", T(30))  # no --reason
    refused(db, 2, "clock", "m", "set", "a=9:00", "b=8:30", "--reason", "x", "--rule", "USBGF 9")
    refused(db, 2, "clock", "m", "set", "a=9:00", "--reason", "x", "--at", T(30))
    refused(db, 2, "clock", "m", "set", "a=9:00", "b=8:30", "--reason", "x", "--ruled-by", "kim")


# -- clock start ------------------------------------------------------------------------------


def test_clock_start_mid_match_sets_reserves_for_the_points_to_go(db: str) -> None:
    start(db, length=9)
    ok(db, "penalty", "m", "b", "3", "--rule", "USBGF 2.2.4", "--reason", "late", "--at", T(1))
    out = ok(db, "clock", "m", "start", "simple-delay", "--at", T(60)).stdout
    # USBGF 3.5.6: a minute a point to go for each player, (9 - 3) + (9 - 0) = 15:00.
    assert "game clock set: simple delay (USBGF 3.5.6), 12 s delay, 15:00 each" in out
    assert "the opening roll starts it" in out  # no game yet (CLOCK 3.3)
    clock = show(db)["clock"]
    assert clock["reserve_ms"] == {"a": 900_000, "b": 900_000}
    refused(db, 1, "clock", "m", "start", "bronstein", "--at", T(61), cite="USBGF 3.7.2")


def test_clock_start_options_and_refusals(db: str) -> None:
    start(db, length=7)
    ok(db, "opening", "m", "3", "1", "--at", T(5))
    # CLOCK 1.1: a Bronstein clock only at the start of a game.
    refused(db, 1, "clock", "m", "start", "bronstein", "--at", T(6), cite="CLOCK 1.1")
    refused(db, 2, "clock", "m", "start", "simple-delay", "--delay", "11", "--at", T(6))
    refused(db, 2, "clock", "m", "start", "simple-delay", "--reserve", "1:2", "--at", T(6))
    refused(db, 2, "clock", "m", "start", "sandglass", "--at", T(6))
    document = as_json(db, "clock", "m", "start", "simple-delay", "--reserve", "20:00",
                       "--delay", "15", "--at", T(6))  # fmt: skip
    assert document["clock"]["reserve_ms"] == {"a": 1_200_000, "b": 1_200_000}
    assert document["clock"]["delay_ms"] == 15_000 and document["recorded"] == [4]


def test_clock_start_for_doubles_needs_the_directors_figures(db: str) -> None:
    start(db, length=7)
    # USBGF 3.5.5 leaves a doubles match's time to the director.
    refused(db, 2, "clock", "m", "start", "simple-delay", "--doubles", "--at", T(6))
    ok(db, "clock", "m", "start", "bronstein", "--doubles", "--at", T(6))
    clock = show(db)["clock"]
    assert clock["delay_ms"] == 18_000  # CLOCK 2.2
    assert clock["reserve_ms"]["a"] == 17 * 60_000 + 30_000  # CLOCK 2.2: 17:30 to 7 points


# -- flag ---------------------------------------------------------------------------------


def test_flag_refused_while_time_remains_then_the_match_is_lost(db: str) -> None:
    timed(db, "--reserve", "0:30", length=1)
    # Ann's time has run since T(6): at T(30), 24 s used, 12 past the delay: 0:18 left.
    out = refused(db, 1, "flag", "m", "a", "--at", T(30), cite="USBGF 4.3.3")
    assert "Ann has 0:18 left" in out
    refused(db, 2, "flag", "m", "c", "--at", T(30))
    # 30 s of reserve and 12 of delay are spent at T(48).
    document = as_json(db, "flag", "m", "a", "--at", T(50))
    expired, won = document["entries"]
    assert expired["kind"] == "TimeExpired" and expired["rule"] == "USBGF 4.3.3"
    assert expired["text"] == "Ann's reserve expired (USBGF 4.3.3): Bob wins the match on time"
    assert won["kind"] == "MatchWon" and "on time" in won["text"]
    assert document["winner"] == "b" and len(document["recorded"]) == 2  # TimeExpired, MatchWon
    assert document["clock"]["reserve_ms"] == {"a": 0, "b": 30_000}
    refused(db, 1, "flag", "m", "b", "--at", T(60), cite="USBGF 4.3.2(a)")  # the match is over


def test_flag_text_when_confirmed(db: str) -> None:
    timed(db, "--reserve", "0:30", length=1)
    out = ok(db, "flag", "m", "a", "--at", T(50)).stdout
    assert "Ann's reserve expired (USBGF 4.3.3): Bob wins the match on time" in out
    assert "match won by Bob (Ann 0, Bob 0) on time: Ann's reserve expired (USBGF 4.3.3)" in out
    assert "the match is over: Bob won" in out  # the state line
    # The ledger's figures then are the entry's clock (history --json).
    expired = as_json(db, "history", "m")["events"][5]
    assert expired["kind"] == "TimeExpired"
    assert (expired["clock"]["reserve_a_ms"], expired["clock"]["reserve_b_ms"]) == (0, 30_000)


def test_flag_when_both_have_expired_sets_nominal_reserves(db: str) -> None:
    timed(db)
    ok(db, "clock", "m", "set", "a=0:00", "b=0:00", "--reason", "both flags down",
       "--rule", "USBGF 4.3.3", "--at", T(10))  # fmt: skip
    document = as_json(db, "flag", "m", "a", "--nominal", "2:00", "--at", T(11))
    expired, nominal = document["entries"]
    assert expired["kind"] == "TimeExpired" and document["winner"] is None
    assert "Ann's reserve expired, and Bob's too (USBGF 4.3.3)" in expired["text"]
    assert nominal["kind"] == "ClockSet"
    assert "clock set (USBGF 4.3.3, director): Ann 2:00, Bob 2:00" in nominal["text"]
    # Ann's turn goes on: the setting left her at 0:00 live; 1 s later a nominal 2:00 is set.
    assert document["clock"]["reserve_ms"] == {"a": 120_000, "b": 120_000}
    refused(db, 2, "flag", "m", "a", "--nominal", "2 minutes", "--at", T(12))


# -- early pick-ups -----------------------------------------------------------------------


def test_early_pickup_warning_then_thirty_seconds_then_one_second_then_forfeit(db: str) -> None:
    timed(db, "--reserve", "0:45", length=1)  # Ann's time runs; Bob picks up the dice early
    first = ok(db, "early-pickup", "m", "b", "--at", T(7)).stdout
    assert "early pick-up by Bob (USBGF 4.1.7.2, director): a warning" in first
    second = as_json(db, "early-pickup", "m", "b", "--at", T(8))
    [sanction] = second["entries"]
    assert sanction["kind"] == "ReserveTimePenalized" and sanction["rule"] == "USBGF 4.1.7.2"
    assert sanction["text"].startswith(
        "early pick-up by Bob (USBGF 4.1.7.2, director): 0:30 off Bob's reserve: 0:15 left"
    )
    assert second["clock"]["reserve_ms"]["b"] == 15_000  # 0:45 - 0:30
    third = ok(db, "early-pickup", "m", "b", "--at", T(9)).stdout
    # 0:15 is less than 0:30
    assert "less than 0:30 left: Bob's reserve reduced to 0:01" in third
    assert show(db)["clock"]["reserve_ms"]["b"] == 1000
    fourth = as_json(db, "early-pickup", "m", "b", "--at", T(10))
    forfeit, won = fourth["entries"]
    assert forfeit["kind"] == "TimeExpired" and forfeit["rule"] == "USBGF 4.1.7.2"
    assert forfeit["text"] == (
        "Bob picked up the dice early again at 0:01 (USBGF 4.1.7.2): Ann wins the match on time"
    )
    assert won["kind"] == "MatchWon" and fourth["winner"] == "a"


def test_early_pickup_refused_in_the_players_own_turn(db: str) -> None:
    timed(db)
    refused(db, 1, "early-pickup", "m", "a", "--at", T(7), cite="USBGF 4.1.7.2")
    refused(db, 2, "early-pickup", "m", "c", "--at", T(7))
    refused(db, 2, "early-pickup", "m", "b", "--reason", " ", "--at", T(7))
    refused(db, 2, "early-pickup", "m", "b", "--ruled-by", "kim", "--at", T(7))


def test_early_pickup_under_bronstein_forfeits_the_delay(db: str) -> None:
    start(db, "--clock", "bronstein")  # CLOCK 2.1: 10:00 for 5 points, 12 s deductible
    ok(db, "opening", "m", "3", "1", "--at", T(6))  # Bob's lower die starts Ann's clock
    out = ok(db, "early-pickup", "m", "b", "--at", T(7)).stdout
    assert "early pick-up by Bob (CLOCK 4.1, director): no delay on Bob's next checker play" in out
    assert show(db)["clock"]["delay_forfeited"] == {"a": False, "b": True}
    assert "no delay for Bob's next checker play (CLOCK 4.1)" in ok(db, "show", "m").stdout
    ok(db, "move", "m", "8/5 6/5", "--at", T(16))
    ok(db, "hit", "m", "--at", T(16))  # Ann: 10 s, all deductible
    # CLOCK 4.1: "The penalized player must wait until his deductible has counted down to zero
    # before rolling his dice": 4 s into his turn, 8 s to go.
    out = refused(db, 1, "roll", "m", "6", "5", "--at", T(20), cite="CLOCK 4.1")
    assert "must wait until it has counted down to zero" in out
    ok(db, "roll", "m", "6", "5", "--at", T(28))
    ok(db, "move", "m", "24/13", "--at", T(34))
    # Bob's 18 s turn: 12 s waited out, his checker play's 6 s off the reserve: 9:54.
    assert as_json(db, "hit", "m", "--at", T(34))["clock"]["reserve_ms"] == {
        "a": 600_000,
        "b": 594_000,
    }
    assert show(db)["clock"]["delay_forfeited"] == {"a": False, "b": False}


# -- missed hits ------------------------------------------------------------------------------


def test_missed_hit_nullifies_and_restores(db: str) -> None:
    timed(db)
    ok(db, "move", "m", "8/5 6/5", "--at", T(40))  # event 6; Ann forgets to hit
    out = refused(db, 1, "roll", "m", "6", "5", "--at", T(50), cite="USBGF 4.1.8.1")
    assert "Ann's time is still running" in out and "`roll m 6 5 --as-played`" in out
    ok(db, "roll", "m", "6", "5", "--as-played", "--at", T(50))  # event 7, on Ann's time
    # At her play Ann had used 34 s (22 past the delay): 9:38; by T(60), 54 s: 9:18.
    out = ok(db, "missed-hit", "m", "--reason", "Ann never hit", "--at", T(60)).stdout
    assert "RULING (USBGF 4.1.8.1, director): event 7 void: Bob's roll 6-5" in out
    assert "0:20 of Ann's reserve restored (USBGF 4.1.8.1, director): Ann 9:38" in out
    state = show(db)
    assert state["turn"] == "b" and state["dice"] is None and state["events"] == 9
    assert state["clock"]["running"] == "a" and state["clock"]["reserve_ms"]["a"] == 578_000
    ok(db, "hit", "m", "a", "--at", T(60))  # now she ends her turn


def test_missed_hit_json_and_refusals(db: str) -> None:
    timed(db)
    refused(db, 2, "missed-hit", "m", "--at", T(10))  # --reason is required
    # Nothing done on Ann's time yet: she just hits.
    refused(db, 1, "missed-hit", "m", "--reason", "x", "--at", T(10), cite="USBGF 4.1.8.1")
    ok(db, "move", "m", "8/5 6/5", "--at", T(14))  # 8 s: within the delay
    ok(db, "roll", "m", "6", "5", "--as-played", "--at", T(16))
    document = as_json(db, "missed-hit", "m", "--reason", "no hit", "--at", T(18))
    # 12 s used by T(18): the delay covers it, so the clock took nothing from her.
    # The ruling alone: no ReserveTimeRestored was recorded with it.
    assert document["recorded"] == [8]
    [ruling] = document["entries"]
    assert ruling["kind"] == "PlaysReverted" and ruling["voids"] == [7]
    assert ruling["rule"] == "USBGF 4.1.8.1"
    assert ruling["clock"]["reserve_a_ms"] == 600_000


# -- breaks --------------------------------------------------------------------------------------


def test_break_start_and_end_on_time(db: str) -> None:
    timed(db, length=9)
    ok(db, "move", "m", "8/5 6/5", "--at", T(20))
    # A break during a game needs exceptional circumstances (USBGF 2.2.2).
    refused(db, 1, "break", "m", "start", "a", "--at", T(21), cite="USBGF 2.2.2")
    out = ok(db, "break", "m", "start", "a", "--exceptional", "unwell", "--at", T(21)).stdout
    # 9 points: 18:00 each; Ann's 15 s turn so far is 3 s past the delay.
    assert (
        "break (USBGF 2.2.2): Ann, 5 minutes, until 10:05 (Ann 17:57, Bob 18:00 on the clock); "
        "during game 1: unwell"
    ) in out
    state = show(db)
    assert state["breaks"]["a"] == {"used": 1, "left": 0}
    assert state["breaks"]["on_break"] == {
        "players": ["a"], "minutes": 5, "started": T(21), "ends": T(321),
    }  # fmt: skip
    assert state["clock"]["stopped"] == "break" and state["clock"]["turn"] == "a"
    text = ok(db, "show", "m").stdout
    assert "on a break for Ann since 10:00:21: 5 minutes, its allowance ends at 10:05:21" in text
    refused(db, 1, "break", "m", "start", "b", "--exceptional", "x", "--at", T(30),
            cite="USBGF 2.2.2")  # fmt: skip
    refused(db, 1, "hit", "m", "a", "--at", T(30), cite="USBGF 4.3.2(b)")
    ended = ok(db, "break", "m", "end", "--at", T(300)).stdout
    assert "2026-11-21 10:05:00  root  break of 5 minutes ended on time" in ended
    after = show(db)
    assert after["breaks"]["on_break"] is None
    assert after["clock"]["stopped"] == "break"  # until the clock is restarted
    ok(db, "clock", "m", "resume", "--at", T(300))
    refused(db, 1, "break", "m", "end", "--at", T(301), cite="USBGF 2.2.2")  # none on
    refused(db, 1, "break", "m", "start", "a", "--exceptional", "x", "--at", T(301),
            cite="USBGF 2.2.2")  # fmt: skip  # Ann's one break is used


def test_break_late_return_costs_penalty_points(db: str) -> None:
    start(db, length=9)
    out = ok(db, "break", "m", "start", "both", "--at", T(60)).stdout
    assert "break (USBGF 2.2.2): Ann and Bob, 10 minutes, until 10:11" in out
    # Back at 10:27:00, 16 minutes after the allowance: a point is due (USBGF 2.2.4).
    refused(db, 1, "break", "m", "end", "--at", T(27 * 60), cite="USBGF 2.2.4")
    refused(db, 2, "break", "m", "end", "--late", "c", "--at", T(27 * 60))
    document = as_json(db, "break", "m", "end", "--late", "b", "--at", T(27 * 60))
    ended, assessed = document["entries"]
    assert ended["kind"] == "BreakEnded"
    assert ended["text"] == "break of 10 minutes ended 16 minutes over: Bob returned late"
    assert assessed["kind"] == "PenaltyPointsAssessed" and assessed["rule"] == "USBGF 2.2.4"
    assert assessed["text"].startswith("1 penalty point against Bob (USBGF 2.2.4: 16 minutes")
    assert document["penalty_points"] == {"a": 0, "b": 1} and document["score"] == {"a": 1, "b": 0}
    text = ok(db, "show", "m").stdout
    assert "penalty points (the opponent scores them): against Ann 0 · against Bob 1" in text


def test_break_start_input_and_allowance(db: str) -> None:
    start(db, length=15)  # USBGF 2.2.2: three breaks for 15-19 points
    refused(db, 2, "break", "m", "start", "c", "--at", T(60))
    refused(db, 2, "break", "m", "start", "a", "--combine", "0", "--at", T(60))
    refused(db, 1, "break", "m", "start", "a", "--combine", "4", "--at", T(60), cite="USBGF 2.2.2")
    ok(db, "break", "m", "start", "a", "--combine", "2", "--at", T(60))
    ok(db, "break", "m", "end", "--at", T(660))
    breaks = show(db)["breaks"]
    assert breaks["a"] == {"used": 2, "left": 1} and breaks["b"] == {"used": 0, "left": 3}
    refused(db, 1, "break", "m", "start", "a", "--combine", "2", "--at", T(700), cite="USBGF 2.2.2")
    # The director's exception (USBGF 2.2.3) goes beyond the allowance.
    out = ok(db, "break", "m", "start", "a", "--combine", "2", "--exception", "medical",
             "--at", T(700)).stdout  # fmt: skip
    assert "director's exception (USBGF 2.2.3): medical" in out
    assert show(db)["breaks"]["a"] == {"used": 4, "left": 0}


# -- late, penalty --------------------------------------------------------------------------------


def test_late_start_points_and_forfeit(db: str) -> None:
    start(db)
    refused(db, 1, "late", "m", "b", "--at", T(14 * 60), cite="USBGF 2.2.4")  # not 15 minutes
    out = ok(db, "late", "m", "b", "--at", T(21 * 60)).stdout
    # 15 minutes: 1 point; 20: one more.
    assert (
        "2 penalty points against Bob (USBGF 2.2.4: 21 minutes late after the starting time): "
        "Ann scores them (Ann 2, Bob 0)"
    ) in out
    document = as_json(db, "late", "m", "b", "--at", T(26 * 60))
    # 25 minutes: 3 in all, 1 more; 3 is more than half of 5: the match is forfeit.
    penalty, *forfeit = document["entries"]
    assert penalty["kind"] == "PenaltyPointsAssessed" and penalty["rule"] == "USBGF 2.2.4"
    assert penalty["text"] == (
        "1 penalty point against Bob (USBGF 2.2.4: 26 minutes late after the starting time): "
        "Ann scores it (Ann 3, Bob 0)"
    )
    assert [e["kind"] for e in forfeit] == ["MatchWon"] and "by forfeit" in forfeit[0]["text"]
    assert document["winner"] == "a"
    assert document["penalty_points"] == {"a": 0, "b": 3}


def test_late_from_a_scheduled_time_and_refusals(db: str) -> None:
    start(db)
    refused(db, 2, "late", "m", "c", "--at", T(20 * 60))
    refused(db, 2, "late", "m", "b", "--scheduled", "ten", "--at", T(20 * 60))
    # Due at 10:10: 10 minutes late at 10:20, no point yet.
    refused(db, 1, "late", "m", "b", "--scheduled", T(600), "--at", T(20 * 60), cite="USBGF 2.2.4")
    ok(db, "late", "m", "b", "--scheduled", T(-600), "--at", T(6 * 60))  # 16 minutes: 1 point
    assert show(db)["score"] == {"a": 1, "b": 0}
    ok(db, "opening", "m", "3", "1", "--at", T(7 * 60))
    refused(db, 1, "late", "m", "a", "--at", T(40 * 60), cite="USBGF 2.2.4")  # under way


def test_penalty_points_by_the_director(db: str) -> None:
    start(db)
    out = ok(db, "penalty", "m", "b", "2", "--rule", "USBGF 1.4", "--reason", "slow play",
             "--at", T(60)).stdout  # fmt: skip
    assert (
        "2 penalty points against Bob (USBGF 1.4, director: slow play): "
        "Ann scores them (Ann 2, Bob 0)"
    ) in out
    state = show(db)
    assert state["penalty_points"] == {"a": 0, "b": 2} and state["score"] == {"a": 2, "b": 0}
    refused(db, 2, "penalty", "m", "b", "0", "--rule", "R", "--reason", "x", "--at", T(61))
    refused(db, 2, "penalty", "m", "b", "1", "--reason", "x", "--at", T(61))
    refused(db, 2, "penalty", "m", "b", "1", "--rule", "R", "--at", T(61))
    refused(db, 2, "penalty", "m", "c", "1", "--rule", "R", "--reason", "x", "--at", T(61))
    refused(db, 2, "penalty", "m", "b", "1", "--rule", " ", "--reason", "x", "--at", T(61))
    document = as_json(db, "penalty", "m", "b", "3", "--rule", "USBGF 1.4", "--reason", "again",
                       "--at", T(62))  # fmt: skip
    assert document["winner"] == "a"  # 5 of 5 points
    assert [e["kind"] for e in document["entries"]] == ["PenaltyPointsAssessed", "MatchWon"]
    assert "by forfeit" in document["entries"][1]["text"]
    refused(db, 1, "penalty", "m", "a", "1", "--rule", "R", "--reason", "x", "--at", T(63),
            cite="match is over")  # fmt: skip


# -- both stores ----------------------------------------------------------------------------


def test_a_clocked_game_on_each_store(store_url: str) -> None:
    """The same commands give the same figures on SQLite and PostgreSQL (shared: unique id)."""
    match_id = unique_id("clock")
    start(store_url, "--clock", "simple-delay", match_id=match_id)
    for args in (
        ("opening", match_id, "3", "1", "--at", T(6)),  # Bob's lower die: Ann's clock
        ("move", match_id, "8/5 6/5", "--at", T(40)),
        ("hit", match_id, "a", "--at", T(46)),  # Ann: 40 s, 28 past the delay: 9:32
        ("clock", match_id, "stop", "c", "--at", T(50)),  # Bob: 4 s, within the delay
        ("clock", match_id, "resume", "--at", T(80)),
        ("clock", match_id, "read", "a=9:32", "b=9:59", "--at", T(100)),  # Bob: 24 s, 12 past
        ("penalty", match_id, "a", "1", "--rule", "USBGF 1.4", "--reason", "x", "--at", T(101)),
    ):
        ok(store_url, *args)
    before = events(store_url, match_id)
    refused(store_url, 1, "hit", match_id, "a", "--at", T(102), cite="USBGF 4.1.8.1",
            match_id=match_id)  # fmt: skip
    state = show(store_url, "--now", T(110), match_id=match_id)
    assert state["events"] == before == 11
    assert state["clock"]["reserve_ms"] == {"a": 572_000, "b": 578_000}  # Bob: 34 s, 22 past
    assert state["clock"]["drift_ms"] == {"a": 0, "b": 11_000}  # the clock said 9:59, not 9:48
    assert state["penalty_points"] == {"a": 1, "b": 0} and state["score"] == {"a": 0, "b": 1}


# -- help ---------------------------------------------------------------------------------------

NEW = ("hit", "clock", "flag", "early-pickup", "missed-hit", "break", "late", "penalty")


@pytest.mark.parametrize("name", NEW)
def test_every_new_command_has_help_citing_a_rule(name: str) -> None:
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert "USBGF" in result.output or "CLOCK" in result.output


@pytest.mark.parametrize(
    "words",
    [
        ("clock", "m", "start"),
        ("clock", "m", "stop"),
        ("clock", "m", "resume"),
        ("clock", "m", "read"),
        ("clock", "m", "set"),
        ("break", "m", "start"),
        ("break", "m", "end"),
    ],
)
def test_every_subcommand_has_help(words: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, [*words, "--help"])
    assert result.exit_code == 0, result.output
    assert "--at" in result.output and "--json" in result.output


def test_start_help_lists_the_clock_options() -> None:
    text = CliRunner().invoke(main, ["start", "--help"]).output
    for option in ("--reserve", "--delay", "--doubles", "--best-of-three"):
        assert option in text
