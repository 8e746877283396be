"""Benchmark: legal-play generation against GNU Backgammon, measured in the same run.

    python bench/bench_legal.py [--source corpus|random] [--repeat N] [--limit N] [--profile]

Builds a list of ``(position, dice)`` pairs, either every roll of every game
of the real match corpus (``../shared/fixtures/matches/*/*.mat``, the board
before the play) or the positions of the seeded random games of
``tests/test_legal_gnubg.py``.  Then it times ``bgledger.rules.legal.legal_plays``
and gnubg's Python binding (``find_best_moves`` at 0 plies, which generates
every legal move and scores each with gnubg's neural net) over the identical
list, ``--repeat`` rounds, and prints positions/second for both (best round),
the ratio ours/gnubg (time per position; target: at most 1) overall and split
by doubles and non-doubles.  gnubg caches its evaluations, so it is timed
twice a round: from an emptied cache (the ratio the target applies to; a
ledger sees each position once) and again on the same list with the cache
warm.  ``--profile`` adds where our time goes (cProfile); ``--check`` exits 1
if the ratio misses the target; ``--before`` also times the generator before issue 34
(the oracle of ``tests/test_legal_oracle.py``) in the same rounds.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import gnubg  # noqa: E402

from bgledger.rules.legal import legal_plays  # noqa: E402
from bgledger.rules.position import Position  # noqa: E402

CORPUS = REPO.parent / "shared" / "fixtures" / "matches"
TARGET_RATIO = 1.0
RANDOM_SEED = 20_250_611
RANDOM_SAMPLES = 20_000
GNUBG_CACHE = 1 << 19
"""Entries of gnubg's evaluation cache after a flush."""


@dataclass(frozen=True, slots=True)
class Case:
    """One timed input, in both engines' forms."""

    position: Position
    board: tuple[tuple[int, ...], tuple[int, ...]]
    dice: tuple[int, int]

    @property
    def doubles(self) -> bool:
        """True for a double roll."""
        return self.dice[0] == self.dice[1]


def _case(position: Position, dice: tuple[int, int]) -> Case:
    return Case(position, position.to_gnubg_board(), dice)


# -- the position lists ---------------------------------------------------------------


def corpus_cases(folder: Path) -> tuple[list[Case], str]:
    """Every roll of every game in ``folder/*/*.mat``: the board before the play and the dice.

    Games are replayed through the judge directly (:func:`_replay`), up to
    a play the board cannot show.  Rolls without a recorded play and
    impossible boards (after an illegal play) are left out.

    :raises ImportError: if ``bgledger.interchange.mat`` is not there yet.
    """
    from bgledger.interchange.mat import read_mat_file

    files = sorted(folder.glob("*/*.mat"))
    cases: list[Case] = []
    skipped = 0
    for path in files:
        for match in read_mat_file(path).matches:
            for game in match.games:
                for position, dice in _replay(game):
                    if position.problems():
                        skipped += 1
                    else:
                        cases.append(_case(position, dice))
    note = f"{len(files)} .mat files under {folder}, {skipped} impossible boards left out"
    return cases, note


@dataclass(slots=True)
class DoublesJudged:
    """How the judge decided the doubles of the corpus while the position list was built."""

    plain: int = 0
    """Doubles whose four steps were each legal in turn: no search (``plain_double``)."""
    searched: int = 0
    """Doubles the short way could not take: the search toward the checkers was asked."""
    every_play: int = 0
    """Doubles that needed every legal play (the search found no play of four steps)."""

    def line(self) -> str:
        """One line for the report."""
        total = self.plain + self.searched
        share = 100 * self.searched / total if total else 0.0
        return (
            f"the judge on the corpus's {total} doubles: {self.plain} plainly legal without a "
            f"search, {self.searched} ({share:.2f}%) to the search, {self.every_play} of them "
            "then to every legal play"
        )


@contextmanager
def counting_doubles(counts: DoublesJudged) -> Iterator[None]:
    """Count, in ``counts``, how the judge decides each double while the block runs."""
    from bgledger.rules import judge as judge_module
    from bgledger.rules import legal

    plain, every = legal.plain_double, judge_module.legal_plays

    def counted_plain(position: Position, die: int, after: Any) -> Any:
        found = plain(position, die, after)
        if found is None:
            counts.searched += 1
        else:
            counts.plain += 1
        return found

    def counted_every(position: Position, dice: Any) -> Any:
        if dice[0] == dice[1]:
            counts.every_play += 1
        return every(position, dice)

    legal.plain_double = counted_plain  # type: ignore[assignment]
    judge_module.legal_plays = counted_every  # type: ignore[assignment]
    try:
        yield
    finally:
        legal.plain_double, judge_module.legal_plays = plain, every


