"""The full screen's log panes, driven in Textual's test harness."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tilebag.ui.tui import MessagesWidget, MovesWidget


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
