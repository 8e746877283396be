"""Bookkeeping entries keep no match time (DESIGN principle 13; issue 31, item 3).

What happened at the table sets the match's time: its "as of" (``show``'s
clock, ``show --json``'s ``as_of``) and the moment a running clock is read.
An entry that is not something that happened at the table (where a copy
came from, a remark, a ruling noted, a recording error withdrawn or
amended) may be written much later; it must not move that time.

The failure of the issue: a clocked match imported from its JSON copy a
week after it was played showed the player whose time ran at the end at
0:00 (the copy's provenance entry, stamped on import, became the "as of");
the original shows 9:47.
"""

from __future__ import annotations

import contextlib
import json
import random
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgledger.cli.main import main
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import Ruling
from bgledger.commands.vocabulary import parse
from bgledger.errors import ClockRefusedError
from bgledger.events import MatchEvent
from bgledger.projections.state.fold import MatchState
from bgledger.projections.views.summary import clock_json
from bgledger.projections.views.text import clock_line
from tests.clocked_match import T0
from tests.match_driver import next_line

# Ann v Bob, 5 points, simple delay 12 s, 10:00 each (tests/clocked_match.py's first lines).
# After the last line Bob's time runs: 15 s before the stop, 10 s after the resume, 13 s past
# the delay: 10:00 - 0:13 = 9:47 as of 10:05:10.  Ann's turn took 45 s: 33 past, 9:27.
PLAYED = (
    ("opening", "3", "1", "--at", "2026-11-21T10:01:00+00:00"),
    ("move", "8/5 6/5", "--at", "2026-11-21T10:01:45+00:00"),
    ("hit", "--at", "2026-11-21T10:01:45+00:00"),
    ("roll", "6", "4", "--at", "2026-11-21T10:01:50+00:00"),
    ("clock", "stop", "dispute", "--at", "2026-11-21T10:02:00+00:00"),
    ("clock", "resume", "--at", "2026-11-21T10:05:00+00:00"),
    ("move", "24/18 13/9", "--at", "2026-11-21T10:05:10+00:00"),
)
AS_PLAYED = "clock: simple delay, 12 s · Ann 9:27 · Bob 9:47 · Bob's time runs (at 10:05:10)"


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args])


def ok(db: str, *args: str) -> str:
    result = run(db, *args)
    assert result.exit_code == 0, result.output
    return result.output


def clock_of(db: str, match: str = "timed") -> str:
    return next(line for line in ok(db, "show", match).splitlines() if line.startswith("clock:"))


@pytest.fixture
def played(tmp_path: Path) -> str:
    """The match of :data:`PLAYED` (a week before these tests were written), at its end."""
    db = f"sqlite:///{tmp_path / 'played.db'}"
    ok(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--clock", "simple-delay",
       "--id", "timed", "--at", T0)  # fmt: skip
    for verb, *rest in PLAYED:
        ok(db, verb, "timed", *rest)
    return db


def test_a_clocked_match_imported_a_week_later_shows_the_clock_as_played(
    played: str, tmp_path: Path
) -> None:
    assert clock_of(played) == AS_PLAYED
    copy = tmp_path / "timed.json"
    ok(played, "export", "timed", "--format", "json", "-o", str(copy))
    venue = f"sqlite:///{tmp_path / 'venue.db'}"
    ok(venue, "import", str(copy))  # now: days after 10:05:10
    assert clock_of(venue) == AS_PLAYED
    shown = json.loads(ok(venue, "show", "timed", "--json"))
    original = json.loads(ok(played, "show", "timed", "--json"))
    assert shown["clock"]["as_of"] == original["clock"]["as_of"] == "2026-11-21T10:05:10+00:00"
    assert shown["clock"]["reserve_ms"] == {"a": 567_000, "b": 587_000}
    assert ok(venue, "list").splitlines()[1].endswith(" 12  2026-11-21 10:05")  # 12 events


@pytest.mark.parametrize(
    "entry",
    [
        ("note", "timed", "Bob asked for the director"),
        ("note", "timed", "warned Bob: slow play", "--ruled-by", "director"),
        ("undo", "timed", "--reason", "typed the wrong play"),
        ("amend", "timed", "11", "move 24/18 13/9"),  # amended to what it was: no change
    ],
    ids=["remark", "ruling-noted", "undo", "amend"],
)
def test_an_entry_written_later_about_the_table_does_not_move_its_clock(
    played: str, entry: tuple[str, ...]
) -> None:
    ok(played, *entry, "--at", "2026-11-21T18:30:00+00:00")
    shown = clock_of(played)
    if entry[0] == "undo":  # Bob's play was never made: his time runs from the resume
        assert shown == (
            "clock: simple delay, 12 s · Ann 9:27 · Bob 9:57 · Bob's time runs (at 10:05:00)"
        )
    else:
        assert shown == AS_PLAYED


