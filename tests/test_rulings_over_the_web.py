"""Rulings as lines of the record language, the director's picker, and who may post what.

The director's console rules by posting a line (``revert 6 --reason ...``) to
``POST /api/matches/M/lines``, as a pad posts ``roll 6 4``; the picker
(``GET /api/matches/M/rulings?event=N``) tries each ruling on a copy of the
match and says which windows are open.  A scorekeeper's token may record what
happened at the table, never the director's word: a ruling, penalty points
(USBGF 2.2.4: "assessed by the Tournament Director"), the clocks' times after a
faulty clock (USBGF 3.7.2).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from bgledger.cli.main import main
from bgledger.commands.language import InvalidActionError
from bgledger.commands.vocabulary import (
    Command,
    CorrectLength,
    CorrectScore,
    Overturn,
    Revert,
    parse,
)
from bgledger.service import Ledger
from tests.webclient import post

ILLEGAL = ["opening 3 1", "move 8/5 6/5", "roll 6 4", "move 24/13 --as-played"]
"""Bob's 24/13 with 6-4 is event 6: one checker 11 pips."""


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ledger.db'}"


@pytest.fixture
def ledger(db: str) -> Iterator[Ledger]:
    ledger = Ledger(db)
    ledger.start(("Ann", "Bob"), 5, match_id="final", event="Open", by="kim")
    for line in ILLEGAL:
        ledger.record_line("final", line, by="kim")
    yield ledger
    ledger.close()


def count(ledger: Ledger) -> int:
    return len(ledger.events("final"))


# -- the lines -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command", "ruler"),
    [
        ("revert 6 --reason one checker 11 pips",
         Revert(6, reason="one checker 11 pips"), "director"),
        ('revert 6 --rule "USBGF 4.2.3(f)" --agreed --reason late, both agree',
         Revert(6, reason="late, both agree", rule="USBGF 4.2.3(f)", agreed=True), "director"),
        ("overturn 7 --reason the committee disagrees",
         Overturn(7, reason="the committee disagrees"), "committee"),
        ("correct-score 3-2 --ruled-by players --reason we both had 3-2",
         CorrectScore(3, 2, reason="we both had 3-2", ruled_by="players"), "director"),
        ("correct-length 7 --reason the draw says 7",
         CorrectLength(7, reason="the draw says 7"), "director"),
    ],
)  # fmt: skip
def test_a_ruling_line_reads_as_the_command_lines_options(
    line: str, command: Command, ruler: str
) -> None:
    read = parse(line)
    assert read == command
    assert read.ruler == ruler  # whose token records it: the players' agreement, the director's
    assert read.ruling("kim").ruled_by == (command.ruled_by or ruler)  # type: ignore[attr-defined]
    assert parse(str(read)) == read


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("revert 6", "give --reason and its words: 'revert EVENT"),
        ("revert 6 --reason", "--reason needs the reason's words: 'revert EVENT"),
        ("revert --reason why", "revert EVENT"),
        ("revert six --reason why", "revert EVENT"),
        ("correct-score 3 --reason why", "correct-score A-B"),
        ("revert 6 --ruled-by king --reason why", "'king': one of director, committee, players"),
        ("revert 6 --rule --reason why", "--rule needs a value"),
        # the option escaped into a word, as a shell reads it (found by tests/test_fuzz_cli.py:
        # a traceback, ValueError "'--rule' is not in list")
        ("correct-call a \\ --rule a --reason a", "correct-call EVENT"),
        ("revert 6 '--rule a' --reason why", "revert EVENT"),
    ],
)
def test_a_ruling_line_that_names_nothing_is_refused_quoting_it(line: str, says: str) -> None:
    with pytest.raises(InvalidActionError) as refused:
        parse(line)
    assert repr(line) in str(refused.value)
    assert says in str(refused.value)


def test_a_ruling_line_records_what_the_command_line_records(db: str, ledger: Ledger) -> None:
    ledger.start(("Ann", "Bob"), 5, match_id="twin", event="Open", by="kim")
    for line in ILLEGAL:
        ledger.record_line("twin", line, by="kim")
    said = ["--rule", "USBGF 4.2.3(a)", "--reason", "one checker 11 pips", "--by", "dee"]
    ran = CliRunner().invoke(
        main, ["--db", db, "revert", "twin", "6", "--ruled-by", "director", *said]
    )
    assert ran.exit_code == 0, ran.output
    done = ledger.record_line(
        "final", "revert 6 --rule 'USBGF 4.2.3(a)' --reason one checker 11 pips", by="dee"
    )
    assert done.numbers == (7,)
    by_line, by_cli = ledger.history("final")[-1], ledger.history("twin")[-1]
    assert by_line.text == by_cli.text
    assert "USBGF 4.2.3(a), director" in by_line.text
    assert "Bob's illegal play 24/13 taken back" in by_line.text
    assert ledger.state("final").turn == "b"


# -- the picker ---------------------------------------------------------------------------


def test_the_picker_offers_the_window_that_is_open_and_records_nothing(ledger: Ledger) -> None:
    before = count(ledger)
    (revert,) = ledger.open_rulings("final", 6)
    assert revert.open
    assert (revert.verb, revert.rule, revert.ruled_by) == ("revert", "USBGF 4.2.3(a)", "director")
    assert revert.line == "revert 6 --rule 'USBGF 4.2.3(a)'"
    assert (
        revert.effect == "event 6 void: Bob's illegal play 24/13 taken back, Bob to play 6-4 again"
    )
    assert any("does not conform to the rules of backgammon" in q for q in revert.rule_text)
    assert count(ledger) == before


