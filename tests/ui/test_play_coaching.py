"""``tilebag play``: coaching at the table (practice mode or an open
dictionary), undo against bots, resigning and the end-of-game summary."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gamestate import assert_tiles_accounted, fingerprint
from tilebag.engine.analysis.review import analyze_turn
from tilebag.engine.bots import make_bot
from tilebag.engine.coaching import word_lists
from tilebag.engine.coaching.rack_advice import rack_advice
from tilebag.engine.players import Player, StaticPlayer
from tilebag.game import Game, Termination
from tilebag.lexicon import default_lexicon
from tilebag.rules import find_rules
from tilebag.ui.narration import summary_lines
from tilebag.ui.session import Console, Session

LEXICON = default_lexicon()


@dataclass
class Script(Console):
    """Scripted input, collected output."""

    lines: list[str]
    out: list[str] = field(default_factory=list)

    def read(self, prompt: str) -> str | None:
        if not self.lines:
            return None
        line = self.lines.pop(0)
        self.out.append(prompt + line)
        return line

    def say(self, text: str = "") -> None:
        self.out.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def run(game: Game, lines: Sequence[str], *, practice: bool = False, bots: dict[int, Player] | None = None) -> Script:
    script = Script(list(lines))
    Session(game, script, practice=practice, bots=bots).run()
    return script


def new_game(racks: Sequence[str], rules: str = "standard") -> Game:
    game = Game(["alice", "bob"], rules=find_rules(rules), lexicon=LEXICON, seed=3, first=0)
    for seat, rack in enumerate(racks):
        game.set_rack(seat, rack, exact=True)
    return game


def test_coaching_is_refused_with_a_closed_dictionary_outside_practice() -> None:
    game = new_game(["AEINRST", "CDEHLOU"])
    before = fingerprint(game)
    script = run(game, ["words 2", "hooks CARE", "bingos", "advice", "better", "hint"])
    assert script.text.count("Not allowed: the dictionary is closed") == 6
    assert fingerprint(game) == before


def test_practice_mode_lists_words_from_the_lexicon() -> None:
    game = new_game(["AEINRST", "CDEHLOU"])
    script = run(game, ["words 2", "words 3", "words q", "words 9"], practice=True)
    twos = word_lists.short_words(LEXICON, 2)
    assert f"Two-letter words in {LEXICON.name} ({len(twos)}):" in script.text
    assert "Q: QI" in script.text
    assert f"Three-letter words in {LEXICON.name} ({len(word_lists.short_words(LEXICON, 3))}):" in script.text
    assert "Words with a Q and no U" in script.text and "QAT" in script.text
    assert "Which words? Type words 2" in script.text


def test_practice_mode_hooks_of_a_word_and_of_the_board() -> None:
    game = new_game(["AEINRST", "CDEHLOU"])
    script = run(game, ["hooks", "hooks CARE", "8H RAIN", "hooks"], practice=True)
    assert "The board is empty: no words to hook yet." in script.text
    card = word_lists.hooks(LEXICON, "CARE")
    assert f"{''.join(card.front)}  CARE  {''.join(card.back)}" in script.text
    hooked = word_lists.hooks(LEXICON, "RAIN")
    assert hooked.front and hooked.back
    assert f"  8H   RAIN            before: {''.join(hooked.front)}; after: {''.join(hooked.back)}" in script.out


def test_practice_mode_bingos_and_rack_advice() -> None:
    game = new_game(["AEINRST", "CDEHLOU"])
    script = run(game, ["bingos", "advice"], practice=True)
    assert f"Bingos from AEINRST: {' '.join(word_lists.bingos(LEXICON, 'AEINRST'))}" in script.text
    advice = rack_advice(game.rack(0), game.alphabet, unseen=game.unseen(0), lexicon=LEXICON)
    assert advice.notes[0] in script.text


def test_better_says_when_a_better_play_existed_and_what_was_kept() -> None:
    game = new_game(["AEINRST", "CDEHLOU"])
    expected = analyze_turn(game, game.parse_move("8G STAIN"), top=3)
    script = run(game, ["better", "8G STAIN", "-", "better"], practice=True)
    assert "No move of yours to review yet." in script.text
    best = expected.best[0]
    assert (
        f"A better play existed: {best.notation} for {best.score} (equity {best.equity / 1000:.1f}); "
        f"8G STAIN lost {expected.equity_lost / 1000:.1f} (blunder)." in script.text
    )
    assert "Kept ER: " in script.text


def test_the_best_play_is_called_the_best() -> None:
    game = new_game(["AEINRST", "CDEHLOU"])
    mirror = new_game(["AEINRST", "CDEHLOU"])
    best = StaticPlayer("best").choose(mirror)
    script = run(game, [game.notation(best), "-", "better"], practice=True)
    assert f"{game.notation(best)} was the best play by equity" in script.text


def seen_by(game: Game, seat: int) -> tuple[object, ...]:
    """What the player in ``seat`` can see of a game."""
    return (bytes(game.board.tiles), game.rack(seat), game.scores, game.turn, len(game.bag), len(game.events))


def test_undo_takes_back_your_move_and_the_bots_reply() -> None:
    game = Game(["You", "Static bot"], lexicon=LEXICON, seed=8, first=0)
    start = seen_by(game, 0)
    best = StaticPlayer("mirror").choose(game)
    script = run(game, [game.notation(best), "undo"], practice=True, bots={1: make_bot("static", "Static bot")})
    assert "Took back 2 actions: your move again." in script.text
    assert seen_by(game, 0) == start
    assert_tiles_accounted(game)


def test_undo_deals_the_unseen_tiles_anew() -> None:
    """After undoing an exchange and exchanging again, the same tiles used to
    come out of the bag and the bot made the same bingo."""
    game = Game(["You", "Static bot"], lexicon=LEXICON, seed=8, first=0)
    rack = game.alphabet.format_rack(game.rack(0))
    bot_rack = game.rack(1)
    run(game, [f"-{rack}"], practice=True, bots={1: make_bot("static", "Static bot")})
    first_draw, first_reply = game.rack(0), game.events[1]
    script = run(game, ["undo", f"-{rack}"], practice=True, bots={1: make_bot("static", "Static bot")})
    assert "The tiles you cannot see were shuffled" in script.text
    assert game.rack(0) != first_draw  # other tiles come out of the bag
    reply = game.events[1]
    assert reply.rack != first_reply.rack and sorted(reply.rack or ()) != sorted(bot_rack)  # the bot holds new tiles
    assert reply.move != first_reply.move
    assert_tiles_accounted(game)


def test_undo_is_refused_between_people_before_a_move_and_in_a_game_that_counts() -> None:
    game = new_game(["AEINRST", "CDEHLOU"])
    script = run(game, ["undo"], practice=True)
    assert "Not allowed: undo is for games of one person against bots." in script.text
    game = Game(["You", "Static bot"], lexicon=LEXICON, seed=8, first=0)
    script = run(game, ["undo"], practice=True, bots={1: make_bot("static", "Static bot")})
    assert "Nothing to undo: you have not moved yet." in script.text
    best = StaticPlayer("mirror").choose(game)
    script = run(game, [game.notation(best), "undo"], bots={1: make_bot("static", "Static bot")})
    assert "Not allowed: a move stands in a game that counts; undo is for practice" in script.text
    assert len(game.events) == 2  # nothing was taken back
    assert "undo" not in run(game, ["help"], bots={1: make_bot("static", "Static bot")}).text
    assert "undo, u" in run(game, ["help"], practice=True, bots={1: make_bot("static", "Static bot")}).text


def test_resign_asks_first_then_ends_the_game() -> None:
    game = new_game(["AEINRST", "CDEHLOU"])
    script = run(game, ["8D RETAINS", "resign", "no", "resign", "yes"])
    assert "Not resigned: the game goes on." in script.text
    assert "bob resigns." in script.text
    assert game.termination is Termination.RESIGNED
    assert "alice wins" in script.text
    assert "Summary:" in script.text


def test_the_summary_counts_turns_points_and_bingos() -> None:
    game = new_game(["AEINRST", "CDEHLOU"])
    game.push_gcg("8D RETAINS")
    game.push_gcg("-")
    lines = summary_lines(game)
    assert lines[1] == "alice: 1 turn, 66.0 points a turn, 1 bingo, best play 8D RETAINS for 66"
    assert lines[2] == "bob: 1 turn, 0.0 points a turn, no bingo"


def test_a_game_saved_in_line_mode_resumes_with_its_bot(tmp_path, monkeypatch, capsys) -> None:
    import io

    from tilebag.formats import gcg
    from tilebag.formats.replay import resume
    from tilebag.ui.cli import main

    path = tmp_path / "game.gcg"
    mirror = Game(["You", "Beginner bot"], lexicon=LEXICON, seed=12)
    if mirror.turn == 1:
        mirror.push(make_bot("beginner", "Beginner bot").choose(mirror))
    opening = StaticPlayer("mirror").choose(mirror)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{mirror.notation(opening)}\nquit\n"))
    assert main(["play", "--bot", "beginner", "--seed", "12", "--save", str(path), "--line"]) == 0
    saved = resume(gcg.load(path), seed=1)
    assert not saved.is_over()

    monkeypatch.setattr("sys.stdin", io.StringIO("scores\nquit\n"))
    assert main(["play", "--resume", str(path), "--seed", "1", "--line"]) == 0
    out = capsys.readouterr().out
    assert f"Resumed from {path} after" in out
    assert f"You: {saved.players[0].score} | Beginner bot: {saved.players[1].score}" in out

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--resume", str(path), "--bot", "static", "--line"]) == 2
    assert "--resume takes the players from the record" in capsys.readouterr().err
