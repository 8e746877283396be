"""Matches with a game clock, breaks and penalty points (the views and interchange tests).

:func:`record_clocked_match` plays the match of :data:`CLOCKED_LINES`, every
figure worked out by hand in its comments; :func:`record_lines` plays any
lines; :func:`missed_hit_match`, :func:`both_expired_match` and
:func:`penalty_after_game` record the rarer endings; :func:`clocked_random_match`
a random legal match with every turn ended by a hit.
"""

from __future__ import annotations

import contextlib
import random
from datetime import datetime, timedelta

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import Ruling
from bgledger.commands.vocabulary import parse
from bgledger.errors import ClockRefusedError
from bgledger.events import MatchEvent
from tests.match_driver import next_line

__all__ = [
    "CLOCKED_LINES",
    "T0",
    "both_expired_match",
    "clocked_random_match",
    "missed_hit_match",
    "penalty_after_game",
    "record_clocked_match",
    "record_lines",
]

T0 = "2026-11-21T10:00:00+00:00"

# Ann (a) v Bob (b), 5 points, usbgf-2016, simple delay (USBGF 3.5.5): 2 minutes a point,
# 10:00 each, a 12-second delay: a turn of t seconds costs max(0, t - 12) of the reserve.
# The events by number: 1 MatchStarted, 2 ClockStarted, then one a line below but for the
# drop (17 CubeDropped, 18 GameWon), the late return (20 BreakEnded, 21 PenaltyPointsAssessed)
# and the flag (29 TimeExpired, 30 MatchWon); each opening comes with its GameStarted before it
# and the lower die's ClockHit after it (3-5, 22-24): the opening roll starts the clock of the
# player who won it (CLOCK 3.3).
CLOCKED_LINES = """
@2026-11-21T10:01:00+00:00 opening 3 1       # 3 GameStarted, 4, 5 Bob's lower die: Ann's clock
@2026-11-21T10:01:45+00:00 move 8/5 6/5      # 6
@2026-11-21T10:01:45+00:00 hit               # 7: Ann 45 s, 33 past the delay: 9:27
@2026-11-21T10:01:50+00:00 roll 6 4          # 8
@2026-11-21T10:02:00+00:00 clock stop dispute  # 9: Bob 15 s, 3 past the delay: 9:57
@2026-11-21T10:03:00+00:00 clock read a=9:26 b=10:16  # 10: drift -0:01 / +0:19
@2026-11-21T10:05:00+00:00 clock resume      # 11: three minutes stopped are nobody's
@2026-11-21T10:05:10+00:00 move 24/18 13/9   # 12
@2026-11-21T10:05:10+00:00 hit               # 13: Bob 15 s + 10 s = 25 s, 13 past: 9:47
@2026-11-21T10:05:12+00:00 early-pickup b    # 14: Bob's first: a warning (USBGF 4.1.7.2)
@2026-11-21T10:05:30+00:00 double            # 15
@2026-11-21T10:05:30+00:00 hit               # 16: Ann 20 s, 8 past: 9:19
@2026-11-21T10:06:00+00:00 drop              # 17, 18: Bob 30 s, 18 past: 9:29; Ann 1-0
@2026-11-21T10:10:00+00:00 break start b     # 19: until 10:15, the clocks Ann 9:19, Bob 9:29
@2026-11-21T10:32:00+00:00 break end late b  # 20, 21: 17 minutes over: 1 point to Ann, 2-0
@2026-11-21T10:33:00+00:00 opening 1 3       # 22 GameStarted, 23, 24 Ann's lower die: Bob's
@2026-11-21T10:33:10+00:00 move 8/5 6/5      # 25
@2026-11-21T10:33:10+00:00 hit               # 26: Bob 10 s, inside the delay: 9:29
@2026-11-21T10:33:20+00:00 clock set a=0:30 b=9:29 clock error  # 27: Ann 10 s into her turn
@2026-11-21T10:33:25+00:00 penalty b 1 "USBGF 1.2.3" rude to the director  # 28: 3-0
@2026-11-21T10:34:00+00:00 flag a            # 29, 30: Ann 50 s, 38 past: 0:30 is gone
"""


def record_lines(
    lines: str, match_id: str = "timed", length: int = 5, **start: str
) -> list[MatchEvent]:
    """The events of a match Ann v Bob (from :data:`T0`) played with ``record`` lines."""
    match = Match.start(
        match_uuid(match_id), match_id, ("Ann", "Bob"), length, by="kim", at=T0, **start
    )
    for line in lines.splitlines():
        if line.split("#", 1)[0].strip():
            parse(line).run(match, "kim")
    return match.collect_events()


