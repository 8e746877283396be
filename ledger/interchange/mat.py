"""A syntactic reader of Jellyfish / GNU Backgammon ``.mat`` match transcriptions.

The reader turns text into :class:`MatFile` values and interprets nothing: plays
stay raw text for :mod:`bgledger.rules.notation`, dice are not checked against the
board, and scores are not checked against results.  What it does settle is the
layout: header tags, ``N point match`` headers, ``Game N`` headers, score lines
and the two columns of each move line.  The move lines (how gnubg splits them
into columns, and the :class:`MatAction` values each column says) are read by
:mod:`bgledger.interchange.mat_moves`; :class:`MatAction`, :data:`ActionKind` and
:func:`split_columns` are exported from here too.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from bgledger.interchange.mat_moves import (
    NUMBER,
    ActionKind,
    MatAction,
    move_actions,
    split_columns,
)
from bgledger.rules.errors import BgLedgerError

__all__ = [
    "ActionKind",
    "MatAction",
    "MatFile",
    "MatGame",
    "MatMatch",
    "MatSyntaxError",
    "read_bounded",
    "read_mat",
    "read_mat_file",
    "split_columns",
]

_Player = tuple[tuple[str, str | None], int]  # ((name, rating), score)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_MATCH = re.compile(rf"({NUMBER})\s*[Pp]oint\s+[Mm]atch")
_GAME = re.compile(rf"Game\s+({NUMBER})")
_SCORE = re.compile(rf"\s*({NUMBER})(?:\s+(\S.*)|\s*)", re.DOTALL)
_RATING = re.compile(r"0*[1-9][0-9]*(?:\.[0-9]+)?")
_TAG = re.compile(r'[;#]\s*\[\s*([^"\]\s][^"\]]*?)\s*"(.*)"\s*\]')


class MatSyntaxError(BgLedgerError, ValueError):
    """A line of a ``.mat`` file that the reader cannot place.

    :ivar name: the file name given to the reader (``<string>`` by default).
    :ivar line: the 1-based line number.
    :ivar reason: what is wrong, without the location.
    :ivar text: the offending line as written.
    """

    def __init__(self, name: str, line: int, reason: str, text: str) -> None:
        self.name, self.line, self.reason, self.text = name, line, reason, text
        super().__init__(f"{name}, line {line}: {reason}: {text!r}")

    def __reduce__(self) -> tuple[type[MatSyntaxError], tuple[str, int, str, str]]:
        return (type(self), (self.name, self.line, self.reason, self.text))


@dataclass(frozen=True)
class MatGame:
    """A ``Game N`` section: its score line and its actions.

    ``players``, ``ratings`` and ``score`` are indexed by column.  A score line
    ``name,1723 : 3`` gives the name ``name`` and the rating ``'1723'``.
    """

    number: int
    line: int
    players: tuple[str, str]
    score: tuple[int, int]
    ratings: tuple[str | None, str | None] = (None, None)
    actions: tuple[MatAction, ...] = ()

    @property
    def result(self) -> MatAction | None:
        """The last ``win`` (or ``loss``) action of the game, or ``None`` if none is written."""
        wins = [action for action in self.actions if action.kind in ("win", "loss")]
        return wins[-1] if wins else None


@dataclass(frozen=True)
class MatMatch:
    """An ``N point match`` section (``length`` 0: unlimited) and its games."""

    length: int
    line: int
    games: tuple[MatGame, ...] = ()


@dataclass(frozen=True)
class MatFile:
    """A whole ``.mat`` file.

    ``tags`` holds every ``; [Name "value"]`` line in file order, known or not;
    ``comments`` the other ``;`` or ``#`` lines, without the marker.
    """

    tags: tuple[tuple[str, str], ...] = ()
    comments: tuple[str, ...] = ()
    matches: tuple[MatMatch, ...] = ()


def read_mat_file(path: str | Path) -> MatFile:
    """Read a ``.mat`` file from disk.

    The bytes are decoded as UTF-16 if they start with its byte order mark,
    else as UTF-8 (a byte order mark is skipped), else as Windows-1252, else as
    Latin-1.

    :param path: the file to read; its name is used in error messages.
    :returns: the file's contents.
    :raises MatSyntaxError: if the text is not a ``.mat`` transcription.
    :raises OSError: if the file cannot be read.
    """
    return read_mat(_decode(read_bounded(path)), name=str(path))


MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest file ``import`` reads: a 17-point match's ``.mat`` is about 30 KB, its JSON copy
a few hundred KB; a file of many matches still fits many times over."""


class FileTooLargeError(BgLedgerError, ValueError):
    """A file ``import`` will not read: larger than :data:`MAX_FILE_BYTES`, or not a file."""


