"""The live feeds of one application: one follower of the ledger, each change worked out once.

Every live stream of the server (a match page's or a pad's
``/api/matches/MATCH/events``, a director's console's
``/api/events/EVENT/events``) is a :class:`Subscription` of one
:class:`FeedHub`.  Once a tick, when the ledger's last stored notification
moved (:meth:`Streams.moved <bgledger.web.streams.Streams.moved>` asks it),
the hub learns which matches changed in one read of the log's ids
(:meth:`bgledger.Ledger.moved`: the notifications after the last one seen, and
their streams) and works out, once for every viewer:

- for a match followed by match streams: its new history lines and ``show
  --json``'s document, the ``recorded`` messages each of its streams sends
  from its own last event on.  A line this process recorded is handed to the
  hub as recorded (:meth:`bgledger.Ledger.watch`, :meth:`FeedHub.recorded`):
  its entries, the state and the document its command's one fold made, gone
  on from as they are (:meth:`bgledger.service.Followed.then`), neither read
  nor folded again.  Anything else (another process's lines, a ruling or a
  correction, a change the hub could not go on from) is followed from the log
  (:meth:`bgledger.Ledger.followed`: one read of the events stored since the
  hub last read it, folded there, worked out whole only after a ruling or a
  correction).  The pages that draw a followed match (the pad's, the match
  page's and the spectator's live parts) take it from here too
  (:meth:`FeedHub.latest`);
- for an event followed by consoles: the changed matches' read-model rows with
  their states (one read of the rows, no fold), handed to the console's
  builder (:mod:`bgledger.web.director`), whose one message goes to every
  console of the event;
- for an event followed by walls: the same rows, handed to the wall's feed
  (:class:`WallFeed`, :mod:`bgledger.web.wall`), whose ``card`` of each
  changed match goes to every wall of the event that shows it.  At most once
  a second (:data:`RECHECK_SECONDS`), and before any card, the wall's feed
  also asks whether the event is still public, so that a withdrawal reaches a
  quiet wall too.

Why the notification ids rather than the read-model rows: the ids after the
last seen are a range of the events table's primary key, and their streams
come from its index, without reading an event's body or the rows of the
matches that did not move; the rows of those that did are then read by name.
With nobody following, the hub reads nothing.

A match's news is worked out once for all its streams; each stream is of one audience: those
whose token reaches the match (its scorekeeper, the director, the committee) have every
event, a spectator (who reads it because its event is published) the events but the notes
(:data:`NOTES`), numbered as they are.  Each change's messages are made once per audience
(and place in the match), however many streams of it follow.

A subscription's messages wait in its own queue (at most :data:`PENDING` of
them: a client that reads nothing for that long is let go, and resumes with
``Last-Event-ID``); the stream takes them without reading the ledger.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import sqlalchemy.exc
from eventsourcing.persistence import PersistenceError

from bgledger.projections.views.audit import history_line
from bgledger.service import Followed, Ledger, Recorded

__all__ = [
    "PENDING",
    "RECHECK_SECONDS",
    "EventNews",
    "FeedHub",
    "MatchNews",
    "Subscription",
    "Tagged",
    "WallFeed",
    "recorded",
]

_log = logging.getLogger(__name__)

PENDING = 5000
"""Messages a subscription holds for a client that reads none; past it the stream ends."""

RECHECK_SECONDS = 1.0
"""How often, at most, the walls' feed asks whether a quiet event is still public."""

EventNews = Callable[[str | None, list[dict[str, Any]], dict[str, int], int], list[str]]
"""A console's builder: (the event followed (None: every match), the moved matches' rows with
their states, each moved match's first new event number, the log's position) -> messages."""

Tagged = list[tuple[str | None, str]]
"""Wall messages, each with the match it is of (None: of the whole event, for every wall)."""


