"""The pad draws exactly the controls the domain offers, in a real browser (issue 31, item 5).

For matches stopped in several phases (a hit due, a double to answer, the Crawford game, the
cube the opponent's, an opening, a play, a break, the end), the controls the page shows on
each of its screens are those whose line ``show --json``'s ``now.allowed`` offers: the pad
offered *Double* in the Crawford game and to a player whose opponent owned the cube.
Headless Chromium at a phone's size; skipped where no Chromium or chromedriver is installed.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from tests.served import browser, serving, viewport

pytestmark = pytest.mark.browser

GAME = ("opening 3 1", "move 8/5 6/5")
MATCHES: dict[str, tuple[str, tuple[str, ...]]] = {
    "hit": ("simple-delay", GAME),  # Ann's hit is due: Bob may not roll or double yet
    "doubled": ("simple-delay", (*GAME, "hit", "double", "hit")),  # Ann takes or drops
    "crawford": ("none", (*GAME, "double", "drop", *GAME)),  # Bob on roll: no cube
    "owned": (
        "none",
        (*GAME, "double", "take", "roll 6 4", "move 24/14", "roll 3 1", "move 8/5 6/5"),
    ),  # Bob on roll, Ann's cube: no double
    "opening": ("none", ()),
    "play": ("none", ("opening 5 2",)),
    "break": ("none", ("break start a",)),
    "over": ("none", (*GAME, "double", "drop", *GAME, "double --as-played", "drop")),
    # cube statements (issue 33): Bob said "I am going to double" (USBGF 4.4.3), Ann "I would
    # pass" (USBGF 4.4.4); then Bob doubled, and Ann may only drop
    "said": ("none", (*GAME, "announce double b", "announce pass a")),
    "bound": ("none", (*GAME, "announce pass a", "double")),
}
SHOWN = """return Array.from(document.querySelectorAll('#pad [data-offer]'))
  .filter(function (e) { return !e.hidden && !e.closest('[hidden]'); })
  .map(function (e) { return e.dataset.offer; });"""
FORMS = """return Array.from(document.querySelectorAll('#pad form[data-offer-verb]'))
  .filter(function (e) { return !e.hidden && !e.closest('[hidden]'); })
  .map(function (e) { return e.dataset.verb; });"""
PANELS = """return Array.from(document.querySelectorAll('#pad [data-offers]'))
  .filter(function (e) { return !e.hidden && !e.closest('[hidden]'); })
  .map(function (e) { return e.dataset.offers; });"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Any, str, Ledger]]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    for match, (clock, lines) in MATCHES.items():
        ledger.start(("Ann", "Bob"), 2, match_id=match, clock=clock, by="kim")
        for line in lines:
            ledger.record_line(match, line, by="kim")
    try:
        with browser() as driver, serving(ledger) as url:
            viewport(driver, 360, 740)
            yield driver, url, ledger
    finally:
        ledger.close()


def test_the_pad_shows_the_controls_the_domain_offers_and_no_other(
    served: tuple[Any, str, Ledger], tmp_path: Path
) -> None:
    driver, url, ledger = served
    for match in MATCHES:
        token = ledger.issue_token("scorekeeper", match_id=match)
        asked = urllib.request.Request(
            f"{url}/api/matches/{match}", headers={"Authorization": f"Bearer {token}"}
        )  # the match is in no published event: its token reads it (DESIGN principle 14)
        with urllib.request.urlopen(asked) as answer:
            document = json.load(answer)
        offered = {a["line"] for a in document["now"]["allowed"] if a["party"] != "director"}
        driver.get(f"{url}/matches/{match}/pad#token={token}")
        deadline = time.monotonic() + 10
        while driver.execute_script("return document.getElementById('pad').dataset.due") is None:
            assert time.monotonic() < deadline
        shown: set[str] = set()
        panels: set[str] = set()
        for tab in ("tab-pad", "tab-more"):
            driver.find_element("id", tab).click()
            deadline = time.monotonic() + 10
            while True:  # until the document has been read and drawn
                shown |= set(driver.execute_script(SHOWN)) | set(driver.execute_script(FORMS))
                panels |= set(driver.execute_script(PANELS))
                if shown or panels or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            driver.save_screenshot(str(tmp_path / f"{match}-{tab}.png"))
        clock = MATCHES[match][0] != "none"
        expected = {line for line in offered if line != "hit" or clock}
        drawn = (shown - {"hit"} if not clock else shown) | {
            line for panel in panels for line in panel.split("|") if line in offered
        }
        assert drawn | {"hit"} >= expected, (match, expected - drawn)
        assert shown - {"hit"} <= offered, (match, shown - offered)
        if match in ("crawford", "owned"):
            assert "double" not in shown, match
        if match == "said":  # Bob must double: no dice to roll, the Double button
            assert "roll" not in offered and "double" in shown, (match, shown)
            assert "statement-panel" not in driver.page_source or "announce double b" not in shown
        if match == "bound":  # Ann must drop: no Take button
            assert "take" not in shown and "drop" in shown, (match, shown)
        if match == "hit":
            assert document["now"]["due"] == "a" and "roll" not in offered
            assert "due" in driver.find_element("id", "hit").get_attribute("class")
