"""Issue 33, the clock rules the ledger recorded against their words, as scenarios at the table.

Each test records what the players did, line by line with its time, and checks each
reserve against a figure worked out by hand in the comments, never read back from the
ledger.  Ann (a) v Bob (b), 5 points: 10:00 each (600000 ms), a 12-second delay or
deductible (USBGF 3.5.5, CLOCK 2.1).  Simple delay takes ``max(0, t - 12 s)`` off a turn
of t seconds at its hit; a Bronstein clock counts down at once and gives back up to 12 s
at the hit, which after each hit comes to the same.  The rules cited are the profile's
(``profile.cite``), and the rule's words are quoted where the test reads them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.commands.clock import NO_TIME_FORFEIT
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import RulingRefusedError
from bgledger.commands.vocabulary import parse
from bgledger.errors import BgLedgerError, ClockRefusedError, ResignationRefusedError
from bgledger.events import (
    ClockSet,
    ClockStopped,
    ConcessionAcceptanceRequired,
    GameWon,
    MatchEvent,
    MatchWon,
    ReserveTimeRestored,
    TimeExpired,
)
from bgledger.projections.state.allowed import allowed
from bgledger.projections.state.clock import at_ms, figures
from bgledger.projections.state.fold import fold
from bgledger.rules.profiles import PROFILES, Decision, get_profile

DAY = "2026-11-21T"


class Table:
    """A clocked match recorded line by line, keeping its history for rulings."""

    def __init__(
        self,
        profile: str = "usbgf-2016",
        clock: str = "simple-delay",
        length: int = 5,
        **start: str,
    ) -> None:
        self.match = Match.start(
            match_uuid("t"), "t", ("Ann", "Bob"), length, by="kim", profile=profile,
            at=f"{DAY}10:00:00+00:00", clock=clock, **start,
        )  # fmt: skip
        self.history: list[MatchEvent] = self.match.collect_events()

    def __call__(self, hms: str, line: str) -> None:
        parse(f"@{DAY}{hms}+00:00 {line}").run(self.match, "kim", self.history)
        self.history.extend(self.match.collect_events())

    def refused(self, hms: str, line: str, error: type[BgLedgerError] = ClockRefusedError) -> str:
        """``line`` is refused, recording nothing; the refusal's message (with its rule)."""
        version = self.match.version
        with pytest.raises(error) as raised:
            self(hms, line)
        assert self.match.version == version
        return f"{raised.value} [{getattr(raised.value, 'rule', '')}]"

    def reserves(self, hms: str) -> tuple[int, int]:
        timer = self.match.state.timer
        assert timer is not None
        return figures(timer, at_ms(f"{DAY}{hms}+00:00"))

    def replayed(self) -> tuple[int, int]:
        state = fold(self.history)
        assert state is not None and state.timer is not None
        return state.timer.reserve_ms

    def events(self, kind: type[MatchEvent]) -> list[MatchEvent]:
        return [e for e in self.history if isinstance(e, kind)]


# -- USBGF 4.8.6: the clock after a match-length correction ---------------------------------


def test_the_clock_reset_after_a_length_correction_cites_4_8_6() -> None:
    # USBGF 4.8.6: "In all instances of match length errors, before play continues the
    # Tournament Director shall have discretion to set or adjust the players' game clock
    # settings to best serve the needs of the tournament."
    table = Table()
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 8/5 6/5")
    table("10:01:10", "hit")  # Ann 10 s, inside the delay: 10:00
    table("10:01:20", "correct-length 7 --reason the draw sheet says 7")
    # Bob 10 s into his turn, inside the delay; a 7-point match's 2 minutes a point: 14:00
    table("10:01:20", 'clock set a=14:00 b=14:00 rule "USBGF 4.8.6" the length was corrected')
    (setting,) = table.events(ClockSet)
    assert isinstance(setting, ClockSet)
    assert setting.rule == "USBGF 4.8.6"
    assert setting.rule == get_profile("usbgf-2016").cite(Decision.CLOCK_LENGTH_CORRECTED)
    assert table.reserves("10:01:20") == (840_000, 840_000)
    # Bob's turn goes on: 10 s used, 2 s of the delay left; at 10:01:40, 30 s, 18 past: 13:42
    assert table.reserves("10:01:40") == (840_000, 822_000)


