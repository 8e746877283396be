"""Rulings on doubles that should not have been offered, or at the wrong level.

USBGF 4.4.6.1 (taken: void, the game scores as if the cube had not turned),
4.4.6.2 (passed: nullified, the game resumes at the double), 4.4.9 and 4.4.10
(the same remedies), 4.4.8 (a wrong level stands at the right one).
"""

from __future__ import annotations

from collections.abc import Sequence

from bgledger.commands.decide import cube_problem
from bgledger.commands.match import Match
from bgledger.commands.ruling_base import (
    InvalidRulingError,
    Ruling,
    RulingRefusedError,
    actions_after,
    check_in_force,
    choose,
    find,
    finish_if_won,
    in_force_after,
    is_game_action,
    record,
    rule_name,
)
from bgledger.events import (
    CrawfordPassNullified,
    CubeActionVoided,
    CubeDropped,
    CubeLevelCorrected,
    CubeOffered,
    CubeTaken,
    GameStarted,
    MatchEvent,
    MatchWon,
    PrematureDoubleMade,
)
from bgledger.projections.state.corrected import corrected, in_force
from bgledger.rules.profiles import CorrectionRule, Subject

__all__ = ["correct_cube", "nullify_pass", "void_cube"]


# -- USBGF 4.4.6, 4.4.9, 4.4.10: doubles that should not have been offered ----------------


def _invalid_double(
    match: Match, history: Sequence[MatchEvent], number: int
) -> tuple[CubeOffered | PrematureDoubleMade, MatchEvent]:
    event = find(history, number)
    if not isinstance(event, CubeOffered | PrematureDoubleMade):
        raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a double")
    if event.legal:
        raise RulingRefusedError(
            f"the double at event {number} was valid: nothing to void", "USBGF 4.4.6"
        )
    if event.rule == "USBGF 4.4.8" and _valid_but_for_its_level(match, history, event):
        raise RulingRefusedError(
            f"the double at event {number} is deemed valid, only its level was wrong: "
            "correct the cube's level instead",
            "USBGF 4.4.8",
        )
    check_in_force(history, number)
    answer = next(
        (e for e in in_force_after(history, number) if isinstance(e, CubeTaken | CubeDropped)),
        None,
    )
    if answer is None:
        raise RulingRefusedError(
            f"the double at event {number} has not been answered yet: refuse it instead",
            event.rule or "USBGF 4.4.6",
        )
    return event, answer


def _valid_but_for_its_level(
    match: Match, history: Sequence[MatchEvent], double: CubeOffered | PrematureDoubleMade
) -> bool:
    """True if ``double`` broke no rule but USBGF 4.4.8's (it is flagged for its first fault)."""
    before = corrected(history, at=double.originator_version - 1)
    assert before is not None
    return cube_problem(before, match.profile, double.player) is None


def _won_by_the_game(after: Sequence[MatchEvent]) -> MatchWon | None:
    """The match won by the game of an irregular double, if that game ended the match.

    The later windows of USBGF 4.4.6.1 and 4.4.6.2 (before either player's
    next match) are for a match that game ended; a match a later game ended
    closed the window of 4.4.6.1 (before the end of the match) and 4.4.6.2
    (before the next game starts).
    """
    for event in after:
        if isinstance(event, GameStarted):
            return None
        if isinstance(event, MatchWon):
            return event
    return None


def _cube_rule(offered: CubeOffered | PrematureDoubleMade, chosen: CorrectionRule) -> str:
    """The rule an invalid double is corrected under.

    A Crawford-game double (``USBGF 4.4.6``) is corrected under its own
    subsection (4.4.6.1 taken, 4.4.6.2 passed); a dead cube (4.4.9) or an
    automatic double (4.4.10) under the rule it broke, which deals with it
    "in the same manner".
    """
    remedy = rule_name(chosen)
    if offered.rule is None or remedy.startswith(f"{offered.rule}."):
        return remedy
    return offered.rule


