"""A lossless JSON form of :class:`~bgledger.projections.state.fold.MatchState`, for snapshots.

A snapshot stores the folded state of a match at some event so that loading a
long match reads one snapshot and the events after it, not the whole stream.
``state_from_dict(state_to_dict(s)) == s`` for every state the fold makes; the
``version`` key lets a later bgledger refuse (and so rebuild past) a snapshot
written in an older form.
"""

from __future__ import annotations

from typing import Any

from bgledger.projections.state.breaks import Breaks, OpenBreak
from bgledger.projections.state.clock import ClockState
from bgledger.projections.state.model import (
    Crawford,
    GameRecord,
    MatchState,
    Phase,
    Premature,
    Resignation,
    Statement,
)

VERSION = 3
"""2: ``removed``, the checkers taken out of play by an illegal bear-off left standing, and
``replay``, the player replaying a reverted play on his own time (CLOCK 4.3); a snapshot or
read-model row of version 1 lacks them: it is refused and the match folded from its events.
3: ``last_at`` is the time of the last event at the table (a bookkeeping entry keeps none,
:attr:`~bgledger.events.MatchEvent.bookkeeping`); one of version 2 may hold a note's or an
import's time (an import's snapshot always did): refused the same way."""


def state_to_dict(state: MatchState) -> dict[str, Any]:
    """``state`` as JSON-stable values (lists, dicts, str, int, bool, None)."""
    resignation = state.resignation
    return {
        "version": VERSION,
        "match_id": state.match_id,
        "players": list(state.players),
        "length": state.length,
        "profile": state.profile,
        "clock": state.clock,
        "crawford_rule": state.crawford_rule,
        "event": state.event,
        "round": state.round,
        "table": state.table,
        "meta": [list(pair) for pair in state.meta],
        "score": list(state.score),
        "games": [_game_to_list(game) for game in state.games],
        "game": state.game,
        "crawford": state.crawford.value,
        "phase": state.phase.value,
        "turn": state.turn,
        "dice": None if state.dice is None else list(state.dice),
        "opening_dice": state.opening_dice,
        "cube": state.cube,
        "cube_owner": state.cube_owner,
        "offer": state.offer,
        "board": [list(side) for side in state.board],
        "removed": list(state.removed),
        "resignation": None
        if resignation is None
        else [resignation.player, resignation.level, resignation.resume.value],
        "premature": _premature_to_list(state.premature),
        "winner": state.winner,
        "events": state.events,
        "danced": state.danced,
        "next_length": state.next_length,
        "obliged": list(state.obliged),
        "flagged": list(state.flagged),
        "anomalies": list(state.anomalies),
        "time_marks": list(state.time_marks),
        "started_at": state.started_at,
        "last_at": state.last_at,
        "timer": _timer_to_dict(state.timer),
        "breaks": _breaks_to_dict(state.breaks),
        "penalties": list(state.penalties),
        "replay": state.replay,
        "statements": [[s.player, s.says] for s in state.statements],
    }


def _game_to_list(game: GameRecord) -> list[Any]:
    return [
        game.number,
        game.winner,
        game.result,
        game.cube,
        game.points,
        game.how,
        game.crawford,
        list(game.score),
    ]


def _pair(value: list[int]) -> tuple[int, int]:
    return int(value[0]), int(value[1])


