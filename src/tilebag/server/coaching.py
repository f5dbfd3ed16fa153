"""Coaching and analysis for the browser client: the coach's lines
(:mod:`tilebag.engine.coaching.coach`, as the terminal game says them) and the
analysis (:mod:`tilebag.engine.analysis.review`) behind the API.

Coaching is for a seat whose game allows it: an open dictionary, or a seat
made with ``"practice": true``. It only ever looks at that seat's own rack.
The analysis of a whole game is for everyone once the game is over.
"""

from __future__ import annotations

from tilebag.engine.analysis.review import analyze_game
from tilebag.engine.coaching.coach import (
    WORDS_HELP,
    advice_lines,
    bingo_lines,
    hint_lines,
    hooks_lines,
    review_lines,
    words_lines,
)
from tilebag.game import Game, GameState
from tilebag.lexicon import GraphLexicon
from tilebag.server.room import Room, RoomError

ASKS = ("hint", "better", "words 2", "words 3", "words q", "hooks", "hooks WORD", "bingos", "advice")
"""What a seat may ask for."""


def coach(room: Room, seat: int | None, ask: str) -> list[str]:
    """The answer to a seat's question, as lines of text (read under the room's lock).

    :raises RoomError: (403) when the game does not allow coaching for the
        seat, (400) for a question it does not know.
    """
    if not room.table.coaching_for(seat):
        raise RoomError(403, "coaching needs an open dictionary, or a practice seat")
    assert seat is not None
    game = room.game
    words = ask.strip().split()
    what = words[0].lower() if words else ""
    rest = " ".join(words[1:])
    if what == "words":
        return words_lines(game, rest or "2")
    if what == "hooks":
        return hooks_lines(game, rest)
    if what == "bingos":
        return bingo_lines(game, seat)
    if what == "advice":
        return advice_lines(game, seat)
    if what == "hint":
        if game.state is not GameState.PLAYING or room.table.seat_to_act() != seat:
            return ["A hint is for your turn."]
        return hint_lines(game, top=3)
    if what == "better":
        return _better(room, seat)
    raise RoomError(400, f"ask for hint, better, bingos, advice, hooks [WORD] or {WORDS_HELP}")


def _better(room: Room, seat: int) -> list[str]:
    """Whether a better play existed than the seat's last one."""
    game = room.game
    if not isinstance(game.lexicon, GraphLexicon):
        return ["This lexicon has no word graph to look for plays in."]
    analysis = analyze_game(game.record(), lexicon=game.lexicon, top=3)
    mine = [turn for turn in analysis.turns if turn.player == seat]
    if not mine:
        return ["You have not played yet."]
    return review_lines(game, mine[-1])


def analysis_of(room: Room) -> dict[str, object]:
    """Each turn of a finished game against the best plays by equity, with
    each player's totals (:meth:`tilebag.engine.analysis.review.GameAnalysis.to_dict`),
    made here and now (a server with an analysis queue reads it from the
    database instead).

    :raises RoomError: (409) before the end: it would show every rack.
    """
    game = analysable(room)
    assert isinstance(game.lexicon, GraphLexicon)
    return analyze_game(game.record(), lexicon=game.lexicon, top=3).to_dict()


def analysable(room: Room) -> Game:
    """The room's game, when it may be analysed.

    :raises RoomError: (409) before the end, or without a word graph.
    """
    game = room.game
    if game.state is not GameState.OVER:
        raise RoomError(409, "the analysis is shown once the game is over")
    if not isinstance(game.lexicon, GraphLexicon):
        raise RoomError(409, "this lexicon has no word graph to analyse with")
    return game
