"""Random legal matches, one ``record`` line at a time (tests and benchmarks).

:func:`next_line` looks at a :class:`MatchState` and picks a valid next action
in the language of :mod:`bgledger.commands.language`: opening rolls, rolls, one of the
legal plays, doubles the rules allow, takes and drops, concessions where the
profile allows them.  Feeding its lines to a match plays a random legal match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from bgledger.commands.decide import cube_problem, resignation_problem
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import parse
from bgledger.events import MatchEvent
from bgledger.projections.state.allowed import must_accept
from bgledger.projections.state.fold import MatchState, Phase
from bgledger.rules.legal import legal_plays
from bgledger.rules.profiles import get_profile


def _dice(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def next_line(state: MatchState, rng: random.Random, cube_rate: float = 0.08) -> str | None:
    """A valid next action for ``state`` as a ``record`` line; None when the match is over."""
    phase = state.phase
    profile = get_profile(state.profile)
    if phase is Phase.OVER:
        return None
    if phase in (Phase.BETWEEN_GAMES, Phase.OPENING):
        return "opening {} {}".format(*_dice(rng))
    if phase is Phase.DOUBLED:
        return "take" if rng.random() < 0.7 else "drop"
    if phase is Phase.RESIGNED:  # on a 2007 clock, no reject when nothing better can occur
        return "accept" if rng.random() < 0.7 or must_accept(state) else "reject"
    if phase is Phase.PLAY and state.opening_dice and profile.rolls.opening_rethrow.value:
        # CLASSIC 4: the higher thrower throws again, unless both agree to the single dice
        return "play-singles" if rng.random() < 0.5 else "roll {} {}".format(*_dice(rng))
    if phase is Phase.PLAY:
        assert state.dice is not None
        options = legal_plays(state.position, state.dice)
        return "move " + (str(rng.choice(options).play) or "cannot move")
    if phase is Phase.ROLL and state.turn is not None:
        if rng.random() < cube_rate and cube_problem(state, profile, state.turn) is None:
            return "double"
        level = rng.choice(("single", "gammon", "backgammon"))
        if rng.random() < 0.02 and resignation_problem(state, profile, level) is None:
            return f"resign {level}"
    return "roll {} {}".format(*_dice(rng))


def play_lines(match: Match, rng: random.Random, limit: int, by: str = "driver") -> list[str]:
    """Play up to ``limit`` random actions on ``match``; the lines played, in order."""
    lines: list[str] = []
    while len(lines) < limit:
        line = next_line(match.state, rng)
        if line is None:
            break
        parse(line).run(match, by)
        lines.append(line)
    return lines


class InMemory:
    """A match in memory and every event it recorded, as a ledger would hand them to a ruling
    or a correction (the decisions alone, without a store: many hypothesis examples)."""

    def __init__(self, match_id: str, length: int, *, by: str, at: str, **setup: object) -> None:
        self.by = by
        uuid = match_uuid(match_id)
        self.match = Match.start(uuid, match_id, ("Ann", "Bob"), length, by=by, at=at, **setup)
        self.events: list[MatchEvent] = list(self.match.collect_events())

    def act(self, line: str) -> None:
        """Record ``line`` of the record language."""
        parse(line).run(self.match, self.by)
        self.events += self.match.collect_events()

    def rule(self, decide: Callable[..., object], *args: object) -> None:
        """Call a command that decides on the history (a ruling, a correction) with ``args``."""
        decide(self.match, list(self.events), *args)
        self.events += self.match.collect_events()


def store_matches(url: str, matches: Iterable[Match], batch: int = 50) -> None:
    """Store ``matches`` (new ones, played in memory) as an import stores them, ``batch`` a
    transaction: how the benchmarks fill a ledger with many matches quickly."""
    from bgledger.store.application import MatchStore

    store = MatchStore(url)
    try:
        waiting: list[Match] = []
        for match in matches:
            waiting.append(match)
            if len(waiting) == batch:
                store.store_new(*waiting)
                waiting = []
        if waiting:
            store.store_new(*waiting)
    finally:
        store.close()
