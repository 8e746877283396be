"""Rulings from the command line: what a director types, what the ledger answers.

Every match here is recorded through the CLI; the expected boards, pips,
events and wordings are worked out by hand from the moves.  Ann is player a,
Bob player b; the starting position has 167 pips a side and the gnubg
position id ``4HPwATDgc/ABMA``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main

START = "4HPwATDgc/ABMA"
REASON = "Ann moved a 5 and a 3 with 5-2"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rulings.db'}"


def run(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def ok(db: str, *args: str, stdin: str | None = None) -> Result:
    result = run(db, *args, stdin=stdin)
    assert result.exit_code == 0, (args, result.output)
    return result


def as_json(db: str, *args: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(ok(db, *args, "--json").stdout)
    return document


def show(db: str, *extra: str) -> dict[str, Any]:
    return as_json(db, "show", "m", *extra)


def recorded(db: str, lines: str, length: int = 5) -> None:
    """Match ``m``, Ann v Bob, ``length`` points, with ``lines`` recorded by ``record``."""
    ok(db, "start", "--a", "Ann", "--b", "Bob", "--length", str(length), "--id", "m")
    ok(db, "record", "m", stdin=lines)


# Events: 1 MatchStarted, 2 GameStarted, 3 opening 5-2 (Ann first), 4 Ann's illegal 13/8 13/10.
ILLEGAL = "opening 5 2\nmove 13/8 13/10 --as-played\n"


def revert_4(db: str, *extra: str) -> Result:
    return run(db, "revert", "m", "4", "--ruled-by", "director", "--reason", REASON, *extra)


def test_a_revert_puts_the_dice_back_and_says_what_it_voided(db: str) -> None:
    recorded(db, ILLEGAL)
    assert show(db)["pips"] == {"a": 159, "b": 167}  # 13/8 13/10 moved 5 + 3 pips
    reverted = revert_4(db)
    assert reverted.exit_code == 0, reverted.output
    assert "event 4 void" in reverted.stdout
    assert "Ann's illegal play 13/10 13/8 taken back, Ann to play 5-2 again" in reverted.stdout
    state = show(db)
    assert state["turn"] == "a" and state["dice"] == [5, 2]
    assert state["board"] == START and state["pips"] == {"a": 167, "b": 167}
    assert state["flagged"] == [] and state["events"] == 5
    assert state["rulings"] == [
        {
            "number": 5,
            "rule": "USBGF 4.2.3(a)",
            "ruled_by": "director",
            "reason": REASON,
            "agreed": False,
        }
    ]
    ok(db, "move", "m", "13/8 13/11")  # the legal play for 5-2 is accepted now
    assert show(db)["turn"] == "b" and show(db)["pips"] == {"a": 160, "b": 167}


def test_a_ruling_prints_json_with_the_ruling_and_what_it_voided(db: str) -> None:
    recorded(db, ILLEGAL)
    document = json.loads(revert_4(db, "--json").stdout)
    assert document["recorded"] == [5]
    [ruling] = document["entries"]  # as history --json gives it
    assert ruling["number"] == 5 and ruling["kind"] == "PlaysReverted"
    assert ruling["voids"] == [4] and ruling["restores"] == [] and ruling["in_force"] is True
    assert ruling["rule"] == "USBGF 4.2.3(a)" and ruling["ruled_by"] == "director"
    assert ruling["text"].startswith("RULING (USBGF 4.2.3(a), director): event 4 void")
    assert document["turn"] == "a" and document["dice"] == [5, 2]


def test_history_marks_the_voided_play_and_describes_the_ruling(db: str) -> None:
    recorded(db, ILLEGAL)
    revert_4(db)
    lines = ok(db, "history", "m").stdout.splitlines()
    assert lines[0] == (
        "marks: '!' illegal, recorded as played · 'x' not in force (voided by a ruling, or "
        "withdrawn or amended) · 'R' a ruling · 'C' a recording error corrected"
    )
    assert lines[1] == "times in UTC, the zone the match started in"
    assert lines[3:5] == ["", "game 1 · Ann 0, Bob 0"]  # event 1 comes before the first game
    assert len(lines) == 9 and [line.split()[0] for line in lines[5:]] == ["2", "3", "4", "5"]
    assert " x " in lines[7] and lines[7].endswith("[voided by ruling 5]")
    assert "ILLEGAL: Ann played 13/10 13/8" in lines[7]
    assert "RULING (USBGF 4.2.3(a), director): event 4 void" in lines[8]
    assert lines[8].endswith(f"reason: {REASON}")
    events = as_json(db, "history", "m")["events"]
    assert [e["voided_by"] for e in events] == [None, None, None, 5, None]
    ruling = events[4]
    assert ruling["kind"] == "PlaysReverted" and ruling["rule"] == "USBGF 4.2.3(a)"
    assert ruling["ruled_by"] == "director" and ruling["reason"] == REASON
    assert ruling["voids"] == [4] and ruling["restores"] == [] and ruling["in_force"] is True
    assert "ruled_by" not in events[3]


def test_show_at_an_event_as_recorded_and_as_corrected(db: str) -> None:
    recorded(db, ILLEGAL)
    revert_4(db)
    as_recorded = show(db, "--at", "4")
    assert as_recorded["pips"] == {"a": 159, "b": 167} and as_recorded["turn"] == "b"
    assert as_recorded["flagged"] == [4] and as_recorded["rulings"] == []
    assert as_recorded["view"] == "recorded"
    fixed = show(db, "--at", "4", "--corrected")
    assert fixed["board"] == START and fixed["turn"] == "a" and fixed["dice"] == [5, 2]
    assert fixed["view"] == "corrected" and [r["number"] for r in fixed["rulings"]] == [5]
    assert "as recorded after event 4" in ok(db, "show", "m", "--at", "4").stdout
    text = ok(db, "show", "m", "--at", "4", "--corrected").stdout
    assert "as corrected, after event 4" in text and "Ann has rolled 5-2" in text
    assert "rulings in force:" in text and f"5  USBGF 4.2.3(a), director: {REASON}" in text
    assert run(db, "show", "m", "--at", "9", "--corrected").exit_code == 2


def test_a_revert_after_the_opponent_rolled_needs_the_directors_approval(db: str) -> None:
    recorded(db, ILLEGAL + "roll 6 5\n")  # event 5: Bob rolls 6-5, closing 4.2.3(a)'s window
    refused = revert_4(db)
    assert refused.exit_code == 1
    assert "USBGF 4.2.3(a)" in refused.stderr and "Bob rolled 6-5 at event 5" in refused.stderr
    by_players = revert_4(db, "--agreed", "--ruled-by", "players")
    assert by_players.exit_code == 1 and "4.2.3(f)" in by_players.stderr
    assert show(db)["events"] == 5
    agreed = json.loads(revert_4(db, "--agreed", "--json").stdout)
    assert agreed["recorded"] == [6] and agreed["entries"][0]["voids"] == [4, 5]
    assert agreed["turn"] == "a" and agreed["dice"] == [5, 2] and agreed["board"] == START
    ruling = as_json(db, "history", "m")["events"][5]
    assert ruling["rule"] == "USBGF 4.2.3(f)" and ruling["agreed"] is True
    assert "RULING (USBGF 4.2.3(f), director, players agreed)" in ruling["text"]


def test_revert_under_4_2_3_c_the_remedy_within_a_s_window(db: str) -> None:
    # USBGF 4.2.3(c): "If the Players agree on the facts concerning an illegal move detected in
    # time for correction, then the illegal move and all subsequent game actions shall be
    # undone. [...] and the player shall then make a legal play."  "In time" is (a)'s window:
    # "before the offending player's opponent has completed a valid roll for his next turn".
    recorded(db, ILLEGAL)
    reverted = revert_4(db, "--rule", "USBGF 4.2.3(c)")
    assert reverted.exit_code == 0, reverted.output
    state = show(db)
    assert state["turn"] == "a" and state["dice"] == [5, 2] and state["board"] == START
    # The ruling is recorded under the window that made it timely: 4.2.3(a).
    assert [r["rule"] for r in state["rulings"]] == ["USBGF 4.2.3(a)"]


def test_revert_under_4_2_3_c_after_a_s_window_needs_f_and_says_so(db: str) -> None:
    recorded(db, ILLEGAL + "roll 6 5\n")  # Bob's valid roll closes (a)'s window
    refused = revert_4(db, "--rule", "USBGF 4.2.3(c)")
    assert refused.exit_code == 1
    assert "USBGF 4.2.3(a): Bob rolled 6-5 at event 5 closed it" in refused.stderr
    assert "USBGF 4.2.3(f): only with the director's approval" in refused.stderr
    agreed = json.loads(revert_4(db, "--rule", "USBGF 4.2.3(c)", "--agreed", "--json").stdout)
    assert agreed["entries"][0]["voids"] == [4, 5] and agreed["dice"] == [5, 2]
    assert agreed["entries"][0]["rule"] == "USBGF 4.2.3(f)"


def test_a_rule_that_corrects_no_play_names_those_that_do(db: str) -> None:
    recorded(db, ILLEGAL)
    refused = revert_4(db, "--rule", "USBGF 4.2.3(b)")
    assert refused.exit_code == 1
    assert (
        "USBGF 4.2.3(b) does not correct event 4 under usbgf-2016: "
        "USBGF 4.2.3(a), USBGF 4.2.3(c), USBGF 4.2.3(f) may"
    ) in refused.stderr
    assert show(db)["events"] == 4


def test_only_a_committee_overturns_and_the_match_is_back_as_recorded(db: str) -> None:
    recorded(db, ILLEGAL)
    before = show(db)
    revert_4(db)
    by_director = run(db, "overturn", "m", "5", "--ruled-by", "director", "--reason", "appeal")
    assert by_director.exit_code == 1 and "USBGF 5.2" in by_director.stderr
    assert show(db)["events"] == 5
    appeal = ["--ruled-by", "committee", "--reason", "13/10 13/8 was not contested in time"]
    overturned = json.loads(ok(db, "overturn", "m", "5", *appeal, "--json").stdout)
    assert overturned["recorded"] == [6]
    [appealed] = overturned["entries"]
    assert appealed["kind"] == "RulingOverturned" and appealed["ruled_by"] == "committee"
    assert appealed["voids"] == [5] and appealed["restores"] == [4]
    assert "event 5 void, event 4 back in force" in appealed["text"]
    after = show(db)
    for key in ("board", "turn", "dice", "cube", "score", "pips", "flagged", "phase"):
        assert after[key] == before[key], key
    assert after["events"] == 6 and [r["number"] for r in after["rulings"]] == [6]
    listing = ok(db, "history", "m", "--rulings").stdout.splitlines()
    assert len(listing) == 2
    assert "[overturned by ruling 6]" in listing[0] and "RULING (USBGF 4.2.3(a)" in listing[0]
    assert "[in force]" in listing[1]
    assert "event 5 void, event 4 back in force: ruling 5 overturned on appeal" in listing[1]
    rulings = as_json(db, "history", "m", "--rulings")["rulings"]
    assert [(r["number"], r["in_force"], r["voided_by"]) for r in rulings] == [
        (5, False, 6),
        (6, True, None),
    ]
    assert run(db, "overturn", "m", "4", *appeal).exit_code == 2  # event 4 is not a ruling


def test_score_and_length_corrections_show_in_the_state(db: str) -> None:
    recorded(db, "")
    ok(db, "correct-score", "m", "2-1", "--ruled-by", "director", "--reason", "sheet: 2-1")
    assert show(db)["score"] == {"a": 2, "b": 1}
    ok(db, "correct-score", "m", "3", "1", "--ruled-by", "director", "--reason", "recount")
    assert show(db)["score"] == {"a": 3, "b": 1}
    for bad in (("5-1",), ("x",), ("1", "2", "3")):  # 5 is past a 5-point match
        wrong = run(db, "correct-score", "m", *bad, "--ruled-by", "director", "--reason", "r")
        assert wrong.exit_code == 2, bad
    set_up = ok(db, "correct-length", "m", "7", "--ruled-by", "director", "--reason", "a 7")
    assert "the match is 7 points; reason: a 7" in set_up.stdout
    assert show(db)["length"] == 7 and show(db)["next_length"] is None  # no game yet: now
    ok(db, "opening", "m", "3", "1")
    ok(db, "correct-length", "m", "9", "--ruled-by", "director", "--reason", "a 9")
    assert show(db)["length"] == 7 and show(db)["next_length"] == 9  # mid-game: from the next
    assert "the match is 9 points from the next game" in ok(db, "show", "m").stdout


def test_a_note_is_in_the_history_and_changes_nothing(db: str) -> None:
    recorded(db, "opening 3 1\n")
    before = show(db)
    noted = ok(db, "note", "m", "Bob warned for slow play", "--ruled-by", "director")
    assert "RULING (director): noted for the record; reason: Bob warned for slow play" in (
        noted.stdout
    )
    after = show(db)
    assert {k: v for k, v in after.items() if k not in ("events", "rulings")} == {
        k: v for k, v in before.items() if k not in ("events", "rulings")
    }
    last = ok(db, "history", "m").stdout.splitlines()[-1]
    assert last.startswith("    4 R ") and "Bob warned for slow play" in last
    cited = ["--rule", "USBGF 3.5.6", "--ruled-by", "director"]
    ok(db, "note", "m", "clock warning", *cited)
    assert "RULING (USBGF 3.5.6, director)" in ok(db, "history", "m").stdout


def test_a_double_to_the_wrong_level_is_corrected_after_the_take(db: str) -> None:
    # 3 opening 3-1 (Ann), 4 Ann 8/5 6/5, 5 Bob doubles to 4 (should be 2), 6 Ann takes.
    recorded(db, "opening 3 1\nmove 8/5 6/5\n")
    refused = run(db, "double", "m", "--to", "4")
    assert refused.exit_code == 1 and "USBGF 4.4.8" in refused.stderr
    ok(db, "double", "m", "--to", "4", "--as-played")
    ok(db, "take", "m")
    assert show(db)["cube"] == {"value": 4, "owner": "a", "offered": False}
    fixed = ok(db, "correct-cube", "m", "5", "--ruled-by", "director", "--reason", "1 to 2")
    assert "Bob's double to 4 (event 5) stands at 2" in fixed.stdout
    assert show(db)["cube"] == {"value": 2, "owner": "a", "offered": False}
    right = run(db, "correct-cube", "m", "4", "--ruled-by", "director", "--reason", "r")
    assert right.exit_code == 2  # event 4 is a play, not a double


def one_point_dead_double(db: str, answer: str) -> None:
    """1-point match: Bob's double (event 5) is dead, USBGF 4.4.9; Ann answers at event 6."""
    recorded(db, f"opening 3 1\nmove 8/5 6/5\ndouble --as-played\n{answer}\n", length=1)


