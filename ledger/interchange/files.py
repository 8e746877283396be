"""Files into the ledger: a ``.mat`` transcription or bgledger's own JSON copy, all or nothing.

:func:`import_file` reads one file, replays every match in it (the ``.mat``
reader and importer, or the JSON stream and its recheck) and stores them in
one transaction.  A file that cannot be read, understood or stored is refused
with :class:`ImportRefusedError`, naming the line and the reason, and leaves
nothing behind.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy.exc
from eventsourcing.persistence import IntegrityError

from bgledger.errors import BgLedgerError
from bgledger.interchange.importer import ImportedMatch, matches_from_mat
from bgledger.interchange.json_stream import import_json, read_json
from bgledger.interchange.mat import read_mat_file
from bgledger.store.application import MatchStore

__all__ = ["ImportRefusedError", "import_file"]

_CONFLICTS = (IntegrityError, sqlalchemy.exc.IntegrityError)


class ImportRefusedError(BgLedgerError):
    """A file that was not imported, and why."""


def import_file(
    ledger: MatchStore, path: Path, *, match_id: str | None, profile: str, by: str
) -> list[ImportedMatch]:
    """Replay every match of the file at ``path`` and store them in one transaction.

    A ``.json`` file is bgledger's own export (:mod:`bgledger.interchange.json_stream`).

    :raises ImportRefusedError: for a file that cannot be read, understood or
        stored (the match id taken); nothing of it is stored.
    """
    try:
        if path.suffix.lower() == ".json":
            return [_import_json(ledger, path, match_id=match_id, by=by)]
        mat = read_mat_file(path)
        imported = matches_from_mat(mat, str(path), match_id=match_id, profile=profile, by=by)
    except OSError as error:
        raise ImportRefusedError(f"cannot read it: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise ImportRefusedError(f"not UTF-8 text: {error.reason}") from None
    except BgLedgerError as error:
        raise ImportRefusedError(str(error)) from None
    try:
        ledger.store_new(*(one.match for one in imported))
    except _CONFLICTS:
        ids = ", ".join(one.match_id for one in imported)
        raise ImportRefusedError(
            f"already in the ledger: match id {ids} exists (--id imports it under another id)"
        ) from None
    return imported


def _import_json(ledger: MatchStore, path: Path, *, match_id: str | None, by: str) -> ImportedMatch:
    document = read_json(path.read_text(encoding="utf-8"), name=str(path))
    stored = import_json(ledger, document, match_id=match_id, by=by)
    match = ledger.load(stored)
    return ImportedMatch(match, str(path), len(match.state.games), abandoned=False)
