"""The ``bgledger`` command group."""

from __future__ import annotations

import os

import click

from bgledger.cli.break_commands import COMMANDS as BREAK_COMMANDS
from bgledger.cli.clock_commands import COMMANDS as CLOCK_COMMANDS
from bgledger.cli.clock_ruling_commands import COMMANDS as CLOCK_RULING_COMMANDS
from bgledger.cli.integrity_commands import COMMANDS as INTEGRITY_COMMANDS
from bgledger.cli.interchange_commands import export, import_command
from bgledger.cli.ledger_commands import COMMANDS as LEDGER_COMMANDS
from bgledger.cli.readmodel_commands import COMMANDS as READMODEL_COMMANDS
from bgledger.cli.record import record
from bgledger.cli.replay import replay
from bgledger.cli.rules_commands import judge_command, legal
from bgledger.cli.ruling_commands import COMMANDS as RULING_COMMANDS
from bgledger.cli.setup_commands import setup
from bgledger.cli.view_commands import history, show
from bgledger.service import DEFAULT_URL


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    metavar="URL",
    default=lambda: os.environ.get("BGLEDGER_DB", DEFAULT_URL),
    show_default="BGLEDGER_DB, else sqlite:///bgledger.db",
    help="SQLAlchemy URL of the ledger database.",
)
@click.version_option(package_name="bgledger")
@click.pass_context
def main(ctx: click.Context, db: str) -> None:
    """bgledger: the event-sourced match record and audit ledger for tournament backgammon."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db


for command in (
    *LEDGER_COMMANDS,
    *RULING_COMMANDS,
    *CLOCK_COMMANDS,
    *CLOCK_RULING_COMMANDS,
    *BREAK_COMMANDS,
    *INTEGRITY_COMMANDS,
    record,
    setup,
    import_command,
    export,
    show,
    history,
    replay,
    *READMODEL_COMMANDS,
    legal,
    judge_command,
):
    main.add_command(command)


if __name__ == "__main__":
    main()
