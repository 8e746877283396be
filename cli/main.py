"""The ``bgledger`` command group and what every command shares."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from cli import rules_commands

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_DB = "sqlite:///bgledger.db"


def json_option(func: F) -> F:
    """The shared ``--json`` flag: one JSON document on stdout instead of text."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON document instead of text."
    )(func)


def emit_json(document: object) -> None:
    """Print ``document`` as one line of JSON."""
    click.echo(json.dumps(document, ensure_ascii=False))


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


rules_commands.register(main, json_option, emit_json)
