"""A game as one seat sees it: plain data for a front end to draw.

:func:`table_view` takes a snapshot of a live :class:`~tilebag.game.Game`
for the player at the keyboard: every square of the board (with its premium
and whether the last play covers it), each seat's name and score, the
keyboard player's own rack (never anyone else's), the bag, the tiles that
player cannot see, and the move log as the table saw it (an exchange shows
how many tiles, not which). The snapshot is immutable, so a front end may
draw it on another thread while the game goes on.

>>> from tilebag.game import Game
>>> game = Game(["alice", "bob"], seed=1, first=0)
>>> game.set_rack(0, "HNORXYZ")
>>> _ = game.push_gcg("8F HORN")
>>> view = table_view(game, seat=1)
>>> view.square(7, 5).label, view.square(7, 5).last, view.square(0, 0).premium
('H', True, 'TW')
>>> [(s.name, s.score, s.to_move) for s in view.seats]
[('alice', 14, False), ('bob', 0, True)]
>>> view.log[0].text
'8F HORN'
>>> len(view.unseen) + len(view.rack) + 4  # tiles unseen by bob, on his rack, on the board
100
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tilebag.alphabet import BLANK, BLANK_BIT, Tile
from tilebag.board import EMPTY
from tilebag.game import Game
from tilebag.move import Move
from tilebag.record import Event, EventKind

PREMIUM_NAMES = {(1, 3): "TW", (1, 2): "DW", (3, 1): "TL", (2, 1): "DL", (1, 4): "QW", (4, 1): "QL"}
"""Short names of premium squares by (letter, word) multiplier."""


@dataclass(frozen=True)
class SquareView:
    """One square of the board."""

    label: str
    """The letter on it, or ``""`` when empty."""
    blank: bool
    """True when the tile on it is a blank."""
    premium: str
    """``TW``, ``DW``, ``TL``, ``DL`` (``QW``, ``QL`` on larger boards), ``*``
    for the start square, or ``""``."""
    last: bool
    """True when the last play still on the board covers it."""
    points: int = 0
    """The tile's face value (0 for a blank or an empty square)."""


@dataclass(frozen=True)
class SeatView:
    """One player at the table."""

    name: str
    score: int
    bot: bool
    to_move: bool
    target: int | None = None
    """The Finish Line target, in a Finish Line game."""
    tiles_on_rack: int = 0


@dataclass(frozen=True)
class LogLine:
    """One turn or adjustment in the move log."""

    player: int
    text: str
    """``8F HORN``, ``exchange 3``, ``pass``, ``withdrawn``..."""
    score: int
    total: int


@dataclass(frozen=True)
class TableView:
    """The whole table, as the player at the keyboard sees it."""

    rows: int
    cols: int
    squares: tuple[SquareView, ...]
    """Row by row."""
    column_names: tuple[str, ...]
    seats: tuple[SeatView, ...]
    seat: int
    """The player at the keyboard."""
    rack: tuple[tuple[str, int], ...]
    """The keyboard player's rack: each tile's label (``?`` for a blank) and points."""
    bag: int
    unseen: tuple[str, ...]
    """The tiles the keyboard player cannot see (the bag and the other
    racks), as labels in tile order (``?`` for a blank)."""
    log: tuple[LogLine, ...]
    over: bool
    result: str = ""
    """The result line once the game is over."""
    challengeable: str = ""
    """The play the keyboard player may challenge now (``bob's 8F HORN
    (+14)``), or ``""``."""

    def square(self, row: int, col: int) -> SquareView:
        return self.squares[row * self.cols + col]


def last_play_squares(game: Game) -> list[int]:
    """Squares of the last play still on the board (to highlight)."""
    last: Move | None = None
    for event in game.events:
        if event.kind is EventKind.PLACE:
            last = event.move
        elif event.kind is EventKind.WITHDRAWN:
            last = None
    if last is None:
        return []
    return [game.layout.square(r, c) for r, c, _ in last.placed()]


