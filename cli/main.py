"""The ``bgledger`` command group.

A one-shot command pays for every module it imports before it reads an
event, so the group loads a subcommand's module only when that subcommand
runs (or is asked for through :attr:`main.commands`).  The commands are of
two kinds:

- each verb of the vocabulary (:data:`bgledger.commands.vocabulary.VOCABULARY`:
  ``roll``, ``double``, ``revert``, ``clock start`` ...) is a command made from
  its class by :mod:`bgledger.cli.verbs` (a two-word verb in its first word's
  group), listed by :func:`verb_commands` with its summary: a verb added to
  the vocabulary is a command at once, with nothing to add here;
- the others (``start``, ``show``, ``export`` ...) are mapped in
  :data:`COMMANDS`, each name to the ``module:attribute`` that defines it,
  with its short help, so that ``bgledger --help`` lists every command
  without importing any of them.  ``tests/test_cli_main.py`` checks the map
  against the commands the modules define (``bench/bench_startup.py``
  measures what it saves).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Iterator, MutableMapping
from typing import NamedTuple

import click


class Lazy(NamedTuple):
    """Where a command lives (``module:attribute`` in :mod:`bgledger.cli`) and its short help.

    ``help`` is the command's own short help (its docstring's first sentence),
    so that ``--help`` lists it without importing the module.
    """

    target: str
    help: str


COMMANDS: dict[str, Lazy] = {
    "start": Lazy(
        "ledger_commands:start",
        help="Start a match between players a and b; prints its id.",
    ),
    "verify": Lazy(
        "integrity_commands:verify",
        help="Check MATCH (every match without one) against its events; exit 1 on any mismatch.",
    ),
    "seal": Lazy(
        "integrity_commands:seal",
        help="Write a signed digest of MATCH as it stands: its event count, chain head and result.",
    ),
    "keygen": Lazy(
        "integrity_commands:keygen_command",
        help="Make a director's Ed25519 key pair for seals: FILE (private, PEM) and FILE.pub.",
    ),
    "record": Lazy(
        "record:record",
        help="Record a match one action a line, from stdin or the terminal.",
    ),
    "import": Lazy(
        "interchange_commands:import_command",
        help="Import .mat transcriptions: each match becomes a match in the ledger.",
    ),
    "export": Lazy(
        "interchange_commands:export",
        help="Export a match: as a .mat file, as JSON, as gnubg's SGF, or as its score sheet.",
    ),
    "show": Lazy(
        "view_commands:show",
        help="The board, score, cube, turn and Crawford status (as recorded after event N).",
    ),
    "history": Lazy(
        "view_commands:history",
        help="Every event of the match: number, time, recorder and what happened.",
    ),
    "replay": Lazy(
        "replay_commands:replay",
        help="Step through a match event by event, as recorded or as corrected (USBGF 5.3).",
    ),
    "list": Lazy(
        "readmodel_commands:list_matches",
        help="Every match in the ledger (of one event with --event), in the order they were "
        "started.",
    ),
    "rulings": Lazy(
        "readmodel_commands:rulings",
        help="Every ruling in every match (of one event with --event): the director's report.",
    ),
    "standings": Lazy(
        "readmodel_commands:standings",
        help="Per event and player: matches played, won, lost, in progress, points for and "
        "against.",
    ),
    "rebuild": Lazy(
        "readmodel_commands:rebuild",
        help="Recompute every read model (match index, rulings, standings) from the events.",
    ),
    "serve": Lazy(
        "web_commands:serve",
        help="Serve the match pages and the JSON API (private until published; writes: a `token`).",
    ),
    "token": Lazy(
        "web_commands:token",
        help="Print a bearer token for `serve` that may record in MATCH (or an event's matches).",
    ),
    "publish": Lazy(
        "publish_commands:publish",
        help="Open the wall of event E to spectators, or close it again with --off.",
    ),
    "legal": Lazy(
        "rules_commands:legal",
        help="Legal plays for a gnubg POSITION id and two DICE (the player on roll moves).",
    ),
    "judge": Lazy(
        "rules_commands:judge_command",
        help="Judge PLAY of DIE1 DIE2 in a gnubg POSITION id: legal, or illegal and why.",
    ),
}
"""Each command's name and where it lives, with the short help ``--help`` lists."""


