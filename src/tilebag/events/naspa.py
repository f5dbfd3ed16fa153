"""Rating an event the way NASPA (the North American SCRABBLE Players
Association, formerly the NSA) rates a tournament.

The server keeps its own Glicko-2 and OpenSkill ratings of online games
(:mod:`tilebag.server.ratings`); this module gives the ratings a NASPA
director would expect after a club night or a tournament on the board: a
pure function of the players (their ratings and how many rated games they
had played before) and the results.

>>> from tilebag.events.standings import Game, Player
>>> ann = RatedPlayer(Player(1, "Ann", rating=1500), games=100)
>>> bob = RatedPlayer(Player(2, "Bob", rating=1500), games=100)
>>> [(r.player.name, r.old, r.expected, r.wins, r.new, r.change) for r in rate_event([ann, bob], [Game(1, 1, 2, 400, 350)])]
[('Ann', 1500, 0.5, 1.0, 1515, 15), ('Bob', 1500, 0.5, 0.0, 1490, -10)]

Ann beat an equal player: half a win more than expected, at 20 points a
win, is 10 points; that is 5 points a game more than the 5 a game above
which gains are doubled (acceleration), so she gains 15. Bob loses 10 and
gets back a twentieth of Ann's 5 acceleration points (feedback): 1490.25,
published as 1490.

**The rules, in order** (each with where it comes from; the sources are
listed at the end):

1. **Expected wins.** Against an opponent rated *d* points below, a player
   is expected to win 1 / (1 + e\\ :sup:`-0.0031879 d`) of a game
   (:func:`win_probability`), a logistic curve [2, 4, 5]. The NSA's system
   before 2009 used a normal curve of standard deviation 200√2 (about 283:
   0.6 of a game at 72 points, 0.7 at 148) instead [3]; NASPA has used the
   logistic one since [4, 5]. A player's
   expected wins are summed over their rated games.
2. **Rated games.** Only games played at the board count: byes and
   forfeits (:attr:`Game.was_played` false) are neither rated games nor
   wins [2, 5]. A draw is half a win.
3. **The multiplier** (points a win beyond expectation is worth,
   :func:`multiplier`) depends on the rating and on the rated games
   played before [2, 3, 4]:

   ============================  ======  =========  ======
   games played before           < 1800  1800-1999  ≥ 2000
   ============================  ======  =========  ======
   fewer than 50                 30      24         15
   50 or more                    20      16         10
   ============================  ======  =========  ======

   When the change carries a rating across 1800 or 2000, the points on
   each side are earned at that side's multiplier (prorated) [2, 5].
4. **Acceleration.** A player whose rating rises by more than 5 points a
   rated game earns the excess again as a bonus; each of their rated
   opponents gets a twentieth of that bonus for every game they played
   against them (feedback) [2, 5].
5. **New players** (no rating) get the rating they would have needed for
   their rating to stay unchanged: their *performance rating*, found for
   all of them at once by iteration, since new players' opponents may be
   new too [1]. Each starts at the mean of their rated opponents'
   ratings (1500 without any); then, until no rating moves (at most 50
   rounds, else the mean of 50 more), each gets the whole rating from 1 to
   3000 at which their expected wins, against the current ratings of
   their opponents, reach their wins (taken as 5% or 95% of their games
   for a player who lost or won them all), raised to 500 when lower, and
   lowered to at most the strongest rated opponent's rating plus 400
   times their share of wins (:func:`performance_rating`). New players
   earn no acceleration and give none [5].
6. **Rounding.** Ratings are published as whole numbers, rounded half up
   (1490.5 is 1491) [2, 5].
7. **Segments.** A long event is rated in parts, one after the other, the
   ratings after one part being the ratings going into the next [2, 5]:
   NASPA rates up to 16 rounds as one part, 17 to 35 as two, more as three
   (:func:`naspa_segments`), the rounds split as evenly as can be, the
   earlier parts taking the extra round (:func:`segment_rounds`). A new
   player rated in one part plays the next as a rated player, and the
   games of the earlier parts count towards the 50 games of the
   multiplier [5].

**Choices where the rules leave a gap**, tilebag's own:

- The binary search of rule 5 stops when its range is one rating wide;
  the performance rating is the upper end, the lowest whole rating whose
  expected wins reach the wins. tsh's search returns the last rating it
  tried, which can be one less.
- The cap of rule 5 counts rated opponents only, as NASPA's description
  says [1]; tsh also caps a new player who met only new players by the
  strongest of them. The floor of 500 is applied before the cap.
- Crossing 1800 or 2000 (rule 3), a falling rating changes multiplier
  exactly at the boundary; tsh charges the last point down to 1799 or 1999
  at the upper band's multiplier. The two can differ by under a point.
- A rating has no floor (tsh's 2008 preset kept ratings at 1 or more; its
  2024 one does not).
- :func:`rate_event` splits an event into as many segments as it is
  asked (1 by default); ``tilebag ratings`` asks for NASPA's number.
- Every player with a rated game gets a performance rating
  (:attr:`NewRating.performance`): over the whole event, against the
  ratings their opponents carried into each game's segment, no wins and
  all wins taken as 5% and 95% of the games as in rule 5.

**Sources** (read through tilebag's search tool; described, not copied):

1. NASPA wiki, "Initial rating" (John Chew):
   http://www.scrabbleplayers.org/w/Initial_rating
2. Marc Levesque, "Ratings Calculation" (the algorithm of Director!, said
   to match NASPA's published ratings):
   https://wordgameplayers.org/faq/wgpo-players-faq/ratings-calculation/
   and its 2011 version http://www.calgary374.org/CalculateRatingPage.php
3. John Chew, "How the NSA Ratings System Works" (obsolete since
   2009-01-01): http://www.math.utoronto.ca/~jjchew/scrabble/ratings/how.html
4. NASPA wiki, "Rating system overview" (Jim Hughes):
   https://www.scrabbleplayers.org/wiki/index.php?title=Rating_system_overview
5. tsh (John Chew's tournament software), its Perl modules ``Ratings.pm``
   and ``Ratings/Elo.pm`` (the ``naspa2024`` preset).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from tilebag.errors import TilebagError
from tilebag.events.standings import Game, Player, PlayerId, check_results

__all__ = [
    "ACCELERATION_THRESHOLD",
    "BAND_EDGES",
    "EXPERIENCED_GAMES",
    "FEEDBACK_SHARE",
    "LOGISTIC_SCALE",
    "MULTIPLIERS",
    "NEW_MULTIPLIERS",
    "NewRating",
    "RatedPlayer",
    "RatingError",
    "multiplier",
    "naspa_segments",
    "performance_rating",
    "rate_event",
    "segment_rounds",
    "win_probability",
]

LOGISTIC_SCALE = 0.0031879
"""The steepness of the expected-wins curve, per rating point."""

BAND_EDGES = (1800, 2000)
"""The ratings at which the multiplier changes."""

EXPERIENCED_GAMES = 50
"""Rated games played before, from which a player has the lower multipliers."""

NEW_MULTIPLIERS = (30.0, 24.0, 15.0)
"""Points a win beyond expectation is worth, below 1800, to 1999, from 2000,
for a player with fewer than :data:`EXPERIENCED_GAMES` games."""

MULTIPLIERS = (20.0, 16.0, 10.0)
"""The same, from :data:`EXPERIENCED_GAMES` games on."""

ACCELERATION_THRESHOLD = 5
"""Points a rated game a player may gain before the rest is doubled."""

FEEDBACK_SHARE = 1 / 20
"""The part of a player's acceleration bonus each game against them gives an opponent."""

