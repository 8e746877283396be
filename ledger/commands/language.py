"""One action a line: the language of ``bgledger record`` and of scenario transcripts.

A line is a verb of the command line without the match id, optionally
preceded by ``@TIME`` (when it happened, ISO 8601) and followed by
``--as-played`` (record an illegal action that was made at the board)::

    opening 3 1            a's die, b's die
    roll 5 2               move 13/8 13/11
    52: 13/8 13/11         .mat shorthand: roll and play ('52:' alone: roll only)
    double | take | drop   resign gammon [a|b]    accept | reject
    void-roll cocked       @2026-11-21T14:05:00+01:00 roll 6 6
    roll 6 5 --premature   double --premature       (by the player not on roll, early)
    accept-roll | refuse-roll                       (the mover's answer to an early roll)
    # a comment (also after an action), and blank lines, are skipped

and the clock, break and penalty lines of :mod:`bgledger.commands.language_time`
(``hit``, ``clock stop dispute``, ``break start a``, ``late b`` ...).

Example::

    >>> Action.parse("@2026-11-21T10:00:00+00:00 52: 13/8 13/11")
    Action.parse('@2026-11-21T10:00:00+00:00 52: 13/8 13/11')
    >>> Action.parse("move 13/7 --as-played").as_played
    True
    >>> Action.parse("roll 6 5 --premature").premature
    True
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from bgledger.commands import premature
from bgledger.commands.language_time import TIME_VERBS, apply_time
from bgledger.commands.match import Match
from bgledger.errors import RulesError

__all__ = ["VERBS", "Action", "InvalidActionError"]

VERBS = (
    "opening",
    "roll",
    "move",
    "double",
    "take",
    "drop",
    "resign",
    "accept",
    "reject",
    "void-roll",
    "accept-roll",
    "refuse-roll",
)
_SHORTHAND = re.compile(r"([1-6])([1-6]):(.*)")
_ARITY = {"opening": 2, "roll": 2, "double": 0, "take": 0, "drop": 0, "accept": 0, "reject": 0}
_ARITY.update({"accept-roll": 0, "refuse-roll": 0})
_EARLY = ("roll", "double")
"""The verbs ``--premature`` goes with (USBGF 4.1.7.1, 4.4.7)."""


class InvalidActionError(RulesError):
    """A line that is not an action: an unknown verb, missing or extra arguments."""


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

    @classmethod
    def parse(cls, line: str) -> Action:
        """Read one line.

        Anything after ``#`` is a comment.

        :raises InvalidActionError: for an empty line, an unknown verb, the
            wrong number of arguments or ``--premature`` on another verb.
        """
        text = line.split("#", 1)[0].strip()
        words = text.split()
        at = None
        if words and words[0].startswith("@"):
            at, words = words[0][1:], words[1:]
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
        if verb in TIME_VERBS:
            return cls(verb, _quoted(line, words), at, as_played, text, early)
        if verb not in VERBS:
            raise InvalidActionError(
                f"{line!r}: unknown action {words[0]!r}; one of {', '.join(VERBS + TIME_VERBS)} "
                "or the shorthand '52: 13/8 13/11'"
            )
        _check_arity(line, verb, args)
        if early and verb not in _EARLY:
            raise InvalidActionError(f"{line!r}: --premature goes with roll or double only")
        if verb == "move":
            args = (" ".join(args),)
        return cls(verb, args, at, as_played, text, early)

    def __repr__(self) -> str:
        return f"Action.parse({self.text!r})"

    def apply(self, match: Match, by: str) -> None:
        """Perform the action on ``match``, recorded by ``by``.

        :raises RulesError: for dice, plays, levels or times that are not valid input.
        :raises ActionRefusedError: when the match refuses the action (the rule is cited).
            Either way nothing of the line is recorded.
        """
        at, verb, args = self.at, self.verb, self.args
        if self.premature:
            self._early(match, by)
        elif verb in TIME_VERBS:
            apply_time(match, verb, list(args), by, at)
        elif verb == "opening":
            match.opening(_die(args[0]), _die(args[1]), by=by, at=at)
        elif verb in ("roll", "roll-move"):
            with match.atomic():  # '52: 13/x' refused records no roll either
                danced = match.roll(_die(args[0]), _die(args[1]), by=by, at=at)
                if verb == "roll-move" and not (danced and _is_dance(args[2])):
                    match.move(args[2], as_played=self.as_played, by=by, at=at)
        elif verb == "move":
            match.move(args[0], as_played=self.as_played, by=by, at=at)
        elif verb == "resign":
            player = args[1].lower() if len(args) > 1 else None
            match.resign(args[0], player=player, as_played=self.as_played, by=by, at=at)
        elif verb == "void-roll":
            match.void_roll(args[0], by=by, at=at)
        elif verb == "double":
            match.double(as_played=self.as_played, by=by, at=at)
        elif verb in ("accept-roll", "refuse-roll"):
            decide = premature.accept_roll if verb == "accept-roll" else premature.refuse_roll
            decide(match, by=by, at=at)
        else:
            getattr(match, verb)(by=by, at=at)

    def _early(self, match: Match, by: str) -> None:
        """``roll D D --premature`` or ``double --premature``."""
        if self.verb == "roll":
            premature.roll(match, _die(self.args[0]), _die(self.args[1]), by=by, at=self.at)
        else:
            premature.double(match, as_played=self.as_played, by=by, at=self.at)


def _check_arity(line: str, verb: str, args: tuple[str, ...]) -> None:
    expected = _ARITY.get(verb)
    if expected is not None and len(args) != expected:
        usage = f"{verb} D D" if expected == 2 else verb
        raise InvalidActionError(f"{line!r}: {verb} takes {expected} argument(s): {usage!r}")
    if verb == "move" and not args:
        raise InvalidActionError(f"{line!r}: move needs a play, e.g. 'move 13/8 13/11'")
    if verb == "resign" and not 1 <= len(args) <= 2:
        raise InvalidActionError(f"{line!r}: 'resign single|gammon|backgammon [a|b]'")
    if verb == "void-roll" and len(args) != 1:
        raise InvalidActionError(f"{line!r}: 'void-roll REASON', e.g. 'void-roll cocked'")


def _quoted(line: str, words: list[str]) -> tuple[str, ...]:
    """The arguments of a clock, break or penalty line, quotes respected (``"USBGF 1.2.3"``)."""
    try:
        return tuple(shlex.split(" ".join(words[1:])))
    except ValueError as error:
        raise InvalidActionError(f"{line!r}: {error}") from None


def _die(word: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise InvalidActionError(f"die {word!r} is not a number 1-6")
    return int(word)


def _is_dance(play: str) -> bool:
    return play.strip().lower() in ("", "cannot move", "can't move")
