"""The director's console (issue 16): every match of an event live, the rulings, the standings.

Routes, added to the application by :func:`director_routes`::

    GET /events/EVENT/director          the console of one event: each match live (score,
                                        game, cube, turn, Crawford, clocks, flags, a break in
                                        progress, status, last event), the standings and
                                        the rulings log (``director.js`` keeps it live)
    GET /director                       the same over every match of the ledger
    GET /events/EVENT/director/live     the console's live part alone (``/director/live``)
    GET /api/events/EVENT/events        server-sent events: ``changed``, the matches of the
                                        event with new events (``/api/director/events``)
    GET /matches/MATCH/desk             the director's desk of one match: its history by
                                        event number (pick one for the rulings whose
                                        windows are open), late arrival, penalty points
    GET /matches/MATCH/desk/history     the desk's history alone

The rows are the read models' (:meth:`bgledger.Ledger.matches`,
:meth:`~bgledger.Ledger.standings`, :meth:`~bgledger.Ledger.rulings`); the
words for what they lack (the status line, the clocks, the breaks, the last
event) are the text views' on :meth:`bgledger.Ledger.state`.  Nothing here
decides: a ruling, a late arrival or penalty points is a line of the record
language the console posts to ``POST /api/matches/MATCH/lines`` with a
director's token, and the ledger decides.
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from bgledger.projections.views.audit import history_line
from bgledger.projections.views.scoresheet import ruling_log
from bgledger.projections.views.text import break_lines, brief, clock_line, clock_text, figures
from bgledger.projections.views.words import numbers_text, rule_for, rules_cited
from bgledger.service import Decision, Ledger, MatchState
from bgledger.web.streams import News, Streams

__all__ = ["director_routes"]

Page = Callable[..., Response]


class _Latest:
    """Each match's state and last history line, worked out again only when it has new events.

    A console refreshes on every event of any match of the event; the other
    matches' words are those of the same events, kept by ``(match, events)``.
    """

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.kept: dict[str, tuple[int, MatchState, str]] = {}

    def of(self, match_id: str, events: int) -> tuple[MatchState, str]:
        kept = self.kept.get(match_id)
        if kept is None or kept[0] != events:
            state = self.ledger.state(match_id)
            entries = self.ledger.history(match_id)
            last = history_line(entries[-1]) if entries else ""
            kept = (state.events, state, last)
            self.kept[match_id] = kept
        return kept[1], kept[2]


def director_routes(ledger: Ledger, page: Page, live: Streams) -> list[Route]:
    """The console's routes on ``ledger``; ``page`` renders a template."""
    latest = _Latest(ledger)

    def live_context(event: str | None) -> dict[str, Any]:
        rows = ledger.matches(event)
        now_ms = int(time.time() * 1000)
        cards = []
        running = False
        for row in rows:
            document = json.loads(row["summary"])
            state, last = latest.of(row["match_id"], row["events"])
            now = max(now_ms, _ms(document))  # a running clock, read now
            running = running or document["clock"]["running"] is not None
            cards.append(
                {
                    "row": row,
                    "doc": document,
                    "brief": brief(state),
                    "clock": clock_line(state, now),
                    "reserves": [clock_text(ms) for ms in figures(state.timer, now)]
                    if state.timer
                    else [],
                    "breaks": break_lines(state),
                    "flagged": numbers_text(state.flagged) if state.flagged else "",
                    "last": last,
                }
            )
        players = {row["match_id"]: (row["player_a"], row["player_b"]) for row in rows}
        return {
            "event": event,
            "cards": cards,
            "standings": ledger.standings(event),
            "rulings": ruling_log(ledger.rulings(event), players),
            "total": sum(row["events"] for row in rows),
            "running": running,
        }

    def console(request: Request) -> Response:
        event = request.path_params.get("event")
        context = live_context(event)
        stream = "/api/director/events" if event is None else f"/api/events/{quote(event)}/events"
        live = "/director/live" if event is None else f"/events/{quote(event)}/director/live"
        # the hint that issues the token this console asks for (``--event`` is required)
        issue = f"bgledger token --event {shlex.quote(event or 'E')} --role director"
        context |= {"stream": stream, "live": live, "issue": issue}
        return page(request, "director.html", context)

    def console_live(request: Request) -> Response:
        return page(request, "_director_live.html", live_context(request.path_params.get("event")))

    async def changes(request: Request) -> Response:
        event = request.path_params.get("event")
        # a reconnecting browser's Last-Event-ID is newer than the since= the page was drawn at
        since = request.headers.get("last-event-id") or request.query_params.get("since")
        try:
            start = int(since) if since is not None else None
        except ValueError:
            raise HTTPException(400, f"since={since!r}: the console's event count") from None
        counts = await run_in_threadpool(_counts, ledger, event)
        total = sum(counts.values())
        opening = [f"retry: 1000\n: following {json.dumps(event)} at {total}\n\n"]
        if start is not None and total != start:  # something happened since the page was drawn
            opening.append(_changed(sorted(counts), total))
        client = request.client.host if request.client else "unknown"
        return live.respond(client, opening, _changes_after(ledger, event, counts))

    def desk_context(match_id: str) -> dict[str, Any]:
        state = ledger.state(match_id)
        return {
            "match_id": match_id,
            "state": state,
            "lines": [(entry, history_line(entry)) for entry in ledger.history(match_id)],
            "rules": rules_cited(state.profile),
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
        context = desk_context(request.path_params["match_id"])
        return page(request, "_desk_history.html", context)

    return [
        Route("/director", console),
        Route("/director/live", console_live),
        Route("/events/{event:path}/director", console),
        Route("/events/{event:path}/director/live", console_live),
        Route("/api/director/events", changes),
        Route("/api/events/{event:path}/events", changes),
        Route("/matches/{match_id}/desk", desk),
        Route("/matches/{match_id}/desk/history", desk_history),
    ]


def _ms(document: dict[str, Any]) -> int:
    """The moment the document's clock figures are for (0 without a clock)."""
    as_of = document["clock"].get("as_of")
    return int(datetime.fromisoformat(as_of).timestamp() * 1000) if as_of else 0


def _changes_after(ledger: Ledger, event: str | None, counts: dict[str, int]) -> News:
    """The console stream's news: ``changed`` each time matches of ``event`` have new events
    since ``counts`` (``id``: the events of all of them, which only grows).
    """
    seen = counts

    def news() -> list[str]:
        nonlocal seen
        now = _counts(ledger, event)
        moved = sorted(m for m, n in now.items() if seen.get(m) != n)
        if not moved:
            return []
        seen = now
        return [_changed(moved, sum(now.values()))]

    return news


def _counts(ledger: Ledger, event: str | None) -> dict[str, int]:
    return {row["match_id"]: row["events"] for row in ledger.matches(event)}


def _changed(matches: list[str], total: int) -> str:
    data = json.dumps({"matches": matches, "total": total})
    return f"id: {total}\nevent: changed\ndata: {data}\n\n"
