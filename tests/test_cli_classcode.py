"""The console script's compiled dataclass methods (:mod:`bgledger.cli.classcode`): the same
classes as Python makes, kept between runs, never trusted from a file that is not one."""

from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.cli.classcode import ClassCode

NAMES = ("a", "b", "c", "at", "said", "self_", "value")


@pytest.fixture
def writing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bytecode written, whatever the shell says (``PYTHONDONTWRITEBYTECODE``)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


@contextmanager
def installed(code: ClassCode) -> Iterator[None]:
    assert code.install()
    try:
        yield
    finally:
        code.uninstall()
    assert "exec" not in vars(dataclasses)


def make(fields: list[tuple[str, bool]], options: dict[str, bool]) -> type:
    """A dataclass of ``fields`` (name, has a default), made by ``dataclasses.dataclass``."""
    namespace: dict[str, Any] = {"__annotations__": {}}
    for name, has_default in fields:
        namespace["__annotations__"][name] = "int"
        if has_default:
            namespace[name] = dataclasses.field(default=len(name), kw_only=True)
    return dataclasses.dataclass(**options)(type("Made", (), namespace))


def behaviour(cls: type, fields: list[tuple[str, bool]], options: dict[str, bool]) -> list[Any]:
    """What a user of ``cls`` would notice: its signature, and two instances' repr, equality,
    order, hash, and whether they may be changed."""
    required = {name: i for i, (name, has_default) in enumerate(fields) if not has_default}
    one, two = cls(**required), cls(**{name: -i for name, i in required.items()})
    seen: list[Any] = [str(inspect.signature(cls)), repr(one), one == two, one == cls(**required)]
    if options.get("order"):
        seen.append(one < two)
    made_hash = cls.__hash__ not in (None, object.__hash__)  # else none, or the identity's
    seen.append(hash(one) if made_hash else cls.__hash__)
    try:
        setattr(one, "extra_field", 1)  # noqa: B010
        seen.append("settable")
    except (AttributeError, TypeError) as error:  # frozen, slots; Python's super() of both
        seen.append(type(error).__name__)
    return seen


@settings(max_examples=40, deadline=None)
@given(
    fields=st.lists(
        st.tuples(st.sampled_from(NAMES), st.booleans()),
        unique_by=lambda field: field[0],
        max_size=5,
    ),
    options=st.fixed_dictionaries(
        {"frozen": st.booleans(), "eq": st.booleans(), "slots": st.booleans()},
        optional={"order": st.just(True)},
    ),
)
def test_a_class_made_with_the_kept_code_is_the_one_python_makes(
    fields: list[tuple[str, bool]], options: dict[str, bool]
) -> None:
    if options.get("order") and not options["eq"]:
        options["eq"] = True  # dataclasses refuses order without eq, either way
    plain = behaviour(make(fields, options), fields, options)
    cold = ClassCode(None)
    with installed(cold):
        first = behaviour(make(fields, options), fields, options)
    assert cold.compiled > 0
    warm = ClassCode(None)
    warm._codes = dict(cold.codes)  # as read back from the file
    with installed(warm):
        again = behaviour(make(fields, options), fields, options)
    assert warm.compiled == 0  # every method's code was found, none compiled
    assert plain == first == again


@pytest.mark.usefixtures("writing")
def test_the_codes_are_kept_in_the_file_and_read_back(tmp_path: Path) -> None:
    path = str(tmp_path / "cache" / "codes.marshal")
    fields, options = [("a", False), ("b", True)], {"frozen": True, "eq": True}
    first = ClassCode(path)
    with installed(first):
        made = behaviour(make(fields, options), fields, options)
    first.save()
    assert os.path.exists(path) and not [p for p in os.listdir(tmp_path / "cache") if ".tmp" in p]
    second = ClassCode(path)
    with installed(second):
        assert behaviour(make(fields, options), fields, options) == made
    assert second.compiled == 0 and second.codes.keys() == first.codes.keys()


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not a marshal file at all",
        b"\x00\x00\r\n" + b"\x01" * 40,  # another Python's magic number
        importlib.util.MAGIC_NUMBER + b"\xff\xfe garbage",
        importlib.util.MAGIC_NUMBER + b"i\x07\x00\x00\x00",  # marshal of 7: not a dict
    ],
)
@pytest.mark.usefixtures("writing")
def test_a_file_that_is_not_ours_is_ignored_and_written_afresh(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "codes.marshal"
    path.write_bytes(content)
    code = ClassCode(str(path))
    fields, options = [("a", False)], {"frozen": True, "eq": True}
    with installed(code):
        assert behaviour(make(fields, options), fields, options)[1] == "Made(a=0)"
    assert code.compiled > 0
    code.save()
    assert ClassCode(str(path)).codes.keys() == code.codes.keys()


def test_nothing_is_written_without_bytecode_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    path = tmp_path / "codes.marshal"
    code = ClassCode(str(path))
    with installed(code):
        make([("a", False)], {"frozen": True})
    code.save()
    assert not path.exists()


def test_show_reads_the_same_with_the_kept_code(tmp_path: Path) -> None:
    """``bgledger show`` run three times: without the file (made then), with it, and with
    bytecode writing off (no file read or written in another cache folder)."""
    from bgledger.service import Ledger

    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    ledger = Ledger(url)
    ledger.start(("Ann", "Bob"), 3, match_id="m", by="kim")
    ledger.record_line("m", "opening 3 1", by="kim")
    ledger.close()
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(tmp_path / "pycache"), "BGLEDGER_DB": url}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = [sys.executable, "-m", "bgledger.cli.main", "show", "m", "--json"]

    def shown(**extra: str) -> str:
        done = subprocess.run(command, env={**env, **extra}, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    first = shown()
    kept = list((tmp_path / "pycache").rglob("dataclass-code.*.marshal"))
    assert len(kept) == 1
    assert shown() == first
    assert shown(PYTHONDONTWRITEBYTECODE="1", PYTHONPYCACHEPREFIX=str(tmp_path / "other")) == first
    assert not list((tmp_path / "other").rglob("*.marshal"))
