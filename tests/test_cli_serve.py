"""``bgledger serve`` on the venue's network: the addresses it prints, and the tokens it names.

The address function is run on this machine (every address it gives is one
a socket can bind here) and on a pretend network; the ``serve`` command is
run through click's CliRunner with uvicorn's ``run`` replaced, so no server
starts: the test reads what it would have bound and what it told the user.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from bgledger.cli import web_commands
from bgledger.cli.main import main
from bgledger.cli.web_commands import SWITCH_INTERVAL, serve_banner, venue_addresses


def test_every_address_found_is_this_machines_and_not_loopback() -> None:
    for address in venue_addresses():
        ip = ipaddress.ip_address(address)
        assert ip.version == 4 and not ip.is_loopback
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as here:
            here.bind((address, 0))  # only an address of this machine binds


class PretendSocket:
    """A UDP socket on a machine at 192.168.1.20 whose default route leaves by that address."""

    routes: ClassVar[dict[str, str]] = {"192.0.2.1": "192.168.1.20", "10.255.255.254": "10.0.0.7"}

    def __init__(self, *_: Any) -> None:
        self.address = ""

    def __enter__(self) -> PretendSocket:
        return self

    def __exit__(self, *_: object) -> None:
        pass

    def connect(self, destination: tuple[str, int]) -> None:
        if destination[0] not in self.routes:
            raise OSError("Network is unreachable")
        self.address = self.routes[destination[0]]

    def getsockname(self) -> tuple[str, int]:
        return self.address, 40000


def test_the_addresses_are_each_network_once_without_loopback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    named = [
        (socket.AF_INET, 0, 0, "", (a, 0)) for a in ("127.0.1.1", "192.168.1.20", "172.17.0.1")
    ]
    monkeypatch.setattr(socket, "socket", PretendSocket)
    monkeypatch.setattr(socket, "getaddrinfo", lambda *_: named)
    assert venue_addresses() == ["192.168.1.20", "10.0.0.7", "172.17.0.1"]


def test_no_network_no_address(monkeypatch: pytest.MonkeyPatch) -> None:
    def unresolved(*_: object) -> list[Any]:
        raise socket.gaierror("Name or service not known")

    monkeypatch.setattr(PretendSocket, "routes", {})
    monkeypatch.setattr(socket, "socket", PretendSocket)
    monkeypatch.setattr(socket, "getaddrinfo", unresolved)
    assert venue_addresses() == []


def test_every_address_says_where_the_phones_go_and_how_to_get_a_token() -> None:
    lines = serve_banner("0.0.0.0", 8000, ["192.168.1.20", "10.0.0.7"], "")
    assert "  http://192.168.1.20:8000/" in lines and "  http://10.0.0.7:8000/" in lines
    said = "\n".join(lines)
    assert "bgledger token --event E --role director" in said and "/matches/new" in said
    assert "bgledger token MATCH --role scorekeeper" in said and "#token=" in said
    assert "127.0.0.1" not in said


def test_no_address_found_says_so() -> None:
    said = "\n".join(serve_banner("0.0.0.0", 8000, [], ""))
    assert "no network address found" in said
    assert "http://127.0.0.1:8000/" in said


def test_loopback_says_the_phones_need_host() -> None:
    lines = serve_banner("127.0.0.1", 8080, [], "--db sqlite:///club.db")
    assert lines[0] == "bgledger: http://127.0.0.1:8080/ (Ctrl-C stops)"
    assert "--host 0.0.0.0" in lines[1]
    assert "bgledger --db sqlite:///club.db token --event E --role director" in "\n".join(lines)


def test_serve_binds_what_it_is_told_and_prints_the_addresses(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bound: dict[str, Any] = {}
    before = sys.getswitchinterval()

    def server(config: Any) -> Any:
        def run(sockets: Any = None) -> None:
            bound.update(host=config.host, port=config.port, switch=sys.getswitchinterval())

        return SimpleNamespace(run=run)

    monkeypatch.setattr(web_commands, "_stopping_server", server)
    monkeypatch.setattr(web_commands, "refuse_busy_port", lambda host, port: None)
    monkeypatch.setattr(web_commands, "venue_addresses", lambda: ["192.168.1.20"])
    path = tmp_path / "venue.db"
    result = CliRunner().invoke(
        main, ["--db", f"sqlite:///{path}", "serve", "--host", "0.0.0.0", "--port", "8123"]
    )
    assert result.exit_code == 0, result.output
    assert (bound["host"], bound["port"]) == ("0.0.0.0", 8123)
    # the server ran switching threads every 0.5 ms; the process is its own again after it
    assert (bound["switch"], sys.getswitchinterval()) == (SWITCH_INTERVAL, before)
    assert "  http://192.168.1.20:8123/" in result.stderr.splitlines()
    assert f"bgledger --db sqlite:///{path} token --event E" in result.stderr
    assert path.exists()  # a new venue's ledger: matches are started from the browser


def test_a_directors_token_makes_a_new_ledger_a_scorekeepers_does_not(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'venue.db'}"
    refused = CliRunner().invoke(main, ["--db", url, "token", "final", "--role", "scorekeeper"])
    assert refused.exit_code == 2 and not (tmp_path / "venue.db").exists()
    issued = CliRunner().invoke(
        main, ["--db", url, "token", "--event", "Club", "--role", "director"]
    )
    assert issued.exit_code == 0, issued.output
    assert len(issued.output.strip()) >= 40  # the token, printed once


def test_the_banner_never_prints_the_databases_password(monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve --db postgresql+psycopg://user:PASSWORD@...`` printed it twice (issue 25, Why 7)."""
    import bgledger.web

    class Opened:
        url = "postgresql+psycopg://kim:SECRETPW@db.example:5432/open"

    monkeypatch.setattr(web_commands, "_stopping_server", lambda config: SimpleNamespace(run=dict))
    monkeypatch.setattr(web_commands, "refuse_busy_port", lambda host, port: None)
    monkeypatch.setattr(web_commands, "open_ledger", lambda *args, **kwargs: Opened())
    monkeypatch.setattr(bgledger.web, "create_app", lambda ledger: None)
    result = CliRunner().invoke(main, ["--db", Opened.url, "serve"])
    assert result.exit_code == 0, result.output
    assert "SECRETPW" not in result.output + result.stderr
    assert "--db postgresql+psycopg://kim:***@db.example:5432/open token" in result.stderr


