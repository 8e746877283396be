"""The score sheet a player keeps under USBGF 4.7, for the terminal and for print.

USBGF 4.7: both players keep a running written score of the match, update it
after each game, agree on it before the next, and announce the Crawford game.
The sheet is made from the folded :class:`~bgledger.projections.state.fold.MatchState` (the
games, the score, the Crawford status) and the match's events (when each game
ended): a header (event, round, table, players, length, profile, date), one
row per finished game (the score before it, the winner, the points and how
they were won, the running score after it, the Crawford game marked) and the
final line.

The sheet shows the match as corrected (:mod:`bgledger.projections.state.corrected`): the
state given is the corrected one, and only the events in force count, so a
game result a ruling voided is not there and a game whose double was voided
scores at the cube in force.  The rulings have a section of their own: each
one's event number, what it did, the rule, who ruled and why, a ruling
overturned on appeal (USBGF 5.2) or voided by a later one marked so.
Penalty points (USBGF 2.2.4) and breaks (USBGF 2.2.2: the wall clock time, the
game clock times and who asked) have their own sections, which say "none
recorded" when there are none; the header gives the game clock's setting, and
the final line says when a match was won on time (USBGF 4.3.3) or by penalty
points, and how many penalty points its score includes.

Example::

    >>> from bgledger.commands.match import Match, match_uuid
    >>> match = Match.start(match_uuid("f"), "f", ("Ann", "Bob"), 1, by="kim",
    ...                     at="2026-11-21T10:00:00+00:00")
    >>> match.opening(3, 1, by="kim", at="2026-11-21T10:01:00+00:00")
    >>> match.resign("single", player="b", as_played=True, by="kim",
    ...              at="2026-11-21T10:02:00+00:00")
    >>> match.accept(by="kim", at="2026-11-21T10:02:00+00:00")
    >>> sheet = score_sheet(match.state, match.collect_events())
    >>> sheet.rows[0].how, sheet.final
    ('resigned, single, cube 1', 'Final: Ann 1, Bob 0: Ann wins the match')

The clock, breaks and penalty points: USBGF 2.2.2: for each break, the score
sheet shows the wall clock time, the game clock times and who asked for it;
USBGF 2.2.4: penalty points for lateness are scored by the opponent. From the
match's events:

- :func:`clock_setting`: the clock the match was played with (its mode, delay
  and reserves, and the game it came in if it came in late, USBGF 3.5.6);
- :func:`break_rows`: every break: when it began (wall clock), both game
  clocks then, who asked, its length, when it ended, how many minutes over
  and who was late back;
- :func:`penalty_rows`: every penalty-point assessment: when, against whom,
  how many points, the rule, the reason and who ruled;
- :func:`match_ending`: how a match was won if not by its games (on time,
  USBGF 4.3.3, or by penalty points, USBGF 2.2.4), for the final line.

These events are never voided by a ruling (:mod:`bgledger.events`), so
every one recorded is listed.

The rulings section lists every ruling of the match, in order: its event
number, what it did, the rule it applied, who ruled and why. A ruling an
appeal committee overturned (USBGF 5.2) is marked ``overturned``, one a later
ruling voided (a ruling recorded after an illegal play that was then taken
back) ``voided``, each with the number of the ruling that did it
(:func:`~bgledger.projections.views.words.ruling_status`)."""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from bgledger.events import (
    BreakEnded,
    BreakStarted,
    ClockRestored,
    ClockStarted,
    ConcessionVoided,
    CrawfordPassNullified,
    CubeActionVoided,
    CubeDropped,
    CubeLevelCorrected,
    EntryCorrected,
    GameStarted,
    GameWon,
    MatchEvent,
    MatchLengthCorrected,
    MatchWon,
    PenaltyPointsAssessed,
    PlaysReverted,
    RulingMade,
    RulingNoted,
    RulingOverturned,
    ScoreCorrected,
)
from bgledger.projections.state.clock import clock_text
from bgledger.projections.state.corrected import in_force, voided_by
from bgledger.projections.state.fold import Crawford, GameRecord
from bgledger.projections.state.model import MatchState
from bgledger.projections.state.situation import score_text
from bgledger.projections.views.audit import ending, history, match_zone, mode_text, wall_clock
from bgledger.projections.views.words import points_of, rule_for, ruling_status
from bgledger.rules.profiles import DEFAULT_PROFILE, Decision

