"""The director's console follows changes, not pages (issue 26), in-process.

The console's stream (``GET /api/events/EVENT/events``) and the match streams
(``GET /api/matches/MATCH/events``) are read as raw ASGI calls while lines
are posted, as in ``tests/test_web_live.py``: what a line costs an open
console, that one posted line carries that table alone, that many viewers of
one match share one reading of it; and the order that puts the tables needing
the director first.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from bgledger.service import Ledger
from bgledger.web import create_app
from tests.test_triage import record_tables
from tests.test_web_live import WITHIN, Stream
from tests.webclient import committee, reading


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    yield ledger
    ledger.close()


def many(ledger: Ledger, count: int, event: str = "Open") -> list[str]:
    """``count`` matches of ``event``, each with its opening roll played."""
    ids = []
    for i in range(count):
        match_id = f"t{i:03d}"
        ledger.start(
            (f"A{i}", f"B{i}"), 7, match_id=match_id, event=event, table=str(i + 1), by="k"
        )
        ledger.record_line(match_id, "opening 3 1", by="k")
        ids.append(match_id)
    return ids


async def _console_hears(
    app: Any, event: str, posts: list[tuple[str, str, str]], reader: str
) -> tuple[bytes, list[dict[str, Any]]]:
    """The console stream's bytes and ``changes`` after each of ``posts`` (match, line, token);
    ``reader``: the console's token (the committee's)."""
    stream = Stream(app, f"/api/events/{event}/events", token=reader)
    loop = asyncio.get_running_loop()
    await asyncio.wait_for(stream.chunks.get(), WITHIN)  # the opening
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://test") as client:
        for match, line, token in posts:
            answer = await client.post(
                f"/api/matches/{match}/lines",
                json={"line": line},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.status_code == 201, answer.json()
    received = b""
    deadline = loop.time() + WITHIN
    while b"event: changes" not in received or not received.endswith(b"\n\n"):
        try:
            received += await asyncio.wait_for(stream.chunks.get(), deadline - loop.time())
        except TimeoutError:
            break
    await stream.close()
    events = []
    for block in received.decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if fields.get("event") == "changes":
            events.append(json.loads(fields["data"]))
    return received, events


def test_one_line_costs_the_console_that_table_alone(ledger: Ledger) -> None:
    ids = many(ledger, 60)
    app = create_app(ledger, poll_seconds=0.02)
    whole = (
        reading(TestClient(app), ledger).get("/events/Open/director/live").content
    )  # what was refetched
    token = ledger.issue_token("scorekeeper", match_id=ids[41])
    received, events = asyncio.run(
        _console_hears(app, "Open", [(ids[41], "move 8/5 6/5", token)], committee(ledger))
    )
    assert [[table["id"] for table in event["tables"]] for event in events] == [[ids[41]]]
    table = events[0]["tables"][0]
    assert "A41 v B41" in table["row"] and "A41 v B41" in table["card"]
    assert "B41 to roll or double" in table["row"]  # Ann's play is made: Bob's turn
    assert not any(f'"m-{other}"' in received.decode() for other in ids if other != ids[41])
    assert len(received) < 20_000
    assert len(whole) > 10 * len(received)  # the whole live part, as the console used to refetch


def test_the_tables_needing_the_director_come_first(ledger: Ledger) -> None:
    """Time up, a dispute, a flagged play, a break over, a result to post, then the rest."""
    record_tables(ledger)

    page = reading(TestClient(create_app(ledger)), ledger).get("/events/Open/director/live").text
    order = re.findall(r'<article class="card ([^"]*)" id="m-([^"]+)"', page)
    assert [match for _, match in order] == [
        "late", "dispute", "flag", "break", "won", "playing", "idle",
    ]  # fmt: skip
    classes = dict((match, kinds.split()) for kinds, match in order)
    assert "time-up" in classes["late"] and "needs" in classes["late"]
    assert "needs" not in classes["playing"] and "needs" not in classes["idle"]
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    assert "Tom's time is up (USBGF 4.3.3): no expiry recorded yet" in text
    assert "clock stopped, USBGF 4.3.2(d): a dispute, or the director was called" in text
    assert "flagged: event 6, recorded as played (USBGF 4.2.3)" in text
    assert "break over its allowance since 10:10:00 (USBGF 2.2.2)" in text
    assert "finished, won by Rae 3\N{EN DASH}0: result to post (USBGF 4.6)" in text
    assert "between-games" not in page and "between games" not in text  # the words a director uses
    assert "game 1 to start" in text
    assert 'need you (<span class="count" data-count="needs">5</span>)' in page


def test_many_viewers_of_one_match_share_one_reading(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """20 streams of one match and 3 consoles: one posted line reads the match once."""
    ids = many(ledger, 3)
    app = create_app(ledger, poll_seconds=0.02)
    token = ledger.issue_token("scorekeeper", match_id=ids[1])
    reads: list[str] = []
    followed = ledger.followed  # the feed's reading of a match (whole, or since it last read)

    def counted(match_id: str, *args: Any) -> Any:
        reads.append(match_id)
        return followed(match_id, *args)

    monkeypatch.setattr(ledger, "followed", counted)
    feeds = app.state.feeds
    built: list[str | None] = []
    build = feeds.event_news

    def counted_build(event: str | None, *args: Any) -> list[str]:
        built.append(event)
        return build(event, *args)

    monkeypatch.setattr(feeds, "event_news", counted_build)

    async def scenario() -> list[list[dict[str, Any]]]:
        streams = [
            Stream(app, f"/api/matches/{ids[1]}/events", token=committee(ledger)) for _ in range(20)
        ]
        consoles = [
            Stream(app, "/api/events/Open/events", token=committee(ledger)) for _ in range(3)
        ]
        for stream in [*streams, *consoles]:
            await asyncio.wait_for(stream.chunks.get(), WITHIN)
        reads.clear()  # the streams are open: the first one read the match
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as client:
            answer = await client.post(
                f"/api/matches/{ids[1]}/lines",
                json={"line": "move 8/5 6/5"},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.status_code == 201
        loop = asyncio.get_running_loop()
        heard = [await stream.events(loop.time() + WITHIN) for stream in streams]
        heard += [await console.events(loop.time() + WITHIN, "changes") for console in consoles]
        for stream in [*streams, *consoles]:
            await stream.close()
        return heard

    heard = asyncio.run(scenario())
    assert all([event["number"] for event in got] == [4] for got in heard[:20])
    assert all(got[0]["tables"][0]["id"] == ids[1] for got in heard[20:])
    assert reads == [ids[1]]  # once, for 20 streams
    assert built == ["Open"]  # one message, for 3 consoles


def test_a_match_stream_resumes_after_the_last_event_it_saw(ledger: Ledger) -> None:
    """``since=``: the events after it, in the wire format pad.js and live.js read."""
    ids = many(ledger, 1)
    ledger.record_line(ids[0], "move 8/5 6/5", by="k")

    async def scenario() -> str:
        stream = Stream(
            create_app(ledger), f"/api/matches/{ids[0]}/events", "since=2", token=committee(ledger)
        )
        loop = asyncio.get_running_loop()
        text, deadline = "", loop.time() + WITHIN
        while text.count("event: recorded") < 2 and loop.time() < deadline:
            text += (await asyncio.wait_for(stream.chunks.get(), WITHIN)).decode()
        await stream.close()
        return text

    text = asyncio.run(scenario())
    message = r"id: (\d+)\nevent: recorded\ndata: \{\"number\": (\d+), \"line\": "
    assert re.findall(message, text) == [("3", "3"), ("4", "4")]
    assert '"match": {"match_id": "t000"' in text


def test_the_ledger_names_the_matches_moved_since_a_position(ledger: Ledger) -> None:
    """The feed's one read a tick: the matches with events after a notification, and the number
    of each one's first new event."""
    ids = many(ledger, 3)
    before = ledger.last_stored()
    assert ledger.moved(before) == (before, {})
    ledger.record_line(ids[2], "move 8/5 6/5", by="k")
    ledger.record_line(ids[0], "move 8/5 6/5", by="k")
    ledger.record_line(ids[0], "roll 6 4", by="k")
    assert ledger.moved(before) == (before + 3, {ids[2]: 4, ids[0]: 4})
    rows = ledger.matches(ids=[ids[0]], states=True)
    assert [(row["match_id"], row["state"].dice) for row in rows] == [(ids[0], (6, 4))]


