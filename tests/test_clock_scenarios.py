"""Clock, break and penalty-point transcripts under fixtures/scenarios, recorded through ``record``.

Every line of these transcripts carries its time (``@TIME``), so reserves are
fixed by the transcript alone.  The reserves, scores and events asserted here
were worked out by hand from the transcripts' times (the arithmetic is in the
comments), never read back from the ledger and pasted in.  Simple delay
(USBGF 3.5.5) takes ``max(0, used - 12 s)`` off at the end of a turn; a
Bronstein clock (CLOCK 2.1, 3.4) counts down at once and gives back up to
12 s at the hit.  Figures are milliseconds: 10:00 is 600000.

The last test, USBGF 4.1.8.1's missed hit, uses the library directly:
``record`` has no ruling lines.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import Ruling
from bgledger.commands.vocabulary import parse
from bgledger.errors import ClockRefusedError
from bgledger.events import (
    BreakEnded,
    BreakStarted,
    ClockHit,
    ClockRead,
    ClockSet,
    ClockStarted,
    ClockStopped,
    GameWon,
    MatchEvent,
    MatchWon,
    PenaltyPointsAssessed,
    PlaysReverted,
    ReserveTimePenalized,
    ReserveTimeRestored,
    TimeExpired,
)
from bgledger.projections.state.clock import at_ms, figures
from bgledger.projections.state.fold import MatchState, Phase
from bgledger.store.application import MatchStore
from tests.conftest import REPO

SCENARIOS = REPO / "fixtures" / "scenarios"
DAY = "2026-11-21T"


def run(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


@dataclasses.dataclass
class Recorded:
    """A transcript recorded as match ``m``: ``record``'s result, refusals and the stored match."""

    result: Result
    refused: list[dict[str, Any]]
    state: MatchState
    history: list[MatchEvent]
    db: str

    def at(self, version: int) -> MatchState:
        """The state after event ``version``, loaded from the store."""
        with MatchStore(self.db) as ledger:
            return ledger.state("m", at=version)

    def events(self, kind: type[MatchEvent]) -> list[Any]:
        return [e for e in self.history if isinstance(e, kind)]

    def version(self, kind: type[MatchEvent], hms: str) -> int:
        """The number of the one ``kind`` event at ``hms`` (10:02:30) on the transcripts' day."""
        when = f"{DAY}{hms}+00:00"
        found: list[int] = [e.originator_version for e in self.events(kind) if e.at == when]
        assert len(found) == 1, (kind.__name__, hms, found)
        return found[0]

    def reserves(self, kind: type[MatchEvent], hms: str) -> tuple[int, int]:
        """Both settled reserves after the ``kind`` event at ``hms``."""
        timer = self.at(self.version(kind, hms)).timer
        assert timer is not None
        return timer.reserve_ms


def start_options(text: str, **override: str) -> list[str]:
    """The transcript's ``# start:`` options, with ``override`` (``length="10"``) replacing some."""
    header = re.search(r"^# start: (.*)$", text, re.MULTILINE)
    assert header, "the transcript has no '# start:' line"
    words = shlex.split(header.group(1))
    for name, value in override.items():
        words[words.index(f"--{name}") + 1] = value
    return words


def record(db: str, name: str, text: str | None = None) -> Recorded:
    """Start match ``m`` with the transcript's ``# start:`` options and feed it to ``record``."""
    text = (SCENARIOS / name).read_text() if text is None else text
    started = run(db, "start", "--id", "m", "--by", "kim", *start_options(text))
    assert started.exit_code == 0, started.output
    result = run(db, "record", "m", "--by", "kim", "--json", stdin=text)
    document = json.loads(result.stdout)
    with MatchStore(db) as ledger:
        state, history = ledger.state("m"), ledger.history("m")
    return Recorded(result, document["refused"], state, history, db)


def is_refused(line: str) -> bool:
    """An action line whose comment begins 'refused'."""
    action, _, comment = line.partition("#")
    return bool(action.strip()) and comment.strip().startswith("refused")


def marked(name: str) -> list[int]:
    """The transcript's line numbers marked 'refused'."""
    lines = (SCENARIOS / name).read_text().splitlines()
    return [n for n, line in enumerate(lines, 1) if is_refused(line)]


