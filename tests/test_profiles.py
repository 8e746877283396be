"""Rulebook profiles, checked against the rule texts a director would hold.

The rule texts live outside the repository, in ``../shared/rules/`` (the repo
root's parent).  Tests that read them are skipped when that folder is absent.
Every expected value below is written out by hand from the rule texts.
"""

from __future__ import annotations

import dataclasses
import json
import re
from functools import cache
from pathlib import Path

import pytest

from bgledger.rules.errors import RulesError
from bgledger.rules.profiles import (
    DEFAULT_PROFILE,
    PROFILES,
    Citation,
    ClockKind,
    Decision,
    Decisions,
    ForgottenHit,
    Party,
    PrematureRoll,
    Profile,
    Remedy,
    Subject,
    UnknownProfileError,
    Window,
    get_profile,
)

RULES_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "rules"
needs_rules = pytest.mark.skipif(
    not RULES_DIR.is_dir(), reason=f"rule texts not found at {RULES_DIR} (../shared is missing)"
)

_BOOKS: dict[str, tuple[str, str | None]] = {
    "USBGF": ("usbgf-tournament-rules-2016.txt", r"#{1,6}\s*\**(\d+(?:\.\d+)*)\b"),
    "ABT": ("abt-2017-procedural-rules-4.1-4.10.txt", r"(\d+\.\d+) "),
    "CLASSIC": ("classic-laws-of-backgammon-3-11.txt", r"(\d+)\. "),
    "CLOCK": ("us-backgammon-clock-rules-2007-bronstein.txt", r"(?:#+\s*)?(\d+\.\d+)\s"),
    "FAQ": ("usbgf-valid-rolls-faq.txt", None),
}
_PAGE_HEADER = "United States Backgammon Federation Rules October 2016"
_CITATION = re.compile(r"(USBGF|ABT|CLASSIC|CLOCK) ([\d.]+)(?:\(([a-h])\))?|(FAQ)")


def _normal(text: str) -> str:
    """Straight quotes, no markdown emphasis, single spaces."""
    for curly, straight in (("\u2019", "'"), ("\u2018", "'"), ("\u201c", '"'), ("\u201d", '"')):
        text = text.replace(curly, straight)
    return " ".join(text.replace("*", "").split())


@cache
def _sections(book: str) -> dict[str, str]:
    """Section number -> normalised text of that section alone (no subsections)."""
    filename, heading = _BOOKS[book]
    lines = (RULES_DIR / filename).read_text(encoding="utf-8").splitlines()
    if heading is None:
        return {"": _normal("\n".join(lines))}
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        if _PAGE_HEADER in line:
            continue
        match = re.match(heading, line)
        if match:
            current = found.setdefault(match.group(1), [])
        if current is not None:
            current.append(line)
    return {number: _normal("\n".join(body)) for number, body in found.items()}


@cache
def _appendix_b() -> str:
    """The basic rules of play attached to the USBGF rules as Appendix B (its first page)."""
    text = (RULES_DIR / _BOOKS["USBGF"][0]).read_text(encoding="utf-8")
    return _normal(text[text.index("## Rules of Backgammon") :])


def _cited_text(rule: str) -> str:
    """The text of the section (or clause) a citation names; fails if it does not exist."""
    if rule == "USBGF Appendix B":
        return _appendix_b()
    match = _CITATION.fullmatch(rule)
    assert match, f"citation {rule!r} is not in the form 'USBGF 4.2.3(a)'"
    book, number, clause, faq = match.groups()
    if faq:
        return _sections("FAQ")[""]
    sections = _sections(book)
    assert number in sections, f"{rule}: no section {number} in {_BOOKS[book][0]}"
    text = sections[number]
    if clause is None:
        return text
    parts = re.split(r"- \(([a-h])\) ", text)
    clauses = dict(zip(parts[1::2], parts[2::2], strict=True))
    assert clause in clauses, f"{rule}: section {number} has no clause ({clause})"
    return clauses[clause]


