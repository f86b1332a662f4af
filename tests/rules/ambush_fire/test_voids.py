"""Table need 4 (issue 25): moving a concealed unit voids its own standing order (BMF-R07,
R14; R02 for Challenge Fire). Nothing forbids the move, but its owner is warned at the move
form, told after it, and reads on its page whether each order may fire now; and reads its
orders in words when it gives them. None of it reaches the other side."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game
from ghillie.state import SPECTATOR
from ghillie.view import view
from tests.contract.harness import comparable

from .test_challenge import GERMANS, SOVIETS, said
from .test_scenario import SCENARIO

AMBUSH = {"unit": "grenadiers", "reaction": "ambush", "trigger": {"within": 300}, "chance": 50}
# The grenadiers move inside the wood, concealed all the way (BMF S1).
IN_THE_WOOD = {"type": "move", "units": [{"unit": "grenadiers", "path": [[300, 200]]}]}
WARNING = "Grenadiers: moving now means the Ambush Fire order cannot fire this turn or next."


def germans_to_move(orders: list[dict[str, Any]], turns: int = 4) -> Game:
    game = Game.create({**SCENARIO, "turns": turns}, seed=3)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [250, 200]}],
        },
    )
    game.command(GERMANS, {"type": "ready", "orders": orders})
    game.command(SOVIETS, {"type": "ready"})
    return game


def move_choices(game: Game, side: str) -> dict[str, Any]:
    move = next(c for c in view(game, side)["commands"] if c["type"] == "move")
    return {c["label"]: c for c in move["choices"]["units.unit"]}


def status(game: Game, side: str) -> list[str]:
    return list(view(game, side)["status"])


@pytest.mark.spec("BMF-R07")
def test_bmf_r07_the_move_form_warns_which_order_a_move_would_void() -> None:
    game = germans_to_move([AMBUSH])
    choices = move_choices(game, GERMANS)
    assert choices["Grenadiers"]["warn"] == [WARNING]
    assert "warn" not in choices["PaK 40"]  # it holds no order
    assert WARNING not in json.dumps(view(game, SOVIETS))


@pytest.mark.spec("BMF-R07")
def test_bmf_r07_on_the_last_turn_the_warning_says_this_turn_only() -> None:
    game = germans_to_move([AMBUSH], turns=1)
    (warning,) = move_choices(game, GERMANS)["Grenadiers"]["warn"]
    assert warning == "Grenadiers: moving now means the Ambush Fire order cannot fire this turn."


@pytest.mark.spec("BMF-R07")
def test_bmf_r07_after_the_move_its_owner_is_told_and_its_page_shows_the_order_not_ready() -> None:
    game = germans_to_move([AMBUSH])
    assert not any("cannot fire now" in line for line in status(game, GERMANS))
    game.command(GERMANS, IN_THE_WOOD)
    assert said(game, GERMANS)[-1] == (
        "Grenadiers moved: its Ambush Fire order cannot fire this turn or next."
    )
    not_now = "Standing order 1, the Ambush Fire of Grenadiers, cannot fire now: "
    assert not_now + (
        "Ambush Fire needs a firer that has not moved or taken Challenge Fire this turn."
    ) in status(game, GERMANS)
    assert not any("cannot fire now" in line for line in status(game, SOVIETS))
    assert "warn" not in move_choices(game, GERMANS)["Grenadiers"]  # nothing more to void
    game.command(GERMANS, {"type": "end_step"})
    for _ in range(2):  # the Soviets' move, then the fire phase: both sides end it
        game.command(SOVIETS, {"type": "end_step"})
    game.command(GERMANS, {"type": "end_step"})
    assert game.state.board.turn == 2
    assert not_now + "Ambush Fire needs a firer that neither moved nor fired last turn." in (
        status(game, GERMANS)
    )


@pytest.mark.spec("BMF-R07")
def test_bmf_r07_the_soviets_learn_nothing_of_the_warning_or_the_order() -> None:
    """Two worlds that differ only in whether the grenadiers hold an order: the Soviets and
    the table screen read the same after the Germans move them in the wood."""
    worlds = []
    for orders in ([AMBUSH], []):
        game = germans_to_move(orders)
        game.command(GERMANS, IN_THE_WOOD)
        worlds.append(
            json.dumps([comparable(game.view(o)) for o in (SOVIETS, SPECTATOR)], sort_keys=True)
        )
    assert worlds[0] == worlds[1]
