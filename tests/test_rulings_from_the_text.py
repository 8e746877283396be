"""Rulings written from the rule text (USBGF 2016 4.2.4, 4.2.6, 4.4.6.2, 4.4.10, 4.5), end to end.

Each test tells a story at the board, records it through the command line as
a scorekeeper and a director would, and checks what the rule says must
follow.  Clock figures are worked out by hand from the lines' times (simple
delay, USBGF 3.5.5: a turn costs ``max(0, used - 12 s)``), never read back
from the ledger.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from bgledger.cli.main import main
from bgledger.commands.rulings import Ruling
from bgledger.commands.vocabulary import parse
from bgledger.events import ClockRestored, ConcessionVoided, StartingPositionCorrected
from bgledger.interchange.json_stream import export_json, import_json, read_json
from bgledger.projections.state.clock import at_ms, figures
from bgledger.store.application import MatchStore
from tests.conftest import board

DAY = "2026-11-21T"


def run(db: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--db", db, *args], input=stdin)


def record(db: str, *lines: str) -> Result:
    """Record ``lines`` into match ``m``; each ``HH:MM:SS line`` is timed that day."""
    timed = []
    for line in lines:
        clock, _, action = line.partition(" ")
        timed.append(f"@{DAY}{clock}+00:00 {action}" if clock[:1].isdigit() else line)
    done = run(db, "record", "m", stdin="\n".join(timed) + "\n")
    assert done.exit_code == 0, done.output
    return done


def shown(db: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(run(db, "show", "m", "--json").stdout)
    return document


def round_trips(db: str) -> None:
    """The match's JSON copy imports (every event decided again) to the same match."""
    with MatchStore(db) as ledger:
        events, state = ledger.history("m"), ledger.state("m")
    document = read_json(json.dumps(export_json(events)), name="m.json")
    with MatchStore("sqlite:///:memory:") as copy:
        assert import_json(copy, document, match_id="c", by="kim") == "c"
        again = copy.state("c")
    assert (again.score, again.board, again.turn, again.timer) == (
        state.score, state.board, state.turn, state.timer,
    )  # fmt: skip


def rule(db: str, *args: str, at: str | None = None) -> Result:
    when = ("--at", f"{DAY}{at}+00:00") if at else ()
    return run(db, *args, "--ruled-by", "director", "--reason", "see the rule", *when)


# -- USBGF 4.4.6.2: the Crawford game resumes with the reserves of the double's moment -------

CRAWFORD_PASS = (
    # game 1: Bob (b) wins the opening 1-3; Ann's lower die starts Bob's time (CLOCK 3.3)
    "10:01:00 opening 1 3",
    "10:01:12 move 8/5 6/5",  # Bob 12 s: within the delay, 10:00
    "10:01:12 hit",
    "10:01:30 double",
    "10:01:32 hit",  # Ann 20 s: 8 s off, 9:52
    "10:01:40 drop",  # Ann wins 1: 1-0 of 2, the next game is the Crawford game
    # game 2, the Crawford game: Ann wins the opening 3-1; Bob's lower die starts her time
    "10:02:00 opening 3 1",
    "10:02:20 move 8/5 6/5",
    "10:02:20 hit",  # Ann 20 s: 8 s off, 9:44
    "10:03:00 double --as-played",  # event 17: Bob doubles 40 s into his turn: he shows 9:32
    "10:03:02 hit",  # Bob 42 s: 30 s off, 9:30; Ann considers on her time (USBGF 4.4.3)
    "10:05:02 drop",  # Ann, the leader, passes after 2:00: 1:48 off, 7:56; Bob wins 1
)


