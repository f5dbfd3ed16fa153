"""Best-move analysis: each play of a game next to the best plays of its
position, by static equity.

Static equity is what the equity bot (:class:`tilebag.engine.players.StaticPlayer`)
plays by: a play's score plus the value of the tiles it keeps
(:mod:`tilebag.engine.equity.leaves`) while the bag has tiles, and minus twice their face
value once the bag is empty (see :meth:`tilebag.engine.movegen.generator.MoveGenerator.generate`).
The candidates are the bot's: every placement, and the exchanges and the pass
when the bag holds enough tiles to exchange (in games with anagram plays,
those too). With the bot's leave values, a turn the bot played loses nothing.

:func:`analyze_turn` looks at one move of a live game (before it is pushed)
and leaves the game as it was; :func:`analyze_game` looks at every turn of a
game record and adds up each player's totals (:class:`PlayerTotals`).

For each turn there are the best plays, where the play made ranks among them,
the **equity lost** (the best equity minus the play's, never below 0), the best
bingo when the player did not bingo, the words of the play the lexicon does
not hold (phonies), and whether the play was challenged off. A play that was
challenged off counts as what the turn came to: a pass (nothing scored, the
whole rack kept).

Plays are found in, and words judged by, one lexicon: the default one unless
another is given, whatever the record names. Words of another lexicon show as
phonies, and plays only it allows are not found.

A turn is analysed only when the whole rack is known: records that show part
of a rack (the tiles played) or none leave their turns out, saying why.
Recycles and blank swaps (variations) start a turn and are not analysed; the
play that follows them is, from the position they left.

>>> from tilebag.formats import gcg
>>> record = gcg.loads(">alice: AEINRST 8G STAIN +10 10\\n>bob: ADEHNOR 9G HORN +28 28\\n")
>>> analysis = analyze_game(record)
>>> turn = analysis.turns[0]
>>> turn.played.notation, turn.score, turn.equity_lost > 30_000, turn.grade.value
('8G STAIN', 10, True, 'blunder')
>>> turn.missed_bingo, turn.best_bingo.notation, turn.best_bingo.score
(True, '8B ANESTRI', 66)
>>> [(t.name, t.blunders, t.bingos_missed, t.mistake_score) for t in analysis.totals()]
[('alice', 1, 1, 6), ('bob', 1, 1, 6)]
"""

from __future__ import annotations

import bisect
import dataclasses
import enum
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tilebag.actions import GameAction, PlayMove
from tilebag.alphabet import Alphabet, Tile, rack_tile
from tilebag.board import Board, Word
from tilebag.engine import Engine
from tilebag.engine.equity import MILLIPOINTS, points
from tilebag.engine.equity.leaves import LeaveValues
from tilebag.engine.equity.opening import OPENING_PENALTY, HotSquares, adjust_opening
from tilebag.engine.movegen.generator import Play, leave_valuer, play_order
from tilebag.engine.movegen.variations import VariationGenerator
from tilebag.errors import TilebagError
from tilebag.formats.replay import ReplayError, replay
from tilebag.game import Game
from tilebag.lexicon import GraphLexicon, Lexicon, default_lexicon
from tilebag.move import Move, MoveKind
from tilebag.record import Event, EventKind, GameRecord, withdrawn_plays
from tilebag.rules import Rules
from tilebag.variants import check_anagram

INACCURACY = 5_000
"""Equity lost (in millipoints, :mod:`tilebag.engine.equity`) from which a play is an inaccuracy. Below it the difference is
within what static equity can tell apart: leave values are estimates good to
a few points, and the position after the play is not looked at."""

MISTAKE = 15_000
"""Equity lost (millipoints) from which a play is a mistake: about what a good leave is
worth over a poor one, or a missed double-word square: a difference a player
should see at the board."""

BLUNDER = 30_000
"""Equity lost (millipoints) from which a play is a blunder: over half a bingo's bonus, what
a missed bingo or triple-word score usually costs."""

ProgressCallback = Callable[[int, int], None]
"""Called with the turns analysed so far and the number to analyse."""

class AnalysisError(TilebagError, ValueError):
    """A game or position that cannot be analysed as asked (e.g. a lexicon in
    another tile set than the record's)."""


