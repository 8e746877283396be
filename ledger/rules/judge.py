"""Judging a recorded play: legal, or illegal and why.

A play is legal when the checkers it leaves are those of a legal play of the
same roll (:mod:`bgledger.rules.legal`): the path a checker took cannot be seen
on the board, so ``13/6`` for 5-2 is ``13/8/6`` and ``11/4`` for 6-1 is
whichever of ``11/5/4`` and ``11/10/4`` is legal.  Hits are worked out from the
board; a ``*`` written on a point without a blot is ignored.  A play that
uses every die is legal as soon as a sequence of legal single steps leads to
its checkers (:func:`~bgledger.rules.legal.full_plays_to`; for a double, its
four steps each legal in turn, with no search: :func:`~bgledger.rules.legal.plain_double`);
only a play that uses fewer dice needs every legal play generated, to show that
no fuller play (or, for one die, the larger die) was possible.

An illegal play is one a player could make on a real board but the rules
forbid; it is described as made (hits on blots where it lands, a checker
stacked on a held point where it lands there) with the reason, and the decision it
falls under (:class:`~bgledger.rules.profiles.Decision`): an illegal play of the dice
(USBGF 4.2.3(a), ABT 4.8, CLASSIC 9) for plays that get the dice wrong, a play
unrelated to the dice (USBGF 4.2.3(e)) for bearing off before all checkers are home,
and a resulting position that cannot occur in a game is flagged as impossible
(USBGF 4.2.3(d)).  The rule cited is the one the match's profile cites for that
decision (``usbgf-2016`` unless another profile is given).

A play no board could show (a checker moved from a point where the mover has
none) raises :class:`~bgledger.rules.errors.InvalidPlayError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bgledger.rules.errors import InvalidPlayError
from bgledger.rules.legal import LegalPlay, check_dice, full_plays_to, legal_plays
from bgledger.rules.notation import Move, Play, play_of
from bgledger.rules.position import BAR, Position
from bgledger.rules.profiles import DEFAULT_PROFILE, Decision, Profile, get_profile

RULE_DICE = Decision.ILLEGAL_PLAY_OF_DICE
RULE_UNRELATED = Decision.UNRELATED_TO_DICE
RULE_IMPOSSIBLE = Decision.IMPOSSIBLE_POSITION


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on one play.

    ``play`` is the play as made in canonical form (hits from the board);
    ``result`` the position after it with the opponent on roll; ``reason``,
    ``decision`` and ``rule`` say why an illegal play is illegal (all ``None`` when
    legal), ``rule`` being the one the profile judged under cites for ``decision``;
    ``impossible`` lists what is wrong with a position that no game could
    reach (USBGF 4.2.3(d)).
    """

    position: Position
    dice: tuple[int, int]
    play: Play
    legal: bool
    reason: str | None
    rule: str | None
    result: Position
    impossible: tuple[str, ...] = ()
    decision: Decision | None = None


@dataclass(slots=True)
class _Made:
    """A play applied move by move, as a player would make it on the board."""

    me: list[int]
    opp: list[int]
    order: list[Move]
    hits: set[int]


def make_play(position: Position, play: Play) -> tuple[Play, Position]:
    """Make ``play`` on the board literally, whatever the dice: the play with its
    hits worked out, and the position after it with the opponent on roll.

    :raises InvalidPlayError: if the play moves a checker the mover does not have.
    """
    return _with_board_hits(position, play), play_result(position, play)


def play_result(position: Position, play: Play) -> Position:
    """The position after ``play`` made literally, with the opponent on roll.

    What :func:`make_play` returns second, without working out the canonical
    play: the fast path for replaying stored plays.

    :raises InvalidPlayError: if the play moves a checker the mover does not have.
    """
    made = _make(position, play)
    return Position.trusted(made.opp, made.me)


_JUDGED: list[tuple[Position, str, Position] | None] = [None]
"""The last legal play judged by :func:`remember_result`: its board, its text and where it leads."""


def remember_result(position: Position, play: str, result: Position) -> None:
    """Keep that the legal play written ``play`` leaves ``position`` as ``result`` (the judge's
    verdict, about to be recorded), for :func:`judged_result` to give it to the fold."""
    _JUDGED[0] = (position, play, result)


def judged_result(position: Position, play: str) -> Position | None:
    """:func:`play_result` of ``play`` (its text) in ``position``, if it is the legal play last
    kept by :func:`remember_result`, else None.

    A pure function's value kept with every input it was worked out from: the
    fold of a play just judged need not make it a second time.  The one entry
    is read whole (one tuple), so a thread that recorded another play meanwhile
    makes it miss, never answer wrong.
    """
    known = _JUDGED[0]
    if known is not None and known[1] == play and known[0] == position:
        return known[2]
    return None