NEWCOMER_START = 1500
"""The first guess of a new player who met no rated player."""

NEWCOMER_FLOOR = 500
"""The lowest rating a new player starts with."""

NEWCOMER_CAP = 400
"""A new player's rating is at most their strongest rated opponent's plus
this times their share of wins."""

PERFORMANCE_RANGE = (0, 3000)
"""The ratings a performance rating is searched among."""

ALL_OR_NOTHING = 0.05
"""A player who won no game counts as having won this share of them; one who
won every game, one minus it (a performance rating needs a finite answer)."""

ITERATIONS = 50
"""Rounds of the new players' iteration before it gives up on settling, and
the rounds it then averages."""

SEGMENT_LIMITS = (16, 35)
"""NASPA rates up to 16 rounds in one segment, up to 35 in two, more in three."""


class RatingError(TilebagError, ValueError):
    """Input an event cannot be rated from: a negative game count, more
    segments than rounds.

    >>> segment_rounds(2, 3)
    Traceback (most recent call last):
    ...
    tilebag.events.naspa.RatingError: cannot split 2 rounds into 3 segments
    """


@dataclass(frozen=True)
class RatedPlayer:
    """A player as the rating system knows them before the event: the
    player (with :attr:`Player.rating`, None for a new player) and the
    rated games they had played before it.

    >>> RatedPlayer(Player(1, "Ann", rating=1612), games=230).rating
    1612
    """

    player: Player
    games: int
    """Rated games played before the event (NASPA's "games played"); it
    chooses the multiplier (fewer than 50, or more)."""

    def __post_init__(self) -> None:
        if not isinstance(self.games, int) or self.games < 0:
            raise RatingError(f"player {self.player.id}: games played is a whole number from 0, got {self.games!r}")

    @property
    def id(self) -> PlayerId:
        return self.player.id

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def rating(self) -> int | None:
        return self.player.rating


