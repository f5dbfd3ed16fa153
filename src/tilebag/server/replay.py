"""The store and the table, both ways: a room rebuilt from a game's stored
setup and actions (:func:`rebuild`, :func:`replay`), and the actions a
table's events are stored as (:func:`write`), so that they replay to the same
game: the seeded bag and the actions (the bots' moves among them, as they
were played) give the same board, racks, bag order, scores and clocks.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING

from tilebag.actions import AcceptEnd, Action, Challenge, PlayMove, Resign, TimeOut
from tilebag.engine.bots import make_bot
from tilebag.engine.players import Player
from tilebag.errors import TilebagError
from tilebag.formats import replay as formats_replay
from tilebag.game import Game, GameState
from tilebag.move import MoveKind
from tilebag.server.room import Chat, Room, RoomError, rules_of
from tilebag.server.store import ActionRow, GameLog, SeatRow
from tilebag.table import Challenged, EndAccepted, Played, Resigned, Table, TableEvent, TimeUp
from tilebag.view import seat_view

if TYPE_CHECKING:
    from tilebag.server.rooms import Rooms


class DamagedGameError(TilebagError):
    """A game whose stored actions do not replay: :attr:`seq` is the action that failed."""

    def __init__(self, game_id: str, action: ActionRow, cause: Exception) -> None:
        super().__init__(f"game {game_id}: action {action.seq} ({action.kind} {action.text[:40]!r}) does not replay: {cause}")
        self.game_id = game_id
        self.seq = action.seq


def rebuild(rooms: Rooms, game_id: str, setup: dict[str, object], seed: int) -> Room:
    """A game as its stored setup and actions make it.

    :raises DamagedGameError: when a stored action does not replay.
    """
    store = rooms.store
    seats = store.seats(game_id)
    rules = rules_of(setup)
    lexicon_name = setup.get("lexicon")
    lexicon = rooms.lexicon(lexicon_name if isinstance(lexicon_name, str) else None)
    game = Game([row.name for row in seats], rules=rules, lexicon=lexicon, seed=seed, first=0)
    thinkers = rooms.thinkers if not (rules.recycle or rules.blank_swap) else None
    bots: dict[int, Player] = {}
    for row in seats:
        if row.kind != "bot":
            continue
        kind = row.bot or "static"
        bots[row.seat] = thinkers.bot(kind, row.name) if thinkers is not None else make_bot(kind, row.name, threads=rooms.bot_threads)
    practice = setup.get("practice")  # the seats made with "practice": true
    seats_in_practice = [seat for seat in practice if isinstance(seat, int)] if isinstance(practice, list) else []
    room = Room(game_id, Table(game, bots, details=True, practice=seats_in_practice), seats, setup)
    replay(room, store.actions(game_id), rooms)
    return room


def replay(room: Room, actions: list[ActionRow], rooms: Rooms) -> None:
    """Apply stored actions to a room, in order.

    :raises DamagedGameError: for an action that does not replay.
    """
    for action in actions:
        try:
            _replay_one(room, action, rooms)
        except Exception as err:
            raise DamagedGameError(room.game_id, action, err) from err


def _replay_one(room: Room, action: ActionRow, rooms: Rooms) -> None:
    if action.kind == "chat":
        room.chat.append(Chat(action.seq, action.seat, room.seats[action.seat].name, action.text, action.created))
    elif action.kind == "watchchat":
        said = json.loads(action.text)
        room.chat.append(Chat(action.seq, -1, str(said["name"]), str(said["text"]), action.created))
    elif action.kind == "join":
        stored = next((row for row in rooms.store.seats(room.game_id) if row.seat == action.seat), None)
        room.seats[action.seat] = SeatRow(action.seat, action.text, "person", None,
                                          stored.token_hash if stored else None, stored.user_id if stored else None)
        room.game.players[action.seat].name = action.text
    elif action.kind == "rematch":
        room.rematch = action.text
    else:
        made = room.table.act(action.seat, action_of(action, room.game))
        room.event_seqs.extend([action.seq] * len(made))
    room.seq = action.seq


def action_of(row: ActionRow, game: Game) -> Action:
    """The table action a stored action is (its kind, text and time).

    :raises RoomError: (400) for a kind no table action has.
    :raises InvalidMoveError: for a move's text that is no move.
    """
    if row.kind == "move":
        return PlayMove(game.parse_move(row.text), row.seconds)
    if row.kind == "challenge":
        return Challenge()
    if row.kind == "accept":
        return AcceptEnd()
    if row.kind == "resign":
        return Resign()
    if row.kind == "timeout":
        return TimeOut(row.seconds)
    raise RoomError(400, f"unknown action kind {row.kind!r}")


def write(room: Room, log: GameLog, events: list[TableEvent], client_id: str | None = None) -> None:
    """Append the actions these events are the result of, so that they
    replay to the same game (the first carries the client's id)."""
    game = room.game
    for event in events:
        room.event_seqs.append(log.last + 1 if stored(event) else log.last)
        if isinstance(event, Played):
            move = event.move
            text = event.notation if move.kind is MoveKind.PLACE else move.gcg(game.alphabet, game.layout)
            room.seq = log.append(event.seat, "move", text, event.seconds, client_id=client_id)
        elif isinstance(event, TimeUp):
            room.seq = log.append(event.seat, "timeout", "", event.took, client_id=client_id)
        elif isinstance(event, Challenged):
            room.seq = log.append(event.seat, "challenge", "", client_id=client_id)
        elif isinstance(event, EndAccepted):
            room.seq = log.append(event.seat, "accept", "", client_id=client_id)
        elif isinstance(event, Resigned):
            room.seq = log.append(event.seat, "resign", "", client_id=client_id)
        else:
            continue
        client_id = None
    if game.state is GameState.OVER:
        log.set_status("over")
        log.queue_analysis()


def replay_positions(room: Room) -> list[tuple[list[list[str]], list[str], list[int]]]:
    """The board before the first event of the room's game and after each one:
    its rows, the last play's squares and the scores, as an observer sees
    them. Each is the game's record up to that event, replayed (so that every
    variation's play is drawn as the rules made it)."""
    game = room.game
    record = game.record()
    record.final_racks = {}
    positions: list[tuple[list[list[str]], list[str], list[int]]] = []
    for count in range(len(record.events) + 1):
        try:
            part = dataclasses.replace(record, events=record.events[:count], to_move=None)
            replayed = formats_replay.replay(part, lexicon=game.lexicon)
        except TilebagError:  # a prefix the replay cannot stop at (it never should): the position before stands
            positions.append(positions[-1])
            continue
        seen = seat_view(replayed, None)
        positions.append((seen.board_rows(), list(seen.last_play), list(seen.scores)))
    return positions


def stored(event: TableEvent) -> bool:
    """Whether an event is stored as an action of its own."""
    return isinstance(event, (Played, TimeUp, Challenged, EndAccepted, Resigned))
