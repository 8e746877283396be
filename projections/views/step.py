"""One step of a replay (USBGF 5.3): the match after event N in one view, as every adapter shows it.

``bgledger replay`` and the committee's replay in the browser render a
:class:`Step` and compute nothing themselves, so they show the same line, the
same board and the same rulings at every (event, view).  A step is made by
:meth:`bgledger.service.Ledger.replay` from the match read once
(:class:`Replayed`: its events and its trail today) and the two views of
the past (:mod:`bgledger.projections.views.moment`):

*recorded*
    the match as the log stood after event N: the trail is the history of the
    first N events, so an event shows ``[voided by ruling K]`` only if ruling
    K was made by then, and the rulings are those in force then.
*corrected*
    the same moment through every ruling in force today: the trail is today's,
    and the rulings are those bearing on the moment, later ones included.

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("m"), "m", ("Ann", "Bob"), 3, by="kim")
    >>> match.opening(3, 1, by="kim")
    >>> shown = step("m", replayed(match.collect_events()), 3, "recorded", lambda rule: ())
    >>> shown.title(), shown.last
    ('as recorded after event 3', 3)
    >>> shown.line[29:]
    'kim  opening roll: Ann 3, Bob 1: Ann plays first'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from threading import Lock
from typing import Any

from bgledger.events import MatchEvent, RulingMade
from bgledger.projections.state.fold import MatchState
from bgledger.projections.state.rulings import voided_by
from bgledger.projections.views.audit import HistoryEntry, _voided_as, history, history_line
from bgledger.projections.views.moment import Moment, moment, ruling_names, rulings_text
from bgledger.projections.views.summary import state_json

__all__ = [
    "VIEWS",
    "Replayed",
    "Replays",
    "Ruled",
    "Step",
    "replayed",
    "step",
    "touches",
    "trail_at",
]

VIEWS = ("recorded", "corrected")
"""The two views of the past a step is shown in (DESIGN principle 4)."""


@dataclass(frozen=True, slots=True)
class Ruled:
    """A ruling as the committee reads it: its history line and its rule's words.

    :ivar quotes: the words of ``rule`` as the match's rulebook quotes them
        (:meth:`bgledger.service.Ledger.rule_text`); empty if it quotes none.
    """

    number: int
    line: str
    rule: str
    quotes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Replayed:
    """A match read once for stepping: its events and its whole trail as it stands today."""

    events: tuple[MatchEvent, ...]
    trail: tuple[HistoryEntry, ...]


def replayed(events: Sequence[MatchEvent]) -> Replayed:
    """``events`` and their trail today (one fold of the whole match)."""
    return Replayed(tuple(events), tuple(history(events)))


class Replays:
    """The last few matches stepped through, each read and its trail folded once.

    A match's events are only ever appended, so a kept match whose count of
    events is the store's is the match today; one with more events is folded
    again.  Safe to share between a server's threads.

    :param kept: how many matches to keep (the least recently stepped goes first).
    """

    def __init__(self, kept: int = 4) -> None:
        self._kept = kept
        self._matches: dict[str, Replayed] = {}
        self._lock = Lock()

    def kept(self, match_id: str) -> Replayed | None:
        """Match ``match_id`` as last read, if it is kept."""
        with self._lock:
            return self._matches.get(match_id)

    def read(self, match_id: str, events: Sequence[MatchEvent]) -> Replayed:
        """Match ``match_id`` whose events are ``events`` (every one, as just read)."""
        with self._lock:
            match = self._matches.pop(match_id, None)
        if match is None or len(match.events) != len(events):
            match = replayed(events)
        with self._lock:
            self._matches[match_id] = match  # the most recently stepped last
            while len(self._matches) > self._kept:
                del self._matches[next(iter(self._matches))]
        return match


@dataclass(frozen=True, slots=True)
class Step:
    """The match after event ``at`` in one view: what a replay shows at that step.

    :ivar moment: the state and the rulings (:func:`~bgledger.projections.views.moment.moment`).
    :ivar last: the number of the match's last event.
    :ivar trail: the history entries of events 1 to ``at`` as they read in this view
        (recorded: as the trail stood after event ``at``; corrected: as it stands today).
    :ivar line: the history line of event ``at`` in this view.
    :ivar rulings: the rulings in force then (recorded) or bearing on the moment
        (corrected), each with its history line in this view and its rule's words.
    :ivar corrections: the lines of the recording errors corrected by event ``at``
        (withdrawn or amended entries, not rulings) and still in force in this view.
    """

    match_id: str
    moment: Moment
    last: int
    trail: tuple[HistoryEntry, ...]
    line: str
    rulings: tuple[Ruled, ...]
    corrections: tuple[str, ...]

    @property
    def at(self) -> int:
        """The number of the step's event."""
        return self.moment.at

    @property
    def view(self) -> str:
        """``recorded`` or ``corrected``."""
        return self.moment.view

    @property
    def state(self) -> MatchState:
        """The match after the step's event, in the step's view."""
        return self.moment.state

    @property
    def entry(self) -> HistoryEntry:
        """The history entry of the step's event, in the step's view."""
        return self.trail[-1]

    def title(self) -> str:
        """``'as recorded after event 4'`` or ``'as corrected, after event 4'``."""
        return self.moment.title()

    def rulings_text(self) -> str:
        """The rulings of the step, one a line (number, rule, who ruled, reason); '' if none."""
        return rulings_text(self.moment.rulings)

    def to_json(self) -> dict[str, Any]:
        """The step as a document: where, its line, the state, the rulings, the corrections."""
        return {
            "match_id": self.match_id,
            "at": self.at,
            "last": self.last,
            "view": self.view,
            "title": self.title(),
            "line": self.line,
            "state": state_json(self.state),
            "rulings": [
                {
                    "number": r.number,
                    "line": r.line,
                    "rule": r.rule or None,
                    "quotes": list(r.quotes),
                }
                for r in self.rulings
            ],
            "corrections": list(self.corrections),
        }


