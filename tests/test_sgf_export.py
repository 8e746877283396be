"""The SGF export (issue 35): what gnubg saves (``save match``), rulings, flags and notes
as comments, read by gnubg as the ``.mat`` export of the same match.

The expected text is worked out by hand from the lines below and gnubg's
dialect (``sgf.c``): Ann (player a, ``W``) writes point p as the letter
``a`` + p - 1 (8/5 is ``he``), Bob (``B``) as ``a`` + 24 - p, in his own
numbering (13/11 is ``ln``); the bar is ``y``, off ``z``.  It is the text
gnubg 1.07 saves for the ``.mat`` of the same games (checked by hand), with
``AP``, the comments, ``RO`` and no analysis ``GS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.interchange.mat_writer import export_mat
from bgledger.interchange.sgf_writer import export_sgf
from tests.gnubg_oracle import debian_gnubg, gnubg_matches
from tests.test_mat_writer import RANDOM_SEEDS, random_match

LINES = (
    ("opening", "3", "1"),
    ("move", "8/5 6/5"),
    ("roll", "5", "2"),
    ("move", "13/11 13/8"),
    ("note", "director called to the table"),
    ("double",),
    ("take",),
    ("roll", "6", "4"),
    ("move", "24/18 13/9"),
    ("resign", "single", "--as-played"),  # flagged: not a non-contact position (ABT 4.9)
    ("accept",),
    ("opening", "2", "5"),
    ("move", "13/11 13/8"),
    ("roll", "4", "4"),
    ("void-roll", "cocked"),  # a ruling: the 4-4 was cocked
    ("roll", "1", "1"),
    ("move", "24/23 24/23 6/5 6/5"),
)

EXPECTED = (
    "(;FF[4]GM[6]CA[UTF-8]AP[bgledger]MI[length:3][game:0][ws:0][bs:0]PW[Ann]PB[Bob]"
    "DT[2026-11-21]EV[Oslo Open]RO[Semifinal]RU[Crawford]RE[W+2R]\n"
    ";W[31hefe]\n"
    ";B[52lnlq]C[event 7: note for the record: director called to the table]\n"
    ";W[double]\n"
    ";B[take]\n"
    ";W[64xrmi]C[event 12: ILLEGAL: Bob offered to resign a single game: a game may be "
    "conceded only in a non-contact position (ABT 4.9) [flagged\\]])\n"
    "(;FF[4]GM[6]CA[UTF-8]AP[bgledger]MI[length:3][game:1][ws:2][bs:0]PW[Ann]PB[Bob]"
    "DT[2026-11-21]EV[Oslo Open]RO[Semifinal]RU[Crawford:CrawfordGame]\n"
    ";B[52lnlq]C[event 19: Ann's roll was voided: cocked (FAQ)]\n"
    ";W[11xwxwfefe])\n"
)


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args])


def moves_and_score(match: dict[str, Any]) -> list[object]:
    """Each game's score, winner and points, and its actions: what, who, dice, steps."""
    return [
        (
            [game["info"].get(k) for k in ("score-X", "score-O", "winner", "points-won")],
            [(a["action"], a["player"], a.get("dice"), a.get("move")) for a in game["game"]],
        )
        for game in match["games"]
    ]


@pytest.fixture
def ledger(tmp_path: Path) -> str:
    db = f"sqlite:///{tmp_path / 'venue.db'}"
    started = run(
        db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "semi",
        "--event", "Oslo Open", "--round", "Semifinal", "--profile", "usbgf-2017",
        "--at", "2026-11-21T19:05:00+01:00",
    )  # fmt: skip
    assert started.exit_code == 0, started.output
    for verb, *rest in LINES:
        done = run(db, verb, "semi", *rest)
        assert done.exit_code == 0, (verb, done.output)
    return db


def test_the_sgf_is_what_gnubg_saves_with_the_rulings_flags_and_notes_as_comments(
    ledger: str,
) -> None:
    result = run(ledger, "export", "semi", "--format", "sgf")
    assert result.exit_code == 0, result.output
    assert result.output == EXPECTED