def test_a_nullified_pass_resumes_with_the_reserves_that_existed_at_the_double(
    tmp_path: Path,
) -> None:
    """USBGF 4.4.6.2: "If a Crawford game double is passed by the player leading in the match,
    then the pass will be nullified if detected at any time prior to the start of the next
    game. ... the Crawford game will resume based on the checker position and game clock
    reserve times that existed when the improper double was made".

    When Bob doubled, Ann showed 9:44 and Bob 9:32, 40 s into his turn (12 s delay), and his
    time was running: he had not ended his turn (USBGF 4.1.8.1: a turn ends with the hit, and
    the double it ended with is void).  So the game resumes with Ann at 9:44 (the 2:00 she
    spent on the void double given back), and Bob's turn goes on from the ruling with 40 s
    of it used: ten seconds after the ruling he shows 10:00 - (50 - 12) s = 9:22.
    """
    db = f"sqlite:///{tmp_path / 'crawford.db'}"
    started = run(
        db, "start", "--a", "Ann", "--b", "Bob", "--length", "2", "--id", "m",
        "--clock", "simple-delay", "--reserve", "10:00", "--delay", "12",
        "--at", f"{DAY}10:00:00+00:00",
    )  # fmt: skip
    assert started.exit_code == 0, started.output
    record(db, *CRAWFORD_PASS)
    passed = shown(db)
    assert passed["score"] == {"a": 1, "b": 1}
    assert passed["clock"]["reserve_ms"] == {"a": 476_000, "b": 570_000}  # 7:56, 9:30
    nullified = rule(db, "nullify-pass", "m", "17", at="10:06:00")
    assert nullified.exit_code == 0, nullified.output
    assert "Ann 9:44, Bob 9:32; Bob's time runs" in nullified.output
    state = shown(db)
    assert state["score"] == {"a": 1, "b": 0} and state["crawford"] == "crawford"
    assert state["turn"] == "b" and state["clock"]["running"] == "b"
    assert state["clock"]["reserve_ms"] == {"a": 584_000, "b": 572_000}  # 9:44, 9:32
    record(db, "10:06:10 roll 6 5", "10:06:10 move 24/13", "10:06:10 hit")
    # Bob's turn: 40 s before the double, 10 s after the ruling: 50 - 12 = 38 s off 10:00.
    assert shown(db)["clock"]["reserve_ms"] == {"a": 584_000, "b": 562_000}
    with MatchStore(db) as ledger:
        restored = [e for e in ledger.history("m") if isinstance(e, ClockRestored)]
    facts = [(e.event, e.player, e.running, e.used_ms, e.turn_delay_ms) for e in restored]
    assert facts == [(17, "b", True, 40_000, 12_000)]
    round_trips(db)


# -- USBGF 4.5, 4.2.6: a concession in a contact position is invalid and unenforceable --------

CONTACT_CONCESSION = (
    "opening 3 1",  # 2, 3: Ann plays first
    "move 8/5 6/5",  # 4
    "roll 6 4",  # 5: Bob
    "move 24/18 13/9",  # 6
    "resign gammon --as-played",  # 7: Ann concedes a gammon with every checker in contact
    "accept",  # 8, 9 (GameWon: Bob 2)
)


def test_a_concession_in_a_contact_position_is_voided_and_the_game_resumes(
    tmp_path: Path,
) -> None:
    """USBGF 4.5: "All moves, games and matches must be played to completion unless brought
    to an end either by the pass of a valid double, the expiration of a player's game clock
    reserve time, or in non-contact positions the concession of a single game, gammon, or
    backgammon. ... Otherwise, the players are not permitted to agree on the outcome of ... a
    game".  USBGF 4.2.6: "Any such agreements shall be considered invalid and unenforceable."

    Ann concedes a gammon in the opening and Bob accepts: 0-2 as recorded.  The director voids
    the concession; the game resumes where Ann conceded: Ann on roll, 0-0.  Once the next game
    has begun it is too late to resume this one.
    """
    db = f"sqlite:///{tmp_path / 'concession.db'}"
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m").exit_code == 0
    record(db, *CONTACT_CONCESSION)
    assert shown(db)["score"] == {"a": 0, "b": 2}
    conceded = shown(db)["board"]
    wrong = rule(db, "void-concession", "m", "6")
    assert wrong.exit_code == 2 and "not a concession" in wrong.output
    voided = rule(db, "void-concession", "m", "7")
    assert voided.exit_code == 0, voided.output
    assert "Ann's concession of a gammon (event 7) and its acceptance are void" in voided.output
    state = shown(db)
    assert state["score"] == {"a": 0, "b": 0} and state["turn"] == "a" and state["game"] == 1
    with MatchStore(db) as ledger:
        ruling = ledger.history("m")[-1]
        assert isinstance(ruling, ConcessionVoided)
        assert (ruling.event, ruling.voids, ruling.rule) == (7, [7, 8, 9], "USBGF 4.5")
        before = ledger.state("m", at=6)
    assert state["board"] == conceded and before.turn == "a"
    record(db, "roll 5 2", "move 13/11 13/8")  # the game goes on
    assert "void" in run(db, "history", "m").stdout
    again = rule(db, "void-concession", "m", "7")
    assert again.exit_code == 1 and "already void" in again.output
    round_trips(db)


