"""The bag: the tiles not yet drawn, shuffled by a seeded random generator.

The same seed gives the same game, so games can be replayed and tested.

>>> from tilebag.alphabet import load_alphabet
>>> english = load_alphabet("english")
>>> bag = Bag(english, seed=1)
>>> len(bag)
100
>>> rack = bag.draw(7)
>>> len(bag), len(rack)
(93, 7)
>>> Bag(english, seed=1).draw(7) == rack
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from tilebag.alphabet import BLANK, Alphabet, Tile, missing_tiles, rack_tile


class Bag:
    """Tiles left to draw. Drawing takes tiles at random; tiles put back are
    mixed in again. Its order is the engine's secret: nothing prints it."""

    def __init__(self, alphabet: Alphabet, seed: int | None = None, tiles: Iterable[Tile] | None = None) -> None:
        self.alphabet = alphabet
        self.seed = seed
        self._rng = random.Random(seed)
        self._rng_shared = False
        """True when a copy may hold the same random generator (:meth:`copy`):
        the first to mix its tiles takes its own."""
        self._tiles: list[Tile] = list(alphabet.distribution() if tiles is None else tiles)
        self._rng.shuffle(self._tiles)

    def __len__(self) -> int:
        return len(self._tiles)

    def __repr__(self) -> str:
        return f"<Bag: {len(self._tiles)} tiles>"

    def counts(self) -> list[int]:
        """How many of each tile code the bag holds."""
        counts = [0] * self.alphabet.size
        for t in self._tiles:
            counts[t] += 1
        return counts

    def tiles(self) -> list[Tile]:
        """The tiles in the bag, sorted (the draw order stays hidden)."""
        return sorted(self._tiles)

    def draw(self, n: int) -> list[Tile]:
        """Draw up to ``n`` tiles (fewer when the bag runs out)."""
        n = min(n, len(self._tiles))
        if n <= 0:
            return []
        drawn = self._tiles[-n:]
        del self._tiles[-n:]
        return drawn

    def undraw(self, tiles: Sequence[Tile]) -> None:
        """Put back tiles just drawn (:meth:`draw`'s result), where they were:
        the bag is exactly as before the draw, and draws the same tiles again.

        >>> from tilebag.alphabet import load_alphabet
        >>> bag = Bag(load_alphabet("english"), seed=1)
        >>> drawn = bag.draw(7)
        >>> bag.undraw(drawn)
        >>> bag.draw(7) == drawn
        True
        """
        self._tiles.extend(tiles)

    def put_back(self, tiles: Iterable[Tile]) -> None:
        """Return tiles to the bag and mix them in."""
        self._tiles.extend(tiles)
        self._own_rng().shuffle(self._tiles)

    def copy(self) -> Bag:
        """An independent copy: the same tiles in the same order, and a
        random generator in the same state. The generator is shared until
        either bag next mixes its tiles, so a copy costs only its tiles.

        >>> from tilebag.alphabet import load_alphabet
        >>> bag = Bag(load_alphabet("english"), seed=1)
        >>> twin = bag.copy()
        >>> bag.put_back(bag.draw(7))
        >>> twin.put_back(twin.draw(7))
        >>> twin.get_state() == bag.get_state()
        True
        """
        twin = Bag.__new__(Bag)
        twin.alphabet = self.alphabet
        twin.seed = self.seed
        twin._tiles = self._tiles.copy()
        twin._rng = self._rng
        twin._rng_shared = self._rng_shared = True
        return twin

    def _own_rng(self) -> random.Random:
        """The random generator, first made this bag's own if a copy shares it."""
        if self._rng_shared:
            rng = random.Random(0)
            rng.setstate(self._rng.getstate())
            self._rng, self._rng_shared = rng, False
        return self._rng

    def take(self, tiles: Sequence[Tile]) -> None:
        """Remove these particular tiles (rack tiles: 0 for a blank).

        :raises ValueError: naming the tiles the bag does not hold; then
            nothing is removed.
        """
        lacking = missing_tiles(tiles, self._tiles)
        if lacking:
            raise ValueError(f"the bag holds no {self.alphabet.format_rack(lacking)}")
        for t in tiles:
            self._tiles.remove(rack_tile(t))

    def contains(self, tiles: Sequence[Tile]) -> bool:
        """True when the bag holds all of these tiles (repeats counted)."""
        return not missing_tiles(tiles, self._tiles)

    def get_state(self) -> tuple[tuple[Tile, ...], object]:
        """A snapshot to restore with :meth:`set_state`."""
        return tuple(self._tiles), self._rng.getstate()

    def set_state(self, state: tuple[tuple[Tile, ...], object]) -> None:
        tiles, rng_state = state
        self._tiles = list(tiles)
        if self._rng_shared:
            self._rng, self._rng_shared = random.Random(0), False
        self._rng.setstate(rng_state)  # type: ignore[arg-type]

    def draw_for_first(self, players: int) -> tuple[int, list[list[Tile | None]]]:
        """The draw for first play: each player draws a tile, the letter nearest
        the start of the alphabet goes first, a blank beats every letter, tied
        players draw again. The drawn tiles go back and the bag is mixed.

        Returns the first player and the tiles each round drew (``None`` for
        a player out of the running).

        >>> from tilebag.alphabet import load_alphabet
        >>> first, rounds = Bag(load_alphabet("english"), seed=3).draw_for_first(2)
        >>> first in (0, 1) and len(rounds) >= 1
        True
        """
        if players < 1:
            raise ValueError("at least one player draws")
        contenders = list(range(players))
        rounds: list[list[Tile | None]] = []
        drawn: list[Tile] = []
        while len(contenders) > 1 and self._tiles:
            this_round: list[Tile | None] = [None] * players
            for p in contenders:
                tile = self.draw(1)
                if not tile:
                    break
                this_round[p] = tile[0]
                drawn.append(tile[0])
            rounds.append(this_round)
            ranks = {p: _draw_rank(this_round[p]) for p in contenders}
            best = min(ranks.values())
            contenders = [p for p in contenders if ranks[p] == best]
        self.put_back(drawn)
        return contenders[0], rounds


def _draw_rank(tile: Tile | None) -> int:
    """Order of a tile in the draw for first play: the blank first, then the
    letters from the start of the alphabet; no tile (an empty bag) last."""
    if tile is None:
        return 1 << 16
    return -1 if tile == BLANK else tile
