"""The game: the draw for first play, turns, the bag, challenges in every
mode, the end of the game, outcomes, and exact undo."""

from __future__ import annotations

from collections import Counter

import pytest

from gamestate import assert_tiles_accounted, fingerprint
from tilebag import (
    AcceptAll,
    Bag,
    ChallengeMode,
    EndAdjustment,
    EventKind,
    Game,
    GameOverError,
    Illegal,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    PhonyError,
    Rules,
    Termination,
    WordList,
    load_alphabet,
    load_alphabet_file,
)
from tilebag.actions import AddPoints, Challenge, PlayMove, Resign, TimeOut
from tilebag.alphabet import BLANK, BLANK_BIT
from tilebag.rules import RulesError

EN = load_alphabet("english")
WORDS = ["HORN", "FARM", "FARMS", "PASTE", "MOB", "NOT", "BE", "BIT", "PI", "AT", "QI", "ZA", "RETAINS"]


def lexicon() -> WordList:
    return WordList(WORDS, name="tiny")


def new_game(players: int = 2, *, seed: int = 7, first: int = 0, **rules: object) -> Game:
    return Game(players, rules=Rules(**rules), lexicon=lexicon(), seed=seed, first=first)  # type: ignore[arg-type]


def rack_text(game: Game, player: int) -> str:
    return EN.format_rack(game.rack(player))


# -- helpers: state fingerprints, tile accounting, and a filler move finder ----





def find_placement(game: Game, k: int) -> Move | None:
    """The first placement (scanning from A1) of the first ``k`` tiles of the
    rack that the board allows; blanks stand for A. Words are not judged:
    in double-challenge mode any such play is accepted on entry."""
    tiles = [t if t != BLANK else BLANK_BIT | 1 for t in game.rack()][:k]
    layout, board = game.layout, game.board
    for row in range(layout.rows):
        for col in range(layout.cols):
            if board.at(row, col):
                continue
            for down in (False, True):
                dr, dc = (1, 0) if down else (0, 1)
                r, c, out, placed = row, col, [], 0
                while layout.on_board(r, c) and (placed < k or board.at(r, c)):
                    if board.at(r, c):
                        out.append(0)
                    else:
                        out.append(tiles[placed])
                        placed += 1
                    r, c = r + dr, c + dc
                if placed == k:
                    move = Move.place(row, col, down, out)
                    if game.is_legal(move):
                        return move
    return None


def drain(game: Game, bag_left: int) -> None:
    """Play filler placements until the bag holds exactly ``bag_left`` tiles."""
    while len(game.bag) > bag_left:
        k = min(len(game.rack()), len(game.bag) - bag_left)
        move = find_placement(game, k)
        assert move is not None
        game.push(move)
    assert len(game.bag) == bag_left


# -- the draw for first play ----------------------------------------------------


def rank(tile):
    return -1 if tile == BLANK else tile


def check_draw(players: int, first: int, rounds: list) -> None:
    """The draw obeys the rules: each round the contenders draw, the best
    tile (a blank, else the letter nearest A) stays in, ties draw again."""
    contenders = list(range(players))
    for drawn in rounds:
        assert [p for p in range(players) if drawn[p] is not None] == contenders
        best = min(rank(drawn[p]) for p in contenders)
        contenders = [p for p in contenders if rank(drawn[p]) == best]
    assert contenders == [first]


def test_draw_blank_beats_every_letter():
    firsts = set()
    for seed in range(20):
        bag = Bag(EN, seed, tiles=[BLANK, EN.tile("A")])
        first, rounds = bag.draw_for_first(2)
        assert len(rounds) == 1
        assert rounds[0][first] == BLANK
        assert sorted(rounds[0]) == [BLANK, EN.tile("A")]
        assert bag.tiles() == [BLANK, EN.tile("A")]  # the tiles go back
        firsts.add(first)
    assert firsts == {0, 1}


def test_draw_letter_nearest_a_first():
    for seed in range(20):
        tiles = [EN.tile(x) for x in "ZEB"]
        bag = Bag(EN, seed, tiles=tiles)
        first, rounds = bag.draw_for_first(3)
        assert len(rounds) == 1
        assert EN.label(rounds[0][first]) == "B"
        assert bag.tiles() == sorted(tiles)


def test_draw_ties_draw_again():
    redraws = 0
    for seed in range(40):
        tiles = [EN.tile(x) for x in "EEBC"]
        bag = Bag(EN, seed, tiles=tiles)
        first, rounds = bag.draw_for_first(2)
        check_draw(2, first, rounds)
        if rounds[0] == [EN.tile("E")] * 2:
            redraws += 1
            assert len(rounds) == 2
            assert EN.label(rounds[1][first]) == "B"
        assert bag.tiles() == sorted(tiles)
    assert redraws > 0


def test_draw_only_tied_players_draw_again():
    seen_partial_redraw = False
    for seed in range(60):
        tiles = [EN.tile(x) for x in "AAZ"] + [BLANK, EN.tile("E"), EN.tile("Q")]
        bag = Bag(EN, seed, tiles=tiles)
        first, rounds = bag.draw_for_first(3)
        check_draw(3, first, rounds)
        if len(rounds) > 1 and None in rounds[1]:
            seen_partial_redraw = True
    assert seen_partial_redraw


