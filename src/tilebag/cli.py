"""The ``tilebag`` command: thin subcommands over the library.

Exit status: 0 success, 1 a check found a disagreement (or a word is not
acceptable), 2 bad input (a file that cannot be read or parsed, bad options).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tilebag import __version__
from tilebag.errors import FormatError, TilebagError

if TYPE_CHECKING:
    from tilebag.kwg import Kwg
    from tilebag.rules import Rules


def alphabet_option(text: str) -> str:
    """An ``--alphabet`` value: the name of a tile set tilebag knows, or the
    path of a tile set file (read and registered under its file name).
    Only the command line may name a file: records name tile sets by name.

    :raises argparse.ArgumentTypeError: for neither, with the reason.
    """
    from tilebag.alphabet import alphabet_names, load_alphabet_file

    if text.lower() in alphabet_names():
        return text.lower()
    if os.path.isfile(text):
        try:
            return load_alphabet_file(text).name
        except FormatError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
    raise argparse.ArgumentTypeError(f"no tile set named {text!r} and no such file; known: {', '.join(alphabet_names())}")


def _add_gcg(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    gcg = sub.add_parser("gcg", help="work with GCG game records")
    gcg_sub = gcg.add_subparsers(dest="gcg_command", required=True, metavar="COMMAND")
    check = gcg_sub.add_parser(
        "check",
        help="replay records and check every score and total against the rules",
        description=(
            "Replay each GCG record and check every recorded score, running total, rack and placement "
            "against the rules. Exit 0 when all agree, 1 when any disagree, 2 when a file cannot be read."
        ),
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="GCG files")
    check.add_argument("--lexicon", metavar="NAME|PATH", help="also list words not in this lexicon (as warnings)")
    check.add_argument(
        "--alphabet",
        metavar="NAME|FILE",
        type=alphabet_option,
        help="tile set of the records: a name (english, polish...) or a tile set file (default: from the record, else english)",
    )
    check.add_argument("-q", "--quiet", action="store_true", help="print only problems, not one line per good file")
    check.set_defaults(func=_cmd_gcg_check)


def _cmd_gcg_check(args: argparse.Namespace) -> int:
    from tilebag import gcg, replay
    from tilebag.alphabet import alphabet_names, load_alphabet
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
    from tilebag import gcg

    try:
        gcg.load(path, alphabet=alphabet)
    except (FormatError, OSError):
        return False
    return True


def _add_analyze(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    analyze = sub.add_parser(
        "analyze",
        help="compare every play of a GCG game with the best plays by equity",
        description=(
            "Replay a GCG game record and rank each play among every play of its position by static equity "
            "(score plus the value of the tiles kept, as the static bot plays): the best plays, the equity "
            "lost, missed bingos and phonies, then each player's totals. Turns whose rack the record does not "
            "show in full are listed but not analysed. Exit 2 when the file cannot be read or disagrees with "
            "the rules (the message names the line)."
        ),
    )
    analyze.add_argument("game", metavar="GAME.gcg", help="the game record")
    analyze.add_argument("--top", type=int, default=5, metavar="N", help="best plays to list per turn (default 5)")
    analyze.add_argument("--json", action="store_true", help="print one JSON document: the turns and the totals")
    analyze.add_argument("--lexicon", metavar="NAME|PATH", help="word list or .kwg file (default: kjxqz)")
    analyze.add_argument("--leaves", metavar="NAME|PATH", help="leave values: heuristic (default), .klv/.klv2 or a table")
    analyze.set_defaults(func=_cmd_analyze)


def _cmd_analyze(args: argparse.Namespace) -> int:
    import json

    from tilebag import gcg
    from tilebag.analysis import analyze_game
    from tilebag.leaves import DEFAULT_LEAVES, load_leaves
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


def _add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = sub.add_parser("play", help="play a game in the terminal")
    play.add_argument("players", nargs="*", metavar="NAME", help="player names, 1 to 4 seats with the bots (default: two players, or you alone against --bot)")
    play.add_argument("--seed", type=int, help="seed the bag, to replay the same draw")
    play.add_argument("--lexicon", metavar="NAME|PATH", help="word list that judges challenges (default: kjxqz)")
    play.add_argument("--save", metavar="FILE.gcg", help="write the game record here when the game ends or you quit")
    play.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="KIND",
        help="add a bot seat (beginner, greedy or static; repeat for more bots): `tilebag play --bot static` is you against it",
    )
    play.add_argument(
        "--resume",
        metavar="FILE.gcg",
        help="go on with a game saved unfinished (players and rules from the record; saved again to it)",
    )
    play.add_argument(
        "--practice",
        action="store_true",
        help="practice mode: hints, word lookups and a review of each move, whatever the rules",
    )
    screen = play.add_mutually_exclusive_group()
    screen.add_argument("--line", action="store_true", help="plain line mode, not full screen (the default when not in a terminal)")
    screen.add_argument("--full-screen", action="store_true", help="full screen even when it cannot tell the terminal is one")
    _add_rules_options(play)
    play.set_defaults(func=_cmd_play)


def _cmd_play(args: argparse.Namespace) -> int:
    from tilebag.play import main as play_main

    args.rules = rules_from_args(args)  # before anything starts: a bad option exits 2 here
    return play_main(args)


_RULES_METAVARS = {
    "rack_size": "N",
    "bingo_tiles": "N",
    "bingo_bonus": "POINTS",
    "min_first_word": "N",
    "challenge": "MODE",
    "scoreless_turns": "N",
    "exchange_min_bag": "N",
    "finish_level": "LEVEL",
    "finish_target": "POINTS",
    "finish_player_targets": "P,P,...",
    "anagram": "yes|no",
    "recycle": "yes|no",
    "blank_swap": "yes|no",
    "open_dictionary": "yes|no",
    "turn_time": "TIME",
    "game_clock": "TIME",
    "overtime_penalty": "POINTS",
}
"""Placeholders shown in ``--help`` for the rules options (others show VALUE)."""


def _add_rules_options(parser: argparse.ArgumentParser) -> None:
    """``--rules NAME`` and one flag per rules option (:data:`tilebag.rules.OPTIONS`),
    read back by :func:`rules_from_args`."""
    from tilebag.rules import OPTIONS

    group = parser.add_argument_group(
        "rules", "a preset (--rules) changed by any of the options below; `tilebag rules` lists both"
    )
    group.add_argument("--rules", default="standard", metavar="NAME", help="rules preset or alias (default: standard)")
    for option in OPTIONS.values():
        group.add_argument(
            f"--{option.flag}",
            dest=option.name,
            default=None,
            metavar=_RULES_METAVARS.get(option.name, "VALUE"),
            help=option.help,
        )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The preset named by ``--rules``, changed by every rules option given
    on the command line (see :func:`_add_rules_options`).

    >>> args = build_parser().parse_args(["selfplay", "--rules", "nine", "--challenge", "void"])
    >>> rules_from_args(args).describe()
    ['rack size 9', 'void challenge']

    :raises RulesError: for an unknown preset, a bad value (naming its
        flag) or options that conflict.
    """
    from tilebag.rules import OPTIONS, find_rules

    given = {
        option.flag: value for option in OPTIONS.values() if (value := getattr(args, option.name, None)) is not None
    }
    return find_rules(args.rules).with_options(given)