def check_refusals(recorded: Recorded, name: str, expected: list[tuple[str, ...]]) -> None:
    """Just the lines marked 'refused' were refused (exit 1), each message saying ``expected``."""
    assert [r["line"] for r in recorded.refused] == marked(name)
    assert recorded.result.exit_code == (1 if expected else 0), recorded.result.output
    assert len(recorded.refused) == len(expected)
    for refusal, words in zip(recorded.refused, expected, strict=True):
        for word in words:
            assert word in refusal["error"], (refusal, word)


def said(event: MatchEvent) -> dict[str, Any]:
    """What an event says, without the store's timestamp (and the chain, which covers it)."""
    fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
    del fields["timestamp"], fields["chain"]
    return {"type": type(event).__name__, **fields}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'clock.db'}"


# -- 1. a clocked 5-point match played to the end -----------------------------------------------

FIVE = "clock-five-point-match.txt"


def hits_per_game(name: str, player: str) -> list[int]:
    """``hit PLAYER`` lines per game in the transcript, but the opening hits (no turn ends)."""
    counts: list[int] = []
    for line in (SCENARIOS / name).read_text().splitlines():
        if line.startswith("# game "):
            counts.append(0)
        elif line.split("#")[0].strip().endswith(f"hit {player}") and "opening" not in line:
            counts[-1] += 1
    return counts


def test_clocked_five_point_match_to_the_end(db: str) -> None:
    # Ann's turns end with her hits, or with the game when her action ends it: her pass in
    # game 2 and her last bear-offs in games 3 and 4.  Every one of her turns lasts 14 s
    # (2 s past the 12-second delay) except the 1:12 think in game 1 (60 s past it).
    assert hits_per_game(FIVE, "a") == [36, 3, 26, 24, 3, 42]
    ann_turns = [36, 3 + 1, 26 + 1, 24 + 1, 3, 42]
    # Bob's turns last 10 s (nothing off) except: the 2:12 take (120 s off), a turn of exactly
    # 12 s (nothing off) and one of 13 s (1 s off) in game 1; a 30 s double in game 4 (18 s
    # off); a 45 s turn in game 6 (33 s off).
    recorded = record(db, FIVE)
    check_refusals(recorded, FIVE, [])
    assert recorded.result.exit_code == 0

    # Game by game (the reserves as the game ends, its last turn charged):
    # game 1: Ann 10:00 - (35 x 2 s + 60 s) = 10:00 - 2:10 = 7:50; Bob 10:00 - 2:01 = 7:59
    # game 2: Ann 7:50 - 4 x 2 s = 7:42;          Bob 7:59
    # game 3: Ann 7:42 - 27 x 2 s = 7:42 - 0:54 = 6:48; Bob 7:59
    # game 4: Ann 6:48 - 25 x 2 s = 6:48 - 0:50 = 5:58; Bob 7:59 - 0:18 = 7:41
    # game 5: Ann 5:58 - 3 x 2 s = 5:52;          Bob 7:41
    # game 6: Ann 5:52 - 42 x 2 s = 5:52 - 1:24 = 4:28; Bob 7:41 - 0:33 = 7:08
    assert ann_turns == [36, 4, 27, 25, 3, 42]
    expected = [
        (470_000, 479_000, (0, 2)),  # Bob's single game at cube 2
        (462_000, 479_000, (0, 3)),  # Ann passes Bob's double
        (408_000, 479_000, (1, 3)),  # Ann's single game
        (358_000, 461_000, (3, 3)),  # Ann's single game at cube 2
        (352_000, 461_000, (4, 3)),  # Bob passes Ann's double
        (268_000, 428_000, (4, 5)),  # the Crawford game: Bob's gammon
    ]
    ends = [e.originator_version for e in recorded.history if isinstance(e, GameWon)]
    assert len(ends) == 6
    for number, (version, (a, b, score)) in enumerate(zip(ends, expected, strict=True), 1):
        state = recorded.at(version)
        assert state.timer is not None
        assert state.timer.reserve_ms == (a, b), f"after game {number}"
        assert state.timer.turn is None and state.timer.stopped == "game-over"
        assert state.score == score, f"after game {number}"
    assert [g.crawford for g in recorded.state.games] == [False] * 5 + [True]
    assert [(g.winner, g.result, g.cube) for g in recorded.state.games] == [
        ("b", "single", 2),
        ("b", "single", 1),
        ("a", "single", 1),
        ("a", "single", 2),
        ("a", "single", 1),
        ("b", "gammon", 1),
    ]
    assert recorded.state.winner == "b" and recorded.state.score == (4, 5)
    assert recorded.events(MatchWon)[0].winner == "b"

    # Early in game 1, turn by turn (Bob moved first, and Bob's 10 s turns take nothing):
    # Ann 10:01:15-10:01:29, 14 s: 2 s off: 9:58; Bob 10 s; Ann 10:01:39-10:01:53: 9:56;
    # Ann's think 10:02:03-10:03:15, 72 s: 60 s off: 8:56; Ann's double 14 s: 8:54.
    assert recorded.reserves(ClockStarted, "10:00:00") == (600_000, 600_000)
    assert recorded.reserves(ClockHit, "10:01:29") == (598_000, 600_000)
    assert recorded.reserves(ClockHit, "10:01:53") == (596_000, 600_000)
    assert recorded.reserves(ClockHit, "10:03:15") == (536_000, 600_000)
    assert recorded.reserves(ClockHit, "10:03:39") == (534_000, 600_000)
    # The readings match the ledger's figures to the second, so no drift:
    # 10:02:10, 7 s into Ann's think (inside the delay): a=9:56, b=10:00;
    # 10:03:00, 57 s in: 9:56 - (57 - 12) s = 9:11;
    # 10:04:51, 72 s into Bob's take: Ann 8:54, Bob 10:00 - (72 - 12) s = 9:00.
    for hms in ("10:02:10", "10:03:00", "10:04:51"):
        timer = recorded.at(recorded.version(ClockRead, hms)).timer
        assert timer is not None and timer.drift_ms == (0, 0), hms
    reads = [(e.reserve_a_ms, e.reserve_b_ms) for e in recorded.events(ClockRead)]
    assert reads == [(596_000, 600_000), (551_000, 600_000), (534_000, 540_000)]
    # The take's 2:12 settled at Bob's hit: 10:00 - 2:00 = 8:00; then 12 s (nothing off) and
    # 13 s (1 s off): 7:59.
    assert recorded.reserves(ClockHit, "10:05:51") == (534_000, 480_000)
    assert recorded.reserves(ClockHit, "10:06:17") == (532_000, 480_000)
    assert recorded.reserves(ClockHit, "10:06:44") == (530_000, 479_000)


