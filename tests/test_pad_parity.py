"""Every command a scorekeeper may issue has a control on the pad (issue 22's parity).

The pad's controls are written here as data, verb by verb, and so are the
director's and the committee's commands, which the pad does not offer (the
director's console does). A verb added to the vocabulary without a pad control,
or left out of both tables, fails the first test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bgledger.commands.vocabulary import VOCABULARY
from bgledger.service import Ledger
from bgledger.web import create_app
from tests.webclient import reading

PAD_CONTROLS = {
    "opening": 'id="dice-confirm"',
    "play-singles": 'data-line="play-singles"',
    "roll": 'id="dice-early"',  # the dice, and --premature for a roll before the play
    "52:": 'id="line-form"',  # the shorthand is typed
    "move": 'id="play-as-played"',  # the board's taps, and --as-played
    "void-roll": 'data-verb="void-roll"',
    "double": 'data-line="double --premature"',
    "take": 'data-line="take"',
    "drop": 'data-line="drop"',
    "beaver": 'data-line="beaver --as-played"',
    "automatic-double": 'data-line="automatic-double --as-played"',
    "resign": 'data-line="resign gammon"',
    "accept": 'data-line="accept"',
    "reject": 'data-line="reject"',
    "accept-roll": 'data-line="accept-roll"',
    "refuse-roll": 'data-line="refuse-roll"',
    "setup": 'data-verb="setup"',
    "note": 'data-verb="note"',
    "hit": 'data-line="hit"',
    "clock start": 'data-verb="clock start"',
    "clock stop": 'data-verb="clock stop"',
    "clock resume": 'data-line="clock resume"',
    "clock read": 'data-verb="clock read"',
    "flag": 'data-line="flag b"',
    "break start": 'data-line="break start both"',
    "break end": 'data-line="break end"',
    "undo": 'data-line="undo"',
    "amend": 'id="amend-form"',
}
"""The pad's control for each command a scorekeeper records (what the page must contain)."""

NOT_ON_THE_PAD = {
    "clock set", "early-pickup", "late", "penalty",  # the director's (USBGF 2.2.4, 3.7.2)
    "pickup-with-hit",  # the director's: a reserve restored (USBGF 4.1.8.1)
    "revert", "void-cube", "nullify-pass", "void-concession", "correct-cube",
    "correct-setup", "overturn", "correct-length", "correct-score", "missed-hit",
}  # fmt: skip
"""The director's and the committee's commands: their console posts them, not the pad.
(A ruling noted, ``note --ruled-by director``, is the ``note`` verb's.)"""


def _verbs() -> set[str]:
    return {kind.verb for kind in VOCABULARY}


def test_every_verb_is_on_the_pad_or_the_directors() -> None:
    assert _verbs() == set(PAD_CONTROLS) | NOT_ON_THE_PAD
    assert not set(PAD_CONTROLS) & NOT_ON_THE_PAD


@pytest.fixture(scope="module")
def pad_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    ledger = Ledger(f"sqlite:///{tmp_path_factory.mktemp('pad') / 'pad.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="m", by="td")
    page = reading(TestClient(create_app(ledger)), ledger).get("/matches/m/pad")
    assert page.status_code == 200
    return page.text


@pytest.mark.parametrize("verb", sorted(PAD_CONTROLS))
def test_the_pad_has_the_control(pad_page: str, verb: str) -> None:
    assert PAD_CONTROLS[verb] in pad_page, f"the pad has no control for {verb!r}"


def test_the_pad_script_sends_what_its_checkboxes_say() -> None:
    script = (Path(__file__).parents[1] / "web" / "static" / "pad.js").read_text()
    assert '" --premature"' in script and '" --as-played"' in script
    assert "form.dataset.verb" in script  # the composed forms send their verb
