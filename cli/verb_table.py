"""Each verb's command and its short help, as ``bgledger --help`` lists them.

Generated from :func:`bgledger.cli.main.verb_commands` (the vocabulary's verbs
and summaries) by ``python -m bgledger.cli.verb_table > t.py && mv t.py cli/verb_table.py``
(through a second file: the shell empties the file it writes to before Python reads it),
to be run after a verb is added or its summary changed: ``tests/test_cli_main.py``
fails until it is.  Importing the vocabulary costs a one-shot ``--help`` about
five times bare Python's start-up (issue 34); this table costs nothing.  A verb
missing here still runs (the group asks the vocabulary for a name it does not
know); only ``--help`` would not list it.
"""

# ruff: noqa: E501


def _verb(name: str, *, help: str) -> tuple[str, str]:
    return name, help


VERBS: dict[str, str] = dict(
    (
        _verb("accept", help="The concession offered is accepted (USBGF 4.5)"),
        _verb(
            "accept-roll", help="The mover lets the opponent's premature roll stand (USBGF 4.1.7.1)"
        ),
        _verb("amend", help="Entry EVENT was mis-entered: LINE is what happened"),
        _verb(
            "announce",
            help="A player said 'I am going to double' (he must double at his first legal opportunity, USBGF 4.4.3) or 'I would pass' (he must pass a double made at the opponent's next legal opportunity, USBGF 4.4.4)",
        ),
        _verb(
            "automatic-double",
            help="The opening roll tied and the cube was turned: not in tournaments (USBGF 4.4.10)",
        ),
        _verb(
            "beaver",
            help="The doubled player took and redoubled at once: not in tournaments (USBGF 4.4.10)",
        ),
        _verb("break", help="break start | break end"),
        _verb(
            "call",
            help="The caster called his throw D-D, other than the dice show: played as called it stands good (CLASSIC 8)",
        ),
        _verb("clock", help="clock start | clock stop | clock resume | clock read | clock set"),
        _verb(
            "correct-call",
            help="The error in the call (event EVENT) was found before the dice were taken up again: the play on the call is void and the dice thrown are played (CLASSIC 8)",
        ),
        _verb(
            "correct-cube", help="A double to a wrong level stands at the right level (USBGF 4.4.8)"
        ),
        _verb(
            "correct-length",
            help="The match is LENGTH points, from the next game (USBGF 4.8.4, 4.8.5)",
        ),
        _verb(
            "correct-score",
            help="The score is A (player a) to B (player b): a dispute settled (USBGF 4.7)",
        ),
        _verb("correct-setup", help="Correct a wrong starting position (USBGF 4.2.4)"),
        _verb(
            "double",
            help="The player on roll doubles (USBGF 4.4.2); --to a wrong level (4.4.8); --premature: the opponent doubled before the play was made (4.4.7)",
        ),
        _verb(
            "drop",
            help="The doubled player passes: the game is lost at the cube's value (USBGF 4.4.4)",
        ),
        _verb(
            "early-pickup",
            help="A player picked up the dice early: the sanction (USBGF 4.1.7.2, CLOCK 4.1)",
        ),
        _verb(
            "flag", help="A player's reserve is announced expired: he loses the match (USBGF 4.3.3)"
        ),
        _verb(
            "hit",
            help="The player whose time runs (or a|b) hits the clock: that turn ends (USBGF 4.1.8.1)",
        ),
        _verb(
            "interfered",
            help="The caster touched the dice before they came to rest: his adversary set them to D-D, which the caster plays as if thrown (CLASSIC 7)",
        ),
        _verb(
            "jadoube",
            help='The player on roll said "J\'adoube" and adjusted a man on POINT: he need not move it (CLASSIC 11)',
        ),
        _verb("late", help="A player is late: the penalty points due so far (USBGF 2.2.4)"),
        _verb(
            "missed-hit",
            help="The player whose time runs never hit the clock: the opponent's turn since is nullified, the reserve lost restored (USBGF 4.1.8.1)",
        ),
        _verb(
            "move",
            help="The player on roll played; --as-played records a play the rules refuse, flagged (USBGF 4.2.3(a))",
        ),
        _verb(
            "must-accept",
            help="The director requires the concession on a clock to be accepted: nothing better can occur for the opponent (CLOCK 5.1)",
        ),
        _verb(
            "note",
            help="A remark for the record, the scorekeeper's or the director's (not a ruling)",
        ),
        _verb(
            "nullify-pass",
            help="Nullify the pass of an invalid double: the game resumes (USBGF 4.4.6.2)",
        ),
        _verb("opening", help="The opening roll: a's die, b's die (a tie is recorded: roll again)"),
        _verb(
            "overturn",
            help="An appeal committee reverses a ruling: what it voided is back (USBGF 5.2)",
        ),
        _verb(
            "penalty", help="The director's penalty points: the opponent scores them (USBGF 2.2.4)"
        ),
        _verb(
            "pickup-with-hit",
            help="A player hit the clock and also picked up the dice: the clock stops, the player on roll's lost reserve is restored; then 'clock resume' (USBGF 4.1.8.1)",
        ),
        _verb(
            "play-singles",
            help="Both players agree that the winner of the opening roll plays the two single dice instead of throwing again with two dice (CLASSIC 4)",
        ),
        _verb(
            "refuse-roll",
            help="The mover refuses the premature roll: it is rolled again (USBGF 4.1.7.1)",
        ),
        _verb("reject", help="The concession offered is refused; play goes on (USBGF 4.5)"),
        _verb(
            "resign",
            help="The player on roll (or a|b) offers to concede the game at that level (USBGF 4.5)",
        ),
        _verb(
            "revert",
            help="Undo an illegal play and what followed it, in its rule's window (USBGF 4.2.3)",
        ),
        _verb(
            "roll",
            help="The player on roll rolled (or 'roll 64'); --premature: the opponent rolled before he moved (USBGF 4.1.7.1); --as-played: on the opponent's time",
        ),
        _verb(
            "setup",
            help="The game began from this gnubg position, not the standard one (USBGF 4.2.4)",
        ),
        _verb("take", help="The doubled player takes: he owns the cube (USBGF 4.4.4)"),
        _verb(
            "touch",
            help="The player on roll touched a man on POINT (his own numbering; 'bar') without saying \"J'adoube\": he must move it if it is playable (CLASSIC 11)",
        ),
        _verb(
            "undo",
            help="The last entry was a recording error: withdraw it (an earlier game's: the director)",
        ),
        _verb(
            "void-concession", help="Void a concession the rules did not allow (USBGF 4.5, 4.2.6)"
        ),
        _verb(
            "void-cube", help="Void an invalid double that was taken (USBGF 4.4.6.1, 4.4.9, 4.4.10)"
        ),
        _verb(
            "void-roll",
            help="The last roll was invalid: cocked, wrong-side, die-on-die ... (USBGF 4.1.4)",
        ),
    )
)
"""Each verb's command name and its short help (:func:`bgledger.cli.main.verb_commands`)."""


if __name__ == "__main__":  # pragma: no cover - run by hand, above
    from bgledger.cli.main import verb_table_source

    print(verb_table_source(), end="")
