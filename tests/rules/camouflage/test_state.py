"""Entering the state, what a marker shows, and going back into it (RULES-SPEC INF-R01..R08,
INF-A02, A09, A10, A12, INF-T05, T08), and the scenarios the rules refuse."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game, examples
from ghillie.errors import ScenarioError
from ghillie.state import Level
from ghillie.view import view

from .helpers import (
    NOMADS,
    PANO,
    aros,
    deployed,
    end_turn,
    ghillie_rolls,
    last_said,
    marker_of,
    measured,
    order,
    pid,
    refused,
    revealed_caliban,
    said,
    second,
    table_game,
)


def with_trooper(name: str = "camouflage-table", **changes: Any) -> dict[str, Any]:
    """The example with the Caliban changed (or another trooper, by ``key``)."""
    data = examples.data(name)
    key = changes.pop("key", "caliban")
    troopers = [{**t, **changes} if t["key"] == key else t for t in data["troopers"]]
    return {**data, "troopers": troopers}


@pytest.mark.spec("INF-R01")
@pytest.mark.spec("INF-R03")
def test_INF_R01_R03_camouflage_is_automatic_at_deployment_and_a_marker_stands_for_it() -> None:
    game = table_game()
    caliban, moran = pid(game, "caliban"), pid(game, "moran")
    # Before deployment PanOceania knows the Moran (a model on the table) but nothing of the
    # Caliban: its model is not placed (INF-R03).
    assert game.state.known(PANO, moran).level is Level.IDENTIFIED
    assert game.state.known(PANO, caliban).level is Level.UNKNOWN
    # The deployment must give every camouflaged piece its marker.
    short = {"type": "deploy", "markers": [{"piece": "caliban"}]}
    assert refused(game, NOMADS, short).code == "bad_deployment"
    refusal = refused(game, NOMADS, {"type": "deploy", "markers": [{"piece": "moran"}]})
    assert refusal.code == "bad_deployment"
    game = deployed()
    marker = marker_of(game, "caliban")
    assert game.state.known(PANO, marker).level is Level.SUSPECTED
    assert game.state.known(PANO, pid(game, "caliban")).level is Level.UNKNOWN
    assert [k["kind"] for k in view(game, PANO)["known"]].count("marker") == 3


@pytest.mark.spec("INF-R04")
@pytest.mark.spec("INF-A09")
@pytest.mark.spec("INF-R06")
def test_INF_A09_the_enemy_knows_a_markers_position_silhouette_and_mimetism_only() -> None:
    game = deployed()
    marker = marker_of(game, "caliban")
    known = next(k for k in view(game, PANO)["known"] if k["id"] == marker)
    assert set(known["public"]) == {"label", "number", "silhouette", "mimetism"}
    assert known["public"]["mimetism"] == -3  # INF-R04: shown on the marker
    assert known["public"]["silhouette"] == 2
    assert "Caliban" not in str(known)
    assert known["about"] == "Silhouette 2 · Mimetism -3"


@pytest.mark.spec("INF-T08")
@pytest.mark.spec("INF-R06")
def test_INF_T08_silhouette_of_a_marker() -> None:
    data = with_trooper(key="seraph", camouflage=True)  # an S5 trooper with Camouflage
    game = Game.create(data, seed=2)
    game.command(
        NOMADS,
        {"type": "deploy", "markers": [{"piece": k} for k in ("caliban", "zondbot", "mine")]},
    )
    game.command(
        PANO, {"type": "deploy", "markers": [{"piece": k} for k in ("croc_man", "seraph")]}
    )
    shows = {
        game.state.pieces[m].secret["hides"]: game.state.pieces[m].public["silhouette"]
        for m in game.state.pieces
        if game.state.pieces[m].kind == "marker"
    }
    assert shows[pid(game, "mine")] == 2  # a camouflaged item: S2
    assert shows[pid(game, "caliban")] == 2  # an S2 trooper: S2
    assert shows[pid(game, "seraph")] == 5  # an S5 trooper: S5
    # The scenario may not give a camouflaged item another Silhouette.
    with pytest.raises(ScenarioError, match="INF-R06"):
        Game.create(with_trooper(key="mine", silhouette=3), seed=1)


@pytest.mark.spec("INF-R05")
def test_INF_R05_a_marker_sees_all_round() -> None:
    """A marker has 360° LoF: it may react to anything with no facing asked of it, and a
    marker's Order is answered by a Discover from an enemy marker too."""
    game = deployed()
    croc = marker_of(game, "croc_man")
    order(game, NOMADS, marker_of(game, "zondbot"), {"skill": "move"})
    aros(game, PANO, {"piece": croc, "aro": "discover", "measured": measured(12)})
    assert any("declares Discover as its ARO" in line for line in last_said(game, NOMADS))
    marker = game.state.pieces.get(croc)
    assert marker is None or "facing" not in marker.public


