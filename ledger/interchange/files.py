"""Files into the ledger: a ``.mat`` transcription or bgledger's own JSON copy, all or nothing.

:func:`import_file` reads one file, replays every match in it (the ``.mat``
reader and importer, or the JSON stream and its recheck) and stores them in
one transaction.  A file that cannot be read, understood or stored is refused
with :class:`ImportRefusedError`, naming the line and the reason, and leaves
nothing behind.

A match already in the ledger is refused too, whatever the file is called and
however it was written (the same file renamed, a ``.mat`` or JSON copy that
bgledger exported): the caller passes ``same``, which finds a stored match
with the same :func:`content_key`, and the refusal names that match.  The key
is worked out from the events, not stored: what the match *is* (the players,
the length, the score it began at, and every roll, play, cube action and game
result in force), never the file's bytes, its tags or the times.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path

import sqlalchemy.exc
from eventsourcing.persistence import IntegrityError

from bgledger.errors import BgLedgerError, SealRefusedError
from bgledger.events import (
    CheckersPlayed,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    GameWon,
    MatchEvent,
    MatchStarted,
    OpeningRollMade,
    RollVoided,
    UnplayablePlayRecorded,
)
from bgledger.interchange.importer import ImportedMatch, matches_from_mat
from bgledger.interchange.json_stream import import_json, read_json
from bgledger.interchange.mat import read_bounded, read_mat_file
from bgledger.projections.state.corrected import in_force
from bgledger.projections.state.fold import MatchState, fold_in_force, needs_history
from bgledger.store.application import MatchStore
from bgledger.store.seal import Seal, check_seal

__all__ = ["ImportRefusedError", "SameMatch", "content_key", "import_file"]

_CONFLICTS = (IntegrityError, sqlalchemy.exc.IntegrityError)

SameMatch = Callable[[Sequence[MatchEvent], Sequence[MatchState] | None], str | None]
"""Given a new match's events (and the state after each as it was recorded, if known), the
id of a stored match that is the same match, or None."""


class ImportRefusedError(BgLedgerError):
    """A file that was not imported, and why."""


def _token(event: MatchEvent, after: MatchState | None) -> list[object] | None:
    """What ``event`` adds to what a match is (None: nothing, e.g. a clock hit or a tie).

    ``after`` is the match after ``event`` if it is a play (else it may be older).
    """
    if isinstance(event, OpeningRollMade):
        return None if event.die_a == event.die_b else ["opening", event.die_a, event.die_b]
    if isinstance(event, DiceRolled):
        return ["roll", event.player, *sorted((event.die1, event.die2))]
    if isinstance(event, CheckersPlayed) and after is not None:  # the board it leaves:
        return ["play", event.player, after.position.position_id]  # however it was written
    if isinstance(event, UnplayablePlayRecorded):
        return ["unplayable", event.player, event.play]
    if isinstance(event, CubeOffered | CubeTaken | CubeDropped):
        return [type(event).__name__, event.player, event.value]
    if isinstance(event, GameWon):
        return ["won", event.number, event.winner, event.result, event.points]
    return None


def unruled(events: Sequence[MatchEvent], kept: Sequence[MatchEvent]) -> bool:
    """Whether ``kept`` (:func:`in_force`'s list of ``events``) is ``events`` themselves and no
    event is a ruling: then the match as recorded, event by event, is the match as corrected."""
    return (
        len(kept) == len(events)
        and all(a is b for a, b in zip(kept, events, strict=True))
        and not any(needs_history(event) for event in events)
    )


def content_key(
    events: Sequence[MatchEvent], states: Sequence[MatchState] | None = None
) -> str | None:
    """A digest of what the match of ``events`` is, the same for every copy of it.

    The players, the length and the score it began at, then each roll, play
    (as the board it leaves), cube action and game result among the events in
    force (:func:`~bgledger.projections.state.corrected.in_force`); a voided
    roll and what was recorded with it do not count.  None for a match with
    no roll yet: there is nothing to tell two of those apart by.

    ``states``, if given, is the state after each of ``events`` as it was
    recorded (a new match's, :attr:`~bgledger.commands.stream.MatchStream.made`):
    when every event is in force and none is a ruling (:func:`unruled`), that
    is the fold in force, and the boards are read from it instead of being
    folded again.
    """
    kept = in_force(events)
    if not kept or not isinstance(kept[0], MatchStarted):
        return None
    if states is not None and len(states) == len(events) and unruled(events, kept):
        return _key(kept, states)
    return _key(kept, None)


def _key(kept: Sequence[MatchEvent], states: Sequence[MatchState] | None) -> str | None:
    """:func:`content_key` of the events in force ``kept``; ``states``: the state after each."""
    start = kept[0]
    assert isinstance(start, MatchStarted)
    tokens: list[list[object]] = [
        [start.player_a, start.player_b, start.length, start.score_a, start.score_b]
    ]
    state: MatchState | None = None
    waiting: list[MatchEvent] = []  # folded at the next play: one state a play, not an event
    for number, event in enumerate(kept):
        if states is not None:
            state = states[number] if isinstance(event, CheckersPlayed) else state
        else:
            waiting.append(event)
            if isinstance(event, CheckersPlayed):
                state, waiting = fold_in_force(waiting, state), []
        if isinstance(event, RollVoided):  # the roll and a dance recorded with it are void
            while len(tokens) > 1 and tokens.pop()[0] not in ("roll", "opening"):
                pass
            continue
        token = _token(event, state)
        if token is not None:
            tokens.append(token)
    if len(tokens) == 1:
        return None
    text = json.dumps(tokens, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _check_new(
    events: Sequence[MatchEvent], same: SameMatch | None, states: Sequence[MatchState] | None
) -> None:
    found = None if same is None else same(events, states)
    if found is not None:
        raise ImportRefusedError(
            f"already in the ledger as match {found}: the same players, length and games "
            "(--again imports it anyway)"
        )


def import_file(
    ledger: MatchStore,
    path: Path,
    *,
    match_id: str | None,
    profile: str,
    by: str,
    same: SameMatch | None = None,
    seal: Path | None = None,
    pub: Path | None = None,
) -> list[ImportedMatch]:
    """Replay every match of the file at ``path`` and store them in one transaction.

    A ``.json`` file is bgledger's own export (:mod:`bgledger.interchange.json_stream`).
    Without ``match_id``, each match of a ``.mat`` file gets a readable id
    (:func:`~bgledger.interchange.importer.readable_id`) no match has yet.
    ``same`` (none: no check) finds a stored match that is the same as one of
    the file's.  With ``seal`` and ``pub`` (a JSON copy only), the seal must be
    signed by the key in ``pub`` and vouch for the copy's events
    (:func:`~bgledger.interchange.json_stream.sealed_through`), or nothing is stored.

    :raises ImportRefusedError: for a file that cannot be read, understood or
        stored (the match id taken, the match already there); nothing of it is stored.
    """
    try:
        if path.suffix.lower() == ".json":
            trusted = None
            if seal is not None and pub is not None:
                trusted = check_seal(seal, pub=pub, match_id=None)
            return [_import_json(ledger, path, match_id=match_id, by=by, same=same, seal=trusted)]
        if seal is not None:
            raise ImportRefusedError("a seal vouches for a JSON copy (.json), not a .mat file")
        mat = read_mat_file(path)
        imported = matches_from_mat(
            mat, str(path), match_id=match_id, profile=profile, by=by, taken=ledger.exists
        )
    except OSError as error:
        raise ImportRefusedError(f"cannot read it: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise ImportRefusedError(f"not UTF-8 text: {error.reason}") from None
    except BgLedgerError as error:
        raise ImportRefusedError(str(error)) from None
    for one in imported:
        _check_new(one.match.pending, same, one.match.made)
    try:
        ledger.store_new(*(one.match for one in imported))
    except _CONFLICTS:
        ids = ", ".join(one.match_id for one in imported)
        raise ImportRefusedError(
            f"already in the ledger: match id {ids} exists (--id imports it under another id)"
        ) from None
    return imported


def _import_json(
    ledger: MatchStore,
    path: Path,
    *,
    match_id: str | None,
    by: str,
    same: SameMatch | None,
    seal: Seal | None,
) -> ImportedMatch:
    text = read_bounded(path).decode("utf-8", errors="replace")
    document = read_json(text, name=str(path))
    if seal is not None and seal.whole_ledger:  # a ledger seal (seal --all): this match's part
        one = seal.of(document.match_id)
        if one is None:
            raise SealRefusedError(f"the ledger seal lists no match {document.match_id!r}")
        seal = one
    _check_new(document.events, same, None)
    stored = import_json(ledger, document, match_id=match_id, by=by, seal=seal)
    match = ledger.load(stored)
    return ImportedMatch(match, str(path), len(match.state.games), abandoned=False)
