"""The four profiles, assembled.

``usbgf-2017`` and ``online`` are ``usbgf-2016`` with the fields that differ
replaced.  Quotes are verbatim from ``rules/abt-2017-procedural-rules-4.1-4.10.txt``
(``ABT``), ``rules/usbgf-valid-rolls-faq.txt`` (``FAQ``) and
``rules/classic-laws-of-backgammon-3-11.txt`` (``CLASSIC``), except that
typographic quotes and apostrophes are written as straight ones.
"""

from __future__ import annotations

from dataclasses import replace

from bgledger.rules import _usbgf_corrections as corrections
from bgledger.rules import _usbgf_decisions as decisions
from bgledger.rules import _usbgf_play as play
from bgledger.rules import _usbgf_procedure as procedure
from bgledger.rules._profile_model import (
    Citation,
    CorrectionRule,
    CubeRules,
    Decision,
    Decisions,
    ForgottenHit,
    Party,
    PlayRules,
    PrematureRoll,
    Profile,
    Remedy,
    ResignationRules,
    RollRules,
    Subject,
    Window,
    cite,
    void_reason,
)

USBGF_2016 = Profile(
    name="usbgf-2016",
    summary="USBGF tournament rules, October 2016 (the default).",
    based_on=None,
    cube=play.CUBE,
    plays=play.PLAYS,
    corrections=corrections.CORRECTIONS,
    rolls=play.ROLLS,
    resignations=play.RESIGNATIONS,
    breaks=procedure.BREAKS,
    lateness=procedure.LATENESS,
    clocks=(procedure.SIMPLE_DELAY, procedure.BRONSTEIN),
    appeals=cite(
        True,
        "USBGF 5.2",
        "The Ruling Committee may uphold, reverse, or modify the Tournament Director's rulings.",
    ),
    decisions=decisions.DECISIONS,
    limits=procedure.LIMITS,
)


def _without(rules: tuple[CorrectionRule, ...], *subjects: Subject) -> tuple[CorrectionRule, ...]:
    return tuple(rule for rule in rules if not set(rule.subjects) & set(subjects))


# --- usbgf-2017: USBGF 2016 amended by the ABT 2017 procedural rules 4.1-4.10 ---

_CONDONED = CorrectionRule(
    (Subject.ILLEGAL_PLAY, Subject.PLAY_UNRELATED_TO_DICE),
    cite(
        Window.CONDONED_BY_OPPONENT_ROLL_OR_CUBE,
        "ABT 4.8",
        "A player may condone his opponent's illegal play by rolling his dice or turning the cube.",
        "ABT 4.8 covers every illegal play, so it replaces USBGF 4.2.3(a) and (e); "
        "4.2.3(d) and (f) still apply.",
    ),
    cite(
        frozenset({Party.OPPONENT}),
        "ABT 4.8",
        "Otherwise, he must require the opponent to replay the entire roll legally.",
        "Condoning or requiring is the opponent's choice.",
    ),
    cite(Remedy.SAME_DICE_NEW_LEGAL_PLAY, "ABT 4.8", "replay the entire roll legally"),
)
_SETUP_2016 = USBGF_2016.corrections_for(Subject.STARTING_POSITION)[0]
_REPLACED_BY_ABT_4_8 = {Window.BEFORE_OPPONENT_ROLLS, Window.BEFORE_OFFENDER_ROLLS_AGAIN}
_SETUP_2017 = replace(
    _SETUP_2016,
    window=cite(
        Window.BEFORE_FIFTH_ROLL,
        "ABT 4.7",
        "An incorrect starting position must be corrected prior to the fifth roll of the game.",
        "Counting the opening roll as the first, voided and tied opening rolls not at all. "
        "USBGF 4.2.4 closes one step earlier, when the non-starter completes his second turn. "
        "ABT 4.7 says nothing of how: the remedy stays USBGF 4.2.4's.",
    ),
)


