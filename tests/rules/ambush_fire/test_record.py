"""What the rules of play write into the record is in the one form the record keeps: a
whole number of metres is an int, since the record's JSON writes 900.0 as 900 and an
audit's replay must give back exactly what it reads (ghillie.fairness.strict)."""

from __future__ import annotations

from typing import Any

from ghillie import Game
from ghillie.events import event_to_json

from . import test_atgm, test_transit
from .test_challenge import column_move, ready

PLAY = ("move", "return_fire", "retreat", "end_step", "fire")


def _whole_floats(value: Any, path: str = "") -> list[str]:
    if isinstance(value, float) and value.is_integer():
        return [f"{path} = {value}"]
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in _whole_floats(v, f"{path}.{k}")]
    if isinstance(value, list | tuple):
        return [w for i, v in enumerate(value) for w in _whole_floats(v, f"{path}[{i}]")]
    return []


def _play(game: Game) -> list[str]:
    found = []
    for event in game.events():
        if event.command is None or event.command.get("type") not in PLAY:
            continue
        written = {k: v for k, v in event_to_json(event).items() if k in ("effects", "told")}
        found += [f"{event.seq}{w}" for w in _whole_floats(written)]
    return found


def _answer_all(game: Game) -> None:
    while game.state.window is not None:
        window = game.state.window
        assert window.awaiting is not None
        game.command(window.awaiting, {"type": window.name})


def test_a_challenge_and_the_column_write_whole_metres_as_ints() -> None:
    game = ready()
    game.command("soviets", column_move())
    _answer_all(game)
    assert _play(game) == []


def test_a_missile_in_flight_writes_whole_metres_as_ints() -> None:
    game = test_atgm.ready(test_atgm.AT_1250)
    test_atgm.moved(game)
    _answer_all(game)
    assert _play(game) == []


def test_a_concealed_mover_in_transit_writes_whole_metres_as_ints() -> None:
    game = test_transit.ready()
    test_transit.march(game, [[300, 1050], [400, 1050]])  # revealed in the open
    assert _play(game) == []
