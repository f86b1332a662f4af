"""ambush-fields played through the engine: hidden fleets, plots, scans, reveals.

The map: a Cylon basestar at 1010 generates a radius-3, rating-2 field; the scout Eye sits
inside it at 1112, so both are hidden. Galactica (a flagship) waits at 1020, ten hexes away.
"""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.dice.source import ScriptedDice
from ghillie.fairness.audit import audit
from ghillie.words import speaker

CYLONS, COLONIALS = "cylons", "colonials"


def scenario() -> dict[str, Any]:
    return {
        "ruleset": "ambush-fields",
        "title": "Ragnar anchorage",
        "mode": "map",
        "sides": [{"id": CYLONS, "name": "Cylons"}, {"id": COLONIALS, "name": "Colonials"}],
        "map": {"columns": 42, "rows": 30},
        "ships": [
            {"key": "basestar", "side": CYLONS, "name": "Basestar", "type": "BS", "at": "1010"},
            {"key": "eye", "side": CYLONS, "name": "Eye", "class": "scout", "at": "1112"},
            {
                "key": "galactica",
                "side": COLONIALS,
                "name": "Galactica",
                "flag": True,
                "at": "1020",
            },
        ],
        "fields": [{"key": "veil", "controller": "basestar", "radius": 3, "rating": 2}],
    }


def started(dice: list[int] | None = None) -> Game:
    game = Game.create(scenario(), seed=1, dice=ScriptedDice(dice) if dice is not None else None)
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    return game


def to_movement(game: Game) -> None:
    for side in (CYLONS, COLONIALS):
        game.command(side, {"type": "end_phase"})
    assert game.view(CYLONS)["board"]["step"] == "movement"


def end_movement(game: Game) -> None:
    for side in (CYLONS, COLONIALS):
        game.command(side, {"type": "end_phase"})


def known_ships(game: Game, side: str) -> list[dict[str, Any]]:
    """The enemy ships a side's view shows (a located field is a known piece too)."""
    return [k for k in game.view(side)["known"] if k["kind"] == "ship"]


def known_names(game: Game, side: str) -> list[str]:
    known = known_ships(game, side)
    return sorted(str(k["facts"].get("name", k["public"]["category"])) for k in known)


def said(line: dict[str, Any]) -> str:
    """A told line's words as its reader reads them (the line keeps them as a Say)."""
    return speaker("ambush-fields").text(line.get("text"))


def scan_line(game: Game) -> dict[str, Any]:
    return next(
        line
        for entry in game.view(COLONIALS)["log"]
        for line in entry["lines"]
        if line.get("event") == "scan"
    )


@pytest.mark.spec("BSG-R05", "BSG-R01")
def test_ships_in_a_field_are_off_the_board_and_the_field_is_unknown() -> None:
    game = started()
    assert known_names(game, COLONIALS) == []
    assert game.view(COLONIALS)["board"]["fields"] == []
    assert known_names(game, CYLONS) == ["Galactica"]
    view = game.view(COLONIALS)
    # Leave the proof material out: a hash or a signature may spell "1010" by chance.
    log = [{k: v for k, v in entry.items() if k != "proof"} for entry in view["log"]]
    text = str({**view, "log": log})
    for secret in ("Basestar", "Eye", "veil", "1010", "1112"):
        assert secret not in text
    # The owner sees its own field and fleet.
    assert [f["key"] for f in game.view(CYLONS)["board"]["fields"]] == ["veil"]


@pytest.mark.spec("BSG-R06", "BSG-T13", "BSG-R16")
def test_a_hidden_ship_that_ends_movement_outside_the_field_is_identified() -> None:
    game = started()
    to_movement(game)
    game.command(CYLONS, {"type": "plot", "moves": [{"ship": "eye", "to": "1015", "heading": "D"}]})
    assert known_names(game, COLONIALS) == []  # plotted, not yet carried out
    end_movement(game)
    assert known_names(game, COLONIALS) == ["Eye"]
    # R16: the side gains partial information on the field it left (the -1 flag only, A14).
    assert game.state.board.has_pi(COLONIALS, _field_id(game))
    assert game.view(COLONIALS)["board"]["fields"] == []


