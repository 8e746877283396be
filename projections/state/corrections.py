"""Recording errors in the fold: which entries a match has, and an amendment's events in place.

A scorekeeper's correction (:class:`~bgledger.events.EntryWithdrawn`,
:class:`~bgledger.events.EntryAmended`, DESIGN principle 9) voids the events
of one entry, as a ruling voids events, and the same lists say what is in
force (:func:`bgledger.projections.state.rulings.voided_by`).  An amendment
also says what happened instead: its ``replacement`` events stand, in the
match as corrected, where the mistaken entry stood (:func:`replacement`),
numbered as that entry was, so that "the match as corrected after event N"
counts them from the moment the entry was made.

An *entry* is what one line of the record language recorded (:func:`entries`):
a game action or a clock, break or penalty line, with the events its command
records along with it (a game started with its opening roll; a game and a
match won with the play, drop or acceptance that won them; a dance with the
roll that could not be played).  ``undo`` withdraws the last entry in force,
``amend N`` the entry that begins at event N.

Like every part of the fold this never raises: a replacement naming a kind
this bgledger does not know, or fields that do not fit it, is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bgledger.events import (
    CheckersPlayed,
    ClockHit,
    ClockHitImplied,
    ClockRestored,
    CopyImported,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    EntryAmended,
    EntryCorrected,
    GameStarted,
    GameWon,
    MatchEvent,
    MatchStarted,
    MatchWon,
    OpeningRollMade,
    ReserveTimeRestored,
    RulingMade,
    SocialDoubleMade,
)
from bgledger.events.names import kind_named

__all__ = ["AFTER", "Entry", "entries", "replacement"]

AFTER: tuple[type[MatchEvent], ...] = (GameWon, MatchWon, ReserveTimeRestored, ClockRestored)
"""Events a command records after the one it was given: part of that entry."""


def replacement(amendment: EntryAmended, slot: int) -> list[MatchEvent]:
    """The events ``amendment`` says happened, numbered ``slot`` (the entry they replace)."""
    made: list[MatchEvent] = []
    for item in amendment.replacement:
        kind = kind_named(str(item.get("kind", "")))
        given = item.get("fields")
        if kind is None or not isinstance(given, dict):
            continue
        try:
            made.append(
                kind(
                    originator_id=amendment.originator_id,
                    originator_version=slot,
                    timestamp=amendment.timestamp,
                    **given,
                )
            )
        except TypeError:
            continue  # fields of another version of that kind: left out, never raised
    return made


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry in force: its ``events`` (as the match as corrected has them) and what
    withdrawing it voids in the log (``voids``: its events, or the amendment that made them
    with what that amendment voided).

    ``number`` is the event the entry begins at, as the scorekeeper sees it in the history;
    ``game`` the game it belongs to (0 before the first).
    """

    number: int
    events: tuple[MatchEvent, ...]
    voids: tuple[int, ...]
    game: int

    @property
    def first(self) -> MatchEvent:
        """The event the entry was made for (after a game start it opens)."""
        return next((e for e in self.events if not isinstance(e, GameStarted)), self.events[0])


def _follows(event: MatchEvent, previous: MatchEvent | None) -> bool:
    """True if ``event`` was recorded with ``previous`` by one command.

    The opening roll's lower-die hit (CLOCK 3.3) comes with it, at its time; a roll or
    double comes with the hit it implied (ABT 4.6), recorded just before it; a beaver
    (USBGF 4.4.10) with the take it answered the double with, by the same player at once.
    """
    if isinstance(event, AFTER):
        return True
    if isinstance(event, SocialDoubleMade) and isinstance(previous, CubeTaken):
        return event.player == previous.player and event.at == previous.at
    if isinstance(previous, OpeningRollMade) and isinstance(event, ClockHit):
        return previous.die_a != previous.die_b and event.at == previous.at
    if isinstance(previous, ClockHitImplied):
        return isinstance(event, DiceRolled | CubeOffered)
    dance = isinstance(event, CheckersPlayed) and not event.play and event.legal
    return dance and isinstance(previous, DiceRolled)


def entries(in_force: Sequence[MatchEvent], amended: dict[int, EntryAmended]) -> list[Entry]:
    """The entries of ``in_force`` (the events in force, in order, amendments in place).

    ``amended`` maps each slot an amendment in force fills to that amendment.
    Rulings, corrections, the match's start and an import's record are not entries.
    """
    found: list[Entry] = []
    group: list[MatchEvent] = []
    game = 0

    def close() -> None:
        if group:
            first = group[0].originator_version
            source = amended.get(first)
            # An event in force numbered as an amended entry is one of its replacement
            # (the entry itself is void): withdrawing it voids the amendment, and the entry.
            voids = (
                (source.originator_version, *source.voids)
                if source is not None
                else tuple(sorted({e.originator_version for e in group}))
            )
            found.append(Entry(first, tuple(group), voids, game))
            group.clear()

    previous: MatchEvent | None = None
    for event in in_force:
        if isinstance(event, MatchStarted | RulingMade | EntryCorrected | CopyImported):
            close()
            previous = None
            continue
        if isinstance(event, GameStarted):
            close()
            game += 1
            group.append(event)  # a game starts with its opening roll: one entry
        elif group and (_follows(event, previous) or isinstance(previous, GameStarted)):
            group.append(event)
        else:
            close()
            group.append(event)
        previous = event
    close()
    return found
