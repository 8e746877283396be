"""The text view of a match: the board diagram, a one-line summary, the games table, time.

Pure functions from a :class:`~bgledger.projections.state.fold.MatchState` to text; the
command line prints them, and any adapter that shows text may.  The board is
drawn as GNU Backgammon draws its ASCII board, from one player's side: his
checkers are ``X`` and he moves from his 24 point (top right) round to his 1
point (bottom right); the opponent's are ``O``.  Each side's checkers are
counted in its own numbering, so the opponent's point ``p`` is the viewer's
point ``25 - p``.

A point shows up to five checkers; a taller stack shows four and then its
count.  Checkers on the bar are drawn in the bar column (``O`` above, ``X``
below, as gnubg has them) and borne-off checkers are counted beside the board,
so every one of a side's fifteen checkers can be found in the diagram.

The clock's figures the lines are made of (:func:`figures`, :func:`figure`,
:func:`clock_text`, :func:`at_ms`, :data:`REASONS`) and :func:`other` are
re-exported here, so that an adapter writes its own lines from this view.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bgledger.projections.state.breaks import allowance
from bgledger.projections.state.clock import (
    REASONS,
    STOPPED_UNDER,
    ClockState,
    at_ms,
    clock_text,
    figure,
    figures,
    reason_text,
)
from bgledger.projections.state.fold import Crawford, GameRecord, MatchState, Phase, other, seat
from bgledger.projections.state.situation import cube_status, cube_words, now, situation
from bgledger.projections.views.audit import score_text
from bgledger.projections.views.summary import gnubg_match_id, iso_from_ms
from bgledger.projections.views.words import points_of, profile_of, rule_for
from bgledger.rules.position import BAR, OFF
from bgledger.rules.profiles import Decision
from bgledger.rules.text import escaped

__all__ = [
    "REASONS",
    "at_ms",
    "board_diagram",
    "break_lines",
    "brief",
    "clock_line",
    "clock_text",
    "cube_words",
    "drift_text",
    "escaped",
    "figure",
    "figures",
    "figures_text",
    "games_table",
    "may_now",
    "other",
    "reason_text",
    "resolve_viewer",
    "stop_reason",
    "time_lines",
    "time_of_day",
]

_STACK = 5
"""Checkers drawn on a point before the stack shows its count instead."""

_TOP = (range(13, 19), range(19, 25))
_BOTTOM = (range(12, 6, -1), range(6, 0, -1))
_INDENT = "   "

_ACTING = {
    Phase.ROLL: "on roll",
    Phase.REROLL: "to roll again",
    Phase.DOUBLED: "to take or drop",
    Phase.RESIGNED: "to accept or reject",
    Phase.PREMATURE_ROLL: "to accept or refuse the early roll",
}


# -- the board ------------------------------------------------------------------


def board_diagram(state: MatchState, viewer: str | None = None) -> str:
    """The board from ``viewer``'s side, with the score, cube, dice and what happens next.

    ``viewer`` is ``'a'``, ``'b'`` or a player's name; by default ``a``, so
    that the board does not turn round with every turn.

    :raises ValueError: if ``viewer`` is neither a player nor a player's name.
    """
    me = resolve_viewer(state, viewer)
    grid = _grid(state.board[seat(me)], state.board[seat(other(me))])
    panel = _panel(state, me)
    ids = f" Position ID: {state.position.position_id}   Match ID: {gnubg_match_id(state)}"
    beside = [f"{row}{_INDENT}{note}".rstrip() for row, note in zip(grid, panel, strict=True)]
    return "\n".join([ids, *beside, *_footer(state, me)])


def resolve_viewer(state: MatchState, viewer: str | None) -> str:
    """``'a'`` or ``'b'`` for ``viewer``: a player, a player's name, or ``None`` (``a``).

    :raises ValueError: if ``viewer`` is neither a player nor a player's name.
    """
    if viewer is None:
        return "a"
    if viewer in ("a", "b"):
        return viewer
    for player in ("a", "b"):
        if state.name(player).casefold() == viewer.strip().casefold():
            return player
    names = f"{state.players[0]!r} or {state.players[1]!r}"
    raise ValueError(f"viewer {viewer!r}: 'a', 'b', {names}")


def _cell(mine: int, theirs: int, level: int) -> str:
    """One point's (or the bar's) slot at ``level`` (0 at the edge of the board)."""
    stack = "X" * mine + "O" * theirs
    if level == _STACK - 1 and len(stack) > _STACK:
        return f"{len(stack):^3}"
    return f" {stack[level]} " if level < len(stack) else "   "


def _row(mine: Sequence[int], theirs: Sequence[int], top: bool, level: int) -> str:
    halves = _TOP if top else _BOTTOM
    left, right = ("".join(_cell(mine[p], theirs[BAR - p], level) for p in half) for half in halves)
    bar = _cell(0, theirs[BAR], level) if top else _cell(mine[BAR], 0, level)
    return f" |{left}|{bar}|{right}|"


def _numbers(points: tuple[range, range]) -> str:
    left, right = ("".join(f"{p:->2}-" for p in half) for half in points)
    return f" +{left}-----{right}+"


def _grid(mine: Sequence[int], theirs: Sequence[int]) -> list[str]:
    """The 13 lines of the board: numbers, 5 rows, the bar line, 5 rows, numbers."""
    top = [_row(mine, theirs, True, level) for level in range(_STACK)]
    bottom = [_row(mine, theirs, False, level) for level in reversed(range(_STACK))]
    bar = " |" + " " * 18 + "|BAR|" + " " * 18 + "|"
    return [_numbers(_TOP), *top, bar, *bottom, _numbers(_BOTTOM)]


# -- beside and below the board ---------------------------------------------------


def _panel(state: MatchState, me: str) -> list[str]:
    """What is written beside each of the 13 lines of the grid."""
    them = _side(state, other(me), "O")
    mine = _side(state, me, "X")
    return [*them, "", "", _centre(state), "", "", *reversed(mine)]


def _side(state: MatchState, player: str, symbol: str) -> list[str]:
    """Beside the player's half, outward in: his name and score, pips, the cube, his turn."""
    index = seat(player)
    owns = state.cube_owner == player and state.in_game and not _crawford_game(state)
    return [
        f"{symbol}: {state.name(player)}, {state.score[index]} of {state.length}",
        f"pips {state.pips()[index]}, off {state.board[index][OFF]}",
        f"cube {state.cube}" if owns else "",
        _acting(state, player),
    ]


