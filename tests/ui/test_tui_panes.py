"""The full screen's log panes, driven in Textual's test harness."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tilebag.game import Game
from tilebag.ui.tui import BoardWidget, MessagesWidget, MovesWidget
from tilebag.view import SeatView, seat_view


class _Panes(App[None]):
    """A pane above the logs that grows, as the score panel does when the
    bag's line wraps."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("scores", id="above")
            yield MovesWidget(id="moves")
            yield MessagesWidget(id="messages")


def test_the_last_message_stays_in_view_when_the_pane_above_grows() -> None:
    """A pane that only got shorter kept its scroll position, so the last
    lines (such as "You to move") went below its edge."""

    async def run() -> tuple[float, int]:
        app = _Panes()
        async with app.run_test(size=(40, 24)) as pilot:
            messages = app.query_one(MessagesWidget)
            for n in range(40):
                messages.say(Text(f"message {n}"))
            await pilot.pause()
            app.query_one("#above", Static).update("scores\nbag\nunseen\nmore")
            await pilot.pause()
            await pilot.pause()
            return messages.scroll_y, messages.max_scroll_y

    scroll_y, max_scroll_y = asyncio.run(run())
    assert max_scroll_y > 0
    assert scroll_y == max_scroll_y


class _Board(App[None]):
    """The board alone, showing a seat's view of a fresh game."""

    def __init__(self, view: SeatView) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        yield BoardWidget()

    def on_mount(self) -> None:
        board = self.query_one(BoardWidget)
        board.show(self.view)
        board.focus()


def test_a_letter_not_on_the_rack_places_nothing_and_spends_no_blank() -> None:
    """Typing a letter the rack does not hold once put a blank down for it,
    which cost a turn on a phony; a blank is used only after ``?``."""
    view = next(v for v in (seat_view(Game(["ann", "ben"], seed=s, first=0), 0) for s in range(500))
                if "?" in [label for label, _ in v.rack])
    rack = [label for label, _ in view.rack]
    held = next(label for label in rack if label != "?")
    missing = next(letter for letter in "QZXJKVWYFBHMPCGDULSTNRIOAE" if letter not in rack)

    async def run() -> list[tuple[list[object], list[str]]]:
        app = _Board(view)
        steps = []
        async with app.run_test(size=(60, 20)) as pilot:
            board = app.query_one(BoardWidget)
            await pilot.press(missing.lower())
            steps.append((list(board.pending), board.rack_left()))
            await pilot.press(held.lower())
            steps.append((list(board.pending), board.rack_left()))
            await pilot.press("question_mark", missing.lower())
            steps.append((list(board.pending), board.rack_left()))
        return steps

    (after_missing, left_1), (after_held, left_2), (after_blank, left_3) = asyncio.run(run())
    assert after_missing == [] and sorted(left_1) == sorted(rack), "the missing letter placed nothing"
    assert after_held == [(7, 7, held, False)]
    assert after_blank[-1] == (7, 8, missing, True), "? then the letter puts the blank down as that letter"
    assert left_3.count("?") == rack.count("?") - 1
