"""The board as SVG, drawn from the match state alone (as python-chess's ``chess.svg.board``).

:func:`board_svg` draws what :func:`~bgledger.projections.views.text.board_diagram`
writes, for a browser: the 24 points from one player's side (his checkers
light, moving from his 24 point at the top right round to his 1 point at the
bottom right; the opponent's dark), the bar, the borne-off trays, the cube
on the bar at its owner's end (in the middle when nobody owns it; in the
field when it is offered), the dice in the roller's half, and above and
below the board each player's name, score, pip count and checkers off, the
match length and the Crawford status.

A point shows up to five checkers; a taller stack shows five with its count
on the outermost, so every checker can be counted.  Every string of the
match (players' names) is escaped.  The web server inlines the SVG in the
match page; nothing in it needs a script or a font of its own.  Its text
is sized for a phone held at arm's length: none smaller than :data:`TEXT`
user units, about 11 px where a 360 px phone draws the board; a player's
line too long for the drawing is narrowed, not made smaller.  The field
takes nearly the whole width (no column beside it; a narrow bar and tray),
so a point is about 26 px wide on a 360 px phone, a finger's width.

>>> from bgledger.projections.state.model import MatchState
>>> svg = board_svg(MatchState("m", ("Ann", "Bob <b>"), 5, "usbgf-2016", "none", True))
>>> svg.startswith("<svg") and "Bob &lt;b&gt;" in svg
True
"""

from __future__ import annotations

from html import escape

from bgledger.projections.state.allowed import hit_due
from bgledger.projections.state.fold import MatchState, Phase, other, seat
from bgledger.projections.views.text import _crawford_game, _crawford_status, resolve_viewer
from bgledger.rules.position import BAR, OFF

__all__ = ["board_svg", "qr_svg"]

WIDTH, HEIGHT = 680, 614
"""The drawing's size in user units (the page scales it): a point 50 of the 680, about
26 px on a 360 px phone; no taller on the page than the drawing was before (838x776)."""
TEXT = 23
"""The smallest text's size in user units: about 11.5 px where a 360 px phone draws the
board 340 px wide (a point's number, a stack's count, the checkers off, the cube)."""

_STACK = 5
"""Checkers drawn on a point before the outermost shows the stack's count."""
_BAR_STACK = 4
"""Checkers drawn on each side of the bar before the outermost shows the count."""

# The field: two halves of six points, the bar between them, the tray on the right.
_FRAME = 4  # the frame's width left and right of the field and the tray
_MARGIN = 26  # the frame above and below the field, where the points' numbers are
_FIELD_TOP = 38 + _MARGIN  # under the opponent's line and the frame
_FIELD_BOTTOM = _FIELD_TOP + 460
_MIDDLE = (_FIELD_TOP + _FIELD_BOTTOM) // 2
_LEFT = _FRAME  # x of the left half's first point
_POINT = 50  # a point's width
_BAR_WIDTH = 40
_RIGHT = _LEFT + 6 * _POINT + _BAR_WIDTH  # x of the right half's first point
_FIELD_RIGHT = _RIGHT + 6 * _POINT
_TRAY = _FIELD_RIGHT + _FRAME  # x of the borne-off tray
_TRAY_WIDTH = 28
_CUBE = 34  # on the bar, a little narrower than it
_RADIUS = 20  # five checkers (200) from each edge leave the dice room in the middle
_BAR_RADIUS = 16  # the bar's checkers, a little narrower than the bar
_TRIANGLE = 194  # a point's height
_DIE = 40

_COLOURS = {
    "frame": "#5b3a21",
    "felt": "#1f5d3a",
    "light_point": "#e3cfa4",
    "dark_point": "#a0522d",
    "light": "#f7f3e8",
    "light_edge": "#3a3a3a",
    "dark": "#262626",
    "dark_edge": "#d8d8d8",
    "text": "#1b1b1b",
}

_TOP_HALVES = (range(13, 19), range(19, 25))
_BOTTOM_HALVES = (range(12, 6, -1), range(6, 0, -1))


