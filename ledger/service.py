"""The front door: one object with a named method per command and query of the ledger.

The command line (:mod:`bgledger.cli`) and the web server are adapters on this
one class: they parse what the user typed, call a method, and render what it
returns; neither opens the store, folds events or decides anything itself.
Errors are the library's own (:mod:`bgledger.errors`,
:mod:`bgledger.rules.errors`): an adapter maps them at its edge (the CLI: exit 2
for input that describes nothing, exit 1 for a refusal with the rule cited).

A command (a roll, a play, a clock hit, a ruling) returns a :class:`Recorded`:
the events it recorded with their numbers, the match before and after, and
what the match's command answered; :meth:`Ledger.record_line` records one line
of the record language, the path ``bgledger record`` and the web pad share.
Queries return the views' values (:class:`MatchState`, :class:`Moment`,
:class:`HistoryEntry`, :class:`Verdict`, :class:`Seal` ...), re-exported here
so that an adapter needs nothing else to annotate them.

Example::

    >>> ledger = Ledger("sqlite:///:memory:")
    >>> ledger.start(("Ann", "Bob"), 3, match_id="final", by="kim")
    'final'
    >>> ledger.state("final").phase
    <Phase.BETWEEN_GAMES: 'between-games'>
    >>> ledger.opening("final", 3, 1, by="kim").numbers
    (2, 3)
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

import importlib
import json
import shlex
import time
from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from bgledger.access import ROLES, Grant, InvalidGrantError, TokenBook
from bgledger.commands.breaks import BEST_OF_THREE
from bgledger.commands.clock import NOMINAL_MS, SET_RULES, parse_clock
from bgledger.commands.decide import stamp
from bgledger.commands.language import (
    CORRECTION_VERBS,
    EVENT_RULINGS,
    RULING_VERBS,
    Action,
    InvalidActionError,
    without_comment,
)
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import RULERS, InvalidRulingError, Ruling
from bgledger.commands.setup import CLOCKS
from bgledger.errors import (
    ActionRefusedError,
    InvalidMatchSetupError,
    InvalidTimeError,
    MatchNotFoundError,
    SealRefusedError,
    TokenScopeError,
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
    EntryAmended,
    EntryWithdrawn,
    MatchEvent,
    PenaltyPointsAssessed,
    PlaysReverted,
    RemarkRecorded,
    ReserveTimePenalized,
    ReserveTimeRestored,
    RulingMade,
    TimeExpired,
)
from bgledger.projections.state.clock import at_ms
from bgledger.projections.state.corrected import corrected, rulings_in_force
from bgledger.projections.state.fold import MatchState
from bgledger.projections.views.audit import HistoryEntry, ruling_effect
from bgledger.projections.views.audit import history as audit_history
from bgledger.projections.views.moment import Moment, moment
from bgledger.projections.views.summary import state_json
from bgledger.rules.judge import Judgement
from bgledger.rules.judge import judge as judge_play
from bgledger.rules.legal import check_dice, legal_plays, read_dice
from bgledger.rules.notation import Play
from bgledger.rules.position import Position
from bgledger.rules.profiles import DEFAULT_PROFILE, PROFILES, Decision, get_profile
from bgledger.store.application import DEFAULT_URL, MatchStore

# What only some commands need is imported in the methods that need it, so
# that a one-shot command (``bgledger show``, ``roll``, ``move``) does not pay
# for it at start-up (bench/bench_startup.py): the .mat and JSON readers and
# writers and the score sheets (import, export), the read models (list,
# rulings, standings, rebuild), verify and the seals (with cryptography's
# Ed25519 keys).  Their types are re-exported all the same, loaded on first
# use by the module's ``__getattr__`` below.
if TYPE_CHECKING:
    from bgledger.interchange.files import ImportRefusedError as ImportRefusedError
    from bgledger.projections.readmodels.tracking import ReadModels
    from bgledger.projections.readmodels.tracking import RebuildReport as RebuildReport
    from bgledger.store.integrity import Verdict as Verdict
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
    "HistoryEntry",
    "ImportRefusedError",
    "Imported",
    "InvalidGrantError",
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
    "RebuildReport",
    "Recorded",
    "ReserveTimePenalized",
    "ReserveTimeRestored",
    "Ruling",
    "RulingMade",
    "RulingOption",
    "Seal",
    "SealRefusedError",
    "Shown",
    "Started",
    "TimeExpired",
    "Verdict",
    "parse_clock",
    "state_document",
    "verdict_text",
    "without_comment",
]

_LOADED_ON_USE = {
    "ImportRefusedError": "bgledger.interchange.files",
    "RebuildReport": "bgledger.projections.readmodels.tracking",
    "Verdict": "bgledger.store.integrity",
    "InvalidSealError": "bgledger.store.seal",
    "Seal": "bgledger.store.seal",
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


PICKUP_REASON = "picked up the dice before the opponent hit the clock"
"""Why an early pick-up is sanctioned, unless the director says otherwise (USBGF 4.1.7.2)."""

EXPORT_FORMATS = ("mat", "json", "scoresheet", "scoresheet-html")
"""What :meth:`Ledger.export` writes: gnubg's .mat, the lossless JSON copy, USBGF 4.7 sheets."""


# -- the values the adapters render ---------------------------------------------------------


