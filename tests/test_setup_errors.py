"""Errors in the starting position (USBGF 4.2.4, ABT 4.7): the setup, its correction, its window."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.commands.rulings import Ruling, RulingRefusedError
from bgledger.commands.vocabulary import parse
from bgledger.errors import ActionRefusedError
from bgledger.interchange.json_stream import export_json, import_json, read_json
from bgledger.projections.state.corrected import corrected
from bgledger.rules.position import Position
from bgledger.store.application import MatchStore
from tests.conftest import REPO

FIXTURE = REPO / "fixtures" / "rulings" / "starting-position-4.2.4.txt"
WRONG = "4HPwATDgc+gBMA"  # one of Ann's mid-point checkers on her 12 point
DIRECTOR = Ruling("director", "a checker of Ann's started on her 12 point", by="tom")


def ledger_with(lines: list[str], profile: str = "usbgf-2016") -> MatchStore:
    ledger = MatchStore("sqlite:///:memory:")
    ledger.start(("Ann", "Bob"), 3, match_id="s", profile=profile, by="kim")
    ledger.act("s", lambda m: m.record_setup(WRONG, by="kim"))  # event 3 (2: GameStarted)
    for line in lines:
        ledger.act("s", lambda m, line=line: parse(line).run(m, "kim"))
    return ledger


def fix(ledger: MatchStore) -> None:
    ledger.rule("s", lambda m, h: m.correct_setup(h, 3, DIRECTOR))


OPENING = ["opening 3 1", "move 8/5 6/5"]
BOB_1 = ["roll 6 5", "move 13/7 13/8"]
ANN_2 = ["roll 3 1", "move 8/5 6/5"]
BOB_2 = ["roll 4 2", "move 13/9 13/11"]


def test_the_wrong_setup_is_on_the_board_and_flagged() -> None:
    state = ledger_with([]).state("s")
    assert state.board[0][12] == 1 and state.board[0][13] == 4
    assert state.flagged == (3,) and state.phase.value == "opening"


def test_unaffected_plays_stand_on_the_corrected_position() -> None:
    ledger = ledger_with(OPENING + BOB_1 + ANN_2)
    fix(ledger)
    state = ledger.state("s")
    # Ann's two 8/5 6/5 on the standard setup: 13 point back to 5, nothing on 12.
    assert (state.board[0][13], state.board[0][12]) == (5, 0)
    assert (state.board[0][8], state.board[0][6], state.board[0][5]) == (1, 3, 4)
    assert state.turn == "b" and state.phase.value == "roll"
    ruling = ledger.history("s")[-1]
    assert getattr(ruling, "replayed", None) is False and getattr(ruling, "voids", None) == [3]
    assert corrected(ledger.history("s")) == state


def test_a_play_the_error_affected_means_the_game_is_replayed_with_new_rolls() -> None:
    ledger = ledger_with(["opening 3 1", "move 12/9 6/5"])  # the misplaced checker moved
    fix(ledger)
    state = ledger.state("s")
    assert state.phase.value == "opening" and state.board == (Position.start().mover,) * 2
    assert getattr(ledger.history("s")[-1], "voids", None) == [3, 4, 5]
    assert state.game == 1


def test_after_the_non_starters_second_turn_the_position_stands() -> None:
    ledger = ledger_with(OPENING + BOB_1 + ANN_2 + BOB_2)
    with pytest.raises(RulingRefusedError) as refused:
        fix(ledger)
    assert refused.value.rule == "USBGF 4.2.4" and "second turn at event 11" in str(refused.value)
    assert "fewer than fifteen checkers" in str(refused.value)
    assert ledger.state("s").board[0][12] == 1  # still the setup as it was


def test_under_abt_the_window_is_the_fifth_roll() -> None:
    four_rolls = OPENING + BOB_1 + ANN_2 + BOB_2[:1]
    ledger = ledger_with([*four_rolls, "move 13/9 13/11"], profile="usbgf-2017")
    fix(ledger)  # four rolls so far: still in time under ABT 4.7
    late = ledger_with([*four_rolls, "move 13/9 13/11", "roll 5 2"], profile="usbgf-2017")
    with pytest.raises(RulingRefusedError) as refused:
        fix(late)
    assert refused.value.rule == "ABT 4.7" and "fifth roll" in str(refused.value)


def test_a_setup_is_recorded_before_the_first_play_only() -> None:
    ledger = ledger_with(OPENING)
    with pytest.raises(ActionRefusedError, match="before the game's first play"):
        ledger.act("s", lambda m: m.record_setup(WRONG, by="kim"))
    with pytest.raises(ActionRefusedError, match="standard starting position"):
        fresh = MatchStore("sqlite:///:memory:")
        fresh.start(("Ann", "Bob"), 3, match_id="t", by="kim")
        fresh.act("t", lambda m: m.record_setup(Position.start().position_id, by="kim"))


def test_a_corrected_setup_round_trips_through_json() -> None:
    ledger = ledger_with(OPENING + BOB_1)
    fix(ledger)
    document = read_json(json.dumps(export_json(ledger.history("s"))), name="s.json")
    copy = MatchStore("sqlite:///:memory:")
    assert import_json(copy, document, match_id="c", by="kim") == "c"
    assert copy.state("c").board == ledger.state("s").board


def run(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def test_the_scenario_through_the_cli(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'setup.db'}"
    text = FIXTURE.read_text()
    position = re.search(r"^# setup: (\S+)", text, re.MULTILINE)
    assert position and position.group(1) == WRONG
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m").exit_code == 0
    assert run(db, "setup", "m", WRONG).exit_code == 0
    assert run(db, "record", "m", stdin=text).exit_code == 0
    ruled = run(db, "correct-setup", "m", "3", "--ruled-by", "director", "--reason", "12 point")
    assert ruled.exit_code == 0, ruled.output
    state: dict[str, Any] = json.loads(run(db, "show", "m", "--json").stdout)
    assert state["turn"] == "b" and state["flagged"] == []
    history = run(db, "history", "m").stdout
    assert "set up wrongly" in history and "plays so far stand" in history
    late = run(db, "record", "m", stdin="roll 4 2\nmove 13/9 13/11\n")
    assert late.exit_code == 0
    again = run(db, "correct-setup", "m", "3", "--ruled-by", "director", "--reason", "again")
    assert again.exit_code == 1  # event 3 is void already
