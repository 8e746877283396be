"""The types rulebook profiles are made of.

Public names are re-exported by :mod:`bgledger.rules.profiles`; import them from
there.  Every value a profile holds is a :class:`Cited` (the value, the rule it
comes from and the words of that rule) or a record whose fields are.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

T = TypeVar("T")

_RULE = re.compile(r"(USBGF|ABT|CLASSIC|CLOCK) \d+(\.\d+)*(\([a-h]\))?|USBGF Appendix B|FAQ")


@dataclass(frozen=True, slots=True, kw_only=True)
class Citation:
    """Where a value comes from.

    :param rule: ``"USBGF 4.2.3(a)"``, ``"ABT 4.8"``, ``"CLASSIC 10"``,
        ``"CLOCK 2.1"``, ``"USBGF Appendix B"`` (the basic rules of play) or
        ``"FAQ"`` (the USBGF valid-rolls FAQ); ``None`` when the rulebook is
        silent and the value is the profile's own convention.
    :param quote: the rule's own words, verbatim, that give the value.
    :param note: how the value was read from the text, or why the book is silent.
    :raises ValueError: on a malformed rule, a rule without a quote, or a
        convention (``rule=None``) without a note.
    """

    rule: str | None
    quote: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        if self.rule is None:
            if not self.note or self.quote:
                raise ValueError("a value no rule gives needs a note and no quote")
        elif not _RULE.fullmatch(self.rule) or not self.quote:
            raise ValueError(f"bad citation {self.rule!r}: want e.g. 'USBGF 4.2.3(a)' and a quote")


@dataclass(frozen=True, slots=True, kw_only=True)
class Cited(Citation, Generic[T]):
    """A value together with its :class:`Citation`."""

    value: T


def cite(value: T, rule: str | None, quote: str = "", note: str = "") -> Cited[T]:
    """Shorthand for :class:`Cited`; ``rule=None`` marks a convention."""
    return Cited(value=value, rule=rule, quote=quote, note=note)


def iter_citations(node: object) -> Iterator[Citation]:
    """Every :class:`Citation` inside ``node`` (dataclasses, tuples, frozensets)."""
    if isinstance(node, Citation):
        yield node
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        for field in dataclasses.fields(node):
            yield from iter_citations(getattr(node, field.name))
    elif isinstance(node, tuple | frozenset):
        for item in node:
            yield from iter_citations(item)


class Decision(StrEnum):
    """What a command decides or a view reports, and so a rule it cites.

    Every profile cites each decision (:attr:`Profile.decisions`): a refusal
    names the rule of what it refused, a recorded event the rule it was
    recorded under, a view the rule of what it shows.  A decision the
    profile's book is silent on is cited to the rule the ledger applies
    instead, with a note saying so.
    """

    # -- turns and dice
    BASIC_RULES = "basic-rules"  #: the order of play: opening rolls, one turn at a time
    ROLL = "roll"  #: a roll in turn
    OPENING_THROW = "opening-throw"  #: what the winner of the opening roll plays
    PREMATURE_ROLL = "premature-roll"  #: a roll before the opponent finished his turn
    VOID_ROLL = "void-roll"  #: an invalid roll, rolled again
    SAME_CHECKER = "same-checker"  #: what must be played after a corrected illegal play
    # -- the cube
    DOUBLE = "double"  #: who may double, and when
    TAKE_OR_DROP = "take-or-drop"
    PREMATURE_DOUBLE = "premature-double"
    CUBE_LEVEL = "cube-level"  #: a double to a level other than twice the cube
    CUBE_OUT_OF_PLAY = "cube-out-of-play"  #: the deciding game of a shortened match
    CRAWFORD = "crawford"  #: the Crawford game and doubles that break it
    VOID_TAKEN_DOUBLE = "void-taken-double"
    NULLIFY_PASSED_DOUBLE = "nullify-passed-double"
    SOCIAL_DOUBLES = "social-doubles"  #: beavers, automatic doubles, the Jacoby rule
    # -- cube statements (issue 33)
    DOUBLE_STATEMENT = "double-statement"  #: "I am going to double" binds him to double
    PASS_STATEMENT = "pass-statement"  #: "I would pass" binds him to pass the next double
    # -- the end of a game or a match
    RESIGNATION = "resignation"
    MATCH_OVER = "match-over"  #: who has won, and that nothing is played after it
    # -- corrections and rulings
    ILLEGAL_PLAY = "illegal-play"
    ILLEGAL_PLAY_OF_DICE = "illegal-play-of-dice"  #: an illegal play that gets the dice wrong
    UNRELATED_TO_DICE = "unrelated-to-dice"  #: an illegal play unrelated to the dice
    IMPOSSIBLE_POSITION = "impossible-position"
    SETUP_ERROR = "setup-error"
    APPEAL = "appeal"  #: a ruling committee's decision on a director's ruling
    COMPLETED_MATCH = "completed-match"  #: a match played to the wrong length stands
    LONGER_LENGTH = "longer-length"  #: the correct length is longer
    SHORTER_LENGTH = "shorter-length"  #: the correct length is shorter
    SCORE = "score"  #: the score sheet and scoring disputes
    RESULT = "result"  #: a wrongly posted result
    # -- breaks and lateness
    BREAK = "break"
    BREAK_EXCEPTION = "break-exception"  #: the director's exception to the allowance
    PENALTY_POINTS = "penalty-points"  #: lateness and other breaches of times and breaks
    # -- the game clock
    CLOCK_SETTING = "clock-setting"  #: the clock and its settings at the start
    CLOCK_TIME_CONTROL = "clock-time-control"  #: a clock for a match under way
    CLOCK_REPLACED = "clock-replaced"  #: a faulty clock replaced, its times set
    CLOCK_ERRORS = "clock-errors"  #: errors in clock management
    CLOCK_STOP = "clock-stop"  #: when the clock may stop
    STOP_GAME_OVER = "stop-game-over"  #: the clock stops: a game ended
    STOP_BREAK = "stop-break"  #: a break
    STOP_DIE_FELL = "stop-die-fell"  #: a die fell on the floor
    STOP_DISPUTE = "stop-dispute"  #: a dispute, or the director called
    STOP_EARLY_PICKUP = "stop-early-pickup"  #: the dice picked up before the turn ended
    STOP_DICE_PICKED_UP = "stop-dice-picked-up"  #: the dice picked up with the hit
    STOP_ILLEGAL_MOVE = "stop-illegal-move"  #: an illegal move pointed out
    STOP_OUTCOME_CERTAIN = "stop-outcome-certain"  #: the game's outcome no longer in doubt
    OPENING_HIT = "opening-hit"  #: who starts the clock after the opening roll
    TURN_END = "turn-end"  #: a turn ends with a hit of the clock
    MISSED_HIT = "missed-hit"  #: a player never hit the clock to end his turn
    DICE_PICKED_UP_WITH_HIT = "dice-picked-up-with-hit"
    PICKUP_RESTORED = "pickup-restored"  #: reserve lost to dice picked up with a hit
    REPLAY_ON_OWN_TIME = "replay-on-own-time"  #: after a revert, the offender replays on his time
    EARLY_PICKUP = "early-pickup"  #: the dice picked up before the opponent hit
    DELAY_FORFEITED = "delay-forfeited"  #: the sanction of an early pick-up on a Bronstein clock
    TIME_EXPIRED = "time-expired"


@dataclass(frozen=True, slots=True)
class Decisions:
    """The rule each :class:`Decision` is taken under: one :class:`Citation` a decision.

    :raises ValueError: if a decision is missing, named twice, or cited to no rule.
    """

    cited: tuple[tuple[Decision, Citation], ...]

    def __post_init__(self) -> None:
        named = [decision for decision, _ in self.cited]
        missing = [decision.value for decision in Decision if decision not in named]
        if missing or len(named) != len(set(named)):
            raise ValueError(f"each decision cited once; missing: {', '.join(missing) or '-'}")
        unruled = [decision.value for decision, citation in self.cited if citation.rule is None]
        if unruled:
            raise ValueError(f"decisions cited to no rule: {', '.join(unruled)}")

    def __getitem__(self, decision: Decision) -> Citation:
        """The citation of ``decision`` (a :class:`Decision` or its value).

        :raises KeyError: for a value no decision has.
        """
        for named, citation in self.cited:
            if named == decision:
                return citation
        raise KeyError(decision)

    def replacing(self, changes: Mapping[Decision, Citation]) -> Decisions:
        """These citations with ``changes`` in place of theirs (a profile based on another)."""
        return Decisions(tuple((d, changes.get(d, citation)) for d, citation in self.cited))


class Party(StrEnum):
    """Who may raise a correction."""

    PLAYER = "player"  #: the player who made the irregular play or action
    OPPONENT = "opponent"
    DIRECTOR = "director"
    STAFF = "staff"  #: another tournament staff member
    MONITOR = "monitor"  #: transcriber or monitor, only where the players agreed


class Subject(StrEnum):
    """What a correction puts right."""

    ILLEGAL_PLAY = "illegal-play"
    PLAY_UNRELATED_TO_DICE = "play-unrelated-to-dice"
    IMPOSSIBLE_POSITION = "impossible-position"
    STARTING_POSITION = "starting-position"
    INVALID_DOUBLE_TAKEN = "invalid-double-taken"
    INVALID_DOUBLE_TAKEN_MATCH_ENDED = "invalid-double-taken-match-ended"
    INVALID_DOUBLE_PASSED = "invalid-double-passed"
    INVALID_DOUBLE_PASSED_MATCH_ENDED = "invalid-double-passed-match-ended"
    CLOCK_NOT_ACTIVATED = "clock-not-activated"
    INVALID_CONCESSION = "invalid-concession"
    INVALID_CONCESSION_MATCH_ENDED = "invalid-concession-match-ended"
    MATCH_LENGTH = "match-length"
    SCORE = "score"
    RESULT = "result"


class Window(StrEnum):
    """Until when a correction may be made (the event that closes the window)."""

    BEFORE_OPPONENT_ROLLS = "before-opponent-rolls"
    BEFORE_OFFENDER_ROLLS_AGAIN = "before-offender-rolls-again"
    CONDONED_BY_OPPONENT_ROLL_OR_CUBE = "condoned-by-opponent-roll-or-cube"
    ANY_TIME = "any-time"
    DIRECTOR_APPROVAL = "director-approval"
    BEFORE_NON_STARTER_SECOND_TURN_ENDS = "before-non-starter-second-turn-ends"
    BEFORE_FIFTH_ROLL = "before-fifth-roll"
    BEFORE_NEXT_GAME_STARTS = "before-next-game-starts"
    BEFORE_MATCH_ENDS = "before-match-ends"
    BEFORE_NEXT_MATCH_STARTS = "before-next-match-starts"


class Remedy(StrEnum):
    """What the correction does."""

    SAME_DICE_NEW_LEGAL_PLAY = "same-dice-new-legal-play"
    UNDO_IMPROPER_MOVEMENTS = "undo-improper-movements"
    SAME_CHECKER = "same-checker"
    DIRECTOR_DECIDES = "director-decides"
    CORRECT_SETUP = "correct-setup"
    VOID_DOUBLE = "void-double"
    RESUME_GAME_AT_DOUBLE = "resume-game-at-double"
    RESUME_GAME_AT_CONCESSION = "resume-game-at-concession"
    NULLIFY_LATER_ACTIONS = "nullify-later-actions"
    LENGTH_FROM_NEXT_GAME = "length-from-next-game"
    CORRECT_SCORE = "correct-score"
    CORRECT_POSTED_RESULT = "correct-posted-result"


class PrematureRoll(StrEnum):
    """What happens to a roll made before the opponent finished his turn."""

    OPPONENT_MAY_REFUSE = "opponent-may-refuse"
    STANDS = "stands"


class EarlyPickup(StrEnum):
    """Sanction for picking up the dice before the opponent hit the clock."""

    WARNING_THEN_RESERVE_PENALTY = "warning-then-reserve-penalty"
    DELAY_FORFEITED = "delay-forfeited"


class ForgottenHit(StrEnum):
    """What the ledger does with a roll or double made while the opponent's time still runs.

    The opponent played but his hit of the clock was never recorded: either
    he never hit (a clock error) or the scorekeeper missed it.
    """

    REFUSE_ROLL = "refuse-roll"  #: refused: record the hit first, or the roll is void
    IMPLIED_HIT = "implied-hit"  #: the hit is recorded as implied by the roll, flagged


class ClockKind(StrEnum):
    """The clock a match declares (``--clock``)."""

    NONE = "none"
    SIMPLE_DELAY = "simple-delay"
    BRONSTEIN = "bronstein"


@dataclass(frozen=True, slots=True)
class CorrectionRule:
    """One way of putting an irregularity right, and until when.

    Several rules may cover one subject (USBGF 4.2.3(a) and (f)); a correction
    is in time if any of them is still open.
    """

    subjects: tuple[Subject, ...]
    window: Cited[Window]
    raised_by: Cited[frozenset[Party]]
    remedy: Cited[Remedy]


@dataclass(frozen=True, slots=True)
class CubeRules:
    """Crawford rule and the doubles a tournament forbids."""

    crawford: Cited[bool]
    post_crawford_cube: Cited[bool]
    crawford_gammons_count: Cited[bool]
    crawford_double_void: Cited[bool]
    dead_cube_double_void: Cited[bool]
    social_doubles_allowed: Cited[bool]
    premature_double_stands: Cited[bool]
    wrong_level_adjusted: Cited[bool]
    match_may_end_on_pass: Cited[bool]
    # -- cube statements (issue 33)
    double_statement_binds: Cited[bool]
    """Whether "I am going to double" binds the player to double at his first legal
    opportunity (USBGF 4.4.3)."""
    pass_statement_binds: Cited[bool]
    """Whether "I would pass" binds the player to pass a double his opponent makes at the
    opponent's next legal opportunity (USBGF 4.4.4)."""


