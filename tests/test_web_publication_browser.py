"""The console's switch in a real browser: the director opens the event's wall to spectators.

One server (uvicorn, a SQLite ledger) and headless Chromium: the console of
event ``Open 2026`` says the wall is not public; the director, his token kept
on the device, publishes it and withdraws it with the one button, and the
server (``GET /api/events/E/publication``) says so after each; with a
scorekeeper's token the switch is refused with the server's reason and the
wall stays as it was.  Screenshots at a phone's size and a tablet's are saved
in the test's temporary folder.  Skipped without Chromium, chromedriver or selenium.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from tests.served import browser, serving, viewport

pytestmark = pytest.mark.browser

CONSOLE = "/events/Open%202026/director"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    ledger = Ledger(f"sqlite:///{tmp_path_factory.mktemp('publish') / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open 2026", by="kim")
    tokens = {
        "director": ledger.issue_token("director", event="Open 2026", label="Dana"),
        "scorekeeper": ledger.issue_token("scorekeeper", match_id="final", label="Sam"),
        "committee": ledger.issue_token("committee", label="the committee"),
    }
    try:
        with serving(ledger) as url:
            yield url, tokens
    finally:
        ledger.close()


@pytest.fixture
def driver() -> Iterator[Any]:
    with browser() as opened:
        yield opened


def publication(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/events/Open%202026/publication") as answer:
        document: dict[str, Any] = json.load(answer)
        return document


def until(driver: Any, what: Callable[[], object], message: str) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        WebDriverWait(driver, 10, 0.05).until(lambda _: what())
    except TimeoutException:
        raise AssertionError(f"{message}; the page says {shown(driver, 'body')!r}") from None


def shown(driver: Any, css: str) -> str:
    text = driver.execute_script(
        "var e = document.querySelector(arguments[0]); return e && !e.hidden ? e.innerText : ''",
        css,
    )
    return str(text).strip()


def tap(driver: Any, css: str) -> None:
    from selenium.webdriver.common.by import By

    button = driver.find_element(By.CSS_SELECTOR, css)
    until(driver, lambda: button.is_displayed() and button.is_enabled(), f"{css} can be pressed")
    button.click()


def test_the_director_publishes_and_withdraws_the_wall(
    served: tuple[str, dict[str, str]], driver: Any, tmp_path: Path
) -> None:
    url, tokens = served
    viewport(driver, 360, 740)
    driver.get(f"{url}{CONSOLE}#token={tokens['director']}")
    until(driver, lambda: shown(driver, "#publish-state").startswith("Not public:"), "not public")
    assert shown(driver, "#publish-state") == "Not public: spectators see that the wall is closed"
    assert shown(driver, "#publish-button") == "Publish to spectators"
    link = driver.execute_script("return document.getElementById('publish-wall').href")
    assert link == f"{url}/events/Open%202026/wall"
    driver.save_screenshot(str(tmp_path / "closed-phone.png"))

    tap(driver, "#publish-button")
    until(driver, lambda: shown(driver, "#publish-state").startswith("Public:"), "public")
    assert shown(driver, "#publish-state").startswith(
        "Public: the wall is open to spectators (published by Dana, "
    )
    assert (
        shown(driver, "#msg-head") == "event 'Open 2026' is public: its wall is open to spectators"
    )
    assert shown(driver, "#publish-button") == "Withdraw from spectators"
    assert publication(url)["published"] is True and publication(url)["by"] == "Dana"
    driver.save_screenshot(str(tmp_path / "public-phone.png"))
    viewport(driver, 1024, 768)
    driver.save_screenshot(str(tmp_path / "public-tablet.png"))

    tap(driver, "#publish-button")
    until(driver, lambda: shown(driver, "#publish-state").startswith("Not public:"), "withdrawn")
    assert "(withdrawn by Dana, " in shown(driver, "#publish-state")
    assert publication(url)["published"] is False


def test_a_scorekeepers_token_is_refused_and_the_wall_stays_closed(
    served: tuple[str, dict[str, str]], driver: Any
) -> None:
    """The console is the director's desk: a scorekeeper's token opens nothing of it (DESIGN
    principle 14), so there is no switch to press, and the wall stays as it was."""
    url, tokens = served
    before = publication(url)
    driver.get(f"{url}{CONSOLE}#token={tokens['scorekeeper']}")
    until(driver, lambda: shown(driver, "h1") == "Nothing to show", "the console is refused")
    assert driver.execute_script("return document.getElementById('publish-button')") is None
    assert publication(url) == before


def test_the_console_of_every_match_has_no_switch(
    served: tuple[str, dict[str, str]], driver: Any
) -> None:
    url, tokens = served
    driver.get(f"{url}/director#token={tokens['committee']}")  # every match: the committee's
    until(driver, lambda: shown(driver, "h1").startswith("Director's console"), "the console")
    assert driver.execute_script("return document.getElementById('publish-switch')") is None
