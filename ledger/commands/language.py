"""One action a line: the language of ``bgledger record`` and of scenario transcripts.

A line is a verb of the command line without the match id, optionally
preceded by ``@TIME`` (when it happened, ISO 8601) and followed by
``--as-played`` (record an illegal action that was made at the board)::

    opening 3 1            a's die, b's die
    roll 5 2 (or roll 52)  move 13/8 13/11
    52: 13/8 13/11         .mat shorthand: roll and play ('52:' alone: roll only)
    double | take | drop   resign gammon [a|b]    accept | reject
    beaver --as-played     automatic-double --as-played     (USBGF 4.4.10, for the director)
    void-roll cocked       @2026-11-21T14:05:00+01:00 roll 6 6
    note Bob asked for the director     the scorekeeper's remark (not a ruling)
    undo [--reason TEXT]   the last entry was a recording error: withdraw it
    amend 12 roll 6 4      entry 12 was mis-entered: this is what happened
    roll 6 5 --premature   double --premature       (by the player not on roll, early)
    accept-roll | refuse-roll                       (the mover's answer to an early roll)
    # a comment (also after an action), and blank lines, are skipped; a '#'
    # inside a word is text ('note table #4 moved', '--reason see event #6')

and the clock, break and penalty lines::

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
    penalty a|b POINTS "RULE" REASON...  the director's other penalty points (the reason: the rest)

and the director's or the committee's rulings, the command line's ruling verbs
without the match id (``--reason`` last: it takes the rest of the line)::

    revert 12 [--rule "USBGF 4.2.3(f)"] [--ruled-by director] [--agreed] --reason TEXT
    void-cube N | nullify-pass N | void-concession N | correct-cube N | correct-setup N
    overturn RULING --reason TEXT       (--ruled-by committee, the default for overturn)
    correct-length LENGTH --reason TEXT     correct-score A-B --reason TEXT

Each line calls the match's command for it, as the command line's verbs do
(``clock stop`` is :meth:`~bgledger.commands.clock.ClockCommands.stop_clock`,
``break end`` :meth:`~bgledger.commands.breaks.BreakCommands.end_break`).

Example::

    >>> Action.parse("@2026-11-21T10:00:00+00:00 52: 13/8 13/11")
    Action.parse('@2026-11-21T10:00:00+00:00 52: 13/8 13/11')
    >>> Action.parse("move 13/7 --as-played").as_played
    True
    >>> Action.parse("roll 6 5 --premature").premature
    True
    >>> Action.parse('revert 12 --rule "USBGF 4.2.3(f)" --agreed --reason both agreed').ruler
    'director'
    >>> Action.parse("penalty a 1 'USBGF 2.2.4' left without a break").ruler
    'director'
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass

from bgledger.commands import clock
from bgledger.commands.match import Match
from bgledger.commands.rulings import RULERS, Ruling
from bgledger.errors import RulesError
from bgledger.rules.legal import read_dice
from bgledger.rules.profiles import Decision

__all__ = [
    "CORRECTION_VERBS",
    "EVENT_RULINGS",
    "RULING_VERBS",
    "TIME_VERBS",
    "VERBS",
    "Action",
    "InvalidActionError",
    "InvalidTimeActionError",
    "without_comment",
]

VERBS = (
    "opening",
    "roll",
    "move",
    "double",
    "take",
    "drop",
    "beaver",
    "automatic-double",
    "resign",
    "accept",
    "reject",
    "void-roll",
    "accept-roll",
    "refuse-roll",
    "note",
)
_COMMENT = re.compile(r"(?:^|\s)#(?=\s|$)")
"""Where a comment starts: a ``#`` standing alone as a word."""
_SHORTHAND = re.compile(r"([1-6])([1-6]):(.*)")
_ARITY = {"opening": 2, "roll": 2, "double": 0, "take": 0, "drop": 0, "accept": 0, "reject": 0}
_ARITY.update({"accept-roll": 0, "refuse-roll": 0, "beaver": 0, "automatic-double": 0})
_EARLY = ("roll", "double")
"""The verbs ``--premature`` goes with (USBGF 4.1.7.1, 4.4.7)."""
TIME_VERBS = ("hit", "clock", "flag", "early-pickup", "break", "late", "penalty")
"""The verbs of the clock, break and penalty lines."""
MAX_LINE = 4096
"""The most characters a line may have: an action, or a note or reason of a paragraph."""
CORRECTION_VERBS = ("undo", "amend")
"""A scorekeeper's recording errors: ``undo [--reason TEXT]``, ``amend EVENT LINE [--reason
TEXT]`` (either may add ``--ruled-by director``); the front door records them
(:meth:`bgledger.Ledger.record_line`), not :meth:`Action.apply`."""