def _profiles() -> list[Profile]:
    return list(PROFILES.values())


# --- the texts -----------------------------------------------------------------


@needs_rules
@pytest.mark.parametrize("profile", _profiles(), ids=lambda p: p.name)
def test_every_quote_is_in_the_section_it_cites(profile: Profile) -> None:
    for citation in profile.citations():
        if citation.rule is None:
            continue
        assert _normal(citation.quote) in _cited_text(citation.rule), (
            f"{profile.name}: {citation.rule} does not say {citation.quote!r}"
        )


@pytest.mark.parametrize("profile", _profiles(), ids=lambda p: p.name)
def test_values_the_book_is_silent_on_say_why(profile: Profile) -> None:
    for citation in profile.citations():
        assert citation.rule is not None or (citation.note and not citation.quote)


@needs_rules
def test_the_section_parser_finds_the_sections_cited() -> None:
    assert "four breaks" in _cited_text("USBGF 2.2.2")
    assert "illegal checker play that is unrelated" in _cited_text("USBGF 4.2.3(e)")
    assert "Illegal plays." in _cited_text("ABT 4.8")
    assert "same man" not in _cited_text("CLASSIC 10")
    with pytest.raises(AssertionError):
        _cited_text("USBGF 4.2.9")
    with pytest.raises(AssertionError):
        _cited_text("USBGF 4.2.3(k)")


@needs_rules
def test_break_allotments_are_the_ones_in_usbgf_2_2_2() -> None:
    text = _cited_text("USBGF 2.2.2")
    assert "number of five-minute breaks" in text
    words = {"one": 1, "two": 2, "three": 3, "four": 4}
    bands = re.findall(
        r"In matches (?:of (\d+)(?:-(\d+))? points( or less)?|longer than (\d+) points): "
        r"(one|two|three|four) break",
        text,
    )
    from_text: list[tuple[int, int | None, int]] = []
    for low, high, or_less, longer, count in bands:
        if or_less:
            from_text.append((1, int(low), words[count]))
        elif longer:
            from_text.append((int(longer) + 1, None, words[count]))
        else:
            from_text.append((int(low), int(high), words[count]))
    assert from_text == [(1, 9, 1), (11, 13, 2), (15, 19, 3), (20, None, 4)]
    breaks = get_profile("usbgf-2016").breaks
    assert breaks is not None
    assert [(b.shortest, b.longest, b.breaks) for b in breaks.bands] == from_text


@needs_rules
def test_clock_formulas_read_as_the_texts_say() -> None:
    assert (
        "two (2) minutes per match point, less one (1) minute per point already scored by "
        "either player"
    ) in _cited_text("CLOCK 2.1")
    assert "eighteen (18) minutes of match time at the start of a 9-point match" in (
        _cited_text("USBGF 3.5.5")
    )
    assert "equal to $RA+RB$" in _cited_text("USBGF 3.5.6")


# --- looking profiles up -------------------------------------------------------


def test_the_four_profiles_and_the_default() -> None:
    assert list(PROFILES) == ["usbgf-2016", "usbgf-2017", "classic", "online"]
    assert DEFAULT_PROFILE == "usbgf-2016"
    assert get_profile(DEFAULT_PROFILE) is PROFILES["usbgf-2016"]
    assert all(get_profile(name).name == name for name in PROFILES)
    assert get_profile("usbgf-2017").based_on == "usbgf-2016"
    assert get_profile("online").based_on == "usbgf-2016"


def test_unknown_profile_quotes_the_name_and_lists_the_known_ones() -> None:
    with pytest.raises(UnknownProfileError) as caught:
        get_profile("usbgf-2019")
    message = str(caught.value)
    assert "'usbgf-2019'" in message
    assert "usbgf-2016, usbgf-2017, classic, online" in message
    assert caught.value.known == ("usbgf-2016", "usbgf-2017", "classic", "online")
    assert isinstance(caught.value, RulesError)
    assert isinstance(caught.value, ValueError)


