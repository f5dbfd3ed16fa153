"""Pairings for a round: who plays whom, who goes first, who has the bye.

:func:`pair_round` is a pure function of the players, the results so far,
the round, the method and a seed: the same input always gives the same
pairings, so a server and a director's laptop agree.

>>> from tilebag.events.standings import Game, Player
>>> players = [Player(i, name, rating=r) for i, name, r in
...            [(1, "Ann", 1900), (2, "Bob", 1800), (3, "Cy", 1700), (4, "Di", 1600), (5, "Ed", 1500)]]
>>> first = pair_round("swiss", players, [], 1, seed=7, total_rounds=5)
>>> [(p.a, p.b) for p in first]
[(3, 1), (4, 2), (5, None)]

Round 1 is top half against bottom half by rating, Ed (the lowest) with
the bye. In round 2 Di, now the lowest without a bye, has it. The win group
of Bob, Ed and Ann (1-0) must send one player down to Cy (0-1); Ann has
played Cy, and Bob and Ann both went second in round 1, so pairing them
would send one of them second again: Bob plays Cy and Ann plays Ed, each of
Bob and Ann going first:

>>> results = [Game(1, 3, 1, 380, 420, first=3), Game(1, 4, 2, 350, 400, first=4), Game.bye(1, 5)]
>>> second = pair_round("swiss", players, results, 2, seed=7, total_rounds=5)
>>> [(p.a, p.b) for p in second]
[(2, 3), (1, 5), (4, None)]

Each pairing lists first the player who goes first (``a``, also
:attr:`Pairing.first`); a bye is a pairing without ``b``.

**The methods** (:class:`Method`):

- **round robin**: the circle (Berger) schedule over every player of the
  event in id order; round *r* is the *r*-th round of the schedule. An even
  field of *n* meets everyone once in *n* - 1 rounds; an odd field plays *n*
  rounds, each player sitting out one with the bye. More rounds repeat the
  schedule, every second cycle backwards with the starts swapped. Starts
  come with the schedule, and keep every player's firsts and seconds within
  one of each other after every round (also across cycles). A player whose
  scheduled opponent is not playing that round (withdrawn, not yet joined,
  or already given a result) has a bye.
- **swiss**: players ranked by the standings (wins, then spread, ...:
  :mod:`tilebag.events.standings`) are split into win groups; each group
  plays top half against bottom half (1 v 5, 2 v 6, ... in a group of 8),
  groups paired from the top, an odd player out floating to the next
  group. The pairing is the best under these costs, each counting before the
  next: (1) repeats (a pair that met *k* times costs *k*\\ :sup:`2`, more if
  they met last round), (2) pairing across win groups (the squared
  difference in wins), (3) pairing two players both due to go first or both
  due to go second, (4) distance from top half against bottom half. **The
  guarantee:** given the bye, no two players meet again while a pairing
  without a repeat exists, and otherwise the repeats are as few as can be;
  the pairing is exact (a minimum-cost perfect matching by Edmonds'
  blossom algorithm, :func:`best_pairing`), not a greedy guess.
- **king of the hill**: 1 v 2, 3 v 4, ... by the standings, repeats and all.
- **australian draw**: king of the hill with rematches allowed but as few
  as can be: the fewest repeats (counted as for swiss), then top-down, each
  player in turn from the top gets the highest-ranked opponent left, so
  that each plays the highest-ranked player they have played fewest times
  as far as the others allow.
- **random**: a shuffle seeded by ``seed`` and the round.
- **fixed**: the pairs a director gives (``fixed=``), checked: every
  player to pair exactly once, at most one bye.

**Who is paired:** the players active in the round (:meth:`Player.is_active`:
joined, not withdrawn) who have no result in it yet. A director who gives a
late entry byes or forfeit losses for the rounds missed, or a player a
forfeit for this round, does it with results (:class:`Game`); nothing is
given by magic.

**The bye** (an odd field, all methods but round robin and fixed) goes to
the lowest-ranked player among those who have had the fewest byes.

**Starts:** for each pair, the player who has gone first less often than
second (firsts minus seconds, then fewer firsts) goes first; then the
one who went second in their last game; then a coin tossed from the seed.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from tilebag.errors import TilebagError, quote
from tilebag.events.standings import Game, Player, PlayerId, Standing, standings

__all__ = [
    "Method",
    "Pairing",
    "PairingError",
    "Pairings",
    "best_pairing",
    "find_method",
    "pair_round",
    "round_robin_round",
]


class PairingError(TilebagError, ValueError):
    """A round that cannot be paired as asked: an unknown method, a round
    out of range, fixed pairings that leave a player out or name one twice.

    >>> find_method("dutch")
    Traceback (most recent call last):
    ...
    tilebag.events.pairing.PairingError: unknown pairing method 'dutch': the methods are round robin, swiss, \
