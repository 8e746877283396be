"""Rulings (:mod:`bgledger.commands.rulings`) on scenario transcripts under ``fixtures/rulings``.

Each transcript is one match.  Its header names the ``start`` options
(``# start: --a Ann --b Bob --length 3 --profile usbgf-2016``) and tells the
story; the scores, boards and event numbers asserted here were worked out by
hand from that story, not read back from the ledger.  The play is recorded
one action a line (:mod:`bgledger.commands.language`, through :meth:`MatchStore.act`), the
rulings through the library (:meth:`MatchStore.rule`), never through the CLI.

The lines a transcript may hold besides actions (see :func:`run_scenario`)::

    !VERB ARG... [OPTIONS]            a ruling: must be accepted, and is recorded
    ?VERB ARG... [OPTIONS] [= NAME]   a trial: must be accepted here, but is made on a
                                      copy of the match and not stored (a window's last
                                      legal moment while the record goes on)
    !VERB ARG... => refused RULE [TEXT]   must be refused citing RULE (the message
                                      containing TEXT), recording nothing
    !VERB ARG... => invalid [TEXT]    must be rejected as naming nothing to rule on
    ACTION => refused RULE [TEXT]     an action that must be refused (nothing recorded)
    !double-to N                      the player on roll doubles to N, --as-played
    = NAME                            name the match as it stands, for the asserts

    VERB:     revert EVENT | void-cube EVENT | nullify-pass EVENT | correct-cube EVENT
              | correct-length LENGTH | correct-score A B | note | overturn EVENT
    OPTIONS:  --ruled-by director|committee|players (default director)
              --reason TEXT (default: 'see the transcript') --rule RULE --agreed

After every line the runner checks what must always hold: the stored history
only grows and never changes an event (a voided event is still there), and
the match as corrected, rebuilt from the history (:func:`corrected`), is the
state the ledger holds.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from bgledger.commands.match import Match
from bgledger.commands.rulings import InvalidRulingError, Ruling, RulingRefusedError
from bgledger.commands.vocabulary import parse
from bgledger.errors import ActionRefusedError, IllegalPlayRefusedError, RulesError
from bgledger.events import (
    CheckersPlayed,
    CrawfordPassNullified,
    CubeActionVoided,
    CubeLevelCorrected,
    CubeOffered,
    MatchEvent,
    MatchLengthCorrected,
    MatchWon,
    PlaysReverted,
    RulingNoted,
    RulingOverturned,
    ScoreCorrected,
)
from bgledger.projections.state.corrected import corrected, in_force, voided_by
from bgledger.projections.state.fold import Crawford, GameRecord, MatchState, Phase
from bgledger.projections.views import audit
from bgledger.store.application import MatchStore
from tests.conftest import REPO, board, unique_id

FIXTURES = REPO / "fixtures" / "rulings"
BY = "kim"

# -- the transcript runner -----------------------------------------------------------------


@dataclass
class Trial:
    """A ruling tried on a copy of the match: the state it led to and the events it recorded."""

    state: MatchState
    events: list[MatchEvent]


@dataclass
class Run:
    """A transcript recorded in a ledger: what it named, tried and saw refused."""

    ledger: MatchStore
    match_id: str
    named: dict[str, MatchState] = field(default_factory=dict)
    trials: dict[str, Trial] = field(default_factory=dict)
    refusals: list[Exception] = field(default_factory=list)

    def state(self, at: int | None = None) -> MatchState:
        return self.ledger.state(self.match_id, at)

    def history(self) -> list[MatchEvent]:
        return self.ledger.history(self.match_id)

    def event(self, number: int) -> MatchEvent:
        return self.history()[number - 1]


RulingCommand = Callable[[Match, list[MatchEvent]], None]


def ruling_command(words: list[str]) -> RulingCommand:
    """A ruling line's words (without its '!' or '?') as a :meth:`MatchStore.rule` command."""
    verb, rest = words[0], words[1:]
    options: dict[str, Any] = {"ruled_by": "director", "reason": "see the transcript"}
    args: list[str] = []
    flags = {"--ruled-by": "ruled_by", "--reason": "reason", "--rule": "rule", "--by": "by"}
    while rest:
        word = rest.pop(0)
        if word in flags:
            options[flags[word]] = rest.pop(0)
        elif word == "--agreed":
            options["agreed"] = True
        else:
            args.append(word)
    given = Ruling(**options)
    numbers = [int(a) for a in args]
    decisions: dict[str, RulingCommand] = {
        "revert": lambda m, h: m.revert(h, numbers[0], given),
        "void-cube": lambda m, h: m.void_cube(h, numbers[0], given),
        "nullify-pass": lambda m, h: m.nullify_pass(h, numbers[0], given),
        "correct-cube": lambda m, h: m.correct_cube(h, numbers[0], given),
        "correct-length": lambda m, h: m.correct_length(h, numbers[0], given),
        "correct-score": lambda m, h: m.correct_score(h, (numbers[0], numbers[1]), given),
        "note": lambda m, h: m.note(h, given),
        "overturn": lambda m, h: m.overturn(h, numbers[0], given),
    }
    if verb == "double-to":
        return lambda m, h: m.double(to=numbers[0], as_played=True, by=BY)
    return decisions[verb]


