"""Statements about the cube, binding at the table (USBGF 4.4.3, 4.4.4; issue 33)."""

from __future__ import annotations

from dataclasses import dataclass

from bgledger.events.base import MatchEvent

__all__ = ["CubeStatementMade"]


@dataclass(frozen=True)
class CubeStatementMade(MatchEvent):
    """``player`` stated, before the cube action, what he will do: ``statement`` is
    ``double`` ("I am going to double": he must double at his first legal opportunity, USBGF
    4.4.3) or ``pass`` ("I would pass": he must pass a double his opponent makes at that
    player's next legal opportunity, USBGF 4.4.4).

    The words are the fact recorded; what they bind, and when that lapses, the fold works
    out (:mod:`bgledger.projections.state.statements`).
    """

    player: str
    statement: str
