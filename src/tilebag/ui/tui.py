"""``tilebag play`` full screen: the board, racks, scores, bag and move log
drawn with Textual, moves typed or placed on the board with the keyboard.

The game itself is the same :class:`~tilebag.table.Table`, driven by the
same :class:`~tilebag.ui.session.Session`, as in line mode, run on a thread of its own: its console (:class:`ScreenConsole`)
hands it the lines typed in the command line at the bottom of the screen,
writes what it says into the message pane, and passes the snapshots of the
table it shows (:class:`~tilebag.view.SeatView`) to the widgets, which
draw them. So every rule, command, bot and timer works the same way in both
modes, and the bots think without freezing the screen.

Keys on the board (``Tab`` moves between the board and the command line):
the arrow keys move the cursor, a letter puts that tile from the rack on
the cursor's square (a letter the rack does not hold does nothing; ``?``
then a letter puts a blank), ``Space`` turns the direction between across and
down, ``Backspace`` takes the last tile back, ``Escape`` takes them all back
and ``Enter`` plays the word, written in GCG notation as if typed; the
keyboard then goes back to the command line. While the board has the keys,
its column letters are highlighted and the prompt line lists them.

The layout fits :data:`MIN_COLS` x :data:`MIN_ROWS` and up (compact below
:data:`COMPACT_ROWS` rows); a smaller terminal gets a notice instead of a
cut-off board.

>>> placement_text(_board(), [(7, 7, "H", False), (7, 8, "I", False)], down=False)
'8H HI'
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Input, RichLog, Static

from tilebag.rules import PRESETS, Rules
from tilebag.table import Table
from tilebag.ui.session import Console, Session
from tilebag.ui.tui_setup import SetupScreen, TableSetup
from tilebag.view import SeatView, SquareView

TableMaker = tuple[Rules, Callable[[Sequence[str], Sequence[str], Rules, bool], Table]]
"""The rules to offer first on the setup screen, and how to make a table
from the people's names, the bot kinds, the rules and practice mode chosen."""

Pending = tuple[int, int, str, bool]
"""A tile put on the board with the keyboard and not yet played: row,
column, letter, and whether it is a blank."""

PREMIUM_STYLES = {
    "TW": "bold white on #b03030",
    "DW": "bold black on #e8a0a8",
    "TL": "bold white on #2f5fb0",
    "DL": "black on #9cc8e8",
    "QW": "bold white on #702070",
    "QL": "bold white on #205050",
    "*": "bold black on #e8a0a8",
    "": "#6b6b6b on #1e3a2a",
}
"""Colours of the empty squares by premium."""

MIN_COLS, MIN_ROWS = 80, 24
"""The smallest terminal the full screen fits: board, rack, scores and the
last messages (below it the screen says so; ``--line`` plays anywhere)."""

COMPACT_ROWS = 34
"""Below this height the screen is laid out compactly: a one-line command
line, the unseen tiles counted rather than listed."""

BOARD_KEYS = "Board: arrows move, letters place (? then a letter: a blank), Space turns, Enter plays, Tab: command line"
"""What the prompt line says while the board has the keyboard."""

FOCUS_STYLE = "bold black on #f5b942"
TILE_STYLE = "bold black on #f0d9a0"
LAST_PLAY_STYLE = "bold black on #f5b942"
PENDING_STYLE = "bold black on #8fd18f"
CURSOR_STYLE = "bold white on #005fd7"


