"""The ambush-fields log as a story: each side reads what happened in its own words, the
enemy's ships named as it knows them, and the field's owner is told what the enemy has
learned of its fleet and fields whenever the table would show it (RULES-SPEC §1.6)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game
from ghillie.dice.source import ScriptedDice
from ghillie.state import SPECTATOR

from .test_game import COLONIALS, CYLONS, end_movement, scenario, to_movement


def game_with(dice: list[int] | None = None, **extra: Any) -> Game:
    data = scenario()
    data["ships"] += extra.get("ships", [])
    game = Game.create(data, seed=1, dice=ScriptedDice(dice) if dice is not None else None)
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    return game


def last(game: Game, side: str) -> list[str]:
    """What the side reads of the last event."""
    return [said["text"] for said in game.view(side)["log"][-1]["said"]]


def story(game: Game, side: str) -> list[str]:
    return [said["text"] for entry in game.view(side)["log"] for said in entry["said"]]


def rules(game: Game, side: str) -> list[str]:
    return [
        r for entry in game.view(side)["log"] for s in entry["said"] for r in s.get("rules", [])
    ]


def test_no_line_carries_a_rule_id_in_its_words() -> None:
    game = game_with([1, 1])
    to_movement(game)
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    end_movement(game)
    for side in (CYLONS, COLONIALS, SPECTATOR):
        assert not any("BSG-" in text for text in story(game, side))
    assert "BSG-R17" in rules(game, COLONIALS)


def test_the_fleets_take_the_board_and_each_side_reads_who_hides_and_who_is_seen() -> None:
    game = game_with()
    assert last(game, CYLONS)[1:] == [
        "The fleets take the board. Turn 1: the Initiative Phase begins.",
        "2 of your ships start hidden in your fields, off the enemy's board: Basestar and Eye.",
        "Galactica at hex 1020 appears on your board, identified.",
    ]
    assert last(game, COLONIALS)[1:] == [
        "The fleets take the board. Turn 1: the Initiative Phase begins.",
        "The enemy has identified Galactica at hex 1020.",
    ]


@pytest.mark.spec("BSG-R17", "BSG-R18")
def test_the_owner_is_told_when_the_enemy_locates_its_field() -> None:
    game = game_with([1, 1])
    to_movement(game)
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    end_movement(game)
    assert last(game, COLONIALS)[:2] == [
        "Galactica scans: an ambush field located around hex 1010, radius 3, rating 2, its "
        "controlling ship at speed 0, heading A.",
        "2 counters appear on your board: the ship counter at hex 1010 and the ship counter at "
        "hex 1112.",
    ]
    assert last(game, CYLONS)[:2] == [
        "The enemy locates your field veil (Basestar): from now on they see it on their "
        "board — where it is, its radius, rating, speed and heading — and every ship in it as "
        "a counter.",
        "The enemy now sees 2 of your ships as face-down counters, detected but not "
        "identified: Basestar at hex 1010 and Eye at hex 1112.",
    ]
    # The spectators learn of it only what the board shows every side.
    assert last(game, SPECTATOR) == ["Turn 1: the Combat Phase begins."]


@pytest.mark.spec("BSG-R15", "BSG-R18", "BSG-A06")
def test_neither_a_partial_result_nor_a_failed_scan_is_told_to_the_owner() -> None:
    # Which ships scan is the scanning side's secret (BSG-A06); ghillie makes the rolls
    # (R18), so a line to the owner would tell it which ship scanned, and that one did.
    game = game_with([2, 2, 6, 6])
    to_movement(game)
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    end_movement(game)
    assert not any("scan" in line or "partial" in line for line in last(game, CYLONS))
    for _ in range(2):  # combat, initiative: turn 2's Movement Phase
        for side in (CYLONS, COLONIALS):
            game.command(side, {"type": "end_phase"})
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    before = story(game, CYLONS)
    end_movement(game)
    # No contact: which ships scan is the scanning side's secret (A06), so the owner hears
    # nothing of an attempt that found nothing.
    assert story(game, CYLONS)[len(before) :] == [
        "Cylons are done with the Movement Phase.",
        "Turn 2: the Combat Phase begins.",
    ]
    assert last(game, COLONIALS)[0] == "Galactica scans: no contact."


@pytest.mark.spec("BSG-R06", "BSG-R16", "BSG-A14")
def test_a_ship_that_comes_out_of_hiding_gives_partial_information_and_both_sides_read_it() -> None:
    game = game_with()
    to_movement(game)
    game.command(CYLONS, {"type": "plot", "moves": [{"ship": "eye", "to": "1015", "heading": "D"}]})
    end_movement(game)
    colonials = last(game, COLONIALS)
    assert "Eye at hex 1015 appears on your board, identified." in colonials
    assert (
        "Eye came out of an ambush field: you gain partial information on that field (-1 on "
        "your later rolls against it)." in colonials
    )
    cylons = last(game, CYLONS)
    assert "The enemy has identified Eye at hex 1015." in cylons
    assert (
        "The enemy gains partial information on your field veil (Basestar): Eye was seen "
        "coming out of it." in cylons
    )
    # The Colonials' status keeps what they were shown, never which field it concerns.
    assert game.view(COLONIALS)["status"][-1] == "turn 1: Eye came out of hiding at hex 1015."
    assert "veil" not in json.dumps(game.view(COLONIALS))


@pytest.mark.spec("BSG-R09", "BSG-R10", "BSG-R16")
def test_a_hidden_ship_that_fires_is_seen_as_a_counter_and_its_owner_is_told() -> None:
    game = game_with()
    to_movement(game)
    end_movement(game)
    galactica = next(k["id"] for k in game.view(CYLONS)["known"] if k["kind"] == "ship")
    game.command(CYLONS, {"type": "fire", "ship": "basestar", "target": galactica})
    assert last(game, COLONIALS) == [
        "A ship counter appears on your board at hex 1010.",
        "The ship counter at hex 1010 gave itself away inside an ambush field: you gain partial "
        "information on that field (-1 on your later rolls against it).",
        "The ship counter at hex 1010 fires at Galactica: total modifier +0 (no field in the way).",
    ]
    assert last(game, CYLONS) == [
        "The enemy now sees Basestar at hex 1010 as a face-down counter: detected, not identified.",
        "The enemy gains partial information on your field veil (Basestar): Basestar gave "
        "itself away in it.",
        "Basestar fires at Galactica: total modifier +0 (no field in the way).",
    ]
    basestar = next(p for p in game.view(CYLONS)["pieces"] if p["name"] == "Basestar")
    assert "detected: the enemy sees a face-down counter" in basestar["about"]


@pytest.mark.spec("BSG-R08", "BSG-T01")
def test_too_much_ew_gives_a_ship_away_and_the_enemy_is_not_told_why() -> None:
    cl = {"key": "cl", "side": CYLONS, "name": "Cylon CL", "type": "CL", "at": "1011"}
    game = game_with(ships=[cl])
    to_movement(game)
    end_movement(game)
    game.command(CYLONS, {"type": "assign_ew", "scout": "eye", "target": "cl", "points": 3})
    assert last(game, CYLONS)[0] == (
        "Eye spends 3 scout points of EW on Cylon CL: 3 points on it this turn, more than the "
        "rating of its field, 2, so it gives itself away."
    )
    colonials = last(game, COLONIALS)
    assert colonials[0] == "A ship counter appears on your board at hex 1011."
    assert "EW" not in json.dumps(game.view(COLONIALS)["log"][-1])


@pytest.mark.spec("BSG-R29", "BSG-R30")
def test_a_dropped_field_is_told_to_each_side_as_it_knew_it() -> None:
    game = game_with()
    game.command(CYLONS, {"type": "drop_field", "field": "veil"})
    assert last(game, CYLONS) == [
        "You drop your field veil (Basestar): it can never be raised again, and every ship "
        "that was in it is identified.",
        "The enemy has identified 2 of your ships: Basestar at hex 1010 and Eye at hex 1112.",
    ]
    assert last(game, COLONIALS) == [
        "Cylons drop an ambush field: every ship that was in it is identified.",
        "2 enemy ships appear on your board, identified: Basestar (BS) at hex 1010 and Eye at "
        "hex 1112.",
    ]
    assert last(game, SPECTATOR) == ["Cylons drop an ambush field."]


@pytest.mark.spec("BSG-R26", "BSG-T14")
def test_moving_into_a_field_is_told_to_both_sides() -> None:
    game = game_with()
    to_movement(game)
    game.command(COLONIALS, {"type": "plot", "moves": [{"ship": "galactica", "to": "1012"}]})
    end_movement(game)
    assert (
        "Galactica is inside the ambush field of Cylons around hex 1010: it is located, and "
        "every ship in it is identified." in last(game, COLONIALS)
    )
    assert (
        "Galactica has moved into your field veil (Basestar): the enemy has located it, and "
        "every ship in it is identified." in last(game, CYLONS)
    )
    words = next(p for p in game.view(CYLONS)["pieces"] if p["kind"] == "field")
    assert "located by the enemy" in words["about"]


@pytest.mark.spec("BSG-R28", "BSG-T12")
def test_a_lost_controller_drops_its_field_and_each_side_reads_it() -> None:
    game = game_with()
    to_movement(game)
    end_movement(game)
    game.command(CYLONS, {"type": "destroyed", "ship": "basestar"})
    assert last(game, CYLONS) == [
        "Basestar is destroyed: it is taken off the board at the end of the Combat Phase, when "
        "every loss is applied."
    ]
    for side in (CYLONS, COLONIALS):
        game.command(side, {"type": "end_phase"})
    assert last(game, COLONIALS)[:2] == [
        "An ambush field of Cylons drops with its controlling ship: every ship that was in it "
        "is identified.",
        "Eye at hex 1112 appears on your board, identified.",
    ]
    assert "Basestar is destroyed and taken off the board." in last(game, CYLONS)
