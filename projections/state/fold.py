"""The one fold: match events in, a frozen :class:`MatchState` out.

``fold(events)`` and ``apply(state, event)`` are the only place the score,
the cube, the board, the turn and the Crawford status are worked out.  The
:class:`bgledger.commands.match.Match` aggregate decides on the state this fold gives,
``show`` draws it and ``history`` describes events against it: one copy of
the logic (DESIGN, layout).

Applying an event never validates and never raises (DESIGN principle 1): an
event is a fact already decided.  Should a stored play no longer fit the board
(a store edited by hand, a rules engine changed under it), the board is left
as it was and the state lists the problem in ``anomalies``.

A ruling records facts, not the state it leads to (DESIGN principle 7), so
folding one needs the events before it: the match as recorded after a ruling
is the fold of the events in force up to it
(:mod:`bgledger.projections.state.rulings`).  :func:`fold` from nothing keeps
the events it has folded and works that out at each ruling; :func:`apply` and
:func:`fold` from a given state take the events before as ``history``, and
without it raise :class:`HistoryNeededError` at a ruling (a snapshot or a read
model's stored state then folds the stream from its events).  This refolds
the events in force at each ruling, a few times a match, rather than keep a
second, stored copy of derived state that a later bgledger could not read.
:func:`fold_in_force` and :func:`apply_in_force` fold :func:`in_force`'s list
(the match as corrected): there each ruling applies only its own fields.  One
set of handlers serves both.

The handlers of premature actions, rulings, the clock's events and cube statements are in
:mod:`bgledger.projections.state.premature`, :mod:`bgledger.projections.state.rulings`,
:mod:`bgledger.projections.state.timekeeping` and :mod:`bgledger.projections.state.statements`;
they are registered here, in the one table.

Players are ``'a'`` and ``'b'``; each side's checkers are 26 counts in its own
numbering (0 borne off, 1-24 the points, 25 the bar), as in
:class:`bgledger.rules.position.Position`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields, replace
from operator import attrgetter
from typing import Any, TypeVar

from bgledger.events import (
    CheckersPlayed,
    ConcessionAcceptanceRequired,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    EntryCorrected,
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
    RulingNoted,
    SingleDiceAgreed,
    SocialDoubleMade,
    StartingPositionRecorded,
    UnplayablePlayRecorded,
)
from bgledger.projections.state import clock as clk
from bgledger.projections.state.allowed import concession_on_clock
from bgledger.projections.state.breaks import Breaks
from bgledger.projections.state.classic import HANDLERS as CLASSIC_HANDLERS
from bgledger.projections.state.clock import ClockState
from bgledger.projections.state.model import (
    PLAYERS,
    START_SIDE,
    Crawford,
    GameRecord,
    MatchState,
    Phase,
    Premature,
    Resignation,
    Statement,
    crawford_after,
    game_points,
    other,
    seat,
)
from bgledger.projections.state.premature import HANDLERS as PREMATURE_HANDLERS
from bgledger.projections.state.premature import takes_effect
from bgledger.projections.state.rulings import HANDLERS as RULING_HANDLERS
from bgledger.projections.state.rulings import in_force, new_length, take_corrected
from bgledger.projections.state.statements import HANDLERS as STATEMENT_HANDLERS
from bgledger.projections.state.statements import LAPSES as STATEMENT_LAPSES
from bgledger.projections.state.timekeeping import AFTER as TIME_AFTER
from bgledger.projections.state.timekeeping import HANDLERS as TIME_HANDLERS
from bgledger.projections.state.timekeeping import KEEP_DANCE
from bgledger.projections.state.witness import marked
from bgledger.rules.errors import RulesError
from bgledger.rules.judge import judged_result, play_result, removed_illegally
from bgledger.rules.notation import parse_play
from bgledger.rules.position import Checkers, Position

__all__ = [
    "FOLDED",
    "PLAYERS",
    "Crawford",
    "FoldCount",
    "GameRecord",
    "HistoryNeededError",
    "MatchState",
    "Phase",
    "Resignation",
    "apply",
    "apply_in_force",
    "crawford_after",
    "fold",
    "fold_in_force",
    "needs_history",
    "other",
    "seat",
    "started",
]

# -- the fold ----------------------------------------------------------------
#
# Handlers change a mutable draft of the state; ``apply`` and ``fold`` freeze
# it into a MatchState.  Folding a long stream thus builds one frozen state,
# not one per event.

_FIELDS = tuple(f.name for f in fields(MatchState))
_VALUES = attrgetter(*_FIELDS)
"""Every field of a state (or a draft), in ``_FIELDS``' order, in one call."""