@dataclass(frozen=True)
class NewRating:
    """What the event did to one player's rating."""

    player: RatedPlayer
    games: int
    """Rated games in the event (not byes, not forfeits)."""
    wins: float
    """Wins in those games, a draw half."""
    expected: float
    """The wins expected of them, summed over the segments, each game at
    the ratings both players carried into its segment (a new player at the
    rating they were given)."""
    new: int | None
    """The rating after the event, a whole number; None for a new player
    without a rated game."""
    performance: int | None
    """The rating at which the expected wins would have been the wins (see
    the module); None without a rated game. A new player's rating is this,
    floored and capped, when the event is one segment."""
    acceleration: float = 0.0
    """Bonus points earned for gaining more than 5 points a game."""
    feedback: float = 0.0
    """Points given back by opponents' acceleration."""
    segments: tuple[int | None, ...] = ()
    """The rating after each segment (the last is :attr:`new`)."""

    @property
    def old(self) -> int | None:
        """The rating before the event; None for a new player."""
        return self.player.rating

    @property
    def change(self) -> int | None:
        """New minus old; None for a new player."""
        return None if self.new is None or self.old is None else self.new - self.old


def win_probability(rating: float, opponent: float) -> float:
    """The wins a player rated ``rating`` is expected to score in one game
    against one rated ``opponent``: 1 / (1 + e\\ :sup:`-0.0031879 (rating - opponent)`).

    100 points above the opponent: e\\ :sup:`-0.31879` is 0.72699, and
    1 / 1.72699 is 0.57903; 100 below, 1 - 0.57903 = 0.42097:

    >>> round(win_probability(1600, 1500), 5), round(win_probability(1500, 1600), 5)
    (0.57903, 0.42097)
    >>> win_probability(1500, 1500)
    0.5
    """
    difference = float(rating) - float(opponent)
    above = 1.0 / (1.0 + math.exp(-LOGISTIC_SCALE * abs(difference)))
    return above if difference >= 0 else 1.0 - above


def multiplier(rating: float, games_played: int) -> float:
    """The points each win beyond expectation is worth to a player rated
    ``rating`` who had played ``games_played`` rated games before.

    >>> multiplier(1700, 12), multiplier(1800, 12), multiplier(2000, 49)
    (30.0, 24.0, 15.0)
    >>> multiplier(1799, 50), multiplier(1999, 400), multiplier(2150, 400)
    (20.0, 16.0, 10.0)
    """
    table = NEW_MULTIPLIERS if games_played < EXPERIENCED_GAMES else MULTIPLIERS
    return table[sum(1 for edge in BAND_EDGES if edge <= rating)]


def performance_rating(wins: float, opponents: Sequence[float]) -> int:
    """The lowest whole rating from 1 to 3000 whose expected wins against
    ``opponents`` (their ratings, one a game) reach ``wins``; no wins count
    as 5% of the games and all wins as 95% (a share between is taken as it
    is, 2.5% too).

    One win in two games against players rated 1500 is a performance of
    1500; two wins count as 1.9, won at 0.95 a game, which takes
    ln(19) / 0.0031879 = 923.6 points above the opponents:

    >>> performance_rating(1, [1500, 1500]), performance_rating(2, [1500, 1500])
    (1500, 2424)

    :raises RatingError: without a game, or with more wins than games.
    """
    count = len(opponents)
    if count == 0 or not 0 <= wins <= count:
        raise RatingError(f"a performance rating needs games and 0 to {count} wins, got {wins!r}")
    target = ALL_OR_NOTHING * count if wins == 0 else (1 - ALL_OR_NOTHING) * count if wins == count else wins
    low, high = PERFORMANCE_RANGE
    while high - low > 1:
        middle = (low + high) // 2
        if sum(win_probability(middle, other) for other in opponents) < target:
            low = middle
        else:
            high = middle
    return high


def naspa_segments(rounds: int) -> int:
    """The segments NASPA rates an event of ``rounds`` rounds in.

    >>> naspa_segments(16), naspa_segments(17), naspa_segments(35), naspa_segments(36)
    (1, 2, 2, 3)
    """
    return 1 + sum(1 for limit in SEGMENT_LIMITS if rounds > limit)


