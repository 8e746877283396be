"""What every command shares: the ``--json`` flag and its output."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def json_option(func: F) -> F:
    """The shared ``--json`` flag: one JSON document on stdout instead of text."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON document instead of text."
    )(func)


def emit_json(document: object) -> None:
    """Print ``document`` as one line of JSON."""
    click.echo(json.dumps(document, ensure_ascii=False))
