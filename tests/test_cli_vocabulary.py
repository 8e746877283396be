"""Every command of the vocabulary has a one-shot on the command line and a line in help.

The vocabulary (:data:`bgledger.commands.vocabulary.VOCABULARY`) is the one table
of verbs.  The console's ``help`` and ``record --help`` are made from it; the
click commands are written by hand (each keeps its richer help), so this test
is what notices a verb added to the table without its command.  Two commands
have no verb of their own on the command line, named here, not skipped: the
``52: 13/8 13/11`` shorthand is ``roll`` then ``move``, and a ruling noted is
``note --ruled-by``.
"""

from __future__ import annotations

from dataclasses import dataclass

import click
import pytest
from click.testing import CliRunner

from bgledger.cli.console import help_entries
from bgledger.cli.main import main
from bgledger.commands.vocabulary import VOCABULARY, Command, RollMove, RulingNote

ON_THE_COMMAND_LINE: dict[type[Command], tuple[tuple[str, str | None], ...]] = {
    RollMove: (("roll", None), ("move", None)),
    RulingNote: (("note", "--ruled-by"),),
}
"""The commands a one-shot spells otherwise: (command, the option that makes it this one)."""


def one_shot(path: str) -> click.Command | None:
    """The click command ``bgledger PATH ...`` runs (``clock start``: the group's ``start``)."""
    ctx = click.Context(main)
    command: click.Command | None = main
    for word in path.split():
        if not isinstance(command, click.Group):
            return None
        command = command.get_command(ctx, word)
    return command


def missing(kind: type[Command]) -> list[str]:
    """What the command line lacks for ``kind``: '' for nothing."""
    lacking = []
    for path, option in ON_THE_COMMAND_LINE.get(kind, ((kind.verb, None),)):
        command = one_shot(path)
        if command is None:
            lacking.append(f"bgledger {path}")
        elif option is not None and not any(option in p.opts for p in command.params):
            lacking.append(f"bgledger {path} {option}")
    return lacking


@pytest.mark.parametrize("kind", VOCABULARY, ids=lambda kind: kind.__name__)
def test_every_command_of_the_vocabulary_has_a_one_shot(kind: type[Command]) -> None:
    assert missing(kind) == []


@pytest.mark.parametrize("kind", VOCABULARY, ids=lambda kind: kind.__name__)
def test_every_command_of_the_vocabulary_is_in_the_consoles_help(kind: type[Command]) -> None:
    assert (kind.usage, kind.summary, kind.example) in help_entries()


def test_a_command_without_a_one_shot_is_noticed() -> None:
    @dataclass(frozen=True, slots=True)
    class Juggle(Command):
        verb = "juggle"

    @dataclass(frozen=True, slots=True)
    class ClockJuggle(Command):
        verb = "clock juggle"

    assert missing(Juggle) == ["bgledger juggle"]
    assert missing(ClockJuggle) == ["bgledger clock juggle"]
    assert (Juggle.usage, Juggle.summary, "juggle") not in help_entries()


def test_the_list_of_bgledger_help_names_the_recording_commands() -> None:
    listed = CliRunner().invoke(main, ["--help"]).stdout
    for kind in VOCABULARY:
        if kind not in ON_THE_COMMAND_LINE:
            assert f"  {kind.verb.split()[0]} " in listed, kind.verb