def test_a_full_card_is_of_a_match_of_the_event(ledger: Ledger) -> None:
    many(ledger, 1)
    ledger.start(("Eve", "Fay"), 3, match_id="other", event="Ladder", by="k")
    client = reading(TestClient(create_app(ledger)), ledger)
    card = client.get("/events/Open/director/cards/t000")
    assert card.status_code == 200 and "Last entries" in card.text
    assert "opening roll: A0 3, B0 1: A0 plays first" in html.unescape(card.text)
    assert client.get("/events/Open/director/cards/other").status_code == 404
    assert client.get("/director/cards/other").status_code == 200


def test_a_stream_that_reads_nothing_for_too_long_is_let_go(ledger: Ledger) -> None:
    """Its messages are held up to PENDING; past that the stream ends (the browser resumes)."""
    from bgledger.web.feeds import PENDING, FeedHub

    many(ledger, 1)
    hub = FeedHub(ledger)
    follower = hub.follow_match("t000", None)
    follower.put(["x\n\n"] * PENDING)
    assert not follower.ended and len(follower()) == PENDING
    follower.put(["x\n\n"] * (PENDING + 1))
    assert follower.ended and follower() == []
    follower.close()
    assert hub.follow_match("t000", 0)() != []  # a new follower starts afresh


def test_a_match_won_sends_its_players_standings_and_the_ruling(ledger: Ledger) -> None:
    ids = many(ledger, 5)
    app = create_app(ledger, poll_seconds=0.02)
    director = ledger.issue_token("director", event="Open")
    line = 'penalty b 7 "USBGF 2.2.4" an hour late'  # B1's penalty points: A1 wins, 7-0
    _, events = asyncio.run(
        _console_hears(app, "Open", [(ids[1], line, director)], committee(ledger))
    )
    (change,) = events
    assert [table["id"] for table in change["tables"]] == [ids[1]]
    assert "finished, won by A1 7\N{EN DASH}0: result to post" in html.unescape(
        change["tables"][0]["row"]
    )
    standings = {
        row["id"]: re.sub(r"<[^>]+>", " ", row["html"]).split() for row in change["standings"]
    }
    assert standings == {
        "s-Open-A1": [
            "A1",
            "1",
            "1",
            "0",
            "0",
            "7",
            "0",
        ],  # played, won, lost, in progress, for, against
        "s-Open-B1": ["B1", "1", "0", "1", "0", "0", "7"],
    }
    assert [ruling["id"] for ruling in change["rulings"]] == [f"r-{ids[1]}-4"]
    assert "USBGF 2.2.4" in change["rulings"][0]["html"]


