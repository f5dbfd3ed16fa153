"""What the game says, in words: the text helpers of the terminal game
and :class:`Narrator`, which tells each :class:`~tilebag.table.TableEvent`
as a sentence (``alice plays 8F HORN: HORN 14 = 14 points (total 14)``).
A player named "You" is addressed as such (``You play``, ``Your rack``).

>>> format_words([("HORN", 14)], bingo=0)
'HORN 14'
>>> format_words([("PASTE", 19), ("FARMS", 6)], bingo=0)
'PASTE 19 + FARMS 6'
"""

from __future__ import annotations

from collections.abc import Sequence

from tilebag.alphabet import BLANK, BLANK_BIT, Tile, rack_tile
from tilebag.clock import format_clock, format_seconds
from tilebag.errors import Illegal, IllegalMoveError
from tilebag.game import Game
from tilebag.move import MoveKind
from tilebag.record import EventKind, withdrawn_plays
from tilebag.rules import ChallengeMode, Rules
from tilebag.table import (
    BotRefused,
    BotStalled,
    Challenged,
    EndAccepted,
    Played,
    Resigned,
    Table,
    TableEvent,
    TimeUp,
    TurnMissed,
    Undone,
)

YOU = "You"
"""The one person at the table when bots but no names are given."""


def format_words(words: Sequence[tuple[str, int]], bingo: int) -> str:
    """The words a play formed with their scores, and the bingo bonus."""
    parts = [f"{word} {score}" for word, score in words]
    if bingo:
        parts.append(f"{bingo} for the bingo")
    return " + ".join(parts)


def is_you(name: str) -> bool:
    """True for a player named "You", who is addressed as such."""
    return name.casefold() == YOU.casefold()


def possessive(name: str) -> str:
    """``alice's``, ``James'``, ``your``.

    >>> possessive("alice"), possessive("James"), possessive("You")
    ("alice's", "James'", 'your')
    """
    if is_you(name):
        return "your"
    return f"{name}'" if name.endswith("s") else f"{name}'s"


_SECOND_PERSON = {"passes": "pass", "goes": "go", "misses": "miss"}


def verb(name: str, third: str) -> str:
    """A verb after a player's name: ``plays``, or ``play`` after "You".

    >>> f"alice {verb('alice', 'passes')}", f"You {verb('You', 'passes')}"
    ('alice passes', 'You pass')
    """
    if not is_you(name):
        return third
    return _SECOND_PERSON.get(third, third.removesuffix("s"))


def capitalized(text: str) -> str:
    """``your rack`` as ``Your rack``; names keep their case."""
    return "Your" + text[4:] if text.startswith("your") else text


def help_text(rules: Rules, *, practice: bool = False, bots: bool = False) -> str:
    """The commands, for ``help``: the variations' actions and commands
    only when the rules allow them (hints and lookups also in practice mode,
    undo only for one person against bots)."""
    mode = rules.challenge
    if mode is ChallengeMode.VOID:
        challenge = "  (void challenge mode: a play with a word not in the lexicon is refused on entry)"
    else:
        challenge = (
            "  challenge, c    challenge the last play before you move (challenge NAME: NAME challenges)\n"
            f"                  {mode.value} challenge: {challenge_terms(mode)}"
        )
    lines = [
        "Moves (GCG notation):",
        "  8F HORN         play across from 8F (row 8, column F); F8 HORN plays down from F8",
        "  H6 FA.M         a '.' (or the letter in brackets, H6 FA(R)M) for a tile already on the board",
        "  8F HoRN         a lower-case letter is a blank standing for that letter",
        f"  -ABC            exchange A, B and C (? for a blank); {rules.exchange_min_bag} tiles must be in the bag",
        "  -               pass",
    ]
    if rules.min_first_word > 2:
        lines.append(f"  The {first_word_text(rules.min_first_word)}.")
    variations = variation_help(rules)
    if variations:
        lines += ["Variations in these rules:", *variations]
    lines += [
        "Commands:",
        challenge,
        "  board           show the board again",
        "  rack            show your rack",
        "  scores          show the scores",
        "  bag             tiles left in the bag, and the tiles you cannot see",
    ]
    if rules.open_dictionary or practice:
        why = "open dictionary" if rules.open_dictionary else "practice mode"
        lines += [
            f"Coaching ({why}):",
            "  check WORD ...  look words up in the lexicon",
            "  hint            the play the static bot would make with your rack",
            "  better          was there a better play than your last move? (and advice on what you kept)",
            "  words 2         the two-letter words (words 3: three letters, words q: Q without U)",
            "  hooks [WORD]    the letters that hook a word, or every word on the board",
            "  bingos          the bingos of your rack, also through a letter on the board",
            "  advice          rack balance: what your rack is worth and what to keep",
        ]
    else:
        lines.append("  (hints and coaching: play with --practice; review a saved game with tilebag analyze FILE)")
    if rules.turn_time is not None or rules.game_clock is not None:
        lines.append("  time            the time left on the turn timer and the game clocks")
    if bots and (rules.open_dictionary or practice):
        lines.append("  undo, u         take back your last move and the bots' replies (the unseen tiles are shuffled)")
    lines += [
        "  resign          resign the game (you are asked to confirm)",
        "  save FILE       write the game record (GCG) to FILE now",
        "  help, ?         this help",
        "  quit, q         stop the game (the record is written if --save was given)",
    ]
    return "\n".join(lines)


