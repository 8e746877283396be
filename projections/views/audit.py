"""The audit trail: every event of a match, numbered, dated and described in words.

``bgledger history`` prints :func:`history`; ``history --json`` prints
:func:`history_json`.  Each event is described against the state just before
and just after it, as the one fold (:func:`bgledger.projections.state.fold.apply`) works it
out, so the words use the players' names, the cube and the score of the
moment.  An event that records something the rules forbid (an illegal play, a
forbidden double or concession made at the board, DESIGN principle 2) is
flagged, with its rule.

A ruling (a compensating event) is described with the rule, who ruled, what
it voids or puts back in force and why (:mod:`bgledger.projections.views.audit_rulings`);
every event a ruling in force took out of force carries that ruling's number
in ``voided_by`` (:func:`bgledger.projections.state.corrected.voided_by`): nothing is ever
deleted, so the trail shows what was recorded and what stands.

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("demo"), "demo", ("Ann", "Bob"), 3, by="kim")
    >>> match.opening(3, 1, by="kim")
    >>> [entry.text for entry in history(match.collect_events())][1:]
    ['game 1 started', 'opening roll: Ann 3, Bob 1: Ann plays first']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from bgledger.events import (
    CheckersPlayed,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    GameStarted,
    GameWon,
    MatchEvent,
    MatchStarted,
    MatchWon,
    OpeningRollMade,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    RollVoided,
    RulingMade,
    StartingPositionRecorded,
    UnplayablePlayRecorded,
)
from bgledger.projections.state.corrected import voided_by
from bgledger.projections.state.fold import Crawford, MatchState, apply, other
from bgledger.projections.state.model import game_points
from bgledger.projections.views.audit_premature import DESCRIBERS as PREMATURE_DESCRIBERS
from bgledger.projections.views.audit_rulings import RulingDetails, describe_ruling, ruling_details
from bgledger.projections.views.audit_time import DESCRIBERS as TIME_DESCRIBERS
from bgledger.projections.views.audit_time import ClockReading, clock_reading, match_won_text
from bgledger.projections.views.words import points_of
from bgledger.rules.results import GameResult

__all__ = [
    "ClockReading",
    "HistoryEntry",
    "RulingDetails",
    "describe",
    "history",
    "history_json",
    "history_line",
    "result_text",
    "score_text",
]


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One line of the audit trail.

    :ivar number: the event's number in the match (its ``originator_version``).
    :ivar at: when it happened at the board.
    :ivar recorded_by: who recorded it.
    :ivar kind: the event's class name (``CheckersPlayed`` ...).
    :ivar text: what happened, in one line, with the players' names.
    :ivar flagged: True if the event records something the rules forbid.
    :ivar rule: the rule the event cites, if any.
    :ivar game: the number of the game at that event (0 before the first).
    :ivar voided_by: the ruling in force that took this event out of force, if any
        (for a ruling: the appeal that overturned it).
    :ivar ruling: for a ruling, who ruled, why and what it voided or restored.
    :ivar clock: the game clocks just after the event, in a match with a clock.
    """

    number: int
    at: str
    recorded_by: str
    kind: str
    text: str
    flagged: bool
    rule: str | None
    game: int
    voided_by: int | None = None
    ruling: RulingDetails | None = None
    clock: ClockReading | None = None


def history(events: Iterable[MatchEvent]) -> list[HistoryEntry]:
    """The audit trail of ``events``, folding them as it goes; one entry per event.

    Each event voided by a ruling in force is marked with that ruling's number.
    Never raises for well-typed events: an event of a kind this version does
    not know is listed under its class name.
    """
    events = list(events)
    voided = voided_by(events)
    numbered = {event.originator_version: event for event in events}
    entries: list[HistoryEntry] = []
    state: MatchState | None = None
    for index, event in enumerate(events):
        after = apply(state, event, events[:index] if isinstance(event, RulingMade) else None)
        number = event.originator_version
        entries.append(
            HistoryEntry(
                number=number,
                at=event.at,
                recorded_by=event.recorded_by,
                kind=type(event).__name__,
                text=describe(event, state, after, numbered),
                flagged=after.flagged[-1:] == (number,),
                rule=_rule(event),
                game=after.game,
                voided_by=voided.get(number),
                ruling=ruling_details(event),
                clock=clock_reading(event, after),
            )
        )
        state = after
    return entries


