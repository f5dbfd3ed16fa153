"""tilebag: the SCRABBLE® crossword game in Python.

An exact rules engine, lexicons, and GCG game records:

>>> import tilebag
>>> game = tilebag.Game(["alice", "bob"], seed=1)
>>> len(game.rack(0)), len(game.bag)
(7, 86)
>>> best = game.engine.best(game.board, game.rack(), bag_count=len(game.bag))
>>> best.move in game.legal_moves
True

The core is here at the top: :class:`Game` (the rules applied exactly),
:class:`Position` (the light state a search makes and unmakes moves on),
:class:`Table` (a game with its seats, run turn by turn for any front end)
and :func:`seat_view` (what a seat may see of it). The wings:
:mod:`tilebag.engine` (:class:`Engine`, the move generator, the bots,
analysis and coaching), :mod:`tilebag.formats` (GCG, CGP, replay),
:mod:`tilebag.ui` (the ``tilebag`` command and the terminal game) and
:mod:`tilebag.server`. The core imports none of them at its start: the
engine's names offered here (:class:`Engine`, :class:`MoveGenerator`,
:class:`Play`) are loaded when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tilebag.actions import AcceptEnd, Action, Challenge, PlayMove, Resign, TakeBack, TimeOut
from tilebag.alphabet import BLANK, BLANK_BIT, Alphabet, Tile, load_alphabet, load_alphabet_file
from tilebag.bag import Bag
from tilebag.board import Board, Word
from tilebag.errors import (
    FormatError,
    GameOverError,
    Illegal,
    IllegalMoveError,
    InvalidMoveError,
    NothingToUndoError,
    PhonyError,
    TilebagError,
)
from tilebag.game import ChallengeResult, Game, GameState, Outcome, Player, Termination
from tilebag.kwg import Kwg
from tilebag.layout import BoardLayout, Square, load_layout, load_layout_file
from tilebag.lexicon import AcceptAll, KwgLexicon, Lexicon, WordList, default_lexicon, load_lexicon
from tilebag.move import PLAYED_THROUGH, Move, MoveKind
from tilebag.position import Position
from tilebag.record import Event, EventKind, GameRecord, PlayerInfo
from tilebag.rules import ChallengeMode, EndAdjustment, Rules, find_rules
from tilebag.table import Bot, SeatInfo, Table, TableEvent
from tilebag.view import SeatView, seat_view

if TYPE_CHECKING:
    from tilebag.engine import Engine
    from tilebag.engine.movegen.generator import MoveGenerator, Play

__version__ = "0.1.0"

_FROM_THE_ENGINE = {
    "Engine": "tilebag.engine",
    "MoveGenerator": "tilebag.engine.movegen.generator",
    "Play": "tilebag.engine.movegen.generator",
}
"""Names offered here that live in the engine, loaded when first used."""


def __getattr__(name: str) -> object:
    module = _FROM_THE_ENGINE.get(name)
    if module is None:
        raise AttributeError(f"module 'tilebag' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)

__all__ = [
    "AcceptEnd",
    "Action",
    "Bot",
    "Challenge",
    "PlayMove",
    "Resign",
    "SeatInfo",
    "SeatView",
    "TakeBack",
    "TimeOut",
    "seat_view",
    "BLANK",
    "BLANK_BIT",
    "PLAYED_THROUGH",
    "AcceptAll",
    "Alphabet",
    "Bag",
    "Board",
    "BoardLayout",
    "ChallengeMode",
    "ChallengeResult",
    "EndAdjustment",
    "Engine",
    "Event",
    "EventKind",
    "FormatError",
    "Game",
    "GameState",
    "GameOverError",
    "GameRecord",
    "Illegal",
    "IllegalMoveError",
    "InvalidMoveError",
    "Lexicon",
    "Move",
    "MoveKind",
    "NothingToUndoError",
    "Outcome",
    "PhonyError",
    "Player",
    "PlayerInfo",
    "Position",
    "Rules",
    "Square",
    "Table",
    "TableEvent",
    "Termination",
    "Tile",
    "TilebagError",
    "Word",
    "WordList",
    "Kwg",
    "KwgLexicon",
    "MoveGenerator",
    "Play",
    "default_lexicon",
    "find_rules",
    "load_alphabet",
    "load_alphabet_file",
    "load_layout",
    "load_layout_file",
    "load_lexicon",
]