def test_profiles_cannot_be_changed() -> None:
    profile = get_profile("usbgf-2016")
    with pytest.raises(dataclasses.FrozenInstanceError):
        profile.name = "mine"  # type: ignore[misc]
    with pytest.raises(TypeError):
        PROFILES["mine"] = profile  # type: ignore[index]
    assert hash(profile) == hash(get_profile("usbgf-2016"))


def test_malformed_citations_are_refused() -> None:
    with pytest.raises(ValueError, match="bad citation"):
        Citation(rule="USBGF section 4", quote="x")
    with pytest.raises(ValueError, match="bad citation"):
        Citation(rule="USBGF 4.2.3(a)")
    with pytest.raises(ValueError, match="needs a note"):
        Citation(rule=None)


# --- illegal plays ---------------------------------------------------------------


def _windows(name: str, subject: Subject) -> set[Window]:
    return {rule.window.value for rule in get_profile(name).corrections_for(subject)}


def test_usbgf_2016_illegal_play_windows_are_4_2_3_a_d_e_f() -> None:
    assert _windows("usbgf-2016", Subject.ILLEGAL_PLAY) == {
        Window.BEFORE_OPPONENT_ROLLS,
        Window.DIRECTOR_APPROVAL,
    }
    assert _windows("usbgf-2016", Subject.PLAY_UNRELATED_TO_DICE) == {
        Window.BEFORE_OFFENDER_ROLLS_AGAIN,
        Window.DIRECTOR_APPROVAL,
    }
    assert _windows("usbgf-2016", Subject.IMPOSSIBLE_POSITION) == {Window.ANY_TIME}
    first = get_profile("usbgf-2016").corrections_for(Subject.ILLEGAL_PLAY)[0]
    assert first.window.rule == "USBGF 4.2.3(a)"
    assert first.remedy.value is Remedy.SAME_DICE_NEW_LEGAL_PLAY
    assert first.remedy.rule == "USBGF 4.2.3(c)"
    assert first.raised_by.value >= {Party.PLAYER, Party.OPPONENT, Party.DIRECTOR}


def test_usbgf_2017_condones_on_the_opponents_roll_or_cube_and_2016_does_not() -> None:
    assert Window.CONDONED_BY_OPPONENT_ROLL_OR_CUBE in _windows("usbgf-2017", Subject.ILLEGAL_PLAY)
    assert Window.CONDONED_BY_OPPONENT_ROLL_OR_CUBE not in _windows(
        "usbgf-2016", Subject.ILLEGAL_PLAY
    )
    condoned = get_profile("usbgf-2017").corrections_for(Subject.ILLEGAL_PLAY)[0]
    assert condoned.window.rule == "ABT 4.8"
    assert condoned.raised_by.value == {Party.OPPONENT}
    assert get_profile("usbgf-2017").plays.opponent_may_condone.value is True
    assert get_profile("usbgf-2016").plays.opponent_may_condone.value is False
    assert _windows("usbgf-2017", Subject.IMPOSSIBLE_POSITION) == {Window.ANY_TIME}


def test_classic_moves_the_same_checker_before_the_adversary_throws() -> None:
    (rule,) = get_profile("classic").corrections_for(Subject.ILLEGAL_PLAY)
    assert rule.window.value is Window.BEFORE_OPPONENT_ROLLS
    assert rule.window.rule == "CLASSIC 9"
    assert rule.remedy.value is Remedy.SAME_CHECKER
    assert rule.remedy.rule == "CLASSIC 10"
    assert get_profile("classic").plays.touch_move.value is True
    assert get_profile("usbgf-2016").plays.touch_move.value is False


def test_online_has_no_illegal_plays_and_no_clock() -> None:
    online = get_profile("online")
    assert online.plays.illegal_plays_possible.value is False
    assert online.corrections_for(Subject.ILLEGAL_PLAY) == ()
    assert online.corrections_for(Subject.STARTING_POSITION) == ()
    assert online.rolls.void_reasons == ()
    assert online.clocks == ()
    assert online.resignations.non_contact_only.value is False