def _add_word(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    word = sub.add_parser(
        "word",
        help="judge words against a lexicon (exit 0 when all are acceptable)",
        description=(
            "Say for each WORD (any case) whether the lexicon accepts it. Exit 0 when all are acceptable, "
            "1 when any is not, 2 when a WORD holds a character that is not a letter of the tile set."
        ),
    )
    word.add_argument("words", nargs="+", metavar="WORD")
    word.add_argument("--lexicon", metavar="NAME|PATH", help="word list or .kwg file (default: kjxqz)")
    word.add_argument("--json", action="store_true", help='print JSON: [{"word": "QI", "acceptable": true}, ...]')
    word.set_defaults(func=_cmd_word)


def _cmd_word(args: argparse.Namespace) -> int:
    import json

    from tilebag.coach import word_letters
    from tilebag.lexicon import load_lexicon

    lexicon = load_lexicon(args.lexicon)
    alphabet = lexicon.alphabet
    letters = [word_letters(w, alphabet) for w in args.words]  # every word checked before any answer
    judged = [(alphabet.format_word(tiles), lexicon.contains_tiles(tiles)) for tiles in letters]
    if args.json:
        print(json.dumps([{"word": word, "acceptable": ok} for word, ok in judged]))
    else:
        for word, ok in judged:
            print(f"{word}: {'acceptable' if ok else 'not acceptable'} in {lexicon.name}")
    return 0 if all(ok for _, ok in judged) else 1


def _add_anagram(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    anagram = sub.add_parser(
        "anagram",
        help="the words a rack makes (? is a blank)",
        description=(
            "Print the words made of exactly the tiles of RACK (letters, ? for a blank), or with --build of any "
            "of them, grouped by length, longest first; a blank shows as the lower-case letter it stands for. "
            "Exit 0 when there are words, 1 when none, 2 for a RACK that is not 1 to 15 tiles of the tile set."
        ),
    )
    anagram.add_argument("rack", metavar="RACK", help="the tiles, e.g. AEINRS? (? is a blank)")
    anagram.add_argument("--build", action="store_true", help="also the words using only some of the tiles")
    anagram.add_argument(
        "--min-length", type=int, default=2, metavar="N", help="with --build, the shortest words to list (default 2)"
    )
    anagram.add_argument(
        "--plus", action="store_true", help="also the words of all the tiles and one more letter (through a board tile)"
    )
    anagram.add_argument("--lexicon", metavar="NAME|PATH", help="word list or .kwg file (default: kjxqz)")
    anagram.add_argument(
        "--json", action="store_true", help='print JSON: {"rack": ..., "words": [...], "plus": {"B": [...]}}'
    )
    anagram.set_defaults(func=_cmd_anagram)


def _cmd_anagram(args: argparse.Namespace) -> int:
    import json

    from tilebag import coach
    from tilebag.lexicon import load_lexicon

    lexicon = load_lexicon(args.lexicon)
    alphabet = lexicon.alphabet
    tiles = coach.parse_tiles(args.rack, alphabet)
    words = coach.anagrams(lexicon, tiles, build=args.build, min_length=args.min_length)
    plus = coach.through_bingos(lexicon, tiles) if args.plus else {}
    if args.json:
        print(json.dumps({"rack": alphabet.format_rack(tiles), "lexicon": lexicon.name, "words": words, "plus": plus}))
    elif not words and not plus:
        print(f"no words from {alphabet.format_rack(tiles)} in {lexicon.name}")
    else:
        for line in coach.labelled_lines(coach.group_by_length(words, alphabet)):
            print(line)
        for line in coach.labelled_lines({f"+{letter}": found for letter, found in plus.items()}):
            print(line)
    return 0 if words or plus else 1


def _add_hooks(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    hooks = sub.add_parser(
        "hooks",
        help="the letters that go before or after words",
        description=(
            "For each WORD, the letters that make a word put in front of it and at its end, one line per WORD: "
            "`front  word  back` (- for none, * after a WORD the lexicon does not accept). Exit 0 when some "
            "WORD has a hook, 1 when none has, 2 when a WORD is not made of letters of the tile set."
        ),
    )
    hooks.add_argument("words", nargs="+", metavar="WORD")
    hooks.add_argument("--words", dest="show_words", action="store_true", help="also list the hooked words")
    hooks.add_argument("--lexicon", metavar="NAME|PATH", help="word list or .kwg file (default: kjxqz)")
    hooks.add_argument(
        "--json",
        action="store_true",
        help='print JSON: [{"word", "acceptable", "front", "back", "front_words", "back_words"}, ...]',
    )
    hooks.set_defaults(func=_cmd_hooks)


def _cmd_hooks(args: argparse.Namespace) -> int:
    import json

    from tilebag import coach
    from tilebag.lexicon import load_lexicon

    lexicon = load_lexicon(args.lexicon)
    found = [coach.hooks(lexicon, coach.word_letters(w, lexicon.alphabet)) for w in args.words]
    if args.json:
        fields = [
            {
                "word": h.word,
                "acceptable": h.acceptable,
                "front": list(h.front),
                "back": list(h.back),
                "front_words": list(h.front_words),
                "back_words": list(h.back_words),
            }
            for h in found
        ]
        print(json.dumps(fields))
    else:
        for line in coach.format_hooks(found, words=args.show_words):
            print(line)
    return 0 if any(found) else 1


def _add_words(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    words = sub.add_parser(
        "words",
        help="word lists to study: two- and three-letter words, Q without U, words with a letter",
        description=(
            "List the lexicon's words of one length (--length 2), with a Q and no U (--q-without-u), or holding a "
            "letter (--containing J, with --without for letters to leave out); options combine. Words of one "
            "length are grouped by first letter, others by length. Exit 0 when there are words, 1 when none, "
            "2 for bad options."
        ),
    )
    words.add_argument("--length", type=int, metavar="N", help="only words of N letters")
    which = words.add_mutually_exclusive_group()
    which.add_argument("--q-without-u", action="store_true", help="words with a Q and no U")
    which.add_argument("--containing", metavar="LETTER", help="words holding this letter")
    words.add_argument("--without", default="", metavar="LETTERS", help="with --containing, leave out words with these")
    words.add_argument("--lexicon", metavar="NAME|PATH", help="word list or .kwg file (default: kjxqz)")
    words.add_argument("--json", action="store_true", help="print a JSON list of the words")
    words.set_defaults(func=_cmd_words)


def _cmd_words(args: argparse.Namespace) -> int:
    import json

    from tilebag import coach
    from tilebag.lexicon import load_lexicon

    if args.length is None and not args.q_without_u and args.containing is None:
        raise TilebagError("say which words: --length N, --q-without-u or --containing LETTER")
    if args.length is not None and args.length < 1:
        raise TilebagError(f"--length must be 1 or more, got {args.length}")
    if args.without and args.containing is None:
        raise TilebagError("--without goes with --containing LETTER")
    lexicon = load_lexicon(args.lexicon)
    alphabet = lexicon.alphabet
    if args.q_without_u:
        found = coach.q_without_u(lexicon)
    elif args.containing is not None:
        found = coach.words_containing(lexicon, args.containing, without=args.without)
    else:
        found = coach.short_words(lexicon, args.length)
    if args.length is not None:
        found = [word for word in found if len(alphabet.parse_word(word)) == args.length]
    if args.json:
        print(json.dumps(found))
    elif not found:
        print(f"no such words in {lexicon.name}")
    else:
        if args.length:
            lines = coach.labelled_lines(coach.group_by_first(found, alphabet))
        else:
            lines = coach.labelled_lines(coach.group_by_length(found, alphabet))
        print("\n".join(lines))
    return 0 if found else 1


def _add_lexicon(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    lexicon = sub.add_parser("lexicon", help="compile word lists into KWG word graphs and read them back")
    lexicon_sub = lexicon.add_subparsers(dest="lexicon_command", required=True, metavar="COMMAND")
    build = lexicon_sub.add_parser(
        "build",
        help="compile a word list into a .kwg word graph (DAWG and GADDAG)",
        description=(
            "Compile a word list (one word per line, any case, # comments, .gz read transparently) into a "
            "KWG file, the word-graph format of wolges and Macondo. Exit 2 naming the line of the first entry "
            "that is not a word."
        ),
    )
    build.add_argument("wordlist", metavar="WORDLIST", help="word list file")
    build.add_argument("-o", "--output", required=True, metavar="FILE.kwg", help="where to write the graph")
    build.add_argument(
        "--alphabet", default="english", type=alphabet_option, metavar="NAME|FILE", help="tile set of the words (default: english)"
    )
    build.add_argument(
        "--dawg-only", action="store_true", help="leave out the GADDAG (smaller; enough to list and check words)"
    )
    build.set_defaults(func=_cmd_lexicon_build)
    words = lexicon_sub.add_parser("words", help="print every word of a .kwg file, one per line, in tile order")
    words.add_argument("kwg", metavar="FILE.kwg")
    words.add_argument(
        "--alphabet", default="english", type=alphabet_option, metavar="NAME|FILE", help="tile set of the graph (default: english)"
    )
    words.set_defaults(func=_cmd_lexicon_words)
    info = lexicon_sub.add_parser("info", help="describe a .kwg file: nodes, words (by length), GADDAG or not")
    info.add_argument("kwg", metavar="FILE.kwg")
    info.set_defaults(func=_cmd_lexicon_info)


def _cmd_lexicon_build(args: argparse.Namespace) -> int:
    import time
    from pathlib import Path

    from tilebag.alphabet import load_alphabet
    from tilebag.kwg import Kwg
    from tilebag.lexicon import _encoder, _open_text, checked_words
    from tilebag.progress import Progress

    alphabet = load_alphabet(args.alphabet)
    started = time.perf_counter()
    try:
        lines, _ = _open_text(Path(args.wordlist))
    except OSError as err:
        raise FormatError(f"cannot read: {err.strerror or err}", source=args.wordlist) from None
    encode = _encoder(alphabet)
    one_letter: list[int] = []
    words = checked_words(lines, source=args.wordlist, alphabet=alphabet, one_letter=one_letter)
    if one_letter:
        print(
            f"note: {args.wordlist}: {len(one_letter)} one-letter word{'s' if len(one_letter) > 1 else ''} "
            f"skipped (no play forms one), the first on line {one_letter[0]}",
            file=sys.stderr,
        )
    keys = {key for key in map(encode, words) if key is not None}  # always encodes: checked_words made sure
    with Progress(0, f"compiling {args.wordlist}") as bar:

        def report(done: int, total: int) -> None:
            bar.total = total
            bar.update(done)

        kwg = Kwg.build(keys, gaddag=not args.dawg_only, progress=report)
    data = kwg.to_bytes()
    try:
        Path(args.output).write_bytes(data)
    except OSError as err:
        raise FormatError(f"cannot write: {err.strerror or err}", source=args.output) from None
    kind = "DAWG" if args.dawg_only else "DAWG+GADDAG"
    seconds = time.perf_counter() - started
    print(f"{args.output}: {len(keys)} words, {len(kwg)} nodes ({kind}), {len(data)} bytes, {seconds:.2f} s")
    return 0


def _load_kwg(path: str) -> Kwg:
    from tilebag.kwg import Kwg

    try:
        return Kwg.load(path)
    except OSError as err:
        raise FormatError(f"cannot read: {err.strerror or err}", source=path) from None


def _cmd_lexicon_words(args: argparse.Namespace) -> int:
    from tilebag.alphabet import load_alphabet

    alphabet = load_alphabet(args.alphabet)
    words = list(_load_kwg(args.kwg).words())
    top = max((max(word) for word in words), default=0)
    if top >= alphabet.size:
        raise FormatError(
            f"tile code {top} is not in the {alphabet.name} tile set (codes 1..{alphabet.size - 1}); "
            "is the graph for another --alphabet?",
            source=args.kwg,
        )
    label = alphabet.format_word
    sys.stdout.writelines(f"{label(word)}\n" for word in words)
    return 0


def _cmd_lexicon_info(args: argparse.Namespace) -> int:
    from collections import Counter

    kwg = _load_kwg(args.kwg)
    lengths = Counter(len(word) for word in kwg.words())
    print(f"file: {args.kwg}")
    print(f"nodes: {len(kwg)} ({4 * len(kwg)} bytes)")
    print(f"words: {lengths.total()}")
    print(f"lengths: {' '.join(f'{n}:{lengths[n]}' for n in sorted(lengths)) or '-'}")
    print(f"gaddag: {'yes' if kwg.has_gaddag else 'no (DAWG only)'}")
    return 0


def _add_moves(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    moves = sub.add_parser(
        "moves",
        help="list the legal plays of a position (CGP), best equity first",
        description=(
            "Print every legal placement for the player to move in a CGP position (or the N best by equity). "
            "With --cgp -, read one CGP per line from standard input. With --json, one JSON object per play: "
            '{"position": <0-based input line>, "pos": "8F", "word": "HORN", "score": 14, "leave": "AEI", '
            '"equity": 17.5}. Exit 2 when a position cannot be read (the message names the field).'
        ),
    )
    moves.add_argument("--cgp", required=True, metavar="CGP", help="the position, or - to read one per line from stdin")
    moves.add_argument("--lexicon", metavar="NAME|PATH", help="word list or .kwg file (default: kjxqz)")
    moves.add_argument("--leaves", metavar="NAME|PATH", help="leave values: heuristic (default), .klv/.klv2 or a table")
    moves.add_argument("--top", type=int, metavar="N", help="only the N best plays by equity")
    moves.add_argument("--json", action="store_true", help="one JSON object per line")
    moves.add_argument("--exchanges", action="store_true", help="also list every distinct exchange and the pass")
    moves.set_defaults(func=_cmd_moves)


def _cmd_moves(args: argparse.Namespace) -> int:
    from tilebag.commands import moves

    return moves(args)


def _add_selfplay(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    selfplay = sub.add_parser(
        "selfplay",
        help="bots play complete games against each other",
        description="Play N complete games between bots, write each as GCG, and print a summary.",
    )
    selfplay.add_argument("--games", type=int, default=10, metavar="N", help="number of games (default 10)")
    selfplay.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the first game (default 1)")
    selfplay.add_argument(
        "--players", default="static,greedy", metavar="KINDS", help="comma-separated bot kinds (default static,greedy)"
    )
    selfplay.add_argument("--out", metavar="DIR", help="write each game's GCG record into this folder")
    selfplay.add_argument("--json", action="store_true", help="print the summary as JSON")
    _add_rules_options(selfplay)
    selfplay.set_defaults(func=_cmd_selfplay)


def _cmd_selfplay(args: argparse.Namespace) -> int:
    from tilebag.commands import selfplay

    return selfplay(args)


def _add_bench(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bench = sub.add_parser("bench", help="measure the engine's speed")
    bench_sub = bench.add_subparsers(dest="bench_command", required=True, metavar="BENCHMARK")
    movegen = bench_sub.add_parser(
        "movegen", help="generate every play of each position in the built-in suite (52 positions)"
    )
    movegen.add_argument("--repeat", type=int, default=1, metavar="N", help="run the suite N times (default 1)")
    movegen.add_argument("--json", action="store_true", help="print one JSON object")
    movegen.add_argument("--core", choices=["python", "native"], help="measure one core only (default: both)")
    movegen.set_defaults(func=_cmd_bench_movegen)
    selfplay = bench_sub.add_parser("selfplay", help="time complete games between two static bots")
    selfplay.add_argument("--games", type=int, default=100, metavar="N", help="games to play (default 100)")
    selfplay.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    selfplay.add_argument("--json", action="store_true", help="print one JSON object")
    selfplay.add_argument(
        "--core", choices=["python", "native"], help="move generator core (default: the compiled one when built)"
    )
    selfplay.set_defaults(func=_cmd_bench_selfplay)


def _cmd_bench_selfplay(args: argparse.Namespace) -> int:
    from tilebag.commands import bench_selfplay

    return bench_selfplay(args)


def _cmd_bench_movegen(args: argparse.Namespace) -> int:
    from tilebag.commands import bench_movegen

    return bench_movegen(args)


def _add_rules(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rules = sub.add_parser(
        "rules",
        help="list the rules presets and options, or describe one preset",
        description=(
            "With no NAME, list every rules preset (with its aliases) and every option that changes one, as "
            "`tilebag play` and `tilebag selfplay` take them: `--rules nine-tile --challenge void`. With a "
            "preset's NAME, show how it differs from the standard rules. Exit 2 for an unknown NAME."
        ),
    )
    rules.add_argument("name", nargs="?", metavar="NAME", help="a preset or alias")
    rules.add_argument(
        "--json",
        action="store_true",
        help='print JSON: {"presets": [{"name", "help", "aliases", "options"}], "options": [{"flag", "help"}]}, '
        "or the one preset's object with NAME",
    )
    rules.set_defaults(func=_cmd_rules)


def _cmd_rules(args: argparse.Namespace) -> int:
    import json

    from tilebag.rules import ALIASES, OPTIONS, PRESET_HELP, PRESETS, find_rules

    def aliases(name: str) -> list[str]:
        return [alias for alias, target in ALIASES.items() if target == name]

    def preset_fields(name: str) -> dict[str, object]:
        return {
            "name": name,
            "help": PRESET_HELP.get(name, ""),
            "aliases": aliases(name),
            "options": PRESETS[name].describe(),
        }

    if args.name is not None:
        rules = find_rules(args.name)
        name = next(key for key, preset in PRESETS.items() if preset is rules)
        if args.json:
            print(json.dumps(preset_fields(name)))
            return 0
        also = f" (also {', '.join(aliases(name))})" if aliases(name) else ""
        print(f"{name}{also}: {PRESET_HELP.get(name, '')}")
        for line in PRESETS[name].describe() or ["the standard rules"]:
            print(f"  {line}")
        return 0
    if args.json:
        data = {
            "presets": [preset_fields(name) for name in PRESETS],
            "options": [{"flag": f"--{option.flag}", "help": option.help} for option in OPTIONS.values()],
        }
        print(json.dumps(data))
        return 0
    print("Presets (tilebag play --rules NAME; `tilebag rules NAME` shows one):")
    width = max(map(len, PRESETS))
    for name in PRESETS:
        also = f" (also {', '.join(aliases(name))})" if aliases(name) else ""
        print(f"  {name:<{width}}  {PRESET_HELP.get(name, '')}{also}")
    print()
    print("Options, each changing the preset (tilebag play --rules nine-tile --challenge void):")
    flags = {name: f"--{option.flag} {_RULES_METAVARS.get(name, 'VALUE')}" for name, option in OPTIONS.items()}
    width = max(map(len, flags.values()))
    for name, option in OPTIONS.items():
        print(f"  {flags[name]:<{width}}  {option.help}")
    return 0


def _add_info(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    info = sub.add_parser("info", help="show the version, the move generator core in use and where lexicons are cached")
    info.set_defaults(func=_cmd_info)


def _cmd_info(args: argparse.Namespace) -> int:
    from tilebag.lexicon import DEFAULT_LEXICON, cache_dir
    from tilebag.movegen import default_core, native_available

    print(f"tilebag {__version__} (Python {sys.version.split()[0]})")
    core = default_core()
    built = "built" if native_available() else "not built (no C compiler at install): using the pure-Python reference"
    print(f"move generator core: {core} (compiled core {built})")
    print(f"default lexicon: {DEFAULT_LEXICON}, compiled lexicons cached in {cache_dir()}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tilebag",
        description="The SCRABBLE crossword game: rules engine, game records and play.",
    )
    parser.add_argument("--version", action="version", version=f"tilebag {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_play(sub)
    _add_gcg(sub)
    _add_analyze(sub)
    _add_word(sub)
    _add_anagram(sub)
    _add_hooks(sub)
    _add_words(sub)
    _add_lexicon(sub)
    _add_moves(sub)
    _add_selfplay(sub)
    _add_bench(sub)
    _add_rules(sub)
    _add_info(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play", *(argv or [])])
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # a reader that went away shows here, not at interpreter exit
        return status
    except FormatError as err:
        print(f"tilebag: {err}", file=sys.stderr)
        return 2
    except TilebagError as err:
        print(f"tilebag: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``tilebag lexicon words X.kwg | head``): stop
        # quietly, and keep the interpreter's final flush from failing again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

