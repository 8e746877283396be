"""The two witnesses of an entry's time (DESIGN principle 13): what it says, what the ledger saw.

An event's ``at`` is the time the match takes it at; a token's line also keeps the time it
gave (:attr:`~bgledger.events.MatchEvent.claimed`), and every stored event the time the
ledger received it (its ``timestamp``, under the hash chain).  An entry whose claim is not
what the match took (it fell before the match's last event, or a decision on time was due
when it arrived: :func:`bgledger.commands.decide.vouched_time`), or that reached the ledger
more than :data:`OFFLINE_WINDOW` after its claim, is *marked*: ``history`` says so, ``verify``
lists it and the director's console shows it.  The mark judges nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bgledger.events import MatchEvent

__all__ = ["OFFLINE_WINDOW", "late_ms", "marked", "witness_text"]

OFFLINE_WINDOW = timedelta(minutes=2)
"""W: how long after the time a pad gave its line the line may reach the ledger unmarked.

A pad keeps what is tapped while the venue's network is down and sends it, in order, when
the network returns (it retries every two seconds): a Wi-Fi drop at a venue lasts seconds, a
minute at most; a phone pocketed with the page asleep, a little more.  Two minutes holds
those; past them nobody at the table could still check the line's time against the clock,
so the director is shown it.  (Longer would hide a rewritten turn of a one-minute reserve;
shorter would mark every honest reconnection.)"""


def late_ms(event: MatchEvent) -> int:
    """How long after its claim the ledger received ``event`` (0 for no claim)."""
    if not event.claimed:
        return 0
    try:
        claim = datetime.fromisoformat(event.claimed)
        return max(0, round((event.timestamp - claim).total_seconds() * 1000))
    except (TypeError, ValueError):
        return 0


def marked(event: MatchEvent) -> bool:
    """True for the first event of an entry whose time the ledger could not take as claimed,
    or that arrived more than :data:`OFFLINE_WINDOW` after its claim."""
    if not event.claimed or not event.said:
        return False
    moved = event.claimed != event.at
    return moved or late_ms(event) > OFFLINE_WINDOW.total_seconds() * 1000


def witness_text(event: MatchEvent, shown: str) -> str:
    """The mark of a :func:`marked` entry in words (``""`` for none): its claim (``shown``:
    the claim as the view prints times) and how long after it the ledger received it.

    The match's time is the entry's own (``at``); ``claimed`` says what the recorder gave.
    """
    if not marked(event):
        return ""
    words = [f"claimed {shown}"]
    late = late_ms(event)
    if late > OFFLINE_WINDOW.total_seconds() * 1000:
        words.append(f"entered {late // 60_000} min after")
    if event.claimed != event.at:
        words.append(f"taken {_taken(event)}")
    return ", ".join(words)


def _taken(event: MatchEvent) -> str:
    """Where the match took a claim it could not take as given: when received, or at the
    match's last event (the claim fell before it)."""
    try:
        gap = abs((event.timestamp - datetime.fromisoformat(event.at)).total_seconds())
    except (TypeError, ValueError):
        return "later"
    return "when received" if gap < 1 else "at the match's last event"
