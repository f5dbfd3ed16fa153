"""The word tools of ``tilebag``: ``word``, ``anagram``, ``hooks`` and
``words`` (:mod:`tilebag.engine.coaching.word_lists` does the work).
"""

from __future__ import annotations

import argparse

from tilebag.errors import TilebagError


def word(args: argparse.Namespace) -> int:
    import json

    from tilebag.engine.coaching.word_lists import word_letters
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


def anagram(args: argparse.Namespace) -> int:
    import json

    from tilebag.engine.coaching import word_lists
    from tilebag.lexicon import load_lexicon

    lexicon = load_lexicon(args.lexicon)
    alphabet = lexicon.alphabet
    tiles = word_lists.parse_tiles(args.rack, alphabet)
    words = word_lists.anagrams(lexicon, tiles, build=args.build, min_length=args.min_length)
    plus = word_lists.through_bingos(lexicon, tiles) if args.plus else {}
    if args.json:
        print(json.dumps({"rack": alphabet.format_rack(tiles), "lexicon": lexicon.name, "words": words, "plus": plus}))
    elif not words and not plus:
        print(f"no words from {alphabet.format_rack(tiles)} in {lexicon.name}")
    else:
        for line in word_lists.labelled_lines(word_lists.group_by_length(words, alphabet)):
            print(line)
        for line in word_lists.labelled_lines({f"+{letter}": found for letter, found in plus.items()}):
            print(line)
    return 0 if words or plus else 1


def hooks(args: argparse.Namespace) -> int:
    import json

    from tilebag.engine.coaching import word_lists
    from tilebag.lexicon import load_lexicon

    lexicon = load_lexicon(args.lexicon)
    found = [word_lists.hooks(lexicon, word_lists.word_letters(w, lexicon.alphabet)) for w in args.words]
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
        for line in word_lists.format_hooks(found, words=args.show_words):
            print(line)
    return 0 if any(found) else 1


def words(args: argparse.Namespace) -> int:
    import json

    from tilebag.engine.coaching import word_lists
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
        found = word_lists.q_without_u(lexicon)
    elif args.containing is not None:
        found = word_lists.words_containing(lexicon, args.containing, without=args.without)
    else:
        found = word_lists.short_words(lexicon, args.length)
    if args.length is not None:
        found = [word for word in found if len(alphabet.parse_word(word)) == args.length]
    if args.json:
        print(json.dumps(found))
    elif not found:
        print(f"no such words in {lexicon.name}")
    else:
        if args.length:
            lines = word_lists.labelled_lines(word_lists.group_by_first(found, alphabet))
        else:
            lines = word_lists.labelled_lines(word_lists.group_by_length(found, alphabet))
        print("\n".join(lines))
    return 0 if found else 1
