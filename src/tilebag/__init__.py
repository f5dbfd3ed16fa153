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
:class:`Position` (the light state a search makes and unmakes moves on) and
:class:`Table` (a game with its seats, run turn by turn for any front end).
The wings: :mod:`tilebag.engine` (:class:`Engine`, the move generator, the
bots, analysis and coaching), :mod:`tilebag.formats` (GCG, CGP, replay) and
:mod:`tilebag.ui` (the ``tilebag`` command and the terminal game).
"""

from __future__ import annotations

from tilebag.alphabet import BLANK, BLANK_BIT, Alphabet, Tile, load_alphabet, load_alphabet_file
from tilebag.bag import Bag
from tilebag.board import Board, Word
from tilebag.engine import Engine
from tilebag.engine.movegen import MoveGenerator, Play
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
from tilebag.table import Table, TableEvent

__version__ = "0.1.0"

__all__ = [
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
