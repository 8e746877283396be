"""``replay``: stepping through a match as recorded and as corrected, around a reverted play.

The match: 1 MatchStarted, 2 GameStarted, 3 opening 5-2 (Ann first), 4 Ann's
illegal 13/8 13/10 (a 5 and a 3, recorded as played), 5 the director's
revert (USBGF 4.2.3(a)), 6 Ann's legal 13/8 13/11.  Worked by hand: after
event 4 as recorded Ann has 167 - 8 = 159 pips and Bob is on roll; the same
moment as corrected is the start (167 pips each) with Ann to play 5-2; after
event 6 Ann has 167 - 7 = 160 pips in both views.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgledger.cli.main import main
from bgledger.cli.replay_commands import ReplaySession, Steps
from bgledger.commands.rulings import Ruling
from bgledger.events import MatchEvent
from bgledger.projections.views.moment import moment
from bgledger.service import Ledger
from bgledger.store.application import MatchStore

REASON = "a 5 and a 3 played with 5-2"


def reverted_match(url: str) -> list[MatchEvent]:
    ledger = MatchStore(url)
    ledger.start(("Ann", "Bob"), 5, match_id="m", by="kim")
    ledger.act("m", lambda m: m.opening(5, 2, by="kim"))
    ledger.act("m", lambda m: m.move("13/8 13/10", as_played=True, by="kim"))
    ledger.rule("m", lambda m, h: m.revert(h, 4, Ruling("director", REASON, by="tess")))
    ledger.act("m", lambda m: m.move("13/8 13/11", by="kim"))
    events = ledger.history("m")
    ledger.close()
    return events


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'replay.db'}"


@pytest.fixture
def events(url: str) -> list[MatchEvent]:
    return reverted_match(url)


@pytest.fixture
def steps(events: list[MatchEvent], url: str) -> Iterator[Steps]:
    """The match's steps from the front door, as ``bgledger replay`` gets them."""
    ledger = Ledger(url)
    yield partial(ledger.replay, "m")
    ledger.close()


def test_the_reverted_play_looks_different_recorded_and_corrected(steps: Steps) -> None:
    session = ReplaySession(steps, at=4)
    recorded = session.screen()
    assert recorded.startswith("== event 4 of 6 · recorded view (as recorded after event 4) ==")
    # as the log stood after event 4: the play stands, ruling 5 is not made yet
    assert "ILLEGAL: Ann played 13/10 13/8" in recorded and "voided" not in recorded
    assert "pips 159" in recorded and "Bob is on roll" in recorded
    assert "no ruling in force" in recorded
    corrected = session.step("t")
    assert "corrected view (as corrected, after event 4)" in corrected
    assert "pips 159" not in corrected and "Ann has rolled 5-2 and must move" in corrected
    assert f"rulings in force:\n      5  USBGF 4.2.3(a), director: {REASON}" in corrected
    assert "allows (USBGF 4.2.3(a))  [voided by ruling 5]\n" in corrected  # as it is today
    assert session.step("toggle") == recorded


def test_stepping_forward_and_back_through_the_ruling(steps: Steps) -> None:
    session = ReplaySession(steps, at=3)
    ruling = session.step("")  # Enter = next
    assert session.at == 4 and "event 4 of 6" in ruling
    ruling = session.step("n")
    assert "event 5 of 6" in ruling
    assert "RULING (USBGF 4.2.3(a), director): event 4 void" in ruling
    assert "Ann has rolled 5-2 and must move" in ruling  # the ruling's state, as recorded
    last = session.step("next")
    assert "event 6 of 6" in last and "Ann played 13/11 13/8" in last and "pips 160" in last
    assert session.step("n") == "at the last event (6): b/back, j/jump N or q/quit"
    assert "event 5 of 6" in session.step("b")
    assert "event 4 of 6" in session.step("back")


def test_jump_toggle_quit_and_unknown_commands(steps: Steps) -> None:
    session = ReplaySession(steps, as_corrected=True)
    assert session.at == 1 and "corrected view" in session.screen()
    assert "event 6 of 6 · corrected view" in session.step("j 6")
    assert "event 2 of 6" in session.step("jump 2")
    assert session.step("j 7") == "no event 7: the match has events 1-6"
    assert session.step("j") == "jump needs an event number, 1-6: j N"
    assert session.at == 2
    assert "event 1 of 6" in session.step("b")
    assert session.step("back").startswith("at the first event")
    assert session.step("xyzzy").startswith("unknown command 'xyzzy': n/next")
    assert not session.done
    assert session.step("q") == "end of replay" and session.done


def test_the_two_views_agree_after_the_correction(events: list[MatchEvent]) -> None:
    for at in (5, 6):
        as_recorded, as_corrected = moment(events, at, False), moment(events, at, True)
        assert as_recorded.state.board == as_corrected.state.board
        assert as_recorded.state.turn == as_corrected.state.turn
    with pytest.raises(ValueError):
        moment(events, 7, False)


def test_the_command_reads_one_command_a_line(url: str) -> None:
    reverted_match(url)
    result = CliRunner().invoke(main, ["--db", url, "replay", "m", "--at", "4"], input="t\nn\nq\n")
    assert result.exit_code == 0, result.output
    headers = [line for line in result.stdout.splitlines() if line.startswith("== event")]
    assert headers == [
        "== event 4 of 6 · recorded view (as recorded after event 4) ==",
        "== event 4 of 6 · corrected view (as corrected, after event 4) ==",
        "== event 5 of 6 · corrected view (as corrected, after event 5) ==",
    ]
    assert result.stdout.rstrip().endswith("end of replay")
    started = CliRunner().invoke(main, ["--db", url, "replay", "m", "--corrected"], input="")
    assert started.exit_code == 0 and "event 1 of 6 · corrected view" in started.stdout
    too_far = CliRunner().invoke(main, ["--db", url, "replay", "m", "--at", "7"])
    assert too_far.exit_code == 2 and "events 1-6" in too_far.stderr
    unknown = CliRunner().invoke(main, ["--db", url, "replay", "nosuch"])
    assert unknown.exit_code == 2
