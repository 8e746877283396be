"""The fold's part for premature actions (USBGF 4.1.7.1, 4.4.7, ABT 4.6).

A roll or a double made while the opponent was still to move waits in
:attr:`~bgledger.projections.state.model.MatchState.premature` and takes effect when the
mover has played (:func:`takes_effect`):

- a premature roll awaits the mover's decision (phase ``premature-roll``);
  accepted, the early roller has those dice once the mover has played
  (phase ``play``); refused (the Fast Roll Rule), he rolls again then
  (phase ``reroll``: having rolled, he did not double, USBGF 4.4.2);
- a premature double stands (if otherwise valid): once the mover has played,
  he is the doubled player and takes or drops (phase ``doubled``).

:mod:`bgledger.projections.state.fold` registers :data:`HANDLERS` and calls
:func:`takes_effect` after each play; like every handler they change a
draft of the state and never raise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from bgledger.events import (
    MatchEvent,
    PrematureDoubleMade,
    PrematureRollAccepted,
    PrematureRollMade,
    PrematureRollRefused,
)
from bgledger.projections.state.model import Phase, Premature

__all__ = ["HANDLERS", "Draft", "takes_effect"]


class Draft(Protocol):
    """The fields of the fold's draft state that premature actions change."""

    phase: Phase
    turn: str | None
    dice: tuple[int, int] | None
    offer: int | None
    danced: int
    flagged: tuple[int, ...]
    premature: Premature | None


def _roll_made(d: Draft, event: PrematureRollMade) -> None:
    d.premature = Premature("roll", event.player, event.die1, event.die2)
    d.phase = Phase.PREMATURE_ROLL


def _decided(kind: str) -> Callable[[Draft, Any], None]:
    def decide(d: Draft, event: PrematureRollAccepted | PrematureRollRefused) -> None:
        if d.premature is not None:
            d.premature = replace(d.premature, kind=kind)
        d.phase = Phase.PLAY

    return decide


def _double_made(d: Draft, event: PrematureDoubleMade) -> None:
    d.premature = Premature("double", event.player, event.value, 0)
    if not event.legal:
        d.flagged = (*d.flagged, event.originator_version)


HANDLERS: dict[type[MatchEvent], Callable[[Draft, Any], None]] = {
    PrematureRollMade: _roll_made,
    PrematureRollAccepted: _decided("accepted"),
    PrematureRollRefused: _decided("refused"),
    PrematureDoubleMade: _double_made,
}
"""The fold's handler of each premature event."""


def takes_effect(d: Draft) -> None:
    """After the mover's play: the premature action pending, if any, takes effect.

    It is only forgotten when the play ended the game (phase ``ending``) or
    when the roll still awaited the mover's decision, which no command lets
    happen.
    """
    early, d.premature = d.premature, None
    if early is None or d.phase is not Phase.ROLL or early.kind == "roll":
        return
    d.turn, d.danced = early.player, 0
    if early.kind == "accepted":
        d.dice, d.phase = (early.a, early.b), Phase.PLAY
    elif early.kind == "refused":
        d.phase = Phase.REROLL
    else:
        d.offer, d.phase = early.a, Phase.DOUBLED
