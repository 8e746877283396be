"""The director's console in-process: what a director notices on it, and its live stream.

The console (``GET /events/EVENT/director``) is driven through Starlette's
TestClient on a SQLite file, as a browser would; its live part is refetched
after lines posted with a scorekeeper's or a director's token, and the
event-wide stream (``GET /api/events/EVENT/events``) is read as a raw ASGI
call while a pad posts, as in ``tests/test_web_live.py``.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from bgledger.service import Ledger
from bgledger.web import create_app
from tests.conftest import unique_id
from tests.test_web_live import WITHIN, Stream
from tests.webclient import committee, post

HOSTILE = '<script>alert("x")</script>'
ILLEGAL = ["opening 3 1", "move 8/5 6/5", "roll 6 4", "move 24/13 --as-played"]
"""Bob's 24/13 with 6-4 is event 6: one checker 11 pips."""


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open Cup", by="kim")
    ledger.start(("Cy", HOSTILE), 3, match_id="side", event="Open Cup", by="kim")
    ledger.start(("Eve", "Fay"), 3, match_id="other", event="Ladder", by="kim")
    yield ledger
    ledger.close()


def card(page: str, match: str) -> str:
    """The text of match ``match``'s card on the console, tags and spacing taken out."""
    found = re.search(
        rf'<article class="card[^"]*" id="(?:m|full)-{match}" data-match="{match}".*?</article>',
        page,
        re.S,
    )
    assert found, f"no card for {match}"
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))))


def section(page: str, name: str) -> str:
    found = re.search(rf'<section id="{name}".*?</section>', page, re.S)
    assert found, f"no section {name}"
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))).strip()


LIVE = "/events/Open%20Cup/director/live"


def test_the_index_links_each_events_console(client: TestClient) -> None:
    page = client.get("/").text
    assert 'href="/events/Open%20Cup/director"' in page
    assert 'href="/events/Ladder/director"' in page
    assert 'href="/director"' in page


def test_the_console_shows_every_match_of_the_event_and_no_other(client: TestClient) -> None:
    page = client.get("/events/Open%20Cup/director")
    assert page.status_code == 200
    assert 'data-match="final"' in page.text and 'data-match="side"' in page.text
    assert 'data-match="other"' not in page.text  # the Ladder's
    assert "Ann v Bob" in card(page.text, "final")
    assert "0\N{EN DASH}0 to 5" in card(page.text, "final")
    assert "not begun" in card(page.text, "final")
    assert '/static/director.js"' in page.text and "<script>" not in page.text
    assert 'data-stream="/api/events/Open%20Cup/events"' in page.text
    assert client.get("/static/director.js").status_code == 200
    everything = client.get("/director").text
    assert all(f'data-match="{m}"' in everything for m in ("final", "side", "other"))


def test_a_line_posted_by_a_pad_shows_on_the_console(client: TestClient, ledger: Ledger) -> None:
    pad = ledger.issue_token("scorekeeper", match_id="final")
    for line in ["opening 3 1", "move 8/5 6/5", "double", "take"]:
        assert post(client, "final", line, pad).status_code == 201
    shown = card(client.get(LIVE).text, "final")
    assert "game 1" in shown
    assert "cube 2, Ann's" in shown  # Bob doubled, Ann took: her cube
    assert "turn Bob to roll" in shown  # the domain's words: Ann owns the cube, so no double
    assert "flagged" not in shown
    full = card(client.get("/events/Open%20Cup/director/cards/final").text, "final")
    assert "Ann took: cube at 2, Ann owns it" in full  # the last event, on the full card


def test_an_illegal_play_recorded_as_played_is_flagged(client: TestClient, ledger: Ledger) -> None:
    pad = ledger.issue_token("scorekeeper", match_id="final")
    for line in ILLEGAL:
        assert post(client, "final", line, pad).status_code == 201
    page = client.get(LIVE).text
    assert re.search(r'<article class="card flagged [^"]*needs" id="m-final"', page)
    assert "flagged: event 6, recorded as played (USBGF 4.2.3)" in card(page, "final")
    assert "flagged" not in card(page, "side")


