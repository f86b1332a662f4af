"""The set-up of ambush-fire: concealed units off the table, their places their owners'
secrets (BMF S1); standing orders written in secret, as pieces only their owner knows."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.state import SPECTATOR, Level
from ghillie.view import view
from tests.contract.harness import comparable

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


PLACES = {
    "type": "conceal",
    "units": [{"unit": "pak", "at": [900, 300]}, {"unit": "grenadiers", "at": [200, 200]}],
}
AT_THE_GAP = {
    "unit": "pak",
    "reaction": "challenge",
    "trigger": {"zone": [[900, 400], [900, 600]], "target_class": "vehicle"},
    "chance": 60,
    "note": "the first tank through the gap",
}
ORDERS = [
    AT_THE_GAP,
    {"unit": "grenadiers", "reaction": "ambush", "trigger": {"within": 150}, "chance": 50},
    {"unit": "grenadiers", "reaction": "close_combat", "trigger": {}, "chance": 45},
]


@pytest.mark.spec("BMF-A04")
def test_a_standing_order_is_a_secret_only_its_owner_knows() -> None:
    g = game()
    g.command(GERMANS, PLACES)
    g.command(GERMANS, {"type": "ready", "orders": [AT_THE_GAP]})
    orders = [p for p in g.state.pieces.values() if p.kind == "order"]
    assert len(orders) == 1
    assert orders[0].secret["reaction"] == "challenge"
    assert g.state.known(SOVIETS, orders[0].id).level is Level.UNKNOWN
    soviets = json.dumps(view(g, SOVIETS))
    assert "first tank" not in soviets
    assert orders[0].id not in soviets
    said = [line["text"] for e in view(g, GERMANS)["log"] for line in e["said"]]
    # Its owner reads the order in words, as it will be opened when it fires (issue 25).
    written = (
        "Standing order 1 written: PaK 40: Challenge Fire at the first vehicle that crosses "
        "the gap from 900, 400 to 900, 600, base chance 60%. ghillie carries it out when its "
        "trigger comes, with no prompt."
    )
    assert written in said
    assert "PaK 40: Challenge Fire" not in soviets


def _set_up(orders: list[dict[str, Any]]) -> Game:
    g = game()
    g.command(GERMANS, PLACES)
    g.command(GERMANS, {"type": "ready", "orders": orders})
    g.command(SOVIETS, {"type": "ready"})
    return g


@pytest.mark.spec("BMF-A04")
def test_how_many_standing_orders_a_side_gives_is_not_told() -> None:
    """Issue 24, finding 10: each standing order was a command of its own, and the Soviets
    read "Germans gave an order." once for each, so they counted them. All of a side's
    orders now come with its Ready: one event, whatever their number, and the Soviets and
    the table screen receive the same, with none, one, three or eight."""
    worlds = [_set_up(ORDERS[:n]) for n in (0, 1, 3)] + [_set_up([AT_THE_GAP] * 8)]
    assert [len([p for p in g.state.pieces.values() if p.kind == "order"]) for g in worlds] == [
        0, 1, 3, 8
    ]  # fmt: skip
    for watcher in (SOVIETS, SPECTATOR):
        seen = {json.dumps(comparable(view(g, watcher)), sort_keys=True) for g in worlds}
        assert len(seen) == 1, watcher
    told = [line["text"] for e in view(worlds[0], GERMANS)["log"] for line in e["said"]]
    assert "You give no standing orders." in told


@pytest.mark.spec("BMF-A04")
def test_a_ready_with_one_bad_order_is_refused_whole_naming_the_order() -> None:
    g = game()
    g.command(GERMANS, PLACES)
    bad = {**ORDERS[1], "trigger": {"zone": [[900, 400], [900, 400]]}}
    before = json.dumps(view(g, "referee"), sort_keys=True)
    with pytest.raises(Refusal) as refused:
        g.command(GERMANS, {"type": "ready", "orders": [AT_THE_GAP, bad, ORDERS[2]]})
    assert (refused.value.code, refused.value.field) == ("bad_zone", "orders.1.trigger.zone")
    with pytest.raises(Refusal) as refused:
        g.command(GERMANS, {"type": "ready", "orders": [AT_THE_GAP, {**ORDERS[2], "unit": "x"}]})
    assert (refused.value.code, refused.value.field) == ("unknown_piece", "orders.1.unit")
    assert json.dumps(view(g, "referee"), sort_keys=True) == before
    # Corrected, it is taken: the orders are numbered as listed.
    g.command(GERMANS, {"type": "ready", "orders": ORDERS})
    numbers = sorted(
        (p.public["number"], p.secret["reaction"])
        for p in g.state.pieces.values()
        if p.kind == "order"
    )
    assert numbers == [(1, "challenge"), (2, "ambush"), (3, "close_combat")]


def test_a_side_is_not_ready_until_each_concealed_unit_has_a_place() -> None:
    g = game()
    g.command(GERMANS, {"type": "conceal", "units": [{"unit": "pak", "at": [900, 300]}]})
    with pytest.raises(Refusal) as refused:
        g.command(GERMANS, {"type": "ready"})
    assert refused.value.code == "not_placed"
    assert g.state.phase.value == "setup"
