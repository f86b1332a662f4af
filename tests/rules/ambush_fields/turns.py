"""Playing an ambush-fields test game to the phase a test needs."""

from __future__ import annotations

from typing import Any

from ghillie import Game
from ghillie.dice.source import ScriptedDice

CYLONS, COLONIALS = "cylons", "colonials"


def at_movement(data: dict[str, Any], dice: list[int] | None = None) -> Game:
    """A game of ``data`` with both sides ready and turn 1's Initiative Phase over: the
    Movement Phase, where ships plot, launch and leave."""
    game = Game.create(data, seed=1, dice=ScriptedDice(dice) if dice is not None else None)
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    both_end_phase(game)
    return game


def both_end_phase(game: Game) -> None:
    for side in (CYLONS, COLONIALS):
        game.command(side, {"type": "end_phase"})
