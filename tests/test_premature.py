"""Premature actions: a roll or a double made before the opponent finished (USBGF 4.1.7.1, 4.4.7).

The expectations are worked out by hand from the standard opening position:
each side has 167 pips; Ann's opening 3-1 (8/5 6/5) leaves her 163, Bob's 6-4
(24/18 13/9) leaves him 157, Ann's 5-2 (13/8 13/11) leaves her 156.  Player
``a`` is Ann, ``b`` Bob.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bgledger import events as ev
from bgledger.cli.main import main
from bgledger.commands.language import InvalidActionError
from bgledger.commands.match import Match, match_uuid
from bgledger.commands.vocabulary import Roll, parse
from bgledger.errors import (
    CubeActionRefusedError,
    IllegalPlayRefusedError,
    OutOfTurnError,
    PrematureRollStandsError,
)
from bgledger.interchange.json_schema import content_hash
from bgledger.interchange.json_stream import (
    InconsistentMatchJsonError,
    export_json,
    import_json,
    read_json,
)
from bgledger.interchange.mat_writer import export_mat
from bgledger.projections.state.codec import state_from_dict, state_to_dict
from bgledger.projections.state.fold import Phase
from bgledger.projections.state.model import Premature
from bgledger.projections.views.audit import history
from bgledger.store.application import MatchStore
from tests.gnubg_oracle import (
    debian_gnubg,
    expected_gnubg_games,
    gnubg_game_terms,
    gnubg_matches,
)
from tests.test_scenarios import SCENARIOS, record_scenario

AT = "2026-11-21T10:00:00+00:00"


def new_match(profile: str = "usbgf-2016", length: int = 5, *lines: str) -> Match:
    """Ann v Bob, ``lines`` of the record language played (none refused)."""
    match = Match.start(
        match_uuid("p"), "p", ("Ann", "Bob"), length, profile=profile, by="kim", at=AT
    )
    play(match, *lines)
    return match


def play(match: Match, *lines: str) -> None:
    for line in lines:
        for part in line.split(";"):
            if part.strip():
                parse(part).run(match, "kim")


# Ann opens with 3-1; Bob has rolled 6-4 and not moved.
BOB_TO_MOVE = ("opening 3 1; move 8/5 6/5; roll 6 4",)


# -- a premature roll, accepted ---------------------------------------------------------------


def test_an_accepted_premature_roll_is_the_early_rollers_roll_once_the_mover_has_moved() -> None:
    match = new_match("usbgf-2016", 5, *BOB_TO_MOVE)
    match.roll_early(5, 2, by="kim")
    state = match.state
    assert state.phase is Phase.PREMATURE_ROLL and state.actor == "b"
    assert state.turn == "b" and state.dice == (6, 4)  # Bob's own roll is still to be moved
    assert state.premature == Premature("roll", "a", 5, 2)
    match.accept_roll(by="kim")
    assert match.state.phase is Phase.PLAY and match.state.dice == (6, 4)
    match.move("24/18 13/9", by="kim")  # Bob moves, knowing Ann's 5-2
    state = match.state
    assert (state.turn, state.dice, state.phase) == ("a", (5, 2), Phase.PLAY)
    assert state.premature is None
    match.move("13/8 13/11", by="kim")  # Ann plays the early 5-2
    assert (match.state.turn, match.state.phase, match.state.pips()) == (
        "b",
        Phase.ROLL,
        (156, 157),
    )
    kinds = [type(e).__name__ for e in match.collect_events()][-4:]
    assert kinds == [
        "PrematureRollMade",
        "PrematureRollAccepted",
        "CheckersPlayed",
        "CheckersPlayed",
    ]


def test_the_early_roller_cannot_play_other_dice_than_his_early_roll() -> None:
    match = new_match("usbgf-2016", 5, *BOB_TO_MOVE, "roll 5 2 --premature; accept-roll")
    match.move("24/18 13/9", by="kim")
    with pytest.raises(OutOfTurnError):
        match.roll(6, 6, by="kim")  # the 5-2 stands: no new roll
    with pytest.raises(IllegalPlayRefusedError, match="of 5-2"):
        match.move("24/18 24/18 13/7 13/7", by="kim")  # 6-6 is not what Ann rolled


# -- a premature roll, refused (the Fast Roll Rule) ------------------------------------------------


def test_a_refused_premature_roll_is_gone_and_the_early_roller_rolls_again() -> None:
    match = new_match("usbgf-2016", 5, *BOB_TO_MOVE, "roll 6 6 --premature")
    match.refuse_roll(by="kim")
    assert match.state.phase is Phase.PLAY and match.state.premature == Premature(
        "refused", "a", 6, 6
    )
    match.move("24/18 13/9", by="kim")
    state = match.state
    assert (state.turn, state.dice, state.phase, state.premature) == (
        "a",
        None,
        Phase.REROLL,
        None,
    )
    with pytest.raises(OutOfTurnError, match="Appendix B"):
        match.move("24/18(2) 13/7(2)", by="kim")  # the early 6-6 is gone
    with pytest.raises(OutOfTurnError, match=r"USBGF 4\.4\.2"):
        match.double(by="kim")  # she rolled instead of doubling
    match.roll(3, 1, by="kim")
    assert (match.state.turn, match.state.dice) == ("a", (3, 1))


# -- while the decision is pending -----------------------------------------------------------


def test_nothing_but_the_movers_decision_while_a_premature_roll_awaits_it() -> None:
    match = new_match("usbgf-2016", 5, *BOB_TO_MOVE, "roll 5 2 --premature")
    before = match.version
    answer = r"record Bob's answer to Ann's early roll first: `accept-roll p` or `refuse-roll p`"
    with pytest.raises(
        OutOfTurnError, match=rf"accepts or refuses the roll; {answer} \(USBGF 4\.1\.7\.1\)"
    ):
        match.move("24/18 13/9", by="kim")
    with pytest.raises(OutOfTurnError, match=r"USBGF 4\.1\.7\.1"):
        match.roll_early(4, 4, by="kim")  # one early roll at a time
    with pytest.raises(OutOfTurnError, match=r"USBGF 4\.1\.7\.1"):
        match.double_early(by="kim")
    with pytest.raises(OutOfTurnError):
        match.void_roll("cocked", by="kim")
    assert match.version == before


def test_a_premature_action_needs_a_mover_who_has_rolled_and_not_moved() -> None:
    match = new_match("usbgf-2016", 5, "opening 3 1; move 8/5 6/5")  # Bob on roll, not rolled
    with pytest.raises(OutOfTurnError, match=r"USBGF 4\.1\.7\.1"):
        match.roll_early(5, 2, by="kim")
    with pytest.raises(OutOfTurnError, match=r"USBGF 4\.4\.7"):
        match.double_early(by="kim")
    with pytest.raises(OutOfTurnError, match=r"USBGF 4\.1\.7\.1"):
        match.accept_roll(by="kim")
    with pytest.raises(OutOfTurnError, match=r"USBGF 4\.1\.7\.1"):
        match.refuse_roll(by="kim")


# -- a premature double (USBGF 4.4.7) --------------------------------------------------------------


def test_a_premature_double_taken_after_the_movers_play() -> None:
    match = new_match("usbgf-2016", 5, *BOB_TO_MOVE)
    match.double_early(by="kim")  # Ann doubles while Bob is to move his 6-4
    assert match.state.phase is Phase.PLAY and match.state.premature == Premature(
        "double", "a", 2, 0
    )
    match.move("24/18 13/9", by="kim")  # Bob finishes his turn knowing it
    state = match.state
    assert (state.phase, state.turn, state.offer, state.actor) == (Phase.DOUBLED, "a", 2, "b")
    match.take(by="kim")
    state = match.state
    assert (state.cube, state.cube_owner, state.turn, state.phase) == (2, "b", "a", Phase.ROLL)


def test_a_premature_double_dropped_after_the_movers_play() -> None:
    match = new_match("usbgf-2016", 5, *BOB_TO_MOVE, "double --premature; move 24/18 13/9")
    match.drop(by="kim")
    state = match.state
    assert state.score == (1, 0)  # Ann wins the cube's value before the double: 1 point
    assert [(g.winner, g.points, g.how) for g in state.games] == [("a", 1, "drop")]


def test_a_forbidden_premature_double_is_refused_unless_made_at_the_board() -> None:
    # Bob took Ann's double and owns the cube at 2: Ann cannot double, early or not (USBGF 4.4.2).
    lines = "opening 3 1; move 8/5 6/5; 64: 24/18 13/9; double; take; 52: 13/11 13/8; roll 5 3"
    match = new_match("usbgf-2016", 5, lines)
    assert match.state.cube_owner == "b"
    before = match.version
    with pytest.raises(CubeActionRefusedError, match=r"Bob owns the cube at 2.*USBGF 4\.4\.2"):
        match.double_early(by="kim")
    assert match.version == before
    match.double_early(as_played=True, by="kim")
    assert match.state.flagged[-1] == match.version
    events = match.collect_events()
    made = events[-1]
    assert isinstance(made, ev.PrematureDoubleMade)
    assert (made.player, made.value, made.legal, made.rule) == ("a", 4, False, "USBGF 4.4.2")
    assert history(events)[-1].text.startswith("ILLEGAL: Ann doubled to 4 early")


def test_a_premature_double_in_the_crawford_game_is_refused() -> None:
    match = new_match("usbgf-2016", 2, "opening 3 1; move 8/5 6/5; double; drop")
    play(match, "opening 3 1; move 8/5 6/5; roll 6 4")  # game 2, Ann leads 1-0: Crawford
    with pytest.raises(CubeActionRefusedError, match=r"Crawford"):
        match.double_early(by="kim")


# -- where premature rolls stand (ABT 4.6) ------------------------------------------------------


def test_under_usbgf_2017_a_premature_roll_stands_at_once_and_cannot_be_refused() -> None:
    match = new_match("usbgf-2017", 5, *BOB_TO_MOVE)
    match.roll_early(5, 2, by="kim")
    kinds = [type(e) for e in match.collect_events()[-2:]]
    assert kinds == [ev.PrematureRollMade, ev.PrematureRollAccepted]
    assert match.state.phase is Phase.PLAY  # Bob moves at once, knowing the 5-2
    with pytest.raises(PrematureRollStandsError, match=r"ABT 4\.6"):
        match.refuse_roll(by="kim")
    match.move("24/18 13/9", by="kim")
    assert (match.state.turn, match.state.dice) == ("a", (5, 2))


def test_premature_rolls_stand_under_classic_too_without_a_rule_to_cite() -> None:
    match = new_match(
        "classic", 5, "opening 3 1; play-singles; move 8/5 6/5; roll 6 4", "roll 5 2 --premature"
    )
    with pytest.raises(PrematureRollStandsError, match="classic laws") as refused:
        match.refuse_roll(by="kim")
    assert refused.value.rule is None


def test_an_accepted_premature_roll_that_cannot_be_played_is_recorded_as_a_dance() -> None:
    # scenario game 2: Bob rolls 3-2 early; Ann, knowing it, hits two checkers: Bob dances.
    match = new_match("usbgf-2016", 1, *_dance_game_lines())
    play(match, "roll 5 4; roll 3 2 --premature; accept-roll")
    match.move("8/4* 6/1*", by="kim")
    events = match.collect_events()
    dance = events[-1]
    assert isinstance(dance, ev.CheckersPlayed) and (dance.player, dance.play) == ("b", "")
    assert (match.state.turn, match.state.phase) == ("a", Phase.ROLL)
    assert history(events)[-1].text == "Bob could not move"


def test_a_game_ended_while_a_premature_roll_waits_forgets_it() -> None:
    # online allows a concession at any time; there a premature roll stands at once.
    match = new_match("online", 5, *BOB_TO_MOVE, "roll 5 2 --premature")
    assert match.state.premature == Premature("accepted", "a", 5, 2)
    play(match, "resign single; accept")  # Bob concedes instead of moving
    assert match.state.premature is None and match.state.score == (1, 0)
    play(match, "opening 3 1")
    assert (match.state.turn, match.state.dice) == ("a", (3, 1))


# -- the fold's snapshot form, the history -----------------------------------------------------


def test_a_pending_premature_action_survives_a_snapshot() -> None:
    for lines in ("roll 5 2 --premature", "double --premature"):
        state = new_match("usbgf-2016", 5, *BOB_TO_MOVE, lines).state
        assert state.premature is not None
        assert state_from_dict(state_to_dict(state)) == state
    older = state_to_dict(new_match("usbgf-2016", 5, *BOB_TO_MOVE).state)
    del older["premature"]  # a snapshot written before premature actions existed
    assert state_from_dict(older).premature is None


def test_the_history_says_who_acted_early_and_what_the_mover_decided() -> None:
    match = new_match("usbgf-2016", 5, *BOB_TO_MOVE, "roll 5 2 --premature; refuse-roll")
    play(match, "move 24/18 13/9; roll 3 1; move 8/5 6/5; roll 5 3; double --premature")
    texts = [entry.text for entry in history(match.collect_events())]
    assert texts[5] == (
        "Ann rolled 5-2 early, while Bob was still to move: Bob accepts or refuses it "
        "(USBGF 4.1.7.1)"
    )
    assert texts[6] == (
        "Bob refused Ann's early 5-2 (the Fast Roll Rule, USBGF 4.1.7.1): "
        "Ann rolls again after Bob's move"
    )
    assert texts[-1] == (
        "Ann doubled to 2 early, while Bob was still to move: it stands (USBGF 4.4.7); "
        "Bob takes or drops after moving"
    )
    stands = new_match("usbgf-2017", 5, *BOB_TO_MOVE, "roll 5 2 --premature")
    accepted = history(stands.collect_events())[-1].text
    assert accepted == "Ann's early 5-2 stands (ABT 4.6): Bob moves knowing it, then Ann plays it"


# -- the record language ------------------------------------------------------------------------


def test_record_lines_for_premature_actions() -> None:
    assert parse("roll 6 5 --premature").premature
    assert parse("double --premature --as-played").as_played
    early = parse("65: --premature")
    assert early == Roll(6, 5, premature=True) and str(early) == "roll 6 5 --premature"
    assert parse("accept-roll").verb == "accept-roll"
    for bad in ("move 13/8 --premature", "65: 13/7 13/8 --premature", "accept-roll 5"):
        with pytest.raises(InvalidActionError):
            parse(bad)


# -- the scenario, through the CLI ------------------------------------------------------------


REFUSED = [
    "USBGF 4.1.7.1",  # an early roll before Bob has rolled
    "USBGF 4.1.7.1",  # Bob moves before deciding on Ann's early roll
    "USBGF 4.1.7.1",  # a second early roll
    "Appendix B",  # Ann moves the refused 6-6
    "USBGF 4.4.2",  # Ann doubles after her refused roll
    "USBGF 4.1.7.1",  # a refusal with no early roll
    "USBGF 4.4.7",  # an early double before Ann has rolled
]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'premature.db'}"


def run(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def test_the_scenario_records_every_premature_action_and_refuses_the_rest(db: str) -> None:
    recorded, state = record_scenario(db, "premature-actions.txt")
    assert recorded.exit_code == 1  # the refused lines
    complaints = [line for line in recorded.stderr.splitlines() if line.startswith("line ")]
    assert len(complaints) == len(REFUSED)
    for complaint, rule in zip(complaints, REFUSED, strict=True):
        assert rule in complaint, complaint
    # Game 1: Bob's redouble to 4 dropped: Bob wins 2.  Game 2 stops after Ann's 6-3.
    assert state["score"] == {"a": 0, "b": 2}
    assert [(g["winner"], g["cube"], g["points"], g["how"]) for g in state["games"]] == [
        ("b", 2, 2, "drop")
    ]
    assert (state["game"], state["turn"], state["phase"], state["premature"]) == (
        2,
        "b",
        "roll",
        None,
    )
    kinds = [e["kind"] for e in json.loads(run(db, "history", "m", "--json").stdout)["events"]]
    assert kinds.count("PrematureRollMade") == 3
    assert kinds.count("PrematureRollAccepted") == 2
    assert kinds.count("PrematureRollRefused") == 1
    assert kinds.count("PrematureDoubleMade") == 2


def test_cli_exit_codes(db: str) -> None:
    assert run(db, "start", "--id", "m", "--a", "Ann", "--b", "Bob", "--length", "5").exit_code == 0
    assert run(db, "opening", "m", "3", "1").exit_code == 0
    assert run(db, "move", "m", "8/5 6/5").exit_code == 0
    early = run(db, "roll", "m", "5", "2", "--premature")
    assert early.exit_code == 1 and "USBGF 4.1.7.1" in early.stderr  # Bob has not rolled
    assert run(db, "roll", "m", "6", "4").exit_code == 0
    assert run(db, "roll", "m", "7", "2", "--premature").exit_code == 2  # no such die
    shown = run(db, "roll", "m", "5", "2", "--premature", "--json")
    assert shown.exit_code == 0
    document = json.loads(shown.stdout)
    assert document["premature"] == {"kind": "roll", "player": "a", "dice": [5, 2]}
    assert (document["phase"], document["to_act"], document["recorded"]) == (
        "premature-roll",
        "b",
        [6],
    )
    moved = run(db, "move", "m", "24/18 13/9")
    assert moved.exit_code == 1 and "USBGF 4.1.7.1" in moved.stderr
    assert run(db, "accept-roll", "m").exit_code == 0
    assert run(db, "refuse-roll", "m").exit_code == 1  # decided already
    assert run(db, "move", "m", "24/18 13/9").exit_code == 0
    state = json.loads(run(db, "show", "m", "--json").stdout)
    assert (state["turn"], state["dice"], state["phase"]) == ("a", [5, 2], "play")
    assert run(db, "move", "m", "13/8 13/11").exit_code == 0
    assert run(db, "roll", "m", "4", "2").exit_code == 0
    assert run(db, "double", "m", "--premature", "--to", "4").exit_code == 1  # USBGF 4.4.8
    flagged = run(db, "double", "m", "--premature", "--to", "4", "--as-played")
    assert flagged.exit_code == 0 and re.search(r"^\s+\d+ ! .*doubled", flagged.stdout, re.M)


def test_cli_refuse_roll_where_rolls_stand(db: str) -> None:
    start = ("start", "--id", "m", "--a", "Ann", "--b", "Bob", "--length", "5")
    assert run(db, *start, "--profile", "usbgf-2017").exit_code == 0
    for args in (("opening", "m", "3", "1"), ("move", "m", "8/5 6/5"), ("roll", "m", "6", "4")):
        assert run(db, *args).exit_code == 0
    shown = json.loads(run(db, "roll", "m", "5", "2", "--premature", "--json").stdout)
    assert shown["recorded"] == [6, 7] and shown["phase"] == "play"
    refused = run(db, "refuse-roll", "m")
    assert refused.exit_code == 1 and "ABT 4.6" in refused.stderr
    assert run(db, "accept-roll", "m").exit_code == 1  # nothing awaits a decision
    assert run(db, "move", "m", "24/18 13/9").exit_code == 0


# -- interchange: JSON and .mat -------------------------------------------------------------------


def test_a_match_with_premature_actions_round_trips_through_json() -> None:
    match = new_match("usbgf-2017", 5, *BOB_TO_MOVE, "roll 5 2 --premature; move 24/18 13/9")
    play(match, "move 13/8 13/11; roll 4 2; double --premature; move 8/4 6/4; take")
    events = match.collect_events()
    document = export_json(events)
    with MatchStore("sqlite:///:memory:") as ledger:
        imported = import_json(ledger, read_json(json.dumps(document), name="p.json"), by="lee")
        copied = ledger.history(imported)[:-1]  # then the import's record (CopyImported)
        assert ledger.state(imported, at=len(copied)) == match.state
        assert export_json(copied) == document


def test_json_import_re_decides_premature_events() -> None:
    match = new_match("usbgf-2017", 5, *BOB_TO_MOVE, "roll 5 2 --premature")
    document = export_json(match.collect_events())
    accepted = document["events"][-1]
    assert accepted["type"] == "PrematureRollAccepted"
    accepted["type"] = "PrematureRollRefused"  # no Fast Roll Rule under ABT 4.6
    fields = (accepted[k] for k in ("number", "type", "at", "recorded_by", "fields"))
    accepted["hash"] = content_hash(*fields)  # a careful forger's last step
    with MatchStore("sqlite:///:memory:") as ledger, pytest.raises(InconsistentMatchJsonError):
        import_json(ledger, read_json(json.dumps(document), name="p.json"), by="lee")


# The scenario as it would have gone without anything done early: the same games, rolls and
# cube actions, in turn.
IN_TURN = (
    "opening 3 1; move 8/5 6/5; 64: 24/18 13/9; 52: 13/8 13/11; 42: 8/4 6/4; 31: 13/10 11/10",
    "53: 8/3 6/3; double; take; 62: 24/18 13/11; double; drop",
)


def _dance_game_lines() -> list[str]:
    """Game 2 of the scenario up to Ann's 5-4, read from the transcript itself."""
    text = (SCENARIOS / "premature-actions.txt").read_text()
    game = text.split("# game 2", 1)[1].split("roll 5 4", 1)[0]
    return [line for line in game.splitlines() if "refused" not in line]


