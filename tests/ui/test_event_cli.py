"""``tilebag event``: a club night run at the command line as a director
would (real processes on the default file in the current folder), a tsh
file out and back in, and every kind of bad input refused with a message
and exit status 2, never a traceback."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="tilebag event keeps events with the server extra's database libraries")

from tilebag.events import Game, Player, standings, tsh  # noqa: E402
from tilebag.events.sheets import standings_text  # noqa: E402
from tilebag.server.events import EventStore  # noqa: E402
from tilebag.server.store import Store  # noqa: E402
from tilebag.ui.cli import main  # noqa: E402


def event(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``tilebag event ARGS`` in a process of its own, in ``folder``."""
    return subprocess.run([sys.executable, "-m", "tilebag", "event", *args], cwd=folder, capture_output=True,
                          text=True, timeout=120, check=False)


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


BOARD = re.compile(r"^\s+\d+\*?\s")
NAMES = ["O'Brien & <Co>", "Bea", "Cal", "Dot", "Eli", "Fay"]
SCORES = {
    1: [(420, 380), (351, 402), (399, 398)],
    2: [(377, 390), (450, 301), (388, 410)],
    3: [(402, 333), (365, 366), (440, 391)],
}
"""Each round's scores, board by board: the first player's, then the second's."""


@pytest.mark.slow
def test_a_club_night_of_six_players_three_rounds(tmp_path: Path) -> None:
    """Six players, rounds paired swiss, swiss and king of the hill; one
    result corrected; the standings as text and the sheets as HTML. What the
    commands stored is what was typed: the standings printed are those the
    library computes from the results as entered. (Slow: 19 processes, each
    loading the database libraries and checking the schema.)"""
    assert ok(event(tmp_path, "new", "Tuesday club", "--rounds", "3", "--director", "Jo")) == (
        "event 1: Tuesday club (division A; 3 rounds; standard rules) in tilebag-events.db\n")
    assert (tmp_path / "tilebag-events.db").is_file()
    ok(event(tmp_path, "add", "tuesday club", NAMES[0], "--rating", "1850"))
    assert ok(event(tmp_path, "add", "1", *NAMES[1:])).splitlines() == [
        f"division A: #{i} {name}" for i, name in enumerate(NAMES[1:], start=2)]
    players = [Player(1, NAMES[0], rating=1850), *(Player(i, n) for i, n in enumerate(NAMES[1:], start=2))]
    games: list[Game] = []
    for number, method in [(1, "swiss"), (2, "swiss"), (3, "koth")]:
        shown = ok(event(tmp_path, "pair", "1", str(number), "--method", method, "--seed", "7"))
        boards = [tuple(map(int, re.findall(r"\(#(\d+)\)", line))) for line in shown.splitlines() if BOARD.match(line)]
        assert sorted(p for board in boards for p in board) == [1, 2, 3, 4, 5, 6], shown
        if method == "koth":  # 1 v 2, 3 v 4, 5 v 6 of the standings after round 2
            ranked = [s.player.id for s in standings(players, games)]
            assert [set(b) for b in boards] == [set(ranked[0:2]), set(ranked[2:4]), set(ranked[4:6])]
        assert "seed 7: the same command with --seed 7 pairs it the same way" in shown
        for (first, second), (score, other) in zip(boards, SCORES[number], strict=True):
            said = ok(event(tmp_path, "result", "1", str(number), str(first), str(score), str(other)))
            assert said.startswith(f"round {number}: ") and said.rstrip().endswith(" went first")
            games.append(Game(number, first, second, score, other))
    first, second = (games[3].a, games[3].b)
    assert second is not None
    refused = event(tmp_path, "result", "1", "2", str(second), "390", "377")
    assert refused.returncode == 2 and "has a result already" in refused.stderr and "Traceback" not in refused.stderr
    ok(event(tmp_path, "result", "1", "2", str(second), "410", "377", "--correct"))  # it was 410, not 390
    games[3] = Game(2, first, second, 377, 410)

    text = ok(event(tmp_path, "standings", "1"))
    table = standings(players, games)
    assert text == standings_text(table, title="Tuesday club: standings after round 3")
    assert sum(s.wins for s in table) == 9 and [s.rank for s in table] == [1, 2, 3, 4, 5, 6]

    ok(event(tmp_path, "standings", "1", "--html", "standings.html"))
    ok(event(tmp_path, "pairings", "1", "3", "--html", "round 3.html"))
    for sheet in ("standings.html", "round 3.html"):
        page = (tmp_path / sheet).read_text(encoding="utf-8")
        assert "@media print" in page and "<script" not in page and "<Co>" not in page
        assert "O&#x27;Brien &amp; &lt;Co&gt;" in page
    assert "Tuesday club: round 3 (king of the hill)" in (tmp_path / "round 3.html").read_text(encoding="utf-8")


