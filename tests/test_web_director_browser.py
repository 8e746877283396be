"""The director's console and the committee's replay in a real browser (headless Chromium).

One server (uvicorn on a free port of 127.0.0.1, a SQLite ledger) and one
Chromium driven by Debian's ``chromedriver`` serve the module's tests: the
console follows a line a scorekeeper's pad posts; the director rules from the
console's picker and sees the rulings log and the match change; the committee
steps the replay with the keyboard in both views.  After each action the test
reads the server (``GET /api/matches/M``), not only the page.  Screenshots at
a phone's size (360x740) and a desktop's (1280x800) are saved in the test's
temporary folder.  Skipped where no Chromium, chromedriver or selenium is installed.
"""

from __future__ import annotations

import json
import shutil
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from tests.served import read_as, serving
from tests.webclient import committee

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
PHONE = (360, 740)
DESKTOP = (1280, 800)
ILLEGAL = ["opening 3 1", "move 8/5 6/5", "roll 6 4", "move 24/13 --as-played"]
"""Bob's 24/13 with 6-4 is event 6: one checker 11 pips (USBGF 4.2.3(a))."""


class Browser:
    """The served console: the driver, the server's URL, the tokens, and the waits."""

    def __init__(self, driver: Any, url: str, tokens: dict[str, str]) -> None:
        self.driver, self.url, self.tokens = driver, url, tokens

    def size(self, viewport: tuple[int, int]) -> None:
        width, height = viewport
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1}
        metrics["mobile"] = width < 600
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)

    def find(self, css: str) -> Any:
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def text(self, css: str) -> str:
        """The text shown by ``css`` (read at once: the console redraws its live part)."""
        shown = self.driver.execute_script(
            "var e = document.querySelector(arguments[0]); return e ? e.innerText : null", css
        )
        assert shown is not None, f"nothing shows {css}"
        return str(shown).strip()

    def until(self, what: Callable[[], object], message: str) -> None:
        from selenium.common.exceptions import (
            NoSuchElementException,
            StaleElementReferenceException,
            TimeoutException,
        )
        from selenium.webdriver.support.ui import WebDriverWait

        try:
            ignored = (NoSuchElementException, StaleElementReferenceException, AssertionError)
            WebDriverWait(self.driver, 10, 0.05, ignored).until(lambda _: what())
        except TimeoutException:
            said = self.driver.execute_script(
                "var m = document.getElementById('message'); return m ? m.innerText : ''"
            )
            logs = self.driver.get_log("browser")
            raise AssertionError(f"{message}; the page says {said!r}; {logs}") from None

    def tap(self, css: str) -> None:
        element = self.find(css)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        self.until(element.is_enabled, f"{css} is enabled")
        element.click()

    def server(self, match: str) -> dict[str, Any]:
        director = {"Authorization": f"Bearer {self.tokens['director']}"}  # reads the event
        request = urllib.request.Request(f"{self.url}/api/matches/{match}", headers=director)
        with urllib.request.urlopen(request) as answer:
            document: dict[str, Any] = json.load(answer)
            return document

    def post(self, match: str, line: str, token: str) -> None:
        request = urllib.request.Request(
            f"{self.url}/api/matches/{match}/lines",
            data=json.dumps({"line": line}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request) as answer:
            assert answer.status == 201

    def shoot(self, folder: Path, name: str, top: str | None = None) -> Path:
        if top:
            self.driver.execute_script("arguments[0].scrollIntoView(true)", self.find(top))
        shot = folder / f"{name}.png"
        self.driver.save_screenshot(str(shot))
        assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000
        return shot


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("no Chromium or chromedriver: apt-get install chromium chromium-driver")
    webdriver = pytest.importorskip("selenium.webdriver")
    ledger = Ledger(f"sqlite:///{tmp_path_factory.mktemp('director') / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open", by="kim")
    for line in ILLEGAL:
        ledger.record_line("final", line, by="kim")
    ledger.start(("Cy", "Di <i>"), 3, match_id="side", event="Open", by="kim", clock="simple-delay")
    # the committee's match: the same illegal play, reverted by the director, replayed
    ledger.start(("Eve", "Fay"), 3, match_id="appeal", event="Open", by="kim")
    for line in [*ILLEGAL, "revert 6 --reason one checker 11 pips", "move 24/18 13/9"]:
        ledger.record_line("appeal", line, by="tom")
    # the Cup: two tables needing the director (a play flagged illegal), one not
    for match in ("cup1", "cup2", "cup3"):
        ledger.start(("Gil", "Hal"), 3, match_id=match, event="Cup", by="kim")
    for line in ILLEGAL:
        ledger.record_line("cup1", line, by="kim")
        ledger.record_line("cup2", line, by="kim")
    tokens = {
        "director": ledger.issue_token("director", event="Open", label="Tom, TD"),
        "side": ledger.issue_token("scorekeeper", match_id="side", label="Sam at table 2"),
        "cup3": ledger.issue_token("scorekeeper", match_id="cup3", label="Una at table 3"),
    }
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
    with serving(ledger) as url:
        driver = webdriver.Chrome(options=options, service=service)
        read_as(driver, url, committee(ledger))  # reads as the committee (the pages write
        try:  # with the token each keeps)
            yield Browser(driver, url, tokens)
        finally:
            driver.quit()
    ledger.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = tmp_path / "shots"
    folder.mkdir()
    return folder


def card(css: str = "") -> str:
    return f'#console .card[data-match="side"] {css}'.strip()


def test_the_console_follows_a_line_posted_by_a_pad(browser: Browser, shots: Path) -> None:
    browser.size(DESKTOP)
    browser.driver.get(f"{browser.url}/events/Open/director")
    browser.until(lambda: browser.text("#live-status") == "live", "the stream is open")
    assert "not begun" in browser.text(card(".state"))
    assert "Di <i>" in browser.text(card(".players"))  # the name as typed, not markup
    browser.shoot(shots, "1-desktop-console")

    browser.size(PHONE)
    browser.post("side", "opening 6 1", browser.tokens["side"])  # Sam's pad, at table 2
    browser.until(lambda: "Cy to move" in browser.text(card(".turn")), "the console follows")
    assert browser.text(card(".state")) == "game 1 · Cy to move"
    browser.tap(card(".open-card"))  # the full card, on demand: its last entries
    browser.until(lambda: browser.find("#card-view .last-lines"), "the full card opens")
    assert "Di <i> rolled the lower die: Cy's time runs" in browser.text("#card-view .last-lines")
    assert "6:00" in browser.text(card(".reserves"))  # the 3-point match's reserve
    browser.post("side", "move 13/7 8/7", browser.tokens["side"])
    # Cy's hit is due before Di <i> rolls (USBGF 4.1.8.1): the card says so (issue 31)
    browser.until(lambda: "Cy to hit the clock" in browser.text(card(".turn")), "the next line")
    assert browser.server("side")["turn"] == "b"
    browser.shoot(shots, "2-phone-followed", top=card())


def test_a_ruling_made_from_the_consoles_picker(browser: Browser, shots: Path) -> None:
    browser.size(DESKTOP)
    # the director's token comes once in the address, is kept, and leaves the address
    browser.driver.get(f"{browser.url}/events/Open/director?token={browser.tokens['director']}")
    browser.until(lambda: "kept" in browser.text("#token-state"), "the token is kept")
    assert "token" not in browser.driver.current_url
    final = '#console .card[data-match="final"]'
    assert "flagged: event 6" in browser.text(f"{final} .need.flagged")
    assert "Ann to roll" in browser.text(f"{final} .turn")  # after Bob's play

    browser.tap(f'{final} .open-desk[data-match="final"]')
    browser.until(lambda: browser.find("#desk-history .entry"), "the desk opens")
    # the Rule button says what it waits for, from the start
    assert not browser.find("#ruling-send").is_enabled()
    assert browser.text("#ruling-wants") == "pick an event in the history first"
    # an event no ruling applies to: nothing is open
    browser.tap('#desk-history .entry[data-number="3"]')
    browser.until(lambda: "no ruling is open" in browser.text("#open-rulings"), "none open")
    assert browser.text("#ruling-wants") == "no ruling is open at this event"
    # Bob's illegal play: revert is open, under USBGF 4.2.3(a), its words quoted
    browser.tap('#desk-history .entry[data-number="6"]')
    browser.until(lambda: "revert" in browser.text("#open-rulings"), "the picker lists revert")
    listed = browser.text("#open-rulings .open-ruling")
    assert "USBGF 4.2.3(a)" in listed
    assert "Bob's illegal play 24/13 taken back" in listed
    assert "does not conform to the rules of backgammon" in browser.text("#open-rulings blockquote")
    assert not browser.find("#ruling-send").is_enabled()  # no ruling chosen, no reason yet
    assert browser.text("#ruling-wants") == "choose a ruling first"
    browser.tap("#open-rulings input[type=radio]")
    browser.until(lambda: browser.text("#ruling-wants") == "give the reason", "the reason next")
    assert not browser.find("#ruling-send").is_enabled()
    browser.find("#ruling-reason").send_keys('one checker 11 pips; Bob\'s "6-5" was a 6-4')
    browser.until(lambda: browser.find("#ruling-send").is_enabled(), "ready to rule")
    assert browser.text("#ruling-wants") == ""
    browser.shoot(shots, "3-desktop-picker", top="#desk")
    browser.size(PHONE)
    browser.shoot(shots, "3-phone-picker", top="#picker")
    browser.size(DESKTOP)
    events = browser.server("final")["events"]
    browser.tap("#ruling-send")

    browser.until(lambda: browser.server("final")["events"] > events, "the ruling is recorded")
    browser.until(lambda: "recorded" in browser.find("#message").get_attribute("class"), "said")
    assert "RULING (USBGF 4.2.3(a), director)" in browser.text("#msg-head")
    document = browser.server("final")
    assert (document["phase"], document["turn"], document["dice"]) == ("play", "b", [6, 4])
    log = '#rulings-log tr[data-match="final"]'
    browser.until(lambda: browser.find(log), "the rulings log lists it")
    row = browser.text(log)
    assert "final#7" in row and "play reverted (event 6)" in row and "in force" in row
    assert 'Bob\'s "6-5" was a 6-4' in row
    browser.until(lambda: "Bob to move" in browser.text(f"{final} .turn"), "Bob plays again")
    assert not browser.driver.find_elements("css selector", f"{final} .need.flagged")
    browser.until(lambda: "voided by ruling 7" in browser.text("#desk-history"), "history too")

    # a late arrival once the match is under way: refused, with the rule and why
    browser.tap('#late-panel button[data-line="late a"]')
    browser.until(lambda: "refused" in browser.find("#message").get_attribute("class"), "no")
    assert browser.text("#msg-rule-text") == "USBGF 2.2.4"
    assert "the match is under way" in browser.text("#msg-head")
    assert browser.server("final")["events"] == document["events"]
    browser.shoot(shots, "4-desktop-ruled", top="#rulings-log")

    # a penalty point against Ann, under the rule picked from the profile's
    browser.find("#penalty-reason").send_keys("Ann's phone rang")
    browser.tap("#penalty-send")
    browser.until(lambda: browser.server("final")["score"] == {"a": 0, "b": 1}, "Bob scores it")
    assert browser.server("final")["penalty_points"] == {"a": 1, "b": 0}
    browser.until(lambda: "Ann 1 · Bob 0" in browser.text(f"{final} .penalties"), "the card")
    row = browser.text('#rulings-log tr[data-match="final"]:last-child')
    assert "USBGF 2.2.4" in row and "Ann's phone rang" in row
    browser.size(PHONE)
    browser.shoot(shots, "5-phone-penalty", top="#message")


def test_the_need_you_count_stays_the_tables_needing_the_director(
    browser: Browser, shots: Path
) -> None:
    browser.size(DESKTOP)
    browser.driver.get(f"{browser.url}/events/Cup/director")
    browser.until(lambda: browser.text("#live-status") == "live", "the stream is open")

    def count() -> str:
        return browser.text('#matches .count[data-count="needs"]')

    def needing() -> list[str]:
        found = browser.driver.find_elements("css selector", "#items > .needs")
        return sorted(str(card.get_attribute("data-match")) for card in found)

    assert (count(), needing()) == ("2", ["cup1", "cup2"])
    cup3 = '#console .card[data-match="cup3"]'
    browser.post("cup3", "opening 3 1", browser.tokens["cup3"])  # a live update
    browser.until(lambda: "Gil to move" in browser.text(f"{cup3} .turn"), "the console follows")
    assert (count(), needing()) == ("2", ["cup1", "cup2"])
    browser.post("cup3", "move 8/5 6/5", browser.tokens["cup3"])
    browser.post("cup3", "roll 6 4", browser.tokens["cup3"])
    browser.post("cup3", "move 24/13 --as-played", browser.tokens["cup3"])  # flagged: needs you
    browser.until(lambda: "cup3" in needing(), "the third table needs the director")
    assert (count(), needing()) == ("3", ["cup1", "cup2", "cup3"])
    browser.tap('#matches .filter[data-filter="needs"]')
    tables = browser.driver.find_elements("css selector", "#items > *")
    assert len([shown for shown in tables if shown.is_displayed()]) == 3
    browser.shoot(shots, "8-desktop-needs")


def test_the_committee_steps_the_replay_in_both_views(browser: Browser, shots: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    browser.size(DESKTOP)
    browser.driver.get(f"{browser.url}/matches/appeal/replay?at=6&view=recorded")
    browser.until(lambda: not browser.find("#replay-keys").get_attribute("hidden"), "keys")
    body = browser.find("body")

    def step(key: str, where: str, view: str) -> str:
        body.send_keys(key)
        browser.until(
            lambda: where in browser.text(".where") and browser.text(".view-name").lower() == view,
            f"{key}: {where}, {view}",
        )
        return str(browser.find("#replay svg").get_attribute("outerHTML"))

    recorded = str(browser.find("#replay svg").get_attribute("outerHTML"))
    assert "ILLEGAL: Fay played 24/13" in browser.text("pre.event-line")
    corrected = step("t", "event 6 of", "corrected")  # the play as the ruling left it: void
    assert corrected != recorded
    browser.shoot(shots, "6-desktop-corrected")
    before = step(Keys.ARROW_LEFT, "event 5 of", "corrected")
    assert step("t", "event 5 of", "recorded") == before  # before the play, the views agree
    assert step(Keys.ARROW_RIGHT, "event 6 of", "recorded") == recorded
    browser.size(PHONE)
    step(Keys.END, "event 8 of 8", "recorded")
    browser.shoot(shots, "7-phone-replay-end")
    assert "Fay played 24/18 13/9" in browser.text("pre.event-line")
