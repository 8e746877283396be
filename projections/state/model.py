"""The state of a match as the fold gives it: :class:`MatchState` and its parts.

Players are ``'a'`` and ``'b'``; each side's checkers are 26 counts in its own
numbering (0 borne off, 1-24 the points, 25 the bar), as in
:class:`bgledger.rules.position.Position`.  :mod:`bgledger.projections.state.fold` folds
events into these values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bgledger.projections.state.breaks import Breaks
from bgledger.projections.state.clock import ClockState
from bgledger.rules.position import Checkers, Position
from bgledger.rules.results import GameResult

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
    PREMATURE_ROLL = "premature-roll"
    """His opponent rolled before he moved: he accepts or refuses the roll (USBGF 4.1.7.1)."""
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


@dataclass(frozen=True, slots=True)
class Premature:
    """An action taken before the mover finished his turn (USBGF 4.1.7.1, 4.4.7, ABT 4.6).

    ``kind`` is ``roll`` (awaiting the mover's decision), ``accepted``,
    ``refused`` or ``double``; ``player`` acted early; ``a`` and ``b`` are
    the dice of a roll, or the value offered and 0 for a double.  It takes
    effect when the mover has played.
    """

    kind: str
    player: str
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Statement:
    """A binding statement about the cube (issue 33): ``player`` said he is going to
    ``double`` (USBGF 4.4.3) or that he would ``pass`` a double (USBGF 4.4.4).

    It stands until kept or lapsed (:mod:`bgledger.projections.state.statements`).
    """

    player: str
    says: str


START_SIDE = Position.start().mover


@dataclass(frozen=True, slots=True)
class MatchState:
    """The state of a match after some number of events (all fields read-only).

    ``timer`` is the game clock (None until one is started), ``breaks`` the
    breaks taken and lateness points, and ``penalties`` the penalty points
    assessed against ``a`` and ``b`` (each scored by the opponent, and
    included in ``score``).  ``removed``: the checkers of ``a`` and ``b`` that an illegal
    play of this game bore off while another was outside the home board: off the board but
    not borne off, so they do not save a gammon (ABT 4.4).  ``replay``: on a clock, the player
    whose illegal play a ruling reverted and who replays it on his own time, then hits (CLOCK
    4.3), until that hit; else None.  ``statements``: the binding cube statements standing
    (USBGF 4.4.3, 4.4.4; :class:`Statement`).  ``time_marks``: the entries whose time the
    ledger could not take as their recorder claimed it, or that reached it long after
    (:func:`~bgledger.projections.state.witness.marked`, DESIGN principle 13).  ``last_at``
    is the time of the last event that happened at the table: the match's "as of", when a
    running clock is read; an entry that is bookkeeping
    (:attr:`~bgledger.events.MatchEvent.bookkeeping`: a copy's provenance, a note, a
    recording error corrected) never moves it.  ``head`` is the chain of the last
    event folded (:mod:`bgledger.events.chain`), what the next event links to: bookkeeping,
    not part of the match, so two states that differ only there are equal.
    """

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
    board: tuple[Checkers, Checkers] = (START_SIDE, START_SIDE)
    removed: tuple[int, int] = (0, 0)
    resignation: Resignation | None = None
    premature: Premature | None = None
    winner: str | None = None
    events: int = 0
    danced: int = 0
    next_length: int | None = None
    obliged: tuple[int, ...] = ()
    flagged: tuple[int, ...] = ()
    anomalies: tuple[str, ...] = ()
    time_marks: tuple[int, ...] = ()
    started_at: str = ""
    last_at: str = ""
    timer: ClockState | None = None
    breaks: Breaks = field(default_factory=Breaks)
    penalties: tuple[int, int] = (0, 0)
    replay: str | None = None
    statements: tuple[Statement, ...] = ()
    head: str = field(default="", compare=False)

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
        if self.phase in (Phase.ROLL, Phase.REROLL, Phase.PLAY, Phase.PREMATURE_ROLL):
            return self.turn
        return None

    def name(self, player: str) -> str:
        """The name of player ``'a'`` or ``'b'``."""
        return self.players[seat(player)]

    @property
    def next_cube(self) -> int:
        """The value a double turns the cube to (USBGF 4.4.3: twice the previous level)."""
        return self.cube * 2

    def pips(self) -> tuple[int, int]:
        """Pip counts of ``a`` and ``b``."""
        a, b = Position.trusted(self.board[0], self.board[1]).pip_counts()
        return a, b


def one_point_away(length: int, score: tuple[int, int]) -> bool:
    """True if a player has scored his way to exactly one point from winning the match.

    USBGF 4.4.6: the Crawford game is "the first game after either player is
    exactly one point away from winning the match".  A player gets there by
    scoring, so at 0-0 of a 1-point match nobody is one point away: no game
    has been played for anyone to have become one away, and that first game
    is not the Crawford game (the cube is dead in it anyway, USBGF 4.4.9).
    GNU Backgammon reads it so: ``new match 1`` gives the Match ID
    ``cIklAAAAAAAE`` and ``set score 0 0`` in a 1-point match ``cIkpAAAAAAAE``,
    the Crawford bit clear in both, and the corpus's three 1-point matches
    (``online-2009/snowie-018``, ``-106``, ``-107`` in ``expected-gnubg.jsonl``)
    have their one game read as not Crawford.  Nobody is one point away in
    a match already won.

    >>> one_point_away(5, (4, 2)), one_point_away(5, (3, 2)), one_point_away(5, (5, 4))
    (True, False, False)
    >>> one_point_away(1, (0, 0))
    False
    """
    return max(score) < length and any(0 < points == length - 1 for points in score)


def crawford_status(rule: bool, length: int, score: tuple[int, int]) -> Crawford:
    """The status of a game about to be played at ``score``, when only the score can tell.

    Where a match starts at a score, or its length or score is corrected
    between games: the Crawford game if the match plays the Crawford
    ``rule`` and a player is :func:`one_point_away`, else pre-Crawford.

    >>> crawford_status(True, 5, (4, 0)), crawford_status(True, 1, (0, 0))
    (<Crawford.CRAWFORD: 'crawford'>, <Crawford.PRE: 'pre'>)
    """
    return Crawford.CRAWFORD if rule and one_point_away(length, score) else Crawford.PRE


def crawford_after(current: Crawford, rule: bool, length: int, score: tuple[int, int]) -> Crawford:
    """The Crawford status of the next game when a game ends at ``score`` (USBGF 4.4.6).

    The Crawford game is the first game after either player is exactly one
    point away from the match (:func:`one_point_away`; if the match plays the
    Crawford ``rule``); the games after it are post-Crawford.
    """
    if current is Crawford.CRAWFORD:
        return Crawford.POST
    if current is Crawford.PRE:
        return crawford_status(rule, length, score)
    return current


def game_points(result: str, how: str, cube: int) -> int:
    """What a game scores: the cube for a pass, else single/gammon/backgammon times the cube."""
    if how == "drop":
        return cube
    return GameResult.parse(result).points(cube)