def _replay(game: Any) -> Iterator[tuple[Position, tuple[int, int]]]:
    """Judge each written play and move the board on; stop at the first error."""
    from bgledger.rules.errors import BgLedgerError
    from bgledger.rules.judge import judge
    from bgledger.rules.notation import Play

    start = Position.start()
    sides = [start.mover, start.opponent]
    for action in game.actions:
        if action.kind != "roll" or action.dice is None or action.play is None:
            continue
        mover = action.column
        position = Position(sides[mover], sides[1 - mover])
        try:
            verdict = judge(position, action.dice, Play.parse(action.play))
        except (BgLedgerError, ValueError):
            return
        yield position, action.dice
        sides[1 - mover], sides[mover] = verdict.result.mover, verdict.result.opponent


def random_cases(minimum: int, seed: int) -> tuple[list[Case], str]:
    """The seeded random games of the differential test (``tests/gnubg_oracle.py``)."""
    from tests.gnubg_oracle import random_game_samples

    samples = random_game_samples(minimum, seed)
    return [_case(s.position, s.dice) for s in samples], f"random games, seed {seed}"


# -- timing -------------------------------------------------------------------------------


def run_ours(cases: Sequence[Case]) -> None:
    """Generate the legal plays of every case with our engine."""
    for case in cases:
        legal_plays(case.position, case.dice)


def run_before(cases: Sequence[Case]) -> None:
    """The generator before issue 34 (``tests/test_legal_oracle.py``'s oracle) on every case."""
    from tests.test_legal_oracle import oracle_plays

    for case in cases:
        oracle_plays(case.position, case.dice)


def run_gnubg(cases: Sequence[Case]) -> None:
    """Generate (and 0-ply score) the legal moves of every case with gnubg."""
    cubeinfo, context = gnubg.cubeinfo(), gnubg.evalcontext(0, 0)
    find = gnubg.find_best_moves
    for case in cases:
        find(case.board, cubeinfo, context, case.dice)


def best_seconds(
    run: Callable[[Sequence[Case]], None],
    cases: Sequence[Case],
    repeat: int,
    before: Callable[[], None] | None = None,
) -> list[float]:
    """CPU seconds of this process for ``repeat`` runs over ``cases``, calling ``before``
    (untimed) first.  Both engines run in this process (gnubg is a C extension), and CPU time
    is what a neighbour on a shared machine changes least (wall-clock runs at a load of 10
    were off by 3x in a busy spell)."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        started = time.process_time()
        run(cases)
        times.append(time.process_time() - started)
    return times


@contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Silence file descriptor 1: gnubg's commands print from C."""
    sys.stdout.flush()
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def flush_gnubg_cache() -> None:
    """Empty gnubg's evaluation cache (by resizing it), so a run starts cold."""
    with _quiet_stdout():
        gnubg.command("set cache 0")
        gnubg.command(f"set cache {GNUBG_CACHE}")


@dataclass(frozen=True, slots=True)
class Row:
    """Timings of both engines over one subset of cases."""

    label: str
    count: int
    ours: list[float]
    cold: list[float]
    warm: list[float]
    before: list[float]

    @property
    def ratio(self) -> float:
        """Our best time over gnubg's best cold-cache time: how many times slower we are."""
        return min(self.ours) / min(self.cold)

    @property
    def warm_ratio(self) -> float:
        """Our best time over gnubg's best time with its cache warm from the previous run."""
        return min(self.ours) / min(self.warm)

    def line(self) -> str:
        """One table line: positions/s (best of the runs) and the ratios."""
        rate = [self.count / min(times) for times in (self.ours, self.cold, self.warm)]
        return (
            f"{self.label:<12} {self.count:>9} {rate[0]:>11,.0f} {rate[1]:>11,.0f} "
            f"{self.ratio:>9.2f}x {rate[2]:>12,.0f} {self.warm_ratio:>9.2f}x"
        ) + (f" {min(self.before) / min(self.cold):>11.2f}x" if self.before else "")


