"""The board as SVG: what a browser shows, read back by parsing the drawing.

Each test parses :func:`board_svg`'s output with :mod:`xml.etree` and reads it
as a user would look at it: checkers counted on each numbered point (the
count written on a tall stack), the cube's value and on which side of the
board it stands, the pips on each die, the words above and below the board.
The expected values come from the match's model (its boards in each player's
own numbering) or from the text diagram, never from the renderer.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse as parse_line
from bgledger.projections.state.fold import MatchState
from bgledger.projections.views.svg import board_svg
from bgledger.projections.views.text import board_diagram
from bgledger.rules.position import OFF
from tests.match_driver import next_line
from tests.test_render import drawn, off_counts

NS = {"svg": "http://www.w3.org/2000/svg"}
CUBE = 34  # the cube's side in the viewBox
MIDDLE_OF_THE_BOARD = 294  # the middle of the field (64 to 524 in the viewBox)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def checkers(svg: str) -> dict[str, dict[str, int]]:
    """Checkers seen on each point (and ``bar``, ``off``): ``{point: {"mine": n, "theirs": n}}``.

    A stack with a count written on it counts as that number.
    """
    found: dict[str, dict[str, int]] = {}
    for group in parse(svg).iterfind(".//svg:g[@class='point']", NS):
        point = group.attrib["data-point"]
        seen = {"mine": 0, "theirs": 0}
        for shape in group:
            kind = shape.attrib.get("class", "")
            if kind.startswith("checker"):
                seen[kind.split()[1]] += 1
        for text in group.iterfind("svg:text[@class='count']", NS):
            side = "mine" if seen["mine"] else "theirs"  # a point holds one side's checkers
            if point == "bar":  # the bar holds both: the count stands on the side's stack
                side = _bar_side(group, text)
            seen[side] = int(text.text or "0")
        found[point] = seen
    return found


def _bar_side(group: ET.Element, text: ET.Element) -> str:
    y = float(text.attrib["y"])
    return "theirs" if y < MIDDLE_OF_THE_BOARD else "mine"


def played(length: int, seed: int, actions: int) -> MatchState:
    match = Match.start(match_uuid("s"), "s", ("Ann", "Bob"), length, by="kim")
    rng = random.Random(seed)
    for _ in range(actions):
        line = next_line(match.state, rng)
        if line is None:
            break
        parse_line(line).run(match, "kim")
    return match.state


def test_the_starting_position_has_every_checker_on_its_point() -> None:
    svg = board_svg(played(5, 0, 0))
    seen = checkers(svg)
    mine = {p: seen[str(p)]["mine"] for p in range(1, 25) if seen[str(p)]["mine"]}
    theirs = {p: seen[str(p)]["theirs"] for p in range(1, 25) if seen[str(p)]["theirs"]}
    assert mine == {24: 2, 13: 5, 8: 3, 6: 5}
    assert theirs == {1: 2, 12: 5, 17: 3, 19: 5}
    assert seen["bar"] == {"mine": 0, "theirs": 0}
    assert seen["off"] == {"mine": 0, "theirs": 0}


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    actions=st.integers(0, 160),
    viewer=st.sampled_from(["a", "b"]),
)
def test_every_checker_is_drawn_where_the_text_board_has_it(
    seed: int, actions: int, viewer: str
) -> None:
    state = played(3, seed, actions)
    seen = checkers(board_svg(state, viewer))
    text = drawn(board_diagram(state, viewer))
    for point in range(1, 25):
        symbol, count = text.get(str(point), ("", 0))
        expected = {"mine": count if symbol == "X" else 0, "theirs": count if symbol == "O" else 0}
        assert seen[str(point)] == expected, point
    bar_theirs, bar_mine = text.get("bar O", ("O", 0))[1], text.get("bar X", ("X", 0))[1]
    assert seen["bar"] == {"mine": bar_mine, "theirs": bar_theirs}
    x_off, o_off = off_counts(board_diagram(state, viewer))
    assert seen["off"] == {"mine": x_off, "theirs": o_off}
    for side in ("mine", "theirs"):
        assert sum(s[side] for s in seen.values()) == 15


def test_a_stack_taller_than_five_shows_five_checkers_and_its_count() -> None:
    state = played(5, 0, 0)
    mine = list(state.board[0])
    mine[6], mine[13] = 9, 1  # Ann's 6 point holds nine checkers
    state = replace(state, board=(tuple(mine), state.board[1]))
    root = parse(board_svg(state))
    six = root.find(".//svg:g[@data-point='6']", NS)
    assert six is not None
    assert len(six.findall("svg:circle", NS)) == 5
    assert [t.text for t in six.findall("svg:text[@class='count']", NS)] == ["9"]
    assert checkers(board_svg(state))["6"]["mine"] == 9


def cube(svg: str) -> tuple[str, float]:
    """The cube's value and the height it stands at (its top edge)."""
    group = parse(svg).find(".//svg:g[@class='cube']", NS)
    assert group is not None
    rect, text = group.find("svg:rect", NS), group.find("svg:text", NS)
    assert rect is not None and text is not None
    return text.text or "", float(rect.attrib["y"])


