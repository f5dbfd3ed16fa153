"""tsh ``.t`` files: a round trip from players and results to text and back,
a file in tsh's own style, and malformed input refused with its line."""

from __future__ import annotations

import builtins
import io
import os
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilebag.errors import FormatError
from tilebag.events import tsh
from tilebag.events.pairing import Pairing
from tilebag.events.standings import Game, Player, standings
from tilebag.events.tsh import Division, TshError, dumps, load, loads

SAMPLE = """\
# Division A, written in tsh's style (fields sorted, names padded)
Abbott, Ann               1812 4 2 0; 412 388 -50; board 1 2; class A; newr 1820 1815 1790; off -50; p12 1 2 0
Baker, Bo                 1650 3 1 4; 377 401 455; board 2 2 1; class B; p12 2 1 1
Carter, Cy                   0 2 4 0; 360 390 50; board 2 1; class C; p12 1 2 0

Díaz, Dé                  1500 1 3 2; 402 371 380; board 1 1 1; class C; p12 2 1 2
"""


def test_a_file_in_tshs_style() -> None:
    """Round 1: Ann 412 Di 402, Bo 377 Cy 360. Round 2: Bo 401 Ann 388, Cy
    390 Di 371. Round 3: Ann is off (a forfeit loss of 50), Bo 455 Di 380,
    Cy has a bye. Ann has 3 rounds listed and ``off``: withdrawn from round 4."""
    division = loads(SAMPLE)
    ann, bo, cy, di = division.players
    assert ann == Player(1, "Abbott, Ann", rating=1812, withdrawn=4)
    assert cy == Player(3, "Carter, Cy")
    assert di.name == "Díaz, Dé" and bo.rating == 1650
    assert set(division.results) == {
        Game(1, 1, 4, 412, 402, first=1),
        Game(1, 2, 3, 377, 360, first=3),
        Game(2, 1, 2, 388, 401, first=2),
        Game(2, 3, 4, 390, 371, first=4),
        Game.forfeit_loss(3, 1),
        Game(3, 2, 4, 455, 380, first=2),
        Game.bye(3, 3),
    }
    assert division.pending == ()
    assert division.extra[1] == {"board": "1 2", "class": "A", "newr": "1820 1815 1790"}
    table = standings(division.players, division.results)
    assert [(s.player.name, s.record, s.spread) for s in table] == [
        ("Baker, Bo", "3-0", 105),
        ("Carter, Cy", "2-1", 52),
        ("Abbott, Ann", "1-2", -53),
        ("Díaz, Dé", "0-3", -104),
    ]
    again = loads(dumps(division))
    assert again == division
    assert dumps(again) == dumps(division)
    # tilebag writes the withdrawal itself (off 0, withdrawn 4): the forfeit
    # loss of round 3 is a result, and the fields are in tsh's sorted order
    assert dumps(division).splitlines()[0] == (
        "Abbott, Ann              1812 4 2 0; 412 388 -50; board 1 2; class A; newr 1820 1815 1790; off 0; p12 1 2 0; withdrawn 4"
    )


def test_pending_pairings_round_trip() -> None:
    text = "Ann 1500 2 3; 400\nBob 1400 1 0; 350\nCy 1300 0 1; 50; p12 0 2\n"
    division = loads(text)
    assert division.results == (Game(1, 1, 2, 400, 350), Game.bye(1, 3))
    assert set(division.pending) == {Pairing(2, 1, 3, first=1), Pairing(2, 2)}
    assert loads(dumps(division)) == division


def test_comments_blank_lines_crlf_and_a_byte_order_mark() -> None:
    division = loads("\ufeff# a comment\r\n\r\n  Ann  Lee   1500 ;\r\nBob 0;\r\n")
    assert [(p.id, p.name, p.rating) for p in division.players] == [(1, "Ann  Lee", 1500), (2, "Bob", None)]
    assert division.results == () and division.pending == ()


def test_a_round_with_neither_opponent_nor_score_is_no_game() -> None:
    """Opponent 0 with score 0: a late entry's missed round, say."""
    division = loads("Ann 1500 0 2; 0 400; joined 2\nBob 1400 0 1; 0 380\n")
    assert division.players[0].joined == 2
    assert division.results == (Game(2, 1, 2, 400, 380),)
    assert loads(dumps(division)) == division


def test_forfeits_with_an_opponent_round_trip() -> None:
    players = (Player(1, "Ann"), Player(2, "Bob"))
    division = Division(players, (Game.forfeit_loss(1, 2, opponent=1), Game(2, 1, 2, 300, 400, first=2)))
    text = dumps(division)
    assert "forfeit 1 0" in text
    assert loads(text) == division


NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéßØ'-.", min_size=1, max_size=8)


@st.composite
def divisions(draw: st.DrawFn) -> Division:
    count = draw(st.integers(0, 8))
    players = []
    for i in range(1, count + 1):
        last, first = draw(NAME), draw(NAME)
        name = draw(st.sampled_from([f"{last}, {first}", last, f"{last} {first}"]))
        joined = draw(st.integers(1, 3))
        withdrawn = draw(st.none() | st.integers(joined, 7))
        rating = draw(st.none() | st.integers(1, 99_999))
        players.append(Player(i, name, rating=rating, joined=joined, withdrawn=withdrawn))
    results: list[Game] = []
    rounds = draw(st.integers(0, 5))
    for r in range(1, rounds + 1):
        order = list(draw(st.permutations(range(1, count + 1))))
        del order[draw(st.integers(0, count)) :]
        while len(order) >= 2:
            a, b = order.pop(), order.pop()
            kind = draw(st.sampled_from(["game", "game", "forfeit"]))
            if kind == "forfeit":
                results.append(Game.forfeit_loss(r, a, opponent=b, spread=draw(st.integers(1, 9999))))
            else:
                score_a, score_b = draw(st.integers(-50, 9999)), draw(st.integers(-50, 9999))
                results.append(Game(r, a, b, score_a, score_b, first=draw(st.sampled_from([a, b, None]))))
        for a in order:
            spread = draw(st.integers(1, 9999))
            results.append(
                Game.bye(r, a, spread=spread) if draw(st.booleans()) else Game.forfeit_loss(r, a, spread=spread)
            )
    pending: list[Pairing] = []
    order = list(draw(st.permutations(range(1, count + 1))))
    del order[draw(st.integers(0, count)) :]
    while len(order) >= 2:
        a, b = order.pop(), order.pop()
        pending.append(Pairing(rounds + 1, a, b, first=draw(st.sampled_from([a, b, None]))))
    pending.extend(Pairing(rounds + 1, a) for a in order)
    extra = {}
    for i in range(1, count + 1):
        keys = draw(st.lists(st.sampled_from(["board", "class", "newr", "rrank", "team"]), unique=True, max_size=3))
        if keys:
            extra[i] = {key: draw(st.from_regex(r"[A-Za-z0-9]+( [A-Za-z0-9-]+)*", fullmatch=True)) for key in keys}
    return Division(tuple(players), tuple(results), tuple(pending), extra)


@settings(max_examples=80, deadline=None)
@given(divisions())
def test_players_and_results_survive_a_round_trip(division: Division) -> None:
    text = dumps(division)
    back = loads(text)
    assert back.players == division.players
    assert set(back.results) == set(division.results) and len(back.results) == len(division.results)
    assert set(back.pending) == set(division.pending)
    assert back == division
    assert dumps(back) == text


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("Ann 1500 2; 400\nBob; 300\n", 2, "no rating after the name in 'Bob'"),
        ("# header\n1500 2; 400\n", 2, "no name before the rating in '1500 2'"),
        ("Ann 1500 2; 4x0\nBob 1400 1; 300\n", 1, "the score '4x0' is not a whole number"),
        ("Ann 1500 2; 4000000\nBob 1400 1; 300\n", 1, "the score '4000000' is not a whole number"),
        ("Ann 1500 2; 400 300\nBob 1400 1; 300\n", 1, "2 scores for 1 opponents"),
        ("Ann 1500 3; 400\nBob 1400 0; 50\n", 1, r"round 1: there is no player 3 \(the file has 2\)"),
        ("Ann 1500 1; 400\n", 1, "round 1: player 1 plays themselves"),
        ("Ann 1500 2; 400\nBob 1400 0; 50\n", 1, "player 1 plays player 2, whose line has no opponent"),
        ("Ann 1500 2 2; 400 300\nBob 1400 1; 50\n", 1, "round 2: player 1 plays player 2, whose line has no round 2"),
        ("Ann 1500 2; 400\nBob 1400 1\n", 1, "a score for one of players 1 and 2 but not the other"),
        ("Ann 1500 2; 400; p12 1\nBob 1400 1; 300; p12 1\n", 1, "players 1 and 2 both went first"),
        ("Ann 1500 2; 400; p12 2\nBob 1400 1; 300; p12 2\n", 1, "players 1 and 2 both went second"),
        ("Ann 1500 2; 400; p12 7\nBob 1400 1; 300\n", 1, "the p12 value 7 is not one of 0 to 4"),
        ("Ann 1500 2; 400; class A; class B\nBob 1400 1; 300\n", 1, "the field 'class' comes twice"),
        ("Ann 1500 2; 400; cl@ss A\nBob 1400 1; 300\n", 1, "the field name 'cl@ss' is not letters and digits"),
        ("Ann 1500 2; 10000\nBob 1400 1; 300\n", 1, "round 1: a score is a whole number from -9999 to 9999"),
        ("Ann 1500 2; 400; forfeit 1\nBob 1400 1; 300\n", 1, "round 1: a forfeit is won 50-0"),
        ("Ann 1500 2; 400; p12 1; forfeit 1\nBob 1400 1; 0\n", 1, "a bye or a forfeit has no first player"),
        ("Bob 1400;\nAnn 1500; ; joined 0\n", 2, "player 2: joined is a round from 1"),
        ("Ann 1500; ; joined 1 2\n", 1, "the field 'joined' is one number"),
        ("Ann 1500; ; off x\n", 1, "the off 'x' is not a whole number"),
        ("Ann 99999 ;\nBob 123456;\n", 2, "the rating 123456 is more than 99999"),
        ("Ann\x07Lee 1500;\n", 1, "control character"),
        ("Ann 1500" + " 0" * 201 + ";\n", 1, "201 rounds, at most 200"),
        ("Ann 1500 0; 0" + " 0" * 20_000 + "\n", 1, "the line has 40013 characters, at most 20000"),
    ],
)
def test_malformed_lines_are_refused_naming_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(TshError, match=message) as caught:
        loads(text)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"line {line}: ")
    assert isinstance(caught.value, FormatError) and isinstance(caught.value, ValueError)


