"""Statements about the cube, binding at the table (issue 33; USBGF 4.4.3, 4.4.4).

USBGF 4.4.3: "If a player states either that he doubles, or that he is going to double, then
he must double at his first legal opportunity to do so."  USBGF 4.4.4: "If the player states
his intention to drop the cube if doubled, then he will be bound by that statement if the
opposing player elects to double at that player's next legal opportunity to do so (but not
on subsequent turns)."

:meth:`StatementCommands.announce` records what was said; the refusals it implies are made
where the refused action is decided (:func:`refuse_bound_roll` for a roll, on roll or early;
:func:`refuse_bound_take` for a take or a beaver), on the same checks
:func:`~bgledger.projections.state.allowed.allowed` offers by.  What lapses a statement is
the fold's (:mod:`bgledger.projections.state.statements`).

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("said"), "said", ("Ann", "Bob"), 5, by="kim")
    >>> match.opening(3, 1, by="kim")
    >>> _ = match.move("8/5 6/5", by="kim")
    >>> match.announce("double", player="b", by="kim")
    >>> match.roll(6, 4, by="kim")
    Traceback (most recent call last):
    ...
    bgledger.errors.StatementBindsError: cannot roll: Bob stated an intention to double ...
"""

from __future__ import annotations

from bgledger.commands import decide as _decide
from bgledger.commands.stream import MatchStream
from bgledger.errors import CubeStatementRefusedError, NextStep, StatementBindsError
from bgledger.events import CubeStatementMade
from bgledger.projections.state.allowed import (
    STATEMENT_PHASES,
    STATEMENT_WORDS,
    bound,
    may_double,
    statement_problem,
)
from bgledger.projections.state.fold import MatchState, Phase, other
from bgledger.rules.profiles import Decision, Profile

__all__ = ["StatementCommands", "refuse_bound_roll", "refuse_bound_take"]

_DECISIONS = {"double": Decision.DOUBLE_STATEMENT, "pass": Decision.PASS_STATEMENT}


class StatementCommands(MatchStream):
    """A player's binding statement about the cube."""

    def announce(self, says: str, *, player: str, by: str, at: str | None = None) -> None:
        """``player`` said "I am going to double" (``says`` ``double``, USBGF 4.4.3) or "I
        would pass" (``pass``, USBGF 4.4.4), in a game and not while a double waits for its
        answer (then "I pass" is the drop).

        :raises ValueError: for a statement other than ``double`` or ``pass``, a player
            other than ``a`` or ``b``.
        :raises OutOfTurnError: outside a game, on a break, while an offer waits.
        :raises CubeStatementRefusedError: for a statement that binds nothing
            (:func:`~bgledger.projections.state.allowed.statement_problem`).
        """
        if says not in _DECISIONS or player not in ("a", "b"):
            raise ValueError(f"announce {says} {player}: announce double|pass a|b")
        state, profile = self.state, self.profile
        decision = _DECISIONS[says]
        _decide.require_phase(state, f"announce {says}", decision, *STATEMENT_PHASES)
        problem = statement_problem(state, profile, player, says)
        if problem is not None:
            words = f"{state.name(player)}'s '{STATEMENT_WORDS[says]}' is not recorded"
            raise CubeStatementRefusedError(f"{words}: {problem[0]}", problem[1])
        self._record(CubeStatementMade, by, at, player=player, statement=says)


def refuse_bound_roll(state: MatchState, profile: Profile, player: str, early: bool) -> None:
    """Refuse ``player``'s roll (``early``: before his opponent moved) if he said he is going
    to double and may double: this is his first legal opportunity, or rolling early would
    pass it by (USBGF 4.4.3).

    :raises StatementBindsError: then, citing the profile's rule.
    """
    if not bound(state, player, "double") or not may_double(state, profile, player):
        return
    name = state.name(player)
    said = f"{name} stated an intention to double ('{STATEMENT_WORDS['double']}')"
    if early:
        why = f"{name} must double at the first legal opportunity, before rolling"
        # (no command: the early double's line has a flag, which the pad draws no button for)
        step = NextStep(f"if {name} doubled early, record the early double", (), state.match_id)
    else:
        why = f"{name} must double at the first legal opportunity: now"
        step = NextStep(f"record {name}'s double: {{}}", (("double",),), state.match_id)
    rule = profile.cite(Decision.DOUBLE_STATEMENT)
    raise StatementBindsError(f"cannot roll: {said}: {why}", rule, step)


def refuse_bound_take(state: MatchState, profile: Profile, action: str) -> None:
    """Refuse the doubled player's take (or beaver) if he said he would pass a double made
    at the doubler's next legal opportunity, as this one was (USBGF 4.4.4).

    :raises StatementBindsError: then, citing the profile's rule.
    """
    if state.phase is not Phase.DOUBLED or state.turn is None:
        return
    taker = other(state.turn)
    if not bound(state, taker, "pass"):
        return
    name, doubler = state.name(taker), state.name(state.turn)
    said = f"{name} stated an intention to pass if doubled ('{STATEMENT_WORDS['pass']}')"
    why = f"{doubler} doubled at the next legal opportunity: {name} is bound to drop"
    step = NextStep(f"record {name}'s drop: {{}}", (("drop",),), state.match_id)
    raise StatementBindsError(
        f"cannot {action}: {said}; {why}", profile.cite(Decision.PASS_STATEMENT), step
    )