def on_the_bar(svg: str) -> bool:
    """Whether the cube stands within the bar's width (no column of its own beside the board)."""
    root = parse(svg)
    bar = root.find(".//svg:g[@data-point='bar']/svg:rect", NS)
    rect = root.find(".//svg:g[@class='cube']/svg:rect", NS)
    assert bar is not None and rect is not None
    left, right = float(bar.attrib["x"]), float(bar.attrib["x"]) + float(bar.attrib["width"])
    x = float(rect.attrib["x"])
    return left <= x and x + float(rect.attrib["width"]) <= right


def test_the_cube_stands_on_its_owners_side_and_in_the_middle_when_centred() -> None:
    match = Match.start(match_uuid("c"), "c", ("Ann", "Bob"), 7, by="kim")
    for line in ["opening 3 1", "move 8/5 6/5"]:
        parse_line(line).run(match, "kim")
    svg = board_svg(match.state)
    value, y = cube(svg)
    assert value == "1"
    assert on_the_bar(svg)
    assert y < MIDDLE_OF_THE_BOARD < y + CUBE  # centred: across the middle
    for line in ["double", "take"]:  # Bob doubles, Ann takes and owns the cube at 2
        parse_line(line).run(match, "kim")
    value, y = cube(board_svg(match.state, "a"))
    assert on_the_bar(board_svg(match.state, "a"))
    assert value == "2" and y > MIDDLE_OF_THE_BOARD  # Ann's side: below, from her side
    value, y = cube(board_svg(match.state, "b"))
    assert value == "2" and y + CUBE < MIDDLE_OF_THE_BOARD  # from Bob's side: across, above


def test_no_cube_in_the_crawford_game() -> None:
    state = replace(played(3, 0, 2), score=(2, 0))
    from bgledger.projections.state.fold import Crawford

    state = replace(state, crawford=Crawford.CRAWFORD)
    root = parse(board_svg(state))
    assert root.find(".//svg:g[@class='cube']", NS) is None
    assert "Crawford game" in "".join(root.itertext())


def test_each_die_shows_as_many_pips_as_its_value() -> None:
    match = Match.start(match_uuid("d"), "d", ("Ann", "Bob"), 7, by="kim")
    for line in ["opening 3 1", "move 8/5 6/5", "roll 6 4"]:
        parse_line(line).run(match, "kim")
    dice = parse(board_svg(match.state)).findall(".//svg:g[@class='die']", NS)
    assert [len(die.findall("svg:circle", NS)) for die in dice] == [6, 4]


def test_the_bands_show_names_score_pips_length_and_crawford() -> None:
    state = replace(played(7, 0, 0), score=(3, 5))
    words = " ".join("".join(parse(board_svg(state)).itertext()).split())
    assert "Ann: 3 of 7 · pips 167 · off 0" in words
    assert "Bob: 5 of 7 · pips 167 · off 0" in words
    assert "7-point match" in words and "pre-Crawford" in words