def _acting(state: MatchState, player: str) -> str:
    if state.actor != player:
        return ""
    if state.phase is Phase.PLAY and state.dice:
        return f"rolled {state.dice[0]}-{state.dice[1]}: to move"
    return _ACTING.get(state.phase, "")


def _centre(state: MatchState) -> str:
    """The cube when it is in the middle: centred, offered, or out of play.

    Between games, the next game's: centred at 1, or none in the Crawford
    game; nothing once the match is over.
    """
    if state.phase is Phase.OVER:
        return ""
    if state.phase is Phase.BETWEEN_GAMES:
        crawford = state.crawford_rule and state.crawford is Crawford.CRAWFORD
        return "next game: no cube, Crawford game" if crawford else "cube 1, centred"
    if _crawford_game(state):
        return "no cube: Crawford game"
    if state.phase is Phase.DOUBLED and state.offer is not None and state.turn is not None:
        return f"cube offered at {state.offer} by {state.name(state.turn)}"
    return f"cube {state.cube}, centred" if state.cube_owner is None else ""


def _crawford_game(state: MatchState) -> bool:
    """True during the Crawford game (between games, Crawford means the next game is)."""
    return state.in_game and state.crawford_rule and state.crawford is Crawford.CRAWFORD


def _crawford_status(state: MatchState) -> str:
    if not state.crawford_rule:
        return "no Crawford rule"
    if state.crawford is Crawford.POST:
        return "post-Crawford"
    if state.crawford is Crawford.CRAWFORD:
        return "Crawford game" if state.in_game else "next game is the Crawford game"
    return "pre-Crawford"


def _footer(state: MatchState, me: str) -> list[str]:
    legend = f" X = {state.name(me)}, O = {state.name(other(me))}, from {state.name(me)}'s side"
    parts = [f"{state.length}-point match", score_text(state)]
    if state.phase is not Phase.OVER:
        parts.append(_crawford_status(state))
    parts.extend(_game_status(state))
    lines = [legend, " " + " · ".join(parts), f" {situation(state)}"]
    problems = state.position.problems()
    if problems:
        lines.append(" wrong position: " + "; ".join(problems))
    return lines


# -- one line, and the games ------------------------------------------------------------


