"""RULES-SPEC §5.1, the Sensor line: "Enemies with Camouflage cannot regain the Camouflaged
State inside that ZoC" (8"). Only a Sensor its side can know of counts, as INF-A02 settles for
line of fire: a refusal never depends on what a marker hides."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game
from ghillie.view import view

from .helpers import NOMADS, PANO, aros, end_turn, last_said, marker_of, order, pid, refused, second
from .test_state import with_trooper

GO_BACK = {"skill": "camouflage", "unseen": True}


def caliban_revealed_at(place: list[float], name: str = "camouflage", **croc: Any) -> Game:
    """The Seraph (Sensor, a model at (34, 44) on the map) watches; the Caliban's marker is
    laid at ``place`` and the Caliban reveals itself there with a Look Out!: a model, in its
    own Player Turn, ready to go back into the state. ``croc`` changes the Croc Man."""
    data = with_trooper(name, key="seraph", sensor=True)
    if croc:
        data["troopers"] = [
            {**t, **croc} if t["key"] == "croc_man" else t for t in data["troopers"]
        ]
    game = Game.create(data, seed=8)
    map_mode = name == "camouflage"
    places = {"caliban": place, "zondbot": [4, 4], "mine": [44, 4]}
    game.command(
        NOMADS,
        {
            "type": "deploy",
            "markers": [
                {"piece": k, **({"at": xy} if map_mode else {})} for k, xy in places.items()
            ],
        },
    )
    hidden = [] if croc.get("as_model") else [{"piece": "croc_man"}]
    if map_mode:
        hidden = [{**h, "at": [4, 44]} for h in hidden]
    game.command(PANO, {"type": "deploy", "markers": hidden})
    order(game, NOMADS, marker_of(game, "caliban"), {"skill": "look_out"})
    aros(game, PANO)
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    return game


def go_back(game: Game, **more: Any) -> dict[str, Any]:
    return {"type": "first_skill", "piece": pid(game, "caliban"), "skill": {**GO_BACK, **more}}


@pytest.mark.spec("INF-R02")
@pytest.mark.spec("INF-A08")
def test_sensor_zone_on_the_map_no_going_back_within_8_inches() -> None:
    for place in ([30, 40], [34, 36]):  # 5.7" and exactly 8" from the Seraph
        game = caliban_revealed_at(place)
        refusal = refused(game, NOMADS, go_back(game))
        assert refusal.code == "in_sensor_zone"
        assert "Sensor" in refusal.detail
        assert "8 inches" in refusal.detail
    game = caliban_revealed_at([34, 35.9])  # 8.1" away: it goes back
    order(game, NOMADS, pid(game, "caliban"), GO_BACK)
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    assert game.state.pieces[pid(game, "caliban")].public["state"] == "camouflaged"


@pytest.mark.spec("INF-R02")
@pytest.mark.spec("INF-A12")
@pytest.mark.spec("INF-A02")
def test_sensor_zone_a_sensor_counts_when_its_enemy_knows_where_it_is() -> None:
    """The Croc Man (Sensor, deployed as a model) goes back into the state in view of its
    enemy: with INF-A12 the Nomads know its new marker is the Croc Man, whose Sensor keeps
    working under it (INF-R07), so the Caliban 5" away cannot go back.

    A Sensor its enemy cannot know of does not count, as INF-A02 settles for line of fire:
    the Croc Man has Sensor and waits under its marker 2" from the Caliban, and which marker
    is the Croc Man is PanOceania's secret (refusing would tell it). So the Caliban goes
    back, and the Nomads read the same as with a Croc Man without Sensor."""
    game = caliban_revealed_at([6, 40], sensor=True, as_model=True, at=[6, 45])
    end_turn(game, NOMADS)
    order(game, PANO, pid(game, "croc_man"), GO_BACK)
    aros(game, NOMADS)
    game.command(PANO, {"type": "resolve_order"})
    end_turn(game, PANO)
    assert refused(game, NOMADS, go_back(game)).code == "in_sensor_zone"
    read = []
    for sensor in (True, False):
        game = caliban_revealed_at([6, 44], sensor=sensor)
        order(game, NOMADS, pid(game, "caliban"), GO_BACK)
        aros(game, PANO)
        game.command(NOMADS, {"type": "resolve_order"})
        assert game.state.pieces[pid(game, "caliban")].public["state"] == "camouflaged"
        read.append([entry["said"] for entry in view(game, NOMADS)["log"]])
    assert read[0] == read[1]


@pytest.mark.spec("INF-R02")
@pytest.mark.spec("INF-A08")
def test_sensor_zone_at_the_table_the_side_confirms_it_is_outside_every_enemy_sensors_zone() -> (
    None
):
    """At a real table the players measure: with an enemy Sensor on the table the side
    confirms the trooper is not within 8" of it (``outside_sensor``); the confirmation is
    asked only when the enemy has a Sensor its side knows of."""
    game = caliban_revealed_at([0, 0], name="camouflage-table")
    refusal = refused(game, NOMADS, go_back(game))
    assert (refusal.code, refusal.field) == ("in_sensor_zone", "skill.outside_sensor")
    order(game, NOMADS, pid(game, "caliban"), {**GO_BACK, "outside_sensor": True})
    assert "Caliban declares Camouflage" in " ".join(last_said(game, PANO))
