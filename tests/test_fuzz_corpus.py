"""The real corpus mutated and imported into a SQLite store (issue 7, bad input).

Thirty real ``.mat`` transcriptions from ``../shared/fixtures/matches``,
chosen with a seeded RNG, are each mutated a few ways at the byte and line
level (a line deleted, doubled or two swapped, a token replaced, the file cut
short, a byte changed) and imported through :mod:`bgledger.interchange.importer`
into one SQLite ledger: the file either imports or is refused with the
project's own error, and a refusal leaves the store with exactly the rows it
had.  (``test_importer`` fuzzes the reading and replay in memory; this is the
store's side.)
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bgledger.errors import BgLedgerError
from bgledger.interchange.importer import matches_from_mat
from bgledger.interchange.mat import read_mat_file
from bgledger.store.application import MatchStore
from tests.conftest import MATCHES

SAMPLE = 30
MUTANTS = 6
_WORDS = b"0 1 7 2 66: 52: 13/8 25/off Doubles => Takes Drops Wins point match Game : * \xff \xc3"
TOKENS = [*_WORDS.split(), b""]


def _sample() -> list[Path]:
    files = sorted(MATCHES.glob("*/*.mat"))
    return random.Random(7).sample(files, min(SAMPLE, len(files)))


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """``data`` with one to three random edits; the bytes and what was done."""
    lines, done = data.split(b"\n"), []
    for _ in range(rng.randint(1, 3)):
        op = rng.choice(["delete", "duplicate", "swap", "token", "truncate", "byte"])
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "token":
            words = lines[i].split(b" ")
            k = rng.randrange(len(words))
            words[k] = rng.choice([*TOKENS, str(rng.randint(-9, 99)).encode()])
            lines[i] = b" ".join(words)
        elif op == "truncate":
            joined = b"\n".join(lines)
            lines = joined[: rng.randrange(len(joined) + 1)].split(b"\n")
        else:
            at = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:at] + bytes([rng.randrange(256)]) + lines[i][at + 1 :]
        done.append(f"{op} at line {i + 1}")
    return b"\n".join(lines), ", ".join(done)


def rows(path: Path) -> dict[str, int]:
    """Rows per table of the SQLite file at ``path``."""
    with sqlite3.connect(path) as db:
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[MatchStore, Path]]:
    """One SQLite ledger for the module: each import checks its own before and after."""
    path = tmp_path_factory.mktemp("corpus") / "ledger.db"
    ledger = MatchStore(f"sqlite:///{path}")
    try:
        yield ledger, path
    finally:
        ledger.close()


@pytest.mark.parametrize("index", range(SAMPLE))
def test_a_mutated_real_file_imports_or_is_refused_leaving_the_store_as_it_was(
    index: int, store: tuple[MatchStore, Path], tmp_path: Path
) -> None:
    if not MATCHES.is_dir():
        pytest.skip(f"the shared real-match corpus is not at {MATCHES} (clone ../shared beside it)")
    files = _sample()
    if index >= len(files):
        pytest.skip(f"the corpus has only {len(files)} files")
    ledger, db = store
    original = files[index]
    rng = random.Random(f"{original.name}-{index}")
    for n in range(MUTANTS):
        data, what = mutate(original.read_bytes(), rng)
        path = tmp_path / f"{original.stem}-{n}.mat"
        path.write_bytes(data)
        before = rows(db)
        try:
            imported = matches_from_mat(read_mat_file(path), path.name, match_id=f"fz{index}-{n}")
            ledger.store_new(*(one.match for one in imported))
        except BgLedgerError:
            assert rows(db) == before, f"{original} ({what}) was refused but the store changed"
        except Exception as error:  # anything else is a crash: say how to make it again
            raise AssertionError(f"{original} ({what}): {error!r}") from error
        else:
            assert rows(db)["bgledger_events"] > before.get("bgledger_events", 0)
