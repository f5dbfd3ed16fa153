"""What each client may see of a game, as JSON data: the core's seat view
(:func:`tilebag.view.seat_view`, the one place that decides what a seat or an
observer may see) with what the server adds (the game's id and sequence
number, the seats' kinds, the clocks, the chat), and the record through the
same rule (:func:`tilebag.view.visible_events`). Nothing here reads a token:
the room has said which seat asks.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tilebag.engine.bots import BOTS, describe_bot
from tilebag.formats import cgp
from tilebag.game import GameState
from tilebag.record import EventKind, GameRecord, withdrawn_plays
from tilebag.rules import OPTIONS, PRESET_HELP, PRESETS
from tilebag.server import correspondence
from tilebag.server.replay import replay_positions
from tilebag.server.room import Room, RoomError, rules_of
from tilebag.table import Challenged, EndAccepted, GameEnded, Played, TableEvent, TimeUp
from tilebag.view import SeatView, seat_view, visible_events

if TYPE_CHECKING:
    from tilebag.server.accounts import User
    from tilebag.server.service import GameService

STATUS = {GameState.PLAYING: "playing", GameState.FINAL_CHALLENGE: "final-challenge", GameState.OVER: "over"}

SQUARE_CODES = {(3, 1): "W", (2, 1): "w", (1, 3): "L", (1, 2): "l"}
"""A square's (word, letter) multipliers as one character: W triple word,
w double word, L triple letter, l double letter; ``.`` a plain square."""


def record_of(room: Room, seat: int | None) -> GameRecord:
    """The game's record as ``seat`` may see it (:func:`~tilebag.view.visible_events`):
    whole once the game is over; before, with no rack but the seat's own (its
    rack now included, so that a game can be resumed from it as the seat sees it)."""
    game = room.game
    record = game.record()
    if game.state is not GameState.OVER:
        record.events = visible_events(game, seat)
        record.final_racks = {} if seat is None else {seat: tuple(sorted(game.rack(seat)))}
    return record


def layout_of(room: Room) -> dict[str, object]:
    """The board and tiles of a game, for drawing it: each row's squares as
    characters (see :data:`SQUARE_CODES`), the start square, and each
    tile's label, score and count."""
    game = room.game
    layout, alphabet = game.layout, game.alphabet
    rows = []
    for row in range(layout.rows):
        squares = ""
        for col in range(layout.cols):
            index = row * layout.cols + col
            key = (layout.word_multipliers[index], layout.letter_multipliers[index])
            squares += SQUARE_CODES.get(key, ".")
        rows.append(squares)
    return {
        "rows": rows,
        "start": [layout.start // layout.cols, layout.start % layout.cols],
        "rack_size": game.rules.rack_size,
        "tiles": [
            {"label": label, "score": score, "count": count}
            for label, score, count in zip(alphabet.labels, alphabet.scores, alphabet.counts, strict=False)
        ],
    }


def catalog() -> dict[str, object]:
    """What a game on this server can be made of: the presets (with each
    option's value in them), the options as a form offers them (a number and
    its limits, a choice, yes or no, a time, a number per seat) and the bots."""
    return {
        "presets": [
            {"name": name, "help": PRESET_HELP.get(name, ""), "options": PRESETS[name].describe(),
             "values": {option.flag: _value(getattr(PRESETS[name], option.name)) for option in OPTIONS.values()}}
            for name in PRESETS
        ],
        "options": [
            {"name": option.flag, "title": option.title, "help": option.help, "kind": option.kind,
             "choices": list(option.choices), "minimum": option.minimum, "maximum": option.maximum,
             "optional": option.optional}
            for option in OPTIONS.values()
        ],
        "bots": [{"name": kind, "description": describe_bot(kind)} for kind in BOTS],
    }


def _value(value: object) -> object:
    """A rules field's value as JSON: an enum by its name, none as null."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple):
        return list(value)
    return getattr(value, "value", str(value))


def lobby(service: GameService) -> list[dict[str, object]]:
    """The games being played, newest first, as the lobby lists them (read without rebuilding any game)."""
    found: list[dict[str, object]] = []
    for game_id, setup, status, seats in service.store.lobby():
        room = service.rooms.in_memory(game_id)
        try:
            rules = room.game.rules.name if room is not None else rules_of(setup).name
        except RoomError:
            continue
        found.append(
            {
                "id": game_id,
                "status": STATUS[room.game.state] if room is not None else status,
                "rules": rules,
                "seats": [{"seat": r.seat, "name": r.name, "kind": r.kind} for r in (room.seats if room else seats)],
            }
        )
    return found


def games_of(service: GameService, user: User) -> list[dict[str, object]]:
    """The games ``user`` holds a seat in, as ``GET /api/my/games`` lists them:
    those awaiting the account's move first, then those being played, then
    the finished ones (newest first within each)."""
    found: list[dict[str, object]] = []
    for game_id, seat in service.store.games_of_user(user.id):
        room = service.rooms.in_memory(game_id) or service.load(game_id)
        if room is None:
            continue
        with room.lock:
            game = room.game
            status = STATUS[game.state]
            turn = game.turn if status != "over" else None
            found.append({
                "id": game_id, "seat": seat, "status": status, "turn": turn,
                "your_turn": turn == seat and room.table.bot_to_act() is None,
                "names": [row.name for row in room.seats], "scores": [p.score for p in game.players],
                "rules": game.rules.name,
            })
    order = {"playing": 1, "final-challenge": 1, "over": 2}
    return sorted(found, key=lambda g: 0 if g["your_turn"] else order.get(str(g["status"]), 2))


def board_field(room: Room) -> str:
    """The CGP board field: rows joined by ``/``, digits for empty runs, lower case for blanks."""
    game = room.game
    position = cgp.position_from(game.board, [[], []], [0, 0])
    return cgp.dumps(position).split(" ", 1)[0]


def view(room: Room, seat: int | None) -> dict[str, object]:
    """The game as ``seat`` sees it (``None``: an observer), as JSON data."""
    game = room.game
    seen = seat_view(game, seat, bots=room.table.bots)
    data: dict[str, object] = {
        "id": room.game_id,
        "seq": room.seq,
        "status": STATUS[seen.state],
        "board": board_field(room),
        "rows": seen.board_rows(),
        "last_play": list(seen.last_play),
        "scores": list(seen.scores),
        "turn": seen.turn,
        "bag": seen.bag,
        "seats": [
            {"seat": row.seat, "name": row.name, "kind": row.kind, "bot": row.bot, "tiles": player.tiles_on_rack,
             "score": player.score, "target": player.target}
            for row, player in zip(room.seats, seen.players, strict=True)
        ],
        "you": seat,
        "rules": {"name": game.rules.name, "options": game.rules.describe()},
        "clocks": _clocks(room),
        "events": events_of(room, seen),
        "chat": [{"seq": c.seq, "seat": c.seat, "name": c.name, "text": c.text, "at": c.at} for c in room.chat],
        "coaching": room.table.coaching_for(seat),
        "unseen_by_letter": seen.unseen_by_letter(),
        "tracking": {
            "total": seen.unseen_count, "vowels": seen.unseen_vowels, "consonants": seen.unseen_consonants,
            "blanks": seen.unseen_blanks, "others_rack": seen.others_rack(),
            "others_name": next((p.name for i, p in enumerate(seen.players) if i != seat), None)
            if len(seen.players) == 2 else "the others",
        },
        "final_challenge": _final_challenge(room),
    }
    if seat is not None:
        data["rack"] = seen.rack_text
        data["unseen"] = seen.unseen_text
    else:
        data["unseen_count"] = seen.unseen_count
    if seen.racks is not None:
        data["result"] = seen.result
        data["racks"] = list(seen.racks)
    days = correspondence.days_per_move(room.setup)
    if days is not None:  # a correspondence game: its days per move, and when the turn to move times out
        data["days_per_move"] = days
        data["turn_due"] = correspondence.turn_due(room)
    return data


def view_json(room: Room, seat: int | None) -> str:
    """:func:`view` as JSON text, made once for each seat and state of the
    game: the answer to an action and the WebSocket messages after it share it.
    Read under the room's lock."""
    key = (room.seq, len(room.table.log), len(room.chat), room.game.state, correspondence.turn_due(room))
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


def events_of(room: Room, seen: SeatView) -> list[dict[str, object]]:
    """The events a seat may see (:attr:`tilebag.view.SeatView.events`), as
    JSON: each with its notation as players write it (``13C D(E)WAX``), what
    it did in a sentence (``note``), the words a play formed, the racks the
    seat may see, whether a play was challenged off (``withdrawn``) and, for a
    move, its number (``move_number``: as the analysis counts turns)."""
    game = room.game
    alphabet, layout = game.alphabet, game.layout
    withdrawn = withdrawn_plays(seen.events)
    out: list[dict[str, object]] = []
    moves = 0
    for event, line in zip(seen.events, seen.log, strict=True):
        item: dict[str, object] = {
            "seat": event.player, "kind": event.kind.value, "score": event.score, "total": event.total,
            "text": line.text, "note": line.note,
        }
        if event.kind.is_move:
            moves += 1
            item["move_number"] = moves
        move = event.move
        if event.kind is EventKind.EXCHANGE and move is None:
            item["move"] = f"-{event.exchange_count}"
        elif move is not None:
            item["move"] = move.gcg(alphabet, layout)
            if event.kind is EventKind.PLACE and event.words:
                item["words"] = [alphabet.format_word(word) for word in event.words]
        if event.kind is EventKind.PLACE:
            item["withdrawn"] = id(event) in withdrawn
        if event.rack is not None:
            item["rack"] = alphabet.format_rack(event.rack)
        if event.end_rack:
            item["end_rack"] = alphabet.format_rack(event.end_rack)
        out.append(item)
    return out


def _final_challenge(room: Room) -> dict[str, object] | None:
    """While the game waits for its final challenge: who went out with which
    play, and who may challenge it."""
    game = room.game
    event = game.challengeable
    if game.state is not GameState.FINAL_CHALLENGE or event is None or event.move is None:
        return None
    return {"player": event.player, "play": game.board.notation(event.move), "challenger": game.final_challenger}


def turns(room: Room) -> list[dict[str, object]]:
    """A finished game, turn by turn, to examine: the board before the first
    event and after each one (its rows, the last play's squares, the scores),
    with what the event did. Read under the room's lock.

    :raises RoomError: (409) before the end: it would show every rack.
    """
    game = room.game
    if game.state is not GameState.OVER:
        raise RoomError(409, "a game is examined once it is over")
    positions = replay_positions(room)
    seen = seat_view(game, None)
    notes = [line.note for line in seen.log]
    moves = 0
    out: list[dict[str, object]] = []
    for index, (rows, last, scores) in enumerate(positions):
        item: dict[str, object] = {"index": index, "rows": rows, "last_play": last, "scores": scores}
        if index:
            event = game.events[index - 1]
            item.update(seat=event.player, note=notes[index - 1], kind=event.kind.value)
            if event.kind.is_move:
                moves += 1
                item["move_number"] = moves
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
