"""The director's desk's words, and the scorekeeper's notes kept off the spectators' surfaces.

Read as the director and a spectator read the pages: the penalty form's rules, the wall's
cards, a match's watch page.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx2
import pytest
from starlette.testclient import TestClient

from bgledger.service import Ledger
from bgledger.web import create_app
from tests.test_web_live import WITHIN, Stream
from tests.test_web_wall import post_async
from tests.webclient import bare_client, bearer

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


def test_a_note_the_director_posts_is_worded_as_the_directors(
    client: TestClient, ledger: Ledger
) -> None:
    director = ledger.issue_token("director", event=EVENT, label="Dee")
    scorekeeper = ledger.issue_token("scorekeeper", match_id="final", label="kim")
    for line, token in (
        ("note players warned about slow play", director),
        ("note Bob asked for a break", scorekeeper),
    ):
        posted = client.post("/api/matches/final/lines", json={"line": line}, headers=bearer(token))
        assert posted.status_code == 201, posted.text
    said = [entry.text for entry in ledger.history("final")[-2:]]
    assert said == [
        "the director's note: players warned about slow play",
        "the scorekeeper's note: Bob asked for a break",
    ]
    # the line keeps whose it is (DESIGN principle 12), as the desk, the console and
    # the pad word it
    assert [e.said for e in ledger.events("final")[-2:]] == [
        "note --as director players warned about slow play",
        "note --as scorekeeper Bob asked for a break",
    ]
    desk = client.get("/matches/final/desk/history").text
    assert "the director&#39;s note: players warned about slow play" in desk
    console = client.get("/director/cards/final").text  # the console's card of the match
    assert "the scorekeeper&#39;s note: Bob asked for a break" in console
    # a note recorded before (no one's) reads as it did
    assert ledger.history("final")[4].text == "note for the record: director called about the dice"


def test_a_scorekeeper_cannot_post_a_note_as_the_directors(
    client: TestClient, ledger: Ledger
) -> None:
    scorekeeper = ledger.issue_token("scorekeeper", match_id="final", label="kim")
    posted = client.post(
        "/api/matches/final/lines",
        json={"line": "note --as director the dice were fine"},
        headers=bearer(scorekeeper),
    )
    assert posted.status_code == 403, posted.text
    assert "the director's" in posted.json()["error"]
    assert ledger.state("final").events == 5  # nothing recorded
    # nor withdraw the director's (DESIGN principle 10), as he may his own
    director = ledger.issue_token("director", event=EVENT, label="Dee")
    posted = client.post(
        "/api/matches/final/lines", json={"line": "note dice checked"}, headers=bearer(director)
    )
    assert posted.status_code == 201, posted.text
    for line, token in (("undo", scorekeeper), ("amend 6 note dice not checked", scorekeeper)):
        refused = client.post(
            "/api/matches/final/lines", json={"line": line}, headers=bearer(token)
        )
        assert refused.status_code == 403, refused.text
        assert "entry 6 of match 'final' is the director's act" in refused.json()["error"]
    mine = client.post(
        "/api/matches/final/lines", json={"line": "note x"}, headers=bearer(scorekeeper)
    )
    assert mine.status_code == 201
    withdrawn = client.post(
        "/api/matches/final/lines", json={"line": "undo"}, headers=bearer(scorekeeper)
    )
    assert withdrawn.status_code == 201, withdrawn.text  # his own note, his to withdraw


# -- a spectator's match stream (issue 35): the events but the notes, numbered as they are ----


def _streamed(ledger: Ledger, query: str, token: str | None, then: tuple[str, ...] = ()) -> str:
    """The body of ``/api/matches/final/events?QUERY`` as ``token`` (None: a spectator) reads
    it, the lines ``then`` posted by the scorekeeper while it is open, up to Bob's 8/5 6/5."""
    app = create_app(ledger, poll_seconds=0.02)
    scorekeeper = ledger.issue_token("scorekeeper", match_id="final")

    async def scenario() -> str:
        stream = Stream(app, "/api/matches/final/events", query, token=token)
        body = (await asyncio.wait_for(stream.chunks.get(), WITHIN)).decode()  # open
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as pad:
            for line in then:
                assert (await post_async(pad, "final", line, scorekeeper)).status_code == 201
        body += await _until(stream, "Bob played 8/5 6/5")
        await stream.close()
        return body

    return asyncio.run(scenario())


async def _until(stream: Stream, words: str) -> str:
    """What ``stream`` sends until it has said ``words`` (or :data:`WITHIN` passed)."""
    loop = asyncio.get_running_loop()
    body, deadline = "", loop.time() + WITHIN
    while words not in body and loop.time() < deadline:
        try:
            body += (await asyncio.wait_for(stream.chunks.get(), deadline - loop.time())).decode()
        except TimeoutError:
            break
    return body


def _numbers(body: str) -> list[int]:
    return [int(n) for n in re.findall(r"^id: (\d+)$", body, re.MULTILINE)]


LATER = ("note Bob asked about the clock", "roll 3 1", "move 8/5 6/5")  # events 6, 7, 8


def test_a_spectators_match_stream_leaves_the_notes_out(ledger: Ledger) -> None:
    body = _streamed(ledger, "since=0", None, LATER)
    assert "Ann played 24/18 13/11" in body and "Bob played 8/5 6/5" in body
    assert "director called" not in body and "asked about the clock" not in body
    assert _numbers(body) == [1, 2, 3, 4, 7, 8]  # the notes (5, 6) left out, the rest numbered


