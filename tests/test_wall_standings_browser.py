"""The wall's standings in a real browser (headless Chromium): a spectator's standings page
changes by itself when a match ends, and the wall's rotation brings it in after the boards.

Screenshots of the standings page at 360x740 and 1024x768 are saved in the test's folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bgledger.service import Ledger
from tests.served import browser, serving, viewport
from tests.test_wall_standings import MATCHES, finish

pytestmark = pytest.mark.browser


def test_the_standings_page_follows_the_results_live(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    try:
        for match_id, players in MATCHES.items():
            ledger.start(players, 1, match_id=match_id, by="kim", event="Open")
        finish(ledger, "r1", loser="b")  # Ann beats Bob
        ledger.publish("Open", by="the director")
        with browser() as driver, serving(ledger) as url:  # a spectator: no token
            viewport(driver, 360, 740)
            driver.get(f"{url}/events/Open/wall?page=standings")

            def first(d: object) -> str:
                # read in one script: the page replaces its table when a result comes in, and
                # an element found, then read, was gone between the two once (CI, under load)
                row = "var r = document.querySelector('table.standings tbody tr');"
                return str(driver.execute_script(row + " return r ? r.innerText : '';"))

            assert first(driver).split() == ["1", "Ann", "1", "0", "1", "1-0"]
            WebDriverWait(driver, 10).until(
                lambda d: d.find_element(By.ID, "live-status").text == "live"
            )
            finish(ledger, "r3", loser="a")  # Cy beats Ann: the page says so by itself
            WebDriverWait(driver, 15).until(lambda d: first(d).split()[:2] == ["1", "Cy"])
            for width, height in ((360, 740), (1024, 768)):
                viewport(driver, width, height)
                driver.save_screenshot(str(tmp_path / f"standings-{width}x{height}.png"))
                wide = driver.execute_script(
                    "return document.documentElement.scrollWidth > window.innerWidth"
                )
                assert not wide  # the table fits the screen
            # the rotation: a round over the boards ends on the standings (1 s a turn here)
            driver.get(f"{url}/events/Open/wall?rotate=1")
            WebDriverWait(driver, 20).until(lambda d: "page=standings" in d.current_url)
            WebDriverWait(driver, 20).until(lambda d: "page=standings" not in d.current_url)
    finally:
        ledger.close()