def read_bounded(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``, refused past ``limit`` without reading them all.

    A device (``/dev/zero``), a pipe or a directory is refused before it is read.

    :raises FileTooLargeError: for a file that is not regular, or larger than ``limit``.
    :raises OSError: if the file cannot be read.
    """
    with open(path, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise FileTooLargeError(f"{str(path)!r} is not a regular file")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise FileTooLargeError(
            f"{str(path)!r} is over {limit // (1024 * 1024)} MB: not a match transcription"
        )
    return data


def _decode(data: bytes) -> str:
    """Decode the bytes of a ``.mat`` file; see :func:`read_mat_file`."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def read_mat(text: str, *, name: str = "<string>") -> MatFile:
    """Read the text of a ``.mat`` file.

    :param text: the whole file; a leading byte order mark is ignored.
    :param name: the name used in error messages.
    :returns: the tags, comments and matches of the file.
    :raises MatSyntaxError: on the first line that cannot be placed.
    """
    reader = _Reader(name)
    for number, line in enumerate(_LINE_BREAK.split(text), start=1):
        reader.feed(number, line.lstrip("\ufeff"))
    return reader.finish()


@dataclass
class _GameDraft:
    """A game being read: its header and the actions read so far."""

    number: int
    line: int
    players: tuple[str, str] = ("", "")
    score: tuple[int, int] = (0, 0)
    ratings: tuple[str | None, str | None] = (None, None)
    actions: list[MatAction] = field(default_factory=list)

    def build(self) -> MatGame:
        """Freeze the draft."""
        actions = tuple(self.actions)
        return MatGame(self.number, self.line, self.players, self.score, self.ratings, actions)


class _Reader:
    """The line-by-line state of :func:`read_mat`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.tags: list[tuple[str, str]] = []
        self.comments: list[str] = []
        self.matches: list[tuple[int, int, list[MatGame]]] = []
        self.game: _GameDraft | None = None
        self.awaiting_score = False

    def error(self, number: int, reason: str, line: str) -> MatSyntaxError:
        """Build the error for line ``number``."""
        return MatSyntaxError(self.name, number, reason, line)

    def feed(self, number: int, line: str) -> None:
        """Read one line (without its line break).

        :raises MatSyntaxError: if the line cannot be placed.
        """
        stripped = line.strip()
        if not stripped:
            return
        if stripped[0] in ";#":
            self.comment(stripped)
        elif self.awaiting_score and self.game is not None:
            self.score_line(self.game, number, line)
        elif match := _MATCH.fullmatch(stripped):
            self.close_game()
            self.matches.append((int(match[1]), number, []))
        elif game := _GAME.fullmatch(stripped):
            if not self.matches:
                raise self.error(number, "'Game N' before any 'N point match' line", line)
            self.close_game()
            self.game = _GameDraft(int(game[1]), number)
            self.awaiting_score = True
        elif self.game is None:
            raise self.error(number, "expected 'N point match' or 'Game N'", line)
        else:
            try:
                self.game.actions.extend(move_actions(number, line))
            except ValueError as exc:
                raise self.error(number, str(exc), line) from None

    def comment(self, stripped: str) -> None:
        """Keep a ``;`` or ``#`` line as a tag or a comment."""
        if tag := _TAG.fullmatch(stripped):
            self.tags.append((tag[1], tag[2]))
        else:
            self.comments.append(stripped[1:].strip())

    def score_line(self, game: _GameDraft, number: int, line: str) -> None:
        """Read the ``name : score   name : score`` line that follows ``Game N``."""
        fields = _score_fields(line)
        if fields is None:
            raise self.error(number, "expected a score line 'name : score   name : score'", line)
        (left, left_score), (right, right_score) = fields
        game.players = (left[0], right[0])
        game.ratings = (left[1], right[1])
        game.score = (left_score, right_score)
        self.awaiting_score = False

    def close_game(self) -> None:
        """Append the game being read, if any, to the current match."""
        if self.game is not None:
            self.matches[-1][2].append(self.game.build())
        self.game = None

    def finish(self) -> MatFile:
        """Freeze what was read.

        :raises MatSyntaxError: if the text holds no ``N point match`` line.
        """
        if not self.matches:
            raise self.error(1, "no 'N point match' line", "")
        if self.awaiting_score and self.game is not None:
            raise self.error(
                self.game.line, "no score line after 'Game N'", f"Game {self.game.number}"
            )
        self.close_game()
        matches = tuple(
            MatMatch(length, line, tuple(games)) for length, line, games in self.matches
        )
        return MatFile(tuple(self.tags), tuple(self.comments), matches)


def _score_fields(line: str) -> tuple[_Player, _Player] | None:
    """Split ``name : 3   name,1650 : 0`` at its first and its last colon.

    A name may be missing (`` lasse : 0              : 0``, as an online
    server writes a player it has no name for): it is read as ``''`` and the
    importer names the player.

    :returns: ``((name, rating), score)`` for each column, or ``None``.
    """
    first, last = line.find(":"), line.rfind(":")
    middle = _SCORE.fullmatch(line[first + 1 : last]) if 0 <= first < last else None
    right_score = line[last + 1 :].strip()
    if middle is None or not re.fullmatch(NUMBER, right_score):
        return None
    left = (_name(line[:first]), int(middle[1]))
    return left, (_name(middle[2] or ""), int(right_score))


def _name(text: str) -> tuple[str, str | None]:
    """Split a score-line name into the name and its ``,rating`` suffix, if any."""
    name, comma, rating = text.strip().rpartition(",")
    if comma and name.strip() and _RATING.fullmatch(rating.strip()):
        return name.strip(), rating.strip()
    return text.strip(), None
