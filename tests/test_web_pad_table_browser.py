"""The pad at the table, in headless Chromium: a play drawn on the board as it is built.

A scorekeeper taps a play point by point; after each tap the test reads the board as he
sees it (the checkers on each point, by the number written on the point), not the page's
script.  Bob moves with Ann's board turned toward Ann: the points are numbered from Bob's
side while he moves, his checker hits Ann's blot (which goes to the bar), *Undo step* takes
the moves back one by one, and the play sent is the one the board showed.  At a phone's
size (360x740) and a tablet's (1024x768); screenshots are saved in the test's folder.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from tests.served import browser, read_as, serving, viewport
from tests.webclient import bearer, committee

pytestmark = pytest.mark.browser

PHONE, TABLET = (360, 740), (1024, 768)

FIND_POINT = """
var groups = document.querySelectorAll("#live .board-box g.point");
for (var i = 0; i < groups.length; i++) {
  var number = groups[i].querySelector("text.number");
  if (number && number.textContent.trim() === arguments[0]) {
    groups[i].scrollIntoView({block: "center"});
    return groups[i];
  }
}
return null;
"""
"""The board's point numbered ``arguments[0]``, scrolled into view."""

READ_BOARD = """
const seen = {};
for (const group of document.querySelectorAll('#live .board-box g.point')) {
  const label = group.querySelector('text.number');
  const name = label ? label.textContent : group.dataset.point;
  const count = {mine: 0, theirs: 0};
  for (const c of group.querySelectorAll('.checker')) { count[c.classList[1]] += 1; }
  const tall = group.querySelector('text.count');
  if (tall) { count[count.mine ? 'mine' : 'theirs'] = Number(tall.textContent); }
  seen[name] = count;
}
return seen;
"""


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Any, str, str, str]]:
    """A browser, the server's URL and a scorekeeper's token for ``final``: Ann opened 6-2
    (24/18 13/11, a blot on her 18 point, Bob's 7), Bob has rolled 6-1."""
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 3, match_id="final", by="kim", event="Club night")
    for line in ("opening 6 2", "move 24/18 13/11", "roll 6 1"):
        ledger.record_line("final", line, by="kim")
    token = ledger.issue_token("scorekeeper", match_id="final", label="Sam")
    director = ledger.issue_token("director", event="Club night", label="Dee")
    try:
        with browser() as driver, serving(ledger) as url:
            read_as(driver, url, committee(ledger))
            yield driver, url, token, director
    finally:
        ledger.close()


