"""The rulings section of the score sheet (:mod:`bgledger.projections.views.scoresheet`).

Every ruling of the match, in order: its event number, what it did, the rule
it applied, who ruled and why.  A ruling an appeal committee overturned
(USBGF 5.2) is marked ``overturned``, one a later ruling voided (a ruling
recorded after an illegal play that was then taken back) ``voided``, each
with the number of the ruling that did it
(:func:`~bgledger.projections.views.words.ruling_status`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
)
from bgledger.projections.state.corrected import voided_by
from bgledger.projections.views.words import ruling_status

__all__ = ["RULING_COLUMNS", "RulingRow", "ruling_rows"]

RULING_COLUMNS = ("Event", "Ruling", "Rule", "Ruled by", "Reason", "")


@dataclass(frozen=True, slots=True)
class RulingRow:
    """One ruling as the sheet lists it.

    :ivar number: the ruling's event number.
    :ivar what: what it did (``'play reverted (event 6)'``, ``'score 2-1'`` ...).
    :ivar rule: the rule it applied; ``ruled_by`` who ruled (director, committee, players).
    :ivar status: ``''`` for a ruling in force, ``'overturned by ruling 31'`` for one
        an appeal reversed, ``'voided by ruling 44'`` for one a later ruling voided.
    """

    number: int
    what: str
    rule: str
    ruled_by: str
    reason: str
    status: str

    def cells(self) -> tuple[str, ...]:
        """The row's cells in :data:`RULING_COLUMNS` order."""
        return (str(self.number), self.what, self.rule, self.ruled_by, self.reason, self.status)


def _what(event: RulingMade) -> str:
    if isinstance(event, PlaysReverted):
        return f"play reverted (event {event.event})"
    if isinstance(event, CubeActionVoided):
        return f"double voided (event {event.event})"
    if isinstance(event, CrawfordPassNullified):
        return f"pass nullified (event {event.event})"
    if isinstance(event, CubeLevelCorrected):
        return f"double stands at {event.value} (event {event.event})"
    if isinstance(event, MatchLengthCorrected):
        return f"match length {event.length}"
    if isinstance(event, ScoreCorrected):
        return f"score {event.score_a}-{event.score_b}"
    if isinstance(event, RulingOverturned):
        return f"ruling {event.ruling} overturned"
    return "noted" if isinstance(event, RulingNoted) else type(event).__name__


def _status(number: int, voided: dict[int, int], events: dict[int, MatchEvent]) -> str:
    voider = voided.get(number)
    if voider is None:
        return ""  # in force: the cell is left blank
    appeal = events.get(voider)
    return ruling_status(voider, isinstance(appeal, RulingOverturned) and appeal.ruling == number)


def ruling_rows(events: Sequence[MatchEvent]) -> tuple[RulingRow, ...]:
    """Every ruling in ``events``, in order, those out of force marked."""
    voided = voided_by(events)
    numbered = {e.originator_version: e for e in events}
    return tuple(
        RulingRow(
            e.originator_version,
            _what(e),
            e.rule,
            e.ruled_by,
            e.reason,
            _status(e.originator_version, voided, numbered),
        )
        for e in events
        if isinstance(e, RulingMade)
    )
