"""Rulings: the director's (or a committee's) corrections, decided then recorded.

Each function checks a ruling against the match's full history and its
profile's correction rules, then records one compensating event
(:class:`~ledger.events.RulingMade`) that names the events it voids, the
rule, who ruled and why.  Nothing recorded is changed or deleted.  A ruling
outside its window is refused with the rule cited
(:class:`RulingRefusedError`).

The remedies, from the rule text:

- :func:`revert` (USBGF 4.2.3(c)-(f)): the illegal play and everything after
  it are void; checkers, dice, cube and score are back where they were and
  the same player plays the same dice again.
- :func:`void_cube` (4.4.6.1, 4.4.9, 4.4.10): an invalid double that was
  taken is void with its take; the game scores as if the cube had not turned
  (a match it had ended resumes).
- :func:`nullify_pass` (4.4.6.2): an invalid double that was passed is void
  with everything after it; the game resumes at the double.
- :func:`correct_cube` (4.4.8), :func:`correct_length` (4.8.4, 4.8.5),
  :func:`correct_score` (4.7), :func:`note`, and :func:`overturn` (5.2): an
  appeal committee reverses a ruling, and what it voided is back in force.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eventsourcing.domain import DomainEvent

from ledger.errors import ActionRefusedError, RulesError
from ledger.events import (
    CheckersPlayed,
    CrawfordPassNullified,
    CubeActionVoided,
    CubeDropped,
    CubeLevelCorrected,
    CubeOffered,
    CubeTaken,
    MatchEvent,
    MatchLengthCorrected,
    MatchWon,
    PlaysReverted,
    RulingMade,
    RulingNoted,
    RulingOverturned,
    ScoreCorrected,
    UnplayablePlayRecorded,
)
from ledger.match import Match
from ledger.rules.profiles import CorrectionRule, Subject, Window
from ledger.windows import closed_by, describe_closing
from projections.codec import state_to_dict
from projections.effective import corrected, in_force, voided_by

__all__ = [
    "RULERS",
    "InvalidRulingError",
    "Ruling",
    "RulingRefusedError",
    "correct_cube",
    "correct_length",
    "correct_score",
    "note",
    "nullify_pass",
    "overturn",
    "revert",
    "void_cube",
]

RULERS = ("director", "committee", "players")


class RulingRefusedError(ActionRefusedError):
    """A ruling outside its window, or one the rules do not provide for; the rule is cited."""


class InvalidRulingError(RulesError):
    """A ruling that names no event it could apply to, or an unknown ruler."""


@dataclass(frozen=True, slots=True)
class Ruling:
    """Who rules, under which rule (``None``: the first that applies) and why.

    ``agreed`` records the players' agreement (needed by USBGF 4.2.3(f)).
    """

    ruled_by: str
    reason: str
    rule: str | None = None
    agreed: bool = False
    by: str = "director"
    at: str | None = None

    def __post_init__(self) -> None:
        if self.ruled_by not in RULERS:
            raise InvalidRulingError(f"--ruled-by {self.ruled_by!r}: one of {', '.join(RULERS)}")
        if not self.reason.strip():
            raise InvalidRulingError("a ruling needs a reason (--reason)")


# -- the one way every ruling is recorded ------------------------------------------


def _record(
    match: Match,
    history: Sequence[MatchEvent],
    kind: type[RulingMade],
    given: Ruling,
    rule: str,
    voids: Sequence[int] = (),
    restores: Sequence[int] = (),
    **fields: Any,
) -> RulingMade:
    """Record ``kind`` with the corrected state it leads to, worked out from the events in force."""
    common: dict[str, Any] = {
        "rule": rule,
        "ruled_by": given.ruled_by,
        "reason": given.reason.strip(),
        "agreed": given.agreed,
        "voids": sorted(voids),
        "restores": sorted(restores),
    }
    probe = kind(
        originator_id=match.id,
        originator_version=match.version + 1,
        timestamp=DomainEvent.create_timestamp(),
        at=match.state.last_at,
        recorded_by=given.by,
        state={},
        **common,
        **fields,
    )
    state = corrected([*history, probe])
    assert state is not None
    return match.append(
        kind, by=given.by, at=given.at, state=state_to_dict(state), **common, **fields
    )


def _find(history: Sequence[MatchEvent], number: int) -> MatchEvent:
    if not 1 <= number <= len(history):
        raise InvalidRulingError(f"event {number}: the match has events 1-{len(history)}")
    return history[number - 1]


def _in_force_after(history: Sequence[MatchEvent], number: int) -> list[MatchEvent]:
    return [e for e in in_force(history) if e.originator_version > number]


def _check_in_force(history: Sequence[MatchEvent], number: int) -> None:
    voided = voided_by(history)
    if number in voided:
        raise RulingRefusedError(
            f"event {number} is already void (ruling at event {voided[number]})",
            "USBGF 5.2",
        )


def _choose(
    match: Match,
    history: Sequence[MatchEvent],
    subjects: Sequence[Subject],
    number: int,
    offender: str,
    ruling: Ruling,
) -> CorrectionRule:
    """The first correction rule for ``subjects`` whose window is open (or ``ruling.rule``'s).

    :raises RulingRefusedError: if every window has closed, naming what closed each.
    """
    rules = [r for s in subjects for r in match.profile.corrections_for(s)]
    if ruling.rule is not None:
        rules = [r for r in rules if r.window.rule == ruling.rule]
        if not rules:
            raise RulingRefusedError(
                f"{ruling.rule} does not correct event {number} under {match.profile.name}",
                ruling.rule,
            )
    if not rules:
        raise RulingRefusedError(
            f"{match.profile.name} provides no correction for event {number}", "USBGF 4.2.3"
        )
    after = _in_force_after(history, number)
    reasons = []
    for rule in rules:
        why = _closed(rule, after, offender, ruling, match.state.players)
        if why is None:
            return rule
        reasons.append(f"{rule.window.rule}: {why}")
    raise RulingRefusedError(
        f"too late to correct event {number}: " + "; ".join(reasons), rules[0].window.rule
    )


def _closed(
    rule: CorrectionRule,
    after: Sequence[MatchEvent],
    offender: str,
    ruling: Ruling,
    names: tuple[str, str],
) -> str | None:
    window = rule.window.value
    if window is Window.DIRECTOR_APPROVAL:
        if ruling.ruled_by == "director" and ruling.agreed:
            return None
        return "only with the director's approval and both players' agreement (--agreed)"
    closing = closed_by(window, after, offender)
    return None if closing is None else describe_closing(closing, names) + " closed it"


def _rule_name(rule: CorrectionRule) -> str:
    return rule.window.rule or rule.remedy.rule or "USBGF 4.2.3"


# -- USBGF 4.2.3: illegal plays -------------------------------------------------------


def revert(match: Match, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
    """Undo the illegal play ``number`` and everything after it (USBGF 4.2.3(c)).

    The window comes from the profile: before the opponent's next valid roll
    (4.2.3(a)), before the offender's next valid roll for a play unrelated to
    the dice (4.2.3(e)), any time for an impossible position (4.2.3(d)),
    later with the director's approval and the players' agreement (4.2.3(f));
    condoned by the opponent's roll or cube turn under ``usbgf-2017`` (ABT 4.8).

    :raises InvalidRulingError: if ``number`` is not a play.
    :raises RulingRefusedError: for a legal play, a void one, or outside every window.
    """
    event = _find(history, number)
    if not isinstance(event, CheckersPlayed | UnplayablePlayRecorded):
        raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a play")
    if isinstance(event, CheckersPlayed) and event.legal:
        raise RulingRefusedError(
            f"event {number} is a legal play: nothing to correct", "USBGF 4.2.3"
        )
    _check_in_force(history, number)
    subjects = [Subject.ILLEGAL_PLAY]
    if isinstance(event, CheckersPlayed) and event.rule == "USBGF 4.2.3(e)":
        subjects = [Subject.PLAY_UNRELATED_TO_DICE]
    subjects.append(Subject.IMPOSSIBLE_POSITION) if _impossible(history, number) else None
    chosen = _choose(match, history, subjects, number, event.player, ruling)
    voids = [number, *(e.originator_version for e in _in_force_after(history, number))]
    _record(match, history, PlaysReverted, ruling, _rule_name(chosen), voids, event=number)


def _impossible(history: Sequence[MatchEvent], number: int) -> bool:
    """True if the play ``number`` left a position no game could reach (USBGF 4.2.3(d))."""
    after = corrected(history, at=number)
    return after is not None and bool(after.position.problems())


# -- USBGF 4.4.6, 4.4.9, 4.4.10: doubles that should not have been offered ----------------


def _invalid_double(history: Sequence[MatchEvent], number: int) -> tuple[CubeOffered, MatchEvent]:
    event = _find(history, number)
    if not isinstance(event, CubeOffered):
        raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a double")
    if event.legal:
        raise RulingRefusedError(
            f"the double at event {number} was valid: nothing to void", "USBGF 4.4.6"
        )
    _check_in_force(history, number)
    answer = next(
        (e for e in _in_force_after(history, number) if isinstance(e, CubeTaken | CubeDropped)),
        None,
    )
    if answer is None:
        raise RulingRefusedError(
            f"the double at event {number} has not been answered yet: refuse it instead",
            event.rule or "USBGF 4.4.6",
        )
    return event, answer


def void_cube(match: Match, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
    """Void the invalid double ``number`` that was taken: the game scores as if it never was.

    Before the match ends (USBGF 4.4.6.1); after it only if that game ended
    the match, before either player's next match (which the ledger cannot
    see: the ruler answers for it).  A match the double had won resumes.

    :raises RulingRefusedError: for a valid or passed double, or too late.
    """
    offered, answer = _invalid_double(history, number)
    if not isinstance(answer, CubeTaken):
        raise RulingRefusedError(
            f"the double at event {number} was passed: nullify the pass instead", "USBGF 4.4.6.2"
        )
    after = _in_force_after(history, number)
    won = next((e for e in after if isinstance(e, MatchWon)), None)
    subject = Subject.INVALID_DOUBLE_TAKEN_MATCH_ENDED if won else Subject.INVALID_DOUBLE_TAKEN
    chosen = _choose(match, history, [subject], number, offered.player, ruling)
    voids = [number, answer.originator_version]
    if won is not None and won.originator_version != after[-1].originator_version:
        raise RulingRefusedError("the match went on after it was won", "USBGF 4.4.6.1")
    if won is not None:
        voids.append(won.originator_version)
    rule = offered.rule or _rule_name(chosen)
    _record(match, history, CubeActionVoided, ruling, rule, voids, event=number)
    if won is not None:
        _finish_if_won(match, ruling, rule)


def _finish_if_won(match: Match, ruling: Ruling, rule: str) -> None:
    """A corrected score that still wins the match ends it again, at the corrected score."""
    from ledger._decide import match_winner

    winner = match_winner(match.state)
    if winner is not None:
        a, b = match.state.score
        match.append(MatchWon, by=ruling.by, at=ruling.at, winner=winner, score_a=a, score_b=b)


def nullify_pass(match: Match, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
    """Nullify the pass of the invalid double ``number``: the game resumes at the double.

    The leader's pass, before the next game starts; the trailer's, which
    ended the match, before either player's next match (USBGF 4.4.6.2).
    Doubts go against the doubler.

    :raises RulingRefusedError: for a valid or taken double, or too late.
    """
    offered, answer = _invalid_double(history, number)
    if not isinstance(answer, CubeDropped):
        raise RulingRefusedError(
            f"the double at event {number} was taken: void the double instead", "USBGF 4.4.6.1"
        )
    after = _in_force_after(history, number)
    ended = any(isinstance(e, MatchWon) for e in after)
    subject = Subject.INVALID_DOUBLE_PASSED_MATCH_ENDED if ended else Subject.INVALID_DOUBLE_PASSED
    chosen = _choose(match, history, [subject], number, offered.player, ruling)
    voids = [number, *(e.originator_version for e in after)]
    rule = offered.rule or _rule_name(chosen)
    _record(match, history, CrawfordPassNullified, ruling, rule, voids, event=number)


def correct_cube(match: Match, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
    """The double ``number`` to a wrong level stands at the right level (USBGF 4.4.8).

    :raises RulingRefusedError: if the double was at the right level, or the
        profile does not adjust wrong levels.
    """
    event = _find(history, number)
    if not isinstance(event, CubeOffered):
        raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a double")
    _check_in_force(history, number)
    before = corrected(history, at=number - 1)
    assert before is not None
    right = before.cube * 2
    rules = match.profile.cube.wrong_level_adjusted
    if not rules.value:
        raise RulingRefusedError(f"{match.profile.name} does not adjust cube levels", "USBGF 4.4.8")
    if event.value == right:
        raise RulingRefusedError(
            f"the double at event {number} was to {right}, the right level", "USBGF 4.4.8"
        )
    _record(
        match,
        history,
        CubeLevelCorrected,
        ruling,
        rules.rule or "USBGF 4.4.8",
        event=number,
        value=right,
    )


# -- USBGF 4.8, 4.7: match length and score ---------------------------------------------


def correct_length(
    match: Match, history: Sequence[MatchEvent], length: int, ruling: Ruling
) -> None:
    """The match is ``length`` points, from the next game (USBGF 4.8.4; 4.8.5(a)-(d) if shorter).

    :raises RulingRefusedError: for a completed match (USBGF 4.8.3) or the same length.
    """
    state = match.state
    if state.winner is not None:
        raise RulingRefusedError("a completed match stands", "USBGF 4.8.3")
    if length == state.length or not 1 <= length <= 999:
        raise InvalidRulingError(f"length {length}: the match is {state.length} points")
    rule = "USBGF 4.8.4" if length > state.length else "USBGF 4.8.5"
    _record(match, history, MatchLengthCorrected, ruling, rule, length=length)
    if match.state.phase.value == "between-games":
        _finish_if_won(match, ruling, rule)


def correct_score(
    match: Match, history: Sequence[MatchEvent], score: tuple[int, int], ruling: Ruling
) -> None:
    """The score is ``score`` (USBGF 4.7: the director resolves scoring disputes).

    :raises RulingRefusedError: once the match is over (a wrong result is USBGF 4.6).
    :raises InvalidRulingError: for a score at or past the length.
    """
    state = match.state
    if state.winner is not None:
        raise RulingRefusedError(
            "the match is over: a wrong result is corrected under USBGF 4.6", "USBGF 4.7"
        )
    if not all(0 <= points < state.length for points in score):
        raise InvalidRulingError(f"score {score[0]}-{score[1]}: each 0-{state.length - 1}")
    _record(
        match,
        history,
        ScoreCorrected,
        ruling,
        ruling.rule or "USBGF 4.7",
        score_a=score[0],
        score_b=score[1],
    )


def note(match: Match, history: Sequence[MatchEvent], ruling: Ruling) -> None:
    """A ruling or observation for the record; the match is unchanged."""
    _record(match, history, RulingNoted, ruling, ruling.rule or "")


def overturn(match: Match, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
    """An appeal committee reverses the ruling ``number`` (USBGF 5.2).

    What it voided is back in force; it and everything recorded since are void.

    :raises RulingRefusedError: unless ``--ruled-by committee``, or for a void ruling.
    :raises InvalidRulingError: if ``number`` is not a ruling.
    """
    event = _find(history, number)
    if not isinstance(event, RulingMade):
        raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a ruling")
    if ruling.ruled_by != "committee":
        raise RulingRefusedError(
            "only a ruling committee reverses a director's ruling", "USBGF 5.2"
        )
    _check_in_force(history, number)
    voids = [number, *(e.originator_version for e in _in_force_after(history, number))]
    _record(
        match, history, RulingOverturned, ruling, "USBGF 5.2", voids, event.voids, ruling=number
    )