@pytest.mark.spec("INF-R07")
def test_INF_R07_automatic_skills_work_under_a_marker() -> None:
    """Mimetism is an Automatic Special Skill: it keeps working while its trooper is under a
    marker (the marker shows it and a Discover applies it), and a camouflaged trooper's
    Multispectral Visor (Automatic Equipment) still applies to the Discover it declares."""
    data = with_trooper(key="croc_man", msv=1)
    game = Game.create(data, seed=4)
    game.command(
        NOMADS,
        {"type": "deploy", "markers": [{"piece": k} for k in ("caliban", "zondbot", "mine")]},
    )
    game.command(PANO, {"type": "deploy", "markers": [{"piece": "croc_man"}]})
    order(game, NOMADS, pid(game, "moran"), {"skill": "move"})
    caliban = marker_of(game, "caliban")
    aros(game, PANO)
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    end_turn(game, NOMADS)
    order(
        game,
        PANO,
        marker_of(game, "croc_man"),
        {"skill": "discover", "target": caliban, "measured": measured(6)},
    )
    aros(game, NOMADS)
    second(game, PANO, {"skill": "idle"})
    aros(game, NOMADS)
    game.command(PANO, {"type": "resolve_order", "rolls": {"dice": [16]}})
    # WIP 13 + 3 (0-8") + 0 (Mimetism -3, cancelled by the visor) = 16: Discovered.
    assert any(
        "Discovers Marker" in line and "needing 16 or less" in line for line in said(game, NOMADS)
    )


@pytest.mark.spec("INF-R02")
@pytest.mark.spec("INF-T05")
@pytest.mark.spec("INF-A02")
def test_INF_T05_going_back_into_the_state() -> None:
    game = revealed_caliban()
    caliban = pid(game, "caliban")
    seen = {"type": "first_skill", "piece": caliban, "skill": {"skill": "camouflage"}}
    assert refused(game, NOMADS, seen).code == "seen_by_enemy"
    # A Long Skill: it has no second skill; the AROs come, then it is rolled.
    order(game, NOMADS, caliban, {"skill": "camouflage", "unseen": True})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    new = game.state.pieces[caliban].public["marker"]
    assert game.state.pieces[new].kind == "marker"
    assert "Caliban goes back into Camouflaged State: Marker 5 replaces the model." in last_said(
        game, PANO
    )


@pytest.mark.spec("INF-R02")
def test_INF_R02_only_a_trooper_with_camouflage_returns_to_the_state() -> None:
    game = deployed()
    moran = {
        "type": "first_skill",
        "piece": pid(game, "moran"),
        "skill": {"skill": "camouflage", "unseen": True},
    }
    assert refused(game, NOMADS, moran).code == "no_camouflage"
    # ... and only in its own Active Turn: PanOceania's turn offers nothing to the Nomads.
    end_turn(game, NOMADS)
    assert refused(game, NOMADS, moran).code == "not_your_turn"