def trail_at(match: Replayed, at: int) -> list[HistoryEntry]:
    """The trail as it stood after event ``at``: ``history(events[:at])``, from today's.

    An entry of the first ``at`` events reads the same whatever came later,
    except for what voided it: a ruling made after ``at`` is not yet there,
    and one an appeal after ``at`` overturned still is.  So today's entries
    are kept, their voids marked again as of ``at`` (one pass over the
    rulings, not a fold of the ``at`` events).
    """
    events = match.events[:at]
    voided = voided_by(events)
    entries = list(match.trail[:at])
    for index, entry in enumerate(entries):
        by = voided.get(entry.number)
        if by != entry.voided_by:
            voided_as = "" if by is None else _voided_as(events[by - 1])
            entries[index] = replace(entry, voided_by=by, voided_as=voided_as)
    return entries


def step(
    match_id: str,
    match: Replayed,
    at: int,
    view: str,
    quote: Callable[[str, str], tuple[str, ...]],
) -> Step:
    """The match ``match_id`` after event ``at`` (1 to its last) in ``view``.

    ``quote(profile, rule)`` gives the words of a rule (``Ledger.rule_text``).

    :raises ValueError: for an event the match does not have or a view that is none.
    """
    if view not in VIEWS:
        raise ValueError(f"view {view!r}: 'recorded' or 'corrected'")
    events = match.events
    shown = moment(events, at, view == "corrected")
    # as recorded: the trail as it stood after event N; as corrected: as it stands today
    trail = trail_at(match, at) if view == "recorded" else list(match.trail)
    width = max(len(entry.recorded_by) for entry in trail)
    rulings = tuple(
        Ruled(
            ruling.originator_version,
            history_line(trail[ruling.originator_version - 1], width),
            ruling.rule,
            quote(shown.state.profile, ruling.rule),
        )
        for ruling in shown.rulings
    )
    corrections = tuple(
        history_line(entry, width)
        for entry in trail[:at]
        if entry.correction is not None and not entry.voided_by
    )
    return Step(
        match_id,
        shown,
        len(events),
        tuple(trail[:at]),
        history_line(trail[at - 1], width),
        rulings,
        corrections,
    )


def touches(entry: HistoryEntry, event: MatchEvent, stretch: range) -> bool:
    """A ruling or correction made in ``stretch``, or about an event in it (an appeal packet)."""
    named: tuple[int, ...] = ()
    if isinstance(event, RulingMade):
        named = ruling_names(event)
    elif entry.correction is not None:
        named = tuple(entry.correction["voids"])
    return entry.number in stretch or any(n in stretch for n in named)
