"""Stable ``.mat`` headers (issue 35): XG and gnubg read the match again as the same match.

XG gives a ``.mat`` without a ``; [Match ID ...]`` header a new id and
duplicates the match when it is read again.  The export writes the tags XG
and the online servers write, in their order and form, from the match itself:
the same match exported twice gives the same bytes, the importer reads the
tags back, and gnubg reads the games of the file as it reads them without
the tags it does not know.  The expected header is worked out by hand from the
lines below (a match started at 19:05 at +01:00 on 21 November 2026).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.interchange.importer import matches_from_mat
from bgledger.interchange.mat import read_mat
from tests.gnubg_oracle import debian_gnubg, gnubg_matches

LINES = (
    ("opening", "3", "1"),
    ("move", "8/5 6/5"),
    ("roll", "5", "2"),
    ("move", "13/11 13/8"),
    ("double",),
    ("take",),
    ("roll", "6", "4"),
    ("move", "24/18 13/9"),
    ("resign", "single", "--as-played"),
    ("accept",),
)
HEADER = [
    '; [Match ID "final-7"]',
    '; [Event "Oslo Open"]',
    '; [Round "Semifinal"]',
    '; [Player 1 "Ann"]',
    '; [Player 2 "Bob"]',
    '; [EventDate "2026.11.21"]',
    '; [EventTime "19.05"]',
    '; [Crawford "On"]',
    '; [Table "4"]',
]


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args])


@pytest.fixture
def ledger(tmp_path: Path) -> str:
    """A 3-point match between Ann and Bob at the Oslo Open's semifinal, one game played."""
    db = f"sqlite:///{tmp_path / 'venue.db'}"
    started = run(
        db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "final-7",
        "--event", "Oslo Open", "--round", "Semifinal", "--table", "4",
        "--at", "2026-11-21T19:05:00+01:00",
    )  # fmt: skip
    assert started.exit_code == 0, started.output
    for verb, *rest in LINES:
        done = run(db, verb, "final-7", *rest)
        assert done.exit_code == 0, done.output
    return db


def test_the_export_carries_the_match_id_event_round_date_time_and_players(ledger: str) -> None:
    text = run(ledger, "export", "final-7", "--format", "mat").output
    assert text.splitlines()[: len(HEADER) + 2] == [*HEADER, "", " 3 point match"]


def test_the_same_match_exported_twice_gives_the_same_bytes(ledger: str, tmp_path: Path) -> None:
    first, second = tmp_path / "1.mat", tmp_path / "2.mat"
    assert run(ledger, "export", "final-7", "--format", "mat", "-o", str(first)).exit_code == 0
    time.sleep(1.1)  # a header that took the time of the export would differ now
    assert run(ledger, "export", "final-7", "--format", "mat", "-o", str(second)).exit_code == 0
    assert first.read_bytes() == second.read_bytes()


def test_the_importer_reads_the_headers_back(ledger: str, tmp_path: Path) -> None:
    text = run(ledger, "export", "final-7", "--format", "mat").output
    (imported,) = matches_from_mat(read_mat(text, name="final-7.mat"), "final-7.mat")
    started = imported.match.state
    assert (started.event, started.round, started.players) == (
        "Oslo Open",
        "Semifinal",
        ("Ann", "Bob"),
    )
    assert started.started_at.startswith("2026-11-21T19:05")
    assert dict(started.meta)["Match ID"] == "final-7"
    # and exported from the ledger that imported it, the same tags again (and the file's name)
    again = tmp_path / "again.db"
    path = tmp_path / "final-7.mat"
    path.write_text(text)
    result = run(f"sqlite:///{again}", "import", str(path), "--json")
    assert result.exit_code == 0, result.output
    new_id = json.loads(result.output.splitlines()[0])["match_id"]
    exported = run(f"sqlite:///{again}", "export", new_id, "--format", "mat").output.splitlines()
    assert [line for line in exported if line.startswith("; [") and "File" not in line] == HEADER


def test_gnubg_reads_the_file_as_without_the_new_tags(ledger: str, tmp_path: Path) -> None:
    if debian_gnubg() is None:
        pytest.skip("Debian's gnubg is not installed (apt-get install gnubg); CI installs it")
    text = run(ledger, "export", "final-7", "--format", "mat").output
    bare = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("; ["))
    tagged, untagged = tmp_path / "tagged.mat", tmp_path / "untagged.mat"
    tagged.write_text(text)
    untagged.write_text(bare)
    with_tags, without = gnubg_matches([tagged, untagged])
    assert with_tags["messages"] == without["messages"] == []
    assert with_tags["match"]["games"] == without["match"]["games"]
    info = with_tags["match"]["match-info"]
    assert (info["X"]["name"], info["O"]["name"], info["match-length"]) == ("Ann", "Bob", 3)
    assert (info["event"], info["round"], info["date"]) == (
        "Oslo Open",
        "Semifinal",
        [21, 11, 2026],
    )
    game = with_tags["match"]["games"][0]
    assert [a["action"] for a in game["game"]] == [
        "move",
        "move",
        "double",
        "take",
        "move",
        "resign",
    ]
