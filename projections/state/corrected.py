"""Which events are in force after the rulings, and the match as corrected.

A ruling (:class:`~bgledger.events.RulingMade`) lists the events it voids and,
for an appeal, the events it restores; nothing is ever deleted.  This module
reads those lists:

- :func:`voided_by`: each voided event and the ruling that voided it;
- :func:`in_force`: the events still in force, with the corrections of cube
  levels (USBGF 4.4.8) applied to the events they correct;
- :func:`corrected`: the match as corrected today, at any moment: the one
  fold (:mod:`bgledger.projections.state.fold`) over the events in force up to that moment.

Two views of the past (DESIGN principle 4): ``Ledger.state(id, at=N)`` is the
match as recorded after event N (what the log said then, rulings made by
then included); ``corrected(events, at=N)`` is the same moment seen through
every ruling made since.  A ruling records the corrected state it leads to,
so folding forward needs no look back; here that state is recomputed from the
events in force, and the two agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from bgledger.events import (
    CubeLevelCorrected,
    CubeOffered,
    CubeTaken,
    MatchEvent,
    PrematureDoubleMade,
    RulingMade,
)
from bgledger.projections.state.fold import MatchState, fold

__all__ = ["corrected", "in_force", "rulings_in_force", "voided_by"]


def voided_by(events: Iterable[MatchEvent]) -> dict[int, int]:
    """Each event out of force, mapped to the number of the ruling that voided it.

    Only a ruling in force counts: one that a later ruling voided (an appeal)
    voids and restores nothing, and one an appeal restored counts again.  A
    ruling names only earlier events, so reading the rulings from the last
    one back decides each ruling before the events it names: an event is
    out of force if the last ruling in force that names it voids it.
    """
    rulings = [e for e in events if isinstance(e, RulingMade)]
    named: dict[int, int | None] = {}  # event -> the ruling voiding it; None: restored
    for ruling in reversed(rulings):
        if named.get(ruling.originator_version) is not None:
            continue  # voided by a later ruling in force
        for number in ruling.voids:
            named.setdefault(number, ruling.originator_version)
        for number in ruling.restores:
            named.setdefault(number, None)
    return {number: by for number, by in sorted(named.items()) if by is not None}


def rulings_in_force(events: Sequence[MatchEvent]) -> list[RulingMade]:
    """The rulings not voided by a later ruling (an appeal), in order."""
    voided = voided_by(events)
    return [e for e in events if isinstance(e, RulingMade) and e.originator_version not in voided]


def in_force(events: Sequence[MatchEvent]) -> list[MatchEvent]:
    """The events in force, in order, rulings included without their recorded state.

    A cube level correction in force changes the value of the double it
    corrects and of the take that answered it.
    """
    voided = voided_by(events)
    kept = [e for e in events if e.originator_version not in voided]
    levels = {e.event: e.value for e in kept if isinstance(e, CubeLevelCorrected)}
    result: list[MatchEvent] = []
    offered: int | None = None
    for event in kept:
        if isinstance(event, RulingMade):
            event = replace(event, state={})
        elif isinstance(event, CubeOffered | PrematureDoubleMade):
            offered = event.originator_version
            if offered in levels:
                event = replace(event, value=levels[offered])
        elif isinstance(event, CubeTaken) and offered in levels:
            event = replace(event, value=levels[offered])
        result.append(event)
    return result


def corrected(events: Sequence[MatchEvent], at: int | None = None) -> MatchState | None:
    """The match as corrected by every ruling in ``events``, after event ``at`` (default: now).

    The moment ``at`` is a place in the log: the events in force numbered up
    to ``at`` are folded, so an event voided later does not count even at a
    moment before its ruling.
    """
    kept = in_force(events)
    if at is not None:
        kept = [e for e in kept if e.originator_version <= at]
    return fold(kept)
