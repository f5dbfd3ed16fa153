"""Players, results and standings of a club night or a tournament.

An event is its players (:class:`Player`) and its results (:class:`Game`):
nothing else is stored. The standings (:func:`standings`) and each player's
scorecard are a pure function of the two, so a corrected result
(:func:`replace_result`) changes every standing after it with nothing to
recompute by hand.

>>> players = [Player(1, "Ann", rating=1800), Player(2, "Bob", rating=1700), Player(3, "Cy")]
>>> results = [
...     Game(1, 1, 2, 420, 380, first=1),
...     Game.bye(1, 3),
...     Game(2, 3, 1, 400, 400, first=3),
...     Game.bye(2, 2),
... ]
>>> for s in standings(players, results):
...     print(s.rank, s.player.name, s.record, f"{s.spread:+d}")
1 Cy 1.5-0.5 +50
2 Ann 1.5-0.5 +40
3 Bob 1-1 +10

**The order** (what tsh and NASPA directors use, then what breaks a tie
that remains):

1. wins, more first (a draw counts half a win and half a loss);
2. spread, the sum of own score minus the opponent's, higher first;
3. head to head: the wins each player scored against the other players
   tied with them on 1 and 2, more first;
4. total score, the sum of own scores in the games played (not byes or
   forfeits), higher first;
5. then, only to list the players in a stable order: rating (higher
   first, unrated last), name, id.

Players equal on 1 to 4 share a rank (``1, 2, 2, 4``). Before the first
result everyone is equal, and the players are listed by rating.

**Byes and forfeits** are results with the spread of a game:

- a bye is a win by :data:`BYE_SPREAD` (50), recorded as 50-0
  (:meth:`Game.bye`);
- a forfeit loss is a loss by :data:`FORFEIT_SPREAD` (50), recorded as 0-50;
  when the player was paired, the opponent wins by the same 50-0
  (:meth:`Game.forfeit_loss`). Both spreads can be chosen per result.

A forfeit is not a game played: it has no first player, and it is left out
of the starts (firsts and seconds) and of the total score.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from tilebag.errors import TilebagError, quote

__all__ = [
    "BYE_SPREAD",
    "FORFEIT_SPREAD",
    "MAX_NAME_CHARS",
    "MAX_SCORE",
    "Game",
    "Player",
    "PlayerId",
    "ResultError",
    "ScorecardLine",
    "Standing",
    "check_results",
    "replace_result",
    "standings",
]

PlayerId: TypeAlias = int
"""A player's number in the event, 1 and up (tsh numbers players this way)."""

BYE_SPREAD = 50
"""The spread of a bye: a win by 50, recorded as 50-0."""

FORFEIT_SPREAD = 50
"""The spread of a forfeit: a loss by 50 for the player who forfeits (0-50),
a win by 50 for their opponent when they had one."""

MAX_SCORE = 9999
"""The largest score a result may record (and the largest bye or forfeit spread)."""

MAX_NAME_CHARS = 200
"""The longest player name."""


class ResultError(TilebagError, ValueError):
    """A player or a result that cannot be, or results that contradict each
    other (two results for one player in one round, a player who is not in
    the event).

    >>> Game(1, 1, 1, 400, 300)
    Traceback (most recent call last):
    ...
    tilebag.events.standings.ResultError: round 1: player 1 cannot play themselves
    """


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not name.strip():
        raise ResultError(f"a player needs a name, got {name!r}")
    if name != name.strip():
        raise ResultError(f"the name {quote(name)} starts or ends with a space")
    if len(name) > MAX_NAME_CHARS:
        raise ResultError(f"the name {quote(name)} is longer than {MAX_NAME_CHARS} characters")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise ResultError(f"the name {quote(name)} has a control character")


