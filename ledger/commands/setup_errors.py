"""Errors in the starting position: recording a wrong setup, and the director's correction.

USBGF 4.2.4: an error noticed before the player who did not start the game
has completed his second turn is corrected: with the dice rolled so far if
no move was affected, else the game is replayed from the standard position
with new rolls.  Noticed later, the position stands, and a side with fewer
than fifteen checkers may still lose a gammon or backgammon.  Under
``usbgf-2017`` the window is the fifth roll of the game (ABT 4.7).
"""

from __future__ import annotations

from collections.abc import Sequence

from bgledger.commands import decide as _decide
from bgledger.commands.match import Match
from bgledger.commands.ruling_base import (
    InvalidRulingError,
    Ruling,
    RulingRefusedError,
    check_in_force,
    find,
    is_game_action,
    record,
)
from bgledger.commands.windows import valid_roll
from bgledger.errors import ActionRefusedError
from bgledger.events import (
    CheckersPlayed,
    DiceRolled,
    GameStarted,
    MatchEvent,
    OpeningRollMade,
    StartingPositionCorrected,
    StartingPositionRecorded,
    UnplayablePlayRecorded,
)
from bgledger.projections.state.corrected import corrected, in_force
from bgledger.projections.state.fold import Phase
from bgledger.rules.errors import RulesError
from bgledger.rules.judge import judge
from bgledger.rules.notation import Play
from bgledger.rules.position import Position
from bgledger.rules.profiles import Subject, Window

__all__ = ["correct_setup", "record_setup"]

RULE = "USBGF 4.2.4"


def record_setup(match: Match, position_id: str, *, by: str, at: str | None = None) -> None:
    """The checkers of the game being started were set up as ``position_id`` (player a's view).

    Recorded before the game's first play (starting the game if none is in
    progress) and flagged, since it is not the standard position (USBGF 4.2.4).

    :raises InvalidPositionError: for a bad position id.
    :raises ActionRefusedError: after the first play, or for the standard position.
    """
    board = Position.from_id(position_id)
    state = match.state
    before_play = state.phase is Phase.OPENING or (state.phase is Phase.PLAY and state.opening_dice)
    if not before_play and state.phase is not Phase.BETWEEN_GAMES:
        raise ActionRefusedError(
            "a setup is recorded before the game's first play: " + _decide.situation(state), RULE
        )
    if board == Position.start():
        raise ActionRefusedError(f"{position_id} is the standard starting position", RULE)
    if state.phase is Phase.BETWEEN_GAMES:
        match.append(GameStarted, by=by, at=at, number=state.game + 1)
    problems = "; ".join(board.problems()) or "checkers are not where they start"
    match.append(
        StartingPositionRecorded, by=by, at=at, board_a=list(board.mover),
        board_b=list(board.opponent), legal=False,
        reason=f"not the standard starting position: {problems}", rule=RULE,
    )  # fmt: skip


def correct_setup(match: Match, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
    """Correct the wrong setup ``number`` while its window is open (USBGF 4.2.4, ABT 4.7).

    :raises InvalidRulingError: if ``number`` is not a recorded setup.
    :raises RulingRefusedError: once the window has closed: the position stands.
    """
    event = find(history, number)
    if not isinstance(event, StartingPositionRecorded):
        raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a setup")
    check_in_force(history, number)
    game = _game_after(history, number)
    rules = match.profile.corrections_for(Subject.STARTING_POSITION)
    if not rules:
        raise RulingRefusedError(f"{match.profile.name} corrects no setup: it stands", RULE)
    window = rules[0].window
    closing = _closed(window.value, game)
    if closing is not None:
        raise RulingRefusedError(
            f"too late: {closing}; the starting position stands, and a side with fewer than "
            "fifteen checkers may still lose a gammon or backgammon",
            window.rule or RULE,
        )
    affected = _affected(history, number)
    voids = [number]
    if affected:
        voids += [e.originator_version for e in game if is_game_action(e)]
        voids = [n for n in voids if n != number] + [number]
    rule = window.rule or RULE
    record(
        match, history, StartingPositionCorrected, ruling, rule, voids,
        event=number, replayed=affected,
    )  # fmt: skip


def _game_after(history: Sequence[MatchEvent], number: int) -> list[MatchEvent]:
    """The game actions in force of the setup's game, from its start (not the setup itself)."""
    kept = in_force(history)
    start = max(
        (e.originator_version for e in kept if isinstance(e, GameStarted)
         and e.originator_version < number),
        default=0,
    )  # fmt: skip
    return [e for e in kept if e.originator_version > start and e.originator_version != number]


def _closed(window: Window, game: Sequence[MatchEvent]) -> str | None:
    """What closed the setup's window in ``game``, in words; None while it is open."""
    if any(isinstance(e, GameStarted) for e in game):
        return "the game is over"
    if window is Window.BEFORE_FIFTH_ROLL:
        rolls = [
            e for i, e in enumerate(game)
            if (isinstance(e, OpeningRollMade) and e.die_a != e.die_b)
            or (isinstance(e, DiceRolled) and valid_roll(game, i))
        ]  # fmt: skip
        if len(rolls) >= 5:
            return f"the fifth roll of the game was made at event {rolls[4].originator_version}"
        return None
    opening = next((e for e in game if isinstance(e, OpeningRollMade) and e.die_a != e.die_b), None)
    if opening is None:
        return None
    non_starter = "b" if opening.die_a > opening.die_b else "a"
    turns = [
        e for e in game
        if isinstance(e, CheckersPlayed | UnplayablePlayRecorded) and e.player == non_starter
    ]  # fmt: skip
    if len(turns) >= 2:
        done = turns[1].originator_version
        return f"the player who did not start completed his second turn at event {done}"
    return None


def _affected(history: Sequence[MatchEvent], number: int) -> bool:
    """True if a play made on the wrong setup would not be the same play on the right one."""
    without = [e for e in history if e.originator_version != number]
    for event in _game_after(history, number):
        if not isinstance(event, CheckersPlayed):
            if isinstance(event, UnplayablePlayRecorded):
                return True
            continue
        before = corrected(without, at=event.originator_version - 1)
        if before is None or before.dice is None:
            return True
        try:
            verdict = judge(before.position, before.dice, Play.parse(event.play))
        except RulesError:
            return True
        if verdict.legal != event.legal:
            return True
    return False
