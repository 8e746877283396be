"""Import ``.mat`` transcriptions: each match of a file becomes one match in the ledger.

The transcription is replayed through the :class:`~bgledger.commands.match.Match`
aggregate, action by action, so its events are exactly what the file says
happened, in order, judged by the same rules as live recording:

- the first roll of a game is the opening roll (the mover's die is the
  higher one); later rolls, plays, doubles, takes and drops are recorded as
  written;
- an illegal play, a forbidden double or a forbidden concession is recorded
  as played and flagged (DESIGN principle 2), never dropped;
- a play that names checkers the board does not have (a transcription that
  lost an earlier play) is kept as written and flagged, the board unchanged,
  as GNU Backgammon reads it (:class:`~bgledger.events.UnplayablePlayRecorded`);
- ``Wins N points`` where the game is not over on the board is a concession
  by the other player, of ``N`` over the cube (single, gammon, backgammon);
  a roll with no play before it (``????``, or nothing written) is a player
  who rolled and then resigned; a game that is only its result lines is
  conceded before its first roll (GNU Backgammon reads no winner there, and
  the report says so);
- a game with no result is the match abandoned there.

Each action is recorded through its command of the vocabulary
(:mod:`bgledger.commands.vocabulary`), whose line the entry keeps (DESIGN
principle 12), as a scorekeeper's would be; only what no line says keeps none
(a play written for a roll that cannot be played, an unplayable play, a
result the transcription declares).

Nothing is stored until a whole match has been replayed; a file that cannot
be understood raises :class:`MatImportError` with its name, the line and the
reason.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import (
    Accept,
    Beaver,
    Command,
    Double,
    Drop,
    Move,
    Opening,
    Reject,
    Resign,
    Roll,
    RollMove,
    Take,
)
from bgledger.errors import ActionRefusedError, BgLedgerError
from bgledger.interchange.mat import MatAction, MatFile, MatGame, MatMatch
from bgledger.interchange.written_results import WrittenResult, written_result
from bgledger.projections.state.fold import Phase, other
from bgledger.projections.state.model import one_point_away
from bgledger.rules.errors import InvalidNotationError, InvalidPlayError, RulesError
from bgledger.rules.profiles import DEFAULT_PROFILE, Decision
from bgledger.rules.text import as_entered

__all__ = [
    "ImportedMatch",
    "MatImportError",
    "match_from_mat",
    "match_id_for",
    "matches_from_mat",
    "readable_id",
]

_PLAYERS = ("a", "b")
_LEVELS = {1: "single", 2: "gammon", 3: "backgammon"}
_ID_CHARS = re.compile(r"[^A-Za-z0-9._-]+")
_SNOWIE = "the transcription records an illegal play as a Snowie position, not as moves"


class _WrittenDance(Exception):
    """A roll that cannot be played, with a play written for it: recorded without its line."""


class MatImportError(BgLedgerError, ValueError):
    """A ``.mat`` file, or one line of it, that cannot be imported.

    :ivar name: the file; :ivar line: the 1-based line (0: the whole file);
    :ivar reason: what is wrong.
    """

    def __init__(self, name: str, line: int, reason: str) -> None:
        self.name, self.line, self.reason = name, line, reason
        where = f"{name}, line {line}" if line else name
        super().__init__(f"{where}: {reason}")


@dataclass
class ImportedMatch:
    """One match replayed from a transcription, not yet stored.

    ``notes`` says what a director would want to know: games abandoned,
    unplayable plays, results the board disagrees with, lines ignored.
    """

    match: Match
    name: str
    games: int
    notes: list[str] = field(default_factory=list)
    abandoned: bool = False

    @property
    def match_id(self) -> str:
        """The id the match was given."""
        return self.match.state.match_id

    @property
    def illegal_plays(self) -> int:
        """Events recorded as played against the rules (plays, doubles, concessions)."""
        return len(self.match.state.flagged)


def match_id_for(name: str, index: int = 0) -> str:
    """A match id from a file name: its stem, with the match's number if a file has several.

    The ids of matches imported before :func:`readable_id` (they keep them).
    """
    stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    cleaned = _ID_CHARS.sub("-", stem).strip("-._") or "match"
    suffix = f"-{index + 1}" if index else ""
    return cleaned[: 64 - len(suffix)] + suffix


def _slug(text: str, most: int) -> str:
    """``text`` as lowercase ASCII letters, digits and dashes, at most ``most`` characters."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _ID_CHARS.sub("-", ascii_text.lower()).strip("-._")[:most].strip("-._")


