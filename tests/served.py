"""The browser tests' server and browser, and ``serve`` in processes of its own.

:func:`serving`: a ledger served by uvicorn on a free port of 127.0.0.1, in a
thread; :func:`browser`: Debian's headless Chromium driven by selenium through
Debian's ``chromedriver`` (skipping the test where either is missing), with
:func:`viewport` to give it a phone's or a tablet's screen.

:func:`serve_processes`: ``bgledger serve`` itself, in processes of their own
on one ledger (two servers on one PostgreSQL database; ``bench/bench_tournament.py``).
"""

from __future__ import annotations

import atexit
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
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
    port = free_port()
    app = create_app(ledger, streams=streams)
    # A page's live stream is not a request that ends: without a bound on the graceful shutdown
    # the server waited for the browser to go, and the thread's join timed out after 10 s a test.
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
    )
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


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on (now)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


BGLEDGER = [sys.executable, "-m", "bgledger.cli.main"]
"""The command line, as this interpreter runs it."""


@dataclass(frozen=True)
class Served:
    """One ``bgledger serve`` process: its base URL and process id."""

    base: str
    pid: int


@contextmanager
def serve_processes(
    url: str, count: int, logs: Path, *, open_files: int | None = None
) -> Iterator[list[Served]]:
    """``count`` ``bgledger --db URL serve`` processes on free ports while the block runs.

    Each logs to ``logs/serve-N.log``; each has answered ``/api/now`` before the
    block starts; Ctrl-C (SIGINT) stops them after it.  ``open_files``: each
    process's open-files limit, soft and hard (``ulimit -n``: ``serve`` cannot raise it).
    """

    def limited() -> None:  # in the child, before exec
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    started: list[tuple[subprocess.Popen[bytes], str]] = []
    try:
        for n in range(count):
            port = free_port()
            with (logs / f"serve-{n}.log").open("wb") as log:
                command = [*BGLEDGER, "--db", url, "serve", "--port", str(port)]
                process = subprocess.Popen(
                    command, stdout=log, stderr=subprocess.STDOUT, preexec_fn=limited, cwd=logs
                )
            started.append((process, f"http://127.0.0.1:{port}"))
        for process, base in started:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(f"{base}/api/now", timeout=2):
                        break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"bgledger serve did not start: see {logs}") from None
                    time.sleep(0.1)
        yield [Served(base, process.pid) for process, base in started]
    finally:
        for process, _ in started:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process, _ in started:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


_OPENED: list[Any] = []
"""This process's Chromium, started by the first test that asks and kept for the next (one a
pytest-xdist worker): starting one costs a second or more of CPU a test."""


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


@contextmanager
def browser() -> Iterator[Any]:
    """A headless Chromium under selenium while the block runs (the test skips without one).

    One browser serves this process's tests in turn: after each it is left as a fresh one
    is (one blank tab, no screen emulated, online, nothing stored for the origins it was on).
    """
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("no Chromium or chromedriver: apt-get install chromium chromium-driver")
    webdriver = pytest.importorskip("selenium.webdriver")
    if not _OPENED:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
            options.add_argument(argument)
        service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
        _OPENED.append(webdriver.Chrome(options=options, service=service))
        atexit.register(_quit)
    driver = _OPENED[0]
    try:
        yield driver
    finally:
        try:
            _as_new(driver)
        except Exception:  # a test left it unusable: the next test starts another
            _quit()


def _as_new(driver: Any) -> None:
    """Leave ``driver`` as a fresh browser is, for the next test."""
    with suppress(Exception):  # a dialog a test left open would hold every command up
        driver.switch_to.alert.dismiss()
    origins = set()
    for handle in driver.window_handles[::-1]:
        driver.switch_to.window(handle)
        if driver.current_url.startswith("http"):
            origins.add("/".join(driver.current_url.split("/")[:3]))
        if handle != driver.window_handles[0]:
            driver.close()
    driver.switch_to.window(driver.window_handles[0])
    driver.set_page_load_timeout(300)
    driver.get("about:blank")
    with suppress(Exception):  # (chromedriver refuses when the test set none)
        driver.delete_network_conditions()
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    for origin in origins:
        driver.execute_cdp_cmd(
            "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"}
        )
    driver.get_log("browser")  # what it said is the test's, read or not


def _quit() -> None:
    while _OPENED:
        _OPENED.pop().quit()


def viewport(driver: Any, width: int, height: int) -> None:
    """A phone's or a tablet's screen: its viewport, as Chromium emulates a device."""
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def read_as(driver: Any, url: str, token: str) -> None:
    """Let the browser read the server at ``url`` with ``token`` (DESIGN principle 14): the
    read cookie a refused page's script sets from a kept token (``static/reader.js``), set
    here at once.  It reads only: a page still writes with the token it keeps."""
    from bgledger.web.reads import READER_COOKIE

    driver.get(f"{url}/favicon.ico")  # a cookie is set on a page of its site
    driver.add_cookie({"name": READER_COOKIE, "value": token, "path": "/", "sameSite": "Strict"})
