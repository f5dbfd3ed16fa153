"""``tilebag leaves train``: leave values trained by self-play for a lexicon."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from types import FrameType


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def stop_on_signals() -> None:
    """Ctrl+C, and a ``kill`` (SIGTERM), stop a long run the same way: it
    keeps what was done. Also when it was started in the background, where
    the shell has it ignore Ctrl+C's signal."""
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)


def train(args: argparse.Namespace) -> int:
    from tilebag.lab.leave_training import train_leaves
    from tilebag.ui.cli_options import rules_from_args

    rules = rules_from_args(args)
    for name in ("games", "generations"):
        if getattr(args, name) < 1:
            print(f"tilebag: --{name} must be at least 1", file=sys.stderr)
            return 2
    if args.workers is not None and args.workers < 1:
        print("tilebag: --workers must be at least 1", file=sys.stderr)
        return 2
    folder = Path(args.dir) if args.dir else Path(args.output).with_suffix(".training")
    stop_on_signals()
    try:
        run = train_leaves(
            folder,
            games=args.games,
            generations=args.generations,
            seed=args.seed,
            workers=args.workers,
            lexicon=args.lexicon,
            rules=rules,
            output=args.output,
            start=args.start,
            log=lambda text: print(text, file=sys.stderr),
            cluster=args.cluster,
        )
    except ValueError as error:
        print(f"tilebag: {error}", file=sys.stderr)
        return 2
    if run.stopped:
        print(f"stopped after {run.generations} generation(s); run the same command to go on (state in {run.folder})")
        return 130
    print(f"{run.generations} generations, {run.games} games in {run.seconds:.0f} s: wrote {run.output}")
    return 0
