"""The ``bgledger`` command group.

A one-shot command pays for every module it imports before it reads an
event, so the group loads a subcommand's module only when that subcommand
runs (or is asked for through :attr:`main.commands`): :data:`COMMANDS` maps
each name to the ``module:attribute`` that defines it, with its short help,
so that ``bgledger --help`` lists every command without importing any of
them.  ``tests/test_cli_main.py`` checks the map against the commands the
modules define (``bench/bench_startup.py`` measures what it saves).
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
    "opening": Lazy(
        "ledger_commands:opening",
        help="The opening roll: a's die, then b's die (a tie is recorded; roll again).",
    ),
    "roll": Lazy(
        "ledger_commands:roll",
        help="The player on roll rolled D D, or DD (64 is 6-4); an unplayable roll is a dance.",
    ),
    "move": Lazy(
        "ledger_commands:move",
        help="The player on roll moved PLAY ('13/8 13/11', 'bar/20*', '6/off'); illegal: refused.",
    ),
    "void-roll": Lazy(
        "ledger_commands:void_roll",
        help="The last roll was invalid (REASON: cocked, wrong-side, die-on-die ...): roll again.",
    ),
    "double": Lazy(
        "ledger_commands:double",
        help="The player on roll doubles, before rolling (USBGF 4.4.2).",
    ),
    "take": Lazy("ledger_commands:take", help="The doubled player takes: he owns the cube."),
    "beaver": Lazy(
        "ledger_commands:beaver",
        help="The doubled player took and at once redoubled, keeping the cube: not played in "
        "tournaments (USBGF 4.4.10); --as-played records it, flagged, for 'void-cube'.",
    ),
    "automatic-double": Lazy(
        "ledger_commands:automatic_double",
        help="The opening roll tied and the cube was turned, staying in the middle: not played "
        "in tournaments (USBGF 4.4.10); --as-played records it, flagged, for 'void-cube'.",
    ),
    "drop": Lazy("ledger_commands:drop", help="The doubled player passes: the game is lost."),
    "resign": Lazy(
        "ledger_commands:resign",
        help="A player offers to concede a single game, gammon or backgammon (USBGF 4.5).",
    ),
    "accept": Lazy("ledger_commands:accept", help="The concession offered is accepted."),
    "play-singles": Lazy(
        "ledger_commands:play_singles",
        help="Both players agree that the winner of the opening roll plays the two single dice "
        "instead of throwing again with two dice (CLASSIC 4; the classic profile only).",
    ),
    "reject": Lazy(
        "ledger_commands:reject",
        help="The concession offered is refused; play goes on.",
    ),
    "accept-roll": Lazy(
        "ledger_commands:accept_roll",
        help="The mover lets his opponent's premature roll stand and moves knowing it (USBGF "
        "4.1.7.1).",
    ),
    "refuse-roll": Lazy(
        "ledger_commands:refuse_roll",
        help="The mover refuses his opponent's premature roll: he rolls again once the mover has "
        "moved (the Fast Roll Rule, USBGF 4.1.7.1; not where rolls stand, ABT 4.6).",
    ),
    "undo": Lazy(
        "correction_commands:undo",
        help="Withdraw the last entry as a recording error; undo again for the one before.",
    ),
    "amend": Lazy(
        "correction_commands:amend",
        help="Entry EVENT was mis-entered; LINE (as 'record' reads it) is what happened.",
    ),
    "revert": Lazy(
        "ruling_commands:revert",
        help="Undo the illegal play EVENT and the game actions after it (USBGF 4.2.3(c)-(f)).",
    ),
    "void-cube": Lazy(
        "ruling_commands:void_cube",
        help="Void the invalid double EVENT that was taken: the game counts as if it never was "
        "(USBGF 4.4.6.1, 4.4.9, 4.4.10).",
    ),
    "nullify-pass": Lazy(
        "ruling_commands:nullify_pass",
        help="Nullify the pass of the invalid double EVENT: the game resumes at the double (USBGF "
        "4.4.6.2).",
    ),
    "void-concession": Lazy(
        "ruling_commands:void_concession",
        help="Void the accepted concession EVENT the rules did not allow (a contact position): "
        "it and everything after it are void, and the game resumes where it was conceded "
        "(USBGF 4.5, 4.2.6).",
    ),
    "correct-cube": Lazy(
        "ruling_commands:correct_cube",
        help="The double EVENT to a wrong level stands at the right level (USBGF 4.4.8).",
    ),
    "correct-setup": Lazy(
        "ruling_commands:correct_setup",
        help="Correct the wrong setup EVENT (USBGF 4.2.4): the plays stand on the right position "
        "if none was affected, else the game starts again; too late, the position stands.",
    ),
    "correct-length": Lazy(
        "ruling_commands:correct_length",
        help="The match is LENGTH points, from the next game (USBGF 4.8.4, 4.8.5).",
    ),
    "correct-score": Lazy(
        "ruling_commands:correct_score",
        help="The score is A (player a) to B (player b): the director settles a dispute (USBGF "
        "4.7).",
    ),
    "note": Lazy(
        "ruling_commands:note",
        help="Note a ruling or an observation for the record (TEXT); the match is unchanged.",
    ),
    "overturn": Lazy(
        "ruling_commands:overturn",
        help="An appeal committee reverses the ruling at event RULING: what it voided is back in "
        "force (USBGF 5.2; --ruled-by committee).",
    ),
    "hit": Lazy(
        "clock_commands:hit",
        help="PLAYER (a or b; default: whose time runs) hits the clock: his turn ends (USBGF "
        "4.1.8.1).",
    ),
    "clock": Lazy(
        "clock_commands:clock_group",
        help="The game clock of MATCH: start, stop, resume, read or set it (USBGF 3.5.5, 4.3).",
    ),
    "flag": Lazy(
        "clock_ruling_commands:flag",
        help="PLAYER's (a or b) reserve is announced expired: he loses the match (USBGF 4.3.3, "
        "CLOCK 5.3).",
    ),
    "early-pickup": Lazy(
        "clock_ruling_commands:early_pickup",
        help="PLAYER (a or b) picked up the dice before his opponent hit the clock: the sanction.",
    ),
    "pickup-with-hit": Lazy(
        "clock_ruling_commands:pickup_with_hit",
        help="PLAYER (a or b) hit the clock and also picked up the dice (USBGF 4.1.8.1).",
    ),
    "missed-hit": Lazy(
        "clock_ruling_commands:missed_hit",
        help="The player whose time runs never hit the clock after his turn (USBGF 4.1.8.1).",
    ),
    "break": Lazy(
        "break_commands:break_group",
        help="A break in MATCH: start one, or end it (USBGF 2.2.2; the clock stops, 4.3.2(b)).",
    ),
    "late": Lazy(
        "break_commands:late",
        help="PLAYER (a or b) is (or was) late at --at: the penalty points due so far (USBGF "
        "2.2.4).",
    ),
    "penalty": Lazy(
        "break_commands:penalty",
        help="The director assesses POINTS penalty points against PLAYER (a or b): his opponent "
        "scores.",
    ),
    "verify": Lazy(
        "integrity_commands:verify",
        help="Check MATCH (every match without one) against its events; exit 1 on any mismatch.",
    ),
    "seal": Lazy(
        "integrity_commands:seal",
        help="Write a signed digest of MATCH as it stands: its event count and chain head.",
    ),
    "keygen": Lazy(
        "integrity_commands:keygen_command",
        help="Make a director's Ed25519 key pair for seals: FILE (private, PEM) and FILE.pub.",
    ),
    "record": Lazy(
        "record:record",
        help="Record a match one action a line, from stdin or the terminal.",
    ),
    "setup": Lazy(
        "setup_commands:setup",
        help="The game began from POSITION (a gnubg position id, player a on roll), not the "
        "standard one.",
    ),
    "import": Lazy(
        "interchange_commands:import_command",
        help="Import .mat transcriptions: each match becomes a match in the ledger.",
    ),
    "export": Lazy(
        "interchange_commands:export",
        help="Export a match: as a .mat file, as JSON, or as its score sheet.",
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
        help="Serve the match pages and the JSON API (reads open; writes with a `token`).",
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


class LazyCommands(MutableMapping[str, click.Command]):
    """The group's commands by name, each module imported on first access."""

    def __init__(self, entries: dict[str, Lazy]) -> None:
        self._targets = {name: entry.target for name, entry in entries.items()}
        self._loaded: dict[str, click.Command] = {}

    def loaded(self, name: str) -> click.Command | None:
        """The command ``name`` if its module is loaded already, else None."""
        return self._loaded.get(name)

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            self._loaded[name] = load_command(self._targets[name])
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._targets.pop(name, None)
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self._targets and name not in self._loaded:
            raise KeyError(name)
        self._targets.pop(name, None)
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter({**self._targets, **self._loaded})

    def __len__(self) -> int:
        return len({**self._targets, **self._loaded})


class LazyGroup(click.Group):
    """A click group whose commands are loaded when they run; ``--help`` reads :data:`COMMANDS`."""

    commands: LazyCommands

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; an error's message is printed with its control and format
        characters escaped (a file name holding ``ESC [2J`` names the file, never clears the
        screen), whoever raised it: the command, or click about an argument."""
        try:
            return super().invoke(ctx)
        except click.ClickException as error:
            from bgledger.rules.text import escaped

            # click types ``message`` Final; it is set once, before anything shows it
            setattr(error, "message", escaped(error.message, keep="\n"))  # noqa: B010
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The ``Commands:`` section, as click writes it, from the map's short help."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            command = self.commands.loaded(name) or click.Command(name, help=COMMANDS[name].help)
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
    commands=LazyCommands(COMMANDS),
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
    """
    atexit.register(_leave)
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