# --- setup errors, cube, resignations ------------------------------------------


def test_starting_position_windows() -> None:
    assert _windows("usbgf-2016", Subject.STARTING_POSITION) == {
        Window.BEFORE_NON_STARTER_SECOND_TURN_ENDS
    }
    assert _windows("usbgf-2017", Subject.STARTING_POSITION) == {Window.BEFORE_FIFTH_ROLL}
    (rule,) = get_profile("usbgf-2017").corrections_for(Subject.STARTING_POSITION)
    assert rule.window.rule == "ABT 4.7"
    assert rule.remedy.value is Remedy.CORRECT_SETUP
    assert rule.remedy.rule == "USBGF 4.2.4"


def test_crawford_and_invalid_doubles() -> None:
    cube = get_profile("usbgf-2016").cube
    assert cube.crawford.value is True and cube.crawford.rule == "USBGF 4.4.6"
    assert cube.post_crawford_cube.value is True
    assert cube.crawford_double_void.value is True
    assert cube.dead_cube_double_void.rule == "USBGF 4.4.9"
    assert cube.social_doubles_allowed.value is False
    assert cube.social_doubles_allowed.rule == "USBGF 4.4.10"
    assert cube.match_may_end_on_pass.value is False
    assert get_profile("classic").cube.crawford.value is False
    assert _windows("usbgf-2016", Subject.INVALID_DOUBLE_TAKEN) == {Window.BEFORE_MATCH_ENDS}
    assert _windows("usbgf-2016", Subject.INVALID_DOUBLE_PASSED) == {Window.BEFORE_NEXT_GAME_STARTS}
    assert _windows("usbgf-2016", Subject.INVALID_DOUBLE_PASSED_MATCH_ENDED) == {
        Window.BEFORE_NEXT_MATCH_STARTS
    }


def test_resignations_only_in_non_contact_positions_under_usbgf() -> None:
    for name, rule in (("usbgf-2016", "USBGF 4.5"), ("usbgf-2017", "ABT 4.9")):
        resignations = get_profile(name).resignations
        assert resignations.non_contact_only.value is True
        assert resignations.non_contact_only.rule == rule
        assert resignations.levels.value == ("single", "gammon", "backgammon")
    assert get_profile("usbgf-2016").resignations.accept_despite_better_rolls.value is True


def test_every_subject_has_a_rule_under_usbgf_2016() -> None:
    profile = get_profile("usbgf-2016")
    assert [s for s in Subject if not profile.corrections_for(s)] == []


# --- rolls -------------------------------------------------------------------------


def _codes(name: str) -> list[str]:
    return [reason.code for reason in get_profile(name).rolls.void_reasons]


def test_valid_roll_reasons() -> None:
    usbgf = _codes("usbgf-2016")
    assert {"cocked", "wrong-side", "die-on-die", "off-board", "rolled-early"} <= set(usbgf)
    assert get_profile("usbgf-2016").rolls.void_reason("cocked") is not None
    assert get_profile("usbgf-2016").rolls.void_reason("vertical-support") is None
    assert {"vertical-support", "below-checker-tops", "die-on-die"} <= set(_codes("usbgf-2017"))
    assert "rolled-early" not in _codes("usbgf-2017")
    assert get_profile("usbgf-2016").rolls.premature_roll.value is PrematureRoll.OPPONENT_MAY_REFUSE
    assert get_profile("usbgf-2017").rolls.premature_roll.value is PrematureRoll.STANDS
    assert get_profile("usbgf-2016").rolls.come_to_rest_seconds.value == 2
    for name in PROFILES:
        codes = _codes(name)
        assert len(codes) == len(set(codes))
        assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", code) for code in codes)


# --- breaks, lateness, clocks ------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "breaks"),
    [(1, 1), (7, 1), (9, 1), (11, 2), (13, 2), (15, 3), (19, 3), (21, 4), (25, 4)],
)
def test_breaks_per_match_length(length: int, breaks: int) -> None:
    rules = get_profile("usbgf-2016").breaks
    assert rules is not None
    assert rules.minutes_each.value == 5
    assert rules.breaks_for(length) == breaks


