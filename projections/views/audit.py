"""The audit trail: every event of a match, numbered, dated and described in words.

``bgledger history`` prints :func:`history`; ``history --json`` prints
:func:`history_json`.  Each event is described against the state just before
and just after it, as the one fold (:func:`bgledger.projections.state.fold.apply`) works it
out, so the words use the players' names, the cube and the score of the
moment.  An event that records something the rules forbid (an illegal play, a
forbidden double or concession made at the board, DESIGN principle 2) is
flagged, with its rule.

A ruling (a compensating event) is described with the rule, who ruled, what
it voids or puts back in force and why;
every event a ruling in force took out of force carries that ruling's number
in ``voided_by`` (:func:`bgledger.projections.state.corrected.voided_by`): nothing is ever
deleted, so the trail shows what was recorded and what stands.

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("demo"), "demo", ("Ann", "Bob"), 3, by="kim")
    >>> match.opening(3, 1, by="kim")
    >>> [entry.text for entry in history(match.collect_events())][1:]
    ['game 1 started', 'opening roll: Ann 3, Bob 1: Ann plays first']

The clock, break and penalty-point events carry the game clocks as the
ledger works them out at the event's time
(:func:`bgledger.projections.state.clock.figures`)::

    Bob hit the clock: Ann's time runs (Bob 9:28, Ann 9:32)
    clock stopped: a dispute, or the director was called (USBGF 4.3.2(d)); Ann 9:32, Bob 9:59
    clock read Ann 9:31, Bob 10:16; the ledger has 9:32, 10:00: drift -0:01 / +0:16
    Ann's reserve expired (USBGF 4.3.3): Bob wins the match on time
    break (USBGF 2.2.2): Bob, 5 minutes, until 10:15 (Ann 9:24, Bob 9:29 on the clock)
    break of 5 minutes ended 17 minutes over: Bob returned late
    1 penalty point against Bob (USBGF 2.2.4: 17 minutes late after the end of the break): ...

A match won on time or by penalty points says so (:func:`ending`, which the
score sheet's final line shares), and every entry of a match with a clock
carries the clock's figures after it (:class:`ClockReading`, for
``history --json``).

A ruling (:class:`~bgledger.events.RulingMade`) is described with the events
it names, not only the state around it::

    RULING (USBGF 4.2.3(a), director): event 4 void: Ann's illegal play 13/10 13/8
    taken back, Ann to play 5-2 again; reason: moved a 5 and a 3

The line gives the rule, who ruled (and whether the players agreed, USBGF
4.2.3(f)), the events voided or put back in force, what the ruling does to
the match, and the ruler's reason.

The premature actions (USBGF 4.1.7.1, 4.4.7, ABT 4.6) read::

    Bob rolled 6-5 early, while Ann was still to move: Ann accepts or refuses it (USBGF 4.1.7.1)
    Ann refused Bob's early 6-5 (the Fast Roll Rule, USBGF 4.1.7.1): Bob rolls again ...
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any, TypedDict, TypeVar

from bgledger.events import (
    BreakEnded,
    BreakStarted,
    CallCorrected,
    CheckersPlayed,
    ClockHit,
    ClockHitImplied,
    ClockRead,
    ClockRestored,
    ClockResumed,
    ClockSet,
    ClockStarted,
    ClockStopped,
    ConcessionAcceptanceRequired,
    ConcessionVoided,
    CopyImported,
    CrawfordPassNullified,
    CubeActionVoided,
    CubeDropped,
    CubeLevelCorrected,
    CubeOffered,
    CubeStatementMade,
    CubeTaken,
    DiceRolled,
    DiceSet,
    EntryAmended,
    EntryCorrected,
    EntryWithdrawn,
    GameStarted,
    GameWon,
    ManAdjusted,
    ManTouched,
    MatchEvent,
    MatchForfeited,
    MatchLengthCorrected,
    MatchStarted,
    MatchWon,
    OpeningRollMade,
    PenaltyPointsAssessed,
    PlaysReverted,
    PrematureDoubleMade,
    PrematureRollAccepted,
    PrematureRollMade,
    PrematureRollRefused,
    RemarkRecorded,
    ReserveTimePenalized,
    ReserveTimeRestored,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    RollVoided,
    RulingMade,
    RulingNoted,
    RulingOverturned,
    ScoreCorrected,
    SingleDiceAgreed,
    SocialDoubleMade,
    StartingPositionCorrected,
    StartingPositionRecorded,
    ThrowCalled,
    TimeExpired,
    UnplayablePlayRecorded,
)
from bgledger.projections.state import fold as the_fold
from bgledger.projections.state.allowed import STATEMENT_WORDS
from bgledger.projections.state.clock import at_ms, clock_text, figure, figures, reason_text
from bgledger.projections.state.corrected import voided_by
from bgledger.projections.state.corrections import replacement
from bgledger.projections.state.fold import Crawford, apply, needs_history
from bgledger.projections.state.model import MatchState, Phase, game_points, other, seat
from bgledger.projections.state.situation import score_text
from bgledger.projections.state.witness import witness_text
from bgledger.projections.views.words import (
    numbers_text,
    points_of,
    profile_of,
    rule_for,
    ruled_by_text,
)
from bgledger.rules.profiles import PROFILES, Decision, PrematureRoll
from bgledger.rules.results import GameResult

__all__ = [
    "HISTORY_LEGEND",
    "PREMATURE_DESCRIBERS",
    "TIME_DESCRIBERS",
    "ClockReading",
    "HistoryEntry",
    "RulingDetails",
    "clock_reading",
    "describe",
    "describe_ruling",
    "ending",
    "folded_entries",
    "game_headings",
    "history",
    "history_json",
    "history_line",
    "history_text",
    "in_zone",
    "match_won_text",
    "match_zone",
    "mode_text",
    "penalty_text",
    "provenance",
    "provenance_text",
    "recorded_entries",
    "result_text",
    "ruling_details",
    "ruling_effect",
    "score_text",
    "signed_clock",
    "wall_clock",
    "worded_alone",
    "zone_text",
]


# -- premature actions (USBGF 4.1.7.1, 4.4.7, ABT 4.6) -------------------------------------


def _stands(state: MatchState) -> str | None:
    """The rule by which premature rolls stand under the match's profile, if they do."""
    profile = PROFILES.get(state.profile)
    if profile is None or profile.rolls.premature_roll.value is not PrematureRoll.STANDS:
        return None
    return profile.rolls.premature_roll.rule or profile.name


def _fast_roll(state: MatchState) -> str:
    """The rule of a premature roll the mover may accept or refuse (the Fast Roll Rule)."""
    return rule_for(state.profile, Decision.PREMATURE_ROLL)


def _early_roll(event: PrematureRollMade, before: MatchState, after: MatchState) -> str:
    roller, mover = after.name(event.player), after.name(other(event.player))
    text = f"{roller} rolled {event.die1}-{event.die2} early, while {mover} was still to move"
    if after.phase is Phase.PREMATURE_ROLL and _stands(after) is None:
        return f"{text}: {mover} accepts or refuses it ({_fast_roll(after)})"
    return text


