"""Setting up a match: the checks and the :class:`~bgledger.events.MatchStarted` event.

A match usually starts at 0-0 before its first game.  A transcription (or a
scorekeeper who arrives late) may start at another score: ``score`` then
gives it, and ``crawford_status`` says whether the first game recorded is
the Crawford game or after it, which the score alone cannot tell (USBGF
4.4.6: the Crawford game is the first game after a player reaches one point
from the match).
"""

from __future__ import annotations

import re
from uuid import UUID

from eventsourcing.domain import DomainEvent

from bgledger.commands import decide as _decide
from bgledger.errors import InvalidMatchSetupError
from bgledger.events import MatchStarted
from bgledger.events.chain import chained
from bgledger.rules.profiles import DEFAULT_PROFILE, Profile, get_profile

__all__ = ["CLOCKS", "MATCH_ID", "MAX_LENGTH", "match_started"]

MATCH_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
CLOCKS = ("none", "simple-delay", "bronstein")
MAX_LENGTH = 999
_STATUSES = ("pre", "crawford", "post")


def match_started(
    stream: UUID,
    match_id: str,
    players: tuple[str, str],
    length: int,
    *,
    profile: str = DEFAULT_PROFILE,
    clock: str = "none",
    crawford: bool | None = None,
    event: str = "",
    round: str = "",
    table: str = "",
    meta: dict[str, str] | None = None,
    score: tuple[int, int] = (0, 0),
    crawford_status: str | None = None,
    by: str,
    at: str | None = None,
) -> MatchStarted:
    """The first event of a new match, once its setup is checked.

    ``crawford`` (whether the Crawford rule applies) defaults to the
    profile's; ``crawford_status`` to ``pre``, or ``crawford`` when the
    starting score has a player one point away.

    :raises InvalidMatchSetupError: for a bad id, name, length, clock, score or status.
    :raises UnknownProfileError: for an unknown profile.
    :raises InvalidTimeError: for a malformed ``at``.
    """
    names = (players[0].strip(), players[1].strip())
    rules = check_setup(match_id, names, length, profile, clock)
    rule = rules.cube.crawford.value if crawford is None else crawford
    status = check_score(score, length, crawford_status, rule)
    opened = MatchStarted(
        originator_id=stream,
        originator_version=1,
        timestamp=DomainEvent.create_timestamp(),
        at=_decide.stamp(at, None),
        recorded_by=by,
        match_id=match_id,
        player_a=names[0],
        player_b=names[1],
        length=length,
        profile=profile,
        clock=clock,
        crawford=rule,
        event=event,
        round=round,
        table=table,
        meta=dict(meta or {}),
        score_a=score[0],
        score_b=score[1],
        crawford_status=status,
    )
    return chained(opened, "")


def check_setup(
    match_id: str, names: tuple[str, str], length: int, profile: str, clock: str
) -> Profile:
    """The profile of a new match, once its setup is checked.

    :raises InvalidMatchSetupError: for a bad id, name, length or clock.
    :raises UnknownProfileError: for an unknown profile.
    """
    if not MATCH_ID.fullmatch(match_id):
        raise InvalidMatchSetupError(
            f"match id {match_id!r}: use 1-64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    for label, name in zip(("--a", "--b"), names, strict=True):
        if not name.strip() or "\n" in name:
            raise InvalidMatchSetupError(f"player {label} {name!r}: a name is needed")
    if names[0].strip().casefold() == names[1].strip().casefold():
        raise InvalidMatchSetupError(f"both players are called {names[0]!r}")
    if not 1 <= length <= MAX_LENGTH:
        raise InvalidMatchSetupError(f"match length {length!r}: must be 1-{MAX_LENGTH} points")
    rules = get_profile(profile)
    if clock not in CLOCKS:
        raise InvalidMatchSetupError(f"clock {clock!r}: one of {', '.join(CLOCKS)}")
    if clock != "none" and rules.clock(clock) is None:
        raise InvalidMatchSetupError(f"profile {profile} has no {clock} clock")
    return rules


def check_score(
    score: tuple[int, int], length: int, status: str | None, crawford_rule: bool
) -> str:
    """The Crawford status of a match starting at ``score``.

    :raises InvalidMatchSetupError: for a score at or beyond the length, or a
        status that the score or the rule makes impossible.
    """
    if any(points < 0 or points >= length for points in score):
        raise InvalidMatchSetupError(
            f"starting score {score[0]}-{score[1]}: each must be 0 to {length - 1} "
            f"in a {length}-point match"
        )
    # One point away by having scored: at 0-0 of a 1-point match nobody has reached it yet.
    away = crawford_rule and any(0 < points == length - 1 for points in score)
    if status is None:
        return "crawford" if away else "pre"
    if status not in _STATUSES:
        raise InvalidMatchSetupError(f"Crawford status {status!r}: one of {', '.join(_STATUSES)}")
    if (status != "pre") != away:
        raise InvalidMatchSetupError(
            f"Crawford status {status!r} at {score[0]}-{score[1]} of {length} (USBGF 4.4.6): "
            "'crawford' or 'post' only when a player is one point away"
        )
    return status
