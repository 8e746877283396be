"""A write sent twice with its key is recorded once (DESIGN principle 10, issue 22).

Through ``POST /api/matches/M/lines`` with the ``Idempotency-Key`` header: the
same key again answers 201 with what the first send answered and records
nothing; sent at once from two clients (two ``Ledger``\\ s on one database,
SQLite and PostgreSQL) it is recorded once and both answers are alike; a key
reused for another command is 422 naming the key; a malformed key is 400 naming
it; a send whose answer was lost (it reached the server) and its retry leave
exactly one event.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bgledger.service import Ledger
from bgledger.web import create_app
from tests.conftest import own_postgres_database
from tests.webclient import bearer, reading

KEY = "3f0e6c1e-7d4a-4b8e-9a51-0c2f5a9d1e77"


def send(client: TestClient, token: str, line: str, key: str | None) -> Any:
    headers = bearer(token) | ({"Idempotency-Key": key} if key is not None else {})
    return client.post("/api/matches/m/lines", json={"line": line}, headers=headers)


def begin(url: str) -> tuple[Ledger, str]:
    ledger = Ledger(url)
    ledger.start(("Ann", "Bob"), 5, match_id="m", event="Open", by="kim")
    ledger.record_line("m", "opening 3 1", by="kim")
    ledger.record_line("m", "move 8/5 6/5", by="kim")
    return ledger, ledger.issue_token("scorekeeper", match_id="m")


def same_answer(first: dict[str, Any], again: dict[str, Any]) -> None:
    """Alike but for ``replayed`` (and the clock's live figure, which moves with now)."""
    assert first["recorded"] == again["recorded"]
    for field in ("score", "cube", "turn", "events", "phase", "dice"):
        assert first["match"].get(field) == again["match"].get(field), field


@pytest.fixture
def sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ledger.db'}"


@pytest.fixture
def ledger(sqlite: str) -> Iterator[Ledger]:
    ledger, _ = begin(sqlite)
    yield ledger
    ledger.close()


@pytest.fixture
def token(ledger: Ledger) -> str:
    return ledger.issue_token("scorekeeper", match_id="m")


@pytest.fixture
def client(ledger: Ledger) -> TestClient:
    return reading(TestClient(create_app(ledger)), ledger)


def test_the_same_key_twice_records_once_and_answers_alike(
    client: TestClient, ledger: Ledger, token: str
) -> None:
    first = send(client, token, "64: 24/18 13/9", KEY)
    assert first.status_code == 201, first.text
    assert "Idempotent-Replayed" not in first.headers
    count = len(ledger.events("m"))
    again = send(client, token, "64: 24/18 13/9", KEY)
    assert again.status_code == 201, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(ledger.events("m")) == count  # not recorded again as the opponent's turn
    same_answer(first.json(), again.json())
    assert [e["number"] for e in first.json()["recorded"]] == [5, 6]
    assert again.json()["replayed"] is True and first.json()["replayed"] is False


def test_two_undos_with_one_key_withdraw_one_entry(
    client: TestClient, ledger: Ledger, token: str
) -> None:
    first = send(client, token, "undo --reason typed 8/5 6/5", KEY)
    count = len(ledger.events("m"))
    again = send(client, token, "undo --reason typed 8/5 6/5", KEY)
    assert (first.status_code, again.status_code) == (201, 201)
    assert len(ledger.events("m")) == count  # the opening roll is still in force
    assert ledger.state("m").turn == "a" and ledger.state("m").dice == (3, 1)
    same_answer(first.json(), again.json())


def test_a_key_reused_for_another_command_is_422_naming_the_key(
    client: TestClient, ledger: Ledger, token: str
) -> None:
    assert send(client, token, "roll 6 4", KEY).status_code == 201
    count = len(ledger.events("m"))
    other = send(client, token, "double", KEY)
    assert other.status_code == 422, other.text
    assert KEY in other.json()["error"] and "'double'" in other.json()["error"]
    assert len(ledger.events("m")) == count


def test_a_key_reused_for_a_command_the_match_would_take_records_nothing(
    client: TestClient, ledger: Ledger, token: str
) -> None:
    assert send(client, token, "note Bob asked for the director", KEY).status_code == 201
    count = len(ledger.events("m"))
    again = send(client, token, "note Bob asked for the director", KEY)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    other = send(client, token, "note Ann asked for water", KEY)
    assert other.status_code == 422, other.text
    assert KEY in other.json()["error"]
    assert len(ledger.events("m")) == count


@pytest.mark.parametrize(
    ("key", "shown"),
    [("", "''"), ("k" * 300, "'" + "k" * 40 + "..."), ("a\tb", "'a\\tb'"), ("a\x7fb", "'a\\x7fb'")],
    ids=["empty", "300 characters", "a tab", "a delete"],
)
def test_a_malformed_key_is_400_naming_it(
    client: TestClient, ledger: Ledger, token: str, key: str, shown: str
) -> None:
    count = len(ledger.events("m"))
    answer = send(client, token, "roll 6 4", key)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert "Idempotency-Key" in error and shown in error, error
    assert len(ledger.events("m")) == count


def test_a_send_whose_answer_was_lost_and_its_retry_leave_one_event(sqlite: str) -> None:
    server, token = begin(sqlite)
    # the first send reached the server and was recorded; the phone never saw the answer
    reached = server.record_line("m", "roll 6 4", by="scorekeeper of m", key=KEY)
    server.close()
    ledger = Ledger(sqlite)  # the server again, after the connection was cut
    count = len(ledger.events("m"))
    retry = send(TestClient(create_app(ledger)), token, "roll 6 4", KEY)
    assert retry.status_code == 201 and retry.headers["Idempotent-Replayed"] == "true"
    assert len(ledger.events("m")) == count
    assert [e["number"] for e in retry.json()["recorded"]] == list(reached.numbers)
    assert ledger.history("m")[-1].number == reached.numbers[-1]
    ledger.close()


def race(url: str) -> None:
    """Two clients, each on its own ``Ledger`` (two servers on one database), send one key."""
    first, token = begin(url)
    second = Ledger(url)
    clients = [TestClient(create_app(first)), TestClient(create_app(second))]
    start = threading.Barrier(2)
    answers: list[Any] = [None, None]

    def post(index: int) -> None:
        start.wait()
        answers[index] = send(clients[index], token, "64: 24/18 13/9", KEY)

    threads = [threading.Thread(target=post, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [201, 201], [a.text for a in answers]
    assert sorted(a.headers.get("Idempotent-Replayed", "") for a in answers) == ["", "true"]
    assert len(first.events("m")) == 6  # recorded once: 5 the roll, 6 the play
    same_answer(answers[0].json(), answers[1].json())
    first.close()
    second.close()


@pytest.mark.parametrize("attempt", range(5))
def test_one_key_sent_at_once_from_two_servers_on_sqlite_records_once(
    tmp_path: Path, attempt: int
) -> None:
    race(f"sqlite:///{tmp_path / 'ledger.db'}")


@pytest.mark.parametrize("attempt", range(3))
def test_one_key_sent_at_once_from_two_servers_on_postgresql_records_once(attempt: int) -> None:
    with own_postgres_database("idem") as url:
        race(url)


# -- starting a match: POST /api/matches ---------------------------------------------------


def start(client: TestClient, token: str, setup: dict[str, Any], key: str | None) -> Any:
    headers = bearer(token) | ({"Idempotency-Key": key} if key is not None else {})
    return client.post("/api/matches", json=setup, headers=headers)


SETUP = {"a": "Cy", "b": "Di", "length": 5, "event": "Open"}


def test_a_start_sent_twice_starts_one_match_and_gives_the_same_pad(
    client: TestClient, ledger: Ledger
) -> None:
    director = ledger.issue_token("director", event="Open")
    before = ledger.match_ids()
    first = start(client, director, SETUP, KEY)
    assert first.status_code == 201, first.text
    again = start(client, director, SETUP, KEY)
    assert again.status_code == 201, again.text
    assert again.headers["Idempotent-Replayed"] == "true" and again.json()["replayed"]
    assert again.json()["pad"] == first.json()["pad"]  # the same match and the same pad token
    started = first.json()["match"]["match_id"]
    assert ledger.match_ids() == [*before, started]
    pad = first.json()["token"]
    assert send(client, pad, "opening 3 1", None).status_code == 403  # the pad is the new match's
    lines = client.post(f"/api/matches/{started}/lines", json={"line": "opening 3 1"},
                        headers=bearer(pad))  # fmt: skip
    assert lines.status_code == 201, lines.text


def test_a_start_key_is_the_sending_tokens_own(client: TestClient, ledger: Ledger) -> None:
    one = ledger.issue_token("director", event="Open", label="td one")
    two = ledger.issue_token("director", event="Open", label="td two")
    first = start(client, one, SETUP, KEY).json()
    other = start(client, two, SETUP, KEY)  # another director's key of the same name
    assert other.status_code == 201 and not other.json()["replayed"]
    assert other.json()["match"]["match_id"] != first["match"]["match_id"]


def test_a_start_key_reused_for_another_setup_is_422_and_starts_nothing(
    client: TestClient, ledger: Ledger
) -> None:
    director = ledger.issue_token("director", event="Open")
    assert start(client, director, SETUP, KEY).status_code == 201
    before = ledger.match_ids()
    again = start(client, director, {**SETUP, "length": 7}, KEY)
    assert again.status_code == 422, again.text
    assert KEY in again.json()["error"]
    assert ledger.match_ids() == before