def _dice(state: MatchState) -> str:
    early = state.premature
    return f"{early.a}-{early.b}" if early is not None else "roll"


def _accepted(event: PrematureRollAccepted, before: MatchState, after: MatchState) -> str:
    mover, roller = after.name(event.player), after.name(other(event.player))
    dice = _dice(before)
    stands = _stands(after)
    if stands is not None:
        head = f"{roller}'s early {dice} stands ({stands})"
    else:
        head = f"{mover} accepted {roller}'s early {dice} ({_fast_roll(after)})"
    return f"{head}: {mover} moves knowing it, then {roller} plays it"


def _refused(event: PrematureRollRefused, before: MatchState, after: MatchState) -> str:
    mover, roller = after.name(event.player), after.name(other(event.player))
    return (
        f"{mover} refused {roller}'s early {_dice(before)} (the Fast Roll Rule, "
        f"{_fast_roll(after)}): {roller} rolls again after {mover}'s move"
    )


def _early_double(event: PrematureDoubleMade, before: MatchState, after: MatchState) -> str:
    doubler, mover = after.name(event.player), after.name(other(event.player))
    text = f"{doubler} doubled to {event.value} early, while {mover} was still to move"
    if not event.legal:
        why = f": {event.reason}" if event.reason else ""
        cited = f" ({event.rule})" if event.rule else ""
        return f"ILLEGAL: {text}{why}{cited}"
    profile = PROFILES.get(after.profile)
    stands = profile.cube.premature_double_stands.rule if profile else None
    rule = stands or rule_for(after.profile, Decision.PREMATURE_DOUBLE)
    return f"{text}: it stands ({rule}); {mover} takes or drops after moving"


PREMATURE_DESCRIBERS: dict[type[MatchEvent], Callable[[Any, MatchState, MatchState], str]] = {
    PrematureRollMade: _early_roll,
    PrematureRollAccepted: _accepted,
    PrematureRollRefused: _refused,
    PrematureDoubleMade: _early_double,
}
"""The describer of each premature event: ``(event, before, after) -> text``."""


# -- rulings -------------------------------------------------------------------------------


Events = Mapping[int, MatchEvent]


@dataclass(frozen=True, slots=True)
class RulingDetails:
    """What a ruling's history entry adds: who ruled, why, and what it voided or restored.

    :ivar ruled_by: ``director``, ``committee`` or ``players``.
    :ivar reason: the ruler's words.
    :ivar agreed: the players agreed to the correction (USBGF 4.2.3(f)).
    :ivar voids: the events the ruling took out of force.
    :ivar restores: the events it put back in force (an appeal).
    """

    ruled_by: str
    reason: str
    agreed: bool
    voids: tuple[int, ...]
    restores: tuple[int, ...]


def ruling_details(event: MatchEvent) -> RulingDetails | None:
    """What a ruling's history entry adds; None for any other event."""
    if not isinstance(event, RulingMade):
        return None
    return RulingDetails(
        event.ruled_by, event.reason, event.agreed, tuple(event.voids), tuple(event.restores)
    )


def describe_ruling(
    event: RulingMade, before: MatchState, after: MatchState, events: Events
) -> str:
    """``event`` in one line: rule, ruler, what it voids or restores, what it does, and why.

    ``events`` maps the match's event numbers to its events (those the ruling
    names are described from it; a missing one is named by its number only).
    """
    head = f"RULING ({ruled_by_text(event.rule, event.ruled_by, event.agreed)})"
    return f"{head}: {ruling_effect(event, after, events)}; reason: {event.reason}"


def ruling_effect(event: RulingMade, after: MatchState, events: Events) -> str:
    """What ``event`` does, in words: what it voids or restores, then what that means.

    The middle of its history line (:func:`describe_ruling`); the director's picker
    shows it for a ruling not yet made.
    """
    named = [numbers_text(event.voids) + " void"] if event.voids else []
    if event.restores:
        named.append(numbers_text(event.restores) + " back in force")
    parts = [", ".join(named)] if named else []
    explain = _EXPLAINERS.get(type(event))
    if explain is not None:
        parts.append(explain(event, after, events))
    return ": ".join(parts)


def _doubler(number: int, after: MatchState, events: Events) -> str:
    offered = events.get(number)
    if isinstance(offered, CubeOffered):
        return f"{after.name(offered.player)}'s double to {offered.value} (event {number})"
    return f"the double at event {number}"


def _reverted(event: PlaysReverted, after: MatchState, events: Events) -> str:
    play = events.get(event.event)
    if not event.voids:  # a missed hit with only a take on the doubler's time (USBGF 4.1.8.1)
        return f"nothing nullified: no roll or move was made on the time of event {event.event}"
    if isinstance(play, CheckersPlayed | UnplayablePlayRecorded):
        shown = play.play or "(no move)"
        what = f"{after.name(play.player)}'s illegal play {shown} taken back"
    elif isinstance(play, DiceRolled | PrematureRollMade):  # a missed hit (USBGF 4.1.8.1)
        roll = f"{play.die1}-{play.die2}"
        what = f"{after.name(play.player)}'s roll {roll} and what followed nullified"
        if after.timer is not None and after.timer.turn is not None:
            what += f": {after.name(after.timer.turn)}'s turn goes on until the clock is hit"
    else:
        what = f"the play at event {event.event} taken back"
    if after.turn is not None and after.dice is not None:
        what += f", {after.name(after.turn)} to play {after.dice[0]}-{after.dice[1]} again"
    return what


def _cube_voided(event: CubeActionVoided, after: MatchState, events: Events) -> str:
    social = events.get(event.event)
    if isinstance(social, SocialDoubleMade):  # USBGF 4.4.10
        what = f"{after.name(social.player)}'s beaver" if social.player else "the automatic double"
        return f"{what} to {social.value} (event {event.event}) is void: the cube is {after.cube}"
    return (
        f"{_doubler(event.event, after, events)} and its take are void: "
        f"the game counts as if the cube had not turned"
    )


def _pass_nullified(event: CrawfordPassNullified, after: MatchState, events: Events) -> str:
    return (
        f"{_doubler(event.event, after, events)} and its pass are nullified: "
        f"the game resumes at the double"
    )


def _concession_voided(event: ConcessionVoided, after: MatchState, events: Events) -> str:
    conceded = events.get(event.event)
    what = f"the concession at event {event.event}"
    if isinstance(conceded, ResignationOffered):
        who = after.name(conceded.player)
        what = f"{who}'s concession of a {conceded.level} (event {event.event})"
    return f"{what} and its acceptance are void: the game resumes where it was conceded"


def _level(event: CubeLevelCorrected, after: MatchState, events: Events) -> str:
    return f"{_doubler(event.event, after, events)} stands at {event.value}"


def _length(event: MatchLengthCorrected, after: MatchState, events: Events) -> str:
    when = " from the next game" if after.next_length == event.length else ""
    return f"the match is {points_of(event.length)}{when}"


def _score(event: ScoreCorrected, after: MatchState, events: Events) -> str:
    a, b = after.players
    return f"the score is {a} {event.score_a}, {b} {event.score_b}"


