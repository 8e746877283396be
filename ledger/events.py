"""The event vocabulary of a match: immutable facts, past participles (DESIGN).

Every event is a frozen dataclass on :class:`eventsourcing.domain.DomainEvent`
(``originator_id``; ``originator_version``, its number in the match from 1; ``timestamp``,
when the ledger stored it) plus :class:`MatchEvent`'s fields.  Fields hold JSON-stable
values only (``str``, ``int``, ``bool``, ``None``, ``list[int]`` and dicts of these): a
tuple would come back from the store as a list and the replayed state would differ from
the live one.  Players are ``'a'`` and ``'b'``; dice are two ``int`` fields; a play is its
canonical text (``'13/11 13/8'``, ``''`` for a dance).

An event that records something the rules forbid but that happened at the board (DESIGN
principle 2) says so in ``legal`` and ``reason`` and cites the ``rule``.  Applying an
event never validates: the :class:`ledger.match.Match` commands decide before an event
exists.  Rulings (:class:`RulingMade` and its kinds) are compensating events: they name
the events they void and never change one.  The clock, break and penalty-point events are
declared in :mod:`ledger.events_time` and exported from here too.

An event class never moves to another module: its stored topic names this one.  A changed
event gets ``class_version`` and an ``upcast_v1_v2``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from eventsourcing.domain import DomainEvent

__all__ = [
    "CheckersPlayed", "CrawfordPassNullified", "CubeActionVoided", "CubeDropped",
    "CubeLevelCorrected", "CubeOffered", "CubeTaken", "DiceRolled", "GameStarted", "GameWon",
    "MatchEvent", "MatchLengthCorrected", "MatchStarted", "MatchWon", "OpeningRollMade",
    "PlaysReverted", "PrematureDoubleMade", "PrematureRollAccepted", "PrematureRollMade",
    "PrematureRollRefused", "ResignationAccepted", "ResignationOffered", "ResignationRejected",
    "RollVoided", "RulingMade", "RulingNoted", "RulingOverturned", "ScoreCorrected",
    "StartingPositionCorrected", "StartingPositionRecorded", "UnplayablePlayRecorded",
]  # fmt: skip


@dataclass(frozen=True)
class MatchEvent(DomainEvent):
    """Base of every match event.

    :ivar at: when it happened at the board (ISO 8601 with a UTC offset; ``--at`` for a
        transcription, else now).
    :ivar recorded_by: who recorded it (a scorekeeper, ``import``, a director).
    :ivar chain: the stream's hash chain up to this event (:mod:`ledger.chain`);
        ``""`` for an event stored before there were chains (class version 1).
    """

    class_version: ClassVar[int] = 2

    at: str
    recorded_by: str
    chain: str = field(default="", kw_only=True)

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """An event stored before the hash chain (version 1) is unchained: ``chain`` is ``""``."""
        state["chain"] = ""


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
class MatchWon(MatchEvent):
    """``winner`` reached the match length; the final score."""

    winner: str
    score_a: int
    score_b: int


# -- premature actions (USBGF 4.1.7.1, 4.4.7, ABT 4.6) ---------------------------------------
@dataclass(frozen=True)
class PrematureRollMade(MatchEvent):
    """``player`` rolled ``die1``-``die2`` while his opponent was still to move (USBGF 4.1.7.1).

    The mover accepts or refuses it (:mod:`ledger.premature`); where premature rolls stand
    (ABT 4.6) the acceptance is recorded with the roll.
    """

    player: str
    die1: int
    die2: int


@dataclass(frozen=True)
class PrematureRollAccepted(MatchEvent):
    """The mover ``player`` let the premature roll stand (USBGF 4.1.7.1, ABT 4.6)."""

    player: str


@dataclass(frozen=True)
class PrematureRollRefused(MatchEvent):
    """The mover ``player`` refused the premature roll: the Fast Roll Rule (USBGF 4.1.7.1)."""

    player: str


@dataclass(frozen=True)
class PrematureDoubleMade(MatchEvent):
    """``player`` doubled to ``value`` before his opponent finished his turn (USBGF 4.4.7).

    It stands if otherwise valid (:mod:`ledger.premature`); a forbidden one is flagged as
    :class:`CubeOffered` is.
    """

    player: str
    value: int
    legal: bool
    reason: str | None
    rule: str | None


# -- rulings: compensating events (USBGF 4.2.3, 4.4.6-4.4.10, 4.7, 4.8, 5.2) ----------------
@dataclass(frozen=True)
class RulingMade(MatchEvent):
    """Base of every ruling: a compensating event that changes nothing recorded before it.

    :ivar rule: the rule applied (``USBGF 4.2.3(a)``).
    :ivar ruled_by: ``director``, ``committee`` or ``players``.
    :ivar reason: why, in the ruler's words.
    :ivar agreed: the players agreed to the correction (USBGF 4.2.3(f)).
    :ivar voids: the events this ruling takes out of force (never deletes).
    :ivar restores: the events it puts back in force (an appeal overturning a ruling).
    :ivar state: the corrected state right after it (:mod:`projections.codec` form), so that
        folding needs no look back; :mod:`projections.effective` recomputes it.
    """

    rule: str
    ruled_by: str
    reason: str
    agreed: bool
    voids: list[int]
    restores: list[int]
    state: dict[str, Any]


@dataclass(frozen=True)
class PlaysReverted(RulingMade):
    """An illegal play (``event``) and the game actions after it are undone (USBGF 4.2.3(c)-(f)).

    Rulings made since stay in force: they are not game actions.  ``same_checker``: the
    points the wrongly moved men left, when the profile obliges the player to move one of
    them again (CLASSIC 10).
    """

    event: int
    same_checker: list[int]


@dataclass(frozen=True)
class CubeActionVoided(RulingMade):
    """An invalid double (``event``) is void with its answer (USBGF 4.4.6.1, 4.4.9, 4.4.10)."""

    event: int


@dataclass(frozen=True)
class CrawfordPassNullified(RulingMade):
    """An invalid double that was passed (``event``) is nullified (USBGF 4.4.6.2, 4.4.9, 4.4.10)."""

    event: int


@dataclass(frozen=True)
class CubeLevelCorrected(RulingMade):
    """The cube action ``event`` stands at the right level, ``value`` (USBGF 4.4.8)."""

    event: int
    value: int


@dataclass(frozen=True)
class MatchLengthCorrected(RulingMade):
    """The match is ``length`` points, from the next game (USBGF 4.8.4, 4.8.5)."""

    length: int


@dataclass(frozen=True)
class ScoreCorrected(RulingMade):
    """The score is ``score_a``-``score_b`` (USBGF 4.7)."""

    score_a: int
    score_b: int


@dataclass(frozen=True)
class RulingNoted(RulingMade):
    """A ruling or observation for the record that changes nothing in the match."""


@dataclass(frozen=True)
class RulingOverturned(RulingMade):
    """An appeal committee reversed the ruling ``ruling`` (USBGF 5.2).

    What it voided is back in force; the ruling and what was recorded under it are void.
    """

    ruling: int


# -- errors in the starting position (USBGF 4.2.4, ABT 4.7) ----------------------------
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


@dataclass(frozen=True)
class StartingPositionCorrected(RulingMade):
    """The wrong setup ``event`` is corrected (USBGF 4.2.4).

    ``replayed``: False if the plays so far stand on the correct position (no move was
    affected), True if the game starts again from the standard position with new rolls.
    """

    event: int
    replayed: bool


# The clock, break and penalty-point events (declared beside, to keep this module short).
from ledger.events_time import *  # noqa: E402, F403
from ledger.events_time import __all__ as _time_events  # noqa: E402

__all__ += [name for name in _time_events if name != "TIME_EVENTS"]
