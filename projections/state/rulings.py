"""The fold's part for rulings (USBGF 4.2.3, 4.4.6-4.4.10, 4.5, 4.7, 4.8, 5.2): facts in,
state derived.

A ruling (:class:`~bgledger.events.RulingMade`) records facts only: the events
it voids and restores and what it sets (DESIGN principle 7).  Which events are
in force follows from those lists (:func:`voided_by`, :func:`in_force`), and
the match a ruling leads to is the one fold over the events in force up to it.
:mod:`bgledger.projections.state.fold` folds a ruling in one of two ways, with
the same handlers:

- *in force* (folding :func:`in_force`'s list, as
  :func:`bgledger.projections.state.corrected.corrected` does): the voided
  events are not there, so a ruling applies only its own fields
  (:data:`HANDLERS`): a corrected score, the points a reverted player must move
  from again (CLASSIC 10), a corrected match length.  A length corrected during
  a game takes effect after it (:func:`new_length`, USBGF 4.8.4, 4.8.5(a)),
  unless that game ended the match (USBGF 4.8.3);
- *as recorded* (the log as it stands, every event in it): the match after
  the ruling is the in-force fold of the events before it and the ruling
  itself, all but what a ruling never replaces (:data:`KEPT`: the clock, the
  breaks, the penalty points and the stream's hash chain), which run on from
  the recorded state (:func:`take_corrected`).

Rulings stored before class version 3 also kept a copy of that corrected state;
it is dropped on reading (:meth:`~bgledger.events.RulingMade.upcast_v2_v3`) and
worked out again here, so a change of the state's layout or of its codec never
changes what a stored ruling means.

Like every handler these change a draft of the state and never raise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields, replace
from typing import Any, Protocol

from bgledger.events import (
    ConcessionVoided,
    CrawfordPassNullified,
    CubeActionVoided,
    CubeLevelCorrected,
    CubeOffered,
    CubeTaken,
    EntryAmended,
    EntryCorrected,
    GameStarted,
    MatchEvent,
    MatchLengthCorrected,
    PlaysReverted,
    PrematureDoubleMade,
    RulingMade,
    RulingNoted,
    RulingOverturned,
    ScoreCorrected,
    SocialDoubleMade,
    StartingPositionCorrected,
)
from bgledger.projections.state.classic import RULING_HANDLERS as CLASSIC_RULINGS
from bgledger.projections.state.clock import ClockState
from bgledger.projections.state.corrections import replacement
from bgledger.projections.state.model import Crawford, MatchState, Phase, crawford_status

__all__ = [
    "HANDLERS",
    "KEPT",
    "Draft",
    "amended_slots",
    "in_force",
    "new_length",
    "rulings_in_force",
    "take_corrected",
    "voided_by",
]


class Draft(Protocol):
    """The fields of the fold's draft state that rulings change by name.

    :func:`take_corrected` sets every :class:`MatchState` field but the kept
    ones, by ``setattr``.
    """

    length: int
    crawford_rule: bool
    score: tuple[int, int]
    crawford: Crawford
    phase: Phase
    turn: str | None
    timer: ClockState | None
    replay: str | None
    next_length: int | None
    obliged: tuple[int, ...]
    onward: tuple[int, ...]
    anomalies: tuple[str, ...]


# -- which events are in force ------------------------------------------------------


def voided_by(events: Iterable[MatchEvent]) -> dict[int, int]:
    """Each event out of force, mapped to the number of the ruling or correction that voided it.

    Only a ruling in force counts: one that a later ruling voided (an appeal)
    voids and restores nothing, and one an appeal restored counts again.  A
    ruling names only earlier events, so reading the rulings from the last
    one back decides each ruling before the events it names: an event is
    out of force if the last ruling in force that names it voids it.  A
    scorekeeper's correction (:class:`~bgledger.events.EntryCorrected`) voids
    events the same way, and restores none.
    """
    voiding = [e for e in events if isinstance(e, RulingMade | EntryCorrected)]
    named: dict[int, int | None] = {}  # event -> the ruling voiding it; None: restored
    for ruling in reversed(voiding):
        if named.get(ruling.originator_version) is not None:
            continue  # voided by a later ruling in force
        for number in ruling.voids:
            named.setdefault(number, ruling.originator_version)
        for number in getattr(ruling, "restores", ()):
            named.setdefault(number, None)
    return {number: by for number, by in sorted(named.items()) if by is not None}


def rulings_in_force(events: Sequence[MatchEvent]) -> list[RulingMade]:
    """The rulings not voided by a later ruling (an appeal), in order."""
    voided = voided_by(events)
    return [e for e in events if isinstance(e, RulingMade) and e.originator_version not in voided]


def in_force(events: Sequence[MatchEvent]) -> list[MatchEvent]:
    """The events in force, in order, rulings included (to be folded in force).

    An amendment in force (:class:`~bgledger.events.EntryAmended`) puts the
    events it says happened where the mis-entered entry stood
    (:func:`~bgledger.projections.state.corrections.replacement`), unless a
    later ruling voided that entry too.  A cube level correction in force
    changes the value of the double it corrects and of the take that
    answered it (USBGF 4.4.8).
    """
    voided = voided_by(events)
    slots = amended_slots(events, voided)
    kept: list[MatchEvent] = []
    for event in events:
        number = event.originator_version
        if number in slots:
            kept.extend(replacement(slots[number], number))
        if number not in voided:
            kept.append(event)
    kept = _without_social_doubles(events, voided, kept)
    levels = {e.event: e.value for e in kept if isinstance(e, CubeLevelCorrected)}
    if not levels:
        return kept
    result: list[MatchEvent] = []
    offered: int | None = None
    for event in kept:
        if isinstance(event, CubeOffered | PrematureDoubleMade):
            offered = event.originator_version
            if offered in levels:
                event = replace(event, value=levels[offered])
        elif isinstance(event, CubeTaken) and offered in levels:
            event = replace(event, value=levels[offered])
        result.append(event)
    return result


_CUBE_VALUES = (CubeOffered, PrematureDoubleMade, CubeTaken, SocialDoubleMade)
"""The events that say what the cube is turned to."""


def _without_social_doubles(
    events: Sequence[MatchEvent], voided: dict[int, int], kept: list[MatchEvent]
) -> list[MatchEvent]:
    """``kept`` with the cube actions after a void beaver or automatic double halved.

    USBGF 4.4.10 remedies them "in the same manner as doubling during the
    Crawford Game", whose score is "adjusted as if the cube had never been
    turned" (4.4.6.1): each doubled the cube, so every later cube action of
    that game counts at half the value recorded.
    """
    void = [
        e.originator_version
        for e in events
        if isinstance(e, SocialDoubleMade) and e.originator_version in voided
    ]
    if not void:
        return kept
    result: list[MatchEvent] = []
    factor, passed = 1, 0
    for event in kept:
        while passed < len(void) and void[passed] < event.originator_version:
            factor, passed = factor * 2, passed + 1
        if isinstance(event, GameStarted):
            factor = 1
        if factor > 1 and isinstance(event, _CUBE_VALUES):
            event = replace(event, value=max(1, event.value // factor))
        result.append(event)
    return result


def amended_slots(
    events: Sequence[MatchEvent], voided: dict[int, int] | None = None
) -> dict[int, EntryAmended]:
    """Each entry an amendment in force replaces, mapped to that amendment.

    An entry a later ruling voided as well (its window was open for it) has no
    replacement in force: the amendment's events went with it.
    """
    voided = voided_by(events) if voided is None else voided
    return {
        e.event: e
        for e in events
        if isinstance(e, EntryAmended)
        and e.originator_version not in voided
        and voided.get(e.event) == e.originator_version
    }


# -- a ruling folded as recorded --------------------------------------------------------

KEPT = ("timer", "breaks", "penalties", "clock", "head")
"""What the corrected state never replaces in the recorded one: time ran as it ran (the
clock, break and penalty-point events stand whatever a ruling voids), and the stream's
hash chain is the stream's.  The event count and the time of the last event are the
ruling's in both."""
_TAKEN = tuple(f.name for f in fields(MatchState) if f.name not in KEPT)
_WHOLE = tuple(f.name for f in fields(MatchState) if f.name != "head")