def readable_id(
    players: tuple[str, str], length: int, date: str, taken: Callable[[str], bool]
) -> str:
    """``'ann-bob-7p-2022-07-10'``: the players, the length and the date (if the file says).

    The first of that, ``...-2``, ``...-3`` ... that ``taken`` says is free.
    A name with no ASCII letter or digit is written ``player``.
    """
    a, b = (_slug(name, 20) or "player" for name in players)
    base = "-".join(part for part in (a, b, f"{length}p", date) if part)
    candidate, number = base, 1
    while taken(candidate):
        number += 1
        candidate = f"{base}-{number}"
    return candidate


def matches_from_mat(
    mat: MatFile,
    name: str,
    *,
    match_id: str | None = None,
    profile: str = DEFAULT_PROFILE,
    by: str = "import",
    taken: Callable[[str], bool] = lambda _: False,
) -> list[ImportedMatch]:
    """Every match of ``mat`` replayed (a file usually holds one).

    Without ``match_id``, each match gets a :func:`readable_id` that neither
    ``taken`` (the ids in the ledger) nor an earlier match of the file has;
    with it, the matches are ``match_id``, ``match_id-2`` ...

    :raises MatImportError: for a file with no match, or one that cannot be replayed.
    """
    if not mat.matches:
        raise MatImportError(name, 0, "no ' N point match' header: not a match transcription")
    given: set[str] = set()

    def used(candidate: str) -> bool:
        return candidate in given or taken(candidate)

    imported = []
    for i, found in enumerate(mat.matches):
        if match_id is not None:
            chosen = f"{match_id}-{i + 1}" if i else match_id
        else:
            chosen = readable_id(_players(mat, found), found.length, _date(dict(mat.tags)), used)
        given.add(chosen)
        imported.append(match_from_mat(mat, found, name, match_id=chosen, profile=profile, by=by))
    return imported


def _players(mat: MatFile, found: MatMatch) -> tuple[str, str]:
    """The names the games are written under, as gnubg reads them; else the header's."""
    tags = dict(mat.tags)
    first = found.games[0] if found.games else None
    return (
        (first.players[0] if first else "") or tags.get("Player 1", ""),
        (first.players[1] if first else "") or tags.get("Player 2", ""),
    )


def _date(tags: dict[str, str]) -> str:
    """``EventDate`` as ``YYYY-MM-DD``, '' if the file has none or it is not a date."""
    when = _when({"EventDate": tags.get("EventDate", "")})
    return when[:10] if when else ""


def match_from_mat(
    mat: MatFile,
    found: MatMatch,
    name: str,
    *,
    match_id: str,
    profile: str = DEFAULT_PROFILE,
    by: str = "import",
) -> ImportedMatch:
    """One match of a transcription replayed into a new :class:`Match` (not stored).

    :raises MatImportError: if the match cannot be replayed.
    """
    tags = dict(mat.tags)
    at = _when(tags)
    match = _started(mat, found, name, match_id=match_id, profile=profile, by=by, at=at)
    imported = ImportedMatch(match, name, len(found.games))
    for game in found.games:
        if match.state.phase is Phase.OVER:
            imported.notes.append(f"game {game.number} (line {game.line}) after the match was won")
        _check_score(imported, game)
        _Game(imported, game, by, at).replay()
    if match.state.in_game:
        imported.abandoned = True
        imported.notes.append(f"abandoned in game {match.state.game}: it has no result")
    return imported


