"""Fitting the moves of a play to the dice, for the judge's explanations.

Each written move (``13/8``, or a consolidated ``13/6``) must be made of one
or more dice whose landing points are open; a bear-off may use a larger die
only from the highest occupied point.  :func:`fit_dice` finds whether the moves
fit the roll and how many dice they use, or says in words why they cannot.
"""

from __future__ import annotations

from collections.abc import Iterator

from bgledger.rules.notation import Move
from bgledger.rules.position import Position


def fit_dice(position: Position, order: list[Move], dice: list[int], roll: str) -> int | str:
    """How many dice ``order`` uses, or why it does not fit ``dice`` (``roll`` names them)."""
    used = _fit(list(position.mover), list(position.opponent), order, tuple(dice))
    if used is not None:
        return used
    if len(order) > len(dice) or sum(m.distance for m in order) > sum(dice):
        return f"moves more than {roll} allows"
    me, opp = list(position.mover), list(position.opponent)
    for move in order:
        if not any(True for _ in _ways(me, opp, move, tuple(dice))):
            return _why_not(me, opp, move, dice, roll)
        _advance(me, move)
    return f"{' '.join(map(str, order))} cannot all be played with {roll}"


def _why_not(me: list[int], opp: list[int], move: Move, dice: list[int], roll: str) -> str:
    if move.destination == 0 and move.distance < max(dice):
        higher = [p for p in range(move.source + 1, 26) if me[p]]
        if higher:
            return (
                f"{move} bears off from {move.source} with a higher die while a checker "
                f"is on {max(higher)}; {roll} cannot be played that way"
            )
    if not _sums_to(move, dice):
        return f"{move} does not match the roll {roll}"
    blocked = [p for p in range(move.destination + 1, move.source) if opp[25 - p] >= 2]
    if blocked:
        return (
            f"{move} cannot be played with {roll}: "
            f"{', '.join(map(str, blocked))} held by the opponent"
        )
    return f"{move} does not match the roll {roll}"


def _sums_to(move: Move, dice: list[int]) -> bool:
    """True if some of the dice add up to the move's distance (or more, bearing off)."""
    totals = {0}
    for die in dice:
        totals |= {t + die for t in totals}
    if move.destination == 0:
        return any(t >= move.distance for t in totals if t)
    return move.distance in totals


def _advance(me: list[int], move: Move) -> None:
    me[move.source] -= 1
    me[move.destination] += 1


def _fit(me: list[int], opp: list[int], order: list[Move], dice: tuple[int, ...]) -> int | None:
    if not order:
        return 0
    move, rest = order[0], order[1:]
    for used in _ways(me, opp, move, dice):
        left = list(dice)
        for die in used:
            left.remove(die)
        after = me.copy()
        _advance(after, move)
        more = _fit(after, opp, rest, tuple(left))
        if more is not None:
            return len(used) + more
    return None


def _ways(
    me: list[int], opp: list[int], move: Move, dice: tuple[int, ...]
) -> Iterator[tuple[int, ...]]:
    """Sequences of dice that carry one checker along ``move`` through open points."""
    yield from _paths(me, opp, move.source, move.destination, dice, (), move.source)


def _paths(
    me: list[int],
    opp: list[int],
    at: int,
    target: int,
    dice: tuple[int, ...],
    used: tuple[int, ...],
    source: int,
) -> Iterator[tuple[int, ...]]:
    for index, die in enumerate(dice):
        if die in dice[:index]:
            continue
        rest = dice[:index] + dice[index + 1 :]
        land = at - die
        if land == target or (target == 0 and land < 0 and _highest(me, at, source)):
            yield (*used, die)
        elif land > target and land > 0 and opp[25 - land] < 2:
            yield from _paths(me, opp, land, target, rest, (*used, die), source)


def _highest(me: list[int], at: int, source: int) -> bool:
    """True if no other mover checker is above ``at``, where the checker from ``source`` is."""
    above = sum(me[at + 1 :]) - (1 if source > at else 0)
    return above == 0
