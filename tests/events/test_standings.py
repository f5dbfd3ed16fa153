"""Standings: wins, spread and the tie-breaks, byes, draws and forfeits,
scorecards, and corrections (standings are a pure function of the results)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from tilebag.events.standings import (
    BYE_SPREAD,
    FORFEIT_SPREAD,
    Game,
    Player,
    ResultError,
    check_results,
    replace_result,
    standings,
)


def golden_event() -> tuple[list[Player], list[Game]]:
    """Five players, three rounds; Ed withdraws after round 2.

    Round 1: Ann 450 Bob 400 (Ann first); Cy 380 Di 380, a draw (Di first);
    Ed a bye (50-0).
    Round 2: Ann 350 Cy 420 (Ann first); Bob 500 Ed 300 (Ed first); Di a bye.
    Round 3: Di does not come: Ann wins by forfeit 50-0; Bob 410 Cy 390
    (Bob first); Ed, withdrawn, is given a forfeit loss (0-50).

    By hand (wins-losses, spread, total score of games played, firsts/seconds):

    ====  ==========  =============================  ======  =====  =========
    who   record      spread                         total   1st    2nd
    ====  ==========  =============================  ======  =====  =========
    Ann   2-1         +50 -70 +50 = +30              800     2      0
    Bob   2-1         -50 +200 +20 = +170            1310    1      2
    Cy    1.5-1.5     0 +70 -20 = +50                1190    0      3
    Di    1.5-1.5     0 +50 -50 = 0                  380     1      0
    Ed    1-2         +50 -200 -50 = -200            300     1      0
    ====  ==========  =============================  ======  =====  =========

    Standings: 1 Bob (2 wins, +170), 2 Ann (2, +30), 3 Cy (1.5, +50),
    4 Di (1.5, 0), 5 Ed (1, -200). After round 2 only: Bob and Ed are
    1-1 with +150 and -150; Ann 1-1 -20; Cy 1.5-0.5 +70; Di 1.5-0.5 +50:
    1 Cy, 2 Di, 3 Bob, 4 Ann, 5 Ed.
    """
    players = [
        Player(1, "Ann", rating=1900),
        Player(2, "Bob", rating=1800),
        Player(3, "Cy", rating=1700),
        Player(4, "Di"),
        Player(5, "Ed", rating=1500, withdrawn=3),
    ]
    results = [
        Game(1, 1, 2, 450, 400, first=1),
        Game(1, 3, 4, 380, 380, first=4),
        Game.bye(1, 5),
        Game(2, 1, 3, 350, 420, first=1),
        Game(2, 2, 5, 500, 300, first=5),
        Game.bye(2, 4),
        Game.forfeit_loss(3, 4, opponent=1),
        Game(3, 2, 3, 410, 390, first=2),
        Game.forfeit_loss(3, 5),
    ]
    return players, results


def test_golden_event_standings_by_hand() -> None:
    players, results = golden_event()
    table = standings(players, results)
    got = [(s.rank, s.player.name, s.record, s.spread, s.total_score, s.firsts, s.seconds) for s in table]
    assert got == [
        (1, "Bob", "2-1", 170, 1310, 1, 2),
        (2, "Ann", "2-1", 30, 800, 2, 0),
        (3, "Cy", "1.5-1.5", 50, 1190, 0, 3),
        (4, "Di", "1.5-1.5", 0, 380, 1, 0),
        (5, "Ed", "1-2", -200, 300, 1, 0),
    ]
    assert [s.byes for s in table] == [0, 0, 0, 1, 1]
    after_two = standings(players, results, through_round=2)
    assert [(s.player.name, s.record, s.spread) for s in after_two] == [
        ("Cy", "1.5-0.5", 70),
        ("Di", "1.5-0.5", 50),
        ("Bob", "1-1", 150),
        ("Ann", "1-1", -20),
        ("Ed", "1-1", -150),
    ]


def test_golden_event_scorecards() -> None:
    players, results = golden_event()
    by_name = {s.player.name: s for s in standings(players, results)}
    di = [
        (line.round, line.opponent, line.first, line.score, line.opponent_score, line.outcome, line.bye, line.forfeit,
         line.record, line.cumulative_spread)
        for line in by_name["Di"].scorecard
    ]  # fmt: skip
    assert di == [
        (1, 3, True, 380, 380, "T", False, False, "0.5-0.5", 0),
        (2, None, None, 50, 0, "W", True, False, "1.5-0.5", 50),
        (3, 1, None, 0, 50, "L", False, True, "1.5-1.5", 0),
    ]
    ed = [
        (line.round, line.opponent, line.first, line.outcome, line.cumulative_spread)
        for line in by_name["Ed"].scorecard
    ]
    assert ed == [(1, None, None, "W", 50), (2, 2, True, "L", -150), (3, None, None, "L", -200)]


def test_bye_and_forfeit_spreads_are_the_documented_constants() -> None:
    assert BYE_SPREAD == 50 and FORFEIT_SPREAD == 50
    bye = Game.bye(1, 3)
    assert (bye.score_a, bye.score_b, bye.is_bye, bye.was_played, bye.points(3)) == (50, 0, True, False, 1.0)
    alone = Game.forfeit_loss(1, 3)
    assert (alone.score(3), alone.opponent_score(3), alone.points(3), alone.is_bye) == (0, 50, 0.0, False)
    paired = Game.forfeit_loss(1, 3, opponent=4, spread=100)
    assert paired.spread(4) == 100 and paired.spread(3) == -100 and not paired.was_played
    assert Game.bye(2, 1, spread=75).spread(1) == 75


def test_a_draw_is_half_a_win_and_half_a_loss() -> None:
    players = [Player(1, "Ann"), Player(2, "Bob")]
    table = standings(players, [Game(1, 1, 2, 377, 377)])
    assert [(s.wins, s.losses, s.record, s.rank) for s in table] == [(0.5, 0.5, "0.5-0.5", 1), (0.5, 0.5, "0.5-0.5", 1)]


def test_head_to_head_breaks_a_tie_on_wins_and_spread() -> None:
    """A beats B by 10, loses to C by 5; B beats D by 15: A and B are both
    1-1 +5, and A is above B for beating them."""
    players = [Player(2, "A"), Player(1, "B"), Player(3, "C"), Player(4, "D")]
    results = [
        Game(1, 2, 1, 400, 390),
        Game(1, 3, 4, 400, 380),
        Game(2, 3, 2, 405, 400),
        Game(2, 1, 4, 415, 400),
    ]
    table = standings(players, results)
    assert [(s.player.name, s.record, s.spread, s.head_to_head, s.rank) for s in table] == [
        ("C", "2-0", 25, 0, 1),
        ("A", "1-1", 5, 1, 2),
        ("B", "1-1", 5, 0, 3),
        ("D", "0-2", -35, 0, 4),
    ]


def test_total_score_then_shared_rank_then_rating_and_name() -> None:
    players = [Player(1, "Zed", rating=1500), Player(2, "Amy"), Player(3, "Kim", rating=1600), Player(4, "Lee")]
    results = [Game.bye(1, 1), Game.bye(1, 2), Game.bye(1, 3), Game(1, 4, 2, 0, 0)]
    # the draw in round 1 is impossible: Amy has two results
    with pytest.raises(ResultError, match="player 2 has two results"):
        standings(players, results)
    results = [Game.bye(1, 1), Game.bye(1, 2), Game.bye(1, 3), Game.bye(1, 4)]
    table = standings(players, results)
    # all 1-0 +50 with no score: one shared rank, listed by rating (unrated last), then name
    assert [(s.rank, s.player.name) for s in table] == [(1, "Kim"), (1, "Zed"), (1, "Amy"), (1, "Lee")]
    results = [Game(1, 1, 2, 400, 350), Game(1, 3, 4, 380, 330)]
    table = standings(players, results)
    assert [(s.rank, s.player.name, s.total_score) for s in table] == [
        (1, "Zed", 400),
        (2, "Kim", 380),
        (3, "Amy", 350),
        (4, "Lee", 330),
    ]


def test_before_any_result_the_players_are_listed_by_rating() -> None:
    players = [Player(1, "Low", rating=1000), Player(2, "New"), Player(3, "High", rating=2000)]
    assert [(s.rank, s.player.name, s.record) for s in standings(players, [])] == [
        (1, "High", "0-0"),
        (1, "Low", "0-0"),
        (1, "New", "0-0"),
    ]


def test_a_correction_replaces_the_old_result_and_everything_after_follows() -> None:
    players, results = golden_event()
    before = standings(players, results)
    assert before[0].player.name == "Bob"
    # round 1 was entered wrongly: Bob won 460-450, going second
    corrected = replace_result(results, Game(1, 2, 1, 460, 450, first=1))
    assert len(corrected) == len(results)
    after = {s.player.name: s for s in standings(players, corrected)}
    assert after["Bob"].record == "3-0" and after["Bob"].spread == 170 + 50 + 10
    assert after["Ann"].record == "1-2" and after["Ann"].spread == 30 - 50 - 10
    # every later line of the scorecard carries the corrected record
    assert [line.record for line in after["Ann"].scorecard] == ["0-1", "0-2", "1-2"]
    assert [line.cumulative_spread for line in after["Bob"].scorecard] == [10, 210, 230]
    # the same as entering the right result in the first place
    fresh = [g for g in results if not (g.round == 1 and 1 in g.players)] + [Game(1, 1, 2, 450, 460, first=1)]
    assert standings(players, corrected) == standings(players, fresh)


def test_a_correction_can_change_who_played_whom() -> None:
    players = [Player(i, n) for i, n in enumerate("ABCD", start=1)]
    results = [Game(1, 1, 2, 400, 300), Game(1, 3, 4, 400, 300)]
    # the pairing was 1 v 3 and 2 v 4: two corrections, each dropping the results it touches
    fixed = replace_result(replace_result(results, Game(1, 1, 3, 380, 390)), Game(1, 2, 4, 410, 400))
    assert set(fixed) == {Game(1, 1, 3, 380, 390), Game(1, 2, 4, 410, 400)}
    check_results(players, fixed)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Game(0, 1, 2, 400, 300), "a round is a number from 1"),
        (lambda: Game(1, 0, 2, 400, 300), "a player's id is a number from 1"),
        (lambda: Game(1, 1, 2, 400, 300, first=3), "player 3 went first but did not play"),
        (lambda: Game(1, 1, None, 0, 0), "a bye for player 1 is a win"),
        (lambda: Game(1, 1, None, 50, 0, forfeit=True), "a forfeit loss for player 1 is a loss"),
        (lambda: Game(1, 1, 2, 50, 10, forfeit=True), "a forfeit is won 50-0"),
        (lambda: Game(1, 1, 2, 0, 0, forfeit=True), "a forfeit has a winner"),
        (lambda: Game(1, 1, 2, 50, 0, first=1, forfeit=True), "a bye or a forfeit has no first player"),
        (lambda: Game(1, 1, 2, 10_000, 0), "a score is a whole number"),
        (lambda: Player(0, "Ann"), "a player's id is a number from 1"),
        (lambda: Player(1, " Ann"), "starts or ends with a space"),
        (lambda: Player(1, ""), "a player needs a name"),
        (lambda: Player(1, "A\nB"), "control character"),
        (lambda: Player(1, "Ann", rating=0), "None for unrated"),
        (lambda: Player(1, "Ann", joined=3, withdrawn=2), "withdrawn is a round from joined"),
    ],
)
def test_impossible_players_and_results_are_refused(make: object, message: str) -> None:
    with pytest.raises(ResultError, match=message):
        make()  # type: ignore[operator]


def test_results_must_fit_the_players() -> None:
    players = [Player(1, "Ann"), Player(2, "Bob")]
    with pytest.raises(ResultError, match="round 2: player 3 is not in the event"):
        standings(players, [Game(2, 1, 3, 400, 300)])
    with pytest.raises(ResultError, match="two players have the id 1"):
        standings([Player(1, "Ann"), Player(1, "Bob")], [])
    # a result beyond through_round is not looked at
    assert len(standings(players, [Game(2, 1, 3, 400, 300)], through_round=1)) == 2


@st.composite
def events(draw: st.DrawFn) -> tuple[list[Player], list[Game]]:
    count = draw(st.integers(1, 7))
    players = [Player(i, f"P{chr(64 + i)}", rating=draw(st.none() | st.integers(1, 2500))) for i in range(1, count + 1)]
    results = []
    for r in range(1, draw(st.integers(0, 5)) + 1):
        order = draw(st.permutations(range(1, count + 1)))
        taking = order[: draw(st.integers(0, count))]
        while len(taking) >= 2:
            a, b = taking.pop(), taking.pop()
            if draw(st.booleans()):
                spread = draw(st.integers(1, 100))
                results.append(Game.forfeit_loss(r, a, opponent=b, spread=spread))
            else:
                score_a, score_b = draw(st.integers(0, 600)), draw(st.integers(0, 600))
                first = draw(st.sampled_from([a, b, None]))
                results.append(Game(r, a, b, score_a, score_b, first=first))
        for a in taking:
            if draw(st.booleans()):
                results.append(Game.bye(r, a))
            else:
                results.append(Game.forfeit_loss(r, a))
    return players, results


@settings(max_examples=60, deadline=None)
@given(events())
def test_standings_add_up(event: tuple[list[Player], list[Game]]) -> None:
    players, results = event
    table = standings(players, results)
    assert sorted(s.player.id for s in table) == [p.id for p in players]
    for s in table:
        assert s.wins + s.losses == s.games == len(s.scorecard)
        if s.scorecard:
            last = s.scorecard[-1]
            assert (last.wins, last.losses, last.cumulative_spread) == (s.wins, s.losses, s.spread)
        assert [line.round for line in s.scorecard] == sorted(line.round for line in s.scorecard)
    alone = sum(g.spread(g.a) for g in results if g.b is None)
    assert sum(s.spread for s in table) == alone
    ranks = [s.rank for s in table]
    assert ranks[0] == 1 if ranks else True
    assert all(r <= i + 1 for i, r in enumerate(ranks)) and ranks == sorted(ranks)
    keys = [(-s.wins, -s.spread, -s.head_to_head, -s.total_score) for s in table]
    assert keys == sorted(keys)


@settings(max_examples=40, deadline=None)
@given(events(), st.data())
def test_standings_are_a_function_of_the_results_alone(
    event: tuple[list[Player], list[Game]], data: st.DataObject
) -> None:
    """The order the results come in changes nothing, and a correction gives
    what entering the corrected result in the first place gives."""
    players, results = event
    shuffled = data.draw(st.permutations(results))
    assert standings(players, shuffled) == standings(players, results)
    played = [g for g in results if g.b is not None]
    if played:
        old = data.draw(st.sampled_from(played))
        assert old.b is not None
        new = Game(old.round, old.b, old.a, data.draw(st.integers(0, 600)), data.draw(st.integers(0, 600)))
        corrected = replace_result(results, new)
        expected = [new if g is old else g for g in results]
        assert standings(players, corrected) == standings(players, expected)
        for through in range(1, old.round):
            assert standings(players, corrected, through_round=through) == standings(
                players, results, through_round=through
            )


def test_the_events_package_needs_the_standard_library_and_the_errors_only() -> None:
    """The pure foundation: the CLI and the server may stand on it, it
    stands on nothing but ``tilebag.errors``."""
    folder = ROOT / "src" / "tilebag" / "events"
    allowed = set(sys.stdlib_module_names)
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(Path(path).read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in allowed or name == "tilebag.errors" or name.startswith("tilebag.events"), (
                    path.name,
                    name,
                )
