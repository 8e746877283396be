"""Breaks and penalty points: ``break start``, ``break end``, ``late`` and ``penalty``.

USBGF 2.2.2 allots each player five-minute breaks by match length (one up
to 9 points, two for 11-13, three for 15-19, four beyond; 10 and 14 points
get the band below), taken between games unless in exceptional
circumstances, combined on request, and in best-of-three matches to 7 or
less only between matches.  USBGF 2.2.4: a player not back (or not there at
the start) fifteen minutes after the end of the break (or the starting
time) is assessed one penalty point, and one more for each further five
minutes; penalty points are scored by the opponent.  At the start of a
match, more than half the match length in penalty points forfeits it;
after a break, the match is lost once the opponent's points reach its
length.

:class:`BreakCommands` builds on the clock (:class:`~bgledger.commands.clock.ClockCommands`):
a break stops it, and a forfeit for lateness is recorded as one on time is.

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("late"), "late", ("Ann", "Bob"), 5, by="td",
    ...                     at="2026-11-21T10:00:00+00:00")
    >>> match.late("b", by="td", at="2026-11-21T10:21:00+00:00").points
    2
    >>> match.state.score
    (2, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

from bgledger.commands import decide as _decide
from bgledger.commands.clock import ClockCommands
from bgledger.errors import BreakRefusedError, InvalidClockError, PenaltyRefusedError
from bgledger.events import BreakEnded, BreakStarted, MatchEvent, PenaltyPointsAssessed
from bgledger.projections.state.allowed import BEST_OF_THREE as BEST_OF_THREE
from bgledger.projections.state.breaks import allowance, minutes_between
from bgledger.projections.state.clock import at_ms, figures
from bgledger.projections.state.corrected import in_force
from bgledger.projections.state.fold import MatchState, Phase, other
from bgledger.rules.profiles import BreakRules, Decision, LatenessRules, get_profile

__all__ = ["BEST_OF_THREE", "BreakCommands"]


class BreakCommands(ClockCommands):
    """Breaks (USBGF 2.2.2, 2.2.3) and penalty points (USBGF 2.2.4) on a match.

    Each takes ``by`` and ``at`` and raises, recording nothing, when it refuses.
    """

    @property
    def _break_rule(self) -> str:
        """The rule of breaks under the match's profile (USBGF 2.2.2)."""
        return self.profile.cite(Decision.BREAK)

    @property
    def _penalty_rule(self) -> str:
        """The rule of penalty points for lateness under the match's profile (USBGF 2.2.4)."""
        return self.profile.cite(Decision.PENALTY_POINTS)

    def _break_rules(self) -> BreakRules:
        rules = self.profile.breaks
        if rules is None:
            refusal = f"profile {self.profile.name} allots no breaks"
            raise BreakRefusedError(refusal, self._break_rule)
        if self.state.winner is not None:
            raise BreakRefusedError("the match is over", self._break_rule)
        return rules

    def start_break(
        self,
        players: tuple[str, ...],
        *,
        combine: int = 1,
        exceptional: str = "",
        exception: str = "",
        by: str,
        at: str | None = None,
    ) -> BreakStarted:
        """``players`` (one or both) take ``combine`` of their breaks each, as one break.

        ``exceptional`` gives the circumstances of a break during a game;
        ``exception`` the director's exception (USBGF 2.2.3) for a break beyond
        the allowance or in a best-of-three match.  The game clock stops.

        :raises InvalidClockError: for a player other than ``a`` or ``b``, or ``combine`` below 1.
        :raises BreakRefusedError: beyond the allowance, during a game without
            circumstances, while a break is on, or in a short best-of-three match.
        """
        self._break_rules()
        state = self.state
        if any(p not in ("a", "b") for p in players) or not players or combine < 1:
            raise InvalidClockError(
                f"break by {' and '.join(players) or 'nobody'}: a and/or b, --combine 1 or more"
            )
        most = self.profile.limits.breaks_at_once.value
        if combine > most:
            raise BreakRefusedError(
                f"{combine} breaks combined into one: {self.profile.name} combines {most} at "
                "most, even by the director's exception",
                self.profile.cite(Decision.BREAK_EXCEPTION),
            )
        if state.breaks.open is not None:
            raise BreakRefusedError("a break is already on: end it first", self._break_rule)
        if not exception:
            _check_allowed(state, tuple(dict.fromkeys(players)), combine, exceptional)
        when, now = self._moment(at)
        readings = figures(state.timer, now) if state.timer is not None else (None, None)
        return self._record(
            BreakStarted, by, when, players=sorted(set(players)), breaks=combine,
            minutes=5 * combine * len(set(players)), during_game=state.in_game,
            exceptional=exceptional.strip(), exception=exception.strip(),
            reserve_a_ms=readings[0], reserve_b_ms=readings[1],
        )  # fmt: skip

    def end_break(self, *, late: str | None = None, by: str, at: str | None = None) -> BreakEnded:
        """The break is over (both players back at the board).

        Back more than fifteen minutes after the allowance, the late player
        (``late``: ``a``, ``b`` or ``none``) is assessed the penalty points due
        (USBGF 2.2.4) and may lose the match by them.

        :raises BreakRefusedError: if no break is on.
        :raises PenaltyRefusedError: if the break overran past the grace and nobody is named late.
        """
        self._break_rules()
        state = self.state
        opened = state.breaks.open
        if opened is None:
            raise BreakRefusedError("no break is on", self._break_rule)
        when, now = self._moment(at)
        over = minutes_between(opened.ends_ms, now)
        lateness = self._lateness()
        if late is None and lateness.penalty_points(over) > 0:
            raise PenaltyRefusedError(
                f"the break ended {over} minutes after its {opened.minutes}: name the player who "
                "returned late (--late a|b, or --late none)",
                self._penalty_rule,
            )
        culprit = None if late in (None, "none") else late
        if culprit is not None and culprit not in ("a", "b"):
            raise InvalidClockError(f"--late {late!r}: a, b or none")
        with self.atomic():  # the end, its penalty points and any forfeit, or nothing
            ended = self._record(BreakEnded, by, when, late=culprit, minutes_over=over)
            if culprit is not None:
                self._assess_lateness(culprit, over, "late-return", None, by=by, at=when)
        return ended

    def _lateness(self) -> LatenessRules:
        rules = self.profile.lateness
        if rules is None:
            refusal = f"profile {self.profile.name} has no lateness rules"
            raise PenaltyRefusedError(refusal, self._penalty_rule)
        return rules

    def late(
        self,
        player: str,
        *,
        scheduled: str | None = None,
        history: Sequence[MatchEvent] = (),
        stated: bool = True,
        by: str,
        at: str | None = None,
    ) -> PenaltyPointsAssessed:
        """``player`` is late (still absent, or just arrived) at ``at``: the points due so far.

        Lateness counts from ``scheduled`` before the first game (default: the
        scheduled start an earlier assessment in ``history``, the match's
        events so far, was given; else when the match was set up), or from the
        end of the break's allowance during a break.  Only points not yet
        assessed for this lateness are added.

        ``stated``: ``scheduled`` is the director's, recorded with the points;
        ``False`` for a moment worked back from a transcription's minutes late,
        counted from but not recorded as a scheduled start.

        :raises PenaltyRefusedError: after the match, with nothing to be late for, or no
            point due yet.
        """
        state = self.state
        if player not in ("a", "b"):
            raise InvalidClockError(f"player {player!r}: 'a' or 'b'")
        if state.winner is not None:
            raise PenaltyRefusedError("the match is over", self._penalty_rule)
        when, now = self._moment(at)
        counted = scheduled or _scheduled_before(history)
        reference, kind = _late_since(state, counted)
        minutes = minutes_between(reference, now)
        start = counted if kind == "late-start" and stated else None
        assessed = self._assess_lateness(player, minutes, kind, start, by=by, at=when)
        if assessed is None:
            rules = self._lateness()
            given = state.breaks.late_points[0 if player == "a" else 1]
            due_at = rules.grace_minutes.value + given * rules.step_minutes.value
            raise PenaltyRefusedError(
                f"{state.name(player)} is {minutes} minutes late and has been assessed {given} "
                f"point(s): the next falls at {due_at} minutes (one at "
                f"{rules.grace_minutes.value}, one more every {rules.step_minutes.value})",
                self._penalty_rule,
            )
        return assessed

    def _assess_lateness(
        self, player: str, minutes: int, kind: str, scheduled: str | None, *, by: str, at: str
    ) -> PenaltyPointsAssessed | None:
        """The points due for ``minutes`` late, less those already assessed; then any forfeit."""
        state = self.state
        due = (
            self._lateness().penalty_points(minutes)
            - state.breaks.late_points[0 if player == "a" else 1]
        )
        if due <= 0:
            return None
        where = "the starting time" if kind == "late-start" else "the end of the break"
        reason = f"{state.name(player)} was {minutes} minutes late after {where}"
        with self.atomic():  # the points and any forfeit they bring, or nothing
            assessed = self._record(
                PenaltyPointsAssessed, by, at, player=player, points=due, kind=kind,
                rule=self._penalty_rule, ruled_by="director", reason=reason, minutes_late=minutes,
                scheduled=None if scheduled is None else _decide.stamp(scheduled, None),
            )  # fmt: skip
            self._forfeit_if_due(player, kind, by=by, at=at)
        return assessed

    def _forfeit_if_due(self, player: str, kind: str, *, by: str, at: str) -> None:
        """USBGF 2.2.4: a no-show past half the length forfeits; otherwise the score decides."""
        state = self.state
        index = 0 if player == "a" else 1
        no_show = kind == "late-start" and state.breaks.late_points[index] * 2 > state.length
        if no_show or state.score[1 - index] >= state.length:
            self._forfeit(other(player), by=by, at=at)

    def penalty(
        self,
        player: str,
        points: int,
        *,
        rule: str,
        reason: str,
        ruled_by: str = "director",
        by: str,
        at: str | None = None,
    ) -> PenaltyPointsAssessed:
        """The director assesses ``points`` against ``player`` under ``rule``; the opponent
        scores them.

        :raises InvalidClockError: for a bad player, points below 1, or no rule or reason.
        :raises PenaltyRefusedError: after the match.
        """
        if player not in ("a", "b") or points < 1 or not rule.strip() or not reason.strip():
            raise InvalidClockError(
                f"penalty {points!r} against {player!r}: a or b, 1 point or more, "
                "--rule and --reason"
            )
        state = self.state
        if state.winner is not None:
            raise PenaltyRefusedError("the match is over", rule.strip())
        needs = state.length - state.score[1 if player == "a" else 0]
        if points > needs:
            raise PenaltyRefusedError(
                f"{points} penalty points against {state.name(player)}: "
                f"{state.name(other(player))} needs {needs} to win the match, and penalty "
                "points are scored by the opponent",
                self._penalty_rule,
            )
        when, _ = self._moment(at)
        with self.atomic():
            assessed = self._record(
                PenaltyPointsAssessed, by, when, player=player, points=points,
                kind="director", rule=rule.strip(), ruled_by=ruled_by, reason=reason.strip(),
                minutes_late=None,
            )  # fmt: skip
            self._forfeit_if_due(player, "director", by=by, at=when)
        return assessed


