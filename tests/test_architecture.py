"""The tree shows the layers: who may import whom, and what the distribution installs.

The allowed dependencies below are the architecture (docs/architecture.md, "Layers"):
the pure rules and the event vocabulary at the bottom, the one fold above
them, the aggregate's commands above the fold, the store above the commands,
then interchange and the tournament read models, the front door, and the
adapters on top.  A new import that crosses a layer the wrong way fails here,
naming the module and the import.  The adapters (the command line and the
web server) go through the front door only: they import the service (or the
package's surface), the views and the error types, nothing else of the
library; the bearer tokens of the web server are a small module the front
door owns (``bgledger.access``), as are the events' publications to spectators
(``bgledger.publication``).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FOLDERS = {
    "ledger": "bgledger",
    "projections": "bgledger.projections",
    "cli": "bgledger.cli",
    "web": "bgledger.web",
}

RULES = "bgledger.rules"
EVENTS = "bgledger.events"
ERRORS = "bgledger.errors"
STATE = "bgledger.projections.state"
VIEWS = "bgledger.projections.views"
READMODELS = "bgledger.projections.readmodels"
COMMANDS = "bgledger.commands"
STORE = "bgledger.store"
INTERCHANGE = "bgledger.interchange"
ACCESS = "bgledger.access"  # the web server's bearer tokens, which the front door owns
PUBLICATION = "bgledger.publication"  # an event's wall open to spectators, likewise
SERVICE = "bgledger.service"  # the front door
PACKAGE = "bgledger"  # the package's own __init__: the import surface

ALLOWED: dict[str, set[str]] = {
    RULES: set(),
    EVENTS: set(),
    ERRORS: {RULES},
    STATE: {RULES, EVENTS},
    VIEWS: {RULES, EVENTS, STATE},
    COMMANDS: {RULES, EVENTS, ERRORS, STATE},
    STORE: {RULES, EVENTS, ERRORS, STATE, COMMANDS},
    INTERCHANGE: {RULES, EVENTS, ERRORS, STATE, VIEWS, COMMANDS, STORE},
    READMODELS: {RULES, EVENTS, ERRORS, STATE, VIEWS, STORE},
    ACCESS: {RULES, ERRORS},
    PUBLICATION: {ERRORS, STORE},
    SERVICE: {
        RULES,
        EVENTS,
        ERRORS,
        STATE,
        VIEWS,
        COMMANDS,
        STORE,
        INTERCHANGE,
        READMODELS,
        ACCESS,
        PUBLICATION,
    },
    PACKAGE: {SERVICE, ERRORS, RULES},
}
"""Each layer and the layers it may import (the package's own, not other libraries)."""

CLI = "bgledger.cli"
WEB = "bgledger.web"  # an adapter, the command line's peer
ADAPTERS = (CLI, WEB)
GROUPS = sorted(
    [*(group for group in ALLOWED if group != PACKAGE), *ADAPTERS], key=len, reverse=True
)
"""The layers a module can belong to (the package's ``__init__`` is its own: :func:`layer`)."""

VOCABULARY = "bgledger.commands.vocabulary"
ADAPTER_MAY_IMPORT = (PACKAGE, SERVICE, ERRORS, "bgledger.rules.errors", VOCABULARY)
"""What an adapter (command line, web) imports of the library, besides the layers below: the
commands it builds are values of the vocabulary (DESIGN principle 10)."""
FOLDS = (
    ("bgledger.projections.views.moment", "moment"),
    ("bgledger.projections.views.audit", "history"),
)
"""The views that fold a match's events: an adapter asks the front door for what they give."""
ADAPTER_LAYERS = {CLI: (CLI, VIEWS, WEB), WEB: (WEB, VIEWS)}
"""The layers an adapter imports whole: itself, the views; ``serve`` starts the web app."""


def module_name(path: Path) -> str:
    """The import name of a file: ``ledger/events/game.py`` is ``bgledger.events.game``."""
    relative = path.relative_to(REPO)
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([FOLDERS[parts[0]], *parts[1:]])


def layer(name: str) -> str:
    """The layer a module belongs to (a root module such as ``bgledger.errors`` is its own)."""
    for group in GROUPS:
        if name == group or name.startswith(group + "."):
            return group
    return name


def sources() -> Iterator[Path]:
    for folder in FOLDERS:
        yield from sorted((REPO / folder).rglob("*.py"))


def _modules() -> set[str]:
    return {module_name(path) for path in sources()}


def imports(path: Path) -> Iterator[tuple[str, str]]:
    """Each ``bgledger`` name ``path`` imports: (module, imported name or '').

    ``from bgledger import events`` imports the module ``bgledger.events``.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules = _modules()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("bgledger"):
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    if submodule in modules:
                        yield submodule, ""
                    else:
                        yield node.module, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("bgledger"):
                    yield alias.name, ""


def edges() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sources():
        here = layer(module_name(path))
        for module, _ in imports(path):
            there = layer(module)
            if there != here:
                found.setdefault(here, set()).add(there)
    return found


def test_every_import_goes_down_the_layers() -> None:
    wrong = []
    for path in sources():
        here = layer(module_name(path))
        if here not in ALLOWED:
            continue
        for module, _ in imports(path):
            there = layer(module)
            if there != here and there not in ALLOWED[here]:
                wrong.append(f"{path.relative_to(REPO)} ({here}) imports {module} ({there})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_an_adapter_imports_only_the_front_door_the_views_and_the_errors(adapter: str) -> None:
    folder = next(folder for folder, name in FOLDERS.items() if name == adapter)
    wrong = []
    for path in sorted((REPO / folder).rglob("*.py")):
        for module, _ in imports(path):
            if module not in ADAPTER_MAY_IMPORT and layer(module) not in ADAPTER_LAYERS[adapter]:
                wrong.append(f"{path.relative_to(REPO)} imports {module}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_an_adapter_runs_no_fold(adapter: str) -> None:
    """A replay, a trail, a state: the front door folds, the adapter renders what it returns."""
    folder = next(folder for folder, name in FOLDERS.items() if name == adapter)
    wrong = []
    for path in sorted((REPO / folder).rglob("*.py")):
        for module, name in imports(path):
            if (module, name) in FOLDS or module.startswith("bgledger.projections.state"):
                wrong.append(f"{path.relative_to(REPO)} imports {module} {name}".rstrip())
    assert not wrong, "\n".join(wrong)


def test_the_layers_import_no_cycle() -> None:
    graph = edges()
    done: set[str] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, "import cycle: " + " -> ".join((*path, node))
        if node in done:
            return
        for nxt in sorted(graph.get(node, ())):
            visit(nxt, (*path, node))
        done.add(node)

    for node in sorted(graph):
        visit(node, ())


def test_no_layer_imports_another_layers_private_names() -> None:
    wrong = []
    for path in sources():
        here = layer(module_name(path))
        for module, name in imports(path):
            if layer(module) == here:
                continue
            private = [
                p for p in [*module.split("."), name] if p.startswith("_") and p != "__all__"
            ]
            if private:
                wrong.append(f"{path.relative_to(REPO)} imports {module}:{name}")
    assert not wrong, "\n".join(wrong)


def test_the_distribution_lists_every_package_of_the_tree() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    tree = {module_name(init) for init in sources() if init.name == "__init__.py"}
    assert listed == tree


def _run(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("generic", ["cli", "ledger", "projections", "web"])
def test_no_generic_import_name_is_installed(generic: str, tmp_path: Path) -> None:
    result = _run(f"import {generic}", tmp_path)
    assert result.returncode == 1
    assert f"No module named '{generic}'" in result.stderr


def test_the_rules_import_without_the_stack(tmp_path: Path) -> None:
    code = (
        "import sys, bgledger.rules.legal, bgledger.errors\n"
        "loaded = [m for m in ('bgledger.service', 'bgledger.store', 'sqlalchemy') "
        "if m in sys.modules]\n"
        "assert not loaded, loaded\n"
        "import bgledger\n"
        "assert bgledger.Ledger.__module__ == 'bgledger.service'\n"
        "assert bgledger.MatchOverError.__module__ == 'bgledger.errors'\n"
    )
    result = _run(code, tmp_path)
    assert result.returncode == 0, result.stderr


def test_the_console_script_runs_from_anywhere(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("bgledger")
    result = subprocess.run(
        [str(script), "--help"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "Usage: bgledger" in result.stdout
