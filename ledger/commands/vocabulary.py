"""The vocabulary of commands: one frozen value per verb, the one table every adapter reads.

A command is a value (DESIGN principle 10), as a ``chess.Move`` is: it is read
from a line of the record language (:func:`parse`), prints itself back as one
(``str(parse(line))`` reads again to the same value), says which role may
issue it (:attr:`Command.ruler`), carries its help (``usage``, ``example``,
``summary``) and runs on the match (:meth:`Command.run`).  The record language,
the command line's one-shots, the console, the pad, the director's picker,
``amend`` and the JSON recheck all build these values; the front door records
them (:meth:`bgledger.Ledger.record`).  A verb is added here, once.

    >>> parse("52: 13/8 13/11")
    RollMove(die1=5, die2=2, play='13/8 13/11')
    >>> str(parse("roll 64"))
    'roll 6 4'
    >>> parse("amend 12 penalty a 1 'USBGF 2.2.4' slow play").ruler
    'director'
    >>> str(Revert(6, reason="both agreed", agreed=True))
    'revert 6 --agreed --reason both agreed'

The lexical rules of a line (``@TIME``, comments, the longest line) are
:mod:`bgledger.commands.language`'s.
"""

from __future__ import annotations

import difflib
import functools
import re
import shlex
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar

from bgledger import events as ev
from bgledger.commands import clock
from bgledger.commands.language import (
    MAX_LINE,
    InvalidActionError,
    InvalidTimeActionError,
    without_comment,
)
from bgledger.commands.match import Match
from bgledger.commands.rulings import RULERS, Ruling
from bgledger.events import (
    ClockSet,
    ClockStopped,
    MatchEvent,
    PenaltyPointsAssessed,
    ReserveTimePenalized,
    ReserveTimeRestored,
    RulingMade,
)
from bgledger.projections.state.clock import REASONS
from bgledger.rules.errors import RulesError
from bgledger.rules.legal import read_dice
from bgledger.rules.profiles import Decision
from bgledger.rules.results import GameResult

__all__ = [
    "FOLLOWING",
    "MAX_LINE",
    "NOTE_ROLES",
    "RULES",
    "VOCABULARY",
    "Accept",
    "AcceptRoll",
    "Amend",
    "Announce",
    "AutomaticDouble",
    "Beaver",
    "BreakEnd",
    "BreakStart",
    "Call",
    "ClockRead",
    "ClockResume",
    "ClockSetting",
    "ClockStart",
    "ClockStop",
    "Command",
    "CorrectCall",
    "CorrectCube",
    "CorrectLength",
    "CorrectScore",
    "CorrectSetup",
    "Double",
    "Drop",
    "EarlyPickup",
    "EventRuling",
    "Flag",
    "Hit",
    "Interfered",
    "InvalidActionError",
    "Jadoube",
    "Late",
    "MissedHit",
    "Move",
    "MustAccept",
    "Note",
    "NullifyPass",
    "Opening",
    "Option",
    "Overturn",
    "Penalty",
    "PickupWithHit",
    "PlaySingles",
    "RefuseRoll",
    "Reject",
    "Resign",
    "Revert",
    "Roll",
    "RollMove",
    "RulingNote",
    "Setup",
    "Take",
    "Touch",
    "Undo",
    "VoidConcession",
    "VoidCube",
    "VoidRoll",
    "parse",
    "ruler_of_events",
    "said_line",
    "verbs",
    "without_comment",
]

FOLLOWING: tuple[type[MatchEvent], ...] = (
    ev.GameWon, ev.MatchWon, ev.GameStarted, ev.TimeExpired, ev.ClockHitImplied,
    ev.ClockRestored, ev.ReserveTimeRestored,
)  # fmt: skip
"""What a line may record besides its own kinds (:attr:`Command.recorded`): what follows
from them by the rules (a game won, the next game, a reserve expired, the hit a late action
implies, a clock or reserve a ruling restores)."""

PICKUP_REASON = "picked up the dice before the opponent hit the clock"
"""Why an early pick-up is sanctioned, unless the director says otherwise (USBGF 4.1.7.2)."""

_SHORTHAND = re.compile(r"([1-6])([1-6]):(.*)")
_RANK = {"": 0, "players": 0, "director": 1, "committee": 2}
"""Who outranks whom: a line the director may issue, the committee may too."""


# -- the words of a line ----------------------------------------------------------------------


@dataclass(slots=True)
class Words:
    """A line being read: its text (for messages) and the words after the verb."""

    line: str
    rest: list[str]

    def flag(self, name: str) -> bool:
        """Whether ``name`` (``--as-played``) is among the words; it is taken out."""
        if name in self.rest:
            self.rest = [word for word in self.rest if word != name]
            return True
        return False

    def reason(self, required: bool, usage: str) -> str:
        """``--reason TEXT``: the rest of the line (quotes and apostrophes kept)."""
        if "--reason" not in self.rest:
            if required:
                raise InvalidActionError(f"{self.line!r}: give --reason and its words: {usage!r}")
            return ""
        cut = self.rest.index("--reason")
        self.rest, reason = self.rest[:cut], " ".join(self.rest[cut + 1 :])
        if not reason:
            raise InvalidActionError(f"{self.line!r}: --reason needs the reason's words: {usage!r}")
        return reason

    def option(self, name: str, usage: str) -> str | None:
        """``NAME VALUE`` (``--rule "USBGF 4.2.3(f)"``, quotes respected), taken out.

        Read as a shell reads it: a name quoted or escaped into a word (``\\ --rule``)
        is that word, not the option."""
        if name not in self.rest:
            return None
        self.rest = list(self.quoted())
        if name not in self.rest:
            return None
        at = self.rest.index(name)
        if at + 1 >= len(self.rest):
            raise InvalidActionError(f"{self.line!r}: {name} needs a value: {usage!r}")
        value = self.rest[at + 1]
        del self.rest[at : at + 2]
        return value

    def quoted(self) -> tuple[str, ...]:
        """The words read as a shell does (``"USBGF 1.2.3"`` one word)."""
        try:
            return tuple(shlex.split(" ".join(self.rest)))
        except ValueError as error:
            raise InvalidActionError(f"{self.line!r}: {error}") from None

    def count(self, expected: int, usage: str) -> list[str]:
        """Exactly ``expected`` words, else the usage."""
        if len(self.rest) != expected:
            verb, words = usage.split()[0], "word" if expected == 1 else "words"
            raise InvalidActionError(
                f"{self.line!r}: write {usage!r} ({expected} {words} after {verb}, "
                f"{len(self.rest)} given)"
            )
        return self.rest


