"""The command line's messages in the scorekeeper's words (issue 35).

Each was a rough edge a new user met: a director's token for a misspelt event issued without
a word, "last used" moved by a refused request, ``replay`` ended by Ctrl-C with click's
"Aborted!", an unknown verb answered with every verb, a programmer's "takes 2 argument(s)"
and "got 7 in [7, 1]", "events 57" for one event, the round and table unlabelled.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from bgledger.cli.main import main
from bgledger.service import Ledger
from tests.webclient import bare_client, post


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    ledger = Ledger(url)
    ledger.start(("Ann", "Bob"), 5, match_id="final", by="kim", event="Open", round="1", table="4")
    ledger.start(("Cy", "Di"), 3, match_id="side", by="kim", event="Open")
    ledger.close()
    yield url


def run(db: str, *args: str, stdin: Any = None) -> Any:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def test_a_token_for_an_event_with_no_match_says_so_and_what_was_meant(db: str) -> None:
    result = run(db, "token", "--event", "Opne", "--role", "director")
    assert result.exit_code == 0  # a director's token may come before the event's matches
    assert len(result.stdout.split()) == 1  # the token alone on stdout, for a script
    assert "event 'Opne': no match of it was started yet" in result.stderr
    assert "did you mean 'Open'?" in result.stderr
    quiet = run(db, "token", "--event", "Open", "--role", "director")
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_last_used_moves_on_an_authorised_write_only(db: str) -> None:
    ledger = Ledger(db)
    try:
        pad = ledger.issue_token("scorekeeper", match_id="final", label="Sam")
        client = bare_client(ledger)

        def used() -> Any:
            return {row.label: row.last_used for row in ledger.tokens()}["Sam"]

        assert post(client, "side", "opening 3 1", pad).status_code == 403  # not his match
        assert post(client, "final", "opening 3 1", "nope").status_code == 401
        assert used() is None
        assert post(client, "final", "opening 3 1", pad).status_code == 201
        assert used() is not None
    finally:
        ledger.close()


class _Interrupted:
    """Standard input as Ctrl-C leaves it at the replay's prompt: reading raises
    KeyboardInterrupt (a terminal's: the prompt is shown)."""

    def readline(self) -> str:
        raise KeyboardInterrupt

    def isatty(self) -> bool:
        return True


def test_replay_ends_cleanly_on_ctrl_c(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from bgledger.cli import replay_commands

    monkeypatch.setattr(replay_commands, "sys", SimpleNamespace(stdin=_Interrupted()))
    result = run(db, "replay", "final")
    assert "Aborted!" not in result.output
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "match started" in result.stdout  # the first step was shown, then it ended


@pytest.mark.parametrize(
    ("line", "said", "unsaid"),
    [
        ("rol 6 4", "unknown action 'rol'; did you mean 'roll'?", "take, drop"),
        ("roll 6", "write 'roll D D' (2 words after roll, 1 given)", "argument(s)"),
        ("opening 7 1", "'opening 7 1': a die shows 1 to 6, not 7", "[7, 1]"),
    ],
)
def test_a_refusal_is_in_the_scorekeepers_words(db: str, line: str, said: str, unsaid: str) -> None:
    result = run(db, "record", "final", stdin=line + "\n")
    assert result.exit_code != 0
    assert said in result.stderr and unsaid not in result.stderr, result.stderr


def test_round_and_table_are_labelled_and_one_event_is_one(db: str) -> None:
    run(db, "record", "final", stdin="opening 3 1\nmove 6/5 --as-played\n")
    shown = run(db, "show", "final")
    assert shown.exit_code == 0, shown.output
    assert "· Open · round 1 · table 4" in shown.stdout
    assert "against the rules): event 4" in shown.stdout and "events 4" not in shown.stdout
    document = json.loads(run(db, "show", "final", "--json").stdout)
    assert document["flagged"] == [4]