def test_the_clocks_a_break_and_penalty_points_show(client: TestClient, ledger: Ledger) -> None:
    ledger.record_line("final", "clock start simple-delay reserve 10:00 delay 12", by="kim")
    for line in ["opening 3 1", "move 8/5 6/5", "hit", "double", "hit", "drop", "break start both"]:
        ledger.record_line("final", line, by="kim")
    director = ledger.issue_token("director", event="Open Cup")
    answer = post(client, "final", 'penalty a 1 "USBGF 2.2.4" "Ann\'s phone rang"', director)
    assert answer.status_code == 201, answer.json()
    shown = card(client.get(LIVE).text, "final")
    assert "clock Ann 10:00 Bob 10:00" in shown
    assert "clock: simple delay, 12 s" in shown
    assert "on a break for Ann and Bob since" in shown
    assert "penalty Ann 1 · Bob 0" in shown
    assert "0\N{EN DASH}2 to 5" in shown  # Ann dropped Bob's double; Ann's penalty point is Bob's


def test_a_running_clock_shows_its_reserves_once_as_counted_now(
    client: TestClient, ledger: Ledger
) -> None:
    """The card counts the running reserve on; its clock line gives no other, older figure."""
    start = datetime.now(UTC) - timedelta(minutes=3)
    ledger.start(("Gil", "Hal"), 5, match_id="timed", event="Open Cup", by="kim",
                 at=start.isoformat(), clock="simple-delay")  # fmt: skip
    opened = (start + timedelta(seconds=10)).isoformat()
    ledger.record_line("timed", f"@{opened} opening 3 1", by="kim")  # Gil's time runs from it
    before = datetime.now(UTC)
    shown = card(client.get(LIVE).text, "timed")
    after = datetime.now(UTC)

    def left(at: datetime) -> float:  # 10:00, less Gil's turn past the 12-second delay
        return 600 - ((at - start).total_seconds() - 10 - 12)

    # 2:50 of Gil's turn, 2:38 past the delay: about 7:22 left, as counted while the page was
    # drawn (a loaded machine took over two seconds to get here: 7:20 once in CI)
    seconds = range(int(left(after)), int(left(before)) + 2)  # a second's rounding either way
    figures = {f"{s // 60}:{s % 60:02d}" for s in seconds}
    assert any(f"clock Gil {figure} Hal 10:00" in shown for figure in figures), (figures, shown)
    assert "clock: simple delay, 12 s · Gil's time runs" in shown
    assert "Gil 10:00" not in shown  # the reading at the last event, three minutes old


def test_a_ruling_posted_with_the_directors_token_appears_in_the_log(
    client: TestClient, ledger: Ledger
) -> None:
    for line in ILLEGAL:
        ledger.record_line("final", line, by="kim")
    director = ledger.issue_token("director", event="Open Cup", label="Tom, TD")
    picker = client.get("/api/matches/final/rulings?event=6").json()
    line = picker["open"][0]["line"]
    answer = post(client, "final", f"{line} --reason one checker 11 pips", director)
    assert answer.status_code == 201, answer.json()
    page = client.get(LIVE).text
    log = section(page, "rulings-log")
    assert "final#7" in log
    assert "USBGF 4.2.3(a)" in log and "director" in log
    assert "plays reverted: play reverted (event 6)" in log
    assert "one checker 11 pips" in log and "in force" in log
    assert "flagged" not in card(page, "final")  # the illegal play is void
    assert "turn Bob to move" in card(page, "final")  # Bob plays his 6-4 again
    # the committee overturns it: the log says so, the ruling struck through
    committee = ledger.issue_token("committee", event="Open Cup")
    answer = post(client, "final", "overturn 7 --reason the play stands", committee)
    assert answer.status_code == 201, answer.json()
    log = section(client.get(LIVE).text, "rulings-log")
    assert "overturned by ruling 8" in log
    assert "ruling overturned: ruling 7 overturned" in log


def test_a_scorekeepers_token_cannot_rule(client: TestClient, ledger: Ledger) -> None:
    for line in ILLEGAL:
        ledger.record_line("final", line, by="kim")
    pad = ledger.issue_token("scorekeeper", match_id="final")
    answer = post(client, "final", "revert 6 --reason no", pad)
    assert answer.status_code == 403
    assert section(client.get(LIVE).text, "rulings-log").endswith("no rulings yet")


def test_the_standings_count_finished_matches(client: TestClient, ledger: Ledger) -> None:
    ledger.record_line("side", "correct-score 2-0 --reason the sheets say 2-0", by="tom")
    for line in ["opening 3 1", "move 8/5 6/5", "resign single b --as-played", "accept"]:
        ledger.record_line("side", line, by="kim")
    standings = section(client.get(LIVE).text, "standings")
    assert "Cy 1 1 0 0 3 0" in standings  # played, won, lost, in progress, for, against
    assert "Ann 0 0 0 1 0 0" in standings  # the final: in progress


