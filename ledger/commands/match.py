"""The ``Match`` aggregate: every command of a match, one named method each, by feature.

Each command checks the action against the match's state (the one fold,
:mod:`bgledger.projections.state.fold`) and its rulebook profile, then records one or more
events (DESIGN principle 1).  A refused command raises and records nothing.
The commands live with their feature, as mixins on
:class:`~bgledger.commands.stream.MatchStream` that :class:`Match` composes:

- :class:`~bgledger.commands.play.PlayCommands`: the opening roll, rolls,
  plays and concessions; :class:`~bgledger.commands.cube.CubeCommands`: the cube;
- :class:`~bgledger.commands.clock.ClockCommands`: the game clock and the
  director's clock sanctions; :class:`~bgledger.commands.breaks.BreakCommands`:
  breaks and penalty points.

Recording is the stream's protected ``_record``: only the aggregate's own
commands record, and only after they have decided.

Example::

    >>> match = Match.start(match_uuid("demo"), "demo", ("Ann", "Bob"), 3, by="kim")
    >>> match.opening(3, 1, by="kim")
    >>> match.move("8/5 6/5", by="kim").legal
    True
    >>> match.state.turn, match.version
    ('b', 4)
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from bgledger.commands.breaks import BreakCommands
from bgledger.commands.cube import CubeCommands
from bgledger.commands.setup import match_started
from bgledger.projections.state.fold import apply

__all__ = ["Match", "match_uuid"]

_NAMESPACE = uuid5(NAMESPACE_URL, "https://bgledger.invalid/match")


def match_uuid(match_id: str) -> UUID:
    """The stream id of the match a person calls ``match_id`` (a name-based UUID)."""
    return uuid5(_NAMESPACE, match_id)


class Match(CubeCommands, BreakCommands):
    """One match: its id, its version (events so far), its folded state and its commands.

    Commands take ``by`` (who records) and ``at`` (when it happened, ISO
    8601; ``None`` for now) and raise, recording nothing, when they refuse.
    Each event recorded carries its link in the hash chain (:mod:`bgledger.events.chain`).
    The stream's bookkeeping (``id``, ``version``, ``profile``, ``advance``,
    ``collect_events``, ``atomic``) is :class:`bgledger.commands.stream.MatchStream`'s.
    """

    @classmethod
    def start(
        cls,
        stream: UUID,
        match_id: str,
        players: tuple[str, str],
        length: int,
        *,
        by: str,
        at: str | None = None,
        **setup: Any,
    ) -> Match:
        """A new match, recorded as :class:`MatchStarted`.

        ``setup`` is :func:`bgledger.commands.setup.match_started`'s keyword arguments
        (profile, clock, crawford, event, round, table, meta, score,
        crawford_status) and, with a clock,
        :meth:`~bgledger.commands.clock.ClockCommands.start_clock`'s
        ``reserve_ms``, ``delay_ms`` and ``doubles``.

        :raises InvalidMatchSetupError: for a bad id, name, length, clock or score.
        :raises UnknownProfileError: for an unknown profile.
        :raises InvalidTimeError: for a malformed ``at``.
        """
        timing = {k: setup.pop(k) for k in ("reserve_ms", "delay_ms", "doubles") if k in setup}
        opened = match_started(stream, match_id, players, length, by=by, at=at, **setup)
        match = cls(stream, 1, apply(None, opened))
        match._pending.append(opened)
        if opened.clock != "none":  # the clock is set now; the first hit starts it
            match.start_clock(opened.clock, by=by, at=opened.at, **timing)
        return match
