"""Issue 32, breaks 1, 3 and 4: time has two witnesses (DESIGN principle 13).

Each entry keeps the time its recorder gave (``at``; a scorekeeper's is a claim, kept in
``claimed``) and when the ledger received it (the stored event's ``timestamp``).  A late
scorekeeper's line never gives back time that had run out, never decides a flag, a break's
end or a late penalty; a claim before the token's last contact is refused; a claim before
the match's last event is taken at that event's time and flagged, never blocking the lines
after it; an untimed line is never refused for its time.

The match: Ann (a) v Bob (b), 5 points, simple delay of 12 s (USBGF 3.5.5), both clocks
set to 1:00 (60000 ms).  Times are counted in seconds from B, fifteen minutes before the
test runs: the lines "sent 10 minutes late" reach the ledger at about B+900 s.
"""

from __future__ import annotations

import html
import re
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from bgledger import access
from bgledger.commands import decide
from bgledger.errors import InvalidTimeError, PenaltyRefusedError, TimeNotExpiredError
from bgledger.projections.state.clock import at_ms, figures
from bgledger.projections.views.audit import history_line
from bgledger.service import Ledger
from tests.webclient import post

START = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=15)
"""B: the match's start, 15 minutes before each test begins (:func:`_started`): a time taken
when the module is imported would be minutes older by the time a test runs in a long suite."""


@pytest.fixture(autouse=True)
def _started() -> None:
    global START
    START = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=15)


def b(seconds: float) -> str:
    """B plus ``seconds``, as a line's ``@TIME``."""
    return (START + timedelta(seconds=seconds)).isoformat()


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    ledger.start(
        ("Ann", "Bob"), 5, match_id="m", event="Open", by="kim", at=b(0), clock="simple-delay"
    )
    yield ledger
    ledger.close()


def issued_at_start(ledger: Ledger, monkeypatch: pytest.MonkeyPatch, role: str) -> str:
    """A token issued at B (the pad's link, handed out before the match began)."""
    with monkeypatch.context() as patched:
        patched.setattr(access, "_now", lambda: START.isoformat())
        if role == "scorekeeper":
            return ledger.issue_token("scorekeeper", match_id="m", label="Sam")
        return ledger.issue_token("director", event="Open", label="Dora")


def as_token(ledger: Ledger, token: str, line: str) -> None:
    grant = ledger.authorize(token, "m")
    ledger.record_line("m", line, by=grant.label, grant=grant)


def bobs_turn(ledger: Ledger) -> None:
    """Recorded as it happened, at the shell: Ann wins the opening at B+60 and her clock
    starts; she plays and hits at B+70 (10 s, inside the delay: 60000 left); Bob's clock runs
    from B+70 and he rolls 6-4 at B+75.  His 1:00 and 12 s delay run out at B+142."""
    for seconds, line in (
        (1, "clock set a=1:00 b=1:00 a short clock for the test"),
        (60, "opening 3 1"),
        (70, "move 8/5 6/5"),
        (70, "hit"),
        (75, "roll 6 4"),
    ):
        ledger.record_line("m", f"@{b(seconds)} {line}", by="kim")


# -- break 1: a scorekeeper's token rewrites time -------------------------------------------