@pytest.mark.parametrize("screen", [PHONE, TABLET], ids=["phone", "tablet"])
def test_a_play_is_drawn_on_the_board_as_it_is_tapped(
    table: tuple[Any, str, str, str], screen: tuple[int, int], tmp_path: Path
) -> None:
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver, url, token, _ = table
    viewport(driver, *screen)
    name = f"{screen[0]}x{screen[1]}"

    def until(what: Callable[[], object], message: str) -> None:
        try:
            WebDriverWait(driver, 10, poll_frequency=0.05).until(lambda _: what())
        except TimeoutException:
            raise AssertionError(f"{message}; {driver.get_log('browser')}") from None

    def find(css: str) -> Any:
        return driver.find_element(By.CSS_SELECTOR, css)

    def board() -> dict[str, dict[str, int]]:
        seen: dict[str, dict[str, int]] = driver.execute_script(READ_BOARD)
        return seen

    def tap(label: str) -> None:
        """Tap the point the board numbers ``label`` (as the scorekeeper reads it).  The point
        is found and tapped at once: the pad may draw its board again between two reads (a
        stale element, seen under load)."""
        for _ in range(5):
            group = driver.execute_script(FIND_POINT, label)
            if group is None:
                raise AssertionError(f"no point numbered {label}")
            try:
                group.click()
                return
            except StaleElementReferenceException:
                continue
        raise AssertionError(f"the point numbered {label} was drawn again at each tap")

    def shows(point: str, mine: int, theirs: int) -> Callable[[], bool]:
        return lambda: board().get(point) == {"mine": mine, "theirs": theirs}

    driver.get(f"{url}/matches/final/pad?token={token}")
    until(lambda: find("#play-legend").text.startswith("Bob"), "the pad offers Bob's play")
    # the board from Ann's side (mine: Ann's light checkers), numbered from Bob's, the mover's:
    # Bob's 13 point (his 5 checkers) at the bottom left, where Ann's 12 point is
    assert board()["13"] == {"mine": 0, "theirs": 5}
    assert board()["7"] == {"mine": 1, "theirs": 0}  # Ann's blot on her 18 point
    assert board()["bar"] == {"mine": 0, "theirs": 0}

    tap("13")
    tap("7")  # 13/7*: Bob's checker on his 7 point, Ann's blot to the bar
    until(shows("7", 0, 1), "Bob's checker is drawn on his 7 point")
    assert board()["13"] == {"mine": 0, "theirs": 4}
    assert board()["bar"] == {"mine": 1, "theirs": 0}
    tap("8")
    tap("7")  # 8/7: the point made
    until(shows("7", 0, 2), "Bob's second checker is drawn on his 7 point")
    assert board()["8"] == {"mine": 0, "theirs": 2}
    assert find("#notation").text == "13/7 8/7"
    driver.save_screenshot(str(tmp_path / f"pad-play-built-{name}.png"))

    find("#step-undo").click()  # 8/7 taken back
    until(shows("8", 0, 3), "Undo step puts the checker back on 8")
    assert board()["7"] == {"mine": 0, "theirs": 1}
    find("#step-undo").click()  # 13/7* taken back: Ann's checker off the bar
    until(shows("7", 1, 0), "Undo step puts Ann's blot back")
    assert board()["bar"] == {"mine": 0, "theirs": 0}
    assert board()["13"] == {"mine": 0, "theirs": 5}

    # a move from a point without his checker is refused in words, and not drawn; Undo step
    # takes it back
    tap("20")
    tap("14")
    until(lambda: "Bob has no checker on point 20" in find("#message").text, "the pad says why")
    assert find("#notation").text == "20/14"
    driver.save_screenshot(str(tmp_path / f"pad-play-refused-{name}.png"))
    assert board()["20"] == {"mine": 0, "theirs": 0} and board()["14"] == {"mine": 1, "theirs": 0}
    find("#step-undo").click()
    until(lambda: find("#notation").text != "20/14", "Undo step takes it back")

    tap("13")
    tap("7")
    until(shows("7", 0, 1), "13/7* drawn again")
    tap("8")
    tap("7")
    until(shows("7", 0, 2), "the play built again")
    find("#play-confirm").click()
    ask = urllib.request.Request(f"{url}/api/matches/final", headers=bearer(token))
    until(lambda: json.load(urllib.request.urlopen(ask))["events"] == 6, "the play recorded")
    document = json.load(urllib.request.urlopen(ask))
    # 13/7* 8/7 as the board showed it: Bob 167 - 7 pips; Ann's blot from her 18 point to the
    # bar, 159 - 18 + 25
    assert document["pips"] == {"a": 166, "b": 160}
    assert document["phase"] == "roll" and document["turn"] == "a"


@pytest.fixture
def out_of_time(tmp_path: Path) -> Iterator[tuple[Any, str, str]]:
    """A browser, the server's URL and a scorekeeper's token for ``late``: Ann won the opening
    roll three hours ago and her time has run since (a 3-point match's reserve is minutes)."""
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    now = datetime.now(UTC)
    ago = [(now - timedelta(hours=h)).isoformat() for h in (3.1, 3)]
    ledger.start(("Ann", "Bob"), 3, match_id="late", clock="simple-delay", by="kim", at=ago[0])
    ledger.record_line("late", f"@{ago[1]} opening 3 1", by="kim")
    token = ledger.issue_token("scorekeeper", match_id="late", label="Sam")
    try:
        with browser() as driver, serving(ledger) as url:
            read_as(driver, url, committee(ledger))
            yield driver, url, token
    finally:
        ledger.close()


