"""Cube, checker play, rolls and resignations under the USBGF rules of October 2016.

Quotes are verbatim from ``rules/usbgf-tournament-rules-2016.txt``, except that
typographic quotes and apostrophes are written as straight ones.
"""

from __future__ import annotations

from bgledger.rules._profile_model import (
    CubeRules,
    PlayRules,
    PrematureRoll,
    ResignationRules,
    RollRules,
    cite,
    void_reason,
)

CUBE = CubeRules(
    crawford=cite(
        True,
        "USBGF 4.4.6",
        'The so-called "Crawford Rule" shall apply to all tournament matches',
    ),
    post_crawford_cube=cite(
        True,
        "USBGF 4.4.6",
        "the doubling cube will be out of play for the first game after either player is "
        "exactly one point away from winning the match",
        "Only that first game: the rule says nothing more of later (post-Crawford) games, "
        "so the cube is back in play, with no free-drop or automatic-double rule.",
    ),
    crawford_gammons_count=cite(
        True,
        "USBGF 4.4.6",
        "gammons and backgammons will continue to count as two and three points, respectively",
    ),
    crawford_double_void=cite(True, "USBGF 4.4.6.1", "the double shall be declared invalid"),
    dead_cube_double_void=cite(
        True,
        "USBGF 4.4.9",
        "any further cube action shall be deemed invalid",
        "A cube is dead when its current value already wins the match for the doubler.",
    ),
    social_doubles_allowed=cite(
        False,
        "USBGF 4.4.10",
        "are not permitted in tournament backgammon",
        "Automatic doubles, beavers and the Jacoby rule.",
    ),
    premature_double_stands=cite(
        True, "USBGF 4.4.7", "the double shall stand if it is otherwise valid"
    ),
    wrong_level_adjusted=cite(
        True,
        "USBGF 4.4.8",
        "the cube action will be deemed valid but the cube value will be adjusted to the "
        "appropriate level",
    ),
    match_may_end_on_pass=cite(False, "USBGF 4.5", "a match may not end on a dropped cube"),
    # -- cube statements (issue 33)
    double_statement_binds=cite(
        True,
        "USBGF 4.4.3",
        "If a player states either that he doubles, or that he is going to double, then he must "
        "double at his first legal opportunity to do so.",
        "'I double' said when he may double is the double itself; 'I am going to double' is "
        "the statement the ledger records apart (announce double), binding him at his first "
        "legal opportunity: his turn, before rolling, with the cube his to turn.",
    ),
    pass_statement_binds=cite(
        True,
        "USBGF 4.4.4",
        "If the player states his intention to drop the cube if doubled, then he will be bound "
        "by that statement if the opposing player elects to double at that player's next legal "
        "opportunity to do so (but not on subsequent turns).",
        "Only a pass binds in advance: an intention to take is not made binding until the "
        "double is offered (then it is the take itself).",
    ),
)

PLAYS = PlayRules(
    illegal_plays_possible=cite(
        True,
        "USBGF 4.2.3(a)",
        "any play made by themselves or their opponent that does not conform to the rules of "
        "backgammon",
    ),
    opponent_may_condone=cite(
        False,
        "USBGF 4.2.3(a)",
        "Players are obligated to immediately point out any play",
        "Pointing out is a duty, not an option; an illegal play nobody points out in time stands.",
    ),
    touch_move=cite(
        False,
        "USBGF 4.2.5",
        "in order to test possible plays",
        "Checkers may be shuffled to test plays: no touch-move rule.",
    ),
)


_FLAT = "with each die lying flat either on the playing surface (not on the bar itself)"

ROLLS = RollRules(
    void_reasons=(
        void_reason(
            "wrong-side", "USBGF 4.1.4", "All rolls must be made on the right-hand side of the bar."
        ),
        void_reason("not-shaken", "USBGF 4.1.4.1", "the dice being shaken vigorously in a cup"),
        void_reason(
            "not-simultaneous",
            "USBGF 4.1.4.1",
            "The dice must roll freely out of the cup at or about the same time",
        ),
        void_reason("touched-hand", "USBGF 4.1.4.1", "the dice shall not touch the roller's hand"),
        void_reason("cup-touched-board", "USBGF 4.1.4.1", "the cup shall not touch the board"),
        void_reason("off-board", "USBGF 4.1.4.1", "onto the playing surface of the board"),
        void_reason("on-bar", "USBGF 4.1.4.1", "(not on the bar itself)"),
        void_reason(
            "cocked",
            "USBGF 4.1.4.1",
            _FLAT,
            "On dimpled checkers a die counts as flat if its top number is clearly identifiable.",
        ),
        void_reason(
            "die-on-die",
            "USBGF 4.1.4.1",
            "or on top of one or more checkers",
            "A die resting on the other die is on neither the playing surface nor checkers.",
        ),
        void_reason(
            "baffle-box-side",
            "USBGF 4.1.4.2",
            "the dice must come to rest on that side of the board adjacent to the baffle box",
        ),
        void_reason(
            "rolled-early",
            "USBGF 4.1.7.1",
            "require the player to roll again once he has completed his move",
            "Only when the opponent refuses the premature roll (the Fast Roll Rule).",
        ),
    ),
    come_to_rest_seconds=cite(
        2,
        "USBGF 4.1.4.1",
        'a die has "come to rest" once it has stopped moving for at least two (2) seconds',
    ),
    premature_roll=cite(
        PrematureRoll.OPPONENT_MAY_REFUSE,
        "USBGF 4.1.7.1",
        "his opponent has the option of allowing the player's roll to stand",
    ),
)

_LEVELS_QUOTE = "in non-contact positions the concession of a single game, gammon, or backgammon"

RESIGNATIONS = ResignationRules(
    non_contact_only=cite(True, "USBGF 4.5", _LEVELS_QUOTE),
    levels=cite(("single", "gammon", "backgammon"), "USBGF 4.5", _LEVELS_QUOTE),
    accept_despite_better_rolls=cite(
        True,
        "USBGF 4.5",
        "A player may accept a player's proffered concession even if possible dice rolls could "
        "result in a more favorable outcome for the conceding player.",
    ),
)
