"""tsh's player files (``.t``): one division's players, results and pairings.

tsh, John Chew's tournament software (tsh.poslfit.com), keeps each division
in a text file of one line per player, numbered by their order (the first
player line is player 1)::

    Lastname, Firstname  RATING OPP OPP ...; SCORE SCORE ...; key value ...; key value ...

- the name, then the rating (0 for unrated), then the opponent of each
  round by number, 0 for none;
- after the first ``;``, the player's own score in each round. For a round
  without an opponent the score is the spread: positive for a bye (``50``),
  negative for a forfeit loss (``-50``), 0 for no game at all (a round
  before a late entry joined, say). Opponents past the last score are
  pairings not yet played;
- then fields of a key and values, a value for each round where the field
  is per round. ``p12`` is who went first: 1 this player, 2 the opponent,
  0 no game; tsh's other values (3 and 4: a start still to be settled)
  read as not known, and tilebag writes an unknown start as 4. ``off``
  marks a player who has withdrawn.

tilebag writes three fields of its own, for what tsh keeps elsewhere or
not at all: ``joined R`` (a late entry's first round), ``withdrawn R``
(the first round a withdrawn player is not paired in, written with ``off
0``) and ``forfeit 0 1 0 ...`` (rounds whose game with an opponent was a
forfeit). A file from tsh without them reads as well: a player marked
``off`` is withdrawn from the round after their last listed round. Every
other field (``board``, ``class``, ``newr``...) is kept as text and written
back as it was (:attr:`Division.extra`), all in tsh's order (by name).

>>> text = '''\\
... Chew, John          1850 2 0 3; 420 50 390; p12 1 0 2
... Smith, Ann          1700 1 3; 380 401; p12 2 1
... Jones, Bo              0 0 2 1; 50 355 388; p12 0 2 1
... '''
>>> division = loads(text)
>>> division.players[2]
Player(id=3, name='Jones, Bo', rating=None, joined=1, withdrawn=None)
>>> division.results[:2]
(Game(round=1, a=1, b=2, score_a=420, score_b=380, first=1, forfeit=False), \
Game(round=1, a=3, b=None, score_a=50, score_b=0, first=None, forfeit=False))
>>> loads(dumps(division)) == division
True
>>> loads("Chew, John 1850 2; 400\\nSmith, Ann 1700 3; 380\\n")
Traceback (most recent call last):
...
tilebag.events.tsh.TshError: line 1: round 1: player 1 plays player 2, whose line has player 3
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TextIO

from tilebag.errors import FormatError, quote
from tilebag.events.pairing import Pairing
from tilebag.events.standings import Game, Player, PlayerId, ResultError, check_results

__all__ = [
    "MAX_CHARS",
    "MAX_LINE_CHARS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "Division",
    "TshError",
    "dumps",
    "load",
    "loads",
]

MAX_CHARS = 1_000_000
"""The longest ``.t`` file read, in characters."""
MAX_LINE_CHARS = 20_000
"""The longest line."""
MAX_PLAYERS = 2_000
"""The most players in a division."""
MAX_ROUNDS = 200
"""The most rounds a player's line lists."""
MAX_RATING = 99_999
"""The largest rating a line may give."""

OWN_FIELDS = frozenset({"forfeit", "joined", "off", "p12", "withdrawn"})
"""The fields this module reads and writes itself; the others are kept as text."""

_DIGITS = re.compile(r"[0-9]+")
_SCORE = re.compile(r"-?[0-9]+")
_KEY = re.compile(r"[A-Za-z0-9_]+")
_TOKEN = re.compile(r"\S+")
_NUMBER_CHARS = 6
"""Digits a number may have (a score of 9999 and its sign fit)."""


class TshError(FormatError):
    """A ``.t`` file that cannot be read, or a division that cannot be
    written as one. :attr:`line` is the line (0 when the whole file or no
    line is at fault), and the message starts with it.

    >>> loads("Chew, John 1850 2 3; 400 x")
    Traceback (most recent call last):
    ...
    tilebag.events.tsh.TshError: line 1: the score 'x' is not a whole number
    """

    def __init__(self, message: str, *, line: int = 0) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


