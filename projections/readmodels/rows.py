"""The rows of the tournament-wide read models, worked out from folded states and events.

Pure functions, no database: :mod:`bgledger.projections.readmodels.tracking` stores what they
return.  The score, the status and the winner come from the one fold
(:func:`bgledger.projections.state.fold.fold`) through
:class:`~bgledger.projections.state.fold.MatchState`;
nothing here counts points itself.

Standings, per event name and player, over the matches of that event
(``event`` of the match's start; an empty name for matches with none).  Names are
compared as people see them, never rewritten in the events: a player's name NFC-composed
with its spaces collapsed (:func:`~bgledger.rules.text.name_key`: "Zoë" typed with a
combining diaeresis is the same player), an event's NFC-composed and trimmed:

- ``played``: finished matches (the match has a winner) the player was in;
- ``won`` and ``lost``: of those, the ones the player won and lost;
- ``in_progress``: the player's matches without a winner yet (not begun,
  being played, or abandoned);
- ``points_for`` and ``points_against``: the final match score of the
  player and of the opponent, summed over the finished matches.

Example::

    >>> standings_rows([
    ...     {"event": "Open", "player_a": "Ann", "player_b": "Bob",
    ...      "score_a": 5, "score_b": 2, "winner": "a"},
    ... ])[0]["won"]
    1
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields
from typing import Any

from bgledger.events import MatchEvent, RulingMade, RulingOverturned
from bgledger.projections.state.codec import state_to_dict
from bgledger.projections.state.fold import Crawford, MatchState
from bgledger.projections.views.summary import state_json
from bgledger.rules.text import as_entered, name_key

__all__ = [
    "is_ruling",
    "match_row",
    "ranked",
    "ruling_kinds",
    "ruling_row",
    "standing",
    "standings_rows",
    "status_of",
    "status_text",
]

_COMMON = frozenset(
    {"originator_id", "originator_version", "timestamp", "at", "recorded_by", "chain"}
)
"""Fields every event has (and the hash chain): not details."""
_COLUMNS = frozenset({"rule", "ruled_by", "reason", "agreed"})


def status_of(state: MatchState) -> str:
    """``won``, ``not-begun`` or ``in-progress``."""
    if state.winner:
        return "won"
    return "not-begun" if state.game == 0 else "in-progress"


def match_row(
    state: MatchState, stream: str, version: int, summary: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The match index row of ``state`` (the match after event ``version``).

    ``state`` holds the folded state (:mod:`bgledger.projections.state.codec` form), so the
    next catch-up folds on from it; ``summary`` is ``show --json``'s document
    (:func:`~bgledger.projections.views.summary.state_json`, given if worked out already).
    """
    if summary is None:
        summary = state_json(state)
    return {
        "match_id": state.match_id,
        "stream": stream,
        "event": state.event,
        "round": state.round,
        "player_a": state.players[0],
        "player_b": state.players[1],
        "length": state.length,
        "score_a": state.score[0],
        "score_b": state.score[1],
        "game": state.game,
        "crawford": state.crawford.value,
        "status": status_of(state),
        "winner": state.winner,
        "last_at": state.last_at,
        "events": state.events,
        "version": version,
        "state": json.dumps(state_to_dict(state), separators=(",", ":")),
        "summary": json.dumps(summary, separators=(",", ":"), ensure_ascii=False),
    }


def status_text(row: Mapping[str, Any]) -> str:
    """``list``'s status words for a match index row: won by NAME, not begun, game N."""
    if row["winner"]:
        return f"won by {row['player_a'] if row['winner'] == 'a' else row['player_b']}"
    if row["game"] == 0:
        return "not begun"
    crawford = " (Crawford)" if row["crawford"] == Crawford.CRAWFORD.value else ""
    return f"game {row['game']}{crawford}"


def is_ruling(event: MatchEvent) -> bool:
    """A director's (or the players') ruling: a :class:`RulingMade` or a time or penalty ruling.

    The time and penalty rulings (``ClockSet``, ``ReserveTimePenalized``,
    ``ReserveTimeRestored``, ``PenaltyPointsAssessed``) carry ``rule``,
    ``ruled_by`` and ``reason`` as a :class:`RulingMade` does.
    """
    if isinstance(event, RulingMade):
        return True
    return isinstance(getattr(event, "ruled_by", None), str) and hasattr(event, "rule")


