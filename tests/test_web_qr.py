"""Onto the phone in one step: the pad's address as a QR code, from the form and ``token``.

``POST /api/matches`` answers the pad's full address (on the address the form was opened
at) and its QR code as inline SVG, drawn on the server by segno; ``bgledger token MATCH
--qr URL`` prints the token, the pad's address on that server and the same code drawn in
the terminal, which :mod:`tests.qr` reads back.  The director's token is kept under one
name by every page, and the console's hint issues a token that works (``--event``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from bgledger.cli.main import main
from bgledger.service import Ledger
from bgledger.web import create_app
from tests.qr import decode, terminal_rows
from tests.webclient import reading


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    yield ledger
    ledger.close()


def test_a_started_match_answers_the_pads_address_as_a_qr_code(ledger: Ledger) -> None:
    director = ledger.issue_token("director", event="Open", label="Dora")
    with reading(
        TestClient(create_app(ledger), base_url="http://192.168.1.20:8000"), ledger
    ) as client:
        body = {"a": "Ann", "b": "Bob", "length": 7, "event": "Open", "id": "r1t4"}
        answer = client.post(
            "/api/matches", json=body, headers={"Authorization": f"Bearer {director}"}
        ).json()
    assert answer["pad_url"] == f"http://192.168.1.20:8000{answer['pad']}"
    assert answer["pad_qr"].startswith("<svg ") and "<script" not in answer["pad_qr"]
    assert 'class="segno"' in answer["pad_qr"]


def test_token_qr_prints_the_pads_address_and_its_code(ledger: Ledger, tmp_path: Path) -> None:
    ledger.start(("Ann", "Bob"), 3, match_id="final", by="kim")
    db = f"sqlite:///{tmp_path / 'ledger.db'}"
    runner = CliRunner()
    args = ["--db", db, "token", "final", "--role", "scorekeeper"]
    done = runner.invoke(main, [*args, "--qr", "http://192.168.1.20:8000/"])
    assert done.exit_code == 0, done.output
    token, said, *drawn = done.output.splitlines()
    pad = f"http://192.168.1.20:8000/matches/final/pad#token={token}"
    assert said == f"the pad: {pad}"
    assert decode(terminal_rows("\n".join(drawn))) == pad
    refused = runner.invoke(main, ["--db", db, "token", "--role", "committee", "--qr", "http://x"])
    assert refused.exit_code != 0 and "--qr goes with a MATCH" in refused.output
    refused = runner.invoke(main, [*args, "--qr", "192.168.1.20"])
    assert refused.exit_code != 0 and "http://HOST:PORT" in refused.output


def test_the_directors_token_is_kept_under_one_name(ledger: Ledger) -> None:
    with reading(TestClient(create_app(ledger)), ledger) as client:
        form = client.get("/matches/new").text
        console = client.get("/events/Open 2026/director").text
    assert 'data-key="bgledger.director.token"' in form
    assert 'data-key="bgledger.director.token"' in console
    assert "bgledger token --event &#39;Open 2026&#39; --role director" in console
