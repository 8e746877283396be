"""The laws the rulebooks state in words, situation by situation (issue 23, "Scoring and the
laws of other rulebooks"): each test is the rule's sentence played out at the board."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bgledger.cli.main import main
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.rulings import Ruling, RulingRefusedError
from bgledger.errors import ActionRefusedError, IllegalPlayRefusedError
from bgledger.events import GameWon, PlaysReverted, SingleDiceAgreed
from bgledger.projections.state.situation import now
from bgledger.projections.views.audit import history
from bgledger.rules.profiles import Decision, get_profile
from bgledger.service import Ledger
from tests.conftest import board
from tests.match_driver import InMemory

AT = "2024-05-01T10:00:00+00:00"


def _match(profile: str, *lines: str) -> InMemory:
    match = InMemory("laws", 5, by="kim", at=AT, profile=profile)
    for line in lines:
        match.act(line)
    return match


def _won(match: InMemory) -> GameWon:
    won = [event for event in match.events if isinstance(event, GameWon)]
    assert len(won) == 1
    return won[0]


# -- fewer than 15 checkers still lose a gammon or backgammon ----------------------------------

# Ann (a) is missing a checker: 14 on her 12 point, none borne off.  Bob has one checker
# left to bear off.  Position ids imply "borne off" for what the board lacks of 15.
MISSING = board({12: 14}, {1: 1}).position_id


@pytest.mark.parametrize("profile", ["usbgf-2016", "usbgf-2017"])
def test_a_side_starting_with_a_checker_missing_may_still_be_gammoned(profile: str) -> None:
    """USBGF 4.2.4: "a player starting with fewer than 15 checkers may still lose a gammon or
    backgammon"; ABT 4.7: "Players starting with less than 15 checkers in play may still be
    gammoned or backgammoned"."""
    match = _match(profile, f"setup {MISSING}", "opening 1 2", "move 1/off")
    won = _won(match)
    assert (won.winner, won.result, won.points) == ("b", "gammon", 2)
    assert match.match.state.score == (0, 2)
    assert match.match.state.board[0][0] == 0  # Ann's missing checker was never borne off


def test_a_side_starting_with_a_checker_missing_may_still_be_backgammoned() -> None:
    position = board({12: 13, 20: 1}, {1: 1}).position_id  # one of Ann's in Bob's home board
    won = _won(_match("usbgf-2016", f"setup {position}", "opening 1 2", "move 1/off"))
    assert (won.winner, won.result, won.points) == ("b", "backgammon", 3)


# Ann: 14 checkers on her 12 point and one on her ace point; she bears the ace point checker
# off with checkers outside her home board (USBGF 4.2.3(e)); nobody corrects it.
ILLEGAL_BEAR_OFF = board({12: 14, 1: 1}, {1: 1}).position_id


_OPENING_3_1 = {"classic": ("opening 3 1", "play-singles")}  # CLASSIC 4, by consent


@pytest.mark.parametrize("profile", ["usbgf-2016", "usbgf-2017", "classic"])
def test_a_checker_illegally_removed_from_play_does_not_save_the_gammon(profile: str) -> None:
    """ABT 4.4: "A player with a checker illegally removed from play may still be gammoned or
    backgammoned."  Bob's roll condones the play (ABT 4.8; CLASSIC 9: "the erroneous move
    stands good"), and his last checker off wins a gammon: Ann bore off none legally."""
    match = _match(
        profile,
        f"setup {ILLEGAL_BEAR_OFF}",
        *_OPENING_3_1.get(profile, ("opening 3 1",)),
        "move 12/9 1/off --as-played",
        "roll 2 1",
        "move 1/off",
    )
    won = _won(match)
    assert (won.winner, won.result, won.points) == ("b", "gammon", 2)


def test_a_checker_borne_off_legally_saves_the_gammon() -> None:
    """The control: Ann's checker borne off by a legal play makes it a single game."""
    position = board({6: 14, 1: 1}, {1: 1}).position_id
    match = _match("usbgf-2016", f"setup {position}", "opening 3 1", "move 6/3 1/off")
    match.act("roll 2 1")
    match.act("move 1/off")
    won = _won(match)
    assert (won.winner, won.result, won.points) == ("b", "single", 1)


# -- USBGF 6.7: online events have no right of appeal ----------------------------------------

NOTED = Ruling("director", "the players asked for the clock to be checked", by="tom")
APPEALED = Ruling("committee", "the committee reverses the director", by="sue")


