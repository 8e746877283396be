"""A score sheet's receipt in a real browser (headless Chromium): its QR code reads back as the
receipt's code, and the check page, given that code, says the result holds.

Screenshots of the score sheet's receipt and of the check page at 360x740 and 1024x768 are
saved in the test's folder.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

from bgledger.service import Ledger, receipt_code
from tests.qr import decode, png_rows
from tests.served import browser, read_as, serving, viewport
from tests.webclient import committee

pytestmark = pytest.mark.browser


def test_the_score_sheets_qr_code_is_the_receipt_and_the_page_checks_it(tmp_path: Path) -> None:
    pytest.importorskip("zxingcpp", reason="zxing-cpp reads the QR code back")
    from selenium.webdriver.common.by import By

    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    try:
        ledger.start(("Ann", "Bob"), 3, match_id="final", by="kim")
        for line in ("opening 6 5", "move 24/18 18/13", "roll 6 4", "move 24/18 13/9"):
            ledger.record_line("final", line, by="kim")
        ledger.keygen(tmp_path / "td.pem")
        code = receipt_code(ledger.seal("final", tmp_path / "td.pem"))
        with browser() as driver, serving(ledger) as url:
            read_as(driver, url, committee(ledger))
            for width, height in ((360, 740), (1024, 768)):
                viewport(driver, width, height)
                driver.get(f"{url}/matches/final/scoresheet")
                drawn = driver.find_element(By.CSS_SELECTOR, "section.receipt div.qr svg")
                driver.execute_script("arguments[0].scrollIntoView()", drawn)
                assert decode(png_rows(drawn.screenshot_as_png)) == code  # what a phone reads
                driver.save_screenshot(str(tmp_path / f"scoresheet-receipt-{width}x{height}.png"))
                # the receipt's text fits the phone: no line runs off the side
                wide = driver.execute_script(
                    "return document.documentElement.scrollWidth > window.innerWidth"
                )
                assert not wide
                driver.get(f"{url}/receipt?code={quote(code)}")
                verdict = driver.find_element(By.CSS_SELECTOR, ".receipt-verdict").text
                assert "It holds" in verdict
                assert "this result is the one the director sealed: In progress: game 1" in verdict
                driver.save_screenshot(str(tmp_path / f"receipt-page-{width}x{height}.png"))
    finally:
        ledger.close()