def load_command(target: str) -> click.Command:
    """The click command at ``target`` (``module:attribute`` in :mod:`bgledger.cli`)."""
    module, _, attribute = target.partition(":")
    command = getattr(importlib.import_module(f"bgledger.cli.{module}"), attribute)
    if _Leaving.collect_after_imports:  # run() paused the cycle collector while importing
        _Leaving.collect_after_imports = False
        gc.freeze()  # what the imports made lives until exit: never collect through it
        gc.enable()
    if not isinstance(command, click.Command):
        raise TypeError(f"bgledger.cli.{target} is not a click command")
    return command


def verb_commands() -> dict[str, str]:
    """The command of each verb of the vocabulary as it is now, with its short help: the verb's
    summary, or a two-word verb's group (``clock``: ``clock start | clock stop ...``)."""
    from bgledger.commands.vocabulary import verbs

    singles: dict[str, str] = {}
    groups: dict[str, list[str]] = {}
    for verb, kind in verbs().items():
        name, _, sub = verb.partition(" ")
        if sub:
            groups.setdefault(name, []).append(verb)
        else:
            singles[name] = kind.summary[:1].upper() + kind.summary[1:]
    return {**singles, **{name: " | ".join(verbs) for name, verbs in groups.items()}}


def verb_table_source() -> str:
    """The text of :mod:`bgledger.cli.verb_table` for the vocabulary as it is now."""
    rows = "".join(
        f"    _verb({name!r}, help={said!r}),\n" for name, said in sorted(verb_commands().items())
    )
    return _VERB_TABLE.format(rows=rows)


_VERB_TABLE = '''"""Each verb's command and its short help, as ``bgledger --help`` lists them.

Generated from :func:`bgledger.cli.main.verb_commands` (the vocabulary's verbs
and summaries) by ``python -m bgledger.cli.verb_table > t.py && mv t.py cli/verb_table.py``
(through a second file: the shell empties the file it writes to before Python reads it),
to be run after a verb is added or its summary changed: ``tests/test_cli_main.py``
fails until it is.  Importing the vocabulary costs a one-shot ``--help`` about
five times bare Python's start-up (issue 34); this table costs nothing.  A verb
missing here still runs (the group asks the vocabulary for a name it does not
know); only ``--help`` would not list it.
"""

# ruff: noqa: E501


def _verb(name: str, *, help: str) -> tuple[str, str]:
    return name, help


VERBS: dict[str, str] = dict(
    (
{rows}    )
)
"""Each verb's command name and its short help (:func:`bgledger.cli.main.verb_commands`)."""


if __name__ == "__main__":  # pragma: no cover - run by hand, above
    from bgledger.cli.main import verb_table_source

    print(verb_table_source(), end="")
'''


class LazyCommands(MutableMapping[str, click.Command]):
    """The group's commands by name: :data:`COMMANDS`'s, each module imported on first
    access, then (``with_verbs``) the vocabulary's verbs, each made when asked for."""

    def __init__(self, entries: dict[str, Lazy], *, with_verbs: bool = False) -> None:
        self._targets = {name: entry.target for name, entry in entries.items()}
        self._loaded: dict[str, click.Command] = {}
        self._with_verbs = with_verbs

    def verbs(self) -> dict[str, str]:
        """The verbs' commands and their short help (none unless ``with_verbs``), from the
        generated :data:`bgledger.cli.verb_table.VERBS`, which costs no import of the vocabulary."""
        if not self._with_verbs:
            return {}
        from bgledger.cli.verb_table import VERBS

        return VERBS

    def loaded(self, name: str) -> click.Command | None:
        """The command ``name`` if its module is loaded already, else None."""
        return self._loaded.get(name)

    def __getitem__(self, name: str) -> click.Command:
        if name in self._loaded:
            return self._loaded[name]
        if name in self._targets:
            self._loaded[name] = load_command(self._targets[name])
            return self._loaded[name]
        if self._with_verbs:  # made anew: the vocabulary as it is now, whatever the table says
            from bgledger.cli.verbs import command_for

            command = command_for(name)
            if command is not None:
                return command
        raise KeyError(name)

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._targets.pop(name, None)
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self._targets and name not in self._loaded:
            raise KeyError(name)
        self._targets.pop(name, None)
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter({**self._targets, **self.verbs(), **self._loaded})

    def __len__(self) -> int:
        return len({**self._targets, **self.verbs(), **self._loaded})