def test_an_online_event_has_no_ruling_committee_to_overturn_the_director() -> None:
    """USBGF 6.7: "all decisions of the Tournament Director in online events shall be final
    and binding, with no right to request reconsideration, no right to formation of a Ruling
    Committee, and no other right to appeal"."""
    match = _match("online", "opening 3 1", "move 8/5 6/5")
    match.rule(lambda m, h, r: m.note(h, r), NOTED)
    noted = len(match.events)
    before = len(match.events)
    with pytest.raises(RulingRefusedError) as refused:
        match.rule(lambda m, h, n, r: m.overturn(h, n, r), noted, APPEALED)
    assert refused.value.rule == "USBGF 6.7" == get_profile("online").cite(Decision.APPEAL)
    assert "final" in str(refused.value)
    assert len(match.events) == before


@pytest.mark.parametrize("profile", ["usbgf-2016", "usbgf-2017"])
def test_a_live_event_keeps_its_ruling_committee(profile: str) -> None:
    """USBGF 5.2: "The Ruling Committee may uphold, reverse, or modify the Tournament
    Director's rulings." (section 5 is for live play; 6.7 only for online events)."""
    match = _match(profile, "opening 3 1", "move 8/5 6/5")
    match.rule(lambda m, h, r: m.note(h, r), NOTED)
    match.rule(lambda m, h, n, r: m.overturn(h, n, r), len(match.events), APPEALED)
    assert type(match.events[-1]).__name__ == "RulingOverturned"


# -- CLASSIC 9-10: a man moved a wrong number of points -------------------------------------

DEMANDED = Ruling("players", "Bob demanded the error be rectified before he threw", by="tom")


def test_the_correction_concerns_that_man_not_the_one_moved_right() -> None:
    """CLASSIC 9: "If a player moves a man a wrong number of points ... the adversary must
    demand that the error be rectified"; CLASSIC 10: "If a man wrongly moved can be moved
    correctly, the player in error is obliged to move that man."  Ann's 5-2: 13/8 is right,
    24/20 moves a man four points, the wrong number: the man from 24 must be moved."""
    match = _match("classic", "opening 5 2", "play-singles", "move 13/8 24/20 --as-played")
    played = len(match.events)
    match.rule(lambda m, h, n, r: m.revert(h, n, r), played, DEMANDED)
    reverted = match.events[-1]
    assert isinstance(reverted, PlaysReverted) and reverted.same_checker == [24]
    with pytest.raises(IllegalPlayRefusedError) as refused:
        match.act("move 13/11 13/8")  # legal for 5-2, but moves another man
    assert refused.value.rule == "CLASSIC 10" == get_profile("classic").cite(Decision.SAME_CHECKER)
    assert "from 24" in str(refused.value)
    match.act("move 24/22 13/8")
    assert match.match.state.turn == "b"


# -- USBGF 2.2.4: lateness counts from the scheduled start it was given ----------------------


def test_a_later_late_keeps_the_scheduled_start_given_before() -> None:
    """USBGF 2.2.4: "If a player is not present and has not started the match fifteen (15)
    minutes after the starting time ... one penalty point", one more "for each subsequent
    five-minute delay".  The match was set up at 10:00 for a 10:10 start; Bob, absent, is
    16 minutes late at 10:26: one point.  At 10:29 the director asks again without
    repeating the time: 19 minutes from 10:10, still one point (the next falls at 20).
    From 10:00 it would be 29 minutes, three points: in a 5-point match a no-show past half
    the length, a forfeit.  At 10:31, 21 minutes: the second point, and no forfeit."""
    ledger = Ledger("sqlite:///:memory:")
    ledger.start(("Ann", "Bob"), 5, match_id="late", by="tom", at="2024-05-01T10:00:00+00:00")
    ledger.record_line(
        "late", "late b scheduled 2024-05-01T10:10:00+00:00", by="tom",
        at="2024-05-01T10:26:00+00:00",
    )  # fmt: skip
    assert ledger.state("late").score == (1, 0)
    with pytest.raises(ActionRefusedError) as refused:
        ledger.record_line("late", "late b", by="tom", at="2024-05-01T10:29:00+00:00")
    assert "19 minutes late" in str(refused.value) and "falls at 20 minutes" in str(refused.value)
    ledger.record_line("late", "late b", by="tom", at="2024-05-01T10:31:00+00:00")
    state = ledger.state("late")
    assert (state.score, state.winner) == ((2, 0), None)
    assessed = [e for e in ledger.history("late") if e.kind == "PenaltyPointsAssessed"]
    assert ["16 minutes late" in assessed[0].text, "21 minutes late" in assessed[1].text] == [
        True,
        True,
    ]


# -- each profile cites its own rulebook -------------------------------------------------------

# Ann's 5-2 after the opening; under classic the higher thrower first agrees to the single dice.
_OPENING = {"classic": ("opening 5 2", "play-singles")}


def _opened(profile: str) -> InMemory:
    return _match(profile, *_OPENING.get(profile, ("opening 5 2",)))


