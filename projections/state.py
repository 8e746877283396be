"""The one fold: match events in, a frozen :class:`MatchState` out.

``fold(events)`` and ``apply(state, event)`` are the only place the score,
the cube, the board, the turn and the Crawford status are worked out.  The
:class:`ledger.match.Match` aggregate decides on the state this fold gives,
``show`` draws it and ``history`` describes events against it: one copy of
the logic (DESIGN, layout).

Applying an event never validates and never raises (DESIGN principle 1): an
event is a fact already decided.  Should a stored play no longer fit the board
(a store edited by hand, a rules engine changed under it), the board is left
as it was and the state lists the problem in ``anomalies``.

Players are ``'a'`` and ``'b'``; each side's checkers are 26 counts in its own
numbering (0 borne off, 1-24 the points, 25 the bar), as in
:class:`ledger.rules.position.Position`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, TypeVar

from ledger.events import (
    CheckersPlayed,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    GameStarted,
    GameWon,
    MatchEvent,
    MatchStarted,
    MatchWon,
    OpeningRollMade,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    RollVoided,
)
from ledger.rules.errors import RulesError
from ledger.rules.judge import make_play
from ledger.rules.notation import Play
from ledger.rules.position import Checkers, Position

PLAYERS = ("a", "b")


def other(player: str) -> str:
    """The opponent of ``player`` (``'a'`` or ``'b'``)."""
    return "b" if player == "a" else "a"


def seat(player: str) -> int:
    """0 for ``'a'``, 1 for ``'b'``: the player's index in pairs and gnubg's player number."""
    return 0 if player == "a" else 1


class Phase(StrEnum):
    """Where the match stands: what the next action can be."""

    BETWEEN_GAMES = "between-games"
    """No game in progress: the next action is an opening roll (or the match is new)."""
    OPENING = "opening"
    """A game has begun and its opening rolls have tied so far."""
    ROLL = "roll"
    """The player on roll may double or roll."""
    REROLL = "reroll"
    """The player's roll was voided: he must roll again and may not double (USBGF 4.4.2)."""
    PLAY = "play"
    """The dice are rolled: the player on roll moves."""
    DOUBLED = "doubled"
    """The player on roll has doubled: his opponent takes or drops."""
    RESIGNED = "resigned"
    """A concession is offered: the other player accepts or rejects it."""
    ENDING = "ending"
    """The game has just ended (last checker off, a pass, a concession): its result follows."""
    OVER = "over"
    """The match is won."""


