"""The front door: one object, one entrance for every write, and a named method per query.

The command line (:mod:`bgledger.cli`) and the web server are adapters on this
one class: they parse what the user typed, call a method, and render what it
returns; neither opens the store, folds events or decides anything itself.
Errors are the library's own (:mod:`bgledger.errors`,
:mod:`bgledger.rules.errors`): an adapter maps them at its edge (the CLI: exit 2
for input that describes nothing, exit 1 for a refusal with the rule cited).

Every write to a match is :meth:`Ledger.record`: a command value of
:mod:`bgledger.commands.vocabulary` (``Roll(6, 4)``, ``Revert(6, reason=...)``)
or a line of the record language (:meth:`Ledger.record_line`), with who
records it, the grant of a token (checked against the command itself, DESIGN
principle 10) and a client key (a retry answers as the first send did).  It
returns a :class:`Recorded`: the events recorded with their numbers, the match
before and after, what the match's command answered, and the events' history
entries, worded once.  Queries return the views' values (:class:`MatchState`,
:class:`Moment`, :class:`Step`, :class:`HistoryEntry`, :class:`Verdict`,
:class:`Seal` ...), re-exported here so that an adapter needs nothing else to
annotate them.

Example::

    >>> ledger = Ledger("sqlite:///:memory:")
    >>> ledger.start(("Ann", "Bob"), 3, match_id="final", by="kim")
    'final'
    >>> ledger.state("final").phase
    <Phase.BETWEEN_GAMES: 'between-games'>
    >>> from bgledger.commands.vocabulary import Opening
    >>> [entry.text for entry in ledger.record("final", Opening(3, 1), by="kim").entries]
    ['game 1 started', 'opening roll: Ann 3, Bob 1: Ann plays first']
    >>> done = ledger.record_line("final", "move 8/5 6/5", by="kim")
    >>> done.numbers, done.state.turn
    ((4,), 'b')
    >>> ledger.show("final").to_json()["players"]
    {'a': 'Ann', 'b': 'Bob'}
    >>> [entry.text for entry in ledger.history("final")][:2]
    ['match started: Ann v Bob, 3 points, usbgf-2016, Crawford rule', 'game 1 started']
    >>> Ledger.judge("4HPwATDgc/ABMA", (3, 1), "8/5 6/5").legal
    True
"""

from __future__ import annotations

import bisect
import difflib
import importlib
import json
import logging
import shlex
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from copy import deepcopy
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast
from uuid import UUID

from bgledger.access import (
    ROLES,
    Grant,
    InvalidGrantError,
    TokenBook,
    TokenEntry,
    digest,
    expiry,
    new_token,
)
from bgledger.commands.breaks import BEST_OF_THREE
from bgledger.commands.clock import NO_TIME_FORFEIT, NOMINAL_MS, SET_RULES, parse_clock
from bgledger.commands.corrections import entries_in_force
from bgledger.commands.decide import FUTURE_TOLERANCE, claim_of, stamp, vouched_time
from bgledger.commands.language import without_comment
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import RULERS, InvalidRulingError, Ruling
from bgledger.commands.setup import CLOCKS
from bgledger.errors import (
    ActionRefusedError,
    BgLedgerError,
    EventLooksLikeError,
    EventNotFoundError,
    IdempotencyKeyReusedError,
    InvalidMatchSetupError,
    InvalidTimeError,
    MatchExistsError,
    MatchNotFoundError,
    SealRefusedError,
    TokenScopeError,
    UnreadableError,
)
from bgledger.events import (
    BreakEnded,
    BreakStarted,
    ClockHit,
    ClockHitImplied,
    ClockResumed,
    ClockSet,
    ClockStarted,
    ClockStopped,
    MatchEvent,
    MatchStarted,
    MatchWon,
    PenaltyPointsAssessed,
    PlaysReverted,
    ReserveTimePenalized,
    ReserveTimeRestored,
    RulingMade,
    TimeExpired,
)
from bgledger.projections.state.clock import at_ms
from bgledger.projections.state.corrected import corrected, rulings_in_force
from bgledger.projections.state.fold import MatchState, fold, needs_history
from bgledger.projections.views.audit import (
    HistoryEntry,
    folded_entries,
    history_line,
    provenance,
    recorded_entries,
    ruling_effect,
    worded_alone,
)
from bgledger.projections.views.audit import history as audit_history
from bgledger.projections.views.moment import Moment, moment
from bgledger.projections.views.step import Replays, Ruled, Step, step
from bgledger.projections.views.summary import state_json
from bgledger.publication import (
    PUBLICATIONS,
    Publication,
    PublicationBook,
    Published,
    checked_delay,
    delay_text,
    parse_delay,
)
from bgledger.rules.judge import Judgement
from bgledger.rules.judge import judge as judge_play
from bgledger.rules.legal import check_dice, legal_plays, read_dice
from bgledger.rules.notation import Play
from bgledger.rules.position import Position
from bgledger.rules.profiles import DEFAULT_PROFILE, PROFILES, Decision, get_profile
from bgledger.rules.text import as_entered, event_key, look_alikes
from bgledger.store.application import DEFAULT_URL, MatchStore
from bgledger.store.keys import Found, KeyBook, Keyed, checked_key, seal, unseal
from bgledger.store.recorder import UnreadableRowError

# What only some commands need is imported in the methods that need it, so
# that a one-shot command (``bgledger show``, ``roll``, ``move``) does not pay
# for it at start-up (bench/bench_startup.py): the .mat and JSON readers and
# writers and the score sheets (import, export), the read models (list,
# rulings, standings, rebuild), verify and the seals (with cryptography's
# Ed25519 keys).  Their types are re-exported all the same, loaded on first
# use by the module's ``__getattr__`` below.
if TYPE_CHECKING:
    from sqlalchemy import Connection

    from bgledger.commands.vocabulary import PICKUP_REASON as PICKUP_REASON
    from bgledger.commands.vocabulary import Amend, Command, EventRuling, Undo
    from bgledger.interchange.files import ImportRefusedError as ImportRefusedError
    from bgledger.projections.readmodels.tracking import ReadModels
    from bgledger.projections.readmodels.tracking import RebuildReport as RebuildReport
    from bgledger.store.integrity import Verdict as Verdict
    from bgledger.store.receipt import InvalidReceiptError as InvalidReceiptError
    from bgledger.store.receipt import ReceiptCheck as ReceiptCheck
    from bgledger.store.receipt import SealBook
    from bgledger.store.receipt import receipt_code as receipt_code
    from bgledger.store.receipt import receipt_text as receipt_text
    from bgledger.store.seal import InvalidSealError as InvalidSealError
    from bgledger.store.seal import Seal as Seal

__all__ = [
    "CLOCKS",
    "DEFAULT_PROFILE",
    "DEFAULT_URL",
    "EXPORT_FORMATS",
    "NOMINAL_MS",
    "PICKUP_REASON",
    "PROFILES",
    "ROLES",
    "RULERS",
    "SET_RULES",
    "START_FIELDS",
    "BreakEnded",
    "BreakStarted",
    "ClockHit",
    "ClockHitImplied",
    "ClockResumed",
    "ClockSet",
    "ClockStarted",
    "ClockStopped",
    "Decision",
    "Followed",
    "Grant",
    "HistoryEntry",
    "ImportRefusedError",
    "Imported",
    "InvalidGrantError",
    "InvalidReceiptError",
    "InvalidSealError",
    "Judgement",
    "Ledger",
    "LegalPlays",
    "MatchEvent",
    "MatchState",
    "Moment",
    "PenaltyPointsAssessed",
    "PlaysReverted",
    "Position",
    "Publication",
    "Published",
    "RebuildReport",
    "ReceiptCheck",
    "Recorded",
    "ReserveTimePenalized",
    "ReserveTimeRestored",
    "Ruled",
    "Ruling",
    "RulingMade",
    "RulingOption",
    "Seal",
    "SealRefusedError",
    "Shown",
    "Started",
    "Step",
    "TimeExpired",
    "TokenEntry",
    "UnreadableRowError",
    "Verdict",
    "checked_delay",
    "delay_text",
    "parse_clock",
    "parse_delay",
    "receipt_code",
    "receipt_text",
    "state_document",
    "verdict_text",
    "without_comment",
]

_LOADED_ON_USE = {
    # the vocabulary: only a command that records, or parses a line, needs its classes
    "PICKUP_REASON": "bgledger.commands.vocabulary",
    "ImportRefusedError": "bgledger.interchange.files",
    "RebuildReport": "bgledger.projections.readmodels.tracking",
    "Verdict": "bgledger.store.integrity",
    "InvalidSealError": "bgledger.store.seal",
    "Seal": "bgledger.store.seal",
    "InvalidReceiptError": "bgledger.store.receipt",
    "ReceiptCheck": "bgledger.store.receipt",
    "receipt_code": "bgledger.store.receipt",
    "receipt_text": "bgledger.store.receipt",
}
"""The re-exported types whose modules only some commands load: name, module."""


def __getattr__(name: str) -> Any:
    """A type of :data:`_LOADED_ON_USE`, imported on first use (PEP 562)."""
    if name not in _LOADED_ON_USE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LOADED_ON_USE[name]), name)
    globals()[name] = value
    return value


T = TypeVar("T")


_log = logging.getLogger(__name__)

EXPORT_FORMATS = ("mat", "json", "sgf", "scoresheet", "scoresheet-html")
"""What :meth:`Ledger.export` writes: gnubg's .mat, the lossless JSON copy, USBGF 4.7 sheets."""


# -- the values the adapters render ---------------------------------------------------------


