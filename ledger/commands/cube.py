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
from bgledger.commands.statements import refuse_bound_take
from bgledger.errors import CubeActionRefusedError
from bgledger.events import CubeDropped, CubeOffered, CubeTaken, SocialDoubleMade
from bgledger.projections.state.fold import Phase, other
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
        _decide.check_cube_limit(self.profile, value)
        problem = _decide.cube_problem(state, self.profile, player, value)
        refusal = f"{state.name(player)} may not double"
        command = ("double",) if to is None else ("double", "--to", str(to))
        _decide.refuse_unless(
            as_played, problem, CubeActionRefusedError, refusal, state=state, command=command
        )
        flags = _decide.flags(problem)
        with self.atomic():
            hit = self._implied_hit(player, as_played, by, at, command=("double",))
            at = at if hit is None else hit.at
            self._record(CubeOffered, by, at, player=player, value=value, **flags)

    # -- USBGF 4.4.10: doubling rules of social play ---------------------------------------

    def beaver(self, *, as_played: bool = False, by: str, at: str | None = None) -> None:
        """The doubled player took and at once redoubled, keeping the cube (a beaver).

        Made while the double waits for its answer, the take is recorded with
        it; made after the take was recorded (the doubler on roll, the cube
        the taker's), the redouble alone.  USBGF 4.4.10: beavers "are not
        permitted in tournament backgammon": refused unless ``as_played``, then
        recorded and flagged for the director (``void-cube``).

        :raises OutOfTurnError: with no double to beaver.
        :raises CubeActionRefusedError: without ``as_played`` where the profile forbids it.
        """
        state = self.state
        taken = state.phase is Phase.ROLL and state.cube_owner == other(state.turn or "a")
        if not taken:
            _decide.require_phase(state, "beaver", Decision.TAKE_OR_DROP, Phase.DOUBLED)
            refuse_bound_take(state, self.profile, "beaver")  # a beaver takes (USBGF 4.4.4)
        beaver = state.cube_owner if taken else state.actor
        assert beaver is not None
        value = 2 * (state.cube if taken else (state.offer or state.next_cube))
        with self.atomic():  # the take and the beaver, or nothing
            self._social_double("beaver", beaver, value, beaver, as_played, by, at, taken)

    def automatic_double(self, *, as_played: bool = False, by: str, at: str | None = None) -> None:
        """The opening roll tied and the cube was turned, staying in the middle (automatic).

        USBGF 4.4.10: automatic doubles "are not permitted in tournament
        backgammon": refused unless ``as_played``, then recorded and flagged.

        :raises OutOfTurnError: unless a game waits for its opening roll.
        :raises CubeActionRefusedError: without ``as_played`` where the profile forbids it.
        """
        state = self.state
        _decide.require_phase(state, "automatic-double", Decision.BASIC_RULES, Phase.OPENING)
        self._social_double("automatic", "", state.next_cube, "", as_played, by, at, True)

    def _social_double(
        self, kind: str, player: str, value: int, owner: str, as_played: bool,
        by: str, at: str | None, taken: bool,
    ) -> None:  # fmt: skip
        state, allowed = self.state, self.profile.cube.social_doubles_allowed
        _decide.check_cube_limit(self.profile, value)
        words = {"beaver": "a beaver", "automatic": "an automatic double"}[kind]
        problem = None
        if not allowed.value:
            rule = allowed.rule or self.profile.cite(Decision.SOCIAL_DOUBLES)
            problem = (f"{words} is not played in tournaments", rule)
        command = ("beaver",) if kind == "beaver" else ("automatic-double",)
        refusal = "the cube may not be turned so"
        _decide.refuse_unless(
            as_played, problem, CubeActionRefusedError, refusal, state=state, command=command
        )
        if not taken:  # the take the beaver answered with, at the same moment
            at = self._record(CubeTaken, by, at, player=player, value=state.offer).at
        self._record(
            SocialDoubleMade, by, at, player=player, kind=kind, value=value, owner=owner,
            **_decide.flags(problem),
        )  # fmt: skip

    def take(self, *, as_played: bool = False, by: str, at: str | None = None) -> None:
        """The doubled player accepted: he owns the cube at the doubled value.

        The doubler hits after doubling (USBGF 4.4.3, CLOCK 3.5): a take
        recorded while his time still runs is treated as a roll on a forgotten
        hit is (:func:`~bgledger.commands.clock.forgotten_hit`): refused, or
        recorded after his hit, implied, as the profile says; ``as_played``
        records it as made on his time (for the director's missed-hit ruling).

        :raises OutOfTurnError: if no double is pending.
        :raises ClockRefusedError: for a take on the doubler's time, where refused.
        """
        state = self.state
        _decide.require_phase(state, "take", Decision.TAKE_OR_DROP, Phase.DOUBLED)
        refuse_bound_take(state, self.profile, "take")  # "I would pass" binds (USBGF 4.4.4)
        taker = state.actor or "b"
        with self.atomic():
            hit = self._implied_hit(taker, as_played, by, at, action="take", command=("take",))
            at = at if hit is None else hit.at
            self._record(CubeTaken, by, at, player=taker, value=state.offer)

    def drop(self, *, as_played: bool = False, by: str, at: str | None = None) -> None:
        """The doubled player passed: the doubler wins the game at the cube's value before.

        As a take (:meth:`take`): the doubler hits after doubling (USBGF 4.4.3,
        CLOCK 3.5), so a drop recorded while his time still runs is a forgotten
        hit, refused or recorded after his hit, implied, as the profile says;
        ``as_played`` records it as made on his time.

        :raises OutOfTurnError: if no double is pending.
        :raises ClockRefusedError: for a drop on the doubler's time, where refused.
        """
        state = self.state
        _decide.require_phase(state, "drop", Decision.TAKE_OR_DROP, Phase.DOUBLED)
        dropper = state.actor or "b"
        with self.atomic():
            hit = self._implied_hit(dropper, as_played, by, at, action="drop", command=("drop",))
            at = at if hit is None else hit.at
            self._record(CubeDropped, by, at, player=dropper, value=state.offer)
            self._win(state.turn or "a", GameResult.SINGLE, "drop", by, at)