def test_every_profile_says_whether_4_8_6_applies() -> None:
    for name, profile in PROFILES.items():
        citation = profile.citation(Decision.CLOCK_LENGTH_CORRECTED)
        assert citation.rule == "USBGF 4.8.6", name
        assert profile.own(citation) or citation.note, name  # cited, or why it is inherited


# -- USBGF 4.1.8.1 with 4.3.2(f): one outcome whichever command records the stop ------------


@pytest.mark.parametrize("line", ["clock stop f", "clock stop dice-picked-up", "pickup-with-hit a"])
def test_a_stop_for_dice_picked_up_with_the_hit_restores_the_player_on_rolls_reserve(
    line: str,
) -> None:
    # USBGF 4.3.2(f): the clock stops "When a player has picked up the dice and started his
    # opponent's time"; USBGF 4.1.8.1: "the game clock shall be stopped, the dice shall be
    # handed to the player on roll, and any reserve time lost by the player on roll shall be
    # restored, before reactivating the time of the player on roll".
    table = Table()
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 8/5 6/5")
    table("10:01:10", "hit")  # Ann 10 s: 10:00; and she picks up the dice with her hit
    # Bob's time runs with no dice to roll: at 10:01:40, 30 s, 18 past the delay: 9:42
    assert table.reserves("10:01:40") == (600_000, 582_000)
    table("10:01:40", line)
    restored = table.events(ReserveTimeRestored)
    assert len(restored) == 1 and isinstance(restored[0], ReserveTimeRestored)
    assert (restored[0].player, restored[0].restored_ms) == ("b", 18_000)
    assert restored[0].rule == get_profile("usbgf-2016").cite(Decision.PICKUP_RESTORED)
    stops = table.events(ClockStopped)
    assert [e.reason for e in stops if isinstance(e, ClockStopped)] == ["dice-picked-up"]
    assert table.reserves("10:01:50") == (600_000, 600_000)  # 10:00 again, the clock stopped
    # the other verb, after the stop, finds nothing more to restore: one outcome
    table("10:01:50", "clock resume")
    table("10:02:00", "roll 6 4")
    table("10:02:10", "move 24/18 13/9")
    table("10:02:10", "hit")
    # Bob's turn: 30 s before the stop, 20 s after: 50 s, 38 past the delay, 18 of them
    # restored: 10:00 - 0:20 = 9:40
    assert table.reserves("10:02:10") == (600_000, 580_000)
    assert table.replayed() == (600_000, 580_000)


def test_a_stop_for_dice_picked_up_once_the_player_on_roll_rolled_restores_nothing() -> None:
    table = Table()
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 8/5 6/5")
    table("10:01:10", "hit")
    table("10:01:40", "roll 6 4")  # Bob had the dice: 30 s, 18 past the delay so far
    table("10:01:45", "clock stop f")
    assert table.events(ReserveTimeRestored) == []
    assert table.reserves("10:01:45") == (600_000, 577_000)  # 35 s, 23 past: 9:37


# -- CLOCK 4.1: the early pick-up's deductible, forfeited for the next checker play ------------


def _bob_moved_ann_picked_up_early(table: Table) -> None:
    table("10:01:00", "opening 3 1")  # Ann's clock runs (CLOCK 3.3)
    table("10:01:10", "move 8/5 6/5")
    table("10:01:10", "hit")  # Ann 10 s, all of it given back: 10:00
    table("10:01:14", "roll 6 4")
    table("10:01:20", "early-pickup a")  # Ann picks up the dice before Bob hits
    table("10:01:30", "move 24/18 13/9")
    table("10:01:30", "hit")  # Bob 20 s, 12 s given back: 9:52