__all__ = [
    "BREAK_COLUMNS",
    "PENALTY_COLUMNS",
    "RULING_COLUMNS",
    "BreakRow",
    "PenaltyRow",
    "RulingRow",
    "ScoreSheet",
    "SheetRow",
    "aligned",
    "break_rows",
    "clock_setting",
    "final_line",
    "match_ending",
    "penalty_rows",
    "ruling_log",
    "ruling_rows",
    "ruling_what",
    "score_sheet",
    "scoresheet_html",
    "scoresheet_text",
]


# -- rulings -------------------------------------------------------------------------------


RULING_COLUMNS = ("Event", "Ruling", "Rule", "Ruled by", "Reason", "Status")


@dataclass(frozen=True, slots=True)
class RulingRow:
    """One ruling as the sheet lists it.

    :ivar number: the ruling's event number.
    :ivar what: what it did (``'play reverted (event 6)'``, ``'score Ann 2, Bob 1'`` ...).
    :ivar rule: the rule it applied; ``ruled_by`` who ruled (director, committee, players).
    :ivar status: ``'in force'``, ``'overturned by ruling 31'`` for one
        an appeal reversed, ``'voided by ruling 44'`` for one a later ruling voided.
    """

    number: int
    what: str
    rule: str
    ruled_by: str
    reason: str
    status: str

    def cells(self) -> tuple[str, ...]:
        """The row's cells in :data:`RULING_COLUMNS` order."""
        return (str(self.number), self.what, self.rule, self.ruled_by, self.reason, self.status)


_WHAT: dict[str, Callable[[Mapping[str, Any], tuple[str, str]], str]] = {
    PlaysReverted.__name__: lambda f, _: f"play reverted (event {f['event']})",
    CubeActionVoided.__name__: lambda f, _: f"double voided (event {f['event']})",
    CrawfordPassNullified.__name__: lambda f, _: f"pass nullified (event {f['event']})",
    ConcessionVoided.__name__: lambda f, _: f"concession voided (event {f['event']})",
    ClockRestored.__name__: lambda f, _: f"clock put back as at event {f['event']}",
    CubeLevelCorrected.__name__: lambda f, _: f"double stands at {f['value']} (event {f['event']})",
    MatchLengthCorrected.__name__: lambda f, _: f"match length {f['length']}",
    ScoreCorrected.__name__: lambda f, p: f"score {p[0]} {f['score_a']}, {p[1]} {f['score_b']}",
    RulingOverturned.__name__: lambda f, _: f"ruling {f['ruling']} overturned",
    RulingNoted.__name__: lambda f, _: "noted",
}


def ruling_what(kind: str, fields: Mapping[str, Any], players: tuple[str, str]) -> str:
    """What a ruling of ``kind`` (its class name) with ``fields`` did, in words; '' if unknown.

    ``'play reverted (event 6)'``, ``'score Ann 2, Bob 1'`` (``players``' names, a first) ...
    """
    what = _WHAT.get(kind)
    return "" if what is None else what(fields, players)


def ruling_log(
    rows: Sequence[Mapping[str, Any]], players: Mapping[str, tuple[str, str]]
) -> list[dict[str, Any]]:
    """The rulings log's rows (``Ledger.rulings``), each with ``what`` it did and ``status``.

    ``players`` names each match's players (a, b) by match id; ``status`` is
    :func:`~bgledger.projections.views.words.ruling_status`: in force, or voided or overturned
    (an appeal against it, USBGF 5.2) by a later ruling.  The command line's ``rulings``
    and the director's console both read it.
    """
    overturns = {(row["match_id"], row["number"]): row["overturns"] for row in rows}
    logged = []
    for row in rows:
        voider = row["voided_by"]
        appealed = voider is not None and overturns.get((row["match_id"], voider)) == row["number"]
        names = players.get(row["match_id"], ("a", "b"))
        what = ruling_what(row["kind"], json.loads(row["details"]), names)
        logged.append({**row, "what": what, "status": ruling_status(voider, appealed)})
    return logged


def _what(event: RulingMade, players: tuple[str, str]) -> str:
    kind = type(event).__name__
    return ruling_what(kind, vars(event), players) or kind


