"""Corrections under the USBGF rules of October 2016 (``usbgf-2016``).

Quotes are verbatim from ``rules/usbgf-tournament-rules-2016.txt``, except that
typographic quotes and apostrophes are written as straight ones.
"""

from __future__ import annotations

from bgledger.rules._profile_model import (
    CorrectionRule,
    Party,
    Remedy,
    Subject,
    Window,
    cite,
)

ANYONE = cite(
    frozenset({Party.PLAYER, Party.OPPONENT, Party.DIRECTOR, Party.STAFF}),
    None,
    note="The rule does not say who may raise it: the players, the director or staff.",
)
POINT_OUT = cite(
    frozenset({Party.PLAYER, Party.OPPONENT, Party.DIRECTOR, Party.STAFF, Party.MONITOR}),
    "USBGF 4.2.3(b)",
    "Only the players, the Tournament Director, or another Tournament staff member "
    "may point out an illegal move.",
    "A transcriber or monitor only if both players agreed before the match.",
)
NEW_LEGAL_PLAY = cite(
    Remedy.SAME_DICE_NEW_LEGAL_PLAY,
    "USBGF 4.2.3(c)",
    "the player shall then make a legal play",
    "The illegal play and all later game actions are undone; checkers, dice, cube and "
    "score revert; the director may restore reserve time.",
)
VOID_DOUBLE = cite(
    Remedy.VOID_DOUBLE,
    "USBGF 4.4.6.1",
    "the score adjusted as if the cube had never been turned during the Crawford game",
    "Dead cubes (USBGF 4.4.9: the prior, dead value scores) and automatic doubles, beavers "
    "and the Jacoby rule (USBGF 4.4.10) are dealt with in the same manner.",
)
RESUME_AT_DOUBLE = cite(
    Remedy.RESUME_GAME_AT_DOUBLE,
    "USBGF 4.4.6.2",
    "the Crawford game will resume based on the checker position and game clock reserve "
    "times that existed when the improper double was made",
)
RESUME_AT_CONCESSION = cite(
    Remedy.RESUME_GAME_AT_CONCESSION,
    "USBGF 4.2.6",
    "Any such agreements shall be considered invalid and unenforceable.",
    "USBGF 4.5 allows a concession only in non-contact positions; any other is an agreement "
    "on the outcome of a game, so the concession, its acceptance and everything after it are "
    "void and the game resumes where it was conceded.",
)
_CONCESSION_LIMITS = (
    "USBGF 4.5 and 4.2.6 set no time limit. The ledger applies the limits 4.5 itself cites for "
    "a match ended on a pass it should not have ended on (4.4.6.2): the game resumes only "
    "while no later game has started"
)

