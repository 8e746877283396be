"""What a user sees on the terminal: the board diagram, the one-line summary, the games table."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.projections.state.fold import MatchState
from bgledger.projections.views.summary import gnubg_match_id
from bgledger.projections.views.text import board_diagram, brief, games_table
from tests.conftest import board
from tests.match_driver import next_line

# Where each slot of a board row starts: six points, the bar, six points.
_SLOTS = [2 + 3 * i for i in range(6)] + [21] + [25 + 3 * i for i in range(6)]


def drawn(diagram: str) -> dict[str, tuple[str, int]]:
    """Read the diagram as a user would: what stands on each numbered point and on the bar.

    Keys are the point numbers printed above and below the board, ``'bar O'``
    (top of the bar) and ``'bar X'`` (bottom); values are the symbol and the
    number of checkers (the count printed on a tall stack, else the symbols).
    """
    grid = diagram.splitlines()[1:14]
    found: dict[str, tuple[str, int]] = {}
    halves = ((grid[0], grid[1:6], "bar O"), (grid[12], grid[7:12], "bar X"))
    for numbers, rows, bar in halves:
        labels = re.findall(r"\d+", numbers[:44])
        labels = [*labels[:6], bar, *labels[6:]]
        for label, start in zip(labels, _SLOTS, strict=True):
            cells = [row[start : start + 3].strip() for row in rows]
            symbols = [c for c in cells if c in ("X", "O")]
            counts = [int(c) for c in cells if c.isdigit()]
            if symbols:
                found[label] = (symbols[0], counts[0] if counts else len(symbols))
    return found


def off_counts(diagram: str) -> tuple[int, int]:
    """Borne-off checkers of X and O, read beside the board (O's side is drawn on top)."""
    o_off, x_off = (int(n) for n in re.findall(r"off (\d+)", diagram))
    return x_off, o_off


def pips_shown(diagram: str) -> tuple[int, int]:
    """Pip counts of X and O as printed beside the board."""
    o_pips, x_pips = (int(n) for n in re.findall(r"pips (\d+)", diagram))
    return x_pips, o_pips


def new_match(length: int = 5) -> Match:
    return Match.start(match_uuid("t"), "t", ("Ann", "Bob"), length, by="kim")


START_AS_X = {"24": ("X", 2), "13": ("X", 5), "8": ("X", 3), "6": ("X", 5)}
START_AS_O = {"1": ("O", 2), "12": ("O", 5), "17": ("O", 3), "19": ("O", 5)}


def test_the_starting_position_from_anns_side() -> None:
    match = new_match()
    diagram = board_diagram(match.state)
    lines = diagram.splitlines()
    assert lines[0].startswith(" Position ID: 4HPwATDgc/ABMA   Match ID: ")
    assert lines[1].startswith(" +13-14-15-16-17-18------19-20-21-22-23-24-+")
    assert lines[13].startswith(" +12-11-10--9--8--7-------6--5--4--3--2--1-+")
    assert lines[2].startswith(" | X           O    |   | O              X |")
    assert lines[7].startswith(" |                  |BAR|                  |")
    assert lines[12].startswith(" | O           X    |   | X              O |")
    assert drawn(diagram) == START_AS_X | START_AS_O
    assert pips_shown(diagram) == (167, 167)
    assert off_counts(diagram) == (0, 0)
    assert " X = Ann, O = Bob, from Ann's side" in lines
    assert "cube 1, centred" in lines[7]
    assert " 5-point match · Ann 0, Bob 0 · pre-Crawford" in lines
    assert " no game in progress: game 1 starts with an opening roll" in lines


def test_the_match_id_of_gnubg_is_shown() -> None:
    match = new_match()
    match.opening(3, 1, by="kim")
    assert f"Match ID: {gnubg_match_id(match.state)}" in board_diagram(match.state)


def test_after_ann_plays_bob_sees_her_checkers_on_his_20_point() -> None:
    match = new_match()
    match.opening(3, 1, by="kim")
    match.move("8/5 6/5", by="kim")
    diagram = board_diagram(match.state, "b")  # Bob is on roll; drawn from his side on request
    assert " X = Bob, O = Ann, from Bob's side" in diagram.splitlines()
    shown = drawn(diagram)
    assert shown["20"] == ("O", 2)  # Ann's 5 point
    assert shown["19"] == ("O", 4)  # Ann's 6 point
    assert shown["17"] == ("O", 2)  # Ann's 8 point
    assert shown["12"] == ("O", 5)
    assert shown["6"] == ("X", 5)
    assert pips_shown(diagram) == (167, 163)
    assert diagram.splitlines()[-1].startswith(" Bob is on roll")
    assert drawn(board_diagram(match.state, "Ann"))["5"] == ("X", 2)


def _hit_position() -> Match:
    """Ann's blot on her 18 point is hit by Bob's 14/7*."""
    match = new_match()
    match.opening(3, 1, by="kim")
    match.move("8/5 6/5", by="kim")
    match.roll(6, 4, by="kim")
    match.move("24/14", by="kim")
    match.roll(6, 4, by="kim")
    match.move("24/18 13/9", by="kim")
    match.roll(5, 2, by="kim")
    match.move("14/7*", by="kim")
    return match


def test_a_hit_checker_is_drawn_on_the_bar_of_its_owner() -> None:
    match = _hit_position()
    as_ann = board_diagram(match.state)  # Ann is on roll
    assert drawn(as_ann)["bar X"] == ("X", 1)
    assert drawn(as_ann)["18"] == ("O", 1)  # Bob's checker, on his 7 point
    assert drawn(as_ann)["17"] == ("O", 3)
    assert pips_shown(as_ann) == (167 - 4 - 10 + 7, 167 - 10 - 7)
    as_bob = board_diagram(match.state, "b")
    assert drawn(as_bob)["bar O"] == ("O", 1)
    assert drawn(as_bob)["7"] == ("X", 1)
    assert "on roll" in as_ann.splitlines()[10]  # beside Ann's (the lower) half


def _with_board(state: MatchState, ann: dict[int, int], bob: dict[int, int]) -> MatchState:
    position = board(ann, bob)
    return replace(state, board=(position.mover, position.opponent))


def test_borne_off_checkers_and_tall_stacks_are_counted() -> None:
    match = new_match()
    state = _with_board(match.state, {6: 8, 1: 2}, {1: 4, 2: 4})
    diagram = board_diagram(state, "a")
    assert off_counts(diagram) == (5, 7)
    assert drawn(diagram) == {"6": ("X", 8), "1": ("X", 2), "24": ("O", 4), "23": ("O", 4)}
    bottom = diagram.splitlines()[8:13]
    assert [row[25:28] for row in bottom] == [" 8 ", " X ", " X ", " X ", " X "]
    assert pips_shown(diagram) == (6 * 8 + 2, 4 + 8)


def test_the_cube_is_shown_centred_offered_owned_or_out_of_play() -> None:
    match = new_match()
    match.opening(3, 1, by="kim")
    match.move("8/5 6/5", by="kim")
    match.double(by="kim")
    offered = board_diagram(match.state, "b").splitlines()
    assert "cube offered at 2 by Bob" in offered[7]
    assert "to take or drop" in "\n".join(offered[1:7])  # Ann, drawn on top from Bob's side
    match.take(by="kim")
    owned = board_diagram(match.state, "a").splitlines()
    assert "cube" not in owned[7]
    assert [i for i, line in enumerate(owned) if "cube 2" in line] == [11]
    as_bob = board_diagram(match.state, "b").splitlines()
    assert [i for i, line in enumerate(as_bob) if "cube 2" in line] == [3]


def test_the_crawford_game_has_no_cube() -> None:
    match = new_match(length=3)
    for _ in range(2):
        match.opening(1, 3, by="kim")
        match.move("8/5 6/5", by="kim")
        match.double(by="kim")
        match.drop(by="kim")
    between = board_diagram(match.state)
    assert " 3-point match · Ann 2, Bob 0 · next game is the Crawford game" in between
    match.opening(3, 1, by="kim")
    lines = board_diagram(match.state).splitlines()
    assert "no cube: Crawford game" in lines[7]
    assert " 3-point match · Ann 2, Bob 0 · Crawford game · game 3" in lines
    assert " Ann has rolled 3-1 and must move" in lines
    assert "rolled 3-1: to move" in "\n".join(lines[8:14])


def test_a_viewer_who_is_not_a_player_is_refused() -> None:
    with pytest.raises(ValueError, match="Cal"):
        board_diagram(new_match().state, "Cal")


def test_brief_says_game_score_cube_and_what_is_next() -> None:
    match = new_match()
    assert brief(match.state) == (
        "Ann 0, Bob 0 (to 5) · no game in progress: game 1 starts with an opening roll"
    )
    match.opening(3, 1, by="kim")
    assert brief(match.state) == (
        "game 1 · Ann 0, Bob 0 (to 5) · cube 1, centred · Ann has rolled 3-1 and must move"
    )
    match.move("8/5 6/5", by="kim")
    match.double(by="kim")
    match.take(by="kim")
    match.roll(5, 2, by="kim")
    assert brief(match.state) == (
        "game 1 · Ann 0, Bob 0 (to 5) · cube 2, Ann's · Bob has rolled 5-2 and must move"
    )
    match.move("13/8 13/11", by="kim")
    # Ann owns the cube: on roll she may redouble; Bob, who does not own it, only rolls.
    assert brief(match.state).endswith("cube 2, Ann's · Ann is on roll, to double or to roll")
    match.roll(6, 4, by="kim")
    match.move("24/14", by="kim")
    assert brief(match.state).endswith("cube 2, Ann's · Bob is on roll, to roll")


def test_games_table_is_a_score_sheet_with_the_crawford_game_marked() -> None:
    match = new_match(length=3)
    assert games_table(match.state) == "no game finished yet"
    for _ in range(2):
        match.opening(1, 3, by="kim")
        match.move("8/5 6/5", by="kim")
        match.double(by="kim")
        match.drop(by="kim")
    match.opening(3, 1, by="kim")
    match.resign("single", player="b", as_played=True, by="kim")
    match.accept(by="kim")
    assert games_table(match.state).splitlines() == [
        "game  winner  result  cube  points  how       Ann  Bob",
        "   1  Ann     single     1       1  dropped     1    0",
        "   2  Ann     single     1       1  dropped     2    0",
        "   3  Ann     single     1       1  resigned    3    0  Crawford",
    ]


def _fifteen_each(state: MatchState) -> None:
    for viewer in ("a", "b"):
        diagram = board_diagram(state, viewer)
        shown = drawn(diagram).values()
        x_off, o_off = off_counts(diagram)
        assert sum(n for symbol, n in shown if symbol == "X") + x_off == 15, diagram
        assert sum(n for symbol, n in shown if symbol == "O") + o_off == 15, diagram


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_legal_matches_always_show_fifteen_checkers_a_side(seed: int) -> None:
    rng = random.Random(seed)
    match = new_match(length=3)
    for _ in range(600):
        _fifteen_each(match.state)
        assert brief(match.state)
        line = next_line(match.state, rng)
        if line is None:
            break
        parse(line).run(match, "driver")
    assert games_table(match.state).count("\n") == len(match.state.games)


def _ann_wins_by_a_drop(match: Match) -> None:
    """A game: Bob opens, Ann doubles on her first turn and Bob passes: Ann wins 1 point."""
    match.opening(1, 3, by="kim")
    match.move("8/5 6/5", by="kim")
    match.double(by="kim")
    match.drop(by="kim")


def test_the_board_keeps_anns_side_whoever_is_on_roll() -> None:
    match = new_match()
    match.opening(1, 3, by="kim")  # Bob is on roll
    bob_to_move = board_diagram(match.state).splitlines()
    assert " X = Ann, O = Bob, from Ann's side" in bob_to_move
    assert drawn("\n".join(bob_to_move))["24"] == ("X", 2)  # Ann's back checkers, bottom right
    match.move("8/5 6/5", by="kim")  # Ann is on roll
    assert " X = Ann, O = Bob, from Ann's side" in board_diagram(match.state).splitlines()
    assert " X = Bob, O = Ann, from Bob's side" in board_diagram(match.state, "b").splitlines()


def test_brief_and_show_say_who_won_the_game_that_ended_and_what_comes_next() -> None:
    match = new_match(length=3)
    _ann_wins_by_a_drop(match)
    assert brief(match.state) == (
        "game 1 won by Ann, 1 point · Ann 1, Bob 0 (to 3) · "
        "no game in progress: game 2 starts with an opening roll"
    )
    lines = board_diagram(match.state).splitlines()
    assert lines[-2] == " 3-point match · Ann 1, Bob 0 · pre-Crawford · game 1 won by Ann, 1 point"
    assert "cube 1, centred" in lines[7]  # the next game's cube
    _ann_wins_by_a_drop(match)
    assert brief(match.state) == (
        "game 2 won by Ann, 1 point · Ann 2, Bob 0 (to 3) · next game is the Crawford game · "
        "no game in progress: game 3 starts with an opening roll"
    )
    assert "next game: no cube, Crawford game" in board_diagram(match.state).splitlines()[7]


def test_brief_in_the_crawford_game_and_after_it() -> None:
    match = new_match(length=3)
    _ann_wins_by_a_drop(match)
    _ann_wins_by_a_drop(match)
    match.opening(1, 3, by="kim")
    match.move("8/5 6/5", by="kim")
    # No cube in the Crawford game: Ann, on roll, only rolls.
    assert brief(match.state) == (
        "game 3 · Ann 2, Bob 0 (to 3) · no cube: Crawford game · Ann is on roll, to roll"
    )
    match.resign("single", player="b", as_played=True, by="kim")
    match.accept(by="kim")
    assert brief(match.state).startswith("game 3 won by Ann, 1 point · Ann 3, Bob 0 (to 3)")


def test_brief_post_crawford_and_when_the_match_is_over() -> None:
    match = new_match(length=3)
    _ann_wins_by_a_drop(match)
    _ann_wins_by_a_drop(match)
    match.opening(3, 1, by="kim")  # the Crawford game: Ann moves first
    match.move("8/5 6/5", by="kim")
    match.resign("single", player="a", as_played=True, by="kim")
    match.accept(by="kim")
    assert brief(match.state) == (
        "game 3 won by Bob, 1 point · Ann 2, Bob 1 (to 3) · post-Crawford · "
        "no game in progress: game 4 starts with an opening roll"
    )
    match.opening(3, 1, by="kim")
    match.move("8/5 6/5", by="kim")
    assert brief(match.state) == (
        "game 4 · Ann 2, Bob 1 (to 3) · post-Crawford · cube 1, centred · "
        "Bob is on roll, to double or to roll"
    )
    match.resign("single", player="b", as_played=True, by="kim")
    match.accept(by="kim")
    assert brief(match.state).startswith("game 4 won by Ann, 1 point · Ann 3, Bob 1 (to 3) · ")
    assert "the match is over: Ann won" in brief(match.state)
    lines = board_diagram(match.state).splitlines()
    assert lines[-2] == " 3-point match · Ann 3, Bob 1 · game 4 won by Ann, 1 point"
    assert "cube" not in "\n".join(lines[1:14])  # no game, no cube


def test_between_games_the_cube_of_the_game_that_ended_is_not_shown_as_owned() -> None:
    match = new_match()
    match.opening(1, 3, by="kim")
    match.move("8/5 6/5", by="kim")
    match.double(by="kim")
    match.take(by="kim")  # Bob owns the cube at 2
    assert [i for i, line in enumerate(board_diagram(match.state).splitlines()) if "cube 2" in line]
    match.resign("single", player="a", as_played=True, by="kim")
    match.accept(by="kim")
    lines = board_diagram(match.state).splitlines()
    assert not [line for line in lines if "cube 2" in line]
    assert "cube 1, centred" in lines[7]
    assert brief(match.state).startswith("game 1 won by Bob, 2 points · Ann 0, Bob 2 (to 5) · ")
