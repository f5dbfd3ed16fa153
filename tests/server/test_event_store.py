"""Events in the database (:mod:`tilebag.server.events`): an event played
over the board and entered by hand, with a correction and standings checked
by hand before and after; a late entry and a withdrawal; pairings stored
and made again from their method and seed; results entered by players and
confirmed; a tsh file in and out; and the same on a real PostgreSQL."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="events are kept by the server extra's database libraries")

from tilebag.events import Game, Method, Pairing, PairingError, Player, ResultError, TshError, pair_round, tsh  # noqa: E402
from tilebag.server.events import EventError, EventStore  # noqa: E402
from tilebag.server.store import Store  # noqa: E402


def table(events: EventStore, event: int, *, through_round: int | None = None) -> list[tuple[int, str, str, int]]:
    return [(s.rank, s.player.name, s.record, s.spread) for s in events.standings(event, None, through_round=through_round)]


def _over_the_board(url: str) -> None:
    """Five players, two rounds, entered by the director as the games end.

    Round 1 (swiss, seed 3): Ann 420 Cy 380 (Ann first); Di 410 Bob 350 (Di
    first); Ed, unrated and so ranked last, has the bye (+50).
    Round 2 (fixed, seed 3), on the boards of the standings (Di leads):
    Ann 300 Di 450 (both went first in round 1: a coin, Ann first); Bob 390
    Ed 400 (Bob first: he went second in round 1, Ed had the bye); Cy has
    the bye.

    By hand, before the correction:

    ===  ====  ======  ==============  ======
    who  r1    r2      record          spread
    ===  ====  ======  ==============  ======
    Di   +60   +150    2-0             +210
    Ed   +50   +10     2-0             +60
    Cy   -40   +50     1-1             +10
    Ann  +40   -150    1-1             -110
    Bob  -60   -10     0-2             -70
    ===  ====  ======  ==============  ======

    Then the director learns that round 1 was Bob 450 Di 410, not the other
    way round: Bob +40, Di -40. After round 1, Ed (+50) leads, then Bob and
    Ann (1-0, +40 each, never met: the total score decides, Bob 450 to Ann
    420), then Di and Cy (0-1, -40 each: Di 410 to Cy 380). After round 2:
    Ed 2-0 +60; then at 1-1 Di +110, Bob +30, Cy +10, Ann -110.
    """
    events = EventStore(Store(url))
    club = events.create_event("Tuesday club", rounds=2, director="Jo", rules="club", options={"challenge": "single"})
    assert (club.rules, club.options, club.status, club.divisions) == ("tournament", {"challenge": "single"}, "open", ("A",))
    ann, bob, cy, di, ed = (p.id for p in events.add_players(
        club.id, None, [("Ann", 1800, None), ("Bob", 1700, None), ("Cy", 1600, None), ("Di", 1500, None), ("Ed", None, None)]))
    round_1 = events.pair(club.id, None, 1, "swiss", seed=3)
    assert list(round_1) == [Pairing(1, ann, cy, first=ann), Pairing(1, di, bob, first=di), Pairing(1, ed)]
    assert events.event(club.id).status == "running"
    assert table(events, club.id)[0] == (1, "Ed", "1-0", 50)  # the bye counts once paired
    events.enter_result(club.id, None, 1, ann, 420, 380)
    events.enter_result(club.id, None, 1, bob, 350, 410)  # entered from Bob's side: his score first
    assert [r.started for r in events.rounds(club.id, None)] == [True]
    with pytest.raises(EventError, match="has started"):
        events.pair(club.id, None, 1, "swiss")
    with pytest.raises(EventError, match="has a result already"):
        events.enter_result(club.id, None, 1, cy, 390, 420)
    with pytest.raises(EventError, match="has the bye in round 1"):
        events.enter_result(club.id, None, 1, ed, 400, 300)
    round_2 = events.pair(club.id, None, 2, Method.FIXED, fixed=[(di, ann), (ed, bob), (cy, None)], seed=3)
    assert list(round_2) == [Pairing(2, ann, di, first=ann), Pairing(2, bob, ed, first=bob), Pairing(2, cy)]
    events.enter_result(club.id, None, 2, di, 450, 300)
    events.enter_result(club.id, None, 2, ed, 400, 390)
    assert events.event(club.id).status == "over"
    assert table(events, club.id) == [
        (1, "Di", "2-0", 210), (2, "Ed", "2-0", 60), (3, "Cy", "1-1", 10), (4, "Ann", "1-1", -110), (5, "Bob", "0-2", -70)]

    corrected = events.correct_result(club.id, None, 1, bob, 450, 410)
    assert corrected.corrected_at is not None and corrected.game == Game(1, bob, di, 450, 410, first=di)
    assert table(events, club.id, through_round=1) == [
        (1, "Ed", "1-0", 50), (2, "Bob", "1-0", 40), (3, "Ann", "1-0", 40), (4, "Di", "0-1", -40), (5, "Cy", "0-1", -40)]
    assert table(events, club.id) == [
        (1, "Ed", "2-0", 60), (2, "Di", "1-1", 110), (3, "Bob", "1-1", 30), (4, "Cy", "1-1", 10), (5, "Ann", "1-1", -110)]
    card = events.scorecard(club.id, None, di).scorecard
    assert [(line.opponent, line.first, line.score, line.opponent_score, line.record, line.cumulative_spread)
            for line in card] == [(bob, True, 410, 450, "0-1", -40), (ann, False, 450, 300, "1-1", 110)]
    assert len(events.results(club.id, None)) == 4  # the correction replaced the result, it did not add one
    assert events.event(club.id).status == "over"
    with pytest.raises(EventError, match="Cy \\(#3\\) has the bye in round 2"):
        events.correct_result(club.id, "a", 2, cy, 400, 300)  # a bye has no scores to correct
    # another process reading the same database sees the same event
    again = EventStore(Store(url, migrate_schema=False))
    assert again.find_event("tuesday CLUB").id == club.id and table(again, club.id)[0] == (1, "Ed", "2-0", 60)


def test_an_event_entered_by_hand_with_a_correction(tmp_path: Path) -> None:
    _over_the_board(f"sqlite:///{tmp_path / 'events.db'}")


@pytest.mark.service
def test_an_event_entered_by_hand_on_a_real_postgresql() -> None:
    from services import postgresql

    with postgresql() as database:
        _over_the_board("postgresql+psycopg://" + database.removeprefix("postgresql://"))


def test_a_late_entry_and_a_withdrawal() -> None:
    """Four players pair round 1; Eve comes late and Dan leaves: round 2
    pairs Eve and not Dan, whose result stands. Eve's missed round is a
    forfeit loss the director gives. A player added to a round paired but
    not started is in it once it is paired again (with the same seed)."""
    events = EventStore(Store("sqlite://"))
    event = events.create_event("Cup", rounds=3).id
    ann, bob, cat, dan = (p.id for p in events.add_players(event, None, [(n, None, None) for n in ("Ann", "Bob", "Cat", "Dan")]))
    events.pair(event, None, 1, "koth", seed=1)
    for pairing in events.pairings(event, None, 1):
        events.enter_result(event, None, 1, pairing.a, 400, 350)
    eve = events.add_player(event, None, "Eve", rating=1500)
    assert eve == Player(5, "Eve", rating=1500, joined=2)
    gone = events.withdraw(event, None, dan)
    assert gone.withdrawn == 2
    with pytest.raises(EventError, match="withdrawn already"):
        events.withdraw(event, None, dan)
    with pytest.raises(EventError, match="round 1 has started"):
        events.add_player(event, None, "Fay", joined=1)
    with pytest.raises(EventError, match="a player named 'Ann' already"):
        events.add_player(event, None, "  ann ")
    events.give_forfeit(event, None, 1, eve.id)
    with pytest.raises(EventError, match="has a result already"):
        events.give_bye(event, None, 1, eve.id)
    events.give_bye(event, None, 1, eve.id, correct=True)  # the director thinks again: a bye for the missed round
    with pytest.raises(EventError, match="round 2 is the next to pair, not round 3"):
        events.pair(event, None, 3, "random")
    round_2 = events.pair(event, None, 2, "swiss", seed=4)
    assert round_2.players == {ann, bob, cat, eve.id}
    fay = events.add_player(event, None, "Fay", joined=2)  # round 2 has not started: she may still play it
    again = events.pair(event, None, 2, "swiss")
    assert fay.id in again.players and again.byes == (again.byes[0],) and dan not in again.players
    assert events.rounds(event, None)[1].seed == 4  # paired again with its seed
    names = {s.player.name: s for s in events.standings(event, None)}
    assert names["Dan"].player.withdrawn == 2 and names["Dan"].games == 1  # his result stands
    assert names["Eve"].byes == 1 and names["Eve"].record == "1-0"
    with pytest.raises(EventError, match="round 2 has no result yet for"):
        events.pair(event, None, 3, "swiss")  # swiss ranks by results: round 2's are needed
    assert events.pair(event, None, 3, "rr", seed=1).round == 3  # a round robin needs none


def test_pairings_are_stored_and_made_again_from_their_method_and_seed(tmp_path: Path) -> None:
    """Six players: swiss (seed given), swiss (seed drawn), king of the hill.
    Each round's stored pairings are what :func:`tilebag.events.pair_round`
    gives from the stored method and seed and the results before it; a
    second store on the same file reads the same."""
    url = f"sqlite:///{tmp_path / 'events.db'}"
    events = EventStore(Store(url))
    event = events.create_event("Night", rounds=3).id
    events.add_players(event, None, [(f"P{i}", 2000 - 50 * i, None) for i in range(1, 7)])
    scores = iter([(400, 380), (350, 420), (399, 398), (410, 411), (377, 300), (455, 330), (380, 381), (300, 500), (402, 401)])
    for number, method in [(1, "swiss"), (2, "swiss"), (3, "koth")]:
        stored = events.pair(event, None, number, method, seed=11 if number == 1 else None)
        paired = events.rounds(event, None)[number - 1]
        assert paired.method.value in (method, "king of the hill") and not paired.started
        earlier = [g for g in events.games(event, None) if g.round < number]
        remade = pair_round(paired.method, events.players(event, None), earlier, number, seed=paired.seed, total_rounds=3)
        assert remade == stored and [p.first for p in remade] == [p.first for p in stored]
        assert events.pair(event, None, number, method) == stored  # paired again: the same, with the stored seed
        for pairing in stored:
            events.enter_result(event, None, number, pairing.a, *next(scores))
    other = EventStore(Store(url, migrate_schema=False))
    assert [other.pairings(event, None, n) for n in (1, 2, 3)] == [events.pairings(event, None, n) for n in (1, 2, 3)]
    koth = other.pairings(event, None, 3)
    ranked = [s.player.id for s in other.standings(event, None, through_round=2)]
    assert [set(p.players) for p in koth] == [set(ranked[i:i + 2]) for i in (0, 2, 4)]


def test_a_pairing_changed_before_the_round_starts() -> None:
    events = EventStore(Store("sqlite://"))
    event = events.create_event("Night").id
    events.add_players(event, None, [(n, None, None) for n in ("Ann", "Bob", "Cy", "Di", "Ed")])
    before = events.pair(event, None, 1, "random", seed=2)
    a, b = before.games[0].a, before.games[0].b
    c, d = before.games[1].a, before.games[1].b
    assert b is not None and d is not None
    (bye,) = before.byes
    changed = events.change_pairing(event, None, 1, a, c)
    assert {frozenset(p.players) for p in changed} == {frozenset({a, c}), frozenset({b, d}), frozenset({bye})}
    assert events.rounds(event, None)[0].method is Method.FIXED
    given_bye = events.change_pairing(event, None, 1, a, None)  # a takes the bye; c plays the bye's holder
    assert set(given_bye.byes) == {a} and frozenset({c, bye}) in {frozenset(p.players) for p in given_bye}
    assert frozenset({b, d}) in {frozenset(p.players) for p in given_bye}
    assert {p.first for p in given_bye if set(p.players) == {b, d}} == {p.first for p in changed if set(p.players) == {b, d}}
    with pytest.raises(EventError, match="cannot play themselves"):
        events.change_pairing(event, None, 1, b, b)
    events.enter_result(event, None, 1, b, 400, 300)
    with pytest.raises(EventError, match="has started"):
        events.change_pairing(event, None, 1, b, c)


def test_a_result_entered_by_a_player_counts_once_the_opponent_confirms_it() -> None:
    events = EventStore(Store("sqlite://"))
    event = events.create_event("Online night", online=True, clock={"game_minutes": 25}).id
    ann, bob = (p.id for p in events.add_players(event, None, [("Ann", None, 7), ("Bob", None, None)]))
    assert events.accounts(event, None) == {ann: 7}
    events.pair(event, None, 1, "rr", seed=0)
    entered = events.enter_result(event, None, 1, ann, 420, 380, by=ann)
    assert not entered.confirmed and entered.entered_by == ann
    assert events.games(event, None) == () and len(events.missing(event, None, 1)) == 1
    with pytest.raises(EventError, match="their opponent confirms it"):
        events.confirm_result(event, None, 1, ann)
    with pytest.raises(EventError, match="confirm it, or ask the director"):
        events.enter_result(event, None, 1, bob, 390, 420, by=bob)  # Bob remembers it otherwise
    confirmed = events.enter_result(event, None, 1, bob, 380, 420, by=bob)  # the same game, from his side
    assert confirmed.confirmed and events.games(event, None) == (Game(1, ann, bob, 420, 380, first=ann),)
    with pytest.raises(EventError, match="no result waiting"):
        events.confirm_result(event, None, 1, bob)


def test_a_division_goes_to_a_tsh_file_and_comes_back() -> None:
    """Byes, a forfeit, a late entry, a withdrawal, a pairing without its
    result yet and a field tilebag does not read all survive the trip."""
    events = EventStore(Store("sqlite://"))
    event = events.create_event("Open", divisions=["A", "B"], rounds=3).id
    events.add_players(event, "a", [(n, r, None) for n, r in (("Chew, John", 1850), ("Smith, Ann", 1700), ("Jones, Bo", None))])
    events.pair(event, "A", 1, "swiss", seed=1)
    for p in events.pairings(event, "A", 1):
        if p.b is not None:
            events.give_forfeit(event, "A", 1, p.b)
    events.add_player(event, "A", "Late, Lou")
    events.withdraw(event, "A", 3)
    events.pair(event, "A", 2, "swiss", seed=1)
    text = events.export_tsh(event, "A")
    copy, division = events.import_tsh(text, name="Copy")
    assert (copy.name, division) == ("Copy", "A")
    assert events.division(copy.id, None) == events.division(event, "A") == tsh.loads(text)
    assert events.export_tsh(copy.id, None) == text
    assert [r.started for r in events.rounds(copy.id, None)] == [True, False]
    kept, _ = events.import_tsh("Abbott, Ann 1812 0; 50; class A; newr 1820\n", event_id=event, division="C")
    assert kept.divisions == ("A", "B", "C") and "class A; newr 1820" in events.export_tsh(event, "C")
    with pytest.raises(EventError, match="division 'C' already"):
        events.import_tsh("Abbott, Ann 1812 0; 50\n", event_id=event, division="c")
    with pytest.raises(TshError, match="line 1: round 1: player 1 plays player 2, whose line has player 3"):
        events.import_tsh("Abbott, Ann 1812 2; 400\nBaker, Bo 1700 3; 380\n", name="Broken")
    assert [e.name for e in events.events()] == ["Open", "Copy"]  # nothing stored from the broken file


def test_what_cannot_be_is_refused_and_changes_nothing() -> None:
    events = EventStore(Store("sqlite://"))
    with pytest.raises(EventError, match="two divisions are named 'A'"):
        events.create_event("Cup", divisions=["A", "a"])
    with pytest.raises(EventError, match="1 to 200 rounds"):
        events.create_event("Cup", rounds=0)
    with pytest.raises(EventError, match="control character"):
        events.create_event("Cup\x1b[2J")
    with pytest.raises(EventError, match="a clock says"):
        events.create_event("Cup", clock={"increment": 5})
    event = events.create_event("Cup", divisions=["A", "B"], rounds=2).id
    with pytest.raises(EventError, match="has divisions A, B: say which"):
        events.add_player(event, None, "Ann")
    with pytest.raises(EventError, match="no division 'C'"):
        events.add_player(event, "C", "Ann")
    with pytest.raises(ResultError, match="a rating is a number"):
        events.add_player(event, "A", "Ann", rating=-3)
    with pytest.raises(EventError, match="has no players to pair"):
        events.pair(event, "A", 1, "swiss")
    events.add_players(event, "A", [("Ann", None, None), ("Bob", None, None)])
    with pytest.raises(PairingError, match="unknown pairing method"):
        events.pair(event, "A", 1, "dutch")
    with pytest.raises(PairingError, match="player 2 not paired"):
        events.pair(event, "A", 1, "fixed", fixed=[(1, None)])
    with pytest.raises(EventError, match="there is no round 3"):
        events.give_bye(event, "A", 3, 1)
    with pytest.raises(EventError, match="not paired"):
        events.enter_result(event, "A", 1, 1, 400, 300)
    with pytest.raises(EventError, match="there is no event 'Nope'"):
        events.find_event("Nope")
    assert events.rounds(event, "A") == () and events.results(event, "A") == ()
    events.create_event("Cup")
    with pytest.raises(EventError, match="2 events are named 'cup': give its number \\(1, 2\\)"):
        events.find_event("cup")


def test_two_stores_entering_results_at_once_each_store_theirs(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'events.db'}"
    first, second = EventStore(Store(url)), EventStore(Store(url, migrate_schema=False))
    event = first.create_event("Blitz").id
    first.add_players(event, None, [(f"P{i}", None, None) for i in range(1, 21)])
    boards = list(first.pair(event, None, 1, "random", seed=5))
    errors: list[BaseException] = []

    def enter(store: EventStore, part: list[Pairing]) -> None:
        try:
            for pairing in part:
                store.enter_result(event, None, 1, pairing.a, 400, 300)
        except BaseException as err:  # noqa: BLE001 (reported below)
            errors.append(err)

    threads = [threading.Thread(target=enter, args=(s, boards[i::2])) for i, s in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == [] and len(first.games(event, None)) == 10 and first.missing(event, None, 1) == ()