# -- 2. a flag refused, then accepted (USBGF 4.3.3) -----------------------------------------------


def test_flag_refused_while_time_remains_then_the_match_is_lost_on_time(db: str) -> None:
    name = "clock-flag.txt"
    recorded = record(db, name)
    check_refusals(
        recorded,
        name,
        [
            ("Bob has 1:12 left", "USBGF 4.3.3"),  # 6:00 - (5:00 - 0:12) = 1:12
            ("Ann has 5:00 left", "USBGF 4.3.3"),  # 6:00 - (1:12 - 0:12) = 5:00, not running
            ("Bob has 0:01 left", "USBGF 4.3.3"),  # 6:00 - (6:11 - 0:12) = 0:01
            ("match is over",),
            ("match is over", "USBGF 4.3.2(a)"),
        ],
    )
    # 3 points: 2 minutes a point = 6:00 each.  Ann: 1:12 - 0:12 = 1:00 off: 5:00.
    # Bob at the flag, 6:12 into his turn: 6:00 - (6:12 - 0:12) = 0:00.
    (expired,) = recorded.events(TimeExpired)
    assert (expired.player, expired.outcome, expired.rule) == ("b", "forfeit", "USBGF 4.3.3")
    assert (expired.reserve_a_ms, expired.reserve_b_ms) == (300_000, 0)
    assert expired.at == f"{DAY}10:08:29+00:00"
    (won,) = recorded.events(MatchWon)
    assert (won.winner, won.score_a, won.score_b) == ("a", 0, 0)
    assert recorded.state.winner == "a" and recorded.state.score == (0, 0)
    assert recorded.state.timer is not None
    assert recorded.state.timer.reserve_ms == (300_000, 0)


# -- 3. stops (USBGF 4.3.2) are nobody's time -----------------------------------------------------


