"""Tamper evidence from the command line: ``verify``, ``seal`` and ``keygen``.

``verify`` recomputes every link of each match's hash chain
(:mod:`bgledger.store.integrity`) and exits 1 naming the match and the first event
that does not match; ``seal`` writes a director's signed digest of a match
(:mod:`bgledger.store.seal`) that ``verify --seal`` later checks the stream against.
Unreadable seals and keys and unknown matches exit 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bgledger.cli.common import (
    BadInputError,
    FilePath,
    emit_json,
    json_option,
    library_errors,
    open_ledger,
    say,
)
from bgledger.rules.errors import BgLedgerError
from bgledger.service import Ledger, verdict_text

if TYPE_CHECKING:
    from bgledger.service import Seal

__all__ = ["COMMANDS", "keygen_command", "seal", "verify"]

_PATH = FilePath()


@click.command()
@click.argument("match_id", metavar="[MATCH]", required=False)
@click.option("--seal", "seal_path", type=_PATH, help="Check the match against this seal too.")
@click.option(
    "--receipt",
    "receipt_path",
    type=_PATH,
    help="Check a player's receipt (of `seal`, or a score sheet's) instead: - reads stdin.",
)
@click.option(
    "--copy",
    "copy_path",
    type=_PATH,
    help="With --receipt: check it against this JSON copy (export --format json), not the ledger.",
)
@click.option(
    "--pub",
    type=_PATH,
    help="The director's public key the seal or receipt must be signed with (PEM).",
)
@click.option(
    "--allow-unchained",
    is_flag=True,
    help="The ledger was recorded before hash chains: events without a chain are not a mismatch.",
)
@json_option
@click.pass_context
def verify(
    ctx: click.Context,
    match_id: str | None,
    seal_path: Path | None,
    receipt_path: Path | None,
    copy_path: Path | None,
    pub: Path | None,
    allow_unchained: bool,
    as_json: bool,
) -> None:
    """Check MATCH (every match without one) against its events; exit 1 on any mismatch.

    Every link of the hash chain is recomputed, with the match's latest
    snapshot as a witness of its length; the first event that does not match
    is named: an edited, deleted, inserted or moved event, a row that cannot
    be read, an event whose chain was removed.  Then the match is folded again
    from its events and every snapshot must equal it, and every read-model row
    (list, standings, rulings) must be what the events give; a listed match
    whose events are gone is named.  --allow-unchained: the ledger was
    recorded before hash chains (by an older bgledger), its unchained events
    are reported as not verifiable instead of failing.  With --seal FILE (of
    ``bgledger seal``) and --pub KEY.pub (the director's public key: a seal
    carries its signer's key, which proves nothing alone) the signature is
    checked and the stream must still extend the seal: events up to the sealed
    count unchanged (later rulings are fine), none cut off; with a ledger seal
    (seal --all) every sealed match, and one deleted since is named.  Exit 2 for an
    unknown match, an unreadable seal or key, or --seal without --pub.

    With --receipt R (a receipt `seal` printed, or a score sheet's; its QR
    code's text will do): the receipt's signature is checked (and its signer
    with --pub), then the match's events up to the sealed one, from the ledger
    or from a JSON copy (--copy, no ledger needed), must be those sealed and
    give its result: "this result is the one the director sealed", or what
    differs (exit 1).

    Example: bgledger verify --receipt final-receipt.txt --copy final.json
    """
    if receipt_path is not None or copy_path is not None:
        _verify_receipt(ctx, match_id, receipt_path, copy_path, pub, seal_path, as_json)
        return
    if pub is not None and seal_path is None:
        raise BadInputError("--pub goes with --seal")
    if seal_path is not None and pub is None:
        raise BadInputError(
            "--seal needs --pub KEY.pub: the director's public key, kept apart from the seal "
            "(the key inside a seal proves only that someone signed it)"
        )
    with library_errors():
        found = None
        if seal_path is not None and pub is not None:
            found = Ledger.check_seal(seal_path, pub=pub, match_id=match_id)
            match_id = None if found.whole_ledger else found.match_id
        ledger = open_ledger(ctx)
        verdicts = ledger.verify(match_id, seal=found, allow_unchained=allow_unchained)
        imported = {v.match_id: _provenance(ledger, v.match_id) if v.ok else None for v in verdicts}
    if as_json:
        ok = all(v.ok for v in verdicts)
        matches = [{**v.to_json(), "provenance": imported[v.match_id]} for v in verdicts]
        emit_json({"ok": ok, "matches": matches})
    else:
        for verdict in verdicts:
            say(verdict_text(verdict), err=not verdict.ok)
            if imported[verdict.match_id]:
                say(f"  {verdict.match_id}: {imported[verdict.match_id]}")
        if not verdicts:
            say("no matches to verify")
    if not all(v.ok for v in verdicts):
        ctx.exit(1)


def _verify_receipt(
    ctx: click.Context,
    match_id: str | None,
    receipt_path: Path | None,
    copy_path: Path | None,
    pub: Path | None,
    seal_path: Path | None,
    as_json: bool,
) -> None:
    """``verify --receipt``: a player's receipt against the ledger or a JSON copy."""
    if receipt_path is None:
        raise BadInputError("--copy goes with --receipt: the receipt to check against the copy")
    if seal_path is not None:
        raise BadInputError("--seal or --receipt, not both")
    name = str(receipt_path)
    with library_errors():
        try:
            if name == "-":
                text = sys.stdin.read(_RECEIPT_BYTES)
            else:
                with receipt_path.open("rb") as given:
                    text = given.read(_RECEIPT_BYTES).decode("utf-8", errors="replace")
        except OSError as error:
            raise BadInputError(
                f"--receipt {name}: cannot be read: {error.strerror or error}"
            ) from None
        if copy_path is not None:
            checked = Ledger.check_receipt_copy(text, name, copy_path, pub=pub)
        else:
            checked = open_ledger(ctx).check_receipt(text, name, pub=pub)
        if match_id is not None and match_id != checked.seal.match_id:
            raise BadInputError(
                f"the receipt is of match {checked.seal.match_id!r}, not {match_id!r}"
            )
    if as_json:
        emit_json(
            {
                "ok": checked.ok,
                "match_id": checked.seal.match_id,
                "events": checked.seal.events,
                "result": checked.seal.result,
                "against": checked.against,
                "signer": checked.signer,
                "differences": list(checked.differences),
                "lines": list(checked.lines()),
            }
        )
    else:
        for line in checked.lines():
            say(line, err=not checked.ok)
    if not checked.ok:
        ctx.exit(1)


_RECEIPT_BYTES = 64 * 1024
"""How much of a receipt file is read: a receipt is a few lines."""


@click.command()
@click.argument("match_id", metavar="MATCH", required=False)
@click.option("--all", "whole", is_flag=True, help="Seal every match of the ledger at once.")
@click.option("--key", "key_path", type=_PATH, required=True, help="Ed25519 private key (PEM).")
@click.option("-o", "--out", type=_PATH, default=None, help="Seal file (default: stdout).")
@click.option(
    "--qr",
    "qr_path",
    type=_PATH,
    default=None,
    help="With -o: write the receipt's QR code to this SVG file too, to print.",
)
@click.pass_context
def seal(
    ctx: click.Context,
    match_id: str | None,
    whole: bool,
    key_path: Path,
    out: Path | None,
    qr_path: Path | None,
) -> None:
    """Write a signed digest of MATCH as it stands: its event count, chain head and result.

    With --all instead of MATCH, one seal of every match: `verify --seal` with
    it then also names any sealed match whose events were deleted since.  The
    match (every match) is verified first; one with a mismatch, or whose last
    event was recorded before hash chains, is not sealed (exit 1).

    A match's seal is kept in the ledger too, and is its players' receipt:
    with -o, the receipt is printed (a few lines and a code), and its score
    sheet prints it with a QR code; anyone checks it later with `verify
    --receipt`.

    Example: bgledger seal --all --key td.pem -o round3.seal
    """
    if whole == (match_id is not None):
        raise BadInputError("seal MATCH, or seal --all for every match")
    if qr_path is not None and (out is None or whole):
        raise BadInputError("--qr goes with a MATCH's seal written to a file (-o)")
    ledger = open_ledger(ctx)
    with library_errors():
        made = (
            ledger.seal_ledger(key_path, out)
            if whole
            else ledger.seal(str(match_id), key_path, out)
        )
    if out is None:
        emit_json(made.to_json())
        return
    what = f"{len(made.matches)} matches" if whole else str(match_id)
    say(f"sealed {what} at {made.events} events in {out}", err=True)
    if not whole:
        _print_receipt(made, qr_path)


def _print_receipt(made: Seal, qr_path: Path | None) -> None:
    """The receipt of a match's seal on stdout, and its QR code in ``qr_path`` if given."""
    from bgledger.projections.views.svg import qr_svg
    from bgledger.service import receipt_code, receipt_text

    say(receipt_text(made), nl=False)
    if qr_path is None:
        return
    try:
        qr_path.write_text(qr_svg(receipt_code(made), "the receipt") + "\n", encoding="utf-8")
    except OSError as error:
        raise BadInputError(
            f"--qr {qr_path}: cannot be written: {error.strerror or error}"
        ) from None
    say(f"the receipt's QR code in {qr_path}", err=True)


@click.command("keygen")
@click.option("--out", type=_PATH, required=True, help="Private key file (PEM); FILE.pub beside.")
def keygen_command(out: Path) -> None:
    """Make a director's Ed25519 key pair for seals: FILE (private, PEM) and FILE.pub.

    An existing FILE is never overwritten (exit 2).
    """
    if not out.name:  # '' and '.' name a folder, not a key file
        raise BadInputError(f"--out {str(out)!r}: name a file for the private key")
    with library_errors():
        pub = Ledger.keygen(out)
    say(f"private key {out}, public key {pub}")


COMMANDS = (verify, seal, keygen_command)


def _provenance(ledger: Ledger, match_id: str) -> str | None:
    """Where a verified match came from (None for one deleted or unreadable: verify says so)."""
    try:
        return ledger.provenance(match_id)
    except (BgLedgerError, TypeError, ValueError, KeyError):  # a damaged row: verify names it
        return None