def _board(value: list[list[int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Both sides' 26 checker counts.

    :raises ValueError: if either side is not 26 whole numbers.
    """
    sides = tuple(tuple(side) for side in value)
    if len(sides) != 2 or any(len(side) != 26 for side in sides):
        raise ValueError(f"a board is two sides of 26 counts, not {value!r}")
    if not all(type(count) is int for side in sides for count in side):
        raise ValueError(f"a board holds whole numbers of checkers, not {value!r}")
    return sides[0], sides[1]


def state_from_dict(data: dict[str, Any]) -> MatchState:
    """The :class:`MatchState` that :func:`state_to_dict` wrote.

    :raises ValueError: if ``data`` was written by another version of this codec.
    """
    if data.get("version") != VERSION:
        raise ValueError(f"snapshot state version {data.get('version')!r}, expected {VERSION}")
    games = tuple(
        GameRecord(n, winner, result, cube, points, how, crawford, _pair(score))
        for n, winner, result, cube, points, how, crawford, score in data["games"]
    )
    resignation = data["resignation"]
    return MatchState(
        match_id=data["match_id"],
        players=_names(data["players"]),
        length=data["length"],
        profile=data["profile"],
        clock=data["clock"],
        crawford_rule=data["crawford_rule"],
        event=data["event"],
        round=data["round"],
        table=data["table"],
        meta=tuple((str(k), str(v)) for k, v in data["meta"]),
        score=_pair(data["score"]),
        games=games,
        game=data["game"],
        crawford=Crawford(data["crawford"]),
        phase=Phase(data["phase"]),
        turn=data["turn"],
        dice=None if data["dice"] is None else _pair(data["dice"]),
        opening_dice=data["opening_dice"],
        cube=data["cube"],
        cube_owner=data["cube_owner"],
        offer=data["offer"],
        board=_board(data["board"]),
        removed=_pair(data["removed"]),
        resignation=None
        if resignation is None
        else Resignation(resignation[0], resignation[1], Phase(resignation[2])),
        premature=_premature_from_list(data.get("premature")),
        winner=data["winner"],
        events=data["events"],
        danced=data["danced"],
        next_length=data["next_length"],
        obliged=tuple(data.get("obliged", ())),
        flagged=tuple(data["flagged"]),
        anomalies=tuple(data["anomalies"]),
        time_marks=tuple(data.get("time_marks", ())),  # none before claims were kept
        started_at=data["started_at"],
        last_at=data["last_at"],
        timer=_timer_from_dict(data.get("timer")),
        breaks=_breaks_from_dict(data.get("breaks")),
        penalties=_pair(data.get("penalties", [0, 0])),
        replay=data["replay"],
        statements=tuple(  # none in a snapshot written before statements were recorded
            Statement(str(player), str(says)) for player, says in data.get("statements", ())
        ),
    )


def _names(value: list[str]) -> tuple[str, str]:
    return str(value[0]), str(value[1])


def _premature_to_list(premature: Premature | None) -> list[Any] | None:
    if premature is None:
        return None
    return [premature.kind, premature.player, premature.a, premature.b]


def _premature_from_list(value: list[Any] | None) -> Premature | None:
    """A pending premature action; ``None`` too for a snapshot written before they existed."""
    if value is None:
        return None
    kind, player, a, b = value
    return Premature(str(kind), str(player), int(a), int(b))


# -- the clock and the breaks (keys absent in snapshots written before them) ----------


def _timer_to_dict(timer: ClockState | None) -> dict[str, Any] | None:
    if timer is None:
        return None
    return {
        "mode": timer.mode,
        "delay_ms": timer.delay_ms,
        "reserve_ms": list(timer.reserve_ms),
        "turn": timer.turn,
        "running": timer.running,
        "stopped": timer.stopped,
        "since_ms": timer.since_ms,
        "used_ms": timer.used_ms,
        "turn_delay_ms": timer.turn_delay_ms,
        "no_delay": list(timer.no_delay),
        "pickups": list(timer.pickups),
        "at_one_second": list(timer.at_one_second),
        "drift_ms": None if timer.drift_ms is None else list(timer.drift_ms),
    }


def _flags(value: list[bool]) -> tuple[bool, bool]:
    return bool(value[0]), bool(value[1])


def _timer_from_dict(data: dict[str, Any] | None) -> ClockState | None:
    if data is None:
        return None
    drift = data["drift_ms"]
    return ClockState(
        mode=data["mode"],
        delay_ms=data["delay_ms"],
        reserve_ms=_pair(data["reserve_ms"]),
        turn=data["turn"],
        running=data["running"],
        stopped=data["stopped"],
        since_ms=data["since_ms"],
        used_ms=data["used_ms"],
        turn_delay_ms=data["turn_delay_ms"],
        no_delay=_flags(data["no_delay"]),
        pickups=_pair(data["pickups"]),
        at_one_second=_flags(data["at_one_second"]),
        drift_ms=None if drift is None else _pair(drift),
    )


def _breaks_to_dict(breaks: Breaks) -> dict[str, Any]:
    opened = breaks.open
    return {
        "used": list(breaks.used),
        "open": None if opened is None else [opened.start_ms, opened.minutes, list(opened.players)],
        "late_points": list(breaks.late_points),
    }


def _breaks_from_dict(data: dict[str, Any] | None) -> Breaks:
    if data is None:
        return Breaks()
    opened = data["open"]
    return Breaks(
        used=_pair(data["used"]),
        open=None
        if opened is None
        else OpenBreak(int(opened[0]), int(opened[1]), tuple(str(p) for p in opened[2])),
        late_points=_pair(data["late_points"]),
    )