def history_json(entries: Iterable[HistoryEntry]) -> list[dict[str, Any]]:
    """``history --json``: one object per entry, with the fields of :class:`HistoryEntry`.

    ``voided_by`` is the number of the ruling that voided the event, or null.
    A ruling's object also has ``ruled_by``, ``reason``, ``agreed``, ``voids``,
    ``restores`` (lists of event numbers) and ``in_force`` (false once overturned).  In a
    match with a game clock, each object has ``clock``: ``reserve_a_ms``, ``reserve_b_ms``,
    ``running`` and ``stopped`` just after the event (:class:`ClockReading`).
    """
    documents = []
    for entry in entries:
        document = asdict(entry)
        if document["clock"] is None:
            del document["clock"]
        details = document.pop("ruling")
        if details is not None:
            document.update(details, in_force=entry.voided_by is None)
            document["voids"] = list(details["voids"])
            document["restores"] = list(details["restores"])
        documents.append(document)
    return documents


def history_line(entry: HistoryEntry, width: int = 0) -> str:
    """``entry`` as ``bgledger history`` prints it: number, mark, time, recorder, text.

    The mark is ``x`` for an event a ruling voided (the line then ends with
    ``[voided by ruling N]``), ``!`` for one flagged against the rules, ``R``
    for a ruling; ``width`` pads the recorder's name.
    """
    mark = "x" if entry.voided_by else "!" if entry.flagged else "R" if entry.ruling else " "
    when = entry.at[:19].replace("T", " ")
    text = entry.text
    if entry.voided_by:
        text += f"  [voided by ruling {entry.voided_by}]"
    return f"{entry.number:>5} {mark} {when}  {entry.recorded_by:<{width}}  {text}"


def describe(
    event: MatchEvent,
    before: MatchState | None,
    after: MatchState,
    events: Mapping[int, MatchEvent] | None = None,
) -> str:
    """``event`` in one line, for a tournament director, using the players' names.

    ``before`` is the state the event was applied to (``None`` for the first
    event), ``after`` the state it made; ``events`` maps event numbers to the
    match's earlier events, which a ruling's description names.  An event of
    an unknown kind is described by its class name.
    """
    if isinstance(event, RulingMade):
        return describe_ruling(event, before or after, after, events or {})
    if isinstance(event, MatchWon):  # on time or by penalty points: the event before says
        return match_won_text(event, after, (events or {}).get(event.originator_version - 1))
    describer = _DESCRIBERS.get(type(event))
    if describer is None:
        return type(event).__name__
    return describer(event, before or after, after)


def _rule(event: MatchEvent) -> str | None:
    rule = getattr(event, "rule", None)
    return rule if isinstance(rule, str) and rule else None


# -- phrases shared with the other views ------------------------------------------


def result_text(result: str) -> str:
    """A game result as a noun phrase: ``'a single game'``, ``'a gammon'``, ``'a backgammon'``."""
    return "a single game" if result == str(GameResult.SINGLE) else f"a {result}"


def score_text(state: MatchState) -> str:
    """The score with the names: ``'Ann 4, Bob 1'``."""
    return f"{state.players[0]} {state.score[0]}, {state.players[1]} {state.score[1]}"


def _illegal(text: str, reason: str | None, rule: str | None) -> str:
    why = f": {reason}" if reason else ""
    cited = f" ({rule})" if rule else ""
    return f"ILLEGAL: {text}{why}{cited}"


# -- one describer per event type ------------------------------------------------

E = TypeVar("E", bound=MatchEvent)
_Describer = Callable[[Any, MatchState, MatchState], str]
_DESCRIBERS: dict[type[MatchEvent], _Describer] = {}


def _on(event_type: type[E]) -> Callable[[Callable[[E, MatchState, MatchState], str]], _Describer]:
    def register(describer: Callable[[E, MatchState, MatchState], str]) -> _Describer:
        _DESCRIBERS[event_type] = describer
        return describer

    return register


@_on(MatchStarted)
def _match_started(event: MatchStarted, before: MatchState, after: MatchState) -> str:
    parts = [
        f"match started: {event.player_a} v {event.player_b}",
        points_of(event.length),
        event.profile,
        "Crawford rule" if event.crawford else "no Crawford rule",
    ]
    if event.clock != "none":
        parts.append(f"{event.clock} clock")
    for label, value in (("event", event.event), ("round", event.round), ("table", event.table)):
        if value:
            parts.append(f"{label} {value}")
    return ", ".join(parts)


_CRAWFORD_NOTE = {Crawford.CRAWFORD: " (Crawford game)", Crawford.POST: " (post-Crawford)"}


