"""grid-ambush in the players' words: every order and field described, choosers that name
only what the side can see, units and the state of play as each reader knows them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game
from ghillie.state import REFEREE, SPECTATOR
from tests.rules.words_check import check_words

from .helpers import (
    JUNGLE,
    MARINES,
    TACTICAL_IN_D2,
    both_ready,
    end_phases,
    map_data,
    marines_shooting,
    new_game,
    offered,
    record,
    scan,
    started,
    table_data,
    unit,
)


def test_every_command_and_field_is_in_players_words() -> None:
    check_words("grid-ambush")


def _offer(game: Game, side: str, name: str) -> dict[str, Any]:
    return next(c for c in game.view(side)["commands"] if c["type"] == name)


def _labels(game: Game, side: str, name: str, path: str = "unit") -> list[str]:
    return [c["label"] for c in _offer(game, side, name)["choices"][path]]


def _words(game: Game, observer: str, key: str) -> dict[str, Any]:
    view = game.view(observer)
    return next(
        p for p in [*view.get("pieces", []), *view.get("known", [])] if p["public"]["key"] == key
    )


# --- what is offered ------------------------------------------------------------------------


@pytest.mark.spec("DWV-R06")
def test_reveal_is_offered_only_for_a_unit_in_ambush_at_the_start_of_ones_turn() -> None:
    nobody = started()  # orders written for no unit
    assert "reveal" not in offered(nobody, JUNGLE)
    game = started(graw="D2")
    assert _labels(game, JUNGLE, "reveal") == ["Sgt. Graw's patrol"]
    assert "reveal" not in offered(game, MARINES)
    # Once anything has happened this turn, it is too late until the next one.
    end_phases(game, JUNGLE, 1)
    assert "reveal" not in offered(game, JUNGLE)


def test_record_orders_start_with_a_row_per_unit_that_may_ambush() -> None:
    game = new_game(map_data())
    offer = _offer(game, JUNGLE, "record_ambushes")
    ambushers = [unit(game, "graw").id, unit(game, "marbo").id]
    assert [c["value"] for c in offer["choices"]["orders.unit"]] == ambushers
    assert offer["defaults"] == {"orders": [{"unit": pid} for pid in ambushers]}


def test_a_move_on_the_map_starts_from_where_the_models_stand() -> None:
    game = started(graw="D2")
    end_phases(game, JUNGLE, 3)
    tactical = unit(game, "tactical")
    choice = next(
        c for c in _offer(game, MARINES, "move")["choices"]["unit"] if c["value"] == tactical.id
    )
    assert choice["fills"] == {"models": [m["at"] for m in tactical.public["models"]]}
    # At a real table the models are moved there: nothing to fill in.
    table = started(table_data(), graw="D2")
    end_phases(table, JUNGLE, 3)
    assert all("fills" not in c for c in _offer(table, "orks", "move")["choices"]["unit"])


@pytest.mark.spec("DWV-R07")
def test_scan_is_offered_at_the_start_of_the_shooting_phase_with_the_scanning_model() -> None:
    game = started(graw="D2")
    end_phases(game, JUNGLE, 3)
    assert "scan" not in offered(game, MARINES)  # the Movement phase
    game.command(MARINES, {"type": "move", "unit": "tactical", "models": TACTICAL_IN_D2})
    end_phases(game, MARINES, 1)
    offer = _offer(game, MARINES, "scan")
    tactical = unit(game, "tactical").id
    # The scouts carry no auspex: only the tactical squad's sergeant may scan.
    assert offer["choices"]["unit"] == [
        {"value": tactical, "label": "Tactical squad Arvin", "fills": {"model": 0}}
    ]
    assert offer["choices"]["model"] == [
        {"value": 0, "label": "Sergeant Arvin", "when": {"unit": tactical}}
    ]
    assert offer["defaults"] == {"unit": tactical, "model": 0}
    # Once a unit has fired, the start of the phase is past.
    game.command(MARINES, {"type": "fire", "unit": "scouts", "weapon": "assault"})
    assert "scan" not in offered(game, MARINES)


@pytest.mark.spec("DWV-R07")
def test_a_model_that_scanned_is_not_offered_to_fire() -> None:
    game = started(graw="E2")
    marines_shooting(game)
    scan(game)  # D2 is empty
    # Each unit's models are offered while that unit is chosen, by their own names.
    offer = _offer(game, MARINES, "fire")
    tactical, scouts = unit(game, "tactical").id, unit(game, "scouts").id
    arvin = [c["label"] for c in offer["choices"]["models"] if c["when"]["unit"] == tactical]
    telion = [c["label"] for c in offer["choices"]["models"] if c["when"]["unit"] == scouts]
    assert "Sergeant Arvin" not in arvin  # he scanned: he may not fire this phase
    assert arvin[:2] == ["marine 1", "marine 2"]
    assert telion[0] == "Sergeant Telion"


@pytest.mark.spec("DWV-R08")
def test_set_up_is_offered_with_the_revealed_unit_chosen() -> None:
    game = started(graw="D2")
    game.command(JUNGLE, {"type": "reveal", "unit": "graw"})
    assert offered(game, JUNGLE) == ["set_up"]
    graw = unit(game, "graw").id
    offer = _offer(game, JUNGLE, "set_up")
    assert offer["defaults"] == {"unit": graw, "models": [None] * 10}
    # Casualties are named as the set-up's refusals name them.
    labels = [c["label"] for c in offer["choices"]["casualties"]]
    assert labels[:3] == ["Sgt. Graw", "model 2 (veteran)", "model 3 (veteran)"]
    assert [c["value"] for c in offer["choices"]["casualties"]] == list(range(10))
    assert offered(game, MARINES) == []


def test_ending_the_game_is_offered_to_both_sides_without_waiting_for_either() -> None:
    game = started(graw="D2")
    assert "end_game" in offered(game, MARINES)
    assert game.view(MARINES)["your_move"] is False
    assert game.view(MARINES)["waiting_for"] == [JUNGLE]


# --- choosers name only what the side can see -----------------------------------------------


def _states() -> list[Game]:
    """The same game at the points where choosers matter."""
    setup = new_game(map_data())
    turn = started(graw="D2", marbo="B2")
    shooting = started(graw="D2", marbo="B2")
    marines_shooting(shooting)
    pending = started(graw="D2", marbo="B2")
    marines_shooting(pending)
    scan(pending)
    return [setup, turn, shooting, pending]


def test_choosers_name_only_the_sides_own_units() -> None:
    named = set()
    for game in _states():
        for side in game.state.sides:
            for offer in game.view(side)["commands"]:
                for path, choices in offer.get("choices", {}).items():
                    for choice in choices:
                        value = choice["value"]
                        if isinstance(value, str):
                            assert game.state.pieces[value].owner == side, (offer["type"], path)
                        named.add(offer["type"])
    assert named == {"record_ambushes", "reveal", "move", "scan", "fire", "set_up"}


def _enemy_sees(game: Game, side: str) -> str:
    view = game.view(side)
    shown = {
        "commands": view.get("commands"),
        "status": view["status"],
        "known": [{k: p.get(k) for k in ("name", "about", "details")} for p in view["known"]],
    }
    return json.dumps(shown, sort_keys=True)


@pytest.mark.parametrize("roster_public", [True, False])
def test_the_enemys_offers_status_and_words_do_not_depend_on_the_ambush_squares(
    roster_public: bool,
) -> None:
    worlds = [
        new_game(map_data(roster_public=roster_public)),
        new_game(map_data(roster_public=roster_public)),
    ]
    steps: list[tuple[str, dict[str, Any]]] = [
        (JUNGLE, {"type": "ready"}),
        (MARINES, {"type": "ready"}),
        *[(JUNGLE, {"type": "end_phase"})] * 3,
        (MARINES, {"type": "move", "unit": "tactical", "models": TACTICAL_IN_D2}),
        (MARINES, {"type": "end_phase"}),
    ]
    record(worlds[0], graw="E2", marbo="B2")
    record(worlds[1], graw="A2", marbo="C2")
    for side, command in steps:
        assert _enemy_sees(worlds[0], MARINES) == _enemy_sees(worlds[1], MARINES)
        assert _enemy_sees(worlds[0], SPECTATOR) == _enemy_sees(worlds[1], SPECTATOR)
        for game in worlds:
            game.command(side, command)
    assert _enemy_sees(worlds[0], MARINES) == _enemy_sees(worlds[1], MARINES)


# --- units in words -----------------------------------------------------------------------------


def test_an_ambushing_unit_names_its_square_to_its_owner_only() -> None:
    game = started(graw="D2")
    for observer in (JUNGLE, REFEREE):
        words = _words(game, observer, "graw")
        assert words["about"].startswith("in ambush in square D2"), observer
        details = {d["label"]: d["value"] for d in words["details"]}
        assert details["Written order"] == "Sgt. Graw's patrol setting up ambush in square D2"
        assert details["Private note"] == "graw hides"
    for observer in (MARINES, SPECTATOR):
        words = _words(game, observer, "graw")
        assert words["about"] == "in ambush · 10 models", observer
        assert "D2" not in json.dumps(words)
        assert "graw hides" not in json.dumps(words)


def test_a_unit_in_words_names_its_leader_wargear_and_scanners() -> None:
    game = started(graw="D2")
    words = _words(game, JUNGLE, "tactical")
    assert words["name"] == "Tactical squad Arvin"
    assert words["about"] == "on the table · 10 models"
    assert {d["label"]: d["value"] for d in words["details"]} == {
        "Leader": "Sergeant Arvin",
        "Models": "Sergeant Arvin with auspex and bolt pistol, 7 × marine, marine with "
        "missile launcher, and marine with flamer",
        "Can scan for ambushers": "Sergeant Arvin",
    }


def test_a_revealed_unit_shows_its_square_to_everyone() -> None:
    game = started(graw="D2")
    marines_shooting(game)
    scan(game)
    for observer in (JUNGLE, MARINES, SPECTATOR):
        about = _words(game, observer, "graw")["about"]
        assert about.startswith("revealed in square D2, waiting to be set up"), observer


# --- where the game stands ------------------------------------------------------------------------


@pytest.mark.spec("DWV-R04")
def test_status_while_setting_up() -> None:
    game = new_game(map_data())
    assert game.view(JUNGLE)["status"] == [
        "Setting up.",
        "Write down your ambush orders: no army sets up until they are written.",
    ]
    assert game.view(MARINES)["status"] == [
        "Setting up.",
        "Waiting for Deathworld Veterans to write down their ambush orders.",
    ]
    record(game, graw="D2")
    game.command(JUNGLE, {"type": "ready"})
    assert game.view(MARINES)["status"] == ["Setting up. Ready: Deathworld Veterans."]


@pytest.mark.spec("DWV-A12")
def test_status_through_a_turn_counts_enemy_ambushes_when_the_rosters_are_public() -> None:
    game = started(graw="D2", marbo="B2")
    assert game.view(JUNGLE)["status"] == [
        "Turn 1: Deathworld Veterans to play — Movement phase.",
        "You may reveal an ambush now, before anything else this turn.",
    ]
    assert game.view(MARINES)["status"] == [
        "Turn 1: Deathworld Veterans to play — Movement phase.",
        "Enemy units still in ambush: 2.",
    ]
    marines_shooting(game, TACTICAL_IN_D2)
    scan(game)
    assert game.view(MARINES)["status"] == [
        "Turn 1: Space Marines to play — Shooting phase.",
        "Waiting for Sgt. Graw's patrol to be set up in square D2.",
        "Enemy units still in ambush: 1.",
    ]
    assert game.view(JUNGLE)["status"][1] == "Set up Sgt. Graw's patrol now, in square D2."
    hidden = started(map_data(roster_public=False), graw="D2", marbo="B2")
    # Without public rosters the Marines know nothing of the units that hide.
    assert hidden.view(MARINES)["status"] == [
        "Turn 1: Deathworld Veterans to play — Movement phase."
    ]


@pytest.mark.spec("DWV-A06")
def test_status_lists_the_squares_a_side_scanned_and_found_empty() -> None:
    game = started(graw="E2")
    marines_shooting(game, TACTICAL_IN_D2)
    scan(game)
    assert "Scanned and found empty: D2." in game.view(MARINES)["status"]
    assert not any("found empty" in line for line in game.view(JUNGLE)["status"])


def test_status_after_the_game_is_over_names_no_turn() -> None:
    game = started(graw="D2")
    game.command(MARINES, {"type": "end_game"})
    for observer in (JUNGLE, MARINES, SPECTATOR, REFEREE):
        view = game.view(observer)
        assert view["status"] == ["The game is over."], observer
        assert view["waiting_for"] == []
        assert view.get("commands", []) == []


def test_both_ready_starts_play_with_the_first_side_to_move() -> None:
    game = new_game(table_data())
    record(game, graw="D2")
    both_ready(game)
    assert game.view("orks")["status"][0] == "Turn 1: Deathworld Veterans to play — Movement phase."
