"""Best-move analysis: ranks, equity lost, missed bingos, phonies, totals,
the live game left as it was, real records and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import SHARED_DATA, shared_gcg_files
from gamestate import fingerprint
from tilebag.engine.analysis.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    AnalysisError,
    Grade,
    PlayerTotals,
    TurnAnalysis,
    analyze_game,
    analyze_turn,
)
from tilebag.engine.equity import millipoints
from tilebag.engine.equity.leaves import DEFAULT_LEAVES, load_leaves
from tilebag.engine.equity.opening import OPENING_PENALTY, adjust_opening
from tilebag.engine.movegen.generator import native_available
from tilebag.engine.players import GreedyPlayer, StaticPlayer
from tilebag.errors import IllegalMoveError
from tilebag.formats import gcg
from tilebag.formats.replay import ReplayError
from tilebag.game import Game
from tilebag.lab.selfplay import play_game
from tilebag.lexicon import WordList
from tilebag.move import Move, MoveKind
from tilebag.record import EventKind
from tilebag.rules import ChallengeMode, find_rules
from tilebag.ui.cli import main

LEAVES = load_leaves(DEFAULT_LEAVES)


def opening(rack: str, seed: int = 1) -> Game:
    """A new game with the first player holding ``rack``."""
    game = Game(["alice", "bob"], seed=seed, first=0)
    game.set_rack(0, rack)
    return game


def turn_of(record_text: str, index: int = 0, **options: object) -> TurnAnalysis:
    return analyze_game(gcg.loads(record_text), **options).turns[index]  # type: ignore[arg-type]


# -- one position ---------------------------------------------------------


def test_a_weak_play_loses_the_difference_to_the_best_equity() -> None:
    game = opening("AEINRST")
    turn = analyze_turn(game, game.parse_move("8G STAIN"), leaves=LEAVES)
    plays = game.engine.generator.generate(
        game.board, game.rack(), leaves=LEAVES, bag_count=len(game.bag), exchanges=True
    )
    best = adjust_opening(plays, game.board.layout, game.alphabet, OPENING_PENALTY)[0]
    kept = game.alphabet.parse_rack("ER")
    assert turn.score == 10
    # the opening adjustment: the A on I8 sits beside the double letters of I7 and I9
    assert turn.equity == 10_000 + millipoints(LEAVES.value(kept)) - OPENING_PENALTY
    assert turn.best[0].equity == best.equity
    assert turn.equity_lost == best.equity - turn.equity
    assert turn.grade is Grade.BLUNDER
    assert turn.played is not None and turn.played.rank > 1 and turn.played.leave == "ER"
    assert not turn.found_best


def test_a_missed_bingo_is_reported_and_a_played_one_is_not() -> None:
    game = opening("AEINRST")
    weak = analyze_turn(game, game.parse_move("8G STAIN"))
    assert weak.missed_bingo and weak.bingos > 1
    assert weak.best_bingo is not None and weak.best_bingo.bingo and weak.best_bingo.score >= 50 + 14
    bingo = analyze_turn(game, game.parse_move(f"{weak.best_bingo.notation}"))
    assert bingo.bingo and not bingo.missed_bingo
    assert bingo.found_best and bingo.equity_lost == 0.0 and bingo.grade is Grade.GOOD
    assert bingo.better is None and bingo.summary().endswith(": the best play")
    assert weak.better == weak.best[0] and weak.summary().startswith("8G STAIN 10 (equity ")
    assert f": {weak.best[0].notation} 66 was " in weak.summary() and weak.summary().endswith("(blunder); missed bingo")


def test_no_bingo_on_a_rack_without_one() -> None:
    game = opening("QVVWWUU", seed=2)
    turn = analyze_turn(game, Move.exchange(game.alphabet.parse_rack("QVVWW")))
    assert turn.best_bingo is None and turn.bingos == 0 and not turn.missed_bingo
    assert turn.played is not None and turn.played.notation == "-QVVWW"


def test_exchanges_and_the_pass_are_ranked_while_the_bag_allows() -> None:
    game = opening("QVVWWUU", seed=2)
    turn = analyze_turn(game, Move.pass_(), top=50)
    kinds = {play.move.kind for play in turn.best}
    assert MoveKind.EXCHANGE in kinds
    assert turn.played is not None and turn.played.move == Move.pass_()
    assert turn.equity == millipoints(LEAVES.value(game.rack()))


def test_a_phony_is_reported_and_ranked_by_its_equity() -> None:
    game = opening("AEINRST")
    phony = game.parse_move("8D RAINEST")  # not a word: a phony, accepted on entry in double challenge
    turn = analyze_turn(game, phony)
    assert turn.phonies == ("RAINEST",)
    assert turn.played is not None and turn.played.equity == turn.best[0].equity  # as good as the best bingos
    assert turn.equity_lost == 0.0 and not turn.withdrawn
    assert all(play.move != phony for play in turn.best)
    withdrawn = analyze_turn(game, phony, withdrawn=True)
    assert withdrawn.withdrawn and withdrawn.equity == millipoints(LEAVES.value(game.rack()))
    assert withdrawn.equity_lost > BLUNDER and withdrawn.missed_bingo
    assert "phony: RAINEST (challenged off)" in "\n".join(withdrawn.lines())


def test_analysing_leaves_the_game_as_it_was() -> None:
    game = Game(["alice", "bob"], seed=5)
    bots = [StaticPlayer(), GreedyPlayer()]
    for _ in range(6):
        game.push(bots[game.turn].choose(game))
    game.lexicon  # noqa: B018 - loaded before the fingerprint, as any move would
    before = fingerprint(game)
    analyze_turn(game, bots[game.turn].choose(game))
    assert fingerprint(game) == before
    with pytest.raises(IllegalMoveError):
        analyze_turn(game, Move.place(7, 0, False, game.alphabet.parse_word("QQQQ")))
    assert fingerprint(game) == before
    with pytest.raises(ValueError, match="top must be at least 1"):
        analyze_turn(game, Move.pass_(), top=0)
    assert fingerprint(game) == before


def test_a_void_game_refuses_a_phony_unchanged() -> None:
    game = Game(["alice", "bob"], seed=1, first=0, rules=find_rules("standard").replace(challenge=ChallengeMode.VOID))
    game.set_rack(0, "AEINRST")
    before = fingerprint(game)
    with pytest.raises(IllegalMoveError, match="RAINEST"):
        analyze_turn(game, game.parse_move("8H RAINEST"))
    assert fingerprint(game) == before


# -- the equity bot loses nothing -----------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_the_static_bot_loses_no_equity_by_its_own_leave_values(seed: int) -> None:
    live: list[TurnAnalysis] = []

    def check(game: Game, move: Move) -> None:
        live.append(analyze_turn(game, move, leaves=LEAVES))

    bots = [StaticPlayer("static", leaves=LEAVES), GreedyPlayer("greedy")]
    game = play_game(bots, seed=seed, on_move=check)
    assert all(t.equity_lost == 0.0 and t.found_best for t in live if t.player == 0)
    assert sum(t.equity_lost for t in live if t.player == 1) > 0  # the greedy bot ignores its leave

    analysis = analyze_game(gcg.loads(gcg.dumps(game.record())), leaves=LEAVES)
    assert [t.analysed for t in analysis.turns] == [True] * len(live)
    assert [without_line(t) for t in analysis.turns] == [without_line(t) for t in live]
    static, greedy = analysis.totals()
    assert static.equity_lost == 0.0 and static.best_plays == static.analysed == static.turns
    assert static.mistake_score == 0 and static.bingos_missed == 0
    assert greedy.equity_lost == pytest.approx(sum(t.equity_lost for t in live if t.player == 1))


def without_line(turn: TurnAnalysis) -> dict[str, object]:
    """A turn's data but its record line (a live game has none)."""
    data = turn.to_dict()
    del data["line"]
    return data