def test_game_draws_for_first_play():
    for seed in range(10):
        game = Game(3, seed=seed)
        check_draw(3, game.first, game.first_draw)
        assert game.turn == game.first
        assert [len(game.rack(i)) for i in range(3)] == [7, 7, 7]
        assert len(game.bag) == 79
        assert_tiles_accounted(game)
    with pytest.raises(ValueError):
        Bag(EN, 1).draw_for_first(0)
    with pytest.raises(ValueError, match="first player 2 is not one of the 2 seats"):
        Game(2, seed=1, first=2)


# -- set-up, the bag, seeds ------------------------------------------------------


def test_seeded_games_are_reproducible():
    a, b = Game(["ann", "bob"], seed=42), Game(["ann", "bob"], seed=42)
    assert (a.first, a.first_draw) == (b.first, b.first_draw)
    assert [a.rack(i) for i in range(2)] == [b.rack(i) for i in range(2)]
    for game in (a, b):
        drain(game, 60)
    assert fingerprint(a) == fingerprint(b)
    c = Game(["ann", "bob"], seed=43)
    assert [c.rack(i) for i in range(2)] != [Game(["ann", "bob"], seed=42).rack(i) for i in range(2)]


def test_new_game():
    game = Game(["ann", "bob"], seed=1, first=1)
    assert [p.name for p in game.players] == ["ann", "bob"]
    assert game.turn == 1 and game.player is game.players[1]
    assert game.scores == [0, 0]
    assert len(game.bag) == 86
    assert game.board.is_empty()
    assert game.outcome() is None and not game.is_over()
    assert game.first_draw == []
    assert [p.name for p in Game(3, seed=1).players] == ["player1", "player2", "player3"]
    assert_tiles_accounted(game)


def test_bag_tiles_are_hidden_and_sorted():
    bag = Bag(EN, seed=5)
    assert "A" not in repr(bag) and repr(bag) == "<Bag: 100 tiles>"
    assert bag.tiles() == EN.distribution()
    assert bag.counts() == list(EN.counts)
    drawn = bag.draw(7)
    assert len(bag) == 93 and len(drawn) == 7
    bag.put_back(drawn)
    assert bag.tiles() == EN.distribution()
    assert bag.draw(0) == [] and len(bag.draw(200)) == 100 and bag.draw(1) == []


def test_bag_take():
    bag = Bag(EN, seed=5, tiles=[1, 1, 2, 0])
    bag.take([1, 0])
    assert bag.tiles() == [1, 2]
    assert bag.contains([1, 2]) and not bag.contains([1, 1])
    with pytest.raises(ValueError, match="the bag holds no ZZ"):
        bag.take([26, 26])
    with pytest.raises(ValueError, match="the bag holds no B"):
        bag.take([1, 2, 2])
    assert bag.tiles() == [1, 2]  # nothing was removed


def test_bag_take_a_designated_blank():
    bag = Bag(EN, seed=5, tiles=[1, 1, 2, 0])
    try:
        bag.take([1, BLANK_BIT | 5])
    except ValueError:
        assert bag.tiles() == [0, 1, 1, 2]  # refused: nothing removed
    else:
        assert bag.tiles() == [1, 2]  # taken as the blank it is


def test_set_rack_takes_tiles_from_the_bag():
    game = new_game()
    bag_before = len(game.bag)
    game.set_rack(0, "HORN")
    assert len(game.rack(0)) == 7 and len(game.bag) == bag_before
    assert Counter(game.rack(0)) >= Counter(EN.parse_rack("HORN"))
    game.set_rack(0, "QI?", exact=True)
    assert rack_text(game, 0) == "IQ?"
    assert_tiles_accounted(game)


def test_set_rack_with_unavailable_tiles_changes_nothing():
    game = new_game()
    game.set_rack(1, "Q")
    before = fingerprint(game)
    with pytest.raises(IllegalMoveError) as info:
        game.set_rack(0, "ZZ")
    assert info.value.reason is Illegal.TILE_NOT_AVAILABLE
    assert str(info.value) == "ZZ: no Z is left (not in the bag nor on another rack)"
    assert fingerprint(game) == before
    with pytest.raises(IllegalMoveError, match="8 tiles, a rack holds 7"):
        game.set_rack(0, "AAAAAAAA")
    assert fingerprint(game) == before
    # a tile on another rack moves over, and that rack draws a replacement
    game.set_rack(0, "Q")
    assert EN.tile("Q") in game.rack(0) and EN.tile("Q") not in game.rack(1)
    assert len(game.rack(1)) == 7
    assert_tiles_accounted(game)


# -- plays -----------------------------------------------------------------------


def test_worked_example_scores():
    game = new_game()
    plays = [
        (0, "HNOR", "8F HORN"),
        (1, "AFM", "H6 FARM"),
        (0, "PASTE", "10F PASTE"),
        (1, "OB", "9H MOB"),
        (0, "BIT", "11E BIT"),
    ]
    scores = []
    for player, rack, text in plays:
        assert game.turn == player
        game.set_rack(player, rack)
        scores.append(game.push_gcg(text))
    assert scores == [14, 9, 25, 16, 16]
    assert game.scores == [14 + 25 + 16, 9 + 16]
    assert [e.total for e in game.events] == [14, 9, 39, 25, 55]
    # H6 FARM was written out: the R on H8 is played through
    assert game.events[1].move == Move.from_gcg("H6 FA.M")
    assert game.notation(game.events[1].move) == "H6 FA(R)M"
    assert_tiles_accounted(game)


