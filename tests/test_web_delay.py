"""An event published with a delay (``publish --event E --delay 15m``; issue 32, break 5).

A spectator (no token, or one that does not reach the match) sees every match as it
stood 15 minutes before, on every surface that is his: the wall and its stream, the
watch and embed pages and their live parts, the boards and the ``.mat``, the match
stream; every other read of the record (the match page, its API, the score sheet, the
replay) would show it as it stands now and is refused him (403, naming the delay).
A token that reaches the match (its scorekeeper, the committee) reads it live.

The match: started 30 minutes ago; Ann's opening 3-1 played 8/5 6/5 20 and 16 minutes
ago (events 2-4: the game started, the opening roll, the play); Bob's roll of 6-4 and
his play 24/18 13/9 a minute ago and now (events 5, 6).  15 minutes behind, a
spectator sees the match after event 4: Ann's
play on the board, Bob's 24/18 13/9 nowhere.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bgledger.interchange.mat import read_mat
from bgledger.service import Ledger
from bgledger.web import create_app
from tests.test_web_live import WITHIN, Stream
from tests.webclient import bearer

OLD_PLAY = "8/5 6/5"  # Ann's, 16 minutes ago: shown 15 minutes behind
NEW_PLAY = "24/18 13/9"  # Bob's, just now: not shown


def ago(minutes: float) -> str:
    return (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat(timespec="seconds")


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open", by="kim", at=ago(30))
    ledger.start(("Cy", "Di"), 5, match_id="semi", event="Open", by="kim", at=ago(30))
    ledger.record_line("final", "opening 3 1", by="kim", at=ago(20))
    ledger.record_line("final", f"move {OLD_PLAY}", by="kim", at=ago(16))
    ledger.record_line("final", "roll 6 4", by="kim", at=ago(1))
    ledger.record_line("final", f"move {NEW_PLAY}", by="kim")
    assert ledger.state("final").events == 6
    yield ledger
    ledger.close()


@pytest.fixture
def spectator(ledger: Ledger) -> TestClient:
    """No token: reads what the publication opens, as published."""
    return TestClient(create_app(ledger))


@pytest.fixture
def scorekeeper(ledger: Ledger) -> dict[str, str]:
    """The header of the final's scorekeeper's token, which reaches the match."""
    return bearer(ledger.issue_token("scorekeeper", match_id="final"))


def delayed(ledger: Ledger, delay: int = 900) -> None:
    ledger.publish("Open", by="Dana", delay=delay)


def events_shown(html: str, match: str = "final") -> int:
    found = re.search(rf'data-match="{match}"[^>]*? data-events="(\d+)"', html)
    assert found is not None, html[:2000]
    return int(found.group(1))


def test_the_ledger_counts_the_events_as_the_match_stood_at_a_time(ledger: Ledger) -> None:
    now = datetime.now(UTC)
    assert ledger.events_as_of("final", now) == 6
    assert ledger.events_as_of("final", now - timedelta(minutes=15)) == 4
    assert ledger.events_as_of("final", now - timedelta(minutes=18)) == 3
    assert ledger.events_as_of("final", now - timedelta(hours=5)) == 1  # at least the start
    assert ledger.delayed_events("final", 0) is None  # live
    assert ledger.delayed_events("final", 900) == 4


def test_a_delayed_spectators_wall_shows_the_match_as_it_stood_15_minutes_before(
    ledger: Ledger, spectator: TestClient, scorekeeper: dict[str, str]
) -> None:
    delayed(ledger)
    wall = spectator.get("/events/Open/wall")
    assert wall.status_code == 200
    assert events_shown(wall.text) == 4
    assert "15 min delay" in wall.text  # the wall says so
    assert "live boards" not in wall.text
    board = spectator.get("/matches/final/board/4.svg")
    assert board.status_code == 200
    # the board after Bob's play just now is not shown to him yet, by any number
    for later in (5, 6):
        refused = spectator.get(f"/matches/final/board/{later}.svg")
        assert refused.status_code == 404
        assert "is not shown yet" in refused.text and "15 min delay" in refused.text
    # the director, whose token reaches the event, sees it live
    director = bearer(ledger.issue_token("director", event="Open"))
    live = spectator.get("/events/Open/wall", headers=director)
    assert events_shown(live.text) == 6 and "15 min delay" not in live.text
    assert spectator.get("/matches/final/board/6.svg", headers=scorekeeper).status_code == 200


def test_a_live_publication_shows_the_move_just_made(ledger: Ledger, spectator: TestClient) -> None:
    ledger.publish("Open", by="Dana")
    wall = spectator.get("/events/Open/wall")
    assert events_shown(wall.text) == 6 and "live boards" in wall.text
    assert spectator.get("/matches/final/board/6.svg").status_code == 200
    watch = spectator.get("/matches/final/watch")
    assert NEW_PLAY in watch.text


@pytest.mark.parametrize("page", ["watch", "watch/live", "embed", "embed/live"])
def test_watch_and_embed_show_the_delayed_match_and_a_token_reads_it_live(
    ledger: Ledger, spectator: TestClient, scorekeeper: dict[str, str], page: str
) -> None:
    delayed(ledger)
    # the token's live drawing first: a drawing kept by the match's event must not leak
    live = spectator.get(f"/matches/final/{page}", headers=scorekeeper)
    assert live.status_code == 200
    behind = spectator.get(f"/matches/final/{page}")
    assert behind.status_code == 200
    if page == "watch":  # the move list: Ann's play, not Bob's
        assert OLD_PLAY in behind.text and NEW_PLAY not in behind.text
        assert NEW_PLAY in live.text
        assert 'data-events="4"' in behind.text and 'data-events="6"' in live.text
        assert "shown with a 15 min delay" in behind.text
        assert "15 min delay" not in live.text
    if page == "embed":
        assert "15 min delay" in behind.text
    assert behind.text != live.text
    # and the other way round: the spectator's drawing first, then the token's
    again = spectator.get(f"/matches/final/{page}", headers=scorekeeper)
    assert ("15 min delay" in again.text) is False


def test_the_clocks_of_a_delayed_page_run_as_they_ran_then(
    ledger: Ledger, spectator: TestClient
) -> None:
    delayed(ledger)
    watch = spectator.get("/matches/final/watch")
    now_ms = int(re.search(r'data-now="(\d+)"', watch.text).group(1))  # type: ignore[union-attr]
    behind_ms = datetime.now(UTC).timestamp() * 1000 - now_ms
    assert 899_000 <= behind_ms <= 905_000  # the page's "now" is 15 minutes ago


def test_the_mat_of_a_delayed_match_ends_at_the_move_made_15_minutes_ago(
    ledger: Ledger, spectator: TestClient, scorekeeper: dict[str, str]
) -> None:
    delayed(ledger)
    behind = spectator.get("/matches/final.mat")
    assert behind.status_code == 200
    assert OLD_PLAY in behind.text and NEW_PLAY not in behind.text
    read_mat(behind.text)  # still a .mat file
    live = spectator.get("/matches/final.mat", headers=scorekeeper)
    assert NEW_PLAY in live.text


@pytest.mark.parametrize(
    "path",
    [
        "/matches/final",
        "/matches/final/live",
        "/api/matches/final",
        "/matches/final/board.svg",
        "/matches/final/scoresheet",
        "/matches/final/replay",
        "/matches/final/packet",
        "/matches/final/desk/history",
    ],
)
def test_what_would_show_the_match_as_it_stands_is_refused_a_delayed_spectator(
    ledger: Ledger, spectator: TestClient, scorekeeper: dict[str, str], path: str
) -> None:
    delayed(ledger)
    refused = spectator.get(path)
    assert refused.status_code == 403
    assert NEW_PLAY not in refused.text
    assert "published to spectators with a 15 min delay" in refused.text
    assert "/matches/final/watch" in refused.text  # where he can follow it
    assert spectator.get(path, headers=scorekeeper).status_code == 200
    ledger.publish("Open", by="Dana")  # live again: open to him
    assert spectator.get(path).status_code == 200


def test_the_list_shows_a_delayed_match_as_it_stood_linking_its_spectators_page(
    ledger: Ledger, spectator: TestClient
) -> None:
    delayed(ledger)
    listed = spectator.get("/")
    assert listed.status_code == 200
    assert 'href="/matches/final/watch"' in listed.text
    assert "(15 min delay)" in listed.text
    row = re.search(r"<tr>\s*<td><a href=\"/matches/final/watch\".*?</tr>", listed.text, re.S)
    assert row is not None
    assert re.findall(r'<td class="num">(\d+)</td>', row.group(0))[-1] == "4"  # events shown


def test_publishing_with_a_delay_over_the_web(ledger: Ledger, spectator: TestClient) -> None:
    director = bearer(ledger.issue_token("director", event="Open", label="Dana"))
    path = "/api/events/Open/publish"
    body: dict[str, Any] = {"published": True, "delay": "15m"}
    done = spectator.post(path, json=body, headers={**director, "Idempotency-Key": "k-1"})
    assert done.status_code == 201 and done.json()["delay_seconds"] == 900
    assert done.json()["message"].endswith("open to spectators, 15 min behind")
    again = spectator.post(path, json=body, headers={**director, "Idempotency-Key": "k-1"})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    other = {"published": True, "delay": "1h"}  # the same key for another delay: refused
    reused = spectator.post(path, json=other, headers={**director, "Idempotency-Key": "k-1"})
    assert reused.status_code == 422
    bad = spectator.post(path, json={"published": True, "delay": "-1m"}, headers=director)
    assert bad.status_code == 400 and "a delay is never negative" in bad.json()["error"]
    assert spectator.get("/api/events/Open/publication").json()["delay_seconds"] == 900


async def _first_events(stream: Stream, kind: str, seconds: float) -> list[dict[str, Any]]:
    loop = asyncio.get_running_loop()
    return await stream.events(loop.time() + seconds, kind)


def test_a_delayed_match_stream_sends_a_change_once_it_is_15_minutes_old(ledger: Ledger) -> None:
    """Cy's play dated 14:54 ago becomes 15 minutes old 5-6 s into the stream: sent then, not
    before; a token's stream has it at once.  (Seconds, not less: a loaded machine may take
    one or two to open the stream, which must still come before the play is old enough.)"""
    ledger.record_line("semi", "opening 6 1", by="kim", at=ago(15.5))  # events 2 and 3
    ledger.record_line("semi", "move 13/7 8/7", by="kim", at=ago(14.9))  # event 4
    ledger.publish("Open", by="Dana", delay=900)
    app = create_app(ledger, poll_seconds=0.05)
    token = ledger.issue_token("scorekeeper", match_id="semi")

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
        spectator = Stream(app, "/api/matches/semi/events", "since=1")
        first = await _first_events(spectator, "recorded", 3.0)  # (sooner, once they come)
        later = await _first_events(spectator, "recorded", 10.0)
        live = Stream(app, "/api/matches/semi/events", "since=1", token=token)
        theirs = await _first_events(live, "recorded", WITHIN)
        await spectator.close()
        await live.close()
        return first, later, theirs

    first, later, theirs = asyncio.run(run())
    assert [e["number"] for e in first] == [2, 3]  # the opening, 15.5 minutes old
    assert [e["number"] for e in later] == [4]  # the play, as it turned 15 minutes old
    assert later[0]["match"]["events"] == 4
    assert [e["number"] for e in theirs] == [2, 3, 4]


def test_a_delayed_wall_stream_sends_a_card_once_its_change_is_15_minutes_old(
    ledger: Ledger,
) -> None:
    ledger.record_line("semi", "opening 6 1", by="kim", at=ago(14.9))  # 15 min old in 5-6 s
    ledger.publish("Open", by="Dana", delay=900)
    app = create_app(ledger, poll_seconds=0.05)

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        wall = Stream(app, "/api/events/Open/wall/events", "since=5")  # final 4 + semi 1
        first = await _first_events(wall, "card", 1.0)
        later = await _first_events(wall, "card", 10.0)
        await wall.close()
        return first, later

    first, later = asyncio.run(run())
    assert first == []  # nothing 15 minutes old since the wall was drawn
    assert [(c["match"], c["events"]) for c in later] == [("semi", 3)]
    # and never the final's move just made: its card stays at event 4


def test_a_stream_opened_live_ends_when_the_director_delays_the_event(ledger: Ledger) -> None:
    ledger.publish("Open", by="Dana")
    app = create_app(ledger, poll_seconds=0.05)

    async def run() -> str:
        stream = Stream(app, "/api/matches/final/events", "since=6")
        # open (its first chunk sent) as a live spectator's, before the delay is given
        text = (await asyncio.wait_for(stream.chunks.get(), WITHIN)).decode()
        ledger.publish("Open", by="Dana", delay=900)
        await asyncio.wait_for(stream.task, WITHIN)  # ended by the gate
        while not stream.chunks.empty():
            text += (await stream.chunks.get()).decode()
        return text

    assert "event: withdrawn" in asyncio.run(run())


def test_many_delayed_streams_of_a_match_share_one_reading(ledger: Ledger) -> None:
    """Ten spectators following the final 15 minutes behind: what they are sent is worked out
    once (nothing turned 15 minutes old meanwhile), not once a stream or a tick."""
    delayed(ledger)
    app = create_app(ledger, poll_seconds=0.05)

    async def run() -> list[list[dict[str, Any]]]:
        streams = [Stream(app, "/api/matches/final/events", "since=0") for _ in range(10)]
        await asyncio.sleep(2.5)  # 50 ticks, two readings of the time's window
        sent = [await _first_events(stream, "recorded", WITHIN) for stream in streams]
        for stream in streams:
            await stream.close()
        return sent

    sent = asyncio.run(run())
    assert all([e["number"] for e in each] == [1, 2, 3, 4] for each in sent)
    assert app.state.delayed.worked == 1
