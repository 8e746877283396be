"""Rulings: the director's (or a committee's) corrections, decided then recorded.

Each ruling is a command of the match (:class:`RulingCommands`) that checks
the ruling against the match's full history and its profile's correction
rules, then records one compensating event
(:class:`~bgledger.events.RulingMade`) that names the events it voids, the
rule, who ruled and why.  Nothing recorded is changed or deleted.  A ruling
outside its window is refused with the rule cited
(:class:`RulingRefusedError`).

The remedies, from the rule text:

- :meth:`~RulingCommands.revert` (USBGF 4.2.3(c)-(f)): the illegal play and
  the game actions after it are void (rulings made since stay in force);
  checkers, dice, cube and score are back where they were and the same player
  plays the same dice again.
- :meth:`~RulingCommands.void_cube` (4.4.6.1, 4.4.9, 4.4.10): an invalid
  double that was taken is void with its take; the game scores as if the cube
  had not turned (a match it had ended resumes).
- :meth:`~RulingCommands.nullify_pass` (4.4.6.2): an invalid double that was
  passed is void with everything after it; the game resumes at the double,
  and the clock as it stood then (:class:`~bgledger.events.ClockRestored`).
- :meth:`~RulingCommands.void_concession` (4.5, 4.2.6): a concession the
  rules did not allow (a contact position) is void with everything after it;
  the game resumes where it was conceded.
- :meth:`~RulingCommands.correct_cube` (4.4.8): a double to a wrong level
  stands at the right one.
- :meth:`~RulingCommands.correct_length` (4.8.4, 4.8.5),
  :meth:`~RulingCommands.correct_score` (4.7), :meth:`~RulingCommands.note`,
  and :meth:`~RulingCommands.overturn` (5.2): an appeal committee reverses a
  ruling, and what it voided is back in force.

The clock's ruling (a missed hit, USBGF 4.1.8.1) and the starting position's
(USBGF 4.2.4) are with their features, :mod:`bgledger.commands.clock` and
:mod:`bgledger.commands.setup`; they build on these.

Correction windows (until when a ruling may still put an irregularity right)
are data (DESIGN principle 5): a profile's
:class:`~bgledger.rules.profiles.CorrectionRule` names its window
(:class:`~bgledger.rules.profiles.Window`), and :func:`closed_by` finds, in the
events in force after the irregular one, the event that closed it, if any.
The same code serves USBGF 4.2.3(a), ABT 4.8 and the classic laws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bgledger.commands.decide import cube_problem, match_winner
from bgledger.commands.stream import MatchStream
from bgledger.errors import ActionRefusedError, RulesError
from bgledger.events import (
    TIME_EVENTS,
    CheckersPlayed,
    ClockRestored,
    ConcessionVoided,
    CrawfordPassNullified,
    CubeActionVoided,
    CubeDropped,
    CubeLevelCorrected,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    EntryCorrected,
    GameStarted,
    MatchEvent,
    MatchLengthCorrected,
    MatchWon,
    PlaysReverted,
    PrematureDoubleMade,
    RemarkRecorded,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    RollVoided,
    RulingMade,
    RulingNoted,
    RulingOverturned,
    ScoreCorrected,
    SocialDoubleMade,
    UnplayablePlayRecorded,
)
from bgledger.projections.state.clock import at_ms
from bgledger.projections.state.corrected import corrected, in_force, voided_by
from bgledger.projections.state.corrections import replacement
from bgledger.projections.state.fold import other
from bgledger.projections.state.rulings import amended_slots
from bgledger.rules.judge import wrongly_moved
from bgledger.rules.notation import Play
from bgledger.rules.profiles import CorrectionRule, Decision, Profile, Remedy, Subject, Window

__all__ = [
    "RULERS",
    "InvalidRulingError",
    "Ruling",
    "RulingCommands",
    "RulingRefusedError",
    "actions_after",
    "check_in_force",
    "closed_by",
    "describe_closing",
    "find",
    "in_force_after",
    "is_game_action",
    "rule_name",
    "valid_roll",
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
            raise InvalidRulingError(
                f"a ruling by the {self.ruled_by} needs its reason, the words that say why: "
                f"got {self.reason!r}"
            )


class RulingCommands(MatchStream):
    """The director's and the committee's corrections of a match.

    Every ruling takes ``history``: the match's events so far, as stored.  A
    ruling decides on them (which event it names, what is in force, which
    window has closed since) where the other commands decide on the folded
    state alone.  The aggregate keeps the fold (and the store a snapshot of
    it), not the events, so loading every event with every match would cost
    every command what only rulings need; and the JSON recheck
    (:mod:`bgledger.interchange.json_recheck`) decides a ruling on the file's
    events before it, which no store holds.  So the caller passes them:
    :meth:`bgledger.store.application.MatchStore.rule` reads them from the store.

    ``ruling`` says who rules, why, under which rule, and who records it when.
    """

    # -- the one way every ruling is recorded --------------------------------------

    def _record_ruling(
        self,
        history: Sequence[MatchEvent],
        kind: type[RulingMade],
        given: Ruling,
        rule: str,
        voids: Sequence[int] = (),
        restores: Sequence[int] = (),
        **fields: Any,
    ) -> RulingMade:
        """Record ``kind``: the facts of the ruling, never the state it leads to (DESIGN 7).

        ``history`` is the match's events before it: the fold works out the
        match after the ruling from the events in force
        (:mod:`bgledger.projections.state.rulings`).
        """
        common: dict[str, Any] = {
            "rule": rule,
            "ruled_by": given.ruled_by,
            "reason": given.reason.strip(),
            "agreed": given.agreed,
            "voids": sorted(voids),
            "restores": sorted(restores),
        }
        return self._record(kind, given.by, given.at, history, **common, **fields)

    def _choose(
        self,
        history: Sequence[MatchEvent],
        subjects: Sequence[Subject],
        number: int,
        offender: str,
        ruling: Ruling,
    ) -> CorrectionRule:
        """The first correction rule for ``subjects`` whose window is open.

        A ``ruling.rule`` names a window (USBGF 4.2.3(a), (e), (f)) or a remedy:
        USBGF 4.2.3(c), the undoing that applies within (a)'s window and (f)'s,
        chooses among the rules with that remedy.  The ruling is recorded under
        the window that was open (:func:`rule_name`).

        :raises RulingRefusedError: if every window has closed, naming what closed each.
        """
        rules = [r for s in subjects for r in self.profile.corrections_for(s)]
        if ruling.rule is not None:
            given = ruling.rule.strip()
            named = [r for r in rules if given in (r.window.rule, r.remedy.rule)]
            if not named:
                known = sorted({str(c) for r in rules for c in (r.window.rule, r.remedy.rule) if c})
                which = f": {', '.join(known)} may" if known else ""
                raise RulingRefusedError(
                    f"{given} does not correct event {number} under {self.profile.name}{which}",
                    given,
                )
            rules = named
        if not rules:
            raise RulingRefusedError(
                f"{self.profile.name} provides no correction for event {number}",
                self.profile.cite(Decision.ILLEGAL_PLAY),
            )
        after = in_force_after(history, number)
        reasons = []
        for rule in rules:
            why = _closed(rule, after, offender, ruling, self.state.players)
            if why is None:
                return rule
            reasons.append(f"{rule.window.rule}: {why}")
        raise RulingRefusedError(
            f"too late to correct event {number}: " + "; ".join(reasons), rules[0].window.rule
        )

    def _finish_if_won(self, ruling: Ruling, rule: str) -> None:
        """A corrected score that still wins the match ends it again, at the corrected score."""
        winner = match_winner(self.state)
        if winner is not None:
            a, b = self.state.score
            self._record(MatchWon, ruling.by, ruling.at, winner=winner, score_a=a, score_b=b)

    # -- USBGF 4.2.3: illegal plays -------------------------------------------------------

    def revert(self, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
        """Undo the illegal play ``number`` and everything after it (USBGF 4.2.3(c)).

        The window comes from the profile: before the opponent's next valid roll
        (4.2.3(a)), before the offender's next valid roll for a play unrelated to
        the dice (4.2.3(e)), any time for an impossible position (4.2.3(d)),
        later with the director's approval and the players' agreement (4.2.3(f));
        condoned by the opponent's roll or cube turn under ``usbgf-2017`` (ABT 4.8).

        :raises InvalidRulingError: if ``number`` is not a play.
        :raises RulingRefusedError: for a legal play, a void one, or outside every window.
        """
        event, cite = find(history, number), self.profile.cite
        if not isinstance(event, CheckersPlayed | UnplayablePlayRecorded):
            raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a play")
        if isinstance(event, CheckersPlayed) and event.legal:
            raise RulingRefusedError(
                f"event {number} is a legal play: nothing to correct", cite(Decision.ILLEGAL_PLAY)
            )
        check_in_force(self.profile, history, number)
        subjects = [Subject.ILLEGAL_PLAY]
        if isinstance(event, CheckersPlayed) and event.rule == cite(Decision.UNRELATED_TO_DICE):
            subjects = [Subject.PLAY_UNRELATED_TO_DICE]
        if _impossible(history, number):
            subjects.append(Subject.IMPOSSIBLE_POSITION)
        chosen = self._choose(history, subjects, number, event.player, ruling)
        voids = [number, *actions_after(history, number)]
        same: list[int] = []
        onward: list[int] = []
        if chosen.remedy.value is Remedy.SAME_CHECKER:
            same, onward = _wrongly_moved(history, event)
        self._record_ruling(
            history, PlaysReverted, ruling, rule_name(self.profile, chosen), voids,
            event=number, same_checker=same, moved_on=onward,
        )  # fmt: skip

    # -- USBGF 4.4.6, 4.4.9, 4.4.10, 4.4.8: doubles that should not have been offered --------

    def void_cube(self, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
        """Void the invalid double ``number`` that was taken: the game scores as if it never was.

        Before the match ends (USBGF 4.4.6.1); after it only if that game ended
        the match, before either player's next match (which the ledger cannot
        see: the ruler answers for it).  A match the double had won resumes.

        A beaver or an automatic double (USBGF 4.4.10: "remedied within the
        same allowable time limits and within the same manner as doubling
        during the Crawford Game") is void alone: the take a beaver answered
        stands, and the cube is back at the value it had before it.

        :raises RulingRefusedError: for a valid or passed double, or too late.
        """
        social = find(history, number)
        if isinstance(social, SocialDoubleMade):
            offered: CubeOffered | PrematureDoubleMade | SocialDoubleMade = social
            _check_social(self.profile, history, social)
            voids = [number]
        else:
            offered, answer = _invalid_double(self.profile, history, number, CubeTaken)
            voids = [number, answer.originator_version]
        after = in_force_after(history, number)
        won = _won_by_the_game(after)
        subject = Subject.INVALID_DOUBLE_TAKEN_MATCH_ENDED if won else Subject.INVALID_DOUBLE_TAKEN
        chosen = self._choose(history, [subject], number, offered.player or "a", ruling)
        played = [e for e in after if is_game_action(e)]  # a note or a hit may come first
        if won is not None and won.originator_version != played[-1].originator_version:
            went_on = "the match went on after it was won"
            raise RulingRefusedError(went_on, self.profile.cite(Decision.VOID_TAKEN_DOUBLE))
        if won is not None:
            voids.append(won.originator_version)
        rule = _cube_rule(self.profile, offered, chosen)
        self._record_ruling(history, CubeActionVoided, ruling, rule, voids, event=number)
        if won is not None:
            self._finish_if_won(ruling, rule)

    def nullify_pass(self, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
        """Nullify the pass of the invalid double ``number``: the game resumes at the double.

        The leader's pass, before the next game starts; the trailer's, which
        ended the match, before either player's next match (USBGF 4.4.6.2).
        Doubts go against the doubler.

        :raises RulingRefusedError: for a valid or taken double, or too late.
        """
        social = find(history, number)
        if isinstance(social, SocialDoubleMade):
            _check_social(self.profile, history, social)
            raise RulingRefusedError(
                f"{_SOCIAL.get(social.kind, social.kind)} at event {number} was not passed: "
                "nobody answers it; void it instead ('void-cube')",
                social.rule or self.profile.cite(Decision.SOCIAL_DOUBLES),
            )
        offered, _ = _invalid_double(self.profile, history, number, CubeDropped)
        after = in_force_after(history, number)
        ended = _won_by_the_game(after) is not None
        subject = (
            Subject.INVALID_DOUBLE_PASSED_MATCH_ENDED if ended else Subject.INVALID_DOUBLE_PASSED
        )
        chosen = self._choose(history, [subject], number, offered.player, ruling)
        voids = [number, *actions_after(history, number)]
        rule = _cube_rule(self.profile, offered, chosen)
        with self.atomic():  # the nullification and the clock put back, or nothing
            self._record_ruling(history, CrawfordPassNullified, ruling, rule, voids, event=number)
            self._restore_clock(history, offered, chosen.remedy.rule or rule, ruling)

    def _restore_clock(
        self, history: Sequence[MatchEvent], event: MatchEvent, rule: str, ruling: Ruling
    ) -> ClockRestored | None:
        """Put the clock back as it stood when ``event`` was made (USBGF 4.4.6.2).

        "The Crawford game will resume based on the checker position and game
        clock reserve times that existed when the improper double was made":
        each reserve as it was then, and the turn the clock was timing then
        (the doubler's, who had not ended it: a turn ends with the hit of
        USBGF 4.1.8.1, and the double it ended with is void) runs again from
        the ruling, with what he had used of it.  The time that ran since is
        not voided (time events never are): this event sets the clock back.
        Nothing is recorded without a clock then and now.
        """
        before = corrected(history, at=event.originator_version - 1)
        then = None if before is None else before.timer
        if then is None or self.state.timer is None:
            return None
        moment = at_ms(event.at)
        timing = then.turn is not None
        restored = self._record(
            ClockRestored, ruling.by, self.state.last_at, event=event.originator_version,
            player=then.turn or "", running=then.running,
            reserve_a_ms=then.reserve_ms[0], reserve_b_ms=then.reserve_ms[1],
            used_ms=then.used(moment) if timing else 0,
            turn_delay_ms=then.turn_delay_ms if timing else 0,
            rule=rule, ruled_by=ruling.ruled_by, reason=ruling.reason.strip(),
        )  # fmt: skip
        assert isinstance(restored, ClockRestored)
        return restored

    # -- USBGF 4.5, 4.2.6: concessions the rules do not allow ------------------------------

    def void_concession(self, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
        """Void the accepted concession ``number`` that the rules did not allow: play resumes.

        USBGF 4.5 allows a concession "in non-contact positions" only; any
        other agreement on the outcome of a game is "invalid and
        unenforceable" (USBGF 4.2.6; ABT 4.9 under ``usbgf-2017``).  The
        concession, its acceptance and everything after it are void, and the
        game resumes at the position, cube and turn where it was conceded.
        The window is the profile's: before the next game starts; if the
        concession ended the match, before either player's next match (which
        the ledger cannot see: the ruler answers for it).

        :raises InvalidRulingError: if ``number`` is not a concession.
        :raises RulingRefusedError: for a concession the rules allow, one not
            accepted (a rejected one ended nothing), a void one, or too late.
        """
        event, cite = find(history, number), self.profile.cite
        if not isinstance(event, ResignationOffered):
            raise InvalidRulingError(
                f"event {number} is a {type(event).__name__}, not a concession"
            )
        resignation = cite(Decision.RESIGNATION)
        if event.legal:
            raise RulingRefusedError(
                f"the concession at event {number} was allowed: it stands", resignation
            )
        check_in_force(self.profile, history, number)
        after = in_force_after(history, number)
        answer = next(
            (e for e in after if isinstance(e, ResignationAccepted | ResignationRejected)), None
        )
        if answer is None:
            raise RulingRefusedError(
                f"the concession at event {number} has not been answered: reject it instead",
                event.rule or resignation,
            )
        if isinstance(answer, ResignationRejected):
            raise RulingRefusedError(
                f"the concession at event {number} was rejected: the game went on",
                event.rule or resignation,
            )
        ended = _won_by_the_game(after) is not None
        subject = Subject.INVALID_CONCESSION_MATCH_ENDED if ended else Subject.INVALID_CONCESSION
        chosen = self._choose(history, [subject], number, event.player, ruling)
        voids = [number, *actions_after(history, number)]
        self._record_ruling(
            history, ConcessionVoided, ruling, rule_name(self.profile, chosen), voids,
            event=number,
        )  # fmt: skip

    def correct_cube(self, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
        """The double ``number`` to a wrong level stands at the right level (USBGF 4.4.8).

        :raises RulingRefusedError: if the double was at the right level, or the
            profile does not adjust wrong levels.
        """
        event = find(history, number)
        if not isinstance(event, CubeOffered | PrematureDoubleMade):
            raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a double")
        check_in_force(self.profile, history, number)
        before = corrected(history, at=number - 1)
        assert before is not None
        right = before.next_cube
        rules = self.profile.cube.wrong_level_adjusted
        level = self.profile.cite(Decision.CUBE_LEVEL)
        if not rules.value:
            raise RulingRefusedError(f"{self.profile.name} does not adjust cube levels", level)
        if event.value == right:
            raise RulingRefusedError(
                f"the double at event {number} was to {right}, the right level", level
            )
        if any(isinstance(e, CubeLevelCorrected) and e.event == number for e in in_force(history)):
            raise RulingRefusedError(
                f"the double at event {number} has been corrected to {right} already", level
            )
        # The game's points follow the corrected cube; a match its game ended is won again
        # only if the corrected score still wins it ("any resulting scoring error will be
        # adjusted").
        won = _won_by_the_game(in_force_after(history, number))
        voids = [] if won is None else [won.originator_version]
        rule = rules.rule or level
        self._record_ruling(
            history, CubeLevelCorrected, ruling, rule, voids, event=number, value=right
        )
        if won is not None:
            self._finish_if_won(ruling, rule)

    # -- USBGF 4.8, 4.7: match length and score ---------------------------------------------

    def correct_length(self, history: Sequence[MatchEvent], length: int, ruling: Ruling) -> None:
        """The match is ``length`` points, from the next game (USBGF 4.8.4; 4.8.5(a)-(d) if
        shorter).

        :raises RulingRefusedError: for a completed match (USBGF 4.8.3) or the same length.
        """
        state, cite = self.state, self.profile.cite
        if state.winner is not None:
            raise RulingRefusedError("a completed match stands", cite(Decision.COMPLETED_MATCH))
        if length == state.length or not 1 <= length <= 999:
            raise InvalidRulingError(f"length {length}: the match is {state.length} points")
        longer = length > state.length
        rule = cite(Decision.LONGER_LENGTH if longer else Decision.SHORTER_LENGTH)
        self._record_ruling(history, MatchLengthCorrected, ruling, rule, length=length)
        if self.state.phase.value == "between-games":
            self._finish_if_won(ruling, rule)

    def correct_score(
        self, history: Sequence[MatchEvent], score: tuple[int, int], ruling: Ruling
    ) -> None:
        """The score is ``score`` (USBGF 4.7: the director resolves scoring disputes).

        :raises RulingRefusedError: once the match is over (a wrong result is USBGF 4.6).
        :raises InvalidRulingError: for a score at or past the length.
        """
        state, cite = self.state, self.profile.cite
        if state.winner is not None:
            raise RulingRefusedError(
                f"the match is over: a wrong result is corrected under {cite(Decision.RESULT)}",
                cite(Decision.SCORE),
            )
        if not all(0 <= points < state.length for points in score):
            raise InvalidRulingError(f"score {score[0]}-{score[1]}: each 0-{state.length - 1}")
        self._record_ruling(
            history,
            ScoreCorrected,
            ruling,
            ruling.rule or cite(Decision.SCORE),
            score_a=score[0],
            score_b=score[1],
        )

    def note(self, history: Sequence[MatchEvent], ruling: Ruling) -> None:
        """A ruling or observation for the record; the match is unchanged."""
        self._record_ruling(history, RulingNoted, ruling, ruling.rule or "")

    # -- USBGF 5.2: appeals ------------------------------------------------------------------

    def overturn(self, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
        """An appeal committee reverses the ruling ``number`` (USBGF 5.2).

        What it voided is back in force; it and everything recorded since are void.

        :raises RulingRefusedError: unless ``--ruled-by committee``, for a void ruling, or
            where the profile allows no appeal (online events, USBGF 6.7).
        :raises InvalidRulingError: if ``number`` is not a ruling.
        """
        event = find(history, number)
        if not isinstance(event, RulingMade):
            raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a ruling")
        appeal = self.profile.cite(Decision.APPEAL)
        if not self.profile.appeals.value:
            raise RulingRefusedError(
                f"no appeal under {self.profile.name}: the director's decisions are final "
                "and binding",
                appeal,
            )
        if ruling.ruled_by != "committee":
            raise RulingRefusedError("only a ruling committee reverses a director's ruling", appeal)
        check_in_force(self.profile, history, number)
        voids = [number, *actions_after(history, number)]
        self._record_ruling(
            history, RulingOverturned, ruling, appeal, voids, event.voids, ruling=number
        )


# -- what every ruling reads in the history ------------------------------------------------


def find(history: Sequence[MatchEvent], number: int) -> MatchEvent:
    """Event ``number`` as the match has it in force: for an entry a scorekeeper amended,
    what the amendment says happened (the play, roll or double it put in its place)."""
    if not 1 <= number <= len(history):
        raise InvalidRulingError(f"event {number}: the match has events 1-{len(history)}")
    amendment = amended_slots(history).get(number)
    if amendment is not None:
        made = [e for e in replacement(amendment, number) if not isinstance(e, GameStarted)]
        if made:
            return made[0]
    return history[number - 1]


def in_force_after(history: Sequence[MatchEvent], number: int) -> list[MatchEvent]:
    return [e for e in in_force(history) if e.originator_version > number]


def actions_after(history: Sequence[MatchEvent], number: int) -> list[int]:
    """The game actions in force after event ``number``: what undoing it undoes.

    Rulings are not game actions (USBGF 4.2.3(c) undoes "the illegal move and
    all subsequent game actions"): a later ruling stays in force until an
    appeal names it.  Neither are the clock, break and penalty-point events:
    the time that ran on the clock ran (:mod:`bgledger.events`).
    """
    return [e.originator_version for e in in_force_after(history, number) if is_game_action(e)]


def is_game_action(event: MatchEvent) -> bool:
    """False for rulings, the clock, break and penalty-point events, and the scorekeeper's
    corrections and remarks."""
    return (
        not isinstance(event, RulingMade | EntryCorrected | RemarkRecorded)
        and type(event) not in TIME_EVENTS
    )


def check_in_force(profile: Profile, history: Sequence[MatchEvent], number: int) -> None:
    """Refuse a ruling on a void event, or on one a committee's appeal already decided."""
    appeal = profile.cite(Decision.APPEAL)
    for event in in_force(history):
        if isinstance(event, RulingOverturned):
            overturned = history[event.ruling - 1]
            if getattr(overturned, "event", None) == number:
                raise RulingRefusedError(
                    f"a ruling committee decided on event {number} at event "
                    f"{event.originator_version}; its decision binds the director",
                    appeal,
                )
    voided = voided_by(history)
    if number in voided and number not in amended_slots(history, voided):
        raise RulingRefusedError(
            f"event {number} is already void (ruling at event {voided[number]})", appeal
        )


def rule_name(profile: Profile, rule: CorrectionRule) -> str:
    """The rule a correction is recorded under: its window's, else its remedy's."""
    return rule.window.rule or rule.remedy.rule or profile.cite(Decision.ILLEGAL_PLAY)


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


# -- illegal plays ----------------------------------------------------------------------------


def _wrongly_moved(
    history: Sequence[MatchEvent], event: CheckersPlayed | UnplayablePlayRecorded
) -> tuple[list[int], list[int]]:
    """The points the men wrongly moved by an illegal play left, and those the men moved
    correctly on the same throw left.  CLASSIC 10 obliges moving "that man" (the first), else
    "the other man that was moved correctly on the same throw must be moved on the number of
    points on the second die, if possible" (the second).  A man moved a number of points no
    die gives is the one wrongly moved (CLASSIC 9); where every man's move fits the dice (a
    play illegal for another reason), each man the play moved is, and none moved correctly."""
    try:
        play = Play.parse(event.play)
    except RulesError:
        return [], []
    before = corrected(history, at=event.originator_version - 1)
    dice = None if before is None else before.dice
    wrong = set(wrongly_moved(play, dice) if dice is not None else ())
    if not wrong:
        return sorted({move.source for move in play.moves}), []
    return sorted(wrong), sorted({m.source for m in play.moves} - wrong)


def _impossible(history: Sequence[MatchEvent], number: int) -> bool:
    """True if the play ``number`` left a position no game could reach (USBGF 4.2.3(d))."""
    after = corrected(history, at=number)
    return after is not None and bool(after.position.problems())


# -- doubles ---------------------------------------------------------------------------------


_OTHER_REMEDY = {
    CubeTaken: ("passed: nullify the pass instead", Decision.NULLIFY_PASSED_DOUBLE),
    CubeDropped: ("taken: void the double instead", Decision.VOID_TAKEN_DOUBLE),
}
"""What to do instead when the double was not answered as the ruling expects."""


def _invalid_double(
    profile: Profile,
    history: Sequence[MatchEvent],
    number: int,
    answered: type[CubeTaken] | type[CubeDropped],
) -> tuple[CubeOffered | PrematureDoubleMade, MatchEvent]:
    """The invalid double ``number`` and its answer, which must be ``answered``.

    :raises InvalidRulingError: if ``number`` is not a double.
    :raises RulingRefusedError: for a valid double, one deemed valid but for
        its level (USBGF 4.4.8), a void one, one not answered yet, or one
        answered the other way.
    """
    event, cite = find(history, number), profile.cite
    if not isinstance(event, CubeOffered | PrematureDoubleMade):
        raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a double")
    if event.legal:
        raise RulingRefusedError(
            f"the double at event {number} was valid: nothing to void", cite(Decision.CRAWFORD)
        )
    level = cite(Decision.CUBE_LEVEL)
    if event.rule == level and _valid_but_for_its_level(profile, history, event):
        raise RulingRefusedError(
            f"the double at event {number} is deemed valid, only its level was wrong: "
            "correct the cube's level instead",
            level,
        )
    check_in_force(profile, history, number)
    answer = next(
        (e for e in in_force_after(history, number) if isinstance(e, CubeTaken | CubeDropped)),
        None,
    )
    if answer is None:
        raise RulingRefusedError(
            f"the double at event {number} has not been answered yet: refuse it instead",
            event.rule or cite(Decision.CRAWFORD),
        )
    if not isinstance(answer, answered):
        instead, decision = _OTHER_REMEDY[answered]
        raise RulingRefusedError(f"the double at event {number} was {instead}", cite(decision))
    return event, answer


_SOCIAL = {"beaver": "the beaver", "automatic": "the automatic double"}
"""A social double (USBGF 4.4.10) by its kind, in words."""


def _check_social(profile: Profile, history: Sequence[MatchEvent], event: SocialDoubleMade) -> None:
    """Refuse a ruling on a beaver or an automatic double the rules allowed, or a void one."""
    if event.legal:
        raise RulingRefusedError(
            f"{_SOCIAL.get(event.kind, event.kind)} at event {event.originator_version} was "
            f"allowed under {profile.name}: nothing to void",
            profile.cite(Decision.SOCIAL_DOUBLES),
        )
    check_in_force(profile, history, event.originator_version)


def _valid_but_for_its_level(
    profile: Profile, history: Sequence[MatchEvent], double: CubeOffered | PrematureDoubleMade
) -> bool:
    """True if ``double`` broke no rule but USBGF 4.4.8's (it is flagged for its first fault)."""
    before = corrected(history, at=double.originator_version - 1)
    assert before is not None
    return cube_problem(before, profile, double.player) is None


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


def _cube_rule(
    profile: Profile,
    offered: CubeOffered | PrematureDoubleMade | SocialDoubleMade,
    chosen: CorrectionRule,
) -> str:
    """The rule an invalid double is corrected under.

    A Crawford-game double (``USBGF 4.4.6``) is corrected under its own
    subsection (4.4.6.1 taken, 4.4.6.2 passed); a dead cube (4.4.9) or an
    automatic double (4.4.10) under the rule it broke, which deals with it
    "in the same manner".
    """
    remedy = rule_name(profile, chosen)
    if offered.rule is None or remedy.startswith(f"{offered.rule}."):
        return remedy
    return offered.rule


# -- correction windows ------------------------------------------------------------------------


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