@_on(GameStarted)
def _game_started(event: GameStarted, before: MatchState, after: MatchState) -> str:
    note = _CRAWFORD_NOTE.get(after.crawford, "") if after.crawford_rule else ""
    score = f" at {score_text(after)}" if any(after.score) else ""
    return f"game {event.number} started{score}{note}"


@_on(OpeningRollMade)
def _opening(event: OpeningRollMade, before: MatchState, after: MatchState) -> str:
    if event.die_a == event.die_b:
        return f"opening roll tied {event.die_a}-{event.die_b}: rolled again"
    first = after.name("a" if event.die_a > event.die_b else "b")
    return (
        f"opening roll: {after.players[0]} {event.die_a}, {after.players[1]} {event.die_b}: "
        f"{first} plays first"
    )


@_on(DiceRolled)
def _rolled(event: DiceRolled, before: MatchState, after: MatchState) -> str:
    return f"{after.name(event.player)} rolled {event.die1}-{event.die2}"


@_on(RollVoided)
def _voided(event: RollVoided, before: MatchState, after: MatchState) -> str:
    whose = "the opening roll" if before.opening_dice else f"{after.name(event.player)}'s roll"
    cited = f" ({event.rule})" if event.rule else ""
    return f"{whose} was voided: {event.reason}{cited}"


@_on(CheckersPlayed)
def _played(event: CheckersPlayed, before: MatchState, after: MatchState) -> str:
    name = after.name(event.player)
    if event.legal:
        return f"{name} played {event.play}" if event.play else f"{name} could not move"
    made = f"played {event.play}" if event.play else "did not move"
    dice = f" with {before.dice[0]}-{before.dice[1]}" if before.dice else ""
    return _illegal(f"{name} {made}{dice}", event.reason, event.rule)


@_on(StartingPositionRecorded)
def _set_up(event: StartingPositionRecorded, before: MatchState, after: MatchState) -> str:
    return _illegal(f"game {after.game} set up wrongly", event.reason, event.rule)


@_on(UnplayablePlayRecorded)
def _unplayable(event: UnplayablePlayRecorded, before: MatchState, after: MatchState) -> str:
    name = after.name(event.player)
    return (
        f"UNPLAYABLE: {name}'s play {event.play!r} as transcribed: {event.reason}; board unchanged"
    )


@_on(CubeOffered)
def _doubled(event: CubeOffered, before: MatchState, after: MatchState) -> str:
    text = f"{after.name(event.player)} doubled to {event.value}"
    return text if event.legal else _illegal(text, event.reason, event.rule)


@_on(CubeTaken)
def _taken(event: CubeTaken, before: MatchState, after: MatchState) -> str:
    name = after.name(event.player)
    return f"{name} took: cube at {event.value}, {name} owns it"


@_on(CubeDropped)
def _dropped(event: CubeDropped, before: MatchState, after: MatchState) -> str:
    doubler = after.name(other(event.player))
    won = points_of(game_points("single", "drop", after.cube))
    return f"{after.name(event.player)} passed at {event.value}: {doubler} wins {won}"


@_on(ResignationOffered)
def _resign_offered(event: ResignationOffered, before: MatchState, after: MatchState) -> str:
    text = f"{after.name(event.player)} offered to resign {result_text(event.level)}"
    return text if event.legal else _illegal(text, event.reason, event.rule)


def _offer_of(state: MatchState) -> str:
    offer = state.resignation
    return f" ({result_text(offer.level)})" if offer else ""


@_on(ResignationAccepted)
def _resign_accepted(event: ResignationAccepted, before: MatchState, after: MatchState) -> str:
    return f"{after.name(event.player)} accepted the resignation{_offer_of(before)}"


@_on(ResignationRejected)
def _resign_rejected(event: ResignationRejected, before: MatchState, after: MatchState) -> str:
    return f"{after.name(event.player)} rejected the resignation{_offer_of(before)}: play goes on"


_HOW = {"drop": " (a pass)", "resign": " (a resignation)"}


@_on(GameWon)
def _game_won(event: GameWon, before: MatchState, after: MatchState) -> str:
    return (
        f"game {event.number}: {after.name(event.winner)} wins {result_text(event.result)}"
        f"{_HOW.get(event.how, '')}, cube {event.cube}: {points_of(event.points)} "
        f"({score_text(after)})"
    )


_DESCRIBERS.update(PREMATURE_DESCRIBERS)
_DESCRIBERS.update(TIME_DESCRIBERS)
