"""Issue 23, the clock: situations of the rulebooks' text, recorded as they happen at the table.

Each test records what the players did, line by line with its time, and checks
each reserve against a figure worked out by hand in the comments (never read
back from the ledger).  Ann (a) v Bob (b), 5 points, simple delay (USBGF
3.5.5): 10:00 each (600000 ms), a 12-second delay: a turn of t seconds costs
max(0, t - 12).  The rules cited are the profile's (``profile.cite``).
"""

from __future__ import annotations

import pytest

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import Ruling
from bgledger.commands.vocabulary import parse
from bgledger.errors import ClockRefusedError
from bgledger.events import (
    ClockHit,
    ClockHitImplied,
    ClockStopped,
    CubeDropped,
    CubeTaken,
    MatchEvent,
    PlaysReverted,
    ReserveTimeRestored,
)
from bgledger.projections.state import codec
from bgledger.projections.state.clock import at_ms, figures
from bgledger.projections.state.fold import Phase, fold
from bgledger.projections.state.situation import situation
from bgledger.projections.views.text import brief
from bgledger.rules.profiles import Decision, get_profile

DAY = "2026-11-21T"


class Table:
    """A clocked match recorded line by line, keeping its history for rulings."""

    def __init__(self, profile: str = "usbgf-2016", clock: str | None = "simple-delay") -> None:
        start = {"clock": clock} if clock else {}
        self.match = Match.start(
            match_uuid("t"), "t", ("Ann", "Bob"), 5, by="kim", profile=profile,
            at=f"{DAY}10:00:00+00:00", **start,
        )  # fmt: skip
        self.history: list[MatchEvent] = self.match.collect_events()

    def __call__(self, hms: str, line: str) -> None:
        parse(f"@{DAY}{hms}+00:00 {line}").run(self.match, "kim", self.history)
        self.history.extend(self.match.collect_events())

    def reserves(self, hms: str) -> tuple[int, int]:
        timer = self.match.state.timer
        assert timer is not None
        return figures(timer, at_ms(f"{DAY}{hms}+00:00"))

    def replayed(self) -> tuple[int, int]:
        state = fold(self.history)
        assert state is not None and state.timer is not None
        return state.timer.reserve_ms


# -- CLOCK 3.3: the opening roll ----------------------------------------------------------


def test_the_lower_dies_hit_after_the_opening_starts_the_winners_time() -> None:
    table = Table()
    table("10:01:00", "opening 3 1")  # Bob's lower die
    table("10:01:05", "hit b")  # CLOCK 3.3: "The player rolling the lower die starts the
    # opponent's clock": 5 s after the roll, recorded as it happens
    assert [e.player for e in table.history if isinstance(e, ClockHit)] == ["b", "b"]
    table("10:01:30", "move 8/5 6/5")
    table("10:01:30", "hit")
    # Ann's first turn runs from the hit, 10:01:05-10:01:30: 25 s, 13 past the delay.
    # (From the roll it would be 30 s, 18 past: the 5 s before the hit are nobody's.)
    assert table.reserves("10:01:30") == (587_000, 600_000)
    assert table.replayed() == (587_000, 600_000)


def test_without_the_lower_dies_hit_the_roll_stands_in_for_it() -> None:
    table = Table()
    table("10:01:00", "opening 3 1")
    table("10:01:30", "move 8/5 6/5")
    table("10:01:30", "hit")  # 30 s from the roll, 18 past the delay
    assert table.reserves("10:01:30") == (582_000, 600_000)


def test_only_the_lower_die_hits_before_the_winner_has_played() -> None:
    table = Table()
    table("10:01:00", "opening 3 1")
    rule = get_profile("usbgf-2016").clock("simple-delay")
    assert rule is not None
    with pytest.raises(ClockRefusedError) as refused:
        table("10:01:05", "hit a")  # Ann won the roll: her hit ends nothing yet
    assert refused.value.rule == rule.opening_starts_clock.rule


