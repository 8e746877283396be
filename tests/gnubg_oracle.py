"""GNU Backgammon as a test oracle for legal-play generation.

Three things live here, shared by ``tests/test_legal_gnubg.py`` and
``bench/bench_legal.py``:

* :func:`random_game_samples`: ``(position, dice)`` pairs from seeded random
  legal games.  Our engine picks the play, uniformly among the distinct
  results sorted by Position ID, so the sample depends only on the *set* of
  results at each step (the very thing the differential test checks), not on
  the order the generator happens to list them in.
* The PyPI binding (``import gnubg``): :func:`gnubg_moves` calls
  ``find_best_moves`` at 0 plies and decodes its move tuples, applying them
  with :func:`apply_steps`, a deliberately separate, minimal applier that
  shares no code with ``ledger.rules``.
* Debian's ``gnubg`` program (``apt-get install gnubg``, 1.07.001), when
  installed: :func:`debian_hints` runs its ``hint`` command at 0 plies in
  batch (``gnubg -t -q -r -p SCRIPT``; ``set board``, ``set dice``,
  ``gnubg.hint(n)``) and returns gnubg's own move strings, which
  :func:`parse_gnubg_move` reads.  Its embedded module has no
  ``findbestmoves``; the PyPI module's ``hint`` hangs (it starts a game).

What the PyPI binding gets wrong (gnubg 1.1.0a16): ``find_best_moves`` cuts
a move tuple at its first bear-off.  gnubg marks "off" internally as ``-1``,
which is also its end-of-move marker, so ``8/3 2/off`` comes back as
``(8, 3, 2)`` and ``7/6 2/off 2/1`` as ``(7, 6, 2)``: the destination of the
first bear-off and every step after it are lost.  No tuple it returns ever
contains ``0``.  :attr:`GnubgMove.truncated` flags such tuples (odd length, or
steps the dice cannot explain); Debian's ``hint`` prints the full move.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import gnubg

from ledger.rules.legal import legal_plays
from ledger.rules.position import Position

BAR = 25
OFF = 0

Board = tuple[tuple[int, ...], tuple[int, ...]]
"""gnubg's board: ``(opponent, player on roll)``, 25 counts each, index 24 the bar."""
Step = tuple[int, int]
"""One checker step ``(from, to)``, 1-based, 25 the bar, 0 off."""

CUBEINFO: Any = gnubg.cubeinfo()
EVALCONTEXT_0PLY: Any = gnubg.evalcontext(0, 0)


# -- the sample -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sample:
    """A position with the player on roll about to play ``dice``."""

    position: Position
    dice: tuple[int, int]


def random_game_samples(minimum: int, seed: int) -> list[Sample]:
    """Whole random legal games, ``(position, dice)`` for every turn, until ``minimum`` are had.

    Each turn rolls two dice (an opening double included) and plays one of the
    legal results chosen uniformly; a game ends when the player who moved has
    borne off all fifteen checkers.
    """
    rng = random.Random(seed)
    samples: list[Sample] = []
    while len(samples) < minimum:
        position = Position.start()
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            samples.append(Sample(position, dice))
            results = sorted(
                (play.result for play in legal_plays(position, dice)),
                key=lambda result: result.position_id,
            )
            position = rng.choice(results)
            if sum(position.opponent[1:]) == 0:
                break
    return samples


# -- an independent applier ------------------------------------------------------


def apply_steps(board: Board, steps: Iterable[Step]) -> tuple[list[int], list[int]]:
    """Play ``steps`` for the player on roll; ``(mover, opponent)`` as 25-count lists.

    Indices are gnubg's (point ``p`` at ``p - 1``, the bar at 24), each side in
    its own numbering.  A step landing on a lone opposing checker sends it to
    the bar.  Steps that no board allows (no checker at the source, a point
    held by two or more opponents) raise :class:`ValueError`: that would be an
    oracle error, never a verdict on the engine.
    """
    opp, me = list(board[0]), list(board[1])
    for src, dst in steps:
        if not 1 <= src <= BAR or not OFF <= dst < src:
            raise ValueError(f"step {src}/{dst} is not a forward move on the board")
        if me[src - 1] == 0:
            raise ValueError(f"step {src}/{dst}: no checker on {src} in {board!r}")
        me[src - 1] -= 1
        if dst == OFF:
            continue
        there = 24 - dst  # the opponent's index of our point ``dst``
        if opp[there] >= 2:
            raise ValueError(f"step {src}/{dst}: point {dst} is held in {board!r}")
        if opp[there] == 1:
            opp[there] = 0
            opp[24] += 1
        me[dst - 1] += 1
    return me, opp


def result_id(board: Board, steps: Iterable[Step]) -> str:
    """gnubg's Position ID after ``steps``, the opponent on roll (gnubg's own encoder)."""
    me, opp = apply_steps(board, steps)
    return str(gnubg.position_id((tuple(me), tuple(opp))))


