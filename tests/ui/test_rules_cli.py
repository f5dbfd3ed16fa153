"""``tilebag rules`` and the rules options of ``play`` and ``selfplay``, as real processes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tilebag.rules import ALIASES, OPTIONS, PRESET_HELP, PRESETS


def tilebag(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tilebag", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_rules_lists_every_preset_with_its_help_and_aliases_and_every_option() -> None:
    result = tilebag("rules")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for name, help_line in PRESET_HELP.items():
        assert any(line.split()[:1] == [name] and help_line in line for line in lines), name
    for alias in ALIASES:
        assert alias in result.stdout
    for option in OPTIONS.values():
        assert any(line.split()[:1] == [f"--{option.flag}"] and option.help in line for line in lines), option.flag


@pytest.mark.parametrize("name", ["nine-tile", "NINE"])
def test_rules_name_describes_the_preset(name: str) -> None:
    result = tilebag("rules", name)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("nine-tile")
    assert "rack size 9" in result.stdout


def test_rules_standard_is_the_standard_rules() -> None:
    result = tilebag("rules", "classic")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("standard")
    assert "the standard rules" in result.stdout


def test_rules_json() -> None:
    result = tilebag("rules", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [p["name"] for p in data["presets"]] == list(PRESETS)
    nine = next(p for p in data["presets"] if p["name"] == "nine-tile")
    assert nine == {
        "name": "nine-tile",
        "help": PRESET_HELP["nine-tile"],
        "aliases": ["9-tile", "nine"],
        "options": ["rack size 9"],
    }
    assert data["options"] == [{"flag": f"--{o.flag}", "help": o.help} for o in OPTIONS.values()]
    one = tilebag("rules", "club", "--json")
    assert one.returncode == 0, one.stderr
    assert json.loads(one.stdout) == next(p for p in data["presets"] if p["name"] == "tournament")


def test_rules_unknown_name_exits_2_listing_the_known_ones() -> None:
    result = tilebag("rules", "scrabble-deluxe")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("tilebag: ") and "scrabble-deluxe" in result.stderr
    assert all(name in result.stderr for name in PRESETS)


@pytest.mark.parametrize(
    "rules_args",
    [
        ["--rules", "nine-tile"],
        ["--rules", "standard", "--rack-size", "9"],
        ["--rules", "online", "--challenge", "single", "--turn-time", "3m", "--anagram", "no"],
    ],
)
def test_selfplay_with_rules_and_options(rules_args: list[str]) -> None:
    result = tilebag("selfplay", "--games", "1", *rules_args, "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 1 and len(summary["players"]) == 2


def test_nine_tile_racks_in_a_played_game() -> None:
    result = tilebag("play", "alice", "bob", "--seed", "5", "--rules", "standard", "--rack-size", "9", stdin="quit\n")
    assert result.returncode == 0, result.stderr
    assert "bob's rack: AEEFHINOR" in result.stdout  # nine tiles


@pytest.mark.parametrize(
    ("command", "options", "words"),
    [
        ("selfplay", ["--finish-level", "expert", "--finish-target", "300"], ["--finish-level", "--finish-target"]),
        ("play", ["--finish-level", "expert", "--finish-target", "300"], ["--finish-level", "--finish-target"]),
        ("selfplay", ["--overtime-penalty", "10"], ["--overtime-penalty", "--game-clock"]),
        ("selfplay", ["--rules", "speed", "--game-clock", "60"], ["--turn-time", "--game-clock"]),
        ("selfplay", ["--rack-size", "nine"], ["--rack-size", "'nine'"]),
        ("play", ["--rack-size", "nine"], ["--rack-size", "'nine'"]),
        ("selfplay", ["--anagram", "maybe"], ["--anagram", "yes or no"]),
        ("play", ["--challenge", "triple"], ["--challenge", "unknown challenge mode 'triple'"]),
        ("selfplay", ["--rules", "chaos", "--rack-size", "9"], ["unknown rules 'chaos'", "nine-tile"]),
    ],
)
def test_bad_rules_options_exit_2_before_anything_starts(command: str, options: list[str], words: list[str]) -> None:
    result = tilebag(command, *options, stdin="8F HORN\n")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("tilebag: ")
    for word in words:
        assert word in result.stderr
