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
    "as_entered",
    "check_name",
    "check_text",
    "check_texts",
    "escaped",
    "event_key",
    "find_blank",
    "find_unsafe",
    "look_alikes",
    "name_key",
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
            if len(value) <= MAX_TEXT and value.isprintable():
                continue  # plain text (find_unsafe's common case), without two calls a field
            check_text(name, value)
        elif isinstance(value, dict | list | tuple):
            for label, text in _texts(name, value):
                check_text(label, text)


# -- names, as people see them ----------------------------------------------------------
#
# A player's or an event's name is compared by eye: at the table, on the wall, in the
# standings.  So a name must show something (a name of U+3164 HANGUL FILLER or U+2800
# BRAILLE PATTERN BLANK prints as nothing), is stored as entered but NFC-composed and
# trimmed (``as_entered``: "Zoë" typed with a combining diaeresis is the same four letters),
# and names are compared folded (``name_key``, ``event_key``).  Stored names are never
# rewritten: an old event reads as it was stored, and is compared folded.

_BLANK = frozenset(
    {
        0x034F,  # COMBINING GRAPHEME JOINER
        0x115F,  # HANGUL CHOSEONG FILLER
        0x1160,  # HANGUL JUNGSEONG FILLER
        0x17B4,  # KHMER VOWEL INHERENT AQ
        0x17B5,  # KHMER VOWEL INHERENT AA
        0x2800,  # BRAILLE PATTERN BLANK
        0x3164,  # HANGUL FILLER
        0xFFA0,  # HALFWIDTH HANGUL FILLER
    }
)
"""Characters that are letters or symbols to Unicode and print as nothing (or a space): the
default-ignorable ones not already refused as format characters, and the braille blank."""

_MARKS = frozenset({"Mn", "Me", "Mc"})
"""Combining marks: visible only on a character before them (variation selectors are Mn)."""


def _char_name(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'an unassigned character')}"


def find_blank(text: str) -> str | None:
    """Why ``text`` would print as nothing (or hide a character), naming the character; None
    if every character of it shows.

    >>> find_blank("Zoë") is None
    True
    >>> find_blank("\u3164")
    'U+3164 HANGUL FILLER prints as nothing'
    >>> find_blank("\u0308\ufe0f")
    'U+0308 COMBINING DIAERESIS and U+FE0F VARIATION SELECTOR-16 mark no letter: nothing shows'
    """
    for char in text:
        if ord(char) in _BLANK:
            return f"{_char_name(char)} prints as nothing"
        if unicodedata.category(char) == "Cn":
            return f"{_char_name(char)} is unassigned in Unicode {unicodedata.unidata_version}"
    shown = [c for c in text if not c.isspace() and unicodedata.category(c) not in _MARKS]
    if shown or not text.strip():
        return None
    marks = [_char_name(c) for c in dict.fromkeys(text) if not c.isspace()]
    listed = marks[0] if len(marks) == 1 else f"{', '.join(marks[:-1])} and {marks[-1]}"
    verb = "marks" if len(marks) == 1 else "mark"
    return f"{listed} {verb} no letter: nothing shows"


def as_entered(name: str) -> str:
    """A name as a new match records it: NFC-composed, trimmed (spaces inside kept).

    >>> as_entered(" Zoe\u0308 ") == "Zo\u00eb"
    True
    """
    return unicodedata.normalize("NFC", name).strip()


def check_name(label: str, name: str, limit: int = MAX_TEXT) -> str:
    """``name`` if it is plain text (:func:`check_text`) that shows on a screen.

    :raises InvalidTextError: naming ``label`` and the character that prints as nothing.
    """
    check_text(label, name, limit)
    blank = find_blank(name)
    if blank is not None:
        raise InvalidTextError(f"{label} {name!r}: {blank}; a name is something people can read")
    return name


def name_key(name: str) -> str:
    """A player's name as the standings compare it: NFC, trimmed, spaces inside collapsed.

    Case is kept: "Ann" and "ANN" may be two people; "Zoë" typed two ways is one.

    >>> name_key("Zoe\u0308  Smith ") == name_key("Zo\u00eb Smith")
    True
    """
    return " ".join(unicodedata.normalize("NFC", name).split())


_LOOK_ALIKES = str.maketrans(
    # Greek letters, folded to lower case, written as the Latin letter their capital looks like.
    "αβεζηικμνορτυχ"
    # Cyrillic letters, folded, written as the Latin letter they look like.
    "авеёкмнорстухіјѕԁԛԝӏ",
    "abezhikmnoptyxabeëkmhopctyxijsdqwl",
)
"""The common Latin look-alikes of Greek and Cyrillic letters (a subset of Unicode's
confusables, UTS #39): a name typed on a Greek or Russian keyboard layout, or pasted, that
reads as the Latin one."""


def event_key(name: str) -> str:
    """An event's name as events are told apart: NFKC, case-folded, spaces collapsed, and the
    Greek and Cyrillic letters that look Latin written as Latin (:data:`_LOOK_ALIKES`).

    >>> event_key("Open") == event_key(" OPEN ") == event_key("\u039fpen")
    True
    >>> event_key("Open") == event_key("Opens")
    False
    """
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(unicodedata.normalize("NFC", folded.translate(_LOOK_ALIKES)).split())


def look_alikes(name: str) -> list[str]:
    """The characters of ``name`` that :func:`event_key` reads as a Latin letter, named.

    >>> look_alikes("\u039fpen")
    ['U+039F GREEK CAPITAL LETTER OMICRON']
    """
    return [
        _char_name(char)
        for char in dict.fromkeys(name)
        if char.casefold().translate(_LOOK_ALIKES) != char.casefold()
    ]