def variation_help(rules: Rules) -> list[str]:
    """Help lines for the actions the rules' variations allow.

    >>> from tilebag.rules import find_rules
    >>> variation_help(find_rules("standard"))
    []
    >>> [line.split()[0] for line in variation_help(find_rules("house")) if line[2] != " "]
    ['recycle', 'swap', 'anagram']
    """
    lines = []
    if rules.recycle:
        lines += [
            "  recycle G8 Z    at the start of your turn, put Z from your rack on G8 and take the letter there;",
            "                  the words it changes must be acceptable; repeat it, then play on (recycle G8 z: a blank as Z)",
        ]
    if rules.blank_swap:
        lines += [
            "  swap G8         at the start of your turn, take the blank on G8 by putting down the letter it",
            "                  stands for from your rack; then play on",
        ]
    if rules.anagram:
        lines += [
            "  anagram 8G TEAS rearrange the word on the board from 8G in its squares and add tiles to it:",
            "                  write the whole new word (premium squares under the old word do not count)",
        ]
    return lines


def first_word_text(length: int) -> str:
    """The minimum first word, as said at the start and in the help.

    >>> first_word_text(4)
    'first word needs 4 letters or more (pass or exchange if you cannot make one)'
    """
    return f"first word needs {length} letters or more (pass or exchange if you cannot make one)"


def rules_text(rules: Rules) -> str:
    """The rules in play, as said at the start of a game.

    >>> from tilebag.rules import find_rules
    >>> rules_text(find_rules("nine-tile"))
    'Rules: nine-tile — rack size 9'
    >>> rules_text(find_rules("standard"))
    'Rules: standard'
    """
    changes = rules.describe()
    return f"Rules: {rules.name}" + (" — " + ", ".join(changes) if changes else "")


def blank_hint(text: str, err: IllegalMoveError) -> str:
    """A reminder that lower case means a blank, when a placement written in
    lower case asked for blanks the rack does not hold.

    >>> from tilebag.errors import Illegal
    >>> blank_hint("8f horn", IllegalMoveError(Illegal.TILE_NOT_ON_RACK, "no ????"))
    ' (lower-case letters are blanks: write the word in capitals)'
    """
    parts = text.split()
    word = parts[-1] if len(parts) > 1 else ""
    if parts and parts[0].lower() == "swap":
        return ""  # swap G8 names a square, not tiles
    if err.reason is Illegal.TILE_NOT_ON_RACK and not text.startswith("-") and any(c.islower() for c in word):
        return " (lower-case letters are blanks: write the word in capitals)"
    return ""


def challenge_terms(mode: ChallengeMode) -> str:
    """What a challenge costs in a challenge mode, in a few words."""
    if mode is ChallengeMode.DOUBLE:
        return "a phony comes off; if the play stands, the challenger loses a turn"
    if mode is ChallengeMode.SINGLE:
        return "a phony comes off; a play that stands costs the challenger nothing"
    return f"a phony comes off; if the play stands, the challenger loses {mode.penalty_points} points"


