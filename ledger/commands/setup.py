"""Setting up a match, and errors in its starting position.

A match usually starts at 0-0 before its first game.  A transcription (or a
scorekeeper who arrives late) may start at another score: ``score`` then
gives it, and ``crawford_status`` says whether the first game recorded is
the Crawford game or after it, which the score alone cannot tell (USBGF
4.4.6: the Crawford game is the first game after a player reaches one point
from the match).  :meth:`SetupCommands.start` records
:class:`~bgledger.events.MatchStarted` and, with a game clock, sets it
(:class:`~bgledger.commands.clock.ClockCommands`).

Errors in the starting position: recording a wrong setup
(:meth:`SetupCommands.record_setup`), and the director's correction
(:meth:`SetupCommands.correct_setup`).  USBGF 4.2.4: an error noticed before
the player who did not start the game has completed his second turn is
corrected: with the dice rolled so far if no move was affected, else the game
is replayed from the standard position with new rolls.  Noticed later, the
position stands, and a side with fewer than fifteen checkers may still lose a
gammon or backgammon.  Under ``usbgf-2017`` the window is the fifth roll of
the game (ABT 4.7).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Self
from uuid import UUID

from eventsourcing.domain import DomainEvent

from bgledger.commands import decide as _decide
from bgledger.commands.clock import ClockCommands
from bgledger.commands.rulings import (
    InvalidRulingError,
    Ruling,
    RulingRefusedError,
    check_in_force,
    find,
    is_game_action,
    valid_roll,
)
from bgledger.errors import ActionRefusedError, InvalidMatchSetupError
from bgledger.events import (
    CheckersPlayed,
    DiceRolled,
    GameStarted,
    MatchEvent,
    MatchStarted,
    OpeningRollMade,
    StartingPositionCorrected,
    StartingPositionRecorded,
    UnplayablePlayRecorded,
)
from bgledger.events.chain import chained
from bgledger.projections.state.corrected import corrected, in_force
from bgledger.projections.state.fold import Phase, apply
from bgledger.projections.state.model import Crawford, crawford_status
from bgledger.rules.errors import RulesError
from bgledger.rules.judge import judge, play_result
from bgledger.rules.notation import Play
from bgledger.rules.position import Position
from bgledger.rules.profiles import DEFAULT_PROFILE, Decision, Profile, Subject, Window, get_profile
from bgledger.rules.text import check_name, check_texts

__all__ = [
    "CLOCKS",
    "MATCH_ID",
    "MAX_LENGTH",
    "ROUTE_WORDS",
    "SetupCommands",
    "check_score",
    "check_setup",
]

MATCH_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
ROUTE_WORDS = ("new",)
"""Ids a page of ``bgledger serve`` takes for itself: ``/matches/new`` is the director's form,
so a match ``new`` could never be shown there (tests/test_tokens.py keeps this in step with
the routes).  Nor may an id end ``.mat``: ``/matches/MATCH.mat`` is a match's ``.mat`` file."""
CLOCKS = ("none", "simple-delay", "bronstein")
MAX_LENGTH = 999
MAX_NAME = 100
"""The most characters of a player's name (a score sheet's column, a .mat score line)."""
_STATUSES = ("pre", "crawford", "post")