@dataclass(frozen=True)
class Player:
    """A player of the event.

    >>> Player(3, "Chew, John", rating=1850)
    Player(id=3, name='Chew, John', rating=1850, joined=1, withdrawn=None)
    >>> late = Player(4, "Late, Lou", joined=3)
    >>> late.is_active(2), late.is_active(3)
    (False, True)
    >>> Player(5, "Gone, Gus", withdrawn=4).is_active(4)
    False
    """

    id: PlayerId
    """The player's number, 1 and up, unique in the event."""
    name: str
    """As the player wants it shown (tsh writes ``Last, First``)."""
    rating: int | None = None
    """The rating the player came with, or None when unrated."""
    joined: int = 1
    """The first round the player is paired in: a late entry joins later.
    What the missed rounds count (byes, forfeit losses, nothing) is up to the
    director, given as results."""
    withdrawn: int | None = None
    """The first round the player is no longer paired in, or None."""

    def __post_init__(self) -> None:
        if not isinstance(self.id, int) or self.id < 1:
            raise ResultError(f"a player's id is a number from 1, got {self.id!r}")
        _check_name(self.name)
        if self.rating is not None and (not isinstance(self.rating, int) or self.rating < 1):
            raise ResultError(f"player {self.id}: a rating is a number from 1 (None for unrated), got {self.rating!r}")
        if not isinstance(self.joined, int) or self.joined < 1:
            raise ResultError(f"player {self.id}: joined is a round from 1, got {self.joined!r}")
        if self.withdrawn is not None and (not isinstance(self.withdrawn, int) or self.withdrawn < self.joined):
            raise ResultError(
                f"player {self.id}: withdrawn is a round from joined ({self.joined}), got {self.withdrawn!r}"
            )

    def is_active(self, round_number: int) -> bool:
        """Whether the player is paired in ``round_number``: they have
        joined and not withdrawn."""
        return self.joined <= round_number and (self.withdrawn is None or round_number < self.withdrawn)


