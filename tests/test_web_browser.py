"""The match page in a real browser: Debian's headless Chromium draws it, and a screenshot is kept.

The server runs under uvicorn in a thread on a free port of 127.0.0.1;
Chromium (``chromium``, installed by ``.ci/run``) loads the page, prints the
DOM as it stands after the page's script ran, and saves a screenshot in the
test's temporary folder.  Skipped where no Chromium is installed.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bgledger.service import Ledger
from tests.served import serving

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    if CHROMIUM is None:
        pytest.skip("no Chromium: apt-get install chromium")
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob <b>"), 7, match_id="final", event="Open", by="kim")
    ledger.publish("Open", by="the director")  # published: a browser reads it with no token
    for line in ["opening 3 1", "move 8/5 6/5", "roll 6 4"]:
        ledger.record_line("final", line, by="kim")
    with serving(ledger) as url:
        yield url
    ledger.close()


def chromium(*args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_the_match_page_draws_the_board_in_chromium(served: str, tmp_path: Path) -> None:
    url = f"{served}/matches/final"
    dom = chromium("--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in dom.stdout
    assert dom.stdout.count('class="checker mine"') == 15  # Ann's fifteen, none off
    assert "Bob &lt;b&gt; has rolled 6-4 and must move" in dom.stdout
    shot = tmp_path / "match.png"
    taken = chromium(f"--screenshot={shot}", "--window-size=900,1300", url)
    assert taken.returncode == 0, taken.stderr[-2000:]
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000
