"""Offline, never lost, never twice: the pad's queue in a real browser (issue 24).

A real ``bgledger serve`` (a subprocess on a free port of 127.0.0.1, a SQLite ledger in
the test's folder) and Debian's headless Chromium under selenium at a phone's size.
Lines are posted through the page's own ``bgledger.send`` (what every button calls).
Half-way through a game the network is cut (Chrome's network emulation), or the server
is killed; the lines made meanwhile wait in the page's queue (IndexedDB), which says so;
the page is reloaded (from the service worker's cache when the server is down); then the
network returns, or the server is started again.  The ledger then holds every line once,
in the order made, each at the moment it was made (``@TIME``), not when it arrived.
Screenshots of the pad with its queue are saved in the test's folder.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bgledger.service import Ledger
from tests.served import browser, viewport

pytestmark = pytest.mark.browser

GAME = ["move 8/5 6/5", "roll 6 4", "move 24/18 13/9", "roll 5 2"]
"""After the opening 3-1: Ann's play, Bob's roll and play, Ann's roll."""
EXPECTED = ["Ann played 8/5 6/5", "Bob rolled 6-4", "Bob played 24/18 13/9", "Ann rolled 5-2"]
"""Their history lines."""


class Server:
    """``bgledger serve`` on ``port``, started and killed at will."""

    def __init__(self, db: str, port: int) -> None:
        self.db, self.port, self.process = db, port, None
        self.url = f"http://127.0.0.1:{port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "bgledger.cli.main", "--db", self.db, "serve",
                   "--port", str(self.port)]  # fmt: skip
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)  # fmt: skip
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/api/now", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("bgledger serve did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Server, str, Path]]:
    yield from _served(tmp_path, "none")


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[tuple[Server, str, Path]]:
    yield from _served(tmp_path, "simple-delay")


def _served(tmp_path: Path, clock: str) -> Iterator[tuple[Server, str, Path]]:
    """``bgledger serve`` on a ledger with Ann v Bob, "final", a 3-point match; a token for it."""
    db = f"sqlite:///{tmp_path / 'ledger.db'}"
    ledger = Ledger(db)
    ledger.start(("Ann", "Bob"), 3, match_id="final", event="Open", by="kim", clock=clock)
    ledger.publish("Open", by="kim")  # its record read by the test with no token
    token = ledger.issue_token("scorekeeper", match_id="final", label="Sam at table 4")
    ledger.close()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = Server(db, port)
    server.start()
    try:
        yield server, token, tmp_path
    finally:
        server.kill()


def recorded(tmp_path: Path) -> list[tuple[str, datetime]]:
    """The match's events: each one's history line and its time."""
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    try:
        lines = [entry.text for entry in ledger.history("final")]
        times = [datetime.fromisoformat(event.at) for event in ledger.events("final")]
        return list(zip(lines, times, strict=True))
    finally:
        ledger.close()


def document(server: Server) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/matches/final", timeout=10) as answer:
        found: dict[str, Any] = json.load(answer)
        return found


