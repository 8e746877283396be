"""The pad draws the classic laws of the touch (CLASSIC 11) in a real browser: the form for a
man touched is offered under the classic profile, what it sends is recorded, and the play's
legend names the man that must be moved.  Screenshots at 360x740 and 1024x768."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from tests.served import browser, read_as, serving, viewport
from tests.webclient import bearer, committee

pytestmark = pytest.mark.browser


def test_a_man_touched_on_the_pad(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="c", profile="classic", by="kim")
    for line in ("opening 5 2", "play-singles"):
        ledger.record_line("c", line, by="kim")
    token = ledger.issue_token("scorekeeper", match_id="c", label="Sam")
    shots = tmp_path / "shots"
    shots.mkdir()

    def server() -> dict[str, Any]:
        mine = urllib.request.Request(f"{url}/api/matches/c", headers=bearer(token))
        with urllib.request.urlopen(mine) as answer:
            document: dict[str, Any] = json.load(answer)
            return document

    try:
        with browser() as driver, serving(ledger) as url:
            read_as(driver, url, committee(ledger))
            viewport(driver, 360, 740)
            driver.get(f"{url}/matches/c/pad?token={token}")
            wait = WebDriverWait(driver, 15, poll_frequency=0.05)
            form = driver.find_element(By.CSS_SELECTOR, 'form[data-verb="touch"]')
            wait.until(lambda _: "Ann plays" in driver.find_element(By.ID, "play-legend").text)
            driver.find_element(By.ID, "tab-more").click()  # the rarer lines' forms
            wait.until(lambda _: form.is_displayed())
            assert driver.find_element(By.CSS_SELECTOR, 'form[data-verb="jadoube"]').is_displayed()
            before = server()["events"]
            field = form.find_element(By.CSS_SELECTOR, "input")
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
            field.send_keys("6")
            form.find_element(By.CSS_SELECTOR, "button").click()
            wait.until(lambda _: server()["events"] == before + 1)
            driver.save_screenshot(str(shots / "classic-more-360.png"))
            driver.find_element(By.ID, "tab-pad").click()
            legend = driver.find_element(By.ID, "play-legend")
            wait.until(lambda _: "touched on 6" in legend.text)
            assert legend.text.startswith("Ann plays 5-2: the man touched on 6 is playable")
            driver.execute_script("arguments[0].scrollIntoView(true)", legend)
            driver.save_screenshot(str(shots / "classic-touch-360.png"))
            viewport(driver, 1024, 768)
            driver.save_screenshot(str(shots / "classic-touch-1024.png"))
    finally:
        ledger.close()