# -- records --------------------------------------------------------------


def test_partial_and_missing_racks_are_listed_not_analysed() -> None:
    text = "#player1 a A\n#player2 b B\n>a: HNOR 8F HORN +14 14\n>b:  H6 FA.M +9 9\n>a: ABDEIST -7 +0 14\n"
    analysis = analyze_game(gcg.loads(text))
    partial, missing, counted = analysis.turns
    assert partial.skipped == "the record shows 4 of the 7 tiles of the rack" and partial.rack == "HNOR"
    assert missing.skipped == "the record does not show the rack" and missing.rack is None
    assert counted.skipped is not None and "number of tiles exchanged" in counted.skipped
    assert not any(t.analysed for t in analysis.turns)
    assert [t.score for t in analysis.turns] == [14, 9, 0]
    assert "not analysed, the record shows 4 of the 7 tiles" in analysis.report()
    totals = analysis.totals()[0]
    assert (totals.turns, totals.analysed, totals.equity_lost, totals.mean_equity_lost) == (2, 0, 0.0, 0.0)


def test_a_withdrawn_phony_from_a_record() -> None:
    game = opening("AEINRST")
    game.push(game.parse_move("8H RAINEST"))
    game.challenge()
    game.set_rack(1, "ADEHNOR")
    game.push(game.parse_move("8D HADRON"))
    record = game.record()
    assert [e.kind for e in record.events] == [EventKind.PLACE, EventKind.WITHDRAWN, EventKind.PLACE]
    first, second = analyze_game(gcg.loads(gcg.dumps(record))).turns
    assert first.withdrawn and first.phonies == ("RAINEST",) and first.missed_bingo
    assert first.grade is Grade.BLUNDER
    assert not second.withdrawn and second.number == 2
    totals = analyze_game(record).totals()[0]
    assert (totals.phonies, totals.phonies_withdrawn, totals.bingos_played, totals.bingos_missed) == (1, 1, 0, 1)


