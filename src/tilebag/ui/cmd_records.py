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


def _analyze_many(args: argparse.Namespace) -> int:
    """Several records, on the batch backends: each read here (a record
    that cannot be read is said and skipped), analysed by a worker."""
    import json
    from dataclasses import asdict

    from tilebag.batch import backend_for
    from tilebag.batch.results import ResultsFile
    from tilebag.engine.analysis.batch import AnalysedRecord, AnalysisJob, analyze_records
    from tilebag.formats import gcg

    if args.engine == "sim" and args.seconds <= 0:
        raise FormatError("--seconds must be more than 0")
    status = 0
    records = []
    for name in args.games:
        try:
            records.append((name, gcg.load(name)))
        except OSError as err:
            print(f"{name}: cannot read: {err.strerror or err}", file=sys.stderr)
            status = 2
        except FormatError as err:
            print(err, file=sys.stderr)
            status = 2
    job = AnalysisJob(args.lexicon, args.leaves, args.top, args.seconds if args.engine == "sim" else None)
    kept: dict[str, AnalysedRecord] = {}
    results = ResultsFile(args.results, {"analyze": asdict(job)}) if args.results else None
    if results is not None:
        for data in results.load():
            source, report = str(data.pop("source", "")), str(data.pop("report", ""))
            kept[source] = AnalysedRecord(source, data, report)

    def finished(_index: int, analysed: AnalysedRecord) -> None:
        if results is not None and analysed.error is None:
            results.add({"source": analysed.source, "report": analysed.report, **analysed.data})

    skip = frozenset(i for i, (name, _) in enumerate(records) if name in kept)
    fresh, stopped = analyze_records(records, job, backend_for(args.cluster, args.workers), skip=skip, on_result=finished)
    by_source = {**kept, **{analysed.source: analysed for analysed in fresh}}
    done = [by_source[name] for name, _ in records if name in by_source]
    for analysed in done:
        if analysed.error is not None:
            print(f"{analysed.source}: {analysed.error}", file=sys.stderr)
            status = 2
        elif args.json:
            print(json.dumps({"source": analysed.source, **analysed.data}))
        else:
            sys.stdout.write(f"== {analysed.source}\n{analysed.report}\n")
    return 130 if stopped else status


def _parses_as(path: str, alphabet: str) -> bool:
    from tilebag.formats import gcg

    try:
        gcg.load(path, alphabet=alphabet)
    except (FormatError, OSError):
        return False
    return True


def analyze(args: argparse.Namespace) -> int:
    import json

    from tilebag.engine.analysis.review import analyze_game
    from tilebag.engine.equity.leaves import DEFAULT_LEAVES, load_leaves
    from tilebag.formats import gcg
    from tilebag.lexicon import load_lexicon
    from tilebag.progress import Progress

    if args.top < 1:
        print(f"tilebag: --top must be at least 1, got {args.top}", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print("tilebag: --workers must be at least 1", file=sys.stderr)
        return 2
    if len(args.games) > 1 or args.cluster or args.results:
        return _analyze_many(args)
    args.game = args.games[0]
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
    reviews = None
    if args.engine == "sim":
        from tilebag.engine.analysis.sim_review import review_game, sim_report

        if args.seconds <= 0:
            raise FormatError("--seconds must be more than 0")
        with Progress(0, f"simulating {args.game}") as bar:

            def simulated(done: int, total: int) -> None:
                bar.total = total
                bar.update(done)

            reviews = review_game(record, lexicon=lexicon, seconds=args.seconds, progress=simulated)
    if args.json:
        data = analysis.to_dict()
        if reviews is not None:
            data["sim"] = [review.to_dict() for review in reviews]
        print(json.dumps(data))
    else:
        sys.stdout.write(analysis.report())
        if reviews is not None:
            sys.stdout.write(sim_report(reviews, args.seconds))
    return 0