@pytest.mark.parametrize("screen", [PHONE, TABLET], ids=["phone", "tablet"])
def test_time_up_is_said_on_the_pad_with_what_may_happen_now(
    out_of_time: tuple[Any, str, str], screen: tuple[int, int], tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver, url, token = out_of_time
    viewport(driver, *screen)

    def find(css: str) -> Any:
        return driver.find_element(By.CSS_SELECTOR, css)

    driver.get(f"{url}/matches/late/pad?token={token}")
    wait = WebDriverWait(driver, 10, poll_frequency=0.05)
    wait.until(lambda _: find("#time-up").is_displayed())
    words = find("#time-up").text
    assert "Time up on Ann's clock (0:00)" in words, words
    assert "Ann forfeits the match (USBGF 4.3.3)" in words, words
    assert not find("#play-panel").is_displayed()  # no play offered as if time remained
    assert "Ann's time is up" in find("#hit-who").get_attribute("textContent")
    driver.save_screenshot(str(tmp_path / f"pad-time-up-{screen[0]}x{screen[1]}.png"))
    if screen == TABLET:  # nobody announced it: the scorekeeper plays on
        find("#play-on").click()
        wait.until(lambda _: find("#play-panel").is_displayed())
        assert not find("#time-up").is_displayed()
        return
    find("#time-up [data-line='flag a']").click()
    ask = urllib.request.Request(f"{url}/api/matches/late", headers=bearer(token))
    wait.until(lambda _: json.load(urllib.request.urlopen(ask))["winner"] == "b")
    wait.until(lambda _: not find("#time-up").is_displayed())


WORDS_SPLIT = """
const split = [];
for (const word of document.querySelectorAll('#pad-history .word')) {
  if (word.getClientRects().length > 1) { split.push(word.textContent); }
}
return split;
"""


def test_more_history_keeps_each_word_whole_and_shows_times_one_way(
    table: tuple[Any, str, str, str], tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver, url, token, director_token = table
    viewport(driver, *PHONE)
    driver.get(f"{url}/matches/final/pad?token={token}")
    wait = WebDriverWait(driver, 10, poll_frequency=0.05)
    wait.until(lambda _: driver.find_element(By.ID, "play-legend").text.startswith("Bob"))

    def send(line: str, who: str) -> None:
        asked = urllib.request.Request(
            f"{url}/api/matches/final/lines",
            data=json.dumps({"line": line}).encode(),
            headers={**bearer(who), "Content-Type": "application/json"},
        )
        assert urllib.request.urlopen(asked).status == 201

    send("undo", token)  # Bob's roll withdrawn (x), the correction (C)
    send('penalty a 1 "USBGF 5.3.1" late', director_token)
    driver.find_element(By.ID, "tab-more").click()
    # read in one go in the page: the list is redrawn as the live part comes in, and an
    # element read from Python between two redraws is stale
    read = "return [...document.querySelectorAll('#pad-history li')].map(li => li.innerText)"
    lines = lambda: list(driver.execute_script(read))  # noqa: E731
    wait.until(lambda _: len(lines()) == 7)
    driver.save_screenshot(str(tmp_path / "pad-more-history-360x740.png"))
    shown = lines()
    assert "penalty point against Ann" in shown[0], shown[0]
    assert shown[1].startswith("6 C ") and shown[2].startswith("5 x "), shown[1:3]
    for line in shown:  # a time of day each, a marked entry's as the others'
        assert re.match(r"\d+ ([xC] )?\d\d:\d\d:\d\d ", " ".join(line.split())), line
        assert not re.search(r"\d{4}-\d\d-\d\d", line), line
    assert driver.execute_script(WORDS_SPLIT) == []  # no word broken over two lines
    assert any("rolled 6-1" in " ".join(line.split()) for line in shown)
