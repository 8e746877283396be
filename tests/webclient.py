"""The web tests' side of the JSON API: a line posted as a pad or the console posts it.

The ``client`` fixture (``tests/conftest.py``) is the app on the test module's
``ledger`` fixture; :func:`post` is ``POST /api/matches/MATCH/lines``.
"""

from __future__ import annotations

from typing import Any


def bearer(token: str) -> dict[str, str]:
    """The header that carries ``token``."""
    return {"Authorization": f"Bearer {token}"}


def post(client: Any, match: str, line: str, token: str | None) -> Any:
    """``{"line": line}`` posted to ``match`` with ``token`` (none: no Authorization header)."""
    headers = bearer(token) if token else {}
    return client.post(f"/api/matches/{match}/lines", json={"line": line}, headers=headers)
