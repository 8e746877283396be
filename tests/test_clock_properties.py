"""Properties of the game clock over random matches with random time gaps (hypothesis).

A run drives a :class:`~bgledger.commands.match.Match` with ``record`` lines: the game
actions of :mod:`tests.match_driver`, hits (usually right after a turn ends,
now and then forgotten), stops, resumes, readings and, in some runs,
settings, early pick-ups, flags, penalty points and USBGF 4.1.8.1's
missed-hit ruling; each at an explicit time a random gap after the last.
Refused lines are part of the run: each must leave the match as it was.

(1) A reserve never goes up except at a ``ClockSet`` (a setting, or the
    nominal time after both expired), a ``ReserveTimeRestored`` or the
    clock's start; under Bronstein the deductible comes back at the end of
    a turn, so there the settled figures are compared too.
(2) No reserve or figure is ever below zero.
(3) The state folded again from the events equals the live one, survives
    the snapshot codec, and the same after storing in a ledger (SQLite, and
    PostgreSQL when ``BGLEDGER_TEST_POSTGRES`` is set) and loading back,
    from its snapshots.
(4) Simple delay and Bronstein give the same reserves after every hit as
    long as no reserve has run out.
(5) Over random clocked games, every hit forgotten now and then: each
    player's reserve spent is the sum of his turns, less the delay each, the
    first turn of each game timed from its opening roll (CLOCK 3.3); no time
    is charged to a player whose time was not running, and a roll on the
    opponent's time is refused (usbgf-2016) or comes after his hit, implied
    and flagged (usbgf-2017).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import Ruling
from bgledger.commands.vocabulary import parse
from bgledger.errors import BgLedgerError, ClockRefusedError
from bgledger.events import (
    ClockHit,
    ClockHitImplied,
    ClockSet,
    ClockStarted,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    GameWon,
    MatchEvent,
    MatchWon,
    OpeningRollMade,
    PlaysReverted,
    ReserveTimeRestored,
    ResignationOffered,
    ResignationRejected,
    RulingMade,
)
from bgledger.projections.state.clock import REASONS, clock_text, figure, figures
from bgledger.projections.state.codec import state_from_dict, state_to_dict
from bgledger.projections.state.fold import MatchState, Phase, apply, fold, other
from bgledger.store.application import SNAPSHOT_INTERVAL, MatchStore
from tests.conftest import unique_id
from tests.match_driver import next_line

BY = "driver"
ANSWERS_ON_ONES_TIME = (DiceRolled, CubeOffered, CubeTaken, CubeDropped)
"""What a player does on his own time, after his opponent's hit (USBGF 4.1.8.1, 4.4.3)."""
T0 = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
PLAYERS = ("a", "b")
STOPS = sorted(
    {code for code, (letter, _) in REASONS.items() if letter and code != "break"}
    | {letter for letter, _ in REASONS.values() if letter and letter != "b"}
)
RAISES = (ClockSet, ReserveTimeRestored, ClockStarted)
"""The only events after which a reserve may be higher than before."""

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
MODES = st.sampled_from(("simple-delay", "bronstein"))
RESERVES = st.sampled_from((None, 30_000, 90_000))  # None: the profile's, 2 minutes a point
RUNS = settings(max_examples=40, deadline=None)
STORE = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@dataclass(frozen=True)
class Step:
    """One thing done at the board, at ``at``: a ``record`` line, or the missed-hit ruling."""

    at: str
    line: str  # "" for the ruling

    def perform(self, match: Match, history: Sequence[MatchEvent]) -> None:
        if self.line:
            parse(f"@{self.at} {self.line}").run(match, BY)
        else:
            match.missed_hit(history, Ruling("director", "the clock was never hit", at=self.at))