@pytest.mark.parametrize(
    ("profile", "rule"),
    [("usbgf-2016", "USBGF 4.2.3(a)"), ("usbgf-2017", "ABT 4.8"), ("classic", "CLASSIC 9")],
)
def test_an_illegal_play_is_refused_under_the_profiles_own_rule(profile: str, rule: str) -> None:
    """USBGF 4.2.3(a): a play that "does not conform to the rules of backgammon"; ABT 4.8
    "Illegal plays" replaces it under usbgf-2017; CLASSIC 9: "If a player moves a man a wrong
    number of points".  24/20 moves a man four points with 5-2."""
    match = _opened(profile)
    with pytest.raises(IllegalPlayRefusedError) as refused:
        match.act("move 13/8 24/20")
    assert refused.value.rule == rule
    assert str(refused.value).endswith(f"({rule})")
    match.act("move 13/8 24/20 --as-played")
    assert match.events[-1].rule == rule  # the play is recorded under the same rule


@pytest.mark.parametrize(
    ("profile", "rule"),
    [("usbgf-2016", "USBGF 4.2.3(e)"), ("usbgf-2017", "ABT 4.8")],
)
def test_a_play_unrelated_to_the_dice_cites_the_profiles_rule(profile: str, rule: str) -> None:
    """USBGF 4.2.3(e): "bearing off a checker before all checkers have reached his home board";
    ABT 4.8 covers every illegal play and replaces it under usbgf-2017."""
    match = _match(profile, f"setup {ILLEGAL_BEAR_OFF}", "opening 3 1")
    with pytest.raises(IllegalPlayRefusedError) as refused:
        match.act("move 12/9 1/off")
    assert refused.value.rule == rule


@pytest.mark.parametrize(
    ("decision", "rule"),
    [
        (Decision.VOID_ROLL, "ABT 4.2"),
        (Decision.PREMATURE_ROLL, "ABT 4.6"),
        (Decision.PREMATURE_DOUBLE, "ABT 4.6"),
        (Decision.SETUP_ERROR, "ABT 4.7"),
        (Decision.ILLEGAL_PLAY, "ABT 4.8"),
        (Decision.ILLEGAL_PLAY_OF_DICE, "ABT 4.8"),
        (Decision.UNRELATED_TO_DICE, "ABT 4.8"),
        (Decision.RESIGNATION, "ABT 4.9"),
        (Decision.MATCH_OVER, "ABT 4.9"),
        (Decision.RESULT, "ABT 4.10"),
    ],
)
def test_usbgf_2017_cites_the_abt_rules_where_they_replace_usbgf(
    decision: Decision, rule: str
) -> None:
    assert get_profile("usbgf-2017").cite(decision) == rule


@pytest.mark.parametrize(
    "decision", [Decision.ILLEGAL_PLAY, Decision.ILLEGAL_PLAY_OF_DICE, Decision.SAME_CHECKER]
)
def test_classic_cites_its_laws_for_illegal_plays(decision: Decision) -> None:
    assert get_profile("classic").cite(decision).startswith("CLASSIC ")


# -- wording: a player is named, never "he" ----------------------------------------------------


def test_the_setup_window_closed_says_so_without_a_pronoun() -> None:
    """USBGF 4.2.4's window closes when "the player not starting the game has completed his
    second turn"; the refusal says it of the player in neutral words (a player may be Ann)."""
    blot = board({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 4, 20: 1, 8: 3, 6: 5}).position_id
    match = _match(
        "usbgf-2016",
        f"setup {blot}",
        "opening 3 1",
        "move 24/21 24/23",
        "roll 2 1",
        "move 8/6 8/7",
        "roll 2 1",
        "move 8/6 8/7",
        "roll 2 1",
        "move 8/6 7/6",
    )
    ruling = Ruling("director", "a checker of Bob's stood on Ann's 5 point", by="tom")
    with pytest.raises(RulingRefusedError) as refused:
        match.rule(lambda m, h, n, r: m.correct_setup(h, n, r), 3, ruling)
    assert "the player who did not start completed a second turn" in str(refused.value)
    assert " his " not in str(refused.value)


# -- CLASSIC 3-4: the opening throw --------------------------------------------------------------


def test_classic_the_higher_thrower_throws_again_with_two_dice() -> None:
    """CLASSIC 3: "each cast a single die for the privilege of first move, the higher winning";
    CLASSIC 4: "otherwise he must throw again with two dice".  Ann wins 5-2 and throws 6-4."""
    match = _match("classic", "opening 5 2")
    with pytest.raises(ActionRefusedError) as refused:
        match.act("move 13/8 13/11")
    assert refused.value.rule == "CLASSIC 4" == get_profile("classic").cite(Decision.OPENING_THROW)
    assert "Ann throws again with two dice" in str(refused.value)
    match.act("roll 6 4")
    state = match.match.state
    assert (state.turn, state.dice) == ("a", (6, 4))
    match.act("move 24/18 13/9")
    assert match.match.state.turn == "b"
    assert "Ann rolled 6-4" in "\n".join(e.text for e in history(match.events))