@pytest.mark.spec("INF-T05")
@pytest.mark.spec("INF-R08")
def test_INF_T05_a_fireteam_member_leaves_its_fireteam_when_it_goes_back_into_the_state() -> None:
    data = with_trooper(key="croc_man", as_model=True, fireteam="Fusiliers")
    game = Game.create(data, seed=6)
    game.command(
        NOMADS,
        {"type": "deploy", "markers": [{"piece": k} for k in ("caliban", "zondbot", "mine")]},
    )
    game.command(PANO, {"type": "deploy", "markers": []})
    end_turn(game, NOMADS)
    croc = pid(game, "croc_man")
    assert game.state.pieces[croc].public["fireteam"] == "Fusiliers"
    order(game, PANO, croc, {"skill": "camouflage", "unseen": True})
    aros(game, NOMADS)
    game.command(PANO, {"type": "resolve_order"})
    assert game.state.pieces[croc].public["fireteam"] == ""
    assert "Croc Man is no longer part of Fireteam Fusiliers." in last_said(game, NOMADS)


@pytest.mark.spec("INF-R08")
def test_INF_R08_a_camouflaged_trooper_cannot_start_in_a_fireteam() -> None:
    with pytest.raises(ScenarioError, match="INF-R08"):
        Game.create(with_trooper(fireteam="Nomad link"), seed=1)


@pytest.mark.spec("INF-T04")
@pytest.mark.spec("INF-R10")
def test_INF_T04_a_marker_that_went_back_into_the_state_is_a_new_marker() -> None:
    game = revealed_caliban()
    caliban = pid(game, "caliban")
    order(game, NOMADS, caliban, {"skill": "camouflage", "unseen": True})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    end_turn(game, NOMADS)
    a = pid(game, "fusilier")
    new = marker_of(game, "caliban")
    discover = {"skill": "discover", "target": new, "measured": measured(6)}
    order(game, PANO, a, discover)
    aros(game, NOMADS)
    second(game, PANO, {"skill": "idle"})
    aros(game, NOMADS)
    game.command(PANO, {"type": "resolve_order", "rolls": {"dice": [20]}})
    assert refused(game, PANO, {"type": "first_skill", "piece": a, "skill": discover}).code == (
        "discover_locked"
    )


@pytest.mark.spec("INF-A12")
def test_INF_A12_the_opponent_keeps_what_it_knew_of_a_trooper_that_goes_back() -> None:
    game = revealed_caliban()
    caliban = pid(game, "caliban")
    order(game, NOMADS, caliban, {"skill": "camouflage", "unseen": True})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    marker = marker_of(game, "caliban")
    assert game.state.known(PANO, caliban).level is Level.IDENTIFIED
    assert game.state.known(PANO, marker).facts == {"stands_for": caliban}
    known = next(k for k in view(game, PANO)["known"] if k["id"] == marker)
    assert "Caliban went back under it" in known["about"]


@pytest.mark.spec("INF-A12")
def test_INF_A12_or_an_unknown_marker_with_the_switch_off() -> None:
    game = revealed_caliban(**{"inf.recamo_keeps_identity": False})
    caliban = pid(game, "caliban")
    order(game, NOMADS, caliban, {"skill": "camouflage", "unseen": True})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    assert game.state.known(PANO, caliban).level is Level.UNKNOWN
    assert "A model goes back into Camouflaged State: Marker 5 replaces it." in last_said(
        game, PANO
    )


@pytest.mark.spec("INF-A02")
def test_INF_A02_on_the_map_a_clear_line_warns_instead_of_refusing() -> None:
    game = Game.create(examples.data("camouflage"), seed=3)
    points = {"caliban": [22, 22], "zondbot": [34, 20], "mine": [20, 30]}
    game.command(
        NOMADS,
        {"type": "deploy", "markers": [{"piece": k, "at": at} for k, at in points.items()]},
    )
    game.command(PANO, {"type": "deploy", "markers": [{"piece": "croc_man", "at": [12, 34]}]})
    # The Caliban is revealed by a Look Out!, then goes back into the state with nothing on
    # the flat map between it and the Fusiliers.
    order(game, NOMADS, marker_of(game, "caliban"), {"skill": "look_out"})
    aros(game, PANO)
    second(game, NOMADS, {"skill": "idle"})
    aros(game, PANO)
    game.command(NOMADS, {"type": "resolve_order"})
    order(game, NOMADS, pid(game, "caliban"), {"skill": "camouflage", "unseen": True})
    warning = [line for line in last_said(game, NOMADS) if line.startswith("On the map")]
    assert warning
    assert "Fusilier" in warning[0]
    assert not [line for line in last_said(game, PANO) if line.startswith("On the map")]


