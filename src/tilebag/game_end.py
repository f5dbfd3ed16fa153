"""The end of a :class:`~tilebag.game.Game`: passing the turn on (and
ending the game after too many scoreless turns), counting the racks and
the time over the clocks, and taking the end back when its last play is
withdrawn.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from tilebag.alphabet import Tile
from tilebag.outcome import Termination
from tilebag.record import Event, EventKind
from tilebag.rules import EndAdjustment

if TYPE_CHECKING:
    from tilebag.game import Game


def finish(game: Game, termination: Termination, went_out: int | None) -> None:
    game.termination = termination
    game.went_out = went_out
    game._end_index = len(game.events)
    game._end_count = 0
    add_end_events(game)


def add_end_events(game: Game) -> None:
    """Count the racks: put the end-of-game events in place (replacing any
    earlier count) and adjust the scores."""
    assert game._end_index is not None
    for e in game._end_events():
        game.players[e.player].score -= e.score
    del game.events[game._end_index : game._end_index + game._end_count]
    new: list[Event] = []

    def add(kind: EventKind, player: int, points: int, rack: tuple[Tile, ...] | None, end_rack: list[Tile]) -> None:
        game.players[player].score += points
        new.append(
            Event(kind, player, points, 0, rack=None if rack is None else tuple(sorted(rack)), end_rack=tuple(sorted(end_rack)))
        )

    if game.went_out is not None:
        out = game.went_out
        others = [i for i in range(len(game.players)) if i != out]
        left = [t for i in others for t in game.players[i].rack]
        value = game.alphabet.rack_value(left)
        if game.rules.end_adjustment is EndAdjustment.DOUBLE:
            add(EventKind.END_RACK_POINTS, out, 2 * value, None, left)
        else:
            add(EventKind.END_RACK_POINTS, out, value, None, left)
            for i in others:
                rack = game.players[i].rack
                if rack:
                    add(EventKind.END_RACK_PENALTY, i, -game.alphabet.rack_value(rack), tuple(rack), rack)
    elif game.termination not in (Termination.FINISH_LINE, Termination.RESIGNED):
        for i, p in enumerate(game.players):
            if p.rack:
                add(EventKind.END_RACK_PENALTY, i, -game.alphabet.rack_value(p.rack), tuple(p.rack), p.rack)
    for i, points in enumerate(game.overtime_penalties()):
        if points:
            add(EventKind.TIME_PENALTY, i, -points, None, [])
    game.events[game._end_index : game._end_index] = new
    game._end_count = len(new)
    retotal(game)


def reopen(game: Game) -> None:
    """Take back the end of the game (its final play was withdrawn)."""
    if game._end_index is None:
        return
    for e in game._end_events():
        game.players[e.player].score -= e.score
    del game.events[game._end_index : game._end_index + game._end_count]
    game.termination = None
    game.went_out = None
    game.finish_winner = None
    game.resigned = None
    game._end_index = None
    game._end_count = 0


def next_turn(game: Game) -> None:
    """Pass the turn to the left, skipping players who lost a turn (each
    skip is a scoreless turn), and end the game after too many scoreless
    turns in a row."""
    n = len(game.players)
    limit = game.rules.scoreless_limit(n)
    while True:
        if game._position.scoreless >= limit:
            finish(game, Termination.SCORELESS_TURNS, None)
            return
        game._position.turn = (game._position.turn + 1) % n
        player = game.players[game._position.turn]
        if player.lost_turns <= 0:
            return
        player.lost_turns -= 1
        game._position.scoreless += 1


def insert_before_end(game: Game, kind: EventKind, player: int, score: int, **fields: object) -> None:
    """Record an event; if the game is over, keep it before the rack count."""
    if game._end_index is None:
        game._append(kind, player, score, **fields)
        return
    event = Event(kind, player, score, 0, **fields)  # type: ignore[arg-type]
    game.events.insert(game._end_index, event)
    game._end_index += 1
    retotal(game)


def retotal(game: Game) -> None:
    totals = [0] * len(game.players)
    for i, e in enumerate(game.events):
        totals[e.player] += e.score
        if e.total != totals[e.player]:
            # a new event, not a change: snapshots share the old one
            game.events[i] = dataclasses.replace(e, total=totals[e.player])


def result_text(game: Game) -> str:
    """What :meth:`Game.result_text <tilebag.game.Game.result_text>` says."""
    outcome = game.outcome()
    if outcome is None:
        return "the game is still on"
    if len(outcome.scores) == 2 and min(outcome.scores) >= 0:
        score_text = "-".join(str(s) for s in outcome.scores)
    else:
        score_text = ", ".join(f"{p.name} {s}" for p, s in zip(game.players, outcome.scores, strict=True))
    if outcome.termination is Termination.FINISH_LINE and game.finish_targets is not None:
        winner = outcome.winners[0]
        why = f"{game.players[winner].name} reached the Finish Line target of {game.finish_targets[winner]}"
    elif outcome.termination is Termination.WENT_OUT and outcome.went_out is not None:
        why = f"{game.players[outcome.went_out].name} went out"
    elif outcome.termination is Termination.RESIGNED and outcome.resigned is not None:
        why = f"{game.players[outcome.resigned].name} resigned"
        if not outcome.winners:
            return f"{why} ({score_text})"
    else:
        why = f"{game.rules.scoreless_limit(len(game.players))} scoreless turns in a row"
    if outcome.tiebreak and outcome.winner is not None:
        why += ", tie broken on the score before the racks were counted"
    if outcome.winner is None:
        return f"draw {score_text} ({why})"
    return f"{game.players[outcome.winner].name} wins {score_text} ({why})"
