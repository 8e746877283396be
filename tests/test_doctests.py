"""The examples in the modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "bgledger",
    "bgledger.service",
    "bgledger.commands.language",
    "bgledger.store.application",
    "bgledger.commands.breaks",
    "bgledger.commands.clock",
    "bgledger.commands.match",
    "bgledger.commands.play",
    "bgledger.commands.cube",
    "bgledger.commands.premature",
    "bgledger.commands.statements",
    "bgledger.rules.profiles",
    "bgledger.projections.views.audit",
    "bgledger.projections.views.words",
    "bgledger.projections.views.moment",
    "bgledger.projections.views.step",
    "bgledger.projections.views.scoresheet",
    "bgledger.projections.views.text",
    "bgledger.projections.state.situation",
    "bgledger.projections.state.allowed",
    "bgledger.projections.views.triage",
    "bgledger.web.steps",
    "bgledger.web.words",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