_NO_SETTLEMENT_2017 = cite(
    Remedy.RESUME_GAME_AT_CONCESSION,
    "ABT 4.9",
    "No individual game or match may be canceled, replayed, or settled.",
    "A concession in a contact position settles the game: it is void, and the game resumes "
    "where it was conceded (as USBGF 4.2.6 has it).",
)


def _concession_2017(rule: CorrectionRule) -> CorrectionRule:
    """A concession ABT 4.9 does not allow is remedied under ABT 4.9, in USBGF 4.5's window."""
    window = replace(
        rule.window,
        rule="ABT 4.9",
        quote="Each game must be rolled to completion unless ended by passing a double or "
        "redouble, or conceding a no-contact position",
        note="ABT 4.9 sets no time limit either: the window stays the one usbgf-2016 applies "
        "(before the next game; a concession that ended the match, before the next match).",
    )
    return replace(rule, window=window, remedy=_NO_SETTLEMENT_2017)


_CONCESSIONS = {Subject.INVALID_CONCESSION, Subject.INVALID_CONCESSION_MATCH_ENDED}


def _corrections_2017() -> tuple[CorrectionRule, ...]:
    """ABT 4.8 in place of USBGF 4.2.3(a) and (e); ABT 4.7's window for setup errors; ABT
    4.9 for concessions in contact positions."""
    kept = (
        _SETUP_2017
        if rule is _SETUP_2016
        else _concession_2017(rule)
        if _CONCESSIONS & set(rule.subjects)
        else rule
        for rule in corrections.CORRECTIONS
        if rule.window.value not in _REPLACED_BY_ABT_4_8
    )
    return (_CONDONED, *kept)


_ROLLS_2017 = RollRules(
    void_reasons=(
        void_reason("not-shaken", "ABT 4.1", "shaking the dice vigorously in a dice cup"),
        void_reason(
            "not-rolled-freely",
            "ABT 4.1",
            "simultaneously tossing them out at a discernible height above the playing "
            "surface, allowing them to bounce and roll freely",
        ),
        void_reason(
            "not-simultaneous",
            "ABT 4.2",
            "Both dice must leave the cup before either die contacts the board",
        ),
        void_reason("wrong-side", "FAQ", "on the same side of the bar as rolled"),
        void_reason(
            "off-board",
            "FAQ",
            "they must both be either on the playing field or on the checkers",
            "The FAQ explains the USBGF rule ratified in August 2017: a die on checkers is "
            "valid, flat or not, although ABT 4.2 says 'flat on the playing surface'.",
        ),
        void_reason("cocked", "FAQ", "balanced on its edge or corner"),
        void_reason("vertical-support", "FAQ", "If the die is supported by a vertical surface"),
        void_reason(
            "below-checker-tops",
            "FAQ",
            "descends below the top surface of all checkers on which it rests",
        ),
        void_reason("die-on-die", "FAQ", "One die has come to rest on top of the other."),
    ),
    come_to_rest_seconds=cite(
        2,
        "FAQ",
        "if two seconds pass and it remains balanced, it is considered to have come to rest",
    ),
    premature_roll=cite(
        PrematureRoll.STANDS,
        "ABT 4.6",
        "All premature actions (dice rolls or cube actions) shall stand if otherwise valid.",
    ),
)
_IMPLIED_HIT_2017 = cite(
    ForgottenHit.IMPLIED_HIT,
    "ABT 4.6",
    "All premature actions (dice rolls or cube actions) shall stand if otherwise valid.",
    "A roll or double made before the opponent's hit stands (and ABT 4.5 ends a turn with "
    "the lifting of the dice): the ledger records his hit as implied by it, at its time, "
    "flagged, so that the clock error is seen (USBGF 4.3.4) and his time stops there.",
)
_NO_CONTACT_2017 = "conceding a no-contact position as a single game, gammon, or backgammon loss"
_ILLEGAL_2017 = Citation(
    rule="ABT 4.8",
    quote="A player may condone his opponent's illegal play by rolling his dice or turning the "
    "cube. Otherwise, he must require the opponent to replay the entire roll legally.",
    note="ABT 4.8 covers every illegal play: it replaces USBGF 4.2.3(a) and (e).",
)
_PREMATURE_2017 = Citation(
    rule="ABT 4.6",
    quote="All premature actions (dice rolls or cube actions) shall stand if otherwise valid.",
    note="Replaces USBGF 4.1.7.1's Fast Roll Rule and USBGF 4.4.7.",
)
_DECISIONS_2017 = decisions.DECISIONS.replacing(
    {
        Decision.VOID_ROLL: Citation(
            rule="ABT 4.2",
            quote="Both dice must come to rest flat on the playing surface to the right of the "
            "bar; otherwise they are cocked and must be rerolled.",
            note="Read with the valid-rolls FAQ, which explains it (see the void reasons).",
        ),
        Decision.PREMATURE_ROLL: _PREMATURE_2017,
        Decision.PREMATURE_DOUBLE: _PREMATURE_2017,
        Decision.SETUP_ERROR: Citation(
            rule="ABT 4.7",
            quote="An incorrect starting position must be corrected prior to the fifth roll of "
            "the game.",
        ),
        Decision.ILLEGAL_PLAY: _ILLEGAL_2017,
        Decision.ILLEGAL_PLAY_OF_DICE: _ILLEGAL_2017,
        Decision.UNRELATED_TO_DICE: _ILLEGAL_2017,
        Decision.RESIGNATION: Citation(rule="ABT 4.9", quote=_NO_CONTACT_2017),
        Decision.RESULT: Citation(
            rule="ABT 4.10",
            quote="The director may correct a wrongly-posted result and should do so in a "
            "timely manner fair to all.",
        ),
    }
)

