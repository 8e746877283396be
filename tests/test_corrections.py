"""A scorekeeper's recording errors: ``undo`` and ``amend`` (issue 14, DESIGN principle 9).

What a scorekeeper would notice:

- a typo withdrawn or amended leaves the match it would have been had it
  been entered right (board, dice, turn, score, cube, Crawford, clock), on
  random legal matches with random typos (a hypothesis property), live, replayed
  and as corrected;
- the mistaken entry is still in the history, marked, with the correction
  apart from rulings (who, when, why);
- an amendment after which a later entry no longer fits is refused naming
  that entry, and nothing is appended;
- the scorekeeper alone corrects the game in progress; an earlier game needs
  the director (USBGF 4.7); an entry a ruling was decided on is the director's.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgledger.cli.main import main
from bgledger.commands.corrections import (
    CorrectionRefusedError,
    EntryNoLongerFitsError,
    InvalidCorrectionError,
)
from bgledger.commands.language import InvalidActionError
from bgledger.commands.match import Match
from bgledger.commands.vocabulary import parse
from bgledger.events import MatchEvent
from bgledger.projections.state.corrected import corrected
from bgledger.projections.state.fold import MatchState, Phase, fold
from bgledger.rules.legal import legal_plays
from bgledger.service import Ledger
from tests.conftest import unique_id
from tests.match_driver import InMemory, next_line

BY = "kim"
T0 = "2026-11-21T10:00:00+00:00"


def comparable(state: MatchState) -> MatchState:
    """``state`` without what numbers or dates events (corrections add events)."""
    dance = int(bool(state.danced) and state.danced == state.events)
    return replace(state, events=0, last_at="", danced=dance, head="")


class Recorded(InMemory):
    """A match in memory with the scorekeeper's corrections."""

    def __init__(self, match_id: str, length: int, **setup: object) -> None:
        super().__init__(match_id, length, by=BY, at=T0, **setup)

    def undo(self, at: str | None = None) -> None:
        self.rule(lambda m, h: m.withdraw(h, reason="typo", by=BY, at=at))

    def amend(self, number: int, line: str, at: str | None = None) -> None:
        action = parse(line)

        def perform(scratch: Match, when: str) -> None:
            replace(action, at=when).run(scratch, BY)

        self.rule(lambda m, h: m.amend(h, number, perform, line=line, by=BY, at=at))


def typo(state: MatchState, line: str, rng: random.Random) -> str | None:
    """A line a tired scorekeeper might type instead of ``line``: other dice, another play."""
    words = line.split()
    if words[0] in ("roll", "opening"):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        wrong = f"{words[0]} {dice[0]} {dice[1]}"
        return None if wrong == line else wrong
    if words[0] == "move" and state.dice is not None:
        plays = {str(p.play) for p in legal_plays(state.position, state.dice)}
        others = sorted(plays - {line.removeprefix("move ")})
        return f"move {rng.choice(others)}" if others and others[0] else None
    return None


# -- the property: corrected equals recorded without the error ---------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    length=st.integers(1, 7),
    lines=st.integers(1, 160),
    rate=st.floats(0.05, 0.4),
    how=st.sampled_from(["undo", "amend", "mixed"]),
)
def test_typos_corrected_leave_the_match_recorded_without_them(
    seed: int, length: int, lines: int, rate: float, how: str
) -> None:
    rng = random.Random(seed)
    match_id = unique_id("t")
    typed, right = Recorded(match_id, length), Recorded(match_id, length)
    corrections = 0
    for _ in range(lines):
        line = next_line(right.match.state, rng)
        if line is None:
            break
        wrong = typo(right.match.state, line, rng) if rng.random() < rate else None
        right.act(line)
        if wrong is None:
            typed.act(line)
            continue
        try:
            typed.act(wrong)
        except Exception:
            typed.act(line)  # the ledger refused the typo itself: nothing to correct
            continue
        corrections += 1
        use_undo = how == "undo" or (how == "mixed" and rng.random() < 0.5)
        if use_undo:
            typed.undo()
            typed.act(line)
        else:
            entry = next(e for e in typed.events[::-1] if e.originator_version > 1)
            first = min(typed.match.state.events, entry.originator_version)
            number = _entry_number(typed.events, first)
            typed.amend(number, line)
        assert comparable(typed.match.state) == comparable(right.match.state)
    live = typed.match.state
    assert comparable(live) == comparable(right.match.state)
    replayed = fold(typed.events)
    assert replayed is not None
    assert comparable(replayed) == comparable(live)  # replayed equals live
    as_corrected = corrected(typed.events)
    assert as_corrected is not None
    assert comparable(as_corrected) == comparable(right.match.state)


