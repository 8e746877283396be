"""Writing a match as the ``.mat`` text GNU Backgammon exports (``export match mat``).

A ``.mat`` file is the match as corrected: :func:`export_mat` writes the
events in force after every ruling (:func:`bgledger.projections.state.corrected.in_force`),
so a reverted illegal play is not written and the legal play that replaced it
is, a voided double and its take are not written and the game scores at the
cube in force, a nullified pass is not written and the game goes on, and a
corrected cube level is written as corrected.  Rulings themselves have no
``.mat`` form; the length written is the match's length as corrected.

Nor have the clock, break and penalty-point events (:mod:`bgledger.events`):
they are skipped, the records around them written as if they were not there.
Penalty points (USBGF 2.2.4) are in the score lines of the games after them
(the score a game was played at, which gnubg reads): after game 1 those do not
add up from the results, and ``bgledger import`` refuses them.  A match won on time
(USBGF 4.3.3) or by penalty points ends with its last game as it stopped, no
``and the match`` written.  Only the JSON export (:mod:`.json_stream`) keeps them.

It folds those events (:func:`bgledger.projections.state.fold.apply_in_force`)
to know the board, the turn and the score at each event, turns them into
the records gnubg keeps for a game (a move, a double, a take, a drop, a
resignation, dice rolled and not played) and lays those out as gnubg 1.07's
``ExportGameJF`` (its ``export.c``) does, so that gnubg's importer and
:func:`bgledger.interchange.mat.read_mat` split the columns back alike:

- the score line ``" %-31s%s : %d"``, player ``a`` (gnubg's player 0, ``X``)
  on the left;
- a left column ``"%3d) %-27s "``, a right column after it, ``"  1)"`` and
  29 blanks when player ``b`` moves first;
- a roll as ``52: 13/11 13/8 ``: the dice as rolled (the opening roll higher
  die first), then one die's step at a time, sources from the highest, the
  bar ``25``, off ``0``, ``*`` on the first step landing on a hit blot, a
  blank after each of the first three steps (gnubg's ``FormatMovePlain``); a
  roll that could not be played is ``65: `` with nothing after it;
- `` Doubles => 2``, `` Takes``, `` Drops`` with its ``Wins`` line, and a
  resignation as a ``Wins N point(s)`` line in the winner's column (after
  the dice, ``51: ``, when the loser had rolled), each placed as gnubg does.

Two layouts of gnubg 1.07 that its own importer misreads are mended: dice
rolled and not played by player ``b`` as the game's first record (a
concession on his opening roll) go in his column, not in ``a``'s; and a
concession by the player not on roll after the other rolled gets a ``Wins``
line of its own, where gnubg appends ``Wins`` to the roller's dice
(``52:  Wins 1 point``, read back as a play).

What gnubg 1.07 does not write and this writer does: ``and the match`` after
the ``Wins`` line of the game that won the match, and the header tags
``Match ID``, ``Player 1``, ``Player 2``, ``EventTime`` and ``Crawford`` (as XG
writes them; gnubg reads the lines of tags it does not know as comments).  Not
written: tied opening rolls, voided rolls (only the roll that was played),
and concessions that were refused.  A premature roll the mover accepted is
written as the early roller's roll of his next turn, one he refused is not
written, and a premature double is written as the doubler's double at the
start of his next turn (USBGF 4.1.7.1, 4.4.7): gnubg reads the game as it was
played.  An unfinished game ends where it stopped, with dice rolled and not
yet played as ``52: `` (gnubg reads them so; a roll that could not be played
is recorded as played).  Illegal
plays are written as they were made, and so are a transcription's plays
that the board could not show (``UnplayablePlayRecorded``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from bgledger.errors import NotAMatchError
from bgledger.events import (
    TIME_EVENTS,
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
    RollVoided,
    SocialDoubleMade,
    UnplayablePlayRecorded,
)
from bgledger.projections.state.corrected import in_force
from bgledger.projections.state.fold import MatchState, Phase, apply_in_force, seat
from bgledger.rules.errors import BgLedgerError, RulesError
from bgledger.rules.judge import play_result
from bgledger.rules.legal import full_plays_to, legal_plays
from bgledger.rules.notation import Play, parse_play
from bgledger.rules.position import Position

__all__ = ["NotAMatchError", "UnwritableNameError", "export_mat"]

RecordKind = Literal["move", "double", "take", "beaver", "drop", "resign", "dice"]
_SCORE_WIDTH = 31
_MOVE_WIDTH = 27
_FIRST_MOVE_O = "  1)" + " " * 29
_RIGHT_WINS = " " * 34
_LEFT_WINS = "\n      "
_DICE = re.compile(r"[1-6][1-6]:")


class UnwritableNameError(BgLedgerError, ValueError):
    """A player's name that a ``.mat`` score line cannot hold (it contains ``:``)."""


