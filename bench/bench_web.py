"""Benchmark: ``bgledger serve`` in-process with 1,000 matches stored: page, API, live stream.

    python bench/bench_web.py [--matches N] [--actions A] [--requests R] [--posts P]
                              [--pad-rounds K] [--dir DIR] [--check]

Stores ``--matches`` (1,000) small matches in a fresh SQLite file: match
``i`` plays ``--actions`` (30) seeded random legal actions
(``tests/match_driver.py``, every action decided by the ``Match`` commands)
and is stored as an import is (``MatchStore.store_new``, 50 a transaction).
Then, on one :class:`bgledger.Ledger` configured as ``bgledger serve``
configures it (a cache of 256 matches) and the application of
:func:`bgledger.web.create_app`, driven in-process (Starlette's TestClient:
the whole ASGI stack, no network):

1. ``GET /api/matches/M`` (``show --json``) and ``GET /matches/M`` (the match
   page: board SVG, status, history), ``--requests`` (300) each on random
   matches, each match's first request (cold: read from the database, folded
   from its snapshot) and its second (warm) apart; median and p95 in ms.
   **Target: < 50 ms** (median of the cold requests, the worst case a page meets).
   ``GET /`` (the list of all matches) for information.
2. The director's console of one event (``GET /events/E/director``: 100 matches
   of the 1,000, each card from its read-model row and its state) and its live
   part, the first request after the server starts (cold: every match of the
   event read) and then warm; the director's desk of a match
   (``GET /matches/M/desk``) cold and warm.  **Target: < 50 ms** (median, warm
   console; the cold one is shown, and said plainly if it misses).  And
   ``POST /api/matches`` (a director starts a match: the match and its
   scorekeeper's token stored), median of ``--starts`` (30).
3. Live: a stream (``GET /api/matches/M/events``) is open while a pad posts
   ``--posts`` (20) lines, one at a time; the time from the POST being sent
   to the event arriving on the stream.  **Target: < 1 s** (the worst).
4. The pad in headless Chromium (selenium and Debian's chromedriver; the
   section is skipped, and says so, without them), served by uvicorn on
   127.0.0.1 from the same ledger: a **long** match of 1,500 events (a
   99-point match of seeded random legal lines, no cube) and a **fresh** one,
   alternately, ``--pad-rounds`` (10) times each: the pad's first paint
   (``first-contentful-paint`` of the page loaded anew, and the navigation's
   ``DOMContentLoaded``), and a tap's round trip: the two dice tapped, then
   Roll, from the click to the server's answer drawn on the page (the
   "recorded #N" message, the play's buttons offered), timed in the page
   (``performance.now()``).  The lines between two rolls are recorded
   untimed through the ledger, and reach the pad on its live stream.  For
   information: the ratio long / fresh of the medians (a long match should
   cost a pad no more than a fresh one).

Prints a table and PASS/FAIL per target; exit 0 either way (``--check``: 1
if a target is missed).
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from starlette.testclient import TestClient  # noqa: E402

from bgledger.commands.match import Match, match_uuid  # noqa: E402
from bgledger.commands.vocabulary import parse  # noqa: E402
from bgledger.service import Ledger  # noqa: E402
from bgledger.store.application import MatchStore  # noqa: E402
from bgledger.web import create_app  # noqa: E402
from tests.match_driver import next_line, play_lines, store_matches  # noqa: E402
from tests.served import CHROMEDRIVER, CHROMIUM, serving  # noqa: E402
from tests.test_web_live import Stream  # noqa: E402

CACHE = 256  # as bgledger serve (cli/web_commands.py)
TARGET_MS = 50.0
LIVE_TARGET_S = 1.0
LONG_EVENTS = 1500


def build(url: str, matches: int, actions: int) -> float:
    """Store the matches; seconds taken."""
    started = time.perf_counter()

    def played(i: int) -> Match:
        match_id = f"m{i:04d}"
        match = Match.start(
            match_uuid(match_id), match_id, (f"A{i}", f"B{i}"), 7,
            event=f"Event {i % 10}", by="bench",
        )  # fmt: skip
        play_lines(match, random.Random(i), actions, by="bench")
        return match

    store_matches(url, (played(i) for i in range(matches)))
    return time.perf_counter() - started


def build_long(url: str, events: int = LONG_EVENTS) -> str:
    """Store a 99-point match of seeded random legal lines (no cube) cut at ``events``; its id."""
    match = Match.start(match_uuid("long"), "long", ("Ann", "Bob"), 99, by="bench")
    rng = random.Random(20261127)
    while match.state.events < events:
        line = next_line(match.state, rng, cube_rate=0.0)
        assert line is not None, "the long match ended before its events"
        parse(line).run(match, "bench")
    store = MatchStore(url)
    store.store_new(match)
    store.close()
    return "long"


def to_roll(ledger: Ledger, match_id: str, rng: random.Random) -> str:
    """Lines recorded (untimed) until a player is on roll; the roll to tap."""
    while True:
        state = ledger.state(match_id)
        line = next_line(state, rng, cube_rate=0.0)
        assert line is not None, f"{match_id} ended"
        if line.startswith("roll "):
            return line
        ledger.record_line(match_id, line, by="bench")


PAINT = """
var done = arguments[arguments.length - 1];
var nav = performance.getEntriesByType("navigation")[0];
function found(paint) {
  done([paint ? paint.startTime : null, nav ? nav.domContentLoadedEventEnd : null]);
}
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) {
    if (e.name === "first-contentful-paint") { found(e); }
  });
}).observe({type: "paint", buffered: true});
setTimeout(function () { found(null); }, 3000);
"""
READY = "return !document.querySelector('.die').disabled"
"""The pad has read its match: the dice are offered."""
TAP = """
var done = arguments[arguments.length - 1], number = arguments[0], started = null;
var head = document.getElementById("msg-head");
var seen = new MutationObserver(function () {
  if (started !== null && head.textContent.indexOf("#" + number + " ") >= 0) {
    seen.disconnect();
    done(performance.now() - started);
  }
});
seen.observe(head, {childList: true, characterData: true, subtree: true});
document.querySelector('.dice-row[data-die="0"] .die[data-face="' + arguments[1] + '"]').click();
document.querySelector('.dice-row[data-die="1"] .die[data-face="' + arguments[2] + '"]').click();
started = performance.now();
document.getElementById("dice-confirm").click();
"""


def pad(ledger: Ledger, rounds: int) -> dict[str, dict[str, list[float]]] | str:
    """The pad's first paint and a tap's round trip, long and fresh (ms); a reason if skipped."""
    if CHROMIUM is None or CHROMEDRIVER is None:
        return "skipped: no Chromium or chromedriver (apt-get install chromium chromium-driver)"
    try:
        from selenium import webdriver
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        return "skipped: no selenium (pip install selenium)"
    ids = {"long": "long", "fresh": ledger.start(("Cy", "Di"), 7, by="bench")}
    tokens = {k: ledger.issue_token("scorekeeper", match_id=m, label="kim") for k, m in ids.items()}
    out: dict[str, dict[str, list[float]]] = {
        kind: {"paint": [], "loaded": [], "tap": []} for kind in ids
    }
    rng = random.Random(5)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=360,740"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(CHROMEDRIVER))
    driver.set_script_timeout(10)
    try:
        with serving(ledger) as url:
            for kind, match_id in ids.items():  # the token kept, the service worker installed
                driver.get(f"{url}/matches/{match_id}/pad#token={tokens[kind]}")
                time.sleep(0.5)
            for _ in range(rounds):
                for kind, match_id in ids.items():
                    roll = to_roll(ledger, match_id, rng)
                    driver.get(f"{url}/matches/{match_id}/pad")
                    paint, loaded = driver.execute_async_script(PAINT)
                    if paint is not None:  # (none reported: the page was never painted shown)
                        out[kind]["paint"].append(paint)
                    out[kind]["loaded"].append(loaded)
                    events = ledger.state(match_id).events
                    WebDriverWait(driver, 10, 0.02).until(lambda d: d.execute_script(READY))
                    first, second = roll.split()[1:3]
                    took = driver.execute_async_script(TAP, events + 1, first, second)
                    out[kind]["tap"].append(took)
                    while ledger.state(match_id).phase.value == "play":  # the play, untimed
                        line = next_line(ledger.state(match_id), rng, cube_rate=0.0)
                        assert line is not None
                        ledger.record_line(match_id, line, by="bench")
    finally:
        driver.quit()
    return out


def timed(call: Callable[[], Any]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def stats(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95, ordered[-1]


def requests(client: TestClient, path: str, ids: list[str]) -> dict[str, list[float]]:
    """Each id's first (cold) and second (warm) request of ``path``, in ms."""
    out: dict[str, list[float]] = {"cold": [], "warm": []}
    for match_id in ids:
        url = path.format(match_id)
        for kind in ("cold", "warm"):

            def get(url: str = url) -> None:
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code)

            out[kind].append(timed(get))
    return out