def void_cube(match: Match, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
    """Void the invalid double ``number`` that was taken: the game scores as if it never was.

    Before the match ends (USBGF 4.4.6.1); after it only if that game ended
    the match, before either player's next match (which the ledger cannot
    see: the ruler answers for it).  A match the double had won resumes.

    :raises RulingRefusedError: for a valid or passed double, or too late.
    """
    offered, answer = _invalid_double(match, history, number)
    if not isinstance(answer, CubeTaken):
        raise RulingRefusedError(
            f"the double at event {number} was passed: nullify the pass instead", "USBGF 4.4.6.2"
        )
    after = in_force_after(history, number)
    won = _won_by_the_game(after)
    subject = Subject.INVALID_DOUBLE_TAKEN_MATCH_ENDED if won else Subject.INVALID_DOUBLE_TAKEN
    chosen = choose(match, history, [subject], number, offered.player, ruling)
    voids = [number, answer.originator_version]
    played = [e for e in after if is_game_action(e)]  # a note or a hit may come first
    if won is not None and won.originator_version != played[-1].originator_version:
        raise RulingRefusedError("the match went on after it was won", "USBGF 4.4.6.1")
    if won is not None:
        voids.append(won.originator_version)
    rule = _cube_rule(offered, chosen)
    record(match, history, CubeActionVoided, ruling, rule, voids, event=number)
    if won is not None:
        finish_if_won(match, ruling, rule)


def nullify_pass(match: Match, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
    """Nullify the pass of the invalid double ``number``: the game resumes at the double.

    The leader's pass, before the next game starts; the trailer's, which
    ended the match, before either player's next match (USBGF 4.4.6.2).
    Doubts go against the doubler.

    :raises RulingRefusedError: for a valid or taken double, or too late.
    """
    offered, answer = _invalid_double(match, history, number)
    if not isinstance(answer, CubeDropped):
        raise RulingRefusedError(
            f"the double at event {number} was taken: void the double instead", "USBGF 4.4.6.1"
        )
    after = in_force_after(history, number)
    ended = _won_by_the_game(after) is not None
    subject = Subject.INVALID_DOUBLE_PASSED_MATCH_ENDED if ended else Subject.INVALID_DOUBLE_PASSED
    chosen = choose(match, history, [subject], number, offered.player, ruling)
    voids = [number, *actions_after(history, number)]
    rule = _cube_rule(offered, chosen)
    record(match, history, CrawfordPassNullified, ruling, rule, voids, event=number)


def correct_cube(match: Match, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
    """The double ``number`` to a wrong level stands at the right level (USBGF 4.4.8).

    :raises RulingRefusedError: if the double was at the right level, or the
        profile does not adjust wrong levels.
    """
    event = find(history, number)
    if not isinstance(event, CubeOffered | PrematureDoubleMade):
        raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a double")
    check_in_force(history, number)
    before = corrected(history, at=number - 1)
    assert before is not None
    right = before.next_cube
    rules = match.profile.cube.wrong_level_adjusted
    if not rules.value:
        raise RulingRefusedError(f"{match.profile.name} does not adjust cube levels", "USBGF 4.4.8")
    if event.value == right:
        raise RulingRefusedError(
            f"the double at event {number} was to {right}, the right level", "USBGF 4.4.8"
        )
    if any(isinstance(e, CubeLevelCorrected) and e.event == number for e in in_force(history)):
        raise RulingRefusedError(
            f"the double at event {number} has been corrected to {right} already", "USBGF 4.4.8"
        )
    # The game's points follow the corrected cube; a match its game ended is won again
    # only if the corrected score still wins it ("any resulting scoring error will be
    # adjusted").
    won = _won_by_the_game(in_force_after(history, number))
    voids = [] if won is None else [won.originator_version]
    rule = rules.rule or "USBGF 4.4.8"
    record(match, history, CubeLevelCorrected, ruling, rule, voids, event=number, value=right)
    if won is not None:
        finish_if_won(match, ruling, rule)
