"""A director's seal on a match: a signed digest of its hash chain (``seal``, ``verify --seal``).

A seal is a small JSON document::

    {"format": "bgledger-seal", "match_id": "final", "events": 412,
     "head": "9c1f...", "sealed_at": "2024-05-04T18:02:11+00:00",
     "public_key": "<Ed25519 public key, hex>", "signature": "<hex>"}

``head`` is the chain (:mod:`bgledger.events.chain`) of event number ``events``;
a match's seal made since receipts (:mod:`bgledger.store.receipt`) also carries
``result``, the match's result at that event in words ("Final: Ann 7, Bob 4: Ann
wins the match"), signed like the rest (a seal without one verifies as before);
``signature`` is Ed25519 over the canonical JSON
(:func:`bgledger.events.chain.canonical_json`) of every other key.  The stream still
extends the seal when its event ``events`` still has that chain: events
recorded later (rulings after the result) do not matter, a change to any
event up to it does.  The key pair is made by :func:`keygen` (a PEM private
key, and its public key beside it with ``.pub``).  The seal carries its own
public key, so what it proves is that whoever held that key sealed this
head: ``verify --seal`` therefore requires the director's public key
(``--pub``), kept apart from the seal, and checks the seal was signed with it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from bgledger.errors import RulesError, SealRefusedError
from bgledger.events.chain import canonical_json

if TYPE_CHECKING:
    from bgledger.store.integrity import Verdict

__all__ = [
    "FORMAT",
    "LEDGER",
    "InvalidSealError",
    "Seal",
    "check_seal",
    "keygen",
    "load_private_key",
    "load_public_key",
    "seal_ledger",
    "seal_match",
]

FORMAT = "bgledger-seal"
LEDGER = "*"
"""The ``match_id`` of a ledger seal: every match, listed in ``matches``."""
_SIGNED = (
    "format", "match_id", "events", "head", "sealed_at", "public_key", "matches", "result",
)  # fmt: skip


class InvalidSealError(RulesError):
    """A seal or key file that cannot be read or used (the CLI exits 2)."""


@dataclass(frozen=True, slots=True)
class Seal:
    """A signed digest: match ``match_id`` had ``events`` events, the last with chain ``head``."""

    match_id: str
    events: int
    head: str
    sealed_at: str
    public_key: str
    signature: str
    matches: tuple[tuple[str, int, str], ...] = ()
    result: str = ""

    @property
    def whole_ledger(self) -> bool:
        """True for a ledger seal (``seal --all``): every match in :attr:`matches`."""
        return self.match_id == LEDGER

    def of(self, match_id: str) -> Seal | None:
        """The seal of ``match_id`` a ledger seal holds (None if it lists no such match)."""
        for sealed, events, head in self.matches:
            if sealed == match_id:
                return Seal(sealed, events, head, self.sealed_at, self.public_key, self.signature)
        return None

    def signed(self) -> bytes:
        """The bytes the signature covers."""
        data = {k: v for k, v in self.to_json().items() if k in _SIGNED}
        return canonical_json(data).encode("utf-8")

    def to_json(self) -> dict[str, Any]:
        """The seal document (a ledger seal's has ``matches`` too)."""
        document: dict[str, Any] = {
            "format": FORMAT,
            "match_id": self.match_id,
            "events": self.events,
            "head": self.head,
            "sealed_at": self.sealed_at,
            "public_key": self.public_key,
            "signature": self.signature,
        }
        if self.whole_ledger:
            document["matches"] = [
                {"match_id": m, "events": n, "head": h} for m, n, h in self.matches
            ]
        if self.result:
            document["result"] = self.result
        return document

    @classmethod
    def make(
        cls, key: Ed25519PrivateKey, match_id: str, events: int, head: str, result: str = ""
    ) -> Seal:
        """A seal of ``match_id`` at ``events`` events and its ``result``, signed with ``key``."""
        public = key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        sealed_at = datetime.now(UTC).isoformat(timespec="seconds")
        unsigned = cls(match_id, events, head, sealed_at, public.hex(), "", result=result)
        signature = key.sign(unsigned.signed()).hex()
        return replace(unsigned, signature=signature)

    @classmethod
    def make_ledger(cls, key: Ed25519PrivateKey, matches: Sequence[tuple[str, int, str]]) -> Seal:
        """A seal of every match in ``matches`` (id, events, head), signed now with ``key``."""
        public = key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        sealed_at = datetime.now(UTC).isoformat(timespec="seconds")
        listed = tuple(sorted(matches))
        total = sum(events for _, events, _ in listed)
        unsigned = cls(LEDGER, total, "", sealed_at, public.hex(), "", listed)
        signature = key.sign(unsigned.signed()).hex()
        return replace(unsigned, signature=signature)

    @classmethod
    def read(cls, path: Path) -> Seal:
        """The seal in file ``path`` (its signature is not checked: :meth:`genuine`).

        :raises InvalidSealError: for a file that is not a seal.
        """
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise InvalidSealError(f"seal {path}: cannot be read: {error}") from None
        return cls.from_json(data, f"seal {path}")

    @classmethod
    def from_json(cls, data: Any, where: str) -> Seal:
        """The seal document ``data`` (:meth:`to_json`'s form) read from ``where``.

        :raises InvalidSealError: naming ``where`` for a document that is not a seal.
        """
        types = {"match_id": str, "events": int, "head": str, "sealed_at": str}
        types |= {"public_key": str, "signature": str}
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InvalidSealError(f"{where}: not a {FORMAT} document")
        for key, kind in types.items():
            if type(data.get(key)) is not kind:
                raise InvalidSealError(f"{where}: {key!r} missing or not a {kind.__name__}")
        result = data.get("result", "")
        if type(result) is not str:
            raise InvalidSealError(f"{where}: 'result' is not a str")
        found = replace(cls(**{key: data[key] for key in types}), result=result)
        if not found.whole_ledger:
            return found
        listed = data.get("matches")
        entries = listed if isinstance(listed, list) else None
        if entries is None or not all(
            isinstance(e, dict)
            and type(e.get("match_id")) is str
            and type(e.get("events")) is int
            and type(e.get("head")) is str
            for e in entries
        ):
            raise InvalidSealError(f"{where}: 'matches' missing or not a list of matches")
        matches = tuple((e["match_id"], e["events"], e["head"]) for e in entries)
        return replace(found, matches=matches)

    def genuine(self) -> bool:
        """True when the signature is the seal's own key's signature over its content."""
        try:
            key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(self.public_key))
            key.verify(bytes.fromhex(self.signature), self.signed())
        except (ValueError, InvalidSignature):
            return False
        return True

    def write(self, out: Path) -> None:
        """Write the seal to file ``out`` (JSON).

        :raises InvalidSealError: if the file cannot be written.
        """
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=2) + "\n"
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as error:
            raise InvalidSealError(f"seal {out}: cannot be written: {error}") from None


