"""Who may issue what, through the API: the role x verb table as data, one test per cell.

DESIGN principle 10: the role is checked on the command itself, on the command
inside an ``amend`` and on the entry an ``undo`` or ``amend`` takes out of
force.  :data:`LOWEST` says, for every verb of the vocabulary, the lowest role
whose token may post it; it is written out here, not read from the commands
(``Command.ruler``), so a verb that changes hands fails a test.  A refusal is
403, names the verb and the token's role, and records nothing; an allowed line
may still be refused by the rules of the game (409, 400), never 403.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bgledger.commands.vocabulary import VOCABULARY, parse
from bgledger.service import Ledger
from bgledger.web import create_app
from tests.webclient import post, reading

ROLES = ("scorekeeper", "director", "committee")

LOWEST: dict[str, tuple[str, str]] = {
    # verb (the class's): (a line of it, the lowest role that may post it)
    "Opening": ("opening 5 2", "scorekeeper"),
    "Roll": ("roll 6 4", "scorekeeper"),
    "RollMove": ("64: 24/18 13/9", "scorekeeper"),
    "Move": ("move 13/8 13/11", "scorekeeper"),
    "VoidRoll": ("void-roll cocked", "scorekeeper"),
    "Double": ("double", "scorekeeper"),
    "Announce": ("announce double a", "scorekeeper"),
    "Take": ("take", "scorekeeper"),
    "Drop": ("drop", "scorekeeper"),
    "Beaver": ("beaver --as-played", "scorekeeper"),
    "AutomaticDouble": ("automatic-double --as-played", "scorekeeper"),
    "Resign": ("resign gammon", "scorekeeper"),
    "PlaySingles": ("play-singles", "scorekeeper"),
    "Accept": ("accept", "scorekeeper"),
    "Reject": ("reject", "scorekeeper"),
    "AcceptRoll": ("accept-roll", "scorekeeper"),
    "RefuseRoll": ("refuse-roll", "scorekeeper"),
    "Setup": ("setup 4HPwATDgc/ABMA", "scorekeeper"),
    "Note": ("note Bob asked for the director", "scorekeeper"),
    "Hit": ("hit", "scorekeeper"),
    "ClockStart": ("clock start simple-delay", "scorekeeper"),
    "ClockStop": ("clock stop dispute", "scorekeeper"),
    "ClockResume": ("clock resume", "scorekeeper"),
    "ClockRead": ("clock read a=9:12 b=8:40", "scorekeeper"),
    "ClockSetting": ("clock set a=0:01 b=10:00 clock knocked over", "director"),
    "Flag": ("flag b", "scorekeeper"),
    "EarlyPickup": ("early-pickup b", "director"),
    "PickupWithHit": ("pickup-with-hit a", "director"),
    "BreakStart": ("break start both", "scorekeeper"),
    "BreakEnd": ("break end", "scorekeeper"),
    "Late": ("late b", "director"),
    "Penalty": ("penalty a 1 'USBGF 2.2.4' slow play", "director"),
    "Revert": ("revert 6 --reason Ann played one die", "director"),
    "VoidCube": ("void-cube 6 --reason doubled in the Crawford game", "director"),
    "NullifyPass": ("nullify-pass 6 --reason doubled in the Crawford game", "director"),
    "VoidConcession": ("void-concession 6 --reason conceded with contact", "director"),
    "CorrectCube": ("correct-cube 6 --reason turned to 8 from 2", "director"),
    "CorrectSetup": ("correct-setup 6 --reason three checkers on the midpoint", "director"),
    "Overturn": ("overturn 6 --reason the play was legal", "committee"),
    "CorrectLength": ("correct-length 7 --reason the draw sheet says 7", "director"),
    "CorrectScore": ("correct-score 3-2 --reason the sheet says 3-2", "director"),
    "RulingNote": ("note --ruled-by director --reason asked about the clock", "director"),
    "MissedHit": ("missed-hit --reason Ann never hit her clock", "director"),
    # the classic laws of the throw and the touch (CLASSIC 7, 8, 11)
    "Touch": ("touch 6", "scorekeeper"),
    "Jadoube": ("jadoube 6", "scorekeeper"),
    "Interfered": ("interfered 1 1", "scorekeeper"),
    "Call": ("call 6 4", "scorekeeper"),
    "CorrectCall": ("correct-call 6 --reason Bob saw the three in time", "director"),
    "MustAccept": ("must-accept", "director"),
    "Undo": ("undo --reason typed 6-3", "scorekeeper"),
    "Amend": ("amend 6 move 8/5 6/5 --reason typed 8/4", "scorekeeper"),
}

DIRECTORS_ACTS = {
    "penalty": "penalty a 1 'USBGF 2.2.4' slow play",
    "late": "late b",
    "clock set": "clock set a=0:01 b=10:00 clock knocked over",
    "early-pickup": "early-pickup b",
}
"""The director's acts at the table (not rulings): what a pad tried to ``amend`` in (issue 22)."""