@dataclass(frozen=True)
class _BoardGeometry:
    """What :func:`placement_text` needs to know of the board."""

    rows: int
    cols: int
    filled: frozenset[tuple[int, int]]

    def occupied(self, row: int, col: int) -> bool:
        return (row, col) in self.filled

    def inside(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols


def _board(view: SeatView | None = None) -> _BoardGeometry:
    """The board's geometry from a view (an empty 15x15 board without one)."""
    if view is None:
        return _BoardGeometry(15, 15, frozenset())
    filled = frozenset((r, c) for r in range(view.rows) for c in range(view.cols) if view.square(r, c).label)
    return _BoardGeometry(view.rows, view.cols, filled)


def placement_text(board: _BoardGeometry, pending: Sequence[Pending], *, down: bool) -> str:
    """The GCG notation of tiles put on the board with the keyboard: the
    whole main word from its first square, ``.`` for each tile already on
    the board (the game checks the rest: one line, no gaps, words).

    >>> geometry = _BoardGeometry(15, 15, frozenset({(7, 7), (7, 8)}))
    >>> placement_text(geometry, [(7, 9, "S", False)], down=False)
    '8H ..S'
    >>> placement_text(geometry, [(6, 7, "a", True), (8, 7, "E", False)], down=True)
    'H7 a.E'
    """
    if not pending:
        return ""
    dr, dc = (1, 0) if down else (0, 1)
    placed = {(r, c): (letter.lower() if blank else letter.upper()) for r, c, letter, blank in pending}
    cells = sorted(placed, key=lambda rc: rc[0] * dr * 1000 + rc[1] * dc * 1000 + rc[0] + rc[1])
    row, col = cells[0]
    while board.inside(row - dr, col - dc) and board.occupied(row - dr, col - dc):
        row, col = row - dr, col - dc
    start = (row, col)
    letters = []
    last = cells[-1]
    while board.inside(row, col) and (
        (row, col) in placed or board.occupied(row, col) or _before(row, col, last, down)
    ):
        if (row, col) in placed:
            letters.append(placed[(row, col)])
        elif board.occupied(row, col):
            letters.append(".")
        else:
            break  # a gap: the game will say the tiles are not in one word
        row, col = row + dr, col + dc
    r0, c0 = start
    position = f"{chr(ord('A') + c0)}{r0 + 1}" if down else f"{r0 + 1}{chr(ord('A') + c0)}"
    return f"{position} {''.join(letters)}"


def _before(row: int, col: int, last: tuple[int, int], down: bool) -> bool:
    return (row < last[0]) if down else (col < last[1])


# -- widgets ----------------------------------------------------------------


class BoardWidget(Widget, can_focus=True):
    """The board: premium squares in colour, the last play highlighted, a
    cursor and the tiles being placed with the keyboard."""

    DEFAULT_CSS = """
    BoardWidget { width: 50; height: 16; }
    BoardWidget:focus { border: none; }
    """

    class Placed(Message):
        """The player pressed Enter on the board: play this text."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Changed(Message):
        """The tiles being placed changed (the rack shows what is left)."""

    def __init__(self) -> None:
        super().__init__()
        self.view: SeatView | None = None
        self.cursor = (7, 7)
        self.down = False
        self.pending: list[Pending] = []
        self.blank_next = False

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def show(self, view: SeatView) -> None:
        if self.view is None or view.rows != self.view.rows:
            self.cursor = (view.rows // 2, view.cols // 2)
        changed_board = self.view is None or self.view.squares != view.squares or self.view.seat != view.seat
        self.view = view
        if changed_board and self.pending:
            self.clear_pending()
        self.refresh()

    def clear_pending(self) -> None:
        self.pending = []
        self.blank_next = False
        self.post_message(self.Changed())
        self.refresh()

    def render(self) -> Text:
        view = self.view
        text = Text()
        if view is None:
            return text
        placed = {(r, c): (letter, blank) for r, c, letter, blank in self.pending}
        focused = self.has_focus
        header = FOCUS_STYLE if focused else "bold"
        text.append("   ", style=header)
        for name in view.column_names:
            text.append(f" {name} ", style=header)
        text.append("\n")
        for r in range(view.rows):
            text.append(f"{r + 1:>2} ", style="bold")
            for c in range(view.cols):
                cell, style = self._cell(view.square(r, c), placed.get((r, c)))
                if focused and (r, c) == self.cursor:
                    style = CURSOR_STYLE
                    if not cell.strip():
                        cell = " ↓ " if self.down else " → "
                text.append(cell, style=style)
            if r < view.rows - 1:
                text.append("\n")
        return text

    @staticmethod
    def _cell(square: SquareView, pending: tuple[str, bool] | None) -> tuple[str, str]:
        if pending is not None:
            letter, blank = pending
            return f" {letter.lower() if blank else letter.upper()} ", PENDING_STYLE
        if square.label:
            label = square.label.lower() if square.blank else square.label
            return f" {label:<2}"[:3], LAST_PLAY_STYLE if square.last else TILE_STYLE
        premium = square.premium
        shown = {"*": " ★ ", "": " · "}.get(premium, f"{premium:^3}")
        return shown, PREMIUM_STYLES.get(premium, PREMIUM_STYLES[""])

    # -- keyboard placement -------------------------------------------------

    def rack_left(self) -> list[str]:
        """The rack's tiles not yet put on the board."""
        left = [label for label, _ in (self.view.rack if self.view else ())]
        for _, _, letter, blank in self.pending:
            used = "?" if blank else letter.upper()
            if used in left:
                left.remove(used)
        return left

    def on_key(self, event: events.Key) -> None:
        view = self.view
        if view is None:
            return
        key = event.key
        r, c = self.cursor
        moves = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
        if key in moves:
            dr, dc = moves[key]
            self.cursor = (min(max(r + dr, 0), view.rows - 1), min(max(c + dc, 0), view.cols - 1))
        elif key == "space":
            self.down = not self.down
        elif key == "backspace":
            if self.pending:
                pr, pc, _, _ = self.pending.pop()
                self.cursor = (pr, pc)
                self.post_message(self.Changed())
        elif key == "escape":
            if self.pending:
                self.clear_pending()
                event.stop()
            return
        elif key == "enter":
            if self.pending:
                text = placement_text(_board(view), self.pending, down=self.down)
                self.clear_pending()
                self.post_message(self.Placed(text))
        elif event.character == "?":
            self.blank_next = True
        elif event.character is not None and event.character.isalpha() and len(event.character) == 1:
            self.put(event.character.upper())
        else:
            return
        event.stop()
        self.refresh()

    def put(self, letter: str) -> None:
        """Put a tile for ``letter`` on the cursor's square and move on."""
        view = self.view
        assert view is not None
        r, c = self.cursor
        if view.square(r, c).label or any((r, c) == (p[0], p[1]) for p in self.pending):
            self.app.bell()
            return
        left = self.rack_left()
        blank = self.blank_next
        if (blank and "?" not in left) or (not blank and letter not in left):
            # A letter the rack does not hold does nothing: a blank is spent
            # only when asked for (? first), never to cover a typing slip.
            self.app.bell()
            return
        self.blank_next = False
        self.pending.append((r, c, letter, blank))
        self.post_message(self.Changed())
        dr, dc = (1, 0) if self.down else (0, 1)
        nr, nc = r + dr, c + dc
        while 0 <= nr < view.rows and 0 <= nc < view.cols and view.square(nr, nc).label:
            nr, nc = nr + dr, nc + dc
        if 0 <= nr < view.rows and 0 <= nc < view.cols:
            self.cursor = (nr, nc)


class RackWidget(Static):
    """The keyboard player's rack, tiles with their points; tiles already
    put on the board are shown dimmed."""

    DEFAULT_CSS = "RackWidget { height: 1; width: 50; }"

    def show(self, rack: Sequence[tuple[str, int]], used: Sequence[str], name: str) -> None:
        text = Text(f"{name}: ", style="bold")
        left = list(used)
        if not rack:
            text.append("(no tiles to show)", style="dim")
        for label, points in rack:
            if label in left:
                left.remove(label)
                text.append(f" {label}{_subscript(points)}", style="dim strike")
            else:
                text.append(f" {label}{_subscript(points)} ", style=TILE_STYLE)
            text.append(" ")
        self.update(text)


def _subscript(points: int) -> str:
    return "".join("₀₁₂₃₄₅₆₇₈₉"[int(d)] for d in str(points))


class ScoresWidget(Static):
    DEFAULT_CSS = "ScoresWidget { height: auto; border: round #666666; padding: 0 1; }"

    brief = False
    """Count the unseen tiles rather than list them (a small screen; F3 lists them)."""

    def show(self, view: SeatView) -> None:
        text = Text()
        width = max(len(seat.name) for seat in view.players)
        for i, seat in enumerate(view.players):
            marker = "▶ " if seat.to_move else "  "
            style = "bold" if seat.to_move else ""
            text.append(f"{marker}{seat.name:<{width}}", style=style)
            text.append(f"  {seat.score:>4}", style="bold")
            if seat.target is not None:
                text.append(f" / {seat.target} to win", style="dim")
            if i < len(view.players) - 1:
                text.append("\n")
        text.append(f"\n\nBag: {view.bag} tile{'s' if view.bag != 1 else ''}")
        if self.brief:
            text.append(f"  Unseen: {len(view.unseen)} (F3)", style="bold")
        else:
            text.append(f"    Unseen ({len(view.unseen)}): ", style="bold")
            text.append(group_letters(view.unseen) or "none")
        if view.over and view.result:
            text.append(f"\n\n{view.result}", style="bold")
        self.update(text)


def group_letters(tiles: Sequence[str]) -> str:
    """Sorted tile labels grouped by letter, for reading at a glance.

    >>> group_letters("AAABCCE??")
    'AAA B CC E ??'
    >>> group_letters(["CH", "CH", "LL"])
    'CHCH LL'
    """
    groups: list[list[str]] = []
    for label in tiles:
        if groups and groups[-1][-1] == label:
            groups[-1].append(label)
        else:
            groups.append([label])
    return " ".join("".join(group) for group in groups)


class MovesWidget(RichLog):
    """The move log: each turn's play, score and running total."""

    DEFAULT_CSS = "MovesWidget { border: round #666666; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, min_width=1)  # drawn to the pane's width, not a 78-column minimum

    def on_mount(self) -> None:
        self.anchor()  # the latest turn stays in view as the pane is laid out again

    def show(self, view: SeatView) -> None:
        self.clear()
        names = [seat.name for seat in view.players]
        width = max(len(n) for n in names)
        for n, line in enumerate(view.log, 1):
            self.write(Text(f"{n:>3}. {names[line.player]:<{width}} {line.text:<20} {line.score:+4d} {line.total:4d}"))


class MessagesWidget(RichLog):
    """What the game says, wrapped to the pane's width, and wrapped again
    when the terminal is resized (a plain log wraps at 78 columns whatever
    its width, cutting off what does not fit)."""

    DEFAULT_CSS = "MessagesWidget { border: round #666666; height: 1fr; }"
    KEEP = 500
    """Messages kept for wrapping again."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, min_width=1)
        self.said: list[Text] = []
        self._width = 0

    def on_mount(self) -> None:
        # Kept at the latest message however the layout settles: a scroll to
        # the end asked for before the pane's final size is known stopped
        # short, leaving the last lines ("You to move") out of view.
        self.anchor()

    def say(self, text: Text) -> None:
        self.said.append(text)
        del self.said[: -self.KEEP]
        self.write(text)

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if self._width and width != self._width:
            self.clear()
            for text in self.said:
                self.write(text, scroll_end=True)
        self._width = width
        super().on_resize(event)


# -- the console between the session and the screen ---------------------------


class ScreenConsole(Console):
    """The session's console on the full screen: lines come from the command
    line (or the board), what is said goes to the message pane, and the
    table is drawn from each snapshot. Used from the session's thread."""

    full_screen = True

    def __init__(self, app: GameApp) -> None:
        self.app = app
        self.echo = False
        self.lines: queue.Queue[str | None] = queue.Queue()

    def read(self, prompt: str) -> str | None:
        self.app.call_from_thread(self.app.ask, prompt)
        line = self.lines.get()
        if line is not None:
            self.app.call_from_thread(self.app.write, f"{prompt.strip()} {line}")
        return line

    def say(self, text: str = "") -> None:
        self.app.call_from_thread(self.app.write, text)

    def show(self, view: SeatView) -> None:
        self.app.call_from_thread(self.app.show_view, view)


class GameApp(App[int]):
    """The full-screen game."""

    TITLE = "tilebag"
    CSS = """
    Screen { layout: vertical; }
    #top { height: 1fr; }
    #left { width: 52; padding: 0 1; }
    #right { width: 1fr; }
    #moves { height: 1fr; min-height: 3; }
    #offer { height: auto; background: #7a5c00; color: white; padding: 0 1; display: none; }
    #offer.shown { display: block; }
    #prompt { height: 1; padding: 0 1; color: #9cc8e8; }
    #prompt.board { background: #f5b942; color: black; }
    #command { height: 3; }
    .compact #command { height: 1; border: none; padding: 0 1; }
    .compact #moves { min-height: 0; }
    .compact #offer.shown { display: none; }
    """
    BINDINGS = [
        Binding("tab", "switch_focus", "Board/command line", priority=True),
        Binding("f1", "send('help')", "Help"),
        Binding("f2", "send('hint')", "Hint"),
        Binding("f3", "send('bag')", "Unseen"),
        Binding("ctrl+z", "send('undo')", "Undo"),
        Binding("ctrl+q", "quit_game", "Quit", priority=True),
    ]

    def __init__(
        self,
        table: Table | None,
        *,
        save_path: str | None = None,
        practice: bool = False,
        setup: TableMaker | None = None,
        resumed_from: str | None = None,
    ) -> None:
        super().__init__()
        self.game_console = ScreenConsole(self)
        self.save_path = save_path
        self.practice = practice
        self.setup = setup
        self.session: Session | None = None
        if table is not None:
            self.session = Session(table, self.game_console, save_path=save_path, resumed_from=resumed_from)
        self.waiting = False
        self.finished = False
        self.leaving = False
        self.prompt = ""
        self.status = 0
        self.view: SeatView | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield BoardWidget()
                yield RackWidget()
                yield MovesWidget(id="moves")
            with Vertical(id="right"):
                yield ScoresWidget()
                yield MessagesWidget(id="messages")
        yield Static(id="offer")
        yield Static("", id="prompt")
        yield Input(placeholder="a move (8F HORN, H6 FA.M, -ABC to exchange, - to pass) or a command (help)", id="command")
        yield Footer()

    def on_mount(self) -> None:
        self.fit(self.size.width, self.size.height)
        if self.session is not None:
            self.begin()
        elif self.setup is not None:
            self.push_screen(SetupScreen(self.setup[0]), callback=self.start)

    # -- the screen's size ---------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, cols: int, rows: int) -> None:
        """Lay the screen out for its size: compact on a small terminal, and
        below :data:`MIN_COLS` x :data:`MIN_ROWS` a notice instead of a cut
        board (taken away again when the terminal grows)."""
        compact = rows < COMPACT_ROWS
        self.set_class(compact, "compact")
        scores = self.query(ScoresWidget)
        if scores and scores.first().brief != compact:
            scores.first().brief = compact
            if self.view is not None:
                scores.first().show(self.view)
        small = cols < MIN_COLS or rows < MIN_ROWS
        if any(isinstance(screen, TooSmallScreen) for screen in self.screen_stack[:-1]):
            return  # under a question asked meanwhile: seen to when it is answered
        notice = self.screen if isinstance(self.screen, TooSmallScreen) else None
        if small and notice is None:
            self.push_screen(TooSmallScreen(cols, rows))
        elif small and notice is not None:
            notice.show_size(cols, rows)
        elif notice is not None:
            self.pop_screen()

    def start(self, chosen: TableSetup | None) -> None:
        """Make the game the first screen chose, and begin."""
        assert self.setup is not None and chosen is not None
        default_rules, make = self.setup
        rules = default_rules if chosen.rules == default_rules.name else PRESETS[chosen.rules]
        table = make(chosen.people, chosen.bots, rules, self.practice or chosen.practice)
        self.session = Session(table, self.game_console, save_path=self.save_path)
        self.begin()

    def begin(self) -> None:
        """Start the session on its own thread."""
        self.query_one("#command", Input).focus()
        threading.Thread(target=self._run_session, name="tilebag-session", daemon=True).start()

    def _run_session(self) -> None:
        assert self.session is not None
        try:
            status = self.session.run()
        except Exception as err:  # shown, not lost behind the full screen
            self.call_from_thread(self.write, f"Internal error: {err!r}")
            status = 1
        self.call_from_thread(self.session_ended, status)

    # -- from the session thread ------------------------------------------

    def ask(self, prompt: str) -> None:
        self.waiting = True
        self.prompt = prompt.strip()
        self.show_prompt()

    def show_prompt(self) -> None:
        """The prompt line: the session's question, or while the board has
        the keyboard, the board's keys (so the screen says where typing goes)."""
        on_board = self.query_one(BoardWidget).has_focus
        line = self.query_one("#prompt", Static)
        line.set_class(on_board, "board")
        line.update(Text(BOARD_KEYS if on_board else self.prompt, style="bold"))

    def on_descendant_focus(self, _: events.DescendantFocus) -> None:
        self.show_prompt()

    def on_descendant_blur(self, _: events.DescendantBlur) -> None:
        self.show_prompt()

    def write(self, text: str) -> None:
        self.query_one(MessagesWidget).say(Text(text))

    def show_view(self, view: SeatView) -> None:
        self.view = view
        board = self.query_one(BoardWidget)
        board.show(view)
        self.query_one(ScoresWidget).show(view)
        self.query_one(MovesWidget).show(view)
        self._show_rack()
        offer = self.query_one("#offer", Static)
        if view.challengeable and not view.over:
            offer.update(f"Challenge {view.challengeable}? c challenges; your move accepts it.")
        offer.set_class(bool(view.challengeable and not view.over), "shown")

    def _show_rack(self) -> None:
        view = self.view
        if view is None:
            return
        board = self.query_one(BoardWidget)
        used = ["?" if blank else letter.upper() for _, _, letter, blank in board.pending]
        name = view.players[view.seat].name if view.seat is not None else ""
        self.query_one(RackWidget).show(view.rack, used, f"{name}'s rack" if name != "You" else "Your rack")

    def session_ended(self, status: int) -> None:
        self.finished = True
        self.status = status
        self.waiting = False
        if self.leaving:
            self.exit(status)
            return
        self.query_one("#offer", Static).remove_class("shown")
        self.prompt = "The game is over. Press Enter or Ctrl+Q to leave."
        self.query_one("#command", Input).focus()
        self.show_prompt()
        self.write("The game is over. Press Enter or Ctrl+Q to leave.")

    # -- input ---------------------------------------------------------------

    def on_input_submitted(self, message: Input.Submitted) -> None:
        text = message.value
        message.input.value = ""
        if self.finished:
            self.exit(self.status)
            return
        self.submit(text)

    def on_board_widget_placed(self, message: BoardWidget.Placed) -> None:
        """A play made on the board: sent, and the keyboard goes back to the
        command line (what is typed next is a command, not more tiles)."""
        self.query_one("#command", Input).focus()
        self.submit(message.text)

    def on_board_widget_changed(self, _: BoardWidget.Changed) -> None:
        self._show_rack()

    def submit(self, text: str) -> None:
        """Hand one line to the session: at once when it is waiting for one,
        else as soon as it asks (a line typed while a bot thinks is kept)."""
        if self.finished:
            self.exit(self.status)
            return
        if not self.waiting:
            self.write(f"(kept until your turn: {text.strip()})")
        self.waiting = False
        self.game_console.lines.put(text.strip())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The game's keys are off (and out of the footer) until a game starts."""
        if self.session is None and action in ("send", "switch_focus"):
            return False
        return True

    def action_send(self, command: str) -> None:
        self.submit(command)

    def action_switch_focus(self) -> None:
        board = self.query_one(BoardWidget)
        if board.has_focus:
            self.query_one("#command", Input).focus()
        else:
            board.focus()
        board.refresh()

    def unsaved_moves(self) -> int:
        """Moves that leaving now would lose: none when the game is over or
        is saved on leaving (``--save``, or a resumed game's own file)."""
        if self.session is None or self.finished or self.save_path is not None:
            return 0
        return len(self.session.game.move_stack)

    def action_quit_game(self) -> None:
        """Stop the game (the record is written if asked), then leave; with
        moves that are not saved, after asking."""
        if self.finished or self.session is None:
            self.exit(self.status)
            return
        if isinstance(self.screen, QuitScreen):
            return
        moves = self.unsaved_moves()
        if moves:
            self.push_screen(QuitScreen(moves), callback=self._quit_answered)
            return
        self.stop_game()

    def _quit_answered(self, leave: bool | None) -> None:
        if leave:
            self.stop_game()
        else:
            self.fit(self.size.width, self.size.height)  # resized while asked?

    def stop_game(self) -> None:
        self.leaving = True
        if not self.waiting:
            self.write("(the game stops after the bot's move)")
        self.waiting = False
        self.game_console.lines.put("quit")


class TooSmallScreen(ModalScreen[None]):
    """Shown instead of the game while the terminal is smaller than
    :data:`MIN_COLS` x :data:`MIN_ROWS`; taken away when it grows."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; }
    TooSmallScreen Static { width: 100%; height: auto; content-align: center middle; text-align: center; }
    """

    def __init__(self, cols: int, rows: int) -> None:
        super().__init__()
        self.cols, self.rows = cols, rows

    def compose(self) -> ComposeResult:
        yield Static(self.notice())

    def notice(self) -> str:
        return (
            f"The terminal is too small (needs {MIN_COLS}×{MIN_ROWS}, it is {self.cols}×{self.rows}).\n"
            "Make the window larger to go on, or quit with Ctrl+Q and play with --line."
        )

    def show_size(self, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self.query_one(Static).update(self.notice())


class QuitScreen(ModalScreen[bool]):
    """Ctrl+Q in a game whose moves are not saved: leave anyway?"""

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen Static { width: 60; max-width: 100%; height: auto; border: round #f5b942; padding: 1 2; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "Leave"),
        Binding("n,escape", "answer(False)", "Go on playing"),
    ]

    def __init__(self, moves: int) -> None:
        super().__init__()
        self.moves = moves

    def compose(self) -> ComposeResult:
        moves = "its move is" if self.moves == 1 else f"its {self.moves} moves are"
        yield Static(
            f"Leave the game? {moves.capitalize()} not saved (start with --save FILE to keep a game).\n\n"
            "Press y to leave, n or Escape to go on playing (save FILE saves it now)."
        )

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)


def run_full_screen(
    table: Table | None,
    *,
    save_path: str | None = None,
    practice: bool = False,
    setup: TableMaker | None = None,
    resumed_from: str | None = None,
) -> int:
    """Play the game at ``table`` full screen until it ends and the player
    leaves; the exit status. Without a game, the first screen asks who plays and by
    which rules (``setup``: the rules to offer first, and how to make the
    game from the choices)."""
    app = GameApp(table, save_path=save_path, practice=practice, setup=setup, resumed_from=resumed_from)
    status = app.run()
    return int(status if status is not None else app.status)