EVENT_RULINGS = (
    "revert",
    "void-cube",
    "nullify-pass",
    "void-concession",
    "correct-cube",
    "correct-setup",
    "overturn",
)
"""The rulings on one recorded event, in the order the director's picker lists them."""
RULING_VERBS = (*EVENT_RULINGS, "correct-length", "correct-score")
"""The rulings: ``VERB EVENT`` (``correct-length LENGTH``, ``correct-score A-B``) and
``[--rule RULE] [--ruled-by WHO] [--agreed] --reason TEXT``; the front door
records them (:meth:`bgledger.Ledger.record_line`), deciding on the match's history."""
_DIRECTORS_LINES = {
    "penalty": Decision.PENALTY_POINTS,
    "late": Decision.PENALTY_POINTS,
    "clock set": Decision.CLOCK_REPLACED,
    "early-pickup": Decision.STOP_EARLY_PICKUP,
}
"""Lines only the director records, and the decision whose rule says so: penalty points
are "assessed by the Tournament Director" (USBGF 2.2.4), the director "shall set the
remaining times" (USBGF 3.7.2), an early pick-up's sanction is a ruling (CLOCK 4.1)."""


def without_comment(line: str) -> str:
    """``line`` without its comment, stripped: from a ``#`` that stands alone as a word.

    A ``#`` inside a word is text, so a note or a reason keeps it:

    >>> without_comment("roll 6 4  # Ann's roll")
    'roll 6 4'
    >>> without_comment("note table #4 moved to the bar")
    'note table #4 moved to the bar'
    """
    found = _COMMENT.search(line)
    return (line[: found.start()] if found else line).strip()


class InvalidActionError(RulesError):
    """A line that is not an action: an unknown verb, missing or extra arguments."""


class InvalidTimeActionError(RulesError):
    """A clock, break or penalty line with missing, extra or malformed arguments."""


