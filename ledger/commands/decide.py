"""The checks the :class:`~bgledger.commands.match.Match` commands make before recording.

Each check reads the folded :class:`~bgledger.projections.state.fold.MatchState` and the
match's rulebook profile and either passes or says what is wrong and which
rule says so.  Nothing here records anything.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from bgledger.errors import (
    ActionRefusedError,
    InvalidTimeError,
    InvalidVoidReasonError,
    MatchOverError,
    OutOfTurnError,
)
from bgledger.projections.state.fold import Crawford, MatchState, Phase, other
from bgledger.projections.state.situation import premature_situation, situation
from bgledger.rules.judge import Judgement
from bgledger.rules.legal import legal_plays
from bgledger.rules.profiles import Profile
from bgledger.rules.results import GameResult

__all__ = [
    "BASICS",
    "Problem",
    "cube_problem",
    "flags",
    "match_winner",
    "parse_level",
    "premature_situation",
    "refuse_unless",
    "require_phase",
    "resignation_problem",
    "same_checker",
    "situation",
    "stamp",
    "void_reason_rule",
]

BASICS = "USBGF Appendix B"
"""The standard rules of play, which USBGF 4.2.4 makes part of the rules."""


_PENDING_RULE = {
    Phase.DOUBLED: "USBGF 4.4.4",
    Phase.RESIGNED: "USBGF 4.5",
    Phase.PREMATURE_ROLL: "USBGF 4.1.7.1",
    Phase.BETWEEN_GAMES: BASICS,
    Phase.OPENING: BASICS,
}


Problem = tuple[str, str]
"""What the rules forbid, and the rule that forbids it."""


def flags(problem: Problem | None) -> dict[str, Any]:
    """The ``legal``/``reason``/``rule`` fields of an event recorded despite ``problem``."""
    if problem is None:
        return {"legal": True, "reason": None, "rule": None}
    return {"legal": False, "reason": problem[0], "rule": problem[1]}


def refuse_unless(
    as_played: bool, problem: Problem | None, error: type[ActionRefusedError], what: str
) -> None:
    """Raise ``error`` for ``problem`` unless the action is recorded ``as_played``."""
    if problem is not None and not as_played:
        raise error(
            f"{what}: {problem[0]}; record it with --as-played if it happened at the board",
            problem[1],
        )


def void_reason_rule(profile: Profile, reason: str) -> str:
    """The rule that makes a roll invalid for ``reason`` (a code of the profile).

    :raises InvalidVoidReasonError: for a reason the profile does not know.
    """
    known = profile.rolls.void_reason(reason)
    if known is None:
        codes = ", ".join(r.code for r in profile.rolls.void_reasons) or "none: the server rolls"
        raise InvalidVoidReasonError(
            f"{reason!r} is not a reason to void a roll under {profile.name} (USBGF 4.1.4): {codes}"
        )
    return known.cite.rule or ""


def same_checker(state: MatchState, verdict: Judgement) -> Judgement:
    """``verdict``, made illegal if it ignores CLASSIC 10 after a reverted play.

    "If a man wrongly moved can be moved correctly, the player in error is
    obliged to move that man": when some legal play moves a man from a point
    the wrongly moved men left (``state.obliged``), the play must too.
    """
    if not verdict.legal or not state.obliged or state.dice is None:
        return verdict
    obliged = set(state.obliged)
    options = legal_plays(state.position, state.dice)
    possible = [lp for lp in options if obliged & {step[0] for step in lp.steps}]
    moved = {move.source for move in verdict.play.moves}
    if not possible or obliged & moved:
        return verdict
    points = ", ".join(str(p) for p in sorted(obliged))
    reason = f"the man wrongly moved (from {points}) can be moved correctly and must be"
    return replace(verdict, legal=False, reason=reason, rule="CLASSIC 10")


def require_phase(state: MatchState, action: str, rule: str, *phases: Phase) -> None:
    """Refuse ``action`` unless the match is in one of ``phases``.

    :raises MatchOverError: if the match is over (ABT 4.9).
    :raises OutOfTurnError: during a break (USBGF 2.2.2), otherwise citing
        ``rule``, or the rule of what is pending (USBGF 4.4.4 for a double,
        USBGF 4.5 for a concession).
    """
    if state.breaks.open is not None and state.phase is not Phase.OVER:
        raise OutOfTurnError(
            f"cannot {action}: the players are on a break; record its end first (break end)",
            "USBGF 2.2.2",
        )
    if state.phase in phases:
        return
    if state.phase is Phase.OVER:
        raise MatchOverError(f"cannot {action}: {situation(state)}", "ABT 4.9")
    rule = _PENDING_RULE.get(state.phase, rule)
    raise OutOfTurnError(f"cannot {action}: {situation(state)}", rule)


def match_winner(state: MatchState) -> str | None:
    """Who has won the match at ``state``'s score, if anyone (ABT 4.9, USBGF 4.8.5(b)-(d)).

    One player at or past the length wins; both past it, the higher score
    wins, and a tie there is decided by the next game.
    """
    a, b = state.score
    if max(a, b) < state.length or a == b:
        return None
    return "a" if a > b else "b"


def cube_problem(
    state: MatchState, profile: Profile, player: str, value: int | None = None
) -> Problem | None:
    """Why ``player`` may not double (to ``value``) now, with the rule; ``None`` if he may.

    The Crawford game (USBGF 4.4.6), the opponent's cube (USBGF 4.4.2), a
    dead cube (USBGF 4.4.9), the cube out of play after a shortened match
    (USBGF 4.8.5(d)) and a wrong level (USBGF 4.4.8), as the profile has them.
    """
    rules = profile.cube
    if min(state.score) >= state.length:
        return "the cube is out of play: the next game decides the match", "USBGF 4.8.5(d)"
    if value is not None and value != state.next_cube:
        return f"the cube goes from {state.cube} to {state.next_cube}, not {value}", "USBGF 4.4.8"
    if state.crawford is Crawford.CRAWFORD and state.crawford_rule:
        return "the cube is out of play in the Crawford game", rules.crawford.rule or BASICS
    if state.cube_owner == other(player):
        owner = state.name(state.cube_owner)
        return f"{owner} owns the cube at {state.cube}: only the owner redoubles", "USBGF 4.4.2"
    score = state.score[0 if player == "a" else 1]
    if rules.dead_cube_double_void.value and 0 < state.length <= score + state.cube:
        return (
            f"the cube is dead: {state.name(player)}, with {score} of {state.length}, "
            f"wins the match by winning this game at {state.cube}",
            rules.dead_cube_double_void.rule or BASICS,
        )
    return None


def resignation_problem(state: MatchState, profile: Profile, level: str) -> Problem | None:
    """Why a concession of ``level`` may not be offered now, with the rule; ``None`` if it may."""
    rules = profile.resignations
    if level not in rules.levels.value:
        return f"profile {profile.name} has no {level} concession", rules.levels.rule or BASICS
    if rules.non_contact_only.value and state.position.is_contact():
        return (
            "a game may be conceded only in a non-contact position",
            rules.non_contact_only.rule or BASICS,
        )
    return None


def parse_level(text: str) -> str:
    """``'single'``, ``'gammon'`` or ``'backgammon'``.

    :raises InvalidResultError: for anything else.
    """
    return str(GameResult.parse(text))


def stamp(at: str | None, previous: str | None) -> str:
    """``at`` as an ISO 8601 time with a UTC offset (now if ``None``).

    A time without an offset is the machine's local time.

    :raises InvalidTimeError: if ``at`` is not ISO 8601, or is earlier than
        ``previous`` (the match's last event): events are kept in the order
        they happened.
    """
    if at is None:
        when = datetime.now(UTC)
    else:
        try:
            when = datetime.fromisoformat(at.strip())
            if when.tzinfo is None:
                when = when.astimezone()
        except (ValueError, OverflowError, OSError):
            raise InvalidTimeError(
                f"--at {at!r} is not an ISO 8601 time (e.g. 2026-11-21T14:05:00+01:00)"
            ) from None
    if at is not None and previous and when < datetime.fromisoformat(previous):
        raise InvalidTimeError(
            f"--at {at!r} is before the match's last event, at {previous}: "
            "events are recorded in the order they happened"
        )
    return when.isoformat()
