"""Every error tilebag raises on purpose survives pickling with its message
and attributes: an error raised in a worker process (a bot's, an analysis's)
must reach the process that asked, not break the pool."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from tilebag.errors import (
    FormatError,
    GameOverError,
    Illegal,
    IllegalMoveError,
    InvalidMoveError,
    PhonyError,
    TilebagError,
)
from tilebag.formats.cgp import CgpError
from tilebag.formats.gcg_pragmas import PragmaError
from tilebag.formats.replay_report import Finding, ReplayError, Severity
from tilebag.rules import RulesError

EXAMPLES: list[TilebagError] = [
    IllegalMoveError(Illegal.TILE_NOT_ON_RACK, "the rack has no Q"),
    PhonyError(["QOP"], "QOP is not a word"),
    GameOverError(),
    InvalidMoveError("'8Z WORD': no column Z"),
    FormatError("no word on this line", line=12, source="words.txt"),
    CgpError("board: 2 rows, expected 15", field="board"),
    PragmaError("#rack-size", "a rack holds 7 or 9 tiles"),
    ReplayError(Finding(next(iter(Severity)), 3, ">a: ABC 8D CAB +14 14", "CAB is not a word")),
    RulesError("no preset 'chess'"),
]


@pytest.mark.parametrize("err", EXAMPLES, ids=lambda err: type(err).__name__)
def test_an_error_pickles_with_its_message_and_attributes(err: TilebagError) -> None:
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is type(err) and str(again) == str(err) and again.args == err.args
    assert again.__dict__ == err.__dict__


def _refuse() -> None:
    raise IllegalMoveError(Illegal.NOT_CONNECTED, "the play touches no tile on the board")


def test_an_illegal_move_found_in_a_worker_process_reaches_the_caller() -> None:
    with ProcessPoolExecutor(max_workers=1) as pool:
        with pytest.raises(IllegalMoveError, match="touches no tile") as raised:
            pool.submit(_refuse).result(timeout=60)
        assert raised.value.reason is Illegal.NOT_CONNECTED
        assert pool.submit(int, "7").result(timeout=60) == 7  # the pool still works
