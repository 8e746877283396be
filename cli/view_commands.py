"""Reading the ledger: ``show`` and ``history`` (``list`` reads the read models).

``show`` draws the match in either view of the past (DESIGN principle 4):
as recorded after event N, or as corrected by the rulings in force;
``history`` is the audit trail, every voided event marked with the ruling
that voided it.
"""

from __future__ import annotations

import click

from bgledger.cli.common import (
    BadInputError,
    emit_json,
    json_option,
    library_errors,
    open_ledger,
    say,
    viewer_option,
)
from bgledger.projections.views.audit import (
    HistoryEntry,
    game_headings,
    history_json,
    history_line,
    history_text,
)
from bgledger.projections.views.moment import rulings_text
from bgledger.projections.views.text import board_diagram, games_table, time_lines
from bgledger.projections.views.words import numbers_text, ruling_status, where_text
from bgledger.service import MatchState, Shown
from bgledger.service import state_document as state_with_rulings

__all__ = ["history", "show", "state_with_rulings"]


def _title(state: MatchState) -> str:
    where = where_text(state.event, state.round, state.table)
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
    "--corrected",
    "as_corrected",
    is_flag=True,
    help="As corrected by every ruling in force (with --at N: that moment, corrected).",
)
@click.option(
    "--now",
    "now",
    default=None,
    metavar="TIME|now",
    help="The moment a running game clock is read at, ISO 8601, or 'now' (the wall "
    "clock); default: the time of the last event shown, as the record says.",
)
@viewer_option
@json_option
@click.pass_context
def show(
    ctx: click.Context,
    match_id: str,
    at: int | None,
    as_corrected: bool,
    now: str | None,
    viewer: str | None,
    as_json: bool,
) -> None:
    """The board, score, cube, turn and Crawford status (as recorded after event N).

    Without --at: the match today, every ruling in force applied.  --at N
    --corrected: the moment after event N seen through every ruling since.
    Below the board: the game clock (USBGF 3.5.5, 4.3.2), the breaks
    (USBGF 2.2.2) and the penalty points (USBGF 2.2.4).
    """
    ledger = open_ledger(ctx)
    with library_errors():
        shown = ledger.show(match_id, at, corrected=as_corrected, now=now)
        event = None
        if at is not None and not as_json:  # what event N was, as the log stood then or today
            event = ledger.history(match_id, at=None if as_corrected else at)[at - 1]
        imported = ledger.provenance(match_id)
    if as_json:
        emit_json({**shown.to_json(), "provenance": imported})
        return
    _print_show(shown, at is not None or as_corrected, viewer, event)
    if imported:
        click.echo(f"\n{imported}")


def _print_show(
    shown: Shown, titled: bool, viewer: str | None, event: HistoryEntry | None = None
) -> None:
    """``show``'s text: title, board, games, clock and breaks, flags, rulings, anomalies.

    ``event`` is the event shown the match after (``--at N``): its line of the history.
    """
    state, now_ms = shown.state, shown.now_ms
    say(_title(state))
    if titled:
        say(shown.moment.title())
    if event is not None:
        say(history_line(event))
    say(board_diagram(state, viewer))
    if state.next_length is not None:
        say(f"\nthe match is {state.next_length} points from the next game")
    if state.games:
        say()
        say(games_table(state))
    timing = time_lines(state, now_ms)
    if timing:
        say("\n" + "\n".join(timing))
    if state.flagged:
        say(f"\nflagged (recorded as played, against the rules): {numbers_text(state.flagged)}")
    if shown.moment.rulings:
        say("\n" + rulings_text(shown.moment.rulings))
    for problem in state.anomalies:
        say(f"anomaly: {problem}", err=True)


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.option(
    "--rulings",
    "only_rulings",
    is_flag=True,
    help="Only the rulings: what each voided or restored, and whether it is in force.",
)
@click.option(
    "--game",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Only game N: from its start to the start of the next.",
)
@json_option
@click.pass_context
def history(
    ctx: click.Context, match_id: str, only_rulings: bool, game: int | None, as_json: bool
) -> None:
    """Every event of the match: number, time, recorder and what happened.

    By game: each has a heading with the score before it.  Marks: '!' illegal
    (recorded as played), 'x' voided by a ruling (the ruling is named), 'R'
    a ruling, with its rule, who ruled and why.
    """
    ledger = open_ledger(ctx)
    with library_errors():
        events = ledger.events(match_id)
        entries = ledger.history(match_id, rulings_only=only_rulings)
    if game is not None:
        games = max((entry.game for entry in entries), default=0)
        if not 1 <= game <= games:
            played = f"games 1-{games}" if games > 1 else "game 1" if games else "no game yet"
            raise BadInputError(f"--game {game}: match {match_id!r} has {played}")
        entries = [entry for entry in entries if entry.game == game]
    if as_json:
        key = "rulings" if only_rulings else "events"
        emit_json({"match_id": match_id, key: history_json(entries)})
        return
    if only_rulings:
        _print_rulings(match_id, entries)
        return
    for line in history_text(entries, game_headings(events), game):
        say(line)


def _print_rulings(match_id: str, entries: list[HistoryEntry]) -> None:
    """``history --rulings``: each ruling, in force or overturned, with what it did."""
    if not entries:
        say(f"no rulings in match {match_id!r}")
        return
    kinds = {entry.number: entry.kind for entry in entries}
    for entry in entries:
        appealed = kinds.get(entry.voided_by or 0) == "RulingOverturned"
        status = ruling_status(entry.voided_by, appealed)
        when = entry.at[:19].replace("T", " ")
        say(f"{entry.number:>5}  {when}  {entry.recorded_by}  [{status}]  {entry.text}")
