"""The tournament-wide views: ``list``, ``rulings``, ``standings`` and ``rebuild``.

They read the read models (:mod:`bgledger.projections.readmodels.tracking`), brought up to
date first with the events recorded since the last read; ``rebuild``
recomputes them from every event.  ``list --json`` prints the same document
per match as it did when it folded every match (``show --json``'s fields).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

from bgledger.cli.common import emit_json, json_option, library_errors, open_ledger, say
from bgledger.projections.views.scoresheet import aligned, ruling_log

__all__ = ["COMMANDS", "list_matches", "rebuild", "rulings", "standings"]


def _event_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--event",
        "event",
        metavar="NAME",
        default=None,
        help="Only the matches of this event (as named at 'start --event' or in the file).",
    )(func)


@click.command("list")
@_event_option
@json_option
@click.pass_context
def list_matches(ctx: click.Context, event: str | None, as_json: bool) -> None:
    """Every match in the ledger (of one event with --event), in the order they were started."""
    ledger = open_ledger(ctx)
    with library_errors():
        rows = ledger.matches(event)
    if as_json:
        emit_json({"matches": [json.loads(row["summary"]) for row in rows]})
        return
    if not rows:
        where = f" in event {event!r}" if event is not None else ""
        say(f"no matches{where} yet: 'bgledger start' or 'bgledger import'")
        return
    table: list[tuple[str, ...]] = [LIST_COLUMNS]
    table += [
        (
            row["match_id"],
            _shortened(row["event"] or "-", 20),
            f"{row['player_a']} v {row['player_b']}",
            f"{row['score_a']}-{row['score_b']}",
            str(row["length"]),
            row["status"],
            str(row["events"]),
            row["last_at"][:16].replace("T", " "),
        )
        for row in rows
    ]
    if event is not None:  # one event: its column says nothing
        table = [(cells[0], *cells[2:]) for cells in table]
    for line in aligned(table, numeric=(3, 5) if event is not None else (4, 6)):
        say(line)


def _shortened(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


LIST_COLUMNS = ("Match", "Event", "Players (a v b)", "Score", "Length", "Status", "Events", "Last")
"""``list``'s header: the score is player a's points first, as the players are listed."""
STANDINGS_COLUMNS = (
    "Event", "Player", "Played", "Won", "Lost", "In progress", "Points for", "Points against",
)  # fmt: skip
"""``standings``' header."""


def ruling_json(row: dict[str, Any]) -> dict[str, Any]:
    """``rulings --json``: one ruling, with ``in_force`` and its own fields in ``details``."""
    return {
        "match_id": row["match_id"],
        "event": row["event"],
        "number": row["number"],
        "kind": row["kind"],
        "rule": row["rule"] or None,
        "ruled_by": row["ruled_by"],
        "reason": row["reason"],
        "at": row["at"],
        "recorded_by": row["recorded_by"],
        "agreed": row["agreed"],
        "overturns": row["overturns"],
        "in_force": row["voided_by"] is None,
        "voided_by": row["voided_by"],
        "details": json.loads(row["details"]),
    }


@click.command("rulings")
@_event_option
@json_option
@click.pass_context
def rulings(ctx: click.Context, event: str | None, as_json: bool) -> None:
    """Every ruling in every match (of one event with --event): the director's report.

    Each line: when, match and event number, the rule, who ruled, whether it
    is in force or was overturned (and by which ruling), and why (USBGF 5.5).
    """
    ledger = open_ledger(ctx)
    with library_errors():
        rows = ledger.rulings(event)
    if as_json:
        emit_json({"event": event, "rulings": [ruling_json(row) for row in rows]})
        return
    if not rows:
        say("no rulings" + (f" in event {event!r}" if event is not None else ""))
        return
    players = {m["match_id"]: (m["player_a"], m["player_b"]) for m in ledger.matches(event)}
    for row in ruling_log(rows, players):
        when = row["at"][:19].replace("T", " ")
        where = f"{row['match_id']}#{row['number']}"
        what = row["what"]
        say(
            f"{when}  {where:<20} {row['event'] or '-':<16} {row['rule'] or '-':<16} "
            f"{row['ruled_by']:<9} [{row['status']}]  {row['kind']}: {what + ': ' if what else ''}"
            f"{row['reason']}"
        )


@click.command("standings")
@_event_option
@json_option
@click.pass_context
def standings(ctx: click.Context, event: str | None, as_json: bool) -> None:
    """Per event and player: matches played, won, lost, in progress, points for and against.

    Played, won, lost and the points count finished matches only (the final
    match score); a match without a winner counts as in progress.
    """
    ledger = open_ledger(ctx)
    with library_errors():
        rows = ledger.standings(event)
    if as_json:
        emit_json({"event": event, "standings": rows})
        return
    if not rows:
        say("no standings" + (f" in event {event!r}" if event is not None else ""))
        return
    keys = ("played", "won", "lost", "in_progress", "points_for", "points_against")
    table: list[tuple[str, ...]] = [STANDINGS_COLUMNS]
    table += [
        (row["event"] or "-", row["player"], *(str(row[key]) for key in keys)) for row in rows
    ]
    for line in aligned(table, numeric=range(2, 8)):
        say(line)


@click.command("rebuild")
@click.option(
    "--full",
    is_flag=True,
    help="Decode and fold every event of every match; read no snapshot.",
)
@json_option
@click.pass_context
def rebuild(ctx: click.Context, full: bool, as_json: bool) -> None:
    """Recompute every read model (match index, rulings, standings) from the events.

    Each match starts from its latest snapshot that still belongs to its hash
    chain and folds the events after it; --full folds every event instead
    (after an upgrade that changes how events are folded).  Runs in one
    transaction: readers see the old models until it commits.
    """
    ledger = open_ledger(ctx)
    with library_errors():
        report = ledger.rebuild(full=full)
    document = {
        "events": report.events,
        "folded": report.folded,
        "from_snapshots": report.snapshots,
        "matches": report.matches,
        "rulings": report.rulings,
        "standings": report.standings,
        "seconds": round(report.seconds, 3),
        "events_per_second": round(report.events_per_second),
    }
    if as_json:
        emit_json(document)
        return
    say(
        f"rebuilt from {report.events} events in {report.seconds:.2f} s "
        f"({document['events_per_second']} events/s; {report.folded} folded, "
        f"{report.snapshots} matches from a snapshot): {report.matches} matches, "
        f"{report.rulings} rulings, {report.standings} standings rows"
    )


COMMANDS = (list_matches, rulings, standings, rebuild)
"""The commands to register on the ``bgledger`` group (``list`` replaces the old one)."""