def test_time_while_stopped_is_not_charged(db: str) -> None:
    name = "clock-dispute-stop.txt"
    recorded = record(db, name)
    check_refusals(
        recorded,
        name,
        [
            ("not running", "die fell", "USBGF 4.3.2"),  # stopped already
            ("has not finished the turn", "USBGF 4.1.8.1"),  # Bob has not rolled
            ("nothing to resume", "USBGF 4.3.2"),
            ("a break stops the clock when it is recorded", "USBGF 4.3.2(b)"),
            ("stop reason 'shaky'",),
        ],
    )
    stops = [(e.reason, e.rule) for e in recorded.events(ClockStopped)]
    assert stops == [
        ("die-fell", "USBGF 4.3.2(c)"),
        ("dispute", "USBGF 4.3.2(d)"),
        ("dispute", "USBGF 4.3.2(d)"),
    ]
    # Ann's opening turn: 10:01:05-10:01:15, 10 s: 10:00.
    # Bob: 10:01:15-10:02:30 is 75 s, less the minute stopped (10:01:16-10:02:16): 15 s:
    # 3 s past the delay: 9:57.
    assert recorded.reserves(ClockStopped, "10:01:16") == (600_000, 600_000)
    assert recorded.reserves(ClockHit, "10:02:30") == (600_000, 597_000)
    # Ann: 10:02:30-10:07:58 is 328 s, less the five minutes stopped (10:02:38-10:07:38):
    # 28 s: 16 s past the delay: 10:00 - 0:16 = 9:44.
    stopped = recorded.at(recorded.version(ClockRead, "10:04:38"))
    assert stopped.timer is not None
    assert stopped.timer.drift_ms == (0, 0)  # shown a=10:00 b=9:57 while stopped: Ann 8 s used
    assert figures(stopped.timer, at_ms(f"{DAY}10:07:00+00:00")) == (600_000, 597_000)
    assert recorded.reserves(ClockHit, "10:07:58") == (584_000, 597_000)
    # Bob's turn, 10:07:58-10:08:10, is exactly the 12-second delay: nothing off.
    assert recorded.reserves(ClockHit, "10:08:10") == (584_000, 597_000)
    read = recorded.at(recorded.version(ClockRead, "10:08:30"))
    assert read.timer is not None
    assert read.timer.reserve_ms == (584_000, 597_000)
    # Ann's clock showed 9:40 at 10:08:30 (stopped at 10:08:20, 10 s into her turn, inside
    # the delay: the ledger has 9:44): 4 s short.
    assert read.timer.drift_ms == (-4_000, 0)
    (setting,) = recorded.events(ClockSet)
    assert (setting.reserve_a_ms, setting.reserve_b_ms) == (580_000, 595_000)
    assert setting.rule == "USBGF 4.3.4"
    assert setting.reason == "faulty clock replaced; times from the score sheets"
    after_set = recorded.at(setting.originator_version)
    assert after_set.timer is not None and after_set.timer.drift_ms is None
    assert figures(after_set.timer, at_ms(setting.at)) == (580_000, 595_000)
    # Ann's turn: 10 s before the stop, 10 s after the resume (10:10:20-10:10:30): 20 s,
    # 8 s past the delay, off the 9:40 set: 9:32.  Bob keeps the 9:55 set.
    assert recorded.state.timer is not None
    assert recorded.state.timer.reserve_ms == (572_000, 595_000)
    assert recorded.state.timer.turn == "b"


# -- 4. early pick-ups: USBGF 4.1.7.2 under simple delay, CLOCK 4.1 under Bronstein ---------------


def test_early_pickups_warning_thirty_seconds_one_second_then_forfeit(db: str) -> None:
    name = "clock-early-pickup.txt"
    recorded = record(db, name)
    check_refusals(
        recorded,
        name,
        [("Bob's own turn", "USBGF 4.1.7.2"), ("match is over",)],
    )
    penalties = [
        (e.player, e.kind, e.penalty_ms, e.rule) for e in recorded.events(ReserveTimePenalized)
    ]
    assert penalties == [
        ("b", "warning", 0, "USBGF 4.1.7.2"),
        ("b", "reserve", 30_000, "USBGF 4.1.7.2"),
        ("b", "reserve", 30_000, "USBGF 4.1.7.2"),
        ("b", "to-one-second", 30_000, "USBGF 4.1.7.2"),
    ]
    reserves = [
        recorded.at(e.originator_version).timer for e in recorded.events(ReserveTimePenalized)
    ]
    assert [t.reserve_ms[1] for t in reserves if t is not None] == [
        120_000,  # 1 point: 2:00; a warning takes nothing
        90_000,  # 2:00 - 0:30 = 1:30
        22_000,  # 1:30 - (50 s - 12 s) = 0:52 at his hit; 0:52 - 0:30 = 0:22
        1_000,  # 0:22 is less than 0:30: reduced to 0:01
    ]
    # Bob's 50 s turn (10:01:35-10:02:25): 38 s off 1:30: 0:52.
    assert recorded.reserves(ClockHit, "10:02:25") == (120_000, 52_000)
    # Bob's 10 s turn after being reduced (10:02:55-10:03:05) stays inside the delay: 0:01.
    assert recorded.reserves(ClockHit, "10:03:05") == (120_000, 1_000)
    (expired,) = recorded.events(TimeExpired)
    assert (expired.player, expired.outcome, expired.rule) == ("b", "forfeit", "USBGF 4.1.7.2")
    assert (expired.reserve_a_ms, expired.reserve_b_ms) == (120_000, 1_000)
    (won,) = recorded.events(MatchWon)
    assert (won.winner, won.score_a, won.score_b) == ("a", 0, 0)
    assert recorded.state.winner == "a"


