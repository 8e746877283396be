"""The contract's JSON view of a :class:`~projections.state.MatchState` and its gnubg ids.

``show --json`` prints :func:`state_json`; ``import --json`` adds to it.
"""

from __future__ import annotations

from typing import Any

from ledger.rules.ids import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    MatchId,
)
from ledger.rules.results import GameResult
from projections.state import Crawford, MatchState, Phase, seat

_ENDED = {"played": GAME_OVER, "resign": GAME_RESIGNED, "drop": GAME_DROPPED}


def _game_state(state: MatchState) -> int:
    if state.in_game:
        return GAME_PLAYING
    if not state.games:
        return GAME_NONE
    return _ENDED.get(state.games[-1].how, GAME_OVER)


def gnubg_match_id(state: MatchState) -> str:
    """The gnubg Match ID of ``state`` (player ``a`` is gnubg's player 0).

    The score is capped at the match length, as gnubg's match key must be.
    """
    turn = seat(state.turn) if state.turn else 0
    actor = seat(state.actor) if state.actor else turn
    length = max(state.length, 0)
    score = (min(state.score[0], length), min(state.score[1], length))
    resigned = GameResult.parse(state.resignation.level) if state.resignation else 0
    return MatchId(
        cube_value=state.cube,
        cube_owner=None if state.cube_owner is None else seat(state.cube_owner),
        player_on_roll=turn,
        crawford=state.in_game and state.crawford is Crawford.CRAWFORD,
        game_state=_game_state(state),
        turn=actor,
        doubled=state.phase is Phase.DOUBLED,
        resigned=int(resigned),
        dice=state.dice or (0, 0),
        match_length=length,
        score=score,
    ).encode()


def _premature_json(state: MatchState) -> dict[str, Any] | None:
    """The premature action pending: ``kind``, ``player`` and ``dice`` or ``value``."""
    early = state.premature
    if early is None:
        return None
    if early.kind == "double":
        return {"kind": early.kind, "player": early.player, "value": early.a}
    return {"kind": early.kind, "player": early.player, "dice": [early.a, early.b]}


def state_json(state: MatchState) -> dict[str, Any]:
    """The fields ``show --json`` prints (DESIGN, command-line contract), and more."""
    pips = state.pips()
    return {
        "match_id": state.match_id,
        "players": {"a": state.players[0], "b": state.players[1]},
        "length": state.length,
        "score": {"a": state.score[0], "b": state.score[1]},
        "crawford": state.crawford.value,
        "game": state.game,
        "cube": {
            "value": state.cube,
            "owner": state.cube_owner,
            "offered": state.phase is Phase.DOUBLED,
        },
        "turn": state.turn,
        "dice": list(state.dice) if state.dice else None,
        "board": state.position.position_id,
        "match_id_gnubg": gnubg_match_id(state),
        "winner": state.winner,
        "events": state.events,
        "phase": state.phase.value,
        "to_act": state.actor,
        "resignation": None
        if state.resignation is None
        else {"player": state.resignation.player, "level": state.resignation.level},
        "premature": _premature_json(state),
        "pips": {"a": pips[0], "b": pips[1]},
        "profile": state.profile,
        "clock": state.clock,
        "crawford_rule": state.crawford_rule,
        "event": state.event,
        "round": state.round,
        "table": state.table,
        "games": [
            {
                "game": g.number,
                "winner": g.winner,
                "result": g.result,
                "cube": g.cube,
                "points": g.points,
                "how": g.how,
                "crawford": g.crawford,
                "score": {"a": g.score[0], "b": g.score[1]},
            }
            for g in state.games
        ],
        "next_length": state.next_length,
        "flagged": list(state.flagged),
        "anomalies": list(state.anomalies),
    }