def test_a_reconnecting_spectator_misses_nothing_and_gets_no_note(ledger: Ledger) -> None:
    # he last had event 4 (Ann's play); the note after it is not his, Bob's turn is
    body = _streamed(ledger, "since=4", None, LATER)
    assert _numbers(body) == [7, 8] and "asked about the clock" not in body
    # Last-Event-ID as the browser sends it, after the note he never had
    body = _streamed(ledger, "since=6", None)
    assert _numbers(body) == [7, 8]


def test_the_scorekeeper_director_and_committee_streams_keep_the_notes(ledger: Ledger) -> None:
    tokens = {
        "scorekeeper": ledger.issue_token("scorekeeper", match_id="final"),
        "director": ledger.issue_token("director", event=EVENT),
        "committee": ledger.issue_token("committee"),
    }
    for role, token in tokens.items():
        body = _streamed(ledger, "since=0", token, LATER if role == "scorekeeper" else ())
        assert "director called about the dice" in body, role
        assert "asked about the clock" in body, role
        assert _numbers(body) == [1, 2, 3, 4, 5, 6, 7, 8], role


def test_the_watch_pages_stream_leaves_the_notes_out_whoever_reads_it(ledger: Ledger) -> None:
    # the watch page and the embed are drawn without the notes, for a director too: their
    # stream (?notes=0) is the spectators'
    director = ledger.issue_token("director", event=EVENT)
    body = _streamed(ledger, "notes=0&since=0", director, LATER)
    assert "director called" not in body and "asked about the clock" not in body
    assert _numbers(body) == [1, 2, 3, 4, 7, 8]


def test_spectators_and_readers_share_one_feed_of_the_match(ledger: Ledger) -> None:
    """One reading of the match for every stream of it, spectators' and tokens' alike."""
    app = create_app(ledger, poll_seconds=0.02)
    committee_token = ledger.issue_token("committee")

    async def scenario() -> tuple[list[str], int]:
        streams = [
            Stream(app, "/api/matches/final/events", "since=0", token=token)
            for token in (None, None, committee_token, committee_token)
        ]
        bodies = [await _until(stream, "Ann played 24/18 13/11") for stream in streams]
        for stream in streams:
            await stream.close()
        return bodies, app.state.feeds.worked

    bodies, worked = asyncio.run(scenario())
    assert worked == 1
    assert ["director called" in body for body in bodies] == [False, False, True, True]


def test_a_delayed_spectators_stream_leaves_the_notes_out(tmp_path: Path) -> None:
    ledger = Ledger(f"sqlite:///{tmp_path / 'delayed.db'}")
    hour_ago = (datetime.now(UTC) - timedelta(hours=1)).isoformat(timespec="seconds")
    ledger.start(("Ann", "Bob"), 5, match_id="final", by="kim", event=EVENT, at=hour_ago)
    for line in ("opening 6 2", "move 24/18 13/11", "note director called", "roll 3 1"):
        ledger.record_line("final", line, by="kim", at=hour_ago)
    ledger.record_line("final", "move 8/5 6/5", by="kim", at=hour_ago)
    ledger.publish(EVENT, by="Dee", delay=900)
    try:
        body = _streamed(ledger, "since=0", None)
        assert "15 min delay" in body  # a delayed reader's stream
        assert "director called" not in body and _numbers(body) == [1, 2, 3, 4, 6, 7]
    finally:
        ledger.close()


def test_the_pads_and_the_desks_history_read_by_a_spectator_leave_the_notes_out(
    ledger: Ledger,
) -> None:
    spectator = bare_client(ledger)
    for path in ("/matches/final/pad", "/matches/final/desk/history"):
        page = spectator.get(path)
        assert page.status_code == 200, path
        assert "Ann played 24/18 13/11" in page.text, path
        assert "director called" not in page.text, path
    # the scorekeeper who wrote it reads it, on his pad and on the match page
    token = ledger.issue_token("scorekeeper", match_id="final")
    for path in ("/matches/final/pad", "/matches/final/desk/history", "/matches/final"):
        assert "director called" in spectator.get(path, headers=bearer(token)).text, path


def test_no_json_or_file_a_spectator_reads_carries_a_note(ledger: Ledger) -> None:
    spectator = bare_client(ledger)
    for path in (
        "/api/matches/final",
        "/api/matches/final/rulings?event=4",
        "/matches/final.mat",
        "/matches/final/board/5.svg",
        "/matches/final/board.svg",
        "/matches/final/embed",
        "/matches/final/embed/live",
        "/events/Club%20night/wall/standings",
        "/matches/final/scoresheet",
    ):
        read = spectator.get(path)
        assert read.status_code == 200, (path, read.status_code)
        assert "director called" not in read.text, path


def test_the_replay_and_the_packet_a_spectator_reads_say_a_note_is_there_not_what(
    ledger: Ledger,
) -> None:
    spectator = bare_client(ledger)  # one application: one cache of heavy pages
    token = ledger.issue_token("committee")
    for path in ("/matches/final/packet?from=3&to=5", "/matches/final/replay?at=5"):
        # the committee's first: the page kept for it is not the one a spectator is given
        theirs = spectator.get(path, headers=bearer(token))
        assert "director called about the dice" in theirs.text, path
        read = spectator.get(path)
        assert read.status_code == 200, path
        assert "director called" not in read.text, path
        assert "event 5: a note for the record, read by the match&#39;s officials" in read.text
    assert "Ann played 24/18 13/11" in spectator.get("/matches/final/packet?from=3&to=5").text
