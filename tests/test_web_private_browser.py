"""Private until published, in a real browser (issue 32, break 5; DESIGN principle 14).

One server (uvicorn, a SQLite ledger) and headless Chromium.  Before its event
is published, a match's page, its ``.mat`` and its live stream are refused to a
browser that holds no token: the page says there is nothing to show and shows
nothing of the match, the ``.mat`` answers 404 and the stream never opens.  The
scorekeeper's link (``/matches/M#token=...``) opens the page: its script puts the
token in the read cookie and asks again, and then the page, the ``.mat`` and the
stream are served.  A director's token of another event opens nothing.  Skipped
without Chromium, chromedriver or selenium.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bgledger.service import Ledger
from tests.served import browser, serving

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    ledger = Ledger(f"sqlite:///{tmp_path_factory.mktemp('private') / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open 2026", by="kim")
    ledger.start(("Cy", "Di"), 5, match_id="other", event="Other", by="kim")
    for line in ("opening 3 1", "move 8/5 6/5"):
        ledger.record_line("final", line, by="kim")
    tokens = {
        "scorekeeper": ledger.issue_token("scorekeeper", match_id="final", label="Sam"),
        "other": ledger.issue_token("director", event="Other", label="Olga"),
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


def until(driver: Any, what: Callable[[], object], message: str) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        WebDriverWait(driver, 10, 0.05).until(lambda _: what())
    except TimeoutException:
        raise AssertionError(f"{message}; the page says {body(driver)!r}") from None


def body(driver: Any) -> str:
    return str(driver.execute_script("return document.body ? document.body.innerText : ''"))


def status_of(driver: Any, path: str) -> int:
    """The status the browser's own ``fetch`` of ``path`` gets (its cookies, no header)."""
    script = (
        "var done = arguments[arguments.length - 1];"
        "fetch(arguments[0]).then(function (r) { done(r.status); }, function () { done(0); });"
    )
    return int(driver.execute_async_script(script, path))


def stream_opens(driver: Any, path: str) -> bool:
    """True if the browser's ``EventSource`` on ``path`` opens (False: refused, closed)."""
    script = (
        "var done = arguments[arguments.length - 1], s = new EventSource(arguments[0]);"
        "s.onopen = function () { s.close(); done(true); };"
        "s.onerror = function () { if (s.readyState === EventSource.CLOSED) { done(false); } };"
    )
    return bool(driver.execute_async_script(script, path))


def test_an_unpublished_match_is_refused_without_a_token_and_served_with_one(
    served: tuple[str, dict[str, str]], driver: Any
) -> None:
    url, tokens = served
    driver.set_script_timeout(10)
    driver.get(f"{url}/matches/final")
    until(driver, lambda: "Nothing to show" in body(driver), "the refusal page")
    assert "Ann" not in body(driver) and "8/5" not in body(driver)
    assert "private until its event is published" in body(driver)
    assert status_of(driver, "/matches/final.mat") == 404
    assert status_of(driver, "/api/matches/final") == 404
    assert not stream_opens(driver, "/api/matches/final/events")

    driver.get(f"{url}/matches/other#token={tokens['other']}")  # another event's director
    until(driver, lambda: "Cy" in body(driver), "the other event's match, his own")
    driver.get(f"{url}/matches/final")
    until(driver, lambda: "Nothing to show" in body(driver), "refused to another event's token")
    assert status_of(driver, "/matches/final.mat") == 404

    driver.get(f"{url}/matches/final#token={tokens['scorekeeper']}")
    until(driver, lambda: "Ann" in body(driver) and "Bob" in body(driver), "the match page")
    assert "Nothing to show" not in body(driver)
    assert status_of(driver, "/matches/final.mat") == 200
    assert status_of(driver, "/api/matches/final") == 200
    assert stream_opens(driver, "/api/matches/final/events")
