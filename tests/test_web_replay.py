"""The committee's view in-process: the replay in both views, the appeal packet, the score sheet.

The match is :func:`tests.ruled_match.record_ruled_match`, whose events are
numbered by hand in its docstring; the expectations below are worked out from
that story: Bob's illegal 24/18 13/8 (event 6, pips 167 - 11 = 156) is voided
by ruling 7 (USBGF 4.2.3(a)), so he plays his 6-4 again; Ann's double to 4
(event 9, taken at 10) stands at 2 by ruling 11 (USBGF 4.4.8).
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from bgledger.commands.vocabulary import RulingNote, Undo
from bgledger.rules.profiles import UnknownProfileError
from bgledger.service import Ledger
from bgledger.store.application import MatchStore
from bgledger.web import create_app
from tests.ruled_match import record_ruled_match
from tests.webclient import reading

HOSTILE = '<script>alert("x")</script>'
ILLEGAL_PLAY_WORDS = "Players are obligated to immediately point out any play"
"""Words of the rule ruling 7 applied, as the rulebook has them (USBGF 4.2.3(a))."""
CUBE_WORDS = "the cube action will be deemed valid but the cube value will be adjusted"
"""Words of the rule ruling 11 applied (USBGF 4.4.8)."""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('replay') / 'ledger.db'}"
    with MatchStore(url) as store:
        record_ruled_match(store, "m")
    ledger = Ledger(url)
    ledger.start((HOSTILE, "Bob"), 3, match_id="evil", by=HOSTILE)
    for line in ["opening 3 1", "move 8/5 6/5", "roll 6 4"]:
        ledger.record_line("evil", line, by=HOSTILE)
    ledger.record("evil", Undo(reason=f"wrong dice {HOSTILE}"), by=HOSTILE)
    ledger.record("evil", RulingNote(reason=f"a note {HOSTILE}", ruled_by="director"), by=HOSTILE)
    yield reading(TestClient(create_app(ledger)), ledger)
    ledger.close()


def ok(client: TestClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.text
    return response.text


def step(client: TestClient, at: int, view: str, match: str = "m") -> str:
    """The page at event ``at`` in ``view``, with each ``&amp;`` read as ``&`` (links)."""
    return ok(client, f"/matches/{match}/replay?at={at}&view={view}").replace("&amp;", "&")


def pips(page: str, player: str) -> int:
    found = re.findall(rf">{player}: \d of 3 · pips (\d+)", page)
    assert len(found) == 1, found
    return int(found[0])


def dice(page: str) -> list[int]:
    return [int(value) for value in re.findall(r'<g class="die" data-value="(\d)"', page)]


def cube(page: str) -> int:
    found = re.findall(r'<g class="cube"[^>]*>.*?>(\d+)</text>', page)
    assert len(found) == 1, found
    return int(found[0])


def rulings_part(page: str) -> str:
    return page.split("<h2>Rulings", 1)[1].split("<h2>Recording errors", 1)[0]


# -- the two views, before and after a ruling ---------------------------------------------------


def test_before_its_ruling_an_illegal_play_stands_as_recorded_and_is_gone_as_corrected(
    client: TestClient,
) -> None:
    recorded, corrected = step(client, 6, "recorded"), step(client, 6, "corrected")
    assert pips(recorded, "Bob") == 156 and dice(recorded) == []  # played, Ann to roll
    assert pips(corrected, "Bob") == 167 and sorted(dice(corrected)) == [4, 6]  # still to play
    assert "[voided by ruling 7]" in corrected
    # as recorded, no ruling was in force yet; as corrected, ruling 7 bears on event 6
    assert ILLEGAL_PLAY_WORDS not in recorded and "none" in rulings_part(recorded)
    assert f"“{ILLEGAL_PLAY_WORDS}”" in rulings_part(corrected)


def test_after_the_ruling_both_views_show_the_play_taken_back(client: TestClient) -> None:
    for view in ("recorded", "corrected"):
        page = step(client, 7, view)
        assert pips(page, "Bob") == 167 and sorted(dice(page)) == [4, 6]
        assert f"“{ILLEGAL_PLAY_WORDS}”" in rulings_part(page)


def test_a_double_to_the_wrong_level_shows_at_4_as_recorded_and_at_2_as_corrected(
    client: TestClient,
) -> None:
    recorded, corrected = step(client, 10, "recorded"), step(client, 10, "corrected")
    assert cube(recorded) == 4 and CUBE_WORDS not in recorded
    assert cube(corrected) == 2
    assert CUBE_WORDS in rulings_part(corrected)  # ruling 11 names the double, voids nothing
    after = step(client, 11, "recorded")
    assert cube(after) == 2
    quoted = re.search(
        r'<blockquote class="rule-text"[^>]*>(.*?)</blockquote>',
        rulings_part(after).split(" 11 R ", 1)[1],
        re.DOTALL,
    )
    assert quoted is not None and CUBE_WORDS in quoted.group(1)


def test_each_step_links_to_its_neighbours_and_the_other_view_without_a_script(
    client: TestClient,
) -> None:
    page = step(client, 6, "recorded")
    assert 'rel="prev" data-at="5" data-view="recorded" href="?at=5&view=recorded&from=a"' in page
    assert 'rel="next" data-at="7" data-view="recorded" href="?at=7&view=recorded' in page
    assert 'href="?at=6&view=corrected&from=a"' in page  # the toggle
    assert "event 6 of 51" in page and "Bob rolled 6-4" not in page.split("event-line", 1)[1][:200]
    assert 'rel="prev"' not in step(client, 1, "recorded")
    assert 'rel="next"' not in step(client, 51, "corrected")


def test_the_step_alone_is_the_part_the_script_swaps_in(client: TestClient) -> None:
    response = client.get("/matches/m/replay/step?at=10&view=corrected")
    assert response.status_code == 200
    assert "<html" not in response.text and "event 10 of 51" in response.text
    assert cube(response.text) == 2


def test_the_board_turns_for_bob(client: TestClient) -> None:
    page = client.get("/matches/m/replay?at=6&view=recorded&from=b").text
    assert '<g class="player mine" data-player="b">' in page


# -- the appeal packet ---------------------------------------------------------------------------


def test_a_packet_has_each_event_of_the_stretch_with_the_board_before_and_after(
    client: TestClient,
) -> None:
    page = ok(client, "/matches/m/packet?from=5&to=8")
    sections = page.split('<section class="packet-step"')[1:]
    assert [re.search(r'id="event-(\d+)"', s).group(1) for s in sections] == ["5", "6", "7", "8"]  # type: ignore[union-attr]
    assert all(s.count("<svg") == 2 for s in sections)
    assert "Bob played 24/18 13/9" in sections[3]  # event 8, his 6-4 played again
    assert f"“{ILLEGAL_PLAY_WORDS}”" in rulings_part(page)  # ruling 7, made in the stretch
    assert CUBE_WORDS not in page  # ruling 11 bears on events 9-10 only
    assert "@media print" in client.get("/static/replay.css").text


def test_a_packet_lists_a_later_ruling_about_an_event_of_the_stretch(
    client: TestClient,
) -> None:
    page = ok(client, "/matches/m/packet?from=9&to=10&view=corrected")
    assert CUBE_WORDS in rulings_part(page)  # ruling 11, made after the stretch, names event 9
    assert "(2)" in page and page.count('<section class="packet-step"') == 2


def test_a_packet_from_the_first_event_says_there_was_no_board_before_it(
    client: TestClient,
) -> None:
    page = ok(client, "/matches/m/packet?from=1&to=2")
    first = page.split('id="event-1"', 1)[1].split("</section>", 1)[0]
    assert first.count("<svg") == 1 and "the match had not begun" in first


# -- corrections, names, bad requests ------------------------------------------------------------


def test_a_recording_error_corrected_and_every_name_escaped(client: TestClient) -> None:
    for url in [
        "/matches/evil/replay?at=6",
        "/matches/evil/replay/step?at=6&view=corrected",
        "/matches/evil/packet?from=2&to=6",
        "/matches/evil/scoresheet",
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "<script>alert" not in response.text, url
        assert "&lt;script&gt;alert" in response.text, url
    page = step(client, 7, "recorded", "evil")
    corrections = page.split("<h2>Recording errors corrected</h2>", 1)[1]
    assert "recording error: entry 5 (" in corrections and "withdrawn: wrong dice" in corrections
    assert "no rule cited" in rulings_part(page)  # the director's note cites none


@pytest.mark.parametrize(
    "url",
    [
        "/matches/m/replay?at=0",
        "/matches/m/replay?at=52",
        "/matches/m/replay?at=x",
        "/matches/m/replay?at=-1",
        "/matches/m/replay?at=3&view=both",
        "/matches/m/replay?at=3&from=c",
        "/matches/m/replay/step?at=99",
        "/matches/m/packet?from=8&to=5",
        "/matches/m/packet?from=0&to=5",
        "/matches/m/packet?from=2&to=52",
        "/matches/m/packet?from=2&to=5&side=c",
    ],
)
def test_a_step_that_is_no_event_is_a_bad_request(client: TestClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 400
    assert "event" in response.text or "or" in response.text


@pytest.mark.parametrize("path", ["replay", "replay/step", "packet", "scoresheet"])
def test_an_unknown_match_is_not_found(client: TestClient, path: str) -> None:
    response = client.get(f"/matches/nope/{path}")
    assert response.status_code == 404
    assert "nope" in response.text


# -- the score sheet ------------------------------------------------------------------------------


def test_the_score_sheet_page_has_each_games_last_board_and_allows_only_its_own_style(
    client: TestClient,
) -> None:
    response = client.get("/matches/m/scoresheet")
    assert response.status_code == 200
    page = response.text
    assert "<h1>Score sheet</h1>" in page and "Bob wins the match" in page
    boards = page.split("The board at each game's end", 1)[1].split("<figure>")[1:]
    captions = [re.search(r"<figcaption>(.*?)</figcaption>", b).group(1) for b in boards]  # type: ignore[union-attr]
    # the last game's board is the match's last: the length was set back to 3 at event 50
    assert captions[:2] == ["game 1: the end (event 17)", "game 2: the end (event 27)"]
    assert captions[2:] == ["game 3: the end of the match (event 51)"]
    # game 2 as corrected: Bob's Crawford-game double void, he won 1 point, not 2
    assert ">Ann: 2 of 3 ·" in boards[1] and ">Bob: 1 of 3 ·" in boards[1]
    assert ">Bob: 3 of 3 ·" in boards[2]
    style = re.search(r"<style>(.*?)</style>", page, re.DOTALL)
    assert style is not None
    digest = base64.b64encode(hashlib.sha256(style.group(1).encode()).digest()).decode()
    policy = response.headers["content-security-policy"]
    assert f"style-src 'self' 'sha256-{digest}'" in policy and "default-src 'self'" in policy
    assert "script-src" not in policy and "unsafe-inline" not in policy


def test_the_words_of_a_rule_are_the_profiles_quotes_each_once() -> None:
    words = Ledger.rule_text("usbgf-2016", "USBGF 4.2.3(a)")
    assert ILLEGAL_PLAY_WORDS in words
    assert not any(a != b and a in b for a in words for b in words)
    assert Ledger.rule_text("usbgf-2016", "USBGF 99.9") == ()
    with pytest.raises(UnknownProfileError):
        Ledger.rule_text("no-such-book", "USBGF 4.2.3(a)")
