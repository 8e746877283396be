"""The suite's own arrangements for running in parallel (tests/conftest.py, tests/corpus.py):
the files it starts first exist, the number of workers, and the corpus imported once a run by
whichever worker asks first."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests import conftest, corpus


def test_the_files_started_first_are_test_files() -> None:
    for name in conftest.SLOWEST_FIRST:
        assert (conftest.REPO / "tests" / name).is_file(), name
    assert len(set(conftest.SLOWEST_FIRST)) == len(conftest.SLOWEST_FIRST)


@pytest.mark.parametrize(("cpus", "workers"), [(1, 2), (2, 3), (4, 6), (8, 12)])
def test_three_workers_for_every_two_cpus(
    monkeypatch: pytest.MonkeyPatch, cpus: int, workers: int
) -> None:
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(cpus)))
    assert conftest.pytest_xdist_auto_num_workers(pytest.Config.__new__(pytest.Config)) == workers


def test_the_variable_of_pytest_xdist_still_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "5")
    assert conftest.pytest_xdist_auto_num_workers(pytest.Config.__new__(pytest.Config)) is None


NAMES = tuple(f"folder/{n:03}.mat" for n in range(60))


def _worker(folder: Path, log: Path, order: int, start: Any) -> None:
    """A worker asking for every file (the second one from the last), logging its imports;
    ``start``: a barrier both workers pass before asking, so that they ask at once."""
    corpus.FOLDER = folder
    corpus.names = lambda: NAMES  # type: ignore[assignment]

    def import_one(name: str) -> str:
        time.sleep(0.01)  # an import takes time: the other worker is asking meanwhile
        with log.open("a") as written:
            written.write(f"{os.getpid()} {name}\n")
        return f"imported {name}"

    corpus.import_one = import_one  # type: ignore[assignment]
    start.wait(30)
    for name in NAMES[::order]:
        assert corpus.imported(name) == f"imported {name}"  # type: ignore[comparison-overlap]


def test_two_workers_asking_at_once_import_each_file_once_between_them(tmp_path: Path) -> None:
    log = tmp_path / "imports.log"
    fork = multiprocessing.get_context("fork")
    start = fork.Barrier(2)
    workers = [
        fork.Process(target=_worker, args=(tmp_path / "corpus", log, order, start))
        for order in (1, -1)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    imports = [line.split() for line in log.read_text().splitlines()]
    assert sorted(name for _, name in imports) == sorted(NAMES)  # each once, none missing
    assert len({pid for pid, _ in imports}) == 2  # and the work was shared


def test_the_browser_files_are_spread_among_the_others() -> None:
    names = [f"test_{n}.py" for n in "abcdef"] + ["test_web_browser.py", "test_wall_browser.py"]
    places = conftest.spread(names)
    order = sorted(names, key=places.__getitem__)
    assert order == [
        "test_a.py", "test_b.py", "test_web_browser.py", "test_c.py",
        "test_d.py", "test_e.py", "test_wall_browser.py", "test_f.py",
    ]  # fmt: skip