def _scenario_events() -> list[ev.MatchEvent]:
    text = (SCENARIOS / "premature-actions.txt").read_text()
    match = new_match("usbgf-2016", 5)
    for line in text.splitlines():
        if line.split("#", 1)[0].strip() and "# refused" not in line:
            parse(line).run(match, "kim")
    return match.collect_events()


def _in_turn_events() -> list[ev.MatchEvent]:
    match = new_match("usbgf-2016", 5, *IN_TURN, *_dance_game_lines())
    play(match, "54: 8/4* 6/1*; 32:; 63: 24/18* 6/3")
    return match.collect_events()


def test_the_mat_export_writes_the_match_as_it_went() -> None:
    early, in_turn = _scenario_events(), _in_turn_events()
    text = export_mat(early)
    assert text == export_mat(in_turn)
    game_1 = text.split(" Game 1\n", 1)[1].split(" Game 2\n", 1)[0].splitlines()
    assert [re.sub(r"\s+", " ", line).strip() for line in game_1[1:7]] == [
        "1) 31: 8/5 6/5 64: 24/18 13/9",
        "2) 52: 13/11 13/8 42: 8/4 6/4",  # Ann's accepted early 5-2; not her refused 6-6
        "3) 31: 13/10 11/10 53: 8/3 6/3",
        "4) Doubles => 2 Takes",  # Ann's early double, at the start of her turn
        "5) 62: 24/18 13/11 Doubles => 4",
        "6) Drops Wins 2 points",
    ]
    assert "32: \n" in text  # Bob's accepted 3-2 that could not enter