def test_recycles_and_time_outs_are_listed_not_analysed() -> None:
    rules = find_rules("recycle")
    bots = [StaticPlayer("static", leaves=LEAVES), GreedyPlayer("greedy")]
    game = play_game(bots, seed=3, rules=rules)
    analysis = analyze_game(gcg.loads(gcg.dumps(game.record())), leaves=LEAVES)
    recycles = [t for t in analysis.turns if t.move.kind is MoveKind.RECYCLE]
    assert recycles and all(t.skipped and "recycle starts the turn" in t.skipped for t in recycles)
    assert all(t.equity_lost == 0.0 for t in analysis.turns if t.player == 0)
    timed = Game(["alice", "bob"], seed=1, first=0, rules=find_rules("standard").replace(turn_time=60.0))
    timed.time_out()
    turn = analyze_game(timed.record()).turns[0]
    assert turn.skipped is not None and "turn timer ran out" in turn.skipped


def test_progress_is_reported_for_every_move() -> None:
    seen: list[tuple[int, int]] = []
    analyze_game(gcg.loads(GAME), progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 2), (2, 2)]


def test_records_in_another_tile_set_than_the_lexicon_are_refused() -> None:
    record = gcg.loads(GAME)
    record.alphabet = "polish"
    with pytest.raises(AnalysisError, match="polish tiles, the lexicon 'kjxqz' in english tiles"):
        analyze_game(record, source="x.gcg")


def test_a_record_that_breaks_the_rules_names_file_and_line() -> None:
    with pytest.raises(ReplayError, match=r"^x\.gcg:4: >bob: .*the rules give \+28"):
        analyze_game(gcg.loads(GAME.replace("+28 28", "+27 27")), source="x.gcg")


GAME = "#player1 alice Alice\n#player2 bob Bob\n>alice: AEINRST 8G STAIN +10 10\n>bob: ADEHNOR 9G HORN +28 28\n"