def test_a_late_move_and_hit_give_back_no_time_that_had_run_out(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    sam = issued_at_start(ledger, monkeypatch, "scorekeeper")
    dora = issued_at_start(ledger, monkeypatch, "director")
    bobs_turn(ledger)
    # ten minutes late, stamped 20 s into Bob's turn (B+90): recorded, at the received time
    as_token(ledger, sam, f"@{b(90)} move 13/7 13/9")
    as_token(ledger, sam, f"@{b(90)} hit")
    events = ledger.events("m")
    move, hit = events[-2], events[-1]
    assert (move.claimed, hit.claimed) == (b(90), b(90))
    assert at_ms(hit.at) >= at_ms(b(900))  # taken when the ledger received it
    timer = ledger.state("m").timer
    assert timer is not None
    # Bob's turn B+70 to about B+900: far past 1:00 + 12 s, so 0 ms; Ann's 60000 untouched,
    # and her time runs from the received hit (not from B+90: it would have run out at B+162)
    assert figures(timer, at_ms(hit.at)) == (60_000, 0)
    with pytest.raises(TimeNotExpiredError, match="1:00 left"):
        as_token(ledger, sam, "flag a")  # the scorekeeper's flag of Ann is refused
    as_token(ledger, dora, "flag b")  # the director's flag of Bob stands: Ann wins on time
    assert ledger.state("m").winner == "a"
    text = "\n".join(history_line(entry) for entry in ledger.history("m"))
    assert "entered 13 min after" in text or "entered 14 min after" in text
    (verdict,) = ledger.verify("m")  # listed by verify, not a fault: the chain holds
    assert verdict.ok and verdict.marked == (move.originator_version, hit.originator_version)
    assert f"entered late or not at the time claimed (see history): {verdict.marked[0]}, " in (
        verdict.text()
    )
    # the match's JSON copy keeps the claims: imported elsewhere, the same marks and clocks
    copy = Path(tempfile.mkdtemp()) / "m.json"
    copy.write_text(ledger.export("m", "json"), encoding="utf-8")
    assert f'"claimed": "{b(90)}"' in copy.read_text(encoding="utf-8")
    elsewhere = Ledger(f"sqlite:///{copy.parent / 'elsewhere.db'}")
    try:
        elsewhere.import_file(copy)
        assert [e.claimed for e in elsewhere.events("m")[-5:-3]] == [b(90), b(90)]
        again = "\n".join(history_line(entry) for entry in elsewhere.history("m"))
        assert again.count("entered 1") == text.count("entered 1") == 2
        assert elsewhere.state("m").winner == "a"
    finally:
        elsewhere.close()


def test_a_break_end_backdated_into_the_break_costs_its_penalty_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An 11-point match begun at S, 38 minutes before the test; Ann takes a 5-minute break
    # at S (it ends at S+5:00).  The scorekeeper sends "break end" stamped S+4:00, four
    # minutes into it ("ended on time", no point, before the fix); it reaches the ledger at
    # about S+38:00, 33 minutes past the break's end: USBGF 2.2.4, one point at 15 minutes
    # and one for each further five (20, 25, 30): 4 points, which Bob scores.
    began = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=38)
    ledger = Ledger(f"sqlite:///{tmp_path / 'breaks.db'}")
    ledger.start(("Ann", "Bob"), 11, match_id="m", event="Open", by="kim", at=began.isoformat())
    with monkeypatch.context() as patched:
        patched.setattr(access, "_now", lambda: began.isoformat())
        sam = ledger.issue_token("scorekeeper", match_id="m", label="Sam")
    ledger.record_line("m", f"@{began.isoformat()} break start a", by="kim")
    four = (began + timedelta(minutes=4)).isoformat()
    with pytest.raises(PenaltyRefusedError, match="name the player who returned late"):
        as_token(ledger, sam, f"@{four} break end")
    as_token(ledger, sam, f"@{four} break end late a")
    state = ledger.state("m")
    assert state.score == (0, 4)
    assert state.breaks.open is None
    ended = ledger.events("m")[-2]
    assert ended.claimed == four
    ledger.close()


# -- the bound: a claim never earlier than the token's last contact ---------------------------


