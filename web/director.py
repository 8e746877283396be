"""The director's console (issues 16 and 26): every table of an event live, the tables needing
the director first, the rulings, the standings.

Routes, added to the application by :func:`director_routes`::

    GET /events/EVENT/director          the console of one event: each match as a card (24 or
                                        fewer) or a compact row (more), the tables needing the
                                        director first (the views' judgment,
                                        :mod:`bgledger.projections.views.triage`), the
                                        standings and the rulings log (``director.js`` keeps it
                                        live)
    GET /director                       the same over every match of the ledger
    GET /events/EVENT/director/live     the console's live part alone (``/director/live``)
    GET /events/EVENT/director/cards/M  one table's full card: the card and its last entries
                                        (``/director/cards/M``)
    GET /events/EVENT/director/standings
                                        the standings alone (a large event's console draws
                                        them when asked: two rows a match)
    GET /api/events/EVENT/events        server-sent events: ``changes``, what changed with a
                                        line recorded (``/api/director/events``)
    GET /matches/MATCH/desk             the director's desk of one match: its history by
                                        event number (pick one for the rulings whose
                                        windows are open), late arrival, penalty points
    GET /matches/MATCH/desk/history     the desk's history alone

The first drawing is the read models' (:meth:`bgledger.Ledger.matches` with
the states their rows keep, :meth:`~bgledger.Ledger.standings`,
:meth:`~bgledger.Ledger.rulings`): no match is folded, and every row is one
``verify`` checks against the events.  The words are the text views' on
those states.  Then the console follows changes, not pages: the application's
feed hub (:mod:`bgledger.web.feeds`) hands :func:`console_news` the rows of the
matches that moved, once a tick for every console of the event, and each
console receives one ``changes`` message: each moved table's row and card
drawn by the server, the rulings-log rows that are new or changed, the
standings rows of its players.  The clocks count down in the browser from the
figures the rows carry (``data-ms`` at ``data-from``, the server's clock).

Its ``id`` is the ledger's notification position the message is as of: a
console that reconnects (``Last-Event-ID``) receives the tables that moved
since, or, past :data:`CATCH_UP` of them, ``reload`` (its live part drawn
again).  Nothing here decides: a ruling, a late arrival or penalty points is
a line of the record language the console posts to ``POST
/api/matches/MATCH/lines`` with a director's token, and the ledger decides.
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import quote

from jinja2 import Environment
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from bgledger.projections.views.audit import history_line
from bgledger.projections.views.scoresheet import ruling_log
from bgledger.projections.views.text import (
    break_lines,
    brief,
    clock_line,
    clock_text,
)
from bgledger.projections.views.triage import UNDER_WAY, falls_from, needs, rank_of
from bgledger.projections.views.words import penalty_rules, rule_for, where_text
from bgledger.service import Decision, Ledger
from bgledger.web.feeds import NOTES, EventNews, FeedHub
from bgledger.web.streams import Streams, client_of
from bgledger.web.words import status_words

__all__ = ["CARDS_UP_TO", "CATCH_UP", "console_news", "director_routes"]

Page = Callable[..., Response]

CARDS_UP_TO = 24
"""An event of this many matches or fewer is drawn as cards; a larger one as compact rows."""
CATCH_UP = 200
"""Tables moved while a console was away that its reconnection sends; past it, ``reload``."""
LAST_ENTRIES = 8
"""History lines on a table's full card."""


def item(row: Mapping[str, Any], now_ms: int) -> dict[str, Any]:
    """What a table's row and card show of its read-model row at ``now_ms``.

    The row's words come from ``summary`` (``show --json``'s document) alone; a
    card's (the one-line summary, the clock's and the breaks' lines) from the
    row's ``state`` when it was read (:meth:`bgledger.Ledger.matches` with
    ``states``), else the card's lines are left out.
    """
    document = json.loads(row["summary"])
    found = needs(document)
    clock = document["clock"]
    running = clock.get("running")
    tick = None
    if running and clock.get("reserve_ms"):
        tick = {"running": running, "reserve": clock["reserve_ms"][running]}
        tick["from"] = falls_from(clock)
    status = status_words({**row, "summary": document})
    if document.get("to_act") and not row["winner"]:
        status += f" · {document['now']['turn']}"
    rank = rank_of(document, found, now_ms)
    state = row.get("state")
    found_item = {
        "id": row["match_id"],
        "row": row,
        "doc": document,
        "needs": found,
        "kinds": sorted({need.kind for need in found if need.from_ms <= now_ms}),
        "rank": rank,
        "urgent": rank < UNDER_WAY,
        # the console's filter: finished, under way, not begun
        "stage": "over" if row["winner"] else "under-way" if row["game"] else "not-begun",
        "now_ms": now_ms,
        "where": _where(row, document),
        "status": status,
        "figures": _figures(clock, tick, now_ms),
        "tick": tick,
    }
    if state is not None:
        # the card counts the reserves on beside it: the line's would be the last event's
        found_item |= {"brief": brief(state), "clock": clock_line(state, reserves=False)}
        found_item["breaks"] = break_lines(state)
    return found_item


