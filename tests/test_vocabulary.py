"""Commands are values: ``str(parse(line))`` reads back to the same command, for every verb."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgledger.commands.vocabulary import (
    VOCABULARY,
    Amend,
    Command,
    CorrectScore,
    Move,
    Opening,
    Overturn,
    Revert,
    Roll,
    Undo,
    parse,
)

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
