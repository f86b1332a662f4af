"""ambush-fire's bounds over HTTP (issue 24, findings 4, 6, 7): a place of 1e308 inches,
NaN or infinity, a target class of a megabyte and terrain of 16,004 points are each refused
with a code and a sentence — never a 500, never a game that holds the server."""

from __future__ import annotations

import copy
import json
import math
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ghillie import examples
from ghillie.rules.ambush_fire.demo import SCRIPT

from .api_game import Api, seeded_client

GERMANS, SOVIETS = "germans", "soviets"
SEED = 1  # as test_api_ambush_fire: the story the script tells


@pytest.fixture
def client() -> Iterator[TestClient]:
    with seeded_client(SEED) as client:
        yield client


def played(client: TestClient, until: str) -> Api:
    """A game of the bundled map scenario (25 m to the inch), played by the demo's script up
    to the first step whose caption starts with ``until``."""
    api = Api(client, SCRIPT.scenario)
    for step in SCRIPT.steps:
        if step.caption.startswith(until):
            return api
        api.give(step.side, step.command)
    raise AssertionError(f"no step {until!r}")


def raw(api: Api, side: str, command: dict[str, Any]) -> tuple[int, Any]:
    """Give a command as JSON that may hold NaN or Infinity (Python's JSON writes them)."""
    body = json.dumps({"command_id": str(uuid.uuid4()), "command": command})
    answer = api.client.post(
        f"/api/games/{api.game}/commands",
        content=body,
        headers={**api.headers(side), "Content-Type": "application/json"},
    )
    return answer.status_code, answer.json()


@pytest.mark.parametrize(
    ("far", "status", "code"),
    [
        (1e308, 422, "malformed_command"),
        (-1e308, 422, "malformed_command"),
        (math.nan, 422, "malformed_command"),
        (math.inf, 422, "malformed_command"),
        (-math.inf, 422, "malformed_command"),
    ],
)
def test_a_move_to_1e308_inches_nan_or_infinity_is_refused_not_a_500(
    client: TestClient, far: float, status: int, code: str
) -> None:
    api = played(client, "The tank column drives west")
    before = api.view(SOVIETS)
    move = {"type": "move", "units": [{"unit": "t34_1", "path": [[far, 24]]}]}
    answer, body = raw(api, SOVIETS, move)
    assert (answer, body["code"]) == (status, code), body
    assert body["detail"]
    assert api.view(SOVIETS)["seq"] == before["seq"]


@pytest.mark.parametrize(
    ("far", "status", "code"),
    [
        (1e308, 422, "malformed_command"),
        (-1e308, 422, "malformed_command"),
        (math.nan, 422, "malformed_command"),
    ],
)
def test_a_retreat_to_1e308_inches_or_nan_is_refused_not_a_500(
    client: TestClient, far: float, status: int, code: str
) -> None:
    api = played(client, "The grenadiers retreat")
    answer, body = raw(api, GERMANS, {"type": "retreat", "path": [[far, 36]]})
    assert (answer, body["code"]) == (status, code), body
    api.give(GERMANS, {"type": "retreat", "path": [[48.4, 36]]})  # the script's goes through


def test_a_standing_order_at_a_class_of_a_megabyte_is_refused(client: TestClient) -> None:
    """Eight orders at a class of 4 MiB made a 33.5 MB view; a class is a unit class."""
    api = played(client, "The Germans are ready")
    order = {
        "unit": "grenadiers",
        "reaction": "ambush",
        "trigger": {"within": 150, "target_class": "x" * (1 << 20)},
        "chance": 40,
    }
    answer, body = api.answer(GERMANS, {"type": "ready", "orders": [order]})
    assert (answer, body["code"], body["field"]) == (
        422,
        "malformed_command",
        "orders.0.trigger.target_class",
    )
    assert len(json.dumps(api.view(GERMANS))) < 200_000


def test_terrain_of_16004_points_is_refused_at_creation(client: TestClient) -> None:
    """A 16,004-point terrain area (196 KiB, within the creation limit) was accepted, and
    then even a refused move held the server 8.5 s. It is refused as it is created."""
    data = copy.deepcopy(examples.data("ambush-fire"))
    # A comb of 4,000 teeth 1 m wide, in whole metres: 16,004 points in 144 KiB.
    teeth = [[[x, 10], [x, 15], [x + 1, 15], [x + 1, 10]] for x in range(2, 8002, 2)]
    outline = [[1, 0], *(p for tooth in teeth for p in tooth), [8003, 10], [8003, 0], [4000, -1]]
    data["terrain"] = [{"name": "the red team's wood", "kind": "woods", "outline": outline}]
    answer = client.post("/api/games", json={"scenario_data": data, "chains": "host"})
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["code"] == "bad_scenario"
    assert "terrain.0.outline" in body["detail"]
    # Within the bounds of any scenario, the ruleset's own: 201 points.
    data["terrain"][0]["outline"] = outline[:201]
    answer = client.post("/api/games", json={"scenario_data": data, "chains": "host"})
    assert answer.status_code == 422, answer.text
    assert "at most 200 points to an area's outline" in answer.json()["detail"]
