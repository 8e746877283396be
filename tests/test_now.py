"""What may happen now is one domain answer (issue 31, item 5).

:func:`bgledger.projections.state.situation.now` says, from the folded state, which commands
each party may issue now.  The property: for random matches, at every step, every line it
offers is accepted by the ledger, and every plain line of the table's verbs
(:data:`~bgledger.projections.state.allowed.TABLE_VERBS`) that it does not offer is refused.
The examples are the disagreements issue 31 found between the surfaces.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgledger.cli.main import main
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import VOCABULARY, parse
from bgledger.errors import BgLedgerError
from bgledger.projections.state.allowed import TABLE_VERBS
from bgledger.projections.state.fold import MatchState
from bgledger.projections.views.text import brief
from bgledger.service import Ledger
from tests.now_driver import dice, on_the_pad, play, walk

VERBS = {kind.verb for kind in VOCABULARY}


def plain_lines(state: MatchState, rng: random.Random) -> dict[str, list[str]]:
    """Each table verb's plain line(s), offered or not, keyed by the line the domain offers."""
    return {
        "opening": [f"opening {dice(rng)}"],
        "play-singles": ["play-singles"],
        "roll": [f"roll {dice(rng)}"],
        "move": [f"move {play(state, rng)}"],
        **{verb: [verb] for verb in ("double", "take", "drop", "accept", "reject")},
        **{verb: [verb] for verb in ("accept-roll", "refuse-roll", "hit", "break end")},
        **{f"resign {level}": [f"resign {level}"] for level in ("single", "gammon", "backgammon")},
        **{  # cube statements (issue 33): each player's, each kind
            f"announce {says} {p}": [f"announce {says} {p}"]
            for says in ("double", "pass")
            for p in ("a", "b")
        },
    }


def accepted(match: Match, line: str) -> bool:
    trial = copy.deepcopy(match)
    try:
        parse(line).run(trial, "kim", history=[])
    except BgLedgerError:
        return False
    return True


def test_the_plain_lines_cover_the_table_verbs() -> None:
    state = Match.start(match_uuid("p"), "p", ("Ann", "Bob"), 5, by="kim").state
    keys = plain_lines(state, random.Random(0))
    several = ("resign", "announce")  # a verb with a line for each level, statement, player
    assert {key.split()[0] if key.startswith(several) else key for key in keys} == set(TABLE_VERBS)
    assert set(TABLE_VERBS) <= VERBS


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    profile=st.sampled_from(["usbgf-2016", "usbgf-2017", "classic", "online"]),
    clocked=st.booleans(),
    length=st.integers(1, 5),
)
def test_what_is_offered_is_accepted_and_what_is_not_is_refused(
    seed: int, profile: str, clocked: bool, length: int
) -> None:
    for match, answer, offered, rng in walk(seed, profile, clocked, length, 80):
        state = match.state
        assert {a.verb for a in answer.allowed} <= VERBS, "every verb is the vocabulary's"
        lines = set(answer.lines())
        for key, tried in plain_lines(state, rng).items():
            for line in tried:
                assert accepted(match, line) == (key in lines), (
                    f"{line!r} {'offered' if key in lines else 'not offered'} at "
                    f"{brief(state)!r} ({state.phase.value}, {profile}, clocked {clocked})"
                )
        for line in offered:
            assert accepted(match, line), f"{line!r} offered at {brief(state)!r}, refused"
        for allowed in answer.allowed:  # the pad draws a control for each (pad.js: now.allowed)
            assert allowed.party == "director" or on_the_pad(allowed), allowed


# -- the disagreements of issue 31, each as a scorekeeper would meet it ------------------------


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'now.db'}"


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args])


def shown(db: str, match: str) -> tuple[str, dict[str, Any]]:
    """``show``'s status line (the last line under the board) and ``show --json``."""
    board = run(db, "show", match)
    assert board.exit_code == 0, board.output
    document = run(db, "show", match, "--json")
    assert document.exit_code == 0, document.output
    return board.output, json.loads(document.output)


def test_after_a_play_on_a_clock_the_status_line_names_the_hit_first(db: str) -> None:
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m",
               "--clock", "simple-delay").exit_code == 0  # fmt: skip
    for args in (("opening", "m", "3", "1"), ("move", "m", "8/5 6/5")):
        assert run(db, *args).exit_code == 0
    board, document = shown(db, "m")
    hit_first = "Ann hits the clock first (USBGF 4.1.8.1); then Bob is on roll"
    assert hit_first in board
    assert document["now"]["says"].startswith(hit_first)
    assert document["now"]["due"] == "a"
    offered = {(a["party"], a["line"]) for a in document["now"]["allowed"]}
    assert ("a", "hit") in offered and ("b", "roll") not in offered
    assert run(db, "roll", "m", "6", "4").exit_code == 1  # as the answer said: not yet
    take = run(db, "take", "m")  # a refusal's next step is the hit, too
    assert take.exit_code == 1
    assert "record Ann's clock hit first: `hit m`" in take.stderr


