"""Tests of the syntactic ``.mat`` reader, :mod:`bgledger.interchange.mat`.

The real-data tests read the 313 match files under ``<repo>/../shared/fixtures/matches``
and compare them with what GNU Backgammon 1.07 reads from them
(``expected-gnubg.jsonl``); they are skipped when that directory is absent.
"""

from __future__ import annotations

import contextlib
import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.interchange.mat import (
    MatAction,
    MatFile,
    MatGame,
    MatMatch,
    MatSyntaxError,
    read_mat,
    read_mat_file,
    split_columns,
)
from bgledger.rules.errors import BgLedgerError

FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "matches"
MISSING = f"real match fixtures not found at {FIXTURES} (shared/fixtures/matches next to the repo)"


def _expected() -> list[dict[str, Any]]:
    path = FIXTURES / "expected-gnubg.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


EXPECTED = _expected()
EXPECTED_PARAMS = [pytest.param(e, id=e["file"]) for e in EXPECTED] or [
    pytest.param(None, marks=pytest.mark.skip(reason=MISSING))
]

# Where the points differ.  gnubg does not score a resignation with the N of the
# "Wins N points" line: it turns N into a resignation level (single if N <= cube,
# gammon if N <= 2 * cube, else backgammon: ParseMatMove in gnubg's import.c) and
# scores level * cube.  When N is not 1, 2 or 3 times the cube the two differ.
# (file, game number) -> (points written in the file, points gnubg reports, why)
POINTS_DIFFER = {
    ("tournament/Moriuchi_Toshiyuki-Kawauchi_Hibiki_9_point_match_2022-05-05_1651826699.mat", 10): (
        9,
        6,
        "'31: ????' then 'Wins 9 point and the match' at 7-7 with the cube on 2: gnubg "
        "reads a backgammon resignation, 3 * 2",
    ),
    ("online-2009/snowie-014.mat", 5): (
        100,
        6,
        "'Wins 100 points' with the cube on 2: gnubg reads a backgammon resignation, 3 * 2",
    ),
    ("online-2009/snowie-095.mat", 3): (
        16,
        6,
        "'Wins 16 points' with the cube on 2: gnubg reads a backgammon resignation, 3 * 2",
    ),
    ("online-2009/snowie-255.mat", 2): (
        5,
        8,
        "'Wins 5 points' with the cube on 4: 5 <= 2 * 4, gnubg reads a gammon resignation, 2 * 4",
    ),
}

# Games the file stops in the middle of: no "Wins" line.  Not a difference:
# gnubg reports them without a winner and with 0 points.
UNFINISHED = {
    ("online-2009/snowie-066.mat", 2),
    ("online-2009/snowie-088.mat", 2),
    ("online-2009/snowie-116.mat", 8),
    ("online-2009/snowie-221.mat", 6),
    ("online-2009/snowie-223.mat", 6),
    ("online-2009/snowie-224.mat", 4),
}


def _games(mat: MatFile) -> list[MatGame]:
    return [game for match in mat.matches for game in match.games]


# --- real data -----------------------------------------------------------------


@pytest.mark.skipif(not EXPECTED, reason=MISSING)
def test_every_fixture_file_is_listed_in_the_reference_data() -> None:
    files = {str(p.relative_to(FIXTURES)) for p in FIXTURES.glob("*/*.mat")}
    assert len(files) == 313
    assert files == {e["file"] for e in EXPECTED}


@pytest.mark.parametrize("expected", EXPECTED_PARAMS)
def test_fixture_reads_like_gnubg(expected: dict[str, Any]) -> None:
    mat = read_mat_file(FIXTURES / expected["file"])
    assert [m.length for m in mat.matches] == [expected["length"]]
    games = _games(mat)
    assert len(games) == len(expected["games"])
    # gnubg names the players after the score line of the last game it read.
    assert games[-1].players == (expected["X"], expected["O"])
    for game, gnubg in zip(games, expected["games"], strict=True):
        key = (expected["file"], game.number)
        assert list(game.score) == gnubg["score"], key
        # Every double gnubg saw is a double here: the columns are split alike.
        assert sum(a.kind == "double" for a in game.actions) == gnubg["doubles"], key
        _check_result(key, game.result, gnubg)


def _check_result(key: tuple[str, int], result: MatAction | None, gnubg: dict[str, Any]) -> None:
    if key in UNFINISHED:
        assert result is None
        assert (gnubg["winner"], gnubg["points"]) == (None, 0)
        return
    assert result is not None, key
    assert "XO"[result.column] == gnubg["winner"], key
    if key in POINTS_DIFFER:
        written, by_gnubg, _why = POINTS_DIFFER[key]
        assert (result.value, gnubg["points"]) == (written, by_gnubg)
        assert gnubg["resigned"]
    else:
        assert result.value == gnubg["points"], key