def record_clocked_match(match_id: str = "timed") -> list[MatchEvent]:
    """The 30 events of :data:`CLOCKED_LINES`: Bob wins on time at 0-3."""
    return record_lines(CLOCKED_LINES, match_id, clock="simple-delay")


def missed_hit_match() -> list[MatchEvent]:
    """Ann never hits after her play; Bob rolls and plays on her time (USBGF 4.1.8.1).

    1-2 the start, 3-4 Ann opens 3-1 at 10:01:00, 5 Bob's lower die starts her clock,
    6 Ann plays at 10:01:10 (10 s, inside the delay) and does not hit; 7-8 Bob rolls (as
    played: the ledger refuses a roll on Ann's time unless told it was made) and plays;
    9 the ruling at 10:02:00 voids 7-8; 10 restores 0:48 (60 s of Ann's turn, 48 past the
    delay): Ann 10:00 again.
    """
    match = Match.start(
        match_uuid("mh"), "mh", ("Ann", "Bob"), 5, by="kim", at=T0, clock="simple-delay"
    )
    parse("@2026-11-21T10:01:00+00:00 opening 3 1").run(match, "kim")
    parse("@2026-11-21T10:01:10+00:00 move 8/5 6/5").run(match, "kim")
    match.roll(6, 4, as_played=True, by="kim", at="2026-11-21T10:01:20+00:00")
    parse("@2026-11-21T10:01:50+00:00 move 24/18 13/9").run(match, "kim")
    events = match.collect_events()
    ruling = Ruling("director", "Ann never hit her clock", by="td", at="2026-11-21T10:02:00+00:00")
    match.missed_hit(events, ruling)
    return events + match.collect_events()


def both_expired_match() -> list[MatchEvent]:
    """Ann's reserve runs out with Bob's at 0:00 already: both expired (USBGF 4.3.3).

    3-4 Ann opens 3-1 at 10:01:05, 5 Bob's lower die starts her clock; 6 the clocks set at
    10:01:10, 5 s into Ann's turn (inside the delay): Ann 0:05, Bob 0:00; 7 Ann flagged at
    10:01:40: 35 s in, 23 past the delay: 0:00, and Bob's is 0:00: 8 both set to the nominal
    1:00.
    """
    lines = """
    @2026-11-21T10:01:05+00:00 opening 3 1
    @2026-11-21T10:01:10+00:00 clock set a=0:05 b=0:00 both clocks wrong
    @2026-11-21T10:01:40+00:00 flag a
    """
    return record_lines(lines, "both", clock="simple-delay")


def penalty_after_game() -> list[MatchEvent]:
    """2 points: Ann passes Bob's double in game 1 (0-1), then a penalty point wins Bob the match.

    1 MatchStarted, 2-3 Ann opens 3-1, 4 her play, 5 Bob doubles, 6-7 Ann passes: GameWon
    (Bob 1), 8 the penalty point (0-2), 9 MatchWon: Bob by Ann's penalty point.  No clock.
    """
    lines = """
    @2026-11-21T10:01:00+00:00 opening 3 1
    @2026-11-21T10:01:30+00:00 move 8/5 6/5
    @2026-11-21T10:02:00+00:00 double
    @2026-11-21T10:02:10+00:00 drop
    @2026-11-21T10:05:00+00:00 penalty a 1 "USBGF 4.7" refused to sign the score sheet
    """
    return record_lines(lines, "pen", length=2)


def clocked_random_match(seed: int, length: int = 3, actions: int = 300) -> list[MatchEvent]:
    """A random legal match (``online``'s concessions aside: usbgf-2016) with a clock, every
    turn ended by a hit, an action every 7 seconds (a 12-second delay: no reserve is spent)."""
    rng = random.Random(seed)
    match = Match.start(
        match_uuid("rc"), "rc", ("Ann", "Bob"), length, by="d", at=T0, clock="simple-delay"
    )
    when = datetime.fromisoformat(T0)
    for _ in range(actions):
        line = next_line(match.state, rng)
        if line is None:
            break
        when += timedelta(seconds=7)
        parse(f"@{when.isoformat()} {line}").run(match, "d")
        with contextlib.suppress(ClockRefusedError):  # a roll or a game's end: no hit
            match.hit(by="d", at=when.isoformat())
    return match.collect_events()
