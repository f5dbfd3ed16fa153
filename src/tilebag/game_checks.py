"""How a :class:`~tilebag.game.Game` checks a move before anything
changes: the tiles, the placement, the rack, the variations' actions and,
in void challenge mode, the words. The game keeps what a check found
(:class:`_Checked`), so that pushing the move checks nothing again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tilebag.alphabet import BLANK, BLANK_BIT, Tile, missing_tiles
from tilebag.board import Word
from tilebag.errors import GameOverError, Illegal, IllegalMoveError, InvalidMoveError, PhonyError
from tilebag.move import PLAYED_THROUGH, Move, MoveKind
from tilebag.rules import ChallengeMode
from tilebag.variants import AnagramPlay, check_anagram, check_blank_swap, check_recycle

if TYPE_CHECKING:
    from tilebag.game import Game


@dataclass(slots=True)
class _Checked:
    """What :meth:`Game.check` found for a move, kept while the game is as it was."""

    key: tuple[object, ...]
    move: Move
    anagram: AnagramPlay | None
    words: list[Word] | None


def check_now(game: Game, move: Move) -> tuple[Move, AnagramPlay | None]:
    if game.termination is not None:
        raise GameOverError(f"the game is over: {game.result_text()}")
    rack = game.players[game._position.turn].rack
    if move.kind is MoveKind.PASS:
        return move, None
    if move.kind is MoveKind.EXCHANGE:
        if not move.tiles:
            return Move.pass_(), None
        check_tiles(game, move.tiles, allow_blank=True)
        if any(t & BLANK_BIT for t in move.tiles):
            raise InvalidMoveError("an exchange names tiles as they are on the rack: write a blank as ?")
        text = move.gcg(game.alphabet, game.layout)
        lacking = missing_tiles(move.tiles, rack)
        if lacking:
            raise IllegalMoveError(
                Illegal.TILE_NOT_ON_RACK,
                f"{text}: the rack {game.alphabet.format_rack(rack)} has no "
                f"{game.alphabet.format_rack(lacking)} to exchange",
            )
        if len(game._position.bag) < max(game.rules.exchange_min_bag, len(move.tiles)):
            raise IllegalMoveError(
                Illegal.BAG_TOO_SMALL,
                f"{text}: exchanging needs at least {max(game.rules.exchange_min_bag, len(move.tiles))} tiles in the bag, "
                f"it holds {len(game._position.bag)}",
            )
        return move, None
    if move.kind is MoveKind.RECYCLE:
        return recycle_move(game, move), None
    if move.kind is MoveKind.BLANK_SWAP:
        if not game.rules.blank_swap:
            raise IllegalMoveError(Illegal.VARIATION_NOT_IN_PLAY, f"{game.notation(move)}: blank swap is not in these rules")
        check_blank_swap(game._position.board, move, rack)
        return move, None
    if move.kind is MoveKind.ANAGRAM:
        return move, anagram_move(game, move)
    check_tiles(game, move.tiles, allow_blank=False)
    normal = game._position.board.check_placement(move, first_play_min_tiles=game.rules.min_first_word)
    used = normal.tiles_used
    lacking = missing_tiles(used, rack)
    if lacking:
        raise IllegalMoveError(
            Illegal.TILE_NOT_ON_RACK,
            f"{game.notation(normal)}: the rack {game.alphabet.format_rack(rack)} has no "
            f"{game.alphabet.format_rack(lacking)}",
        )
    if game.rules.challenge is ChallengeMode.VOID:
        phonies = [game.alphabet.format_word(w.tiles) for w in game._position.board.words(normal) if w.tiles not in game.lexicon]
        if phonies:
            listed = ", ".join(phonies)
            raise PhonyError(phonies, f"{game.notation(normal)}: not in the {game.lexicon.name} lexicon: {listed}")
    return normal, None


def check_tiles(game: Game, tiles: Sequence[Tile], *, allow_blank: bool) -> None:
    size = game.alphabet.size
    for t in tiles:
        letter = t & ~BLANK_BIT
        ok = (t == BLANK and allow_blank) or (t == PLAYED_THROUGH and not allow_blank) or 0 < letter < size
        if not ok or t < 0 or t > (BLANK_BIT | (size - 1)):
            raise InvalidMoveError(f"tile code {t!r} is not a tile of the {game.alphabet.name} tile set")


def recycle_move(game: Game, move: Move) -> Move:
    text = game.notation(move)
    if not game.rules.recycle:
        raise IllegalMoveError(Illegal.VARIATION_NOT_IN_PLAY, f"{text}: recycling is not in these rules")
    check_tiles(game, move.tiles, allow_blank=False)
    words = check_recycle(game._position.board, move)
    rack = game.players[game._position.turn].rack
    lacking = missing_tiles(move.tiles, rack)
    if lacking:
        raise IllegalMoveError(
            Illegal.TILE_NOT_ON_RACK,
            f"{text}: the rack {game.alphabet.format_rack(rack)} has no {game.alphabet.format_rack(lacking)}",
        )
    phonies = [game.alphabet.format_word(w) for w in words if w not in game.lexicon]
    if phonies:
        raise PhonyError(
            phonies,
            f"{text}: a recycle must leave acceptable words; not in the {game.lexicon.name} lexicon: "
            + ", ".join(phonies),
        )
    return move


def anagram_move(game: Game, move: Move) -> AnagramPlay:
    text = game.notation(move)
    if not game.rules.anagram:
        raise IllegalMoveError(Illegal.VARIATION_NOT_IN_PLAY, f"{text}: anagram plays are not in these rules")
    check_tiles(game, move.tiles, allow_blank=False)
    if game._position.board.is_empty():
        raise IllegalMoveError(Illegal.NOT_AN_ANAGRAM, f"{text}: the board has no word to rearrange yet")
    play = check_anagram(game._position.board, move, bingo_tiles=game.rules.bingo_tiles, bingo_bonus=game.rules.bingo_bonus)
    rack = game.players[game._position.turn].rack
    lacking = missing_tiles(play.tiles_used, rack)
    if lacking:
        raise IllegalMoveError(
            Illegal.TILE_NOT_ON_RACK,
            f"{text}: the rack {game.alphabet.format_rack(rack)} has no {game.alphabet.format_rack(lacking)}",
        )
    if game.rules.challenge is ChallengeMode.VOID:
        phonies = [game.alphabet.format_word(w.tiles) for w in play.words if w.tiles not in game.lexicon]
        if phonies:
            raise PhonyError(phonies, f"{text}: not in the {game.lexicon.name} lexicon: {', '.join(phonies)}")
    return play


def words_now(game: Game, move: Move, anagram: AnagramPlay | None) -> list[Word] | None:
    if anagram is not None:
        return anagram.words
    if move.kind is MoveKind.PLACE:
        return game._position.board.words(move)
    return None