def _entry_number(events: list[MatchEvent], last: int) -> int:
    """The number of the entry the last command recorded (a game start opens its entry)."""
    from bgledger.events import GameStarted, GameWon, MatchWon

    number = last
    while number > 1 and isinstance(events[number - 1], GameWon | MatchWon):
        number -= 1
    if number > 2 and isinstance(events[number - 2], GameStarted):
        number -= 1
    # a dance is recorded with its roll: the roll is the entry
    from bgledger.events import CheckersPlayed, DiceRolled

    played = events[number - 1]
    if (
        isinstance(played, CheckersPlayed)
        and not played.play
        and isinstance(events[number - 2], DiceRolled)
    ):
        number -= 1
    return number


# -- the front door, the CLI and the history: a scorekeeper's session --------------------------


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    return Ledger(f"sqlite:///{tmp_path / 'c.db'}")


def _started(ledger: Ledger, *lines: str, length: int = 5) -> str:
    match_id = unique_id("c")
    ledger.start(("Ann", "Bob"), length, match_id=match_id, by=BY)
    for line in lines:
        ledger.record_line(match_id, line, by=BY)
    return match_id


def test_a_mistyped_roll_is_amended_and_the_play_after_it_stands(ledger: Ledger) -> None:
    # Bob rolled 6-4 and played 24/18 13/9; the scorekeeper typed 6-3, then the play as
    # --as-played (it was refused as illegal for 6-3).  Amending the roll to 6-4 makes
    # the play legal: the amendment is refused, because the play would no longer be
    # recorded as it was (flagged illegal).  Undo, then amend, is the way.
    match_id = _started(ledger, "opening 3 1", "move 8/5 6/5", "roll 6 3")
    done = ledger.record_line(match_id, "amend 5 roll 6 4", by=BY)
    state = ledger.show(match_id).to_json()
    assert state["dice"] == [6, 4] and state["turn"] == "b"
    assert done.numbers == (6,)
    ledger.record_line(match_id, "move 24/18 13/9", by=BY)
    right = _started(ledger, "opening 3 1", "move 8/5 6/5", "roll 6 4", "move 24/18 13/9")
    mine, theirs = ledger.show(match_id).to_json(), ledger.show(right).to_json()
    for key in ("board", "dice", "turn", "score", "cube", "crawford", "game"):
        assert mine[key] == theirs[key], key


def test_an_amendment_a_later_entry_no_longer_fits_is_refused_naming_it(ledger: Ledger) -> None:
    match_id = _started(ledger, "opening 3 1", "move 8/5 6/5", "roll 6 3", "move 24/18 13/10")
    before = ledger.show(match_id).to_json()
    with pytest.raises(EntryNoLongerFitsError, match=r"entry 6 \(CheckersPlayed\)") as refused:
        ledger.record_line(match_id, "amend 5 roll 6 4", by=BY)
    assert refused.value.number == 6
    assert ledger.show(match_id).to_json() == before  # nothing appended


def test_undo_walks_back_one_entry_at_a_time_and_says_when_nothing_is_left(
    ledger: Ledger,
) -> None:
    match_id = _started(ledger, "opening 3 1", "move 8/5 6/5", "roll 6 3")
    ledger.record_line(match_id, "undo", by=BY)
    assert ledger.show(match_id).to_json()["dice"] is None
    ledger.record_line(match_id, "undo", by=BY)
    assert ledger.show(match_id).to_json()["dice"] == [3, 1]  # Ann's play withdrawn
    ledger.record_line(match_id, "undo", by=BY)  # the opening roll, with the game it started
    shown = ledger.show(match_id).to_json()
    assert shown["game"] == 0 and shown["turn"] is None
    with pytest.raises(CorrectionRefusedError, match="nothing to undo"):
        ledger.record_line(match_id, "undo", by=BY)


