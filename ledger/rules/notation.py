"""Plays and their notation.

A :class:`Play` is what a player did with one roll: a multiset of checker
moves (:class:`Move`, from a point to a point, in the mover's numbering: 25 is
the bar, 0 is off) and the set of points on which an opposing blot was hit.

Every dialect of the transcriptions is read: ``13/8 13/11``, ``bar/20*``,
``Bar/22``, ``25/20``, ``6/off``, ``6/Off``, ``6/0``, ``24/18(2)``, chained
``13/8/5``, consolidated ``11/4`` (resolved against the dice when the play is
judged), ``*`` present or absent, ``Cannot Move`` and the empty play.  The
canonical form is gnubg's (``bar/20* 6/off``, ``13/7(2)``, ``13/8*/5``): moves
sorted from the highest point, one checker's consecutive moves joined unless
it hit on the way, identical moves counted.  ``Play.parse(str(play)) == play``
for every play.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from bgledger.rules.errors import InvalidNotationError, InvalidPlayError

BAR = 25
OFF = 0
MAX_PLAY_TEXT = 200
"""The most characters a play may be written in.  Four checkers' moves with every
intermediate point and hit (``bar/22*/16*/10*/4*``) take well under a hundred; a longer
text is refused at once, whatever it holds."""

_NO_MOVE = {"", "cannot move", "can't move", "cant move", "no move", "no legal move"}
_TOKEN = re.compile(r"(bar|off|[0-9]+)(\*?)", re.IGNORECASE)
_COUNT = re.compile(r"\(([0-9]+)\)$")


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """One checker moved from ``source`` (1-25, 25 the bar) to ``destination`` (0-24, 0 off).

    :raises InvalidPlayError: if the points are outside 0-25, the checker
        would leave from off or arrive on the bar, or it does not move forward.
    """

    source: int
    destination: int

    def __post_init__(self) -> None:
        src, dst = self.source, self.destination
        for point in (src, dst):
            if not 0 <= point <= BAR:
                raise InvalidPlayError(
                    f"{_point(src)}/{_point(dst)}: point {point} is outside 0-25"
                )
        if src == OFF:
            raise InvalidPlayError(f"{_point(src)}/{_point(dst)}: a borne-off checker cannot move")
        if dst == BAR:
            raise InvalidPlayError(f"{_point(src)}/{_point(dst)}: a checker cannot move to the bar")
        if dst >= src:
            raise InvalidPlayError(
                f"{_point(src)}/{_point(dst)}: a checker must move forward, from a higher "
                "point to a lower one"
            )

    @property
    def distance(self) -> int:
        """Pips between source and destination (a bear-off counts to 0)."""
        return self.source - self.destination

    def __str__(self) -> str:
        return f"{_point(self.source)}/{_point(self.destination)}"

    def __repr__(self) -> str:
        return f"Move({self.source}, {self.destination})"


@dataclass(frozen=True, slots=True)
class Play:
    """A play: checker moves plus the points where a blot was hit.

    The constructor joins a checker's consecutive moves unless it hit on the
    way and sorts them, so two plays that move the same checkers alike are
    equal; ``str`` formats the moves as written exactly as gnubg's FormatMove
    would.  ``written`` keeps the moves as written (``23/18
    18/17`` names 18 as a landing point, ``23/17`` does not); it takes no part
    in equality and lets :func:`bgledger.rules.judge.judge` work out a hit on a
    point the notation passes through.  Use :meth:`parse` to read notation.
    """

    moves: tuple[Move, ...] = ()
    hits: frozenset[int] = field(default_factory=frozenset)
    written: tuple[Move, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.written:
            object.__setattr__(self, "written", tuple(self.moves))
        hits = frozenset(self.hits)
        object.__setattr__(self, "moves", tuple(sorted(_normalise(self.moves, hits), reverse=True)))
        landed = {m.destination for m in self.moves}
        object.__setattr__(self, "hits", frozenset(p for p in hits if p in landed and p != OFF))

    @classmethod
    def parse(cls, text: str) -> Play:
        """Read a play in any transcription dialect.

        :raises InvalidNotationError: if ``text`` is not play notation.
        :raises InvalidPlayError: if it names a point outside 0-25, moves a
            checker backwards, from off, or onto the bar.
        """
        if len(text) > MAX_PLAY_TEXT:  # refused before anything reads it: no quadratic work
            raise InvalidNotationError(
                f"play {text[:24]!r}...: {len(text)} characters; a play is written in at most "
                f"{MAX_PLAY_TEXT}"
            )
        stripped = " ".join(str(text).split())
        if stripped.lower() in _NO_MOVE:
            return cls()
        moves: list[Move] = []
        hits: set[int] = set()
        for token in stripped.replace(",", " ").split():
            _parse_token(token, text, moves, hits)
        return cls(tuple(moves), frozenset(hits))

    @property
    def is_empty(self) -> bool:
        """True for ``Cannot Move``: no checker moved."""
        return not self.moves

    def __str__(self) -> str:
        if not self.moves:
            return ""
        return _written_text(self.written, self.hits)

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"


parse_play = lru_cache(maxsize=16384)(Play.parse)
""":meth:`Play.parse`, remembering the plays it has read: a play is immutable, and a match
writes the same few hundred plays again and again (a text it refuses is read afresh)."""


@lru_cache(maxsize=16384)
def play_of(moves: tuple[Move, ...], hits: frozenset[int]) -> Play:
    """``Play(moves, hits)``, remembered: the judge makes the same few thousand plays again
    and again, and each is joined and sorted into gnubg's order when it is made."""
    return Play(moves, hits)