def test_lengths_2_2_2_does_not_name_get_the_band_below() -> None:
    rules = get_profile("usbgf-2016").breaks
    assert rules is not None
    # USBGF 2.2.2 names no band for 10 or 14 points: they keep the band below's allotment.
    assert rules.breaks_for(10) == 1
    assert rules.breaks_for(14) == 2
    assert rules.uncovered_lengths.rule == "USBGF 2.2.3"
    assert get_profile("classic").breaks is None


@pytest.mark.parametrize(("late", "points"), [(0, 0), (14, 0), (15, 1), (19, 1), (20, 2), (30, 4)])
def test_lateness_penalty_points(late: int, points: int) -> None:
    lateness = get_profile("usbgf-2016").lateness
    assert lateness is not None
    assert lateness.penalty_points(late) == points


def test_simple_delay_per_usbgf_3_5_5_and_3_5_6() -> None:
    clock = get_profile("usbgf-2016").clock(ClockKind.SIMPLE_DELAY)
    assert clock is not None
    assert clock.reserve_seconds(9, 0, 0) == 18 * 60  # "eighteen (18) minutes ... 9-point"
    assert clock.reserve_seconds(7, 2, 3) == (5 + 4) * 60  # RA + RB
    assert clock.delay.value == 12
    assert clock.delay_range.value == (12, 15)
    assert clock.doubles_reserve_seconds(7, 0, 0) is None
    assert clock.introduce_mid_game.value is True


def test_bronstein_per_clock_2_1_and_2_2() -> None:
    clock = get_profile("usbgf-2016").clock("bronstein")
    assert clock is not None
    assert clock.reserve_seconds(7, 0, 0) == 14 * 60
    assert clock.reserve_seconds(7, 2, 3) == (2 * 7 - (2 + 3)) * 60
    assert clock.delay.value == 12
    assert clock.doubles_reserve_seconds(7, 2, 3) == 17 * 60 + 30 - (5 * 75)
    assert clock.doubles_delay.value == 18
    assert clock.introduce_mid_game.value is False
    assert clock.introduce_mid_game.rule == "CLOCK 1.1"
    assert clock.expiry_loses_match.rule == "CLOCK 5.3"


@pytest.mark.parametrize("kind", ["simple-delay", "bronstein"])
def test_the_opening_roll_starts_the_clock_and_a_forgotten_hit_is_the_profiles(kind: str) -> None:
    for name, forgotten, rule in (
        ("usbgf-2016", ForgottenHit.REFUSE_ROLL, "USBGF 4.1.8.1"),  # the roll is nullified
        ("usbgf-2017", ForgottenHit.IMPLIED_HIT, "ABT 4.6"),  # premature actions stand
    ):
        clock = get_profile(name).clock(kind)
        assert clock is not None
        assert (clock.opening_starts_clock.value, clock.opening_starts_clock.rule) == (
            True,
            "CLOCK 3.3",
        )
        assert (clock.forgotten_hit.value, clock.forgotten_hit.rule) == (forgotten, rule)


def test_clock_lookup() -> None:
    assert get_profile("usbgf-2016").clock(ClockKind.NONE) is None
    assert get_profile("classic").clock(ClockKind.SIMPLE_DELAY) is None
    assert get_profile("usbgf-2017").clock("simple-delay") is not None


