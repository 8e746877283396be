"""Tokens on pages and the service worker, in a real browser (issue 32, break 9).

Headless Chromium (:func:`tests.served.browser`) on the app served in-process:

- a link with ``#token=`` on ``/matches/new`` never replaces the director's kept token
  silently: the page asks, and Cancel keeps the device's token;
- a scorekeeper whose token is refused (revoked) is told to ask the director for a new link,
  not to run a command;
- the service worker never serves from its cache an answer the server marked ``no-store``
  (a match's ``.mat``), nor a page the server has since refused (a wall withdrawn).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from tests.served import browser, serving, viewport

pytestmark = pytest.mark.browser

DIRECTOR_KEY = "bgledger.director.token"
FETCH = """
const done = arguments[arguments.length - 1];
fetch(arguments[0]).then(r => r.text().then(t => done([r.status, r.headers.get('X-Kept'), t])))
  .catch(e => done([0, null, String(e)]));
"""


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 3, match_id="m", by="kim", event="Open")
    yield ledger
    ledger.close()


def waiter(driver: Any) -> Callable[[Callable[[], object], str], None]:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    def until(what: Callable[[], object], message: str) -> None:
        try:
            WebDriverWait(driver, 10, poll_frequency=0.05).until(lambda _: what())
        except TimeoutException:
            raise AssertionError(f"{message}; {driver.get_log('browser')}") from None

    return until


def test_a_link_with_another_token_asks_before_replacing_the_directors(ledger: Ledger) -> None:
    from selenium.webdriver.common.by import By

    kept = ledger.issue_token("director", event="Open", label="Dora")
    other = ledger.issue_token("director", event="Open", label="someone else")
    stored = "return localStorage.getItem(arguments[0])"
    with browser() as driver, serving(ledger) as url:
        viewport(driver, 360, 740)
        until = waiter(driver)
        scripts: list[str] = []

        def answering(answer: bool) -> None:
            # the page's question is window.confirm, answered here as a person would: a native
            # dialog held chromedriver up for good when this ran after other browser tests
            # (CI, twice), so each page is given a confirm that records what it was asked
            for identifier in scripts:
                driver.execute_cdp_cmd(
                    "Page.removeScriptToEvaluateOnNewDocument", {"identifier": identifier}
                )
            scripts.clear()
            source = (
                "window.asked = []; window.confirm = function (question) "
                f"{{ window.asked.push(String(question)); return {str(answer).lower()}; }};"
            )
            made = driver.execute_cdp_cmd(
                "Page.addScriptToEvaluateOnNewDocument", {"source": source}
            )
            scripts.append(made["identifier"])

        def asked() -> list[str]:
            return list(driver.execute_script("return window.asked || []"))

        try:
            driver.get(f"{url}/matches/new")
            driver.execute_script(
                "localStorage.setItem(arguments[0], arguments[1])", DIRECTOR_KEY, kept
            )
            answering(False)  # Cancel: this device's token stays
            driver.get(f"{url}/")  # a link opened anew, not a jump within the page
            driver.get(f"{url}/matches/new#token={other}")
            until(lambda: asked(), "the page asks")
            assert "other than the one kept on this device" in asked()[0]
            assert driver.execute_script(stored, DIRECTOR_KEY) == kept
            assert "token=" not in driver.current_url  # the link's token is out of the address
            said = driver.find_element(By.CSS_SELECTOR, "#msg-head").text
            assert "The link's token was not kept" in said
            answering(True)  # OK: the link's token is kept
            driver.get(f"{url}/")
            driver.get(f"{url}/matches/new#token={other}")
            until(lambda: asked(), "the page asks again")
            until(lambda: driver.execute_script(stored, DIRECTOR_KEY) == other, "it is kept")
            driver.get(f"{url}/")
            driver.get(f"{url}/matches/new#token={other}")  # the same token again
            until(lambda: "token=" not in driver.current_url, "the page has read the link")
            assert asked() == []  # nothing to ask
            assert driver.execute_script(stored, DIRECTOR_KEY) == other
        finally:
            for identifier in scripts:
                driver.execute_cdp_cmd(
                    "Page.removeScriptToEvaluateOnNewDocument", {"identifier": identifier}
                )


def test_a_revoked_scorekeeper_is_told_to_ask_the_director(ledger: Ledger) -> None:
    from selenium.webdriver.common.by import By

    pad = ledger.issue_token("scorekeeper", match_id="m", label="Sam")
    with browser() as driver, serving(ledger) as url:
        until = waiter(driver)
        driver.get(f"{url}/matches/m/pad#token={pad}")
        until(lambda: driver.execute_script("return !!window.bgledger"), "the pad is up")
        ledger.revoke_token("Sam")
        driver.execute_script(
            "bgledger.send('/api/matches/m/lines', {line: 'opening 3 1'}, function (s, b) {"
            " bgledger.refused(s, b); })"
        )
        head = lambda: driver.find_element(By.CSS_SELECTOR, "#msg-head").text  # noqa: E731
        until(lambda: "director" in head() or "queue" in head().lower(), "a refusal is said")
        queue = driver.find_element(By.CSS_SELECTOR, "#queue").text
        said = head() + " " + queue
        assert "Ask the director for a new link" in said, said
        assert "bgledger token" not in said
    assert ledger.state("m").events == 1  # nothing recorded


def test_the_service_worker_never_serves_a_no_store_answer_or_a_withdrawn_page(
    ledger: Ledger,
) -> None:
    ledger.publish("Open", by="dora")
    with browser() as driver:
        until = waiter(driver)
        with serving(ledger) as url:
            driver.get(f"{url}/matches/m/pad")
            until(lambda: driver.execute_script("return !!navigator.serviceWorker.controller"),
                  "the service worker controls the page")  # fmt: skip
            assert driver.execute_async_script(FETCH, "/matches/m/pad")[0] == 200  # kept
            status, _, text = driver.execute_async_script(FETCH, "/matches/m.mat")
            assert status == 200 and "Ann" in text
            status, _, text = driver.execute_async_script(FETCH, "/events/Open/wall")
            assert status == 200
            ledger.publish("Open", on=False, by="dora")  # withdrawn
            status, _, _ = driver.execute_async_script(FETCH, "/events/Open/wall")
            assert status in (403, 404)
        # The server is gone (the service worker's own fetches ignore the page's network
        # emulation): what it answers now comes from its cache, or is its 503.
        for path in ("/matches/m.mat", "/events/Open/wall"):
            status, kept, text = driver.execute_async_script(FETCH, path)
            assert (status, kept) == (503, None), (path, status, text[:200])
        status, kept, _ = driver.execute_async_script(FETCH, "/matches/m/pad")
        assert (status, kept) == (200, "1")  # a page kept for offline use still is


def test_the_form_offers_a_look_alike_event_as_a_new_one_once_refused(ledger: Ledger) -> None:
    from selenium.webdriver.common.by import By

    committee = ledger.issue_token("committee", label="the committee")
    with browser() as driver, serving(ledger) as url:
        viewport(driver, 360, 740)
        until = waiter(driver)
        driver.get(f"{url}/matches/new#token={committee}")

        def find(css: str) -> Any:
            return driver.find_element(By.CSS_SELECTOR, css)

        for css, text in (("#a", "Cy"), ("#b", "Di"), ("#length", "3"), ("#event", "\u039fpen")):
            find(css).clear()
            find(css).send_keys(text)
        assert not find("#new-event-box").is_displayed()
        find("#start").click()
        until(lambda: "the existing event 'Open'" in find("#msg-head").text, "refused")
        assert "U+039F GREEK CAPITAL LETTER OMICRON" in find("#msg-head").text
        assert ledger.match_ids() == ["m"]
        until(lambda: find("#new-event-box").is_displayed(), "the box is offered")
        find("#new_event").click()
        find("#start").click()
        until(lambda: find("#started").is_displayed(), "started as a new event")
        (started,) = [m for m in ledger.match_ids() if m != "m"]
        assert ledger.state(started).event == "\u039fpen"