def _die(word: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise InvalidActionError(f"die {word!r} is not a number 1-6")
    return int(word)


def _player(word: str) -> str:
    if word.lower() not in ("a", "b"):
        raise InvalidTimeActionError(f"player {word!r}: a or b")
    return word.lower()


def _number(word: str, what: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise InvalidActionError(f"{what} {word!r}: a whole number")
    return int(word)


def _quote(text: str) -> str:
    """``text`` as one word of a line (quoted when it has spaces)."""
    return shlex.quote(text) if not text or any(c in text for c in " '\"#\\") else text


def _clock_words(ms: int) -> str:
    """``ms`` as :func:`~bgledger.commands.clock.parse_clock` reads it (``9:32``, ``0:04.5``)."""
    seconds, fraction = divmod(ms, 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
    return text + (f".{fraction:03d}".rstrip("0") if fraction else "")


def _figures(words: Sequence[str]) -> tuple[int, int]:
    given = dict(word.split("=", 1) for word in words if "=" in word)
    if set(given) != {"a", "b"} or len(words) != 2:
        raise InvalidTimeActionError(f"{' '.join(words)!r}: give both figures, a=M:SS b=M:SS")
    return clock.parse_clock(given["a"]), clock.parse_clock(given["b"])


def _pairs(words: list[str], names: tuple[str, ...], usage: str) -> dict[str, str]:
    """``name value`` pairs; the last name may take the rest of the line."""
    found: dict[str, str] = {}
    while words:
        name = words.pop(0).lower()
        if name not in names or not words:
            raise InvalidTimeActionError(
                f"{name!r}: expected one of {', '.join(names)} VALUE ({usage})"
            )
        found[name] = " ".join(words) if name == names[-1] else words.pop(0)
        if name == names[-1]:
            break
    return found


# -- the command line of a verb ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a verb on the command line (``--reserve M:SS``) and how its line says it.

    ``bgledger VERB MATCH WORDS... --OPTION VALUE`` is the line ``VERB WORDS...`` with each
    option given said as ``said`` says (``"reserve {}"``: the value in place of ``{}``; a flag
    is ``said`` alone), in the order the verb lists its options.  ``metavar`` ``""``: a flag.
    ``quoted``: the value is one word of the line (quoted when it has spaces).
    """

    name: str
    help: str
    metavar: str = ""
    said: str = ""
    required: bool = False
    quoted: bool = False

    def say(self, value: str | bool) -> str:
        """The line's words for this option given ``value``."""
        if not self.metavar:
            return self.said or self.name
        text = _quote(str(value)) if self.quoted else str(value)
        return (self.said or f"{self.name} {{}}").replace("{}", text)


AS_PLAYED = Option(
    "--as-played", "It was done at the board: record it even though the rules forbid it, flagged."
)
PREMATURE = Option(
    "--premature",
    "Done by the player not on roll before the mover moved (USBGF 4.1.7.1, 4.4.7).",
)
RULED_BY = Option("--ruled-by", "Who ruled: director, committee or players.", "WHO")
REASON = Option("--reason", "Why, in the ruler's words.", "TEXT")


def said_line(kind: type[Command], words: Sequence[str], given: dict[str, Any]) -> str:
    """The line of ``bgledger VERB MATCH WORDS... OPTIONS``: the verb, the words (as given, or
    each quoted when the verb reads its words as a shell does), then each option given
    (``given``: by option name; ``None`` or ``False``: not given), as :class:`Option` says."""
    said = [kind.verb, *(_quote(word) if kind.shell_words else word for word in words)]
    for option in kind.options:
        value = given.get(option.name)
        if value is not None and value is not False and value != "":
            said.append(option.say(value))
    return " ".join(said)


# -- the command --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """One command of the ledger: what a line says, as a value.

    ``at`` is when it happened (``@TIME``); ``None``: when it is recorded.
    Subclasses give ``verb``, ``usage``, ``example`` and ``summary`` (the help,
    once), ``ruler`` (who must issue it: ``""`` anyone recording the match, or
    ``director``, ``committee``), and read and run themselves.
    """

    verb: ClassVar[str] = ""
    usage: ClassVar[str] = ""
    example: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    needs_history: ClassVar[bool] = False
    """Whether it decides on the match's events so far (a ruling, a correction)."""
    reads_history: ClassVar[bool] = False
    """Whether it reads the match's events so far though no ruling or correction (what
    happened at the table, which ``amend`` may put in a mis-entered entry's place)."""
    decision: ClassVar[Decision | None] = None
    """The decision whose rule makes it the director's (penalty points: USBGF 2.2.4)."""
    records: ClassVar[tuple[type[MatchEvent], ...]] = ()
    """The events only this command records: an entry made of one is its ruler's act."""
    recorded: ClassVar[tuple[type[MatchEvent], ...]] = ()
    """The kinds of event its line records, besides what follows from them (:data:`FOLLOWING`:
    a game or the match won, a new game, a reserve expired, an implied hit)."""
    options: ClassVar[tuple[Option, ...]] = ()
    """Its options on the command line (``--as-played``), each said in the line as it says."""
    details: ClassVar[str] = ""
    """More help than the summary, for ``bgledger VERB --help`` and the command reference."""
    button: ClassVar[str] = ""
    """The pad's button for the verb's line alone (``Take``), where a refusal's next step names
    it (:mod:`bgledger.web.steps`); ``""``: the pad taps it otherwise (dice, a play)."""
    shell_words: ClassVar[bool] = False
    """Whether it reads its words as a shell does (``'USBGF 2.2.4'`` one word): the command
    line then quotes each of its words that has spaces."""

    at: str | None = field(default=None, kw_only=True)

    @property
    def ruler(self) -> str:
        """Who must issue it: ``""`` (the scorekeeper, or anyone above), ``director``,
        ``committee``."""
        return "director" if self.decision is not None else ""

    def words(self) -> str:
        """The line without its ``@TIME``."""
        return self.verb

    def __str__(self) -> str:
        return f"@{self.at} {self.words()}" if self.at else self.words()

    def timed(self, at: str | None) -> Command:
        """The command at ``at``, unless it gives its own time."""
        return self if self.at is not None or at is None else replace(self, at=at)

    def said_as(self, role: str) -> Command:
        """The command as a token of ``role`` issues it (:meth:`bgledger.Ledger.record`): the
        same, but for what keeps whose it is (a note, :meth:`Note.said_as`)."""
        return self

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        """Record it on ``match`` (by ``by``); ``history``: the match's events so far, for
        the commands that decide on them.  Returns what the match's command returned.

        :raises RulesError: for input that describes nothing.
        :raises ActionRefusedError: when the match refuses it (the rule is cited).
        """
        raise NotImplementedError

    def perform(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        """:meth:`run`, the entry's first event keeping the line (:meth:`words`, DESIGN
        principle 12: the event's ``at`` is its time).  The way every line is recorded, and
        decided again (``amend``, ``undo``'s grouping, the JSON copy's import).

        :raises RulesError, ActionRefusedError: as :meth:`run`.
        """
        with match.saying(self.words()):
            return self.run(match, by, history)

    def _history(self, history: Sequence[MatchEvent] | None) -> Sequence[MatchEvent]:
        if history is None:
            raise InvalidActionError(f"{str(self)!r} decides on the match's events: record it")
        return history

    @classmethod
    def line_of(cls, words: Sequence[str], given: dict[str, Any]) -> str:
        """The line ``bgledger VERB MATCH WORDS... OPTIONS`` records (:func:`said_line`).

        :raises InvalidActionError: for options that make no line together.
        """
        return said_line(cls, words, given)

    @classmethod
    def read(cls, words: Words) -> Command:
        """The command of ``words`` (the verb already read).

        :raises InvalidActionError: for missing, extra or malformed arguments.
        """
        words.count(0, cls.usage)
        return cls()


# -- the game -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Opening(Command):
    verb = "opening"
    usage = "opening DA DB"
    recorded = (ev.OpeningRollMade, ev.ClockHit)
    example = "opening 3 1"
    summary = "the opening roll: a's die, b's die (a tie is recorded: roll again)"

    die_a: int
    die_b: int

    def words(self) -> str:
        return f"opening {self.die_a} {self.die_b}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.opening(self.die_a, self.die_b, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        a, b = words.count(2, cls.usage)
        return cls(_die(a), _die(b))


@dataclass(frozen=True, slots=True)
class PlaySingles(Command):
    verb = "play-singles"
    button = "Play the single dice"
    usage = "play-singles"
    recorded = (ev.SingleDiceAgreed,)
    example = "play-singles"
    summary = (
        "both players agree that the winner of the opening roll plays the two single dice "
        "instead of throwing again with two dice (CLASSIC 4)"
    )

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.play_singles(by=by, at=self.at)


@dataclass(frozen=True, slots=True)
class Roll(Command):
    verb = "roll"
    usage = "roll D D [--as-played] [--premature]"
    recorded = (ev.DiceRolled, ev.CheckersPlayed, ev.PrematureRollMade, ev.PrematureRollAccepted)
    options = (AS_PLAYED, PREMATURE)
    details = (
        "With --premature, the opponent rolled before the mover moved: the mover then accepts "
        "or refuses the roll (accept-roll, refuse-roll; it stands at once where premature rolls "
        "stand, ABT 4.6).  With --as-played, a roll made on the opponent's time (his hit never "
        "made) is recorded as made, for the director.  An unplayable roll is a dance."
    )
    example = "roll 6 4"
    summary = (
        "the player on roll rolled (or 'roll 64'); --premature: the opponent rolled before "
        "he moved (USBGF 4.1.7.1); --as-played: on the opponent's time"
    )

    die1: int
    die2: int
    as_played: bool = False
    premature: bool = False

    def words(self) -> str:
        text = f"roll {self.die1} {self.die2}"
        return text + " --as-played" * self.as_played + " --premature" * self.premature

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        if self.premature:
            return match.roll_early(self.die1, self.die2, by=by, at=self.at)
        return match.roll(self.die1, self.die2, as_played=self.as_played, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        as_played, premature = words.flag("--as-played"), words.flag("--premature")
        if len(words.rest) == 1 and len(words.rest[0]) == 2:
            one, two = read_dice(words.rest)  # 'roll 64': six-four
            return cls(one, two, as_played, premature)
        a, b = words.count(2, "roll D D")
        return cls(_die(a), _die(b), as_played, premature)


@dataclass(frozen=True, slots=True)
class RollMove(Command):
    verb = "52:"
    usage = "DD: PLAY [--as-played]"
    recorded = (ev.DiceRolled, ev.CheckersPlayed)
    options = (AS_PLAYED,)
    example = "52: 13/8 13/11"
    summary = "the .mat shorthand: the roll and its play ('52:' alone is the roll)"

    die1: int
    die2: int
    play: str
    as_played: bool = False

    def words(self) -> str:
        return f"{self.die1}{self.die2}: {self.play}" + " --as-played" * self.as_played

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        # The play written is judged as the play of the roll: the roll records no dance of its
        # own unless the line says there was one ('52: cannot move'), so a play written for a
        # roll that could not be played is refused as one, or recorded flagged --as-played.
        dance = self.play.lower() in ("cannot move", "can't move")
        with match.atomic():  # '52: 13/x' refused records no roll either
            danced = match.roll(self.die1, self.die2, auto_dance=dance, by=by, at=self.at)
            if not danced:
                match.move(self.play, as_played=self.as_played, by=by, at=self.at)
        return danced


@dataclass(frozen=True, slots=True)
class Move(Command):
    verb = "move"
    usage = "move PLAY [--as-played]"
    recorded = (ev.CheckersPlayed,)
    options = (AS_PLAYED,)
    example = "move 13/8 13/11"
    summary = (
        "the player on roll played; --as-played records a play the rules refuse, flagged "
        "(USBGF 4.2.3(a))"
    )

    play: str
    as_played: bool = False

    def words(self) -> str:
        return f"move {self.play}" + " --as-played" * self.as_played

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.move(self.play, as_played=self.as_played, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        as_played = words.flag("--as-played")
        if "--premature" in words.rest:  # only a roll or a double is made early (USBGF 4.1.7.1)
            raise InvalidActionError(f"{words.line!r}: --premature goes with roll and double")
        if not words.rest:
            raise InvalidActionError(f"{words.line!r}: move needs a play, e.g. 'move 13/8 13/11'")
        return cls(" ".join(words.rest), as_played)


@dataclass(frozen=True, slots=True)
class VoidRoll(Command):
    verb = "void-roll"
    usage = "void-roll REASON"
    recorded = (ev.RollVoided,)
    example = "void-roll cocked"
    summary = "the last roll was invalid: cocked, wrong-side, die-on-die ... (USBGF 4.1.4)"

    reason: str

    def words(self) -> str:
        return f"void-roll {self.reason}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.void_roll(self.reason, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        if len(words.rest) != 1:
            raise InvalidActionError(f"{words.line!r}: 'void-roll REASON', e.g. 'void-roll cocked'")
        return cls(words.rest[0])


@dataclass(frozen=True, slots=True)
class Setup(Command):
    verb = "setup"
    usage = "setup POSITION"
    recorded = (ev.StartingPositionRecorded,)
    example = "setup 4HPwATDga/ABMA"
    summary = "the game began from this gnubg position, not the standard one (USBGF 4.2.4)"

    position: str

    def words(self) -> str:
        return f"setup {self.position}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.record_setup(self.position, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        (position,) = words.count(1, cls.usage)
        return cls(position)


@dataclass(frozen=True, slots=True)
class Double(Command):
    verb = "double"
    button = "Double"
    usage = "double [--to N] [--as-played] [--premature]"
    recorded = (ev.CubeOffered, ev.PrematureDoubleMade)
    options = (
        Option("--to", "The level offered, when not twice the cube (USBGF 4.4.8).", "N"),
        PREMATURE,
        AS_PLAYED,
    )
    details = (
        "With --premature, the player not on roll doubled before the mover moved: the double "
        "stands if otherwise valid (USBGF 4.4.7); the mover takes or drops once he has moved."
    )
    example = "double"
    summary = (
        "the player on roll doubles (USBGF 4.4.2); --to a wrong level (4.4.8); --premature: "
        "the opponent doubled before the play was made (4.4.7)"
    )

    to: int | None = None
    as_played: bool = False
    premature: bool = False

    def words(self) -> str:
        text = "double" + (f" --to {self.to}" if self.to is not None else "")
        return text + " --as-played" * self.as_played + " --premature" * self.premature

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        offer = match.double_early if self.premature else match.double
        return offer(to=self.to, as_played=self.as_played, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        as_played, premature = words.flag("--as-played"), words.flag("--premature")
        to = words.option("--to", cls.usage)
        words.count(0, cls.usage)
        return cls(None if to is None else _number(to, "--to"), as_played, premature)


@dataclass(frozen=True, slots=True)
class _SocialDouble(Command):
    as_played: bool = False

    def words(self) -> str:
        return self.verb + " --as-played" * self.as_played

    @classmethod
    def read(cls, words: Words) -> Command:
        as_played = words.flag("--as-played")
        words.count(0, cls.usage)
        return cls(as_played)


@dataclass(frozen=True, slots=True)
class Beaver(_SocialDouble):
    verb = "beaver"
    usage = "beaver --as-played"
    recorded = (ev.SocialDoubleMade, ev.CubeTaken)
    options = (AS_PLAYED,)
    example = "beaver --as-played"
    summary = "the doubled player took and redoubled at once: not in tournaments (USBGF 4.4.10)"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.beaver(as_played=self.as_played, by=by, at=self.at)


@dataclass(frozen=True, slots=True)
class AutomaticDouble(_SocialDouble):
    verb = "automatic-double"
    usage = "automatic-double --as-played"
    recorded = (ev.SocialDoubleMade,)
    options = (AS_PLAYED,)
    example = "automatic-double --as-played"
    summary = "the opening roll tied and the cube was turned: not in tournaments (USBGF 4.4.10)"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.automatic_double(as_played=self.as_played, by=by, at=self.at)


@dataclass(frozen=True, slots=True)
class Take(Command):
    verb = "take"
    button = "Take"
    usage = "take [--as-played]"
    recorded = (ev.CubeTaken,)
    options = (AS_PLAYED,)
    details = (
        "Recorded while the doubler's time still runs (his hit after doubling missing, USBGF "
        "4.4.3): refused or his hit implied, as the profile says; --as-played records it as made."
    )
    example = "take"
    summary = "the doubled player takes: he owns the cube (USBGF 4.4.4)"

    as_played: bool = False

    def words(self) -> str:
        return "take" + " --as-played" * self.as_played

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.take(as_played=self.as_played, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        as_played = words.flag("--as-played")
        words.count(0, cls.usage)
        return cls(as_played)


@dataclass(frozen=True, slots=True)
class Drop(Command):
    verb = "drop"
    button = "Drop"
    usage = "drop [--as-played]"
    recorded = (ev.CubeDropped,)
    options = (AS_PLAYED,)
    details = Take.details
    example = "drop"
    summary = "the doubled player passes: the game is lost at the cube's value (USBGF 4.4.4)"

    as_played: bool = False

    def words(self) -> str:
        return "drop" + " --as-played" * self.as_played

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.drop(as_played=self.as_played, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        as_played = words.flag("--as-played")
        words.count(0, cls.usage)
        return cls(as_played)


@dataclass(frozen=True, slots=True)
class Resign(Command):
    verb = "resign"
    usage = "resign single|gammon|backgammon [a|b] [--as-played]"
    recorded = (ev.ResignationOffered,)
    options = (
        Option("--player", "Who resigns, a or b (default: the player on roll).", "a|b", "{}"),
        AS_PLAYED,
    )
    example = "resign gammon"
    summary = "the player on roll (or a|b) offers to concede the game at that level (USBGF 4.5)"

    level: str
    player: str | None = None
    as_played: bool = False

    def words(self) -> str:
        who = f" {self.player}" if self.player else ""
        return f"resign {self.level}{who}" + " --as-played" * self.as_played

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.resign(
            self.level, player=self.player, as_played=self.as_played, by=by, at=self.at
        )

    @classmethod
    def read(cls, words: Words) -> Command:
        as_played = words.flag("--as-played")
        if not 1 <= len(words.rest) <= 2:
            raise InvalidActionError(f"{words.line!r}: 'resign single|gammon|backgammon [a|b]'")
        player = words.rest[1].lower() if len(words.rest) > 1 else None
        try:
            GameResult.parse(words.rest[0])  # a level that is none is refused with the line
        except RulesError as error:
            error.args = (f"{words.line!r}: {error}",)
            raise
        return cls(words.rest[0], player, as_played)


@dataclass(frozen=True, slots=True)
class Accept(Command):
    verb = "accept"
    button = "Accept"
    usage = "accept"
    recorded = (ev.ResignationAccepted,)
    example = "accept"
    summary = "the concession offered is accepted (USBGF 4.5)"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.accept(by=by, at=self.at)


@dataclass(frozen=True, slots=True)
class Reject(Command):
    verb = "reject"
    button = "Reject"
    usage = "reject"
    recorded = (ev.ResignationRejected,)
    example = "reject"
    summary = "the concession offered is refused; play goes on (USBGF 4.5)"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.reject(by=by, at=self.at)


# -- issue 33 (clockrules): CLOCK 5.1, the director requires a concession's acceptance ------


CONCESSION_REQUIRED = "no outcome more favorable for the opponent can occur"
"""Why the director requires the acceptance, unless he says otherwise (CLOCK 5.1)."""


@dataclass(frozen=True, slots=True)
class MustAccept(Command):
    verb = "must-accept"
    usage = "must-accept [--ruled-by WHO] [--reason TEXT]"
    recorded = (ev.ConcessionAcceptanceRequired, ev.ResignationAccepted)
    options = (RULED_BY, Option("--reason", "Why.", "TEXT"))
    details = (
        "On a clock of the 2007 clock rules the opponent who rejects a concession summons the "
        "director, who requires him to accept when no outcome more favorable for him can "
        "occur; otherwise the offer is invalid and his 'reject' restarts the player's clock."
    )
    example = "must-accept"
    summary = (
        "the director requires the concession on a clock to be accepted: nothing better can "
        "occur for the opponent (CLOCK 5.1)"
    )
    decision = Decision.CONCESSION_ON_CLOCK
    records = (ev.ConcessionAcceptanceRequired,)

    reason: str = CONCESSION_REQUIRED
    ruled_by: str = "director"

    @property
    def ruler(self) -> str:
        return "committee" if self.ruled_by == "committee" else "director"

    def words(self) -> str:
        by = f" --ruled-by {self.ruled_by}" if self.ruled_by != "director" else ""
        reason = f" --reason {self.reason}" if self.reason != CONCESSION_REQUIRED else ""
        return f"must-accept{by}{reason}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.must_accept(Ruling(self.ruled_by, self.reason, by=by, at=self.at))

    @classmethod
    def read(cls, words: Words) -> Command:
        reason = words.reason(False, cls.usage) or CONCESSION_REQUIRED
        ruled_by = _ruler(words, cls.usage) or "director"
        if words.rest:
            raise InvalidActionError(f"{words.line!r}: expected {cls.usage}")
        return cls(reason, ruled_by)


# -- end of issue 33 (clockrules) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AcceptRoll(Command):
    verb = "accept-roll"
    button = "Accept the roll"
    usage = "accept-roll"
    recorded = (ev.PrematureRollAccepted,)
    example = "accept-roll"
    summary = "the mover lets the opponent's premature roll stand (USBGF 4.1.7.1)"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.accept_roll(by=by, at=self.at)


@dataclass(frozen=True, slots=True)
class RefuseRoll(Command):
    verb = "refuse-roll"
    button = "Refuse the roll"
    usage = "refuse-roll"
    recorded = (ev.PrematureRollRefused,)
    example = "refuse-roll"
    summary = "the mover refuses the premature roll: it is rolled again (USBGF 4.1.7.1)"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.refuse_roll(by=by, at=self.at)


NOTE_ROLES = ("scorekeeper", "director", "committee")
"""Who a note may say it is of (``note --as WHO``): the roles a token is issued for
(:data:`bgledger.access.ROLES`)."""


@dataclass(frozen=True, slots=True)
class Note(Command):
    """A remark for the record, and whose it is (``role``, :data:`NOTE_ROLES`; ``""``: the line
    says no one's).  A token's note is said as its role's (:meth:`said_as`): the line it
    records says so (``note --as director TEXT``), so the event keeps it, and a JSON copy's
    import, which replays the line, keeps it too (DESIGN principle 12).  A role above the
    scorekeeper's is that role's to claim (:attr:`ruler`)."""

    verb = "note"
    usage = "note [--as WHO] TEXT"
    recorded = (ev.RemarkRecorded,)
    options = (
        Option(
            "--as",
            "Whose note it is: scorekeeper, director or committee (a token's note is said "
            "as its role's).",
            "WHO",
        ),
        Option("--rule", "The rule applied, with --ruled-by ('USBGF 4.2.3(f)').", "RULE"),
        Option(
            "--ruled-by",
            "Who ruled: a ruling noted in the rulings log (director, committee or players); "
            "without it, a remark for the record.",
            "WHO",
        ),
        Option("--agreed", "Both players agreed, with --ruled-by (USBGF 4.2.3(f))."),
    )
    example = "note Bob asked for the director"
    summary = "a remark for the record, the scorekeeper's or the director's (not a ruling)"

    text: str
    role: str = ""

    @property
    def ruler(self) -> str:
        """The director's or the committee's note is theirs to say; anyone's the scorekeeper's."""
        return self.role if self.role in _RANK else ""

    def said_as(self, role: str) -> Command:
        """Said as ``role``'s, unless the line says whose it is."""
        return self if self.role else replace(self, role=role)

    def words(self) -> str:
        return f"note --as {self.role} {self.text}" if self.role else f"note {self.text}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.remark(self.text, by=by, at=self.at, role=self.role)

    @classmethod
    def line_of(cls, words: Sequence[str], given: dict[str, Any]) -> str:
        """``note [--as WHO] TEXT``; with ``--ruled-by``, a ruling noted (:class:`RulingNote`),
        TEXT its reason."""
        text, ruled_by, role = " ".join(words), given.get("--ruled-by"), given.get("--as")
        if ruled_by and not text.strip():
            raise InvalidActionError(
                f"note {text!r} --ruled-by {ruled_by}: the ruling noted needs its TEXT"
            )
        if ruled_by and role:
            raise InvalidActionError(
                f"note --as {role} --ruled-by {ruled_by}: a ruling noted names its ruler "
                "(--ruled-by); --as says whose a remark is"
            )
        if ruled_by:
            return said_line(RulingNote, (), {**given, "--reason": text})
        if given.get("--rule") or given.get("--agreed"):
            raise InvalidActionError("--rule and --agreed go with a ruling: add --ruled-by")
        return said_line(cls, ("--as", role, *words) if role else words, {})

    @classmethod
    def read(cls, words: Words) -> Command:
        if "--ruled-by" in words.rest:  # a ruling noted, not a remark
            return RulingNote.read(words)
        rest, role = list(words.rest), ""
        if rest[:1] == ["--as"]:
            role = rest[1] if len(rest) > 1 else ""
            if role not in NOTE_ROLES:
                raise InvalidActionError(
                    f"{words.line!r}: --as {role!r}: one of {', '.join(NOTE_ROLES)}"
                )
            rest = rest[2:]
        if not rest:
            raise InvalidActionError(
                f"{words.line!r}: note needs its text, e.g. 'note Bob left the table'"
            )
        return cls(" ".join(rest), role)


# -- cube statements (issue 33: USBGF 4.4.3, 4.4.4) --------------------------------------------


@dataclass(frozen=True, slots=True)
class Announce(Command):
    """A player's binding statement about the cube, before the cube action.

    Why ``announce``: the rules speak of what a player *states*, and the scorekeeper records
    it as it is said aloud at the board, before the double or the pass it binds; ``state``
    would read as the match's state, ``say`` as any remark (``note`` is for those).
    """

    verb = "announce"
    usage = "announce double|pass a|b"
    recorded = (ev.CubeStatementMade,)
    example = "announce double b"
    summary = (
        "a player said 'I am going to double' (he must double at his first legal opportunity, "
        "USBGF 4.4.3) or 'I would pass' (he must pass a double made at the opponent's next "
        "legal opportunity, USBGF 4.4.4)"
    )
    details = (
        "'I double' said when the player may double is the double itself (record double); "
        "'announce double' is the statement that he is going to: his roll is refused until he "
        "has doubled, at his first legal opportunity.  After 'announce pass', a take of the "
        "double his opponent makes at the next legal opportunity is refused: he drops; if the "
        "opponent rolls instead, the statement lapses ('but not on subsequent turns').  A "
        "statement lapses when the cube is turned or the game ends.  Not recorded where it "
        "binds nothing: where no legal double can follow (the Crawford game, the opponent's "
        "cube, a dead cube), or under a profile without binding statements (online, classic)."
    )

    says: str
    player: str

    def words(self) -> str:
        return f"announce {self.says} {self.player}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.announce(self.says, player=self.player, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        says, player = (word.lower() for word in words.count(2, cls.usage))
        if says not in ("double", "pass"):
            raise InvalidActionError(
                f"{words.line!r}: a binding statement is 'double' or 'pass', not {says!r}: "
                f"{cls.usage!r}"
            )
        if player not in ("a", "b"):
            raise InvalidActionError(f"{words.line!r}: player {player!r}: a or b ({cls.usage})")
        return cls(says, player)


# -- the clock ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hit(Command):
    verb = "hit"
    usage = "hit [a|b]"
    recorded = (ev.ClockHit,)
    details = (
        "A player hits after his play, his double, his take or a roll he cannot play; the "
        "opening roll starts the winner's clock itself (CLOCK 3.3).  Prints both reserves "
        "after the hit."
    )
    example = "hit"
    summary = "the player whose time runs (or a|b) hits the clock: that turn ends (USBGF 4.1.8.1)"

    player: str | None = None

    def words(self) -> str:
        return "hit" + (f" {self.player}" if self.player else "")

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.hit(self.player, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        if len(words.rest) > 1:
            raise InvalidTimeActionError(f"{words.line!r}: expected {cls.usage}")
        return cls(_player(words.rest[0]) if words.rest else None)


@dataclass(frozen=True, slots=True)
class ClockStart(Command):
    verb = "clock start"
    usage = "clock start simple-delay|bronstein [reserve M:SS] [delay S] [doubles]"
    recorded = (ev.ClockStarted,)
    options = (
        Option(
            "--reserve",
            "Each player's reserve; default: the profile's for the length and score (USBGF "
            "3.5.5, 3.5.6; CLOCK 2.1).",
            "M:SS",
            "reserve {}",
        ),
        Option(
            "--delay",
            "The delay per turn; default: the profile's (USBGF 3.5.5).",
            "SECONDS",
            "delay {}",
        ),
        Option("--doubles", "A team (doubles) match: its time (CLOCK 2.2).", said="doubles"),
    )
    details = (
        "A Bronstein clock only between games (CLOCK 1.1).  A clock may be brought in during a "
        "match (USBGF 3.5.6, 2.3): the reserves are then set for the points still to go."
    )
    example = "clock start simple-delay"
    summary = "put a clock on the match (USBGF 3.5.5, CLOCK 2.1); the profile's times by default"

    mode: str
    reserve_ms: int | None = None
    delay_ms: int | None = None
    doubles: bool = False

    def words(self) -> str:
        text = f"clock start {self.mode}"
        if self.reserve_ms is not None:
            text += f" reserve {_clock_words(self.reserve_ms)}"
        if self.delay_ms is not None:
            text += f" delay {self.delay_ms // 1000}"
        return text + " doubles" * self.doubles

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.start_clock(
            self.mode, reserve_ms=self.reserve_ms, delay_ms=self.delay_ms, doubles=self.doubles,
            by=by, at=self.at,
        )  # fmt: skip

    @classmethod
    def read(cls, words: Words) -> Command:
        doubles = words.flag("doubles")
        if not words.rest:  # 'clock start' or 'clock start doubles': no mode
            raise InvalidTimeActionError(f"{words.line!r}: {cls.usage}")
        mode, rest = words.rest[0], words.rest[1:]
        opts = _pairs(rest, ("reserve", "delay"), cls.usage)
        reserve = clock.parse_clock(opts["reserve"]) if "reserve" in opts else None
        delay = opts.get("delay")
        if delay is not None and not (delay.isascii() and delay.isdigit()):
            raise InvalidTimeActionError(f"delay {delay!r}: whole seconds")
        return cls(mode, reserve, None if delay is None else int(delay) * 1000, doubles)


@dataclass(frozen=True, slots=True)
class ClockStop(Command):
    verb = "clock stop"
    usage = "clock stop REASON"
    recorded = (ev.ClockStopped,)
    details = (
        "REASON, a code or its USBGF 4.3.2 letter:\n"
        + "\n".join(
            f"  {letter}  {code:<16} {words}" for code, (letter, words) in REASONS.items() if letter
        )
        + (
            "\nA stop for dice picked up with the hit, the player on roll waiting for them, gives "
            "back the reserve he lost since that hit, as 'pickup-with-hit' does (USBGF 4.1.8.1)."
        )
    )
    example = "clock stop dispute"
    summary = "stop both clocks for a USBGF 4.3.2 reason (die-fell, dispute ...) or its letter"

    reason: str

    def words(self) -> str:
        return f"clock stop {self.reason}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.stop_clock(self.reason, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        if len(words.rest) != 1:
            raise InvalidTimeActionError(f"{words.line!r}: {cls.usage}")
        return cls(words.rest[0])


@dataclass(frozen=True, slots=True)
class ClockResume(Command):
    verb = "clock resume"
    button = "Resume the clock"
    usage = "clock resume"
    recorded = (ev.ClockResumed,)
    example = "clock resume"
    summary = "restart the clock of the player whose turn it was stopped in (USBGF 4.3.2)"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.resume_clock(by=by, at=self.at)


@dataclass(frozen=True, slots=True)
class ClockRead(Command):
    verb = "clock read"
    usage = "clock read a=M:SS b=M:SS"
    recorded = (ev.ClockRead,)
    example = "clock read a=9:12 b=8:40"
    summary = "what the physical clock shows; the ledger answers the drift"

    reserve_a_ms: int
    reserve_b_ms: int

    def words(self) -> str:
        a, b = (_clock_words(ms) for ms in (self.reserve_a_ms, self.reserve_b_ms))
        return f"clock read a={a} b={b}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.read_clock((self.reserve_a_ms, self.reserve_b_ms), by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        return cls(*_figures(words.rest))


@dataclass(frozen=True, slots=True)
class ClockSetting(Command):
    verb = "clock set"
    usage = 'clock set a=M:SS b=M:SS [rule "USBGF 3.7.2"] REASON...'
    recorded = (ev.ClockSet,)
    options = (
        Option(
            "--rule",
            "The rule: errors in clock management, a faulty clock, a break, both reserves "
            "expired, a match length corrected (USBGF 3.7.2, 4.3.2(b), 4.3.4, 4.3.3, 4.8.6).",
            "RULE",
            "rule {}",
            quoted=True,
        ),
        Option("--ruled-by", "Who ruled: director or committee.", "WHO", "ruled-by {}"),
        Option("--reason", "Why, in the ruler's words.", "TEXT", "{}", quoted=True),
    )
    example = "clock set a=5:00 b=6:30 clock knocked over"
    summary = "the director sets both reserves (USBGF 3.7.2, 4.3.4)"
    decision = Decision.CLOCK_REPLACED
    records = (ClockSet,)

    reserve_a_ms: int
    reserve_b_ms: int
    reason: str
    rule: str | None = None
    ruled_by: str = "director"

    @property
    def ruler(self) -> str:
        return "committee" if self.ruled_by == "committee" else "director"

    def words(self) -> str:
        a, b = (_clock_words(ms) for ms in (self.reserve_a_ms, self.reserve_b_ms))
        rule = f" rule {_quote(self.rule)}" if self.rule else ""
        by = f" ruled-by {self.ruled_by}" if self.ruled_by != "director" else ""
        return f"clock set a={a} b={b}{rule}{by} {self.reason}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        reserves = (self.reserve_a_ms, self.reserve_b_ms)
        cited = {"rule": self.rule} if self.rule else {}
        return match.set_clock(
            reserves, reason=self.reason, ruled_by=self.ruled_by, by=by, at=self.at, **cited
        )

    @classmethod
    def read(cls, words: Words) -> Command:
        rest = list(words.quoted())
        if len(rest) < 3:
            raise InvalidTimeActionError(f"{words.line!r}: {cls.usage}")
        figures, rest = _figures(rest[:2]), rest[2:]
        options: dict[str, str] = {}
        while len(rest) > 1 and rest[0].lower() in ("rule", "ruled-by"):
            options[rest[0].lower()] = rest[1]
            rest = rest[2:]
        if not rest:
            raise InvalidTimeActionError(f"{words.line!r}: {cls.usage}")
        ruled_by = options.get("ruled-by", "director").lower()
        if ruled_by not in ("director", "committee"):
            raise InvalidTimeActionError(f"ruled-by {ruled_by!r}: director or committee")
        return cls(*figures, " ".join(rest), options.get("rule"), ruled_by)


@dataclass(frozen=True, slots=True)
class Flag(Command):
    verb = "flag"
    usage = "flag a|b [nominal M:SS]"
    recorded = (ev.TimeExpired, ev.ClockSet)
    options = (
        Option(
            "--nominal",
            "The reserve both get if both had expired (USBGF 4.3.3); default 1:00.",
            "M:SS",
            "nominal {}",
        ),
    )
    details = (
        "Refused with the ledger's figure if time remains by its own figures (CLOCK 5.3).  If "
        "both reserves are spent, the one whose ran out first by the ledger's times forfeits; "
        "both get the nominal reserve only when the times cannot say (USBGF 4.3.3).  After the "
        "last checker is off, a winner whose reserve was spent before it loses the match "
        "under CLOCK 5.3.  Refused where the players agreed at the start not to end the match "
        "on time (USBGF 3.5.2.1: start --no-time-forfeit)."
    )
    example = "flag b"
    summary = "a player's reserve is announced expired: he loses the match (USBGF 4.3.3)"
    reads_history = True  # both spent: the ledger's times say whose ran out first (4.3.3)

    player: str
    nominal_ms: int = clock.NOMINAL_MS

    def words(self) -> str:
        nominal = self.nominal_ms != clock.NOMINAL_MS
        return f"flag {self.player}" + (
            f" nominal {_clock_words(self.nominal_ms)}" if nominal else ""
        )

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.flag(
            self.player, nominal_ms=self.nominal_ms, history=history, by=by, at=self.at
        )

    @classmethod
    def read(cls, words: Words) -> Command:
        if len(words.rest) == 3 and words.rest[1].lower() == "nominal":
            return cls(_player(words.rest[0]), clock.parse_clock(words.rest[2]))
        if len(words.rest) != 1:
            raise InvalidTimeActionError(f"{words.line!r}: expected {cls.usage}")
        return cls(_player(words.rest[0]))


@dataclass(frozen=True, slots=True)
class EarlyPickup(Command):
    verb = "early-pickup"
    usage = "early-pickup a|b [--ruled-by WHO] [--reason TEXT]"
    recorded = (ev.ReserveTimePenalized,)
    options = (RULED_BY, Option("--reason", "Why.", "TEXT"))
    details = (
        "Simple delay (USBGF 4.1.7.2): a warning first, then 30 seconds off the reserve each "
        "time, down to one second; a violation at one second forfeits the match.  Bronstein "
        "(CLOCK 4.1): the delay of his next turn is forfeited."
    )
    example = "early-pickup b"
    summary = "a player picked up the dice early: the sanction (USBGF 4.1.7.2, CLOCK 4.1)"
    decision = Decision.STOP_EARLY_PICKUP
    records = (ReserveTimePenalized,)

    player: str
    reason: str = PICKUP_REASON
    ruled_by: str = "director"

    @property
    def ruler(self) -> str:
        return "committee" if self.ruled_by == "committee" else "director"

    def words(self) -> str:
        by = f" --ruled-by {self.ruled_by}" if self.ruled_by != "director" else ""
        reason = f" --reason {self.reason}" if self.reason != PICKUP_REASON else ""
        return f"early-pickup {self.player}{by}{reason}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.early_pickup(
            self.player, Ruling(self.ruled_by, self.reason, by=by, at=self.at)
        )

    @classmethod
    def read(cls, words: Words) -> Command:
        reason = words.reason(False, cls.usage) or PICKUP_REASON
        ruled_by = _ruler(words, cls.usage) or "director"
        if len(words.rest) != 1:
            raise InvalidTimeActionError(f"{words.line!r}: expected {cls.usage}")
        return cls(_player(words.rest[0]), reason, ruled_by)


PICKED_UP_WITH_HIT = "picked up the dice with the hit"


@dataclass(frozen=True, slots=True)
class PickupWithHit(Command):
    verb = "pickup-with-hit"
    usage = "pickup-with-hit a|b [--ruled-by WHO] [--reason TEXT]"
    recorded = (ev.ClockStopped, ev.ReserveTimeRestored)
    options = (RULED_BY, Option("--reason", "Why.", "TEXT"))
    example = "pickup-with-hit a"
    summary = (
        "a player hit the clock and also picked up the dice: the clock stops, the player on "
        "roll's lost reserve is restored; then 'clock resume' (USBGF 4.1.8.1)"
    )
    decision = Decision.PICKUP_RESTORED
    records = (ClockStopped, ReserveTimeRestored)
    needs_history = True

    player: str
    reason: str = PICKED_UP_WITH_HIT
    ruled_by: str = "director"

    @property
    def ruler(self) -> str:
        return "committee" if self.ruled_by == "committee" else "director"

    def words(self) -> str:
        by = f" --ruled-by {self.ruled_by}" if self.ruled_by != "director" else ""
        reason = f" --reason {self.reason}" if self.reason != PICKED_UP_WITH_HIT else ""
        return f"pickup-with-hit {self.player}{by}{reason}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        ruling = Ruling(self.ruled_by, self.reason, by=by, at=self.at)
        return match.pickup_with_hit(self._history(history), self.player, ruling)

    @classmethod
    def read(cls, words: Words) -> Command:
        reason = words.reason(False, cls.usage) or PICKED_UP_WITH_HIT
        ruled_by = _ruler(words, cls.usage) or "director"
        if len(words.rest) != 1:
            raise InvalidTimeActionError(f"{words.line!r}: expected {cls.usage}")
        return cls(_player(words.rest[0]), reason, ruled_by)


@dataclass(frozen=True, slots=True)
class BreakStart(Command):
    verb = "break start"
    usage = "break start a|b|both [combine N] [exceptional REASON...]"
    recorded = (ev.BreakStarted,)
    options = (
        Option(
            "--combine",
            "Take N of each requester's breaks as one (USBGF 2.2.2).",
            "N",
            "combine {}",
        ),
        Option(
            "--exception",
            "The director's exception: a break beyond the allowance (USBGF 2.2.3).",
            "REASON",
            "exception {}",
            quoted=True,
        ),
        Option(
            "--exceptional",
            "The exceptional circumstances of a break during a game (USBGF 2.2.2).",
            "REASON",
            "exceptional {}",
        ),
    )
    example = "break start both"
    summary = "players take a break, between games (USBGF 2.2.2); the clock stops"

    players: tuple[str, ...]
    combine: int = 1
    exceptional: str = ""
    exception: str = ""

    def words(self) -> str:
        who = "both" if len(self.players) == 2 else self.players[0]
        text = f"break start {who}" + (f" combine {self.combine}" if self.combine != 1 else "")
        text += f" exception {_quote(self.exception)}" if self.exception else ""
        return text + (f" exceptional {self.exceptional}" if self.exceptional else "")

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.start_break(
            self.players, combine=self.combine, exceptional=self.exceptional,
            exception=self.exception, by=by, at=self.at,
        )  # fmt: skip

    @classmethod
    def read(cls, words: Words) -> Command:
        rest = list(words.quoted())
        if not rest:
            raise InvalidTimeActionError(f"{words.line!r}: {cls.usage}")
        who = ("a", "b") if rest[0].lower() == "both" else (_player(rest[0]),)
        opts = _pairs(rest[1:], ("combine", "exception", "exceptional"), cls.usage)
        combine = opts.get("combine", "1")
        if not (combine.isascii() and combine.isdigit()):
            raise InvalidTimeActionError(f"combine {combine!r}: a number of breaks")
        return cls(who, int(combine), opts.get("exceptional", ""), opts.get("exception", ""))


@dataclass(frozen=True, slots=True)
class BreakEnd(Command):
    verb = "break end"
    button = "End the break"
    usage = "break end [late a|b|none]"
    recorded = (ev.BreakEnded, ev.PenaltyPointsAssessed)
    options = (
        Option(
            "--late",
            "Who returned late, if the break overran by 15 minutes or more (USBGF 2.2.4).",
            "a|b|none",
            "late {}",
        ),
    )
    example = "break end"
    summary = "the break is over; 'late' names who came back late (USBGF 2.2.4)"

    late: str | None = None

    def words(self) -> str:
        return "break end" + (f" late {self.late}" if self.late else "")

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.end_break(late=self.late, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        opts = _pairs(list(words.rest), ("late",), cls.usage)
        return cls(opts.get("late"))


@dataclass(frozen=True, slots=True)
class Late(Command):
    verb = "late"
    usage = "late a|b [scheduled TIME]"
    recorded = (ev.PenaltyPointsAssessed,)
    options = (
        Option(
            "--scheduled",
            "The match's starting time, ISO 8601; default: when it was set up.",
            "TIME",
            "scheduled {}",
        ),
    )
    details = (
        "One point at 15 minutes after the starting time or the end of a break, one more every "
        "5 minutes after; only points not yet assessed are added.  Before the first game, more "
        "than half the match length forfeits it.  The time is --at's (default: now)."
    )
    example = "late b"
    summary = "a player is late: the penalty points due so far (USBGF 2.2.4)"
    decision = Decision.PENALTY_POINTS
    records = (PenaltyPointsAssessed,)
    reads_history = True  # without a time, the scheduled start given before counts

    player: str
    scheduled: str | None = None

    def words(self) -> str:
        return f"late {self.player}" + (f" scheduled {self.scheduled}" if self.scheduled else "")

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.late(
            self.player, scheduled=self.scheduled, history=history or (), by=by, at=self.at
        )

    @classmethod
    def read(cls, words: Words) -> Command:
        if len(words.rest) == 3 and words.rest[1].lower() == "scheduled":
            return cls(_player(words.rest[0]), words.rest[2])
        if len(words.rest) != 1:
            raise InvalidTimeActionError(f"{words.line!r}: expected late a|b")
        return cls(_player(words.rest[0]))


@dataclass(frozen=True, slots=True)
class Penalty(Command):
    verb = "penalty"
    usage = 'penalty a|b POINTS "RULE" REASON...'
    recorded = (ev.PenaltyPointsAssessed,)
    options = (
        Option("--rule", "The rule the director applies.", "RULE", "{}", quoted=True),
        Option("--reason", "Why, in the ruler's words.", "TEXT", "{}"),
    )
    shell_words = True
    details = "The match is lost once the opponent's score reaches its length (USBGF 2.2.4)."
    example = "penalty b 1 'USBGF 2.2.4' left without a break"
    summary = "the director's penalty points: the opponent scores them (USBGF 2.2.4)"
    decision = Decision.PENALTY_POINTS
    records = (PenaltyPointsAssessed,)

    player: str
    points: int
    rule: str
    reason: str
    ruled_by: str = "director"

    @property
    def ruler(self) -> str:
        return "committee" if self.ruled_by == "committee" else "director"

    def words(self) -> str:
        return f"penalty {self.player} {self.points} {shlex.quote(self.rule)} {self.reason}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.penalty(
            self.player, self.points, rule=self.rule, reason=self.reason,
            ruled_by=self.ruled_by, by=by, at=self.at,
        )  # fmt: skip

    @classmethod
    def read(cls, words: Words) -> Command:
        """``penalty a|b POINTS RULE REASON...``: the reason is the rest of the line (as a
        ruling's ``--reason`` is), apostrophes and all; the rule is one word or quoted."""
        head, rest = words.rest[:2], " ".join(words.rest[2:])
        if rest[:1] in ("'", '"'):
            end = rest.find(rest[0], 1)
            if end < 0:
                raise InvalidActionError(
                    f"{words.line!r}: the rule's closing quotation {rest[0]} is missing"
                )
            rule, reason = rest[1:end], rest[end + 1 :].strip()
        else:
            rule, _, reason = rest.partition(" ")
        if reason[:1] in ("'", '"') and reason[-1:] == reason[0]:
            try:
                said = shlex.split(reason)
            except ValueError:
                said = []
            reason = said[0] if len(said) == 1 else reason
        if len(head) < 2 or not (head[1].isascii() and head[1].isdigit()) or not reason:
            raise InvalidTimeActionError(f"{words.line!r}: {cls.usage}")
        return cls(_player(head[0]), int(head[1]), rule, reason.strip())


# -- rulings: compensating events (DESIGN principle 3) ---------------------------------------


def _ruler(words: Words, usage: str) -> str:
    ruled_by = (words.option("--ruled-by", usage) or "").lower()
    if ruled_by and ruled_by not in RULERS:
        raise InvalidActionError(
            f"{words.line!r}: --ruled-by {ruled_by!r}: one of {', '.join(RULERS)}"
        )
    return ruled_by


@dataclass(frozen=True, slots=True)
class _RulingCommand(Command):
    """A ruling: ``VERB ARG [--rule RULE] [--ruled-by WHO] [--agreed] --reason TEXT``."""

    needs_history = True
    records = (RulingMade, ReserveTimeRestored)
    argument: ClassVar[str] = "EVENT"
    default_ruler: ClassVar[str] = "director"
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "--rule",
            "The rule applied ('USBGF 4.2.3(f)'); default: the first whose window is open.",
            "RULE",
            quoted=True,
        ),
        RULED_BY,
        Option("--agreed", "Both players agreed to the correction (USBGF 4.2.3(f))."),
        Option("--reason", "Why, in the ruler's words.", "TEXT", required=True),
    )

    reason: str = field(default="", kw_only=True)
    rule: str | None = field(default=None, kw_only=True)
    ruled_by: str = field(default="", kw_only=True)
    agreed: bool = field(default=False, kw_only=True)

    @property
    def ruler(self) -> str:
        """The director's (the committee's for ``overturn``, or ``--ruled-by committee``): a
        ruling the players agreed (``--ruled-by players``) is recorded by the director too."""
        return max(self.ruled_by, self.default_ruler, key=_RANK.__getitem__)

    def ruling(self, by: str) -> Ruling:
        """The :class:`Ruling` it records (by ``by``): who ruled, as the line says."""
        ruled_by = self.ruled_by or self.default_ruler
        return Ruling(ruled_by, self.reason, self.rule, self.agreed, by=by, at=self.at)

    def said(self) -> str:
        """What it names, as the line says it."""
        return ""

    def words(self) -> str:
        text = f"{self.verb} {self.said()}".rstrip()
        text += f" --rule {shlex.quote(self.rule)}" if self.rule else ""
        text += f" --ruled-by {self.ruled_by}" if self.ruled_by else ""
        return text + " --agreed" * self.agreed + f" --reason {self.reason}"

    @classmethod
    def usage_of(cls) -> str:
        return f"{cls.verb} {cls.argument} [--rule RULE] [--ruled-by WHO] [--agreed] --reason TEXT"

    @classmethod
    def read(cls, words: Words) -> Command:
        usage = cls.usage_of()
        reason = words.reason(True, usage)
        agreed = words.flag("--agreed")
        rule = words.option("--rule", usage)
        ruled_by = _ruler(words, usage)
        rest = list(words.quoted())
        if len(rest) != (1 if cls.argument else 0):
            raise InvalidActionError(f"{words.line!r}: {usage!r}")
        options = {"reason": reason, "rule": rule, "ruled_by": ruled_by, "agreed": agreed}
        return cls._of(words, rest, options)

    @classmethod
    def _of(cls, words: Words, rest: list[str], options: dict[str, Any]) -> Command:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class EventRuling(_RulingCommand):
    """A ruling on one recorded event."""

    event: int
    method: ClassVar[str] = ""

    def said(self) -> str:
        return str(self.event)

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        rule_on: Callable[..., Any] = getattr(match, self.method)
        return rule_on(self._history(history), self.event, self.ruling(by))

    @classmethod
    def _of(cls, words: Words, rest: list[str], options: dict[str, Any]) -> Command:
        if not (rest[0].isascii() and rest[0].isdigit() and int(rest[0]) > 0):
            raise InvalidActionError(f"{words.line!r}: {cls.usage_of()!r}")
        return cls(int(rest[0]), **options)


@dataclass(frozen=True, slots=True)
class Revert(EventRuling):
    verb, method = "revert", "revert"
    usage = "revert EVENT [--rule RULE] [--ruled-by WHO] [--agreed] --reason TEXT"
    recorded = (ev.PlaysReverted,)
    example = "revert 12 --reason Bob played 6-4 as 24/13"
    summary = "undo an illegal play and what followed it, in its rule's window (USBGF 4.2.3)"


@dataclass(frozen=True, slots=True)
class VoidCube(EventRuling):
    verb, method = "void-cube", "void_cube"
    usage = "void-cube EVENT [--rule RULE] [--ruled-by WHO] --reason TEXT"
    recorded = (ev.CubeActionVoided,)
    example = "void-cube 30 --reason doubled in the Crawford game"
    summary = "void an invalid double that was taken (USBGF 4.4.6.1, 4.4.9, 4.4.10)"


@dataclass(frozen=True, slots=True)
class NullifyPass(EventRuling):
    verb, method = "nullify-pass", "nullify_pass"
    usage = "nullify-pass EVENT [--rule RULE] [--ruled-by WHO] --reason TEXT"
    recorded = (ev.CrawfordPassNullified,)
    example = "nullify-pass 30 --reason doubled in the Crawford game"
    summary = "nullify the pass of an invalid double: the game resumes (USBGF 4.4.6.2)"


@dataclass(frozen=True, slots=True)
class VoidConcession(EventRuling):
    verb, method = "void-concession", "void_concession"
    usage = "void-concession EVENT [--rule RULE] [--ruled-by WHO] --reason TEXT"
    recorded = (ev.ConcessionVoided,)
    example = "void-concession 44 --reason conceded with contact"
    summary = "void a concession the rules did not allow (USBGF 4.5, 4.2.6)"


@dataclass(frozen=True, slots=True)
class CorrectCube(EventRuling):
    verb, method = "correct-cube", "correct_cube"
    usage = "correct-cube EVENT [--rule RULE] [--ruled-by WHO] --reason TEXT"
    recorded = (ev.CubeLevelCorrected,)
    example = "correct-cube 30 --reason turned to 8 from 2"
    summary = "a double to a wrong level stands at the right level (USBGF 4.4.8)"


@dataclass(frozen=True, slots=True)
class CorrectSetup(EventRuling):
    verb, method = "correct-setup", "correct_setup"
    usage = "correct-setup EVENT [--rule RULE] [--ruled-by WHO] --reason TEXT"
    recorded = (ev.StartingPositionCorrected,)
    example = "correct-setup 9 --reason three checkers on the midpoint"
    summary = "correct a wrong starting position (USBGF 4.2.4)"


@dataclass(frozen=True, slots=True)
class Overturn(EventRuling):
    verb, method = "overturn", "overturn"
    argument = "RULING"
    default_ruler = "committee"
    usage = "overturn RULING [--rule RULE] [--ruled-by WHO] --reason TEXT"
    recorded = (ev.RulingOverturned,)
    example = "overturn 14 --reason the play was legal"
    summary = "an appeal committee reverses a ruling: what it voided is back (USBGF 5.2)"


@dataclass(frozen=True, slots=True)
class CorrectLength(_RulingCommand):
    verb = "correct-length"
    argument = "LENGTH"
    usage = "correct-length LENGTH [--rule RULE] [--ruled-by WHO] --reason TEXT"
    recorded = (ev.MatchLengthCorrected,)
    example = "correct-length 7 --reason the draw sheet says 7"
    summary = "the match is LENGTH points, from the next game (USBGF 4.8.4, 4.8.5)"

    length: int

    def said(self) -> str:
        return str(self.length)

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.correct_length(self._history(history), self.length, self.ruling(by))

    @classmethod
    def _of(cls, words: Words, rest: list[str], options: dict[str, Any]) -> Command:
        if not (rest[0].isascii() and rest[0].isdigit() and int(rest[0]) > 0):
            raise InvalidActionError(f"{words.line!r}: {cls.usage_of()!r}")
        return cls(int(rest[0]), **options)


@dataclass(frozen=True, slots=True)
class CorrectScore(_RulingCommand):
    verb = "correct-score"
    argument = "A-B"
    usage = "correct-score A-B [--rule RULE] [--ruled-by WHO] --reason TEXT"
    recorded = (ev.ScoreCorrected,)
    example = "correct-score 3-2 --reason both players agree"
    summary = "the score is A (player a) to B (player b): a dispute settled (USBGF 4.7)"

    score_a: int
    score_b: int

    def said(self) -> str:
        return f"{self.score_a}-{self.score_b}"

    @classmethod
    def line_of(cls, words: Sequence[str], given: dict[str, Any]) -> str:
        """``A-B``, or ``A B`` as the command line may say it."""
        return said_line(cls, ["-".join(words)] if len(words) == 2 else words, given)

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        score = (self.score_a, self.score_b)
        return match.correct_score(self._history(history), score, self.ruling(by))

    @classmethod
    def _of(cls, words: Words, rest: list[str], options: dict[str, Any]) -> Command:
        parts = rest[0].split("-")
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
            raise InvalidActionError(f"{words.line!r}: {cls.usage_of()!r}")
        return cls(int(parts[0]), int(parts[1]), **options)


@dataclass(frozen=True, slots=True)
class RulingNote(_RulingCommand):
    verb = "note"
    argument = ""
    usage = "note --ruled-by WHO [--rule RULE] [--agreed] --reason TEXT"
    recorded = (ev.RulingNoted,)
    example = "note --ruled-by director --reason Bob asked about the clock; no ruling needed"
    summary = "a ruling or an observation noted in the rulings log; nothing changes"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.note(self._history(history), self.ruling(by))

    @classmethod
    def _of(cls, words: Words, rest: list[str], options: dict[str, Any]) -> Command:
        return cls(**options)


@dataclass(frozen=True, slots=True)
class MissedHit(_RulingCommand):
    verb = "missed-hit"
    argument = ""
    usage = "missed-hit [--ruled-by WHO] --reason TEXT"
    recorded = (ev.PlaysReverted, ev.ReserveTimeRestored)
    options = (RULED_BY, Option("--reason", "Why, in the ruler's words.", "TEXT", required=True))
    example = "missed-hit --reason Ann never hit her clock after 8/5 6/5"
    summary = (
        "the player whose time runs never hit the clock: the opponent's turn since is "
        "nullified, the reserve lost restored (USBGF 4.1.8.1)"
    )

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.missed_hit(self._history(history), self.ruling(by))

    @classmethod
    def _of(cls, words: Words, rest: list[str], options: dict[str, Any]) -> Command:
        return cls(**options)


# -- recording errors (DESIGN principle 9) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Undo(Command):
    verb = "undo"
    button = "Undo the roll"
    usage = "undo [--ruled-by director] [--reason TEXT]"
    recorded = (ev.EntryWithdrawn,)
    options = (
        Option(
            "--ruled-by",
            "The director allowed it: needed for an entry of an earlier game (USBGF 4.7).",
            "director",
        ),
        Option("--reason", "Why, e.g. 'typed 6-3 for 6-4'.", "TEXT"),
    )
    details = (
        "Undo again for the one before.  The entry stays in the history, marked withdrawn, "
        "with who corrected it, when and why.  It is not a ruling: an illegal play that really "
        "happened is a director's matter (revert)."
    )
    example = "undo --reason typed 6-3 for 6-4"
    summary = "the last entry was a recording error: withdraw it (an earlier game's: the director)"
    needs_history = True

    reason: str = ""
    ruled_by: str = ""

    @property
    def ruler(self) -> str:
        return self.ruled_by

    def words(self) -> str:
        text = "undo" + (f" --ruled-by {self.ruled_by}" if self.ruled_by else "")
        return text + (f" --reason {self.reason}" if self.reason else "")

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.withdraw(
            self._history(history), reason=self.reason, ruled_by=self.ruled_by, by=by, at=self.at
        )

    @classmethod
    def read(cls, words: Words) -> Command:
        reason = words.reason(False, cls.usage)
        ruled_by = _correction_ruler(words)
        if words.rest:
            raise InvalidActionError(f"{words.line!r}: 'undo [--reason TEXT]' takes no argument")
        return cls(reason, ruled_by)


@dataclass(frozen=True, slots=True)
class Amend(Command):
    verb = "amend"
    usage = "amend EVENT LINE [--ruled-by director] [--reason TEXT]"
    recorded = (ev.EntryAmended,)
    options = Undo.options
    details = (
        "LINE is a line of the record language ('roll 6 4', 'move 13/8 13/11'), decided on the "
        "match as it stood before EVENT, at EVENT's time; every later entry must still be "
        "recorded as it was on the amended history, else the amendment is refused naming the "
        "first that no longer fits."
    )
    example = "amend 12 roll 6 4"
    summary = "entry EVENT was mis-entered: LINE is what happened"
    needs_history = True

    entry: int
    command: Command
    reason: str = ""
    ruled_by: str = ""

    @property
    def ruler(self) -> str:
        """The higher of its own ``--ruled-by`` and the ruler of the command it records."""
        return max(self.ruled_by, self.command.ruler, key=_RANK.__getitem__)

    def said_as(self, role: str) -> Command:
        """The line it records said as ``role``'s (a note amended in)."""
        return replace(self, command=self.command.said_as(role))

    def words(self) -> str:
        text = f"amend {self.entry} {self.command}"
        text += f" --ruled-by {self.ruled_by}" if self.ruled_by else ""
        return text + (f" --reason {self.reason}" if self.reason else "")

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        def perform(scratch: Match, when: str) -> None:
            before = self._history(history)[: self.entry - 1]  # what the entry was decided on
            self.command.timed(when).perform(scratch, by, before)

        return match.amend(
            self._history(history), self.entry, perform, line=str(self.command),
            reason=self.reason, ruled_by=self.ruled_by, by=by, at=self.at,
        )  # fmt: skip

    @classmethod
    def read(cls, words: Words) -> Command:
        reason = words.reason(False, cls.usage)
        ruled_by = _correction_ruler(words)
        rest = words.rest
        if len(rest) < 2 or not (rest[0].isascii() and rest[0].isdigit()):
            raise InvalidActionError(
                f"{words.line!r}: 'amend EVENT LINE', e.g. 'amend 12 roll 6 4' or "
                "'amend 13 move 13/8'"
            )
        inner = [word.lower() for word in rest[1:3]]
        kind = _BY_VERB.get(" ".join(inner)) or _BY_VERB.get(inner[0])
        # a ruling's --reason was read as the amend's: name the ruling, not its reason
        said = None if kind is not None and kind.needs_history else parse(" ".join(rest[1:]))
        if said is None or said.needs_history or said.at is not None:
            raise InvalidActionError(
                f"{words.line!r}: amend takes what happened at the table, not a correction or "
                "a ruling, and no @TIME (the entry's own time stands)"
            )
        return cls(int(rest[0]), said, reason, ruled_by)


def _correction_ruler(words: Words) -> str:
    ruled_by = (words.option("--ruled-by", "--ruled-by director") or "").lower()
    if ruled_by not in ("", "director"):
        raise InvalidActionError(f"{words.line!r}: --ruled-by director (or nothing)")
    return ruled_by


# -- the classic laws of the throw and the touch (CLASSIC 7, 8, 11) -------------------------


def _point(word: str) -> int:
    """A point of the player on roll (1-24), or the bar (``25`` or ``bar``)."""
    if word.lower() == "bar":
        return 25
    if not (word.isascii() and word.isdigit()) or not 1 <= int(word) <= 25:
        raise InvalidActionError(f"point {word!r}: 1-24, or 25 or 'bar' for the bar")
    return int(word)


@dataclass(frozen=True, slots=True)
class Touch(Command):
    verb = "touch"
    usage = "touch POINT"
    recorded = (ev.ManTouched,)
    example = "touch 6"
    summary = (
        "the player on roll touched a man on POINT (his own numbering; 'bar') without saying "
        '"J\'adoube": he must move it if it is playable (CLASSIC 11)'
    )
    details = (
        "Under the classic profile only; every other profile refuses it, citing its rule "
        "(USBGF 4.2.5: checkers may be shuffled to test plays).  The next play must move a man "
        "from POINT if any legal play does; a play that does not is refused (or, --as-played, "
        "recorded flagged).  A man adjusted after \"J'adoube\" is 'jadoube POINT'."
    )

    point: int

    def words(self) -> str:
        return f"touch {self.point}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.touch(self.point, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        (point,) = words.count(1, cls.usage)
        return cls(_point(point))


@dataclass(frozen=True, slots=True)
class Jadoube(Command):
    verb = "jadoube"
    usage = "jadoube POINT"
    recorded = (ev.ManAdjusted,)
    example = "jadoube 6"
    summary = (
        'the player on roll said "J\'adoube" and adjusted a man on POINT: he need not move '
        "it (CLASSIC 11)"
    )

    point: int

    def words(self) -> str:
        return f"jadoube {self.point}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return match.jadoube(self.point, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        (point,) = words.count(1, cls.usage)
        return cls(_point(point))


@dataclass(frozen=True, slots=True)
class _DiceSaid(Command):
    """A classic verb of two dice, ``VERB D D``: the match's method of the verb's name
    records them (the dice the adversary set, CLASSIC 7; the throw called, CLASSIC 8)."""

    die1: int
    die2: int

    def words(self) -> str:
        return f"{self.verb} {self.die1} {self.die2}"

    def run(self, match: Match, by: str, history: Sequence[MatchEvent] | None = None) -> Any:
        return getattr(match, self.verb)(self.die1, self.die2, by=by, at=self.at)

    @classmethod
    def read(cls, words: Words) -> Command:
        a, b = words.count(2, cls.usage)
        return cls(_die(a), _die(b))


@dataclass(frozen=True, slots=True)
class Interfered(_DiceSaid):
    verb = "interfered"
    usage = "interfered D D"
    recorded = (ev.DiceSet,)
    example = "interfered 1 2"
    summary = (
        "the caster touched the dice before they came to rest: his adversary set them to "
        "D-D, which the caster plays as if thrown (CLASSIC 7)"
    )
    details = (
        "Recorded after the roll, before the throw is called.  Under the classic profile "
        "only: elsewhere a roll the caster touched is invalid and rolled again (void-roll; "
        "USBGF 4.1.4.1)."
    )


@dataclass(frozen=True, slots=True)
class Call(_DiceSaid):
    verb = "call"
    usage = "call D D"
    recorded = (ev.ThrowCalled,)
    example = "call 6 4"
    summary = (
        "the caster called his throw D-D, other than the dice show: played as called it "
        "stands good (CLASSIC 8)"
    )
    details = (
        "Recorded after the roll (the dice as they lie) when the call differs from them.  "
        "Until the dice are taken up again (the next throw, the game's end) the error may be "
        "corrected: 'correct-call EVENT', and the dice thrown are played.  Under the classic "
        "profile only."
    )


@dataclass(frozen=True, slots=True)
class CorrectCall(EventRuling):
    verb, method = "correct-call", "correct_call"
    usage = "correct-call EVENT [--rule RULE] [--ruled-by WHO] --reason TEXT"
    recorded = (ev.CallCorrected,)
    example = "correct-call 7 --ruled-by players --reason Bob saw the 3 before Ann took up the dice"
    summary = (
        "the error in the call (event EVENT) was found before the dice were taken up again: "
        "the play on the call is void and the dice thrown are played (CLASSIC 8)"
    )


# -- the table --------------------------------------------------------------------------------


VOCABULARY: tuple[type[Command], ...] = (
    Opening, PlaySingles, Roll, RollMove, Move, VoidRoll, Double, Take, Drop, Beaver,
    AutomaticDouble, Resign, Accept, Reject, AcceptRoll, RefuseRoll, Setup, Note,
    Announce,  # cube statements (issue 33)
    Hit, ClockStart, ClockStop, ClockResume, ClockRead, ClockSetting, Flag, EarlyPickup,
    PickupWithHit, BreakStart, BreakEnd, Late, Penalty,
    Revert, VoidCube, NullifyPass, VoidConcession, CorrectCube, CorrectSetup, Overturn,
    CorrectLength, CorrectScore, RulingNote, MissedHit,
    Touch, Jadoube, Interfered, Call, CorrectCall,  # the classic laws (CLASSIC 7, 8, 11)
    MustAccept,  # issue 33 (clockrules): CLOCK 5.1
    Undo, Amend,
)  # fmt: skip
"""Every command, in the order help lists them: the game, the clock and breaks, the rulings,
the recording errors.  The one table of verbs."""


@functools.lru_cache(maxsize=4)
def _verbs_of(vocabulary: tuple[type[Command], ...]) -> dict[str, type[Command]]:
    found: dict[str, type[Command]] = {}
    for kind in vocabulary:
        if kind.verb[:1].isalpha():  # not the shorthand '52:'
            found.setdefault(kind.verb, kind)  # the first 'note' reads a ruling noted too
    return found


class _Verbs(Mapping[str, type[Command]]):
    """The class that reads each verb, from :data:`VOCABULARY` as it is when asked: a
    verb is registered by its place in the table, and nowhere else."""

    def __getitem__(self, verb: str) -> type[Command]:
        return _verbs_of(VOCABULARY)[verb]

    def __iter__(self) -> Iterator[str]:
        return iter(_verbs_of(VOCABULARY))

    def __len__(self) -> int:
        return len(_verbs_of(VOCABULARY))


_BY_VERB: Mapping[str, type[Command]] = _Verbs()
"""The class that reads each verb (``note`` reads a ruling noted too, ``roll`` the shorthand)."""


def verbs() -> dict[str, type[Command]]:
    """Each verb and the class that reads it, in :data:`VOCABULARY`'s order: what the command
    line (one command a verb: ``bgledger roll``, ``bgledger clock MATCH start``), the console's
    help and the command reference are made of.  ``RollMove`` (``52: 13/8 13/11``, roll then
    move) and ``RulingNote`` (``note --ruled-by``) are read by another verb's class."""
    return dict(_verbs_of(VOCABULARY))


RULES: tuple[type[EventRuling], ...] = (
    Revert, VoidCube, NullifyPass, VoidConcession, CorrectCube, CorrectSetup, Overturn,
)  # fmt: skip
"""The rulings on one recorded event, in the order the director's picker lists them."""


def parse(line: str) -> Command:
    """The command ``line`` says (the record language: a verb of the command line without
    the match, ``@TIME`` first if given, a comment after a ``#`` standing alone).

    :raises InvalidActionError: for an empty line, an unknown verb, missing, extra or
        malformed arguments (the message quotes the line and gives the usage).
    """
    if len(line) > MAX_LINE:  # refused before anything reads it
        raise InvalidActionError(
            f"{line[:24]!r}...: {len(line)} characters; a line is at most {MAX_LINE}"
        )
    words = without_comment(line).split()
    at = None
    if words and words[0].startswith("@"):
        at, words = words[0][1:], words[1:]
    if not words:
        raise InvalidActionError(f"{line!r} names no action: one of {', '.join(_BY_VERB)}")
    flags = ("--as-played", "--premature")
    shorthand = _SHORTHAND.fullmatch(" ".join(w for w in words if w not in flags))
    command: Command
    if shorthand:
        one, two, play = shorthand.groups()
        as_played, premature = "--as-played" in words, "--premature" in words
        if not play.strip():
            command = Roll(int(one), int(two), as_played, premature)
        elif premature:
            raise InvalidActionError(
                f"{line!r}: --premature goes with a roll alone ('65: --premature')"
            )
        else:
            command = RollMove(int(one), int(two), play.strip(), as_played)
    else:
        verb = words[0].lower()
        two_words = f"{verb} {words[1].lower()}" if len(words) > 1 else ""
        if two_words in _BY_VERB:
            kind, rest = _BY_VERB[two_words], words[2:]
        elif verb in _BY_VERB:
            kind, rest = _BY_VERB[verb], words[1:]
        elif verb in ("clock", "break"):
            subs = [v.split()[1] for v in _BY_VERB if v.startswith(verb + " ")]
            raise InvalidTimeActionError(f"{line!r}: {verb} {'|'.join(subs)} ...")
        else:
            close = difflib.get_close_matches(verb, [*_BY_VERB, "clock", "break"], n=3)
            hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
            raise InvalidActionError(
                f"{line!r}: unknown action {words[0]!r}; {hint}'help' lists the "
                f"{len(_BY_VERB)} actions (or the shorthand '52: 13/8 13/11')"
            )
        command = kind.read(Words(line, rest))
    return command if at is None else replace(command, at=at)


def ruler_of_events(events: Sequence[MatchEvent]) -> str:
    """Who must issue a correction of an entry made of ``events``: ``director`` if one of
    them only a director's command records (penalty points, a clock set, a ruling), the
    director or the committee for a note said as theirs (:attr:`Note.ruler`), else ``""``
    (the scorekeeper's own entries)."""
    acts = tuple(kind for command in VOCABULARY for kind in command.records)
    ruler = "director" if any(isinstance(event, acts) for event in events) else ""
    said = [e.role for e in events if isinstance(e, ev.RemarkRecorded) and e.role in _RANK]
    return max([ruler, *said], key=_RANK.__getitem__)


def help_lines() -> list[tuple[str, str, str]]:
    """``(usage, summary, example)`` of every command, in :data:`VOCABULARY`'s order."""
    return [(kind.usage, kind.summary, kind.example) for kind in VOCABULARY]


def fields_of(command: Command) -> dict[str, Any]:
    """The command's own fields (not ``at``), for a JSON answer or a test."""
    return {f.name: getattr(command, f.name) for f in fields(command) if f.name != "at"}
