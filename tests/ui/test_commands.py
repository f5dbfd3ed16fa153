"""``tilebag moves``, ``tilebag selfplay`` and ``tilebag bench`` as real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tilebag.board import Board
from tilebag.engine.movegen.generator import MoveGenerator, native_available
from tilebag.formats import cgp, gcg, replay
from tilebag.lab.bench import bag_count, load_suite
from tilebag.lexicon import default_lexicon

EMPTY = "/".join(["15"] * 15)


def tilebag(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tilebag", *args], input=stdin, capture_output=True, text=True, timeout=300
    )


def test_moves_json_lists_every_placement_with_the_agreed_fields() -> None:
    result = tilebag("moves", "--cgp", f"{EMPTY} HORNAEI/ 0/0 0 lex kjxqz;", "--json")
    assert result.returncode == 0, result.stderr
    plays = [json.loads(line) for line in result.stdout.splitlines()]
    assert plays and all(set(p) == {"position", "pos", "word", "score", "leave", "equity"} for p in plays)
    assert {p["position"] for p in plays} == {0}
    # the same list as the library gives, and no exchanges or pass without --exchanges
    lexicon = default_lexicon()
    board = Board()
    expected = MoveGenerator(lexicon.kwg).placements(board, board.alphabet.parse_rack("HORNAEI"))
    assert len(plays) == len(expected)
    assert {(p["pos"], p["word"], p["score"]) for p in plays} == {
        (board.layout.position_name(m.row, m.col, m.down), board.word_text(m), s) for m, s in expected
    }
    assert [p["equity"] for p in plays] == sorted((p["equity"] for p in plays), reverse=True)
    heroin = [p for p in plays if p["word"] == "HEROIN" and p["pos"] == "8D"]
    assert heroin == [{"position": 0, "pos": "8D", "word": "HEROIN", "score": 26, "leave": "A", "equity": heroin[0]["equity"]}]


def test_moves_reports_played_through_letters_and_blanks_in_the_word() -> None:
    rows = ["15"] * 15
    rows[7] = "5HORN6"
    position = "/".join(rows) + " ?SAT/ 14/0 0"
    result = tilebag("moves", "--cgp", position, "--json")
    assert result.returncode == 0, result.stderr
    words = {(p["pos"], p["word"]) for p in map(json.loads, result.stdout.splitlines())}
    assert ("8F", "HORNS") in words  # whole word, played-through letters included
    assert ("8F", "HORNs") in words  # a blank is lower case
    assert any(pos[0].isalpha() for pos, _ in words)  # column first: a down play


def test_moves_reads_many_positions_from_stdin_and_names_a_bad_field() -> None:
    good = f"{EMPTY} QI/ 0/0 0"
    lines = "\n".join([good, "15/15 AB/ 0/0 0", "", good]) + "\n"
    result = tilebag("moves", "--cgp", "-", "--json", "--top", "1", stdin=lines)
    assert result.returncode == 2
    assert "position 1" in result.stderr and "board" in result.stderr
    positions = [json.loads(line)["position"] for line in result.stdout.splitlines()]
    assert positions == [0, 3]


@pytest.mark.slow
def test_moves_exchanges_only_when_asked() -> None:
    position = f"{EMPTY} QVVWWXZ/ 0/0 0"
    plain = tilebag("moves", "--cgp", position, "--json")
    assert all("kind" not in json.loads(line) for line in plain.stdout.splitlines())
    full = tilebag("moves", "--cgp", position, "--json", "--exchanges")
    kinds = [json.loads(line).get("kind", "place") for line in full.stdout.splitlines()]
    assert kinds.count("pass") == 1 and kinds.count("exchange") == 2 * 3 * 3 * 2 * 2 - 1


def test_moves_malformed_cgp_exits_2() -> None:
    result = tilebag("moves", "--cgp", f"{EMPTY} AB/ 0/0/0 0")
    assert result.returncode == 2
    assert "scores" in result.stderr


def test_selfplay_writes_records_that_check_clean(tmp_path: Path) -> None:
    result = tilebag("selfplay", "--games", "2", "--seed", "7", "--players", "static,greedy", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "static:" in result.stdout and "greedy:" in result.stdout and "95% interval" in result.stdout
    records = sorted(tmp_path.glob("*.gcg"))
    assert len(records) == 2
    for path in records:
        report = replay.check(gcg.load(path))
        assert not report.errors, report.errors
        assert report.game is not None and report.game.is_over()
    check = tilebag("gcg", "check", *map(str, records))
    assert check.returncode == 0, check.stdout + check.stderr


def test_selfplay_refuses_unknown_bots() -> None:
    result = tilebag("selfplay", "--games", "1", "--players", "static,genius")
    assert result.returncode == 2
    assert "genius" in result.stderr and "greedy" in result.stderr


def test_bench_suite_covers_the_kinds_of_position() -> None:
    suite = load_suite()
    assert len(suite) >= 50
    assert sum(p.board.is_empty() for p in suite) >= 10
    assert sum(0 in p.rack for p in suite) >= 10
    assert sum(bag_count(p) <= 7 and not p.board.is_empty() for p in suite) >= 10
    for position in suite:
        assert cgp.parse(cgp.dumps(position)) == position


@pytest.mark.slow
def test_bench_movegen_json() -> None:
    result = tilebag("bench", "movegen", "--json")
    assert result.returncode == 0, result.stderr
    everything = json.loads(result.stdout)
    data = everything["python"]
    if native_available():
        assert everything["native"]["plays"] == data["plays"]
        assert everything["ratio"] > 1
    assert data["positions"] == len(load_suite())
    assert data["plays"] > 10_000
    assert data["positions_per_second"] > 0 and data["median_ms"] > 0 and data["peak_rss_mb"] > 0


def test_bench_selfplay_json() -> None:
    result = tilebag("bench", "selfplay", "--games", "3", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 3
    assert data["core"] == ("native" if native_available() else "python")
    assert data["ms_per_game"] > 0
    assert 0 < data["rss_start_mb"] <= data["rss_end_mb"] * 2


def test_bench_selfplay_refuses_no_games() -> None:
    result = tilebag("bench", "selfplay", "--games", "0")
    assert result.returncode == 2
    assert "--games must be at least 1" in result.stderr


def test_info_names_the_core_in_use() -> None:
    result = tilebag("info")
    assert result.returncode == 0, result.stderr
    expected = "native" if native_available() else "python"
    assert f"move generator core: {expected}" in result.stdout
    forced = subprocess.run(
        [sys.executable, "-m", "tilebag", "info"],
        capture_output=True,
        text=True,
        env={**os.environ, "TILEBAG_CORE": "python"},
        timeout=60,
    )
    assert "move generator core: python" in forced.stdout


def test_game_legal_moves_are_the_plays_tilebag_moves_lists() -> None:
    """Game.legal_moves against the moves command, on positions of seeded
    games the bench suite does not hold: the same placements, exchanges and
    pass, and ``in`` agrees with the list."""
    from tilebag import Game, Move
    from tilebag.engine.players import GreedyPlayer, StaticPlayer

    positions: list[tuple[Game, str]] = []
    for seed in (4242, 4243, 4244, 4245):
        game = Game(["a", "b"], seed=seed)
        bots = [StaticPlayer("a"), GreedyPlayer("b")]
        stop = 3 + seed % 9
        while not game.is_over() and len(game.events) < stop:
            game.push(bots[game.turn].choose(game))
        if game.is_over():
            continue
        me, other = game.turn, 1 - game.turn
        position = cgp.position_from(
            game.board, [game.rack(me), game.rack(other)], [game.scores[me], game.scores[other]],
            zero_turns=game.scoreless, lex="kjxqz",
        )
        positions.append((game, cgp.dumps(position)))
    assert len(positions) >= 3
    result = tilebag("moves", "--cgp", "-", "--json", "--exchanges", stdin="\n".join(text for _, text in positions) + "\n")
    assert result.returncode == 0, result.stderr
    listed: dict[int, set[tuple[str, str]]] = {}
    for play in map(json.loads, result.stdout.splitlines()):
        listed.setdefault(play["position"], set()).add((play["pos"], play["word"]))
    for index, (game, _) in enumerate(positions):
        board, alphabet = game.board, game.alphabet
        legal = game.legal_moves
        mine = set()
        for move in legal:
            if move.is_place:
                mine.add((board.layout.position_name(move.row, move.col, move.down), board.word_text(move)))
            else:
                mine.add(("-", alphabet.format_rack(move.tiles)))
        assert mine == listed[index]
        assert len(legal) == legal.count() == len(listed[index])
        assert all(move in legal for move in list(legal)[:50])
        assert Move.from_gcg("8A ZZZZZZZ") not in legal
