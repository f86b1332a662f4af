"""Scenarios of ambush-fields: fields exist only by scenario, and only as the rules allow."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie.errors import ScenarioError
from ghillie.measure.hexes import Hex
from ghillie.rules.ambush_fields.scenario import AmbushFieldsScenario, RangeTo, ShipClass
from ghillie.scenario import parse_scenario


def data(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "ruleset": "ambush-fields",
        "title": "Ragnar anchorage",
        "mode": "map",
        "sides": [{"id": "cylons", "name": "Cylons"}, {"id": "colonials", "name": "Colonials"}],
        "map": {"columns": 42, "rows": 30},
        "ships": [
            {"key": "basestar", "side": "cylons", "name": "Basestar", "at": "1010"},
            {"key": "eye", "side": "cylons", "name": "Eye", "class": "scout", "at": "1112"},
            {"key": "pb", "side": "cylons", "name": "Picket", "class": "patrol_boat"},
            {"key": "raiders", "side": "cylons", "name": "Raiders", "class": "fighter_flight"},
            {"key": "liner", "side": "colonials", "name": "Rising Star", "class": "civilian"},
            {"key": "shuttle", "side": "colonials", "name": "Shuttle 2", "class": "shuttle"},
            {"key": "galactica", "side": "colonials", "name": "Galactica", "flag": True},
        ],
        "fields": [{"key": "veil", "controller": "basestar", "radius": 3, "rating": 2}],
    }
    base.update(changes)
    return base


def parse(value: dict[str, Any]) -> AmbushFieldsScenario:
    parsed = parse_scenario(AmbushFieldsScenario, value)
    assert isinstance(parsed, AmbushFieldsScenario)
    return parsed


def field(controller: str, rating: int) -> list[dict[str, Any]]:
    return [{"key": "f", "controller": controller, "radius": 2, "rating": rating}]


def test_a_scenario_names_its_fleets_fields_and_map() -> None:
    scenario = parse(data())
    assert scenario.fields[0].rating == 2
    assert scenario.start(scenario.ship("basestar")) == Hex(9, 5)  # hex 1010
    assert scenario.ship("raiders").ship_class.small
    assert scenario.ship("galactica").flag
    assert scenario.switches.range_to is RangeTo.NEAREST_HEX


@pytest.mark.spec("BSG-T11", "BSG-R03")
@pytest.mark.parametrize(
    ("controller", "rating", "valid"),
    [
        ("pb", 1, True),
        ("pb", 2, False),  # patrol boats are limited to +1
        ("eye", 3, True),  # only scouts make +3 fields
        ("basestar", 3, False),
        ("basestar", 2, True),
        ("basestar", 1, True),
    ],
)
def test_bsg_t11_ratings_by_controller(controller: str, rating: int, valid: bool) -> None:
    value = data(fields=field(controller, rating))
    if valid:
        assert parse(value).fields[0].rating == rating
    else:
        with pytest.raises(ScenarioError, match="BSG-R03"):
            parse(value)


@pytest.mark.spec("BSG-T11", "BSG-R02")
@pytest.mark.parametrize("controller", ["raiders", "shuttle", "liner"])
def test_bsg_r02_fighters_shuttles_and_civilians_cannot_create_fields(controller: str) -> None:
    with pytest.raises(ScenarioError, match="cannot create an ambush field"):
        parse(data(fields=field(controller, 1)))


@pytest.mark.spec("BSG-R03")
@pytest.mark.parametrize("rating", [0, 4, -1])
def test_bsg_r03_ratings_run_from_1_to_3(rating: int) -> None:
    with pytest.raises(ScenarioError, match="rating"):
        parse(data(fields=field("eye", rating)))


@pytest.mark.spec("BSG-R01")
def test_bsg_r01_fields_are_the_scenarios_and_each_names_a_real_controller() -> None:
    with pytest.raises(ScenarioError, match="no ship 'ghost'"):
        parse(data(fields=field("ghost", 1)))
    second = {"key": "g", "controller": "basestar", "radius": 1, "rating": 1}
    twice = [*field("basestar", 1), second]
    with pytest.raises(ScenarioError, match="one ambush field at most"):
        parse(data(fields=twice))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ships": [{"key": "x", "side": "pegasus", "name": "X"}]}, "not one of the sides"),
        ({"ships": [{"key": "x", "side": "cylons", "name": "X", "at": "4301"}]}, "4301"),
        ({"ships": [{"key": "x", "side": "cylons", "name": "X", "class": "battleship"}]}, "class"),
        ({"host": {"arcs": {"front": [[0, 90]]}}}, "no arc covers"),
        ({"switches": {"bsg.range_to": "centre"}}, "range_to"),
    ],
)
def test_a_scenario_that_breaks_the_schema_is_refused_with_a_reason(
    change: dict[str, Any], message: str
) -> None:
    value = data(**change)
    if "ships" in change:
        value["fields"] = []
    with pytest.raises(ScenarioError, match=message):
        parse(value)


def test_detected_units_show_only_their_category() -> None:
    # BSG-R10: "They will know whether it is a ship, fighter flight or shuttle only."
    assert {c.category for c in ShipClass} == {"ship", "fighter flight", "shuttle"}
