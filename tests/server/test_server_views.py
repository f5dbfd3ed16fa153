"""What each seat may see of a game, decided once (``views.visible_events``)
for the views and the record alike: in games of 2, 3 and 4 seats played to
the final challenge, no rack but the seat's own, and none of the end-of-game
counts, until the game is over."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("sqlalchemy", reason="the server's views need the server extra")

from tilebag.engine.bots import make_bot  # noqa: E402
from tilebag.formats import gcg  # noqa: E402
from tilebag.game import GameState  # noqa: E402
from tilebag.move import MoveKind  # noqa: E402
from tilebag.server.room import Room  # noqa: E402
from tilebag.server.rooms import Rooms  # noqa: E402
from tilebag.server.service import GameService  # noqa: E402
from tilebag.server.store import Store  # noqa: E402
from tilebag.server.views import record_of, view  # noqa: E402

END_LINE = re.compile(r"^>[^:]+: (?:\S+ )?\([A-Z?]*\) [+-]\d+ -?\d+$")
"""A record line counting a rack at the end: ``>b: (OS) +4 417`` or ``>a: OS (OS) -2 380``."""


def to_final_challenge(seats: int, seed: int) -> Room:
    """A game of people (each playing as the static bot would) up to the final challenge."""
    rooms = GameService(Rooms(Store("sqlite://")))
    room, _ = rooms.create([{"name": f"p{i}"} for i in range(seats)], {}, seed, bots=False)
    bot = make_bot("static", "coach")
    for _ in range(200):
        game = room.game
        if game.state is not GameState.PLAYING:
            break
        move = bot.choose(game)
        text = game.notation(move) if move.kind is MoveKind.PLACE else move.gcg(game.alphabet, game.layout)
        rooms.act(room, room.table.seat_to_act(), text, bots=False)
    assert room.game.state is GameState.FINAL_CHALLENGE, room.game.state
    return room


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_before_the_final_challenge_is_settled_nobody_sees_another_rack(seats: int) -> None:
    room = to_final_challenge(seats, seed={2: 4, 3: 33, 4: 44}[seats])
    racks = [room.game.alphabet.format_rack(room.game.rack(i)) for i in range(seats)]
    assert any(len(rack) >= 2 for rack in racks)  # someone holds tiles that must stay hidden
    for seat in [None, *range(seats)]:
        written = gcg.dumps(record_of(room, seat))
        assert not [line for line in written.splitlines() if END_LINE.match(line)], written
        shown = view(room, seat)
        assert "racks" not in shown and shown["scores"] == list(room.game.scores_before_adjustments())
        for event in shown["events"]:  # type: ignore[attr-defined]
            assert "end_rack" not in event and ("rack" not in event or event["seat"] == seat)
        for other, rack in enumerate(racks):
            if other != seat and len(rack) >= 2:
                assert f": {rack} " not in written  # no rack line of another seat's
    room.table.accept(room.table.seat_to_act())  # the end accepted: now everything is shown
    whole = gcg.dumps(record_of(room, None))
    assert [line for line in whole.splitlines() if END_LINE.match(line)]
    assert view(room, None)["racks"] == racks