def swapped_id(board: Board) -> str:
    """gnubg's Position ID of ``board`` with the other player on roll (after a dance)."""
    return str(gnubg.position_id((board[1], board[0])))


def hits_in(board: Board, steps: Iterable[Step]) -> bool:
    """True if playing ``steps`` hits an opposing blot."""
    _, opp = apply_steps(board, steps)
    return opp[24] > board[0][24]


# -- the PyPI binding ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GnubgMove:
    """One entry of ``find_best_moves``, decoded.

    ``steps`` are the complete ``(from, to)`` pairs of the tuple.  When
    ``truncated`` they are only a prefix, and ``off_from`` (if not ``None``) is
    the source of the bear-off at which the binding cut the tuple.
    """

    raw: tuple[int, ...]
    steps: tuple[Step, ...]
    truncated: bool
    off_from: int | None
    score: float

    @property
    def known_steps(self) -> tuple[Step, ...]:
        """The steps known to be part of the move, the cut bear-off included."""
        if self.off_from is None:
            return self.steps
        return (*self.steps, (self.off_from, OFF))


def _explained_by_dice(steps: Sequence[Step], dice: tuple[int, int]) -> bool:
    """True if each step is one die's move and the steps fit in the roll."""
    doubles = dice[0] == dice[1]
    left = [dice[0]] * 4 if doubles else list(dice)
    if len(steps) > len(left):
        return False
    for src, dst in steps:
        distance = src - dst
        if distance in left:
            left.remove(distance)
        elif dst == OFF and any(die > distance for die in left):
            left.remove(min(die for die in left if die > distance))
        else:
            return False
    return True


def decode_move(raw: Sequence[int], dice: tuple[int, int], score: float) -> GnubgMove:
    """Decode one move tuple of ``find_best_moves``, detecting truncation."""
    flat = tuple(int(x) for x in raw)
    steps = tuple((flat[i], flat[i + 1]) for i in range(0, len(flat) - 1, 2))
    odd = len(flat) % 2 == 1
    off_from = flat[-1] if odd else None
    truncated = odd or not _explained_by_dice(steps, dice)
    return GnubgMove(flat, steps, truncated, off_from, score)


def gnubg_moves(board: Board, dice: tuple[int, int]) -> list[GnubgMove]:
    """Every move gnubg's PyPI binding lists for ``dice`` (0 plies), decoded."""
    found = gnubg.find_best_moves(board, CUBEINFO, EVALCONTEXT_0PLY, dice)
    return [decode_move(entry["move"], dice, float(entry["score"])) for entry in found]


def equity_after(result_board: Board) -> float:
    """gnubg's 0-ply cubeless equity of a result, for the player who just moved.

    ``result_board`` has the opponent on roll, so this is minus the equity of
    the player on roll: what ``find_best_moves`` reports as a move's score.
    """
    return -float(gnubg.evaluate(result_board, CUBEINFO, EVALCONTEXT_0PLY)[5])


def is_contact(board: Board) -> bool:
    """True if some checker of one side still has to pass one of the other."""
    back = [max((i + 1 for i in range(25) if side[i]), default=0) for side in board]
    return back[0] + back[1] > 25


def may_follow(prefix_board: tuple[list[int], list[int]], result_board: Board) -> bool:
    """True if ``result_board`` could follow the partly played ``prefix_board``.

    ``prefix_board`` is ``(mover, opponent)`` after the known steps;
    ``result_board`` gnubg's board of a finished result (opponent on roll, so
    its second row is the opponent's).  Checkers only move down, so for every
    point the mover cannot have more checkers at or above it afterwards; the
    opponent can only lose checkers from points to the bar.  A necessary
    condition, not a move generator.
    """
    me, opp = prefix_board
    after_me, after_opp = result_board
    above = after_above = 0
    for index in range(24, -1, -1):
        above += me[index]
        after_above += after_me[index]
        if after_above > above:
            return False
    if after_opp[24] < opp[24]:
        return False
    return all(after_opp[i] <= opp[i] for i in range(24))


# -- gnubg move strings (Debian's ``hint``) --------------------------------------------


def parse_gnubg_move(text: str) -> list[tuple[int, int, bool]]:
    """Read a move string printed by gnubg (``bar/20* 13/8*/5 6/off(2)``).

    Returns ``(from, to, hit)`` segments, repeated as ``(n)`` says.  A segment
    ``a/b`` may span several dice; only its end points and the hit mark at
    ``b`` matter for the resulting position.
    """
    segments: list[tuple[int, int, bool]] = []
    for token in text.split():
        count = 1
        if token.endswith(")"):
            token, _, times = token[:-1].partition("(")
            count = int(times)
        points: list[tuple[int, bool]] = []
        for part in token.split("/"):
            hit = part.endswith("*")
            word = part.rstrip("*").lower()
            point = BAR if word == "bar" else OFF if word == "off" else int(word)
            points.append((point, hit))
        chain = [(a, b, hit) for (a, _), (b, hit) in pairwise(points)]
        segments.extend(chain * count)
    return segments


