"""``bgledger publish --event E [--off]``: the director opens an event's wall at the shell.

What the director reads: the wall is public now (and where it is), or was so
already and nothing was recorded; an event without a match is refused by
name (exit 2, nothing recorded); ``--history`` lists who opened and closed it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bgledger.cli.main import main


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    started = run(url, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--event", "Open 2026")
    assert started.exit_code == 0, started.output
    return url


def run(db: str, *args: str) -> Any:
    return CliRunner().invoke(main, ["--db", db, *args])


def test_publish_opens_the_wall_and_says_where_it_is(db: str) -> None:
    done = run(db, "publish", "--event", "Open 2026", "--by", "Dana")
    assert done.exit_code == 0
    assert done.stdout.splitlines() == [
        "event 'Open 2026' is public: its wall is open to spectators",
        "the wall: /events/Open%202026/wall (on 'bgledger serve')",
    ]


def test_publishing_again_records_nothing_and_says_so(db: str) -> None:
    run(db, "publish", "--event", "Open 2026", "--by", "Dana")
    again = run(db, "publish", "--event", "Open 2026", "--by", "Eli", "--json")
    assert again.exit_code == 0
    document = json.loads(again.stdout)
    assert document["recorded"] is False and document["by"] == "Dana"
    text = run(db, "publish", "--event", "Open 2026", "--by", "Eli")
    assert text.stdout.startswith("event 'Open 2026' is public already (published at ")
    assert "by Dana): nothing recorded" in text.stdout


def test_off_closes_it_and_the_history_lists_both(db: str) -> None:
    run(db, "publish", "--event", "Open 2026", "--by", "Dana")
    closed = run(db, "publish", "--event", "Open 2026", "--off", "--by", "Eli")
    assert closed.exit_code == 0
    assert (
        closed.stdout == "event 'Open 2026' is no longer public: its wall is closed to spectators\n"
    )
    listed = run(db, "publish", "--event", "Open 2026", "--history", "--json")
    changes = json.loads(listed.stdout)["publications"]
    assert [(c["published"], c["by"]) for c in changes] == [(True, "Dana"), (False, "Eli")]
    lines = run(db, "publish", "--event", "Open 2026", "--history").stdout.splitlines()
    assert [line.split()[1:] for line in lines] == [["published", "Dana"], ["withdrawn", "Eli"]]


def test_an_event_without_a_match_exits_2_naming_it(db: str) -> None:
    refused = run(db, "publish", "--event", "Open 2062")
    assert refused.exit_code == 2
    assert "event 'Open 2062': no match of it was started" in refused.stderr
    assert "did you mean 'Open 2026'?" in refused.stderr
    assert "Traceback" not in refused.output
    assert "never published" in run(db, "publish", "--event", "Open 2062", "--history").stdout


def test_bad_usage_exits_2(db: str) -> None:
    assert run(db, "publish").exit_code == 2  # no --event
    both = run(db, "publish", "--event", "Open 2026", "--history", "--off")
    assert both.exit_code == 2 and "--history or a change (--off, --delay), not both" in both.stderr


def test_publish_with_a_delay_says_so_and_again_records_nothing(db: str) -> None:
    done = run(db, "publish", "--event", "Open 2026", "--delay", "15m", "--by", "Dana")
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[0] == (
        "event 'Open 2026' is public: its wall is open to spectators, 15 min behind"
    )
    again = run(db, "publish", "--event", "Open 2026", "--delay", "900s", "--json")
    assert again.exit_code == 0
    document = json.loads(again.stdout)  # 900 s is 15 minutes: the same publication
    assert document["recorded"] is False and document["delay_seconds"] == 900
    assert document["by"] == "Dana"
    text = run(db, "publish", "--event", "Open 2026", "--delay", "15m").stdout
    assert "public already (published with a 15 min delay at " in text
    assert "nothing recorded" in text


def test_changing_the_delay_is_a_new_publication_and_the_history_lists_it(db: str) -> None:
    run(db, "publish", "--event", "Open 2026", "--by", "Dana")  # live
    later = run(db, "publish", "--event", "Open 2026", "--delay", "1h", "--by", "Eli", "--json")
    assert json.loads(later.stdout)["recorded"] is True
    assert json.loads(later.stdout)["delay_seconds"] == 3600
    live = run(db, "publish", "--event", "Open 2026", "--delay", "0", "--by", "Fay", "--json")
    assert json.loads(live.stdout)["recorded"] is True  # back to live: a change too
    assert json.loads(live.stdout)["delay_seconds"] == 0
    closed = run(db, "publish", "--event", "Open 2026", "--off", "--by", "Gil")
    assert closed.exit_code == 0
    lines = run(db, "publish", "--event", "Open 2026", "--history").stdout.splitlines()
    assert [line.split("  ")[1:] for line in lines] == [
        ["published", "Dana"],
        ["published", "Eli", "1 h delay"],
        ["published", "Fay"],
        ["withdrawn", "Gil"],
    ]


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("-5m", "--delay '-5m': a delay is never negative"),
        ("25h", "--delay '25h' is 25 h: a spectator delay is at most 24h (a day)"),
        ("86401s", "--delay '86401s' is 24 h 1 s: a spectator delay is at most 24h"),
        ("15", "--delay '15': not a delay: give its unit (15m, 15s or 15h)"),
        ("soon", "--delay 'soon': not a delay: a length of time from 0 (live) to 24h"),
        ("", "--delay '': not a delay"),
    ],
)
def test_a_delay_that_is_none_exits_2_naming_it_and_records_nothing(
    db: str, given: str, said: str
) -> None:
    refused = run(db, "publish", "--event", "Open 2026", "--delay", given)
    assert refused.exit_code == 2
    assert said in refused.stderr
    assert "Traceback" not in refused.output
    assert "never published" in run(db, "publish", "--event", "Open 2026", "--history").stdout


def test_a_delay_with_off_or_history_is_refused(db: str) -> None:
    run(db, "publish", "--event", "Open 2026")
    off = run(db, "publish", "--event", "Open 2026", "--off", "--delay", "5m")
    assert off.exit_code == 2
    assert "--delay 5 min with --off: a withdrawn wall shows nothing" in off.stderr
    history = run(db, "publish", "--event", "Open 2026", "--history", "--delay", "5m")
    assert history.exit_code == 2 and "not both" in history.stderr
    assert run(db, "publish", "--event", "Open 2026", "--json").exit_code == 0  # still public
