"""Every play of the 313 real matches, as the importer records it, agrees with gnubg.

The importer (:mod:`bgledger.interchange.importer`) replays each game through
the aggregate: every play is judged on the board the earlier plays left and
recorded with its verdict.  Each recorded verdict agrees with GNU
Backgammon's own list of legal plays (a legal play's result is among gnubg's,
an illegal play's is not).  Illegal plays occur only in seven games of four
2009 online transcriptions that leave plays out (a roll written with no play,
``52:``, while the player did move): from that line on the transcribed board
and the real one differ.  Those games are listed here with the first line
that gives them away; ``test_import_corpus`` checks no other game is flagged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import gnubg
import pytest

from bgledger.events import CheckersPlayed, MatchEvent, UnplayablePlayRecorded
from bgledger.interchange.mat import MatGame, read_mat_file
from bgledger.projections.state.fold import MatchState, Phase, fold
from bgledger.rules.judge import play_result
from bgledger.rules.legal import legal_plays
from bgledger.rules.notation import Play, parse_play
from bgledger.rules.position import Position
from tests.conftest import shared_matches
from tests.corpus import names
from tests.gnubg_oracle import (
    CUBEINFO,
    EVALCONTEXT_0PLY,
    decode_move,
    gnubg_moves,
    result_id,
    swapped_id,
)
from tests.test_import_corpus import events_of

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


@dataclass(frozen=True, slots=True)
class Turn:
    """A roll the importer recorded, with the match before the play and what followed it.

    ``played`` is the event after the roll: a play (flagged or not), an
    unplayable play, or another event (the player rolled, then resigned).
    """

    name: str
    before: MatchState
    played: MatchEvent

    @property
    def dice(self) -> tuple[int, int]:
        assert self.before.dice is not None
        return self.before.dice

    def result(self) -> Position:
        """The board the recorded play leaves, the opponent on roll, as the fold makes it."""
        assert isinstance(self.played, CheckersPlayed)
        return play_result(self.before.position, parse_play(self.played.play))


def turns(name: str) -> Iterator[Turn]:
    """Each roll with the player to play, and the event recorded after it."""
    events = events_of(name)
    state = None
    for number, event in enumerate(events):
        state = fold([event], state)
        assert state is not None
        if state.phase is Phase.PLAY and number + 1 < len(events):
            yield Turn(name, state, events[number + 1])


@cache
def replayed() -> tuple[Turn, ...]:
    return tuple(turn for name in names() for turn in turns(name))


def flagged(turn: Turn) -> bool:
    """An illegal or unplayable play (not Snowie's own ``Illegal play (...)`` record of one)."""
    played = turn.played
    if isinstance(played, UnplayablePlayRecorded):
        return "Illegal play (" not in played.play
    return isinstance(played, CheckersPlayed) and not played.legal


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


def gnubg_lists_result(position: Position, dice: tuple[int, int], result: str) -> bool | None:
    """True if ``result`` (a position id) is among the results of the moves gnubg gives whole
    for ``dice``; else None if the binding cut a move short (the result may be that one's),
    else False.

    gnubg lists its plays best first and a recorded play is mostly among the first few, so the
    list is decoded only as far as the result (issue 34).  Unlike :func:`gnubg_result_ids`,
    a result found among the whole moves counts even where another move was cut short.
    """
    board = position.to_gnubg_board()
    cut = False
    found = gnubg.find_best_moves(board, CUBEINFO, EVALCONTEXT_0PLY, dice)
    for entry in found:
        move = decode_move(entry["move"], dice, float(entry["score"]))
        if move.truncated:
            cut = True
        elif move.steps and result_id(board, move.steps) == result:
            return True
    if cut:
        return None
    if not any(entry["move"] for entry in found):  # no play: the dice pass the turn
        return swapped_id(board) == result
    return False


def test_every_game_imports_and_every_play_is_judged() -> None:
    outcomes = Counter(type(turn.played).__name__ for turn in replayed())
    assert len(names()) == 313
    assert outcomes["CheckersPlayed"] > 70_000


def test_each_broken_game_goes_wrong_where_listed() -> None:
    first: dict[tuple[str, int], Turn] = {}
    for turn in replayed():
        if flagged(turn):
            first.setdefault((turn.name, turn.before.game), turn)
    assert set(first) == set(TRANSCRIPTIONS_THAT_LOSE_PLAYS)
    for (name, number), why in TRANSCRIPTIONS_THAT_LOSE_PLAYS.items():
        line = int(why.split()[1])
        (match,) = read_mat_file(shared_matches() / name).matches
        game: MatGame = next(g for g in match.games if g.number == number)
        turn = first[(name, number)]
        column = 0 if turn.before.turn == "a" else 1
        (action,) = [a for a in game.actions if a.line == line and a.column == column]
        assert action.dice is not None and sorted(action.dice) == sorted(turn.dice), why
        written = (action.play or "").strip()
        played = turn.played
        if isinstance(played, UnplayablePlayRecorded):
            assert played.play == action.play, why
        else:
            assert isinstance(played, CheckersPlayed) and not played.legal, why
            assert played.play == (str(Play.parse(written)) if written else ""), why


def test_every_verdict_agrees_with_gnubg() -> None:
    """Recorded legal: the board the play leaves is one of gnubg's results.  Recorded
    illegal: it is none of them."""
    disagreements = []
    checked: Counter[str] = Counter()
    for turn in replayed():
        played = turn.played
        if not isinstance(played, CheckersPlayed):
            continue
        where = (turn.name, turn.before.game, played.originator_version)
        position, dice = turn.before.position, turn.dice
        listed = gnubg_lists_result(position, dice, turn.result().position_id)
        if listed is None:
            # the binding cut a bear-off short: at least the number of plays must agree
            checked["truncated"] += 1
            counts = len(gnubg_moves(position.to_gnubg_board(), dice))
            if counts != len(legal_plays(position, dice)):
                disagreements.append((*where, "count", counts))
            continue
        if listed != played.legal:
            disagreements.append((*where, played.play, played.legal))
        checked["legal" if played.legal else "illegal"] += 1
    assert disagreements == []
    assert checked["illegal"] >= 40  # of 62; the rest are bear-offs the binding truncates
    assert checked["truncated"] < checked["legal"] // 5  # 11,351 bear-off positions


def test_a_roll_with_no_play_before_the_result_had_a_play_by_gnubg() -> None:
    """``32:`` then the opponent's ``Wins``: the player rolled, could move, and resigned."""
    played = (CheckersPlayed, UnplayablePlayRecorded)
    resigned = [turn for turn in replayed() if not isinstance(turn.played, played)]
    assert resigned
    for turn in resigned:
        results = gnubg_result_ids(turn.before.position, turn.dice)
        assert results != {turn.before.position.swapped().position_id}, turn


@pytest.mark.parametrize("key", sorted(TRANSCRIPTIONS_THAT_LOSE_PLAYS))
def test_broken_transcriptions_are_real_files(key: tuple[str, int]) -> None:
    assert (shared_matches() / key[0]).is_file()
