"""ambush-fields' Combat Phase through the engine: EW limits, fire through the field, the
scouts' Identify and Mass Identify, and the controller's loss at segment 10."""

from __future__ import annotations

import pytest

from ghillie import Game, Refusal, ScenarioError
from ghillie.dice.source import ScriptedDice

from .test_game import (
    COLONIALS,
    CYLONS,
    end_movement,
    known_names,
    known_ships,
    scenario,
    to_movement,
)


def combat(dice: list[int] | None = None, *, scan: bool = False, extra: bool = False) -> Game:
    data = scenario()
    if extra:
        # A Colonial scout, and a Cylon CL beside the basestar, inside the field.
        data["ships"] += [
            {"key": "raptor", "side": COLONIALS, "name": "Raptor", "class": "scout", "at": "1018"},
            {"key": "cl", "side": CYLONS, "name": "Cylon CL", "type": "CL", "at": "1011"},
            {"key": "owl", "side": CYLONS, "name": "Owl", "class": "scout", "at": "1009"},
        ]
    game = Game.create(data, seed=1, dice=ScriptedDice(dice) if dice is not None else None)
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    to_movement(game)
    if scan:
        game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    end_movement(game)
    assert game.view(CYLONS)["board"]["step"] == "combat"
    return game


@pytest.mark.spec("BSG-T01", "BSG-R08")
def test_bsg_t01_three_points_of_ecm_on_a_cl_in_a_rating_2_field_light_it_up() -> None:
    game = combat(extra=True)
    game.command(CYLONS, {"type": "assign_ew", "scout": "eye", "target": "cl", "points": 2})
    assert "ship" not in known_names(game, COLONIALS)
    game.command(CYLONS, {"type": "assign_ew", "scout": "owl", "target": "cl", "points": 1})
    # Detected, not identified: a counter showing "ship"; and partial information (R16).
    assert known_names(game, COLONIALS) == ["ship"]
    field_id = next(p.id for p in game.state.pieces.values() if p.kind == "field")
    assert game.state.board.has_pi(COLONIALS, field_id)


@pytest.mark.spec("BSG-T02", "BSG-A04")
def test_bsg_t02_two_points_do_not_exceed_a_rating_of_2() -> None:
    game = combat(extra=True)
    game.command(CYLONS, {"type": "assign_ew", "scout": "eye", "target": "cl", "points": 2})
    assert known_names(game, COLONIALS) == []


@pytest.mark.spec("BSG-R09", "BSG-R20")
def test_firing_gives_a_hidden_ship_away_and_hidden_ships_cannot_be_targeted() -> None:
    game = combat()
    galactica = next(k["id"] for k in known_ships(game, CYLONS))
    game.command(CYLONS, {"type": "fire", "ship": "basestar", "target": galactica})
    assert known_names(game, COLONIALS) == ["ship"]  # detected, not identified (R09)
    eye = next(p.id for p in game.state.pieces.values() if p.secret.get("key") == "eye")
    with pytest.raises(Refusal) as refused:
        game.command(COLONIALS, {"type": "fire", "ship": "galactica", "target": eye})
    assert refused.value.code == "unknown_piece"  # as if nothing were there


@pytest.mark.spec("BSG-T10", "BSG-R21", "BSG-R22")
def test_bsg_t10_the_field_modifier_as_the_rules_apply_it() -> None:
    game = combat([1, 1], scan=True)  # the field is located: the basestar is a counter
    basestar, eye = (k["id"] for k in known_ships(game, COLONIALS))
    galactica = next(k["id"] for k in known_ships(game, CYLONS))
    game.command(COLONIALS, {"type": "fire", "ship": "galactica", "target": basestar})
    game.command(COLONIALS, {"type": "fire", "ship": "galactica", "target": eye, "modifiers": 2})
    game.command(CYLONS, {"type": "fire", "ship": "basestar", "target": galactica})
    fired = [
        (line["modifier"], said["text"])
        for side in (COLONIALS, CYLONS)
        for entry in game.view(side)["log"]
        for line, said in zip(entry["lines"], entry["said"], strict=True)
        if line.get("event") == "fire" and line["by"] == side
    ]
    # outside → inside: the rating, 2, even though the field is located (R22); with +2
    # more, capped at 3; inside → outside: 0.
    assert [modifier for modifier, _ in fired] == [2, 3, 0]
    assert [text for _, text in fired] == [
        "Galactica fires at the ship counter at hex 1010: total modifier +2 (the field's +2).",
        "Galactica fires at the ship counter at hex 1112: total modifier +3 (the field's +2, "
        "other modifiers +2, and held to +3).",
        "Basestar fires at Galactica: total modifier +0 (no field in the way).",
    ]
    # The target's side reads the same shot, the firing ship named as it knows it.
    told = [
        said["text"]
        for entry in game.view(CYLONS)["log"]
        for line, said in zip(entry["lines"], entry["said"], strict=True)
        if line.get("event") == "fire" and line["by"] == COLONIALS
    ]
    assert told[0] == "Galactica fires at Basestar: total modifier +2 (the field's +2)."