class WallFeed(Protocol):
    """What the hub asks of the walls (:mod:`bgledger.web.wall`), under its lock."""

    def opened(self, event: str) -> list[dict[str, Any]]:
        """A wall opens on ``event``: its read-model rows now (raises if it is not public)."""

    def closed(self, event: str) -> None:
        """No wall follows ``event`` any more."""

    def news(
        self,
        event: str,
        rows: list[dict[str, Any]],
        moved: dict[str, int],
        shown: frozenset[str] | None,
    ) -> Tagged:
        """The messages of ``event``'s changed matches (``rows``) for its walls: a card of
        each of ``shown`` (None: of each), ``added`` for each match new to them."""

    def recheck(self, event: str) -> Tagged:
        """``withdrawn`` once, if ``event`` is no longer public; else nothing."""


@dataclass(frozen=True, slots=True)
class MatchNews:
    """A match's news as of its ``count``-th event: each event's history line, and ``show
    --json``'s document (JSON text) that every message of it carries.

    ``known``: what the ledger gave for it (:meth:`bgledger.Ledger.followed`), from
    which the next change is worked on rather than worked out whole.
    """

    count: int
    lines: tuple[tuple[int, str], ...]
    document: str
    known: Followed | None = None
    rulings: tuple[str, ...] = ()
    """The lines of the rulings among :attr:`lines` (a spectator's page lists them)."""
    notes: frozenset[int] = frozenset()
    """The numbers of the notes among :attr:`lines` (the scorekeeper's, the director's): for
    the record, never shown to spectators."""

    def after(self, number: int, notes: bool = True) -> list[str]:
        """The ``recorded`` messages of the events after ``number``; ``notes``: the notes'
        too (a spectator's feed leaves them out, and keeps the other events' numbers: one
        who resumes after any of them misses nothing)."""
        return [
            recorded(n, line, self.document)
            for n, line in self.lines[max(number, 0) :]
            if notes or n not in self.notes
        ]


def recorded(number: int, line: str, document: str) -> str:
    """One ``recorded`` message: ``{number, line, match}``, ``document`` already JSON.

    The bytes ``json.dumps({"number": ..., "line": ..., "match": ...})`` gives.
    """
    data = f'{{"number": {number}, "line": {json.dumps(line)}, "match": {document}}}'
    return f"id: {number}\nevent: recorded\ndata: {data}\n\n"


class Subscription:
    """One stream's place at the hub: what it follows, and the messages it has yet to send.

    Called, it hands them over (a :data:`~bgledger.web.streams.News`) without
    reading the ledger; :attr:`ended` once it held more than :data:`PENDING`.
    """

    def __init__(
        self, hub: FeedHub, match_id: str | None, event: str | None, last: int | None
    ) -> None:
        self.hub = hub
        self.match_id = match_id
        self.event = event
        self.last = last  # the last event it was given (None: none yet, from the next change)
        self.start = last
        self.ended = False
        self.notes = True  # a match stream's: with the notes (False: a spectator's)
        self.wall = False  # a wall's (of ``event``), showing ``only`` those matches (None: all)
        self.only: frozenset[str] | None = None
        self._pending: deque[str] = deque()

    def put(self, messages: Sequence[str]) -> None:
        """Queue ``messages`` (a thread may put while the stream takes)."""
        if self.ended:
            return
        self._pending.extend(messages)
        if len(self._pending) > PENDING:
            self._pending.clear()
            self.ended = True

    def __call__(self) -> list[str]:
        taken: list[str] = []
        while self._pending:
            taken.append(self._pending.popleft())
        return taken

    def close(self) -> None:
        """The stream ended: the hub forgets it."""
        self.hub.leave(self)


