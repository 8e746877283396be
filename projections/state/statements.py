"""The fold's part for cube statements: what binds, and when it lapses (issue 33).

USBGF 4.4.3: "If a player states either that he doubles, or that he is going to double, then
he must double at his first legal opportunity to do so."  USBGF 4.4.4: "If the player states
his intention to drop the cube if doubled, then he will be bound by that statement if the
opposing player elects to double at that player's next legal opportunity to do so (but not
on subsequent turns)."

A :class:`~bgledger.events.CubeStatementMade` stands in
:attr:`~bgledger.projections.state.model.MatchState.statements` until:

- kept: the player who said he is going to double doubles (on roll, or early, USBGF 4.4.7);
  a pass statement is kept by the drop, which ends the game;
- passed by: the opponent of a player who said he would pass rolls when he could have
  doubled first (on roll, before rolling, or rolling early): his "next legal opportunity"
  went by, and "not on subsequent turns";
- overtaken: the cube is turned (a double taken, a beaver, an automatic double): the
  statements were about the cube as it stood; and a player who doubles himself has no
  double of his opponent's to pass;
- the game ends.

Which opportunity is legal does not change while a statement stands (the cube's owner, the
Crawford game, a dead cube change only when the cube is turned or a game ends, which lapse
it), and the ledger records no statement no legal double can follow
(:meth:`bgledger.commands.statements.StatementCommands.announce`); so a roll made on roll,
before rolling, is the opportunity gone.  :data:`LAPSES` are applied before the event's own
handler (they read the phase the event was made in); like every handler they never raise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from bgledger.events import (
    CubeOffered,
    CubeStatementMade,
    CubeTaken,
    DiceRolled,
    GameStarted,
    GameWon,
    MatchEvent,
    PrematureDoubleMade,
    PrematureRollMade,
    SocialDoubleMade,
)
from bgledger.projections.state.model import Phase, Statement, other

__all__ = ["HANDLERS", "LAPSES", "Draft"]


class Draft(Protocol):
    """The fields of the fold's draft state that cube statements read and change."""

    phase: Phase
    turn: str | None
    statements: tuple[Statement, ...]


def _made(d: Draft, event: CubeStatementMade) -> None:
    d.statements = (*d.statements, Statement(event.player, event.statement))


def _doubled(d: Draft, event: CubeOffered | PrematureDoubleMade) -> None:
    """The doubler's own statements are kept (his double) or moot (his pass)."""
    d.statements = tuple(s for s in d.statements if s.player != event.player)


def _rolled(d: Draft, event: DiceRolled | PrematureRollMade) -> None:
    """A roll made when the roller could have doubled first: his opponent's pass lapses."""
    before_rolling = d.phase is Phase.ROLL and d.turn == event.player
    if before_rolling or isinstance(event, PrematureRollMade):
        opponent = other(event.player)
        kept = (s for s in d.statements if not (s.player == opponent and s.says == "pass"))
        d.statements = tuple(kept)


def _lapsed(d: Draft, event: MatchEvent) -> None:
    d.statements = ()


HANDLERS: dict[type[MatchEvent], Callable[[Any, Any], None]] = {CubeStatementMade: _made}
"""The fold's handler of a statement."""

LAPSES: dict[type[MatchEvent], Callable[[Any, Any], None]] = {
    CubeOffered: _doubled,
    PrematureDoubleMade: _doubled,
    DiceRolled: _rolled,
    PrematureRollMade: _rolled,
    CubeTaken: _lapsed,
    SocialDoubleMade: _lapsed,
    GameWon: _lapsed,
    GameStarted: _lapsed,
}
"""What keeps or lapses a standing statement, applied before the event's own handler."""
