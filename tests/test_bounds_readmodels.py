"""A read model that cannot take a row reports it and every other view keeps serving (issue 25).

One absurd penalty used to overflow the read models (an INTEGER column on
PostgreSQL, SQLite's 64 bits) and ``/``, ``/director``, ``list``,
``standings``, ``rulings`` and ``rebuild`` failed from then on.  The commands
now refuse such numbers (:mod:`tests.test_bounds_commands`), so the row that
cannot be stored is faked here: the match row of one match carries a score no
column holds.  The catch-up and both rebuilds leave that match out, log one
line naming it (once), and serve every other match, ruling and standing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from bgledger.projections.readmodels import catch_up, rebuild, rows
from bgledger.projections.state.fold import MatchState
from bgledger.service import Ledger
from bgledger.web import create_app
from tests.conftest import unique_id
from tests.webclient import reading

ABSURD = 10**20
"""More than any integer column holds (SQLite's and PostgreSQL's BIGINT: 2**63 - 1)."""


@pytest.fixture
def ids() -> tuple[str, str, str]:
    """The event, a sound match and the match whose row cannot be stored (unique: PostgreSQL)."""
    return unique_id("ev"), unique_id("good"), unique_id("bad")


@pytest.fixture
def ledger(store_url: str, ids: tuple[str, str, str]) -> Iterator[Ledger]:
    ledger = Ledger(store_url)
    event, good, _ = ids
    ledger.start(("Ann", "Bob"), 5, match_id=good, event=event, by="kim")
    ledger.record_line(good, "penalty a 1 'USBGF 2.2.4' left", by="kim")
    ledger.record_line(good, "note --ruled-by director --reason looked at the clock", by="kim")
    yield ledger
    ledger.close()


@pytest.fixture
def unstorable(monkeypatch: pytest.MonkeyPatch, ids: tuple[str, str, str]) -> None:
    """The row of the ``bad`` match carries a score no column can hold."""
    bad = ids[2]

    def absurd_row(
        state: MatchState, stream: str, version: int, summary: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        row = rows.match_row(state, stream, version, summary)
        return {**row, "score_a": ABSURD} if state.match_id == bad else row

    monkeypatch.setattr(catch_up, "match_row", absurd_row)
    monkeypatch.setattr(rebuild, "match_row", absurd_row)


def views_serve(ledger: Ledger, ids: tuple[str, str, str]) -> None:
    """Every tournament view answers, with the sound match and without the bad one."""
    event, good, bad = ids
    listed = [row["match_id"] for row in ledger.matches(event)]
    assert listed == [good]
    standings = {row["player"]: row for row in ledger.standings(event)}
    assert standings["Bob"]["in_progress"] == 1
    assert "Cy" not in standings
    assert {row["match_id"] for row in ledger.rulings(event)} == {good}
    client = reading(TestClient(create_app(ledger)), ledger)
    assert client.get(f"/?event={event}").status_code == 200
    assert client.get(f"/events/{event}/director").status_code in (200, 401, 403)
    assert client.get(f"/matches/{bad}").status_code == 200  # the match itself: its events


def reported(caplog: pytest.LogCaptureFixture, bad: str) -> list[logging.LogRecord]:
    return [record for record in caplog.records if bad in record.getMessage()]


@pytest.mark.usefixtures("unstorable")
def test_a_match_whose_row_cannot_be_stored_is_left_out_and_named_once(
    ledger: Ledger, ids: tuple[str, str, str], caplog: pytest.LogCaptureFixture
) -> None:
    event, _, bad = ids
    ledger.matches(event)  # caught up: the next match comes through the catch-up's fold
    with caplog.at_level(logging.WARNING, logger="bgledger"):
        ledger.start(("Cy", "Di"), 5, match_id=bad, event=event, by="kim")
        views_serve(ledger, ids)
        ledger.record_line(bad, "note --ruled-by director --reason a second look", by="kim")
        views_serve(ledger, ids)
    (line,) = reported(caplog, bad)  # once, however often it is tried
    assert line.levelno == logging.WARNING and not line.exc_info
    assert "rebuild" in line.getMessage()


@pytest.mark.usefixtures("unstorable")
@pytest.mark.parametrize("full", [False, True])
def test_a_rebuild_leaves_the_match_out_and_serves_the_rest(
    ledger: Ledger, ids: tuple[str, str, str], caplog: pytest.LogCaptureFixture, full: bool
) -> None:
    event, _, bad = ids
    with caplog.at_level(logging.WARNING, logger="bgledger"):
        ledger.start(("Cy", "Di"), 5, match_id=bad, event=event, by="kim")
        ledger.rebuild(full=full)
        views_serve(ledger, ids)
    assert reported(caplog, bad)


def test_the_columns_hold_every_number_a_command_can_record() -> None:
    from sqlalchemy import BigInteger, Integer

    from bgledger.projections.readmodels.tables import MODEL_TABLES

    narrow = [
        f"{table.name}.{column.name}"
        for table in MODEL_TABLES
        for column in table.columns
        if isinstance(column.type, Integer) and not isinstance(column.type, BigInteger)
    ]
    assert narrow == []


def test_an_earlier_versions_integer_columns_are_widened_on_postgres() -> None:
    import sqlalchemy

    from tests.conftest import own_postgres_database

    with own_postgres_database("widen") as url:
        engine = sqlalchemy.create_engine(url)
        with engine.begin() as connection:  # the table as an earlier version made it
            connection.execute(sqlalchemy.text(
                "CREATE TABLE bgledger_rm_standings (event TEXT, player TEXT, played INTEGER "
                "NOT NULL, won INTEGER NOT NULL, lost INTEGER NOT NULL, in_progress INTEGER NOT "
                "NULL, points_for INTEGER NOT NULL, points_against INTEGER NOT NULL, "
                "PRIMARY KEY (event, player))"
            ))  # fmt: skip
        ledger = Ledger(url)
        ledger.start(("Ann", "Bob"), 5, match_id="m", event="Open", by="kim")
        assert ledger.standings("Open")
        kinds = {
            column["name"]: str(column["type"])
            for column in sqlalchemy.inspect(engine).get_columns("bgledger_rm_standings")
        }
        ledger.close()
        engine.dispose()
    assert kinds["points_for"] == "BIGINT"