class Grade(enum.Enum):
    """How much equity a play lost, by the thresholds :data:`INACCURACY`,
    :data:`MISTAKE` and :data:`BLUNDER`.

    >>> Grade.of(0), Grade.of(5_000), Grade.of(29_900), Grade.of(30_000)
    (<Grade.GOOD: 'good'>, <Grade.INACCURACY: 'inaccuracy'>, <Grade.MISTAKE: 'mistake'>, <Grade.BLUNDER: 'blunder'>)
    >>> [grade.weight for grade in Grade]
    [0, 1, 3, 6]
    """

    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @classmethod
    def of(cls, equity_lost: int) -> Grade:
        """The grade of a play that lost this much equity (millipoints)."""
        if equity_lost >= BLUNDER:
            return cls.BLUNDER
        if equity_lost >= MISTAKE:
            return cls.MISTAKE
        if equity_lost >= INACCURACY:
            return cls.INACCURACY
        return cls.GOOD

    @property
    def weight(self) -> int:
        """What the grade adds to a :attr:`PlayerTotals.mistake_score`: its
        threshold in units of the inaccuracy threshold (0, 1, 3, 6)."""
        threshold = {Grade.GOOD: 0, Grade.INACCURACY: INACCURACY, Grade.MISTAKE: MISTAKE, Grade.BLUNDER: BLUNDER}
        return threshold[self] // INACCURACY


@dataclass(frozen=True)
class RankedPlay:
    """A play of a position with its rank among all the position's plays."""

    rank: int
    """1 for the best equity among the legal plays (ties in the move
    generator's order). A move that is not one of them (a phony, or a pass
    the equity bot would not weigh) ranks after the plays better than it."""
    move: Move
    notation: str
    """The play as text on its board: ``8D WINDY``, ``H6 FA(R)M`` (played-through
    letters in parentheses), ``-ADE`` (an exchange), ``-`` (a pass)."""
    score: int
    leave: str
    """The rack tiles kept, as text (``?`` for a blank)."""
    equity: int
    """Score plus the leave's value, in millipoints (see the module notes)."""
    bingo: bool
    """Whether the play puts down enough tiles for the bingo bonus."""

    def to_dict(self) -> dict[str, object]:
        """The play as JSON data: ``rank``, ``move``, ``score``, ``leave``,
        ``equity`` (rounded to 0.001) and ``bingo``."""
        return {
            "rank": self.rank,
            "move": self.notation,
            "score": self.score,
            "leave": self.leave,
            "equity": points(self.equity),
            "bingo": self.bingo,
        }

    def line(self) -> str:
        """The play as one line: notation, score, leave, equity."""
        return f"{self.notation:<22} {self.score:>4}  {self.leave or '-':<8} {points(self.equity):8.2f}"


