"""``tilebag event ...``: club nights and tournaments at the command line
(the server extra's database libraries).

A director runs an event from one laptop on a local SQLite file
(``tilebag-events.db`` in the current folder unless ``--db`` names
another), or on a server's database (``--db postgresql://...``). Each
command is a few lines over :class:`tilebag.server.events.EventStore`, the
standings and pairings of :mod:`tilebag.events`, and the printable sheets
of :mod:`tilebag.events.sheets`. See ``docs/events.md``.

Every error says what was wrong and exits 2; a ``.t`` file is read through
tsh's checks (:mod:`tilebag.events.tsh`) and an error in it names its line.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tilebag.errors import TilebagError, quote

if TYPE_CHECKING:
    from tilebag.events import Pairings, Standing
    from tilebag.server.events import Event, EventStore

DEFAULT_FILE = "tilebag-events.db"
"""The events' SQLite file when no ``--db`` is given, in the current folder."""

MISSING = "tilebag event keeps events in a database and needs the server extra: pip install 'tilebag[server]'"

METHOD_NAMES = {"australian": "australian draw"}
"""Names the command line takes for a pairing method besides those :func:`tilebag.events.find_method` knows."""

MAX_FILE_BYTES = 4_000_004
"""The most bytes read of a ``.t`` file: :data:`tilebag.events.tsh.MAX_CHARS` characters of UTF-8 and a little."""


class _Refused(TilebagError, ValueError):
    """A command that cannot go on: the message is printed, and the exit status is 2."""


def _database(given: str | None) -> tuple[str, str, Path | None]:
    """The database URL, how to say where it is, and its file when it is a local SQLite file."""
    if given is None:
        path = Path.cwd() / DEFAULT_FILE
        return f"sqlite:///{path}", DEFAULT_FILE, path
    if "://" not in given:
        path = Path(given).expanduser().absolute()
        return f"sqlite:///{path}", given, path
    from tilebag.server.main import database_url

    url, where = database_url(given)
    file = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else ""
    return url, where, Path(file) if file and file != ":memory:" else None


