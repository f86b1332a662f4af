"""ambush-fields in the players' words: every order and field described, choosers that name
only what the side can see, ships and fields as each reader knows them, and where the game
stands."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.dice.source import ScriptedDice
from ghillie.state import REFEREE, SPECTATOR
from tests.rules.words_check import check_words

from .test_game import COLONIALS, CYLONS, end_movement, scenario, started, to_movement


def test_every_command_and_field_is_in_players_words() -> None:
    check_words("ambush-fields")


def offer(game: Game, side: str, name: str) -> dict[str, Any]:
    return next(c for c in game.view(side)["commands"] if c["type"] == name)


def offered(game: Game, side: str) -> list[str]:
    return [c["type"] for c in game.view(side)["commands"]]


def labels(game: Game, side: str, name: str, path: str) -> list[str]:
    return [c["label"] for c in offer(game, side, name)["choices"][path]]


def words(game: Game, observer: str, name: str) -> dict[str, Any]:
    view = game.view(observer)
    return next(p for p in [*view.get("pieces", []), *view.get("known", [])] if p["name"] == name)


def piece_id(game: Game, key: str) -> str:
    return next(p.id for p in game.state.pieces.values() if p.secret.get("key") == key)


def located(extra: bool = False) -> Game:
    """Galactica's scan locates the field (dice 1, 1): the basestar and Eye are counters."""
    data = scenario()
    if extra:
        data["ships"].append(
            {"key": "raptor", "side": COLONIALS, "name": "Raptor", "class": "scout", "at": "1018"}
        )
    game = Game.create(data, seed=1, dice=ScriptedDice([1, 1, 1, 1]))
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    to_movement(game)
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    end_movement(game)
    return game


# --- what is offered ------------------------------------------------------------------------


def test_a_plot_starts_each_ship_from_where_it_stands() -> None:
    game = started()
    to_movement(game)
    choices = offer(game, CYLONS, "plot")["choices"]["moves.ship"]
    basestar = next(c for c in choices if c["label"] == "Basestar")
    assert basestar["value"] == piece_id(game, "basestar")
    assert basestar["fills"] == {"to": "1010", "heading": "A"}


def test_headings_and_hexes_are_asked_in_players_words() -> None:
    from ghillie import forms, registry
    from ghillie.words import speaker

    described = forms.describe(registry.get("ambush-fields"), speaker("ambush-fields"))
    fields = described["plot"]["fields"]
    assert fields["moves.to"]["kind"] == "place"
    assert fields["moves.to"]["where"] == "hex"
    assert fields["moves.heading"]["options"][0] == {"value": "A", "label": "A (up the map)"}
    assert fields["moves.speed"]["unit"] == "hexes per turn"
    assert described["end_game"]["anytime"] is True
    assert described["hide"]["anytime"] is True


def test_commands_that_cannot_apply_now_are_not_offered() -> None:
    game = started()
    # Initiative: the Cylons may drop their field; the Colonials have none to drop.
    assert "drop_field" in offered(game, CYLONS)
    assert "drop_field" not in offered(game, COLONIALS)
    to_movement(game)
    # No fighters aboard anywhere, no fugitive: nothing to launch, recover or hide.
    for side in (CYLONS, COLONIALS):
        assert not {"launch", "recover", "hide"} & set(offered(game, side))
    end_movement(game)
    # Combat: the Colonials see no enemy ship, so they have nothing to fire at or identify;
    # the Cylons see Galactica.
    assert "fire" not in offered(game, COLONIALS)
    assert "identify" not in offered(game, COLONIALS)
    assert labels(game, CYLONS, "fire", "target") == ["Galactica"]
    assert labels(game, CYLONS, "assign_ew", "scout") == ["Eye (6 scout points left)"]


def test_a_detected_enemy_is_offered_as_the_counter_at_its_hex() -> None:
    game = located(extra=True)
    assert labels(game, COLONIALS, "fire", "target") == [
        "the ship counter at hex 1010",
        "the ship counter at hex 1112",
    ]
    assert labels(game, COLONIALS, "identify", "target") == labels(
        game, COLONIALS, "fire", "target"
    )
    assert labels(game, COLONIALS, "mass_identify", "field") == [
        "the ambush field of Cylons around hex 1010"
    ]
    field = next(p.id for p in game.state.pieces.values() if p.kind == "field")
    assert [c["value"] for c in offer(game, COLONIALS, "mass_identify")["choices"]["field"]] == [
        field
    ]