@dataclass(frozen=True)
class TurnAnalysis:
    """One turn of a game: the move made and, when the turn could be
    analysed, how it compares with the best plays."""

    number: int
    """1-based, counting every move of the game (a recycle or blank swap
    that starts a turn has its own number)."""
    player: int
    """Index of the player who moved (0-based, seat order)."""
    name: str
    move: Move
    notation: str
    """The move made, as :attr:`RankedPlay.notation` writes it."""
    score: int
    """What the move scored on the board (before any challenge took it back)."""
    rack: str | None
    """The rack before the move: the whole rack when analysed, else as far as
    the record shows it (``None`` when it does not)."""
    bingo: bool = False
    """Whether the move made is a bingo."""
    phonies: tuple[str, ...] = ()
    """Words the move formed that the lexicon does not hold."""
    withdrawn: bool = False
    """Whether the play was challenged off (it scored nothing in the end)."""
    skipped: str | None = None
    """Why the turn was not analysed (``None`` when it was)."""
    played: RankedPlay | None = None
    """The move made, ranked among the position's plays (as if it stood, for
    a play that was challenged off)."""
    equity: int | None = None
    """What the turn is counted at (millipoints): the move's equity, or a
    pass's when the play was challenged off."""
    best: tuple[RankedPlay, ...] = ()
    """The best plays of the position, best first."""
    plays: int = 0
    """How many legal plays the position has (as the equity bot weighs them)."""
    best_bingo: RankedPlay | None = None
    """The best bingo of the position, if it has one."""
    bingos: int = 0
    """How many bingo plays the position has."""
    line: int = field(default=0, compare=False)
    """The record line of the move (0 for a live game)."""

    @property
    def analysed(self) -> bool:
        return self.skipped is None

    @property
    def equity_lost(self) -> int:
        """The best equity minus the turn's, in millipoints (0 when the play
        made was as good, or the turn was not analysed)."""
        if self.equity is None or not self.best:
            return 0
        return max(0, self.best[0].equity - self.equity)

    @property
    def found_best(self) -> bool:
        """Whether the play made was as good as the best (no equity lost)."""
        return self.analysed and self.equity_lost == 0

    @property
    def missed_bingo(self) -> bool:
        """Whether a bingo was there and the player did not play one that stood."""
        return self.best_bingo is not None and not (self.bingo and not self.withdrawn)

    @property
    def grade(self) -> Grade:
        return Grade.of(self.equity_lost)

    @property
    def better(self) -> RankedPlay | None:
        """The best play when it was better than the play made (else ``None``)."""
        return self.best[0] if self.best and self.equity_lost > 0 else None

    def summary(self) -> str:
        """One line saying how the move compares with the best play, e.g.
        ``8G STAIN 10 (equity 13.41): 8B ANESTRI 66 was 52.59 better (blunder); missed bingo``.
        """
        if self.played is None or self.equity is None:
            return f"{self.notation} {self.score}: not analysed, {self.skipped}"
        text = f"{self.notation} {self.score} (equity {points(self.equity):.2f})"
        better = self.better
        if better is None:
            text += ": the best play"
        else:
            text += f": {better.notation} {better.score} was {points(self.equity_lost):.2f} better"
            if self.grade is not Grade.GOOD:
                text += f" ({self.grade.value})"
        if self.missed_bingo and self.best_bingo is not None and self.best_bingo != better:
            text += f"; missed bingo {self.best_bingo.notation} {self.best_bingo.score}"
        elif self.missed_bingo:
            text += "; missed bingo"
        if self.phonies:
            text += f"; phony: {', '.join(self.phonies)}"
        return text

    def to_dict(self) -> dict[str, object]:
        """The turn as JSON data (equities rounded to 0.001; ``equity``,
        ``equity_lost`` and ``grade`` are ``null`` when not analysed)."""
        return {
            "turn": self.number,
            "player": self.player,
            "name": self.name,
            "line": self.line,
            "rack": self.rack,
            "move": self.notation,
            "score": self.score,
            "analysed": self.analysed,
            "skipped": self.skipped,
            "played": None if self.played is None else self.played.to_dict(),
            "equity": None if self.equity is None else points(self.equity),
            "equity_lost": points(self.equity_lost) if self.analysed else None,
            "grade": self.grade.value if self.analysed else None,
            "plays": self.plays,
            "best": [play.to_dict() for play in self.best],
            "bingo": self.bingo,
            "bingos": self.bingos,
            "best_bingo": None if self.best_bingo is None else self.best_bingo.to_dict(),
            "missed_bingo": self.missed_bingo,
            "phonies": list(self.phonies),
            "withdrawn": self.withdrawn,
        }

    def lines(self) -> list[str]:
        """The turn as text: a heading, the play made (rank, equity lost and
        grade), the best plays (the play made marked ``*``), then markers for
        a missed bingo, phonies and a play challenged off."""
        heading = f"{self.number:>3}. {self.name}  {self.rack or '(rack not recorded)'}"
        played = self.played
        if played is None or self.equity is None:
            return [f"{heading}  {self.notation} {self.score:+d}: not analysed, {self.skipped}", *self._markers()]
        verdict = "best" if self.found_best else f"lost {points(self.equity_lost):.2f}"
        if self.grade is not Grade.GOOD:
            verdict += f" {self.grade.value.upper()}"
        out = [heading, f"     played {played.line()}   #{played.rank} of {self.plays}, {verdict}"]
        if self.withdrawn:
            out.append(f"     challenged off: the turn counts as a pass, equity {points(self.equity):.2f}")
        listed = [(play, play.move == played.move) for play in self.best]
        if not any(mine for _, mine in listed) and played.rank <= len(listed):
            # not a legal play (a phony): shown where its equity puts it
            listed.insert(played.rank - 1, (played, True))
        for play, mine in listed:
            out.append(f"     {'*' if mine else ' '}{play.rank:>5} {play.line()}")
        return out + self._markers()

    def _markers(self) -> list[str]:
        out = []
        bingo = self.best_bingo
        if self.missed_bingo and bingo is not None:
            also = f", {self.bingos} bingo plays in all" if self.bingos > 1 else ""
            out.append(
                f"     missed bingo: {bingo.notation} {bingo.score} (equity {points(bingo.equity):.2f}, #{bingo.rank}{also})"
            )
        if self.phonies:
            fate = "challenged off" if self.withdrawn else "stood"
            out.append(f"     phony: {', '.join(self.phonies)} ({fate})")
        elif self.withdrawn and self.played is None:
            out.append("     challenged off")
        return out