@dataclass(frozen=True, slots=True)
class _Record:
    """One of gnubg's move records: ``text`` is a roll's ``52: 13/11 13/8 ``."""

    kind: RecordKind
    player: int
    text: str = ""
    value: int = 0


@dataclass(slots=True)
class _Game:
    """A game's score line data, its records and how it ended."""

    number: int
    score: tuple[int, int]
    records: list[_Record] = field(default_factory=list)
    points: int | None = None
    match_won: bool = False


def export_mat(events: Sequence[MatchEvent], *, tags: Mapping[str, str] | None = None) -> str:
    """The ``.mat`` text of a match, as gnubg's ``export match mat`` writes it.

    Header tags come from :class:`~bgledger.events.MatchStarted`, in the order
    XG and the online servers write them: ``Site`` (from ``meta``), ``Match ID``
    (``meta``'s, the id of the file it was imported from, which XG already
    knows, else the ledger's match id: XG gives a file without one a new id
    and duplicates the match when it is read again), ``Event``, ``Round``,
    ``Player 1`` and ``Player 2`` (``meta``'s, a transcription's full names,
    else players ``a`` and ``b``), ``EventDate`` and ``EventTime``
    (``meta``'s, else the date and time the match started, in its own zone:
    ``2026.11.21``, ``10.05``), ``Crawford`` (``On``/``Off``), ``Table``, then
    the other ``meta`` tags in their order.  Nothing in them depends on when
    the export is made: the same match gives the same header every time.  A
    tag without a value is left out; a line break in a value becomes a blank.
    The score lines name players ``a`` and ``b``.

    :param events: a match's events in order, from its ``MatchStarted``: its whole
        history (the events in force are written) or only the events in force.
    :param tags: header tags to add; one the match gives is replaced, or left out if ``''``.
    :returns: the whole file, ending with a line break.
    :raises NotAMatchError: if ``events`` does not begin with ``MatchStarted``.
    :raises UnwritableNameError: if a player's name contains a colon.
    """
    if not events or not isinstance(events[0], MatchStarted):
        raise NotAMatchError("a .mat export needs the match's events from its MatchStarted on")
    started = events[0]
    for name in (started.player_a, started.player_b):
        if ":" in name:
            raise UnwritableNameError(
                f"player name {name!r} contains ':', which a .mat score line cannot hold; "
                "export --format json keeps every name"
            )
    transcriber = _Transcriber()
    for event in in_force(events):
        transcriber.feed(event)
    if transcriber.pending is not None and transcriber.games:
        transcriber.games[-1].records.append(_dice_record(*transcriber.pending))
    lines = [f'; [{name} "{value}"]\n' for name, value in _header(started, tags or {})]
    length = started.length if transcriber.state is None else transcriber.state.length
    lines.append(f"\n {length} point match\n\n")
    names = (started.player_a, started.player_b)
    lines.extend(_render_game(game, names) for game in transcriber.games)
    text = "".join(lines)
    return text if text.endswith("\n") else text + "\n"


def _header(started: MatchStarted, extra: Mapping[str, str]) -> list[tuple[str, str]]:
    """The header tags in gnubg's order, then the rest of ``meta``, then ``extra``."""
    meta = dict(started.meta)
    chosen: dict[str, str] = {}
    if meta.get("Site"):
        chosen["Site"] = meta["Site"]
    chosen["Match ID"] = meta.get("Match ID") or started.match_id
    chosen["Event"] = started.event or meta.get("Event", "")
    chosen["Round"] = started.round or meta.get("Round", "")
    chosen["Player 1"] = meta.get("Player 1") or started.player_a
    chosen["Player 2"] = meta.get("Player 2") or started.player_b
    chosen["EventDate"] = meta.get("EventDate") or _date(started.at, "%Y.%m.%d")
    chosen["EventTime"] = meta.get("EventTime") or _date(started.at, "%H.%M")
    chosen["Crawford"] = "On" if started.crawford else "Off"
    chosen["Table"] = started.table or meta.get("Table", "")
    for name, value in meta.items():
        chosen.setdefault(name, value)
    chosen.update(extra)
    return [(n, " ".join(v.splitlines())) for n, v in chosen.items() if v]


def _date(at: str, form: str) -> str:
    """An ISO 8601 time in ``form`` (its own date and time, not converted), or ``''``."""
    try:
        return datetime.fromisoformat(at).strftime(form)
    except ValueError:
        return ""


