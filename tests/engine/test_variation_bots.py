"""The bots in every variation of the rules: complete self-play games under
each preset with the game's invariants checked after every action, and
hand-built positions where a blank swap, a recycle or an anagram play is
clearly the best plan (and where the rules forbid it, so it is not made)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest

from gamestate import assert_tiles_accounted
from tilebag import BLANK_BIT, Game, Move, Rules, WordList
from tilebag.board import Board
from tilebag.engine.equity.leaves import load_leaves
from tilebag.engine.movegen.variations import board_words
from tilebag.engine.players import (
    MAX_START_ACTIONS,
    GreedyPlayer,
    Player,
    StaticPlayer,
    start_actions,
)
from tilebag.lab.selfplay import run_selfplay, tiles_placed
from tilebag.lexicon import Lexicon, default_lexicon
from tilebag.move import PLAYED_THROUGH, MoveKind
from tilebag.rules import PRESETS, ChallengeMode, find_rules
from tilebag.variants import check_anagram

VARIATION_KINDS = {MoveKind.ANAGRAM: "anagram", MoveKind.RECYCLE: "recycle", MoveKind.BLANK_SWAP: "blank_swap"}

MAX_PUSHES = 1000
"""A game between bots ends well within this many actions: every scoring
turn puts a tile on the board, scoreless turns in a row are limited, and a
turn starts with at most MAX_START_ACTIONS actions."""


def play_checked(bots: Sequence[Player], rules: Rules, seed: int, lexicon: Lexicon) -> tuple[Game, dict[MoveKind, int]]:
    """A complete game between bots, checking after every push that every
    tile is accounted for, that only the variations the rules allow are
    used, and that no turn starts with too many actions."""
    game = Game([bot.name for bot in bots], rules=rules, lexicon=lexicon, seed=seed)
    kinds: dict[MoveKind, int] = {}
    pushes = 0
    while not game.is_over():
        seat = game.turn
        move = bots[seat].choose(game)
        kinds[move.kind] = kinds.get(move.kind, 0) + 1
        if move.kind in VARIATION_KINDS:
            assert getattr(rules, VARIATION_KINDS[move.kind]), f"{move} under rules without it"
        game.push(move)
        pushes += 1
        assert_tiles_accounted(game)
        if not move.kind.ends_turn:
            assert game.turn == seat and start_actions(game) <= MAX_START_ACTIONS
        assert pushes < MAX_PUSHES, "the game does not end"
    outcome = game.outcome()
    assert outcome is not None and outcome.winners
    return game, kinds


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return default_lexicon()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_two_static_bots_play_every_preset_to_the_end(preset: str, lexicon: Lexicon) -> None:
    rules = PRESETS[preset]
    game, kinds = play_checked([StaticPlayer("s1"), StaticPlayer("s2")], rules, 11, lexicon)
    if rules.is_finish_line:
        outcome = game.outcome()
        assert outcome is not None and outcome.termination.name == "FINISH_LINE"
        assert game.finish_targets is not None and max(game.scores) >= min(game.finish_targets)
    if rules.rack_size == 9:
        assert len(game.events[0].rack or ()) == 9
    if rules.recycle:
        assert kinds.get(MoveKind.RECYCLE), "a recycle bot game with no recycle"


@pytest.mark.parametrize(("preset", "players"), [("house", 4), ("nine-tile", 3), ("finish-line", 4), ("long-first-word", 3)])
def test_greedy_and_static_bots_together(preset: str, players: int, lexicon: Lexicon) -> None:
    bots: list[Player] = [(StaticPlayer if i % 2 else GreedyPlayer)(f"bot{i}") for i in range(players)]
    play_checked(bots, PRESETS[preset], 5, lexicon)


def test_bots_do_not_use_variations_when_told_not_to(lexicon: Lexicon) -> None:
    bots: list[Player] = [StaticPlayer("s", variations=False), GreedyPlayer("g", variations=False)]
    _, kinds = play_checked(bots, PRESETS["house"], 2, lexicon)
    assert not set(kinds) & set(VARIATION_KINDS)


def test_selfplay_counts_anagram_bingos_by_the_tiles_added(lexicon: Lexicon) -> None:
    summary = run_selfplay(["static", "greedy"], games=2, seed=3, rules=PRESETS["house"], lexicon=lexicon)
    assert summary.games == 2 and sum(bot.wins for bot in summary.bots) == 2
    game = game_with(Rules(anagram=True), ("TEAQJOV", "ZINSOUL"), WORDS_ZETA)
    game.push(game.parse_move("8G TEA"))
    assert tiles_placed(game, move_text(game, "anagram 8F ZETA")) == 1
    assert tiles_placed(game, game.parse_move("H6 ZE.")) == 2


# -- hand-built positions ------------------------------------------------------------

WORDS_ZETA = ["TEA", "ETA", "ZETA"]


def game_with(rules: Rules, racks: tuple[str, ...], words: Sequence[str]) -> Game:
    """A two-player game with these racks and words, the first seat to move."""
    game = Game(len(racks), rules=rules, lexicon=WordList(words, name="focused"), seed=3, first=0)
    for seat, rack in enumerate(racks):
        game.set_rack(seat, rack, exact=True)
    return game


def move_text(game: Game, text: str) -> Move:
    return Move.from_gcg(text, game.alphabet, game.layout)


def finish_turn(game: Game, bot: Player) -> list[Move]:
    """Let the bot play its whole turn; the actions it made."""
    seat = game.turn
    made: list[Move] = []
    while game.turn == seat and not game.is_over():
        move = bot.choose(game)
        game.push(move)
        made.append(move)
        assert len(made) <= MAX_START_ACTIONS + 1
    assert made[-1].kind.ends_turn
    return made


def test_static_swaps_a_blank_it_can_take() -> None:
    game = game_with(Rules(blank_swap=True), ("??EQJOI", "TLNRUVW"), ["TEA", "EAT", "ETA", "AT", "TA"])
    game.push(game.parse_move("8G tEa"))
    made = finish_turn(game, StaticPlayer())
    assert made[0] == Move.blank_swap(7, 6)
    assert made[1].kind is not MoveKind.BLANK_SWAP  # the rack holds no A for the other blank
    assert game.board.at(7, 6) == game.alphabet.parse_word("T")[0]
    assert_tiles_accounted(game)


def test_no_swap_before_a_play_that_reaches_the_finish_line() -> None:
    rules = Rules(blank_swap=True, finish_player_targets=(50, 2))
    # with the blank for a T it could score 3 (E, T on I7, a on I8), but 2 already wins
    game = game_with(rules, ("??EQJOI", "TTLNRUV"), ["TEA", "EAT", "ETA", "AT", "TA"])
    game.push(game.parse_move("8G tEa"))
    move = StaticPlayer().choose(game)
    assert move.kind is MoveKind.PLACE and game.score(move) >= 2
    game.push(move)
    assert game.finish_winner == 1


def test_a_swap_that_gains_nothing_is_not_made() -> None:
    class NoLeaves:
        name = "none"

        def value(self, leave: Sequence[int]) -> float:
            return 0.0

    game = game_with(Rules(blank_swap=True), ("??EQJOI", "TLNRUVW"), ["TEA", "EAT", "ETA", "AT", "TA"])
    game.push(game.parse_move("8G tEa"))
    # valuing no leave, a blank is worth nothing to keep, and scores less than the T
    assert StaticPlayer(leaves=NoLeaves()).choose(game).kind is not MoveKind.BLANK_SWAP


def test_both_blanks_are_swapped_in_one_turn() -> None:
    game = game_with(Rules(blank_swap=True), ("??EQJOI", "TALNRUV"), ["TEA", "EAT", "ETA", "AT", "TA"])
    game.push(game.parse_move("8G tEa"))
    made = finish_turn(game, StaticPlayer())
    assert [m.kind for m in made[:2]] == [MoveKind.BLANK_SWAP, MoveKind.BLANK_SWAP]
    assert {(m.row, m.col) for m in made[:2]} == {(7, 6), (7, 8)}


def test_static_recycles_a_bad_tile_for_a_good_one() -> None:
    game = game_with(Rules(recycle=True), ("SATQJOI", "VLNRUWW"), ["SAT", "VAT"])
    game.push(game.parse_move("8G SAT"))
    made = finish_turn(game, StaticPlayer())
    assert made[0] == Move.recycle(7, 6, game.alphabet.parse_word("V")[0])
    # never back and forth: the S it took stays on its rack
    assert [m.kind for m in made[1:]] != [MoveKind.RECYCLE]
    assert all(m.kind is not MoveKind.RECYCLE for m in made[1:])
    assert_tiles_accounted(game)


def test_greedy_recycles_for_a_higher_score() -> None:
    game = game_with(
        Rules(recycle=True, challenge=ChallengeMode.VOID), ("ZAQJOIU", "KDLNRVW"), ["ZA", "KA", "ADZ", "AD", "KAD"]
    )
    game.push(game.parse_move("8G ZA"))
    made = finish_turn(game, GreedyPlayer())
    assert made[0] == Move.recycle(7, 6, game.alphabet.parse_word("K")[0])  # KA stays a word, the Z comes home
    assert game.notation(made[1]) == "H8 (A)DZ" and game.scores[1] == 13


def test_static_makes_an_anagram_play_when_it_is_clearly_best() -> None:
    game = game_with(Rules(anagram=True, challenge=ChallengeMode.VOID), ("TEAQJOV", "ZINSOUL"), WORDS_ZETA)
    game.push(game.parse_move("8G TEA"))
    static = StaticPlayer(leaves=load_leaves("heuristic"))  # the trained values would rather change LU
    for bot in (static, GreedyPlayer()):
        assert bot.choose(game) == move_text(game, "anagram 8F ZETA")
    assert static.ranked(game, top=1)[0].move == move_text(game, "anagram 8F ZETA")
    assert game.push(static.choose(game)) == 13  # accepted on entry (void challenge)
    assert game.board.word_text(Move.place(7, 5, False, (0, 0, 0, 0))) == "ZETA"


def test_a_seven_letter_word_is_rearranged_to_take_one_more_tile() -> None:
    words = ["RETAINS", "STEARIN", "STEARING", "GANTRIES", "INGRATES", "GRANITES", "ANGRIEST", "RANGIEST"]
    game = game_with(Rules(anagram=True), ("RETAINS", "GEILNOS"), words)
    game.push(game.parse_move("8D RETAINS"))
    bot = StaticPlayer()
    move = bot.choose(game)
    assert move.kind is MoveKind.ANAGRAM
    play = check_anagram(game.board, move)
    assert len(play.tiles_used) == 1 and play.score == bot.ranked(game, top=1)[0].score
    assert all(word.tiles in game.lexicon for word in play.words)


def test_no_variation_the_rules_do_not_allow() -> None:
    positions = [
        (("??EQJOI", "TLNRUVW"), ["TEA", "EAT", "ETA", "AT", "TA"], "8G tEa"),
        (("SATQJOI", "VLNRUWW"), ["SAT", "VAT"], "8G SAT"),
        (("TEAQJOV", "ZINSOUL"), WORDS_ZETA, "8G TEA"),
        (("ZAQJOIU", "KDLNRVW"), ["ZA", "KA", "ADZ", "AD", "KAD"], "8G ZA"),
    ]
    for racks, words, first in positions:
        for rules in (Rules(), Rules(challenge=ChallengeMode.VOID, open_dictionary=True)):
            game = game_with(rules, racks, words)
            game.push(game.parse_move(first))
            for bot in (StaticPlayer(), GreedyPlayer()):
                assert bot.choose(game).kind in (MoveKind.PLACE, MoveKind.EXCHANGE, MoveKind.PASS)
        # each variation alone allows only itself
        for flag in VARIATION_KINDS.values():
            game = game_with(Rules().replace(**{flag: True}), racks, words)
            game.push(game.parse_move(first))
            for bot in (StaticPlayer(), GreedyPlayer()):
                kind = bot.choose(game).kind
                assert kind not in VARIATION_KINDS or VARIATION_KINDS[kind] == flag


# -- first words, racks of 9, Finish Line ---------------------------------------------


def test_a_bot_that_cannot_make_the_minimum_first_word_exchanges_or_passes() -> None:
    words = ["AT", "EAT", "TEA", "TEAS", "SEAT"]
    for rack in ("EATSQOI", "EATSQOIUV"):
        rules = Rules(min_first_word=5, rack_size=len(rack), bingo_tiles=7)
        game = game_with(rules, (rack, "XSAEIOU"), words)
        for bot in (StaticPlayer(), GreedyPlayer()):
            assert bot.choose(game).kind is MoveKind.EXCHANGE
        no_exchange = game_with(rules.replace(exchange_min_bag=100), (rack, "XSAEIOU"), words)
        for bot in (StaticPlayer(), GreedyPlayer()):
            assert bot.choose(no_exchange).kind is MoveKind.PASS
        four = game_with(rules.replace(min_first_word=4), (rack, "XSAEIOU"), words)
        move = GreedyPlayer().choose(four)
        assert move.kind is MoveKind.PLACE and len(move.placed()) >= 4 and four.is_legal(move)
        assert four.is_legal(StaticPlayer().choose(four))


def test_nine_tile_racks_bingo_with_seven_tiles() -> None:
    game = Game(2, rules=find_rules("nine-tile"), lexicon=WordList(["RETAINS"]), seed=3, first=0)
    game.set_rack(0, "RETAINSQJ", exact=True)
    move = StaticPlayer().choose(game)
    assert len(move.placed()) == 7 and game.push(move) > 50 and len(game.rack(0)) == 9


def test_finish_line_bots_play_to_reach_the_target(lexicon: Lexicon) -> None:
    def first_move(rules: Rules) -> tuple[Game, Move]:
        game = Game(2, rules=rules, lexicon=lexicon, seed=3, first=0)
        game.set_rack(0, "QUIZERS", exact=True)
        return game, StaticPlayer().choose(game)

    game, move = first_move(Rules())
    # 8D QUIRE: every QUIZ (44, keeping ERS) puts its U or I beside a double letter
    assert game.score(move) == 48
    game, move = first_move(Rules(finish_target=50))
    assert game.score(move) >= 50
    game.push(move)
    assert game.is_over() and game.finish_winner == 0
    game, move = first_move(Rules(finish_target=400))  # out of reach: plays as usual
    assert game.score(move) == 48


# -- candidates are legal, and anagram plays are all found --------------------------------


def test_every_candidate_is_legal_in_the_game(lexicon: Lexicon) -> None:
    rules = PRESETS["house"].replace(challenge=ChallengeMode.VOID)
    bots = [StaticPlayer("a"), GreedyPlayer("b")]
    game = Game(["a", "b"], rules=rules, lexicon=lexicon, seed=8)
    finder = game.engine.variations
    checked = {"recycle": 0, "anagram": 0}
    while not game.is_over():
        rack = game.rack()
        for move in finder.recycles(game.board, rack):
            assert finder.recycle_is_sound(game.board, move, lexicon)
            assert game.is_legal(move), move
            checked["recycle"] += 1
        for play in finder.anagram_plays(game.board, rack, lexicon=lexicon):
            assert game.is_legal(play.move) and game.score(play.move) == play.score, play.move
            checked["anagram"] += 1
        game.push(bots[game.turn].choose(game))
    assert all(checked.values()), checked


def brute_anagrams(board: Board, rack: list[int], game: Game) -> set[Move]:
    """Anagram plays the slow way: every rearrangement of every word placed
    on a copy of the board, then every placement that covers just that word
    and extends it in its line."""
    generator = game.engine.generator
    found: set[Move] = set()
    for word in board_words(board):
        squares = word.squares()
        for tiles in set(itertools.permutations(word.tiles)):
            if tiles == word.tiles:
                continue
            staged = board.copy()
            for (r, c), t in zip(squares, tiles, strict=True):
                staged.tiles[r * board.layout.cols + c] = t
            for move, _ in generator.placements(staged, rack):
                cells = list(move.squares())
                through = sorted((r, c) for r, c, t in cells if t == PLAYED_THROUGH)
                if move.down != word.down or through != sorted(squares):
                    continue
                full = [staged.at(r, c) if t == PLAYED_THROUGH else t for r, c, t in cells]
                anagram = Move.anagram(move.row, move.col, move.down, full)
                if all(w.tiles in game.lexicon for w in check_anagram(board, anagram).words):
                    found.add(anagram)
    return found


def test_anagram_plays_are_exactly_those_a_brute_force_finds() -> None:
    words = ["TEA", "EAT", "ETA", "ATE", "TEAS", "SEAT", "EATS", "ETAS", "SATE", "ZETA", "ZETAS", "AT", "TA",
             "ST", "AS", "ES", "SH", "HA", "AH", "HE", "EH", "HAT", "THE", "HATE", "HEAT", "HEATS", "HATES", "ZA"]
    game = game_with(Rules(anagram=True), ("TEAQJOI", "HAQJOIU"), words)
    game.push(game.parse_move("8G TEA"))
    game.push(game.parse_move("I7 HA"))  # a cross-word through the A
    for rack_text in ("ZS?UVWW", "SZ", "S?", "H"):
        rack = game.alphabet.parse_rack(rack_text)
        got = {play.move for play in game.engine.variations.anagram_plays(game.board, rack, lexicon=game.lexicon)}
        assert got == brute_anagrams(game.board, rack, game), rack_text


def nine_tile_game_with_a_small_bag(bag: int) -> Game:
    """A 9-tile game whose bag is down to ``bag`` tiles, filled with rows of
    tiles no lexicon needs to accept (double challenge: nobody challenges);
    the bots' lexicon has no word they can play."""
    game = Game(2, rules=find_rules("nine-tile"), lexicon=WordList(["ZZZ"]), seed=5, first=0)
    rows = iter([7, 6, 5, 4, 3, 2, 1, 0, 8, 9, 10])
    while len(game.bag) > bag:
        rack = game.rack()[: min(9, len(game.bag) - bag)]
        game.push(Move.place(next(rows), 3, False, [t or (BLANK_BIT | 1) for t in rack]))
    assert_tiles_accounted(game)
    return game


@pytest.mark.parametrize("bag", [7, 8])
def test_nine_tile_bots_never_exchange_more_tiles_than_the_bag_holds(bag: int) -> None:
    game = nine_tile_game_with_a_small_bag(bag)
    assert len(game.bag) == bag and len(game.rack()) == 9
    for bot in (StaticPlayer(), GreedyPlayer()):
        move = bot.choose(game)
        assert move.kind is MoveKind.EXCHANGE and len(move.tiles) <= bag and game.is_legal(move)
    assert all(game.is_legal(play.move) for play in StaticPlayer().ranked(game))
