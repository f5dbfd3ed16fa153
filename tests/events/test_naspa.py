"""Rating an event the NASPA way (``tilebag.events.naspa``): the curve and
the multipliers, golden examples computed by hand, the properties a rating
system must have, new players' iterated ratings, segments, and ``tilebag
ratings`` run as a real process."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from running import tilebag, write
from tilebag.events import tsh
from tilebag.events.naspa import (
    NEW_MULTIPLIERS,
    NewRating,
    RatedPlayer,
    RatingError,
    multiplier,
    naspa_segments,
    performance_rating,
    rate_event,
    segment_rounds,
    win_probability,
)
from tilebag.events.standings import Game, Player, ResultError

P400 = 1 / (1 + math.exp(-0.0031879 * 400))
"""The wins expected 400 points above the opponent: 0.781624."""


def rated(pid: int, rating: int | None, games: int = 100, name: str = "") -> RatedPlayer:
    return RatedPlayer(Player(pid, name or f"Player {pid}", rating=rating), games)


def by_id(table: list[NewRating]) -> dict[int, NewRating]:
    return {r.player.id: r for r in table}


def win(round_number: int, winner: int, loser: int) -> Game:
    return Game(round_number, winner, loser, 400, 350)


# the curve and the multipliers


def test_the_curve() -> None:
    """1 / (1 + e^(-0.0031879 d)): at d = 400, e^-1.27516 = 0.279366 and
    1 / 1.279366 = 0.781624; at d = 0, one half."""
    assert win_probability(2000, 1600) == pytest.approx(0.781624, abs=1e-6)
    assert win_probability(1600, 2000) == pytest.approx(0.218376, abs=1e-6)
    assert win_probability(1234, 1234) == 0.5
    assert win_probability(1600, 1500) == pytest.approx(0.579029, abs=1e-6)


ratings = st.floats(min_value=-5000, max_value=10000, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(ratings, ratings)
def test_the_curve_is_symmetric(a: float, b: float) -> None:
    assert win_probability(a, b) + win_probability(b, a) == 1.0
    assert 0.0 <= win_probability(a, b) <= 1.0


@settings(max_examples=200, deadline=None)
@given(ratings, ratings, ratings)
def test_the_curve_rises_with_the_rating(a: float, b: float, opponent: float) -> None:
    low, high = sorted((a, b))
    assert win_probability(low, opponent) <= win_probability(high, opponent)
    assert win_probability(opponent, low) >= win_probability(opponent, high)


def test_the_multipliers() -> None:
    assert [multiplier(r, 0) for r in (0, 1799, 1800, 1999, 2000, 2400)] == [30, 30, 24, 24, 15, 15]
    assert [multiplier(r, 49) for r in (1799.9, 1800, 2000)] == [30, 24, 15]
    assert [multiplier(r, 50) for r in (1500, 1800, 2000)] == [20, 16, 10]


# golden examples, computed by hand


def test_equal_players_and_acceleration() -> None:
    """Ann and Bob, 1500 and 100 games each; Ann wins the one game. Ann:
    0.5 wins over expectation at 20 is +10, 5 more than 5 a game, so +5
    acceleration: 1515. Bob: -10, plus 5/20 feedback: 1490.25, 1490."""
    ann, bob = by_id(rate_event([rated(1, 1500), rated(2, 1500)], [win(1, 1, 2)])).values()
    assert (ann.new, ann.change, ann.expected, ann.wins, ann.acceleration) == (1515, 15, 0.5, 1.0, 5.0)
    assert (bob.new, bob.change, bob.feedback, bob.acceleration) == (1490, -10, 0.25, 0.0)


def test_a_rating_rising_across_1800() -> None:
    """Ann, 1790, beats Bob, 2190 (both 100 games). Ann was expected
    0.218376 wins, so 0.781624 over: the first 0.5 at 20 takes her to 1800,
    the other 0.281624 at 16 is 4.506 more: 1804.506. That is 14.506 in one
    game, 9.506 over 5: 1814.012, published 1814 (without the band change
    it would have been 1816). Bob: -0.781624 at 10 is -7.816, plus 9.506/20
    = 0.475 of feedback: 2182.659, 2183."""
    ann, bob = by_id(rate_event([rated(1, 1790), rated(2, 2190)], [win(1, 1, 2)])).values()
    assert ann.expected == pytest.approx(1 - P400)
    assert ann.acceleration == pytest.approx(9.506, abs=1e-3)
    assert (ann.new, bob.new) == (1814, 2183)
    assert bob.feedback == pytest.approx(0.4753, abs=1e-4)


def test_a_rating_falling_across_2000() -> None:
    """Carl, 2005, loses to Dee, 1605 (both 100 games). Carl: -0.781624
    wins; the first 0.5 at 10 takes him to 2000, the other 0.281624 at 16
    is -4.506: 1995.494. Dee: +0.781624 at 20 is 15.632, 10.632 over 5:
    1631.265, 1631; Carl gets 10.632/20 = 0.532 of feedback: 1996.03, 1996."""
    carl, dee = by_id(rate_event([rated(1, 2005), rated(2, 1605)], [win(1, 2, 1)])).values()
    assert (carl.new, dee.new) == (1996, 1631)
    assert dee.acceleration == pytest.approx(10.632, abs=1e-3)


def test_a_new_player_capped_and_floored() -> None:
    """Cy, new, beats two players rated 1500: his performance is the
    lowest rating expected to win 1.9 of 2 (all wins count as 95%),
    1500 + ln(19)/0.0031879 = 1500 + 923.6, so 2424; capped at 1500 + 400
    × 2/2 = 1900. Di, new, loses both to them: 1500 - 923 = 577, above the
    floor of 500."""
    players = [rated(1, 1500), rated(2, 1500), rated(3, None, 0), rated(4, None, 0)]
    results = [win(1, 3, 1), win(1, 2, 4), win(2, 3, 2), win(2, 1, 4)]
    table = by_id(rate_event(players, results))
    assert (table[3].new, table[3].performance, table[3].old, table[3].change) == (1900, 2424, None, None)
    assert (table[4].new, table[4].performance) == (577, 577)
    low = rate_event([rated(1, 600), rated(2, None, 0)], [win(1, 1, 2)])
    assert (low[1].performance, low[1].new) == (1, 500)  # 600 - 923 is below 0: the floor


def test_new_players_meeting_each_other() -> None:
    """Two new players who met only each other have nothing to anchor
    them: both start at 1500, and they settle where each one's performance
    against the other's rating is their own (1 win in 2 each: level)."""
    table = rate_event([rated(1, None, 0), rated(2, None, 0)], [win(1, 1, 2), win(2, 2, 1)])
    assert [r.new for r in table] == [1500, 1500]


