"""The engine's subcommands of ``tilebag``: ``moves``, ``selfplay`` and
``bench``. Each takes the parsed arguments and returns the exit status
(0 done, 2 bad input); :mod:`tilebag.ui.cli` declares the options.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from tilebag.board import Board
from tilebag.engine.equity import points
from tilebag.engine.equity.leaves import DEFAULT_LEAVES, load_leaves
from tilebag.engine.movegen.generator import MoveGenerator, Play
from tilebag.errors import FormatError, quote
from tilebag.formats import cgp
from tilebag.lab.bench import bag_count, run_movegen
from tilebag.lexicon import GraphLexicon, load_lexicon
from tilebag.move import MoveKind
from tilebag.progress import Progress


def play_fields(position: int, board: Board, play: Play) -> dict[str, object]:
    """One play as the ``--json`` object of ``tilebag moves``.

    >>> from tilebag.move import Move
    >>> board = Board()
    >>> play = Play(Move.from_gcg("8F HORN"), 14, (1, 5, 9), 17_500)
    >>> play_fields(0, board, play)
    {'position': 0, 'pos': '8F', 'word': 'HORN', 'score': 14, 'leave': 'AEI', 'equity': 17.5}
    """
    move = play.move
    alphabet = board.alphabet
    fields: dict[str, object] = {"position": position}
    if move.kind is MoveKind.PLACE:
        fields["pos"] = board.layout.position_name(move.row, move.col, move.down)
        fields["word"] = board.word_text(move)
    else:
        fields["kind"] = move.kind.value
        fields["pos"] = "-"
        fields["word"] = alphabet.format_rack(move.tiles)
    fields["score"] = play.score
    fields["leave"] = alphabet.format_rack(play.leave)
    fields["equity"] = points(play.equity)
    return fields


def play_line(board: Board, play: Play) -> str:
    """One play as a line of text: notation, score, leave, equity."""
    notation = board.notation(play.move)
    leave = board.alphabet.format_rack(play.leave) or "-"
    return f"{notation:<22} {play.score:>4}  {leave:<8} {points(play.equity):8.2f}"


def bounded_lines(handle: TextIO, limit: int) -> Iterator[str]:
    """The lines of a text stream, each cut to ``limit + 1`` characters (the
    rest of an oversized line is read and dropped), so one endless line
    cannot fill the memory."""
    while True:
        line = handle.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith("\n"):
            while True:
                rest = handle.readline(1 << 16)
                if not rest or rest.endswith("\n"):
                    break
        yield line


def moves(args: argparse.Namespace) -> int:
    if args.top is not None and args.top < 1:
        raise FormatError(f"--top must be at least 1, got {args.top}")
    lexicon = load_lexicon(args.lexicon)
    leaves = load_leaves(args.leaves or DEFAULT_LEAVES, lexicon.alphabet)
    from_stdin = args.cgp == "-"
    lines: Iterable[str] = bounded_lines(sys.stdin, cgp.MAX_CGP_CHARS) if from_stdin else [args.cgp]
    generators: dict[tuple[int, str], MoveGenerator] = {}
    status = 0
    read = 0
    out = sys.stdout
    for index, line in enumerate(lines):
        if from_stdin and not line.strip():
            continue
        read += 1
        where = f"position {index}: " if from_stdin else ""
        try:
            position = cgp.parse(line)
        except FormatError as err:
            print(f"tilebag: {where}{err}", file=sys.stderr)
            status = 2
            continue
        named = position.lexicon
        if args.lexicon is None and named is not None and named.lower() != lexicon.name.lower():
            print(
                f"tilebag: {where}the position names the lexicon {quote(named)}, which tilebag does not have "
                f"(it has {lexicon.name}); choose a word list or .kwg file with --lexicon FILE",
                file=sys.stderr,
            )
            status = 2
            continue
        if position.alphabet.name != lexicon.alphabet.name:
            print(
                f"tilebag: position {index}: the position uses {position.alphabet.name} tiles but the lexicon "
                f"{lexicon.name!r} is {lexicon.alphabet.name}; choose one with --lexicon",
                file=sys.stderr,
            )
            status = 2
            continue
        generator = _generator(generators, lexicon, position)
        plays = generator.generate(
            position.board,
            position.rack,
            leaves=leaves,
            bag_count=bag_count(position),
            exchanges=args.exchanges,
            top=args.top,
        )
        _write_plays(out, index, position.board, plays, as_json=args.json)
    if from_stdin and not read:
        print("tilebag: no position on standard input (one CGP record per line)", file=sys.stderr)
        return 2
    return status


def _generator(
    cache: dict[tuple[int, str], MoveGenerator], lexicon: GraphLexicon, position: cgp.Position
) -> MoveGenerator:
    key = (position.bingo_bonus, position.board.layout.name)
    generator = cache.get(key)
    if generator is None:
        generator = cache[key] = MoveGenerator(
            lexicon.kwg, layout=position.board.layout, alphabet=position.alphabet, bingo_bonus=position.bingo_bonus
        )
    return generator


def _write_plays(out: TextIO, index: int, board: Board, plays: Sequence[Play], *, as_json: bool) -> None:
    if as_json:
        for play in plays:
            out.write(json.dumps(play_fields(index, board, play), ensure_ascii=False) + "\n")
    else:
        for play in plays:
            out.write(play_line(board, play) + "\n")


def selfplay(args: argparse.Namespace) -> int:
    from tilebag.engine.bots import BOTS
    from tilebag.lab.selfplay import run_selfplay
    from tilebag.ui.cli_options import rules_from_args

    rules = rules_from_args(args)  # a RulesError exits 2 (in tilebag.ui.cli.main) before any game
    kinds = [kind.strip() for kind in args.players.split(",") if kind.strip()]
    unknown = [kind for kind in kinds if kind.lower() not in BOTS]
    if unknown or not 1 <= len(kinds) <= 4:
        problem = f"unknown bot {unknown[0]!r}" if unknown else f"{len(kinds)} players (1 to 4)"
        print(f"tilebag: --players: {problem}; known bots: {', '.join(BOTS)}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("tilebag: --games must be at least 1", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print("tilebag: --workers must be at least 1", file=sys.stderr)
        return 2
    try:
        summary = run_selfplay(
            kinds, games=args.games, seed=args.seed, out=Path(args.out) if args.out else None, rules=rules,
            workers=args.workers, cluster=args.cluster,
        )
    except ValueError as error:  # an --out folder of another run
        print(f"tilebag: {error}", file=sys.stderr)
        return 2
    if args.json:
        data = {
            "games": summary.games,
            "stopped": summary.stopped,
            "ms_per_game": round(summary.seconds_per_game * 1000, 1),
            "players": [
                {
                    "name": bot.name,
                    "wins": bot.wins,
                    "win_interval": [round(x, 4) for x in bot.win_interval()],
                    "mean_score": round(bot.mean_score, 2),
                    "bingos_per_game": round(bot.bingos_per_game, 3),
                }
                for bot in summary.bots
            ],
        }
        print(json.dumps(data))
    else:
        print(summary.text() + (" (stopped early)" if summary.stopped else ""))
        if args.out:
            print(f"records written to {args.out}")
    return 130 if summary.stopped else 0


def bench_selfplay(args: argparse.Namespace) -> int:
    from tilebag.engine.movegen.generator import default_core
    from tilebag.lab.bench import run_selfplay as run

    if args.games < 1:
        print("tilebag: bench selfplay: --games must be at least 1", file=sys.stderr)
        return 2
    core = args.core or default_core()
    with Progress(args.games, f"games ({core} core)") as bar:
        result = run(args.games, seed=args.seed, core=core, progress=lambda done, total: bar.update(done))
    print(json.dumps(result.as_dict()) if args.json else result.text())
    return 0


def bench_opening(args: argparse.Namespace) -> int:
    """``tilebag bench opening``."""
    from tilebag.engine import Engine
    from tilebag.engine.equity import millipoints
    from tilebag.lab.bench import measure_penalties
    from tilebag.lexicon import default_lexicon

    try:
        penalties = [millipoints(float(p)) for p in args.penalties.split(",") if p.strip()]
    except ValueError:
        penalties = []
    if args.openings < 1 or args.replies < 1 or not penalties or any(p <= 0 for p in penalties):
        print("tilebag: bench opening: --openings and --replies from 1, --penalties numbers above 0", file=sys.stderr)
        return 2
    engine = Engine.for_lexicon(default_lexicon())
    with Progress(args.openings, "openings") as bar:
        result = measure_penalties(
            engine, penalties, openings=args.openings, replies=args.replies, seed=args.seed, progress=bar.update
        )
    print(json.dumps(result.as_dict()) if args.json else result.text() + (" (stopped early)" if result.stopped else ""))
    return 130 if result.stopped else 0


def bench_movegen(args: argparse.Namespace) -> int:
    from tilebag.engine.movegen.generator import native_available

    cores = ["python", "native"] if native_available() else ["python"]
    if args.core:
        cores = [args.core]
    results = {}
    for core in cores:
        with Progress(0, f"positions ({core} core)") as bar:

            def report(done: int, total: int) -> None:
                bar.total = total
                bar.update(done)

            results[core] = run_movegen(repeat=max(1, args.repeat), progress=report, core=core)
    data: dict[str, object] = {core: result.as_dict() for core, result in results.items()}
    if "python" in results and "native" in results and results["python"].positions_per_second:
        data["ratio"] = round(results["native"].positions_per_second / results["python"].positions_per_second, 2)
    if args.json:
        print(json.dumps(data))
    else:
        for result in results.values():
            print(result.text())
        if "ratio" in data:
            print(f"native / python: {data['ratio']} times the positions per second")
    return 0


def bench_perft(args: argparse.Namespace) -> int:
    """``tilebag bench perft``: 0 every core agrees with the enumerator, 1 a
    mismatch (each printed as found), 130 stopped with none found."""
    from tilebag.lab.perft import Mismatch, run_perft

    if args.positions < 1:
        print("tilebag: bench perft: --positions must be at least 1", file=sys.stderr)
        return 2

    def report(mismatch: Mismatch) -> None:
        if bar.enabled:
            bar.stream.write("\n")  # below the progress bar, which goes on under it
        print(mismatch.text(), flush=True)

    with Progress(args.positions, "positions") as bar:
        result = run_perft(args.positions, seed=args.seed, full=args.full, progress=bar.update, report=report)
    print(result.text())
    return 1 if result.mismatches else 130 if result.stopped else 0


def bench_sim(args: argparse.Namespace) -> int:
    """``tilebag bench sim``."""
    from tilebag.lab.bench import bench_sim as run

    if args.positions < 1 or args.seconds <= 0 or args.plies < 1:
        print("tilebag: bench sim: --positions and --plies from 1, --seconds above 0", file=sys.stderr)
        return 2
    result = run(args.positions, seconds=args.seconds, plies=args.plies)
    print(json.dumps(result.as_dict()) if args.json else result.text())
    return 0