def _noted(event: RulingNoted, after: MatchState, events: Events) -> str:
    return "noted for the record"


def _overturned(event: RulingOverturned, after: MatchState, events: Events) -> str:
    return f"ruling {event.ruling} overturned on appeal"


def _setup(event: StartingPositionCorrected, after: MatchState, events: Events) -> str:
    if event.replayed:
        return f"setup of event {event.event} corrected: the game starts again with new rolls"
    return f"setup of event {event.event} corrected: the plays so far stand on the right position"


_EXPLAINERS: dict[type[RulingMade], Callable[[Any, MatchState, Events], str]] = {
    StartingPositionCorrected: _setup,
    PlaysReverted: _reverted,
    CubeActionVoided: _cube_voided,
    CrawfordPassNullified: _pass_nullified,
    ConcessionVoided: _concession_voided,
    CubeLevelCorrected: _level,
    MatchLengthCorrected: _length,
    ScoreCorrected: _score,
    RulingNoted: _noted,
    RulingOverturned: _overturned,
}


# -- the clock, breaks and penalty points --------------------------------------------------


_MODES = {"simple-delay": "simple delay", "bronstein": "Bronstein delay"}


@dataclass(frozen=True, slots=True)
class ClockReading:
    """The game clocks just after an event, at its time (``history --json``'s ``clock``).

    :ivar reserve_a_ms: ``a``'s reserve as his clock shows it, in milliseconds.
    :ivar reserve_b_ms: ``b``'s.
    :ivar running: whose time runs (``a``, ``b``), or None.
    :ivar stopped: why the clock is stopped (a key of
    :data:`bgledger.projections.state.clock.REASONS`).
    """

    reserve_a_ms: int
    reserve_b_ms: int
    running: str | None
    stopped: str | None


def clock_reading(event: MatchEvent, state: MatchState) -> ClockReading | None:
    """The clocks of ``state`` (the state ``event`` made) at its time; None without a clock."""
    timer = state.timer
    if timer is None:
        return None
    a, b = figures(timer, at_ms(event.at))
    return ClockReading(a, b, timer.turn if timer.running else None, timer.stopped)


def mode_text(mode: str) -> str:
    """A clock mode in words: ``'simple delay'``, ``'Bronstein delay'``."""
    return _MODES.get(mode, mode)


def signed_clock(ms: int) -> str:
    """A difference of clock figures: ``'+0:16'``, ``'-0:01'``."""
    return ("-" if ms < 0 else "+") + clock_text(abs(ms))


def _shown(state: MatchState, now: int, order: tuple[str, str] = ("a", "b")) -> str:
    """``'Ann 9:32, Bob 10:00'``: the clocks at ``now``, in ``order``; '' without a clock."""
    timer = state.timer
    if timer is None:
        return ""
    return ", ".join(f"{state.name(p)} {clock_text(figure(timer, p, now))}" for p in order)


def _pair(state: MatchState, reserves: tuple[int, int]) -> str:
    if reserves[0] == reserves[1]:
        return f"{clock_text(reserves[0])} each"
    a, b = state.players
    return f"{a} {clock_text(reserves[0])}, {b} {clock_text(reserves[1])}"


def _why(reason: str) -> str:
    return f"; reason: {reason}" if reason else ""


# -- the clock ----------------------------------------------------------------------------


def _started(event: ClockStarted, before: MatchState, after: MatchState) -> str:
    reserves = _pair(after, (event.reserve_a_ms, event.reserve_b_ms))
    rules = profile_of(after.profile).clock(event.mode)
    opening = rules is not None and rules.opening_starts_clock.value
    starts = "the opening roll" if opening and before.phase in _OPENING_NEXT else "the next hit"
    return (
        f"game clock set: {mode_text(event.mode)} ({event.rule}), {event.delay_ms / 1000:g} s "
        f"delay, {reserves}; {starts} starts it"
    )


_OPENING_NEXT = (Phase.BETWEEN_GAMES, Phase.OPENING)
"""Where the next opening roll starts a clock just set (CLOCK 3.3), not the next hit."""


def _hit(event: ClockHit, before: MatchState, after: MatchState) -> str:
    hitter, opponent = event.player, other(event.player)
    shown = _shown(after, at_ms(event.at), (hitter, opponent))
    how = "rolled the lower die" if before.opening_dice else "hit the clock"
    return f"{after.name(hitter)} {how}: {after.name(opponent)}'s time runs ({shown})"


def _hit_implied(event: ClockHitImplied, before: MatchState, after: MatchState) -> str:
    hitter, opponent = event.player, other(event.player)
    shown = _shown(after, at_ms(event.at), (hitter, opponent))
    return (
        f"{after.name(hitter)}'s hit was not recorded: {after.name(opponent)}'s action next "
        f"implies it ({event.rule}); {after.name(opponent)}'s time runs ({shown})"
    )


def _stopped(event: ClockStopped, before: MatchState, after: MatchState) -> str:
    why = reason_text(event.reason, profile_of(after.profile))
    return f"clock stopped: {why} ({event.rule}); {_shown(after, at_ms(event.at))}"


def _resumed(event: ClockResumed, before: MatchState, after: MatchState) -> str:
    shown = _shown(after, at_ms(event.at))
    return f"clock restarted: {after.name(event.player)}'s time runs again ({shown})"


def _read(event: ClockRead, before: MatchState, after: MatchState) -> str:
    (a, b), read = after.players, (event.reserve_a_ms, event.reserve_b_ms)
    head = f"clock read {a} {clock_text(read[0])}, {b} {clock_text(read[1])}"
    if before.timer is None:
        return head
    ours = figures(before.timer, at_ms(event.at))
    drift = (read[0] - ours[0], read[1] - ours[1])
    if max(abs(d) for d in drift) < 1000:
        return f"{head}: as the ledger has it"
    return (
        f"{head}; the ledger has {clock_text(ours[0])}, {clock_text(ours[1])}: "
        f"drift {signed_clock(drift[0])} / {signed_clock(drift[1])}"
    )


def _set(event: ClockSet, before: MatchState, after: MatchState) -> str:
    was = _shown(before, at_ms(event.at))
    shown = _shown(after, at_ms(event.at))
    source = ruled_by_text(event.rule, event.ruled_by)
    return f"clock set ({source}): {shown} (was {was}){_why(event.reason)}"


_PENALIZED = {
    "warning": "a warning",
    "reserve": "{penalty} off {name}'s reserve: {left} left",
    "to-one-second": "less than {penalty} left: {name}'s reserve reduced to 0:01",
    "delay-forfeited": "no delay on {name}'s next checker play",
}


def _penalized(event: ReserveTimePenalized, before: MatchState, after: MatchState) -> str:
    name = after.name(event.player)
    left = figure(after.timer, event.player, at_ms(event.at)) if after.timer else 0
    template = _PENALIZED.get(event.kind)
    what = event.kind  # a kind of a newer bgledger, as it is
    if template is not None:
        what = template.format(
            penalty=clock_text(event.penalty_ms), name=name, left=clock_text(left)
        )
    head = f"early pick-up by {name} ({ruled_by_text(event.rule, event.ruled_by)}): {what}"
    return head + _why(event.reason)


