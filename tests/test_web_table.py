"""The board at the table (the pad's): a play drawn as it is built, the next game between games.

Read as a scorekeeper reads the board: the checkers on each point by the number written on
it, the cube's value.  Expected values worked out by hand from the starting position.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bgledger.service import Ledger

NS = {"svg": "http://www.w3.org/2000/svg"}


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(("Ann", "Bob"), 5, match_id="final", by="kim")
    for line in ("opening 6 2", "move 24/18 13/11", "roll 6 1"):
        ledger.record_line("final", line, by="kim")
    try:
        yield ledger
    finally:
        ledger.close()


def seen(svg: str) -> dict[str, tuple[int, int]]:
    """``{number written on the point: (light checkers, dark checkers)}``; ``bar`` too."""
    found = {}
    for group in ET.fromstring(svg).iterfind(".//svg:g[@class='point']", NS):
        label = group.find("svg:text[@class='number']", NS)
        name = label.text if label is not None else group.attrib["data-point"]
        count = {"mine": 0, "theirs": 0}
        for shape in group:
            kind = shape.attrib.get("class", "")
            if kind.startswith("checker"):
                count[kind.split()[1]] += 1
        found[str(name)] = (count["mine"], count["theirs"])
    return found


def test_the_points_are_numbered_from_the_movers_side_while_he_moves(client: TestClient) -> None:
    # from Ann's side (light, mine), Bob to move: his 13 point holds his 5 checkers, his 7
    # point Ann's blot (her 18 point)
    table = seen(client.get("/matches/final/board.svg?table=1&from=a").text)
    assert table["13"] == (0, 5) and table["7"] == (1, 0) and table["24"] == (0, 2)
    plain = seen(client.get("/matches/final/board.svg?from=a").text)  # spectators': Ann's
    assert plain["12"] == (0, 5) and plain["18"] == (1, 0) and plain["1"] == (0, 2)
    page = client.get("/matches/final/pad?from=a").text  # the pad as it opens
    assert seen(page[page.index("<svg") : page.index("</svg>") + 6])["13"] == (0, 5)


def test_a_play_built_is_drawn_and_a_hit_blot_goes_to_the_bar(client: TestClient) -> None:
    table = seen(client.get("/matches/final/board.svg?table=1&from=a&play=13/7").text)
    assert table["13"] == (0, 4) and table["7"] == (0, 1) and table["bar"] == (1, 0)
    table = seen(client.get("/matches/final/board.svg?table=1&from=b&play=13/7 8/7").text)
    # from Bob's side (his own numbering either way): his checkers are the viewer's
    assert table["7"] == (2, 0) and table["8"] == (2, 0) and table["bar"] == (0, 1)


@pytest.mark.parametrize(
    ("play", "said"),
    [
        ("20/14", "'20/14': Bob has no checker on point 20 to play 20/14"),
        ("24/18 24/18 24/18", "Bob has no checker on point 24 to play 24/18"),
        ("13-7", "13-7"),
    ],
)
def test_a_move_the_board_cannot_give_is_refused_in_words(
    client: TestClient, play: str, said: str
) -> None:
    answer = client.get("/matches/final/board.svg", params={"table": "1", "play": play})
    assert answer.status_code == 400 and said in answer.text, answer.text


def test_a_move_the_dice_do_not_give_is_drawn_as_made(client: TestClient) -> None:
    # (illegal, but made at the board it may be recorded as played: the record decides)
    answer = client.get("/matches/final/board.svg", params={"table": "1", "play": "13/9"})
    table = seen(answer.text)
    assert answer.status_code == 200 and table["13"] == (0, 4) and table["9"] == (0, 1)


def test_no_play_is_drawn_while_nobody_moves(client: TestClient, ledger: Ledger) -> None:
    ledger.record_line("final", "move 13/7 8/7", by="kim")
    answer = client.get("/matches/final/board.svg", params={"table": "1", "play": "13/7"})
    assert answer.status_code == 400 and "nobody is moving now" in answer.text


def test_between_games_the_table_shows_the_next_games_start(
    client: TestClient, ledger: Ledger
) -> None:
    lines = ("move 13/7* 8/7", "double", "take", "roll 5 5", "move bar/20 13/8 13/3")
    for line in (*lines, "double", "drop"):  # Bob's cube at 2, Ann's checkers moved; dropped
        ledger.record_line("final", line, by="kim")
    assert ledger.show("final").to_json()["phase"] == "between-games"
    start = {"24": (2, 0), "13": (5, 0), "8": (3, 0), "6": (5, 0)}  # Ann's, from her side
    start |= {"1": (0, 2), "12": (0, 5), "17": (0, 3), "19": (0, 5)}  # Bob's
    for where in ("/matches/final/board.svg?table=1&from=a", "/matches/final/live?table=1"):
        text = client.get(where).text
        table = seen(text[text.index("<svg") : text.index("</svg>") + 6])
        assert {point: table[point] for point in start} == start, where
        assert sum(m + t for m, t in table.values()) == 30
        assert 'data-state="centred"' in text and ">1</text></g>" in text  # the cube at 1
    old = seen(client.get("/matches/final/board.svg?from=a").text)  # the spectators': as it ended
    assert old["3"] == (1, 0) and old["13"] == (2, 0)
