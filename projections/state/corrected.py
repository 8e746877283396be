"""Which events are in force after the rulings, and the match as corrected.

A ruling (:class:`~bgledger.events.RulingMade`) lists the events it voids and,
for an appeal, the events it restores; nothing is ever deleted.  This module
reads those lists (the functions live with the fold's part for rulings,
:mod:`bgledger.projections.state.rulings`, which needs them too):

- :func:`voided_by`: each voided event and the ruling that voided it;
- :func:`in_force`: the events still in force, with the corrections of cube
  levels (USBGF 4.4.8) applied to the events they correct;
- :func:`corrected`: the match as corrected today, at any moment: the one
  fold over the events in force up to that moment
  (:func:`~bgledger.projections.state.fold.fold_in_force`).

Two views of the past (DESIGN principle 4): ``Ledger.state(id, at=N)`` is the
match as recorded after event N (what the log said then, rulings made by
then included); ``corrected(events, at=N)`` is the same moment seen through
every ruling made since.  Both come from the same facts: the match as
recorded right after a ruling is the match as corrected by the rulings up to
it (:func:`~bgledger.projections.state.fold.fold` works it out so), and
neither is stored.
"""

from __future__ import annotations

from collections.abc import Sequence

from bgledger.events import MatchEvent
from bgledger.projections.state.fold import MatchState, fold_in_force
from bgledger.projections.state.rulings import in_force, rulings_in_force, voided_by

__all__ = ["corrected", "in_force", "rulings_in_force", "voided_by"]


def corrected(events: Sequence[MatchEvent], at: int | None = None) -> MatchState | None:
    """The match as corrected by every ruling in ``events``, after event ``at`` (default: now).

    The moment ``at`` is a place in the log: the events in force numbered up
    to ``at`` are folded, so an event voided later does not count even at a
    moment before its ruling.
    """
    kept = in_force(events)
    if at is not None:
        kept = [e for e in kept if e.originator_version <= at]
    return fold_in_force(kept)
