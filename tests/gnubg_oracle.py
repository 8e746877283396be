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
  shares no code with ``bgledger.rules``.
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

GNU Backgammon as an oracle for ``.mat`` files (``tests/test_mat_writer.py``,
and the corpus readings of ``expected-gnubg.jsonl``): :func:`gnubg_matches`
imports files with Debian's ``gnubg`` (``import mat``) and returns
``gnubg.match()`` for each, optionally with gnubg's own ``export match mat``
of it; :func:`gnubg_read_mats` summarises that in the shape of
``expected-gnubg.jsonl``'s lines (it reproduces all 313 of them);
:func:`expected_gnubg_games` says what gnubg should read for an event stream
and :func:`gnubg_game_terms` puts gnubg's reading in the same terms.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import gnubg

from bgledger.events import (
    CheckersPlayed,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    GameStarted,
    GameWon,
    MatchEvent,
    ResignationAccepted,
    RollVoided,
)
from bgledger.projections.state.fold import MatchState, Phase, apply, seat
from bgledger.rules.legal import legal_plays
from bgledger.rules.notation import Move, Play
from bgledger.rules.position import Position

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
    flat = tuple(map(int, raw))
    odd = len(flat) % 2 == 1
    steps = tuple(zip(flat[0 : len(flat) - odd : 2], flat[1::2], strict=True))
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


def start_gnubg(
    program: str, script: Path, home: Path, env: Mapping[str, str]
) -> subprocess.Popen[bytes]:
    """Start ``gnubg -t -q -r -p SCRIPT`` with its own ``home`` and ``env`` added.

    Each process gets its own home: gnubg creates ``~/.gnubg`` on its first run,
    and parallel first runs race to create it ("/root/.gnubg: File exists").
    """
    home.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        [program, "-t", "-q", "-r", "-p", str(script)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=dict(os.environ, HOME=str(home), **env),
        cwd=home,
    )


def debian_hints(
    queries: Sequence[tuple[str, int, int]], processes: int = 4, timeout: float = 600
) -> list[list[str]]:
    """gnubg's ``hint`` move strings (0 plies, every move) for ``(position id, d1, d2)``.

    Runs Debian's ``gnubg -t -q -r -p SCRIPT`` in ``processes`` parallel
    batches (each ``hint`` waits about 10 ms in a sleep, not on the CPU).  An
    empty list is gnubg's answer for a roll that cannot be played.  Each list
    is in gnubg's ranking, best first by its 0-ply equity: moves that tie or
    nearly tie come in an order that varies between machines and settings, so
    compare the moves, never their order.

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
            proc = start_gnubg(
                program,
                script,
                folder / f"home{index}",
                {"BGLEDGER_ORACLE_IN": str(inp), "BGLEDGER_ORACLE_OUT": str(out)},
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


# -- .mat files as Debian's gnubg imports them ------------------------------------------

_IMPORT_SCRIPT = r"""
import ctypes, json, os
import gnubg
libc = ctypes.CDLL(None)
BOARD_ART = (" +", " |", "^|", "v|")
for setting in ("set sound enable off", "set display off"):
    gnubg.command(setting)
def plain(value):
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value
with open(os.environ["BGLEDGER_ORACLE_IN"]) as source:
    paths = json.load(source)
readings = []
log = os.environ["BGLEDGER_ORACLE_LOG"]
saved = os.dup(1), os.dup(2)
for path in paths:
    libc.fflush(None)
    sink = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    match = exported = None
    if os.path.isfile(path):
        gnubg.command(("load match %s" if path.endswith(".sgf") else "import mat %s") % path)
        match = gnubg.match()
        if match is not None and os.environ.get("BGLEDGER_ORACLE_EXPORT"):
            target = os.path.join(os.environ["BGLEDGER_ORACLE_EXPORT"], "%d.mat" % len(readings))
            gnubg.command("export match mat %s" % target)
            if os.path.isfile(target):
                with open(target, errors="replace") as written:
                    exported = written.read()
    libc.fflush(None)
    os.dup2(saved[0], 1)
    os.dup2(saved[1], 2)
    os.close(sink)
    with open(log, errors="replace") as said:
        messages = [
            line for line in said.read().splitlines()
            if line.strip() and line[:2] not in BOARD_ART and "ition ID" not in line
            and "Match ID" not in line
        ]
    readings.append({"match": plain(match), "messages": messages, "exported": exported})
with open(os.environ["BGLEDGER_ORACLE_OUT"], "w") as out:
    json.dump(readings, out)
