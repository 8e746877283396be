"""What spectators see (issue 26): an event's wall, one match followed live, a board for OBS.

Routes, added to the application by :func:`wall_routes`::

    GET /events/EVENT/wall              the wall: a grid of the event's boards, live (board,
                                        names, score, cube, clocks, whose turn), each opening
                                        the match's spectator page; ``?featured=M1,M2`` the
                                        matches shown first, ``?rotate=S`` one of them in the
                                        spotlight in turn every S seconds, ``?page=N`` the
                                        next boards of a large event, ``?theme=light``;
                                        ``?page=standings`` the event's standings, the last
                                        page of the rotation, updated live
    GET /events/EVENT/wall/standings    the standings' table alone (the page refetches it
                                        when a card of the wall's stream changes a score)
    GET /api/events/EVENT/wall/events   server-sent events for the wall: ``card``, one changed
                                        match's figures (``?matches=M1,M2``: those only),
                                        ``added`` a match started, ``withdrawn`` the event
                                        no longer public
    GET /matches/MATCH/watch            a spectator's page of one match: the board, clocks
                                        running, the move list, the rulings, the gnubg and
                                        XG ids to copy, the ``.mat`` so far
    GET /matches/MATCH/watch/live       its live part alone (the page refetches it)
    GET /matches/MATCH/embed            one live board fitted to 640x360 for a stream
                                        overlay (OBS's browser source): may be framed by
                                        any site (``frame-ancestors *``)
    GET /matches/MATCH/embed/live       its live part alone
    GET /matches/MATCH/board/N.svg      the board as recorded after event N (``?from=b``):
                                        the wall's images, kept by the browser for ever

An event published with a delay (``publish --event E --delay 15m``) shows its
spectators every match as it stood that long before (:mod:`bgledger.web.delayed`):
the wall's cards and its stream, the pages, their live parts, and the boards (a
board after an event not yet that old is refused); the pages say so ("15 min
delay") and their clocks run as they ran then.  A token that reaches the match
reads it live.

Every one of them is public only while the director has published the event
(``bgledger publish --event E``; ``--off`` withdraws it).  A match's pages are
gated as every read is (:mod:`bgledger.web.reads`): before publication only a
token that reaches the match reads them, and anyone else gets the 404 of a
match that does not exist.  The wall itself is the spectators' alone: before,
a clear page answers 403 (404 for an event with no match).  A match outside
any event is never public here: a director publishes events, not single matches.

Read-only: nothing here takes a token, posts a line or shows who holds a token
(the history's "by" is the label a director gave the token, never the token).
The wall's first drawing reads the event's read-model rows (``show --json``'s
document of each match, no fold); its stream sends, per changed match, that
match's figures alone, never the whole event: the application's feed hub
(:mod:`bgledger.web.feeds`) reads the changed matches' rows once a tick for
every wall and console, and each card is worked out once for every wall.  A
live part of a match and a board are drawn as recorded after an event, once
for every viewer (:class:`_Drawn`).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any
from urllib.parse import quote, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from bgledger.projections.views.audit import history_line
from bgledger.projections.views.summary import analyst_ids
from bgledger.projections.views.svg import board_svg
from bgledger.projections.views.text import brief, clock_text
from bgledger.service import Ledger, MatchState
from bgledger.web.delayed import Delayed, delay_words
from bgledger.web.feeds import NOTES, FeedHub, Subscription, Tagged
from bgledger.web.streams import Streams, client_of
from bgledger.web.words import status_words

__all__ = [
    "EMBED_CSP",
    "FEATURED_MOST",
    "PAGE_BOARDS",
    "ROTATE_SECONDS",
    "STANDINGS",
    "wall_routes",
]

Page = Callable[..., Response]

PAGE_BOARDS = 12
"""Boards on one page of the wall (a 1920x1080 screen shows them 6 by 2); ``?page=`` the next.
With ``?rotate=``, 9: the board in the spotlight takes the places of four."""
FEATURED_MOST = PAGE_BOARDS
"""Matches ``?featured=`` may name (and the wall stream's ``?matches=``): one page's."""
ROTATE_SECONDS = (1, 3600)
"""The least and the most seconds ``?rotate=`` may give a board in the spotlight."""
EMBED_CSP = "default-src 'self'; frame-ancestors *; base-uri 'none'"
STANDINGS = "standings"
"""The wall's ``?page=`` of the event's standings: the last page of its rotation."""
"""The embed's Content-Security-Policy: the application's, but any site may frame it (OBS,
a stream's page)."""
_DRAWN_KEPT = 1024
"""Drawings :class:`_Drawn` keeps (a board about 15 KB, a live part about 20 KB: 20 MB at most)."""
_CARDS_KEPT = 4096
"""Cards the wall keeps, by (match, events), for its pages and all its streams."""


def _public(ledger: Ledger, event: str) -> bool:
    """Whether the director has published ``event`` to spectators (``bgledger publish``)."""
    return ledger.published(event)


class NotPublicError(HTTPException):
    """403: the event is not published to spectators (or was withdrawn)."""


def _not_public(event: str | None) -> NotPublicError:
    if event is None:
        why = (
            "this match is in no event, and only an event's matches are shown to spectators"
            " (a director publishes an event)"
        )
    else:
        why = (
            f"the matches of {event!r} are not public: the director has not published them"
            " to spectators, or has withdrawn them"
        )
    return NotPublicError(403, why)


_Key = tuple[str, str, int, str] | tuple[str, str, int, str, int]


class _Drawn:
    """Drawings of a match as recorded after an event (a live part, a board), by (what,
    match, event, side; a live part also its delay, which it shows): drawn once, whoever
    asks.  Such a drawing never changes (a ruling is a later event), so it is kept until
    :data:`_DRAWN_KEPT` newer ones push it out."""

    def __init__(self) -> None:
        self.kept: dict[_Key, bytes] = {}
        self.lock = threading.Lock()

    def get(self, key: _Key) -> bytes | None:
        return self.kept.get(key)

    def keep(self, key: _Key, body: bytes) -> None:
        with self.lock:
            if len(self.kept) >= _DRAWN_KEPT:  # bounded: forget the oldest
                self.kept.pop(next(iter(self.kept)))
            self.kept[key] = body


class _Cards:
    """Each match's card (:func:`_card`) and its JSON by (match, events), worked out once for
    the wall's page and every wall stream (the last event's words read from its history)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.kept: dict[tuple[str, int], tuple[dict[str, Any], str]] = {}
        self.lock = threading.Lock()

    def _of(self, row: dict[str, Any]) -> tuple[dict[str, Any], str]:
        key = (row["match_id"], row["events"])
        kept = self.kept.get(key)
        if kept is None:
            entry = self.ledger.last_entry(key[0], key[1])  # as recorded here: not folded again
            back = key[1]
            while entry is not None and entry.kind in NOTES and back > 1:  # a note: not shown
                back -= 1
                entry = self.ledger.last_entry(key[0], back)
            card = _card(row, entry.text if entry is not None else "")
            kept = (card, json.dumps(card))
            with self.lock:
                if len(self.kept) >= _CARDS_KEPT:  # bounded: forget the oldest
                    self.kept.pop(next(iter(self.kept)), None)
                self.kept[key] = kept
        return kept

    def of(self, row: dict[str, Any]) -> dict[str, Any]:
        """The card of ``row`` (a read-model row of :meth:`bgledger.Ledger.matches`)."""
        return self._of(row)[0]

    def json(self, row: dict[str, Any]) -> str:
        """The card of ``row`` as the wall stream sends it."""
        return self._of(row)[1]


class _WallFeed:
    """The walls' part of the feed hub (:class:`bgledger.web.feeds.WallFeed`): per event
    followed, each match's event count (the stream's ``id`` is their sum, which only grows)
    and whether its walls were told it was withdrawn; the cards from :class:`_Cards`."""

    def __init__(self, ledger: Ledger, cards: _Cards) -> None:
        self.ledger = ledger
        self.cards = cards
        self.counts: dict[str, dict[str, int]] = {}
        self.withdrawn: dict[str, bool] = {}

    def rows(self, event: str) -> list[dict[str, Any]]:
        """The event's rows, if it is public (404: no match in it; 403: not published)."""
        rows = self.ledger.matches(event)
        if not rows:
            raise HTTPException(404, f"event {event!r} has no matches: there is no wall to show")
        if not _public(self.ledger, event):
            raise _not_public(event)
        return rows

    def rows_or_none(self, event: str) -> list[dict[str, Any]] | None:
        """:meth:`rows`, or None once the event is no longer public (a delayed wall stream's
        read: the read gate ends it)."""
        try:
            return self.rows(event)
        except HTTPException:
            return None

    def opened(self, event: str) -> list[dict[str, Any]]:
        rows = self.rows(event)
        self._count(event, rows)
        self.withdrawn[event] = False
        return rows

    def closed(self, event: str) -> None:
        self.counts.pop(event, None)
        self.withdrawn.pop(event, None)

    def news(
        self,
        event: str,
        rows: list[dict[str, Any]],
        moved: dict[str, int],
        shown: frozenset[str] | None,
    ) -> Tagged:
        withdrawn = self.recheck(event)  # no card of an event withdrawn, even for a moment
        if withdrawn or self.withdrawn.get(event):
            return withdrawn
        counts = self.counts.setdefault(event, {})
        added = [row["match_id"] for row in rows if row["match_id"] not in counts]
        total = self._count(event, rows)
        tagged: Tagged = [(None, _message("added", {"match": m}, total)) for m in added]
        return tagged + [
            (row["match_id"], _card_message(row, total, self.cards))
            for row in rows
            if shown is None or row["match_id"] in shown
        ]

    def recheck(self, event: str) -> Tagged:
        public = _public(self.ledger, event)
        if public or self.withdrawn.get(event):
            self.withdrawn[event] = not public
            return []
        self.withdrawn[event] = True
        return [(None, "event: withdrawn\ndata: {}\n\n")]

    def _count(self, event: str, rows: list[dict[str, Any]]) -> int:
        """Count ``rows``' events (a row read earlier never lowers a count); the sum."""
        counts = self.counts.setdefault(event, {})
        for row in rows:
            counts[row["match_id"]] = max(counts.get(row["match_id"], 0), row["events"])
        return sum(counts.values())


def wall_routes(
    ledger: Ledger, page: Page, live: Streams, feeds: FeedHub, delayed: Delayed | None = None
) -> list[Route]:
    """The spectators' routes on ``ledger``; ``page`` renders a template, ``live`` the streams,
    whose walls ``feeds`` follows (every wall of an event shares one card a change);
    ``delayed``: what the spectators of an event published with a delay see.

    Put them before the director's: ``/api/events/E/wall/events`` would otherwise be taken
    for the console's stream of an event named ``E/wall``.
    """
    delayed = Delayed(ledger) if delayed is None else delayed
    cards = _Cards(ledger)
    walls = _WallFeed(ledger, cards)
    feeds.wall_feed = walls
    drawn = _Drawn()

    def not_public(request: Request, error: NotPublicError, event: str | None) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": error.detail}, error.status_code)
        context = {"event": event, "message": error.detail}
        return page(request, "not_public.html", context, error.status_code)

    def standings_context(event: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
        """The standings of the event's matches as the wall shows them (the same rows)."""
        return {"event": event, "standings": ledger.standings_of(rows), "count": len(rows)}

    def wall(request: Request) -> Response:
        event = request.path_params["event"]
        delay = _delay_of(request)
        try:
            rows = walls.rows(event)
        except NotPublicError as error:
            return not_public(request, error, event)
        if delay:  # as the matches stood ``delay`` before
            rows = delayed.rows(event, rows, delay)
        query = request.query_params
        if query.get("page") == STANDINGS:
            return wall_standings(request, event, rows)
        featured = _names(query.get("featured"), "featured")
        rotate = _rotate(query.get("rotate"))
        number = _page_number(query.get("page"))
        ordered = _ordered(rows, featured)
        size = PAGE_BOARDS - 3 if rotate else PAGE_BOARDS  # the spotlight takes four places
        pages = max(1, -(-len(ordered) // size))
        after = STANDINGS if number == pages else str(number + 1)
        if number > pages:
            raise HTTPException(404, f"page={number}: the wall of {event!r} has {pages} pages")
        shown = ordered[(number - 1) * size : number * size]
        shown_cards = [cards.of(row) for row in shown]
        spotlight = [m for m in featured if any(c["match"] == m for c in shown_cards)] or [
            c["match"] for c in shown_cards if c["playing"]
        ]
        context = {
            "event": event,
            "cards": shown_cards,
            "total": sum(row["events"] for row in rows),
            "stream": f"/api/events/{quote(event)}/wall/events",
            "spotlight": spotlight,
            "rotate": rotate,
            "page": number,
            "pages": pages,
            "count": len(rows),
            "theme": _theme(query.get("theme")),
            "now_ms": round((time.time() - delay) * 1000),  # the clocks run as they ran then
            "delay": delay_words(delay),
            "query": {k: v for k, v in query.items() if k != "page"},
            # a venue screen turning its spotlight goes on to the next page after a round,
            # and to the standings after the last
            "next": f"?{urlencode({**query, 'page': after})}" if rotate else "",
            "standings_link": f"?{urlencode({**query, 'page': STANDINGS})}",
        }
        return page(request, "wall.html", context)

    def wall_standings(request: Request, event: str, rows: list[dict[str, Any]]) -> Response:
        """The standings page of the wall: in a rotation, shown for two of its turns, then
        back to the first page of boards."""
        query = request.query_params
        rotate = _rotate(query.get("rotate"))
        boards = {k: v for k, v in query.items() if k != "page"}
        delay = _delay_of(request)
        context = standings_context(event, rows) | {
            "theme": _theme(query.get("theme")),
            "now_ms": round((time.time() - delay) * 1000),
            "delay": delay_words(delay),
            "stream": f"/api/events/{quote(event)}/wall/events",
            "part": f"/events/{quote(event)}/wall/standings",
            "total": sum(row["events"] for row in rows),
            "boards": f"?{urlencode(boards)}" if boards else "?",
            "rotate": rotate,
            "next": f"?{urlencode(boards)}" if rotate else "",
        }
        return page(request, "wall_standings.html", context)

    def standings_part(request: Request) -> Response:
        event = request.path_params["event"]
        delay = _delay_of(request)
        try:
            rows = walls.rows(event)
        except NotPublicError as error:
            return not_public(request, error, event)
        if delay:  # the results as the wall's delayed boards show them
            rows = delayed.rows(event, rows, delay)
        return page(request, "_wall_standings.html", standings_context(event, rows))

    async def wall_events(request: Request) -> Response:
        event = request.path_params["event"]
        only = _names(request.query_params.get("matches"), "matches") or None
        since = request.headers.get("last-event-id") or request.query_params.get("since")
        try:
            start = int(since) if since is not None else None
        except ValueError:
            raise HTTPException(400, f"since={since!r}: the wall's event count") from None
        opened: list[dict[str, Any]] = []
        delay = _delay_of(request)
        if delay:  # the cards as each change becomes ``delay`` old, worked out once for all
            shown = frozenset(only) if only else None
            try:
                await run_in_threadpool(walls.rows, event)  # 404 / 403 as a live wall's
                said, news = await run_in_threadpool(
                    delayed.wall_stream,
                    event,
                    delay,
                    shown,
                    start,
                    partial(walls.rows_or_none, event),
                    partial(_card_message, cards=cards),
                )
            except NotPublicError as error:
                return not_public(request, error, event)
            return live.follow_news(client_of(request), said, news)

        def follow() -> Subscription:
            subscription, rows = feeds.follow_wall(event, only)
            opened.extend(rows)
            return subscription

        def opening(subscription: Subscription) -> list[str]:
            total = sum(row["events"] for row in opened)
            said = [f"retry: 1000\n: following the wall of {json.dumps(event)} at {total}\n\n"]
            if start is not None and start != total:  # something happened since the page was drawn
                shown = set(only or (row["match_id"] for row in opened))
                said += [_card_message(r, total, cards) for r in opened if r["match_id"] in shown]
            return said

        try:
            return await live.follow(client_of(request), opening, follow)
        except NotPublicError as error:
            return not_public(request, error, event)

    def watch_context(state: MatchState, viewer: str, delay: int = 0) -> dict[str, Any]:
        """The spectator's page of the match as recorded after ``state``'s last event."""
        match_id, at = state.match_id, state.events
        news = feeds.latest(match_id)  # followed live: the hub's news, worked out once a change
        if news is not None and news.known is not None and news.count == at:
            shown = news.known.shown
            history = [line for n, line in news.lines if n not in news.notes]  # (no notes)
            rulings = list(news.rulings)
        else:
            shown = ledger.show(match_id, at)  # as recorded after event ``at``: the same for all
            entries = ledger.history(match_id, at=at)
            history = [history_line(entry) for entry in entries if entry.kind not in NOTES]
            rulings = [history_line(entry) for entry in entries if entry.ruling is not None]
        return {
            "match_id": match_id,
            "event": state.event,
            "state": shown.state,
            "viewer": viewer,
            "svg": board_svg(shown.state, viewer),
            "brief": brief(shown.state),
            "clock": _clock(shown.to_json()["clock"], shown.state.players),
            "events": at,
            "ids": analyst_ids(shown.state),
            "history": history,
            "rulings": rulings,
            "now_ms": round((time.time() - delay) * 1000),  # the clocks run as they ran then
            "delay": delay_words(delay),
        }

    def spectated(request: Request, template: str) -> Response:
        """A spectator's page, or its live part: that one drawn once for every viewer of the
        match at its event count (:class:`_Drawn`)."""
        match_id = request.path_params["match_id"]
        viewer = _viewer(request.query_params.get("from"))
        delay = _delay_of(request)
        at = delayed.shown(match_id, delay)  # None: live
        # the read gate let its reader read it (``delay`` behind: as recorded after ``at``)
        state = ledger.state(match_id) if at is None else delayed.state(match_id, at)
        embedded = "embed" in template
        background = _background(request.query_params.get("background")) if embedded else ""
        key = (template, match_id, state.events, viewer, delay)  # a delayed part says so
        body = drawn.get(key) if template.startswith("_") else None
        if body is None:
            context = watch_context(state, viewer, delay) | {"background": background}
            response = page(request, template, context)
            if template.startswith("_"):  # a live part: the same for every viewer
                drawn.keep(key, bytes(response.body))
        else:
            response = HTMLResponse(body)
        if embedded:
            response.headers["Content-Security-Policy"] = EMBED_CSP  # framed by any site
        return response

    def board(request: Request) -> Response:
        """The board as recorded after event N (``/matches/M/board/N.svg``): the same for
        ever, so every wall shares one drawing and a browser keeps it."""
        match_id, given = request.path_params["match_id"], request.path_params["n"]
        viewer = _viewer(request.query_params.get("from"))
        if not (given.isascii() and given.isdigit()) or len(given) > 9:
            raise HTTPException(400, f"{given!r}: the number of an event of the match")
        delay = _delay_of(request)
        shown = delayed.shown(match_id, delay)
        if shown is not None and int(given) > shown:  # not yet ``delay`` old: not shown yet
            raise HTTPException(
                404,
                f"event {given} of {match_id!r} is not shown yet: its event is published "
                f"with a {delay_words(delay)}, and the board after event {shown} is the latest",
            )
        key = ("board", match_id, int(given), viewer)
        svg = drawn.get(key)
        if svg is None:
            svg = board_svg(ledger.state(match_id, int(given)), viewer).encode()
            drawn.keep(key, svg)
        headers = {"Cache-Control": "public, max-age=31536000, immutable"}
        return Response(svg, media_type="image/svg+xml", headers=headers)

    def watch(request: Request) -> Response:
        return spectated(request, "watch.html")

    def watch_live(request: Request) -> Response:
        return spectated(request, "_watch_live.html")

    def embed(request: Request) -> Response:
        return spectated(request, "embed.html")

    def embed_live(request: Request) -> Response:
        return spectated(request, "_embed_live.html")

    return [
        Route("/events/{event:path}/wall", wall),
        Route("/events/{event:path}/wall/standings", standings_part),
        Route("/api/events/{event:path}/wall/events", wall_events),
        Route("/matches/{match_id}/watch", watch),
        Route("/matches/{match_id}/watch/live", watch_live),
        Route("/matches/{match_id}/embed", embed),
        Route("/matches/{match_id}/embed/live", embed_live),
        Route("/matches/{match_id}/board/{n}.svg", board),
    ]


def _delay_of(request: Request) -> int:
    """How many seconds behind the read gate says the request's reader sees (0: live)."""
    return int(getattr(request.state, "delay", 0) or 0)


def _card_message(row: dict[str, Any], total: int, cards: _Cards) -> str:
    """The ``card`` message of ``row``'s match (``id``: the event's count of events)."""
    return f"id: {total}\nevent: card\ndata: {cards.json(row)}\n\n"


def _message(kind: str, data: dict[str, Any], total: int) -> str:
    return f"id: {total}\nevent: {kind}\ndata: {json.dumps(data)}\n\n"


def _card(row: dict[str, Any], last: str) -> dict[str, Any]:
    """One board of the wall from its read-model row: what the page shows and the stream sends."""
    document = json.loads(row["summary"])
    players = (row["player_a"], row["player_b"])
    cube = document["cube"]
    cube_text = document["now"]["cube"]
    if cube["offered"]:
        cube_text += " · double offered"
    return {
        "match": row["match_id"],
        "events": row["events"],
        "players": players,
        "score": (row["score_a"], row["score_b"]),
        "length": row["length"],
        "cube": cube_text,
        "to_act": None if row["winner"] else document["to_act"],
        "turn": _turn_words(row, document, players),
        "status": status_words(row),
        "playing": not row["winner"] and row["game"] > 0,
        "over": bool(row["winner"]),
        "clock": _clock(document["clock"], players),
        "last": last,
    }


def _turn_words(row: dict[str, Any], document: dict[str, Any], players: tuple[str, str]) -> str:
    """Whose turn and to do what, in words: ``Bob to roll or double``, ``Ann to hit the
    clock``, ``won by Ann`` (the domain's words: ``show --json``'s ``now.turn``)."""
    to_act = document.get("to_act")
    if row["winner"] or not to_act or document.get("phase") in ("between-games", "over", None):
        return status_words(row)
    return str(document["now"]["turn"])


def _clock(clock: dict[str, Any], players: Sequence[str]) -> dict[str, Any] | None:
    """The clock figures a page counts on (:func:`~bgledger.projections.views.summary.clock_json`:
    ``running``'s figure ``t`` ms after ``as_of`` is its reserve less ``max(0, t - delay)``)."""
    reserve = clock.get("reserve_ms")
    if clock.get("mode", "none") == "none" or not reserve:
        return None
    as_of = clock.get("as_of")
    return {
        "mode": clock["mode"],
        "reserve_ms": [reserve["a"], reserve["b"]],
        "text": [clock_text(reserve["a"]), clock_text(reserve["b"])],
        "players": list(players),
        "running": clock.get("running"),
        "stopped": bool(clock.get("stopped")),
        "as_of_ms": round(datetime.fromisoformat(as_of).timestamp() * 1000) if as_of else 0,
        "delay_left_ms": clock.get("delay_left_ms") or 0,
    }


def _ordered(rows: list[dict[str, Any]], featured: Sequence[str]) -> list[dict[str, Any]]:
    """The featured matches in their order, then those in play, not begun, finished."""
    rank = {match: i for i, match in enumerate(featured)}

    def key(row: dict[str, Any]) -> tuple[int, int]:
        if row["match_id"] in rank:
            return (0, rank[row["match_id"]])
        if row["winner"]:
            return (3, 0)
        return (1, 0) if row["game"] > 0 else (2, 0)

    return sorted(rows, key=key)  # stable: in the order started within each group


def _names(given: str | None, name: str) -> list[str]:
    """``M1,M2``: match ids, at most :data:`FEATURED_MOST`."""
    if not given:
        return []
    ids = [part.strip() for part in given.split(",") if part.strip()]
    if len(ids) > FEATURED_MOST or any(len(i) > 100 for i in ids):
        raise HTTPException(400, f"{name}=: at most {FEATURED_MOST} match ids, comma-separated")
    return list(dict.fromkeys(ids))


def _rotate(given: str | None) -> int | None:
    least, most = ROTATE_SECONDS
    if given is None or given == "":
        return None
    if not (given.isascii() and given.isdigit()) or not least <= int(given) <= most:
        raise HTTPException(400, f"rotate={given!r}: seconds from {least} to {most}")
    return int(given)


def _page_number(given: str | None) -> int:
    if given is None or given == "":
        return 1
    if not (given.isascii() and given.isdigit()) or int(given) < 1 or len(given) > 6:
        raise HTTPException(400, f"page={given!r}: a page number from 1")
    return int(given)


def _theme(given: str | None) -> str:
    if given in (None, "", "dark", "light"):
        return given or "dark"
    raise HTTPException(400, f"theme={given!r}: 'dark' or 'light'")


def _viewer(given: str | None) -> str:
    if given in (None, "a", "b"):
        return given or "a"
    raise HTTPException(400, f"from={given!r}: 'a' or 'b'")


def _background(given: str | None) -> str:
    if given in (None, "", "dark", "transparent"):
        return given or "dark"
    raise HTTPException(400, f"background={given!r}: 'dark' or 'transparent'")
