"""What every command shares: ``--json``, ``--by``/``--at``, opening the ledger, errors.

Library errors become click exceptions here, at the edge: input that
describes nothing (:class:`~bgledger.rules.errors.RulesError`, an unknown
match) exits 2; an action the rules refuse
(:class:`~bgledger.errors.ActionRefusedError`) exits 1 with the rule cited, as
does a seal that does not vouch for its match
(:class:`~bgledger.errors.SealRefusedError`).
Either way nothing was recorded.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
import sqlalchemy.exc
from eventsourcing.persistence import PersistenceError
from sqlalchemy.engine import make_url

from bgledger.errors import ActionRefusedError, MatchNotFoundError, SealRefusedError
from bgledger.projections.views.audit import history_json
from bgledger.projections.views.text import brief, escaped
from bgledger.rules.errors import BgLedgerError, RulesError
from bgledger.service import DEFAULT_URL, Ledger, Recorded

if TYPE_CHECKING:  # the vocabulary is imported by the commands that parse a line, not by every one
    from bgledger.commands.vocabulary import Command

F = TypeVar("F", bound=Callable[..., Any])


def json_option(func: F) -> F:
    """The shared ``--json`` flag: one JSON document on stdout instead of text."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON document instead of text."
    )(func)


def viewer_option(func: F) -> F:
    """``--from a|b``: draw the board from this player's side (default: a, whoever is on roll)."""
    return click.option(
        "--from",
        "viewer",
        type=click.Choice(["a", "b"]),
        default=None,
        help="Draw the board from this player's side (default: a, at the bottom, whoever is "
        "on roll).",
    )(func)


def emit_json(document: object) -> None:
    """Print ``document`` as one line of JSON."""
    click.echo(json.dumps(document, ensure_ascii=False))


def say(message: object = "", *, err: bool = False, nl: bool = True) -> None:
    """``click.echo`` for a text view: what the store holds is printed with its control
    and format characters escaped (``\\x1b``, ``\\u202e``), never as a terminal escape.

    The one place the text views (``show``, ``history``, ``list``, ``rulings``, the
    console ...) print names, notes and reasons: the store's text was checked on the way
    in (:func:`bgledger.rules.text.check_text`), but a row written by hand was not.
    ``--json`` documents are JSON's own escapes (:func:`emit_json`).
    """
    click.echo(escaped(str(message), keep="\n"), err=err, nl=nl)


def default_recorder() -> str:
    """Who records: ``BGLEDGER_USER``, else the login name."""
    import getpass  # only when --by is not given: not in every command's start-up

    try:
        fallback = getpass.getuser()
    except (KeyError, OSError):
        fallback = "scorekeeper"
    return os.environ.get("BGLEDGER_USER") or fallback


def stamp_options(func: F) -> F:
    """``--by NAME`` (who records) and ``--at TIME`` (when it happened, ISO 8601)."""
    func = click.option(
        "--at",
        metavar="TIME",
        default=None,
        help="When it happened, ISO 8601 (for transcriptions); default: now.",
    )(func)
    return click.option(
        "--by",
        metavar="NAME",
        default=default_recorder,
        show_default="BGLEDGER_USER, else your login",
        help="Who records this.",
    )(func)


def open_ledger(ctx: click.Context, cache_size: int = 0, *, create: bool = False) -> Ledger:
    """The front door (:class:`bgledger.Ledger`) on the group's ``--db`` URL.

    A SQLite file that does not exist is made only by a command that records
    a new match (``create``: ``start``, ``import``, ``record``); any other
    command refuses it (exit 2) and leaves nothing behind, rather than
    making an empty ledger and reporting "no matches" from it.  Closed when
    the command ends.
    """
    root = ctx.find_root()
    url = str(root.obj["db"]) if root.obj else DEFAULT_URL
    missing = _missing_file(url)
    folder = os.path.dirname(missing) if missing else ""
    if folder and not os.path.isdir(folder):  # SQLite would say only "unable to open"
        raise BadInputError(
            f"--db {masked(url)}: there is no directory {escaped(folder)} for the ledger file "
            f"{escaped(os.path.basename(missing or ''))}; make it first, or give another --db"
        )
    if create and missing is not None:
        ctx.meta["bgledger.created"] = missing  # `serve` says it made a new ledger
    missing = None if create else missing
    if missing is not None:
        raise BadInputError(
            f"--db {masked(url)}: there is no ledger file {escaped(missing)}; nothing was created "
            "(bgledger start or import makes one)"
        )
    with library_errors():
        try:
            ledger = Ledger(url, cache_size=cache_size)
        except ValueError as error:  # a URL SQLAlchemy parses but cannot use (a port 'x')
            raise BadInputError(f"--db {masked(url)}: not a database URL ({error})") from None
        except ImportError as error:  # a URL for a database whose driver is not installed
            scheme = url.split(":", 1)[0]
            raise BadInputError(
                f"--db {scheme}://...: its driver ({error.name or error}) is not installed; "
                "bgledger stores in SQLite (sqlite:///FILE) or PostgreSQL "
                "(postgresql+psycopg://USER@HOST/DB)"
            ) from None

    def close() -> None:
        for text in ledger.distrusted:
            click.echo(
                f"warning: {text}; not used: the match was folded from its events "
                "(bgledger verify names every forged cache)",
                err=True,
            )
        ledger.close()

    ctx.call_on_close(close)
    return ledger


