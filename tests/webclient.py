"""The web tests' side of the JSON API: a line posted as a pad or the console posts it.

The ``client`` fixture (``tests/conftest.py``) is the app on the test module's
``ledger`` fixture; :func:`post` is ``POST /api/matches/MATCH/lines``.
"""

from __future__ import annotations

from typing import Any

from bgledger.service import Ledger
from bgledger.web.reads import READER_COOKIE


def bearer(token: str) -> dict[str, str]:
    """The header that carries ``token``."""
    return {"Authorization": f"Bearer {token}"}


def post(client: Any, match: str, line: str, token: str | None) -> Any:
    """``{"line": line}`` posted to ``match`` with ``token`` (none: no Authorization header)."""
    headers = bearer(token) if token else {}
    return client.post(f"/api/matches/{match}/lines", json={"line": line}, headers=headers)


def reading(client: Any, ledger: Ledger) -> Any:
    """``client``, reading as the appeals committee (whose token reaches every match, DESIGN
    principle 14): its token is the read cookie a page's script sets (:mod:`bgledger.web.reads`),
    which reads only, so a write still needs its own ``Authorization`` header.  A test of
    who reads what clears it (``client.cookies.clear()``)."""
    client.cookies.set(READER_COOKIE, committee(ledger))
    return client


def committee(ledger: Ledger) -> str:
    """A new token of the appeals committee, which reads every match (and its desk)."""
    return ledger.issue_token("committee", label="reading tests")


def bare_client(ledger: Ledger) -> Any:
    """The web app on ``ledger`` through Starlette's TestClient, carrying no token."""
    from starlette.testclient import TestClient

    from bgledger.web import create_app

    return TestClient(create_app(ledger))
