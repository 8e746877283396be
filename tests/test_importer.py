"""Importing .mat transcriptions the project wrote itself (fixtures/mat), one dialect each.

The expected games, scores and flags were worked out by hand from the files.
"""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.cli.main import main
from bgledger.errors import BgLedgerError
from bgledger.events import ResignationOffered, UnplayablePlayRecorded
from bgledger.interchange.files import content_key
from bgledger.interchange.importer import ImportedMatch, MatImportError, matches_from_mat
from bgledger.interchange.mat import read_mat, read_mat_file
from tests.conftest import REPO, shared_matches

MATS = REPO / "fixtures" / "mat"


def imported(name: str, profile: str = "usbgf-2016") -> list[ImportedMatch]:
    path = MATS / name
    return matches_from_mat(read_mat_file(path), name, profile=profile)


def games(one: ImportedMatch) -> list[tuple[object, ...]]:
    return [
        (g.number, g.winner, g.result, g.cube, g.points, g.how, g.crawford)
        for g in one.match.state.games
    ]


def test_a_file_with_two_matches_becomes_two_matches() -> None:
    first, second = imported("two-matches.mat")
    # Readable ids: the players, the length (and the date, which this file does not give).
    assert (first.match_id, second.match_id) == ("ann-bob-3p", "ann-bob-1p")
    assert games(first) == [
        (1, "a", "single", 1, 1, "drop", False),
        (2, "a", "single", 1, 1, "drop", False),
        (3, "a", "single", 1, 1, "resign", True),  # the Crawford game, conceded
    ]
    assert first.match.state.winner == "a" and first.match.state.score == (3, 0)
    assert second.match.state.length == 1 and second.match.state.winner == "b"
    state = first.match.state
    assert (state.event, state.round, state.players) == ("Club night", "1", ("Ann", "Bob"))
    assert dict(state.meta)["File"] == "two-matches.mat"


def test_a_concession_in_contact_is_flagged_under_usbgf_but_not_online() -> None:
    strict = imported("resigned-after-rolling.mat")[0]
    offered = [e for e in strict.match.collect_events() if isinstance(e, ResignationOffered)]
    assert len(offered) == 1 and offered[0].player == "b" and not offered[0].legal
    assert offered[0].rule == "USBGF 4.5"
    assert strict.match.state.flagged == (offered[0].originator_version,)
    online = imported("resigned-after-rolling.mat", profile="online")[0]
    assert online.match.state.flagged == ()
    assert games(online) == [(1, "a", "single", 1, 1, "resign", False)]


def test_the_loser_column_dialect() -> None:
    (only,) = imported("losses-dialect.mat")
    assert games(only) == [(1, "b", "single", 1, 1, "drop", False)]  # Ann passed Bob's double


def test_an_abandoned_match_keeps_its_illegal_and_unplayable_plays() -> None:
    (only,) = imported("abandoned.mat")
    state = only.match.state
    assert only.abandoned and state.winner is None and state.game == 2
    assert state.score == (1, 0)
    events = only.match.collect_events()
    by_number = {e.originator_version: e for e in events}
    illegal, unplayable = (by_number[n] for n in state.flagged)
    assert getattr(illegal, "play", None) == "13/7" and getattr(illegal, "legal", None) is False
    assert isinstance(unplayable, UnplayablePlayRecorded) and unplayable.play == "20/17 6/5"
    assert any("abandoned in game 2" in note for note in only.notes)
    assert any("line 14" in note for note in only.notes)


def test_a_transcription_that_begins_mid_match() -> None:
    (only,) = imported("mid-match.mat")
    state = only.match.state
    assert state.score == (6, 3)
    # Ann is one point away, but Bob doubles: the first game is post-Crawford.
    assert state.crawford.value == "post" and state.cube == 2 and state.cube_owner == "a"
    assert state.flagged == ()


@pytest.mark.parametrize(
    ("name", "line", "reason"),
    [
        ("broken-notation.mat", 7, "13/x"),
    ],
)
def test_a_file_that_cannot_be_understood_is_refused_with_its_line(
    name: str, line: int, reason: str
) -> None:
    with pytest.raises(MatImportError) as caught:
        imported(name)
    assert caught.value.line == line and reason in str(caught.value)
    assert str(caught.value).startswith(name)


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args])


def test_cli_import_json_one_object_a_match_and_nothing_left_by_a_refusal(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'import.db'}"
    files = [str(MATS / name) for name in ("two-matches.mat", "broken-notation.mat")]
    result = run(db, "import", *files, "--json")
    assert result.exit_code == 1
    documents = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d.get("match_id") for d in documents] == ["ann-bob-3p", "ann-bob-1p", None]
    assert documents[0]["games"] == 3 and documents[0]["illegal_plays"] == 1
    assert documents[0]["score"] == {"a": 3, "b": 0} and documents[0]["file"] == files[0]
    assert "line 7" in documents[2]["error"]
    listed = json.loads(run(db, "list", "--json").stdout)["matches"]
    assert [m["match_id"] for m in listed] == ["ann-bob-3p", "ann-bob-1p"]
    again = run(db, "import", files[0])
    assert again.exit_code == 1 and "already in the ledger as match ann-bob-3p" in again.stderr
    renamed = run(db, "import", files[0], "--id", "replay")  # another id is the same match
    assert renamed.exit_code == 1 and "--again imports it anyway" in renamed.stderr
    renamed = run(db, "import", files[0], "--id", "replay", "--again")
    assert renamed.exit_code == 0 and "replay-2" in renamed.stdout
    twice = run(db, "import", files[0], "--again")
    assert twice.exit_code == 0
    assert "ann-bob-3p-2" in twice.stdout and "ann-bob-1p-2" in twice.stdout