@dataclass(frozen=True)
class PlayerTotals:
    """A player's turns added up."""

    player: int
    name: str
    turns: int
    """Moves made (recycles and blank swaps included)."""
    analysed: int
    equity_lost: int
    """Total equity lost over the analysed turns (millipoints)."""
    best_plays: int
    """Analysed turns where the play made was as good as the best."""
    inaccuracies: int
    mistakes: int
    blunders: int
    bingos_played: int
    """Bingos that stood (all turns, analysed or not)."""
    bingos_missed: int
    """Analysed turns with a bingo where the player played none that stood."""
    phonies: int
    """Plays with a word the lexicon does not hold (all turns)."""
    phonies_withdrawn: int
    """Of those, the plays challenged off."""

    @classmethod
    def of(cls, player: int, name: str, turns: Sequence[TurnAnalysis]) -> PlayerTotals:
        """The totals of one player's turns (the others are ignored)."""
        mine = [t for t in turns if t.player == player]
        done = [t for t in mine if t.analysed]
        grades = Counter(t.grade for t in done)
        return cls(
            player=player,
            name=name,
            turns=len(mine),
            analysed=len(done),
            equity_lost=sum(t.equity_lost for t in done),
            best_plays=sum(1 for t in done if t.found_best),
            inaccuracies=grades[Grade.INACCURACY],
            mistakes=grades[Grade.MISTAKE],
            blunders=grades[Grade.BLUNDER],
            bingos_played=sum(1 for t in mine if t.bingo and not t.withdrawn),
            bingos_missed=sum(1 for t in done if t.missed_bingo),
            phonies=sum(1 for t in mine if t.phonies),
            phonies_withdrawn=sum(1 for t in mine if t.phonies and t.withdrawn),
        )

    @property
    def mean_equity_lost(self) -> float:
        """Equity lost per analysed turn, in points (0 with none)."""
        return points(self.equity_lost) / self.analysed if self.analysed else 0.0

    @property
    def mistake_score(self) -> int:
        """Inaccuracies + 3 x mistakes + 6 x blunders: each graded play
        weighs its grade's threshold in units of the inaccuracy threshold
        (:attr:`Grade.weight`). Unlike the equity lost, small slips count
        nothing and one huge miss does not outweigh everything else."""
        return (
            self.inaccuracies * Grade.INACCURACY.weight
            + self.mistakes * Grade.MISTAKE.weight
            + self.blunders * Grade.BLUNDER.weight
        )

    def to_dict(self) -> dict[str, object]:
        """The totals as JSON data (the derived figures included)."""
        data = dataclasses.asdict(self)
        data["equity_lost"] = points(self.equity_lost)
        data["mean_equity_lost"] = round(self.mean_equity_lost, 3)
        data["mistake_score"] = self.mistake_score
        return data