def test_totals_and_the_mistake_score() -> None:
    assert (Grade.of(INACCURACY - 1), Grade.of(INACCURACY), Grade.of(MISTAKE), Grade.of(BLUNDER)) == (
        Grade.GOOD,
        Grade.INACCURACY,
        Grade.MISTAKE,
        Grade.BLUNDER,
    )
    totals = PlayerTotals(0, "a", 10, 8, 80_000, 3, 2, 1, 1, 1, 1, 0, 0)
    assert totals.mistake_score == 2 * 1 + 1 * 3 + 1 * 6 and totals.mean_equity_lost == 10.0
    assert totals.to_dict()["mistake_score"] == 11
    analysis = analyze_game(gcg.loads(GAME))
    alice, bob = analysis.totals()
    assert (alice.blunders, alice.bingos_missed, alice.mistake_score) == (1, 1, 6)
    assert bob.best_plays == 0 and bob.equity_lost == analysis.turns[1].equity_lost


def test_json_holds_the_turns_and_the_totals() -> None:
    analysis = analyze_game(gcg.loads(GAME), top=3, source="g.gcg")
    data = json.loads(json.dumps(analysis.to_dict()))
    assert data["source"] == "g.gcg" and data["lexicon"] == "kjxqz" and data["top"] == 3
    first = data["turns"][0]
    assert first["move"] == "8G STAIN" and first["rack"] == "AEINRST" and first["grade"] == "blunder"
    assert len(first["best"]) == 3 and first["best"][0]["rank"] == 1 and first["best"][0]["bingo"] is True
    assert first["missed_bingo"] is True and first["best_bingo"]["score"] == 66
    assert [t["name"] for t in data["totals"]] == ["Alice", "Bob"]
    assert data["totals"][0]["mistake_score"] == 6


# -- real records ---------------------------------------------------------


def shared(name: str, shared_data: Path) -> Path:
    return shared_data / "gcg" / name


def test_golden_doug_v_emely(shared_data: Path) -> None:
    record = gcg.load(shared("gcgio_testdata_doug_v_emely_double_challenge.gcg", shared_data))
    analysis = analyze_game(record)
    turns = analysis.turns
    assert len(turns) == 26 and all(t.analysed for t in turns)  # doug's last pass, after emely went out, is no move
    donates = turns[4]
    assert (donates.notation, donates.score, donates.bingo, donates.found_best) == ("10B DONATES", 82, True, True)
    tilax = turns[5]
    assert tilax.phonies == ("TILAX",) and tilax.withdrawn and tilax.grade is Grade.BLUNDER
    assert tilax.best[0].notation == "6D L(E)Z"
    fu = turns[14]
    assert fu.notation == "B8 FU(D)" and fu.missed_bingo
    assert fu.best_bingo is not None and (fu.best_bingo.notation, fu.best_bingo.score) == ("7H REUNIFy", 71)
    doug, emely = analysis.totals()
    assert (doug.turns, emely.turns) == (13, 13)
    assert (doug.bingos_played, emely.bingos_played) == (2, 0)
    assert (doug.phonies, emely.phonies, emely.phonies_withdrawn) == (0, 1, 1)


def test_golden_worked_example_has_partial_racks(shared_data: Path) -> None:
    analysis = analyze_game(gcg.load(shared_data / "worked-example.gcg"))
    assert [t.notation for t in analysis.turns] == ["8F HORN", "H6 FA(R)M", "10F PASTE", "9H (M)OB", "11E BIT"]
    assert [t.score for t in analysis.turns] == [14, 9, 25, 16, 16]
    assert not any(t.analysed for t in analysis.turns)


SHARED_RECORDS = shared_gcg_files() or [
    pytest.param(None, marks=pytest.mark.skip(reason=f"shared game records not found at {SHARED_DATA}"))
]