def removed_illegally(position: Position, play: Play) -> int:
    """How many checkers ``play`` bears off while a checker of the mover stays outside his
    home board: removed from play, not borne off (USBGF 4.2.3(e), ABT 4.4).

    A checker still outside after the play was outside during all of it (the mover's own
    checkers only move on), so every bear-off of the play came before all were home; a
    play that brings every checker home may have borne off after, whatever its order.

    :raises InvalidPlayError: if the play moves a checker the mover does not have.
    """
    off = sum(1 for move in play.moves if move.destination == 0)
    if not off:
        return 0
    made = _make(position, play)
    return off if any(made.me[7:]) else 0


def wrongly_moved(play: Play, dice: Sequence[int]) -> tuple[int, ...]:
    """The points of the men ``play`` moved a number of points no die of ``dice`` gives
    (CLASSIC 9: "moves a man a wrong number of points"), highest first.

    A man is moved right when some of the dice, each used once, add up to his move (all
    of them or more for a man borne off).  The dice are shared out so that as many men
    as possible moved right; the others moved a wrong number.  Empty when every man's
    move fits the dice (the play is illegal for another reason).

    >>> wrongly_moved(Play.parse("13/8 24/20"), (5, 2)), wrongly_moved(Play.parse("13/6"), (5, 2))
    ((24,), ())
    """
    pool = [dice[0]] * 4 if len(dice) == 2 and dice[0] == dice[1] else list(dice)
    moves = list(play.moves)

    def fits(move: Move, total: int) -> bool:
        distance = move.source - move.destination
        return total == distance or (move.destination == 0 and total > distance)

    def best(index: int, left: tuple[int, ...]) -> tuple[int, frozenset[int]]:
        """(men moved right, indices of the men moved wrong) for moves[index:]."""
        if index == len(moves):
            return 0, frozenset()
        right, wrong = best(index + 1, left)
        found = (right, wrong | {index})
        for mask in range(1, 1 << len(left)):
            used = [die for bit, die in enumerate(left) if mask >> bit & 1]
            if fits(moves[index], sum(used)):
                rest = tuple(die for bit, die in enumerate(left) if not mask >> bit & 1)
                right, wrong = best(index + 1, rest)
                if right + 1 > found[0]:
                    found = (right + 1, wrong)
        return found

    _, wrong = best(0, tuple(pool))
    return tuple(sorted({moves[i].source for i in wrong}, reverse=True))


def judge(
    position: Position, dice: Sequence[int], play: Play, profile: Profile | str | None = None
) -> Judgement:
    """Judge ``play`` of ``dice`` in ``position`` (the mover is the player on roll), citing
    the rules of ``profile`` (a profile or its name; ``usbgf-2016`` by default).

    :raises InvalidDiceError: if ``dice`` is not two dice of 1-6.
    :raises InvalidPlayError: if the play moves a checker the mover does not have.
    """
    pair = check_dice(dice)
    play = _with_board_hits(position, play)
    made = _make(position, play)
    # A play that uses every die is legal with no search beyond the few sequences that
    # lead to its checkers (none for a double); only a shorter one needs every legal play.
    matches = list(full_plays_to(position, pair, made.me))
    options: tuple[LegalPlay, ...] = ()
    if not matches:
        options = legal_plays(position, pair)
        after_me = tuple(made.me)
        matches = [lp for lp in options if lp.result.opponent == after_me]
    if matches:
        chosen = _closest_hits(matches, play.hits)
        return Judgement(position, pair, chosen.play, True, None, None, chosen.result)
    reason, decision = _diagnose(position, pair, made, options)
    result = Position(tuple(made.opp), tuple(made.me))
    as_made = Play(play.moves, frozenset(made.hits))
    impossible = result.swapped().problems()  # in the numbering of the player who played
    rules = profile if isinstance(profile, Profile) else get_profile(profile or DEFAULT_PROFILE)
    rule = rules.cite(decision)
    return Judgement(position, pair, as_made, False, reason, rule, result, impossible, decision)


def _with_board_hits(position: Position, play: Play) -> Play:
    """The play with its hits worked out from the board along the written moves.

    Every point the notation lands on that holds a single opposing checker is a
    hit; a ``*`` written where no blot stands is dropped.
    """
    hits = frozenset(
        m.destination
        for m in play.written
        if m.destination and position.opponent_at(m.destination) == 1
    )
    return play_of(play.written, hits)