CORRECTIONS = (
    CorrectionRule(
        (Subject.ILLEGAL_PLAY,),
        cite(
            Window.BEFORE_OPPONENT_ROLLS,
            "USBGF 4.2.3(a)",
            "must be corrected before the offending player's opponent has completed a valid "
            "roll for his next turn",
            "A voided roll does not close the window; a cube turn does not either.",
        ),
        POINT_OUT,
        NEW_LEGAL_PLAY,
    ),
    CorrectionRule(
        (Subject.PLAY_UNRELATED_TO_DICE,),
        cite(
            Window.BEFORE_OFFENDER_ROLLS_AGAIN,
            "USBGF 4.2.3(e)",
            "at any time before the offending player validly rolls to start his next turn",
        ),
        POINT_OUT,
        cite(
            Remedy.UNDO_IMPROPER_MOVEMENTS,
            "USBGF 4.2.3(e)",
            "such improper checker movements and subsequent game actions can and must be undone",
        ),
    ),
    CorrectionRule(
        (Subject.IMPOSSIBLE_POSITION,),
        cite(
            Window.ANY_TIME,
            "USBGF 4.2.3(d)",
            "regardless of when the illegal play causing the impossible position is "
            "subsequently detected",
        ),
        POINT_OUT,
        cite(
            Remedy.DIRECTOR_DECIDES,
            "USBGF 4.2.3(d)",
            "the Tournament Director shall take appropriate corrective action",
        ),
    ),
    CorrectionRule(
        (Subject.ILLEGAL_PLAY, Subject.PLAY_UNRELATED_TO_DICE),
        cite(
            Window.DIRECTOR_APPROVAL,
            "USBGF 4.2.3(f)",
            "With the Tournament Director's approval, the players may agree to allow "
            "correction of an illegal play after the time limits",
            "Both players must agree and neither is obliged to.",
        ),
        cite(
            frozenset({Party.PLAYER, Party.OPPONENT}),
            "USBGF 4.2.3(f)",
            "the players may agree to allow correction of an illegal play",
        ),
        NEW_LEGAL_PLAY,
    ),
    CorrectionRule(
        (Subject.STARTING_POSITION,),
        cite(
            Window.BEFORE_NON_STARTER_SECOND_TURN_ENDS,
            "USBGF 4.2.4",
            "If an error in the starting position is noticed after the player who did not "
            "start the game has completed his second turn, the starting position will be "
            "considered valid",
        ),
        ANYONE,
        cite(
            Remedy.CORRECT_SETUP,
            "USBGF 4.2.4",
            "must be corrected in accordance with the correct starting position and the dice "
            "rolls that have occurred to that point if neither players' moves were affected",
            "If either player's moves were affected, the game is replayed from the starting "
            "position with new rolls. Once the window closes, a player with fewer than 15 "
            "checkers may still lose a gammon or backgammon.",
        ),
    ),
    CorrectionRule(
        (Subject.INVALID_DOUBLE_TAKEN,),
        cite(
            Window.BEFORE_MATCH_ENDS,
            "USBGF 4.4.6.1",
            "provided that the irregularity is detected prior to the end of the match",
        ),
        ANYONE,
        VOID_DOUBLE,
    ),
    CorrectionRule(
        (Subject.INVALID_DOUBLE_TAKEN_MATCH_ENDED,),
        cite(
            Window.BEFORE_NEXT_MATCH_STARTS,
            "USBGF 4.4.6.1",
            "provided that neither player has begun their next match",
            "When the doubled game itself won the match for the trailer.",
        ),
        ANYONE,
        VOID_DOUBLE,
    ),
    CorrectionRule(
        (Subject.INVALID_DOUBLE_PASSED,),
        cite(
            Window.BEFORE_NEXT_GAME_STARTS,
            "USBGF 4.4.6.2",
            "If a Crawford game double is passed by the player leading in the match, then the "
            "pass will be nullified if detected at any time prior to the start of the next game.",
            "The leader's pass is the one that leaves the match going; read so for dead cubes.",
        ),
        ANYONE,
        RESUME_AT_DOUBLE,
    ),
    CorrectionRule(
        (Subject.INVALID_DOUBLE_PASSED_MATCH_ENDED,),
        cite(
            Window.BEFORE_NEXT_MATCH_STARTS,
            "USBGF 4.4.6.2",
            "the pass will be nullified if detected at any time prior to either player "
            "starting their next match",
        ),
        ANYONE,
        RESUME_AT_DOUBLE,
    ),
    CorrectionRule(
        (Subject.CLOCK_NOT_ACTIVATED,),
        cite(Window.ANY_TIME, "USBGF 4.1.8.1", "upon detection of the clock error"),
        cite(
            frozenset({Party.PLAYER, Party.OPPONENT, Party.DIRECTOR, Party.STAFF}),
            "USBGF 4.3.4",
            "A player is obligated to immediately announce any instance where he notices",
        ),
        cite(
            Remedy.NULLIFY_LATER_ACTIONS,
            "USBGF 4.1.8.1",
            "all subsequent purported rolls and moves shall be nullified, and the affected "
            "player's lost reserve time shall be fully restored",
        ),
    ),
    CorrectionRule(
        (Subject.INVALID_CONCESSION,),
        cite(
            Window.BEFORE_NEXT_GAME_STARTS,
            "USBGF 4.5",
            "All moves, games and matches must be played to completion unless brought to an "
            "end either by the pass of a valid double, the expiration of a player's game clock "
            "reserve time, or in non-contact positions the concession",
            _CONCESSION_LIMITS + ".",
        ),
        ANYONE,
        RESUME_AT_CONCESSION,
    ),
    CorrectionRule(
        (Subject.INVALID_CONCESSION_MATCH_ENDED,),
        cite(
            Window.BEFORE_NEXT_MATCH_STARTS,
            "USBGF 4.5",
            "subject to the time limits set forth in sections 4.4.6, .9, and .10, above, a "
            "match may not end on a dropped cube",
            _CONCESSION_LIMITS + "; a concession that ended the match, before either player "
            "starts his next match.",
        ),
        ANYONE,
        RESUME_AT_CONCESSION,
    ),
    CorrectionRule(
        (Subject.MATCH_LENGTH,),
        cite(
            Window.BEFORE_MATCH_ENDS,
            "USBGF 4.8.3",
            "If a completed match has been played to the wrong score based on a mutual mistake "
            "of the players, then the match result shall stand",
            "It also stands if the game in progress at detection ends the match at the agreed "
            "length; a shorter correct length follows USBGF 4.8.5(a)-(d).",
        ),
        ANYONE,
        cite(
            Remedy.LENGTH_FROM_NEXT_GAME,
            "USBGF 4.8.4",
            "the match length will be changed to the correct length specified in the "
            "Tournament rules starting with the next game",
        ),
    ),
    CorrectionRule(
        (Subject.SCORE,),
        cite(
            Window.BEFORE_MATCH_ENDS,
            None,
            note="USBGF 4.7 sets no deadline; once the match is over a wrong score is a "
            "wrong result (USBGF 4.6).",
        ),
        ANYONE,
        cite(
            Remedy.CORRECT_SCORE,
            "USBGF 4.7",
            "The Tournament Director shall resolve all scoring disputes",
        ),
    ),
    CorrectionRule(
        (Subject.RESULT,),
        cite(
            Window.DIRECTOR_APPROVAL,
            "USBGF 4.6",
            "in the Tournament Director's judgment, the balance of equities for all concerned "
            "parties still favors correcting the erroneously-posted result",
        ),
        ANYONE,
        cite(
            Remedy.CORRECT_POSTED_RESULT,
            "USBGF 4.6",
            "If an incorrect result is posted, it may be corrected within a reasonable amount "
            "of time even if one or both players have started their next match",
        ),
    ),
)