def segment_rounds(rounds: int, segments: int) -> list[range]:
    """The rounds (from 1) of each of ``segments`` segments of an event of
    ``rounds`` rounds: as even as can be, the earlier segments one round
    longer when they cannot be.

    >>> segment_rounds(18, 2)
    [range(1, 10), range(10, 19)]
    >>> [list(r) for r in segment_rounds(7, 3)]
    [[1, 2, 3], [4, 5], [6, 7]]

    :raises RatingError: for fewer than 1 segment, or more than the rounds
        (an event without rounds has one segment, empty).
    """
    if not isinstance(segments, int) or not 1 <= segments <= max(rounds, 1):
        raise RatingError(f"cannot split {rounds} rounds into {segments} segments")
    size, longer = divmod(rounds, segments)
    parts = []
    first = 1
    for i in range(segments):
        last = first + size + (1 if i < longer else 0)
        parts.append(range(first, last))
        first = last
    return parts


def _whole(rating: float) -> int:
    """A rating as NASPA publishes it: rounded half up."""
    return math.floor(rating + 0.5)


def _after_excess(rating: float, excess: float, games_played: int) -> float:
    """``rating`` moved by ``excess`` wins beyond expectation, each part of
    the move at the multiplier of the band it is in."""
    table = NEW_MULTIPLIERS if games_played < EXPERIENCED_GAMES else MULTIPLIERS
    if excess > 0:
        while True:
            band = sum(1 for edge in BAND_EDGES if edge <= rating)
            target = rating + table[band] * excess
            if band == len(BAND_EDGES) or target < BAND_EDGES[band]:
                return target
            excess -= (BAND_EDGES[band] - rating) / table[band]
            rating = float(BAND_EDGES[band])
    while excess < 0:
        band = sum(1 for edge in BAND_EDGES if edge < rating)
        target = rating + table[band] * excess
        if band == 0 or target >= BAND_EDGES[band - 1]:
            return target
        excess -= (BAND_EDGES[band - 1] - rating) / table[band]
        rating = float(BAND_EDGES[band - 1])
    return rating


def _newcomer_ratings(
    newcomers: Sequence[PlayerId],
    faced: dict[PlayerId, list[tuple[PlayerId, float]]],
    rated: dict[PlayerId, float],
) -> dict[PlayerId, float]:
    """The new players' ratings by rule 5 of the module: each a performance
    rating against the others' current ratings, until they settle."""
    current: dict[PlayerId, float] = {}
    for who in newcomers:
        known = [rated[other] for other, _ in faced[who] if other in rated]
        current[who] = sum(known) / len(known) if known else float(NEWCOMER_START)

    def step(now: dict[PlayerId, float]) -> dict[PlayerId, float]:
        following: dict[PlayerId, float] = {}
        for who in newcomers:
            games = faced[who]
            wins = sum(points for _, points in games)
            ratings = [rated[other] if other in rated else now[other] for other, _ in games]
            value = float(max(performance_rating(wins, ratings), NEWCOMER_FLOOR))
            strongest = max((rated[other] for other, _ in games if other in rated), default=None)
            if strongest is not None:
                value = min(value, strongest + NEWCOMER_CAP * wins / len(games))
            following[who] = value
        return following

    for _ in range(ITERATIONS):
        following = step(current)
        if following == current:
            return current
        current = following
    totals = dict.fromkeys(newcomers, 0.0)
    for _ in range(ITERATIONS):
        current = step(current)
        for who in newcomers:
            totals[who] += current[who]
    return {who: total / ITERATIONS for who, total in totals.items()}


@dataclass
class _Tally:
    """One player's running figures over the segments."""

    rating: int | None
    lifetime: int
    games: int = 0
    wins: float = 0.0
    expected: float = 0.0
    acceleration: float = 0.0
    feedback: float = 0.0
    opponents: list[float] = field(default_factory=list)
    """The rating each opponent carried into the game, one a rated game."""
    after: list[int | None] = field(default_factory=list)
    """The rating after each segment."""


