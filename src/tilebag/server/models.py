"""The payloads of the server's HTTP API, as pydantic models: what each
request may hold and what each answer holds, so that the OpenAPI page at
``/docs`` documents them (``docs/api.md`` says the same in prose).

The models check shapes and types only; what a value means for a game (a
seat's name, a bot's kind, a rules option, a move) is judged where that
decision lives, so it is made once, whichever way a request comes.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictInt


class _Request(BaseModel):
    model_config = ConfigDict(extra="ignore")


class SeatRequest(_Request):
    """One seat of a new game: a person (``name``, and ``practice`` for
    hints whatever the rules), a bot (``bot``: its kind) or an open seat."""

    name: str | None = None
    bot: str | None = None
    open: bool = False
    practice: bool = False
    me: bool = Field(default=False, description="the seat of the account making the game (logged in): named as it")


class NewGame(_Request):
    """``POST /api/games``."""

    seats: list[SeatRequest] = Field(description="2 to 4 seats, in seat order")
    rules: str | None = Field(default=None, description="a rules preset (tilebag rules lists them); default standard")
    options: dict[str, str | int | float | bool] = Field(default_factory=dict, description="rules options by name")
    lexicon: str | None = None
    seed: StrictInt | None = Field(default=None, description="only on a server started with --allow-seeds")
    days_per_move: StrictInt | None = Field(default=None, description="a correspondence game: 1 to 14 days per move")
    observers_chat: bool = Field(default=True, description="whether observers may chat (false: the seats only)")

    def setup(self) -> dict[str, object]:
        """What the game is made of besides its seats and seed."""
        made: dict[str, object] = {}
        if self.rules is not None:
            made["rules"] = self.rules
        if self.options:
            made["options"] = {key: str(value) for key, value in self.options.items()}
        if self.lexicon is not None:
            made["lexicon"] = self.lexicon
        if not self.observers_chat:
            made["observers_chat"] = False
        return made


class ActionRequest(_Request):
    """``POST /api/games/ID/actions``: a move in GCG notation, ``challenge``,
    ``resign`` or ``accept``, with an optional id that makes it idempotent."""

    action: str
    id: str | None = Field(default=None, description="any string up to 64 characters the client makes unique")


class ChatRequest(_Request):
    """A chat message; an observer (no token) gives the name it chats under."""

    text: str
    name: str | None = None


class JoinRequest(_Request):
    name: str = Field(default="", description="the name to play under (a logged-in account plays under its own)")


class PreviewRequest(_Request):
    action: str


class CoachRequest(_Request):
    ask: str


class NewAccount(_Request):
    """``POST /api/account``."""

    username: str = Field(max_length=40)
    password: str = Field(max_length=400)
    email: str | None = Field(default=None, max_length=300)


class Login(_Request):
    """``POST /api/login``."""

    username: str = Field(max_length=40)
    password: str = Field(max_length=400)


class PasswordChange(_Request):
    """``POST /api/password``."""

    old: str = Field(max_length=400)
    new: str = Field(max_length=400)


class AccountDeletion(_Request):
    """``DELETE /api/account``: the password, once more."""

    password: str = Field(max_length=400)


class TokenRequest(_Request):
    """``POST /api/tokens``."""

    name: str = Field(default="token", max_length=40, description="what the token is for, to tell it apart")


class Me(BaseModel):
    """``GET /api/me`` (and the answer to a login): the account, and the
    CSRF token that changes made with the session cookie must send."""

    username: str
    role: str
    csrf: str | None = None


class TokenMade(BaseModel):
    id: int
    token: str = Field(description="shown this once: the server keeps only its hash")


class TokenListed(BaseModel):
    id: int
    name: str
    created: str


class MyGame(BaseModel):
    """A game an account holds a seat in (``GET /api/my/games``)."""

    id: str
    seat: int
    status: str
    your_turn: bool
    turn: int | None
    names: list[str]
    scores: list[int]
    rules: str


class SeatLink(BaseModel):
    """A seat of a new game; a person's carries its token and link, given once."""

    seat: int
    name: str
    kind: str
    token: str | None = None
    url: str | None = None


class GameMade(BaseModel):
    id: str
    seats: list[SeatLink]


class LobbySeat(BaseModel):
    seat: int
    name: str
    kind: str


class LobbyGame(BaseModel):
    id: str
    status: str
    rules: str
    seats: list[LobbySeat]


class SeatTaken(BaseModel):
    """A seat taken (``join``) or given in a rematch: its token and link, given once."""

    seat: int
    token: str
    url: str
    id: str | None = None
    """The rematch's game."""


class Said(BaseModel):
    seq: int
    seat: int
    """-1 for an observer's message."""
    name: str
    text: str
    at: str


class Turn(BaseModel):
    """A finished game's board before its first event (``index`` 0) and after each one."""

    index: int
    rows: list[list[str]]
    last_play: list[str]
    scores: list[int]
    seat: int | None = None
    note: str | None = None
    kind: str | None = None
    move_number: int | None = None


class Turns(BaseModel):
    turns: list[Turn]


class Preview(BaseModel):
    ok: bool
    score: int | None = None
    words: list[str] | None = None
    error: str | None = None


class CoachAnswer(BaseModel):
    lines: list[str]


class GameView(BaseModel):
    """A seat's view of a game (an observer's has no ``rack``). Documented
    here; the server sends it as JSON it made once for each state and seat."""

    model_config = ConfigDict(extra="allow")

    id: str
    seq: int
    status: str = Field(description="playing, final-challenge or over")
    board: str = Field(description="the CGP board field")
    rows: list[list[str]] = Field(description="the board's rows, each a list of squares: '' empty, a tile's label, lower case a blank")
    last_play: list[str] = Field(description="the squares of the last play still on the board, as coordinates (H8)")
    scores: list[int]
    turn: int | None
    bag: int
    you: int | None
    rack: str | None = None
    unseen: str | None = None
    unseen_count: int | None = None
    unseen_by_letter: dict[str, int] = Field(description="the tiles this seat cannot see, counted by letter ('?' blanks)")
    events: list[dict[str, object]]
    chat: list[dict[str, object]]