def test_cli_import_summary(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'import.db'}"
    names = ("abandoned.mat", "losses-dialect.mat", "beaver.mat")
    result = run(db, "import", *(str(MATS / name) for name in names))
    assert result.exit_code == 0  # the beaver is imported as played, flagged (USBGF 4.4.10)
    assert "3 files: 3 imported (3 matches" in result.stderr and "0 refused" in result.stderr
    assert "3 events flagged" in result.stderr and "2 matches abandoned" in result.stderr


def _mutated(lines: list[str], rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        if not lines:
            break
        index = rng.randrange(len(lines))
        choice = rng.random()
        if choice < 0.3:
            del lines[index]
        elif choice < 0.5:
            lines.insert(index, lines[index])
        else:
            text = lines[index]
            at = rng.randrange(len(text) + 1)
            lines[index] = (
                text[:at] + rng.choice(["1", ":", " ", "x", "/", "*", "Doubles"]) + text[at:]
            )
    return "\n".join(lines)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_mutated_real_files_raise_only_our_own_errors(seed: int) -> None:
    files = sorted(shared_matches().glob("*/*.mat"))
    rng = random.Random(seed)
    path = rng.choice(files)
    text = _mutated(path.read_text(encoding="utf-8", errors="replace").splitlines(), rng)
    with contextlib.suppress(BgLedgerError):  # anything else escaping fails the test
        matches_from_mat(read_mat(text, name=path.name), path.name)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=400))
def test_arbitrary_text_raises_only_our_own_errors(text: str) -> None:
    with contextlib.suppress(BgLedgerError):
        matches_from_mat(read_mat(text, name="fuzz.mat"), "fuzz.mat")


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from([1, 3, 5, 7]))
def test_random_matches_exported_and_imported_back_are_the_same(seed: int, length: int) -> None:
    from bgledger.commands.match import Match, match_uuid
    from bgledger.interchange.mat_writer import export_mat
    from tests.match_driver import play_lines

    match = Match.start(match_uuid("r"), "r", ("Ann", "Bob"), length, by="kim")
    play_lines(match, random.Random(seed), 400)
    states = match.made
    events = match.collect_events()
    (back,) = matches_from_mat(read_mat(export_mat(events), name="r.mat"), "r.mat")
    # The copy is recognised as the same match (import refuses it without --again).
    key = content_key(events)
    assert key == content_key(back.match.pending) and (key is None) == (match.state.game == 0)
    # The boards read from the states as recorded give the key the fold in force gives.
    assert content_key(events, states) == key
    assert content_key(back.match.pending, back.match.made) == key
    ours, theirs = match.state, back.match.state
    assert theirs.games == ours.games and theirs.score == ours.score
    assert theirs.board == ours.board and theirs.winner == ours.winner
    assert (theirs.cube, theirs.cube_owner, theirs.turn) == (ours.cube, ours.cube_owner, ours.turn)
    assert theirs.flagged == () == ours.flagged


def test_an_imported_match_is_stored_with_one_snapshot_of_its_end(tmp_path: Path) -> None:
    from bgledger.commands.match import match_uuid
    from bgledger.interchange.files import import_file
    from bgledger.projections.state.fold import fold
    from bgledger.store.application import MatchStore

    ledger = MatchStore(f"sqlite:///{tmp_path / 'snap.db'}")
    (one,) = import_file(
        ledger, MATS / "abandoned.mat", match_id="m", profile="usbgf-2016", by="import"
    )
    assert ledger.snapshots is not None
    snapshots = list(ledger.snapshots.get(match_uuid("m")))
    assert [s.originator_version for s in snapshots] == [one.match.version]
    events = ledger.history("m")
    assert ledger.state("m") == fold(events)
    assert ledger.state("m", at=10) == fold(events[:10])


def test_a_beaver_made_at_the_board_imports_flagged_and_round_trips(tmp_path: Path) -> None:
    # USBGF 4.4.10: beavers "are not permitted in tournament backgammon" and are remedied as a
    # double in the Crawford game (void-cube): a transcription that has one is imported as
    # played and flagged, so that the director can rule; .mat writes it back as gnubg does.
    db = f"sqlite:///{tmp_path / 'b.db'}"
    run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "7", "--id", "b")
    for args in (["opening", "b", "3", "1"], ["move", "b", "8/5 6/5"], ["double", "b"]):
        assert run(db, *args).exit_code == 0
    assert run(db, "beaver", "b", "--as-played").exit_code == 0
    mat = tmp_path / "b.mat"
    mat.write_text(run(db, "export", "b", "--format", "mat").output)
    assert "Beavers => 4" in mat.read_text()
    (one,) = matches_from_mat(read_mat_file(mat), "b.mat")
    assert (one.match.state.cube, one.match.state.cube_owner) == (4, "a")
    assert one.match.state.flagged  # the beaver, for the director