@dataclass(frozen=True, slots=True)
class PlayRules:
    """Checker play: whether illegal plays can happen, touch-move, condonation."""

    illegal_plays_possible: Cited[bool]
    opponent_may_condone: Cited[bool]
    touch_move: Cited[bool]


@dataclass(frozen=True, slots=True)
class VoidReason:
    """A reason a ``RollVoided`` event may name (``code``) and its rule."""

    code: str
    cite: Citation


def void_reason(code: str, rule: str, quote: str, note: str = "") -> VoidReason:
    """Shorthand for a :class:`VoidReason` cited to ``rule`` with ``quote``."""
    return VoidReason(code, Citation(rule=rule, quote=quote, note=note))


@dataclass(frozen=True, slots=True)
class RollRules:
    """Valid rolls and premature rolls."""

    void_reasons: tuple[VoidReason, ...]
    come_to_rest_seconds: Cited[int | None]
    premature_roll: Cited[PrematureRoll]
    opening_rethrow: Cited[bool] = Cited(
        value=False,
        rule=None,
        note="The winner of the opening roll plays the two dice thrown (the basic rules).",
    )
    """Whether the higher thrower of the opening roll throws again with two dice unless
    both players agree that he plays the single dice (CLASSIC 4)."""

    def void_reason(self, code: str) -> VoidReason | None:
        """The reason with this ``code``, or ``None`` if the profile has none."""
        return next((reason for reason in self.void_reasons if reason.code == code), None)


