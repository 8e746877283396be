"""Where a match stands, in words: what the refusals cite and every view prints.

:func:`situation` reads the folded :class:`~bgledger.projections.state.model.MatchState`
only: the commands quote it when they refuse an action out of sequence, and
the text view writes it under the board and in each one-line summary.
"""

from __future__ import annotations

from bgledger.projections.state.model import START_SIDE, Crawford, MatchState, Phase, other
from bgledger.rules.profiles import Decision, get_profile

__all__ = ["premature_situation", "score_text", "situation"]


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
    own time and the hit that ends it are named until he has hit (CLOCK 4.3).
    """
    if state.replay is not None and state.winner is None:
        replaying = _replay_situation(state, state.replay)
        if replaying:
            return replaying
    return _situation(state)


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
        return f"{name(turn)} {_agree(name(turn), 'is')} on roll, " + (
            "to double or to roll" if _may_double(state) else "to roll"
        )
    if phase is Phase.REROLL:
        return f"{name(turn)}'s roll was voided: {name(turn)} must roll again"
    if phase in (Phase.PLAY, Phase.PREMATURE_ROLL) and state.dice:
        rolled = f"{name(turn)} {_agree(name(turn), 'has')} rolled {state.dice[0]}-{state.dice[1]}"
        return rolled + premature_situation(state, " and must move")
    if phase is Phase.DOUBLED:
        taker = name(other(turn))
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


_PLURAL = {"is": "are", "has": "have"}


def _agree(name: str, verb: str) -> str:
    """``verb`` (third person singular) as ``name`` takes it: a doubles team (``Ann & Cy``,
    ``Ann and Cy``, CLOCK 2.2) is two players, so ``Ann & Cy have rolled``.

    >>> _agree("Ann", "has"), _agree("Ann & Cy", "has"), _agree("Ann and Cy", "takes")
    ('has', 'have', 'take')
    """
    if " & " not in name and " and " not in name and " + " not in name:
        return verb
    return _PLURAL.get(verb, verb[:-1] if verb.endswith("s") else verb)


def _may_double(state: MatchState) -> bool:
    """Whether the cube is the player on roll's to turn: centred or his, not the Crawford game.

    What the status line says; the command decides on every rule
    (:func:`bgledger.commands.decide.cube_problem`).
    """
    crawford_game = state.crawford_rule and state.crawford is Crawford.CRAWFORD
    return not crawford_game and state.cube_owner in (None, state.turn)
