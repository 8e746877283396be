"""Bad input, fuzzed (issue 7): every parser refuses with the project's own errors, or reads.

Each parser gets arbitrary text and *near misses*: valid inputs with a few
characters inserted, deleted or replaced and words dropped, doubled or swapped.
Anything but a :class:`~bgledger.errors.BgLedgerError` escaping fails the test
(no ``IndexError``, ``KeyError``, ``TypeError``, ``UnicodeError`` or a bare
``ValueError``).  The record language is also *applied* to live matches: a
refused line leaves the match's version and state as they were.  Parsers that
already have such tests elsewhere (``Play.parse``, position and match ids and
XGIDs on arbitrary text, ``read_mat``, ``read_json``) get only the near misses
here.  The CLI is fuzzed in ``test_fuzz_cli.py``, the real corpus mutated in
``test_fuzz_corpus.py``.

Crashes found are the ``xfail(strict=True)`` tests at the end, each with its
minimal input.
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Callable, Sequence
from functools import cache

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgledger.commands.clock import parse_clock
from bgledger.commands.decide import parse_level, stamp
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.errors import BgLedgerError
from bgledger.rules.ids import MatchId
from bgledger.rules.notation import Play
from bgledger.rules.position import Position
from bgledger.rules.profiles import PROFILES, get_profile
from bgledger.rules.results import GameResult
from bgledger.rules.xgid import decode_xgid
from tests.clocked_match import CLOCKED_LINES, T0
from tests.match_driver import next_line, play_lines

# -- near misses ------------------------------------------------------------------------------

NOISE = st.one_of(
    st.sampled_from(list("0123456789/:*=-+.@#\"' \t\nabxABoff()²١\x00é")),
    st.characters(),
)
"""What an edit puts in: the characters the grammars care about, odd digits, anything."""


@st.composite
def near_misses(draw: st.DrawFn, valid: Sequence[str]) -> str:
    """One of ``valid`` with one to three edits: a character or a word changed."""
    text = draw(st.sampled_from(valid))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "double", "drop", "swap"]))
        at = draw(st.integers(0, len(text)))
        words = text.split(" ")
        i, j = (draw(st.integers(0, len(words) - 1)) for _ in range(2))
        if op == "insert":
            text = text[:at] + draw(NOISE) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + 1 :]
        elif op == "replace":
            text = text[:at] + draw(NOISE) + text[at + 1 :]
        elif op == "double":
            text = " ".join([*words[: i + 1], words[i], *words[i + 1 :]])
        elif op == "drop":
            text = " ".join(words[:i] + words[i + 1 :])
        else:
            words[i], words[j] = words[j], words[i]
            text = " ".join(words)
    return text


def inputs(valid: Sequence[str]) -> st.SearchStrategy[str]:
    """Arbitrary text, the grammar's own characters at random, or a near miss of ``valid``."""
    alphabet = sorted(set("".join(valid)))
    return st.one_of(st.text(), st.text(alphabet=alphabet), near_misses(valid))


# -- valid inputs -----------------------------------------------------------------------------

PLAYS = ["13/8 13/11", "24/18*/14", "bar/22 6/off", "8/5(2) 6/5(2)", "25/20", "cannot move"]
POSITION_IDS = ["4HPwATDgc/ABMA", "8SzwgCjI14MBFA", "oYd4QBrIDxigZg", "/+1AAAAAAAAAAA"]
MATCH_IDS = ["MACgAAAAAAAE", "QYmuAAAAAAAE", "UgmgABAACAAE", "MAIgABAAAAAE"]
XGIDS = [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----A-:0:0:-1:00:2:1:1:5:8",
]
CLOCKS = ["9:32", "1:02:03", "0:04.5", "10:00", "0:00"]
LEVELS = ["single", "gammon", "backgammon", " Gammon "]
TIMES = ["2026-11-21T14:05:00+01:00", "2026-11-22", "2026-11-21T10:00:00Z", "2026-11-21 10:00"]
LINES = [
    "opening 3 1",
    "roll 5 2",
    "move 13/8 13/11",
    "52: 13/8 13/11",
    "66:",
    "double",
    "take",
    "drop",
    "resign gammon b",
    "accept",
    "reject",
    "void-roll cocked",
    "roll 6 5 --premature",
    "double --premature",
    "accept-roll",
    "refuse-roll",
    "move 24/18 --as-played",
    "@2026-11-21T14:05:00+01:00 roll 6 6  # a comment",
    "hit a",
    "hit",
    "clock start simple-delay reserve 10:00 delay 12",
    "clock stop dispute",
    "clock resume",
    "clock read a=9:31 b=10:16",
    'clock set a=9:00 b=9:00 rule "USBGF 3.7.2" the clock was wrong',
    "flag a",
    "early-pickup b",
    "break start both combine 2 exceptional a doctor",
    "break end late b",
    "late a",
    'penalty b 1 "USBGF 2.2.4" late from lunch',
    "clock read b=0:00 a=12:00",
    "correct-score 2-1 --reason both agree",
]