def test_the_history_keeps_the_mistake_and_shows_the_correction_apart(ledger: Ledger) -> None:
    match_id = _started(ledger, "opening 3 1", "move 8/5 6/5", "roll 6 3")
    ledger.record_line(match_id, "amend 5 roll 6 4 --reason typed 6-3", by="lee")
    trail = ledger.history(match_id)
    assert trail[4].text == "Bob rolled 6-3"  # the entry as it was recorded
    assert trail[4].voided_as == "amended" and trail[4].voided_by == 6
    correction = trail[5]
    assert correction.ruling is None  # not a ruling
    assert correction.recorded_by == "lee"
    assert correction.correction is not None and correction.correction["line"] == "roll 6 4"
    assert correction.text == (
        "recording error: entry 5 (Bob rolled 6-3) amended to 'roll 6 4': typed 6-3"
    )
    # The match as recorded after event 5 still says 6-3: history is not rewritten; the
    # same moment as corrected says what happened.
    assert ledger.state(match_id, at=5).dice == (6, 3)
    assert ledger.state(match_id, at=5, corrected=True).dice == (6, 4)


def test_a_winning_play_undone_reopens_the_game(ledger: Ledger) -> None:
    match_id = _started(ledger, "opening 3 1", "move 8/5 6/5", "double", length=3)
    ledger.record_line(match_id, "drop", by=BY)
    assert ledger.show(match_id).to_json()["score"] == {"a": 0, "b": 1}
    ledger.record_line(match_id, "undo", by=BY)  # the drop and the game it won
    shown = ledger.show(match_id).to_json()
    assert shown["score"] == {"a": 0, "b": 0}
    assert shown["cube"]["offered"] is True


def test_an_earlier_games_entry_needs_the_director(ledger: Ledger) -> None:
    match_id = _started(
        ledger, "opening 3 1", "move 8/5 6/5", "double", "drop", "opening 5 2", length=5
    )
    with pytest.raises(CorrectionRefusedError, match=r"USBGF 4\.7") as refused:
        ledger.record_line(match_id, "amend 4 move 24/23 13/10", by=BY)
    assert "--ruled-by director" in str(refused.value)
    done = ledger.record_line(match_id, "amend 4 move 24/23 13/10 --ruled-by director", by="td")
    assert ledger.show(match_id).to_json()["score"] == {"a": 0, "b": 1}  # the drop stands
    assert ledger.history(match_id)[done.numbers[0] - 1].text.endswith("with the director's leave")


def test_an_entry_a_ruling_was_decided_on_is_the_directors(ledger: Ledger) -> None:

    match_id = _started(ledger, "opening 3 1", "move 8/5 --as-played")
    ledger.record_line(match_id, "revert 4 --reason did not use both dice", by="td")
    ledger.record_line(match_id, "move 8/5 6/5", by=BY)
    with pytest.raises(CorrectionRefusedError, match="ruling at event 5"):
        ledger.record_line(match_id, "amend 3 opening 4 1", by=BY)


def test_a_correction_names_no_ruling_and_no_event_the_match_lacks(ledger: Ledger) -> None:
    match_id = _started(ledger, "opening 3 1")
    with pytest.raises(InvalidCorrectionError, match="the match has events 1-3"):
        ledger.record_line(match_id, "amend 9 roll 6 4", by=BY)
    with pytest.raises(InvalidCorrectionError, match="not an entry"):
        ledger.record_line(match_id, "amend 1 roll 6 4", by=BY)
    with pytest.raises(InvalidActionError, match="not a correction or a ruling"):
        ledger.record_line(match_id, "amend 3 undo", by=BY)
    with pytest.raises(InvalidActionError, match="not a correction or a ruling"):
        ledger.record_line(match_id, "amend 3 revert 3 --reason x", by=BY)


