"""bgledger: an event-sourced match record and audit ledger for tournament backgammon.

The import surface: :class:`bgledger.Ledger` (the front door,
:mod:`bgledger.service`) and the library's error types.  They are loaded on
first use, so that ``import bgledger.rules`` reads the rules alone and not
the store, the read models and the database drivers::

    >>> import bgledger
    >>> ledger = bgledger.Ledger("sqlite:///:memory:")
    >>> issubclass(bgledger.MatchOverError, bgledger.ActionRefusedError)
    True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bgledger.errors import (
        ActionRefusedError,
        BgLedgerError,
        BreakRefusedError,
        ClockRefusedError,
        ConcurrentWriteError,
        CubeActionRefusedError,
        IllegalPlayRefusedError,
        InvalidClockError,
        InvalidMatchSetupError,
        InvalidTimeError,
        InvalidVoidReasonError,
        MatchExistsError,
        MatchNotFoundError,
        MatchOverError,
        NotAMatchError,
        OutOfTurnError,
        PenaltyRefusedError,
        PrematureRollStandsError,
        ResignationRefusedError,
        RulesError,
        SealRefusedError,
        TimeNotExpiredError,
    )
    from bgledger.service import Ledger

_ERRORS = (
    "ActionRefusedError",
    "BgLedgerError",
    "BreakRefusedError",
    "ClockRefusedError",
    "ConcurrentWriteError",
    "CubeActionRefusedError",
    "IllegalPlayRefusedError",
    "InvalidClockError",
    "InvalidMatchSetupError",
    "InvalidTimeError",
    "InvalidVoidReasonError",
    "MatchExistsError",
    "MatchNotFoundError",
    "MatchOverError",
    "NotAMatchError",
    "OutOfTurnError",
    "PenaltyRefusedError",
    "PrematureRollStandsError",
    "ResignationRefusedError",
    "RulesError",
    "SealRefusedError",
    "TimeNotExpiredError",
)
_HOMES = {"Ledger": "bgledger.service", **dict.fromkeys(_ERRORS, "bgledger.errors")}

__all__ = [
    "ActionRefusedError",
    "BgLedgerError",
    "BreakRefusedError",
    "ClockRefusedError",
    "ConcurrentWriteError",
    "CubeActionRefusedError",
    "IllegalPlayRefusedError",
    "InvalidClockError",
    "InvalidMatchSetupError",
    "InvalidTimeError",
    "InvalidVoidReasonError",
    "Ledger",
    "MatchExistsError",
    "MatchNotFoundError",
    "MatchOverError",
    "NotAMatchError",
    "OutOfTurnError",
    "PenaltyRefusedError",
    "PrematureRollStandsError",
    "ResignationRefusedError",
    "RulesError",
    "SealRefusedError",
    "TimeNotExpiredError",
]


def __getattr__(name: str) -> Any:
    """Load ``bgledger.Ledger`` or an error type on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'bgledger' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