def test_a_field_is_dropped_by_its_id_as_offered_or_by_its_key() -> None:
    game = started()
    (choice,) = offer(game, CYLONS, "drop_field")["choices"]["field"]
    field = next(p.id for p in game.state.pieces.values() if p.kind == "field")
    assert choice == {"value": field, "label": "your field veil (Basestar)"}
    game.command(CYLONS, {"type": "drop_field", "field": field})
    assert game.state.pieces[field].secret["active"] is False
    other = started()
    other.command(CYLONS, {"type": "drop_field", "field": "veil"})  # the old way still works
    with pytest.raises(Refusal) as refused:
        other.command(COLONIALS, {"type": "drop_field", "field": field})
    assert refused.value.code == "unknown_piece"


def test_choosers_name_only_the_sides_own_ships_and_what_it_has_seen() -> None:
    game = located(extra=True)
    for side in (CYLONS, COLONIALS):
        for command in game.view(side)["commands"]:
            for path, choices in command.get("choices", {}).items():
                for choice in choices:
                    piece = game.state.pieces[choice["value"]]
                    assert piece.owner == side or game.state.can_see(side, piece.id), (
                        command["type"],
                        path,
                    )


# --- ships and fields in words --------------------------------------------------------------


def test_a_hidden_ship_says_where_it_hides_to_its_owner_only() -> None:
    game = started()
    for observer in (CYLONS, REFEREE):
        about = words(game, observer, "Eye")["about"]
        assert "at hex 1112" in about
        assert "hidden in your field veil (Basestar)" in about or observer == REFEREE
    for observer in (COLONIALS, SPECTATOR):
        assert "Eye" not in json.dumps(game.view(observer))


def test_an_own_ship_says_what_the_enemy_sees_of_it() -> None:
    game = located()
    about = words(game, CYLONS, "Basestar")["about"]
    assert "detected: the enemy sees a face-down counter" in about
    assert "located by the enemy" in words(game, CYLONS, "Your field veil (Basestar)")["about"]
    assert "identified by the enemy" in words(game, COLONIALS, "Galactica")["about"]


def test_an_enemy_counter_shows_its_category_and_hex_and_nothing_more() -> None:
    game = located()
    counter = words(game, COLONIALS, "The ship counter at hex 1010")
    assert counter["about"].startswith("a face-down counter: a ship, nothing more")
    assert "Basestar" not in json.dumps(game.view(COLONIALS))
    field = words(game, COLONIALS, "The ambush field of Cylons around hex 1010")
    assert field["about"] == "radius 3, rating 2 · located: always on your board"


def test_a_spectator_is_told_no_secret() -> None:
    game = located()
    seen = json.dumps(game.view(SPECTATOR))
    for secret in ("Basestar", "veil", "Eye", "Galactica", "rating 2"):
        assert secret not in seen


# --- where the game stands ------------------------------------------------------------------


def test_status_through_a_turn() -> None:
    game = Game.create(scenario(), seed=1)
    assert game.view(CYLONS)["status"] == [
        "Setting up.",
        "Say you are ready when your fleet is set up.",
    ]
    game.command(CYLONS, {"type": "ready"})
    assert game.view(COLONIALS)["status"][0] == "Setting up. Ready: Cylons."
    game.command(COLONIALS, {"type": "ready"})
    assert game.view(CYLONS)["status"] == [
        "Turn 1 — Initiative Phase: you may drop a field now, then end the phase."
    ]
    assert game.view(COLONIALS)["status"] == [
        "Turn 1 — Initiative Phase: nothing to do but end the phase."
    ]
    game.command(CYLONS, {"type": "end_phase"})
    assert game.view(CYLONS)["status"] == [
        "Turn 1 — Initiative Phase.",
        "You are done with this phase; waiting for Colonials.",
    ]
    assert game.view(SPECTATOR)["status"] == [
        "Turn 1 — Initiative Phase.",
        "Done with this phase: Cylons.",
    ]
    game.command(COLONIALS, {"type": "end_phase"})
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    assert game.view(COLONIALS)["status"][1:] == ["Scanning this turn: Galactica."]


def test_status_names_the_partial_information_a_side_holds_and_its_owner_is_not_told() -> None:
    game = Game.create(scenario(), seed=1, dice=ScriptedDice([2, 2]))  # fails by one
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    to_movement(game)
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    end_movement(game)
    status = game.view(COLONIALS)["status"]
    assert status[-2:] == [
        "Partial information on enemy ambush fields (-1 on your later rolls against the field "
        "concerned):",
        "turn 1: Galactica at hex 1020 had a field in its F arc, base number 4.",
    ]
    # Which ships scanned, and so that one gained it, is the Colonials' secret (BSG-A06).
    assert not any("partial" in line for line in game.view(CYLONS)["status"])


def test_status_after_the_game_is_over_names_no_turn() -> None:
    game = started()
    game.command(COLONIALS, {"type": "end_game"})
    for observer in (CYLONS, COLONIALS, SPECTATOR, REFEREE):
        view = game.view(observer)
        assert view["status"] == ["The game is over."], observer
        assert view.get("commands", []) == []