def _restored(event: ReserveTimeRestored, before: MatchState, after: MatchState) -> str:
    name = after.name(event.player)
    left = figure(after.timer, event.player, at_ms(event.at)) if after.timer else 0
    return (
        f"{clock_text(event.restored_ms)} of {name}'s reserve restored "
        f"({ruled_by_text(event.rule, event.ruled_by)}): {name} {clock_text(left)}"
        + _why(event.reason)
    )


def _clock_restored(event: ClockRestored, before: MatchState, after: MatchState) -> str:
    a, b = after.players
    shown = figures(after.timer, at_ms(event.at)) if after.timer else (0, 0)
    turn = (
        f"; {after.name(event.player)}'s time runs"
        if event.player and event.running
        else "; the clock is stopped"
    )
    return (
        f"clock put back as it stood at event {event.event} "
        f"({ruled_by_text(event.rule, event.ruled_by)}): {a} {clock_text(shown[0])}, "
        f"{b} {clock_text(shown[1])}{turn}" + _why(event.reason)
    )


def _expired(event: TimeExpired, before: MatchState, after: MatchState) -> str:
    name, opponent = after.name(event.player), after.name(other(event.player))
    if event.outcome == "both-expired":
        return (
            f"{name}'s reserve expired, and {opponent}'s too ({event.rule}): neither can be "
            "shown to have run out first; the clocks are set again"
        )
    left = (event.reserve_a_ms, event.reserve_b_ms)[seat(event.player)]
    if left > 0:  # an early pick-up after being reduced to one second (USBGF 4.1.7.2)
        return (
            f"{name} picked up the dice early again at {clock_text(left)} ({event.rule}): "
            f"{opponent} wins the match on time"
        )
    return f"{name}'s reserve expired ({event.rule}): {opponent} wins the match on time"


# -- breaks and penalty points ----------------------------------------------------------


def _break_started(event: BreakStarted, before: MatchState, after: MatchState) -> str:
    who = " and ".join(after.name(p) for p in event.players)
    combined = f" ({event.breaks} breaks combined)" if event.breaks > 1 else ""
    until = wall_clock(event.at, event.minutes, match_zone(after.started_at))
    rule = rule_for(after.profile, Decision.BREAK)
    parts = [f"break ({rule}): {who}, {event.minutes} minutes{combined}, until {until}"]
    if event.reserve_a_ms is not None and event.reserve_b_ms is not None:
        a, b = clock_text(event.reserve_a_ms), clock_text(event.reserve_b_ms)
        parts[0] += f" ({after.players[0]} {a}, {after.players[1]} {b} on the clock)"
    if event.during_game:
        parts.append(f"during game {after.game}: {event.exceptional or 'no reason given'}")
    if event.exception:
        rule = rule_for(after.profile, Decision.BREAK_EXCEPTION)
        parts.append(f"director's exception ({rule}): {event.exception}")
    return "; ".join(parts)


@functools.lru_cache(maxsize=256)
def match_zone(started_at: str) -> str:
    """The UTC offset a match's views print its times in: its start's (``+01:00``), else UTC.

    (Asked for every entry of a trail: kept for the last matches asked about.)

    One zone per match, so that a time sent with another offset (a phone at +14:00) is
    printed on the same clock as the rest and the day never jumps; the start's, because it
    is the venue's (the server's local time, or a transcription's header), which the wall
    clock and the players' watches show.

    >>> match_zone("2026-11-28T19:00:00+01:00"), match_zone(""), match_zone("2026-11-28T19:00:00")
    ('+01:00', '+00:00', '+00:00')
    """
    try:
        offset = datetime.fromisoformat(started_at).utcoffset()
    except ValueError:
        offset = None
    if offset is None:
        return "+00:00"
    sign, seconds = (
        ("-", -offset.total_seconds()) if offset < timedelta(0) else ("+", offset.total_seconds())
    )
    return f"{sign}{int(seconds) // 3600:02d}:{int(seconds) % 3600 // 60:02d}"


def zone_text(zone: str) -> str:
    """``UTC`` or ``UTC+14:00``: how a view names the zone it prints times in."""
    return "UTC" if zone in ("", "+00:00", "-00:00") else f"UTC{zone}"


def in_zone(at: str, zone: str) -> str:
    """``YYYY-MM-DD HH:MM:SS``: the time ``at`` on the clock of ``zone`` (a UTC offset); as
    written if it has no offset or is malformed (a time can only be shown, never made up).

    >>> in_zone("2026-11-29T09:00:00+14:00", "+00:00")
    '2026-11-28 19:00:00'
    """
    try:
        moment = datetime.fromisoformat(at)
        target = datetime.fromisoformat(f"2000-01-01T00:00:00{zone or '+00:00'}").tzinfo
    except ValueError:
        return at[:19].replace("T", " ")
    if moment.tzinfo is None or target is None:
        return at[:19].replace("T", " ")
    return moment.astimezone(target).strftime("%Y-%m-%d %H:%M:%S")


def wall_clock(at: str, minutes: int = 0, zone: str = "") -> str:
    """``HH:MM``: the event time ``at``, ``minutes`` on, on the clock of ``zone`` (the match's:
    :func:`match_zone`; without one, in ``at``'s own offset); '' if malformed.

    >>> wall_clock("2026-11-29T09:02:00+14:00", 10, "+00:00")
    '19:12'
    """
    try:
        when = datetime.fromisoformat(at) + timedelta(minutes=minutes)
        if zone and when.tzinfo is not None:
            when = when.astimezone(datetime.fromisoformat(f"2000-01-01T00:00:00{zone}").tzinfo)
        return when.strftime("%H:%M")
    except ValueError:
        return ""


def _break_ended(event: BreakEnded, before: MatchState, after: MatchState) -> str:
    opened = before.breaks.open
    head = f"break of {opened.minutes} minutes ended" if opened is not None else "break ended"
    if event.minutes_over <= 0:
        return f"{head} on time"
    head += f" {event.minutes_over} minutes over"
    if event.late is None:
        return f"{head}: nobody named late"
    return f"{head}: {after.name(event.late)} returned late"


def penalty_text(event: PenaltyPointsAssessed, state: MatchState) -> str:
    """``'1 penalty point against Bob (USBGF 2.2.4: 17 minutes late after ...)'``."""
    head = f"{points_of(event.points, 'penalty point')} against {state.name(event.player)}"
    if event.kind.startswith("late") and event.minutes_late is not None:
        where = "the starting time" if event.kind == "late-start" else "the end of the break"
        return f"{head} ({event.rule}: {event.minutes_late} minutes late after {where})"
    return f"{head} ({ruled_by_text(event.rule, event.ruled_by)}: {event.reason})"


def _penalty(event: PenaltyPointsAssessed, before: MatchState, after: MatchState) -> str:
    gainer = after.name(other(event.player))
    score = f"{after.players[0]} {after.score[0]}, {after.players[1]} {after.score[1]}"
    them = "it" if event.points == 1 else "them"
    return f"{penalty_text(event, after)}: {gainer} scores {them} ({score})"