def brief(state: MatchState) -> str:
    """One line after each recorded action: game, score, Crawford, cube and what happens next.

    >>> from bgledger.projections.state.model import MatchState
    >>> brief(MatchState("m", ("Ann", "Bob"), 5, "usbgf-2016", "none", True))
    'Ann 0, Bob 0 (to 5) · no game in progress: game 1 starts with an opening roll'

    During a game: ``game 2 · Ann 3, Bob 1 (to 7) · cube 2, Bob's · Ann has
    rolled 5-2 and must move``; the cube is ``centred`` or its owner's, and the
    Crawford game (no cube) and the post-Crawford games say so.  Between
    games, the game that ended (who won it, how many points) and the
    Crawford status of the next; once the match is over, the winner.
    """
    parts = _game_status(state)
    parts.append(f"{score_text(state)} (to {state.length})")
    if state.in_game:
        if state.crawford_rule and state.crawford is Crawford.POST:
            parts.append("post-Crawford")
        parts.append(cube_status(state))
    elif (
        state.phase is Phase.BETWEEN_GAMES
        and state.crawford_rule
        and state.crawford is not Crawford.PRE
    ):
        parts.append(_crawford_status(state))
    parts.append(situation(state))
    return " · ".join(parts)


def may_now(state: MatchState) -> str:
    """The lines the table may record now, by player, in one line (the console's status):
    ``may now: Ann: hit``, ``may now: Bob: roll, double``, ``may now: both: opening``.

    >>> from bgledger.projections.state.model import MatchState
    >>> state = MatchState("m", ("Ann", "Bob"), 5, "usbgf-2016", "none", True)
    >>> may_now(state)
    'may now: Ann: break start a · Bob: break start b · both: opening, break start both'
    """
    answer, parts = now(state), []
    for party in ("a", "b", "players"):
        lines = [a.line for a in answer.allowed if a.party == party]
        if lines:
            who = state.name(party) if party != "players" else "both"
            parts.append(f"{who}: {', '.join(lines)}")
    return "may now: " + " · ".join(parts) if parts else "nothing more is played at the table"


def _game_status(state: MatchState) -> list[str]:
    """The game in progress (``'game 2'``), or the one that just ended and what it scored.

    Empty before the first game, and after a match won other than by its last
    game (on time, by penalty points).
    """
    if state.in_game:
        return [f"game {state.game}"]
    last = state.games[-1] if state.games else None
    if last is None or last.number != state.game:
        return []
    return [f"game {last.number} won by {state.name(last.winner)}, {points_of(last.points)}"]


_HOW = {"played": "played", "drop": "dropped", "resign": "resigned"}


def games_table(state: MatchState) -> str:
    """The finished games as a score sheet has them (USBGF 4.7), the Crawford game marked."""
    if not state.games:
        return "no game finished yet"
    header = ["game", "winner", "result", "cube", "points", "how", *state.players, ""]
    rows = [header, *(_game_row(state, game) for game in state.games)]
    numeric = {0, 3, 4, 6, 7}
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.rjust(width) if i in numeric else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
    return "\n".join(lines)


def _game_row(state: MatchState, game: GameRecord) -> list[str]:
    return [
        str(game.number),
        state.name(game.winner),
        game.result,
        str(game.cube),
        str(game.points),
        _HOW.get(game.how, game.how),
        str(game.score[0]),
        str(game.score[1]),
        "Crawford" if game.crawford else "",
    ]


# -- the clock, breaks and penalty points ------------------------------------------------

_MODES = {"simple-delay": "simple delay", "bronstein": "Bronstein"}


def stop_reason(code: str, profile: str) -> str:
    """Why the clock stopped, with the rule of the match's ``profile`` (its name) for the stop.

    ``USBGF 4.3.2(d): a dispute, or the director was called``; a stop the
    rule lists no letter for (a reserve expired) in words alone.
    """
    rules, words = profile_of(profile), reason_text(code, profile_of(profile))
    letter = REASONS.get(code, ("", code))[0]
    return f"{rules.cite(STOPPED_UNDER[code])}: {words}" if letter else words


def drift_text(ms: int) -> str:
    """A clock's drift from the ledger's figure: ``-0:01``, ``+0:02.5``, ``0:00``."""
    if ms == 0:
        return "0:00"
    tenths = abs(ms) % 1000 // 100
    return ("-" if ms < 0 else "+") + clock_text(abs(ms)) + (f".{tenths}" if tenths else "")