def run_game(served: tuple[Server, str, Path], cut: Callable[[Any], None],
             restore: Callable[[Any], None], name: str) -> None:  # fmt: skip
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    server, token, tmp_path = served
    with browser() as driver:
        viewport(driver, 360, 740)

        def until(what: Callable[[], object], message: str, wait: float = 15) -> None:
            try:
                WebDriverWait(driver, wait, poll_frequency=0.1).until(lambda _: what())
            except TimeoutException:
                raise AssertionError(f"{message}; {driver.get_log('browser')}") from None

        def queue() -> str:
            element = driver.find_element(By.ID, "queue")
            return str(element.text) if element.is_displayed() else ""

        def send(line: str) -> tuple[datetime, datetime]:
            """Post ``line`` through the page's own send; the moments before and after the
            page was asked to (it stamps the line in between, however slow the driver)."""
            before = datetime.now().astimezone()
            script = "bgledger.send(arguments[0], {line: arguments[1]}, function () {})"
            driver.execute_script(script, "/api/matches/final/lines", line)
            return before, datetime.now().astimezone()

        driver.get(f"{server.url}/matches/final/pad#token={token}")
        until(lambda: driver.execute_script("return !!navigator.serviceWorker.controller"),
              "the service worker controls the page")  # fmt: skip
        driver.refresh()  # now through the service worker, which keeps the page
        until(lambda: driver.find_element(By.CSS_SELECTOR, ".die").is_enabled(), "the pad")

        made = [send("opening 3 1")]
        until(lambda: document(server)["events"] == 3, "the opening roll is recorded")
        cut(driver)
        for line in GAME:
            time.sleep(1.1)  # the moments apart, to tell them from the moment of arrival
            made.append(send(line))
        until(lambda: queue().startswith("4 entries waiting, kept on this phone"),
              f"the queue says 4 wait: {queue()!r}")  # fmt: skip
        driver.save_screenshot(str(tmp_path / f"{name}-1-waiting.png"))
        driver.refresh()  # offline
        until(lambda: queue().startswith("4 entries waiting, kept on this phone"),
              f"after a reload the queue still says 4 wait: {queue()!r}")  # fmt: skip
        assert driver.find_element(By.ID, "pad").is_displayed()
        driver.save_screenshot(str(tmp_path / f"{name}-2-reloaded.png"))
        time.sleep(1.1)
        restore(driver)
        until(lambda: queue() == "", "the queue is sent", 30)
        driver.save_screenshot(str(tmp_path / f"{name}-3-sent.png"))

    events = recorded(tmp_path)
    texts = [text for text, _ in events]
    assert texts[1:] == [
        "game 1 started",
        "opening roll: Ann 3, Bob 1: Ann plays first",
        *EXPECTED,
    ], texts  # every line once, in the order made
    # each at the moment it was made (the page's offset to the server's clock, measured from
    # a round trip, is allowed 0.6 s), not when it arrived: the opening's two events, then
    # one event a line
    slack = timedelta(seconds=0.6)
    for (text, at), (before, after) in zip(events[1:], [made[0], *made], strict=True):
        assert before - slack <= at <= after + slack, (text, at, before, after)
    assert document(server)["dice"] == [5, 2]


def test_a_game_through_a_network_cut_and_an_offline_reload(
    served: tuple[Server, str, Path],
) -> None:
    def cut(driver: Any) -> None:
        driver.set_network_conditions(offline=True, latency=0, download_throughput=0,
                                      upload_throughput=0)  # fmt: skip

    def restore(driver: Any) -> None:
        driver.set_network_conditions(offline=False, latency=0, download_throughput=-1,
                                      upload_throughput=-1)  # fmt: skip

    run_game(served, cut, restore, "network")


def test_a_game_through_a_server_killed_and_restarted(served: tuple[Server, str, Path]) -> None:
    server = served[0]
    run_game(served, lambda _: server.kill(), lambda _: server.start(), "server")


HIT = r"{} hit the clock: {}'s time runs \(\w+ \d+:\d\d, \w+ \d+:\d\d\)"
OFFLINE = {"offline": True, "latency": 0, "download_throughput": 0, "upload_throughput": 0}
ONLINE = {"offline": False, "latency": 0, "download_throughput": -1, "upload_throughput": -1}


