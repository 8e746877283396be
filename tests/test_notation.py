"""Play notation: every dialect of the transcriptions, gnubg's canonical form."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgledger.rules.errors import BgLedgerError, InvalidNotationError, InvalidPlayError
from bgledger.rules.notation import Move, Play


def moves(play: Play) -> list[tuple[int, int]]:
    return [(m.source, m.destination) for m in play.moves]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("13/8 13/11", [(13, 8), (13, 11)]),
        ("bar/20*", [(25, 20)]),
        ("Bar/22", [(25, 22)]),
        ("25/20", [(25, 20)]),
        ("6/off", [(6, 0)]),
        ("6/Off", [(6, 0)]),
        ("6/0", [(6, 0)]),
        ("24/18(2)", [(24, 18), (24, 18)]),
        ("11/4", [(11, 4)]),
        ("8/4*(2)", [(8, 4), (8, 4)]),
        ("BAR/20 20/16", [(25, 16)]),
    ],
)
def test_dialects_read_the_same_checkers(text: str, expected: list[tuple[int, int]]) -> None:
    assert sorted(moves(Play.parse(text)), reverse=True) == sorted(expected, reverse=True)


def test_a_chain_without_a_hit_is_one_move() -> None:
    assert str(Play.parse("13/8/5")) == "13/5"
    assert Play.parse("13/8/5") == Play.parse("13/8 8/5") == Play.parse("13/5")


def test_a_chain_through_a_hit_keeps_the_hit_point() -> None:
    play = Play.parse("13/8*/5")
    assert moves(play) == [(13, 8), (8, 5)]
    assert play.hits == {8}
    assert str(play) == "13/8*/5"


@pytest.mark.parametrize("text", ["", "Cannot Move", "cannot move", "  "])
def test_no_move_is_the_empty_play(text: str) -> None:
    assert Play.parse(text).is_empty
    assert str(Play.parse(text)) == ""


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("13/8 13/11", "13/11 13/8"),  # gnubg: same source, higher destination first
        ("6/5 8/5", "8/5 6/5"),
        ("25/20* 6/0", "bar/20* 6/off"),
        ("13/7 13/7 8/2 8/2", "13/7(2) 8/2(2)"),
        ("24/22 24/22 22/20 22/20", "24/20(2)"),
        ("8/4* 8/4", "8/4*(2)"),
        ("6/off 6/off 5/off 5/off", "6/off(2) 5/off(2)"),
    ],
)
def test_canonical_form_is_gnubgs(text: str, canonical: str) -> None:
    assert str(Play.parse(text)) == canonical


@pytest.mark.parametrize(
    "text", ["13-8", "13/", "/8", "13/8 x", "13//8", "13/8(0)", "13/8(5)", "bar*/20", "13/8)"]
)
def test_bad_notation_is_refused_quoting_the_input(text: str) -> None:
    with pytest.raises(InvalidNotationError) as raised:
        Play.parse(text)
    assert repr(text) in str(raised.value)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("30/24", "outside 0-25"),
        ("off/20", "from off"),
        ("8/13", "forward"),
        ("13/13", "forward"),
        ("8/bar", "to the bar"),
    ],
)
def test_plays_no_board_could_show_are_invalid(text: str, why: str) -> None:
    with pytest.raises(InvalidPlayError, match=why):
        Play.parse(text)


def test_both_errors_are_value_errors() -> None:
    assert issubclass(InvalidNotationError, ValueError)
    assert issubclass(InvalidPlayError, ValueError)


def test_repr_round_trips() -> None:
    play = Play.parse("bar/20* 13/8(2)")
    assert repr(play) == "Play.parse('bar/20* 13/8(2)')"
    assert eval(repr(play)) == play
    assert eval(repr(Move(13, 8))) == Move(13, 8)


points = st.integers(min_value=1, max_value=25)


@st.composite
def plays(draw: st.DrawFn) -> Play:
    """Arbitrary plays of up to four checker moves (physically, not necessarily legally)."""
    found = []
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        source = draw(points)
        destination = draw(st.integers(min_value=0, max_value=source - 1))
        found.append(Move(source, destination))
    landed = [m.destination for m in found if m.destination]
    hits = draw(st.sets(st.sampled_from(landed))) if landed else set()
    return Play(tuple(found), frozenset(hits))


@given(plays())
def test_parse_of_format_is_identity(play: Play) -> None:
    assert Play.parse(str(play)) == play


@given(plays())
def test_formatting_keeps_the_checkers_moved(play: Play) -> None:
    net = [0] * 26
    for move in Play.parse(str(play)).moves:
        net[move.source] -= 1
        net[move.destination] += 1
    expected = [0] * 26
    for move in play.moves:
        expected[move.source] -= 1
        expected[move.destination] += 1
    assert net == expected


alphabet = st.sampled_from("0123456789/*() barofBAROF,-\t\nxX")


@given(st.one_of(st.text(), st.text(alphabet=alphabet)))
def test_parser_raises_only_its_own_errors(text: str) -> None:
    with contextlib.suppress(BgLedgerError):
        Play.parse(text)