def _state_maker() -> Callable[[tuple[Any, ...]], MatchState]:
    """A function making the :class:`MatchState` of every field's value, in ``_FIELDS``' order.

    What the dataclass's own ``__init__`` does given every field (MatchState has no
    ``__post_init__``; a default is never needed), written out as the dataclass writes it,
    but each field set through its slot's own setter: the frozen ``__init__`` sets each
    through ``object.__setattr__``, which looks the name up again (a state made in half the
    time, for every event folded).  ``tests/test_import_shortcuts.py`` checks that it makes
    the state the constructor makes.
    """
    names = [f"v{index}" for index in range(len(_FIELDS))]
    scope: dict[str, Any] = {"_new": object.__new__, "MatchState": MatchState}
    for name, field in zip(names, _FIELDS, strict=True):
        scope[f"_set_{name}"] = getattr(MatchState, field).__set__
    lines = [f"    _set_{n}(state, {n})\n" for n in names]
    source = (
        f"def make(values):\n    {', '.join(names)}, = values\n"
        f"    state = _new(MatchState)\n{''.join(lines)}    return state\n"
    )
    exec(source, scope)  # the straight-line code dataclasses would write, no more
    made: Callable[[tuple[Any, ...]], MatchState] = scope["make"]
    return made


_MAKE = _state_maker()


class _Draft:
    """A MatchState being changed by the handlers (the same fields, writable).

    Not slotted: its fields are copied in from a state in one ``dict`` update
    (mypy still refuses a field it does not declare).
    """

    match_id: str
    players: tuple[str, str]
    length: int
    profile: str
    crawford_rule: bool
    score: tuple[int, int]
    games: tuple[GameRecord, ...]
    game: int
    crawford: Crawford
    phase: Phase
    turn: str | None
    dice: tuple[int, int] | None
    opening_dice: bool
    cube: int
    cube_owner: str | None
    offer: int | None
    board: tuple[Checkers, Checkers]
    removed: tuple[int, int]
    resignation: Resignation | None
    premature: Premature | None
    winner: str | None
    events: int
    danced: int
    next_length: int | None
    obliged: tuple[int, ...]
    onward: tuple[int, ...]
    touched: tuple[int, ...]
    thrown: tuple[int, int] | None
    flagged: tuple[int, ...]
    anomalies: tuple[str, ...]
    time_marks: tuple[int, ...]
    last_at: str
    clock: str
    timer: ClockState | None
    breaks: Breaks
    penalties: tuple[int, int]
    replay: str | None
    statements: tuple[Statement, ...]
    head: str

    def __init__(self, state: MatchState) -> None:
        self.__dict__.update(zip(_FIELDS, _VALUES(state), strict=True))

    def freeze(self) -> MatchState:
        return _MAKE(_VALUES(self))


E = TypeVar("E", bound=MatchEvent)
_Handler = Callable[[_Draft, Any], None]
_HANDLERS: dict[type[MatchEvent], _Handler] = {}


def _on(event_type: type[E]) -> Callable[[Callable[[_Draft, E], None]], _Handler]:
    def register(handler: Callable[[_Draft, E], None]) -> _Handler:
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
        score=(event.score_a, event.score_b),
        crawford=Crawford(event.crawford_status),
        events=event.originator_version,
        started_at=event.at,
        last_at=event.at,
        head=event.chain,
    )


_ORPHAN = MatchState("?", ("?", "?"), 0, "", "", False)


class HistoryNeededError(LookupError):
    """A ruling was to be folded onto a state without the events before it.

    The match after a ruling is worked out from the events in force up to it;
    a state alone (a snapshot's, a read model's) does not hold them.  Fold the
    stream from its events instead, or pass them as ``history``.
    """

    def __init__(self, ruling: MatchEvent) -> None:
        self.number = ruling.originator_version
        super().__init__(
            f"event {self.number} ({type(ruling).__name__}) is a ruling: "
            "folding it needs the events before it"
        )


def needs_history(event: MatchEvent) -> bool:
    """True for a ruling or a correction, whose match is folded from the events in force
    before it.

    Not for a note that voids and restores nothing: the match as recorded
    before it is the match as corrected (every earlier ruling made it so, and
    nothing since is void), so a note is folded as it stands, with or
    without the events before it.
    """
    if isinstance(event, RulingNoted):
        return bool(event.voids or event.restores)
    return type(event) in RULING_HANDLERS or isinstance(event, EntryCorrected)