class Pad:
    """The pad in the browser, tapped as a scorekeeper taps it."""

    def __init__(self, driver: Any) -> None:
        from selenium.webdriver.common.by import By

        self.driver, self.by = driver, By

    def until(self, what: Callable[[], object], message: str, wait: float = 15) -> None:
        from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
        from selenium.webdriver.support.ui import WebDriverWait

        redrawn = (StaleElementReferenceException,)  # the board redrawn as it was read
        try:
            WebDriverWait(self.driver, wait, 0.1, redrawn).until(lambda _: what())
        except TimeoutException:
            said = self.find("#message").text
            raise AssertionError(f"{message}; the pad says {said!r}") from None

    def find(self, css: str) -> Any:
        return self.driver.find_element(self.by.CSS_SELECTOR, css)

    def open(self, url: str) -> None:
        """The pad at ``url``, under the service worker that keeps it for an offline reload."""
        self.driver.get(url)
        controlled = "return !!navigator.serviceWorker.controller"
        self.until(lambda: self.driver.execute_script(controlled), "the service worker's page")
        self.driver.refresh()

    def tap(self, css: str) -> tuple[datetime, datetime]:
        """Tap ``css`` once it is offered; the moments before and after the tap (the page
        stamps what the tap made in between, however slow the driver)."""
        from selenium.common.exceptions import StaleElementReferenceException

        find = self.find
        for _ in range(3):
            self.until(
                lambda: find(css).is_displayed() and find(css).is_enabled(), f"{css} offered"
            )
            before = datetime.now().astimezone()
            try:
                self.find(css).click()
                return before, datetime.now().astimezone()
            except StaleElementReferenceException:
                continue  # the board was redrawn between the find and the tap
        raise AssertionError(f"{css}: redrawn at every tap")

    def roll(self, first: int, second: int) -> tuple[datetime, datetime]:
        self.tap(f'.dice-row[data-die="0"] .die[data-face="{first}"]')
        self.tap(f'.dice-row[data-die="1"] .die[data-face="{second}"]')
        return self.tap("#dice-confirm")

    def play(self, *points: int) -> tuple[datetime, datetime]:
        """The checkers moved, point by point on the board drawn from Ann's side; then Play."""
        for point in points:
            self.tap(f'#live [data-point="{point}"]')
        return self.tap("#play-confirm")

    def shows(self, css: str, text: str) -> None:
        find = self.find
        self.until(lambda: find(css).is_displayed() and text in find(css).text, f"{css}: {text!r}")

    def queue(self) -> str:
        element = self.find("#queue")
        return str(element.text) if element.is_displayed() else ""


def test_a_clocked_game_tapped_on_the_pad_through_a_network_cut(
    clocked: tuple[Server, str, Path],
) -> None:
    """The scorekeeper taps on: the pad goes on from the taps kept, the server has the last word.

    Online the opening roll and Ann's play; then, the network cut, the hit, Bob's roll and
    play, his hit, Ann's roll and play; the page reloaded offline; Ann's hit, Bob's roll
    and play.  The pad offers each phase's buttons from the taps kept on the phone (the
    dice entered: the play; a play: the other's hit due; a hit: the other's roll).
    """
    server, token, tmp_path = clocked
    with browser() as driver:
        viewport(driver, 360, 740)
        pad = Pad(driver)
        pad.open(f"{server.url}/matches/final/pad#token={token}")
        made = [pad.roll(3, 1)]  # Ann wins the opening roll
        pad.shows("#play-legend", "Ann plays 3-1")
        made.append(pad.play(8, 5, 6, 5))
        pad.shows("#hit-who", "Ann's hit is due")
        pad.until(lambda: document(server)["events"] == 6, "online: recorded at once")

        driver.set_network_conditions(**OFFLINE)
        made.append(pad.tap("#hit"))
        pad.shows("#dice-legend", "Bob rolls")
        made.append(pad.roll(6, 4))
        pad.shows("#play-legend", "Bob plays 6-4")
        made.append(pad.play(1, 7, 12, 16))  # Bob's 24/18 13/9
        pad.shows("#hit-who", "Bob's hit is due")
        made.append(pad.tap("#hit"))
        pad.shows("#dice-legend", "Ann rolls")
        made.append(pad.roll(5, 2))
        pad.shows("#play-legend", "Ann plays 5-2")
        made.append(pad.play(13, 8, 13, 11))
        pad.shows("#hit-who", "Ann's hit is due")
        pad.until(lambda: pad.queue().startswith("6 entries waiting, kept on this phone"),
                  f"the queue says 6 wait: {pad.queue()!r}")  # fmt: skip
        pad.shows("#live .status", "6 taps since, kept on this phone")
        driver.save_screenshot(str(tmp_path / "tapped-1-offline.png"))

        driver.refresh()  # offline: the page, the match and the queue from the phone
        pad.shows("#hit-who", "Ann's hit is due")
        pad.until(lambda: pad.queue().startswith("6 entries waiting"), "6 wait after a reload")
        made.append(pad.tap("#hit"))
        pad.shows("#dice-legend", "Bob rolls")
        made.append(pad.roll(3, 1))
        made.append(pad.play(17, 20, 19, 20))  # Bob's 8/5 6/5
        pad.shows("#hit-who", "Bob's hit is due")
        pad.until(lambda: pad.queue().startswith("9 entries waiting"), "9 wait")
        assert document(server)["events"] == 6  # nothing reached the server
        driver.save_screenshot(str(tmp_path / "tapped-2-reloaded.png"))

        driver.set_network_conditions(**ONLINE)
        pad.until(lambda: pad.queue() == "", "the queue is sent", 30)
        # the server's document, not the guess: Bob's hit is due after his play
        pad.shows("#hit-who", "Bob's hit is due")
        pad.until(lambda: "kept on this phone" not in pad.find("#live .status").text,
                  "the board is the server's")  # fmt: skip
        driver.save_screenshot(str(tmp_path / "tapped-3-sent.png"))

    events = recorded(tmp_path)
    expected = [
        "game 1 started", "opening roll: Ann 3, Bob 1: Ann plays first",
        "Bob rolled the lower die: Ann's time runs (Bob 6:00, Ann 6:00)",  # the opening's
        "Ann played 8/5 6/5", HIT.format("Ann", "Bob"),
        "Bob rolled 6-4", "Bob played 24/18 13/9", HIT.format("Bob", "Ann"),
        "Ann rolled 5-2", "Ann played 13/11 13/8", HIT.format("Ann", "Bob"),
        "Bob rolled 3-1", "Bob played 8/5 6/5",
    ]  # fmt: skip
    texts = [text for text, _ in events][2:]
    assert len(texts) == len(expected), texts  # every tap once
    for text, want in zip(texts, expected, strict=True):  # in the order made
        assert text == want or re.fullmatch(want, text), (text, want)
    # each at the moment it was tapped: the opening's three events, then one event a tap
    taps = [made[0], made[0], made[0], *made[1:]]
    slack = timedelta(seconds=0.6)  # the page's offset to the server's clock, from a round trip
    for (text, at), (before, after) in zip(events[2:], taps, strict=True):
        assert before - slack <= at <= after + slack, (text, at, before, after)


