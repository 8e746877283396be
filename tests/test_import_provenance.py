"""Where an imported match came from (issue 25): a JSON copy sealed by a trusted key, or not.

The attack: export a finished match, swap the players (so the winner flips),
change every ``recorded_by``, recompute each content hash.  The copy obeys
the rules, so re-deciding it cannot refuse it.  What must hold now: an
import without a seal says, in ``history``, ``show`` and ``verify``, that the
match came from an unsealed copy (a stored event, not a note on the side);
with ``--seal S --pub P`` the forged copy is refused (exit 1, nothing stored)
and the genuine one is recorded as sealed by that key.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.interchange.json_schema import content_hash

LINES = (
    ("opening", "3", "1"),
    ("move", "8/5 6/5"),
    ("resign", "single", "--as-played"),
    ("accept",),
)


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args])


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A finished match (Ann beats Bob), exported, sealed, and the director's public key."""
    db = f"sqlite:///{tmp_path / 'origin.db'}"
    assert (
        run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "1", "--id", "final").exit_code
        == 0
    )
    for verb, *rest in LINES:
        result = run(db, verb, "final", *rest)
        assert result.exit_code == 0, result.output
    copy = tmp_path / "final.json"
    assert run(db, "export", "final", "--format", "json", "-o", str(copy)).exit_code == 0
    key = tmp_path / "director.key"
    assert run(db, "keygen", "--out", str(key)).exit_code == 0
    seal = tmp_path / "final.seal"
    result = run(db, "seal", "final", "--key", str(key), "-o", str(seal))
    assert result.exit_code == 0, result.output
    return copy, seal, tmp_path / "director.key.pub"


def forge(copy: Path, out: Path) -> Path:
    """The copy with the players swapped, every recorder changed and every hash recomputed."""
    document: dict[str, Any] = json.loads(copy.read_text())
    for entry in document["events"]:
        fields = entry["fields"]
        if entry["type"] == "MatchStarted":
            fields["player_a"], fields["player_b"] = fields["player_b"], fields["player_a"]
        entry["recorded_by"] = "mallory"
        entry["hash"] = content_hash(
            entry["number"], entry["type"], entry["at"], entry["recorded_by"], fields,
            entry.get("line", ""),
        )  # fmt: skip
    out.write_text(json.dumps(document))
    return out