USBGF_2017 = replace(
    USBGF_2016,
    name="usbgf-2017",
    summary="USBGF 2016 rules amended by the ABT 2017 procedural rules 4.1-4.10.",
    based_on="usbgf-2016",
    books=("USBGF", "ABT", "FAQ", "CLOCK"),
    decisions=_DECISIONS_2017,
    cube=replace(
        play.CUBE,
        premature_double_stands=cite(
            True, "ABT 4.6", "All premature actions (dice rolls or cube actions) shall stand"
        ),
        # Cube statements: ABT 4.1-4.10 say nothing of them; USBGF 4.4.3 and 4.4.4 stand.
    ),
    plays=replace(
        play.PLAYS,
        opponent_may_condone=cite(
            True, "ABT 4.8", "A player may condone his opponent's illegal play"
        ),
    ),
    corrections=_corrections_2017(),
    rolls=_ROLLS_2017,
    clocks=tuple(replace(clock, forgotten_hit=_IMPLIED_HIT_2017) for clock in USBGF_2016.clocks),
    resignations=replace(
        play.RESIGNATIONS,
        non_contact_only=cite(True, "ABT 4.9", _NO_CONTACT_2017),
        levels=cite(("single", "gammon", "backgammon"), "ABT 4.9", _NO_CONTACT_2017),
    ),
)

# --- classic: the 19th-century laws 3-11 ---

_SILENT = "The classic laws (3-11) are silent; they predate the doubling cube."


def _classic_cube() -> CubeRules:
    no = cite(False, None, note=_SILENT)
    return CubeRules(
        crawford=cite(False, None, note="No Crawford rule: " + _SILENT),
        post_crawford_cube=no,
        crawford_gammons_count=no,
        crawford_double_void=no,
        dead_cube_double_void=no,
        social_doubles_allowed=cite(True, None, note="Not forbidden: " + _SILENT),
        premature_double_stands=cite(True, None, note="Not forbidden: " + _SILENT),
        wrong_level_adjusted=no,
        match_may_end_on_pass=cite(True, None, note="Not forbidden: " + _SILENT),
        # -- cube statements (issue 33)
        double_statement_binds=cite(False, None, note="No binding statements: " + _SILENT),
        pass_statement_binds=cite(False, None, note="No binding statements: " + _SILENT),
    )


