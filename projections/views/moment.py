"""The two views of the past (DESIGN principle 4): the match at any moment, recorded or corrected.

*Recorded* is the match as the log stood after event N: the one fold of the
first N events (:func:`bgledger.projections.state.fold.fold`), rulings made by
then included.  *Corrected* is the same moment seen through every ruling in
force today (:func:`bgledger.projections.state.corrected.corrected`).  An
appeal committee (USBGF 5.3) steps through both: ``bgledger replay`` in the
terminal, the committee's view in the browser.

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("m"), "m", ("Ann", "Bob"), 3, by="kim")
    >>> match.opening(3, 1, by="kim")
    >>> events = match.collect_events()
    >>> moment(events, 3, as_corrected=False).title()
    'as recorded after event 3'
    >>> moment(events, 3, as_corrected=True).state.turn
    'a'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bgledger.events import MatchEvent, RulingMade
from bgledger.projections.state.corrected import corrected, rulings_in_force
from bgledger.projections.state.fold import MatchState, fold
from bgledger.projections.views.words import ruled_by_text

__all__ = ["Moment", "moment", "ruling_names", "rulings_text"]


@dataclass(frozen=True, slots=True)
class Moment:
    """The match after event ``at`` in one view, with the rulings that bear on it.

    :ivar view: ``recorded`` or ``corrected``.
    """

    state: MatchState
    at: int
    view: str
    rulings: tuple[RulingMade, ...]

    def title(self) -> str:
        """``'as recorded after event 4'`` or ``'as corrected, after event 4'``."""
        if self.view == "recorded":
            return f"as recorded after event {self.at}"
        return f"as corrected, after event {self.at}"


def moment(events: Sequence[MatchEvent], at: int, as_corrected: bool) -> Moment:
    """The match after event ``at`` (1 to ``len(events)``), recorded or corrected.

    Recorded: the first ``at`` events folded, rulings made by then included.
    Corrected: the events in force numbered up to ``at``, through every
    ruling in force today; the rulings listed are those made by ``at`` or
    about an event by ``at`` (:func:`ruling_names`).

    :raises ValueError: if ``at`` is not one of the events' numbers.
    """
    if not 1 <= at <= len(events):
        raise ValueError(f"the match has events 1-{len(events)}: {at} is not one of them")
    if not as_corrected:
        state = fold(events[:at])
        assert state is not None
        return Moment(state, at, "recorded", tuple(rulings_in_force(events[:at])))
    fixed = corrected(events, at=at)
    assert fixed is not None
    bearing = tuple(r for r in rulings_in_force(events) if _bears_on(r, at))
    return Moment(fixed, at, "corrected", bearing)


def _bears_on(ruling: RulingMade, at: int) -> bool:
    named = ruling_names(ruling)
    return ruling.originator_version <= at or (bool(named) and min(named) <= at)


def ruling_names(ruling: RulingMade) -> tuple[int, ...]:
    """The events ``ruling`` is about: those it voids or restores, the event it
    corrects (a cube level set right names the double and voids nothing) and the
    ruling an appeal overturns.
    """
    named = [*ruling.voids, *ruling.restores]
    for field in ("event", "ruling"):  # PlaysReverted.event ..., RulingOverturned.ruling
        number = getattr(ruling, field, None)
        if isinstance(number, int):
            named.append(number)
    return tuple(sorted(set(named)))


def rulings_text(rulings: Sequence[RulingMade]) -> str:
    """The rulings in force, one a line: number, rule, who ruled, reason; '' if none."""
    if not rulings:
        return ""
    lines = ["rulings in force:"]
    for ruling in rulings:
        source = ruled_by_text(ruling.rule, ruling.ruled_by, ruling.agreed)
        lines.append(f"  {ruling.originator_version:>5}  {source}: {ruling.reason}")
    return "\n".join(lines)