king of the hill, australian draw, random, fixed
    """


class Method(enum.Enum):
    """How a round is paired (see the module's description of each)."""

    ROUND_ROBIN = "round robin"
    SWISS = "swiss"
    KING_OF_THE_HILL = "king of the hill"
    AUSTRALIAN_DRAW = "australian draw"
    RANDOM = "random"
    FIXED = "fixed"


ALIASES: dict[str, Method] = {
    "rr": Method.ROUND_ROBIN,
    "roundrobin": Method.ROUND_ROBIN,
    "koth": Method.KING_OF_THE_HILL,
    "ad": Method.AUSTRALIAN_DRAW,
    "manual": Method.FIXED,
}
"""Other names the methods go by (tsh's command names among them)."""


def find_method(name: Method | str) -> Method:
    """The method called ``name`` (its value, its member name or an alias,
    in any case, ``_`` or ``-`` for spaces).

    >>> find_method("KOTH"), find_method("round-robin"), find_method("Australian_Draw")
    (<Method.KING_OF_THE_HILL: 'king of the hill'>, <Method.ROUND_ROBIN: 'round robin'>, \
<Method.AUSTRALIAN_DRAW: 'australian draw'>)

    :raises PairingError: for a name no method has.
    """
    if isinstance(name, Method):
        return name
    key = " ".join(str(name).lower().replace("_", " ").replace("-", " ").split())
    for method in Method:
        if key == method.value:
            return method
    found = ALIASES.get(key.replace(" ", ""))
    if found is None:
        known = ", ".join(m.value for m in Method)
        raise PairingError(f"unknown pairing method {quote(str(name))}: the methods are {known}")
    return found


@dataclass(frozen=True, eq=False)
class Pairing:
    """One board of a round: ``a`` against ``b``, or a bye for ``a``. The
    same board whichever player is ``a``:

    >>> Pairing(3, 4, 9, first=4)
    Pairing(round=3, a=4, b=9, first=4)
    >>> Pairing(3, 4, 9, first=4) == Pairing(3, 9, 4, first=4)
    True
    >>> Pairing(3, 5).is_bye
    True
    """

    round: int
    a: PlayerId
    b: PlayerId | None = None
    """None: ``a`` has the bye."""
    first: PlayerId | None = None
    """Who goes first: ``a`` or ``b``; None when not decided (and for a bye)."""

    def __post_init__(self) -> None:
        if not isinstance(self.round, int) or self.round < 1:
            raise PairingError(f"a round is a number from 1, got {self.round!r}")
        if self.a == self.b:
            raise PairingError(f"round {self.round}: player {self.a} is paired with themselves")
        if self.first is not None and (self.b is None or self.first not in (self.a, self.b)):
            raise PairingError(f"round {self.round}: player {self.first} goes first but is not in {self!r}")

    def _key(self) -> tuple[object, ...]:
        low, high = (self.b, self.a) if self.b is not None and self.b < self.a else (self.a, self.b)
        return (self.round, low, high, self.first)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pairing):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)


@dataclass(frozen=True)
class Pairings:
    """The pairings of one round, board 1 (the top of the standings) first
    and byes last.

    >>> pairings = Pairings(2, Method.FIXED, (Pairing(2, 1, 3, first=1), Pairing(2, 2)))
    >>> pairings.opponent(3), pairings.opponent(2), pairings.byes
    (1, None, (2,))
    """

    round: int
    method: Method
    games: tuple[Pairing, ...]

    def __post_init__(self) -> None:
        seen: set[PlayerId] = set()
        for game in self.games:
            if game.round != self.round:
                raise PairingError(f"round {self.round}: {game!r} is of another round")
            for who in game.players:
                if who in seen:
                    raise PairingError(f"round {self.round}: player {who} is paired twice")
                seen.add(who)

    def __iter__(self) -> Iterator[Pairing]:
        return iter(self.games)

    def __len__(self) -> int:
        return len(self.games)

    @property
    def players(self) -> frozenset[PlayerId]:
        """Every player paired (byes included)."""
        return frozenset(who for game in self.games for who in game.players)

    @property
    def byes(self) -> tuple[PlayerId, ...]:
        """The players with a bye (one at most, but in a round robin with
        players missing)."""
        return tuple(game.a for game in self.games if game.b is None)

    def opponent(self, player: PlayerId) -> PlayerId | None:
        """``player``'s opponent, None for a bye.

        :raises PairingError: when ``player`` is not paired this round.
        """
        for game in self.games:
            if player in game.players:
                return game.b if game.a == player else game.a
        raise PairingError(f"round {self.round}: player {player} is not paired")


