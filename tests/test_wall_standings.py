"""Standings on the wall (issue 35): a page of the wall's rotation shows the event's standings,
updated live, from the same rows as its boards; gated on publication as the wall is.

The expected tables are worked out by hand from the results recorded below.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bgledger.service import Ledger
from bgledger.web import create_app

MATCHES = {"r1": ("Ann", "Bob"), "r2": ("Cy", "Dee"), "r3": ("Ann", "Cy")}
"""The 1-point matches of the event Open; r1 and r3 are finished below, r2 is under way."""


def finish(ledger: Ledger, match_id: str, loser: str) -> None:
    """The match won by the player who is not ``loser`` (a or b): the opening, then a
    single game conceded (as played: the players may agree it, USBGF 4.5) and accepted."""
    ledger.record_line(match_id, "opening 6 5" if loser == "b" else "opening 5 6", by="kim")
    ledger.record_line(match_id, "move 24/18 18/13", by="kim")
    ledger.record_line(match_id, f"resign single {loser} --as-played", by="kim")
    ledger.record_line(match_id, "accept", by="kim")


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    for match_id, players in MATCHES.items():
        ledger.start(players, 1, match_id=match_id, by="kim", event="Open")
    finish(ledger, "r1", loser="b")  # Ann beats Bob 1-0
    ledger.record_line("r2", "opening 3 1", by="kim")  # Cy v Dee under way
    yield ledger
    ledger.close()


def table(html: str) -> list[tuple[str, ...]]:
    """The standings' rows: rank, player, won, lost, playing, points."""
    rows = re.findall(r"<tr><td class=\"rank\">(.*?)</tr>", html, re.DOTALL)
    return [tuple(re.findall(r">([^<]*)</td>", f">{row}")) for row in rows]


def test_the_standings_page_ranks_the_players_from_the_results(ledger: Ledger) -> None:
    ledger.publish("Open", by="the director")
    with TestClient(create_app(ledger)) as client:  # a spectator: no token
        page = client.get("/events/Open/wall", params={"page": "standings"})
        assert page.status_code == 200
        # Ann 1 won; Cy and Dee none lost (one match each under way, Cy's r3 not begun);
        # Bob 1 lost
        assert table(page.text) == [
            ("1", "Ann", "1", "0", "1", "1-0"),
            ("2", "Cy", "0", "0", "2", "0-0"),
            ("2", "Dee", "0", "0", "1", "0-0"),
            ("4", "Bob", "0", "1", "0", "0-1"),
        ]
        finish(ledger, "r3", loser="a")  # Cy beats Ann
        part = client.get("/events/Open/wall/standings")  # what the page fetches, live
        assert table(part.text) == [
            ("1", "Cy", "1", "0", "1", "1-0"),
            ("2", "Ann", "1", "1", "0", "1-1"),
            ("3", "Dee", "0", "0", "1", "0-0"),
            ("4", "Bob", "0", "1", "0", "0-1"),
        ]


def test_the_standings_are_private_until_the_event_is_published(ledger: Ledger) -> None:
    with TestClient(create_app(ledger)) as client:
        page = client.get("/events/Open/wall", params={"page": "standings"})
        assert page.status_code in (403, 404) and "Ann" not in page.text
        part = client.get("/events/Open/wall/standings")
        assert part.status_code in (403, 404) and "Ann" not in part.text


def test_the_rotation_ends_each_round_on_the_standings_and_goes_back_to_the_boards(
    ledger: Ledger,
) -> None:
    ledger.publish("Open", by="the director")
    with TestClient(create_app(ledger)) as client:
        boards = client.get("/events/Open/wall", params={"rotate": "10", "theme": "light"})
        assert 'data-next="?rotate=10&amp;theme=light&amp;page=standings"' in boards.text
        standings = client.get(
            "/events/Open/wall", params={"rotate": "10", "theme": "light", "page": "standings"}
        )
        assert 'data-next="?rotate=10&amp;theme=light"' in standings.text
        assert 'data-rotate="10"' in standings.text
        still = client.get("/events/Open/wall")  # no rotation: a link to the standings
        assert 'href="?page=standings">standings</a>' in still.text
        assert 'data-next=""' in still.text
