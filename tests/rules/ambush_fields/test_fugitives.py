"""Fugitive ships: identified when they enter their own field, hidden once every pursuer has
left the board (RULES-SPEC BSG-R27, BSG-A19).

The map is 42 × 30. The basestar at 1010 generates a radius-3, rating-2 field, the scout
Eye hides in it at 1112, and a Cylon frigate is in the open at 1015, identified. Galactica
waits on the bottom edge at 1030 with a Viper flight aboard; Raptor 312 is off in a corner.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, Refusal, registry

from . import turns
from .turns import both_end_phase

CYLONS, COLONIALS = "cylons", "colonials"


def scenario() -> dict[str, Any]:
    return {
        "ruleset": "ambush-fields",
        "title": "Ragnar anchorage",
        "mode": "map",
        "sides": [{"id": CYLONS, "name": "Cylons"}, {"id": COLONIALS, "name": "Colonials"}],
        "map": {"columns": 42, "rows": 30},
        "ships": [
            {"key": "basestar", "side": CYLONS, "name": "Basestar", "at": "1010"},
            {"key": "eye", "side": CYLONS, "name": "Eye", "class": "scout", "at": "1112"},
            {"key": "frigate", "side": CYLONS, "name": "Frigate", "at": "1015"},
            {
                "key": "galactica",
                "side": COLONIALS,
                "name": "Galactica",
                "flag": True,
                "at": "1030",
                "fighters": {"flights": 1, "name": "Viper flight"},
            },
        ],
        "fields": [{"key": "veil", "controller": "basestar", "radius": 3, "rating": 2}],
    }


def at_movement(data: dict[str, Any] | None = None, dice: list[int] | None = None) -> Game:
    return turns.at_movement(data or scenario(), dice)


def plot(game: Game, side: str, *moves: dict[str, Any]) -> None:
    game.command(side, {"type": "plot", "moves": list(moves)})


def frigate(game: Game) -> dict[str, Any]:
    return next(p for p in game.view(CYLONS)["pieces"] if p["secret"].get("key") == "frigate")


def names(game: Game, side: str) -> list[str]:
    known = [k for k in game.view(side)["known"] if k["kind"] == "ship"]
    return sorted(str(k["facts"].get("name", k["public"]["category"])) for k in known)


def texts(game: Game, side: str, *events: str) -> list[str]:
    return [
        said["text"]
        for entry in game.view(side)["log"]
        for line, said in zip(entry["lines"], entry["said"], strict=True)
        if line.get("event") in events
    ]


def refused(game: Game, side: str, command: dict[str, Any]) -> str:
    with pytest.raises(Refusal) as refusal:
        game.command(side, command)
    return refusal.value.code


def run_in(game: Game) -> None:
    """The frigate runs into its field (1012) in this Movement Phase, which then ends."""
    plot(game, CYLONS, {"ship": "frigate", "to": "1012", "heading": "A", "speed": 3})
    both_end_phase(game)


def next_movement(game: Game) -> None:
    both_end_phase(game)
    both_end_phase(game)
    assert game.view(CYLONS)["board"]["step"] == "movement"


@pytest.mark.spec("BSG-A19", "BSG-R27")
def test_a_fugitive_hides_once_its_pursuers_have_left_and_stays_hidden_when_they_return() -> None:
    game = at_movement()
    run_in(game)
    galactica = next(p.id for p in game.state.pieces.values() if p.secret.get("key") == "galactica")
    assert frigate(game)["secret"]["pursuers"] == [galactica]
    assert names(game, COLONIALS) == ["Frigate"]  # R27: it cannot hide yet
    assert texts(game, CYLONS, "fugitive") == [
        "Frigate is in your field and has its protection, but the enemy has its signature: it "
        "stays identified until the enemy ship now on the board has left it."
    ]
    assert refused(game, CYLONS, {"type": "hide", "ship": "frigate"}) == "still_pursued"
    next_movement(game)
    plot(game, COLONIALS, {"ship": "galactica", "to": "1030", "leave": True})
    both_end_phase(game)
    assert frigate(game)["secret"]["pursuers"] == []
    assert texts(game, CYLONS, "pursuit_lost") == [
        "Frigate has shaken off its pursuers: it may hide while it stays in the field."
    ]
    assert names(game, COLONIALS) == ["Frigate"]  # still identified until it hides
    old = frigate(game)["id"]
    game.command(CYLONS, {"type": "hide", "ship": "frigate"})  # the Combat Phase
    new = frigate(game)
    assert new["id"] != old
    assert "pursuers" not in new["secret"]
    assert new["public"]["at"] == "1012"
    assert new["secret"]["in_fields"]
    assert names(game, COLONIALS) == []
    assert texts(game, COLONIALS, "trail_lost") == ["Frigate goes dark: its trail is lost."]
    assert texts(game, CYLONS, "hidden") == [
        "Frigate goes dark in the field and hides: the enemy loses its trail."
    ]
    next_movement(game)
    plot(game, COLONIALS, {"ship": "galactica", "to": "1030", "speed": 1})  # she returns
    both_end_phase(game)
    assert names(game, COLONIALS) == []  # it stays hidden (A19)
    assert new["id"] not in json.dumps(game.view(COLONIALS))


@pytest.mark.spec("BSG-A19")
def test_pursuers_are_the_enemy_ships_on_the_board_when_it_entered_and_newcomers_are_not() -> None:
    game = at_movement()
    game.command(COLONIALS, {"type": "launch", "carrier": "galactica"})  # a Viper flight out
    run_in(game)
    assert len(frigate(game)["secret"]["pursuers"]) == 2  # Galactica and the Viper flight
    next_movement(game)
    # The Viper flight lands (a recovered flight is off the board) and Galactica leaves,
    # launching it again first: the new counter is no pursuer.
    viper = next(
        p["id"] for p in game.view(COLONIALS)["pieces"] if p["secret"]["key"].endswith("-1")
    )
    game.command(COLONIALS, {"type": "recover", "flight": viper, "carrier": "galactica"})
    game.command(COLONIALS, {"type": "launch", "carrier": "galactica"})
    plot(game, COLONIALS, {"ship": "galactica", "to": "1030", "leave": True})
    both_end_phase(game)
    assert frigate(game)["secret"]["pursuers"] == []
    assert "Viper flight 1" in names(game, CYLONS)


@pytest.mark.spec("BSG-A19", "BSG-R05")
def test_pursuers_are_only_the_counters_the_fugitives_side_sees() -> None:
    # A hidden enemy is no counter on the Cylons' board: the Colonials' own field hides the
    # Raptor, and it is not among the frigate's pursuers.
    data = scenario()
    data["ships"].append(
        {"key": "raptor", "side": COLONIALS, "name": "Raptor", "class": "scout", "at": "3525"}
    )
    data["fields"].append({"key": "blind", "controller": "raptor", "radius": 1, "rating": 1})
    game = at_movement(data)
    run_in(game)
    galactica = next(p.id for p in game.state.pieces.values() if p.secret.get("key") == "galactica")
    assert frigate(game)["secret"]["pursuers"] == [galactica]


@pytest.mark.spec("BSG-R27", "BSG-A17")
def test_a_ship_identified_inside_its_field_is_no_fugitive_and_never_hides() -> None:
    # Galactica moves into the field: everything in it is identified (R26); she then leaves
    # the board, but the basestar was identified in the field, not on entering it.
    game = at_movement()
    plot(game, COLONIALS, {"ship": "galactica", "to": "1013", "speed": 9})
    both_end_phase(game)
    assert names(game, COLONIALS) == ["Basestar", "Eye", "Frigate"]
    next_movement(game)
    plot(game, COLONIALS, {"ship": "galactica", "to": "1030", "leave": True, "speed": 9})
    both_end_phase(game)
    ruleset = registry.get("ambush-fields")
    assert not [c for c in ruleset.candidates(game.state, CYLONS) if c["type"] == "hide"]
    assert refused(game, CYLONS, {"type": "hide", "ship": "basestar"}) == "still_pursued"


@pytest.mark.spec("BSG-A19", "BSG-R27")
def test_leaving_the_field_ends_the_pursuit_and_entering_again_starts_a_new_one() -> None:
    game = at_movement()
    run_in(game)
    next_movement(game)
    plot(game, CYLONS, {"ship": "frigate", "to": "1016", "speed": 4})
    both_end_phase(game)
    assert "pursuers" not in frigate(game)["secret"]
    next_movement(game)
    plot(game, COLONIALS, {"ship": "galactica", "to": "1030", "leave": True})
    run_in(game)
    # Nobody was on the Cylons' board when it entered again: it may hide at once.
    assert frigate(game)["secret"]["pursuers"] == []
    assert texts(game, CYLONS, "pursuit_lost")
    ruleset = registry.get("ambush-fields")
    hides = [c for c in ruleset.candidates(game.state, CYLONS) if c["type"] == "hide"]
    assert len(hides) == 1  # random games offer it
    game.command(CYLONS, hides[0])
    assert names(game, COLONIALS) == []


@pytest.mark.spec("BSG-A19", "BSG-R17")
def test_a_fugitive_hiding_in_a_located_field_leaves_only_a_face_down_counter() -> None:
    # Turn 1: the frigate runs in, and Galactica locates the field 17 hexes off (N = 2):
    # dice 1 + 1, + 2 (rating) − 1 (flag) − 1 (the basestar moves at speed 1) = 2.
    game = at_movement(dice=[1, 1])
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    plot(
        game,
        CYLONS,
        {"ship": "frigate", "to": "1012", "speed": 3},
        {"ship": "basestar", "to": "1011", "heading": "D", "speed": 1},
    )
    both_end_phase(game)
    assert len(game.view(COLONIALS)["board"]["fields"]) == 1
    next_movement(game)
    plot(game, COLONIALS, {"ship": "galactica", "to": "1030", "leave": True})
    both_end_phase(game)
    game.command(CYLONS, {"type": "hide", "ship": "frigate"})
    assert names(game, COLONIALS) == ["ship", "ship", "ship"]  # R17: all detected, unnamed
    assert "Frigate" not in json.dumps(list(game.view(COLONIALS)["known"]))


def test_hiding_is_refused_outside_a_field_and_keeps_the_bound_on_secrets() -> None:
    game = at_movement()
    run_in(game)
    next_movement(game)
    plot(game, COLONIALS, {"ship": "galactica", "to": "1030", "leave": True})
    both_end_phase(game)
    assert frigate(game)["secret"]["pursuers"] == []
    both_end_phase(game)  # turn 3: the field is dropped before the frigate hides
    game.command(CYLONS, {"type": "drop_field", "field": "veil"})
    assert refused(game, CYLONS, {"type": "hide", "ship": "frigate"}) == "not_in_a_field"
    bound = registry.get("ambush-fields").secret_facts(game.scenario)
    assert all(len(r.slots) <= bound for r in game.ledger.rosters.values())
