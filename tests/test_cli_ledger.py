"""The live-recording commands through click's CliRunner: output, exit codes, nothing lost."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'cli.db'}"


def run(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def show(db: str, match_id: str = "m", *extra: str) -> dict[str, Any]:
    result = run(db, "show", match_id, "--json", *extra)
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def started(db: str, *extra: str) -> str:
    result = run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m", *extra)
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


def test_every_command_has_help() -> None:
    group = main
    assert isinstance(group, click.Group)
    for name, command in group.commands.items():
        result = CliRunner().invoke(main, [name, "--help"])
        assert result.exit_code == 0, name
        assert command.help and len(command.help.split()) >= 4, f"{name} needs a real help text"


def test_start_prints_the_id_and_generates_one(db: str) -> None:
    assert started(db) == "m"
    generated = run(db, "start", "--a", "Cy", "--b", "Di", "--length", "3")
    assert generated.exit_code == 0
    new_id = generated.stdout.strip()
    assert len(new_id) == 6 and new_id.isalnum()
    assert show(db, new_id)["players"] == {"a": "Cy", "b": "Di"}


def test_show_json_has_the_contract_fields(db: str) -> None:
    started(db)
    assert run(db, "opening", "m", "3", "1").exit_code == 0
    state = show(db)
    for key in ("match_id", "players", "length", "score", "crawford", "game", "cube", "turn"):
        assert key in state
    for key in ("dice", "board", "match_id_gnubg", "winner", "events"):
        assert key in state
    assert state["turn"] == "a" and state["dice"] == [3, 1] and state["game"] == 1
    assert state["cube"] == {"value": 1, "owner": None, "offered": False}
    assert state["crawford"] == "pre" and state["events"] == 3
    assert state["board"] == "4HPwATDgc/ABMA"  # the starting position (gnubg's own id for it)


def test_a_played_move_shows_on_the_board(db: str) -> None:
    started(db)
    run(db, "opening", "m", "3", "1")
    moved = run(db, "move", "m", "8/5 6/5")
    assert moved.exit_code == 0, moved.output
    assert "Bob" in moved.stdout  # the brief line says who is next
    text = run(db, "show", "m", "--from", "a").stdout
    assert "Ann" in text and "Bob" in text
    assert show(db)["turn"] == "b"


def test_refusals_exit_1_cite_the_rule_and_record_nothing(db: str) -> None:
    started(db)
    before = show(db)["events"]
    refused = run(db, "roll", "m", "5", "2")  # no opening roll yet
    assert refused.exit_code == 1
    assert "refused" in refused.stderr and "Appendix B" in refused.stderr
    run(db, "opening", "m", "5", "2")
    after_opening = show(db)["events"]
    for args, rule in [
        (("double", "m"), "USBGF 4.4.2"),  # after rolling
        (("move", "m", "13/7"), "USBGF 4.2.3(a)"),  # illegal: 13/7 is neither 5 nor 2
        (("take", "m"), "USBGF 4.4.4"),  # nothing offered
        (("accept", "m"), "USBGF 4.5"),  # nothing offered
    ]:
        result = run(db, *args)
        assert result.exit_code == 1, (args, result.output)
        assert rule in result.stderr, (args, result.stderr)
    assert show(db)["events"] == after_opening == before + 2


def test_bad_input_exits_2_and_records_nothing(db: str) -> None:
    started(db)
    run(db, "opening", "m", "5", "2")
    events = show(db)["events"]
    for args in [
        ("move", "m", "13/x"),  # not notation
        ("move", "m", "20/15"),  # Ann has no checker on her 20 point
        ("roll", "nosuch", "3", "1"),  # no such match
        ("void-roll", "m", "wobbly"),  # not a reason the profile knows
        ("opening", "m", "7", "1"),
    ]:
        result = run(db, *args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output
    assert show(db)["events"] == events
    bad_start = run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "0")
    assert bad_start.exit_code == 2 and "length" in bad_start.stderr


def test_duplicate_id_is_refused(db: str) -> None:
    started(db)
    again = run(db, "start", "--a", "X", "--b", "Y", "--length", "3", "--id", "m")
    assert again.exit_code == 1 and "already exists" in again.stderr
    assert show(db)["players"] == {"a": "Ann", "b": "Bob"}


def test_an_illegal_play_made_at_the_board_is_recorded_as_played(db: str) -> None:
    started(db)
    run(db, "opening", "m", "5", "2")
    made = run(db, "move", "m", "13/8 13/10", "--as-played")  # a 5 and a 3 for a 5-2
    assert made.exit_code == 0, made.output
    assert re.search(r"^\s+4 ! .* ILLEGAL: Ann played 13/10 13/8", made.stdout, re.M), made.stdout
    state = show(db)
    assert state["flagged"] == [4] and state["turn"] == "b"
    history = run(db, "history", "m")
    flagged_lines = [line for line in history.stdout.splitlines() if " ! " in line]
    assert len(flagged_lines) == 1 and "4.2.3" in flagged_lines[0]


def test_cube_actions_and_a_drop_score(db: str) -> None:
    started(db)
    run(db, "opening", "m", "3", "1")
    run(db, "move", "m", "8/5 6/5")
    assert run(db, "double", "m").exit_code == 0  # Bob doubles
    assert show(db)["cube"] == {"value": 1, "owner": None, "offered": True}
    assert run(db, "take", "m").exit_code == 0
    assert show(db)["cube"] == {"value": 2, "owner": "a", "offered": False}
    run(db, "roll", "m", "6", "5")
    run(db, "move", "m", "24/13")
    assert run(db, "double", "m").exit_code == 0  # Ann redoubles to 4
    dropped = run(db, "drop", "m", "--json")
    assert dropped.exit_code == 0
    state = json.loads(dropped.stdout)
    assert state["score"] == {"a": 2, "b": 0}  # the cube was at 2 when Bob passed
    assert state["games"][0]["how"] == "drop"


def test_show_at_gives_the_state_as_recorded_then(db: str) -> None:
    started(db)
    run(db, "opening", "m", "3", "1")
    run(db, "move", "m", "8/5 6/5")
    assert show(db, "m", "--at", "3")["turn"] == "a"
    assert show(db, "m", "--at", "3")["dice"] == [3, 1]
    assert show(db, "m", "--at", "4")["turn"] == "b"
    beyond = run(db, "show", "m", "--at", "99")
    assert beyond.exit_code == 2 and "4 events" in beyond.stderr


def test_history_numbers_every_event_with_recorder(db: str) -> None:
    started(db, "--by", "kim")
    run(db, "opening", "m", "4", "4", "--by", "lee")  # a tie
    soon = (datetime.now(UTC) + timedelta(seconds=4)).replace(microsecond=0).isoformat()
    run(db, "opening", "m", "6", "1", "--by", "lee", "--at", soon)
    entries = json.loads(run(db, "history", "m", "--json").stdout)["events"]
    assert [e["number"] for e in entries] == [1, 2, 3, 4]
    assert [e["recorded_by"] for e in entries] == ["kim", "lee", "lee", "lee"]
    assert entries[3]["at"] == soon
    backwards = run(db, "move", "m", "13/7 8/7", "--at", "2020-01-01T00:00:00+00:00")
    assert backwards.exit_code == 2 and "before" in backwards.stderr
    assert len(json.loads(run(db, "history", "m", "--json").stdout)["events"]) == 4


def test_list_shows_every_match(db: str) -> None:
    started(db)
    run(db, "start", "--a", "Cy", "--b", "Di", "--length", "3", "--id", "second")
    listed = run(db, "list", "--json")
    ids = [m["match_id"] for m in json.loads(listed.stdout)["matches"]]
    assert ids == ["m", "second"]
    text = run(db, "list").stdout
    assert "Ann v Bob" in text and "Cy v Di" in text


def test_record_goes_on_after_a_refused_line(db: str) -> None:
    started(db)
    lines = "opening 3 1\nmove 8/5 6/5\ntake\nroll 6 5\nmove 24/13\n"
    result = run(db, "record", "m", stdin=lines)
    assert result.exit_code == 1
    assert "line 3" in result.stderr and "USBGF 4.4.4" in result.stderr
    assert len([line for line in result.stdout.splitlines() if line.strip()]) == 4
    state = show(db)
    assert state["turn"] == "a" and state["events"] == 6


def test_database_url_from_the_environment(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'env.db'}"
    runner = CliRunner(env={"BGLEDGER_DB": url})
    assert runner.invoke(main, ["start", "--a", "A", "--b", "B", "--length", "1"]).exit_code == 0
    assert (tmp_path / "env.db").exists()


def test_a_bad_database_url_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["--db", "nonsense://", "list"])
    assert result.exit_code in (1, 2) and "Traceback" not in result.output
    assert "database" in result.stderr or "URL" in result.stderr


@pytest.mark.parametrize(
    ("at", "says"),
    [
        ("9999-12-31T23:59:59-12:00", "is in the future"),
        ("2031-01-01T10:00:00+00:00", "is in the future"),
        ("1066-10-14T10:00:00+00:00", "a year before 1900"),
    ],
)
def test_a_time_in_the_future_or_from_no_match_is_refused(db: str, at: str, says: str) -> None:
    started(db, "--at", "2026-11-21T10:00:00+00:00")
    refused = run(db, "opening", "m", "6", "1", "--at", at)
    assert refused.exit_code == 2
    assert f"--at {at!r}" in refused.stderr and says in refused.stderr
    assert show(db)["events"] == 1
    listed = run(db, "list", "--json")  # the whole ledger still reads
    assert listed.exit_code == 0 and len(json.loads(listed.stdout)["matches"]) == 1


def test_now_before_the_last_event_is_the_last_events_time(db: str) -> None:
    """An untimed line is never refused for its time (issue 25): another device's clock a
    little ahead of this one's gives the last event's time, and the order holds."""
    soon = datetime.now(UTC) + timedelta(seconds=4)
    started(db, "--at", soon.isoformat())
    recorded = run(db, "opening", "m", "6", "1")
    assert recorded.exit_code == 0, recorded.output
    assert show(db)["events"] == 3  # the game's start and its opening roll
    history = json.loads(run(db, "history", "m", "--json").stdout)["events"]
    assert datetime.fromisoformat(history[-1]["at"]) == soon


def test_minutes_ahead_of_this_machines_clock_is_refused(db: str) -> None:
    """Five minutes ahead was accepted, and froze the match's untimed lines (issue 25)."""
    soon = (datetime.now(UTC) + timedelta(minutes=4, seconds=50)).isoformat()
    refused = run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--at", soon)
    assert refused.exit_code == 2 and "is in the future" in refused.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("verify", "--pub", "\x00"),
        ("verify", "--seal", "a\x00b"),
        ("seal", "m", "--key", "\x00"),
        ("keygen", "--out", "\x00"),
        ("import", "\x00"),
        ("export", "m", "--format", "mat", "-o", "\x00"),
    ],
)
def test_a_file_name_with_a_nul_byte_is_a_usage_error(db: str, args: tuple[str, ...]) -> None:
    """The fuzz test found ``verify --pub $'\\0'`` ending in a ValueError traceback."""
    started(db)
    result = run(db, *args)
    assert result.exit_code == 2 and "NUL byte" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_roll_takes_the_dice_as_a_scorekeeper_says_them(db: str) -> None:
    started(db)
    run(db, "opening", "m", "3", "1")
    run(db, "move", "m", "8/5 6/5")
    assert run(db, "roll", "m", "64").exit_code == 0
    assert show(db)["dice"] == [6, 4]
    for wrong, says in (
        ("6", "write 'roll D D' (2 words after roll, 1 given)"),
        ("70", "7"),
        ("123", "write 'roll D D' (2 words after roll, 1 given)"),
    ):
        refused = run(db, "roll", "m", wrong)
        assert refused.exit_code == 2 and says in refused.stderr, refused.stderr
    assert show(db)["events"] == 5  # start, game, opening, move, the 6-4: nothing more


def test_an_unknown_match_names_the_ids_it_looks_like(db: str) -> None:
    started(db)
    run(db, "start", "--a", "Cy", "--b", "Di", "--length", "3", "--id", "final")
    typo = run(db, "show", "fianl")
    assert typo.exit_code == 2 and "did you mean 'final'?" in typo.stderr
    nothing = run(db, "show", "zzzzzz")
    assert nothing.exit_code == 2 and "did you mean" not in nothing.stderr
