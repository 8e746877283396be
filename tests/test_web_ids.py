"""The position for analysts and commentators: gnubg's Position ID and Match ID and XG's XGID.

The match page (and its live part, as the page refetches it) and every step of the
committee's replay show the three, each with a copy button whose text is the id; the
ids are those of ``show`` (``board``, ``match_id_gnubg``), and the XGID reads back to
the same position and match state (:func:`bgledger.rules.xgid.decode_xgid`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bgledger.projections.views.summary import xgid_of
from bgledger.rules.xgid import decode_xgid
from bgledger.service import Ledger
from bgledger.web import create_app
from tests.webclient import reading


@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[TestClient, Ledger]]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 7, match_id="m", by="kim")
    for line in ("opening 5 2", "move 13/8 24/22", "double"):
        ledger.record_line("m", line, by="kim")
    with reading(TestClient(create_app(ledger)), ledger) as client:
        yield client, ledger
    ledger.close()


def copied(page: str) -> dict[str, str]:
    """The copy buttons' texts, by the id's name."""
    rows = re.findall(r"<dt>([^<]+)</dt><dd><code class=\"id-value\">([^<]+)</code> "
                      r"<button[^>]*data-copy=\"([^\"]+)\"", page)  # fmt: skip
    assert all(shown == copy for _, shown, copy in rows)
    return {name: copy for name, _, copy in rows}


def test_the_match_page_shows_the_ids_of_show(client: tuple[TestClient, Ledger]) -> None:
    http, ledger = client
    shown = ledger.show("m").to_json()
    for url in ("/matches/m", "/matches/m/live?ids=1"):
        ids = copied(http.get(url).text)
        assert ids["Position ID"] == shown["board"]
        assert ids["Match ID"] == shown["match_id_gnubg"]
        found = decode_xgid(ids["XGID"])
        assert found.position.position_id == shown["board"]
        assert found.match_id().encode() == shown["match_id_gnubg"]  # doubled, Ann's cube
        assert found.doubled and found.match_length == 7
    assert copied(http.get("/matches/m/live").text) == {}  # the pad's live part: the board only
    assert 'src="/static/copy.js"' in http.get("/matches/m").text.replace("http://testserver", "")


def test_every_replay_step_shows_its_ids(client: tuple[TestClient, Ledger]) -> None:
    http, ledger = client
    last = len(ledger.events("m"))
    for at in range(1, last + 1):
        state = ledger.replay("m", at, "recorded").state
        for url in (f"/matches/m/replay?at={at}", f"/matches/m/replay/step?at={at}"):
            ids = copied(http.get(url).text)
            assert ids["Position ID"] == state.position.position_id
            assert ids["XGID"] == xgid_of(state)
            assert decode_xgid(ids["XGID"]).position.position_id == state.position.position_id


def test_the_starting_xgid() -> None:
    ledger = Ledger("sqlite://")
    try:
        ledger.start(("Ann", "Bob"), 7, match_id="m", by="kim")
        ledger.record_line("m", "opening 5 2", by="kim")
        expected = "XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:0:7:10"
        assert xgid_of(ledger.state("m")) == expected
    finally:
        ledger.close()
