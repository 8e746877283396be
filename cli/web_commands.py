"""``serve`` and ``token``: the browser pad's server and the bearer tokens that may write.

``bgledger serve`` runs the web adapter (:mod:`bgledger.web`) under uvicorn
on the group's ``--db`` (a new SQLite file is made: matches can be started
from the browser); it binds 127.0.0.1 unless ``--host`` says otherwise
(``--host 0.0.0.0`` for the phones on the venue's network, whose addresses
it prints: :func:`venue_addresses`), over HTTPS with ``--certfile`` and
``--keyfile`` (:func:`tls_files`: a phone keeps the pad for offline use, and
keeps its screen on, only for a page from https or from the phone itself).
``bgledger token MATCH --role scorekeeper`` prints a token once; the ledger
keeps its SHA-256 only.
"""

from __future__ import annotations

import contextlib
import errno
import io
import ipaddress
import json
import os
import re
import socket
import ssl
import stat
import sys
from types import FrameType
from typing import Any

import click

from bgledger.cli.common import BadInputError, library_errors, masked, open_ledger
from bgledger.projections.views.text import escaped
from bgledger.service import ROLES, TokenEntry

__all__ = ["refuse_busy_port", "serve", "serve_banner", "tls_files", "token", "venue_addresses"]

EVERY_ADDRESS = ("0.0.0.0", "::", "")
"""``--host`` values that bind every network interface."""
ROUTE_PROBES = (
    ("192.0.2.1", 9),
    ("10.255.255.254", 9),
    ("172.31.255.254", 9),
    ("192.168.255.254", 9),
)
"""Addresses no packet goes to: a UDP socket "connected" to one sends nothing but is given
the address of the interface the route there leaves by: the default route's (TEST-NET-1,
RFC 5737), then each private range's (RFC 1918), for a venue's network with no gateway."""

CACHE_SIZE = 256
"""Matches the server keeps in memory between requests (each still reads new events)."""


SWITCH_INTERVAL = 0.0005
"""Seconds a thread may hold the GIL while another waits for it (Python's default: 0.005)."""


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to bind.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--certfile",
    metavar="FILE",
    default=None,
    help="Serve over HTTPS with this certificate (PEM; with --keyfile): phones keep the pad "
    "for offline use and keep the screen on only for an https page.",
)
@click.option(
    "--keyfile", metavar="FILE", default=None, help="The certificate's private key (PEM)."
)
@click.pass_context
def serve(
    ctx: click.Context, host: str, port: int, certfile: str | None, keyfile: str | None
) -> None:
    """Serve the match pages and the JSON API (private until published; writes: a `token`)."""
    import uvicorn

    from bgledger.web import create_app
    from bgledger.web.guard import WaitingRoom, guarded_protocol
    from bgledger.web.streams import quiet_repeats, raise_open_files

    tls = tls_files(certfile, keyfile)
    refuse_busy_port(host, port)
    # each live stream holds a file descriptor: a laptop's soft limit (1,024) is raised first
    limited = raise_open_files()
    quiet_repeats()  # out of descriptors, asyncio would log its accept error every second
    ledger = open_ledger(ctx, cache_size=CACHE_SIZE, create=True)
    # open event streams end at Ctrl-C (STOPPING); any other answer gets 3 s
    # a connection sends its request in time, and slow ones are capped (bgledger.web.guard)
    config = uvicorn.Config(
        create_app(ledger),
        host=host,
        port=port,
        http=guarded_protocol(WaitingRoom()),
        # out of file descriptors, asyncio retries accepting once, not once a connection
        loop="bgledger.web.guard:ServingLoop",
        log_level="warning",
        timeout_graceful_shutdown=3,
        ssl_certfile=tls.get("certfile"),
        ssl_keyfile=tls.get("keyfile"),
    )
    # Set only as the server runs (a refusal above leaves the caller's process as it was).
    # A thread that holds the ledger's write lock needs the GIL back after each statement;
    # at the default 5 ms switch interval it waits behind the pool's other threads, and the
    # writes queue up behind it (bench_tournament: p99 298 ms at 100 lines/s, 128 ms at 0.5 ms)
    # --port 0: the system chooses a port; bound here, so that the banner can say which
    sockets = [config.bind_socket()] if port == 0 else None
    if sockets is not None:
        port = int(sockets[0].getsockname()[1])
    created = ctx.meta.get("bgledger.created")
    if created is not None:  # a mistyped --db would otherwise serve an empty ledger silently
        click.echo(
            f"bgledger: no ledger file {escaped(created)} was there: a new, empty ledger was "
            "created (a mistyped --db? Ctrl-C, and give the ledger's file)",
            err=True,
        )
    addresses = venue_addresses() if host in EVERY_ADDRESS else []
    for line in serve_banner(host, port, addresses, _db_option(ctx), https=bool(tls)):
        click.echo(escaped(line), err=True)
    if limited:
        click.echo(f"bgledger: {limited}", err=True)
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        with contextlib.suppress(KeyboardInterrupt):  # raised again by uvicorn once it stopped
            _stopping_server(config).run(sockets=sockets)
    finally:  # the process's own again (serve run in a test process, then other work)
        sys.setswitchinterval(before)