# --- hand-written dialects -----------------------------------------------------

JELLYFISH = """\ufeff; [Event "Club night"]
; [Player 1 "Ann Example"]
; [Site "Somewhere"]
; [FancyNewTag "kept, with \\"quotes\\""]
; a free comment

3 point match

 Game 1
 Ann : 0                               Bob : 0
  1) 31: 8/5 6/5                       43: 24/21 13/9
  2) 44: 24/16* 8/4*(2)                64: Cannot Move
  3)  Doubles => 2                      Takes
  4) 52: 13/11 13/8                    53:
  5)  Doubles => 4                      Drops
      Wins 2 point

 Game 2
 Ann : 2                               Bob : 0
  1)                                   43: 24/21 13/9
  2) 62: 24/18 13/11                   51: ????
                                        Wins 1 point and the match
"""


def test_jellyfish_header_tags_and_comments() -> None:
    mat = read_mat(JELLYFISH)
    assert mat.tags == (
        ("Event", "Club night"),
        ("Player 1", "Ann Example"),
        ("Site", "Somewhere"),
        ("FancyNewTag", 'kept, with \\"quotes\\"'),
    )
    assert mat.comments == ("a free comment",)
    assert [(m.length, m.line) for m in mat.matches] == [(3, 7)]


def test_jellyfish_game_actions_in_order() -> None:
    game = read_mat(JELLYFISH).matches[0].games[0]
    assert (game.number, game.line, game.players, game.score) == (1, 9, ("Ann", "Bob"), (0, 0))
    assert game.actions == (
        MatAction(11, 0, "roll", "31: 8/5 6/5", (3, 1), "8/5 6/5"),
        MatAction(11, 1, "roll", "43: 24/21 13/9", (4, 3), "24/21 13/9"),
        MatAction(12, 0, "roll", "44: 24/16* 8/4*(2)", (4, 4), "24/16* 8/4*(2)"),
        MatAction(12, 1, "roll", "64: Cannot Move", (6, 4), ""),
        MatAction(13, 0, "double", "Doubles => 2", value=2),
        MatAction(13, 1, "take", "Takes"),
        MatAction(14, 0, "roll", "52: 13/11 13/8", (5, 2), "13/11 13/8"),
        MatAction(14, 1, "roll", "53:", (5, 3), ""),
        MatAction(15, 0, "double", "Doubles => 4", value=4),
        MatAction(15, 1, "drop", "Drops"),
        MatAction(16, 0, "win", "Wins 2 point", value=2),
    )
    assert game.result == game.actions[-1]


def test_opening_roll_in_the_right_column_and_unrecorded_play() -> None:
    game = read_mat(JELLYFISH).matches[0].games[1]
    assert game.score == (2, 0)
    assert game.actions == (
        MatAction(20, 1, "roll", "43: 24/21 13/9", (4, 3), "24/21 13/9"),
        MatAction(21, 0, "roll", "62: 24/18 13/11", (6, 2), "24/18 13/11"),
        MatAction(21, 1, "roll", "51: ????", (5, 1), None),
        MatAction(22, 1, "win", "Wins 1 point and the match", value=1, and_match=True),
    )


SNOWIE = """ 7 point match

 Game 3
 1989,1529 : 2                    nori,1723 : 0
  1) 31: 8/5 6/5                 41: 24/23 13/9
 13) 53:                          Doubles => 2
 14)  Takes                      54: 8/4 7/2
 24) 11: Illegal play (25;0;1;0;0;Kenji;nori;0;10;-3;) 11:
 25) 63: 7/1 3/0                 Wins 2 points and the match
"""


def test_snowie_ratings_empty_plays_and_illegal_play() -> None:
    game = read_mat(SNOWIE).matches[0].games[0]
    assert game.players == ("1989", "nori")
    assert game.ratings == ("1529", "1723")
    assert game.score == (2, 0)
    kinds = [(a.line, a.column, a.kind, a.dice, a.play) for a in game.actions]
    assert kinds == [
        (5, 0, "roll", (3, 1), "8/5 6/5"),
        (5, 1, "roll", (4, 1), "24/23 13/9"),
        (6, 0, "roll", (5, 3), ""),
        (6, 1, "double", None, None),
        (7, 0, "take", None, None),
        (7, 1, "roll", (5, 4), "8/4 7/2"),
        (8, 0, "illegal-play", (1, 1), "25;0;1;0;0;Kenji;nori;0;10;-3;"),
        (8, 1, "roll", (1, 1), ""),
        (9, 0, "roll", (6, 3), "7/1 3/0"),
        (9, 1, "win", None, None),
    ]
    assert game.result == MatAction(9, 1, "win", "Wins 2 points and the match", None, None, 2, True)


