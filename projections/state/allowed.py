"""What may happen now: which commands each party may issue in a state, one answer.

:func:`allowed` reads the folded :class:`~bgledger.projections.state.model.MatchState` and
its rulebook profile only, and answers with the lines each party may issue now, as the
ledger's commands decide them: the hit that is due (USBGF 4.1.8.1), the cube and to whom
(the Crawford game, USBGF 4.4.6; the owner redoubles, USBGF 4.4.2; a dead cube, USBGF
4.4.9), an offer or a resignation waiting for its answer, an early roll, a break, the end
of the match.  Its verbs are the vocabulary's
(:data:`bgledger.commands.vocabulary.VOCABULARY`), and each line is one the record
language reads.  The commands decide on the same checks (:func:`cube_problem`,
:func:`resignation_problem`, :func:`hit_due`); :func:`bgledger.projections.state.situation.now`
words the answer; ``show``, the console, the pad, the desk and the wall draw it and decide
nothing.

    >>> from bgledger.projections.state.model import MatchState, Phase
    >>> state = MatchState("m", ("Ann", "Bob"), 5, "usbgf-2016", "none", True)
    >>> [a.line for a in allowed(state) if a.party in ("a", "b", "players")]
    ['opening', 'break start a', 'break start b', 'break start both']
    >>> rolling = MatchState("m", ("Ann", "Bob"), 5, "usbgf-2016", "none", True,
    ...                      game=1, phase=Phase.ROLL, turn="b", cube=2, cube_owner="a")
    >>> [a.line for a in allowed(rolling) if a.party == "b"]  # (Ann's cube: Bob may not double)
    ['roll', 'announce pass b']
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from bgledger.projections.state.breaks import allowance
from bgledger.projections.state.classic import dues
from bgledger.projections.state.model import Crawford, MatchState, Phase, other, seat
from bgledger.rules.legal import can_play
from bgledger.rules.position import Checkers, Position
from bgledger.rules.profiles import Decision, ForgottenHit, PrematureRoll, Profile, get_profile

__all__ = [
    "BEST_OF_THREE",
    "NO_TIME_FORFEIT",
    "PARTIES",
    "STATEMENT_WORDS",
    "TABLE_VERBS",
    "Allowed",
    "Problem",
    "agree",
    "allowed",
    "better_outcome",
    "bound",
    "concession_on_clock",
    "cube_problem",
    "expired_before_claim",
    "hit_blocks",
    "hit_due",
    "may_double",
    "may_hit",
    "must_accept",
    "must_double",
    "no_legal_move",
    "resignation_problem",
    "statement_problem",
]

PARTIES = ("a", "b", "players", "scorekeeper", "director")
"""Who issues a command: player a, player b, both players (an opening roll, an agreement),
the scorekeeper (the record's own lines) and the director (rulings)."""

TABLE_VERBS = (
    "opening",
    "play-singles",
    "roll",
    "move",
    "double",
    "take",
    "drop",
    "resign",
    "accept",
    "reject",
    "accept-roll",
    "refuse-roll",
    "hit",
    "break end",
    "announce",
)
"""The verbs of what happens at the table, whose plain lines :func:`allowed` offers exactly
when the ledger accepts them (a tested property); the other lines it offers are the
scorekeeper's and the director's, and the rarer forms of the table's (``--as-played``)."""

BEST_OF_THREE = "best-of-three"
"""The ``meta`` key (value ``yes``) of a match in a best-of-three series."""
NO_TIME_FORFEIT = "no-time-forfeit"
"""The ``meta`` key (value ``yes``) of a match whose players agreed at the start not to end it
on time (USBGF 3.5.2.1), as their score sheets say it."""

LEVELS = ("single", "gammon", "backgammon")

Problem = tuple[str, str]
"""What the rules forbid, and the rule that forbids it."""


class Allowed(NamedTuple):
    """One command a party may issue now.

    ``line`` is the line a control sends (``take``, ``resign gammon``, ``break start a``),
    or its verb alone where the control adds what happened (``roll``: the dice, ``move``:
    the play); ``words`` say it (``Bob takes or drops``).

    >>> Allowed("b", "take", "take", "Bob takes")
    Allowed(party='b', verb='take', line='take', words='Bob takes')
    """

    party: str
    verb: str
    line: str
    words: str

    def to_json(self) -> dict[str, str]:
        """As ``show --json`` writes it in ``now.allowed``."""
        return {"party": self.party, "verb": self.verb, "line": self.line, "words": self.words}


# -- the checks the commands decide on ---------------------------------------------------------


def cube_problem(
    state: MatchState, profile: Profile, player: str, value: int | None = None
) -> Problem | None:
    """Why ``player`` may not double (to ``value``) now, with the rule; ``None`` if he may.

    The Crawford game (USBGF 4.4.6), the opponent's cube (USBGF 4.4.2), a
    dead cube (USBGF 4.4.9), the cube out of play after a shortened match
    (USBGF 4.8.5(d)) and a wrong level (USBGF 4.4.8), as the profile has them.
    """
    rules, cite = profile.cube, profile.cite
    if min(state.score) >= state.length:
        return (
            "the cube is out of play: the next game decides the match",
            cite(Decision.CUBE_OUT_OF_PLAY),
        )
    if value is not None and value != state.next_cube:
        return (
            f"the cube goes from {state.cube} to {state.next_cube}, not {value}",
            cite(Decision.CUBE_LEVEL),
        )
    basics = cite(Decision.BASIC_RULES)
    if state.crawford is Crawford.CRAWFORD and state.crawford_rule:
        return "the cube is out of play in the Crawford game", rules.crawford.rule or basics
    if state.cube_owner == other(player):
        owner = state.name(state.cube_owner)
        return (
            f"{owner} owns the cube at {state.cube}: only the owner redoubles",
            cite(Decision.DOUBLE),
        )
    score = state.score[seat(player)]
    if rules.dead_cube_double_void.value and 0 < state.length <= score + state.cube:
        return (
            f"the cube is dead: {state.name(player)}, with {score} of {state.length}, "
            f"wins the match by winning this game at {state.cube}",
            rules.dead_cube_double_void.rule or basics,
        )
    return None


def resignation_problem(state: MatchState, profile: Profile, level: str) -> Problem | None:
    """Why a concession of ``level`` may not be offered now, with the rule; ``None`` if it may."""
    rules, basics = profile.resignations, profile.cite(Decision.BASIC_RULES)
    if level not in rules.levels.value:
        return f"profile {profile.name} has no {level} concession", rules.levels.rule or basics
    if rules.non_contact_only.value and state.position.is_contact():
        return (
            "a game may be conceded only in a non-contact position",
            rules.non_contact_only.rule or basics,
        )
    return None


def no_legal_move(state: MatchState) -> bool:
    """The player on roll could play no roll at all (on the bar against a closed board).

    He "is not required to roll the dice but must continue hitting the clock"
    (CLOCK 3.4; USBGF 4.1.8.1 for the opponent who can neither move nor double):
    his hit without a roll ends his turn.
    """
    return _no_roll_plays(state.board, state.turn or "a")


@lru_cache(maxsize=1024)  # (asked of each state the answer is worked out for, on a clock)
def _no_roll_plays(board: tuple[Checkers, Checkers], turn: str) -> bool:
    mover = seat(turn)
    position = Position.trusted(board[mover], board[1 - mover])
    return not any(can_play(position, (one, two)) for one in range(1, 7) for two in range(one, 7))


def hit_due(state: MatchState) -> str | None:
    """Who must hit the clock before the player to act may roll, double, take or drop.

    The player whose time runs after his play, his double or his take (USBGF 4.1.8.1,
    CLOCK 3.5) until he hits; ``None`` without a clock, on a break, or when the time
    running is the player's to act.
    """
    timer = state.timer
    if timer is None or state.winner is not None or state.breaks.open is not None:
        return None
    if state.phase not in (Phase.ROLL, Phase.REROLL, Phase.DOUBLED):
        return None
    actor = state.actor
    if actor is None or timer.turn is None or timer.turn == actor:
        return None
    return timer.turn


def may_hit(state: MatchState) -> str | None:
    """Who hits the clock if a plain ``hit`` is recorded now, if the ledger accepts it.

    The player whose time runs (or, on a clock not yet running, the player not to act),
    once his turn is done; the player to act too when he cannot play any roll (CLOCK 3.4).
    Mirrors :meth:`bgledger.commands.clock.ClockCommands.hit`.
    """
    timer = state.timer
    if timer is None or state.winner is not None or state.breaks.open is not None:
        return None
    if state.phase in (Phase.BETWEEN_GAMES, Phase.OPENING, Phase.ENDING, Phase.OVER):
        return None
    if timer.stopped == "concession":  # CLOCK 5.1: the offer's answer restarts it, or ends it
        return None
    actor = state.actor
    hitter = timer.turn or (other(actor) if actor else None)
    if hitter is None:
        return None
    if hitter != actor:
        return hitter
    return hitter if state.phase is Phase.ROLL and no_legal_move(state) else None


def may_double(state: MatchState, profile: Profile, player: str) -> bool:
    """Whether ``player`` may turn the cube now: no rule against it, and within the profile's
    limit (:attr:`Limits.cube`)."""
    within = state.next_cube <= profile.limits.cube.value
    return within and cube_problem(state, profile, player) is None


# -- cube statements (issue 33: USBGF 4.4.3, 4.4.4) ------------------------------------------

STATEMENT_WORDS = {"double": "I am going to double", "pass": "I would pass"}
"""The statements about the cube that bind (USBGF 4.4.3, 4.4.4), as a player says them."""

_STATEMENT_DECISIONS = {"double": Decision.DOUBLE_STATEMENT, "pass": Decision.PASS_STATEMENT}
STATEMENT_PHASES = (Phase.ROLL, Phase.REROLL, Phase.PLAY)
"""When a statement is recorded: in a game, between the cube's answers (a statement made
while a double waits for its answer is the answer; USBGF 4.4.4)."""


def bound(state: MatchState, player: str, says: str) -> bool:
    """Whether ``player``'s statement ``says`` (``double`` or ``pass``) stands."""
    return any(s.player == player and s.says == says for s in state.statements)


def statement_problem(
    state: MatchState, profile: Profile, player: str, says: str
) -> Problem | None:
    """Why ``player``'s statement ``says`` binds nothing now, with the rule; ``None`` if it
    binds: the profile makes no statement binding (online, classic), it stands already, or
    no legal double can follow it (the Crawford game, the opponent's cube, a dead cube: the
    doubler's :func:`cube_problem`)."""
    decision = _STATEMENT_DECISIONS[says]
    binds = (
        profile.cube.double_statement_binds
        if says == "double"
        else profile.cube.pass_statement_binds
    )
    name = state.name(player)
    if not binds.value:
        return (
            f"statements about the cube bind nothing under {profile.name}: {binds.note}",
            binds.rule or profile.cite(decision),
        )
    if bound(state, player, says):
        return f"{name}'s '{STATEMENT_WORDS[says]}' stands already", profile.cite(decision)
    doubler = player if says == "double" else other(player)
    if not may_double(state, profile, doubler):
        problem = cube_problem(state, profile, doubler)
        if problem is None:  # past the profile's limit of the cube
            most = profile.limits.cube.value
            problem = f"the cube goes no higher than {most}", profile.cite(Decision.CUBE_LEVEL)
        return f"no legal double can follow: {problem[0]}", problem[1]
    return None


def must_double(state: MatchState, profile: Profile) -> bool:
    """Whether the player on roll, before rolling, is bound to double now: he said he is
    going to double and this is his first legal opportunity (USBGF 4.4.3)."""
    turn = state.turn or "a"
    return (
        state.phase is Phase.ROLL
        and bound(state, turn, "double")
        and may_double(state, profile, turn)
    )


def hit_blocks(state: MatchState, profile: Profile) -> bool:
    """Whether the due hit must be recorded before the player to act may act (refused,
    not implied by his action: the profile's :attr:`ClockRules.forgotten_hit`)."""
    if hit_due(state) is None or state.timer is None:
        return False
    rules = profile.clock(state.timer.mode)
    return rules is not None and rules.forgotten_hit.value is ForgottenHit.REFUSE_ROLL


# -- the answer ------------------------------------------------------------------------------


def allowed(state: MatchState) -> tuple[Allowed, ...]:
    """Every command a party may issue now, the table's first (see :data:`TABLE_VERBS`)."""
    profile = get_profile(state.profile)
    table = _table(state, profile)
    return (*table, *_scorekeeper(state), *_director(state))


def _table(state: MatchState, profile: Profile) -> list[Allowed]:
    name = state.name
    out: list[Allowed] = []

    def add(party: str, line: str, words: str) -> None:
        verb = next((v for v in TABLE_VERBS if line == v or line.startswith(v + " ")), line)
        out.append(Allowed(party, verb.split(" --")[0], line, words))

    if state.phase is Phase.OVER or state.winner is not None:
        return out
    if state.breaks.open is not None:
        add("players", "break end", "the break ends")
        return out
    turn, phase = state.turn or "a", state.phase
    hitter = may_hit(state)
    if hitter is not None:
        add(hitter, "hit", f"{name(hitter)} {agree(name(hitter), 'hits')} the clock")
    blocked = hit_blocks(state, profile)
    if phase in (Phase.BETWEEN_GAMES, Phase.OPENING):
        add("players", "opening", "opening roll")
        if phase is Phase.OPENING and state.next_cube <= profile.limits.cube.value:
            add("players", "automatic-double --as-played", "an automatic double, as played")
        out.extend(_breaks(state, profile))
        return out
    mover = name(turn)
    if phase in (Phase.ROLL, Phase.REROLL):
        if not blocked:
            if not must_double(state, profile):  # USBGF 4.4.3: he said he would double
                add(turn, "roll", f"{mover} {agree(mover, 'rolls')}")
            if phase is Phase.ROLL and may_double(state, profile, turn):
                add(turn, "double", f"{mover} {agree(mover, 'doubles')}")
        most = profile.limits.cube.value
        if phase is Phase.ROLL and state.cube_owner == other(turn) and 2 * state.cube <= most:
            owner = name(state.cube_owner)
            add(state.cube_owner, "beaver --as-played", f"{owner}'s beaver, as played")
    elif phase is Phase.PLAY and state.dice is not None:
        if profile.rolls.opening_rethrow.value and state.opening_dice:
            add(turn, "roll", f"{mover} {agree(mover, 'throws')} again")
            add("players", "play-singles", "both agree to play the single dice")
        else:
            add(turn, "move", _play_words(state, mover))
            out.extend(_classic(state, profile))
            if profile.rolls.void_reasons:
                add("scorekeeper", "void-roll", "the roll was invalid")
            if state.premature is None:
                early = other(turn)
                if not (bound(state, early, "double") and may_double(state, profile, early)):
                    add(early, "roll --premature", f"{name(early)} rolled early")
                stands = profile.cube.premature_double_stands.value
                if stands and may_double(state, profile, early):
                    add(early, "double --premature", f"{name(early)} doubled early")
    elif phase is Phase.PREMATURE_ROLL:
        add(turn, "accept-roll", f"{mover} {agree(mover, 'accepts')} the early roll")
        if profile.rolls.premature_roll.value is not PrematureRoll.STANDS:
            add(turn, "refuse-roll", f"{mover} {agree(mover, 'refuses')} the early roll")
    elif phase is Phase.DOUBLED:
        taker = name(other(turn))
        passes = bound(state, other(turn), "pass")  # USBGF 4.4.4: he said he would pass
        if not blocked:
            if not passes:
                add(other(turn), "take", f"{taker} {agree(taker, 'takes')}")
            add(other(turn), "drop", f"{taker} {agree(taker, 'drops')}")
        if not passes and 2 * (state.offer or state.next_cube) <= profile.limits.cube.value:
            add(other(turn), "beaver --as-played", f"{taker}'s beaver, as played")
    elif phase is Phase.RESIGNED and state.resignation is not None:
        answer = name(other(state.resignation.player))
        add(other(state.resignation.player), "accept", f"{answer} {agree(answer, 'accepts')}")
        if not must_accept(state):  # CLOCK 5.1: else the director requires the acceptance
            add(other(state.resignation.player), "reject", f"{answer} {agree(answer, 'rejects')}")
    rules = profile.resignations
    if phase in (Phase.ROLL, Phase.REROLL, Phase.PLAY) and not (
        rules.non_contact_only.value and state.position.is_contact()
    ):  # as resignation_problem decides, the contact asked once
        for level in LEVELS:
            if level in rules.levels.value:
                add(turn, f"resign {level}", f"{mover} {agree(mover, 'offers')} a {level}")
    out.extend(_statements(state, profile))
    return out


def _statements(state: MatchState, profile: Profile) -> list[Allowed]:
    """The cube statements that would bind now (USBGF 4.4.3, 4.4.4): each player's."""
    if state.phase not in STATEMENT_PHASES:
        return []
    return [
        Allowed(p, "announce", f"announce {says} {p}", f"{state.name(p)}: '{words}'")
        for p in ("a", "b")
        for says, words in STATEMENT_WORDS.items()
        if statement_problem(state, profile, p, says) is None
    ]


def _play_words(state: MatchState, mover: str) -> str:
    """``Ann plays``, and what the classic laws oblige the play to do (CLASSIC 10, 11)."""
    words = f"{mover} {agree(mover, 'plays')}"
    due = dues(state)
    return f"{words}: {'; '.join(d.why for d in due)}" if due else words


def _classic(state: MatchState, profile: Profile) -> list[Allowed]:
    """The classic laws of the throw and the touch, where the profile has them: a man
    touched or adjusted (CLASSIC 11), the throw called (CLASSIC 8), the dice set by the
    adversary before the call (CLASSIC 7)."""
    turn = state.turn or "a"
    mover, adversary = state.name(turn), state.name(other(turn))
    out = []
    if profile.plays.touch_move.value:
        out.append(Allowed(turn, "touch", "touch", f"{mover} touched a man"))
        out.append(Allowed(turn, "jadoube", "jadoube", f"{mover} adjusted a man: J'adoube"))
    if profile.rolls.called_throw.value:
        out.append(Allowed(turn, "call", "call", f"{mover} called the throw otherwise"))
    if profile.rolls.interfered_dice_set.value and state.thrown is None:
        words = f"{adversary} set the dice {mover} interfered with"
        out.append(Allowed(other(turn), "interfered", "interfered", words))
    return out


def _breaks(state: MatchState, profile: Profile) -> list[Allowed]:
    """The breaks that may start between games (USBGF 2.2.2): each player's, and both's."""
    if profile.breaks is None or state.in_game:
        return []
    if dict(state.meta).get(BEST_OF_THREE) == "yes" and state.length <= 7:
        return []
    most = allowance(state.profile, state.length) or 0
    left = [p for p in ("a", "b") if state.breaks.used[seat(p)] < most]
    out = [Allowed(p, "break start", f"break start {p}", f"{state.name(p)}'s break") for p in left]
    if len(left) == 2:
        out.append(Allowed("players", "break start", "break start both", "a break for both"))
    return out


def expired_before_claim(state: MatchState) -> str | None:
    """The winner of a match won on the board whose reserve was spent before his last checker
    was off (the clock settled at 0:00 at the game's end), where the clock's rules make him
    the loser when that is announced (CLOCK 5.3); else None."""
    timer, winner = state.timer, state.winner
    if timer is None or winner is None or not state.games or timer.stopped == "time-expired":
        return None
    if timer.reserve_ms[seat(winner)] != 0 or state.games[-1].winner != winner:
        return None
    rules = get_profile(state.profile).clock(timer.mode)
    return winner if rules is not None and rules.expiry_before_claim.value else None


def concession_on_clock(profile: str, mode: str) -> bool:
    """Whether a concession offered on clock ``mode`` stops both clocks and must be accepted
    when nothing better can occur for the opponent (CLOCK 5.1), under ``profile``."""
    rules = get_profile(profile).clock(mode)
    return rules is not None and rules.concession_on_clock.value


def better_outcome(state: MatchState) -> str | None:
    """The result more favorable for the opponent than the concession offered that can still
    occur (``gammon``, ``backgammon``), or None: he must accept on a clock (CLOCK 5.1).

    A gammon while the conceding player has borne off no checker; a backgammon while he
    also has one on the bar or in the opponent's home board; nothing better where the
    offer already wins the opponent the match.
    """
    offer = state.resignation
    if offer is None:
        return None
    who, taker = seat(offer.player), other(offer.player)
    checkers = state.board[who]
    most = (
        "single"
        if checkers[0] - state.removed[who] > 0
        else "backgammon"
        if sum(checkers[19:26])
        else "gammon"
    )
    if LEVELS.index(most) <= LEVELS.index(offer.level):
        return None
    points = (LEVELS.index(offer.level) + 1) * state.cube
    if state.score[seat(taker)] + points >= state.length:
        return None  # the offer wins him the match: nothing is better
    return most


def must_accept(state: MatchState) -> bool:
    """Whether a concession waits for its answer on a clock whose rules make the director
    require its acceptance, nothing better being possible for the opponent (CLOCK 5.1)."""
    timer = state.timer
    return (
        state.phase is Phase.RESIGNED
        and timer is not None
        and concession_on_clock(state.profile, timer.mode)
        and better_outcome(state) is None
    )


def _scorekeeper(state: MatchState) -> list[Allowed]:
    """The record's own lines: a note, an entry undone or amended, the clock's readings."""
    out = [
        Allowed("scorekeeper", "note", "note", "a note for the record"),
        Allowed("scorekeeper", "amend", "amend", "an entry mis-entered, amended"),
    ]
    if state.events > 1:
        out.append(Allowed("scorekeeper", "undo", "undo", "the last entry undone"))
    opening = state.phase is Phase.PLAY and state.opening_dice
    if state.phase in (Phase.BETWEEN_GAMES, Phase.OPENING) or opening:
        out.append(Allowed("scorekeeper", "setup", "setup", "the game began from a position"))
    timer = state.timer
    if state.winner is not None:
        late = expired_before_claim(state)
        if late is not None:  # CLOCK 5.3, as the ledger decides it
            words = f"{state.name(late)}'s reserve was spent before the last checker was off"
            out.append(Allowed("scorekeeper", "flag", f"flag {late}", words))
        return out
    if timer is None:
        out.append(Allowed("scorekeeper", "clock start", "clock start", "a clock started"))
        return out
    if timer.running:
        out.append(Allowed("scorekeeper", "clock stop", "clock stop", "the clocks stopped"))
    elif timer.turn is not None and state.breaks.open is None and timer.stopped != "concession":
        out.append(Allowed("scorekeeper", "clock resume", "clock resume", "the clocks resume"))
    out.append(Allowed("scorekeeper", "clock read", "clock read", "what the clocks show"))
    agreed = dict(state.meta).get(NO_TIME_FORFEIT) == "yes"  # USBGF 3.5.2.1: no flag
    if timer.turn is not None and not agreed:  # (decided when it is recorded: CLOCK 5.3)
        rule = get_profile(state.profile).cite(Decision.TIME_EXPIRED)
        words = (
            f"{state.name(timer.turn)}'s time is out, once the clock shows 0:00: announced, "
            f"{state.name(timer.turn)} forfeits the match ({rule})"
        )
        out.append(Allowed("scorekeeper", "flag", f"flag {timer.turn}", words))
    return out


_RULINGS = (
    Allowed("director", "penalty", "penalty", "penalty points"),
    Allowed("director", "correct-score", "correct-score", "the score corrected"),
    Allowed("director", "correct-length", "correct-length", "the length corrected"),
)
_IN_GAME = (
    Allowed("director", "revert", "revert", "an illegal play reverted"),
    Allowed("director", "void-cube", "void-cube", "a cube action voided"),
)
_MUST_ACCEPT = (
    Allowed("director", "must-accept", "must-accept", "the concession's acceptance required"),
)
"""CLOCK 5.1: the director requires the opponent to accept, nothing better being possible."""
_ON_A_CLOCK = (
    Allowed("director", "clock set", "clock set", "the clocks set"),
    Allowed("director", "missed-hit", "missed-hit", "a missed hit ruled"),
)


_CALLED = (Allowed("director", "correct-call", "correct-call", "the call corrected"),)
"""While a call differs from the dice thrown and they are not taken up again (CLASSIC 8)."""


def _director(state: MatchState) -> tuple[Allowed, ...]:
    """The director's rulings that the state leaves open (each on an entry, at the desk)."""
    return (
        *_RULINGS,
        *(_IN_GAME if state.game > 0 else ()),
        *(_ON_A_CLOCK if state.timer is not None else ()),
        *(_CALLED if state.thrown is not None else ()),
        *(_MUST_ACCEPT if must_accept(state) else ()),
    )


_PLURAL = {"is": "are", "has": "have"}


def agree(name: str, verb: str) -> str:
    """``verb`` (third person singular) as ``name`` takes it: a doubles team (``Ann & Cy``,
    ``Ann and Cy``, CLOCK 2.2) is two players, so ``Ann & Cy have rolled``.

    >>> agree("Ann", "has"), agree("Ann & Cy", "has"), agree("Ann and Cy", "takes")
    ('has', 'have', 'take')
    """
    if " & " not in name and " and " not in name and " + " not in name:
        return verb
    return _PLURAL.get(verb, verb[:-1] if verb.endswith("s") else verb)
