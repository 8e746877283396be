"""The command group loads a subcommand's module only when it runs; the map stays true.

``cli/main.py`` maps each command name but the vocabulary's verbs to the
``module:attribute`` that defines it, with the short help ``bgledger --help``
lists, so that a one-shot command imports only what it needs
(``bench/bench_startup.py``).  A command added to a module but not to the map,
a map entry pointing at the wrong command, or short help that drifted from the
command's own would show here.  The verbs' commands are made from the
vocabulary (``tests/test_cli_vocabulary.py``).
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

import bgledger.cli
from bgledger.cli.main import COMMANDS, LazyCommands, load_command, main, verb_commands


def defined_commands() -> dict[str, click.Command]:
    """Every click command the CLI's modules define, by name, but a group's subcommands."""
    every: list[click.Command] = []
    for info in pkgutil.iter_modules(bgledger.cli.__path__):
        if info.name != "main":
            module = importlib.import_module(f"bgledger.cli.{info.name}")
            every.extend(
                value for value in vars(module).values() if isinstance(value, click.Command)
            )
    nested = {
        id(sub)
        for group in every
        if isinstance(group, click.Group)
        for sub in group.commands.values()
    }
    return {command.name or "": command for command in every if id(command) not in nested}


def test_the_map_names_every_command_the_modules_define() -> None:
    # ``start`` is also the name of ``clock start`` and ``break start``, members of groups.
    defined = defined_commands()
    assert set(COMMANDS) == set(defined)
    for name, (target, _) in COMMANDS.items():
        assert load_command(target) is defined[name]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_entry_loads_its_command_with_the_same_short_help(name: str) -> None:
    target, short_help = COMMANDS[name]
    command = load_command(target)
    assert command.name == name
    assert command.get_short_help_str(limit=10**6) == short_help


def test_the_group_answers_every_command_through_its_mapping() -> None:
    assert sorted(main.commands) == sorted({*COMMANDS, *verb_commands()})
    assert main.get_command(click.Context(main), "roll") is not None
    assert main.get_command(click.Context(main), "show") is load_command("view_commands:show")
    assert "verify" in main.commands and "no-such-command" not in main.commands


def test_lazy_commands_take_an_added_command() -> None:
    commands = LazyCommands(COMMANDS)
    extra = click.Command("extra", help="An extra command.")
    commands["extra"] = extra
    assert commands["extra"] is extra and len(commands) == len(COMMANDS) + 1
    del commands["extra"]
    assert "extra" not in commands


def test_help_lists_every_command_with_its_short_help() -> None:
    out = CliRunner().invoke(main, ["--help"]).output
    listed = out.split("Commands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == sorted({*COMMANDS, *verb_commands()})
    assert "Start a match between players a and b; prints its id." in out


def loaded_modules(*args: str) -> set[str]:
    """The modules loaded by ``bgledger ARGS`` (its output discarded), in a fresh interpreter."""
    script = (
        "import sys\n"
        "from bgledger.cli.main import main\n"
        f"try:\n    main({list(args)!r})\n"
        "except SystemExit:\n    pass\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return set(done.stderr.split())


def test_help_loads_no_command_and_not_the_store() -> None:
    loaded = loaded_modules("--help")
    cli = {name for name in loaded if name.startswith("bgledger.cli.")}
    assert not cli - {"bgledger.cli.main", "bgledger.cli.verb_table"}
    assert "bgledger.service" not in loaded and "sqlalchemy" not in loaded
    # the verbs' summaries come from the generated table, not the vocabulary (issue 34)
    assert "bgledger.commands.vocabulary" not in loaded and "bgledger.events" not in loaded


def test_the_verb_table_help_lists_is_the_vocabularys() -> None:
    from bgledger.cli.verb_table import VERBS

    assert verb_commands() == VERBS, (
        "cli/verb_table.py is not the vocabulary's: run "
        "python -m bgledger.cli.verb_table > t.py && mv t.py cli/verb_table.py && "
        "ruff format cli/verb_table.py"
    )


def test_a_verb_the_table_lacks_still_runs() -> None:
    commands = LazyCommands(COMMANDS, with_verbs=True)
    assert "roll" in commands and "no-such-verb" not in commands
    from bgledger.cli import verb_table

    kept = verb_table.VERBS.pop("roll")
    try:  # a verb added to the vocabulary, the table not regenerated yet
        assert commands["roll"].name == "roll" and "roll" not in list(commands)
    finally:
        verb_table.VERBS["roll"] = kept


def test_a_verb_loads_its_maker_not_the_other_commands() -> None:
    loaded = loaded_modules("--db", "sqlite:///:memory:", "roll", "nothing", "6", "4")
    assert "bgledger.cli.verbs" in loaded
    assert "bgledger.cli.view_commands" not in loaded
    assert "bgledger.cli.interchange_commands" not in loaded


def test_show_loads_neither_seals_nor_read_models_nor_interchange() -> None:
    loaded = loaded_modules("--db", "sqlite:///:memory:", "show", "nothing")
    assert "bgledger.cli.view_commands" in loaded
    assert "bgledger.cli.verbs" not in loaded
    for heavy in (
        "bgledger.store.seal",
        "bgledger.store.integrity",
        "bgledger.projections.readmodels.tracking",
        "bgledger.interchange.files",
        "bgledger.projections.views.scoresheet",
        "hypothesis",
    ):
        assert heavy not in loaded, heavy


def test_service_still_exports_the_types_it_loads_on_use() -> None:
    import bgledger.service as service

    for name in ("ImportRefusedError", "InvalidSealError", "RebuildReport", "Seal", "Verdict"):
        assert name in service.__all__
        assert getattr(service, name).__name__ == name
    with pytest.raises(AttributeError):
        _ = service.NoSuchThing