def test_parse_move_resolves_letters_on_the_board():
    game = new_game()
    game.set_rack(0, "HNOR")
    game.push_gcg("8F HORN")
    assert game.parse_move("H6 FARM") == Move.from_gcg("H6 FA.M")
    assert game.parse_move("-ABC") == Move.exchange([1, 2, 3])
    assert game.parse_move("-") == Move.pass_()
    with pytest.raises(InvalidMoveError):
        game.parse_move("8F H0RN")
    with pytest.raises(IllegalMoveError) as info:
        game.parse_move("8G XX")
    assert info.value.reason is Illegal.SQUARE_OCCUPIED


def test_play_refills_the_rack():
    game = new_game()
    game.set_rack(0, "HORNXYZ")
    bag_before = len(game.bag)
    assert game.push_gcg("8F HORN") == 14
    rack = game.rack(0)
    assert len(rack) == 7
    assert Counter(rack) >= Counter(EN.parse_rack("XYZ"))
    assert len(game.bag) == bag_before - 4
    assert game.turn == 1 and game.scoreless == 0
    assert game.events[-1].kind is EventKind.PLACE
    assert sorted(game.events[-1].rack) == sorted(EN.parse_rack("HORNXYZ"))
    assert_tiles_accounted(game)


def test_bingo_in_a_game():
    game = new_game()
    game.set_rack(0, "RETAINS")
    assert game.score(Move.from_gcg("8H RETAINS")) == 66
    assert game.push_gcg("8H RETAINS") == 66
    game2 = new_game(rack_size=9, bingo_tiles=7)
    game2.set_rack(0, "RETAINSAA")
    assert game2.push_gcg("8H RETAINS") == 66
    assert len(game2.rack(0)) == 9


def test_a_blank_played_leaves_the_rack_as_a_blank():
    game = new_game()
    game.set_rack(0, "QT?EEEE", exact=True)
    assert game.push_gcg("8F QaT") == 22
    assert game.board.at(7, 6) == BLANK_BIT | EN.tile("A")
    assert game.events[0].move.tiles_used == [EN.tile("Q"), BLANK_BIT | EN.tile("A"), EN.tile("T")]
    assert Counter(game.rack(0)) >= Counter(EN.parse_rack("EEEE"))
    assert_tiles_accounted(game)


def test_tile_not_on_rack():
    game = new_game()
    game.set_rack(0, "HORNAAA", exact=True)
    before = fingerprint(game)
    with pytest.raises(IllegalMoveError) as info:
        game.push_gcg("8G QI")
    assert info.value.reason is Illegal.TILE_NOT_ON_RACK
    assert str(info.value) == "8G QI: the rack AAAHNOR has no IQ"
    assert fingerprint(game) == before
    # a blank stands for a lower-case letter only, not for a capital
    game.set_rack(0, "HORNAA?", exact=True)
    with pytest.raises(IllegalMoveError, match="has no Q"):
        game.check(Move.from_gcg("8G QA"))
    assert game.is_legal(Move.from_gcg("8G qA"))
    with pytest.raises(IllegalMoveError, match="the rack AAHNOR\\? has no A$"):
        game.check(Move.from_gcg("8G AAA"))
    game.set_rack(0, "HORNAAA", exact=True)
    before = fingerprint(game)
    with pytest.raises(IllegalMoveError) as info:
        game.push_gcg("-QI")
    assert info.value.reason is Illegal.TILE_NOT_ON_RACK
    assert str(info.value) == "-IQ: the rack AAAHNOR has no IQ to exchange"
    assert fingerprint(game) == before


def test_invalid_tile_codes():
    game = new_game()
    before = fingerprint(game)
    for tiles in ([27, 1], [1, -1], [BLANK_BIT, 1], [BLANK_BIT | 27, 1]):
        with pytest.raises(InvalidMoveError, match="is not a tile of the english tile set"):
            game.push(Move.place(7, 7, False, tiles))
    assert fingerprint(game) == before


@pytest.mark.parametrize("code", [27, 99, -1])
def test_exchange_of_invalid_tile_codes(code):
    game = new_game()
    before = fingerprint(game)
    assert not game.is_legal(Move.exchange([code]))
    with pytest.raises(InvalidMoveError, match="is not a tile of the english tile set"):
        game.push(Move.exchange([code]))
    assert fingerprint(game) == before


def test_first_play_rules_in_a_game():
    game = new_game(min_first_word=3)
    game.set_rack(0, "HORNAT")
    with pytest.raises(IllegalMoveError) as info:
        game.push_gcg("8H AT")
    assert info.value.reason is Illegal.FIRST_PLAY_TOO_SHORT
    assert "at least 3 tiles" in str(info.value)
    with pytest.raises(IllegalMoveError) as info:
        game.push_gcg("7F HORN")
    assert info.value.reason is Illegal.FIRST_PLAY_NOT_ON_START
    assert game.push_gcg("8F HORN") == 14


# -- exchanges and passes --------------------------------------------------------------


def test_pass():
    game = new_game()
    before = (game.rack(0), game.bag.tiles())
    assert game.push(Move.pass_()) == 0
    assert (game.rack(0), game.bag.tiles()) == before
    assert game.turn == 1 and game.scoreless == 1 and game.scores == [0, 0]
    assert game.events[-1].kind is EventKind.PASS


