"""Random matches driven by the domain's answer (issue 31, item 5): each step records one of
the lines :func:`~bgledger.projections.state.situation.now` offers, with what a control adds
(the dice, a legal play ...), so the walk reaches every phase the answer leads to: hits due,
doubles and takes, early rolls, concessions, breaks, a stopped clock.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.projections.state.allowed import Allowed
from bgledger.projections.state.classic import plays_due
from bgledger.projections.state.fold import MatchState
from bgledger.projections.state.situation import Now, now
from bgledger.rules.legal import legal_plays
from bgledger.rules.profiles import get_profile

PAD = (Path(__file__).parents[1] / "web" / "templates" / "pad.html").read_text()
PAD_LINES = set(re.findall(r'data-offer="([^"]+)"', PAD))
"""The line each of the pad's controls sends, as it names it."""
PAD_PANELS = re.findall(r'data-offers="([^"]+)"', PAD)
PAD_FORMS = set(re.findall(r'data-offer-verb data-verb="([^"]+)"', PAD))
"""The verbs of the pad's forms (the form adds the words: a reason, a note ...)."""


def on_the_pad(allowed: Allowed) -> bool:
    """Whether the pad has a control for ``allowed``'s line (a button, a panel, a form)."""
    return (
        allowed.line in PAD_LINES
        or allowed.verb in PAD_FORMS
        or any(allowed.line in panel.split("|") for panel in PAD_PANELS)
    )


def dice(rng: random.Random) -> str:
    return f"{rng.randint(1, 6)} {rng.randint(1, 6)}"


def play(state: MatchState, rng: random.Random) -> str:
    """A legal play of the dice, one that does what the classic laws oblige (CLASSIC 10, 11)."""
    if state.dice is None:
        return "24/23"
    return str(rng.choice(plays_due(state) or legal_plays(state.position, state.dice)).play) or (
        "cannot move"
    )


def man(state: MatchState, rng: random.Random) -> str:
    """A point where the player on roll has a man (to touch or adjust, CLASSIC 11)."""
    mover = state.position.mover
    return str(rng.choice([point for point in range(1, 26) if mover[point]]))


def filled(allowed: Allowed, state: MatchState, rng: random.Random) -> str | None:
    """The line the domain offers, with what a control adds (the dice, the play ...); None
    for the lines that need what only a person can give (an entry's number, a time run out)."""
    line, verb = allowed.line, allowed.verb
    if allowed.party == "director":
        return None
    if verb in ("amend", "undo", "setup", "clock read", "clock start", "flag"):
        return None
    rest = line[len(verb) :]
    if verb in ("opening", "roll", "interfered"):
        return f"{verb} {dice(rng)}{rest}"
    if verb == "call":  # a call is recorded when it differs from the dice (CLASSIC 8)
        while True:
            one, two = rng.randint(1, 6), rng.randint(1, 6)
            if sorted((one, two)) != sorted(state.dice or ()):
                return f"call {one} {two}"
    if verb in ("touch", "jadoube"):
        return f"{verb} {man(state, rng)}"
    if verb == "move":
        return f"move {play(state, rng)}"
    if verb == "void-roll":
        return "void-roll " + get_profile(state.profile).rolls.void_reasons[0].code
    if verb == "note":
        return "note Bob asked for the director"
    if verb == "clock stop":
        return "clock stop dispute"
    return line


def walk(
    seed: int, profile: str, clocked: bool, length: int, steps: int
) -> Iterator[tuple[Match, Now, list[str], random.Random]]:
    """Each step of a random match: the match, the answer, the lines it offers filled in (the
    scorekeeper's notes left out) and the walk's random source; the walk records one of
    them, until the match is over or ``steps`` are done."""
    rng = random.Random(seed)
    clock = "simple-delay" if clocked and get_profile(profile).clock("simple-delay") else "none"
    match = Match.start(
        match_uuid("m"), "m", ("Ann", "Bob"), length, by="kim", profile=profile, clock=clock
    )
    for _ in range(steps):
        answer = now(match.state)
        lines = [filled(a, match.state, rng) for a in answer.allowed]
        offered = [line for line in lines if line is not None]
        yield match, answer, offered, rng
        chosen = [line for line in offered if not line.startswith("note")]
        if match.state.winner is not None or not chosen:
            return
        parse(rng.choice(chosen)).run(match, "kim", history=[])
        match.collect_events()
