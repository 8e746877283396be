"""Breaks, lateness and clocks under the USBGF rules and the 2007 clock rules.

Quotes are verbatim from ``rules/usbgf-tournament-rules-2016.txt`` (``USBGF``)
and ``rules/us-backgammon-clock-rules-2007-bronstein.txt`` (``CLOCK``), except
that typographic quotes and apostrophes are written as straight ones.  Times
are in seconds.
"""

from __future__ import annotations

from bgledger.rules._id_checks import MAX_CUBE
from bgledger.rules._profile_model import (
    BreakBand,
    BreakRules,
    Citation,
    Cited,
    ClockKind,
    ClockRules,
    EarlyPickup,
    ForgottenHit,
    LatenessRules,
    Limits,
    cite,
)


def _band(shortest: int, longest: int | None, breaks: int, quote: str) -> BreakBand:
    return BreakBand(shortest, longest, breaks, Citation(rule="USBGF 2.2.2", quote=quote))


BREAKS = BreakRules(
    minutes_each=cite(
        5,
        "USBGF 2.2.2",
        "Each player is entitled to the following number of five-minute breaks during the "
        "course of a match",
    ),
    bands=(
        _band(1, 9, 1, "In matches of 9 points or less: one break"),
        _band(11, 13, 2, "In matches of 11-13 points: two breaks"),
        _band(15, 19, 3, "In matches of 15-19 points: three breaks"),
        _band(20, None, 4, "In matches longer than 19 points: four breaks"),
    ),
    during_game_allowed=cite(
        True,
        "USBGF 2.2.2",
        "Breaks should generally only be taken in between games but, in exceptional "
        "circumstances, may be taken during a game.",
    ),
    consecutive_allowed=cite(
        True,
        "USBGF 2.2.2",
        "Breaks may be taken consecutively at one or both players' request provided that the "
        "players announce the intention to do so before the break begins.",
    ),
    uncovered_lengths=Citation(
        rule="USBGF 2.2.3",
        quote="The Tournament Director shall have discretion to make an exception",
        note="USBGF 2.2.2 gives no allotment for 10- or 14-point matches: they get the band "
        "below (one and two breaks), since neither reaches the next band's shortest length; "
        "the director may grant more as an exception.",
    ),
)

LATENESS = LatenessRules(
    grace_minutes=cite(
        15,
        "USBGF 2.2.4",
        "If a player is not present and has not started the match fifteen (15) minutes after "
        "the starting time or after the end of the permitted break, then one penalty point "
        "will be assessed",
        "Applied after a break too, although the rule's last sentences speak of one point "
        "for each five-minute delay after a break. Points are at the director's discretion "
        "('may result in penalty points').",
    ),
    step_minutes=cite(
        5,
        "USBGF 2.2.4",
        "after which an additional penalty point will be assessed for each subsequent "
        "five-minute delay",
    ),
    no_show_forfeit_over_half_length=cite(
        True,
        "USBGF 2.2.4",
        "assessed penalty points equal to more than half of the entire match length, "
        "automatic match forfeiture will result",
    ),
    after_break_forfeit_at_opponent_away=cite(
        True,
        "USBGF 2.2.4",
        "with no automatic match forfeiture occurring until his opponent's remaining match "
        "length has been reached",
    ),
)

_DELAY_QUOTE = "with twelve (12) seconds being the default delay time if not otherwise specified"
_DOUBLES_BY_DIRECTOR: Cited[int | None] = cite(
    None,
    "USBGF 3.5.5",
    'In doubles matches and so-called "speed gammon" events, the Tournament Director has '
    "discretion to determine the appropriate amount of match time and delay time",
)

_REFUSE_ROLL = cite(
    ForgottenHit.REFUSE_ROLL,
    "USBGF 4.1.8.1",
    "If a player fails to activate his opponent's time, all subsequent purported rolls and "
    "moves shall be nullified",
    "A roll or double on the opponent's time would be nullified on detection, so the ledger "
    "refuses it: record the hit first if it was made; if it was not, the opponent hits now "
    "and the roll is made again.",
)

