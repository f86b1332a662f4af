"""A scout-search game for the rules tests: the bundled scenario, dice as given."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ghillie import Game, examples
from ghillie.dice.source import ScriptedDice

S, H = "scouts", "hunters"


def new_game(dice: Iterable[int] = (), hide: str | None = "C3", **switches: Any) -> Game:
    data = examples.data("scout-search")
    data["switches"] = {**data.get("switches", {}), **switches}
    game = Game.create(data, dice=ScriptedDice(list(dice)), seed=1)
    if hide is not None:
        game.command(S, {"type": "hide", "square": hide})
    return game


def search(game: Game, square: str) -> Any:
    return game.command(H, {"type": "search", "hunter": "hunter", "square": square})


def move(game: Game, square: str) -> Any:
    return game.command(S, {"type": "move", "square": square})


def last_lines(game: Game, observer: str) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = game.view(observer)["log"][-1]["lines"]
    return lines


def said(game: Game, observer: str) -> list[str]:
    return [s["text"] for s in game.view(observer)["log"][-1]["said"]]