@dataclass
class GameAnalysis:
    """Every turn of a game analysed, and each player's totals."""

    players: list[str]
    """Player names in seat order."""
    turns: list[TurnAnalysis]
    lexicon: str
    """Name of the lexicon the plays were generated from and judged by."""
    leaves: str
    """Name of the leave values equity counts."""
    top: int
    """How many best plays each turn lists."""
    record_lexicon: str | None = None
    """The lexicon the record names, if any (it may not be the one used)."""
    source: str | None = None

    def totals(self) -> list[PlayerTotals]:
        """Each player's totals, in seat order."""
        return [PlayerTotals.of(i, name, self.turns) for i, name in enumerate(self.players)]

    def to_dict(self) -> dict[str, object]:
        """The whole analysis as JSON data: the settings, ``turns`` (see
        :meth:`TurnAnalysis.to_dict`) and ``totals`` (:meth:`PlayerTotals.to_dict`)."""
        return {
            "source": self.source,
            "lexicon": self.lexicon,
            "record_lexicon": self.record_lexicon,
            "leaves": self.leaves,
            "top": self.top,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "players": list(self.players),
            "turns": [turn.to_dict() for turn in self.turns],
            "totals": [totals.to_dict() for totals in self.totals()],
        }

    def report(self) -> str:
        """The analysis as text: a heading, every turn, then the totals."""
        named = ""
        if self.record_lexicon and self.record_lexicon.lower() != self.lexicon.lower():
            named = f" (the record names {self.record_lexicon})"
        out = [
            f"{self.source or 'game'}: {' v '.join(self.players)}",
            f"lexicon {self.lexicon}{named}, leaves {self.leaves}; equity = score + value of the tiles kept",
            "",
        ]
        for turn in self.turns:
            out.extend(turn.lines())
        out.append("")
        out.extend(self._totals_table())
        return "\n".join(out) + "\n"

    def _totals_table(self) -> list[str]:
        totals = self.totals()
        rows: list[tuple[str, list[str]]] = [
            ("turns (analysed)", [f"{t.turns} ({t.analysed})" for t in totals]),
            ("best plays found", [str(t.best_plays) for t in totals]),
            ("equity lost", [f"{points(t.equity_lost):.2f}" for t in totals]),
            ("mean equity lost", [f"{t.mean_equity_lost:.2f}" for t in totals]),
            (f"inaccuracies (>= {points(INACCURACY):g})", [str(t.inaccuracies) for t in totals]),
            (f"mistakes (>= {points(MISTAKE):g})", [str(t.mistakes) for t in totals]),
            (f"blunders (>= {points(BLUNDER):g})", [str(t.blunders) for t in totals]),
            ("mistake score", [str(t.mistake_score) for t in totals]),
            ("bingos played", [str(t.bingos_played) for t in totals]),
            ("bingos missed", [str(t.bingos_missed) for t in totals]),
            ("phonies (challenged off)", [f"{t.phonies} ({t.phonies_withdrawn})" for t in totals]),
        ]
        label = max(len(name) for name, _ in rows)
        width = max(12, *(len(t.name) for t in totals), *(len(v) for _, values in rows for v in values))
        out = [f"{'totals':<{label}}  " + "  ".join(f"{t.name:>{width}}" for t in totals)]
        out.extend(f"{name:<{label}}  " + "  ".join(f"{v:>{width}}" for v in values) for name, values in rows)
        out.append("mistake score = inaccuracies + 3 x mistakes + 6 x blunders")
        return out


# -- analysing ------------------------------------------------------------


def analyze_turn(
    game: Game,
    move: Move,
    *,
    top: int = 5,
    leaves: LeaveValues | None = None,
    lexicon: GraphLexicon | None = None,
    withdrawn: bool = False,
    core: str | None = None,
    engine: Engine | None = None,
) -> TurnAnalysis:
    """How ``move``, for the player to move, compares with the best plays of
    the position. The game is not changed: call it before pushing the move
    (a rejected move raises, as :meth:`tilebag.Game.check` does).

    :param leaves: leave values (default: :data:`tilebag.engine.equity.leaves.DEFAULT_LEAVES`,
        as the equity bot's).
    :param lexicon: the word graph to find plays in and judge words by
        (default: the game's).
    :param withdrawn: count the play as challenged off.
    :param core: the move generator core (default: the compiled one when built).
    :param engine: the engine to rank the plays with (default: one for the
        lexicon, the game's rules, ``leaves`` and ``core``).
    :raises IllegalMoveError: when the game does not allow the move (a
        :class:`~tilebag.errors.PhonyError` in void challenge mode).
    :raises InvalidMoveError: when the move is not a move of the game's tile set.
    :raises TypeError: when the lexicon has no word graph to find plays in.

    >>> from tilebag import Game
    >>> game = Game(["alice", "bob"], seed=1, first=0)
    >>> game.set_rack(0, "AEINRST")
    >>> turn = analyze_turn(game, game.parse_move("8G STAIN"))
    >>> turn.score, turn.grade.value, turn.best[0].bingo, turn.best[0].score
    (10, 'blunder', True, 66)
    >>> turn.summary()
    '8G STAIN 10 (equity 11.60): 8B ANESTRI 66 was 54.40 better (blunder); missed bingo'
    >>> game.board.is_empty(), game.alphabet.format_rack(game.rack())
    (True, 'AEINRST')
    """
    if top < 1:
        raise ValueError(f"top must be at least 1, got {top}")
    normal = game.check(move)
    judge: Lexicon = game.lexicon if lexicon is None else lexicon
    if engine is None:
        engine = Engine.for_lexicon(judge, game.rules, core=core)
    leaves = leaves or engine.leaves
    analyst = _Analyst(engine.with_leaves(leaves), judge, top)
    return analyst.turn(game, normal, withdrawn=withdrawn)