def test_a_forged_copy_imported_without_a_seal_is_named_unsealed_everywhere(
    exported: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    copy, _, _ = exported
    forged = forge(copy, tmp_path / "forged.json")
    db = f"sqlite:///{tmp_path / 'venue.db'}"
    result = run(db, "import", str(forged))
    assert result.exit_code == 0, result.output  # it obeys the rules: re-deciding passes it
    assert "won by Bob" in result.output
    assert "imported from an unsealed copy" in result.output
    assert "imported from an unsealed copy" in run(db, "history", "final").output
    assert "imported from an unsealed copy" in run(db, "show", "final").output
    shown = json.loads(run(db, "show", "final", "--json").output)
    assert shown["provenance"].startswith("imported from an unsealed copy")
    verified = run(db, "verify", "final")
    assert verified.exit_code == 0
    assert "imported from an unsealed copy" in verified.output
    # the fact is an event of the match, after the copy's: its export carries it
    events = json.loads(run(db, "export", "final", "--format", "json").output)["events"]
    assert events[-1]["type"] == "CopyImported"
    assert events[-1]["fields"]["sealed_by"] == ""


def test_with_the_trusted_key_a_forged_copy_is_refused_and_nothing_stored(
    exported: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    copy, seal, pub = exported
    forged = forge(copy, tmp_path / "forged.json")
    db = f"sqlite:///{tmp_path / 'venue.db'}"
    result = run(db, "import", str(forged), "--seal", str(seal), "--pub", str(pub))
    assert result.exit_code == 1, result.output
    assert "not the events sealed" in result.output
    assert run(db, "list", "--json").output.count("final") == 0


def test_with_the_trusted_key_the_genuine_copy_is_recorded_as_sealed(
    exported: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    copy, seal, pub = exported
    db = f"sqlite:///{tmp_path / 'venue.db'}"
    result = run(db, "import", str(copy), "--seal", str(seal), "--pub", str(pub))
    assert result.exit_code == 0, result.output
    assert "won by Ann" in result.output
    history = run(db, "history", "final").output
    assert "imported from a copy sealed by key" in history
    assert "unsealed" not in run(db, "show", "final").output
    # the seal still verifies in the importing ledger: the copy's events keep their chain
    verified = run(db, "verify", "--seal", str(seal), "--pub", str(pub))
    assert verified.exit_code == 0, verified.output


def test_a_seal_signed_by_another_key_is_refused(
    exported: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    copy, seal, _ = exported
    db = f"sqlite:///{tmp_path / 'venue.db'}"
    other = tmp_path / "other.key"
    assert run(db, "keygen", "--out", str(other)).exit_code == 0
    result = run(db, "import", str(copy), "--seal", str(seal), "--pub", f"{other}.pub")
    assert result.exit_code == 1, result.output
    assert "not signed by the key" in result.output
    assert run(db, "list", "--json").output.count("final") == 0


def reexported(copy: Path, tmp_path: Path) -> tuple[str, Path]:
    """``copy`` imported into a first ledger (unsealed), and that ledger's export of it."""
    first = f"sqlite:///{tmp_path / 'first.db'}"
    assert run(first, "import", str(copy)).exit_code == 0
    again = tmp_path / "again.json"
    assert run(first, "export", "final", "--format", "json", "-o", str(again)).exit_code == 0
    return first, again


def test_a_copy_imported_forged_inside_an_unsealed_copy_is_refused(
    exported: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    # issue 32, break 7: history said "imported from a copy sealed by key dd014f02..."
    copy, _, _ = exported
    _, again = reexported(copy, tmp_path)
    document: dict[str, Any] = json.loads(again.read_text())
    entry = document["events"][-1]
    assert (entry["number"], entry["type"]) == (9, "CopyImported")  # 8 events, then the import's
    entry["fields"].update(sealed_by="dd014f02" * 8, sealed_through=8)
    entry["hash"] = content_hash(9, "CopyImported", entry["at"], entry["recorded_by"],
                                 entry["fields"], entry.get("line", ""))  # fmt: skip
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(document))
    second = f"sqlite:///{tmp_path / 'second.db'}"
    result = run(second, "import", str(forged))
    assert result.exit_code == 1, result.output
    assert f"{forged}: event 9: a copy brings no CopyImported of its own" in result.output
    assert "sealed by 'dd014f02" in result.output
    assert run(second, "list", "--json").output.count("final") == 0


def test_a_copy_of_an_imported_match_imports_again_under_the_seal_of_its_ledger(
    exported: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    copy, _, _ = exported
    first, again = reexported(copy, tmp_path)
    second = f"sqlite:///{tmp_path / 'second.db'}"
    unsealed = run(second, "import", str(again))
    assert unsealed.exit_code == 1  # its CopyImported is only as good as the copy
    assert "event 9: a copy brings no CopyImported of its own" in unsealed.output
    assert "import it with --seal and --pub" in unsealed.output
    key, seal = tmp_path / "first.key", tmp_path / "again.seal"
    assert run(first, "keygen", "--out", str(key)).exit_code == 0
    assert run(first, "seal", "final", "--key", str(key), "-o", str(seal)).exit_code == 0
    result = run(second, "import", str(again), "--seal", str(seal), "--pub", f"{key}.pub")
    assert result.exit_code == 0, result.output
    history = run(second, "history", "final").output
    assert "imported from an unsealed copy (" + str(copy) in history  # the first ledger's
    assert "imported from a copy sealed by key" in history  # the second's, the seal checked


def test_seal_and_pub_go_together(exported: tuple[Path, Path, Path], tmp_path: Path) -> None:
    copy, seal, _ = exported
    db = f"sqlite:///{tmp_path / 'venue.db'}"
    assert run(db, "import", str(copy), "--seal", str(seal)).exit_code == 2