def test_the_reader_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(TshError, match="more than 1000000 characters"):
        loads("Ann 1500;\n" * 100_001)
    with pytest.raises(TshError, match="more than 1000000 characters"):
        load(io.StringIO("x" * (tsh.MAX_CHARS + 1)))
    assert len(load(io.StringIO(SAMPLE)).players) == 4
    monkeypatch.setattr(tsh, "MAX_PLAYERS", 3)
    with pytest.raises(TshError, match="line 6: a division has at most 3 players"):
        loads(SAMPLE)


def test_the_reader_never_opens_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Names and fields that look like paths are text; nothing is opened."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a file was opened: {args!r}")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(os, "open", refuse)
    monkeypatch.setattr(pathlib.Path, "open", refuse)
    text = "/etc/passwd 1500 2; 400; photo /etc/passwd\n../../secret.t 1400 1; 380; config ../config.tsh\n"
    division = loads(text)
    assert division.players[0].name == "/etc/passwd"
    assert division.extra[1] == {"photo": "/etc/passwd"}
    assert loads(dumps(division)) == division


@pytest.mark.parametrize(
    ("division", "message"),
    [
        (Division((Player(2, "Ann"),), ()), "the ids must be 1 to the number of players"),
        (Division((Player(1, "Smith 2"),), ()), "a word of digits in the name 'Smith 2'"),
        (Division((Player(1, "Ann;Lee"),), ()), "has a ';' or starts with '#'"),
        (Division((Player(1, "#Ann"),), ()), "has a ';' or starts with '#'"),
        (Division((Player(1, "Ann", rating=100_000),), ()), "the rating 100000 is more than 99999"),
        (
            Division((Player(1, "Ann"), Player(2, "Bob")), (Game(2, 1, 2, 400, 300),), (Pairing(1, 1, 2),)),
            "pending pairings must come after every result",
        ),
        (
            Division((Player(1, "Ann"), Player(2, "Bob")), (), (Pairing(1, 1, 2), Pairing(3, 1))),
            "pending pairings must come after every result, in consecutive rounds",
        ),
        (
            Division((Player(1, "Ann"), Player(2, "Bob")), (Game(1, 1, 2, 400, 300),), (Pairing(1, 2),)),
            "player 2 has a pending pairing and another result",
        ),
        (Division((Player(1, "Ann"),), (Game.bye(1, 1), Game.bye(1, 1, spread=20))), "player 1 has two results"),
        (Division((Player(1, "Ann"),), (Game(1, 1, 2, 400, 300),)), "player 2 is not in the event"),
        (Division((Player(1, "Ann"),), (), (Pairing(1, 1, 5),)), "pending pairing for player 5"),
        (Division((Player(1, "Ann"),), (), (), {1: {"p12": "1"}}), "cannot write the field 'p12'"),
        (Division((Player(1, "Ann"),), (), (), {1: {"class": "A; B"}}), "the field 'class' has a ';'"),
        (Division((Player(1, "Ann"),), (), (), {2: {"class": "A"}}), "fields kept for player 2"),
    ],
)
def test_what_a_t_file_cannot_hold_is_refused_on_writing(division: Division, message: str) -> None:
    with pytest.raises(TshError, match=message):
        dumps(division)
