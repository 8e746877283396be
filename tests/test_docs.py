"""The docs cannot go stale: every command and transcript in them is run.

README.md and docs/*.md: each ``sh`` block's commands must succeed, each
``console`` block's output must be what the program prints now (the rules
are in :mod:`tests.docs_transcripts`).  One test a block, in the page's
order, each page in a temporary folder with one database (a block builds
on the page's blocks before it: run the page, not one block of it).  A
transcript that differs fails with a diff and the command that rewrites it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import docs_transcripts as docs
from tests.docs_transcripts import ROOT, Block, Workspace

BLOCKS = [block for page in docs.pages() for block in docs.blocks(page)]
RUN = [block for block in BLOCKS if block.runs]

REWRITE = "python -m tests.docs_transcripts --write {page}"


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[Path, Workspace]]:
    """One workspace a page, made when its first block runs and shared by the rest."""
    made: dict[Path, Workspace] = {}
    yield made


@pytest.mark.parametrize("block", RUN, ids=str)
def test_block_runs_as_shown(
    block: Block, workspaces: dict[Path, Workspace], tmp_path_factory: pytest.TempPathFactory
) -> None:
    if block.page not in workspaces:
        workspaces[block.page] = Workspace(tmp_path_factory.mktemp(block.page.stem))
    if block.skip is not None:
        pytest.skip(block.skip)
    outcome = docs.run_block(block, workspaces[block.page])
    problems = [*outcome.failures]
    if outcome.differences:
        problems.append(
            "the docs show output the program no longer prints:\n\n"
            + "\n\n".join(outcome.differences)
            + "\n\nif the program is right, rewrite the transcripts from its output and read "
            f"the change: {REWRITE.format(page=block.page)} (docs/architecture.md, 'The docs run')"
        )
    if problems:
        pytest.fail(f"{block}:\n" + "\n\n".join(problems), pytrace=False)
    if outcome.not_run:
        if outcome.ran == 0:
            pytest.skip("not run: " + "; ".join(outcome.not_run))
        print("not run: " + "; ".join(outcome.not_run))  # the rest of the block was checked


def test_no_command_hides_in_a_block_that_is_not_run() -> None:
    hidden = [
        f"{block}: {line.strip()!r} ({block.lang or 'no language'}: not run; "
        "use a sh or console block)"
        for block in BLOCKS
        if not block.runs and block.lang != "python"
        for line in block.body
        if re.match(r"\s*(\$ |bgledger )", line)
    ]
    assert hidden == []


def test_every_page_runs_some_commands() -> None:
    """A page of commands whose blocks are all skipped or mislabelled would test nothing."""
    quiet = {"docs/ATTACKS.md", "docs/architecture-verbs.md"}
    pages = {str(block.page) for block in RUN if block.skip is None}
    missing = {str(page) for page in docs.pages()} - quiet - pages
    assert missing == set()


def test_the_readme_reads_in_five_minutes() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 260, f"README.md has {len(lines)} lines: move the detail to docs/"


def test_the_readme_test_command_is_what_ci_runs() -> None:
    """.ci/run runs 'the README's test command' after installing into a fresh venv."""
    commands = [
        step.command
        for block in RUN
        if block.page == Path("README.md")
        for step in docs.steps(block)
    ]
    assert any(command.endswith("python -m pytest -q") for command in commands)
    assert "\npython -m pytest -q\n" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    fresh = commands[0]
    assert fresh.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install")
    assert "--db" not in fresh, "the first demo runs on the embedded default database"


_LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


def _anchors(text: str) -> set[str]:
    """GitHub's anchors for a page's headings: lowercase, punctuation dropped, spaces to '-'."""
    return {
        "#" + re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        for heading in re.findall(r"^#+ (.+)$", text, flags=re.M)
    }


def test_every_link_between_the_pages_resolves() -> None:
    broken = []
    for page in docs.pages():
        text = (ROOT / page).read_text(encoding="utf-8")
        for target, anchor in _LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue
            path = (ROOT / page).parent / target
            if not path.exists():
                broken.append(f"{page}: {target}")
            elif anchor and anchor not in _anchors(path.read_text(encoding="utf-8")):
                broken.append(f"{page}: {target}{anchor}")
        for anchor in re.findall(r"\]\((#[^)\s]+)\)", text):
            if anchor not in _anchors(text):
                broken.append(f"{page}: {anchor}")
    assert broken == []


def test_every_test_the_docs_name_is_there() -> None:
    """``tests/FILE.py`` and ``tests/FILE.py::test_name`` (or ``::test_name`` after it on the
    line) in the pages and bench/README.md: a reader follows them to what checks a claim."""
    missing = []
    for page in [*docs.pages(), Path("bench/README.md")]:
        for line in (ROOT / page).read_text(encoding="utf-8").splitlines():
            current: str | None = None
            for found in re.finditer(r"(tests/[\w/]+\.py)(?:::(\w+))?|::(test_\w+)", line):
                path, name = found.group(1), found.group(2) or found.group(3)
                current = path or current
                if current is None:
                    continue
                source = ROOT / current
                if not source.exists():
                    missing.append(f"{page}: {current}")
                elif name and not re.search(rf"def {name}\b", source.read_text(encoding="utf-8")):
                    missing.append(f"{page}: {current}::{name}")
    assert missing == []


