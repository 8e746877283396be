"""The clock, break and penalty lines of the record language (see
:mod:`bgledger.commands.language`).

::

    hit [a|b]                          the player whose time runs ends his turn
    clock start simple-delay|bronstein [reserve M:SS] [delay S]
    clock stop REASON                  a USBGF 4.3.2 reason: die-fell, dispute, ... or its letter
    clock resume
    clock read a=M:SS b=M:SS           the physical clock's display
    clock set a=M:SS b=M:SS [rule "USBGF 3.7.2"] REASON...   the director sets the clocks
    flag a|b                           a's reserve is announced expired (USBGF 4.3.3)
    early-pickup a|b                   dice picked up early (USBGF 4.1.7.2, CLOCK 4.1)
    break start a|b|both [combine N] [exceptional REASON...]
    break end [late a|b|none]
    late a|b                           absent at the start or after a break (USBGF 2.2.4)
    penalty a|b POINTS "RULE" REASON...  the director's other penalty points

Each line is decided by the clock and break commands of the match
(:class:`~bgledger.commands.clock.ClockCommands`, :class:`~bgledger.commands.breaks.BreakCommands`),
as the command line's verbs are.
"""

from __future__ import annotations

from collections.abc import Callable

from bgledger.commands import clock
from bgledger.commands.match import Match
from bgledger.commands.ruling_base import Ruling
from bgledger.rules.errors import RulesError

__all__ = ["TIME_VERBS", "InvalidTimeActionError", "apply_time"]

TIME_VERBS = ("hit", "clock", "flag", "early-pickup", "break", "late", "penalty")


class InvalidTimeActionError(RulesError):
    """A clock, break or penalty line with missing, extra or malformed arguments."""


def _player(word: str) -> str:
    if word.lower() not in ("a", "b"):
        raise InvalidTimeActionError(f"player {word!r}: a or b")
    return word.lower()


def _options(words: list[str], names: tuple[str, ...]) -> dict[str, str]:
    """``name value`` pairs; the last name may take the rest of the line."""
    found: dict[str, str] = {}
    while words:
        name = words.pop(0).lower()
        if name not in names or not words:
            raise InvalidTimeActionError(f"{name!r}: expected one of {', '.join(names)} VALUE")
        found[name] = " ".join(words) if name == names[-1] else words.pop(0)
        if name == names[-1]:
            break
    return found


def _figures(words: list[str]) -> tuple[int, int]:
    given = dict(word.split("=", 1) for word in words if "=" in word)
    if set(given) != {"a", "b"}:
        raise InvalidTimeActionError(f"{' '.join(words)!r}: give both figures, a=M:SS b=M:SS")
    return clock.parse_clock(given["a"]), clock.parse_clock(given["b"])


def _clock(match: Match, args: list[str], by: str, at: str | None) -> None:
    if not args:
        raise InvalidTimeActionError("clock start|stop|resume|read|set ...")
    sub, rest = args[0].lower(), args[1:]
    if sub == "start" and rest:
        opts = _options(rest[1:], ("reserve", "delay"))
        reserve = clock.parse_clock(opts["reserve"]) if "reserve" in opts else None
        delay = _seconds(opts["delay"]) if "delay" in opts else None
        match.start_clock(rest[0], reserve_ms=reserve, delay_ms=delay, by=by, at=at)
    elif sub == "stop" and len(rest) == 1:
        match.stop_clock(rest[0], by=by, at=at)
    elif sub == "resume" and not rest:
        match.resume_clock(by=by, at=at)
    elif sub == "read" and len(rest) == 2:
        match.read_clock(_figures(rest), by=by, at=at)
    elif sub == "set" and len(rest) > 2:
        rule, reason = (rest[3], rest[4:]) if rest[2].lower() == "rule" else (None, rest[2:])
        cited = {"rule": rule} if rule else {}
        match.set_clock(_figures(rest[:2]), reason=" ".join(reason), by=by, at=at, **cited)
    else:
        raise InvalidTimeActionError(f"clock {' '.join(args)!r}: see 'bgledger clock --help'")


def _seconds(word: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise InvalidTimeActionError(f"delay {word!r}: whole seconds")
    return int(word) * 1000


def _break(match: Match, args: list[str], by: str, at: str | None) -> None:
    if args[:1] == ["start"] and len(args) > 1:
        who = ("a", "b") if args[1].lower() == "both" else (_player(args[1]),)
        opts = _options(args[2:], ("combine", "exceptional"))
        combine = opts.get("combine", "1")
        if not (combine.isascii() and combine.isdigit()):
            raise InvalidTimeActionError(f"combine {combine!r}: a number of breaks")
        exceptional = opts.get("exceptional", "")
        match.start_break(who, combine=int(combine), exceptional=exceptional, by=by, at=at)
    elif args[:1] == ["end"]:
        opts = _options(args[1:], ("late",))
        match.end_break(late=opts.get("late"), by=by, at=at)
    else:
        raise InvalidTimeActionError("break start a|b|both [combine N] | break end [late a|b|none]")


def _penalty(match: Match, args: list[str], by: str, at: str | None) -> None:
    if len(args) < 4 or not (args[1].isascii() and args[1].isdigit()):
        raise InvalidTimeActionError('penalty a|b POINTS "RULE" REASON...')
    reason = " ".join(args[3:])
    match.penalty(_player(args[0]), int(args[1]), rule=args[2], reason=reason, by=by, at=at)


def _early(match: Match, args: list[str], by: str, at: str | None) -> None:
    ruling = Ruling(
        "director", "picked up the dice before the opponent hit the clock", by=by, at=at
    )
    match.early_pickup(_player(args[0]), ruling)


_ONE_PLAYER: dict[str, Callable[[Match, str, str, str | None], object]] = {
    "flag": lambda m, p, by, at: m.flag(p, by=by, at=at),
    "late": lambda m, p, by, at: m.late(p, by=by, at=at),
}


def apply_time(match: Match, verb: str, args: list[str], by: str, at: str | None) -> None:
    """Perform one clock, break or penalty line.

    :raises InvalidTimeActionError: for missing, extra or malformed arguments.
    :raises RulesError: for a clock figure, player or time that is not valid input.
    :raises ActionRefusedError: when the match refuses it (the rule is cited).
    """
    if verb == "hit" and len(args) <= 1:
        match.hit(_player(args[0]) if args else None, by=by, at=at)
    elif verb in _ONE_PLAYER and len(args) == 1:
        _ONE_PLAYER[verb](match, _player(args[0]), by, at)
    elif verb == "early-pickup" and len(args) == 1:
        _early(match, args, by, at)
    elif verb == "clock":
        _clock(match, args, by, at)
    elif verb == "break":
        _break(match, [a.lower() if i < 1 else a for i, a in enumerate(args)], by, at)
    elif verb == "penalty":
        _penalty(match, args, by, at)
    else:
        raise InvalidTimeActionError(f"{verb} {' '.join(args)!r}: see ledger.actions_time")