def test_exchange_of_no_tiles_is_a_pass():
    game = new_game()
    assert game.check(Move.exchange([])) == Move.pass_()
    game.push(Move.exchange([]))
    assert game.events[-1].kind is EventKind.PASS
    assert game.events[-1].move == Move.pass_()
    assert game.turn == 1 and game.scoreless == 1


def test_exchange():
    game = new_game()
    game.set_rack(0, "QVVWW")
    bag_before = len(game.bag)
    assert game.push_gcg("-QVVWW") == 0
    assert len(game.rack(0)) == 7 and len(game.bag) == bag_before
    assert game.turn == 1 and game.scoreless == 1
    event = game.events[-1]
    assert event.kind is EventKind.EXCHANGE and event.score == 0
    assert event.move == Move.exchange(EN.parse_rack("QVVWW"))
    assert_tiles_accounted(game)


def test_exchange_draws_before_returning_the_tiles():
    # the only Q goes back: had it been returned before the draw, it could come back
    for seed in range(30):
        game = new_game(seed=seed)
        game.set_rack(0, "Q")
        game.push_gcg("-Q")
        assert EN.tile("Q") not in game.rack(0)
        assert EN.tile("Q") in game.bag.tiles()
    # with exactly 7 tiles in the bag, exchanging 7 swaps the rack for the bag
    game = new_game(seed=11)
    drain(game, 7)
    old_rack, old_bag = sorted(game.rack()), game.bag.tiles()
    game.push(Move.exchange(game.rack()))
    assert sorted(game.rack(game.events[-1].player)) == old_bag
    assert game.bag.tiles() == old_rack
    assert_tiles_accounted(game)


def test_exchange_needs_seven_tiles_in_the_bag():
    game = new_game(seed=3)
    drain(game, 6)
    before = fingerprint(game)
    rack = game.rack()
    with pytest.raises(IllegalMoveError) as info:
        game.push(Move.exchange(rack[:1]))
    assert info.value.reason is Illegal.BAG_TOO_SMALL
    assert str(info.value) == f"-{EN.format_rack(rack[:1])}: exchanging needs at least 7 tiles in the bag, it holds 6"
    assert fingerprint(game) == before
    # a pass is still allowed
    game.push(Move.pass_())


def test_exchange_limit_is_a_rule():
    game = new_game(seed=3, exchange_min_bag=1)
    drain(game, 1)
    with pytest.raises(IllegalMoveError) as info:
        game.push(Move.exchange(game.rack()[:2]))  # never more tiles than the bag holds
    assert info.value.reason is Illegal.BAG_TOO_SMALL
    assert "needs at least 2 tiles in the bag, it holds 1" in str(info.value)
    game.push(Move.exchange(game.rack()[:1]))
    assert len(game.bag) == 1
    assert_tiles_accounted(game)


def test_exchange_naming_a_designated_blank():
    game = new_game()
    game.set_rack(0, "?")
    before = fingerprint(game)
    try:
        game.push(Move.exchange([BLANK_BIT | 1]))  # "a" where the rack has "?"
    except (IllegalMoveError, InvalidMoveError):
        assert fingerprint(game) == before  # refused: nothing changed
        return
    # or accepted as the exchange of the blank
    assert game.events[-1].kind is EventKind.EXCHANGE
    assert_tiles_accounted(game)


# -- challenges ------------------------------------------------------------------------


def play_phony(game: Game) -> int:
    """XQZ across the centre on an empty board, else RXQ down from the R of HORN."""
    game.set_rack(game.turn, "XQZAEIO")
    return game.push_gcg("8G XQZ" if game.board.is_empty() else "H8 RXQ")


def test_double_challenge_phony_comes_off():
    game = new_game()
    game.set_rack(0, "XQZAEIO")
    rack_before, bag_before = game.rack(0), game.bag.tiles()
    score = game.push_gcg("8G XQZ")
    assert score == (8 + 10 + 10) * 2
    result = game.challenge()
    assert not result.valid
    assert result.words == ("XQZ",) and result.phonies == ("XQZ",)
    assert result.points == 0 and not result.lost_turn
    assert game.board.is_empty()
    assert game.rack(0) == rack_before
    assert game.bag.tiles() == bag_before
    assert game.scores == [0, 0]
    assert game.turn == 1  # the phony cost its player the turn
    assert game.scoreless == 1
    assert [e.kind for e in game.events] == [EventKind.PLACE, EventKind.WITHDRAWN]
    assert game.events[-1].score == -score and game.events[-1].total == 0
    assert game.challengeable is None
    assert_tiles_accounted(game)


def test_xqz_score():
    # X on G8, Q on H8 (the double-word centre), Z on I8
    assert new_game().score(Move.from_gcg("8G XQZ")) == (8 + 10 + 10) * 2


def test_challenge_judges_every_word_at_once():
    game = new_game()
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    game.set_rack(1, "AT")
    game.push_gcg("9E AT")  # AT is good, HT (down through the H) is not
    result = game.challenge()
    assert not result.valid
    assert result.words == ("AT", "HT") and result.phonies == ("HT",)
    assert game.scores == [14, 0]
    assert game.turn == 0


def test_double_challenge_valid_play_costs_the_challenger_a_turn():
    game = new_game()
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    result = game.challenge()
    assert result.valid and result.phonies == () and result.words == ("HORN",)
    assert result.lost_turn and result.points == 0
    assert game.turn == 0  # player 1 lost the turn: player 0 moves again
    assert game.scores == [14, 0]
    assert game.scoreless == 1
    assert game.events[-1].kind is EventKind.CHALLENGE and game.events[-1].player == 1 and game.events[-1].score == 0
    assert game.players[1].lost_turns == 0
    with pytest.raises(IllegalMoveError) as info:
        game.challenge()
    assert info.value.reason is Illegal.NOTHING_TO_CHALLENGE