def _stopping_server(config: Any) -> Any:
    """uvicorn's server, which also tells the live streams to end when it is told to stop."""
    import uvicorn

    from bgledger.web.streams import STOPPING

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            STOPPING.set()
            super().handle_exit(sig, frame)

    STOPPING.clear()
    return Server(config)


def tls_files(certfile: str | None, keyfile: str | None) -> dict[str, str]:
    """``{"certfile", "keyfile"}`` to serve HTTPS with, checked; empty for plain HTTP.

    Both files are read and must be a PEM certificate (chain) and its private key,
    so that a wrong path is said before any banner, naming the file.

    :raises BadInputError: (exit 2) one of the two without the other, a file that
        cannot be read, or a pair that is not a certificate and its key.
    """
    if certfile is None and keyfile is None:
        return {}
    if certfile is None or keyfile is None:
        given, missing = (
            ("--certfile", "--keyfile") if keyfile is None else ("--keyfile", "--certfile")
        )
        raise BadInputError(
            f"{given} needs {missing} too: HTTPS takes the certificate and its private key"
        )
    for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        _check_pem_file(option, path)
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
            certfile, keyfile, password=_no_passphrase
        )
    except _EncryptedKeyError:
        raise BadInputError(
            f"--keyfile {escaped(keyfile)}: the key is encrypted, and a server started "
            "unattended has no one to type its passphrase: give it unencrypted "
            "(openssl pkey -in KEY -out PLAIN.pem, then chmod 600 PLAIN.pem)"
        ) from None
    except (ssl.SSLError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        raise BadInputError(
            f"--certfile {escaped(certfile)} --keyfile {escaped(keyfile)}: not a certificate "
            f"(PEM) and its private key ({escaped(str(reason))})"
        ) from None
    return {"certfile": certfile, "keyfile": keyfile}


PEM_MOST = 1 << 20
"""The most bytes of a certificate chain or key file (a chain of a few certificates is a few
KB): ``--certfile /dev/zero`` is refused, not read for ever."""


class _EncryptedKeyError(Exception):
    """The key file asks for a passphrase."""


def _no_passphrase() -> str:
    raise _EncryptedKeyError


def _check_pem_file(option: str, path: str) -> None:
    """Refuse ``path`` unless it is a regular file of at most :data:`PEM_MOST` bytes that can
    be read; a FIFO or a device (``/dev/zero``) is refused by its kind, before it is opened
    (opening a FIFO waits for a writer).

    :raises BadInputError: naming the option and the file.
    """
    shown = escaped(path)
    try:
        found = os.stat(path)
    except (OSError, ValueError) as error:
        strerror = getattr(error, "strerror", None) or str(error)
        raise BadInputError(
            f"{option} {shown}: cannot read it ({strerror}). "
            "See docs/operators.md, 'HTTPS', for making one"
        ) from None
    if not stat.S_ISREG(found.st_mode):
        kind = "a directory" if stat.S_ISDIR(found.st_mode) else "a pipe or device"
        raise BadInputError(f"{option} {shown}: {kind}, not a file (PEM)")
    if found.st_size > PEM_MOST:
        raise BadInputError(
            f"{option} {shown}: {found.st_size:,} bytes, not a certificate or key (PEM, a few "
            f"KB; at most {PEM_MOST:,} bytes)"
        )
    try:
        with open(path, "rb") as pem:
            pem.read(PEM_MOST + 1)
    except OSError as error:
        raise BadInputError(
            f"{option} {shown}: cannot read it ({error.strerror}). "
            "See docs/operators.md, 'HTTPS', for making one"
        ) from None


def refuse_busy_port(host: str, port: int) -> None:
    """Refuse to serve on a port something already listens on, before any banner.

    uvicorn would print its own ``[Errno 98]`` after the banner; this says what to do.

    :raises click.ClickException: (exit 1) if ``host:port`` cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            probe.bind((host or "0.0.0.0", port))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise click.ClickException(
                f"port {port} on {host} is in use: another server (another `bgledger serve`?) "
                f"listens there. Stop it, or serve on another port: --port {port + 1}"
            ) from None
        raise click.ClickException(f"cannot serve on {host}:{port}: {error.strerror}") from None


def venue_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback: where a phone on its network finds it.

    The addresses of the interfaces the routes to :data:`ROUTE_PROBES` leave by
    (a UDP socket's ``connect`` chooses one without sending anything), then
    whatever the host's name resolves to; no address twice, none of
    127.0.0.0/8 (nor 169.254.0.0/16, which no phone is given), in that order.
    """
    found: list[str] = []
    for destination in ROUTE_PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(destination)
                found.append(probe.getsockname()[0])
        except OSError:  # no route there
            pass
    try:
        named = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found.extend(str(info[4][0]) for info in named)
    except OSError:  # the host's name resolves to nothing
        pass
    usable = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local) and address not in usable:
            usable.append(address)
    return usable