def expect_refusal(expected: list[str], action: Callable[[], object]) -> Exception:
    """Run ``action``; it must fail as ``expected`` says (``refused RULE [TEXT]``, ``invalid``)."""
    kind, rest = expected[0], expected[1:]
    if kind == "refused":
        with pytest.raises(ActionRefusedError) as caught:
            action()
        assert caught.value.rule == rest[0], str(caught.value)
        assert str(caught.value).endswith(f"({rest[0]})")
        text = rest[1:]
    else:
        assert kind == "invalid", expected
        with pytest.raises(RulesError) as caught:
            action()
        text = rest
    if text:
        assert text[0] in str(caught.value), str(caught.value)
    return caught.value


def run_scenario(url: str, name: str) -> Run:
    """Start the transcript's match in a ledger at ``url`` and record it line by line."""
    text = (FIXTURES / name).read_text()
    start = re.search(r"^# start: (.*)$", text, re.MULTILINE)
    assert start, f"{name} has no '# start:' line"
    words = shlex.split(start.group(1))
    options = dict(zip(words[::2], words[1::2], strict=True))
    ledger = MatchStore(url)
    match_id = ledger.start(
        (options["--a"], options["--b"]),
        int(options["--length"]),
        match_id=unique_id("ruling"),
        by=BY,
        profile=options.get("--profile", "usbgf-2016"),
    )
    run = Run(ledger, match_id)
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        before = run.history()
        try:
            _step(run, line)
        except AssertionError as error:
            raise AssertionError(f"{name}:{number}: {line}: {error}") from error
        except Exception as error:
            raise AssertionError(f"{name}:{number}: {line}: {error!r}") from error
        after = run.history()
        assert after[: len(before)] == before, f"{name}:{number}: a stored event changed"
        assert corrected(after) == run.state(), f"{name}:{number}: live and rebuilt differ"
    return run


def _step(run: Run, line: str) -> None:
    ledger, match_id = run.ledger, run.match_id
    body, arrow, expected_text = line.partition("=>")
    expected = shlex.split(expected_text, comments=True) if arrow else []
    if body.startswith("="):
        run.named[body[1:].strip()] = run.state()
        return
    if body[0] in "!?":
        words = shlex.split(body[1:], comments=True)
        label = None
        if len(words) > 2 and words[-2] == "=":
            label, words = words[-1], words[:-2]
        command = ruling_command(words)
        if expected:
            count = len(run.history())
            run.refusals.append(expect_refusal(expected, lambda: ledger.rule(match_id, command)))
            assert len(run.history()) == count
        elif body[0] == "?":
            match = ledger.load(match_id)
            command(match, ledger.history(match_id)[: match.version])
            assert label, f"{line!r}: a trial needs '= NAME'"
            run.trials[label] = Trial(match.state, match.collect_events())
        else:
            ledger.rule(match_id, command)
            if label:
                run.named[label] = run.state()
        return
    action = parse(body)
    command_: Callable[[Match], None] = lambda m: action.run(m, BY)  # noqa: E731
    if expected:
        count = len(run.history())
        run.refusals.append(expect_refusal(expected, lambda: ledger.act(match_id, command_)))
        assert len(run.history()) == count
    else:
        ledger.act(match_id, command_)


# -- helpers for the asserts ---------------------------------------------------------------


def sides(a: Mapping[int, int], b: Mapping[int, int]) -> tuple[Any, Any]:
    """A ``MatchState.board`` from ``{point: checkers}`` maps in each side's own numbering."""
    position = board(a, b)
    return position.mover, position.opponent


START = {24: 2, 13: 5, 8: 3, 6: 5}
AFTER_31 = {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}
"""The opening 3-1 played 8/5 6/5."""


def ignoring_counters(state: MatchState) -> MatchState:
    """``state`` without what only counts or dates events: their number and the last time."""
    return replace(state, events=0, last_at="")


def game(
    number: int,
    winner: str,
    result: str,
    cube: int,
    points: int,
    how: str,
    crawford: bool,
    score: tuple[int, int],
) -> GameRecord:
    return GameRecord(number, winner, result, cube, points, how, crawford, score)


@pytest.fixture
def url(store_url: str) -> str:
    return store_url


# -- USBGF 4.2.3: illegal plays ----------------------------------------------------------


