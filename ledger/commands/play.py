"""Play: the opening roll, rolls, checker plays, concessions, and the end of a game.

:class:`PlayCommands` decide on the match's folded state
(:mod:`bgledger.projections.state.fold`) and its rulebook profile, then
record one or more events (DESIGN principle 1); a refused command raises and
records nothing.  A legal play is recorded in canonical form; an illegal one
made at the board is recorded as made, flagged with the reason and the rule
(USBGF 4.2.3), since it stands unless corrected in time.  The last checker
borne off, a drop (:mod:`bgledger.commands.cube`) or an accepted concession
ends the game, and perhaps the match.

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("play"), "play", ("Ann", "Bob"), 3, by="kim")
    >>> match.opening(6, 1, by="kim")
    >>> match.move("13/7 8/7", by="kim").legal
    True
    >>> match.roll(6, 6, by="kim")
    False
    >>> match.move("24/18 24/18 13/7 13/7", by="kim")
    Traceback (most recent call last):
    ...
    bgledger.errors.IllegalPlayRefusedError: ... 24/18 lands on 18, held by the opponent; ...
    >>> match.move("13/7 13/7 13/7 13/7", by="kim").legal
    True
    >>> match.state.turn
    'a'
"""

from __future__ import annotations

from bgledger.commands import decide as _decide
from bgledger.commands.clock import forgotten_hit, opening_hitter
from bgledger.commands.premature import PrematureCommands
from bgledger.commands.statements import refuse_bound_roll
from bgledger.errors import (
    ClockRefusedError,
    IllegalPlayRefusedError,
    InvalidMatchSetupError,
    NextStep,
    OutOfTurnError,
    ResignationRefusedError,
)
from bgledger.events import (
    CheckersPlayed,
    ClockHit,
    ClockHitImplied,
    DiceRolled,
    GameStarted,
    GameWon,
    MatchForfeited,
    MatchWon,
    OpeningRollMade,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    RollVoided,
    SingleDiceAgreed,
    UnplayablePlayRecorded,
)
from bgledger.projections.state.fold import MatchState, Phase, other
from bgledger.projections.state.model import game_points
from bgledger.rules.judge import Judgement, judge
from bgledger.rules.legal import can_play, check_dice, legal_plays
from bgledger.rules.notation import Play, parse_play
from bgledger.rules.profiles import Decision
from bgledger.rules.results import GameResult, final_result

__all__ = ["PlayCommands"]


