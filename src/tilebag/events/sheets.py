"""The sheets a director prints or posts on the wall: a round's pairings
and the standings, as plain text and as HTML.

Pure, like the rest of :mod:`tilebag.events`: each function takes what
:func:`~tilebag.events.standings` and :func:`~tilebag.events.pair_round`
give and returns text. The pairings are shown with each player's record
before the round, so they take the standings *before* it
(``standings(..., through_round=round - 1)``).

An HTML sheet is one self-contained page: its styles inline, no script and
no outside resource (its Content-Security-Policy forbids both), every name
and title escaped, and styles for print (``@media print``: larger type for
the pairings, the table's header repeated on each page, no row split over
two pages).

>>> from tilebag.events import Game, Player, pair_round, standings
>>> players = [Player(1, "Ann", rating=1800), Player(2, "Bob", rating=1700), Player(3, "Cy")]
>>> results = [Game(1, 2, 1, 380, 420, first=2), Game.bye(1, 3)]
>>> print(standings_text(standings(players, results), title="Tuesday club"))
Tuesday club
<BLANKLINE>
Rank  #  Player  Won-Lost  Spread  Rating  Last game
   1  3  Cy           1-0     +50          bye (+50)
   2  1  Ann          1-0     +40    1800  W 420-380 v Bob (#2)
   3  2  Bob          0-1     -40    1700  L 380-420 v Ann (#1)
<BLANKLINE>
>>> round_2 = pair_round("koth", players, results, 2, seed=1, total_rounds=3)
>>> print(pairings_text(round_2, standings(players, results, through_round=1)))
Round 2 (king of the hill)
<BLANKLINE>
Board  First     Record   Second   Record
    1  Ann (#1)  1-0 +40  Cy (#3)  1-0 +50
<BLANKLINE>
Bye: Bob (#2), 0-1 -40
<BLANKLINE>
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from tilebag.events.pairing import Pairing, Pairings
from tilebag.events.standings import PlayerId, ScorecardLine, Standing

__all__ = ["pairings_html", "pairings_text", "standings_html", "standings_text"]


def _who(standing: Standing | None, player: PlayerId) -> str:
    if standing is None:
        return f"#{player}"
    return f"{standing.player.name} (#{player})"


def _record(standing: Standing | None) -> str:
    """A player's record and spread (nothing before their first result)."""
    if standing is None or not standing.scorecard:
        return ""
    return f"{standing.record} {standing.spread:+d}"


def _last_game(line: ScorecardLine, by_id: dict[PlayerId, Standing]) -> str:
    if line.bye:
        return f"bye ({line.spread:+d})"
    if line.opponent is None:
        return f"forfeit ({line.spread:+d})"
    against = _who(by_id.get(line.opponent), line.opponent)
    if line.forfeit:
        return f"{line.outcome} by forfeit v {against}"
    return f"{line.outcome} {line.score}-{line.opponent_score} v {against}"


def _name(standing: Standing) -> str:
    return standing.player.name + (" (withdrawn)" if standing.player.withdrawn is not None else "")


def _standings_rows(table: Sequence[Standing]) -> tuple[list[str], list[list[str]], set[int]]:
    by_id = {s.player.id: s for s in table}
    rated = any(s.player.rating is not None for s in table)
    headers = ["Rank", "#", "Player", "Won-Lost", "Spread", *(["Rating"] if rated else []), "Last game"]
    rows = []
    for s in table:
        last = _last_game(s.scorecard[-1], by_id) if s.scorecard else ""
        rating = [str(s.player.rating) if s.player.rating is not None else ""] if rated else []
        rows.append([str(s.rank), str(s.player.id), _name(s), s.record, f"{s.spread:+d}", *rating, last])
    numbers = {0, 1, 3, 4, 5} if rated else {0, 1, 3, 4}
    return headers, rows, numbers


def _pairing_rows(pairings: Pairings, table: Sequence[Standing]) -> tuple[list[str], list[list[str]], list[Pairing], bool]:
    """The boards' header and rows (the records left out while nobody has
    one), the byes, and whether a board's start is to be tossed for."""
    by_id = {s.player.id: s for s in table}
    records = any(_record(by_id.get(who)) for game in pairings for who in game.players)
    tossed = any(g.b is not None and g.first is None for g in pairings)
    headers = ["Board", "First", "Record", "Second", "Record"] if records else ["Board", "First", "Second"]
    rows = []
    for board, game in enumerate((g for g in pairings if g.b is not None), start=1):
        assert game.b is not None
        first, second = (game.a, game.b) if game.first != game.b else (game.b, game.a)
        mark = "*" if game.first is None else " " if tossed else ""
        if records:
            cells = [_who(by_id.get(first), first), _record(by_id.get(first)),
                     _who(by_id.get(second), second), _record(by_id.get(second))]
        else:
            cells = [_who(by_id.get(first), first), _who(by_id.get(second), second)]
        rows.append([f"{board}{mark}", *cells])
    return headers, rows, [g for g in pairings if g.b is None], tossed


