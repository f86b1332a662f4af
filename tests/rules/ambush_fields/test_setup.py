"""Setting up ambush-fields: at a physical table the players deploy their ships by typing
each one's hex; ghillie takes the fleets onto the board when both sides are ready — a ship
inside one of its side's fields hidden, every other one identified where it was put."""

from __future__ import annotations

import re
from typing import Any

import pytest

from ghillie import Game, Refusal, examples

from .test_game import said

CYLONS, COLONIALS = "cylons", "colonials"

# The table example leaves every starting hex to the players. The veil (radius 3) is
# centred on the basestar, the shroud (radius 2) on the scout Watcher.
CYLON_SETUP = [
    {"ship": "basestar", "at": "2010"},
    {"ship": "watcher", "at": "3008", "heading": "D"},
    {"ship": "cl", "at": "2011"},  # 1 hex from the basestar: in the veil
    {"ship": "raiders", "at": "2907"},  # 1 hex from Watcher: in the shroud
    {"ship": "heavy-raider", "at": "0505"},  # in no field
]
COLONIAL_SETUP = [
    {"ship": "pegasus", "at": "2028"},
    {"ship": "raptor", "at": "1827"},
    {"ship": "vipers", "at": "2127"},
    {"ship": "colonial-one", "at": "2029"},
]


def table_game() -> Game:
    return Game.create(examples.load("ambush-fields-table"), seed=3)


def deployed() -> Game:
    game = table_game()
    game.command(CYLONS, {"type": "deploy", "ships": CYLON_SETUP})
    game.command(COLONIALS, {"type": "deploy", "ships": COLONIAL_SETUP})
    return game


def known(game: Game, side: str) -> dict[str, dict[str, Any]]:
    """The enemy ships the side knows, by name (or by id if not identified)."""
    return {
        (p.get("facts") or {}).get("name", p["id"]): p
        for p in game.view(side)["known"]
        if p["kind"] == "ship"
    }


@pytest.mark.spec("BSG-R05")
def test_bsg_r05_deployed_ships_in_a_friendly_field_start_hidden_the_rest_identified() -> None:
    game = deployed()
    for side in (CYLONS, COLONIALS):
        game.command(side, {"type": "ready"})
    seen = known(game, COLONIALS)
    assert set(seen) == {"Heavy raider"}
    assert seen["Heavy raider"]["public"]["at"] == "0505"
    assert seen["Heavy raider"]["level"] == "identified"
    assert game.view(COLONIALS)["board"]["fields"] == []
    # The Cylons see the whole Colonial fleet where it was put: no Colonial field.
    cylons_see = known(game, CYLONS)
    assert {n: p["public"]["at"] for n, p in cylons_see.items()} == {
        "Pegasus": "2028",
        "Raptor 718": "1827",
        "Viper flight": "2127",
        "Colonial One": "2029",
    }
    # ghillie holds the hidden ones and knows which field each is in.
    own = {p["secret"]["key"]: p for p in game.view(CYLONS)["pieces"] if p["kind"] == "ship"}
    fields = {
        p["id"]: p["secret"]["key"] for p in game.view(CYLONS)["pieces"] if p["kind"] == "field"
    }
    in_fields = {k: [fields[f] for f in p["secret"].get("in_fields", [])] for k, p in own.items()}
    assert in_fields == {
        "basestar": ["veil"],
        "watcher": ["shroud"],
        "cl": ["veil"],
        "raiders": ["shroud"],
        "heavy-raider": [],
    }


def test_a_deployment_is_secret_until_both_sides_are_ready() -> None:
    game = deployed()
    game.command(CYLONS, {"type": "ready"})
    assert known(game, COLONIALS) == {}
    assert known(game, CYLONS) == {}
    text = str(game.view(COLONIALS))
    for placement in CYLON_SETUP:  # a hex label never stands alone (hashes aside)
        assert not re.search(f"(?<![0-9a-f]){placement['at']}(?![0-9a-f])", text)


