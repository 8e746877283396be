"""What needs the director at a table, from what the match's state knows: the console's order.

A table needs the director, most urgent first, when:

1. **time is up**: the running player's reserve is used up on the ledger's
   figures and no expiry is recorded yet (the match is lost on time, e.g. USBGF
   4.3.3, once a director or the players record it);
2. **the clock is stopped for a dispute** or an illegal move pointed out
   (USBGF 4.3.2(d), (g)): the players are waiting for a ruling;
3. **a play is flagged**: recorded as played against the rules, standing
   unless corrected in time (USBGF 4.2.3);
4. **a break runs over its allowance** (USBGF 2.2.2; penalty points, 2.2.4);
5. **a match is finished**: its result is to be posted on the draw sheet
   (USBGF 4.6: the staff post it, the players check it);
6. **a line was entered late**: a scorekeeper's line reached the ledger long after the
   time it gave, or could not be taken at that time (DESIGN principle 13): the director
   may want to check it with the table (``history`` says what it claimed).

Each :class:`Need` says so in the director's words with the rule of the
match's profile.  The first and fourth come about as time passes: a
:class:`Need` with ``from_ms`` in the future is drawn hidden, and the
console's script shows it from that moment (the server's clock), so that the
order follows the time without a request.  A table needing nothing ranks
after every one that needs something: a match under way, then one not begun.

>>> [rank for rank, _ in sorted(RANKS.values())][:2]
[0, 1]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bgledger.projections.views.text import at_ms, stop_reason, time_of_day
from bgledger.projections.views.words import numbers_text, rule_for
from bgledger.rules.profiles import Decision

__all__ = [
    "NOT_BEGUN",
    "RANKS",
    "UNDER_WAY",
    "Need",
    "base_rank",
    "falls_from",
    "needs",
    "rank_of",
]

RANKS: dict[str, tuple[int, str]] = {
    "time-up": (0, "time is up"),
    "dispute": (1, "a dispute"),
    "flagged": (2, "a flagged play"),
    "break-over": (3, "a break running over"),
    "result": (4, "a result to post"),
    "entered-late": (5, "a line entered late"),
}
"""Each need's place in the order and its name in the console's filter."""
UNDER_WAY = 10
"""The rank of a match under way that needs nothing."""
NOT_BEGUN = 11
"""The rank of a match not begun (or between games with nothing to see to)."""
_DISPUTES = ("dispute", "illegal-move")
"""The clock stops (USBGF 4.3.2) that wait for the director."""


@dataclass(frozen=True, slots=True)
class Need:
    """One reason a table needs the director: ``kind`` (a key of :data:`RANKS`), in words,
    from ``from_ms`` on (0: already)."""

    kind: str
    words: str
    from_ms: int = 0

    @property
    def rank(self) -> int:
        """Its place in the order (0 first)."""
        return RANKS[self.kind][0]


def needs(document: dict[str, Any]) -> list[Need]:
    """What the table needs, from its ``show --json`` document as the read model keeps it (its
    clock figures as of its last event): no fold, no decoded state."""
    profile, names, found = document["profile"], document["players"], []
    clock, winner = document["clock"], document["winner"]
    running = clock.get("running")
    if running and not winner and clock.get("reserve_ms"):
        zero = falls_from(clock) + clock["reserve_ms"][running]  # then the reserve is used up
        rule = rule_for(profile, Decision.TIME_EXPIRED)
        words = f"{names[running]}'s time is up ({rule}): no expiry recorded yet"
        found.append(Need("time-up", words, zero))
    if clock.get("stopped") in _DISPUTES and not winner:
        found.append(Need("dispute", f"clock stopped, {stop_reason(clock['stopped'], profile)}"))
    if document["flagged"]:
        rule = rule_for(profile, Decision.ILLEGAL_PLAY)
        flagged = numbers_text(document["flagged"])
        found.append(Need("flagged", f"flagged: {flagged}, recorded as played ({rule})"))
    opened = document["breaks"]["on_break"]
    if opened is not None and not winner:
        rule = rule_for(profile, Decision.BREAK)
        ends = at_ms(opened["ends"])
        words = f"break over its allowance since {time_of_day(ends, opened['ends'])} ({rule})"
        found.append(Need("break-over", words, ends))
    marks = document.get("time_marks")
    if marks:
        words = f"entered late or not at the time claimed: {numbers_text(marks)} (see history)"
        found.append(Need("entered-late", words))
    if winner:
        rule = rule_for(profile, Decision.RESULT)
        score = f"{document['score']['a']}\N{EN DASH}{document['score']['b']}"
        words = f"finished, won by {names[winner]} {score}: result to post ({rule})"
        found.append(Need("result", words))
    return found


def falls_from(clock: dict[str, Any]) -> int:
    """The moment the running player's reserve starts to fall, from ``show --json``'s
    ``clock``: its figures are as of ``as_of``, and what is left of the delay goes first."""
    return at_ms(clock["as_of"]) + (clock.get("delay_left_ms") or 0)


def rank_of(document: dict[str, Any], found: list[Need], now_ms: int) -> int:
    """The table's place in the order at ``now_ms``: its most urgent need's, else
    :func:`base_rank`."""
    ranks = [need.rank for need in found if need.from_ms <= now_ms]
    return min(ranks) if ranks else base_rank(document)


def base_rank(document: dict[str, Any]) -> int:
    """The place of a table needing nothing: under way, or not begun (between games too)."""
    playing = document["phase"] not in ("between-games", "over")
    return UNDER_WAY if playing else NOT_BEGUN
