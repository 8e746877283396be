"""What a write to the JSON API sends: its bearer token and its JSON body.

Shared by ``POST /api/matches/MATCH/lines`` (:mod:`bgledger.web.app`) and
``POST /api/matches`` (:mod:`bgledger.web.new_match`).  A body that is not
JSON is an :class:`~starlette.exceptions.HTTPException` (415 for another
Content-Type, 400 for what does not parse or lacks a field), which the
application answers as ``{"error": ...}`` on ``/api/``.  Requiring
``Content-Type: application/json`` is what keeps a cross-site HTML form out.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request

__all__ = ["bearer_of", "json_body", "text_field"]


def bearer_of(request: Request) -> str | None:
    """The bearer token of ``Authorization: Bearer TOKEN``, if any."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


async def json_body(request: Request, what: str, example: str) -> Any:
    """The request's body read as JSON: ``what`` it carries (``the line``) and an ``example``
    of it name the fix in the 415 (not ``Content-Type: application/json``) and the 400."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HTTPException(415, f"send {what} as JSON: Content-Type: application/json")
    try:
        return json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        raise HTTPException(400, f"the body is not JSON: {example}") from None


def text_field(body: Any, name: str, example: str) -> str:
    """The string ``body[name]`` of a JSON object; 400 with ``example`` otherwise."""
    value = body.get(name) if isinstance(body, dict) else None
    if not isinstance(value, str):
        raise HTTPException(400, f"give the {name} as {example}")
    return value