SIMPLE_DELAY = ClockRules(
    kind=ClockKind.SIMPLE_DELAY,
    basis=Citation(
        rule="USBGF 3.5.5",
        quote="All matches played using game clocks must use the time delay method known as",
    ),
    reserve_per_point=cite(
        120,
        "USBGF 3.5.5",
        "each player's starting amount of match time will be equal to two (2) minutes per point",
    ),
    reserve_less_per_point_scored=cite(
        None,
        "USBGF 3.5.5",
        "each player is allotted a certain amount of reserve time for each point of the match",
        "Nothing is deducted for points scored; a clock started mid-match follows USBGF 3.5.6.",
    ),
    reserve_per_point_to_go=cite(
        60,
        "USBGF 3.5.6",
        "RA is the number of points remaining for player A to win the match",
        "RA+RB whole minutes for each player: one minute per point either still needs.",
    ),
    delay=cite(12, "USBGF 3.5.5", _DELAY_QUOTE),
    delay_range=cite(
        (12, 15),
        "USBGF 3.5.5",
        "shall be an amount between twelve (12) and fifteen (15) seconds set at the "
        "Tournament Director's discretion",
    ),
    doubles_reserve_per_point=_DOUBLES_BY_DIRECTOR,
    doubles_reserve_less_per_point_scored=_DOUBLES_BY_DIRECTOR,
    doubles_delay=_DOUBLES_BY_DIRECTOR,
    introduce_mid_game=cite(
        True,
        "USBGF 3.5.2.1",
        "At any time before or during a match, two players can agree to play their match "
        "using a game clock.",
        "The director may also order one at any time (USBGF 3.5.2.4(b), 2.3.1).",
    ),
    expiry_loses_match=cite(
        True,
        "USBGF 4.3.3",
        "A player whose reserve time has expired automatically forfeits the match.",
        "Unless the players agreed otherwise and recorded it (USBGF 3.5.2.1).",
    ),
    expiry_before_claim=cite(
        False,
        "USBGF 4.3.3",
        "Time is deemed to have run out when one of the players, a spectator, or a member of "
        "the Tournament staff correctly announces that a player's reserve time has expired.",
        "A match won before anyone announced the expiry stands.",
    ),
    concession_on_clock=cite(
        False,
        "USBGF 4.3.2(h)",
        "When a player believes that the game's outcome is no longer in doubt even though "
        "additional rolls are technically needed to complete the game. If the other player "
        "disagrees, the game clock is restarted and the game is played to its conclusion.",
        "A concession stops no clock by itself ('clock stop h' does), and the opponent may "
        "reject it (USBGF 4.5).",
    ),
    early_pickup=cite(
        EarlyPickup.WARNING_THEN_RESERVE_PENALTY,
        "USBGF 4.1.7.2",
        "the Tournament Director should be called for purposes of issuing a warning to the "
        "offending player",
    ),
    early_pickup_penalty_seconds=cite(
        30,
        "USBGF 4.1.7.2",
        "impose a reserve time penalty of thirty (30) seconds for each subsequent violation",
        "Down to one second if less than 30 s remain; one more violation forfeits the match.",
    ),
    opening_starts_clock=cite(
        True,
        "CLOCK 3.3",
        "The player rolling the lower die starts the opponent's clock.",
        "The USBGF rules do not say who starts the clock after the opening roll; USBGF 4.3.4 "
        "has the players 'ensure that it is assessing time against the appropriate player', "
        "and the winner of the opening roll plays first: the ledger applies the 2007 clock "
        "rules' CLOCK 3.3 to a simple-delay clock too.",
    ),
    forgotten_hit=_REFUSE_ROLL,
)

_BRONSTEIN_DEDUCTIBLE = "The per move deductible is 12 seconds per move for each player."

