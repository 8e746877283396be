"""Every number a command takes is bounded by what the rules allow (issue 25, DESIGN principle 11).

``penalty a 99999999999999999999 ...`` was recorded, and the read models
overflowed from then on: every tournament view answered 500.  Now each number
of the vocabulary (:mod:`bgledger.commands.vocabulary`) past what the match's
rules allow is refused before anything is stored, with the rule cited from the
profile (``profile.cite``): penalty points by the points the opponent still
needs, a clock's figures and a combined break and a cube's level by the
profile's :class:`~bgledger.rules.profiles.Limits`.  Dice (1-6), event and
entry numbers (the match's events), a corrected length (1-999) and score (below
the length) were bounded already: their refusals are checked here too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bgledger.errors import ActionRefusedError, BgLedgerError
from bgledger.rules.profiles import Decision, get_profile
from bgledger.service import Ledger

BIG = "99999999999999999999"
PROFILE = get_profile("usbgf-2016")


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="m", event="Open", by="kim")
    yield ledger
    ledger.close()


def refused(ledger: Ledger, line: str, decision: Decision) -> ActionRefusedError:
    """``line`` refused with ``decision``'s rule, nothing stored, every view serving."""
    before = len(ledger.events("m"))
    with pytest.raises(ActionRefusedError) as caught:
        ledger.record_line("m", line, by="kim")
    assert caught.value.rule == PROFILE.cite(decision), caught.value
    assert len(ledger.events("m")) == before
    ledger.matches(), ledger.standings(), ledger.rulings()
    return caught.value


@pytest.mark.parametrize("points", [BIG, "999999999999", "6"])
def test_a_penalty_past_the_points_the_opponent_needs_is_refused(
    ledger: Ledger, points: str
) -> None:
    error = refused(ledger, f"penalty a {points} 'USBGF 2.2.4' left", Decision.PENALTY_POINTS)
    assert "5" in error.reason  # Bob needs 5 points to win


def test_a_penalty_of_the_points_the_opponent_needs_wins_him_the_match(ledger: Ledger) -> None:
    ledger.record_line("m", "penalty a 5 'USBGF 2.2.4' left", by="kim")
    assert ledger.state("m").winner == "b"


def test_the_bound_follows_the_score(ledger: Ledger) -> None:
    ledger.record_line("m", "penalty a 2 'USBGF 2.2.4' left", by="kim")  # Bob 2-0: 3 to go
    refused(ledger, "penalty a 4 'USBGF 2.2.4' left", Decision.PENALTY_POINTS)
    ledger.record_line("m", "penalty b 4 'USBGF 2.2.4' left", by="kim")  # Ann still needs 5


CLOCKED = [
    # a 5-point match: 5:00 a point is 25:00, less than two hours: two hours at most
    ("clock read a=2:00:00.001 b=1:00", Decision.CLOCK_ERRORS),
    (f"clock read a=1:00 b={BIG}:00:00", Decision.CLOCK_ERRORS),
    ("clock set a=2:00:01 b=1:00 knocked over", Decision.CLOCK_ERRORS),
    (f"clock set a={BIG}:00:00 b=1:00 knocked over", Decision.CLOCK_ERRORS),
]


@pytest.mark.parametrize(("line", "decision"), CLOCKED)
def test_a_clocks_figure_past_the_profiles_limit_is_refused(
    ledger: Ledger, line: str, decision: Decision
) -> None:
    ledger.record_line("m", "clock start simple-delay", by="kim")
    refused(ledger, line, decision)


@pytest.mark.parametrize("nominal", ["2:00:01", f"{BIG}:00:00"])
def test_a_nominal_time_past_the_limit_is_refused(ledger: Ledger, nominal: str) -> None:
    """Both reserves spent: both get the nominal time (USBGF 4.3.3), bounded as any figure."""
    for line in ("clock start simple-delay", "clock set a=0:00 b=0:00 both spent"):
        ledger.record_line("m", line, by="kim")
    refused(ledger, f"flag a nominal {nominal}", Decision.TIME_EXPIRED)


