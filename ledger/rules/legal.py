"""Legal plays.

The rules (USBGF 4.2.2 and 4.2.3; CLASSIC 5-8): a checker on the bar enters
before any other moves; no checker lands on a point held by two or more
opposing checkers; landing on a single opposing checker hits it; both dice are
used if any sequence allows it, else the larger die if either die can be
played; doubles are played up to four times; checkers bear off only when all
fifteen are home, a die higher than the highest occupied point bearing off
from that point.

The search mirrors how GNU Backgammon counts plays: every order of the dice
is tried, only sequences that use the most dice (and, among those, the most
pips of dice) are kept, and plays are distinct when their resulting positions
are.  A roll with no legal play has exactly one play, the empty one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bgledger.rules.errors import InvalidDiceError
from bgledger.rules.notation import Move, Play, play_of
from bgledger.rules.position import BAR, Position

Step = tuple[int, int]
_Key = tuple[tuple[int, ...], tuple[int, ...]]


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """Return ``dice`` as a pair after checking each is a whole number from 1 to 6.

    :raises InvalidDiceError: if there are not two dice or one is outside 1-6.
    """
    if len(dice) != 2:
        raise InvalidDiceError(f"a roll is two dice, got {list(dice)!r}")
    for die in dice:
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise InvalidDiceError(f"a die shows 1 to 6, got {die!r} in {list(dice)!r}")
    return dice[0], dice[1]


def read_dice(words: Sequence[str]) -> tuple[int, int]:
    """Two dice as a scorekeeper writes them: ``['6', '4']``, or ``['64']`` as one says "six-four".

    :raises InvalidDiceError: for anything but two dice of 1 to 6, quoting the input.
    """
    text = " ".join(words)
    digits = list(words[0]) if len(words) == 1 and len(words[0]) == 2 else list(words)
    if len(digits) != 2 or not all(d.isascii() and d.isdigit() for d in digits):
        raise InvalidDiceError(f"{text!r}: give both dice, D D or DD (6 4 or 64)")
    try:
        return check_dice([int(d) for d in digits])
    except InvalidDiceError as error:
        raise InvalidDiceError(f"{text!r}: {error}") from None


@dataclass(frozen=True, slots=True)
class LegalPlay:
    """One legal play: the checker steps, one die each, and where they lead.

    ``steps`` are ``(source, destination)`` pairs in the order the dice were
    used; ``hits`` the points where an opposing blot was hit; ``result`` the
    position after the play with the opponent on roll.
    """

    steps: tuple[Step, ...]
    hits: frozenset[int]
    result: Position

    @property
    def play(self) -> Play:
        """The play in canonical (gnubg) form."""
        return _play_of(self.steps, self.hits)

    @property
    def dice_used(self) -> int:
        """How many dice the play uses."""
        return len(self.steps)


@lru_cache(maxsize=16384)
def _play_of(steps: tuple[Step, ...], hits: frozenset[int]) -> Play:
    return play_of(tuple(Move(a, b) for a, b in steps), hits)


class _Search:
    """One depth-first search over the dice, keeping the best sequences by result."""

    __slots__ = ("best_moves", "best_pips", "dice", "doubles", "found")

    def __init__(self, dice: tuple[int, ...]) -> None:
        self.dice = dice
        self.doubles = len(dice) == 4
        self.found: dict[_Key, tuple[Step, ...]] = {}
        self.best_moves = 0
        self.best_pips = 0

    def save(self, me: list[int], opp: list[int], steps: list[Step], pips: int) -> None:
        moves = len(steps)
        if moves < self.best_moves or pips < self.best_pips:
            return
        if moves > self.best_moves or pips > self.best_pips:
            self.found.clear()
            self.best_moves, self.best_pips = moves, pips
        key = (tuple(me), tuple(opp))
        if key not in self.found:
            self.found[key] = tuple(steps)

    def run(self, me: list[int], opp: list[int], depth: int, top: int, steps: list[Step]) -> bool:
        """Play die ``depth`` from points ``top`` and below; True if it could not be played."""
        if depth == len(self.dice):
            return True
        die = self.dice[depth]
        pips = sum(self.dice[:depth]) + die
        if me[BAR]:
            if opp[die] >= 2:
                return True
            self._step(me, opp, depth, BAR, BAR - die, 24, steps, pips)
            return False
        used = False
        highest = 24
        while highest and not me[highest]:
            highest -= 1
        for src in range(min(top, highest), 0, -1):
            if not me[src]:
                continue
            dst = src - die
            if dst > 0:
                if opp[25 - dst] >= 2:
                    continue
            elif highest > 6 or (dst < 0 and src != highest):
                continue
            else:
                dst = 0
            self._step(me, opp, depth, src, dst, src if self.doubles else 24, steps, pips)
            used = True
        return not used

    def _step(
        self,
        me: list[int],
        opp: list[int],
        depth: int,
        src: int,
        dst: int,
        top: int,
        steps: list[Step],
        pips: int,
    ) -> None:
        new_me = me.copy()
        new_me[src] -= 1
        new_me[dst] += 1
        new_opp = opp
        if dst and opp[25 - dst] == 1:
            new_opp = opp.copy()
            new_opp[25 - dst] = 0
            new_opp[BAR] += 1
        steps.append((src, dst))
        if self.run(new_me, new_opp, depth + 1, top, steps):
            self.save(new_me, new_opp, steps, pips)
        steps.pop()


def legal_plays(position: Position, dice: Sequence[int]) -> tuple[LegalPlay, ...]:
    """Every legal play of ``dice`` in ``position``, one per distinct resulting position.

    :raises InvalidDiceError: if ``dice`` is not two dice of 1-6.
    """
    d1, d2 = check_dice(dice)
    me, opp = list(position.mover), list(position.opponent)
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    found: dict[_Key, tuple[Step, ...]] = {}
    best = (0, 0)
    for order in orders:
        search = _Search(order)
        search.run(me, opp, 0, 24, [])
        score = (search.best_moves, search.best_pips)
        if score > best:
            found, best = {}, score
        if score == best:
            for key, steps in search.found.items():
                found.setdefault(key, steps)
    if not found:
        return (LegalPlay((), frozenset(), position.swapped()),)
    return tuple(_legal_play(position, key, steps) for key, steps in found.items())


def can_play(position: Position, dice: Sequence[int]) -> bool:
    """Whether any checker can be moved with ``dice``: False exactly when
    :func:`legal_plays` gives only the empty play (a dance).

    Every play starts with one die from the position as it stands, so one step
    of either die is all there is to look for.

    :raises InvalidDiceError: if ``dice`` is not two dice of 1-6.
    """
    d1, d2 = check_dice(dice)
    me, opp = list(position.mover), list(position.opponent)
    return any(not _Search((die,)).run(me, opp, 0, 24, []) for die in {d1, d2})


class _Toward(_Search):
    """The same search, following only steps after which ``target`` can still be reached.

    Checkers only move down, so a step from ``src`` to ``dst`` lowers by one the
    mover's count of checkers on points ``dst + 1`` to ``src`` and above; once
    that count is below the target's on some point, no later step can restore
    it.  ``slack[p]`` is how many more checkers the mover has on ``p`` and above
    than the target; a step is followed only if it leaves every slack at zero
    or more.  No sequence ending at the target is cut, and the ones kept are
    visited in the order the full search visits them.  Only sequences that use
    every die and end at the target are saved.
    """

    __slots__ = ("slack", "target")

    def __init__(self, dice: tuple[int, ...], slack: list[int], target: list[int]) -> None:
        super().__init__(dice)
        self.slack = slack
        self.target = target

    def save(self, me: list[int], opp: list[int], steps: list[Step], pips: int) -> None:
        if len(steps) == len(self.dice) and me == self.target:
            self.found.setdefault((tuple(me), tuple(opp)), tuple(steps))

    def _step(
        self,
        me: list[int],
        opp: list[int],
        depth: int,
        src: int,
        dst: int,
        top: int,
        steps: list[Step],
        pips: int,
    ) -> None:
        slack = self.slack
        if 0 in slack[dst + 1 : src + 1]:
            return
        span = range(dst + 1, src + 1)
        for p in span:
            slack[p] -= 1
        super()._step(me, opp, depth, src, dst, top, steps, pips)
        for p in span:
            slack[p] += 1


def full_plays_to(
    position: Position, dice: Sequence[int], mover_after: Sequence[int]
) -> tuple[LegalPlay, ...]:
    """The plays of ``dice`` that use every die and leave the mover's checkers as
    ``mover_after``, in the order :func:`legal_plays` lists them; none if there is none.

    A play that uses every die (four for doubles) uses the most dice and the
    most pips any play can, so every play found here is legal and these are
    exactly the plays of :func:`legal_plays` that leave ``mover_after``
    (USBGF 4.2.3: both dice must be used if possible).  Only when none is found
    must the full search decide whether fewer dice, or the larger die alone,
    was all that could be played.  The search follows only the steps that can
    still end at ``mover_after`` (:class:`_Toward`), so it visits a handful of
    sequences where :func:`legal_plays` visits them all.

    :raises InvalidDiceError: if ``dice`` is not two dice of 1-6.
    """
    d1, d2 = check_dice(dice)
    me, opp = list(position.mover), list(position.opponent)
    target = list(mover_after)
    slack = [0] * 26
    above = 0
    for point in range(BAR, 0, -1):
        above += me[point] - target[point]
        if above < 0:
            return ()
        slack[point] = above
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    found: dict[_Key, tuple[Step, ...]] = {}
    for order in orders:
        search = _Toward(order, slack, target)
        search.run(me, opp, 0, 24, [])
        for key, steps in search.found.items():
            found.setdefault(key, steps)
    return tuple(_legal_play(position, key, steps) for key, steps in found.items())


def _legal_play(position: Position, key: _Key, steps: tuple[Step, ...]) -> LegalPlay:
    me, opp = key
    hits = frozenset(dst for _, dst in steps if dst and position.opponent_at(dst))
    return LegalPlay(steps, hits, Position.trusted(opp, me))
