"""A match's stream as commands extend it: the one way an event of a match is made.

:class:`MatchStream` is the bookkeeping half of :class:`bgledger.commands.match.Match`:
the stream id, the version, the folded state and the events recorded but not
yet handed to the application.  :meth:`MatchStream._record` stamps each event
(``at``, checked against the last event's), links it into the hash chain
(:mod:`bgledger.events.chain`) and folds it (:func:`bgledger.projections.state.fold.apply`), so the
state a command decides on is always the state after every event recorded.
The commands themselves, which decide before they record, are the feature
mixins on :class:`MatchStream` that :class:`~bgledger.commands.match.Match`
composes; ``_record`` is protected, so that only they record (a test checks
that nothing outside :mod:`bgledger.commands` calls it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self, TypeVar
from uuid import UUID

from eventsourcing.domain import DomainEvent

from bgledger.commands import decide as _decide
from bgledger.events import MatchEvent
from bgledger.events.chain import chain_new
from bgledger.projections.state.fold import MatchState, apply
from bgledger.rules.profiles import Profile, get_profile
from bgledger.rules.text import check_texts

__all__ = ["HistoryMismatchError", "MatchStream"]

E = TypeVar("E", bound=MatchEvent)


class HistoryMismatchError(ValueError):
    """The events given as a ruling's history are not the stream's so far (a caller's mistake)."""


class MatchStream:
    """A match's id, its version (events so far), its folded state and its pending events."""

    def __init__(self, stream: UUID, version: int, state: MatchState) -> None:
        self._id = stream
        self._version = version
        self.state = state
        self._pending: list[MatchEvent] = []
        self._made: list[MatchState] = []  # the state after each pending event, as folded
        self.collected: tuple[tuple[MatchEvent, MatchState], ...] = ()
        """The events the last :meth:`collect_events` handed over, each with the state after
        it as :meth:`_record` folded it: the one fold of a recorded line, which the front door
        words and hands on (:meth:`bgledger.Ledger.record`) instead of folding it again."""
        self._said = ""
        self._claimed = ""

    @property
    def id(self) -> UUID:
        """The stream id (see :func:`bgledger.commands.match.match_uuid`)."""
        return self._id

    @property
    def version(self) -> int:
        """The number of events recorded so far (pending ones included)."""
        return self._version

    @property
    def profile(self) -> Profile:
        """The rulebook this match is played under."""
        return get_profile(self.state.profile)

    def advance(self, version: int, state: MatchState) -> None:
        """Bring the match up to ``version`` (events others stored since it was loaded)."""
        self._version, self.state = version, state

    @property
    def pending(self) -> tuple[MatchEvent, ...]:
        """The events recorded and not yet collected (a new match's: all of them)."""
        return tuple(self._pending)

    def collect_events(self) -> list[MatchEvent]:
        """Hand the events recorded since the last call to the application (and forget them)."""
        pending, self._pending = self._pending, []
        self.collected = tuple(zip(pending, self._made, strict=True))
        self._made = []
        return pending

    def saying(self, line: str) -> _Saying:
        """A context in which the first event recorded keeps ``line``, the line that made its
        entry (:attr:`~bgledger.events.MatchEvent.said`, DESIGN principle 12); the events the
        command records after it keep none: they are part of its entry."""
        return _Saying(self, line)

    def claiming(self, claim: str) -> _Claiming:
        """A context in which every event recorded keeps ``claim``, the time a token's line
        gave (:attr:`~bgledger.events.MatchEvent.claimed`, DESIGN principle 13)."""
        return _Claiming(self, claim)

    def atomic(self) -> _Atomic:
        """All that is recorded inside is kept, or none of it: a refusal undoes the steps before."""
        return _Atomic(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        # The state is immutable: a copy needs only its own pending list.
        return type(self)(self._id, self._version, self.state)

    def _record(
        self,
        event_type: type[E],
        by: str,
        at: str | None,
        history: Sequence[MatchEvent] | None = None,
        /,
        **fields: Any,
    ) -> E:
        """Make the next event of the stream, chain it, fold it in and keep it pending.

        A ruling records facts only; the match it leads to is worked out from
        the events in force (:func:`bgledger.projections.state.fold.apply`), so
        it needs ``history``: the stream's events as stored before it (any this
        command recorded first, still pending, are added).  ``history`` is
        positional, so that no event field can be taken for it.

        :raises InvalidTimeError: for a malformed ``at``, or one earlier than the last event's.
        :raises InvalidTextError: for a text that is not one line of visible characters
            (:mod:`bgledger.rules.text`).
        :raises HistoryNeededError: for a ruling without ``history``.
        :raises HistoryMismatchError: for a ``history`` that is not this stream's so far.
        """
        if self._said:
            fields["said"], self._said = self._said, ""  # the entry's first event keeps its line
        if self._claimed:
            fields["claimed"] = self._claimed  # every event of the entry: its time is a claim
        check_texts({"by": by, **fields})  # every text of every event: one line, visible
        before = None if history is None else self._before(history)
        event = event_type(
            originator_id=self._id,
            originator_version=self._version + 1,
            timestamp=DomainEvent.create_timestamp(),
            at=_decide.stamp(at, self.state.last_at),
            recorded_by=by,
            **fields,
        )
        event = chain_new(event, self.state.head)  # made just above: linked in place
        self.state = apply(self.state, event, before)
        self._version += 1
        self._pending.append(event)
        self._made.append(self.state)
        return event

    def _before(self, history: Sequence[MatchEvent]) -> list[MatchEvent]:
        """Every event before the next one: ``history`` (stored) and the pending ones after it.

        :raises HistoryMismatchError: if they are not numbered 1 to :attr:`version`.
        """
        before = list(history[: self._version])
        before += [e for e in self._pending if e.originator_version > len(before)]
        if [e.originator_version for e in before[-1:]] != ([self._version] if before else []):
            raise HistoryMismatchError(
                f"the history given ends at event {len(before)}; the match is at {self._version}"
            )
        return before


class _Saying:
    """:meth:`MatchStream.saying`'s context (a class: a generator's costs a line a few us)."""

    __slots__ = ("_line", "_stream")

    def __init__(self, stream: MatchStream, line: str) -> None:
        self._stream, self._line = stream, line

    def __enter__(self) -> None:
        self._stream._said = self._line

    def __exit__(self, *_: object) -> None:
        self._stream._said = ""


class _Claiming:
    """:meth:`MatchStream.claiming`'s context."""

    __slots__ = ("_claim", "_stream")

    def __init__(self, stream: MatchStream, claim: str) -> None:
        self._stream, self._claim = stream, claim

    def __enter__(self) -> None:
        self._stream._claimed = self._claim

    def __exit__(self, *_: object) -> None:
        self._stream._claimed = ""


class _Atomic:
    """:meth:`MatchStream.atomic`'s context: what the stream was on entering, put back if
    anything raises inside (a class: a generator's context costs every command a few us)."""

    __slots__ = ("_pending", "_said", "_state", "_stream", "_version")

    def __init__(self, stream: MatchStream) -> None:
        self._stream = stream

    def __enter__(self) -> None:
        stream = self._stream
        self._version, self._state = stream._version, stream.state
        self._pending, self._said = len(stream._pending), stream._said

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None:
            stream = self._stream
            stream._version, stream.state, stream._said = self._version, self._state, self._said
            del stream._pending[self._pending :]
            del stream._made[self._pending :]
