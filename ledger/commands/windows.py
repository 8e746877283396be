"""Correction windows: until when a ruling may still put an irregularity right.

A profile's :class:`~bgledger.rules.profiles.CorrectionRule` names its window
(:class:`~bgledger.rules.profiles.Window`); this module finds, in the events in
force after the irregular one, the event that closed it, if any.  Windows are
data (DESIGN principle 5): the same code serves USBGF 4.2.3(a), ABT 4.8 and
the classic laws.
"""

from __future__ import annotations

from collections.abc import Sequence

from bgledger.events import (
    TIME_EVENTS,
    CubeOffered,
    DiceRolled,
    GameStarted,
    MatchEvent,
    MatchWon,
    RollVoided,
)
from bgledger.projections.state.fold import other
from bgledger.rules.profiles import Window

__all__ = ["closed_by", "describe_closing", "valid_roll"]


def valid_roll(events: Sequence[MatchEvent], index: int) -> bool:
    """A roll counts unless the next game action voids it (USBGF 4.1.4).

    Clock, break and penalty events in between (a stop for a fallen die) do not count.
    """
    following = next((e for e in events[index + 1 :] if type(e) not in TIME_EVENTS), None)
    return not isinstance(following, RollVoided)


def closed_by(window: Window, after: Sequence[MatchEvent], offender: str) -> MatchEvent | None:
    """The event in force after the irregular one that closed ``window``; None if open.

    ``offender`` is the player who made the irregular play or action.  A new
    game closes the windows of a game's plays.  :data:`Window.ANY_TIME`, the
    windows that need the director (:data:`Window.DIRECTOR_APPROVAL`) and
    :data:`Window.BEFORE_NEXT_MATCH_STARTS` (the ledger does not see the next
    match) are never closed by an event.
    """
    opponent = other(offender)
    for index, event in enumerate(after):
        if window in _PLAY_WINDOWS and isinstance(event, GameStarted):
            return event
        if isinstance(event, DiceRolled) and valid_roll(after, index):
            if window is Window.BEFORE_OPPONENT_ROLLS and event.player == opponent:
                return event
            if window is Window.BEFORE_OFFENDER_ROLLS_AGAIN and event.player == offender:
                return event
            if window is Window.CONDONED_BY_OPPONENT_ROLL_OR_CUBE and event.player == opponent:
                return event
        if (
            window is Window.CONDONED_BY_OPPONENT_ROLL_OR_CUBE
            and isinstance(event, CubeOffered)
            and event.player == opponent
        ):
            return event
        if window is Window.BEFORE_NEXT_GAME_STARTS and isinstance(event, GameStarted):
            return event
        if window is Window.BEFORE_MATCH_ENDS and isinstance(event, MatchWon):
            return event
    return None


_PLAY_WINDOWS = (
    Window.BEFORE_OPPONENT_ROLLS,
    Window.BEFORE_OFFENDER_ROLLS_AGAIN,
    Window.CONDONED_BY_OPPONENT_ROLL_OR_CUBE,
)


def describe_closing(event: MatchEvent, names: tuple[str, str]) -> str:
    """What closed a window, in words: ``Bob rolled 6-5 at event 57``."""
    number = event.originator_version
    if isinstance(event, DiceRolled):
        who = names[0 if event.player == "a" else 1]
        return f"{who} rolled {event.die1}-{event.die2} at event {number}"
    if isinstance(event, CubeOffered):
        who = names[0 if event.player == "a" else 1]
        return f"{who} turned the cube at event {number}"
    if isinstance(event, GameStarted):
        return f"game {event.number} began at event {number}"
    if isinstance(event, MatchWon):
        return f"the match ended at event {number}"
    return f"event {number} ({type(event).__name__})"