def test_ready_waits_until_every_ship_has_a_hex() -> None:
    game = table_game()
    game.command(CYLONS, {"type": "deploy", "ships": CYLON_SETUP[:2]})
    before = game.state
    with pytest.raises(Refusal) as refused:
        game.command(CYLONS, {"type": "ready"})
    assert refused.value.code == "not_now"
    assert "3 have no hex" in refused.value.detail
    assert game.state == before
    game.command(CYLONS, {"type": "deploy", "ships": CYLON_SETUP[2:]})
    game.command(CYLONS, {"type": "ready"})
    assert CYLONS in game.view(CYLONS)["board"]["ready"]


def test_a_ship_deployed_again_starts_at_the_later_hex() -> None:
    game = deployed()
    game.command(CYLONS, {"type": "deploy", "ships": [{"ship": "heavy-raider", "at": "0606"}]})
    for side in (CYLONS, COLONIALS):
        game.command(side, {"type": "ready"})
    assert known(game, COLONIALS)["Heavy raider"]["public"]["at"] == "0606"


@pytest.mark.parametrize(
    ("game", "side", "placement", "code"),
    [
        (table_game, CYLONS, {"ship": "basestar", "at": "4301"}, "off_map"),
        (table_game, CYLONS, {"ship": "pegasus", "at": "1010"}, "unknown_piece"),
        # The bundled map example sets every ship's hex itself.
        (
            lambda: Game.create(examples.load("ambush-fields"), seed=3),
            CYLONS,
            {"ship": "basestar", "at": "1010"},
            "not_now",
        ),
    ],
)
def test_a_bad_deployment_is_refused_and_changes_nothing(
    game: Any, side: str, placement: dict[str, str], code: str
) -> None:
    played = game()
    before = played.state
    with pytest.raises(Refusal) as refused:
        played.command(side, {"type": "deploy", "ships": [placement]})
    assert refused.value.code == code
    assert played.state == before


def test_deployment_ends_when_the_side_is_ready() -> None:
    game = deployed()
    game.command(CYLONS, {"type": "ready"})
    with pytest.raises(Refusal) as refused:
        game.command(CYLONS, {"type": "deploy", "ships": CYLON_SETUP[:1]})
    assert refused.value.code == "not_your_turn"


def test_in_the_map_example_the_fleets_appear_when_both_sides_are_ready() -> None:
    game = Game.create(examples.load("ambush-fields"), seed=3)
    assert known(game, COLONIALS) == {}
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    # The picket boat at 0310 is in no field; the basestar's fleet is in the veil.
    assert set(known(game, COLONIALS)) == {"Picket boat"}


# --- ending before play begins (issue 10) -------------------------------------------------


def test_ending_before_play_needs_both_sides_and_shows_nothing_until_then() -> None:
    # Ending publishes the record, every secret in it: a side that could end the game at
    # once after the other deployed would read the hidden deployment.
    game = deployed()
    asked = game.command(CYLONS, {"type": "end_game"})
    assert game.state.phase.value == "setup"
    assert "Cylons ask to end the game before it begins" in said(asked.told[COLONIALS][0])
    assert "It ends once Colonial fleet ask too" in said(asked.told[CYLONS][0])
    assert said(asked.told["spectator"][0]) == "Cylons ask to end the game before it begins."
    assert game.view(CYLONS)["board"]["ending"] == [CYLONS]
    assert known(game, CYLONS) == {}
    text = str(game.view(CYLONS))
    for placement in COLONIAL_SETUP:  # a hex label never stands alone (hashes aside)
        assert not re.search(f"(?<![0-9a-f]){placement['at']}(?![0-9a-f])", text)
    with pytest.raises(Refusal) as again:  # asking twice changes nothing
        game.command(CYLONS, {"type": "end_game"})
    assert again.value.code == "not_your_turn"
    # The other side may still play on: the wish to end does not stop the set-up.
    game.command(COLONIALS, {"type": "ready"})
    game.command(COLONIALS, {"type": "end_game"})
    assert game.state.phase.value == "over"


def test_in_play_either_side_ends_the_game_alone() -> None:
    game = deployed()
    for side in (CYLONS, COLONIALS):
        game.command(side, {"type": "ready"})
    game.command(COLONIALS, {"type": "end_game"})
    assert game.state.phase.value == "over"