@dataclass(frozen=True, slots=True)
class Action:
    """One parsed line: ``verb``, its ``args``, when it happened and whether ``--as-played``.

    The shorthand ``52: 13/8`` is the verb ``roll-move`` with args
    ``('5', '2', '13/8')``.  ``premature`` is a roll or double by the player
    not on roll before the mover moved (``--premature``).
    """

    verb: str
    args: tuple[str, ...] = ()
    at: str | None = None
    as_played: bool = False
    text: str = ""
    premature: bool = False
    reason: str = ""
    ruled_by: str = ""
    rule: str | None = None
    agreed: bool = False

    @property
    def ruler(self) -> str:
        """Who the line says decided it: ``director``, ``committee``, ``players``, or ``""``.

        A ruling is its ``--ruled-by`` (by default the director's; the committee's
        for ``overturn``); ``undo``/``amend`` say it with ``--ruled-by``; penalty
        points (``penalty``, ``late``: USBGF 2.2.4), the clocks' times (``clock
        set``: USBGF 3.7.2) and an early pick-up's sanction are the director's.
        Every other line is the scorekeeper's record of what happened (``""``).
        A token records a line only if its role may claim the ruler
        (:meth:`bgledger.access.Grant.may_claim`).
        """
        if self.ruled_by:
            return self.ruled_by
        if self.verb in RULING_VERBS:
            return "committee" if self.verb == "overturn" else "director"
        return "director" if self.directors_decision is not None else ""

    @property
    def directors_decision(self) -> Decision | None:
        """The decision whose rule makes this line the director's (penalty points ...)."""
        key = self.verb
        if key == "clock" and self.args[:1] and self.args[0].lower() == "set":
            key = "clock set"
        return _DIRECTORS_LINES.get(key)

    @property
    def ruling(self) -> Ruling:
        """The :class:`Ruling` a ruling line describes (recorded by ``by`` at ``at``).

        :raises InvalidRulingError: for a ruler that is none, or no reason.
        """
        return Ruling(self.ruler, self.reason, self.rule, self.agreed, at=self.at)

    @classmethod
    def parse(cls, line: str) -> Action:
        """Read one line.

        Anything after ``#`` is a comment.

        :raises InvalidActionError: for an empty line, an unknown verb, the
            wrong number of arguments or ``--premature`` on another verb.
        """
        if len(line) > MAX_LINE:  # refused before anything reads it
            raise InvalidActionError(
                f"{line[:24]!r}...: {len(line)} characters; a line is at most {MAX_LINE}"
            )
        text = without_comment(line)
        words = text.split()
        at = None
        if words and words[0].startswith("@"):
            at, words = words[0][1:], words[1:]
        if words and words[0].lower() in CORRECTION_VERBS:
            return cls._correction(line, words, at)
        if words and words[0].lower() in RULING_VERBS:
            return cls._ruling(line, words, at)
        as_played, early = "--as-played" in words, "--premature" in words
        words = [w for w in words if w not in ("--as-played", "--premature")]
        if not words:
            raise InvalidActionError(f"{line!r} names no action: one of {', '.join(VERBS)}")
        shorthand = _SHORTHAND.fullmatch(" ".join(words))
        if shorthand:
            die1, die2, play = shorthand.groups()
            rolled: tuple[str, ...] = (die1, die2, play.strip()) if play.strip() else (die1, die2)
            if early and play.strip():
                raise InvalidActionError(f"{line!r}: a premature roll is not played yet")
            verb = "roll-move" if play.strip() else "roll"
            return cls(verb, rolled, at, as_played, text, early)
        verb, args = words[0].lower(), tuple(words[1:])
        if verb == "penalty":
            return cls(verb, _penalty_words(line, words), at, as_played, text, early)
        if verb in TIME_VERBS:
            return cls(verb, _quoted(line, words), at, as_played, text, early)
        if verb not in VERBS:
            raise InvalidActionError(
                f"{line!r}: unknown action {words[0]!r}; one of {', '.join(VERBS + TIME_VERBS)} "
                "or the shorthand '52: 13/8 13/11'"
            )
        if verb == "roll" and len(args) == 1 and len(args[0]) == 2:
            args = tuple(str(die) for die in read_dice(args))  # 'roll 64': six-four
        _check_arity(line, verb, args)
        if early and verb not in _EARLY:
            raise InvalidActionError(f"{line!r}: --premature goes with roll or double only")
        if verb in ("move", "note"):
            args = (" ".join(args),)
        return cls(verb, args, at, as_played, text, early)

    @classmethod
    def _correction(cls, line: str, words: list[str], at: str | None) -> Action:
        """``undo [--ruled-by director] [--reason TEXT]`` or ``amend EVENT LINE [...]``.

        ``--reason`` takes the rest of the line; the amended ``LINE`` must itself be
        an action (its ``--as-played`` stays with it).
        """
        verb, rest = words[0].lower(), words[1:]
        reason = ""
        if "--reason" in rest:
            cut = rest.index("--reason")
            rest, reason = rest[:cut], " ".join(rest[cut + 1 :])
            if not reason:
                raise InvalidActionError(f"{line!r}: --reason needs the reason's words")
        ruled_by = ""
        if "--ruled-by" in rest:
            cut = rest.index("--ruled-by")
            if cut + 1 >= len(rest):
                raise InvalidActionError(f"{line!r}: --ruled-by director")
            ruled_by, rest = rest[cut + 1].lower(), rest[:cut] + rest[cut + 2 :]
        text = " ".join(words)
        if verb == "undo":
            if rest:
                raise InvalidActionError(f"{line!r}: 'undo [--reason TEXT]' takes no argument")
            return cls(verb, (), at, text=text, reason=reason, ruled_by=ruled_by)
        if len(rest) < 2 or not (rest[0].isascii() and rest[0].isdigit()):
            raise InvalidActionError(
                f"{line!r}: 'amend EVENT LINE', e.g. 'amend 12 roll 6 4' or 'amend 13 move 13/8'"
            )
        said = " ".join(rest[1:])
        if rest[1].lower() in CORRECTION_VERBS + RULING_VERBS:
            raise InvalidActionError(
                f"{line!r}: amend takes what happened at the table, not a correction or a ruling"
            )
        Action.parse(said)  # what happened must itself be a line
        return cls(verb, (rest[0], said), at, text=text, reason=reason, ruled_by=ruled_by)

    @classmethod
    def _ruling(cls, line: str, words: list[str], at: str | None) -> Action:
        """``VERB ARG [--rule RULE] [--ruled-by WHO] [--agreed] --reason TEXT``.

        ``--reason`` takes the rest of the line; the rest may quote (``--rule "USBGF 4.4.8"``).
        """
        verb, rest = words[0].lower(), words[1:]
        usage = f"'{verb} {_RULING_ARG.get(verb, 'EVENT')} [--rule RULE] [--ruled-by WHO] "
        usage += "[--agreed] --reason TEXT'"
        if "--reason" not in rest or rest.index("--reason") == len(rest) - 1:
            raise InvalidActionError(f"{line!r}: a ruling needs --reason and its words: {usage}")
        cut = rest.index("--reason")
        reason = " ".join(rest[cut + 1 :])
        head = list(_quoted(line, ["", *rest[:cut]]))
        options: dict[str, str] = {}
        agreed = "--agreed" in head
        head = [word for word in head if word != "--agreed"]
        for name in ("--rule", "--ruled-by"):
            if name in head:
                at_name = head.index(name)
                if at_name + 1 >= len(head):
                    raise InvalidActionError(f"{line!r}: {name} needs a value: {usage}")
                options[name] = head[at_name + 1]
                del head[at_name : at_name + 2]
        if len(head) != 1 or not _ruling_argument(verb, head[0]):
            raise InvalidActionError(f"{line!r}: {usage}")
        ruled_by = options.get("--ruled-by", "").lower()
        if ruled_by and ruled_by not in RULERS:
            raise InvalidActionError(
                f"{line!r}: --ruled-by {ruled_by!r}: one of {', '.join(RULERS)}"
            )
        return cls(
            verb, (head[0],), at, text=without_comment(line), reason=reason,
            ruled_by=ruled_by,
            rule=options.get("--rule"), agreed=agreed,
        )  # fmt: skip

    def __repr__(self) -> str:
        return f"Action.parse({self.text!r})"

    def apply(self, match: Match, by: str) -> None:
        """Perform the action on ``match``, recorded by ``by``.

        :raises RulesError: for dice, plays, levels or times that are not valid input.
        :raises ActionRefusedError: when the match refuses the action (the rule is cited).
            Either way nothing of the line is recorded.
        """
        at, verb, args = self.at, self.verb, self.args
        if verb in CORRECTION_VERBS or verb in RULING_VERBS:
            raise InvalidActionError(
                f"{self.text!r} decides on the match's history: Ledger.record_line takes it"
            )
        if self.premature:
            self._early(match, by)
        elif verb in TIME_VERBS:
            _apply_time(match, verb, list(args), by, at)
        elif verb == "opening":
            match.opening(_die(args[0]), _die(args[1]), by=by, at=at)
        elif verb in ("roll", "roll-move"):
            with match.atomic():  # '52: 13/x' refused records no roll either
                # --as-played: a roll really made on the opponent's time (his hit missed)
                on_time = self.as_played and verb == "roll"  # '52: 13/x --as-played': the play
                danced = match.roll(_die(args[0]), _die(args[1]), as_played=on_time, by=by, at=at)
                if verb == "roll-move" and not (danced and _is_dance(args[2])):
                    match.move(args[2], as_played=self.as_played, by=by, at=at)
        elif verb == "move":
            match.move(args[0], as_played=self.as_played, by=by, at=at)
        elif verb == "resign":
            player = args[1].lower() if len(args) > 1 else None
            match.resign(args[0], player=player, as_played=self.as_played, by=by, at=at)
        elif verb == "void-roll":
            match.void_roll(args[0], by=by, at=at)
        elif verb == "note":
            match.remark(args[0], by=by, at=at)
        elif verb == "double":
            match.double(as_played=self.as_played, by=by, at=at)
        elif verb == "beaver":
            match.beaver(as_played=self.as_played, by=by, at=at)
        elif verb == "automatic-double":
            match.automatic_double(as_played=self.as_played, by=by, at=at)
        elif verb in ("accept-roll", "refuse-roll"):
            decide = match.accept_roll if verb == "accept-roll" else match.refuse_roll
            decide(by=by, at=at)
        else:
            getattr(match, verb)(by=by, at=at)

    def _early(self, match: Match, by: str) -> None:
        """``roll D D --premature`` or ``double --premature``."""
        if self.verb == "roll":
            match.roll_early(_die(self.args[0]), _die(self.args[1]), by=by, at=self.at)
        else:
            match.double_early(as_played=self.as_played, by=by, at=self.at)


