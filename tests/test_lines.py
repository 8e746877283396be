"""Issue 31: the line is the record (DESIGN principle 12).

Every entry keeps the line of the record language that made it, under the hash
chain; ``amend``, ``undo``'s grouping and the JSON copy's import run that line
again at the entry's time.  The matches here are recorded through the front door
(:meth:`bgledger.Ledger.record_line`), as a scorekeeper and a director would, and
go through their own ``export --format json`` copy and back: the match imported
must be the match recorded, reserves and all.

The stories were failures before lines were kept: a match with ``pickup-with-hit``
could not be imported from its own copy ("the file has ReserveTimeRestored; the
ledger records ClockResumed here"), and ``amend`` of an entry before that ruling was
refused with "event 9 (ReserveTimeRestored) no longer follows".
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import sqlite3
import tempfile
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgledger import events as ev
from bgledger.commands import vocabulary as voc
from bgledger.commands.corrections import CorrectionRefusedError, entries_in_force
from bgledger.commands.vocabulary import VOCABULARY, Command, parse
from bgledger.errors import BgLedgerError
from bgledger.events import MatchEvent
from bgledger.projections.state.fold import MatchState
from bgledger.service import Ledger
from bgledger.store.application import MatchStore
from tests.match_driver import next_line

T0 = datetime.fromisoformat("2026-11-21T10:00:00+00:00")
BY = "kim"


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    opened = Ledger(f"sqlite:///{tmp_path / 'origin.db'}")
    yield opened
    opened.close()


class Table:
    """A match recorded line by line through the front door, each line a few seconds after
    the one before (``+N line``: N seconds after it); ``{Kind}`` in a line is the number of
    the match's last event of that kind (``revert {CheckersPlayed} --reason ...``)."""

    def __init__(self, ledger: Ledger, match_id: str = "m", length: int = 5, **start: Any):
        self.ledger, self.match_id, self.when = ledger, match_id, T0
        ledger.start(("Ann", "Bob"), length, match_id=match_id, by=BY, at=T0.isoformat(), **start)

    def __call__(self, line: str) -> None:
        seconds = 5
        if line.startswith("+"):
            step, line = line[1:].split(" ", 1)
            seconds = int(step)
        self.when += timedelta(seconds=seconds)
        line = re.sub(r"\{(\w+)\}", lambda m: str(self.last(m.group(1))), line)
        self.ledger.record_line(self.match_id, line, by=BY, at=self.when.isoformat())

    def last(self, kind: str) -> int:
        cls = getattr(ev, kind)
        events = self.ledger.events(self.match_id)
        return max(e.originator_version for e in events if isinstance(e, cls))

    def play(self, lines: Sequence[str]) -> None:
        for line in lines:
            self(line)


def round_trip(ledger: Ledger, match_id: str, tmp_path: Path) -> Ledger:
    """The match's ``export --format json`` copy, imported into a fresh ledger."""
    tmp_path.mkdir(exist_ok=True)
    copy = tmp_path / f"{match_id}.json"
    copy.write_text(ledger.export(match_id, "json"), encoding="utf-8")
    other = Ledger(f"sqlite:///{tmp_path / f'copy-of-{match_id}.db'}")
    other.import_file(copy, by="lee")
    return other


def the_match(state: MatchState) -> MatchState:
    """What the imported match must show as the original does: all of it, reserves included
    (the chain's head aside: the copy is linked afresh in the ledger that imports it)."""
    return dataclasses.replace(state, head="")


def same_match(original: Ledger, copy: Ledger, match_id: str) -> None:
    events = original.events(match_id)
    imported = copy.events(match_id)[: len(events)]
    assert [(type(e).__name__, e.said, e.at) for e in imported] == [
        (type(e).__name__, e.said, e.at) for e in events
    ]
    assert the_match(copy.state(match_id, at=len(events))) == the_match(original.state(match_id))


# -- the stories of the issue ---------------------------------------------------------------