def _figures(clock: Mapping[str, Any], tick: Mapping[str, Any] | None, now_ms: int) -> list[str]:
    """Both reserves as the clock shows them at ``now_ms`` (the running one counted on)."""
    reserves = clock.get("reserve_ms")
    if not reserves:
        return []
    shown = []
    for player in ("a", "b"):
        left = reserves[player]
        if tick is not None and tick["running"] == player:
            left -= max(0, now_ms - tick["from"])
        shown.append(clock_text(left))
    return shown


def _where(row: Mapping[str, Any], document: Mapping[str, Any]) -> str:
    """The table (and round) as the match's start named them, else the match's id."""
    table = document.get("table")
    named = where_text("", "", str(table or ""))
    named = " · ".join(p for p in (named, where_text("", str(row.get("round") or ""), "")) if p)
    return named or str(row["match_id"])


def ordered(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tables needing the director first (most urgent first), then as they were started."""
    return sorted(items, key=lambda it: (it["rank"], it["row"]["started_id"]))


def console_news(ledger: Ledger, env: Environment) -> EventNews:
    """The consoles' builder for the feed hub: one ``changes`` message for the matches of an
    event that moved (their rows with their states), for every console of the event."""
    pieces = env.get_template("_director_items.html").module

    def build(
        event: str | None, rows: list[dict[str, Any]], moved: dict[str, int], position: int
    ) -> list[str]:
        now_ms = int(time.time() * 1000)
        tables = []
        for found in (item(row, now_ms) for row in rows):
            tables.append(
                {
                    "id": found["id"],
                    "events": found["row"]["events"],
                    "row": str(pieces.row(found)),  # type: ignore[attr-defined]
                    "card": str(pieces.card(found)),  # type: ignore[attr-defined]
                }
            )
        rulings = _rulings(ledger, event, rows, moved, pieces)
        # a match counts in the standings by its result, and in progress until it has one: its
        # players' rows change when it starts, is won, or is ruled on (a result corrected)
        ruled = {ruling["match"] for ruling in rulings}
        counted = [
            row
            for row in rows
            if row["winner"] or moved.get(row["match_id"]) == 1 or row["match_id"] in ruled
        ]
        document = {
            "position": position,
            "now": now_ms,
            "tables": tables,
            "rulings": [{"id": r["id"], "html": r["html"]} for r in rulings],
            "standings": _standings(ledger, event, counted, pieces) if counted else [],
        }
        return [_message(position, "changes", document)]

    return build


def _rulings(
    ledger: Ledger,
    event: str | None,
    rows: list[dict[str, Any]],
    moved: dict[str, int],
    pieces: Any,
) -> list[dict[str, str]]:
    """The rulings-log rows of the moved matches that are new or changed (newly overturned)."""
    names = {row["match_id"]: (row["player_a"], row["player_b"]) for row in rows}
    theirs = ledger.rulings(event, ids=sorted(names))
    changed = [
        r
        for r in ruling_log(theirs, names)
        if r["number"] >= moved.get(r["match_id"], 0)
        or (r["voided_by"] or 0) >= moved.get(r["match_id"], 0)
    ]
    return [
        {
            "id": f"r-{r['match_id']}-{r['number']}",
            "match": r["match_id"],
            "html": str(pieces.ruling(r)),
        }
        for r in changed
    ]


def _standings(
    ledger: Ledger, event: str | None, rows: list[dict[str, Any]], pieces: Any
) -> list[dict[str, str]]:
    """The standings rows of the moved matches' players."""
    players = {(row["event"], name) for row in rows for name in (row["player_a"], row["player_b"])}
    return [
        {"id": f"s-{s['event']}-{s['player']}", "html": str(pieces.standing(s, event))}
        for s in ledger.standings(event)
        if (s["event"], s["player"]) in players
    ]


def _message(position: int, name: str, document: dict[str, Any]) -> str:
    data = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    return f"id: {position}\nevent: {name}\ndata: {data}\n\n"


def director_routes(ledger: Ledger, page: Page, live: Streams, feeds: FeedHub) -> list[Route]:
    """The console's routes on ``ledger``; ``page`` renders a template, ``feeds`` is the
    application's feed hub."""

    def live_context(event: str | None) -> dict[str, Any]:
        position = ledger.last_stored()  # read first: a change after it comes on the stream
        rows = ledger.matches(event)
        if len(rows) <= CARDS_UP_TO:  # cards, with the lines the states give
            rows = ledger.matches(event, states=True)
        now_ms = int(time.time() * 1000)
        items = ordered(item(row, now_ms) for row in rows)
        players = {row["match_id"]: (row["player_a"], row["player_b"]) for row in rows}
        return {
            "event": event,
            "items": items,
            "mode": "cards" if len(rows) <= CARDS_UP_TO else "rows",
            "counts": {
                "needs": sum(1 for it in items if it["urgent"]),
                "under_way": sum(1 for it in items if it["stage"] == "under-way"),
                "over": sum(1 for it in items if it["row"]["winner"]),
            },
            # a large event's standings (two rows a match) are drawn when asked for
            "standings": ledger.standings(event) if len(rows) <= CARDS_UP_TO else None,
            "players": len({name for pair in players.values() for name in pair}),
            "standings_url": _base(event) + "/standings",
            "rulings": ruling_log(ledger.rulings(event), players),
            "position": position,
            "now_ms": now_ms,
        }

    def console(request: Request) -> Response:
        event = request.path_params.get("event")
        context = live_context(event)
        stream = "/api/director/events" if event is None else f"/api/events/{quote(event)}/events"
        live = _base(event) + "/live"
        # the hint that issues the token this console asks for (``--event`` is required)
        issue = f"bgledger token --event {shlex.quote(event or 'E')} --role director"
        context |= {"stream": stream, "live": live, "issue": issue}
        return page(request, "director.html", context)

    def standings(request: Request) -> Response:
        event = request.path_params.get("event")
        context = {"event": event, "standings": ledger.standings(event)}
        return page(request, "_director_standings.html", context)

    def console_live(request: Request) -> Response:
        return page(request, "_director_live.html", live_context(request.path_params.get("event")))

    def full_card(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        event = request.path_params.get("event")
        rows = ledger.matches(event, ids=[match_id], states=True)
        if not rows:
            where = f"in {event!r}" if event is not None else "in the ledger"
            raise HTTPException(404, f"match {match_id!r}: no such match {where}")
        found = item(rows[0], int(time.time() * 1000))
        entries = ledger.history(match_id)[-LAST_ENTRIES:]  # one match, on demand
        found["last"] = [history_line(entry) for entry in entries]
        return page(request, "_director_card.html", {"item": found})

    async def changes(request: Request) -> Response:
        event = request.path_params.get("event")
        # a reconnecting browser's Last-Event-ID is newer than the since= the page was drawn at
        since = request.headers.get("last-event-id") or request.query_params.get("since")
        try:
            start = int(since) if since is not None else None
        except ValueError:
            raise HTTPException(400, f"since={since!r}: the console's position") from None
        opening = [f"retry: 1000\n: following {json.dumps(event)}\n\n"]

        def opened(subscription: Any) -> list[str]:
            return opening

        build = feeds.event_news

        def follow() -> Any:
            subscription = feeds.follow_event(event)
            if start is not None and build is not None:  # what moved since it was drawn
                subscription.put(_caught_up(ledger, event, start, build))
            return subscription

        return await live.follow(client_of(request), opened, follow)

    def desk_context(match_id: str) -> dict[str, Any]:
        state = ledger.state(match_id)
        return {
            "match_id": match_id,
            "state": state,
            "lines": [(entry, history_line(entry)) for entry in ledger.history(match_id)],
            "rules": penalty_rules(state.profile),
            "penalty_rule": rule_for(state.profile, Decision.PENALTY_POINTS),
        }

    def desk(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        headers = request.headers
        if headers.get("sec-fetch-mode") == "navigate" or "text/html" in headers.get("accept", ""):
            # opened in the address bar, not fetched by the console: the fragment alone has no
            # page and no script, so the console of the match's event opens with its desk
            event = ledger.state(match_id).event
            console = f"/events/{quote(event)}/director" if event else "/director"
            return RedirectResponse(f"{console}?desk={quote(match_id)}", 303)
        return page(request, "_desk.html", desk_context(match_id))

    def desk_history(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        context = desk_context(match_id)
        # the pad's More, read by a spectator of a published event too: without the notes
        if not ledger.reads_notes(match_id, getattr(request.state, "reader", None)):
            context["lines"] = [(e, line) for e, line in context["lines"] if e.kind not in NOTES]
        return page(request, "_desk_history.html", context)

    return [
        Route("/director", console),
        Route("/director/live", console_live),
        Route("/director/cards/{match_id}", full_card),
        Route("/director/standings", standings),
        Route("/events/{event:path}/director/standings", standings),
        Route("/events/{event:path}/director/live", console_live),
        Route("/events/{event:path}/director/cards/{match_id}", full_card),
        Route("/events/{event:path}/director", console),
        Route("/api/director/events", changes),
        Route("/api/events/{event:path}/events", changes),
        Route("/matches/{match_id}/desk", desk),
        Route("/matches/{match_id}/desk/history", desk_history),
    ]


def _caught_up(ledger: Ledger, event: str | None, since: int, build: EventNews) -> list[str]:
    """What a console drawn (or last told) at ``since`` missed: the tables of ``event`` that moved
    since, as one ``changes``; ``reload`` past :data:`CATCH_UP` of them."""
    position, moved = ledger.moved(since)
    if not moved:
        return []
    reload = [_message(position, "reload", {"position": position})]
    if len(moved) > 50 * CATCH_UP:  # the whole ledger moved: not worth naming them
        return reload
    mine = [row["match_id"] for row in ledger.matches(event, ids=sorted(moved))]
    if len(mine) > CATCH_UP:
        return reload
    rows = ledger.matches(event, ids=mine, states=True) if mine else []
    return build(event, rows, {m: moved[m] for m in mine}, position) if rows else []


def _base(event: str | None) -> str:
    """The console's address (``/director`` for every match)."""
    return "/director" if event is None else f"/events/{quote(event)}/director"