def test_a_concession_voided_too_late_or_one_the_rules_allow_is_refused(tmp_path: Path) -> None:
    """USBGF 4.5 sets no time for it; the ledger resumes the game only while no later game has
    begun (the limit of USBGF 4.4.6.2 that 4.5 cites for a match ended on a pass).  A
    concession the profile allows (the ``online`` profile: any position) stands."""
    db = f"sqlite:///{tmp_path / 'late.db'}"
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m").exit_code == 0
    record(db, *CONTACT_CONCESSION, "opening 6 5")  # game 2 begins at event 10
    late = rule(db, "void-concession", "m", "7")
    assert late.exit_code == 1, late.output
    assert "game 2 began at event 10 closed it" in late.output and "(USBGF 4.5)" in late.output
    online = f"sqlite:///{tmp_path / 'online.db'}"
    started = run(online, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m",
                  "--profile", "online")  # fmt: skip
    assert started.exit_code == 0
    record(online, *CONTACT_CONCESSION[:-2], "resign gammon", "accept")
    allowed = rule(online, "void-concession", "m", "7")
    assert allowed.exit_code == 1 and "was allowed: it stands" in allowed.output


def test_under_abt_a_contact_concession_is_voided_under_abt_4_9(tmp_path: Path) -> None:
    """ABT 4.9: "Each game must be rolled to completion unless ended by passing a double or
    redouble, or conceding a no-contact position. No individual game or match may be
    canceled, replayed, or settled."  Under ``usbgf-2017`` the concession is flagged and
    voided under ABT 4.9."""
    db = f"sqlite:///{tmp_path / 'abt.db'}"
    started = run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m",
                  "--profile", "usbgf-2017")  # fmt: skip
    assert started.exit_code == 0
    record(db, *CONTACT_CONCESSION)
    voided = rule(db, "void-concession", "m", "7")
    assert voided.exit_code == 0, voided.output
    assert "RULING (ABT 4.9, director)" in voided.output
    assert shown(db)["score"] == {"a": 0, "b": 0}


def test_a_concession_that_ended_the_match_is_voided_and_the_match_resumes(
    tmp_path: Path,
) -> None:
    """USBGF 4.5: "Except as provided in section 4.8, below, all matches must be played to
    their designated match length."  A 1-point match ended by a contact concession is not
    over: voided, the match resumes, and no winner is shown."""
    db = f"sqlite:///{tmp_path / 'ended.db'}"
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "1", "--id", "m").exit_code == 0
    record(db, *CONTACT_CONCESSION)
    assert shown(db)["winner"] == "b"
    voided = rule(db, "void-concession", "m", "7")
    assert voided.exit_code == 0, voided.output
    state = shown(db)
    assert (state["winner"], state["score"], state["turn"]) == (None, {"a": 0, "b": 0}, "a")


# -- USBGF 4.2.4: a play the setup error affected means the game is replayed ---------------

BOB_BLOT = board({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 4, 20: 1, 8: 3, 6: 5}).position_id
"""One of Bob's mid-point checkers set up on his 20 point, Ann's 5 point (player a's view)."""


def test_a_hit_on_a_checker_that_should_not_have_been_there_replays_the_game() -> None:
    """USBGF 4.2.4: "An error in starting position noticed before the player not starting the
    game has completed his second turn must be corrected in accordance with the correct
    starting position and the dice rolls that have occurred to that point if neither players'
    moves were affected by the original error.  If, however, either player's moves were
    affected by the original error, then the game must be replayed from the original starting
    position with new dice rolls."

    Bob's checker stands on Ann's 5 point by mistake; Ann's opening 8/5* 6/5 hits it.  On the
    right position the same checkers move but hit nothing: the hit was the error's doing, so
    the play was affected and the game is replayed (it must not stand with the hit gone).
    """
    ledger = MatchStore("sqlite:///:memory:")
    ledger.start(("Ann", "Bob"), 3, match_id="s", by="kim")
    ledger.act("s", lambda m: m.record_setup(BOB_BLOT, by="kim"))  # 2 GameStarted, 3 the setup
    ledger.act("s", lambda m: m.opening(3, 1, by="kim"))  # 4
    ledger.act("s", lambda m: m.move("8/5* 6/5", by="kim"))  # 5
    assert ledger.state("s").board[1][25] == 1  # Bob's checker is on the bar
    ruling = Ruling("director", "a checker of Bob's stood on Ann's 5 point", by="tom")
    ledger.rule("s", lambda m, h: m.correct_setup(h, 3, ruling))
    made = ledger.history("s")[-1]
    assert isinstance(made, StartingPositionCorrected) and made.replayed
    assert made.voids == [3, 4, 5]
    state = ledger.state("s")
    assert state.phase.value == "opening" and state.board[1][25] == 0


# -- the status line after a voided opening roll or a setup ---------------------------------