def table_view(game: Game, seat: int | None = None, *, bots: Mapping[int, object] | Sequence[int] = ()) -> TableView:
    """A snapshot of ``game`` for the player in ``seat`` (default: the player
    to move); ``bots`` names the seats played by bots (their racks are never
    shown, even at their own turn)."""
    seat = game.turn if seat is None else seat
    layout, alphabet = game.layout, game.alphabet
    highlight = set(last_play_squares(game))
    squares = []
    for square in range(layout.size):
        tile = game.board.tiles[square]
        premium = PREMIUM_NAMES.get((layout.letter_multipliers[square], layout.word_multipliers[square]), "")
        if square == layout.start:
            premium = "*"
        if tile == EMPTY:
            squares.append(SquareView("", False, premium, False))
        else:
            blank = bool(tile & BLANK_BIT)
            letter = tile & ~BLANK_BIT
            squares.append(
                SquareView(
                    alphabet.label(letter), blank, premium, square in highlight, 0 if blank else alphabet.score(letter)
                )
            )
    bot_seats = set(bots)
    over = game.is_over()
    targets = game.finish_targets
    seats = tuple(
        SeatView(
            name=p.name,
            score=p.score,
            bot=i in bot_seats,
            to_move=not over and i == game.turn,
            target=targets[i] if targets is not None else None,
            tiles_on_rack=len(p.rack),
        )
        for i, p in enumerate(game.players)
    )
    rack: tuple[tuple[str, int], ...] = ()
    if seat not in bot_seats:
        rack = tuple((alphabet.label(t), alphabet.score(t)) for t in sorted(game.rack(seat), key=_rack_order))
    return TableView(
        rows=layout.rows,
        cols=layout.cols,
        squares=tuple(squares),
        column_names=tuple(layout.column_name(c) for c in range(layout.cols)),
        seats=seats,
        seat=seat,
        rack=rack,
        bag=len(game.bag),
        unseen=tuple(alphabet.label(t) for t in sorted(game.unseen(seat), key=_rack_order)),
        log=tuple(log_lines(game)),
        over=over,
        result=game.result_text() if over else "",
    )


def _rack_order(tile: Tile) -> int:
    """Letters in alphabet order, blanks last."""
    return 1 << 16 if tile == BLANK else tile


def log_lines(game: Game) -> list[LogLine]:
    """The move log as every player saw it: plays, exchanges by their number
    of tiles, passes, challenges and the end-of-game adjustments."""
    lines = []
    alphabet = game.alphabet
    for event in game.events:
        text = event_summary(game, event)
        if event.kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY):
            text = f"{text} ({alphabet.format_rack(event.end_rack)})"
        lines.append(LogLine(event.player, text, event.score, event.total))
    return lines


def event_summary(game: Game, event: Event) -> str:
    """A few words for one event, as the table saw it.

    >>> from tilebag.game import Game
    >>> game = Game(["alice", "bob"], seed=1, first=0)
    >>> _ = game.push_gcg("-")
    >>> event_summary(game, game.events[-1])
    'pass'
    """
    kind = event.kind
    move = event.move
    if kind is EventKind.PLACE and move is not None:
        return game.board.notation(move)
    if kind is EventKind.EXCHANGE:
        n = len(move.tiles) if move is not None else (event.exchange_count or 0)
        return f"exchange {n}"
    if kind is EventKind.RECYCLE and move is not None:
        return f"recycle {move.gcg(game.alphabet, game.layout)}"
    if kind is EventKind.BLANK_SWAP and move is not None:
        return f"blank swap {move.gcg(game.alphabet, game.layout)}"
    return {
        EventKind.PASS: "pass",
        EventKind.TIME_OUT: "time out (pass)",
        EventKind.WITHDRAWN: "play withdrawn",
        EventKind.CHALLENGE: "challenge",
        EventKind.END_RACK_POINTS: "rack points",
        EventKind.END_RACK_PENALTY: "rack left",
        EventKind.TIME_PENALTY: "overtime",
    }.get(kind, str(kind.value))
