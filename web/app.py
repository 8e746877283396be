"""The Starlette application of ``bgledger serve``: pages, the JSON API, the live stream.

Routes (the API mirrors the command line, DESIGN "Command-line contract")::

    GET  /                              the matches, as ``list`` shows them
    GET  /matches/new                   a director's form that starts a match
                                        (:mod:`bgledger.web.new_match`)
    GET  /matches/MATCH                 the match page: the board as inline SVG,
                                        score, status, the last entries of the history
    GET  /matches/MATCH/live            the page's live part alone (the page refetches it;
                                        ``?ids=1``: with the position's gnubg and XG ids)
    GET  /matches/MATCH/pad             the scorekeeper's pad: the board and the buttons that
                                        post lines to the API (web/static/pad.js)
    GET  /matches/MATCH/board.svg       the board alone (``?from=a|b``)
    GET  /matches/MATCH.mat ...         the match so far as a .mat file; an event's wall opened
                                        to spectators (:mod:`bgledger.web.publication`)
    GET  /matches/MATCH/replay ...      the committee's view (:mod:`bgledger.web.committee`)
    GET  /events/EVENT/director ...     the director's console (:mod:`bgledger.web.director`)
    GET  /events/EVENT/wall ...         the spectators' wall, a match followed live, the
                                        embeddable board (:mod:`bgledger.web.wall`)
    GET  /sw.js                         the service worker that keeps the pages on the phone
                                        for an offline reload (web/static/sw.js; scope /)
    GET  /api/now                       the server's clock: ``{"now", "now_ms"}`` (a page
                                        stamps each line with the moment it was made)
    GET  /api/matches/MATCH             ``show MATCH --json``
    POST /api/matches                   ``{"a": "Ann", "b": "Bob", "length": 7, "event": E}``:
                                        start a match with a director's token (``start``)
    POST /api/matches/MATCH/lines       ``{"line": "roll 6 4"}``: one line of the record
                                        language, with ``Authorization: Bearer TOKEN`` and
                                        optionally ``Idempotency-Key: K`` (a retry with K
                                        answers as the first send did, recording nothing)
    GET  /api/matches/MATCH/events      server-sent events: each new event's number and
                                        history line, and the match after it; the notes
                                        only to a token that reaches the match, and not
                                        with ``?notes=0`` (the watch page's and embed's)
    GET  /api/matches/MATCH/rulings?event=N
                                        the director's picker: the rulings on event N whose
                                        windows are open now, and those closed, with why
                                        (:meth:`bgledger.Ledger.open_rulings`)

A read of a match needs a token that reaches it until its event is published, and
the director's desk and console always (:mod:`bgledger.web.reads`: one gate for
every route); a write needs a bearer token (``bgledger token``) and a JSON
body, which a cross-site HTML form cannot send.  The library's errors are
mapped here, at the edge, as the command line maps them to exit codes:
input that describes nothing 400, an unknown match 404, a refusal 409 with
its reason, rule and next step (a race lost: 409 naming the event that won),
no or a revoked token 401, a token for another match, or for a command its role
may not issue, 403, a client key reused for another command 422, the database 503.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from functools import cache, partial
from pathlib import Path
from typing import Any

import sqlalchemy.exc
from eventsourcing.persistence import PersistenceError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bgledger.errors import (
    ActionRefusedError,
    ConcurrentWriteError,
    DelayedReadError,
    EventLooksLikeError,
    IdempotencyKeyReusedError,
    MatchNotFoundError,
    TokenScopeError,
    UnknownTokenError,
    UnreadableError,
)
from bgledger.projections.views.audit import history_line, match_zone, zone_text
from bgledger.projections.views.building import table_svg
from bgledger.projections.views.summary import analyst_ids
from bgledger.projections.views.svg import board_svg
from bgledger.projections.views.text import brief, clock_line
from bgledger.rules.errors import BgLedgerError
from bgledger.service import Ledger, UnreadableRowError
from bgledger.web.body import LINE_LIMIT, bearer_of, json_body, text_field
from bgledger.web.committee import replay_routes
from bgledger.web.delayed import Delayed, delay_words
from bgledger.web.director import console_news, director_routes
from bgledger.web.feeds import NOTES, FeedHub, Subscription
from bgledger.web.heavy import HeavyReads
from bgledger.web.new_match import new_match_routes
from bgledger.web.publication import publication_routes
from bgledger.web.reads import ReadGate
from bgledger.web.steps import pad_step
from bgledger.web.streams import StreamLimits, Streams, client_of, stream_room
from bgledger.web.wall import wall_routes
from bgledger.web.words import kind_words, phase_words, status_words

__all__ = ["HISTORY_SHOWN", "POLL_SECONDS", "client_of", "create_app", "error_document"]

HERE = Path(__file__).resolve().parent
POLL_SECONDS = 0.25
"""How often a live stream reads the match's stored events."""
HISTORY_SHOWN = 8
"""History lines on the match page (the last ones)."""
SECURITY_HEADERS = {
    # everything from the app itself; no inline script, no framing by another site
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Sent with every answer."""


def error_document(error: Exception) -> tuple[int, dict[str, Any]]:
    """The HTTP status and JSON body for a library error, as the command line maps exit codes.

    A refusal (409) carries ``reason``, ``rule`` and ``next_step`` (as lines of
    the record language), and ``next`` (the step in the scorekeeper's words, with
    the buttons that post its lines: :func:`bgledger.web.steps.pad_step`, or null);
    a lost race also ``raced``, the event that won it.
    """
    if isinstance(error, UnknownTokenError):
        return 401, {"error": str(error)}
    if isinstance(error, TokenScopeError | DelayedReadError):
        return 403, {"error": str(error)}
    if isinstance(error, MatchNotFoundError):
        return 404, {"error": str(error)}
    if isinstance(error, IdempotencyKeyReusedError):
        return 422, {"error": str(error)}
    if isinstance(error, ActionRefusedError):
        step = error.next_step.text_for_record() if error.next_step else None
        document: dict[str, Any] = {
            "error": f"refused: {error.text_for_record()}",
            "reason": error.reason,
            "rule": error.rule,
            "next_step": step,
            "next": pad_step(error.next_step) if error.next_step else None,
        }
        if isinstance(error, ConcurrentWriteError):
            document["raced"] = error.raced
        return 409, document
    if isinstance(error, EventLooksLikeError):  # the form offers to start the event anyway
        return 400, {"error": str(error), "confirm": "new_event"}
    if isinstance(error, BgLedgerError):
        return 400, {"error": str(error)}
    if isinstance(error, UnreadableRowError):  # a row edited behind the ledger's back
        whose = f"match {error.match_id!r}" if error.match_id is not None else "a match"
        return 503, {"error": f"{whose} is damaged: {error}", "damaged": error.match_id,
                     "event": error.number}  # fmt: skip
    if isinstance(error, PersistenceError | sqlalchemy.exc.SQLAlchemyError):
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return 503, {"error": f"database error: {first}"}
    raise error


@cache
def page_templates() -> Jinja2Templates:
    """The pages' templates: one Jinja environment a process, so each template is compiled
    once (about 60 ms for the director's) whatever the number of apps made on ledgers (a server
    makes one; the tests make hundreds).  Jinja still reads a template again when its file
    changes."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.filters.update(
        phase_words=phase_words, status_words=status_words, kind_words=kind_words
    )
    return templates


