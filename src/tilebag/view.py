"""A game as one seat sees it, or an observer: the one place that decides
what each may see, for every front end (the terminal game draws it, the
server sends it as JSON, the browser page draws that).

:func:`seat_view` takes a snapshot of a live :class:`~tilebag.game.Game` for a
seat (``None``: an observer): every square of the board (its premium, its
tile, whether the last play covers it), each player's name and score, the
seat's own rack (never anyone else's), the bag, the tiles the seat cannot
see, counted by letter, and the events as the seat may see them
(:func:`visible_events`). The snapshot is immutable, so a front end may draw
it on another thread while the game goes on.

>>> from tilebag.game import Game
>>> game = Game(["alice", "bob"], seed=1, first=0)
>>> game.set_rack(0, "HNORXYZ")
>>> _ = game.push_gcg("8F HORN")
>>> view = seat_view(game, 1)
>>> view.square(7, 5).label, view.square(7, 5).last, view.square(0, 0).premium
('H', True, 'TW')
>>> [(p.name, p.score, p.to_move) for p in view.players]
[('alice', 14, False), ('bob', 0, True)]
>>> view.log[0].text, view.last_play
('8F HORN', ('F8', 'G8', 'H8', 'I8'))
>>> sum(view.unseen_by_letter().values()) + len(view.rack) + 4  # unseen by bob, on his rack, on the board
100
>>> seat_view(game, None).rack, seat_view(game, None).unseen  # an observer sees no rack
((), ())
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tilebag.alphabet import BLANK, BLANK_BIT, Tile
from tilebag.board import EMPTY
from tilebag.game import Game
from tilebag.move import Move
from tilebag.outcome import GameState
from tilebag.record import Event, EventKind

PREMIUM_NAMES = {(1, 3): "TW", (1, 2): "DW", (3, 1): "TL", (2, 1): "DL", (1, 4): "QW", (4, 1): "QL"}
"""Short names of premium squares by (letter, word) multiplier."""

END_OF_GAME = frozenset({EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY, EventKind.TIME_PENALTY})
"""The counts made when the game ends: shown once it is over (the final
challenge may still take the end back)."""


def visible_events(game: Game, seat: int | None) -> list[Event]:
    """The game's events as ``seat`` may see them (``None``: an observer):
    the one rule every view and record of a game goes through.

    Once the game is over, everything. Before: no rack but the seat's own,
    another seat's exchange as its count of tiles, and none of the
    end-of-game counts, which wait for the final challenge (with three or
    four players, each rack's value would tell what it holds).

    >>> from tilebag.game import Game
    >>> game = Game(["alice", "bob"], seed=1, first=0)
    >>> game.set_rack(0, "AEIOUXZ")
    >>> _ = game.push_gcg("-AEI")
    >>> [(e.move, e.exchange_count, e.rack) for e in visible_events(game, 1)]
    [(None, 3, None)]
    """
    if game.state is GameState.OVER:
        return list(game.events)
    shown = []
    for event in game.events:
        if event.kind in END_OF_GAME:
            continue
        if seat is None or event.player != seat:
            event = dataclasses.replace(event, rack=None)
            if event.kind is EventKind.EXCHANGE and event.move is not None:
                event = dataclasses.replace(event, move=None, exchange_count=len(event.move.tiles))
        shown.append(event)
    return shown


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
class PlayerView:
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
    """One turn or adjustment in the move log, as the seat may see it."""

    player: int
    text: str
    """``8F HORN``, ``exchange 3``, ``pass``, ``withdrawn``..."""
    score: int
    total: int
    note: str = ""
    """What happened, in a sentence (:func:`event_note`)."""


@dataclass(frozen=True)
class SeatView:
    """The whole table as one seat (or an observer) sees it."""

    rows: int
    cols: int
    squares: tuple[SquareView, ...]
    """Row by row."""
    column_names: tuple[str, ...]
    players: tuple[PlayerView, ...]
    seat: int | None
    """The seat this view is for (``None``: an observer)."""
    rack: tuple[tuple[str, int], ...]
    """The seat's own rack: each tile's label (``?`` for a blank) and points
    (empty for an observer, and for a bot's seat)."""
    rack_text: str
    bag: int
    unseen: tuple[str, ...]
    """The tiles the seat cannot see (the bag and the other racks), as labels
    in tile order (``?`` for a blank); empty for an observer."""
    unseen_text: str
    unseen_count: int
    """How many tiles the seat cannot see (for an observer: the bag and every rack)."""
    unseen_vowels: int
    """Of the tiles the seat cannot see, the vowels, the blanks and the consonants (0 for an observer)."""
    unseen_blanks: int
    unseen_consonants: int
    events: tuple[Event, ...]
    """The game's events as the seat may see them (:func:`visible_events`)."""
    log: tuple[LogLine, ...]
    state: GameState
    turn: int | None
    """The seat whose action the game waits for (``None`` once it is over)."""
    scores: tuple[int, ...]
    """Each player's score; while the final challenge waits, before the racks are counted."""
    last_play: tuple[str, ...]
    """The squares the last play still on the board covers, by name (``H8``)."""
    racks: tuple[str, ...] | None = None
    """Every rack, once the game is over (``None`` before)."""
    result: str = ""
    """The result line once the game is over."""
    challengeable: str = ""
    """The play the seat may challenge now, as the front end words it (``bob's
    8F HORN (+14)``), or ``""``."""

    @property
    def over(self) -> bool:
        return self.state is GameState.OVER

    def square(self, row: int, col: int) -> SquareView:
        return self.squares[row * self.cols + col]

    def board_rows(self) -> list[list[str]]:
        """The board's rows, each a list of squares: ``""`` empty, else the
        tile's label (lower case for a blank)."""
        return [
            [s.label.lower() if s.blank else s.label for s in self.squares[row * self.cols : (row + 1) * self.cols]]
            for row in range(self.rows)
        ]

    def others_rack(self) -> str | None:
        """What the other racks hold, once the bag is empty (the tiles the seat
        cannot see are then theirs: tracking tells them); ``None`` before, and
        for an observer."""
        if self.seat is None or self.bag or self.over:
            return None
        return self.unseen_text

    def unseen_by_letter(self) -> dict[str, int]:
        """The tiles the seat cannot see, counted by label (``?`` blanks, last)."""
        return dict(Counter(self.unseen))


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


def seat_view(game: Game, seat: int | None, *, bots: Mapping[int, object] | Sequence[int] = ()) -> SeatView:
    """A snapshot of ``game`` for ``seat`` (``None``: an observer); ``bots``
    names the seats played by bots (their racks are never shown)."""
    layout, alphabet = game.layout, game.alphabet
    highlight = last_play_squares(game)
    marked = set(highlight)
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
                SquareView(alphabet.label(letter), blank, premium, square in marked, 0 if blank else alphabet.score(letter))
            )
    bot_seats = set(bots)
    state = game.state
    over = state is GameState.OVER
    targets = game.finish_targets
    turn = None if over else game.to_act
    players = tuple(
        PlayerView(
            name=p.name,
            score=p.score if over else score,
            bot=i in bot_seats,
            to_move=i == turn,
            target=targets[i] if targets is not None else None,
            tiles_on_rack=len(p.rack),
        )
        for (i, p), score in zip(enumerate(game.players), game.scores_before_adjustments(), strict=True)
    )
    rack: tuple[tuple[str, int], ...] = ()
    unseen: tuple[str, ...] = ()
    rack_text = unseen_text = ""
    vowels = blanks = consonants = 0
    if seat is not None:
        if seat not in bot_seats:
            tiles = game.rack(seat)
            rack = tuple((alphabet.label(t), alphabet.score(t)) for t in sorted(tiles, key=_rack_order))
            rack_text = alphabet.format_rack(tiles)
        hidden = game.unseen(seat)
        unseen = tuple(alphabet.label(t) for t in sorted(hidden, key=_rack_order))
        unseen_text = alphabet.format_rack(hidden)
        unseen_count = len(unseen)
        blanks = sum(1 for t in hidden if t == BLANK)
        vowels = sum(1 for t in hidden if t in alphabet.vowels)
        consonants = unseen_count - blanks - vowels
    else:
        unseen_count = len(game.bag) + sum(len(p.rack) for p in game.players)
    events = visible_events(game, seat)
    return SeatView(
        rows=layout.rows,
        cols=layout.cols,
        squares=tuple(squares),
        column_names=tuple(layout.column_name(c) for c in range(layout.cols)),
        players=players,
        seat=seat,
        rack=rack,
        rack_text=rack_text,
        bag=len(game.bag),
        unseen=unseen,
        unseen_text=unseen_text,
        unseen_vowels=vowels,
        unseen_blanks=blanks,
        unseen_consonants=consonants,
        unseen_count=unseen_count,
        events=tuple(events),
        log=tuple(log_lines(game, events)),
        state=state,
        turn=turn,
        scores=tuple(p.score for p in players),
        last_play=tuple(layout.square_name(s) for s in highlight),
        racks=tuple(alphabet.format_rack(p.rack) for p in game.players) if over else None,
        result=game.result_text() if over else "",
    )


def _rack_order(tile: Tile) -> int:
    """Letters in alphabet order, blanks last."""
    return 1 << 16 if tile == BLANK else tile


def log_lines(game: Game, events: Sequence[Event]) -> list[LogLine]:
    """The move log of these events (as a seat may see them): plays,
    exchanges by their number of tiles, passes, challenges and the end-of-game
    adjustments."""
    lines = []
    alphabet = game.alphabet
    for index, event in enumerate(events):
        text = event_summary(game, event)
        if event.kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY):
            text = f"{text} ({alphabet.format_rack(event.end_rack)})"
        lines.append(LogLine(event.player, text, event.score, event.total, event_note(game, events, index)))
    return lines


