"""The checks the :class:`~bgledger.commands.match.Match` commands make before recording.

Each check reads the folded :class:`~bgledger.projections.state.fold.MatchState` and the
match's rulebook profile and either passes or says what is wrong and which
rule says so, the rule of the profile's :class:`~bgledger.rules.profiles.Decision`.
Nothing here records anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bgledger.errors import (
    ActionRefusedError,
    CubeActionRefusedError,
    InvalidTimeError,
    InvalidVoidReasonError,
    MatchOverError,
    NextStep,
    OutOfTurnError,
)
from bgledger.projections.state.allowed import (
    Problem,
    bound,
    cube_problem,
    hit_blocks,
    hit_due,
    must_double,
    resignation_problem,
)
from bgledger.projections.state.clock import at_ms, figure
from bgledger.projections.state.fold import MatchState, Phase, other
from bgledger.projections.state.situation import premature_situation, situation
from bgledger.rules.judge import Judgement
from bgledger.rules.legal import legal_plays
from bgledger.rules.profiles import Decision, Profile, get_profile
from bgledger.rules.results import GameResult

__all__ = [
    "Problem",
    "check_cube_limit",
    "claim_of",
    "cube_problem",
    "flags",
    "match_winner",
    "next_step",
    "parse_level",
    "premature_situation",
    "refuse_unless",
    "require_phase",
    "resignation_problem",
    "same_checker",
    "situation",
    "stamp",
    "void_reason_rule",
    "vouched_time",
]

_PENDING = {
    Phase.DOUBLED: Decision.TAKE_OR_DROP,
    Phase.RESIGNED: Decision.RESIGNATION,
    Phase.PREMATURE_ROLL: Decision.PREMATURE_ROLL,
    Phase.BETWEEN_GAMES: Decision.BASIC_RULES,
    Phase.OPENING: Decision.BASIC_RULES,
}
"""What is pending in each phase that has something pending: its decision is cited."""


def flags(problem: Problem | None) -> dict[str, Any]:
    """The ``legal``/``reason``/``rule`` fields of an event recorded despite ``problem``."""
    if problem is None:
        return {"legal": True, "reason": None, "rule": None}
    return {"legal": False, "reason": problem[0], "rule": problem[1]}


def refuse_unless(
    as_played: bool,
    problem: Problem | None,
    error: type[ActionRefusedError],
    what: str,
    *,
    state: MatchState,
    command: Sequence[str],
) -> None:
    """Raise ``error`` for ``problem`` unless the action is recorded ``as_played``.

    The refusal's next step is ``command`` with ``--as-played`` if the action
    happened at the board, and else what is due instead (:func:`next_step`).
    """
    if problem is not None and not as_played:
        made = "if it happened at the board, record it as played: {}"
        due = next_step(state, command[0])
        text = f"{made}; if not, {due.text}" if due else made
        commands = ((*command, "--as-played"), *(due.commands if due else ()))
        raise error(f"{what}: {problem[0]}", problem[1], NextStep(text, commands, state.match_id))


def void_reason_rule(profile: Profile, reason: str) -> str:
    """The rule that makes a roll invalid for ``reason`` (a code of the profile).

    :raises InvalidVoidReasonError: for a reason the profile does not know.
    """
    known = profile.rolls.void_reason(reason)
    if known is None:
        codes = ", ".join(r.code for r in profile.rolls.void_reasons) or "none: the server rolls"
        rule = profile.cite(Decision.VOID_ROLL)
        raise InvalidVoidReasonError(
            f"{reason!r} is not a reason to void a roll under {profile.name} ({rule}): {codes}"
        )
    return known.cite.rule or ""


def same_checker(state: MatchState, verdict: Judgement) -> Judgement:
    """``verdict``, made illegal if it ignores CLASSIC 10 after a reverted play.

    The rule cited is the profile's for :attr:`~Decision.SAME_CHECKER`.

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
    rule = get_profile(state.profile).cite(Decision.SAME_CHECKER)
    return replace(verdict, legal=False, reason=reason, rule=rule, decision=Decision.SAME_CHECKER)


