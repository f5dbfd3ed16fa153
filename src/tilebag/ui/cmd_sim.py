"""``tilebag sim``: simulate the best plays of a CGP position."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from types import FrameType

from tilebag.bag import Bag
from tilebag.errors import FormatError
from tilebag.formats import cgp
from tilebag.position import Position


def sim(args: argparse.Namespace) -> int:
    from tilebag.engine import Engine
    from tilebag.engine.montecarlo.sim import SimPlayer, SimResult
    from tilebag.lexicon import load_lexicon

    for name in ("seconds",):
        if getattr(args, name) <= 0:
            raise FormatError(f"--{name} must be more than 0")
    for name in ("plies", "candidates", "iterations"):
        if getattr(args, name) < 1:
            raise FormatError(f"--{name} must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise FormatError("--workers must be at least 1")
    parsed = cgp.parse(args.cgp)
    if len(parsed.racks) != 2:
        raise FormatError("a simulation is of a two-player position")
    rules = parsed.rules()
    rack = list(parsed.racks[0])
    if not rack:
        raise FormatError("the player to move has no rack (CGP: RACK/ or RACK/RACK)")
    unseen = parsed.unseen_tiles() + ([] if parsed.opponent_rack_unknown else list(parsed.racks[1]))
    opponent_size = min(rules.rack_size, len(unseen))
    bag_count = len(unseen) - opponent_size
    if bag_count <= 0:
        raise FormatError("the bag is empty: solve the endgame instead (tilebag endgame --cgp ...)")
    lexicon = load_lexicon(args.lexicon or parsed.lexicon, alphabet=parsed.alphabet)
    engine = Engine.for_lexicon(lexicon, rules)
    plays = list(engine.plays(parsed.board, rack, bag_count=bag_count, top=args.candidates))
    position = Position(
        parsed.board, [rack, unseen[:opponent_size]], Bag(parsed.alphabet, tiles=unseen[opponent_size:], seed=1),
        parsed.scores, scoreless=parsed.zero_turns,
        rack_size=rules.rack_size, bingo_tiles=rules.bingo_tiles, bingo_bonus=rules.bingo_bonus,
    )
    player = SimPlayer("sim", plies=args.plies, seconds=args.seconds, candidates=args.candidates,
                       iterations=args.iterations, seed=args.seed, engine=engine, workers=args.workers)
    stop = threading.Event()

    def interrupted(signum: int, frame: FrameType | None) -> None:
        stop.set()

    last = [time.monotonic()]

    def report(result: SimResult) -> None:
        if not args.json and time.monotonic() - last[0] >= 1:
            last[0] = time.monotonic()
            best = result.candidates[0]
            print(f"{result.iterations} iterations, {len(result.candidates)} plays left; best "
                  f"{parsed.board.notation(best.play.move)} {100 * best.win_chance:.1f}%", file=sys.stderr, flush=True)

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        result = player.simulate_position(position, engine, plays, unseen=unseen, opponent_size=opponent_size,
                                          stop=stop.is_set, on_round=report)
    finally:
        signal.signal(signal.SIGINT, previous)
    rows = []
    for candidate in result.candidates:
        rows.append({
            "move": parsed.board.notation(candidate.play.move),
            "score": candidate.play.score,
            "win": round(100 * candidate.win_chance, 2),
            "win_error": round(100 * candidate.error / 1_000_000, 2) if len(candidate.values) > 1 else None,
            "equity": round(candidate.equity, 2),
            "iterations": len(candidate.values),
        })
    if args.json:
        print(json.dumps({"best": rows[0]["move"] if rows else None, "candidates": rows,
                          "iterations": result.iterations, "rollouts": result.rollouts,
                          "seconds": round(result.seconds, 3), "stopped": stop.is_set()}))
    else:
        for row in rows:
            error = f" ±{row['win_error']:.1f}" if row["win_error"] is not None else ""
            print(f"{row['move']:<20} {row['score']:>4}  win {row['win']:5.1f}%{error}  equity {row['equity']:+.1f}"
                  f"  ({row['iterations']} iterations)")
        print(f"{result.iterations} iterations, {result.rollouts} rollouts in {result.seconds:.1f} s"
              + (" (stopped)" if stop.is_set() else ""))
    return 130 if stop.is_set() else 0