def test_double_challenge_three_players_challenger_to_move():
    game = new_game(3)
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    result = game.challenge()  # player 1, to move
    assert result.valid and result.lost_turn
    assert game.turn == 2
    assert game.scoreless == 1


def test_double_challenge_three_players_challenger_not_to_move():
    game = new_game(3)
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    result = game.challenge(2)
    assert result.valid and result.lost_turn
    assert game.turn == 1 and game.players[2].lost_turns == 1
    game.push(Move.pass_())  # player 1
    assert game.turn == 0  # player 2's turn is skipped
    assert game.players[2].lost_turns == 0
    assert game.scoreless == 2  # the pass and the lost turn
    game.push(Move.pass_())
    assert game.turn == 1


def test_lost_turn_skipped_before_a_withdrawal_stays_scoreless():
    game = new_game(3)
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    assert game.challenge(2).valid  # player 2 will miss their next turn
    play_phony(game)  # player 1; then player 2's turn is skipped
    assert game.turn == 0 and game.scoreless == 1
    assert not game.challenge().valid
    # scoreless turns in a row: player 1's withdrawn play and player 2's lost turn
    assert game.scoreless == 2
    for _ in range(3):
        game.push(Move.pass_())
    assert not game.is_over()
    game.push(Move.pass_())  # the sixth scoreless turn in a row
    assert game.is_over()


def test_phony_in_three_players_keeps_the_turn_order():
    game = new_game(3)
    play_phony(game)
    result = game.challenge(2)
    assert not result.valid
    assert game.turn == 1 and game.scores == [0, 0, 0]


def test_single_challenge():
    game = new_game(challenge=ChallengeMode.SINGLE)
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    result = game.challenge()
    assert result.valid and not result.lost_turn and result.points == 0
    assert game.turn == 1 and game.scores == [14, 0] and game.scoreless == 0
    game.push(Move.pass_())
    play_phony(game)
    result = game.challenge()
    assert not result.valid
    assert game.board.tile_count == 4 and game.scores == [14, 0] and game.turn == 1


@pytest.mark.parametrize(("mode", "penalty"), [(ChallengeMode.FIVE_POINT, 5), (ChallengeMode.TEN_POINT, 10)])
def test_point_challenges(mode, penalty):
    game = new_game(challenge=mode)
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    result = game.challenge()
    assert result.valid and not result.lost_turn and result.points == -penalty
    assert game.scores == [14, -penalty]
    assert game.turn == 1 and game.scoreless == 0
    assert game.events[-1].kind is EventKind.CHALLENGE and game.events[-1].score == -penalty
    game.push(Move.pass_())
    play_phony(game)
    assert not game.challenge().valid
    assert game.scores == [14, -penalty]


def test_void_mode_refuses_phonies_on_entry():
    game = new_game(challenge=ChallengeMode.VOID)
    game.set_rack(0, "XQZHORN")
    before = fingerprint(game)
    with pytest.raises(PhonyError) as info:
        game.push_gcg("8G XQZ")
    err = info.value
    assert err.reason is Illegal.PHONY and err.words == ["XQZ"]
    assert str(err) == "8G XQZ: not in the tiny lexicon: XQZ"
    assert fingerprint(game) == before
    assert not game.is_legal(Move.from_gcg("8G XQZ"))
    assert game.push_gcg("8F HORN") == 14
    game.set_rack(1, "AT")
    with pytest.raises(PhonyError) as info:
        game.push_gcg("9E AT")
    assert info.value.words == ["HT"]
    with pytest.raises(IllegalMoveError) as info:
        game.challenge()
    assert info.value.reason is Illegal.CHALLENGE_NOT_ALLOWED
    assert str(info.value) == "void challenge mode: plays are checked on entry, there are no challenges"


def test_void_mode_uses_the_default_lexicon():
    game = Game(2, rules=Rules(challenge=ChallengeMode.VOID), seed=1, first=0)
    game.set_rack(0, "QI")
    assert game.push_gcg("8G QI") == 22
    game.set_rack(1, "X")
    with pytest.raises(PhonyError, match="not in the kjxqz lexicon: QIX"):
        game.push_gcg("8G QIX")


def test_nothing_to_challenge():
    game = new_game()
    with pytest.raises(IllegalMoveError) as info:
        game.challenge()
    assert info.value.reason is Illegal.NOTHING_TO_CHALLENGE
    assert str(info.value) == "there is no play to challenge"
    game.push(Move.pass_())
    with pytest.raises(IllegalMoveError, match="no play to challenge"):
        game.challenge()
    game.set_rack(1, "HORN")
    game.push_gcg("8F HORN")
    game.push_gcg("-" + rack_text(game, 0)[:2])  # the next turn has started
    with pytest.raises(IllegalMoveError, match="no play to challenge"):
        game.challenge()


