"""The classic laws of the throw and the touch (CLASSIC 7, 8, 11), decided then recorded.

Under a profile whose book has these laws (``classic``), the player on roll's table is
recorded as it happened:

- :meth:`ClassicCommands.touch` and :meth:`~ClassicCommands.jadoube`: CLASSIC 11, "Any man
  touched, except for the purpose of adjusting it, must be moved if the piece is playable. A
  player about to adjust a man must give due notice by saying, "J'adoube.""  The obligation
  is the fold's (:mod:`bgledger.projections.state.classic`); :meth:`~bgledger.commands.play.
  PlayCommands.move` refuses a play that ignores it.
- :meth:`~ClassicCommands.interfered`: CLASSIC 7, "the adversary may place face upward on
  the die or dice so interfered with, any number he chooses, and the caster must play it as
  if thrown."
- :meth:`~ClassicCommands.call` and :meth:`~ClassicCommands.correct_call`: CLASSIC 8, "if
  the throw is played as called it stands good, unless an error in the call is discovered
  before the dice have been touched for the purpose of putting them in the box again."

Every other profile refuses them, citing its own rule for the decision (USBGF 4.2.5: checkers
may be shuffled; USBGF 4.1.4.1: a roll touched is retaken, the dice read as they lie).
"""

from __future__ import annotations

from collections.abc import Sequence

from bgledger.commands import decide as _decide
from bgledger.commands.rulings import (
    InvalidRulingError,
    Ruling,
    RulingCommands,
    RulingRefusedError,
    actions_after,
    check_in_force,
    find,
    in_force_after,
)
from bgledger.errors import ActionRefusedError, OutOfTurnError
from bgledger.events import (
    CallCorrected,
    DiceRolled,
    DiceSet,
    GameStarted,
    GameWon,
    ManAdjusted,
    ManTouched,
    MatchEvent,
    OpeningRollMade,
    RollVoided,
    ThrowCalled,
)
from bgledger.projections.state.classic import points_of
from bgledger.projections.state.fold import Phase
from bgledger.rules.errors import RulesError
from bgledger.rules.legal import check_dice
from bgledger.rules.profiles import Decision

__all__ = ["ClassicCommands", "LawNotInProfileError", "NoManThereError"]

_TAKEN_UP = (DiceRolled, OpeningRollMade, RollVoided, GameWon, GameStarted)
"""What shows the dice were taken up to be put in the box again (CLASSIC 8): the next throw,
a throw voided and thrown again, or the game's end."""


class LawNotInProfileError(ActionRefusedError):
    """A law of the throw or the touch the match's profile does not have (its rule cited)."""


class NoManThereError(RulesError):
    """A man touched or adjusted on a point where the player on roll has none."""