@dataclass
class Run:
    """A match in memory, its events so far, and the steps it accepted."""

    match: Match
    history: list[MatchEvent]
    rng: random.Random
    now_ms: int = 60_000
    accepted: list[Step] = field(default_factory=list)
    refused: int = 0
    missed: bool = False  # a game action while the clock ran for a player who had finished
    long_gaps: bool = True  # minutes between steps now and then: reserves run out

    @property
    def state(self) -> MatchState:
        return self.match.state

    def tick(self) -> str:
        """The next moment: mostly seconds later, now and then minutes, sometimes ms apart."""
        roll = self.rng.random()
        if roll < 0.05:
            gap = 0
        elif roll < 0.75 or (not self.long_gaps and roll < 0.9):
            gap = self.rng.randint(1, 20) * 1000
        elif roll < 0.93 or not self.long_gaps:
            gap = self.rng.randint(1, 40_000 if not self.long_gaps else 90_000)
        else:
            gap = self.rng.randint(90, 400) * 1000
        self.now_ms += gap
        return (T0 + timedelta(milliseconds=self.now_ms)).isoformat()

    def do(self, step: Step) -> list[MatchEvent]:
        """Perform ``step``: the events it recorded (none if refused, and then nothing changed)."""
        before_version, before_state = self.match.version, self.match.state
        try:
            step.perform(self.match, self.history)
        except BgLedgerError:
            assert self.match.version == before_version, step
            assert self.match.state is before_state, step
            assert self.match.collect_events() == [], step
            self.refused += 1
            return []
        events = self.match.collect_events()
        assert len(events) == self.match.version - before_version
        self.history.extend(events)
        self.accepted.append(step)
        return events


def start(
    mode: str, length: int, reserve_ms: int | None, clocked: bool, seed: int, match_id: str = "p"
) -> Run:
    """A new match in memory, with its clock from the start unless ``clocked`` is False."""
    timing = {"reserve_ms": reserve_ms} if reserve_ms is not None else {}
    match = Match.start(
        match_uuid(match_id), match_id, ("Ann", "Bob"), length, by=BY,
        clock=mode if clocked else "none", at=T0.isoformat(), **(timing if clocked else {}),
    )  # fmt: skip
    return Run(match, match.collect_events(), random.Random(seed))


def ms_of(at: str) -> int:
    """An ISO 8601 time as milliseconds since the epoch."""
    return round(datetime.fromisoformat(at).timestamp() * 1000)


def turn_over(state: MatchState) -> bool:
    """The player whose time runs has finished his turn (or an opening roll awaits its hit)."""
    timer = state.timer
    if timer is None or not state.in_game:
        return False
    if timer.turn is None:
        return state.actor is not None  # after the opening roll: the lower die hits
    return state.actor != timer.turn


def _just_opened(state: MatchState) -> bool:
    """The opening roll's winner has not played yet (the lower die may still hit, CLOCK 3.3)."""
    return state.timer is not None and state.phase is Phase.PLAY and state.opening_dice


def shown(ms: int) -> str:
    """A clock figure as ``clock read``/``clock set`` take it (whole seconds)."""
    return clock_text(max(0, ms))


def next_step(run: Run, mode: str, wide: bool, hit_next: bool) -> Step:
    """A random next step; ``wide`` adds settings, pick-ups, flags, penalties and rulings."""
    rng, state, at = run.rng, run.state, run.tick()
    timer = state.timer
    if hit_next:
        return Step(at, "hit")
    if wide and run.missed and rng.random() < 0.4:
        return Step(at, "")  # USBGF 4.1.8.1's ruling
    roll = rng.random()
    if timer is not None and timer.paused and roll < 0.4:
        return Step(at, "clock resume")
    if timer is None and roll < 0.15:
        reserve = rng.choice(["", " reserve 1:30", " reserve 4:00"])
        return Step(at, f"clock start {mode}{reserve}")
    if roll < 0.62:
        return Step(at, next_line(state, rng) or "hit")
    if roll < 0.74:
        return Step(at, "hit")
    if roll < 0.80:
        return Step(at, f"clock stop {rng.choice(STOPS)}")
    if roll < 0.86:
        return Step(at, "clock resume")
    if roll < 0.89 or timer is None:
        a, b = (0, 0) if timer is None else figures(timer, ms_of(at))
        return Step(at, f"clock read a={shown(a + rng.randint(-3, 3) * 1000)} b={shown(b)}")
    if not wide:
        return Step(at, "hit")
    return wide_step(run, at)


def wide_step(run: Run, at: str) -> Step:
    """A setting, an early pick-up, a flag, penalty points or the missed-hit ruling."""
    rng, timer = run.rng, run.state.timer
    assert timer is not None
    roll = rng.random()
    player = rng.choice(PLAYERS)
    if roll < 0.2:
        a, b = (rng.randint(0, 300) * 1000 for _ in PLAYERS)
        return Step(at, f"clock set a={shown(a)} b={shown(b)} the director's estimate")
    if roll < 0.45:
        return Step(at, f"early-pickup {player}")
    if roll < 0.7:
        return Step(at, f"flag {player}")
    if roll < 0.8:
        return Step(at, f'penalty {player} 1 "USBGF 2.2.4" left the board')
    return Step(at, "")  # USBGF 4.1.8.1's ruling


