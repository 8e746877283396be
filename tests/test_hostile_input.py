"""Hostile input is refused cheaply and cleanly, with one policy on every path (issue 15, part 2).

A name, tag, note or reason is one line of visible text (``bgledger.rules.text``):
a terminal escape, NUL, a bidi override or a zero-width character is refused
with exit 2 naming the code point, whether it comes from the command line,
``record``, a ``.mat`` file or a JSON copy, and the ledger is unchanged.  A play
or a line too long to be one is refused before anything parses it.  A missing
database driver is a usage error, an unreachable database exit 3, never a
traceback.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from bgledger.cli.main import main
from bgledger.rules.errors import RulesError
from bgledger.rules.notation import Play
from bgledger.rules.text import InvalidTextError, check_text

ESCAPES = {
    "OSC title": "Ann\x1b]0;pwned\x07",
    "OSC 52 clipboard": "Ann\x1b]52;c;cm0gLXJmIH4=\x07",
    "NUL": "Ann\x00",
    "bidi override": "Ann\u202enaJ",
    "zero-width space": "Ann\u200b",
    "newline": "Ann\nBob",
}


class Cli:
    def __init__(self, tmp_path: Path) -> None:
        self.db = ["--db", f"sqlite:///{tmp_path / 'h.db'}"]
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None) -> tuple[int, str]:
        result = self.runner.invoke(main, [*self.db, *args], input=input)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            result.exception
        )
        return result.exit_code, result.output

    def events(self, match_id: str) -> int:
        code, out = self("show", match_id, "--json")
        assert code == 0, out
        return int(json.loads(out)["events"])


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path)


@pytest.mark.parametrize("name", sorted(ESCAPES))
def test_start_refuses_a_name_that_is_not_visible_text(cli: Cli, name: str) -> None:
    code, out = cli("start", "--a", ESCAPES[name], "--b", "Bob", "--length", "3", "--id", "m")
    assert code == 2
    assert "player --a" in out and "U+" in out
    assert "\x1b" not in out and "\x00" not in out  # quoted escaped, never sent to the terminal
    assert cli("list")[1].startswith("no matches")


@pytest.mark.parametrize("option", ["--event", "--round", "--table"])
def test_start_refuses_a_tag_that_is_not_visible_text(cli: Cli, option: str) -> None:
    code, out = cli(
        "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m", option, "x\x1b[2J"
    )
    assert code == 2 and option in out and "U+001B" in out


def test_notes_reasons_and_record_lines_follow_the_same_rule(cli: Cli) -> None:
    assert cli("start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m")[0] == 0
    assert cli("opening", "m", "3", "1")[0] == 0
    before = cli.events("m")
    assert cli("note", "m", "hi\x1b[2J")[0] == 2
    assert cli("note", "m", "hi\u2066", "--ruled-by", "director")[0] == 2
    assert cli("undo", "m", "--reason", "typo\x07")[0] == 2
    code, out = cli("record", "m", input="note a\x1b]0;x\x07b\nmove 8/5 6/5 # fine\n")
    assert code == 1 and "U+001B" in out
    assert cli.events("m") == before + 1  # only the move


def test_a_mat_file_with_an_escape_in_a_name_is_refused(cli: Cli, tmp_path: Path) -> None:
    mat = tmp_path / "evil.mat"
    mat.write_text(
        " 1 point match\n\n Game 1\n Ann\x1b]0;x\x07 : 0                  Bob : 0\n"
        "  1) 31: 8/5 6/5                 52: 13/8 13/11\n",
        encoding="utf-8",
    )
    code, out = cli("import", str(mat))
    assert code != 0 and "U+001B" in out
    assert "\x1b" not in out
    assert cli("list")[1].startswith("no matches")


def _sha256(entry: dict[str, Any]) -> str:
    content = {k: entry[k] for k in ("number", "type", "at", "recorded_by", "fields")}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_a_json_copy_with_an_escape_is_refused_even_with_its_hashes_recomputed(
    cli: Cli, tmp_path: Path
) -> None:
    assert cli("start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m")[0] == 0
    code, out = cli("export", "m", "--format", "json")
    assert code == 0
    document = json.loads(out)
    document["events"][0]["fields"]["player_a"] = "Ann\x1b]0;x\x07"
    for entry in document["events"]:
        entry["hash"] = _sha256(entry)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(document))
    other = Cli(tmp_path / "other")
    (tmp_path / "other").mkdir()
    code, out = other("import", str(forged))
    assert code != 0 and "U+001B" in out
    assert other("list")[1].startswith("no matches")


def test_a_huge_play_or_line_is_refused_before_it_is_read(cli: Cli) -> None:
    assert cli("start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m")[0] == 0
    assert cli("opening", "m", "3", "1")[0] == 0
    huge = " ".join(["13/12"] * 30_000)  # 180 KB: once quadratic, minutes of work
    code, out = cli("move", "m", huge)  # the command line's line: the record language's limit
    assert code == 2 and "a line is at most 4096" in out and len(out) < 1000
    code, out = cli("record", "m", input="note " + "x" * 10_000 + "\n")
    assert code == 1 and "a line is at most 4096" in out
    assert cli.events("m") == 3


def test_a_name_the_mat_writer_cannot_write_gets_a_message(cli: Cli) -> None:
    assert cli("start", "--a", "Ann: 5", "--b", "Bob", "--length", "1", "--id", "m")[0] == 0
    code, out = cli("export", "m", "--format", "mat")
    assert code == 2
    assert "contains ':', which a .mat score line cannot hold" in out
    assert "--format json" in out


def test_database_trouble_is_a_message_with_its_own_exit_code(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["--db", "mysql://x@localhost/db", "list"])
    assert (
        missing.exit_code == 2 and "driver" in missing.output and "not installed" in missing.output
    )
    assert missing.exception is None or isinstance(missing.exception, SystemExit)
    refused = runner.invoke(main, ["--db", "postgresql+psycopg://x@127.0.0.1:1/x", "list"])
    assert refused.exit_code == 3 and "database error" in refused.output


@given(st.text(max_size=60))
def test_check_text_accepts_only_visible_text_and_raises_only_its_error(text: str) -> None:
    try:
        accepted = check_text("name", text)
    except InvalidTextError as error:
        assert "name" in str(error)
        return
    assert accepted == text
    assert not any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in text)


@given(st.text(max_size=300))
def test_play_parsing_raises_only_the_projects_errors(text: str) -> None:
    with contextlib.suppress(RulesError):  # anything else fails the test
        Play.parse(text)


def test_import_reads_no_device_and_no_file_past_its_bound(cli: Cli, tmp_path: Path) -> None:
    code, out = cli("import", "/dev/zero")  # once a MemoryError traceback
    assert code == 1 and "'/dev/zero' is not a regular file" in out
    huge = tmp_path / "huge.mat"
    with huge.open("wb") as handle:
        handle.truncate(17 * 1024 * 1024)  # sparse: nothing is written
    code, out = cli("import", str(huge))
    assert code == 1 and "is over 16 MB" in out
    assert cli("list")[1].startswith("no matches")