def test_a_clock_brought_in_between_games_takes_the_opening_hit_too() -> None:
    table = Table(clock=None)
    table("10:01:00", "opening 3 1")
    table("10:01:20", "move 8/5 6/5")
    table("10:01:40", "roll 6 4")
    table("10:02:00", "move 24/18 13/9")
    table("10:02:20", "roll 5 5")
    table("10:02:40", "move 13/3 13/3")
    table("10:03:00", "double")
    table("10:03:10", "drop")  # Bob 1-0: the clock comes in between games
    table("10:04:00", "clock start simple-delay")  # USBGF 3.5.6: 1 point scored, 4 to go
    # for Bob, 5 for Ann: (4 + 5) minutes each = 9:00 = 540000
    table("10:05:00", "opening 1 4")  # Ann's lower die: Bob's clock
    table("10:05:08", "hit a")
    table("10:05:40", "move 13/9 24/23")
    table("10:05:40", "hit")  # Bob 10:05:08-10:05:40: 32 s, 20 past the delay
    assert table.reserves("10:05:40") == (540_000, 520_000)


def test_a_clock_brought_in_mid_game_starts_with_the_lower_dies_hit() -> None:
    table = Table(clock=None)
    table("10:01:00", "opening 3 1")
    table("10:01:10", "clock start simple-delay")  # USBGF 3.5.2.1: at any time; 10:00 each
    table("10:01:15", "hit b")  # Bob starts Ann's clock
    table("10:01:45", "move 8/5 6/5")
    table("10:01:45", "hit")  # Ann 30 s, 18 past the delay
    assert table.reserves("10:01:45") == (582_000, 600_000)


# -- CLOCK 4.3: after a revert the offender replays on his own time ---------------------------


def _illegal_six_four(table: Table) -> int:
    """Ann's opening 3-1 played and hit at 10:01:10, Bob's illegal 6-4 hit at 10:01:30."""
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 8/5 6/5")
    table("10:01:10", "hit")  # Ann 10 s: inside the delay, 10:00
    table("10:01:15", "roll 6 4")
    table.match.move("24/14 24/20", as_played=True, by="kim", at=f"{DAY}10:01:25+00:00")
    table.history.extend(table.match.collect_events())
    illegal = table.history[-1].originator_version
    table("10:01:30", "hit")  # Bob 10:01:10-10:01:30: 20 s, 8 past the delay: 9:52
    return illegal


def test_after_a_revert_the_offender_replays_on_his_own_time() -> None:
    table = Table()
    illegal = _illegal_six_four(table)
    table("10:01:35", f"revert {illegal} --agreed --reason 24/14 is not a 6-4")
    # CLOCK 4.3: "he brings attention to the illegal play and hits the clock. The player
    # makes a legal checker play, then hits the clock": Ann's 5 s (10:01:30-35) are hers,
    # inside the delay; Bob, the offender, is timed again from the ruling.
    state = table.match.state
    assert state.timer is not None and state.timer.turn == "b" and state.timer.running
    assert table.reserves("10:01:35") == (600_000, 592_000)
    assert isinstance(table.history[-1], ClockHit) and table.history[-1].player == "a"
    replay = get_profile("usbgf-2016").cite(Decision.REPLAY_ON_OWN_TIME)
    # the screens say what to do until he has: the status line under every view
    said = f"Bob replays the 6-4, Bob's clock running, then hits ({replay})"
    assert situation(state) == said and brief(state).endswith(said)
    assert state.replay == "b" and fold(table.history) == state
    assert codec.state_from_dict(codec.state_to_dict(state)) == state
    table("10:02:15", "move 24/18 13/9")  # Bob's replay, 40 s after the ruling
    state = table.match.state
    assert situation(state) == (
        f"Bob hits to end the replay ({replay}); then Ann is on roll, to double or to roll"
    )
    assert fold(table.history) == state
    table("10:02:15", "hit b")  # his hit: 40 s, 28 past the delay: 9:52 - 0:28 = 9:24
    state = table.match.state
    assert state.replay is None and situation(state) == "Ann is on roll, to double or to roll"
    assert fold(table.history) == state
    assert table.reserves("10:02:15") == (600_000, 564_000)  # Ann charged nothing
    assert table.replayed() == (600_000, 564_000)
    assert table.match.state.timer is not None and table.match.state.timer.turn == "a"


