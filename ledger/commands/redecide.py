"""Recorded events decided again: the comparison of what a line records with the log.

Two things re-decide events that are already recorded, by running each
entry's line again (:attr:`~bgledger.events.MatchEvent.said`, DESIGN principle
12) at the entry's time, through the match's own commands (no second copy of
any decision):

- ``amend`` (:mod:`bgledger.commands.corrections`) re-decides the entries
  after a mis-entered one on the amended history: they stand only if their
  lines record them again, field by field;
- the JSON import (:mod:`bgledger.interchange.json_recheck`) re-decides every
  entry of a file, the rulings and the clock's sanctions included.

:func:`same_facts` compares what a line recorded with the event it re-decides,
times and chain aside.  Events stored before lines were kept are decided again
by :mod:`bgledger.commands.legacy`, alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields
from itertools import product
from typing import Any

from bgledger.errors import BgLedgerError
from bgledger.events import ClockStarted, MatchEvent

__all__ = ["clock_timing", "differences", "same_facts"]

_NOT_FACTS = frozenset(
    {"timestamp", "at", "chain", "said", "claimed", "originator_version", "originator_id"}
)
"""What a line run again need not give as the log has it: the times, the chain, and the
line itself (the one that was run)."""


def differences(recorded: MatchEvent, event: MatchEvent) -> list[str]:
    """The fields in which ``event`` differs from ``recorded`` (the command's), times aside."""
    if type(recorded) is not type(event):
        return ["kind"]
    return [
        f.name
        for f in fields(event)
        if f.name not in _NOT_FACTS and getattr(event, f.name) != getattr(recorded, f.name)
    ]


def same_facts(recorded: MatchEvent, event: MatchEvent) -> bool:
    """True if ``recorded`` and ``event`` say the same, times and chain aside."""
    return not differences(recorded, event)


def _timings(event: ClockStarted) -> Iterator[dict[str, Any]]:
    """The options :meth:`~bgledger.commands.clock.ClockCommands.start_clock` may have had:
    defaults first, then the figures."""
    reserve = {None, event.reserve_a_ms}
    for doubles, reserve_ms, delay_ms in product((False, True), reserve, (None, event.delay_ms)):
        yield {"reserve_ms": reserve_ms, "delay_ms": delay_ms, "doubles": doubles}


def clock_timing(
    event: ClockStarted, attempt: Callable[[dict[str, Any]], MatchEvent | None]
) -> dict[str, Any]:
    """The options of :meth:`~bgledger.commands.clock.ClockCommands.start_clock` that record
    ``event``'s fields: what a match's start (which no line makes) was given.

    ``{}`` if none do.

    ``attempt`` records a clock with the options given, on a copy, and
    returns the :class:`ClockStarted` recorded; the first whose fields are
    the file's is chosen.
    """
    for timing in _timings(event):
        try:
            started = attempt(timing)
        except BgLedgerError:
            continue
        if started is not None and set(differences(started, event)) <= {"recorded_by"}:
            return timing
    return {}