def test_byes_forfeits_and_draws() -> None:
    """Byes and forfeits change nothing; a draw between equals changes
    nothing either."""
    players = [rated(1, 1600), rated(2, 1500), rated(3, 1400)]
    games = [win(1, 1, 2), Game(2, 2, 3, 380, 380)]
    plain = rate_event(players, games)
    extra = [*games, Game.bye(1, 3), Game.forfeit_loss(2, 1), Game.forfeit_loss(3, 3, opponent=2), Game.bye(3, 1)]
    assert rate_event(players, extra) == plain
    two, three = rate_event([rated(2, 1500), rated(3, 1500)], [Game(1, 2, 3, 380, 380)])
    assert (two.wins, two.new, three.new) == (0.5, 1500, 1500)
    nobody = rate_event([rated(1, 1500), rated(2, None, 0)], [Game.bye(1, 1), Game.bye(1, 2)])
    assert [(r.games, r.new, r.performance, r.expected) for r in nobody] == [(0, 1500, None, 0.0), (0, None, None, 0.0)]


def test_bad_input() -> None:
    with pytest.raises(ResultError, match="player 3 is not in the event"):
        rate_event([rated(1, 1500), rated(2, 1500)], [win(1, 1, 3)])
    with pytest.raises(RatingError, match="cannot split 2 rounds into 3 segments"):
        rate_event([rated(1, 1500), rated(2, 1500)], [win(1, 1, 2), win(2, 2, 1)], segments=3)
    with pytest.raises(RatingError, match="games played"):
        rated(1, 1500, -1)
    with pytest.raises(RatingError):
        performance_rating(3, [1500, 1500])


# properties


def established(low: int, high: int) -> st.SearchStrategy[int]:
    return st.integers(min_value=low, max_value=high)


@settings(max_examples=100, deadline=None)
@given(established(2100, 2400), established(2100, 2400), st.lists(st.booleans(), min_size=1, max_size=8))
def test_two_established_players_of_one_band_trade_points(a: int, b: int, a_wins: list[bool]) -> None:
    """Between two players of 2000 and up with 50 games and more, what one
    wins the other loses (to the rounding of each), acceleration and
    feedback aside."""
    results = [win(r, 1, 2) if won else win(r, 2, 1) for r, won in enumerate(a_wins, start=1)]
    one, two = rate_event([rated(1, a), rated(2, b)], results)
    assert one.expected + two.expected == pytest.approx(len(a_wins))
    base = [r.new - r.old - r.acceleration - r.feedback for r in (one, two) if r.new is not None and r.old is not None]
    assert abs(sum(base)) <= 1.0 + 1e-9
    if not one.acceleration and not two.acceleration:
        assert abs(sum(r.change or 0 for r in (one, two))) <= 1


