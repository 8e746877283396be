"""The contract's JSON view of a :class:`~bgledger.projections.state.fold.MatchState` and its
gnubg ids.

``show --json`` prints :func:`state_json`; ``import --json`` adds to it.
The game clock's figures depend on the moment they are read at
(:func:`clock_json`): by default the time of the last event, so that the
same record always shows the same figures.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bgledger.projections.state.breaks import allowance
from bgledger.projections.state.clock import ClockState, at_ms, figures
from bgledger.projections.state.fold import Crawford, MatchState, Phase, seat
from bgledger.projections.state.situation import now
from bgledger.rules.errors import InvalidPositionError
from bgledger.rules.ids import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    MatchId,
)
from bgledger.rules.profiles import get_profile
from bgledger.rules.results import GameResult
from bgledger.rules.xgid import Xgid

__all__ = [
    "analyst_ids",
    "breaks_json",
    "clock_json",
    "gnubg_match_id",
    "iso_from_ms",
    "state_json",
    "time_json",
    "xgid_of",
]

NO_CLOCK: dict[str, Any] = {
    "mode": "none",
    "delay_ms": None,
    "reserve_ms": None,
    "running": None,
    "stopped": None,
}
"""``clock`` for a match played without a game clock."""

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


def xgid_of(state: MatchState) -> str | None:
    """eXtreme Gammon's XGID of ``state``, from the fields of its gnubg Match ID.

    ``None`` where an XGID cannot say it (a cube past XG's largest, for one).
    """
    found = MatchId.decode(gnubg_match_id(state))
    try:
        return Xgid(
            position=state.position,
            player_on_roll=found.player_on_roll,
            cube_value=found.cube_value,
            cube_owner=found.cube_owner,
            dice=(0, 0) if found.doubled else found.dice,
            doubled=found.doubled,
            score=found.score,
            match_length=found.match_length,
            crawford=found.crawford,
        ).encode()
    except InvalidPositionError:
        return None


def analyst_ids(state: MatchState) -> list[tuple[str, str]]:
    """gnubg's Position ID and Match ID and XG's XGID of ``state``, as (name, value) pairs."""
    ids = [("Position ID", state.position.position_id), ("Match ID", gnubg_match_id(state))]
    found = xgid_of(state)
    return [*ids, ("XGID", found)] if found else ids


def _premature_json(state: MatchState) -> dict[str, Any] | None:
    """The premature action pending: ``kind``, ``player`` and ``dice`` or ``value``."""
    early = state.premature
    if early is None:
        return None
    if early.kind == "double":
        return {"kind": early.kind, "player": early.player, "value": early.a}
    return {"kind": early.kind, "player": early.player, "dice": [early.a, early.b]}


def iso_from_ms(ms: int, like: str) -> str:
    """``ms`` since the epoch as ISO 8601, in the UTC offset of the time ``like``."""
    zone = datetime.fromisoformat(like).tzinfo if like else None
    return datetime.fromtimestamp(ms / 1000, tz=zone or UTC).isoformat()


def _pair(values: tuple[Any, Any]) -> dict[str, Any]:
    return {"a": values[0], "b": values[1]}


def clock_json(state: MatchState, now_ms: int | None = None) -> dict[str, Any]:
    """The game clock at ``now_ms`` (default: the time of the last event).

    ``reserve_ms`` are both figures then; ``running`` the player whose time
    runs; ``stopped`` why the clock is stopped (a key of
    :data:`bgledger.projections.state.clock.REASONS`), null while running or before the
    first hit; ``turn`` whose turn the clock is timing, even while stopped;
    ``drift_ms`` the last reading minus the ledger's figures (null if none
    since the last setting); ``as_of`` the moment of the figures;
    ``delay_left_ms`` what is left of the delay of ``turn``'s turn then (0 once
    it is used up; a Bronstein delay is given back after the turn, so 0), from
    which a screen counts on: ``running``'s figure ``t`` ms after ``as_of`` is
    ``reserve_ms`` less ``max(0, t - delay_left_ms)``.
    """
    timer = state.timer
    if timer is None:
        return dict(NO_CLOCK)
    now = at_ms(state.last_at) if now_ms is None else now_ms
    return {
        "mode": timer.mode,
        "delay_ms": timer.delay_ms,
        "reserve_ms": _pair(figures(timer, now)),
        "running": timer.turn if timer.running else None,
        "stopped": timer.stopped,
        "as_of": iso_from_ms(now, state.last_at),
        "turn": timer.turn,
        "drift_ms": None if timer.drift_ms is None else _pair(timer.drift_ms),
        "delay_forfeited": _pair(timer.no_delay),
        "early_pickups": _pair(timer.pickups),
        "delay_left_ms": _delay_left(timer, now),
    }


def _delay_left(timer: ClockState, now_ms: int) -> int:
    """The simple delay left in the timed turn at ``now_ms`` (0 under Bronstein, or none timed)."""
    if timer.turn is None or timer.mode == "bronstein":
        return 0
    return max(0, timer.turn_delay_ms - timer.used(now_ms))


def breaks_json(state: MatchState) -> dict[str, Any]:
    """Breaks used and left per player (USBGF 2.2.2) and the break in progress, if any.

    ``left`` is null where the profile allots no breaks (never below 0: a
    director's exception may go beyond the allowance).
    """
    allowed = allowance(state.profile, state.length)
    document: dict[str, Any] = {"allowance": allowed}
    for index, player in enumerate(("a", "b")):
        used = state.breaks.used[index]
        document[player] = {
            "used": used,
            "left": None if allowed is None else max(0, allowed - used),
        }
    opened = state.breaks.open
    document["on_break"] = (
        None
        if opened is None
        else {
            "players": list(opened.players),
            "minutes": opened.minutes,
            "started": iso_from_ms(opened.start_ms, state.last_at),
            "ends": iso_from_ms(opened.ends_ms, state.last_at),
        }
    )
    return document


def time_json(state: MatchState, now_ms: int | None = None) -> dict[str, Any]:
    """``clock`` (:func:`clock_json`), ``breaks`` (:func:`breaks_json`) and ``penalty_points``.

    ``penalty_points`` are those assessed against ``a`` and ``b`` (USBGF
    2.2.4): each player's opponent scored them.
    """
    return {
        "clock": clock_json(state, now_ms),
        "breaks": breaks_json(state),
        "penalty_points": _pair(state.penalties),
    }


def _games_json(state: MatchState) -> list[dict[str, Any]]:
    return [
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
    ]


def _cube_json(state: MatchState) -> dict[str, Any]:
    return {"value": state.cube, "owner": state.cube_owner, "offered": state.phase is Phase.DOUBLED}


def _resignation_json(state: MatchState) -> dict[str, str] | None:
    offer = state.resignation
    return None if offer is None else {"player": offer.player, "level": offer.level}


def state_json(state: MatchState, now_ms: int | None = None) -> dict[str, Any]:
    """The fields ``show --json`` prints (DESIGN, command-line contract), and more.

    ``now_ms`` is the moment a running clock's figures are computed for
    (default: the time of the last event).
    """
    return {
        "match_id": state.match_id,
        "players": {"a": state.players[0], "b": state.players[1]},
        "length": state.length,
        "score": {"a": state.score[0], "b": state.score[1]},
        "crawford": state.crawford.value,
        "game": state.game,
        "cube": _cube_json(state),
        "turn": state.turn,
        "dice": list(state.dice) if state.dice else None,
        "board": state.position.position_id,
        "match_id_gnubg": gnubg_match_id(state),
        "winner": state.winner,
        "events": state.events,
        "phase": state.phase.value,
        "opening_throw": _opening_throw(state),
        "to_act": state.actor,
        "now": now(state).to_json(),
        "resignation": _resignation_json(state),
        "premature": _premature_json(state),
        "statements": [{"player": s.player, "says": s.says} for s in state.statements],
        "pips": _pair(state.pips()),
        "profile": state.profile,
        **time_json(state, now_ms),
        "crawford_rule": state.crawford_rule,
        "event": state.event,
        "round": state.round,
        "table": state.table,
        "games": _games_json(state),
        "next_length": state.next_length,
        "flagged": list(state.flagged),
        "anomalies": list(state.anomalies),
    } | ({"time_marks": list(state.time_marks)} if state.time_marks else {})


def _opening_throw(state: MatchState) -> bool:
    """Whether the winner of the opening roll has yet to throw again with two dice or to
    play the single dice by consent (profiles with CLASSIC 4's rule)."""
    rethrow = get_profile(state.profile).rolls.opening_rethrow.value
    return rethrow and state.opening_dice and state.phase is Phase.PLAY
