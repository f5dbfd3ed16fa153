"""Resuming a game from the record of an unfinished game: the racks, the bag,
the turn, the scores, the clocks, lost turns and a play still open to
challenge all come back; the resumed game plays on, saves again, and its
finished record checks clean."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamestate import assert_tiles_accounted, event_key
from tilebag import AcceptAll, ChallengeMode, EventKind, Game, Move, Rules
from tilebag.engine.players import BeginnerPlayer, Player, StaticPlayer
from tilebag.formats import gcg, replay
from tilebag.lexicon import default_lexicon
from tilebag.rules import PRESETS

LEXICON = default_lexicon()


def position(game: Game) -> tuple[object, ...]:
    """What a resumed game must have as the saved one had it (the bag's
    order aside: it is not recorded)."""
    challengeable = game.challengeable
    return (
        bytes(game.board.tiles),
        game.board.tile_count,
        tuple(tuple(sorted(p.rack)) for p in game.players),
        tuple(p.score for p in game.players),
        tuple(p.lost_turns for p in game.players),
        len(game.bag),
        tuple(game.bag.tiles()),
        game.turn,
        game.scoreless,
        game.termination,
        tuple(game.clock_used),
        None if challengeable is None else event_key(challengeable),
        tuple(event_key(e) for e in game.events),
    )


def bots_for(players: int) -> list[Player]:
    return [StaticPlayer(f"s{i}") if i % 2 else BeginnerPlayer(f"b{i}", seed=i) for i in range(players)]


def step(game: Game, bots: list[Player], rng: random.Random) -> None:
    """One action: mostly a bot's move (taking some seconds when the rules
    have clocks), sometimes a challenge of the last play (the bots play
    real words, so it fails and costs the challenger), or a time-out."""
    r = rng.random()
    open_play = game.challengeable
    rules = game.rules
    if open_play is not None and r < 0.15:
        challenger = rng.choice([i for i in range(len(game.players)) if i != open_play.player])
        game.challenge(challenger)
        return
    if rules.turn_time is not None and r < 0.2:
        game.time_out()
        return
    seconds = None
    if rules.turn_time is not None or rules.game_clock is not None:
        seconds = float(rng.randint(0, 40))
        if rules.turn_time is not None:
            seconds = min(seconds, rules.turn_time - game.turn_elapsed)
    game.push(bots[game.turn].choose(game), seconds=seconds)


def saved_midway(preset: str, seed: int, players: int, actions: int) -> tuple[Game, list[Player], random.Random]:
    game = Game([f"p{i + 1}" for i in range(players)], rules=PRESETS[preset], lexicon=LEXICON, seed=seed)
    bots = bots_for(players)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over():
            break
        step(game, bots, rng)
    return game, bots, rng


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(PRESETS)),
    st.integers(0, 2**16),
    st.integers(2, 3),
    st.integers(0, 40),
)
def test_a_game_saved_midway_resumes_where_it_was_and_finishes_clean(
    preset: str, seed: int, players: int, actions: int
) -> None:
    game, bots, rng = saved_midway(preset, seed, players, actions)
    if game.is_over():
        return
    text = gcg.dumps(game.record())
    checked = replay.check(gcg.loads(text), lexicon=LEXICON)
    assert checked.findings == [], [f.format() for f in checked.findings]
    resumed = replay.resume(gcg.loads(text), lexicon=LEXICON, seed=seed)
    assert position(resumed) == position(game)
    assert resumed.rules == game.rules.replace(name=resumed.rules.name)
    assert_tiles_accounted(resumed)
    assert gcg.dumps(resumed.record()) == text  # saved again, it is the same record
    if game.challengeable is not None:  # the last play may still be challenged, with the same ruling
        challenger = rng.choice([i for i in range(players) if i != game.challengeable.player])
        game.challenge(challenger)
        resumed.challenge(challenger)
        assert position(resumed) == position(game)
    # it plays on to the end, and the whole record checks clean
    while not resumed.is_over():
        step(resumed, bots, rng)
        assert_tiles_accounted(resumed)
    final = gcg.dumps(resumed.record())
    assert "#rack1" not in final
    report = replay.check(gcg.loads(final))
    assert report.errors == [], [f.format() for f in report.errors]
    assert report.game is not None and report.game.scores == resumed.scores


@pytest.mark.parametrize("preset", ["standard", "house", "speed", "tournament"])
def test_saved_resumed_and_saved_again_several_times(preset: str, tmp_path: Path) -> None:
    game, bots, rng = saved_midway(preset, 3, 2, 6)
    path = tmp_path / "game.gcg"
    for _ in range(40):
        if game.is_over():
            break
        gcg.dump(game.record(), path)
        game = replay.resume(gcg.load(path), lexicon=LEXICON, seed=rng.randrange(100))
        for _ in range(3):
            if not game.is_over():
                step(game, bots, rng)
    assert game.is_over()
    gcg.dump(game.record(), path)
    assert replay.check(gcg.load(path), lexicon=LEXICON).errors == []


def two_plays() -> Game:
    game = Game(["alice", "bob"], lexicon=AcceptAll(), seed=7, first=0)
    game.set_rack(0, "HNORSTU")
    game.push_gcg("8F HORN")
    game.set_rack(1, "AFMEIRT")
    game.push_gcg("H6 FA.M")
    return game


def test_the_record_of_an_unfinished_game_ends_with_the_racks() -> None:
    game = two_plays()
    text = gcg.dumps(game.record())
    lines = text.splitlines()
    racks = [game.alphabet.format_rack(sorted(game.rack(i))) for i in (0, 1)]
    assert lines[-3:] == [f"#rack1 {racks[0]}", f"#rack2 {racks[1]}", "#to-move alice"]
    assert lines[4] == ">alice: HNORSTU 8F HORN +14 14"  # the head is as for a finished game
    record = gcg.loads(text)
    assert record.to_move == 0 and gcg.dumps(record) == text
    game.resign()
    text = gcg.dumps(game.record())
    assert "#rack" not in text and "#to-move" not in text


def test_the_player_to_move_gets_the_same_tiles_and_the_bag_is_reshuffled() -> None:
    game = two_plays()
    record = gcg.loads(gcg.dumps(game.record()))
    one = replay.resume(record, lexicon=AcceptAll(), seed=1)
    again = replay.resume(record, lexicon=AcceptAll(), seed=1)
    other = replay.resume(record, lexicon=AcceptAll(), seed=2)
    assert one.turn == 0 and sorted(one.rack()) == sorted(game.rack())
    assert one.bag.get_state() == again.bag.get_state()
    assert one.bag.tiles() == other.bag.tiles() == game.bag.tiles()
    assert_tiles_accounted(one)
    assert one.bag.draw(20) != other.bag.draw(20)


def test_undo_after_resuming_goes_back_through_the_record() -> None:
    game = two_plays()
    resumed = replay.resume(gcg.loads(gcg.dumps(game.record())), lexicon=AcceptAll(), seed=1)
    assert resumed.pop() == game.move_stack[-1]
    assert resumed.turn == 1 and resumed.scores == [14, 0]
    assert_tiles_accounted(resumed)


def test_a_play_open_to_challenge_can_be_challenged_off_after_resuming() -> None:
    game = two_plays()
    resumed = replay.resume(gcg.loads(gcg.dumps(game.record())), lexicon=AcceptAll(), seed=1)
    assert resumed.challengeable is not None and resumed.challengeable.player == 1
    bob_before = game.events[-1].rack
    resumed.challenge(0, valid=False)
    assert resumed.scores == [14, 0] and resumed.turn == 0
    assert tuple(sorted(resumed.rack(1))) == bob_before
    assert_tiles_accounted(resumed)


def test_a_lost_turn_still_to_come_is_resumed() -> None:
    game = Game(["alice", "bob", "carol"], lexicon=AcceptAll(), seed=7, first=0)
    game.set_rack(0, "HNORSTU")
    game.push_gcg("8F HORN")
    result = game.challenge(2)  # carol challenges and loses her next turn
    assert result.lost_turn and game.players[2].lost_turns == 1 and game.turn == 1
    resumed = replay.resume(gcg.loads(gcg.dumps(game.record())), lexicon=AcceptAll(), seed=1)
    assert [p.lost_turns for p in resumed.players] == [0, 0, 1] and resumed.turn == 1
    resumed.push(Move.pass_())
    assert resumed.turn == 0  # carol's turn is skipped


def test_clocks_and_rules_come_back() -> None:
    rules = Rules(turn_time=90.0, game_clock=600.0, overtime_penalty=5, recycle=True, challenge=ChallengeMode.SINGLE)
    game = Game(["alice", "bob"], rules=rules, lexicon=AcceptAll(), seed=7, first=0)
    game.set_rack(0, "HNORSTU")
    game.push(game.parse_move("8F HORN"), seconds=61.5)
    game.time_out()
    text = gcg.dumps(game.record())
    resumed = replay.resume(gcg.loads(text), lexicon=AcceptAll(), seed=1)
    assert resumed.rules == rules.replace(name=resumed.rules.name)
    assert resumed.clock_used == [61.5, 90.0] and resumed.turn == 0
    assert gcg.dumps(resumed.record()) == text


def test_a_record_without_racks_resumes_with_racks_from_the_unseen_tiles() -> None:
    record = gcg.loads(">alice: HNOR 8F HORN +14 14\n>bob: AFM H6 FA.M +9 9\n")
    game = replay.resume(record, lexicon=AcceptAll(), seed=1)
    assert game.turn == 0 and game.scores == [14, 9]
    assert len(game.rack(0)) == len(game.rack(1)) == 7 and len(game.bag) == 100 - 7 - 14
    assert_tiles_accounted(game)


def test_a_finished_game_is_not_resumed() -> None:
    game = two_plays()
    game.resign()
    text = gcg.dumps(game.record())
    expected = r"game.gcg:7: the game is over \(bob wins 14-9 \(alice resigned\)\): there is nothing to resume"
    with pytest.raises(replay.ReplayError, match=expected):
        replay.resume(gcg.loads(text), source="game.gcg")


@pytest.mark.parametrize(
    ("racks", "message"),
    [
        ("#rack1 HNOR\n#rack2 QQ\n", r"<record>:6: #rack2 QQ cannot be held: .*no Q is left"),
        ("#rack1 ZZ\n", r"<record>:5: #rack1 ZZ cannot be held"),
        ("#rack1 ABC\n#rack3 DEF\n", r"<record>:6: #rack3: the game has 2 players"),
        ("#rack1 ?\n#rack2 ??\n", r"<record>:5: #rack1 \? and #rack2 hold more tiles than are unseen"),
    ],
)
def test_racks_that_cannot_be_held_are_errors_naming_their_line(racks: str, message: str) -> None:
    text = "#player1 alice alice\n#player2 bob bob\n>alice: HNOR 8F HORN +14 14\n>bob: AFM H6 FA.M +9 9\n" + racks
    with pytest.raises(replay.ReplayError, match=message):
        replay.resume(gcg.loads(text), lexicon=AcceptAll(), seed=1)


def test_an_event_that_breaks_the_rules_is_an_error_naming_its_line() -> None:
    text = "#player1 alice alice\n#player2 bob bob\n>alice: HNOR 8F HORN +14 14\n>bob: AFM H6 FA.M +90 90\n"
    with pytest.raises(replay.ReplayError, match=r"<record>:4: .*recorded score \+90, the rules give \+9"):
        replay.resume(gcg.loads(text), lexicon=AcceptAll())


def test_gcg_check_accepts_resigned_and_unfinished_records(tmp_path: Path) -> None:
    game = two_plays()
    unfinished = tmp_path / "unfinished.gcg"
    gcg.dump(game.record(lexicon="any"), unfinished)
    game.resign(1)
    resigned = tmp_path / "resigned.gcg"
    gcg.dump(game.record(lexicon="any"), resigned)
    assert "#resign bob" in resigned.read_text(encoding="utf-8")
    assert any(e.kind is EventKind.RESIGN for e in gcg.load(resigned).events)
    checked = subprocess.run(
        [sys.executable, "-m", "tilebag", "gcg", "check", str(unfinished), str(resigned)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_game_saved_before_the_first_move_resumes_with_the_player_drawn_to_start() -> None:
    for seed in range(6):
        game = Game(["alice", "bob", "carol"], lexicon=AcceptAll(), seed=seed)
        text = gcg.dumps(game.record())
        assert text.endswith(f"#to-move {game.player.name}\n")
        resumed = replay.resume(gcg.loads(text), lexicon=AcceptAll(), seed=1)
        assert resumed.turn == game.turn and position(resumed) == position(game)


def test_a_player_to_move_that_disagrees_is_an_error_naming_its_line() -> None:
    text = "#player1 alice alice\n#player2 bob bob\n>alice: HNOR 8F HORN +14 14\n>bob: AFM H6 FA.M +9 9\n"
    record = gcg.loads(text + "#to-move bob\n")
    with pytest.raises(replay.ReplayError, match=r"<record>:5: #to-move bob, but after the record's events it is alice's turn"):
        replay.resume(record, lexicon=AcceptAll())
    assert [f.line for f in replay.check(record).errors] == [5]
    with pytest.raises(ValueError, match=r"line 5: unknown player 'zed'|5: unknown player 'zed'"):
        gcg.loads(text + "#to-move zed\n")
    with pytest.raises(ValueError, match="5: write #to-move as '#to-move nick', got ''"):
        gcg.loads(text + "#to-move\n")