def test_bronstein_early_pickup_forfeits_the_next_deductible(db: str) -> None:
    name = "clock-bronstein-early-pickup.txt"
    recorded = record(db, name)
    check_refusals(
        recorded, name, [("Ann's own turn", "CLOCK 4.1"), ("counted down", "10:02:01", "CLOCK 4.1")]
    )
    (started,) = recorded.events(ClockStarted)
    # CLOCK 2.1: 2 minutes a point (5 points: 10:00), a 12-second deductible.
    assert (started.mode, started.reserve_a_ms, started.delay_ms) == ("bronstein", 600_000, 12_000)
    (penalty,) = recorded.events(ReserveTimePenalized)
    assert (penalty.player, penalty.kind, penalty.penalty_ms, penalty.rule) == (
        "b",
        "delay-forfeited",
        0,
        "CLOCK 4.1",
    )
    settled = {
        e.at[11:19]: recorded.reserves(ClockHit, e.at[11:19]) for e in recorded.events(ClockHit)
    }
    assert settled == {
        "10:01:05": (600_000, 600_000),  # the opening hit charges nobody
        "10:01:15": (600_000, 600_000),  # Ann 10 s, all of it given back
        "10:01:35": (600_000, 592_000),  # Bob 20 s, 12 s given back: 8 s off: 9:52
        "10:01:49": (598_000, 592_000),  # Ann 14 s: 2 s off: 9:58
        # Bob waited out his deductible (CLOCK 4.1): 20 s, 12 waited: 9:52 - 0:08 = 9:44
        "10:02:09": (598_000, 584_000),
        "10:02:23": (596_000, 584_000),  # Ann 14 s: 9:56
        "10:02:43": (596_000, 576_000),  # Bob 20 s, the deductible back: 9:44 - 0:08 = 9:36
    }
    # Mid-turn the clock has counted down at once: 5 s into Bob's turns it showed
    # 10:00 - 0:05 = 9:55 and 9:52 - 0:05 = 9:47; the readings agree with the ledger.
    for hms in ("10:01:20", "10:01:54"):
        timer = recorded.at(recorded.version(ClockRead, hms)).timer
        assert timer is not None and timer.drift_ms == (0, 0), hms
    reads = [(e.reserve_a_ms, e.reserve_b_ms) for e in recorded.events(ClockRead)]
    assert reads == [(600_000, 595_000), (598_000, 587_000)]


# -- 5, 6. penalty points for lateness (USBGF 2.2.4) ----------------------------------------------


