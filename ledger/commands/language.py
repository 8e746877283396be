"""The lexical rules of the record language: what a line is, before its verb is read.

A line is a verb of the command line without the match id
(:mod:`bgledger.commands.vocabulary` holds every verb, its usage and its
reading), optionally preceded by ``@TIME`` (when it happened, ISO 8601)::

    opening 3 1            roll 5 2 (or roll 52)    move 13/8 13/11
    52: 13/8 13/11         the .mat shorthand: roll and play ('52:' alone: the roll)
    @2026-11-21T14:05:00+01:00 roll 6 6
    hit                    clock stop dispute       penalty a 1 "USBGF 2.2.4" left early
    revert 12 --rule "USBGF 4.2.3(f)" --agreed --reason both agreed (a ruling)
    undo --reason typo     amend 12 roll 6 4        (recording errors)

A ``#`` standing alone as a word starts a comment (``roll 6 4  # Ann``); a
``#`` inside a word is text (``note table #4 moved``).  A line is at most
:data:`MAX_LINE` characters.
"""

from __future__ import annotations

import re

from bgledger.errors import RulesError

__all__ = ["MAX_LINE", "InvalidActionError", "InvalidTimeActionError", "without_comment"]

_COMMENT = re.compile(r"(?:^|\s)#(?=\s|$)")
"""Where a comment starts: a ``#`` standing alone as a word."""
MAX_LINE = 4096
"""The most characters a line may have: an action, or a note or reason of a paragraph."""


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


class InvalidTimeActionError(InvalidActionError):
    """A clock, break or penalty line with missing, extra or malformed arguments."""
