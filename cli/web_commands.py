"""``serve`` and ``token``: the browser pad's server and the bearer tokens that may write.

``bgledger serve`` runs the web adapter (:mod:`bgledger.web`) under uvicorn
on the group's ``--db``; it binds 127.0.0.1 unless ``--host`` says
otherwise (``--host 0.0.0.0`` for the phones on the venue's network).
``bgledger token MATCH --role scorekeeper`` prints a token once; the ledger
keeps its SHA-256 only.
"""

from __future__ import annotations

import click

from bgledger.cli.common import BadInputError, library_errors, open_ledger
from bgledger.service import ROLES

__all__ = ["serve", "token"]

CACHE_SIZE = 256
"""Matches the server keeps in memory between requests (each still reads new events)."""


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to bind.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.pass_context
def serve(ctx: click.Context, host: str, port: int) -> None:
    """Serve the match pages and the JSON API (reads open; writes with a `token`)."""
    import uvicorn

    from bgledger.web import create_app

    ledger = open_ledger(ctx, cache_size=CACHE_SIZE)
    click.echo(f"bgledger: http://{host}:{port}/ (Ctrl-C stops)", err=True)
    # open event streams never end by themselves: give them 3 s at Ctrl-C
    uvicorn.run(
        create_app(ledger), host=host, port=port, log_level="warning", timeout_graceful_shutdown=3
    )


@click.command("token")
@click.argument("match_id", metavar="[MATCH]", required=False)
@click.option("--role", type=click.Choice(ROLES), default=None, help="What the token may do.")
@click.option("--event", metavar="E", default=None, help="A director's event.")
@click.option(
    "--label",
    metavar="NAME",
    default=None,
    help="Who records with it (the events' 'by'); default: the role and the match or event.",
)
@click.option("--revoke", metavar="TOKEN", default=None, help="Revoke TOKEN instead.")
@click.pass_context
def token(
    ctx: click.Context,
    match_id: str | None,
    role: str | None,
    event: str | None,
    label: str | None,
    revoke: str | None,
) -> None:
    """Print a bearer token for `serve` that may record in MATCH (or an event's matches).

    \b
    bgledger token final --role scorekeeper          the pad of match 'final'
    bgledger token --event "Open 2026" --role director
    bgledger token --role committee                  every match
    bgledger token --revoke TOKEN
    """
    ledger = open_ledger(ctx)
    with library_errors():
        if revoke is not None:
            if match_id or role or event or label:
                raise BadInputError("--revoke TOKEN takes nothing else")
            ledger.revoke_token(revoke)
            click.echo("revoked")
            return
        if role is None:
            raise BadInputError("--role: one of " + ", ".join(ROLES))
        click.echo(ledger.issue_token(role, match_id=match_id, event=event, label=label))