def test_once_the_opponent_rolls_only_the_agreed_correction_is_open(ledger: Ledger) -> None:
    ledger.record_line("final", "roll 5 2", by="kim")  # Ann's next valid roll: 4.2.3(a) closes
    (revert,) = ledger.open_rulings("final", 6)
    assert revert.open and revert.agreed
    assert revert.rule == "USBGF 4.2.3(f)"
    assert revert.line == "revert 6 --rule 'USBGF 4.2.3(f)' --agreed"
    assert revert.effect.startswith("events 6-7 void")


def test_a_legal_play_is_closed_with_why_and_a_roll_offers_nothing(ledger: Ledger) -> None:
    (legal,) = ledger.open_rulings("final", 4)
    assert not legal.open
    assert legal.effect == "event 4 is a legal play: nothing to correct"
    assert ledger.open_rulings("final", 5) == ()  # a roll: no ruling applies to it


def test_a_ruling_made_is_offered_to_the_committee_to_overturn(ledger: Ledger) -> None:
    done = ledger.record_line("final", "revert 6 --reason one checker 11 pips", by="dee")
    (overturn,) = ledger.open_rulings("final", done.numbers[0])
    assert overturn.open and overturn.ruled_by == "committee"
    assert overturn.line == f"overturn {done.numbers[0]} --rule 'USBGF 5.2'"
    assert "events 6 back in force" in overturn.effect or "event 6 back in force" in overturn.effect


def test_the_picker_over_the_api(client: TestClient, ledger: Ledger) -> None:
    got = client.get("/api/matches/final/rulings?event=6")
    assert got.status_code == 200
    document = got.json()
    assert (document["match"], document["event"], document["closed"]) == ("final", 6, [])
    (row,) = document["open"]
    assert row["line"] == "revert 6 --rule 'USBGF 4.2.3(a)'"
    assert row["rule"] == "USBGF 4.2.3(a)" and row["rule_text"]
    assert client.get("/api/matches/final/rulings?event=4").json()["closed"][0]["verb"] == "revert"


@pytest.mark.parametrize(
    ("path", "status", "says"),
    [
        ("/api/matches/final/rulings", 400, "event=None"),
        ("/api/matches/final/rulings?event=six", 400, "event='six'"),
        ("/api/matches/final/rulings?event=99", 400, "event 99: match 'final' has events 1-6"),
        ("/api/matches/nope/rulings?event=1", 404, "nope"),
    ],
)
def test_the_picker_asked_badly(client: TestClient, path: str, status: int, says: str) -> None:
    got = client.get(path)
    assert got.status_code == status
    assert says in got.json()["error"]


# -- who may post what ----------------------------------------------------------------------


def test_the_pickers_line_posted_by_the_director_rules(client: TestClient, ledger: Ledger) -> None:
    director = ledger.issue_token("director", event="Open", label="Dee (TD)")
    line = client.get("/api/matches/final/rulings?event=6").json()["open"][0]["line"]
    done = post(client, "final", f"{line} --reason one checker 11 pips", director)
    assert done.status_code == 201, done.json()
    (recorded,) = done.json()["recorded"]
    assert recorded["by"] == "Dee (TD)" and recorded["kind"] == "PlaysReverted"
    assert ledger.rulings("Open")[0]["rule"] == "USBGF 4.2.3(a)"


def test_a_ruling_refused_by_its_window_is_409_and_records_nothing(
    client: TestClient, ledger: Ledger
) -> None:
    director = ledger.issue_token("director", event="Open")
    ledger.record_line("final", "roll 5 2", by="kim")
    before = count(ledger)
    refused = post(client, "final", "revert 6 --rule 'USBGF 4.2.3(a)' --reason too late", director)
    assert refused.status_code == 409
    assert refused.json()["rule"] == "USBGF 4.2.3(a)"
    assert count(ledger) == before


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("revert 6 --reason I saw it", ""),
        ('penalty a 1 "USBGF 2.2.4" left the table', " (USBGF 2.2.4)"),
        ("late b", " (USBGF 2.2.4)"),
        ("clock set a=10:00 b=10:00 replaced the clock", " (USBGF 3.7.2)"),
    ],
)
def test_a_scorekeepers_token_cannot_post_the_directors_word(
    client: TestClient, ledger: Ledger, line: str, rule: str
) -> None:
    pad = ledger.issue_token("scorekeeper", match_id="final", label="kim")
    before = count(ledger)
    refused = post(client, "final", line, pad)
    assert refused.status_code == 403
    assert (
        f"is the director's{rule}: this token (kim) is a scorekeeper's" in refused.json()["error"]
    )
    assert count(ledger) == before


def test_only_the_committee_overturns(client: TestClient, ledger: Ledger) -> None:
    director = ledger.issue_token("director", event="Open")
    committee = ledger.issue_token("committee", label="appeals")
    ruled = post(client, "final", "revert 6 --reason one checker 11 pips", director).json()
    number = ruled["recorded"][0]["number"]
    assert post(client, "final", f"overturn {number} --reason no", director).status_code == 403
    overturned = post(client, "final", f"overturn {number} --reason the play stands", committee)
    assert overturned.status_code == 201
    assert ledger.state("final", corrected=True).turn == "a"  # 24/13 stands: Ann on roll


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("revert 6 --reason Bob's 24/13, see table #4's sheet", "see table #4's sheet"),
        ("note table #4 moved to the bar", "table #4 moved to the bar"),
        ("note Ann asked for the director  # typed by kim", "Ann asked for the director"),
    ],
)
def test_a_hash_inside_a_word_is_kept_and_a_comment_is_not(
    client: TestClient, ledger: Ledger, line: str, kept: str
) -> None:
    director = ledger.issue_token("director", event="Open")
    done = post(client, "final", line, director)
    assert done.status_code == 201, done.json()
    text = ledger.history("final")[-1].text
    assert kept in text
    assert "typed by kim" not in text