class SetupCommands(ClockCommands):
    """Starting a match, and the errors in a game's starting position.

    Built on :class:`~bgledger.commands.clock.ClockCommands`: a match started
    with a clock has it set at once; correcting a setup is a ruling
    (:class:`~bgledger.commands.rulings.RulingCommands`).
    """

    @classmethod
    def start(
        cls,
        stream: UUID,
        match_id: str,
        players: tuple[str, str],
        length: int,
        *,
        by: str,
        at: str | None = None,
        **setup: Any,
    ) -> Self:
        """A new match, recorded as :class:`MatchStarted`.

        ``setup`` is :func:`_match_started`'s keyword arguments
        (profile, clock, crawford, event, round, table, meta, score,
        crawford_status) and, with a clock,
        :meth:`~bgledger.commands.clock.ClockCommands.start_clock`'s
        ``reserve_ms``, ``delay_ms`` and ``doubles``.

        :raises InvalidMatchSetupError: for a bad id, name, length, clock or score,
            or clock settings without a clock.
        :raises UnknownProfileError: for an unknown profile.
        :raises InvalidTimeError: for a malformed ``at``.
        """
        timing = {k: setup.pop(k) for k in ("reserve_ms", "delay_ms", "doubles") if k in setup}
        opened = _match_started(stream, match_id, players, length, by=by, at=at, **setup)
        unclocked = [k for k in ("reserve_ms", "delay_ms") if timing.get(k) is not None]
        if opened.clock == "none" and (unclocked or timing.get("doubles")):
            rule = get_profile(opened.profile).cite(Decision.CLOCK_SETTING)
            raise InvalidMatchSetupError(
                "a reserve, a delay and doubles set up a game clock: give the clock, "
                f"simple-delay or bronstein ({rule})"
            )
        match = cls(stream, 1, apply(None, opened))
        match._pending.append(opened)  # the first event: there is no stream to record it on yet
        match._made.append(match.state)
        if opened.clock != "none":  # the clock is set now; the opening roll starts it
            match.start_clock(opened.clock, by=by, at=opened.at, **timing)
        return match

    def record_setup(self, position_id: str, *, by: str, at: str | None = None) -> None:
        """The checkers of the game being started were set up as ``position_id`` (player a's view).

        Recorded before the game's first play (starting the game if none is in
        progress) and flagged, since it is not the standard position (USBGF 4.2.4).

        :raises InvalidPositionError: for a bad position id.
        :raises ActionRefusedError: after the first play, or for the standard position.
        """
        found = Position.from_id(position_id)
        # A game begins with nothing borne off: what the board lacks of 15 is missing, and a
        # side starting with fewer than 15 may still lose a gammon (USBGF 4.2.4, ABT 4.7).
        board = Position((0, *found.mover[1:]), (0, *found.opponent[1:]))
        state, rule = self.state, self.profile.cite(Decision.SETUP_ERROR)
        before_play = state.phase is Phase.OPENING or (
            state.phase is Phase.PLAY and state.opening_dice
        )
        if not before_play and state.phase is not Phase.BETWEEN_GAMES:
            raise ActionRefusedError(
                "a setup is recorded before the game's first play: " + _decide.situation(state),
                rule,
            )
        if board == Position.start():
            raise ActionRefusedError(f"{position_id} is the standard starting position", rule)
        if state.phase is Phase.BETWEEN_GAMES:
            self._record(GameStarted, by, at, number=state.game + 1)
        problems = "; ".join(board.problems()) or "checkers are not where they start"
        self._record(
            StartingPositionRecorded, by, at, board_a=list(board.mover),
            board_b=list(board.opponent), legal=False,
            reason=f"not the standard starting position: {problems}", rule=rule,
        )  # fmt: skip

    def correct_setup(self, history: Sequence[MatchEvent], number: int, ruling: Ruling) -> None:
        """Correct the wrong setup ``number`` while its window is open (USBGF 4.2.4, ABT 4.7).

        ``history`` is the match's events so far, as for every ruling
        (:class:`~bgledger.commands.rulings.RulingCommands` says why).

        :raises InvalidRulingError: if ``number`` is not a recorded setup.
        :raises RulingRefusedError: once the window has closed: the position stands.
        """
        event = find(history, number)
        if not isinstance(event, StartingPositionRecorded):
            raise InvalidRulingError(f"event {number} is a {type(event).__name__}, not a setup")
        check_in_force(self.profile, history, number)
        game = _game_after(history, number)
        rules = self.profile.corrections_for(Subject.STARTING_POSITION)
        setup_error = self.profile.cite(Decision.SETUP_ERROR)
        if not rules:
            refusal = f"{self.profile.name} corrects no setup: it stands"
            raise RulingRefusedError(refusal, setup_error)
        window = rules[0].window
        closing = _closed(window.value, game)
        if closing is not None:
            raise RulingRefusedError(
                f"too late: {closing}; the starting position stands, and a side with fewer than "
                "fifteen checkers may still lose a gammon or backgammon",
                window.rule or setup_error,
            )
        affected = _affected(history, number)
        voids = [number]
        if affected:
            voids += [e.originator_version for e in game if is_game_action(e)]
            voids = [n for n in voids if n != number] + [number]
        rule = window.rule or setup_error
        self._record_ruling(
            history, StartingPositionCorrected, ruling, rule, voids,
            event=number, replayed=affected,
        )  # fmt: skip


