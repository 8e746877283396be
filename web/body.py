"""What a write to the JSON API sends: its bearer token and its JSON body.

Shared by ``POST /api/matches/MATCH/lines`` (:mod:`bgledger.web.app`) and
``POST /api/matches`` (:mod:`bgledger.web.new_match`).  A body that is not
JSON is an :class:`~starlette.exceptions.HTTPException` (415 for another
Content-Type, 400 for what does not parse or lacks a field), which the
application answers as ``{"error": ...}`` on ``/api/``.  Requiring
``Content-Type: application/json`` is what keeps a cross-site HTML form out.

Bounded at the edge (DESIGN principle 11): the body is read as it arrives and
refused (413) once past its limit, whatever ``Content-Length`` says
(:data:`LINE_LIMIT` for a line, :data:`SETUP_LIMIT` for a match's setup); JSON
nested deeper than :data:`MAX_DEPTH` is refused (400) before the parser
recurses into it.  A body that has not all arrived :data:`BODY_SECONDS` after
the route began to read it is cut off (408): a client that trickles its body
holds no connection for long, and a line never goes in long after its token was
checked (the write checks it again, in its own transaction:
:meth:`bgledger.Ledger.record`).  The routes check the bearer token before calling
:func:`json_body`: a stranger's body is never read.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request

__all__ = [
    "BODY_SECONDS",
    "LINE_LIMIT",
    "MAX_DEPTH",
    "SETUP_LIMIT",
    "bearer_of",
    "json_body",
    "text_field",
]

LINE_LIMIT = 64 * 1024
"""Bytes a line's body may have: a line of the record language is at most a few KB."""
SETUP_LIMIT = 256 * 1024
"""Bytes a match's setup may have."""
MAX_DEPTH = 32
"""How deep a body's arrays and objects may nest (a line or a setup nests two deep)."""
BODY_SECONDS = 5.0
"""Seconds a body may take to arrive once the route reads it: a line (a few hundred bytes)
or a setup comes in one packet, and 64 KB over a venue's worst Wi-Fi in well under this."""


def bearer_of(request: Request) -> str | None:
    """The bearer token of ``Authorization: Bearer TOKEN``, if any."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


async def json_body(request: Request, what: str, example: str, limit: int) -> Any:
    """The request's body read as JSON: ``what`` it carries (``the line``) and an ``example``
    of it name the fix in the 415 (not ``Content-Type: application/json``) and the 400.

    At most ``limit`` bytes are read: past them, 413 (so is a ``Content-Length``
    past them, before a byte is read); a body still arriving after :data:`BODY_SECONDS`, 408.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HTTPException(415, f"send {what} as JSON: Content-Type: application/json")
    too_big = f"{what} is larger than {limit // 1024} KB: send less"
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise HTTPException(413, too_big)
    chunks, size = [], 0
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise HTTPException(413, too_big)
                chunks.append(chunk)
    except TimeoutError:
        late = f"{what} did not arrive within {BODY_SECONDS:g} s: nothing was recorded; send again"
        raise HTTPException(408, late) from None
    body = b"".join(chunks)
    if _too_deep(body):
        raise HTTPException(400, f"the body is nested deeper than {MAX_DEPTH}: {example}")
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise HTTPException(400, f"the body is not JSON: {example}") from None


def _too_deep(body: bytes) -> bool:
    """Whether the arrays and objects of ``body`` nest deeper than :data:`MAX_DEPTH`,
    brackets inside strings aside (one pass, no recursion; :func:`json.loads` judges the
    rest)."""
    depth, in_string, escaped = 0, False, False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return False


def text_field(body: Any, name: str, example: str) -> str:
    """The string ``body[name]`` of a JSON object; 400 with ``example`` otherwise."""
    value = body.get(name) if isinstance(body, dict) else None
    if not isinstance(value, str):
        raise HTTPException(400, f"give the {name} as {example}")
    return value
