"""The rulings in the audit trail: one line per compensating event, in words.

:mod:`bgledger.projections.views.audit` describes every event; a ruling
(:class:`~bgledger.events.RulingMade`) is described here because its words
need the events it names, not only the state around it::

    RULING (USBGF 4.2.3(a), director): event 4 void: Ann's illegal play 13/10 13/8
    taken back, Ann to play 5-2 again; reason: moved a 5 and a 3

The line gives the rule, who ruled (and whether the players agreed, USBGF
4.2.3(f)), the events voided or put back in force, what the ruling does to
the match, and the ruler's reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bgledger.events import (
    CheckersPlayed,
    CrawfordPassNullified,
    CubeActionVoided,
    CubeLevelCorrected,
    CubeOffered,
    DiceRolled,
    MatchEvent,
    MatchLengthCorrected,
    PlaysReverted,
    PrematureRollMade,
    RulingMade,
    RulingNoted,
    RulingOverturned,
    ScoreCorrected,
    StartingPositionCorrected,
    UnplayablePlayRecorded,
)
from bgledger.projections.state.model import MatchState
from bgledger.projections.views.words import points_of, ruled_by_text

__all__ = ["RulingDetails", "describe_ruling", "numbers_text", "ruling_details"]

Events = Mapping[int, MatchEvent]


@dataclass(frozen=True, slots=True)
class RulingDetails:
    """What a ruling's history entry adds: who ruled, why, and what it voided or restored.

    :ivar ruled_by: ``director``, ``committee`` or ``players``.
    :ivar reason: the ruler's words.
    :ivar agreed: the players agreed to the correction (USBGF 4.2.3(f)).
    :ivar voids: the events the ruling took out of force.
    :ivar restores: the events it put back in force (an appeal).
    """

    ruled_by: str
    reason: str
    agreed: bool
    voids: tuple[int, ...]
    restores: tuple[int, ...]


def ruling_details(event: MatchEvent) -> RulingDetails | None:
    """What a ruling's history entry adds; None for any other event."""
    if not isinstance(event, RulingMade):
        return None
    return RulingDetails(
        event.ruled_by, event.reason, event.agreed, tuple(event.voids), tuple(event.restores)
    )


def numbers_text(numbers: Iterable[int]) -> str:
    """Event numbers in words, runs collapsed: ``'event 4'``, ``'events 41-44, 47'``."""
    ordered = sorted(set(numbers))
    runs: list[list[int]] = []
    for number in ordered:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    parts = [str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs]
    return ("event " if len(ordered) == 1 else "events ") + ", ".join(parts)


def describe_ruling(
    event: RulingMade, before: MatchState, after: MatchState, events: Events
) -> str:
    """``event`` in one line: rule, ruler, what it voids or restores, what it does, and why.

    ``events`` maps the match's event numbers to its events (those the ruling
    names are described from it; a missing one is named by its number only).
    """
    head = f"RULING ({ruled_by_text(event.rule, event.ruled_by, event.agreed)})"
    named = [numbers_text(event.voids) + " void"] if event.voids else []
    if event.restores:
        named.append(numbers_text(event.restores) + " back in force")
    parts = [", ".join(named)] if named else []
    explain = _EXPLAINERS.get(type(event))
    if explain is not None:
        parts.append(explain(event, after, events))
    return f"{head}: " + ": ".join(parts) + f"; reason: {event.reason}"


def _doubler(number: int, after: MatchState, events: Events) -> str:
    offered = events.get(number)
    if isinstance(offered, CubeOffered):
        return f"{after.name(offered.player)}'s double to {offered.value} (event {number})"
    return f"the double at event {number}"


def _reverted(event: PlaysReverted, after: MatchState, events: Events) -> str:
    play = events.get(event.event)
    if not event.voids:  # a missed hit with only a take on the doubler's time (USBGF 4.1.8.1)
        return f"nothing nullified: no roll or move was made on the time of event {event.event}"
    if isinstance(play, CheckersPlayed | UnplayablePlayRecorded):
        shown = play.play or "(no move)"
        what = f"{after.name(play.player)}'s illegal play {shown} taken back"
    elif isinstance(play, DiceRolled | PrematureRollMade):  # a missed hit (USBGF 4.1.8.1)
        roll = f"{play.die1}-{play.die2}"
        what = f"{after.name(play.player)}'s roll {roll} and what followed nullified"
        if after.timer is not None and after.timer.turn is not None:
            what += f": {after.name(after.timer.turn)}'s turn goes on until the clock is hit"
    else:
        what = f"the play at event {event.event} taken back"
    if after.turn is not None and after.dice is not None:
        what += f", {after.name(after.turn)} to play {after.dice[0]}-{after.dice[1]} again"
    return what


def _cube_voided(event: CubeActionVoided, after: MatchState, events: Events) -> str:
    return (
        f"{_doubler(event.event, after, events)} and its take are void: "
        f"the game counts as if the cube had not turned"
    )


def _pass_nullified(event: CrawfordPassNullified, after: MatchState, events: Events) -> str:
    return (
        f"{_doubler(event.event, after, events)} and its pass are nullified: "
        f"the game resumes at the double"
    )


def _level(event: CubeLevelCorrected, after: MatchState, events: Events) -> str:
    return f"{_doubler(event.event, after, events)} stands at {event.value}"


def _length(event: MatchLengthCorrected, after: MatchState, events: Events) -> str:
    when = " from the next game" if after.next_length == event.length else ""
    return f"the match is {points_of(event.length)}{when}"


def _score(event: ScoreCorrected, after: MatchState, events: Events) -> str:
    a, b = after.players
    return f"the score is {a} {event.score_a}, {b} {event.score_b}"


def _noted(event: RulingNoted, after: MatchState, events: Events) -> str:
    return "noted for the record"


def _overturned(event: RulingOverturned, after: MatchState, events: Events) -> str:
    return f"ruling {event.ruling} overturned on appeal"


def _setup(event: StartingPositionCorrected, after: MatchState, events: Events) -> str:
    if event.replayed:
        return f"setup of event {event.event} corrected: the game starts again with new rolls"
    return f"setup of event {event.event} corrected: the plays so far stand on the right position"


_EXPLAINERS: dict[type[RulingMade], Callable[[Any, MatchState, Events], str]] = {
    StartingPositionCorrected: _setup,
    PlaysReverted: _reverted,
    CubeActionVoided: _cube_voided,
    CrawfordPassNullified: _pass_nullified,
    CubeLevelCorrected: _level,
    MatchLengthCorrected: _length,
    ScoreCorrected: _score,
    RulingNoted: _noted,
    RulingOverturned: _overturned,
}