class FoldCount:
    """How many events the fold has folded in this process (:data:`FOLDED`), every way in
    (:func:`fold`, :func:`apply`, the in-force folds, a ruling's refold of the events before
    it): what a test reads to count the work a recorded line costs, whoever watches.

    One integer added to per event folded, nothing else: no cost worth a switch.
    """

    __slots__ = ("events",)

    def __init__(self) -> None:
        self.events = 0


FOLDED = FoldCount()
"""The process's count of events folded (:class:`FoldCount`)."""


def _step(draft: _Draft | None, event: MatchEvent, before: Sequence[MatchEvent] | None) -> _Draft:
    """``event`` folded onto ``draft``: as recorded given the events ``before`` it, else in force.

    As recorded, a ruling makes the match what the events in force up to it
    make it (but for the kept fields: :func:`~.rulings.take_corrected`).
    """
    FOLDED.events += 1
    if isinstance(event, MatchStarted):
        return _Draft(started(event))
    if draft is None:
        draft = _Draft(_ORPHAN)
        draft.anomalies = (
            f"event {event.originator_version} ({type(event).__name__}) before MatchStarted",
        )
    if before is not None and needs_history(event):
        # A recording error corrected was never made: the clock ran as if it had not been
        # entered.  A ruling leaves the time that ran as it ran (KEPT).
        whole = isinstance(event, EntryCorrected)
        take_corrected(draft, fold_in_force(in_force([*before, event])) or _ORPHAN, whole=whole)
    else:
        if draft.statements:  # a cube statement kept or lapsed (USBGF 4.4.3, 4.4.4)
            lapse = STATEMENT_LAPSES.get(type(event))
            if lapse is not None:
                lapse(draft, event)
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(draft, event)
    kept = type(event) in KEEP_DANCE or isinstance(event, EntryCorrected)
    if kept and draft.danced == draft.events:
        draft.danced = event.originator_version  # a dance stays voidable until the hit
    if draft.timer is not None:
        after = TIME_AFTER.get(type(event))
        if after is not None:
            after(draft, event)  # a game's end stops the clock (USBGF 4.3.2(a))
    draft.events = event.originator_version
    if event.claimed and marked(event):  # its time not as claimed, or entered late
        draft.time_marks = (*draft.time_marks, event.originator_version)
    if not event.bookkeeping or not draft.last_at:
        draft.last_at = event.at  # the table's time: bookkeeping keeps none (principle 13)
    draft.head = event.chain
    return draft


def apply(
    state: MatchState | None, event: MatchEvent, history: Sequence[MatchEvent] | None = None
) -> MatchState:
    """The state after ``event``, as recorded.  Never raises for a well-typed event.

    (A ruling onto a ``state`` is the one exception, a caller's: it needs ``history``.)

    ``history`` is the events before ``event`` (those ``state`` was folded
    from); a ruling needs them (from nothing, there are none), other events
    ignore them.  An event of a kind this fold does not know (from a newer
    bgledger) is counted and otherwise ignored; an event before
    :class:`MatchStarted` starts nothing and is listed in ``anomalies``.

    :raises HistoryNeededError: for a ruling onto a ``state`` without ``history``.
    """
    if history is None and state is not None and needs_history(event):
        raise HistoryNeededError(event)
    draft = None if state is None else _Draft(state)
    return _step(draft, event, () if history is None else history).freeze()


def fold(
    events: Iterable[MatchEvent],
    state: MatchState | None = None,
    *,
    history: Sequence[MatchEvent] | None = None,
) -> MatchState | None:
    """The state after ``events`` as recorded, starting from ``state`` (None: from nothing).

    From nothing, each ruling is worked out from the events folded before it.
    From a ``state``, ``history`` is the events it was folded from; without
    them the fold stops at the first ruling.

    :raises HistoryNeededError: at a ruling, from a ``state`` without ``history``.
    """
    draft = None if state is None else _Draft(state)
    seen: list[MatchEvent] | None = None
    if state is None or history is not None:
        seen = [] if history is None else list(history)
    for event in events:
        if seen is None:
            if needs_history(event):
                raise HistoryNeededError(event)
            draft = _step(draft, event, ())
        else:
            draft = _step(draft, event, seen)
            seen.append(event)
    return None if draft is None else draft.freeze()


