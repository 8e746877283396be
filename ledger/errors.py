"""The errors the ledger raises when it refuses an action.

Two families, as the command line reports them:

* :class:`~bgledger.rules.errors.RulesError` (a ``ValueError``): input that
  describes nothing on a board or in a match: bad notation, dice outside 1-6,
  a checker the mover does not have, an unknown profile, a malformed time.
  The CLI exits 2.
* :class:`ActionRefusedError`: a well-formed action the rules or the state of
  the match forbid now: a roll while a double is pending, a double in the
  Crawford game, an illegal play not recorded ``--as-played``.  The message
  cites the rule; the CLI exits 1.

Nothing is appended to the ledger when either is raised.
"""

from __future__ import annotations

from bgledger.rules.errors import BgLedgerError, RulesError

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


class ActionRefusedError(BgLedgerError):
    """An action the rules or the match's state forbid now; ``rule`` is the rule cited."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} ({rule})" if rule else message)


class OutOfTurnError(ActionRefusedError):
    """An action out of sequence: a play before a roll, a roll while a double is pending."""


class MatchOverError(OutOfTurnError):
    """Any game action after the match has been won."""


class IllegalPlayRefusedError(ActionRefusedError):
    """An illegal play offered without ``--as-played`` (the CLI's typo guard)."""


class CubeActionRefusedError(ActionRefusedError):
    """A double the rules forbid (Crawford game, dead cube, the opponent's cube)."""


class PrematureRollStandsError(ActionRefusedError):
    """A premature roll refused where premature rolls stand (ABT 4.6): no Fast Roll Rule."""


class ResignationRefusedError(ActionRefusedError):
    """A concession the profile does not allow (USBGF 4.5: non-contact positions only)."""


class MatchExistsError(ActionRefusedError):
    """``start --id`` names a match that already exists."""


class ConcurrentWriteError(ActionRefusedError):
    """Another scorekeeper recorded an event in this match first; nothing of ours was kept.

    ``raced`` describes the event that won the race; retrying decides afresh.
    """

    def __init__(self, message: str, raced: str) -> None:
        self.raced = raced
        super().__init__(message)


class MatchNotFoundError(BgLedgerError, LookupError):
    """No match has this id."""


class InvalidMatchSetupError(RulesError):
    """``start`` with a bad length, player name, match id or clock."""


class InvalidTimeError(RulesError):
    """An ``--at`` time that is not ISO 8601, or earlier than the match's last event."""


class NotAMatchError(BgLedgerError, ValueError):
    """Events to export that do not begin with :class:`~bgledger.events.MatchStarted`."""


class InvalidVoidReasonError(RulesError):
    """A reason for voiding a roll that the match's profile does not know."""


class ClockRefusedError(ActionRefusedError):
    """A clock action the clock's state or the rules forbid: a hit out of turn, no clock."""


class TimeNotExpiredError(ClockRefusedError):
    """A flag (USBGF 4.3.3) the ledger's figures do not confirm: time remains."""


class BreakRefusedError(ActionRefusedError):
    """A break beyond the allowance, during a game without cause, or none to end (USBGF 2.2.2)."""


class PenaltyRefusedError(ActionRefusedError):
    """Penalty points for lateness not yet due, or with nothing to be late for (USBGF 2.2.4)."""


class InvalidClockError(RulesError):
    """A clock figure that is not ``M:SS``, a stop reason USBGF 4.3.2 does not list, a bad delay."""


class SealRefusedError(BgLedgerError):
    """A seal that does not vouch for its match, or a match that cannot be sealed.

    The seal was altered, forged or signed by another key; or the match's
    chain has a mismatch or none at all.  The CLI exits 1.
    """
