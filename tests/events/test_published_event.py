"""Golden test against a real event: 26 players, 23 rounds, February 2023,
run with tsh (see tests/events/data/README.md for where the data comes from).

- standings after round 12 (rank, wins, losses, spread) against the standings
  printed in the source repository's ``dallas_open_results.txt``;
- the final ranks against tsh's own ``rrank`` (rank after each round);
- NASPA ratings (two segments, as NASPA rates a 23-round event, with each
  player's ``lifeg``) against tsh's final ``newr``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tilebag.events import tsh
from tilebag.events.naspa import RatedPlayer, naspa_segments, rate_event
from tilebag.events.standings import standings

DATA = Path(__file__).parent / "data"
EVENT = DATA / "cop-2023-02-a.t"
PUBLISHED = DATA / "cop-2023-02-published.json"

pytestmark = pytest.mark.skipif(
    not (EVENT.is_file() and PUBLISHED.is_file()), reason="published event data files are absent"
)


@pytest.fixture(scope="module")
def division() -> tsh.Division:
    return tsh.loads(EVENT.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def published() -> dict:
    return json.loads(PUBLISHED.read_text(encoding="utf-8"))


def _display(name: str) -> str:
    """tsh's "Last, First" as the published standings print it: "First Last"."""
    last, first = name.split(", ", 1)
    return f"{first} {last}"


def test_file_shape(division: tsh.Division, published: dict) -> None:
    assert len(division.players) == 26
    assert max(g.round for g in division.results) == 23
    assert [p.name for p in division.players] == [row["name"] for row in published["final"]]


def test_standings_after_round_12(division: tsh.Division, published: dict) -> None:
    table = standings(division.players, division.results, through_round=12)
    got = [(s.rank, _display(s.player.name), s.wins, s.losses, s.spread) for s in table]
    want = [(r["rank"], r["name"], r["wins"], 12 - r["wins"], r["spread"]) for r in published["standings_after_round_12"]]
    assert got == want


def test_final_ranks(division: tsh.Division, published: dict) -> None:
    table = {s.player.name: s for s in standings(division.players, division.results)}
    checked = 0
    for row in published["final"]:
        if row["tsh_final_rank"] is None:  # withdrawn: tsh stopped ranking her after round 20
            continue
        assert table[row["name"]].rank == row["tsh_final_rank"], row["name"]
        checked += 1
    assert checked == 25
    # every game and forfeit is counted: 23 results for everyone
    assert all(s.wins + s.losses == 23 for s in table.values())


def test_naspa_ratings_match_tsh(division: tsh.Division, published: dict) -> None:
    by_name = {row["name"]: row for row in published["final"]}
    players = [RatedPlayer(p, by_name[p.name]["lifeg"]) for p in division.players]
    assert naspa_segments(23) == 2
    rated = rate_event(players, division.results, segments=naspa_segments(23))
    got = {r.player.name: (r.old, r.new) for r in rated}
    want = {row["name"]: (row["old"], row["tsh_new_rating"]) for row in published["final"]}
    assert got == want
