"""The pad draws what the domain offers, and nothing else (issue 22's parity, issue 31's design).

The pad's controls are not kept in a table here: each names the line it sends (``data-offer``,
a panel's ``data-offers``, a form's verb), and ``pad.js`` shows it while ``show --json``'s
``now.allowed`` (:func:`bgledger.projections.state.situation.now`) offers that line.  So:
every line a control names is a line of the record language; every line the domain offers a
player or the scorekeeper has a control (also checked at every step of random matches in
``test_now``); every control is offered in some state; and ``pad.js`` keeps no phase logic.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bgledger.commands.vocabulary import VOCABULARY, parse
from bgledger.projections.state.allowed import Allowed
from bgledger.service import Ledger
from bgledger.web import create_app
from tests.now_driver import PAD_FORMS, PAD_LINES, PAD_PANELS, on_the_pad, walk
from tests.webclient import reading

SCRIPT = (Path(__file__).parents[1] / "web" / "static" / "pad.js").read_text()
VERBS = {kind.verb for kind in VOCABULARY}
ARGUMENTS = {"opening": "opening 3 1", "roll": "roll 6 4", "move": "move 8/5 6/5"}
"""What the dice and the board add to the lines of their panels."""


def _panel_lines() -> set[str]:
    return {line for panel in PAD_PANELS for line in panel.split("|")}


def _offered_somewhere() -> dict[str, set[str]]:
    """Each line the domain offered, by party, over random matches under every profile."""
    seen: dict[str, set[str]] = {}
    profiles = ("usbgf-2016", "usbgf-2017", "classic", "online")
    for seed, profile, clocked in itertools.product(range(6), profiles, (False, True)):
        for _, answer, _, _ in walk(seed, profile, clocked, 3, 120):
            for allowed in answer.allowed:
                seen.setdefault(allowed.line, set()).add(allowed.party)
    return seen


@pytest.fixture(scope="module")
def offered() -> dict[str, set[str]]:
    return _offered_somewhere()


def _with_arguments(line: str) -> str:
    verb, _, rest = line.partition(" ")
    return f"{ARGUMENTS[verb]} {rest}".strip() if verb in ARGUMENTS else line


def test_every_control_sends_a_line_of_the_record_language() -> None:
    for line in PAD_LINES | _panel_lines() - {"amend"}:
        assert parse(_with_arguments(line)).verb in VERBS, line
    assert PAD_FORMS <= VERBS


def test_every_line_offered_to_a_player_or_the_scorekeeper_has_a_control(
    offered: dict[str, set[str]],
) -> None:
    for line, parties in offered.items():
        for party in parties - {"director"}:
            verb = next(v for v in sorted(VERBS, key=len, reverse=True) if line.startswith(v))
            assert on_the_pad(Allowed(party, verb, line, "")), f"no control for {line!r}"


def test_every_control_is_offered_in_some_state(offered: dict[str, set[str]]) -> None:
    lines = {line for line, parties in offered.items() if parties - {"director"}}
    never = {line for line in PAD_LINES | _panel_lines() | PAD_FORMS if line not in lines}
    assert never == set(), never


def test_pad_js_keeps_no_phase_logic() -> None:
    """The script reads no phase, no cube and no Crawford status: only ``now``'s lines."""
    for word in ("phase", "crawford", "cube", "to_act", "opening_throw"):
        assert word not in SCRIPT, word
    assert "doc.now.allowed" in SCRIPT


@pytest.fixture(scope="module")
def pad_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    ledger = Ledger(f"sqlite:///{tmp_path_factory.mktemp('pad') / 'pad.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="m", by="td")
    page = reading(TestClient(create_app(ledger)), ledger).get("/matches/m/pad")
    assert page.status_code == 200
    return page.text


def test_the_served_pad_has_every_control(pad_page: str) -> None:
    for line in PAD_LINES:
        assert f'data-offer="{line}"' in pad_page, line


def test_the_pad_script_sends_what_its_checkboxes_say() -> None:
    assert '" --premature"' in SCRIPT and '" --as-played"' in SCRIPT
    assert "form.dataset.verb" in SCRIPT  # the composed forms send their verb
