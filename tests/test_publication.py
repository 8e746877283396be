"""An event's wall opened to spectators and closed again: the director's acts, kept as facts.

``Ledger.publish`` records who opened (or closed) an event's wall and when, one
row a change, never updated; the latest decides (``Ledger.published``) and the
rows are the history (``Ledger.publications``).  Publishing twice records
nothing the second time; an event with no match is refused by name; only the
event's director's token publishes it; a client key answers a retry as the
first send was answered.  On each store (PostgreSQL when configured: its
database is shared, so each test names its own events).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from bgledger.errors import (
    EventNotFoundError,
    IdempotencyKeyReusedError,
    InvalidIdempotencyKeyError,
    TokenScopeError,
    UnknownTokenError,
)
from bgledger.service import Ledger, Published
from tests.conftest import unique_id


@pytest.fixture
def event() -> str:
    return unique_id("Open")


@pytest.fixture
def ledger(store_url: str, event: str) -> Iterator[Ledger]:
    ledger = Ledger(store_url)
    ledger.start(("Ann", "Bob"), 5, match_id=unique_id("final"), event=event, by="kim")
    ledger.start(("Cy", "Di"), 3, match_id=unique_id("loose"), by="kim")  # no event
    yield ledger
    ledger.close()


def test_an_event_is_not_public_until_its_director_publishes_it(ledger: Ledger, event: str) -> None:
    assert ledger.published(event) is False
    assert ledger.publication(event).to_json() == {
        "event": event,
        "published": False,
        "by": None,
        "at": None,
        "delay_seconds": 0,
    }
    assert ledger.publications(event) == []


def test_publish_then_withdraw_the_latest_decides_and_both_are_kept(
    ledger: Ledger, event: str
) -> None:
    opened = ledger.publish(event, by="Dana")
    assert opened.recorded and opened.publication.published
    assert opened.text() == f"event {event!r} is public: its wall is open to spectators"
    assert ledger.published(event) is True
    closed = ledger.publish(event, on=False, by="Eli")
    assert closed.recorded
    assert closed.text() == f"event {event!r} is no longer public: its wall is closed to spectators"
    assert ledger.published(event) is False
    history = ledger.publications(event)
    assert [(p.published, p.by) for p in history] == [(True, "Dana"), (False, "Eli")]
    assert history[0].at is not None and history[0].at <= str(history[1].at)
    assert ledger.publication(event).to_json() == {
        "event": event,
        "published": False,
        "by": "Eli",
        "at": history[1].at,
        "delay_seconds": 0,
    }


def test_publishing_twice_records_nothing_the_second_time(ledger: Ledger, event: str) -> None:
    first = ledger.publish(event, by="Dana")
    again = ledger.publish(event, by="Eli")
    assert not again.recorded and again.publication == first.publication
    assert again.text() == (
        f"event {event!r} is public already (published at {first.publication.at} by Dana): "
        "nothing recorded"
    )
    assert len(ledger.publications(event)) == 1


def test_withdrawing_what_was_never_published_records_nothing(ledger: Ledger, event: str) -> None:
    done = ledger.publish(event, on=False, by="Dana")
    assert not done.recorded
    assert done.text() == f"event {event!r} is not public (never published): nothing recorded"
    assert ledger.publications(event) == []


def test_an_event_without_a_match_is_refused_by_name(ledger: Ledger, event: str) -> None:
    typo = event[:-1]
    with pytest.raises(EventNotFoundError) as refused:
        ledger.publish(typo, by="Dana")
    assert f"event {typo!r}: no match of it was started" in str(refused.value)
    assert f"did you mean {event!r}" in str(refused.value)
    assert ledger.publications(typo) == [] and ledger.published(typo) is False
    # the matches started without an event are no event to publish
    with pytest.raises(EventNotFoundError, match="event '': no match"):
        ledger.publish("", by="Dana")


def test_only_the_events_director_publishes_it(ledger: Ledger, event: str) -> None:
    match = next(m["match_id"] for m in ledger.matches(event))
    other = unique_id("Other")
    ledger.start(("Ed", "Flo"), 3, match_id=unique_id("m"), event=other, by="kim")
    tokens = {
        "scorekeeper": ledger.issue_token("scorekeeper", match_id=match),
        "director of another event": ledger.issue_token("director", event=other),
        "director of one match": ledger.issue_token("director", match_id=match),
        "committee": ledger.issue_token("committee"),
    }
    for token in tokens.values():
        with pytest.raises(TokenScopeError, match=f"does not publish event {event!r}"):
            ledger.publisher(token, event)
    with pytest.raises(UnknownTokenError):
        ledger.publisher(None, event)
    with pytest.raises(UnknownTokenError):
        ledger.publisher("never issued", event)
    director = ledger.publisher(ledger.issue_token("director", event=event, label="Dana"), event)
    stranger = ledger.publisher(tokens["director of another event"], other)
    with pytest.raises(TokenScopeError):
        ledger.publish(event, by=stranger.label, grant=stranger)
    assert ledger.publications(event) == []
    done = ledger.publish(event, by=director.label, grant=director)
    assert done.recorded and done.publication.by == "Dana"


def test_a_retry_with_the_first_key_answers_as_the_first_send_did(
    ledger: Ledger, event: str
) -> None:
    first = ledger.publish(event, by="Dana", key="k-1")
    ledger.publish(event, on=False, by="Eli")  # another director closed it since
    retry = ledger.publish(event, by="Dana", key="k-1")
    assert retry == Published(first.publication, recorded=True, replayed=True)
    assert ledger.published(event) is False  # the retry opened nothing
    assert len(ledger.publications(event)) == 2
    with pytest.raises(IdempotencyKeyReusedError, match="'k-1' was used for 'publish'"):
        ledger.publish(event, on=False, by="Dana", key="k-1")
    with pytest.raises(InvalidIdempotencyKeyError):
        ledger.publish(event, by="Dana", key="")
    assert len(ledger.publications(event)) == 2


def test_a_key_of_a_change_that_recorded_nothing_answers_so_again(
    ledger: Ledger, event: str
) -> None:
    ledger.publish(event, by="Dana")
    first = ledger.publish(event, by="Eli", key="k-2")
    assert not first.recorded
    again = ledger.publish(event, by="Eli", key="k-2")
    assert again.replayed and not again.recorded and again.publication == first.publication


def test_directors_switching_at_once_record_one_change(store_url: str, event: str) -> None:
    ledgers = [Ledger(store_url), Ledger(store_url)]  # two servers on one database
    ledgers[0].start(("Ann", "Bob"), 5, match_id=unique_id("m"), event=event, by="kim")
    start = threading.Barrier(6)
    answers: list[Published] = []

    def switch(ledger: Ledger, who: str) -> None:
        start.wait()
        answers.append(ledger.publish(event, by=who))

    threads = [
        threading.Thread(target=switch, args=(ledgers[n % 2], f"director {n}")) for n in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for ledger in ledgers:
        ledger.close()
    reader = Ledger(store_url)
    try:
        history = reader.publications(event)
    finally:
        reader.close()
    assert len(answers) == 6 and len(history) == 1
    assert sum(answer.recorded for answer in answers) == 1
    assert {answer.publication for answer in answers} == set(history)


def test_verify_and_rebuild_leave_the_publications_as_they_are(ledger: Ledger, event: str) -> None:
    ledger.publish(event, by="Dana")
    matches = [row["match_id"] for row in ledger.matches(event)]
    assert all(verdict.ok for match in matches for verdict in ledger.verify(match))
    ledger.rebuild(full=True)
    assert ledger.published(event) is True and len(ledger.publications(event)) == 1
