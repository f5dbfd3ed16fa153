"""``tilebag match``: two bots over paired games."""

from __future__ import annotations

import argparse
import json
import sys


def match(args: argparse.Namespace) -> int:
    from tilebag.lab.match import run_match
    from tilebag.ui.cli_options import rules_from_args

    rules = rules_from_args(args)  # a RulesError exits 2 (in tilebag.ui.cli.main) before any game
    if args.games < 1:
        print("tilebag: --games must be at least 1", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print("tilebag: --workers must be at least 1", file=sys.stderr)
        return 2
    try:
        result = run_match(
            args.a, args.b, games=args.games, seed=args.seed, workers=args.workers, rules=rules, cluster=args.cluster,
            results=args.results, log=lambda line: print(line, file=sys.stderr),
        )
    except ValueError as error:  # a results file of another match
        print(f"tilebag: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_dict()) if args.json else result.text())
    return 130 if result.stopped else 0
