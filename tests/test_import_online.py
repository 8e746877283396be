"""Online-server transcriptions (Galaxy-style headers) that GNU Backgammon reads: issue 15, part 3.

Each ``fixtures/mat/galaxy-*.mat`` holds one way such a server writes what
the other ``.mat`` writers do not: a score line without a name, ``Losses``
and ``Wins`` lines at one fixed indentation or on one numbered line, a match
that ends before game 1's first roll, ``and the match`` short of the
length, a forfeit written on a move's line, and a game that is only its result
lines (issue 23).  The expected readings were worked out by hand from the files
and checked against Debian's gnubg 1.07 (``test_galaxy_files_read_as_gnubg_reads_them``
does so when it is installed): each game goes to the player gnubg gives it to,
except where the file itself names the match's winner, and a game gnubg gives to
no one is scored as the file writes it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgledger.cli.main import main
from bgledger.events import (
    GameWon,
    MatchEvent,
    MatchForfeited,
    MatchWon,
    ResignationOffered,
)
from bgledger.interchange.importer import UNNAMED, ImportedMatch, matches_from_mat
from bgledger.interchange.json_recheck import recheck
from bgledger.interchange.mat import MatSyntaxError, read_mat, read_mat_file
from bgledger.interchange.mat_writer import export_mat
from bgledger.projections.state.fold import Phase
from bgledger.projections.views.audit import history
from tests.conftest import REPO
from tests.gnubg_oracle import debian_gnubg, gnubg_read_mats

MATS = REPO / "fixtures" / "mat"
GALAXY = sorted(MATS.glob("galaxy-*.mat"))


def imported(name: str, text: str | None = None) -> ImportedMatch:
    mat = read_mat(text, name=name) if text is not None else read_mat_file(MATS / name)
    (only,) = matches_from_mat(mat, name, profile="online")
    return only


def winners(one: ImportedMatch) -> list[tuple[str, int, str]]:
    return [(g.winner, g.points, g.how) for g in one.match.state.games]


def events(one: ImportedMatch) -> list[MatchEvent]:
    """The match's events; collecting them empties the match's list: call it once a match."""
    return list(one.match.collect_events())


# -- 1. a score line without a name ---------------------------------------------------------


def test_a_score_line_without_a_name_reads_as_an_empty_name() -> None:
    (match,) = read_mat_file(MATS / "galaxy-unnamed-player.mat").matches
    assert [g.players for g in match.games] == [("lasse", "")] * 3
    assert [g.score for g in match.games] == [(0, 0), (0, 1), (2, 1)]


def test_a_player_the_score_line_leaves_unnamed_gets_the_headers_name_flagged() -> None:
    one = imported("galaxy-unnamed-player.mat")
    state = one.match.state
    assert state.players == ("lasse", "Mette")
    assert dict(state.meta)[UNNAMED] == "Player 2"
    assert "game 1 (line 16): the score line names no player 2; imported as 'Mette'" in one.notes
    assert winners(one) == [("b", 1, "drop"), ("a", 2, "drop"), ("a", 1, "resign")]
    assert (state.score, state.winner) == ((3, 1), "a")


def test_without_a_header_name_the_player_is_a_placeholder_flagged() -> None:
    text = (MATS / "galaxy-unnamed-player.mat").read_text()
    text = text.replace('; [Player 2 "Mette"]\n', "")
    one = imported("no-header.mat", text)
    assert one.match.state.players == ("lasse", "Player 2 (unnamed)")
    assert dict(one.match.state.meta)[UNNAMED] == "Player 2"
    assert any("imported as 'Player 2 (unnamed)'" in note for note in one.notes)


def test_a_named_match_carries_no_unnamed_flag() -> None:
    assert UNNAMED not in dict(imported("galaxy-result-lines.mat").match.state.meta)


# -- 2. 'Losses N' and 'Wins N' lines at one fixed indentation ------------------------------


def test_the_wins_line_gives_the_game_where_it_stands_as_gnubg_reads_it() -> None:
    one = imported("galaxy-result-lines.mat")
    # Both lines stand in the left column: gnubg reads only 'Wins', so lasse wins both
    # games; the 'Losses' line beside it announces the result and decides nothing.
    assert winners(one) == [("a", 2, "resign"), ("a", 1, "resign")]
    assert (one.match.state.score, one.match.state.winner) == ((3, 0), "a")
    assert one.notes == []


def test_and_the_match_that_only_the_other_players_score_allows_gives_him_the_game() -> None:
    one = imported("galaxy-declared-winner.mat")
    # At 0-2 of 3, 'Wins 1 point and the match' in the left column with its 'Losses' line:
    # only Bob reaches 3 with one point, so the file names him the match's winner.
    assert winners(one) == [("b", 1, "drop"), ("b", 1, "drop"), ("b", 1, "resign")]
    assert (one.match.state.score, one.match.state.winner) == ((0, 3), "b")
    assert any("only the other player wins the match with it" in note for note in one.notes)


# -- 3. both phrases on one numbered line ----------------------------------------------------


def test_losses_and_wins_on_one_numbered_line_are_read_not_refused() -> None:
    (match,) = read_mat_file(MATS / "galaxy-numbered-result.mat").matches
    kinds = [(a.kind, a.column, a.value, a.and_match) for a in match.games[0].actions[-2:]]
    assert kinds == [("loss", 1, 2, False), ("win", 1, 2, True)]
    one = imported("galaxy-numbered-result.mat")
    assert winners(one) == [("b", 2, "resign")]
    assert (one.match.state.score, one.match.state.winner) == ((0, 2), "b")


# -- 4. a match that ends before game 1's first roll -----------------------------------------


def test_a_match_forfeited_before_the_first_roll_is_won_at_nil_nil() -> None:
    one = imported("galaxy-forfeit-before-roll.mat")
    state = one.match.state
    assert (state.phase, state.winner, state.score, state.games) == (Phase.OVER, "a", (0, 0), ())
    recorded = events(one)
    *_, forfeited, won = recorded
    assert isinstance(forfeited, MatchForfeited) and forfeited.player == "b"
    assert "'Wins 1 point and the match', declares lasse the winner" in forfeited.reason
    assert isinstance(won, MatchWon) and (won.winner, won.score_a, won.score_b) == ("a", 0, 0)
    assert not any(isinstance(e, GameWon) for e in recorded)


def test_a_game_forfeited_before_its_first_roll_is_conceded_there() -> None:
    text = (MATS / "galaxy-forfeit-before-roll.mat").read_text()
    one = imported("stub.mat", text.replace(" and the match", ""))
    assert winners(one) == [("a", 1, "resign")]
    assert (one.match.state.phase, one.match.state.score) == (Phase.BETWEEN_GAMES, (1, 0))
    offered = next(e for e in events(one) if isinstance(e, ResignationOffered))
    assert offered.player == "b" and offered.legal  # the online profile allows it


# -- 5. 'and the match' short of the length --------------------------------------------------


def test_and_the_match_short_of_the_length_is_a_forfeit_naming_the_winner() -> None:
    one = imported("galaxy-match-forfeit.mat")
    state = one.match.state
    assert winners(one) == [("b", 1, "drop"), ("b", 1, "resign")]
    assert (state.phase, state.winner, state.score) == (Phase.OVER, "b", (0, 2))
    assert not one.abandoned
    recorded = events(one)
    *_, game, forfeited, won = recorded
    assert isinstance(game, GameWon) and isinstance(forfeited, MatchForfeited)
    assert forfeited.player == "a"
    assert isinstance(won, MatchWon) and (won.winner, won.score_a, won.score_b) == ("b", 0, 2)
    said = [entry.text for entry in history(recorded)[-2:]]
    assert said == [
        "lasse forfeits the match: line 24 of the transcription, 'Wins 1 point and the match', "
        "declares Bob the winner of the match at 0-2 of 5",
        "match won by Bob (lasse 0, Bob 2) by forfeit: lasse forfeited it",
    ]


def test_a_forfeited_match_survives_the_json_import_and_the_mat_export() -> None:
    for name in ("galaxy-match-forfeit.mat", "galaxy-forfeit-before-roll.mat"):
        recheck(events(imported(name)), name=name)  # the JSON import re-decides the forfeit too
    # The .mat export writes 'and the match' after the last game, which reads back as the
    # forfeit; a match forfeited before any game has no game to write it after.
    one = imported("galaxy-match-forfeit.mat")
    again = imported("again.mat", export_mat(events(one)))
    assert (again.match.state.winner, again.match.state.score) == ("b", (0, 2))


def test_the_cli_imports_every_galaxy_file(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'l.db'}"
    ids = {}
    for path in GALAXY:
        result = CliRunner().invoke(
            main, ["--db", db, "import", str(path), "--profile", "online", "--json"]
        )
        assert result.exit_code == 0, result.output
        ids[path.name] = json.loads(result.output.splitlines()[0])["match_id"]
    shown = CliRunner().invoke(main, ["--db", db, "show", ids["galaxy-match-forfeit.mat"]])
    assert shown.exit_code == 0 and "Bob" in shown.output


def test_the_event_time_is_read_with_its_minutes() -> None:
    # XG and the online servers write ``; [EventTime "17.45"]``
    assert imported("galaxy-match-forfeit.mat").match.state.started_at.startswith(
        "2024-03-06T17:45"
    )


# -- 6. a forfeit written beside a move, on the move's line (issue 23) -----------------------


def test_a_forfeit_beside_a_move_is_read_as_gnubg_splits_the_line() -> None:
    (match,) = read_mat_file(MATS / "galaxy-forfeit-beside-move.mat").matches
    # '  2)  Losses 1 point   Wins 1 point and the match   43: 24/20 13/10': gnubg's split
    # leaves 'Losses 1 point' in the left column and the rest in the right one.
    said = [(a.line, a.column, a.kind, a.raw) for a in match.games[1].actions[1:]]
    assert said == [
        (23, 0, "loss", "Losses 1 point"),
        (23, 1, "win", "Wins 1 point and the match"),
        (23, 1, "roll", "43: 24/20 13/10"),
    ]


def test_a_forfeit_beside_a_move_gives_the_match_to_the_wins_column() -> None:
    one = imported("galaxy-forfeit-beside-move.mat")
    state = one.match.state
    # lasse, on roll, loses 1 point and the match; Bob's move after it cannot be played
    # in a game already over: it is reported, not recorded (gnubg reads nothing of it).
    assert winners(one) == [("b", 1, "drop"), ("b", 1, "resign")]
    assert (state.phase, state.winner, state.score) == (Phase.OVER, "b", (0, 2))
    assert one.notes == [
        "line 23 of the transcription, 'Wins 1 point and the match', declares Bob the winner "
        "of the match at 0-2 of 5: a forfeit",
        "line 23: '43: 24/20 13/10' after the end of game 2: ignored",
    ]
    recorded = events(one)
    assert isinstance(recorded[-2], MatchForfeited) and recorded[-2].player == "a"


def test_a_forfeit_written_after_a_move_in_its_column_keeps_the_move() -> None:
    one = imported("galaxy-forfeit-after-move.mat")
    state = one.match.state
    # '53: 8/3 6/3   Losses 1 point   Wins 1 point and the match' in Bob's column: Bob
    # plays his 53, then lasse loses the game and the match.  gnubg drops the whole column
    # as one unrecognised move, the 53 and the result with it.
    (game,) = state.games[1:]
    assert (game.winner, game.points, game.how) == ("b", 1, "resign")
    assert (state.phase, state.winner, state.score) == (Phase.OVER, "b", (0, 2))
    assert any("8/3 6/3" in entry.text for entry in history(events(one)))
    assert len(one.notes) == 1 and one.notes[0].endswith("a forfeit")


# -- 7. a game that is only 'Losses 1 point' / 'Wins 1 point' (issue 23) ---------------------


def test_a_game_of_result_lines_only_counts_its_point_as_the_file_says() -> None:
    one = imported("galaxy-forfeit-only.mat")
    state = one.match.state
    # Game 2 has no roll, only its result in the left column: lasse's point, which game 3's
    # score line (1-1) counts too.  gnubg reads no winner for game 2 (its 'Wins' needs a
    # game in play) and takes the point back from that score line.
    assert winners(one) == [("b", 1, "drop"), ("a", 1, "resign"), ("a", 1, "drop")]
    assert (state.phase, state.score) == (Phase.BETWEEN_GAMES, (2, 1))
    assert one.notes == [
        "game 2 (line 20) has no roll: 'Wins 1 point' (line 23) is recorded as Bob conceding "
        "it before the first roll (GNU Backgammon reads no winner for such a game)"
    ]  # and no note that game 3's score line disagrees: it does not
    offered = [e for e in events(one) if isinstance(e, ResignationOffered)]
    assert [(e.player, e.level, e.legal) for e in offered] == [("b", "single", True)]


def test_the_import_report_says_what_it_made_of_the_forfeits(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'l.db'}"
    said = {}
    for name in ("galaxy-forfeit-beside-move.mat", "galaxy-forfeit-only.mat"):
        result = CliRunner().invoke(
            main, ["--db", db, "import", str(MATS / name), "--profile", "online"]
        )
        assert result.exit_code == 0, result.output
        said[name] = result.output
    beside, only = said["galaxy-forfeit-beside-move.mat"], said["galaxy-forfeit-only.mat"]
    assert "2 games, 0-2 of 5, won by Bob" in beside
    assert "note: line 23: '43: 24/20 13/10' after the end of game 2: ignored" in beside
    assert "3 games, 2-1 of 5, not finished" in only
    assert "note: game 2 (line 20) has no roll: 'Wins 1 point' (line 23) is recorded as Bob" in only


def test_gnubg_reads_the_forfeits_as_said() -> None:
    """What the tests above say of gnubg, asked of Debian's gnubg 1.07."""
    if debian_gnubg() is None:
        pytest.skip("Debian's gnubg is not installed (apt-get install gnubg); CI installs it")
    names = ["galaxy-forfeit-beside-move.mat", "galaxy-forfeit-after-move.mat"]
    names.append("galaxy-forfeit-only.mat")
    beside, after, only = gnubg_read_mats([MATS / name for name in names])
    # Beside a move: Bob wins game 2 on lasse's resignation; the 43 is not read.
    assert [(g["winner"], g["points"], g["resigned"], g["moves"]) for g in beside["games"]] == [
        ("O", 1, False, 3),
        ("O", 1, True, 1),
    ]
    # After a move in one column: neither the 53 nor the result is read.
    assert [(g["winner"], g["moves"]) for g in after["games"]] == [("O", 3), (None, 2)]
    # Result lines only: no winner for game 2, and game 3 starts at the 1-1 its line says,
    # the score bgledger reaches by counting game 2's point.
    assert [(g["score"], g["winner"]) for g in only["games"]] == [
        ([0, 0], "O"),
        ([0, 1], None),
        ([1, 1], "X"),
    ]
    ours = imported("galaxy-forfeit-only.mat").match.state
    assert only["final"] == list(ours.score)