def test_the_status_line_says_a_tie_only_after_a_tie(tmp_path: Path) -> None:
    """USBGF 4.1.4 (a voided roll is rolled again) and 4.2.4 (a setup): neither is a tie, and
    the line under the board must not say the opening roll tied."""
    db = f"sqlite:///{tmp_path / 'status.db'}"
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m").exit_code == 0
    voided = record(db, "opening 3 1", "void-roll cocked")
    last = voided.output.strip().splitlines()[-1]
    assert "tied" not in last and "game 1 has begun: its opening roll is next" in last
    set_up = run(db, "setup", "m", BOB_BLOT)
    assert set_up.exit_code == 0, set_up.output
    status = run(db, "show", "m").stdout
    assert "tied" not in status
    assert "game 1 has begun from a position set up by hand: its opening roll is next" in status


# -- USBGF 4.4.10: beavers and automatic doubles, recorded as played, then voided ------------


def test_a_beaver_made_at_the_board_is_recorded_as_played_and_voided(tmp_path: Path) -> None:
    """USBGF 4.4.10: "Additional doubling rules that sometimes apply in the context of social
    backgammon play (including but not limited to "automatic doubles," "beavers," and the
    so-called "Jacoby Rule") are not permitted in tournament backgammon and shall be declared
    invalid and remedied within the same allowable time limits and within the same manner as
    doubling during the Crawford Game (see section 4.4.6)."  USBGF 4.4.6.1: "the score adjusted
    as if the cube had never been turned".

    Bob doubles to 2; Ann beavers (takes and at once redoubles to 4, keeping the cube); Ann
    concedes a single later (as played) and the match to 3 looks won by Bob, 0-4.  The beaver
    is void: Ann's take at 2 stands, Bob wins 2 and the match goes on at 0-2 (the match had
    ended on the beavered game: 4.4.6.1's window is then the next match, which the ledger
    cannot see).
    """
    db = f"sqlite:///{tmp_path / 'beaver.db'}"
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m").exit_code == 0
    record(db, "opening 3 1", "move 8/5 6/5", "double")  # 2-3, 4, 5: Bob doubles
    refused = run(db, "beaver", "m")
    assert refused.exit_code == 1
    assert "beaver m --as-played" in refused.output and "(USBGF 4.4.10)" in refused.output
    made = run(db, "beaver", "m", "--as-played")
    assert made.exit_code == 0, made.output  # 6 Ann's take, 7 her beaver
    state = shown(db)
    assert state["cube"] == {"value": 4, "owner": "a", "offered": False} and state["flagged"] == [7]
    assert "ILLEGAL: Ann beavered: redoubled to 4" in run(db, "history", "m").stdout
    record(db, "roll 6 4", "move 24/18 13/9", "resign single --as-played", "accept")  # 8-13
    assert (shown(db)["winner"], shown(db)["score"]) == ("b", {"a": 0, "b": 4})
    passed = rule(db, "nullify-pass", "m", "7")
    assert passed.exit_code == 1 and "void it instead" in passed.output
    voided = rule(db, "void-cube", "m", "7")
    assert voided.exit_code == 0, voided.output
    assert "Ann's beaver to 4 (event 7) is void" in voided.output
    state = shown(db)
    assert (state["winner"], state["score"]) == (None, {"a": 0, "b": 2})
    with MatchStore(db) as ledger:
        ruling = ledger.history("m")[13]
        assert (getattr(ruling, "voids", None), getattr(ruling, "rule", None)) == (
            [7, 13], "USBGF 4.4.10",
        )  # fmt: skip
    round_trips(db)


def test_an_automatic_double_is_recorded_as_played_and_voided(tmp_path: Path) -> None:
    """USBGF 4.4.10 (quoted above): an automatic double on a tied opening roll is invalid and
    remedied as a Crawford-game double: the game is scored "as if the cube had never been
    turned" (4.4.6.1).  The opening ties, the cube is turned to 2 at the board; Bob wins the
    next opening roll, Ann then doubles to 4 and Bob takes; Bob concedes a single: 4-0 as
    recorded.  Voided before the match ends, every cube action of that game counts as if the
    automatic double had not been: Ann's double was to 2, and she wins 2."""
    db = f"sqlite:///{tmp_path / 'automatic.db'}"
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "7", "--id", "m").exit_code == 0
    record(db, "opening 4 4")  # 2, 3
    refused = run(db, "automatic-double", "m")
    assert refused.exit_code == 1 and "(USBGF 4.4.10)" in refused.output
    assert run(db, "automatic-double", "m", "--as-played").exit_code == 0  # 4
    assert shown(db)["cube"] == {"value": 2, "owner": None, "offered": False}
    record(db, "opening 1 3", "move 8/5 6/5", "double", "take")  # 5, 6, 7 (to 4), 8
    record(db, "roll 5 2", "move 13/11 13/8", "resign single b --as-played", "accept")  # 9-13
    assert shown(db)["score"] == {"a": 4, "b": 0}
    voided = rule(db, "void-cube", "m", "4")
    assert voided.exit_code == 0, voided.output
    assert "the automatic double to 2 (event 4) is void" in voided.output
    state = shown(db)
    assert state["score"] == {"a": 2, "b": 0} and state["flagged"] == [11]
    round_trips(db)


