"""The doubling cube: double, take, drop.

A double is offered before rolling (USBGF 4.4.2) and taken or dropped (USBGF
4.4.4).  A double the rules forbid (the Crawford game, USBGF 4.4.6; the
opponent's cube, USBGF 4.4.2; a dead cube, USBGF 4.4.9; the cube out of
play, USBGF 4.8.5(d); a wrong level, USBGF 4.4.8) is refused unless it was
made at the board: then it is recorded and flagged, for a ruling
(:mod:`bgledger.commands.rulings`).  A drop ends the game as a play does, so
:class:`CubeCommands` builds on :class:`~bgledger.commands.play.PlayCommands`.

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("cube"), "cube", ("Ann", "Bob"), 3, by="kim")
    >>> match.opening(6, 1, by="kim")
    >>> _ = match.move("13/7 8/7", by="kim")
    >>> match.double(by="kim")
    >>> match.drop(by="kim")
    >>> match.state.score
    (0, 1)
"""

from __future__ import annotations

from bgledger.commands import decide as _decide
from bgledger.commands.play import PlayCommands
from bgledger.errors import CubeActionRefusedError
from bgledger.events import CubeDropped, CubeOffered, CubeTaken
from bgledger.projections.state.fold import Phase
from bgledger.rules.profiles import Decision
from bgledger.rules.results import GameResult

__all__ = ["CubeCommands"]


class CubeCommands(PlayCommands):
    """The cube actions of a match; a drop ends the game (:meth:`PlayCommands._win`)."""

    def double(
        self, *, to: int | None = None, as_played: bool = False, by: str, at: str | None = None
    ) -> None:
        """The player on roll doubled, before rolling (USBGF 4.4.2), to ``to`` (default: twice).

        A double the rules forbid (the Crawford game, USBGF 4.4.6; the
        opponent's cube, USBGF 4.4.2; a dead cube, USBGF 4.4.9; the cube out
        of play, USBGF 4.8.5(d); a wrong level, USBGF 4.4.8) is refused unless
        ``as_played``: then it is recorded and flagged.

        :raises OutOfTurnError: if the player has rolled or something is pending.
        :raises CubeActionRefusedError: for a forbidden double without ``as_played``.
        """
        state = self.state
        _decide.require_phase(state, "double", Decision.DOUBLE, Phase.ROLL)
        player = state.turn or "a"
        value = state.next_cube if to is None else to
        problem = _decide.cube_problem(state, self.profile, player, value)
        refusal = f"{state.name(player)} may not double"
        command = ("double",) if to is None else ("double", "--to", str(to))
        _decide.refuse_unless(
            as_played, problem, CubeActionRefusedError, refusal, state=state, command=command
        )
        flags = _decide.flags(problem)
        with self.atomic():
            hit = self._implied_hit(player, as_played, by, at)
            at = at if hit is None else hit.at
            self._record(CubeOffered, by, at, player=player, value=value, **flags)

    def take(self, *, by: str, at: str | None = None) -> None:
        """The doubled player accepted: he owns the cube at the doubled value.

        :raises OutOfTurnError: if no double is pending.
        """
        state = self.state
        _decide.require_phase(state, "take", Decision.TAKE_OR_DROP, Phase.DOUBLED)
        self._record(CubeTaken, by, at, player=state.actor, value=state.offer)

    def drop(self, *, by: str, at: str | None = None) -> None:
        """The doubled player passed: the doubler wins the game at the cube's value before.

        :raises OutOfTurnError: if no double is pending.
        """
        state = self.state
        _decide.require_phase(state, "drop", Decision.TAKE_OR_DROP, Phase.DOUBLED)
        self._record(CubeDropped, by, at, player=state.actor, value=state.offer)
        self._win(state.turn or "a", GameResult.SINGLE, "drop", by, at)