def rate_event(players: Sequence[RatedPlayer], results: Sequence[Game], *, segments: int = 1) -> list[NewRating]:
    """Each player's new rating after ``results``, rated the NASPA way
    (see the module), in the order of ``players``. The event is split into
    ``segments`` parts by round (:func:`segment_rounds`), rated one after
    the other.

    A new player, Cy, loses to Ann and beats Bob, both rated 1500 with 100
    games; their byes are not rated. One win in two against 1500 is a
    performance of 1500 (:func:`performance_rating`), Cy's first rating.
    Ann and Bob were each expected half a game against him: Ann gains 10
    and 5 of acceleration, Bob loses 10 (a new player gives no feedback).
    Ann's one win in one game counts as 0.95, a performance of 1500 + 924;
    Bob's loss as 0.05, 1500 - 923:

    >>> from tilebag.events.standings import Game, Player
    >>> players = [RatedPlayer(Player(1, "Ann", rating=1500), 100), RatedPlayer(Player(2, "Bob", rating=1500), 100),
    ...            RatedPlayer(Player(3, "Cy"), 0)]
    >>> results = [Game(1, 1, 3, 420, 380), Game(2, 2, 3, 350, 410), Game.bye(2, 1), Game.bye(1, 2)]
    >>> for r in rate_event(players, results):
    ...     print(r.player.name, r.old, r.games, r.wins, r.expected, r.new, r.change, r.performance)
    Ann 1500 1 1.0 0.5 1515 15 2424
    Bob 1500 1 0.0 0.5 1490 -10 577
    Cy None 2 1.0 1.0 1500 None 1500

    Had Cy won both, his performance would be 2424, capped at the
    strongest rated opponent's 1500 plus 400 × 2/2: 1900. Ann and Bob
    were then expected p(1500, 1900) = 0.21838 each, lost 20 × 0.21838 =
    4.37 points, and performed at 1900 - 923:

    >>> cy_wins = [Game(1, 1, 3, 380, 420), Game(2, 2, 3, 350, 410)]
    >>> [(r.new, r.performance) for r in rate_event(players, cy_wins)]
    [(1496, 977), (1496, 977), (1900, 2424)]

    :raises ResultError: when the results do not fit the players
        (:func:`tilebag.events.standings.check_results`).
    :raises RatingError: for a number of segments the rounds cannot take.
    """
    check_results([p.player for p in players], results)
    rounds = max((game.round for game in results), default=0)
    parts = segment_rounds(rounds, segments)
    tallies = {p.id: _Tally(p.rating, p.games) for p in players}
    played = [game for game in results if game.was_played]
    for part in parts:
        _rate_segment(tallies, [game for game in played if game.round in part])
    out = []
    for p in players:
        t = tallies[p.id]
        out.append(
            NewRating(
                player=p,
                games=t.games,
                wins=t.wins,
                expected=t.expected,
                new=t.rating,
                performance=performance_rating(t.wins, t.opponents) if t.games else None,
                acceleration=t.acceleration,
                feedback=t.feedback,
                segments=tuple(t.after),
            )
        )
    return out


def _rate_segment(tallies: dict[PlayerId, _Tally], games: Sequence[Game]) -> None:
    """Rate one segment's games, moving each tally's rating on."""
    faced: dict[PlayerId, list[tuple[PlayerId, float]]] = defaultdict(list)
    for game in games:
        assert game.b is not None
        faced[game.a].append((game.b, game.points(game.a)))
        faced[game.b].append((game.a, game.points(game.b)))
    rated = {who: float(t.rating) for who, t in tallies.items() if t.rating is not None}
    newcomers = [who for who in tallies if who not in rated and faced[who]]
    effective = {**rated, **_newcomer_ratings(newcomers, faced, rated)}
    moved: dict[PlayerId, float] = {}
    feedback: dict[PlayerId, float] = defaultdict(float)
    for who, t in tallies.items():
        mine = faced.get(who, [])
        if not mine:
            continue
        wins = sum(points for _, points in mine)
        expected = sum(win_probability(effective[who], effective[other]) for other, _ in mine)
        t.games += len(mine)
        t.wins += wins
        t.expected += expected
        t.opponents.extend(effective[other] for other, _ in mine)
        if who not in rated:
            moved[who] = effective[who]
            continue
        new = _after_excess(rated[who], wins - expected, t.lifetime)
        bonus = new - rated[who] - ACCELERATION_THRESHOLD * len(mine)
        if bonus > 0:
            new += bonus
            t.acceleration += bonus
            for other, _ in mine:
                if other in rated:
                    feedback[other] += bonus * FEEDBACK_SHARE
        moved[who] = new
    for who, t in tallies.items():
        if who in moved:
            t.feedback += feedback[who]
            t.rating = _whole(moved[who] + feedback[who])
            t.lifetime += len(faced[who])
        t.after.append(t.rating)
