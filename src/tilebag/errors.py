"""The exceptions tilebag raises.

Every error says what was wrong and where. Errors about moves derive from
:class:`ValueError`, so code that parses user input can catch either.

>>> from tilebag.errors import IllegalMoveError, Illegal
>>> err = IllegalMoveError(Illegal.NOT_CONNECTED, "the play touches no tile on the board")
>>> err.reason
<Illegal.NOT_CONNECTED: 'not connected'>
>>> str(err)
'the play touches no tile on the board'
"""

from __future__ import annotations

import enum

QUOTE_LIMIT = 80
"""Characters of untrusted input an error message quotes at most."""


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for an error message (as ``repr`` does), cut to
    ``limit`` characters with the full length said, so a message never
    repeats a whole oversized input.

    >>> quote("8F HORN")
    "'8F HORN'"
    >>> quote("A" * 100_000)
    "'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'... (100000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


class TilebagError(Exception):
    """Base class of every error tilebag raises on purpose.

    Every one pickles, whatever its constructor takes, so an error raised in a
    worker process (a bot's, an analysis's) reaches the process that asked:

    >>> import pickle
    >>> err = pickle.loads(pickle.dumps(IllegalMoveError(Illegal.GAP, "the play leaves a gap")))
    >>> err.reason, str(err)
    (<Illegal.GAP: 'gap'>, 'the play leaves a gap')
    """

    def __reduce__(self) -> tuple[object, ...]:
        # the default rebuilds an error by calling its class with ``args``, which
        # subclasses that take other arguments than their message refuse
        return (_restore, (type(self), self.args, self.__dict__))


def _restore(cls: type[TilebagError], args: tuple[object, ...], state: dict[str, object]) -> TilebagError:
    """An unpickled error: made without its constructor, then given its message and attributes."""
    err = cls.__new__(cls, *args)
    err.args = args
    err.__dict__.update(state)
    return err


class InvalidMoveError(TilebagError, ValueError):
    """Move text that cannot be parsed at all (syntax, not rules).

    >>> from tilebag import Move
    >>> Move.from_gcg("8F H0RN")
    Traceback (most recent call last):
    ...
    tilebag.errors.InvalidMoveError: '8F H0RN': '0' is not a tile of the english tile set
    """


class Illegal(enum.Enum):
    """Why a move is against the rules: one member per rule a move can break."""

    GAME_OVER = "game over"
    OFF_BOARD = "off the board"
    NO_TILES = "no tiles placed"
    NOT_IN_LINE = "not in one line"
    GAP = "gap"
    SQUARE_OCCUPIED = "square occupied"
    PLAYED_THROUGH_MISMATCH = "played-through letter differs"
    """A letter written for a square the play goes through (``FA(X)M``) is
    not the letter on that square."""
    WORD_INCOMPLETE = "word incomplete"
    NOT_CONNECTED = "not connected"
    FIRST_PLAY_NOT_ON_START = "first play misses the start square"
    FIRST_PLAY_TOO_SHORT = "first play too short"
    TILE_NOT_ON_RACK = "tile not on rack"
    TILE_NOT_AVAILABLE = "tile not available"
    BAG_TOO_SMALL = "bag too small to exchange"
    PHONY = "phony"
    WRONG_PLAYER = "wrong player"
    NOTHING_TO_CHALLENGE = "nothing to challenge"
    CHALLENGE_NOT_ALLOWED = "challenge not allowed"
    VARIATION_NOT_IN_PLAY = "variation not in play"
    """A recycle, blank swap or anagram play when the rules do not allow it."""
    NOT_AN_ANAGRAM = "not an anagram"
    """An anagram play that does not rearrange one word in its squares."""
    NO_CHANGE = "no change"
    """A recycle or blank swap that would change nothing."""
    TIME_UP = "time up"
    """The turn timer ran out: the turn is a pass (:meth:`tilebag.Game.time_out`)."""
    UNDO_NOT_ALLOWED = "undo not allowed"
    """An undo where the table does not allow one (:meth:`tilebag.Table.undo`)."""


class IllegalMoveError(TilebagError, ValueError):
    """A well-formed move that the rules forbid in the current position.

    :attr:`reason` names the rule (an :class:`Illegal` member), the message
    says what exactly was wrong. The game is left exactly as it was.
    """

    def __init__(self, reason: Illegal, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class PhonyError(IllegalMoveError):
    """A play forming words that are not in the lexicon, refused on entry
    (void challenge mode). :attr:`words` lists the unacceptable words."""

    def __init__(self, words: list[str], message: str) -> None:
        super().__init__(Illegal.PHONY, message)
        self.words = words


class GameOverError(IllegalMoveError):
    """A move was attempted after the game ended."""

    def __init__(self, message: str = "the game is over") -> None:
        super().__init__(Illegal.GAME_OVER, message)


class FormatError(TilebagError, ValueError):
    """A malformed file or record. :attr:`line` is the 1-based line number
    (0 when unknown) and :attr:`source` the file name, when known.

    >>> str(FormatError("no word on this line", line=12, source="words.txt"))
    'words.txt:12: no word on this line'
    """

    def __init__(self, message: str, *, line: int = 0, source: str | None = None) -> None:
        self.message = message
        self.line = line
        self.source = source
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.source is not None:
            where = f"{self.source}:"
        if self.line:
            where += f"{self.line}:"
        return f"{where} {self.message}" if where else self.message


class NothingToUndoError(TilebagError, IndexError):
    """:meth:`tilebag.Game.pop` on a game with no action to undo (an
    :class:`IndexError`, as popping an empty stack is).

    >>> from tilebag import Game
    >>> Game(2).pop()
    Traceback (most recent call last):
    ...
    tilebag.errors.NothingToUndoError: nothing to undo: no move has been played yet
    """