def _started(
    mat: MatFile,
    found: MatMatch,
    name: str,
    *,
    match_id: str,
    profile: str,
    by: str,
    at: str | None,
) -> Match:
    tags = dict(mat.tags)
    first = found.games[0] if found.games else None
    # The header's full names (``Player 1``/``Player 2``) stay in ``meta``.
    players = _players(mat, found)
    crawford = {"on": True, "off": False}.get(tags.get("Crawford", "").strip().lower())
    meta = {key: value for key, value in mat.tags if key not in ("Event", "Round")}
    meta["File"] = name.rsplit("/", 1)[-1]
    # A name the score line leaves out is the header's, else a placeholder; flagged in meta.
    unnamed = [f"Player {n}" for n in (1, 2) if first is not None and not first.players[n - 1]]
    if unnamed:
        meta[UNNAMED] = ", ".join(unnamed)
    players = (
        as_entered(players[0]) or "Player 1 (unnamed)",
        as_entered(players[1]) or "Player 2 (unnamed)",
    )
    if first is not None:
        for label, rating in zip(("Rating a", "Rating b"), first.ratings, strict=True):
            if rating:
                meta[label] = rating
    score = first.score if first is not None else (0, 0)
    try:
        return Match.start(
            match_uuid(match_id), match_id, players, found.length, profile=profile,
            crawford=crawford, event=as_entered(tags.get("Event", "")),
            round=as_entered(tags.get("Round", "")),
            meta=meta, score=score, crawford_status=_status(first, found.length), by=by, at=at,
        )  # fmt: skip
    except RulesError as error:
        raise MatImportError(name, found.line, str(error)) from None


UNNAMED = "Unnamed in score line"
"""The ``meta`` key of a match whose score line names no one (``Player 2``, or both)."""


def _status(first: MatGame | None, length: int) -> str | None:
    """The Crawford status of a transcription that begins with a player one point away.

    The score cannot tell whether that first game is the Crawford game; a
    double in it says it is not (GNU Backgammon assumes it is, regardless).
    """
    if first is None or not one_point_away(length, first.score):
        return None
    doubled = any(action.kind == "double" for action in first.actions)
    return "post" if doubled else "crawford"


def _when(tags: dict[str, str]) -> str | None:
    """When the match was played, from ``EventDate`` (and ``EventTime``), if they say."""
    date = tags.get("EventDate", "").strip().replace(".", "-")
    clock = tags.get("EventTime", "").strip().replace(".", ":") or "00:00"  # XG: "20.15"
    try:
        return datetime.fromisoformat(f"{date}T{clock}").isoformat() if date else None
    except ValueError:
        return None


def _check_score(imported: ImportedMatch, game: MatGame) -> None:
    names = imported.match.state.players
    for n, (written, kept) in enumerate(zip(game.players, names, strict=True), 1):
        if not written:
            imported.notes.append(
                f"game {game.number} (line {game.line}): the score line names no player {n}; "
                f"imported as {kept!r}"
            )
    if any(w and w != kept for w, kept in zip(game.players, names, strict=True)):
        imported.notes.append(
            f"game {game.number} (line {game.line}) names the players {game.players[0]!r} and "
            f"{game.players[1]!r}; the match keeps {names[0]!r} and {names[1]!r}"
        )
    ours = imported.match.state.score
    if tuple(game.score) != ours:
        imported.notes.append(
            f"game {game.number} (line {game.line}): the score line says "
            f"{game.score[0]}-{game.score[1]}, the games before it make {ours[0]}-{ours[1]}"
        )


