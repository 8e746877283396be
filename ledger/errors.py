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

import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from bgledger.rules.errors import BgLedgerError, RulesError

__all__ = [
    "AccessDeniedError",
    "ActionRefusedError",
    "BgLedgerError",
    "BreakRefusedError",
    "ClockRefusedError",
    "ConcurrentWriteError",
    "CubeActionRefusedError",
    "CubeStatementRefusedError",
    "DelayedReadError",
    "EventLooksLikeError",
    "EventNotFoundError",
    "IdempotencyKeyReusedError",
    "IllegalPlayRefusedError",
    "InvalidClockError",
    "InvalidDelayError",
    "InvalidIdempotencyKeyError",
    "InvalidMatchSetupError",
    "InvalidTimeError",
    "InvalidVoidReasonError",
    "MatchExistsError",
    "MatchNotFoundError",
    "MatchOverError",
    "NextStep",
    "NotAMatchError",
    "OutOfTurnError",
    "PenaltyRefusedError",
    "PrematureRollStandsError",
    "ResignationRefusedError",
    "RulesError",
    "SealRefusedError",
    "StatementBindsError",
    "TimeNotExpiredError",
    "TokenScopeError",
    "UnknownTokenError",
    "UnreadableError",
]


@dataclass(frozen=True, slots=True)
class NextStep:
    """What a scorekeeper records next after a refusal: words, with the commands in them.

    ``text`` holds one ``{}`` for each of ``commands``; a command is a verb of
    the record language and its arguments (``("roll", "6", "4")``,
    ``("move", "24/18 13/9")``).  On the command line the match id follows
    the verb (:meth:`command_line`); in ``record`` the line is the verb and
    its arguments (:meth:`record_line`).

    >>> step = NextStep("record Ann's play first, e.g. {}", (("move", "24/18 13/9"),), "m")
    >>> step.text_for_command_line()
    "record Ann's play first, e.g. `move m '24/18 13/9'`"
    >>> step.text_for_record()
    "record Ann's play first, e.g. `move 24/18 13/9`"
    """

    text: str
    commands: tuple[tuple[str, ...], ...] = ()
    match_id: str = ""

    def command_line(self, command: Sequence[str]) -> str:
        """``command`` as typed after ``bgledger``: the verb, the match id, the arguments."""
        verb, *args = command
        return shlex.join([verb, self.match_id, *args])

    @staticmethod
    def literal(text: str) -> str:
        """``text`` (a player's name) to put in :attr:`text` as it is, never as a placeholder."""
        return text.replace("{", "{{").replace("}", "}}")

    @staticmethod
    def record_line(command: Sequence[str]) -> str:
        """``command`` as a line of ``record``: the verb and its arguments, unquoted."""
        return " ".join(command)

    def text_for_command_line(self) -> str:
        """The advice with each command as the command line takes it."""
        return self.text.format(*(f"`{self.command_line(c)}`" for c in self.commands))

    def text_for_record(self) -> str:
        """The advice with each command as a line of ``record``."""
        return self.text.format(*(f"`{self.record_line(c)}`" for c in self.commands))


class ActionRefusedError(BgLedgerError):
    """An action the rules or the match's state forbid now; ``rule`` is the rule cited.

    ``next_step``, if given, says what to record instead; the message ends
    with it, then the rule: ``cannot move: Ben is on roll, to double or to
    roll; record Ben's roll first, e.g. `roll m 6 4` (USBGF Appendix B)``.
    :attr:`reason` is the message without the next step or the rule.
    """

    def __init__(
        self, message: str, rule: str | None = None, next_step: NextStep | None = None
    ) -> None:
        self.rule = rule
        self.next_step = next_step
        self.reason = message
        super().__init__(self._text(next_step.text_for_command_line() if next_step else ""))

    def text_for_record(self) -> str:
        """The message with the next step as lines of ``record`` (no match id)."""
        return self._text(self.next_step.text_for_record() if self.next_step else "")

    def _text(self, step: str) -> str:
        message = f"{self.reason}; {step}" if step else self.reason
        return f"{message} ({self.rule})" if self.rule else message


class OutOfTurnError(ActionRefusedError):
    """An action out of sequence: a play before a roll, a roll while a double is pending."""


class MatchOverError(OutOfTurnError):
    """Any game action after the match has been won."""


class IllegalPlayRefusedError(ActionRefusedError):
    """An illegal play offered without ``--as-played`` (the CLI's typo guard)."""


class CubeActionRefusedError(ActionRefusedError):
    """A double the rules forbid (Crawford game, dead cube, the opponent's cube)."""


# -- cube statements (issue 33: USBGF 4.4.3, 4.4.4) --------------------------------------------


class StatementBindsError(ActionRefusedError):
    """An action a binding cube statement forbids: a roll after "I am going to double" (USBGF
    4.4.3), a take after "I would pass" (USBGF 4.4.4)."""


class CubeStatementRefusedError(ActionRefusedError):
    """A cube statement that binds nothing: no legal double can follow it, the profile has no
    binding statements (online, classic), or it is already standing."""


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


class UnreadableError(MatchNotFoundError):
    """Nothing to show: the match (or event) is unknown, or private to the tokens that reach
    it until its event is published (HTTP 404 alike, so a private match's id never leaks)."""


class EventNotFoundError(MatchNotFoundError):
    """No match was started in this event: there is nothing of it to publish."""


class InvalidMatchSetupError(RulesError):
    """``start`` with a bad length, player name, match id or clock."""


class EventLooksLikeError(InvalidMatchSetupError):
    """``start`` in an event whose name reads as an existing event's but is not spelled as it."""


class InvalidDelayError(RulesError):
    """A spectator delay (``publish --delay``) that is not a length of time from 0 to a day."""


class DelayedReadError(BgLedgerError):
    """A read a spectator of an event published with a delay may not make: it would show the
    match as it stands now (HTTP 403; the wall, watch, embed and ``.mat`` show it delayed)."""


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


class AccessDeniedError(BgLedgerError):
    """A bearer token of ``bgledger serve`` that may not record here (:mod:`bgledger.access`)."""


class UnknownTokenError(AccessDeniedError):
    """No token, or one the ledger never issued or has revoked (HTTP 401)."""


class TokenScopeError(AccessDeniedError):
    """A valid token for another match or event (HTTP 403)."""


class InvalidIdempotencyKeyError(RulesError):
    """A client key (``Idempotency-Key``) that is empty, too long or not printable ASCII."""


class IdempotencyKeyReusedError(BgLedgerError):
    """A client key already used in this match for another command (HTTP 422).

    Nothing is recorded: a key names one write, and a retry sends the same command again.
    """
