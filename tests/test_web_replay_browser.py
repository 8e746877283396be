"""The committee's replay in a real browser: Debian's headless Chromium runs the page's script.

The ruled match of :func:`tests.ruled_match.record_ruled_match` is served by
uvicorn on a free port of 127.0.0.1; Chromium loads a step, prints the DOM as
it stands after ``replay.js`` ran (the script shows the keys it binds), saves
a screenshot, and prints the appeal packet to PDF as a committee member
would.  Skipped where no Chromium is installed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bgledger.service import Ledger
from bgledger.store.application import MatchStore
from tests.ruled_match import record_ruled_match
from tests.served import serving
from tests.test_web_browser import CHROMIUM, chromium

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if CHROMIUM is None:
        pytest.skip("no Chromium: apt-get install chromium")
    url = f"sqlite:///{tmp_path_factory.mktemp('replay') / 'ledger.db'}"
    with MatchStore(url) as store:
        record_ruled_match(store, "m", event="Open")
    ledger = Ledger(url)
    ledger.publish("Open", by="the director")  # published: a browser reads it with no token
    with serving(ledger) as url:
        yield url
    ledger.close()


def test_the_replay_steps_with_its_script_and_draws_the_corrected_cube(
    served: str, tmp_path: Path
) -> None:
    url = f"{served}/matches/m/replay?at=10&view=corrected"
    dom = chromium("--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    # the script ran: the keys it binds are shown (the page hides them without it)
    assert re.search(r'<p class="keys" id="replay-keys">keys: ← →', dom.stdout)
    assert "event 10 of 51" in dom.stdout
    cube = re.search(r'<g class="cube"[^>]*>.*?>(\d+)</text>', dom.stdout)
    assert cube is not None and cube.group(1) == "2"  # the double to 4 stands at 2
    shot = tmp_path / "replay.png"
    taken = chromium(f"--screenshot={shot}", "--window-size=1200,900", url)
    assert taken.returncode == 0, taken.stderr[-2000:]
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000


def test_the_appeal_packet_prints_to_pdf(served: str, tmp_path: Path) -> None:
    pdf = tmp_path / "packet.pdf"
    url = f"{served}/matches/m/packet?from=5&to=8"
    printed = chromium(f"--print-to-pdf={pdf}", "--no-pdf-header-footer", url)
    assert printed.returncode == 0, printed.stderr[-2000:]
    document = pdf.read_bytes()
    assert document.startswith(b"%PDF") and len(document) > 20_000
