"""The browser tests' server and browser.

:func:`serving`: a ledger served by uvicorn on a free port of 127.0.0.1, in a
thread; :func:`browser`: Debian's headless Chromium driven by selenium through
Debian's ``chromedriver`` (skipping the test where either is missing), with
:func:`viewport` to give it a phone's or a tablet's screen.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn

from bgledger.service import Ledger
from bgledger.web import create_app
from bgledger.web.streams import StreamLimits


@contextmanager
def serving(ledger: Ledger, streams: StreamLimits | None = None) -> Iterator[str]:
    """The app on ``ledger`` under uvicorn while the block runs; yields its base URL.

    ``streams``: the live streams' bounds (the app's default without).
    """
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(ledger, streams=streams)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


@contextmanager
def browser() -> Iterator[Any]:
    """A headless Chromium under selenium while the block runs (the test skips without one)."""
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("no Chromium or chromedriver: apt-get install chromium chromium-driver")
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(argument)
    service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()


def viewport(driver: Any, width: int, height: int) -> None:
    """A phone's or a tablet's screen: its viewport, as Chromium emulates a device."""
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
