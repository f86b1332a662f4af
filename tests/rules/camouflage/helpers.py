"""Playing a camouflage game in tests: deploy, give Orders, read what each side reads."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from ghillie import Game, Refusal, examples
from ghillie.dice.source import ScriptedDice
from ghillie.view import view

NOMADS, PANO = "nomads", "panoceania"


def table_game(seed: int = 3, **switches: Any) -> Game:
    data = examples.data("camouflage-table")
    if switches:
        data = {**data, "switches": {**data.get("switches", {}), **switches}}
    return Game.create(data, seed=seed)


def pid(game: Game, key: str) -> str:
    return next(p.id for p in game.state.pieces.values() if p.public.get("key") == key)


def marker_of(game: Game, key: str) -> str:
    marker = game.state.pieces[pid(game, key)].public.get("marker")
    assert marker, f"{key} has no marker"
    return str(marker)


def deployed(seed: int = 3, **switches: Any) -> Game:
    game = table_game(seed, **switches)
    camouflaged = {NOMADS: ("caliban", "zondbot", "mine"), PANO: ("croc_man",)}
    for side, keys in camouflaged.items():
        game.command(side, {"type": "deploy", "markers": [{"piece": pid(game, k)} for k in keys]})
    return game


@contextmanager
def ghillie_rolls(game: Game, *faces: int) -> Iterator[None]:
    """ghillie's own dice are ``faces`` for the commands given inside: the dice no side may
    type in (the other side's in an Order, every die in a map game)."""
    game.dice = ScriptedDice(faces)
    try:
        yield
    finally:
        game.dice = None


def measured(range_: float, cover: str = "none") -> dict[str, Any]:
    return {"range": range_, "cover": cover}


def refused(game: Game, side: str, command: dict[str, Any]) -> Refusal:
    before, log = game.state, game.events()
    with pytest.raises(Refusal) as caught:
        game.command(side, command)
    assert game.state == before
    assert game.events() == log
    return caught.value


def said(game: Game, side: str) -> list[str]:
    return [line["text"] for entry in view(game, side)["log"] for line in entry["said"]]


def last_said(game: Game, side: str) -> list[str]:
    return [line["text"] for line in view(game, side)["log"][-1]["said"]]


def order(game: Game, side: str, piece: str, skill: dict[str, Any]) -> None:
    game.command(side, {"type": "first_skill", "piece": piece, "skill": skill})


def aros(game: Game, side: str, *declared: dict[str, Any]) -> None:
    game.command(side, {"type": "aros", "aros": list(declared)})


def second(game: Game, side: str, skill: dict[str, Any]) -> None:
    game.command(side, {"type": "second_skill", "skill": skill})


def end_turn(game: Game, side: str) -> None:
    game.command(side, {"type": "end_turn"})


def revealed_caliban(**switches: Any) -> Game:
    """The Caliban reveals itself (Look Out!) and its Order is over: a model again."""
    game = deployed(**switches)
    order(game, NOMADS, marker_of(game, "caliban"), {"skill": "look_out"})
    aros(game, PANO)
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    return game