class LazyGroup(click.Group):
    """A click group whose commands are loaded when they run; ``--help`` reads :data:`COMMANDS`
    and the vocabulary's summaries."""

    commands: LazyCommands

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; an error's message is printed with its control and format
        characters escaped (a file name holding ``ESC [2J`` names the file, never clears the
        screen), whoever raised it: the command, or click about an argument."""
        try:
            return super().invoke(ctx)
        except click.ClickException as error:
            from bgledger.projections.views.text import escaped

            # click types ``message`` Final; it is set once, before anything shows it
            setattr(error, "message", escaped(error.message, keep="\n"))  # noqa: B010
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The ``Commands:`` section, as click writes it, from the map's short help."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        verbs = self.commands.verbs()
        rows = []
        for name in names:
            command = self.commands.loaded(name)
            if command is None:
                said = COMMANDS[name].help if name in COMMANDS else verbs[name]
                command = click.Command(name, help=said)
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def default_url() -> str:
    """``BGLEDGER_DB``, else the front door's default (read only when a command needs it)."""
    if "BGLEDGER_DB" in os.environ:
        return os.environ["BGLEDGER_DB"]
    from bgledger.service import DEFAULT_URL

    return DEFAULT_URL


@click.group(
    cls=LazyGroup,
    commands=LazyCommands(COMMANDS, with_verbs=True),
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "--db",
    metavar="URL",
    default=default_url,
    show_default="BGLEDGER_DB, else sqlite:///bgledger.db",
    help="SQLAlchemy URL of the ledger database.",
)
@click.version_option(package_name="bgledger")
@click.pass_context
def main(ctx: click.Context, db: str) -> None:
    """bgledger: the event-sourced match record and audit ledger for tournament backgammon."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db


class _Leaving:
    """How :func:`run` leaves: its exit status (1 unless the command raised ``SystemExit``).

    ``collect_after_imports``: :func:`run` paused Python's cycle collector for
    the imports, and :func:`load_command` turns it back on once the command's
    module is loaded.
    """

    status = 1
    collect_after_imports = False


def _leave() -> None:
    """Flush the output and leave with :attr:`_Leaving.status`, skipping the interpreter's teardown.

    Registered first, so it runs after every exit handler registered later.
    """
    for stream in (sys.stdout, sys.stderr):
        # A closed pipe (``| head``) or stream: nothing more can be said.
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(_Leaving.status)


def run() -> None:
    """The ``bgledger`` console script: :func:`main`, then exit without tearing Python down.

    Freeing every module and object of SQLAlchemy, eventsourcing and bgledger
    one by one at exit costs a one-shot command about as much CPU as starting
    Python (``bench/bench_startup.py``) and does nothing for the ledger: the
    command has closed its database connections (a SQLite file is
    checkpointed) and written its output, which is flushed here.  The exit
    handlers registered while the command ran still run (``atexit`` runs
    them in reverse order, and this one was registered first); only the
    teardown after them is skipped.  Tests and other callers use :func:`main`,
    which exits as usual.

    The cycle collector is paused while the command's modules are imported:
    importing creates thousands of long-lived objects and no garbage, and
    collecting through them costs about half of bare Python's start-up.  It
    runs again before the command does.

    The methods of the dataclasses the command makes are compiled once for
    every run, as its modules are (:mod:`bgledger.cli.classcode`).
    """
    atexit.register(_leave)
    from bgledger.cli.classcode import ClassCode, default_path

    class_code = ClassCode(default_path())
    if class_code.install():
        atexit.register(class_code.save)  # before _leave: atexit runs the last registered first
    if gc.isenabled():
        gc.disable()
        _Leaving.collect_after_imports = True
    try:
        main(prog_name="bgledger")
    except SystemExit as done:
        code = done.code
        _Leaving.status = code if isinstance(code, int) else (0 if code is None else 1)
        raise
    _Leaving.status = 0


if __name__ == "__main__":
    run()
