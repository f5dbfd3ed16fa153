"""``tilebag play``, ``tilebag rules`` and ``tilebag info``.
"""

from __future__ import annotations

import argparse
import sys

from tilebag import __version__
from tilebag.ui.cli_options import RULES_METAVARS, rules_from_args


def play(args: argparse.Namespace) -> int:
    from tilebag.ui.play import main as play_main

    args.rules = rules_from_args(args)  # before anything starts: a bad option exits 2 here
    return play_main(args)


def rules(args: argparse.Namespace) -> int:
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
    flags = {name: f"--{option.flag} {RULES_METAVARS.get(name, 'VALUE')}" for name, option in OPTIONS.items()}
    width = max(map(len, flags.values()))
    for name, option in OPTIONS.items():
        print(f"  {flags[name]:<{width}}  {option.help}")
    return 0


def info(args: argparse.Namespace) -> int:
    from tilebag.engine.movegen.generator import default_core, native_available
    from tilebag.lexicon import DEFAULT_LEXICON, cache_dir

    print(f"tilebag {__version__} (Python {sys.version.split()[0]})")
    core = default_core()
    built = "built" if native_available() else "not built (no C compiler at install): using the pure-Python reference"
    print(f"move generator core: {core} (compiled core {built})")
    print(f"default lexicon: {DEFAULT_LEXICON}, compiled lexicons cached in {cache_dir()}")
    return 0
