"""Who reads what over the web (DESIGN principle 14): every read route's gate, in one place.

Each route of the application is declared here with what it shows (:data:`READS`):
a match's record (its page, live part, board, API, stream, ``.mat``, score sheet,
replay, packet, the pad, the spectators' watch and embed), the director's desk of a
match, an event's wall, the director's console, or nothing private (the list, the
static files, the server's clock).  :class:`ReadGate` asks the front door
(:meth:`bgledger.Ledger.may_read`, :meth:`~bgledger.Ledger.may_read_event`) before
the route runs and maps its answer: 401 for a token sent that is not in force, 404
for anything else refused.  An unknown match and a private one answer alike (the same
status, the same words), so the ids of an unpublished event's matches never leak to
whoever guesses them.  A route the table does not name stops the application from
being made (:func:`check_declared`): a new route cannot be open by omission.

The token is ``Authorization: Bearer TOKEN`` (a script, a client), else the cookie
:data:`READER_COOKIE`: a browser asking for a page sends no header, so the refusal
page's script (``static/reader.js``) sets the cookie from the link's ``#token=`` or
the token the device keeps, and loads the page again.  The cookie reads only: a write
needs the header (``SameSite=Strict`` keeps it off other sites' requests too).

A match stream a spectator follows because the event is published (not by a token)
is ended once the event is withdrawn (``publish --off``): its gate looks again every
:data:`RECHECK_SECONDS`.

An event published with a delay (``publish --event E --delay 15m``): the gate tells
each route how far behind its reader sees the match (``request.state.delay``, seconds:
:meth:`bgledger.Ledger.read_delay`; 0 for a token that reaches the match).  Only the
routes declared ``delayed`` show a match behind (:mod:`bgledger.web.delayed`); every
other read of the record (the match page, its API and live part, the score sheet, the
replay, the packet) would show it as it stands now, and is refused to a delayed
spectator (403, naming the delay and the page that shows it).  A stream whose reader's
delay changes (the director changed it) is ended like a withdrawn one; the browser
opens it again, behind by the new delay.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote

from eventsourcing.persistence import PersistenceError
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bgledger.errors import DelayedReadError, UnknownTokenError
from bgledger.rules.errors import BgLedgerError
from bgledger.service import Grant, Ledger, delay_text
from bgledger.web.body import bearer_of

__all__ = [
    "READER_COOKIE",
    "READS",
    "RECHECKS_KEPT",
    "RECHECK_SECONDS",
    "Read",
    "ReadGate",
    "check_declared",
]

READER_COOKIE = "bgledger_read"
"""The cookie a page's script sets to the token it keeps: sent with every read of the site."""
RECHECK_SECONDS = 1.0
"""How often a stream looks whether its reader may still read it (the event withdrawn)."""
RECHECKS_KEPT = 4096
"""Answers of those looks kept (one per reader and thing read, for all its streams)."""

Shows = Literal["open", "list", "match", "desk", "event", "console", "write"]


@dataclass(frozen=True, slots=True)
class Read:
    """What a route shows: ``open`` (nothing private), ``list`` (the matches the reader may
    read: the route filters them with the reader's grant, ``request.state.reader``),
    ``match`` (a match's record and its spectators' surfaces), ``desk`` (the director's
    desk of a match), ``event`` (an event's wall), ``console`` (the director's console of
    an event, or of the ledger), ``write`` (a POST, which checks its own token);
    ``stream``: a live stream; ``delayed``: the route shows a delayed spectator the match as
    it stood that long before (:mod:`bgledger.web.delayed`), and no other route is his."""

    shows: Shows
    stream: bool = False
    delayed: bool = False


