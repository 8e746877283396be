"""Scenario transcripts under fixtures/scenarios, recorded through the CLI's ``record``.

Each transcript's header names its ``start`` options; the scores and game
results asserted here were worked out by hand from the transcripts' stories
(their header comments), not read back from the ledger.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from tests.conftest import REPO

SCENARIOS = REPO / "fixtures" / "scenarios"


def run(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def record_scenario(db: str, name: str, match_id: str = "m") -> tuple[Result, dict[str, Any]]:
    """Start the scenario's match, feed its transcript to ``record``; the result and show --json."""
    text = (SCENARIOS / name).read_text()
    start = re.search(r"^# start: (.*)$", text, re.MULTILINE)
    assert start, f"{name} has no '# start:' line"
    started = run(db, "start", "--id", match_id, "--by", "kim", *shlex.split(start.group(1)))
    assert started.exit_code == 0, started.output
    recorded = run(db, "record", match_id, "--by", "kim", stdin=text)
    shown = run(db, "show", match_id, "--json")
    assert shown.exit_code == 0, shown.output
    return recorded, json.loads(shown.stdout)


def games(state: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (g["game"], g["winner"], g["result"], g["cube"], g["points"], g["how"], g["crawford"])
        for g in state["games"]
    ]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'scenarios.db'}"


def test_full_three_point_match(db: str) -> None:
    recorded, state = record_scenario(db, "three-point-match.txt")
    assert recorded.exit_code == 0, recorded.stderr
    assert games(state) == [
        (1, "a", "single", 2, 2, "played", False),  # Ann's double taken, won at 2: 2-0
        (2, "b", "single", 1, 1, "played", True),  # the Crawford game: 2-1
        (3, "b", "single", 1, 1, "drop", False),  # post-Crawford double passed: 2-2
        (4, "a", "single", 1, 1, "played", False),  # double match point: 3-2
    ]
    assert state["score"] == {"a": 3, "b": 2}
    assert state["winner"] == "a"
    assert [g["score"] for g in state["games"]] == [
        {"a": 2, "b": 0},
        {"a": 2, "b": 1},
        {"a": 2, "b": 2},
        {"a": 3, "b": 2},
    ]


def test_gammon_and_backgammon_count_in_the_crawford_game(db: str) -> None:
    recorded, state = record_scenario(db, "gammon-backgammon.txt")
    assert recorded.exit_code == 0, recorded.stderr
    assert games(state) == [
        (1, "a", "gammon", 2, 4, "played", False),
        (2, "a", "backgammon", 1, 3, "played", True),
    ]
    assert state["score"] == {"a": 7, "b": 0}  # not capped at 5, as gnubg keeps it
    assert state["winner"] == "a"


def test_drops_and_concessions(db: str) -> None:
    recorded, state = record_scenario(db, "drop-and-resignation.txt")
    assert recorded.exit_code == 0, recorded.stderr
    assert games(state) == [
        (1, "b", "single", 1, 1, "drop", False),
        (2, "a", "single", 1, 1, "resign", False),
        (3, "a", "single", 1, 1, "drop", False),
        (4, "a", "single", 1, 1, "resign", True),
    ]
    assert state["score"] == {"a": 3, "b": 1}
    history = json.loads(run(db, "history", "m", "--json").stdout)["events"]
    kinds = [e["kind"] for e in history]
    assert kinds.count("ResignationRejected") == 1
    assert kinds.count("ResignationOffered") == 3


def test_bar_dance_passes_the_turn(db: str) -> None:
    recorded, state = record_scenario(db, "bar-dance.txt")
    assert recorded.exit_code == 0, recorded.stderr
    history = json.loads(run(db, "history", "m", "--json").stdout)["events"]
    dance = [i for i, e in enumerate(history) if e["kind"] == "DiceRolled"][-2]
    # the 3-2 roll is followed at once by an empty play, then the other player's roll
    assert history[dance]["kind"] == "DiceRolled"
    assert history[dance + 1]["kind"] == "CheckersPlayed"
    assert "could not move" in history[dance + 1]["text"]
    assert history[dance + 2]["kind"] == "DiceRolled"
    assert state["winner"] is None and state["score"] == {"a": 0, "b": 0}


REFUSED_RULES = [
    "Appendix B",  # a roll before any opening roll
    "Appendix B",  # a play before the roll
    "USBGF 4.4.4",  # a roll while a double is pending
    "USBGF 4.4.4",  # a concession while a double is pending
    "USBGF 4.4.6",  # a double in the Crawford game
    "USBGF 4.5",  # a concession in a contact position
    "a die shows 1 to 6, not 7",  # a die of 7
    "USBGF 4.1.4",  # an unknown reason to void a roll
    "USBGF 4.2.3(a)",  # an illegal play
    "USBGF 4.4.9",  # Bob's dead cube
    "USBGF 4.4.9",  # Ann's dead cube at double match point
]


def test_refused_lines_record_nothing(db: str) -> None:
    recorded, state = record_scenario(db, "refusals.txt")
    assert recorded.exit_code == 1
    complaints = [line for line in recorded.stderr.splitlines() if line.startswith("line ")]
    assert len(complaints) == len(REFUSED_RULES)
    for complaint, rule in zip(complaints, REFUSED_RULES, strict=True):
        assert rule in complaint, complaint
    assert state["score"] == {"a": 2, "b": 2}
    # The same transcript without its refused lines records exactly the same events.
    text = (SCENARIOS / "refusals.txt").read_text()
    clean = "\n".join(line for line in text.splitlines() if "# refused" not in line)
    assert (
        run(db, "start", "--id", "clean", "--a", "Ann", "--b", "Bob", "--length", "3").exit_code
        == 0
    )
    assert run(db, "record", "clean", stdin=clean).exit_code == 0
    again = json.loads(run(db, "show", "clean", "--json").stdout)
    assert again["events"] == state["events"]
    assert again["board"] == state["board"] and games(again) == games(state)