def ruling_kinds() -> list[type[MatchEvent]]:
    """Every event class whose events are rulings (:func:`is_ruling`), :class:`RulingMade` first."""
    return [
        kind
        for kind in _subclasses(MatchEvent)
        if issubclass(kind, RulingMade) or {"rule", "ruled_by"} <= {f.name for f in fields(kind)}
    ]


def _subclasses(cls: type[MatchEvent]) -> Iterator[type[MatchEvent]]:
    yield cls
    for sub in cls.__subclasses__():
        yield from _subclasses(sub)


def ruling_row(
    event: MatchEvent, match_id: str, event_name: str, notification: int
) -> dict[str, Any]:
    """The rulings log row of ``event``, a ruling (:func:`is_ruling`) in match ``match_id``.

    ``details`` holds the ruling's own fields (what it voids or restores, the
    player penalised, the points or time) as JSON; ``voided_by`` starts empty:
    the ruling is in force until a later ruling overturns it.
    """
    fields = vars(event)
    details = {
        key: value
        for key, value in sorted(fields.items())
        if key not in _COMMON and key not in _COLUMNS
    }
    agreed = fields.get("agreed")
    return {
        "match_id": match_id,
        "number": event.originator_version,
        "notification_id": notification,
        "event": event_name,
        "kind": type(event).__name__,
        "rule": str(fields.get("rule") or ""),
        "ruled_by": str(fields.get("ruled_by") or ""),
        "reason": str(fields.get("reason") or ""),
        "at": event.at,
        "recorded_by": event.recorded_by,
        "agreed": agreed if isinstance(agreed, bool) else None,
        "overturns": event.ruling if isinstance(event, RulingOverturned) else None,
        "details": json.dumps(details, separators=(",", ":"), ensure_ascii=False, default=str),
        "voided_by": None,
    }


def standing(state: MatchState) -> tuple[Any, ...]:
    """What the standings count of a match (:func:`standings_rows` reads its row's event,
    players, winner, and score once won): equal before and after a line, they stand."""
    score = state.score if state.winner else None
    return (state.event, state.players, state.winner, score)


def standings_rows(matches: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The standings rows (see the module's docstring) of ``matches``, match index rows."""
    table: dict[tuple[str, str], dict[str, Any]] = {}
    for match in matches:
        for side, player, mine, theirs in (
            ("a", match["player_a"], match["score_a"], match["score_b"]),
            ("b", match["player_b"], match["score_b"], match["score_a"]),
        ):
            key = (as_entered(match["event"]), name_key(player))
            row = table.setdefault(key, _empty_standing(*key))
            _count(row, match["winner"], side, mine, theirs)
    return [table[key] for key in sorted(table)]


def ranked(standings: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``standings`` rows (:func:`standings_rows`) in the order a wall shows them: the most
    matches won first, then the fewest lost, then the most points for less against, then
    by name; each with its ``rank`` (players equal on all three share one).

    >>> [(r["rank"], r["player"]) for r in ranked([
    ...     {"player": "Bob", "won": 1, "lost": 0, "points_for": 5, "points_against": 3},
    ...     {"player": "Ann", "won": 1, "lost": 0, "points_for": 5, "points_against": 3},
    ...     {"player": "Cy", "won": 2, "lost": 0, "points_for": 9, "points_against": 1},
    ... ])]
    [(1, 'Cy'), (2, 'Ann'), (2, 'Bob')]
    """

    def merit(row: Mapping[str, Any]) -> tuple[int, int, int]:
        return (-row["won"], row["lost"], row["points_against"] - row["points_for"])

    ordered = sorted(standings, key=lambda row: (merit(row), name_key(row["player"])))
    result: list[dict[str, Any]] = []
    for place, row in enumerate(ordered, start=1):
        tied = result and merit(result[-1]) == merit(row)
        result.append({**row, "rank": result[-1]["rank"] if tied else place})
    return result


def _empty_standing(event: str, player: str) -> dict[str, Any]:
    return {
        "event": event,
        "player": player,
        "played": 0,
        "won": 0,
        "lost": 0,
        "in_progress": 0,
        "points_for": 0,
        "points_against": 0,
    }


def _count(row: dict[str, Any], winner: str | None, side: str, mine: int, theirs: int) -> None:
    if not winner:
        row["in_progress"] += 1
        return
    row["played"] += 1
    row["won" if winner == side else "lost"] += 1
    row["points_for"] += mine
    row["points_against"] += theirs
