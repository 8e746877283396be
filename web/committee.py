"""The committee's view (USBGF 5.3): a match replayed step by step, the appeal packet, the sheet.

Routes, added to the application by :func:`replay_routes`::

    GET /matches/MATCH/replay          one step, whole page: ``?at=N&view=recorded|corrected``
                                       (and ``from=a|b``); links step without a script
    GET /matches/MATCH/replay/step     the same step's part alone (``replay.js`` swaps it in)
    GET /matches/MATCH/packet          the appeal packet of events ``?from=N&to=K``: each
                                       event with the board before and after it, the
                                       rulings bearing on the stretch with their rules'
                                       words, the corrections of recording errors
                                       (``view=``; ``side=b``: the boards from b's side)
    GET /matches/MATCH/scoresheet      the HTML score sheet (``export --format scoresheet-html``),
                                       with the board at each game's end, and its receipt
    GET /receipt                       a receipt (``?code=``: pasted, or its QR code's text)
                                       checked against this ledger (:meth:`~bgledger.Ledger.
                                       check_receipt`)

A step is :meth:`bgledger.service.Ledger.replay`'s :class:`~bgledger.service.Step`,
the one ``bgledger replay`` prints: the match after event N in one of the two
views of the past, *recorded* (as the log stood then) or *corrected* (through
every ruling in force today), with the event's history line, the rulings in
force (each with the words of its rule) and the recording errors corrected by
then.  Nothing here folds or decides: this module renders the front door's values.

Each of these pages is kept, once rendered, until the match moves on, and rendered
a few at a time (:mod:`bgledger.web.heavy`): clients looping a long match's packet
leave the scorekeepers' lines their time.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections.abc import Callable, Sequence
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from bgledger.projections.views.audit import HistoryEntry, history_line
from bgledger.projections.views.step import VIEWS, touches
from bgledger.projections.views.summary import analyst_ids
from bgledger.projections.views.svg import board_svg
from bgledger.projections.views.text import brief
from bgledger.rules.errors import BgLedgerError
from bgledger.service import Ledger, MatchEvent, Ruled, RulingMade
from bgledger.web.feeds import NOTES
from bgledger.web.heavy import HeavyReads

RECEIPT_CHARS = 8 * 1024
"""How much of a pasted receipt the check page reads: a receipt is a few lines."""

__all__ = ["PACKET_MOST", "VIEWS", "replay_routes"]

PACKET_MOST = 200
"""The most events one appeal packet holds (each is two boards)."""

Page = Callable[[Request, str, dict[str, Any]], Response]


def replay_routes(ledger: Ledger, page: Page, heavy: HeavyReads | None = None) -> list[Route]:
    """The committee's routes on ``ledger``; ``page`` renders a template; ``heavy``: the
    application's cache and bounds of heavy pages (:mod:`bgledger.web.heavy`), a new one
    without."""

    def step_context(request: Request) -> dict[str, Any]:
        match_id = request.path_params["match_id"]
        last = len(ledger.events(match_id))
        at = _number(request, "at", 1, last)
        view = _view(request)
        viewer = _viewer(request)
        shown = ledger.replay(match_id, at, view)
        line = shown.line
        if shown.entry.kind in NOTES and not _reads_notes(ledger, request, match_id):
            line = _withheld(shown.entry)
        return {
            "match_id": match_id,
            "state": shown.state,
            "at": shown.at,
            "last": shown.last,
            "view": shown.view,
            "other_view": VIEWS[1 - VIEWS.index(view)],
            "viewer": viewer,
            "title": shown.title(),
            "line": line,
            "svg": board_svg(shown.state, viewer),
            "brief": brief(shown.state),
            "rulings": shown.rulings,
            "corrections": shown.corrections,
            "ids": analyst_ids(shown.state),
        }

    def replay_page(request: Request) -> Response:
        return page(request, "replay.html", step_context(request))

    def replay_step(request: Request) -> Response:
        return page(request, "_replay_step.html", step_context(request))

    def packet(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        events = ledger.events(match_id)
        first = _number(request, "from", 1, len(events))
        last = _number(request, "to", len(events), len(events))
        if last < first:
            raise HTTPException(400, f"to={last}: the stretch runs from={first} to a later event")
        if last - first + 1 > PACKET_MOST:
            raise HTTPException(
                400, f"from={first}&to={last}: at most {PACKET_MOST} events a packet"
            )
        view, viewer = _view(request), _viewer(request, "side")
        entries = ledger.history(match_id)[: len(events)]  # the events read above, no later
        width = max(len(entry.recorded_by) for entry in entries)
        states = {
            n: ledger.replay(match_id, n, view).state for n in range(max(first - 1, 1), last + 1)
        }
        notes = _reads_notes(ledger, request, match_id)
        steps = []
        for number in range(first, last + 1):
            before = states.get(number - 1)
            entry = entries[number - 1]
            steps.append(
                {
                    "number": number,
                    "line": history_line(entry, width)
                    if notes or entry.kind not in NOTES
                    else _withheld(entry),
                    "before": board_svg(before, viewer) if before else None,
                    "after": board_svg(states[number], viewer),
                    "brief": brief(states[number]),
                }
            )
        stretch = range(first, last + 1)
        state = states[last]
        bearing = [
            e for e in entries if e.ruling is not None and touches(e, events[e.number - 1], stretch)
        ]
        context = {
            "match_id": match_id,
            "state": state,
            "first": first,
            "last": last,
            "view": view,
            "steps": steps,
            "rulings": [_ruled(ledger, state.profile, e, events, width) for e in bearing],
            "corrections": [
                history_line(e, width)
                for e in entries
                if e.correction is not None and touches(e, events[e.number - 1], stretch)
            ],
        }
        return page(request, "packet.html", context)

    def scoresheet(request: Request) -> Response:
        match_id = request.path_params["match_id"]
        sheet = ledger.export(match_id, "scoresheet-html")  # the match as corrected
        entries = ledger.history(match_id)
        last = len(entries)
        # each game's end in force, as corrected (the sheet's rows), and a game under way now
        ends = [e for e in entries if e.kind == "GameWon" and not e.voided_by]
        shown = [(f"game {e.game}: the end (event {e.number})", e.number) for e in ends]
        now = ledger.replay(match_id, last, "corrected").state
        if now.game > (ends[-1].game if ends else 0):
            shown.append((f"game {now.game}: now (event {last})", last))
        elif now.winner is not None and shown:  # the last board: as the match ended
            shown[-1] = (f"game {now.game}: the end of the match (event {last})", last)
        figures = "".join(
            f"<figure><figcaption>{html.escape(caption)}</figcaption>"
            f"{board_svg(ledger.replay(match_id, number, 'corrected').state)}</figure>\n"
            for caption, number in shown
        )
        css = request.url_for("static", path="replay.css")
        boards = (
            f'<link rel="stylesheet" href="{css}">\n<h2>The board at each game\'s end</h2>\n'
            f'<div class="sheet-boards">\n{figures}</div>\n'
        )
        body = sheet.replace("</body>", (boards if shown else "") + "</body>", 1)
        # the sheet's own <style>, allowed by its hash (the app allows no other inline style)
        styles = re.findall(r"<style>(.*?)</style>", body, re.DOTALL)
        hashes = " ".join(
            "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
            for s in styles
        )
        from bgledger.web.app import SECURITY_HEADERS  # the app's policy (app imports this)

        policy = SECURITY_HEADERS["Content-Security-Policy"].replace(
            "; ", f"; style-src 'self' {hashes}; ", 1
        )
        return HTMLResponse(body, headers={"Content-Security-Policy": policy})

    def receipt(request: Request) -> Response:
        """A receipt checked against this ledger: anyone holding one may ask. Only a receipt
        signed by a key that sealed its match here is checked: of any other, or of a match
        this ledger does not hold (or keeps private), the page says the same."""
        code = request.query_params.get("code", "")[:RECEIPT_CHARS]
        context: dict[str, object] = {"code": code, "lines": (), "ok": False, "error": ""}
        if code.strip():
            try:
                checked = ledger.check_receipt(code, "pasted here", kept_only=True)
            except BgLedgerError as error:
                context["error"] = str(error)
            else:
                context |= {"lines": checked.lines(), "ok": checked.ok}
        return page(request, "receipt.html", context)

    # heavy: each kept by the match's last event, and rendered a few at a time
    heavy = HeavyReads(ledger) if heavy is None else heavy
    return [
        Route("/receipt", receipt, name="receipt"),
        Route("/matches/{match_id}/replay", heavy.route(replay_page)),
        Route("/matches/{match_id}/replay/step", heavy.route(replay_step)),
        Route("/matches/{match_id}/packet", heavy.route(packet)),
        Route("/matches/{match_id}/scoresheet", heavy.route(scoresheet, ledger.seals_kept)),
    ]


def _withheld(entry: HistoryEntry) -> str:
    """What a spectator reads of a note in the replay and the packet: that there is one."""
    return f"event {entry.number}: a note for the record, read by the match's officials"


def _reads_notes(ledger: Ledger, request: Request, match_id: str) -> bool:
    """Whether the reader sees the notes (:meth:`bgledger.Ledger.reads_notes`): a spectator
    of a published event does not (the heavy pages are kept for each audience)."""
    return ledger.reads_notes(match_id, getattr(request.state, "reader", None))


def _number(request: Request, name: str, default: int, last: int) -> int:
    """The event number query parameter ``name`` (``default`` if absent); 400 if it is none."""
    given = request.query_params.get(name)
    if given is None or given == "":
        return default
    if not (given.isascii() and given.isdigit()) or not 1 <= int(given) <= last:
        raise HTTPException(400, f"{name}={given!r}: an event number, 1-{last}")
    return int(given)


def _view(request: Request) -> str:
    view = request.query_params.get("view") or VIEWS[0]
    if view not in VIEWS:
        raise HTTPException(400, f"view={view!r}: 'recorded' or 'corrected'")
    return view


def _viewer(request: Request, name: str = "from") -> str:
    """The side the boards are drawn from: ``from=``, or the packet's ``side=``."""
    viewer = request.query_params.get(name) or "a"
    if viewer not in ("a", "b"):
        raise HTTPException(400, f"{name}={viewer!r}: 'a' or 'b'")
    return viewer


def _ruled(
    ledger: Ledger, profile: str, entry: HistoryEntry, events: Sequence[MatchEvent], width: int
) -> Ruled:
    event = events[entry.number - 1]
    assert isinstance(event, RulingMade)
    quotes = ledger.rule_text(profile, event.rule)
    return Ruled(entry.number, history_line(entry, width), event.rule, quotes)