# -- the checks behind the commands ------------------------------------------------------


def _match_started(
    stream: UUID,
    match_id: str,
    players: tuple[str, str],
    length: int,
    *,
    profile: str = DEFAULT_PROFILE,
    clock: str = "none",
    crawford: bool | None = None,
    event: str = "",
    round: str = "",
    table: str = "",
    meta: dict[str, str] | None = None,
    score: tuple[int, int] = (0, 0),
    crawford_status: str | None = None,
    by: str,
    at: str | None = None,
) -> MatchStarted:
    """The first event of a new match, once its setup is checked.

    ``crawford`` (whether the Crawford rule applies) defaults to the
    profile's; ``crawford_status`` to ``pre``, or ``crawford`` when the
    starting score has a player one point away.

    :raises InvalidMatchSetupError: for a bad id, name, length, clock, score or status.
    :raises UnknownProfileError: for an unknown profile.
    :raises InvalidTimeError: for a malformed ``at``.
    """
    names = (players[0].strip(), players[1].strip())
    rules = check_setup(match_id, names, length, profile, clock)
    for label, text in (("--event", event), ("--round", round), ("--table", table)):
        check_name(label, text)
    check_texts({"--by": by})
    check_texts({"tag": dict(meta or {})})
    rule = rules.cube.crawford.value if crawford is None else crawford
    status = check_score(score, length, crawford_status, rule, rules)
    opened = MatchStarted(
        originator_id=stream,
        originator_version=1,
        timestamp=DomainEvent.create_timestamp(),
        at=_decide.stamp(at, None),
        recorded_by=by,
        match_id=match_id,
        player_a=names[0],
        player_b=names[1],
        length=length,
        profile=profile,
        clock=clock,
        crawford=rule,
        event=event,
        round=round,
        table=table,
        meta=dict(meta or {}),
        score_a=score[0],
        score_b=score[1],
        crawford_status=status,
    )
    return chained(opened, "")