PICKUP = [
    "opening 3 1",  # 3 GameStarted, 4 OpeningRollMade, 5 Bob's lower die starts Ann's clock
    "move 8/5 6/5",  # 6
    "hit",  # 7: and Ann picked up the dice with it; Bob's time runs with nothing to roll
]


@pytest.mark.parametrize("stopped_first", [False, True], ids=["ruling-stops", "clock-stopped"])
def test_a_match_with_a_pickup_with_the_hit_imports_from_its_own_copy(
    ledger: Ledger, tmp_path: Path, stopped_first: bool
) -> None:
    table = Table(ledger, clock="simple-delay")
    table.play(PICKUP)
    if stopped_first:
        table("+30 clock stop dice-picked-up")  # USBGF 4.3.2(f)
    table("+30 pickup-with-hit a")  # USBGF 4.1.8.1: Bob's lost reserve restored
    table("clock resume")
    table("roll 6 4")
    table("move 24/18 13/9")
    table("hit")
    copy = round_trip(ledger, "m", tmp_path)
    same_match(ledger, copy, "m")
    imported, original = copy.state("m", at=len(ledger.events("m"))).timer, ledger.state("m").timer
    assert imported is not None and original is not None
    assert imported.reserve_ms == original.reserve_ms  # Bob's restored reserve too
    copy.close()


@pytest.mark.parametrize("stopped_first", [False, True], ids=["ruling-stops", "clock-stopped"])
def test_amending_an_entry_before_a_pickup_with_the_hit_is_refused_as_ruled_on(
    ledger: Ledger, stopped_first: bool
) -> None:
    table = Table(ledger, clock="simple-delay")
    table.play(PICKUP)
    if stopped_first:
        table("+30 clock stop dice-picked-up")
    table("+30 pickup-with-hit a")
    before = len(ledger.events("m"))
    with pytest.raises(CorrectionRefusedError) as refused:
        ledger.record_line("m", "amend 6 move 13/10 24/23", by=BY)
    message = str(refused.value)
    assert "came before the ruling" in message and "decided on it" in message, message
    assert "no longer follows" not in message
    assert len(ledger.events("m")) == before


# -- the line is kept, under the chain --------------------------------------------------------


def test_each_entry_keeps_its_line_and_its_later_events_keep_none(ledger: Ledger) -> None:
    table = Table(ledger)
    table.play(["opening 3 1", "move 8/5 6/5", "52: 13/8 13/11"])
    said = [(type(e).__name__, e.said) for e in ledger.events("m")]
    assert said == [
        ("MatchStarted", ""),  # the match's start is no line
        ("GameStarted", "opening 3 1"),
        ("OpeningRollMade", ""),
        ("CheckersPlayed", "move 8/5 6/5"),
        ("DiceRolled", "52: 13/8 13/11"),
        ("CheckersPlayed", ""),
    ]
    assert [e.number for e in entries_in_force(ledger.events("m"))] == [2, 4, 5]


def _rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT rowid, state FROM bgledger_events ORDER BY rowid").fetchall()
    return [(row_id, json.loads(state)) for row_id, state in rows]


def _rewrite(path: Path, rows: list[tuple[int, dict[str, Any]]]) -> None:
    with sqlite3.connect(path) as db:
        for row_id, data in rows:
            update = "UPDATE bgledger_events SET state = ? WHERE rowid = ?"
            db.execute(update, (json.dumps(data).encode(), row_id))
        db.execute("DELETE FROM bgledger_snapshots")


def test_a_changed_line_is_found_by_verify(tmp_path: Path) -> None:
    path = tmp_path / "origin.db"
    ledger = Ledger(f"sqlite:///{path}")
    Table(ledger).play(["opening 3 1", "move 8/5 6/5", "roll 6 4"])
    assert all(verdict.ok for verdict in ledger.verify("m"))
    ledger.close()
    rows = _rows(path)
    (row,) = [data for _, data in rows if data.get("said") == "move 8/5 6/5"]
    row["said"] = "move 8/4 6/5"  # the line changed, the play left as it was
    _rewrite(path, rows)
    again = Ledger(f"sqlite:///{path}")
    (verdict,) = again.verify("m")
    assert not verdict.ok and verdict.events == 3  # events 1-3 check; event 4 does not
    again.close()


