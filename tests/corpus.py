"""The real corpus as the importer records it, imported once a run whichever worker asks first.

``test_import_corpus.py`` and ``test_corpus_replay.py`` both read all 313 real files as
:func:`~bgledger.interchange.importer.matches_from_mat` replays them (12 to 27 s of CPU each
time).  They are the two slowest files, started first, so under pytest-xdist they run at once on
two workers.  Each worker imports the files no other worker has claimed yet and leaves them,
pickled, in a folder that the run's workers share (:data:`FOLDER`, in the run's own temporary
folder: nothing is kept from one run to the next); a worker that needs a file another worker
is importing imports the next unclaimed one meanwhile.  The two workers thus share the import
instead of doing it twice.  Without xdist each file is imported in the process, once.

What is shared is the importer's own result, pickled whole: the tests still read every event
the import recorded, as before.
"""

from __future__ import annotations

import os
import pickle
import time
from functools import cache
from pathlib import Path
from typing import cast

from bgledger.interchange.importer import ImportedMatch, matches_from_mat
from bgledger.interchange.mat import read_mat_file
from tests.conftest import shared_matches

FOLDER: Path | None = None
"""The folder the run's workers share, set by ``tests/conftest.py`` on a pytest-xdist worker:
the parent of its temporary folder (``.../pytest-N/popen-gw0``), which pytest removes with the
run's other temporary folders."""

_CLAIM_STALE = 300.0
"""Seconds after which a claim with no result is taken over (its worker died mid-import)."""


@cache
def names() -> tuple[str, ...]:
    """Every real file, as ``folder/file.mat``, in order."""
    root = shared_matches()
    return tuple(sorted(str(path.relative_to(root)) for path in root.glob("*/*.mat")))


def profile_for(name: str) -> str:
    """The profile a file is imported under: ``online`` for online play, else USBGF 2016."""
    return "online" if name.startswith("online-") else "usbgf-2016"


def import_one(name: str) -> ImportedMatch:
    """``name`` imported, as the tests read it (one match a file)."""
    (only,) = matches_from_mat(
        read_mat_file(shared_matches() / name), name, profile=profile_for(name)
    )
    return only


_HERE: dict[str, ImportedMatch] = {}
"""What this process imported or read, by name."""


def imported(name: str) -> ImportedMatch:
    """``name`` imported: imported or read once in this process, else read from the run's
    shared folder, or imported here."""
    if name not in _HERE:
        _HERE[name] = import_one(name) if FOLDER is None else _Shared(FOLDER).get(name)
    return _HERE[name]


class _Shared:
    """The run's folder: ``N.claim`` while a worker imports file N, then ``N.pickle``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(exist_ok=True)

    def get(self, name: str) -> ImportedMatch:
        index = names().index(name)
        while True:
            found = self._read(index)
            if found is not None:
                return found
            if self._claim(index):
                return self._import(index)
            # Another worker is importing it: import one nobody has claimed meanwhile.
            ahead = next(
                (n for n, other in enumerate(names()) if other not in _HERE and self._claim(n)),
                None,
            )
            if ahead is not None:
                self._import(ahead)
            elif self._stale(index):
                return self._import(index)
            else:
                time.sleep(0.05)

    def _pickle(self, index: int) -> Path:
        return self.folder / f"{index}.pickle"

    def _read(self, index: int) -> ImportedMatch | None:
        try:
            data = self._pickle(index).read_bytes()
        except FileNotFoundError:
            return None
        return cast(ImportedMatch, pickle.loads(data))

    def _claim(self, index: int) -> bool:
        try:
            os.close(os.open(self.folder / f"{index}.claim", os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return False
        return True

    def _stale(self, index: int) -> bool:
        claim = self.folder / f"{index}.claim"
        return claim.exists() and time.time() - claim.stat().st_mtime > _CLAIM_STALE

    def _import(self, index: int) -> ImportedMatch:
        done = _HERE[names()[index]] = import_one(names()[index])
        part = self.folder / f"{index}.{os.getpid()}.part"
        part.write_bytes(pickle.dumps(done, protocol=pickle.HIGHEST_PROTOCOL))
        part.replace(self._pickle(index))
        return done