_CLASSIC_CORRECTIONS = (
    CorrectionRule(
        (Subject.ILLEGAL_PLAY,),
        cite(
            Window.BEFORE_OPPONENT_ROLLS,
            "CLASSIC 9",
            "the adversary must demand that the error be rectified before he throws himself, "
            "or the erroneous move stands good",
            "CLASSIC 9 speaks of a man moved a wrong number of points; read for every "
            "illegal play.",
        ),
        cite(frozenset({Party.OPPONENT}), "CLASSIC 9", "the adversary must demand"),
        cite(
            Remedy.SAME_CHECKER,
            "CLASSIC 10",
            "If a man wrongly moved can be moved correctly, the player in error is obliged to "
            "move that man.",
            "Else the other man moved on that throw moves on by the second die if possible; "
            "else any man.",
        ),
    ),
    CorrectionRule(
        (
            Subject.PLAY_UNRELATED_TO_DICE,
            Subject.IMPOSSIBLE_POSITION,
            Subject.STARTING_POSITION,
            Subject.MATCH_LENGTH,
            Subject.SCORE,
            Subject.RESULT,
        ),
        cite(Window.DIRECTOR_APPROVAL, None, note="The classic laws (3-11) are silent."),
        corrections.ANYONE,
        cite(Remedy.DIRECTOR_DECIDES, None, note="The classic laws (3-11) are silent."),
    ),
)

_CLASSIC_ROLLS = RollRules(
    void_reasons=(
        void_reason("wrong-side", "CLASSIC 5", "if either die jumps into the other table"),
        void_reason("off-board", "CLASSIC 5", "or off the board, both dice must be taken up"),
        void_reason(
            "cocked",
            "CLASSIC 6",
            'if either die is "cocked" against the other, or against the edge of the board '
            "or of a man",
        ),
        void_reason(
            "die-on-die",
            "CLASSIC 6",
            "each die must rest flat upon the board",
            "A die resting on the other die is not upon the board.",
        ),
    ),
    come_to_rest_seconds=cite(
        None,
        "CLASSIC 7",
        "before they come absolutely to rest and the throw is called by the caster",
        "No time is set: the caster calls the throw.",
    ),
    premature_roll=cite(PrematureRoll.STANDS, None, note="The classic laws (3-11) are silent."),
    opening_rethrow=cite(
        True,
        "CLASSIC 4",
        "By mutual consent it may be agreed to let the higher throw play the points on his own "
        "and his adversary's die for the first move; otherwise he must throw again with two dice.",
    ),
)


def _classic_decisions() -> Decisions:
    """USBGF's rule for every decision the classic laws leave open; CLASSIC 10's same man."""
    silent = "The classic laws (3-11) are silent here: the ledger cites usbgf-2016's rule."
    borrowed = {
        decision: replace(citation, note=f"{silent} {citation.note}".strip())
        for decision, citation in decisions.DECISIONS.cited
    }
    wrong_number = Citation(
        rule="CLASSIC 9",
        quote="If a player moves a man a wrong number of points, the throw being correctly "
        "called, the adversary must demand that the error be rectified before he throws himself, "
        "or the erroneous move stands good.",
        note="Read for every play that gets the dice wrong; a play unrelated to the dice "
        "(bearing off early) is usbgf-2016's, the laws being silent on it.",
    )
    borrowed[Decision.ILLEGAL_PLAY] = wrong_number
    borrowed[Decision.ILLEGAL_PLAY_OF_DICE] = wrong_number
    borrowed[Decision.VOID_ROLL] = Citation(
        rule="CLASSIC 5",
        quote="if either die jumps into the other table, or off the board, both dice must be "
        "taken up and thrown again",
        note="CLASSIC 6 for a die not flat or cocked (see the void reasons).",
    )
    borrowed[Decision.OPENING_THROW] = Citation(
        rule="CLASSIC 4",
        quote="By mutual consent it may be agreed to let the higher throw play the points on his "
        "own and his adversary's die for the first move; otherwise he must throw again with two "
        "dice.",
    )
    borrowed[Decision.SAME_CHECKER] = Citation(
        rule="CLASSIC 10",
        quote="If a man wrongly moved can be moved correctly, the player in error is obliged to "
        "move that man.",
    )
    return decisions.DECISIONS.replacing(borrowed)