def test_illegal_play_corrected_before_the_opponents_next_valid_roll(url: str) -> None:
    run = run_scenario(url, "illegal-play-4.2.3a.txt")
    illegal = run.event(6)
    assert isinstance(illegal, CheckersPlayed)
    assert (illegal.player, illegal.play, illegal.legal) == ("b", "24/18", False)
    assert illegal.rule == "USBGF 4.2.3(a)"
    assert run.named["illegal"].flagged == (6,)
    # Bob back to his 6-5, the board as before it, at each moment the window is open.
    before = run.state(at=5)
    for name, voids in (
        ("at-once", [6]),
        ("after-the-cube", [6, 7, 8]),
        ("after-the-cocked-roll", [6, 7, 8, 9, 10]),
    ):
        trial = run.trials[name]
        (ruling,) = trial.events
        assert isinstance(ruling, PlaysReverted)
        assert (ruling.event, ruling.voids, ruling.rule) == (6, voids, "USBGF 4.2.3(a)")
        state = trial.state
        assert (state.phase, state.turn, state.dice) == (Phase.PLAY, "b", (6, 5)), name
        assert state.board == sides(AFTER_31, START) == before.board
        assert (state.cube, state.cube_owner, state.offer, state.score) == (1, None, None, (0, 0))
        assert state.flagged == ()
    # Too late: the refusals name the rule and the roll that closed the window.
    assert "USBGF 4.2.3(f)" in str(run.refusals[0])
    # (f): the players agree and the director approves.
    ruling = run.event(12)
    assert isinstance(ruling, PlaysReverted)
    assert (ruling.rule, ruling.ruled_by, ruling.agreed) == ("USBGF 4.2.3(f)", "director", True)
    assert ruling.voids == [6, 7, 8, 9, 10, 11]
    assert ruling.reason == "both players agree to correct it; the director approves"
    state = run.named["corrected"]
    assert (state.phase, state.turn, state.dice) == (Phase.PLAY, "b", (6, 5))
    assert (state.cube, state.cube_owner, state.flagged) == (1, None, ())
    assert ignoring_counters(state) == ignoring_counters(replace(before, last_at=""))
    end = run.named["end"]
    assert end.score == (1, 0)
    assert end.games == (game(1, "a", "single", 1, 1, "drop", False, (1, 0)),)
    assert end.board == sides(AFTER_31, {24: 1, 13: 6, 8: 3, 6: 5})
    # Nothing was deleted: 16 events stored, the voided ones among them.
    history = run.history()
    assert len(history) == 16
    assert sorted(voided_by(history)) == [6, 7, 8, 9, 10, 11]
    assert [e.originator_version for e in in_force(history)] == [1, 2, 3, 4, 5, *range(12, 17)]
    trail = audit.history(history)
    assert [entry.number for entry in trail] == list(range(1, 17))
    assert trail[5].kind == "CheckersPlayed" and trail[5].flagged


def test_play_unrelated_to_the_dice_corrected_until_the_offender_rolls_again(url: str) -> None:
    run = run_scenario(url, "bear-off-4.2.3e.txt")
    illegal = run.event(8)
    assert isinstance(illegal, CheckersPlayed)
    assert (illegal.player, illegal.legal, illegal.rule) == ("a", False, "USBGF 4.2.3(e)")
    assert "bears off with a checker outside the home board" in (illegal.reason or "")
    # Ann's 6-4 to play again; the board after 6-1 (13/7 8/7) and Bob's 5-2 (13/8 13/11).
    ann = {24: 2, 13: 4, 8: 2, 7: 2, 6: 5}
    bob = {24: 2, 13: 3, 11: 1, 8: 4, 6: 5}
    for name, voids in (
        ("at-once", [8]),
        ("after-the-opponent", [8, 9, 10]),
        ("after-the-cocked-roll", [8, 9, 10, 11, 12]),
    ):
        (ruling,) = run.trials[name].events
        assert isinstance(ruling, PlaysReverted)
        assert (ruling.voids, ruling.rule) == (voids, "USBGF 4.2.3(e)"), name
        state = run.trials[name].state
        assert (state.phase, state.turn, state.dice) == (Phase.PLAY, "a", (6, 4))
        assert state.board == sides(ann, bob)
    ruling = run.event(14)
    assert isinstance(ruling, PlaysReverted)
    assert (ruling.rule, ruling.voids) == ("USBGF 4.2.3(f)", [8, 9, 10, 11, 12, 13])
    state = run.named["corrected"]
    assert (state.phase, state.turn, state.dice, state.board) == (
        Phase.PLAY,
        "a",
        (6, 4),
        sides(ann, bob),
    )
    end = run.named["end"]
    assert end.board == sides({24: 2, 13: 4, 8: 1, 7: 2, 6: 4, 2: 2}, bob)
    assert (end.turn, end.phase, end.flagged) == ("b", Phase.ROLL, ())


def test_usbgf_2017_a_cube_turn_condones_the_illegal_play(url: str) -> None:
    run = run_scenario(url, "condoned-abt-4.8.txt")
    (ruling,) = run.trials["before-condoning"].events
    assert isinstance(ruling, PlaysReverted)
    assert (ruling.rule, ruling.voids) == ("ABT 4.8", [6])
    assert run.state().profile == "usbgf-2017"
    assert [type(e) for e in run.refusals] == [RulingRefusedError, RulingRefusedError]
    ruling = run.event(9)
    assert isinstance(ruling, PlaysReverted)
    assert (ruling.rule, ruling.voids, ruling.agreed) == ("USBGF 4.2.3(f)", [6, 7, 8], True)
    state = run.named["corrected"]
    assert (state.phase, state.turn, state.dice, state.cube, state.cube_owner) == (
        Phase.PLAY,
        "b",
        (6, 5),
        1,
        None,
    )
    assert state.board == sides(AFTER_31, START)


