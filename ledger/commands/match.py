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
  breaks and penalty points;
- :class:`~bgledger.commands.setup.SetupCommands`: :meth:`Match.start`, and
  errors in a game's starting position;
- :class:`~bgledger.commands.corrections.CorrectionCommands`: a scorekeeper's
  recording errors withdrawn (``undo``) or amended (``amend``), apart from rulings;
- :class:`~bgledger.commands.statements.StatementCommands`: binding statements about the
  cube (USBGF 4.4.3, 4.4.4).

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

from functools import lru_cache
from uuid import NAMESPACE_URL, UUID, uuid5

from bgledger.commands.breaks import BreakCommands
from bgledger.commands.corrections import CorrectionCommands
from bgledger.commands.cube import CubeCommands
from bgledger.commands.setup import SetupCommands
from bgledger.commands.statements import StatementCommands

__all__ = ["Match", "match_uuid"]

_NAMESPACE = uuid5(NAMESPACE_URL, "https://bgledger.invalid/match")


@lru_cache(maxsize=4096)  # a SHA-1 each time, twice an action otherwise
def match_uuid(match_id: str) -> UUID:
    """The stream id of the match a person calls ``match_id`` (a name-based UUID)."""
    return uuid5(_NAMESPACE, match_id)


class Match(CubeCommands, BreakCommands, SetupCommands, CorrectionCommands, StatementCommands):
    """One match: its id, its version (events so far), its folded state and its commands.

    Commands take ``by`` (who records) and ``at`` (when it happened, ISO
    8601; ``None`` for now) and raise, recording nothing, when they refuse.
    Each event recorded carries its link in the hash chain (:mod:`bgledger.events.chain`).
    The stream's bookkeeping (``id``, ``version``, ``profile``, ``advance``,
    ``collect_events``, ``atomic``) is :class:`bgledger.commands.stream.MatchStream`'s.
    """
