"""The :class:`~tilebag.table.Table`: seats, actions from a seat, typed
events, the bots' challenges, the final challenge, timers, undo, save and
resume, with no screen at all (what a server's room will drive)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamestate import fingerprint
from tilebag import Game, GameState, IllegalMoveError, Move, NothingToUndoError, Rules, WordList
from tilebag.engine.players import StaticPlayer
from tilebag.errors import Illegal
from tilebag.record import EventKind
from tilebag.rules import ChallengeMode
from tilebag.table import (
    BotRefused,
    Challenged,
    EndAccepted,
    GameEnded,
    Played,
    Resigned,
    Table,
    TableEvent,
    TimeUp,
    TurnMissed,
    Undone,
)
from tilebag.ui.seats import resume_table, save_table

WORDS = WordList(["HORN", "THORN", "NORTH", "NO", "ON", "OH", "HO", "EAT", "TEA", "AT", "TA", "FARM", "FA", "AM"], name="tiny")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def table_for(racks: list[str], *, rules: Rules | None = None, bots: dict[int, object] | None = None, **kw: object) -> Table:
    game = Game(["alice", "bob"], rules=rules, lexicon=WORDS, seed=7, first=0)
    for seat, rack in enumerate(racks):
        game.set_rack(seat, rack, exact=True)
    return Table(game, bots, **kw)  # type: ignore[arg-type]


def kinds(events: list[TableEvent]) -> list[str]:
    return [type(e).__name__ for e in events]


def test_a_play_is_reported_as_a_typed_event_with_its_words_and_score() -> None:
    table = table_for(["HNORXYZ", "AEFMSTU"])
    heard: list[TableEvent] = []
    table.subscribe(heard.append)
    events = table.play(0, Move.from_gcg("8F HORN"))
    assert kinds(events) == ["Played"] and heard == events == table.log
    played = events[0]
    assert isinstance(played, Played)
    assert (played.seat, played.notation, played.score, played.total, played.words) == (0, "8F HORN", 14, 14, (("HORN", 14),))
    assert table.seat_to_act() == 1 and table.events_since(1) == []


def test_a_move_from_the_wrong_seat_is_refused_and_changes_nothing() -> None:
    table = table_for(["HNORXYZ", "AEFMSTU"])
    before = fingerprint(table.game)
    with pytest.raises(IllegalMoveError) as info:
        table.play(1, Move.pass_())
    assert info.value.reason is Illegal.WRONG_PLAYER and "alice's turn, not bob's" in str(info.value)
    with pytest.raises(IllegalMoveError):
        table.play(5, Move.pass_())
    assert fingerprint(table.game) == before and table.log == []


def test_an_illegal_move_raises_and_leaves_the_table_as_it_was() -> None:
    table = table_for(["HNORXYZ", "AEFMSTU"])
    before = fingerprint(table.game)
    with pytest.raises(IllegalMoveError):
        table.play(0, Move.from_gcg("8F FARM"))
    assert fingerprint(table.game) == before and table.log == []


def test_an_exchange_shows_its_tiles_to_its_seat_only() -> None:
    table = table_for(["HNORXYZ", "AEFMSTU"])
    [played] = table.play(0, Move.exchange(table.game.alphabet.parse_rack("XYZ")))
    assert isinstance(played, Played) and played.exchanged == 3 and len(played.move.tiles) == 3
    public = played.public()
    assert public.move.tiles == () and public.notation == "-3" and public.exchanged == 3


def test_a_bot_challenges_a_phony_on_its_turn_and_the_play_comes_off() -> None:
    table = table_for(["HNORXYZ", "AEFMSTU"], bots={1: StaticPlayer("bob")})
    table.play(0, Move.from_gcg("8F NORH"))  # not a word: double challenge lets it stand until challenged
    events = table.bot_turn()
    assert isinstance(events[0], Challenged) and not events[0].result.valid and events[0].seat == 1
    assert table.game.scores == [0, 0] and table.game.board.is_empty()


def test_a_failed_double_challenge_costs_the_challenger_a_turn() -> None:
    table = table_for(["HNORXYZ", "AEFMSTU"])
    table.play(0, Move.from_gcg("8F HORN"))
    events = table.challenge(1)
    assert kinds(events) == ["Challenged"]  # bob challenged on his own turn: it is the turn he loses
    assert isinstance(events[0], Challenged) and events[0].result.valid and events[0].result.lost_turn
    assert events[0].turn_before == 1 and table.seat_to_act() == 0


def test_a_turn_lost_later_is_reported_when_it_is_missed() -> None:
    game = Game(["alice", "bob", "carol"], lexicon=WORDS, seed=7, first=0)
    game.set_rack(0, "HNORXYZ", exact=True)
    table = Table(game)
    table.play(0, Move.from_gcg("8F HORN"))
    table.challenge(2)  # carol challenges out of turn, and will miss her next one
    table.play(1, Move.pass_())
    events = [e for e in table.log if isinstance(e, TurnMissed)]
    assert [e.seat for e in events] == [2] and table.seat_to_act() == 0


def test_the_play_that_ends_the_game_waits_for_the_final_challenge() -> None:
    game = Game(["alice", "bob"], lexicon=WORDS, seed=7, first=0)
    game.set_rack(0, "HORN", exact=True)
    game.set_rack(1, "EAT", exact=True)
    game.bag.take(game.bag.tiles())  # an empty bag: the next play that uses the whole rack ends the game
    table = Table(game)
    events = table.play(0, Move.from_gcg("8F HORN"))
    assert kinds(events) == ["Played"] and game.is_over()
    assert game.state is GameState.FINAL_CHALLENGE and table.seat_to_act() == 1
    with pytest.raises(IllegalMoveError):
        table.play(1, Move.pass_())
    with pytest.raises(IllegalMoveError):
        table.accept(0)
    events = table.accept(1)
    assert kinds(events) == ["EndAccepted", "GameEnded"] and game.state is GameState.OVER
    assert isinstance(events[0], EndAccepted) and events[0].play == "8F HORN (+14)"
    assert isinstance(events[1], GameEnded) and events[1].outcome.winner == 0


def test_a_bot_accepts_a_game_ending_play_that_is_good() -> None:
    game = Game(["alice", "bob"], lexicon=WORDS, seed=7, first=0)
    game.set_rack(0, "HORN", exact=True)
    game.set_rack(1, "EAT", exact=True)
    game.bag.take(game.bag.tiles())
    table = Table(game, {1: StaticPlayer("bob")})
    table.play(0, Move.from_gcg("8F HORN"))
    assert kinds(table.run_bots()) == ["EndAccepted", "GameEnded"]
    assert table.bot_to_act() is None and table.run_bots() == []


def test_the_turn_timer_makes_a_late_move_a_pass() -> None:
    clock = Clock()
    table = table_for(["HNORXYZ", "AEFMSTU"], rules=Rules(turn_time=60.0), now=clock)
    table.start_timing()
    clock.now += 61
    events = table.play(0, Move.from_gcg("8F HORN"))
    assert kinds(events) == ["TimeUp"]
    assert isinstance(events[0], TimeUp) and events[0].took == pytest.approx(61) and events[0].limit == 60
    assert table.game.events[-1].kind is EventKind.TIME_OUT and table.seat_to_act() == 1


def test_resigning_ends_the_game_at_once() -> None:
    table = table_for(["HNORXYZ", "AEFMSTU"])
    assert kinds(table.resign(1)) == ["Resigned", "GameEnded"]
    assert table.game.state is GameState.OVER and table.game.outcome().winner == 0  # type: ignore[union-attr]
    with pytest.raises(IllegalMoveError):
        table.resign(0)
    assert isinstance(table.log[0], Resigned)


def test_undo_is_for_one_person_against_bots_in_practice() -> None:
    people = table_for(["HNORXYZ", "AEFMSTU"], practice=True)
    people.play(0, Move.from_gcg("8F HORN"))
    with pytest.raises(IllegalMoveError) as info:
        people.undo(0)
    assert info.value.reason is Illegal.UNDO_NOT_ALLOWED
    counts = table_for(["HNORXYZ", "AEFMSTU"], bots={1: StaticPlayer("bob")})
    with pytest.raises(IllegalMoveError, match="a move stands"):
        counts.undo(0)
    practice = table_for(["HNORXYZ", "AEFMSTU"], bots={1: StaticPlayer("bob")}, practice=True)
    with pytest.raises(NothingToUndoError):
        practice.undo(0)
    practice.play(0, Move.from_gcg("8F HORN"))
    practice.run_bots()
    mine = practice.game.rack(0)
    [undone] = practice.undo(0)
    assert isinstance(undone, Undone) and undone.actions == 2
    assert practice.game.board.is_empty() and practice.seat_to_act() == 0
    assert sorted(practice.game.rack(0)) == sorted(practice.game.alphabet.parse_rack("HNORXYZ"))
    assert mine is not None


def test_a_bot_whose_move_the_rules_refuse_passes() -> None:
    class Stubborn:
        name = "bob"

        def choose(self, game: Game) -> Move:
            return Move.from_gcg("8A ZZZZ")

    table = table_for(["HNORXYZ", "AEFMSTU"], bots={1: Stubborn()})
    table.play(0, Move.from_gcg("8F HORN"))
    events = table.bot_turn()
    assert kinds(events) == ["BotRefused", "Played"]
    assert isinstance(events[0], BotRefused) and isinstance(events[1], Played) and events[1].move.kind.value == "pass"


def test_a_bot_move_chosen_elsewhere_is_checked_and_played_with_its_time() -> None:
    class Never:
        name = "bob"

        def choose(self, game: Game) -> Move:
            raise AssertionError("the table should not ask: the move was chosen already")

    table = table_for(["HNORXYZ", "AEFMSTU"], bots={1: Never()})
    table.play(0, Move.from_gcg("8F HORN"))
    events = table.bot_turn(chosen=(Move.from_gcg("H6 FA.M"), 2.5))
    assert kinds(events) == ["Played"] and isinstance(events[0], Played)
    assert events[0].seconds == 2.5 and table.game.scores[1] > 0
    refused = table_for(["HNORXYZ", "AEFMSTU"], bots={1: Never()})
    refused.play(0, Move.from_gcg("8F HORN"))
    events = refused.bot_turn(chosen=(Move.from_gcg("8A ZZZZ"), 0.1))  # checked like any other: refused, a pass
    assert kinds(events) == ["BotRefused", "Played"]


def test_save_and_resume_keep_the_seats_and_the_bots(tmp_path: Path) -> None:
    game = Game(["You", "Static bot"], lexicon=WORDS, seed=7, first=0)
    game.set_rack(0, "HNORXYZ", exact=True)
    table = Table(game, {1: StaticPlayer("Static bot")})
    table.play(0, Move.from_gcg("8F HORN"))
    path = tmp_path / "game.gcg"
    save_table(table, path)
    again = resume_table(path, lexicon=WORDS, seed=1)
    assert again.game.scores == [14, 0] and again.seat_to_act() == 1
    assert list(again.bots) == [1] and again.bot_to_act() is not None


def test_a_void_game_refuses_a_phony_on_entry() -> None:
    table = table_for(["HNORXYZ", "AEFMSTU"], rules=Rules(challenge=ChallengeMode.VOID))
    with pytest.raises(IllegalMoveError):
        table.play(0, Move.from_gcg("8F NORH"))
    assert table.log == []


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_bots_at_a_table_play_the_same_game_as_bots_pushing_moves(seed: int) -> None:
    """The table adds no move of its own: an all-bot table plays exactly the
    game the bots play when their moves are pushed one by one."""
    bots = {0: StaticPlayer("a"), 1: StaticPlayer("b")}
    plain = Game(["a", "b"], seed=seed)
    while not plain.is_over():
        plain.push(bots[plain.turn].choose(plain))
    tabled = Game(["a", "b"], seed=seed)
    table = Table(tabled, bots)
    events = table.run_bots()
    assert tabled.state is GameState.OVER and isinstance(events[-1], GameEnded)
    assert [e for e in tabled.events] == [e for e in plain.events]
    played = [e for e in events if isinstance(e, Played)]
    assert len(played) == sum(1 for e in plain.events if e.kind.is_turn)


def test_actions_as_data_do_what_the_methods_do() -> None:
    from tilebag.table import AcceptEnd, Action, Challenge, PlayMove, Resign, TakeBack, TimeOut

    table = table_for(["HNORXYZ", "AEFMSTU"], rules=Rules(turn_time=60.0), now=Clock())
    assert kinds(table.act(0, PlayMove(Move.from_gcg("8F HORN"), seconds=5.0))) == ["Played"]
    assert kinds(table.act(1, Challenge())) == ["Challenged"]
    assert kinds(table.act(0, TimeOut())) == ["TimeUp"]
    with pytest.raises(IllegalMoveError):
        table.act(0, AcceptEnd())
    with pytest.raises(IllegalMoveError):
        table.act(1, TakeBack())
    assert kinds(table.act(1, Resign())) == ["Resigned", "GameEnded"]
    with pytest.raises(TypeError, match="not a table action"):
        table.act(0, Action())