def test_late_back_from_breaks_costs_penalty_points(db: str) -> None:
    name = "breaks-late-return.txt"
    recorded = record(db, name)
    check_refusals(
        recorded,
        name,
        [
            ("14 minutes late", "USBGF 2.2.4"),
            ("21 minutes", "name the player", "USBGF 2.2.4"),
            ("a break is already on", "USBGF 2.2.2"),
            ("14 minutes late", "USBGF 2.2.4"),
            ("19 minutes late", "USBGF 2.2.4"),
            ("used 1 of 1", "9-point match", "USBGF 2.2.2"),
            ("no break is on", "USBGF 2.2.4"),
        ],
    )
    points = [
        (e.player, e.points, e.kind, e.minutes_late, e.rule)
        for e in recorded.events(PenaltyPointsAssessed)
    ]
    assert points == [
        # Ann: back at 10:31:00, the break ended 10:10:00: 21 minutes: 1 + (21 - 15) // 5 = 2
        ("a", 2, "late-return", 21, "USBGF 2.2.4"),
        # Bob: still away at 11:00:00, 15 minutes past 10:45:00: 1 point
        ("b", 1, "late-return", 15, "USBGF 2.2.4"),
        # back at 11:09:59: 24 minutes: 1 + 9 // 5 = 2 due, 1 given: 1 more
        ("b", 1, "late-return", 24, "USBGF 2.2.4"),
    ]
    ends = [(e.late, e.minutes_over) for e in recorded.events(BreakEnded)]
    assert ends == [("a", 21), ("b", 24)]
    # The score: game 1 0-1; Ann's 2 points to Bob: 0-3; game 2 1-3; Bob's 1 + 1 to Ann: 3-3.
    assert recorded.at(recorded.version(BreakEnded, "10:31:00") + 1).score == (0, 3)
    assert recorded.state.score == (3, 3)
    assert recorded.state.penalties == (2, 2)
    assert recorded.state.breaks.used == (1, 1)
    assert recorded.state.winner is None
    # The score sheets' clock times at each break (USBGF 2.2.2), 18:00 each to begin with:
    # game 1: Ann 10 s (nothing off); Bob's 30 s double: 18 s off: 17:42; Ann's 20 s pass:
    # 8 s off: 17:52.  Game 2: Bob 10 s; Ann's 20 s double: 17:44; Bob's 10 s pass.
    readings = [(e.players, e.reserve_a_ms, e.reserve_b_ms) for e in recorded.events(BreakStarted)]
    assert readings == [(["a"], 1_072_000, 1_062_000), (["b"], 1_064_000, 1_062_000)]
    assert recorded.state.timer is not None
    assert recorded.state.timer.reserve_ms == (1_064_000, 1_062_000)


def test_no_show_forfeits_past_half_the_match_length(db: str) -> None:
    name = "penalty-no-show.txt"
    recorded = record(db, name)
    check_refusals(
        recorded,
        name,
        [
            ("14 minutes late", "USBGF 2.2.4"),
            ("19 minutes late", "USBGF 2.2.4"),
            ("match is over",),
            ("USBGF 2.2.4",),
        ],
    )
    points = [
        (e.player, e.points, e.kind, e.minutes_late) for e in recorded.events(PenaltyPointsAssessed)
    ]
    # 15 minutes: 1; 20: 1 + 5 // 5 = 2, 1 more; 25: 1 + 10 // 5 = 3, 1 more.
    assert points == [
        ("b", 1, "late-start", 15),
        ("b", 1, "late-start", 20),
        ("b", 1, "late-start", 25),
    ]
    # 3 points is more than half of 5 (2.5); 2 was not (2 x 2 = 4 <= 5).
    (won,) = recorded.events(MatchWon)
    assert (won.winner, won.score_a, won.score_b) == ("a", 3, 0)
    assert won.at == f"{DAY}10:25:00+00:00"
    assert recorded.state.score == (3, 0) and recorded.state.penalties == (0, 3)
    assert recorded.state.games == ()


def test_late_start_and_the_directors_penalty_points(db: str) -> None:
    name = "penalty-late-start.txt"
    recorded = record(db, name)
    check_refusals(
        recorded,
        name,
        [
            ("under way", "USBGF 2.2.4"),
            ("1 point or more",),
            ("match is over",),
            ("match is over", "USBGF 2.2.4"),
        ],
    )
    points = [(e.player, e.points, e.kind, e.rule) for e in recorded.events(PenaltyPointsAssessed)]
    assert points == [
        ("a", 1, "late-start", "USBGF 2.2.4"),  # 17 minutes: 1 point
        ("b", 1, "director", "USBGF 2.2.4"),
        ("a", 1, "director", "USBGF 2.2.4"),
        ("a", 1, "director", "USBGF 2.2.4"),
    ]
    # 0-1, 1-1, Ann's double passed 2-1, 2-2, 2-3: Bob's points reach 3.
    (won,) = recorded.events(MatchWon)
    assert (won.winner, won.score_a, won.score_b) == ("b", 2, 3)
    assert recorded.state.penalties == (3, 1)
    assert [(g.winner, g.points, g.how) for g in recorded.state.games] == [("a", 1, "drop")]


# -- 7. a clock brought in at 3-5 (USBGF 3.5.6; CLOCK 1.1) ----------------------------------------