CLASSIC = Profile(
    name="classic",
    summary="The classic 19th-century laws of backgammon (laws 3-11); no Crawford rule.",
    based_on=None,
    cube=_classic_cube(),
    plays=PlayRules(
        illegal_plays_possible=cite(
            True, "CLASSIC 9", "If a player moves a man a wrong number of points"
        ),
        opponent_may_condone=cite(
            False,
            "CLASSIC 9",
            "the adversary must demand that the error be rectified",
            "A demand he must make, not a choice; if he throws first the move stands.",
        ),
        touch_move=cite(
            True,
            "CLASSIC 11",
            "Any man touched, except for the purpose of adjusting it, must be moved if the "
            "piece is playable.",
        ),
    ),
    corrections=_CLASSIC_CORRECTIONS,
    rolls=_CLASSIC_ROLLS,
    resignations=ResignationRules(
        non_contact_only=cite(False, None, note="The classic laws (3-11) do not restrict it."),
        levels=cite(
            ("single", "gammon", "backgammon"),
            None,
            note="The classic laws (3-11) are silent; the usual three levels.",
        ),
        accept_despite_better_rolls=cite(True, None, note="The classic laws (3-11) are silent."),
    ),
    breaks=None,
    lateness=None,
    clocks=(),
    appeals=cite(
        True,
        None,
        note="The classic laws (3-11) are silent; a ruling committee may hear an appeal "
        "as under usbgf-2016.",
    ),
    decisions=_classic_decisions(),
    limits=procedure.LIMITS,
    books=("CLASSIC",),
)

# --- online: usbgf-2016 as an online server plays it ---

_FINAL = (
    "all decisions of the Tournament Director in online events shall be final and binding, "
    "with no right to request reconsideration, no right to formation of a Ruling Committee, "
    "and no other right to appeal"
)
_NO_COMMITTEE = "Section 5's appeals are for live play: no committee reverses an online ruling."
_SERVER = "The server rolls the dice, sets up the board and accepts only legal plays."
_UNSPOKEN = (
    "Online servers take each cube action from a click: no statement is spoken at the table, "
    "so none binds and the ledger records none (USBGF 4.4.3 and 4.4.4 are about words and "
    "gestures at a board)."
)

ONLINE = replace(
    USBGF_2016,
    name="online",
    summary="usbgf-2016 as online servers play it: resign at any time, no clock, no illegal plays.",
    based_on="usbgf-2016",
    plays=replace(play.PLAYS, illegal_plays_possible=cite(False, None, note=_SERVER)),
    corrections=_without(
        corrections.CORRECTIONS,
        Subject.ILLEGAL_PLAY,
        Subject.PLAY_UNRELATED_TO_DICE,
        Subject.IMPOSSIBLE_POSITION,
        Subject.STARTING_POSITION,
        Subject.CLOCK_NOT_ACTIVATED,
    ),
    rolls=RollRules(
        void_reasons=(),
        come_to_rest_seconds=cite(None, None, note=_SERVER),
        premature_roll=cite(PrematureRoll.STANDS, None, note=_SERVER),
    ),
    cube=replace(
        play.CUBE,
        double_statement_binds=cite(False, None, note=_UNSPOKEN),
        pass_statement_binds=cite(False, None, note=_UNSPOKEN),
    ),
    appeals=cite(False, "USBGF 6.7", _FINAL),
    decisions=decisions.DECISIONS.replacing(
        {Decision.APPEAL: Citation(rule="USBGF 6.7", quote=_FINAL, note=_NO_COMMITTEE)}
    ),
    resignations=replace(
        play.RESIGNATIONS,
        non_contact_only=cite(
            False, None, note="Online servers accept a resignation in any position."
        ),
    ),
    clocks=(),
)

ALL = (USBGF_2016, USBGF_2017, CLASSIC, ONLINE)