def summary_lines(game: Game) -> list[str]:
    """The end-of-game summary: each player's turns, points per turn, bingos
    and best play (plays that were taken back do not count).

    >>> game = Game(["alice", "bob"], seed=1, first=0)
    >>> game.set_rack(0, "HNORXYZ")
    >>> _ = game.push_gcg("8F HORN")
    >>> summary_lines(game)[1]
    'alice: 1 turn, 14.0 points a turn, no bingo, best play 8F HORN for 14'
    """
    rules = game.rules
    turns = [0] * len(game.players)
    points = [0] * len(game.players)
    bingos = [0] * len(game.players)
    best: list[tuple[int, str] | None] = [None] * len(game.players)
    withdrawn = withdrawn_plays(game.events)
    for event in game.events:
        if not event.kind.is_turn:
            continue
        i = event.player
        turns[i] += 1
        move = event.move
        if event.kind is not EventKind.PLACE or move is None or id(event) in withdrawn:
            continue
        points[i] += event.score
        if len(move.placed()) >= rules.bingo_tiles:
            bingos[i] += 1
        current = best[i]
        if current is None or event.score > current[0]:
            best[i] = (event.score, game.board.notation(move) if move.kind is MoveKind.PLACE else "")
    lines = ["Summary:"]
    for i, p in enumerate(game.players):
        n = turns[i]
        average = points[i] / n if n else 0.0
        bingo_text = {0: "no bingo", 1: "1 bingo"}.get(bingos[i], f"{bingos[i]} bingos")
        top = best[i]
        best_text = f", best play {top[1]} for {top[0]}" if top is not None else ""
        lines.append(f"{p.name}: {n} turn{'s' if n != 1 else ''}, {average:.1f} points a turn, {bingo_text}{best_text}")
    return lines


