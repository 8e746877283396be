"""The command line over the rules engine: ``legal`` and ``judge``."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from bgledger.cli.main import main

START = "4HPwATDgc/ABMA"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def every_command(group: click.Group) -> list[str]:
    return sorted(group.commands)


@pytest.mark.parametrize("name", every_command(main))
def test_every_command_has_help(name: str) -> None:
    code, out, _ = run(name, "--help")
    assert code == 0
    assert "Usage: " in out and len(main.commands[name].help or "") > 20


def test_legal_json_lists_one_entry_per_resulting_position() -> None:
    code, out, _ = run("legal", START, "3", "1", "--json")
    assert code == 0
    document = json.loads(out)
    assert document["position"] == START and document["dice"] == [3, 1]
    plays = document["plays"]
    assert len(plays) == len({p["result"] for p in plays}) == 16  # gnubg counts 16 for 31
    assert {
        "play": "8/5 6/5",
        "result": plays[[p["play"] for p in plays].index("8/5 6/5")]["result"],
    } in plays


def test_legal_text_shows_each_play() -> None:
    code, out, _ = run("legal", START, "6", "5")
    assert code == 0
    assert out.splitlines()[0] == f"{START} 65: 7 legal play(s)"
    assert any(line.split()[0] == "24/13" for line in out.splitlines()[1:])


def test_legal_reads_positions_from_stdin() -> None:
    code, out, err = run("legal", "-", stdin=f"{START} 3 1\n\n{START} 6 6\n")
    assert code == 0 and err == ""
    lines = [json.loads(line) for line in out.splitlines()]
    assert [d["dice"] for d in lines] == [[3, 1], [6, 6]]


def test_legal_stdin_reports_bad_lines_and_goes_on() -> None:
    code, out, err = run("legal", "-", stdin=f"nonsense 3 1\n{START} 3 9\n{START} 2 1\n")
    assert code == 2
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["line"] == 1 and "'nonsense'" in lines[0]["error"]
    assert lines[1]["line"] == 2 and "9" in lines[1]["error"]
    assert lines[2]["dice"] == [2, 1]
    assert "stdin, line 1" in err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("legal", "not-an-id", "3", "1"), "'not-an-id'"),
        (("legal", START, "3", "7"), "7"),
        (("legal", START, "3"), "two dice"),
        (("judge", START, "3", "1", "13-8"), "'13-8'"),
        (("judge", START, "3", "1", "12/9"), "no checker on point 12"),
        (("judge", START, "0", "1", "8/7"), "0"),
    ],
)
def test_bad_input_is_a_usage_error(args: tuple[str, ...], needle: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert needle in err


def test_judge_legal_and_illegal() -> None:
    assert run("judge", START, "3", "1", "6/5 8/5") == (0, "legal: 8/5 6/5\n", "")
    code, out, _ = run("judge", START, "5", "2", "13/8")
    assert code == 1
    assert out.startswith("illegal: does not use both dice: ")
    assert out.rstrip().endswith("(USBGF 4.2.3(a))")


def test_judge_json() -> None:
    code, out, _ = run("judge", START, "5", "2", "24/19 13/11", "--json")
    assert code == 1
    document = json.loads(out)
    assert document["legal"] is False
    assert document["reason"] == "24/19 lands on 19, held by the opponent"
    assert document["rule"] == "USBGF 4.2.3(a)"
    assert document["impossible"] == ["point 19 holds checkers of both sides"]
