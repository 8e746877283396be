"""The director's clock sanctions and corrections.

- :func:`early_pickup`: the dice picked up before the opponent hit the clock.
  Under simple delay (USBGF 4.1.7.2) a warning first, then thirty seconds
  off the reserve for each violation, down to one second, and the next
  violation forfeits the match on time; under the 2007 clock rules
  (CLOCK 4.1) the offender forfeits the delay of his next turn.
- :func:`missed_hit`: a player never hit the clock after his turn (USBGF
  4.1.8.1): every purported roll and play since is nullified (the revert of
  :mod:`bgledger.commands.rulings`) and the reserve the clock took from him since his
  turn really ended is given back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bgledger.commands import clock
from bgledger.commands.ruling_base import Ruling, RulingRefusedError, actions_after, choose, record
from bgledger.errors import ClockRefusedError, InvalidClockError
from bgledger.events import (
    CheckersPlayed,
    ClockHit,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    MatchEvent,
    PlaysReverted,
    PrematureRollMade,
    ReserveTimePenalized,
    ReserveTimeRestored,
    TimeExpired,
    UnplayablePlayRecorded,
)
from bgledger.projections.state.clock import at_ms, figure
from bgledger.projections.state.corrected import in_force
from bgledger.projections.state.fold import fold, other
from bgledger.rules.profiles import EarlyPickup, Subject

if TYPE_CHECKING:
    from bgledger.commands.match import Match

__all__ = ["early_pickup", "missed_hit"]

_ENDS_TURN = (CheckersPlayed, UnplayablePlayRecorded, CubeOffered, CubeTaken)
"""The actions after which a player ends his turn by hitting the clock (USBGF 4.1.8.1)."""
_OPPONENT_ACTIONS = (
    DiceRolled,
    PrematureRollMade,
    CheckersPlayed,
    UnplayablePlayRecorded,
    CubeOffered,
)
"""The opponent's "purported rolls and moves" (and doubles) that 4.1.8.1 nullifies."""


def early_pickup(match: Match, player: str, ruling: Ruling) -> ReserveTimePenalized | None:
    """``player`` picked up the dice before his opponent ended his turn; returns the sanction.

    Returns None when the violation forfeits the match (USBGF 4.1.7.2: a
    violation after being reduced to one second); :class:`TimeExpired` and
    ``MatchWon`` are recorded then.

    :raises InvalidClockError: for a player other than ``a`` or ``b``.
    :raises ClockRefusedError: without a clock, or if it is ``player``'s own time running.
    """
    state = match.state
    timer = clock.timer_of(state)
    if player not in ("a", "b"):
        raise InvalidClockError(f"player {player!r}: 'a' or 'b'")
    rules = clock.clock_rules(match, timer.mode)
    sanction, rule = rules.early_pickup.value, rules.early_pickup.rule or "USBGF 4.1.7.2"
    if timer.turn == player:
        raise ClockRefusedError(
            f"it is {state.name(player)}'s own turn on the clock: the dice are his to pick up", rule
        )
    when, now = clock.moment(match, ruling.at)
    common = {"rule": rule, "ruled_by": ruling.ruled_by, "reason": ruling.reason.strip()}
    index = 0 if player == "a" else 1
    if sanction is EarlyPickup.DELAY_FORFEITED:
        kind, penalty = "delay-forfeited", 0
    elif timer.pickups[index] == 0:
        kind, penalty = "warning", 0
    elif timer.at_one_second[index]:
        _forfeit_on_time(match, player, rule, ruling.by, when)
        return None
    else:
        penalty = (rules.early_pickup_penalty_seconds.value or 30) * 1000
        kind = "reserve" if figure(timer, player, now) >= penalty else "to-one-second"
    return match.append(
        ReserveTimePenalized, by=ruling.by, at=when, player=player, kind=kind,
        penalty_ms=penalty, **common,
    )  # fmt: skip


def _forfeit_on_time(match: Match, player: str, rule: str, by: str, when: str) -> None:
    """USBGF 4.1.7.2: a violation after the reduction to one second forfeits the match."""
    assert match.state.timer is not None
    left = clock.figures(match.state.timer, at_ms(when))
    with match.atomic():
        match.append(
            TimeExpired, by=by, at=when, player=player, outcome="forfeit", rule=rule,
            reserve_a_ms=left[0], reserve_b_ms=left[1],
        )  # fmt: skip
        clock.forfeit(match, other(player), by=by, at=when)


