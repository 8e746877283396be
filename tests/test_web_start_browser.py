"""A match started from the director's phone, then recorded on the pad link it shows.

Headless Chromium (:func:`tests.served.browser`) at a small phone's size
(360x740): the director pastes his token into ``/matches/new`` once, fills the
form and starts the match; the page shows the pad's address with the
scorekeeper's token after ``#``; opened, the pad records the opening roll.
The test reads what the server stored, not what the pages say.  Screenshots
of the form, the pad link and the pad at 360x740 and 768x1024 are saved in the
test's temporary folder.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from tests.served import browser, read_as, serving, viewport
from tests.webclient import committee

pytestmark = pytest.mark.browser

PHONE = (360, 740)
TABLET = (768, 1024)
SMALLEST_TEXT_PX = """
const svg = document.querySelector('#live svg');
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
const texts = svg.querySelectorAll('text');
const sizes = Array.from(texts, t => parseFloat(t.getAttribute('font-size')));
return Math.min(...sizes) * scale;
"""


def test_a_director_starts_a_match_and_the_pad_link_records_it(tmp_path: Path) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    shots = tmp_path / "shots"
    shots.mkdir()
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    director = ledger.issue_token("director", event="Open", label="Dora the director")
    try:
        with browser() as driver, serving(ledger) as url:
            read_as(driver, url, committee(ledger))  # reads as the committee
            viewport(driver, *PHONE)

            def find(css: str) -> Any:
                return driver.find_element(By.CSS_SELECTOR, css)

            def until(what: Callable[[], object], message: str) -> None:
                try:
                    WebDriverWait(driver, 15, poll_frequency=0.05).until(lambda _: what())
                except TimeoutException:
                    logs = driver.get_log("browser")
                    raise AssertionError(f"{message}; {find('main').text!r}; {logs}") from None

            def type_in(css: str, text: str) -> None:
                find(css).clear()
                find(css).send_keys(text)

            driver.get(url)
            find("#new-match").click()
            until(lambda: driver.current_url.endswith("/matches/new?event=") or
                  driver.current_url.endswith("/matches/new"), "the form opens")  # fmt: skip
            type_in("#token", director)
            find("#token-save").click()
            assert find("#token-state").text == "kept on this device"
            type_in("#a", "Ann")
            type_in("#b", "Bob <b>")
            type_in("#length", "3")
            type_in("#event", "Open")
            type_in("#id", "r1t4")
            type_in("#scorekeeper", "Sam at table 4")
            driver.save_screenshot(str(shots / "1-new-form.png"))
            find("#start").click()
            until(lambda: find("#started").is_displayed(), "the match is started")
            assert ledger.match_ids() == ["r1t4"]
            assert ledger.state("r1t4").event == "Open"
            assert ledger.state("r1t4").players == ("Ann", "Bob <b>")
            assert find("#started-players").text == "Ann v Bob <b>"  # text, not markup
            pad = find("#pad-link").get_attribute("href")
            assert pad.startswith(f"{url}/matches/r1t4/pad#token=")
            assert find("#pad-link").text == pad  # the address to type on the phone
            driver.save_screenshot(str(shots / "2-new-pad-link.png"))

            # the scorekeeper opens the link: the pad keeps the token and records
            driver.get(pad)
            until(lambda: find(".die").is_enabled(), "the pad has read the match")
            assert "token" not in driver.current_url
            for row, face in ((0, 3), (1, 1)):
                find(f'.dice-row[data-die="{row}"] .die[data-face="{face}"]').click()
            find("#dice-confirm").click()
            until(lambda: ledger.state("r1t4").events == 3, "the opening roll is recorded")
            last = ledger.history("r1t4")[-1]
            assert (last.kind, last.recorded_by) == ("OpeningRollMade", "Sam at table 4")
            until(lambda: "#3" in find("#msg-head").text, "the pad says what it recorded")
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(str(shots / "3-pad-360x740.png"))
            # the board's smallest text (a point's number), as the phone draws it
            assert driver.execute_script(SMALLEST_TEXT_PX) >= 11
            viewport(driver, *TABLET)
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(str(shots / "4-pad-768x1024.png"))
    finally:
        ledger.close()
    assert all(shot.stat().st_size > 10_000 for shot in shots.iterdir())