def check_seal(path: Path, *, pub: Path, match_id: str | None = None) -> Seal:
    """The seal in ``path``, its signature and its signer (the key in ``pub``) checked.

    The key inside a seal proves nothing by itself (anyone can make a key
    and sign): the seal must be signed by the director's key, given apart.
    With ``match_id``, a ledger seal is checked as a whole, then read for that
    match (:meth:`Seal.of`).

    :raises InvalidSealError: for an unreadable seal or key, or a seal of
        another match than ``match_id``.
    :raises SealRefusedError: for a seal whose signature or signer does not match.
    """
    found = Seal.read(path)
    key = load_public_key(pub)
    if match_id is not None and found.whole_ledger:
        pass  # checked as a whole below, then read for that match
    elif match_id is not None and found.match_id != match_id:
        raise InvalidSealError(f"seal {path} is of match {found.match_id!r}, not {match_id!r}")
    if not found.genuine():
        raise SealRefusedError(
            f"{found.match_id}: seal {path}: the signature does not match the seal's "
            "content: the seal was altered or forged"
        )
    if key != found.public_key:
        raise SealRefusedError(f"{found.match_id}: seal {path} was not signed by the key in {pub}")
    if match_id is not None and found.whole_ledger:
        one = found.of(match_id)
        if one is None:
            raise InvalidSealError(f"seal {path}: the ledger seal lists no match {match_id!r}")
        return one
    return found