def test_the_json_copy_carries_corrections_and_imports_them_again(
    ledger: Ledger, tmp_path: Path
) -> None:
    match_id = _started(ledger, "opening 3 1", "move 8/5 6/5", "roll 6 3")
    ledger.record_line(match_id, "amend 5 roll 6 4 --reason typed 6-3", by=BY)
    ledger.record_line(match_id, "move 24/18 13/9", by=BY)
    ledger.record_line(match_id, "undo", by=BY)
    copy = tmp_path / "m.json"
    runner = CliRunner()
    db = f"sqlite:///{tmp_path / 'c.db'}"
    out = runner.invoke(main, ["--db", db, "export", match_id, "--format", "json"])
    assert out.exit_code == 0, out.output
    copy.write_text(out.output)
    other = f"sqlite:///{tmp_path / 'other.db'}"
    done = runner.invoke(main, ["--db", other, "import", str(copy), "--json"])
    assert done.exit_code == 0, done.output
    imported = json.loads(done.output.splitlines()[0])
    assert imported["dice"] == [6, 4] and imported["turn"] == "b"


# -- the command line -------------------------------------------------------------------------


def test_undo_and_amend_on_the_command_line(tmp_path: Path) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'cli.db'}"]
    runner = CliRunner()

    def run(*args: str) -> tuple[int, str]:
        result = runner.invoke(main, [*db, *args])
        return result.exit_code, result.output

    assert run("start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m")[0] == 0
    for args in (["opening", "m", "3", "1"], ["move", "m", "8/5 6/5"], ["roll", "m", "6", "3"]):
        assert run(*args)[0] == 0
    code, out = run("amend", "m", "5", "roll 6 4", "--reason", "typed 6-3")
    assert code == 0
    assert "    6 C " in out  # the history's line: number, mark, time, who, what
    assert "recording error: entry 5 (Bob rolled 6-3) amended to 'roll 6 4': typed 6-3" in out
    assert "Bob has rolled 6-4 and must move" in out
    code, out = run("amend", "m", "99", "roll 6 4")
    assert code == 2 and "event 99: the match has events 1-6" in out
    code, out = run("undo", "m")
    assert code == 0 and "withdrawn" in out
    code, out = run("history", "m")
    assert "Bob rolled 6-3  [withdrawn at 7: recording error]" in out
    assert "C " in out
    code, out = run("undo", "m", "--ruled-by", "committee")
    assert code == 2  # only the director allows a correction


