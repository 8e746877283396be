"""The ``bgledger`` command group."""

from __future__ import annotations

import os

import click

from cli.rules_commands import judge_command, legal

DEFAULT_DB = "sqlite:///bgledger.db"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    metavar="URL",
    default=lambda: os.environ.get("BGLEDGER_DB", DEFAULT_DB),
    show_default="BGLEDGER_DB, else sqlite:///bgledger.db",
    help="SQLAlchemy URL of the ledger database.",
)
@click.version_option(package_name="bgledger")
@click.pass_context
def main(ctx: click.Context, db: str) -> None:
    """bgledger: the event-sourced match record and audit ledger for tournament backgammon."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db


main.add_command(legal)
main.add_command(judge_command)