def test_every_name_is_escaped() -> None:
    hostile = '<script>alert("x")</script> & Co'
    match = Match.start(match_uuid("e"), "e", (hostile, "Bob"), 5, by="kim")
    svg = board_svg(match.state)
    assert "<script>" not in svg
    words = "".join(parse(svg).itertext())  # well-formed XML, the name as it was typed
    assert hostile in words
    assert re.search(r'aria-label="[^"]*&lt;script&gt;', svg)


PHONE_BOARD_PX = 340
"""The board's width on a phone 360 px wide: the page's margins take the rest."""
SMALLEST_PX = 11
"""The smallest text read at arm's length without zooming (Apple's guidelines: 11 pt)."""


def test_every_text_is_readable_on_a_phone_360_px_wide() -> None:
    match = Match.start(match_uuid("p"), "p", ("Ann", "Bob"), 7, by="kim")
    for line in ["opening 3 1", "move 8/5 6/5", "roll 6 4"]:
        parse_line(line).run(match, "kim")
    state = match.state
    mine, theirs = list(state.board[0]), list(state.board[1])
    mine[13], mine[6], mine[24], mine[OFF] = 1, 8, 0, 2  # a tall stack; two borne off
    theirs[24], theirs[OFF] = 1, 1
    state = replace(state, board=(tuple(mine), tuple(theirs)))
    root = parse(board_svg(state))
    width = float(root.attrib["viewBox"].split()[2])
    texts = [
        (" ".join("".join(text.itertext()).split()), text.attrib.get("class", ""),
         float(text.attrib["font-size"]))
        for text in root.iter(f"{{{NS['svg']}}}text")
    ]  # fmt: skip
    # every kind of text is there: the points' numbers, a stack's count, the checkers
    # off, the cube, both players' lines and the match's
    said = {(words, kind) for words, kind, _ in texts}
    assert {(str(point), "number") for point in range(1, 25)} <= said
    assert {("8", "count"), ("2", "off-count"), ("1", "off-count"), ("1", "")} <= said
    ann, bob = state.pips()
    assert {
        (f"Ann: 0 of 7 · pips {ann} · off 2", ""),
        (f"Bob: 0 of 7 · pips {bob} · off 1 · to act", ""),
    } <= said
    assert ("game 1 · 7-point match · pre-Crawford", "match") in said
    small = {
        words: round(size * PHONE_BOARD_PX / width, 1)
        for words, _, size in texts
        if size * PHONE_BOARD_PX / width < SMALLEST_PX
    }
    assert not small, f"px on a 360 px phone: {small}"


def test_each_player_keeps_one_colour_from_either_side() -> None:
    """Ann's checkers are light and Bob's dark whichever side the board is drawn from."""
    state = MatchState("m", ("Ann", "Bob"), 5, "usbgf-2016", "none", True)
    for viewer in ("a", "b"):
        root = parse(board_svg(state, viewer))
        fills = {}
        for circle in root.iter("{http://www.w3.org/2000/svg}circle"):
            kind = circle.get("class") or ""
            if kind.startswith("checker"):
                fills.setdefault(kind.split()[1], set()).add(circle.get("fill"))
        ann, bob = ("mine", "theirs") if viewer == "a" else ("theirs", "mine")
        assert fills[ann] == {"#f7f3e8"} and fills[bob] == {"#262626"}, viewer


def test_every_point_is_a_tall_target_for_a_finger() -> None:
    root = parse(board_svg(MatchState("m", ("Ann", "Bob"), 5, "usbgf-2016", "none", True)))
    taps = root.findall(".//svg:g[@class='point']/svg:rect[@class='tap']", NS)
    px = PHONE_BOARD_PX / float(root.attrib["viewBox"].split()[2])  # px per unit, 340 px wide
    assert len(taps) == 24
    assert min(float(t.get("width") or 0) * px for t in taps) >= 25  # a finger's width
    assert min(float(t.get("height") or 0) * px for t in taps) >= 110  # half the field