@dataclass(frozen=True, slots=True)
class ResignationRules:
    """When a game may be conceded (single, gammon or backgammon)."""

    non_contact_only: Cited[bool]
    levels: Cited[tuple[str, ...]]
    accept_despite_better_rolls: Cited[bool]


@dataclass(frozen=True, slots=True)
class BreakBand:
    """Breaks per player for match lengths ``shortest`` to ``longest``."""

    shortest: int
    longest: int | None
    breaks: int
    cite: Citation


@dataclass(frozen=True, slots=True)
class BreakRules:
    """Break allotments (USBGF 2.2.2)."""

    minutes_each: Cited[int]
    bands: tuple[BreakBand, ...]
    during_game_allowed: Cited[bool]
    consecutive_allowed: Cited[bool]
    uncovered_lengths: Citation

    def breaks_for(self, length: int) -> int:
        """Breaks each player may take in a match of ``length`` points.

        A length no band names (10 and 14 under USBGF 2.2.2) gets the band
        below it: a match earns the next allotment only from that band's
        shortest length (see :attr:`uncovered_lengths`).
        """
        allotted = 0
        for band in sorted(self.bands, key=lambda band: band.shortest):
            if band.shortest <= length:
                allotted = band.breaks
        return allotted


@dataclass(frozen=True, slots=True)
class LatenessRules:
    """Penalty points for lateness (USBGF 2.2.4)."""

    grace_minutes: Cited[int]
    step_minutes: Cited[int]
    no_show_forfeit_over_half_length: Cited[bool]
    after_break_forfeit_at_opponent_away: Cited[bool]

    def penalty_points(self, minutes_late: int) -> int:
        """Points for a player ``minutes_late`` after the start or break end."""
        if minutes_late < self.grace_minutes.value:
            return 0
        return 1 + (minutes_late - self.grace_minutes.value) // self.step_minutes.value