def fold_in_force(
    events: Iterable[MatchEvent], state: MatchState | None = None
) -> MatchState | None:
    """The state after ``events``, all in force (:func:`~.rulings.in_force`'s list).

    Each ruling applies only its own fields: the events it voids are not
    there (:func:`bgledger.projections.state.corrected.corrected`).
    """
    draft = None if state is None else _Draft(state)
    for event in events:
        draft = _step(draft, event, None)
    return None if draft is None else draft.freeze()


def apply_in_force(state: MatchState | None, event: MatchEvent) -> MatchState:
    """The state after ``event``, one of the events in force (see :func:`fold_in_force`)."""
    return _step(None if state is None else _Draft(state), event, None).freeze()


@_on(GameStarted)
def _game_started(d: _Draft, event: GameStarted) -> None:
    d.game, d.phase, d.turn, d.dice, d.opening_dice = event.number, Phase.OPENING, None, None, False
    d.cube, d.cube_owner, d.offer, d.resignation = 1, None, None, None
    d.board, d.premature, d.removed, d.replay = (START_SIDE, START_SIDE), None, (0, 0), None
    d.touched, d.thrown = (), None


@_on(OpeningRollMade)
def _opening(d: _Draft, event: OpeningRollMade) -> None:
    if event.die_a == event.die_b:
        return
    a_first = event.die_a > event.die_b
    d.turn = "a" if a_first else "b"
    d.dice = (event.die_a, event.die_b) if a_first else (event.die_b, event.die_a)
    d.opening_dice, d.phase = True, Phase.PLAY


@_on(SingleDiceAgreed)
def _singles(d: _Draft, event: SingleDiceAgreed) -> None:
    """The opening's single dice are the higher thrower's to play, by consent (CLASSIC 4):
    no longer the opening roll's dice, which a profile may have him throw again."""
    d.opening_dice = False


@_on(DiceRolled)
def _rolled(d: _Draft, event: DiceRolled) -> None:
    d.turn, d.dice, d.opening_dice, d.phase = (
        event.player,
        (event.die1, event.die2),
        False,
        Phase.PLAY,
    )
    d.touched, d.thrown = (), None
    if d.timer is not None and d.timer.no_delay[seat(event.player)]:
        # CLOCK 4.1: he waited out the forfeited deductible and rolled; the forfeit is spent
        forfeits = (
            (False, d.timer.no_delay[1]) if event.player == "a" else (d.timer.no_delay[0], False)
        )
        d.timer = replace(d.timer, no_delay=forfeits)


@_on(RollVoided)
def _voided(d: _Draft, event: RollVoided) -> None:
    if d.danced and d.danced == d.events:  # the roll was a dance, recorded with it
        d.turn, d.phase = event.player, Phase.REROLL
    elif d.opening_dice:
        d.turn, d.opening_dice, d.phase = None, False, Phase.OPENING
    else:
        d.phase = Phase.REROLL
    d.dice, d.touched, d.thrown = None, (), None


_parse = parse_play


@_on(CheckersPlayed)
def _played(d: _Draft, event: CheckersPlayed) -> None:
    mover = seat(event.player)
    before = Position.trusted(d.board[mover], d.board[1 - mover])
    if not event.legal:
        d.flagged = (*d.flagged, event.originator_version)
    try:
        # a legal play just judged: the board the judge worked out, the one making it gives
        after = judged_result(before, event.play) if event.legal else None
        if after is None:
            played = _parse(event.play)
            after = play_result(before, played)
            if not event.legal:  # borne off before all were home: removed, not off (ABT 4.4)
                off = removed_illegally(before, played)
                d.removed = (d.removed[0] + off * (mover == 0), d.removed[1] + off * (mover == 1))
        d.board = (after.opponent, after.mover) if mover == 0 else (after.mover, after.opponent)
    except RulesError as error:
        problem = f"event {event.originator_version}: {event.play!r} does not fit: {error}"
        d.anomalies = (*d.anomalies, problem)
    d.danced = event.originator_version if event.legal and not event.play else 0
    finished = not any(d.board[mover][1:])
    d.turn = event.player if finished else other(event.player)
    d.dice, d.opening_dice, d.obliged, d.onward = None, False, (), ()
    d.touched = ()  # the men played and quitted stay (CLASSIC 11)
    d.phase = Phase.ENDING if finished else Phase.ROLL
    takes_effect(d)  # a premature roll or double (USBGF 4.1.7.1, 4.4.7)