def test_usbgf_2017_a_roll_condones_the_illegal_play(url: str) -> None:
    ledger = MatchStore(url)
    match_id = ledger.start(("Ann", "Bob"), 3, match_id=unique_id("r"), by=BY, profile="usbgf-2017")
    for line in ("opening 3 1", "move 8/5 6/5", "roll 6 5", "move 24/18 --as-played"):
        ledger.act(match_id, lambda m, line=line: parse(line).run(m, BY))
    ledger.act(match_id, lambda m: parse("roll 4 2").run(m, BY))  # event 7
    with pytest.raises(RulingRefusedError) as refused:
        ledger.rule(match_id, lambda m, h: m.revert(h, 6, Ruling("director", "late")))
    assert refused.value.rule == "ABT 4.8"
    assert "Ann rolled 4-2 at event 7 closed it" in str(refused.value)
    assert len(ledger.history(match_id)) == 7


def test_impossible_position_corrected_at_any_time(url: str) -> None:
    run = run_scenario(url, "impossible-position-4.2.3d.txt")
    illegal = run.event(4)
    assert isinstance(illegal, CheckersPlayed)
    assert (illegal.play, illegal.legal, illegal.rule) == ("24/19 13/7", False, "USBGF 4.2.3(a)")
    assert "held by the opponent" in (illegal.reason or "")
    assert run.named["illegal"].position.problems() == ("point 6 holds checkers of both sides",)
    (in_time,) = run.trials["in-time"].events
    assert isinstance(in_time, PlaysReverted) and in_time.rule == "USBGF 4.2.3(a)"
    ruling = run.event(13)
    assert isinstance(ruling, PlaysReverted)
    assert (ruling.rule, ruling.voids) == ("USBGF 4.2.3(d)", list(range(4, 13)))
    state = run.named["corrected"]
    assert (state.phase, state.turn, state.dice) == (Phase.PLAY, "a", (6, 5))
    assert state.board == sides(START, START)
    end = run.named["end"]
    assert end.board == sides({24: 1, 13: 6, 8: 3, 6: 5}, START)
    assert end.position.problems() == ()


# -- USBGF 4.4.6, 4.4.9: doubles that should not have been offered -------------------------


def test_crawford_double_taken_is_void_and_the_match_resumes(url: str) -> None:
    run = run_scenario(url, "crawford-double-taken-4.4.6.1.txt")
    double = run.event(21)
    assert isinstance(double, CubeOffered)
    assert (double.player, double.value, double.legal, double.rule) == (
        "b",
        2,
        False,
        "USBGF 4.4.6",
    )
    won = run.named["looks-won"]
    assert (won.score, won.winner, won.phase) == ((4, 6), "b", Phase.OVER)
    assert won.games[-1] == game(3, "b", "gammon", 2, 4, "resign", True, (4, 6))
    noted = run.event(27)
    assert isinstance(noted, RulingNoted) and noted.voids == [] and noted.rule == ""
    ruling = run.event(28)
    assert isinstance(ruling, CubeActionVoided)
    assert (ruling.event, ruling.voids) == (21, [21, 22, 26])
    assert ruling.rule == "USBGF 4.4.6.1"
    state = run.named["corrected"]
    assert state.score == (4, 4)
    assert state.games == (
        game(1, "b", "single", 2, 2, "resign", False, (0, 2)),
        game(2, "a", "gammon", 2, 4, "resign", False, (4, 2)),
        game(3, "b", "gammon", 1, 2, "resign", True, (4, 4)),
    )
    assert (state.phase, state.crawford, state.winner) == (Phase.BETWEEN_GAMES, Crawford.POST, None)
    assert (state.cube, state.cube_owner, state.game) == (1, None, 3)
    assert state.flagged == ()
    assert isinstance(run.refusals[2], InvalidRulingError)
    end = run.named["end"]
    assert (end.score, end.winner) == ((4, 5), "b")
    assert end.games[-1] == game(4, "b", "single", 1, 1, "resign", False, (4, 5))
    history = run.history()
    assert len(history) == 35
    final = history[-1]
    assert isinstance(final, MatchWon) and (final.score_a, final.score_b) == (4, 5)
    assert isinstance(history[25], MatchWon) and 26 in voided_by(history)


def test_crawford_double_passed_by_the_leader_nullified_before_the_next_game(url: str) -> None:
    run = run_scenario(url, "crawford-pass-leader-4.4.6.2.txt")
    passed = run.named["passed"]
    assert (passed.score, passed.phase, passed.crawford) == ((2, 1), Phase.BETWEEN_GAMES, "post")
    (ruling,) = run.trials["nullified"].events
    assert isinstance(ruling, CrawfordPassNullified)
    assert (ruling.event, ruling.voids, ruling.rule) == (17, [17, 18, 19], "USBGF 4.4.6.2")
    state = run.trials["nullified"].state
    assert (state.phase, state.turn, state.dice) == (Phase.ROLL, "b", None)
    assert (state.score, state.cube, state.cube_owner, state.offer) == ((2, 0), 1, None, None)
    assert (state.game, state.crawford, state.winner) == (3, Crawford.CRAWFORD, None)
    assert state.board == sides(AFTER_31, START)
    assert len(state.games) == 2
    refused = run.named["refused"]
    assert (refused.game, refused.score, refused.phase) == (4, (2, 1), Phase.PLAY)
    assert len(run.history()) == 21