def _status(number: int, voided: dict[int, int], events: dict[int, MatchEvent]) -> str:
    voider = voided.get(number)
    if voider is None:
        return ruling_status(None, False)  # in force, said as such
    appeal = events.get(voider)
    return ruling_status(voider, isinstance(appeal, RulingOverturned) and appeal.ruling == number)


def ruling_rows(
    events: Sequence[MatchEvent], players: tuple[str, str] = ("a", "b")
) -> tuple[RulingRow, ...]:
    """Every ruling in ``events``, in order, those out of force marked.

    A score a ruling sets is given with ``players``' names, player a first.
    """
    voided = voided_by(events)
    numbered = {e.originator_version: e for e in events}
    return tuple(
        RulingRow(
            e.originator_version,
            _what(e, players),
            e.rule,
            e.ruled_by,
            e.reason,
            _status(e.originator_version, voided, numbered),
        )
        for e in events
        if isinstance(e, RulingMade)
    )


# -- the clock, breaks and penalty points --------------------------------------------------


PENALTY_COLUMNS = ("Time", "Player", "Points", "Rule", "Reason", "Ruled by")
BREAK_COLUMNS = (
    "Wall clock", "Game clocks", "Requested by", "Length", "Ended", "Over", "Late", "Note",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class PenaltyRow:
    """One assessment of penalty points, as the sheet lists it.

    :ivar time: the wall clock time it was assessed (``'10:32'``).
    :ivar player: the name of the player the points are against (his opponent scores them).
    """

    time: str
    player: str
    points: int
    rule: str
    reason: str
    ruled_by: str

    def cells(self) -> tuple[str, ...]:
        """The row's cells in :data:`PENALTY_COLUMNS` order."""
        return (self.time, self.player, str(self.points), self.rule, self.reason, self.ruled_by)


@dataclass(frozen=True, slots=True)
class BreakRow:
    """One break, as USBGF 2.2.2 wants it on the sheet.

    :ivar start: the wall clock time it began (``'10:10'``).
    :ivar clocks: both game clocks then (``'Ann 9:24, Bob 9:29'``), ``'no clock'`` without one.
    :ivar requested: who asked for it (``'Bob'``, ``'Ann and Bob'``).
    :ivar length: its allowance (``'5 min'``, ``'10 min (2 combined)'``).
    :ivar ended: the wall clock time it ended, '' while it is on.
    :ivar over: minutes past the allowance (``'17 min'``), '' if none.
    :ivar late: who was late back, '' if nobody.
    :ivar note: a break during a game and why, or the director's exception (USBGF 2.2.3).
    """

    start: str
    clocks: str
    requested: str
    length: str
    ended: str = ""
    over: str = ""
    late: str = ""
    note: str = ""

    def cells(self) -> tuple[str, ...]:
        """The row's cells in :data:`BREAK_COLUMNS` order."""
        return (
            self.start, self.clocks, self.requested, self.length,
            self.ended, self.over, self.late, self.note,
        )  # fmt: skip


CORRECTIONS = "Recording errors corrected (not rulings)"
CORRECTION_COLUMNS = ("Event", "Time", "Corrected by", "What")


@dataclass(frozen=True, slots=True)
class CorrectionRow:
    """A scorekeeper's correction of a recording error (``undo``, ``amend``): apart from rulings.

    :ivar what: the history's words: the entry as it was made, and what happened instead.
    """

    event: int
    time: str
    by: str
    what: str

    def cells(self) -> tuple[str, ...]:
        """The row's cells in :data:`CORRECTION_COLUMNS` order."""
        return (str(self.event), self.time, self.by, self.what)


def correction_rows(events: Sequence[MatchEvent]) -> tuple[CorrectionRow, ...]:
    """Every correction of a recording error among ``events``, in order, in the history's words."""
    if not any(isinstance(e, EntryCorrected) for e in events):
        return ()
    return tuple(
        CorrectionRow(
            entry.number, wall_clock(entry.at, zone=entry.zone), entry.recorded_by, entry.text
        )
        for entry in history(events)
        if entry.correction is not None
    )


def penalty_rows(events: Sequence[MatchEvent], state: MatchState) -> tuple[PenaltyRow, ...]:
    """Every :class:`PenaltyPointsAssessed` of ``events``, in order; names from ``state``."""
    zone = match_zone(state.started_at)
    return tuple(
        PenaltyRow(
            wall_clock(e.at, zone=zone),
            state.name(e.player),
            e.points,
            e.rule,
            e.reason,
            e.ruled_by,
        )
        for e in events
        if isinstance(e, PenaltyPointsAssessed)
    )


def _opened(event: BreakStarted, state: MatchState, game: int) -> BreakRow:
    clocks = "no clock"
    if event.reserve_a_ms is not None and event.reserve_b_ms is not None:
        (a, b), ms = state.players, (event.reserve_a_ms, event.reserve_b_ms)
        clocks = f"{a} {clock_text(ms[0])}, {b} {clock_text(ms[1])}"
    combined = f" ({event.breaks} combined)" if event.breaks > 1 else ""
    notes = [f"during game {game}: {event.exceptional}"] if event.during_game else []
    if event.exception:
        notes.append(f"exception ({rule_for(state.profile, Decision.BREAK_EXCEPTION)}): "
                     f"{event.exception}")  # fmt: skip
    return BreakRow(
        wall_clock(event.at, zone=match_zone(state.started_at)),
        clocks,
        " and ".join(state.name(p) for p in event.players),
        f"{event.minutes} min{combined}",
        note="; ".join(notes),
    )


def _closed(row: BreakRow, event: BreakEnded, state: MatchState) -> BreakRow:
    over = f"{event.minutes_over} min" if event.minutes_over > 0 else ""
    late = state.name(event.late) if event.late else ""
    ended = wall_clock(event.at, zone=match_zone(state.started_at))
    return replace(row, ended=ended, over=over, late=late)


def break_rows(events: Sequence[MatchEvent], state: MatchState) -> tuple[BreakRow, ...]:
    """Every break of ``events``, in order, each with its end if it has ended."""
    rows: list[BreakRow] = []
    game, on = 0, False
    for event in events:
        if isinstance(event, GameStarted):
            game = event.number
        elif isinstance(event, BreakStarted):
            rows.append(_opened(event, state, game))
            on = True
        elif isinstance(event, BreakEnded) and on:
            rows[-1], on = _closed(rows[-1], event, state), False
    return tuple(rows)


def clock_setting(events: Sequence[MatchEvent], state: MatchState) -> str:
    """The game clock: ``'simple delay (USBGF 3.5.5), 12 s delay, 10:00 each'``; '' if none.

    A clock brought in after the first game began says from which game on.
    """
    started = won = 0
    for event in events:
        if isinstance(event, GameStarted):
            started += 1
        elif isinstance(event, GameWon):
            won += 1
        elif isinstance(event, ClockStarted):
            a, b = event.reserve_a_ms, event.reserve_b_ms
            reserves = f"{clock_text(a)} each" if a == b else f"{clock_text(a)}/{clock_text(b)}"
            text = (
                f"{mode_text(event.mode)} ({event.rule}), {event.delay_ms / 1000:g} s delay, "
                f"{reserves}"
            )
            if started and won == started:
                return f"{text}, from game {started + 1}"
            return f"{text}, during game {started}" if started else text
    if state.timer is None:
        return ""
    return f"{mode_text(state.timer.mode)}, {state.timer.delay_ms / 1000:g} s delay"


def match_ending(events: Sequence[MatchEvent], state: MatchState) -> str:
    """How ``state``'s match was won if not by its games, and the penalty points in its score.

    ``' on time: Ann's reserve expired (USBGF 4.3.3)'`` or ``' by forfeit: Bob's penalty
    points (USBGF 2.2.4)'``, then ``'; the score includes 3 penalty points against Bob'``;
    '' for a match won by its games without penalty points, or not won.
    """
    if state.winner is None:
        return ""
    found = [i for i, e in enumerate(events) if isinstance(e, MatchWon)]
    how = ending(events[found[-1] - 1], state) if found and found[-1] > 0 else ""
    against = [
        (state.name(p), points) for p, points in zip("ab", state.penalties, strict=True) if points
    ]
    if len(against) == 1:
        name, points = against[0]
        how += f"; the score includes {points_of(points, 'penalty point')} against {name}"
    elif against:
        listed = ", ".join(f"{points} against {name}" for name, points in against)
        how += f"; the score includes penalty points: {listed}"
    return how


# -- the sheet -----------------------------------------------------------------------------


NONE_RECORDED = "none recorded"
RULINGS = "Rulings"
COLUMNS = (
    "Game",
    "Score before",
    "Winner",
    "Points",
    "How won",
    "Score after",
    "Ended",
    "Crawford",
)
TRANSCRIBED = "File"
"""The key of ``MatchStarted.meta`` naming the file a match was imported from."""


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One finished game as the sheet shows it.

    :ivar before: the score (a, b) before the game; ``after`` the running score after it.
    :ivar how: ``'single, cube 2'``, ``'doubled to 4, passed'`` (a pass of the double
        offered at 4: the game scores the cube before it, 2), ``'resigned, gammon, cube 1'``
        (a concession).
    :ivar ended: the wall clock time the game ended (``'14:05'``); blank for a match
        imported from a transcription, whose events carry no time of play.
    """

    game: int
    before: tuple[int, int]
    winner: str
    points: int
    how: str
    after: tuple[int, int]
    crawford: bool
    ended: str

    def cells(self) -> tuple[str, ...]:
        """The row's cells in :data:`COLUMNS` order."""
        return (
            str(self.game),
            _pair(self.before),
            self.winner,
            str(self.points),
            self.how,
            _pair(self.after),
            self.ended,
            "Crawford" if self.crawford else "",
        )


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A match's score sheet: ``header`` (label, value) pairs, the rows, the final line, rulings,
    penalty points and breaks."""

    players: tuple[str, str]
    header: tuple[tuple[str, str], ...]
    rows: tuple[SheetRow, ...]
    final: str
    rulings: tuple[RulingRow, ...] = ()
    corrections: tuple[CorrectionRow, ...] = ()
    penalties: tuple[PenaltyRow, ...] = ()
    breaks: tuple[BreakRow, ...] = ()
    profile: str = DEFAULT_PROFILE

    def rule(self, decision: Decision) -> str:
        """The rule the match's profile takes ``decision`` under (``'USBGF 4.7'``)."""
        return rule_for(self.profile, decision)


def _pair(score: tuple[int, int]) -> str:
    return f"{score[0]}-{score[1]}"


def _parsed(at: str) -> datetime | None:
    try:
        return datetime.fromisoformat(at) if at else None
    except ValueError:
        return None


def _how(game: GameRecord, offered: int | None) -> str:
    if game.how == "drop":
        return f"doubled to {offered}, passed" if offered else f"passed at cube {game.cube}"
    said = f"{game.result}, cube {game.cube}"
    return f"resigned, {said}" if game.how == "resign" else said


def _row(
    state: MatchState, game: GameRecord, ended: dict[int, str], offered: int | None
) -> SheetRow:
    won = (game.points, 0) if game.winner == "a" else (0, game.points)
    before = (game.score[0] - won[0], game.score[1] - won[1])
    clock = wall_clock(ended.get(game.number, ""), zone=match_zone(state.started_at))
    name = state.name(game.winner)
    how = _how(game, offered)
    return SheetRow(game.number, before, name, game.points, how, game.score, game.crawford, clock)


def _offers(events: Iterable[MatchEvent]) -> dict[int, int]:
    """The cube each game won by a pass was offered at: game number -> the double's value."""
    offers: dict[int, int] = {}
    passed: int | None = None
    for event in events:
        if isinstance(event, CubeDropped):
            passed = event.value
        elif isinstance(event, GameWon):
            if event.how == "drop" and passed is not None:
                offers[event.number] = passed
            passed = None
    return offers


def _transcribed(state: MatchState) -> str:
    """The file ``state``'s match was imported from, '' if it was recorded here."""
    return dict(state.meta).get(TRANSCRIBED, "")


def _when_played(state: MatchState) -> tuple[str, str]:
    """The date and the starting time of the match, each '' where the record does not say.

    A transcription's events all carry the time its header gives
    (``EventDate``, ``EventTime``), or the time of the import without them:
    the sheet shows only what the header said.
    """
    started = _parsed(state.started_at)
    if started is None:
        return "", ""
    day, clock = started.date().isoformat(), f"{started:%H:%M} {started.tzname() or ''}".strip()
    if not _transcribed(state):
        return day, clock
    tags = dict(state.meta)  # a file's time of day has no zone: none is shown
    return (day if tags.get("EventDate") else ""), (
        f"{started:%H:%M}" if tags.get("EventTime") else ""
    )


def _header(state: MatchState, clock_set: str) -> tuple[tuple[str, str], ...]:
    day, clock = _when_played(state)
    rule = "Crawford rule" if state.crawford_rule else "no Crawford rule"
    kind = "" if state.clock == "none" else f", {state.clock} clock"
    source = _transcribed(state)
    header = (
        ("Event", state.event),
        ("Round", state.round),
        ("Table", state.table),
        ("Players", f"{state.players[0]} v {state.players[1]}"),
        ("Match", f"{points_of(state.length)}, {rule}{kind}"),
        ("Clock", clock_set),
        ("Profile", state.profile),
        ("Date", day),
        ("Started", clock),
        ("Match id", state.match_id),
    )
    if not source:  # a match recorded here: no line to fill in by hand
        return header
    return (*header, ("Transcribed from", f"{source} (the file gives no time for each game)"))


def final_line(state: MatchState, how: str = "") -> str:
    """``'Final: Ann 3, Bob 2: Ann wins the match'``, or where an unfinished match stands.

    The score is player a's first, as everywhere; ``how`` follows the winner:
    how the match was won if not by its games (:func:`match_ending`).
    """
    if state.winner is not None:
        return f"Final: {score_text(state)}: {state.name(state.winner)} wins the match{how}"
    parts = [f"game {state.game if state.in_game else state.game + 1}"]
    if state.crawford_rule and state.crawford is Crawford.CRAWFORD:
        parts.append("the Crawford game")
    if not state.in_game:
        parts.append("not begun")
    return f"In progress: {', '.join(parts)}; {score_text(state)}"


def score_sheet(state: MatchState, events: Iterable[MatchEvent] = ()) -> ScoreSheet:
    """The sheet of ``state``, the match as corrected; ``events`` are the match's (any prefix).

    The events in force (:func:`bgledger.projections.state.corrected.in_force`) give when each
    game ended, the clock's setting, the breaks, the penalty points and how the
    match was won; every ruling among ``events`` is listed (:func:`ruling_rows`).
    """
    recorded = list(events)
    kept = in_force(recorded)
    timed = not _transcribed(state)
    ended = {e.number: e.at for e in kept if isinstance(e, GameWon) and timed}
    offers = _offers(kept)
    rows = tuple(_row(state, game, ended, offers.get(game.number)) for game in state.games)
    header = _header(state, clock_setting(kept, state))
    final = final_line(state, match_ending(kept, state))
    return ScoreSheet(
        state.players, header, rows, final, ruling_rows(recorded, state.players),
        correction_rows(recorded), penalty_rows(kept, state), break_rows(kept, state),
        state.profile,
    )  # fmt: skip


# -- text ---------------------------------------------------------------------------------------


def aligned(rows: Sequence[Sequence[str]], numeric: Collection[int] = ()) -> list[str]:
    """``rows`` (the first the column labels) as lines of aligned columns, two spaces apart.

    The columns whose index is in ``numeric`` are right-aligned.
    """
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(width) if i in numeric else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


Receipt = Sequence[tuple[str, str]]
"""A receipt's printed lines, label and value, its code last (``Code``: what its QR holds;
:func:`bgledger.store.receipt.receipt_lines`); none when the match was never sealed."""
RECEIPT_TITLE = "Receipt"
RECEIPT_NOTE = (
    "The director's seal of this result: anyone can check it against the ledger or a copy "
    "of the match (bgledger verify --receipt)."
)


def scoresheet_text(
    state: MatchState, events: Iterable[MatchEvent] = (), receipt: Receipt = ()
) -> str:
    """The score sheet for the terminal (``export --format scoresheet``), with its ``receipt``."""
    sheet = score_sheet(state, events)
    lines = [f"Score sheet ({sheet.rule(Decision.SCORE)})", ""]
    lines += [f"{label}: {value}" for label, value in sheet.header if value]
    lines.append("")
    if sheet.rows:
        lines.append(f"Scores are {sheet.players[0]}-{sheet.players[1]}.")
        lines += aligned([COLUMNS, *(row.cells() for row in sheet.rows)], frozenset({0, 3}))
    else:
        lines.append("No game finished yet.")
    lines += ["", sheet.final, ""]
    for title, columns, rows, numeric in _sections(sheet):
        lines += _section_text(title, columns, rows, numeric)
    lines += [f"{label}: {SIGN}" for label in signature_lines(sheet)]
    if receipt:
        lines += ["", RECEIPT_TITLE, RECEIPT_NOTE]
        lines += [f"{label}: {value}" for label, value in receipt]
    return "\n".join(lines) + "\n"


SIGN = "_" * 30


def signature_lines(sheet: ScoreSheet) -> tuple[str, ...]:
    """What is signed at the foot of the sheet: each player's agreement to the score
    (USBGF 4.7: the players agree on it), and the Tournament Director, to whom the
    result is reported (USBGF 4.6)."""
    agreed = sheet.rule(Decision.SCORE)
    return (
        f"Score agreed ({agreed}), {sheet.players[0]}",
        f"Score agreed ({agreed}), {sheet.players[1]}",
        f"Result received ({sheet.rule(Decision.RESULT)}), Tournament Director",
    )


_Section = tuple[str, tuple[str, ...], list[tuple[str, ...]], frozenset[int]]


def _sections(sheet: ScoreSheet) -> list[_Section]:
    """The rulings, recording errors corrected, penalty points and breaks: title, columns,
    rows, numeric columns."""
    corrections: list[_Section] = [
        (
            CORRECTIONS,
            CORRECTION_COLUMNS,
            [row.cells() for row in sheet.corrections],
            frozenset({0}),
        )
    ]
    return [
        (RULINGS, RULING_COLUMNS, [row.cells() for row in sheet.rulings], frozenset({0})),
        *(corrections if sheet.corrections else []),  # a sheet without any has no such section
        (
            f"Penalty points ({sheet.rule(Decision.PENALTY_POINTS)})",
            PENALTY_COLUMNS,
            [row.cells() for row in sheet.penalties],
            frozenset({2}),
        ),
        (
            f"Breaks ({sheet.rule(Decision.BREAK)})",
            BREAK_COLUMNS,
            [row.cells() for row in sheet.breaks],
            frozenset(),
        ),
    ]


def _section_text(
    title: str, columns: tuple[str, ...], rows: list[tuple[str, ...]], numeric: frozenset[int]
) -> list[str]:
    if not rows:
        return [f"{title}: {NONE_RECORDED}", ""]
    return [f"{title}:", *aligned([columns, *rows], numeric), ""]


# -- HTML ---------------------------------------------------------------------------------------

_CSS = """
body { font-family: "Helvetica Neue", Arial, sans-serif; color: #111; margin: 2rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .25rem; }
p.rule { margin: 0 0 1rem; color: #444; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
dt { font-weight: bold; }
dd { margin: 0; min-width: 12rem; border-bottom: 1px dotted #999; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #777; padding: .3rem .6rem; text-align: left; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
tr.crawford td { font-weight: bold; background: #eee; }
td.none, p.none { font-style: italic; color: #555; }
tr.void td { color: #666; }
p.final { font-size: 1.15rem; font-weight: bold; }
div.signatures { margin-top: 2.5rem; max-width: 48rem; display: grid; gap: 1.6rem .6rem;
  grid-template-columns: max-content 1fr max-content 8rem; align-items: end; }
div.signatures p { display: contents; }
div.signatures span.line, div.signatures span.when { border-bottom: 1px solid #111; height: 1.2em; }
section.receipt { margin-top: 2rem; max-width: 48rem; page-break-inside: avoid; }
section.receipt div.qr svg { width: 12rem; height: auto; }
section.receipt dd code { overflow-wrap: anywhere; font-size: .8rem; }
@media screen and (max-width: 40rem) {
  body { margin: 1rem; }
  table { display: block; max-width: 100%; overflow-x: auto; }
  dl { grid-template-columns: max-content minmax(0, 1fr); }
  div.signatures { grid-template-columns: minmax(0, 1.4fr) minmax(0, 1fr); }
  dd { min-width: 0; overflow-wrap: anywhere; }
}
@media print {
  body { margin: 0; font-size: 11pt; }
  @page { margin: 1.5cm; }
  tr.crawford td { background: none; }
  table, dl { page-break-inside: avoid; }
}
"""


def _cells(values: Iterable[str], tag: str, numeric: frozenset[int] = frozenset()) -> str:
    return "".join(
        f'<{tag} class="number">{html.escape(v)}</{tag}>'
        if i in numeric
        else f"<{tag}>{html.escape(v)}</{tag}>"
        for i, v in enumerate(values)
    )


def _games_html(sheet: ScoreSheet) -> list[str]:
    if not sheet.rows:
        return ['<p class="none">No game finished yet.</p>']
    order = html.escape(f"{sheet.players[0]}-{sheet.players[1]}")
    lines = [f'<table class="games"><caption>Scores are {order}.</caption>']
    lines.append(f"<thead><tr>{_cells(COLUMNS, 'th')}</tr></thead><tbody>")
    for row in sheet.rows:
        marked = ' class="crawford"' if row.crawford else ""
        lines.append(f"<tr{marked}>{_cells(row.cells(), 'td', frozenset({0, 3}))}</tr>")
    return [*lines, "</tbody></table>"]


def _rulings_html(sheet: ScoreSheet) -> list[str]:
    lines = [f"<h2>{RULINGS}</h2>"]
    if not sheet.rulings:
        return [*lines, f'<p class="none">{NONE_RECORDED}</p>']
    lines.append(f'<table class="rulings"><thead><tr>{_cells(RULING_COLUMNS, "th")}</tr></thead>')
    lines.append("<tbody>")
    for row in sheet.rulings:
        marked = ' class="void"' if row.status != ruling_status(None, False) else ""
        lines.append(f"<tr{marked}>{_cells(row.cells(), 'td', frozenset({0}))}</tr>")
    return [*lines, "</tbody></table>"]


def _time_html(sheet: ScoreSheet) -> list[str]:
    """The recording errors corrected, the penalty points and the breaks: a table each, "none
    recorded" in it if empty."""
    lines = []
    for title, columns, rows, numeric in _sections(sheet)[1:]:
        lines.append(f"<h2>{html.escape(title)}</h2>")
        lines.append(f"<table><thead><tr>{_cells(columns, 'th')}</tr></thead><tbody>")
        lines += [f"<tr>{_cells(row, 'td', numeric)}</tr>" for row in rows]
        if not rows:
            lines.append(f'<tr><td class="none" colspan="{len(columns)}">{NONE_RECORDED}</td></tr>')
        lines.append("</tbody></table>")
    return lines


def _signatures_html(sheet: ScoreSheet) -> list[str]:
    rows = [
        f'<p><span class="label">{html.escape(label)}</span><span class="line"></span>'
        '<span class="label">time</span><span class="when"></span></p>'
        for label in signature_lines(sheet)
    ]
    return ['<div class="signatures">', *rows, "</div>"]


def _receipt_html(receipt: Receipt) -> list[str]:
    """The receipt: its lines, and its code as a QR code for a phone to keep or check."""
    if not receipt:
        return []
    from bgledger.projections.views.svg import qr_svg

    code = dict(receipt).get("Code", "")
    rows = "".join(
        f"<dt>{html.escape(label)}</dt><dd><code>{html.escape(value)}</code></dd>"
        for label, value in receipt
    )
    return [
        '<section class="receipt">',
        f"<h2>{RECEIPT_TITLE}</h2>",
        f'<p class="rule">{html.escape(RECEIPT_NOTE)}</p>',
        f'<div class="qr">{qr_svg(code, "the receipt")}</div>' if code else "",
        f"<dl>{rows}</dl>",
        "</section>",
    ]


def scoresheet_html(
    state: MatchState, events: Iterable[MatchEvent] = (), receipt: Receipt = ()
) -> str:
    """The score sheet as a standalone, printable HTML page (inline CSS, every string escaped),
    with its ``receipt`` and the receipt's QR code."""
    sheet = score_sheet(state, events)
    a, b = (html.escape(name) for name in sheet.players)
    header = "".join(
        f"<dt>{html.escape(label)}</dt><dd>{html.escape(value)}</dd>"
        for label, value in sheet.header
    )
    body = [
        "<h1>Score sheet</h1>",
        f'<p class="rule">{sheet.rule(Decision.SCORE)}: each player keeps a running score, '
        "updated after each game and agreed before the next; the Crawford game is "
        "announced.</p>",
        f"<dl>{header}</dl>",
        *_games_html(sheet),
        f'<p class="final">{html.escape(sheet.final)}</p>',
        *_rulings_html(sheet),
        *_time_html(sheet),
        *_signatures_html(sheet),
        *_receipt_html(receipt),
    ]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            '<head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>Score sheet: {a} v {b}</title>",
            f"<style>{_CSS}</style></head>",
            "<body>",
            *body,
            "</body></html>",
            "",
        ]
    )
