"""The scorekeeper's pad in a real browser: a game recorded by tapping, in headless Chromium.

Selenium drives Debian's Chromium through Debian's ``chromedriver`` (both
installed by ``.ci/run``) at a phone's size (390x844), then a tablet's; the
server is uvicorn on a free port of 127.0.0.1 with a SQLite ledger in the
test's temporary folder.  After every tap the test reads what the server
recorded (``GET /api/matches/final``), not what the page says it did.
Screenshots are saved in the temporary folder.  Skipped where no Chromium,
chromedriver or selenium is installed.
"""

from __future__ import annotations

import json
import re
import time
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

PHONE = (390, 844)
TABLET = (820, 1180)


@pytest.fixture
def pad(tmp_path: Path) -> Iterator[tuple[Any, str, str, datetime]]:
    """A browser, the server's URL, a scorekeeper's token for match ``final``, and the moment
    Cy's time began to run at the second table, ``side``."""
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 3, match_id="final", clock="simple-delay", by="kim")
    token = ledger.issue_token("scorekeeper", match_id="final", label="Sam at table 4")
    # a second table, where Ann's time has been running for half a minute
    now = datetime.now(UTC)
    ago = [(now - timedelta(seconds=s)).isoformat() for s in (60, 30)]
    ledger.start(("Cy", "Di"), 3, match_id="side", clock="simple-delay", by="kim", at=ago[0])
    ledger.record_line("side", f"@{ago[1]} opening 3 1", by="kim")
    try:
        with browser() as driver, serving(ledger) as url:
            read_as(driver, url, committee(ledger))  # reads as the committee
            size(driver, PHONE)
            yield driver, url, token, now - timedelta(seconds=30)
    finally:
        ledger.close()


def size(driver: Any, screen: tuple[int, int]) -> None:
    """A phone's or a tablet's screen."""
    viewport(driver, *screen)


