"""Every field of a scenario bounded (issue 24): a text of any length or a number that is
not finite or past a million, anywhere in a scenario, is refused when the game is created,
with the key that breaks the bound and the bound it breaks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ghillie import ScenarioError, examples, load_scenario
from ghillie.bounds import DESCRIPTION, ENTRIES, MAGNITUDE, TEXT
from ghillie.scenario import loads_toml
from ghillie.server.app import create_app
from ghillie.store import MemoryStore

HUGE = "x" * (4 << 20)


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from leaves(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from leaves(inner, (*path, i))
    else:
        yield path, value


def put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: put(value[head], rest, new)}
    out = list(value)
    out[head] = put(value[head], rest, new)
    return out


@pytest.mark.parametrize("name", examples.names())
def test_every_text_and_number_of_a_scenario_is_bounded(name: str) -> None:
    data = examples.data(name)
    tried = 0
    for path, value in leaves(data):
        if isinstance(value, bool) or path[:1] == ("ruleset",):
            continue
        if isinstance(value, str):
            past: tuple[Any, ...] = (HUGE, "y" * (TEXT + 1) if path != ("description",) else HUGE)
        elif isinstance(value, int | float):
            past = (1e308, float("nan"), float("inf"), -MAGNITUDE - 1)
        else:
            continue
        for bad in past:
            with pytest.raises(ScenarioError) as refused:
                load_scenario(put(data, path, bad))
            key = ".".join(str(p) for p in path)
            assert key in str(refused.value), f"{key} is not named: {refused.value}"
            assert len(str(refused.value)) < 2_000  # the input is not echoed
            tried += 1
    assert tried


def test_a_description_may_be_a_few_paragraphs() -> None:
    data = examples.data("grid-ambush")
    assert load_scenario({**data, "description": "a" * DESCRIPTION}).description
    with pytest.raises(ScenarioError, match="description"):
        load_scenario({**data, "description": "a" * (DESCRIPTION + 1)})


def test_a_list_past_the_bounds_is_refused_naming_it() -> None:
    data = examples.data("camouflage")
    trooper = data["troopers"][0]
    crowded = {**data, "troopers": [{**trooper, "skills": ["x"] * (ENTRIES + 1)}]}
    with pytest.raises(ScenarioError, match=r"troopers\.0\.skills: past the bounds"):
        load_scenario(crowded)


def test_a_switch_of_infinity_as_toml_writes_it_is_refused() -> None:
    """TOML takes ``inf`` and ``nan``; a scenario does not (a sniper's markers spread over
    an infinite distance)."""
    data = examples.data("suspicious-places")
    for bad in ("inf", "nan", "1e308"):
        spread = loads_toml(f"spread = {bad}")["spread"]
        with pytest.raises(ScenarioError, match=r"sw\.sniper_spread"):
            load_scenario({**data, "switches": {"sw.sniper_spread": spread}})


def test_a_scenario_past_the_bounds_is_refused_at_creation_over_http() -> None:
    """A unit's running speed of 1e308 metres a minute (ambush-fire) was taken; now the
    creation answers 422 ``bad_scenario`` naming the key."""
    data = examples.data("ambush-fire")
    unit = data["units"][0]
    data["units"][0] = {**unit, "running": {**unit.get("running", {}), "open": 1e308}}
    with TestClient(create_app(MemoryStore())) as client:
        answer = client.post("/api/games", json={"scenario_data": data})
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "bad_scenario"
    assert "units.0.running.open" in answer.json()["detail"]