"""


def gnubg_matches(
    paths: Sequence[str | Path], timeout: float = 600, *, export: bool = False
) -> list[dict[str, Any]]:
    """What Debian's gnubg reads from each ``.mat`` file: ``import mat``, then ``gnubg.match()``.

    A file named ``*.sgf`` is loaded (``load match``), as gnubg saves matches.

    One ``gnubg -t -q -r -p`` process imports every file in turn.  Each
    reading is ``{"match": ..., "messages": [...], "exported": ...}``:
    ``match`` is ``gnubg.match()`` with tuples made lists (``None`` if gnubg
    could not read the file or it does not exist); ``exported`` is the text
    of gnubg's own ``export match mat`` of what it read when ``export`` is
    set (else ``None``); ``messages`` the lines gnubg printed
    while importing it (its warnings: ``Unrecognised move ...``), the board it
    draws left out.

    ``match["match-info"]`` has ``X`` and ``O`` (``{"name": ...}``; ``X`` is
    player 0, the left column), ``match-length``, ``event``, ``round``,
    ``date`` ``[day, month, year]`` and ``rules``; each of ``match["games"]``
    has ``info`` (``score-X``, ``score-O``, ``winner`` ``X``/``O``/None,
    ``points-won``, ``resigned``, ``crawford`` from the Crawford game on) and
    ``game``: actions with ``action`` (``move``, ``double``, ``take``,
    ``drop``, ``resign``, ``set`` for dice rolled and not played),
    ``player`` (``X``/``O``), and as they apply ``dice``, ``move`` (steps
    ``[from, to]``, 25 the bar, 0 off), ``board`` (the Position ID before
    the action, its player on roll) and ``points`` (a resignation's level).

    :raises RuntimeError: if the program is missing or fails.
    """
    program = debian_gnubg()
    if program is None:
        raise RuntimeError("Debian's gnubg is not installed (apt-get install gnubg)")
    if not paths:
        return []
    with tempfile.TemporaryDirectory(prefix="gnubg-mat-") as tmp:
        folder = Path(tmp)
        script, inp, out = folder / "read.py", folder / "in.json", folder / "out.json"
        script.write_text(_IMPORT_SCRIPT)
        inp.write_text(json.dumps([str(Path(p).resolve()) for p in paths]))
        env = {
            "BGLEDGER_ORACLE_IN": str(inp),
            "BGLEDGER_ORACLE_OUT": str(out),
            "BGLEDGER_ORACLE_LOG": str(folder / "said.txt"),
            "BGLEDGER_ORACLE_EXPORT": str(folder) if export else "",
        }
        proc = start_gnubg(program, script, folder / "home", env)
        _, err = proc.communicate(timeout=timeout)
        done = subprocess.CompletedProcess(proc.args, proc.returncode, None, err)
        if done.returncode != 0 or not out.exists():
            tail = done.stderr.decode(errors="replace")[-2000:]
            raise RuntimeError(f"{program} failed ({done.returncode}): {tail}")
        readings: list[dict[str, Any]] = json.loads(out.read_text())
        return readings


def summarise_gnubg_match(match: dict[str, Any] | None, file: str) -> dict[str, Any]:
    """A reading of :func:`gnubg_matches` in the shape of ``expected-gnubg.jsonl``'s lines.

    ``{"file", "length", "X", "O", "games": [{"score", "winner", "points",
    "crawford", "resigned", "actions", "moves", "doubles"}], "final"}``:
    ``actions`` counts every action of the game, ``moves`` its rolls that were
    played (dances included), ``doubles`` its doubles; ``final`` is the score
    after the last game.  A file gnubg could not read gives ``games: None``.
    """
    if match is None:
        return {"file": file, "length": None, "X": None, "O": None, "games": None, "final": None}
    info = match["match-info"]
    games: list[dict[str, Any]] = []
    score = [0, 0]
    for game in match["games"]:
        about, actions = game["info"], game["game"]
        score = [about["score-X"], about["score-O"]]
        games.append(
            {
                "score": score,
                "winner": about.get("winner"),
                "points": about.get("points-won", 0),
                "crawford": bool(about.get("crawford", False)),
                "resigned": bool(about.get("resigned", False)),
                "actions": len(actions),
                "moves": sum(action["action"] == "move" for action in actions),
                "doubles": sum(action["action"] == "double" for action in actions),
            }
        )
    final = list(score)
    if games and games[-1]["winner"] in ("X", "O"):
        final[0 if games[-1]["winner"] == "X" else 1] += games[-1]["points"]
    return {
        "file": file,
        "length": info["match-length"],
        "X": info["X"]["name"],
        "O": info["O"]["name"],
        "games": games,
        "final": final,
    }


def gnubg_read_mats(paths: Sequence[str | Path], timeout: float = 600) -> list[dict[str, Any]]:
    """gnubg's reading of each ``.mat`` file, shaped as ``expected-gnubg.jsonl``'s lines.

    ``file`` is the path as given.  One gnubg process reads them all (about
    300 corpus files a second); see :func:`summarise_gnubg_match`.

    :raises RuntimeError: if the program is missing or fails.
    """
    readings = gnubg_matches(paths, timeout)
    return [
        summarise_gnubg_match(reading["match"], str(path))
        for path, reading in zip(paths, readings, strict=True)
    ]


# -- an event stream in the terms of gnubg's reading ------------------------------------


def expected_gnubg_games(events: list[MatchEvent]) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """Each game of an event stream as gnubg's ``match()`` should read it from its ``.mat``.

    ``(info, actions)`` a game: ``info`` has ``score-X``, ``score-O``,
    ``winner`` (``X`` is player ``a``; None for an unfinished game) and, for a
    finished one, ``points`` and ``resigned``; the actions are ``("move",
    player, dice, board before, Play)``, ``("double"|"take"|"drop", player)``,
    ``("set", player, dice)`` (rolled, then conceded, or the record stops
    there) and ``("resign", player,
    level)``.  A voided roll, a refused concession and a tied opening roll are
    not there; compare with :func:`gnubg_game_terms`.  An illegal play is
    there, but gnubg refuses it (``Invalid move``), leaves the board and
    passes the turn, as it does with an ``UnplayablePlayRecorded`` (left out
    here): compare streams without either, or only up to them.
    """
    name = {"a": "X", "b": "O"}
    info: dict[str, Any] = {}
    actions: list[Any] = []
    state: MatchState | None = None
    for index, event in enumerate(events):
        before, state = state, apply(state, event)
        voided_next = index + 1 < len(events) and isinstance(events[index + 1], RollVoided)
        if isinstance(event, GameStarted):
            if info:
                yield info, actions
            info = {"score-X": state.score[0], "score-O": state.score[1], "winner": None}
            actions = []
        elif isinstance(event, CheckersPlayed) and not voided_next and before is not None:
            mover = seat(event.player)
            board = Position.trusted(before.board[mover], before.board[1 - mover]).position_id
            dice = list(before.dice or ())
            actions.append(("move", name[event.player], dice, board, Play.parse(event.play)))
            if before.premature and state.phase is Phase.DOUBLED and state.turn:  # USBGF 4.4.7
                actions.append(("double", name[state.turn]))  # the early double, now in force
        elif isinstance(event, CubeOffered | CubeTaken | CubeDropped):
            kind = {CubeOffered: "double", CubeTaken: "take", CubeDropped: "drop"}[type(event)]
            actions.append((kind, name[event.player]))
        elif isinstance(event, ResignationAccepted) and before and before.resignation:
            offer = before.resignation
            if offer.resume is Phase.PLAY and before.turn and before.dice:
                actions.append(("set", name[before.turn], list(before.dice)))
            level = {"single": 1, "gammon": 2, "backgammon": 3}[offer.level]
            actions.append(("resign", name[offer.player], level))
        elif isinstance(event, GameWon):
            info.update(winner=name[event.winner], points=event.points)
            info["resigned"] = event.how == "resign"
    if state is not None and state.in_game and state.turn and state.dice:  # stopped: rolled
        actions.append(("set", name[state.turn], list(state.dice)))
    if info:
        yield info, actions


def gnubg_game_terms(game: dict[str, Any], plays: list[Play]) -> tuple[dict[str, Any], list[Any]]:
    """A game as gnubg read it (from :func:`gnubg_matches`), as :func:`expected_gnubg_games` says.

    gnubg gives a move's steps, not its hits: the recorded play's hits are
    lent to it (the board before every move is compared, so a hit that did
    not happen would show on the next one).
    """
    about = game["info"]
    info = {key: about.get(key) for key in ("score-X", "score-O", "winner")}
    if about.get("winner"):
        info.update(points=about["points-won"], resigned=about["resigned"])
    actions: list[Any] = []
    hits = iter(plays)
    for action in game["game"]:
        kind, player = action["action"], action["player"]
        if kind == "move":
            recorded = next(hits, Play())
            moves = tuple(Move(a, b) for a, b in action["move"])
            play = Play(moves, recorded.hits)
            actions.append(("move", player, action["dice"], action["board"], play))
        elif kind == "set":
            actions.append(("set", player, action["dice"]))
        elif kind == "resign":
            actions.append(("resign", player, action["points"]))
        else:
            actions.append((kind, player))
    return info, actions