def test_wrong_player_challenges():
    game = new_game(3)
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    before = fingerprint(game)
    with pytest.raises(IllegalMoveError) as info:
        game.challenge(0)
    assert info.value.reason is Illegal.WRONG_PLAYER
    assert str(info.value) == "player1 cannot challenge their own play: only an opponent can"
    for challenger in (3, -1):
        with pytest.raises(IllegalMoveError) as info:
            game.challenge(challenger)
        assert info.value.reason is Illegal.WRONG_PLAYER
        assert str(info.value) == f"there is no player {challenger + 1} to challenge"
    assert fingerprint(game) == before


def test_judge_ruling_overrides_the_lexicon():
    game = new_game()
    play_phony(game)
    result = game.challenge(valid=True)
    assert result.valid and game.board.tile_count == 3
    game2 = new_game()
    game2.set_rack(0, "HORN")
    game2.push_gcg("8F HORN")
    result = game2.challenge(valid=False)
    assert not result.valid and result.phonies == ("HORN",)
    assert game2.board.is_empty()


def test_challenge_after_set_rack_took_a_tile_from_the_challenged_player():
    game = new_game()
    game.set_rack(0, "XQZKEIO", exact=True)
    game.push_gcg("8G XQZ")
    game.set_rack(1, "K")  # the only K: player 0 kept it, and draws another tile for it
    before = fingerprint(game)
    try:
        result = game.challenge()
    except IllegalMoveError:
        assert fingerprint(game) == before  # refused: nothing changed
    else:
        assert not result.valid and game.board.is_empty()
    assert_tiles_accounted(game)


# -- the end of the game -----------------------------------------------------------------------


def go_out(game: Game) -> tuple[int, int]:
    """The player to move plays their whole rack; returns (player, score)."""
    me = game.turn
    move = find_placement(game, len(game.rack()))
    assert move is not None
    return me, game.push(move)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_going_out(players):
    game = Game(players, rules=Rules(), lexicon=AcceptAll(), seed=5, first=0)
    drain(game, 0)
    me = game.turn
    others = [i for i in range(players) if i != me]
    values = {i: EN.rack_value(game.rack(i)) for i in others}
    racks = {i: game.rack(i) for i in others}
    before = game.scores
    _, score = go_out(game)
    assert game.is_over()
    outcome = game.outcome()
    assert outcome.termination is Termination.WENT_OUT and outcome.went_out == me
    expected = list(before)
    expected[me] += score + sum(values.values())
    for i in others:
        expected[i] -= values[i]
    assert game.scores == expected
    before_adjust = list(before)
    before_adjust[me] += score
    assert outcome.scores_before_adjustments == tuple(before_adjust)
    assert outcome.scores == tuple(expected)
    end = game.events[-players:]
    assert end[0].kind is EventKind.END_RACK_POINTS and end[0].player == me
    assert end[0].score == sum(values.values())
    assert sorted(end[0].end_rack) == sorted(t for i in others for t in racks[i])
    for event, i in zip(end[1:], others, strict=True):
        assert event.kind is EventKind.END_RACK_PENALTY and event.player == i
        assert event.score == -values[i] and sorted(event.end_rack) == sorted(racks[i])
    assert_tiles_accounted(game)
    with pytest.raises(GameOverError) as info:
        game.push(Move.pass_())
    assert info.value.reason is Illegal.GAME_OVER
    assert str(info.value) == f"the game is over: {game.result_text()}"


@pytest.fixture(scope="module")
def mini_rules(tmp_path_factory):
    """A 16-tile set: two full racks and two tiles in the bag, so an endgame
    can be set up exactly, with every tile accounted for."""
    path = tmp_path_factory.mktemp("alphabets") / "mini.txt"
    path.write_text("A 8 1 vowel\nB 4 3 consonant\nC 4 5 consonant\n")
    return Rules(alphabet=load_alphabet_file(path).name)


def mini_endgame(rules: Rules, lexicon=None) -> Game:
    game = Game(2, rules=rules, lexicon=lexicon or AcceptAll(), seed=1, first=0)
    game.set_rack(1, "CCCCAAA")
    game.set_rack(0, "BBBBAAA")
    assert len(game.bag) == 2
    assert game.push_gcg("8G AB") == (1 + 3) * 2  # draws the last two tiles (AA)
    assert len(game.bag) == 0
    assert game.alphabet.format_rack(game.rack(0)) == "AAAABBB"
    return game


def test_going_out_hand_computed(mini_rules):
    game = mini_endgame(mini_rules)
    # down I2..I8: C, C on the I3 double letter, C, C, A, A on the I7 double letter, A;
    # cross-word ABA on row 8; seven tiles: bingo
    score = game.push_gcg("I2 CCCCAAA")
    assert score == (5 + 10 + 5 + 5 + 1 + 2 + 1) + (1 + 3 + 1) + 50
    assert game.is_over()
    rack0 = 4 * 1 + 3 * 3
    assert game.scores == [8 - rack0, 84 + rack0]
    outcome = game.outcome()
    assert outcome.winner == 1 and outcome.went_out == 1
    assert outcome.scores_before_adjustments == (8, 84)
    assert game.result_text() == "player2 wins player1 -5, player2 97 (player2 went out)"


def test_doubled_end_adjustment(mini_rules):
    game = mini_endgame(mini_rules.replace(end_adjustment=EndAdjustment.DOUBLE))
    game.push_gcg("I2 CCCCAAA")
    assert game.scores == [8, 84 + 2 * 13]
    assert [(e.kind, e.player, e.score) for e in game.events[2:]] == [(EventKind.END_RACK_POINTS, 1, 26)]
    assert game.outcome().scores_before_adjustments == (8, 84)


