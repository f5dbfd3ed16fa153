"""The browser client's pure modules (notation, state), run in Chromium as
the page runs them: ES modules loaded from the package's files, no server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the test extra (playwright)")

import tilebag  # noqa: E402
from browsers import chromium  # noqa: E402

WEB = Path(tilebag.__file__).resolve().parent / "server" / "web"
"""The client as the package ships it."""

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with chromium() as browser:
        page = browser.new_page()

        def serve(route: Any) -> None:
            name = route.request.url.rsplit("/", 1)[-1]
            path = WEB / name
            if name == "blank.html":  # a page for the modules to run in
                route.fulfill(status=200, content_type="text/html", body="<!doctype html><title>client</title>")
            elif path.is_file():
                kind = "text/javascript" if name.endswith(".js") else "text/html"
                route.fulfill(status=200, content_type=kind, body=path.read_text(encoding="utf-8"))
            else:
                route.fulfill(status=404, body="")

        page.route("http://client.test/**", serve)
        page.goto("http://client.test/blank.html")
        yield page


def call(page: Any, module: str, function: str, *args: object) -> Any:
    """``function(*args)`` of the client's ``module``, run in the page."""
    code = f"async (args) => (await import('http://client.test/{module}'))[{json.dumps(function)}](...args)"
    return page.evaluate(code, list(args))


def test_squares_are_named_column_then_row(page: Any) -> None:
    assert call(page, "notation.js", "squareName", 7, 7) == "H8"
    assert call(page, "notation.js", "squareName", 0, 14) == "O1"
    assert call(page, "notation.js", "parseSquare", "H8") == {"row": 7, "col": 7}
    assert call(page, "notation.js", "parseSquare", "8h") == {"row": 7, "col": 7}
    assert call(page, "notation.js", "parseSquare", "Z99x") is None


def test_tiles_are_written_as_the_server_reads_them(page: Any) -> None:
    assert call(page, "notation.js", "tileText", "A") == "A"
    assert call(page, "notation.js", "tileText", "A", True) == "a"
    assert call(page, "notation.js", "tileText", "CH") == "[CH]"
    assert call(page, "notation.js", "tileText", "Ł", True) == "ł"


def empty(rows: int = 15) -> list[list[str]]:
    return [["" for _ in range(15)] for _ in range(rows)]


def test_the_tiles_placed_make_a_play_in_gcg_notation(page: Any) -> None:
    board = empty()
    pending = [{"row": 7, "col": c, "label": letter, "blank": False} for c, letter in zip(range(7, 11), "HORN", strict=True)]
    assert call(page, "notation.js", "playNotation", pending, board) == "8H HORN"
    board[7][7:11] = list("HORN")
    down = [{"row": 5, "col": 8, "label": "F", "blank": False}, {"row": 6, "col": 8, "label": "A", "blank": True},
            {"row": 8, "col": 8, "label": "M", "blank": False}]
    assert call(page, "notation.js", "playNotation", down, board) == "I6 Fa.M"
    one = [{"row": 8, "col": 7, "label": "S", "blank": False}]  # under the H: a play down
    assert call(page, "notation.js", "playNotation", one, board) == "H8 .S"
    gap = [{"row": 0, "col": 0, "label": "A", "blank": False}, {"row": 0, "col": 2, "label": "B", "blank": False}]
    assert call(page, "notation.js", "playNotation", gap, empty()) is None
    scattered = [{"row": 0, "col": 0, "label": "A", "blank": False}, {"row": 1, "col": 1, "label": "B", "blank": False}]
    assert call(page, "notation.js", "playNotation", scattered, empty()) is None
    spanish = [{"row": 7, "col": 7, "label": "CH", "blank": False}, {"row": 7, "col": 8, "label": "E", "blank": False}]
    assert call(page, "notation.js", "playNotation", spanish, empty()) == "8H [CH]E"


def test_a_plays_squares_are_read_from_its_notation(page: Any) -> None:
    assert call(page, "notation.js", "playSquares", "8D WO.D") == ["D8", "E8", "G8"]
    assert call(page, "notation.js", "playSquares", "H6 FA(R)M") == ["H6", "H7", "H9"]
    assert call(page, "notation.js", "playSquares", "-ABC") == []


def test_the_newest_view_by_sequence_number_is_kept(page: Any) -> None:
    old, new = {"seq": 3, "id": "old"}, {"seq": 5, "id": "new"}
    assert call(page, "state.js", "newest", None, old) == old
    assert call(page, "state.js", "newest", new, old) == new  # an answer that came after the socket's newer view
    assert call(page, "state.js", "newest", old, new) == new
    assert call(page, "state.js", "newest", old, {"seq": 3, "id": "again"}) == {"seq": 3, "id": "again"}


def test_the_players_rack_order_is_kept(page: Any) -> None:
    assert call(page, "state.js", "keepOrder", ["T", "A", "E"], ["A", "E", "T"]) == ["T", "A", "E"]
    assert call(page, "state.js", "keepOrder", ["T", "A", "E"], ["A", "Q", "E"]) == ["A", "E", "Q"]
    assert call(page, "state.js", "keepOrder", ["A", "A"], ["A", "B", "A"]) == ["A", "A", "B"]


def test_premoves_are_kept_only_while_they_fit(page: Any) -> None:
    rows = empty()
    pending = [{"row": 7, "col": 7, "label": "Q", "blank": False, "rackIndex": 0},
               {"row": 7, "col": 8, "label": "I", "blank": True, "rackIndex": 1}]
    assert call(page, "state.js", "premovesThatFit", pending, rows, ["Q", "?"]) == pending
    rows[7][8] = "X"  # the other player covered a square
    assert call(page, "state.js", "premovesThatFit", pending, rows, ["Q", "?"]) == []
    assert call(page, "state.js", "premovesThatFit", pending, empty(), ["Q", "E"]) == []  # the blank is gone


def test_a_gap_in_the_sequence_numbers_is_seen(page: Any) -> None:
    assert call(page, "state.js", "isGap", 4, 5) is False
    assert call(page, "state.js", "isGap", 4, 7) is True
    assert call(page, "state.js", "isGap", 0, 7) is False  # nothing heard yet