BACKGAMMON_STUDIO = """; [Site "Backgammon Studio"]
; [Match ID "1620549"]

13 point match

 Game 1
 Ann Lee : 0                          Bob de Vries : 0
  1) 52: 13/11 13/8                    61: 13/7 8/7
  2) 32: Concedes                      Wins 2 point
  28)

 Game 2
 Ann Lee : 0                          Bob de Vries : 2
  18) 11: 1/off(4)                      Concedes
  21)  Wins 2 point
  22)
  1) 00: ????                          44: 6/2(4)
  2) ????                              Wins 1 point
"""


def test_backgammon_studio_concedes_and_numbered_wins() -> None:
    first, second = read_mat(BACKGAMMON_STUDIO).matches[0].games
    assert first.players == ("Ann Lee", "Bob de Vries")
    assert [(a.column, a.kind, a.play) for a in first.actions[2:]] == [
        (0, "roll", None),
        (0, "concede", None),
        (1, "win", None),
    ]
    assert [(a.line, a.column, a.kind, a.raw) for a in second.actions] == [
        (14, 0, "roll", "11: 1/off(4)"),
        (14, 1, "concede", "Concedes"),
        (15, 0, "win", "Wins 2 point"),
        (17, 0, "unknown", "00: ????"),
        (17, 1, "roll", "44: 6/2(4)"),
        (18, 0, "unknown", "????"),
        (18, 1, "win", "Wins 1 point"),
    ]


def test_several_matches_crlf_and_cube_animals() -> None:
    text = (
        "1 point match\r\n\r\n Game 1\r\n A : 0     B : 0\r\n"
        "  1) 21: 13/11 6/5                  Beavers => 4\r\n"
        "  2)  Raccoons => 8                  Takes\r\n"
        "\r\n0 Point Match\r\n Game 1\r\n A : 0     B : 0\r\n"
        "  1) 66: 24/18(2) 13/7(2)           Doubles\r\n"
    )
    first, second = read_mat(text).matches
    assert (first.length, second.length, second.line) == (1, 0, 8)
    assert [(a.kind, a.value) for a in first.games[0].actions] == [
        ("roll", None),
        ("beaver", 4),
        ("raccoon", 8),
        ("take", None),
    ]
    assert [(a.kind, a.value) for a in second.games[0].actions] == [
        ("roll", None),
        ("double", None),
    ]


@pytest.mark.parametrize(
    ("line", "left", "right"),
    [
        # two colons: the right column starts at its dice
        ("  1) 31: 8/5 6/5   43: 24/21", "  1) 31: 8/5 6/5  ", "43: 24/21"),
        ("  1) 31: 8/5 6/5 43: 24/21", "  1) 31: 8/5 6/5", "43: 24/21"),
        # one colon or none: the first two blanks from index 15 on
        ("  6) 65: Bar/14          Doubles => 2", "  6) 65: Bar/14", "         Doubles => 2"),
        ("  9)  Doubles => 2   Takes", "  9)  Doubles => 2", "  Takes"),
        ("      Wins 2 point", "      Wins 2 point", ""),
        ("      Wins 2 points        ", "      Wins 2 points", "       "),
        ("                    Wins 1 point", " " * 15, "    Wins 1 point"),
        # short lines are all left column
        ("  3) 11: 6/5", "  3) 11: 6/5", ""),
    ],
)
def test_split_columns_follows_gnubg(line: str, left: str, right: str) -> None:
    assert split_columns(line) == (left, right)


def test_values_round_trip_through_repr() -> None:
    namespace: dict[str, object] = {
        "MatFile": MatFile,
        "MatMatch": MatMatch,
        "MatGame": MatGame,
        "MatAction": MatAction,
    }
    for text in (JELLYFISH, SNOWIE, BACKGAMMON_STUDIO):
        mat = read_mat(text)
        assert eval(repr(mat), namespace) == mat


def test_read_mat_file_decodes_utf8_with_bom_and_latin1(tmp_path: Path) -> None:
    utf8 = tmp_path / "utf8.mat"
    utf8.write_bytes('\ufeff; [Player 1 "Fazli Güclü"]\n1 point match\n'.encode())
    latin1 = tmp_path / "latin1.mat"
    latin1.write_bytes('; [Player 1 "Jürgen"]\n1 point match\n'.encode("latin-1"))
    assert read_mat_file(utf8).tags == (("Player 1", "Fazli Güclü"),)
    assert read_mat_file(latin1).tags == (("Player 1", "Jürgen"),)