def test_enum_values_are_json_stable_strings() -> None:
    for enum in (Window, Remedy, Subject, Party, ClockKind, PrematureRoll):
        values = [member.value for member in enum]
        assert json.loads(json.dumps(values)) == values
        assert all(re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", value) for value in values)


# --- the rule of each decision ---------------------------------------------------------


@needs_rules
@pytest.mark.parametrize("profile", _profiles(), ids=lambda p: p.name)
def test_every_decision_is_cited_by_every_profile_in_the_books_words(profile: Profile) -> None:
    for decision in Decision:
        citation = profile.citation(decision)
        assert citation.rule is not None and citation.quote, (profile.name, decision)
        assert profile.cite(decision) == citation.rule
        assert _normal(citation.quote) in _cited_text(citation.rule), (profile.name, decision)


@needs_rules
def test_decisions_quote_the_rules_they_cite() -> None:
    usbgf = get_profile("usbgf-2016")
    assert usbgf.cite(Decision.PREMATURE_ROLL) == "USBGF 4.1.7.1"
    assert "the Fast Roll Rule" in _cited_text(usbgf.cite(Decision.PREMATURE_ROLL))
    assert usbgf.cite(Decision.STOP_DISPUTE) == "USBGF 4.3.2(d)"
    assert _cited_text("USBGF 4.3.2(d)").startswith("When there is a dispute")
    assert usbgf.cite(Decision.OPENING_HIT) == "CLOCK 3.3"
    assert "lower die starts the opponent's clock" in _cited_text("CLOCK 3.3")
    assert usbgf.cite(Decision.MATCH_OVER) == "ABT 4.9"
    assert "first player to reach the posted match length" in _cited_text("ABT 4.9")
    assert usbgf.cite(Decision.BASIC_RULES) == "USBGF Appendix B"
    assert "initial arrangement of checkers" in _cited_text("USBGF Appendix B")
    classic = get_profile("classic")
    assert classic.cite(Decision.SAME_CHECKER) == "CLASSIC 10"
    assert "obliged to move that man" in _cited_text("CLASSIC 10")


def test_profiles_based_on_usbgf_2016_cite_its_rules_and_classic_says_why() -> None:
    """usbgf-2017 cites ABT where ABT 4.1-4.10 replace a USBGF section and usbgf-2016's rule
    elsewhere; classic cites its laws where they speak and says why it borrows the rest."""
    usbgf = get_profile("usbgf-2016")
    abt = get_profile("usbgf-2017")
    replaced = {d for d in Decision if abt.citation(d) != usbgf.citation(d)}
    assert {abt.cite(d) for d in replaced} <= {f"ABT 4.{n}" for n in (2, 6, 7, 8, 9, 10)}
    assert Decision.ILLEGAL_PLAY_OF_DICE in replaced
    assert Decision.IMPOSSIBLE_POSITION not in replaced
    online = get_profile("online").decisions
    assert online.replacing({Decision.APPEAL: usbgf.citation(Decision.APPEAL)}) == usbgf.decisions
    assert online[Decision.APPEAL].rule == "USBGF 6.7"  # online events: no appeal
    classic = get_profile("classic")
    for decision in Decision:
        if not classic.cite(decision).startswith("CLASSIC "):
            assert classic.cite(decision) == usbgf.cite(decision)
            assert "classic laws (3-11) are silent" in classic.citation(decision).note
    assert usbgf.cite(Decision.SAME_CHECKER) == "USBGF 4.2.3(c)"
    assert usbgf.cite(Decision.ILLEGAL_PLAY_OF_DICE) == "USBGF 4.2.3(a)"


def test_decisions_must_all_be_cited_to_a_rule() -> None:
    cited = get_profile("usbgf-2016").decisions.cited
    with pytest.raises(ValueError, match="missing: roll"):
        Decisions(tuple(pair for pair in cited if pair[0] is not Decision.ROLL))
    with pytest.raises(ValueError, match="cited once"):
        Decisions((*cited, cited[0]))
    silent = Citation(rule=None, note="the book is silent")
    with pytest.raises(ValueError, match="cited to no rule: roll"):
        Decisions(tuple((d, silent if d is Decision.ROLL else c) for d, c in cited))
    assert [value for value in Decision if not re.fullmatch(r"[a-z]+(-[a-z]+)*", value)] == []
    decisions = get_profile("usbgf-2016").decisions
    assert decisions["take-or-drop"] is decisions[Decision.TAKE_OR_DROP]
    with pytest.raises(KeyError):
        decisions["no-such-decision"]
