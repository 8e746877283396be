"""The trail's tail (``history(events, last=N)``, the pad's last lines) is the whole trail's.

The pad and the match page show a match's last entries; worded alone, they
must be exactly the whole trail's last entries: the same words (a correction
among them names entries before the tail), the same marks (a ruling or a
correction after an entry voids it), the same flags and clocks.  Checked on
random legal matches (:mod:`tests.match_driver`) with rulings (an illegal play
reverted at once, a committee overturning it, a note) and a scorekeeper's
corrections (typos withdrawn or amended), at several ends and tail lengths;
on the hand-worked match of one ruling of each kind at every end; and
through the front door (``Ledger.history(match, last=N)``).
"""

from __future__ import annotations

import html
import random
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from bgledger.commands.corrections import entries_in_force
from bgledger.commands.match import Match
from bgledger.commands.rulings import Ruling
from bgledger.errors import BgLedgerError
from bgledger.events import EntryCorrected, MatchEvent, RulingMade
from bgledger.projections.views.audit import HistoryEntry, history, history_line
from bgledger.service import Ledger
from bgledger.store.application import MatchStore
from bgledger.web import create_app
from bgledger.web.app import HISTORY_SHOWN
from tests.match_driver import next_line
from tests.ruled_match import record_ruled_match
from tests.test_corrections import Recorded, typo
from tests.test_rulings_properties import injection
from tests.webclient import reading

DIRECTOR = Ruling("director", "the play does not use the whole roll")
COMMITTEE = Ruling("committee", "on appeal: the play stands")
NOTE = Ruling("director", "players warned about cocked dice")


def tail(entries: list[HistoryEntry], last: int) -> list[HistoryEntry]:
    """The last ``last`` entries of the whole trail (none for 0)."""
    return entries[max(len(entries) - last, 0) :] if last else []


def ruled_and_corrected(seed: int, lines: int, typos: float, rulings: float) -> list[MatchEvent]:
    """The events of a random legal match of ``lines`` actions with, at rate ``typos``, a typo
    withdrawn or amended, and at rate ``rulings`` a ruling: an illegal play (half the time
    first typed as a legal one and amended) reverted at once (overturned on appeal, a
    third of the time), or a note."""
    rng = random.Random(seed)
    match = Recorded("tail", rng.randint(1, 9))
    for _ in range(lines):
        state = match.match.state
        illegal = injection(state)
        if illegal is not None and rng.random() < rulings:
            line = next_line(state, rng)
            if line is not None and rng.random() < 0.5:  # typed as a legal play, amended
                match.act(line)
                try:
                    match.amend(entries_in_force(match.events)[-1].number, illegal)
                except BgLedgerError:
                    continue  # refused: the legal play stands
            else:
                match.act(illegal)
            try:
                number = entries_in_force(match.events)[-1].number
                match.rule(Match.revert, number, DIRECTOR)
                if rng.random() < 1 / 3:
                    match.rule(Match.overturn, match.events[-1].originator_version, COMMITTEE)
            except BgLedgerError:
                pass  # refused: the illegal play stands, flagged
            continue
        if rng.random() < rulings / 3:
            match.rule(Match.note, NOTE)
            continue
        line = next_line(state, rng)
        if line is None:
            break
        wrong = typo(state, line, rng) if rng.random() < typos else None
        if wrong is None:
            match.act(line)
            continue
        try:
            match.act(wrong)
        except BgLedgerError:
            match.act(line)  # the ledger refused the typo itself: nothing to correct
            continue
        if rng.random() < 0.5:
            match.undo()
            match.act(line)
        else:
            match.amend(entries_in_force(match.events)[-1].number, line)
    return match.events


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    lines=st.integers(1, 160),
    typos=st.floats(0, 0.3),
    rulings=st.floats(0, 0.3),
    lasts=st.lists(st.integers(0, 40), min_size=1, max_size=4),
)
def test_the_tail_is_the_whole_trails_last_entries(
    seed: int, lines: int, typos: float, rulings: float, lasts: list[int]
) -> None:
    events = ruled_and_corrected(seed, lines, typos, rulings)
    # the ends: the whole match, and just after each ruling or correction (the tail then
    # starts among, or just after, the entries it voids or names)
    marks = [i for i, e in enumerate(events) if isinstance(e, RulingMade | EntryCorrected)]
    rng = random.Random(seed)
    ends = {len(events), *(min(i + rng.randint(1, 9), len(events)) for i in marks[-6:])}
    for end in sorted(ends):
        whole = history(events[:end])
        for last in {*lasts, 1, 8}:
            assert history(events[:end], last=last) == tail(whole, last), (end, last)


def test_the_tail_of_one_ruling_of_each_kind_at_every_end(tmp_path: Path) -> None:
    store = MatchStore(f"sqlite:///{tmp_path / 'ruled.db'}")
    events = record_ruled_match(store)
    store.close()
    for end in range(1, len(events) + 1):
        whole = history(events[:end])
        for last in range(0, 10):
            assert history(events[:end], last=last) == tail(whole, last), (end, last)
    # the tail ending the match: the length corrected, the match won, and what they void
    shown = history(events, last=8)
    assert [entry.number for entry in shown] == list(range(44, 52))
    assert shown[0].ruling is not None and shown[0].kind == "CrawfordPassNullified"


def test_the_front_door_gives_the_tail(tmp_path: Path) -> None:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="m", by="kim")
    for line in ["opening 3 1", "move 8/5 6/5", "roll 6 4", "move 24/13 --as-played"]:
        ledger.record_line("m", line, by="kim")
    ledger.record_line("m", 'revert 6 --reason "one checker 11 pips"', by="td")
    ledger.record_line("m", "move 24/18 13/9", by="kim")
    ledger.record_line("m", "roll 5 2", by="kim")
    ledger.record_line("m", "undo", by="kim")
    whole = ledger.history("m")
    assert ledger.history("m", last=3) == whole[-3:]
    assert ledger.history("m", last=100) == whole
    assert ledger.history("m", at=7, last=2) == ledger.history("m", at=7)[-2:]
    shown = ledger.history("m", last=5)
    assert shown[0].number == 6 and shown[0].voided_by == 7  # the play the ruling voided
    assert shown[-1].text.startswith("recording error: entry 9 (Ann rolled 5-2) withdrawn")
    rulings = ledger.history("m", rulings_only=True)
    assert ledger.history("m", rulings_only=True, last=1) == rulings[-1:]

    # the pad and the match page: the last lines ``history`` prints, marks and all
    client = reading(TestClient(create_app(ledger)), ledger)
    expected = [history_line(entry) for entry in whole[-HISTORY_SHOWN:]]
    assert any(line.split()[1] == "x" for line in expected)  # the voided play is among them
    for path in ("/matches/m/live", "/matches/m/pad"):
        page = client.get(path).text
        shown = [html.unescape(line) for line in re.findall(r"<li><pre>(.*?)</pre></li>", page)]
        assert shown == expected, path
    ledger.close()