class Crawford(StrEnum):
    """Crawford status (USBGF 4.4.6) of the game in progress, or of the next game."""

    PRE = "pre"
    CRAWFORD = "crawford"
    POST = "post"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game, as a score sheet row shows it (USBGF 4.7)."""

    number: int
    winner: str
    result: str
    cube: int
    points: int
    how: str
    crawford: bool
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Resignation:
    """A concession on the table: by ``player``, at ``level``; ``resume`` if rejected."""

    player: str
    level: str
    resume: Phase


_START = Position.start().mover


@dataclass(frozen=True, slots=True)
class MatchState:
    """The state of a match after some number of events (all fields read-only)."""

    match_id: str
    players: tuple[str, str]
    length: int
    profile: str
    clock: str
    crawford_rule: bool
    event: str = ""
    round: str = ""
    table: str = ""
    meta: tuple[tuple[str, str], ...] = ()
    score: tuple[int, int] = (0, 0)
    games: tuple[GameRecord, ...] = ()
    game: int = 0
    crawford: Crawford = Crawford.PRE
    phase: Phase = Phase.BETWEEN_GAMES
    turn: str | None = None
    dice: tuple[int, int] | None = None
    opening_dice: bool = False
    cube: int = 1
    cube_owner: str | None = None
    offer: int | None = None
    board: tuple[Checkers, Checkers] = (_START, _START)
    resignation: Resignation | None = None
    winner: str | None = None
    events: int = 0
    flagged: tuple[int, ...] = ()
    anomalies: tuple[str, ...] = ()
    started_at: str = ""
    last_at: str = ""

    # -- derived views -------------------------------------------------------

    @property
    def in_game(self) -> bool:
        """True while a game is being played (from its first opening roll to its end)."""
        return self.phase not in (Phase.BETWEEN_GAMES, Phase.OVER)

    @property
    def position(self) -> Position:
        """The board with the player on roll as mover (player ``a`` when nobody is)."""
        mover = seat(self.turn or "a")
        return Position.trusted(self.board[mover], self.board[1 - mover])

    @property
    def actor(self) -> str | None:
        """Who must act next; ``None`` when either may (an opening roll) or the match is over."""
        if self.phase is Phase.DOUBLED and self.turn is not None:
            return other(self.turn)
        if self.phase is Phase.RESIGNED and self.resignation is not None:
            return other(self.resignation.player)
        if self.phase in (Phase.ROLL, Phase.REROLL, Phase.PLAY):
            return self.turn
        return None

    def name(self, player: str) -> str:
        """The name of player ``'a'`` or ``'b'``."""
        return self.players[seat(player)]

    def pips(self) -> tuple[int, int]:
        """Pip counts of ``a`` and ``b``."""
        a, b = Position.trusted(self.board[0], self.board[1]).pip_counts()
        return a, b


# -- the fold ----------------------------------------------------------------

E = TypeVar("E", bound=MatchEvent)
_Handler = Callable[[MatchState, Any], MatchState]
_HANDLERS: dict[type[MatchEvent], _Handler] = {}


def _on(event_type: type[E]) -> Callable[[Callable[[MatchState, E], MatchState]], _Handler]:
    def register(handler: Callable[[MatchState, E], MatchState]) -> _Handler:
        _HANDLERS[event_type] = handler
        return handler

    return register


def started(event: MatchStarted) -> MatchState:
    """The state a :class:`MatchStarted` event opens."""
    return MatchState(
        match_id=event.match_id,
        players=(event.player_a, event.player_b),
        length=event.length,
        profile=event.profile,
        clock=event.clock,
        crawford_rule=event.crawford,
        event=event.event,
        round=event.round,
        table=event.table,
        meta=tuple(sorted(event.meta.items())),
        events=event.originator_version,
        started_at=event.at,
        last_at=event.at,
    )


def apply(state: MatchState | None, event: MatchEvent) -> MatchState:
    """The state after ``event``.  Never raises for a well-typed event.

    An event of a kind this fold does not know (from a newer bgledger) is
    counted and otherwise ignored; an event before :class:`MatchStarted`
    starts nothing.
    """
    if isinstance(event, MatchStarted):
        return started(event)
    if state is None:
        msg = f"event {event.originator_version} ({type(event).__name__}) before MatchStarted"
        return replace(_ORPHAN, anomalies=(msg,))
    handler = _HANDLERS.get(type(event))
    if handler is not None:
        state = handler(state, event)
    return replace(state, events=event.originator_version, last_at=event.at)


def fold(events: Iterable[MatchEvent], state: MatchState | None = None) -> MatchState | None:
    """The state after ``events``, starting from ``state`` (None: from nothing)."""
    for event in events:
        state = apply(state, event)
    return state


_ORPHAN = MatchState("?", ("?", "?"), 0, "", "", False)


@_on(GameStarted)
def _game_started(state: MatchState, event: GameStarted) -> MatchState:
    return replace(
        state,
        game=event.number,
        phase=Phase.OPENING,
        turn=None,
        dice=None,
        opening_dice=False,
        cube=1,
        cube_owner=None,
        offer=None,
        board=(_START, _START),
        resignation=None,
    )


@_on(OpeningRollMade)
def _opening(state: MatchState, event: OpeningRollMade) -> MatchState:
    if event.die_a == event.die_b:
        return state
    turn = "a" if event.die_a > event.die_b else "b"
    dice = (event.die_a, event.die_b) if turn == "a" else (event.die_b, event.die_a)
    return replace(state, turn=turn, dice=dice, opening_dice=True, phase=Phase.PLAY)


@_on(DiceRolled)
def _rolled(state: MatchState, event: DiceRolled) -> MatchState:
    dice = (event.die1, event.die2)
    return replace(state, turn=event.player, dice=dice, opening_dice=False, phase=Phase.PLAY)


@_on(RollVoided)
def _voided(state: MatchState, event: RollVoided) -> MatchState:
    if state.opening_dice:
        return replace(state, turn=None, dice=None, opening_dice=False, phase=Phase.OPENING)
    return replace(state, dice=None, phase=Phase.REROLL)


@_on(CheckersPlayed)
def _played(state: MatchState, event: CheckersPlayed) -> MatchState:
    mover = seat(event.player)
    before = Position.trusted(state.board[mover], state.board[1 - mover])
    flagged = state.flagged if event.legal else (*state.flagged, event.originator_version)
    board, anomalies = state.board, state.anomalies
    try:
        _, after = make_play(before, Play.parse(event.play))
        board = (after.opponent, after.mover) if mover == 0 else (after.mover, after.opponent)
    except RulesError as error:
        problem = f"event {event.originator_version}: {event.play!r} does not fit: {error}"
        anomalies = (*anomalies, problem)
    finished = not any(board[mover][1:])
    return replace(
        state,
        board=board,
        turn=event.player if finished else other(event.player),
        dice=None,
        opening_dice=False,
        phase=Phase.ENDING if finished else Phase.ROLL,
        flagged=flagged,
        anomalies=anomalies,
    )


def _flag(state: MatchState, event: CubeOffered | ResignationOffered) -> tuple[int, ...]:
    return state.flagged if event.legal else (*state.flagged, event.originator_version)


@_on(CubeOffered)
def _offered(state: MatchState, event: CubeOffered) -> MatchState:
    flagged = _flag(state, event)
    return replace(
        state, turn=event.player, offer=event.value, phase=Phase.DOUBLED, flagged=flagged
    )


@_on(CubeTaken)
def _taken(state: MatchState, event: CubeTaken) -> MatchState:
    return replace(state, cube=event.value, cube_owner=event.player, offer=None, phase=Phase.ROLL)


@_on(CubeDropped)
def _dropped(state: MatchState, event: CubeDropped) -> MatchState:
    return replace(state, offer=None, phase=Phase.ENDING)


@_on(ResignationOffered)
def _resign_offered(state: MatchState, event: ResignationOffered) -> MatchState:
    offer = Resignation(event.player, event.level, state.phase)
    return replace(state, resignation=offer, phase=Phase.RESIGNED, flagged=_flag(state, event))


@_on(ResignationAccepted)
def _resign_accepted(state: MatchState, event: ResignationAccepted) -> MatchState:
    return replace(state, phase=Phase.ENDING)


@_on(ResignationRejected)
def _resign_rejected(state: MatchState, event: ResignationRejected) -> MatchState:
    resume = state.resignation.resume if state.resignation else Phase.ROLL
    return replace(state, resignation=None, phase=resume)


def crawford_after(state: MatchState, score: tuple[int, int]) -> Crawford:
    """The Crawford status of the game after the current one ends at ``score`` (USBGF 4.4.6).

    The Crawford game is the first game after either player is exactly one
    point away from the match; the games after it are post-Crawford.
    """
    if state.crawford is Crawford.CRAWFORD:
        return Crawford.POST
    reached = max(score) < state.length and state.length - 1 in score
    if state.crawford is Crawford.PRE and state.crawford_rule and reached:
        return Crawford.CRAWFORD
    return state.crawford


@_on(GameWon)
def _game_won(state: MatchState, event: GameWon) -> MatchState:
    gained = (event.points, 0) if event.winner == "a" else (0, event.points)
    score = (state.score[0] + gained[0], state.score[1] + gained[1])
    record = GameRecord(
        number=event.number,
        winner=event.winner,
        result=event.result,
        cube=event.cube,
        points=event.points,
        how=event.how,
        crawford=state.crawford is Crawford.CRAWFORD,
        score=score,
    )
    return replace(
        state,
        score=score,
        games=(*state.games, record),
        crawford=crawford_after(state, score),
        phase=Phase.BETWEEN_GAMES,
        turn=None,
        dice=None,
        opening_dice=False,
        offer=None,
        resignation=None,
    )


@_on(MatchWon)
def _match_won(state: MatchState, event: MatchWon) -> MatchState:
    return replace(state, winner=event.winner, phase=Phase.OVER)