# -- USBGF 4.4.3/4.4.4, CLOCK 3.5: the doubler hits after doubling ---------------------------


def _doubled_without_a_hit(table: Table) -> None:
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 8/5 6/5")
    table("10:01:10", "hit")
    table("10:01:20", "roll 6 4")
    table("10:01:30", "move 24/18 13/9")
    table("10:01:30", "hit")  # Bob 10:01:10-10:01:30: 20 s, 8 past the delay: 9:52
    table("10:01:40", "double")  # Ann 10 s so far; she does not hit


def test_a_take_on_the_doublers_time_is_refused_under_usbgf_2016() -> None:
    table = Table()
    _doubled_without_a_hit(table)
    profile = get_profile("usbgf-2016")
    rules = profile.clock("simple-delay")
    assert rules is not None
    with pytest.raises(ClockRefusedError) as refused:
        table("10:02:10", "take")
    assert refused.value.rule == (rules.forgotten_hit.rule or profile.cite(Decision.TURN_END))
    assert "Ann's time is still running" in str(refused.value)
    table("10:01:40", "hit a")  # the hit was made, the scorekeeper missed it
    table("10:02:10", "take")
    table("10:02:10", "hit b")  # Bob 30 s, 18 past the delay: 9:34; Ann 10 s: 10:00
    assert table.reserves("10:02:10") == (600_000, 574_000)


def test_a_take_on_the_doublers_time_implies_his_hit_under_usbgf_2017() -> None:
    table = Table("usbgf-2017")
    _doubled_without_a_hit(table)
    table("10:02:10", "take")  # ABT 4.6: stands; Ann's hit implied at the take's time
    implied = [e for e in table.history if isinstance(e, ClockHitImplied)]
    rules = get_profile("usbgf-2017").clock("simple-delay")
    assert rules is not None and len(implied) == 1
    assert implied[0].player == "a" and implied[0].rule == rules.forgotten_hit.rule
    assert isinstance(table.history[-1], CubeTaken)
    table("10:02:15", "hit b")  # Ann 10:01:30-10:02:10: 40 s, 28 past: 9:32; Bob 5 s: 9:52
    assert table.reserves("10:02:15") == (572_000, 592_000)


def test_a_drop_on_the_doublers_time_is_refused_under_usbgf_2016() -> None:
    table = Table()
    _doubled_without_a_hit(table)
    profile = get_profile("usbgf-2016")
    rules = profile.clock("simple-delay")
    assert rules is not None
    with pytest.raises(ClockRefusedError) as refused:
        table("10:02:10", "drop")  # USBGF 4.4.3: the doubler hits after doubling
    assert refused.value.rule == (rules.forgotten_hit.rule or profile.cite(Decision.TURN_END))
    assert "Ann's time is still running" in str(refused.value)
    assert "may not drop" in str(refused.value)
    table("10:01:40", "hit a")  # the hit was made, the scorekeeper missed it
    table("10:02:10", "drop")  # the game ends: the clock stops (USBGF 4.3.2(a))
    assert any(isinstance(e, CubeDropped) for e in table.history)
    assert table.match.state.score == (1, 0)
    # Ann 10:01:30-10:01:40, 10 s: inside the delay, 10:00; Bob 10:01:40-10:02:10: 30 s,
    # 18 past the delay: 9:52 - 0:18 = 9:34
    assert table.reserves("10:02:30") == (600_000, 574_000)
    assert table.replayed() == (600_000, 574_000)