BRONSTEIN = ClockRules(
    kind=ClockKind.BRONSTEIN,
    basis=Citation(
        rule="USBGF 1.1",
        quote="no rules other than these Rules may be used except as may be expressly "
        "promulgated by the Tournament Director in advance",
        note="USBGF 3.5.5 requires simple delay: a Bronstein clock runs under the 2007 "
        "clock rules only where the director has promulgated them.",
    ),
    reserve_per_point=cite(
        120,
        "CLOCK 2.1",
        "Reserve time for each player is set at two (2) minutes per match point",
    ),
    reserve_less_per_point_scored=cite(
        60,
        "CLOCK 2.1",
        "less one (1) minute per point already scored by either player",
        "Read as the two scores added, so 2 min x length - 1 min x (score A + score B), "
        "the same as USBGF 3.5.6's RA+RB.",
    ),
    reserve_per_point_to_go=cite(
        None,
        "CLOCK 2.1",
        "Reserve time is based on match length.",
        "The deduction per point scored covers clocks set mid-match.",
    ),
    delay=cite(12, "CLOCK 2.1", _BRONSTEIN_DEDUCTIBLE),
    delay_range=cite((12, 12), "CLOCK 2.1", _BRONSTEIN_DEDUCTIBLE),
    doubles_reserve_per_point=cite(
        150,
        "CLOCK 2.2",
        "For Doubles matches reserve time for each team is set at two and one-half",
    ),
    doubles_reserve_less_per_point_scored=cite(
        75,
        "CLOCK 2.2",
        "less one and one-quarter",
        "One and a quarter minutes per point already scored by either team.",
    ),
    doubles_delay=cite(
        18,
        "CLOCK 2.2",
        "The per move deductible is 18 seconds per move for each team.",
    ),
    introduce_mid_game=cite(
        False,
        "CLOCK 1.1",
        "Clocks can be introduced only at the start of a game.",
    ),
    expiry_loses_match=cite(
        True,
        "CLOCK 5.3",
        "A player who exhausts his reserve time before he can validly claim the match is "
        "declared the loser.",
    ),
    expiry_before_claim=cite(
        True,
        "CLOCK 5.3",
        "A player who exhausts his reserve time before he can validly claim the match is "
        "declared the loser.",
        "A flag after the last checker is off, the winner's reserve spent before it: he "
        "loses the match, at the score before that game.",
    ),
    concession_on_clock=cite(
        True,
        "CLOCK 5.1",
        "The Director will require the opponent to accept the offer when no outcome more "
        "favorable for him can occur; otherwise, the Director deems the offer invalid and "
        "restarts the player's clock.",
        "The offer stops both clocks ('Prior to rolling the dice a player may concede [...] by "
        "stopping both clocks'); a reject is refused when nothing better can occur for the "
        "opponent (the director's must-accept), else the player's clock restarts.",
    ),
    early_pickup=cite(
        EarlyPickup.DELAY_FORFEITED,
        "CLOCK 4.1",
        "A player who prematurely picks up the dice forfeits his per move deductible for his "
        "next checker play.",
    ),
    early_pickup_penalty_seconds=cite(
        None,
        "CLOCK 4.1",
        "The penalized player must wait until his deductible has counted down to zero",
        "No reserve-time penalty: the deductible is lost instead.",
    ),
    opening_starts_clock=cite(
        True, "CLOCK 3.3", "The player rolling the lower die starts the opponent's clock."
    ),
    forgotten_hit=_REFUSE_ROLL,
)


LIMITS = Limits(
    reserve_per_point=cite(
        300,
        None,
        note="A convention: no rule caps a clock's figures.  Five minutes a point of the "
        "match, twice the longest reserve any table gives (CLOCK 2.2: two and a half "
        "minutes a point for a doubles team); a reserve, reading, setting or nominal time "
        "past it is refused as a slip.",
    ),
    reserve_at_least=cite(
        2 * 60 * 60,
        None,
        note="A convention: however short the match, a clock may be set to two hours (a "
        "director may give a short match a generous clock); past the longer of this and "
        "five minutes a point, a figure is refused as a slip.",
    ),
    delay=cite(
        36,
        None,
        note="A convention: twice the longest delay any rule gives (CLOCK 2.2: 18 seconds "
        "for doubles); a delay the director sets past it is refused as a slip.",
    ),
    breaks_at_once=cite(
        8,
        None,
        note="A convention: twice the most breaks any match is allotted (USBGF 2.2.2: four); "
        "a director's exception combines no more into one break.",
    ),
    cube=cite(
        MAX_CUBE,
        None,
        note="A convention: the highest cube a Match ID records (2 to the 15th); a double "
        "past it, even one recorded as played, is refused.",
    ),
)
"""The largest figures a command may give (:class:`Limits`): the profile's conventions."""