def check_setup(
    match_id: str, names: tuple[str, str], length: int, profile: str, clock: str
) -> Profile:
    """The profile of a new match, once its setup is checked.

    :raises InvalidMatchSetupError: for a bad id, name, length or clock.
    :raises UnknownProfileError: for an unknown profile.
    """
    if not MATCH_ID.fullmatch(match_id):
        raise InvalidMatchSetupError(
            f"match id {match_id!r}: use 1-64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    if match_id.casefold() in ROUTE_WORDS or match_id.casefold().endswith(".mat"):
        raise InvalidMatchSetupError(
            f"match id {match_id!r}: the web server's /matches/{match_id} is another page "
            "(/matches/new starts a match, /matches/MATCH.mat is a match's file): choose another"
        )
    for label, name in zip(("--a", "--b"), names, strict=True):
        if not name.strip():
            raise InvalidMatchSetupError(f"player {label} {name!r}: a name is needed")
        check_name(f"player {label}", name, MAX_NAME)
    if names[0].strip().casefold() == names[1].strip().casefold():
        raise InvalidMatchSetupError(f"both players are called {names[0]!r}")
    if not 1 <= length <= MAX_LENGTH:
        raise InvalidMatchSetupError(f"match length {length!r}: must be 1-{MAX_LENGTH} points")
    rules = get_profile(profile)
    if clock not in CLOCKS:
        raise InvalidMatchSetupError(f"clock {clock!r}: one of {', '.join(CLOCKS)}")
    if clock != "none" and rules.clock(clock) is None:
        raise InvalidMatchSetupError(f"profile {profile} has no {clock} clock")
    return rules


def check_score(
    score: tuple[int, int], length: int, status: str | None, crawford_rule: bool, profile: Profile
) -> str:
    """The Crawford status of a match starting at ``score`` under ``profile``.

    :raises InvalidMatchSetupError: for a score at or beyond the length, or a
        status that the score or the rule makes impossible.
    """
    if any(points < 0 or points >= length for points in score):
        raise InvalidMatchSetupError(
            f"starting score {score[0]}-{score[1]}: each must be 0 to {length - 1} "
            f"in a {length}-point match"
        )
    away = crawford_status(crawford_rule, length, score) is Crawford.CRAWFORD
    if status is None:
        return "crawford" if away else "pre"
    if status not in _STATUSES:
        raise InvalidMatchSetupError(f"Crawford status {status!r}: one of {', '.join(_STATUSES)}")
    if (status != "pre") != away:
        rule = profile.cite(Decision.CRAWFORD)
        raise InvalidMatchSetupError(
            f"Crawford status {status!r} at {score[0]}-{score[1]} of {length} ({rule}): "
            "'crawford' or 'post' only when a player is one point away"
        )
    return status


def _game_after(history: Sequence[MatchEvent], number: int) -> list[MatchEvent]:
    """The game actions in force of the setup's game, from its start (not the setup itself)."""
    kept = in_force(history)
    start = max(
        (e.originator_version for e in kept if isinstance(e, GameStarted)
         and e.originator_version < number),
        default=0,
    )  # fmt: skip
    return [e for e in kept if e.originator_version > start and e.originator_version != number]


def _closed(window: Window, game: Sequence[MatchEvent]) -> str | None:
    """What closed the setup's window in ``game``, in words; None while it is open."""
    if any(isinstance(e, GameStarted) for e in game):
        return "the game is over"
    if window is Window.BEFORE_FIFTH_ROLL:
        rolls = [
            e for i, e in enumerate(game)
            if (isinstance(e, OpeningRollMade) and e.die_a != e.die_b)
            or (isinstance(e, DiceRolled) and valid_roll(game, i))
        ]  # fmt: skip
        if len(rolls) >= 5:
            return f"the fifth roll of the game was made at event {rolls[4].originator_version}"
        return None
    opening = next((e for e in game if isinstance(e, OpeningRollMade) and e.die_a != e.die_b), None)
    if opening is None:
        return None
    non_starter = "b" if opening.die_a > opening.die_b else "a"
    turns = [
        e for e in game
        if isinstance(e, CheckersPlayed | UnplayablePlayRecorded) and e.player == non_starter
    ]  # fmt: skip
    if len(turns) >= 2:
        done = turns[1].originator_version
        return f"the player who did not start completed a second turn at event {done}"
    return None


def _affected(history: Sequence[MatchEvent], number: int) -> bool:
    """True if a play made on the wrong setup would not be the same play on the right one.

    USBGF 4.2.4: "If, however, either player's moves were affected by the
    original error, then the game must be replayed".  A play is affected if
    on the right position it would be illegal where it was legal (or the
    other way round), or would hit a different number of checkers: a hit on
    a checker that should not have been there, or no hit on one that should.
    """
    without = [e for e in history if e.originator_version != number]
    for event in _game_after(history, number):
        if not isinstance(event, CheckersPlayed):
            if isinstance(event, UnplayablePlayRecorded):
                return True
            continue
        before = corrected(without, at=event.originator_version - 1)
        made_on = corrected(history, at=event.originator_version - 1)
        if before is None or before.dice is None or made_on is None:
            return True
        try:
            play = Play.parse(event.play)
            verdict = judge(before.position, before.dice, play)
            hits = (_hits(before.position, play), _hits(made_on.position, play))
        except RulesError:
            return True
        if verdict.legal != event.legal or hits[0] != hits[1]:
            return True
    return False


def _hits(position: Position, play: Play) -> int:
    """How many of the opponent's checkers ``play`` sends to the bar from ``position``.

    :raises RulesError: if the play does not fit the position.
    """
    after = play_result(position, play)  # the opponent is on roll after it
    return after.mover[25] - position.opponent[25]