def test_a_drop_on_the_doublers_time_implies_his_hit_under_usbgf_2017() -> None:
    table = Table("usbgf-2017")
    _doubled_without_a_hit(table)
    table("10:02:10", "drop")  # ABT 4.6: stands; Ann's hit implied at the drop's time
    implied = [e for e in table.history if isinstance(e, ClockHitImplied)]
    rules = get_profile("usbgf-2017").clock("simple-delay")
    assert rules is not None and len(implied) == 1
    assert implied[0].player == "a" and implied[0].rule == rules.forgotten_hit.rule
    assert any(isinstance(e, CubeDropped) for e in table.history)
    assert table.match.state.score == (1, 0)
    # Ann 10:01:30-10:02:10: 40 s, 28 past the delay: 9:32; Bob none: 9:52
    assert table.reserves("10:02:30") == (572_000, 592_000)
    assert table.replayed() == (572_000, 592_000)


def test_a_drop_made_on_the_doublers_time_as_played_charges_him_for_it() -> None:
    table = Table()
    _doubled_without_a_hit(table)
    table("10:02:10", "drop --as-played")  # recorded as it happened: Ann's time ran on
    assert not any(isinstance(e, ClockHitImplied) for e in table.history)
    # Ann 10:01:30-10:02:10 (the game's end stops it): 40 s, 28 past: 9:32; Bob 9:52
    assert table.reserves("10:02:30") == (572_000, 592_000)


# -- USBGF 4.1.8.1 in full -----------------------------------------------------------------


def test_a_missed_hit_restores_the_affected_players_reserve_in_full() -> None:
    table = Table()
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 8/5 6/5")  # Ann 10 s (10:00), and no hit
    table.match.roll(6, 4, as_played=True, by="kim", at=f"{DAY}10:01:20+00:00")
    table.history.extend(table.match.collect_events())
    table("10:02:00", "move 24/18 13/9")
    # detected at 10:02:30: Ann's clock ran 90 s, 78 past the delay: 8:42 showing
    assert table.reserves("10:02:30") == (522_000, 600_000)
    ruling = Ruling("director", "Ann never hit", by="td", at=f"{DAY}10:02:30+00:00")
    reverted, restored = table.match.missed_hit(table.history, ruling)
    table.history.extend(table.match.collect_events())
    assert isinstance(reverted, PlaysReverted) and len(reverted.voids) == 2
    assert isinstance(restored, ReserveTimeRestored) and restored.restored_ms == 78_000
    # "the affected player's lost reserve time shall be fully restored": 10:00 again
    assert table.reserves("10:02:30") == (600_000, 600_000)
    table("10:02:30", "hit a")  # she now ends her turn: Bob's time
    table("10:02:40", "roll 6 4")
    table("10:02:50", "move 24/18 13/9")
    table("10:02:50", "hit")  # Bob 20 s, 8 past the delay
    assert table.reserves("10:02:50") == (600_000, 592_000)
    assert table.replayed() == (600_000, 592_000)


@pytest.mark.parametrize("stopped_first", [False, True], ids=["ruling-stops", "stopped-first"])
def test_a_hit_with_the_dice_picked_up_restores_the_player_on_rolls_reserve(
    stopped_first: bool,
) -> None:
    table = Table()
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 8/5 6/5")
    table("10:01:10", "hit")  # Ann 10 s: 10:00; and she picks up the dice with her hit
    # Bob's time runs with no dice to roll: at 10:01:40, 30 s, 18 past the delay: 9:42
    assert table.reserves("10:01:40") == (600_000, 582_000)
    if stopped_first:
        table("10:01:40", "clock stop f")  # USBGF 4.3.2(f)
    # USBGF 4.1.8.1: "the game clock shall be stopped, the dice shall be handed to the player
    # on roll, and any reserve time lost by the player on roll shall be restored"
    table("10:01:40", "pickup-with-hit a --reason Ann picked up the dice with her hit")
    profile = get_profile("usbgf-2016")
    restored = [e for e in table.history if isinstance(e, ReserveTimeRestored)]
    assert len(restored) == 1 and restored[0].player == "b"
    assert restored[0].restored_ms == 18_000
    assert restored[0].rule == profile.cite(Decision.PICKUP_RESTORED)
    stops = [e for e in table.history if isinstance(e, ClockStopped)]
    assert [e.reason for e in stops] == ["dice-picked-up"]
    timer = table.match.state.timer
    assert timer is not None and not timer.running and timer.turn == "b"
    assert table.reserves("10:01:50") == (600_000, 600_000)  # 10:00 again, clock stopped
    table("10:01:50", "clock resume")  # the dice handed over: Bob's time is reactivated
    table("10:02:00", "roll 6 4")
    table("10:02:10", "move 24/18 13/9")
    table("10:02:10", "hit")
    # Bob's turn ran 30 s before the stop and 20 s after: 50 s, 38 past the 12-s delay, of
    # which the 18 s lost waiting were restored: 10:00 - 0:20 = 9:40.  The delay went by while
    # he waited; the rule restores reserve time only.
    assert table.reserves("10:02:10") == (600_000, 580_000)
    assert table.replayed() == (600_000, 580_000)