def require_phase(state: MatchState, action: str, decision: Decision, *phases: Phase) -> None:
    """Refuse ``action`` unless the match is in one of ``phases``.

    The rules cited are the match's profile's (ABT 4.9, USBGF 2.2.2 ... under
    ``usbgf-2016``).

    :raises MatchOverError: if the match is over (:attr:`~Decision.MATCH_OVER`).
    :raises OutOfTurnError: during a break (:attr:`~Decision.BREAK`), otherwise
        citing the rule of what is pending (a take or drop, an answer to a
        concession, to a premature roll, an opening roll) or else ``decision``'s.
    """
    profile = get_profile(state.profile)
    verb = action.split()[0]
    if state.breaks.open is not None and state.phase is not Phase.OVER:
        raise OutOfTurnError(
            f"cannot {action}: the players are on a break",
            profile.cite(Decision.BREAK),
            next_step(state, verb),
        )
    if state.phase in phases:
        return
    if state.phase is Phase.OVER:
        raise MatchOverError(
            f"cannot {action}: {situation(state)}",
            profile.cite(Decision.MATCH_OVER),
            next_step(state, verb),
        )
    pending = _PENDING.get(state.phase, decision)
    raise OutOfTurnError(
        f"cannot {action}: {situation(state)}", profile.cite(pending), next_step(state, verb)
    )


_DICE = ("6", "4")
"""The dice of an example roll in a next step (the issue's own example)."""
_OPENING = ("3", "1")
"""The dice of an example opening roll: player a's die, then player b's."""


def next_step(state: MatchState, action: str = "") -> NextStep | None:
    """What a scorekeeper records next in ``state``, having tried ``action`` (a verb).

    The action that is due: the end of a break, a clock hit (USBGF 4.1.8.1, where the
    profile refuses the next action before it), an opening roll, a roll, a
    play (with an example: a legal play of the dice), an answer to a double,
    to a concession or to an early roll.  A scorekeeper who tried ``take`` or
    ``drop`` while the player on roll may double is shown the double.
    ``None`` while nothing is due (a game's result follows at once).

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("m"), "m", ("Ann", "Ben"), 5, by="kim")
    >>> next_step(match.state, "roll").text_for_command_line()
    "record game 1's opening roll first, e.g. `opening m 3 1` (Ann's die, then Ben's)"
    >>> match.opening(3, 1, by="kim")
    >>> next_step(match.state, "roll").text_for_record()
    "record Ann's play of 3-1 first, e.g. `move 24/23 24/21`"
    """
    turn, phase = state.turn or "a", state.phase

    def name(player: str) -> str:
        return NextStep.literal(state.name(player))

    def step(text: str, *commands: tuple[str, ...]) -> NextStep:
        return NextStep(text, commands, state.match_id)

    if state.breaks.open is not None and phase is not Phase.OVER:
        return step("record the end of the break first: {}", ("break", "end"))
    due = hit_due(state)
    if due is not None and action != "hit" and hit_blocks(state, get_profile(state.profile)):
        return step(f"record {name(due)}'s clock hit first: {{}}", ("hit",))
    if phase in (Phase.BETWEEN_GAMES, Phase.OPENING):
        again = " again" if phase is Phase.OPENING else " first"
        number = state.game + (phase is Phase.BETWEEN_GAMES)
        return step(
            f"record game {number}'s opening roll{again}, e.g. {{}} "
            f"({name('a')}'s die, then {name('b')}'s)",
            ("opening", *_OPENING),
        )
    doubling = phase is Phase.ROLL and action in ("take", "drop")
    if doubling and cube_problem(state, get_profile(state.profile), turn) is None:
        return step(f"record {name(turn)}'s double first: {{}}", ("double",))
    if must_double(state, get_profile(state.profile)):  # he said so (USBGF 4.4.3)
        return step(f"record {name(turn)}'s double first: {{}}", ("double",))
    if phase in (Phase.ROLL, Phase.REROLL):
        again = "new " if phase is Phase.REROLL else ""
        return step(f"record {name(turn)}'s {again}roll first, e.g. {{}}", ("roll", *_DICE))
    if phase is Phase.PLAY and state.dice is not None:
        dice = f"{state.dice[0]}-{state.dice[1]}"
        example = legal_plays(state.position, state.dice)[0].play
        if not example.moves:
            return step(f"record that {name(turn)} cannot move {dice} first: {{}}", ("move", ""))
        text = f"record {name(turn)}'s play of {dice} first, e.g. {{}}"
        return step(text, ("move", str(example)))
    if phase is Phase.PREMATURE_ROLL and state.premature is not None:
        early = name(state.premature.player)
        text = f"record {name(turn)}'s answer to {early}'s early roll first: {{}} or {{}}"
        return step(text, ("accept-roll",), ("refuse-roll",))
    if phase is Phase.DOUBLED and bound(state, other(turn), "pass"):  # USBGF 4.4.4
        return step(f"record {name(other(turn))}'s drop first: {{}}", ("drop",))
    if phase is Phase.DOUBLED:
        text = f"record {name(other(turn))}'s answer to the double first: {{}} or {{}}"
        return step(text, ("take",), ("drop",))
    if phase is Phase.RESIGNED and state.resignation is not None:
        answer = name(other(state.resignation.player))
        return step(f"record {answer}'s answer first: {{}} or {{}}", ("accept",), ("reject",))
    if phase is Phase.OVER:
        return step(
            "nothing more is recorded in this match; the next match starts with "
            "`start --a NAME --b NAME --length N`"
        )
    return None


