"""Replaying a game record, and checking it against the rules.

:func:`replay` turns a :class:`~tilebag.record.GameRecord` into a live
:class:`~tilebag.Game` (raising at the first event that disagrees with the
rules); :func:`check` replays it all and reports every recorded score, running
total, rack and placement that disagrees, each with its line.

Records leave things out, and the replay fills them in the way the rules
allow: racks that are partial or missing are completed from the unseen tiles;
a player moving twice in a row after a play means the opponent challenged it
and lost their turn; the scoreless-turn limit is read from how the record
ends; end-of-game rack points are accepted both as the rules count them
(each rack subtracted and added to the player who went out) and as
tournament software records them (twice the opponent's rack, the opponent's
score unchanged).

A variation game's record states its rules in pragmas (see
:func:`tilebag.formats.gcg.rules_pragmas`), and the replay plays by them: anagram
plays are scored, recycles and blank swaps are checked against the board and
the rack (the record is the authority on the words a recycle made; with a
``lexicon`` they are checked like a play's), time-outs are passes, and the
time each player used (``#clock-used``, or as much as the recorded overtime
penalties need) is spent on the clocks, so the game counts the penalties at
the end itself and the recorded ones are checked against them. A record
may end with a resignation (``#resign nick``): the game ends there.

:func:`resume` goes on with an unfinished game from its record: the replay,
with the racks the record ends with (``#rack1`` ...) on the players' racks
and the unseen tiles shuffled in the bag.

>>> from tilebag.formats import gcg
>>> record = gcg.loads(">alice: HNOR 8F HORN +14 14\\n>bob: AFM H6 FA.M +9 9\\n")
>>> game = replay(record)
>>> game.scores
[14, 9]
>>> report = check(gcg.loads(">alice: HNOR 8F HORN +16 16\\n"))
>>> print(report.errors[0].message)
recorded score +16, the rules give +14 (HORN 14)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from tilebag.alphabet import BLANK_BIT, Tile, load_alphabet, rack_tile
from tilebag.clock import RecordedTimes
from tilebag.errors import IllegalMoveError, TilebagError
from tilebag.formats.replay_report import CheckReport, Finding, ReplayError, Severity
from tilebag.game import Game, Termination
from tilebag.lexicon import DEFAULT_LEXICON, Lexicon, default_lexicon
from tilebag.move import Move, MoveKind
from tilebag.record import Event, EventKind, GameRecord, event_text
from tilebag.rules import ChallengeMode, EndAdjustment, Rules, RulesError
from tilebag.variants import check_anagram, check_recycle

_NO_LIMIT = 1_000_000


class _Stop(Exception):
    pass


def rules_for(record: GameRecord, base: Rules | None = None) -> Rules:
    """The rules a record was played under, as far as it says: its tile set,
    its rules pragmas (challenge mode, scoreless-turn limit, board, and every
    variation: see :func:`tilebag.formats.gcg.pragma_rules`), and the way it counts
    the racks at the end.

    :raises RulesError: when a rules pragma's value is not one its option
        takes, or the pragmas conflict.
    """
    try:
        rules = record.rules(base)
    except RulesError as err:
        raise RulesError(f"the rules the record states conflict: {err}") from None
    players = max(len(record.players), 1)
    rules = rules.replace(max_players=max(rules.max_players, players))
    alphabet = load_alphabet(record.alphabet)
    for event in record.events:
        if event.kind is EventKind.END_RACK_POINTS and players == 2:
            value = alphabet.rack_value(event.end_rack)
            others_penalised = any(
                e.kind is EventKind.END_RACK_PENALTY and e.player != event.player for e in record.events
            )
            if value and event.score != value and not others_penalised:
                rules = rules.replace(end_adjustment=EndAdjustment.DOUBLE)
    return rules


def replay(record: GameRecord, *, rules: Rules | None = None, lexicon: Lexicon | None = None) -> Game:
    """The game a record describes.

    :raises ReplayError: at the first event that disagrees with the rules.
    """
    report = _run(record, rules=rules, lexicon=lexicon, strict=True, source=None)
    assert report.game is not None
    return report.game


def check(
    record: GameRecord,
    *,
    rules: Rules | None = None,
    lexicon: Lexicon | None = None,
    source: str | None = None,
) -> CheckReport:
    """Replay a record and report every figure, rack and placement that
    disagrees with the rules. With a ``lexicon``, words it does not hold are
    reported as warnings (a phony can stand unless challenged)."""
    return _run(record, rules=rules, lexicon=lexicon, strict=False, source=source)


def _run(
    record: GameRecord, *, rules: Rules | None, lexicon: Lexicon | None, strict: bool, source: str | None
) -> CheckReport:
    try:
        base = rules_for(record, rules)
    except RulesError as err:
        report = CheckReport(source)
        finding = Finding(Severity.ERROR, 0, "", f"cannot set up the game: {err}", fatal=True)
        report.findings.append(finding)
        if strict:
            raise ReplayError(finding, source) from None
        return report
    if base.scoreless_turns is not None:
        return _Replayer(record, base, lexicon, strict, source).run()
    # The limit is not stated: find it from how the record ends. A first pass
    # with no limit sees whether the record ends with rack penalties after a
    # run of scoreless turns (then that run is the limit), or else how long
    # its longest run is (any higher limit fits).
    first = _Replayer(record, base.replace(scoreless_turns=_NO_LIMIT), None, False, source)
    first.run()
    players = max(len(record.players), 1)
    limit = first.ended_scoreless or max(base.scoreless_limit(players), first.longest_scoreless + 1)
    return _Replayer(record, base.replace(scoreless_turns=limit), lexicon, strict, source).run()


class _RecordLexicon:
    """The replayed game's lexicon: the one the check was given (else the
    default one), but open to every word while a recycle from the record is
    applied (the record says it was accepted; its words are reported as a
    play's are)."""

    def __init__(self, lexicon: Lexicon | None) -> None:
        self._lexicon = lexicon
        self.name = lexicon.name if lexicon is not None else DEFAULT_LEXICON
        self.open = False

    def __contains__(self, word: object) -> bool:
        if self.open:
            return True
        if self._lexicon is None:
            self._lexicon = default_lexicon()
        return word in self._lexicon

    @contextmanager
    def opened(self) -> Iterator[None]:
        self.open = True
        try:
            yield
        finally:
            self.open = False


class _Replayer:
    def __init__(
        self, record: GameRecord, rules: Rules, lexicon: Lexicon | None, strict: bool, source: str | None
    ) -> None:
        self.record = record
        self.rules = rules
        self.lexicon = lexicon
        self.judge = _RecordLexicon(lexicon)
        self.clocks = RecordedTimes(record, rules, len(record.players) or 2)
        self.strict = strict
        self.source = source
        self.report = CheckReport(source)
        self.alphabet = load_alphabet(record.alphabet)
        self.longest_scoreless = 0
        self.ended_scoreless: int | None = None
        self.game: Game | None = None
        self.penalties_matched: set[int] = set()
        """The players whose overtime penalty, as the game counted it, a record line matched."""

    # -- reporting ------------------------------------------------------

    def finding(
        self, event: Event | None, message: str, *, warning: bool = False, fatal: bool = False, line: int = 0
    ) -> None:
        text = event_text(self.record, event) if event is not None else ""
        finding = Finding(
            Severity.WARNING if warning else Severity.ERROR,
            event.line if event is not None else line,
            text,
            message,
            fatal,
        )
        self.report.findings.append(finding)
        if self.strict and not warning:
            raise ReplayError(finding, self.source)
        if fatal:
            raise _Stop

    def fmt_rack(self, tiles: object) -> str:
        return self.alphabet.format_rack(tiles)  # type: ignore[arg-type]

    def run(self) -> CheckReport:
        record = self.record
        players = [p.name for p in record.players] or ["player1", "player2"]
        to_move = record.to_move
        first = record.events[0].player if record.events else to_move or 0
        try:
            if to_move is not None and not 0 <= to_move < len(players):
                line = record.pragma_lines.get("to-move", 0)
                self.finding(None, f"#to-move: there is no player {to_move + 1}", fatal=True, line=line)
            try:
                self.game = Game(players, rules=self.rules, lexicon=self.judge, seed=0, first=first)
            except TilebagError as err:
                self.finding(None, f"cannot set up the game: {err}", fatal=True)
        except _Stop:
            return self.report
        self.report.game = self.game
        try:
            if self.clocks.problem is not None:
                self.finding(None, f"{self.clocks.problem}: the clocks are not replayed", warning=True)
            for event in record.events:
                self.step(event)
            self.final_racks()
            self.unrecorded_penalties()
            self.check_to_move(to_move)
        except _Stop:
            pass
        return self.report

    def check_to_move(self, to_move: int | None) -> None:
        """The player to move after the events must be the one the record names."""
        g = self.game
        assert g is not None
        if to_move is None:
            return
        line = self.record.pragma_lines.get("to-move", 0)
        name = self.name(to_move)
        if g.is_over():
            self.finding(None, f"#to-move {name}, but the game is over ({g.result_text()})", line=line)
        elif g.turn != to_move:
            self.finding(
                None, f"#to-move {name}, but after the record's events it is {self.name(g.turn)}'s turn", line=line
            )

    # -- events -----------------------------------------------------------

    def step(self, event: Event) -> None:
        g = self.game
        assert g is not None
        if not 0 <= event.player < len(g.players):
            self.finding(event, f"player {event.player + 1} is not in the game", fatal=True)
        if g.termination is Termination.RESIGNED:
            self.finding(event, f"the game is already over ({g.result_text()})", fatal=True)
        kind = event.kind
        if kind is EventKind.RESIGN:
            self.resign(event)
        elif kind.is_turn:
            self.turn(event)
        elif kind in (EventKind.RECYCLE, EventKind.BLANK_SWAP):
            self.action(event)
        elif kind is EventKind.WITHDRAWN:
            self.withdrawn(event)
        elif kind is EventKind.CHALLENGE:
            self.challenge(event)
        elif kind is EventKind.END_RACK_POINTS:
            self.end_points(event)
        elif kind is EventKind.END_RACK_PENALTY:
            self.end_penalty(event)
        elif kind is EventKind.TIME_PENALTY and g.is_over() and g.rules.game_clock and g.rules.overtime_penalty:
            self.overtime_penalty(event)
        elif kind is EventKind.TIME_PENALTY:
            if event.score > 0 or event.score % 5:
                self.finding(
                    event,
                    f"recorded time penalty {event.score:+d}: a penalty takes away 5 or 10 points per minute over",
                )
            g.add_points(event.player, event.score, EventKind.TIME_PENALTY)
            self.check_total(event, g.players[event.player].score)

    def name(self, player: int) -> str:
        assert self.game is not None
        return self.game.players[player].name

    def resign(self, event: Event) -> None:
        g = self.game
        assert g is not None
        if g.is_over():
            self.finding(event, f"the game is already over ({g.result_text()})", fatal=True)
        if event.score != 0:
            self.finding(event, f"a resignation scores nothing, the record says {event.score:+d}")
        g.resign(event.player)
        self.check_total(event, g.players[event.player].score)

    def turn(self, event: Event) -> None:
        g = self.game
        assert g is not None
        p = event.player
        if g.is_over():
            if event.kind is EventKind.PASS and g.went_out is not None and p != g.went_out and event.score == 0:
                # The opponent's final pass: they accept the play that went out.
                self.check_total(event, self.total_after(event))
                return
            self.finding(event, f"the game is already over ({g.result_text()})", fatal=True)
        self.to_move(event)
        self.longest_scoreless = max(self.longest_scoreless, g.scoreless)
        move = self.move_for(event)
        if move is None:
            return
        words_before = None
        tiles_played = 0
        if move.kind is MoveKind.PLACE:
            try:
                normal = g.board.check_placement(move, first_play_min_tiles=g.rules.min_first_word)
            except IllegalMoveError as err:
                self.finding(event, f"illegal placement: {err}", fatal=True)
                return
            words_before = g.board.words(normal)
            tiles_played = len(normal.placed())
            move = normal
        elif move.kind is MoveKind.ANAGRAM:
            play = g.anagram_play(move)
            words_before = play.words
            tiles_played = len(play.tiles_used)
        try:
            if event.kind is EventKind.TIME_OUT:
                if g.rules.turn_time is None:
                    self.finding(event, "a time-out, but these rules have no turn timer")
                g.time_out(self.clocks.for_time_out(g.turn, g.turn_elapsed))
                score = 0
            else:
                score = g.push(move, seconds=self.clocks.for_move(g.turn, g.turn_elapsed))
        except IllegalMoveError as err:
            if move.kind is MoveKind.EXCHANGE and event.score == 0:
                self.finding(event, f"illegal exchange: {err}")
                score = g.push(Move.pass_())
            else:
                what = "anagram play" if move.kind is MoveKind.ANAGRAM else "move"
                self.finding(event, f"illegal {what}: {err}", fatal=True)
                return
        self.longest_scoreless = max(self.longest_scoreless, g.scoreless)
        if event.score != score:
            detail = ""
            if words_before is not None:
                detail = " (" + ", ".join(f"{self.alphabet.format_word(w.tiles)} {w.score}" for w in words_before)
                if tiles_played >= g.rules.bingo_tiles:
                    detail += f", bingo {g.rules.bingo_bonus}"
                detail += ")"
            self.finding(event, f"recorded score {event.score:+d}, the rules give {score:+d}{detail}")
        if words_before is not None and self.lexicon is not None:
            phonies = [self.alphabet.format_word(w.tiles) for w in words_before if w.tiles not in self.lexicon]
            if phonies:
                self.finding(event, f"not in {self.lexicon.name}: {', '.join(phonies)}", warning=True)
        self.check_total(event, self.total_after(event))

    def to_move(self, event: Event) -> None:
        """Check that it is the event's player's turn (a player moving again
        after their play means the opponent challenged it and lost their
        turn)."""
        g = self.game
        assert g is not None
        p = event.player
        if p != g.turn and g.challengeable is not None and g.rules.challenge is ChallengeMode.DOUBLE:
            g.challenge(g.turn, valid=True)
        if p != g.turn:
            self.finding(event, f"plays out of turn: it is {self.name(g.turn)}'s turn", fatal=True)

    def total_after(self, event: Event) -> int:
        """The player's running total right after this event, as the game has
        it (the game may already have counted the racks, and the clocks, at
        the end)."""
        g = self.game
        assert g is not None
        if g.is_over():
            return g.scores_before_adjustments()[event.player]
        return g.players[event.player].score

    def action(self, event: Event) -> None:
        """A recycle or a blank swap: the start of the player's turn."""
        g = self.game
        assert g is not None
        move = event.move
        assert move is not None
        what = "recycle" if move.kind is MoveKind.RECYCLE else "blank swap"
        if g.is_over():
            self.finding(event, f"the game is already over ({g.result_text()})", fatal=True)
        self.to_move(event)
        needed: list[Tile] = []
        words: list[tuple[Tile, ...]] = []
        try:
            if move.kind is MoveKind.RECYCLE:
                needed = [rack_tile(t) for t in move.tiles]
                words = check_recycle(g.board, move)
            else:
                tile = g.board.at(move.row, move.col)
                if tile & BLANK_BIT:
                    needed = [tile & ~BLANK_BIT]
        except IllegalMoveError as err:
            self.finding(event, f"illegal {what}: {err}", fatal=True)
        self.check_on_rack(event, needed, event.rack, "recycles" if move.kind is MoveKind.RECYCLE else "swaps")
        self.set_rack(event, event.rack, needed=needed)
        try:
            with self.judge.opened():
                g.push(move, seconds=self.clocks.for_move(g.turn, g.turn_elapsed))
        except IllegalMoveError as err:
            self.finding(event, f"illegal {what}: {err}", fatal=True)
        if self.lexicon is not None:
            phonies = [self.alphabet.format_word(w) for w in words if w not in self.lexicon]
            if phonies:
                self.finding(event, f"not in {self.lexicon.name}: {', '.join(phonies)}", warning=True)

    def overtime_penalty(self, event: Event) -> None:
        """A recorded time penalty of a game played on a game clock: the game
        counted its penalties at the end; this must be one of them."""
        g = self.game
        assert g is not None
        p = event.player
        computed = self.end_event(EventKind.TIME_PENALTY, p) if g.overtime_penalties()[p] else None
        if computed is None or p in self.penalties_matched:
            why = (
                f"{self.name(p)}'s overtime penalty is already counted"
                if computed is not None
                else f"{self.name(p)} used {g.clock_used[p]:g} s, not over the game clock of {g.rules.game_clock:g} s"
            )
            self.finding(event, f"recorded time penalty {event.score:+d}, but {why}")
            g.add_points(p, event.score, EventKind.TIME_PENALTY)
            self.check_total(event, g.players[p].score)
            return
        self.penalties_matched.add(p)
        if event.score != computed.score:
            self.finding(
                event,
                f"recorded time penalty {event.score:+d}, the game clock gives {computed.score:+d} "
                f"({g.rules.overtime_penalty} points per started minute over)",
            )
        self.check_total(event, computed.total)

    def unrecorded_penalties(self) -> None:
        """Overtime penalties the game counted that no line of the record has."""
        g = self.game
        assert g is not None
        if not (g.is_over() and g.rules.game_clock and g.rules.overtime_penalty):
            return
        for p, points in enumerate(g.overtime_penalties()):
            if points and p not in self.penalties_matched:
                self.finding(
                    None,
                    f"{self.name(p)} used {g.clock_used[p]:g} s of a {g.rules.game_clock:g} s "
                    f"game clock: a time penalty of {-points:+d} is not in the record",
                )

    def move_for(self, event: Event) -> Move | None:
        """The move to push for a turn event, with the player's rack set from
        the record."""
        g = self.game
        assert g is not None
        p = event.player
        recorded = event.rack
        if event.kind in (EventKind.PASS, EventKind.TIME_OUT):
            if event.score != 0:
                what = "a pass" if event.kind is EventKind.PASS else "a time-out is a pass and"
                self.finding(event, f"{what} scores 0, the record says {event.score:+d}")
            self.set_rack(event, recorded, needed=[])
            return Move.pass_()
        if event.kind is EventKind.EXCHANGE:
            if event.score != 0:
                self.finding(event, f"an exchange scores 0, the record says {event.score:+d}")
            if event.move is None:
                self.set_rack(event, recorded, needed=[])
                count = event.exchange_count or 0
                rack = g.rack(p)
                if count > len(rack):
                    self.finding(event, f"exchanges {count} tiles, the rack holds {len(rack)}", fatal=True)
                return Move.exchange(rack[:count])
            needed = list(event.move.tiles)
            self.check_on_rack(event, needed, recorded, "exchanges")
            self.set_rack(event, recorded, needed=needed)
            return event.move
        assert event.move is not None
        if event.move.kind is MoveKind.ANAGRAM:
            try:
                play = check_anagram(g.board, event.move)
            except (IllegalMoveError, ValueError) as err:
                self.finding(event, f"illegal anagram play: {err}", fatal=True)
                return None
            needed = [rack_tile(t) for t in play.tiles_used]
            self.check_on_rack(event, needed, recorded, "plays")
            self.set_rack(event, recorded, needed=needed)
            return event.move
        try:
            normal = g.board.check_placement(event.move, first_play_min_tiles=g.rules.min_first_word)
        except IllegalMoveError as err:
            self.finding(event, f"illegal placement: {err}", fatal=True)
            return None
        needed = [rack_tile(t) for t in normal.tiles_used]
        self.check_on_rack(event, needed, recorded, "plays")
        self.set_rack(event, recorded, needed=needed)
        return normal

    def check_on_rack(self, event: Event, needed: list[Tile], recorded: tuple[Tile, ...] | None, verb: str) -> None:
        """A recorded rack that lacks tiles the move uses is the recorder's
        slip (the rack line is their note): a warning, and the scores decide."""
        if recorded is None:
            return
        missing = Counter(needed) - Counter(recorded)
        if missing:
            self.finding(
                event,
                f"{verb} {self.fmt_rack(missing.elements())}, which the recorded rack {self.fmt_rack(recorded)} "
                "does not hold",
                warning=True,
            )

    def set_rack(self, event: Event, recorded: tuple[Tile, ...] | None, *, needed: list[Tile]) -> None:
        """Give the player the recorded rack (completed from the unseen tiles),
        or at least the tiles the move needs: a recorded rack that lacks some
        of them has them in place of tiles the move does not use."""
        g = self.game
        assert g is not None
        p = event.player
        wanted = list(recorded) if recorded is not None else []
        wanted += (Counter(needed) - Counter(wanted)).elements()
        spare = Counter(wanted) - Counter(needed)
        for i in range(len(wanted) - 1, -1, -1):
            if len(wanted) <= g.rules.rack_size:
                break
            if spare[wanted[i]]:
                spare[wanted[i]] -= 1
                del wanted[i]
        if not wanted:
            return
        if Counter(wanted) <= Counter(g.rack(p)):
            return
        try:
            g.set_rack(p, wanted)
            return
        except IllegalMoveError as err:
            if recorded is not None and Counter(needed) != Counter(wanted):
                self.finding(event, f"the recorded rack cannot be held: {err}", warning=True)
        if not needed:
            return
        try:
            g.set_rack(p, needed)
        except IllegalMoveError as err:
            self.finding(event, f"the tiles are not available: {err}", fatal=True)

    def last_play(self) -> Event | None:
        g = self.game
        assert g is not None
        for e in reversed(g.events):
            if e.kind.is_turn or e.kind is EventKind.WITHDRAWN:
                return e if e.kind is EventKind.PLACE else None
        return None

    def withdrawn(self, event: Event) -> None:
        g = self.game
        assert g is not None
        play = g.challengeable
        if play is None or play.player != event.player:
            self.finding(event, f"there is no play of {self.name(event.player)}'s to withdraw", fatal=True)
            return
        before = play.score
        challenger = g.turn if g.turn != event.player else (event.player + 1) % len(g.players)
        g.challenge(challenger, valid=False)
        if event.score != -before:
            self.finding(event, f"recorded {event.score:+d}, withdrawing the play takes back {-before:+d}")
        self.check_total(event, self.total_after(event))

    def challenge(self, event: Event) -> None:
        g = self.game
        assert g is not None
        p = event.player
        self.set_rack(event, event.rack, needed=[])  # the rack it records, as for a turn
        play = self.last_play()
        if play is not None and play.player == p:
            # A bonus to the player whose play was challenged (as 5-point
            # challenge tournaments record it).
            words = max(1, len(g.words_of(play)))
            allowed = sorted({unit * k for unit in (5, 10) for k in range(1, words + 1)})
            if event.score not in allowed:
                self.finding(
                    event,
                    f"recorded challenge bonus {event.score:+d}, a bonus is 5 or 10 points "
                    f"(per word: {', '.join(f'+{a}' for a in allowed)})",
                )
            g.add_points(p, event.score, EventKind.CHALLENGE)
            self.check_total(event, self.total_after(event))
            return
        if g.challengeable is None:
            self.finding(event, "there is no play to challenge", fatal=True)
            return
        result = g.challenge(p, valid=True)
        if event.score != result.points:
            self.finding(
                event,
                f"recorded {event.score:+d}, a failed challenge costs {result.points:+d} in "
                f"{g.rules.challenge.value} challenge mode",
            )
        self.check_total(event, self.total_after(event))

    def end_event(self, kind: EventKind, player: int) -> Event | None:
        g = self.game
        assert g is not None
        return next((e for e in g.events if e.kind is kind and e.player == player), None)

    def end_points(self, event: Event) -> None:
        g = self.game
        assert g is not None
        p = event.player
        if not g.is_over() or g.went_out != p:
            why = "the game is not over" if not g.is_over() else f"{self.name(p)} did not go out"
            self.finding(event, f"end-of-game rack points, but {why}", fatal=True)
            return
        others = [i for i in range(len(g.players)) if i != p]
        left = sorted(t for i in others for t in g.players[i].rack)
        if left != sorted(event.end_rack):
            if len(others) == 1:
                try:
                    g.set_rack(others[0], event.end_rack, exact=True)
                except IllegalMoveError:
                    pass
                left = sorted(g.players[others[0]].rack)
            if left != sorted(event.end_rack):
                self.finding(
                    event,
                    f"recorded rack ({self.fmt_rack(event.end_rack)}), but the tiles left are ({self.fmt_rack(left)})",
                )
        computed = self.end_event(EventKind.END_RACK_POINTS, p)
        assert computed is not None
        if event.score != computed.score:
            value = self.alphabet.rack_value(left)
            how = "twice" if g.rules.end_adjustment is EndAdjustment.DOUBLE else "the value of"
            self.finding(event, f"recorded {event.score:+d}, {how} the tiles left ({value}) is {computed.score:+d}")
        self.check_total(event, computed.total)

    def end_penalty(self, event: Event) -> None:
        g = self.game
        assert g is not None
        p = event.player
        if not g.is_over():
            if self.ended_scoreless is None and g.scoreless > 0 and g.rules.scoreless_turns == _NO_LIMIT:
                self.ended_scoreless = g.scoreless
                raise _Stop
            self.finding(event, "a rack penalty, but the game is not over", fatal=True)
            return
        if sorted(g.players[p].rack) != sorted(event.end_rack):
            try:
                g.set_rack(p, event.end_rack, exact=True)
            except IllegalMoveError as err:
                self.finding(event, f"recorded rack ({self.fmt_rack(event.end_rack)}) cannot be held: {err}")
                return
        computed = self.end_event(EventKind.END_RACK_PENALTY, p)
        if computed is None:
            if g.termination is Termination.WENT_OUT and g.rules.end_adjustment is EndAdjustment.DOUBLE:
                self.finding(event, "the rack was already counted twice for the player who went out")
            else:
                self.finding(event, f"{self.name(p)} has no tiles left to lose")
            return
        if event.score != computed.score:
            value = self.alphabet.rack_value(event.end_rack)
            self.finding(event, f"recorded {event.score:+d}, the rack ({self.fmt_rack(event.end_rack)}) is worth {value}")
        self.check_total(event, computed.total)

    def check_total(self, event: Event, computed: int) -> None:
        if event.total != computed:
            self.finding(event, f"recorded running total {event.total}, the rules give {computed}")

    def final_racks(self) -> None:
        g = self.game
        assert g is not None
        for index, tiles in sorted(self.record.final_racks.items()):
            if index >= len(g.players):
                self.finding(None, f"#rack{index + 1}: there is no player {index + 1}", warning=True)
                continue
            try:
                g.set_rack(index, tiles)
            except IllegalMoveError as err:
                self.finding(None, f"#rack{index + 1} {self.fmt_rack(tiles)} cannot be held: {err}", warning=True)


def resume(
    record: GameRecord,
    *,
    rules: Rules | None = None,
    lexicon: Lexicon | None = None,
    seed: int | None = None,
    source: str | None = None,
) -> Game:
    """A live game that goes on from the end of the record of an unfinished
    game (as :meth:`tilebag.Game.record` writes one, racks included).

    The record is replayed (:func:`replay`); each player gets the rack its
    ``#rackN`` pragma names (a player without one keeps tiles drawn from the
    unseen ones), and the bag, holding exactly the tiles on no rack and not
    on the board, is shuffled from ``seed``. Whose turn it is (as the
    events say, which ``#to-move`` must agree with; before the first move,
    as ``#to-move`` says), the scores, the time each player used (but not
    the time the turn in progress has taken), turns still to be lost after
    a failed challenge, and the rules are as the record leaves them; when
    it ends right after a play, that play may still be challenged. The game
    takes moves, and its record can be saved and resumed again.

    >>> from tilebag import Game
    >>> from tilebag.formats import gcg
    >>> game = Game(["alice", "bob"], seed=7, first=0)
    >>> game.set_rack(0, "HNORSTU")
    >>> game.push_gcg("8F HORN")
    14
    >>> text = gcg.dumps(game.record())
    >>> text.splitlines()[-4:]
    ['>alice: HNORSTU 8F HORN +14 14', '#rack1 ISTTUU?', '#rack2 AABEIOR', '#to-move bob']
    >>> again = resume(gcg.loads(text), seed=1)
    >>> again.scores, again.turn, sorted(again.rack(0)) == sorted(game.rack(0)), again.challengeable is not None
    ([14, 0], 1, True, True)

    :param rules: the rules to replay under, when the record's pragmas do
        not say them all (see :func:`rules_for`).
    :param lexicon: the game's lexicon from now on, which judges challenges
        and which bots play from (default: the default one). The record's
        ``#lexicon`` names the one it was played with; loading it is the
        caller's choice.
    :param seed: for the bag's new order (default: unpredictable).
    :param source: the record's file name, for error messages.
    :raises ReplayError: naming the line of the first event or rack that
        disagrees with the rules, or when the game is over.
    """
    report = _run(record, rules=rules, lexicon=lexicon, strict=True, source=source)
    game = report.game
    assert game is not None

    def fail(line: int, message: str) -> ReplayError:
        return ReplayError(Finding(Severity.ERROR, line, "", message, fatal=True), source)

    if game.is_over():
        line = record.events[-1].line if record.events else 0
        raise fail(line, f"the game is over ({game.result_text()}): there is nothing to resume")
    alphabet = game.alphabet
    for index, tiles in sorted(record.final_racks.items()):
        line = record.pragma_lines.get(f"rack{index + 1}", 0)
        if index >= len(game.players):
            raise fail(line, f"#rack{index + 1}: the game has {len(game.players)} players")
        if Counter(game.rack(index)) != Counter(tiles):
            try:
                game.set_rack(index, tiles, exact=True)
            except IllegalMoveError as err:
                raise fail(line, f"#rack{index + 1} {alphabet.format_rack(tiles)} cannot be held: {err}") from None
    for index, tiles in sorted(record.final_racks.items()):
        if Counter(game.rack(index)) != Counter(tiles):
            others = ", ".join(f"#rack{i + 1}" for i in sorted(record.final_racks) if i != index)
            raise fail(
                record.pragma_lines.get(f"rack{index + 1}", 0),
                f"#rack{index + 1} {alphabet.format_rack(tiles)} and {others} hold more tiles than are unseen",
            )
    base = rules_for(record, rules)
    if base.scoreless_turns is None:
        # the replay found a limit the record does not state; keep it unstated when it is the usual one
        standard = game.rules.replace(scoreless_turns=None)
        if standard.scoreless_limit(len(game.players)) == game.rules.scoreless_limit(len(game.players)):
            game.rules = standard
    game.lexicon = lexicon
    game.reshuffle(seed)
    return game


__all__ = [
    "CheckReport",
    "Finding",
    "ReplayError",
    "Severity",
    "check",
    "replay",
    "resume",
    "rules_for",
]
