"""The set-up of ambush-fire: concealed units off the table, their places their owners'
secrets (BMF S1); standing orders written in secret, as pieces only their owner knows."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.state import Level
from ghillie.view import view

from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"


def game(**changes: Any) -> Game:
    return Game.create({**SCENARIO, **changes}, seed=4)


def pid(g: Game, key: str) -> str:
    return next(p.id for p in g.state.pieces.values() if p.public.get("key") == key)


def test_a_concealed_unit_is_off_the_table_and_unknown_to_the_enemy() -> None:
    g = game()
    pak, t34 = pid(g, "pak"), pid(g, "t34_1")
    assert g.state.known(SOVIETS, pak).level is Level.UNKNOWN
    assert g.state.known(GERMANS, t34).level is Level.IDENTIFIED
    hidden = {"unit": "pak", "at": [913.5, 647.25], "note": "behind the broken wall"}
    g.command(GERMANS, {"type": "conceal", "units": [hidden]})
    assert g.state.pieces[pak].secret["at"] == [913.5, 647.25]
    soviets = json.dumps(view(g, SOVIETS))
    assert pak not in soviets
    assert "broken wall" not in soviets
    assert "913.5" not in soviets


def test_at_a_real_table_a_place_in_inches_is_held_in_metres() -> None:
    g = Game.create({**SCENARIO, "mode": "table", "ground_scale": 25}, seed=4)
    g.command(GERMANS, {"type": "conceal", "units": [{"unit": "pak", "at": [36, 26]}]})
    assert g.state.pieces[pid(g, "pak")].secret["at"] == [900.0, 650.0]


def test_only_a_concealed_unit_is_given_a_place_and_only_on_the_ground() -> None:
    g = game()
    for units, code in (
        ([{"unit": "t34_1", "at": [10, 10]}], "not_yours"),
        ([{"unit": "pak", "at": [5000, 10]}], "bad_place"),
        ([{"unit": "pak", "at": [10, 10]}, {"unit": "pak", "at": [20, 10]}], "not_concealed"),
    ):
        with pytest.raises(Refusal) as refused:
            g.command(GERMANS, {"type": "conceal", "units": units})
        assert refused.value.code == code


@pytest.mark.spec("BMF-A04")
def test_a_standing_order_is_a_secret_only_its_owner_knows() -> None:
    g = game()
    order = {
        "type": "standing_order",
        "unit": "pak",
        "reaction": "challenge",
        "trigger": {"zone": [[900, 400], [900, 600]], "target_class": "vehicle"},
        "chance": 60,
        "note": "the first tank through the gap",
    }
    g.command(GERMANS, order)
    orders = [p for p in g.state.pieces.values() if p.kind == "order"]
    assert len(orders) == 1
    assert orders[0].secret["reaction"] == "challenge"
    assert g.state.known(SOVIETS, orders[0].id).level is Level.UNKNOWN
    soviets = json.dumps(view(g, SOVIETS))
    assert "first tank" not in soviets
    assert orders[0].id not in soviets
    said = [line["text"] for e in view(g, GERMANS)["log"] for line in e["said"]]
    assert "Standing order 1 written: PaK 40 will react as ordered, with no prompt." in said


def test_a_side_is_not_ready_until_each_concealed_unit_has_a_place() -> None:
    g = game()
    g.command(GERMANS, {"type": "conceal", "units": [{"unit": "pak", "at": [900, 300]}]})
    with pytest.raises(Refusal) as refused:
        g.command(GERMANS, {"type": "ready"})
    assert refused.value.code == "not_placed"
    assert g.state.phase.value == "setup"