def test_an_early_pickups_forfeited_deductible_waits_for_the_next_checker_play() -> None:
    # CLOCK 4.1: "A player who prematurely picks up the dice forfeits his per move deductible
    # for his next checker play. [...] The penalized player must wait until his deductible has
    # counted down to zero before rolling his dice."
    table = Table(clock="bronstein")
    _bob_moved_ann_picked_up_early(table)
    assert table.reserves("10:01:30") == (600_000, 592_000)
    table("10:01:35", "double")  # a double is no checker play, and no roll: no wait
    table("10:01:35", "hit")  # Ann 5 s, all of it given back: her deductible was not forfeited
    assert table.reserves("10:01:35") == (600_000, 592_000)
    table("10:01:45", "take")
    table("10:01:45", "hit")  # Bob 10 s, given back: 9:52
    # Ann's time from 10:01:45: her deductible counts down to 10:01:57; a roll before is refused
    refusal = table.refused("10:01:50", "roll 5 2")
    assert "CLOCK 4.1" in refusal and "10:01:57" in refusal
    assert table.reserves("10:01:50") == (595_000, 592_000)  # counted down at once: 9:55
    table("10:01:57", "roll 5 2")  # 12 s: the deductible has counted down to zero
    table("10:02:05", "move 13/8 13/11")
    table("10:02:05", "hit")  # Ann 20 s, 12 given back: 8 s off, all of her checker play: 9:52
    assert table.reserves("10:02:05") == (592_000, 592_000)
    table("10:02:07", "roll 6 5")
    table("10:02:15", "move 24/18 18/13")
    table("10:02:15", "hit")  # Bob 10 s, given back: 9:52
    table("10:02:16", "roll 4 2")  # the forfeit is spent: Ann rolls at once
    table("10:02:20", "move 8/4 6/4")
    table("10:02:20", "hit")  # Ann 5 s, given back: 9:52
    assert table.reserves("10:02:20") == (592_000, 592_000)
    assert table.replayed() == (592_000, 592_000)


def test_the_forfeited_deductible_is_the_penalized_players_own_wait() -> None:
    table = Table(clock="bronstein")
    _bob_moved_ann_picked_up_early(table)
    table("10:01:42", "roll 5 2")  # 12 s after Bob's hit: the deductible has run out
    table("10:01:50", "move 13/8 13/11")
    table("10:01:50", "hit")  # Ann 20 s, 12 given back: 8 s off: 9:52
    assert table.reserves("10:01:50") == (592_000, 592_000)
    table("10:01:51", "roll 6 5")  # Bob was not penalized: he rolls at once


# -- USBGF 4.3.3, CLOCK 5.3, USBGF 3.5.2.1: time forfeits --------------------------------------


def _both_ran_out(table: Table) -> None:
    """Ann's 0:30 runs out at 10:01:42 (12 s of delay, then 30 s); Bob's at 10:02:32."""
    table("10:01:00", "opening 3 1")  # Ann's time from 10:01:00
    table("10:01:50", "move 8/5 6/5")
    table("10:01:50", "hit")  # Ann 50 s, 38 past the delay: her 0:30 is gone (at 10:01:42)
    table("10:02:00", "roll 6 4")
    table("10:02:40", "move 24/18 13/9")  # Bob 50 s: his 0:30 is gone too (at 10:02:32)
    assert table.reserves("10:02:40") == (0, 0)


@pytest.mark.parametrize("flagged", ["a", "b"])
def test_when_both_ran_out_unannounced_the_ledgers_times_say_who_forfeits(flagged: str) -> None:
    # USBGF 4.3.3: "If both players' reserve time has expired before anyone announces the
    # expiration of time and it is not possible to determine which of the players' time ran
    # out first, the remainder of the match shall be played with a nominal amount of reserve
    # time reinstated on both players' clocks".  The ledger's times determine it: Ann's ran
    # out at 10:01:42, Bob's at 10:02:32.  "A player whose reserve time has expired
    # automatically forfeits the match."
    table = Table(reserve_ms=30_000)
    _both_ran_out(table)
    table("10:02:45", f"flag {flagged}")
    (expired,) = table.events(TimeExpired)
    assert isinstance(expired, TimeExpired)
    assert (expired.player, expired.outcome) == ("a", "forfeit")
    assert expired.rule == get_profile("usbgf-2016").cite(Decision.TIME_EXPIRED)
    assert table.events(ClockSet) == []  # no nominal time: nothing to reinstate
    (won,) = table.events(MatchWon)
    assert isinstance(won, MatchWon) and won.winner == "b"
    assert table.match.state.winner == "b"