PARSERS: dict[str, tuple[Callable[[str], object], list[str], bool]] = {
    # name: (parser, valid inputs, already fuzzed on arbitrary text elsewhere)
    "Play.parse": (Play.parse, PLAYS, True),
    "Position.from_id": (Position.from_id, POSITION_IDS, True),
    "MatchId.decode": (MatchId.decode, MATCH_IDS, True),
    "decode_xgid": (decode_xgid, XGIDS, True),
    "parse_clock": (parse_clock, CLOCKS, False),
    "GameResult.parse": (GameResult.parse, LEVELS, False),
    "parse_level": (parse_level, LEVELS, False),
    "get_profile": (get_profile, list(PROFILES), False),
    "stamp": (lambda text: stamp(text, None), TIMES, False),
    "stamp after T0": (lambda text: stamp(text, T0), TIMES, False),
    "parse": (parse, LINES, False),
}

OURS: tuple[type[Exception], ...] = (BgLedgerError, click.ClickException)
"""What may escape: the library's errors; the CLI's helpers raise click's exit-2 errors."""


@pytest.mark.parametrize("name", sorted(PARSERS))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_every_parser_reads_or_raises_only_the_projects_errors(
    name: str, data: st.DataObject
) -> None:
    parse, valid, elsewhere = PARSERS[name]
    text = data.draw(near_misses(valid) if elsewhere else inputs(valid), label="text")
    with contextlib.suppress(*OURS):
        parse(text)


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_every_valid_example_reads(name: str) -> None:
    """The near misses start from inputs that do read (else they would miss nothing)."""
    parse, valid, _ = PARSERS[name]
    for text in valid:
        parse(text)


# -- the record language applied to live matches ----------------------------------------------


@cache
def _base_matches() -> dict[str, Match]:
    """A started match, matches mid-game at several phases, a clocked one, a finished one."""
    found: dict[str, Match] = {}
    found["started"] = Match.start(match_uuid("fz"), "fz", ("Ann", "Bob"), 5, by="k", at=T0)
    for seed, limit in ((1, 3), (1, 4), (7, 25), (11, 60), (3, 120)):
        match = copy.deepcopy(found["started"])
        play_lines(match, random.Random(seed), limit)
        found[f"seed {seed} after {limit}"] = match
    clocked = Match.start(
        match_uuid("fc"), "fc", ("Ann", "Bob"), 5, by="k", at=T0, clock="simple-delay"
    )
    for line in CLOCKED_LINES.strip().splitlines()[:12]:
        parse(line).run(clocked, "k")
    found["clocked"] = clocked
    over = Match.start(match_uuid("fo"), "fo", ("Ann", "Bob"), 1, by="k", at=T0)
    play_lines(over, random.Random(5), 5000)
    found["over"] = over
    return found


def _lines_for(match: Match) -> list[str]:
    """The language's examples and a few valid next lines of ``match``."""
    rng = random.Random(match.version)
    nexts = [line for line in (next_line(match.state, rng) for _ in range(4)) if line]
    return LINES + nexts


@pytest.mark.parametrize("which", ["started", "seed 7 after 25", "clocked", "all"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_line_applied_is_recorded_or_refused_leaving_the_match_as_it_was(
    which: str, data: st.DataObject
) -> None:
    bases = _base_matches()
    name = data.draw(st.sampled_from(sorted(bases)), label="match") if which == "all" else which
    match = copy.deepcopy(bases[name])
    line = data.draw(inputs(_lines_for(match)), label="line")
    version, state = match.version, match.state
    try:
        action = parse(line)
    except BgLedgerError:
        return
    try:
        action.run(match, "fuzz")
    except BgLedgerError:
        assert match.version == version, f"{line!r} was refused but the match changed"
        assert match.state == state, f"{line!r} was refused but the match changed"


# -- crashes the fuzzing found, fixed: non-ASCII digits, a naive time in year 1 ------------------


def test_crash_a_die_that_is_a_superscript_digit() -> None:
    match = copy.deepcopy(_base_matches()["started"])
    with contextlib.suppress(BgLedgerError):
        parse("opening ² 1").run(match, "fuzz")


def test_crash_a_score_that_is_a_superscript_digit() -> None:
    with contextlib.suppress(*OURS):
        parse("correct-score ²-1 --reason r")


def test_crash_a_naive_time_in_year_one() -> None:
    with contextlib.suppress(BgLedgerError):
        stamp("0001-01-01T00:00:00", None)


def test_a_refused_shorthand_leaves_a_bare_match_as_it_was() -> None:
    match = copy.deepcopy(_base_matches()["seed 1 after 4"])
    version = match.version
    with contextlib.suppress(BgLedgerError):
        parse("52: 13/x").run(match, "fuzz")
    assert match.version == version