def match_winner(state: MatchState) -> str | None:
    """Who has won the match at ``state``'s score, if anyone (ABT 4.9, USBGF 4.8.5(b)-(d)).

    One player at or past the length wins; both past it, the higher score
    wins, and a tie there is decided by the next game.
    """
    a, b = state.score
    if max(a, b) < state.length or a == b:
        return None
    return "a" if a > b else "b"


def check_cube_limit(profile: Profile, value: int) -> None:
    """Refuse a cube turned to ``value`` past the profile's limit (:class:`Limits
    <bgledger.rules.profiles.Limits>`), even one recorded as played: what a drop would score.

    :raises CubeActionRefusedError: for such a level.
    """
    most = profile.limits.cube.value
    if not 1 <= value <= most:
        raise CubeActionRefusedError(
            f"a cube at {value}: {profile.name} turns the cube to {most} at most, even as played",
            profile.cite(Decision.CUBE_LEVEL),
        )


def parse_level(text: str) -> str:
    """``'single'``, ``'gammon'`` or ``'backgammon'``.

    :raises InvalidResultError: for anything else.
    """
    return str(GameResult.parse(text))


FUTURE_TOLERANCE = timedelta(seconds=5)
"""How far ahead of this machine's clock a time may be: two devices at a table disagree by a
second or two; more is a wrong time, or one that would hold the match's next lines back."""
EARLIEST_YEAR = 1900
"""No backgammon match on record is older; an earlier year is a typing error."""


def stamp(at: str | None, previous: str | None) -> str:
    """``at`` as an ISO 8601 time with a UTC offset (now if ``None``).

    A time without an offset is the machine's local time.  Times never go
    backwards: an explicit ``at`` before the match's last event is refused.
    ``None`` (an untimed line) is never refused for its time: it is now, or
    the match's last event's time if that is later (by the few seconds a time
    may be ahead, unless this machine's clock went back), so another client's
    time a little ahead never holds the match's next lines back.

    ``previous`` is the match's last event *at the table*
    (:attr:`~bgledger.projections.state.fold.MatchState.last_at`): a
    bookkeeping entry (:attr:`~bgledger.events.MatchEvent.bookkeeping`, a note or a
    copy's provenance written later) keeps no match time, so it holds no later line back.

    :raises InvalidTimeError: if ``at`` is not ISO 8601, is before the year
        :data:`EARLIEST_YEAR` or more than :data:`FUTURE_TOLERANCE` ahead of
        this machine's clock, or if it is earlier than ``previous`` (the
        match's last event at the table): events are kept in the order they happened.
    """
    now = datetime.now(UTC)
    last = datetime.fromisoformat(previous) if previous else None
    if at is None:
        return (now if last is None or now >= last else last).isoformat()
    when = _checked_time(at, now, last)
    if last is not None and when < last:
        raise InvalidTimeError(
            f"--at {at!r} is before the match's last event, at {previous}: "
            "events are recorded in the order they happened"
        )
    return when.isoformat()


