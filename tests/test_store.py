"""Properties of stored matches, over random legal matches (hypothesis draws the seed).

The matches come from :mod:`tests.match_driver`, with now and then a voided
roll or an illegal play recorded ``--as-played`` (so flagged events and the
reroll phase are folded and stored too).  Every action gets an explicit
``@TIME`` so that an aggregate kept only in memory and one loaded from the
store record identical events.
"""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import Ruling
from bgledger.commands.vocabulary import Command, parse
from bgledger.events import GameWon, MatchEvent, MatchWon, RulingMade
from bgledger.projections.state.codec import state_from_dict, state_to_dict
from bgledger.projections.state.fold import MatchState, Phase, apply, fold
from bgledger.rules.legal import legal_plays
from bgledger.rules.profiles import get_profile
from bgledger.store.application import SNAPSHOT_INTERVAL, MatchStore
from tests.conftest import unique_id
from tests.match_driver import next_line

BY = "driver"
T0 = datetime.fromisoformat("2026-11-21T10:00:00+00:00")
PROFILES = ("usbgf-2016", "usbgf-2017", "classic", "online")
POINTS = {"single": 1, "gammon": 2, "backgammon": 3}

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
STORE = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
FOLD = settings(max_examples=30, deadline=None)


def random_line(state: MatchState, rng: random.Random) -> str | None:
    """:func:`next_line`, or now and then a voided roll or an illegal play made at the board."""
    if state.phase is Phase.PLAY and state.dice is not None:
        reasons = get_profile(state.profile).rolls.void_reasons
        if reasons and rng.random() < 0.03:
            return f"void-roll {rng.choice(reasons).code}"
        opening_throw = state.opening_dice and get_profile(state.profile).rolls.opening_rethrow
        if rng.random() < 0.03 and not (opening_throw and opening_throw.value):
            # A legal play of other dice: a real play on this board, usually illegal here.
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            made = str(rng.choice(legal_plays(state.position, dice)).play) or "cannot move"
            return f"move {made} --as-played"
    return next_line(state, rng)


def stamped(text: str, step: int) -> str:
    """``text`` as happening ``step`` seconds after :data:`T0`."""
    return f"@{(T0 + timedelta(seconds=step)).isoformat()} {text}"


def start_twin(match_id: str, length: int, profile: str) -> Match:
    """The match as an aggregate that lives only in memory."""
    return Match.start(
        match_uuid(match_id),
        match_id,
        ("Ann", "Bob"),
        length,
        profile=profile,
        by=BY,
        at=T0.isoformat(),
    )


def random_match(seed: int, length: int, profile: str, limit: int) -> list[MatchEvent]:
    """The events of a random match (up to ``limit`` actions), never stored."""
    rng = random.Random(seed)
    match = start_twin(unique_id("r"), length, profile)
    for step in range(1, limit + 1):
        text = random_line(match.state, rng)
        if text is None:
            break
        parse(stamped(text, step)).run(match, BY)
    return match.collect_events()


def states(events: list[MatchEvent]) -> list[MatchState]:
    """The state after each event."""
    out: list[MatchState] = []
    state: MatchState | None = None
    for event in events:
        state = apply(state, event)
        out.append(state)
    return out


def fields(event: MatchEvent) -> dict[str, Any]:
    """What an event says, without the store's own timestamp (and the chain, which covers it)."""
    said = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
    del said["timestamp"], said["chain"]
    return {"type": type(event).__name__, **said}


# -- (a) the store gives back the state the aggregate had --------------------------------------


