"""The console of a 200-match event in a real browser (headless Chromium): one table changes in
place, the other 199 stay the very same nodes.

The event's matches are stored as an import stores them (``MatchStore.store_new``), each
with a few seeded legal actions; the server is uvicorn on a free port (``tests/served.py``).
Before a line is posted elsewhere (through the API, as a pad posts it), every table's row
is tagged with a JavaScript property of its own; after the console shows the line, the
posted table's row is a new node, and every other row still carries its tag (the same
object: nothing was redrawn).  Skipped where no Chromium, chromedriver or selenium is
installed.
"""

from __future__ import annotations

import json
import random
import socket
import urllib.request
from pathlib import Path

import pytest

from bgledger.commands.match import Match, match_uuid
from bgledger.service import Ledger
from bgledger.store.application import MatchStore
from bgledger.web.streams import StreamLimits
from tests.match_driver import next_line, play_lines
from tests.served import browser, read_as, serving
from tests.webclient import committee

pytestmark = pytest.mark.browser

TABLES = 200


def stored(url: str) -> None:
    store = MatchStore(url)
    batch = []
    for i in range(TABLES):
        match_id = f"m{i:03d}"
        match = Match.start(
            match_uuid(match_id), match_id, (f"A{i}", f"B{i}"), 7,
            event="Open", table=str(i + 1), by="k",
        )  # fmt: skip
        play_lines(match, random.Random(i), 12, by="k")
        batch.append(match)
    store.store_new(*batch)
    store.close()


def test_one_table_changes_in_place_and_the_others_stay(tmp_path: Path) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    stored(url)
    ledger = Ledger(url)
    playing = [row["match_id"] for row in ledger.matches("Open") if row["game"]]
    target = playing[len(playing) // 2]
    line = next_line(ledger.state(target), random.Random(5))
    assert line is not None
    token = ledger.issue_token("scorekeeper", match_id=target)
    with serving(ledger) as base, browser() as driver:
        read_as(driver, base, committee(ledger))  # reads as the committee
        driver.get(f"{base}/events/Open/director")
        wait = WebDriverWait(driver, 15, 0.05, (StaleElementReferenceException,))
        wait.until(lambda d: d.find_element(By.ID, "live-status").text == "live")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#items > .table-row")) == TABLES
        events = int(driver.find_element(By.ID, f"m-{target}").get_attribute("data-events"))
        tagged = driver.execute_script(
            "var rows = document.querySelectorAll('#items > .table-row');"
            "rows.forEach(function (row) { row.bgledgerTag = row.id; });"
            "window.bgledgerPage = 'drawn once'; return rows.length;"
        )
        assert tagged == TABLES

        request = urllib.request.Request(  # the pad at that table, elsewhere
            f"{base}/api/matches/{target}/lines",
            data=json.dumps({"line": line}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request) as answer:
            assert answer.status == 201
            now = json.load(answer)["match"]["events"]
        assert now > events

        wait.until(
            lambda d: d.find_element(By.ID, f"m-{target}").get_attribute("data-events") == str(now)
        )
        kept = driver.execute_script(
            "var rows = document.querySelectorAll('#items > .table-row'), kept = [], fresh = [];"
            "rows.forEach(function (row) {"
            "  (row.bgledgerTag === row.id ? kept : fresh).push(row.id); });"
            "return [kept.length, fresh];"
        )
        assert kept == [TABLES - 1, [f"m-{target}"]]  # 199 rows the same objects; one new
        assert (
            driver.execute_script("return performance.getEntriesByType('navigation').length") == 1
        )

        # its full card on demand: a click on the row
        row = driver.find_element(By.ID, f"m-{target}")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
        row.find_element(By.CSS_SELECTOR, ".players").click()
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#card-view .last-lines").text)
        assert target in driver.find_element(By.ID, "card-view").text
    ledger.close()


def test_a_console_refused_a_stream_opens_it_again(tmp_path: Path) -> None:
    """A 429 (too many streams from this address) is not retried by ``EventSource``: the
    console opens its stream again itself, after a short wait, once there is room."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open", by="k")
    with serving(ledger, StreamLimits(per_client=1)) as base, browser() as driver:
        read_as(driver, base, committee(ledger))  # reads as the committee
        host, port = base.removeprefix("http://").split(":")
        held = socket.create_connection((host, int(port)), timeout=5)  # this address's one stream
        reader = f"Authorization: Bearer {committee(ledger)}".encode()  # reads the match
        held.sendall(
            b"GET /api/matches/final/events HTTP/1.1\r\nHost: t\r\n" + reader + b"\r\n\r\n"
        )
        assert held.recv(64).startswith(b"HTTP/1.1 200")
        driver.get(f"{base}/events/Open/director")
        status = (By.ID, "live-status")
        wait = WebDriverWait(driver, 15, 0.05)
        wait.until(lambda d: d.find_element(*status).text.startswith("reconnecting in"))
        held.close()  # room again: the console's next try gets its stream
        wait.until(lambda d: d.find_element(*status).text == "live")
    ledger.close()