class _Game:
    """The actions of one game of a transcription, replayed into the match."""

    def __init__(self, imported: ImportedMatch, game: MatGame, by: str, at: str | None) -> None:
        self.imported, self.game, self.by, self.at = imported, game, by, at
        self.match = imported.match
        rolls = [a for a in game.actions if a.kind in ("roll", "illegal-play")]
        self.last_roll = rolls[-1] if rolls else None
        state = self.match.state
        self.result = written_result(game, state.length, state.score)

    def fail(self, action: MatAction, reason: str) -> MatImportError:
        return MatImportError(self.imported.name, action.line, f"game {self.game.number}: {reason}")

    def replay(self) -> None:
        for action in self.game.actions:
            try:
                self.act(action)
            except MatImportError:
                raise
            except (RulesError, ActionRefusedError) as error:
                raise self.fail(action, f"{action.raw!r}: {error}") from None

    def act(self, action: MatAction) -> None:
        state = self.match.state
        if state.phase is Phase.OVER or (
            state.phase is Phase.BETWEEN_GAMES and state.game == self.game.number
        ):
            self.after_the_end(action)
        elif action.kind in ("roll", "illegal-play"):
            self.roll(action)
        elif action.kind == "double":
            self.whose_turn(action, "double")
            self.said(Double(as_played=True, at=self.at))
        elif action.kind in ("take", "drop"):
            self.said((Take if action.kind == "take" else Drop)(at=self.at))
        elif self.result is not None and action is self.result.action:
            self.win(self.result)
        elif action.kind == "beaver":  # made at the board: recorded as played, flagged (4.4.10)
            self.said(Beaver(as_played=True, at=self.at))
        elif action.kind == "raccoon":
            rule = self.match.profile.cite(Decision.SOCIAL_DOUBLES)
            raise self.fail(action, f"a {action.kind} is not played in tournaments ({rule})")
        # 'concede' and 'unknown' ('????') only announce the result that follows, and so do
        # the result lines that do not decide it (a 'Losses' line beside a 'Wins' line).

    def said(self, command: Command) -> Any:
        """Record ``command`` as a scorekeeper's line would be, its line kept (DESIGN
        principle 12): an import's entries are decided again like any other."""
        return command.perform(self.match, self.by)

    def whose_turn(self, action: MatAction, what: str) -> None:
        turn = self.match.state.turn
        if turn is not None and _PLAYERS[action.column] != turn:
            name = self.match.state.name(turn)
            raise self.fail(
                action, f"{action.raw!r}: a {what} in the wrong column: {name} is on roll"
            )

    def after_the_end(self, action: MatAction) -> None:
        if self.result is not None and action is self.result.action:
            self.check_result(self.result)
            self.declared(self.result)
            return
        if action.kind in ("win", "loss"):
            return
        self.imported.notes.append(
            f"line {action.line}: {action.raw!r} after the end of game {self.game.number}: ignored"
        )

    def roll(self, action: MatAction) -> None:
        dice, play = action.dice, action.play
        assert dice is not None
        state = self.match.state
        if state.phase in (Phase.BETWEEN_GAMES, Phase.OPENING):
            self.opening(action, dice)
        else:
            self.whose_turn(action, "roll")
            if action.kind == "roll" and play and play.strip() and self.rolled_and_moved(action):
                return
            written = bool(play and play.strip()) or action.kind == "illegal-play"
            try:
                with self.match.atomic():
                    if self.said(Roll(*dice, at=self.at)) and written:
                        raise _WrittenDance
            except _WrittenDance:  # a play written for a roll that cannot be played
                self.match.roll(*dice, auto_dance=False, by=self.by, at=self.at)  # no line
            if self.match.state.phase is not Phase.PLAY:
                return  # a dance, recorded with the roll
        self.play(action, play)

    def rolled_and_moved(self, action: MatAction) -> bool:
        """The roll and the play written with it, as the one line ``64: 24/18 13/9`` (the
        transcription's own shorthand); False, nothing recorded, for a play that names
        checkers the board does not have (recorded apart, as unplayable).

        :raises MatImportError: for a play that is no notation.
        """
        assert action.dice is not None and action.play is not None
        try:
            self.said(RollMove(*action.dice, action.play, as_played=True, at=self.at))
        except InvalidNotationError as error:
            raise self.fail(action, str(error)) from None
        except InvalidPlayError:
            return False
        return True

    def opening(self, action: MatAction, dice: tuple[int, int]) -> None:
        if dice[0] == dice[1]:
            raise self.fail(action, f"{action.raw!r}: an opening roll cannot be a double")
        high, low = max(dice), min(dice)
        die_a, die_b = (high, low) if action.column == 0 else (low, high)
        self.said(Opening(die_a, die_b, at=self.at))

    def play(self, action: MatAction, play: str | None) -> None:
        if action.kind == "illegal-play":
            self.match.record_unplayable(action.raw, _SNOWIE, by=self.by, at=self.at)
            return
        if play is None or (not play.strip() and action is self.last_roll):
            return  # rolled, then resigned (the result follows) or the match stopped there
        try:
            self.said(Move(play, as_played=True, at=self.at))
        except InvalidNotationError as error:
            raise self.fail(action, str(error)) from None
        except InvalidPlayError as error:
            self.match.record_unplayable(play, str(error), by=self.by, at=self.at)
            self.imported.notes.append(f"line {action.line}: unplayable: {error}")

    def win(self, result: WrittenResult) -> None:
        state = self.match.state
        winner = _PLAYERS[result.winner]
        if result.note:
            self.imported.notes.append(result.note)
        if state.phase is Phase.BETWEEN_GAMES and result.and_match:
            self.declared(result)  # the match forfeited before the game's first roll
            return
        if state.phase is Phase.DOUBLED and state.turn == winner:
            self.said(Drop(at=self.at))  # the pass was not written
        elif state.phase is Phase.BETWEEN_GAMES:
            self.before_the_first_roll(result)
        else:
            self.concede(result.action, winner, result.points)
        self.check_result(result)
        self.declared(result)

    def before_the_first_roll(self, result: WrittenResult) -> None:
        """A game whose only lines are its result (``Losses 1 point`` / ``Wins 1 point``).

        The file says the game was played for a point and won: an online server writes
        this for a game resigned or forfeited before its first roll, and the next game's
        score line counts the point.  It is recorded as the loser's concession there.
        GNU Backgammon reads no winner for it: ``ParseMatMove`` (``import.c``) reads
        ``Wins`` only while the game is in play, and a game with no move record has not
        begun (``ApplyMoveRecord`` leaves ``GAME_NONE`` after the game's header); gnubg
        takes the point back from the next score line, and loses it when no game follows.
        So the file is followed here, not gnubg, and the report says so.
        """
        action, winner = result.action, _PLAYERS[result.winner]
        loser = self.match.state.name(other(winner))
        self.imported.notes.append(
            f"game {self.game.number} (line {self.game.line}) has no roll: {action.raw!r} "
            f"(line {action.line}) is recorded as {loser} conceding it before the first roll "
            "(GNU Backgammon reads no winner for such a game)"
        )
        self.concede(action, winner, result.points)

    def concede(self, action: MatAction, winner: str, points: int) -> None:
        state = self.match.state
        if state.phase is Phase.RESIGNED:
            self.said(Reject(at=self.at))
        cube = 1 if state.phase is Phase.BETWEEN_GAMES else state.cube  # before the first roll
        level = _LEVELS.get(points // cube) if points % cube == 0 else None
        if level is None:
            level = _closest_level(points, cube)
            self.imported.notes.append(
                f"line {action.line}: {action.raw!r} is not a single, gammon or backgammon at "
                f"cube {cube}: recorded as a {level} concession"
            )
        loser = other(winner)
        self.said(Resign(level, loser, as_played=True, at=self.at))
        self.said(Accept(at=self.at))

    def check_result(self, result: WrittenResult) -> None:
        games = self.match.state.games
        if not games or games[-1].number != self.game.number:
            return
        last, action = games[-1], result.action
        if (last.winner, last.points) != (_PLAYERS[result.winner], result.points):
            self.imported.notes.append(
                f"line {action.line}: the transcription says {action.raw!r}; the board and the "
                f"cube give {self.match.state.name(last.winner)} {last.points}"
            )

    def declared(self, result: WrittenResult) -> None:
        """``and the match`` short of the length: the other player forfeited the match.

        Recorded as :class:`~bgledger.events.MatchForfeited` quoting the line,
        and the match won at the score as it stands; a game not yet begun is
        not recorded (gnubg reads no game there either).
        """
        state = self.match.state
        if not result.and_match or not state.length or state.phase is not Phase.BETWEEN_GAMES:
            return  # no claim, an unlimited session, or the match already won
        winner, line = _PLAYERS[result.winner], result.action.line
        text = (
            f"line {line} of the transcription, {result.action.raw!r}, declares "
            f"{state.name(winner)} the winner of the match at {state.score[0]}-{state.score[1]}"
            f" of {state.length}"
        )
        self.match.forfeit_match(other(winner), text, by=self.by, at=self.at)
        self.imported.notes.append(f"{text}: a forfeit")


def _closest_level(points: int, cube: int) -> str:
    """GNU Backgammon's reading of ``Wins N``: up to the cube single, up to twice gammon."""
    level = min(3, max(1, -(-points // cube)))
    return _LEVELS[level]