OPEN, MATCH, DESK, EVENT, CONSOLE = (Read(s) for s in ("open", "match", "desk", "event", "console"))
WRITE = Read("write")
BEHIND = Read("match", delayed=True)  # a spectator's surface of a match: delayed if published so
READS: dict[str, Read] = {
    "/": Read("list"),
    "/favicon.ico": OPEN,
    "/static": OPEN,
    "/sw.js": OPEN,
    "/api/now": OPEN,
    "/matches/new": OPEN,  # an empty form
    "/receipt": OPEN,  # a receipt checked: only one whose key sealed its match here (committee)
    "/api/matches": WRITE,
    "/api/events/{event:path}/publish": WRITE,
    "/api/events/{event:path}/publication": OPEN,  # published or not, who, when
    "/api/matches/{match_id}/lines": WRITE,
    "/matches/{match_id}.mat": BEHIND,
    "/matches/{match_id}": MATCH,
    "/matches/{match_id}/live": MATCH,
    "/matches/{match_id}/pad": MATCH,
    "/matches/{match_id}/board.svg": MATCH,
    "/api/matches/{match_id}": MATCH,
    "/api/matches/{match_id}/events": Read("match", stream=True, delayed=True),
    "/api/matches/{match_id}/rulings": MATCH,
    "/matches/{match_id}/replay": MATCH,
    "/matches/{match_id}/replay/step": MATCH,
    "/matches/{match_id}/packet": MATCH,
    "/matches/{match_id}/scoresheet": MATCH,
    "/events/{event:path}/wall": Read("event", delayed=True),
    "/events/{event:path}/wall/standings": Read("event", delayed=True),
    "/api/events/{event:path}/wall/events": Read("event", stream=True, delayed=True),
    "/matches/{match_id}/watch": BEHIND,
    "/matches/{match_id}/watch/live": BEHIND,
    "/matches/{match_id}/embed": BEHIND,
    "/matches/{match_id}/embed/live": BEHIND,
    "/matches/{match_id}/board/{n}.svg": BEHIND,
    "/director": CONSOLE,
    "/director/live": CONSOLE,
    "/director/cards/{match_id}": DESK,
    "/director/standings": CONSOLE,
    "/events/{event:path}/director/standings": CONSOLE,
    "/events/{event:path}/director/live": CONSOLE,
    "/events/{event:path}/director/cards/{match_id}": DESK,
    "/events/{event:path}/director": CONSOLE,
    "/api/director/events": Read("console", stream=True),
    "/api/events/{event:path}/events": Read("console", stream=True),
    "/matches/{match_id}/desk": DESK,
    "/matches/{match_id}/desk/history": MATCH,  # the record by event number: the pad's More
}
"""Every route's :class:`Read`, by its path as declared."""

Answer = Callable[[Request, Exception], Awaitable[Response]]
"""The application's answer to a library error (a page or a JSON body, as its handlers)."""


def check_declared(routes: Sequence[BaseRoute]) -> None:
    """Refuse to make an application with a route :data:`READS` does not name.

    :raises LookupError: naming the route.
    """
    for route in routes:
        path = route.path if isinstance(route, Route | Mount) else None
        if path not in READS:
            raise LookupError(
                f"route {path!r} says nothing of who reads it: declare it in "
                "bgledger.web.reads.READS (DESIGN principle 14)"
            )


def reader_token(request: Request) -> tuple[str | None, bool]:
    """The token a read carries, and whether it came in the ``Authorization`` header."""
    sent = bearer_of(request)
    if sent:
        return sent, True
    return request.cookies.get(READER_COOKIE) or None, False


