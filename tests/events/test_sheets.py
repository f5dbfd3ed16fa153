"""The sheets a director prints: the standings and a round's pairings as
text (checked whole) and as HTML pages that hold no script, load nothing,
escape every name, and print well."""

from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from tilebag.events import Game, Method, Pairing, Pairings, Player, standings
from tilebag.events.sheets import pairings_html, pairings_text, standings_html, standings_text

PLAYERS = [
    Player(1, "Abbott, Ann", rating=1812),
    Player(2, "Baker, Bo", rating=1650),
    Player(3, "Carter, Cy"),
    Player(4, "Díaz, Dé", rating=1500, withdrawn=3),
]
RESULTS = [
    Game(1, 1, 4, 412, 402, first=1),
    Game(1, 2, 3, 377, 360, first=3),
    Game(2, 1, 2, 388, 401, first=2),
    Game.forfeit_loss(2, 4, opponent=3),
]


def test_the_standings_as_text() -> None:
    """By hand: Bo won 377-360 and 401-388, 2-0 +30; Cy lost by 17 then won
    Dé's forfeit (+50), 1-1 +33; Ann won by 10 then lost by 13, 1-1 -3; Dé
    lost by 10 and forfeited (-50), 0-2 -60, and has withdrawn."""
    text = standings_text(standings(PLAYERS, RESULTS), title="Club night, after round 2")
    assert text == (
        "Club night, after round 2\n"
        "\n"
        "Rank  #  Player                Won-Lost  Spread  Rating  Last game\n"
        "   1  2  Baker, Bo                  2-0     +30    1650  W 401-388 v Abbott, Ann (#1)\n"
        "   2  3  Carter, Cy                 1-1     +33          W by forfeit v Díaz, Dé (#4)\n"
        "   3  1  Abbott, Ann                1-1      -3    1812  L 388-401 v Baker, Bo (#2)\n"
        "   4  4  Díaz, Dé (withdrawn)       0-2     -60    1500  L by forfeit v Carter, Cy (#3)\n"
    )


def test_the_pairings_as_text_with_the_records_before_the_round() -> None:
    before = standings(PLAYERS, RESULTS)
    round_3 = Pairings(3, Method.SWISS, (Pairing(3, 3, 2, first=3), Pairing(3, 1)))
    assert pairings_text(round_3, before) == (
        "Round 3 (swiss)\n"
        "\n"
        "Board  First            Record   Second          Record\n"
        "    1  Carter, Cy (#3)  1-1 +33  Baker, Bo (#2)  2-0 +30\n"
        "\n"
        "Bye: Abbott, Ann (#1), 1-1 -3\n"
    )
    unsure = Pairings(1, Method.FIXED, (Pairing(1, 1, 2), Pairing(1, 4, 3, first=3)))
    text = pairings_text(unsure, standings(PLAYERS, []), title="Opening round")
    assert text.splitlines()[2:6] == [  # nobody has a record yet: no columns for them
        "Board  First             Second",
        "   1*  Abbott, Ann (#1)  Baker, Bo (#2)",
        "   2   Carter, Cy (#3)   Díaz, Dé (#4)",
        "* the players toss for who goes first",
    ]


HOSTILE = [
    Player(1, '<script>alert("x")</script>'),
    Player(2, "O'Brien & <b>Sons</b>"),
    Player(3, '"><img src=x onerror=alert(1)>'),
]


class _Page(HTMLParser):
    """What a browser would see: the elements, the text, every attribute."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.open: list[str] = []
        self.text: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.style = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += attrs
        if tag not in ("meta", "br", "!doctype"):
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (self.open, tag)
        self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] == "style":
            self.style += data
        elif data.strip():
            self.text.append(data.strip())


def _read(page: str) -> _Page:
    parsed = _Page()
    parsed.feed(page)
    parsed.close()
    assert parsed.open == []  # every element closed, in order
    return parsed


def test_html_sheets_escape_every_name_and_hold_no_script() -> None:
    table = standings(HOSTILE, [Game(1, 1, 2, 400, 300, first=1)])
    for page in (
        standings_html(table, title="Night <of> 'names'"),
        pairings_html(Pairings(2, Method.KING_OF_THE_HILL, (Pairing(2, 3, 1, first=3), Pairing(2, 2))), table,
                      title="Round 2 & <more>"),
    ):
        parsed = _read(page)
        assert set(parsed.tags) <= {"html", "head", "meta", "title", "style", "body", "h1", "table", "thead",
                                    "tbody", "tr", "th", "td", "p"}
        assert not any(name.startswith("on") or name in ("src", "href") for name, _ in parsed.attributes)
        text = " ".join(parsed.text)
        for player in HOSTILE:
            assert player.name in text  # shown as written, as text
        assert "@media print" in parsed.style and "@page" in parsed.style
        csp = dict(parsed.attributes).get("content") or ""
        assert any(v and "default-src 'none'" in v for _, v in parsed.attributes), csp
        assert "<script" not in page and "<img" not in page


def test_the_pairings_page_is_large_type_when_printed() -> None:
    table = standings(PLAYERS, RESULTS)
    page = pairings_html(Pairings(3, Method.SWISS, (Pairing(3, 3, 2, first=3), Pairing(3, 1))), table)
    parsed = _read(page)
    assert '<body class="pairings">' in page and ".pairings { font-size: 14pt; }" in parsed.style
    assert "thead { display: table-header-group; }" in parsed.style  # the header again on each printed page
    assert parsed.text[:2] == ["Round 3 (swiss)", "Round 3 (swiss)"]  # the title and the heading
    assert "Bye: Abbott, Ann (#1), 1-1 -3" in parsed.text


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cc", "Cs", "Cf", "Co", "Cn")), min_size=1, max_size=40)
       .map(str.strip).filter(bool))
def test_any_name_reads_back_as_written(name: str) -> None:
    table = standings([Player(1, name), Player(2, "Other")], [Game(1, 1, 2, 350, 340)])
    parsed = _read(standings_html(table, title=name))
    assert parsed.text[0] == name and name in parsed.text
    assert name in standings_text(table, title="t")
