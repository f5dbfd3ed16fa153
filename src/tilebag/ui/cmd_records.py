"""``tilebag gcg check`` and ``tilebag analyze``: game records checked
against the rules, and games analysed play by play.
"""

from __future__ import annotations

import argparse
import sys

from tilebag.errors import FormatError


def gcg_check(args: argparse.Namespace) -> int:
    from tilebag.alphabet import alphabet_names, load_alphabet
    from tilebag.formats import gcg, replay
    from tilebag.lexicon import load_lexicon

    lexicon = None
    status = 0
    if args.lexicon:
        try:
            lexicon = load_lexicon(args.lexicon, alphabet=load_alphabet(args.alphabet or "english"))
        except FormatError as err:
            print(f"tilebag: {err}", file=sys.stderr)
            return 2
    for name in args.files:
        try:
            record = gcg.load(name, alphabet=args.alphabet)
        except OSError as err:
            print(f"{name}: cannot read: {err.strerror or err}", file=sys.stderr)
            status = 2
            continue
        except FormatError as err:
            hint = ""
            if not args.alphabet and "is not a tile of the english tile set" in str(err):
                fits = [a for a in alphabet_names() if a != "english" and _parses_as(name, a)]
                if fits:
                    hint = f" (the record parses with --alphabet {fits[0]})"
            print(f"{err}{hint}", file=sys.stderr)
            status = 2
            continue
        for warning in record.warnings:
            print(f"warning: {warning}")
        report = replay.check(record, lexicon=lexicon, source=name)
        for finding in report.findings:
            print(finding.format(name))
        if report.errors:
            status = max(status, 1)
        elif not args.quiet:
            game = report.game
            scores = "-".join(str(s) for s in game.scores) if game else ""
            print(f"{name}: ok ({len(record.events)} events, {scores})")
    return status


def _parses_as(path: str, alphabet: str) -> bool:
    from tilebag.formats import gcg

    try:
        gcg.load(path, alphabet=alphabet)
    except (FormatError, OSError):
        return False
    return True


def analyze(args: argparse.Namespace) -> int:
    import json

    from tilebag.engine.analysis import analyze_game
    from tilebag.engine.leaves import DEFAULT_LEAVES, load_leaves
    from tilebag.formats import gcg
    from tilebag.lexicon import load_lexicon
    from tilebag.progress import Progress

    if args.top < 1:
        print(f"tilebag: --top must be at least 1, got {args.top}", file=sys.stderr)
        return 2
    try:
        record = gcg.load(args.game)
    except OSError as err:
        raise FormatError(f"cannot read: {err.strerror or err}", source=args.game) from None
    lexicon = load_lexicon(args.lexicon)
    leaves = load_leaves(args.leaves or DEFAULT_LEAVES, lexicon.alphabet)
    with Progress(0, f"analysing {args.game}") as bar:

        def report(done: int, total: int) -> None:
            bar.total = total
            bar.update(done)

        analysis = analyze_game(record, lexicon=lexicon, leaves=leaves, top=args.top, progress=report, source=args.game)
    if args.json:
        print(json.dumps(analysis.to_dict()))
    else:
        sys.stdout.write(analysis.report())
    return 0