def _field_id(game: Game) -> str:
    return next(p.id for p in game.state.pieces.values() if p.kind == "field")


@pytest.mark.spec("BSG-R12", "BSG-R17", "BSG-R10")
def test_a_located_field_shows_its_extent_and_detects_every_ship_in_it() -> None:
    # Galactica at 10 hexes from the basestar: 7 to the field's nearest hex, N = 4 (6-15);
    # M = 2d6 + 2 (rating) - 1 (flag). Dice 1 + 1 → M = 2 ≤ 4: located.
    game = started([1, 1])
    to_movement(game)
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    end_movement(game)
    line = scan_line(game)
    assert [r["result"] for r in line["results"]] == ["located"]
    (located,) = game.view(COLONIALS)["board"]["fields"]
    assert (located["centre"], located["radius"], located["rating"]) == ("1010", 3, 2)
    # Detected, not identified: face-down counters showing only "ship" (BSG-R10).
    known = known_ships(game, COLONIALS)
    assert sorted(k["level"] for k in known) == ["detected", "detected"]
    # The field itself is now a piece the Colonials see (its id may be named, R25).
    assert [k["kind"] for k in game.view(COLONIALS)["known"]].count("field") == 1
    assert all(k["facts"] == {} and k["public"]["category"] == "ship" for k in known)
    assert "Basestar" not in str(game.view(COLONIALS))


@pytest.mark.spec("BSG-R15", "BSG-T07")
def test_failing_by_one_gives_the_arc_the_base_number_and_partial_information() -> None:
    # N = 4; M = 2d6 + 1: dice 2 + 2 → M = 5 = N + 1.
    game = started([2, 2])
    to_movement(game)
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    end_movement(game)
    (result,) = scan_line(game)["results"]
    assert set(result) == {"result", "arc", "base_number", "text"}  # not moving: no heading
    assert result["base_number"] == 4
    assert game.state.board.has_pi(COLONIALS, _field_id(game))
    assert game.view(COLONIALS)["known"] == []  # partial: the field is still unseen


@pytest.mark.spec("BSG-R18", "BSG-A11")
def test_no_contact_reads_the_same_whether_the_roll_failed_or_there_was_nothing() -> None:
    failed = started([6, 6])
    to_movement(failed)
    failed.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    end_movement(failed)
    nothing = Game.create({**scenario(), "fields": []}, seed=1, dice=ScriptedDice([]))
    nothing.command(CYLONS, {"type": "ready"})
    nothing.command(COLONIALS, {"type": "ready"})
    to_movement(nothing)
    nothing.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    end_movement(nothing)
    a, b = scan_line(failed), scan_line(nothing)
    assert {k: v for k, v in a.items() if k != "ship"} == {
        k: v for k, v in b.items() if k != "ship"
    }
    assert said(a) == "Galactica scans: no contact."


@pytest.mark.spec("BSG-R29", "BSG-R30")
def test_a_dropped_field_reveals_every_ship_in_it_and_cannot_come_back() -> None:
    game = started()
    game.command(CYLONS, {"type": "drop_field", "field": "veil"})
    assert known_names(game, COLONIALS) == ["Basestar", "Eye"]
    game.command(COLONIALS, {"type": "end_phase"})
    with pytest.raises(Refusal) as refused:
        game.command(CYLONS, {"type": "drop_field", "field": "veil"})
    assert refused.value.code == "not_now"


def test_a_game_of_fair_rolls_passes_the_audit() -> None:
    game = started()
    to_movement(game)
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    game.command(
        CYLONS, {"type": "plot", "moves": [{"ship": "basestar", "to": "1011", "speed": 1}]}
    )
    end_movement(game)
    game.command(CYLONS, {"type": "end_game"})
    report = audit(game.record())
    assert report.ok, report.findings