class ClassicCommands(RulingCommands):
    """The classic laws of the throw and the touch (CLASSIC 7, 8, 11)."""

    def _law(self, applies: bool, decision: Decision, action: str) -> str:
        """The rule of ``decision``; refused where the profile does not have the law."""
        rule = self.profile.cite(decision)
        if not applies:
            note = self.profile.citation(decision).note
            raise LawNotInProfileError(
                f"cannot record {action} under {self.profile.name}: {note}".rstrip(), rule
            )
        return rule

    def _on_roll(self, action: str, decision: Decision) -> str:
        """The player on roll, his dice waiting to be played."""
        state = self.state
        _decide.require_phase(state, action, decision, Phase.PLAY)
        assert state.turn is not None
        return state.turn

    def _man(self, point: int, action: str) -> str:
        state = self.state
        player = self._on_roll(action, Decision.TOUCH_MOVE)
        if not 1 <= point <= 25 or state.position.mover[point] == 0:
            where = points_of((point,)) if 1 <= point <= 25 else repr(point)
            raise NoManThereError(
                f"{action}: {state.name(player)} has no man on {where} (points 1-24, 25 the bar)"
            )
        return player

    def touch(self, point: int, *, by: str, at: str | None = None) -> None:
        """The player on roll touched a man on ``point`` without saying "J'adoube": he must
        move it if it is playable (CLASSIC 11).

        :raises LawNotInProfileError: where the profile has no touch-move rule.
        :raises OutOfTurnError: unless a roll waits to be played.
        :raises NoManThereError: for a point with none of his men.
        """
        rule = self._law(self.profile.plays.touch_move.value, Decision.TOUCH_MOVE, "a man touched")
        player = self._man(point, "touch")
        self._record(ManTouched, by, at, player=player, point=point, rule=rule)

    def jadoube(self, point: int, *, by: str, at: str | None = None) -> None:
        """The player on roll said "J'adoube" and adjusted a man on ``point``: no obligation
        (CLASSIC 11).

        :raises LawNotInProfileError: where the profile has no touch-move rule.
        :raises OutOfTurnError: unless a roll waits to be played.
        :raises NoManThereError: for a point with none of his men.
        """
        rule = self._law(self.profile.plays.touch_move.value, Decision.TOUCH_MOVE, "J'adoube")
        player = self._man(point, "jadoube")
        self._record(ManAdjusted, by, at, player=player, point=point, rule=rule)

    def interfered(self, die1: int, die2: int, *, by: str, at: str | None = None) -> None:
        """The caster interfered with the dice before they came to rest; his adversary set
        them to ``die1``-``die2`` and the caster plays them as if thrown (CLASSIC 7).

        :raises InvalidDiceError: for a die outside 1-6.
        :raises LawNotInProfileError: where the profile has the roll thrown again instead.
        :raises OutOfTurnError: unless a roll waits to be played, or once the throw was called.
        """
        check_dice((die1, die2))
        rolls, decision = self.profile.rolls, Decision.INTERFERED_DICE
        rule = self._law(rolls.interfered_dice_set.value, decision, "dice set by the adversary")
        player = self._on_roll("set the dice interfered with", decision)
        if self.state.thrown is not None:
            raise OutOfTurnError(
                f"cannot set the dice interfered with: {self.state.name(player)} has called the "
                "throw; the adversary sets a die interfered with before the throw is called",
                rule,
            )
        self._record(DiceSet, by, at, player=player, die1=die1, die2=die2, rule=rule)

    def call(self, die1: int, die2: int, *, by: str, at: str | None = None) -> None:
        """The caster called his throw ``die1``-``die2``, other than the dice show: played as
        called it stands good, unless the error is found before the dice are taken up again
        (CLASSIC 8; :meth:`correct_call`).

        :raises InvalidDiceError: for a die outside 1-6.
        :raises LawNotInProfileError: where the profile reads the dice as they lie.
        :raises OutOfTurnError: unless a roll waits to be played, or for the dice as they are.
        """
        check_dice((die1, die2))
        decision = Decision.CALLED_THROW
        rule = self._law(self.profile.rolls.called_throw.value, decision, "a called throw")
        player = self._on_roll("call the throw", decision)
        dice = self.state.dice
        assert dice is not None
        if sorted((die1, die2)) == sorted(dice):
            raise OutOfTurnError(
                f"the call {die1}-{die2} is the dice to play, {dice[0]}-{dice[1]}: nothing to "
                "record (a call is recorded when it differs from the dice)",
                rule,
            )
        self._record(ThrowCalled, by, at, player=player, die1=die1, die2=die2, rule=rule)

    def correct_call(self, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
        """The error in the call ``number`` was found before the dice were taken up again:
        what was played on the call is void, and the caster plays the dice thrown (CLASSIC 8).

        :raises InvalidRulingError: if ``number`` is not a call.
        :raises LawNotInProfileError: where the profile has no called throw.
        :raises RulingRefusedError: once the dice were taken up again (the next throw, the
            game's end), or for a call already void.
        """
        decision = Decision.CALLED_THROW
        rule = self._law(self.profile.rolls.called_throw.value, decision, "a call corrected")
        event = find(history, number)
        if not isinstance(event, ThrowCalled):
            raise InvalidRulingError(
                f"event {number} is a {type(event).__name__}, not a called throw ('call D D')"
            )
        check_in_force(self.profile, history, number)
        later = next((e for e in in_force_after(history, number) if isinstance(e, _TAKEN_UP)), None)
        if later is not None:
            who = getattr(later, "player", None)
            what = type(later).__name__
            by_whom = f" by {self.state.name(who)}" if who in ("a", "b") else ""
            raise RulingRefusedError(
                f"too late to correct the call at event {number}: the dice were taken up again "
                f"({what}{by_whom} at event {later.originator_version}); played as called, it "
                "stands good",
                rule,
            )
        voids = actions_after(history, number)
        self._record_ruling(history, CallCorrected, ruling, rule, voids, event=number)