def test_a_division_goes_to_tsh_and_back_at_the_command_line(tmp_path: Path) -> None:
    """An event with a bye, a forfeit, a late entry and a withdrawal,
    exported, imported as a new event and exported again: the same file,
    the same standings. A malformed file is refused, naming its line, and
    stores nothing."""
    database = tmp_path / "club.db"
    events = EventStore(Store(f"sqlite:///{database}"))
    club = events.create_event("Club", rounds=3).id
    events.add_players(club, None, [(n, r, None) for n, r in [("Chew, John", 1850), ("Smith, Ann", 1700), ("Jones, Bo", None)]])
    events.pair(club, None, 1, "swiss", seed=1)
    for board in events.pairings(club, None, 1):
        if board.b is not None:
            events.enter_result(club, None, 1, board.a, 410, 377)
    events.add_player(club, None, "Late, Lou")
    events.give_forfeit(club, None, 1, 4)
    events.withdraw(club, None, 1, from_round=3)
    events.pair(club, None, 2, "swiss", seed=2)
    db = ["--db", str(database)]
    assert ok(event(tmp_path, "export", "Club", "--tsh", "a.t", *db)) == "division A of Club: 4 players written to a.t\n"
    assert ok(event(tmp_path, "import", "a.t", "--name", "Copy", *db)) == (
        "event 2: Copy, division A: 4 players, 2 rounds from a.t\n")
    ok(event(tmp_path, "export", "Copy", "--tsh", "b.t", *db))
    written = (tmp_path / "a.t").read_text(encoding="utf-8")
    assert (tmp_path / "b.t").read_text(encoding="utf-8") == written
    assert tsh.loads(written) == events.division(club, None) == events.division(2, None)
    shown = ok(event(tmp_path, "standings", "Copy", "--text", *db))
    assert shown.splitlines()[1:] == standings_text(events.standings(club, None)).splitlines()[1:]

    (tmp_path / "bad.t").write_text("Chew, John 1850 2; 400\nSmith, Ann 1700 x; 380\n", encoding="utf-8")
    refused = event(tmp_path, "import", "bad.t", *db)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == "tilebag: bad.t:2: no rating after the name in 'Smith, Ann 1700 x'\n"
    assert [e.name for e in events.events()] == ["Club", "Copy"]


def test_an_event_in_the_database_is_rated_as_its_tsh_file_is(tmp_path: Path) -> None:
    """tilebag event ratings gives what tilebag ratings gives for the event's
    exported .t file: one rating, wherever the results are kept."""
    database = tmp_path / "club.db"
    events = EventStore(Store(f"sqlite:///{database}"))
    club = events.create_event("Club", rounds=2).id
    events.add_players(club, None, [(n, r, None) for n, r in [("Ann", 1850), ("Bo", 1700), ("Cy", 1500), ("Di", None)]])
    for number in (1, 2):
        events.pair(club, None, number, "swiss", seed=number)
        for board in events.pairings(club, None, number):
            events.enter_result(club, None, number, board.a, 400 + 10 * board.a, 390)
    db = ["--db", str(database)]
    from_database = run("event", "ratings", "Club", "--json", *db)
    assert from_database[0] == 0, from_database
    (tmp_path / "club.t").write_text(events.export_tsh(club, None), encoding="utf-8")
    from_file = run("ratings", str(tmp_path / "club.t"), "--json")
    assert from_file[0] == 0 and json.loads(from_database[1]) == json.loads(from_file[1])
    assert run("event", "ratings", "No such event", *db)[0] == 2


