"""Properties of rulings on random legal matches (:mod:`tests.match_driver`).

Into a random legal match an illegal play is injected where the legal plays
use at least two dice: the first step of a legal play alone, recorded
``--as-played`` (USBGF 4.2.3(a): it does not use the whole roll).  It is
reverted inside its window: at once, or after the opponent doubled (a cube
turn does not close 4.2.3(a) under usbgf-2016), perhaps after the answer to
that double too.  Then:

- the corrected match is the match recorded without the illegal play (the
  same legal actions on a fresh match), and stays so as both go on;
- every event recorded is still stored, unchanged, and the audit trail lists it;
- a committee overturning the revert restores the match exactly as recorded
  just before the revert;
- the corrected match never depends on when it is rebuilt: the live
  aggregate after each action, a fresh :class:`MatchStore`'s ``state(id, at=N)``
  (snapshots in play: a long match has one every 50 events) and
  :func:`bgledger.projections.state.corrected.corrected` over the first N events agree at
  every event number N.

What "the same match" means (:func:`comparable`): every field of
:class:`MatchState` but the ones that number or date events: ``events``
(how many), ``last_at`` (when the last one happened) and ``danced`` (the
number of the last dance, kept only as whether the last event was one).  The
corrected match numbers its events after the ones it voids, the fresh match
does not.  A match overturned back is compared to the recorded one ignoring
``events`` and ``last_at`` only: there the same events are in force.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgledger.commands.decide import cube_problem
from bgledger.commands.match import Match
from bgledger.commands.rulings import Ruling
from bgledger.commands.vocabulary import parse
from bgledger.events import CheckersPlayed, MatchEvent, PlaysReverted, RulingOverturned
from bgledger.projections.state.corrected import corrected, voided_by
from bgledger.projections.state.fold import MatchState, Phase
from bgledger.projections.views import audit
from bgledger.rules.legal import legal_plays
from bgledger.rules.notation import Move
from bgledger.store.application import MatchStore
from tests.conftest import unique_id
from tests.match_driver import InMemory, next_line

BY = "driver"
T0 = "2026-11-21T10:00:00+00:00"
DIRECTOR = Ruling("director", "the play does not use the whole roll")
COMMITTEE = Ruling("committee", "on appeal: the play stands")


def comparable(state: MatchState) -> MatchState:
    """``state`` without the fields that number or date events (see the module's doc)."""
    dance = int(bool(state.danced) and state.danced == state.events)
    return replace(state, events=0, last_at="", danced=dance)


def ignoring_counters(state: MatchState) -> MatchState:
    return replace(state, events=0, last_at="")


def injection(state: MatchState) -> str | None:
    """An illegal play for ``state`` (a roll to play): one step of a play that needs more.

    Not a step that bears off: ``4/off`` of a 41 may be the checker going all
    the way (``4/3/off``), which is legal.
    """
    if state.phase is not Phase.PLAY or state.dice is None:
        return None
    options = legal_plays(state.position, state.dice)
    if options[0].dice_used < 2:
        return None
    for option in options:
        step = Move(*option.steps[0])
        if step.destination != 0:
            return f"move {step} --as-played"
    return None


@dataclass
class Story:
    """What the test did to the ledger's match, for the checks at the end."""

    illegal: int = 0
    ruling: int = 0
    live: dict[int, MatchState] = field(default_factory=dict)
    overturned: bool = False


# -- in memory: many examples, the decisions alone ---------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    prefix=st.integers(0, 150),
    after=st.sampled_from(["at-once", "double", "double-take", "double-drop"]),
    rest=st.integers(0, 60),
)
def test_a_reverted_illegal_play_leaves_the_match_it_would_have_been(
    seed: int, prefix: int, after: str, rest: int
) -> None:
    rng = random.Random(seed)
    match_id = unique_id("p")
    with_it, without = InMemory(match_id, 5, by=BY, at=T0), InMemory(match_id, 5, by=BY, at=T0)
    lines = 0
    while lines < prefix or injection(with_it.match.state) is None:
        line = next_line(with_it.match.state, rng)
        if line is None:
            return  # the match ended before a play could be injected
        with_it.act(line)
        without.act(line)
        lines += 1
    illegal_line = injection(with_it.match.state)
    assert illegal_line is not None
    with_it.act(illegal_line)
    illegal = with_it.events[-1]
    assert isinstance(illegal, CheckersPlayed)
    assert (illegal.legal, illegal.rule) == (False, "USBGF 4.2.3(a)")
    state = with_it.match.state
    if after != "at-once" and cube_problem(state, with_it.match.profile, state.turn or "a") is None:
        with_it.act("double")
        if after != "double":
            with_it.act(after.removeprefix("double-"))
    recorded = list(with_it.events)
    with_it.rule(Match.revert, illegal.originator_version, DIRECTOR)
    ruling = with_it.events[-1]
    assert isinstance(ruling, PlaysReverted) and ruling.rule == "USBGF 4.2.3(a)"
    assert ruling.voids == list(range(illegal.originator_version, ruling.originator_version))
    assert comparable(with_it.match.state) == comparable(without.match.state)
    assert with_it.events[: len(recorded)] == recorded
    for _ in range(rest):
        line = next_line(with_it.match.state, rng)
        if line is None:
            break
        with_it.act(line)
        without.act(line)
        assert comparable(with_it.match.state) == comparable(without.match.state)
    assert corrected(with_it.events) == with_it.match.state