HEADER = (
    f"{'':<12} {'positions':>9} {'ours/s':>11} {'gnubg/s':>11} {'ours/gnubg':>10} "
    f"{'gnubg warm/s':>12} {'ours/warm':>10}"
)
BEFORE_HEADER = f" {'before/gnubg':>12}"


def measure(label: str, cases: Sequence[Case], repeat: int, before: bool = False) -> Row:
    """Time both engines over ``cases``, interleaved so that drift of the machine hits both.

    gnubg runs twice a round: once after its evaluation cache was emptied
    (``cold``, the fair figure: a ledger sees each position once) and once
    straight after, on the same list (``warm``: many evaluations come from its
    cache).  ``before``: the generator before issue 34 too, in the same rounds.
    """
    ours: list[float] = []
    cold: list[float] = []
    warm: list[float] = []
    old: list[float] = []
    for _ in range(repeat):
        ours += best_seconds(run_ours, cases, 1)
        cold += best_seconds(run_gnubg, cases, 1, before=flush_gnubg_cache)
        warm += best_seconds(run_gnubg, cases, 1)
        if before:
            old += best_seconds(run_before, cases, 1)
    return Row(label, len(cases), ours, cold, warm, old)


def profile(cases: Sequence[Case], top: int) -> str:
    """cProfile of one pass of our engine: the ``top`` functions by own time."""
    profiler = cProfile.Profile()
    profiler.runcall(run_ours, cases)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, build the position list, time both engines and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", choices=("corpus", "random"), default="corpus")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder of */*.mat files")
    parser.add_argument("--samples", type=int, default=RANDOM_SAMPLES, help="random positions")
    parser.add_argument("--seed", type=int, default=RANDOM_SEED, help="random games' seed")
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds")
    parser.add_argument("--limit", type=int, default=0, help="use only the first N positions")
    parser.add_argument("--profile", action="store_true", help="cProfile our engine")
    parser.add_argument(
        "--before",
        action="store_true",
        help="time the generator before issue 34 too (tests/test_legal_oracle.py), same rounds",
    )
    parser.add_argument(
        "--check", action="store_true", help=f"exit 1 if ours/gnubg > {TARGET_RATIO}"
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    if args.source == "corpus":
        try:
            counts = DoublesJudged()
            with counting_doubles(counts):
                cases, note = corpus_cases(args.corpus)
            note += f"\n{counts.line()}"
        except ImportError as exc:
            print(f"note: no corpus reader ({exc}); using the seeded random games instead")
            cases, note = random_cases(args.samples, args.seed)
    else:
        cases, note = random_cases(args.samples, args.seed)
    if args.limit:
        cases = cases[: args.limit]
    if not cases:
        print("no positions to time", file=sys.stderr)
        return 2
    print(f"positions: {len(cases)} from {note} (built in {time.perf_counter() - started:.1f} s)")
    print(
        f"gnubg {getattr(gnubg, '__version__', '?')} find_best_moves at 0 plies; "
        f"best of {args.repeat} rounds; python {sys.version.split()[0]}"
    )

    run_ours(cases[:500])  # warm-up: imports, caches, the net's weights
    run_gnubg(cases[:500])
    rows = [
        measure("all", cases, args.repeat, args.before),
        measure("doubles", [c for c in cases if c.doubles], args.repeat, args.before),
        measure("non-doubles", [c for c in cases if not c.doubles], args.repeat, args.before),
    ]
    print("\npositions/second, best round; ours/gnubg is the ratio of times per position")
    print(HEADER + (BEFORE_HEADER if args.before else ""))
    for row in rows:
        print(row.line())
    ratio = rows[0].ratio
    verdict = "meets" if ratio <= TARGET_RATIO else "MISSES"
    print(
        f"\nours/gnubg = {ratio:.2f}x (cold cache; {rows[0].warm_ratio:.2f}x against its warm "
        f"cache): {verdict} the target of at most {TARGET_RATIO:g}x"
    )

    if args.profile:
        print("\nwhere our time goes (one pass, cProfile, by own time):")
        print(profile(cases, 15))
    return 1 if args.check and ratio > TARGET_RATIO else 0


if __name__ == "__main__":
    sys.exit(main())