@dataclass(frozen=True, slots=True)
class ClockRules:
    """Settings and sanctions of one kind of clock, times in seconds.

    ``basis`` says why the profile offers this clock at all.
    ``opening_starts_clock``: the opening roll starts the winner's time, the
    lower die's player hitting (CLOCK 3.3).  ``forgotten_hit``: what a roll or
    double on the opponent's time does (:class:`ForgottenHit`).
    """

    kind: ClockKind
    basis: Citation
    reserve_per_point: Cited[int]
    reserve_less_per_point_scored: Cited[int | None]
    reserve_per_point_to_go: Cited[int | None]
    delay: Cited[int]
    delay_range: Cited[tuple[int, int]]
    doubles_reserve_per_point: Cited[int | None]
    doubles_reserve_less_per_point_scored: Cited[int | None]
    doubles_delay: Cited[int | None]
    introduce_mid_game: Cited[bool]
    expiry_loses_match: Cited[bool]
    early_pickup: Cited[EarlyPickup]
    early_pickup_penalty_seconds: Cited[int | None]
    opening_starts_clock: Cited[bool]
    forgotten_hit: Cited[ForgottenHit]

    def reserve_seconds(self, length: int, score_a: int, score_b: int) -> int:
        """Singles reserve time per player when the clock is set at this score.

        Per point scored by either player if the rule says so (CLOCK 2.1),
        else per point still to go (USBGF 3.5.6) once the match is under way.
        """
        less = self.reserve_less_per_point_scored.value
        if less is not None:
            return self.reserve_per_point.value * length - less * (score_a + score_b)
        to_go = self.reserve_per_point_to_go.value
        if to_go is None or score_a == score_b == 0:
            return self.reserve_per_point.value * length
        return to_go * ((length - score_a) + (length - score_b))

    def doubles_reserve_seconds(self, length: int, score_a: int, score_b: int) -> int | None:
        """Doubles reserve time per team, ``None`` where the director sets it."""
        per_point = self.doubles_reserve_per_point.value
        less = self.doubles_reserve_less_per_point_scored.value
        if per_point is None or less is None:
            return None
        return per_point * length - less * (score_a + score_b)