@dataclass(frozen=True, eq=False)
class Division:
    """What a ``.t`` file holds: the players (ids 1 to *n*, the line
    order), the results, the pairings not yet played, and the fields kept
    as text for each player id.

    Two divisions are equal when they hold the same players, results,
    pairings and fields, in whatever order (a game is the same whichever
    player is ``a``); :func:`loads` lists players by id and results by round.
    """

    players: tuple[Player, ...]
    results: tuple[Game, ...]
    pending: tuple[Pairing, ...] = ()
    """Pairings (the current round's, usually) that have no score yet."""
    extra: dict[PlayerId, dict[str, str]] = field(default_factory=dict)
    """For a player id, the fields of their line this module does not read,
    by name: ``{"class": "A", "newr": "1510 1522"}``."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Division):
            return NotImplemented
        return (
            sorted(self.players, key=lambda p: p.id) == sorted(other.players, key=lambda p: p.id)
            and Counter(self.results) == Counter(other.results)
            and Counter(self.pending) == Counter(other.pending)
            and {k: v for k, v in self.extra.items() if v} == {k: v for k, v in other.extra.items() if v}
        )


@dataclass
class _Line:
    number: int
    name: str
    rating: int
    opponents: list[int]
    scores: list[int]
    fields: dict[str, str]


def load(handle: TextIO) -> Division:
    """A division read from a text handle (at most :data:`MAX_CHARS`)."""
    text = handle.read(MAX_CHARS + 1)
    return loads(text)


def loads(text: str) -> Division:
    """The division a ``.t`` file's text holds. Blank lines and lines
    starting with ``#`` are skipped; every other line is a player.

    :raises TshError: naming the line, for anything it cannot read: a name
        without a rating, a number that is not one, opponents that do not
        agree, a file or a line too long.
    """
    if len(text) > MAX_CHARS:
        raise TshError(f"the file has more than {MAX_CHARS} characters")
    lines: list[_Line] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.rstrip("\r")
        if len(line) > MAX_LINE_CHARS:
            raise TshError(f"the line has {len(line)} characters, at most {MAX_LINE_CHARS}", line=number)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if len(lines) == MAX_PLAYERS:
            raise TshError(f"a division has at most {MAX_PLAYERS} players", line=number)
        lines.append(_parse_line(number, line))
    return _build(lines)


def _number(text: str, what: str, number: int, pattern: re.Pattern[str] = _DIGITS) -> int:
    if len(text) > _NUMBER_CHARS or not pattern.fullmatch(text):
        raise TshError(f"the {what} {quote(text)} is not a whole number", line=number)
    return int(text)


def _parse_line(number: int, line: str) -> _Line:
    head, *rest = line.split(";")
    tokens = list(_TOKEN.finditer(head))
    start = len(tokens)
    while start > 0 and _DIGITS.fullmatch(tokens[start - 1].group()):
        start -= 1
    if start == len(tokens):
        raise TshError(f"no rating after the name in {quote(head.strip())}", line=number)
    if start == 0:
        raise TshError(f"no name before the rating in {quote(head.strip())}", line=number)
    name = head[tokens[0].start() : tokens[start - 1].end()]
    rating = _number(tokens[start].group(), "rating", number)
    if rating > MAX_RATING:
        raise TshError(f"the rating {rating} is more than {MAX_RATING}", line=number)
    opponents = [_number(t.group(), "opponent", number) for t in tokens[start + 1 :]]
    scores = [_number(t, "score", number, _SCORE) for t in rest[0].split()] if rest else []
    if len(opponents) > MAX_ROUNDS:
        raise TshError(f"{len(opponents)} rounds, at most {MAX_ROUNDS}", line=number)
    if len(scores) > len(opponents):
        raise TshError(f"{len(scores)} scores for {len(opponents)} opponents", line=number)
    fields: dict[str, str] = {}
    for part in rest[1:]:
        text = part.strip()
        if not text:
            continue
        key, _, value = text.partition(" ")
        if not _KEY.fullmatch(key):
            raise TshError(f"the field name {quote(key)} is not letters and digits", line=number)
        if key in fields:
            raise TshError(f"the field {key!r} comes twice", line=number)
        fields[key] = value.strip()
    return _Line(number, name, rating, opponents, scores, fields)


def _round_values(line: _Line, key: str, allowed: range) -> list[int]:
    values = []
    for token in line.fields.get(key, "").split():
        value = _number(token, f"{key} value", line.number, _SCORE)
        if value not in allowed:
            raise TshError(
                f"the {key} value {value} is not one of {allowed.start} to {allowed.stop - 1}", line=line.number
            )
        values.append(value)
    return values


def _single(line: _Line, key: str) -> int | None:
    if key not in line.fields:
        return None
    value = line.fields[key]
    if len(value.split()) != 1:
        raise TshError(f"the field {key!r} is one number, got {quote(value)}", line=line.number)
    return _number(value, key, line.number, _SCORE)


def _player(index: int, line: _Line) -> Player:
    joined = _single(line, "joined")
    withdrawn = _single(line, "withdrawn")
    _single(line, "off")
    if withdrawn is None and "off" in line.fields:
        withdrawn = max(len(line.opponents) + 1, 1 if joined is None else joined)
    try:
        joined = 1 if joined is None else joined
        return Player(index, line.name, rating=line.rating or None, joined=joined, withdrawn=withdrawn)
    except ResultError as err:
        raise TshError(str(err), line=line.number) from None


def _build(lines: list[_Line]) -> Division:
    players = tuple(_player(i, line) for i, line in enumerate(lines, start=1))
    count = len(lines)
    results: list[Game] = []
    pending: list[Pairing] = []
    starts = [_round_values(line, "p12", range(0, 5)) for line in lines]
    forfeits = [_round_values(line, "forfeit", range(0, 2)) for line in lines]
    for i, line in enumerate(lines, start=1):
        for r, opponent in enumerate(line.opponents, start=1):
            where = f"round {r}"
            scored = r <= len(line.scores)
            if opponent > count:
                raise TshError(f"{where}: there is no player {opponent} (the file has {count})", line=line.number)
            if opponent == i:
                raise TshError(f"{where}: player {i} plays themselves", line=line.number)
            try:
                if opponent == 0:
                    if not scored:
                        pending.append(Pairing(r, i))
                    elif line.scores[r - 1] > 0:
                        results.append(Game.bye(r, i, spread=line.scores[r - 1]))
                    elif line.scores[r - 1] < 0:
                        results.append(Game.forfeit_loss(r, i, spread=-line.scores[r - 1]))
                    continue
                other = lines[opponent - 1]
                theirs = other.opponents[r - 1] if r <= len(other.opponents) else None
                if theirs != i:
                    has = f"no round {r}" if theirs is None else "no opponent" if theirs == 0 else f"player {theirs}"
                    raise TshError(
                        f"{where}: player {i} plays player {opponent}, whose line has {has}", line=line.number
                    )
                if scored != (r <= len(other.scores)):
                    raise TshError(
                        f"{where}: a score for one of players {i} and {opponent} but not the other", line=line.number
                    )
                if opponent < i:
                    continue
                first = _first(i, opponent, r, starts[i - 1], starts[opponent - 1], line.number)
                forfeit = _flag(forfeits[i - 1], r) or _flag(forfeits[opponent - 1], r)
                if scored:
                    results.append(Game(r, i, opponent, line.scores[r - 1], other.scores[r - 1], first, forfeit))
                else:
                    pending.append(Pairing(r, i, opponent, first))
            except ResultError as err:
                raise TshError(str(err), line=line.number) from None
    extra = {
        i: {key: value for key, value in line.fields.items() if key not in OWN_FIELDS}
        for i, line in enumerate(lines, start=1)
    }
    return Division(
        players,
        tuple(sorted(results, key=lambda g: (g.round, g.a))),
        tuple(sorted(pending, key=lambda p: (p.round, p.a))),
        {i: fields for i, fields in extra.items() if fields},
    )


def _flag(values: list[int], r: int) -> bool:
    return r <= len(values) and values[r - 1] == 1


def _first(i: PlayerId, opponent: PlayerId, r: int, mine: list[int], theirs: list[int], number: int) -> PlayerId | None:
    def says(values: list[int], me: PlayerId, them: PlayerId) -> PlayerId | None:
        value = values[r - 1] if r <= len(values) else 4
        return me if value == 1 else them if value == 2 else None

    a, b = says(mine, i, opponent), says(theirs, opponent, i)
    if a is not None and b is not None and a != b:
        raise TshError(
            f"round {r}: players {i} and {opponent} both went {'first' if a == i else 'second'} (p12)", line=number
        )
    return a if a is not None else b


def dumps(division: Division) -> str:
    """The ``.t`` text of ``division``: one line per player in id order,
    which must be 1 to *n* (tsh numbers players by their line).

    :raises TshError: for what a ``.t`` file cannot hold: ids that are not
        1 to *n*, a name tsh would read differently (a ``;``, a word of
        digits only, a leading ``#``), results that contradict each other, a
        pairing pending in a round before one with a result.
    """
    players = sorted(division.players, key=lambda p: p.id)
    if [p.id for p in players] != list(range(1, len(players) + 1)):
        raise TshError("tsh numbers players by their line: the ids must be 1 to the number of players")
    if len(players) > MAX_PLAYERS:
        raise TshError(f"a division has at most {MAX_PLAYERS} players")
    try:
        check_results(players, division.results)
    except ResultError as err:
        raise TshError(str(err)) from None
    rounds: dict[PlayerId, dict[int, Game | Pairing]] = defaultdict(dict)
    for game in division.results:
        for who in game.players:
            rounds[who][game.round] = game
    for pairing in division.pending:
        for who in pairing.players:
            if not 1 <= who <= len(players):
                raise TshError(f"round {pairing.round}: pending pairing for player {who}, who is not in the division")
            if pairing.round in rounds[who]:
                raise TshError(
                    f"round {pairing.round}: player {who} has a pending pairing and another result or pairing"
                )
            rounds[who][pairing.round] = pairing
    extra = division.extra
    for who in extra:
        if not 1 <= who <= len(players):
            raise TshError(f"fields kept for player {who}, who is not in the division")
    return "".join(_line(p, rounds[p.id], extra.get(p.id, {})) + "\n" for p in players)


def _line(player: Player, rounds: dict[int, Game | Pairing], kept: Mapping[str, str]) -> str:
    who = player.id
    if any(_DIGITS.fullmatch(token.group()) for token in _TOKEN.finditer(player.name)):
        raise TshError(f"player {who}: tsh would read a word of digits in the name {quote(player.name)} as the rating")
    if ";" in player.name or player.name.startswith("#"):
        raise TshError(f"player {who}: the name {quote(player.name)} has a ';' or starts with '#'")
    if (player.rating or 0) > MAX_RATING:
        raise TshError(f"player {who}: the rating {player.rating} is more than {MAX_RATING}")
    played = [r for r, item in rounds.items() if isinstance(item, Game)]
    waiting = sorted(r for r, item in rounds.items() if isinstance(item, Pairing))
    last = max(rounds, default=0)
    if last > MAX_ROUNDS:
        raise TshError(f"player {who}: round {last}, at most {MAX_ROUNDS}")
    if waiting and (waiting != list(range(waiting[0], last + 1)) or max(played, default=0) > waiting[0]):
        raise TshError(f"player {who}: pending pairings must come after every result, in consecutive rounds")
    scored = waiting[0] - 1 if waiting else last
    opponents, scores, starts, forfeits = [], [], [], []
    for r in range(1, last + 1):
        item = rounds.get(r)
        opponent = None if item is None else item.opponent(who) if isinstance(item, Game) else _other(item, who)
        opponents.append(opponent or 0)
        first = None if item is None else item.first
        starts.append(0 if opponent is None else 4 if first is None else 1 if first == who else 2)
        forfeits.append(1 if isinstance(item, Game) and item.forfeit and item.b is not None else 0)
        if r <= scored:
            if isinstance(item, Game):
                scores.append(item.score(who) if opponent is not None else item.spread(who))
            else:
                scores.append(0)
    fields: dict[str, str] = {}
    for key, value in kept.items():
        if not _KEY.fullmatch(key) or key in OWN_FIELDS:
            raise TshError(
                f"player {who}: cannot write the field {quote(key)} (a name of letters and digits, not {key!r})"
            )
        if any(c in value for c in ";\r\n"):
            raise TshError(f"player {who}: the field {key!r} has a ';' or a line break")
        fields[key] = value
    if last:
        fields["p12"] = " ".join(map(str, starts))
    if any(forfeits):
        fields["forfeit"] = " ".join(map(str, forfeits))
    if player.joined > 1:
        fields["joined"] = str(player.joined)
    if player.withdrawn is not None:
        fields["off"] = "0"
        fields["withdrawn"] = str(player.withdrawn)
    head = f"{player.name:<24} {player.rating or 0:>4}" + "".join(f" {o}" for o in opponents)
    tail = "".join(f"; {key} {fields[key]}".rstrip() for key in sorted(fields))
    return f"{head}; {' '.join(map(str, scores))}{tail}".rstrip()


def _other(pairing: Pairing, who: PlayerId) -> PlayerId | None:
    return pairing.b if pairing.a == who else pairing.a
