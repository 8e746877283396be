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

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress

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
            raise InvalidDiceError(f"a die shows 1 to 6, not {die!r}")
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

    The plays, their order and the steps given for each are those of the
    depth-first search of :class:`_Search` (every order of the dice, checkers
    taken from the highest point down, the first sequence found kept for each
    resulting position).  The walk here is the same, made cheaper: one board
    changed in place and put back, the points a die may leave from worked out
    once a roll (hitting a blot never closes a point), the opponent's board
    never changed (hits kept as bits), a non-double's positions told apart by
    an integer (a double's need no telling apart: :func:`_doubles`), and a
    :class:`Position` built only for each distinct play.

    :raises InvalidDiceError: if ``dice`` is not two dice of 1-6.
    """
    d1, d2 = check_dice(dice)
    me, opp = list(position.mover), list(position.opponent)
    outside = sum(me[7:])
    found: Collection[_Found]
    if d1 == d2:
        found = _doubles(me, opp, d1, outside)
    else:
        by_key: dict[int, _Found] = {}
        open1, open2 = _Open(opp, d1), _Open(opp, d2)
        _pairs(me, opp, open1, open2, outside, by_key, again=False)
        _pairs(me, opp, open2, open1, outside, by_key, again=not me[BAR])
        if not by_key:
            high, low = (open1, open2) if d1 > d2 else (open2, open1)
            _singles(me, opp, high, outside, by_key)
            if not by_key:
                _singles(me, opp, low, outside, by_key)
        found = by_key.values()
    if not found:
        return (LegalPlay((), _NO_HITS, position.swapped()),)
    return _made(position.opponent, found)


def _made(opponent: tuple[int, ...], found: Collection[_Found]) -> tuple[LegalPlay, ...]:
    """The plays ``found`` (none empty) in the opponent's position ``opponent``, built through
    their slots (as :meth:`Position.trusted` does, from parts known to be right: a third of
    the cost of the frozen dataclasses' ``__init__``)."""
    boards = _Boards({0: opponent})
    hit_sets = _HIT_SETS
    plays = []
    new, set_mover, set_opponent = _new, _SET_MOVER, _SET_OPPONENT
    set_steps, set_hits, set_result = _SET_STEPS, _SET_HITS, _SET_RESULT
    for steps, hitmask, mover in found:
        result = new(Position)
        set_mover(result, boards[hitmask])
        set_opponent(result, mover)
        play = new(LegalPlay)
        set_steps(play, steps)
        set_hits(play, hit_sets[hitmask])
        set_result(play, result)
        plays.append(play)
    return tuple(plays)


_Found = tuple[tuple[Step, ...], int, tuple[int, ...]]
"""A play found: its steps, the points it hits as bits, and the mover's checkers after it."""

_POWER = tuple(1 << (4 * point) for point in range(26))
"""A checker on ``point`` counts ``_POWER[point]``: the sum of a play's
``_POWER[dst] - _POWER[src]`` over its steps tells its resulting checkers apart
(signed digits of base 16, at most 4 a point)."""

_HIT_SHIFT = 120
"""The points hit, as bits, sit above any sum of steps (less than 2**104 either way)."""

_NO_HITS: frozenset[int] = frozenset()


class _HitSets(dict[int, frozenset[int]]):
    """The points of each set of hits (as bits), made once for the process."""

    def __missing__(self, hitmask: int) -> frozenset[int]:
        hits = self[hitmask] = frozenset(_points(hitmask))
        return hits


_HIT_SETS = _HitSets({0: _NO_HITS})


class _Boards(dict[int, tuple[int, ...]]):
    """The opponent's checkers after each set of hits (as bits) of one roll, made once each
    from the checkers before (``self[0]``): every checker hit is on the bar."""

    def __missing__(self, hitmask: int) -> tuple[int, ...]:
        board = list(self[0])
        for point in _points(hitmask):
            board[25 - point] = 0
            board[BAR] += 1
        made = self[hitmask] = tuple(board)
        return made


def _points(hitmask: int) -> list[int]:
    """The points of the bits of ``hitmask``."""
    return [point for point in range(1, 25) if hitmask >> point & 1]


def _blots(opp: list[int]) -> list[int]:
    """For each point of the mover, its bit if a single opposing checker stands there
    (landing there hits it), else 0."""
    return [0] + [1 << point if opp[25 - point] == 1 else 0 for point in range(1, 25)] + [0]


_new = object.__new__
_SET_MOVER = Position.__dict__["mover"].__set__
_SET_OPPONENT = Position.__dict__["opponent"].__set__
_SET_STEPS = LegalPlay.__dict__["steps"].__set__
_SET_HITS = LegalPlay.__dict__["hits"].__set__
_SET_RESULT = LegalPlay.__dict__["result"].__set__


class _Open:
    """The steps of one die that the opponent's points allow this roll, highest source first.

    A step is shut only by a point the opponent holds with two or more
    checkers; the mover's own steps never shut one (a hit leaves the point
    empty of the opponent), so these hold for the whole roll.  Bearing off
    depends on the mover's checkers, so it is left to :func:`_home`.
    """

    __slots__ = ("below", "die", "enter", "sources", "steps")

    def __init__(self, opp: list[int], die: int) -> None:
        self.die = die
        self.enter: list[Step] = [] if opp[die] >= 2 else [(BAR, BAR - die)]
        # Source 24 down to die + 1 lands on the opponent's point die + 1 up to 24.
        self.sources = list(compress(range(24, die, -1), map((2).__gt__, opp[die + 1 : 25])))
        self.steps = [(src, src - die) for src in self.sources]
        self.below: dict[int, tuple[list[Step], list[int]]] = {24: (self.steps, self.sources)}

    def moves(self, me: list[int], opp: list[int], outside: int, top: int = 24) -> list[Step]:
        """The steps of the die from ``top`` and below on this board, in
        :meth:`_Search.run`'s order."""
        if me[BAR]:
            return self.enter
        if not outside:
            return _home(me, opp, self.die, top)
        below = self.below.get(top) or self.below_of(top)
        return list(compress(below[0], map(me.__getitem__, below[1])))

    def below_of(self, top: int) -> tuple[list[Step], list[int]]:
        """The steps from ``top`` and below and their sources, kept for the roll."""
        cut = sum(1 for src in self.sources if src > top)
        below = self.below[top] = (self.steps[cut:], self.sources[cut:])
        return below


def _home(me: list[int], opp: list[int], die: int, top: int) -> list[Step]:
    """The steps of ``die`` with every checker home: bearing off as USBGF 4.2.3 allows."""
    highest = 6
    while highest and not me[highest]:
        highest -= 1
    found = []
    for src in range(min(top, highest), 0, -1):
        if me[src]:
            dst = src - die
            if dst > 0:
                if opp[25 - dst] < 2:
                    found.append((src, dst))
            elif dst == 0 or src == highest:
                found.append((src, 0))
    return found


def _singles(
    me: list[int], opp: list[int], die: _Open, outside: int, found: dict[int, _Found]
) -> None:
    """Plays of one die alone (when no play uses both dice)."""
    power = _POWER
    for step in die.moves(me, opp, outside):
        src, dst = step
        hitmask = 1 << dst if dst and opp[25 - dst] == 1 else 0
        mover = me.copy()
        mover[src] -= 1
        mover[dst] += 1
        key = power[dst] - power[src] + (hitmask << _HIT_SHIFT)
        found.setdefault(key, ((step,), hitmask, tuple(mover)))


def _pairs(
    me: list[int],
    opp: list[int],
    first: _Open,
    second: _Open,
    outside: int,
    found: dict[int, _Found],
    again: bool,
) -> None:
    """Plays of ``first`` then ``second`` (two different dice), added to ``found`` in search order.

    The mover's board is changed in place for the first step and put back after it; the
    opponent's is never changed: a step hits where it lands on a single opposing checker
    (a second step onto the point the first hit finds its bit set already), and a hit
    never opens or shuts a point to the second step.

    ``again``: the dice were already tried the other way round from a board
    with no checker on the bar.  Then two steps of different checkers, neither
    bearing off, were found in that order already (each step was open from
    the start, and a hit only empties a point), so after a first step that
    leaves a checker outside the home board only the same checker's second
    step can lead anywhere new.
    """
    power = _POWER
    for step in first.moves(me, opp, outside):
        src, dst = step
        me[src] -= 1
        me[dst] += 1
        left = outside - (src > 6 >= dst)
        if again and dst and left:
            onward = dst - second.die
            seconds = [(dst, onward)] if onward > 0 and opp[25 - onward] < 2 else []
        else:
            seconds = second.moves(me, opp, left)
        if seconds:
            base = power[dst] - power[src]
            hitmask = 1 << dst if dst and opp[25 - dst] == 1 else 0
            for last in seconds:
                src2, dst2 = last
                mask = hitmask | (1 << dst2) if dst2 and opp[25 - dst2] == 1 else hitmask
                key = base + power[dst2] - power[src2] + (mask << _HIT_SHIFT)
                if key in found:
                    continue
                me[src2] -= 1
                me[dst2] += 1
                found[key] = ((step, last), mask, tuple(me))
                me[src2] += 1
                me[dst2] -= 1
        me[src] += 1
        me[dst] -= 1


def _doubles(me: list[int], opp: list[int], die: int, outside: int) -> list[_Found]:
    """Every sequence of up to four steps of ``die``, sources never rising after the
    entering ones (as :meth:`_Search.run` with ``top``), in the search's order; the
    sequences of the most steps are returned (a sequence that cannot go on ends there).

    No two of these sequences leave the same checkers, so none is looked up: a step of
    ``die`` from a point has one destination, so the steps form a tree (every point
    leads down to its one next point, the bar in, bearing off out), and on a tree the
    checkers a sequence leaves fix how many times it took each step; with the bar
    entered first and sources never rising, those counts fix the sequence."""
    levels: list[list[_Found]] = [[], [], [], [], []]
    _walk(me, opp, _Open(opp, die), _blots(opp), levels, 0, 24, outside, 0, ())
    return next((level for level in reversed(levels) if level), [])


def _walk(
    me: list[int],
    opp: list[int],
    moving: _Open,
    blots: list[int],
    levels: list[list[_Found]],
    depth: int,
    top: int,
    outside: int,
    hitmask: int,
    steps: tuple[Step, ...],
) -> None:
    """:func:`_doubles`'s search from step ``depth`` on, sources from ``top`` down, a sequence
    that cannot go on kept in ``levels[depth]``.  The mover's board is changed in place and
    put back; the opponent's is never changed (``blots`` says where a step hits).

    A function of the module, not a closure that calls itself: such a closure refers to
    itself, and that cycle (with every list of the search) waited for the garbage
    collector, whose collections took a seventh of the time of doubles."""
    belows = moving.below
    occupied = me.__getitem__
    if me[BAR] or not outside:
        moves = moving.moves(me, opp, outside, top)
    else:  # moving.moves's commonest case, without the call
        below = belows.get(top) or moving.below_of(top)
        moves = list(compress(below[0], map(occupied, below[1])))
    if not moves:
        if depth:
            levels[depth].append((steps, hitmask, tuple(me)))
        return
    entering = moves is moving.enter
    if depth < 2:
        for step in moves:
            src, dst = step
            me[src] -= 1
            me[dst] += 1
            _walk(
                me,
                opp,
                moving,
                blots,
                levels,
                depth + 1,
                24 if entering else src,
                outside - (src > 6 >= dst),
                hitmask | blots[dst],
                (*steps, step),
            )
            me[src] += 1
            me[dst] -= 1
        return
    # The third step and the fourth here, a call fewer for each third step.
    stuck = levels[3].append
    keep = levels[4].append
    for step in moves:
        src, dst = step
        me[src] -= 1
        me[dst] += 1
        left = outside - (src > 6 >= dst)
        third = (*steps, step)
        mask = hitmask | blots[dst]
        below_top = 24 if entering else src
        if me[BAR] or not left:
            lasts = moving.moves(me, opp, left, below_top)
        else:
            below = belows.get(below_top) or moving.below_of(below_top)
            lasts = list(compress(below[0], map(occupied, below[1])))
        if lasts:
            for last in lasts:
                src4, dst4 = last
                me[src4] -= 1
                me[dst4] += 1
                keep(((*third, last), mask | blots[dst4], tuple(me)))
                me[src4] += 1
                me[dst4] -= 1
        else:
            stuck((third, mask, tuple(me)))
        me[src] += 1
        me[dst] -= 1


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
    was all that could be played.  A double needs no search at all: its one
    play of four steps is found from the checkers (:func:`plain_double`).  A
    non-double's search follows only the steps that can still end at
    ``mover_after`` (:func:`_two_steps_to`), so it visits a handful of sequences
    where :func:`legal_plays` visits them all.

    :raises InvalidDiceError: if ``dice`` is not two dice of 1-6.
    """
    d1, d2 = check_dice(dice)
    target = list(mover_after)
    if d1 == d2:
        plain = plain_double(position, d1, target)
        return () if plain is None else (plain,)
    me, opp = list(position.mover), list(position.opponent)
    slack = [0] * 26
    above = 0
    for point in range(BAR, 0, -1):
        above += me[point] - target[point]
        if above < 0:
            return ()
        slack[point] = above
    found: dict[_Key, tuple[Step, ...]] = {}
    _two_steps_to(me, opp, d1, d2, slack, target, found)
    _two_steps_to(me, opp, d2, d1, slack, target, found)
    return tuple(_legal_play(position, key, steps) for key, steps in found.items())


def plain_double(position: Position, die: int, mover_after: Sequence[int]) -> LegalPlay | None:
    """The play of four steps of ``die`` that leaves the mover's checkers as ``mover_after``,
    if those steps, taken in the order the search takes them, are each legal in turn;
    None if not (then only the search can say).

    A step of a double from a point has one destination (``die`` lower, the bar in,
    bearing off out), so how many steps leave each point follows from the checkers
    before and after, from the bar down: a point's checkers and those arriving from
    ``die`` higher, less those that stay.  Four steps in all, none negative, is one
    play and the only one that leaves these checkers.  Taken as the search takes
    them (the bar first, USBGF 4.2.1, then from the highest point down), each must
    be legal on the board as it then is: no checker left on the bar, no landing on
    a point the opponent holds with two or more, bearing off only with every
    checker home and, with a die higher than the point, from the highest point.  A
    play of four steps uses the most dice any play can (USBGF 4.2.3), so no other
    play need be looked at: it is legal, and it is the play :func:`full_plays_to`'s
    search would find, with the same steps in the same order.  A play taken in
    another order could only be legal if this one is (moving the higher checkers
    first never shuts a step that was open), so None means no play of four steps
    leaves these checkers: the judge then needs every legal play, as for any play
    of fewer dice.
    """
    me = list(position.mover)
    opp = position.opponent
    leaving = [0] * (BAR + 1 + die)
    count = 0
    for point in range(BAR, 0, -1):
        steps = me[point] + leaving[point + die] - mover_after[point]
        if steps < 0:
            return None
        leaving[point] = steps
        count += steps
    if count != 4:
        return None
    order: list[Step] = []
    hits = set()
    for src in range(BAR, 0, -1):
        for _ in range(leaving[src]):
            dst = max(src - die, 0)
            if not me[src] or (me[BAR] and src != BAR):
                return None
            if dst:
                if opp[25 - dst] >= 2:
                    return None
                if opp[25 - dst]:
                    hits.add(dst)
            else:
                highest = max(point for point in range(1, BAR + 1) if me[point])
                if highest > 6 or (src < die and src != highest):
                    return None
            me[src] -= 1
            me[dst] += 1
            order.append((src, dst))
    after = list(opp)
    for point in hits:
        after[25 - point] = 0
        after[BAR] += 1
    return LegalPlay(tuple(order), frozenset(hits), Position.trusted(after, me))


def _sources(me: list[int], opp: list[int], die: int) -> list[Step]:
    """The steps ``die`` may take, in the order :meth:`_Search.run` tries them (the bar
    alone while a checker is on it; else from the highest point down, bearing off only
    with every checker home, from a higher point than the die only from the highest)."""
    if me[BAR]:
        return [] if opp[die] >= 2 else [(BAR, BAR - die)]
    highest = 24
    while highest and not me[highest]:
        highest -= 1
    steps = []
    for src in range(highest, 0, -1):
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
        steps.append((src, dst))
    return steps


def _two_steps_to(
    me: list[int],
    opp: list[int],
    first: int,
    second: int,
    slack: list[int],
    target: list[int],
    found: dict[_Key, tuple[Step, ...]],
) -> None:
    """The sequences of a non-double, ``first`` die then ``second``, that end at ``target``,
    in :meth:`_Search.run`'s order (:func:`_sources`), each new result's first sequence
    kept in ``found``; the board is changed in place and put back.

    Only the steps after which ``target`` can still be reached are followed.  Checkers
    only move down, so a step from ``src`` to ``dst`` lowers by one the mover's count of
    checkers on points ``dst + 1`` to ``src`` and above; once that count is below the
    target's on some point, no later step can restore it.  ``slack[p]`` is how many more
    checkers the mover has on ``p`` and above than the target; a step is followed only
    if it leaves every slack at zero or more, so no sequence ending at the target is cut.
    """
    for src, dst in _sources(me, opp, first):
        if 0 in slack[dst + 1 : src + 1]:
            continue
        me[src] -= 1
        me[dst] += 1
        hit = bool(dst) and opp[25 - dst] == 1
        if hit:
            opp[25 - dst] = 0
            opp[BAR] += 1
        for p in range(dst + 1, src + 1):
            slack[p] -= 1
        for src2, dst2 in _sources(me, opp, second):
            if 0 in slack[dst2 + 1 : src2 + 1]:
                continue
            me[src2] -= 1
            me[dst2] += 1
            if me == target:
                after = opp
                if dst2 and opp[25 - dst2] == 1:
                    after = opp.copy()
                    after[25 - dst2] = 0
                    after[BAR] += 1
                found.setdefault((tuple(me), tuple(after)), ((src, dst), (src2, dst2)))
            me[src2] += 1
            me[dst2] -= 1
        for p in range(dst + 1, src + 1):
            slack[p] += 1
        if hit:
            opp[25 - dst] = 1
            opp[BAR] -= 1
        me[src] += 1
        me[dst] -= 1


def _legal_play(position: Position, key: _Key, steps: tuple[Step, ...]) -> LegalPlay:
    me, opp = key
    hits = frozenset(dst for _, dst in steps if dst and position.opponent_at(dst))
    return LegalPlay(steps, hits, Position.trusted(opp, me))
