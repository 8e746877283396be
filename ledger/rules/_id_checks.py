"""Field checks shared by the Match ID and XGID codecs (package-private).

Each raises the error class it is given, with a message naming the field and
quoting the value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from bgledger.rules.errors import InvalidPositionError, RulesError

CHECKERS = 15
MAX_CUBE = 1 << 15
"""The largest cube a Match ID can hold (its cube field is a 4-bit exponent)."""
MAX_FIELD = (1 << 15) - 1
"""The largest match length or score a Match ID can hold (15-bit fields)."""


def check_side(name: str, side: Sequence[int]) -> None:
    """Refuse a side that no Position ID (nor XGID) can hold.

    :raises InvalidPositionError: if ``side`` is not 26 counts with 0 to 15
        checkers, none negative, on points and bar.
    """
    if len(side) != 26:
        raise InvalidPositionError(
            f"{name} must have 26 entries (off, points 1-24, bar), got {len(side)}: {side!r}"
        )
    try:
        fits = (
            all(isinstance(count, int) and 0 <= count <= CHECKERS for count in side[1:])
            and sum(side[1:]) <= CHECKERS
        )
    except TypeError:
        fits = False
    if not fits:
        raise InvalidPositionError(
            f"{name} must have 0 to {CHECKERS} checkers on points and bar, got {side!r}"
        )


def whole(value: object, low: int, high: int) -> TypeGuard[int]:
    """True if ``value`` is an ``int`` (not a ``bool``) from ``low`` to ``high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def require(ok: bool, error: type[RulesError], message: str) -> None:
    if not ok:
        raise error(message)


def check_range(name: str, value: object, low: int, high: int, error: type[RulesError]) -> None:
    require(
        whole(value, low, high),
        error,
        f"{name} must be a whole number from {low} to {high}, got {value!r}",
    )


def check_cube(name: str, value: object, error: type[RulesError]) -> None:
    require(
        whole(value, 1, MAX_CUBE) and value & (value - 1) == 0,
        error,
        f"{name} must be a power of 2 from 1 to {MAX_CUBE}, got {value!r}",
    )


def check_owner(value: object, error: type[RulesError]) -> None:
    require(
        value is None or whole(value, 0, 1),
        error,
        f"cube_owner must be None (centred), 0 or 1, got {value!r}",
    )


def check_bools(owner: object, error: type[RulesError], *names: str) -> None:
    for name in names:
        value = getattr(owner, name)
        require(isinstance(value, bool), error, f"{name} must be True or False, got {value!r}")


def check_pair(name: str, value: object, high: int, error: type[RulesError]) -> None:
    require(
        isinstance(value, tuple) and len(value) == 2 and all(whole(n, 0, high) for n in value),
        error,
        f"{name} must be a tuple of two whole numbers from 0 to {high}, got {value!r}",
    )


def check_dice(value: object, error: type[RulesError]) -> None:
    require(
        isinstance(value, tuple)
        and (value == (0, 0) or (len(value) == 2 and all(whole(n, 1, 6) for n in value))),
        error,
        f"dice must be a tuple of two numbers from 1 to 6, or (0, 0) if not rolled, got {value!r}",
    )


def check_score(score: tuple[int, int], match_length: int, error: type[RulesError]) -> None:
    check_pair("score", score, MAX_FIELD, error)
    require(
        match_length == 0 or max(score) <= match_length,
        error,
        f"score {score!r} is beyond the match length {match_length!r}",
    )