def play(
    run: Run,
    mode: str,
    steps: int,
    wide: bool,
    check: Callable[[MatchEvent, MatchState, MatchState], None],
) -> None:
    """``steps`` random steps; ``check(event, before, after)`` on every event recorded."""
    hit_next = False
    state = run.state
    for _ in range(steps):
        if run.state.winner is not None:
            break
        step = next_step(run, mode, wide, hit_next)
        unhit = turn_over(run.state)
        events = run.do(step)
        if any(isinstance(e, ClockHit | PlaysReverted) for e in events):
            run.missed = False
        elif events and unhit and step.line.split(" ")[0] in ("roll", "move", "double"):
            run.missed = True
        hit_next = bool(events) and turn_over(run.state) and run.rng.random() < 0.85
        for event in events:  # a ruling is folded from the events before it
            after = apply(state, event, run.history[: event.originator_version - 1])
            check(event, state, after)
            state = after
        assert state == run.state


# -- (1), (2): reserves never rise but by a setting or a restore, and never go below zero ---------


class Monotone:
    """Checks (1) and (2) event by event, keeping each player's last settled figure."""

    def __init__(self) -> None:
        self.settled: dict[str, int] = {}

    def __call__(self, event: MatchEvent, before: MatchState, after: MatchState) -> None:
        if after.timer is None:
            return
        now = ms_of(event.at)
        assert min(after.timer.reserve_ms) >= 0, event
        for later in (now, now + 5_000, now + 3_600_000):
            assert min(figures(after.timer, later)) >= 0, event
        raised = isinstance(event, RAISES)
        if raised:
            self.settled.clear()
        if before.timer is None:
            return
        for player in PLAYERS:
            was, now_shows = figure(before.timer, player, now), figure(after.timer, player, now)
            back = 0
            turn_ended = before.timer.turn == player and after.timer.turn != player
            if after.timer.mode == "bronstein" and turn_ended:
                back = before.timer.turn_delay_ms  # the deductible comes back (CLOCK 3.4)
            if not raised:
                assert now_shows <= was + back, (event, player, was, now_shows)
            if after.timer.turn != player:  # settled: the figure between his turns
                mine = after.timer.reserve_ms[0 if player == "a" else 1]
                if player in self.settled:
                    assert mine <= self.settled[player], (event, player, self.settled, mine)
                self.settled[player] = mine


@RUNS
@given(
    seed=SEEDS,
    mode=MODES,
    length=st.integers(min_value=1, max_value=5),
    reserve_ms=RESERVES,
    clocked=st.booleans(),
    wide=st.booleans(),
)
def test_reserves_never_rise_but_by_a_setting_or_a_restore(
    seed: int, mode: str, length: int, reserve_ms: int | None, clocked: bool, wide: bool
) -> None:
    run = start(mode, length, reserve_ms, clocked, seed)
    play(run, mode, 160, wide, Monotone())


# -- (3): the fold, the codec and the store give back the live state ------------------------------


