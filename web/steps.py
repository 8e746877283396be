"""A refusal's next step in the scorekeeper's words: a sentence, and buttons that post its lines.

The ledger's :class:`~bgledger.errors.NextStep` names the commands to record
next; the command line prints them as commands.  The pad never shows command
syntax: each command that is a definite thing to record becomes a button
(``Record as played``, ``Undo the roll``, ``Hit now``, ``Take`` ...: a verb's
:attr:`~bgledger.commands.vocabulary.Command.button`), whose label stands for it in
the sentence; an example (a roll, an opening roll, a play "e.g.") is written as
dice or a play and has no button, since what was rolled or played is tapped on
the pad.

>>> from bgledger.errors import NextStep
>>> step = NextStep("record it as played: {}; if not, {} the roll", (("move", "24/18", "--as-played"), ("undo",)))
>>> pad_step(step)["words"]
'record it as played: “Record as played”; if not, “Undo” the roll'
>>> [b["line"] for b in pad_step(step)["buttons"]]
['move 24/18 --as-played', 'undo']
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bgledger.commands.vocabulary import verbs
from bgledger.errors import NextStep

__all__ = ["pad_step"]


def pad_step(step: NextStep) -> dict[str, Any]:
    """``{"words": sentence, "buttons": [{"label", "line"}]}`` for ``step``."""
    words: list[str] = []
    buttons: list[dict[str, str]] = []
    for command in step.commands:
        label = _label(command)
        if label is None:
            words.append(_example(command))
            continue
        words.append("“Undo”" if command[0] == "undo" else f"“{label}”")  # "{} the roll"
        line = NextStep.record_line(command)
        if all(button["line"] != line for button in buttons):
            buttons.append({"label": label, "line": line})
    return {"words": step.text.format(*words), "buttons": buttons}


def _label(command: Sequence[str]) -> str | None:
    verb, *args = command
    if args and args[-1] == "--as-played":
        return "Record as played"
    if verb == "hit":
        return "Hit now"
    if verb == "move" and args in ([], [""]):
        return "No move possible"
    kind = verbs().get(" ".join(command))  # the verb alone: its one definite line
    return kind.button or None if kind is not None else None


def _example(command: Sequence[str]) -> str:
    """An example in the command (dice, a play) as the pad shows it: ``6-4``, ``24/18 13/9``."""
    verb, *args = command
    if verb in ("roll", "opening") and len(args) == 2:
        return f"{args[0]}-{args[1]}"
    return " ".join(args) if args else verb
