"""The rule of each decision under the USBGF rules of October 2016 (``usbgf-2016``).

A command cites these when it refuses or records, a view when it shows what
was decided (:class:`~bgledger.rules._profile_model.Decision`).  Quotes are
verbatim from ``rules/usbgf-tournament-rules-2016.txt`` (``USBGF``), from
``rules/us-backgammon-clock-rules-2007-bronstein.txt`` (``CLOCK``) and
``rules/abt-2017-procedural-rules-4.1-4.10.txt`` (``ABT``), except that
typographic quotes and apostrophes are written as straight ones.
"""

from __future__ import annotations

from bgledger.rules._profile_model import Citation, Decision, Decisions


def _on(decision: Decision, rule: str, quote: str, note: str = "") -> tuple[Decision, Citation]:
    return decision, Citation(rule=rule, quote=quote, note=note)


_FAST_ROLL = (
    "If a player rolls prematurely, his opponent has the option of allowing the player's roll "
    "to stand"
)

DECISIONS = Decisions(
    (
        # -- turns and dice
        _on(
            Decision.BASIC_RULES,
            "USBGF Appendix B",
            "Backgammon is a game for two players",
            "USBGF 4.2.4 makes the basic rules of play part of the rules: the Backgammon "
            "Galore! page attached as Appendix B (the rule texts hold its first page). Cited "
            "for the order of play: a game begins with opening rolls, then one turn at a time.",
        ),
        _on(
            Decision.OPENING_THROW,
            "USBGF Appendix B",
            "Backgammon is a game for two players",
            "The basic rules of play (USBGF 4.2.4): the winner of the opening roll plays the "
            "two numbers rolled, his own die and his opponent's.",
        ),
        _on(
            Decision.ROLL,
            "USBGF 4.1.7.1",
            "A player may not roll until his opponent has completed his turn.",
        ),
        _on(Decision.PREMATURE_ROLL, "USBGF 4.1.7.1", _FAST_ROLL),
        _on(
            Decision.VOID_ROLL,
            "USBGF 4.1.4",
            "All rolls must be made on the right-hand side of the bar.",
            "The section and its subsections say what makes a roll valid; an invalid roll "
            "'shall be deemed invalid and retaken' (USBGF 4.1.4.1).",
        ),
        _on(
            Decision.SAME_CHECKER,
            "USBGF 4.2.3(c)",
            "the player shall then make a legal play",
            "Any legal play: the rules oblige no particular checker after a correction.",
        ),
        # -- the cube
        _on(
            Decision.DOUBLE,
            "USBGF 4.4.2",
            "Only the player in possession of the cube may redouble and only then when it is "
            "his turn and prior to rolling.",
        ),
        _on(
            Decision.TAKE_OR_DROP,
            "USBGF 4.4.4",
            "either one alone is sufficient to constitute a valid take or pass to which the "
            "player is bound",
        ),
        _on(
            Decision.PREMATURE_DOUBLE,
            "USBGF 4.4.7",
            "If a player doubles before the end of the opponent's turn, the double shall stand "
            "if it is otherwise valid.",
        ),
        _on(
            Decision.CUBE_LEVEL,
            "USBGF 4.4.8",
            "the cube action will be deemed valid but the cube value will be adjusted to the "
            "appropriate level",
        ),
        _on(
            Decision.CUBE_OUT_OF_PLAY,
            "USBGF 4.8.5(d)",
            "whoever wins the next game will be declared the match winner (with the doubling "
            "cube out of play)",
        ),
        _on(
            Decision.CRAWFORD,
            "USBGF 4.4.6",
            "the doubling cube will be out of play for the first game after either player is "
            "exactly one point away from winning the match",
        ),
        _on(
            Decision.VOID_TAKEN_DOUBLE,
            "USBGF 4.4.6.1",
            "If a player doubles during the Crawford game, and the other player accepts, then "
            "the double shall be declared invalid",
        ),
        _on(
            Decision.NULLIFY_PASSED_DOUBLE,
            "USBGF 4.4.6.2",
            "the Crawford game will resume based on the checker position and game clock "
            "reserve times that existed when the improper double was made",
        ),
        # -- cube statements (issue 33)
        _on(
            Decision.DOUBLE_STATEMENT,
            "USBGF 4.4.3",
            "If a player states either that he doubles, or that he is going to double, then he "
            "must double at his first legal opportunity to do so.",
        ),
        _on(
            Decision.PASS_STATEMENT,
            "USBGF 4.4.4",
            "If the player states his intention to drop the cube if doubled, then he will be "
            "bound by that statement if the opposing player elects to double at that player's "
            "next legal opportunity to do so (but not on subsequent turns).",
        ),
        _on(
            Decision.SOCIAL_DOUBLES,
            "USBGF 4.4.10",
            "are not permitted in tournament backgammon",
        ),
        # -- the end of a game or a match
        _on(
            Decision.RESIGNATION,
            "USBGF 4.5",
            "in non-contact positions the concession of a single game, gammon, or backgammon",
        ),
        _on(
            Decision.MATCH_OVER,
            "ABT 4.9",
            "The first player to reach the posted match length is the winner.",
            "USBGF 4.5 has matches played to their designated length without saying when one "
            "is won; ABT 4.9 says it in so many words, and is cited under every profile.",
        ),
        # -- corrections and rulings
        _on(
            Decision.ILLEGAL_PLAY,
            "USBGF 4.2.3",
            "does not conform to the rules of backgammon",
        ),
        _on(
            Decision.ILLEGAL_PLAY_OF_DICE,
            "USBGF 4.2.3(a)",
            "Players are obligated to immediately point out any play",
            "A play that gets the dice wrong (a checker on the bar, a held point, too few dice, "
            "the smaller die); (d) and (e) are the exceptions.",
        ),
        _on(
            Decision.UNRELATED_TO_DICE,
            "USBGF 4.2.3(e)",
            "an illegal checker play that is unrelated to the dice rolled or the number of "
            "pips moved",
        ),
        _on(
            Decision.IMPOSSIBLE_POSITION,
            "USBGF 4.2.3(d)",
            "an impossible position that prevents game completion",
        ),
        _on(
            Decision.SETUP_ERROR,
            "USBGF 4.2.4",
            "An error in starting position noticed before the player not starting the game "
            "has completed his second turn must be corrected",
        ),
        _on(
            Decision.APPEAL,
            "USBGF 5.2",
            "The Ruling Committee may uphold, reverse, or modify the Tournament Director's "
            "rulings.",
            "'The decision of the Ruling Committee shall be binding on the Tournament "
            "Director': a director does not rule again on what a committee decided.",
        ),
        _on(
            Decision.COMPLETED_MATCH,
            "USBGF 4.8.3",
            "If a completed match has been played to the wrong score based on a mutual mistake "
            "of the players, then the match result shall stand",
        ),
        _on(
            Decision.LONGER_LENGTH,
            "USBGF 4.8.4",
            "the match length will be changed to the correct length specified in the "
            "Tournament rules starting with the next game",
        ),
        _on(
            Decision.SHORTER_LENGTH,
            "USBGF 4.8.5",
            "the match length will be changed to the correct match length starting with the "
            "next game",
        ),
        _on(
            Decision.SCORE,
            "USBGF 4.7",
            "The Tournament Director shall resolve all scoring disputes",
        ),
        _on(
            Decision.RESULT,
            "USBGF 4.6",
            "If an incorrect result is posted, it may be corrected within a reasonable amount "
            "of time",
        ),
        # -- breaks and lateness
        _on(
            Decision.BREAK,
            "USBGF 2.2.2",
            "Each player is entitled to the following number of five-minute breaks during the "
            "course of a match",
        ),
        _on(
            Decision.BREAK_EXCEPTION,
            "USBGF 2.2.3",
            "The Tournament Director shall have discretion to make an exception",
        ),
        _on(
            Decision.PENALTY_POINTS,
            "USBGF 2.2.4",
            "Any breach of the rules for starting times and breaks may result in penalty "
            "points assessed by the Tournament Director.",
        ),
        # -- the game clock
        _on(
            Decision.CLOCK_SETTING,
            "USBGF 3.5.5",
            "each player is allotted a certain amount of reserve time for each point of the match",
        ),
        _on(
            Decision.CLOCK_TIME_CONTROL,
            "USBGF 3.5.6",
            "If a match already in progress is played to completion using a game clock",
        ),
        _on(
            Decision.CLOCK_REPLACED,
            "USBGF 3.7.2",
            "The Tournament Director shall set the remaining times on the substitute game "
            "clock for each player",
        ),
        _on(
            Decision.CLOCK_ERRORS,
            "USBGF 4.3.4",
            "Both players are responsible for properly setting and managing the game clock "
            "throughout their match",
        ),
        _on(
            Decision.CLOCK_STOP,
            "USBGF 4.3.2",
            "Stopping the game clock is only permitted in the following eight circumstances",
        ),
        _on(Decision.STOP_GAME_OVER, "USBGF 4.3.2(a)", "When a game ends"),
        _on(
            Decision.STOP_BREAK,
            "USBGF 4.3.2(b)",
            "During breaks.",
            "The director re-sets the times if the players failed to write them down.",
        ),
        _on(Decision.STOP_DIE_FELL, "USBGF 4.3.2(c)", "When a die falls on the floor"),
        _on(
            Decision.STOP_DISPUTE,
            "USBGF 4.3.2(d)",
            "When there is a dispute, or the Tournament Director is called",
        ),
        _on(
            Decision.STOP_EARLY_PICKUP,
            "USBGF 4.3.2(e)",
            "When a player has picked up the dice before the opponent has ended his turn",
        ),
        _on(
            Decision.STOP_DICE_PICKED_UP,
            "USBGF 4.3.2(f)",
            "When a player has picked up the dice and started his opponent's time",
        ),
        _on(
            Decision.STOP_ILLEGAL_MOVE,
            "USBGF 4.3.2(g)",
            "When a player notifies his opponent of an alleged illegal move",
        ),
        _on(
            Decision.STOP_OUTCOME_CERTAIN,
            "USBGF 4.3.2(h)",
            "When a player believes that the game's outcome is no longer in doubt",
        ),
        _on(
            Decision.OPENING_HIT,
            "CLOCK 3.3",
            "The player rolling the lower die starts the opponent's clock.",
            "The USBGF rules do not say who starts the clock after the opening roll; the 2007 "
            "clock rules do, for either clock.",
        ),
        _on(
            Decision.TURN_END,
            "USBGF 4.1.8.1",
            "a player ends his turn by activating his opponent's time",
        ),
        _on(
            Decision.MISSED_HIT,
            "USBGF 4.1.8.1",
            "If a player fails to activate his opponent's time, all subsequent purported rolls "
            "and moves shall be nullified",
        ),
        _on(
            Decision.DICE_PICKED_UP_WITH_HIT,
            "USBGF 4.1.8.2",
            "a player ends his turn by tapping the bar",
            "USBGF 4.3.2(f) refers here for dice picked up as the turn ends; what follows is "
            "4.1.8.1's: 'the dice shall be handed to the player on roll'.",
        ),
        _on(
            Decision.PICKUP_RESTORED,
            "USBGF 4.1.8.1",
            "If a player both activates his opponent's time to end his turn and picks up the "
            "dice, the game clock shall be stopped, the dice shall be handed to the player on "
            "roll, and any reserve time lost by the player on roll shall be restored",
        ),
        _on(
            Decision.REPLAY_ON_OWN_TIME,
            "CLOCK 4.3",
            "The player makes a legal checker play, then hits the clock.",
            "The USBGF rules stop the clock when an illegal move is pointed out (4.3.2(g)) but "
            "do not say whose time the replay runs on; the 2007 clock rules do.",
        ),
        _on(
            Decision.EARLY_PICKUP,
            "USBGF 4.1.7.2",
            "an opponent may not pick up the dice before the initial roller has completed his "
            "turn and activated the opponent's time on the game clock",
        ),
        _on(
            Decision.DELAY_FORFEITED,
            "CLOCK 4.1",
            "A player who prematurely picks up the dice forfeits his per move deductible for "
            "his next checker play.",
        ),
        _on(
            Decision.TIME_EXPIRED,
            "USBGF 4.3.3",
            "A player whose reserve time has expired automatically forfeits the match.",
        ),
    )
)