def test_when_the_times_cannot_say_who_ran_out_first_both_get_the_nominal_time() -> None:
    table = Table()
    table("10:01:00", "opening 3 1")
    table("10:01:10", "move 8/5 6/5")
    table("10:01:10", "hit")
    table("10:01:15", "clock set a=0:00 b=0:00 both clocks found at zero")  # at one moment
    table("10:01:20", "flag b")
    (expired,) = table.events(TimeExpired)
    assert isinstance(expired, TimeExpired) and expired.outcome == "both-expired"
    nominal = table.events(ClockSet)[-1]
    assert isinstance(nominal, ClockSet)
    assert (nominal.reserve_a_ms, nominal.reserve_b_ms) == (60_000, 60_000)  # the nominal 1:00


ONE_CHECKER_LEFT = "4HPwARgBAAAAAA"
"""Ann (a): one checker on her 1-point; Bob: two on his 23, five on 13, three on 8, five on 6."""


def _ann_bears_off_after_her_time_ran_out(table: Table, hms: str = "10:01:40") -> None:
    table("10:00:30", f"setup {ONE_CHECKER_LEFT}")
    table("10:01:00", "opening 3 1")  # Ann's time from 10:01:00
    table(hms, "move 1/off")  # her last checker off: the match, on the board
    assert table.match.state.winner == "a"


def test_a_reserve_exhausted_before_the_match_was_validly_claimed_loses_it() -> None:
    # CLOCK 5.3: "A player who exhausts his reserve time before he can validly claim the match
    # is declared the loser."
    table = Table(clock="bronstein", length=1, reserve_ms=30_000)
    # a Bronstein clock counts down at once: Ann's 0:30 is gone at 10:01:30, before 10:01:40
    _ann_bears_off_after_her_time_ran_out(table)
    table("10:01:45", "flag a")
    (expired,) = table.events(TimeExpired)
    assert isinstance(expired, TimeExpired)
    assert (expired.player, expired.outcome, expired.rule) == ("a", "forfeit", "CLOCK 5.3")
    assert table.match.state.winner == "b"
    won = table.events(MatchWon)[-1]
    assert isinstance(won, MatchWon) and (won.winner, won.score_a, won.score_b) == ("b", 0, 0)
    assert table.refused("10:01:50", "flag a").startswith("the match is over")


def test_under_usbgf_4_3_3_a_match_won_before_the_announcement_stands() -> None:
    # USBGF 4.3.3: "Time is deemed to have run out when one of the players, a spectator, or a
    # member of the Tournament staff correctly announces that a player's reserve time has
    # expired": the match was won before anyone did.
    table = Table(length=1, reserve_ms=30_000)
    # simple delay: 12 s, then her 0:30: gone at 10:01:42, before her last checker at 10:01:50
    _ann_bears_off_after_her_time_ran_out(table, "10:01:50")
    refusal = table.refused("10:01:45", "flag a")
    assert "USBGF 4.3.3" in refusal and "before" in refusal


def test_players_who_agreed_not_to_end_the_match_on_time_play_on() -> None:
    # USBGF 3.5.2.1: "if the players for any reason agree not to end the match if a player's
    # reserve time expires (see section 4.3.3, below), the players must either reflect that
    # agreement on their score sheets at the beginning of their match or notify the Tournament
    # Director in advance"
    table = Table(reserve_ms=30_000, meta={NO_TIME_FORFEIT: "yes"})
    table("10:01:00", "opening 3 1")
    table("10:01:50", "move 8/5 6/5")
    table("10:01:50", "hit")  # Ann 50 s, 38 past the delay: her 0:30 is gone
    refusal = table.refused("10:01:55", "flag a")
    assert "USBGF 3.5.2.1" in refusal and "play goes on" in refusal
    assert get_profile("usbgf-2016").cite(Decision.NO_TIME_FORFEIT) == "USBGF 3.5.2.1"
    table("10:02:00", "roll 6 4")  # and so it does
    assert table.match.state.winner is None


