"""The front door: a match driven through bgledger.Ledger.record, as an adapter does.

What a user notices holds: the score, the cube, whose turn it is, the events
each command recorded and their numbers; a refusal raises the library's own
error citing the rule and records nothing.
"""

from __future__ import annotations

import pytest

import bgledger
from bgledger import CubeActionRefusedError, Ledger, OutOfTurnError
from bgledger.commands.vocabulary import (
    CorrectScore,
    Double,
    Hit,
    Move,
    Opening,
    Revert,
    Roll,
    Take,
)
from bgledger.service import ClockHit, Recorded

AT = "2026-11-21T10:00:{:02d}+00:00"


@pytest.fixture
def ledger() -> Ledger:
    front = Ledger("sqlite:///:memory:")
    front.start(("Ann", "Bob"), 3, match_id="m", by="kim", clock="simple-delay", at=AT.format(0))
    return front


def kinds(done: Recorded[object]) -> list[str]:
    return [type(event).__name__ for event in done.events]


def test_the_package_is_the_front_door() -> None:
    assert bgledger.Ledger is Ledger
    assert issubclass(bgledger.MatchOverError, bgledger.ActionRefusedError)
    with pytest.raises(AttributeError):
        _ = bgledger.NoSuchThing  # type: ignore[attr-defined]


def test_a_game_through_command_values(ledger: Ledger) -> None:
    opened = ledger.record("m", Opening(3, 1), by="kim", at=AT.format(1))
    assert kinds(opened) == ["GameStarted", "OpeningRollMade", "ClockHit"]  # CLOCK 3.3
    assert opened.numbers == (3, 4, 5) and opened.state.turn == "a"

    moved = ledger.record("m", Move("8/5 6/5"), by="kim", at=AT.format(2))
    assert moved.numbers == (6,) and moved.result.legal and moved.state.turn == "b"

    hit = ledger.record("m", Hit(), by="kim", at=AT.format(3))
    assert isinstance(hit.result, ClockHit) and hit.result.player == "a"
    assert hit.numbers == (7,)

    doubled = ledger.record("m", Double(), by="kim", at=AT.format(4))
    assert kinds(doubled) == ["CubeOffered"] and doubled.state.offer == 2

    ledger.record("m", Hit(), by="kim", at=AT.format(4))  # the doubler hits (CLOCK 3.5)
    taken = ledger.record("m", Take(), by="kim", at=AT.format(5))
    assert (taken.state.cube, taken.state.cube_owner) == (2, "a")
    ledger.record("m", Hit(), by="kim", at=AT.format(5))  # and the taker hits back

    rolled = ledger.record("m", Roll(6, 5), by="kim", at=AT.format(6))
    assert rolled.numbers == (12,) and rolled.state.dice == (6, 5)
    assert rolled.to_json()["recorded"] == [12]

    shown = ledger.show("m").to_json()
    assert shown["cube"] == {"value": 2, "owner": "a", "offered": False}
    assert shown["turn"] == "b" and shown["events"] == 12


def test_a_refusal_cites_the_rule_and_records_nothing(ledger: Ledger) -> None:
    ledger.record("m", Opening(3, 1), by="kim", at=AT.format(1))
    before = ledger.events("m")
    with pytest.raises(OutOfTurnError) as refused:
        ledger.record("m", Take(), by="kim", at=AT.format(2))
    assert refused.value.rule is not None
    assert ledger.events("m") == before


def test_the_record_language_is_one_path(ledger: Ledger) -> None:
    ledger.record_line("m", "opening 5 2", by="kim", at=AT.format(1))
    done = ledger.record_line("m", "move 13/8 13/11", by="kim", at=AT.format(2))
    assert kinds(done) == ["CheckersPlayed"] and done.state.turn == "b"
    with pytest.raises(bgledger.RulesError):
        ledger.record_line("m", "fly away", by="kim")
    assert len(ledger.events("m")) == done.numbers[-1]


def test_a_ruling_and_the_score(ledger: Ledger) -> None:
    ledger.record("m", Opening(3, 1), by="kim", at=AT.format(1))
    played = ledger.record("m", Move("8/5", as_played=True), by="kim", at=AT.format(2))
    assert played.flagged == played.numbers == (6,)  # 5: Bob's hit with the opening roll

    ruled = ledger.record("m", Revert(6, reason="one die unused"), by="dir", at=AT.format(3))
    assert ruled.ruling is not None and list(ruled.ruling.voids) == [6]
    assert ruled.state.turn == "a" and ruled.state.dice == (3, 1)
    assert ledger.history("m", rulings_only=True)[0].number == ruled.numbers[0]

    scored = ledger.record(
        "m", CorrectScore(2, 0, reason="the sheet says 2-0"), by="dir", at=AT.format(4)
    )
    assert scored.state.score == (2, 0)


def test_the_cube_is_refused_in_the_crawford_game() -> None:
    ledger = Ledger("sqlite:///:memory:")
    ledger.start(("Ann", "Bob"), 3, match_id="c", by="kim", at=AT.format(0))
    ledger.record("c", CorrectScore(2, 0, reason="agreed"), by="dir", at=AT.format(1))
    ledger.record("c", Opening(3, 1), by="kim", at=AT.format(2))
    ledger.record("c", Move("8/5 6/5"), by="kim", at=AT.format(3))
    with pytest.raises(CubeActionRefusedError) as refused:
        ledger.record("c", Double(), by="kim", at=AT.format(4))
    assert "Crawford" in str(refused.value)
    assert ledger.state("c").cube == 1 and len(ledger.events("c")) == 5


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("hit a b", "'hit a b': expected hit [a|b]"),
        ("flag", "'flag': expected flag a|b [nominal M:SS]"),
        ("late a b", "'late a b': expected late a|b"),
        (
            "early-pickup",
            "'early-pickup': expected early-pickup a|b [--ruled-by WHO] [--reason TEXT]",
        ),
    ],
)
def test_a_clock_line_with_the_wrong_arguments_says_what_it_takes(
    ledger: Ledger, line: str, says: str
) -> None:
    before = ledger.events("m")
    with pytest.raises(bgledger.RulesError) as refused:
        ledger.record_line("m", line, by="kim", at=AT.format(1))
    assert str(refused.value) == says
    assert ledger.events("m") == before


def test_the_record_language_reads_roll_64_as_6_4(ledger: Ledger) -> None:
    ledger.record_line("m", "opening 3 1", by="kim", at=AT.format(1))
    ledger.record_line("m", "move 8/5 6/5", by="kim", at=AT.format(2))
    ledger.record_line("m", "hit", by="kim", at=AT.format(3))
    rolled = ledger.record_line("m", "roll 64", by="kim", at=AT.format(4))
    assert rolled.state.dice == (6, 4) and rolled.state.turn == "b"
    with pytest.raises(bgledger.RulesError, match=r"\(2 words after roll, 1 given\)"):
        ledger.record_line("m", "roll 7", by="kim")
