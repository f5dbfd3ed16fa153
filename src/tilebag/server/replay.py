"""The store and the table, both ways: a room rebuilt from a game's stored
setup and actions (:func:`rebuild`, :func:`replay`), and the actions a
table's events are stored as (:func:`write`), so that they replay to the same
game: the seeded bag and the actions (the bots' moves among them, as they
were played) give the same board, racks, bag order, scores and clocks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tilebag.engine.bots import make_bot
from tilebag.engine.players import Player
from tilebag.errors import TilebagError
from tilebag.game import Game, GameState
from tilebag.move import MoveKind
from tilebag.server.room import Chat, Room, RoomError, rules_of
from tilebag.server.store import ActionRow, GameLog, SeatRow
from tilebag.table import Challenged, EndAccepted, Played, Resigned, Table, TableEvent, TimeUp

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
        bots[row.seat] = thinkers.bot(game_id, kind, row.name) if thinkers is not None else make_bot(kind, row.name)
    room = Room(game_id, Table(game, bots, details=True), seats, setup)
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
        room.chat.append(Chat(action.seq, action.seat, room.seats[action.seat].name, action.text))
    elif action.kind == "join":
        token_hash = next((row.token_hash for row in rooms.store.seats(room.game_id) if row.seat == action.seat), None)
        room.seats[action.seat] = SeatRow(action.seat, action.text, "person", None, token_hash)
        room.game.players[action.seat].name = action.text
    elif action.kind == "rematch":
        room.rematch = action.text
    else:
        made = apply(room, action.seat, action.kind, action.text, action.seconds)
        room.event_seqs.extend([action.seq] * len(made))
    room.seq = action.seq


def apply(room: Room, seat: int, kind: str, text: str, seconds: float | None) -> list[TableEvent]:
    """The table action a stored action of this kind is, applied (not stored)."""
    table, game = room.table, room.game
    if kind == "move":
        return table.play(seat, game.parse_move(text), seconds=seconds)
    if kind == "challenge":
        return table.challenge(seat)
    if kind == "accept":
        return table.accept(seat)
    if kind == "resign":
        return table.resign(seat)
    if kind == "timeout":
        return table.time_out(seat, seconds=seconds)
    raise RoomError(400, f"unknown action kind {kind!r}")


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


def stored(event: TableEvent) -> bool:
    """Whether an event is stored as an action of its own."""
    return isinstance(event, (Played, TimeUp, Challenged, EndAccepted, Resigned))