class FeedHub:
    """The one follower of ``ledger`` for every live stream of an application.

    ``event_news``: the consoles' builder (:data:`EventNews`).  :attr:`worked`
    counts the matches whose news was worked out (each once a change, however
    many follow it).
    """

    def __init__(
        self,
        ledger: Ledger,
        event_news: EventNews | None = None,
        wall_feed: WallFeed | None = None,
    ) -> None:
        self.ledger = ledger
        self.event_news = event_news
        self.wall_feed = wall_feed
        self.worked = 0
        self._position: int | None = None
        self._checked = float("-inf")
        self._matches: dict[str, set[Subscription]] = {}
        self._events: dict[str | None, set[Subscription]] = {}
        self._walls: dict[str, set[Subscription]] = {}
        self._news: dict[str, MatchNews] = {}
        self._leaving: deque[Subscription] = deque()
        # bounded: a hub that no longer turns (its last stream gone) keeps no more than this;
        # a change dropped is read from the log as another process's would be
        self._changes: deque[Recorded[Any]] = deque(maxlen=PENDING)
        self._lock = threading.Lock()
        ledger.watch(self.recorded)

    @property
    def position(self) -> int | None:
        """The last notification the hub has handed on (None: it follows nothing yet)."""
        return self._position

    def recorded(self, done: Recorded[Any]) -> None:
        """A line this process recorded (:meth:`bgledger.Ledger.watch`): kept for the hub's
        next turn, which goes on from it without reading or folding it again.

        Called in the writer's thread: it only queues, never waits for the hub's lock.
        """
        if done.match_id in self._news:
            self._changes.append(done)

    def latest(self, match_id: str) -> MatchNews | None:
        """The news of ``match_id`` as the ledger now has it, if a stream follows it (None:
        none does); its events since the hub last read it read, those of another process
        folded, those recorded here taken as recorded (a pad's refetch after its line).

        Runs in a thread.
        """
        with self._lock:
            self._take_changes()
            if match_id not in self._news:
                return None
            try:
                return self._work_out(match_id)
            except (OSError, sqlalchemy.exc.SQLAlchemyError, PersistenceError):
                return None

    def _take_changes(self) -> None:
        """Go on from each line recorded here since the last turn (under the lock): a
        followed match's news after it, as recorded (one that does not follow on from the
        news kept is left to the next reading of the match)."""
        while self._changes:
            done = self._changes.popleft()
            kept = self._news.get(done.match_id)
            followed = None if kept is None or kept.known is None else kept.known.then(done)
            if kept is not None and followed is not None:
                self._news[done.match_id] = _news_of(followed, kept)

    def follow_match(self, match_id: str, since: int | None, notes: bool = True) -> Subscription:
        """A match stream's subscription: the events after ``since`` (None: from now on), those
        stored already first (its :attr:`~Subscription.start`: the event it follows after).
        ``notes``: with the notes (a token that reaches the match); a spectator's (False)
        has the match's other events, numbered as they are (:meth:`MatchNews.after`).

        Runs in a thread: it reads the match once if no other stream follows it, else nothing.

        The database out of reach for a moment (a venue's server out of file
        descriptors), a stream that others' already follow opens all the same
        and is told the events from ``since`` on, or from the match's next change.

        :raises MatchNotFoundError: for an unknown match.
        """
        with self._lock:
            self._begin()
            self._take_changes()
            news = self._news.get(match_id)
            if news is None:
                try:
                    news = self._work_out(match_id)
                except (OSError, sqlalchemy.exc.SQLAlchemyError, PersistenceError):
                    if match_id not in self._matches:
                        raise  # no stream follows it: whether it exists is not known
                    subscription = Subscription(self, match_id, None, since)
                    subscription.start, subscription.notes = since, notes
                    self._matches[match_id].add(subscription)
                    return subscription
            start = news.count if since is None else max(0, min(since, news.count))
            subscription = Subscription(self, match_id, None, news.count)
            subscription.start, subscription.notes = start, notes
            subscription.put(news.after(start, notes))
            self._matches.setdefault(match_id, set()).add(subscription)
            return subscription

    def follow_event(self, event: str | None, opening: Sequence[str] = ()) -> Subscription:
        """A console's subscription to the matches of ``event`` (None: every match)."""
        with self._lock:
            self._begin()
            subscription = Subscription(self, None, event, 0)
            subscription.put(opening)
            self._events.setdefault(event, set()).add(subscription)
            return subscription

    def follow_wall(
        self, event: str, only: Sequence[str] | None = None
    ) -> tuple[Subscription, list[dict[str, Any]]]:
        """A wall's subscription to the matches of ``event`` (``only``: those), and the event's
        rows as it opens (read under the hub's lock: they hold every event the hub has handed
        on, and what changes after them comes as ``card`` messages).

        Runs in a thread.  Raises what :meth:`WallFeed.opened` raises (not public, no match).
        """
        if self.wall_feed is None:
            raise RuntimeError("this hub serves no walls")
        with self._lock:
            self._begin()
            rows = self.wall_feed.opened(event)
            subscription = Subscription(self, None, event, 0)
            subscription.wall = True
            subscription.only = frozenset(only) if only else None
            self._walls.setdefault(event, set()).add(subscription)
            return subscription, rows

    def due(self) -> bool:
        """Whether the walls' events are due to be asked again if they are public."""
        return bool(self._walls) and time.monotonic() - self._checked >= RECHECK_SECONDS

    def leave(self, subscription: Subscription) -> None:
        """Forget ``subscription`` (a match no stream follows is no longer kept).

        Called on the event loop as a stream ends: it never waits for the hub's
        lock (held while the hub reads the ledger); the hub forgets it at its next
        turn.
        """
        subscription.ended = True
        self._leaving.append(subscription)

    def _forget(self) -> None:
        """Forget the subscriptions that left (under the lock)."""
        while self._leaving:
            subscription = self._leaving.popleft()
            if subscription.match_id is not None:
                held = self._matches.get(subscription.match_id, set())
                held.discard(subscription)
                if not held:
                    self._matches.pop(subscription.match_id, None)
                    self._news.pop(subscription.match_id, None)
            elif subscription.wall and subscription.event is not None:
                walls = self._walls.get(subscription.event, set())
                walls.discard(subscription)
                if not walls:
                    self._walls.pop(subscription.event, None)
                    if self.wall_feed is not None:
                        self.wall_feed.closed(subscription.event)
            else:
                followers = self._events.get(subscription.event, set())
                followers.discard(subscription)
                if not followers:
                    self._events.pop(subscription.event, None)

    def advance(self, last: int) -> None:
        """The ledger's log reached notification ``last``: hand on what changed since.

        Runs in a thread, once a tick for every stream
        (:meth:`~bgledger.web.streams.Streams.moved`).
        """
        with self._lock:
            self._forget()
            self._take_changes()
            if not (self._matches or self._events or self._walls):
                self._position = None  # nobody follows: the next follower starts afresh
                return
            if self.due():
                self._recheck()
            if self._position is None:  # followers came while the log could not be read
                self._position = last
                self._renew()
                return
            if last <= self._position:
                return
            position, moved = self.ledger.moved(self._position)
            self._position = position
            for match_id in sorted(moved.keys() & self._matches.keys()):
                try:
                    news = self._work_out(match_id)
                except Exception as error:  # a damaged match: its streams wait, the others go on
                    _log.warning("the feed of %r could not be read: %s", match_id, error)
                    continue
                said: dict[tuple[int, bool], list[str]] = {}  # once per audience and place
                for subscription in self._matches[match_id]:
                    # one that opened without a reading: from this change on
                    last = moved[match_id] - 1 if subscription.last is None else subscription.last
                    place = (last, subscription.notes)
                    if place not in said:
                        said[place] = news.after(last, subscription.notes)
                    subscription.put(said[place])
                    subscription.last = max(last, news.count)
            consoles = bool(self._events) and self.event_news is not None
            if moved and (consoles or self._walls):
                rows = self.ledger.matches(ids=sorted(moved), states=consoles)
                self._tell_walls(rows, moved)
                if consoles:
                    self._tell_consoles(rows, moved, position)

    def _tell_consoles(
        self, rows: list[dict[str, Any]], moved: dict[str, int], position: int
    ) -> None:
        """Hand each console its event's one message of the moved matches (``rows``)."""
        for event, followers in self._events.items():
            mine = [row for row in rows if event is None or row["event"] == event]
            if not mine or self.event_news is None:
                continue
            try:
                messages = self.event_news(event, mine, moved, position)
            except Exception as error:  # the other events' consoles are served
                _log.warning("the consoles of %r could not be told: %s", event, error)
                continue
            for subscription in followers:
                subscription.put(messages)

    def _tell_walls(self, rows: list[dict[str, Any]], moved: dict[str, int]) -> None:
        """Hand each wall the cards of its event's moved matches (``rows``) it shows."""
        for event, walls in self._walls.items():
            mine = [row for row in rows if row["event"] == event]
            if not mine or self.wall_feed is None:
                continue
            # a wall shows a page of boards (wall.js follows those): cards only of theirs
            shown: frozenset[str] | None = frozenset()
            for wall in walls:
                shown = None if shown is None or wall.only is None else shown | wall.only
            try:
                tagged = self.wall_feed.news(event, mine, moved, shown)
            except Exception as error:  # the other events' walls are served
                _log.warning("the walls of %r could not be told: %s", event, error)
                continue
            _put_tagged(walls, tagged)

    def _recheck(self) -> None:
        """Ask whether each followed wall's event is still public (a withdrawal is told)."""
        self._checked = time.monotonic()
        for event, walls in self._walls.items():
            if self.wall_feed is None:
                return
            try:
                tagged = self.wall_feed.recheck(event)
            except (OSError, sqlalchemy.exc.SQLAlchemyError, PersistenceError) as error:
                _log.warning("whether %r is public could not be read: %s", event, error)
                continue
            _put_tagged(walls, tagged)

    def _renew(self) -> None:
        """Work out every followed match again, whole (the log could not be read for a
        while), and hand on what its streams have not had."""
        self._news.clear()
        for match_id, followers in self._matches.items():
            try:
                news = self._work_out(match_id)
            except Exception as error:  # a damaged match: its streams wait, the others go on
                _log.warning("the feed of %r could not be read: %s", match_id, error)
                continue
            for subscription in followers:
                if subscription.last is not None:
                    subscription.put(news.after(subscription.last, subscription.notes))
                subscription.last = max(subscription.last or 0, news.count)

    def _begin(self) -> None:
        """Start following the log where it stands, before the first follower reads anything
        (if the log cannot be read now, the next tick starts it: :meth:`advance`)."""
        self._forget()
        if self._position is None:
            with contextlib.suppress(OSError, sqlalchemy.exc.SQLAlchemyError, PersistenceError):
                self._position = self.ledger.last_stored()

    def _work_out(self, match_id: str) -> MatchNews:
        """The match's stream messages, worked out once for all its streams: on from the news
        kept of it, the ledger reading only the events since, when it can
        (:meth:`bgledger.Ledger.followed`)."""
        self.worked += 1
        kept = self._news.get(match_id)
        followed = self.ledger.followed(match_id, None if kept is None else kept.known)
        if kept is not None and followed.since == kept.count and not followed.entries:
            news = kept  # nothing since: as it was
        else:
            news = _news_of(followed, kept)
        self._news[match_id] = news
        return news


