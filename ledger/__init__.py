"""bgledger: an event-sourced match record and audit ledger for tournament backgammon.

The import surface: :class:`bgledger.Ledger` (the front door,
:mod:`bgledger.service`) and the library's error types (:mod:`bgledger.errors`).
They are loaded on first use, so that ``import bgledger.rules`` reads the rules
alone and not the store, the read models and the database drivers::

    >>> import bgledger
    >>> ledger = bgledger.Ledger("sqlite:///:memory:")
    >>> issubclass(bgledger.MatchOverError, bgledger.ActionRefusedError)
    True
    >>> "OutOfTurnError" in bgledger.__all__
    True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bgledger.errors import *  # noqa: F403  (the error types, for type checkers)
    from bgledger.service import Ledger as Ledger


def __getattr__(name: str) -> Any:
    """``Ledger``, an error type, or ``__all__`` (both), loaded on first use (PEP 562)."""
    if name == "Ledger":
        value = importlib.import_module("bgledger.service").Ledger
    else:
        errors = importlib.import_module("bgledger.errors")
        if name == "__all__":
            value = ["Ledger", *errors.__all__]
        elif name in errors.__all__:
            value = getattr(errors, name)
        else:
            raise AttributeError(f"module 'bgledger' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__getattr__("__all__")})