def test_a_pickup_with_the_hit_is_refused_once_the_player_on_roll_has_rolled() -> None:
    table = Table()
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 8/5 6/5")
    table("10:01:10", "hit")
    table("10:01:40", "roll 6 4")  # Bob had the dice after all
    with pytest.raises(ClockRefusedError) as refused:
        table("10:01:50", "pickup-with-hit a")
    assert refused.value.rule == get_profile("usbgf-2016").cite(Decision.PICKUP_RESTORED)
    assert "Bob has rolled 6-4" in str(refused.value)


# -- CLOCK 3.4, USBGF 4.1.8.1: a player with no legal move hits without rolling -------------

CLOSED_OUT = "setup 4OfgA0DbtgEHAA"
"""Ann (a): two on each point of her home board, three on her 13; Bob: one on the bar."""


def test_a_closed_out_player_hits_the_clock_without_rolling() -> None:
    table = Table()
    table("10:00:30", CLOSED_OUT)
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 13/9")
    table("10:01:10", "hit")  # Ann 10 s: 10:00
    state = table.match.state
    assert state.phase is Phase.ROLL and state.turn == "b"
    # CLOCK 3.4: "A player with no legal moves is not required to roll the dice but must
    # continue hitting the clock"; Bob is on the bar against a closed board: no roll enters
    table("10:01:25", "hit b")  # Bob 15 s, 3 past the delay: 9:57
    state = table.match.state
    assert state.phase is Phase.ROLL and state.turn == "a"
    hits = [e for e in table.history if type(e).__name__ == "ClockHit"]
    # the pass is a fact of the hit, decided when recorded: replay never judges the board
    assert [(e.player, e.passes) for e in hits[-2:]] == [("a", False), ("b", True)]  # type: ignore[attr-defined]
    assert table.reserves("10:01:25") == (600_000, 597_000)
    table("10:01:40", "roll 6 5")
    table("10:02:00", "move 13/7 9/4")
    table("10:02:00", "hit")  # Ann 35 s, 23 past the delay: 9:37
    assert table.reserves("10:02:00") == (577_000, 597_000)
    assert table.replayed() == (577_000, 597_000)


def test_a_player_who_can_move_must_roll_before_he_hits() -> None:
    table = Table()
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 8/5 6/5")
    table("10:01:10", "hit")
    with pytest.raises(ClockRefusedError) as refused:
        table("10:01:20", "hit b")
    assert refused.value.rule == get_profile("usbgf-2016").cite(Decision.TURN_END)


def test_without_a_clock_a_revert_leaves_no_replay_to_announce() -> None:
    table = Table(clock=None)
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 8/5 6/5")
    table("10:01:15", "roll 6 4")
    table.match.move("24/14 24/20", as_played=True, by="kim", at=f"{DAY}10:01:25+00:00")
    table.history.extend(table.match.collect_events())
    illegal = table.history[-1].originator_version
    table("10:01:35", f"revert {illegal} --agreed --reason 24/14 is not a 6-4")
    state = table.match.state
    assert state.replay is None and situation(state) == "Bob has rolled 6-4 and must move"