def analyze_game(
    record: GameRecord,
    *,
    lexicon: GraphLexicon | None = None,
    leaves: LeaveValues | None = None,
    top: int = 5,
    progress: ProgressCallback | None = None,
    core: str | None = None,
    source: str | None = None,
) -> GameAnalysis:
    """Analyse every turn of a game record (see the module notes).

    :param lexicon: the lexicon to find plays in and judge words by (default:
        :func:`tilebag.lexicon.default_lexicon`, whatever the record names).
    :param leaves: leave values (default: :data:`tilebag.engine.equity.leaves.DEFAULT_LEAVES`).
    :param top: how many best plays to list per turn.
    :param progress: called after each turn analysed with (done, total).
    :param source: the record's file name, for messages.
    :raises ReplayError: when the record disagrees with the rules (naming the line).
    :raises AnalysisError: when the lexicon is not in the record's tile set.
    """
    if top < 1:
        raise ValueError(f"top must be at least 1, got {top}")
    lexicon = lexicon or default_lexicon()
    alphabet = getattr(lexicon, "alphabet", None)
    if isinstance(alphabet, Alphabet) and alphabet.name != record.alphabet:
        where = f"{source}: " if source else ""
        raise AnalysisError(
            f"{where}the record is in {record.alphabet} tiles, the lexicon {lexicon.name!r} in {alphabet.name} tiles"
        )
    try:
        game = replay(record, lexicon=lexicon)
    except ReplayError as err:
        if source is None:
            raise
        raise ReplayError(err.finding, source) from None
    engine = Engine.for_lexicon(lexicon, game.rules, core=core)
    analyst = _Analyst(engine.with_leaves(leaves or engine.leaves), lexicon, top)

    # The replayed game keeps a state before each of its actions; popping
    # them one by one from the end goes back through every position, with
    # each rack as the record gave it. Its moves are the record's moves, in
    # order (a last pass after a player went out is not a move of the game):
    # a pop that takes a move off the game's events goes back to the
    # position before that record event.
    events = [e for e in record.events if e.kind.is_move]
    withdrawn = withdrawn_plays(record.events)
    moves = sum(1 for e in game.events if e.kind.is_move)
    total = min(moves, len(events))
    found: list[TurnAnalysis] = []
    while game.move_stack:
        undone = game.pop()
        left = sum(1 for e in game.events if e.kind.is_move)
        if left == moves:
            continue  # a challenge or points added: not a move
        moves = left
        if left < len(events):
            event = events[left]
            found.append(analyst.event(game, undone, event, withdrawn=id(event) in withdrawn))
            if progress is not None:
                progress(len(found), total)
    found.reverse()
    return GameAnalysis(
        players=[p.name for p in game.players],
        turns=found,
        lexicon=lexicon.name,
        leaves=analyst.leaves.name,
        top=top,
        record_lexicon=record.lexicon,
        source=source,
    )