@lru_cache(maxsize=16384)
def _written_text(written: tuple[Move, ...], hits: frozenset[int]) -> str:
    return " ".join(_format_groups(written, hits))


def _point(n: int) -> str:
    return "bar" if n == BAR else "off" if n == OFF else str(n)


def _parse_point(word: str, token: str, text: str, first: bool) -> int:
    low = word.lower()
    if low == "bar":
        return BAR
    if low == "off":
        if first:
            raise InvalidPlayError(f"{text!r}: {token!r} moves a checker from off")
        return OFF
    if len(word) > 3 or int(word) > BAR:
        raise InvalidPlayError(f"{text!r}: {token!r}: point {word} is outside 0-25")
    return int(word)


def _parse_token(token: str, text: str, moves: list[Move], hits: set[int]) -> None:
    """Add the moves of one token (``13/8/5*(2)``) to ``moves`` and its hits to ``hits``."""
    count = 1
    body = token
    found = _COUNT.search(token)
    if found:
        count = int(found.group(1)) if len(found.group(1)) < 3 else 0
        body = token[: found.start()]
        if not 1 <= count <= 4:
            raise InvalidNotationError(f"{text!r}: {token!r}: a move is repeated 1 to 4 times")
    parts = body.split("/")
    if len(parts) < 2:
        raise InvalidNotationError(f"{text!r}: {token!r} is not a move like '13/8'")
    points: list[int] = []
    for index, part in enumerate(parts):
        matched = _TOKEN.fullmatch(part)
        if not matched:
            raise InvalidNotationError(f"{text!r}: {part!r} in {token!r} is not a point")
        point = _parse_point(matched.group(1), token, text, first=index == 0)
        if matched.group(2):
            if index == 0:
                raise InvalidNotationError(f"{text!r}: {token!r} marks a hit on its starting point")
            hits.add(point)
        points.append(point)
    try:
        chain = [Move(a, b) for a, b in itertools.pairwise(points)]
    except InvalidPlayError as exc:
        raise InvalidPlayError(f"{text!r}: {exc}") from None
    moves.extend(chain * count)


def _normalise(moves: Iterable[Move], hits: frozenset[int]) -> tuple[Move, ...]:
    """gnubg's canonical order: sort by source, then join chains through unhit points."""
    steps = sorted(((m.source, m.destination) for m in moves), reverse=True)
    chains = _chains(steps, hits)
    out = [Move(a, b) for chain in chains for a, b in itertools.pairwise(chain)]
    return tuple(out)


def _chains(steps: list[tuple[int, int]], hits: frozenset[int]) -> list[list[int]]:
    """Join each step with a later one that starts where it ends (gnubg's FormatMove).

    Steps are sorted by decreasing source.  A junction point is kept when a
    blot was hit there; otherwise it is elided.
    """
    chains: list[list[int] | None] = [[a, b] for a, b in steps]
    for i, chain in enumerate(chains):
        if chain is None:
            continue
        for j in range(i + 1, len(chains)):
            other = chains[j]
            if other is not None and chain[-1] == other[0]:
                if chain[-1] in hits:
                    chain.extend(other[1:])
                else:
                    chain[-1:] = other[1:]
                chains[j] = None
    return [c for c in chains if c is not None]


def _format_groups(moves: tuple[Move, ...], hits: frozenset[int]) -> list[str]:
    """Format chains, counting identical ones, starring each hit point once."""
    chains = _chains(sorted(((m.source, m.destination) for m in moves), reverse=True), hits)
    groups: list[tuple[list[int], int]] = []
    for chain in chains:
        for index, (seen, count) in enumerate(groups):
            if seen == chain:
                groups[index] = (seen, count + 1)
                break
        else:
            groups.append((chain, 1))
    starred: set[int] = set()
    words = []
    for chain, count in groups:
        text = _point(chain[0])
        for point in chain[1:]:
            text += "/" + _point(point)
            if point in hits and point not in starred:
                text += "*"
                starred.add(point)
        words.append(text + (f"({count})" if count > 1 else ""))
    return words