def state_document(state: MatchState, now_ms: int | None = None) -> dict[str, Any]:
    """``show --json``'s fields of ``state``: the contract's summary plus ``next_length``.

    ``next_length`` is the corrected match length a ruling set for the next
    game (USBGF 4.8.4, 4.8.5), or null; ``now_ms`` the moment a running clock
    is read at (default: the last event).
    """
    return {**state_json(state, now_ms), "next_length": state.next_length}


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
    match: Match, history: list[MatchEvent], verb: str, event: int, profile: str
) -> RulingOption | None:
    """``verb`` on ``event`` tried on copies of ``match``: open, closed, or None (no such case).

    Tried without the players' agreement, then with it; nothing is stored.
    """
    ruler = "committee" if verb == "overturn" else "director"
    numbered = {e.originator_version: e for e in history}
    closed: RulingOption | None = None
    for agreed in (False, True):
        trial = deepcopy(match)
        ruling = Ruling(ruler, "(tried for the picker)", agreed=agreed, by=ruler)
        try:
            getattr(trial, verb.replace("-", "_"))(history, event, ruling)
        except InvalidRulingError:
            return None
        except ActionRefusedError as refused:
            rule = refused.rule or ""
            closed = closed or RulingOption(
                verb, event, rule, ruler, False, refused.reason, False,
                Ledger.rule_text(profile, rule) if rule else (),
            )  # fmt: skip
            continue
        made = next(e for e in trial.collect_events() if isinstance(e, RulingMade))
        effect = ruling_effect(made, trial.state, numbered)
        text = Ledger.rule_text(profile, made.rule) if made.rule else ()
        return RulingOption(verb, event, made.rule, ruler, True, effect, agreed, text)
    return closed


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
        return {**state_json(self.state), "recorded": list(self.numbers)}


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

    @property
    def state(self) -> MatchState:
        """The state shown."""
        return self.moment.state

    def to_json(self) -> dict[str, Any]:
        """``show --json`` (``GET /api/matches/MATCH``): the state, the view, the rulings."""
        document = state_document(self.moment.state, self.now_ms)
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
    "round": str,
    "table": str,
    "scorekeeper": str,
}
"""The fields of :meth:`Ledger.start_match`'s setup, ``start``'s options, and their JSON types.

``reserve`` is ``M:SS``, ``delay`` seconds (as ``start --reserve``, ``--delay``);
``scorekeeper`` is the label of the pad's token (who its events are ``by``).
"""


