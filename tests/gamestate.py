"""What tests compare about a game: a fingerprint of its whole state."""

from __future__ import annotations

from collections import Counter

from tilebag import Event, Game
from tilebag.alphabet import rack_tile


def event_key(e: Event) -> tuple[object, ...]:
    """An event's fields (its source line aside)."""
    return (e.kind, e.player, e.score, e.total, e.rack, e.move, e.exchange_count, e.end_rack, tuple(e.notes))


def fingerprint(game: Game) -> tuple[object, ...]:
    """Everything a move can change."""
    challengeable = game.challengeable
    return (
        bytes(game.board.tiles),
        game.board.tile_count,
        tuple(tuple(p.rack) for p in game.players),
        tuple(p.score for p in game.players),
        tuple(p.lost_turns for p in game.players),
        game.bag.get_state(),
        game.turn,
        game.scoreless,
        game.termination,
        game.went_out,
        tuple(event_key(e) for e in game.events),
        None if challengeable is None else event_key(challengeable),
        len(game.move_stack),
        game.outcome(),
        tuple(game.clock_used),
        game.turn_elapsed,
        game.finish_winner,
    )


def assert_tiles_accounted(game: Game) -> None:
    """Bag, racks and board hold the full tile distribution, no more, no less."""
    seen = Counter(game.bag.tiles())
    for p in game.players:
        seen.update(p.rack)
    seen.update(rack_tile(t) for t in game.board.tiles if t)
    assert seen == Counter(game.alphabet.distribution())
    assert game.board.tile_count == sum(1 for t in game.board.tiles if t)
