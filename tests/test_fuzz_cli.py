"""Every command fuzzed through click's CliRunner (issue 7, bad input).

For each command of ``bgledger`` (the groups ``clock`` and ``break`` walked
into), hypothesis builds argument lists from the command's own parameters:
match ids that exist and that do not, dice and numbers in and out of range,
choices and near misses of them, ``M:SS`` figures, ISO times, player names,
plays, position ids and random words, options in any order, sometimes a word
too many.  They run against one SQLite ledger (per module) holding a started
match, a match mid-game and a clocked one.  Every run exits 0, 1 or 2 without
a traceback; a failure says what it refused; and after every nonzero exit the
store's rows and each match's ``show --json`` are what they were before.
"""

from __future__ import annotations

import os
import random
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgledger.cli.main import main
from bgledger.commands.match import Match
from bgledger.commands.vocabulary import parse
from bgledger.store.application import MatchStore
from tests.clocked_match import CLOCKED_LINES, T0
from tests.match_driver import play_lines

IDS = ("plain", "midgame", "clocked")
NOW = "2026-11-21T12:00:00+00:00"
"""``show --now``: a running clock read at a fixed moment, so that two reads compare."""


def _leaves(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from _leaves(command, (*path, name))
        else:
            yield (*path, name)


LONG_RUNNING = {("serve",)}
"""Commands that run until stopped: with good arguments a fuzzed ``serve`` would never return
(its options and answers are tested in-process, in tests/test_web.py)."""
COMMANDS = [path for path in _leaves(main) if path not in LONG_RUNNING]


def _command(path: tuple[str, ...]) -> list[click.Command]:
    """The commands on ``path``: the groups walked into, then the command itself."""
    found: list[click.Command] = []
    here: click.Command = main
    for name in path:
        assert isinstance(here, click.Group)
        here = here.commands[name]
        found.append(here)
    return found


# -- values ------------------------------------------------------------------------------------

WORDS = st.one_of(
    st.sampled_from(["a", "b", "both", "none", "x", "-", "--", "-1", "", " ", "Ann", "Bob"]),
    st.text(max_size=12),
    st.from_regex(r"[a-z-]{1,10}", fullmatch=True),
)
NUMBERS = st.integers(-5, 70).map(str) | st.sampled_from(["0", "6", "7", "1e3", "²", "٣", "3.0"])
CLOCKS = st.from_regex(r"-?[0-9]{0,3}:[0-9]{0,3}(\.[0-9]{0,4})?", fullmatch=True) | st.sampled_from(
    ["9:32", "0:00", "10:00", "1:02:03", "a=9:31", "b=10:16", "9:60"]
)
TIMES = st.sampled_from(
    [T0, "2026-11-21T11:00:00+00:00", "2020-01-01T00:00:00Z", "2026-11-21", "now", "yesterday"]
) | st.from_regex(r"20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?", fullmatch=True)
PLAYS = st.sampled_from(["13/8 13/11", "24/18*", "bar/22", "6/off", "8/5(2) 6/5(2)", "13/x"])
POSITIONS = st.sampled_from(["4HPwATDgc/ABMA", "8SzwgCjI14MBFA", "4HPwATDgc/AB", "XGID=-b--"])
ANY: st.SearchStrategy[str] = st.one_of(
    WORDS, NUMBERS, CLOCKS, TIMES, PLAYS, POSITIONS, st.sampled_from(IDS)
)


def _value(param: click.Parameter, draw: st.DrawFn) -> str:
    """A value for ``param``: mostly of its kind, sometimes anything at all."""
    kind = param.type
    if param.name in ("match_id",):
        return draw(st.sampled_from(IDS) | WORDS)
    if draw(st.integers(0, 4)) == 0:
        return draw(ANY)
    if isinstance(kind, click.Choice):
        return draw(st.sampled_from([str(c) for c in kind.choices]) | WORDS)
    if isinstance(kind, click.types.IntParamType | click.types.FloatParamType):
        return draw(NUMBERS)
    if kind.name == "M:SS" or "figure" in (param.name or ""):
        return draw(CLOCKS)
    if param.name in ("at", "now", "scheduled"):
        return draw(TIMES)
    if param.name in ("play",):
        return draw(PLAYS)
    if param.name in ("position",):
        return draw(POSITIONS)
    return draw(ANY)


@st.composite
def argvs(draw: st.DrawFn, path: tuple[str, ...]) -> tuple[list[str], str | None]:
    """Arguments for the command at ``path`` (and ``record``'s one line of input)."""
    argv: list[str] = []
    for i, command in enumerate(_command(path)):
        argv.append(path[i])
        for param in command.params:
            if isinstance(param, click.Argument):
                count = draw(st.integers(0, 3)) if param.nargs == -1 else 1
                if param.name == "files":
                    argv.append(draw(st.sampled_from(["fuzz.mat", "fuzz.json", "none.mat"])))
                    continue
                if draw(st.integers(0, 9)) > 0:  # now and then one is missing
                    argv += [_value(param, draw) for _ in range(count)]
            elif isinstance(param, click.Option) and param.name not in ("help",):
                if param.name == "output" or not draw(st.booleans()):
                    continue
                argv.append(param.opts[0])
                if not param.is_flag:
                    argv.append(_value(param, draw))
    if path != ("import",) and draw(st.integers(0, 5)) == 0:  # one file: one transaction
        argv.insert(draw(st.integers(1, len(argv))), draw(ANY))
    line = draw(st.sampled_from(["roll 5 2", "52: 13/x", "hit", "move 13/8 13/11"]) | ANY)
    return argv, line.replace("\n", " ").replace("\r", " ")  # one line: one transaction


# -- the ledger --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ledger_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One SQLite ledger for the module: a started match, one mid-game and one with a clock.

    The working directory is a temporary one (``import`` reads ``fuzz.mat`` there).
    """
    home = tmp_path_factory.mktemp("cli-fuzz")
    path = home / "ledger.db"
    (home / "fuzz.mat").write_text(
        " 1 point match\n\n Game 1\n Ann : 0   Bob : 0\n  1) 31: 8/5 6/5"
    )
    (home / "fuzz.json").write_text('{"format": "bgledger-match"}')
    with MatchStore(f"sqlite:///{path}") as ledger:
        ledger.start(("Ann", "Bob"), 5, match_id="plain", by="kim", at=T0)
        ledger.start(("Ann", "Bob"), 7, match_id="midgame", by="kim", at=T0)
        ledger.act("midgame", lambda m: play_lines(m, random.Random(7), 25))
        ledger.start(("Ann", "Bob"), 5, match_id="clocked", by="kim", at=T0, clock="simple-delay")

        def clocked(match: Match) -> None:
            for line in CLOCKED_LINES.strip().splitlines()[:8]:
                parse(line).run(match, "kim")

        ledger.act("clocked", clocked)
    before = Path.cwd()
    os.chdir(home)
    try:
        yield path
    finally:
        os.chdir(before)


def run(db: Path, argv: list[str], line: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", f"sqlite:///{db}", *argv], input=line)


def snapshot(db: Path, argv: list[str]) -> tuple[dict[str, int], dict[str, str]]:
    """Rows per table (every match's events), and ``show --json`` of each match ``argv`` names."""
    with sqlite3.connect(db) as conn:
        tables = [t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        counts = {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    named = [i for i in IDS if i in argv]
    shown = {i: run(db, ["show", i, "--json", "--now", NOW]).output for i in named}
    return counts, shown


VERDICTS = {("judge",), ("verify",)}
"""Commands whose exit 1 is an answer (an illegal play, a broken chain), not an error."""


def _names_the_input(message: str, argv: list[str], path: tuple[str, ...]) -> bool:
    """The message quotes an argument given, names a parameter or the command, or says why."""
    for word in {word.strip() for word in argv if word.strip()}:  # a line's words, unspaced
        if repr(word) in message or re.search(rf"(?<!\w){re.escape(word)}(?!\w)", message):
            return True
    names = {
        p.human_readable_name.strip("-[]").lower().removesuffix("_path")
        for c in _command(path)
        for p in c.params
    }
    lowered = message.lower()
    return any(name in lowered for name in names) or path[-1] in lowered or "refused" in lowered


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_arguments_exit_0_1_or_2_and_a_failure_changes_nothing(
    path: tuple[str, ...], ledger_db: Path, data: st.DataObject
) -> None:
    argv, line = data.draw(argvs(path), label="argv")
    before = snapshot(ledger_db, argv)
    result = run(ledger_db, argv, line)
    shown = f"bgledger {' '.join(map(repr, argv))} -> {result.exit_code}: {result.output!r}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{shown} raised {result.exception!r}") from result.exception
    assert result.exit_code in (0, 1, 2), shown
    assert "Traceback" not in result.output, shown
    if result.exit_code:
        assert result.output.strip(), f"{shown}: a failure that says nothing"
        verdict = path in VERDICTS and result.exit_code == 1
        given = [*argv, *(line or "").splitlines()]
        assert verdict or _names_the_input(result.output, given, path), f"{shown}: names no input"
        assert snapshot(ledger_db, argv) == before, f"{shown}: the store changed"


def test_every_command_is_fuzzed() -> None:
    """The list walks into the groups: a new command is fuzzed without being listed."""
    assert {("clock", "start"), ("break", "end"), ("record",), ("show",)} <= set(COMMANDS)
    assert len(COMMANDS) >= 40


# -- crashes the fuzzing found, fixed: a naive time in year 1, non-ASCII digits -----------------


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["opening", "plain", "3", "1", "--at", "0001-01-01T00:00:00"], None),
        (["correct-score", "plain", "²-1", "--ruled-by", "director", "--reason", "x"], None),
        (["record", "plain"], "opening ² 1"),
    ],
    ids=["naive year 1 --at", "superscript score", "superscript die in record"],
)
def test_crashes_found_by_fuzzing_are_refused(
    ledger_db: Path, argv: list[str], line: str | None
) -> None:
    result = run(ledger_db, argv, line)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (1, 2), result.output


@pytest.mark.parametrize(
    "argv",
    [
        ["note", "plain", "", "--ruled-by", "director"],
        ["note", "plain", " ", "--ruled-by", "committee"],
        ["note", "plain", ""],
    ],
    ids=["empty ruling note", "blank ruling note", "empty remark"],
)
def test_an_empty_note_names_its_input(ledger_db: Path, argv: list[str]) -> None:
    """Found by hypothesis (issue 25, Why 8): the refusal of an empty ruling's text said
    '(--reason)', an option ``note`` does not have, and named nothing given."""
    result = run(ledger_db, argv)
    assert result.exit_code == 2, result.output
    assert _names_the_input(result.output, argv, ("note",)), result.output
    assert "--reason" not in result.output, result.output
