"""``docs/commands.md`` is what the vocabulary writes: a verb changed there changes it.

The reference is written by :func:`bgledger.cli.reference.reference`, one
section a verb of :data:`~bgledger.commands.vocabulary.VOCABULARY`; the
committed file must be the one it writes today.
"""

from __future__ import annotations

import subprocess
import sys

from bgledger.cli.reference import REGENERATE, reference
from bgledger.commands.vocabulary import VOCABULARY
from tests.conftest import REPO

COMMITTED = REPO / "docs" / "commands.md"


def test_the_committed_reference_is_the_one_the_vocabulary_writes() -> None:
    written = reference()
    assert COMMITTED.read_text(encoding="utf-8") == written, (
        f"docs/commands.md is not what the vocabulary writes: run `{REGENERATE}`"
    )


def test_the_module_prints_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bgledger.cli.reference"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == reference()


def test_each_verb_has_its_section_with_its_help() -> None:
    written = reference()
    for kind in VOCABULARY:
        assert kind.usage in written and kind.example in written, kind.__name__
    chunk = written.split("## `penalty`", 1)[1].split("\n## ", 1)[0]
    assert "Who may issue it: the director" in chunk
    assert "Records: `PenaltyPointsAssessed`" in chunk
    assert "Only it records (an entry of one is its ruler's act): `PenaltyPointsAssessed`" in chunk
    assert "USBGF 2.2.4" in chunk and "`--rule RULE`" in chunk
    assert "Who may issue it: the scorekeeper" in written.split("## `roll`", 1)[1]
