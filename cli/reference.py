"""The command reference, ``docs/commands.md``, written from the vocabulary.

One section a verb of :data:`bgledger.commands.vocabulary.VOCABULARY`, in its
order: the line, the command line, who may issue it, what it does, an
example, the events it records, its options, and the rules it cites.  Nothing here is kept by hand:
a verb added to the vocabulary has its section.  Regenerate the file with::

    python -m bgledger.cli.reference > docs/commands.md

``tests/test_cli_reference.py`` fails when the committed file differs.
"""

from __future__ import annotations

import re

import click

from bgledger.cli.verbs import cli_example, one_shot
from bgledger.commands import vocabulary
from bgledger.commands.vocabulary import FOLLOWING, Command, parse
from bgledger.service import PROFILES

__all__ = ["REGENERATE", "cited", "issued_by", "reference", "section"]

REGENERATE = "python -m bgledger.cli.reference > docs/commands.md"
"""The command that writes the reference."""

_CITATION = re.compile(
    r"\b(?:USBGF|CLOCK|ABT|CLASSIC)\s\d+(?:\.\d+)*(?:\([a-z]\))?"
    r"(?:(?:, |-)\d+(?:\.\d+)+(?:\([a-z]\))?(?:-\([a-z]\))?)*"
)
"""A rule cited in a help text: ``USBGF 4.4.6.1, 4.4.9``, ``CLOCK 2.1``, ``USBGF 4.2.3(a)``."""

_WHO = {
    "": "the scorekeeper (or anyone above: the director, the committee)",
    "director": "the director (or the appeal committee)",
    "committee": "the appeal committee",
}


def issued_by(kind: type[Command]) -> str:
    """Who may issue ``kind``'s example: the ruler its value says (:attr:`Command.ruler`)."""
    return _WHO[parse(kind.example).ruler]


def cited(kind: type[Command]) -> list[str]:
    """The rules ``kind`` cites: in its help, and each profile's rule for its decision."""
    found = dict.fromkeys(_CITATION.findall(f"{kind.summary} {kind.details}"))
    if kind.decision is not None:
        under: dict[str, list[str]] = {}
        for name, profile in PROFILES.items():
            under.setdefault(profile.cite(kind.decision), []).append(name)
        for rule, names in under.items():
            if rule and not any(rule in said for said in found):
                found[rule if len(under) == 1 else f"{rule} ({', '.join(names)})"] = None
    return list(found)


def section(kind: type[Command]) -> str:
    """``kind``'s section of the reference, in Markdown."""
    summary = kind.summary[:1].upper() + kind.summary[1:] + "."
    lines = [
        f"## `{_heading(kind)}`",
        "",
        summary,
        "",
        f"- The line: `{kind.usage}`",
        f"- {_command_line(kind)}",
        f"- Who may issue it: {issued_by(kind)}",
    ]
    rules = cited(kind)
    if rules:
        lines.append(f"- Rules: {'; '.join(rules)}")
    if kind.recorded:
        names = ", ".join(f"`{event.__name__}`" for event in kind.recorded)
        lines.append(f"- Records: {names}")
    if kind.records:
        names = ", ".join(f"`{event.__name__}`" for event in kind.records)
        lines.append(f"- Only it records (an entry of one is its ruler's act): {names}")
    for paragraph in kind.details.split("\n\n") if kind.details else ():
        block = "\n".join(f"    {line}" for line in paragraph.splitlines())
        lines.extend(["", block if "\n" in paragraph else paragraph])
    if kind.options:
        lines.extend(["", "| Option | In the line | What it says |", "|---|---|---|"])
        for option in kind.options:
            name = f"{option.name} {option.metavar}".strip()
            said = option.say(option.metavar or True)
            cells = (f"`{name}`", f"`{said}`", option.help)
            lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def _command_line(kind: type[Command]) -> str:
    """How the command line says it, and its example both ways."""
    if vocabulary.verbs().get(kind.verb) is not kind:
        return f"Example: `{kind.example}` (a line of the record language; no command of its own)"
    first, _, sub = kind.verb.partition(" ")
    command = one_shot(kind, grouped=bool(sub))
    pieces = command.collect_usage_pieces(click.Context(command, info_name=command.name))
    usage = " ".join(piece for piece in pieces if piece != "[OPTIONS]")
    said = f"{first} MATCH {sub} {usage}" if sub else f"{first} {usage}"
    return (
        f"The command line: `bgledger {said.strip()} [OPTIONS]`; "
        f"example: `{kind.example}` (`{cli_example(kind)}`)"
    )


def reference() -> str:
    """``docs/commands.md``: every verb's section, in the vocabulary's order."""
    head = [
        "# Commands",
        "",
        "<!-- Written by the vocabulary: do not edit. Regenerate with",
        f"     {REGENERATE} -->",
        "",
        "Every verb of the record language, as `bgledger record`, the console, the pad and",
        "the director's desk read it, and as a command of its own on the command line:",
        "`bgledger VERB MATCH ...` records the line `VERB ...` (a `clock` or `break` line:",
        "`bgledger clock MATCH start ...`).  Each command also takes `--by NAME` (who",
        "records), `--at TIME` (when it happened, ISO 8601) and `--json`; a line may start",
        "with `@TIME` instead.  A refusal exits 1 citing the rule, bad input exits 2;",
        "either way nothing is recorded.",
        "",
        "Besides the events each verb lists, a line records what follows from them by the",
        f"rules: {', '.join(f'`{event.__name__}`' for event in FOLLOWING)}.",
        "",
        " · ".join(f"[`{_heading(kind)}`](#{_anchor(_heading(kind))})" for kind in _kinds()),
        "",
        "",
    ]
    return "\n".join(head) + "\n".join(section(kind) for kind in _kinds())


def _kinds() -> list[type[Command]]:
    return list(vocabulary.VOCABULARY)


def _heading(kind: type[Command]) -> str:
    """The verb; a class another verb's reads (``note --ruled-by``, ``DD: PLAY``): its usage
    up to its first optional part."""
    if vocabulary.verbs().get(kind.verb) is kind:
        return kind.verb
    return kind.usage.split(" [")[0]


def _anchor(heading: str) -> str:
    """The heading's anchor, as GitHub makes it."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.lower()).replace(" ", "-")


if __name__ == "__main__":
    print(reference(), end="")