def test_the_example_scenario_plays_a_turn_and_passes_the_audit() -> None:
    from ghillie import examples

    game = Game.create(examples.load("ambush-fields"), seed=3)
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    assert sorted(known_names(game, COLONIALS)) == ["Picket boat"]  # the rest hide
    to_movement(game)
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica", "raptor", "vipers"]})
    end_movement(game)
    for side in (CYLONS, COLONIALS):
        game.command(side, {"type": "end_phase"})  # combat ends: turn 2
    assert game.view(CYLONS)["board"]["turn"] == 2
    game.command(COLONIALS, {"type": "end_game"})
    assert audit(game.record()).ok


@pytest.mark.spec("BSG-R27", "BSG-A17")
def test_a_fugitive_gains_the_fields_protection_but_cannot_hide() -> None:
    # A Cylon frigate, identified in the open at 1015, runs into its own field (1012).
    data = scenario()
    data["ships"].append({"key": "frigate", "side": CYLONS, "name": "Frigate", "at": "1015"})
    game = Game.create(data, seed=1)
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    assert known_names(game, COLONIALS) == ["Frigate"]
    to_movement(game)
    game.command(CYLONS, {"type": "plot", "moves": [{"ship": "frigate", "to": "1012"}]})
    end_movement(game)
    assert known_names(game, COLONIALS) == ["Frigate"]  # still identified: it cannot hide
    frigate = next(k["id"] for k in known_ships(game, COLONIALS))
    game.command(COLONIALS, {"type": "fire", "ship": "galactica", "target": frigate})
    fired = [
        line["modifier"]
        for entry in game.view(COLONIALS)["log"]
        for line in entry["lines"]
        if line.get("event") == "fire"
    ]
    assert fired == [2]  # but it has the field's protection (R21)


@pytest.mark.spec("BSG-A15", "BSG-R26", "BSG-T14")
@pytest.mark.parametrize(("trigger", "found"), [("end_of_phase", False), ("immediate", True)])
def test_passing_through_a_field_reveals_it_only_under_the_immediate_switch(
    trigger: str, found: bool
) -> None:
    # Galactica runs straight through the field (1020 → 1002) and ends outside it.
    data = {**scenario(), "switches": {"bsg.enter_trigger": trigger}}
    game = Game.create(data, seed=1)
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    to_movement(game)
    game.command(COLONIALS, {"type": "plot", "moves": [{"ship": "galactica", "to": "1002"}]})
    end_movement(game)
    assert (known_names(game, COLONIALS) == ["Basestar", "Eye"]) is found
    assert (len(game.view(COLONIALS)["board"]["fields"]) == 1) is found


@pytest.mark.spec("BSG-T14", "BSG-R26")
def test_bsg_t14_ending_movement_inside_the_field_identifies_everything_in_it() -> None:
    game = started()
    to_movement(game)
    game.command(COLONIALS, {"type": "plot", "moves": [{"ship": "galactica", "to": "1012"}]})
    end_movement(game)
    assert known_names(game, COLONIALS) == ["Basestar", "Eye"]
    assert len(game.view(COLONIALS)["board"]["fields"]) == 1


@pytest.mark.spec("BSG-R07")
def test_bsg_r07_moving_inside_the_field_does_not_give_a_ship_away() -> None:
    game = started()
    to_movement(game)
    game.command(CYLONS, {"type": "plot", "moves": [{"ship": "eye", "to": "1111", "speed": 2}]})
    end_movement(game)
    assert known_names(game, COLONIALS) == []


@pytest.mark.spec("BSG-R13", "BSG-A05", "BSG-A06")
@pytest.mark.parametrize(("scanners", "dice"), [([], 0), (["galactica"], 2)])
def test_bsg_r13_only_declared_ships_roll_once_per_field_per_turn(
    scanners: list[str], dice: int
) -> None:
    rolls = ScriptedDice([6] * 10)
    game = Game.create(scenario(), seed=1, dice=rolls)
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    to_movement(game)
    if scanners:
        game.command(COLONIALS, {"type": "scan", "ships": scanners})
    end_movement(game)
    assert 10 - rolls.remaining == dice  # one 2d6 per declared ship per field, none otherwise