def test_classic_both_may_agree_to_play_the_single_dice() -> None:
    """CLASSIC 4: "By mutual consent it may be agreed to let the higher throw play the points on
    his own and his adversary's die for the first move"; the agreement is recorded."""
    match = _match("classic", "opening 5 2", "play-singles")
    agreed = match.events[-1]
    assert isinstance(agreed, SingleDiceAgreed) and agreed.player == "a"
    lines = [e.text for e in history(match.events)]
    assert any(
        "Ann and Bob agree that Ann plays the single dice 5-2 (CLASSIC 4)" in t for t in lines
    )
    with pytest.raises(ActionRefusedError):
        match.act("roll 6 4")  # agreed: the single dice are played
    match.act("move 13/8 13/11")
    assert match.match.state.turn == "b"


@pytest.mark.parametrize("profile", ["usbgf-2016", "usbgf-2017", "online"])
def test_other_profiles_play_the_opening_dice_and_have_nothing_to_agree(profile: str) -> None:
    match = _match(profile, "opening 5 2")
    with pytest.raises(ActionRefusedError) as refused:
        match.act("play-singles")
    assert refused.value.rule == get_profile(profile).cite(Decision.OPENING_THROW)
    with pytest.raises(ActionRefusedError):
        match.act("roll 6 4")
    match.act("move 13/8 13/11")


def test_classic_opening_throw_from_the_command_line_and_in_show(tmp_path: Path) -> None:
    """The CLI's `play-singles MATCH` records the agreement; `show --json` says while the
    choice is open (``opening_throw``), which the pad reads to offer it; the history says it."""
    db = f"sqlite:///{tmp_path / 'classic.db'}"
    runner = CliRunner()

    def run(*args: str) -> Result:
        return runner.invoke(main, ["--db", db, *args])

    assert run("start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m",
               "--profile", "classic").exit_code == 0  # fmt: skip
    assert run("opening", "m", "5", "2").exit_code == 0
    assert json.loads(run("show", "m", "--json").stdout)["opening_throw"] is True
    moved = run("move", "m", "13/8 13/11")
    assert moved.exit_code == 1 and "(CLASSIC 4)" in moved.output
    assert run("play-singles", "m").exit_code == 0, "agreed"
    assert json.loads(run("show", "m", "--json").stdout)["opening_throw"] is False
    assert (
        "Ann and Bob agree that Ann plays the single dice 5-2 (CLASSIC 4)"
        in run("history", "m").output
    )
    assert run("move", "m", "13/8 13/11").exit_code == 0


def test_the_pad_offers_the_agreement_to_play_the_single_dice() -> None:
    """The pad draws the control while the domain's answer offers its line (CLASSIC 4)."""
    page = (Path(__file__).parent.parent / "web" / "templates" / "pad.html").read_text()
    assert 'data-line="play-singles" data-offer="play-singles"' in page
    match = Match.start(match_uuid("s"), "s", ("Ann", "Bob"), 5, by="kim", profile="classic")
    assert "play-singles" not in now(match.state).lines()
    match.opening(5, 2, by="kim")
    assert "play-singles" in now(match.state).lines("players")


# -- a doubles team is two players; a player is named, not "he" --------------------------


def test_a_doubles_team_takes_the_plural() -> None:
    """CLOCK 2.2's doubles: "Ann & Cy have rolled", not "has"."""
    from bgledger.projections.state.situation import situation
    from bgledger.service import Ledger

    ledger = Ledger("sqlite:///:memory:")
    ledger.start(("Ann & Cy", "Bob and Di"), 5, match_id="d", by="td")
    done = ledger.record_line("d", "opening 3 1", by="td")
    assert situation(done.state) == "Ann & Cy have rolled 3-1 and must move"
    ledger.record_line("d", "move 8/5 6/5", by="td")
    assert situation(ledger.state("d")).startswith("Bob and Di are on roll")
    ledger.record_line("d", "double", by="td")
    assert situation(ledger.state("d")) == "Bob and Di have doubled to 2: Ann & Cy take or drop"


def test_an_early_roll_accepted_is_the_early_roll_not_his() -> None:
    from bgledger.projections.state.situation import situation
    from bgledger.service import Ledger

    ledger = Ledger("sqlite:///:memory:")
    ledger.start(("Ann", "Bob"), 5, match_id="e", by="td")
    for line in ("opening 3 1", "roll 6 4 --premature", "accept-roll"):
        ledger.record_line("e", line, by="td")
    status = situation(ledger.state("e"))
    assert "then Bob plays the early 6-4" in status and " his " not in status