needs_gnubg = pytest.mark.skipif(
    debian_gnubg() is None, reason="Debian's gnubg is not installed (apt-get install gnubg)"
)


@needs_gnubg
def test_gnubg_reads_the_exported_match_as_it_went(tmp_path: Path) -> None:
    path = tmp_path / "premature.mat"
    path.write_text(export_mat(_scenario_events()))
    (reading,) = gnubg_matches([path])
    assert reading["messages"] == []
    expected = list(expected_gnubg_games(_in_turn_events()))
    found: list[Any] = []
    for game, (_, wanted) in zip(reading["match"]["games"], expected, strict=True):
        plays = [action[4] for action in wanted if action[0] == "move"]
        found.append(gnubg_game_terms(game, plays))
    assert found == expected


def test_a_premature_double_in_the_crawford_game_can_be_voided() -> None:
    """USBGF 4.4.6.1 applies to a Crawford double made early (4.4.7) as to any other."""
    from bgledger.commands.rulings import Ruling

    ledger = MatchStore("sqlite:///:memory:")
    ledger.start(("Ann", "Bob"), 3, match_id="p", by="kim")
    lines = [
        *("opening 3 1", "move 8/5 6/5", "double", "drop"),  # Bob doubles, Ann passes: 0-1
        *("opening 1 3", "move 8/5 6/5", "double", "drop"),  # Ann doubles, Bob passes: 1-1
        *("opening 3 1", "move 8/5 6/5", "double", "drop"),  # Bob doubles, Ann passes: 1-2
        "opening 3 1",  # game 4, the Crawford game: Ann to play 3-1
        "double --premature --as-played",  # Bob turns the cube early, in the Crawford game
        "move 8/5 6/5",
        "take",
    ]
    for line in lines:
        ledger.act("p", lambda m, line=line: parse(line).run(m, "kim"))
    assert ledger.state("p").cube == 2 and ledger.state("p").crawford.value == "crawford"
    early = next(e for e in ledger.history("p") if isinstance(e, ev.PrematureDoubleMade))
    assert not early.legal and early.rule == "USBGF 4.4.6"
    given = Ruling("director", "no cube in the Crawford game", by="tom")
    number = early.originator_version
    ledger.rule("p", lambda m, h: m.void_cube(h, number, given))
    state = ledger.state("p")
    assert (state.cube, state.cube_owner, state.turn, state.phase) == (1, None, "b", Phase.ROLL)
