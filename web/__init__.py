"""``bgledger serve``: the browser adapter, the command line's peer on the front door.

:func:`~bgledger.web.app.create_app` builds the Starlette application on one
:class:`bgledger.Ledger`: the match pages (the board as inline SVG), the JSON
API that mirrors the command line (``GET /api/matches/MATCH`` is ``show
--json``; ``POST /api/matches/MATCH/lines`` records one line of the record
language with a bearer token), and the live stream of a match's events.
Every write is :meth:`bgledger.Ledger.record` (a line, the token's grant and the client's
key travel with it); nothing here decides.
"""

from __future__ import annotations

from bgledger.web.app import create_app

__all__ = ["create_app"]