def test_where_the_profile_allows_a_beaver_it_stands(tmp_path: Path) -> None:
    """The classic laws (3-11) predate the cube and forbid no beaver: recorded without
    --as-played, not flagged, and no ruling voids it."""
    db = f"sqlite:///{tmp_path / 'classic.db'}"
    started = run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "3", "--id", "m",
                  "--profile", "classic")  # fmt: skip
    assert started.exit_code == 0, started.output
    record(db, "opening 3 1", "play-singles", "move 8/5 6/5", "double", "beaver")
    assert shown(db)["cube"] == {"value": 4, "owner": "a", "offered": False}
    assert shown(db)["flagged"] == []
    refused = rule(db, "void-cube", "m", "8")
    assert refused.exit_code == 1 and "was allowed under classic" in refused.output


@settings(max_examples=25, deadline=None)
@given(
    used=st.integers(0, 300),
    answered=st.integers(1, 600),
    later=st.integers(0, 600),
    after=st.integers(0, 60),
)
def test_any_nullified_pass_gives_back_exactly_the_clock_at_the_double(
    used: int, answered: int, later: int, after: int
) -> None:
    """USBGF 4.4.6.2, for any timing: Bob doubles ``used`` s into his turn, hits, Ann passes
    ``answered`` s later, the director rules ``later`` s after that.  ``after`` s into the
    resumed turn Ann shows 9:44 (as at the double) and Bob 10:00 less his turn's time beyond
    the 12 s delay: ``used + after - 12`` s (simple delay, USBGF 3.5.5)."""
    start = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)

    def at(seconds: float) -> str:
        return (start + timedelta(seconds=seconds)).isoformat()

    with MatchStore("sqlite:///:memory:") as ledger:
        ledger.start(("Ann", "Bob"), 2, match_id="p", by="kim", clock="simple-delay",
                     reserve_ms=600_000, delay_ms=12_000, at=at(0))  # fmt: skip
        for line in CRAWFORD_PASS[:9]:  # up to Ann's hit in the Crawford game, at 10:02:20
            clock, _, action = line.partition(" ")
            ledger.act("p", partial(parse(f"@{DAY}{clock}+00:00 {action}").run, by="kim"))
        doubled = 140 + used
        ledger.act("p", lambda m: m.double(as_played=True, by="kim", at=at(doubled)))  # 17
        ledger.act("p", lambda m: m.hit(by="kim", at=at(doubled)))
        ledger.act("p", lambda m: m.drop(by="kim", at=at(doubled + answered)))
        ruled = doubled + answered + later
        ruling = Ruling("director", "no cube in the Crawford game", by="tom", at=at(ruled))
        ledger.rule("p", lambda m, h: m.nullify_pass(h, 17, ruling))
        timer = ledger.state("p").timer
    assert timer is not None and timer.turn == "b" and timer.running
    now = at_ms(at(ruled + after))
    assert figures(timer, now) == (584_000, 600_000 - 1000 * max(0, used + after - 12))


def test_a_beaver_entered_by_mistake_is_withdrawn_with_its_take(tmp_path: Path) -> None:
    """A beaver is one line (the take and the redouble, at once): ``undo`` withdraws both, and
    the double waits for its answer again (DESIGN principle 9: a recording error is not a
    ruling)."""
    db = f"sqlite:///{tmp_path / 'undo.db'}"
    assert run(db, "start", "--a", "Ann", "--b", "Bob", "--length", "5", "--id", "m").exit_code == 0
    record(db, "opening 3 1", "move 8/5 6/5", "double", "beaver --as-played")
    undone = run(db, "undo", "m", "--reason", "she only took")
    assert undone.exit_code == 0, undone.output
    assert "entry 6 (Ann took: cube at 2" in undone.output
    state = shown(db)
    assert state["cube"] == {"value": 1, "owner": None, "offered": True}
    record(db, "take")
    assert shown(db)["cube"] == {"value": 2, "owner": "a", "offered": False}
