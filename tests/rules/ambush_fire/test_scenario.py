"""The ambush-fire scenario: the roster's values the text leans on, and what it refuses."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from ghillie.rules.ambush_fire.scenario import AmbushFireScenario, Diet, UnitClass

SCENARIO: dict[str, Any] = {
    "ruleset": "ambush-fire",
    "title": "The dragons' teeth",
    "mode": "map",
    "first": "germans",
    # One inch to the metre: these tests give places as metres (a player gives inches).
    "ground_scale": 1,
    "sides": [{"id": "germans", "name": "Germans"}, {"id": "soviets", "name": "Soviets"}],
    "terrain": [
        {
            "name": "the wood",
            "kind": "woods",
            "outline": [[100, 100], [400, 100], [400, 400]],
            "conceals": True,
        },
        {
            "name": "the marsh",
            "kind": "marsh",
            "outline": [[500, 500], [700, 500], [700, 700]],
            "impassable": True,
        },
        # BMF-R01: the tanks wait in the orchard and drive through the gap to the farm, from
        # one concealed position to another, as Challenge Fire needs.
        {
            "name": "the orchard",
            "kind": "orchard",
            "outline": [[1750, 650], [1900, 650], [1900, 750], [1750, 750]],
            "conceals": True,
        },
        {
            "name": "the farm",
            "kind": "buildings",
            "outline": [[860, 660], [960, 660], [960, 740], [860, 740]],
            "conceals": True,
        },
    ],
    "units": [
        {"key": "pak", "side": "germans", "name": "PaK 40", "class": "at_gun", "concealed": True},
        {
            "key": "grenadiers",
            "side": "germans",
            "name": "Grenadiers",
            "class": "infantry",
            "diet": "omnivore",
            "running": {"open": 100, "woods": 50},
            "concealed": True,
        },
        {
            "key": "t34_1",
            "side": "soviets",
            "name": "T-34 (1)",
            "class": "vehicle",
            "turret": True,
            "arc": 360,
            "column": "first company",
            "at": [1800, 700],
        },
    ],
}


def test_a_scenario_holds_the_roster_the_text_leans_on() -> None:
    scenario = AmbushFireScenario.model_validate(SCENARIO)
    by_key = {u.key: u for u in scenario.units}
    assert by_key["pak"].unit_class is UnitClass.AT_GUN
    assert by_key["grenadiers"].diet is Diet.OMNIVORE
    assert by_key["grenadiers"].running == {"open": 100, "woods": 50}
    assert by_key["t34_1"].column == "first company"
    assert scenario.switches.named()["bmf.penalty_mode"] == "additive"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"key": "t34_1", "diet": "carnivore"}, "a vehicle or a gun has no diet"),
        ({"key": "t34_1", "at": None}, "give where it stands on the ground"),
        ({"key": "t34_1", "at": [3000, 10]}, "off the ground"),
        ({"key": "grenadiers", "running": {"woods": 50}}, "running distance on open ground"),
        ({"key": "pak", "side": "finns"}, "not one of the sides"),
    ],
)
def test_a_scenario_the_rules_forbid_is_refused_with_the_reason(
    change: dict[str, Any], said: str
) -> None:
    key = change.pop("key")
    units = [{**u, **change} if u["key"] == key else u for u in SCENARIO["units"]]
    with pytest.raises(ValidationError, match=said):
        AmbushFireScenario.model_validate({**SCENARIO, "units": units})
