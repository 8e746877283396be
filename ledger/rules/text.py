"""Plain text: what a name, a tag, a note or a reason may hold (one policy for every path).

A player's name, an event or round, a scorekeeper's note, a director's reason
are shown on terminals, printed on score sheets, written into ``.mat``
headers and compared to recognise a player.  So every text a match records is
one line of visible characters, refused at input otherwise, by one rule on
every entry path (the command line, ``record``, ``.mat`` and JSON imports,
the web pad): the match's commands check every text of every event they make
(:meth:`bgledger.commands.stream.MatchStream._record`).

Refused, naming the character and quoting the input escaped:

- control characters (Unicode Cc: NUL, ESC, BEL, DEL, tab, newline, the C1
  controls): a terminal escape such as ``ESC ] 0;title BEL`` or OSC 52 would
  reach the screen of whoever runs ``show``, and PostgreSQL cannot store NUL;
- format characters (Cf): bidirectional overrides and isolates (U+202A-U+202E,
  U+2066-U+2069) that make text read backwards, and zero-width characters
  (U+200B-U+200D, U+2060, U+FEFF) that make ``"Ann"`` and ``"Ann\\u200b"`` two
  players who look the same; line and paragraph separators (Zl, Zp) and
  surrogates (Cs).  Zero-width joiners are part of some scripts' spelling; a
  name that needs one is written without it, as on a score sheet;
- more than :data:`MAX_TEXT` characters (a reason is a sentence or two, a name
  far less): input that long is an accident or an attack, and is refused before
  anything else looks at it.

Example::

    >>> check_text("player a", "Ann")
    'Ann'
    >>> check_text("player a", "Ann\\x1b]0;x\\x07")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bgledger.rules.text.InvalidTextError: player a 'Ann\\x1b]0;x\\x07': U+001B (a control ...
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

from bgledger.rules.errors import RulesError

__all__ = [
    "MAX_TEXT",
    "InvalidTextError",
    "check_text",
    "check_texts",
    "escaped",
    "find_unsafe",
]

MAX_TEXT = 2000
"""The most characters a text may have (a reason of a paragraph fits; a 150 KB line does not)."""

_KINDS = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Cs": "a surrogate",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


class InvalidTextError(RulesError):
    """A name, tag, note or reason that is not one line of visible text, or is too long."""


def find_unsafe(text: str) -> tuple[int, str] | None:
    """The first character of ``text`` the policy refuses and its position, if any."""
    if text.isprintable():  # the common case: no Cc, Cf, Cs, Zl, Zp (nor other separators)
        return None
    for index, char in enumerate(text):
        if unicodedata.category(char) in _KINDS:
            return index, char
    return None


def escaped(text: str, keep: str = "") -> str:
    """``text`` with every character the policy refuses written as Python writes it in a
    ``repr`` (``\\x1b``, ``\\u202e``), the characters in ``keep`` (``"\\n"``) and every
    visible one (Zoë, José, 東京) as they are.

    For text that reached the store without :func:`check_text` (a row written by hand):
    shown on a terminal it must not be an escape sequence.

    >>> escaped("Ann\\x1b[2J Zoë")
    'Ann\\\\x1b[2J Zoë'
    """
    if text.isprintable():
        return text
    return "".join(
        char if char in keep or unicodedata.category(char) not in _KINDS else repr(char)[1:-1]
        for char in text
    )


def check_text(label: str, text: str, limit: int = MAX_TEXT) -> str:
    """``text`` if it is plain text of at most ``limit`` characters.

    :raises InvalidTextError: naming ``label``, quoting ``text`` escaped.
    """
    if len(text) > limit:
        raise InvalidTextError(f"{label} {text[:40]!r}...: {len(text)} characters, at most {limit}")
    found = find_unsafe(text)
    if found is not None:
        index, char = found
        kind = _KINDS[unicodedata.category(char)]
        raise InvalidTextError(
            f"{label} {text!r}: U+{ord(char):04X} ({kind}) at {index}; "
            "names, notes and reasons are one line of visible text"
        )
    return text


def _texts(label: str, value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield label, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(f"{label} key", str(key))
            yield from _texts(f"{label}[{key!r}]", item)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _texts(f"{label}[{index}]", item)


def check_texts(fields: dict[str, Any]) -> None:
    """Check every text in ``fields`` (an event's, nested lists and dicts included).

    :raises InvalidTextError: for the first that is not plain text.
    """
    for name, value in fields.items():
        if isinstance(value, str):  # most fields: checked without walking them
            check_text(name, value)
        elif isinstance(value, dict | list | tuple):
            for label, text in _texts(name, value):
                check_text(label, text)