def test_clock_introduced_mid_match_is_set_for_the_score(db: str) -> None:
    name = "clock-introduced-at-3-5.txt"
    recorded = record(db, name)
    check_refusals(
        recorded,
        name,
        [("only between games", "CLOCK 1.1"), ("already on", "USBGF 3.7.2")],
    )
    (started,) = recorded.events(ClockStarted)
    # RA + RB = (9 - 3) + (9 - 5) = 10 whole minutes each; the default 12-second delay.
    assert (started.mode, started.reserve_a_ms, started.reserve_b_ms, started.delay_ms) == (
        "simple-delay",
        600_000,
        600_000,
        12_000,
    )
    assert started.rule == "USBGF 3.5.6"
    assert recorded.at(started.originator_version).score == (3, 5)
    # Ann 20 s: 8 s off: 9:52; Bob 30 s: 18 s off: 9:42; Ann's double 10 s; Bob's pass
    # after 40 s: 28 s off: 9:14.
    assert recorded.state.timer is not None
    assert recorded.state.timer.reserve_ms == (592_000, 554_000)
    assert recorded.state.score == (4, 5)
    assert recorded.state.clock == "simple-delay"


# -- 8. breaks (USBGF 2.2.2) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "allowed"),
    [(9, 1), (10, 1), (11, 2), (14, 2)],  # 10 and 14 get the band below
)
def test_break_allowance_by_match_length(db: str, length: int, allowed: int) -> None:
    name = f"breaks-allowance-{length}.txt"
    recorded = record(db, name)
    expected_refusals = [
        (f"Ann has used {allowed} of {allowed}", f"{length}-point match", "USBGF 2.2.2"),
        ("no break is on", "USBGF 2.2.2"),
        (f"Bob has used {allowed} of {allowed}", "USBGF 2.2.2"),
        (f"Ann has used {allowed} of {allowed}", "USBGF 2.2.2"),  # 'both': Ann first
    ]
    check_refusals(recorded, name, expected_refusals)
    assert recorded.state.breaks.used == (allowed, allowed)
    assert len(recorded.events(BreakStarted)) == 2 * allowed
    assert recorded.state.penalties == (0, 0)


def test_combined_breaks(db: str) -> None:
    name = "breaks-combined.txt"
    recorded = record(db, name)
    check_refusals(
        recorded,
        name,
        [
            ("Ann has used 2 of 3", "USBGF 2.2.2"),
            ("Bob has used 1 of 3", "USBGF 2.2.2"),
            ("combine 1 or more",),
            ("15 minutes after its 10", "USBGF 2.2.4"),
            ("Ann has used 3 of 3", "USBGF 2.2.2"),
            ("Bob has used 3 of 3", "USBGF 2.2.2"),
        ],
    )
    started = [(e.players, e.breaks, e.minutes) for e in recorded.events(BreakStarted)]
    assert started == [(["a"], 2, 10), (["a", "b"], 1, 10), (["b"], 2, 10)]
    # Back 14 minutes after 10:10 (no point), on time, 15 minutes after 10:46 (nobody late).
    ended = [(e.late, e.minutes_over) for e in recorded.events(BreakEnded)]
    assert ended == [(None, 14), (None, 0), (None, 15)]
    assert recorded.state.breaks.used == (3, 3)
    assert recorded.state.penalties == (0, 0) and recorded.state.score == (0, 0)


def test_break_during_a_game_needs_exceptional_circumstances(db: str) -> None:
    name = "breaks-during-game.txt"
    recorded = record(db, name)
    check_refusals(
        recorded,
        name,
        [
            ("between games", "exceptional", "USBGF 2.2.2"),
            ("on a break", "USBGF 4.3.2(b)"),
            ("on a break", "USBGF 2.2.2"),
            ("Ann has used 1 of 1", "USBGF 2.2.2"),
        ],
    )
    first, second = recorded.events(BreakStarted)
    assert (first.during_game, first.exceptional) == (True, "nosebleed")
    # 15 s into Ann's turn: 3 s past the delay: the sheets show Ann 17:57, Bob 18:00.
    assert (first.reserve_a_ms, first.reserve_b_ms) == (1_077_000, 1_080_000)
    # Ann: 15 s before the break, 10 s after the resume: 25 s: 13 s off: 17:47.
    # Bob's double 20 s: 8 s off: 17:52.  Ann's pass 10 s.
    assert (second.during_game, second.reserve_a_ms, second.reserve_b_ms) == (
        False,
        1_067_000,
        1_072_000,
    )
    assert recorded.reserves(ClockHit, "10:05:30") == (1_067_000, 1_080_000)
    assert recorded.state.timer is not None
    assert recorded.state.timer.reserve_ms == (1_067_000, 1_072_000)
    assert recorded.state.score == (0, 1) and recorded.state.breaks.used == (1, 1)


# -- refused lines record nothing -----------------------------------------------------------------

