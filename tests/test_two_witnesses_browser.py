"""Issue 32, break 4, in a real browser: a phone whose clock steps back while offline.

Its first queued tap got 400 "before the match's last event", and *Send it again* failed
the same way: the queue was blocked for ever.  The pad now never stamps a command before
the last one it stamped, and measures the server's clock again on reconnecting
(``web/static/offline.js``); the ledger takes a token's time before the match's last event
at that event's time (``tests/test_two_witnesses.py``).  A real ``bgledger serve`` and
Debian's headless Chromium, as ``tests/test_web_offline_browser.py`` drives them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest

from tests.served import browser, viewport
from tests.test_web_offline_browser import OFFLINE, ONLINE, Server, _served, document, recorded

pytestmark = pytest.mark.browser

STEP_BACK = """
var real = Date.now.bind(Date);
Date.now = function () { return real() - 600000; };
"""
"""The phone's clock set back ten minutes (what the page's stamps read)."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Server, str, Path]]:
    yield from _served(tmp_path, "none")


def test_a_phone_whose_clock_steps_back_offline_sends_its_queue(
    served: tuple[Server, str, Path],
) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    server, token, tmp_path = served
    with browser() as driver:
        viewport(driver, 360, 740)

        def until(what: Callable[[], object], message: str, wait: float = 20) -> None:
            try:
                WebDriverWait(driver, wait, poll_frequency=0.1).until(lambda _: what())
            except TimeoutException:
                raise AssertionError(f"{message}; {driver.get_log('browser')}") from None

        def queue() -> str:
            element = driver.find_element(By.ID, "queue")
            return str(element.text) if element.is_displayed() else ""

        def send(line: str) -> None:
            script = "bgledger.send(arguments[0], {line: arguments[1]}, function () {})"
            driver.execute_script(script, "/api/matches/final/lines", line)

        driver.get(f"{server.url}/matches/final/pad#token={token}")
        until(lambda: driver.find_element(By.CSS_SELECTOR, ".die").is_enabled(), "the pad")
        send("opening 3 1")
        until(lambda: document(server)["events"] == 3, "the opening roll is recorded")
        driver.set_network_conditions(**OFFLINE)
        driver.execute_script(STEP_BACK)
        send("move 8/5 6/5")
        send("roll 6 4")
        until(lambda: queue().startswith("2 entries waiting"), f"2 wait: {queue()!r}")
        driver.set_network_conditions(**ONLINE)
        until(lambda: queue() == "", f"the queue is sent, not blocked: {queue()!r}", 30)
        driver.save_screenshot(str(tmp_path / "stepped-back-sent.png"))
        offset = "return Number(localStorage.getItem('bgledger.server.offset'))"
        until(lambda: driver.execute_script(offset) > 590_000, "the offset measured again")
        send("move 24/18 13/9")  # stamped with the offset measured again on reconnecting
        until(lambda: document(server)["events"] == 6, "the next tap is recorded")

    events = recorded(tmp_path)
    texts = [text for text, _ in events]
    assert texts[-3:] == ["Ann played 8/5 6/5", "Bob rolled 6-4", "Bob played 24/18 13/9"]
    times = [at for _, at in events]
    assert times == sorted(times)  # in the order made, none ten minutes back
    assert (datetime.now().astimezone() - times[-1]).total_seconds() < 30
