"""What people read: one order for a score in every view, list and standings with headers,
readable ids, and a match imported twice (renamed, re-exported) recognised and refused.

The expected texts are written from the story of each match, not read back from the ledger.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.interchange.files import content_key
from bgledger.interchange.importer import matches_from_mat, readable_id
from bgledger.interchange.mat import read_mat, read_mat_file
from bgledger.interchange.mat_writer import export_mat
from bgledger.store.application import MatchStore
from tests.conftest import REPO, shared_matches
from tests.ruled_match import record_ruled_match

MATS = REPO / "fixtures" / "mat"

# Ann v Bob, 5 points.  Game 1: Ann opens, Bob doubles, Ann passes (Ann 0, Bob 1).  Game 2:
# Bob opens, Ann doubles, Bob passes (1-1).  Game 3: Bob opens, Ann doubles to 2, Bob takes,
# Ann plays, Bob redoubles to 4, Ann passes: Bob scores 2 (1-3).  Game 4: Ann opens, Bob
# doubles, Ann passes (1-4).  Game 5, the Crawford game: Bob opens, Ann resigns a single game:
# Bob wins the match, Ann 1, Bob 5.
BOB_WINS = """\
opening 3 1
move 8/5 6/5
double
drop
opening 1 3
move 8/5 6/5
double
drop
opening 1 3
move 8/5 6/5
double
take
roll 6 5
move 24/13
double
drop
opening 3 1
move 8/5 6/5
double
drop
opening 1 3
move 8/5 6/5
resign single a --as-played
accept
"""
WINNER_FIRST = re.compile(r"(?<![\d-])5-1(?![\d-])")  # Bob's 5 before Ann's 1


def run(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def ok(db: str, *args: str, stdin: str | None = None) -> str:
    result = run(db, *args, stdin=stdin)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'people.db'}"
    ok(url, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--event", "Club", "--id", "m")
    ok(url, "record", "m", stdin=BOB_WINS)
    return url


def test_every_view_gives_the_score_player_a_first(db: str) -> None:
    shown = ok(db, "show", "m")
    assert "the match is over: Bob won (Ann 1, Bob 5)" in shown
    history = ok(db, "history", "m")
    assert "game 3: Bob wins a single game (a pass), cube 2: 2 points (Ann 1, Bob 3)" in history
    assert "Ann passed at 4: Bob wins 2 points" in history
    assert "match won by Bob (Ann 1, Bob 5)" in history
    sheet = ok(db, "export", "m", "--format", "scoresheet")
    assert "Final: Ann 1, Bob 5: Bob wins the match" in sheet.splitlines()
    rows = [re.split(r"\s{2,}", line.strip()) for line in sheet.splitlines()]
    assert ["3", "1-1", "Bob", "2", "doubled to 4, passed", "1-3"] in [row[:6] for row in rows]
    page = ok(db, "export", "m", "--format", "scoresheet-html")
    assert "Final: Ann 1, Bob 5: Bob wins the match" in page
    listed = ok(db, "list")
    assert re.search(r"\bm\s+Club\s+Ann v Bob\s+1-5\s+5\s+won by Bob\b", listed), listed
    standings = ok(db, "standings").splitlines()
    assert re.split(r"\s{2,}", standings[1]) == ["Club", "Ann", "1", "0", "1", "0", "1", "5"]
    assert re.split(r"\s{2,}", standings[2]) == ["Club", "Bob", "1", "1", "0", "0", "5", "1"]
    for view in (shown, history, sheet, page, listed):
        assert not WINNER_FIRST.search(view)


def test_list_and_standings_have_header_rows(db: str) -> None:
    listed = ok(db, "list").splitlines()
    assert re.split(r"\s{2,}", listed[0]) == [
        "Match", "Event", "Players (a v b)", "Score", "Length", "Status", "Events", "Last",
    ]  # fmt: skip
    one_event = ok(db, "list", "--event", "Club").splitlines()
    assert re.split(r"\s{2,}", one_event[0])[:2] == ["Match", "Players (a v b)"]
    standings = ok(db, "standings").splitlines()
    assert re.split(r"\s{2,}", standings[0]) == [
        "Event", "Player", "Played", "Won", "Lost", "In progress", "Points for", "Points against",
    ]  # fmt: skip
    # The columns line up: every row's cells start where the header's do.
    starts = [m.start() for m in re.finditer(r"(?<!\S)\S", standings[0].replace("In progress",
              "In_progress").replace("Points for", "Points_for").replace("Points against",
              "Points_against"))]  # fmt: skip
    assert len(starts) == 8
    for row in standings[1:]:
        assert row[starts[1] - 2 : starts[1]] == "  " and row[starts[1]] != " "


def test_an_imported_match_has_a_readable_id(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'ids.db'}"
    dated = tmp_path / "20220710_SOME_EXPORT_1659882266.mat"
    text = (MATS / "two-matches.mat").read_text(encoding="utf-8")
    dated.write_text('; [EventDate "2022.07.10"]\n' + text, encoding="utf-8")
    out = ok(db, "import", str(dated), "--json")
    assert [json.loads(line)["match_id"] for line in out.splitlines()] == [
        "ann-bob-3p-2022-07-10", "ann-bob-1p-2022-07-10",
    ]  # fmt: skip
    # Another match between them at the same length and date: the next free id.
    other = ok(db, "import", str(MATS / "resigned-after-rolling.mat"), "--json")
    assert json.loads(other)["match_id"] == "ann-bob-3p"
    assert ok(db, "show", "ann-bob-3p-2022-07-10", "--json")
    # --id still names the match, as documented.
    named = ok(db, "import", str(MATS / "abandoned.mat"), "--id", "club-final", "--json")
    assert json.loads(named)["match_id"] == "club-final"


def test_readable_ids_are_unique_and_ascii() -> None:
    taken = {"ann-bob-7p", "ann-bob-7p-2"}
    assert readable_id(("Ann", "Bob"), 7, "", taken.__contains__) == "ann-bob-7p-3"
    assert readable_id(("Ann", "Bob"), 7, "2022-07-10", taken.__contains__) == (
        "ann-bob-7p-2022-07-10"
    )
    assert readable_id(("Müller", "望月"), 5, "", lambda _: False) == "muller-player-5p"
    long = readable_id(("A" * 40, "B" * 40), 25, "2022-07-10", lambda _: False)
    assert long == f"{'a' * 20}-{'b' * 20}-25p-2022-07-10" and len(long) <= 64


def standings_played(db: str) -> dict[str, int]:
    document = json.loads(ok(db, "standings", "--json"))
    return {row["player"]: row["played"] for row in document["standings"]}


def test_a_file_imported_again_under_another_name_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'twice.db'}"
    renamed = tmp_path / "copy of the final.mat"
    shutil.copy(MATS / "mid-match.mat", renamed)
    # In one run: the copy is refused though no read model has seen the first yet.
    both = run(db, "import", str(MATS / "mid-match.mat"), str(renamed))
    assert both.exit_code == 1 and "1 refused" in both.stderr
    assert f"refused {renamed}: already in the ledger as match ann-bob-7p" in both.stderr
    before = standings_played(db)  # the read models catch up: now the index names it
    refused = run(db, "import", str(renamed))
    assert refused.exit_code == 1
    assert "already in the ledger as match ann-bob-7p" in refused.stderr
    assert "--again" in refused.stderr
    assert standings_played(db) == before  # not counted twice
    assert [m["match_id"] for m in json.loads(ok(db, "list", "--json"))["matches"]] == [
        "ann-bob-7p"
    ]
    again = ok(db, "import", str(renamed), "--again", "--json")
    assert json.loads(again)["match_id"] == "ann-bob-7p-2"


def test_a_re_exported_match_is_recognised_as_mat_and_as_json(db: str, tmp_path: Path) -> None:
    mat, copy = tmp_path / "m.mat", tmp_path / "m.json"
    ok(db, "export", "m", "--format", "mat", "-o", str(mat))
    ok(db, "export", "m", "--format", "json", "-o", str(copy))
    before = standings_played(db)
    for path, extra in ((mat, ()), (copy, ("--id", "elsewhere"))):
        refused = run(db, "import", str(path), *extra)
        assert refused.exit_code == 1, refused.output
        assert "already in the ledger as match m:" in refused.stderr
    assert standings_played(db) == before == {"Ann": 1, "Bob": 1}
    ok(db, "import", str(mat), "--again")
    assert standings_played(db) == {"Ann": 2, "Bob": 2}  # asked for: counted again


def test_a_different_match_between_the_same_players_is_not_refused(db: str, tmp_path: Path) -> None:
    mat = tmp_path / "m.mat"
    ok(db, "export", "m", "--format", "mat", "-o", str(mat))
    # The same match but for Ann's 6-5 played another way in game 3 (written as gnubg does).
    text = mat.read_text(encoding="utf-8")
    assert text.count("24/18 18/13") == 1
    mat.write_text(text.replace("24/18 18/13", "13/7 13/8"), encoding="utf-8")
    imported = ok(db, "import", str(mat), "--json")
    assert json.loads(imported)["match_id"].startswith("ann-bob-5p-")  # and the day it began


def _keys(path: Path) -> list[str | None]:
    found = matches_from_mat(read_mat_file(path), path.name, profile="online")
    return [content_key(one.match.pending) for one in found]


def test_real_matches_are_told_apart_and_their_copies_recognised() -> None:
    corpus = shared_matches()
    files = sorted(corpus.glob("*/*.mat"))
    sample = random.Random(14).sample(files, min(30, len(files)))
    keys: dict[str, Path] = {}
    for path in sample:
        (one,) = matches_from_mat(read_mat_file(path), path.name, profile="online")
        key = content_key(one.match.pending)
        assert key is not None and key not in keys, (path.name, keys.get(key or ""))
        keys[key] = path
        # gnubg's way of writing it back (another play notation, no tags of ours) is the same.
        (back,) = matches_from_mat(read_mat(export_mat(one.match.pending), name="x.mat"), "x.mat")
        assert content_key(back.match.pending) == key, path.name
    # The corpus holds one file twice, byte for byte but for the last newline.
    twins = [corpus / "online-2009" / f"snowie-{n}.mat" for n in (221, 223)]
    assert _keys(twins[0]) == _keys(twins[1])


def test_the_rulings_log_says_what_each_ruling_did_a_score_player_a_first(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ruled.db'}"
    with MatchStore(url) as ledger:
        record_ruled_match(ledger)  # ruling 30 set the score to 2-2; the committee overturned it
    lines = ok(url, "rulings").splitlines()
    by_number = {line.split()[2]: line for line in lines}  # date, time, 'm#30' ...
    assert by_number["m#30"].endswith("ScoreCorrected: score Ann 2, Bob 2: Bob says 2-2")
    assert by_number["m#7"].endswith(
        "PlaysReverted: play reverted (event 6): Bob played a 5 with 6-4"
    )
    assert by_number["m#31"].endswith("RulingOverturned: ruling 30 overturned: the score was 2-1")