def test_the_agreement_not_to_end_on_time_is_recorded_at_start(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'agreed.db'}"

    def run(*args: str) -> Result:
        return CliRunner().invoke(main, ["--db", db, *args])

    started = run("start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m", "--clock",
                  "simple-delay", "--reserve", "0:30", "--no-time-forfeit",
                  "--at", f"{DAY}10:00:00+00:00")  # fmt: skip
    assert started.exit_code == 0, started.output
    for hms, *line in (("10:01:00", "opening", "3", "1"), ("10:01:50", "move", "8/5 6/5"),
                       ("10:01:50", "hit")):  # fmt: skip
        assert run(*line[:1], "m", *line[1:], "--at", f"{DAY}{hms}+00:00").exit_code == 0
    flagged = run("flag", "m", "a", "--at", f"{DAY}10:01:55+00:00")
    assert flagged.exit_code == 1
    assert "agreed at the start not to end the match on time" in flagged.output
    assert "(USBGF 3.5.2.1)" in flagged.output


# -- CLOCK 5.1: conceding on a clock -------------------------------------------------------------

STRAGGLERS = "4HPwARgHAAAAAA"
"""Ann (a): twelve off, three on her 1-point; Bob: two on his 23 (in Ann's home board), five
on his 13, three on his 8, five on his 6.  No contact."""


def _bob_on_roll_with_two_stragglers(table: Table) -> None:
    table("10:00:30", f"setup {STRAGGLERS}")
    table("10:01:00", "opening 1 3")  # Bob's 3: Ann's lower die starts Bob's clock
    table("10:01:10", "move 8/5 6/5")
    table("10:01:10", "hit")  # Bob 10 s, given back: 10:00
    table("10:01:15", "roll 2 1")
    table("10:01:20", "move 1/off 1/off")
    table("10:01:20", "hit")  # Ann 5 s, given back: 10:00; Bob's time from 10:01:20


def test_a_concession_on_a_clock_stops_both_clocks_and_the_director_requires_acceptance() -> None:
    # CLOCK 5.1: "Prior to rolling the dice a player may concede a single game, gammon or
    # backgammon by stopping both clocks and stating the offer. [...] To reject the offer the
    # opponent says, "Reject," and, if necessary, summons the Director to adjudicate. The
    # Director will require the opponent to accept the offer when no outcome more favorable
    # for him can occur; otherwise, the Director deems the offer invalid and restarts the
    # player's clock."
    table = Table(clock="bronstein")
    _bob_on_roll_with_two_stragglers(table)
    table("10:01:30", "resign gammon")  # Bob 10 s into his turn: both clocks stop
    timer = table.match.state.timer
    assert timer is not None and not timer.running
    assert timer.stopped == "concession"
    # Bronstein counts down at once: Bob's clock shows 9:50, and keeps showing it
    assert table.reserves("10:02:29") == (600_000, 590_000)
    # Ann can still win a backgammon (Bob's two checkers in her home board): she may reject,
    # the offer is invalid and Bob's clock restarts
    table("10:02:30", "reject")
    timer = table.match.state.timer
    assert timer is not None and timer.running and timer.turn == "b"
    table("10:02:35", "resign backgammon")  # 5 s more: 15 s of Bob's turn
    refusal = table.refused("10:03:00", "reject", ResignationRefusedError)
    assert "CLOCK 5.1" in refusal and "no outcome more favorable for Ann" in refusal
    table("10:03:30", "must-accept --reason nothing better than a backgammon can happen")
    (required,) = table.events(ConcessionAcceptanceRequired)
    assert isinstance(required, ConcessionAcceptanceRequired)
    assert required.rule == get_profile("usbgf-2016").cite(Decision.CONCESSION_ON_CLOCK)
    assert (required.player, required.ruled_by) == ("a", "director")
    (won,) = table.events(GameWon)
    assert isinstance(won, GameWon) and (won.winner, won.result, won.points) == (
        "a",
        "backgammon",
        3,
    )
    assert table.match.state.score == (3, 0)
    # Bob's turn: 10 s before the first offer, 5 s after the reject: 15 s, 12 given back:
    # 10:00 - 0:03 = 9:57; the two disputes, 1:00 and 0:55, are nobody's
    assert table.replayed() == (600_000, 597_000)