class ReadGate:
    """ASGI middleware: each GET and HEAD is let through only if the front door says its
    reader may read what the route shows (see the module's text)."""

    def __init__(
        self, app: ASGIApp, ledger: Ledger, routes: Sequence[BaseRoute], answer: Answer
    ) -> None:
        check_declared(routes)
        self.app = app
        self.ledger = ledger
        self.routes = routes
        self.answer = answer
        self._rechecked: dict[tuple[object, ...], tuple[float, bool, int]] = {}
        self._asking: dict[tuple[object, ...], asyncio.Future[tuple[bool, int]]] = {}

    def _route(self, scope: Scope) -> tuple[Read, dict[str, str]]:
        for route in self.routes:
            matched, child = route.matches(scope)
            if matched == Match.FULL:
                path = route.path if isinstance(route, Route | Mount) else ""
                return READS[path], dict(child.get("path_params", {}))
        return OPEN, {}  # the router answers 404 or 405 itself

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        read, params = self._route(scope)
        if read.shows in ("open", "write"):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        token, sent = reader_token(request)
        delay = 0
        try:
            grant = await run_in_threadpool(self._grant, token, sent) if token else None
            if read.shows != "list":
                may, delay = await self._still(read, params, grant)
                if not may:
                    await run_in_threadpool(self._refuse, read, params, grant)
                if delay and not read.delayed:
                    raise DelayedReadError(_delayed_refusal(params, delay))
        except (BgLedgerError, PersistenceError, SQLAlchemyError) as error:
            await (await self.answer(request, error))(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        state["reader"], state["delay"] = grant, delay
        if read.stream:  # a stream: ended once its reader may no longer read it
            await self._watched(read, params, grant, delay, scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _refuse(self, read: Read, params: dict[str, str], grant: Grant | None) -> None:
        """Refuse what the reader may not read, with the front door's words.

        :raises UnreadableError: for what the reader may not read.
        """
        ledger, desk = self.ledger, read.shows in ("desk", "console")
        if "match_id" in params:
            ledger.check_read(params["match_id"], grant, desk=desk)
        else:
            ledger.check_read_event(params.get("event"), grant, desk=desk)

    def _grant(self, token: str | None, sent: bool) -> Grant | None:
        """The grant of the token a read carries (a cookie's not in force: as none).

        :raises UnknownTokenError: for a token sent in the header that is not in force.
        """
        try:
            return self.ledger.reader(token)
        except UnknownTokenError:
            if sent:
                raise
            return None

    async def _still(
        self, read: Read, params: dict[str, str], grant: Grant | None
    ) -> tuple[bool, int]:
        """Whether the reader may read it, and how many seconds behind (its event's delay, for
        a spectator): asked of the front door once a :data:`RECHECK_SECONDS` for every
        request of one reader of one thing (a room of spectators on one match, or 1,000
        streams opened at once, cost one question a second, not one a request); so a change
        of publication shows within that time.

        The requests that come while the question is being asked wait for its answer:
        1,000 pages reconnecting at once (a server restarted) ask it once, not once each
        (each asking took a thread and a database connection, and past the open-files
        limit the database could not be opened: 503)."""
        key = (read.shows, tuple(sorted(params.items())), grant, self.ledger.publication_changes)
        now = time.monotonic()
        known = self._rechecked.get(key)
        if known is not None and now - known[0] < RECHECK_SECONDS:
            return known[1], known[2]
        asking = self._asking.get(key)
        if asking is None:
            asking = self._asking[key] = asyncio.ensure_future(
                self._ask(key, now, read, params, grant)
            )
            asking.add_done_callback(_heard)
        # shielded: a client that goes away stops waiting, not the question the others wait on
        return await asyncio.shield(asking)

    async def _ask(
        self,
        key: tuple[object, ...],
        now: float,
        read: Read,
        params: dict[str, str],
        grant: Grant | None,
    ) -> tuple[bool, int]:
        """:meth:`_may` in the thread pool, its answer kept as of ``now`` for :meth:`_still`."""
        try:
            may, delay = await run_in_threadpool(self._may, read, params, grant)
        finally:
            del self._asking[key]
        if len(self._rechecked) >= RECHECKS_KEPT:  # bounded: forget the oldest
            self._rechecked.pop(next(iter(self._rechecked)))
        self._rechecked[key] = (now, may, delay)
        return may, delay

    def _may(self, read: Read, params: dict[str, str], grant: Grant | None) -> tuple[bool, int]:
        desk = read.shows in ("desk", "console")
        ledger = self.ledger
        if "match_id" in params:
            match_id = params["match_id"]
            if not ledger.may_read(match_id, grant, desk=desk):
                return False, 0
            return True, 0 if desk else ledger.read_delay(match_id, grant)
        event = params.get("event")
        if not ledger.may_read_event(event, grant, desk=desk):
            return False, 0
        return True, 0 if desk else ledger.read_delay_event(event, grant)

    async def _watched(
        self,
        read: Read,
        params: dict[str, str],
        grant: Grant | None,
        delay: int,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        """Run a stream; end it once its reader may no longer read it (withdrawn), or reads it
        behind by another delay than it opened with (the browser opens it again)."""
        started = ended = False

        async def sending(message: Message) -> None:
            nonlocal started
            if ended:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        task = asyncio.ensure_future(self.app(scope, receive, sending))
        try:
            while not task.done():
                await asyncio.wait({task}, timeout=RECHECK_SECONDS)
                if task.done():
                    break
                if await self._still(read, params, grant) != (True, delay):
                    ended = True
                    task.cancel()
                    if started:
                        bye = b"event: withdrawn\ndata: {}\n\n"
                        await send({"type": "http.response.body", "body": bye, "more_body": False})
                    break
        finally:
            if not task.done():
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _heard(asked: asyncio.Future[tuple[bool, int]]) -> None:
    """Take a question's error as heard: the readers who waited for it were each answered
    with it, or had gone (asyncio would log it as never retrieved)."""
    if not asked.cancelled():
        asked.exception()


def _delayed_refusal(params: dict[str, str], delay: int) -> str:
    """Why a delayed spectator may not read a route that shows the match as it stands now."""
    if "match_id" in params:
        match_id = params["match_id"]
        where = f"/matches/{quote(match_id, safe='')}/watch"
        what = f"match {match_id!r}"
    else:
        where, what = "its wall", f"event {params.get('event')!r}"
    return (
        f"{what} is published to spectators with a {delay_text(delay)} delay, and this shows "
        f"it as it stands now: follow it on {where}, {delay_text(delay)} behind (or open "
        "the link with a token that reaches the match)"
    )
