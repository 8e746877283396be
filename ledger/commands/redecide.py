"""Recorded events decided again: the command that records each kind, and a comparison.

Two things re-decide events that are already recorded, through the match's
own commands (no second copy of any decision):

- ``amend`` (:mod:`bgledger.commands.corrections`) re-decides the entries
  after a mis-entered one on the amended history: they stand only if the
  commands record them again, field by field;
- the JSON import (:mod:`bgledger.interchange.json_recheck`) re-decides every
  event of a file, adding the rulings and the clock's sanctions.

:data:`ACTIONS` names the command recording each game action and :data:`CLOCK_LINES`
each clock and break line a scorekeeper enters, as ``(match, event, given)``
where ``given`` holds ``by`` and ``at`` (the time to decide it at, or None for
now).  :func:`same_facts` compares what a command recorded with the event it
re-decides, times and chain aside.

An opening roll records the lower die's hit with it (CLOCK 3.3) unless ``given`` says
``start_clock`` False (a match recorded before it did); a roll is re-decided as played, after
the implied hit it came with, if any (its own line, :class:`~bgledger.events.ClockHitImplied`).
A dance is re-decided by its empty play (:meth:`~bgledger.commands.play.PlayCommands.move`
records it as the roll does): the roll is re-decided without its automatic dance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from bgledger import events as ev
from bgledger.events import MatchEvent
from bgledger.rules.position import Position

if TYPE_CHECKING:
    from bgledger.commands.match import Match

__all__ = ["ACTIONS", "CLOCK_LINES", "Command", "differences", "same_facts", "when"]

Command = Callable[["Match", Any, dict[str, Any]], object]
"""A command re-deciding one event: ``(match, event, {"by": ..., "at": ...})``."""


def when(given: dict[str, Any]) -> dict[str, Any]:
    """Who records and when, out of ``given``."""
    return {"by": given["by"], "at": given["at"]}


ACTIONS: dict[type[MatchEvent], Command] = {
    ev.OpeningRollMade: lambda m, e, k: m.opening(
        e.die_a, e.die_b, start_clock=k.get("start_clock", True), **when(k)
    ),
    ev.DiceRolled: lambda m, e, k: m.roll(
        e.die1, e.die2, auto_dance=False, as_played=True, **when(k)
    ),
    ev.RollVoided: lambda m, e, k: m.void_roll(e.reason, **when(k)),
    ev.CheckersPlayed: lambda m, e, k: m.move(e.play, as_played=True, **when(k)),
    ev.UnplayablePlayRecorded: lambda m, e, k: m.record_unplayable(e.play, e.reason, **when(k)),
    ev.CubeOffered: lambda m, e, k: m.double(to=e.value, as_played=True, **when(k)),
    ev.CubeTaken: lambda m, e, k: m.take(**when(k)),
    ev.SocialDoubleMade: lambda m, e, k: (
        m.beaver(as_played=True, **when(k))
        if e.kind == "beaver"
        else m.automatic_double(as_played=True, **when(k))
    ),
    ev.CubeDropped: lambda m, e, k: m.drop(**when(k)),
    ev.ResignationOffered: lambda m, e, k: m.resign(
        e.level, player=e.player, as_played=True, **when(k)
    ),
    ev.ResignationAccepted: lambda m, e, k: m.accept(**when(k)),
    ev.ResignationRejected: lambda m, e, k: m.reject(**when(k)),
    ev.PrematureRollMade: lambda m, e, k: m.roll_early(e.die1, e.die2, **when(k)),
    ev.SingleDiceAgreed: lambda m, e, k: m.play_singles(**when(k)),
    ev.PrematureRollAccepted: lambda m, e, k: m.accept_roll(**when(k)),
    ev.PrematureRollRefused: lambda m, e, k: m.refuse_roll(**when(k)),
    ev.PrematureDoubleMade: lambda m, e, k: m.double_early(to=e.value, as_played=True, **when(k)),
    ev.StartingPositionRecorded: lambda m, e, k: m.record_setup(
        Position(tuple(e.board_a), tuple(e.board_b)).position_id, **when(k)
    ),
    ev.RemarkRecorded: lambda m, e, k: m.remark(e.text, **when(k)),
    ev.CopyImported: lambda m, e, k: m.copy_imported(
        e.file, e.sealed_by, e.sealed_through, **when(k)
    ),
    ev.MatchForfeited: lambda m, e, k: m.forfeit_match(e.player, e.reason, **when(k)),
}
"""The command recording each kind of game action."""

CLOCK_LINES: dict[type[MatchEvent], Command] = {
    ev.ClockHit: lambda m, e, k: m.hit(e.player, **when(k)),
    ev.ClockHitImplied: lambda m, e, k: m.hit_implied(**when(k)),  # then the action as played
    ev.ClockStopped: lambda m, e, k: m.stop_clock(e.reason, **when(k)),
    ev.ClockResumed: lambda m, e, k: m.resume_clock(**when(k)),
    ev.ClockRead: lambda m, e, k: m.read_clock((e.reserve_a_ms, e.reserve_b_ms), **when(k)),
    ev.BreakEnded: lambda m, e, k: m.end_break(late=e.late or "none", **when(k)),
}
"""The command recording each clock and break line a scorekeeper enters that its event's
fields decide alone (the clock's start, a break's start and the director's sanctions need
what :mod:`bgledger.interchange.json_recheck` recovers)."""

_NOT_FACTS = frozenset({"timestamp", "at", "chain", "originator_version", "originator_id"})


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
