"""Premature actions: a roll or a double made before the opponent finished his turn.

USBGF 4.1.7.1 (no game clock): "A player may not roll until his opponent has
completed his turn.  If a player rolls prematurely, his opponent has the
option of allowing the player's roll to stand, and may revise or complete
his move based on the player's premature roll.  Alternatively, his opponent
may refuse to accept the player's premature roll and instead require the
player to roll again once he has completed his move ("the Fast Roll Rule")."
USBGF 4.4.7: a premature double "shall stand if it is otherwise valid"; the
opponent finishes his turn knowing it.  ABT 4.6 (``usbgf-2017``): all
premature actions stand if otherwise valid.

:class:`PrematureCommands` decide on the match's folded state and record
through the stream's protected ``_record``;
:mod:`bgledger.projections.state.premature` folds what they record.  The
early player is always the one not on roll, and the mover must have rolled
and not yet moved.

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("early"), "early", ("Ann", "Bob"), 3, by="kim")
    >>> match.opening(3, 1, by="kim")
    >>> match.roll_early(6, 5, by="kim")
    >>> match.accept_roll(by="kim")
    >>> match.move("8/5 6/5", by="kim").legal
    True
    >>> match.state.turn, match.state.dice
    ('b', (6, 5))
"""

from __future__ import annotations

from bgledger.commands import decide as _decide
from bgledger.commands.statements import refuse_bound_roll
from bgledger.commands.stream import MatchStream
from bgledger.errors import CubeActionRefusedError, OutOfTurnError, PrematureRollStandsError
from bgledger.events import (
    CheckersPlayed,
    PrematureDoubleMade,
    PrematureRollAccepted,
    PrematureRollMade,
    PrematureRollRefused,
)
from bgledger.projections.state.fold import MatchState, Phase, other
from bgledger.rules.legal import can_play, check_dice
from bgledger.rules.profiles import Decision, PrematureRoll, Profile, get_profile

__all__ = ["PrematureCommands"]


class PrematureCommands(MatchStream):
    """A roll or a double by the player not on roll, and the mover's answer to an early roll.

    Commands take ``by`` and ``at`` and raise, recording nothing, when they refuse.
    """

    def roll_early(self, die1: int, die2: int, *, by: str, at: str | None = None) -> None:
        """The player not on roll rolled ``die1``-``die2`` before the mover moved (USBGF 4.1.7.1).

        The mover then accepts or refuses the roll; under a profile where
        premature rolls stand (ABT 4.6) the acceptance is recorded at once.

        :raises InvalidDiceError: for a die outside 1-6.
        :raises OutOfTurnError: unless the mover has rolled and not moved, with
            no other early action pending.
        """
        check_dice((die1, die2))
        state = self.state
        early = _early_player(state, "roll early", Decision.PREMATURE_ROLL)
        refuse_bound_roll(state, self.profile, early, early=True)  # USBGF 4.4.3
        self._record(PrematureRollMade, by, at, player=early, die1=die1, die2=die2)
        if self.profile.rolls.premature_roll.value is PrematureRoll.STANDS:
            self._record(PrematureRollAccepted, by, at, player=other(early))

    def accept_roll(self, *, by: str, at: str | None = None) -> None:
        """The mover lets the premature roll stand; he moves knowing it, then it is played.

        :raises OutOfTurnError: if no premature roll awaits the mover's decision.
        """
        state = self.state
        premature = Decision.PREMATURE_ROLL
        _decide.require_phase(state, "accept a premature roll", premature, Phase.PREMATURE_ROLL)
        self._record(PrematureRollAccepted, by, at, player=state.turn)

    def refuse_roll(self, *, by: str, at: str | None = None) -> None:
        """The mover refuses the premature roll (the Fast Roll Rule, USBGF 4.1.7.1).

        Once he has moved, the early roller rolls again.

        :raises PrematureRollStandsError: under a profile where premature rolls
            stand (ABT 4.6 for ``usbgf-2017``).
        :raises OutOfTurnError: if no premature roll awaits the mover's decision.
        """
        state = self.state
        _refusal_allowed(self.profile)
        premature = Decision.PREMATURE_ROLL
        _decide.require_phase(state, "refuse a premature roll", premature, Phase.PREMATURE_ROLL)
        self._record(PrematureRollRefused, by, at, player=state.turn)

    def double_early(
        self, *, to: int | None = None, as_played: bool = False, by: str, at: str | None = None
    ) -> None:
        """The player not on roll doubled to ``to`` (default: twice) before the mover moved.

        The double stands if it is otherwise valid (USBGF 4.4.7, ABT 4.6): it is
        checked as if it were the early doubler's turn (the Crawford game, the
        opponent's cube, a dead cube, a wrong level).  A forbidden double is
        refused unless ``as_played``: then it is recorded and flagged.  Once the
        mover has moved, he takes or drops.

        :raises OutOfTurnError: unless the mover has rolled and not moved, with
            no other early action pending.
        :raises CubeActionRefusedError: for a forbidden double without ``as_played``.
        """
        state, profile = self.state, self.profile
        early = _early_player(state, "double early", Decision.PREMATURE_DOUBLE)
        value = state.next_cube if to is None else to
        _decide.check_cube_limit(profile, value)
        problem = _decide.cube_problem(state, profile, early, value)
        stands = profile.cube.premature_double_stands
        if problem is None and not stands.value:
            problem = f"a premature double does not stand under {profile.name}", stands.rule or ""
        refusal = f"{state.name(early)} may not double"
        command = ("double", "--premature") + (() if to is None else ("--to", str(to)))
        _decide.refuse_unless(
            as_played, problem, CubeActionRefusedError, refusal, state=state, command=command
        )
        flags = _decide.flags(problem)
        self._record(PrematureDoubleMade, by, at, player=early, value=value, **flags)

    def _dance_if_blocked(self, *, by: str, at: str | None = None) -> bool:
        """After the mover's play: record the early roller's dance if his accepted dice cannot play.

        As :meth:`~bgledger.commands.play.PlayCommands.roll` records a dance with the roll, an
        accepted premature roll that cannot be played is recorded as a dance
        (an empty :class:`CheckersPlayed`) as soon as it is the early roller's
        turn.  Returns True if it recorded one.
        """
        state = self.state
        if state.phase is not Phase.PLAY or state.dice is None or state.turn is None:
            return False
        if can_play(state.position, state.dice):
            return False
        fields = {"play": "", "legal": True, "reason": None, "rule": None}
        self._record(CheckersPlayed, by, at, player=state.turn, **fields)
        return True


def _early_player(state: MatchState, action: str, decision: Decision) -> str:
    """The player not on roll, who acts early; the mover must have rolled and not moved.

    :raises OutOfTurnError: if the mover is not about to move, or an early
        action is already pending (citing ``decision``'s rule).
    """
    _decide.require_phase(state, action, decision, Phase.PLAY)
    if state.premature is not None:
        rule = get_profile(state.profile).cite(decision)
        step = _decide.next_step(state, action.split()[0])
        raise OutOfTurnError(f"cannot {action}: {_decide.situation(state)}", rule, step)
    return other(state.turn or "a")


def _refusal_allowed(profile: Profile) -> None:
    """:raises PrematureRollStandsError: where premature rolls stand."""
    rule = profile.rolls.premature_roll
    if rule.value is PrematureRoll.STANDS:
        why = f": {rule.quote}" if rule.quote else f" ({rule.note})"
        raise PrematureRollStandsError(
            f"cannot refuse a premature roll under {profile.name}, where it stands{why}",
            rule.rule,
        )