def _reason(err: BaseException) -> str:
    """What a database error says, without the SQL and the links SQLAlchemy adds."""
    original = getattr(err, "orig", None)
    text = str(original if original is not None else err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def _run(args: argparse.Namespace, body: Callable[[EventStore, str], int], *, create: bool = False) -> int:
    """Open the events' database (made when ``create``, else it must be
    there), run ``body`` on it, and turn what can go wrong with a database
    or a file into a message and exit status 2."""
    if any(importlib.util.find_spec(name) is None for name in ("sqlalchemy", "alembic")):
        print(f"tilebag: {MISSING}", file=sys.stderr)
        return 2
    from alembic.util import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    from tilebag.server.events import EventStore
    from tilebag.server.store import Store

    url, where, file = _database(args.db)
    if file is not None and not create and not file.exists():
        print(f"tilebag: no events database at {where}: start one with `tilebag event new NAME`, or say where it "
              "is with --db", file=sys.stderr)
        return 2
    store = None
    try:
        store = Store(url)
        return body(EventStore(store), where)
    except _Refused as err:
        print(f"tilebag: {err}", file=sys.stderr)
    except CommandError as err:
        print(f"tilebag: the database {where} cannot be brought up to date: {err}", file=sys.stderr)
    except SQLAlchemyError as err:
        print(f"tilebag: the database {where}: {_reason(err)}", file=sys.stderr)
    except UnicodeError as err:
        print(f"tilebag: {err}", file=sys.stderr)
    except OSError as err:
        print(f"tilebag: {err.filename or where}: {err.strerror or err}", file=sys.stderr)
    finally:
        if store is not None:
            store.engine.dispose()
    return 2


def _heading(event: Event, division: str, what: str) -> str:
    where = f", division {division}" if len(event.divisions) > 1 else ""
    return f"{event.name}{where}: {what}"


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


# -- the commands -----------------------------------------------------------------------


def new(args: argparse.Namespace) -> int:
    """``tilebag event new NAME``: a new event, with its divisions and rules."""
    from tilebag.rules import OPTIONS

    options = {option.flag: value for option in OPTIONS.values() if (value := getattr(args, option.name, None)) is not None}

    def body(events: EventStore, where: str) -> int:
        event = events.create_event(
            args.name, divisions=args.division or ["A"], rules=args.rules, options=options, rounds=args.rounds,
            director=args.director,
        )
        rounds = f"{event.rounds} rounds" if event.rounds is not None else "rounds as you pair them"
        changed = "".join(f", {key} {value}" for key, value in event.options.items())
        divisions = ", ".join(event.divisions)
        print(f"event {event.id}: {event.name} (division{'s' if len(event.divisions) > 1 else ''} {divisions}; "
              f"{rounds}; {event.rules} rules{changed}) in {where}")
        return 0

    return _run(args, body, create=True)


def list_events(args: argparse.Namespace) -> int:
    """``tilebag event list``: every event of the database."""
    _, where, file = _database(args.db)
    if file is not None and not file.exists():
        print(f"no event in {where} (there is no such file yet)")
        return 0

    def body(events: EventStore, where: str) -> int:
        found = events.events()
        if not found:
            print(f"no event in {where}")
        for event in found:
            parts = []
            for division in event.divisions:
                players = len(events.players(event.id, division))
                paired = len(events.rounds(event.id, division))
                parts.append(f"{division}: {players} players, {paired} round{'s' if paired != 1 else ''} paired")
            planned = f" of {event.rounds}" if event.rounds is not None else ""
            print(f"{event.id:>4}  {event.name}  ({event.status}; {'; '.join(parts)}{planned}; created "
                  f"{event.created[:10]})")
        return 0

    return _run(args, body)


def add(args: argparse.Namespace) -> int:
    """``tilebag event add EVENT NAME...``: players (late entries join from the next round)."""
    if args.rating is not None and len(args.names) > 1:
        print("tilebag: --rating goes with one NAME at a time", file=sys.stderr)
        return 2

    def body(events: EventStore, where: str) -> int:
        event = events.find_event(args.event)
        entries = [(name, args.rating, None) for name in args.names]
        added = events.add_players(event.id, args.division, entries, joined=args.joined)
        division = events.division_name(event.id, args.division)
        for player in added:
            rating = f", rated {player.rating}" if player.rating is not None else ""
            late = f", joins in round {player.joined}" if player.joined > 1 else ""
            print(f"division {division}: #{player.id} {player.name}{rating}{late}")
        paired = {r.number: r for r in events.rounds(event.id, args.division)}
        if added and added[0].joined in paired:
            print(f"round {added[0].joined} is paired already: pair it again to include them "
                  f"(tilebag event pair {event.id} {added[0].joined} --method ...)")
        return 0

    return _run(args, body)


def withdraw(args: argparse.Namespace) -> int:
    """``tilebag event withdraw EVENT PLAYER``: no more pairings for the player; their results stand."""

    def body(events: EventStore, where: str) -> int:
        event = events.find_event(args.event)
        player = events.find_player(event.id, args.division, args.player)
        gone = events.withdraw(event.id, args.division, player.id, from_round=args.from_round)
        print(f"{gone.name} (#{gone.id}) withdrawn: not paired from round {gone.withdrawn} on")
        paired = {r.number for r in events.rounds(event.id, args.division)}
        if gone.withdrawn in paired:
            print(f"round {gone.withdrawn} is paired already: pair it again, or give a forfeit "
                  f"(tilebag event result {event.id} {gone.withdrawn} {gone.id} --forfeit)")
        return 0

    return _run(args, body)


def parse_fixed(text: str) -> list[tuple[int, int | None]]:
    """The pairs of ``--fixed``: ``"1-4,2-3,5-bye"`` (a player alone, or
    with ``bye`` or ``0``, has the bye).

    >>> parse_fixed("1-4, 2-3, 5")
    [(1, 4), (2, 3), (5, None)]
    >>> parse_fixed("1-x")
    Traceback (most recent call last):
    ...
    tilebag.ui.cmd_event._Refused: --fixed: '1-x' is not a pair of player numbers (1-4, or 5-bye for a bye)
    """
    pairs: list[tuple[int, int | None]] = []
    for item in text.replace(";", ",").split(","):
        item = item.strip()
        if not item:
            continue
        a, _, b = (part.strip() for part in item.partition("-"))
        b = "" if b.lower() in ("bye", "0") else b
        if not (a.isascii() and a.isdigit() and len(a) <= 6) or not (b == "" or (b.isascii() and b.isdigit() and len(b) <= 6)):
            raise _Refused(f"--fixed: {quote(item)} is not a pair of player numbers (1-4, or 5-bye for a bye)")
        pairs.append((int(a), int(b) if b else None))
    if not pairs:
        raise _Refused("--fixed: no pairs given (say them as \"1-4,2-3\")")
    return pairs


def _pairings_sheet(events: EventStore, event: Event, args: argparse.Namespace, pairings: Pairings) -> tuple[
    str, list[Standing]
]:
    division = events.division_name(event.id, args.division)
    before = events.standings(event.id, args.division, through_round=pairings.round - 1)
    title = _heading(event, division, f"round {pairings.round} ({pairings.method.value})")
    return title, before


def pair(args: argparse.Namespace) -> int:
    """``tilebag event pair EVENT ROUND --method M``: pair a round, store it, print the pairings."""
    from tilebag.events.sheets import pairings_text

    method = METHOD_NAMES.get(args.method.strip().lower(), args.method)

    def body(events: EventStore, where: str) -> int:
        from tilebag.events import Method, find_method

        fixed = parse_fixed(args.fixed) if args.fixed is not None else None
        chosen = find_method(method)
        if (fixed is None) != (chosen is not Method.FIXED):
            raise _Refused("--fixed gives the pairs of --method fixed, and goes with it only")
        event = events.find_event(args.event)
        pairings = events.pair(event.id, args.division, args.round, chosen, seed=args.seed, fixed=fixed)
        paired = next(r for r in events.rounds(event.id, args.division) if r.number == args.round)
        title, before = _pairings_sheet(events, event, args, pairings)
        print(pairings_text(pairings, before, title=title), end="")
        print(f"\nseed {paired.seed}: the same command with --seed {paired.seed} pairs it the same way")
        return 0

    return _run(args, body)


def result(args: argparse.Namespace) -> int:
    """``tilebag event result EVENT ROUND PLAYER SCORE OPP_SCORE``: a game's
    result (``--correct`` one entered before); ``--forfeit`` or ``--bye`` instead of scores."""
    if args.forfeit or args.bye:
        if args.scores:
            print(f"tilebag: --{'forfeit' if args.forfeit else 'bye'} takes no scores", file=sys.stderr)
            return 2
    elif len(args.scores) != 2:
        print("tilebag: give the player's score and the opponent's: SCORE OPP_SCORE (or --forfeit, or --bye)",
              file=sys.stderr)
        return 2
    scores: list[int] = []
    for text in args.scores:
        try:
            scores.append(int(text))
        except ValueError:
            print(f"tilebag: the score {quote(text)} is not a whole number", file=sys.stderr)
            return 2

    def body(events: EventStore, where: str) -> int:
        event = events.find_event(args.event)
        player = events.find_player(event.id, args.division, args.player)
        if args.forfeit:
            stored = events.give_forfeit(event.id, args.division, args.round, player.id, correct=args.correct)
        elif args.bye:
            stored = events.give_bye(event.id, args.division, args.round, player.id, correct=args.correct)
        elif args.correct:
            stored = events.correct_result(event.id, args.division, args.round, player.id, scores[0], scores[1])
        else:
            stored = events.enter_result(event.id, args.division, args.round, player.id, scores[0], scores[1])
        names = {p.id: f"{p.name} (#{p.id})" for p in events.players(event.id, args.division)}
        game = stored.game
        if game.b is None:
            said = f"{'a forfeit loss' if game.forfeit else 'a bye'} for {names[game.a]} ({game.spread(game.a):+d})"
        else:
            said = f"{names[game.a]} {game.score_a}, {names[game.b]} {game.score_b}"
            said += " by forfeit" if game.forfeit else ""
            said += f"; {names[game.first]} went first" if game.first is not None else ""
        print(f"round {game.round}: {said}{' (corrected)' if args.correct else ''}")
        return 0

    return _run(args, body)


def standings(args: argparse.Namespace) -> int:
    """``tilebag event standings EVENT``: the standings as text, or an HTML sheet to print."""
    from tilebag.events.sheets import standings_html, standings_text

    def body(events: EventStore, where: str) -> int:
        event = events.find_event(args.event)
        division = events.division_name(event.id, args.division)
        table = events.standings(event.id, args.division, through_round=args.round)
        counted = [g.round for g in events.games(event.id, args.division)]
        last = args.round if args.round is not None else max(counted, default=0)
        what = f"standings after round {last}" if last else "standings before round 1"
        if last and args.round is None:
            missing = events.missing(event.id, args.division, last) if last in {
                r.number for r in events.rounds(event.id, args.division)} else ()
            if missing:
                what += f" ({len(missing)} result{'s' if len(missing) > 1 else ''} to come)"
        title = _heading(event, division, what)
        if args.html is not None:
            _write(args.html, standings_html(table, title=title))
            print(f"standings written to {args.html}")
        else:
            print(standings_text(table, title=title), end="")
        return 0

    return _run(args, body)


def pairings(args: argparse.Namespace) -> int:
    """``tilebag event pairings EVENT ROUND``: a round's pairings again, as text or an HTML sheet."""
    from tilebag.events.sheets import pairings_html, pairings_text

    def body(events: EventStore, where: str) -> int:
        event = events.find_event(args.event)
        found = events.pairings(event.id, args.division, args.round)
        title, before = _pairings_sheet(events, event, args, found)
        if args.html is not None:
            _write(args.html, pairings_html(found, before, title=title))
            print(f"pairings written to {args.html}")
        else:
            print(pairings_text(found, before, title=title), end="")
            missing = events.missing(event.id, args.division, args.round)
            started = {r.number: r.started for r in events.rounds(event.id, args.division)}
            if missing and started.get(args.round):
                boards = ", ".join(f"#{p.a} v #{p.b}" for p in missing)
                print(f"\nresults to come: {boards}")
        return 0

    return _run(args, body)


def export(args: argparse.Namespace) -> int:
    """``tilebag event export EVENT --tsh FILE``: a division as a tsh ``.t`` file."""
    from tilebag.events import TshError

    def body(events: EventStore, where: str) -> int:
        event = events.find_event(args.event)
        division = events.division_name(event.id, args.division)
        try:
            text = events.export_tsh(event.id, division)
        except TshError as err:
            raise _Refused(f"division {division} cannot be written as a .t file: {err}") from None
        _write(args.tsh, text)
        players = len(events.players(event.id, division))
        print(f"division {division} of {event.name}: {players} players written to {args.tsh}")
        return 0

    return _run(args, body)


def ratings(args: argparse.Namespace) -> int:
    """``tilebag event ratings EVENT``: a division rated the NASPA way, as
    ``tilebag ratings`` rates its ``.t`` file."""
    from tilebag.events import TshError
    from tilebag.ui.cmd_ratings import print_ratings

    exported: list[tuple[str, str]] = []

    def body(events: EventStore, where: str) -> int:
        event = events.find_event(args.event)
        division = events.division_name(event.id, args.division)
        try:
            exported.append((events.export_tsh(event.id, division), f"{event.name}, division {division}"))
        except TshError as err:
            raise _Refused(f"division {division} cannot be rated: {err}") from None
        return 0

    status = _run(args, body)
    if status or not exported:
        return status
    text, source = exported[0]
    return print_ratings(text, source, segments=args.segments, as_json=args.json)


def _read_tsh(path: str) -> str:
    """A ``.t`` file's text: UTF-8, else ISO-8859-1 (tsh's files of old), at most :data:`MAX_FILE_BYTES`."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise _Refused(f"{path}: the file is larger than a .t file may be ({MAX_FILE_BYTES} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def import_file(args: argparse.Namespace) -> int:
    """``tilebag event import FILE``: a tsh ``.t`` file as a new event (or a new division of ``--event``)."""
    from tilebag.events import TshError

    def body(events: EventStore, where: str) -> int:
        text = _read_tsh(args.file)
        into = events.find_event(args.event).id if args.event is not None else None
        name = args.name if args.name is not None else Path(args.file).stem or "imported"
        try:
            event, division = events.import_tsh(text, name=name, event_id=into, division=args.division)
        except TshError as err:
            at = f"{args.file}:{err.line}" if err.line else args.file
            raise _Refused(f"{at}: {err.message}") from None
        players = len(events.players(event.id, division))
        paired = len(events.rounds(event.id, division))
        print(f"event {event.id}: {event.name}, division {division}: {players} players, {paired} rounds "
              f"from {args.file}")
        return 0

    return _run(args, body, create=True)
