"""What a spectator of an event published with a delay sees: every match as it stood D before.

``bgledger publish --event E --delay 15m`` (DESIGN principle 14; issue 32): as chess
broadcasts do, the spectators' surfaces (the wall and its stream, a match's watch and
embed pages and their live parts, the boards, the ``.mat``, the match stream) show
each match as it stood 15 minutes before now, so that nobody can relay a live
position to an engine.  The read gate (:mod:`bgledger.web.reads`) says how far behind
each reader is (``request.state.delay``, seconds: :meth:`bgledger.Ledger.read_delay`):
a token that reaches the match (its scorekeeper, the director, the committee) reads
live; a surface that cannot be shown behind is refused to a delayed spectator.

"As it stood D before" is the match after the events dated (their ``at``, as the
recorder gave it) no later than now less D (:meth:`bgledger.Ledger.events_as_of`):
an entry received late but dated inside the window shows when its time is D old,
like the others (so a late entry shows late, never early).  The match as recorded
after event N is what the live reader saw after event N, so the drawings kept by
(match, event) are shared by live and delayed readers; nothing is kept by the
match's *last* event for a delayed reader.

Bounded work (:class:`Delayed`): what a delayed reader sees is worked out once a
:data:`FRESH_SECONDS` for each (match, delay) and each (event, delay), however many
read it, and a match's state after event N once (:data:`STATES_KEPT`); each delayed
stream asks it once a tick and sends a change as it becomes D old.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from bgledger.projections.views.audit import history_line
from bgledger.service import Ledger, MatchState, delay_text
from bgledger.web.feeds import NOTES, MatchNews

__all__ = ["FRESH_SECONDS", "STATES_KEPT", "Delayed", "delay_words"]

FRESH_SECONDS = 1.0
"""How long what a (match, delay) or an (event, delay) shows is kept before it is asked again."""
STATES_KEPT = 2048
"""States of a match after an event kept for delayed readers (a wall's first drawing)."""
_KEPT = 1024
"""News of (match, delay) and rows of (event, delay) kept."""


def delay_words(delay: int) -> str:
    """What a delayed page says of itself: ``15 min delay`` ('' when live)."""
    return f"{delay_text(delay)} delay" if delay else ""


class _Kept:
    """A bounded dict, its oldest forgotten first, safe for the thread pool's threads."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.kept: dict[Any, Any] = {}
        self.lock = threading.Lock()

    def get(self, key: Any) -> Any:
        return self.kept.get(key)

    def put(self, key: Any, value: Any) -> None:
        with self.lock:
            if key not in self.kept and len(self.kept) >= self.most:
                self.kept.pop(next(iter(self.kept)), None)
            self.kept[key] = value


class Delayed:
    """The matches and walls as delayed readers see them, worked out once for them all."""

    def __init__(self, ledger: Ledger, clock: Callable[[], float] = time.monotonic) -> None:
        self.ledger = ledger
        self.clock = clock
        self.worked = 0
        """(match, delay) news and (event, delay) rows worked out (for a test to count)."""
        self._states = _Kept(STATES_KEPT)
        self._news = _Kept(_KEPT)
        self._rows = _Kept(_KEPT)
        self._working = threading.Lock()

    def shown(self, match_id: str, delay: int) -> int | None:
        """The event a reader ``delay`` behind sees ``match_id`` after (None: live)."""
        return self.ledger.delayed_events(match_id, delay)

    def state(self, match_id: str, at: int) -> MatchState:
        """The match as recorded after event ``at``: the same for ever, folded once."""
        key = (match_id, at)
        state: MatchState | None = self._states.get(key)
        if state is None:
            state = self.ledger.state(match_id, at)
            self._states.put(key, state)
        return state

    def row(self, row: dict[str, Any], delay: int) -> dict[str, Any]:
        """A read-model row (:meth:`bgledger.Ledger.matches`) as it stood ``delay`` behind."""
        at = self.shown(row["match_id"], delay)
        if at is None or at >= row["events"]:
            return row
        return self.ledger.row_after(row, self.state(row["match_id"], at))

    def rows(self, event: str, rows: Sequence[dict[str, Any]], delay: int) -> list[dict[str, Any]]:
        """The event's rows as they stood ``delay`` behind: worked out once a
        :data:`FRESH_SECONDS` for every wall of the event so delayed."""
        key = (event, delay, tuple(row["match_id"] for row in rows))
        now = self.clock()
        kept = self._rows.get(key)
        if kept is not None and now - kept[0] < FRESH_SECONDS:
            return list(kept[1])
        self.worked += 1
        then = [self.row(row, delay) for row in rows]
        self._rows.put(key, (now, then))
        return then

    def news(self, match_id: str, delay: int) -> MatchNews:
        """The match stream's news as it stood ``delay`` behind: its history lines and ``show
        --json``'s document after the event shown, worked out once a change for all."""
        kept = self._news.get((match_id, delay))
        if kept is not None and self.clock() - kept[0] < FRESH_SECONDS:
            return kept[1]  # type: ignore[no-any-return]
        with self._working:  # streams opened at once: one works it out, the others take it
            return self._worked_news(match_id, delay)

    def _worked_news(self, match_id: str, delay: int) -> MatchNews:
        now = self.clock()
        kept = self._news.get((match_id, delay))
        if kept is not None and now - kept[0] < FRESH_SECONDS:
            return kept[1]  # type: ignore[no-any-return]
        at = self.shown(match_id, delay) or 1
        news = kept[1] if kept is not None and kept[1].count == at else None
        if news is None:
            self.worked += 1
            entries = self.ledger.history(match_id, at=at)
            lines = tuple((entry.number, history_line(entry)) for entry in entries)
            rulings = tuple(line for (_, line), e in zip(lines, entries, strict=True) if e.ruling)
            document = json.dumps(self.ledger.show(match_id, at).to_json())
            notes = frozenset(e.number for e in entries if e.kind in NOTES)  # (not shown)
            news = MatchNews(at, lines, document, None, rulings, notes)
        self._news.put((match_id, delay), (now, news))
        return news

    def match_stream(
        self, match_id: str, delay: int, since: int | None
    ) -> tuple[list[str], Callable[[], list[str]]]:
        """A delayed match stream: its opening (the events after ``since`` shown so far) and
        its news, asked once a tick (the events that became ``delay`` old since)."""
        first = self.news(match_id, delay)
        start = first.count if since is None else max(0, min(since, first.count))
        last = first.count

        def news() -> list[str]:
            nonlocal last
            now = self.news(match_id, delay)
            if now.count <= last:
                return []
            said, last = now.after(last, notes=False), now.count
            return said

        # a delayed reader is a spectator (a token that reaches the match reads it live):
        # the events but the notes, numbered as they are
        opening = [f"retry: 1000\n: following {json.dumps(match_id)} {delay_words(delay)}\n\n"]
        return opening + first.after(start, notes=False), news

    def wall_stream(
        self,
        event: str,
        delay: int,
        only: frozenset[str] | None,
        since: int | None,
        rows: Callable[[], list[dict[str, Any]] | None],
        card: Callable[[dict[str, Any], int], str],
    ) -> tuple[list[str], Callable[[], list[str]]]:
        """A delayed wall stream: ``card`` messages of its matches (``only``: those) as each
        change becomes ``delay`` old, ``added`` for a match new to it.  ``rows``: the
        event's live rows (one read of the read models; None: no longer public, and the
        read gate ends the stream), read once a :data:`FRESH_SECONDS` for every delayed
        wall stream of the event; ``card``: a row's message."""
        known: dict[str, int] = {}

        def delayed_rows() -> list[dict[str, Any]] | None:
            now = self.clock()
            kept = self._rows.get((event, delay))
            if kept is not None and now - kept[0] < FRESH_SECONDS:
                return list(kept[1])
            live = rows()
            if live is None:
                return None
            then = self.rows(event, live, delay)
            self._rows.put((event, delay), (now, then))
            return then

        def news() -> list[str]:
            then = delayed_rows()
            if then is None:
                return []
            total = sum(row["events"] for row in then)
            said: list[str] = []
            for row in then:
                match_id = row["match_id"]
                if match_id not in known:
                    said.append(_added(match_id, total))
                elif row["events"] > known[match_id] and (only is None or match_id in only):
                    said.append(card(row, total))
                known[match_id] = max(known.get(match_id, 0), row["events"])
            return said

        opened = self.rows(event, rows() or [], delay)
        for row in opened:
            known[row["match_id"]] = row["events"]
        total = sum(row["events"] for row in opened)
        said = [f"retry: 1000\n: following the wall of {json.dumps(event)} at {total}, "
                f"{delay_words(delay)}\n\n"]  # fmt: skip
        if since is not None and since != total:
            said += [card(r, total) for r in opened if only is None or r["match_id"] in only]
        return said, news


def _added(match_id: str, total: int) -> str:
    return f"id: {total}\nevent: added\ndata: {json.dumps({'match': match_id})}\n\n"