@pytest.mark.parametrize("path", SHARED_RECORDS, ids=lambda p: p.stem if p else "none")
def test_every_shared_record_analyses_or_fails_cleanly(path: Path) -> None:
    if "polish" in path.name:  # the one Polish record, which says so in no pragma
        with pytest.raises(AnalysisError, match="polish tiles"):
            analyze_game(gcg.load(path, alphabet="polish"))
        return
    record = gcg.load(path)
    analysis = analyze_game(record, top=3)
    moves = [e for e in record.events if e.kind.is_turn or e.kind in (EventKind.RECYCLE, EventKind.BLANK_SWAP)]
    assert len(moves) - len(analysis.turns) in (0, 1)  # a last pass after going out is no move
    for turn in analysis.turns:
        if not turn.analysed:
            assert turn.skipped and turn.played is None
            continue
        assert turn.played is not None and turn.equity is not None
        assert 1 <= turn.played.rank <= turn.plays + 1 and turn.equity_lost >= 0.0
        assert [p.rank for p in turn.best] == list(range(1, len(turn.best) + 1))
        assert all(a.equity >= b.equity for a, b in zip(turn.best, turn.best[1:], strict=False))
        assert turn.found_best == (turn.equity_lost == 0.0)
    json.dumps(analysis.to_dict())
    assert analysis.report().count("\n") > len(analysis.turns)


@pytest.mark.skipif(not native_available(), reason="the compiled core is not built")
def test_both_cores_analyse_alike(shared_data: Path) -> None:
    record = gcg.load(shared("puzzles_testdata_well_played_game.gcg", shared_data))
    native = analyze_game(record, core="native").to_dict()
    python = analyze_game(record, core="python").to_dict()
    assert native == python


def test_a_small_lexicon_finds_only_its_words() -> None:
    lexicon = WordList(["STAIN", "SATIN", "SAINT", "AT", "TA"])
    analysis = analyze_game(gcg.loads(GAME.split(">bob")[0]), lexicon=lexicon, top=60)  # past the exchanges
    turn = analysis.turns[0]
    assert analysis.lexicon == lexicon.name and turn.best_bingo is None
    words = {p.notation.split()[1] for p in turn.best if p.move.is_place}
    assert words and words <= {"STAIN", "SATIN", "SAINT", "AT", "TA"}


# -- the command line -------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["analyze", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_text_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.gcg"
    path.write_text(GAME, encoding="utf-8")
    status, out, err = run(capsys, str(path), "--top", "2")
    assert status == 0 and err == ""  # no progress bar when stderr is not a terminal
    lines = out.splitlines()
    assert lines[0] == f"{path}: Alice v Bob"
    assert "  1. Alice  AEINRST" in lines
    assert any(line.startswith("     played 8G STAIN") and line.endswith("BLUNDER") for line in lines)
    assert any(line.startswith("     missed bingo: 8B ANESTRI 66") for line in lines)
    assert any(line.startswith("mistake score ") for line in lines)
    assert lines[-1] == "mistake score = inaccuracies + 3 x mistakes + 6 x blunders"


def test_cli_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.gcg"
    path.write_text(GAME, encoding="utf-8")
    status, out, _ = run(capsys, str(path), "--json", "--top", "1")
    data = json.loads(out)
    assert status == 0 and len(data["turns"]) == 2 and len(data["turns"][0]["best"]) == 1
    assert set(data) >= {"turns", "totals", "players", "lexicon", "leaves", "thresholds"}


def test_cli_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.gcg"
    status, out, err = run(capsys, str(missing))
    assert (status, out) == (2, "") and err.startswith(f"tilebag: {missing}: cannot read")
    bad = tmp_path / "bad.gcg"
    bad.write_text(GAME.replace("+28 28", "+27 27"), encoding="utf-8")
    status, _, err = run(capsys, str(bad))
    assert status == 2 and err.startswith(f"tilebag: {bad}:4: >bob: ADEHNOR 9G HORN +27 27: recorded score +27")
    malformed = tmp_path / "malformed.gcg"
    malformed.write_text(">alice: AEINRST 8G STAIN\n", encoding="utf-8")
    status, _, err = run(capsys, str(malformed))
    assert status == 2 and err.startswith(f"tilebag: {malformed}:1:")
    status, _, err = run(capsys, str(bad), "--top", "0")
    assert status == 2 and "--top must be at least 1" in err