def test_crawford_double_passed_by_the_trailer_nullified_after_the_match_ended(url: str) -> None:
    run = run_scenario(url, "crawford-pass-trailer-4.4.6.2.txt")
    assert (run.named["looks-won"].winner, run.named["looks-won"].score) == ("a", (3, 0))
    ruling = run.event(21)
    assert isinstance(ruling, CrawfordPassNullified)
    assert (ruling.voids, ruling.rule) == ([17, 18, 19, 20], "USBGF 4.4.6.2")
    state = run.named["resumed"]
    assert (state.phase, state.turn, state.score, state.cube) == (Phase.ROLL, "a", (2, 0), 1)
    assert (state.winner, state.crawford, state.game) == (None, Crawford.CRAWFORD, 3)
    assert state.board == sides(START, AFTER_31)
    end = run.named["end"]
    assert (end.winner, end.score) == ("a", (3, 0))
    assert end.games[-1] == game(3, "a", "single", 1, 1, "resign", True, (3, 0))
    assert end.board == sides({24: 1, 13: 6, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 1, 6: 3, 5: 4})


def test_dead_cube_taken_is_void_and_the_dead_value_scores(url: str) -> None:
    run = run_scenario(url, "dead-cube-4.4.9.txt")
    double = run.event(23)
    assert isinstance(double, CubeOffered)
    assert (double.player, double.legal, double.rule) == ("a", False, "USBGF 4.4.9")
    assert (run.named["looks-won"].winner, run.named["looks-won"].score) == ("b", (2, 3))
    ruling = run.event(29)
    assert isinstance(ruling, CubeActionVoided)
    assert (ruling.voids, ruling.rule) == ([23, 24, 28], "USBGF 4.4.9")
    state = run.named["corrected"]
    assert (state.score, state.winner, state.phase) == ((2, 2), None, Phase.BETWEEN_GAMES)
    assert state.games[-1] == game(4, "b", "single", 1, 1, "resign", False, (2, 2))
    assert state.crawford is Crawford.POST
    end = run.named["end"]
    assert (end.score, end.winner) == ((2, 3), "b")
    assert end.games[-1] == game(5, "b", "single", 1, 1, "resign", False, (2, 3))


def test_crawford_double_taken_stands_once_a_later_game_ended_the_match(url: str) -> None:
    run = run_scenario(url, "crawford-double-taken-late-4.4.6.1.txt")
    (ruling,) = run.trials["in-time"].events
    assert isinstance(ruling, CubeActionVoided)
    assert (ruling.voids, ruling.rule) == ([17, 18], "USBGF 4.4.6.1")
    state = run.trials["in-time"].state
    assert state.score == (2, 1)
    assert state.games[-1] == game(3, "b", "single", 1, 1, "resign", True, (2, 1))
    assert (state.game, state.phase, state.turn, state.crawford) == (
        4,
        Phase.ROLL,
        "b",
        Crawford.POST,
    )
    end = run.state()
    assert (end.winner, end.score, end.events) == ("b", (2, 3), 28)


# -- USBGF 4.4.8: doubles to the wrong level -----------------------------------------------


def test_double_to_the_wrong_level_stands_at_the_right_level(url: str) -> None:
    run = run_scenario(url, "wrong-level-4.4.8.txt")
    double = run.event(5)
    assert isinstance(double, CubeOffered)
    assert (double.value, double.legal, double.rule) == (4, False, "USBGF 4.4.8")
    recorded = run.named["as-recorded"]
    assert (recorded.cube, recorded.cube_owner) == (4, "b")
    ruling = run.event(7)
    assert isinstance(ruling, CubeLevelCorrected)
    assert (ruling.event, ruling.value, ruling.voids, ruling.rule) == (5, 2, [], "USBGF 4.4.8")
    state = run.named["corrected"]
    assert (state.cube, state.cube_owner, state.phase, state.turn) == (2, "b", Phase.ROLL, "a")
    assert run.state(at=6).cube == 4  # as recorded then: the log is not rewritten
    assert corrected(run.history(), at=6).cube == 2  # as corrected since
    first = run.named["game-1"]
    assert first.games == (game(1, "b", "single", 2, 2, "drop", False, (0, 2)),)
    assert first.score == (0, 2)
    won = run.named["looks-won"]
    assert (won.winner, won.score) == ("b", (0, 6))
    ruling = run.event(22)
    assert isinstance(ruling, CubeLevelCorrected)
    assert (ruling.event, ruling.value, ruling.voids) == (16, 2, [21])
    after = run.named["corrected-after"]
    assert (after.winner, after.score, after.phase) == (None, (0, 4), Phase.BETWEEN_GAMES)
    assert after.games[-1] == game(2, "b", "single", 2, 2, "resign", False, (0, 4))
    assert after.crawford is Crawford.CRAWFORD


# -- USBGF 4.8: the match length ---------------------------------------------------------