class _Transcriber:
    """Folds the events in force and keeps gnubg's records of each game.

    Event numbers may have gaps (the events rulings voided); a ruling is
    folded (a corrected score or length counts from there) and writes nothing.
    """

    def __init__(self) -> None:
        self.state: MatchState | None = None
        self.games: list[_Game] = []
        self.pending: tuple[int, tuple[int, int]] | None = None  # rolled, not yet played
        self.last: MatchEvent | None = None

    def feed(self, event: MatchEvent) -> None:
        """Take one event: record what gnubg would, then fold it."""
        previous, self.last = self.last, event
        before = self.state
        self.state = after = apply_in_force(before, event)
        game = self.games[-1] if self.games else None
        if isinstance(event, GameStarted):
            self.games.append(_Game(event.number, after.score))
            self.pending = None
        elif before is None or game is None:
            return
        elif isinstance(event, OpeningRollMade | DiceRolled | RollVoided):
            self.dice(before, after, event, game)
        elif isinstance(event, CheckersPlayed | UnplayablePlayRecorded):
            game.records.append(self.move(before, event))
            self.premature(before, after, game)
        elif isinstance(event, CubeOffered):
            game.records.append(_Record("double", seat(event.player), value=event.value))
        elif isinstance(event, CubeTaken | CubeDropped):
            kind: RecordKind = "take" if isinstance(event, CubeTaken) else "drop"
            game.records.append(_Record(kind, seat(event.player)))
        elif isinstance(event, SocialDoubleMade) and event.kind == "beaver" and game.records:
            # gnubg writes a beaver in the taker's column, in place of his take
            if game.records[-1].kind == "take":
                game.records[-1] = _Record("beaver", seat(event.player), value=event.value)
        elif isinstance(event, ResignationAccepted) and before.resignation is not None:
            if self.pending is not None:
                game.records.append(_dice_record(*self.pending))
            game.records.append(_Record("resign", seat(before.resignation.player)))
        elif isinstance(event, GameWon) and after.games:
            # the fold's points follow the cube in force (a voided double, USBGF 4.4.6.1)
            game.points, self.pending = after.games[-1].points, None
        elif isinstance(event, MatchWon):  # not by the game: on time or by penalty points
            game.match_won = not isinstance(previous, TIME_EVENTS)

    def dice(
        self,
        before: MatchState,
        after: MatchState,
        event: OpeningRollMade | DiceRolled | RollVoided,
        game: _Game,
    ) -> None:
        """Keep rolled dice until they are played; forget voided ones."""
        if isinstance(event, DiceRolled):
            self.pending = (seat(event.player), (event.die1, event.die2))
        elif isinstance(event, OpeningRollMade):
            if after.phase is Phase.PLAY and after.turn is not None and after.dice is not None:
                self.pending = (seat(after.turn), after.dice)
        elif self.pending is not None:
            self.pending = None
        elif before.danced and before.danced == before.events and game.records:
            game.records.pop()  # a dance recorded with its roll, voided together

    def move(self, before: MatchState, event: CheckersPlayed | UnplayablePlayRecorded) -> _Record:
        """The record of a play, on the board the fold had before it."""
        player = seat(event.player)
        dice = self.pending[1] if self.pending is not None else before.dice or (0, 0)
        self.pending = None
        board = before.board
        position = Position.trusted(board[player], board[1 - player])
        return _Record("move", player, _roll_text(position, dice, event))

    def premature(self, before: MatchState, after: MatchState, game: _Game) -> None:
        """A premature roll or double that took effect with the play just written.

        An accepted roll becomes the early roller's dice, a double his double
        at the start of his turn; a refused roll was never a roll of the game.
        """
        if before.premature is None or after.turn is None:
            return
        if after.phase is Phase.PLAY and after.dice is not None:
            self.pending = (seat(after.turn), after.dice)
        elif after.phase is Phase.DOUBLED and after.offer is not None:
            game.records.append(_Record("double", seat(after.turn), value=after.offer))


def _dice_record(player: int, dice: tuple[int, int]) -> _Record:
    """Dice rolled and not played: a concession followed, or the record stops there."""
    return _Record("dice", player, f"{dice[0]}{dice[1]}: ")


