"""The front door: one object with a named method per command and query of the ledger.

The command line (:mod:`bgledger.cli`) and the web server are adapters on this
one class: they parse what the user typed, call a method, and render what it
returns; neither opens the store, folds events or decides anything itself.
Errors are the library's own (:mod:`bgledger.errors`,
:mod:`bgledger.rules.errors`): an adapter maps them at its edge (the CLI: exit 2
for input that describes nothing, exit 1 for a refusal with the rule cited).

Queries return the views' values (:class:`MatchState`, :class:`Moment`,
:class:`HistoryEntry`, :class:`Verdict`, :class:`Seal` ...), re-exported here
so that an adapter needs nothing else to annotate them.

Example::

    >>> ledger = Ledger("sqlite:///:memory:")
    >>> ledger.start(("Ann", "Bob"), 3, match_id="final", by="kim")
    'final'
    >>> ledger.state("final").phase
    <Phase.BETWEEN_GAMES: 'between-games'>
    >>> ledger.show("final").to_json()["players"]
    {'a': 'Ann', 'b': 'Bob'}
    >>> [entry.text for entry in ledger.history("final")]
    ['match started: Ann v Bob, 3 points, usbgf-2016, Crawford rule']
    >>> Ledger.judge("4HPwATDgc/ABMA", (3, 1), "8/5 6/5").legal
    True
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bgledger.commands.decide import stamp
from bgledger.commands.match import match_uuid
from bgledger.errors import InvalidTimeError, MatchNotFoundError, SealRefusedError
from bgledger.events import MatchEvent
from bgledger.interchange.files import ImportRefusedError, import_file
from bgledger.interchange.json_stream import export_json
from bgledger.interchange.mat_writer import export_mat
from bgledger.projections.readmodels.rows import status_text
from bgledger.projections.readmodels.tracking import ReadModels, RebuildReport
from bgledger.projections.state.clock import at_ms
from bgledger.projections.state.corrected import corrected, rulings_in_force
from bgledger.projections.state.fold import MatchState
from bgledger.projections.views.audit import HistoryEntry
from bgledger.projections.views.audit import history as audit_history
from bgledger.projections.views.moment import Moment, moment
from bgledger.projections.views.scoresheet import scoresheet_html, scoresheet_text
from bgledger.projections.views.summary import state_json
from bgledger.rules.judge import Judgement
from bgledger.rules.judge import judge as judge_play
from bgledger.rules.legal import check_dice, legal_plays
from bgledger.rules.notation import Play
from bgledger.rules.position import Position
from bgledger.rules.profiles import DEFAULT_PROFILE, PROFILES
from bgledger.store.application import DEFAULT_URL
from bgledger.store.application import Ledger as MatchStore
from bgledger.store.integrity import Verdict, Witness, streams, verify_stream
from bgledger.store.seal import InvalidSealError, Seal, keygen, load_private_key, load_public_key

__all__ = [
    "DEFAULT_PROFILE",
    "DEFAULT_URL",
    "EXPORT_FORMATS",
    "PROFILES",
    "HistoryEntry",
    "ImportRefusedError",
    "Imported",
    "InvalidSealError",
    "Judgement",
    "Ledger",
    "LegalPlays",
    "MatchEvent",
    "MatchState",
    "Moment",
    "Position",
    "RebuildReport",
    "Seal",
    "SealRefusedError",
    "Shown",
    "Verdict",
    "state_document",
    "verdict_text",
]

EXPORT_FORMATS = ("mat", "json", "scoresheet", "scoresheet-html")
"""What :meth:`Ledger.export` writes: gnubg's .mat, the lossless JSON copy, USBGF 4.7 sheets."""


# -- the values the adapters render ---------------------------------------------------------


def state_document(state: MatchState, now_ms: int | None = None) -> dict[str, Any]:
    """``show --json``'s fields of ``state``: the contract's summary plus ``next_length``.

    ``next_length`` is the corrected match length a ruling set for the next
    game (USBGF 4.8.4, 4.8.5), or null; ``now_ms`` the moment a running clock
    is read at (default: the last event).
    """
    return {**state_json(state, now_ms), "next_length": state.next_length}