def figures_text(state: MatchState, ms: tuple[int, int]) -> str:
    """Both clock figures with the players' names: ``Ann 9:32 · Bob 10:00``."""
    return f"{state.players[0]} {clock_text(ms[0])} · {state.players[1]} {clock_text(ms[1])}"


def time_of_day(ms: int, like: str) -> str:
    """``ms`` as ``HH:MM:SS`` in the UTC offset of the time ``like``."""
    return datetime.fromisoformat(iso_from_ms(ms, like)).strftime("%H:%M:%S")


def _clock_status(state: MatchState, timer: ClockState) -> str:
    name = state.name
    if timer.running and timer.turn is not None:
        return f"{name(timer.turn)}'s time runs"
    if timer.stopped is not None and timer.turn is not None:
        return f"stopped in {name(timer.turn)}'s turn, {stop_reason(timer.stopped, state.profile)}"
    if timer.stopped is not None:
        after = "" if state.winner else ": the next hit starts it"
        return f"stopped, {stop_reason(timer.stopped, state.profile)}{after}"
    return "not started: the next hit starts it"


def clock_line(
    state: MatchState, now_ms: int | None = None, *, reserves: bool = True
) -> str | None:
    """The game clock in one line at ``now_ms`` (default: the last event at the table), None
    without one.

    E.g. ``clock: simple delay, 12 s · Ann 9:32 · Bob 10:00 · Bob's time runs (at 10:00:46)``.
    Without the ``reserves`` (a page that counts them on beside it), read at no moment:
    ``clock: simple delay, 12 s · Bob's time runs``.
    """
    timer = state.timer
    if timer is None:
        return None
    now = at_ms(state.last_at) if now_ms is None else now_ms
    parts = [f"clock: {_MODES.get(timer.mode, timer.mode)}, {timer.delay_ms / 1000:g} s"]
    if reserves:
        a, b = figures(timer, now)
        parts += [f"{state.players[0]} {clock_text(a)}", f"{state.players[1]} {clock_text(b)}"]
    parts.append(_clock_status(state, timer))
    for player, forfeited in zip(("a", "b"), timer.no_delay, strict=True):
        if forfeited:
            rule = rule_for(state.profile, Decision.DELAY_FORFEITED)
            parts.append(f"no delay for {state.name(player)}'s next checker play ({rule})")
    line = " · ".join(parts)
    at = time_of_day(now, state.started_at or state.last_at)  # the match's zone, as history's
    return f"{line} (at {at})" if timer.running and reserves else line


def _drift_line(state: MatchState) -> str | None:
    timer = state.timer
    if timer is None or timer.drift_ms is None:
        return None
    a, b = timer.drift_ms
    return (
        f"last clock reading, clock minus ledger: {state.players[0]} {drift_text(a)} · "
        f"{state.players[1]} {drift_text(b)}"
    )


def break_lines(state: MatchState) -> list[str]:
    """Breaks used and left (USBGF 2.2.2) and the break in progress, if any."""
    allowed = allowance(state.profile, state.length)
    used = state.breaks.used
    lines = []
    if allowed is not None or any(used):
        sides = [
            f"{state.players[i]} {used[i]}"
            + (
                " used"
                if allowed is None
                else f" of {allowed} used, {max(0, allowed - used[i])} left"
            )
            for i in (0, 1)
        ]
        lines.append(f"breaks ({rule_for(state.profile, Decision.BREAK)}): " + " · ".join(sides))
    opened = state.breaks.open
    if opened is not None:
        who = " and ".join(state.name(p) for p in opened.players)
        like = state.started_at or state.last_at  # the match's zone, as history's
        since, ends = (time_of_day(ms, like) for ms in (opened.start_ms, opened.ends_ms))
        lines.append(
            f"on a break for {who} since {since}: {opened.minutes} minutes, "
            f"its allowance ends at {ends}"
        )
    return lines


def time_lines(state: MatchState, now_ms: int | None = None) -> list[str]:
    """What ``show`` prints under the board about time: clock, breaks, penalty points."""
    lines = [line for line in (clock_line(state, now_ms), _drift_line(state)) if line]
    lines.extend(break_lines(state))
    if any(state.penalties):
        against = " · ".join(f"against {state.players[i]} {state.penalties[i]}" for i in (0, 1))
        lines.append(f"penalty points (the opponent scores them): {against}")
    return lines