def event_note(game: Game, events: Sequence[Event], index: int) -> str:
    """What the event at ``index`` of ``events`` (as a seat may see them) did,
    in a sentence: the notice a front end shows of the others' turns.

    >>> from tilebag.game import Game
    >>> game = Game(["alice", "bob"], seed=1, first=0)
    >>> game.set_rack(0, "HNORXYZ")
    >>> _ = game.push_gcg("8F HORN")
    >>> _ = game.push_gcg("-")
    >>> [event_note(game, game.events, i) for i in range(2)]
    ['alice played 8F HORN for 14', 'bob passed']
    """
    event = events[index]
    name = game.players[event.player].name
    kind = event.kind
    alphabet = game.alphabet
    if kind is EventKind.PLACE and event.move is not None:
        bingo = len(event.move.placed()) >= game.rules.bingo_tiles
        return f"{name} played {event_summary(game, event)} for {event.score}{', a bingo' if bingo else ''}"
    if kind is EventKind.EXCHANGE:
        if event.move is not None:
            return f"{name} exchanged {alphabet.format_rack(event.move.tiles)}"
        count = event.exchange_count or 0
        return f"{name} exchanged {count} {'tile' if count == 1 else 'tiles'}"
    if kind is EventKind.PASS:
        return f"{name} passed"
    if kind is EventKind.TIME_OUT:
        return f"{name}'s time ran out: the turn is a pass"
    if kind is EventKind.WITHDRAWN:
        play = next((e for e in reversed(events[:index]) if e.kind is EventKind.PLACE and e.player == event.player), None)
        words = [alphabet.format_word(w) for w in (play.words if play is not None else ()) if w not in game.lexicon]
        what = f"{', '.join(words)} {'is' if len(words) == 1 else 'are'} not acceptable" if words else "the challenge is upheld"
        return f"{what}: {name}'s play comes off ({event.score})"
    if kind is EventKind.CHALLENGE:
        if event.score < 0:
            return f"the play stands: {name} loses {-event.score} points for the challenge"
        ends = any(e.kind in END_OF_GAME for e in events[index + 1 :])
        if game.rules.challenge.value == "double" and not ends:
            return f"the play stands: {name} loses a turn for the challenge"
        return f"the play stands: {name}'s challenge costs nothing"
    if kind is EventKind.END_RACK_POINTS:
        return f"{name} went out: +{event.score} for {alphabet.format_rack(event.end_rack) or 'the racks left'}"
    if kind is EventKind.END_RACK_PENALTY:
        return f"{name} kept {alphabet.format_rack(event.end_rack)}: {event.score}"
    if kind is EventKind.TIME_PENALTY:
        return f"{name} went over time: {event.score}"
    if kind is EventKind.RESIGN:
        return f"{name} resigned"
    return f"{name}: {event_summary(game, event)}"


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
