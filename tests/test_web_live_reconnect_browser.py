"""A live stream refused (429: too many streams) is opened again, in a real browser (issue 24).

The browser's EventSource reconnects a stream that dropped, but leaves one the server
refused closed for good: the pad, and the match page, would then never hear of a line
again.  Here the server lets one address hold one live stream (``StreamLimits(per_client=1)``).
A match page holds it; the pad, opened beside it, is refused and says it is not live;
the match page closed, the pad's stream opens (after its first wait, 5 s give or take a
quarter) and a line recorded elsewhere reaches it.  Then the other way round: the pad holds
the stream, a match page is refused, the pad closed, and the match page follows again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from bgledger.web.streams import StreamLimits
from tests.served import browser, read_as, serving, viewport
from tests.webclient import committee

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_refused_live_stream_is_opened_again(tmp_path: Path) -> None:
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 3, match_id="m", by="kim")
    token = ledger.issue_token("scorekeeper", match_id="m", label="Sam")
    try:
        with browser() as driver, serving(ledger, StreamLimits(per_client=1)) as url:
            read_as(driver, url, committee(ledger))  # reads as the committee
            viewport(driver, 360, 740)

            def until(what: Callable[[], object], message: str, wait: float = 10) -> None:
                try:
                    stale = (StaleElementReferenceException,)  # (read as it was redrawn)
                    WebDriverWait(driver, wait, 0.1, stale).until(lambda _: what())
                except TimeoutException:
                    raise AssertionError(message) from None

            def status() -> str:
                return str(driver.find_element(By.ID, "live-status").text)

            def text(css: str) -> str:
                return str(driver.find_element(By.CSS_SELECTOR, css).text)

            def beside(address: str) -> Any:
                """``address`` in a new tab beside the one open; the one open's handle."""
                held = driver.current_window_handle
                driver.switch_to.new_window("tab")
                driver.get(address)
                return held

            driver.get(f"{url}/matches/m")
            until(lambda: status() == "live" and "bgledger" in driver.title, "the match page")
            page = beside(f"{url}/matches/m/pad#token={token}")
            until(lambda: status() == "not live", "the pad's stream is refused")
            pad = driver.current_window_handle
            driver.switch_to.window(page)
            driver.close()  # the one stream this address may hold is free
            driver.switch_to.window(pad)
            until(lambda: status() == "live", "the pad follows again", 40)
            ledger.record_line("m", "opening 3 1", by="kim")
            until(lambda: text("#play-legend") == "Ann plays 3-1", "the line reaches the pad")

            pad = beside(f"{url}/matches/m")
            until(lambda: status() == "reconnecting…", "the match page's stream is refused")
            page = driver.current_window_handle
            driver.switch_to.window(pad)
            driver.close()
            driver.switch_to.window(page)
            until(lambda: status() == "live", "the match page follows again", 40)
            ledger.record_line("m", "move 8/5 6/5", by="kim")
            until(lambda: "Ann played 8/5 6/5" in text("#live .history"), "the page hears of it")
    finally:
        ledger.close()


def test_pages_left_keep_no_stream_open(tmp_path: Path) -> None:
    """A scorekeeper goes from one pad to another and back, again and again.

    The browser may keep each page left whole (its back/forward cache), and with it its
    live stream: a few such streams took every connection Chromium allows one server over
    HTTP/1.1, and the next page waited (its scripts, then its match) until the browser
    dropped an old page.  A page closes its stream as it is left.
    """
    from selenium.webdriver.support.ui import WebDriverWait

    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ids = [ledger.start(("Ann", "Bob"), 3, by="kim") for _ in range(2)]
    tokens = [ledger.issue_token("scorekeeper", match_id=m, label="Sam") for m in ids]
    try:
        with browser() as driver, serving(ledger) as url:
            read_as(driver, url, committee(ledger))  # reads as the committee
            for match_id, token in zip(ids, tokens, strict=True):
                driver.get(f"{url}/matches/{match_id}/pad#token={token}")
            driver.set_page_load_timeout(15)  # a page that waits on a connection: an error
            ready = "return !document.querySelector('.die').disabled"  # the match read
            for visit in range(10):
                driver.get(f"{url}/matches/{ids[visit % 2]}/pad")
                WebDriverWait(driver, 15, 0.05).until(
                    lambda d: d.execute_script(ready), f"visit {visit + 1}: the pad waits"
                )
    finally:
        ledger.close()
