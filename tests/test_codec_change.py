"""A later bgledger changes the state codec: every ruled match means what it meant (issue 13).

The codec (:mod:`bgledger.projections.state.codec`) is the form snapshots and
read models keep the folded state in: a cache (DESIGN principle 8), free to
change.  Here it changes as a later release might change it: a new version,
every key renamed and the keys in another order
(:func:`later_codec`, in every module that uses it).  Matches recorded
before the change (snapshots in the old form included) must then fold,
as recorded and as corrected, to exactly the states they folded to before it:

- every transcript under ``fixtures/rulings`` (:func:`tests.test_rulings.run_scenario`);
- the matches of :mod:`tests.ruled_match` (one ruling of each kind; a void double
  that had won the match), setups corrected (:mod:`tests.test_setup_errors`) and
  the previous release's stored rulings (``fixtures/stores``, a missed hit's among them);
- random matches with a reverted illegal play, perhaps overturned on appeal, as
  :mod:`tests.test_rulings_properties` draws them, in memory and through a ledger
  long enough to keep snapshots.

A ruling that kept a copy of the state it led to in the old form could not
be read after such a change: the match would fold as if the ruling had not
been made (DESIGN principle 7).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgledger.commands.match import Match
from bgledger.commands.vocabulary import parse
from bgledger.events import MatchEvent, RulingMade, StartingPositionCorrected
from bgledger.projections.state import codec
from bgledger.projections.state.corrected import corrected
from bgledger.projections.state.fold import MatchState, fold
from bgledger.store.application import MatchStore
from bgledger.store.snapshots import MatchSnapshot, StaleSnapshotError, thaw
from tests.conftest import unique_id
from tests.match_driver import InMemory as Recorded
from tests.match_driver import next_line
from tests.ruled_match import record_crawford_void, record_ruled_match
from tests.test_rulings import FIXTURES, run_scenario
from tests.test_rulings_properties import BY, COMMITTEE, DIRECTOR, T0, injection
from tests.test_setup_errors import ANN_2, BOB_1, OPENING, fix, ledger_with
from tests.test_stored_rulings_v2 import fixture_rows, store_rows

Views = list[tuple[MatchState | None, MatchState | None]]


def _renamed(key: str) -> str:
    return "~" + key[::-1]


@contextmanager
def later_codec() -> Iterator[None]:
    """The codec as a later bgledger might write it: the next version, keys renamed and reordered.

    It replaces :func:`~bgledger.projections.state.codec.state_to_dict` and
    ``state_from_dict`` in every module of the package that holds them (they
    are imported by name), as an upgraded installation would.
    """
    old_to, old_from, old = codec.state_to_dict, codec.state_from_dict, codec.VERSION
    later = old + 1

    def to_dict(state: MatchState) -> dict[str, Any]:
        data = old_to(state)
        return {"version": later, **{_renamed(k): data[k] for k in sorted(data) if k != "version"}}

    def from_dict(data: dict[str, Any]) -> MatchState:
        if data.get("version") != later:
            raise ValueError(f"state version {data.get('version')!r}, expected {later}")
        keys = {_renamed(k): k for k in old_to(fold_started()) if k != "version"}
        return old_from({"version": old, **{keys[k]: v for k, v in data.items() if k in keys}})

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(codec, "VERSION", later)
        replaced: list[tuple[str, Any, Any]] = [
            ("state_to_dict", old_to, to_dict),
            ("state_from_dict", old_from, from_dict),
        ]
        for module in [m for name, m in sys.modules.items() if name.startswith("bgledger")]:
            for name, old, new in replaced:
                if getattr(module, name, None) is old:
                    patch.setattr(module, name, new)
        assert codec.state_to_dict(fold_started())["version"] == later  # the change took
        yield


def fold_started() -> MatchState:
    return MatchState("m", ("Ann", "Bob"), 3, "usbgf-2016", "none", True)


def views(events: Sequence[MatchEvent]) -> Views:
    """The match as recorded and as corrected after every event."""
    return [(fold(events[:n]), corrected(events, at=n)) for n in range(1, len(events) + 1)]


def loaded(url: str, match_id: str, count: int) -> list[MatchState]:
    """The match as a fresh ledger loads it after every event (snapshots, then the tail)."""
    with MatchStore(url) as ledger:
        return [ledger.state(match_id, at=n) for n in range(1, count + 1)] + [
            ledger.state(match_id)
        ]


def check_unchanged(url: str, match_id: str) -> None:
    """Fold the stored match before and after the codec changes: the same states throughout."""
    with MatchStore(url) as ledger:
        events = ledger.history(match_id)
    before, stored = views(events), loaded(url, match_id, len(events))
    assert all(recorded is not None and not recorded.anomalies for recorded, _ in before)
    with later_codec():
        assert views(events) == before
        assert loaded(url, match_id, len(events)) == stored


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.txt")))
def test_every_ruling_transcript_folds_the_same_after_the_codec_changes(
    sqlite_url: str, name: str
) -> None:
    run = run_scenario(sqlite_url, name)
    check_unchanged(sqlite_url, run.match_id)


@pytest.mark.parametrize(
    "record", [record_ruled_match, record_crawford_void], ids=["every-kind", "crawford-void"]
)
def test_the_ruled_matches_fold_the_same_after_the_codec_changes(
    sqlite_url: str, record: Callable[[MatchStore, str], list[MatchEvent]]
) -> None:
    with MatchStore(sqlite_url) as ledger:
        assert sum(isinstance(e, RulingMade) for e in record(ledger, "m")) >= 1
    check_unchanged(sqlite_url, "m")


@pytest.mark.parametrize(
    "lines",
    [OPENING + BOB_1 + ANN_2, ["opening 3 1", "move 12/9 6/5"]],
    ids=["plays-stand", "game-replayed"],
)
def test_a_corrected_setup_folds_the_same_after_the_codec_changes(lines: list[str]) -> None:
    ledger = ledger_with(lines)  # USBGF 4.2.4 (tests/test_setup_errors.py)
    fix(ledger)
    events = ledger.history("s")
    assert isinstance(events[-1], StartingPositionCorrected)
    before = views(events)
    with later_codec():
        assert views(events) == before


def test_rulings_stored_with_the_old_codecs_state_fold_the_same_after_it_changes(
    sqlite_url: str,
) -> None:
    # The previous release's rows (tests/test_stored_rulings_v2.py): each ruling keeps a copy
    # of its state in the codec's old form, now ignored; a missed hit's revert among them.
    with MatchStore(sqlite_url) as ledger:
        store_rows(ledger, fixture_rows())
    for match_id in ("ruled", "crawford-void", "missed-hit"):
        check_unchanged(sqlite_url, match_id)


class InMemory(Recorded):
    """A match recorded in memory (:class:`tests.match_driver.InMemory`)."""

    def __init__(self, match_id: str, length: int) -> None:
        super().__init__(match_id, length, by=BY, at=T0)

    @property
    def state(self) -> MatchState:
        return self.match.state


class InLedger:
    """A match recorded through a ledger, one command a transaction, as at a tournament."""

    def __init__(self, ledger: MatchStore, match_id: str, length: int) -> None:
        self.ledger, self.match_id = ledger, match_id
        ledger.start(("Ann", "Bob"), length, match_id=match_id, by=BY, at=T0)

    @property
    def state(self) -> MatchState:
        return self.ledger.state(self.match_id)

    @property
    def events(self) -> list[MatchEvent]:
        return self.ledger.history(self.match_id)

    def act(self, line: str) -> None:
        self.ledger.act(self.match_id, lambda m: parse(line).run(m, BY))

    def rule(self, decide: Callable[..., None], *args: object) -> None:
        self.ledger.rule(self.match_id, lambda m, h: decide(m, h, *args))


def _revert_in(match: InMemory | InLedger, rng: random.Random, prefix: int, rest: int) -> bool:
    """Play ``prefix`` lines, an illegal play, revert it, play ``rest`` more; False if no room."""
    lines = 0
    while lines < prefix or injection(match.state) is None:
        line = next_line(match.state, rng)
        if line is None:
            return False
        match.act(line)
        lines += 1
    illegal = injection(match.state)
    assert illegal is not None
    match.act(illegal)
    match.rule(Match.revert, match.events[-1].originator_version, DIRECTOR)
    for _ in range(rest):
        line = next_line(match.state, rng)
        if line is None:
            break
        match.act(line)
    return True


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    prefix=st.integers(0, 120),
    rest=st.integers(0, 40),
    overturn=st.booleans(),
)
def test_random_reverted_matches_fold_the_same_after_the_codec_changes(
    seed: int, prefix: int, rest: int, overturn: bool
) -> None:
    rng = random.Random(seed)
    recorded = InMemory(unique_id("c"), 5)
    if not _revert_in(recorded, rng, prefix, rest):
        return
    if overturn:
        revert = next(e for e in reversed(recorded.events) if isinstance(e, RulingMade))
        recorded.rule(Match.overturn, revert.originator_version, COMMITTEE)
    before = views(recorded.events)
    assert before[-1][1] == recorded.state  # the live aggregate is the corrected match
    with later_codec():
        assert views(recorded.events) == before


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_a_long_ruled_match_in_a_ledger_loads_the_same_after_the_codec_changes(
    tmp_path_factory: pytest.TempPathFactory, seed: int
) -> None:
    # Long enough for snapshots before and after the ruling, written in the old form.
    rng = random.Random(seed)
    url = f"sqlite:///{tmp_path_factory.mktemp('codec') / 'ledger.db'}"
    with MatchStore(url) as ledger:
        if not _revert_in(InLedger(ledger, "long", 11), rng, 100, 80):
            return
    check_unchanged(url, "long")


def test_a_snapshot_in_the_old_form_is_read_no_more(sqlite_url: str) -> None:
    # The codec really changed: an old snapshot is stale; the match is folded from its events.
    with MatchStore(sqlite_url) as ledger:
        record_ruled_match(ledger, "m")
        stream = ledger.load("m").id  # snapshot right after its last ruling
        assert ledger.snapshots is not None
        (snapshot,) = ledger.snapshots.get(stream, desc=True, limit=1)
        assert isinstance(snapshot, MatchSnapshot)
        later = codec.VERSION + 1
        with later_codec():
            with pytest.raises(StaleSnapshotError, match=f"expected {later}"):
                thaw(snapshot)
            assert MatchStore(sqlite_url).state("m").score == (2, 3)  # Bob wins 3-2