def test_longer_match_length_takes_effect_after_the_game_in_progress(url: str) -> None:
    run = run_scenario(url, "match-length-longer-4.8.4.txt")
    ruling = run.event(5)
    assert isinstance(ruling, MatchLengthCorrected)
    assert (ruling.length, ruling.rule, ruling.voids) == (5, "USBGF 4.8.4", [])
    pending = run.named["pending"]
    assert (pending.length, pending.next_length, pending.phase) == (3, 5, Phase.ROLL)
    after = run.named["after-the-game"]
    assert (after.length, after.next_length, after.score) == (5, None, (1, 0))
    end = run.named["end"]
    assert (end.score, end.winner, end.length, end.crawford) == ((3, 0), None, 5, Crawford.PRE)


def test_shorter_match_length_one_player_over_wins(url: str) -> None:
    run = run_scenario(url, "match-length-shorter-one-over-4.8.5b.txt")
    ruling = run.event(29)
    assert isinstance(ruling, MatchLengthCorrected)
    assert (ruling.length, ruling.rule) == (3, "USBGF 4.8.5")
    pending = run.named["pending"]
    assert (pending.length, pending.next_length, pending.score) == (5, 3, (3, 1))
    end = run.named["end"]
    assert (end.length, end.score, end.winner, end.phase) == (3, (3, 2), "a", Phase.OVER)
    won = run.event(33)
    assert isinstance(won, MatchWon) and (won.winner, won.score_a, won.score_b) == ("a", 3, 2)


def test_shorter_match_length_both_over_the_higher_score_wins(url: str) -> None:
    run = run_scenario(url, "match-length-shorter-both-over-4.8.5c.txt")
    before = run.named["before"]
    assert (before.score, before.length, before.phase) == ((4, 3), 7, Phase.BETWEEN_GAMES)
    ruling = run.event(44)
    assert isinstance(ruling, MatchLengthCorrected) and ruling.rule == "USBGF 4.8.5"
    won = run.event(45)
    assert isinstance(won, MatchWon)
    assert (won.winner, won.score_a, won.score_b, won.recorded_by) == ("a", 4, 3, "director")
    end = run.named["end"]
    assert (end.length, end.score, end.winner, end.phase) == (3, (4, 3), "a", Phase.OVER)
    assert len(run.history()) == 45


def test_shorter_match_length_tied_over_the_next_game_decides(url: str) -> None:
    run = run_scenario(url, "match-length-shorter-tied-4.8.5d.txt")
    tied = run.named["tied"]
    assert (tied.length, tied.score, tied.winner, tied.phase) == (
        4,
        (4, 4),
        None,
        Phase.BETWEEN_GAMES,
    )
    assert tied.events == 50  # no MatchWon after the ruling: nobody has won yet
    assert not isinstance(run.event(51), MatchWon)
    end = run.named["end"]
    assert (end.score, end.winner) == ((5, 4), "a")
    assert end.games[-1] == game(9, "a", "single", 1, 1, "resign", False, (5, 4))


def test_shorter_match_length_one_away_plays_the_crawford_game(url: str) -> None:
    run = run_scenario(url, "match-length-crawford-4.8.5a.txt")
    state = run.named["crawford"]
    assert (state.length, state.score, state.crawford, state.winner) == (
        4,
        (3, 1),
        Crawford.CRAWFORD,
        None,
    )
    end = run.named["end"]
    assert (end.score, end.winner) == ((4, 1), "a")
    assert end.games[-1] == game(5, "a", "single", 1, 1, "resign", True, (4, 1))


# -- USBGF 4.7: the score ----------------------------------------------------------------


def test_score_corrected_and_the_match_goes_on_from_it(url: str) -> None:
    run = run_scenario(url, "correct-score-4.7.txt")
    assert run.named["recorded"].score == (2, 1)
    ruling = run.event(20)
    assert isinstance(ruling, ScoreCorrected)
    assert (ruling.score_a, ruling.score_b, ruling.rule, ruling.voids) == (1, 2, "USBGF 4.7", [])
    state = run.named["corrected"]
    assert (state.score, state.phase, state.crawford) == ((1, 2), Phase.BETWEEN_GAMES, "pre")
    # the score sheet keeps the games as recorded; the next game starts from the ruling
    assert [g.score for g in state.games] == [(1, 0), (1, 1), (2, 1)]
    end = run.named["end"]
    assert (end.score, end.winner) == ((1, 5), "b")
    assert [g.score for g in end.games[3:]] == [(1, 3), (1, 4), (1, 5)]
    assert end.games[-1].crawford
    assert isinstance(run.refusals[0], InvalidRulingError)


# -- notes, and appeals (USBGF 5.2) -------------------------------------------------------


