"""Setting up a :class:`~tilebag.game.Game`'s position (particular racks,
a new order of the bag, the unseen tiles dealt anew) and writing the game
as a record (:meth:`~tilebag.game.Game.record`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tilebag import game_end, game_history
from tilebag.alphabet import Tile, rack_tile
from tilebag.bag import Bag
from tilebag.errors import Illegal, IllegalMoveError
from tilebag.outcome import Player
from tilebag.record import Event, GameRecord, PlayerInfo

if TYPE_CHECKING:
    from tilebag.game import Game


def set_rack(game: Game, player: int, tiles: str | Sequence[Tile], *, exact: bool = False) -> None:
    wanted = game.alphabet.parse_rack(tiles) if isinstance(tiles, str) else [rack_tile(t) for t in tiles]
    me = game.players[game._seat(player)]
    size = len(wanted) if exact else max(len(me.rack), len(wanted))
    if len(wanted) > max(game.rules.rack_size, len(me.rack)):
        raise IllegalMoveError(
            Illegal.TILE_NOT_AVAILABLE,
            f"{game.alphabet.format_rack(wanted)}: {len(wanted)} tiles, a rack holds {game.rules.rack_size}",
        )
    game_history.keep_bags(game)
    snapshot = game_history.snapshot(game, None)
    try:
        game._position.bag.put_back(me.rack)
        me.rack = []
        give_tiles(game, me, wanted, what=game.alphabet.format_rack(wanted))
        me.rack.extend(game._position.bag.draw(size - len(me.rack)))
    except IllegalMoveError:
        game_history.restore(game, snapshot)
        raise
    if game.termination is not None:
        game_end.add_end_events(game)


def reshuffle(game: Game, seed: int | None = None) -> None:
    rng = random.Random(seed)
    for snap, (tiles, _) in zip(game._stack, game_history.bags_before(game), strict=True):
        rng.shuffle(tiles)
        snap.bag = (tuple(tiles), random.Random(rng.getrandbits(64)).getstate())
    game._position.bag = Bag(game.alphabet, seed, tiles=game._position.bag.tiles())


def redeal(game: Game, player: int, seed: int | None = None) -> None:
    me = game._seat(player)
    game_history.keep_bags(game)
    held: dict[int, int] = {}
    for i, other in enumerate(game.players):
        if i != me:
            held[i] = len(other.rack)
            game._position.bag.put_back(other.rack)
            other.rack = []
    game.reshuffle(seed)
    for i, count in held.items():
        game.players[i].rack.extend(game._position.bag.draw(count))


def record(game: Game, *, lexicon: str | None = None) -> GameRecord:
    nicknames = _nicknames(game.players)
    timed = game.rules.turn_time is not None or game.rules.game_clock is not None
    name = lexicon
    if name is None and game._lexicon is not None:
        name = game._lexicon.name
    return GameRecord(
        players=[PlayerInfo(nick, p.name) for nick, p in zip(nicknames, game.players, strict=True)],
        events=[_copy_event(e) for e in game.events],
        lexicon=name or "kjxqz",
        alphabet=game.alphabet.name,
        rule_options=game.rules.stated_options(),
        clock_used=tuple(game.clock_used) if timed else None,
        final_racks={} if game.is_over() else {i: tuple(sorted(p.rack)) for i, p in enumerate(game.players)},
        to_move=None if game.is_over() else game._position.turn,
    )


def give_tiles(game: Game, me: Player, tiles: Sequence[Tile], *, what: str) -> None:
    """Move these rack tiles to a player: from the bag, or else from another
    rack, which draws a replacement.

    :raises IllegalMoveError: when a tile is nowhere to be had (the caller
        restores the state).
    """
    for t in tiles:
        if game._position.bag.contains([t]):
            game._position.bag.take([t])
        else:
            donor = next((p for p in game.players if p is not me and t in p.rack), None)
            if donor is None:
                raise IllegalMoveError(
                    Illegal.TILE_NOT_AVAILABLE,
                    f"{what}: no {game.alphabet.label(t)} is left (not in the bag nor on another rack)",
                )
            donor.rack.remove(t)
            donor.rack.extend(game._position.bag.draw(1))
        me.rack.append(t)


def _nicknames(players: Sequence[Player]) -> list[str]:
    """Distinct one-word nicknames for a record's event lines."""
    nicks: list[str] = []
    for i, p in enumerate(players, start=1):
        nick = "_".join(p.name.replace(":", "").split()) or f"player{i}"
        while nick in nicks:
            nick = f"{nick}_{i}"
        nicks.append(nick)
    return nicks


def _copy_event(e: Event) -> Event:
    return Event(
        e.kind,
        e.player,
        e.score,
        e.total,
        rack=e.rack,
        move=e.move,
        exchange_count=e.exchange_count,
        end_rack=e.end_rack,
        notes=list(e.notes),
        line=e.line,
    )