def take_corrected(d: Draft, corrected: MatchState, *, whole: bool = False) -> None:
    """The recorded match after a ruling: ``corrected`` (the in-force fold up to the ruling)
    for everything but :data:`KEPT`; after a recording error corrected (``whole``), for
    everything but the stream's hash chain."""
    for name in _WHOLE if whole else _TAKEN:
        setattr(d, name, getattr(corrected, name))


# -- a ruling folded in force: its own fields ---------------------------------------------


def new_length(d: Draft, length: int) -> None:
    """The corrected match length takes effect (USBGF 4.8.4, 4.8.5(a))."""
    d.length, d.next_length = length, None
    d.crawford = crawford_status(d.crawford_rule, length, d.score)


def _ruled(d: Draft, event: RulingMade) -> None:
    if isinstance(event, ScoreCorrected):
        d.score = (event.score_a, event.score_b)
        if d.phase is Phase.BETWEEN_GAMES and d.crawford is not Crawford.POST:
            d.crawford = crawford_status(d.crawford_rule, d.length, d.score)
    elif isinstance(event, PlaysReverted):
        d.obliged = tuple(event.same_checker)  # CLASSIC 10: the man wrongly moved
        d.onward = tuple(event.moved_on)  # else the man moved correctly, moved on
        # On a clock the offender replays on his own time, then hits (CLOCK 4.3); a missed
        # hit's nullification (USBGF 4.1.8.1) leaves a roll to make, not a play to replay.
        replaying = d.timer is not None and d.phase is Phase.PLAY
        d.replay = d.turn if replaying else None
    elif isinstance(event, MatchLengthCorrected):
        if d.phase in (Phase.BETWEEN_GAMES, Phase.OVER):
            new_length(d, event.length)
        else:
            d.next_length = event.length


HANDLERS: dict[type[MatchEvent], Callable[[Draft, Any], None]] = dict.fromkeys(
    (
        StartingPositionCorrected,
        PlaysReverted, CubeActionVoided, CrawfordPassNullified, ConcessionVoided,
        CubeLevelCorrected,
        MatchLengthCorrected, ScoreCorrected, RulingNoted, RulingOverturned,
    ),
    _ruled,
)  # fmt: skip
HANDLERS.update(CLASSIC_RULINGS)  # CLASSIC 8: a call corrected
"""The fold's handler of each kind of ruling folded in force (one for all)."""
