"""Reactions that give nothing away (issue 14): two worlds that differ only in the Germans'
secrets — where the PaK waits, which standing order it holds, or whether it holds one —
look the same to the Soviets and the table screen through a whole move that sets nothing
off, proof material compared by its pattern of repeats (tests/contract/harness.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game
from ghillie.state import SPECTATOR
from tests.contract.harness import comparable

from .test_challenge import SECOND_TANK, column_move
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
ELSEWHERE = {"zone": [[300, 600], [300, 800]], "target_class": "vehicle"}  # never reached


def world(pak_at: list[float], trigger: dict[str, Any] | None, reaction: str = "challenge") -> Game:
    game = Game.create({**SCENARIO, "units": [*SCENARIO["units"], SECOND_TANK]}, seed=7)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": pak_at}, {"unit": "grenadiers", "at": [200, 200]}],
        },
    )
    # In the world with no order for the PaK, the Germans give none at all: how many orders
    # a side holds is its secret too (issue 24).
    orders = []
    if trigger is not None:
        orders.append({"unit": "pak", "reaction": reaction, "trigger": trigger, "chance": 60})
    game.command(GERMANS, {"type": "ready", "orders": orders})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, column_move())
    game.command(SOVIETS, {"type": "end_step"})
    return game


def seen(game: Game) -> str:
    return json.dumps([comparable(game.view(o)) for o in (SOVIETS, SPECTATOR)], sort_keys=True)


@pytest.mark.parametrize(
    "other",
    [
        ([1500, 200], ELSEWHERE, "challenge"),  # another place, the same kind of order
        ([1000, 300], ELSEWHERE, "ambush"),  # another kind of order
        ([1000, 300], None, "challenge"),  # no order for the PaK at all
    ],
)
def test_a_move_that_sets_nothing_off_says_nothing_of_the_orders(other: tuple[Any, ...]) -> None:
    one = world([1000, 300], ELSEWHERE)
    assert one.state.window is None
    assert seen(one) == seen(world(*other))