def test_a_taken_dead_double_is_voided(db: str) -> None:
    one_point_dead_double(db, "take")
    voided = as_json(db, "void-cube", "m", "5", "--ruled-by", "director", "--reason", "dead cube")
    assert voided["recorded"] == [7] and voided["entries"][0]["voids"] == [5, 6]
    assert "Bob's double to 2 (event 5) and its take are void" in voided["entries"][0]["text"]
    assert voided["cube"] == {"value": 1, "owner": None, "offered": False}
    assert voided["turn"] == "b" and voided["phase"] == "roll"


def test_a_passed_dead_double_is_nullified_and_the_match_resumes(db: str) -> None:
    one_point_dead_double(db, "drop")  # 7 Bob wins game 1, 8 Bob wins the match
    assert show(db)["winner"] == "b"
    wrong = run(db, "void-cube", "m", "5", "--ruled-by", "director", "--reason", "dead")
    assert wrong.exit_code == 1 and "nullify the pass" in wrong.stderr
    nullified = as_json(
        db, "nullify-pass", "m", "5", "--ruled-by", "director", "--reason", "dead cube"
    )
    assert nullified["entries"][0]["voids"] == [5, 6, 7, 8] and nullified["winner"] is None
    assert (
        "Bob's double to 2 (event 5) and its pass are nullified" in nullified["entries"][0]["text"]
    )
    assert nullified["score"] == {"a": 0, "b": 0} and nullified["turn"] == "b"
    assert nullified["games"] == []