def state_document(
    state: MatchState, now_ms: int | None = None, summary: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``show --json``'s fields of ``state``: the contract's summary plus ``next_length``.

    ``next_length`` is the corrected match length a ruling set for the next
    game (USBGF 4.8.4, 4.8.5), or null; ``now_ms`` the moment a running clock
    is read at (default: the last event).  ``summary``: :func:`state_json` of
    ``state`` at ``now_ms``, if worked out already (:attr:`Recorded.summary`).
    """
    if summary is None:
        summary = state_json(state, now_ms)
    return {**summary, "next_length": state.next_length}


@dataclass(frozen=True, slots=True)
class RulingOption:
    """A ruling that could be made on an event now (``open``), or why it cannot.

    ``rule`` is the rule it would be recorded under (closed: the rule that
    refused it), ``effect`` what it would do as its history line would say it
    (closed: the refusal's reason), ``agreed`` that it needs the players'
    agreement (USBGF 4.2.3(f)), ``rule_text`` the rule's words from the profile.
    """

    verb: str
    event: int
    rule: str
    ruled_by: str
    open: bool
    effect: str
    agreed: bool = False
    rule_text: tuple[str, ...] = ()

    @property
    def line(self) -> str:
        """The record-language line that makes it, but for its ``--reason``."""
        line = f"{self.verb} {self.event}"
        if self.rule:
            line += f" --rule {shlex.quote(self.rule)}"
        if self.ruled_by != ("committee" if self.verb == "overturn" else "director"):
            line += f" --ruled-by {self.ruled_by}"
        return line + (" --agreed" if self.agreed else "")

    def to_json(self) -> dict[str, Any]:
        """The picker's row: every field and :attr:`line`."""
        return {
            "verb": self.verb,
            "event": self.event,
            "rule": self.rule,
            "ruled_by": self.ruled_by,
            "open": self.open,
            "effect": self.effect,
            "agreed": self.agreed,
            "line": self.line,
            "rule_text": list(self.rule_text),
        }


def _try_ruling(
    match: Match, history: list[MatchEvent], kind: type[EventRuling], event: int, profile: str
) -> RulingOption | None:
    """The ruling ``kind`` on ``event`` tried on copies of ``match``: open, closed, or None
    (no such case).

    Tried without the players' agreement, then with it; nothing is stored.
    """
    closed: RulingOption | None = None
    for agreed in (False, True):
        trial = deepcopy(match)
        ruling = kind(event, reason="(tried for the picker)", agreed=agreed)
        ruler = ruling.ruler
        try:
            ruling.run(trial, ruler, history)
        except InvalidRulingError:
            return None
        except ActionRefusedError as refused:
            rule = refused.rule or ""
            closed = closed or RulingOption(
                kind.verb, event, rule, ruler, False, refused.reason, False,
                Ledger.rule_text(profile, rule) if rule else (),
            )  # fmt: skip
            continue
        made = next(e for e in trial.collect_events() if isinstance(e, RulingMade))
        effect = ruling_effect(made, trial.state, {e.originator_version: e for e in history})
        text = Ledger.rule_text(profile, made.rule) if made.rule else ()
        return RulingOption(kind.verb, event, made.rule, ruler, True, effect, agreed, text)
    return closed


def _result(events: Sequence[MatchEvent]) -> str:
    """The result ``events`` (a match's first) give, as a receipt signs it."""
    from bgledger.projections.views.scoresheet import final_line

    state = corrected(events)
    assert state is not None  # the history of a match begins with MatchStarted
    return final_line(state)


def _signer(seal: Seal, name: str, pub: Path | None) -> str:
    """Who signed a receipt, as far as ``pub`` (the director's public key) tells.

    :raises InvalidSealError: for an unreadable ``pub``.
    :raises SealRefusedError: for a receipt another key signed.
    """
    from bgledger.store.seal import load_public_key

    if pub is None:
        return (
            f"signed by key {seal.public_key[:16]}... (--pub DIRECTOR.pub checks it is the "
            "director's)"
        )
    if load_public_key(pub) != seal.public_key:
        raise SealRefusedError(
            f"{seal.match_id}: receipt {name} was not signed by the key in {pub}"
        )
    return f"signed by the key in {pub}"


def verdict_text(verdict: Verdict) -> str:
    """A verdict of :meth:`Ledger.verify` in one line: the first problem, or what was checked.

    E.g. ``final: 412 events, chain intact (head 9c1f...), matches the seal``.
    """
    return verdict.text()


@dataclass(frozen=True, slots=True)
class Recorded(Generic[T]):
    """What a command recorded: the events as stored, the match before and after, its result.

    ``result`` is what the match's command returned (the :class:`ClockHit`
    of a hit, the drift of a clock reading, the :class:`Judgement` of a move,
    a dance's True ...).  A refused command records nothing and raises instead.
    """

    match_id: str
    events: tuple[MatchEvent, ...]
    before: MatchState
    state: MatchState
    result: T
    entries: tuple[HistoryEntry, ...] = ()
    """The trail's entries of :attr:`events`, worded as ``history`` words them."""
    replayed: bool = False
    """True for the answer to a retried key: this call recorded nothing."""
    _summary: list[dict[str, Any]] = field(default_factory=list, compare=False, repr=False)

    @property
    def summary(self) -> dict[str, Any]:
        """``show --json``'s summary of the match after it (:func:`state_json`), worked out
        once for the answer, the live feeds and the read models (not to be changed)."""
        if not self._summary:
            self._summary.append(state_json(self.state))
        return self._summary[0]

    @property
    def lines(self) -> tuple[str, ...]:
        """What every adapter prints: the entries as ``history`` prints them."""
        return tuple(history_line(entry) for entry in self.entries)

    @property
    def numbers(self) -> tuple[int, ...]:
        """The numbers of the events recorded, in order."""
        return tuple(event.originator_version for event in self.events)

    @property
    def flagged(self) -> tuple[int, ...]:
        """The events recorded as played and flagged illegal (DESIGN principle 2)."""
        return tuple(number for number in self.numbers if number in self.state.flagged)

    @property
    def ruling(self) -> RulingMade | None:
        """The ruling among the events recorded, if any."""
        return next((e for e in self.events if isinstance(e, RulingMade)), None)

    def to_json(self) -> dict[str, Any]:
        """``show --json``'s fields after the command, with ``recorded``: the events' numbers."""
        return {**self.summary, "recorded": list(self.numbers)}

    def answer(self) -> dict[str, Any]:
        """The web's answer to a recorded line: each entry (number, kind, text, by, line)
        and the match after it (``show --json``'s document)."""
        recorded = [
            {"number": e.number, "kind": e.kind, "text": e.text, "by": e.recorded_by,
             "line": history_line(e)}
            for e in self.entries
        ]  # fmt: skip
        return {
            "recorded": recorded,
            "match": state_document(self.state, summary=self.summary),
            "replayed": self.replayed,
        }


@dataclass(frozen=True, slots=True)
class Shown:
    """The match as ``show`` draws it: the moment, when the clock is read, the view's name.

    ``view`` is ``present`` (now, every ruling in force), ``recorded`` (as
    the log stood after event N) or ``corrected`` (a moment through the
    rulings in force, DESIGN principle 4).
    """

    moment: Moment
    now_ms: int
    view: str
    summary: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    """:func:`state_json` of the state with the clock read at its last event, if worked out
    already (:attr:`Recorded.summary`): :meth:`to_json` then takes it."""

    @property
    def state(self) -> MatchState:
        """The state shown."""
        return self.moment.state

    def to_json(self) -> dict[str, Any]:
        """``show --json`` (``GET /api/matches/MATCH``): the state, the view, the rulings."""
        state = self.moment.state
        at_last = self.now_ms == at_ms(state.last_at)  # the summary's moment
        document = state_document(state, self.now_ms, self.summary if at_last else None)
        document["view"] = self.view
        document["rulings"] = [
            {
                "number": r.originator_version,
                "rule": r.rule or None,
                "ruled_by": r.ruled_by,
                "reason": r.reason,
                "agreed": r.agreed,
            }
            for r in self.moment.rulings
        ]
        return document


@dataclass(frozen=True, slots=True)
class Followed:
    """A match as a live feed follows it (:meth:`Ledger.followed`): its trail and ``show``.

    ``entries`` are the trail's entries after event ``since``: the whole trail
    (``since`` 0), or just those recorded since the :class:`Followed` this one
    went on from (``since`` its ``count``).  ``shown`` is :meth:`Ledger.show`
    of the match after event ``count``.
    """

    match_id: str
    count: int
    since: int
    entries: tuple[HistoryEntry, ...]
    shown: Shown
    current: bool = True
    """False when the trail and ``shown`` were read either side of a new event: the match is
    then worked out whole the next time, not extended."""

    def then(self, done: Recorded[Any]) -> Followed | None:
        """This match after ``done``, a command this process recorded on it next: its entries
        and the state its fold left, neither read nor folded again; None if ``done`` is
        not the next change of the match this one knew (other events came between, it is
        another match's, a ruling or a correction: the trail is then read as
        :meth:`Ledger.followed` reads it)."""
        state = self.shown.state
        if (
            done.match_id != self.match_id
            or done.replayed
            or not done.events
            or not self.current
            or state.events != self.count
            or done.before.events != self.count
            or done.before.head != state.head
            or not worded_alone(done.events)
        ):
            return None
        return self.went_on(done.entries, done.state, done.summary)

    def went_on(
        self,
        entries: Sequence[HistoryEntry],
        state: MatchState,
        summary: dict[str, Any] | None = None,
    ) -> Followed:
        """This match with ``entries`` recorded after its ``count``, leaving it ``state`` (no
        ruling among them: the rulings in force stay these); ``summary``: its
        :func:`state_json`, if worked out already."""
        moment = replace(self.shown.moment, state=state, at=state.events)
        shown = Shown(moment, _clock_moment(state, None), self.shown.view, summary)
        return Followed(self.match_id, state.events, self.count, tuple(entries), shown)


class Fresh:
    """The state each match was left in by the last command this process recorded on it, by
    stream: the read models' catch-up takes it for the fold of those same events when it
    is theirs (the same last event number and hash-chain head), rather than fold them again.

    What the ledger recorded itself, from the state it decided on (folded from the events,
    DESIGN principle 8); at most :data:`FRESH_KEPT` matches, the oldest forgotten first.
    ``rebuild`` and ``verify`` never use it: they fold the events.
    """

    def __init__(self) -> None:
        self._changes: dict[str, Recorded[Any]] = {}
        self._lock = threading.Lock()

    def put(self, stream: str, done: Recorded[Any]) -> None:
        """``done`` is the last command recorded on ``stream``."""
        with self._lock:
            self._changes.pop(stream, None)
            self._changes[stream] = done
            if len(self._changes) > FRESH_KEPT:
                self._changes.pop(next(iter(self._changes)))

    def get(self, stream: str) -> tuple[MatchState, dict[str, Any]] | None:
        """The state the last command recorded on ``stream`` left and its :func:`state_json`,
        if this process recorded it."""
        done = self._changes.get(stream)
        return None if done is None else (done.state, done.summary)

    def last(self, stream: str, number: int) -> HistoryEntry | None:
        """The entry of event ``number`` of ``stream`` as the trail words it after it, if it is
        the last event a command of this process recorded there."""
        done = self._changes.get(stream)
        entry = done.entries[-1] if done is not None and done.entries else None
        return entry if entry is not None and entry.number == number else None


FRESH_KEPT = 4096
"""Matches whose last recorded state :class:`Fresh` keeps (a venue's tables, and more)."""


def _names_previous(steps: Sequence[tuple[MatchEvent, MatchState]]) -> bool:
    """Whether the first of ``steps`` is worded from the event before it, which the command
    did not make (:func:`~bgledger.projections.views.audit.match_won_text`)."""
    return bool(steps) and isinstance(steps[0][0], MatchWon)


START_FIELDS = {
    "a": str,
    "b": str,
    "length": int,
    "event": str,
    "id": str,
    "profile": str,
    "clock": str,
    "reserve": str,
    "delay": int,
    "doubles": bool,
    "best_of_three": bool,
    "no_time_forfeit": bool,
    "round": str,
    "table": str,
    "scorekeeper": str,
    "new_event": bool,
}
"""The fields of :meth:`Ledger.start_match`'s setup, ``start``'s options, and their JSON types.

``reserve`` is ``M:SS``, ``delay`` seconds (as ``start --reserve``, ``--delay``);
``scorekeeper`` is the label of the pad's token (who its events are ``by``); ``new_event``
starts an event whose name reads as an existing one's (``start --new-event``).
"""


@dataclass(frozen=True, slots=True)
class Started:
    """A match started by :meth:`Ledger.start_match`: who started it, and its pad's token."""

    match_id: str
    by: str
    token: str
    """A new scorekeeper's token for the match (printed once; the ledger keeps its hash)."""
    replayed: bool = False
    """True for the answer to a retried key: this call started nothing."""


@dataclass(frozen=True, slots=True)
class Imported:
    """One match stored by :meth:`Ledger.import_file`: its state and what the import noticed.

    ``illegal_plays`` counts the events recorded as played against the rules;
    ``notes`` what a director would want to know (games abandoned, lines ignored).
    """

    match_id: str
    file: str
    state: MatchState
    games: int
    illegal_plays: int
    abandoned: bool
    notes: tuple[str, ...]
    provenance: str | None = None
    """A JSON copy's: sealed by a trusted key, or not (:meth:`Ledger.provenance`)."""

    def to_json(self) -> dict[str, Any]:
        """``import --json``'s object: ``show --json``'s fields plus the file's."""
        document = state_json(self.state)
        document.update(
            file=self.file,
            games=len(self.state.games),
            illegal_plays=self.illegal_plays,
            abandoned=self.abandoned,
            notes=list(self.notes),
            provenance=self.provenance,
        )
        return document


@dataclass(frozen=True, slots=True)
class LegalPlays:
    """The legal plays of ``dice`` in ``position``: ``(play, result position id)`` pairs."""

    position: Position
    dice: tuple[int, int]
    plays: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        """``legal --json``: one entry per distinct resulting position."""
        plays = [{"play": play, "result": result} for play, result in self.plays]
        return {"position": self.position.position_id, "dice": list(self.dice), "plays": plays}


# -- the front door ------------------------------------------------------------------------


class Ledger:
    """The match ledger on one SQLAlchemy database: every command and query by name.

    :param url: a SQLAlchemy URL (``sqlite:///bgledger.db`` by default;
        ``sqlite:///:memory:`` for a throwaway ledger; PostgreSQL for a tournament).
    :param cache_size: keep this many matches in memory between commands, so that a
        command on a match folds on from the events stored since the last, not the whole
        match again (a script recording line by line would otherwise fold the match once a
        line); each use still reads any events other scorekeepers added since.  A one-shot
        command, which decides once, gives 0 (keeping costs a copy of the match).
    :raises sqlalchemy.exc.ArgumentError: for a URL that is not a database URL.
    """

    def __init__(self, url: str = DEFAULT_URL, *, cache_size: int = 16) -> None:
        self.url = url
        self._store = MatchStore(url, cache_size=cache_size)
        self._models: ReadModels | None = None
        self._models_made = threading.Lock()
        self._content_keys: dict[str, tuple[int, str | None]] = {}  # by id: (version, key)
        self._token_book: TokenBook | None = None
        self._key_book: KeyBook | None = None
        self._publication_book: PublicationBook | None = None
        self._seal_book: SealBook | None = None
        self._stream_names: dict[UUID, str] = {}  # a match's stream never changes its name
        self._listeners: list[Callable[[Recorded[Any]], None]] = []
        self._fresh = Fresh()
        self._publication_changes = 0
        self._event_times: dict[str, tuple[int, ...]] = {}  # by match: each prefix's latest ms

    def close(self) -> None:
        """Close the database connections."""
        self._store.close()

    @property
    def distrusted(self) -> tuple[str, ...]:
        """What the ledger found forged and did not use (a snapshot), one line each.

        The matches concerned were folded from their events instead; ``verify``
        names every such cache.
        """
        return tuple(dict.fromkeys(self._store.distrusted))

    def last_stored(self) -> int:
        """The number of the last event the ledger's log holds, of any match (0: none).

        One cheap query: the live streams ask it once a tick for all of them,
        and read a match again only when it has moved (:mod:`bgledger.web.streams`).
        """
        from bgledger.store.recorder import LedgerRecorder

        recorder = cast(LedgerRecorder, self._store.recorder)
        return recorder.max_notification_id() or 0

    # -- the match as it stands ------------------------------------------------------------

    def state(self, match_id: str, at: int | None = None, *, corrected: bool = False) -> MatchState:
        """The match now, or as recorded after event ``at``; ``corrected``: through the rulings.

        :raises MatchNotFoundError: for an unknown match or an event it does not have.
        """
        if not corrected:
            return self._store.state(match_id, at=at)
        return self.moment(match_id, at, corrected=True).state

    def moment(self, match_id: str, at: int | None = None, *, corrected: bool = False) -> Moment:
        """The match in one of the two views of the past (DESIGN principle 4), with its rulings.

        Recorded: as the log stood after event ``at`` (now without it), the
        rulings in force by then.  Corrected: that moment seen through every
        ruling in force today (USBGF 5.3: what an appeal committee replays).

        :raises MatchNotFoundError: for an unknown match or an event it does not have.
        """
        events = self._store.history(match_id)
        if at is not None and not 1 <= at <= len(events):  # before the store is asked: a
            # number past SQLite's 64 bits (--at 99999999999999999999) is no event either
            raise MatchNotFoundError(
                f"match {match_id!r} has {len(events)} events: --at {at} is not one of them"
            )
        if not corrected:
            state = self._store.state(match_id, at=at)
            made = rulings_in_force(events[: state.events])
            return Moment(state, state.events, "recorded", tuple(made))
        try:
            return moment(events, at or len(events), as_corrected=True)
        except ValueError as error:
            raise MatchNotFoundError(f"match {match_id!r}: --at {at}: {error}") from None

    def show(
        self,
        match_id: str,
        at: int | None = None,
        *,
        corrected: bool = False,
        now: str | None = None,
    ) -> Shown:
        """What ``show`` draws: :meth:`moment`, and the moment a running clock is read at.

        ``now`` is an ISO 8601 time or ``'now'`` (the wall clock); by default
        the time of the last event shown, as the record says (USBGF 3.5.5, 4.3.2).

        :raises MatchNotFoundError: for an unknown match or an event it does not have.
        :raises InvalidTimeError: for a ``now`` that is not a time or is before the last event.
        """
        shown = self.moment(match_id, at, corrected=corrected)
        view = shown.view if at is not None or shown.view == "corrected" else "present"
        return Shown(shown, _clock_moment(shown.state, now), view)

    def followed(self, match_id: str, known: Followed | None = None) -> Followed:
        """The match as a live feed shows it: its trail (:meth:`history`) and :meth:`show`,
        worked on from ``known`` (what the feed knew of it) when that can be done.

        From ``known``, only the events after its ``count`` are read, with the one
        before them (the same number and link of the hash chain: the match ``known``
        knew); worded as the trail words them
        (:func:`~bgledger.projections.views.audit.recorded_entries`) and folded onto
        its state (:func:`~bgledger.projections.state.fold.fold`), they are the
        result's ``entries`` (``since`` is ``known.count``), and the rulings in force
        stay ``known``'s.  The match is worked out whole (``since`` 0) without
        ``known``, or when it cannot be extended: a ruling or a correction among the
        new events (it can change earlier entries' marks and the rulings in force),
        an event missing, a count gone backwards, another match's chain.  Either way
        the trail's entries and ``shown.to_json()`` are :meth:`history`'s and
        :meth:`show`'s, and a long match costs a feed no more a line than a short one.

        :raises MatchNotFoundError: for an unknown match.
        :raises UnreadableRowError: for a stored event that cannot be read.
        """
        if known is not None and known.match_id == match_id:
            extended = self._extended(known)
            if extended is not None:
                return extended
        entries = self.history(match_id)
        shown = self.show(match_id)
        current = shown.state.events == len(entries)
        return Followed(match_id, len(entries), 0, tuple(entries), shown, current)

    def _extended(self, known: Followed) -> Followed | None:
        """``known`` with the events stored since (:meth:`followed`); None if it cannot be."""
        if not known.current or known.count < 1 or known.shown.state.events != known.count:
            return None
        read = self._events_after(known.match_id, known.count - 1)
        numbers = [event.originator_version for event in read]
        if not read or numbers != list(range(known.count, known.count + len(read))):
            return None  # the event it knew last is gone, or one since is missing
        previous, events = read[0], read[1:]
        if previous.chain != known.shown.state.head:
            return None  # not the match it knew
        entries = recorded_entries(events, known.shown.state, previous)
        if entries is None:  # a ruling or a correction: the trail is worded whole
            return None
        if not events:  # nothing since: nothing folded
            return replace(known, since=known.count, entries=())
        state = fold(events, known.shown.state)  # none needs the events before it
        if state is None:
            return None
        return known.went_on(entries, state)

    def events(self, match_id: str) -> list[MatchEvent]:
        """Every event of the match, in order, numbered from 1.

        :raises MatchNotFoundError: for an unknown match.
        """
        return self._store.history(match_id)

    def history(
        self,
        match_id: str,
        *,
        at: int | None = None,
        rulings_only: bool = False,
        last: int | None = None,
    ) -> list[HistoryEntry]:
        """The audit trail: each event numbered, dated, described; voided ones marked.

        ``at``: the trail as it stood after event ``at``.  ``rulings_only``: the
        rulings alone (USBGF 5.5: the director's record), each with what it
        voided or restored and whether it is still in force.  ``last``: the
        last ``last`` entries of that trail alone, exactly as the whole trail
        has them, for less than the whole trail costs (the pad's tail).

        :raises MatchNotFoundError: for an unknown match.
        """
        events = self._store.history(match_id)[:at]
        if rulings_only:
            rulings = [entry for entry in audit_history(events) if entry.ruling is not None]
            return rulings if last is None else rulings[max(len(rulings) - last, 0) :]
        return audit_history(events, last=last)

    def last_entry(self, match_id: str, at: int) -> HistoryEntry | None:
        """The trail's entry of event ``at`` as the trail stood after it (``history(match_id,
        at=at, last=1)``'s): as this process worded it when it recorded that event last in
        the match, else worked out from the events (None for no event).

        :raises MatchNotFoundError: for an unknown match or an event it does not have.
        """
        entry = self._fresh.last(str(match_uuid(match_id)), at)
        if entry is not None:
            return entry
        entries = self.history(match_id, at=at, last=1) if at else []
        return entries[-1] if entries else None

    def replay(self, match_id: str, at: int, view: str = "recorded") -> Step:
        """One step of a replay (USBGF 5.3): the match after event ``at`` in ``view``.

        ``view`` is ``recorded`` (as the log stood after event ``at``: its trail,
        its rulings then, nothing later) or ``corrected`` (that moment through
        every ruling in force today).  ``bgledger replay`` and the web replay
        render this one value.  The match's whole trail is folded once while the
        match has no new event (:class:`Replays`), so a step costs a read of the
        events stored since the last step and one fold up to ``at``.

        :raises MatchNotFoundError: for an unknown match or an event it does not have.
        :raises ValueError: for a view that is neither.
        """
        kept = self._replays.kept(match_id)
        if kept is None:
            events = self._store.history(match_id)
        else:  # a match's events are only ever appended: read those stored since
            events = [*kept.events, *self._events_after(match_id, len(kept.events))]
        if not 1 <= at <= len(events):
            raise MatchNotFoundError(
                f"match {match_id!r}: the match has events 1-{len(events)}: {at} is not one of them"
            )
        return step(match_id, self._replays.read(match_id, events), at, view, self.rule_text)

    def _events_after(self, match_id: str, number: int) -> list[MatchEvent]:
        """The events of the match numbered after ``number``, in order (none: none since)."""
        try:
            stored = self._store.events.get(match_uuid(match_id), gt=number)
            return [cast(MatchEvent, event) for event in stored]
        except UnreadableRowError as error:
            raise error.of(match_id) from None

    @cached_property
    def _replays(self) -> Replays:
        """The matches being stepped through (:meth:`replay`): the last few, read and folded."""
        return Replays()

    @staticmethod
    def rule_text(profile: str, rule: str) -> tuple[str, ...]:
        """The words of ``rule`` as rulebook ``profile`` quotes them, each quote once.

        The quotes are the profile's own (each value and decision it cites,
        ``bgledger.rules.profiles``): a ruling or a refusal that names
        ``rule`` can show what the rule says.  Empty for a rule the profile
        never cites.

        >>> Ledger.rule_text("usbgf-2016", "USBGF 5.2")
        ("The Ruling Committee may uphold, reverse, or modify the Tournament Director's rulings.",)

        A quote another one contains is left out.

        :raises UnknownProfileError: for a profile no rulebook has.
        """
        citations = get_profile(profile).citations()
        quotes = dict.fromkeys(c.quote for c in citations if c.rule == rule and c.quote)
        return tuple(q for q in quotes if not any(q != o and q in o for o in quotes))

    def match_ids(self) -> list[str]:
        """The id of every match, in the order they were started."""
        return self._store.match_ids()

    # -- recording: one method per command (DESIGN principle 1: decide, then record) ------

    def start(
        self,
        players: tuple[str, str],
        length: int,
        *,
        match_id: str | None = None,
        best_of_three: bool = False,
        no_time_forfeit: bool = False,
        new_event: bool = False,
        by: str,
        **options: Any,
    ) -> str:
        """Record a new match between players a and b; return its id (generated if not given).

        ``options`` are the setup's keyword arguments (profile, clock,
        crawford, event, round, table, meta, at, and the clock's reserve_ms,
        delay_ms, doubles: USBGF 3.5.5, CLOCK 2.1).  ``best_of_three``: one
        match of a best-of-three series (to 7 or less, breaks only between
        matches: USBGF 2.2.2).  ``no_time_forfeit``: the players agreed not to end the match
        if a reserve expires, as their score sheets say at its start (USBGF 3.5.2.1).

        The names are taken as people see them (:func:`~bgledger.rules.text.as_entered`:
        NFC-composed and trimmed).  An event whose name reads as an existing one's
        (case, spacing, a Greek or Cyrillic look-alike letter: :func:`event_key`) but is
        spelled otherwise is refused naming the existing one, unless ``new_event`` says it
        is another event.

        :raises MatchExistsError: if ``match_id`` is taken.
        :raises EventLooksLikeError: for an event named like an existing one.
        :raises InvalidMatchSetupError, UnknownProfileError, InvalidTimeError:
            for a setup that describes no match.
        """
        if best_of_three:
            options["meta"] = {**options.get("meta", {}), BEST_OF_THREE: "yes"}
        if no_time_forfeit:  # the score sheets' heading, as best-of-three is (USBGF 3.5.2.1)
            options["meta"] = {**options.get("meta", {}), NO_TIME_FORFEIT: "yes"}
        players = (as_entered(players[0]), as_entered(players[1]))
        for name in ("event", "round", "table"):
            if isinstance(options.get(name), str):
                options[name] = as_entered(options[name])
        if not new_event:
            self._check_event_name(options.get("event", ""))
        return self._store.start(players, length, match_id=match_id, by=by, **options)

    def _check_event_name(
        self,
        event: str,
        remedy: str = "give its name as it is spelled, or start another event on purpose "
        '(--new-event; "new_event": true in the API)',
    ) -> None:
        """Refuse an event named like an existing one but spelled otherwise; the message ends
        with ``remedy``.

        :raises EventLooksLikeError: naming the existing event.
        """
        if not event:
            return
        key = event_key(event)
        known = [
            name for name in self._models_as_they_are().event_names() if event_key(name) == key
        ]
        if not known or any(as_entered(name) == event for name in known):
            return  # a new event, or this very one
        existing = known[0]
        mine, theirs = look_alikes(event), look_alikes(existing)
        letters = f" (with {', '.join(mine)})" if mine else ""
        named = f" (with {', '.join(theirs)})" if theirs else ""
        raise EventLooksLikeError(
            f"event {event!r}{letters} reads as the existing event {existing!r}{named}: {remedy}"
        )

    def record(
        self,
        match_id: str,
        command: Command | str,
        *,
        by: str,
        at: str | None = None,
        key: str | None = None,
        grant: Grant | None = None,
    ) -> Recorded[Any]:
        """Record ``command`` (a :mod:`~bgledger.commands.vocabulary` value, or a line of the
        record language) in the match: the one entrance of every write to a match.

        ``at`` is the time of a command that gives none (default: now).  ``grant`` is the
        authority of a bearer token (:meth:`authorize`); without one, the local operator's
        (the shell, which holds the database itself).  The grant's token is checked again
        in the transaction that stores the command (revoked or expired since
        :meth:`authorize`: nothing is recorded, :class:`UnknownTokenError`).  The grant
        is checked against the command itself, the command an ``amend`` records, and
        the entry an ``undo`` or ``amend`` takes out of force (DESIGN principle 10).  A note
        posted with a token is said as its role's: its line keeps whose it is (``note --as
        director TEXT``, :meth:`~bgledger.commands.vocabulary.Note.said_as`).  ``key`` is
        the client's key: the same key again with the same command records nothing and
        answers what the first answered (``replayed``); with another command
        it is refused.  A command is all or nothing (``52: 13/x`` refused records no roll
        either).

        Times (:func:`~bgledger.commands.decide.stamp`): one more than a few seconds
        ahead of this machine's clock is refused, whoever gives it; a scorekeeper's
        time later than now is recorded as now (his lines take the server's time; an
        offline pad's earlier moment stands); an untimed command is stamped now, or at
        the match's last event at the table if that is later (a note or a copy's provenance
        keeps no match time): it is never refused for its time.

        :raises InvalidActionError: for a line that is no command.
        :raises RulesError: for dice, plays, levels or times that describe nothing.
        :raises ActionRefusedError: when the match refuses it, with the rule.
        :raises TokenScopeError: for a command the grant's role may not issue.
        :raises UnknownTokenError: for a grant whose token was revoked or expired since.
        :raises IdempotencyKeyReusedError: for a key used for another command.
        :raises ConcurrentWriteError: if another scorekeeper recorded first (nothing of
            ours was); retrying decides afresh.
        """
        if isinstance(command, str):
            from bgledger.commands.vocabulary import parse

            command = parse(command)
        if grant is not None:  # whose a note is: its token's role (its line says so)
            command = command.said_as(grant.role)
        said = str(command)
        if grant is not None:
            self._check_issuer(grant, match_id, command)
        keyed = None
        if key is not None:
            keyed = Keyed(match_id, checked_key(key), said)
            self._keys().ready()
        try:
            outcome = self._decide(match_id, command, by, at, keyed, grant)
        except BgLedgerError:
            # The key is looked up only when the command did not go in: a retry whose first
            # send was stored is refused as a repeat (``roll 6 4`` again) or, if the match
            # would take it again (``note x``), its key's row clashes with the first's and
            # the whole transaction rolls back (ConcurrentWriteError): either way, the first
            # answer, and nothing recorded twice.
            known = self._keys().find(match_id, keyed.key) if keyed is not None else None
            if keyed is None or known is None:
                raise
            return self._replayed(match_id, keyed, known)
        return self._recorded(match_id, outcome)

    def _decide(
        self,
        match_id: str,
        command: Command,
        by: str,
        at: str | None,
        keyed: Keyed | None,
        grant: Grant | None,
    ) -> tuple[MatchState, int, Any, Match]:
        """Decide and store ``command`` (:meth:`record`, the key not yet looked up)."""
        from bgledger.commands.vocabulary import Amend, Undo

        timed = command.timed(at)

        def decide(match: Match, history: list[MatchEvent]) -> tuple[MatchState, int, Any, Match]:
            before, version = match.state, match.version
            if grant is not None and isinstance(timed, Undo | Amend):
                self._check_correction(grant, match_id, history, timed)
            done, claim = timed, ""
            if grant is not None and timed.at is not None:
                # a token's time is a claim: taken as the ledger can vouch for it (principle 13)
                scorekeeper = grant.role == "scorekeeper"
                taken, claim = vouched_time(timed.at, before, claim_only=scorekeeper)
                done = replace(timed, at=taken)
            with match.claiming(claim):
                return before, version, done.perform(match, by, history), match

        # the token checked again as the line goes in (its body may have come in slowly), and
        # a scorekeeper's time against his token's last contact
        guard = None
        if grant is not None:
            claimed = claim_of(timed.at) if grant.role == "scorekeeper" else None
            guard = TokenBook.still_held(grant, claimed, FUTURE_TOLERANCE)
        if timed.needs_history or timed.reads_history:
            return self._store.rule(match_id, decide, keyed, guard)
        return self._store.act(match_id, lambda m: decide(m, []), keyed, guard)

    def record_line(
        self,
        match_id: str,
        line: str,
        *,
        by: str,
        at: str | None = None,
        key: str | None = None,
        grant: Grant | None = None,
    ) -> Recorded[Any]:
        """:meth:`record` of one line of the record language (``roll 5 2``, ``52: 13/8 13/11``).

        The path ``bgledger record``, the web pad and the director's desk share.

        :raises InvalidActionError: for a line that is no command; else as :meth:`record`.
        """
        from bgledger.commands.vocabulary import parse

        return self.record(match_id, parse(line), by=by, at=at, key=key, grant=grant)

    def _keys(self) -> KeyBook:
        if self._key_book is None:
            datastore = getattr(self._store.recorder, "datastore")  # noqa: B009
            self._key_book = KeyBook(datastore.transaction)
        return self._key_book

    def _replayed(self, match_id: str, keyed: Keyed, known: Found) -> Recorded[Any]:
        """The answer a keyed command first got, for its retry: nothing is recorded."""
        if known.command != keyed.command:
            raise IdempotencyKeyReusedError(
                f"Idempotency-Key {keyed.key!r} was used in match {match_id!r} for "
                f"{known.command!r}, not {keyed.command!r}; nothing was recorded: a new "
                "command takes a new key"
            )
        stored = self._store.history(match_id)
        events = tuple(stored[known.first - 1 : known.last])
        before = self._store.state(match_id, at=known.first - 1) if known.first > 1 else None
        after = self._store.state(match_id, at=known.last)
        entries = audit_history(stored[: known.last])[known.first - 1 :]
        state = before if before is not None else after
        return Recorded(match_id, events, state, after, None, tuple(entries), replayed=True)

    def _check_issuer(self, grant: Grant, match_id: str, command: Command) -> None:
        """The grant may issue ``command`` (and the command an ``amend`` records).

        :raises TokenScopeError: naming the command, the role it needs, and the rule.
        """
        from bgledger.commands.vocabulary import Amend

        needs = command.ruler
        if grant.may_claim(needs):
            return
        decision = command.command.decision if isinstance(command, Amend) else command.decision
        why = ""
        if decision is not None:
            why = f" ({get_profile(self.state(match_id).profile).cite(decision)})"
        raise TokenScopeError(
            f"{str(command)!r} is the {needs}'s{why}: this token ({grant.label}) is a "
            f"{grant.role}'s; record it with the {needs}'s token"
        )

    @staticmethod
    def _check_correction(
        grant: Grant, match_id: str, history: Sequence[MatchEvent], command: Undo | Amend
    ) -> None:
        """An ``undo`` or ``amend`` may take out of force only an entry the grant may issue,
        checked before the match decides anything (a pad is told 403, not the rules' 409).

        :raises TokenScopeError: for a director's act (penalty points, a clock set ...).
        """
        from bgledger.commands.vocabulary import Undo, ruler_of_events

        found = entries_in_force(history)
        if isinstance(command, Undo):
            entry = found[-1] if found else None
        else:
            entry = next((e for e in found if e.number == command.entry), None)
        needs = ruler_of_events(entry.events) if entry is not None else ""
        if entry is not None and not grant.may_claim(needs):
            raise TokenScopeError(
                f"{str(command)!r}: entry {entry.number} of match {match_id!r} is the {needs}'s "
                f"act; this token ({grant.label}) is a {grant.role}'s and may not withdraw or "
                "amend it"
            )

    def _recorded(self, match_id: str, outcome: tuple[MatchState, int, T, Match]) -> Recorded[T]:
        """The :class:`Recorded` of a stored command, worked out once: its events as the match
        made and stored them, worded as ``history`` words them from the states the command's
        own fold left after each (:attr:`~bgledger.commands.stream.MatchStream.collected`),
        and handed on to this process's watchers (:meth:`watch`).

        A ruling or a correction (worded from the events it names), or events the match
        did not keep, are read back and the trail worded as before.
        """
        before, version, result, match = outcome
        steps = match.collected
        numbers = [event.originator_version for event, _ in steps]
        entries = None
        if numbers == list(range(version + 1, match.version + 1)) and numbers:
            entries = folded_entries(steps, before if version > 0 else None, None)
        if entries is None or _names_previous(steps):
            done = self._read_back(match_id, outcome)
        else:
            events = tuple(event for event, _ in steps)
            done = Recorded(match_id, events, before, match.state, result, tuple(entries))
        self._hand_on(done)
        return done

    def watch(self, listener: Callable[[Recorded[Any]], None]) -> None:
        """Have ``listener`` told each :class:`Recorded` this ledger records, as it is recorded
        (not a retried key's answer): a live feed goes on from it without reading or folding
        it again (:class:`bgledger.web.feeds.FeedHub`).  Other processes' writes reach no
        listener: they are followed from the log.  A listener must not raise or block.
        """
        self._listeners.append(listener)

    def _hand_on(self, done: Recorded[Any]) -> None:
        """``done`` to the read models' catch-up (its state, which the recording fold made)
        and to every listener (:meth:`watch`)."""
        self._fresh.put(str(match_uuid(done.match_id)), done)
        for listener in self._listeners:
            try:
                listener(done)
            except Exception:  # a watcher's fault never fails a stored write
                _log.exception("a listener of %r failed", done.match_id)

    def _read_back(self, match_id: str, outcome: tuple[MatchState, int, T, Match]) -> Recorded[T]:
        """:meth:`_recorded` by reading the events back as stored and wording them there."""
        before, version, result, match = outcome
        stored = self._store.events.get(
            match_uuid(match_id), gt=max(version - 1, 0), lte=match.version
        )
        read = [cast(MatchEvent, event) for event in stored]
        first = read[0] if read else None
        previous = first if first is not None and first.originator_version == version else None
        events = tuple(read[1:] if previous is not None else read)
        entries = recorded_entries(events, before if version > 0 else None, previous)
        if entries is None:  # a ruling or a correction is worded from the events it names
            entries = audit_history(self._store.history(match_id)[: match.version])[version:]
        return Recorded(match_id, events, before, match.state, result, tuple(entries))

    def open_rulings(self, match_id: str, event: int) -> tuple[RulingOption, ...]:
        """The rulings that could be made on ``event`` now, and those whose windows have closed.

        Each of the match's ruling commands (``revert``, ``void-cube`` ...) is tried on
        a copy of the match, as the director would make it (the committee for
        ``overturn``), first without, then with the players' agreement (USBGF
        4.2.3(f)); nothing is stored.  A ruling that does not apply to that kind of
        event is left out; one refused is listed closed, with the refusal's reason
        and rule.  The director's picker (``GET /api/matches/M/rulings?event=N``).

        :raises MatchNotFoundError: for an unknown match.
        :raises InvalidRulingError: for an event the match does not have.
        """
        match, history = self._store.to_rule_on(match_id)
        if not 1 <= event <= len(history):
            raise InvalidRulingError(
                f"event {event}: match {match_id!r} has events 1-{len(history)}"
            )
        from bgledger.commands.vocabulary import RULES

        profile = match.state.profile
        return tuple(
            option
            for kind in RULES
            if (option := _try_ruling(match, history, kind, event, profile)) is not None
        )

    # -- files ----------------------------------------------------------------------------

    def import_file(
        self,
        path: Path,
        *,
        match_id: str | None = None,
        profile: str = DEFAULT_PROFILE,
        by: str = "import",
        again: bool = False,
        seal: Path | None = None,
        pub: Path | None = None,
    ) -> list[Imported]:
        """Store every match of a ``.mat`` transcription or a JSON copy (``.json``), all or none.

        Illegal plays, forbidden doubles and concessions in a transcription
        are recorded as played and flagged (DESIGN principle 2); a JSON copy
        is re-decided event by event, rulings included.  A match already in
        the ledger (the same players, length and games, whatever the file is
        called: :func:`~bgledger.interchange.files.content_key`) is refused
        unless ``again``.  A JSON copy's import records whether it was sealed by
        a key the importer trusts: ``seal`` (a ``bgledger seal`` file) signed by
        the key in ``pub`` and vouching for the copy's events; the copy is
        refused if it does not (:func:`~bgledger.interchange.json_stream.sealed_through`).
        Without them, the match is recorded as imported from an unsealed copy
        (:meth:`provenance`).

        :raises ImportRefusedError: for a file that cannot be read, understood
            or stored (the match id taken, the match already there), with the
            line and the reason.
        """
        from bgledger.interchange.files import import_file

        checked: dict[str, tuple[int, str]] = {}  # the key of each match checked, by its id
        same = None if again else partial(self._same_match, checked=checked)
        stored = import_file(
            self._store,
            path,
            match_id=match_id,
            profile=profile,
            by=by,
            same=same,
            seal=seal,
            pub=pub,
        )
        copy = path.suffix.lower() == ".json"  # a .mat import records no CopyImported
        for one in stored:  # stored as checked: the key the check worked out is the stored match's
            key = checked.get(one.match_id)
            if key is not None and key[0] == one.match.version and not copy:
                self._content_keys[one.match_id] = key
        return [
            Imported(
                one.match_id,
                one.name,
                one.match.state,
                one.games,
                one.illegal_plays,
                one.abandoned,
                tuple(one.notes),
                self.provenance(one.match_id) if copy else None,
            )
            for one in stored
        ]

    def provenance(self, match_id: str) -> str | None:
        """Where the match came from, if it was imported from a JSON copy: sealed or not.

        None for a match recorded here (or imported from a ``.mat`` transcription).

        :raises MatchNotFoundError: for an unknown match.
        """
        return provenance(self._store.history(match_id))

    def _same_match(
        self,
        events: Sequence[MatchEvent],
        states: Sequence[MatchState] | None = None,
        *,
        checked: dict[str, tuple[int, str]] | None = None,
    ) -> str | None:
        """The id of a stored match that is the match of ``events``, or None.

        The read models give the matches between the same players at the same
        length (:meth:`~bgledger.projections.readmodels.tracking.ReadModels.like`,
        which does not catch up: an import does not wait on them); each is
        compared by :func:`~bgledger.interchange.files.content_key`, worked out
        from its events (DESIGN principle 8: caches never decide).  ``states``,
        the state after each event as recorded (a new match's), spares that key a
        fold.  A match without rulings has the players and the length its
        :class:`~bgledger.events.MatchStarted` gives (only a ruling corrects a
        length); with any, they are the match's as corrected.  ``checked`` gets the key
        worked out, by the match's id with its number of events: :meth:`import_file` keeps
        it for the match once stored, so that the next file between the same players need
        not read the match back and fold it again for its key.
        """
        from bgledger.interchange.files import content_key

        start = events[0] if events else None
        if isinstance(start, MatchStarted) and not any(map(needs_history, events)):
            players, length = (start.player_a, start.player_b), start.length
        else:
            state = corrected(events)
            if state is None:
                return None
            players, length = state.players, state.length
        candidates = self._models_as_they_are().like(players, length)
        key = content_key(events, states) if candidates else None
        if key is None:
            return None
        if checked is not None and isinstance(start, MatchStarted):
            checked[start.match_id] = (len(events), key)  # for the caller, once it is stored
        for match_id in candidates:
            if self._content_key(match_id) == key:
                return match_id
        return None

    def _content_key(self, match_id: str) -> str | None:
        """The content key of a stored match, worked out again only if it has grown since."""
        from bgledger.interchange.files import content_key

        stream = match_uuid(match_id)
        last = next(self._store.events.get(stream, desc=True, limit=1), None)
        version = 0 if last is None else last.originator_version
        known = self._content_keys.get(match_id)
        if known is None or known[0] != version:
            known = (version, content_key(self._store.history(match_id)))
            self._content_keys[match_id] = known
        return known[1]

    def export(self, match_id: str, kind: str, at: int | None = None) -> str:
        """The match as ``kind``, one of :data:`EXPORT_FORMATS`; ``at``: as recorded after
        event ``at`` (a delayed spectator's ``.mat``).

        ``json`` is every event as recorded, rulings included (lossless: import
        reads it back); ``mat`` and the score sheets (USBGF 4.7) are the match
        as corrected by the rulings in force; ``sgf`` is the match as corrected,
        as gnubg saves it, its rulings, flags and notes as comments.

        :raises MatchNotFoundError: for an unknown match.
        :raises UnwritableNameError: for a player name a .mat file cannot hold.
        :raises ValueError: for an unknown ``kind``.
        """
        from bgledger.interchange.json_stream import export_json
        from bgledger.interchange.mat_writer import export_mat
        from bgledger.interchange.sgf_writer import export_sgf
        from bgledger.projections.views.scoresheet import scoresheet_html, scoresheet_text

        events = self._store.history(match_id)[:at]
        if kind == "mat":
            return export_mat(events)
        if kind == "json":
            return json.dumps(export_json(events), ensure_ascii=False, indent=1) + "\n"
        if kind == "sgf":
            return export_sgf(events)
        if kind not in EXPORT_FORMATS:
            raise ValueError(f"export format {kind!r}: one of {', '.join(EXPORT_FORMATS)}")
        from bgledger.store.receipt import receipt_lines

        state = corrected(events)
        assert state is not None  # the history of a match begins with MatchStarted
        render = scoresheet_text if kind == "scoresheet" else scoresheet_html
        sealed = self._seals().receipt_of(match_id, events)
        return render(state, events, receipt_lines(sealed) if sealed is not None else ())

    # -- tamper evidence -------------------------------------------------------------------

    def verify(
        self,
        match_id: str | None = None,
        *,
        seal: Seal | None = None,
        allow_unchained: bool = False,
    ) -> list[Verdict]:
        """Check one match, or every stream, against its events (DESIGN principles 6 and 8).

        Every link of the hash chain is recomputed, with the latest snapshot as
        a witness of the length; with ``seal`` (:meth:`check_seal`), the stream
        must still extend it.  Then every snapshot is compared with the match
        folded again from its events, and every read-model row with the rows
        the events give (a row whose match has no events left is a deleted
        match).  Of every match, a SQLite ledger's notification log must also
        have no hole (:func:`~bgledger.store.integrity.log_gaps`).  Events
        without a chain fail unless ``allow_unchained`` (a ledger recorded
        before hash chains).  The checks are
        :func:`~bgledger.store.integrity.verify_ledger`'s.  Without
        ``match_id``, the events' publications too (which are no match's):
        each row that breaks what their table holds to
        (:meth:`~bgledger.publication.PublicationBook.audit`) is a verdict of
        ``bgledger_publications`` with the problem ``publication``.

        :raises MatchNotFoundError: for an unknown match (one the read models
            list is reported as deleted instead).
        """
        from bgledger.projections.readmodels.row_audit import audit_read_models
        from bgledger.store.integrity import Problem, Verdict, verify_ledger

        verdicts = verify_ledger(
            self._store,
            match_id,
            audit=audit_read_models,
            seal=seal,
            allow_unchained=allow_unchained,
        )
        if match_id is None:
            # the events matches were started in, once the events hold (else not read)
            held = all(verdict.ok for verdict in verdicts)
            names = {started.event for started in self._store.started()} if held else None
            for finding in self._publishing().audit(names):
                problem = Problem(0, "publication", finding.why)
                verdicts.append(Verdict(PUBLICATIONS.name, problem=problem))
        return verdicts

    @staticmethod
    def check_seal(path: Path, *, pub: Path, match_id: str | None = None) -> Seal:
        """The seal in ``path``, its signature and its signer (the key in ``pub``) checked.

        The key inside a seal proves nothing by itself (anyone can make a key
        and sign): the seal must be signed by the director's key, given apart.

        :raises InvalidSealError: for an unreadable seal or key, or a seal of
            another match than ``match_id``.
        :raises SealRefusedError: for a seal whose signature or signer does not match.
        """
        from bgledger.store.seal import check_seal

        return check_seal(path, pub=pub, match_id=match_id)

    def seal_ledger(self, key: Path, out: Path | None = None) -> Seal:
        """A director's signed digest of every match as it stands (``seal --all``).

        Every match is verified first; a ledger with a mismatch, or a match whose
        last event was recorded before hash chains, is not sealed.  ``verify --seal``
        with it names any sealed match later deleted, on any store.

        :raises InvalidSealError: for an unreadable key, or a seal file that cannot be written.
        :raises SealRefusedError: for a ledger that cannot be sealed.
        """
        from bgledger.store.seal import seal_ledger

        return seal_ledger(self.verify, key, out)

    def seal(self, match_id: str, key: Path, out: Path | None = None) -> Seal:
        """A director's signed digest of the match as it stands (written to ``out`` if given).

        The match is verified first: one with a mismatch, or whose last event
        was recorded before hash chains, is not sealed.  The seal signs the
        match's result then too, and is kept beside the events: it is the
        receipt (:mod:`~bgledger.store.receipt`) its score sheet prints.

        :raises InvalidSealError: for an unreadable key, or a seal file that cannot be written.
        :raises SealRefusedError: for a match that cannot be sealed.
        :raises MatchNotFoundError: for an unknown match.
        """
        from bgledger.store.seal import seal_match

        def result(events: int) -> str:
            return _result(self._store.history(match_id)[:events])

        made = seal_match(self.verify, match_id, key, out, result)
        self._seals().keep(made)
        return made

    def _seals(self) -> SealBook:
        from bgledger.store.receipt import SealBook

        if self._seal_book is None:
            datastore = getattr(self._store.recorder, "datastore")  # noqa: B009
            self._seal_book = SealBook(datastore.transaction)
        return self._seal_book

    def seals_kept(self, match_id: str) -> int:
        """How many seals of ``match_id`` this ledger keeps (a new one changes its score sheet)."""
        return len(self._seals().seals(match_id))

    def receipt(self, match_id: str) -> Seal | None:
        """The receipt of ``match_id``: its latest seal that its events still extend (a
        kept seal is checked against them, and its signature, before it is shown).

        :raises MatchNotFoundError: for an unknown match.
        """
        return self._seals().receipt_of(match_id, self._store.history(match_id))

    def check_receipt(
        self, text: str, name: str, *, pub: Path | None = None, kept_only: bool = False
    ) -> ReceiptCheck:
        """A receipt (``text``, from ``name``) checked against this ledger.

        Its signature is checked, and its signer: the director's public key in
        ``pub``, else whether this ledger kept a seal made with the same key.
        The match is verified first (:meth:`verify`), then its events up to the
        sealed one must be those sealed and give its result.  ``kept_only`` (a page
        anyone may ask): a receipt whose key never sealed its match in this ledger
        is refused before the match is read, in the same words whether the match
        exists or not.

        :raises InvalidReceiptError: for a receipt that cannot be read or whose printed
            lines differ from its code.
        :raises InvalidSealError: for an unreadable ``pub``.
        :raises SealRefusedError: for a signature that does not match, or another signer.
        :raises MatchNotFoundError: for a match this ledger does not hold.
        """
        from bgledger.store.receipt import check_receipt, read_receipt

        seal = read_receipt(text, name)
        fingerprint = seal.public_key[:16]
        kept = any(k.public_key == seal.public_key for k in self._seals().seals(seal.match_id))
        if kept_only and not kept:
            raise SealRefusedError(
                f"{seal.match_id}: this ledger keeps no seal of match {seal.match_id!r} made "
                f"with the receipt's key ({fingerprint}...): check it against the ledger or "
                "the copy its director named"
            )
        signer = _signer(seal, name, pub)
        if pub is None and kept:
            signer = f"signed by key {fingerprint}..., which sealed this match in this ledger"
        (verdict,) = self.verify(seal.match_id)
        events = self._store.history(seal.match_id)
        checked = check_receipt(seal, events, "this ledger", _result, signer)
        if not verdict.ok:
            differences = (verdict_text(verdict), *checked.differences)
            return replace(checked, differences=differences)
        return checked

    @staticmethod
    def check_receipt_copy(
        text: str, name: str, copy: Path, *, pub: Path | None = None
    ) -> ReceiptCheck:
        """A receipt (``text``, from ``name``) checked against a JSON ``copy`` of its match
        (``export --format json``), with no ledger: its events are linked afresh from their
        content, and must be those sealed and give its result.  The signer as
        :meth:`check_receipt`, by ``pub`` only.

        :raises InvalidReceiptError: for a receipt or copy that cannot be read.
        :raises InvalidMatchJsonError: for a copy that is no match's export.
        :raises InvalidSealError: for an unreadable ``pub``.
        :raises SealRefusedError: for a signature that does not match, another signer,
            or a copy of another match.
        """
        from bgledger.events.chain import rechain
        from bgledger.interchange.json_stream import read_json
        from bgledger.interchange.mat import read_bounded
        from bgledger.store.receipt import InvalidReceiptError, check_receipt, read_receipt

        seal = read_receipt(text, name)
        signer = _signer(seal, name, pub)
        try:
            written = read_bounded(copy).decode("utf-8", errors="replace")
        except OSError as error:
            raise InvalidReceiptError(
                f"copy {copy}: cannot be read: {error.strerror or error}"
            ) from None
        document = read_json(written, name=str(copy))
        if document.match_id != seal.match_id:
            raise SealRefusedError(
                f"{copy}: the copy is of match {document.match_id!r}, the receipt of "
                f"{seal.match_id!r}"
            )
        events = rechain(document.events)
        return check_receipt(seal, events, f"the copy {copy}", _result, signer)

    @staticmethod
    def keygen(path: Path) -> Path:
        """Write a director's Ed25519 key pair: ``path`` (private, PEM) and ``path.pub``.

        Returns the public key's path.

        :raises InvalidSealError: if ``path`` exists or a file cannot be written.
        """
        from bgledger.store.seal import keygen as make_key_pair

        return make_key_pair(path)

    # -- who may record through the web server (bgledger.access) ------------------------

    def _transaction(self) -> AbstractContextManager[Connection]:
        """One write transaction of the ledger's database: what runs in it joins it."""
        datastore = getattr(self._store.recorder, "datastore")  # noqa: B009
        return cast("AbstractContextManager[Connection]", datastore.transaction(True))

    def _tokens(self) -> TokenBook:
        if self._token_book is None:
            datastore = getattr(self._store.recorder, "datastore")  # noqa: B009
            self._token_book = TokenBook(datastore.transaction)
        return self._token_book

    def issue_token(
        self,
        role: str,
        *,
        match_id: str | None = None,
        event: str | None = None,
        label: str | None = None,
        expires: str | None = None,
    ) -> str:
        """A new bearer token for ``bgledger serve`` (printed once; the ledger keeps its hash).

        A scorekeeper's records in ``match_id`` only; a director's in the matches
        of ``event`` (or of ``match_id``); a committee's in its scope, or every
        match without one.  ``label`` is who the events it records are ``by``
        (default: the role and the scope, ``scorekeeper of final``).  ``expires``:
        a duration (``8h``) or a time after which it records nothing (refused 401).

        An ``event`` is taken as people see it (NFC-composed, trimmed); one whose name reads
        as an existing event's but is spelled otherwise is refused naming it (its matches
        could be started only under a name that looks like theirs).

        :raises InvalidGrantError: for a role, scope, label or expiry that grants nothing.
        :raises EventLooksLikeError: for an event named like an existing one.
        :raises MatchNotFoundError: for an unknown match.
        """
        if event is not None:
            event = as_entered(event)
            self._check_event_name(event, "name it as it is spelled")
        grant = Grant.checked(role, match_id, event, label)
        until = expiry(expires) if expires is not None else None
        if match_id is not None:
            self.state(match_id)  # the match exists
        return self._tokens().issue(grant, expires=until)

    def event_hint(self, event: str) -> str | None:
        """What to say of ``event`` when a token is issued for it: None when a match of it was
        started, else that none was yet, with the events named like it ("did you mean"), as
        :meth:`publish` says when it refuses one.  A director's token may come before the
        event's matches (he starts them); a misspelt event would serve none of them."""
        event = as_entered(event)
        names = {started.event for started in self._store.started()}
        if event in names:
            return None
        close = difflib.get_close_matches(event, sorted(names - {""}), n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        return (
            f"event {event!r}: no match of it was started yet; the token serves its matches "
            f"once they are ('bgledger start --event E', 'bgledger list'){hint}"
        )

    def tokens(self) -> list[TokenEntry]:
        """Every token issued, in force or not, in the order issued: never a secret."""
        return self._tokens().entries()

    def authorize(self, token: str | None, match_id: str) -> Grant:
        """What ``token`` grants in ``match_id``: its role and label (who its events are by).

        What the grant may issue is checked on each command by :meth:`record` (``grant=``).

        :raises UnknownTokenError: for no token, or one never issued or revoked.
        :raises TokenScopeError: for a token of another match or event.
        :raises MatchNotFoundError: for an unknown match.
        """

        def covers(grant: Grant) -> None:  # before "last used" moves: never on a refusal
            grant.check_covers(match_id, lambda: self.state(match_id).event)

        return self._tokens().held(token, "bgledger token MATCH --role scorekeeper", covers)

    def starter(self, token: str | None) -> Grant:
        """The grant of ``token``, if it may start some match: checked before a setup is
        read (:meth:`start_match` checks the setup's event against it).

        :raises UnknownTokenError: for no token, or one never issued or revoked.
        :raises TokenScopeError: for a token that starts no match (a scorekeeper's, one match's).
        """
        ask = "bgledger token --event E --role director"
        return self._tokens().held(token, ask, Grant.check_starts_some)

    def start_match(self, token: str | None, setup: object, *, key: str | None = None) -> Started:
        """Start the match ``setup`` describes, for ``token``'s holder, and issue its pad's token.

        ``setup`` is ``start``'s options as a JSON object (:data:`START_FIELDS`):
        ``{"a": "Ann", "b": "Bob", "length": 7, "event": "Open"}``.  A director's
        token starts matches of its event, the committee's any match (its event's,
        if it has one); the match is recorded ``by`` the token's label, and a
        scorekeeper's token for it is issued.  Nothing is stored on a refusal.
        ``key`` is the client's key: the same key again from the same token with the
        same setup starts nothing and answers the same match and pad token
        (``replayed``); with another setup it is refused.

        :raises UnknownTokenError: for no token, or one never issued or revoked.
        :raises InvalidMatchSetupError: for a setup that is no JSON object of
            :data:`START_FIELDS` (or, as :meth:`start`, describes no match).
        :raises TokenScopeError: for a token that may not start a match of the event.
        :raises MatchExistsError: if its ``id`` is taken.
        :raises IdempotencyKeyReusedError: for a key this token used for another setup.
        """
        grant = self.starter(token)
        assert token is not None  # held() refuses none
        players, length, match_id, label, options = _start_options(setup)
        grant.check_starts(options["event"])
        said = json.dumps(setup, sort_keys=True, ensure_ascii=False)
        scope = f"start:{digest(token)[:32]}"  # a key replays for the token that sent it
        keyed = None
        if key is not None:
            keyed = Keyed(scope, checked_key(key), said)
            known = self._keys().find(scope, key)
            if known is not None:
                return self._started_again(grant, keyed, known, token)
        chosen = match_id or self._store.new_id()
        pad_grant = Grant.checked("scorekeeper", chosen, None, label)  # before anything is stored
        pad = new_token()
        if keyed is not None:
            keyed = replace(keyed, answer=f"{chosen} {seal(pad, token, keyed.key)}")
        tokens = self._tokens()
        tokens.ready()  # the table is made in a transaction of its own
        try:
            with self._transaction():  # the match and its pad's token, or neither
                self.start(players, length, match_id=chosen, by=grant.label, keyed=keyed, **options)
                tokens.issue(pad_grant, pad)
        except MatchExistsError:
            self._store.forget(chosen)
            known = self._keys().find(scope, keyed.key) if keyed is not None else None
            if keyed is None or known is None:
                raise
            return self._started_again(grant, keyed, known, token)  # the same key won the race
        except BaseException:
            self._store.forget(chosen)  # the cache must not keep what was rolled back
            raise
        return Started(chosen, grant.label, pad)

    def _started_again(self, grant: Grant, keyed: Keyed, known: Found, token: str) -> Started:
        """The answer a keyed start first got: the same match and pad token (issued if the
        first send stopped before it was)."""
        if known.command != keyed.command:
            raise IdempotencyKeyReusedError(
                f"Idempotency-Key {keyed.key!r} started a match from {known.command}, not "
                f"{keyed.command}; nothing was started: a new match takes a new key"
            )
        chosen, _, sealed = known.answer.partition(" ")
        pad = unseal(sealed, token, keyed.key)
        if self._tokens().grant(pad) is None:
            label = json.loads(keyed.command).get("scorekeeper") or None
            self._tokens().issue(Grant.checked("scorekeeper", chosen, None, label), pad)
        return Started(chosen, grant.label, pad, replayed=True)

    def revoke_token(self, what: str) -> list[TokenEntry]:
        """Revoke the token ``what`` is: the token itself, its id (``token --list``) or its
        label (every token in force with that label).  It records nothing more.

        Returns the tokens revoked (a lost phone's, without its secret).

        :raises UnknownTokenError: if no token in force is ``what``.
        """
        return self._tokens().revoke(what)

    # -- an event's wall, open to spectators or not (bgledger.publication) ----------------

    def _publishing(self) -> PublicationBook:
        if self._publication_book is None:
            datastore = getattr(self._store.recorder, "datastore")  # noqa: B009
            self._publication_book = PublicationBook(datastore.transaction, self._keys())
        return self._publication_book

    def publisher(self, token: str | None, event: str) -> Grant:
        """The grant of ``token``, if it may open or close the wall of ``event``: the event's
        director's (checked before a body is read; :meth:`publish` checks it again).

        :raises UnknownTokenError: for no token, or one never issued, revoked or expired.
        :raises TokenScopeError: for any token but the event's director's.
        """
        ask = "bgledger token --event E --role director"
        return self._tokens().held(token, ask, lambda grant: grant.check_publishes(event))

    def publish(
        self,
        event: str,
        *,
        on: bool = True,
        by: str,
        grant: Grant | None = None,
        key: str | None = None,
        delay: int = 0,
    ) -> Published:
        """Open the wall of ``event`` to spectators (``on``), or close it, recorded ``by`` whom.

        ``delay``: the seconds spectators see every match behind (0: live; at most a
        day; :func:`~bgledger.publication.parse_delay` reads ``15m``); publishing with
        another delay than the wall's is a change.

        The wall is as the latest change left it (:meth:`published`); a change that
        leaves it as it is records nothing and says so.  ``grant`` is the authority of a
        bearer token (:meth:`publisher`): only the event's director's; without one, the
        local operator's (the shell, which holds the database itself).  ``key`` is the
        client's key: the same key again answers what the first send answered.

        :raises TokenScopeError: for a grant that is not the event's director's.
        :raises EventNotFoundError: for an event no match was started in.
        :raises InvalidDelayError: for a delay that is none, or one given with ``on`` false.
        :raises InvalidIdempotencyKeyError: for a key that cannot be one.
        :raises IdempotencyKeyReusedError: for a key used for the other change.
        """
        if grant is not None:
            grant.check_publishes(event)
        checked_delay(delay)
        names = {started.event for started in self._store.started()}
        if not event.strip() or event not in names:
            close = difflib.get_close_matches(event, sorted(names - {""}), n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            raise EventNotFoundError(
                f"event {event!r}: no match of it was started (an event is published once its "
                f"matches are: 'bgledger start --event E', 'bgledger list'){hint}"
            )
        done = self._publishing().change(event, on, by, key, delay)
        self._publication_changes += 1
        return done

    @property
    def publication_changes(self) -> int:
        """How many publications this process changed: an answer of :meth:`may_read` kept
        for a moment (the web server's) is stale once it moves (another process's change
        shows once the moment is past)."""
        return self._publication_changes

    def published(self, event: str) -> bool:
        """True if the wall of ``event`` is open to spectators: its latest change opened it."""
        return self._publishing().latest(event).published

    def publication(self, event: str) -> Publication:
        """The wall of ``event`` as its latest change left it: open or not, who, when."""
        return self._publishing().latest(event)

    def publications(self, event: str) -> list[Publication]:
        """Every change of the wall of ``event``, the first first: who opened or closed it, when."""
        return self._publishing().history(event)

    # -- who reads what (DESIGN principle 14) ------------------------------------------------

    def reader(self, token: str | None) -> Grant | None:
        """The grant of a token sent with a read (None: no token sent).

        :raises UnknownTokenError: for a token never issued, revoked or expired.
        """
        if not token:
            return None
        return self._tokens().held(token, "ask the director for a new link", mark=False)  # a read

    def may_read(self, match_id: str, grant: Grant | None, *, desk: bool = False) -> bool:
        """True if ``grant`` (None: no token) may read ``match_id``: the one gate of every read.

        A token that reaches the match (:meth:`Grant.reads`) reads it; anyone reads it
        once its event is published (a match in no event never is); the director's desk
        (``desk``) is never opened by publication, nor are the notes (:meth:`reads_notes`).
        False for an unknown match.
        """
        try:
            event = self.state(match_id).event
        except MatchNotFoundError:
            return False
        if grant is not None and grant.reads(match_id, event, desk=desk):
            return True
        return not desk and bool(event) and self.published(event)

    def reads_notes(self, match_id: str, grant: Grant | None) -> bool:
        """True if ``grant`` reads the notes of ``match_id`` (``note TEXT``, for the record): a
        token that reaches the match (its scorekeeper, the director, the committee).  A
        spectator, who reads it because its event is published, reads the match without
        them.  False for an unknown match."""
        if grant is None:
            return False
        try:
            event = self.state(match_id).event
        except MatchNotFoundError:
            return False
        return grant.reads(match_id, event)

    def may_read_event(self, event: str | None, grant: Grant | None, *, desk: bool = False) -> bool:
        """True if ``grant`` may read every match of ``event`` (None: the whole ledger): a token
        that reaches the event (:meth:`Grant.reads_event`), or anyone once it is published;
        the director's console (``desk``) is never opened by publication."""
        if grant is not None and grant.reads_event(event, desk=desk):
            return True
        return not desk and event is not None and self.published(event)

    def read_delay(self, match_id: str, grant: Grant | None) -> int:
        """The seconds behind ``grant`` (None: no token) sees ``match_id``: its event's
        publication delay (``publish --delay``) for a spectator, 0 (live) for a token that
        reaches the match (its scorekeeper, the director, the committee) or an event
        published live.  0 for an unknown match (the read gate refuses it anyway)."""
        try:
            event = self.state(match_id).event
        except MatchNotFoundError:
            return 0
        if not event or (grant is not None and grant.reads(match_id, event)):
            return 0
        return self.read_delay_event(event, None)

    def read_delay_event(self, event: str | None, grant: Grant | None) -> int:
        """The seconds behind ``grant`` sees the wall of ``event`` (:meth:`read_delay`)."""
        if event is None or (grant is not None and grant.reads_event(event)):
            return 0
        publication = self.publication(event)
        return publication.delay if publication.published else 0

    def events_as_of(self, match_id: str, when: datetime) -> int:
        """How many events of ``match_id`` the match had as it stood at ``when``: those before
        the first whose time (``at``, as recorded) is later; at least 1 (the start), so a
        match begun since shows as not begun.  A late entry (received after ``when`` but
        dated before it) counts by its time.  Reads only the events stored since the last
        asking (the times are kept by match).

        :raises MatchNotFoundError: for an unknown match.
        """
        kept = self._event_times.get(match_id)
        if kept is None:
            events: Sequence[MatchEvent] = self._store.history(match_id)
            kept = ()
        else:
            events = self._events_after(match_id, len(kept))
        if events:
            times = list(kept)
            latest = times[-1] if times else -(2**62)
            for event in events:
                latest = max(latest, at_ms(event.at))
                times.append(latest)
            kept = tuple(times)
            if len(self._event_times) >= 4096:  # bounded: forget the oldest
                self._event_times.pop(next(iter(self._event_times)), None)
            self._event_times[match_id] = kept
        cutoff = round(when.timestamp() * 1000)
        return max(1, bisect.bisect_right(kept, cutoff))

    def delayed_events(self, match_id: str, delay: int) -> int | None:
        """The event a reader ``delay`` seconds behind sees the match after (None: live,
        for a delay of 0): :meth:`events_as_of` now less the delay."""
        if not delay:
            return None
        return self.events_as_of(match_id, datetime.now(UTC) - timedelta(seconds=delay))

    def check_read(self, match_id: str, grant: Grant | None, *, desk: bool = False) -> None:
        """Refuse a read :meth:`may_read` does not allow, as an unknown match is refused.

        :raises UnreadableError: for an unknown match and a private one alike.
        """
        if not self.may_read(match_id, grant, desk=desk):
            raise UnreadableError(_unreadable(f"match {match_id!r}", grant, desk))

    def check_read_event(
        self, event: str | None, grant: Grant | None, *, desk: bool = False
    ) -> None:
        """Refuse a read :meth:`may_read_event` does not allow (an unknown event alike).

        :raises UnreadableError: for an event (or the ledger) this grant may not read.
        """
        if not self.may_read_event(event, grant, desk=desk):
            what = "the whole ledger" if event is None else f"event {event!r}"
            raise UnreadableError(_unreadable(what, grant, desk))

    # -- the tournament-wide views ---------------------------------------------------------

    def _read_models(self) -> ReadModels:
        """The read models, caught up with every event recorded since the last read."""
        models = self._models_as_they_are()
        models.catch_up()
        return models

    def _models_as_they_are(self) -> ReadModels:
        """The read models, not caught up."""
        from bgledger.projections.readmodels.tracking import ReadModels

        if self._models is None:
            with self._models_made:  # a server's first pages come together: one makes them
                if self._models is None:
                    self._models = ReadModels(self._store, folded=self._fresh.get)
        return self._models

    def matches(
        self,
        event: str | None = None,
        *,
        ids: Sequence[str] | None = None,
        states: bool = False,
    ) -> list[dict[str, Any]]:
        """Every match (of ``event``; only ``ids``, if given), in the order started: one
        read-model row each.

        Each row has the match's columns, ``summary`` (``show --json``'s
        document as JSON text) and ``status`` in words; with ``states``, ``state``
        too: the :class:`MatchState` the row keeps (the one ``verify`` checks
        against the events), without folding the match (folded only if the row's
        state is in an older form).
        """
        rows = self._read_models().matches(event, ids=ids, state=states)
        from bgledger.projections.readmodels.rows import status_text

        listed = [{**row, "status": status_text(row)} for row in rows]
        for row in listed:
            if '"now":' not in row["summary"]:  # a row kept before the summary had the answer
                row["summary"] = self._summary_now(row)
        if states:
            for row in listed:
                row["state"] = self._row_state(row)
        return listed

    def _summary_now(self, row: dict[str, Any]) -> str:
        """A row's summary kept before ``show --json`` gave what may happen now (``now``),
        made again from the row's state (or the match, folded): the pages read ``now``.
        (Legacy: ``rebuild --full`` writes every row again; remove once rows are rebuilt.)"""
        from bgledger.projections.views.summary import state_json

        state = self._row_state(row) if "state" in row else self._store.state(row["match_id"])
        return json.dumps(state_json(state), separators=(",", ":"), ensure_ascii=False)

    def readable_matches(self, event: str | None, grant: Grant | None) -> list[dict[str, Any]]:
        """:meth:`matches` (of ``event``) that ``grant`` (None: no token) may read
        (:meth:`may_read`, decided on each row's event: no match is folded)."""
        public: dict[str, bool] = {}

        def readable(row: dict[str, Any]) -> bool:
            match_id, its = row["match_id"], row["event"] or ""
            if grant is not None and grant.reads(match_id, its):
                return True
            if its and its not in public:
                public[its] = self.published(its)
            return bool(its) and public[its]

        return [row for row in self.matches(event) if readable(row)]

    def row_after(self, row: dict[str, Any], state: MatchState) -> dict[str, Any]:
        """A read-model row of :meth:`matches` as its match stood in ``state`` (the match as
        recorded after an earlier event: what a delayed spectator's wall shows), with its
        ``status`` in words; ``state`` is not kept anywhere."""
        from bgledger.projections.readmodels.rows import match_row, status_text

        then = match_row(state, row["stream"], state.events)
        return {**then, "status": status_text(then)}

    def _row_state(self, row: dict[str, Any]) -> MatchState:
        """The state a read-model row keeps, or the match folded if it is in an older form."""
        from bgledger.projections.state.codec import state_from_dict

        try:
            return state_from_dict(json.loads(row["state"]))
        except (ValueError, KeyError, TypeError, IndexError):
            return self._store.state(row["match_id"])

    def moved(self, after: int) -> tuple[int, dict[str, int]]:
        """The log's last notification, and the matches with events stored after notification
        ``after`` (``last_stored``'s figure): each with the number of its first new event.

        One read of the log's ids (no event is read or folded); a match seen
        for the first time is named from its first event, once.
        """
        from bgledger.store.recorder import LedgerRecorder

        recorder = cast(LedgerRecorder, self._store.recorder)
        last, streams = recorder.moved_streams(after)
        moved: dict[str, int] = {}
        for stream, first in streams:
            name = self._stream_names.get(stream)
            if name is None:
                started = next(iter(self._store.events.get(stream, lte=1)), None)
                name = getattr(started, "match_id", None)
                if not isinstance(name, str):
                    continue  # no match's stream
                self._stream_names[stream] = name
            moved[name] = first
        return last, moved

    def rulings(
        self, event: str | None = None, *, ids: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """Every ruling in every match (of ``event``; of ``ids``' matches, if given): the
        director's report (USBGF 5.5).

        Each row: the match, the number, kind, rule, who ruled, why, when and
        who recorded it, ``voided_by`` (the ruling that overturned it) and ``details``.
        """
        return self._read_models().rulings(event, ids=ids)

    def standings(self, event: str | None = None) -> list[dict[str, Any]]:
        """Per event and player: matches played, won, lost, in progress, points for and against.

        Finished matches count by their final score; one without a winner is in progress.
        """
        return self._read_models().standings(event)

    @staticmethod
    def standings_of(matches: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The standings of ``matches`` (rows of :meth:`matches`, as a wall shows them, a
        delayed wall's included), ranked: the most matches won first, then the fewest
        lost, then the points difference (:func:`~bgledger.projections.readmodels.rows.ranked`).
        """
        from bgledger.projections.readmodels.rows import ranked, standings_rows

        return ranked(standings_rows(matches))

    def rebuild(self, *, full: bool = False) -> RebuildReport:
        """Recompute every read model from the events, in one transaction.

        Each match starts from its latest snapshot still on its hash chain;
        ``full`` folds every event instead (DESIGN principle 8: caches never decide).
        """
        from bgledger.projections.readmodels.tracking import ReadModels

        return ReadModels(self._store).rebuild(full=full)

    # -- the rules engine on gnubg position ids ----------------------------------------------

    @staticmethod
    def position(position_id: str) -> Position:
        """The board of a gnubg position id (the player on roll moves).

        :raises InvalidPositionError: for anything that is not a position id.
        """
        return Position.from_id(position_id)

    @staticmethod
    def dice(values: Sequence[int]) -> tuple[int, int]:
        """Two dice of 1-6.

        :raises InvalidDiceError: for anything else.
        """
        return check_dice(values)

    @staticmethod
    def dice_said(words: Sequence[str]) -> tuple[int, int]:
        """Two dice as a scorekeeper writes them: ``['6', '4']`` or ``['64']``.

        :raises InvalidDiceError: for anything but two dice of 1 to 6.
        """
        return read_dice(words)

    @staticmethod
    def legal(position: Position | str, dice: Sequence[int]) -> LegalPlays:
        """Every legal play of ``dice`` (USBGF Appendix B), one per distinct resulting position.

        :raises InvalidPositionError, InvalidDiceError: for input that is no position or roll.
        """
        board = Ledger.position(position) if isinstance(position, str) else position
        rolled = check_dice(dice)
        plays = tuple((str(lp.play), lp.result.position_id) for lp in legal_plays(board, rolled))
        return LegalPlays(board, rolled, plays)

    @staticmethod
    def judge(position: Position | str, dice: Sequence[int], play: str) -> Judgement:
        """Whether ``play`` of ``dice`` is legal, and if not why (USBGF 4.2.3, Appendix B).

        :raises InvalidPositionError, InvalidDiceError: for input that is no position or roll.
        :raises InvalidNotationError, InvalidPlayError: for a play that cannot be
            read or moves checkers the mover does not have.
        """
        board = Ledger.position(position) if isinstance(position, str) else position
        return judge_play(board, check_dice(dice), Play.parse(play))


def _unreadable(what: str, grant: Grant | None, desk: bool) -> str:
    """Why a read is refused, the same words for what does not exist and what is private."""
    if desk:
        return (
            f"nothing to show for {what}: the director's desk is read with a director's or "
            "the committee's token that reaches it"
        )
    held = "" if grant is None else f" this token ({grant.label}) does not reach it, and"
    return (
        f"nothing to show for {what}:{held} there is none, or it is private until its event is "
        "published (open the link with its #token=, or send Authorization: Bearer TOKEN)"
    )


def _start_options(
    setup: object,
) -> tuple[tuple[str, str], int, str | None, str | None, dict[str, Any]]:
    """:meth:`Ledger.start_match`'s setup as :meth:`Ledger.start`'s arguments.

    Returns the players, the length, the id (None: generated), the pad token's
    label and the keyword options.

    :raises InvalidMatchSetupError: for anything but a JSON object of :data:`START_FIELDS`.
    """
    example = '{"a": "Ann", "b": "Bob", "length": 7, "event": "Open"}'
    if not isinstance(setup, dict):
        raise InvalidMatchSetupError(f"the match to start is a JSON object: {example}")
    for key, value in setup.items():
        kind = START_FIELDS.get(key)
        if kind is None:
            raise InvalidMatchSetupError(
                f"field {key!r}: not a field of a match; the fields are {', '.join(START_FIELDS)}"
            )
        wrong = not isinstance(value, kind) or (kind is int and isinstance(value, bool))
        if value is not None and wrong:  # JSON's true is no number of points
            raise InvalidMatchSetupError(f"{key} {value!r}: give {_JSON_TYPE[kind]}")
    given = {key: value for key, value in setup.items() if value is not None and value != ""}
    missing = [key for key in ("a", "b", "length") if key not in given]
    if missing:
        raise InvalidMatchSetupError(f"give {' and '.join(missing)}: {example}")
    delay = given.get("delay")
    options: dict[str, Any] = {
        "event": as_entered(given.get("event", "")),
        "profile": given.get("profile", DEFAULT_PROFILE),
        "clock": given.get("clock", "none"),
        "round": given.get("round", ""),
        "table": given.get("table", ""),
        "best_of_three": given.get("best_of_three", False),
        "no_time_forfeit": given.get("no_time_forfeit", False),
        "reserve_ms": parse_clock(given["reserve"]) if "reserve" in given else None,
        "delay_ms": None if delay is None else delay * 1000,
        "doubles": given.get("doubles", False),
        "new_event": given.get("new_event", False),
    }
    players = (given["a"], given["b"])
    return players, given["length"], given.get("id"), given.get("scorekeeper"), options


_JSON_TYPE = {str: "a string", int: "a whole number", bool: "true or false"}


def _clock_moment(state: MatchState, now: str | None) -> int:
    """When a running clock is read, in ms: ``now`` (ISO 8601 or 'now'), else the last event.

    :raises InvalidTimeError: for a time that is not ISO 8601 or is before the last event.
    """
    last = at_ms(state.last_at)
    if now is None:
        return last
    if now.strip().lower() == "now":
        return max(last, round(time.time() * 1000))
    try:
        when = at_ms(stamp(now, None))
    except InvalidTimeError:
        raise InvalidTimeError(
            f"--now {now!r}: an ISO 8601 time (e.g. 2026-11-21T14:05:00+01:00) or 'now'"
        ) from None
    if when < last:
        raise InvalidTimeError(
            f"--now {now!r} is before the last event shown ({state.last_at}): "
            "the clock is read after it"
        )
    return when
