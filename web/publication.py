"""An event published to spectators, and a match's live ``.mat`` for commentators (issue 26).

Routes, added to the application by :func:`publication_routes`::

    POST /api/events/EVENT/publish      ``{"published": true}`` opens the event's wall to
                                        spectators (``"delay": "15m"``: every match as it
                                        stood 15 minutes before), ``false`` closes it: the
                                        event's director's
                                        token (``Authorization: Bearer``), optionally
                                        ``Idempotency-Key`` (a retry answers as the first send
                                        did); 201 when a change is recorded, 200 when the wall
                                        was so already (nothing recorded)
    GET  /api/events/EVENT/publication  ``{"event", "published", "by", "at"}``: the wall as its
                                        latest change left it (open to all)
    GET  /matches/MATCH.mat             the match so far as a ``.mat`` file, for gnubg or XG
                                        (``export MATCH --format mat``); a game in progress
                                        ends at its last roll; a spectator of an event
                                        published with a delay gets it as it stood then

The front door decides who may publish and records it
(:meth:`bgledger.Ledger.publish`); the answers are its documents.
"""

from __future__ import annotations

from functools import partial

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bgledger.service import Ledger, checked_delay, parse_delay
from bgledger.web.body import LINE_LIMIT, bearer_of, json_body
from bgledger.web.delayed import Delayed

__all__ = ["publication_routes"]


def publication_routes(ledger: Ledger, delayed: Delayed | None = None) -> list[Route]:
    """The routes on ``ledger``: put them before ``/matches/{match_id}``, which would take
    ``M.mat`` for a match's id.  ``delayed``: what spectators of a delayed event see."""
    delayed = Delayed(ledger) if delayed is None else delayed

    async def publish(request: Request) -> Response:
        event = request.path_params["event"]
        grant = await run_in_threadpool(ledger.publisher, bearer_of(request), event)
        example = '{"published": true}'
        body = await json_body(request, "the change", example, LINE_LIMIT)
        value = body.get("published") if isinstance(body, dict) else None
        if not isinstance(value, bool):
            raise HTTPException(400, f"give published as true or false: {example}")
        given = body.get("delay", 0) if isinstance(body, dict) else 0
        if isinstance(given, str):
            seconds = parse_delay(given)  # "15m"; a bad one is refused by name (400)
        elif isinstance(given, int) and not isinstance(given, bool):
            seconds = checked_delay(given)
        else:
            raise HTTPException(400, f"delay={given!r}: give it as '15m', '90s', '1h' or seconds")
        key = request.headers.get("idempotency-key")
        act = partial(ledger.publish, on=value, by=grant.label, grant=grant, key=key, delay=seconds)
        done = await run_in_threadpool(act, event)
        headers = {"Idempotent-Replayed": "true"} if done.replayed else None
        document = {**done.to_json(), "message": done.text()}
        return JSONResponse(document, 201 if done.recorded else 200, headers=headers)

    def publication(request: Request) -> Response:
        document = ledger.publication(request.path_params["event"]).to_json()
        return JSONResponse(document, headers={"Cache-Control": "no-store"})

    def mat_file(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        headers = {
            "Content-Disposition": f'attachment; filename="{match_id}.mat"',
            "Cache-Control": "no-store",  # the match so far: the next line changes it
        }
        delay = getattr(request.state, "delay", 0)  # the read gate's: a delayed spectator's
        text = ledger.export(match_id, "mat", delayed.shown(match_id, delay) if delay else None)
        return Response(text, media_type="text/plain; charset=utf-8", headers=headers)

    return [
        Route("/matches/{match_id}.mat", mat_file),
        Route("/api/events/{event:path}/publish", publish, methods=["POST"]),
        Route("/api/events/{event:path}/publication", publication),
    ]