def test_a_game_recorded_by_tapping_on_a_phone(
    pad: tuple[Any, str, str, datetime], tmp_path: Path
) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver, url, token, opened = pad
    shots = tmp_path / "shots"
    shots.mkdir()

    def server() -> dict[str, Any]:
        mine = urllib.request.Request(f"{url}/api/matches/final", headers=bearer(token))
        with urllib.request.urlopen(mine) as answer:  # the pad's token reads its match
            document: dict[str, Any] = json.load(answer)
            return document

    def until(what: Callable[[], object], message: str) -> None:
        try:
            WebDriverWait(driver, 15, poll_frequency=0.05).until(lambda _: what())
        except TimeoutException:
            logs = driver.get_log("browser")
            raise AssertionError(f"{message}; the pad: {find('#message').text!r}; {logs}") from None

    def find(css: str) -> Any:
        return driver.find_element(By.CSS_SELECTOR, css)

    def tap(css: str) -> None:
        from selenium.common.exceptions import StaleElementReferenceException

        for _ in range(5):  # the board is drawn again as a play is built: found afresh
            try:
                until(
                    lambda: find(css).is_displayed() and find(css).is_enabled(), f"{css} is offered"
                )
                element = find(css)
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
                element.click()
                return
            except StaleElementReferenceException:
                continue
        raise AssertionError(f"{css}: redrawn under every tap")

    def act(css: str) -> dict[str, Any]:
        """Tap ``css``; the server's document once it has recorded the line the tap posted."""
        before = server()["events"]
        tap(css)
        until(lambda: server()["events"] > before, f"{css}: the server records")
        events = server()["events"]
        until(lambda: f"#{events} " in find("#msg-head").text + " ", f"the pad says #{events}")
        return server()

    def die(row: int, face: int) -> None:
        tap(f'.dice-row[data-die="{row}"] .die[data-face="{face}"]')

    def point(name: str) -> None:
        tap(f'#live [data-point="{name}"]')

    def shoot(name: str, top: str | None = None) -> None:
        if top:  # that element at the top of the screen
            driver.execute_script("arguments[0].scrollIntoView(true)", find(top))
        driver.save_screenshot(str(shots / f"{name}.png"))

    # the token comes in the address once, is kept, and leaves the address
    driver.get(f"{url}/matches/final/pad?token={token}")
    until(lambda: find(".die").is_enabled(), "the pad has read the match")
    assert "token" not in driver.current_url
    assert driver.execute_script("return localStorage.getItem('bgledger.pad.token.final')") == token
    assert find("#dice-legend").text == "Opening roll"
    assert not find("#play-confirm").is_enabled() and not find("[data-line=double]").is_enabled()
    shoot("1-phone-start")

    # the opening roll: Ann's die, Bob's die, confirm
    die(0, 3)
    die(1, 1)
    assert find("#dice-confirm").text == "Opening 3-1"
    rolled = time.monotonic()
    document = act("#dice-confirm")
    assert (document["phase"], document["turn"], document["dice"]) == ("play", "a", [3, 1])
    until(lambda: "running" in find("#reserve-a").get_attribute("class"), "Ann's time runs")

    # an illegal play, tapped: refused with the rule and the next step; nothing recorded
    point("24")
    point("18")
    assert find("#notation").text == "24/18"
    events = server()["events"]
    tap("#play-confirm")
    until(lambda: find("#message").get_attribute("class") == "message refused", "a refusal")
    assert "moves more than 3-1 allows" in find("#msg-head").text
    assert find("#msg-rule-text").text == "USBGF 4.2.3(a)"
    # what to do, in words and buttons, never a command line
    assert "24/23 24/21" in find("#next-words").text and "move " not in find("#next-words").text
    labels = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#next-buttons button")]
    assert labels == ["Record as played", "Undo the roll"]
    assert server()["events"] == events
    shoot("2-phone-refused")

    # the play Ann made, tapped checker by checker; one step taken back on the way
    tap("#play-clear")
    point("8")
    point("4")
    assert find("#notation").text == "8/4"
    tap("#step-undo")
    point("8")
    point("5")
    point("6")
    point("5")
    assert find("#notation").text == "8/5 6/5"
    document = act("#play-confirm")
    assert (document["phase"], document["turn"], document["dice"]) == ("roll", "b", None)
    assert document["board"] != "4HPwATDgc/ABMA"  # no longer the starting position
    # the board stays on Ann's side (each player keeps a colour); Ann's hit is due
    assert "from Ann's side" in find("#live svg").get_attribute("aria-label")
    until(lambda: "Ann's hit is due" in find("#hit-who").text, "the pad says whose hit is due")

    # the clock: Ann hits, Bob's time runs
    document = act("#hit")
    assert document["clock"]["running"] == "b"
    until(lambda: find("#dice-legend").text == "Bob rolls", "Bob is on roll")
    until(lambda: "running" in find("#reserve-b").get_attribute("class"), "Bob's time runs")
    # Ann's reserve: the profile's 6:00 for a 3-point match, less what her turn took past its
    # delay (on a loaded machine the taps above can take longer than the delay), as the server
    # counts it and the pad shows it, to the second
    left = document["clock"]["reserve_ms"]["a"]
    assert 360_000 - (time.monotonic() - rolled) * 1000 <= left <= 360_000
    assert find("#reserve-a b").text == f"{left // 60_000}:{left // 1000 % 60:02d}"
    shoot("3-phone-clock", top=".pad-board .score")

    # a recording error: 6-3 entered for another roll, then undone
    die(0, 6)
    die(1, 3)
    document = act("#dice-confirm")
    assert document["dice"] == [6, 3]
    tap("#tab-more")  # the recording errors are on More
    document = act("#undo")
    assert (document["phase"], document["dice"]) == ("roll", None)
    assert "recording error" in find("#msg-head").text
    shoot("4-phone-undone")
    tap("#tab-pad")

    # Bob doubles, Ann drops: Bob wins the game
    assert not find("[data-line=take]").is_enabled()
    document = act("[data-line=double]")
    assert (document["phase"], document["cube"]["offered"]) == ("doubled", True)
    act("[data-line=hit]")  # Bob hits after doubling (USBGF 4.4.3)
    assert find("[data-line=drop]").is_enabled() and not find("[data-line=double]").is_enabled()
    tap("[data-line=drop]")
    until(lambda: server()["phase"] == "between-games", "the game is over")
    document = server()
    assert document["score"] == {"a": 0, "b": 1}
    until(lambda: find("#dice-legend").text == "Opening roll", "the pad offers game 2")
    shoot("5-phone-dropped", top=".pad-board .score")

    # on a tablet: game 2's opening roll and a play typed as a line
    size(driver, TABLET)
    die(0, 5)
    die(1, 2)
    tap("#dice-confirm")
    until(lambda: server()["phase"] == "play", "game 2's opening roll")
    tap("#tab-more")  # the typed line is on More
    line = find("#line")
    line.send_keys("move 13/8 13/11")
    tap("#line-send")
    until(lambda: server()["turn"] == "b", "Ann's play recorded")
    assert server()["game"] == 2

    # a roll entered wrong, amended by its entry number
    tap("#tab-pad")
    act("#hit")
    die(0, 6)
    die(1, 3)
    wrong = act("#dice-confirm")["events"]
    tap("#tab-more")
    find("#amend-n").send_keys(str(wrong))
    find("#amend-line").send_keys("roll 6 4")
    document = act("#amend-send")
    assert (document["dice"], document["turn"], document["phase"]) == ([6, 4], "b", "play")
    assert f"entry {wrong}" in find("#msg-head").text
    shoot("6-tablet-typed", top=".pad-board")

    # the other table's pad: Cy's reserve counts down, from the server's figures at his
    # opening roll (6:00, when the test began less 30 s) less the time since beyond the 12 s delay
    driver.get(f"{url}/matches/side/pad")
    until(lambda: "running" in find("#reserve-a").get_attribute("class"), "Cy's time runs")

    def seconds() -> int:
        shown = re.fullmatch(r"(\d+):(\d\d)", find("#reserve-a b").text)
        assert shown, find("#reserve-a b").text
        return 60 * int(shown[1]) + int(shown[2])

    first = seconds()
    ran = (datetime.now(UTC) - opened).total_seconds()
    assert 360 - (ran - 12) - 2 <= first <= 360 - (ran - 12) + 1, (first, ran)
    until(lambda: seconds() < first, "Cy's reserve counts down")
    assert find("#reserve-b b").text == "6:00"
    assert "kept on this device" not in find("#token-state").text  # a token is for its match
    for shot in shots.iterdir():
        assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000