def masked(url: str) -> str:
    """``url`` as it may be printed: its password, if any, as ``***``."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (sqlalchemy.exc.ArgumentError, ValueError):
        return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


def _missing_file(url: str) -> str | None:
    """The file a SQLite URL names if it does not exist (None: it exists, or no such file)."""
    try:
        parsed = make_url(url)
    except (sqlalchemy.exc.ArgumentError, ValueError):
        return None  # the ledger reports the URL itself
    database = parsed.database
    if not parsed.drivername.startswith("sqlite") or not database or database == ":memory:":
        return None
    if database.startswith("file:") or parsed.query.get("mode") == "memory":
        return None  # a URI filename: SQLite's own rules
    return None if os.path.exists(database) else database


class FilePath(click.Path):
    """``click.Path`` for a file, refusing a name no file can have (a NUL byte) with a message.

    ``click.Path`` asks the operating system about the name first, and a NUL
    byte makes that a ``ValueError`` traceback instead of a usage error.
    """

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and "\x00" in value:
            self.fail(f"{value!r} contains a NUL byte: no file has that name", param, ctx)
        return super().convert(value, param, ctx)


class RefusedError(click.ClickException):
    """An action the rules refuse (exit 1)."""

    exit_code = 1


class BadInputError(click.ClickException):
    """Input that describes nothing on a board or in the ledger (exit 2)."""

    exit_code = 2


class DatabaseError(click.ClickException):
    """The database failed (unreachable, locked, a broken row): exit 3, never a rule's 1.

    A script tells "the rules refused" (1) from "bad input" (2) from "the store failed" (3).
    """

    exit_code = 3


def record_command(
    ctx: click.Context,
    match_id: str,
    command: Command | str,
    by: str,
    at: str | None,
    as_json: bool,
) -> None:
    """Record ``command`` (a command, or its line) through the front door's one entrance and
    print the answer.

    Every one-shot answers alike (:func:`answer`): what it recorded as ``history`` words
    it, then the state in one line.

    :raises BadInputError: (exit 2) for input that describes nothing.
    :raises RefusedError: (exit 1) for a command the rules refuse, with the rule.
    """
    ledger = open_ledger(ctx)
    with library_errors():
        done = ledger.record(match_id, command, by=by, at=at)
    answer(done, as_json)


def answer(done: Recorded[Any], as_json: bool) -> None:
    """``done``'s numbered history lines, then the state line; ``--json``: the state
    (``show --json``'s fields) with ``recorded`` and ``entries`` (``history --json``'s)."""
    if as_json:
        emit_json({**done.to_json(), "entries": history_json(done.entries)})
        return
    for line in done.lines:
        say(line)
    say(brief(done.state))


def refusal_text(error: Exception, *, record: bool = False) -> str:
    """The one-line message for a library error, as the CLI prints it.

    ``record``: as ``record`` and its console print it, the next step as lines of the
    record language (``roll 6 4``, not ``roll m 6 4``).
    """
    if isinstance(error, ActionRefusedError):
        return f"refused: {error.text_for_record() if record else error}"
    return str(error)


@contextmanager
def library_errors() -> Iterator[None]:
    """Turn the library's errors into click exceptions with the right exit code."""
    try:
        yield
    except (RulesError, MatchNotFoundError) as error:
        raise BadInputError(refusal_text(error)) from None
    except ActionRefusedError as error:
        raise RefusedError(refusal_text(error)) from None
    except SealRefusedError as error:
        raise RefusedError(str(error)) from None
    except sqlalchemy.exc.ArgumentError as error:
        raise BadInputError(f"--db: not a database URL: {error}") from None
    except (PersistenceError, sqlalchemy.exc.SQLAlchemyError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise DatabaseError(f"database error: {first}") from None
    except BgLedgerError as error:  # any other input the library cannot take (a .mat name)
        raise BadInputError(str(error)) from None
