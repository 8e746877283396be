"""Where a match stands, in words: what the refusals cite and every view prints.

:func:`situation` reads the folded :class:`~bgledger.projections.state.model.MatchState`
only: the commands quote it when they refuse an action out of sequence, and
the text view writes it under the board and in each one-line summary.
:func:`now` is what may happen now, worded once: the situation, the cube, and the
commands each party may issue (:func:`bgledger.projections.state.allowed.allowed`),
what ``show --json`` gives as ``now`` and every surface draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bgledger.projections.state.allowed import (
    STATEMENT_WORDS,
    Allowed,
    agree,
    allowed,
    bound,
    hit_due,
    may_double,
    must_double,
)
from bgledger.projections.state.model import START_SIDE, Crawford, MatchState, Phase, other
from bgledger.rules.profiles import Decision, ForgottenHit, get_profile

__all__ = [
    "Now",
    "cube_status",
    "cube_words",
    "now",
    "premature_situation",
    "score_text",
    "situation",
    "turn_words",
]


@dataclass(frozen=True, slots=True)
class Now:
    """What may happen now, in one answer: ``says`` where the match stands (the status
    line), ``turn`` who acts next and how, in a few words (a card's), ``cube`` the cube in
    words, ``due`` the player whose clock hit is due (or None), and ``allowed`` each command
    a party may issue now."""

    says: str
    turn: str
    cube: str
    due: str | None
    allowed: tuple[Allowed, ...]

    def lines(self, party: str | None = None) -> tuple[str, ...]:
        """The lines offered (to ``party`` only, if given), in order."""
        return tuple(a.line for a in self.allowed if party is None or a.party == party)

    def to_json(self) -> dict[str, Any]:
        """As ``show --json`` writes it: ``now``."""
        return {
            "says": self.says,
            "turn": self.turn,
            "cube": self.cube,
            "due": self.due,
            "allowed": [a.to_json() for a in self.allowed],
        }


def now(state: MatchState) -> Now:
    """What may happen now in ``state``: every surface's one answer.

    >>> from bgledger.projections.state.model import MatchState
    >>> answer = now(MatchState("m", ("Ann", "Bob"), 5, "usbgf-2016", "none", True))
    >>> answer.says
    'no game in progress: game 1 starts with an opening roll'
    >>> answer.turn, answer.cube, answer.lines("players")
    ('game 1 to start', 'cube 1, centred', ('opening', 'break start both'))
    """
    due = hit_due(state)
    return Now(situation(state), turn_words(state, due), cube_status(state), due, allowed(state))


_TURNS = {
    Phase.REROLL: "to roll again",
    Phase.PLAY: "to move",
    Phase.DOUBLED: "to take or drop",
    Phase.RESIGNED: "to accept or reject a resignation",
    Phase.PREMATURE_ROLL: "to answer an early roll",
}


def turn_words(state: MatchState, due: str | None) -> str:
    """Who acts next and how, in a few words: ``Ann to hit the clock``, ``Bob to roll or
    double``, ``game 2 to start``, ``on a break``, ``match over``."""
    if state.phase is Phase.OVER or state.winner is not None:
        return "match over"
    if state.breaks.open is not None:
        return "on a break"
    if state.phase in (Phase.BETWEEN_GAMES, Phase.OPENING):
        return f"game {state.game + (state.phase is Phase.BETWEEN_GAMES)} to start"
    if due is not None:
        return f"{state.name(due)} to hit the clock"
    actor = state.actor
    if actor is None:
        return f"game {state.game} over"
    if state.phase is Phase.ROLL:
        profile = get_profile(state.profile)
        if must_double(state, profile):  # USBGF 4.4.3
            return f"{state.name(actor)} to double"
        cube = may_double(state, profile, actor)
        return f"{state.name(actor)} to roll" + (" or double" if cube else "")
    if state.phase is Phase.DOUBLED and bound(state, actor, "pass"):  # USBGF 4.4.4
        return f"{state.name(actor)} to drop"
    return f"{state.name(actor)} {_TURNS.get(state.phase, 'to act')}"


def cube_words(value: int, owner: str | None) -> str:
    """The cube at ``value``, owned by the player named ``owner`` or centred (None).

    >>> cube_words(1, None), cube_words(2, "Bob")
    ('cube 1, centred', "cube 2, Bob's")
    """
    return f"cube {value}, centred" if owner is None else f"cube {value}, {owner}'s"


def cube_status(state: MatchState) -> str:
    """The cube in words, as every view says it: its value and owner, none in the Crawford
    game (USBGF 4.4.6), the next game's between games, nothing once the match is over."""
    crawford = state.crawford_rule and state.crawford is Crawford.CRAWFORD
    if state.phase is Phase.OVER:
        return ""
    if state.phase is Phase.BETWEEN_GAMES:
        return "next game: no cube, Crawford game" if crawford else "cube 1, centred"
    if crawford:
        return "no cube: Crawford game"
    owner = None if state.cube_owner is None else state.name(state.cube_owner)
    return cube_words(state.cube, owner)


def score_text(state: MatchState) -> str:
    """The score with the names, player a first: ``'Ann 4, Bob 1'``.

    Every view gives a score this way round (player a's points first, as the
    players are listed); a sentence names both players, so it never depends
    on who won.
    """
    return f"{state.players[0]} {state.score[0]}, {state.players[1]} {state.score[1]}"


def situation(state: MatchState) -> str:
    """Where the match stands, in words, for refusals and ``record``.

    On a clock, after a ruling reverted a play, the offender's replay on his
    own time and the hit that ends it are named until he has hit (CLOCK 4.3);
    a hit that is due, after a play, a double or a take, is named first (USBGF 4.1.8.1).
    """
    if state.replay is not None and state.winner is None:
        replaying = _replay_situation(state, state.replay)
        if replaying:
            return replaying
    due = hit_due(state)
    if due is not None:
        return _hit_situation(state, due) + _situation(state) + _standing(state)
    return _situation(state) + _standing(state)


def _standing(state: MatchState) -> str:
    """The cube statements standing that the situation has not named (USBGF 4.4.3, 4.4.4)."""
    if not state.statements or state.phase not in (Phase.ROLL, Phase.REROLL, Phase.PLAY):
        return ""
    profile = get_profile(state.profile)
    named = state.turn if must_double(state, profile) else None
    said = [
        f"{state.name(s.player)} said '{STATEMENT_WORDS.get(s.says, s.says)}' ("
        + profile.cite(Decision.DOUBLE_STATEMENT if s.says == "double" else Decision.PASS_STATEMENT)
        + ")"
        for s in state.statements
        if not (s.player == named and s.says == "double")
    ]
    return "; " + "; ".join(said) if said else ""


def _hit_situation(state: MatchState, due: str) -> str:
    """The hit due first, and whether the next action records it implied (ABT 4.6)."""
    profile = get_profile(state.profile)
    name = state.name(due)
    said = f"{name} {agree(name, 'hits')} the clock first ({profile.cite(Decision.TURN_END)})"
    rules = profile.clock(state.timer.mode) if state.timer else None
    if rules is not None and rules.forgotten_hit.value is ForgottenHit.IMPLIED_HIT:
        actor = state.name(state.actor or other(due))
        said += f", or {actor}'s next action implies it ({rules.forgotten_hit.rule})"
    return said + "; then "


def _replay_situation(state: MatchState, player: str) -> str:
    """What the offender does next, while he replays a reverted play (CLOCK 4.3); else ''."""
    rule = get_profile(state.profile).cite(Decision.REPLAY_ON_OWN_TIME)
    name = state.name(player)
    if state.phase is Phase.PLAY and state.turn == player and state.dice:
        dice = f"{state.dice[0]}-{state.dice[1]}"
        replays = f"{name} {_agree(name, 'replays')} the {dice}, {name}'s clock running, then "
        replays += f"{_agree(name, 'hits')} ({rule})"
        return premature_situation(state, replays)
    if state.phase is Phase.ROLL and state.turn == other(player):
        return f"{name} {_agree(name, 'hits')} to end the replay ({rule}); then {_situation(state)}"
    return ""


def _situation(state: MatchState) -> str:
    name = state.name
    turn, phase = state.turn or "a", state.phase
    if phase is Phase.BETWEEN_GAMES:
        return f"no game in progress: game {state.game + 1} starts with an opening roll"
    if phase is Phase.OPENING:
        return _opening_due(state)
    if phase is Phase.ROLL:
        profile = get_profile(state.profile)
        if must_double(state, profile):
            return (
                f"{name(turn)} {_agree(name(turn), 'is')} on roll and must double, having "
                f"said '{STATEMENT_WORDS['double']}' ({profile.cite(Decision.DOUBLE_STATEMENT)})"
            )
        cube = may_double(state, profile, turn)
        return f"{name(turn)} {_agree(name(turn), 'is')} on roll, " + (
            "to double or to roll" if cube else "to roll"
        )
    if phase is Phase.REROLL:
        return f"{name(turn)}'s roll was voided: {name(turn)} must roll again"
    if phase in (Phase.PLAY, Phase.PREMATURE_ROLL) and state.dice:
        rolled = f"{name(turn)} {_agree(name(turn), 'has')} rolled {state.dice[0]}-{state.dice[1]}"
        return rolled + premature_situation(state, " and must move")
    if phase is Phase.DOUBLED:
        taker = name(other(turn))
        if bound(state, other(turn), "pass"):
            rule = get_profile(state.profile).cite(Decision.PASS_STATEMENT)
            return (
                f"{name(turn)} {_agree(name(turn), 'has')} doubled to {state.offer}: {taker} "
                f"must drop, having said '{STATEMENT_WORDS['pass']}' ({rule})"
            )
        return (
            f"{name(turn)} {_agree(name(turn), 'has')} doubled to {state.offer}: "
            f"{taker} {_agree(taker, 'takes')} or {_agree(taker, 'drops')}"
        )
    if phase is Phase.RESIGNED and state.resignation:
        offer = state.resignation
        return (
            f"{name(offer.player)} {_agree(name(offer.player), 'offers')} to resign a "
            f"{offer.level}: {name(other(offer.player))} "
            f"{_agree(name(other(offer.player)), 'accepts')} or "
            f"{_agree(name(other(offer.player)), 'rejects')}"
        )
    if phase is Phase.ENDING:
        return f"game {state.game} is over: its result follows"
    winner = state.winner or "a"
    return f"the match is over: {name(winner)} won ({score_text(state)})"


def _opening_due(state: MatchState) -> str:
    """A game begun without its opening roll: a tie, a voided roll, a setup or a game replayed.

    The state does not say which (each leaves the game waiting for its opening
    roll), so the words fit them all; a board set up otherwise than the
    standard position is named, as the next roll is played on it.
    """
    standard = state.board == (START_SIDE, START_SIDE)
    board = "" if standard else " from a position set up by hand"
    return f"game {state.game} has begun{board}: its opening roll is next"


def premature_situation(state: MatchState, moving: str) -> str:
    """What follows the mover's roll in :func:`situation` while a premature action waits."""
    early, name = state.premature, state.name
    if early is None:
        return moving
    mover, roller = name(state.turn or "a"), name(early.player)
    if early.kind == "double":
        return (
            f"{moving}; {roller} {_agree(roller, 'has')} doubled to {early.a} early: {mover} "
            f"{_agree(mover, 'takes')} or {_agree(mover, 'drops')} then"
        )
    dice = f"{early.a}-{early.b}"
    if early.kind == "roll":
        return (
            f"; {roller} rolled {dice} early: {mover} {_agree(mover, 'accepts')} or "
            f"{_agree(mover, 'refuses')} the roll"
        )
    if early.kind == "accepted":
        return f"{moving}; then {roller} {_agree(roller, 'plays')} the early {dice}"
    again = f"{roller} {_agree(roller, 'rolls')} again"
    return f"{moving}; {roller}'s early {dice} was refused: then {again}"


_agree = agree
