"""Resigning: the game ends at once, the resigning player never wins, no
racks are counted; it can be undone, and it round-trips through GCG."""

from __future__ import annotations

import pytest

from gamestate import assert_tiles_accounted, fingerprint
from tilebag import AcceptAll, EventKind, Game, GameOverError, IllegalMoveError, Move, Rules, Termination
from tilebag.actions import Resign
from tilebag.formats import gcg, replay
from tilebag.rules import ChallengeMode


def started(players: int = 2, rules: Rules | None = None) -> Game:
    """A game with one play each from the first two seats: alice 14, bob 9."""
    names = ["alice", "bob", "carol", "dave"][:players]
    game = Game(names, rules=rules, lexicon=AcceptAll(), seed=7, first=0)
    game.set_rack(0, "HNOR")
    game.push_gcg("8F HORN")
    game.set_rack(1, "AFM")
    game.push_gcg("H6 FA.M")
    return game


def test_resigning_ends_the_game_and_the_opponent_wins_even_when_behind() -> None:
    game = started()
    racks = [game.rack(0), game.rack(1)]
    game.resign()  # alice is to move
    assert game.is_over() and game.termination is Termination.RESIGNED
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == 1 and outcome.resigned == 0 and outcome.went_out is None
    assert outcome.scores == (14, 9) == outcome.scores_before_adjustments  # no rack counted
    assert [game.rack(0), game.rack(1)] == racks
    assert game.result_text() == "bob wins 14-9 (alice resigned)"
    assert game.events[-1].kind is EventKind.RESIGN and game.events[-1].player == 0
    assert game.events[-1].total == 14
    assert_tiles_accounted(game)


def test_any_player_may_resign_and_with_more_players_the_best_other_wins() -> None:
    game = started(3)
    game.resign(1)
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.resigned == 1
    assert game.result_text() == "alice wins alice 14, bob 9, carol 0 (bob resigned)"
    game.pop()
    game.resign(0)  # bob 9 beats carol 0
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (1,)


def test_level_others_draw() -> None:
    game = Game(["alice", "bob", "carol"], lexicon=AcceptAll(), seed=1, first=0)
    game.resign(0)
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (1, 2) and outcome.is_draw
    assert game.result_text() == "draw alice 0, bob 0, carol 0 (alice resigned)"


def test_a_solo_player_can_resign() -> None:
    game = Game(["alice"], lexicon=AcceptAll(), seed=1)
    game.resign()
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == () and outcome.winner is None
    assert game.result_text() == "alice resigned (alice 0)"


def test_resigning_is_undone_by_pop() -> None:
    game = started()
    before = fingerprint(game)
    game.resign(1)
    assert game.move_stack[-1] == Resign(player=1)
    assert game.pop() == Resign(player=1)
    assert fingerprint(game) == before
    assert game.resigned is None and not game.is_over()
    game.push(Move.pass_())  # and the game goes on
    assert game.turn == 1


def test_resigning_a_finished_game_is_refused_and_changes_nothing() -> None:
    game = started()
    game.resign()
    before = fingerprint(game)
    with pytest.raises(GameOverError, match="cannot resign: the game is over \\(bob wins 14-9 \\(alice resigned\\)\\)"):
        game.resign(1)
    assert fingerprint(game) == before
    with pytest.raises(IllegalMoveError):
        game.push_gcg("9H OH")
    assert fingerprint(game) == before


def test_resigning_for_a_player_not_in_the_game_is_refused() -> None:
    game = started()
    before = fingerprint(game)
    with pytest.raises(IllegalMoveError, match="there is no player 3 to resign: the game has 2"):
        game.resign(2)
    assert fingerprint(game) == before


def test_no_challenge_after_a_resignation() -> None:
    game = started()
    assert game.challengeable is not None
    game.resign(0)
    assert game.challengeable is None
    with pytest.raises(IllegalMoveError, match="no play to challenge"):
        game.challenge()


def test_no_clock_penalty_for_a_resigned_game() -> None:
    rules = Rules(game_clock=60.0, overtime_penalty=10)
    game = Game(["alice", "bob"], rules=rules, lexicon=AcceptAll(), seed=7, first=0)
    game.set_rack(0, "HNOR")
    game.push(game.parse_move("8F HORN"), seconds=300)
    game.resign(1)
    assert game.overtime_penalties() == [0, 0] and game.scores == [14, 0]


def test_the_record_writes_a_resign_pragma_that_round_trips() -> None:
    game = started()
    game.resign(1)
    text = gcg.dumps(game.record(lexicon="any"))
    assert text.endswith(" H6 FA.M +9 9\n#resign bob\n")  # and no racks: the game is over
    record = gcg.loads(text)
    assert record.events[-1].kind is EventKind.RESIGN and record.events[-1].player == 1
    assert gcg.dumps(record) == text
    again = replay.replay(record, lexicon=AcceptAll())
    assert again.is_over() and again.termination is Termination.RESIGNED
    assert again.outcome() == game.outcome()
    assert again.result_text() == game.result_text() == "alice wins 14-9 (bob resigned)"
    assert replay.check(record).ok


def test_a_resignation_right_after_a_play_with_racks_still_full() -> None:
    rules = Rules(challenge=ChallengeMode.SINGLE)
    game = started(rules=rules)
    game.resign()
    report = replay.check(gcg.loads(gcg.dumps(game.record())))
    assert report.ok and report.game is not None and report.game.scores == [14, 9]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "#player1 a a\n#player2 b b\n#resign b\n>a: HNOR 8F HORN +14 14\n",
            "4: >a: HNOR 8F HORN \\+14 14: the game is already over \\(a wins 0-0 \\(b resigned\\)\\)",
        ),
        ("#player1 a a\n#player2 b b\n#resign a\n#resign b\n", "4: #resign b: the game is already over"),
    ],
)
def test_nothing_may_follow_a_resignation(text: str, message: str) -> None:
    record = gcg.loads(text)
    report = replay.check(record)
    assert [f.line for f in report.errors] == [4]
    with pytest.raises(replay.ReplayError, match=message):
        replay.replay(record)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("#resign", "3: write #resign as '#resign nick', got ''"),
        ("#resign bob now", "3: write #resign as '#resign nick', got 'bob now'"),
        ("#resign carol", "3: unknown player 'carol'"),
    ],
)
def test_malformed_resign_pragmas_name_their_line(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gcg.loads(f"#player1 alice alice\n#player2 bob bob\n{line}\n")


def test_a_resign_pragma_may_carry_a_note() -> None:
    text = "#player1 alice alice\n#player2 bob bob\n>alice: HNOR 8F HORN +14 14\n#resign bob\n#note gg\n"
    record = gcg.loads(text)
    assert record.events[-1].notes == ["gg"]
    assert gcg.dumps(record).endswith("#resign bob\n#note gg\n")