def board_svg(state: MatchState, viewer: str = "a", numbered: str | None = None) -> str:
    """The board of ``state`` as one ``<svg>`` element, from ``viewer``'s side (``a`` or ``b``).

    ``numbered``: the player whose numbering the points' labels show (his 24 point is the
    other's 1 point); the viewer's when None.  The pad numbers them from the mover's side
    while he moves, so that the play it builds reads as the board shows it; ``data-point``
    stays in the viewer's numbering.

    Each player keeps one colour whichever side the board is drawn from, as on
    the physical board: ``a``'s checkers light, ``b``'s dark.  Each checker
    is a ``<circle class="checker mine|theirs">`` in the ``<g class="point"
    data-point="N">`` of its point (the viewer's numbering, ``bar`` and
    ``off`` for the bar and the trays), where a ``<rect class="tap">`` as
    tall as half the field is one target for a finger; a stack taller than a
    point shows its count in a ``<text class="count">``.

    :raises ValueError: if ``viewer`` is neither a player nor a player's name.
    """
    me = resolve_viewer(state, viewer)
    them = other(me)
    flip = numbered is not None and resolve_viewer(state, numbered) != me
    mine, theirs = state.board[seat(me)], state.board[seat(them)]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="board" role="img" aria-label="{_e(_label(state, me))}">',
        f"<title>{_e(_label(state, me))}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#f5f1e6"/>',
        _frame(),
    ]
    for top, halves in ((True, _TOP_HALVES), (False, _BOTTOM_HALVES)):
        for half in halves:
            for point in half:
                label = BAR - point if flip else point
                parts.append(_point(point, top, mine[point], theirs[BAR - point], me, label))
    parts.append(_bar(theirs[BAR], mine[BAR], me))
    parts.append(_trays(theirs[OFF], mine[OFF], me))
    parts.append(_cube(state, me))
    parts.append(_dice(state, me))
    parts.extend(_bands(state, me))
    parts.append("</svg>")
    return "\n".join(part for part in parts if part)


def _tone(side: str, me: str) -> str:
    """``side``'s colour (``mine`` or ``theirs``, seen by ``me``): ``a`` light, ``b`` dark."""
    return "light" if (side == "mine") == (me == "a") else "dark"


def _colour(side: str, me: str, edge: bool = False) -> str:
    """The fill (or the edge) of ``side``'s checkers as ``me`` sees the board."""
    return _COLOURS[_tone(side, me) + ("_edge" if edge else "")]


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _label(state: MatchState, me: str) -> str:
    return (
        f"{state.name(me)} v {state.name(other(me))}, from {state.name(me)}'s side, "
        f"{state.length}-point match"
    )


def _frame() -> str:
    c = _COLOURS
    left, right = _LEFT - _FRAME, _TRAY + _TRAY_WIDTH + _FRAME
    top, bottom = _FIELD_TOP - _MARGIN, _FIELD_BOTTOM + _MARGIN
    return "\n".join(
        [
            f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" '
            f'rx="4" fill="{c["frame"]}"/>',
            f'<rect x="{_LEFT}" y="{_FIELD_TOP}" width="{6 * _POINT}" '
            f'height="{_FIELD_BOTTOM - _FIELD_TOP}" fill="{c["felt"]}"/>',
            f'<rect x="{_RIGHT}" y="{_FIELD_TOP}" width="{6 * _POINT}" '
            f'height="{_FIELD_BOTTOM - _FIELD_TOP}" fill="{c["felt"]}"/>',
            f'<rect x="{_TRAY}" y="{_FIELD_TOP}" width="{_TRAY_WIDTH}" '
            f'height="{_FIELD_BOTTOM - _FIELD_TOP}" fill="{c["felt"]}"/>',
        ]
    )


def _point_x(point: int) -> int:
    """The left edge of the viewer's ``point``."""
    halves = _TOP_HALVES if point >= 13 else _BOTTOM_HALVES
    for start, half in zip((_LEFT, _RIGHT), halves, strict=True):
        if point in half:
            return start + list(half).index(point) * _POINT
    raise ValueError(point)  # pragma: no cover - every point 1-24 is in a half