def serve_banner(
    host: str, port: int, addresses: list[str], db: str, *, https: bool = False
) -> list[str]:
    """What ``serve`` says on starting: where to open it, and how to get a token.

    ``addresses``: this machine's (:func:`venue_addresses`) when ``host`` binds
    every interface; ``db``: the ``--db URL`` to repeat in the token commands
    (empty for the default); ``https``: served with a certificate.
    """
    bgledger = f"bgledger {db} " if db else "bgledger "
    scheme = "https" if https else "http"
    if host in EVERY_ADDRESS:
        lines = [f"bgledger: serving on every network address, port {port} (Ctrl-C stops)"]
        if addresses:
            lines.append("open it on a phone on the same network:")
            lines += [f"  {scheme}://{address}:{port}/" for address in addresses]
            if not https:
                lines.append(
                    "  (plain http: the phones keep no offline pad and may sleep; "
                    "--certfile/--keyfile serve https)"
                )
        else:
            lines.append(
                "no network address found: join this machine to the venue's network "
                f"(on this machine: {scheme}://127.0.0.1:{port}/)"
            )
    else:
        shown = f"[{host}]" if ":" in host else host
        lines = [f"bgledger: {scheme}://{shown}:{port}/ (Ctrl-C stops)"]
        if ipaddress.ip_address(_resolved(host)).is_loopback:
            lines.append("this machine only: --host 0.0.0.0 lets the phones on its network in")
    lines += [
        "to record, a token (printed once; in another terminal):",
        f"  {bgledger}token --event E --role director      starts matches at /matches/new",
        f"  {bgledger}token MATCH --role scorekeeper        one match's pad: "
        "/matches/MATCH/pad#token=TOKEN",
    ]
    return lines


def _resolved(host: str) -> str:
    """``host`` as an address (``localhost`` is 127.0.0.1); itself if it resolves to nothing."""
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        try:
            return str(socket.getaddrinfo(host, None)[0][4][0])
        except (OSError, IndexError):
            return "0.0.0.0"


def _db_option(ctx: click.Context) -> str:
    """``--db URL`` as the command was given it, or nothing for the default ledger."""
    root = ctx.find_root()
    source = root.get_parameter_source("db")
    if source is None or source.name == "DEFAULT":
        return ""
    return f"--db {masked(root.params['db'])}"  # a password stays off the screen


