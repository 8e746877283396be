"""The scorekeeper's pad, in-process: the page, its controls, its token field, its escaping.

The pad (``GET /matches/MATCH/pad``) is a page and a script; whatever it
records goes through ``POST /api/matches/MATCH/lines`` (tests/test_web.py).
What it does in a browser is tests/test_web_pad_browser.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bgledger.service import Ledger

HOSTILE = '<script>alert("x")</script>'


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", HOSTILE), 5, match_id="final", by="kim")
    yield ledger
    ledger.close()


def test_the_pad_has_every_control_and_the_token_field(client: TestClient) -> None:
    response = client.get("/matches/final/pad")
    assert response.status_code == 200
    page = response.text
    assert 'id="token"' in page and 'type="password"' in page
    controls = "hit dice-confirm play-confirm step-undo play-clear line amend-n amend-line"
    for control in controls.split():
        assert f'id="{control}"' in page, control
    lines = ["double", "take", "drop", "accept", "reject", "undo", "break end"]
    lines += ["accept-roll", "refuse-roll"]
    lines += [f"resign {kind}" for kind in ("single", "gammon", "backgammon")]
    lines += [f"break start {who}" for who in ("a", "b", "both")]
    for line in lines:
        assert f'data-line="{line}"' in page, line
    assert page.count('class="die"') == 12  # two rows of faces 1-6
    assert "<svg" in page and page.count('class="checker mine"') == 15
    assert '/static/pad.js"' in page and "<script>" not in page  # the CSP forbids inline script


def test_the_pad_escapes_the_players_names(client: TestClient) -> None:
    page = client.get("/matches/final/pad").text
    assert HOSTILE not in page
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page


def test_the_pad_draws_the_board_from_one_side_whoever_is_on_roll(
    ledger: Ledger, client: TestClient
) -> None:
    ledger.record_line("final", "opening 1 3", by="kim")  # the second player wins the roll
    page = client.get("/matches/final/pad").text
    assert 'data-from="a"' in page  # the first player's side, not the mover's
    six = page.split('data-point="6">')[1].split("</g>")[0]
    assert six.count('class="checker mine"') == 5  # the first player's 6 point
    turned = client.get("/matches/final/pad?from=b").text  # the scorekeeper turned it
    assert 'data-from="b"' in turned


def test_the_pad_of_an_unknown_match_is_a_404_page(client: TestClient) -> None:
    response = client.get("/matches/nosuch/pad")
    assert response.status_code == 404
    assert "nosuch" in response.text


def test_the_pad_script_and_stylesheet_are_served_by_the_app(client: TestClient) -> None:
    script = client.get("/static/pad.js")
    assert script.status_code == 200 and "/api/matches/" in script.text
    assert client.get("/static/pad.css").status_code == 200
    policy = client.get("/matches/final/pad").headers["content-security-policy"]
    assert "default-src 'self'" in policy
