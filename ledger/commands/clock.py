"""The game clock: start, hit, stop, resume, read, set, flag, and the director's sanctions.

:class:`ClockCommands` are the aggregate's clock commands.  Each checks the
match's folded clock (:mod:`bgledger.projections.state.clock`) and its
profile's clock rules, then records through the stream's protected
``_record``; a refused command raises and records nothing.  Figures are
milliseconds; :func:`parse_clock` reads ``M:SS``.

The director's clock sanctions and corrections are here too:

- :meth:`ClockCommands.early_pickup`: the dice picked up before the opponent
  hit the clock.  Under simple delay (USBGF 4.1.7.2) a warning first, then
  thirty seconds off the reserve for each violation, down to one second, and
  the next violation forfeits the match on time; under the 2007 clock rules
  (CLOCK 4.1) the offender forfeits the delay of his next turn.
- :meth:`ClockCommands.missed_hit`: a player never hit the clock after his
  turn (USBGF 4.1.8.1): every purported roll and play since is nullified
  (the revert of :mod:`bgledger.commands.rulings`) and the reserve the clock
  took from him since his turn really ended is given back.

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("timed"), "timed", ("Ann", "Bob"), 5, by="kim",
    ...                     clock="simple-delay", at="2026-11-21T10:00:00+00:00")
    >>> match.state.timer.reserve_ms
    (600000, 600000)
    >>> match.opening(3, 1, by="kim", at="2026-11-21T10:00:06+00:00")  # b's lower die: CLOCK 3.3
    >>> match.state.timer.turn, match.state.timer.running               # a's time runs
    ('a', True)
    >>> _ = match.move("8/5 6/5", by="kim", at="2026-11-21T10:00:40+00:00")
    >>> _ = match.hit(by="kim", at="2026-11-21T10:00:46+00:00")       # 40 s: 12 s delay
    >>> clock_text(match.state.timer.reserve_ms[0])
    '9:32'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from bgledger.commands import decide as _decide
from bgledger.commands.rulings import Ruling, RulingCommands, RulingRefusedError, actions_after
from bgledger.errors import ClockRefusedError, InvalidClockError, NextStep, TimeNotExpiredError
from bgledger.events import (
    CheckersPlayed,
    ClockHit,
    ClockHitImplied,
    ClockRead,
    ClockResumed,
    ClockSet,
    ClockStarted,
    ClockStopped,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    MatchEvent,
    MatchWon,
    PlaysReverted,
    PrematureRollMade,
    ReserveTimePenalized,
    ReserveTimeRestored,
    TimeExpired,
    UnplayablePlayRecorded,
)
from bgledger.projections.state import clock as _stops
from bgledger.projections.state.allowed import NO_TIME_FORFEIT, expired_before_claim, no_legal_move
from bgledger.projections.state.clock import (
    REASONS,
    ClockState,
    at_ms,
    clock_text,
    figure,
    figures,
    pair_with,
)
from bgledger.projections.state.corrected import in_force
from bgledger.projections.state.fold import MatchState, Phase, apply, fold, other
from bgledger.rules.profiles import (
    DEFAULT_PROFILE,
    ClockRules,
    Decision,
    EarlyPickup,
    ForgottenHit,
    Profile,
    Subject,
    get_profile,
)

__all__ = [
    "NOMINAL_MS",
    "NO_TIME_FORFEIT",
    "SET_RULES",
    "SET_UNDER",
    "ClockCommands",
    "deductible_wait",
    "forgotten_hit",
    "opening_hitter",
    "parse_clock",
    "timer_of",
]

NOMINAL_MS = 60_000
"""The nominal reserve reinstated when both expired (USBGF 4.3.3: the director's figure)."""
SET_UNDER = (
    Decision.CLOCK_ERRORS,
    Decision.CLOCK_REPLACED,
    Decision.STOP_BREAK,
    Decision.TIME_EXPIRED,
    Decision.CLOCK_LENGTH_CORRECTED,
)
"""Why a director sets the clocks: errors, a faulty clock, a break, both expired, a match
length corrected (USBGF 4.8.6)."""
SET_RULES = tuple(get_profile(DEFAULT_PROFILE).cite(decision) for decision in SET_UNDER)
"""The rules of :data:`SET_UNDER` under the default profile: the choices the CLI offers."""
_CLOCK = re.compile(r"(?:(\d+):)?(\d{1,3}):(\d{2})(?:\.(\d{1,3}))?")

_ENDS_TURN = (CheckersPlayed, UnplayablePlayRecorded, CubeOffered, CubeTaken)
"""The actions after which a player ends his turn by hitting the clock (USBGF 4.1.8.1)."""
_OPPONENT_ACTIONS = (
    DiceRolled,
    PrematureRollMade,
    CheckersPlayed,
    UnplayablePlayRecorded,
    CubeOffered,
)
"""The opponent's "purported rolls and moves" (and doubles) that 4.1.8.1 nullifies."""


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


def timer_of(state: MatchState) -> ClockState:
    """The match's clock.

    :raises ClockRefusedError: if it has none, or the match is over.
    """
    cite = get_profile(state.profile).cite
    if state.timer is None:
        raise ClockRefusedError(
            f"match {state.match_id} has no game clock: start one with "
            f"'bgledger clock {state.match_id} start simple-delay'",
            cite(Decision.CLOCK_SETTING),
        )
    if state.winner is not None:
        raise ClockRefusedError("the match is over", cite(Decision.STOP_GAME_OVER))
    return state.timer


class ClockCommands(RulingCommands):
    """The game clock's commands, and the director's clock sanctions and corrections.

    Each takes ``by`` (who records) and ``at`` (when, ISO 8601; ``None`` for
    now), or a :class:`~bgledger.commands.rulings.Ruling` that carries
    them, and raises, recording nothing, when it refuses.  Built on
    :class:`~bgledger.commands.rulings.RulingCommands`: a missed hit is a ruling.
    """

    def _clock_rules(self, mode: str) -> ClockRules:
        """The profile's rules for clock ``mode``.

        :raises InvalidClockError: if the profile has no such clock.
        """
        rules = self.profile.clock(mode)
        if rules is None:
            raise InvalidClockError(f"profile {self.profile.name} has no {mode!r} clock")
        return rules

    def _moment(self, at: str | None) -> tuple[str, int]:
        """``at`` stamped (now if None) and in milliseconds.

        :raises InvalidTimeError: if malformed or before the match's last event.
        """
        when = _decide.stamp(at, self.state.last_at)
        return when, at_ms(when)

    def _check_figures(self, shown: Sequence[int], rule: str) -> None:
        """Refuse, under ``rule``, a clock figure below 0:00 or past the profile's limit for
        the match's length (:class:`~bgledger.rules.profiles.Limits`, DESIGN principle 11).

        :raises ClockRefusedError: for such a figure.
        """
        limits, length = self.profile.limits, self.state.length
        most = limits.longest_reserve_ms(length)
        for ms in shown:
            if not 0 <= ms <= most:
                per_point = clock_text(limits.reserve_per_point.value * 1000)
                raise ClockRefusedError(
                    f"a clock figure of {ms // 1000} seconds: a {length}-point match's clock "
                    f"shows 0:00 to {clock_text(most)} under {self.profile.name} ({per_point} "
                    "a point at most)",
                    rule,
                )

    # -- setting up -----------------------------------------------------------------

    def start_clock(
        self,
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
        state, rules, cite = self.state, self._clock_rules(mode), self.profile.cite
        if state.timer is not None:
            refusal = "a clock is already on: 'clock set' changes it"
            raise ClockRefusedError(refusal, cite(Decision.CLOCK_REPLACED))
        if state.winner is not None:
            raise ClockRefusedError("the match is over", cite(Decision.CLOCK_TIME_CONTROL))
        if state.in_game and not rules.introduce_mid_game.value:
            refusal = f"a {mode} clock is brought in only between games"
            raise ClockRefusedError(refusal, rules.introduce_mid_game.rule)
        delay, delay_rule = _delay(rules, delay_ms, doubles, cite(Decision.CLOCK_SETTING))
        reserve, reserve_rule = _reserve(
            rules, state, reserve_ms, doubles, cite(Decision.CLOCK_SETTING)
        )
        self._check_figures((reserve,), cite(Decision.CLOCK_SETTING))
        most_delay = self.profile.limits.delay.value
        if delay > most_delay * 1000:
            raise ClockRefusedError(
                f"delay {delay // 1000} s: {self.profile.name} allows {most_delay} s at most",
                cite(Decision.CLOCK_SETTING),
            )
        rule = reserve_rule or delay_rule or rules.basis.rule or mode
        when, _ = self._moment(at)
        return self._record(
            ClockStarted, by, when, mode=mode, delay_ms=delay,
            reserve_a_ms=reserve, reserve_b_ms=reserve, rule=rule,
        )  # fmt: skip

    # -- the turn's end ---------------------------------------------------------------

    def hit(self, player: str | None = None, *, by: str, at: str | None = None) -> ClockHit:
        """``player`` (default: the one whose time runs) hits: his turn ends, his opponent's starts.

        The opening roll starts the winner's clock itself, where the
        profile's clock rules say so (CLOCK 3.3: :meth:`PlayCommands.opening
        <bgledger.commands.play.PlayCommands.opening>` records the lower die's
        hit at the roll's moment).  The lower die's hit recorded as it happened,
        before the winner has played, is accepted: the winner's first turn is
        timed from it, the roll's moment standing in only when none is recorded.
        After that a player hits after his play, his double, his take,
        or a roll he cannot play (USBGF 4.1.8.1, CLOCK 3.4).  A clock brought
        in mid-game starts with the first hit.

        :raises ClockRefusedError: without a clock, on a break, outside a game,
            before the turn is done, or for the player whose time is not
            running; each refusal says what happened and what to record instead.
        """
        state, cite = self.state, self.profile.cite
        timer = timer_of(state)
        if state.breaks.open is not None:
            refusal = "the players are on a break: end it first"
            raise ClockRefusedError(refusal, cite(Decision.STOP_BREAK))
        if timer.stopped == "concession":
            _concession_pending(state, self.profile)
        hitter = player or timer.turn or (other(state.actor) if state.actor else None)
        if hitter is None or state.phase in (Phase.BETWEEN_GAMES, Phase.OPENING, Phase.ENDING):
            raise ClockRefusedError(
                f"nobody hits now: {_decide.situation(state)}; the opening roll starts the "
                "clock of the player who won it",
                cite(Decision.OPENING_HIT),
            )
        _check_hitter(state, timer, hitter, self.profile)
        when, _ = self._moment(at)
        passes = state.phase is Phase.ROLL and state.turn == hitter and no_legal_move(state)
        return self._record(ClockHit, by, when, player=hitter, passes=passes)

    # -- stopping, reading and setting ----------------------------------------------------

    def stop_clock(self, reason: str, *, by: str, at: str | None = None) -> ClockStopped:
        """Both clocks stop for ``reason``: a code of
        :data:`~bgledger.projections.state.clock.REASONS` or its letter.

        :raises InvalidClockError: for a reason USBGF 4.3.2 does not list.
        :raises ClockRefusedError: if no time is running; for a break, which
            ``break start`` records.
        """
        state, cite = self.state, self.profile.cite
        code = _reason(reason, cite(Decision.CLOCK_STOP))
        timer = timer_of(state)
        if code == "break":
            raise ClockRefusedError(
                f"a break stops the clock when it is recorded: 'bgledger break {state.match_id} "
                "start PLAYER'",
                cite(Decision.STOP_BREAK),
            )
        if not timer.running:
            why = _stopped_why(timer, self.profile)
            raise ClockRefusedError(f"the clock is not running ({why})", cite(Decision.CLOCK_STOP))
        when, now = self._moment(at)
        rule = cite(_stops.STOPPED_UNDER[code])
        with self.atomic():  # the stop and what USBGF 4.1.8.1 says follows it, or nothing
            stopped = self._record(ClockStopped, by, when, reason=code, rule=rule)
            if code == "dice-picked-up" and _waiting_for_dice(
                state, timer, other(timer.turn or "a")
            ):
                # USBGF 4.1.8.1: the same stop as 'pickup-with-hit' records, the same outcome
                ruling = Ruling("players", _stops.REASONS[code][1], by=by, at=when)
                self._restore_on_roll(timer.turn or "a", timer.reserve_ms, when, now, ruling)
        return stopped

    def resume_clock(self, *, by: str, at: str | None = None) -> ClockResumed:
        """The clock restarts for the player whose turn it was stopped in.

        :raises ClockRefusedError: if it is running, or stopped between turns
            (the next hit starts it), or the players are on a break.
        """
        state, cite = self.state, self.profile.cite
        timer = timer_of(state)
        if state.breaks.open is not None:
            refusal = "the players are on a break: end it first"
            raise ClockRefusedError(refusal, cite(Decision.BREAK))
        if timer.stopped == "concession":
            _concession_pending(state, self.profile)
        if timer.running or timer.turn is None:
            stopped = f"{_stopped_why(timer, self.profile)}: the next hit starts it"
            why = "it is running" if timer.running else stopped
            raise ClockRefusedError(f"nothing to resume: {why}", cite(Decision.CLOCK_STOP))
        when, _ = self._moment(at)
        return self._record(ClockResumed, by, when, player=timer.turn)

    def read_clock(
        self, shown: tuple[int, int], *, by: str, at: str | None = None
    ) -> tuple[int, int]:
        """The clock shows ``shown`` (a, b); returns its drift from the ledger's figures
        (shown - ours).

        :raises ClockRefusedError: without a clock.
        """
        timer = timer_of(self.state)
        self._check_figures(shown, self.profile.cite(Decision.CLOCK_ERRORS))
        when, now = self._moment(at)
        ours = figures(timer, now)
        self._record(ClockRead, by, when, reserve_a_ms=shown[0], reserve_b_ms=shown[1])
        return shown[0] - ours[0], shown[1] - ours[1]

    def set_clock(
        self,
        reserves: tuple[int, int],
        *,
        rule: str | None = None,
        ruled_by: str = "director",
        reason: str,
        by: str,
        at: str | None = None,
    ) -> ClockSet:
        """The director sets both reserves (USBGF 3.7.2, 4.3.2(b), 4.3.3, 4.3.4, 4.8.6).

        ``rule`` is one of the profile's rules of :data:`SET_UNDER` (default:
        errors in clock management, USBGF 4.3.4).

        :raises InvalidClockError: for another rule, a negative figure or no reason.
        :raises ClockRefusedError: without a clock.
        """
        timer_of(self.state)
        allowed = [self.profile.cite(decision) for decision in SET_UNDER]
        rule = allowed[0] if rule is None else rule
        if rule not in allowed:
            raise InvalidClockError(f"rule {rule!r}: the clocks are set under {', '.join(allowed)}")
        if min(reserves) < 0 or not reason.strip():
            raise InvalidClockError("a setting needs two figures of 0:00 or more and a reason")
        self._check_figures(reserves, rule)
        when, _ = self._moment(at)
        return self._record(
            ClockSet, by, when, reserve_a_ms=reserves[0], reserve_b_ms=reserves[1],
            rule=rule, ruled_by=ruled_by, reason=reason.strip(),
        )  # fmt: skip

    # -- time expired ------------------------------------------------------------------------

    def flag(
        self,
        player: str,
        *,
        nominal_ms: int = NOMINAL_MS,
        history: Sequence[MatchEvent] | None = None,
        by: str,
        at: str | None = None,
    ) -> TimeExpired:
        """Someone announces that ``player``'s reserve has expired (USBGF 4.3.3, CLOCK 5.3).

        Confirmed by the ledger's own figure, ``player`` loses the match.  If
        both reserves are spent, the ledger's times (``history``, the match's
        events so far) say whose ran out first, and he forfeits; only where they
        cannot (both ran out at one moment, or no history is given) do both get
        ``nominal_ms`` (USBGF 4.3.3).  After the last checker is off, a winner
        whose reserve was spent before it loses the match where the clock's rules
        say so (CLOCK 5.3).  Where the players agreed at the start not to end the
        match on time (USBGF 3.5.2.1) the flag is refused: play goes on.

        :raises TimeNotExpiredError: if the ledger's figure shows time left.
        :raises ClockRefusedError: without a clock, after the match (unless CLOCK 5.3
            applies), or under the players' agreement.
        """
        state = self.state
        if player not in ("a", "b"):
            raise InvalidClockError(f"player {player!r}: 'a' or 'b'")
        if state.winner is not None and state.timer is not None:
            return self._flag_after_the_claim(player, by=by, at=at)
        timer = timer_of(state)
        self._check_figures((nominal_ms,), self.profile.cite(Decision.TIME_EXPIRED))
        when, now = self._moment(at)
        left = figures(timer, now)
        mine = figure(timer, player, now)
        expired_rule = self.profile.cite(Decision.TIME_EXPIRED)
        rule = self._clock_rules(timer.mode).expiry_loses_match.rule or expired_rule
        if mine > 0:
            raise TimeNotExpiredError(
                f"{state.name(player)} has {clock_text(mine)} left by the ledger's figures: "
                "time has not expired",
                rule,
            )
        if dict(state.meta).get(NO_TIME_FORFEIT) == "yes":
            raise ClockRefusedError(
                f"{state.name(player)}'s reserve has expired, but the players agreed at the "
                "start not to end the match on time: play goes on (the director may set the "
                "clocks: 'clock set')",
                self.profile.cite(Decision.NO_TIME_FORFEIT),
            )
        both = figure(timer, other(player), now) == 0
        first = _first_to_run_out(history, now) if both and history is not None else None
        if first is not None:
            player, both = first, False  # the ledger's times determine it (USBGF 4.3.3)
        figures_now = {"reserve_a_ms": left[0], "reserve_b_ms": left[1]}
        outcome = "both-expired" if both else "forfeit"
        with self.atomic():  # the expiry and what follows it, or nothing
            expired = self._record(
                TimeExpired, by, when, player=player, outcome=outcome, rule=rule, **figures_now
            )
            if both:
                reason = "both reserves had expired and neither can be shown to have run out first"
                nominal = (nominal_ms, nominal_ms)
                self.set_clock(nominal, rule=expired_rule, reason=reason, by=by, at=when)
            else:
                self._forfeit(other(player), by=by, at=when)
        return expired

    def _flag_after_the_claim(self, player: str, *, by: str, at: str | None) -> TimeExpired:
        """A flag once the match is won: CLOCK 5.3 where the winner's reserve was spent before
        his last checker was off (the clock settled at 0:00 at the game's end).

        :raises ClockRefusedError: otherwise: the match is over.
        """
        state, timer = self.state, self.state.timer
        assert timer is not None and state.winner is not None
        rules = self.profile.clock(timer.mode)
        spent = (
            state.winner == player
            and timer.stopped != "time-expired"
            and timer.reserve_ms[0 if player == "a" else 1] == 0
            and bool(state.games)
        )
        if not spent or rules is None:
            raise ClockRefusedError("the match is over", self.profile.cite(Decision.STOP_GAME_OVER))
        claim = rules.expiry_before_claim
        if expired_before_claim(state) != player:
            raise ClockRefusedError(
                f"the match is over: {state.name(player)} won it before anyone announced that "
                f"{state.name(player)}'s reserve had expired, and time runs out when it is "
                "announced",
                claim.rule or self.profile.cite(Decision.TIME_EXPIRED),
            )
        when, _ = self._moment(at)
        last = state.games[-1]
        score = pair_with(
            state.score, last.winner, state.score[0 if last.winner == "a" else 1] - last.points
        )
        rule = claim.rule or self.profile.cite(Decision.TIME_EXPIRED)
        with self.atomic():
            expired = self._record(
                TimeExpired, by, when, player=player, outcome="forfeit", rule=rule,
                reserve_a_ms=timer.reserve_ms[0], reserve_b_ms=timer.reserve_ms[1],
            )  # fmt: skip
            self._record(MatchWon, by, when, winner=other(player), score_a=score[0],
                         score_b=score[1])  # fmt: skip
        return expired

    def _forfeit(self, winner: str, *, by: str, at: str) -> None:
        """``winner`` wins the match at the score as it stands (time or penalty forfeit)."""
        a, b = self.state.score
        self._record(MatchWon, by, at, winner=winner, score_a=a, score_b=b)

    # -- the director's sanctions and corrections ----------------------------------------------

    def early_pickup(self, player: str, ruling: Ruling) -> ReserveTimePenalized | None:
        """``player`` picked up the dice before his opponent ended his turn; returns the sanction.

        Returns None when the violation forfeits the match (USBGF 4.1.7.2: a
        violation after being reduced to one second); :class:`TimeExpired` and
        ``MatchWon`` are recorded then.

        :raises InvalidClockError: for a player other than ``a`` or ``b``.
        :raises ClockRefusedError: without a clock, or if it is ``player``'s own time running.
        """
        state = self.state
        timer = timer_of(state)
        if player not in ("a", "b"):
            raise InvalidClockError(f"player {player!r}: 'a' or 'b'")
        rules = self._clock_rules(timer.mode)
        sanction = rules.early_pickup.value
        rule = rules.early_pickup.rule or self.profile.cite(Decision.EARLY_PICKUP)
        if timer.turn == player:
            raise ClockRefusedError(
                f"it is {state.name(player)}'s own turn on the clock: the dice are "
                f"{state.name(player)}'s to pick up",
                rule,
            )
        when, now = self._moment(ruling.at)
        common = {"rule": rule, "ruled_by": ruling.ruled_by, "reason": ruling.reason.strip()}
        index = 0 if player == "a" else 1
        if sanction is EarlyPickup.DELAY_FORFEITED:
            kind, penalty = "delay-forfeited", 0
        elif timer.pickups[index] == 0:
            kind, penalty = "warning", 0
        elif timer.at_one_second[index]:
            self._forfeit_on_time(player, rule, ruling.by, when)
            return None
        else:
            penalty = (rules.early_pickup_penalty_seconds.value or 30) * 1000
            kind = "reserve" if figure(timer, player, now) >= penalty else "to-one-second"
        return self._record(
            ReserveTimePenalized, ruling.by, when, player=player, kind=kind,
            penalty_ms=penalty, **common,
        )  # fmt: skip

    def pickup_with_hit(
        self, history: Sequence[MatchEvent], player: str, ruling: Ruling
    ) -> ReserveTimeRestored | None:
        """``player`` hit the clock to end his turn and also picked up the dice (USBGF 4.1.8.1).

        "The game clock shall be stopped, the dice shall be handed to the
        player on roll, and any reserve time lost by the player on roll shall be
        restored, before reactivating the time of the player on roll": the clock
        stops (USBGF 4.3.2(f); unless it was stopped already) and the reserve the
        clock took from the player on roll since ``player``'s hit is given back
        (None if it took nothing: the delay covered the wait).  ``clock resume``
        reactivates his time once he has the dice.  Reserve time only: the
        delay of the turn that ran while he waited is not reserve.

        :raises InvalidClockError: for a player other than ``a`` or ``b``.
        :raises ClockRefusedError: without a clock, or unless the player on roll
            is waiting on his time, not yet rolled, since ``player``'s hit.
        """
        state = self.state
        timer = timer_of(state)
        if player not in ("a", "b"):
            raise InvalidClockError(f"player {player!r}: 'a' or 'b'")
        cite, name, on_roll = self.profile.cite, state.name, other(player)
        rule = cite(Decision.PICKUP_RESTORED)
        waiting = _waiting_for_dice(state, timer, player)
        hits = [
            e
            for e in in_force(history)
            if isinstance(e, ClockHit | ClockHitImplied) and e.player == player
        ]
        if not waiting or not hits:
            raise ClockRefusedError(
                f"{name(on_roll)} is not waiting for the dice on that player's time since "
                f"{name(player)}'s hit ({_decide.situation(state)}): nothing to restore",
                rule,
            )
        when, now = self._moment(ruling.at)
        with self.atomic():  # the stop and the restoration, or nothing
            if timer.running:
                stopped = cite(_stops.STOPPED_UNDER["dice-picked-up"])
                self._record(ClockStopped, ruling.by, when, reason="dice-picked-up", rule=stopped)
            then = _figure_at(history, hits[-1], on_roll)
            before = pair_with(timer.reserve_ms, on_roll, then)
            return self._restore_on_roll(on_roll, before, when, now, ruling)

    def _restore_on_roll(
        self, on_roll: str, before: tuple[int, int], when: str, now: int, ruling: Ruling
    ) -> ReserveTimeRestored | None:
        """USBGF 4.1.8.1: give ``on_roll`` back the reserve his clock took since the hit that
        started his time (``before``: the reserves then), the clock being stopped.  None if it
        took nothing (the delay covered the wait).

        What the wait took for good: on a Bronstein clock too, the time it counted down
        inside the deductible comes back at the hit, so it is not restored twice; both
        clocks give the same reserve after the hit."""
        after = self.state.timer
        assert after is not None
        lost = max(0, before[0 if on_roll == "a" else 1] - _kept(after, on_roll, now))
        if lost == 0:
            return None
        return self._record(
            ReserveTimeRestored, ruling.by, when, player=on_roll,
            restored_ms=lost, rule=self.profile.cite(Decision.PICKUP_RESTORED),
            ruled_by=ruling.ruled_by, reason=ruling.reason.strip(),
        )  # fmt: skip

    def _forfeit_on_time(self, player: str, rule: str, by: str, when: str) -> None:
        """USBGF 4.1.7.2: a violation after the reduction to one second forfeits the match."""
        assert self.state.timer is not None
        left = figures(self.state.timer, at_ms(when))
        with self.atomic():
            self._record(
                TimeExpired, by, when, player=player, outcome="forfeit", rule=rule,
                reserve_a_ms=left[0], reserve_b_ms=left[1],
            )  # fmt: skip
            self._forfeit(other(player), by=by, at=when)

    def revert(self, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
        """Undo an illegal play (USBGF 4.2.3(c)); on a clock, the offender replays on his time.

        CLOCK 4.3: the opponent "brings attention to the illegal play and hits
        the clock. The player makes a legal checker play, then hits the clock."
        Where the opponent's time runs (or stopped in his turn, USBGF 4.3.2(g))
        when the play is reverted, his hit is recorded with the ruling, at its
        time: the offender's clock runs again, his replay and his hit follow,
        and the opponent is not charged for the replay.
        """
        with self.atomic():
            super().revert(history, number, ruling)
            state, timer = self.state, self.state.timer
            if timer is None or state.winner is not None or state.turn is None:
                return
            opponent = other(state.turn)
            if state.phase is Phase.PLAY and timer.turn == opponent:
                self._record(ClockHit, ruling.by, state.last_at, player=opponent)

    def missed_hit(
        self, history: Sequence[MatchEvent], ruling: Ruling
    ) -> tuple[PlaysReverted, ReserveTimeRestored | None]:
        """The player whose time runs never ended his turn (USBGF 4.1.8.1).

        His opponent's rolls and plays since are nullified (a
        :class:`PlaysReverted` citing 4.1.8.1) and the reserve the clock took
        from him since his last play, double or take is restored; nothing is
        recorded for the reserve if his clock took nothing (it was stopped, or
        the delay covered it).  If the opponent only took a double on his time,
        nothing is nullified (a take is neither a roll nor a move): the ruling
        voids nothing, and the time since the double is restored.

        ``history`` is the match's events so far, as for every ruling
        (:class:`~bgledger.commands.rulings.RulingCommands` says why).

        :raises ClockRefusedError: without a clock or with nobody's time running.
        :raises RulingRefusedError: if there is nothing to nullify and nothing to restore.
        """
        state, missed = self.state, self.profile.cite(Decision.MISSED_HIT)
        timer = timer_of(state)
        late = timer.turn
        if late is None:
            raise ClockRefusedError("nobody's time is running", missed)
        ended, nullified = _turn_end(history, late)
        if ended is None or (not nullified and _lost(history, ended, late, state) == 0):
            raise RulingRefusedError(
                f"{state.name(other(late))} has not rolled or moved on {state.name(late)}'s "
                f"time: {state.name(late)} just hits the clock",
                missed,
            )
        first = nullified[0] if nullified else ended.originator_version
        chosen = self._choose(history, [Subject.CLOCK_NOT_ACTIVATED], first, late, ruling)
        rule = chosen.window.rule or missed
        voids = [first, *actions_after(history, first)] if nullified else []
        with self.atomic():  # the nullification and the restore, or nothing
            reverted = self._record_ruling(history, PlaysReverted, ruling, rule, voids,
                                           event=first, same_checker=[])  # fmt: skip
            assert isinstance(reverted, PlaysReverted)
            return reverted, self._restore(history, ended, late, rule, ruling)

    def _restore(
        self, history: Sequence[MatchEvent], ended: MatchEvent, late: str, rule: str,
        ruling: Ruling,
    ) -> ReserveTimeRestored | None:  # fmt: skip
        """Give ``late`` back what his clock took since ``ended`` (None if it took nothing)."""
        lost = _lost(history, ended, late, self.state)
        if lost == 0:
            return None
        return self._record(
            ReserveTimeRestored, ruling.by, self.state.last_at, player=late,
            restored_ms=lost, rule=rule, ruled_by=ruling.ruled_by, reason=ruling.reason.strip(),
        )  # fmt: skip


# -- the checks behind the commands ------------------------------------------------------


def _delay(
    rules: ClockRules, delay_ms: int | None, doubles: bool, setting: str
) -> tuple[int, str | None]:
    """The delay and the rule it is set by; ``setting`` is the rule of the clock's settings."""
    if doubles:
        chosen = rules.doubles_delay.value
        if delay_ms is None and chosen is None:
            by_director = rules.doubles_delay.rule or setting
            raise InvalidClockError(
                f"doubles delay: the director sets it ({by_director}); give --delay"
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
    rules: ClockRules, state: MatchState, reserve_ms: int | None, doubles: bool, setting: str
) -> tuple[int, str | None]:
    """The reserve and the rule it is set by; ``setting`` is the rule of the clock's settings."""
    length, (a, b) = state.length, state.score
    if reserve_ms is not None:
        if reserve_ms <= 0:
            raise InvalidClockError(f"reserve {clock_text(reserve_ms)}: must be more than 0:00")
        return reserve_ms, None
    if doubles:
        seconds = rules.doubles_reserve_seconds(length, a, b)
        if seconds is None:
            by_director = rules.doubles_reserve_per_point.rule or setting
            raise InvalidClockError(
                f"doubles match time: the director sets it ({by_director}); give --reserve"
            )
        return seconds * 1000, rules.doubles_reserve_per_point.rule
    mid_match = (a, b) != (0, 0) and rules.reserve_per_point_to_go.value is not None
    cited = rules.reserve_per_point_to_go if mid_match else rules.reserve_per_point
    return rules.reserve_seconds(length, a, b) * 1000, cited.rule


def _first_to_run_out(history: Sequence[MatchEvent], now_ms: int) -> str | None:
    """Whose reserve ran out first, by the ledger's times: the player whose figure reached
    0:00 in an earlier stretch between events (only one clock runs at a time), or None if
    both reached it in the same stretch (a setting of both to 0:00) or neither is at 0:00."""
    state: MatchState | None = None
    ran_out: dict[str, int | None] = {"a": None, "b": None}
    stretch = 0
    events = list(history)
    for index, event in enumerate(events):
        state = apply(state, event, events[:index])
        timer = state.timer
        if timer is None:
            continue
        until = at_ms(events[index + 1].at) if index + 1 < len(events) else now_ms
        stretch += 1
        for player in ("a", "b"):
            if figure(timer, player, until) > 0:
                ran_out[player] = None
            elif ran_out[player] is None:
                ran_out[player] = stretch
    a, b = ran_out["a"], ran_out["b"]
    if a is None or b is None or a == b:
        return None
    return "a" if a < b else "b"


def _concession_pending(state: MatchState, profile: Profile) -> None:
    """:raises ClockRefusedError: the clocks are stopped for a concession on the table: its
    answer ends the game or restarts the player's clock (CLOCK 5.1)."""
    offer = state.resignation
    who = state.name(offer.player) if offer else "a player"
    answer = state.name(other(offer.player)) if offer else "the opponent"
    raise ClockRefusedError(
        f"both clocks are stopped for {who}'s concession: {answer} accepts it, or rejects it "
        f"and {who}'s clock restarts",
        profile.cite(Decision.STOP_CONCESSION),
    )


def _kept(timer: ClockState, player: str, now_ms: int) -> int:
    """``player``'s reserve if his turn ended at ``now_ms``: ``max(0, used - delay)`` off, on
    either clock (a Bronstein clock gives the deductible back at the hit)."""
    reserve = timer.reserve_ms[0 if player == "a" else 1]
    if timer.turn != player:
        return reserve
    return max(0, reserve - max(0, timer.used(now_ms) - timer.turn_delay_ms))


def _waiting_for_dice(state: MatchState, timer: ClockState, hitter: str) -> bool:
    """Whether ``hitter``'s opponent is on roll and waiting, his time running (or stopped in
    that wait), not yet rolled: the dice picked up with ``hitter``'s hit (USBGF 4.1.8.1)."""
    on_roll = other(hitter)
    return timer.turn == on_roll and state.phase is Phase.ROLL and state.turn == on_roll


def _check_hitter(state: MatchState, timer: ClockState, hitter: str, profile: Profile) -> None:
    """Refuse a hit by ``hitter`` that ends no turn, saying what happened and what to record.

    Never pointing to the ``missed-hit`` sanction: a hit by the wrong player is
    nearly always a slip of the scorekeeper's, and a roll on the wrong time is
    refused or recorded with its implied hit before it can happen
    (:func:`forgotten_hit`).
    """
    if hitter not in ("a", "b"):
        raise InvalidClockError(f"player {hitter!r}: 'a' or 'b'")
    name, turn_end = state.name, profile.cite(Decision.TURN_END)
    running = timer.turn
    opening = _opening_started(state, timer, profile)
    if opening is not None and hitter == other(state.turn or "a"):
        return  # the lower die's hit, recorded as made: the winner's turn runs from it
    if opening is not None:
        winner, loser = name(state.turn or "a"), name(other(state.turn or "a"))
        raise ClockRefusedError(
            f"the opening roll started {winner}'s clock ({loser}'s lower die): {winner} has "
            f"nothing to hit until {winner} has played; then 'hit' ({loser}'s hit that "
            f"started it: 'hit {other(state.turn or 'a')}')",
            opening,
        )
    if running is not None and running != hitter:
        if state.actor == hitter:
            raise ClockRefusedError(
                f"{name(hitter)}'s time is not running, {name(running)}'s is: {name(running)} "
                f"has ended the turn ({_decide.situation(state)}) but that hit was not "
                f"recorded; {name(hitter)} hits after that turn",
                turn_end,
                NextStep(
                    f"record {NextStep.literal(name(running))}'s hit first: {{}} (with its "
                    "time if it was earlier)",
                    (("hit", running),),
                    state.match_id,
                ),
            )
        raise ClockRefusedError(
            f"{name(hitter)}'s time is not running, {name(running)}'s is, and it is "
            f"{name(running)}'s turn ({_decide.situation(state)}): {name(hitter)} has nothing "
            f"to hit; {name(running)} hits after the play, double or take",
            turn_end,
        )
    if state.actor == hitter and state.phase is Phase.ROLL and no_legal_move(state):
        return  # CLOCK 3.4: "not required to roll the dice but must continue hitting the clock"
    if state.actor == hitter:
        raise ClockRefusedError(
            f"{name(hitter)} has not finished the turn ({_decide.situation(state)}): a turn "
            "ends with a hit after a play, a double, a take or a roll that cannot be played",
            turn_end,
        )


def _opening_started(state: MatchState, timer: ClockState, profile: Profile) -> str | None:
    """The rule by which the opening roll on the board started the winner's clock, if it did."""
    if not (state.opening_dice and state.phase is Phase.PLAY and timer.running):
        return None
    rules = profile.clock(timer.mode)
    if rules is None or timer.turn != state.turn:
        return None
    return rules.opening_starts_clock.rule or profile.cite(Decision.OPENING_HIT)


def opening_hitter(state: MatchState, profile: Profile) -> str | None:
    """Who starts his opponent's clock with the opening roll just made: the lower die's player.

    ``state`` is the match with the opening roll folded in.  None without a
    clock, on a tie, or where the profile's clock rules do not start the
    clock with the opening roll (:attr:`ClockRules.opening_starts_clock`,
    CLOCK 3.3).
    """
    timer = state.timer
    if timer is None or state.turn is None or not state.opening_dice:
        return None
    rules = profile.clock(timer.mode)
    if rules is None or not rules.opening_starts_clock.value:
        return None
    return other(state.turn)


def forgotten_hit(
    state: MatchState,
    profile: Profile,
    player: str,
    *,
    as_played: bool = False,
    action: str = "roll or double",
    command: tuple[str, ...] = (),
) -> str | None:
    """Before ``player`` rolls, doubles, takes or drops: his opponent's time must not be running.

    A take or a drop too: the doubler hits after doubling (USBGF 4.4.3, CLOCK
    3.5), so an answer recorded on his time is a forgotten hit like a roll's,
    and the profile treats it the same way.

    If it is, the opponent's hit at the end of his turn was never recorded.
    The profile's clock rules decide (:attr:`ClockRules.forgotten_hit`):
    under :attr:`ForgottenHit.IMPLIED_HIT` the rule to record the opponent's
    hit under, as implied by the action (:class:`ClockHitImplied`); else the
    action is refused.  None when the clock is right, or there is none, or
    the action is recorded ``as_played`` (as made on the opponent's time).
    ``command`` is the action as a command (``("roll", "6", "4")``): the
    refusal's next step offers it ``--as-played``.

    :raises ClockRefusedError: under :attr:`ForgottenHit.REFUSE_ROLL`, saying how to fix it.
    """
    timer, late = state.timer, other(player)
    if timer is None or timer.turn != late or as_played:
        return None
    rules = profile.clock(timer.mode)
    if rules is None:
        return None
    rule = rules.forgotten_hit.rule or profile.cite(Decision.TURN_END)
    if rules.forgotten_hit.value is ForgottenHit.IMPLIED_HIT:
        return rule
    name = state.name
    running = "still running" if timer.running else "stopped, in that turn"
    them, me = NextStep.literal(name(late)), NextStep.literal(name(player))
    first = (
        f"if {them} hit the clock, record that hit first: {{}} (with its time if it was earlier)"
    )
    if action not in ("take", "drop"):
        after = (
            f"if not, a roll made now is void: {them} hits, then {me} rolls again (a roll "
            "that was played on regardless, for the director: {})"
        )
    else:
        after = (
            f"if not, {them} hits now and {me}'s {action} follows (a {action} made on that "
            "player's time regardless: {}"
            + (", for the director's missed-hit)" if action == "take" else ")")
        )
    made = (*(command or (action.split()[0],)), "--as-played")
    raise ClockRefusedError(
        f"{name(late)}'s time is {running}: the hit that ends {name(late)}'s turn was not "
        f"recorded, and {name(player)} may not {action} on it",
        rule,
        NextStep(f"{first}, then this again; {after}", (("hit", late), made), state.match_id),
    )


def deductible_wait(state: MatchState, profile: Profile, player: str, when: str) -> None:
    """Before ``player`` rolls at ``when``: a player who forfeited his deductible by an early
    pick-up "must wait until his deductible has counted down to zero before rolling his
    dice" (CLOCK 4.1).

    :raises ClockRefusedError: for a roll on his time before it has, saying when it will.
    """
    timer = state.timer
    if timer is None or timer.turn != player or not timer.no_delay[0 if player == "a" else 1]:
        return
    now = at_ms(when)
    left = timer.turn_delay_ms - timer.used(now)
    if left <= 0:
        return
    rules = profile.clock(timer.mode)
    rule = (rules.early_pickup.rule if rules else None) or profile.cite(Decision.DELAY_FORFEITED)
    name = state.name(player)
    if timer.running:
        zone = datetime.fromisoformat(when).tzinfo
        ready = datetime.fromtimestamp((now + left) / 1000, zone).strftime("%H:%M:%S")
        until = f"until {ready}, {left / 1000:g} s from now"
    else:
        until = f"{left / 1000:g} s more once the clock runs again"
    raise ClockRefusedError(
        f"{name} picked up the dice early and forfeited the deductible of this checker play: "
        f"{name} must wait until it has counted down to zero before rolling ({until})",
        rule,
    )


def _reason(text: str, stops: str) -> str:
    """The code of the stop reason ``text`` (a code, a letter, or ``stops`` with the letter).

    ``stops`` is the rule that lists the reasons (USBGF 4.3.2).
    """
    word = text.strip().lower().removeprefix(stops.lower()).strip("()")
    for code, (letter, _) in REASONS.items():
        if word in (code, letter) and letter:
            return code
    listed = ", ".join(f"{letter}) {code}" for code, (letter, _) in REASONS.items() if letter)
    raise InvalidClockError(f"stop reason {text!r}: {stops} lists ({listed})")


def _stopped_why(timer: ClockState, profile: Profile) -> str:
    if timer.stopped is None:
        return "nobody's time has started"
    return f"stopped: {_stops.reason_text(timer.stopped, profile)}"


def _turn_end(history: Sequence[MatchEvent], late: str) -> tuple[MatchEvent | None, list[int]]:
    """``late``'s turn-ending action since his time started, and the opponent's rolls and
    moves after it.

    Only game actions in force count (a voided roll or play was never made).
    """
    events = in_force(history)
    started = max(
        (
            e.originator_version
            for e in events
            if isinstance(e, ClockHit | ClockHitImplied) and e.player != late
        ),
        default=0,
    )
    ended: MatchEvent | None = None
    nullified: list[int] = []
    for event in (e for e in events if e.originator_version > started):
        actor = getattr(event, "player", None)
        if ended is None and isinstance(event, _ENDS_TURN) and actor == late:
            ended = event
        elif ended is not None and actor == other(late) and type(event) in _OPPONENT_ACTIONS:
            nullified.append(event.originator_version)
    return ended, nullified


def _figure_at(history: Sequence[MatchEvent], event: MatchEvent, player: str) -> int:
    """``player``'s reserve right after ``event``, at its time."""
    state = fold(history[: event.originator_version])
    assert state is not None and state.timer is not None
    return figure(state.timer, player, at_ms(event.at))


def _lost(history: Sequence[MatchEvent], ended: MatchEvent, late: str, now: MatchState) -> int:
    """The reserve ``late``'s clock took from his turn's end (``ended``) until ``now``."""
    then = _figure_at(history, ended, late)
    timer = now.timer
    assert timer is not None
    return max(0, then - figure(timer, late, at_ms(now.last_at)))