def test_a_claim_before_the_tokens_last_contact_is_refused_naming_both_times(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    sam = issued_at_start(ledger, monkeypatch, "scorekeeper")
    as_token(ledger, sam, f"@{b(300)} note the pad is on")  # its last contact: B+300
    count = len(ledger.events("m"))
    with pytest.raises(InvalidTimeError) as refused:
        as_token(ledger, sam, f"@{b(200)} note rewritten")
    assert b(200) in str(refused.value)
    assert (START + timedelta(seconds=300)).strftime("%H:%M:%S") in str(refused.value)
    assert len(ledger.events("m")) == count  # nothing recorded
    # a few seconds of skew are tolerated (FUTURE_TOLERANCE)
    as_token(ledger, sam, f"@{b(297)} note two devices a little apart")
    assert len(ledger.events("m")) == count + 1


def test_a_claim_before_the_token_was_issued_is_refused(ledger: Ledger) -> None:
    sam = ledger.issue_token("scorekeeper", match_id="m", label="Sam")  # issued now, B+900
    with pytest.raises(InvalidTimeError, match="before this token's last contact"):
        as_token(ledger, sam, f"@{b(600)} note before the pad had its link")


def test_taps_made_offline_after_the_last_contact_still_stand(
    ledger: Ledger, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sam = issued_at_start(ledger, monkeypatch, "scorekeeper")
    # through the web app, as the pad's queue posts them
    assert post(client, "m", f"@{b(830)} opening 3 1", sam).status_code == 201
    # last contact: B+830, then offline; tapped at B+840 and B+845 while the network was
    # down, sent together at about B+900
    for line in (f"@{b(840)} move 8/5 6/5", f"@{b(845)} hit"):
        answer = post(client, "m", line, sam)
        assert answer.status_code == 201, answer.text
    events = ledger.events("m")
    assert [e.at for e in events[-2:]] == [b(840), b(845)]  # the claims stand
    timer = ledger.state("m").timer
    assert timer is not None
    # Ann's turn B+830 to B+845: 15 s, 3 past the 12 s delay: 597000 ms of her 10:00
    assert timer.reserve_ms == (597_000, 600_000)
    lines = [history_line(entry) for entry in ledger.history("m")]
    assert not any("claimed" in line for line in lines)  # within the window: unmarked


# -- break 4: a phone whose clock stepped back while offline ----------------------------------


def test_a_queued_tap_before_the_matchs_last_event_is_taken_at_its_time_and_marked(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    sam = issued_at_start(ledger, monkeypatch, "scorekeeper")
    as_token(ledger, sam, f"@{b(800)} opening 3 1")  # the pad's last contact: B+800
    ledger.record_line("m", f"@{b(830)} note the director passed by", by="kim")
    ledger.record_line("m", f"@{b(840)} clock stop dispute", by="kim")
    # the phone's clock stepped back 30 s while offline: its tap says B+820, before B+840
    as_token(ledger, sam, f"@{b(820)} move 8/5 6/5")
    moved = ledger.events("m")[-1]
    assert (moved.at, moved.claimed) == (b(840), b(820))
    # ... and the queue goes on: the next tap stands as it claims
    as_token(ledger, sam, f"@{b(845)} note next")
    line = history_line(ledger.history("m")[-2])
    claim = (START + timedelta(seconds=820)).strftime("%H:%M:%S")
    assert "taken at the match's last event" in line and claim in line


# -- break 3: a server clock stepped forward and corrected ------------------------------------


class _Ahead(datetime):
    """This machine's clock, an hour fast."""

    @classmethod
    def now(cls, tz: object = None) -> _Ahead:  # type: ignore[override]
        real = datetime.now(UTC) + timedelta(hours=1)
        return cls.fromtimestamp(real.timestamp(), UTC)


def test_a_server_clock_stepped_forward_and_corrected_freezes_no_match(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    sam = issued_at_start(ledger, monkeypatch, "scorekeeper")
    dora = issued_at_start(ledger, monkeypatch, "director")
    ledger.record_line("m", f"@{b(800)} note the clock is on (10:00 each)", by="kim")
    with monkeypatch.context() as stepped:
        stepped.setattr(decide, "datetime", _Ahead)
        ledger.record_line("m", "opening 3 1", by="kim")  # stamped an hour ahead
    ahead = datetime.fromisoformat(ledger.events("m")[-1].at)
    assert ahead > datetime.now(UTC) + timedelta(minutes=59)
    # the clock corrected: an untimed line, the pad's timed tap and the director's clock set
    ledger.record_line("m", "move 8/5 6/5", by="kim")  # untimed: never refused for its time
    as_token(ledger, sam, f"@{b(900)} hit")
    as_token(ledger, dora, f"@{b(900)} clock set a=9:00 b=9:00 the clock was an hour fast")
    events = ledger.events("m")
    assert [datetime.fromisoformat(e.at) for e in events[-3:]] == [ahead] * 3
    assert [e.claimed for e in events[-2:]] == [b(900), b(900)]
    timer = ledger.state("m").timer
    assert timer is not None and timer.reserve_ms == (540_000, 540_000)


# -- through the web app: the pad's posts, and the director's console -------------------------


def test_a_backdated_move_posted_by_a_pad_is_taken_when_received_and_shown_to_the_director(
    ledger: Ledger, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sam = issued_at_start(ledger, monkeypatch, "scorekeeper")
    dora = issued_at_start(ledger, monkeypatch, "director")
    bobs_turn(ledger)
    for line in ("move 13/7 13/9", "hit"):
        answer = post(client, "m", f"@{b(90)} {line}", sam)
        assert answer.status_code == 201, answer.text
    answer = post(client, "m", f"@{b(90)} flag a", sam)  # Ann's time started when received
    assert answer.status_code == 409, answer.text
    assert "time has not expired" in answer.json()["error"]
    numbers = [e.originator_version for e in ledger.events("m")[-2:]]
    page = client.get("/events/Open/director/live").text
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    assert f"entered late or not at the time claimed: events {numbers[0]}-{numbers[1]}" in text
    assert post(client, "m", "flag b", dora).status_code == 201  # the director's flag stands
    assert ledger.state("m").winner == "a"


# -- a property: nothing changes for an honest, prompt pad ------------------------------------

GAME = ("opening 3 1", "move 8/5 6/5", "hit", "roll 6 4", "move 24/18 13/9", "hit", "roll 5 2")
"""A clocked game's lines, as a pad sends them (each legal where it comes)."""


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gaps=st.lists(st.integers(0, 15_000), min_size=len(GAME), max_size=len(GAME)))
def test_lines_that_arrive_on_time_fold_exactly_as_the_shell_records_them(
    gaps: list[int],
) -> None:
    """A pad's lines, each reaching the ledger within the offline window of its time and
    before any reserve or break runs out, are taken at their claims, unmarked: the match is
    the one the same lines at the same times make at the shell."""
    with tempfile.TemporaryDirectory() as folder:
        ledger = Ledger(f"sqlite:///{folder}/ledger.db")
        began = datetime.now(UTC) - timedelta(milliseconds=sum(gaps) + 1000)
        for match_id in ("pad", "shell"):
            ledger.start(("Ann", "Bob"), 5, match_id=match_id, by="kim", at=began.isoformat(),
                         clock="simple-delay")  # fmt: skip
        with pytest.MonkeyPatch.context() as patched:
            patched.setattr(access, "_now", lambda: began.isoformat())
            sam = ledger.issue_token("scorekeeper", match_id="pad", label="Sam")
        grant = ledger.authorize(sam, "pad")
        when = began
        for gap, line in zip(gaps, GAME, strict=True):
            when += timedelta(milliseconds=gap)
            ledger.record_line("pad", f"@{when.isoformat()} {line}", by="Sam", grant=grant)
            ledger.record_line("shell", f"@{when.isoformat()} {line}", by="Sam")
        pad, shell = ledger.state("pad"), ledger.state("shell")
        assert [e.at for e in ledger.events("pad")] == [e.at for e in ledger.events("shell")]
        assert pad.timer == shell.timer and pad.score == shell.score
        assert pad.time_marks == () and all(v.marked == () for v in ledger.verify("pad"))
        ledger.close()
