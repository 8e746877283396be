"""The new-match page's QR code, read back in a real browser (headless Chromium).

The director starts a match on ``/matches/new``; the page shows the pad's address and
its QR code (inline SVG from the server), which the test draws on a canvas in the page
and decodes with zxing-cpp: it is the pad's link.  Screenshots of the started page,
the match page and a replay step (with their ids) at 360x740 and 1024x768 are saved in
the test's folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bgledger.service import Ledger
from tests.qr import decode, png_rows
from tests.served import browser, read_as, serving, viewport
from tests.webclient import committee

pytestmark = pytest.mark.browser


def test_the_qr_code_decodes_to_the_pads_link(tmp_path: Path) -> None:
    pytest.importorskip("zxingcpp", reason="zxing-cpp reads the QR code back")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    director = ledger.issue_token("director", event="Open", label="Dora")
    try:
        with browser() as driver, serving(ledger) as url:
            read_as(driver, url, committee(ledger))  # reads as the committee
            viewport(driver, 360, 740)
            driver.get(f"{url}/matches/new?event=Open&token={director}")
            driver.find_element(By.ID, "a").send_keys("Ann")
            driver.find_element(By.ID, "b").send_keys("Bob")
            driver.find_element(By.ID, "id").send_keys("r1t4")
            driver.find_element(By.ID, "start").click()
            WebDriverWait(driver, 10).until(
                lambda d: d.find_element(By.ID, "started").is_displayed()
            )
            link = driver.find_element(By.ID, "pad-link").get_attribute("href")
            assert link.startswith(f"{url}/matches/r1t4/pad#token=")
            assert driver.find_element(By.ID, "pad-copy").get_attribute("data-copy") == link
            code = driver.find_element(By.CSS_SELECTOR, "#pad-qr svg")
            assert decode(png_rows(code.screenshot_as_png)) == link  # what the phone sees
            driver.save_screenshot(str(tmp_path / "new-360x740.png"))
            ledger.record_line("r1t4", "opening 5 2", by="kim")
            for width, height in ((360, 740), (1024, 768)):
                viewport(driver, width, height)
                driver.get(f"{url}/matches/new?event=Open")
                driver.save_screenshot(str(tmp_path / f"form-{width}x{height}.png"))
                driver.get(f"{url}/matches/r1t4")
                assert "XGID=" in driver.find_element(By.CSS_SELECTOR, ".ids").text
                driver.save_screenshot(str(tmp_path / f"match-{width}x{height}.png"))
                driver.get(f"{url}/matches/r1t4/replay?at=3")
                driver.execute_script("document.querySelector('.ids').scrollIntoView()")
                driver.save_screenshot(str(tmp_path / f"replay-{width}x{height}.png"))
                driver.get(f"{url}/events/Open/director")
                driver.save_screenshot(str(tmp_path / f"director-{width}x{height}.png"))
    finally:
        ledger.close()