# -- through the ledger: the store, snapshots, a fresh rebuild ----------------------------


@pytest.fixture(scope="module")
def ledger_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    path: Path = tmp_path_factory.mktemp("rulings") / "ledger.db"
    return f"sqlite:///{path}"


def _act(ledger: MatchStore, match_id: str, story: Story, line: str) -> None:
    action = parse(line)

    def command(match: Match) -> None:
        action.run(match, BY)
        story.live[match.version] = match.state

    ledger.act(match_id, command)
    assert corrected(ledger.history(match_id)) == ledger.state(match_id)


def _rule(
    ledger: MatchStore, match_id: str, story: Story, decide: Callable[..., None], *args: object
) -> None:
    def command(match: Match, history: list[MatchEvent]) -> None:
        decide(match, history, *args)
        story.live[match.version] = match.state

    ledger.rule(match_id, command)
    assert corrected(ledger.history(match_id)) == ledger.state(match_id)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    prefix=st.integers(40, 120),
    after=st.sampled_from(["at-once", "double-take"]),
    overturn=st.booleans(),
)
def test_rulings_in_the_ledger_agree_with_every_rebuild(
    ledger_url: str, seed: int, prefix: int, after: str, overturn: bool
) -> None:
    rng = random.Random(seed)
    ledger = MatchStore(ledger_url)
    match_id = ledger.start(("Ann", "Bob"), 7, match_id=unique_id("p"), by=BY, at=T0)
    without = InMemory(match_id, 7, by=BY, at=T0)
    story = Story()
    lines = 0
    while lines < prefix or injection(ledger.state(match_id)) is None:
        line = next_line(ledger.state(match_id), rng)
        if line is None:
            return
        _act(ledger, match_id, story, line)
        without.act(line)
        lines += 1
    illegal_line = injection(ledger.state(match_id))
    assert illegal_line is not None
    _act(ledger, match_id, story, illegal_line)
    story.illegal = len(ledger.history(match_id))
    state = ledger.state(match_id)
    profile = ledger.load(match_id).profile
    if after == "double-take" and cube_problem(state, profile, state.turn or "a") is None:
        _act(ledger, match_id, story, "double")
        _act(ledger, match_id, story, "take")
    before = ledger.state(match_id)
    recorded = ledger.history(match_id)
    _rule(ledger, match_id, story, Match.revert, story.illegal, DIRECTOR)
    story.ruling = len(ledger.history(match_id))
    assert comparable(ledger.state(match_id)) == comparable(without.match.state)
    for _ in range(rng.randint(0, 30)):
        line = next_line(ledger.state(match_id), rng)
        if line is None:
            break
        _act(ledger, match_id, story, line)
        without.act(line)
    assert comparable(ledger.state(match_id)) == comparable(without.match.state)
    if overturn:
        _rule(ledger, match_id, story, Match.overturn, story.ruling, COMMITTEE)
        overturning = ledger.history(match_id)[-1]
        assert isinstance(overturning, RulingOverturned)
        assert overturning.restores == list(range(story.illegal, story.ruling))
        assert ignoring_counters(ledger.state(match_id)) == ignoring_counters(before)
        assert ledger.state(match_id).flagged[-1] == story.illegal
    for _ in range(rng.randint(0, 40)):
        line = next_line(ledger.state(match_id), rng)
        if line is None:
            break
        _act(ledger, match_id, story, line)

    # Every event recorded is still stored, unchanged; the audit trail shows each.
    history = ledger.history(match_id)
    assert history[: len(recorded)] == recorded
    trail = audit.history(history)
    assert [entry.number for entry in trail] == list(range(1, len(history) + 1))
    assert trail[story.illegal - 1].kind == "CheckersPlayed" and trail[story.illegal - 1].flagged
    assert (story.illegal in voided_by(history)) is not overturn

    # A fresh ledger rebuilds the same match at every event number.
    fresh = MatchStore(ledger_url)
    assert fresh.history(match_id) == history
    assert corrected(history) == fresh.state(match_id) == ledger.state(match_id)
    for number in range(1, len(history) + 1):
        at = fresh.state(match_id, at=number)
        assert at == corrected(history[:number]), number
        if number in story.live:
            assert at == story.live[number], number
