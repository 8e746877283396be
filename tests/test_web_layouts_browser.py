"""Every page the table, the desk and the spectators use, at a phone's size and a tablet's.

At 360x740 and 1024x768 (the tablet layout was never checked before issue 35) each page is
drawn in headless Chromium and read as a user looks at it: nothing wider than the screen
(a little slack: fonts differ on Debian CI), its main parts on screen, and the director's
console's times in 24-hour.  Screenshots are saved in the test's folder.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from tests.served import browser, read_as, serving, viewport
from tests.webclient import committee

pytestmark = pytest.mark.browser

EVENT = "Club night"
SLACK = 4  # px a page may pass the screen's width by (fonts differ from machine to machine)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Any, str, dict[str, str]]]:
    """A browser and the server of a ledger with a match under way in a published event (a
    note and a penalty ruled in it); the tokens of its scorekeeper and director."""
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", by="kim", event=EVENT, round="1", table="4")
    for line in ("opening 6 2", "move 24/18 13/11", "roll 6 1", "note director called"):
        ledger.record_line("final", line, by="kim")
    ledger.record_line("final", 'penalty a 1 "USBGF 2.2.4" late back', by="Dee")
    ledger.publish(EVENT, by="Dee")
    tokens = {
        "scorekeeper": ledger.issue_token("scorekeeper", match_id="final", label="Sam"),
        "director": ledger.issue_token("director", event=EVENT, label="Dee"),
    }
    try:
        with browser() as driver, serving(ledger) as url:
            read_as(driver, url, committee(ledger))
            yield driver, url, tokens
    finally:
        ledger.close()


PAGES = {
    "pad": ("/matches/final/pad?token={scorekeeper}", "#live svg.board"),
    "console": ("/events/Club%20night/director#token={director}", "#publish-state"),
    "wall": ("/events/Club%20night/wall", ".card, .board, article"),
    "scoresheet": ("/matches/final/scoresheet", "table"),
}


@pytest.mark.parametrize("screen", [(360, 740), (1024, 768)], ids=["phone", "tablet"])
def test_every_page_fits_the_screen(
    served: tuple[Any, str, dict[str, str]], screen: tuple[int, int], tmp_path: Path
) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver, url, tokens = served
    viewport(driver, *screen)
    wait = WebDriverWait(driver, 10, poll_frequency=0.05)

    def seen(css: str) -> dict[str, Any] | None:
        """The first element ``css`` finds, as drawn now (read afresh: a page redraws)."""
        found: dict[str, Any] | None = driver.execute_script(
            "const e = document.querySelector(arguments[0]); if (!e) { return null; }"
            "const r = e.getBoundingClientRect();"
            "return {left: r.left, width: r.width, text: e.innerText || ''};",
            css,
        )
        return found

    for name, (path, main) in PAGES.items():
        driver.get(url + path.format(**tokens))
        wait.until(lambda _, css=main: (seen(css) or {}).get("width", 0) > 0)
        if name == "console":  # the publication's time, as every other time: 24-hour
            wait.until(lambda _, css=main: "published by Dee" in (seen(css) or {})["text"])
            text = (seen(main) or {})["text"]
            assert re.search(r"published by Dee, \w+ \d\d:\d\d\)", text), text
            assert not re.search(r"\b[AP]M\b", text), text
        driver.save_screenshot(str(tmp_path / f"{name}-{screen[0]}x{screen[1]}.png"))
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= screen[0] + SLACK, f"{name} is {width} px wide on a {screen[0]} px screen"
        left = (seen(main) or {})["left"]
        assert 0 <= left < screen[0], f"{name}: its main part starts off the screen ({left})"
