"""A match and its games: setup, dice, checker plays, the cube, concessions and results.

An event that records something the rules forbid but that happened at the
board (DESIGN principle 2) says so in ``legal`` and ``reason`` and cites the
``rule``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgledger.events.base import MatchEvent

__all__ = [
    "CheckersPlayed",
    "ConcessionAcceptanceRequired",
    "CubeDropped",
    "CubeOffered",
    "CubeTaken",
    "DiceRolled",
    "GameStarted",
    "GameWon",
    "MatchForfeited",
    "MatchStarted",
    "MatchWon",
    "OpeningRollMade",
    "ResignationAccepted",
    "ResignationOffered",
    "ResignationRejected",
    "RollVoided",
    "SingleDiceAgreed",
    "SocialDoubleMade",
    "StartingPositionRecorded",
    "UnplayablePlayRecorded",
]


@dataclass(frozen=True)
class MatchStarted(MatchEvent):
    """A match was set up: the players, the length and the rules it is played under.

    ``crawford``: whether the Crawford rule applies (USBGF 4.4.6; a transcription may say
    otherwise); ``meta``: a transcription's other header tags (``Site``, ``Transcriber`` ...).
    ``score_a``/``score_b``: the score before the first game recorded (0-0 unless the record
    begins mid-match); ``crawford_status``: that game's (``pre``, ``crawford``, ``post``).
    """

    match_id: str
    player_a: str
    player_b: str
    length: int
    profile: str
    clock: str
    crawford: bool
    event: str
    round: str
    table: str
    meta: dict[str, str]
    score_a: int
    score_b: int
    crawford_status: str


@dataclass(frozen=True)
class GameStarted(MatchEvent):
    """Game ``number`` began (recorded with its first opening roll)."""

    number: int


@dataclass(frozen=True)
class OpeningRollMade(MatchEvent):
    """Each player rolled one die; a tie is recorded and rolled again.

    The higher die moves first, playing both dice (USBGF Appendix B, as USBGF 4.2.4 refers).
    """

    die_a: int
    die_b: int


@dataclass(frozen=True)
class SingleDiceAgreed(MatchEvent):
    """Both players agreed that ``player``, the higher thrower of the opening roll, plays
    the two single dice thrown, his own and his opponent's, instead of throwing again with
    two dice; ``rule`` is the one it was recorded under (CLASSIC 4)."""

    player: str
    rule: str


@dataclass(frozen=True)
class DiceRolled(MatchEvent):
    """``player`` rolled ``die1``-``die2`` for his turn."""

    player: str
    die1: int
    die2: int


@dataclass(frozen=True)
class RollVoided(MatchEvent):
    """The last roll was not valid and must be rolled again (USBGF 4.1.4, ABT 4.2).

    ``reason``: the profile's code (``cocked``, ``wrong-side``, ``die-on-die``); ``rule``.
    """

    player: str
    reason: str
    rule: str


@dataclass(frozen=True)
class CheckersPlayed(MatchEvent):
    """``player`` moved his checkers: ``play`` in canonical form, ``''`` if he could not move.

    ``legal`` is False for a play made at the board that the rules forbid (USBGF 4.2.3).
    """

    player: str
    play: str
    legal: bool
    reason: str | None
    rule: str | None


@dataclass(frozen=True)
class UnplayablePlayRecorded(MatchEvent):
    """A transcription gives ``player`` a ``play`` the board cannot show (``reason``).

    Kept as written and flagged; the board stays and the turn passes, as GNU Backgammon
    reads such a file (:mod:`ledger.interchange.importer`).  Never recorded live.
    """

    player: str
    play: str
    reason: str


@dataclass(frozen=True)
class CubeOffered(MatchEvent):
    """``player`` doubled, offering the cube at ``value``."""

    player: str
    value: int
    legal: bool
    reason: str | None
    rule: str | None


@dataclass(frozen=True)
class CubeTaken(MatchEvent):
    """``player`` accepted the double and owns the cube at ``value``."""

    player: str
    value: int


@dataclass(frozen=True)
class SocialDoubleMade(MatchEvent):
    """The cube was turned to ``value`` by a doubling rule of social play (USBGF 4.4.10).

    ``kind`` ``beaver``: ``player``, just doubled, took and at once redoubled,
    keeping the cube (``owner`` is he); ``automatic``: an opening roll tied and
    the cube was turned by nobody (``player`` and ``owner`` are ``""``: it
    stays in the middle).  Tournaments do not play them: recorded as played,
    flagged, for the director to declare invalid.
    """

    player: str
    kind: str
    value: int
    owner: str
    legal: bool
    reason: str | None
    rule: str | None


@dataclass(frozen=True)
class CubeDropped(MatchEvent):
    """``player`` passed the double offered at ``value``, conceding the game."""

    player: str
    value: int


@dataclass(frozen=True)
class ResignationOffered(MatchEvent):
    """``player`` offered to concede a ``level`` game (single, gammon or backgammon)."""

    player: str
    level: str
    legal: bool
    reason: str | None
    rule: str | None


@dataclass(frozen=True)
class ResignationAccepted(MatchEvent):
    """``player`` accepted his opponent's concession."""

    player: str


@dataclass(frozen=True)
class ResignationRejected(MatchEvent):
    """``player`` refused his opponent's concession; play goes on."""

    player: str


@dataclass(frozen=True)
class ConcessionAcceptanceRequired(MatchEvent):
    """The director required ``player`` to accept his opponent's concession on a clock: no
    outcome more favorable for him could occur (CLOCK 5.1).  His acceptance follows."""

    player: str
    rule: str
    ruled_by: str
    reason: str


@dataclass(frozen=True)
class GameWon(MatchEvent):
    """Game ``number`` ended: ``winner`` scores ``points``.

    ``result``: single, gammon or backgammon; ``cube``: the cube value it was played for;
    ``how``: ``played`` (last checker borne off), ``drop`` or ``resign``.
    """

    number: int
    winner: str
    result: str
    cube: int
    points: int
    how: str


@dataclass(frozen=True)
class MatchForfeited(MatchEvent):
    """``player`` forfeited the match (``reason``); the :class:`MatchWon` after it names the winner.

    Recorded by an import whose transcription declares the match won short of
    its length: ``Wins 1 point and the match`` at 1-0 of 5, an online server's
    record of a player who left.  A forfeit on time or by penalty points is
    recorded with its own cause instead (``TimeExpired``, ``PenaltyPointsAssessed``).
    """

    player: str
    reason: str


@dataclass(frozen=True)
class MatchWon(MatchEvent):
    """``winner`` won the match: reached its length, or by forfeit; the final score.

    A forfeit (USBGF 4.3.3, 2.2.4, or a transcription's, :class:`MatchForfeited`) is won
    at the score as it stands, recorded with the event that caused it.
    """

    winner: str
    score_a: int
    score_b: int


@dataclass(frozen=True)
class StartingPositionRecorded(MatchEvent):
    """The checkers were set up as ``board_a``/``board_b`` (26 counts each, own numbering).

    Recorded when a game began from a position other than the standard one (USBGF 4.2.4,
    Appendix B); ``legal`` is False then.
    """

    board_a: list[int]
    board_b: list[int]
    legal: bool
    reason: str | None
    rule: str | None