@click.command("token")
@click.argument("match_id", metavar="[MATCH]", required=False)
@click.option("--role", type=click.Choice(ROLES), default=None, help="What the token may do.")
@click.option("--event", metavar="E", default=None, help="A director's event.")
@click.option(
    "--label",
    metavar="NAME",
    default=None,
    help="Who records with it (the events' 'by'); default: the role and the match or event.",
)
@click.option(
    "--expires",
    metavar="WHEN",
    default=None,
    help="When it stops recording: a duration (8h, 90m, 2d) or an ISO 8601 time.",
)
@click.option(
    "--revoke",
    metavar="LABEL|ID|TOKEN",
    default=None,
    help="Revoke a token instead: by its label, its id (--list) or the token itself.",
)
@click.option(
    "--qr",
    "server",
    metavar="URL",
    default=None,
    help="With MATCH: also print the pad's address on the server at URL "
    "(http://192.168.1.20:8000, as `serve` shows it) and its QR code for the phone's camera.",
)
@click.option("--list", "list_", is_flag=True, help="List the tokens (never their secrets).")
@click.option("--json", "as_json", is_flag=True, help="With --list: one JSON document.")
@click.pass_context
def token(
    ctx: click.Context,
    match_id: str | None,
    role: str | None,
    event: str | None,
    label: str | None,
    expires: str | None,
    revoke: str | None,
    server: str | None,
    list_: bool,
    as_json: bool,
) -> None:
    """Print a bearer token for `serve` that may record in MATCH (or an event's matches).

    \b
    bgledger token final --role scorekeeper          the pad of match 'final'
    bgledger token final --role scorekeeper --qr http://192.168.1.20:8000
                                                     ... and the pad's address as a QR code
    bgledger token --event "Open 2026" --role director --expires 12h
    bgledger token --role committee                  every match
    bgledger token --list                            label, role, scope, issued, last used, id
    bgledger token --revoke "Sam at table 4"         by label, by id (--list), or the token
    """
    managing = revoke is not None or list_
    if managing and (match_id or role or event is not None or label or expires):
        raise BadInputError("--list and --revoke take nothing else (but --json with --list)")
    if as_json and not list_:
        raise BadInputError("--json goes with --list")
    if server is not None and (managing or match_id is None):
        raise BadInputError("--qr goes with a MATCH's token (its pad's address)")
    if server is not None and not re.fullmatch(r"https?://[^\s/?#]+/?", server):
        raise BadInputError(f"--qr {server!r}: the server's address, http://HOST:PORT")
    # a director's or the committee's token may be the first thing a new venue's ledger holds
    ledger = open_ledger(ctx, create=match_id is None and not managing)
    with library_errors():
        if list_:
            if revoke is not None:
                raise BadInputError("--list or --revoke, not both")
            _list_tokens(ledger.tokens(), as_json)
            return
        if revoke is not None:
            revoked = ledger.revoke_token(revoke)
            for entry in revoked:
                click.echo(
                    escaped(f"revoked {entry.id} ({entry.label}, {entry.role} of {_scope(entry)})")
                )
            return
        if role is None:
            raise BadInputError("--role: one of " + ", ".join(ROLES))
        issued = ledger.issue_token(
            role, match_id=match_id, event=event, label=label, expires=expires
        )
        click.echo(issued)
        said = ledger.event_hint(event) if event is not None else None
        if said is not None:  # (on stderr: the token alone on stdout, for a script)
            click.echo(escaped(f"note: {said}"), err=True)
        if server is not None and match_id is not None:
            _print_pad_qr(server.rstrip("/"), match_id, issued)


def _print_pad_qr(server: str, match_id: str, issued: str) -> None:
    """The pad's address, and its QR code drawn in the terminal (segno), after the token."""
    import segno  # here: every other command starts without it

    from bgledger.web.new_match import pad_address

    address = server + pad_address(match_id, issued)
    click.echo(f"the pad: {escaped(address)}")
    drawn = io.StringIO()
    segno.make(address, error="m", micro=False).terminal(out=drawn, compact=True)
    click.echo(drawn.getvalue(), nl=False)


def _scope(entry: TokenEntry) -> str:
    if entry.match_id is not None:
        return f"match {entry.match_id}"
    if entry.event is not None:
        return f"event {entry.event}"
    return "every match"


def _list_tokens(entries: list[TokenEntry], as_json: bool) -> None:
    """``token --list``: one line (or JSON object) per token, never its secret."""
    if as_json:
        click.echo(json.dumps({"tokens": [entry.to_json() for entry in entries]}, indent=2))
        return
    if not entries:
        click.echo("no tokens issued ('bgledger token --help' issues one)")
        return
    header = ("Id", "Label", "Role", "Scope", "Issued", "Last used", "Expires", "Status")
    rows = [header] + [
        (e.id, escaped(e.label), e.role, escaped(_scope(e)), e.issued, e.last_used or "never",
         e.expires or "-", e.status())
        for e in entries
    ]  # fmt: skip
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