@RUNS
@given(seed=SEEDS, mode=MODES, length=st.integers(1, 5), reserve_ms=RESERVES)
def test_folding_the_events_again_gives_the_live_state(
    seed: int, mode: str, length: int, reserve_ms: int | None
) -> None:
    run = start(mode, length, reserve_ms, True, seed)
    states: dict[int, MatchState] = {}

    def keep(event: MatchEvent, _before: MatchState, after: MatchState) -> None:
        states[event.originator_version] = after

    play(run, mode, 160, True, keep)
    assert fold(run.history) == run.state
    for version, state in states.items():
        # The snapshot codec (also through JSON) keeps every clock and break field.
        assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state
        assert state.events == version
    for version in sorted(states)[:: max(1, len(states) // 7)]:
        assert fold(run.history[:version]) == states[version], version


def chunks(steps: list[Step], rng: random.Random) -> list[list[Step]]:
    """The steps in transactions of 1-20; a ruling alone (it reads the stored history)."""
    out: list[list[Step]] = []
    current: list[Step] = []
    for step in steps:
        if not step.line:
            out += [current, [step]] if current else [[step]]
            current = []
            continue
        current.append(step)
        if len(current) >= rng.randint(1, 20):
            out.append(current)
            current = []
    return out + ([current] if current else [])


@STORE
@given(seed=SEEDS, mode=MODES, reserve_ms=RESERVES)
def test_stored_clock_match_loads_back_the_live_state(
    store_url: str, seed: int, mode: str, reserve_ms: int | None
) -> None:
    match_id = unique_id("clock")
    run = start(mode, 5, reserve_ms, True, seed, match_id)
    play(run, mode, 200, True, lambda _e, _b, _a: None)
    live, history = run.state, run.history
    ledger = MatchStore(store_url)
    timing = {} if reserve_ms is None else {"reserve_ms": reserve_ms}
    ledger.start(
        ("Ann", "Bob"), 5, match_id=match_id, by=BY, clock=mode, at=T0.isoformat(), **timing
    )
    for chunk in chunks(run.accepted, random.Random(seed)):

        def perform(match: Match, stored: list[MatchEvent], chunk: list[Step] = chunk) -> None:
            for step in chunk:
                step.perform(match, stored)

        ledger.rule(match_id, perform)  # decided on the state loaded from the store
    stored = ledger.history(match_id)
    assert [type(e).__name__ for e in stored] == [type(e).__name__ for e in history]
    assert [e.at for e in stored] == [e.at for e in history]
    assert ledger.state(match_id) == live
    with MatchStore(store_url) as fresh:
        assert fresh.state(match_id) == live  # from the latest snapshot and the events after
        assert fresh.snapshots is not None
        taken = {s.originator_version for s in fresh.snapshots.get(match_uuid(match_id))}
        every = set(range(SNAPSHOT_INTERVAL, live.events + 1, SNAPSHOT_INTERVAL))
        # and one right after each ruling (its command may restore reserve time too)
        ruled = {e.originator_version for e in stored if isinstance(e, RulingMade)}
        assert taken >= every and all(r in taken or r + 1 in taken for r in ruled)
        assert all(s in ruled or s - 1 in ruled for s in taken - every)
        for n in {1, 2, len(history) // 2, 49, 50, 51, len(history)}:
            if 1 <= n <= len(history):
                assert fresh.state(match_id, at=n) == fold(history[:n]), n


# -- (4): simple delay and Bronstein agree after each hit until a reserve runs out ----------------


@RUNS
@given(seed=SEEDS, length=st.integers(1, 5), reserve_ms=RESERVES)
def test_simple_delay_and_bronstein_agree_after_each_hit(
    seed: int, length: int, reserve_ms: int | None
) -> None:
    simple = start("simple-delay", length, reserve_ms, True, seed)
    bronstein = start("bronstein", length, reserve_ms, True, seed)
    simple.long_gaps = False
    compared = 0
    hit_next = False
    for _ in range(200):
        if simple.state.winner is not None:
            break
        step = next_step(simple, "simple-delay", False, hit_next)
        if step.line.startswith("resign"):
            break  # CLOCK 5.1: on a Bronstein clock the offer stops both clocks; not under 4.3.2
        one, other = simple.do(step), bronstein.do(step)
        # The same lines, the same answers: nothing here depends on the figures.
        assert [type(e) for e in one] == [type(e) for e in other], step
        assert simple.state.board == bronstein.state.board
        hit_next = bool(one) and turn_over(simple.state) and simple.rng.random() < 0.85
        simple_timer, bronstein_timer = simple.state.timer, bronstein.state.timer
        assert simple_timer is not None and bronstein_timer is not None
        if min(bronstein_timer.reserve_ms) == 0 or min(simple_timer.reserve_ms) == 0:
            break  # a reserve ran out: Bronstein's flag falls before its deductible returns
        if any(isinstance(e, ClockHit) for e in one):
            assert simple_timer.reserve_ms == bronstein_timer.reserve_ms, step
            compared += 1
        assert simple_timer.turn == bronstein_timer.turn


# -- (5): the reserves spent add up to the turns, the opening turn the opening winner's ----------


def spent_by_turns(
    events: Sequence[MatchEvent], delay_ms: int, concession_stops: bool = False
) -> tuple[int, int]:
    """Each player's reserve spent, turn by turn: a turn runs from the hit (or opening roll)
    that started his time to his own hit or the game's end, and costs what passed the delay.

    Worked out from the events' times alone, not by the fold; it also checks that every hit is
    made by the player whose time runs, that each roll and double is made on the roller's own
    time, and that each opening roll starts the winner's time.  ``concession_stops``: a
    concession offered stops the clock until it is rejected (CLOCK 5.1, a Bronstein clock).
    """
    spent = {"a": 0, "b": 0}
    running: tuple[str, int] | None = None  # whose time runs, since when
    paused: tuple[str, int] | None = None  # a concession's stop: whose, and the time used
    opened: str | None = None  # the opening roll's winner, until his first action
    for index, event in enumerate(events):
        now = ms_of(event.at)
        if isinstance(event, OpeningRollMade) and event.die_a != event.die_b:
            winner = "a" if event.die_a > event.die_b else "b"
            lower_die = events[index + 1]  # CLOCK 3.3: recorded with the roll, at its time
            assert isinstance(lower_die, ClockHit) and lower_die.at == event.at
            assert lower_die.player != winner
            opened = winner
            continue
        if isinstance(event, ClockHit) and opened is not None and event.player != opened:
            running = (opened, now)  # the lower die's hit as made: the winner's turn from it
            continue
        if not isinstance(event, ClockHit):
            opened = None
        if isinstance(event, ANSWERS_ON_ONES_TIME) and running is not None:
            assert running[0] == event.player, event  # a roll, double, take or drop on one's time
        if concession_stops and isinstance(event, ResignationOffered) and running is not None:
            paused = (running[0], now - running[1])  # the time used so far, kept
            running = None
            continue
        if concession_stops and isinstance(event, ResignationRejected) and paused is not None:
            running, paused = (paused[0], now - paused[1]), None  # the offer's time is nobody's
            continue
        if isinstance(event, GameWon | MatchWon) and paused is not None:
            spent[paused[0]] += max(0, paused[1] - delay_ms)
            paused = None
            continue
        if isinstance(event, ClockHit | ClockHitImplied):
            if running is not None:
                assert running[0] == event.player, event  # never a hit by the other player
                spent[event.player] += max(0, now - running[1] - delay_ms)
            running = ("b" if event.player == "a" else "a", now)
        elif isinstance(event, GameWon | MatchWon) and running is not None:
            spent[running[0]] += max(0, now - running[1] - delay_ms)
            running = None
    return spent["a"], spent["b"]


@RUNS
@given(
    seed=SEEDS,
    mode=MODES,
    profile=st.sampled_from(("usbgf-2016", "usbgf-2017")),
    length=st.integers(1, 5),
)
def test_reserves_spent_add_up_to_the_turns_from_each_opening_roll(
    seed: int, mode: str, profile: str, length: int
) -> None:
    rng = random.Random(seed)
    reserve = 3_600_000  # an hour each: no flag falls, so every turn is charged in full
    match = Match.start(
        match_uuid("sum"), "sum", ("Ann", "Bob"), length, by=BY, clock=mode, profile=profile,
        reserve_ms=reserve, at=T0.isoformat(),
    )  # fmt: skip
    now, forgotten, refused = T0, 0, 0
    for _ in range(300):
        if match.state.winner is not None:
            break
        now += timedelta(milliseconds=rng.randint(0, 40_000))
        due = turn_over(match.state)
        line = "hit" if due and rng.random() < 0.8 else next_line(match.state, rng) or "hit"
        if _just_opened(match.state) and rng.random() < 0.5:
            line = f"hit {other(match.state.turn or 'a')}"  # the lower die's hit, as made
        forgotten += due and line != "hit"
        try:
            parse(f"@{now.isoformat()} {line}").run(match, BY)
        except ClockRefusedError as refusal:
            # Only a roll or double on the opponent's time (usbgf-2016), or a hit that ends
            # no turn; the scorekeeper then records the hit.
            assert profile == "usbgf-2016" or line == "hit", refusal
            refused += 1
    events = match.collect_events()
    assert not refused or forgotten
    implied = [e for e in events if isinstance(e, ClockHitImplied)]
    assert profile == "usbgf-2017" or not implied
    for hit in implied:  # flagged, and the action it implies comes at its time
        following = events[hit.originator_version]
        assert hit.originator_version in match.state.flagged
        assert following.at == hit.at and not isinstance(following, ClockHit)
        assert isinstance(following, ANSWERS_ON_ONES_TIME)
    timer = match.state.timer
    assert timer is not None
    spent_a, spent_b = spent_by_turns(events, timer.delay_ms, mode == "bronstein")
    assert (reserve - timer.reserve_ms[0], reserve - timer.reserve_ms[1]) == (spent_a, spent_b)