@pytest.mark.parametrize(
    "url",
    [
        "postgresql+psycopg://kim:SECRETPW@127.0.0.1:notaport/open",
        "postgresql+nodriver://kim:SECRETPW@127.0.0.1/open",
    ],
)
def test_a_bad_url_is_refused_without_its_password(url: str) -> None:
    result = CliRunner().invoke(main, ["--db", url, "list"])
    assert result.exit_code == 2, result.output
    assert "SECRETPW" not in result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception


def test_serve_on_a_busy_port_says_so_before_any_banner(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(
            main, ["--db", f"sqlite:///{tmp_path / 'v.db'}", "serve", "--port", str(port)]
        )
    assert result.exit_code == 1
    assert f"port {port} on 127.0.0.1 is in use" in result.stderr
    assert f"--port {port + 1}" in result.stderr  # what to do
    assert "Errno" not in result.stderr and "http://" not in result.stderr  # no banner first


def test_ctrl_c_with_a_page_open_stops_quietly(tmp_path: Path) -> None:
    """A live stream open (a page), then Ctrl-C: the server stops at once, exit 0, no traceback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"sqlite:///{tmp_path / 'v.db'}"
    command = [sys.executable, "-m", "bgledger.cli.main", "--db", url]
    subprocess.run([*command, "start", "--a", "A", "--b", "B", "--length", "3", "--id", "m",
                    "--event", "Open"], check=True, capture_output=True)  # fmt: skip
    # published: a spectator's stream, which the read gate watches (DESIGN principle 14)
    subprocess.run([*command, "publish", "--event", "Open"], check=True, capture_output=True)
    server = subprocess.Popen(
        [*command, "serve", "--port", str(port)], stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                stream = urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/matches/m/events", timeout=10
                )
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        stream.readline()  # the stream is open
        started = time.monotonic()
        os.kill(server.pid, signal.SIGINT)
        stream.read()  # to its end: the server ends it as it stops
        ended = time.monotonic() - started
        _, errors = server.communicate(timeout=10)
        stream.close()
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0, errors
    assert "Traceback" not in errors and "CancelledError" not in errors and "ERROR" not in errors
    assert ended < 2.5  # the stream ended at once; nothing waited for the 3 s shutdown timeout


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, made by ``openssl`` (or skip)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl to make a certificate")
    cert, key = folder / "venue.pem", folder / "venue-key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def test_a_certificate_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v.db'}"
    missing = tmp_path / "nowhere" / "venue.pem"
    result = CliRunner().invoke(
        main, ["--db", url, "serve", "--certfile", str(missing), "--keyfile", str(missing)]
    )
    assert result.exit_code == 2, result.output
    assert f"--certfile {missing}: cannot read it (No such file or directory)" in result.stderr
    assert "Traceback" not in result.stderr and "http" not in result.stderr  # no banner
    assert not (tmp_path / "v.db").exists()  # nothing made before the refusal


def test_a_certificate_without_its_key_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v.db'}"
    alone = CliRunner().invoke(main, ["--db", url, "serve", "--certfile", "venue.pem"])
    assert alone.exit_code == 2
    assert "--certfile needs --keyfile too" in alone.stderr
    cert, key = _certificate(tmp_path)
    swapped = CliRunner().invoke(
        main, ["--db", url, "serve", "--certfile", str(key), "--keyfile", str(cert)]
    )
    assert swapped.exit_code == 2, swapped.output
    assert f"--certfile {key} --keyfile {cert}: not a certificate (PEM)" in swapped.stderr


def test_serve_over_https_with_a_self_signed_certificate(tmp_path: Path) -> None:
    """The venue's certificate: the pad and the service worker come over https."""
    cert, key = _certificate(tmp_path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "bgledger.cli.main", "--db", f"sqlite:///{tmp_path / 'v.db'}"]
    serving = [
        *command,
        "serve",
        "--port",
        str(port),
        "--certfile",
        str(cert),
        "--keyfile",
        str(key),
    ]
    server = subprocess.Popen(serving, stderr=subprocess.PIPE, text=True)
    trusted = ssl.create_default_context(cafile=str(cert))  # as a phone that trusts it
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                with urllib.request.urlopen(
                    f"https://127.0.0.1:{port}/sw.js", context=trusted, timeout=2
                ) as answer:
                    assert answer.status == 200 and b"addEventListener" in answer.read()
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "no https server"
                time.sleep(0.1)
        with pytest.raises(OSError):  # plain http is not what it serves
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
    finally:
        server.send_signal(signal.SIGINT)
        _, said = server.communicate(timeout=15)
    assert f"bgledger: https://127.0.0.1:{port}/ (Ctrl-C stops)" in said
