"""Reading the ledger: ``show``, ``history`` and ``list``."""

from __future__ import annotations

import click

from cli.common import emit_json, json_option, library_errors, open_ledger
from cli.render import board_diagram, games_table
from projections.audit import history as audit_history
from projections.audit import history_json
from projections.state import MatchState
from projections.summary import state_json


def _title(state: MatchState) -> str:
    where = " · ".join(part for part in (state.event, state.round, state.table) if part)
    title = f"{state.match_id}: {state.players[0]} (a) v {state.players[1]} (b), "
    title += f"{state.length}-point match, {state.profile}"
    return f"{title} · {where}" if where else title


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.option(
    "--at",
    "at",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="As recorded after event N.",
)
@click.option(
    "--from",
    "viewer",
    type=click.Choice(["a", "b"]),
    default=None,
    help="Draw the board from this player's side (default: the player on roll).",
)
@json_option
@click.pass_context
def show(
    ctx: click.Context, match_id: str, at: int | None, viewer: str | None, as_json: bool
) -> None:
    """The board, score, cube, turn and Crawford status (as recorded after event N)."""
    ledger = open_ledger(ctx)
    with library_errors():
        state = ledger.state(match_id, at=at)
    if as_json:
        emit_json(state_json(state))
        return
    click.echo(_title(state))
    if at is not None:
        click.echo(f"as recorded after event {at}")
    click.echo(board_diagram(state, viewer))
    if state.games:
        click.echo()
        click.echo(games_table(state))
    if state.flagged:
        numbers = ", ".join(str(n) for n in state.flagged)
        click.echo(f"\nflagged (recorded as played, against the rules): events {numbers}")
    for problem in state.anomalies:
        click.echo(f"anomaly: {problem}", err=True)


@click.command()
@click.argument("match_id", metavar="MATCH")
@json_option
@click.pass_context
def history(ctx: click.Context, match_id: str, as_json: bool) -> None:
    """Every event of the match: number, time, recorder and what happened; '!' marks illegal."""
    ledger = open_ledger(ctx)
    with library_errors():
        events = ledger.history(match_id)
    entries = audit_history(events)
    if as_json:
        emit_json({"match_id": match_id, "events": history_json(entries)})
        return
    width = max(len(entry.recorded_by) for entry in entries)
    for entry in entries:
        mark = "!" if entry.flagged else " "
        when = entry.at[:19].replace("T", " ")
        click.echo(f"{entry.number:>5} {mark} {when}  {entry.recorded_by:<{width}}  {entry.text}")


def _status(state: MatchState) -> str:
    if state.winner:
        return f"won by {state.name(state.winner)}"
    if state.game == 0:
        return "not begun"
    return f"game {state.game}" + (" (Crawford)" if state.crawford.value == "crawford" else "")


@click.command("list")
@json_option
@click.pass_context
def list_matches(ctx: click.Context, as_json: bool) -> None:
    """Every match in the ledger, in the order they were started."""
    ledger = open_ledger(ctx)
    with library_errors():
        states = [ledger.state(match_id) for match_id in ledger.match_ids()]
    if as_json:
        emit_json({"matches": [state_json(state) for state in states]})
        return
    if not states:
        click.echo("no matches yet: 'bgledger start' or 'bgledger import'")
        return
    for state in states:
        score = f"{state.score[0]}-{state.score[1]}/{state.length}"
        players = f"{state.players[0]} v {state.players[1]}"
        click.echo(
            f"{state.match_id:<16} {players:<32} {score:>9}  {_status(state):<20} "
            f"{state.events:>5} events  {state.last_at[:19].replace('T', ' ')}"
        )