def test_bad_rulings_exit_2_refused_ones_exit_1_and_nothing_is_recorded(db: str) -> None:
    recorded(db, "opening 3 1\nmove 8/5 6/5\n")
    for args, code in [
        (("revert", "m", "4", "--reason", "r"), 1),  # no --ruled-by: the director's, as the line
        (("revert", "m", "4", "--ruled-by", "director"), 2),  # no --reason
        (("revert", "m", "4", "--ruled-by", "director", "--reason", "  "), 2),
        (("revert", "m", "4", "--ruled-by", "umpire", "--reason", "r"), 2),
        (("revert", "m", "3", "--ruled-by", "director", "--reason", "r"), 2),  # not a play
        (("revert", "m", "99", "--ruled-by", "director", "--reason", "r"), 2),
        (("revert", "nosuch", "4", "--ruled-by", "director", "--reason", "r"), 2),
        (("revert", "m", "4", "--ruled-by", "director", "--reason", "r"), 1),  # legal play
    ]:
        result = run(db, *args)
        assert result.exit_code == code, (args, result.output)
        assert "Traceback" not in result.output
    assert show(db)["events"] == 4


def test_every_ruling_command_has_help_with_the_shared_options() -> None:
    for name in (
        "revert",
        "void-cube",
        "nullify-pass",
        "correct-cube",
        "correct-length",
        "correct-score",
        "note",
        "overturn",
        "replay",
    ):
        result = CliRunner().invoke(main, [name, "--help"])
        assert result.exit_code == 0, name
        if name != "replay":
            for option in ("--rule", "--ruled-by", "--agreed", "--by", "--at", "--json"):
                assert option in result.output, (name, option)
    assert "--reason" not in CliRunner().invoke(main, ["note", "--help"]).output
    assert "--to" in CliRunner().invoke(main, ["double", "--help"]).output