def test_challenge_withdrawing_the_last_play_reopens_the_game(mini_rules):
    mini = load_alphabet(mini_rules.alphabet)
    game = mini_endgame(mini_rules, WordList(["AB"], alphabet=mini))
    state = fingerprint(game)
    game.push_gcg("I2 CCCCAAA")
    assert game.is_over()
    result = game.challenge()
    assert not result.valid and result.phonies == ("CCCCAAA", "ABA")
    assert not game.is_over() and game.outcome() is None and game.termination is None
    assert game.scores == [8, 0]
    assert game.alphabet.format_rack(game.rack(1)) == "AAACCCC"
    assert game.turn == 0  # the next player after the one whose play came off
    assert [e.kind for e in game.events] == [EventKind.PLACE, EventKind.PLACE, EventKind.WITHDRAWN]
    assert game.scoreless == 1
    assert_tiles_accounted(game)
    # the game goes on
    game.push(Move.pass_())
    assert game.turn == 1
    game.pop()
    game.pop()
    game.pop()
    assert fingerprint(game) == state


def test_challenge_of_a_valid_last_play(mini_rules):
    mini = load_alphabet(mini_rules.alphabet)
    game = mini_endgame(
        mini_rules.replace(challenge=ChallengeMode.FIVE_POINT), WordList(["AB", "ABA", "CCCCAAA"], alphabet=mini)
    )
    game.push_gcg("I2 CCCCAAA")
    final = game.scores
    result = game.challenge(0)
    assert result.valid and result.points == -5 and not result.lost_turn
    assert game.is_over()
    assert game.scores == [final[0] - 5, final[1]]
    assert [e.kind for e in game.events] == [
        EventKind.PLACE,
        EventKind.PLACE,
        EventKind.CHALLENGE,
        EventKind.END_RACK_POINTS,
        EventKind.END_RACK_PENALTY,
    ]
    assert [e.total for e in game.events] == [8, 84, 3, 97, -10]
    assert game.outcome().scores_before_adjustments == (3, 84)
    # double challenge: the game is over, so no turn is lost
    game2 = mini_endgame(mini_rules, WordList(["AB", "ABA", "CCCCAAA"], alphabet=mini))
    game2.push_gcg("I2 CCCCAAA")
    result = game2.challenge()
    assert result.valid and not result.lost_turn and result.points == 0
    assert game2.scores == [8 - 13, 84 + 13]


def test_scoreless_turns_end_the_game():
    game = new_game()
    game.push_gcg("-" + rack_text(game, 0)[:1])  # an exchange is scoreless
    game.set_rack(0, "QZAEIOU")
    game.set_rack(1, "??AEIOU")
    for _ in range(2):
        game.push(Move.pass_())
        assert not game.is_over()
    assert game.scoreless == 3
    game.push(Move.pass_())
    assert game.is_over()
    outcome = game.outcome()
    assert outcome.termination is Termination.SCORELESS_TURNS and outcome.went_out is None
    assert game.scores == [-25, -5]
    assert outcome.winner == 1 and not outcome.tiebreak
    assert [(e.kind, e.player, e.score) for e in game.events[-2:]] == [
        (EventKind.END_RACK_PENALTY, 0, -25),
        (EventKind.END_RACK_PENALTY, 1, -5),
    ]
    assert game.result_text() == "player2 wins player1 -25, player2 -5 (4 scoreless turns in a row)"


def test_scoreless_turns_three_players_and_a_custom_count():
    game = new_game(3)
    for _ in range(5):
        game.push(Move.pass_())
    assert not game.is_over()
    game.push(Move.pass_())
    assert game.is_over()
    game = new_game(scoreless_turns=6)
    for _ in range(5):
        game.push(Move.pass_())
    assert not game.is_over()
    game.push(Move.pass_())
    assert game.is_over()
    assert game.rules.scoreless_limit(2) == 6


def test_a_play_scoring_zero_is_scoreless():
    game = new_game()
    game.set_rack(0, "??")
    assert game.push_gcg("8G ab") == 0
    assert game.scoreless == 1
    for _ in range(2):
        game.push(Move.pass_())
    assert not game.is_over()
    game.push(Move.pass_())
    assert game.is_over()


def test_a_scoring_play_resets_the_scoreless_count():
    game = new_game()
    game.push(Move.pass_())
    game.push(Move.pass_())
    game.push(Move.pass_())
    game.set_rack(1, "HORN")
    game.push_gcg("8F HORN")
    assert game.scoreless == 0
    for _ in range(3):
        game.push(Move.pass_())
    assert not game.is_over()
    game.push(Move.pass_())
    assert game.is_over()


def test_withdrawn_plays_and_lost_turns_are_scoreless():
    game = new_game()
    play_phony(game)
    game.challenge()  # withdrawn: 1
    game.push(Move.pass_())  # 2
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")  # 0
    game.challenge()  # valid: player 1 loses the turn: 1
    assert game.turn == 0 and game.scoreless == 1
    game.push(Move.pass_())  # 2
    game.push(Move.pass_())  # 3
    assert not game.is_over()
    game.push(Move.pass_())  # 4
    assert game.is_over()


def test_tie_broken_by_the_score_before_adjustments():
    game = new_game()
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    game.set_rack(0, "QFAEIOU")
    game.set_rack(1, "??AEIOU")
    for _ in range(4):
        game.push(Move.pass_())
    outcome = game.outcome()
    assert outcome.scores == (14 - 19, 0 - 5)
    assert outcome.scores_before_adjustments == (14, 0)
    assert outcome.tiebreak and outcome.winner == 0 and outcome.winners == (0,)
    assert not outcome.is_draw
    assert "tie broken" in game.result_text()