class _Analyst:
    """Ranks moves among the plays of their position: one engine (its move
    generator and leave values), one lexicon to judge words by."""

    def __init__(self, engine: Engine, lexicon: Lexicon, top: int) -> None:
        self.engine = engine
        self.generator = engine.generator
        self.variations: VariationGenerator | None = engine.variations if engine.rules.anagram else None
        self.lexicon = lexicon
        self.leaves = engine.leaves
        self.top = top

    def event(self, game: Game, undone: GameAction, event: Event, *, withdrawn: bool) -> TurnAnalysis:
        """A record's move (``undone``: what the replayed game undid to go
        back to it), in the replayed game's position before it."""
        recorded = None if event.rack is None else game.alphabet.format_rack(event.rack)
        if event.kind is EventKind.TIME_OUT or not isinstance(undone, PlayMove):
            turn = self.made(game, Move.pass_(), withdrawn=False, line=event.line)
            return dataclasses.replace(
                turn, rack=recorded, skipped="the turn timer ran out: a pass the player did not choose"
            )
        turn = self.made(game, undone.move, withdrawn=withdrawn, line=event.line)
        if undone.move.kind in (MoveKind.RECYCLE, MoveKind.BLANK_SWAP):
            return self.analysed(game, dataclasses.replace(turn, rack=recorded))
        held = game.rack()
        if event.kind is EventKind.EXCHANGE and event.move is None:
            why = f"the record gives only the number of tiles exchanged ({event.exchange_count})"
            return dataclasses.replace(turn, rack=recorded, skipped=why)
        if event.rack is None:
            return dataclasses.replace(turn, rack=None, skipped="the record does not show the rack")
        if Counter(event.rack) != Counter(held):
            if Counter(event.rack) < Counter(held):
                why = f"the record shows {len(event.rack)} of the {len(held)} tiles of the rack"
            else:
                why = "the recorded rack is not one the player could hold"
            return dataclasses.replace(turn, rack=recorded, skipped=why)
        return self.analysed(game, turn)

    def turn(self, game: Game, move: Move, *, withdrawn: bool) -> TurnAnalysis:
        """A checked move of the player to move."""
        return self.analysed(game, self.made(game, move, withdrawn=withdrawn, line=0))

    def made(self, game: Game, move: Move, *, withdrawn: bool, line: int) -> TurnAnalysis:
        """What the move was, before any analysis: its text, score, bingo and
        phonies (the move is checked; it is the player to move's)."""
        board, rules = game.board, game.rules
        number = 1 + sum(1 for e in game.events if e.kind.is_move)
        score = 0
        words: list[Word] = []
        placed = 0
        if move.kind is MoveKind.PLACE:
            score = board.score(move, bingo_tiles=rules.bingo_tiles, bingo_bonus=rules.bingo_bonus)
            words = board.words(move)
            placed = len(move.placed())
        elif move.kind is MoveKind.ANAGRAM:
            anagram = check_anagram(board, move, bingo_tiles=rules.bingo_tiles, bingo_bonus=rules.bingo_bonus)
            score, words, placed = anagram.score, anagram.words, len(anagram.tiles_used)
        phonies = tuple(game.alphabet.format_word(w.tiles) for w in words if w.tiles not in self.lexicon)
        return TurnAnalysis(
            number=number,
            player=game.turn,
            name=game.players[game.turn].name,
            move=move,
            notation=board.notation(move),
            score=score,
            rack=game.alphabet.format_rack(game.rack()),
            bingo=placed >= rules.bingo_tiles,
            phonies=phonies,
            withdrawn=withdrawn and move.kind in (MoveKind.PLACE, MoveKind.ANAGRAM),
            line=line,
        )

    def analysed(self, game: Game, turn: TurnAnalysis) -> TurnAnalysis:
        """The turn with the move ranked among the plays of the position."""
        move = turn.move
        if move.kind in (MoveKind.RECYCLE, MoveKind.BLANK_SWAP):
            what = "a recycle" if move.kind is MoveKind.RECYCLE else "a blank swap"
            return dataclasses.replace(turn, skipped=f"{what} starts the turn; the play that ends it is analysed")
        board, rules, alphabet = game.board, game.rules, game.alphabet
        rack = game.rack()
        bag = len(game.bag)
        value = leave_valuer(alphabet, self.leaves, bag)
        plays = self.plays(board, rack, bag, rules)
        made = self.valued(board, rack, move, turn.score, value)
        # Where the move made sits among the plays: the generator lists every
        # legal play once; a phony, or a pass the bot would not weigh, ranks
        # after the plays better than it.
        index = bisect.bisect_left(plays, play_order(made), key=play_order)
        for j in range(max(0, index - 2), min(len(plays), index + 3)):
            if plays[j].move == made.move:
                made, index = plays[j], j
                break
        played = self.ranked(board, made, index + 1, len(rack), rules)
        equity = value(rack) if turn.withdrawn else made.equity
        best_bingo: RankedPlay | None = None
        bingos = 0
        if len(rack) >= rules.bingo_tiles:
            for j, play in enumerate(plays):
                if _is_bingo(play, len(rack), rules):
                    bingos += 1
                    if best_bingo is None:
                        best_bingo = self.ranked(board, play, j + 1, len(rack), rules)
        best = tuple(self.ranked(board, plays[j], j + 1, len(rack), rules) for j in range(min(self.top, len(plays))))
        return dataclasses.replace(
            turn,
            played=played,
            equity=equity,
            best=best,
            plays=len(plays),
            best_bingo=best_bingo,
            bingos=bingos,
        )

    def plays(self, board: Board, rack: list[Tile], bag: int, rules: Rules) -> Sequence[Play]:
        """Every play the equity bot weighs, best first (a pass when there is
        nothing else)."""
        exchanges = bag >= rules.exchange_min_bag
        plays: Sequence[Play] = self.generator.generate(
            board,
            rack,
            leaves=self.leaves,
            bag_count=bag,
            exchanges=exchanges,
            exchange_min_bag=rules.exchange_min_bag,
        )
        if self.variations is not None and rules.anagram:
            value = leave_valuer(board.alphabet, self.leaves, bag)
            anagrams = self.variations.anagram_plays(board, rack, lexicon=self.lexicon, valuer=value)
            if anagrams:
                plays = sorted([*plays, *anagrams], key=play_order)
        if not plays:
            kept = tuple(sorted(rack))
            plays = [Play(Move.pass_(), 0, kept, leave_valuer(board.alphabet, self.leaves, bag)(kept))]
        elif board.is_empty():
            plays = adjust_opening(plays, board.layout, board.alphabet, OPENING_PENALTY)
        return plays

    def valued(
        self, board: Board, rack: list[Tile], move: Move, score: int, value: Callable[[Sequence[Tile]], int]
    ) -> Play:
        """The move made as a play: its score, leave and equity."""
        if move.kind is MoveKind.PLACE:
            used = [rack_tile(t) for t in move.tiles_used]
        elif move.kind is MoveKind.ANAGRAM:
            used = [rack_tile(t) for t in check_anagram(board, move).tiles_used]
        elif move.kind is MoveKind.EXCHANGE:
            move = Move.exchange(move.tiles)
            used = list(move.tiles)
        else:
            used = []
        kept = list(rack)
        for tile in used:
            kept.remove(tile)
        kept.sort()
        equity = score * MILLIPOINTS + value(kept)
        if board.is_empty():  # the opening adjustment, as the bots' engine counts it
            equity -= OPENING_PENALTY * HotSquares.of(board.layout).vowels(move, board.alphabet)
        return Play(move, score, tuple(kept), equity)

    def ranked(self, board: Board, play: Play, rank: int, rack_size: int, rules: Rules) -> RankedPlay:
        return RankedPlay(
            rank=rank,
            move=play.move,
            notation=board.notation(play.move),
            score=play.score,
            leave=board.alphabet.format_rack(play.leave),
            equity=play.equity,
            bingo=_is_bingo(play, rack_size, rules),
        )


def _is_bingo(play: Play, rack_size: int, rules: Rules) -> bool:
    """Whether a play puts down enough tiles for the bingo bonus."""
    kind = play.move.kind
    return kind in (MoveKind.PLACE, MoveKind.ANAGRAM) and rack_size - len(play.leave) >= rules.bingo_tiles


__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "AnalysisError",
    "GameAnalysis",
    "Grade",
    "PlayerTotals",
    "ProgressCallback",
    "RankedPlay",
    "TurnAnalysis",
    "analyze_game",
    "analyze_turn",
]
