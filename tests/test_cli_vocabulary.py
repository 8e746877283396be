"""Every verb's command line, console help and reference section are made from its class.

The vocabulary (:data:`bgledger.commands.vocabulary.VOCABULARY`) is the one
table of verbs: ``bgledger VERB`` (:mod:`bgledger.cli.verbs`), the console's
``help`` and ``docs/commands.md`` (:mod:`bgledger.cli.reference`) are made
from it.  A toy verb added in that one place is found in all three, and runs.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from bgledger.cli.console import help_entries, help_table
from bgledger.cli.main import main
from bgledger.cli.reference import reference
from bgledger.cli.verbs import cli_example, command_for, line_from
from bgledger.commands import vocabulary
from bgledger.commands.language import InvalidActionError
from bgledger.commands.match import Match
from bgledger.commands.vocabulary import VOCABULARY, Command, Option, Words, parse, verbs
from bgledger.events import MatchEvent
from bgledger.rules.errors import RulesError


@dataclass(frozen=True, slots=True)
class Juggle(Command):
    """A toy verb: a remark that the scorekeeper juggled (recorded as an existing event)."""

    verb = "juggle"
    usage = "juggle WHAT [--loudly]"
    example = "juggle three balls"
    summary = "the scorekeeper juggled WHAT at the table (TOY 1.2)"
    options = (Option("--loudly", "He juggled loudly."),)

    what: str
    loudly: bool = False

    def words(self) -> str:
        return f"juggle {self.what}" + " --loudly" * self.loudly

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        said = f"juggled {self.what}" + (", loudly" if self.loudly else "")
        return match.remark(said, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        loudly = words.flag("--loudly")
        if not words.rest:
            raise InvalidActionError(f"{words.line!r}: juggle what? {cls.usage!r}")
        return cls(" ".join(words.rest), loudly)


@dataclass(frozen=True, slots=True)
class ClockJuggle(Juggle):
    """A toy two-word verb: in the ``clock`` group."""

    verb = "clock juggle"
    usage = "clock juggle WHAT [--loudly]"
    example = "clock juggle two clocks"
    summary = "the scorekeeper juggled the clocks (TOY 1.3)"

    def words(self) -> str:
        return f"clock {Juggle.words(self)}"


@pytest.fixture
def toys(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy verbs registered as a real verb is: in the vocabulary's table, and only there."""
    monkeypatch.setattr(vocabulary, "VOCABULARY", (*VOCABULARY, Juggle, ClockJuggle))
    yield


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'toy.db'}"


def run(db: str, *args: str, stdin: str | None = None) -> click.testing.Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def test_a_toy_verb_added_to_the_table_is_a_command_that_records(toys: None, db: str) -> None:
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m").exit_code == 0
    done = run(db, "juggle", "m", "three balls", "--loudly", "--by", "kim")
    assert done.exit_code == 0, done.output
    assert "juggled three balls, loudly" in done.stdout
    assert run(db, "clock", "m", "juggle", "two", "clocks").exit_code == 0
    assert run(db, "record", "m", stdin="juggle one ball\n").exit_code == 0
    history = run(db, "history", "m").stdout
    for said in ("juggled three balls, loudly", "juggled two clocks", "juggled one ball"):
        assert said in history
    refused = run(db, "juggle", "m")  # the usage's WHAT is required
    assert refused.exit_code == 2 and "Missing argument 'WHAT'" in refused.stderr
    refused = run(db, "juggle", "m", "--loudly", " ")  # the class's reader refuses a blank
    assert refused.exit_code == 2 and "juggle what?" in refused.stderr