def round_robin_round(count: int, round_number: int) -> list[tuple[int, int | None]]:
    """Round ``round_number`` of the circle schedule for ``count`` players
    numbered 0 to ``count - 1``: ``(first, second)`` pairs, ``(player, None)``
    the bye of an odd field.

    >>> round_robin_round(4, 1), round_robin_round(4, 2), round_robin_round(4, 3)
    ([(0, 3), (1, 2)], [(3, 1), (2, 0)], [(2, 3), (0, 1)])
    >>> round_robin_round(3, 1)
    [(0, None), (1, 2)]
    >>> round_robin_round(4, 4)  # the second cycle: backwards, starts swapped
    [(3, 2), (1, 0)]
    """
    if count < 1 or round_number < 1:
        raise PairingError(f"a round robin needs players and a round from 1, got {count} and {round_number}")
    if count == 1:
        return [(0, None)]
    size = count + count % 2
    fixed = size - 1
    per_cycle = size - 1
    cycle, j = divmod(round_number - 1, per_cycle)
    backwards = cycle % 2 == 1
    if backwards:
        j = per_cycle - 1 - j
    pairs = [(j, fixed) if j % 2 == 0 else (fixed, j)]
    for i in range(1, size // 2):
        up, down = (j + i) % per_cycle, (j - i) % per_cycle
        pairs.append((up, down) if i % 2 == 1 else (down, up))
    if backwards:
        pairs = [(b, a) for a, b in pairs]
    dummy = fixed if count % 2 else None
    out: list[tuple[int, int | None]] = []
    for a, b in pairs:
        if a == dummy:
            out.append((b, None))
        elif b == dummy:
            out.append((a, None))
        else:
            out.append((a, b))
    return out


def best_pairing(
    players: Sequence[PlayerId], cost: Callable[[PlayerId, PlayerId], int]
) -> list[tuple[PlayerId, PlayerId]]:
    """The pairing of ``players`` (an even number of them) of the least
    total ``cost``, where ``cost(u, v)`` is a whole number of at least 0 for
    each pair (asked with ``u`` before ``v`` in ``players``). Exact: a
    minimum-cost perfect matching on the complete graph by Edmonds' blossom
    algorithm, in time cubic in the number of players.

    >>> distance = {frozenset({1, 2}): 5, frozenset({3, 4}): 5, frozenset({1, 3}): 1,
    ...             frozenset({2, 4}): 1, frozenset({1, 4}): 3, frozenset({2, 3}): 3}
    >>> best_pairing([1, 2, 3, 4], lambda u, v: distance[frozenset({u, v})])
    [(1, 3), (2, 4)]
    """
    n = len(players)
    if n % 2:
        raise PairingError(f"a pairing needs an even number of players, got {n}")
    if n == 0:
        return []
    costs = {}
    for i in range(n):
        for j in range(i + 1, n):
            c = cost(players[i], players[j])
            if not isinstance(c, int) or c < 0:
                raise PairingError(f"a pairing cost is a whole number of at least 0, got {c!r}")
            costs[(i, j)] = c
    top = max(costs.values()) + 1
    edges = [(i, j, top - c) for (i, j), c in costs.items()]
    mate = _max_weight_matching(n, edges)
    pairs = []
    for i in range(n):
        j = mate[i]
        if j < 0:
            raise AssertionError("the complete graph of an even field has a perfect matching")
        if i < j:
            pairs.append((players[i], players[j]))
    return pairs


def _max_weight_matching(n: int, edges: list[tuple[int, int, int]]) -> list[int]:
    """A maximum-weight matching among the matchings of maximum cardinality
    of the graph with vertices ``0..n-1`` and weighted ``edges`` ``(i, j, w)``
    (whole numbers): ``mate[v]`` is ``v``'s partner or -1.

    Edmonds' blossom algorithm with dual variables, as Galil describes it
    ("Efficient algorithms for finding maximum matching in graphs", 1986):
    stages that each grow alternating trees from the free vertices over
    tight edges (zero slack), shrink odd cycles into blossoms, and either
    augment the matching or change the duals to make more edges tight.
    Dual variables are kept doubled, so whole-number weights keep every
    figure whole. Endpoint ``p`` of edge ``k = p // 2`` is vertex
    ``edges[k][p % 2]``; the top-level blossoms are numbered ``n..2n-1``.
    """
    nedge = len(edges)
    endpoint = [edges[p // 2][p % 2] for p in range(2 * nedge)]
    neighbend: list[list[int]] = [[] for _ in range(n)]
    for k, (i, j, _w) in enumerate(edges):
        neighbend[i].append(2 * k + 1)
        neighbend[j].append(2 * k)
    maxweight = max([0, *(w for _i, _j, w in edges)])
    mate = [-1] * n
    """The remote endpoint of the matched edge of each vertex, -1 when free."""
    label = [0] * (2 * n)
    """0 free, 1 S (outer), 2 T (inner); 5 marks a blossom while scanning."""
    labelend = [-1] * (2 * n)
    """The endpoint through which a vertex or blossom got its label."""
    inblossom = list(range(n))
    blossomparent = [-1] * (2 * n)
    blossomchilds: list[list[int] | None] = [None] * (2 * n)
    blossombase = list(range(n)) + [-1] * n
    blossomendps: list[list[int] | None] = [None] * (2 * n)
    bestedge = [-1] * (2 * n)
    """The least-slack edge to an S-blossom (for a free vertex, a blossom)."""
    blossombestedges: list[list[int] | None] = [None] * (2 * n)
    unusedblossoms = list(range(n, 2 * n))
    dualvar = [maxweight] * n + [0] * n
    allowedge = [False] * nedge
    queue: list[int] = []

    def slack(k: int) -> int:
        i, j, w = edges[k]
        return dualvar[i] + dualvar[j] - 2 * w

    def children(b: int) -> list[int]:
        found = blossomchilds[b]
        assert found is not None
        return found

    def endps(b: int) -> list[int]:
        found = blossomendps[b]
        assert found is not None
        return found

    def leaves(b: int) -> Iterator[int]:
        if b < n:
            yield b
        else:
            for t in children(b):
                yield from leaves(t)

    def assign_label(w: int, t: int, p: int) -> None:
        b = inblossom[w]
        label[w] = label[b] = t
        labelend[w] = labelend[b] = p
        bestedge[w] = bestedge[b] = -1
        if t == 1:
            queue.extend(leaves(b))
        else:
            base = blossombase[b]
            assign_label(endpoint[mate[base]], 1, mate[base] ^ 1)

    def scan_blossom(v: int, w: int) -> int:
        """The base of the blossom closed by the edge between S-vertices
        ``v`` and ``w``, or -1 when their trees differ (an augmenting path)."""
        path = []
        base = -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = blossombase[b]
                break
            path.append(b)
            label[b] = 5
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint[labelend[b]]
                b = inblossom[v]
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base: int, k: int) -> None:
        v, w, _wt = edges[k]
        bb, bv, bw = inblossom[base], inblossom[v], inblossom[w]
        b = unusedblossoms.pop()
        blossombase[b] = base
        blossomparent[b] = -1
        blossomparent[bb] = b
        path: list[int] = []
        ends: list[int] = []
        blossomchilds[b] = path
        blossomendps[b] = ends
        while bv != bb:
            blossomparent[bv] = b
            path.append(bv)
            ends.append(labelend[bv])
            v = endpoint[labelend[bv]]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        ends.reverse()
        ends.append(2 * k)
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            ends.append(labelend[bw] ^ 1)
            w = endpoint[labelend[bw]]
            bw = inblossom[w]
        label[b] = 1
        labelend[b] = labelend[bb]
        dualvar[b] = 0
        for leaf in leaves(b):
            if label[inblossom[leaf]] == 2:
                queue.append(leaf)
            inblossom[leaf] = b
        bestedgeto = [-1] * (2 * n)
        for sub in path:
            own = blossombestedges[sub]
            lists = [[p // 2 for p in neighbend[leaf]] for leaf in leaves(sub)] if own is None else [own]
            for edge_list in lists:
                for e in edge_list:
                    i, j, _w = edges[e]
                    if inblossom[j] == b:
                        i, j = j, i
                    bj = inblossom[j]
                    if bj != b and label[bj] == 1 and (bestedgeto[bj] == -1 or slack(e) < slack(bestedgeto[bj])):
                        bestedgeto[bj] = e
            blossombestedges[sub] = None
            bestedge[sub] = -1
        best = [e for e in bestedgeto if e != -1]
        blossombestedges[b] = best
        bestedge[b] = -1
        for e in best:
            if bestedge[b] == -1 or slack(e) < slack(bestedge[b]):
                bestedge[b] = e

    def expand_blossom(b: int, endstage: bool) -> None:
        for s in children(b):
            blossomparent[s] = -1
            if s < n:
                inblossom[s] = s
            elif endstage and dualvar[s] == 0:
                expand_blossom(s, endstage)
            else:
                for leaf in leaves(s):
                    inblossom[leaf] = s
        if not endstage and label[b] == 2:
            kids = children(b)
            ends = endps(b)
            entrychild = inblossom[endpoint[labelend[b] ^ 1]]
            j = kids.index(entrychild)
            if j & 1:
                j -= len(kids)
                jstep, endptrick = 1, 0
            else:
                jstep, endptrick = -1, 1
            p = labelend[b]
            while j != 0:
                label[endpoint[p ^ 1]] = 0
                label[endpoint[ends[j - endptrick] ^ endptrick ^ 1]] = 0
                assign_label(endpoint[p ^ 1], 2, p)
                allowedge[ends[j - endptrick] // 2] = True
                j += jstep
                p = ends[j - endptrick] ^ endptrick
                allowedge[p // 2] = True
                j += jstep
            bv = kids[j]
            label[endpoint[p ^ 1]] = label[bv] = 2
            labelend[endpoint[p ^ 1]] = labelend[bv] = p
            bestedge[bv] = -1
            j += jstep
            while kids[j] != entrychild:
                bv = kids[j]
                if label[bv] == 1:
                    j += jstep
                    continue
                labelled = -1
                for leaf in leaves(bv):
                    if label[leaf] != 0:
                        labelled = leaf
                        break
                if labelled != -1:
                    label[labelled] = 0
                    label[endpoint[mate[blossombase[bv]]]] = 0
                    assign_label(labelled, 2, labelend[labelled])
                j += jstep
        label[b] = labelend[b] = -1
        blossomchilds[b] = blossomendps[b] = None
        blossombase[b] = -1
        blossombestedges[b] = None
        bestedge[b] = -1
        unusedblossoms.append(b)

    def augment_blossom(b: int, v: int) -> None:
        t = v
        while blossomparent[t] != b:
            t = blossomparent[t]
        if t >= n:
            augment_blossom(t, v)
        kids = children(b)
        ends = endps(b)
        i = j = kids.index(t)
        if i & 1:
            j -= len(kids)
            jstep, endptrick = 1, 0
        else:
            jstep, endptrick = -1, 1
        while j != 0:
            j += jstep
            t = kids[j]
            p = ends[j - endptrick] ^ endptrick
            if t >= n:
                augment_blossom(t, endpoint[p])
            j += jstep
            t = kids[j]
            if t >= n:
                augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        blossomchilds[b] = kids[i:] + kids[:i]
        blossomendps[b] = ends[i:] + ends[:i]
        blossombase[b] = blossombase[children(b)[0]]

    def augment_matching(k: int) -> None:
        v, w, _wt = edges[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= n:
                    augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= n:
                    augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    for _stage in range(n):
        label[:] = [0] * (2 * n)
        bestedge[:] = [-1] * (2 * n)
        blossombestedges[n:] = [None] * n
        allowedge[:] = [False] * nedge
        queue[:] = []
        for v in range(n):
            if mate[v] == -1 and label[inblossom[v]] == 0:
                assign_label(v, 1, -1)
        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                for p in neighbend[v]:
                    k = p // 2
                    w = endpoint[p]
                    if inblossom[v] == inblossom[w]:
                        continue
                    kslack = 0
                    if not allowedge[k]:
                        kslack = slack(k)
                        if kslack <= 0:
                            allowedge[k] = True
                    if allowedge[k]:
                        if label[inblossom[w]] == 0:
                            assign_label(w, 2, p ^ 1)
                        elif label[inblossom[w]] == 1:
                            base = scan_blossom(v, w)
                            if base >= 0:
                                add_blossom(base, k)
                            else:
                                augment_matching(k)
                                augmented = True
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            labelend[w] = p ^ 1
                    elif label[inblossom[w]] == 1:
                        b = inblossom[v]
                        if bestedge[b] == -1 or kslack < slack(bestedge[b]):
                            bestedge[b] = k
                    elif label[w] == 0:
                        if bestedge[w] == -1 or kslack < slack(bestedge[w]):
                            bestedge[w] = k
            if augmented:
                break
            # No tight edge leads on: change the duals by the largest delta
            # that keeps them feasible (always a maximum-cardinality search).
            deltatype = -1
            delta = 0
            deltaedge = deltablossom = -1
            for v in range(n):
                if label[inblossom[v]] == 0 and bestedge[v] != -1:
                    d = slack(bestedge[v])
                    if deltatype == -1 or d < delta:
                        delta, deltatype, deltaedge = d, 2, bestedge[v]
            for b in range(2 * n):
                if blossomparent[b] == -1 and label[b] == 1 and bestedge[b] != -1:
                    kslack = slack(bestedge[b])
                    assert kslack % 2 == 0
                    d = kslack // 2
                    if deltatype == -1 or d < delta:
                        delta, deltatype, deltaedge = d, 3, bestedge[b]
            for b in range(n, 2 * n):
                if (
                    blossombase[b] >= 0
                    and blossomparent[b] == -1
                    and label[b] == 2
                    and (deltatype == -1 or dualvar[b] < delta)
                ):
                    delta, deltatype, deltablossom = dualvar[b], 4, b
            if deltatype == -1:
                deltatype = 1
                delta = max(0, min(dualvar[:n]))
            for v in range(n):
                if label[inblossom[v]] == 1:
                    dualvar[v] -= delta
                elif label[inblossom[v]] == 2:
                    dualvar[v] += delta
            for b in range(n, 2 * n):
                if blossombase[b] >= 0 and blossomparent[b] == -1:
                    if label[b] == 1:
                        dualvar[b] += delta
                    elif label[b] == 2:
                        dualvar[b] -= delta
            if deltatype == 1:
                break
            if deltatype == 2:
                allowedge[deltaedge] = True
                i, j, _w = edges[deltaedge]
                if label[inblossom[i]] == 0:
                    i, j = j, i
                queue.append(i)
            elif deltatype == 3:
                allowedge[deltaedge] = True
                i, _j, _w = edges[deltaedge]
                queue.append(i)
            else:
                expand_blossom(deltablossom, False)
        if not augmented:
            break
        for b in range(n, 2 * n):
            if blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                expand_blossom(b, True)
    return [endpoint[m] if m >= 0 else -1 for m in mate]


@dataclass(frozen=True)
class _Record:
    """What pairing needs to know of a player after the rounds before."""

    position: int
    """0 for the top of the standings."""
    wins2: int
    balance: int
    """Firsts minus seconds."""
    firsts: int
    last_start: int
    """0 went second in the last game with a known start, 2 went first, 1 neither."""
    byes: int
    met: Counter[PlayerId]
    """Games played against each opponent (byes and forfeits are not games)."""
    last_opponents: frozenset[PlayerId]
    """Whom the player played in the round before this one."""


def _records(table: list[Standing], round_number: int) -> dict[PlayerId, _Record]:
    out = {}
    for position, standing in enumerate(table):
        met: Counter[PlayerId] = Counter()
        last: set[PlayerId] = set()
        last_start = 1
        for line in standing.scorecard:
            if line.opponent is not None and not line.forfeit:
                met[line.opponent] += 1
                if line.round == round_number - 1:
                    last.add(line.opponent)
            if line.first is not None:
                last_start = 2 if line.first else 0
        out[standing.player.id] = _Record(
            position=position,
            wins2=round(standing.wins * 2),
            balance=standing.firsts - standing.seconds,
            firsts=standing.firsts,
            last_start=last_start,
            byes=standing.byes,
            met=met,
            last_opponents=frozenset(last),
        )
    return out


def pair_round(
    method: Method | str,
    players: Sequence[Player],
    results: Iterable[Game],
    round_number: int,
    *,
    seed: int,
    total_rounds: int,
    fixed: Sequence[tuple[PlayerId, PlayerId | None]] | None = None,
) -> Pairings:
    """The pairings of ``round_number`` by ``method`` (a :class:`Method` or
    its name), for the event's ``players`` after ``results`` (those of
    earlier rounds rank the players; those of this round take their players
    out of the pairing). ``seed`` decides what is left to chance (random
    pairings, a coin for the start); ``total_rounds`` is the length of the
    event. ``fixed`` gives the pairs of a fixed round, ``(a, b)`` or
    ``(a, None)`` for the bye, the starts then decided as for any round.

    >>> from tilebag.events.standings import Player
    >>> four = [Player(i, n) for i, n in enumerate(["Ann", "Bob", "Cy", "Di"], start=1)]
    >>> [(p.a, p.b) for p in pair_round("rr", four, [], 1, seed=0, total_rounds=3)]
    [(1, 4), (2, 3)]
    >>> pair_round("fixed", four, [], 1, seed=0, total_rounds=3, fixed=[(1, 2), (3, 3)])
    Traceback (most recent call last):
    ...
    tilebag.events.pairing.PairingError: round 1, fixed pairings: player 3 is paired with themselves

    :raises PairingError: for an unknown method, a round outside
        ``1..total_rounds``, two players with one id, or fixed pairings that
        are not a pairing of the players to pair.
    :raises ResultError: when the results do not fit the players.
    """
    chosen = find_method(method)
    if not isinstance(total_rounds, int) or total_rounds < 1:
        raise PairingError(f"an event has at least 1 round, got total_rounds={total_rounds!r}")
    if not isinstance(round_number, int) or not 1 <= round_number <= total_rounds:
        raise PairingError(f"round {round_number!r} is not a round of this event (1 to {total_rounds})")
    if (fixed is not None) != (chosen is Method.FIXED):
        raise PairingError("fixed pairings are given (fixed=...) with the method fixed, and only with it")
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        twice = sorted(i for i, c in Counter(ids).items() if c > 1)
        raise PairingError(f"two players have the id {twice[0]}")
    everything = list(results)
    table = standings(players, everything, through_round=round_number - 1)
    settled = {who for g in everything if g.round == round_number for who in g.players}
    by_id = {p.id: p for p in players}
    to_pair = [s.player.id for s in table if s.player.is_active(round_number) and s.player.id not in settled]
    records = _records(table, round_number)
    rng = random.Random(f"tilebag pairing {seed} {round_number}")

    if chosen is Method.ROUND_ROBIN:
        games = _round_robin(sorted(by_id), set(to_pair), round_number)
    else:
        if chosen is Method.FIXED:
            assert fixed is not None
            pairs, bye = _check_fixed(fixed, to_pair, by_id, round_number)
        else:
            bye = None
            if len(to_pair) % 2:
                bye = max(to_pair, key=lambda who: (-records[who].byes, records[who].position))
            field = [who for who in to_pair if who != bye]
            pairs = _pair(chosen, field, records, rng)
        games = [_with_start(round_number, u, v, records, rng) for u, v in pairs]
        if bye is not None:
            games.append(Pairing(round_number, bye))

    def board(game: Pairing) -> tuple[int, int]:
        return (game.b is None, min(records[who].position for who in game.players))

    return Pairings(round_number, chosen, tuple(sorted(games, key=board)))


def _round_robin(roster: list[PlayerId], playing: set[PlayerId], round_number: int) -> list[Pairing]:
    if not roster:
        return []
    games = []
    for first, second in round_robin_round(len(roster), round_number):
        a = roster[first]
        b = None if second is None else roster[second]
        present = [who for who in (a, b) if who is not None and who in playing]
        if len(present) == 2:
            games.append(Pairing(round_number, a, b, first=a))
        elif present:
            games.append(Pairing(round_number, present[0]))
    return games


def _check_fixed(
    fixed: Sequence[tuple[PlayerId, PlayerId | None]],
    to_pair: list[PlayerId],
    by_id: dict[PlayerId, Player],
    round_number: int,
) -> tuple[list[tuple[PlayerId, PlayerId]], PlayerId | None]:
    where = f"round {round_number}, fixed pairings"
    waiting = set(to_pair)
    seen: set[PlayerId] = set()
    pairs: list[tuple[PlayerId, PlayerId]] = []
    byes: list[PlayerId] = []
    for item in fixed:
        if not isinstance(item, tuple) or len(item) != 2:
            raise PairingError(f"{where}: a pair is (player, opponent) or (player, None), got {item!r}")
        a, b = item
        if a == b:
            raise PairingError(f"{where}: player {a} is paired with themselves")
        for who in (a, b):
            if who is None:
                continue
            if who not in by_id:
                raise PairingError(f"{where}: there is no player {who!r}")
            if who in seen:
                raise PairingError(f"{where}: player {who} is paired twice")
            if who not in waiting:
                raise PairingError(
                    f"{where}: player {who} is not to be paired this round (withdrawn, not joined, or has a result)"
                )
            seen.add(who)
        if b is None:
            byes.append(a)
        else:
            pairs.append((a, b))
    if len(byes) > 1:
        raise PairingError(f"{where}: one bye at most, got byes for {', '.join(map(str, byes))}")
    missing = [who for who in to_pair if who not in seen]
    if missing:
        raise PairingError(f"{where}: {', '.join(f'player {who}' for who in missing)} not paired")
    return pairs, byes[0] if byes else None


def _repeat_cost(u: _Record, v_id: PlayerId, v_last: bool) -> int:
    met = u.met[v_id]
    return 2 * met * met + (1 if v_last else 0)


def _pair(
    method: Method, field: list[PlayerId], records: dict[PlayerId, _Record], rng: random.Random
) -> list[tuple[PlayerId, PlayerId]]:
    """Pairs of an even ``field`` listed best first."""
    if method is Method.KING_OF_THE_HILL:
        return [(field[i], field[i + 1]) for i in range(0, len(field), 2)]
    if method is Method.RANDOM:
        shuffled = list(field)
        rng.shuffle(shuffled)
        return [(shuffled[i], shuffled[i + 1]) for i in range(0, len(shuffled), 2)]
    n = len(field)
    if n == 0:
        return []
    index = {who: i for i, who in enumerate(field)}

    def repeats(u: PlayerId, v: PlayerId) -> int:
        return _repeat_cost(records[u], v, v in records[u].last_opponents)

    if method is Method.AUSTRALIAN_DRAW:
        # Top-down: the pair (i, j), i above j, costs (j - i - 1) K^(n - i),
        # with K so large that each player's choice, from the top, outweighs
        # every choice below it together.
        radix = n * n + 1
        levels: list[Callable[[PlayerId, PlayerId], int]] = [
            repeats,
            lambda u, v: (index[v] - index[u] - 1) * radix ** (n - index[u]),
        ]
    elif method is Method.SWISS:
        group_size = Counter(records[who].wins2 for who in field)

        def groups(u: PlayerId, v: PlayerId) -> int:
            return (records[u].wins2 - records[v].wins2) ** 2

        def starts(u: PlayerId, v: PlayerId) -> int:
            bu, bv = records[u].balance, records[v].balance
            return min(abs(bu), abs(bv)) if bu * bv > 0 else 0

        def distance(u: PlayerId, v: PlayerId) -> int:
            ideal = max(1, group_size[records[u].wins2] // 2)
            return (index[v] - index[u] - ideal) ** 2

        levels = [repeats, groups, starts, distance]
    else:
        raise AssertionError(method)
    cost = _lexicographic(field, levels)
    return best_pairing(field, cost)


def _lexicographic(
    field: list[PlayerId], levels: list[Callable[[PlayerId, PlayerId], int]]
) -> Callable[[PlayerId, PlayerId], int]:
    """One cost in which each level outweighs every level after it summed
    over a whole pairing (so the best pairing is best level by level)."""
    n = len(field)
    tables = []
    for level in levels:
        tables.append({(u, v): level(u, v) for i, u in enumerate(field) for v in field[i + 1 :]})
    combined = {key: 0 for key in tables[0]} if tables else {}
    for table in tables:
        scale = (n // 2) * max(table.values(), default=0) + 1
        for key in combined:
            combined[key] = combined[key] * scale + table[key]
    return lambda u, v: combined[(u, v)]


def _with_start(
    round_number: int, u: PlayerId, v: PlayerId, records: dict[PlayerId, _Record], rng: random.Random
) -> Pairing:
    ru, rv = records[u], records[v]
    key_u = (ru.balance, ru.firsts, ru.last_start)
    key_v = (rv.balance, rv.firsts, rv.last_start)
    if key_u == key_v:
        u_first = rng.random() < 0.5
    else:
        u_first = key_u < key_v
    first, second = (u, v) if u_first else (v, u)
    return Pairing(round_number, first, second, first=first)
