"""Every command and scenario of ambush-fire has bounds, and what is past them is refused
with a code and a sentence, the game unchanged — never a crash (issue 24, findings 3, 4, 6
and 7; TRUST.md §3.7 "Limits are part of correctness")."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from pydantic import ValidationError

from ghillie import Game, Refusal
from ghillie.rules.ambush_fire.scenario import AmbushFireScenario

from .test_challenge import SECOND_TANK
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
# Played at 25 m to the inch, as at a real table: a place in inches becomes metres.
THIRD_TANK = {**SECOND_TANK, "key": "t34_3", "name": "T-34 (3)", "at": [1900, 700]}
TABLE = {**SCENARIO, "ground_scale": 25, "units": [*SCENARIO["units"], SECOND_TANK, THIRD_TANK]}


def snapshot(game: Game) -> str:
    return json.dumps(game.view("referee"), sort_keys=True, default=str)


def moving(scenario: dict[str, Any] = TABLE) -> Game:
    """The Soviets to move (the Germans set up, and stayed still)."""
    game = Game.create(scenario, seed=3)
    places = [{"unit": "pak", "at": [40, 12]}, {"unit": "grenadiers", "at": [8, 8]}]
    game.command(GERMANS, {"type": "conceal", "units": places})
    game.command(GERMANS, {"type": "ready"})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    return game


def refused(game: Game, side: str, command: dict[str, Any]) -> Refusal:
    before = snapshot(game)
    with pytest.raises(Refusal) as caught:
        game.command(side, command)
    assert snapshot(game) == before
    return caught.value


def _move(*paths: list[list[float]]) -> dict[str, Any]:
    keys = ("t34_1", "t34_2", "t34_3")[: len(paths)]
    units = [{"unit": k, "path": p} for k, p in zip(keys, paths, strict=True)]
    return {"type": "move", "units": units}


# --- places: finite, and on the ground (finding 7) -----------------------------------------


@pytest.mark.parametrize("far", [1e308, -1e308, 1e300, 1e20, -5.0, 2000.0])
def test_a_move_to_a_place_off_the_ground_is_refused_not_a_crash(far: float) -> None:
    """1e308 inches at 25 m to the inch is infinite metres: the move raised a ValueError
    (a 500 over HTTP). A place past any table (more than a million in size: ``ghillie.bounds``)
    is a malformed command; any other place off the ground, a path that leaves it."""
    game = moving()
    for path in ([[far, 24]], [[60, far]], [[60, 24], [far, far]]):
        refusal = refused(game, SOVIETS, _move(path))
        if abs(far) > 1e6:
            assert refusal.code == "malformed_command"
            assert str(refusal.field).startswith("units.0.path.")
        else:
            assert (refusal.code, refusal.field) == ("impassable", "units.0.path")


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_move_to_nan_or_infinity_is_malformed(bad: float) -> None:
    refusal = refused(moving(), SOVIETS, _move([[bad, 24]]))
    assert refusal.code == "malformed_command"


def ambushed(seed: int) -> Game:
    """At 25 m to the inch: the grenadiers' Ambush Fire at the T-34 column (as
    ``test_ambush.ambushed``, places in inches)."""
    game = Game.create(TABLE, seed=seed)
    places = [{"unit": "pak", "at": [40, 12]}, {"unit": "grenadiers", "at": [40, 32.8]}]
    game.command(GERMANS, {"type": "conceal", "units": places})
    order = {"unit": "grenadiers", "reaction": "ambush", "chance": 40, "trigger": {"within": 150}}
    game.command(GERMANS, {"type": "ready", "orders": [order]})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, _move([[36, 28]], [[38, 28]]))
    return game


@pytest.mark.spec("BMF-R13")
@pytest.mark.parametrize("far", [1e308, -1e308, math.nan, math.inf])
def test_a_retreat_to_a_place_off_the_ground_is_refused_not_a_crash(far: float) -> None:
    """BMF-R13: a retreat to 1e308 inches (infinite metres at 25 m to the inch) raised a
    ValueError; it is a bad retreat (and nan or infinity, malformed)."""
    game = next(g for g in map(ambushed, range(40)) if _retreating(g))
    refusal = refused(game, GERMANS, {"type": "retreat", "path": [[far, 32]]})
    assert refusal.code == ("bad_retreat" if abs(far) <= 1e6 else "malformed_command")
    game.command(GERMANS, {"type": "retreat", "path": [[40, 34]]})  # 30 m, away


def _retreating(game: Game) -> bool:
    """Is the ambusher asked for its retreat (after any return fire, held)?"""
    if game.state.window is not None and game.state.window.name == "return_fire":
        game.command(SOVIETS, {"type": "return_fire", "fire": False})
    return game.state.window is not None and game.state.window.name == "retreat"


# --- a move's size (findings 3 and 4) ---------------------------------------------------------


def test_a_move_of_more_than_80_waypoints_in_all_is_refused() -> None:
    game = moving()
    path = [[72 - (i % 2), 36] for i in range(40)]
    refusal = refused(game, SOVIETS, _move(path, path, [[70, 40]]))
    assert (refusal.code, refusal.field) == ("too_many_waypoints", "units")
    assert refusal.detail == "A move gives at most 80 waypoints in all."
    game.command(SOVIETS, _move(path, path))  # 80 is allowed


def test_a_path_longer_than_once_round_the_table_is_refused() -> None:
    """The ground is 2000 × 1500 m, 80 × 60 inches at 25 m to the inch: a path may be 280
    inches long; a zig-zag of 40 waypoints across the whole table is not."""
    game = moving()
    zigzag = [[5 + 70 * (i % 2), 40] for i in range(40)]
    refusal = refused(game, SOVIETS, _move(zigzag))
    assert (refusal.code, refusal.field) == ("path_too_long", "units.0.path")
    said = "A unit's path is at most 280 inches long here: once round the table's edge."
    assert refusal.detail == said
    game.command(SOVIETS, _move(zigzag[:4]))  # 278 inches


def _comb(teeth: int) -> list[list[float]]:
    """A wood with teeth across y = 700 (metres), every 10 m from x = 1000."""
    points = [[1000.0, 650.0]]
    for i in range(teeth):
        x = 1000 + 10 * i
        points += [[x, 750], [x + 5, 750], [x + 5, 660]]
    return [*points, [1000 + 10 * teeth, 660], [1000 + 10 * teeth, 650]]


def test_a_move_that_crosses_terrain_edges_more_than_200_times_is_refused() -> None:
    """Each time a path crosses an area's edge is work (and, for a concealed mover, a line
    told to everyone): a move may cross them 200 times in all. A path along a comb of 60
    teeth crosses 120 edges."""
    comb = {"name": "the comb", "kind": "woods", "outline": _comb(60), "conceals": True}
    game = moving({**TABLE, "terrain": [*TABLE["terrain"], comb]})
    along = [[72, 28], [39, 28], [65, 28]]  # along it and back: 240 edges
    refusal = refused(game, SOVIETS, _move(along))
    assert (refusal.code, refusal.field) == ("too_intricate", "units.0.path")
    assert refusal.detail == (
        "That move crosses the edges of terrain areas more than 200 times: give plainer paths."
    )
    game.command(SOVIETS, _move(along[:2]))  # 120 edges


# --- terrain (finding 4) ----------------------------------------------------------------------


def _area(name: str, points: int, x: float = 1000, y: float = 700) -> dict[str, Any]:
    """A round area of ``points`` points, 50 m across."""
    outline = [
        [x + 25 * math.cos(2 * math.pi * k / points), y + 25 * math.sin(2 * math.pi * k / points)]
        for k in range(points)
    ]
    return {"name": name, "kind": "woods", "outline": outline, "conceals": True}


@pytest.mark.parametrize(
    ("terrain", "said"),
    [
        ([_area("the big wood", 201)], "at most 200 points to an area's outline"),
        ([_area(f"wood {k}", 200, 100 + 60 * k) for k in range(6)], "at most 1,000 points in all"),
        ([_area(f"copse {k}", 3, 40 * k + 30) for k in range(65)], "at most 64 terrain areas"),
        ([_area("the red team's wood", 16_004)], "at most 200 points"),
    ],
)
def test_terrain_too_big_to_measure_is_refused_at_creation(
    terrain: list[dict[str, Any]], said: str
) -> None:
    """A 16,004-point area (196 KiB) was accepted, and then even a refused move held the
    server 8.5 s. Terrain has a size: 64 areas, 200 points an area, 1,000 in all."""
    with pytest.raises(ValidationError, match=said):
        AmbushFireScenario.model_validate({**SCENARIO, "terrain": terrain})
    AmbushFireScenario.model_validate({**SCENARIO, "terrain": [_area("a wood", 200)]})


def test_terrain_that_is_no_simple_polygon_is_refused_at_creation() -> None:
    """A bow tie was accepted, and the first move then failed (a 500 over HTTP)."""
    bow = {"name": "the bow", "kind": "woods", "outline": [[0, 0], [10, 10], [10, 0], [0, 10]]}
    with pytest.raises(ValidationError, match="not a simple polygon"):
        AmbushFireScenario.model_validate({**SCENARIO, "terrain": [bow]})


# --- strings and numbers (finding 6) ----------------------------------------------------------


def _set_up() -> Game:
    game = Game.create(TABLE, seed=3)
    places = [{"unit": "pak", "at": [40, 12]}, {"unit": "grenadiers", "at": [40, 32.8]}]
    game.command(GERMANS, {"type": "conceal", "units": places})
    return game


@pytest.mark.parametrize(
    "trigger",
    [
        {"within": 100, "target_class": "x" * (4 << 20)},  # 8 of these made a 33.5 MB view
        {"within": 100, "target_class": "tank"},  # not a class of the scenario's units
        {"within": 100, "target_class": ""},
    ],
)
def test_a_standing_order_at_a_class_that_is_no_unit_class_is_refused(
    trigger: dict[str, Any],
) -> None:
    game = _set_up()
    order = {"unit": "pak", "reaction": "ambush", "chance": 50}
    refusal = refused(game, GERMANS, {"type": "ready", "orders": [{**order, "trigger": trigger}]})
    assert (refusal.code, refusal.field) == ("malformed_command", "orders.0.trigger.target_class")
    vehicles = {**order, "trigger": {**trigger, "target_class": "vehicle"}}
    game.command(GERMANS, {"type": "ready", "orders": [vehicles]})


@pytest.mark.parametrize(
    ("command", "field"),
    [
        ({"type": "ready", "orders": [{"unit": "p" * 65, "reaction": "ambush", "chance": 5}]},
         "orders.0.unit"),
        ({"type": "conceal", "units": [{"unit": "p" * 10_000, "at": [1, 1]}]}, "units.0.unit"),
        ({"type": "ready", "orders": [{"unit": "pak", "reaction": "ambush", "chance": 5,
          "trigger": {}, "note": "n" * 201}]}, "orders.0.note"),
    ],
)  # fmt: skip
def test_every_name_and_note_in_a_command_has_a_length(command: dict[str, Any], field: str) -> None:
    refusal = refused(_set_up(), GERMANS, command)
    assert (refusal.code, refusal.field) == ("malformed_command", field)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"running": {"open": math.nan}}, "finite number"),
        ({"running": {"open": math.inf}}, "finite number"),
        ({"running": {"open": -1}}, "greater than or equal to 0"),
        ({"running": {"open": 100, "w" * 31: 50}}, "at most 30 characters"),
        ({"running": {"open": 100, **{f"k{i}": 50 for i in range(16)}}}, "at most 16 items"),
        ({"column": "c" * 61}, "at most 60 characters"),
        ({"at": [math.nan, 10]}, "off the ground|finite number"),
    ],
)
def test_every_string_and_number_of_a_unit_in_the_scenario_is_bounded(
    change: dict[str, Any], said: str
) -> None:
    units = [{**u, **change} if u["key"] == "t34_1" else u for u in SCENARIO["units"]]
    with pytest.raises(ValidationError, match=said):
        AmbushFireScenario.model_validate({**SCENARIO, "units": units})