# -- how a match ended ----------------------------------------------------------------------


def ending(previous: MatchEvent | None, state: MatchState) -> str:
    """How a match was won, if not by its games: ``' on time: ...'``, ``' by forfeit: ...'``.

    ``previous`` is the event recorded just before the :class:`MatchWon` (a
    forfeit is recorded with the event that caused it); '' for a match won
    by its games.
    """
    if isinstance(previous, TimeExpired) and previous.outcome == "forfeit":
        name = state.name(previous.player)
        left = (previous.reserve_a_ms, previous.reserve_b_ms)[seat(previous.player)]
        if left > 0:
            early = f"{name} picked up the dice early at {clock_text(left)}"
            return f" on time: {early} ({previous.rule})"
        return f" on time: {name}'s reserve expired ({previous.rule})"
    if isinstance(previous, PenaltyPointsAssessed):
        return f" by forfeit: {state.name(previous.player)}'s penalty points ({previous.rule})"
    if isinstance(previous, MatchForfeited):
        return f" by forfeit: {state.name(previous.player)} forfeited it"
    return ""


def match_won_text(event: MatchWon, state: MatchState, previous: MatchEvent | None) -> str:
    """``'match won by Ann (Ann 5, Bob 3)'``, with how if not by its games (:func:`ending`).

    ``state`` is the match after ``event``: its score is the final score.
    """
    return f"match won by {state.name(event.winner)} ({score_text(state)}){ending(previous, state)}"


TIME_DESCRIBERS: dict[type[MatchEvent], Callable[[Any, MatchState, MatchState], str]] = {
    ClockStarted: _started,
    ClockHit: _hit,
    ClockHitImplied: _hit_implied,
    ClockStopped: _stopped,
    ClockResumed: _resumed,
    ClockRead: _read,
    ClockSet: _set,
    ReserveTimePenalized: _penalized,
    ReserveTimeRestored: _restored,
    ClockRestored: _clock_restored,
    TimeExpired: _expired,
    BreakStarted: _break_started,
    BreakEnded: _break_ended,
    PenaltyPointsAssessed: _penalty,
}
"""The describer of each clock, break and penalty-point event: ``(event, before, after)``."""