WITH_REFUSALS = [
    "clock-flag.txt",
    "clock-dispute-stop.txt",
    "clock-early-pickup.txt",
    "clock-bronstein-early-pickup.txt",
    "clock-introduced-at-3-5.txt",
    "breaks-late-return.txt",
    "breaks-combined.txt",
    "breaks-during-game.txt",
    "breaks-allowance-9.txt",
    "breaks-allowance-11.txt",
    "penalty-no-show.txt",
    "penalty-late-start.txt",
]


@pytest.mark.parametrize("name", WITH_REFUSALS)
def test_refused_lines_record_nothing(tmp_path: Path, name: str) -> None:
    text = (SCENARIOS / name).read_text()
    clean = "\n".join(line for line in text.splitlines() if not is_refused(line))
    full = record(f"sqlite:///{tmp_path / 'full.db'}", name)
    without = record(f"sqlite:///{tmp_path / 'clean.db'}", name, clean)
    assert full.refused and not without.refused
    assert [said(e) for e in full.history] == [said(e) for e in without.history]
    assert full.state == without.state


# -- USBGF 4.1.8.1: a missed hit, ruled with the library ------------------------------------------


def test_missed_hit_nullifies_the_opponents_roll_and_restores_the_reserve() -> None:
    match = Match.start(
        match_uuid("missed"), "missed", ("Ann", "Bob"), 5, by="kim",
        clock="simple-delay", at=f"{DAY}10:00:00+00:00",
    )  # fmt: skip
    history: list[MatchEvent] = match.collect_events()

    def act(hms: str, line: str) -> None:
        parse(f"@{DAY}{hms}+00:00 {line}").run(match, "kim")
        history.extend(match.collect_events())

    act("10:01:05", "opening 3 1")  # Bob's lower die starts Ann's clock (CLOCK 3.3)
    act("10:01:15", "move 8/5 6/5")  # Ann's play, 10 s; she forgets to hit
    with pytest.raises(ClockRefusedError) as refused:  # the ledger will not take it as is
        act("10:01:20", "roll 6 4")
    assert refused.value.rule == "USBGF 4.1.8.1" and "Ann's time is still running" in str(
        refused.value
    )
    # but it was made at the board, and the players played on: recorded as played
    match.roll(6, 4, as_played=True, by="kim", at=f"{DAY}10:01:20+00:00")
    history.extend(match.collect_events())
    act("10:01:35", "move 24/14")
    before = match.version
    with pytest.raises(ClockRefusedError) as refused:
        act("10:01:45", "hit b")  # Bob hits: it is Ann's clock that runs
    assert refused.value.rule == "USBGF 4.1.8.1"
    assert match.version == before
    timer = match.state.timer
    assert timer is not None and timer.turn == "a"
    # Ann's clock has run 40 s (10:01:05-10:01:45): 28 s past the delay: 9:32 showing.
    assert figures(timer, at_ms(f"{DAY}10:01:45+00:00")) == (572_000, 600_000)

    ruling = Ruling("director", "Ann never hit her clock", at=f"{DAY}10:01:45+00:00")
    reverted, restored = match.missed_hit(history, ruling)
    history.extend(match.collect_events())
    assert isinstance(reverted, PlaysReverted)
    assert reverted.rule == "USBGF 4.1.8.1"
    assert reverted.voids == [7, 8]  # Bob's roll (event 7) and his play (event 8)
    # Her turn really ended with her play at 10 s, inside the delay: 10:00; 28 s were lost.
    assert isinstance(restored, ReserveTimeRestored)
    assert (restored.player, restored.restored_ms, restored.rule) == ("a", 28_000, "USBGF 4.1.8.1")
    state = match.state
    assert state.phase is Phase.ROLL and state.turn == "b" and state.dice is None
    assert state.timer is not None
    assert figures(state.timer, at_ms(f"{DAY}10:01:45+00:00")) == (600_000, 600_000)

    act("10:01:45", "hit a")  # Ann ends her turn now: 10:00 settled
    assert match.state.timer is not None
    assert match.state.timer.reserve_ms == (600_000, 600_000)
    assert match.state.timer.turn == "b"
    act("10:01:50", "roll 5 2")  # Bob's real roll
    act("10:02:05", "move 13/8 13/11")
    act("10:02:05", "hit b")  # Bob: 20 s: 8 s off: 9:52
    assert match.state.timer.reserve_ms == (600_000, 592_000)
    assert match.state.board[1][24] == 2  # his back checkers never moved