def test_a_toy_verb_has_its_help_on_the_command_line(
    toys: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``bgledger --help`` lists the verbs from a table generated from the vocabulary (issue 34:
    # it starts without importing it); generated again here, as a developer does after adding
    # a verb (tests/test_cli_main.py fails until he has)
    from bgledger.cli import verb_table
    from bgledger.cli.main import verb_commands

    monkeypatch.setattr(verb_table, "VERBS", verb_commands())
    listed = CliRunner().invoke(main, ["--help"]).stdout
    assert "  juggle " in listed and "The scorekeeper juggled WHAT" in listed
    assert "clock juggle WHAT" in CliRunner().invoke(main, ["clock", "--help"]).stdout
    shown = CliRunner().invoke(main, ["juggle", "--help"], terminal_width=200).stdout
    for said in (
        "juggle [OPTIONS] MATCH WHAT",
        "The scorekeeper juggled WHAT at the table (TOY 1.2).",
        "juggle WHAT [--loudly]",
        "bgledger juggle MATCH three balls",
        "--loudly",
        "He juggled loudly.",
    ):
        assert said in shown
    grouped = CliRunner().invoke(main, ["clock", "m", "juggle", "--help"]).stdout
    assert "the clocks (TOY 1.3)" in grouped


def test_a_toy_verb_is_in_the_consoles_help_and_the_reference(toys: None) -> None:
    assert (Juggle.usage, Juggle.summary, Juggle.example) in help_entries()
    assert "  juggle WHAT [--loudly]" in help_table(help_entries())
    assert "juggle WHAT [--loudly]" in CliRunner().invoke(main, ["record", "--help"]).stdout
    written = reference()
    assert "## `juggle`" in written and "## `clock juggle`" in written
    assert "TOY 1.2" in written and "`bgledger juggle MATCH three balls`" in written


def test_without_the_toy_there_is_none() -> None:
    assert "juggle" not in verbs() and command_for("juggle") is None
    assert "juggle" not in CliRunner().invoke(main, ["--help"]).stdout
    assert all(entry[0] != Juggle.usage for entry in help_entries())


@pytest.mark.parametrize("kind", list(verbs().values()), ids=lambda kind: kind.verb)
def test_each_verbs_command_line_example_records_its_example_line(kind: type[Command]) -> None:
    """``bgledger VERB MATCH ...`` as its help shows it says what the example line says."""
    words = shlex.split(cli_example(kind))[1:]  # without 'bgledger'
    first, _, sub = kind.verb.partition(" ")
    assert words[:1] == [first] and "MATCH" in words
    args = [word for word in words[1:] if word != "MATCH"]
    if sub:
        assert args[0] == sub
        args = args[1:]
    command = command_for(first)
    assert command is not None
    if sub:
        assert isinstance(command, click.Group)
        command = command.commands[sub]
    else:
        args = ["MATCH", *args]
    ctx = command.make_context(kind.verb, args)
    assert parse(line_from(kind, ctx.params)) == parse(kind.example)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["roll", "64", "--premature"], "roll 6 4 --premature"),
        (["move", "13/8 13/11", "--as-played"], "move 13/8 13/11 --as-played"),
        (["resign", "gammon", "--player", "b"], "resign gammon b"),
        (["double", "--to", "4"], "double --to 4"),
        (["penalty", "a", "1", "--rule", "USBGF 2.2.4", "--reason", "Bob's lunch"],
         "penalty a 1 'USBGF 2.2.4' Bob's lunch"),
        (["note", "Bob asked", "--ruled-by", "director", "--agreed"],
         "note --ruled-by director --agreed --reason Bob asked"),
        (["correct-score", "2", "1", "--reason", "both agree"],
         "correct-score 2-1 --reason both agree"),
        (["amend", "12", "roll 6 4", "--reason", "typed 6-3"],
         "amend 12 roll 6 4 --reason typed 6-3"),
        (["clock", "start", "bronstein", "--reserve", "9:00", "--doubles"],
         "clock start bronstein reserve 9:00 doubles"),
        (["clock", "set", "a=9:00", "b=8:30", "--rule", "USBGF 4.3.4", "--reason", "Bob's"],
         "clock set a=9:00 b=8:30 rule 'USBGF 4.3.4' \"Bob's\""),
        (["break", "start", "a", "--combine", "2"], "break start a combine 2"),
        (["flag", "b", "--nominal", "2:00"], "flag b nominal 2:00"),
    ],
)  # fmt: skip
def test_options_are_said_in_the_line_as_the_class_says(args: list[str], line: str) -> None:
    kind = verbs()[" ".join(args[:2])] if args[0] in ("clock", "break") else verbs()[args[0]]
    command = command_for(args[0])
    assert command is not None
    rest = args[1:]
    if isinstance(command, click.Group):
        command, rest = command.commands[args[1]], args[2:]
    else:
        rest = ["m", *rest]
    said = line_from(kind, command.make_context(args[0], rest).params)
    assert parse(said) == parse(line)


def test_no_verb_shadows_another_command() -> None:
    from bgledger.cli.main import COMMANDS

    assert not {verb.partition(" ")[0] for verb in verbs()} & set(COMMANDS)


def test_a_hash_standing_alone_in_a_note_is_refused_not_cut(db: str) -> None:
    """``bgledger note M table # 4``: a line would read ``# 4`` as a comment and record
    'table'; the command line refuses it, saying why, and records nothing."""
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m").exit_code == 0
    refused = run(db, "note", "m", "table", "#", "4", "moved")
    assert refused.exit_code == 2
    assert "'#' standing alone starts a comment" in refused.stderr
    assert "note" not in run(db, "history", "m").stdout.split("match started", 1)[1]
    kept = run(db, "note", "m", "table", "#4", "moved")
    assert kept.exit_code == 0, kept.stderr
    assert "table #4 moved" in run(db, "history", "m").stdout


@pytest.mark.parametrize(
    "line", ["clock start doubles", "resign 0 0", "resign plain"], ids=lambda line: line
)
def test_a_line_with_no_mode_or_no_result_is_refused_quoting_it(line: str) -> None:
    """Found by the command line's fuzzing: 'clock start doubles' raised IndexError, and a
    resignation's level was refused only once run, naming a word but not the line."""
    with pytest.raises(RulesError) as refused:  # InvalidActionError, InvalidResultError
        parse(line)
    assert repr(line) in str(refused.value)


@pytest.mark.parametrize("kind", [vocabulary.Setup, vocabulary.Opening, vocabulary.Note])
def test_an_example_for_a_new_game_records_on_a_new_match(kind: type[Command]) -> None:
    """What a verb's help shows for the start of a game is accepted there (a setup's example
    once gave the standard position itself, which a setup refuses)."""
    from bgledger.commands.match import match_uuid

    match = Match.start(match_uuid("m"), "m", ("Ann", "Bob"), 5, by="kim")
    match.collect_events()  # the start, taken out: what follows is the example's
    parse(kind.example).run(match, "kim")
    recorded = {type(event) for event in match.collect_events()}
    assert recorded & set(kind.recorded), (kind.example, recorded)
