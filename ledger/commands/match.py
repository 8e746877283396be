"""The ``Match`` aggregate: commands that decide on the folded state, then record.

Each command checks the action against the match's state (the one fold,
:mod:`bgledger.projections.state.fold`) and its rulebook profile, then records one or more
events (DESIGN principle 1).  A refused command raises and records nothing.

Example::

    >>> match = Match.start(match_uuid("demo"), "demo", ("Ann", "Bob"), 3, by="kim")
    >>> match.opening(3, 1, by="kim")
    >>> match.move("8/5 6/5", by="kim").legal
    True
    >>> match.state.turn, match.version
    ('b', 4)
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from bgledger.commands import decide as _decide
from bgledger.commands import premature
from bgledger.commands.breaks import BreakCommands
from bgledger.commands.setup import match_started
from bgledger.errors import (
    CubeActionRefusedError,
    IllegalPlayRefusedError,
    InvalidMatchSetupError,
    ResignationRefusedError,
)
from bgledger.events import (
    CheckersPlayed,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    GameStarted,
    GameWon,
    MatchWon,
    OpeningRollMade,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    RollVoided,
    UnplayablePlayRecorded,
)
from bgledger.projections.state.fold import Phase, apply, other
from bgledger.projections.state.model import game_points
from bgledger.rules.judge import Judgement, judge
from bgledger.rules.legal import check_dice, legal_plays
from bgledger.rules.notation import Play
from bgledger.rules.results import GameResult, final_result

__all__ = ["Match", "match_uuid"]

_NAMESPACE = uuid5(NAMESPACE_URL, "https://bgledger.invalid/match")


def match_uuid(match_id: str) -> UUID:
    """The stream id of the match a person calls ``match_id`` (a name-based UUID)."""
    return uuid5(_NAMESPACE, match_id)


class Match(BreakCommands):
    """One match: its id, its version (events so far) and its folded state.

    Commands take ``by`` (who records) and ``at`` (when it happened, ISO
    8601; ``None`` for now) and raise, recording nothing, when they refuse.
    Each event recorded carries its link in the hash chain (:mod:`bgledger.events.chain`).
    The stream's bookkeeping (``id``, ``version``, ``advance``, ``collect_events``,
    ``atomic``, ``append``) is :class:`bgledger.commands.stream.MatchStream`'s.
    """

    # -- setting up -----------------------------------------------------------

    @classmethod
    def start(
        cls,
        stream: UUID,
        match_id: str,
        players: tuple[str, str],
        length: int,
        *,
        by: str,
        at: str | None = None,
        **setup: Any,
    ) -> Match:
        """A new match, recorded as :class:`MatchStarted`.

        ``setup`` is :func:`bgledger.commands.setup.match_started`'s keyword arguments
        (profile, clock, crawford, event, round, table, meta, score,
        crawford_status) and, with a clock,
        :meth:`~bgledger.commands.clock.ClockCommands.start_clock`'s
        ``reserve_ms``, ``delay_ms`` and ``doubles``.

        :raises InvalidMatchSetupError: for a bad id, name, length, clock or score.
        :raises UnknownProfileError: for an unknown profile.
        :raises InvalidTimeError: for a malformed ``at``.
        """
        timing = {k: setup.pop(k) for k in ("reserve_ms", "delay_ms", "doubles") if k in setup}
        opened = match_started(stream, match_id, players, length, by=by, at=at, **setup)
        match = cls(stream, 1, apply(None, opened))
        match._pending.append(opened)
        if opened.clock != "none":  # the clock is set now; the first hit starts it
            match.start_clock(opened.clock, by=by, at=opened.at, **timing)
        return match

    # -- dice -----------------------------------------------------------------

    def opening(self, die_a: int, die_b: int, *, by: str, at: str | None = None) -> None:
        """The opening roll: ``a``'s die and ``b``'s die; the higher moves first.

        The first opening roll of a game also records :class:`GameStarted`.
        A tie is recorded and must be rolled again.

        :raises InvalidDiceError: for a die outside 1-6.
        :raises OutOfTurnError: during a game.
        """
        check_dice((die_a, die_b))
        state = self.state
        rule = _decide.BASICS
        phases = (Phase.BETWEEN_GAMES, Phase.OPENING)
        _decide.require_phase(state, "make an opening roll", rule, *phases)
        if state.phase is Phase.BETWEEN_GAMES:
            self._record(GameStarted, by, at, number=state.game + 1)
        self._record(OpeningRollMade, by, at, die_a=die_a, die_b=die_b)

    def roll(
        self, die1: int, die2: int, *, auto_dance: bool = True, by: str, at: str | None = None
    ) -> bool:
        """The player on roll rolled ``die1``-``die2``.

        If no checker can move, the dance is recorded too (an empty
        :class:`CheckersPlayed`) and the turn passes; returns True then.
        ``auto_dance=False`` leaves the play to :meth:`move` (a transcription
        that writes a play for a roll that cannot be played).

        :raises InvalidDiceError: for a die outside 1-6.
        :raises OutOfTurnError: if it is not the time to roll.
        """
        dice = check_dice((die1, die2))
        rule = "USBGF 4.1.7.1"
        _decide.require_phase(self.state, "roll", rule, Phase.ROLL, Phase.REROLL)
        player = self.state.turn or "a"
        self._record(DiceRolled, by, at, player=player, die1=die1, die2=die2)
        if not auto_dance:
            return False
        options = legal_plays(self.state.position, dice)
        if len(options) == 1 and not options[0].steps:
            self._record(
                CheckersPlayed, by, at, player=player, play="", legal=True, reason=None, rule=None
            )
            return True
        return False

    def void_roll(self, reason: str, *, by: str, at: str | None = None) -> None:
        """The last roll was invalid (``reason``: a code of the profile) and is rolled again.

        A roll not yet played can be voided, and so can a roll that could
        not be played (its dance was recorded with it): the same player rolls
        again (USBGF 4.1.4).

        :raises InvalidVoidReasonError: for a reason the profile does not know.
        :raises OutOfTurnError: if no roll is waiting to be played.
        """
        rule = _decide.void_reason_rule(self.profile, reason)
        state = self.state
        danced = state.danced == state.events and state.turn is not None
        if not danced:
            _decide.require_phase(state, "void a roll", "USBGF 4.1.4", Phase.PLAY)
        player = other(state.turn or "b") if danced else state.turn or "a"
        self._record(RollVoided, by, at, player=player, reason=reason, rule=rule)

    # -- checkers -------------------------------------------------------------

    def move(
        self, play: str | Play, *, as_played: bool = False, by: str, at: str | None = None
    ) -> Judgement:
        """The player on roll moved ``play`` with the dice rolled.

        A legal play is recorded in canonical form.  An illegal play is refused
        unless ``as_played`` (it was made at the board): then it is recorded
        as made and flagged with the reason and the rule (USBGF 4.2.3).  The
        last checker borne off ends the game (and perhaps the match).

        :raises InvalidNotationError: for text that is not a play.
        :raises InvalidPlayError: for a play no board could show.
        :raises IllegalPlayRefusedError: for an illegal play without ``as_played``.
        :raises OutOfTurnError: if no roll is waiting to be played.
        """
        parsed = play if isinstance(play, Play) else Play.parse(play)
        state = self.state
        _decide.require_phase(state, "move", _decide.BASICS, Phase.PLAY)
        assert state.turn is not None and state.dice is not None
        verdict = _decide.same_checker(state, judge(state.position, state.dice, parsed))
        if not verdict.legal and not as_played:
            raise IllegalPlayRefusedError(
                f"illegal play {str(verdict.play) or 'no move'!r} of "
                f"{state.dice[0]}-{state.dice[1]}: {verdict.reason}; "
                "record it with --as-played if it was made at the board",
                verdict.rule,
            )
        player = state.turn
        judged = {"legal": verdict.legal, "reason": verdict.reason, "rule": verdict.rule}
        self._record(CheckersPlayed, by, at, player=player, play=str(verdict.play), **judged)
        mover = verdict.result.swapped()
        if not any(mover.mover[1:]):
            self._win(player, final_result(mover) or GameResult.SINGLE, "played", by, at)
        else:  # an accepted premature roll that cannot be played is a dance (USBGF 4.1.7.1)
            premature.dance_if_blocked(self, by=by, at=at)
        return verdict

    def record_unplayable(self, play: str, reason: str, *, by: str, at: str | None = None) -> None:
        """A transcription's play that the board cannot show: kept as written, flagged.

        For imports only (:class:`UnplayablePlayRecorded`): the board stays as
        it was and the turn passes.

        :raises OutOfTurnError: if no roll is waiting to be played.
        """
        _decide.require_phase(self.state, "record a play", _decide.BASICS, Phase.PLAY)
        player = self.state.turn or "a"
        self._record(UnplayablePlayRecorded, by, at, player=player, play=play, reason=reason)

    # -- the cube -------------------------------------------------------------

    def double(
        self,
        *,
        to: int | None = None,
        as_played: bool = False,
        by: str,
        at: str | None = None,
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
        _decide.require_phase(state, "double", "USBGF 4.4.2", Phase.ROLL)
        player = state.turn or "a"
        value = state.next_cube if to is None else to
        problem = _decide.cube_problem(state, self.profile, player, value)
        refusal = f"{state.name(player)} may not double"
        _decide.refuse_unless(as_played, problem, CubeActionRefusedError, refusal)
        flags = _decide.flags(problem)
        self._record(CubeOffered, by, at, player=player, value=value, **flags)

    def take(self, *, by: str, at: str | None = None) -> None:
        """The doubled player accepted: he owns the cube at the doubled value.

        :raises OutOfTurnError: if no double is pending.
        """
        state = self.state
        _decide.require_phase(state, "take", "USBGF 4.4.4", Phase.DOUBLED)
        self._record(CubeTaken, by, at, player=state.actor, value=state.offer)

    def drop(self, *, by: str, at: str | None = None) -> None:
        """The doubled player passed: the doubler wins the game at the cube's value before.

        :raises OutOfTurnError: if no double is pending.
        """
        state = self.state
        _decide.require_phase(state, "drop", "USBGF 4.4.4", Phase.DOUBLED)
        self._record(CubeDropped, by, at, player=state.actor, value=state.offer)
        self._win(state.turn or "a", GameResult.SINGLE, "drop", by, at)

    # -- concessions ------------------------------------------------------------

    def resign(
        self,
        level: str,
        *,
        player: str | None = None,
        as_played: bool = False,
        by: str,
        at: str | None = None,
    ) -> None:
        """``player`` (default: the player on roll) offered to concede ``level``.

        Under ``usbgf-2016`` only in a non-contact position (USBGF 4.5, ABT
        4.9); the ``online`` profile allows it at any time.  A concession the
        profile forbids is refused unless ``as_played``.

        :raises InvalidResultError: if ``level`` is not single, gammon or backgammon.
        :raises InvalidMatchSetupError: if ``player`` is not ``a`` or ``b``.
        :raises OutOfTurnError: outside a game or with something pending.
        :raises ResignationRefusedError: for a forbidden concession without ``as_played``.
        """
        level = _decide.parse_level(level)
        state = self.state
        phases = (Phase.ROLL, Phase.REROLL, Phase.PLAY)
        _decide.require_phase(state, "resign", "USBGF 4.5", *phases)
        who = player or state.turn or "a"
        if who not in ("a", "b"):
            raise InvalidMatchSetupError(f"player {who!r}: 'a' or 'b'")
        problem = _decide.resignation_problem(state, self.profile, level)
        refusal = f"{state.name(who)} may not resign"
        _decide.refuse_unless(as_played, problem, ResignationRefusedError, refusal)
        flags = _decide.flags(problem)
        self._record(ResignationOffered, by, at, player=who, level=level, **flags)

    def accept(self, *, by: str, at: str | None = None) -> None:
        """The concession was accepted: the other player wins that many points times the cube.

        :raises OutOfTurnError: if no concession is offered.
        """
        state = self.state
        _decide.require_phase(state, "accept", "USBGF 4.5", Phase.RESIGNED)
        assert state.resignation is not None
        self._record(ResignationAccepted, by, at, player=state.actor)
        result = GameResult.parse(state.resignation.level)
        self._win(other(state.resignation.player), result, "resign", by, at)

    def reject(self, *, by: str, at: str | None = None) -> None:
        """The concession was refused: play goes on where it stopped.

        :raises OutOfTurnError: if no concession is offered.
        """
        state = self.state
        _decide.require_phase(state, "reject", "USBGF 4.5", Phase.RESIGNED)
        self._record(ResignationRejected, by, at, player=state.actor)

    # -- ends -------------------------------------------------------------------

    def _win(self, winner: str, result: GameResult, how: str, by: str, at: str | None) -> None:
        state = self.state
        ended = {"number": state.game, "winner": winner, "result": str(result), "how": how}
        points = game_points(str(result), how, state.cube)
        self._record(GameWon, by, at, cube=state.cube, points=points, **ended)
        after = self.state
        champion = _decide.match_winner(after)
        if champion is not None:
            score = after.score
            self._record(MatchWon, by, at, winner=champion, score_a=score[0], score_b=score[1])