class PlayCommands(PrematureCommands):
    """The dice, the checkers and the concessions of a match, and the end of each game.

    Built on :class:`~bgledger.commands.premature.PrematureCommands`: a play
    may leave an accepted premature roll that cannot be played, a dance.

    Commands take ``by`` (who records) and ``at`` (when it happened, ISO
    8601; ``None`` for now) and raise, recording nothing, when they refuse.
    """

    # -- dice -----------------------------------------------------------------

    def opening(
        self, die_a: int, die_b: int, *, start_clock: bool = True, by: str, at: str | None = None
    ) -> None:
        """The opening roll: ``a``'s die and ``b``'s die; the higher moves first.

        The first opening roll of a game also records :class:`GameStarted`.
        A tie is recorded and must be rolled again.  With a game clock, the
        player with the lower die starts his opponent's clock (CLOCK 3.3): a
        :class:`ClockHit` is recorded with the roll, at its time, where the
        profile's clock rules say so (``start_clock=False``: not, as in a
        match recorded before the ledger did this).

        :raises InvalidDiceError: for a die outside 1-6.
        :raises OutOfTurnError: during a game.
        """
        check_dice((die_a, die_b))
        state = self.state
        phases = (Phase.BETWEEN_GAMES, Phase.OPENING)
        _decide.require_phase(state, "make an opening roll", Decision.BASIC_RULES, *phases)
        with self.atomic():
            if state.phase is Phase.BETWEEN_GAMES:
                self._record(GameStarted, by, at, number=state.game + 1)
            rolled = self._record(OpeningRollMade, by, at, die_a=die_a, die_b=die_b)
            hitter = opening_hitter(self.state, self.profile) if start_clock else None
            if hitter is not None:
                self._record(ClockHit, by, rolled.at, player=hitter)

    def roll(
        self,
        die1: int,
        die2: int,
        *,
        auto_dance: bool = True,
        as_played: bool = False,
        by: str,
        at: str | None = None,
    ) -> bool:
        """The player on roll rolled ``die1``-``die2``.

        If no checker can move, the dance is recorded too (an empty
        :class:`CheckersPlayed`) and the turn passes; returns True then.
        ``auto_dance=False`` leaves the play to :meth:`move` (a transcription
        that writes a play for a roll that cannot be played).

        A roll on the opponent's time (his hit was never recorded) is refused
        or recorded after his hit, implied, as the profile says
        (:func:`~bgledger.commands.clock.forgotten_hit`); ``as_played``
        records it as made on his time (a transcription: the director may
        then rule the missed hit, USBGF 4.1.8.1).

        :raises InvalidDiceError: for a die outside 1-6.
        :raises OutOfTurnError: if it is not the time to roll.
        :raises ClockRefusedError: for a roll on the opponent's time, where refused.
        """
        dice = check_dice((die1, die2))
        if not self._opening_throw_open():  # CLASSIC 4: the higher thrower throws again
            _decide.require_phase(self.state, "roll", Decision.ROLL, Phase.ROLL, Phase.REROLL)
        player = self.state.turn or "a"
        if self.state.phase is Phase.ROLL:  # "I am going to double" binds (USBGF 4.4.3)
            refuse_bound_roll(self.state, self.profile, player, early=False)
        with self.atomic():
            hit = self._implied_hit(player, as_played, by, at, command=("roll", *map(str, dice)))
            at = at if hit is None else hit.at
            self._record(DiceRolled, by, at, player=player, die1=die1, die2=die2)
            if not auto_dance:
                return False
            if not can_play(self.state.position, dice):
                self._record(
                    CheckersPlayed, by, at, player=player, play="", legal=True, reason=None,
                    rule=None,
                )  # fmt: skip
                return True
        return False

    def play_singles(self, *, by: str, at: str | None = None) -> None:
        """Both players agree that the higher thrower of the opening roll plays the two
        single dice thrown, instead of throwing again with two dice (CLASSIC 4: "By mutual
        consent it may be agreed to let the higher throw play the points on his own and his
        adversary's die for the first move").  Recorded as :class:`SingleDiceAgreed`.

        :raises OutOfTurnError: where the profile has the opening dice played as thrown, or
            no opening roll waits to be played.
        """
        state, rule = self.state, self.profile.cite(Decision.OPENING_THROW)
        if not self.profile.rolls.opening_rethrow.value:
            raise OutOfTurnError(
                f"cannot agree to play the single dice: under {self.profile.name} the winner "
                "of the opening roll plays the two dice thrown; nothing to agree",
                rule,
            )
        if not self._opening_throw_open():
            raise OutOfTurnError(
                "cannot agree to play the single dice: no opening roll waits to be played",
                rule,
            )
        assert state.turn is not None
        self._record(SingleDiceAgreed, by, at, player=state.turn, rule=rule)

    def _opening_throw_open(self) -> bool:
        """Whether the higher thrower of the opening roll has yet to throw again or to play
        the single dice by consent (profiles with CLASSIC 4's rule only)."""
        state = self.state
        return (
            self.profile.rolls.opening_rethrow.value
            and state.opening_dice
            and state.phase is Phase.PLAY
        )

    def _opening_throw_choice(self) -> str:
        """What the higher thrower of the opening roll does next, in words (CLASSIC 4)."""
        state = self.state
        assert state.turn is not None and state.dice is not None
        name = state.name(state.turn)
        dice = f"{state.dice[0]}-{state.dice[1]}"
        return (
            f"{name} threw the higher die of the opening roll ({dice}): {name} throws again "
            f"with two dice ('roll D D') unless both players agree to play the single dice "
            f"{dice} ('play-singles')"
        )

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
            _decide.require_phase(state, "void a roll", Decision.VOID_ROLL, Phase.PLAY)
        player = other(state.turn or "b") if danced else state.turn or "a"
        self._record(RollVoided, by, at, player=player, reason=reason, rule=rule)

    def _implied_hit(
        self,
        player: str,
        as_played: bool,
        by: str,
        at: str | None,
        action: str = "roll or double",
        command: tuple[str, ...] = (),
    ) -> ClockHitImplied | None:
        """Before ``player``'s roll, double or take: his opponent's hit, implied, if it is missing.

        :raises ClockRefusedError: where the profile refuses the action instead.
        """
        rule = forgotten_hit(
            self.state, self.profile, player, as_played=as_played, action=action, command=command
        )
        if rule is None:
            return None
        return self._record(ClockHitImplied, by, at, player=other(player), rule=rule)

    def hit_implied(self, *, by: str, at: str | None = None) -> ClockHitImplied:
        """The hit of the player whose time runs, implied by his opponent's roll or double next.

        :meth:`roll` and :meth:`~bgledger.commands.cube.CubeCommands.double`
        record it themselves; a transcription (the JSON copy's import) records
        it on its own, then the action ``as_played``.

        :raises OutOfTurnError: if nobody is on roll.
        :raises ClockRefusedError: if no hit is missing, or the profile refuses the action.
        """
        _decide.require_phase(self.state, "roll", Decision.ROLL, Phase.ROLL, Phase.REROLL)
        player = self.state.turn or "a"
        hit = self._implied_hit(player, False, by, at)
        if hit is None:
            raise ClockRefusedError(
                f"no hit is missing: {_decide.situation(self.state)}",
                self.profile.cite(Decision.TURN_END),
            )
        return hit

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
        parsed = play if isinstance(play, Play) else parse_play(play)
        state = self.state
        _decide.require_phase(state, "move", Decision.BASIC_RULES, Phase.PLAY)
        assert state.turn is not None and state.dice is not None
        if self._opening_throw_open():
            raise OutOfTurnError(
                f"cannot move: {self._opening_throw_choice()}",
                self.profile.cite(Decision.OPENING_THROW),
            )
        as_judged = judge(state.position, state.dice, parsed, self.profile)
        verdict = _decide.same_checker(state, as_judged)
        if not verdict.legal and not as_played:
            raise IllegalPlayRefusedError(
                f"illegal play {str(verdict.play) or 'no move'!r} of "
                f"{state.dice[0]}-{state.dice[1]}: {verdict.reason}",
                verdict.rule,
                _made_instead(state, str(verdict.play)),
            )
        player = state.turn
        judged = {"legal": verdict.legal, "reason": verdict.reason, "rule": verdict.rule}
        self._record(CheckersPlayed, by, at, player=player, play=str(verdict.play), **judged)
        mover = verdict.result.swapped()
        if not any(mover.mover[1:]):
            removed = self.state.removed  # checkers off illegally do not save a gammon (ABT 4.4)
            pair = removed if player == "a" else (removed[1], removed[0])
            result = final_result(mover, pair) or GameResult.SINGLE
            self._win(player, result, "played", by, at)
        else:  # an accepted premature roll that cannot be played is a dance (USBGF 4.1.7.1)
            self._dance_if_blocked(by=by, at=at)
        return verdict

    def record_unplayable(self, play: str, reason: str, *, by: str, at: str | None = None) -> None:
        """A transcription's play that the board cannot show: kept as written, flagged.

        For imports only (:class:`UnplayablePlayRecorded`): the board stays as
        it was and the turn passes.

        :raises OutOfTurnError: if no roll is waiting to be played.
        """
        _decide.require_phase(self.state, "record a play", Decision.BASIC_RULES, Phase.PLAY)
        player = self.state.turn or "a"
        self._record(UnplayablePlayRecorded, by, at, player=player, play=play, reason=reason)

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
        profile forbids is refused unless ``as_played``.  ``as_played``, a
        game may be conceded before its opening roll (a transcription's game
        forfeited before it began): the game starts with the concession.

        :raises InvalidResultError: if ``level`` is not single, gammon or backgammon.
        :raises InvalidMatchSetupError: if ``player`` is not ``a`` or ``b``.
        :raises OutOfTurnError: outside a game or with something pending.
        :raises ResignationRefusedError: for a forbidden concession without ``as_played``.
        """
        level = _decide.parse_level(level)
        state = self.state
        phases: tuple[Phase, ...] = (Phase.ROLL, Phase.REROLL, Phase.PLAY)
        if as_played:
            phases += (Phase.BETWEEN_GAMES, Phase.OPENING)
        _decide.require_phase(state, "resign", Decision.RESIGNATION, *phases)
        who = player or state.turn or "a"
        if who not in ("a", "b"):
            raise InvalidMatchSetupError(f"player {who!r}: 'a' or 'b'")
        if state.phase is Phase.BETWEEN_GAMES:  # as played: the game begins with it
            self._concede_unbegun(who, level, by=by, at=at)
            return
        problem = _decide.resignation_problem(state, self.profile, level)
        refusal = f"{state.name(who)} may not resign"
        command = ("resign", level) + (() if player is None else ("--player", who))
        _decide.refuse_unless(
            as_played, problem, ResignationRefusedError, refusal, state=state, command=command
        )
        flags = _decide.flags(problem)
        self._record(ResignationOffered, by, at, player=who, level=level, **flags)

    def _concede_unbegun(self, who: str, level: str, *, by: str, at: str | None) -> None:
        """``who`` conceded the next game before its opening roll (as played): it begins so."""
        with self.atomic():  # the game and the concession, or nothing
            self._record(GameStarted, by, at, number=self.state.game + 1)
            problem = _decide.resignation_problem(self.state, self.profile, level)
            self._record(
                ResignationOffered, by, at, player=who, level=level, **_decide.flags(problem)
            )

    def accept(self, *, by: str, at: str | None = None) -> None:
        """The concession was accepted: the other player wins that many points times the cube.

        :raises OutOfTurnError: if no concession is offered.
        """
        state = self.state
        _decide.require_phase(state, "accept", Decision.RESIGNATION, Phase.RESIGNED)
        assert state.resignation is not None
        self._record(ResignationAccepted, by, at, player=state.actor)
        result = GameResult.parse(state.resignation.level)
        self._win(other(state.resignation.player), result, "resign", by, at)

    def reject(self, *, by: str, at: str | None = None) -> None:
        """The concession was refused: play goes on where it stopped.

        :raises OutOfTurnError: if no concession is offered.
        """
        state = self.state
        _decide.require_phase(state, "reject", Decision.RESIGNATION, Phase.RESIGNED)
        self._record(ResignationRejected, by, at, player=state.actor)

    # -- ends -------------------------------------------------------------------

    def forfeit_match(self, player: str, reason: str, *, by: str, at: str | None = None) -> None:
        """``player`` forfeited the match (``reason``): his opponent wins it as the score stands.

        For imports: a transcription that declares a match won short of its
        length (``Wins 1 point and the match`` at 1-0 of 5).  Recorded as
        :class:`MatchForfeited` and the :class:`MatchWon` it brings, as a
        forfeit on time or by penalty points is (USBGF 4.3.3, 2.2.4).

        :raises InvalidMatchSetupError: if ``player`` is not ``a`` or ``b``.
        :raises OutOfTurnError: during a game or after the match.
        """
        if player not in ("a", "b"):
            raise InvalidMatchSetupError(f"player {player!r}: 'a' or 'b'")
        state = self.state
        phases = (Phase.BETWEEN_GAMES,)
        _decide.require_phase(state, "forfeit the match", Decision.BASIC_RULES, *phases)
        a, b = state.score
        with self.atomic():
            self._record(MatchForfeited, by, at, player=player, reason=reason.strip())
            self._record(MatchWon, by, at, winner=other(player), score_a=a, score_b=b)

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


def _made_instead(state: MatchState, play: str) -> NextStep:
    """The next step after an illegal ``play`` refused: the play made, or ``play`` as played.

    The dice come first: a scorekeeper who entered the wrong roll sees it, and how to
    withdraw it (``undo``: a recording error, not a ruling).
    """
    assert state.turn is not None and state.dice is not None
    mover, dice = NextStep.literal(state.name(state.turn)), state.dice
    example = str(legal_plays(state.position, dice)[0].play)
    text = (
        f"{mover}'s dice are {dice[0]}-{dice[1]}: record the play made with them, e.g. {{}}, "
        "or, if this play was made at the board, {}; if the dice were entered wrong, {} "
        "the roll and enter it again"
    )
    commands = (("move", example), ("move", play, "--as-played"), ("undo",))
    return NextStep(text, commands, state.match_id)