@dataclass(frozen=True, slots=True)
class Limits:
    """The largest figures a command may give (DESIGN principle 11, "Bounded at the edge").

    No rulebook caps a director's clock setting or a combined break: these are
    the profile's conventions, each a margin over the largest figure its rules
    give, so that a figure past them is a slip (or an attack), refused before
    anything is stored.  ``reserve_per_point``: seconds of reserve time a point
    of the match's length (a clock's reserve, reading, setting or nominal time
    is at most this times the length, or ``reserve_at_least``); ``delay``:
    seconds of a clock's delay; ``breaks_at_once``: breaks a player combines
    into one; ``cube``: the highest level a cube may be turned to.
    """

    reserve_per_point: Cited[int]
    reserve_at_least: Cited[int]
    delay: Cited[int]
    breaks_at_once: Cited[int]
    cube: Cited[int]

    def longest_reserve_ms(self, length: int) -> int:
        """The most reserve time a player's clock may show in a match of ``length`` points."""
        return max(self.reserve_per_point.value * length, self.reserve_at_least.value) * 1000


@dataclass(frozen=True, slots=True)
class Profile:
    """A rulebook as data: what the ledger enforces for a match that declares it.

    ``breaks`` and ``lateness`` are ``None`` and ``clocks`` is empty where the
    rulebook has no such rules.  ``books`` are the rulebooks the profile is made of, by
    the prefix their citations carry (``USBGF``, ``ABT``, ``CLASSIC`` ...).  ``appeals``:
    whether a ruling committee may reverse the director's ruling (USBGF 5.2; not in online
    events, USBGF 6.7).  ``decisions`` cites a rule for every :class:`Decision`: commands
    and views take the rules they name from it (:meth:`cite`), never from string literals.
    """

    name: str
    summary: str
    based_on: str | None
    cube: CubeRules
    plays: PlayRules
    corrections: tuple[CorrectionRule, ...]
    rolls: RollRules
    resignations: ResignationRules
    breaks: BreakRules | None
    lateness: LatenessRules | None
    clocks: tuple[ClockRules, ...]
    appeals: Cited[bool]
    decisions: Decisions
    limits: Limits
    books: tuple[str, ...] = ("USBGF", "CLOCK")

    def own(self, citation: Citation) -> bool:
        """Whether ``citation`` is to one of the profile's own rulebooks (:attr:`books`).

        A citation to another book is one the profile inherits: its note says why.
        """
        return citation.rule is not None and citation.rule.split()[0] in self.books

    def citation(self, decision: Decision) -> Citation:
        """The rule ``decision`` is taken under, with its words."""
        return self.decisions[decision]

    def cite(self, decision: Decision) -> str:
        """The rule ``decision`` is taken under, as refusals and events name it.

        >>> from bgledger.rules.profiles import get_profile
        >>> get_profile("usbgf-2016").cite(Decision.PREMATURE_ROLL)
        'USBGF 4.1.7.1'
        """
        rule = self.decisions[decision].rule
        assert rule is not None  # Decisions refuses a decision cited to no rule
        return rule

    def corrections_for(self, subject: Subject) -> tuple[CorrectionRule, ...]:
        """The correction rules covering ``subject`` (empty: it cannot be corrected)."""
        return tuple(rule for rule in self.corrections if subject in rule.subjects)

    def clock(self, kind: ClockKind | str) -> ClockRules | None:
        """The rules of clock ``kind``, ``None`` for ``none`` or a clock the book lacks."""
        return next((clock for clock in self.clocks if clock.kind == kind), None)

    def citations(self) -> tuple[Citation, ...]:
        """Every citation in the profile, in field order (for audits and tests)."""
        return tuple(iter_citations(self))