@dataclass(frozen=True, eq=False)
class Game:
    """One result: a game between ``a`` and ``b`` in a round, or a result
    without an opponent (``b`` is None): a bye, or a forfeit loss.

    Equal games are the same game whichever player is ``a``:

    >>> Game(2, 1, 4, 410, 365, first=4) == Game(2, 4, 1, 365, 410, first=4)
    True
    >>> Game.bye(3, 7)
    Game(round=3, a=7, b=None, score_a=50, score_b=0, first=None, forfeit=False)
    >>> Game.forfeit_loss(3, 7, opponent=2)
    Game(round=3, a=2, b=7, score_a=50, score_b=0, first=None, forfeit=True)
    >>> Game(1, 1, 2, 380, 380).points(1)
    0.5

    :raises ResultError: when the result cannot be: a player against
        themselves, a first player who did not play, a score out of range, a
        bye that is not a win or a forfeit without a winner.
    """

    round: int
    """The round, from 1."""
    a: PlayerId
    """A player: the one with the result when there is no opponent."""
    b: PlayerId | None
    """The other player, or None: a bye or a forfeit loss without an opponent."""
    score_a: int
    """``a``'s score (for a bye, its spread; 0 for a forfeit loss)."""
    score_b: int
    """``b``'s score (0 for a bye; the spread of a forfeit loss without an opponent)."""
    first: PlayerId | None = None
    """Who went first: ``a``, ``b``, or None when not known (always None
    for a bye or a forfeit)."""
    forfeit: bool = False
    """The game was not played: the player with the lower score forfeited."""

    def __post_init__(self) -> None:
        where = f"round {self.round!r}"
        if not isinstance(self.round, int) or self.round < 1:
            raise ResultError(f"{where}: a round is a number from 1")
        for who in (self.a, self.b):
            if who is not None and (not isinstance(who, int) or who < 1):
                raise ResultError(f"{where}: a player's id is a number from 1, got {who!r}")
        if self.a == self.b:
            raise ResultError(f"{where}: player {self.a} cannot play themselves")
        for score in (self.score_a, self.score_b):
            if not isinstance(score, int) or abs(score) > MAX_SCORE:
                raise ResultError(f"{where}: a score is a whole number from {-MAX_SCORE} to {MAX_SCORE}, got {score!r}")
        if self.first is not None and self.first not in (self.a, self.b):
            raise ResultError(f"{where}: player {self.first} went first but did not play")
        if self.first is not None and (self.b is None or self.forfeit):
            raise ResultError(f"{where}: a bye or a forfeit has no first player")
        if self.b is None and not self.forfeit and not (self.score_a > 0 and self.score_b == 0):
            raise ResultError(
                f"{where}: a bye for player {self.a} is a win (50-0, say), got {self.score_a}-{self.score_b}"
            )
        if self.b is None and self.forfeit and not (self.score_a == 0 and self.score_b > 0):
            raise ResultError(
                f"{where}: a forfeit loss for player {self.a} is a loss (0-50, say), got {self.score_a}-{self.score_b}"
            )
        if self.b is not None and self.forfeit and sorted((self.score_a, self.score_b))[0] != 0:
            raise ResultError(f"{where}: a forfeit is won 50-0 (say), got {self.score_a}-{self.score_b}")
        if self.b is not None and self.forfeit and self.score_a == self.score_b:
            raise ResultError(f"{where}: a forfeit has a winner, got {self.score_a}-{self.score_b}")

    @classmethod
    def bye(cls, round_number: int, player: PlayerId, *, spread: int = BYE_SPREAD) -> Game:
        """A bye: a win by ``spread`` (:data:`BYE_SPREAD`), recorded as ``spread``-0."""
        return cls(round_number, player, None, spread, 0)

    @classmethod
    def forfeit_loss(
        cls, round_number: int, player: PlayerId, *, opponent: PlayerId | None = None, spread: int = FORFEIT_SPREAD
    ) -> Game:
        """``player`` forfeits: a loss by ``spread`` (:data:`FORFEIT_SPREAD`),
        and a win by as much for ``opponent`` when there is one (a no-show).
        Without an opponent it is the loss a director gives for a missed round."""
        if opponent is None:
            return cls(round_number, player, None, 0, spread, forfeit=True)
        return cls(round_number, opponent, player, spread, 0, forfeit=True)

    def _key(self) -> tuple[object, ...]:
        if self.b is not None and self.b < self.a:
            return (self.round, self.b, self.a, self.score_b, self.score_a, self.first, self.forfeit)
        return (self.round, self.a, self.b, self.score_a, self.score_b, self.first, self.forfeit)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """The players this result counts for: one or two."""
        return (self.a,) if self.b is None else (self.a, self.b)

    @property
    def is_bye(self) -> bool:
        """A bye: a win without an opponent."""
        return self.b is None and not self.forfeit

    @property
    def was_played(self) -> bool:
        """A game at the board: not a bye, not a forfeit."""
        return self.b is not None and not self.forfeit

    def opponent(self, player: PlayerId) -> PlayerId | None:
        """``player``'s opponent, None for a result without one."""
        self._check_in(player)
        return self.b if player == self.a else self.a

    def score(self, player: PlayerId) -> int:
        """``player``'s score."""
        self._check_in(player)
        return self.score_a if player == self.a else self.score_b

    def opponent_score(self, player: PlayerId) -> int:
        """The score against ``player``."""
        self._check_in(player)
        return self.score_b if player == self.a else self.score_a

    def spread(self, player: PlayerId) -> int:
        """``player``'s score minus the opponent's."""
        return self.score(player) - self.opponent_score(player)

    def points(self, player: PlayerId) -> float:
        """What the result is worth to ``player``: 1 a win, 0.5 a draw, 0 a loss."""
        spread = self.spread(player)
        return 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0

    def _check_in(self, player: PlayerId) -> None:
        if player not in self.players:
            raise ResultError(f"round {self.round}: player {player} has no part in {self!r}")