def _check_allowed(state: MatchState, players: tuple[str, ...], combine: int, why: str) -> None:
    rule = get_profile(state.profile).cite(Decision.BREAK)
    if state.meta and dict(state.meta).get(BEST_OF_THREE) == "yes" and state.length <= 7:
        raise BreakRefusedError("in a best-of-three series of matches to 7 or less, breaks are "
                                "taken only between matches", rule)  # fmt: skip
    if state.in_game and not why.strip():
        raise BreakRefusedError(
            "breaks are taken between games; give the exceptional circumstances of a break "
            "during a game (--exceptional)",
            rule,
        )
    allowed = allowance(state.profile, state.length) or 0
    for player in players:
        used = state.breaks.used[0 if player == "a" else 1]
        if used + combine > allowed:
            raise BreakRefusedError(
                f"{state.name(player)} has used {used} of {allowed} break(s) allowed in a "
                f"{state.length}-point match; {combine} more would exceed it",
                rule,
            )


def _scheduled_before(history: Sequence[MatchEvent]) -> str | None:
    """The scheduled start the last lateness assessment in force counted from, if given."""
    for event in reversed(in_force(list(history))):
        if not isinstance(event, PenaltyPointsAssessed) or event.kind != "late-start":
            continue
        if event.scheduled is not None:
            return event.scheduled
    return None


def _late_since(state: MatchState, scheduled: str | None) -> tuple[int, str]:
    """When lateness counts from (ms) and its kind: the end of the break, or the start.

    :raises PenaltyRefusedError: once the match is under way with no break on.
    """
    if state.breaks.open is not None:
        return state.breaks.open.ends_ms, "late-return"
    if state.game == 0 and state.phase is Phase.BETWEEN_GAMES and state.winner is None:
        start = _decide.stamp(scheduled, None) if scheduled else state.started_at
        return at_ms(start), "late-start"
    raise PenaltyRefusedError(
        "lateness counts from the starting time or the end of a break: the match is "
        "under way and no break is on",
        get_profile(state.profile).cite(Decision.PENALTY_POINTS),
    )