def test_a_clocks_figure_at_the_limit_is_recorded(ledger: Ledger) -> None:
    ledger.record_line("m", "clock start simple-delay", by="kim")
    ledger.record_line("m", "clock read a=2:00:00 b=2:00:00", by="kim")
    ledger.record_line("m", "clock set a=2:00:00 b=0:00 knocked over", by="kim")


def test_a_long_match_may_have_five_minutes_a_point(ledger: Ledger) -> None:
    ledger.start(("Cy", "Di"), 25, match_id="long", by="kim")
    ledger.record_line("long", "clock start simple-delay reserve 2:05:00", by="kim")
    with pytest.raises(ActionRefusedError):
        ledger.record_line("long", "clock set a=2:05:01 b=0:00 knocked over", by="kim")


@pytest.mark.parametrize(
    "line",
    [
        "clock start simple-delay reserve 2:00:01",
        f"clock start simple-delay reserve {BIG}:00:00",
        f"clock start simple-delay doubles reserve 10:00 delay {BIG}",
        "clock start simple-delay doubles reserve 10:00 delay 37",
    ],
)
def test_a_clock_started_past_the_profiles_limit_is_refused(ledger: Ledger, line: str) -> None:
    refused(ledger, line, Decision.CLOCK_SETTING)


def test_the_limits_are_the_profiles_conventions_with_a_note() -> None:
    limits = PROFILE.limits
    assert limits.longest_reserve_ms(5) == 2 * 60 * 60 * 1000
    assert limits.longest_reserve_ms(25) == 125 * 60 * 1000
    cited_limits = (limits.reserve_per_point, limits.reserve_at_least, limits.delay,
                    limits.breaks_at_once, limits.cube)  # fmt: skip
    for cited in cited_limits:
        assert cited.rule is None and cited.note  # a convention, and it says so


@pytest.mark.parametrize("combine", [BIG, "99999", "9"])
def test_a_combined_break_past_the_limit_is_refused(ledger: Ledger, combine: str) -> None:
    refused(ledger, f"break start both combine {combine} exception 'x'", Decision.BREAK_EXCEPTION)


def test_a_cube_past_the_limit_is_refused_even_as_played(ledger: Ledger) -> None:
    for line in ("opening 3 1", "move 8/5 6/5"):
        ledger.record_line("m", line, by="kim")
    refused(ledger, f"double --to {2**70} --as-played", Decision.CUBE_LEVEL)
    ledger.record_line("m", "roll 6 4", by="kim")  # Bob rolls; Ann doubles before he moves
    refused(ledger, f"double --to {2**70} --as-played --premature", Decision.CUBE_LEVEL)


def test_redoubling_as_played_stops_at_the_limit(ledger: Ledger) -> None:
    for line in ("opening 3 1", "move 8/5 6/5"):
        ledger.record_line("m", line, by="kim")
    while ledger.state("m").cube < PROFILE.limits.cube.value:
        ledger.record_line("m", "double --as-played", by="kim")
        ledger.record_line("m", "take", by="kim")
    refused(ledger, "double --as-played", Decision.CUBE_LEVEL)
    refused(ledger, "beaver --as-played", Decision.CUBE_LEVEL)


@pytest.mark.parametrize(
    "line",
    [
        f"opening {BIG} 1",
        f"revert {BIG} --reason x",
        f"amend {BIG} note x",
        f"correct-length {BIG} --reason x",
        f"correct-score {BIG}-0 --reason x",
    ],
)
def test_the_numbers_bounded_before_are_refused_too(ledger: Ledger, line: str) -> None:
    before = len(ledger.events("m"))
    with pytest.raises(BgLedgerError):
        ledger.record_line("m", line, by="kim")
    assert len(ledger.events("m")) == before