@settings(max_examples=100, deadline=None)
@given(established(600, 2300), established(300, 2600), established(300, 2600), st.integers(0, 200))
def test_beating_a_stronger_player_gains_more(me: int, one: int, other: int, games: int) -> None:
    stronger, weaker = max(one, other), min(one, other)

    def gain(opponent: int) -> int:
        mine = rate_event([rated(1, me, games), rated(2, opponent, games)], [win(1, 1, 2)])[0]
        assert mine.change is not None
        return mine.change

    assert gain(stronger) >= gain(weaker)
    lost = rate_event([rated(1, me, games), rated(2, stronger, games)], [win(1, 2, 1)])[0].change
    lost_weaker = rate_event([rated(1, me, games), rated(2, weaker, games)], [win(1, 2, 1)])[0].change
    assert lost is not None and lost_weaker is not None and lost >= lost_weaker


def test_beating_a_stronger_player_gains_strictly_more() -> None:
    assert [rate_event([rated(1, 1500), rated(2, r)], [win(1, 1, 2)])[0].change for r in (1300, 1500, 1700)] == [
        9, 15, 21  # 20 × 0.3458 = 6.92, +1.92: 8.83; 10, +5; 20 × 0.6542 = 13.08, +8.08: 21.17
    ]


@st.composite
def events(draw: st.DrawFn, max_rounds: int = 6) -> tuple[list[RatedPlayer], list[Game]]:
    """A few players, some new, and a few rounds of random pairings and results."""
    count = draw(st.integers(2, 7))
    players = [
        rated(i, draw(st.one_of(st.none(), st.integers(400, 2300))), draw(st.integers(0, 120)))
        for i in range(1, count + 1)
    ]
    results: list[Game] = []
    for r in range(1, draw(st.integers(1, max_rounds)) + 1):
        order = draw(st.permutations(range(1, count + 1)))
        for a, b in zip(order[::2], order[1::2], strict=False):
            score = draw(st.sampled_from([(400, 350), (350, 400), (380, 380)]))
            results.append(Game(r, a, b, *score))
        if count % 2:
            results.append(Game.bye(r, order[-1]))
    return players, results


@settings(max_examples=60, deadline=None)
@given(events())
def test_new_players_settle_on_their_performance(event: tuple[list[RatedPlayer], list[Game]]) -> None:
    """Each new player's rating is their performance against the ratings
    the event gave everyone (the new players' own among them), floored at
    500 and capped at the strongest rated opponent plus 400 × their share
    of wins: the iteration has converged. Every new player here met a
    rated one: new players who met only each other have nothing to anchor
    them, and their iteration may drift until it gives up (after 50 rounds)
    and takes the mean of 50 more."""
    players, results = event
    known = {p.id for p in players if p.rating is not None}
    for p in players:
        met = {g.opponent(p.id) for g in results if g.was_played and p.id in g.players}
        assume(p.rating is not None or not met or met & known)
    table = by_id(rate_event(players, results))
    final = {who: r.new for who, r in table.items()}
    for who, r in table.items():
        if r.old is not None or not r.games:
            continue
        faced = [(g.opponent(who), g.points(who)) for g in results if g.was_played and who in g.players]
        opponents = [table[o].old or final[o] for o, _ in faced if o is not None]
        value = float(max(performance_rating(r.wins, [float(x or 0) for x in opponents]), 500))
        strongest = max((table[o].old or 0 for o, _ in faced if o is not None and table[o].old), default=None)
        if strongest:
            value = min(value, strongest + 400 * r.wins / r.games)
        assert r.new is not None
        assert abs(r.new - value) <= 1, (who, r, value)


@settings(max_examples=40, deadline=None)
@given(events(max_rounds=8), st.data())
def test_segments_rate_one_part_after_the_other(event: tuple[list[RatedPlayer], list[Game]], data: st.DataObject) -> None:
    """An event rated in two segments is its first part rated, then its
    second rated from the ratings and game counts the first left."""
    players, results = event
    rounds = max(g.round for g in results)
    assume(rounds >= 2)
    first, second = segment_rounds(rounds, 2)
    whole = rate_event(players, results, segments=2)
    before = rate_event(players, [g for g in results if g.round in first])
    middle = [
        RatedPlayer(Player(p.id, p.name, rating=r.new), p.games + r.games) for p, r in zip(players, before, strict=True)
    ]
    after = rate_event(middle, [g for g in results if g.round in second])
    assert [r.new for r in whole] == [r.new for r in after]
    assert [r.segments for r in whole] == [(b.new, a.new) for b, a in zip(before, after, strict=True)]
    assert [r.games for r in whole] == [b.games + a.games for b, a in zip(before, after, strict=True)]