def _news_of(followed: Followed, kept: MatchNews | None) -> MatchNews:
    """The news of ``followed``, went on from ``kept`` (the news kept of the match) when it
    did: each new entry's line and ``show --json``'s document, worked out once."""
    lines = tuple((entry.number, history_line(entry)) for entry in followed.entries)
    rulings = tuple(line for (_, line), e in zip(lines, followed.entries, strict=True) if e.ruling)
    notes = frozenset(e.number for e in followed.entries if e.kind in NOTES)
    if followed.since and kept is not None:  # went on from what was kept: its lines stand
        lines = kept.lines[: followed.since] + lines
        rulings = kept.rulings + rulings  # (none since: a ruling is worked out whole)
        notes |= {number for number in kept.notes if number <= followed.since}
    document = json.dumps(followed.shown.to_json())
    return MatchNews(followed.count, lines, document, followed, rulings, notes)


NOTES = frozenset({"RemarkRecorded"})
"""The kinds of entry that are notes for the record (the scorekeeper's, the director's): kept
off the spectators' surfaces (the wall, the watch page, the embedded board, a spectator's
match stream, the pad's and the desk's history read by one)."""


def _put_tagged(walls: set[Subscription], tagged: Tagged) -> None:
    """Each wall's share of ``tagged``: the event's messages, and those of the matches it shows."""
    if not tagged:
        return
    every = [message for _, message in tagged]
    for wall in walls:
        if wall.only is None:
            wall.put(every)
        else:
            wall.put([m for match, m in tagged if match is None or match in wall.only])