def vouched_time(
    at: str, state: MatchState, *, claim_only: bool, now: datetime | None = None
) -> tuple[str, str]:
    """A token's line at ``at``: the time the match takes it at, and the claim kept beside it
    (:attr:`~bgledger.events.MatchEvent.claimed`, ``""`` for none), received ``now``.

    DESIGN principle 13, time has two witnesses: the recorder's claim and the ledger's
    receipt.  ``claim_only`` is a scorekeeper's token, whose time is his pad's claim: it
    stands unless a decision on time was already due when the ledger received the line:

    - the running player's reserve had run out by then (on the ledger's figures, folded from
      the entries before it): the line is taken at its received time, so a late line never
      gives back time that had run out, the flag of that player stands and his opponent's
      time starts when the ledger learnt of the hit;
    - a break had run past its allowance by then: the break's end (and any lateness) is
      decided at the received time, so a backdated ``break end`` costs its penalty points.

    A scorekeeper's time later than now (by the few seconds allowed) is now; any token's
    before the match's last event is taken at that event's time, the claim kept and shown (a
    phone whose clock stepped back, a server clock stepped forward and corrected): it never
    blocks the lines after it.  A director can rule otherwise: ``clock set``, ``penalty``, a ruling.

    :raises InvalidTimeError: as :func:`stamp`, for a time that is no time or too far ahead.
    """
    now = now or datetime.now(UTC)
    when = _checked_time(at, now)
    claim = when.isoformat()
    if claim_only and _due_by(state, now):  # decided on the time the ledger vouches for
        return stamp(None, state.last_at), claim
    if state.last_at and when < datetime.fromisoformat(state.last_at):
        return state.last_at, claim
    if when > now:  # a scorekeeper's: the server's time; another's within the allowance stands
        return (stamp(None, state.last_at) if claim_only else claim), ""
    return claim, claim if claim_only else ""


def _due_by(state: MatchState, now: datetime) -> bool:
    """True if a decision on time was due at ``now``: the running reserve run out, or a break
    past its allowance (:func:`vouched_time`)."""
    now_ms = at_ms(now.isoformat())
    timer = state.timer
    if timer is not None and timer.running and timer.turn is not None:
        return figure(timer, timer.turn, now_ms) == 0 or _break_over(state, now_ms)
    return _break_over(state, now_ms)


def _break_over(state: MatchState, now_ms: int) -> bool:
    """True if a break is on and past its allowance at ``now_ms``."""
    opened = state.breaks.open
    return opened is not None and now_ms > opened.ends_ms


def claim_of(at: str | None) -> datetime | None:
    """The moment a line's ``at`` gives, None for an untimed line (:func:`vouched_time`).

    :raises InvalidTimeError: as :func:`stamp`, for a time that is no time or too far ahead.
    """
    return None if at is None else _checked_time(at, datetime.now(UTC))


def _checked_time(at: str, now: datetime, last: datetime | None = None) -> datetime:
    """``at`` read, with the offset of this machine's zone if it gives none.

    A time no later than ``last`` (the match's last event) is never in the future: it holds
    nothing back, even after this machine's clock went back (a clock stepped forward and
    corrected, the line stamped at the last event's time: :func:`stamp`).

    :raises InvalidTimeError: as :func:`stamp`, the order of events aside.
    """
    try:
        when = datetime.fromisoformat(at.strip())
        if when.tzinfo is None:
            when = when.astimezone()
        ahead = when - now
    except (ValueError, OverflowError, OSError):
        raise InvalidTimeError(
            f"--at {at!r} is not an ISO 8601 time (e.g. 2026-11-21T14:05:00+01:00)"
        ) from None
    if when.year < EARLIEST_YEAR:
        raise InvalidTimeError(f"--at {at!r}: a year before {EARLIEST_YEAR} is not a match's")
    if ahead > FUTURE_TOLERANCE and (last is None or when > last):
        raise InvalidTimeError(
            f"--at {at!r} is in the future (this machine's clock says "
            f"{now.isoformat(timespec='seconds')}; a time may be "
            f"{FUTURE_TOLERANCE.seconds} seconds ahead at most): record what has happened"
        )
    return when
