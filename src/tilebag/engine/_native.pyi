"""Type stub of the compiled core (its C sources are in ``native/``, see ``native/core.h``).

Every method checks its arguments before a search reads them and raises
ValueError or TypeError naming what was wrong and where; a second
``__init__`` on an initialised object raises RuntimeError."""

from collections.abc import Callable, Sequence

class Heuristic:
    def __init__(
        self,
        tile_values: Sequence[float],
        repeat_penalties: Sequence[float],
        vowels: int,
        q: int,
        u: int,
        third_copy_factor: float,
        balance_target: float,
        balance_weight: float,
        one_kind_consonant: float,
        one_kind_vowel: float,
        q_penalty: float,
    ) -> None: ...

class Klv:
    def __init__(self, nodes: object, counts: object, values: Sequence[float]) -> None: ...

LeaveModel = Heuristic | Klv | tuple[bytes, Sequence[float]] | None

class Plays:
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> tuple[int, int, int, bool, bytes, int, int, bytes]: ...

EndgameLineMove = tuple[int, int, int, bool, bytes, int]
"""A move of an endgame line: (kind, start, lane, down, tiles, score), kind 0
a placement (tiles along the lane from its start, 0 where it plays
through), 2 the pass."""

class Core:
    def __init__(
        self,
        nodes: object,
        gaddag_root: int,
        dawg_root: int,
        rows: int,
        cols: int,
        letter_mult: bytes,
        word_mult: bytes,
        scores: Sequence[int],
        start: int,
        bingo_tiles: int,
        bingo_bonus: int,
        first_min: int,
    ) -> None: ...
    def placements(self, board: bytes | bytearray, rack: bytes, /) -> list[tuple[int, int, bool, bytes, int]]: ...
    def generate(
        self,
        board: bytes | bytearray,
        rack: bytes,
        leaves: LeaveModel,
        endgame: bool,
        top: int,
        with_pass: bool,
        exchanges: int,
        /,
    ) -> Plays: ...
    def may_spell(self, tiles: bytes, blanks: int, /) -> bool: ...
    def rollouts(
        self,
        board: bytes | bytearray,
        rack: bytes,
        other_size: int,
        unseen: bytes,
        candidates: Sequence[tuple[int, int, int, bool, bytes, int]],
        seeds: Sequence[int],
        plies: int,
        leaves: Heuristic | Klv | None,
        exchange_min_bag: int,
        scoreless: int,
        scoreless_limit: int,
        rack_size: int,
        wins: tuple[float, Sequence[float], Sequence[float]] | None,
        kept: bytes = b"",
        /,
    ) -> list[list[tuple[int, int]]]: ...
    def endgame(
        self,
        board: bytes | bytearray,
        rack: bytes,
        other_rack: bytes,
        scoreless: int,
        scoreless_limit: int,
        max_depth: int,
        seconds: float,
        table_megabytes: int,
        stop: Callable[[], object] | None,
        on_depth: Callable[[int, int, bool, int, list[EndgameLineMove]], object] | None,
        threads: int = 1,
        /,
    ) -> tuple[int, int, bool, int, list[EndgameLineMove], bool]: ...