def verdict_text(verdict: Verdict) -> str:
    """A verdict of :meth:`Ledger.verify` in one line: the first problem, or what was checked.

    E.g. ``final: 412 events, chain intact (head 9c1f...), matches the seal``.
    """
    problem = verdict.problem
    if problem is not None:
        return f"{verdict.match_id}: event {problem.number}: {problem.why}"
    text = f"{verdict.match_id}: {verdict.events} events, chain intact"
    if verdict.unchained:
        text = (
            f"{verdict.match_id}: events 1-{verdict.unchained} recorded before hash chains: "
            f"not verifiable; {verdict.events - verdict.unchained} chained events intact"
        )
    if verdict.head:
        text += f" (head {verdict.head[:16]})"
    return text + "".join(f", matches {source}" for source in verdict.witnesses)


@dataclass(frozen=True, slots=True)
class Shown:
    """The match as ``show`` draws it: the moment, when the clock is read, the view's name.

    ``view`` is ``present`` (now, every ruling in force), ``recorded`` (as
    the log stood after event N) or ``corrected`` (a moment through the
    rulings in force, DESIGN principle 4).
    """

    moment: Moment
    now_ms: int
    view: str

    @property
    def state(self) -> MatchState:
        """The state shown."""
        return self.moment.state

    def to_json(self) -> dict[str, Any]:
        """``show --json`` (``GET /api/matches/MATCH``): the state, the view, the rulings."""
        document = state_document(self.moment.state, self.now_ms)
        document["view"] = self.view
        document["rulings"] = [
            {
                "number": r.originator_version,
                "rule": r.rule or None,
                "ruled_by": r.ruled_by,
                "reason": r.reason,
                "agreed": r.agreed,
            }
            for r in self.moment.rulings
        ]
        return document


@dataclass(frozen=True, slots=True)
class Imported:
    """One match stored by :meth:`Ledger.import_file`: its state and what the import noticed.

    ``illegal_plays`` counts the events recorded as played against the rules;
    ``notes`` what a director would want to know (games abandoned, lines ignored).
    """

    match_id: str
    file: str
    state: MatchState
    games: int
    illegal_plays: int
    abandoned: bool
    notes: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """``import --json``'s object: ``show --json``'s fields plus the file's."""
        document = state_json(self.state)
        document.update(
            file=self.file,
            games=len(self.state.games),
            illegal_plays=self.illegal_plays,
            abandoned=self.abandoned,
            notes=list(self.notes),
        )
        return document


@dataclass(frozen=True, slots=True)
class LegalPlays:
    """The legal plays of ``dice`` in ``position``: ``(play, result position id)`` pairs."""

    position: Position
    dice: tuple[int, int]
    plays: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        """``legal --json``: one entry per distinct resulting position."""
        plays = [{"play": play, "result": result} for play, result in self.plays]
        return {"position": self.position.position_id, "dice": list(self.dice), "plays": plays}


# -- the front door ------------------------------------------------------------------------


