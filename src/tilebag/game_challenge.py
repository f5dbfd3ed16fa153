"""Challenges in a :class:`~tilebag.game.Game`: the lexicon judges every
word of the last play at once; a phony comes off, and a play that stands
costs the challenger what the challenge mode says
(:meth:`~tilebag.game.Game.challenge` is the way in).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tilebag import game_end, game_history, game_setup
from tilebag.alphabet import Tile, rack_tile
from tilebag.errors import Illegal, IllegalMoveError
from tilebag.move import MoveKind
from tilebag.outcome import ChallengeResult, Termination
from tilebag.record import Event, EventKind
from tilebag.rules import ChallengeMode
from tilebag.variants import check_anagram

if TYPE_CHECKING:
    from tilebag.game import Game


def challenge(game: Game, challenger: int | None = None, *, valid: bool | None = None) -> ChallengeResult:
    if game.rules.challenge is ChallengeMode.VOID:
        raise IllegalMoveError(
            Illegal.CHALLENGE_NOT_ALLOWED, "void challenge mode: plays are checked on entry, there are no challenges"
        )
    event = game.challengeable
    if event is None or event.move is None:
        raise IllegalMoveError(Illegal.NOTHING_TO_CHALLENGE, "there is no play to challenge")
    n = len(game.players)
    if challenger is None:
        challenger = game._position.turn if game._position.turn != event.player else (event.player + 1) % n
    if not 0 <= challenger < n:
        raise IllegalMoveError(Illegal.WRONG_PLAYER, f"there is no player {challenger + 1} to challenge")
    if challenger == event.player:
        raise IllegalMoveError(
            Illegal.WRONG_PLAYER,
            f"{game.players[challenger].name} cannot challenge their own play: only an opponent can",
        )
    move = event.move
    formed = game.words_of(event)
    words = tuple(game.alphabet.format_word(w) for w in formed)
    phonies = tuple(game.alphabet.format_word(w) for w in formed if w not in game.lexicon)
    ok = not phonies if valid is None else valid
    if not ok and not phonies:
        phonies = words
    snap_index = game_history.play_snapshot_index(game, event)
    board_before = game_history.board_before(game, snap_index)
    game_history.keep_bags(game)
    game._stack.append(game_history.snapshot(game, ("challenge", challenger, ok)))
    game._challengeable = None
    if not ok:
        before = game._stack[snap_index]
        was_over = game.termination is not None
        game_end.reopen(game)
        used = move.tiles_used
        if move.kind is MoveKind.ANAGRAM:
            # the rearranged word goes back as it was, without the tiles added
            game._position.board.tiles[:], game._position.board.tile_count = board_before
            used = check_anagram(game._position.board, move).tiles_used
        else:
            game._position.board.remove(move)
        player = game.players[event.player]
        rack_before = list(before.players[event.player][1])
        # The player takes back the rack they played from; the tiles they
        # drew go back to the bag. (Tiles given to another rack since, as
        # a record replay may do, come back from it.)
        game._position.bag.put_back(player.rack + [rack_tile(t) for t in used])
        player.rack = []
        game_setup.give_tiles(game, player, rack_before, what=game.alphabet.format_rack(rack_before))
        player.score -= event.score
        game._append(EventKind.WITHDRAWN, event.player, -event.score, rack=tuple(rack_before))
        # The play becomes a scoreless turn; lost turns skipped since stay counted.
        game._position.scoreless += before.scoreless + 1 if event.score > 0 else 0
        if was_over:
            game._position.turn = event.player
            game_end.next_turn(game)
        elif game._position.scoreless >= game.rules.scoreless_limit(n):
            game_end.finish(game, Termination.SCORELESS_TURNS, None)
        return ChallengeResult(False, words, phonies)
    mode = game.rules.challenge
    points = -mode.penalty_points
    lost = mode is ChallengeMode.DOUBLE and game.termination is None
    game.players[challenger].score += points
    game_end.insert_before_end(game, EventKind.CHALLENGE, challenger, points, rack=tuple(game.players[challenger].rack))
    if lost:
        game.players[challenger].lost_turns += 1
        if game._position.turn == challenger:
            game.players[challenger].lost_turns -= 1
            game._position.scoreless += 1
            game_end.next_turn(game)
    return ChallengeResult(True, words, (), points, lost)


def words_of(game: Game, event: Event) -> list[tuple[Tile, ...]]:
    assert event.move is not None
    if event.words:
        return list(event.words)
    move = event.move
    if move.kind is MoveKind.ANAGRAM:
        board = game._position.board.copy()
        board.tiles[:], board.tile_count = game_history.board_before(game, game_history.play_snapshot_index(game, event))
        return [w.tiles for w in check_anagram(board, move).words]
    board = game._position.board.copy()
    board.remove(move)
    return [w.tiles for w in board.words(move)]