@_on(UnplayablePlayRecorded)
def _unplayable(d: _Draft, event: UnplayablePlayRecorded) -> None:
    d.flagged = (*d.flagged, event.originator_version)
    d.turn, d.dice, d.opening_dice, d.danced = other(event.player), None, False, 0
    d.phase = Phase.ROLL
    takes_effect(d)


def _flag(d: _Draft, event: CubeOffered | ResignationOffered | SocialDoubleMade) -> None:
    if not event.legal:
        d.flagged = (*d.flagged, event.originator_version)


@_on(CubeOffered)
def _offered(d: _Draft, event: CubeOffered) -> None:
    d.turn, d.offer, d.phase = event.player, event.value, Phase.DOUBLED
    _flag(d, event)


@_on(CubeTaken)
def _taken(d: _Draft, event: CubeTaken) -> None:
    d.cube, d.cube_owner, d.offer, d.phase = event.value, event.player, None, Phase.ROLL


@_on(SocialDoubleMade)
def _social_double(d: _Draft, event: SocialDoubleMade) -> None:
    # A beaver keeps the cube with the beaver; an automatic double leaves it in the middle.
    d.cube, d.cube_owner = event.value, event.owner or None
    _flag(d, event)


@_on(CubeDropped)
def _dropped(d: _Draft, event: CubeDropped) -> None:
    d.offer, d.phase = None, Phase.ENDING


@_on(ResignationOffered)
def _resign_offered(d: _Draft, event: ResignationOffered) -> None:
    d.resignation = Resignation(event.player, event.level, d.phase)
    d.phase = Phase.RESIGNED
    _flag(d, event)
    if d.timer is not None and d.timer.running and concession_on_clock(d.profile, d.timer.mode):
        # CLOCK 5.1: "by stopping both clocks and stating the offer"
        d.timer = clk.stop(d.timer, clk.at_ms(event.at), "concession")


@_on(ConcessionAcceptanceRequired)
def _acceptance_required(d: _Draft, event: ConcessionAcceptanceRequired) -> None:
    pass  # the director's ruling (CLOCK 5.1); the acceptance it requires follows


@_on(ResignationAccepted)
def _resign_accepted(d: _Draft, event: ResignationAccepted) -> None:
    d.phase = Phase.ENDING


@_on(ResignationRejected)
def _resign_rejected(d: _Draft, event: ResignationRejected) -> None:
    d.phase = d.resignation.resume if d.resignation else Phase.ROLL
    d.resignation = None
    if d.timer is not None and d.timer.stopped == "concession":
        # CLOCK 5.1: "the Director deems the offer invalid and restarts the player's clock"
        d.timer = clk.resume(d.timer, clk.at_ms(event.at))


@_on(GameWon)
def _game_won(d: _Draft, event: GameWon) -> None:
    # Points follow the cube in force (a voided double rescores the game, USBGF 4.4.6.1);
    # in the history as recorded they are the event's own.
    points = game_points(event.result, event.how, d.cube)
    gained = (points, 0) if event.winner == "a" else (0, points)
    score = (d.score[0] + gained[0], d.score[1] + gained[1])
    crawford = d.crawford is Crawford.CRAWFORD
    record = GameRecord(
        event.number, event.winner, event.result, d.cube, points, event.how, crawford, score
    )
    d.score, d.games = score, (*d.games, record)
    d.crawford = crawford_after(d.crawford, d.crawford_rule, d.length, score)
    d.phase, d.turn, d.dice, d.opening_dice = Phase.BETWEEN_GAMES, None, None, False
    d.offer, d.resignation, d.premature, d.replay = None, None, None, None
    if d.next_length is not None:
        if max(score) >= d.length:
            d.next_length = None  # the game in progress ended the match: it stands (4.8.3)
        else:
            new_length(d, d.next_length)


@_on(StartingPositionRecorded)
def _set_up(d: _Draft, event: StartingPositionRecorded) -> None:
    d.board = (tuple(event.board_a), tuple(event.board_b))
    if not event.legal:
        d.flagged = (*d.flagged, event.originator_version)


_HANDLERS.update(RULING_HANDLERS)
_HANDLERS.update(CLASSIC_HANDLERS)
_HANDLERS.update(PREMATURE_HANDLERS)
_HANDLERS.update(TIME_HANDLERS)
_HANDLERS.update(STATEMENT_HANDLERS)


@_on(MatchWon)
def _match_won(d: _Draft, event: MatchWon) -> None:
    d.winner, d.phase = event.winner, Phase.OVER