_RULING_ARG = {"correct-length": "LENGTH", "correct-score": "A-B", "overturn": "RULING"}
"""What a ruling line names, where it is not an EVENT number."""


def _ruling_argument(verb: str, word: str) -> bool:
    """True if ``word`` is what ``verb`` names: a number, or a score ``A-B``."""
    if verb == "correct-score":
        parts = word.split("-")
        return len(parts) == 2 and all(p.isascii() and p.isdigit() for p in parts)
    return word.isascii() and word.isdigit() and int(word) > 0


def _check_arity(line: str, verb: str, args: tuple[str, ...]) -> None:
    expected = _ARITY.get(verb)
    if expected is not None and len(args) != expected:
        usage = f"{verb} D D" if expected == 2 else verb
        raise InvalidActionError(f"{line!r}: {verb} takes {expected} argument(s): {usage!r}")
    if verb == "move" and not args:
        raise InvalidActionError(f"{line!r}: move needs a play, e.g. 'move 13/8 13/11'")
    if verb == "note" and not args:
        raise InvalidActionError(f"{line!r}: note needs its text, e.g. 'note Bob left the table'")
    if verb == "resign" and not 1 <= len(args) <= 2:
        raise InvalidActionError(f"{line!r}: 'resign single|gammon|backgammon [a|b]'")
    if verb == "void-roll" and len(args) != 1:
        raise InvalidActionError(f"{line!r}: 'void-roll REASON', e.g. 'void-roll cocked'")


