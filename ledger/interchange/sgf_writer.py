"""Writing a match as the SGF GNU Backgammon saves (``save match``; ``export --format sgf``).

gnubg's SGF dialect (its ``sgf.c``): one game tree a game, ``GM[6]``
(backgammon), its root node the match's ``MI[length:L][game:N][ws:A][bs:B]``
(N from 0, A and B the score the game was played at), the players ``PW``
(player ``a``, gnubg's ``X``, the ``.mat``'s left column) and ``PB``, ``DT``,
``EV``, ``RO``, ``RU[Crawford]`` (``RU[Crawford:CrawfordGame]`` in the
Crawford game) and the result ``RE[W+2]`` (``R`` after the points for a
resignation); then a node a record: ``;W[52hfhc]`` (the dice, then each
die's step as two letters from the mover's own numbering: point p is
``a`` + p - 1 for ``W`` and ``a`` + 24 - p for ``B``, the bar ``y``, off
``z``), ``;B[double]``, ``;W[take]``, ``;W[drop]``.  A resignation is the
``R`` of the result: gnubg makes it its ``resign`` record.

The games are those of the ``.mat`` export (:mod:`.mat_writer`): the match
as corrected by the rulings in force, the same records.  What a ``.mat``
cannot carry goes in comments (``C[...]``), which gnubg keeps with the
record they follow and shows beside it: every ruling (voided events
included: ``event 9: ruling by ...``), a roll voided (a cocked die: the
SGF has only the roll played), every entry flagged against the
rules, a time forfeit, penalty points, a reserve penalized or restored,
notes, and recording errors corrected, each as ``history`` words it, with
its event number.  One made before the game's first record is on the
game's root node; before the first game, on the first game's.  Dice
rolled and not played (a concession after rolling, the record stopping
there) are ``;PL[B]DI[52]``, which gnubg reads as dice set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bgledger.errors import NotAMatchError
from bgledger.events import (
    EntryAmended,
    EntryCorrected,
    EntryWithdrawn,
    GameWon,
    MatchEvent,
    MatchForfeited,
    MatchStarted,
    PenaltyPointsAssessed,
    RemarkRecorded,
    ReserveTimePenalized,
    ReserveTimeRestored,
    RollVoided,
    RulingMade,
    RulingNoted,
    RulingOverturned,
    TimeExpired,
)
from bgledger.interchange.mat_writer import _Game, _Record, _Transcriber
from bgledger.projections.state.corrected import in_force
from bgledger.projections.state.fold import needs_history
from bgledger.projections.state.model import MatchState
from bgledger.projections.views.audit import HistoryEntry, history

__all__ = ["export_sgf"]

COMMENTED: tuple[type[MatchEvent], ...] = (
    RulingMade,
    RulingNoted,
    RulingOverturned,
    RollVoided,
    TimeExpired,
    MatchForfeited,
    PenaltyPointsAssessed,
    ReserveTimePenalized,
    ReserveTimeRestored,
    RemarkRecorded,
    EntryWithdrawn,
    EntryAmended,
    EntryCorrected,
)
"""The kinds of entry an SGF carries as comments (a flagged entry of any kind too)."""

_STEP = re.compile(r"([0-9]{1,2})/([0-9]{1,2})\*?")


@dataclass(slots=True)
class _Notes:
    """Comments by game (0 the first) and by the number of records written before them."""

    by_place: dict[tuple[int, int], list[str]] = field(default_factory=dict)

    def add(self, game: int, records: int, text: str) -> None:
        self.by_place.setdefault((max(game, 0), records), []).append(text)


def export_sgf(events: Sequence[MatchEvent]) -> str:
    """The SGF text of a match, as gnubg's ``save match`` writes it, with comments.

    :param events: a match's whole history, from its ``MatchStarted``.
    :returns: the whole file, one game tree a game, ending with a line break
        (``""`` and no tree for a match with no game yet).
    :raises NotAMatchError: if ``events`` does not begin with ``MatchStarted``.
    """
    if not events or not isinstance(events[0], MatchStarted):
        raise NotAMatchError("an SGF export needs the match's events from its MatchStarted on")
    started = events[0]
    transcriber = _Transcriber()
    places: list[tuple[int, int, int]] = []  # (event number, game, records) after each event
    winners: dict[int, str] = {}
    for event in in_force(events):
        transcriber.feed(event)
        if isinstance(event, GameWon):
            winners[len(transcriber.games) - 1] = event.winner
        game = len(transcriber.games) - 1
        count = len(transcriber.games[game].records) if game >= 0 else 0
        places.append((event.originator_version, game, count))
    notes = _Notes()
    if _commented(events, transcriber.state):
        for entry, event in zip(history(events), events, strict=True):
            if entry.flagged or isinstance(event, COMMENTED):
                game, count = _place(places, entry.number)
                notes.add(game, count, _comment(entry))
    length = started.length if transcriber.state is None else transcriber.state.length
    crawford = _crawford_game(transcriber.games, length) if started.crawford else None
    trees = [
        _tree(started, game, index, length, crawford, winners.get(index), notes)
        for index, game in enumerate(transcriber.games)
    ]
    return "".join(trees)


def _commented(events: Sequence[MatchEvent], state: MatchState | None) -> bool:
    """Whether the match has an entry to comment on: one of a kind commented, or one flagged.

    Without a ruling or a correction the events in force are all the events, folded as
    recorded, so the fold just made flags what the trail would (the trail is worded only
    when there is something to take from it: most matches, and most of the export's time).
    """
    if state is None or state.flagged:
        return True
    return any(isinstance(event, COMMENTED) or needs_history(event) for event in events)


def _place(places: list[tuple[int, int, int]], number: int) -> tuple[int, int]:
    """Where the comment on event ``number`` goes: after the last record made up to it."""
    found = (0, 0)
    for version, game, count in places:
        if version > number:
            break
        found = (game, count)
    return found


def _comment(entry: HistoryEntry) -> str:
    text = f"event {entry.number}: {entry.text}"
    if entry.rule and entry.rule not in text:
        text += f" ({entry.rule})"
    if entry.flagged:
        text += " [flagged]"
    if entry.voided_by:
        text += f" [voided by ruling {entry.voided_by}]"
    return text


def _crawford_game(games: list[_Game], length: int) -> int | None:
    """The index of the Crawford game: the first at which one player (only) needs one point."""
    for index, game in enumerate(games):
        at_one = [score == length - 1 for score in game.score]
        if any(at_one):
            return index if not all(at_one) else None
    return None


def _tree(
    started: MatchStarted,
    game: _Game,
    index: int,
    length: int,
    crawford: int | None,
    winner: str | None,
    notes: _Notes,
) -> str:
    root = [
        "FF[4]GM[6]CA[UTF-8]AP[bgledger]",
        f"MI[length:{length}][game:{index}][ws:{game.score[0]}][bs:{game.score[1]}]",
        f"PW[{_text(started.player_a)}]PB[{_text(started.player_b)}]",
    ]
    date = _day(started.at)
    if date:
        root.append(f"DT[{date}]")
    if started.event:
        root.append(f"EV[{_text(started.event)}]")
    if started.round:
        root.append(f"RO[{_text(started.round)}]")
    if started.crawford:
        root.append("RU[Crawford:CrawfordGame]" if index == crawford else "RU[Crawford]")
    if winner is not None and game.points is not None:
        resigned = any(record.kind == "resign" for record in game.records)
        root.append(f"RE[{'W' if winner == 'a' else 'B'}+{game.points}{'R' if resigned else ''}]")
    nodes = [";" + "".join(root) + _comments(notes, index, 0)]
    carried = ""
    for count, record in enumerate(game.records, start=1):
        node = _node(record)
        here = _comments(notes, index, count)
        if node is None:  # not written: its comments go with the next node, or the last
            carried += here
            continue
        nodes.append(f"\n;{node}{carried}{here}")
        carried = ""
    if carried:
        nodes[-1] += carried
    return "(" + "".join(nodes) + ")\n"


def _comments(notes: _Notes, game: int, count: int) -> str:
    said = notes.by_place.get((game, count))
    return f"C[{_text(chr(10).join(said))}]" if said else ""


def _node(record: _Record) -> str | None:
    """A record's node (``W[52hfhc]``, ``B[double]``), or None if gnubg's SGF has none."""
    colour = "W" if record.player == 0 else "B"
    if record.kind in ("double", "take", "drop"):
        return f"{colour}[{record.kind}]"
    if record.kind == "beaver":
        return f"{colour}[take]"  # gnubg's SGF knows no beaver: the take it answers
    if record.kind == "dice":  # rolled and not played: a concession followed, or the end
        return f"PL[{colour}]DI[{record.text[:2]}]"
    if record.kind != "move":
        return None  # a resignation is the result's R
    dice, _, play = record.text.partition(":")
    steps = _STEP.findall(play)
    letters = "".join(_letter(int(p), record.player) for step in steps for p in step)
    if len(dice) != 2 or "".join(f"{a}/{b}" for a, b in steps) != re.sub(r"[\s*]", "", play):
        return None  # a transcription's play the board could not show: no SGF move
    return f"{colour}[{dice}{letters}]"


def _letter(point: int, player: int) -> str:
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("a") + 24 - point)


def _text(value: str) -> str:
    """An SGF property value: ``]`` and ``\\`` escaped."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _day(at: str) -> str:
    try:
        return datetime.fromisoformat(at).strftime("%Y-%m-%d")
    except ValueError:
        return ""
