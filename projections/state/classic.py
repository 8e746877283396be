"""The classic laws of the throw and the touch in the fold, and what they oblige the next play.

The events (:mod:`bgledger.events.classic`) are facts at the table; here the fold derives
what they leave pending, and :func:`dues` what the player on roll's next play must do:

- CLASSIC 10: "If a man wrongly moved can be moved correctly, the player in error is obliged
  to move that man.  If he cannot be moved correctly, the other man that was moved correctly
  on the same throw must be moved on the number of points on the second die, if possible.  If
  the second man cannot be so moved onward, the player is at liberty to move any man he
  pleases."  After a reverted play (``obliged``: the points the men wrongly moved left;
  ``onward``: the points the men moved correctly left), the whole throw is played again: a
  man from ``onward`` "moved on" is one that takes a die and then the second die.
- CLASSIC 11: "Any man touched, except for the purpose of adjusting it, must be moved if the
  piece is playable" (``touched``).
- CLASSIC 7 and 8 change the dice to play (``dice``), keeping the dice thrown (``thrown``)
  while a call that differs from them may still be corrected.

The commands decide on :func:`dues` (:mod:`bgledger.commands.decide`), and what may happen
now words them (:mod:`bgledger.projections.state.allowed`): one answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bgledger.events.classic import CallCorrected, DiceSet, ManAdjusted, ManTouched, ThrowCalled
from bgledger.projections.state.model import MatchState, Phase
from bgledger.rules.legal import LegalPlay, legal_plays
from bgledger.rules.position import Position
from bgledger.rules.profiles import Decision

__all__ = [
    "HANDLERS",
    "RULING_HANDLERS",
    "Due",
    "dues",
    "first_unmet",
    "plays_due",
    "points_of",
]


@dataclass(frozen=True, slots=True)
class Due:
    """What the next play must do: move a man from one of ``points`` (and, ``onward``, move
    him on by the second die), under ``decision``'s rule; ``why`` says it in words."""

    decision: Decision
    points: tuple[int, ...]
    onward: bool
    why: str

    def met_by(self, steps: Sequence[tuple[int, int]]) -> bool:
        """Whether a play of these steps (one die each) does it."""
        if not self.onward:
            return any(source in self.points for source, _ in steps)
        return any(
            a[0] in self.points and any(j != i and b[0] == a[1] for j, b in enumerate(steps))
            for i, a in enumerate(steps)
        )


def points_of(points: Sequence[int]) -> str:
    """``(24, 13)`` as ``24 and 13``; 25 is the bar."""
    named = ["the bar" if point == 25 else str(point) for point in sorted(points, reverse=True)]
    return " and ".join(named)


def _due_plays(state: MatchState) -> tuple[tuple[Due, ...], list[LegalPlay]]:
    if state.phase is not Phase.PLAY or state.dice is None:
        return (), []
    if not (state.obliged or state.touched):
        return (), []
    options = list(legal_plays(state.position, state.dice))
    found: list[Due] = []

    def narrow(due: Due) -> bool:
        nonlocal options
        can = [option for option in options if due.met_by(option.steps)]
        if can:
            found.append(due)
            options = can
        return bool(can)

    if state.obliged:
        wrong = points_of(state.obliged)
        moved = narrow(
            Due(
                Decision.SAME_CHECKER,
                state.obliged,
                False,
                f"the man wrongly moved (from {wrong}) can be moved correctly and must be",
            )
        )
        if not moved and state.onward:
            narrow(
                Due(
                    Decision.SAME_CHECKER,
                    state.onward,
                    True,
                    f"the man wrongly moved (from {wrong}) cannot be moved correctly: the man "
                    f"moved correctly on the same throw (from {points_of(state.onward)}) must "
                    "be moved on by the second die",
                )
            )
    for point in state.touched:
        where = points_of((point,))
        narrow(
            Due(
                Decision.TOUCH_MOVE,
                (point,),
                False,
                f"the man touched on {where} is playable and must be moved",
            )
        )
    return tuple(found), options


def dues(state: MatchState) -> tuple[Due, ...]:
    """What the next play of the player on roll must do, in order: CLASSIC 10's man (or its
    fallback), then each man touched that is still playable (CLASSIC 11).  Empty when the
    player is free (no obligation, or none that a legal play can meet)."""
    return _due_plays(state)[0]


def plays_due(state: MatchState) -> list[LegalPlay]:
    """The legal plays of the player on roll that do what :func:`dues` says (all of them
    when nothing is due); empty when no roll waits to be played."""
    if state.phase is not Phase.PLAY or state.dice is None:
        return []
    found, options = _due_plays(state)
    return options if found else list(legal_plays(state.position, state.dice))


def first_unmet(state: MatchState, result: Position) -> Due | None:
    """The first of :func:`dues` that a legal play leading to ``result`` (the position after
    it, the opponent on roll) fails; ``None`` when one meets them all."""
    found, options = _due_plays(state)
    if not found or any(option.result == result for option in options):
        return None
    reaching = [o for o in legal_plays(state.position, state.dice or (1, 1)) if o.result == result]
    for due in found:
        if not any(due.met_by(option.steps) for option in reaching):
            return due
        reaching = [option for option in reaching if due.met_by(option.steps)]
    return found[-1]


# -- the fold's handlers --------------------------------------------------------------------


def _touched(d: Any, event: ManTouched) -> None:
    if event.point not in d.touched:
        d.touched = (*d.touched, event.point)


def _adjusted(d: Any, event: ManAdjusted) -> None:
    """J'adoube: the man adjusted is no man touched (CLASSIC 11); nothing changes."""


def _set(d: Any, event: DiceSet) -> None:
    d.dice, d.thrown = (event.die1, event.die2), None  # played "as if thrown" (CLASSIC 7)


def _called(d: Any, event: ThrowCalled) -> None:
    if d.thrown is None:
        d.thrown = d.dice
    d.dice = (event.die1, event.die2)  # "played as called it stands good" (CLASSIC 8)


def _call_corrected(d: Any, event: CallCorrected) -> None:
    if d.thrown is not None:  # the play on the call is void: the dice thrown are played
        d.dice, d.thrown = d.thrown, None


HANDLERS: dict[type, Any] = {
    ManTouched: _touched,
    ManAdjusted: _adjusted,
    DiceSet: _set,
    ThrowCalled: _called,
}
"""The fold's handler of each classic event at the table."""

RULING_HANDLERS: dict[type, Any] = {CallCorrected: _call_corrected}
"""The classic rulings: folded from the events in force before them, as every ruling."""