def _quoted(line: str, words: list[str]) -> tuple[str, ...]:
    """The arguments of a clock or break line, quotes respected (``"USBGF 1.2.3"``)."""
    try:
        return tuple(shlex.split(" ".join(words[1:])))
    except ValueError as error:
        raise InvalidActionError(f"{line!r}: {error}") from None


def _penalty_words(line: str, words: list[str]) -> tuple[str, ...]:
    """``penalty a|b POINTS RULE REASON...``: the reason is the rest of the line (as a ruling's
    ``--reason`` is), apostrophes and all; the rule is one word or quoted (``"USBGF 2.2.4"``
    or ``'USBGF 2.2.4'``).  A reason that is one quoted string reads as its words.
    """
    head = words[1:3]
    rest = " ".join(words[3:])
    if rest[:1] in ("'", '"'):
        end = rest.find(rest[0], 1)
        if end < 0:
            raise InvalidActionError(f"{line!r}: the rule's closing quotation {rest[0]} is missing")
        rule, reason = rest[1:end], rest[end + 1 :].strip()
    else:
        rule, _, reason = rest.partition(" ")
    if reason[:1] in ("'", '"') and reason[-1:] == reason[0]:
        try:
            said = shlex.split(reason)
        except ValueError:
            said = []
        reason = said[0] if len(said) == 1 else reason
    return tuple(head) + ((rule, reason) if reason else (rule,) if rule else ())


def _die(word: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise InvalidActionError(f"die {word!r} is not a number 1-6")
    return int(word)


def _is_dance(play: str) -> bool:
    return play.strip().lower() in ("", "cannot move", "can't move")


# -- the clock, break and penalty lines -------------------------------------------------


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


def _early_pickup(match: Match, args: list[str], by: str, at: str | None) -> None:
    ruling = Ruling(
        "director", "picked up the dice before the opponent hit the clock", by=by, at=at
    )
    match.early_pickup(_player(args[0]), ruling)


_ONE_PLAYER: dict[str, Callable[[Match, str, str, str | None], object]] = {
    "flag": lambda m, p, by, at: m.flag(p, by=by, at=at),
    "late": lambda m, p, by, at: m.late(p, by=by, at=at),
}


def _apply_time(match: Match, verb: str, args: list[str], by: str, at: str | None) -> None:
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
        _early_pickup(match, args, by, at)
    elif verb == "clock":
        _clock(match, args, by, at)
    elif verb == "break":
        _break(match, [a.lower() if i < 1 else a for i, a in enumerate(args)], by, at)
    elif verb == "penalty":
        _penalty(match, args, by, at)
    else:
        usage = _TIME_USAGE.get(verb, verb)
        raise InvalidTimeActionError(f"{' '.join([verb, *args])!r}: expected {usage}")


_TIME_USAGE = {
    "hit": "hit [a|b]",
    "flag": "flag a|b",
    "late": "late a|b",
    "early-pickup": "early-pickup a|b",
}
"""What the one-line clock verbs take, for the message when a line gives something else."""