def test_draw():
    game = new_game()
    game.set_rack(0, "AEIOULN")
    game.set_rack(1, "AEIOURS")
    for _ in range(4):
        game.push(Move.pass_())
    outcome = game.outcome()
    assert outcome.scores == (-7, -7) and outcome.scores_before_adjustments == (0, 0)
    assert outcome.is_draw and outcome.winner is None and outcome.winners == (0, 1)
    assert game.result_text().startswith("draw ")


def test_solo_game():
    game = Game(1, lexicon=lexicon(), seed=2)
    assert game.first == 0 and game.turn == 0 and game.first_draw == []
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    assert game.turn == 0
    with pytest.raises(IllegalMoveError) as info:
        game.challenge()
    assert info.value.reason is Illegal.WRONG_PLAYER
    game.push(Move.pass_())
    assert not game.is_over()
    game.push(Move.pass_())
    assert game.is_over()
    outcome = game.outcome()
    assert outcome.winner == 0 and outcome.scores[0] == 14 - EN.rack_value(game.rack(0))


def test_solo_game_going_out():
    game = Game(1, lexicon=AcceptAll(), seed=4)
    drain(game, 0)
    before = game.scores[0]
    _, score = go_out(game)
    assert game.is_over() and game.went_out == 0
    assert game.scores == [before + score]


# -- undo -------------------------------------------------------------------------------------


def test_pop_on_a_new_game():
    with pytest.raises(IndexError, match="nothing to undo"):
        new_game().pop()


def test_pop_undoes_each_kind_of_action_exactly():
    game = new_game(3)
    # (set-up, action): set_rack is set-up, not an action pop() undoes
    steps = [
        (None, lambda: game.push(Move.pass_())),
        (None, lambda: game.push_gcg("-" + rack_text(game, game.turn)[:3])),
        ("HORN", lambda: game.push_gcg("8F HORN")),
        (None, lambda: game.challenge()),  # valid: the challenger loses the turn
        ("AT", lambda: game.push_gcg("9E AT")),
        (None, lambda: game.challenge()),  # HT: withdrawn
        (None, lambda: game.add_points(0, -10, EventKind.TIME_PENALTY)),
        (None, lambda: game.push(Move.pass_())),
    ]
    history = []
    for rack, action in steps:
        if rack:
            game.set_rack(game.turn, rack)
        before = fingerprint(game)
        action()
        after = fingerprint(game)
        assert after != before
        assert_tiles_accounted(game)
        history.append((before, after))
    assert fingerprint(game) == history[-1][1]
    for before, _ in reversed(history):
        game.pop()
        assert fingerprint(game) == before
    assert game.move_stack == []


def test_pop_returns_what_it_undoes():
    game = new_game()
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    game.challenge()
    assert game.move_stack == [PlayMove(Move.from_gcg("8F HORN")), Challenge(challenger=1, valid=True)]
    assert game.pop() == Challenge(challenger=1, valid=True)
    assert game.pop() == PlayMove(Move.from_gcg("8F HORN"))
    assert game.move_stack == []


def test_pop_returns_each_kind_of_action():
    game = new_game()
    game.set_rack(0, "HORN")
    game.push_gcg("8F HORN")
    game.add_points(0, 5)
    game.add_points(1, -10, EventKind.TIME_PENALTY)
    game.time_out(3.0)
    game.resign(0)
    played = [
        PlayMove(Move.from_gcg("8F HORN")),
        AddPoints(0, 5),
        AddPoints(1, -10, EventKind.TIME_PENALTY),
        TimeOut(3.0),
        Resign(player=0),
    ]
    assert game.move_stack == played
    assert [game.pop() for _ in played] == played[::-1]
    assert game.scores == [0, 0] and game.events == [] and game.turn == 0


def test_pop_undoes_the_end_of_the_game(mini_rules):
    game = mini_endgame(mini_rules)
    before = fingerprint(game)
    game.push_gcg("I2 CCCCAAA")
    over = fingerprint(game)
    game.challenge(valid=True)
    game.pop()
    assert fingerprint(game) == over
    game.pop()
    assert fingerprint(game) == before
    assert not game.is_over()
    # replaying gives the same result: the bag's generator is restored too
    game.push_gcg("I2 CCCCAAA")
    assert fingerprint(game) == over


def test_pop_then_replay_draws_the_same_tiles():
    game = new_game(seed=21)
    drain(game, 50)
    before = fingerprint(game)
    move = find_placement(game, 3)
    game.push(move)
    after = fingerprint(game)
    game.pop()
    assert fingerprint(game) == before
    game.push(move)
    assert fingerprint(game) == after


def test_illegal_moves_change_nothing():
    game = new_game()
    game.set_rack(0, "HORNAAA", exact=True)
    game.push_gcg("8F HORN")
    before = fingerprint(game)
    for text in ("8F HORN", "2B AT", "8J S", "G7 AT", "15A ZZZZ", "-ZZ"):
        with pytest.raises((IllegalMoveError, InvalidMoveError)):
            game.push_gcg(text)
        assert fingerprint(game) == before


def test_rules_errors_for_players():
    with pytest.raises(RulesError):
        Game(5)