def create_app(
    ledger: Ledger, *, poll_seconds: float = POLL_SECONDS, streams: StreamLimits | None = None
) -> Starlette:
    """The application on ``ledger`` (the caller closes it); ``poll_seconds``: live streams.

    ``streams``: the live streams' bounds (default :class:`StreamLimits`, as many
    streams in all as the open-files limit leaves room for: :func:`stream_room`).
    """
    templates = page_templates()
    feeds = FeedHub(ledger, console_news(ledger, templates.env))  # one follower for every stream
    limits = streams or StreamLimits(total=stream_room())
    live = Streams(limits, ledger.last_stored, poll_seconds, feeds)
    heavy = HeavyReads(ledger)  # the packet, the score sheet, the replay: kept, a few at once
    delayed = Delayed(ledger)  # what spectators of an event published with a delay see

    def page(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
        return templates.TemplateResponse(request, name, context, status_code=status)

    def live_context(
        match_id: str,
        viewer: str,
        show_ids: bool = False,
        table: bool = False,
        notes: bool = True,
    ) -> dict[str, Any]:
        """The match's live part; ``notes``: with the notes (not a spectator's)."""
        news = feeds.latest(match_id)  # followed live: the hub's news, worked out once a change
        if news is not None and news.known is not None:
            shown = news.known.shown
            kept = [(n, line) for n, line in news.lines if notes or n not in news.notes]
            history = [line for _, line in kept[-HISTORY_SHOWN:]]
        else:
            shown = ledger.show(match_id)
            entries = ledger.history(match_id, last=HISTORY_SHOWN)  # the tail alone is worded
            history = [history_line(e) for e in entries if notes or e.kind not in NOTES]
        state = shown.state
        return {
            "match_id": match_id,
            "state": state,
            "viewer": viewer,
            "svg": table_svg(state, viewer) if table else board_svg(state, viewer),
            "brief": brief(state),
            "clock": clock_line(state, shown.now_ms),
            "history": history,
            "zone": zone_text(match_zone(state.started_at)),  # history's times are on its clock
            "events": state.events,
            "ids": analyst_ids(state) if show_ids else [],
        }

    def viewer_of(request: Request) -> str:
        viewer = request.query_params.get("from", "a")
        if viewer not in ("a", "b"):
            raise HTTPException(400, f"from={viewer!r}: 'a' or 'b'")
        return viewer

    def index(request: Request) -> Response:
        reader = getattr(request.state, "reader", None)  # the read gate's: the token's grant
        rows = ledger.readable_matches(request.query_params.get("event") or None, reader)
        events = list(dict.fromkeys(row["event"] for row in rows if row["event"]))
        # a spectator of an event published with a delay: its matches as they stood then,
        # each linking to its spectator's page (the match page shows it as it stands)
        behind = {event: ledger.read_delay_event(event, reader) for event in events}
        for i, row in enumerate(rows):
            delay = behind.get(row["event"], 0)
            if delay and not (reader is not None and reader.reads(row["match_id"], row["event"])):
                rows[i] = {**delayed.row(row, delay), "delay": delay_words(delay)}
        return page(request, "index.html", {"rows": rows, "events": events})

    def notes_for(request: Request, match_id: str) -> bool:
        """Whether the reader sees the notes: one whose token reaches the match (its
        scorekeeper, the director, the committee), never a spectator reading it because its
        event is published (:meth:`bgledger.Ledger.reads_notes`)."""
        return ledger.reads_notes(match_id, getattr(request.state, "reader", None))

    def match_page(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        notes = notes_for(request, match_id)
        return page(
            request, "match.html", live_context(match_id, viewer_of(request), True, False, notes)
        )

    def pad_page(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        # the board from one side all match (?from=, else the first player's; the device
        # remembers the scorekeeper's choice): each player keeps one colour
        context = live_context(
            match_id, viewer_of(request), table=True, notes=notes_for(request, match_id)
        )
        context["now_ms"] = round(time.time() * 1000)  # the pad measures its skew against it
        return page(request, "pad.html", context)

    def match_live(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        ids = request.query_params.get("ids") == "1"  # the match page's: with the ids
        table = request.query_params.get("table") == "1"  # the pad's: the board at the table
        context = live_context(
            match_id, viewer_of(request), ids, table, notes_for(request, match_id)
        )
        return page(request, "_live.html", context)

    def board(request: Request) -> Response:
        state = ledger.state(request.path_params["match_id"])
        viewer = viewer_of(request)
        if request.query_params.get("table") != "1":
            return Response(board_svg(state, viewer), media_type="image/svg+xml")
        # the pad's: the play built so far (?play=, the mover's numbering) drawn on the board
        try:
            svg = table_svg(state, viewer, request.query_params.get("play", ""))
        except ValueError as error:  # a move the board or the dice cannot give: said, not drawn
            return Response(str(error), 400, media_type="text/plain; charset=utf-8")
        return Response(svg, media_type="image/svg+xml")

    def show(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        document = ledger.show(match_id).to_json()
        return JSONResponse({**document, "provenance": ledger.provenance(match_id)})

    def rulings(request: Request) -> Response:
        """``{"match", "event", "open": [...], "closed": [...]}``; each row has ``line``, the
        line to post (``--rule`` included) once ``--reason TEXT`` is added to it."""
        match_id, given = request.path_params["match_id"], request.query_params.get("event")
        if given is None or not (given.isascii() and given.isdigit()):
            raise HTTPException(400, f"event={given!r}: the number of the event to rule on")
        options = ledger.open_rulings(match_id, int(given))
        rows = [option.to_json() for option in options]
        document = {"match": match_id, "event": int(given)}
        document |= {"open": [r for r in rows if r["open"]]}
        document |= {"closed": [r for r in rows if not r["open"]]}
        return JSONResponse(document)

    async def record(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        grant = await run_in_threadpool(ledger.authorize, bearer_of(request), match_id)
        example = '{"line": "roll 6 4"}'
        body = await json_body(request, "the line", example, LINE_LIMIT)
        line = text_field(body, "line", example)
        key = request.headers.get("idempotency-key")
        done = await run_in_threadpool(
            partial(ledger.record_line, by=grant.label, key=key, grant=grant), match_id, line
        )
        # a retry answers as the first send did (201), saying it recorded nothing this time
        headers = {"Idempotent-Replayed": "true"} if done.replayed else None
        return JSONResponse(done.answer(), 201, headers=headers)

    async def events(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        since = request.query_params.get("since") or request.headers.get("last-event-id")
        try:
            start = int(since) if since is not None else None
        except ValueError:
            raise HTTPException(400, f"since={since!r}: an event number") from None

        def opening(subscription: Subscription) -> list[str]:
            after = "now" if subscription.start is None else f"event {subscription.start}"
            return [f"retry: 1000\n: following {json.dumps(match_id)} after {after}\n\n"]

        delay = getattr(request.state, "delay", 0)  # the read gate's: a delayed spectator's
        if delay:  # the events as each becomes ``delay`` old, worked out once for all
            said, news = await run_in_threadpool(delayed.match_stream, match_id, delay, start)
            return live.follow_news(client_of(request), said, news)
        # one feed per match, shared by every stream that follows it (bgledger.web.feeds):
        # a stream opened on a match others follow reads nothing; a spectator's leaves the
        # notes out (its messages made once for every spectator of the match)
        # ?notes=0: the spectators' feed whoever reads it (the watch page, the embed)
        notes = request.query_params.get("notes") != "0" and await run_in_threadpool(
            notes_for, request, match_id
        )
        follow = partial(feeds.follow_match, match_id, start, notes)
        return await live.follow(client_of(request), opening, follow)

    def service_worker(request: Request) -> Response:
        headers = {"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"}
        script = (HERE / "static" / "sw.js").read_text(encoding="utf-8")
        return Response(script, media_type="text/javascript", headers=headers)

    def server_now(request: Request) -> Response:
        now = datetime.now(UTC)
        document = {"now": now.isoformat(), "now_ms": round(now.timestamp() * 1000)}
        return JSONResponse(document, headers={"Cache-Control": "no-store"})

    async def library_error(request: Request, error: Exception) -> Response:
        status, document = error_document(error)
        # the database's URL (with a password, maybe) stays on the server
        document["error"] = document["error"].replace(ledger.url, "the ledger")
        if request.url.path.startswith("/api/"):
            headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
            return JSONResponse(document, status, headers=headers)
        if isinstance(error, UnreadableError) or status == 401:
            # a page asked for by a browser carries no header: its script sends the kept token
            return page(request, "private.html", {"status": status, "message": document["error"]},
                        status)  # fmt: skip
        return page(request, "error.html", {"status": status, "message": document["error"]}, status)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": error.detail}, error.status_code)
        context = {"status": error.status_code, "message": error.detail}
        return page(request, "error.html", context, error.status_code)

    icon = (HERE / "static" / "favicon.svg").read_bytes()

    def favicon(request: Request) -> Response:
        # what a browser asks for by itself; the pages name /static/favicon.svg too
        return Response(
            icon, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
        )

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        *new_match_routes(ledger, page),  # before /matches/{match_id}: 'new' is no match
        *publication_routes(
            ledger, delayed
        ),  # before /matches/{match_id} too: M.mat is a match's file
        Route("/matches/{match_id}", match_page),
        Route("/matches/{match_id}/live", match_live),
        Route("/matches/{match_id}/pad", pad_page),
        Route("/matches/{match_id}/board.svg", board),
        Route("/sw.js", service_worker),
        Route("/api/now", server_now),
        Route("/api/matches/{match_id}", show),
        Route("/api/matches/{match_id}/lines", record, methods=["POST"]),
        Route("/api/matches/{match_id}/events", events),
        Route("/api/matches/{match_id}/rulings", rulings),
        *replay_routes(ledger, page, heavy),
        *wall_routes(
            ledger, page, live, feeds, delayed
        ),  # before the director's: /api/events/E/wall/events
        *director_routes(ledger, page, live, feeds),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    handlers = {
        BgLedgerError: library_error,
        PersistenceError: library_error,
        sqlalchemy.exc.SQLAlchemyError: library_error,
        HTTPException: http_error,
    }
    middleware = [
        Middleware(SecurityHeaders),
        Middleware(ReadGate, ledger=ledger, routes=routes, answer=library_error),
    ]
    application = Starlette(routes=routes, exception_handlers=handlers, middleware=middleware)
    application.state.delayed = delayed  # what delayed spectators see, for a test to count
    application.state.feeds = feeds  # the feed hub, for a test or a benchmark to count its work
    application.state.heavy = heavy  # the heavy pages' cache, likewise
    return application


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every answer (streams included), and
    ``X-Server-Now``, the server's clock (ms since the epoch) as the answer starts."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():  # a page may narrow its own
                    headers.setdefault(name, value)
                # the server's clock as the answer leaves, in ms: the pad's skew is measured on it
                headers["X-Server-Now"] = str(round(time.time() * 1000))
            await send(message)

        await self.app(scope, receive, sending)
