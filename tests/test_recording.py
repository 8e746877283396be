"""Only the aggregate records: every event of a match is made by one of its named commands.

The commands are methods of :class:`~bgledger.commands.match.Match`, grouped by
feature as mixins on :class:`~bgledger.commands.stream.MatchStream`; they
record through the stream's protected ``_record``.  Nothing else may: no
public method records an event decided elsewhere, no module outside
``bgledger.commands`` calls ``_record``, and inside it only a command method
does (``self._record``), never a free function handed a match.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from bgledger.commands.match import Match
from bgledger.commands.stream import MatchStream

REPO = Path(__file__).resolve().parent.parent
COMMANDS = REPO / "ledger" / "commands"
FOLDERS = ("ledger", "projections", "cli", "tests", "bench")


def _calls_to_record(path: Path) -> Iterator[ast.Call]:
    """The calls ``<something>._record(...)`` in ``path``, but ``super()._record``.

    The store's application overrides the ``eventsourcing`` library's own
    ``Application._record`` (which stores recordings) and calls it on ``super()``.
    """
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr != "_record":
            continue
        receiver = node.func.value
        if isinstance(receiver, ast.Call) and getattr(receiver.func, "id", None) == "super":
            continue
        yield node


def _sources() -> Iterator[Path]:
    for folder in FOLDERS:
        yield from sorted((REPO / folder).rglob("*.py"))


def test_nothing_outside_the_commands_records() -> None:
    wrong = [
        f"{path.relative_to(REPO)}:{call.lineno}"
        for path in _sources()
        if not path.is_relative_to(COMMANDS)
        for call in _calls_to_record(path)
    ]
    assert not wrong, "_record called outside bgledger.commands: " + ", ".join(wrong)


def test_inside_the_commands_only_a_command_method_records() -> None:
    wrong = [
        f"{path.relative_to(REPO)}:{call.lineno}"
        for path in sorted(COMMANDS.rglob("*.py"))
        for call in _calls_to_record(path)
        if not (
            isinstance(call.func, ast.Attribute) and getattr(call.func.value, "id", "") == "self"
        )
    ]
    assert not wrong, "_record called on something other than self: " + ", ".join(wrong)


def test_the_stream_has_no_public_way_to_record() -> None:
    """No public method of the stream records an event decided elsewhere."""
    assert not hasattr(MatchStream, "append")
    tree = ast.parse((COMMANDS / "stream.py").read_text(encoding="utf-8"))
    stream = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "MatchStream")
    recording = [
        method.name
        for method in stream.body
        if isinstance(method, ast.FunctionDef) and not method.name.startswith("_")
        for node in ast.walk(method)
        if isinstance(node, ast.Attribute) and node.attr == "_record"
    ]
    assert not recording, f"public methods of MatchStream that record: {recording}"


def test_every_command_is_a_named_method_of_the_match() -> None:
    """The contract's verbs are methods; a clock or break verb that clashes is named for it."""
    verbs = {
        "opening", "roll", "void_roll", "move", "record_unplayable", "double", "take", "drop",
        "resign", "accept", "reject", "roll_early", "double_early", "accept_roll", "refuse_roll",
        "start", "record_setup", "correct_setup", "start_clock", "hit", "stop_clock",
        "resume_clock", "read_clock", "set_clock", "flag", "early_pickup", "missed_hit",
        "start_break", "end_break", "late", "penalty", "revert", "void_cube", "nullify_pass",
        "correct_cube", "correct_length", "correct_score", "note", "overturn",
    }  # fmt: skip
    assert all(callable(getattr(Match, verb, None)) for verb in verbs)
