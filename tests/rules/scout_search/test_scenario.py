"""The scenario: on the map only, with its two switches."""

from __future__ import annotations

import pytest

from ghillie import examples, load_scenario
from ghillie.errors import ScenarioError


def test_scout_search_is_played_on_the_map_only() -> None:
    data = examples.data("scout-search")
    data["mode"] = "table"
    with pytest.raises(ScenarioError, match="map only"):
        load_scenario(data)


@pytest.mark.parametrize(("switch", "value"), [("ss.hear_on", 7), ("ss.searches", 0)])
def test_a_switch_out_of_its_range_is_refused_by_name(switch: str, value: int) -> None:
    data = examples.data("scout-search")
    data["switches"] = {switch: value}
    with pytest.raises(ScenarioError, match=switch.split(".")[1]):
        load_scenario(data)
