"""Rulings: the director's (or a committee's) corrections, decided then recorded.

Each function checks a ruling against the match's full history and its
profile's correction rules, then records one compensating event
(:class:`~bgledger.events.RulingMade`) that names the events it voids, the
rule, who ruled and why.  Nothing recorded is changed or deleted.  A ruling
outside its window is refused with the rule cited
(:class:`RulingRefusedError`).

The remedies, from the rule text:

- :func:`revert` (USBGF 4.2.3(c)-(f)): the illegal play and the game actions
  after it are void (rulings made since stay in force); checkers, dice, cube
  and score are back where they were and the same player plays the same dice
  again.
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

from bgledger.commands.cube_rulings import correct_cube, nullify_pass, void_cube
from bgledger.commands.match import Match
from bgledger.commands.ruling_base import (
    RULERS,
    InvalidRulingError,
    Ruling,
    RulingRefusedError,
    actions_after,
    check_in_force,
    choose,
    find,
    finish_if_won,
    record,
    rule_name,
)
from bgledger.events import (
    CheckersPlayed,
    MatchEvent,
    MatchLengthCorrected,
    PlaysReverted,
    RulingMade,
    RulingNoted,
    RulingOverturned,
    ScoreCorrected,
    UnplayablePlayRecorded,
)
from bgledger.projections.state.corrected import corrected
from bgledger.rules.errors import RulesError
from bgledger.rules.notation import Play
from bgledger.rules.profiles import Remedy, Subject

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
    event = find(history, number)
    if not isinstance(event, CheckersPlayed | UnplayablePlayRecorded):
        raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a play")
    if isinstance(event, CheckersPlayed) and event.legal:
        raise RulingRefusedError(
            f"event {number} is a legal play: nothing to correct", "USBGF 4.2.3"
        )
    check_in_force(history, number)
    subjects = [Subject.ILLEGAL_PLAY]
    if isinstance(event, CheckersPlayed) and event.rule == "USBGF 4.2.3(e)":
        subjects = [Subject.PLAY_UNRELATED_TO_DICE]
    if _impossible(history, number):
        subjects.append(Subject.IMPOSSIBLE_POSITION)
    chosen = choose(match, history, subjects, number, event.player, ruling)
    voids = [number, *actions_after(history, number)]
    same = _wrongly_moved(event) if chosen.remedy.value is Remedy.SAME_CHECKER else []
    record(
        match, history, PlaysReverted, ruling, rule_name(chosen), voids,
        event=number, same_checker=same,
    )  # fmt: skip


def _wrongly_moved(event: CheckersPlayed | UnplayablePlayRecorded) -> list[int]:
    """The points the men of an illegal play left (CLASSIC 10 obliges moving one of them)."""
    try:
        return sorted({move.source for move in Play.parse(event.play).moves})
    except RulesError:
        return []


def _impossible(history: Sequence[MatchEvent], number: int) -> bool:
    """True if the play ``number`` left a position no game could reach (USBGF 4.2.3(d))."""
    after = corrected(history, at=number)
    return after is not None and bool(after.position.problems())


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
    record(match, history, MatchLengthCorrected, ruling, rule, length=length)
    if match.state.phase.value == "between-games":
        finish_if_won(match, ruling, rule)


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
    record(
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
    record(match, history, RulingNoted, ruling, ruling.rule or "")


def overturn(match: Match, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
    """An appeal committee reverses the ruling ``number`` (USBGF 5.2).

    What it voided is back in force; it and everything recorded since are void.

    :raises RulingRefusedError: unless ``--ruled-by committee``, or for a void ruling.
    :raises InvalidRulingError: if ``number`` is not a ruling.
    """
    event = find(history, number)
    if not isinstance(event, RulingMade):
        raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a ruling")
    if ruling.ruled_by != "committee":
        raise RulingRefusedError(
            "only a ruling committee reverses a director's ruling", "USBGF 5.2"
        )
    check_in_force(history, number)
    voids = [number, *actions_after(history, number)]
    record(match, history, RulingOverturned, ruling, "USBGF 5.2", voids, event.voids, ruling=number)