def test_a_table_line_may_be_timed_before_a_note_written_later_but_not_before_the_table(
    played: str,
) -> None:
    ok(played, "note", "timed", "written up after the round", "--at", "2026-11-21T18:30:00+00:00")
    ok(played, "hit", "timed", "--at", "2026-11-21T10:05:20+00:00")  # Bob's hit, 10 s on
    assert clock_of(played) == (
        "clock: simple delay, 12 s · Ann 9:27 · Bob 9:37 · Ann's time runs (at 10:05:20)"
    )
    refused = run(played, "roll", "timed", "5", "2", "--at", "2026-11-21T10:05:00+00:00")
    assert refused.exit_code != 0
    assert "before the match's last event, at 2026-11-21T10:05:20+00:00" in refused.output


def test_an_untimed_line_after_a_note_ahead_of_time_is_stamped_now() -> None:
    """An untimed line is stamped now, or at the last *table* event if that is later; a
    note written in advance of this machine's clock does not carry the next lines with it."""
    match = Match.start(match_uuid("m"), "m", ("Ann", "Bob"), 3, by="k", at=T0)
    ahead = (datetime.now().astimezone() + timedelta(seconds=3)).isoformat()
    match.remark("the clock on the wall is fast", by="k", at=ahead)
    before = datetime.now().astimezone()
    match.opening(3, 1, by="k")
    stamped = datetime.fromisoformat(match.state.last_at)
    assert before <= stamped < datetime.fromisoformat(ahead)


# -- the property: bookkeeping entries leave the match's time as the table made it --------

BOOKKEEPING = ("remark", "noted", "withdrawn", "imported")


def _step(match: Match, rng: random.Random, when: datetime) -> bool:
    """One table line at ``when`` (and the hit that ends a turn); False once nothing is left."""
    line = next_line(match.state, rng)
    if line is None:
        return False
    parse(f"@{when.isoformat()} {line}").run(match, "k")
    with contextlib.suppress(ClockRefusedError):
        match.hit(by="k", at=when.isoformat())
    return True


def _time_of(state: MatchState) -> tuple[object, ...]:
    return state.last_at, state.timer, clock_line(state), clock_json(state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**16),
    entries=st.lists(
        st.tuples(st.integers(1, 40), st.sampled_from(BOOKKEEPING), st.integers(1, 5 * 24 * 3600)),
        max_size=6,
    ),
)
def test_bookkeeping_entries_never_move_the_match_time(
    seed: int, entries: list[tuple[int, str, int]]
) -> None:
    """A match with bookkeeping entries written at any later time (and table lines timed
    before them) keeps the time, the clock and its reading of the same match without them;
    a withdrawn entry is as if it had never been entered."""
    rng, twin_rng = random.Random(seed), random.Random(seed)
    start = {"by": "k", "at": T0, "clock": "simple-delay"}
    match = Match.start(match_uuid("b"), "b", ("Ann", "Bob"), 3, **start)  # type: ignore[arg-type]
    twin = Match.start(match_uuid("t"), "t", ("Ann", "Bob"), 3, **start)  # type: ignore[arg-type]
    history: list[MatchEvent] = [*match.collect_events()]
    twin.collect_events()
    when = datetime.fromisoformat(T0)
    at = dict(sorted((step, (kind, late)) for step, kind, late in entries))
    for step in range(1, 41):
        when += timedelta(seconds=rng.randint(1, 40))
        twin_rng.randint(1, 40)
        if not _step(match, rng, when):
            break
        _step(twin, twin_rng, when)
        history += match.collect_events()
        twin.collect_events()
        if step not in at:
            continue
        kind, late = at[step]
        later = (when + timedelta(seconds=late)).isoformat()
        if kind == "remark":
            match.remark("written up later", by="k", at=later)
        elif kind == "noted":
            match.note(history, Ruling("director", "looked at later", by="td", at=later))
        elif kind == "withdrawn":
            # the match records one line more and withdraws it: as if never entered
            extra = next_line(match.state, random.Random(late))
            if extra is not None:
                parse(f"@{when.isoformat()} {extra}").run(match, "k")
                history += match.collect_events()
                match.withdraw(history, reason="typo", ruled_by="director", by="k", at=later)
        else:
            match.copy_imported("copy.json", "", 0, by="import", at=later)
        history += match.collect_events()
        assert _time_of(match.state) == _time_of(twin.state)
    assert _time_of(match.state) == _time_of(twin.state)
