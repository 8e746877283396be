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

import pytest

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.errors import BgLedgerError, ClockRefusedError
from bgledger.events import (
    ClockSet,
    ClockStopped,
    MatchEvent,
    ReserveTimeRestored,
)
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