def missed_hit(
    match: Match, history: Sequence[MatchEvent], ruling: Ruling
) -> tuple[PlaysReverted, ReserveTimeRestored | None]:
    """The player whose time runs never ended his turn (USBGF 4.1.8.1).

    His opponent's rolls and plays since are nullified (a
    :class:`PlaysReverted` citing 4.1.8.1) and the reserve the clock took
    from him since his last play, double or take is restored; nothing is
    recorded for the reserve if his clock took nothing (it was stopped, or
    the delay covered it).  If the opponent only took a double on his time,
    nothing is nullified (a take is neither a roll nor a move): the ruling
    voids nothing, and the time since the double is restored.

    :raises ClockRefusedError: without a clock or with nobody's time running.
    :raises RulingRefusedError: if there is nothing to nullify and nothing to restore.
    """
    state = match.state
    timer = clock.timer_of(state)
    late = timer.turn
    if late is None:
        raise ClockRefusedError("nobody's time is running", "USBGF 4.1.8.1")
    ended, nullified = _turn_end(history, late)
    if ended is None or (not nullified and _lost(history, ended, late, match) == 0):
        raise RulingRefusedError(
            f"{state.name(other(late))} has not rolled or moved on {state.name(late)}'s "
            f"time: {state.name(late)} just hits the clock",
            "USBGF 4.1.8.1",
        )
    first = nullified[0] if nullified else ended.originator_version
    chosen = choose(match, history, [Subject.CLOCK_NOT_ACTIVATED], first, late, ruling)
    rule = chosen.window.rule or "USBGF 4.1.8.1"
    voids = [first, *actions_after(history, first)] if nullified else []
    with match.atomic():  # the nullification and the restore, or nothing
        reverted = record(match, history, PlaysReverted, ruling, rule, voids,
                          event=first, same_checker=[])  # fmt: skip
        assert isinstance(reverted, PlaysReverted)
        return reverted, _restore(match, history, ended, late, rule, ruling)


def _restore(
    match: Match, history: Sequence[MatchEvent], ended: MatchEvent, late: str, rule: str,
    ruling: Ruling,
) -> ReserveTimeRestored | None:  # fmt: skip
    """Give ``late`` back what his clock took since ``ended`` (None if it took nothing)."""
    lost = _lost(history, ended, late, match)
    if lost == 0:
        return None
    return match.append(
        ReserveTimeRestored, by=ruling.by, at=match.state.last_at, player=late,
        restored_ms=lost, rule=rule, ruled_by=ruling.ruled_by, reason=ruling.reason.strip(),
    )  # fmt: skip


def _turn_end(history: Sequence[MatchEvent], late: str) -> tuple[MatchEvent | None, list[int]]:
    """``late``'s turn-ending action since his time started, and the opponent's rolls and
    moves after it.

    Only game actions in force count (a voided roll or play was never made).
    """
    events = in_force(history)
    started = max(
        (e.originator_version for e in events if isinstance(e, ClockHit) and e.player != late),
        default=0,
    )
    ended: MatchEvent | None = None
    nullified: list[int] = []
    for event in (e for e in events if e.originator_version > started):
        actor = getattr(event, "player", None)
        if ended is None and isinstance(event, _ENDS_TURN) and actor == late:
            ended = event
        elif ended is not None and actor == other(late) and type(event) in _OPPONENT_ACTIONS:
            nullified.append(event.originator_version)
    return ended, nullified


def _figure_at(history: Sequence[MatchEvent], event: MatchEvent, player: str) -> int:
    """``player``'s reserve right after ``event``, at its time."""
    state = fold(history[: event.originator_version])
    assert state is not None and state.timer is not None
    return figure(state.timer, player, at_ms(event.at))


def _lost(history: Sequence[MatchEvent], ended: MatchEvent, late: str, match: Match) -> int:
    """The reserve ``late``'s clock took from his turn's end (``ended``) until now."""
    then = _figure_at(history, ended, late)
    timer = match.state.timer
    assert timer is not None
    return max(0, then - figure(timer, late, at_ms(match.state.last_at)))
