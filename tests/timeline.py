"""Helpers of the clock and break tests: times of the day, ``record`` lines, refusals."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bgledger.commands.match import Match
from bgledger.commands.vocabulary import parse
from bgledger.errors import BgLedgerError

DAY = "2026-11-21T"


def at(hms: str, offset: str = "+00:00") -> str:
    """``HH:MM:SS`` on the test day, ISO 8601."""
    return f"{DAY}{hms}{offset}"


def play_lines(match: Match, by: str, *lines: str) -> None:
    """``record`` lines, each ``HH:MM:SS action``, recorded by ``by``."""
    for line in lines:
        hms, action = line.split(" ", 1)
        parse(f"@{at(hms)} {action}").run(match, by)


def refused(
    match: Match, error: type[BgLedgerError], rule: str | None, command: Callable[[], object]
) -> str:
    """``command`` raises ``error`` citing ``rule`` and records nothing; its message."""
    version, state = match.version, match.state
    with pytest.raises(error) as raised:
        command()
    assert match.version == version
    assert match.state is state
    if rule is not None:
        assert getattr(raised.value, "rule", None) == rule, raised.value
        assert f"({rule})" in str(raised.value)
    return str(raised.value)