def may(role: str, lowest: str) -> bool:
    return ROLES.index(role) >= ROLES.index(lowest)


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="m", event="Open", clock="simple-delay", by="kim")
    for line in ("opening 3 1", "move 8/5 6/5"):  # 3 game, 4 opening, 5 Bob's hit, 6 the move
        ledger.record_line("m", line, by="kim")
    yield ledger
    ledger.close()


@pytest.fixture
def tokens(ledger: Ledger) -> dict[str, str]:
    return {
        "scorekeeper": ledger.issue_token("scorekeeper", match_id="m"),
        "director": ledger.issue_token("director", event="Open"),
        "committee": ledger.issue_token("committee"),
    }


def count(ledger: Ledger) -> int:
    return len(ledger.events("m"))


def refused(client: TestClient, ledger: Ledger, line: str, token: str, role: str) -> None:
    """``line`` with ``role``'s token: 403 naming the verb and the role; nothing recorded."""
    before = count(ledger)
    answer = post(client, "m", line, token)
    assert answer.status_code == 403, (line, role, answer.text)
    error = answer.json()["error"]
    verb = parse(line).verb.removesuffix(":")
    assert verb.split()[0] in error and role in error, error
    assert count(ledger) == before


def allowed(client: TestClient, line: str, token: str) -> None:
    """``line`` is no line this token is refused for: recorded, or refused by the rules."""
    answer = post(client, "m", line, token)
    assert answer.status_code not in (401, 403), (line, answer.text)
    assert answer.status_code in (201, 400, 409), (line, answer.text)


def test_the_table_has_every_verb_of_the_vocabulary() -> None:
    assert set(LOWEST) == {kind.__name__ for kind in VOCABULARY}
    for name, (line, _) in LOWEST.items():
        assert type(parse(line)).__name__ == name, line


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", list(LOWEST))
def test_a_role_may_post_a_verb_or_is_refused_403(
    client: TestClient, ledger: Ledger, tokens: dict[str, str], name: str, role: str
) -> None:
    line, lowest = LOWEST[name]
    if may(role, lowest):
        allowed(client, line, tokens[role])
    else:
        refused(client, ledger, line, tokens[role], role)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("act", list(DIRECTORS_ACTS))
def test_a_directors_act_amended_in_is_the_directors(
    client: TestClient, ledger: Ledger, tokens: dict[str, str], act: str, role: str
) -> None:
    line = f"amend 6 {DIRECTORS_ACTS[act]}"
    assert parse(line).verb == "amend"
    if may(role, "director"):
        allowed(client, line, tokens[role])
    else:
        refused(client, ledger, line, tokens[role], role)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("act", ["penalty", "clock set", "early-pickup"])
def test_a_directors_entry_is_never_withdrawn_or_amended_from_a_token(
    client: TestClient, ledger: Ledger, tokens: dict[str, str], act: str, role: str
) -> None:
    """A director's act is no recording error: nobody ``undo``es or ``amend``s it, the director
    rules on it.  The refusal names the director and records nothing; the scorekeeper's is
    403 or that same 409 (never 201)."""
    done = post(client, "m", DIRECTORS_ACTS[act], tokens["director"])
    assert done.status_code == 201, done.text
    entry = done.json()["recorded"][0]["number"]
    for line in ("undo --reason typed in the wrong match", f"amend {entry} note nothing"):
        before = count(ledger)
        answer = post(client, "m", line, tokens[role])
        assert answer.status_code in ((403, 409) if role == "scorekeeper" else (409,)), answer.text
        error = answer.json()["error"]
        assert f"event {entry}" in error or f"entry {entry}" in error, error
        assert "director" in error, error
        assert count(ledger) == before


def test_the_scorekeepers_own_entry_is_his_to_withdraw(
    client: TestClient, ledger: Ledger, tokens: dict[str, str]
) -> None:
    before = count(ledger)
    answer = post(client, "m", "undo --reason typed 8/5 6/5", tokens["scorekeeper"])
    assert answer.status_code == 201, answer.text
    assert count(ledger) == before + 1


@pytest.fixture
def client(ledger: Ledger) -> TestClient:
    return reading(TestClient(create_app(ledger)), ledger)