@STORE
@given(
    seed=SEEDS,
    length=st.integers(min_value=1, max_value=3),
    profile=st.sampled_from(PROFILES),
    limit=st.integers(min_value=10, max_value=220),
    data=st.data(),
)
def test_stored_match_rebuilds_the_live_state(
    store_url: str, seed: int, length: int, profile: str, limit: int, data: st.DataObject
) -> None:
    match_id = unique_id("live")
    rng = random.Random(seed)
    ledger = MatchStore(store_url)
    ledger.start(
        ("Ann", "Bob"), length, match_id=match_id, profile=profile, by=BY, at=T0.isoformat()
    )
    twin = start_twin(match_id, length, profile)
    recorded = twin.collect_events()
    for step in range(1, limit + 1):
        text = random_line(twin.state, rng)
        if text is None:
            break
        action = parse(stamped(text, step))
        action.run(twin, BY)
        recorded += twin.collect_events()

        def record(match: Match, action: Command = action) -> MatchState:
            action.run(match, BY)
            return match.state

        # One action, one transaction, decided on the state loaded from the store.
        assert ledger.act(match_id, record) == twin.state

    live = twin.state
    history = ledger.history(match_id)
    assert [fields(e) for e in history] == [fields(e) for e in recorded]
    assert fold(history) == live

    with MatchStore(store_url) as fresh:
        # Loaded from the latest snapshot (if any) and the events after it.
        assert fresh.state(match_id) == live
        assert fresh.snapshots is not None
        snapshots = [s.originator_version for s in fresh.snapshots.get(match_uuid(match_id))]
        assert snapshots == list(range(SNAPSHOT_INTERVAL, live.events + 1, SNAPSHOT_INTERVAL))
        checks = {1, live.events, data.draw(st.integers(1, live.events), label="at")}
        checks |= {n for n in (49, 50, 51, 100, 101) if n <= live.events}
        for n in sorted(checks):
            assert fresh.state(match_id, at=n) == fold(history[:n]), f"at={n}"


# -- (b) (c) (d) properties of the fold over random matches ------------------------------------


@FOLD
@given(
    seed=SEEDS,
    length=st.integers(min_value=1, max_value=5),
    profile=st.sampled_from(PROFILES),
)
def test_score_changes_only_at_game_won_and_never_decreases(
    seed: int, length: int, profile: str
) -> None:
    events = random_match(seed, length, profile, limit=800)
    after = states(events)
    for event, before, state in zip(events[1:], after[:-1], after[1:], strict=True):
        if isinstance(event, GameWon):
            assert event.cube >= 1
            assert event.points == POINTS[event.result] * event.cube
            gained = (event.points, 0) if event.winner == "a" else (0, event.points)
            assert state.score == (before.score[0] + gained[0], before.score[1] + gained[1])
            assert max(before.score) < length
        else:
            assert state.score == before.score, type(event).__name__
        if isinstance(event, MatchWon):
            assert state.score[0 if event.winner == "a" else 1] >= length
            assert (event.score_a, event.score_b) == state.score
    final = after[-1]
    if final.phase is Phase.OVER:
        assert max(final.score) >= length
        assert isinstance(events[-1], MatchWon)


@FOLD
@given(
    seed=SEEDS,
    length=st.integers(min_value=1, max_value=5),
    profile=st.sampled_from(PROFILES),
)
def test_fifteen_checkers_a_side_after_every_event(seed: int, length: int, profile: str) -> None:
    for state in states(random_match(seed, length, profile, limit=800)):
        for side in state.board:
            assert len(side) == 26
            assert min(side) >= 0
            assert sum(side) == 15
        assert state.anomalies == ()


@FOLD
@given(
    seed=SEEDS,
    length=st.integers(min_value=1, max_value=5),
    profile=st.sampled_from(PROFILES),
)
def test_codec_round_trips_every_state(seed: int, length: int, profile: str) -> None:
    for state in states(random_match(seed, length, profile, limit=600)):
        data = state_to_dict(state)
        assert state_from_dict(data) == state
        assert state_from_dict(json.loads(json.dumps(data))) == state


@pytest.mark.parametrize(
    "board",
    ["not a board", [[0] * 26], [[0] * 26, [0] * 25], [[0] * 26, [0] * 25 + ["2"]]],
)
def test_codec_refuses_a_board_that_is_not_two_sides_of_26_counts(board: object) -> None:
    state = fold(random_match(1, 3, "usbgf-2016", limit=5))
    assert state is not None
    data = {**state_to_dict(state), "board": board}
    with pytest.raises(ValueError, match="board"):
        state_from_dict(data)


# -- (e) the list of matches -------------------------------------------------------------------