# --- errors --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("", 1, "no 'N point match' line"),
        ("hello\n", 1, "expected 'N point match' or 'Game N'"),
        (" Game 1\n", 1, "'Game N' before any 'N point match' line"),
        ("1 point match\n Game 1\n  1) 31: 8/5 6/5\n", 3, "expected a score line"),
        ("1 point match\n Game 1\n", 2, "no score line after 'Game N'"),
        ("1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5     Hello\n", 4, "unrecognised"),
        ("1 point match\n Game 1\n A : 0   B : 0\n  1) 77: 8/5\n", 4, "unrecognised"),
        ("1 point match\n Game 1\n A : 0   B : 0\n  1) 31: Illegal play\n", 4, "no '(position)'"),
    ],
)
def test_syntax_errors_name_the_line(text: str, line: int, reason: str) -> None:
    with pytest.raises(MatSyntaxError) as caught:
        read_mat(text, name="demo.mat")
    error = caught.value
    assert (error.name, error.line) == ("demo.mat", line)
    assert reason in error.reason
    assert str(error).startswith(f"demo.mat, line {line}: {reason}")
    assert str(error).endswith(f": {error.text!r}")
    assert isinstance(error, BgLedgerError)
    assert isinstance(error, ValueError)


def test_syntax_error_quotes_the_line_and_pickles() -> None:
    text = "1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   Maybe\n"
    with pytest.raises(MatSyntaxError) as caught:
        read_mat(text)
    assert str(caught.value) == (
        "<string>, line 4: unrecognised action 'Maybe' in the right column: "
        "'  1) 31: 8/5 6/5   Maybe'"
    )
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (str(copy), copy.line, copy.name) == (str(caught.value), 4, "<string>")


FRAGMENTS = [
    "",
    "11 point match",
    " Game 1",
    " A : 0      B : 0",
    " A,1500 : 3 B : x",
    "  1) 31: 8/5 6/5                  43: 24/21 13/9",
    "  2)  Doubles => 2                 Takes",
    "  3) 64: Cannot Move               Drops",
    "      Wins 2 points and the match",
    "  4) 51: ????                      Concedes",
    '; [Event "x"]',
    "  5) 11: Illegal play (1;2) 22: ",
    ":::",
    ")",
]


@settings(max_examples=300)
@given(st.text())
def test_arbitrary_text_raises_only_mat_syntax_error(text: str) -> None:
    with contextlib.suppress(MatSyntaxError):
        read_mat(text)


@settings(max_examples=300)
@given(st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=40)), max_size=12))
def test_mat_like_text_raises_only_mat_syntax_error(lines: list[str]) -> None:
    with contextlib.suppress(MatSyntaxError):
        read_mat("\n".join(lines))


def test_a_result_phrase_and_a_move_in_one_column_are_both_read() -> None:
    # An online server's forfeit beside a move (issue 23), split as gnubg splits it.
    beside = "  2)  Losses 1 point   Wins 1 point and the match   43: 24/20 13/10"
    assert split_columns(beside) == (
        "  2)  Losses 1 point",
        "  Wins 1 point and the match   43: 24/20 13/10",
    )
    after = "  2) 52: 13/8 13/11                  43: 24/20 13/10   Losses 1 point   Wins 1 point"
    text = f"5 point match\n Game 1\n a : 0     b : 0\n{beside}\n{after}\n"
    (game,) = read_mat(text).matches[0].games
    assert [(a.column, a.kind, a.raw, a.play, a.value, a.and_match) for a in game.actions] == [
        (0, "loss", "Losses 1 point", None, 1, False),
        (1, "win", "Wins 1 point and the match", None, 1, True),
        (1, "roll", "43: 24/20 13/10", "24/20 13/10", None, False),
        (0, "roll", "52: 13/8 13/11", "13/8 13/11", None, False),
        (1, "roll", "43: 24/20 13/10", "24/20 13/10", None, False),
        (1, "loss", "Losses 1 point", None, 1, False),
        (1, "win", "Wins 1 point", None, 1, False),
    ]


def test_a_play_is_not_cut_at_a_word_that_is_not_a_result() -> None:
    text = "5 point match\n Game 1\n a : 0     b : 0\n  1) 52: 13/8   Winsome 1 point\n"
    (game,) = read_mat(text).matches[0].games
    assert [(a.kind, a.play) for a in game.actions] == [("roll", "13/8   Winsome 1 point")]
