"""Tokens managed, and the attacks on them closed (issue 25, Why 7 and 8, "Tokens").

``bgledger token --list`` shows every token (label, role, scope, issued, last
used, expiry, an id: never the secret); ``--revoke`` takes the token, its id or
its label (a lost phone's token is revoked without its plaintext); ``--expires``
gives a token an end (an expired token is refused 401, saying it expired); an
empty ``--event`` is refused (it would grant every match without an event).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from bgledger import access
from bgledger.cli.main import main
from bgledger.service import Ledger
from tests.webclient import bare_client, post


@pytest.fixture
def client(ledger: Ledger) -> TestClient:
    """The app carrying no reading token: this module writes only, and counts the tokens."""
    return bare_client(ledger)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "ledger.db"


@pytest.fixture
def db(path: Path) -> str:
    return f"sqlite:///{path}"


@pytest.fixture
def ledger(db: str) -> Iterator[Ledger]:
    ledger = Ledger(db)
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open", by="kim")
    ledger.start(("Cy", "Di"), 3, match_id="loose", by="kim")  # no event
    yield ledger
    ledger.close()


def cli(db: str, *args: str) -> Any:
    return CliRunner().invoke(main, ["--db", db, *args])


def issued(db: str, *args: str) -> str:
    result = cli(db, "token", *args)
    assert result.exit_code == 0, result.output
    return str(result.output.strip())


def listed(db: str) -> list[dict[str, Any]]:
    result = cli(db, "token", "--list", "--json")
    assert result.exit_code == 0, result.output
    return list(json.loads(result.stdout)["tokens"])


# -- --list ---------------------------------------------------------------------------------


def test_list_shows_label_role_scope_issued_last_used_never_the_secret(
    db: str, ledger: Ledger, client: TestClient
) -> None:
    pad = issued(db, "final", "--role", "scorekeeper", "--label", "Sam at table 4")
    boss = issued(db, "--event", "Open", "--role", "director")
    rows = {row["label"]: row for row in listed(db)}
    assert set(rows) == {"Sam at table 4", "director of Open"}
    sam = rows["Sam at table 4"]
    assert (sam["role"], sam["match"], sam["event"]) == ("scorekeeper", "final", None)
    assert sam["issued"] and sam["last_used"] is None and sam["status"] == "in force"
    assert len(sam["id"]) == 8 and int(sam["id"], 16) >= 0
    assert post(client, "final", "opening 3 1", pad).status_code == 201
    assert {row["label"]: row for row in listed(db)}["Sam at table 4"]["last_used"]
    text = cli(db, "token", "--list")
    assert text.exit_code == 0
    for word in ("Sam at table 4", "scorekeeper", "final", "director of Open", sam["id"]):
        assert word in text.output
    for secret in (pad, boss):
        assert secret not in text.output + json.dumps(listed(db))
        assert secret[:12] not in text.output


def test_list_of_a_ledger_without_tokens_is_empty(db: str, ledger: Ledger) -> None:
    assert listed(db) == []
    assert cli(db, "token", "--list").exit_code == 0


def test_last_used_column_is_added_to_an_older_table(path: Path, db: str, ledger: Ledger) -> None:
    """A ledger whose token table was made before ``last_used`` and ``expires_at``."""
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE bgledger_tokens (digest VARCHAR(64) PRIMARY KEY, label TEXT NOT NULL, "
            "role VARCHAR(16) NOT NULL, match_id TEXT, event TEXT, issued_at TEXT NOT NULL, "
            "revoked_at TEXT)"
        )
    pad = issued(db, "final", "--role", "scorekeeper")
    with TestClient(_app(db)) as client:
        assert post(client, "final", "opening 3 1", pad).status_code == 201
    (row,) = listed(db)
    assert row["last_used"] is not None


def _app(db: str) -> Any:
    from bgledger.web import create_app

    return create_app(Ledger(db))


# -- --revoke by label or id ----------------------------------------------------------------


@pytest.mark.parametrize("by", ["label", "id", "token"])
def test_revoke_by_label_id_or_token(db: str, ledger: Ledger, client: TestClient, by: str) -> None:
    pad = issued(db, "final", "--role", "scorekeeper", "--label", "lost phone")
    other = issued(db, "final", "--role", "scorekeeper", "--label", "spare")
    (row,) = [row for row in listed(db) if row["label"] == "lost phone"]
    what = {"label": "lost phone", "id": row["id"], "token": pad}[by]
    result = cli(db, "token", "--revoke", what)
    assert result.exit_code == 0, result.output
    assert "lost phone" in result.output and pad not in result.output
    assert post(client, "final", "opening 3 1", pad).status_code == 401
    assert post(client, "final", "opening 3 1", other).status_code == 201
    statuses = {row["label"]: row["status"] for row in listed(db)}
    assert statuses == {"lost phone": "revoked", "spare": "in force"}
    assert cli(db, "token", "--revoke", what).exit_code == 2  # nothing left in force


def test_revoke_of_nothing_names_what_was_given(db: str, ledger: Ledger) -> None:
    issued(db, "final", "--role", "scorekeeper")
    result = cli(db, "token", "--revoke", "nobody")
    assert result.exit_code == 2
    assert "'nobody'" in result.output


# -- --expires ------------------------------------------------------------------------------


def test_an_expired_token_is_refused_401_saying_it_expired(
    path: Path, db: str, ledger: Ledger, client: TestClient
) -> None:
    pad = issued(db, "final", "--role", "scorekeeper", "--expires", "8h")
    (row,) = listed(db)
    assert row["expires"] is not None and row["status"] == "in force"
    assert post(client, "final", "opening 3 1", pad).status_code == 201
    with sqlite3.connect(path) as conn:  # eight hours later
        conn.execute("UPDATE bgledger_tokens SET expires_at = '2020-01-01T00:00:00+00:00'")
    answer = post(client, "final", "opening 4 1", pad)
    assert answer.status_code == 401
    assert "expired" in answer.json()["error"]
    assert listed(db)[0]["status"] == "expired"


@pytest.mark.parametrize("when", ["90m", "2d", "1h30m", "2099-01-01T00:00:00+00:00"])
def test_expires_takes_a_duration_or_a_time(db: str, ledger: Ledger, when: str) -> None:
    issued(db, "final", "--role", "scorekeeper", "--expires", when)
    assert listed(db)[0]["expires"] > listed(db)[0]["issued"]


@pytest.mark.parametrize("when", ["", "soon", "-5m", "0s", "2020-01-01T00:00:00+00:00"])
def test_expires_in_the_past_or_unreadable_is_exit_2(db: str, ledger: Ledger, when: str) -> None:
    result = cli(db, "token", "final", "--role", "scorekeeper", "--expires", when)
    assert result.exit_code == 2, result.output
    assert "--expires" in result.output
    assert listed(db) == []


# -- an empty event -------------------------------------------------------------------------


@pytest.mark.parametrize("event", ["", " "])
@pytest.mark.parametrize("role", ["director", "committee"])
def test_an_empty_event_is_refused(db: str, ledger: Ledger, event: str, role: str) -> None:
    """It granted every match without an event (``loose`` here)."""
    result = cli(db, "token", "--event", event, "--role", role)
    assert result.exit_code == 2, result.output
    assert "--event" in result.output
    assert listed(db) == []


def test_a_label_that_could_never_record_is_refused(db: str, ledger: Ledger) -> None:
    result = cli(db, "token", "final", "--role", "scorekeeper", "--label", "Sam\x1b[2J")
    assert result.exit_code == 2, result.output
    assert listed(db) == []


# -- a match and its pad's token: one transaction -------------------------------------------


def _director(ledger: Ledger) -> str:
    return ledger.issue_token("director", event="Open")


def test_a_pad_label_that_could_never_record_starts_no_match(
    ledger: Ledger, client: TestClient
) -> None:
    """It started the match, with a pad token that could never record (issue 25, Why 8)."""
    setup = {"a": "Ann", "b": "Bob", "length": 5, "event": "Open", "id": "t9",
             "scorekeeper": "Sam\x1b[2J"}  # fmt: skip
    headers = {"Authorization": f"Bearer {_director(ledger)}"}
    answer = client.post("/api/matches", json=setup, headers=headers)
    assert answer.status_code == 400, answer.text
    assert "t9" not in ledger.match_ids()


def test_a_failure_issuing_the_pad_token_leaves_no_match(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bgledger.access import TokenBook

    director = _director(ledger)

    def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("the disk filled up")

    monkeypatch.setattr(TokenBook, "issue", broken)
    setup = {"a": "Ann", "b": "Bob", "length": 5, "event": "Open", "id": "t9"}
    with pytest.raises(RuntimeError):
        ledger.start_match(director, setup)
    assert "t9" not in ledger.match_ids()
    monkeypatch.undo()
    started = ledger.start_match(director, setup)  # and the id is free to start it again
    assert started.match_id == "t9" and ledger.authorize(started.token, "t9").role == "scorekeeper"


# -- match ids that collide with routes ------------------------------------------------------


@pytest.mark.parametrize("match_id", ["new", "NEW", "final.mat"])
def test_an_id_a_route_shadows_is_refused_at_start(db: str, ledger: Ledger, match_id: str) -> None:
    result = cli(db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", match_id)
    assert result.exit_code == 2, result.output
    assert repr(match_id) in result.output and "/matches/" in result.output
    assert match_id not in ledger.match_ids()


def test_an_id_a_route_shadows_is_refused_by_the_api(ledger: Ledger, client: TestClient) -> None:
    setup = {"a": "Ann", "b": "Bob", "length": 5, "event": "Open", "id": "new"}
    headers = {"Authorization": f"Bearer {_director(ledger)}"}
    answer = client.post("/api/matches", json=setup, headers=headers)
    assert answer.status_code == 400, answer.text
    assert "'new'" in answer.json()["error"]
    assert "new" not in ledger.match_ids()


def test_every_fixed_word_under_matches_is_reserved(ledger: Ledger) -> None:
    """A route added under /matches/ with a fixed word reserves it (or this fails)."""
    from starlette.routing import Route

    from bgledger.commands.setup import ROUTE_WORDS
    from bgledger.web import create_app

    fixed = set()
    for route in create_app(ledger).routes:
        if isinstance(route, Route) and route.path.startswith("/matches/"):
            word = route.path.split("/")[2]
            if "{" not in word:
                fixed.add(word)
    assert fixed and fixed <= set(ROUTE_WORDS)


def test_a_token_is_marked_used_at_most_once_a_minute(
    db: str, ledger: Ledger, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pad posts a line every few seconds: marking its token each time was a second write
    (a commit) per line (issue 26's load bench)."""
    pad = issued(db, "final", "--role", "scorekeeper", "--label", "Sam")
    now = [datetime(2026, 11, 27, 19, 0, 0, tzinfo=UTC)]

    class Clock(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return now[0]

    monkeypatch.setattr(access, "datetime", Clock)

    def last_used() -> str:
        return str({row["label"]: row for row in listed(db)}["Sam"]["last_used"])

    assert post(client, "final", "opening 3 1", pad).status_code == 201
    assert last_used() == "2026-11-27T19:00:00+00:00"
    now[0] += timedelta(seconds=59)
    assert post(client, "final", "move 8/5 6/5", pad).status_code == 201
    assert last_used() == "2026-11-27T19:00:00+00:00"  # used again within the minute
    now[0] += timedelta(seconds=2)
    assert post(client, "final", "roll 6 4", pad).status_code == 201
    assert last_used() == "2026-11-27T19:01:01+00:00"
