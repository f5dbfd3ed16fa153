"""A finished game's turns judged by simulation: the chance of winning each
move kept, against the best the simulating bot found
(:class:`tilebag.engine.montecarlo.sim.SimPlayer`), and the chance lost.

Turns with tiles in the bag and a rack the record shows in full are
reviewed (two players, no variation's actions); the bag-empty turns are the
endgame solver's to judge, and are left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from tilebag.actions import PlayMove
from tilebag.engine import Engine
from tilebag.engine.montecarlo.sim import SimPlayer
from tilebag.engine.movegen.generator import Play
from tilebag.formats.replay import replay
from tilebag.game import Game, GameState
from tilebag.lexicon import GraphLexicon, default_lexicon
from tilebag.move import Move, MoveKind
from tilebag.record import GameRecord


@dataclass(frozen=True)
class WinReview:
    """One turn: the move made and the best the simulation found, with the
    chance of winning after each."""

    number: int
    player: int
    name: str
    played: str
    played_chance: float
    best: str
    best_chance: float

    @property
    def lost(self) -> float:
        """The chance of winning the move gave away (0 when it was the best)."""
        return max(0.0, self.best_chance - self.played_chance)

    def to_dict(self) -> dict[str, object]:
        return {
            "turn": self.number, "player": self.player, "name": self.name, "played": self.played,
            "played_win": round(100 * self.played_chance, 1), "best": self.best,
            "best_win": round(100 * self.best_chance, 1), "win_lost": round(100 * self.lost, 1),
        }

    def line(self) -> str:
        return (f"{self.number:>3} {self.name:<12} {self.played:<20} {100 * self.played_chance:5.1f}%   "
                f"{self.best:<20} {100 * self.best_chance:5.1f}%   {100 * self.lost:5.1f}")


def review_game(
    record: GameRecord,
    *,
    lexicon: GraphLexicon | None = None,
    seconds: float = 1.0,
    candidates: int = 6,
    progress: Callable[[int, int], None] | None = None,
) -> list[WinReview]:
    """Each reviewable turn of a two-player game, in order (see the module notes)."""
    lexicon = lexicon or default_lexicon()
    game = replay(record, lexicon=lexicon)
    if len(game.players) != 2 or game.rules.recycle or game.rules.blank_swap or game.rules.anagram:
        return []
    engine = Engine.for_lexicon(lexicon, game.rules)
    events = [e for e in record.events if e.kind.is_move]
    moves = sum(1 for e in game.events if e.kind.is_move)
    total = min(moves, len(events))
    found: list[WinReview] = []
    seen = 0
    while game.move_stack:
        undone = game.pop()
        left = sum(1 for e in game.events if e.kind.is_move)
        if left == moves:
            continue
        moves = left
        if left >= len(events):
            continue
        event = events[left]
        seen += 1
        if isinstance(undone, PlayMove) and event.rack is not None and Counter(event.rack) == Counter(game.rack()):
            review = _review(game, undone.move, engine, seconds, candidates, number=left + 1)
            if review is not None:
                found.append(review)
        if progress is not None:
            progress(seen, total)
    found.reverse()
    return found


def _review(game: Game, move: Move, engine: Engine, seconds: float, candidates: int, *, number: int) -> WinReview | None:
    if not len(game.bag) or game.state is not GameState.PLAYING or move.kind not in (MoveKind.PLACE, MoveKind.EXCHANGE, MoveKind.PASS):
        return None
    plays = list(engine.plays(game.board, game.rack(), bag_count=len(game.bag)))
    try:
        checked = game.check(move)
    except Exception:  # a phony that stood or a move the rules refuse now: nothing to compare
        return None
    mine = next((p for p in plays if p.move == checked), None)
    if mine is None:
        return None
    chosen: list[Play] = plays[:candidates]
    if mine not in chosen:
        chosen.append(mine)
    sim = SimPlayer("review", seconds=seconds, candidates=len(chosen), seed=number)
    me = game.turn
    result = sim.simulate_position(
        game.position(), engine, chosen, unseen=game.unseen(me), opponent_size=len(game.rack(1 - me)), salt=number, z=99.0
    )  # z so large that no candidate is dropped: each is measured to the end
    by_move = {c.play.move: c for c in result.candidates}
    best = result.candidates[0]
    played = by_move[mine.move]
    return WinReview(
        number, me, game.players[me].name, game.notation(mine.move), played.win_chance, game.notation(best.play.move), best.win_chance
    )


def sim_report(reviews: list[WinReview], seconds: float) -> str:
    """The simulated turns, and the chance of winning each player gave away."""
    lines = ["", f"Chance of winning by simulation ({seconds:g} s a turn; turns with tiles in the bag):",
             f"{'':>3} {'player':<12} {'played':<20} {'win':>6}   {'best found':<20} {'win':>6}   lost"]
    lines += [review.line() for review in reviews]
    totals: dict[str, float] = {}
    for review in reviews:
        totals[review.name] = totals.get(review.name, 0.0) + review.lost
    lines += [f"{name}: {100 * lost:.1f} points of winning chance lost in all" for name, lost in totals.items()]
    return "\n".join(lines) + "\n"