def test_a_tap_refused_when_the_network_returns_stops_the_queue(
    served: tuple[Server, str, Path],
) -> None:
    """Offline, the pad cannot tell a play the rules refuse: sent later, it is refused, the
    queue stops there and says what to do, and the pad shows the match as the server has it."""
    server, token, tmp_path = served
    with browser() as driver:
        viewport(driver, 360, 740)
        pad = Pad(driver)
        pad.open(f"{server.url}/matches/final/pad#token={token}")
        pad.roll(3, 1)
        pad.play(8, 5, 6, 5)  # Ann makes her 5 point
        pad.shows("#dice-legend", "Bob rolls")

        driver.set_network_conditions(**OFFLINE)
        pad.roll(6, 4)
        pad.play(1, 5, 1, 7)  # Bob's 24/20 24/18: his 20 point is Ann's 5, which she holds
        pad.shows("#dice-legend", "Ann rolls")  # (the pad cannot tell)
        pad.roll(5, 2)
        pad.until(lambda: pad.queue().startswith("3 entries waiting"), "3 wait")

        driver.set_network_conditions(**ONLINE)
        pad.until(lambda: "was refused when it was sent" in pad.queue(), "the queue stops", 30)
        said = pad.queue()
        assert "“move 24/20 24/18”" in said and "1 more wait behind it" in said, said
        pad.shows("#play-legend", "Bob plays 6-4")  # the server's match: Bob's play is due
        driver.save_screenshot(str(tmp_path / "refused-1-stopped.png"))
        pad.tap("#queue-drop")  # drop it; Ann's roll behind it is refused in turn
        pad.until(lambda: "“roll 5 2”" in pad.queue(), "Ann's roll is refused in turn")
        pad.tap("#queue-drop")
        pad.until(lambda: pad.queue() == "", "nothing waits")
        pad.play(1, 7, 12, 16)  # Bob's 24/18 13/9, as made at the board
        pad.shows("#dice-legend", "Ann rolls")
        pad.until(lambda: document(server)["turn"] == "a", "recorded")

    texts = [text for text, _ in recorded(tmp_path)][3:]
    assert texts == ["Ann played 8/5 6/5", "Bob rolled 6-4", "Bob played 24/18 13/9"], texts
