"""The director's desk's words, and the scorekeeper's notes kept off the spectators' surfaces.

Read as the director and a spectator read the pages: the penalty form's rules, the wall's
cards, a match's watch page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bgledger.service import Ledger
from tests.webclient import bare_client

EVENT = "Club night"


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", by="kim", event=EVENT, round="1", table="4")
    for line in ("opening 6 2", "move 24/18 13/11", "note director called about the dice"):
        ledger.record_line("final", line, by="kim")
    ledger.publish(EVENT, by="Dee")
    try:
        yield ledger
    finally:
        ledger.close()


def test_the_penalty_form_offers_the_rules_that_assess_penalties(client: TestClient) -> None:
    desk = client.get("/matches/final/desk", headers={"Accept": "*/*"}).text
    form = desk[
        desk.index('id="penalty-rule"') : desk.index("</select>", desk.index("penalty-rule"))
    ]
    offered = re.findall(r'<option value="([^"]+)"', form)
    # lateness and breaks (USBGF 2.2.4, preselected) and a reserve run out (4.3.3): no cube
    # rule (4.4.2), no Crawford rule (4.4.6), not the sixty rules the profile cites
    assert offered == ["USBGF 2.2.4", "USBGF 4.3.3"]
    assert '<option value="USBGF 2.2.4" selected>' in form


def test_a_note_stays_off_the_wall_and_the_watch_page(ledger: Ledger) -> None:
    spectator = bare_client(ledger)  # no token: the public wall of a published event
    pages = ("/events/Club%20night/wall", "/matches/final/watch", "/matches/final/watch/live")
    for path in (*pages, "/matches/final", "/matches/final/live"):  # the match page's too
        page = spectator.get(path)
        assert page.status_code == 200, (path, page.status_code)
        assert "director called" not in page.text and "scorekeeper&#39;s note" not in page.text, (
            path
        )
    # the wall's card says the last thing that happened at the table, not the note
    wall = spectator.get("/events/Club%20night/wall").text
    assert "Ann played 24/18 13/11" in wall
    committee_reads = bare_client(ledger)
    from tests.webclient import reading

    match_page = reading(committee_reads, ledger).get("/matches/final").text
    assert "director called" in match_page  # the record keeps it: the match page shows it


def test_a_note_the_director_posts_is_not_worded_as_the_scorekeepers(
    client: TestClient, ledger: Ledger
) -> None:
    director = ledger.issue_token("director", event=EVENT, label="Dee")
    posted = client.post(
        "/api/matches/final/lines",
        json={"line": "note players warned about slow play"},
        headers={"Authorization": f"Bearer {director}"},
    )
    assert posted.status_code == 201, posted.text
    line = next(entry for entry in ledger.history("final") if "slow play" in entry.text)
    assert line.recorded_by == "Dee" and "scorekeeper" not in line.text, line.text
    assert line.text == "note for the record: players warned about slow play"