# -- 8. a forfeit after the move number written again (issue 33) ----------------------------


def test_a_result_after_a_repeated_move_number_is_read_in_either_column() -> None:
    left = read_mat_file(MATS / "galaxy-forfeit-repeated-number.mat").matches[0].games[1]
    right = read_mat_file(MATS / "galaxy-forfeit-repeated-number-right.mat").matches[0].games[1]
    # '  4) 43: 24/21 13/9               4)  Losses 2 point   ...   Wins 2 point and the match'
    assert [(a.line, a.column, a.kind, a.raw) for a in left.actions[-3:]] == [
        (25, 0, "roll", "43: 24/21 13/9"),
        (25, 1, "loss", "Losses 2 point"),
        (25, 1, "win", "Wins 2 point and the match"),
    ]
    # '  3)  Takes        53: 8/3 6/3   3)  Losses 2 point   ...   Wins 2 point and the match'
    assert [(a.line, a.column, a.kind, a.raw) for a in right.actions[-4:]] == [
        (24, 0, "take", "Takes"),
        (24, 1, "roll", "53: 8/3 6/3"),
        (24, 1, "loss", "Losses 2 point"),
        (24, 1, "win", "Wins 2 point and the match"),
    ]


@pytest.mark.parametrize(
    ("name", "plays", "line"),
    [("galaxy-forfeit-repeated-number.mat", 4, 25),
     ("galaxy-forfeit-repeated-number-right.mat", 3, 24)],
)  # fmt: skip
def test_a_forfeit_after_a_repeated_move_number_is_recorded_as_the_other_forfeits(
    name: str, plays: int, line: int
) -> None:
    # Bob leads 1-0 of 5, the cube on 2: 'Wins 2 point and the match' gives Bob 3, short of
    # 5: lasse resigns the game (2 points with the cube) and forfeits the match, as the
    # online profile records a forfeit written on a move's line (tests above).
    one = imported(name)
    state = one.match.state
    assert winners(one) == [("b", 1, "drop"), ("b", 2, "resign")]
    assert (state.phase, state.winner, state.score) == (Phase.OVER, "b", (0, 3))
    assert one.notes == [
        f"line {line} of the transcription, 'Wins 2 point and the match', declares Bob the "
        "winner of the match at 0-3 of 5: a forfeit"
    ]
    recorded = events(one)
    started = [i for i, e in enumerate(recorded) if type(e).__name__ == "GameStarted"]
    game2 = recorded[started[-1] :]
    assert sum(type(e).__name__ == "CheckersPlayed" for e in game2) == plays  # every play kept
    assert isinstance(recorded[-2], MatchForfeited) and recorded[-2].player == "a"


