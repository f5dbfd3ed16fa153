"""What a coach says, in the terminal game and on the server alike: a hint
(the static bot's best plays for a rack), the short words, hooks, bingos and
rack advice of :mod:`tilebag.engine.coaching.word_lists`, and the review of a move from
:mod:`tilebag.engine.analysis.review`, as text lines for the position at hand.

Each function takes the game (and the player asking) and returns lines to
show; none changes the game. The front end decides when they are allowed
(practice mode or an open dictionary during a game, always after it).

>>> from tilebag.game import Game
>>> game = Game(["alice", "bob"], seed=1, first=0)
>>> words_lines(game, "q")[0].startswith("Words with a Q and no U")
True
>>> game.set_rack(0, "AEINRST")
>>> bingo_lines(game, 0)[0]
'Bingos from AEINRST: ANESTRI ANTSIER NASTIER RATINES RETAINS RETINAS RETSINA STAINER STEARIN'
"""

from __future__ import annotations

from tilebag.alphabet import BLANK_BIT
from tilebag.board import EMPTY
from tilebag.engine.analysis.review import TurnAnalysis
from tilebag.engine.coaching import word_lists
from tilebag.engine.coaching.rack_advice import rack_advice
from tilebag.engine.equity import points
from tilebag.engine.players import StaticPlayer
from tilebag.errors import InvalidMoveError
from tilebag.game import Game
from tilebag.lexicon import GraphLexicon
from tilebag.move import MoveKind

WORDS_HELP = "words 2 (two-letter words), words 3 (three-letter words) or words q (Q without U)"


def _lexicon(game: Game) -> GraphLexicon:
    lexicon = game.lexicon
    if not isinstance(lexicon, GraphLexicon):  # pragma: no cover - games are made with word lists
        raise TypeError(f"the lexicon {lexicon!r} has no word graph to list words from")
    return lexicon


def hint_lines(game: Game, top: int = 1) -> list[str]:
    """The static bot's ``top`` plays for the rack of the player to move, each
    with what it scores and keeps (or the exchange or pass it would make).

    >>> game = Game(["alice", "bob"], seed=1, first=0)
    >>> game.set_rack(0, "AEINRST")
    >>> hint_lines(game)
    ['8B ANESTRI for 66, keeping nothing']
    """
    plays = StaticPlayer("hint").ranked(game, top=top)
    if not plays:
        return ["No play fits the rack: exchange or pass."]
    lines = []
    for best in plays:
        move = best.move
        if move.kind is MoveKind.PLACE:
            kept = game.alphabet.format_rack(best.leave) or "nothing"
            lines.append(f"{game.notation(move)} for {best.score}, keeping {kept}")
        elif move.kind is MoveKind.EXCHANGE:
            lines.append(f"exchange {game.alphabet.format_rack(move.tiles)} ({move.gcg(game.alphabet, game.layout)})")
        else:
            lines.append("pass (-)")
    return lines


def words_lines(game: Game, what: str) -> list[str]:
    """The two- or three-letter words (``2``, ``3``), or the words with a Q
    and no U (``q``), grouped by first letter."""
    lexicon = _lexicon(game)
    what = what.strip().lower()
    if what in ("2", "3"):
        words = word_lists.short_words(lexicon, int(what))
        title = f"{'Two' if what == '2' else 'Three'}-letter words in {lexicon.name} ({len(words)}):"
    elif what in ("q", "qu", "q-without-u"):
        words = word_lists.q_without_u(lexicon)
        title = f"Words with a Q and no U in {lexicon.name} ({len(words)}):"
        return [title, *word_lists.labelled_lines(word_lists.group_by_length(words, lexicon.alphabet))]
    else:
        return [f"Which words? Type {WORDS_HELP}."]
    return [title, *word_lists.labelled_lines(word_lists.group_by_first(words, lexicon.alphabet))]


def hooks_lines(game: Game, words: str) -> list[str]:
    """The hooks of the words given, or of every word on the board (those
    that fit where the word stands)."""
    lexicon = _lexicon(game)
    if words.split():
        try:
            found = [word_lists.hooks(lexicon, word) for word in words.split()]
        except InvalidMoveError as err:
            return [f"Not a word of the tile set: {err}"]
        return word_lists.format_hooks(found, words=True)
    on_board = word_lists.board_hooks(game.board, lexicon)
    if not on_board:
        return ["The board is empty: no words to hook yet. Type hooks WORD for a word's hooks."]
    lines = ["Hooks of the words on the board (only those with a free square to go on):"]
    for entry in on_board:
        front, back = entry.playable_front, entry.playable_back
        if not front and not back:
            continue
        parts = []
        if front:
            parts.append(f"before: {''.join(front)}")
        if back:
            parts.append(f"after: {''.join(back)}")
        lines.append(f"  {entry.position:<4} {entry.word:<15} {'; '.join(parts)}")
    if len(lines) == 1:
        lines.append("  none: no word on the board can be hooked where it stands.")
    return lines


def bingo_lines(game: Game, player: int) -> list[str]:
    """The bingos of a player's rack, and the words of the rack plus one
    letter that is on the board (to play through it, where it fits)."""
    lexicon = _lexicon(game)
    alphabet = game.alphabet
    rack = game.rack(player)
    text = alphabet.format_rack(rack)
    if len(rack) < game.rules.bingo_tiles:
        return [f"{text or 'The rack'} has fewer than {game.rules.bingo_tiles} tiles: no bingo to make."]
    found = word_lists.bingos(lexicon, rack)
    lines = [f"Bingos from {text}: {' '.join(found)}" if found else f"No bingo from {text} alone."]
    letters = sorted({t & ~BLANK_BIT for t in game.board.tiles if t != EMPTY})
    if letters:
        through = word_lists.through_bingos(lexicon, rack, letters)
        if through:
            lines.append("Through a letter on the board (where there is room):")
            lines += [f"  {letter}: {' '.join(words)}" for letter, words in through.items()]
    return lines


def advice_lines(game: Game, player: int) -> list[str]:
    """Rack-balance advice on a player's rack, given the unseen tiles."""
    lexicon = _lexicon(game)
    advice = rack_advice(game.rack(player), game.alphabet, unseen=game.unseen(player), lexicon=lexicon)
    return [f"Your rack {advice.leave or '(empty)'}:", *(f"  {note}" for note in advice.notes)]


def review_lines(game: Game, review: TurnAnalysis) -> list[str]:
    """A move's review: where it ranked, the equity lost, the best plays,
    missed bingos and phonies, then advice on the tiles it kept."""
    if not review.analysed:
        return [f"{review.notation}: not reviewed ({review.skipped})."]
    played = review.played
    assert played is not None
    if review.found_best:
        head = f"{review.notation} was the best play by equity ({points(played.equity):.1f})."
    else:
        best = review.best[0]
        head = (
            f"A better play existed: {best.notation} for {best.score} (equity {points(best.equity):.1f}); "
            f"{review.notation} lost {points(review.equity_lost):.1f} ({review.grade.value})."
        )
    lines = [head, *review.lines()[1:]]
    leave = game.alphabet.parse_rack(played.leave) if played.leave else []
    advice = rack_advice(leave, game.alphabet, lexicon=_lexicon(game))
    lines.append(f"Kept {advice.leave or 'nothing'}: " + " ".join(advice.notes))
    return lines
