"""``tilebag endgame``: solve a position whose bag is empty."""

from __future__ import annotations

import argparse
import json
import sys

from tilebag.bag import Bag
from tilebag.errors import FormatError
from tilebag.formats import cgp
from tilebag.position import Position


def endgame_position(parsed: cgp.Position) -> Position:
    """The light position of a CGP endgame: two racks known, an empty bag.

    :raises FormatError: for another number of players, an unknown rack or
        tiles left in the bag.
    """
    if len(parsed.racks) != 2 or parsed.opponent_rack_unknown:
        raise FormatError("an endgame needs two players with both racks known (CGP: RACK/RACK)")
    left = parsed.unseen_tiles()
    if left:
        raise FormatError(f"the bag is not empty: {len(left)} tiles unseen besides the racks")
    rules = parsed.rules()
    return Position(
        parsed.board,
        parsed.racks,
        Bag(parsed.alphabet, tiles=()),
        parsed.scores,
        scoreless=parsed.zero_turns,
        rack_size=rules.rack_size,
        bingo_tiles=rules.bingo_tiles,
        bingo_bonus=rules.bingo_bonus,
    )


def endgame(args: argparse.Namespace) -> int:
    from tilebag.engine import Engine
    from tilebag.engine.endgame.solver import solve
    from tilebag.lexicon import load_lexicon

    if args.seconds is not None and args.seconds <= 0:
        raise FormatError("--seconds must be more than 0")
    if args.threads is not None and not 1 <= args.threads <= 64:
        raise FormatError("--threads must be 1 to 64")
    parsed = cgp.parse(args.cgp)
    position = endgame_position(parsed)
    lexicon = load_lexicon(args.lexicon)
    engine = Engine.for_lexicon(lexicon, parsed.rules())

    def progress(depth: int, value: int, seconds: float) -> None:
        if not args.json:
            print(f"depth {depth}: {value:+d} ({seconds:.2f} s)", file=sys.stderr, flush=True)

    solution = solve(position, engine, seconds=args.seconds, on_depth=progress, threads=args.threads)
    if args.json:
        print(json.dumps(solution.to_dict()))
    else:
        line = ", ".join(f"{m.notation} {m.score}" for m in solution.moves) or "(no move)"
        how = "exact" if solution.exact else f"best found to depth {solution.depth}" + (", stopped" if solution.stopped else "")
        print(f"{line}\nfinal spread {solution.spread:+d} for the player to move ({how}; "
              f"{solution.nodes} positions in {solution.seconds:.2f} s)")
    return 130 if solution.stopped else 0


def bench(args: argparse.Namespace) -> int:
    """``tilebag bench endgame``: the time to solve the bag-empty position of
    each of many self-play games (the compiled search when it is built;
    ``TILEBAG_CORE=python`` measures the reference)."""
    from tilebag.engine.endgame.solver import threads_for
    from tilebag.engine.movegen.generator import default_core
    from tilebag.lab.bench import bench_endgames
    from tilebag.progress import Progress

    if args.games < 1 or args.seconds <= 0 or (args.threads is not None and not 1 <= args.threads <= 64):
        print("tilebag: bench endgame: --games from 1, --seconds more than 0, --threads 1 to 64", file=sys.stderr)
        return 2
    core = default_core()
    threads = threads_for(args.threads)
    with Progress(args.games, f"games, each endgame solved ({core} core, {threads} threads)") as bar:
        result = bench_endgames(args.games, seed=args.seed, seconds=args.seconds, progress=bar.update, core=core,
                                threads=threads, check=args.check)
    print(json.dumps(result.as_dict()) if args.json else result.text())
    return 130 if result.stopped else 1 if result.disagreements else 0


def wintable(args: argparse.Namespace) -> int:
    """``tilebag wintable``: a win-probability table from self-play."""
    from pathlib import Path

    from tilebag.lab.wintable import collect, fit
    from tilebag.progress import Progress

    if args.games < 1:
        print("tilebag: --games must be at least 1", file=sys.stderr)
        return 2
    with Progress(args.games, "games") as bar:
        samples = collect(args.games, seed=args.seed, progress=bar.update)
    table = fit(samples, args.games)
    Path(args.out).write_text(table.dumps() + "\n", encoding="utf-8")
    print(f"win table from {args.games} games written to {args.out}")
    return 0
