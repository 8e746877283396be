"""The event vocabulary of a match: immutable facts, past participles (DESIGN).

Each module holds one feature's events: :mod:`~bgledger.events.game` (the
match, dice, checker plays, the cube, concessions, results),
:mod:`~bgledger.events.premature`, :mod:`~bgledger.events.statements` (cube statements),
:mod:`~bgledger.events.rulings`
(compensating events), :mod:`~bgledger.events.corrections` (recording errors
withdrawn or amended, apart from rulings) and :mod:`~bgledger.events.clock` (the game clock,
breaks and penalty points).  :mod:`~bgledger.events.names` gives each kind
the name it is stored under, and :mod:`~bgledger.events.chain` the hash
chain that links a match's events.

Fields hold JSON-stable values only (``str``, ``int``, ``bool``, ``None``,
``list[int]`` and dicts of these): a tuple would come back from the store as a
list and the replayed state would differ from the live one.  Players are
``'a'`` and ``'b'``; dice are two ``int`` fields; a play is its canonical text
(``'13/11 13/8'``, ``''`` for a dance).  Events record facts, never derived
state (DESIGN principle 7).

Applying an event never validates: the commands of
:class:`bgledger.commands.match.Match` decide before an event exists.  A
changed event gets a higher ``class_version`` and an ``upcast_vN_vN+1``.
"""

from __future__ import annotations

from bgledger.events.base import MatchEvent
from bgledger.events.clock import (
    TIME_EVENTS,
    BreakEnded,
    BreakStarted,
    ClockHit,
    ClockHitImplied,
    ClockRead,
    ClockRestored,
    ClockResumed,
    ClockSet,
    ClockStarted,
    ClockStopped,
    PenaltyPointsAssessed,
    ReserveTimePenalized,
    ReserveTimeRestored,
    TimeExpired,
)
from bgledger.events.corrections import (
    CopyImported,
    EntryAmended,
    EntryCorrected,
    EntryWithdrawn,
    RemarkRecorded,
)
from bgledger.events.game import (
    CheckersPlayed,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    DiceRolled,
    GameStarted,
    GameWon,
    MatchForfeited,
    MatchStarted,
    MatchWon,
    OpeningRollMade,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    RollVoided,
    SingleDiceAgreed,
    SocialDoubleMade,
    StartingPositionRecorded,
    UnplayablePlayRecorded,
)
from bgledger.events.premature import (
    PrematureDoubleMade,
    PrematureRollAccepted,
    PrematureRollMade,
    PrematureRollRefused,
)
from bgledger.events.rulings import (
    ConcessionVoided,
    CrawfordPassNullified,
    CubeActionVoided,
    CubeLevelCorrected,
    MatchLengthCorrected,
    PlaysReverted,
    RulingMade,
    RulingNoted,
    RulingOverturned,
    ScoreCorrected,
    StartingPositionCorrected,
)
from bgledger.events.statements import CubeStatementMade

__all__ = [
    "TIME_EVENTS", "BreakEnded", "BreakStarted", "CheckersPlayed", "ClockHit", "ClockHitImplied",
    "ClockRead", "ClockRestored", "ClockResumed", "ClockSet", "ClockStarted", "ClockStopped",
    "ConcessionVoided", "CopyImported", "CrawfordPassNullified", "CubeActionVoided", "CubeDropped",
    "CubeLevelCorrected",
    "CubeOffered", "CubeStatementMade",
    "CubeTaken", "DiceRolled", "EntryAmended", "EntryCorrected", "EntryWithdrawn",
    "GameStarted", "GameWon", "MatchEvent", "MatchForfeited", "MatchLengthCorrected",
    "MatchStarted", "MatchWon", "OpeningRollMade", "PenaltyPointsAssessed", "PlaysReverted",
    "PrematureDoubleMade", "PrematureRollAccepted", "PrematureRollMade", "PrematureRollRefused",
    "RemarkRecorded",
    "ReserveTimePenalized", "ReserveTimeRestored", "ResignationAccepted", "ResignationOffered",
    "ResignationRejected", "RollVoided", "RulingMade", "RulingNoted", "RulingOverturned",
    "ScoreCorrected", "SingleDiceAgreed", "SocialDoubleMade", "StartingPositionCorrected",
    "StartingPositionRecorded",
    "TimeExpired",
    "UnplayablePlayRecorded",
]  # fmt: skip