def run(*args: str) -> tuple[int, str, str]:
    """``tilebag ARGS`` in this process (fast: the bad input cases)."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def test_bad_input_is_refused_with_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, _, said = run("event", "standings", "1")
    assert status == 2 and "no events database at tilebag-events.db" in said
    assert not (tmp_path / "tilebag-events.db").exists()  # looking made no file
    assert run("event", "list") == (0, "no event in tilebag-events.db (there is no such file yet)\n", "")
    db = ["--db", str(tmp_path / "night.db")]
    assert run("event", "new", "Night", "--division", "A", "--division", "B", "--rounds", "2", *db)[0] == 0
    assert run("event", "add", "Night", "Ann", "Bob", "Cy", "--division", "a", *db)[0] == 0
    cases = [
        (["new", "Cup", "--rules", "chess"], "unknown rules 'chess'"),
        (["new", "Cup", "--challenge", "sometimes"], "challenge"),
        (["new", "Cup", "--rounds", "0"], "an event has 1 to 200 rounds, not 0"),
        (["add", "Nope", "Dan"], "there is no event 'Nope'"),
        (["add", "Night", "Dan"], "Night has divisions A, B: say which"),
        (["add", "Night", "Dan", "--division", "C"], "Night has no division 'C' (its divisions: A, B)"),
        (["add", "Night", "Dan", "Eve", "--rating", "1500", "--division", "A"], "--rating goes with one NAME"),
        (["add", "Night", "ann", "--division", "A"], "division A has a player named 'Ann' already (#1)"),
        (["withdraw", "Night", "Zed", "--division", "A"], "division A has no player 'Zed'"),
        (["pair", "Night", "2", "--method", "swiss", "--division", "A"], "round 1 is the next to pair, not round 2"),
        (["pair", "Night", "1", "--method", "dutch", "--division", "A"], "unknown pairing method 'dutch'"),
        (["pair", "Night", "1", "--method", "swiss", "--fixed", "1-2", "--division", "A"], "--fixed gives the pairs"),
        (["pair", "Night", "1", "--method", "fixed", "--fixed", "1-x", "--division", "A"], "'1-x' is not a pair"),
        (["pair", "Night", "1", "--method", "fixed", "--fixed", "1-2", "--division", "A"], "player 3 not paired"),
        (["pair", "Night", "1", "--method", "swiss", "--division", "B"], "division B has no players to pair"),
        (["pairings", "Night", "1", "--division", "A"], "division A: round 1 is not paired"),
        (["result", "Night", "1", "Ann", "400", "--division", "A"], "SCORE OPP_SCORE"),
        (["result", "Night", "1", "Ann", "4OO", "300", "--division", "A"], "the score '4OO' is not a whole number"),
        (["result", "Night", "1", "Ann", "400", "300", "--forfeit", "--division", "A"], "--forfeit takes no scores"),
        (["result", "Night", "1", "Ann", "400", "300", "--division", "A"], "division A: round 1 is not paired"),
        (["export", "Night", "--tsh", str(tmp_path / "no such folder" / "a.t"), "--division", "A"], "No such file"),
        (["import", str(tmp_path / "missing.t")], "missing.t: No such file or directory"),
    ]
    for args, message in cases:
        status, out, said = run("event", *args, *db)
        assert status == 2 and message in said and said.startswith("tilebag: ") and "Traceback" not in said, (args, said)
    assert run("event", "pair", "Night", "1", "--method", "australian", "--seed", "3", "--division", "A", *db)[0] == 0
    status, _, said = run("event", "result", "Night", "1", "3", "400", "300", "--division", "A", *db)
    byes = run("event", "pairings", "Night", "1", "--division", "A", *db)[1]
    assert ("has the bye in round 1" in said) == ("Bye: Cy (#3)" in byes)
    (tmp_path / "notes.txt").write_text("not a database, " * 100, encoding="utf-8")
    status, _, said = run("event", "new", "Cup", "--db", str(tmp_path / "notes.txt"))
    assert status == 2 and "file is not a database" in said and "Traceback" not in said
