"""Heavy reads (the appeal packet, the score sheet, the replay) under many clients (issue 32).

In-process: a page asked again while the match stands still is the page first
rendered, rendered once; any new event renders it afresh; a client with its
heavy renders in flight is asked to wait (429).  Against a real ``serve``
(``bench/bench_clients.py``, shortened): while 10 clients loop a long match's
packet, every line a scorekeeper posts is recorded and the loopers are answered,
and while 1,100 half-sent requests are held open every read is answered.  How
fast (a line's p99 within 5x of the same run without the loopers, a read within
3 s) is the benchmark's target, checked by ``bench_clients.py --check``, not
here: a test timed on a shared machine fails with the machine's load.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import threading
from pathlib import Path

import pytest
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.testclient import TestClient

from bgledger.service import Ledger
from bgledger.web import create_app
from bgledger.web.heavy import HeavyReads
from tests.webclient import reading

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}", cache_size=16)
    ledger.start(("Ann", "Bob"), 5, match_id="final", by="kim")
    for line in ["opening 3 1", "move 8/5 6/5", "roll 6 4", "move 24/18 13/9"]:
        ledger.record_line("final", line, by="kim")
    return ledger


@pytest.mark.parametrize(
    "path",
    [
        "/matches/final/packet?from=2",
        "/matches/final/scoresheet",
        "/matches/final/replay?at=3",
        "/matches/final/replay/step?at=3&view=corrected",
    ],
)
def test_a_page_asked_again_is_rendered_once_until_the_match_moves(
    ledger: Ledger, path: str
) -> None:
    app = create_app(ledger)
    client = reading(TestClient(app), ledger)
    first = client.get(path)
    assert first.status_code == 200
    again = [client.get(path) for _ in range(9)]
    assert all(a.status_code == 200 and a.content == first.content for a in again)
    assert all(a.headers["content-type"] == first.headers["content-type"] for a in again)
    assert app.state.heavy.renders == 1
    ledger.record_line("final", "roll 5 2", by="kim")  # the match moves on
    moved = client.get(path)
    assert moved.status_code == 200 and app.state.heavy.renders == 2
    if "packet" in path:  # the packet runs to the last event: the new roll is in it
        assert "5-2" in moved.text or "52" in moved.text
        steps = 'class="packet-step"'
        assert moved.text.count(steps) == first.text.count(steps) + 1


def test_the_score_sheet_kept_keeps_its_own_style_policy(ledger: Ledger) -> None:
    client = reading(TestClient(create_app(ledger)), ledger)
    first = client.get("/matches/final/scoresheet")
    kept = client.get("/matches/final/scoresheet")
    policy = first.headers["content-security-policy"]
    assert "style-src 'self' 'sha256-" in policy
    assert kept.headers["content-security-policy"] == policy


def test_an_unknown_match_is_not_found_and_nothing_is_kept(ledger: Ledger) -> None:
    app = create_app(ledger)
    client = reading(TestClient(app), ledger)
    assert client.get("/matches/nope/packet").status_code == 404
    assert app.state.heavy.renders == 0 and app.state.heavy.kept_bytes == 0


def _request(query: str, host: str = "192.0.2.7") -> Request:
    return Request(
        {
            "type": "http",
            "method": "GET",
            "scheme": "http",
            "server": ("t", 80),
            "client": (host, 1234),
            "path": "/matches/final/packet",
            "query_string": query.encode(),
            "headers": [(b"host", b"t")],
            "path_params": {"match_id": "final"},
        }
    )


def test_a_client_with_its_heavy_renders_in_flight_is_asked_to_wait(ledger: Ledger) -> None:
    heavy = HeavyReads(ledger, rendering=1, per_client=2)
    release = threading.Event()

    def slow(request: Request) -> Response:
        release.wait(10)
        return PlainTextResponse(request.url.query)

    route = heavy.route(slow)

    async def in_flight(count: int) -> None:
        """Until ``count`` requests are in flight (each has read the match: a thread's work)."""
        for _ in range(1000):
            if sum(heavy._in_flight.values()) == count:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"not {count} in flight: {heavy._in_flight}")

    async def three_at_once() -> tuple[list[Response], int, str, str]:
        first = [asyncio.create_task(route(_request(f"n={n}"))) for n in (1, 2)]
        await in_flight(2)  # both: one rendering, one waiting its turn
        other = asyncio.create_task(route(_request("n=4", host="192.0.2.8")))  # another client
        await in_flight(3)
        with pytest.raises(HTTPException) as refused:
            await route(_request("n=3"))
        release.set()
        done = [*await asyncio.gather(*first), await other]
        retry = (refused.value.headers or {}).get("Retry-After", "")
        return done, refused.value.status_code, retry, refused.value.detail

    done, status, retry, detail = asyncio.run(three_at_once())
    assert [response.status_code for response in done] == [200, 200, 200]
    assert status == 429 and int(retry) > 0 and "wait" in detail
    assert heavy.renders == 3


def _bench() -> object:
    path = ROOT / "bench" / "bench_clients.py"
    spec = importlib.util.spec_from_file_location("bench_clients", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_clients"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_clients_looping_the_packet_and_half_sent_requests_leave_lines_and_reads_answered(
    tmp_path: Path,
) -> None:
    bench = _bench()
    if not (bench.CORPUS / bench.LONG).exists():  # type: ignore[attr-defined]
        pytest.skip("the real corpus is missing")
    said: list[str] = []
    figures = bench.run(2.0, tmp_path, said.append)  # type: ignore[attr-defined]
    print("\n" + "\n".join(said))  # the timings, for whoever reads the log
    flood, alone, loaded = figures.flood, figures.alone, figures.loaded
    # Every read answered 200 while the half-sent requests held their descriptors (before
    # issue 32 they took every descriptor and the reads timed out).
    assert flood.failed == 0 and len(flood.flooded) >= 20, said
    assert flood.opened > 1000, said
    # Every line recorded (post_lines asserts each 201) alone and with the loopers, and the
    # loopers were answered: the packet, kept, to each of them again and again.
    assert alone.ms and loaded.ms, said
    assert loaded.packets >= 10, said