def _columns(headers: list[str], rows: list[list[str]], numbers: set[int]) -> str:
    widths = [max(len(cell) for cell in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        padded = [
            cell.rjust(width) if i in numbers else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), *(line(row) for row in rows)]) + "\n"


def standings_text(table: Sequence[Standing], *, title: str = "Standings") -> str:
    """The standings as plain text, one line a player, under ``title``: the
    rank, the player's number and name, wins and losses, spread, the
    rating (when any player has one) and the last result."""
    headers, rows, numbers = _standings_rows(table)
    return f"{title}\n\n{_columns(headers, rows, numbers)}"


def pairings_text(pairings: Pairings, table: Sequence[Standing], *, title: str | None = None) -> str:
    """The round's pairings as plain text, one line a board: who goes
    first and who second, each with their record before the round (from
    ``table``, the standings before it), then the bye. A board whose start
    is not decided is marked ``*``: the players toss for it."""
    heading = title if title is not None else f"Round {pairings.round} ({pairings.method.value})"
    headers, rows, byes, tossed = _pairing_rows(pairings, table)
    by_id = {s.player.id: s for s in table}
    text = f"{heading}\n\n"
    if rows:
        text += _columns(headers, rows, {0})
    if tossed:
        text += "* the players toss for who goes first\n"
    for game in byes:
        standing = by_id.get(game.a)
        text += f"\nBye: {_who(standing, game.a)}" + (f", {_record(standing)}" if _record(standing) else "") + "\n"
    return text


_STYLE = """\
body { font-family: "Helvetica Neue", Arial, sans-serif; margin: 2em; color: #000; background: #fff; }
h1 { font-size: 1.5em; margin: 0 0 .8em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35em .7em; border-bottom: 1px solid #999; vertical-align: top; }
th { border-bottom: 2px solid #000; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) { background: #f2f2f2; }
p.note { margin-top: 1em; }
@page { margin: 12mm; }
@media print {
  body { margin: 0; font-size: 11pt; }
  .pairings { font-size: 14pt; }
  h1 { font-size: 16pt; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; page-break-inside: avoid; }
  tbody tr:nth-child(even) { background: none; }
}
"""

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; base-uri 'none'"


def _page(title: str, kind: str, body: str) -> str:
    escaped = html.escape(title, quote=True)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escaped}</title>\n<style>\n{_STYLE}</style>\n</head>\n"
        f'<body class="{kind}">\n<h1>{escaped}</h1>\n{body}</body>\n</html>\n'
    )


NUMBER = ' class="n"'
"""The class of a cell holding a number (set right)."""


def _html_table(headers: list[str], rows: list[list[str]], numbers: set[int]) -> str:
    def cells(tag: str, values: list[str]) -> str:
        return "".join(
            f"<{tag}{NUMBER if i in numbers else ''}>{html.escape(value, quote=True)}</{tag}>"
            for i, value in enumerate(values)
        )

    head = f"<thead><tr>{cells('th', headers)}</tr></thead>\n"
    body = "".join(f"<tr>{cells('td', row)}</tr>\n" for row in rows)
    return f"<table>\n{head}<tbody>\n{body}</tbody>\n</table>\n"


def standings_html(table: Sequence[Standing], *, title: str = "Standings") -> str:
    """The standings (as :func:`standings_text`) as a self-contained HTML page that prints well.

    >>> from tilebag.events import Player, standings
    >>> page = standings_html(standings([Player(1, "<b>Ann</b> & co")], []), title="Club <night>")
    >>> "<b>" in page, "&lt;b&gt;Ann&lt;/b&gt; &amp; co" in page, "<title>Club &lt;night&gt;</title>" in page
    (False, True, True)
    >>> "@media print" in page, "<script" in page
    (True, False)
    """
    headers, rows, numbers = _standings_rows(table)
    return _page(title, "standings", _html_table(headers, rows, numbers))


def pairings_html(pairings: Pairings, table: Sequence[Standing], *, title: str | None = None) -> str:
    """The pairings (as :func:`pairings_text`) as a self-contained HTML page
    that prints well, in large type to post on the wall."""
    heading = title if title is not None else f"Round {pairings.round} ({pairings.method.value})"
    headers, rows, byes, tossed = _pairing_rows(pairings, table)
    by_id = {s.player.id: s for s in table}
    body = _html_table(headers, rows, {0}) if rows else ""
    if tossed:
        body += '<p class="note">* the players toss for who goes first</p>\n'
    for game in byes:
        standing = by_id.get(game.a)
        text = f"Bye: {_who(standing, game.a)}" + (f", {_record(standing)}" if _record(standing) else "")
        body += f'<p class="note">{html.escape(text, quote=True)}</p>\n'
    return _page(heading, "pairings", body)
