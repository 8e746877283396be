"""The code of the methods :mod:`dataclasses` writes, kept compiled between runs of ``bgledger``.

A dataclass's methods (``__init__``, ``__repr__``, ``__eq__``, and for a frozen
one ``__hash__``, ``__setattr__``, ``__delattr__``) are written by
:mod:`dataclasses` as source text and compiled when the class is made, one
``exec`` each.  A one-shot command makes about 120 dataclasses before it reads
an event (the events, the rulebook's model, the state, the views), and 180 with
the vocabulary of commands; compiling their 700-odd methods is about three
quarters of the cost of making them, and a quarter of what a one-shot command
spends in bgledger's own modules (``bench/bench_startup.py``, issue 34).  The
text of each method depends only on the class's definition, so its compiled
code is the same on every run, as a module's bytecode is.

:class:`ClassCode`, installed by the ``bgledger`` console script
(:func:`bgledger.cli.main.run`) for the whole command, gives :mod:`dataclasses`
an ``exec`` that looks the text up among the codes compiled before and compiles
only what it has not seen, exactly as ``exec`` would have (``dont_inherit``:
no ``__future__`` flag of this module).  The classes made are the same, method
for method (``tests/test_cli_classcode.py``).  The codes are kept in one file
beside this module's bytecode (its ``__pycache__``, or ``PYTHONPYCACHEPREFIX``'s
folder), named for the interpreter and headed by its bytecode's magic number,
written again (atomically) only when a run compiled something new, and never
with ``PYTHONDONTWRITEBYTECODE``; a file that cannot be read is ignored.  The
library (``import bgledger``) and the tests make their classes as usual.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import marshal
import os
import sys
from types import CodeType
from typing import Any

KEPT_MOST = 5000
"""Codes a file keeps at most: past that (classes made and changed over many versions), the
file starts afresh."""


class ClassCode:
    """The codes of dataclasses' methods by their text, read from and written to ``path``."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._codes: dict[str, CodeType] | None = None
        self.compiled = 0
        """Texts compiled by this run (not found in the file)."""

    @property
    def codes(self) -> dict[str, CodeType]:
        """The codes by text: the file's, read when the first class is made, and this run's."""
        if self._codes is None:
            self._codes = _read(self.path) if self.path is not None else {}
        return self._codes

    def exec(
        self,
        source: str | CodeType,
        globals: dict[str, Any] | None = None,
        locals: dict[str, Any] | None = None,
    ) -> None:
        """``exec(source, globals, locals)``, the text's code compiled once for every run."""
        if isinstance(source, str):
            codes = self.codes
            code = codes.get(source)
            if code is None:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                codes[source] = code
                self.compiled += 1
            source = code
        exec(source, globals, locals)

    def install(self) -> bool:
        """Make :mod:`dataclasses` use :meth:`exec`; False if something else already does."""
        if "exec" in vars(dataclasses):
            return False
        dataclasses.exec = self.exec  # type: ignore[attr-defined]
        return True

    def uninstall(self) -> None:
        """Give :mod:`dataclasses` back Python's own ``exec``."""
        if vars(dataclasses).get("exec") == self.exec:
            del dataclasses.exec  # type: ignore[attr-defined]

    def save(self) -> None:
        """Write the codes if this run compiled any (never under ``PYTHONDONTWRITEBYTECODE``)."""
        if self.path is None or not self.compiled or sys.dont_write_bytecode:
            return
        codes = self.codes if len(self.codes) <= KEPT_MOST else {}
        temporary = f"{self.path}.{os.getpid()}.tmp"
        with contextlib.suppress(OSError, ValueError):
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            try:
                with open(temporary, "wb") as file:  # the umask's mode, as a .pyc's
                    file.write(importlib.util.MAGIC_NUMBER + marshal.dumps(codes))
                os.replace(temporary, self.path)  # a reader sees the old file or the new
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise


def default_path() -> str | None:
    """The file beside this module's bytecode, named for the interpreter (None: no such place)."""
    cached = globals().get("__cached__")
    tag = sys.implementation.cache_tag
    if not cached or tag is None:
        return None
    return os.path.join(os.path.dirname(cached), f"dataclass-code.{tag}.marshal")


def _read(path: str) -> dict[str, CodeType]:
    """The codes the file holds; none if it is missing, another Python's, or unreadable."""
    magic = importlib.util.MAGIC_NUMBER
    try:
        with open(path, "rb") as file:
            data = file.read()
        if not data.startswith(magic):
            return {}
        # from bytes: marshal.load on a file reads it a few bytes at a time, ten times slower
        codes = marshal.loads(memoryview(data)[len(magic) :])
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(codes, dict):
        return {}
    return {
        text: code
        for text, code in codes.items()
        if isinstance(text, str) and isinstance(code, CodeType)
    }