# -- the trail -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One line of the audit trail.

    :ivar number: the event's number in the match (its ``originator_version``).
    :ivar at: when it happened at the board.
    :ivar recorded_by: who recorded it.
    :ivar kind: the event's class name (``CheckersPlayed`` ...).
    :ivar text: what happened, in one line, with the players' names.
    :ivar flagged: True if the event records something the rules forbid.
    :ivar rule: the rule the event cites, if any.
    :ivar game: the number of the game at that event (0 before the first).
    :ivar voided_by: the ruling in force that took this event out of force, if any
        (for a ruling: the appeal that overturned it).
    :ivar ruling: for a ruling, who ruled, why and what it voided or restored.
    :ivar clock: the game clocks just after the event, in a match with a clock.
    :ivar voided_as: how it went out of force: ``"ruling"``, or a recording error
        ``"withdrawn"`` or ``"amended"`` (a scorekeeper's correction, not a ruling).
    :ivar correction: for a correction of a recording error, who allowed it, why, what
        it voids and (an amendment) the line that replaced the entry.
    :ivar zone: the UTC offset the match's views print times in (:func:`match_zone`).
    :ivar witness: for an entry whose time the ledger could not take as its recorder gave
        it, or that reached the ledger long after (DESIGN principle 13,
        :func:`~bgledger.projections.state.witness.witness_text`): the claim and how late
        (``"claimed 2026-11-28 14:02:30, entered 13 min after"``); else ``""``.
    """

    number: int
    at: str
    recorded_by: str
    kind: str
    text: str
    flagged: bool
    rule: str | None
    game: int
    voided_by: int | None = None
    ruling: RulingDetails | None = None
    clock: ClockReading | None = None
    voided_as: str = ""
    correction: CorrectionDetails | None = None
    zone: str = ""
    witness: str = ""


class CorrectionDetails(TypedDict):
    """A recording error's correction, as ``history --json`` gives it (not a ruling)."""

    ruled_by: str
    reason: str
    voids: list[int]
    line: str | None


def _correction_details(event: MatchEvent) -> CorrectionDetails | None:
    if not isinstance(event, EntryCorrected):
        return None
    line = event.line if isinstance(event, EntryAmended) else None
    return {"ruled_by": event.ruled_by, "reason": event.reason, "voids": list(event.voids),
            "line": line}  # fmt: skip


def correction_text(
    event: EntryCorrected, texts: Mapping[int, str], events: Mapping[int, MatchEvent]
) -> str:
    """A withdrawn or amended entry, in one line: what was entered, and what happened.

    ``texts`` maps the match's earlier entries to their descriptions, ``events`` its
    earlier events.
    """
    was = "; ".join(texts[n] for n in event.voids if n in texts)
    amended = [events[n] for n in event.voids if isinstance(events.get(n), EntryAmended)]
    for earlier in amended:
        assert isinstance(earlier, EntryAmended)
        was += f", as amended at {earlier.originator_version} to {earlier.line!r}"
    entry = f"entry {event.event} ({was})" if was else f"entry {event.event}"
    if isinstance(event, EntryAmended):
        text = f"recording error: {entry} amended to {event.line!r}"
    else:
        text = f"recording error: {entry} withdrawn"
    if event.ruled_by:
        text += f", with the {event.ruled_by}'s leave"
    return text + (f": {event.reason}" if event.reason else "")


def history(events: Iterable[MatchEvent], *, last: int | None = None) -> list[HistoryEntry]:
    """The audit trail of ``events``, folding them as it goes; one entry per event.

    Each event voided by a ruling in force is marked with that ruling's number.
    Never raises for well-typed events: an event of a kind this version does
    not know is listed under its class name.

    ``last``: the trail's last ``last`` entries alone, exactly as the whole
    trail has them (the pad's tail).  Every event is still folded and every
    ruling read (a later ruling marks an earlier entry), but the states
    between the entries shown are not kept one by one: the events before
    them are folded at once (:func:`~bgledger.projections.state.fold.fold`),
    which is most of the saving; only the entries shown are worded, with the
    earlier ones a correction among them words itself from.
    """
    events = list(events)
    voided = voided_by(events)
    numbered = {event.originator_version: event for event in events}
    first = 0 if last is None else max(len(events) - max(last, 0), 0)
    worded = _worded(events, first)
    entries: list[HistoryEntry] = []
    texts: dict[int, str] = {}
    state: MatchState | None = None
    done = 0  # the events folded into ``state``
    for index in worded:
        if index > done:  # the events between two worded ones, folded at once
            for event in events[done:index]:
                _renumber(numbered, event)
            state = the_fold.fold(events[done:index], state, history=events[:done])
        event = events[index]
        after = apply(state, event, events[:index] if needs_history(event) else None)
        number = event.originator_version
        if isinstance(event, EntryCorrected):
            text = correction_text(event, texts, numbered)
        else:
            text = texts[number] = describe(event, state, after, numbered)
        _renumber(numbered, event)
        state, done = after, index + 1
        if index < first:
            continue  # worded for a correction shown: not shown itself
        by = voided.get(number)
        zone = match_zone(after.started_at)
        entries.append(
            HistoryEntry(
                number=number,
                at=event.at,
                recorded_by=event.recorded_by,
                kind=type(event).__name__,
                text=text,
                flagged=after.flagged[-1:] == (number,),
                rule=_rule(event),
                game=after.game,
                voided_by=voided.get(number),
                ruling=ruling_details(event),
                clock=clock_reading(event, after),
                voided_as="" if by is None else _voided_as(numbered.get(by)),
                correction=_correction_details(event),
                zone=zone,
                witness=_witness(event, zone),
            )
        )
    return entries


def _worded(events: Sequence[MatchEvent], first: int) -> list[int]:
    """The indices of the events :func:`history` words, in order: from ``first`` on, and each
    earlier one a correction from ``first`` on words itself from (:func:`correction_text`)."""
    where = {event.originator_version: index for index, event in enumerate(events)}
    earlier = {
        where[number]
        for event in events[first:]
        if isinstance(event, EntryCorrected)
        for number in event.voids
        if where.get(number, first) < first
    }
    return [*sorted(earlier), *range(first, len(events))]


def _renumber(numbered: dict[int, MatchEvent], event: MatchEvent) -> None:
    """After an amendment, the event it put in place of the entry: what later rulings name."""
    if isinstance(event, EntryAmended):
        made = [e for e in replacement(event, event.event) if type(e) is not GameStarted]
        numbered[event.event] = made[0] if made else numbered[event.event]


def recorded_entries(
    events: Sequence[MatchEvent], before: MatchState | None, previous: MatchEvent | None
) -> list[HistoryEntry] | None:
    """The trail's entries of ``events`` just recorded onto ``before``, worded as
    :func:`history` words them, without reading the trail; ``previous`` is the event
    before them.

    None when one of them is a ruling or a correction, which is worded from the
    events it names: the caller words the trail then.  Nothing just recorded is
    voided yet.
    """
    if not worded_alone(events):
        return None
    steps = []
    state = before
    for event in events:
        state = apply(state, event)
        steps.append((event, state))
    return folded_entries(steps, before, previous)


def worded_alone(events: Iterable[MatchEvent]) -> bool:
    """Whether ``events``, just recorded, are worded without the trail before them: no ruling
    and no correction among them (those are worded from the events they name, and mark
    earlier entries)."""
    return not any(needs_history(e) or isinstance(e, EntryCorrected | RulingMade) for e in events)


def folded_entries(
    steps: Sequence[tuple[MatchEvent, MatchState]],
    before: MatchState | None,
    previous: MatchEvent | None,
) -> list[HistoryEntry] | None:
    """:func:`recorded_entries` of events already folded: each with the state after it (the
    fold that recorded them made those states), worded without folding them again.

    None for a ruling or a correction among them, as :func:`recorded_entries`.
    """
    events = [event for event, _ in steps]
    if not worded_alone(events):
        return None
    numbered = {event.originator_version: event for event in events}
    if previous is not None:
        numbered[previous.originator_version] = previous
    entries: list[HistoryEntry] = []
    state = before
    for event, after in steps:
        number = event.originator_version
        zone = match_zone(after.started_at)
        entries.append(
            HistoryEntry(
                number=number, at=event.at, recorded_by=event.recorded_by,
                kind=type(event).__name__, text=describe(event, state, after, numbered),
                flagged=after.flagged[-1:] == (number,), rule=_rule(event), game=after.game,
                ruling=ruling_details(event), clock=clock_reading(event, after),
                zone=zone,
                witness=_witness(event, zone),
            )
        )  # fmt: skip
        state = after
    return entries


def _witness(event: MatchEvent, zone: str) -> str:
    """The entry's time mark (:attr:`HistoryEntry.witness`), its claim printed in ``zone``."""
    return witness_text(event, in_zone(event.claimed, zone)) if event.claimed else ""


def _voided_as(voider: MatchEvent | None) -> str:
    if isinstance(voider, EntryAmended):
        return "amended"
    if isinstance(voider, EntryCorrected):
        return "withdrawn"
    return "ruling"


def history_json(entries: Iterable[HistoryEntry]) -> list[dict[str, Any]]:
    """``history --json``: one object per entry, with the fields of :class:`HistoryEntry`.

    ``voided_by`` is the number of the ruling that voided the event, or null;
    ``voided_as`` says how: ``"ruling"``, or ``"withdrawn"``/``"amended"`` for a
    recording error a scorekeeper corrected (``""`` for an event in force).  A
    correction's object has ``correction``: ``ruled_by``, ``reason``, ``voids`` and
    ``line`` (an amendment's).
    A ruling's object also has ``ruled_by``, ``reason``, ``agreed``, ``voids``,
    ``restores`` (lists of event numbers) and ``in_force`` (false once overturned).  In a
    match with a game clock, each object has ``clock``: ``reserve_a_ms``, ``reserve_b_ms``,
    ``running`` and ``stopped`` just after the event (:class:`ClockReading`).
    """
    documents = []
    for entry in entries:
        document = asdict(entry)
        del document["zone"]  # ``at`` keeps its own offset, as recorded
        if document["clock"] is None:
            del document["clock"]
        if document["correction"] is None:
            del document["correction"]
        if not document["witness"]:
            del document["witness"]
        details = document.pop("ruling")
        if details is not None:
            document.update(details, in_force=entry.voided_by is None)
            document["voids"] = list(details["voids"])
            document["restores"] = list(details["restores"])
        documents.append(document)
    return documents


def history_line(entry: HistoryEntry, width: int = 0) -> str:
    """``entry`` as ``bgledger history`` prints it: number, mark, time, recorder, text.

    The mark is ``x`` for an event a ruling voided (the line then ends with
    ``[voided by ruling N]``) or a scorekeeper's correction withdrew or amended
    (``[withdrawn at N: recording error]``), ``!`` for one flagged against the
    rules, ``R`` for a ruling, ``C`` for a correction of a recording error;
    ``width`` pads the recorder's name.
    """
    mark = "x" if entry.voided_by else "!" if entry.flagged else "R" if entry.ruling else " "
    if entry.correction is not None and not entry.voided_by:
        mark = "C"
    when = in_zone(entry.at, entry.zone)
    text = entry.text
    if entry.voided_by and entry.voided_as in ("withdrawn", "amended"):
        text += f"  [{entry.voided_as} at {entry.voided_by}: recording error]"
    elif entry.voided_by:
        text += f"  [voided by ruling {entry.voided_by}]"
    if entry.witness:
        text += f"  [{entry.witness}]"
    return f"{entry.number:>5} {mark} {when}  {entry.recorded_by:<{width}}  {text}"


# -- the trail by game (history's headings and legend) --------------------------------------


HISTORY_LEGEND = (
    "marks: '!' illegal, recorded as played · 'x' not in force (voided by a ruling, or "
    "withdrawn or amended) · 'R' a ruling · 'C' a recording error corrected"
)
"""What ``history`` prints first: the marks of :func:`history_line`."""


def game_headings(events: Sequence[MatchEvent]) -> dict[int, str]:
    """The heading of each game of ``events``, by game number: the score before it.

    ``game 2 · Ann 2, Bob 0 (Crawford game)``: the state just after the
    game's :class:`~bgledger.events.GameStarted`, as recorded then.
    """
    headings: dict[int, str] = {}
    state: MatchState | None = None
    done = 0
    for index, event in enumerate(events):
        if isinstance(event, GameStarted):  # the one fold, from game to game
            state = the_fold.fold(events[done : index + 1], state, history=events[:done])
            done = index + 1
            assert state is not None
            note = _CRAWFORD_NOTE.get(state.crawford, "") if state.crawford_rule else ""
            headings[event.number] = f"game {event.number} · {score_text(state)}{note}"
    return headings


def history_text(
    entries: Sequence[HistoryEntry], headings: Mapping[int, str], game: int | None = None
) -> list[str]:
    """``history``'s lines: the legend, then the entries under a heading per game.

    The entries before the first game come first, without a heading; those
    after a game's end (the match's end, a note, a break) stay with its
    game.  ``game``: that game's entries only.
    """
    shown = [entry for entry in entries if game is None or entry.game == game]
    width = max((len(entry.recorded_by) for entry in shown), default=0)
    lines = [HISTORY_LEGEND]
    if entries:
        lines.append(f"times in {zone_text(entries[0].zone)}, the zone the match started in")
    current = 0
    for entry in shown:
        if entry.game != current:
            current = entry.game
            lines += ["", headings.get(current, f"game {current}")]
        lines.append(history_line(entry, width))
    return lines


def describe(
    event: MatchEvent,
    before: MatchState | None,
    after: MatchState,
    events: Mapping[int, MatchEvent] | None = None,
) -> str:
    """``event`` in one line, for a tournament director, using the players' names.

    ``before`` is the state the event was applied to (``None`` for the first
    event), ``after`` the state it made; ``events`` maps event numbers to the
    match's earlier events, which a ruling's description names.  An event of
    an unknown kind is described by its class name.
    """
    if isinstance(event, RulingMade):
        return describe_ruling(event, before or after, after, events or {})
    if isinstance(event, MatchWon):  # on time or by penalty points: the event before says
        return match_won_text(event, after, (events or {}).get(event.originator_version - 1))
    describer = _DESCRIBERS.get(type(event))
    if describer is None:
        return type(event).__name__
    return describer(event, before or after, after)


def _rule(event: MatchEvent) -> str | None:
    rule = getattr(event, "rule", None)
    return rule if isinstance(rule, str) and rule else None


# -- phrases shared with the other views ------------------------------------------


def result_text(result: str) -> str:
    """A game result as a noun phrase: ``'a single game'``, ``'a gammon'``, ``'a backgammon'``."""
    return "a single game" if result == str(GameResult.SINGLE) else f"a {result}"


def _illegal(text: str, reason: str | None, rule: str | None) -> str:
    why = f": {reason}" if reason else ""
    cited = f" ({rule})" if rule else ""
    return f"ILLEGAL: {text}{why}{cited}"


# -- one describer per event type ------------------------------------------------

E = TypeVar("E", bound=MatchEvent)
_Describer = Callable[[Any, MatchState, MatchState], str]
_DESCRIBERS: dict[type[MatchEvent], _Describer] = {}


def _on(event_type: type[E]) -> Callable[[Callable[[E, MatchState, MatchState], str]], _Describer]:
    def register(describer: Callable[[E, MatchState, MatchState], str]) -> _Describer:
        _DESCRIBERS[event_type] = describer
        return describer

    return register


@_on(MatchStarted)
def _match_started(event: MatchStarted, before: MatchState, after: MatchState) -> str:
    parts = [
        f"match started: {event.player_a} v {event.player_b}",
        points_of(event.length),
        event.profile,
        "Crawford rule" if event.crawford else "no Crawford rule",
    ]
    if event.clock != "none":
        parts.append(f"{event.clock} clock")
    for label, value in (("event", event.event), ("round", event.round), ("table", event.table)):
        if value:
            parts.append(f"{label} {value}")
    return ", ".join(parts)


_CRAWFORD_NOTE = {Crawford.CRAWFORD: " (Crawford game)", Crawford.POST: " (post-Crawford)"}


@_on(GameStarted)
def _game_started(event: GameStarted, before: MatchState, after: MatchState) -> str:
    note = _CRAWFORD_NOTE.get(after.crawford, "") if after.crawford_rule else ""
    score = f" at {score_text(after)}" if any(after.score) else ""
    return f"game {event.number} started{score}{note}"


@_on(OpeningRollMade)
def _opening(event: OpeningRollMade, before: MatchState, after: MatchState) -> str:
    if event.die_a == event.die_b:
        return f"opening roll tied {event.die_a}-{event.die_b}: rolled again"
    first = after.name("a" if event.die_a > event.die_b else "b")
    return (
        f"opening roll: {after.players[0]} {event.die_a}, {after.players[1]} {event.die_b}: "
        f"{first} plays first"
    )


@_on(SingleDiceAgreed)
def _singles(event: SingleDiceAgreed, before: MatchState, after: MatchState) -> str:
    name = after.name(event.player)
    dice = f"{after.dice[0]}-{after.dice[1]}" if after.dice else "thrown"
    both = f"{after.players[0]} and {after.players[1]}"
    return f"{both} agree that {name} plays the single dice {dice} ({event.rule})"


@_on(DiceRolled)
def _rolled(event: DiceRolled, before: MatchState, after: MatchState) -> str:
    return f"{after.name(event.player)} rolled {event.die1}-{event.die2}"


@_on(RollVoided)
def _voided(event: RollVoided, before: MatchState, after: MatchState) -> str:
    whose = "the opening roll" if before.opening_dice else f"{after.name(event.player)}'s roll"
    cited = f" ({event.rule})" if event.rule else ""
    return f"{whose} was voided: {event.reason}{cited}"


@_on(CheckersPlayed)
def _played(event: CheckersPlayed, before: MatchState, after: MatchState) -> str:
    name = after.name(event.player)
    if event.legal:
        return f"{name} played {event.play}" if event.play else f"{name} could not move"
    made = f"played {event.play}" if event.play else "did not move"
    dice = f" with {before.dice[0]}-{before.dice[1]}" if before.dice else ""
    return _illegal(f"{name} {made}{dice}", event.reason, event.rule)


# -- cube statements (issue 33: USBGF 4.4.3, 4.4.4) --------------------------------------------


@_on(CubeStatementMade)
def _statement(event: CubeStatementMade, before: MatchState, after: MatchState) -> str:
    decision = Decision.DOUBLE_STATEMENT if event.statement == "double" else Decision.PASS_STATEMENT
    said = STATEMENT_WORDS.get(event.statement, event.statement)
    return f"{after.name(event.player)}: '{said}' ({rule_for(after.profile, decision)})"


@_on(StartingPositionRecorded)
def _set_up(event: StartingPositionRecorded, before: MatchState, after: MatchState) -> str:
    return _illegal(f"game {after.game} set up wrongly", event.reason, event.rule)


@_on(UnplayablePlayRecorded)
def _unplayable(event: UnplayablePlayRecorded, before: MatchState, after: MatchState) -> str:
    name = after.name(event.player)
    return (
        f"UNPLAYABLE: {name}'s play {event.play!r} as transcribed: {event.reason}; board unchanged"
    )


@_on(CubeOffered)
def _doubled(event: CubeOffered, before: MatchState, after: MatchState) -> str:
    text = f"{after.name(event.player)} doubled to {event.value}"
    return text if event.legal else _illegal(text, event.reason, event.rule)


@_on(SocialDoubleMade)
def _social_double(event: SocialDoubleMade, before: MatchState, after: MatchState) -> str:
    if event.kind == "beaver":
        name = after.name(event.player)
        text = f"{name} beavered: redoubled to {event.value} at once, keeping the cube"
    elif event.kind == "automatic":
        text = f"automatic double: the cube turned to {event.value}, in the middle"
    else:  # a kind of a newer bgledger, as it is
        text = f"{event.kind}: the cube at {event.value}"
    return text if event.legal else _illegal(text, event.reason, event.rule)


@_on(CubeTaken)
def _taken(event: CubeTaken, before: MatchState, after: MatchState) -> str:
    name = after.name(event.player)
    return f"{name} took: cube at {event.value}, {name} owns it"


@_on(CubeDropped)
def _dropped(event: CubeDropped, before: MatchState, after: MatchState) -> str:
    doubler = after.name(other(event.player))
    won = points_of(game_points("single", "drop", after.cube))
    return f"{after.name(event.player)} passed at {event.value}: {doubler} wins {won}"


@_on(ResignationOffered)
def _resign_offered(event: ResignationOffered, before: MatchState, after: MatchState) -> str:
    text = f"{after.name(event.player)} offered to resign {result_text(event.level)}"
    return text if event.legal else _illegal(text, event.reason, event.rule)


def _offer_of(state: MatchState) -> str:
    offer = state.resignation
    return f" ({result_text(offer.level)})" if offer else ""


@_on(ResignationAccepted)
def _resign_accepted(event: ResignationAccepted, before: MatchState, after: MatchState) -> str:
    return f"{after.name(event.player)} accepted the resignation{_offer_of(before)}"


@_on(ResignationRejected)
def _resign_rejected(event: ResignationRejected, before: MatchState, after: MatchState) -> str:
    return f"{after.name(event.player)} rejected the resignation{_offer_of(before)}: play goes on"


@_on(ConcessionAcceptanceRequired)
def _acceptance_required(
    event: ConcessionAcceptanceRequired, before: MatchState, after: MatchState
) -> str:
    return (
        f"RULING ({event.rule}, {event.ruled_by}): {after.name(event.player)} must accept "
        f"the resignation{_offer_of(before)}: {event.reason}"
    )


_HOW = {"drop": " (a pass)", "resign": " (a resignation)"}


@_on(GameWon)
def _game_won(event: GameWon, before: MatchState, after: MatchState) -> str:
    return (
        f"game {event.number}: {after.name(event.winner)} wins {result_text(event.result)}"
        f"{_HOW.get(event.how, '')}, cube {event.cube}: {points_of(event.points)} "
        f"({score_text(after)})"
    )


# -- the classic laws of the throw and the touch (CLASSIC 7, 8, 11) ---------------------


def _where(point: int) -> str:
    return "the bar" if point == 25 else str(point)


@_on(ManTouched)
def _touched(event: ManTouched, before: MatchState, after: MatchState) -> str:
    return (
        f"{after.name(event.player)} touched a man on {_where(event.point)}: it must be moved "
        f"if playable ({event.rule})"
    )


@_on(ManAdjusted)
def _adjusted(event: ManAdjusted, before: MatchState, after: MatchState) -> str:
    return (
        f'{after.name(event.player)} said "J\'adoube" and adjusted a man on '
        f"{_where(event.point)} ({event.rule})"
    )


@_on(DiceSet)
def _dice_set(event: DiceSet, before: MatchState, after: MatchState) -> str:
    caster, adversary = after.name(event.player), after.name(other(event.player))
    return (
        f"{caster} interfered with the dice: {adversary} set them to {event.die1}-{event.die2}, "
        f"played as if thrown ({event.rule})"
    )


@_on(ThrowCalled)
def _called(event: ThrowCalled, before: MatchState, after: MatchState) -> str:
    thrown = f" (the dice show {after.thrown[0]}-{after.thrown[1]})" if after.thrown else ""
    return (
        f"{after.name(event.player)} called the throw {event.die1}-{event.die2}{thrown}: "
        f"played as called it stands ({event.rule})"
    )


def _call_corrected(event: CallCorrected, after: MatchState, events: Events) -> str:
    what = f"the call at event {event.event} corrected"
    if after.turn is not None and after.dice is not None:
        what += f": {after.name(after.turn)} plays the dice thrown, {after.dice[0]}-{after.dice[1]}"
    return what


_EXPLAINERS[CallCorrected] = _call_corrected
_DESCRIBERS.update(PREMATURE_DESCRIBERS)
_DESCRIBERS.update(TIME_DESCRIBERS)


@_on(EntryCorrected)
@_on(EntryWithdrawn)
@_on(EntryAmended)
def _corrected(event: EntryCorrected, before: MatchState, after: MatchState) -> str:
    # Without the trail before it (the history gives the entry's own words).
    return correction_text(event, {}, {})


@_on(MatchForfeited)
def _forfeited(event: MatchForfeited, before: MatchState, after: MatchState) -> str:
    return f"{after.name(event.player)} forfeits the match: {event.reason}"


def provenance_text(event: CopyImported) -> str:
    """What an import recorded of its copy: sealed by which key through which event, or not."""
    if not event.sealed_by:
        return (
            f"imported from an unsealed copy ({event.file}): its players, recorders and times "
            "are as the file says, re-decided by the rules but vouched for by no seal"
        )
    return (
        f"imported from a copy sealed by key {event.sealed_by[:16]}... through event "
        f"{event.sealed_through} ({event.file})"
    )


def provenance(events: Sequence[MatchEvent]) -> str | None:
    """Where the match of ``events`` came from, as its last import recorded it (None: recorded
    in this ledger).  Only an import records :class:`CopyImported`, after the copy's events:
    the last one is this ledger's own; any before it came with the copy."""
    found = next((e for e in reversed(events) if isinstance(e, CopyImported)), None)
    return None if found is None else provenance_text(found)


@_on(CopyImported)
def _copy_imported(event: CopyImported, before: MatchState, after: MatchState) -> str:
    return provenance_text(event)


@_on(RemarkRecorded)
def _remark(event: RemarkRecorded, before: MatchState, after: MatchState) -> str:
    if event.role:  # who said it: the scorekeeper, the director, the committee
        return f"the {event.role}'s note: {event.text}"
    return f"note for the record: {event.text}"  # says no one's (the line names its recorder)
