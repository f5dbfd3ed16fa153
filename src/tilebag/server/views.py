"""What each client may see of a game, as JSON data.

A seat's view holds its own rack and no other; an observer's holds no rack
(the count of unseen tiles only); once the game is over everything is
shown. Events are told the same way, by one rule (:func:`visible_events`)
that the views and the game's record both go through: an exchange is a count
of tiles to everyone but the seat that made it, no event holds another's
rack, and the end-of-game counts wait for the end. Nothing here reads a
token: the room has said which seat asks.
"""

from __future__ import annotations

import dataclasses
import json

from tilebag.formats import cgp
from tilebag.game import GameState
from tilebag.record import Event, EventKind, GameRecord
from tilebag.server.rooms import Room
from tilebag.table import (
    Challenged,
    EndAccepted,
    GameEnded,
    Played,
    TableEvent,
    TimeUp,
)

STATUS = {GameState.PLAYING: "playing", GameState.FINAL_CHALLENGE: "final-challenge", GameState.OVER: "over"}

END_OF_GAME = frozenset({EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY, EventKind.TIME_PENALTY})
"""The counts made when the game ends: shown once it is over (the final challenge may still take the end back)."""


def visible_events(room: Room, seat: int | None) -> list[Event]:
    """The game's events as ``seat`` may see them (``None``: an observer):
    the one rule the views and the record of a game go through.

    Once the game is over, everything. Before: no rack but the seat's own,
    another seat's exchange as its count of tiles, and none of the
    end-of-game counts, which wait for the final challenge (with three or
    four players, each rack's value would tell what it holds).
    """
    game = room.game
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


def record_of(room: Room, seat: int | None) -> GameRecord:
    """The game's record as ``seat`` may see it (see :func:`visible_events`):
    whole once the game is over; before, with no rack but the seat's own."""
    record = room.game.record()
    if room.game.state is not GameState.OVER:
        record.events = visible_events(room, seat)
        record.final_racks = {}
    return record


def board_field(room: Room) -> str:
    """The CGP board field: rows joined by ``/``, digits for empty runs, lower case for blanks."""
    game = room.game
    position = cgp.position_from(game.board, [[], []], [0, 0])
    return cgp.dumps(position).split(" ", 1)[0]


def view(room: Room, seat: int | None) -> dict[str, object]:
    """The game as ``seat`` sees it (``None``: an observer)."""
    game = room.game
    table = room.table
    over = game.state is GameState.OVER
    alphabet = game.alphabet
    data: dict[str, object] = {
        "id": room.game_id,
        "seq": room.seq,
        "status": STATUS[game.state],
        "board": board_field(room),
        "scores": game.scores if over else list(game.scores_before_adjustments()),
        "turn": None if over else table.seat_to_act(),
        "bag": len(game.bag),
        "seats": [
            {"seat": row.seat, "name": row.name, "kind": row.kind, "bot": row.bot, "tiles": len(game.rack(row.seat))}
            for row in room.seats
        ],
        "you": seat,
        "rules": {"name": game.rules.name, "options": game.rules.describe()},
        "clocks": _clocks(room),
        "events": events_of(room, seat),
        "chat": [{"seq": c.seq, "seat": c.seat, "name": c.name, "text": c.text} for c in room.chat],
    }
    data["coaching"] = room.coaching_for(seat)
    if seat is not None:
        data["rack"] = alphabet.format_rack(game.rack(seat))
        data["unseen"] = alphabet.format_rack(game.unseen(seat))
    else:
        data["unseen_count"] = len(game.bag) + sum(len(game.rack(i)) for i in range(len(game.players)))
    if over:
        data["result"] = game.result_text()
        data["racks"] = [alphabet.format_rack(game.rack(i)) for i in range(len(game.players))]
    return data


def view_json(room: Room, seat: int | None) -> str:
    """:func:`view` as JSON text, made once for each seat and state of the
    game: the answer to an action and the WebSocket messages after it share it.
    Read under the room's lock."""
    key = (room.seq, len(room.table.log), len(room.chat), room.game.state)
    cached = room.views.get(seat)
    if cached is not None and cached[0] == key:
        return cached[1]
    text = json.dumps(view(room, seat), separators=(",", ":"))
    room.views[seat] = (key, text)
    return text


def _clocks(room: Room) -> dict[str, object] | None:
    rules = room.game.rules
    if rules.turn_time is None and rules.game_clock is None:
        return None
    clocks = room.game.clocks
    return {
        "turn_time": rules.turn_time,
        "game_clock": rules.game_clock,
        "used": list(clocks.used),
        "turn_elapsed": clocks.turn_elapsed,
    }


def clock_message(room: Room) -> dict[str, object] | None:
    """A clock tick for a game whose clocks run now (``None`` otherwise):
    whose turn it is, what is left of the turn timer, each seat's time used."""
    game = room.game
    rules = game.rules
    if game.state is not GameState.PLAYING or (rules.turn_time is None and rules.game_clock is None):
        return None
    table = room.table
    elapsed = table.elapsed()
    seat = table.seat_to_act()
    used = list(game.clocks.used)
    used[seat] += elapsed
    left = None if rules.turn_time is None else max(0.0, rules.turn_time - game.clocks.turn_elapsed - elapsed)
    return {"type": "clock", "seq": room.seq, "seat": seat, "turn_left": left, "used": [round(u, 1) for u in used]}


def events_of(room: Room, seat: int | None) -> list[dict[str, object]]:
    """The game's events as ``seat`` may see them (:func:`visible_events`):
    each play in GCG notation with its score and the words it formed."""
    game = room.game
    alphabet, layout = game.alphabet, game.layout
    out: list[dict[str, object]] = []
    for event in visible_events(room, seat):
        item: dict[str, object] = {"seat": event.player, "kind": event.kind.value, "score": event.score, "total": event.total}
        move = event.move
        if event.kind is EventKind.EXCHANGE and move is None:
            item["move"] = f"-{event.exchange_count}"
        elif move is not None:
            item["move"] = move.gcg(alphabet, layout)
            if event.kind is EventKind.PLACE and event.words:
                item["words"] = [alphabet.format_word(word) for word in event.words]
        if event.rack is not None:
            item["rack"] = alphabet.format_rack(event.rack)
        if event.end_rack:
            item["end_rack"] = alphabet.format_rack(event.end_rack)
        out.append(item)
    return out


def event_message(room: Room, event: TableEvent, seat: int | None) -> dict[str, object]:
    """A table event as a WebSocket message to ``seat`` (an exchange's tiles
    only to the seat that made it)."""
    kind = type(event).__name__
    data: dict[str, object] = {"type": kind, "seat": event.seat}
    if isinstance(event, Played):
        shown = event if event.seat == seat or room.game.state is GameState.OVER else event.public()
        data.update(
            move=shown.notation or shown.move.gcg(room.game.alphabet, room.game.layout),
            score=shown.score,
            total=shown.total,
            words=[list(w) for w in shown.words],
            exchanged=shown.exchanged,
        )
    elif isinstance(event, Challenged):
        data.update(player=event.player, play=event.play, valid=event.result.valid, phonies=list(event.result.phonies))
    elif isinstance(event, TimeUp):
        data.update(took=round(event.took, 1), limit=event.limit)
    elif isinstance(event, EndAccepted):
        data.update(player=event.player, play=event.play)
    elif isinstance(event, GameEnded):
        data.update(result=room.game.result_text(), scores=list(event.outcome.scores))
    return data  # the other kinds say only their type and seat (a refused bot move's tiles stay private)
