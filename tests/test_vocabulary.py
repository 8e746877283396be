"""Commands are values: ``str(parse(line))`` reads back to the same command, for every verb."""

from __future__ import annotations

import dataclasses
import random
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgledger.cli.main import main
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import (
    VOCABULARY,
    Accept,
    Amend,
    Command,
    CorrectScore,
    Double,
    Drop,
    Move,
    Note,
    Opening,
    Overturn,
    Reject,
    Resign,
    Revert,
    Roll,
    RollMove,
    Take,
    Undo,
    VoidRoll,
    parse,
)
from bgledger.events import MatchEvent
from bgledger.projections.views.audit import history_line
from bgledger.service import Ledger
from tests.conftest import unique_id
from tests.match_driver import next_line
from tests.test_store import random_line

DIE = st.integers(1, 6)
WORDS = st.text(st.characters(min_codepoint=97, max_codepoint=122), min_size=1, max_size=8)
REASON = st.lists(WORDS, min_size=1, max_size=5).map(" ".join)
RULER = st.sampled_from(["", "director", "committee"])

COMMANDS: st.SearchStrategy[Command] = st.one_of(
    st.builds(Opening, DIE, DIE),
    st.builds(Roll, DIE, DIE, st.booleans(), st.booleans()),
    st.builds(Move, st.sampled_from(["13/8 13/11", "24/18 13/9", "bar/22 6/5*"]), st.booleans()),
    st.builds(Revert, st.integers(1, 10_000), reason=REASON, ruled_by=RULER,
              agreed=st.booleans()),
    st.builds(Overturn, st.integers(1, 10_000), reason=REASON),
    st.builds(CorrectScore, st.integers(0, 25), st.integers(0, 25), reason=REASON),
    st.builds(Undo, st.one_of(st.just(""), REASON), st.sampled_from(["", "director"])),
    st.builds(Amend, st.integers(1, 10_000), st.builds(Roll, DIE, DIE), REASON,
              st.sampled_from(["", "director"])),
)  # fmt: skip


@pytest.mark.parametrize("kind", VOCABULARY, ids=lambda kind: kind.__name__)
def test_every_verbs_example_reads_back_from_its_own_line(kind: type[Command]) -> None:
    command = parse(kind.example)
    assert type(command) is kind
    assert parse(str(command)) == command
    assert parse(str(parse(str(command)))) == command


@given(COMMANDS)
def test_a_command_prints_a_line_that_reads_back_to_it(command: Command) -> None:
    assert parse(str(command)) == command


# -- one command, three doors: the same events, the same words -------------------------------

BY = "kim"
T0 = datetime.fromisoformat("2026-11-27T10:00:00+00:00")
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
DOORS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def random_lines(seed: int, count: int) -> list[str]:
    """``count`` legal lines of a random 3-point match (fewer if it ends), decided in memory.

    The driver's lines (:func:`tests.test_store.random_line`: now and then a voided roll or
    an illegal play ``--as-played``), a scorekeeper's note now and then, and a roll followed
    by its move often written as the shorthand ``52: 13/8 13/11``.
    """
    rng = random.Random(seed)
    match = Match.start(match_uuid("twin"), "twin", ("Ann", "Bob"), 3, by=BY, at=T0.isoformat())
    lines: list[str] = []
    while len(lines) < count:
        line = random_line(match.state, rng)
        if line is None:
            break
        if rng.random() < 0.05:
            line = f"note {rng.choice(['Bob left the table', 'dice checked', 'x'])}"
        parse(line).run(match, BY)
        if line.startswith("roll ") and "--" not in line and rng.random() < 0.5:
            after = next_line(match.state, rng)
            if after is not None and after.startswith("move "):
                parse(after).run(match, BY)
                line = "{}{}: {}".format(*line.split()[1:3], after.removeprefix("move "))
        lines.append(line)
    return lines


