"""The exceptions the rules engine raises.

Every error the project raises derives from :class:`BgLedgerError`; the ones
that mean "this input is wrong" are also :class:`ValueError`, like
python-chess's ``InvalidMoveError``.  Messages quote the input and, where there
is one, the position.
"""

from __future__ import annotations


class BgLedgerError(Exception):
    """Base class of every error bgledger raises on purpose."""


class RulesError(BgLedgerError, ValueError):
    """Base class of the rules engine's input errors."""


class InvalidNotationError(RulesError):
    """Text that cannot be read as a play (``'13/8 x'``, ``'13-8'``, ``'30/24'``)."""


class InvalidPlayError(RulesError):
    """A play that no board could show.

    For example moving a checker from a point where the mover has none, or
    moving a checker that is already borne off.  An *illegal* play (one that a
    player could physically make but the rules forbid) is not an error: it is
    judged and reported by :func:`bgledger.rules.judge.judge`.
    """


class InvalidDiceError(RulesError):
    """Dice outside 1-6, or the wrong number of dice."""


class InvalidPositionError(RulesError):
    """A position id, XGID or checker array that cannot describe a board."""


class InvalidMatchIdError(RulesError):
    """A gnubg Match ID that cannot be decoded."""
