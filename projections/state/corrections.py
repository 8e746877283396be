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

The entry's first event keeps the line that made it
(:attr:`~bgledger.events.MatchEvent.said`, DESIGN principle 12), and the events
its command recorded after it keep none: an entry is a lined event and the
unlined ones right after it.  Events stored before lines were kept say no
line; for those alone, which events one command recorded is worked out from
their kinds (:func:`_legacy_follows`, marked for removal with
:mod:`bgledger.commands.legacy`).

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

    @property
    def line(self) -> str:
        """The line that made it (DESIGN principle 12); ``""`` if stored before lines were kept."""
        return self.events[0].said


def _follows(
    event: MatchEvent, previous: MatchEvent | None, lined: bool, amended: dict[int, EntryAmended]
) -> bool:
    """True if ``event`` was recorded with ``previous`` by one command.

    ``lined``: the entry ``previous`` belongs to begins with its line.  Then an event
    without a line right after it (numbered next; an amendment's events all stand in the
    place of the entry it amended, numbered as it was) is its command's; an event with a
    line begins an entry of its own.
    """
    if event.said:
        return False
    if lined and previous is not None:
        number, before = event.originator_version, previous.originator_version
        return number == before if before in amended else number == before + 1
    return _legacy_follows(event, previous)


def _legacy_follows(event: MatchEvent, previous: MatchEvent | None) -> bool:
    """:func:`_follows` for events stored before lines were kept, from their kinds alone.

    LEGACY: remove with :mod:`bgledger.commands.legacy` once no stream or copy without
    lines is kept.

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
    lined = False  # the entry (or the ruling) being read begins with its line
    for event in in_force:
        if isinstance(event, MatchStarted | RulingMade | EntryCorrected | CopyImported):
            close()
            # what a ruling's command recorded after it (a restore, a match won) is the ruling's
            previous, lined = (event, True) if event.said else (None, False)
            continue
        follows = _follows(event, previous, lined, amended)
        if lined and follows and not group:
            previous = event  # recorded with a ruling or a correction: no entry
            continue
        if isinstance(event, GameStarted) and not follows:
            close()
            game += 1
            group.append(event)  # a game starts with its opening roll: one entry
        elif group and (follows or (isinstance(previous, GameStarted) and not event.said)):
            group.append(event)
        else:
            close()
            group.append(event)
        if event.said:
            lined = True
        elif not follows:
            lined = False
        previous = event
    close()
    return found
