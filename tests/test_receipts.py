"""Receipts (issue 35): a player holds his result, signed by the director, and anyone checks it.

``bgledger seal`` prints the receipt and keeps the seal in the ledger; the score sheet prints
it with its QR code; ``verify --receipt`` checks it against the ledger or a JSON copy (no
ledger needed), and says "this result is the one the director sealed" or what differs.
The expected words below are the result as a score sheet says it, written out by hand.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from starlette.testclient import TestClient

from bgledger.cli.main import main
from bgledger.interchange.json_schema import content_hash
from bgledger.service import Ledger
from bgledger.web.app import create_app

FINAL = "Final: Ann 1, Bob 0: Ann wins the match"
"""The 1-point match below: Bob concedes a single game (as played), Ann wins 1-0."""


def cli(db: Path, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", f"sqlite:///{db}", *args], input=stdin)


@pytest.fixture
def sealed(tmp_path: Path) -> tuple[Path, Path, str]:
    """A finished 1-point match sealed with a director's key: the ledger, the public key,
    and the receipt ``seal -o`` printed."""
    db = tmp_path / "ledger.db"
    for args in (
        ("start", "--a", "Ann", "--b", "Bob", "--length", "1", "--id", "final"),
        ("opening", "final", "6", "5"),
        ("move", "final", "24/18", "18/13"),
        ("resign", "final", "single", "--as-played"),  # players may agree it (USBGF 4.5)
        ("accept", "final"),
    ):
        done = cli(db, *args)
        assert done.exit_code == 0, done.output
    assert cli(db, "keygen", "--out", str(tmp_path / "td.pem")).exit_code == 0
    made = cli(db, "seal", "final", "--key", str(tmp_path / "td.pem"), "-o", str(tmp_path / "s"))
    assert made.exit_code == 0, made.output
    return db, tmp_path / "td.pem.pub", made.stdout


def copy_of(db: Path, tmp_path: Path) -> Path:
    exported = cli(db, "export", "final", "--format", "json")
    assert exported.exit_code == 0, exported.output
    path = tmp_path / "final.json"
    path.write_text(exported.stdout, encoding="utf-8")
    return path


def test_seal_prints_a_receipt_naming_the_match_its_result_and_last_event(
    sealed: tuple[Path, Path, str],
) -> None:
    _, _, receipt = sealed
    lines = receipt.splitlines()
    assert lines[:3] == ["bgledger receipt", "Match: final", f"Result: {FINAL}"]
    # started, game 1, opening, play, offer, accepted, game won, match won: the last is 8
    assert re.fullmatch(r"Sealed: \S+, at event 8", lines[3])
    assert re.fullmatch(r"Digest: ([0-9a-f]{8} ){7}[0-9a-f]{8}", lines[4])
    assert lines[-1].startswith("Code: bgledger-receipt:")


def test_a_receipt_verifies_against_the_ledger_and_its_json_copy(
    sealed: tuple[Path, Path, str], tmp_path: Path
) -> None:
    db, pub, receipt = sealed
    (tmp_path / "receipt.txt").write_text(receipt, encoding="utf-8")
    held = cli(db, "verify", "--receipt", str(tmp_path / "receipt.txt"), "--pub", str(pub))
    assert held.exit_code == 0, held.output
    assert f"final: this result is the one the director sealed: {FINAL} (event 8" in held.stdout
    assert f"signed by the key in {pub}" in held.stdout
    copy = copy_of(db, tmp_path)
    # against the copy, with no ledger at all: the --db names a file that does not exist
    alone = cli(tmp_path / "none.db", "verify", "--receipt", "-", "--copy", str(copy),
                stdin=receipt)  # fmt: skip
    assert alone.exit_code == 0, alone.output
    assert f"this result is the one the director sealed: {FINAL}" in alone.stdout
    assert f"checked against the copy {copy}" in alone.stdout
    assert not (tmp_path / "none.db").exists()


def test_a_copy_changed_by_one_event_fails_naming_what_differs(
    sealed: tuple[Path, Path, str], tmp_path: Path
) -> None:
    db, pub, receipt = sealed
    copy = copy_of(db, tmp_path)
    document = json.loads(copy.read_text(encoding="utf-8"))
    opening = next(e for e in document["events"] if e["type"] == "OpeningRollMade")
    opening["fields"]["die_a"], opening["fields"]["die_b"] = 5, 6  # Bob won the opening instead
    # re-hashed as a careful forger would, so the copy reads as a well-formed export
    opening["hash"] = content_hash(
        opening["number"], opening["type"], opening["at"], opening["recorded_by"],
        opening["fields"], opening.get("line", ""),
    )  # fmt: skip
    copy.write_text(json.dumps(document), encoding="utf-8")
    checked = cli(db, "verify", "--receipt", "-", "--copy", str(copy), "--pub", str(pub),
                  stdin=receipt)  # fmt: skip
    assert checked.exit_code == 1, checked.output
    assert f"the copy {copy} does not hold the result the director sealed ({FINAL}" in (
        checked.stderr
    )
    assert "events 1-8 are not the events sealed" in checked.stderr


def test_a_receipt_read_off_the_score_sheet_verifies_and_fails_on_a_changed_copy(
    sealed: tuple[Path, Path, str], tmp_path: Path
) -> None:
    db, pub, receipt = sealed
    sheet = cli(db, "export", "final", "--format", "scoresheet")
    assert sheet.exit_code == 0, sheet.output
    assert "\nReceipt\n" in sheet.stdout
    code = receipt.splitlines()[-1]
    assert code in sheet.stdout.splitlines()  # the sheet prints the seal's own receipt
    (tmp_path / "sheet.txt").write_text(sheet.stdout, encoding="utf-8")
    on_ledger = cli(db, "verify", "--receipt", str(tmp_path / "sheet.txt"), "--pub", str(pub))
    assert on_ledger.exit_code == 0, on_ledger.output
    copy = copy_of(db, tmp_path)
    on_copy = cli(db, "verify", "--receipt", str(tmp_path / "sheet.txt"), "--copy", str(copy))
    assert on_copy.exit_code == 0, on_copy.output
    document = json.loads(copy.read_text(encoding="utf-8"))
    document["events"][3]["recorded_by"] = "someone else"  # one event changed, not re-hashed
    copy.write_text(json.dumps(document), encoding="utf-8")
    changed = cli(db, "verify", "--receipt", str(tmp_path / "sheet.txt"), "--copy", str(copy))
    assert changed.exit_code == 2, changed.output  # the copy itself says it was changed
    assert "event 4" in changed.stderr and "changed since it was exported" in changed.stderr


def test_a_receipt_whose_printed_result_was_written_over_is_refused(
    sealed: tuple[Path, Path, str], tmp_path: Path
) -> None:
    db, _, receipt = sealed
    forged = receipt.replace(f"Result: {FINAL}", "Result: Final: Bob 1, Ann 0: Bob wins the match")
    refused = cli(db, "verify", "--receipt", "-", stdin=forged)
    assert refused.exit_code == 2, refused.output
    assert "its printed result 'Final: Bob 1, Ann 0: Bob wins the match' is not what its code" in (
        refused.stderr
    )


def test_a_receipt_whose_code_was_changed_or_signed_by_another_key_is_refused(
    sealed: tuple[Path, Path, str], tmp_path: Path
) -> None:
    db, _, receipt = sealed
    packed = receipt.splitlines()[-1].removeprefix("Code: bgledger-receipt:")
    document = json.loads(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4)))
    document["result"] = "Final: Bob 1, Ann 0: Bob wins the match"
    repacked = base64.urlsafe_b64encode(json.dumps(document).encode()).decode().rstrip("=")
    forged = cli(db, "verify", "--receipt", "-", stdin=f"bgledger-receipt:{repacked}")
    assert forged.exit_code == 1, forged.output
    assert "the receipt's signature does not match its content" in forged.stderr
    assert cli(db, "keygen", "--out", str(tmp_path / "other.pem")).exit_code == 0
    other = cli(db, "verify", "--receipt", "-", "--pub", str(tmp_path / "other.pem.pub"),
                stdin=receipt)  # fmt: skip
    assert other.exit_code == 1, other.output
    assert "was not signed by the key in" in other.stderr


def test_bad_receipt_input_is_named_without_a_traceback(
    sealed: tuple[Path, Path, str], tmp_path: Path
) -> None:
    db, _, receipt = sealed
    for given, words in (
        ("no code here", "no bgledger-receipt: code in it"),
        ("bgledger-receipt:!!!!", "no bgledger-receipt: code in it"),
        ("bgledger-receipt:e30", "not a bgledger-seal document"),
    ):
        refused = cli(db, "verify", "--receipt", "-", stdin=given)
        assert refused.exit_code == 2, refused.output
        assert words in refused.stderr and "Traceback" not in refused.output
    missing = cli(db, "verify", "--receipt", str(tmp_path / "nope.txt"))
    assert missing.exit_code == 2 and "cannot be read" in missing.stderr
    alone = cli(db, "verify", "--copy", str(tmp_path / "x.json"))
    assert alone.exit_code == 2 and "--copy goes with --receipt" in alone.stderr
    other = cli(db, "verify", "semi", "--receipt", "-", stdin=receipt)
    assert other.exit_code == 2 and "the receipt is of match 'final', not 'semi'" in other.stderr


def test_a_ruling_after_the_seal_leaves_the_receipt_standing(
    sealed: tuple[Path, Path, str],
) -> None:
    db, pub, receipt = sealed
    noted = cli(db, "note", "final", "score agreed at the table", "--ruled-by", "director")
    assert noted.exit_code == 0, noted.output
    held = cli(db, "verify", "--receipt", "-", "--pub", str(pub), stdin=receipt)
    assert held.exit_code == 0, held.output
    assert "this result is the one the director sealed" in held.stdout


def test_the_check_page_answers_a_receipt_the_ledger_sealed_and_no_other(
    sealed: tuple[Path, Path, str], tmp_path: Path
) -> None:
    db, _, receipt = sealed
    ledger = Ledger(f"sqlite:///{db}")
    try:
        with TestClient(create_app(ledger)) as client:  # no token: anyone holding a receipt
            code = receipt.splitlines()[-1].removeprefix("Code: ")
            page = client.get("/receipt", params={"code": code})
            assert page.status_code == 200
            assert "It holds" in page.text and FINAL in page.text
            # a receipt signed with a key this ledger never sealed with: not checked at all
            assert cli(db, "keygen", "--out", str(tmp_path / "x.pem")).exit_code == 0
            ledger.seal("final", tmp_path / "x.pem")  # kept here, so it is checked ...
            other = Ledger(f"sqlite:///{tmp_path / 'elsewhere.db'}")
            assert cli(tmp_path / "elsewhere.db", "start", "--a", "Cy", "--b", "Di", "--length",
                       "1", "--id", "final").exit_code == 0  # fmt: skip
            foreign = other.seal("final", tmp_path / "x.pem")  # ... this one is another match
            other.close()
            from bgledger.service import receipt_code

            refused = client.get("/receipt", params={"code": receipt_code(foreign)})
            assert "It does not hold" in refused.text  # same key, another match's events
            form = client.get("/receipt")
            assert form.status_code == 200 and "Check a receipt" in form.text
    finally:
        ledger.close()


def test_the_web_score_sheet_shows_a_seal_made_after_it_was_first_read(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    assert cli(db, "start", "--a", "Ann", "--b", "Bob", "--length", "1", "--id", "m").exit_code == 0
    assert cli(db, "keygen", "--out", str(tmp_path / "td.pem")).exit_code == 0
    ledger = Ledger(f"sqlite:///{db}")
    try:
        token = ledger.issue_token("committee", label="t")
        with TestClient(create_app(ledger)) as client:
            headers = {"Authorization": f"Bearer {token}"}
            before = client.get("/matches/m/scoresheet", headers=headers)
            assert before.status_code == 200 and "Receipt" not in before.text
            made = ledger.seal("m", tmp_path / "td.pem")  # no new event: the page is kept
            after = client.get("/matches/m/scoresheet", headers=headers)
            assert "<h2>Receipt</h2>" in after.text and made.head[:8] in after.text
            assert "<svg" in after.text.split("<h2>Receipt</h2>")[1]  # its QR code
    finally:
        ledger.close()