def result_id_of_string(board: Board, text: str) -> str:
    """gnubg's Position ID after the move string ``text``, the opponent on roll."""
    segments = parse_gnubg_move(text)
    me, opp = apply_steps(board, [(a, b) for a, b, _ in segments])
    hit_points = {b for _, b, hit in segments if hit}  # '4/2*(2)' hits once
    if opp[24] - board[0][24] != len(hit_points):
        raise ValueError(f"{text!r} on {board!r}: the hit marks do not match the board")
    return str(gnubg.position_id((tuple(me), tuple(opp))))


_DEBIAN_SCRIPT = r"""
import json, os, sys
import gnubg
for setting in ("set player 0 human", "set player 1 human", "set sound enable off",
                "set threads 1", "set display off",
                "set evaluation chequerplay evaluation plies 0", "new game"):
    gnubg.command(setting)
with open(os.environ["BGLEDGER_ORACLE_IN"]) as source:
    queries = json.load(source)
answers = []
for position_id, d1, d2 in queries:
    gnubg.command("set board %s" % position_id)
    gnubg.command("set dice %d %d" % (d1, d2))
    hint = gnubg.hint(100000)
    moves = [entry["move"] for entry in hint["hint"]] if hint else []
    answers.append({"board": gnubg.positionid(gnubg.board()), "moves": moves})
with open(os.environ["BGLEDGER_ORACLE_OUT"], "w") as sink:
    json.dump(answers, sink)
"""


def debian_gnubg() -> str | None:
    """Path of Debian's ``gnubg`` program, or ``None`` if it is not installed.

    ``BGLEDGER_DEBIAN_GNUBG`` overrides the search: a path, or ``none`` to act
    as if the program were missing.
    """
    chosen = os.environ.get("BGLEDGER_DEBIAN_GNUBG")
    if chosen:
        return None if chosen.lower() == "none" else chosen
    return shutil.which("gnubg") or (
        "/usr/games/gnubg" if os.access("/usr/games/gnubg", os.X_OK) else None
    )


def debian_hints(
    queries: Sequence[tuple[str, int, int]], processes: int = 4, timeout: float = 600
) -> list[list[str]]:
    """gnubg's ``hint`` move strings (0 plies, every move) for ``(position id, d1, d2)``.

    Runs Debian's ``gnubg -t -q -r -p SCRIPT`` in ``processes`` parallel
    batches (each ``hint`` waits about 10 ms in a sleep, not on the CPU).  An
    empty list is gnubg's answer for a roll that cannot be played.

    :raises RuntimeError: if the program is missing, fails, or answers for
        another position than asked.
    """
    program = debian_gnubg()
    if program is None:
        raise RuntimeError("Debian's gnubg is not installed (apt-get install gnubg)")
    if not queries:
        return []
    chunks = [list(queries[i::processes]) for i in range(processes)]
    with tempfile.TemporaryDirectory(prefix="gnubg-oracle-") as tmp:
        folder = Path(tmp)
        script = folder / "hint.py"
        script.write_text(_DEBIAN_SCRIPT)
        running = []
        for index, chunk in enumerate(chunks):
            inp, out = folder / f"in{index}.json", folder / f"out{index}.json"
            inp.write_text(json.dumps(chunk))
            # Each process its own home: gnubg creates ~/.gnubg on its first run, and
            # parallel first runs race to create it ("/root/.gnubg: File exists").
            home = folder / f"home{index}"
            home.mkdir()
            env = dict(
                os.environ,
                HOME=str(home),
                BGLEDGER_ORACLE_IN=str(inp),
                BGLEDGER_ORACLE_OUT=str(out),
            )
            proc = subprocess.Popen(
                [program, "-t", "-q", "-r", "-p", str(script)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                env=env,
                cwd=tmp,
            )
            running.append((proc, out, chunk))
        answers: list[list[str]] = [[] for _ in queries]
        for index, (proc, out, chunk) in enumerate(running):
            _, err = proc.communicate(timeout=timeout)
            if proc.returncode != 0 or not out.exists():
                raise RuntimeError(f"{program} failed ({proc.returncode}): {err.decode()[-2000:]}")
            for offset, (query, answer) in enumerate(
                zip(chunk, json.loads(out.read_text()), strict=True)
            ):
                if answer["board"] != query[0]:
                    raise RuntimeError(f"gnubg set up {answer['board']} for {query[0]}")
                answers[index + offset * processes] = list(answer["moves"])
        return answers
