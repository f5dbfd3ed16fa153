"""``tilebag ratings``: an event's ratings, rated the NASPA way
(:mod:`tilebag.events.naspa`), from a tsh ``.t`` file.

The rated games each player had played before the event come from the
``lifeg`` field of their line, as tsh keeps them (``; lifeg 230``); a rated
player's line without one counts as 100 games, as tsh counts it, and an
unrated player's as none.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import TYPE_CHECKING

from tilebag.errors import TilebagError, quote

if TYPE_CHECKING:
    from tilebag.events.standings import Player

LIFETIME_FIELD = "lifeg"
"""The field of a ``.t`` line that holds the rated games played before the event."""

LIFETIME_DEFAULT = 100
"""The games played before of a rated player whose line has no ``lifeg``
(tsh's default); an unrated player without one has played none."""

_GAMES = re.compile(r"[0-9]{1,6}")


def ratings(args: argparse.Namespace) -> int:
    from tilebag.events import tsh

    path = args.event
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(tsh.MAX_CHARS + 1)
    except OSError as err:
        print(f"tilebag: {path}: cannot read: {err.strerror or err}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as err:
        print(f"tilebag: {path}: not UTF-8 text (byte {err.start})", file=sys.stderr)
        return 2
    return print_ratings(text, path, segments=args.segments, as_json=args.json)


def print_ratings(text: str, source: str, *, segments: int | None, as_json: bool) -> int:
    """Print the NASPA ratings of the division a ``.t`` text holds (``tilebag
    ratings`` and ``tilebag event ratings``); 2 when the text is malformed."""
    import json

    from tilebag.events import tsh
    from tilebag.events.naspa import RatedPlayer, naspa_segments, rate_event, segment_rounds

    path = source
    try:
        division = tsh.loads(text)
        players = [RatedPlayer(p, _games_before(p, division.extra.get(p.id, {}), text)) for p in division.players]
    except TilebagError as err:
        print(f"tilebag: {path}: {err}", file=sys.stderr)
        return 2
    rounds = max((game.round for game in division.results), default=0)
    segments = naspa_segments(rounds) if segments is None else segments
    parts = segment_rounds(rounds, segments)
    table = rate_event(players, division.results, segments=segments)
    if as_json:
        print(json.dumps({
            "segments": [[part.start, part.stop - 1] for part in parts if part],
            "players": [
                {
                    "id": r.player.id,
                    "name": r.player.name,
                    "old": r.old,
                    "games_before": r.player.games,
                    "games": r.games,
                    "wins": r.wins,
                    "expected": round(r.expected, 4),
                    "new": r.new,
                    "change": r.change,
                    "performance": r.performance,
                    "acceleration": round(r.acceleration, 4),
                    "feedback": round(r.feedback, 4),
                    "after_segments": list(r.segments),
                }
                for r in table
            ],
        }))
        return 0
    if len(parts) > 1:
        print(f"rated in {len(parts)} segments: rounds " + ", ".join(_rounds(part) for part in parts))
    rows = [("#", "player", "old", "games", "wins", "expected", "new", "change", "perf")]
    for r in table:
        rows.append((
            str(r.player.id),
            r.player.name,
            "-" if r.old is None else str(r.old),
            str(r.games),
            _number(r.wins),
            f"{r.expected:.2f}",
            "-" if r.new is None else str(r.new),
            _change(r.old, r.new),
            "-" if r.performance is None else str(r.performance),
        ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [cell.ljust(widths[i]) if i == 1 else cell.rjust(widths[i]) for i, cell in enumerate(row)]
        print("  ".join(cells).rstrip())
    return 0


def _change(old: int | None, new: int | None) -> str:
    if new is None:
        return "-"
    if old is None:
        return "new"
    return f"{new - old:+d}" if new != old else "0"


def _rounds(part: range) -> str:
    return str(part.start) if len(part) == 1 else f"{part.start}-{part.stop - 1}"


def _number(x: float) -> str:
    return str(int(x)) if x == int(x) else str(x)


def _games_before(player: Player, fields: dict[str, str], text: str) -> int:
    from tilebag.events.tsh import TshError

    value = fields.get(LIFETIME_FIELD)
    if value is None:
        return 0 if player.rating is None else LIFETIME_DEFAULT
    first = (value.split() or [""])[0]
    if not _GAMES.fullmatch(first):
        raise TshError(
            f"the {LIFETIME_FIELD} field (games played before) is a whole number, got {quote(first)}",
            line=_player_line(text, player.id),
        )
    return int(first)


def _player_line(text: str, player: int) -> int:
    """The line of player number ``player``: tsh numbers the lines that
    are neither blank nor a ``#`` comment."""
    seen = 0
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            seen += 1
            if seen == player:
                return number
    return 0
