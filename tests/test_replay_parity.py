"""One replay: ``bgledger replay`` and the web replay show the same step (issue 22).

Both render :meth:`bgledger.service.Ledger.replay`.  The matches:

- ``ruled``: :func:`tests.ruled_match.record_ruled_match` (51 events, a ruling of
  each kind; ruling 7 reverts Bob's illegal play 6, ruling 31, the committee's,
  overturns the score correction 30);
- ``appealed``: 1-3 the start and Ann's opening 5-2, 4 her illegal 13/8 13/10,
  5 the director's revert (voids 4), 6 Ann's 13/8 13/11, 7 the committee
  overturns ruling 5 (USBGF 5.2): the illegal play stands again;
- ``typos``: 5 Bob's roll withdrawn at 6 (undo), 8 his play amended at 9 (recording
  errors, no ruling), 10 Ann's roll.

What the user sees is read off the screens and pages: the line under the
header of each CLI screen, the ``event-line`` of each web step.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from bgledger.cli.main import main
from bgledger.commands.vocabulary import Overturn, Revert, Undo
from bgledger.projections.views.audit import history
from bgledger.projections.views.step import replayed, trail_at
from bgledger.service import Ledger
from bgledger.store.application import MatchStore
from bgledger.web import create_app
from tests.ruled_match import record_ruled_match
from tests.webclient import reading

VIEWS = ("recorded", "corrected")


def record_appealed(ledger: Ledger) -> None:
    ledger.start(("Ann", "Bob"), 5, match_id="appealed", by="kim")
    for line in ("opening 5 2", "move 13/8 13/10 --as-played"):
        ledger.record_line("appealed", line, by="kim")
    ledger.record("appealed", Revert(4, reason="a 5 and a 3 with 5-2"), by="tess")
    ledger.record_line("appealed", "move 13/8 13/11", by="kim")
    ledger.record("appealed", Overturn(5, reason="Bob rolled before objecting"), by="cal")


def record_typos(ledger: Ledger) -> None:
    ledger.start(("Ann", "Bob"), 3, match_id="typos", by="kim")
    for line in ("opening 3 1", "move 8/5 6/5", "roll 6 4"):
        ledger.record_line("typos", line, by="kim")
    ledger.record("typos", Undo(reason="wrong dice"), by="kim")
    for line in ("roll 6 5", "move 24/13"):
        ledger.record_line("typos", line, by="kim")
    ledger.record_line("typos", "amend 8 move 24/18 18/13 --reason the other order", by="kim")
    ledger.record_line("typos", "roll 2 1", by="kim")


MATCHES = ("ruled", "appealed", "typos")


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('parity') / 'ledger.db'}"
    with MatchStore(url) as store:
        record_ruled_match(store, "ruled")
    ledger = Ledger(url)
    record_appealed(ledger)
    record_typos(ledger)
    ledger.close()
    return url


@pytest.fixture(scope="module")
def ledger(url: str) -> Iterator[Ledger]:
    ledger = Ledger(url)
    yield ledger
    ledger.close()


@pytest.fixture(scope="module")
def client(ledger: Ledger) -> TestClient:
    return reading(TestClient(create_app(ledger)), ledger)


def cli_lines(url: str, match_id: str, view: str, last: int) -> dict[int, str]:
    """Each event's line as ``bgledger replay`` prints it, stepping from 1 to the last."""
    given = ["--corrected"] if view == "corrected" else []
    result = CliRunner().invoke(
        main, ["--db", url, "replay", match_id, *given], input="n\n" * (last - 1) + "q\n"
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    shown = {}
    for index, line in enumerate(lines):
        header = re.fullmatch(r"== event (\d+) of \d+ · (\w+) view .*==", line)
        if header:
            assert header[2] == view
            shown[int(header[1])] = lines[index + 1]
    assert sorted(shown) == list(range(1, last + 1))
    return shown


def web_line(client: TestClient, match_id: str, at: int, view: str) -> str:
    """The event's line as the web replay shows it at that step."""
    response = client.get(f"/matches/{match_id}/replay/step?at={at}&view={view}")
    assert response.status_code == 200, response.text
    found = re.findall(r'<pre class="event-line">(.*?)</pre>', response.text, re.DOTALL)
    assert len(found) == 1
    return html.unescape(found[0])


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("match_id", MATCHES)
def test_the_cli_and_the_web_show_the_same_line_at_every_step(
    url: str, ledger: Ledger, client: TestClient, match_id: str, view: str
) -> None:
    last = len(ledger.events(match_id))
    printed = cli_lines(url, match_id, view, last)
    for at in range(1, last + 1):
        assert printed[at] == web_line(client, match_id, at, view), (match_id, view, at)


@pytest.mark.parametrize("match_id", MATCHES)
def test_as_recorded_no_event_is_voided_by_a_ruling_not_yet_made(
    url: str, match_id: str, ledger: Ledger
) -> None:
    last = len(ledger.events(match_id))
    for at, line in cli_lines(url, match_id, "recorded", last).items():
        for voider in re.findall(r"\[(?:voided by ruling|withdrawn at|amended at) (\d+)", line):
            assert int(voider) <= at, (match_id, at, line)


def test_the_illegal_play_before_its_revert_and_after_the_appeal(
    url: str, client: TestClient
) -> None:
    recorded = cli_lines(url, "appealed", "recorded", 7)
    corrected = cli_lines(url, "appealed", "corrected", 7)
    # event 4 as the log stood: an illegal play, standing (no ruling yet) ...
    assert "ILLEGAL: Ann played 13/10 13/8" in recorded[4] and "voided" not in recorded[4]
    assert " 4 ! " in recorded[4]
    # ... and today: the revert was overturned, so it stands again, and the revert is void
    assert " 4 ! " in corrected[4] and "voided" not in corrected[4]
    assert corrected[5].endswith("[voided by ruling 7]")
    assert "[voided by" not in recorded[5]  # ruling 5 stood until event 7
    # the web says so too, and lists the revert among the rulings in force at 5, as recorded
    page = client.get("/matches/appealed/replay?at=5&view=recorded").text
    rulings = page.split("<h2>Rulings", 1)[1].split("<h2>Recording errors", 1)[0]
    assert "event 4 void" in html.unescape(rulings)


def test_a_withdrawn_entry_is_marked_only_once_withdrawn(url: str) -> None:
    recorded = cli_lines(url, "typos", "recorded", 10)
    corrected = cli_lines(url, "typos", "corrected", 10)
    assert "withdrawn" not in recorded[5] and "[withdrawn at 6: recording error]" in corrected[5]
    assert "[amended at 9: recording error]" in corrected[8] and "amended" not in recorded[8]


@pytest.mark.parametrize("match_id", MATCHES)
def test_the_trail_as_of_an_event_is_the_history_of_the_events_by_then(
    ledger: Ledger, match_id: str
) -> None:
    events = ledger.events(match_id)
    match = replayed(events)
    for at in range(1, len(events) + 1):
        assert trail_at(match, at) == history(events[:at]), at


def test_a_step_is_the_match_today_after_a_new_event(tmp_path: Path) -> None:
    fresh = Ledger(f"sqlite:///{tmp_path / 'fresh.db'}")
    fresh.start(("Ann", "Bob"), 3, match_id="m", by="kim")
    assert fresh.replay("m", 1, "recorded").last == 1
    fresh.record_line("m", "opening 3 1", by="kim")  # 2 the game, 3 the roll
    assert fresh.replay("m", 1, "recorded").last == 3
    assert fresh.replay("m", 3, "corrected").line.endswith("Ann plays first")
    with pytest.raises(ValueError, match="'recorded' or 'corrected'"):
        fresh.replay("m", 1, "today")
    fresh.close()