@dataclass(frozen=True)
class ScorecardLine:
    """One round of a player's scorecard, with the record after it."""

    round: int
    opponent: PlayerId | None
    """None for a bye or a forfeit loss without an opponent."""
    first: bool | None
    """True: went first; False: went second; None: not known, or not played."""
    score: int
    opponent_score: int
    spread: int
    """This result's spread."""
    outcome: str
    """``"W"``, ``"L"`` or ``"T"`` (a draw)."""
    bye: bool
    forfeit: bool
    wins: float
    """Wins after this round."""
    losses: float
    """Losses after this round."""
    cumulative_spread: int
    """Spread after this round."""

    @property
    def record(self) -> str:
        """The record after this round, ``"3-1"`` or ``"2.5-1.5"``."""
        return _record(self.wins, self.losses)


@dataclass(frozen=True)
class Standing:
    """A player's place in the standings and the scorecard behind it."""

    rank: int
    """1 for the first; players equal on every criterion that counts share one."""
    player: Player
    wins: float
    losses: float
    spread: int
    head_to_head: float
    """Wins against the other players level with this one on wins and spread."""
    total_score: int
    """Own scores summed over the games played (not byes, not forfeits)."""
    firsts: int
    """Games this player went first in."""
    seconds: int
    """Games this player went second in."""
    byes: int
    scorecard: tuple[ScorecardLine, ...]

    @property
    def record(self) -> str:
        """Wins and losses, ``"3-1"`` or ``"2.5-1.5"``."""
        return _record(self.wins, self.losses)

    @property
    def games(self) -> int:
        """The results counted: games, byes and forfeits."""
        return len(self.scorecard)


def _record(wins: float, losses: float) -> str:
    def number(x: float) -> str:
        return str(int(x)) if x == int(x) else str(x)

    return f"{number(wins)}-{number(losses)}"


def check_results(players: Iterable[Player], results: Iterable[Game]) -> None:
    """Check that ``results`` can be the results of an event of ``players``:
    every player is in the event, at most one result per player per round,
    and no two players share an id.

    >>> check_results([Player(1, "Ann"), Player(2, "Bob")], [Game(1, 1, 3, 400, 350)])
    Traceback (most recent call last):
    ...
    tilebag.events.standings.ResultError: round 1: player 3 is not in the event
    """
    known: set[PlayerId] = set()
    for player in players:
        if player.id in known:
            raise ResultError(f"two players have the id {player.id}")
        known.add(player.id)
    seen: dict[tuple[int, PlayerId], Game] = {}
    for game in results:
        for who in game.players:
            if who not in known:
                raise ResultError(f"round {game.round}: player {who} is not in the event")
            earlier = seen.get((game.round, who))
            if earlier is not None:
                raise ResultError(f"round {game.round}: player {who} has two results, {earlier!r} and {game!r}")
            seen[(game.round, who)] = game


def replace_result(results: Iterable[Game], corrected: Game) -> tuple[Game, ...]:
    """``results`` with ``corrected`` in place of the results it corrects:
    those of the same round that either of its players has. Everything
    computed from the results (standings, scorecards, later pairings) follows.

    >>> results = [Game(1, 1, 2, 400, 390), Game(1, 3, 4, 350, 420)]
    >>> replace_result(results, Game(1, 2, 1, 395, 400))
    (Game(round=1, a=3, b=4, score_a=350, score_b=420, first=None, forfeit=False), \
Game(round=1, a=2, b=1, score_a=395, score_b=400, first=None, forfeit=False))
    """
    kept = [g for g in results if not (g.round == corrected.round and set(g.players) & set(corrected.players))]
    return (*kept, corrected)


@dataclass
class _Tally:
    wins2: int = 0
    """Wins counted in halves, so a draw is exact."""
    losses2: int = 0
    spread: int = 0
    total_score: int = 0
    firsts: int = 0
    seconds: int = 0
    byes: int = 0