def _point(point: int, top: bool, mine: int, theirs: int, me: str, label: int) -> str:
    """One point: its triangle, its number (``label``), its checkers (one side's at most)."""
    x = _point_x(point)
    edge, tip = (
        (_FIELD_TOP, _FIELD_TOP + _TRIANGLE) if top else (_FIELD_BOTTOM, _FIELD_BOTTOM - _TRIANGLE)
    )
    colour = _COLOURS["dark_point"] if point % 2 else _COLOURS["light_point"]
    number_y = _FIELD_TOP - 5 if top else _FIELD_BOTTOM + 22
    tap_y = _FIELD_TOP if top else _MIDDLE
    parts = [
        f'<g class="point" data-point="{point}">',
        f'<rect class="tap" x="{x}" y="{tap_y}" width="{_POINT}" '
        f'height="{(_FIELD_BOTTOM - _FIELD_TOP) // 2}" fill="transparent"/>',
        f'<polygon points="{x},{edge} {x + _POINT},{edge} {x + _POINT // 2},{tip}" '
        f'fill="{colour}"/>',
        f'<text class="number" x="{x + _POINT // 2}" y="{number_y}" font-size="{TEXT}" '
        f'text-anchor="middle" fill="#f5f1e6" font-family="sans-serif">{label}</text>',
    ]
    step = 2 * _RADIUS if top else -2 * _RADIUS
    first = edge + (_RADIUS if top else -_RADIUS)
    for side, count in (("mine", mine), ("theirs", theirs)):
        parts.extend(_stack(side, count, x + _POINT // 2, first, step, _STACK, me, _RADIUS))
    parts.append("</g>")
    return "\n".join(parts)


def _stack(
    side: str, count: int, cx: int, first: int, step: int, most: int, me: str, radius: int
) -> list[str]:
    """``count`` checkers of ``side`` from ``first`` outward; past ``most``, a count."""
    fill, edge = _colour(side, me), _colour(side, me, edge=True)
    parts = []
    for level in range(min(count, most)):
        cy = first + level * step
        parts.append(
            f'<circle class="checker {side}" cx="{cx}" cy="{cy}" r="{radius - 1}" '
            f'fill="{fill}" stroke="{edge}" stroke-width="2"/>'
        )
    if count > most:
        cy = first + (most - 1) * step
        parts.append(
            f'<text class="count" x="{cx}" y="{cy + 8}" font-size="{TEXT}" font-weight="bold" '
            f'text-anchor="middle" fill="{edge}" font-family="sans-serif">{count}</text>'
        )
    return parts


def _bar(theirs: int, mine: int, me: str) -> str:
    """The bar: the opponent's checkers above the middle, the viewer's below (as gnubg has them).

    They start clear of the centred cube, which stands in the bar's middle.
    """
    x = _LEFT + 6 * _POINT
    cx = x + _BAR_WIDTH // 2
    clear = _CUBE // 2 + 4 + _BAR_RADIUS  # the first checker's centre from the middle
    parts = [
        '<g class="point" data-point="bar">',
        f'<rect x="{x}" y="{_FIELD_TOP - _MARGIN}" width="{_BAR_WIDTH}" '
        f'height="{_FIELD_BOTTOM - _FIELD_TOP + 2 * _MARGIN}" fill="{_COLOURS["frame"]}"/>',
    ]
    step = 2 * _BAR_RADIUS
    parts.extend(_stack("theirs", theirs, cx, _MIDDLE - clear, -step, _BAR_STACK, me, _BAR_RADIUS))
    parts.extend(_stack("mine", mine, cx, _MIDDLE + clear, step, _BAR_STACK, me, _BAR_RADIUS))
    parts.append("</g>")
    return "\n".join(parts)


def _trays(theirs: int, mine: int, me: str) -> str:
    """The borne-off checkers edge on: the opponent's in the top tray, the viewer's below."""
    parts = ['<g class="point" data-point="off">']
    height, gap = 10, 2  # fifteen (180) from each end leave the counts room in the middle
    for side, count, top in (("theirs", theirs, True), ("mine", mine, False)):
        fill, edge = _colour(side, me), _colour(side, me, edge=True)
        for n in range(count):
            y = (
                _FIELD_TOP + 4 + n * (height + gap)
                if top
                else _FIELD_BOTTOM - 4 - height - n * (height + gap)
            )
            parts.append(
                f'<rect class="checker {side}" x="{_TRAY + 4}" y="{y}" '
                f'width="{_TRAY_WIDTH - 8}" height="{height}" rx="3" fill="{fill}" '
                f'stroke="{edge}" stroke-width="1.5"/>'
            )
        if count:
            y = _MIDDLE - 7 if top else _MIDDLE + 24
            parts.append(
                f'<text class="off-count" x="{_TRAY + _TRAY_WIDTH // 2}" y="{y}" '
                f'font-size="{TEXT}" '
                f'text-anchor="middle" fill="#f5f1e6" font-family="sans-serif">{count}</text>'
            )
    parts.append("</g>")
    return "\n".join(parts)


def _cube(state: MatchState, me: str) -> str:
    """The cube: on the bar at its owner's end, in the bar's middle when centred.

    Offered, it stands in the taker's half of the field at the offered value;
    there is none in the Crawford game or once the match is over.
    """
    if state.phase is Phase.OVER or _crawford_game(state):
        return ""
    value = state.cube
    owner = state.cube_owner if state.in_game else None
    x, y = _LEFT + 6 * _POINT + (_BAR_WIDTH - _CUBE) // 2, _MIDDLE - _CUBE // 2
    if state.phase is Phase.DOUBLED and state.offer is not None and state.turn is not None:
        value, owner = state.offer, None
        taker_half = _LEFT if state.turn == me else _RIGHT  # the taker's side of the field
        x = taker_half + 3 * _POINT - _CUBE // 2
    elif owner == me:
        y = _FIELD_BOTTOM - _CUBE - 3
    elif owner is not None:
        y = _FIELD_TOP + 3
    state_word = (
        "offered"
        if state.phase is Phase.DOUBLED
        else ("centred" if owner is None else f"owned by {owner}")
    )
    return (
        f'<g class="cube" data-owner="{owner or ""}" data-state="{state_word}">'
        f'<rect x="{x}" y="{y}" width="{_CUBE}" height="{_CUBE}" rx="5" fill="#fffdf5" '
        f'stroke="#222" stroke-width="2"/>'
        f'<text x="{x + _CUBE // 2}" y="{y + _CUBE // 2 + 8}" font-size="{TEXT}" '
        f'font-weight="bold" '
        f'text-anchor="middle" fill="#222" font-family="sans-serif">{value}</text></g>'
    )


_PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def _dice(state: MatchState, me: str) -> str:
    """The dice rolled, in the roller's right half (the viewer's on the right, the other's left)."""
    if state.dice is None:
        return ""
    roller = state.turn
    half = _RIGHT if roller in (me, None) else _LEFT
    parts = ['<g class="dice">']
    for n, value in enumerate(state.dice):
        x = half + 3 * _POINT - _DIE - 6 + n * (_DIE + 12)
        y = _MIDDLE - _DIE // 2
        mine = roller == me or (roller is None and n == seat(me))
        tone = _tone("mine" if mine else "theirs", me)
        fill, pip = (_COLOURS[tone], "#222" if tone == "light" else "#eee")
        parts.append(
            f'<g class="die" data-value="{value}"><rect x="{x}" y="{y}" width="{_DIE}" '
            f'height="{_DIE}" rx="7" fill="{fill}" stroke="#111" stroke-width="2"/>'
        )
        for dx, dy in _PIPS[value]:
            cx, cy = x + _DIE // 2 + dx * 10, y + _DIE // 2 + dy * 10
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="4" fill="{pip}"/>')
        parts.append("</g>")
    parts.append("</g>")
    return "\n".join(parts)


def _bands(state: MatchState, me: str) -> list[str]:
    """Above the board the opponent, below it the viewer; then the match line."""
    pips, due = state.pips(), hit_due(state)  # the due hit first (USBGF 4.1.8.1)
    lines = []
    for player, y in ((other(me), 28), (me, _FIELD_BOTTOM + _MARGIN + 30)):
        index = seat(player)
        side = "mine" if player == me else "theirs"
        acting = " · to hit" if due == player else " · to act" if state.actor == player else ""
        acting = acting if due is None or due == player else ""
        text = (
            f"{state.name(player)}: {state.score[index]} of {state.length} · "
            f"pips {pips[index]} · off {state.board[index][OFF]}{acting}"
        )
        lines.append(
            f'<g class="player {side}" data-player="{player}">'
            f'<circle cx="{_BAND_X - 16}" cy="{y - 9}" r="11" fill="{_colour(side, me)}" '
            f'stroke="{_colour(side, me, edge=True)}" stroke-width="2"/>'
            f'<text x="{_BAND_X}" y="{y}" font-size="{_BAND}" fill="{_COLOURS["text"]}" '
            f'font-family="sans-serif"{_fit(text, _BAND)}>{_e(text)}</text></g>'
        )
    parts = [f"{state.length}-point match", _crawford_status(state)]
    if state.game:
        parts.insert(0, f"game {state.game}")
    if state.phase is Phase.OVER and state.winner is not None:
        parts.append(f"won by {state.name(state.winner)}")
    line = " · ".join(parts)
    lines.append(
        f'<text class="match" x="{_BAND_X}" y="{HEIGHT - 8}" font-size="{TEXT}" '
        f'fill="#444" font-family="sans-serif"{_fit(line, TEXT)}>{_e(line)}</text>'
    )
    return lines


_BAND = 26
"""The players' lines' text size (name, score, pips, checkers off)."""
_BAND_X = 32
"""Where a band's line starts: right of its disc."""
_BAND_ROOM = WIDTH - 10 - _BAND_X
"""The width a band's line has, from its disc to the drawing's right edge."""


def _fit(text: str, size: int) -> str:
    """``textLength`` squeezing ``text`` into the band's width if it would overflow it.

    Sans-serif glyphs average about 0.56 of the size wide; a long name is
    narrowed, never made smaller (its height stays readable on a phone).
    """
    if len(text) * size * 0.56 <= _BAND_ROOM:
        return ""
    return f' textLength="{_BAND_ROOM}" lengthAdjust="spacingAndGlyphs"'


def qr_svg(text: str, title: str) -> str:
    """``text`` as a QR code, inline SVG titled ``title`` (``segno``, drawn here: nothing
    is fetched): the pad's address for a phone's camera, a score sheet's receipt.

    Error correction M (a phone reads it off a screen or paper); scaled by the page's CSS.
    """
    import segno  # here: a page without a code starts without it

    code = segno.make(text, error="m", micro=False)
    return code.svg_inline(scale=4, border=4, dark="#000", light="#fff", omitsize=True,
                           title=title)  # fmt: skip
