"""Tamper evidence from the command line: ``verify``, ``seal`` and ``keygen``.

``verify`` recomputes every link of each match's hash chain
(:mod:`bgledger.store.integrity`) and exits 1 naming the match and the first event
that does not match; ``seal`` writes a director's signed digest of a match
(:mod:`bgledger.store.seal`) that ``verify --seal`` later checks the stream against.
Unreadable seals and keys and unknown matches exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from bgledger.cli.common import (
    BadInputError,
    RefusedError,
    emit_json,
    json_option,
    library_errors,
    open_ledger,
)
from bgledger.commands.match import match_uuid
from bgledger.store.application import Ledger
from bgledger.store.integrity import Verdict, Witness, streams, verify_stream
from bgledger.store.seal import InvalidSealError, Seal, keygen, load_private_key, load_public_key

__all__ = ["COMMANDS", "keygen_command", "seal", "verify"]

_PATH = click.Path(dir_okay=False, path_type=Path)


def _line(verdict: Verdict) -> str:
    problem = verdict.problem
    if problem is not None:
        return f"{verdict.match_id}: event {problem.number}: {problem.why}"
    text = f"{verdict.match_id}: {verdict.events} events, chain intact"
    if verdict.unchained:
        text = (
            f"{verdict.match_id}: events 1-{verdict.unchained} recorded before hash chains: "
            f"not verifiable; {verdict.events - verdict.unchained} chained events intact"
        )
    if verdict.head:
        text += f" (head {verdict.head[:16]})"
    return text + "".join(f", matches {source}" for source in verdict.witnesses)


def _checked_seal(path: Path, pub: Path | None, match_id: str | None) -> Seal:
    """The seal in ``path``, its signature (and signer, with ``pub``) checked.

    :raises BadInputError: for an unreadable seal or key, or a seal of another match.
    :raises RefusedError: for a seal whose signature or signer does not match.
    """
    with library_errors():
        found = Seal.read(path)
        key = None if pub is None else load_public_key(pub)
    if match_id is not None and found.match_id != match_id:
        raise BadInputError(f"seal {path} is of match {found.match_id!r}, not {match_id!r}")
    if not found.genuine():
        raise RefusedError(
            f"{found.match_id}: seal {path}: the signature does not match the seal's "
            "content: the seal was altered or forged"
        )
    if key is not None and key != found.public_key:
        raise RefusedError(f"{found.match_id}: seal {path} was not signed by the key in {pub}")
    return found


def _verdicts(ledger: Ledger, match_id: str | None, seal_: Seal | None) -> list[Verdict]:
    with library_errors():
        if match_id is None:
            return [verify_stream(ledger, stream) for stream in streams(ledger)]
        witnesses = [] if seal_ is None else [Witness(seal_.events, seal_.head, "the seal")]
        return [verify_stream(ledger, match_uuid(match_id), witnesses, asked=match_id)]


@click.command()
@click.argument("match_id", metavar="[MATCH]", required=False)
@click.option("--seal", "seal_path", type=_PATH, help="Check the match against this seal too.")
@click.option("--pub", type=_PATH, help="The director's public key the seal must be signed with.")
@json_option
@click.pass_context
def verify(
    ctx: click.Context,
    match_id: str | None,
    seal_path: Path | None,
    pub: Path | None,
    as_json: bool,
) -> None:
    """Recompute the hash chain of MATCH (every match without one); exit 1 on any mismatch.

    Every link is checked, and the match's latest snapshot as a witness of
    its length.  The first event that does not match is named: an edited,
    deleted, inserted or moved event, a row that cannot be read.  Events
    recorded before hash chains (by an older bgledger) are reported as not
    verifiable; they alone do not make verify fail.  With --seal FILE (of
    ``bgledger seal``) the seal's signature is checked and the stream must
    still extend it: events up to the sealed count unchanged (later rulings
    are fine), none cut off.  --pub pins the key the seal must be signed
    with.  Exit 2 for an unknown match or an unreadable seal or key.
    """
    if pub is not None and seal_path is None:
        raise BadInputError("--pub goes with --seal")
    found = None if seal_path is None else _checked_seal(seal_path, pub, match_id)
    if found is not None:
        match_id = found.match_id
    verdicts = _verdicts(open_ledger(ctx), match_id, found)
    if as_json:
        ok = all(v.ok for v in verdicts)
        emit_json({"ok": ok, "matches": [v.to_json() for v in verdicts]})
    else:
        for verdict in verdicts:
            click.echo(_line(verdict), err=not verdict.ok)
        if not verdicts:
            click.echo("no matches to verify")
    if not all(v.ok for v in verdicts):
        ctx.exit(1)


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.option("--key", "key_path", type=_PATH, required=True, help="Ed25519 private key (PEM).")
@click.option("-o", "--out", type=_PATH, default=None, help="Seal file (default: stdout).")
@click.pass_context
def seal(ctx: click.Context, match_id: str, key_path: Path, out: Path | None) -> None:
    """Write a signed digest of MATCH as it stands: its event count and chain head.

    The match is verified first; a match with a mismatch, or whose last
    event was recorded before hash chains, is not sealed (exit 1).
    """
    with library_errors():
        key = load_private_key(key_path)
    (verdict,) = _verdicts(open_ledger(ctx), match_id, None)
    if not verdict.ok:
        raise RefusedError(f"not sealed: {_line(verdict)}")
    if not verdict.head:
        raise RefusedError(f"not sealed: {match_id}: recorded before hash chains")
    document = Seal.make(key, match_id, verdict.events, verdict.head).to_json()
    if out is None:
        emit_json(document)
        return
    with library_errors():
        try:
            out.write_text(_pretty(document), encoding="utf-8")
        except OSError as error:
            raise InvalidSealError(f"seal {out}: cannot be written: {error}") from None
    click.echo(f"sealed {match_id} at event {verdict.events} in {out}", err=True)


def _pretty(document: object) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


@click.command("keygen")
@click.option("--out", type=_PATH, required=True, help="Private key file (PEM); FILE.pub beside.")
def keygen_command(out: Path) -> None:
    """Make a director's Ed25519 key pair for seals: FILE (private, PEM) and FILE.pub.

    An existing FILE is never overwritten (exit 2).
    """
    if not out.name:  # '' and '.' name a folder, not a key file
        raise BadInputError(f"--out {str(out)!r}: name a file for the private key")
    with library_errors():
        pub = keygen(out)
    click.echo(f"private key {out}, public key {pub}")


COMMANDS = (verify, seal, keygen_command)
