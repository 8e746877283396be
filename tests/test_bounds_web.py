"""Bounded at the edge (DESIGN principle 11, issue 25): what a write to the JSON API may send.

A body is read as it arrives and refused (413, with a message) once past its
limit: :data:`~bgledger.web.body.LINE_LIMIT` for a line,
:data:`~bgledger.web.body.SETUP_LIMIT` for a match's setup.  The bearer token is
checked before a byte of the body is read, on both writes.  JSON nested deeper
than :data:`~bgledger.web.body.MAX_DEPTH` is a 400 with a message: no
RecursionError, no 500, no traceback in the log.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.testclient import TestClient

from bgledger.service import Ledger
from bgledger.web import create_app
from tests.webclient import bearer

CHUNK = 1024
LINE_LIMIT, SETUP_LIMIT, MAX_DEPTH = 64 * 1024, 256 * 1024, 32
"""The limits, as the issue sets them (:func:`test_the_limits_are_the_issues`)."""


def test_the_limits_are_the_issues() -> None:
    from bgledger.web import body

    assert (body.LINE_LIMIT, body.SETUP_LIMIT, body.MAX_DEPTH) == (
        LINE_LIMIT, SETUP_LIMIT, MAX_DEPTH
    )  # fmt: skip


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="m", event="Open", by="kim")
    yield ledger
    ledger.close()


class Sender:
    """An ASGI ``receive`` that sends ``chunks`` chunks of ``CHUNK`` bytes, counting the reads."""

    def __init__(self, chunks: int) -> None:
        self.chunks, self.read = chunks, 0

    async def __call__(self) -> dict[str, Any]:
        self.read += 1
        more = self.read < self.chunks
        return {"type": "http.request", "body": b" " * CHUNK, "more_body": more}


def scope(path: str, headers: dict[str, str]) -> dict[str, Any]:
    pairs = [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    return {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(),
            "query_string": b"", "headers": pairs, "root_path": "", "scheme": "http",
            "server": ("testserver", 80), "client": ("testclient", 1), "http_version": "1.1",
            "app": None}  # fmt: skip


def asgi_post(ledger: Ledger, path: str, headers: dict[str, str], sender: Sender) -> int:
    """Post to the application itself (no test client reading the body first): the status."""
    app, statuses = create_app(ledger), []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    anyio.run(app, scope(path, headers), sender, send)
    return statuses[0]


@pytest.mark.parametrize("limit", [LINE_LIMIT, SETUP_LIMIT])
def test_a_body_past_its_limit_is_refused_while_it_is_read(limit: int) -> None:
    from bgledger.web.body import json_body

    sender = Sender(100_000)  # 100 MB, if it were read whole
    request = Request(scope("/api/x", {"content-type": "application/json"}), sender)
    with pytest.raises(HTTPException) as refused:
        anyio.run(json_body, request, "the line", "{}", limit)
    assert refused.value.status_code == 413
    assert f"{limit // 1024} KB" in str(refused.value.detail)
    assert sender.read <= limit // CHUNK + 1  # it stopped reading just past the limit


def test_a_declared_length_past_the_limit_is_refused_before_reading() -> None:
    from bgledger.web.body import json_body

    sender = Sender(1)
    headers = {"content-type": "application/json", "content-length": str(10 * LINE_LIMIT)}
    request = Request(scope("/api/x", headers), sender)
    with pytest.raises(HTTPException) as refused:
        anyio.run(json_body, request, "the line", "{}", LINE_LIMIT)
    assert refused.value.status_code == 413
    assert sender.read == 0


@pytest.mark.parametrize("path", ["/api/matches", "/api/matches/m/lines"])
@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_the_token_is_checked_before_the_body_is_read(
    ledger: Ledger, path: str, token: str | None
) -> None:
    headers = {"content-type": "application/json"} | (bearer(token) if token else {})
    sender = Sender(100_000)
    assert asgi_post(ledger, path, headers, sender) == 401
    assert sender.read == 0


def test_a_big_setup_with_a_directors_token_is_413(ledger: Ledger, client: TestClient) -> None:
    director = ledger.issue_token("director", event="Open", label="Dora")
    body = json.dumps({"a": "Ann", "b": "Bob", "length": 7, "event": "Open",
                       "padding": "x" * SETUP_LIMIT})  # fmt: skip
    headers = bearer(director) | {"content-type": "application/json"}
    answer = client.post("/api/matches", content=body, headers=headers)
    assert answer.status_code == 413, answer.text
    assert "256 KB" in answer.json()["error"]
    assert ledger.match_ids() == ["m"]


def test_a_big_line_is_413(ledger: Ledger, client: TestClient) -> None:
    keeper = ledger.issue_token("scorekeeper", match_id="m", label="Sam")
    body = json.dumps({"line": "note " + "x" * LINE_LIMIT})
    headers = bearer(keeper) | {"content-type": "application/json"}
    answer = client.post("/api/matches/m/lines", content=body, headers=headers)
    assert answer.status_code == 413, answer.text
    assert "64 KB" in answer.json()["error"]
    assert len(ledger.events("m")) == 1


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 2_000, 100_000])
def test_deeply_nested_json_is_400_and_no_traceback(
    ledger: Ledger, client: TestClient, caplog: pytest.LogCaptureFixture, depth: int
) -> None:
    director = ledger.issue_token("director", event="Open", label="Dora")
    body = "[" * depth + "]" * depth
    headers = bearer(director) | {"content-type": "application/json"}
    with caplog.at_level(logging.DEBUG):
        answer = client.post("/api/matches", content=body, headers=headers)
    assert answer.status_code == 400, answer.text
    assert f"nested deeper than {MAX_DEPTH}" in answer.json()["error"]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert ledger.match_ids() == ["m"]


def test_nesting_inside_strings_does_not_count(ledger: Ledger, client: TestClient) -> None:
    keeper = ledger.issue_token("scorekeeper", match_id="m", label="Sam")
    line = "note " + "[{" * 100 + '\\"'
    headers = bearer(keeper) | {"content-type": "application/json"}
    answer = client.post("/api/matches/m/lines", content=json.dumps({"line": line}),
                         headers=headers)  # fmt: skip
    assert answer.status_code == 201, answer.text