def start_matches(ledger: Ledger, client: TestClient, count: int) -> list[float]:
    """ms to start each of ``count`` matches through the API with a director's token."""
    token = ledger.issue_token("director", event="Event 3", label="bench")
    took = []
    for i in range(count):
        body = {"a": f"New{i}", "b": f"Late{i}", "length": 7, "event": "Event 3"}

        def start(body: dict[str, Any] = body) -> None:
            headers = {"Authorization": f"Bearer {token}"}
            response = client.post("/api/matches", json=body, headers=headers)
            assert response.status_code == 201, response.text

        took.append(timed(start))
    return took


async def live(ledger: Ledger, match_id: str, posts: int) -> list[float]:
    """Seconds from each POST to its event on an open stream."""
    app = create_app(ledger)
    token = ledger.issue_token("scorekeeper", match_id=match_id, label="bench")
    stream = Stream(app, f"/api/matches/{match_id}/events")
    loop = asyncio.get_running_loop()
    await asyncio.wait_for(stream.chunks.get(), 5)
    took = []
    rng = random.Random(7)
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://bench") as pad:
        for _ in range(posts):
            line = next_line(ledger.state(match_id), rng)
            if line is None:
                break
            posted = loop.time()
            response = await pad.post(
                f"/api/matches/{match_id}/lines",
                json={"line": line},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert response.status_code == 201, response.text
            last = response.json()["recorded"][-1]["number"]
            seen = 0
            while seen < last and loop.time() < posted + 5:
                events = await stream.events(posted + 5)
                seen = max([seen, *(event["number"] for event in events)])
            took.append(loop.time() - posted)
    await stream.close()
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--posts", type=int, default=20)
    parser.add_argument("--starts", type=int, default=30)
    parser.add_argument("--pad-rounds", type=int, default=10)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        build_s = build(url, args.matches, args.actions)
        build_long(url)
        ledger = Ledger(url, cache_size=CACHE)
        ledger.matches()  # the read models caught up once, as a server's first list does
        client = TestClient(create_app(ledger))
        rng = random.Random(1)
        ids = rng.sample([f"m{i:04d}" for i in range(args.matches)], args.requests)
        half = len(ids) // 2
        api = requests(client, "/api/matches/{}", ids[:half])
        page = requests(client, "/matches/{}", ids[half:])
        index = [timed(lambda: client.get("/")) for _ in range(5)]
        console = "/events/Event 3/director"
        console_cold = [timed(lambda: client.get(console))]
        console_warm = [timed(lambda: client.get(console)) for _ in range(10)]
        console_live = [timed(lambda: client.get(f"{console}/live")) for _ in range(10)]
        desk = requests(client, "/matches/{}/desk", ids[:30])
        starts = start_matches(ledger, client, args.starts)
        fresh = next(f"m{i:04d}" for i in range(args.matches) if ledger.state(f"m{i:04d}").in_game)
        latency = asyncio.run(live(ledger, fresh, args.posts))
        pad_ms = pad(ledger, args.pad_rounds)
        ledger.close()

    print(f"# bench_web: {args.matches} matches ({args.actions} actions each), SQLite, "
          f"Python {platform.python_version()}, stored in {build_s:.1f} s")  # fmt: skip
    print(f"{'':34} {'median':>8} {'p95':>8} {'max':>8}  (ms)")
    rows = [
        ("GET /api/matches/M (cold)", api["cold"]),
        ("GET /api/matches/M (warm)", api["warm"]),
        ("GET /matches/M (cold)", page["cold"]),
        ("GET /matches/M (warm)", page["warm"]),
        (f"GET / ({args.matches} matches, info)", index),
        ("console of 100 matches (cold)", console_cold),
        ("console of 100 matches (warm)", console_warm),
        ("console's live part (warm)", console_live),
        ("GET /matches/M/desk (cold)", desk["cold"]),
        ("GET /matches/M/desk (warm)", desk["warm"]),
        ("POST /api/matches (start)", starts),
        ("POST line -> SSE event", [s * 1000 for s in latency]),
    ]
    for name, values in rows:
        median, p95, worst = stats(values)
        print(f"{name:34} {median:8.1f} {p95:8.1f} {worst:8.1f}")
    verdicts = [
        ("page median < 50 ms", stats(page["cold"])[0] < TARGET_MS),
        ("API median < 50 ms", stats(api["cold"])[0] < TARGET_MS),
        ("console median < 50 ms (warm)", stats(console_warm)[0] < TARGET_MS),
        ("console < 50 ms (cold, the first after a start)", console_cold[0] < TARGET_MS),
        ("desk median < 50 ms", stats(desk["cold"])[0] < TARGET_MS),
        ("start a match median < 50 ms", stats(starts)[0] < TARGET_MS),
        ("posted line on the stream < 1 s (worst)", max(latency) < LIVE_TARGET_S),
    ]
    if isinstance(pad_ms, str):
        print(f"the pad in Chromium: {pad_ms}")
    else:
        print(f"the pad in headless Chromium, 360x740, {args.pad_rounds} rounds "
              f"(long: {LONG_EVENTS:,} events)")  # fmt: skip
        print(f"{'':34} {'fresh':>8} {'long':>8} {'ratio':>8}  (ms, medians)")
        for name, key in (("first contentful paint", "paint"), ("DOMContentLoaded", "loaded"),
                          ("tap Roll -> answer on the page", "tap")):  # fmt: skip
            if not pad_ms["fresh"][key] or not pad_ms["long"][key]:
                print(f"{name:34} (not reported by the browser)")
                continue
            fresh_ms = statistics.median(pad_ms["fresh"][key])
            long_ms = statistics.median(pad_ms["long"][key])
            print(f"{name:34} {fresh_ms:8.1f} {long_ms:8.1f} {long_ms / fresh_ms:7.2f}x")
    for name, ok in verdicts:
        print(f"{'PASS' if ok else 'FAIL'}  {name}")
    return 1 if args.check and not all(ok for _, ok in verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