def one_shots(command: Command) -> list[list[str]]:
    """The ``bgledger VERB MATCH ARGS`` invocations (without MATCH) that record ``command``."""
    flags = {"as_played": "--as-played", "premature": "--premature"}
    options = [flag for name, flag in flags.items() if getattr(command, name, False)]
    match command:
        case RollMove():  # the shorthand is a roll, then its move
            roll = ["roll", str(command.die1), str(command.die2)]
            return [roll, *one_shots(Move(command.play, command.as_played))]
        case Opening():
            return [["opening", str(command.die_a), str(command.die_b)]]
        case Roll():
            return [["roll", str(command.die1), str(command.die2), *options]]
        case Double():
            to = [] if command.to is None else ["--to", str(command.to)]
            return [["double", *to, *options]]
        case Resign() if command.player is not None:
            return [["resign", command.level, "--player", command.player, *options]]
        case Resign():
            return [["resign", command.level, *options]]
        case Move():
            return [["move", command.play, *options]]
        case VoidRoll():
            return [["void-roll", command.reason]]
        case Note():
            return [["note", command.text]]
        case Take() | Drop() | Accept() | Reject():
            return [[command.verb]]
    raise AssertionError(f"no one-shot mapped for {command!r}")


def said(event: MatchEvent, match_id: str) -> dict[str, Any]:
    """What an event says, without the store's timestamp, the chain, or the match's id."""
    out = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
    del out["timestamp"], out["chain"], out["said"]  # a one-shot is its own line
    assert out.pop("originator_id") == match_uuid(match_id)
    out = {k: ("M" if v == match_id else v) for k, v in out.items()}
    return {"type": type(event).__name__, **out}


def stamp(step: int) -> str:
    return (T0 + timedelta(seconds=step)).isoformat()


@DOORS
@given(seed=SEEDS, count=st.integers(min_value=5, max_value=40))
def test_a_line_a_command_and_a_one_shot_store_the_same_events(seed: int, count: int) -> None:
    lines = random_lines(seed, count)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'doors.db'}"
        ledger = Ledger(url)
        doors = ("by-line", "by-value", "by-cli")
        for match_id in doors:
            ledger.start(("Ann", "Bob"), 3, match_id=match_id, by=BY, at=T0.isoformat())
        runner = CliRunner()
        for step, line in enumerate(lines, start=1):
            at = stamp(step)
            done = ledger.record_line("by-line", line, by=BY, at=at)
            assert ledger.record("by-value", parse(line), by=BY, at=at).lines == done.lines
            printed: list[str] = []
            for args in one_shots(parse(line)):
                argv = ["--db", url, args[0], "by-cli", *args[1:], "--by", BY, "--at", at]
                result = runner.invoke(main, argv)
                assert result.exit_code == 0, (line, argv, result.output)
                printed.extend(result.stdout.splitlines()[:-1])  # the state line last
            # the one wording: what the one-shot printed is what the front door answered
            assert printed == list(done.lines), line
        stored = {match_id: ledger.events(match_id) for match_id in doors}
        ledger.close()
    line_said = [said(e, "by-line") for e in stored["by-line"]]
    assert [said(e, "by-value") for e in stored["by-value"]] == line_said
    kept = [e.said for e in stored["by-line"]]  # the line each entry keeps: the same value's
    assert [e.said for e in stored["by-value"]] == kept
    assert [line for line in kept if line] == [str(parse(line)) for line in lines]
    assert [said(e, "by-cli") for e in stored["by-cli"]] == line_said


@DOORS
@given(seed=SEEDS, count=st.integers(min_value=20, max_value=120))
def test_what_a_line_recorded_is_worded_as_history_words_it(
    seed: int, count: int, store_url: str
) -> None:
    match_id = unique_id("worded")
    ledger = Ledger(store_url, cache_size=4)
    ledger.start(("Ann", "Bob"), 3, match_id=match_id, by=BY, at=T0.isoformat())
    for step, line in enumerate(random_lines(seed, count), start=1):
        done = ledger.record_line(match_id, line, by=BY, at=stamp(step))
        assert done.numbers, line
        # history's tail (test_history_tail: as the whole trail has it), not the whole trail
        # after every line, which made the test quadratic in the match's length
        assert list(done.entries) == ledger.history(match_id, last=len(done.entries)), line
        assert [entry.number for entry in done.entries] == list(done.numbers)
        assert done.lines == tuple(history_line(entry) for entry in done.entries)
    ledger.close()