def test_the_desk_lists_the_history_by_number_and_the_profiles_rules(
    client: TestClient, ledger: Ledger
) -> None:
    for line in ILLEGAL:
        ledger.record_line("final", line, by="kim")
    desk = client.get("/matches/final/desk").text
    assert 'data-number="6"' in desk and "ILLEGAL: Bob played 24/13" in html.unescape(desk)
    assert '<option value="USBGF 2.2.4" selected>' in desk  # penalty points' rule
    assert '<option value="USBGF 4.4.10">' not in desk  # a cube rule assesses no penalty
    assert 'data-line="late a">Ann is late' in desk and 'data-line="late b">Bob is late' in desk
    # the Rule button, disabled until a ruling is chosen, says what it waits for
    assert 'id="ruling-send" disabled aria-describedby="ruling-wants">Rule<' in desk
    assert 'id="ruling-wants" aria-live="polite">pick an event in the history first<' in desk
    history = client.get("/matches/final/desk/history").text
    assert history.count("<li>") == 6
    assert client.get("/matches/nope/desk").status_code == 404


def test_every_console_page_escapes_what_players_typed(client: TestClient) -> None:
    for url in ("/events/Open%20Cup/director", LIVE, "/director", "/matches/side/desk"):
        page = client.get(url)
        assert page.status_code == 200, url
        assert HOSTILE not in page.text, url
        assert "&lt;script&gt;" in page.text, url


def test_an_event_named_with_markup_is_escaped(client: TestClient, ledger: Ledger) -> None:
    ledger.start(("Gil", "Hal"), 3, match_id="odd", event=HOSTILE, by="kim")
    assert HOSTILE not in client.get("/").text
    page = client.get("/director")
    assert HOSTILE not in page.text and "&lt;script&gt;" in page.text


def test_the_stream_sends_the_moved_table_alone(store_url: str) -> None:
    """On SQLite, then on PostgreSQL (shared: an event and matches of their own)."""
    ledger = Ledger(store_url)
    event, ids = unique_id("Open"), {name: unique_id(name) for name in ("final", "side", "other")}
    ledger.start(("Ann", "Bob"), 5, match_id=ids["final"], event=event, by="kim")
    ledger.start(("Cy", "Di"), 3, match_id=ids["side"], event=event, by="kim")
    ledger.start(("Eve", "Fay"), 3, match_id=ids["other"], event=unique_id("Ladder"), by="kim")
    app = create_app(ledger)
    pad = ledger.issue_token("scorekeeper", match_id=ids["final"])
    other = ledger.issue_token("scorekeeper", match_id=ids["other"])

    async def scenario() -> tuple[list[dict[str, Any]], Stream]:
        stream = Stream(app, f"/api/events/{event}/events", token=committee(ledger))
        loop = asyncio.get_running_loop()
        await asyncio.wait_for(stream.chunks.get(), WITHIN)  # the stream is open
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as client:
            for match, token in ((ids["other"], other), (ids["final"], pad)):  # other: not followed
                answer = await client.post(
                    f"/api/matches/{match}/lines",
                    json={"line": "opening 3 1"},
                    headers={"Authorization": f"Bearer {token}"},
                )
                assert answer.status_code == 201
        posted = loop.time()
        events = await stream.events(posted + WITHIN, "changes")
        await stream.close()
        return events, stream

    try:
        events, stream = asyncio.run(scenario())
    finally:
        ledger.close()
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert [[table["id"] for table in event["tables"]] for event in events] == [[ids["final"]]]
    table = events[0]["tables"][0]
    assert table["events"] == 3  # started, game 1, the opening roll
    assert "Ann v Bob" in table["row"] and f'id="m-{ids["final"]}"' in table["row"]
    assert "Ann v Bob" in table["card"]
    assert events[0]["standings"] == []  # no result: the standings are as they were
    assert events[0]["rulings"] == []


def test_a_console_drawn_before_a_line_hears_of_it_on_connecting(ledger: Ledger) -> None:
    """The page was drawn at a position; a line was recorded before its stream opened."""
    drawn = ledger.last_stored()
    ledger.record_line("side", "opening 3 1", by="kim")

    async def scenario() -> list[dict[str, Any]]:
        stream = Stream(
            create_app(ledger),
            "/api/events/Open Cup/events",
            f"since={drawn}",
            token=committee(ledger),
        )
        events = await stream.events(asyncio.get_running_loop().time() + WITHIN, "changes")
        await stream.close()
        return events

    events = asyncio.run(scenario())
    assert [table["id"] for table in events[0]["tables"]] == ["side"]
    assert events[0]["position"] == ledger.last_stored()