def test_a_ruling_stored_with_an_unreadable_copy_of_its_state_folds_from_its_facts() -> None:
    # Before class version 3 a ruling also stored the state it led to; that copy is dropped
    # on reading, so one in a form no bgledger reads changes nothing (DESIGN principle 7).
    ledger = MatchStore("sqlite:///:memory:")
    match = Match.start(match_uuid("r"), "r", ("Ann", "Bob"), 3, by="kim")
    history = match.collect_events()
    match.note(history, Ruling("director", "noted", rule="USBGF 5.5"))
    (noted,) = match.collect_events()
    stored = ledger.mapper.to_stored_event(noted)
    data = json.loads(stored.state)
    assert "state" not in data and data["class_version"] == 5  # a ruling stores facts only
    data |= {"class_version": 2, "state": {"version": 0, "board": "not a board"}}
    old = dataclasses.replace(stored, state=json.dumps(data).encode())
    read = ledger.mapper.to_domain_event(old)
    assert isinstance(read, RulingMade) and not hasattr(read, "state")
    state = fold([*history, read])  # applying an event never raises
    assert state is not None and state.events == noted.originator_version
    assert state.anomalies == () and state.score == (0, 0) and state.players == ("Ann", "Bob")


@STORE
@given(
    prefixes=st.lists(st.sampled_from("pqrstuvwxyz"), min_size=2, max_size=6, unique=True),
    seed=SEEDS,
)
def test_match_ids_lists_matches_in_start_order(
    store_url: str, prefixes: list[str], seed: int
) -> None:
    rng = random.Random(seed)
    ledger = MatchStore(store_url)
    started: list[str] = []
    for prefix in prefixes:
        started.append(ledger.start(("Ann", "Bob"), 3, match_id=unique_id(prefix), by=BY))
        # Play on an earlier match: activity does not reorder the list.
        earlier = rng.choice(started)
        ledger.act(earlier, lambda m: parse(next_line(m.state, rng) or "").run(m, BY))
    ours = set(started)
    assert [m for m in ledger.match_ids() if m in ours] == started
    with MatchStore(store_url) as fresh:
        assert [m for m in fresh.match_ids() if m in ours] == started


def test_match_ids_of_a_new_ledger_are_exactly_its_matches(sqlite_url: str) -> None:
    ledger = MatchStore(sqlite_url)
    assert ledger.match_ids() == []
    for match_id in ("zeta", "alpha", "mid"):
        ledger.start(("Ann", "Bob"), 1, match_id=match_id, by=BY)
    ledger.act("alpha", lambda m: m.opening(3, 1, by=BY))
    assert ledger.match_ids() == ["zeta", "alpha", "mid"]


def test_long_match_loads_from_snapshots_and_equals_the_full_fold(sqlite_url: str) -> None:
    ledger = MatchStore(sqlite_url)
    match_id = ledger.start(("Ann", "Bob"), 25, match_id=unique_id("long"), by=BY)
    rng = random.Random(2026)
    for _ in range(160):
        ledger.act(match_id, lambda m: parse(next_line(m.state, rng) or "").run(m, BY))
    history = ledger.history(match_id)
    assert len(history) >= 160
    with MatchStore(sqlite_url) as fresh:
        assert fresh.snapshots is not None
        snapshots = [s.originator_version for s in fresh.snapshots.get(match_uuid(match_id))]
        assert snapshots[:3] == [50, 100, 150]
        assert fresh.state(match_id) == fold(history)
        assert fresh.state(match_id, at=120) == fold(history[:120])


def test_a_command_that_records_nothing_stores_nothing_and_is_no_conflict(store_url: str) -> None:
    # A scorekeeper's console asks the match something (the match is over, say) and saves:
    # no event, no row, and no "recorded by another scorekeeper" error.
    ledger = MatchStore(store_url, cache_size=16)
    match_id = ledger.start(("Ann", "Bob"), 3, match_id=unique_id("quiet"), by="kim")
    ledger.act(match_id, lambda m: parse("opening 3 1").run(m, "kim"))
    assert ledger.act(match_id, lambda m: m.version) == 3
    assert ledger.act(match_id, lambda m: m.version) == 3
    assert [e.originator_version for e in MatchStore(store_url).history(match_id)] == [1, 2, 3]