def standings(
    players: Sequence[Player], results: Iterable[Game], *, through_round: int | None = None
) -> list[Standing]:
    """The standings of ``players`` after ``results`` (those of rounds up to
    ``through_round`` when given), best first, in the order the module
    describes. Every player is listed, withdrawn players too.

    >>> players = [Player(1, "Ann"), Player(2, "Bob")]
    >>> results = [Game(1, 1, 2, 400, 350, first=2), Game(2, 2, 1, 450, 300, first=1)]
    >>> [(s.player.name, s.record, s.spread) for s in standings(players, results, through_round=1)]
    [('Ann', '1-0', 50), ('Bob', '0-1', -50)]
    >>> [(s.player.name, s.record, s.spread) for s in standings(players, results)]
    [('Bob', '1-1', 100), ('Ann', '1-1', -100)]
    >>> line = standings(players, results)[0].scorecard[1]
    >>> line.round, line.opponent, line.first, line.score, line.opponent_score, line.record, line.cumulative_spread
    (2, 1, False, 450, 300, '1-1', 100)

    :raises ResultError: when the results do not fit the players (:func:`check_results`).
    """
    counted = [g for g in results if through_round is None or g.round <= through_round]
    check_results(players, counted)
    tallies = {p.id: _Tally() for p in players}
    cards: dict[PlayerId, list[ScorecardLine]] = {p.id: [] for p in players}
    versus: dict[tuple[PlayerId, PlayerId], int] = defaultdict(int)
    """Half-wins scored by the first against the second."""
    for game in sorted(counted, key=lambda g: g.round):
        for who in game.players:
            tally = tallies[who]
            spread = game.spread(who)
            won2 = 2 if spread > 0 else 1 if spread == 0 else 0
            tally.wins2 += won2
            tally.losses2 += 2 - won2
            tally.spread += spread
            opponent = game.opponent(who)
            if game.was_played:
                tally.total_score += game.score(who)
            if game.is_bye:
                tally.byes += 1
            if game.first is not None:
                if game.first == who:
                    tally.firsts += 1
                else:
                    tally.seconds += 1
            if opponent is not None:
                versus[(who, opponent)] += won2
            cards[who].append(
                ScorecardLine(
                    round=game.round,
                    opponent=opponent,
                    first=None if game.first is None else game.first == who,
                    score=game.score(who),
                    opponent_score=game.opponent_score(who),
                    spread=spread,
                    outcome="W" if won2 == 2 else "T" if won2 == 1 else "L",
                    bye=game.is_bye,
                    forfeit=game.forfeit,
                    wins=tally.wins2 / 2,
                    losses=tally.losses2 / 2,
                    cumulative_spread=tally.spread,
                )
            )
    level: dict[tuple[int, int], list[PlayerId]] = defaultdict(list)
    for p in players:
        level[(tallies[p.id].wins2, tallies[p.id].spread)].append(p.id)
    head2: dict[PlayerId, int] = {}
    for group in level.values():
        for who in group:
            head2[who] = sum(versus[(who, other)] for other in group if other != who)

    def sporting(p: Player) -> tuple[int, int, int, int]:
        t = tallies[p.id]
        return (-t.wins2, -t.spread, -head2[p.id], -t.total_score)

    def listing(p: Player) -> tuple[object, ...]:
        return (*sporting(p), p.rating is None, -(p.rating or 0), p.name, p.id)

    ordered = sorted(players, key=listing)
    table: list[Standing] = []
    for index, p in enumerate(ordered):
        rank = table[-1].rank if table and sporting(table[-1].player) == sporting(p) else index + 1
        t = tallies[p.id]
        table.append(
            Standing(
                rank=rank,
                player=p,
                wins=t.wins2 / 2,
                losses=t.losses2 / 2,
                spread=t.spread,
                head_to_head=head2[p.id] / 2,
                total_score=t.total_score,
                firsts=t.firsts,
                seconds=t.seconds,
                byes=t.byes,
                scorecard=tuple(cards[p.id]),
            )
        )
    return table
