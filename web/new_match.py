"""Starting a match from the browser: the director's form and ``POST /api/matches``.

Routes, added to the application by :func:`new_match_routes` (before
``/matches/MATCH``, which would take ``new`` for a match's id)::

    GET  /matches/new       the form (``?event=E`` fills the event in); its script
                            (``new.js``) keeps the director's token on the device,
                            posts the match as JSON and shows the pad's address
    POST /api/matches       ``{"a": "Ann", "b": "Bob", "length": 7, "event": "Open"}``
                            (``start``'s options, :data:`bgledger.service.START_FIELDS`)
                            with ``Authorization: Bearer TOKEN``: 201 with the match's
                            ``show --json`` document, a new scorekeeper's token for it
                            and the pad's address ``/matches/M/pad#token=T`` (``pad``), the
                            same in full (``pad_url``, on the address the form was
                            opened at) and as a QR code (``pad_qr``, inline SVG)

Who may start a match, and every check of its setup, is
:meth:`bgledger.service.Ledger.start_match`; its errors are mapped by the
application's handlers as every other route's (400 a setup that describes no
match, 401 no token, 403 a token for another event or one match, 409 an id
taken).  A refusal stores nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bgledger.projections.views.svg import qr_svg
from bgledger.service import CLOCKS, DEFAULT_PROFILE, PROFILES, Ledger
from bgledger.web.body import SETUP_LIMIT, bearer_of, json_body

__all__ = ["new_match_routes", "pad_address", "pad_qr"]

Page = Callable[[Request, str, dict[str, Any]], Response]


def pad_address(match_id: str, token: str) -> str:
    """The pad of ``match_id`` with ``token`` after ``#`` (a fragment never leaves the phone)."""
    return f"/matches/{quote(match_id, safe='')}/pad#token={quote(token, safe='')}"


def pad_qr(address: str) -> str:
    """The pad's address as a QR code (:func:`~bgledger.projections.views.svg.qr_svg`)."""
    return qr_svg(address, "the pad's address")


def new_match_routes(ledger: Ledger, page: Page) -> list[Route]:
    """The form's page and the API that starts a match, on ``ledger``."""

    def form(request: Request) -> Response:
        context = {
            "event": request.query_params.get("event", ""),
            "profiles": list(PROFILES),
            "default_profile": DEFAULT_PROFILE,
            "clocks": CLOCKS,
        }
        return page(request, "new.html", context)

    async def start(request: Request) -> Response:
        example = '{"a": "Ann", "b": "Bob", "length": 7}'
        # the token first: a stranger's body is never read (DESIGN principle 11)
        await run_in_threadpool(ledger.starter, bearer_of(request))
        setup = await json_body(request, "the match", example, SETUP_LIMIT)
        key = request.headers.get("idempotency-key")
        started = await run_in_threadpool(
            partial(ledger.start_match, key=key), bearer_of(request), setup
        )
        document = (await run_in_threadpool(ledger.show, started.match_id)).to_json()
        base = str(request.base_url).rstrip("/")  # the address the director's browser used
        answer = {
            "match": document,
            "by": started.by,
            "token": started.token,
            "pad": pad_address(started.match_id, started.token),
            "pad_url": f"{base}{pad_address(started.match_id, started.token)}",
            "pad_qr": pad_qr(f"{base}{pad_address(started.match_id, started.token)}"),
            "replayed": started.replayed,
        }
        headers = {"Location": f"/matches/{quote(started.match_id, safe='')}"}
        if started.replayed:  # a retry answers as the first send did, starting nothing
            headers["Idempotent-Replayed"] = "true"
        return JSONResponse(answer, 201, headers=headers)

    return [
        Route("/matches/new", form),
        Route("/api/matches", start, methods=["POST"]),
    ]