def test_a_note_changes_nothing_and_an_appeal_restores_the_state_before_the_ruling(
    url: str,
) -> None:
    run = run_scenario(url, "note-and-overturn-5.2.txt")
    noted = run.event(4)
    assert isinstance(noted, RulingNoted)
    assert (noted.voids, noted.restores, noted.reason) == ([], [], "the players ask for a monitor")
    assert ignoring_counters(run.named["noted"]) == ignoring_counters(run.state(at=3))
    before = run.named["before-the-ruling"]
    bob_illegal = {24: 1, 18: 1, 13: 5, 8: 3, 6: 5}
    assert (before.turn, before.phase, before.flagged) == ("a", Phase.ROLL, (7,))
    assert before.board == sides(AFTER_31, bob_illegal)
    reverted = run.named["reverted"]
    assert (reverted.turn, reverted.phase, reverted.dice) == ("b", Phase.PLAY, (6, 5))
    assert reverted.board == sides(AFTER_31, START)
    # Only a committee overturns, and what it restores is exactly the state before the ruling.
    assert [type(e) for e in run.refusals] == [
        RulingRefusedError,
        RulingRefusedError,
        InvalidRulingError,
        RulingRefusedError,
    ]
    overturn = run.event(10)
    assert isinstance(overturn, RulingOverturned)
    assert (overturn.ruling, overturn.voids, overturn.restores) == (8, [8, 9], [7])
    assert (overturn.rule, overturn.ruled_by) == ("USBGF 5.2", "committee")
    overturned = run.named["overturned"]
    assert ignoring_counters(overturned) == ignoring_counters(before)
    assert overturned.flagged == (7,)
    # Overturning the overturn brings back the revert and Bob's replayed play.
    again = run.event(13)
    assert isinstance(again, RulingOverturned)
    assert (again.ruling, again.voids, again.restores) == (10, [10, 11, 12], [8, 9])
    state = run.named["overturned-again"]
    assert ignoring_counters(state) == ignoring_counters(run.named["replayed"])
    assert state.board == sides(AFTER_31, {24: 1, 13: 6, 8: 3, 6: 5})
    assert (state.turn, state.phase, state.flagged) == ("a", Phase.ROLL, ())
    history = run.history()
    assert len(history) == 13
    assert voided_by(history) == {7: 8, 10: 13, 11: 13, 12: 13}


# -- more refusals and consequences, recorded in code ----------------------------------------


def record(ledger: MatchStore, match_id: str, *lines: str) -> None:
    """Record ``lines`` (one action each) through :meth:`MatchStore.act`."""
    for text in lines:
        action = parse(text)
        ledger.act(match_id, lambda m, action=action: action.run(m, BY))


def rule(ledger: MatchStore, match_id: str, decide: Callable[..., None], *args: Any) -> None:
    """Make a ruling: ``decide(match, history, *args)`` through :meth:`MatchStore.rule`."""
    ledger.rule(match_id, lambda m, h: decide(m, h, *args))


ANN_DROP_GAME = ("opening 1 3", "move 8/5 6/5", "double", "drop")
DIRECTOR = Ruling("director", "see the test")


def test_a_dead_cube_the_doubler_won_with_still_wins_the_match_at_the_dead_value(url: str) -> None:
    ledger = MatchStore(url)
    match_id = ledger.start(("Ann", "Bob"), 3, match_id=unique_id("r"), by=BY, profile="online")
    record(ledger, match_id, *ANN_DROP_GAME, *ANN_DROP_GAME)  # 2-0
    record(ledger, match_id, "opening 3 1", "move 8/5 6/5", "resign single a", "accept")  # 2-1
    record(ledger, match_id, "opening 1 3", "move 8/5 6/5", "double --as-played", "take")
    record(ledger, match_id, "resign single b", "accept")  # Ann wins 2: 4-1
    assert (ledger.state(match_id).score, len(ledger.history(match_id))) == ((4, 1), 28)
    rule(ledger, match_id, Match.void_cube, 23, DIRECTOR)
    history = ledger.history(match_id)
    ruling, won = history[28:]
    assert isinstance(ruling, CubeActionVoided) and ruling.voids == [23, 24, 28]
    assert isinstance(won, MatchWon)
    assert (won.winner, won.score_a, won.score_b, won.recorded_by) == ("a", 3, 1, "director")
    state = ledger.state(match_id)
    assert (state.score, state.winner, state.phase) == ((3, 1), "a", Phase.OVER)
    assert state.games[-1] == game(4, "a", "single", 1, 1, "resign", False, (3, 1))
    assert corrected(history) == state


def test_rulings_name_what_they_rule_on(url: str) -> None:
    ledger = MatchStore(url)
    match_id = ledger.start(("Ann", "Bob"), 3, match_id=unique_id("r"), by=BY)
    record(ledger, match_id, "opening 3 1", "move 8/5 6/5", "roll 6 5", "move 24/18 --as-played")
    with pytest.raises(RulingRefusedError) as legal:
        rule(ledger, match_id, Match.revert, 4, DIRECTOR)
    assert legal.value.rule == "USBGF 4.2.3" and "legal play" in str(legal.value)
    with pytest.raises(InvalidRulingError, match="not a play"):
        rule(ledger, match_id, Match.revert, 5, DIRECTOR)
    with pytest.raises(InvalidRulingError, match="events 1-6"):
        rule(ledger, match_id, Match.revert, 7, DIRECTOR)
    with pytest.raises(InvalidRulingError, match="not a double"):
        rule(ledger, match_id, Match.void_cube, 6, DIRECTOR)
    with pytest.raises(InvalidRulingError, match="not a ruling"):
        rule(ledger, match_id, Match.overturn, 6, Ruling("committee", "appeal"))
    with pytest.raises(InvalidRulingError, match="length 3"):
        rule(ledger, match_id, Match.correct_length, 3, DIRECTOR)
    with pytest.raises(InvalidRulingError):
        Ruling("referee", "not a ruler")
    with pytest.raises(InvalidRulingError):
        Ruling("director", "  ")
    assert len(ledger.history(match_id)) == 6
    rule(ledger, match_id, Match.revert, 6, DIRECTOR)
    with pytest.raises(RulingRefusedError) as again:
        rule(ledger, match_id, Match.revert, 6, DIRECTOR)
    assert again.value.rule == "USBGF 5.2"
    assert "already void (ruling at event 7)" in str(again.value)
    assert len(ledger.history(match_id)) == 7


