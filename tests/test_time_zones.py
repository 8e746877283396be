"""Times print in one zone per view (issue 32, break 9): a time sent with a +14:00 offset does
not make ``history`` jump a day; the zone is the match's start's, and ``history`` names it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from bgledger.cli.main import main


def run(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", url, *args])


def test_a_time_sent_at_plus_14_does_not_make_history_jump_a_day(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'z.db'}"
    start = ["start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m"]
    assert run(url, *start, "--at", "2026-11-27T19:00:00+00:00").exit_code == 0
    assert run(url, "opening", "m", "3", "1", "--at", "2026-11-27T19:01:00+00:00").exit_code == 0
    # A phone whose zone is +14:00 sends the play a minute later: 09:02 the next day there.
    sent = run(url, "move", "m", "8/5 6/5", "--at", "2026-11-28T09:02:00+14:00")
    assert sent.exit_code == 0, sent.output
    lines = run(url, "history", "m").stdout.splitlines()
    assert "times in UTC, the zone the match started in" in lines
    timed = [line for line in lines if "2026-11-" in line]
    assert len(timed) == 4 and all(" 2026-11-27 19:0" in line for line in timed), timed
    assert "2026-11-27 19:02:00" in timed[-1]


def test_a_match_started_at_plus_one_prints_in_plus_one(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'z.db'}"
    start = ["start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m"]
    assert run(url, *start, "--at", "2026-11-27T23:30:00+01:00").exit_code == 0
    assert run(url, "opening", "m", "3", "1", "--at", "2026-11-27T22:31:00+00:00").exit_code == 0
    lines = run(url, "history", "m").stdout.splitlines()
    assert "times in UTC+01:00, the zone the match started in" in lines
    assert any(" 2026-11-27 23:31:00 " in line for line in lines), lines


def test_the_score_sheet_and_a_break_s_end_print_in_the_match_s_zone(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'z.db'}"
    start = ["start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m"]
    assert run(url, *start, "--at", "2026-11-27T19:00:00+00:00").exit_code == 0
    for line, at in [
        (["opening", "m", "3", "1"], "2026-11-27T19:01:00+00:00"),
        (["move", "m", "8/5 6/5"], "2026-11-27T19:02:00+00:00"),
        (["double", "m"], "2026-11-28T09:03:00+14:00"),  # 19:03 at the venue
        (["drop", "m"], "2026-11-28T09:04:00+14:00"),
    ]:
        done = run(url, *line, "--at", at)
        assert done.exit_code == 0, done.output
    sheet = run(url, "export", "m", "--format", "scoresheet").stdout
    assert "19:04" in sheet and "09:04" not in sheet, sheet


def test_the_match_page_names_the_zone_of_its_history(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from bgledger.service import Ledger
    from bgledger.web import create_app

    ledger = Ledger(f"sqlite:///{tmp_path / 'z.db'}")
    at = "2026-11-27T23:30:00+01:00"
    ledger.start(("Ann", "Bob"), 3, match_id="m", by="kim", at=at, event="Open")
    ledger.record_line("m", "opening 3 1", by="kim", at="2026-11-28T12:31:00+14:00")
    ledger.publish("Open", by="dora")  # open to a reader without a token
    with TestClient(create_app(ledger)) as client:
        page = client.get("/matches/m").text
    ledger.close()
    assert "times in UTC+01:00" in page and "2026-11-27 23:31:00" in page