@pytest.mark.spec("INF-A10")
def test_INF_A10_hidden_deployment_is_out_of_scope() -> None:
    with pytest.raises(ScenarioError, match="hidden_deployment"):
        Game.create(with_trooper(hidden_deployment=True), seed=1)


@pytest.mark.parametrize(
    ("changes", "said_"),
    [
        ({"mimetism": -4}, "mimetism"),
        ({"side": "aliens"}, "not one of the sides"),
        ({"kind": "equipment", "camouflage": False}, "only when it is camouflaged"),
    ],
)
def test_a_scenario_that_breaks_the_rules_is_refused_with_the_reason(
    changes: dict[str, Any], said_: str
) -> None:
    with pytest.raises(ScenarioError, match=said_):
        Game.create(with_trooper(**changes), seed=1)


def _with_a_sensor(name: str) -> Game:
    game = Game.create(with_trooper(name, key="seraph", sensor=True), seed=8)
    places = {"caliban": [30, 40], "zondbot": [34, 20], "mine": [38, 46]}
    map_mode = name == "camouflage"
    game.command(
        NOMADS,
        {
            "type": "deploy",
            "markers": [
                {"piece": k, **({"at": at} if map_mode else {})} for k, at in places.items()
            ],
        },
    )
    croc = {"piece": "croc_man", **({"at": [12, 34]} if map_mode else {})}
    game.command(PANO, {"type": "deploy", "markers": [croc]})
    end_turn(game, NOMADS)
    return game


@pytest.mark.spec("INF-A08")
def test_INF_A08_sensor_discovers_every_marker_in_its_zone_of_control_at_the_table() -> None:
    game = _with_a_sensor("camouflage-table")
    seraph = pid(game, "seraph")
    zone = [marker_of(game, "caliban"), marker_of(game, "mine")]
    fusilier = {"type": "first_skill", "piece": pid(game, "fusilier"), "skill": {"skill": "sensor"}}
    assert refused(game, PANO, fusilier).code == "no_sensor"
    order(game, PANO, seraph, {"skill": "sensor", "zone": zone})
    aros(game, NOMADS)
    second(game, PANO, {"skill": "idle"})
    aros(game, NOMADS)
    game.command(PANO, {"type": "resolve_order", "rolls": {"dice": [19]}})
    # WIP 13 + 6 = 19, with no Range or Mimetism MOD (the Caliban's -3 does not count).
    lines = last_said(game, NOMADS)
    assert lines[0] == (
        "Seraph's Sensor passes (rolled 19 needing 19 or less): 2 markers in its Zone of "
        "Control are Discovered."
    )
    assert game.state.pieces[pid(game, "caliban")].public["state"] == "model"
    assert game.state.pieces[pid(game, "mine")].public["state"] == "model"
    assert game.state.pieces[pid(game, "zondbot")].public["state"] == "camouflaged"


@pytest.mark.spec("INF-A08")
def test_INF_A08_on_the_map_sensor_finds_the_markers_within_8_inches() -> None:
    game = _with_a_sensor("camouflage")
    seraph = pid(game, "seraph")  # at (34, 44): the Caliban's marker 5.7" away, the mine 4.5"
    zone = {"skill": "sensor", "zone": [marker_of(game, "zondbot")]}
    assert refused(game, PANO, {"type": "first_skill", "piece": seraph, "skill": zone}).code == (
        "measured_by_map"
    )
    order(game, PANO, seraph, {"skill": "sensor"})
    aros(game, NOMADS)
    second(game, PANO, {"skill": "idle"})
    aros(game, NOMADS)
    with ghillie_rolls(game, 2):  # a map game takes no typed dice
        game.command(PANO, {"type": "resolve_order"})
    assert "2 markers in its Zone of Control are Discovered" in last_said(game, NOMADS)[0]
    assert game.state.pieces[pid(game, "zondbot")].public["state"] == "camouflaged"
