"""Rulebooks are data (DESIGN principle 5): every rule the code cites comes from a profile.

A command that refuses or records, a view that shows what was decided, asks
the match's profile for the rule (``profile.cite(Decision.X)``,
:func:`bgledger.projections.views.words.rule_for`); only the profiles
(``ledger/rules/``) hold rules as text.  Documentation may name rules:
docstrings, comments, and the ``help=`` and ``epilog=`` texts of the
command line, which describe a command for every profile at once.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bgledger.projections.state.clock import REASONS, STOPPED_UNDER
from bgledger.rules import judge
from bgledger.rules.notation import Play
from bgledger.rules.position import Position
from bgledger.rules.profiles import PROFILES, Decision
from tests.conftest import board

ROOT = Path(__file__).resolve().parent.parent
CODE = ("ledger", "projections", "cli")
RULEBOOKS = ROOT / "ledger" / "rules"
CITATION = re.compile(r"\b(USBGF|ABT|CLASSIC|CLOCK) (\d|Appendix)")
DOCUMENTATION = frozenset({"help", "epilog", "summary", "usage", "example", "details"})
"""Keyword arguments whose text documents a command (click's ``help=`` and ``epilog=``), and
the help a command of the vocabulary carries (``summary``, ``usage``, ``example``, ``details``;
an ``Option``'s help, its second argument)."""


def _sources() -> list[Path]:
    return sorted(
        path
        for folder in CODE
        for path in (ROOT / folder).rglob("*.py")
        if RULEBOOKS not in path.parents
    )


def _documentation(tree: ast.AST) -> set[int]:
    """The ids of the string constants that document: docstrings and help texts."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for index, statement in enumerate(body):
                if not (
                    isinstance(statement, ast.Expr)
                    and isinstance(statement.value, ast.Constant)
                    and isinstance(statement.value.value, str)
                ):
                    continue
                first = index == 0 and isinstance(
                    node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
                )
                after_assignment = index > 0 and isinstance(
                    body[index - 1], ast.Assign | ast.AnnAssign
                )
                if first or after_assignment:  # a docstring, or an attribute's docstring
                    found.add(id(statement.value))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Option"
            and len(node.args) > 1
        ):  # a verb's option on the command line: Option(NAME, HELP, ...)
            found.update(id(part) for part in ast.walk(node.args[1]))
        if isinstance(node, ast.keyword) and node.arg in DOCUMENTATION:
            found.update(id(part) for part in ast.walk(node.value))
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id in DOCUMENTATION for target in node.targets
        ):
            found.update(id(part) for part in ast.walk(node.value))
    return found


def _literal_citations(path: Path) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of each string in ``path`` that cites a rule and is no documentation."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    documentation = _documentation(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in documentation
            and CITATION.search(node.value)
        ):
            yield node.lineno, node.value


def test_no_string_literal_cites_a_rule_outside_the_rulebooks() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}"
        for path in _sources()
        for line, text in _literal_citations(path)
    ]
    assert found == [], "rules cited as string literals:\n" + "\n".join(found)


def test_the_check_finds_literals_and_passes_documentation(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Module docs may cite USBGF 4.2.3."""\n'
        "RULE = 'USBGF 2.2.2'\n"
        '"""So may an attribute docstring: USBGF 2.2.2."""\n'
        "def f(letter):\n"
        '    """USBGF 4.3.2 in a docstring."""\n'
        "    option(help='Both players agreed (USBGF 4.2.3(f)).')\n"
        "    return f'USBGF 4.3.2({letter})', 'cites ABT 4.9 in a message'\n",
        encoding="utf-8",
    )
    assert sorted(_literal_citations(sample)) == [
        (2, "USBGF 2.2.2"),
        (7, "USBGF 4.3.2("),
        (7, "cites ABT 4.9 in a message"),
    ]


@pytest.mark.parametrize("name", list(PROFILES))
def test_every_profile_cites_every_decision(name: str) -> None:
    profile = PROFILES[name]
    for decision in Decision:
        assert CITATION.match(profile.cite(decision)), (name, decision)


@pytest.mark.parametrize("name", list(PROFILES))
def test_what_the_ledger_reads_back_agrees_with_the_profiles(name: str) -> None:
    """The letters a director types for a stop are the clauses the profile cites; the
    judge flags plays under the rules the match's profile cites for them."""
    profile = PROFILES[name]
    assert set(STOPPED_UNDER) == set(REASONS)
    for code, (letter, _) in REASONS.items():
        rule = profile.cite(STOPPED_UNDER[code])
        assert rule.endswith(f"({letter})") if letter else "(" not in rule, (code, rule)
    start = Position.start()
    wrong = judge.judge(start, (5, 2), Play.parse("13/8 24/20"), profile)
    assert (wrong.decision, wrong.rule) == (
        Decision.ILLEGAL_PLAY_OF_DICE,
        profile.cite(Decision.ILLEGAL_PLAY_OF_DICE),
    )
    early = judge.judge(EARLY_BEAR_OFF, (3, 1), Play.parse("12/9 1/off"), name)
    assert early.rule == profile.cite(Decision.UNRELATED_TO_DICE)


EARLY_BEAR_OFF = board({12: 14, 1: 1}, {1: 1})


def _prefix(rule: str) -> str:
    return rule.split()[0]


@pytest.mark.parametrize("name", list(PROFILES))
def test_every_citation_a_profile_can_carry_is_to_its_own_rulebook_or_says_why(
    name: str,
) -> None:
    """A refusal or ruling carries a rule of the match's profile: every decision's, every
    correction window and remedy, every void reason and clock setting.  Each is to one of
    the profile's own books (its prefix), or is a section the profile inherits and says why
    in its note (the classic laws are silent on the cube, the clock, the score ...)."""
    profile = PROFILES[name]
    strays = [
        (citation.rule, citation.quote[:40])
        for citation in profile.citations()
        if citation.rule and not profile.own(citation) and not citation.note
    ]
    assert strays == []
    cited = {_prefix(profile.cite(decision)) for decision in Decision}
    assert cited & set(profile.books)


def test_classic_cites_its_own_laws_where_they_speak_and_usbgf_only_where_silent() -> None:
    classic = PROFILES["classic"]
    assert classic.books == ("CLASSIC",)
    for decision in Decision:
        citation = classic.citation(decision)
        if not classic.own(citation):
            assert "classic laws (3-11) are silent" in citation.note, decision
    assert {d for d in Decision if classic.own(classic.citation(d))} == {
        Decision.VOID_ROLL,
        Decision.OPENING_THROW,
        Decision.SAME_CHECKER,
        Decision.ILLEGAL_PLAY,
        Decision.ILLEGAL_PLAY_OF_DICE,
        Decision.INTERFERED_DICE,  # CLASSIC 7
        Decision.CALLED_THROW,  # CLASSIC 8
        Decision.TOUCH_MOVE,  # CLASSIC 11
    }
