"""``import`` and ``export``: transcriptions and JSON streams in, .mat, JSON and score sheets out.

``import`` reads ``.mat`` transcriptions (one ledger match per match in a
file) and bgledger's own JSON export (``.json``: a lossless copy of a
match's events).  ``export`` writes a match as gnubg's ``.mat``, as that JSON
or as the USBGF 4.7 score sheet (text or a printable HTML page).  JSON
is the history as recorded, rulings included; the ``.mat`` file and the score
sheet are the match as corrected by the rulings in force
(:mod:`bgledger.projections.state.corrected`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import click

from bgledger.cli.common import FilePath, emit_json, json_option, library_errors, open_ledger, say
from bgledger.projections.views.words import points_of
from bgledger.service import (
    DEFAULT_PROFILE,
    EXPORT_FORMATS,
    PROFILES,
    Imported,
    ImportRefusedError,
)


@dataclass
class _Tally:
    """What a bulk import did, for the summary at the end."""

    files: int = 0
    matches: int = 0
    events: int = 0
    flagged: int = 0
    abandoned: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)

    def add(self, imported: list[Imported]) -> None:
        self.files += 1
        self.matches += len(imported)
        for one in imported:
            self.events += one.state.events
            self.flagged += one.illegal_plays
            self.abandoned += one.abandoned

    def summary(self) -> str:
        text = (
            f"{self.files + len(self.refused)} files: {self.files} imported "
            f"({self.matches} matches, {self.events:,} events), {len(self.refused)} refused; "
            f"{self.flagged} events flagged against the rules; {self.abandoned} matches abandoned"
        )
        return "\n".join([text, *(f"  refused {name}: {why}" for name, why in self.refused)])


def _report(imported: Imported, path: Path, as_json: bool) -> None:
    state = imported.state
    if as_json:
        emit_json(imported.to_json())
        return
    names = f"{state.players[0]} v {state.players[1]}"
    score = f"{state.score[0]}-{state.score[1]} of {state.length}"
    if state.winner:
        outcome = f"won by {state.name(state.winner)}"
    elif imported.abandoned:
        outcome = f"abandoned in game {state.game}"
    else:
        outcome = "not finished"
    say(
        f"{path}: {imported.match_id}: {names}, {points_of(imported.games, 'game')}, {score}, "
        f"{outcome}, "
        f"{imported.illegal_plays} flagged"
    )
    for note in imported.notes:
        say(f"  note: {note}")
    if imported.provenance:
        say(f"  {imported.provenance}")


@contextmanager
def _progress(paths: list[Path], as_json: bool) -> Iterator[Iterable[Path]]:
    if len(paths) > 1 and sys.stderr.isatty() and not as_json:
        with click.progressbar(paths, label="importing", file=sys.stderr) as bar:
            yield bar
    else:
        yield paths


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=FilePath())
@click.option(
    "--profile",
    type=click.Choice(list(PROFILES)),
    default=DEFAULT_PROFILE,
    show_default=True,
    help="Rules to judge the transcription by ('online' for server logs).",
)
@click.option(
    "--id",
    "match_id",
    default=None,
    metavar="MATCH",
    help="Match id (one file); default: the players, the length and the date.",
)
@click.option(
    "--again",
    is_flag=True,
    help="Import a match the ledger already has (the same players, length and games).",
)
@click.option("--by", default="import", show_default=True, help="Who the events are recorded by.")
@click.option(
    "--seal",
    "seal_path",
    type=FilePath(),
    default=None,
    help="A JSON copy's seal (bgledger seal, of the match or --all): with --pub.",
)
@click.option(
    "--pub",
    type=FilePath(),
    default=None,
    help="The public key you trust (KEY.pub): the copy must be sealed with it, or is refused.",
)
@json_option
@click.pass_context
def import_command(
    ctx: click.Context,
    files: tuple[Path, ...],
    profile: str,
    match_id: str | None,
    again: bool,
    by: str,
    seal_path: Path | None,
    pub: Path | None,
    as_json: bool,
) -> None:
    """Import .mat transcriptions: each match becomes a match in the ledger.

    Illegal plays, forbidden doubles and concessions are recorded as played and
    flagged; a file that cannot be understood is refused with its line and
    reason and leaves nothing behind.  A match already in the ledger, under
    whatever file name or exported copy, is refused naming it (--again imports
    it anyway).  Exit 1 if any file was refused.

    A JSON copy is re-decided event by event: a copy that breaks the rules is
    refused, but one forged within them (players swapped, recorders changed,
    hashes recomputed) is not.  So the import records where the match came
    from: with --seal SEAL --pub KEY.pub, a copy sealed (bgledger seal) by the
    key you trust, and a copy whose seal does not verify is refused; without,
    "imported from an unsealed copy", which show, history and verify say.
    """
    if match_id is not None and len(files) > 1:
        raise click.UsageError("--id names one match: give one file with it")
    if (seal_path is None) != (pub is None):
        raise click.UsageError(
            "--seal and --pub go together: the copy's seal, and the public key you trust "
            "(the key inside a seal proves only that someone signed it)"
        )
    if seal_path is not None and len(files) > 1:
        raise click.UsageError("--seal vouches for one copy: give one file with it")
    ledger = open_ledger(ctx, create=True)
    tally = _Tally()
    with library_errors(), _progress(list(files), as_json) as paths:
        for path in paths:
            try:
                imported = ledger.import_file(
                    path,
                    match_id=match_id,
                    profile=profile,
                    by=by,
                    again=again,
                    seal=seal_path,
                    pub=pub,
                )
            except ImportRefusedError as error:
                tally.refused.append((str(path), str(error)))
                if as_json:
                    emit_json({"file": str(path), "error": str(error)})
                continue
            tally.add(imported)
            for one in imported:
                _report(one, path, as_json)
    for name, why in tally.refused:
        if not as_json:
            say(f"refused {name}: {why}", err=True)
    if len(files) > 1 and not as_json:
        say(tally.summary(), err=True)
    if tally.refused:
        ctx.exit(1)


@click.command()
@click.argument("match_id", metavar="MATCH")
@click.option(
    "--format",
    "kind",
    type=click.Choice(EXPORT_FORMATS),
    required=True,
    help="mat: what gnubg reads; json: every event, rulings included, lossless; "
    "sgf: what gnubg saves, rulings, flags and notes as comments; "
    "scoresheet(-html): USBGF 4.7.  mat, sgf and the score sheets are the match as corrected.",
)
@click.option("-o", "--output", type=FilePath(), help="Write to FILE.")
@click.pass_context
def export(ctx: click.Context, match_id: str, kind: str, output: Path | None) -> None:
    """Export a match: as a .mat file, as JSON, as gnubg's SGF, or as its score sheet.

    JSON holds every event as recorded, rulings included (bgledger import reads it
    back, corrections and all); the .mat file, the SGF and the score sheet show the
    match as corrected by the rulings in force, the SGF in comments and the score
    sheet in a list.
    """
    ledger = open_ledger(ctx)
    with library_errors():
        text = ledger.export(match_id, kind)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise click.FileError(str(output), hint=error.strerror or str(error)) from None
    say(f"{match_id}: {kind} written to {output}", err=True)
