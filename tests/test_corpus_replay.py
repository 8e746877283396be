"""Every game of the 313 real matches replays through the rules engine.

Every play parses; every play is judged on the board the earlier plays left;
each verdict agrees with GNU Backgammon's own list of legal plays (a legal
play's result is among gnubg's, an illegal play's is not).  Illegal plays occur
only in seven games of four 2009 online transcriptions that leave plays out
(a roll written with no play, ``52:``, while the player did move): from that
line on the transcribed board and the real one differ.  Those games are listed
here with the first line that gives them away, so any other illegal play found
in the corpus fails this test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache

import pytest

from bgledger.interchange.mat import MatGame, read_mat_file
from bgledger.interchange.replay import ReplayedRoll, replay_game
from bgledger.rules.legal import legal_plays
from bgledger.rules.position import Position
from tests.conftest import shared_matches
from tests.gnubg_oracle import gnubg_moves, result_id, swapped_id

# (file, game): the first line where the transcription and the board part ways.
TRANSCRIPTIONS_THAT_LOSE_PLAYS = {
    ("online-2009/snowie-113.mat", 11): "line 316 bears off 6/0 with a checker still on 8",
    ("online-2009/snowie-113.mat", 17): "line 489 plays 16/13 with no checker on 16",
    ("online-2009/snowie-143.mat", 2): "line 45 writes '45:' with no play; 5/1 5/off was possible",
    ("online-2009/snowie-144.mat", 2): "line 36 writes '46:' with no play; 5/1 5/off was possible",
    ("online-2009/snowie-144.mat", 3): "line 55 writes '55:' with no play; 6/1(4) was possible",
    ("online-2009/snowie-213.mat", 1): "line 13 writes '52:' with no play; bar/23 was possible",
    ("online-2009/snowie-213.mat", 7): "line 138 writes '65:' with no play; 6/1 6/off was possible",
}


def corpus_games() -> Iterator[tuple[str, MatGame]]:
    root = shared_matches()
    for path in sorted(root.glob("*/*.mat")):
        for match in read_mat_file(path).matches:
            for game in match.games:
                yield str(path.relative_to(root)), game


def gnubg_result_ids(position: Position, dice: tuple[int, int]) -> set[str] | None:
    """gnubg's resulting position ids for ``dice``, or None when its binding cut a move short.

    (The PyPI binding truncates move tuples at a bear-off; see tests/gnubg_oracle.py.
    Those positions are checked by the differential test through Debian's gnubg.)
    """
    board = position.to_gnubg_board()
    moves = gnubg_moves(board, dice)
    if any(move.truncated for move in moves):
        return None
    if not moves or all(not move.steps for move in moves):
        return {swapped_id(board)}
    return {result_id(board, move.steps) for move in moves}


@cache
def replayed() -> tuple[tuple[str, int, ReplayedRoll], ...]:
    return tuple(
        (name, game.number, roll) for name, game in corpus_games() for roll in replay_game(game)
    )


def test_every_game_replays_and_every_play_parses() -> None:
    outcomes = Counter(roll.outcome for _, _, roll in replayed())
    files = {name for name, _ in corpus_games()}
    assert len(files) == 313
    assert outcomes["legal"] > 70_000
    assert outcomes["after-game-end"] == 0


def test_illegal_and_unplayable_plays_only_where_the_transcription_loses_plays() -> None:
    broken = {
        (name, number)
        for name, number, roll in replayed()
        if roll.outcome in ("illegal", "unplayable")
    }
    assert broken == set(TRANSCRIPTIONS_THAT_LOSE_PLAYS)


def test_each_broken_game_goes_wrong_where_listed() -> None:
    first: dict[tuple[str, int], ReplayedRoll] = {}
    for name, number, roll in replayed():
        if roll.outcome in ("illegal", "unplayable"):
            first.setdefault((name, number), roll)
    for key, why in TRANSCRIPTIONS_THAT_LOSE_PLAYS.items():
        assert why.startswith(f"line {first[key].action.line} "), (key, first[key])


def test_every_verdict_agrees_with_gnubg() -> None:
    """Legal: the result is one of gnubg's.  Illegal: it is none of them."""
    disagreements = []
    checked: Counter[str] = Counter()
    for name, number, roll in replayed():
        if roll.verdict is None:
            continue
        verdict = roll.verdict
        results = gnubg_result_ids(verdict.position, verdict.dice)
        if results is None:
            # the binding cut a bear-off short: at least the number of plays must agree
            checked["truncated"] += 1
            counts = len(gnubg_moves(verdict.position.to_gnubg_board(), verdict.dice))
            if counts != len(legal_plays(verdict.position, verdict.dice)):
                disagreements.append((name, number, roll.action.line, "count", counts))
            continue
        ours = verdict.result.position_id
        if (ours in results) != verdict.legal:
            disagreements.append((name, number, roll.action.line, roll.action.raw, verdict.reason))
        checked["legal" if verdict.legal else "illegal"] += 1
    assert disagreements == []
    assert checked["illegal"] >= 40  # of 62; the rest are bear-offs the binding truncates
    assert checked["truncated"] < checked["legal"] // 5  # 11,351 bear-off positions


def test_a_roll_with_no_play_before_the_result_had_a_play_by_gnubg() -> None:
    """``32:`` then the opponent's ``Wins``: the player rolled, could move, and resigned."""
    resigned = [roll for _, _, roll in replayed() if roll.outcome == "resigned-after-rolling"]
    assert resigned
    for roll in resigned:
        if roll.action.dice is None:
            continue
        results = gnubg_result_ids(roll.position, roll.action.dice)
        assert results != {roll.position.swapped().position_id}


@pytest.mark.parametrize("key", sorted(TRANSCRIPTIONS_THAT_LOSE_PLAYS))
def test_broken_transcriptions_are_real_files(key: tuple[str, int]) -> None:
    assert (shared_matches() / key[0]).is_file()
