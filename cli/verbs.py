"""One command a verb, made from the vocabulary: ``bgledger VERB MATCH WORDS... [OPTIONS]``.

Each verb of :data:`bgledger.commands.vocabulary.VOCABULARY` is a command of
the command line, made here from its class and from nothing else: its usage,
options, summary, details and example.  The command's words are the verb's
line of the record language with MATCH in front (``bgledger roll M1 6 4``
records ``roll 6 4``); each option given is said in the line as the class's
:class:`~bgledger.commands.vocabulary.Option` says (``bgledger clock M1 start
simple-delay --reserve 10:00`` records ``clock start simple-delay reserve
10:00``).  A two-word verb (``clock start``, ``break end``) is a subcommand of
a group named by its first word, which takes MATCH: ``bgledger clock M1 stop
dispute``.

The line is recorded through the front door (:meth:`bgledger.Ledger.record`)
and what it answers is printed (:func:`~bgledger.cli.common.answer`): the
entries as ``history`` words them, then the state in one line; ``--json``
the state with ``recorded`` and ``entries``.  A line that says nothing exits
2, a refusal exits 1 citing the rule; either way nothing is recorded.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from typing import Any

import click

from bgledger.cli.common import json_option, library_errors, record_command, stamp_options
from bgledger.cli.main import verb_commands
from bgledger.commands.vocabulary import (
    MAX_LINE,
    Command,
    InvalidActionError,
    Option,
    parse,
    verbs,
    without_comment,
)
from bgledger.rules.errors import RulesError

__all__ = ["cli_example", "command_for", "help_of", "line_from", "one_shot", "read"]


def _dest(option: Option) -> str:
    """The click parameter an option is read into (apart from ``by``, ``at``, ``as_json``)."""
    return "option_" + option.name.lstrip("-").replace("-", "_")


def line_from(kind: type[Command], params: dict[str, Any]) -> str:
    """The line a command of ``kind`` records, from its click parameters ``params``.

    :raises InvalidActionError: for options that make no line together.
    """
    given = {option.name: params.get(_dest(option)) for option in kind.options}
    return kind.line_of(tuple(params.get("words") or ()), given)


def read(line: str) -> Command:
    """The command ``line`` says; a refusal quotes the line the command line made.

    A ``#`` standing alone starts a comment in a line (``roll 6 4  # Ann``); given as a word
    of the command line it is meant as text (``note table # 4``), which a line cannot hold:
    refused, rather than recorded cut short.

    :raises InvalidActionError: as :func:`~bgledger.commands.vocabulary.parse`.
    """
    if without_comment(line) != line.strip():
        raise InvalidActionError(
            f"{line!r}: a '#' standing alone starts a comment in the record language, and the "
            "words after it would not be recorded: write it inside a word ('#4') or leave it out"
        )
    try:
        return parse(line)
    except RulesError as error:  # a line that is no command, or words that describe nothing
        said = str(error)
        if said.startswith(repr(line)) or len(line) > MAX_LINE:
            raise
        error.args = (f"{line!r}: {said}",)  # the same refusal, quoting the line it read
        raise


def cli_example(kind: type[Command]) -> str:
    """The class's example as a command line: MATCH after the verb (after a group's name),
    ``--reason``'s words quoted for the shell."""
    first, _, sub = kind.verb.partition(" ")
    tail = kind.example[len(kind.verb) :].strip()
    head, marker, reason = f" {tail}".partition(" --reason ")
    if marker:
        tail = f"{head.strip()} --reason {shlex.quote(reason)}".strip()
    said = f"{first} MATCH {sub}" if sub else f"{first} MATCH"
    return f"bgledger {said} {tail}".rstrip()


def _positional(kind: type[Command]) -> str:
    """The usage's words after the verb but its options: ``roll D D [--as-played]``: ``D D``."""
    tail = kind.usage[len(kind.verb) :]
    tail = re.sub(r"\[--[^\]]*\]", "", tail)
    return " ".join(re.sub(r"--\S+(\s+[A-Z][A-Z_.]*)?", "", tail).split())


def help_of(kind: type[Command]) -> str:
    """``bgledger VERB --help``'s text: the summary, the details, the line and an example."""
    paragraphs = [kind.summary[:1].upper() + kind.summary[1:] + "."]
    for paragraph in kind.details.split("\n\n") if kind.details else ():
        paragraphs.append(f"\b\n{paragraph}" if "\n" in paragraph else paragraph)
    paragraphs.append(f"\b\nThe line:  {kind.usage}\nExample:   {cli_example(kind)}")
    return "\n\n".join(paragraphs)


def one_shot(kind: type[Command], *, grouped: bool = False) -> click.Command:
    """The command of ``kind``'s verb (``grouped``: its second word, in its first word's
    group, which took MATCH)."""

    @click.pass_context
    def record(ctx: click.Context, /, **params: Any) -> None:
        match_id = params.pop("match_id") if "match_id" in params else ctx.obj["match_id"]
        with library_errors():
            command = read(line_from(kind, params))
        record_command(ctx, match_id, command, params["by"], params["at"], params["as_json"])

    decorated: Callable[..., Any] = json_option(stamp_options(record))
    for option in reversed(kind.options):
        decorated = click.option(
            option.name,
            _dest(option),
            is_flag=not option.metavar,
            metavar=option.metavar or None,
            required=option.required,
            help=option.help,
        )(decorated)
    positional = _positional(kind)
    if positional:  # a verb whose usage has no words takes none; one whose words are not
        # all optional needs one at least
        required = not positional.startswith("[")
        decorated = click.argument("words", nargs=-1, metavar=positional, required=required)(
            decorated
        )
    if not grouped:
        decorated = click.argument("match_id", metavar="MATCH")(decorated)
    name = kind.verb.split()[-1] if grouped else kind.verb
    return click.command(name, help=help_of(kind), short_help=kind.summary)(decorated)


def _group(name: str, kinds: list[type[Command]]) -> click.Group:
    """``bgledger NAME MATCH SUB ...``: the verbs ``NAME SUB`` (``clock start`` ...)."""

    @click.pass_context
    def take_match(ctx: click.Context, /, match_id: str) -> None:
        ctx.obj = {**(ctx.obj or {}), "match_id": match_id}

    lines = "\n".join(f"{kind.usage}\n    {kind.summary}" for kind in kinds)
    help = f"The lines '{name} ...' of MATCH:\n\n\b\n{lines}"
    group = click.group(name, help=help, short_help=verb_commands()[name])(
        click.argument("match_id", metavar="MATCH")(take_match)
    )
    for kind in kinds:
        group.add_command(one_shot(kind, grouped=True))
    return group


def command_for(name: str) -> click.Command | None:
    """The command ``bgledger NAME`` of the vocabulary's verbs as they are now: a verb's
    own, or the group of the two-word verbs whose first word it is; None if no verb is."""
    kinds = [kind for verb, kind in verbs().items() if verb.partition(" ")[0] == name]
    if not kinds:
        return None
    if len(kinds) == 1 and kinds[0].verb == name:
        return one_shot(kinds[0])
    return _group(name, kinds)
