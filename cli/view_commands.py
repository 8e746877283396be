"""Reading the ledger: ``show`` and ``history`` (``list`` reads the read models).

``show`` draws the match in either view of the past (DESIGN principle 4):
as recorded after event N, or as corrected by the rulings in force;
``history`` is the audit trail, every voided event marked with the ruling
that voided it.
"""

from __future__ import annotations

import time
from typing import Any

import click

from bgledger.cli.common import (
    BadInputError,
    emit_json,
    json_option,
    library_errors,
    open_ledger,
    viewer_option,
)
from bgledger.cli.render import board_diagram, games_table, time_lines
from bgledger.commands.decide import stamp
from bgledger.errors import InvalidTimeError
from bgledger.projections.state.clock import at_ms
from bgledger.projections.state.corrected import rulings_in_force
from bgledger.projections.state.fold import MatchState
from bgledger.projections.views.audit import HistoryEntry, history_json, history_line
from bgledger.projections.views.audit import history as audit_history
from bgledger.projections.views.moment import Moment, moment, rulings_text
from bgledger.projections.views.summary import state_json
from bgledger.store.application import Ledger


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
    shown = _moment(open_ledger(ctx), match_id, at, as_corrected)
    state = shown.state
    now_ms = clock_moment(state, now)
    if as_json:
        emit_json(_show_json(shown, at is not None, now_ms))
        return
    _print_show(shown, at is not None or as_corrected, viewer, now_ms)


def _print_show(shown: Moment, titled: bool, viewer: str | None, now_ms: int) -> None:
    """``show``'s text: title, board, games, clock and breaks, flags, rulings, anomalies."""
    state = shown.state
    click.echo(_title(state))
    if titled:
        click.echo(shown.title())
    click.echo(board_diagram(state, viewer))
    if state.next_length is not None:
        click.echo(f"\nthe match is {state.next_length} points from the next game")
    if state.games:
        click.echo()
        click.echo(games_table(state))
    timing = time_lines(state, now_ms)
    if timing:
        click.echo("\n" + "\n".join(timing))
    if state.flagged:
        numbers = ", ".join(str(n) for n in state.flagged)
        click.echo(f"\nflagged (recorded as played, against the rules): events {numbers}")
    if shown.rulings:
        click.echo("\n" + rulings_text(shown.rulings))
    for problem in state.anomalies:
        click.echo(f"anomaly: {problem}", err=True)


def _moment(ledger: Ledger, match_id: str, at: int | None, as_corrected: bool) -> Moment:
    """The match ``show`` draws: recorded (``Ledger.state``) or corrected, now or after ``at``.

    :raises BadInputError: for an unknown match or an event it does not have.
    """
    with library_errors():
        events = ledger.history(match_id)
        if not as_corrected:
            state = ledger.state(match_id, at=at)
            made = rulings_in_force(events[: state.events])
            return Moment(state, state.events, "recorded", tuple(made))
    try:
        return moment(events, at or len(events), as_corrected=True)
    except ValueError as error:
        raise BadInputError(f"match {match_id!r}: --at {at}: {error}") from None


def clock_moment(state: MatchState, now: str | None) -> int:
    """``show --now``: when a running clock is read, in ms (default: the last event's time).

    :raises BadInputError: for a time that is not ISO 8601 or is before the last event shown.
    """
    last = at_ms(state.last_at)
    if now is None:
        return last
    if now.strip().lower() == "now":
        return max(last, round(time.time() * 1000))
    try:
        when = at_ms(stamp(now, None))
    except InvalidTimeError:
        raise BadInputError(
            f"--now {now!r}: an ISO 8601 time (e.g. 2026-11-21T14:05:00+01:00) or 'now'"
        ) from None
    if when < last:
        raise BadInputError(
            f"--now {now!r} is before the last event shown ({state.last_at}): "
            "the clock is read after it"
        )
    return when


def _show_json(shown: Moment, at_given: bool, now_ms: int | None = None) -> dict[str, Any]:
    """``show --json``: the state, the view, and the rulings in force."""
    document = state_with_rulings(shown.state, now_ms)
    document["view"] = shown.view if at_given or shown.view == "corrected" else "present"
    document["rulings"] = [
        {
            "number": r.originator_version,
            "rule": r.rule or None,
            "ruled_by": r.ruled_by,
            "reason": r.reason,
            "agreed": r.agreed,
        }
        for r in shown.rulings
    ]
    return document


def state_with_rulings(state: MatchState, now_ms: int | None = None) -> dict[str, Any]:
    """:func:`~bgledger.projections.views.summary.state_json` plus ``next_length`` (USBGF
    4.8.4, 4.8.5).

    ``next_length`` is the corrected match length a ruling set for the next
    game, or null; ``now_ms`` the moment the clock is read at (see ``show --now``).
    """
    return {**state_json(state, now_ms), "next_length": state.next_length}


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.option(
    "--rulings",
    "only_rulings",
    is_flag=True,
    help="Only the rulings: what each voided or restored, and whether it is in force.",
)
@json_option
@click.pass_context
def history(ctx: click.Context, match_id: str, only_rulings: bool, as_json: bool) -> None:
    """Every event of the match: number, time, recorder and what happened.

    Marks: '!' illegal (recorded as played), 'x' voided by a ruling (the
    ruling is named), 'R' a ruling, with its rule, who ruled and why.
    """
    ledger = open_ledger(ctx)
    with library_errors():
        events = ledger.history(match_id)
    entries = audit_history(events)
    if only_rulings:
        entries = [entry for entry in entries if entry.ruling is not None]
    if as_json:
        key = "rulings" if only_rulings else "events"
        emit_json({"match_id": match_id, key: history_json(entries)})
        return
    if only_rulings:
        _print_rulings(match_id, entries)
        return
    width = max(len(entry.recorded_by) for entry in entries)
    for entry in entries:
        click.echo(history_line(entry, width))


def _print_rulings(match_id: str, entries: list[HistoryEntry]) -> None:
    """``history --rulings``: each ruling, in force or overturned, with what it did."""
    if not entries:
        click.echo(f"no rulings in match {match_id!r}")
        return
    for entry in entries:
        status = f"overturned by ruling {entry.voided_by}" if entry.voided_by else "in force"
        when = entry.at[:19].replace("T", " ")
        click.echo(f"{entry.number:>5}  {when}  {entry.recorded_by}  [{status}]  {entry.text}")
