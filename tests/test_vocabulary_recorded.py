"""What each verb's class says it records is what its lines record.

:attr:`bgledger.commands.vocabulary.Command.recorded` is what the command
reference (``docs/commands.md``) lists under each verb.  Every line of the
scenario and ruling transcripts under ``fixtures/`` and of random matches is
recorded through the front door, and each recorded line's events must be of
its class's kinds or of what follows from them (:data:`FOLLOWING`).
"""

from __future__ import annotations

import random
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgledger.cli.main import main
from bgledger.commands.vocabulary import FOLLOWING, VOCABULARY, parse
from bgledger.errors import BgLedgerError
from bgledger.service import Ledger
from tests.conftest import REPO
from tests.match_driver import next_line

TRANSCRIPTS = sorted((REPO / "fixtures" / "scenarios").glob("*.txt")) + sorted(
    (REPO / "fixtures" / "rulings").glob("*.txt")
)


def lines_of(text: str) -> list[str]:
    """The transcript's lines of the record language: a ruling's ``!`` dropped, its expected
    refusal (``=> refused ...``) cut, trials (``?``) and checkpoints (``= NAME``) left out."""
    found = []
    for raw in text.splitlines():
        line = raw.split(" => ", 1)[0].strip()
        if not line or line.startswith(("#", "?", "=")):
            continue
        found.append(line.removeprefix("!"))
    return found


def record(ledger: Ledger, line: str, seen: dict[str, set[str]]) -> None:
    """Record ``line``, adding the kinds of event it recorded to its class's (refused: none)."""
    try:
        done = ledger.record_line("m", line, by="kim")
    except BgLedgerError:
        return
    seen.setdefault(type(parse(line)).__name__, set()).update(
        type(event).__name__ for event in done.events
    )


def unlisted(seen: dict[str, set[str]]) -> dict[str, set[str]]:
    """What a class recorded that it does not list."""
    classes = {kind.__name__: kind for kind in VOCABULARY}
    following = {kind.__name__ for kind in FOLLOWING}
    wrong = {}
    for name, kinds in seen.items():
        listed = {event.__name__ for event in classes[name].recorded} | following
        if kinds - listed:
            wrong[name] = kinds - listed
    return wrong


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda path: path.name)
def test_a_transcripts_lines_record_what_their_verbs_list(path: Path, tmp_path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    start = re.search(r"^# start: (.*)$", text, re.MULTILINE)
    assert start
    url = f"sqlite:///{tmp_path / 'recorded.db'}"
    started = CliRunner().invoke(main, ["--db", url, "start", "--id", "m", *shlex.split(start[1])])
    assert started.exit_code == 0, started.output
    ledger = Ledger(url)
    try:
        seen: dict[str, set[str]] = {}
        for line in lines_of(text):
            record(ledger, line, seen)
    finally:
        ledger.close()
    assert seen and unlisted(seen) == {}


@pytest.mark.parametrize("seed", range(3))
def test_a_random_matchs_lines_record_what_their_verbs_list(seed: int) -> None:
    ledger = Ledger("sqlite:///:memory:")
    seen: dict[str, set[str]] = {}
    try:
        ledger.start(("Ann", "Bob"), 3, match_id="m", by="kim", clock="simple-delay")
        rng = random.Random(seed)
        for _ in range(200):
            line = next_line(ledger.state("m"), rng, cube_rate=0.2)
            if line is None:
                break
            record(ledger, line, seen)
            record(ledger, "hit", seen)  # refused unless a hit is due
    finally:
        ledger.close()
    assert {"Opening", "Move", "Hit"} <= set(seen) and unlisted(seen) == {}
