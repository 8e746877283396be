"""Game clock commands: start, hit, stop, resume, read, set, flag, early pick-ups.

Each command checks the match's folded clock (:mod:`bgledger.projections.state.clock`) and
its profile's clock rules, then records through
:meth:`bgledger.commands.match.Match.append`; a refused command raises and records
nothing.  Figures are milliseconds; ``parse_clock`` reads ``M:SS``.

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("timed"), "timed", ("Ann", "Bob"), 5, by="kim",
    ...                     clock="simple-delay", at="2026-11-21T10:00:00+00:00")
    >>> match.state.timer.reserve_ms
    (600000, 600000)
    >>> match.opening(3, 1, by="kim", at="2026-11-21T10:00:05+00:00")
    >>> hit(match, by="kim", at="2026-11-21T10:00:06+00:00").player   # b starts a's clock
    'b'
    >>> _ = match.move("8/5 6/5", by="kim", at="2026-11-21T10:00:40+00:00")
    >>> _ = hit(match, by="kim", at="2026-11-21T10:00:46+00:00")       # 40 s: 12 s delay
    >>> clock_text(match.state.timer.reserve_ms[0])
    '9:32'
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bgledger.commands import decide as _decide
from bgledger.errors import ClockRefusedError, InvalidClockError, TimeNotExpiredError
from bgledger.events import (
    ClockHit,
    ClockRead,
    ClockResumed,
    ClockSet,
    ClockStarted,
    ClockStopped,
    MatchWon,
    TimeExpired,
)
from bgledger.projections.state.clock import REASONS, ClockState, at_ms, clock_text, figure, figures
from bgledger.projections.state.fold import MatchState, Phase, other
from bgledger.rules.profiles import ClockRules

if TYPE_CHECKING:
    from bgledger.commands.match import Match

__all__ = [
    "NOMINAL_MS",
    "SET_RULES",
    "clock_rules",
    "figures",
    "flag",
    "forfeit",
    "hit",
    "moment",
    "parse_clock",
    "read",
    "resume",
    "set_clock",
    "start",
    "stop",
    "timer_of",
]

NOMINAL_MS = 60_000
"""The nominal reserve reinstated when both expired (USBGF 4.3.3: the director's figure)."""
SET_RULES = ("USBGF 4.3.4", "USBGF 3.7.2", "USBGF 4.3.2(b)", "USBGF 4.3.3")
"""Why a director sets the clocks: errors, a faulty clock, a break, both expired."""
_CLOCK = re.compile(r"(?:(\d+):)?(\d{1,3}):(\d{2})(?:\.(\d{1,3}))?")


def parse_clock(text: str) -> int:
    """``M:SS``, ``H:MM:SS`` or ``M:SS.s`` as milliseconds.

    >>> parse_clock("9:32"), parse_clock("1:02:03"), parse_clock("0:04.5")
    (572000, 3723000, 4500)

    :raises InvalidClockError: for anything else.
    """
    found = _CLOCK.fullmatch(text.strip())
    if found is None or int(found.group(3)) > 59:
        raise InvalidClockError(f"clock figure {text!r}: write M:SS, e.g. 9:32 or 1:02:03")
    hours, minutes, seconds, fraction = found.groups()
    ms = int((fraction or "0").ljust(3, "0"))
    return ((int(hours or 0) * 60 + int(minutes)) * 60 + int(seconds)) * 1000 + ms


def clock_rules(match: Match, mode: str) -> ClockRules:
    """The profile's rules for clock ``mode``.

    :raises InvalidClockError: if the profile has no such clock.
    """
    rules = match.profile.clock(mode)
    if rules is None:
        raise InvalidClockError(f"profile {match.profile.name} has no {mode!r} clock")
    return rules


def timer_of(state: MatchState) -> ClockState:
    """The match's clock.

    :raises ClockRefusedError: if it has none, or the match is over.
    """
    if state.timer is None:
        raise ClockRefusedError(
            f"match {state.match_id} has no game clock: start one with "
            f"'bgledger clock {state.match_id} start simple-delay'",
            "USBGF 3.5.5",
        )
    if state.winner is not None:
        raise ClockRefusedError("the match is over", "USBGF 4.3.2(a)")
    return state.timer


def moment(match: Match, at: str | None) -> tuple[str, int]:
    """``at`` stamped (now if None) and in milliseconds.

    :raises InvalidTimeError: if malformed or before the match's last event.
    """
    when = _decide.stamp(at, match.state.last_at)
    return when, at_ms(when)


# -- setting up ---------------------------------------------------------------------


def start(
    match: Match,
    mode: str,
    *,
    reserve_ms: int | None = None,
    delay_ms: int | None = None,
    doubles: bool = False,
    by: str,
    at: str | None = None,
) -> ClockStarted:
    """Put a game clock on the match, set for the score (USBGF 3.5.5, 3.5.6; CLOCK 2.1, 2.2).

    :raises InvalidClockError: for a clock the profile lacks or a delay outside its range.
    :raises ClockRefusedError: if a clock is on already, the match is over, or
        (CLOCK 1.1) a Bronstein clock is brought in during a game.
    """
    state, rules = match.state, clock_rules(match, mode)
    if state.timer is not None:
        raise ClockRefusedError("a clock is already on: 'clock set' changes it", "USBGF 3.7.2")
    if state.winner is not None:
        raise ClockRefusedError("the match is over", "USBGF 3.5.6")
    if state.in_game and not rules.introduce_mid_game.value:
        refusal = f"a {mode} clock is brought in only between games"
        raise ClockRefusedError(refusal, rules.introduce_mid_game.rule)
    delay, delay_rule = _delay(rules, delay_ms, doubles)
    reserve, reserve_rule = _reserve(rules, state, reserve_ms, doubles)
    rule = reserve_rule or delay_rule or rules.basis.rule or mode
    when, _ = moment(match, at)
    return match.append(
        ClockStarted, by=by, at=when, mode=mode, delay_ms=delay,
        reserve_a_ms=reserve, reserve_b_ms=reserve, rule=rule,
    )  # fmt: skip


def _delay(rules: ClockRules, delay_ms: int | None, doubles: bool) -> tuple[int, str | None]:
    if doubles:
        chosen = rules.doubles_delay.value
        if delay_ms is None and chosen is None:
            raise InvalidClockError(
                "doubles delay: the director sets it (USBGF 3.5.5); give --delay"
            )
        return (
            delay_ms if delay_ms is not None else (chosen or 0) * 1000
        ), rules.doubles_delay.rule
    if delay_ms is None:
        return rules.delay.value * 1000, rules.delay.rule
    low, high = rules.delay_range.value
    if not low * 1000 <= delay_ms <= high * 1000:
        raise InvalidClockError(
            f"delay {delay_ms / 1000:g} s: {rules.delay_range.rule} allows {low}-{high} s"
        )
    return delay_ms, rules.delay_range.rule


def _reserve(
    rules: ClockRules, state: MatchState, reserve_ms: int | None, doubles: bool
) -> tuple[int, str | None]:
    length, (a, b) = state.length, state.score
    if reserve_ms is not None:
        if reserve_ms <= 0:
            raise InvalidClockError(f"reserve {clock_text(reserve_ms)}: must be more than 0:00")
        return reserve_ms, None
    if doubles:
        seconds = rules.doubles_reserve_seconds(length, a, b)
        if seconds is None:
            raise InvalidClockError(
                "doubles match time: the director sets it (USBGF 3.5.5); give --reserve"
            )
        return seconds * 1000, rules.doubles_reserve_per_point.rule
    mid_match = (a, b) != (0, 0) and rules.reserve_per_point_to_go.value is not None
    cited = rules.reserve_per_point_to_go if mid_match else rules.reserve_per_point
    return rules.reserve_seconds(length, a, b) * 1000, cited.rule


# -- the turn's end -------------------------------------------------------------------


def hit(match: Match, player: str | None = None, *, by: str, at: str | None = None) -> ClockHit:
    """``player`` (default: the one whose time runs) hits: his turn ends, his opponent's starts.

    After an opening roll the player with the lower die starts his
    opponent's clock (CLOCK 3.3); after that a player hits after his play,
    his double, his take, or a roll he cannot play (USBGF 4.1.8.1, CLOCK 3.4).

    :raises ClockRefusedError: without a clock, on a break, outside a game,
        for the player whose time is not running, or before the turn is done.
    """
    state = match.state
    timer = timer_of(state)
    if state.breaks.open is not None:
        raise ClockRefusedError("the players are on a break: end it first", "USBGF 4.3.2(b)")
    hitter = player or timer.turn or (other(state.actor) if state.actor else None)
    if hitter is None or state.phase in (Phase.BETWEEN_GAMES, Phase.OPENING, Phase.ENDING):
        raise ClockRefusedError(
            f"nobody hits now: {_decide.situation(state)}; after the opening roll the "
            "player with the lower die starts his opponent's clock",
            "CLOCK 3.3",
        )
    _check_hitter(state, timer, hitter)
    when, _ = moment(match, at)
    return match.append(ClockHit, by=by, at=when, player=hitter)


def _check_hitter(state: MatchState, timer: ClockState, hitter: str) -> None:
    if hitter not in ("a", "b"):
        raise InvalidClockError(f"player {hitter!r}: 'a' or 'b'")
    name = state.name
    if timer.turn is not None and timer.turn != hitter:
        raise ClockRefusedError(
            f"{name(hitter)}'s time is not running, {name(timer.turn)}'s is; if "
            f"{name(timer.turn)} never hit after the turn, later rolls and plays are void: "
            f"'bgledger missed-hit {state.match_id}'",
            "USBGF 4.1.8.1",
        )
    if state.actor == hitter:
        raise ClockRefusedError(
            f"{name(hitter)} has not finished the turn ({_decide.situation(state)}): a turn "
            "ends with a hit after a play, a double, a take or a roll that cannot be played",
            "USBGF 4.1.8.1",
        )


# -- stopping, reading and setting ----------------------------------------------------------


def stop(match: Match, reason: str, *, by: str, at: str | None = None) -> ClockStopped:
    """Both clocks stop for ``reason``: a code of
    :data:`~bgledger.projections.state.clock.REASONS` or its letter.

    :raises InvalidClockError: for a reason USBGF 4.3.2 does not list.
    :raises ClockRefusedError: if no time is running; for a break, which
        ``break start`` records.
    """
    code = _reason(reason)
    state = match.state
    timer = timer_of(state)
    if code == "break":
        raise ClockRefusedError(
            f"a break stops the clock when it is recorded: 'bgledger break {state.match_id} "
            "start PLAYER'",
            "USBGF 4.3.2(b)",
        )
    if not timer.running:
        raise ClockRefusedError(f"the clock is not running ({_stopped_why(timer)})", "USBGF 4.3.2")
    when, _ = moment(match, at)
    rule = f"USBGF 4.3.2({REASONS[code][0]})"
    return match.append(ClockStopped, by=by, at=when, reason=code, rule=rule)


def _reason(text: str) -> str:
    word = text.strip().lower().removeprefix("usbgf 4.3.2").strip("()")
    for code, (letter, _) in REASONS.items():
        if word in (code, letter) and letter:
            return code
    listed = ", ".join(f"{letter}) {code}" for code, (letter, _) in REASONS.items() if letter)
    raise InvalidClockError(f"stop reason {text!r}: USBGF 4.3.2 lists ({listed})")


def _stopped_why(timer: ClockState) -> str:
    if timer.stopped is None:
        return "nobody's time has started"
    return f"stopped: {REASONS[timer.stopped][1]}"


def resume(match: Match, *, by: str, at: str | None = None) -> ClockResumed:
    """The clock restarts for the player whose turn it was stopped in.

    :raises ClockRefusedError: if it is running, or stopped between turns
        (the next hit starts it), or the players are on a break.
    """
    state = match.state
    timer = timer_of(state)
    if state.breaks.open is not None:
        raise ClockRefusedError("the players are on a break: end it first", "USBGF 2.2.2")
    if timer.running or timer.turn is None:
        why = "it is running" if timer.running else f"{_stopped_why(timer)}: the next hit starts it"
        raise ClockRefusedError(f"nothing to resume: {why}", "USBGF 4.3.2")
    when, _ = moment(match, at)
    return match.append(ClockResumed, by=by, at=when, player=timer.turn)


def read(
    match: Match, shown: tuple[int, int], *, by: str, at: str | None = None
) -> tuple[int, int]:
    """The clock shows ``shown`` (a, b); returns its drift from the ledger's figures (shown - ours).

    :raises ClockRefusedError: without a clock.
    """
    timer = timer_of(match.state)
    when, now = moment(match, at)
    ours = figures(timer, now)
    match.append(ClockRead, by=by, at=when, reserve_a_ms=shown[0], reserve_b_ms=shown[1])
    return shown[0] - ours[0], shown[1] - ours[1]


def set_clock(
    match: Match,
    reserves: tuple[int, int],
    *,
    rule: str = SET_RULES[0],
    ruled_by: str = "director",
    reason: str,
    by: str,
    at: str | None = None,
) -> ClockSet:
    """The director sets both reserves (USBGF 3.7.2, 4.3.2(b), 4.3.3, 4.3.4).

    :raises InvalidClockError: for another rule, a negative figure or no reason.
    :raises ClockRefusedError: without a clock.
    """
    timer_of(match.state)
    if rule not in SET_RULES:
        raise InvalidClockError(f"rule {rule!r}: the clocks are set under {', '.join(SET_RULES)}")
    if min(reserves) < 0 or not reason.strip():
        raise InvalidClockError("a setting needs two figures of 0:00 or more and a reason")
    when, _ = moment(match, at)
    return match.append(
        ClockSet, by=by, at=when, reserve_a_ms=reserves[0], reserve_b_ms=reserves[1],
        rule=rule, ruled_by=ruled_by, reason=reason.strip(),
    )  # fmt: skip


# -- time expired -------------------------------------------------------------------------


def flag(
    match: Match, player: str, *, nominal_ms: int = NOMINAL_MS, by: str, at: str | None = None
) -> TimeExpired:
    """Someone announces that ``player``'s reserve has expired (USBGF 4.3.3, CLOCK 5.3).

    Confirmed by the ledger's own figure, ``player`` loses the match.  If
    both reserves are spent, nobody can show whose ran out first: both
    get ``nominal_ms`` (USBGF 4.3.3).

    :raises TimeNotExpiredError: if the ledger's figure shows time left.
    :raises ClockRefusedError: without a clock or after the match.
    """
    state = match.state
    timer = timer_of(state)
    if player not in ("a", "b"):
        raise InvalidClockError(f"player {player!r}: 'a' or 'b'")
    when, now = moment(match, at)
    left = figures(timer, now)
    mine = figure(timer, player, now)
    rule = clock_rules(match, timer.mode).expiry_loses_match.rule or "USBGF 4.3.3"
    if mine > 0:
        raise TimeNotExpiredError(
            f"{state.name(player)} has {clock_text(mine)} left by the ledger's figures: "
            "time has not expired",
            rule,
        )
    both = figure(timer, other(player), now) == 0
    figures_now = {"reserve_a_ms": left[0], "reserve_b_ms": left[1]}
    outcome = "both-expired" if both else "forfeit"
    with match.atomic():  # the expiry and what follows it, or nothing
        expired = match.append(
            TimeExpired, by=by, at=when, player=player, outcome=outcome, rule=rule, **figures_now
        )
        if both:
            reason = "both reserves had expired and neither can be shown to have run out first"
            nominal = (nominal_ms, nominal_ms)
            set_clock(match, nominal, rule="USBGF 4.3.3", reason=reason, by=by, at=when)
        else:
            forfeit(match, other(player), by=by, at=when)
    return expired


def forfeit(match: Match, winner: str, *, by: str, at: str) -> None:
    """``winner`` wins the match at the score as it stands (time or penalty forfeit)."""
    a, b = match.state.score
    match.append(MatchWon, by=by, at=at, winner=winner, score_a=a, score_b=b)
