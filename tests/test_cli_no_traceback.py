"""No traceback anywhere (issue 32, break 9): each input below printed one, hung, or said
something untrue; each now gets a clear message naming the input and its exit code."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main

COMMAND = [sys.executable, "-m", "bgledger.cli.main"]


def run(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", url, *args], color=True)  # color: escapes kept


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'v.db'}"
    assert (
        run(url, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m").exit_code == 0
    )
    return url


def serve_refused(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``serve`` with ``args`` in a process of its own: a hang fails the test, not the suite."""
    command = [*COMMAND, "--db", f"sqlite:///{tmp_path / 'v.db'}", "serve", "--port", "0", *args]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve {' '.join(args)} hung")


def test_show_at_a_number_past_64_bits_names_the_events(url: str) -> None:
    result = run(url, "show", "m", "--at", "99999999999999999999")
    assert result.exit_code == 2, result.output
    assert "match 'm' has 1 events: --at 99999999999999999999 is not one of them" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_token_expiring_after_year_9999_in_utc_is_refused(url: str) -> None:
    result = run(
        url, "token", "m", "--role", "scorekeeper", "--expires", "9999-12-31T23:59:59-12:00"
    )
    assert result.exit_code == 2, result.output
    assert "--expires '9999-12-31T23:59:59-12:00': past the last time" in result.stderr
    assert isinstance(result.exception, SystemExit)


def test_a_file_name_with_terminal_escapes_is_printed_escaped(url: str, tmp_path: Path) -> None:
    name = tmp_path / "a\x1b]0;pwned\x07\x1b[2J.mat"
    name.write_text("not a match\n", encoding="utf-8")
    refused = run(url, "import", str(name))
    assert refused.exit_code == 1
    assert "\x1b" not in refused.output and "\x07" not in refused.output
    assert "a\\x1b]0;pwned\\x07\\x1b[2J.mat" in refused.stderr
    missing = run(url, "import", str(tmp_path / "gone\x1b[2J.mat"))
    assert missing.exit_code != 0 and "\x1b" not in missing.output, missing.output
    exported = run(url, "export", "m", "--format", "mat", "-o", str(tmp_path / "o\x1b[2J.mat"))
    assert exported.exit_code == 0 and "o\\x1b[2J.mat" in exported.stderr
    assert "\x1b" not in exported.output


def test_a_db_in_a_missing_directory_is_named_for_every_write_and_serve(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'nowhere' / 'v.db'}"
    for args in (
        ["start", "--a", "Ann", "--b", "Bob", "--length", "3"],
        ["list"],
        ["serve"],
        ["import", str(tmp_path / "x.mat")],
    ):
        result = run(url, *args)
        assert result.exit_code == 2, (args, result.output)
        assert f"there is no directory {tmp_path / 'nowhere'} for the ledger file v.db" in (
            result.stderr
        ), args
        assert "unable to open" not in result.stderr
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("kind", ["zero", "fifo", "directory"])
def test_a_certificate_that_is_no_file_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    path = {"zero": Path("/dev/zero"), "fifo": tmp_path / "fifo", "directory": tmp_path}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    started = time.monotonic()
    done = serve_refused(tmp_path, "--certfile", str(path), "--keyfile", str(path))
    assert done.returncode == 2, done.stderr
    assert f"--certfile {path}: " in done.stderr and "not a file (PEM)" in done.stderr
    assert "Traceback" not in done.stderr and time.monotonic() - started < 15


def test_a_huge_certificate_file_is_refused_unread(tmp_path: Path) -> None:
    huge = tmp_path / "huge.pem"
    with huge.open("wb") as out:
        out.truncate(50 << 20)  # sparse: 50 MB to read, none on disk
    done = serve_refused(tmp_path, "--certfile", str(huge), "--keyfile", str(huge))
    assert done.returncode == 2 and "52,428,800 bytes" in done.stderr, done.stderr


def test_an_encrypted_key_is_refused_with_what_to_do(tmp_path: Path) -> None:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl to make a key")
    cert, key, locked = tmp_path / "c.pem", tmp_path / "k.pem", tmp_path / "locked.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    subprocess.run(
        [openssl, "pkey", "-in", str(key), "-aes256", "-passout", "pass:secret",
         "-out", str(locked)],
        check=True, capture_output=True,
    )  # fmt: skip
    done = serve_refused(tmp_path, "--certfile", str(cert), "--keyfile", str(locked))
    assert done.returncode == 2, done.stderr
    assert f"--keyfile {locked}: the key is encrypted" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_on_port_0_prints_the_port_it_serves_on_and_a_new_ledger_is_said(
    tmp_path: Path,
) -> None:
    db = tmp_path / "mistyped.db"
    server = subprocess.Popen(
        [*COMMAND, "--db", f"sqlite:///{db}", "serve", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        said = []
        deadline = time.monotonic() + 20
        while not any("http://127.0.0.1:" in line for line in said):
            assert time.monotonic() < deadline and server.poll() is None, said
            said.append(server.stderr.readline())
        address = re.search(r"http://127\.0\.0\.1:(\d+)/", "".join(said))
        assert address is not None and address.group(1) != "0", said
        while True:  # the port is bound before the banner; it answers once the app is up
            try:
                with urllib.request.urlopen(f"{address.group(0)}sw.js", timeout=5) as answer:
                    assert answer.status == 200
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, said
                time.sleep(0.1)
        assert any(f"no ledger file {db} was there: a new, empty ledger" in line for line in said)
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=15)


def test_serve_on_an_existing_ledger_says_nothing_of_a_new_one(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bgledger.cli import web_commands

    monkeypatch.setattr(
        web_commands,
        "_stopping_server",
        lambda config: type("S", (), {"run": lambda *a, **k: None})(),
    )
    result = run(url, "serve", "--port", "0")
    assert result.exit_code == 0, result.output
    assert "new, empty ledger" not in result.stderr
    assert ":0/" not in result.stderr
