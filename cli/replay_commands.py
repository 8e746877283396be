"""``replay``: the appeal committee's tool (USBGF 5.3), one event at a time.

The match is stepped through event by event in either of the two views of
the past (DESIGN principle 4): *recorded*, the match as the log stood after
event N, and *corrected*, the same moment seen through every ruling in force
today.  Each step is :meth:`bgledger.service.Ledger.replay`'s
:class:`~bgledger.service.Step`, the one the web replay shows too; this
module only prints it: the event's history line, the board with the score
and the cube, and the rulings in force.

:class:`ReplaySession` is pure: ``step(command)`` returns the text to print,
so the command below is a thin loop over standard input.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial

import click

from bgledger.cli.common import BadInputError, library_errors, open_ledger, say, viewer_option
from bgledger.projections.views.text import board_diagram
from bgledger.service import Step

__all__ = ["HELP", "ReplaySession", "Steps", "replay"]

HELP = "n/next (Enter), b/back, j/jump N, t/toggle (recorded/corrected), q/quit"

Steps = Callable[[int, str], Step]
"""Where the steps come from: event number, view -> the step (``Ledger.replay`` on one match)."""


class ReplaySession:
    """Stepping through a match: where we are, in which view; ``step`` answers a command.

    :param steps: the match's steps (``partial(ledger.replay, match_id)``).
    :param at: the event to start at (clamped to the match).
    :param as_corrected: start in the corrected view.
    :param viewer: draw the board from this player's side (default: ``a``, at every step).
    """

    def __init__(
        self,
        steps: Steps,
        at: int = 1,
        as_corrected: bool = False,
        viewer: str | None = None,
    ) -> None:
        self._steps = steps
        self.corrected = as_corrected
        self.last = steps(1, self.view_name).last
        self.at = min(max(at, 1), self.last)
        self.viewer = viewer
        self.done = False

    @property
    def view_name(self) -> str:
        """``recorded`` or ``corrected``: the view the session is in."""
        return "corrected" if self.corrected else "recorded"

    def view(self) -> Step:
        """The match at the current event in the current view."""
        return self._steps(self.at, self.view_name)

    def screen(self) -> str:
        """What a step shows: where we are, the event, the board, the rulings in force."""
        shown = self.view()
        head = f"== event {shown.at} of {shown.last} · {shown.view} view ({shown.title()}) =="
        lines = [head, shown.line, board_diagram(shown.state, self.viewer)]
        lines.append(shown.rulings_text() or "no ruling in force")
        return "\n".join(lines)

    def step(self, command: str) -> str:
        """Carry out one command (``n``, ``b``, ``j N``, ``t``, ``q``; blank = next).

        Returns the text to print: the new screen, or why nothing moved.
        """
        verb, *args = command.split() or ["next"]
        action = _ACTIONS.get(verb.lower())
        if action is None:
            return f"unknown command {command.strip()!r}: {HELP}"
        return action(self, args)

    def go(self, number: int) -> str:
        """Move to event ``number``: the new screen, or why not."""
        if not 1 <= number <= self.last:
            return f"no event {number}: the match has events 1-{self.last}"
        self.at = number
        return self.screen()

    def _next(self, args: list[str]) -> str:
        if self.at == self.last:
            return f"at the last event ({self.last}): b/back, j/jump N or q/quit"
        return self.go(self.at + 1)

    def _back(self, args: list[str]) -> str:
        if self.at == 1:
            return "at the first event: n/next, j/jump N or q/quit"
        return self.go(self.at - 1)

    def _jump(self, args: list[str]) -> str:
        if len(args) != 1 or not (args[0].isascii() and args[0].isdigit()):
            return f"jump needs an event number, 1-{self.last}: j N"
        return self.go(int(args[0]))

    def _toggle(self, args: list[str]) -> str:
        self.corrected = not self.corrected
        return self.screen()

    def _quit(self, args: list[str]) -> str:
        self.done = True
        return "end of replay"

    def _help(self, args: list[str]) -> str:
        return HELP


_Action = Callable[[ReplaySession, list[str]], str]
_ACTIONS: dict[str, _Action] = {}
for _names, _action in (
    (("n", "next"), ReplaySession._next),
    (("b", "back"), ReplaySession._back),
    (("j", "jump"), ReplaySession._jump),
    (("t", "toggle"), ReplaySession._toggle),
    (("q", "quit"), ReplaySession._quit),
    (("h", "help", "?"), ReplaySession._help),
):
    for _name in _names:
        _ACTIONS[_name] = _action


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.option("--at", type=click.IntRange(min=1), default=1, metavar="N", help="Start at event N.")
@click.option(
    "--corrected",
    "as_corrected",
    is_flag=True,
    help="Start in the corrected view (else as recorded).",
)
@viewer_option
@click.pass_context
def replay(
    ctx: click.Context, match_id: str, at: int, as_corrected: bool, viewer: str | None
) -> None:
    """Step through a match event by event, as recorded or as corrected (USBGF 5.3).

    Commands, one a line: n/next (or Enter), b/back, j/jump N, t/toggle
    between the recorded and the corrected view, q/quit.
    """
    ledger = open_ledger(ctx)
    with library_errors():
        session = ReplaySession(partial(ledger.replay, match_id), at, as_corrected, viewer)
    if at > session.last:
        raise BadInputError(f"--at {at}: match {match_id!r} has events 1-{session.last}")
    interactive = sys.stdin.isatty()
    with library_errors():
        say(session.screen())
        while not session.done:
            if interactive:
                say(f"[{HELP}] > ", nl=False)
            try:
                line = sys.stdin.readline()
            except KeyboardInterrupt:  # Ctrl-C ends it as q does, not with click's "Aborted!"
                say("")
                return
            if not line:
                return
            say(session.step(line))