def test_the_benchmark_figures_live_in_bench_readme() -> None:
    """Every benchmark is described in bench/README.md, and the README points there."""
    bench = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    scripts = sorted(path.name for path in (ROOT / "bench").glob("bench_*.py"))
    assert [name for name in scripts if name not in bench] == []
    assert "bench/README.md" in (ROOT / "README.md").read_text(encoding="utf-8")


# -- the harness itself -----------------------------------------------------------


def test_a_stale_transcript_fails_with_a_diff_and_write_rewrites_it(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Text.\n\n```console\n$ bgledger start --a Ann --b Bob --length 3 --id final\n"
        "the old words\n$ bgledger list\n...\n```\n\nMore text.\n",
        encoding="utf-8",
    )
    (block,) = docs.blocks(page)
    outcome = docs.run_block(block, Workspace(tmp_path / "first"))
    (difference,) = outcome.differences
    assert "-the old words\n+final" in difference
    assert docs.rewrite(page, [outcome]) == 1
    text = page.read_text(encoding="utf-8")
    assert "the old words" not in text and "$ bgledger list\nMatch " in text
    assert text.startswith("Text.\n\n```console\n") and text.endswith("```\n\nMore text.\n")
    (again,) = docs.blocks(page)
    assert docs.run_block(again, Workspace(tmp_path / "second")).differences == []


def _run_one_block(tmp_path: Path, text: str) -> docs.Outcome:
    """A page of one block, ``text``, run in a workspace of its own."""
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    (block,) = docs.blocks(page)
    return docs.run_block(block, Workspace(tmp_path / "w"))


def test_a_failing_sh_command_fails_the_block(tmp_path: Path) -> None:
    (failure,) = _run_one_block(tmp_path, "```sh\nbgledger show nosuchmatch\n```\n").failures
    assert "'bgledger show nosuchmatch' exited 2" in failure


def test_times_digests_and_elisions_compare_as_such() -> None:
    shown = ["    2   2026-11-26 10:00:05  kim  game 1 started", "...", "head 0123456789abcdef"]
    printed = [
        "    2   2031-01-02 23:59:59  kim  game 1 started",
        "a",
        "b",
        "head fedcba9876543210",
    ]
    assert docs.matches(shown, printed)
    assert not docs.matches(shown, ["    2   2031-01-02 23:59:59  kim  game 2 started"])
    assert docs.matches(["a", "...", "c"], ["a", "c"])
    assert not docs.matches(["a", "c"], ["a", "b", "c"])


def test_commands_split_as_the_shell_splits_them() -> None:
    assert docs.tokens("bgledger note m table #4 moved") == ["bgledger", "note", "m", "table"]
    assert docs.tokens('open \'http://h/pad#token=x y\' "a \\"b\\"" c\\ d') == [
        "open",
        "http://h/pad#token=x y",
        'a "b"',
        "c d",
    ]
    assert docs.tokens("a && b|c < in > out 2>&1; d") == [
        "a", "&&", "b", "|", "c", "<", "in", ">", "out", "2>&1", ";", "d",
    ]  # fmt: skip
    assert docs.tokens('T=$(bgledger token m --label "a b") x "k: $(uuidgen)"') == [
        'T=$(bgledger token m --label "a b")',
        "x",
        "k: $(uuidgen)",
    ]


def test_a_variable_takes_what_a_command_prints(tmp_path: Path) -> None:
    """``NAME=$(COMMAND)``: the command's standard output, its last newline dropped."""
    outcome = _run_one_block(
        tmp_path,
        "```console\n$ bgledger start --a Ann --b Bob --length 3 --id final\nfinal\n"
        '$ ID=$(bgledger list --json)\n$ echo "[$ID]" | head -c 2\n[{\n```\n',
    )
    assert outcome.failures == outcome.not_run == outcome.differences == []
    assert outcome.outputs[1:] == ["", "[{"]


def test_a_substituted_command_that_fails_fails_its_line(tmp_path: Path) -> None:
    workspace = Workspace(tmp_path / "w")
    with pytest.raises(RuntimeError, match=r"\$\(bgledger show nosuchmatch\) exited 2"):
        workspace.run("X=$(bgledger show nosuchmatch)")


def test_a_command_to_the_docs_server_reaches_a_serve_of_the_pages_ledger(
    tmp_path: Path,
) -> None:
    """``http://127.0.0.1:8000`` in a command: a ``serve`` of the page's ledger answers it."""
    outcome = _run_one_block(
        tmp_path,
        "```console\n$ bgledger start --a Ann --b Bob --length 3 --id final\nfinal\n"
        "$ curl -s --fail-with-body http://127.0.0.1:8000/api/matches/final "
        '-H "Authorization: Bearer $(bgledger token final --role scorekeeper)" | head -c 19\n'
        '{"match_id":"final"\n```\n',
    )
    if outcome.not_run:
        pytest.skip("; ".join(outcome.not_run))
    assert outcome.failures == [] and outcome.differences == [], outcome.outputs