def seal_ledger(
    verify: Callable[[], Sequence[Verdict]], key: Path, out: Path | None = None
) -> Seal:
    """Every match as ``verify`` finds it, sealed with the private key in ``key``.

    The key is read first, then the ledger verified: a ledger with a mismatch,
    or a match whose last event was recorded before hash chains, is not sealed.
    The seal is written to ``out`` if given.

    :raises InvalidSealError: for an unreadable key, or a seal file that cannot be written.
    :raises SealRefusedError: for a ledger that cannot be sealed.
    """
    private = load_private_key(key)
    verdicts = verify()
    for verdict in verdicts:
        if not verdict.ok:
            raise SealRefusedError(f"not sealed: {verdict.text()}")
        if not verdict.head:
            raise SealRefusedError(f"not sealed: {verdict.match_id}: recorded before chains")
    made = Seal.make_ledger(private, [(v.match_id, v.events, v.head) for v in verdicts])
    if out is not None:
        made.write(out)
    return made


def seal_match(
    verify: Callable[[str], Sequence[Verdict]],
    match_id: str,
    key: Path,
    out: Path | None = None,
    result: Callable[[int], str] = lambda events: "",
) -> Seal:
    """Match ``match_id`` as ``verify`` finds it, sealed with the private key in ``key``.

    The key is read first, then the match verified: one with a mismatch, or
    whose last event was recorded before hash chains, is not sealed.  The
    seal is written to ``out`` if given.  ``result(n)`` words the match's result
    at its event ``n`` (the sealed one), signed with the rest.

    :raises InvalidSealError: for an unreadable key, or a seal file that cannot be written.
    :raises SealRefusedError: for a match that cannot be sealed.
    """
    private = load_private_key(key)
    (verdict,) = verify(match_id)
    if not verdict.ok:
        raise SealRefusedError(f"not sealed: {verdict.text()}")
    if not verdict.head:
        raise SealRefusedError(f"not sealed: {match_id}: recorded before hash chains")
    made = Seal.make(private, match_id, verdict.events, verdict.head, result(verdict.events))
    if out is not None:
        made.write(out)
    return made


def keygen(path: Path) -> Path:
    """Write a new Ed25519 private key to ``path`` (PEM) and its public key to ``path.pub``.

    Returns the public key's path.  Each file is created with its mode
    (``0600`` for the private key) and never over an existing file or link
    (:func:`_create`); if the public key cannot be written, the private key
    just written is removed.

    :raises InvalidSealError: if a file cannot be written, or ``path`` or
        ``path.pub`` exists (a symbolic link included).
    """
    if not path.name:
        raise InvalidSealError(f"key {str(path)!r}: name a file for the private key")
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    pub = path.with_name(path.name + ".pub")
    written: list[Path] = []
    try:
        _create(path, private, 0o600)  # the private key: never readable by others, not even once
        written.append(path)
        _create(pub, public, 0o644)
    except OSError as error:
        for made in written:  # no half of a pair left behind
            made.unlink(missing_ok=True)
        where = error.filename or str(path)
        raise InvalidSealError(
            f"keygen --out {str(path)!r}: the key file {where!r} cannot be written: "
            f"{error.strerror or error}"
        ) from None
    return pub


def _create(path: Path, data: bytes, mode: int) -> None:
    """Write ``data`` to a new file ``path`` created with ``mode``, in one step.

    The file is created by the one ``open`` (``O_CREAT | O_EXCL``): an existing
    file is never overwritten and a symbolic link at ``path`` (even a dangling
    one) is refused, never followed (``O_NOFOLLOW``); it is created with
    ``mode`` (less what the umask takes away) before anything is written.

    :raises OSError: if ``path`` exists (a link included) or cannot be written.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags, mode)
    try:
        with os.fdopen(descriptor, "wb", closefd=False) as out:
            out.write(data)
    finally:
        os.close(descriptor)


def load_private_key(path: Path) -> Ed25519PrivateKey:
    """The Ed25519 private key in PEM file ``path``.

    :raises InvalidSealError: if it cannot be read or is not an unencrypted Ed25519 key.
    """
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as error:
        raise InvalidSealError(f"key {path}: not a readable private key: {error}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise InvalidSealError(f"key {path}: not an Ed25519 key")
    return key


def load_public_key(path: Path) -> str:
    """The Ed25519 public key in PEM file ``path``, as a seal writes it (raw bytes, hex).

    :raises InvalidSealError: if it cannot be read or is not an Ed25519 public key.
    """
    try:
        key = serialization.load_pem_public_key(path.read_bytes())
    except (OSError, ValueError) as error:
        raise InvalidSealError(f"key {path}: not a readable public key: {error}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise InvalidSealError(f"key {path}: not an Ed25519 public key")
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw.hex()