def test_after_a_double_and_a_take_on_a_clock_the_hit_is_named_first(db: str) -> None:
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m",
               "--clock", "simple-delay").exit_code == 0  # fmt: skip
    for args in (("opening", "m", "3", "1"), ("move", "m", "8/5 6/5"), ("hit", "m")):
        assert run(db, *args).exit_code == 0
    assert run(db, "double", "m").exit_code == 0
    board, document = shown(db, "m")
    assert "Bob hits the clock first (USBGF 4.1.8.1); then Bob has doubled to 2" in board
    assert "take" not in {a["line"] for a in document["now"]["allowed"]}
    for args in (("hit", "m"), ("take", "m")):
        assert run(db, *args).exit_code == 0
    board, document = shown(db, "m")
    assert "Ann hits the clock first (USBGF 4.1.8.1); then Bob is on roll, to roll" in board
    assert document["now"]["turn"] == "Ann to hit the clock"


def crawford_game(db: str, *clock: str) -> None:
    """Ann v Bob to 2: Bob doubles in game 1 and Ann drops (0-1); game 2 is the Crawford game
    (USBGF 4.4.6), Ann has opened it with 3-1 and played; with a clock, each turn hit."""
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "2", "--id", "m",
               *clock).exit_code == 0  # fmt: skip
    hit = [("hit", "m")] if clock else []
    game = [("opening", "m", "3", "1"), ("move", "m", "8/5 6/5"), *hit]
    for args in (*game, ("double", "m"), *hit, ("drop", "m"), *game):
        assert run(db, *args).exit_code == 0, args


def test_a_cube_voided_before_the_hit_leaves_the_hit_due(db: str) -> None:
    """Bob doubled in the Crawford game (as played), Ann took; the director voids the cube
    before Ann hits: Ann's time runs, and Ann hits before Bob rolls; every screen says so."""
    crawford_game(db, "--clock", "simple-delay")
    assert run(db, "double", "m", "--as-played").exit_code == 0
    doubled = json.loads(run(db, "show", "m", "--json").output)["events"]
    for args in (("hit", "m"), ("take", "m")):
        assert run(db, *args).exit_code == 0, args
    voided = run(db, "void-cube", "m", str(doubled), "--reason", "doubled in the Crawford game",
                 "--ruled-by", "director")  # fmt: skip
    assert voided.exit_code == 0, voided.output
    board, document = shown(db, "m")
    assert "Ann hits the clock first (USBGF 4.1.8.1); then Bob is on roll, to roll" in board
    assert document["now"]["due"] == "a"


def test_the_crawford_game_has_no_cube_on_every_surface(db: str) -> None:
    crawford_game(db)
    board, document = shown(db, "m")
    assert "no cube: Crawford game" in board
    assert document["now"]["cube"] == "no cube: Crawford game"
    assert "double" not in {a["line"] for a in document["now"]["allowed"]}


def test_a_row_kept_before_the_answer_was_in_the_summary_is_answered_all_the_same(
    tmp_path: Path,
) -> None:
    """A read-model row written by an earlier version has no ``now`` in its summary: the
    desk and the wall read the answer all the same (made again from the row's state)."""
    import sqlalchemy

    url = f"sqlite:///{tmp_path / 'old.db'}"
    ledger = Ledger(url)
    ledger.start(("Ann", "Bob"), 2, match_id="m", by="kim")
    for line in ("opening 3 1", "move 8/5 6/5", "double", "drop", "opening 3 1"):
        ledger.record_line("m", line, by="kim")
    assert ledger.matches()  # the read models caught up
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as connection:
        read = sqlalchemy.text("select summary from bgledger_rm_matches")
        (summary,) = connection.execute(read).one()
        old = json.loads(summary)
        del old["now"]
        connection.execute(
            sqlalchemy.text("update bgledger_rm_matches set summary = :s"), {"s": json.dumps(old)}
        )
    (row,) = ledger.matches()
    assert json.loads(row["summary"])["now"]["cube"] == "no cube: Crawford game"
    ledger.close()


def test_the_manual_shows_what_show_json_gives(db: str) -> None:
    """docs/now.md's example is a real document's ``now`` (Ann's hit due after her play)."""
    manual = (Path(__file__).parents[1] / "docs" / "now.md").read_text()
    example = json.loads("{" + manual.split("```json\n", 1)[1].split("```", 1)[0] + "}")["now"]
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m",
               "--clock", "simple-delay").exit_code == 0  # fmt: skip
    for args in (("opening", "m", "3", "1"), ("move", "m", "8/5 6/5")):
        assert run(db, *args).exit_code == 0
    _, document = shown(db, "m")
    answer = document["now"]
    assert {key: answer[key] for key in ("says", "turn", "cube", "due")} == {
        key: example[key] for key in ("says", "turn", "cube", "due")
    }
    for allowed in example["allowed"]:
        assert allowed in answer["allowed"]
    players = [a for a in example["allowed"] if a["party"] in ("a", "b")]
    assert [a for a in answer["allowed"] if a["party"] in ("a", "b")] == players