def test_another_move_number_before_a_result_is_refused_naming_the_line() -> None:
    text = (MATS / "galaxy-forfeit-repeated-number.mat").read_text()
    with pytest.raises(MatSyntaxError) as refused:
        read_mat(text.replace("4)  Losses", "5)  Losses"), name="odd.mat")
    assert "line 25" in str(refused.value)
    assert "5) in a line of move number 4)" in str(refused.value)


def test_gnubg_reads_the_plays_before_a_repeated_move_number() -> None:
    if debian_gnubg() is None:
        pytest.skip("Debian's gnubg is not installed (apt-get install gnubg); CI installs it")
    names = ["galaxy-forfeit-repeated-number.mat", "galaxy-forfeit-repeated-number-right.mat"]
    left, right = gnubg_read_mats([MATS / name for name in names])
    # gnubg reads lasse's 43 on the left and no result (its ParseMatMove knows no '4)'); on
    # the right it drops the column, Bob's 53 with the result: no winner for game 2 either.
    assert [(g["winner"], g["moves"], g["doubles"]) for g in left["games"]] == [
        ("O", 3, 1),
        (None, 4, 1),
    ]
    assert [(g["winner"], g["moves"], g["doubles"]) for g in right["games"]] == [
        ("O", 3, 1),
        (None, 2, 1),
    ]


# -- the oracle: Debian's gnubg 1.07 ---------------------------------------------------------

DECLARED = {("galaxy-declared-winner.mat", 3)}
"""Games gnubg gives to one player and the file's ``and the match`` to the other."""
TO_OURS = {"X": "a", "O": "b"}


def test_galaxy_files_read_as_gnubg_reads_them() -> None:
    """Every game gnubg gives a winner goes to him here, unless the file names the match's."""
    if debian_gnubg() is None:
        pytest.skip("Debian's gnubg is not installed (apt-get install gnubg); CI installs it")
    differ = set()
    for path, reading in zip(GALAXY, gnubg_read_mats(GALAXY), strict=True):
        ours = {g.number: g.winner for g in imported(path.name).match.state.games}
        for number, game in enumerate(reading["games"], 1):
            if game["winner"] is not None and ours.get(number) != TO_OURS[game["winner"]]:
                differ.add((path.name, number))
    assert differ == DECLARED
