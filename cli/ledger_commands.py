"""Live recording: ``start`` and one command per action at the board.

Each command builds its command value (:mod:`bgledger.commands.vocabulary`)
and records it through the front door's one entrance
(:meth:`bgledger.Ledger.record`), which lets the match decide and stores what
it recorded; it prints the events recorded as ``history`` words them, then the
new state in one line (``--json``: the whole state and the entries).  A refusal
prints why, citing the rule, exits 1 and records nothing.
"""

from __future__ import annotations

from typing import Any

import click

from bgledger.cli.clock_commands import CLOCK_FIGURE
from bgledger.cli.common import (
    BadInputError,
    emit_json,
    json_option,
    library_errors,
    open_ledger,
    record_command,
    stamp_options,
)
from bgledger.commands.vocabulary import (
    Accept,
    AcceptRoll,
    AutomaticDouble,
    Beaver,
    Command,
    Double,
    Drop,
    Move,
    Opening,
    PlaySingles,
    RefuseRoll,
    Reject,
    Resign,
    Roll,
    Take,
    VoidRoll,
)
from bgledger.projections.views.summary import state_json
from bgledger.rules.errors import RulesError
from bgledger.service import DEFAULT_PROFILE, PROFILES, Ledger

_AS_PLAYED = click.option(
    "--as-played",
    is_flag=True,
    help="It was done at the board: record it even though the rules forbid it, flagged.",
)
_PREMATURE = click.option(
    "--premature",
    "early",
    is_flag=True,
    help="Done by the player not on roll before the mover moved (USBGF 4.1.7.1, 4.4.7).",
)