def test_the_director_cannot_require_acceptance_where_a_better_outcome_can_occur() -> None:
    table = Table(clock="bronstein")
    _bob_on_roll_with_two_stragglers(table)
    table("10:01:30", "resign single")
    refusal = table.refused("10:02:00", "must-accept", RulingRefusedError)
    assert "CLOCK 5.1" in refusal and "a backgammon" in refusal
    table("10:02:00", "reject")  # the offer is invalid: Bob's clock restarts
    table("10:02:10", "roll 6 5")  # Bob: 10 s + 10 s = 20 s of his turn
    table("10:02:20", "move 23/17 23/18")
    table("10:02:20", "hit")  # 30 s, 12 given back: 18 s off: 9:42
    assert table.replayed() == (600_000, 582_000)


def test_under_simple_delay_a_concession_leaves_the_clock_to_usbgf_4_3_2_h() -> None:
    # USBGF 4.3.2(h): "When a player believes that the game's outcome is no longer in doubt
    # [...] If the other player disagrees, the game clock is restarted and the game is played
    # to its conclusion."  A concession stops nothing by itself; the reject stands.
    table = Table()
    _bob_on_roll_with_two_stragglers(table)
    table("10:01:30", "resign backgammon")
    timer = table.match.state.timer
    assert timer is not None and timer.running
    table("10:01:40", "reject")
    assert table.match.state.resignation is None


# -- what may happen now says the same (projections/state/allowed.py) ---------------------------


def _lines(table: Table, party: str) -> set[str]:
    return {a.line for a in allowed(table.match.state) if a.party == party}


def test_what_may_happen_now_offers_the_reject_and_the_must_accept_as_the_ledger_decides() -> None:
    table = Table(clock="bronstein")
    _bob_on_roll_with_two_stragglers(table)
    table("10:01:30", "resign gammon")
    assert "reject" in _lines(table, "a") and "must-accept" not in _lines(table, "director")
    table("10:01:40", "reject")
    table("10:01:45", "resign backgammon")
    assert "reject" not in _lines(table, "a") and "accept" in _lines(table, "a")
    assert "must-accept" in _lines(table, "director")


def test_what_may_happen_now_offers_the_flag_as_the_ledger_decides() -> None:
    late = Table(clock="bronstein", length=1, reserve_ms=30_000)
    _ann_bears_off_after_her_time_ran_out(late)
    assert "flag a" in _lines(late, "scorekeeper")  # CLOCK 5.3
    on_time = Table(clock="bronstein", length=1)
    _ann_bears_off_after_her_time_ran_out(on_time)
    assert not any(line.startswith("flag") for line in _lines(on_time, "scorekeeper"))
    agreed = Table(meta={NO_TIME_FORFEIT: "yes"})
    agreed("10:01:00", "opening 3 1")
    assert not any(line.startswith("flag") for line in _lines(agreed, "scorekeeper"))
    plain = Table()
    plain("10:01:00", "opening 3 1")
    assert "flag a" in _lines(plain, "scorekeeper")


# -- each profile says whether these rules apply -------------------------------------------------

_ISSUE_33 = (
    Decision.CLOCK_LENGTH_CORRECTED,
    Decision.NO_TIME_FORFEIT,
    Decision.STOP_CONCESSION,
    Decision.CONCESSION_ON_CLOCK,
    Decision.DELAY_FORFEITED,
    Decision.PICKUP_RESTORED,
)


@pytest.mark.parametrize("name", list(PROFILES))
def test_each_profile_says_whether_the_clock_rules_apply(name: str) -> None:
    profile = PROFILES[name]
    for decision in _ISSUE_33:
        citation = profile.citation(decision)
        assert citation.rule, (name, decision)
        assert profile.own(citation) or citation.note, (name, decision)  # or why inherited
    bronstein, simple = profile.clock("bronstein"), profile.clock("simple-delay")
    if name in ("classic", "online"):  # no clocks: the clock rules never apply
        assert bronstein is None and simple is None
        return
    assert bronstein is not None and simple is not None
    assert (bronstein.concession_on_clock.value, bronstein.concession_on_clock.rule) == (
        True,
        "CLOCK 5.1",
    )
    assert (bronstein.expiry_before_claim.value, bronstein.expiry_before_claim.rule) == (
        True,
        "CLOCK 5.3",
    )
    assert not simple.concession_on_clock.value and simple.concession_on_clock.rule
    assert not simple.expiry_before_claim.value and simple.expiry_before_claim.rule
