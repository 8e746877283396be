"""The fold's part for rulings (USBGF 4.2.3, 4.4.6-4.4.10, 4.7, 4.8, 5.2).

A ruling (:class:`~bgledger.events.RulingMade`) records the corrected state right
after it: folding it loads that state, all but what a ruling never replaces (the
clock, the breaks, the penalty points and the stream's hash chain).  Folded
without it, as :mod:`bgledger.projections.state.corrected` does to recompute that state from
the events in force, a ruling applies its own fields: a corrected score, the
points a reverted player must move from again (CLASSIC 10), a corrected match
length.  A length corrected during a game takes effect after it
(:func:`new_length`, USBGF 4.8.4, 4.8.5(a)), unless that game ended the match
(USBGF 4.8.3).

:mod:`bgledger.projections.state.fold` registers :data:`HANDLERS` and calls :func:`new_length`
when a game ends; like every handler they change a draft of the state and
never raise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, Protocol

from bgledger.events import (
    CrawfordPassNullified,
    CubeActionVoided,
    CubeLevelCorrected,
    MatchEvent,
    MatchLengthCorrected,
    PlaysReverted,
    RulingMade,
    RulingNoted,
    RulingOverturned,
    ScoreCorrected,
    StartingPositionCorrected,
)
from bgledger.projections.state.codec import state_from_dict
from bgledger.projections.state.model import Crawford, MatchState, Phase

__all__ = ["HANDLERS", "Draft", "new_length"]


class Draft(Protocol):
    """The fields of the fold's draft state that rulings change by name.

    A ruling's corrected state sets every :class:`MatchState` field but the
    kept ones, by ``setattr``.
    """

    length: int
    crawford_rule: bool
    score: tuple[int, int]
    crawford: Crawford
    phase: Phase
    next_length: int | None
    obliged: tuple[int, ...]
    anomalies: tuple[str, ...]


_KEPT = ("timer", "breaks", "penalties", "clock", "head")
"""What a ruling's corrected state never replaces: time ran as it ran (events_time), and
the stream's hash chain is the stream's."""
_LOADED = tuple(f.name for f in fields(MatchState) if f.name not in _KEPT)


def new_length(d: Draft, length: int) -> None:
    """The corrected match length takes effect (USBGF 4.8.4, 4.8.5(a))."""
    d.length, d.next_length = length, None
    one_away = length - 1 in d.score and max(d.score) < length
    d.crawford = Crawford.CRAWFORD if d.crawford_rule and one_away else Crawford.PRE


def _ruled(d: Draft, event: RulingMade) -> None:
    if event.state:  # the corrected state the ruling recorded
        try:
            loaded = state_from_dict(event.state)
        except (ValueError, KeyError, TypeError, IndexError) as error:  # never raise: note it
            problem = f"event {event.originator_version}: corrected state unreadable: {error}"
            d.anomalies = (*d.anomalies, problem)
            return
        for name in _LOADED:
            setattr(d, name, getattr(loaded, name))
    elif isinstance(event, ScoreCorrected):
        d.score = (event.score_a, event.score_b)
        if d.phase is Phase.BETWEEN_GAMES and d.crawford is not Crawford.POST:
            one_away = d.length - 1 in d.score and max(d.score) < d.length
            d.crawford = Crawford.CRAWFORD if d.crawford_rule and one_away else Crawford.PRE
    elif isinstance(event, PlaysReverted):
        d.obliged = tuple(event.same_checker)  # CLASSIC 10: the man wrongly moved
    elif isinstance(event, MatchLengthCorrected):
        if d.phase in (Phase.BETWEEN_GAMES, Phase.OVER):
            new_length(d, event.length)
        else:
            d.next_length = event.length


HANDLERS: dict[type[MatchEvent], Callable[[Draft, Any], None]] = dict.fromkeys(
    (
        StartingPositionCorrected,
        PlaysReverted, CubeActionVoided, CrawfordPassNullified, CubeLevelCorrected,
        MatchLengthCorrected, ScoreCorrected, RulingNoted, RulingOverturned,
    ),
    _ruled,
)  # fmt: skip
"""The fold's handler of each kind of ruling (one for all)."""