@click.command()
@click.option("--a", "player_a", required=True, metavar="NAME", help="Player a.")
@click.option("--b", "player_b", required=True, metavar="NAME", help="Player b.")
@click.option("--length", required=True, type=int, metavar="N", help="Match length in points.")
@click.option(
    "--profile",
    type=click.Choice(list(PROFILES)),
    default=DEFAULT_PROFILE,
    show_default=True,
    help="The rulebook the match is played under.",
)
@click.option(
    "--clock",
    type=click.Choice(["none", "simple-delay", "bronstein"]),
    default="none",
    show_default=True,
    help="The game clock (simple delay: USBGF 3.5.5; Bronstein: CLOCK 2.1).",
)
@click.option(
    "--reserve",
    type=CLOCK_FIGURE,
    default=None,
    help="With --clock: each player's reserve, M:SS; default: the profile's for the length.",
)
@click.option(
    "--delay",
    type=click.IntRange(min=0),
    default=None,
    metavar="SECONDS",
    help="With --clock: the delay per turn; default: the profile's (USBGF 3.5.5).",
)
@click.option(
    "--doubles", is_flag=True, help="With --clock: a team match's time and delay (CLOCK 2.2)."
)
@click.option(
    "--best-of-three",
    "best_of_three",
    is_flag=True,
    help="One match of a best-of-three series (to 7 or less: breaks only between matches, "
    "USBGF 2.2.2).",
)
@click.option("--event", default="", help="The tournament or event.")
@click.option(
    "--new-event",
    is_flag=True,
    help="The --event is a new event, though its name reads as an existing one's "
    "(a start in such an event is refused without it).",
)
@click.option("--round", "round_", default="", help="The round.")
@click.option("--table", default="", help="The table or board number.")
@click.option("--id", "match_id", default=None, metavar="MATCH", help="Choose the match id.")
@stamp_options
@json_option
@click.pass_context
def start(
    ctx: click.Context,
    player_a: str,
    player_b: str,
    length: int,
    profile: str,
    clock: str,
    reserve: int | None,
    delay: int | None,
    doubles: bool,
    best_of_three: bool,
    event: str,
    new_event: bool,
    round_: str,
    table: str,
    match_id: str | None,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """Start a match between players a and b; prints its id.

    With --clock the game clock is set up too (the opening roll starts it);
    --reserve, --delay and --doubles need --clock.
    """
    ledger = open_ledger(ctx, create=True)
    options: dict[str, Any] = {"profile": profile, "clock": clock, "event": event}
    options.update(round=round_, **_clock_setup(reserve, delay, doubles))
    options.update(best_of_three=best_of_three, table=table, new_event=new_event)
    with library_errors():
        chosen = ledger.start(
            (player_a, player_b), length, match_id=match_id, by=by, at=at, **options
        )
        state = ledger.state(chosen)
    if as_json:
        emit_json(state_json(state))
    else:
        click.echo(chosen)


def _clock_setup(reserve: int | None, delay: int | None, doubles: bool) -> dict[str, Any]:
    """``start``'s clock settings for :meth:`Ledger.start` (which refuses them without a clock)."""
    return {
        "reserve_ms": reserve,
        "delay_ms": None if delay is None else delay * 1000,
        "doubles": doubles,
    }


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.argument("die_a", metavar="DA")
@click.argument("die_b", metavar="DB")
@stamp_options
@json_option
@click.pass_context
def opening(
    ctx: click.Context,
    match_id: str,
    die_a: str,
    die_b: str,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """The opening roll: a's die, then b's die (a tie is recorded; roll again)."""
    try:  # read as typed: '٣' is not a die, whatever int() makes of it
        a, b = Ledger.dice_said([die_a, die_b])
    except RulesError as error:
        raise BadInputError(f"opening DA DB (a's die, b's die): {error}") from None
    record_command(ctx, match_id, Opening(a, b), by, at, as_json)


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.argument("die1", metavar="D")
@click.argument("die2", metavar="[D]", required=False)
@_PREMATURE
@_AS_PLAYED
@stamp_options
@json_option
@click.pass_context
def roll(
    ctx: click.Context,
    match_id: str,
    die1: str,
    die2: str | None,
    early: bool,
    as_played: bool,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """The player on roll rolled D D, or DD (64 is 6-4); an unplayable roll is a dance.

    With --premature, his opponent rolled D D before he moved: the mover then
    accepts or refuses the roll (accept-roll, refuse-roll; it stands at once
    where premature rolls stand, ABT 4.6).  With --as-played, a roll made on the
    opponent's time (his hit never made) is recorded as made, for the director.
    """
    with library_errors():  # 'roll M 64', as a scorekeeper says it; read as typed
        one, two = Ledger.dice_said([die1] if die2 is None else [die1, die2])
    record_command(ctx, match_id, Roll(one, two, as_played, premature=early), by, at, as_json)


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.argument("play", metavar="'PLAY'")
@_AS_PLAYED
@stamp_options
@json_option
@click.pass_context
def move(
    ctx: click.Context,
    match_id: str,
    play: str,
    as_played: bool,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """The player on roll moved PLAY ('13/8 13/11', 'bar/20*', '6/off'); illegal: refused."""
    record_command(ctx, match_id, Move(play, as_played), by, at, as_json)


@click.command("void-roll")
@click.argument("match_id", metavar="MATCH")
@click.argument("reason")
@stamp_options
@json_option
@click.pass_context
def void_roll(
    ctx: click.Context, match_id: str, reason: str, by: str, at: str | None, as_json: bool
) -> None:
    """The last roll was invalid (REASON: cocked, wrong-side, die-on-die ...): roll again."""
    record_command(ctx, match_id, VoidRoll(reason), by, at, as_json)


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.argument("level", type=click.Choice(["single", "gammon", "backgammon"]))
@click.option(
    "--player", type=click.Choice(["a", "b"]), default=None, help="Who resigns (default: on roll)."
)
@_AS_PLAYED
@stamp_options
@json_option
@click.pass_context
def resign(
    ctx: click.Context,
    match_id: str,
    level: str,
    player: str | None,
    as_played: bool,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """A player offers to concede a single game, gammon or backgammon (USBGF 4.5)."""
    record_command(ctx, match_id, Resign(level, player, as_played), by, at, as_json)


def _answer(kind: type[Command], *, help: str) -> click.Command:
    """``take``, ``drop``, ``accept``, ``reject``, ``accept-roll``, ``refuse-roll``: MATCH alone."""

    @click.pass_context
    def command(
        ctx: click.Context, /, match_id: str, by: str, at: str | None, as_json: bool
    ) -> None:
        record_command(ctx, match_id, kind(), by, at, as_json)

    command.__doc__ = help
    decorated = click.argument("match_id", metavar="MATCH")(json_option(stamp_options(command)))
    return click.command(kind.verb)(decorated)


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.option(
    "--to",
    type=click.IntRange(min=2),
    default=None,
    metavar="N",
    help="The level offered, when not twice the cube (a wrong level, USBGF 4.4.8).",
)
@_PREMATURE
@_AS_PLAYED
@stamp_options
@json_option
@click.pass_context
def double(
    ctx: click.Context,
    match_id: str,
    to: int | None,
    early: bool,
    as_played: bool,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """The player on roll doubles, before rolling (USBGF 4.4.2).

    With --premature, the player not on roll doubled before the mover moved:
    the double stands if otherwise valid (USBGF 4.4.7); the mover takes or
    drops once he has moved.
    """
    record_command(ctx, match_id, Double(to, as_played, early), by, at, as_json)


def _social_double(kind: type[Beaver | AutomaticDouble], help: str) -> click.Command:
    """``VERB MATCH --as-played``: a doubling rule of social play made at the board."""

    @click.pass_context
    def command(
        ctx: click.Context, /, match_id: str, as_played: bool, by: str, at: str | None,
        as_json: bool,
    ) -> None:  # fmt: skip
        record_command(ctx, match_id, kind(as_played), by, at, as_json)

    command.__doc__ = help
    decorated = json_option(stamp_options(_AS_PLAYED(command)))
    return click.command(kind.verb)(click.argument("match_id", metavar="MATCH")(decorated))


beaver = _social_double(
    Beaver,
    help="The doubled player took and at once redoubled, keeping the cube: not played in "
    "tournaments (USBGF 4.4.10); --as-played records it, flagged, for 'void-cube'.",
)
automatic_double = _social_double(
    AutomaticDouble,
    help="The opening roll tied and the cube was turned, staying in the middle: not played in "
    "tournaments (USBGF 4.4.10); --as-played records it, flagged, for 'void-cube'.",
)


accept_roll = _answer(
    AcceptRoll,
    help="The mover lets his opponent's premature roll stand and moves knowing it (USBGF 4.1.7.1).",
)
refuse_roll = _answer(
    RefuseRoll,
    help="The mover refuses his opponent's premature roll: he rolls again once the mover has "
    "moved (the Fast Roll Rule, USBGF 4.1.7.1; not where rolls stand, ABT 4.6).",
)


def _cube_answer(kind: type[Take] | type[Drop], *, help: str) -> click.Command:
    """``take`` and ``drop``: MATCH, and ``--as-played`` for one made on the doubler's time."""

    @click.pass_context
    def command(
        ctx: click.Context, /, match_id: str, as_played: bool, by: str, at: str | None,
        as_json: bool,
    ) -> None:  # fmt: skip
        record_command(ctx, match_id, kind(as_played), by, at, as_json)

    command.__doc__ = help
    decorated = click.argument("match_id", metavar="MATCH")(
        _AS_PLAYED(json_option(stamp_options(command)))
    )
    return click.command(kind.verb)(decorated)


take = _cube_answer(
    Take,
    help="The doubled player takes: he owns the cube. Recorded while the doubler's time "
    "still runs (his hit after doubling missing, USBGF 4.4.3): refused or his hit implied, as "
    "the profile says; --as-played records it as made.",
)
drop = _cube_answer(
    Drop,
    help="The doubled player passes: the game is lost. Recorded while the doubler's time "
    "still runs (his hit after doubling missing, USBGF 4.4.3): refused or his hit implied, as "
    "the profile says; --as-played records it as made.",
)
accept = _answer(Accept, help="The concession offered is accepted.")
play_singles = _answer(
    PlaySingles,
    help="Both players agree that the winner of the opening roll plays the two single dice "
    "instead of throwing again with two dice (CLASSIC 4; the classic profile only).",
)
reject = _answer(Reject, help="The concession offered is refused; play goes on.")

COMMANDS = (
    start,
    opening,
    play_singles,
    roll,
    move,
    void_roll,
    double,
    take,
    drop,
    beaver,
    automatic_double,
    resign,
    accept,
    reject,
    accept_roll,
    refuse_roll,
)
