"""What needs the director at a table, judged by the views from a match's document, no web.

The matches are recorded through the front door as a scorekeeper and a
director would; their ``show --json`` documents are the ones the read model
keeps (what the console draws from), and :mod:`bgledger.projections.views.triage`
judges them: which need, in which words, citing the rule of the match's
profile, from which moment, and in which order.  The console's drawing of
the same order is tests/test_web_director.py's and tests/test_web_console.py's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bgledger.projections.views.triage import (
    NOT_BEGUN,
    UNDER_WAY,
    Need,
    base_rank,
    needs,
    rank_of,
)
from bgledger.service import Ledger

LONG_AGO = "2020-01-01T10:00:00+00:00"
ILLEGAL = ["opening 3 1", "move 8/5 6/5", "roll 6 4", "move 24/13 --as-played"]
"""Bob's 24/13 with 6-4 is event 6: one checker 11 pips."""


def ms(iso: str) -> int:
    return int(datetime.fromisoformat(iso).timestamp() * 1000)


def record_tables(ledger: Ledger, *, older_profile: bool = False) -> None:
    """The event Open's tables, one a need and two needing nothing: ``late`` (time up, no
    expiry recorded), ``dispute`` (a clock stopped), ``flag`` (a flagged play), ``break``
    (over its allowance), ``won`` (a result to post), ``playing``, ``idle``; with
    ``older_profile``, ``flag-2017`` too (the same play under usbgf-2017)."""
    ledger.start(("Nell", "Ned"), 5, match_id="idle", event="Open", by="k")  # not begun
    ledger.start(("Una", "Uli"), 5, match_id="playing", event="Open", by="k")
    ledger.record_line("playing", "opening 3 1", by="k")
    ledger.start(("Rae", "Rob"), 3, match_id="won", event="Open", by="k")
    ledger.record_line("won", 'penalty b 3 "USBGF 2.2.4" an hour late', by="tom")
    ledger.start(("Bea", "Bo"), 5, match_id="break", event="Open", by="k", at=LONG_AGO)
    ledger.record_line("break", "break start both", by="k", at=LONG_AGO)
    flagged = ["flag"]
    ledger.start(("Fay", "Fox"), 5, match_id="flag", event="Open", by="k")
    if older_profile:
        flagged.append("flag-2017")
        ledger.start(
            ("Abe", "Abi"), 5, match_id="flag-2017", event="Open", by="k", profile="usbgf-2017"
        )
    for line in ILLEGAL:
        for match_id in flagged:
            ledger.record_line(match_id, line, by="k")
    ledger.start(("Dan", "Dee"), 5, match_id="dispute", event="Open", by="k")
    for line in ["clock start simple-delay reserve 10:00 delay 12", *ILLEGAL[:2], "hit"]:
        ledger.record_line("dispute", line, by="k")
    ledger.record_line("dispute", "clock stop d", by="k")
    ledger.start(("Tim", "Tom"), 5, match_id="late", event="Open", by="k", at=LONG_AGO)
    for line in ["clock start simple-delay reserve 0:30 delay 12", *ILLEGAL[:2], "hit"]:
        ledger.record_line("late", line, by="k", at=LONG_AGO)


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, Any]]]:
    """Each match's ``show --json`` document as the read model keeps it, by match id."""
    path: Path = tmp_path_factory.mktemp("triage") / "ledger.db"
    ledger = Ledger(f"sqlite:///{path}")
    record_tables(ledger, older_profile=True)
    yield {row["match_id"]: json.loads(row["summary"]) for row in ledger.matches("Open")}
    ledger.close()


def test_each_need_in_the_directors_words_with_the_profiles_rule(
    documents: dict[str, dict[str, Any]],
) -> None:
    # Tom's clock runs from the hit at 10:00:00: 12 s of delay, then 30 s of reserve
    assert needs(documents["late"]) == [
        Need(
            "time-up",
            "Tom's time is up (USBGF 4.3.3): no expiry recorded yet",
            ms("2020-01-01T10:00:42+00:00"),
        )
    ]
    assert needs(documents["dispute"]) == [
        Need("dispute", "clock stopped, USBGF 4.3.2(d): a dispute, or the director was called")
    ]
    assert needs(documents["flag"]) == [
        Need("flagged", "flagged: event 6, recorded as played (USBGF 4.2.3)")
    ]
    # both players' 10-minute break from 10:00:00
    assert needs(documents["break"]) == [
        Need(
            "break-over",
            "break over its allowance since 10:10:00 (USBGF 2.2.2)",
            ms("2020-01-01T10:10:00+00:00"),
        )
    ]
    assert needs(documents["won"]) == [
        Need("result", "finished, won by Rae 3\N{EN DASH}0: result to post (USBGF 4.6)")
    ]
    assert needs(documents["playing"]) == [] and needs(documents["idle"]) == []


def test_the_rule_cited_is_the_matchs_profiles(documents: dict[str, dict[str, Any]]) -> None:
    """The 2017 procedural rules put an illegal play under ABT 4.8, not USBGF 4.2.3."""
    assert needs(documents["flag-2017"]) == [
        Need("flagged", "flagged: event 6, recorded as played (ABT 4.8)")
    ]


def test_the_order_puts_the_most_urgent_first(documents: dict[str, dict[str, Any]]) -> None:
    later = ms("2020-01-01T11:00:00+00:00")  # past the time-up and the break's end
    order = sorted(documents, key=lambda m: (rank_of(documents[m], needs(documents[m]), later), m))
    assert order == [
        "late", "dispute", "flag", "flag-2017", "break", "won", "playing", "idle",
    ]  # fmt: skip


def test_a_need_that_comes_with_time_ranks_from_its_moment(
    documents: dict[str, dict[str, Any]],
) -> None:
    late, found = documents["late"], needs(documents["late"])
    up = ms("2020-01-01T10:00:42+00:00")
    assert rank_of(late, found, up - 1) == UNDER_WAY  # still within Tom's reserve
    assert rank_of(late, found, up) == 0
    on_break, found = documents["break"], needs(documents["break"])
    ends = ms("2020-01-01T10:10:00+00:00")
    assert rank_of(on_break, found, ends - 1) == base_rank(on_break)
    assert rank_of(on_break, found, ends) == 3


def test_a_table_needing_nothing_is_under_way_or_not_begun(
    documents: dict[str, dict[str, Any]],
) -> None:
    assert base_rank(documents["playing"]) == UNDER_WAY
    assert base_rank(documents["idle"]) == NOT_BEGUN