def _roll_text(
    position: Position, dice: tuple[int, int], event: CheckersPlayed | UnplayablePlayRecorded
) -> str:
    """``52: `` and the play as gnubg's ``FormatMovePlain`` writes it (see the module docstring).

    A legal play is written one die at a time, as the legal play with the
    same result moves; an illegal or unplayable one (a transcription's play
    the board cannot show) as recorded, each move as its text writes it.  Text that is
    not play notation is written as it is, after the dice unless it begins
    with them (a transcription's column kept whole: ``21: Illegal play (...)``).
    """
    roll = f"{dice[0]}{dice[1]}: "
    try:
        play = parse_play(event.play)
    except RulesError:
        return event.play if _DICE.match(event.play) else roll + event.play
    steps = [(m.source, m.destination) for m in play.written]
    hits = play.hits
    legal = isinstance(event, CheckersPlayed) and event.legal
    if legal and play.moves and 0 not in dice:
        found = _legal_steps(position, dice, play)
        if found is not None:
            steps, hits = found
    words: list[str] = []
    starred: set[int] = set()
    for source, destination in sorted(steps, reverse=True):
        star = destination in hits and destination not in starred
        starred.add(destination)
        words.append(f"{source}/{destination}{'*' if star else ''}")
    return roll + " ".join(words) + (" " if 0 < len(words) < 4 else "")


def _legal_steps(
    position: Position, dice: tuple[int, int], play: Play
) -> tuple[list[tuple[int, int]], frozenset[int]] | None:
    """The one-die steps and hits of the legal play that leaves the board as ``play`` does:
    the first such play :func:`legal_plays` lists, whose steps gnubg writes.

    A play that uses every die is looked for first among the few that lead to its
    checkers (:func:`full_plays_to`, in :func:`legal_plays`'s order, as the judge
    does); only a play of fewer dice needs every legal play generated.
    """
    try:
        result = play_result(position, play)
    except RulesError:
        return None
    options = full_plays_to(position, dice, result.opponent) or legal_plays(position, dice)
    for option in options:
        if option.result == result:
            return list(option.steps), option.hits
    return None


def _points(points: int, match_won: bool) -> str:
    """``Wins 2 points``, ``Wins 1 point``, with ``and the match`` if it won the match."""
    return f"Wins {points} point{'' if points == 1 else 's'}" + (
        " and the match" if match_won else ""
    )


def _render_game(game: _Game, names: tuple[str, str]) -> str:
    """One game as gnubg's ``ExportGameJF`` lays it out."""
    left = f"{names[0]} : {game.score[0]}"
    out = [f" Game {game.number}\n", f" {left:<{_SCORE_WIDTH}}{names[1]} : {game.score[1]}\n"]
    column, rolled = 0, False
    last = len(game.records) - 1
    for index, record in enumerate(game.records):
        if column == 0 and record.kind in ("move", "dice") and record.player == 1:
            out.append(_FIRST_MOVE_O)
            column = 1
        rolled = record.kind == "dice" or (rolled and record.kind != "move")
        text = _record_text(record, game, column, rolled)
        out.append(_placed(record, text, column))
        if record.kind == "drop":
            out.append("\n" if column & 1 else "\n\n")
        if record.kind == "move" and index == last and game.points is not None:
            lead = _RIGHT_WINS if column & 1 else _LEFT_WINS
            out.append(f"{lead}{_points(game.points, game.match_won)}\n\n")
        column += 1
    text = "".join(out)
    return text if text.endswith("\n") else text + "\n"


def _record_text(record: _Record, game: _Game, column: int, rolled: bool) -> str:
    """What gnubg writes for a record (its ``sz``), given the column count and the dice."""
    points = _points(game.points or 0, game.match_won)
    if record.kind in ("move", "dice"):
        return record.text
    if record.kind == "double":
        return f" Doubles => {record.value}"
    if record.kind == "take":
        return " Takes"
    if record.kind == "beaver":
        return f" Beavers => {record.value}"
    if record.kind == "drop":
        return " Drops" + ("\n      " if column & 1 else " " * 23) + points
    return _concession(1 - record.player, bool(column & 1), rolled) + points + "\n"


def _concession(winner: int, after_left: bool, rolled: bool) -> str:
    """What goes before a concession's ``Wins`` to put it in the winner's column.

    The line so far holds nothing, a left column padded to 33 characters,
    dice alone in the left column (``  5) 52: ``) or dice in the right column.
    As gnubg 1.07, but a new line is begun after dice rolled by the winner.
    """
    if winner == 0:
        return ("\n" if after_left or rolled else "") + "      "
    if not rolled:
        return " " if after_left else " " * 34
    return " " * 24 if after_left else "\n" + " " * 34


def _placed(record: _Record, text: str, column: int) -> str:
    """The record's text in its column: the right one ends the line, the left one is padded."""
    if column & 1 or record.kind == "resign":
        return text + ("" if record.kind == "dice" else "\n")
    number = (column >> 1) + 1
    if record.kind == "dice":
        return f"{number:3d}) {text:<3}"
    return f"{number:3d}) {text:<{_MOVE_WIDTH}} "
