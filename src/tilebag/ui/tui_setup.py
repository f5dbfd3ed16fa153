"""The full-screen game's first screen: who sits at the table and by which
rules, for ``tilebag play`` started with no names and no bots.

Up to four seats, each a person at this keyboard (with a name) or a bot
of one of the kinds in :data:`tilebag.engine.bots.BOTS`; a rules preset; and
practice mode. :func:`table_choice` turns the choices into the names and
bot kinds :func:`tilebag.ui.seats.new_table` takes, or says what is wrong.

>>> table_choice([("person", "Ann"), ("static", ""), ("none", ""), ("none", "")], "standard")
(['Ann'], ['static'])
>>> table_choice([("none", ""), ("none", ""), ("none", ""), ("none", "")], "standard")
Traceback (most recent call last):
...
tilebag.ui.seats.SetupError: no seats: choose a person or a bot for one seat at least
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from tilebag.engine.bots import BOTS, describe_bot
from tilebag.rules import PRESET_HELP, PRESETS, Rules
from tilebag.table import bot_names
from tilebag.ui.seats import SetupError

SEATS = 4
PERSON = "person"
NOBODY = "none"


@dataclass(frozen=True)
class TableSetup:
    """What the first screen chose."""

    people: list[str]
    bots: list[str]
    rules: str
    practice: bool


def table_choice(seats: Sequence[tuple[str, str]], rules: str) -> tuple[list[str], list[str]]:
    """The people's names and the bots' kinds from each seat's (kind, name).

    :raises SetupError: with no seats, too many or too few for the rules,
        an empty or repeated name.
    """
    people = [" ".join(name.split()) for kind, name in seats if kind == PERSON]
    bots = [kind for kind, _ in seats if kind not in (PERSON, NOBODY)]
    if not people and not bots:
        raise SetupError("no seats: choose a person or a bot for one seat at least")
    if any(not name for name in people):
        raise SetupError("every person needs a name")
    preset = PRESETS[rules]
    total = len(people) + len(bots)
    if not preset.min_players <= total <= preset.max_players:
        raise SetupError(f"{total} seats: a game takes {preset.min_players} to {preset.max_players} players")
    names = [n.casefold() for n in people + bot_names(bots)]
    if len(set(names)) != len(names):
        raise SetupError("two seats have the same name")
    return people, bots


class SetupScreen(Screen[TableSetup]):
    """Choose the seats, the rules and practice mode, then start."""

    CSS = """
    SetupScreen { align: center middle; }
    #setup {
        width: 96; max-width: 100%; height: auto; max-height: 100%; overflow-y: auto;
        border: round #5f87af; padding: 1 2;
    }
    .seat { height: 3; }
    .seat Select { width: 1fr; }
    .seat Input { width: 28; }
    .seat Label { width: 10; padding: 1 0; }
    #rules { width: 40; }
    #rules-help { padding: 1 1; height: 3; color: #9cc8e8; }
    #error { color: #ff5f5f; height: 2; }
    #bots-help { color: #9cc8e8; padding: 0 0 1 0; }
    #buttons { height: 3; }
    """
    BINDINGS = [Binding("ctrl+q", "app.quit", "Quit"), Binding("ctrl+s", "start", "Start")]

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__()
        self.default_rules = rules.name if rules is not None and rules.name in PRESETS else "standard"

    def compose(self) -> ComposeResult:
        kinds = [("Person at this keyboard", PERSON)]
        kinds += [(f"{kind.capitalize()} bot", kind) for kind in BOTS]
        kinds.append(("(no one)", NOBODY))
        defaults = [(PERSON, "You"), ("static", ""), (NOBODY, ""), (NOBODY, "")]
        with Vertical(id="setup"):
            yield Static("[b]tilebag[/b]: a new game. Choose who plays (1 to 4 seats) and the rules.")
            for i, (kind, name) in enumerate(defaults[:SEATS]):
                with Horizontal(classes="seat"):
                    yield Label(f"Seat {i + 1}")
                    yield Select(kinds, value=kind, allow_blank=False, id=f"kind{i}")
                    yield Input(value=name, placeholder="name (for a person)", id=f"name{i}")
            yield Static("\n".join(f"  {kind.capitalize()} bot: {_about(kind)}" for kind in BOTS), id="bots-help")
            with Horizontal(classes="seat"):
                yield Label("Rules")
                yield Select(
                    [(name, name) for name in PRESETS], value=self.default_rules, allow_blank=False, id="rules"
                )
            yield Static(PRESET_HELP.get(self.default_rules, ""), id="rules-help")
            yield Checkbox("Practice mode: hints, word lookups and reviews of your moves", id="practice")
            yield Static("", id="error")
            with Horizontal(id="buttons"):
                yield Button("Start the game", variant="primary", id="start")
                yield Button("Quit", id="quit")
        yield Footer()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "rules":
            self.query_one("#rules-help", Static).update(PRESET_HELP.get(str(event.value), ""))
        elif event.select.id and event.select.id.startswith("kind"):
            name = self.query_one(f"#name{event.select.id[4:]}", Input)
            name.disabled = event.value != PERSON
            if event.value == PERSON and not name.value:
                name.value = "You" if not self._people_named() else ""

    def _people_named(self) -> list[str]:
        return [
            self.query_one(f"#name{i}", Input).value
            for i in range(SEATS)
            if self.query_one(f"#kind{i}", Select).value == PERSON and self.query_one(f"#name{i}", Input).value
        ]

    def on_mount(self) -> None:
        for i in range(SEATS):
            self.query_one(f"#name{i}", Input).disabled = self.query_one(f"#kind{i}", Select).value != PERSON
        self.query_one("#start", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "quit":
            self.app.exit(0)
        else:
            self.action_start()

    def action_start(self) -> None:
        seats = [
            (str(self.query_one(f"#kind{i}", Select).value), self.query_one(f"#name{i}", Input).value)
            for i in range(SEATS)
        ]
        rules = str(self.query_one("#rules", Select).value)
        try:
            people, bots = table_choice(seats, rules)
        except SetupError as err:
            self.query_one("#error", Static).update(f"Cannot start: {err}.")
            return
        practice = self.query_one("#practice", Checkbox).value
        self.dismiss(TableSetup(people, bots, rules, practice))


def _about(kind: str) -> str:
    """What a bot kind is like, in a few words."""
    return describe_bot(kind).removeprefix(f"{kind}: ")