@pytest.mark.spec("BSG-T08", "BSG-R24", "BSG-A13")
def test_bsg_t08_identify_needs_the_rating_in_points_and_never_says_it() -> None:
    game = combat([1, 1], scan=True, extra=True)
    counters = [k["id"] for k in known_ships(game, COLONIALS) if k["level"] == "detected"]
    target = counters[0]
    game.command(COLONIALS, {"type": "identify", "scout": "raptor", "target": target, "points": 1})
    assert game.state.known(COLONIALS, target).level.name == "DETECTED"
    game.command(COLONIALS, {"type": "identify", "scout": "raptor", "target": target, "points": 2})
    assert game.state.known(COLONIALS, target).level.name == "IDENTIFIED"
    lines = [
        (line, said["text"])
        for entry in game.view(COLONIALS)["log"]
        for line, said in zip(entry["lines"], entry["said"], strict=True)
        if line.get("event") == "identify"
    ]
    assert [line["result"] for line, _ in lines] == ["not identified", "identified"]
    # Whether it worked, and what the counter is: never the field's rating.
    assert all("rating" not in line for line, _ in lines)
    assert [text for _, text in lines] == [
        "Raptor spends 1 scout point to identify the ship counter at hex 1010: not identified.",
        "Raptor spends 2 scout points to identify the ship counter at hex 1010: identified, it "
        "is Basestar (BS).",
    ]
    # The field's owner answers the attempt at the table: it is told of both (R24).
    owner = [
        said["text"]
        for entry in game.view(CYLONS)["log"]
        for line, said in zip(entry["lines"], entry["said"], strict=True)
        if line.get("event") == "identify"
    ]
    assert owner == [
        "Raptor spends 1 scout point to identify Basestar: not enough, it stays unidentified.",
        "Raptor spends 2 scout points to identify Basestar: the enemy has identified it.",
    ]


@pytest.mark.spec("BSG-T09", "BSG-R25")
def test_bsg_t09_mass_identify_needs_a_located_field() -> None:
    game = combat([6, 6], scan=True, extra=True)  # not located
    field_id = next(p.id for p in game.state.pieces.values() if p.kind == "field")
    with pytest.raises(Refusal) as refused:
        game.command(
            COLONIALS,
            {"type": "mass_identify", "scouts": ["raptor"], "field": field_id, "points": 6},
        )
    assert refused.value.code == "unknown_piece"
    located = combat([1, 1], scan=True, extra=True)
    field_id = next(p.id for p in located.state.pieces.values() if p.kind == "field")
    located.command(
        COLONIALS, {"type": "mass_identify", "scouts": ["raptor"], "field": field_id, "points": 6}
    )
    assert known_names(located, COLONIALS) == ["Basestar", "Cylon CL", "Eye", "Owl"]


@pytest.mark.spec("BSG-T12", "BSG-R28")
def test_bsg_t12_a_destroyed_controller_drops_its_field_at_segment_10() -> None:
    game = combat()
    game.command(CYLONS, {"type": "destroyed", "ship": "basestar"})
    assert known_names(game, COLONIALS) == []  # not before segment 10
    for side in (CYLONS, COLONIALS):
        game.command(side, {"type": "end_phase"})
    assert known_names(game, COLONIALS) == ["Eye"]
    field = next(p for p in game.state.pieces.values() if p.kind == "field")
    assert field.secret["active"] is False


@pytest.mark.spec("BSG-R23")
def test_bsg_r23_a_scouts_eccm_cancels_the_field_penalty_on_one_target() -> None:
    game = combat([1, 1], scan=True, extra=True)
    basestar = known_ships(game, COLONIALS)[0]["id"]
    shot = {"type": "fire", "ship": "galactica", "target": basestar}
    game.command(COLONIALS, {**shot, "eccm_scout": "raptor", "eccm": 1})
    game.command(COLONIALS, {**shot, "eccm_scout": "raptor", "eccm": 5})
    with pytest.raises(Refusal) as refused:
        game.command(COLONIALS, {**shot, "eccm": 1})  # ECCM needs a scout to spend it
    assert refused.value.code == "not_a_scout"
    fired = [
        line["modifier"]
        for entry in game.view(COLONIALS)["log"]
        for line in entry["lines"]
        if line.get("event") == "fire" and line["by"] == COLONIALS
    ]
    assert fired == [1, 0]


@pytest.mark.spec("BSG-A03", "BSG-R08")
def test_bsg_a03_emitted_points_count_on_the_scout_only_under_the_switch() -> None:
    """A scout inside the field spends 3 points on a ship outside any field: by DEFAULT
    nothing counts on the scout; under ``bsg.count_emitted_points`` 3 > rating 2 gives the
    scout itself away."""
    for emitted, seen in ((False, ["Cylon CL"]), (True, ["Cylon CL", "ship"])):
        data = scenario()
        data["ships"] += [
            {"key": "owl", "side": CYLONS, "name": "Owl", "class": "scout", "at": "1009"},
            {"key": "cl", "side": CYLONS, "name": "Cylon CL", "type": "CL", "at": "3005"},
        ]
        data["switches"] = {"bsg.count_emitted_points": emitted}
        game = Game.create(data, seed=1)
        game.command(CYLONS, {"type": "ready"})
        game.command(COLONIALS, {"type": "ready"})
        to_movement(game)
        end_movement(game)
        game.command(CYLONS, {"type": "assign_ew", "scout": "owl", "target": "cl", "points": 3})
        assert known_names(game, COLONIALS) == seen


def test_a_referee_gating_the_scans_is_refused_when_the_game_is_made() -> None:
    data = {**scenario(), "switches": {"bsg.scan_gating": "referee"}}
    with pytest.raises(ScenarioError, match="referee"):
        Game.create(data, seed=1)
