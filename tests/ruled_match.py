"""Matches with rulings, recorded through ``MatchStore.act`` and ``.rule`` (interchange tests).

:func:`record_ruled_match` has one ruling of each kind; :func:`record_crawford_void`
a void double whose game had won the match, won again without it.  The event
numbers are listed by hand in each docstring; the tests' expectations are
worked out from those stories.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from bgledger.commands.match import Match
from bgledger.commands.rulings import Ruling
from bgledger.commands.vocabulary import parse
from bgledger.events import MatchEvent
from bgledger.store.application import MatchStore

__all__ = ["RULED_START", "RULINGS_AT", "record_crawford_void", "record_ruled_match"]

RULED_START = "2026-11-21T10:00:00+00:00"


def record_ruled_match(
    ledger: MatchStore, match_id: str = "m", event: str | None = None
) -> list[MatchEvent]:
    """A 3-point match (usbgf-2016) with one ruling of each kind, through ``MatchStore.rule``.

    The events by number, worked out by hand (each action at the next minute from 10:01):

    - game 1: 2-3 Ann opens 3-1 (8/5 6/5), 5 Bob rolls 6-4, 6 plays 24/18 13/8 (illegal),
      **7 PlaysReverted** (voids 6), 8 Bob 24/18 13/9, 9 Ann doubles to 4 (illegal:
      wrong level), 10 Bob takes, **11 CubeLevelCorrected** (the cube stands at 2),
      **12 RulingNoted**, 13-14 Ann 52: 13/11 13/8, 15-16 Bob concedes (--as-played),
      17 GameWon: Ann 2 (cube 2);
    - game 2, the Crawford game: 18-19 Bob opens 3-1, 20 8/5 6/5, 21-22 Ann 52: 13/11
      13/8, 23 Bob doubles (illegal: Crawford), 24 Ann takes, 25-26 Ann concedes, 27
      GameWon: Bob 2 as recorded, **28 CubeActionVoided** (voids 23, 24): Bob 1, 2-1;
    - between games: **29 MatchLengthCorrected** to 5, **30 ScoreCorrected** to 2-2,
      **31 RulingOverturned** (the committee: voids 30, the score is 2-1 again);
    - game 3: 32-33 Ann opens 3-1, 34 8/5 6/5, 35 Bob doubles to 2, 36 Ann takes, 37-38
      Bob 64: 24/18 13/9, 39-40 Ann 52: 13/11 13/8, 41 Bob doubles to 4 (illegal: Ann's
      cube), 42 Ann drops, 43 GameWon: Bob 2, **44 CrawfordPassNullified** (voids 41-43),
      45-46 Bob 65: 24/13, 47-48 Ann concedes, 49 GameWon: Bob 2 (2-3 of 5);
    - **50 MatchLengthCorrected** to 3, and 51 MatchWon (Bob 3-2) recorded with it.
    """
    minutes = iter(range(1, 200))

    def at() -> str:
        minute = next(minutes)
        return f"2026-11-21T{10 + minute // 60:02d}:{minute % 60:02d}:00+00:00"

    def play(lines: str) -> None:
        for line in lines.split(";"):
            ledger.act(match_id, partial(parse(f"@{at()} {line}").run, by="kim"))

    def rule(decide: Callable[..., None], *args: Any, reason: str, **given: Any) -> None:
        ruling = Ruling(given.pop("ruled_by", "director"), reason, by="tom", at=at(), **given)
        ledger.rule(match_id, lambda match, history: decide(match, history, *args, ruling))

    where = {"event": event} if event else {}  # a match of an event (published: anyone's)
    ledger.start(("Ann", "Bob"), 3, match_id=match_id, by="kim", at=RULED_START, **where)
    play("opening 3 1; move 8/5 6/5; roll 6 4; move 24/18 13/8 --as-played")
    rule(Match.revert, 6, reason="Bob played a 5 with 6-4")
    play("move 24/18 13/9")
    ledger.act(match_id, lambda m: m.double(to=4, as_played=True, by="kim", at=at()))
    play("take")
    rule(Match.correct_cube, 9, reason="the cube goes to 2")
    rule(Match.note, reason="players reminded to announce doubles")
    play("52: 13/11 13/8; resign single --as-played; accept")
    play("opening 1 3; move 8/5 6/5; 52: 13/11 13/8; double --as-played; take")
    play("resign single a --as-played; accept")
    rule(Match.void_cube, 23, reason="a Crawford game double")
    rule(Match.correct_length, 5, reason="the draw sheet says 5")
    rule(Match.correct_score, (2, 2), reason="Bob says 2-2")
    rule(Match.overturn, 30, ruled_by="committee", reason="the score was 2-1")
    play("opening 3 1; move 8/5 6/5; double; take; 64: 24/18 13/9; 52: 13/11 13/8")
    play("double --as-played; drop")
    rule(Match.nullify_pass, 41, reason="Ann owned the cube")
    play("65: 24/13; resign single --as-played; accept")
    rule(Match.correct_length, 3, reason="it was 3 after all")
    return ledger.history(match_id)


def record_crawford_void(ledger: MatchStore, match_id: str = "cv") -> list[MatchEvent]:
    """A 2-point match whose Crawford game a void double had won, and won again without it.

    Game 1: 2-3 Ann opens 5-3, 4 13/10 8/3, 5 Bob doubles, 6 Ann drops, 7 GameWon: Bob 1.
    Game 2, the Crawford game: 8-9 Bob opens 3-1, 10 24/23 13/10, 11-12 Ann 31: 8/5 6/5,
    13 Bob doubles (illegal), 14 Ann takes, 15-16 Ann concedes on Bob's turn, 17 GameWon:
    Bob 2, 18 MatchWon 0-3; 19 CubeActionVoided (voids 13, 14, 18): Bob 1, and 20 MatchWon
    0-2 recorded with it.
    """
    ledger.start(("Ann", "Bob"), 2, match_id=match_id, by="kim", at=RULED_START)
    for line in CRAWFORD_VOID.split(";"):
        ledger.act(match_id, partial(parse(line).run, by="kim"))
    ruling = Ruling("director", "no double in the Crawford game", by="tom")
    ledger.rule(match_id, lambda match, history: match.void_cube(history, 13, ruling))
    return ledger.history(match_id)


CRAWFORD_VOID = (
    "opening 5 3; move 13/10 8/3; double; drop; opening 1 3; move 24/23 13/10; 31: 8/5 6/5; "
    "double --as-played; take; resign single a --as-played; accept"
)

RULINGS_AT = {
    7: "PlaysReverted",
    11: "CubeLevelCorrected",
    12: "RulingNoted",
    28: "CubeActionVoided",
    29: "MatchLengthCorrected",
    30: "ScoreCorrected",
    31: "RulingOverturned",
    44: "CrawfordPassNullified",
    50: "MatchLengthCorrected",
}