def _make(position: Position, play: Play) -> _Made:
    """Apply the moves in an order the checkers allow (the bar first, then from the top)."""
    me, opp = list(position.mover), list(position.opponent)
    pending = list(play.moves)
    made = _Made(me, opp, [], set())
    while pending:
        index = next((i for i, m in enumerate(pending) if me[m.source]), None)
        if index is None:
            move = pending[0]
            raise InvalidPlayError(
                f"{str(play)!r}: the player on roll has no checker on "
                f"{_name(move.source)} to play {move} (position {position.position_id})"
            )
        move = pending.pop(index)
        me[move.source] -= 1
        me[move.destination] += 1
        if move.destination and opp[25 - move.destination] == 1:
            opp[25 - move.destination] = 0
            opp[BAR] += 1
            made.hits.add(move.destination)
        made.order.append(move)
    return made


def _closest_hits(matches: list[LegalPlay], written: frozenset[int]) -> LegalPlay:
    """Among legal plays that leave the same checkers, the one whose hits fit the notation."""
    return min(matches, key=lambda lp: (len(lp.hits ^ written), len(lp.hits)))


def _name(point: int) -> str:
    return "the bar" if point == BAR else f"point {point}"


def _diagnose(
    position: Position, dice: tuple[int, int], made: _Made, options: tuple[LegalPlay, ...]
) -> tuple[str, Decision]:
    """The first thing wrong with an illegal play, in words, and the rule it breaks."""
    roll = f"{dice[0]}-{dice[1]}"
    if options[0].dice_used == 0:
        if position.mover[BAR]:
            return f"the checker on the bar cannot enter with {roll}", RULE_DICE
        return f"no checker can be played with {roll}", RULE_DICE
    for check in (_check_bar, _check_landing, _check_bear_off):
        found = check(position, made.order)
        if found:
            return found
    return _check_dice(position, dice, made, options)


def _walk(position: Position, order: list[Move]) -> list[tuple[Move, list[int], list[int]]]:
    """Each move with the board (mover, opponent) just before it."""
    me, opp = list(position.mover), list(position.opponent)
    states = []
    for move in order:
        states.append((move, me.copy(), opp.copy()))
        me[move.source] -= 1
        me[move.destination] += 1
        if move.destination and opp[25 - move.destination] == 1:
            opp[25 - move.destination] = 0
            opp[BAR] += 1
    return states


def _check_bar(position: Position, order: list[Move]) -> tuple[str, Decision] | None:
    for move, me, _ in _walk(position, order):
        if me[BAR] and move.source != BAR:
            return f"a checker is still on the bar when {move} is played", RULE_DICE
    return None


def _check_landing(position: Position, order: list[Move]) -> tuple[str, Decision] | None:
    for move, _, opp in _walk(position, order):
        if move.destination and opp[25 - move.destination] >= 2:
            return f"{move} lands on {move.destination}, held by the opponent", RULE_DICE
    return None


def _check_bear_off(position: Position, order: list[Move]) -> tuple[str, Decision] | None:
    for move, me, _ in _walk(position, order):
        if move.destination == 0 and any(me[7:]):
            outside = max(p for p in range(7, 26) if me[p])
            return (
                f"{move} bears off with a checker outside the home board (on {_name(outside)})",
                RULE_UNRELATED,
            )
    return None


def _check_dice(
    position: Position, dice: tuple[int, int], made: _Made, options: tuple[LegalPlay, ...]
) -> tuple[str, Decision]:
    """Whether the moves fit the roll, and if they do, whether they use enough of it."""
    from bgledger.rules._fit import fit_dice

    roll = f"{dice[0]}-{dice[1]}"
    dice_list = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    fitted = fit_dice(position, made.order, dice_list, roll)
    if isinstance(fitted, str):
        return fitted, RULE_DICE
    needed = options[0].dice_used
    example = _example(options, made.order)
    if fitted < needed:
        if dice[0] != dice[1] and needed == 2:
            return f"does not use both dice: {example} was possible", RULE_DICE
        return f"plays {fitted} of the {needed} dice that can be played: {example} was possible", (
            RULE_DICE
        )
    if dice[0] != dice[1] and needed == 1:
        return f"must play the larger die, {max(dice)}: {example} was possible", RULE_DICE
    return f"no legal play of {roll} leads to this position: {example} was possible", RULE_DICE


def _example(options: tuple[LegalPlay, ...], order: list[Move]) -> str:
    """The legal play that shares the most with what was played."""
    wanted = {(m.source, m.destination) for m in order}

    def overlap(lp: LegalPlay) -> int:
        return len(wanted & set(lp.steps)) + len(
            wanted & {(m.source, m.destination) for m in lp.play.moves}
        )

    return str(max(options, key=overlap).play)