def test_a_console_away_too_long_is_told_to_draw_again(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Back after more tables of its event moved than :data:`CATCH_UP`: ``reload``; other
    events' tables do not count."""
    from bgledger.web import director

    monkeypatch.setattr(director, "CATCH_UP", 2)
    ours = many(ledger, 3)
    ledger.start(("Eve", "Fay"), 3, match_id="other", event="Ladder", by="k")
    drawn = ledger.last_stored()
    ledger.record_line("other", "opening 3 1", by="k")

    async def heard(since: int, kind: str, seconds: float = WITHIN) -> list[dict[str, Any]]:
        """The ``kind`` events heard within ``seconds`` (sooner, once one comes)."""
        stream = Stream(
            create_app(ledger), "/api/events/Open/events", f"since={since}", token=committee(ledger)
        )
        found = await stream.events(asyncio.get_running_loop().time() + seconds, kind)
        await stream.close()
        return found

    assert asyncio.run(heard(drawn, "changes", 1.0)) == []  # the Ladder's line: nothing of Open's
    for match_id in ours[:2]:
        ledger.record_line(match_id, "move 8/5 6/5", by="k")
    assert [t["id"] for t in asyncio.run(heard(drawn, "changes"))[0]["tables"]] == ours[:2]
    ledger.record_line(ours[2], "move 8/5 6/5", by="k")
    assert asyncio.run(heard(drawn, "reload")) == [{"position": ledger.last_stored()}]