def test_record_reads_undo_and_amend_lines(tmp_path: Path) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'rec.db'}"]
    runner = CliRunner()
    runner.invoke(main, [*db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m"])
    script = "opening 3 1\nmove 8/5 6/5\nroll 6 3\namend 5 roll 6 4 --reason typo\n"
    script += "move 24/18 13/9\nundo\nmove 24/18 13/9\n"
    result = runner.invoke(main, [*db, "record", "m"], input=script)
    assert result.exit_code == 0, result.output
    shown = json.loads(runner.invoke(main, [*db, "show", "m", "--json"]).output)
    assert shown["turn"] == "a" and shown["dice"] is None
    assert shown["events"] == 9


def test_phase_after_undoing_a_take_is_the_double_again(ledger: Ledger) -> None:
    match_id = _started(ledger, "opening 3 1", "move 8/5 6/5", "double", "take")
    ledger.record_line(match_id, "undo", by=BY)
    assert ledger.state(match_id).phase is Phase.DOUBLED


def test_a_ruling_on_an_amended_entry_rules_on_what_happened(ledger: Ledger) -> None:

    # The scorekeeper typed Ann's play as 8/5 6/5; she had moved 8/5 alone (illegal: it
    # does not use both dice).  Amended to what happened, the director reverts it
    # inside USBGF 4.2.3(a)'s window and she plays the 3-1 again.
    match_id = _started(ledger, "opening 3 1", "move 8/5 6/5")
    ledger.record_line(
        match_id, "amend 4 move 8/5 --as-played --reason she moved one checker", by=BY
    )
    assert ledger.show(match_id).to_json()["turn"] == "b"
    ledger.record_line(match_id, "revert 4 --reason must use both dice", by="td")
    shown = ledger.show(match_id).to_json()
    assert shown["turn"] == "a" and shown["dice"] == [3, 1]
    ruling = ledger.history(match_id)[5]
    assert "Ann's illegal play 8/5 taken back" in ruling.text


def test_a_scorekeepers_note_is_no_ruling(tmp_path: Path) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'n.db'}"]
    runner = CliRunner()
    runner.invoke(main, [*db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m"])
    done = runner.invoke(main, [*db, "note", "m", "Bob asked for the director"])
    assert done.exit_code == 0, done.output
    assert "note for the record: Bob asked for the director" in done.output
    rulings = runner.invoke(main, [*db, "history", "m", "--rulings"])
    assert "Bob asked" not in rulings.output
    refused = runner.invoke(main, [*db, "note", "m", "x", "--rule", "USBGF 4.7"])
    assert refused.exit_code == 2 and "add --ruled-by" in refused.output
    ruled = runner.invoke(main, [*db, "note", "m", "late start", "--ruled-by", "director"])
    assert ruled.exit_code == 0
    assert "late start" in runner.invoke(main, [*db, "history", "m", "--rulings"]).output


def test_the_score_sheet_lists_corrections_apart_from_rulings(ledger: Ledger) -> None:
    from bgledger.projections.views.scoresheet import scoresheet_html, scoresheet_text

    match_id = _started(ledger, "opening 3 1", "move 8/5 6/5", "roll 6 3")
    ledger.record_line(match_id, "amend 5 roll 6 4 --reason typed 6-3", by="lee")
    events = ledger.events(match_id)
    text = scoresheet_text(ledger.state(match_id, corrected=True), events)
    assert "Rulings: none recorded" in text
    section = text.split("Recording errors corrected (not rulings):\n", 1)[1]
    assert section.splitlines()[1].split(None, 3)[:3] == [
        "6",
        section.splitlines()[1].split()[1],
        "lee",
    ]
    assert "entry 5 (Bob rolled 6-3) amended to 'roll 6 4': typed 6-3" in section.splitlines()[1]
    page = scoresheet_html(ledger.state(match_id, corrected=True), events)
    assert "<h2>Recording errors corrected (not rulings)</h2>" in page
    assert "amended to &#x27;roll 6 4&#x27;" in page


# -- with a game clock: the clock too is what it would have been -------------------------------


def _clocked(match_id: str) -> Recorded:
    return Recorded(match_id, 7, clock="simple-delay")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    lines=st.integers(1, 80),
    rate=st.floats(0.1, 0.5),
    how=st.sampled_from(["undo", "amend"]),
)
def test_typos_corrected_in_a_clocked_match_leave_the_clock_as_it_would_have_been(
    seed: int, lines: int, rate: float, how: str
) -> None:
    from datetime import datetime, timedelta

    from bgledger.errors import BgLedgerError

    rng = random.Random(seed)
    match_id = unique_id("k")
    typed, right = _clocked(match_id), _clocked(match_id)
    when = datetime.fromisoformat(T0)

    def stamped(line: str) -> str:
        return f"@{when.isoformat()} {line}"

    for _ in range(lines):
        line = next_line(right.match.state, rng)
        if line is None:
            break
        when += timedelta(seconds=rng.randint(1, 40))
        try:
            right.act(stamped(line))
        except BgLedgerError:  # the clock wants the mover's hit first
            right.act(stamped("hit"))
            typed.act(stamped("hit"))
            when += timedelta(seconds=rng.randint(1, 5))
            right.act(stamped(line))
        wrong = typo(typed.match.state, line, rng) if rng.random() < rate else None
        if wrong is not None:
            try:
                typed.act(stamped(wrong))
            except BgLedgerError:
                wrong = None
        if wrong is None:
            typed.act(stamped(line))
        elif how == "undo":
            typed.undo(at=when.isoformat())
            typed.act(stamped(line))
        else:
            last = typed.events[-1].originator_version
            typed.amend(_entry_number(typed.events, last), line, at=when.isoformat())
        assert comparable(typed.match.state) == comparable(right.match.state)
        assert typed.match.state.timer == right.match.state.timer
    replayed = fold(typed.events)
    assert replayed is not None and comparable(replayed) == comparable(typed.match.state)