class Ledger:
    """The match ledger on one SQLAlchemy database: every command and query by name.

    :param url: a SQLAlchemy URL (``sqlite:///bgledger.db`` by default;
        ``sqlite:///:memory:`` for a throwaway ledger; PostgreSQL for a tournament).
    :param cache_size: keep this many matches in memory between commands (for
        long-lived processes: ``record``, ``import``, a web server); each use
        still reads any events other scorekeepers added since.
    :raises sqlalchemy.exc.ArgumentError: for a URL that is not a database URL.
    """

    def __init__(self, url: str = DEFAULT_URL, *, cache_size: int = 0) -> None:
        self.url = url
        self._store = MatchStore(url, cache_size=cache_size)
        self._models: ReadModels | None = None

    def close(self) -> None:
        """Close the database connections."""
        self._store.close()

    # -- the match as it stands ------------------------------------------------------------

    def start(
        self,
        players: tuple[str, str],
        length: int,
        *,
        match_id: str | None = None,
        by: str,
        **options: Any,
    ) -> str:
        """Record a new match between players a and b; return its id.

        ``options`` are the setup's keyword arguments (profile, clock,
        crawford, event, round, table, meta, at, and the clock's reserve_ms,
        delay_ms, doubles: USBGF 3.5.5, CLOCK 2.1).

        :raises MatchExistsError: if ``match_id`` is taken.
        :raises InvalidMatchSetupError, UnknownProfileError, InvalidTimeError:
            for a setup that describes no match.
        """
        return self._store.start(players, length, match_id=match_id, by=by, **options)

    def state(self, match_id: str, at: int | None = None, *, corrected: bool = False) -> MatchState:
        """The match now, or as recorded after event ``at``; ``corrected``: through the rulings.

        :raises MatchNotFoundError: for an unknown match or an event it does not have.
        """
        if not corrected:
            return self._store.state(match_id, at=at)
        return self.moment(match_id, at, corrected=True).state

    def moment(self, match_id: str, at: int | None = None, *, corrected: bool = False) -> Moment:
        """The match in one of the two views of the past (DESIGN principle 4), with its rulings.

        Recorded: as the log stood after event ``at`` (now without it), the
        rulings in force by then.  Corrected: that moment seen through every
        ruling in force today (USBGF 5.3: what an appeal committee replays).

        :raises MatchNotFoundError: for an unknown match or an event it does not have.
        """
        events = self._store.history(match_id)
        if not corrected:
            state = self._store.state(match_id, at=at)
            made = rulings_in_force(events[: state.events])
            return Moment(state, state.events, "recorded", tuple(made))
        try:
            return moment(events, at or len(events), as_corrected=True)
        except ValueError as error:
            raise MatchNotFoundError(f"match {match_id!r}: --at {at}: {error}") from None

    def show(
        self,
        match_id: str,
        at: int | None = None,
        *,
        corrected: bool = False,
        now: str | None = None,
    ) -> Shown:
        """What ``show`` draws: :meth:`moment`, and the moment a running clock is read at.

        ``now`` is an ISO 8601 time or ``'now'`` (the wall clock); by default
        the time of the last event shown, as the record says (USBGF 3.5.5, 4.3.2).

        :raises MatchNotFoundError: for an unknown match or an event it does not have.
        :raises InvalidTimeError: for a ``now`` that is not a time or is before the last event.
        """
        shown = self.moment(match_id, at, corrected=corrected)
        view = shown.view if at is not None or shown.view == "corrected" else "present"
        return Shown(shown, _clock_moment(shown.state, now), view)

    def events(self, match_id: str) -> list[MatchEvent]:
        """Every event of the match, in order, numbered from 1.

        :raises MatchNotFoundError: for an unknown match.
        """
        return self._store.history(match_id)

    def history(self, match_id: str, *, rulings_only: bool = False) -> list[HistoryEntry]:
        """The audit trail: each event numbered, dated, described; voided ones marked.

        ``rulings_only``: the rulings alone (USBGF 5.5: the director's record),
        each with what it voided or restored and whether it is still in force.

        :raises MatchNotFoundError: for an unknown match.
        """
        entries = audit_history(self._store.history(match_id))
        if rulings_only:
            return [entry for entry in entries if entry.ruling is not None]
        return entries

    def match_ids(self) -> list[str]:
        """The id of every match, in the order they were started."""
        return self._store.match_ids()

    # -- files ----------------------------------------------------------------------------

    def import_file(
        self,
        path: Path,
        *,
        match_id: str | None = None,
        profile: str = DEFAULT_PROFILE,
        by: str = "import",
    ) -> list[Imported]:
        """Store every match of a ``.mat`` transcription or a JSON copy (``.json``), all or none.

        Illegal plays, forbidden doubles and concessions in a transcription
        are recorded as played and flagged (DESIGN principle 2); a JSON copy
        is re-decided event by event, rulings included.

        :raises ImportRefusedError: for a file that cannot be read, understood
            or stored (the match id taken), with the line and the reason.
        """
        stored = import_file(self._store, path, match_id=match_id, profile=profile, by=by)
        return [
            Imported(
                one.match_id,
                one.name,
                one.match.state,
                one.games,
                one.illegal_plays,
                one.abandoned,
                tuple(one.notes),
            )
            for one in stored
        ]

    def export(self, match_id: str, kind: str) -> str:
        """The match as ``kind``, one of :data:`EXPORT_FORMATS`.

        ``json`` is every event as recorded, rulings included (lossless: import
        reads it back); ``mat`` and the score sheets (USBGF 4.7) are the match
        as corrected by the rulings in force.

        :raises MatchNotFoundError: for an unknown match.
        :raises UnwritableNameError: for a player name a .mat file cannot hold.
        :raises ValueError: for an unknown ``kind``.
        """
        events = self._store.history(match_id)
        if kind == "mat":
            return export_mat(events)
        if kind == "json":
            return json.dumps(export_json(events), ensure_ascii=False, indent=1) + "\n"
        if kind not in EXPORT_FORMATS:
            raise ValueError(f"export format {kind!r}: one of {', '.join(EXPORT_FORMATS)}")
        state = corrected(events)
        assert state is not None  # the history of a match begins with MatchStarted
        render = scoresheet_text if kind == "scoresheet" else scoresheet_html
        return render(state, events)

    # -- tamper evidence -------------------------------------------------------------------

    def verify(self, match_id: str | None = None, *, seal: Seal | None = None) -> list[Verdict]:
        """Recompute the hash chain of one match, or of every stream (DESIGN principle 6).

        Every link is checked, with the latest snapshot as a witness of the
        length; with ``seal`` (:meth:`check_seal`), the stream must still extend it.

        :raises MatchNotFoundError: for an unknown match.
        """
        if match_id is None:
            return [verify_stream(self._store, stream) for stream in streams(self._store)]
        witnesses = [] if seal is None else [Witness(seal.events, seal.head, "the seal")]
        return [verify_stream(self._store, match_uuid(match_id), witnesses, asked=match_id)]

    @staticmethod
    def check_seal(path: Path, *, pub: Path | None = None, match_id: str | None = None) -> Seal:
        """The seal in ``path``, its signature (and, with ``pub``, its signer) checked.

        :raises InvalidSealError: for an unreadable seal or key, or a seal of
            another match than ``match_id``.
        :raises SealRefusedError: for a seal whose signature or signer does not match.
        """
        found = Seal.read(path)
        key = None if pub is None else load_public_key(pub)
        if match_id is not None and found.match_id != match_id:
            raise InvalidSealError(f"seal {path} is of match {found.match_id!r}, not {match_id!r}")
        if not found.genuine():
            raise SealRefusedError(
                f"{found.match_id}: seal {path}: the signature does not match the seal's "
                "content: the seal was altered or forged"
            )
        if key is not None and key != found.public_key:
            raise SealRefusedError(
                f"{found.match_id}: seal {path} was not signed by the key in {pub}"
            )
        return found

    def seal(self, match_id: str, key: Path, out: Path | None = None) -> Seal:
        """A director's signed digest of the match as it stands (written to ``out`` if given).

        The match is verified first: one with a mismatch, or whose last event
        was recorded before hash chains, is not sealed.

        :raises InvalidSealError: for an unreadable key, or a seal file that cannot be written.
        :raises SealRefusedError: for a match that cannot be sealed.
        :raises MatchNotFoundError: for an unknown match.
        """
        private = load_private_key(key)
        (verdict,) = self.verify(match_id)
        if not verdict.ok:
            raise SealRefusedError(f"not sealed: {verdict_text(verdict)}")
        if not verdict.head:
            raise SealRefusedError(f"not sealed: {match_id}: recorded before hash chains")
        made = Seal.make(private, match_id, verdict.events, verdict.head)
        if out is not None:
            text = json.dumps(made.to_json(), ensure_ascii=False, indent=2) + "\n"
            try:
                out.write_text(text, encoding="utf-8")
            except OSError as error:
                raise InvalidSealError(f"seal {out}: cannot be written: {error}") from None
        return made

    @staticmethod
    def keygen(path: Path) -> Path:
        """Write a director's Ed25519 key pair: ``path`` (private, PEM) and ``path.pub``.

        Returns the public key's path.

        :raises InvalidSealError: if ``path`` exists or a file cannot be written.
        """
        return keygen(path)

    # -- the tournament-wide views ---------------------------------------------------------

    def _read_models(self) -> ReadModels:
        """The read models, caught up with every event recorded since the last read."""
        if self._models is None:
            self._models = ReadModels(self._store)
        self._models.catch_up()
        return self._models

    def matches(self, event: str | None = None) -> list[dict[str, Any]]:
        """Every match (of ``event``), in the order started: one read-model row each.

        Each row has the match's columns, ``summary`` (``show --json``'s
        document as JSON text) and ``status`` in words.
        """
        rows = self._read_models().matches(event)
        return [{**row, "status": status_text(row)} for row in rows]

    def rulings(self, event: str | None = None) -> list[dict[str, Any]]:
        """Every ruling in every match (of ``event``): the director's report (USBGF 5.5).

        Each row: the match, the number, kind, rule, who ruled, why, when and
        who recorded it, ``voided_by`` (the ruling that overturned it) and ``details``.
        """
        return self._read_models().rulings(event)

    def standings(self, event: str | None = None) -> list[dict[str, Any]]:
        """Per event and player: matches played, won, lost, in progress, points for and against.

        Finished matches count by their final score; one without a winner is in progress.
        """
        return self._read_models().standings(event)

    def rebuild(self, *, full: bool = False) -> RebuildReport:
        """Recompute every read model from the events, in one transaction.

        Each match starts from its latest snapshot still on its hash chain;
        ``full`` folds every event instead (DESIGN principle 8: caches never decide).
        """
        return ReadModels(self._store).rebuild(full=full)

    # -- the rules engine on gnubg position ids ----------------------------------------------

    @staticmethod
    def position(position_id: str) -> Position:
        """The board of a gnubg position id (the player on roll moves).

        :raises InvalidPositionError: for anything that is not a position id.
        """
        return Position.from_id(position_id)

    @staticmethod
    def dice(values: Sequence[int]) -> tuple[int, int]:
        """Two dice of 1-6.

        :raises InvalidDiceError: for anything else.
        """
        return check_dice(values)

    @staticmethod
    def legal(position: Position | str, dice: Sequence[int]) -> LegalPlays:
        """Every legal play of ``dice`` (USBGF Appendix B), one per distinct resulting position.

        :raises InvalidPositionError, InvalidDiceError: for input that is no position or roll.
        """
        board = Ledger.position(position) if isinstance(position, str) else position
        rolled = check_dice(dice)
        plays = tuple((str(lp.play), lp.result.position_id) for lp in legal_plays(board, rolled))
        return LegalPlays(board, rolled, plays)

    @staticmethod
    def judge(position: Position | str, dice: Sequence[int], play: str) -> Judgement:
        """Whether ``play`` of ``dice`` is legal, and if not why (USBGF 4.2.3, Appendix B).

        :raises InvalidPositionError, InvalidDiceError: for input that is no position or roll.
        :raises InvalidNotationError, InvalidPlayError: for a play that cannot be
            read or moves checkers the mover does not have.
        """
        board = Ledger.position(position) if isinstance(position, str) else position
        return judge_play(board, check_dice(dice), Play.parse(play))


def _clock_moment(state: MatchState, now: str | None) -> int:
    """When a running clock is read, in ms: ``now`` (ISO 8601 or 'now'), else the last event.

    :raises InvalidTimeError: for a time that is not ISO 8601 or is before the last event.
    """
    last = at_ms(state.last_at)
    if now is None:
        return last
    if now.strip().lower() == "now":
        return max(last, round(time.time() * 1000))
    try:
        when = at_ms(stamp(now, None))
    except InvalidTimeError:
        raise InvalidTimeError(
            f"--now {now!r}: an ISO 8601 time (e.g. 2026-11-21T14:05:00+01:00) or 'now'"
        ) from None
    if when < last:
        raise InvalidTimeError(
            f"--now {now!r} is before the last event shown ({state.last_at}): "
            "the clock is read after it"
        )
    return when