def test_the_rule_named_by_the_ruler_must_be_one_that_corrects_the_event(url: str) -> None:
    ledger = MatchStore(url)
    match_id = ledger.start(("Ann", "Bob"), 3, match_id=unique_id("r"), by=BY)
    record(ledger, match_id, "opening 3 1", "move 8/5 6/5", "roll 6 5", "move 24/18 --as-played")
    with pytest.raises(RulingRefusedError) as wrong:
        rule(ledger, match_id, Match.revert, 6, Ruling("director", "x", rule="USBGF 4.2.3(e)"))
    assert wrong.value.rule == "USBGF 4.2.3(e)" and "does not correct event 6" in str(wrong.value)
    rule(ledger, match_id, Match.revert, 6, Ruling("director", "x", rule="USBGF 4.2.3(a)"))
    ruling = ledger.history(match_id)[-1]
    assert isinstance(ruling, PlaysReverted) and ruling.rule == "USBGF 4.2.3(a)"


def test_a_game_in_progress_that_concludes_the_agreed_match_stands(url: str) -> None:
    ledger = MatchStore(url)
    match_id = ledger.start(("Ann", "Bob"), 3, match_id=unique_id("r"), by=BY, profile="online")
    record(ledger, match_id, *ANN_DROP_GAME, *ANN_DROP_GAME)  # 2-0, game 3 is Crawford
    record(ledger, match_id, "opening 3 1", "move 8/5 6/5")
    rule(ledger, match_id, Match.correct_length, 5, DIRECTOR)
    assert (ledger.state(match_id).length, ledger.state(match_id).next_length) == (3, 5)
    record(ledger, match_id, "roll 6 5", "move 24/13")
    record(ledger, match_id, "resign single b", "accept")  # Bob concedes game 3: 3-0
    state = ledger.state(match_id)
    assert state.score == (3, 0)
    assert state.winner == "a", "the match was concluded at its agreed length: it stands"
    assert state.length == 3


def test_a_revert_undoes_game_actions_not_the_rulings_made_since(url: str) -> None:
    """USBGF 4.2.3(c) undoes "all subsequent game actions"; a ruling made meanwhile stands."""
    ledger = MatchStore(url)
    match_id = ledger.start(("Ann", "Bob"), 3, match_id=unique_id("r"), by=BY)
    record(ledger, match_id, "opening 3 1", "move 8/5 6/5", "roll 6 5", "move 24/18 --as-played")
    rule(ledger, match_id, Match.note, Ruling("director", "Ann questions Bob's play"))  # 7
    rule(ledger, match_id, Match.correct_length, 5, DIRECTOR)  # 8: the draw sheet says 5
    record(ledger, match_id, "double")  # 9
    rule(ledger, match_id, Match.revert, 6, DIRECTOR)  # 10
    ruling = ledger.history(match_id)[-1]
    assert isinstance(ruling, PlaysReverted) and ruling.voids == [6, 9]
    state = ledger.state(match_id)
    assert (state.phase, state.turn, state.dice) == (Phase.PLAY, "b", (6, 5))
    assert (state.length, state.next_length) == (3, 5)
    record(ledger, match_id, "move 24/13", "double", "drop")  # Ann wins 1: 1-0, 5 points now
    state = ledger.state(match_id)
    assert (state.score, state.length, state.winner) == ((1, 0), 5, None)


def test_classic_laws_oblige_moving_the_man_wrongly_moved() -> None:
    """CLASSIC 10: if a man wrongly moved can be moved correctly, that man must be moved."""
    ledger = MatchStore("sqlite:///:memory:")
    match_id = ledger.start(("Ann", "Bob"), 3, match_id="classic", profile="classic", by=BY)
    record(ledger, match_id, "opening 5 2", "play-singles")  # by consent (CLASSIC 4)
    record(ledger, match_id, "move 13/7 --as-played")  # 7 pips for a 5-2 is 13/6
    rule(ledger, match_id, Match.revert, 5, Ruling("players", "Bob demanded it (CLASSIC 9)"))
    ruling = ledger.history(match_id)[-1]
    assert isinstance(ruling, PlaysReverted) and ruling.same_checker == [13]
    assert ruling.rule == "CLASSIC 9"
    with pytest.raises(IllegalPlayRefusedError) as refused:
        record(ledger, match_id, "move 8/3 6/4")  # legal for 5-2, but not the man from 13
    assert refused.value.rule == "CLASSIC 10" and "from 13" in str(refused.value)
    record(ledger, match_id, "move 13/11 13/8")
    assert ledger.state(match_id).turn == "b" and ledger.state(match_id).obliged == ()