def test_a_flag_alone_is_commented_and_a_plain_match_has_no_comment(tmp_path: Path) -> None:
    """Without a ruling, a correction or a note, the export words only what the fold flagged
    (the resignation of LINES, event 11 without the note), and a match with nothing flagged
    has no comment at all."""
    db = f"sqlite:///{tmp_path / 'venue.db'}"
    for match_id in ("flagged", "plain"):
        started = run(
            db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", match_id,
            "--profile", "usbgf-2017",
        )  # fmt: skip
        assert started.exit_code == 0, started.output
    plain = [line for line in LINES[:9] if line[0] != "note"]
    for match_id, lines in (("flagged", [*plain, *LINES[9:11]]), ("plain", plain)):
        for verb, *rest in lines:
            done = run(db, verb, match_id, *rest)
            assert done.exit_code == 0, (verb, done.output)
    flagged = run(db, "export", "flagged", "--format", "sgf").output
    assert flagged.count("C[") == 1
    assert (
        ";W[64xrmi]C[event 11: ILLEGAL: Bob offered to resign a single game: a game may be "
        "conceded only in a non-contact position (ABT 4.9) [flagged\\]])\n"
    ) in flagged
    unflagged = run(db, "export", "plain", "--format", "sgf").output
    assert "C[" not in unflagged and unflagged.endswith(";W[64xrmi])\n")


def test_gnubg_reads_the_sgf_as_the_mat_of_the_same_match(ledger: str, tmp_path: Path) -> None:
    if debian_gnubg() is None:
        pytest.skip("Debian's gnubg is not installed (apt-get install gnubg); CI installs it")
    sgf, mat = tmp_path / "semi.sgf", tmp_path / "semi.mat"
    assert run(ledger, "export", "semi", "--format", "sgf", "-o", str(sgf)).exit_code == 0
    assert run(ledger, "export", "semi", "--format", "mat", "-o", str(mat)).exit_code == 0
    from_sgf, from_mat = gnubg_matches([sgf, mat])
    assert from_sgf["messages"] == [] and from_sgf["match"] is not None

    assert moves_and_score(from_sgf["match"]) == moves_and_score(from_mat["match"])
    assert moves_and_score(from_sgf["match"])[0][0] == [0, 0, "X", 2]  # Ann, 2 on Bob's resign
    info = from_sgf["match"]["match-info"]
    assert (info["X"]["name"], info["O"]["name"], info["match-length"]) == ("Ann", "Bob", 3)
    assert (info["event"], info["round"], info["date"]) == (
        "Oslo Open",
        "Semifinal",
        [21, 11, 2026],
    )
    said = [a.get("comment") for g in from_sgf["match"]["games"] for a in g["game"]]
    assert "event 7: note for the record: director called to the table" in said
    assert any(c and c.startswith("event 12: ILLEGAL: Bob offered to resign") for c in said)
    assert any(c and "cocked" in c for c in said)  # the ruling that voided the 4-4


def test_gnubg_reads_random_matches_from_the_sgf_as_from_the_mat(tmp_path: Path) -> None:
    """Hits, entering from the bar, bearing off, doubles and concessions of the random legal
    matches ``test_mat_writer`` exports."""
    if debian_gnubg() is None:
        pytest.skip("Debian's gnubg is not installed (apt-get install gnubg); CI installs it")
    paths: list[Path] = []
    for seed in RANDOM_SEEDS:
        events = random_match(seed)
        for suffix, text in ((".sgf", export_sgf(events)), (".mat", export_mat(events))):
            paths.append(tmp_path / f"{seed}{suffix}")
            paths[-1].write_text(text)
    readings = gnubg_matches(paths)
    bore_off = False
    for from_sgf, from_mat in zip(readings[::2], readings[1::2], strict=True):
        assert from_sgf["messages"] == []
        assert moves_and_score(from_sgf["match"]) == moves_and_score(from_mat["match"])
        bore_off |= any(
            step[1] == 0
            for game in from_sgf["match"]["games"]
            for a in game["game"]
            for step in a.get("move") or []
        )
    assert bore_off  # the off letter 'z' was read back