@dataclass(frozen=True, slots=True)
class Started:
    """A match started by :meth:`Ledger.start_match`: who started it, and its pad's token."""

    match_id: str
    by: str
    token: str
    """A new scorekeeper's token for the match (printed once; the ledger keeps its hash)."""


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

    def to_json(self) -> dict[str, Any]:
        """``import --json``'s object: ``show --json``'s fields plus the file's."""
        document = state_json(self.state)
        document.update(
            file=self.file,
            games=len(self.state.games),
            illegal_plays=self.illegal_plays,
            abandoned=self.abandoned,
            notes=list(self.notes),
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
    :param cache_size: keep this many matches in memory between commands (for
        long-lived processes: ``record``, ``import``, a web server); each use
        still reads any events other scorekeepers added since.
    :raises sqlalchemy.exc.ArgumentError: for a URL that is not a database URL.
    """

    def __init__(self, url: str = DEFAULT_URL, *, cache_size: int = 0) -> None:
        self.url = url
        self._store = MatchStore(url, cache_size=cache_size)
        self._models: ReadModels | None = None
        self._content_keys: dict[str, tuple[int, str | None]] = {}  # by id: (version, key)
        self._token_book: TokenBook | None = None

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

    def events(self, match_id: str) -> list[MatchEvent]:
        """Every event of the match, in order, numbered from 1.

        :raises MatchNotFoundError: for an unknown match.
        """
        return self._store.history(match_id)

    def history(
        self, match_id: str, *, at: int | None = None, rulings_only: bool = False
    ) -> list[HistoryEntry]:
        """The audit trail: each event numbered, dated, described; voided ones marked.

        ``at``: the trail as it stood after event ``at``.  ``rulings_only``: the
        rulings alone (USBGF 5.5: the director's record), each with what it
        voided or restored and whether it is still in force.

        :raises MatchNotFoundError: for an unknown match.
        """
        entries = audit_history(self._store.history(match_id)[:at])
        if rulings_only:
            return [entry for entry in entries if entry.ruling is not None]
        return entries

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
        by: str,
        **options: Any,
    ) -> str:
        """Record a new match between players a and b; return its id (generated if not given).

        ``options`` are the setup's keyword arguments (profile, clock,
        crawford, event, round, table, meta, at, and the clock's reserve_ms,
        delay_ms, doubles: USBGF 3.5.5, CLOCK 2.1).  ``best_of_three``: one
        match of a best-of-three series (to 7 or less, breaks only between
        matches: USBGF 2.2.2).

        :raises MatchExistsError: if ``match_id`` is taken.
        :raises InvalidMatchSetupError, UnknownProfileError, InvalidTimeError:
            for a setup that describes no match.
        """
        if best_of_three:
            options["meta"] = {**options.get("meta", {}), BEST_OF_THREE: "yes"}
        return self._store.start(players, length, match_id=match_id, by=by, **options)

    def opening(
        self, match_id: str, die_a: int, die_b: int, *, by: str, at: str | None = None
    ) -> Recorded[None]:
        """The opening roll: a's die, b's die; the higher plays both (a tie is rolled again).

        USBGF Appendix B; a new game starts with it (USBGF 4.8.1).

        :raises InvalidDiceError: for a die outside 1-6.
        :raises OutOfTurnError: while a game is in progress (USBGF Appendix B).
        """
        return self._act(match_id, lambda m: m.opening(die_a, die_b, by=by, at=at))

    def roll(
        self,
        match_id: str,
        die1: int,
        die2: int,
        *,
        as_played: bool = False,
        by: str,
        at: str | None = None,
    ) -> Recorded[bool]:
        """The player on roll rolled ``die1``-``die2``; a roll that cannot be played is a dance.

        The result is True for a dance (the turn passes, USBGF Appendix B).  A
        roll on the opponent's time (his hit not recorded) is refused, or comes
        after his hit recorded as implied, as the profile says; ``as_played``
        records it as made on his time (the director may rule the missed hit).

        :raises InvalidDiceError: for a die outside 1-6.
        :raises OutOfTurnError: when nobody is to roll (a double or concession pending:
            USBGF 4.4.4, 4.5; a break: USBGF 2.2.2).
        :raises ClockRefusedError: for a roll on the opponent's time, where refused
            (USBGF 4.1.8.1).
        """
        return self._act(match_id, lambda m: m.roll(die1, die2, as_played=as_played, by=by, at=at))

    def void_roll(
        self, match_id: str, reason: str, *, by: str, at: str | None = None
    ) -> Recorded[None]:
        """The last roll was invalid (cocked, wrong side of the bar, die on die: USBGF 4.1.4).

        :raises InvalidVoidReasonError: for a reason the match's profile does not know.
        :raises OutOfTurnError: when no roll waits to be played.
        """
        return self._act(match_id, lambda m: m.void_roll(reason, by=by, at=at))

    def move(
        self, match_id: str, play: str, *, as_played: bool = False, by: str, at: str | None = None
    ) -> Recorded[Judgement]:
        """The player on roll played ``play`` (``'13/8 13/11'``, ``'bar/20*'``, ``'6/off'``).

        An illegal play is refused (the CLI's typo guard) unless it was made
        at the board: ``as_played`` records it flagged, with the reason, since it
        stands unless corrected in time (USBGF 4.2.3(a), DESIGN principle 2).

        :raises InvalidNotationError, InvalidPlayError: for a play that describes nothing.
        :raises IllegalPlayRefusedError: for an illegal play not ``as_played``.
        :raises OutOfTurnError: when no roll waits to be played.
        """
        return self._act(match_id, lambda m: m.move(play, as_played=as_played, by=by, at=at))

    def double(
        self,
        match_id: str,
        *,
        to: int | None = None,
        as_played: bool = False,
        by: str,
        at: str | None = None,
    ) -> Recorded[None]:
        """The player on roll doubles (to ``to`` when not twice the cube), before rolling.

        USBGF 4.4.2; refused in the Crawford game, on a dead cube, by the
        cube's opponent or to a wrong level (USBGF 4.4.6, 4.4.9, 4.4.2, 4.4.8)
        unless ``as_played``, flagged.

        :raises CubeActionRefusedError: for a double the rules forbid.
        :raises OutOfTurnError: when the player on roll has rolled already.
        """
        return self._act(match_id, lambda m: m.double(to=to, as_played=as_played, by=by, at=at))

    def beaver(
        self, match_id: str, *, as_played: bool = False, by: str, at: str | None = None
    ) -> Recorded[None]:
        """The doubled player took and at once redoubled, keeping the cube (a beaver).

        Not played in tournaments (USBGF 4.4.10): refused unless ``as_played``, flagged.

        :raises CubeActionRefusedError: without ``as_played`` where the profile forbids it.
        :raises OutOfTurnError: with no double to beaver.
        """
        return self._act(match_id, lambda m: m.beaver(as_played=as_played, by=by, at=at))

    def automatic_double(
        self, match_id: str, *, as_played: bool = False, by: str, at: str | None = None
    ) -> Recorded[None]:
        """The opening roll tied and the cube was turned, in the middle (an automatic double).

        Not played in tournaments (USBGF 4.4.10): refused unless ``as_played``, flagged.

        :raises CubeActionRefusedError: without ``as_played`` where the profile forbids it.
        :raises OutOfTurnError: unless a game waits for its opening roll.
        """
        return self._act(match_id, lambda m: m.automatic_double(as_played=as_played, by=by, at=at))

    def take(self, match_id: str, *, by: str, at: str | None = None) -> Recorded[None]:
        """The doubled player takes: he owns the cube at the new level (USBGF 4.4.4).

        :raises OutOfTurnError: without a double pending.
        """
        return self._act(match_id, lambda m: m.take(by=by, at=at))

    def drop(self, match_id: str, *, by: str, at: str | None = None) -> Recorded[None]:
        """The doubled player passes: the doubler wins the game at the cube's value (USBGF 4.4.4).

        :raises OutOfTurnError: without a double pending.
        """
        return self._act(match_id, lambda m: m.drop(by=by, at=at))

    def resign(
        self,
        match_id: str,
        level: str,
        *,
        player: str | None = None,
        as_played: bool = False,
        by: str,
        at: str | None = None,
    ) -> Recorded[None]:
        """``player`` (default: on roll) offers to concede a single game, gammon or backgammon.

        USBGF 4.5; a profile may allow concessions only without contact
        (refused unless ``as_played``).

        :raises InvalidResultError: for a level that is not single, gammon or backgammon.
        :raises ResignationRefusedError: for a concession the profile does not allow.
        """
        return self._act(
            match_id,
            lambda m: m.resign(level, player=player, as_played=as_played, by=by, at=at),
        )

    def accept(self, match_id: str, *, by: str, at: str | None = None) -> Recorded[None]:
        """The concession offered is accepted: the game is won at its level (USBGF 4.5).

        :raises OutOfTurnError: without a concession offered.
        """
        return self._act(match_id, lambda m: m.accept(by=by, at=at))

    def reject(self, match_id: str, *, by: str, at: str | None = None) -> Recorded[None]:
        """The concession offered is refused; play goes on (USBGF 4.5).

        :raises OutOfTurnError: without a concession offered.
        """
        return self._act(match_id, lambda m: m.reject(by=by, at=at))

    def roll_early(
        self, match_id: str, die1: int, die2: int, *, by: str, at: str | None = None
    ) -> Recorded[None]:
        """The player not on roll rolled before the mover moved (USBGF 4.1.7.1).

        The mover then accepts or refuses the roll; where premature rolls
        stand (ABT 4.6) it stands at once.

        :raises InvalidDiceError: for a die outside 1-6.
        :raises OutOfTurnError: unless the mover has rolled and not yet moved.
        """
        return self._act(match_id, lambda m: m.roll_early(die1, die2, by=by, at=at))

    def accept_roll(self, match_id: str, *, by: str, at: str | None = None) -> Recorded[None]:
        """The mover lets his opponent's premature roll stand and moves knowing it (USBGF 4.1.7.1).

        :raises OutOfTurnError: without a premature roll waiting.
        """
        return self._act(match_id, lambda m: m.accept_roll(by=by, at=at))

    def refuse_roll(self, match_id: str, *, by: str, at: str | None = None) -> Recorded[None]:
        """The mover refuses the premature roll: it is rolled again after his move (USBGF 4.1.7.1).

        :raises PrematureRollStandsError: where premature rolls stand (ABT 4.6).
        :raises OutOfTurnError: without a premature roll waiting.
        """
        return self._act(match_id, lambda m: m.refuse_roll(by=by, at=at))

    def double_early(
        self,
        match_id: str,
        *,
        to: int | None = None,
        as_played: bool = False,
        by: str,
        at: str | None = None,
    ) -> Recorded[None]:
        """The player not on roll doubled before the mover moved: it stands if valid (USBGF 4.4.7).

        The mover takes or drops once he has moved.

        :raises CubeActionRefusedError: for a double the rules forbid (unless ``as_played``).
        :raises OutOfTurnError: unless the mover has rolled and not yet moved.
        """
        return self._act(
            match_id, lambda m: m.double_early(to=to, as_played=as_played, by=by, at=at)
        )

    def setup(
        self, match_id: str, position: str, *, by: str, at: str | None = None
    ) -> Recorded[None]:
        """The game began from ``position`` (a gnubg position id), not the standard one.

        USBGF 4.2.4.

        Recorded before the game's first play and flagged; :meth:`correct_setup` is the remedy.

        :raises InvalidPositionError: for a position id that is no board.
        :raises OutOfTurnError: once the game's first play is made.
        """
        return self._act(match_id, lambda m: m.record_setup(position, by=by, at=at))

    def record_line(
        self, match_id: str, line: str, *, by: str, at: str | None = None
    ) -> Recorded[Any]:
        """Record one line of the record language (``roll 5 2``, ``52: 13/8 13/11``, ``hit`` ...).

        The one path ``bgledger record`` and the web pad's ``POST .../lines``
        share (:mod:`bgledger.commands.language`).  ``at`` is the time of a line
        that gives none (``@TIME``); a line is all or nothing (``52: 13/x``
        refused records no roll either).  ``undo`` and ``amend EVENT LINE`` are
        :meth:`undo` and :meth:`amend`.

        :raises InvalidActionError: for a line that is no action.
        :raises RulesError: for dice, plays, levels or times that describe nothing.
        :raises ActionRefusedError: when the match refuses the action, with the rule.
        """
        action = Action.parse(line)
        if at is not None and action.at is None:
            action = replace(action, at=at)
        if action.verb == "undo":
            return self.undo(
                match_id, reason=action.reason, ruled_by=action.ruled_by, by=by, at=action.at
            )
        if action.verb == "amend":
            number, said = action.args
            return self.amend(
                match_id, int(number), said,
                reason=action.reason, ruled_by=action.ruled_by, by=by, at=action.at,
            )  # fmt: skip
        if action.verb in RULING_VERBS:
            return self._ruling_line(match_id, action, by)
        return self._act(match_id, lambda m: action.apply(m, by))

    def _ruling_line(self, match_id: str, action: Action, by: str) -> Recorded[None]:
        """A ruling line (``revert 12 --reason ...``): the ruling method of its verb."""
        ruling = replace(action.ruling, by=by)
        (argument,) = action.args
        if action.verb == "correct-length":
            return self.correct_length(match_id, int(argument), ruling)
        if action.verb == "correct-score":
            a, b = argument.split("-")
            return self.correct_score(match_id, (int(a), int(b)), ruling)
        method: Callable[[str, int, Ruling], Recorded[None]] = getattr(
            self, action.verb.replace("-", "_")
        )
        return method(match_id, int(argument), ruling)

    def remark(
        self, match_id: str, text: str, *, by: str, at: str | None = None
    ) -> Recorded[RemarkRecorded]:
        """The scorekeeper's remark for the record (``note TEXT``); not a ruling.

        :raises InvalidCorrectionError: for an empty remark.
        """
        return self._act(match_id, lambda m: m.remark(text, by=by, at=at))

    # -- recording errors (not rulings) ------------------------------------------------------

    def undo(
        self,
        match_id: str,
        *,
        reason: str = "",
        ruled_by: str = "",
        by: str,
        at: str | None = None,
    ) -> Recorded[EntryWithdrawn]:
        """Withdraw the last entry as a recording error (``undo``); undo again for the one before.

        The scorekeeper alone may undo an entry of the game in progress; an
        earlier game's needs ``ruled_by="director"`` (USBGF 4.7).

        :raises CorrectionRefusedError: if there is nothing to undo, or it may not be undone.
        """
        return self._rule(
            match_id, lambda m, h: m.withdraw(h, reason=reason, ruled_by=ruled_by, by=by, at=at)
        )

    def amend(
        self,
        match_id: str,
        event: int,
        line: str,
        *,
        reason: str = "",
        ruled_by: str = "",
        by: str,
        at: str | None = None,
    ) -> Recorded[EntryAmended]:
        """Entry ``event`` was mis-entered; ``line`` (record language) is what happened.

        The line is decided on the match as it stood before the entry, at the
        entry's time unless it gives ``@TIME``; the later entries must still be
        recorded as they were on the amended history, or the amendment is
        refused naming the first that no longer fits.

        :raises InvalidActionError: for a line that is no action, or is itself a correction.
        :raises InvalidCorrectionError: for an event that is no entry.
        :raises CorrectionRefusedError: for an entry that may not be corrected.
        :raises EntryNoLongerFitsError: if a later entry no longer fits.
        :raises ActionRefusedError: if the match refuses the line itself, with the rule.
        """
        action = Action.parse(line)
        if action.verb in CORRECTION_VERBS:
            raise InvalidActionError(f"{line!r}: amend takes what happened, not another correction")

        def perform(match: Match, when: str) -> None:
            (action if action.at is not None else replace(action, at=when)).apply(match, by)

        return self._rule(
            match_id,
            lambda m, h: m.amend(
                h, event, perform, line=line, reason=reason, ruled_by=ruled_by, by=by, at=at
            ),
        )

    # -- the game clock, breaks and penalty points -------------------------------------------

    def start_clock(
        self,
        match_id: str,
        mode: str,
        *,
        reserve_ms: int | None = None,
        delay_ms: int | None = None,
        doubles: bool = False,
        by: str,
        at: str | None = None,
    ) -> Recorded[ClockStarted]:
        """Put a ``simple-delay`` (USBGF 3.5.5) or ``bronstein`` (CLOCK 2.1) clock on the match.

        Reserves and delay default to the profile's for the points still to go
        (USBGF 3.5.6, CLOCK 2.2 for ``doubles``); a Bronstein clock only
        between games (CLOCK 1.1).  The next hit starts it.

        :raises InvalidClockError: for an unknown mode or a bad figure.
        :raises ClockRefusedError: for a clock the match cannot take now.
        """
        return self._act(
            match_id,
            lambda m: m.start_clock(
                mode, reserve_ms=reserve_ms, delay_ms=delay_ms, doubles=doubles, by=by, at=at
            ),
        )

    def hit(
        self, match_id: str, player: str | None = None, *, by: str, at: str | None = None
    ) -> Recorded[ClockHit]:
        """``player`` (default: whose time runs) hits the clock: his turn ends (USBGF 4.1.8.1).

        The opening roll itself starts the winner's clock (CLOCK 3.3: the
        ledger records the lower die's hit with it); a hit that ends no turn
        is refused, saying whose hit is missing.

        :raises ClockRefusedError: without a clock, or a hit out of turn.
        """
        return self._act(match_id, lambda m: m.hit(player, by=by, at=at))

    def stop_clock(
        self, match_id: str, reason: str, *, by: str, at: str | None = None
    ) -> Recorded[ClockStopped]:
        """Stop both clocks for ``reason``, a USBGF 4.3.2 code or its letter.

        :raises InvalidClockError: for a reason USBGF 4.3.2 does not list.
        :raises ClockRefusedError: for a clock that is not running.
        """
        return self._act(match_id, lambda m: m.stop_clock(reason, by=by, at=at))

    def resume_clock(
        self, match_id: str, *, by: str, at: str | None = None
    ) -> Recorded[ClockResumed]:
        """Restart the clock of the player whose turn it was stopped in (USBGF 4.3.2).

        :raises ClockRefusedError: for a clock that is not stopped in a turn.
        """
        return self._act(match_id, lambda m: m.resume_clock(by=by, at=at))

    def read_clock(
        self, match_id: str, shown: tuple[int, int], *, by: str, at: str | None = None
    ) -> Recorded[tuple[int, int]]:
        """Record what the physical clock shows (ms, a then b); the result is each drift.

        The drift is the clock's figure minus the ledger's own.

        :raises ClockRefusedError: without a clock.
        """
        return self._act(match_id, lambda m: m.read_clock(shown, by=by, at=at))

    def set_clock(
        self,
        match_id: str,
        reserves: tuple[int, int],
        *,
        rule: str = SET_RULES[0],
        ruled_by: str = "director",
        reason: str,
        by: str,
        at: str | None = None,
    ) -> Recorded[ClockSet]:
        """The director sets both reserves (USBGF 3.7.2, 4.3.2(b), 4.3.3, 4.3.4).

        :raises InvalidClockError: for a rule not in :data:`SET_RULES` or a bad figure.
        :raises ClockRefusedError: without a clock.
        """
        return self._act(
            match_id,
            lambda m: m.set_clock(
                reserves, rule=rule, ruled_by=ruled_by, reason=reason, by=by, at=at
            ),
        )

    def flag(
        self,
        match_id: str,
        player: str,
        *,
        nominal_ms: int = NOMINAL_MS,
        by: str,
        at: str | None = None,
    ) -> Recorded[TimeExpired]:
        """``player``'s reserve is announced expired: he loses the match (USBGF 4.3.3, CLOCK 5.3).

        Both reserves spent: both get ``nominal_ms`` (USBGF 4.3.3).

        :raises TimeNotExpiredError: when time remains by the ledger's own figures.
        """
        return self._act(match_id, lambda m: m.flag(player, nominal_ms=nominal_ms, by=by, at=at))

    def early_pickup(
        self,
        match_id: str,
        player: str,
        ruling: Ruling,
    ) -> Recorded[ReserveTimePenalized | None]:
        """``player`` picked up the dice before his opponent hit the clock: the sanction.

        Simple delay (USBGF 4.1.7.2): a warning, then 30 seconds of reserve
        each time down to one second, then the match (the result is None: a
        forfeit).  Bronstein (CLOCK 4.1): the delay of his next turn.

        :raises ClockRefusedError: without a clock.
        """
        return self._act(match_id, lambda m: m.early_pickup(player, ruling))

    def missed_hit(
        self,
        match_id: str,
        ruling: Ruling,
    ) -> Recorded[tuple[PlaysReverted, ReserveTimeRestored | None]]:
        """The player whose time runs never hit the clock after his turn (USBGF 4.1.8.1).

        His opponent's rolls and plays since are nullified and the reserve
        his clock took since his turn really ended is restored.

        :raises ClockRefusedError: without a running clock.
        """
        return self._rule(match_id, lambda m, h: m.missed_hit(h, ruling))

    def start_break(
        self,
        match_id: str,
        players: tuple[str, ...],
        *,
        combine: int = 1,
        exceptional: str = "",
        exception: str = "",
        by: str,
        at: str | None = None,
    ) -> Recorded[BreakStarted]:
        """``players`` take a break, between games (USBGF 2.2.2); the clock stops (4.3.2(b)).

        ``combine`` takes several of each requester's breaks as one;
        ``exceptional`` the circumstances of a break during a game;
        ``exception`` the director's break beyond the allowance (USBGF 2.2.3).

        :raises BreakRefusedError: beyond the allowance, or during a game without cause.
        """
        return self._act(
            match_id,
            lambda m: m.start_break(
                players, combine=combine, exceptional=exceptional, exception=exception, by=by, at=at
            ),
        )

    def end_break(
        self, match_id: str, *, late: str | None = None, by: str, at: str | None = None
    ) -> Recorded[BreakEnded]:
        """The break is over; ``late`` returned 15 minutes or more after it (USBGF 2.2.2, 2.2.4).

        :raises BreakRefusedError: without a break in progress.
        """
        return self._act(match_id, lambda m: m.end_break(late=late, by=by, at=at))

    def late(
        self,
        match_id: str,
        player: str,
        *,
        scheduled: str | None = None,
        by: str,
        at: str | None = None,
    ) -> Recorded[PenaltyPointsAssessed]:
        """``player`` is late at ``at``: the penalty points due so far (USBGF 2.2.4).

        One point 15 minutes after the starting time (``scheduled``, default
        the setup) or the end of a break, one more every 5 minutes; before
        the first game, more than half the length forfeits the match.

        :raises PenaltyRefusedError: before any point is due.
        """
        return self._act(match_id, lambda m: m.late(player, scheduled=scheduled, by=by, at=at))

    def penalty(
        self,
        match_id: str,
        player: str,
        points: int,
        *,
        rule: str,
        reason: str,
        ruled_by: str = "director",
        by: str,
        at: str | None = None,
    ) -> Recorded[PenaltyPointsAssessed]:
        """The director's ``points`` penalty points against ``player``: his opponent scores them.

        As for lateness (USBGF 2.2.4), the match is lost once the opponent's score reaches its
        length.

        :raises PenaltyRefusedError: for points the rules do not allow.
        """
        return self._act(
            match_id,
            lambda m: m.penalty(
                player, points, rule=rule, reason=reason, ruled_by=ruled_by, by=by, at=at
            ),
        )

    # -- rulings: compensating events (DESIGN principle 3) -----------------------------------

    def revert(self, match_id: str, event: int, ruling: Ruling) -> Recorded[None]:
        """Undo the illegal play ``event`` and the game actions after it (USBGF 4.2.3(c)-(f)).

        Each rule's window is enforced: (a)/(c) before the opponent's next
        valid roll, (e) before the offender's next roll, (d) any time for an
        impossible position, (f) later only with the director (or the
        players' agreement).

        :raises InvalidRulingError: for an event that is no play.
        :raises RulingRefusedError: outside every window, with the rule.
        """
        return self._rule(match_id, lambda m, h: m.revert(h, event, ruling))

    def void_cube(self, match_id: str, event: int, ruling: Ruling) -> Recorded[None]:
        """Void the invalid double ``event`` that was taken (USBGF 4.4.6.1, 4.4.9, 4.4.10).

        :raises InvalidRulingError: for an event that is no taken double.
        :raises RulingRefusedError: for a double the rules allowed, or too late.
        """
        return self._rule(match_id, lambda m, h: m.void_cube(h, event, ruling))

    def nullify_pass(self, match_id: str, event: int, ruling: Ruling) -> Recorded[None]:
        """Nullify the pass of the invalid double ``event``: the game resumes (USBGF 4.4.6.2).

        :raises InvalidRulingError: for an event that is no dropped double.
        :raises RulingRefusedError: for a double the rules allowed, or too late.
        """
        return self._rule(match_id, lambda m, h: m.nullify_pass(h, event, ruling))

    def void_concession(self, match_id: str, event: int, ruling: Ruling) -> Recorded[None]:
        """Void the accepted concession ``event`` the rules did not allow: the game resumes
        where it was conceded (USBGF 4.5, 4.2.6).

        :raises InvalidRulingError: for an event that is no concession.
        :raises RulingRefusedError: for a concession allowed, not accepted, or too late.
        """
        return self._rule(match_id, lambda m, h: m.void_concession(h, event, ruling))

    def correct_cube(self, match_id: str, event: int, ruling: Ruling) -> Recorded[None]:
        """The double ``event`` to a wrong level stands at the right level (USBGF 4.4.8).

        :raises InvalidRulingError: for an event that is no double.
        :raises RulingRefusedError: for a double at the right level, or too late.
        """
        return self._rule(match_id, lambda m, h: m.correct_cube(h, event, ruling))

    def correct_setup(self, match_id: str, event: int, ruling: Ruling) -> Recorded[None]:
        """Correct the wrong setup ``event`` (USBGF 4.2.4).

        The plays stand on the right position if none was affected, else
        the game starts again; too late, the position stands.

        :raises InvalidRulingError: for an event that is no recorded setup.
        :raises RulingRefusedError: for a correction out of its window.
        """
        return self._rule(match_id, lambda m, h: m.correct_setup(h, event, ruling))

    def correct_length(self, match_id: str, length: int, ruling: Ruling) -> Recorded[None]:
        """The match is ``length`` points, from the next game (USBGF 4.8.4, 4.8.5).

        :raises RulingRefusedError: for a length the rules do not allow now.
        """
        return self._rule(match_id, lambda m, h: m.correct_length(h, length, ruling))

    def correct_score(
        self, match_id: str, score: tuple[int, int], ruling: Ruling
    ) -> Recorded[None]:
        """The score is ``score`` (a's, b's): the director settles a dispute (USBGF 4.7).

        :raises RulingRefusedError: for a score the rules do not allow now.
        """
        return self._rule(match_id, lambda m, h: m.correct_score(h, score, ruling))

    def note(self, match_id: str, ruling: Ruling) -> Recorded[None]:
        """Note a ruling or an observation for the record (``ruling.reason``); nothing changes."""
        return self._rule(match_id, lambda m, h: m.note(h, ruling))

    def overturn(self, match_id: str, event: int, ruling: Ruling) -> Recorded[None]:
        """An appeal committee reverses the ruling ``event``: what it voided is back (USBGF 5.2).

        :raises InvalidRulingError: for an event that is no ruling in force.
        :raises RulingRefusedError: for a ruler other than the committee.
        """
        return self._rule(match_id, lambda m, h: m.overturn(h, event, ruling))

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
        profile = match.state.profile
        return tuple(
            option
            for verb in EVENT_RULINGS
            if (option := _try_ruling(match, history, verb, event, profile)) is not None
        )

    def _act(self, match_id: str, command: Callable[[Match], T]) -> Recorded[T]:
        """Run ``command`` on the match, store what it recorded, and say what that was.

        Nothing is stored if ``command`` raises.

        :raises MatchNotFoundError: for an unknown match.
        :raises ConcurrentWriteError: if another scorekeeper recorded first (nothing of
            ours was); retrying decides afresh.
        """
        return self._recorded(match_id, self._store.act(match_id, _watched(command)))

    def _rule(self, match_id: str, command: Callable[[Match, list[MatchEvent]], T]) -> Recorded[T]:
        """:meth:`_act` for a ruling, which decides on the match's events so far too."""

        def decide(match: Match, history: list[MatchEvent]) -> tuple[MatchState, int, T, Match]:
            return _watched(lambda m: command(m, history))(match)

        return self._recorded(match_id, self._store.rule(match_id, decide))

    def _recorded(self, match_id: str, outcome: tuple[MatchState, int, T, Match]) -> Recorded[T]:
        """The :class:`Recorded` of a stored command: its events read back as stored."""
        before, version, result, match = outcome
        stored = self._store.events.get(match_uuid(match_id), gt=version, lte=match.version)
        events = tuple(cast(MatchEvent, event) for event in stored)
        return Recorded(match_id, events, before, match.state, result)

    # -- files ----------------------------------------------------------------------------

    def import_file(
        self,
        path: Path,
        *,
        match_id: str | None = None,
        profile: str = DEFAULT_PROFILE,
        by: str = "import",
        again: bool = False,
    ) -> list[Imported]:
        """Store every match of a ``.mat`` transcription or a JSON copy (``.json``), all or none.

        Illegal plays, forbidden doubles and concessions in a transcription
        are recorded as played and flagged (DESIGN principle 2); a JSON copy
        is re-decided event by event, rulings included.  A match already in
        the ledger (the same players, length and games, whatever the file is
        called: :func:`~bgledger.interchange.files.content_key`) is refused
        unless ``again``.

        :raises ImportRefusedError: for a file that cannot be read, understood
            or stored (the match id taken, the match already there), with the
            line and the reason.
        """
        from bgledger.interchange.files import import_file

        same = None if again else self._same_match
        stored = import_file(
            self._store, path, match_id=match_id, profile=profile, by=by, same=same
        )
        return [
            Imported(
                one.match_id,
                one.name,
                one.match.state,
                one.games,
                one.illegal_plays,
                one.abandoned,
                tuple(one.notes),
            )
            for one in stored
        ]

    def _same_match(self, events: Sequence[MatchEvent]) -> str | None:
        """The id of a stored match that is the match of ``events``, or None.

        The read models give the matches between the same players at the same
        length (:meth:`~bgledger.projections.readmodels.tracking.ReadModels.like`,
        which does not catch up: an import does not wait on them); each is
        compared by :func:`~bgledger.interchange.files.content_key`, worked out
        from its events (DESIGN principle 8: caches never decide).
        """
        from bgledger.interchange.files import content_key

        state = corrected(events)
        if state is None:
            return None
        candidates = self._models_as_they_are().like(state.players, state.length)
        key = content_key(events) if candidates else None
        if key is None:
            return None
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

    def export(self, match_id: str, kind: str) -> str:
        """The match as ``kind``, one of :data:`EXPORT_FORMATS`.

        ``json`` is every event as recorded, rulings included (lossless: import
        reads it back); ``mat`` and the score sheets (USBGF 4.7) are the match
        as corrected by the rulings in force.

        :raises MatchNotFoundError: for an unknown match.
        :raises UnwritableNameError: for a player name a .mat file cannot hold.
        :raises ValueError: for an unknown ``kind``.
        """
        from bgledger.interchange.json_stream import export_json
        from bgledger.interchange.mat_writer import export_mat
        from bgledger.projections.views.scoresheet import scoresheet_html, scoresheet_text

        events = self._store.history(match_id)
        if kind == "mat":
            return export_mat(events)
        if kind == "json":
            return json.dumps(export_json(events), ensure_ascii=False, indent=1) + "\n"
        if kind not in EXPORT_FORMATS:
            raise ValueError(f"export format {kind!r}: one of {', '.join(EXPORT_FORMATS)}")
        state = corrected(events)
        assert state is not None  # the history of a match begins with MatchStarted
        render = scoresheet_text if kind == "scoresheet" else scoresheet_html
        return render(state, events)

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
        :func:`~bgledger.store.integrity.verify_ledger`'s.

        :raises MatchNotFoundError: for an unknown match (one the read models
            list is reported as deleted instead).
        """
        from bgledger.projections.readmodels.audit import audit_read_models
        from bgledger.store.integrity import verify_ledger

        return verify_ledger(
            self._store,
            match_id,
            audit=audit_read_models,
            seal=seal,
            allow_unchained=allow_unchained,
        )

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
        was recorded before hash chains, is not sealed.

        :raises InvalidSealError: for an unreadable key, or a seal file that cannot be written.
        :raises SealRefusedError: for a match that cannot be sealed.
        :raises MatchNotFoundError: for an unknown match.
        """
        from bgledger.store.seal import seal_match

        return seal_match(self.verify, match_id, key, out)

    @staticmethod
    def keygen(path: Path) -> Path:
        """Write a director's Ed25519 key pair: ``path`` (private, PEM) and ``path.pub``.

        Returns the public key's path.

        :raises InvalidSealError: if ``path`` exists or a file cannot be written.
        """
        from bgledger.store.seal import keygen as make_key_pair

        return make_key_pair(path)

    # -- who may record through the web server (bgledger.access) ------------------------

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
    ) -> str:
        """A new bearer token for ``bgledger serve`` (printed once; the ledger keeps its hash).

        A scorekeeper's records in ``match_id`` only; a director's in the matches
        of ``event`` (or of ``match_id``); a committee's in its scope, or every
        match without one.  ``label`` is who the events it records are ``by``
        (default: the role and the scope, ``scorekeeper of final``).

        :raises InvalidGrantError: for a role or scope that grants nothing.
        :raises MatchNotFoundError: for an unknown match.
        """
        grant = Grant.checked(role, match_id, event, label)
        if match_id is not None:
            self.state(match_id)  # the match exists
        return self._tokens().issue(grant)

    def authorize(self, token: str | None, match_id: str, line: str | None = None) -> str:
        """Who records with ``token`` in ``match_id`` (``line``, if given): the token's label.

        A line that says who allowed it (``undo --ruled-by director``) needs a
        token of that role or above: a scorekeeper's pad cannot claim the director.

        :raises UnknownTokenError: for no token, or one never issued or revoked.
        :raises TokenScopeError: for a token of another match or event, or a line
            claiming a ruler the token's role is not.
        :raises MatchNotFoundError: for an unknown match.
        :raises InvalidActionError: for a line that is no action.
        """
        grant = self._tokens().held(token, "bgledger token MATCH --role scorekeeper")
        grant.check_covers(match_id, lambda: self.state(match_id).event)
        action = Action.parse(line) if line is not None else None
        claimed = action.ruler if action is not None else ""
        if not grant.may_claim(claimed):
            decision = action.directors_decision if action is not None else None
            profile = get_profile(self.state(match_id).profile)
            why = f" ({profile.cite(decision)})" if decision else ""
            raise TokenScopeError(
                f"{line!r} is the {claimed}'s{why}: this token ({grant.label}) is a "
                f"{grant.role}'s; record it with the {claimed}'s token"
            )
        return grant.label

    def start_match(self, token: str | None, setup: object) -> Started:
        """Start the match ``setup`` describes, for ``token``'s holder, and issue its pad's token.

        ``setup`` is ``start``'s options as a JSON object (:data:`START_FIELDS`):
        ``{"a": "Ann", "b": "Bob", "length": 7, "event": "Open"}``.  A director's
        token starts matches of its event, the committee's any match (its event's,
        if it has one); the match is recorded ``by`` the token's label, and a
        scorekeeper's token for it is issued.  Nothing is stored on a refusal.

        :raises UnknownTokenError: for no token, or one never issued or revoked.
        :raises InvalidMatchSetupError: for a setup that is no JSON object of
            :data:`START_FIELDS` (or, as :meth:`start`, describes no match).
        :raises TokenScopeError: for a token that may not start a match of the event.
        :raises MatchExistsError: if its ``id`` is taken.
        """
        grant = self._tokens().held(token, "bgledger token --event E --role director")
        players, length, match_id, label, options = _start_options(setup)
        grant.check_starts(options["event"])
        chosen = self.start(players, length, match_id=match_id, by=grant.label, **options)
        return Started(
            chosen, grant.label, self.issue_token("scorekeeper", match_id=chosen, label=label)
        )

    def revoke_token(self, token: str) -> None:
        """Revoke ``token``: it records nothing more.

        :raises UnknownTokenError: if no such token is in force.
        """
        self._tokens().revoke(token)

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
            self._models = ReadModels(self._store)
        return self._models

    def matches(self, event: str | None = None) -> list[dict[str, Any]]:
        """Every match (of ``event``), in the order started: one read-model row each.

        Each row has the match's columns, ``summary`` (``show --json``'s
        document as JSON text) and ``status`` in words.
        """
        rows = self._read_models().matches(event)
        from bgledger.projections.readmodels.rows import status_text

        return [{**row, "status": status_text(row)} for row in rows]

    def rulings(self, event: str | None = None) -> list[dict[str, Any]]:
        """Every ruling in every match (of ``event``): the director's report (USBGF 5.5).

        Each row: the match, the number, kind, rule, who ruled, why, when and
        who recorded it, ``voided_by`` (the ruling that overturned it) and ``details``.
        """
        return self._read_models().rulings(event)

    def standings(self, event: str | None = None) -> list[dict[str, Any]]:
        """Per event and player: matches played, won, lost, in progress, points for and against.

        Finished matches count by their final score; one without a winner is in progress.
        """
        return self._read_models().standings(event)

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
        "event": given.get("event", ""),
        "profile": given.get("profile", DEFAULT_PROFILE),
        "clock": given.get("clock", "none"),
        "round": given.get("round", ""),
        "table": given.get("table", ""),
        "best_of_three": given.get("best_of_three", False),
        "reserve_ms": parse_clock(given["reserve"]) if "reserve" in given else None,
        "delay_ms": None if delay is None else delay * 1000,
        "doubles": given.get("doubles", False),
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


def _watched(
    command: Callable[[Match], T],
) -> Callable[[Match], tuple[MatchState, int, T, Match]]:
    """``command``, also answering the state and version before it and the match after."""

    def run(match: Match) -> tuple[MatchState, int, T, Match]:
        before, version = match.state, match.version
        return before, version, command(match), match

    return run
