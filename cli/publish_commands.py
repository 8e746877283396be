"""``publish``: an event's wall opened to spectators, or closed again, by its director.

The command line is the ledger's owner at the shell, as for the director's
other acts: it needs no token.  What it prints is what the front door
answers (:meth:`bgledger.Ledger.publish`): the change recorded, or that the
wall was so already and nothing was recorded.
"""

from __future__ import annotations

from urllib.parse import quote

import click

from bgledger.cli.common import (
    default_recorder,
    emit_json,
    json_option,
    library_errors,
    open_ledger,
    say,
)
from bgledger.service import delay_text, parse_delay

__all__ = ["publish", "wall_path"]


def wall_path(event: str) -> str:
    """The event's wall on ``bgledger serve``: ``/events/Open%202026/wall``."""
    return f"/events/{quote(event, safe='')}/wall"


@click.command("publish")
@click.option("--event", metavar="E", required=True, help="The event, as named at 'start --event'.")
@click.option("--off", is_flag=True, help="Close the wall to spectators instead.")
@click.option(
    "--delay",
    metavar="D",
    default=None,
    help="Show spectators every match as it stood D before (15m, 90s, 1h; 0: live; "
    "at most 24h), as chess broadcasts do.  Tokens that reach a match still read it live.",
)
@click.option(
    "--history",
    is_flag=True,
    help="List who opened and closed the wall, and when, instead; record nothing.",
)
@click.option(
    "--by",
    metavar="NAME",
    default=default_recorder,
    show_default="BGLEDGER_USER, else your login",
    help="Who publishes it.",
)
@json_option
@click.pass_context
def publish(
    ctx: click.Context,
    event: str,
    off: bool,
    delay: str | None,
    history: bool,
    by: str,
    as_json: bool,
) -> None:
    """Open the wall of event E to spectators, or close it again with --off.

    Until it is published, its matches read only with a token that reaches them, and
    the wall (/events/E/wall on `serve`) tells the event's director it is not public.
    Publishing what is public already records nothing.

    \b
    bgledger publish --event "Open 2026"              spectators may follow its matches
    bgledger publish --event "Open 2026" --delay 15m  ... as they stood 15 minutes before
    bgledger publish --event "Open 2026" --off        the wall is closed again
    bgledger publish --event "Open 2026" --history    who opened and closed it, when
    """
    ledger = open_ledger(ctx)
    if history:
        if off or delay is not None:
            raise click.UsageError("--history or a change (--off, --delay), not both")
        with library_errors():
            changes = ledger.publications(event)
        if as_json:
            emit_json({"event": event, "publications": [p.to_json() for p in changes]})
            return
        for change in changes:
            state = "published" if change.published else "withdrawn"
            behind = f"  {delay_text(change.delay)} delay" if change.delay else ""
            say(f"{change.at}  {state}  {change.by}{behind}")
        if not changes:
            say(f"event {event!r} was never published")
        return
    with library_errors():
        seconds = parse_delay(delay) if delay is not None else 0
        done = ledger.publish(event, on=not off, by=by, delay=seconds)
    if as_json:
        emit_json(done.to_json())
        return
    say(done.text())
    if done.publication.published:
        say(f"the wall: {wall_path(event)} (on 'bgledger serve')")