def test_a_ledger_recorded_before_lines_were_kept_reads_groups_and_copies_the_legacy_way(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    store = MatchStore(f"sqlite:///{path}")  # each line run as bgledger ran it: no line kept
    store.start(("Ann", "Bob"), 5, match_id="m", by=BY, at=T0.isoformat(), clock="simple-delay")
    lines = [
        *PICKUP,
        "clock stop dispute",
        "+60 clock resume",
        "roll 6 4",
        "move 24/18 13/9",
        "hit",
    ]
    when = T0
    for line in lines:
        seconds, line = (
            (int(line[1:].split()[0]), line.split(" ", 1)[1]) if line[0] == "+" else (5, line)
        )
        when += timedelta(seconds=seconds)
        store.act("m", partial(parse(f"@{when.isoformat()} {line}").run, by=BY))
    recorded = store.state("m")
    store.close()
    rows = _rows(path)
    for _, data in rows:  # as bgledger wrote them before lines were kept
        data.pop("said", None)
        data["class_version"] -= 1
    _rewrite(path, rows)
    old = Ledger(f"sqlite:///{path}")
    events = old.events("m")
    assert all(e.said == "" for e in events)
    assert all(verdict.ok for verdict in old.verify("m"))  # linked as they were stored
    assert the_match(old.state("m")) == the_match(recorded)
    # the entries, worked out from the kinds of events (the legacy grouping)
    assert [e.number for e in entries_in_force(events)] == [2, 3, 6, 7, 8, 9, 10, 11, 12]
    copy = round_trip(old, "m", tmp_path)  # a copy without lines: re-decided the legacy way
    same_match(old, copy, "m")
    copy.close()
    # recorded on: new entries keep their lines, the old ones are decided the legacy way
    old.record_line("m", "undo", by=BY)  # 13: the hit (12), withdrawn
    old.record_line("m", "hit", by=BY)  # 14
    old.record_line("m", "roll 5 2", by=BY)  # 15
    old.record_line("m", "amend 11 move 24/14 --reason Bob ran one checker", by=BY)  # 16
    events = old.events("m")
    assert [e.said for e in events[12:]] == [
        "undo",
        "hit",
        "roll 5 2",
        "amend 11 move 24/14 --reason Bob ran one checker",
    ]
    found = entries_in_force(events)
    assert [e.number for e in found][-4:] == [10, 11, 14, 15]
    assert found[-3].line == "move 24/14"  # the amendment's, in the entry's place
    mixed = round_trip(old, "m", tmp_path / "mixed")  # old entries and lined ones, one copy
    same_match(old, mixed, "m")
    mixed.close()
    old.close()


# -- every verb of the vocabulary, through its JSON copy and back ---------------------------

EXAMPLES: dict[type[Command], tuple[dict[str, Any], list[str]]] = {}
"""For every verb: the match's setup and the lines that record it, as a table would."""

_GAME = ["opening 3 1", "move 8/5 6/5"]
SETUP = "setup 4HPwgDDgc/ABMA"
"""A checker of Bob's on Ann's 5 point, one fewer on his 13 (USBGF 4.2.4)."""
_CLOCKED = {"clock": "simple-delay"}
_DIRECTOR = "--reason the director saw it"


def _example(kind: type[Command], lines: list[str], **setup: Any) -> None:
    EXAMPLES[kind] = (setup, lines)


_example(voc.Opening, ["opening 3 1"])
_example(voc.PlaySingles, ["opening 3 1", "play-singles", "move 8/5 6/5"], profile="classic")
_example(voc.Roll, [*_GAME, "roll 6 4"])
_example(voc.RollMove, [*_GAME, "64: 24/18 13/9"])
_example(voc.Move, _GAME)
_example(voc.VoidRoll, [*_GAME, "roll 6 4", "void-roll cocked", "roll 5 2"])
_example(voc.Double, [*_GAME, "double", "take"])
_example(voc.Take, [*_GAME, "double", "take"])
_example(voc.Drop, [*_GAME, "double", "drop"])
_example(voc.Beaver, [*_GAME, "double", "take", "beaver --as-played"])
_example(voc.AutomaticDouble, ["opening 3 3", "automatic-double --as-played"], profile="classic")
_example(voc.Resign, [*_GAME, "resign single --as-played", "accept"])
_example(voc.Accept, [*_GAME, "resign gammon --as-played", "accept"])
_example(voc.Reject, [*_GAME, "resign single --as-played", "reject", "roll 6 4"])
_example(voc.AcceptRoll, ["opening 3 1", "roll 6 4 --premature", "accept-roll"])
_example(voc.RefuseRoll, ["opening 3 1", "roll 6 4 --premature", "refuse-roll"])
_example(voc.Setup, [SETUP, "opening 3 1"])
# cube statements (issue 33): Ann said she would pass, Bob doubles at once, Ann drops
_example(voc.Announce, [*_GAME, "announce pass a", "double", "drop"])
_example(voc.Note, [*_GAME, "note Bob asked for the director"])
_example(voc.Hit, [*_GAME, "hit", "roll 6 4"], **_CLOCKED)
_example(voc.ClockResume, [*_GAME, "clock stop dispute", "+60 clock resume"], **_CLOCKED)
_example(voc.ClockStart, ["clock start simple-delay", *_GAME, "hit"])
_example(voc.ClockStop, [*_GAME, "clock stop dispute", "+60 clock resume", "hit"], **_CLOCKED)
_example(voc.ClockRead, [*_GAME, "clock read a=9:12 b=8:40"], **_CLOCKED)
_example(voc.ClockSetting, [*_GAME, "clock set a=5:00 b=6:30 clock knocked over"], **_CLOCKED)
_example(voc.Flag, ["opening 3 1", "clock set a=0:05 b=9:00 clock error", "+60 flag a"], **_CLOCKED)
_example(voc.EarlyPickup, [*_GAME, "early-pickup b", "hit"], **_CLOCKED)
_example(voc.PickupWithHit, [*PICKUP, "+30 pickup-with-hit a", "clock resume"], **_CLOCKED)
_example(voc.BreakStart, [*_GAME, "double", "drop", "break start both", "+600 break end"])
_example(voc.BreakEnd, [*_GAME, "double", "drop", "break start a", "+1500 break end late a"])
_example(voc.Late, ["+1200 late b"])
_example(voc.Penalty, [*_GAME, "penalty a 1 'USBGF 2.2.4' slow play"])
_example(
    voc.Revert, ["opening 3 1", "move 13/7 --as-played", f"revert {{CheckersPlayed}} {_DIRECTOR}"]
)
_example(
    voc.VoidCube,
    [*_GAME, "double --as-played", "take", f"void-cube {{CubeOffered}} {_DIRECTOR}"],
    length=1,
)
_example(
    voc.NullifyPass,
    [*_GAME, "double --as-played", "drop", f"nullify-pass {{CubeOffered}} {_DIRECTOR}"],
    length=1,
)
_example(
    voc.VoidConcession,
    [
        *_GAME,
        "resign backgammon --as-played",
        "accept",
        f"void-concession {{ResignationOffered}} {_DIRECTOR}",
    ],
)
_example(
    voc.CorrectCube,
    [*_GAME, "double --to 4 --as-played", "take", f"correct-cube {{CubeOffered}} {_DIRECTOR}"],
)
_example(
    voc.CorrectSetup,
    [SETUP, f"correct-setup {{StartingPositionRecorded}} {_DIRECTOR}"],
)
_example(
    voc.Overturn,
    ["opening 3 1", "move 13/7 --as-played", f"revert {{CheckersPlayed}} {_DIRECTOR}",
     "overturn {PlaysReverted} --reason the play was legal"],
)  # fmt: skip
_example(voc.CorrectLength, [*_GAME, f"correct-length 7 {_DIRECTOR}"])
_example(voc.CorrectScore, [*_GAME, "double", "drop", f"correct-score 0-2 {_DIRECTOR}"])
_example(voc.RulingNote, [*_GAME, "note --ruled-by director --reason asked about the clock"])
_example(
    voc.MissedHit,
    ["opening 3 1", "move 8/5 6/5", "roll 6 4 --as-played", "+30 move 24/18 13/9",
     "missed-hit --reason Ann never hit her clock"],
    **_CLOCKED,
)  # fmt: skip
# -- the classic laws of the throw and the touch (CLASSIC 7, 8, 11) --
_CLASSIC = ["opening 5 2", "play-singles"]
_BOB = [*_CLASSIC, "move 13/8 13/11"]
_example(voc.Touch, [*_CLASSIC, "touch 6", "move 13/8 6/4"], profile="classic")
_example(voc.Jadoube, [*_CLASSIC, "jadoube 6", "move 13/8 13/11"], profile="classic")
_example(voc.Interfered, [*_BOB, "roll 6 5", "interfered 1 1", "move 6/5 6/5 8/7 8/7"],
         profile="classic")  # fmt: skip
_example(voc.Call, [*_BOB, "roll 6 3", "call 6 4", "move 24/18 13/9", "roll 3 1"],
         profile="classic")  # fmt: skip
_example(
    voc.CorrectCall,
    [*_BOB, "roll 6 3", "call 6 4", "move 24/18 13/9",
     "correct-call {ThrowCalled} --ruled-by players --reason Ann saw the three in time",
     "move 24/18 13/10"],
    profile="classic",
)  # fmt: skip
_example(  # CLOCK 5.1: Ann bears off next, Bob's two on his 23: nothing beyond a backgammon
    voc.MustAccept,
    ["setup 4HPwARgHAAAAAA", "opening 1 3", "move 8/5 6/5", "hit", "roll 2 1",
     "move 1/off 1/off", "hit", "resign backgammon", "must-accept"],
    clock="bronstein",
)  # fmt: skip
_example(voc.Undo, [*_GAME, "roll 6 3", "undo --reason typed 6-3", "roll 6 4"])
_example(voc.Amend, [*_GAME, "roll 6 3", "amend {DiceRolled} roll 6 4", "move 24/18 13/9"])


def test_every_verb_of_the_vocabulary_has_an_example() -> None:
    missing = [kind.__name__ for kind in VOCABULARY if kind not in EXAMPLES]
    assert not missing, f"add an example of {', '.join(missing)} to tests/test_lines.py"


@pytest.mark.parametrize("kind", VOCABULARY, ids=lambda kind: kind.__name__)
def test_a_match_recorded_with_each_verb_goes_through_its_copy_and_back(
    ledger: Ledger, tmp_path: Path, kind: type[Command]
) -> None:
    setup, lines = EXAMPLES[kind]
    table = Table(ledger, **setup)
    table.play(lines)
    kept = [parse(e.said) for e in ledger.events("m") if e.said]
    assert any(type(command) is kind for command in kept), [str(c) for c in kept]
    copy = round_trip(ledger, "m", tmp_path)
    same_match(ledger, copy, "m")
    copy.close()


# -- the property: random matches, every kind of line ------------------------------------------


def extra_lines(events: Sequence[MatchEvent], state: MatchState, rng: random.Random) -> str:
    """A line beside the game's own: a clock line, a ruling, a correction, a break ..."""

    def last(kind: str) -> int | None:
        cls = getattr(ev, kind)
        found = [e.originator_version for e in events if isinstance(e, cls)]
        return found[-1] if found else None

    player = rng.choice("ab")
    options = [
        "hit",
        f"hit {player}",
        "clock stop dispute",
        "clock resume",
        "clock read a=9:00 b=9:30",
        f"early-pickup {player}",
        f"pickup-with-hit {player}",
        "missed-hit --reason never hit",
        "note dice checked",
        "note --ruled-by director --reason asked about the clock",
        "undo",
        f"penalty {player} 1 'USBGF 2.2.4' slow play",
        "break start both",
        "break end",
        f"late {player}",
        "void-roll cocked",
        "double --as-played",
        "resign single",
        "correct-length 7 --reason the draw sheet says 7",
        "clock set a=8:00 b=8:00 clock knocked over",
    ]
    for kind, verb in (("CubeOffered", "void-cube"), ("CheckersPlayed", "revert")):
        number = last(kind)
        if number is not None:
            options.append(f"{verb} {number} --reason the director saw it")
    found = entries_in_force(events)
    if found:
        entry = rng.choice(found[-3:])
        if entry.line:
            options.append(f"amend {entry.number} {entry.line}")
    return rng.choice(options)


def random_table(seed: int, steps: int, clocked: bool, folder: Path) -> Ledger:
    """A random match through the front door: the game's lines, and now and then another."""
    rng = random.Random(seed)
    ledger = Ledger(f"sqlite:///{folder / 'random.db'}")
    table = Table(ledger, length=rng.choice((1, 3, 5)), **(_CLOCKED if clocked else {}))
    for _ in range(steps):
        state = ledger.state("m")
        line = next_line(state, rng)
        if line is None:
            break
        if rng.random() < 0.3:
            line = extra_lines(ledger.events("m"), state, rng)
        elif clocked and rng.random() < 0.6:
            line = f"hit\n{line}"  # the turn ended on the clock first, most of the time
        for said in line.splitlines():
            try:
                table(f"+{rng.choice((1, 5, 20, 90))} {said}")
            except BgLedgerError:
                continue  # refused as the rules say: nothing recorded
    return ledger


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    steps=st.integers(min_value=1, max_value=150),
    clocked=st.booleans(),
)
def test_random_matches_with_every_kind_of_line_go_through_their_copy_and_back(
    seed: int, steps: int, clocked: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        ledger = random_table(seed, steps, clocked, Path(folder))
        copy = round_trip(ledger, "m", Path(folder))
        same_match(ledger, copy, "m")
        ledger.close()
        copy.close()


# -- the .mat importer records lines ------------------------------------------------------------

MAT = Path(__file__).resolve().parent.parent / "fixtures" / "mat"


@pytest.mark.parametrize("name", ["beaver.mat", "resigned-after-rolling.mat", "mid-match.mat"])
def test_a_transcription_is_imported_line_by_line_and_its_copy_reads_back(
    ledger: Ledger, tmp_path: Path, name: str
) -> None:
    (imported,) = ledger.import_file(MAT / name)
    match_id = imported.match_id
    events = ledger.events(match_id)
    kept = [parse(e.said) for e in events if e.said]
    kinds = {type(command).__name__ for command in kept}
    assert {"Opening", "Move"} <= kinds, kinds
    assert str(kept[0]).startswith("opening ")  # the transcription's first action, as a line
    copy = round_trip(ledger, match_id, tmp_path)
    same_match(ledger, copy, match_id)
    copy.close()


def test_a_play_written_for_a_roll_that_cannot_be_played_is_judged_as_that_rolls_play(
    ledger: Ledger,
) -> None:
    # Bob has a checker on the bar against Ann's closed board: 6-4 cannot be played.  A
    # transcription's '64: bar/21' is the play made (USBGF 4.2.3(a)): refused as illegal, or
    # recorded as played and flagged; the roll's own dance is recorded only when the line says
    # so ('64: cannot move').  So the line the .mat importer keeps for it reads back the same.
    table = Table(ledger)
    table.play(["setup 4OfgA0DbtgEHAA", "opening 3 1", "move 13/9"])
    before = len(ledger.events("m"))
    with pytest.raises(BgLedgerError, match="illegal play 'bar/21' of 6-4"):
        table("64: bar/21")
    assert len(ledger.events("m")) == before  # nothing, the roll neither
    table("64: bar/21 --as-played")
    rolled, played = ledger.events("m")[before:]
    assert (type(rolled).__name__, rolled.said) == ("DiceRolled", "64: bar/21 --as-played")
    assert isinstance(played, ev.CheckersPlayed) and not played.legal and played.said == ""


# -- whose a note is (issue 35): a fact of the entry, kept in its line ----------------------


def test_a_notes_role_is_kept_in_its_line_through_verify_and_a_json_copy(
    ledger: Ledger, tmp_path: Path
) -> None:
    ledger.start(("Ann", "Bob"), 5, match_id="m", by=BY, event="Open")
    director = ledger.authorize(ledger.issue_token("director", event="Open", label="Dee"), "m")
    committee = ledger.authorize(ledger.issue_token("committee", label="Cat"), "m")
    ledger.record_line("m", "note players warned about slow play", by="Dee", grant=director)
    ledger.record_line("m", "note the appeal was heard", by="Cat", grant=committee)
    ledger.record_line("m", "note --as director Bob asked for a break", by=BY)  # the operator's
    ledger.record_line("m", "note the lights went out", by=BY)  # no one's
    said = [
        "the director's note: players warned about slow play",
        "the committee's note: the appeal was heard",
        "the director's note: Bob asked for a break",
        "note for the record: the lights went out",
    ]
    assert [e.text for e in ledger.history("m")[1:]] == said
    assert all(verdict.ok for verdict in ledger.verify("m"))
    copy = round_trip(ledger, "m", tmp_path / "copy")
    same_match(ledger, copy, "m")
    assert [e.text for e in copy.history("m")[1:5]] == said
    assert [e.role for e in copy.events("m")[1:5]] == ["director", "committee", "director", ""]
    assert all(verdict.ok for verdict in copy.verify("m"))
    copy.close()


def test_a_note_stored_before_roles_were_kept_reads_verifies_and_copies_as_before(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    old = Ledger(f"sqlite:///{path}")
    old.start(("Ann", "Bob"), 5, match_id="m", by=BY)
    old.record_line("m", "note director called about the dice", by=BY)
    head = old.state("m").head
    old.close()
    rows = _rows(path)
    for _, data in rows:  # as bgledger wrote a note before it kept whose it was
        if "text" in data:
            assert data.pop("role") == ""
            data["class_version"] = 4
    _rewrite(path, rows)
    reopened = Ledger(f"sqlite:///{path}")
    (note,) = reopened.events("m")[1:]
    assert isinstance(note, ev.RemarkRecorded) and note.role == ""
    assert reopened.history("m")[1].text == "note for the record: director called about the dice"
    assert all(verdict.ok for verdict in reopened.verify("m"))
    assert reopened.state("m").head == head  # linked as it was
    copy = round_trip(reopened, "m", tmp_path / "copy")
    assert copy.history("m")[1].text == "note for the record: director called about the dice"
    assert all(verdict.ok for verdict in copy.verify("m"))
    copy.close()
    reopened.close()


def test_a_notes_role_is_one_a_token_is_issued_for() -> None:
    from bgledger.access import ROLES

    assert voc.NOTE_ROLES == ROLES
    assert str(parse("note --as committee the appeal was heard")) == (
        "note --as committee the appeal was heard"
    )
    assert parse("note --as director x").ruler == "director"
    assert parse("note --as scorekeeper x").ruler == ""
    with pytest.raises(BgLedgerError, match="--as 'players': one of scorekeeper, director"):
        parse("note --as players x")
