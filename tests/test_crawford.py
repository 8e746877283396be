"""Who is one point away, and so which game is the Crawford game (USBGF 4.4.6).

One helper decides it (:func:`bgledger.projections.state.model.one_point_away`)
for every way a match can come to a score: started at it, imported from a
``.mat`` file, its length or its score corrected by a ruling, a game or
penalty points scored.  The case the copies it replaced disagreed on is 0-0
of a 1-point match: nobody has become one point away there, so its game is
not the Crawford game, as GNU Backgammon reads it too.
"""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.commands.match import Match, match_uuid
from bgledger.errors import InvalidMatchSetupError
from bgledger.projections.state import model
from bgledger.projections.state.model import Crawford, crawford_status, one_point_away
from bgledger.rules.ids import MatchId
from tests.gnubg_oracle import debian_gnubg, start_gnubg

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures" / "matches"
ONE_POINTERS = ("online-2009/snowie-018.mat", "online-2009/snowie-106.mat")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'crawford.db'}"


def ok(db: str, *args: str) -> Result:
    result = CliRunner().invoke(main, ["--db", db, *args])
    assert result.exit_code == 0, (args, result.output)
    return result


def shown(db: str, match_id: str, *extra: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(ok(db, "show", match_id, *extra, "--json").stdout)
    return document


def started(db: str, length: int, *extra: str) -> None:
    ok(db, "start", "--a", "Ann", "--b", "Bob", "--length", str(length), "--id", "m", *extra)


RULING = ("--ruled-by", "director", "--reason", "the draw sheet says so")


# -- the helper ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "score", "away"),
    [
        (1, (0, 0), False),  # nobody has scored his way to one away
        (3, (2, 0), True),
        (3, (0, 2), True),
        (3, (2, 2), True),
        (3, (1, 1), False),
        (3, (3, 2), False),  # the match is won
        (5, (4, 3), True),
        (5, (0, 0), False),
    ],
)
def test_one_point_away(length: int, score: tuple[int, int], away: bool) -> None:
    assert one_point_away(length, score) is away
    expected = Crawford.CRAWFORD if away else Crawford.PRE
    assert crawford_status(True, length, score) is expected
    assert crawford_status(False, length, score) is Crawford.PRE


def test_the_helpers_examples() -> None:
    result = doctest.testmod(model)
    assert result.attempted > 0 and result.failed == 0


# -- 0-0 of a 1-point match, by every way in -------------------------------------------------


def test_a_1_point_match_starts_pre_crawford(db: str) -> None:
    started(db, 1)
    state = shown(db, "m")
    assert state["crawford"] == "pre"
    assert MatchId.decode(state["match_id_gnubg"]).crawford is False


def test_a_1_point_match_cannot_start_as_the_crawford_game() -> None:
    with pytest.raises(InvalidMatchSetupError, match="only when a player is one point away"):
        Match.start(match_uuid("m"), "m", ("Ann", "Bob"), 1, by="kim", crawford_status="crawford")
    at_two_love = Match.start(match_uuid("m"), "m", ("Ann", "Bob"), 3, by="kim", score=(2, 0))
    assert at_two_love.state.crawford is Crawford.CRAWFORD


def test_a_length_corrected_to_1_at_0_0_is_pre_crawford(db: str) -> None:
    started(db, 3)
    said = ok(db, "correct-length", "m", "1", *RULING).stdout
    assert "RULING (USBGF 4.8.5, director): the match is 1 point; reason:" in said
    state = shown(db, "m")
    assert (state["length"], state["crawford"]) == (1, "pre")
    ok(db, "opening", "m", "3", "1")
    assert MatchId.decode(shown(db, "m")["match_id_gnubg"]).crawford is False


def test_a_score_corrected_to_0_0_of_1_point_is_pre_crawford(db: str) -> None:
    started(db, 1)
    ok(db, "correct-score", "m", "0", "0", *RULING)
    assert shown(db, "m")["crawford"] == "pre"


def test_a_length_corrected_to_one_away_is_the_crawford_game(db: str) -> None:
    started(db, 5)
    ok(db, "correct-score", "m", "2", "0", *RULING)
    assert shown(db, "m")["crawford"] == "pre"
    ok(db, "correct-length", "m", "3", *RULING)
    assert shown(db, "m")["crawford"] == "crawford"


def test_a_score_corrected_to_one_away_is_the_crawford_game(db: str) -> None:
    started(db, 3)
    ok(db, "correct-score", "m", "2", "0", *RULING)
    assert shown(db, "m")["crawford"] == "crawford"


needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")


@needs_corpus
@pytest.mark.parametrize("name", ONE_POINTERS)
def test_an_imported_1_point_match_plays_no_crawford_game(db: str, name: str) -> None:
    ok(db, "import", str(CORPUS / name))
    match_id = json.loads(ok(db, "list", "--json").stdout)["matches"][0]["match_id"]
    first_game = shown(db, match_id, "--at", "3")
    assert (first_game["length"], first_game["score"]) == (1, {"a": 0, "b": 0})
    assert first_game["crawford"] == "pre"
    assert MatchId.decode(first_game["match_id_gnubg"]).crawford is False
    gnubg = next(
        json.loads(line)
        for line in (CORPUS / "expected-gnubg.jsonl").read_text().splitlines()
        if json.loads(line)["file"] == name
    )
    assert [game["crawford"] for game in gnubg["games"]] == [False]


_GNUBG_SCRIPT = """
import gnubg, os
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("new match 1")
started = gnubg.matchid()
gnubg.command("set score 0 0")
with open(os.environ["BGLEDGER_ORACLE_OUT"], "w") as out:
    out.write(started + " " + gnubg.matchid())
"""


@pytest.mark.skipif(debian_gnubg() is None, reason="Debian's gnubg is not installed")
def test_gnubg_starts_a_1_point_match_without_the_crawford_game(tmp_path: Path) -> None:
    program = debian_gnubg()
    assert program is not None
    script, out = tmp_path / "one.py", tmp_path / "out.txt"
    script.write_text(_GNUBG_SCRIPT)
    proc = start_gnubg(program, script, tmp_path / "home", {"BGLEDGER_ORACLE_OUT": str(out)})
    proc.communicate(timeout=120)
    ids = [MatchId.decode(text) for text in out.read_text().split()]
    assert [(m.match_length, m.score, m.crawford) for m in ids] == [(1, (0, 0), False)] * 2