def test_segments_change_the_multiplier_of_a_new_player() -> None:
    """Cy, new, draws with Ann (1500) in round 1: rated 1500 after segment
    1, with 1 game. In round 2 he beats Ann as a rated player with fewer
    than 50 games: +0.5 at 30, +15, and 10 of acceleration: 1525."""
    players = [rated(1, 1500), rated(2, None, 0)]
    results = [Game(1, 1, 2, 400, 400), win(2, 2, 1)]
    cy = rate_event(players, results, segments=2)[1]
    assert cy.segments == (1500, 1525)
    assert NEW_MULTIPLIERS[0] == 30
    # one segment: 1.5 wins in 2 against 1500 is a performance of 1845, capped at 1500 + 400 × 0.75
    assert rate_event(players, results)[1].new == 1800


def test_naspa_splits_long_events() -> None:
    assert [naspa_segments(n) for n in (0, 7, 16, 17, 35, 36, 60)] == [1, 1, 1, 2, 2, 3, 3]
    assert segment_rounds(16, 1) == [range(1, 17)]
    assert segment_rounds(17, 2) == [range(1, 10), range(10, 18)]
    assert segment_rounds(36, 3) == [range(1, 13), range(13, 25), range(25, 37)]
    assert segment_rounds(0, 1) == [range(1, 1)]
    for rounds in range(1, 40):
        for count in range(1, rounds + 1):
            parts = segment_rounds(rounds, count)
            assert [r for part in parts for r in part] == list(range(1, rounds + 1))
            assert max(map(len, parts)) - min(map(len, parts)) <= 1
            assert [len(p) for p in parts] == sorted((len(p) for p in parts), reverse=True)


# tilebag ratings, as a real process


def event_file(folder: Path) -> Path:
    """Ann (1850, 300 games), Bob (1700, 30), Cy (new), Di (1500, no
    lifeg: 100); three rounds of a round robin, Di with a forfeit."""
    players = (
        Player(1, "Abbott, Ann", rating=1850),
        Player(2, "Baker, Bob", rating=1700),
        Player(3, "Carter, Cy"),
        Player(4, "Diaz, Di", rating=1500),
    )
    results = (
        Game(1, 1, 2, 420, 380, first=1),
        Game(1, 3, 4, 355, 402, first=3),
        Game(2, 1, 3, 388, 300, first=3),
        Game(2, 2, 4, 401, 410, first=2),
        Game(3, 1, 4, 390, 350, first=4),
        Game.forfeit_loss(3, 3, opponent=2),
    )
    division = tsh.Division(players, results, extra={1: {"lifeg": "300"}, 2: {"lifeg": "30"}})
    return write(folder, "event.t", "# Division A\n" + tsh.dumps(division))


def test_the_command(tmp_path: Path) -> None:
    path = event_file(tmp_path)
    done = tilebag("ratings", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["#", "player", "old", "games", "wins", "expected", "new", "change", "perf"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == {"1", "2", "3", "4"}
    assert "Carter, Cy" in rows["3"] and " new " in rows["3"]
    done = tilebag("ratings", str(path), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["segments"] == [[1, 3]]
    table = {p["name"]: p for p in data["players"]}
    assert [table[n]["games_before"] for n in ("Abbott, Ann", "Baker, Bob", "Carter, Cy", "Diaz, Di")] == [300, 30, 0, 100]
    assert table["Baker, Bob"]["games"] == 2 and table["Carter, Cy"]["games"] == 2  # the forfeit is not rated
    division = tsh.loads(path.read_text(encoding="utf-8"))
    again = rate_event(
        [RatedPlayer(p, g) for p, g in zip(division.players, (300, 30, 0, 100), strict=True)], division.results
    )
    assert [p["new"] for p in data["players"]] == [r.new for r in again]
    assert [p["change"] for p in data["players"]] == [r.change for r in again]


def test_the_command_refuses_a_malformed_file(tmp_path: Path) -> None:
    good = event_file(tmp_path).read_text(encoding="utf-8").splitlines()
    bad = write(tmp_path, "bad.t", "\n".join([good[0], good[1], good[2].replace(";", "; x", 1), *good[3:]]) + "\n")
    done = tilebag("ratings", str(bad))
    assert done.returncode == 2
    assert "line 3:" in done.stderr and "'x'" in done.stderr and "Traceback" not in done.stderr
    lifeg = write(tmp_path, "lifeg.t", "\n".join(good).replace("lifeg 30;", "lifeg thirty;") + "\n")
    done = tilebag("ratings", str(lifeg))
    assert done.returncode == 2
    assert "line 3:" in done.stderr and "lifeg" in done.stderr and "Traceback" not in done.stderr
    done = tilebag("ratings", str(tmp_path / "missing.t"), "--segments", "5")
    assert done.returncode == 2 and "cannot read" in done.stderr and "Traceback" not in done.stderr
