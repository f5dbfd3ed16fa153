"""Checking records against the rules: golden games, altered records, each kind of disagreement."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from conftest import SHARED_DATA, shared_data_path
from tilebag import EventKind, Game, Move, WordList
from tilebag.formats import gcg, replay
from tilebag.formats.replay import ReplayError, Severity
from tilebag.rules import EndAdjustment, Rules

# Final scores of every shared record, as replayed (each checks clean). The
# figures are the records' own last running totals.
GOLDEN = {
    "gcgio_testdata_doug_v_emely.gcg": (28, [451, 345]),
    "gcgio_testdata_doug_v_emely_double_challenge.gcg": (29, [451, 345]),
    "gcgio_testdata_guy_vs_bot.gcg": (27, [454, 424]),
    "gcgio_testdata_guy_vs_bot_almost_complete.gcg": (25, [454, 398]),
    "gcgio_testdata_incomplete.gcg": (20, [336, 298]),
    "gcgio_testdata_incomplete4.gcg": (5, [117, 56]),
    "gcgio_testdata_incomplete_3.gcg": (20, [336, 298]),
    "gcgio_testdata_incomplete_elise.gcg": (20, [336, 298]),
    "gcgio_testdata_josh2.gcg": (34, [397, 291]),
    "gcgio_testdata_name_iso8859-1.gcg": (2, [32, 16]),
    "gcgio_testdata_name_utf8_noheader.gcg": (2, [32, 16]),
    "gcgio_testdata_name_utf8_with_header.gcg": (2, [32, 16]),
    "gcgio_testdata_name_weird_encoding_with_header.gcg": (2, [32, 16]),
    "gcgio_testdata_noah_vs_mishu.gcg": (36, [377, 388]),
    "gcgio_testdata_noah_vs_peter.gcg": (46, [471, 407]),
    "gcgio_testdata_polish_endgame.gcg": (53, [316, 323]),
    "gcgio_testdata_some_isc_game.gcg": (24, [364, 409]),
    "gcgio_testdata_utf8_dos.gcg": (24, [375, 488]),
    "gcgio_testdata_vs_andy.gcg": (27, [423, 363]),
    "gcgio_testdata_vs_frentz.gcg": (25, [439, 550]),
    "preendgame_testdata_issue_476.gcg": (32, [422, 443]),
    "puzzles_testdata_bingo_nine_or_above.gcg": (20, [601, 486]),
    "puzzles_testdata_cel_only.gcg": (24, [417, 368]),
    "puzzles_testdata_equity.gcg": (23, [454, 460]),
    "puzzles_testdata_only_bingo.gcg": (22, [461, 501]),
    "puzzles_testdata_phony_tiles_returned.gcg": (31, [512, 352]),
    "puzzles_testdata_well_played_game.gcg": (21, [470, 427]),
}


def load_shared(name: str) -> tuple[str, str | None]:
    path = shared_data_path() / "gcg" / name
    alphabet = "polish" if "polish" in name else None
    return gcg.decode(path.read_bytes()).text, alphabet


def check_text(text: str, alphabet: str | None = None, **options: object) -> replay.CheckReport:
    record = gcg.read_game(io.StringIO(text), alphabet=alphabet)
    assert record is not None
    return replay.check(record, **options)  # type: ignore[arg-type]


# -- golden: the worked example and real games ---------------------------------


def test_worked_example_scores(shared_data: Path) -> None:
    record = gcg.load(shared_data / "worked-example.gcg")
    report = replay.check(record)
    assert report.ok, [f.format() for f in report.findings]
    assert [e.score for e in record.events] == [14, 9, 25, 16, 16]
    assert report.game is not None and report.game.scores == [55, 25]


def test_shared_folder_holds_the_golden_games(shared_data: Path) -> None:
    assert sorted(p.name for p in (shared_data / "gcg").glob("*.gcg")) == sorted(GOLDEN)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_shared_record_checks_clean(name: str) -> None:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared game records not found at {SHARED_DATA}")
    events, scores = GOLDEN[name]
    path = SHARED_DATA / "gcg" / name
    record = gcg.load(path, alphabet="polish" if "polish" in name else None)
    report = replay.check(record, source=name)
    assert report.errors == [], [f.format(name) for f in report.errors]
    assert len(record.events) == events
    assert report.game is not None and report.game.scores == scores
    # The last recorded running total of each player is the final score.
    last = {e.player: e.total for e in record.events}
    if report.game.is_over():
        assert [last[i] for i in range(len(scores))] == scores


def test_polish_record_needs_its_tile_set(shared_data: Path) -> None:
    path = shared_data / "gcg" / "gcgio_testdata_polish_endgame.gcg"
    with pytest.raises(Exception, match="'Ć' is not a tile of the english tile set"):
        gcg.load(path)


def test_tournament_end_scoring_is_recognised(shared_data: Path) -> None:
    record = gcg.load(shared_data / "gcg" / "gcgio_testdata_doug_v_emely.gcg")
    assert replay.rules_for(record).end_adjustment is EndAdjustment.DOUBLE
    game = replay.replay(record)
    assert game.scores == [451, 345]  # doug keeps 451: tournament software does not subtract


def test_final_pass_after_going_out_is_accepted(shared_data: Path) -> None:
    record = gcg.load(shared_data / "gcg" / "gcgio_testdata_doug_v_emely_double_challenge.gcg")
    assert record.events[-2].kind is EventKind.PASS
    assert replay.check(record).ok


def test_phony_withdrawn_and_challenge_bonus(shared_data: Path) -> None:
    record = gcg.load(shared_data / "gcg" / "gcgio_testdata_josh2.gcg")
    kinds = [e.kind for e in record.events]
    assert kinds.count(EventKind.WITHDRAWN) == 1
    assert kinds.count(EventKind.CHALLENGE) == 4
    assert replay.check(record).ok


def test_time_penalty_after_the_end(shared_data: Path) -> None:
    record = gcg.load(shared_data / "gcg" / "preendgame_testdata_issue_476.gcg")
    assert record.events[-1].kind is EventKind.TIME_PENALTY
    game = replay.replay(record)
    assert game.scores == [422, 443]


# -- altered records fail at the altered line ---------------------------------------


def altered(text: str, line: int, transform) -> str:  # type: ignore[no-untyped-def]
    lines = text.split("\n")
    lines[line - 1] = transform(lines[line - 1])
    return "\n".join(lines)


def plus_one_score(line: str) -> str:
    tokens = line.split()
    tokens[-2] = f"{int(tokens[-2]) + 1:+d}"
    return " ".join(tokens)


def plus_one_total(line: str) -> str:
    tokens = line.split()
    tokens[-1] = str(int(tokens[-1]) + 1)
    return " ".join(tokens)


def plus_one_both(line: str) -> str:
    return plus_one_total(plus_one_score(line))


ALTERED_GAMES = [
    "gcgio_testdata_doug_v_emely.gcg",
    "gcgio_testdata_vs_frentz.gcg",
    # each alteration checks the whole record again: the longer records in the slow tier
    *(
        pytest.param(name, marks=pytest.mark.slow)
        for name in (
            "gcgio_testdata_josh2.gcg",
            "gcgio_testdata_noah_vs_peter.gcg",
            "gcgio_testdata_polish_endgame.gcg",
            "preendgame_testdata_issue_476.gcg",
            "puzzles_testdata_phony_tiles_returned.gcg",
        )
    ),
]


@pytest.mark.parametrize("name", ALTERED_GAMES)
@pytest.mark.parametrize("change", [plus_one_score, plus_one_total, plus_one_both], ids=["score", "total", "both"])
def test_every_altered_figure_fails_at_its_line(name: str, change) -> None:  # type: ignore[no-untyped-def]
    text, alphabet = load_shared(name)
    event_lines = [i + 1 for i, line in enumerate(text.split("\n")) if line.startswith(">")]
    for number in event_lines:
        report = check_text(altered(text, number, change), alphabet)
        assert report.errors, f"{name}:{number}: {change.__name__} not detected"
        assert report.errors[0].line == number, report.errors[0].format(name)


@pytest.mark.parametrize(
    ("name", "original", "replacement", "message"),
    [
        # Shifted one column: still a legal placement, but it scores 19.
        (
            "gcgio_testdata_doug_v_emely.gcg",
            ">doug: AEJNOSV E3 JAVE..N +34 66",
            ">doug: AEJNOSV F3 JAVE..N +34 66",
            "recorded score +34, the rules give +19 (JAVEENN 19)",
        ),
        # A letter the recorded rack does not hold: a warning; the score decides.
        (
            "gcgio_testdata_doug_v_emely.gcg",
            ">doug: DINNVWY 8D WINDY +32 32",
            ">doug: DINNVWY 8D WINDS +32 32",
            "recorded score +32, the rules give +26 (WINDS 26)",
        ),
        # Played through a square holding another letter.
        (
            "gcgio_testdata_doug_v_emely.gcg",
            ">doug: AEJNOSV E3 JAVE..N +34 66",
            ">doug: AEJNOSV E3 JAVE(LX)N +34 66",
            "illegal placement: E3 JAVE(LX)N: E8 holds I, but the play writes (X) for it",
        ),
        # Played through an empty square.
        (
            "gcgio_testdata_vs_andy.gcg",
            ">andy: EHTW 6G THEW +22 40",
            ">andy: EHTW 6G TH.W +22 40",
            "illegal placement: 6G TH.W: I6 is empty, but the word plays through it (leaves a gap)",
        ),
        # The first play moved off the centre square.
        (
            "gcgio_testdata_vs_andy.gcg",
            ">andy: GPY 8G GYP +18 18",
            ">andy: GPY 9G GYP +18 18",
            "illegal placement: 9G GYP: the first play must cover the start square H8",
        ),
        # The opponent's rack at the end is not what is left.
        (
            "gcgio_testdata_doug_v_emely.gcg",
            ">emely:  (OPEG) +14 345",
            ">emely:  (OPEX) +14 345",
            "recorded rack (EOPX), but the tiles left are (EGOP)",
        ),
        # An exchange with too few tiles in the bag.
        (
            "gcgio_testdata_noah_vs_peter.gcg",
            ">Noah: EINNOR C11 ...N +8 423",
            ">Noah: EINNOR -EI +0 415",
            "illegal exchange: -EI: exchanging needs at least 7 tiles in the bag, it holds 0",
        ),
        # A play after the game ended.
        (
            "gcgio_testdata_vs_andy.gcg",
            None,
            ">andy: DEINIR 5A DE +4 427",
            "the game is already over (andy wins 423-363 (cesar went out))",
        ),
    ],
)
def test_altered_placements_fail_with_the_reason(
    name: str, original: str | None, replacement: str, message: str
) -> None:
    text, alphabet = load_shared(name)
    lines = text.rstrip("\n").split("\n")
    if original is None:
        lines.append(replacement)
        number = len(lines)
    else:
        number = lines.index(original) + 1
        lines[number - 1] = replacement
    report = check_text("\n".join(lines) + "\n", alphabet)
    assert report.errors, f"not detected: {replacement}"
    first = report.errors[0]
    assert first.line == number, first.format(name)
    assert first.message == message, first.format(name)


# -- each kind of finding on small hand-made records -------------------------------------

HEAD = "#player1 a a\n#player2 b b\n"


def test_score_breakdown_in_the_message() -> None:
    report = check_text(HEAD + ">a: AEIRSTW 8H WAITERS +75 72\n")
    (error,) = report.errors
    assert error.message == "recorded score +75, the rules give +72 (WAITERS 22, bingo 50)"
    assert error.line == 3
    assert error.event == ">a: AEIRSTW 8H WAITERS +75 72"


def test_running_total_mismatch() -> None:
    report = check_text(HEAD + ">a: HNOR 8F HORN +14 15\n")
    assert [f.message for f in report.errors] == ["recorded running total 15, the rules give 14"]


def test_out_of_turn() -> None:
    report = check_text(HEAD + ">a: AB - +0 0\n>a: AB - +0 0\n")
    (error,) = report.errors
    assert error.message == "plays out of turn: it is b's turn"
    assert error.fatal


def test_playing_twice_after_a_placement_is_a_lost_challenge_turn() -> None:
    report = check_text(HEAD + ">a: HNOR 8F HORN +14 14\n>a: AFM H6 FA.M +9 23\n")
    assert report.ok
    assert report.game is not None
    assert [e.kind for e in report.game.events] == [EventKind.PLACE, EventKind.CHALLENGE, EventKind.PLACE]


def test_withdrawn_play_must_take_back_its_score() -> None:
    report = check_text(HEAD + ">a: HNOR 8F HORN +14 14\n>a: HNOR -- -15 -1\n")
    assert [f.message for f in report.errors] == [
        "recorded -15, withdrawing the play takes back -14",
        "recorded running total -1, the rules give 0",
    ]


def test_nothing_to_withdraw() -> None:
    report = check_text(HEAD + ">a: HNOR -- -14 -14\n")
    assert report.errors[0].message == "there is no play of a's to withdraw"


def test_rack_penalties_end_the_game_after_scoreless_turns() -> None:
    text = HEAD + "".join(f">{p}: - +0 0\n" for p in "abab") + ">a: AB (AB) -4 -4\n>b: CD (CD) -5 -5\n"
    report = check_text(text)
    assert report.ok, [f.format() for f in report.errors]
    assert report.game is not None and report.game.scores == [-4, -5]
    wrong = check_text(text.replace("(AB) -4 -4", "(AB) -5 -5"))
    assert wrong.errors[0].message == "recorded -5, the rack (AB) is worth 4"


def test_lexicon_lists_phonies_as_warnings() -> None:
    lexicon = WordList(["HORN"], name="tiny")
    report = check_text(HEAD + ">a: HNOR 8F HORN +14 14\n>b: AFM H6 FA.M +9 9\n", lexicon=lexicon)
    assert report.ok
    (warning,) = report.warnings
    assert warning.severity is Severity.WARNING
    assert warning.message == "not in tiny: FARM"
    assert warning.format("x.gcg") == "x.gcg:4: >b: AFM H6 FA.M +9 9: warning: not in tiny: FARM"


def test_time_penalty_steps() -> None:
    report = check_text(HEAD + ">a: AB (time) -7 -7\n")
    assert "a penalty takes away 5 or 10 points per minute over" in report.errors[0].message


def test_challenge_bonus_values() -> None:
    report = check_text(HEAD + ">a: HNOR 8F HORN +14 14\n>a: (challenge) +6 20\n")
    assert report.errors[0].message.startswith("recorded challenge bonus +6, a bonus is 5 or 10 points")


def test_replay_raises_at_the_first_disagreement() -> None:
    record = gcg.loads(HEAD + ">a: HNOR 8F HORN +15 15\n", source="g.gcg")
    with pytest.raises(ReplayError) as info:
        replay.replay(record)
    assert str(info.value).startswith("<record>:3: >a: HNOR 8F HORN +15 15: recorded score +15")


# -- tilebag's own games check clean ---------------------------------------------------------


@pytest.mark.parametrize("adjustment", list(EndAdjustment))
def test_own_games_check_clean_under_both_end_scorings(adjustment: EndAdjustment) -> None:
    game = Game(["alice", "bob"], rules=Rules(end_adjustment=adjustment), seed=11, first=0)
    game.set_rack(0, "HNOR")
    game.push_gcg("8F HORN")
    game.set_rack(1, "AFM")
    game.push_gcg("H6 FA.M")
    while not game.is_over():
        game.push(Move.pass_())
    record = game.record()
    report = replay.check(gcg.loads(gcg.dumps(record)))
    assert report.ok, [f.format() for f in report.findings]
    assert report.game is not None and report.game.scores == game.scores