class Narrator:
    """Tells a table's events as sentences, as the players see them (an
    exchange by its number of tiles only)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def game(self) -> Game:
        return self.table.game

    def name(self, seat: int) -> str:
        return self.game.players[seat].name

    def does(self, seat: int, third: str) -> str:
        """``alice plays``, ``You play``."""
        name = self.name(seat)
        return f"{name} {verb(name, third)}"

    def lines(self, event: TableEvent) -> list[str]:
        """The sentences that tell ``event``."""
        if isinstance(event, Played):
            return [self.played(event)]
        if isinstance(event, TimeUp):
            return [
                f"Time is up: the turn took {event.took:.0f} s, the turn timer allows {format_seconds(event.limit)}. "
                f"{capitalized(possessive(self.name(event.seat)))} turn is a pass."
            ]
        if isinstance(event, TurnMissed):
            return [f"{self.does(event.seat, 'misses')} this turn (lost on a failed challenge)."]
        if isinstance(event, Challenged):
            return self.ruling(event)
        if isinstance(event, EndAccepted):
            return [f"{self.does(event.seat, 'accepts')} {possessive(self.name(event.player))} {event.play}."]
        if isinstance(event, Resigned):
            return [f"{self.does(event.seat, 'resigns')}."]
        if isinstance(event, BotRefused):
            return [f"{self.name(event.seat)} chose a move the rules refuse ({event.move}: {event.reason})."]
        if isinstance(event, BotStalled):
            return [f"{self.does(event.seat, 'makes')} no move after {event.actions} recycles and blank swaps."]
        if isinstance(event, Undone):
            seat = event.seat
            what = "action" if event.actions == 1 else "actions"
            return [
                f"Took back {event.actions} {what}: {possessive(self.name(seat))} move again. "
                "The tiles you cannot see were shuffled: the bag and the bots' racks are new."
            ]
        return []

    def played(self, event: Played) -> str:
        """What a move did. An exchange shows only how many tiles went back,
        as the opponents see it."""
        me = event.seat
        move = event.move
        if move.kind is MoveKind.PASS:
            return f"{self.does(me, 'passes')}."
        if move.kind is MoveKind.EXCHANGE:
            n = event.exchanged
            return f"{self.does(me, 'exchanges')} {n} tile{'s' if n != 1 else ''}."
        if move.kind is MoveKind.RECYCLE:
            return self.recycled(event)
        if move.kind is MoveKind.BLANK_SWAP:
            assert event.replaced is not None
            letter = event.replaced & ~BLANK_BIT
            return (
                f"{self.does(me, 'puts')} down {self.game.alphabet.label(letter)} for the blank on {event.square}; "
                f"the blank goes to {possessive(self.name(me))} rack. The turn goes on."
            )
        if move.kind is MoveKind.ANAGRAM:
            plays = verb(self.name(me), "plays")
            text = (
                f"{self.does(me, 'rearranges')} {event.rearranged} and {plays} {event.notation}: "
                f"{format_words(event.words, event.bingo)}"
            )
        else:
            text = f"{self.does(me, 'plays')} {event.notation}: {format_words(event.words, event.bingo)}"
        return text + f" = {event.score} point{'s' if event.score != 1 else ''} (total {event.total})"

    def recycled(self, event: Played) -> str:
        """``bob recycles G8: Z in place of the T (now ZEA); the T goes to bob's rack.``"""
        me = event.seat
        old = event.replaced
        assert old is not None
        new = event.move.tiles[0]
        words = [w for w, _ in event.words]
        now = f" (now {', '.join(words)})" if words else ""
        taken = "the blank" if rack_tile(old) == BLANK else f"the {self.game.alphabet.label(old)}"
        return (
            f"{self.does(me, 'recycles')} {event.square}: {self.board_tile_name(new)} in place of "
            f"{self.board_tile_name(old, article='the')}{now}; {taken} goes to {possessive(self.name(me))} rack. "
            "The turn goes on."
        )

    def board_tile_name(self, tile: Tile, article: str = "a") -> str:
        """A tile on the board: ``Z``, or ``a blank as Z``."""
        label = self.game.alphabet.label(tile & ~BLANK_BIT)
        if tile & BLANK_BIT:
            return f"{article} blank as {label}"
        return f"the {label}" if article == "the" else label

    def ruling(self, event: Challenged) -> list[str]:
        """What a challenge decided and what it cost whom."""
        game = self.game
        result = event.result
        challenger = event.seat
        player, me = self.name(event.player), self.name(challenger)
        lines = [
            f"{self.does(challenger, 'challenges')} {possessive(player)} {event.play}: {', '.join(result.words)}."
        ]
        if not result.valid:
            lines.append(f"Not acceptable in {game.lexicon.name}: {', '.join(result.phonies)}.")
            lines.append(
                f"The play comes off: {self.does(event.player, 'takes')} the tiles back and "
                f"{verb(player, 'loses')} the {event.score} points (now {event.scores[event.player]})."
            )
            return lines
        lines.append(f"All acceptable in {game.lexicon.name}: the play stands.")
        loses = self.does(challenger, "loses")
        if result.points:
            lines.append(f"{loses} {-result.points} points for the failed challenge (now {event.scores[challenger]}).")
        elif result.lost_turn and challenger == event.turn_before:
            lines.append(f"{loses} this turn for the failed challenge.")
        elif result.lost_turn:
            their = "your" if is_you(me) else "their"
            lines.append(f"{me} will miss {their} next turn for the failed challenge.")
        else:
            lines.append("The failed challenge costs nothing.")
        return lines

    def end_lines(self) -> list[str]:
        """How the game ended, the rack adjustments and time penalties."""
        game = self.game
        lines = ["Game over: " + self.termination_text()]
        kinds = (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY, EventKind.TIME_PENALTY)
        for event in game.events:
            if event.kind not in kinds:
                continue
            if event.kind is EventKind.TIME_PENALTY:
                used = game.clock_used[event.player]
                limit = game.rules.game_clock or 0.0
                lines.append(
                    f"{self.does(event.player, 'loses')} {-event.score} for going {format_clock(used - limit)} "
                    f"over the game clock ({game.rules.overtime_penalty} a minute or part of one)."
                )
                continue
            tiles = game.alphabet.format_rack(event.end_rack)
            if event.kind is EventKind.END_RACK_POINTS:
                lines.append(
                    f"{self.does(event.player, 'gains')} {event.score} for the tiles left on the other racks ({tiles})."
                )
            else:
                lines.append(f"{self.does(event.player, 'loses')} {-event.score} for the tiles left on the rack ({tiles}).")
        return lines

    def termination_text(self) -> str:
        from tilebag.game import Termination

        game = self.game
        if game.termination is Termination.WENT_OUT and game.went_out is not None:
            return f"{self.name(game.went_out)} went out."
        if game.termination is Termination.RESIGNED and game.resigned is not None:
            return f"{self.name(game.resigned)} resigned; no racks are counted."
        if game.termination is Termination.FINISH_LINE and game.finish_winner is not None:
            winner = game.finish_winner
            target = game.finish_targets[winner] if game.finish_targets is not None else game.scores[winner]
            return (
                f"{self.does(winner, 'reached')} the Finish Line target of {target} "
                f"with {game.scores[winner]} points; no racks are counted."
            )
        return f"{game.rules.scoreless_limit(len(game.players))} scoreless turns in a row."

    def result_text(self) -> str:
        """The game's result line, ``You win ...`` for a player named You."""
        text = self.game.result_text()
        outcome = self.game.outcome()
        if outcome is not None and outcome.winner is not None:
            name = self.name(outcome.winner)
            if is_you(name) and text.startswith(f"{name} wins "):
                text = f"{name} {verb(name, 'wins')} " + text.removeprefix(f"{name} wins ")
        return text
