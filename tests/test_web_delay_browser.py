"""A spectator's wall in a real browser, for an event published with a 15-minute delay.

One server (uvicorn, a SQLite ledger) and headless Chromium.  The final: Ann's
opening 3-1 played 8/5 6/5 16 minutes ago, Bob's 6-4 played 24/18 13/9 just now
(recorded with ``--at``, as ``bgledger record --at`` does).  ``publish --event Open
--delay 15m``: a spectator's wall shows Ann's play, the board after it and says "15
min delay"; Bob's play, and another made while the wall is open, never reach it.
The director's token reads the same wall live.  Screenshots at a phone's size and a
tablet's are saved in the test's temporary folder (``screenshot:`` lines).
Skipped without Chromium, chromedriver or selenium.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from tests.served import browser, read_as, serving, viewport

pytestmark = pytest.mark.browser

WALL = "/events/Open/wall"


def ago(minutes: float) -> str:
    return (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat(timespec="seconds")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Ledger]]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open", by="kim", at=ago(30))
    ledger.start(("Cleo", "Dan"), 5, match_id="semi", event="Open", by="kim", at=ago(30))
    ledger.record_line("final", "opening 3 1", by="kim", at=ago(20))  # events 2, 3
    ledger.record_line("final", "move 8/5 6/5", by="kim", at=ago(16))  # event 4
    ledger.record_line("final", "roll 6 4", by="kim", at=ago(1))  # event 5
    ledger.record_line("final", "move 24/18 13/9", by="kim")  # event 6: just now
    ledger.publish("Open", by="Dana", delay=15 * 60)
    try:
        with serving(ledger) as url:
            yield url, ledger
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
        raise AssertionError(f"{message}; the page says {text(driver, 'body')!r}") from None


def text(driver: Any, css: str) -> str:
    found = driver.execute_script(
        "var e = document.querySelector(arguments[0]); return e ? e.innerText : ''", css
    )
    return str(found).strip()


def board_src(driver: Any, match: str) -> str:
    return str(
        driver.execute_script(
            "var c = document.querySelector('.card[data-match=\"' + arguments[0] + '\"]');"
            "return c ? c.querySelector('img.board').getAttribute('src') : ''",
            match,
        )
    )


def board_loaded(driver: Any, match: str) -> bool:
    return bool(
        driver.execute_script(
            "var c = document.querySelector('.card[data-match=\"' + arguments[0] + '\"]');"
            "var i = c && c.querySelector('img.board'); return !!i && i.complete && "
            "i.naturalWidth > 0",
            match,
        )
    )


def shoot(driver: Any, folder: Path, name: str) -> None:
    shot = folder / f"{name}.png"
    driver.save_screenshot(str(shot))
    print(f"screenshot: {shot}")


def test_a_spectators_wall_shows_the_move_made_15_minutes_ago_not_the_one_just_made(
    served: tuple[str, Ledger], driver: Any, tmp_path: Path
) -> None:
    url, ledger = served
    final = '.card[data-match="final"]'
    for width, height in ((360, 740), (1024, 768)):
        viewport(driver, width, height)
        driver.get(url + WALL)
        until(driver, lambda: text(driver, f"{final} .last"), "the final's card is drawn")
        assert text(driver, f"{final} .last").endswith("Ann played 8/5 6/5")
        assert "24/18" not in text(driver, "#wall")
        assert board_src(driver, "final") == "/matches/final/board/4.svg"
        until(driver, lambda: board_loaded(driver, "final"), "the board after event 4 is drawn")
        assert "15 min delay" in text(driver, ".wall-top")  # the wall says it is behind
        until(
            driver,
            lambda: text(driver, "#live-status") == "following",
            "the stream, once open, says it follows (not live)",
        )
        shoot(driver, tmp_path, f"wall-delayed-{width}x{height}")

    driver.get(url + "/matches/final/watch")  # the match's own page: behind as well
    until(driver, lambda: text(driver, "#moves"), "the moves are listed")
    assert text(driver, "#moves").splitlines()[-1].endswith("Ann played 8/5 6/5")
    assert "shown with a 15 min delay" in text(driver, ".watch-top")
    shoot(driver, tmp_path, "watch-delayed-1024x768")

    viewport(driver, 640, 360)  # the overlay OBS frames: it says so in its corner
    driver.get(url + "/matches/final/embed")
    until(driver, lambda: text(driver, ".embed-delay") == "15 min delay", "the embed says so")
    shoot(driver, tmp_path, "embed-delayed-640x360")

    viewport(driver, 1024, 768)
    driver.get(url + WALL)
    ledger.record_line("semi", "opening 6 1", by="kim")  # now: 15 minutes from the wall
    time.sleep(2.5)  # the delayed stream asks once a tick: nothing has turned 15 minutes old
    assert text(driver, '.card[data-match="semi"] .last').startswith("match started: Cleo v Dan")
    assert board_src(driver, "final") == "/matches/final/board/4.svg"

    read_as(driver, url, ledger.issue_token("director", event="Open", label="Dana"))
    driver.get(url + WALL)  # the director's token reads it live
    until(driver, lambda: text(driver, f"{final} .last"), "the final's card is drawn")
    assert text(driver, f"{final} .last").endswith("Bob played 24/18 13/9")
    assert board_src(driver, "final") == "/matches/final/board/6.svg"
    assert "15 min delay" not in text(driver, ".wall-top")
    shoot(driver, tmp_path, "wall-live-for-the-director-1024x768")
