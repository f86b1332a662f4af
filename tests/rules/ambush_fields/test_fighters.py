"""Carriers launch and recover fighter flights (RULES-SPEC BSG-R07, R10, R16, R17, A12).

The map: the Cylon basestar at 1010 carries two Raider flights and generates a radius-3,
rating-2 field; the scout Eye sits inside it at 1112. Galactica (a flagship) at 1020, ten
hexes away in the open, carries one Viper flight and has room for a second.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, Refusal, ScenarioError, load_scenario, registry
from ghillie.dice.source import ScriptedDice
from ghillie.fairness.audit import audit
from tests.contract.harness import comparable

CYLONS, COLONIALS = "cylons", "colonials"
NOBODY = "0" * 32


def scenario(**extra_ships: dict[str, Any]) -> dict[str, Any]:
    ships: list[dict[str, Any]] = [
        {
            "key": "basestar",
            "side": CYLONS,
            "name": "Basestar",
            "type": "BS",
            "at": "1010",
            "fighters": {"flights": 2, "name": "Raider flight", "type": "Raider"},
        },
        {"key": "eye", "side": CYLONS, "name": "Eye", "class": "scout", "at": "1112"},
        {
            "key": "galactica",
            "side": COLONIALS,
            "name": "Galactica",
            "flag": True,
            "at": "1020",
            "fighters": {"flights": 1, "capacity": 2, "name": "Viper flight", "type": "Viper"},
        },
    ]
    for key, ship in extra_ships.items():
        ships.append({"key": key, **ship})
    return {
        "ruleset": "ambush-fields",
        "title": "Ragnar anchorage",
        "mode": "map",
        "sides": [{"id": CYLONS, "name": "Cylons"}, {"id": COLONIALS, "name": "Colonials"}],
        "map": {"columns": 42, "rows": 30},
        "ships": ships,
        "fields": [{"key": "veil", "controller": "basestar", "radius": 3, "rating": 2}],
    }


def started(data: dict[str, Any] | None = None, dice: list[int] | None = None) -> Game:
    game = Game.create(
        data or scenario(), seed=1, dice=ScriptedDice(dice) if dice is not None else None
    )
    game.command(CYLONS, {"type": "ready"})
    game.command(COLONIALS, {"type": "ready"})
    return game


def both_end_phase(game: Game) -> None:
    for side in (CYLONS, COLONIALS):
        game.command(side, {"type": "end_phase"})


def at_movement(data: dict[str, Any] | None = None, dice: list[int] | None = None) -> Game:
    game = started(data, dice)
    both_end_phase(game)
    assert game.view(CYLONS)["board"]["step"] == "movement"
    return game


def known_ships(game: Game, side: str) -> list[dict[str, Any]]:
    return [k for k in game.view(side)["known"] if k["kind"] == "ship"]


def own(game: Game, side: str, key: str) -> dict[str, Any]:
    return next(p for p in game.view(side)["pieces"] if p["secret"].get("key") == key)


def lines(game: Game, side: str, event: str) -> list[dict[str, Any]]:
    """The side's lines of ``event``, each with its text as the side reads it."""
    return [
        {**line, "text": said["text"]}
        for entry in game.view(side)["log"]
        for line, said in zip(entry["lines"], entry["said"], strict=True)
        if line.get("event") == event
    ]


def refusal(game: Game, side: str, command: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(Refusal) as refused:
        game.command(side, command)
    return refused.value.code, refused.value.detail


# --- launching ---------------------------------------------------------------------------


@pytest.mark.spec("BSG-R07", "BSG-R05", "BSG-R06")
def test_a_carrier_launching_inside_its_field_gives_nothing_away_and_the_flight_hides() -> None:
    game = at_movement()
    game.command(CYLONS, {"type": "launch", "carrier": "basestar"})
    flight = own(game, CYLONS, "basestar-flight-1")
    assert flight["public"] == {
        "category": "fighter flight",
        "at": "1010",
        "heading": "A",
        "speed": 0,
    }
    assert flight["secret"]["name"] == "Raider flight 1"
    assert [f["key"] for f in own(game, CYLONS, "basestar")["secret"]["hangar"]] == [
        "basestar-flight-2"
    ]
    assert (
        lines(game, CYLONS, "launch")[-1]["text"]
        == "Basestar launches Raider flight 1 at hex 1010, inside your field: unseen."
    )
    assert known_ships(game, COLONIALS) == []
    assert game.view(COLONIALS)["log"][-1]["lines"] == [{"event": "acted", "by": CYLONS}]
    both_end_phase(game)  # movement ends: still inside the field, still hidden (R06)
    assert known_ships(game, COLONIALS) == []
    text = json.dumps(game.view(COLONIALS))
    assert "Raider" not in text
    assert flight["id"] not in text


@pytest.mark.spec("BSG-R07", "BSG-R09", "BSG-R10")
def test_a_flight_launched_by_a_detected_carrier_in_the_field_is_hidden_all_the_same() -> None:
    game = at_movement()
    both_end_phase(game)  # to the Combat Phase
    galactica = known_ships(game, CYLONS)[0]["id"]
    game.command(CYLONS, {"type": "fire", "ship": "basestar", "target": galactica})
    assert [k["level"] for k in known_ships(game, COLONIALS)] == ["detected"]  # R09
    both_end_phase(game)
    both_end_phase(game)  # turn 2: Movement Phase
    game.command(CYLONS, {"type": "launch", "carrier": "basestar"})
    both_end_phase(game)
    known = known_ships(game, COLONIALS)
    assert [(k["level"], k["public"]["category"]) for k in known] == [("detected", "ship")]
    assert lines(game, COLONIALS, "launch") == []


@pytest.mark.spec("BSG-R07", "BSG-R10", "BSG-R06")
def test_a_carrier_in_the_open_launches_in_plain_sight() -> None:
    game = at_movement()
    game.command(COLONIALS, {"type": "launch", "carrier": "galactica"})
    (line,) = lines(game, CYLONS, "launch")
    assert line["text"] == "Galactica launches Viper flight 1 at hex 1020."
    flight = next(k for k in known_ships(game, CYLONS) if k["id"] == line["flight"])
    assert flight["level"] == "identified"
    assert flight["public"]["at"] == "1020"
    assert flight["facts"]["name"] == "Viper flight 1"
    both_end_phase(game)
    assert {k["facts"]["name"] for k in known_ships(game, CYLONS)} == {
        "Galactica",
        "Viper flight 1",
    }


@pytest.mark.spec("BSG-R17", "BSG-A12", "BSG-R10")
def test_a_flight_launched_in_a_located_field_shows_as_a_face_down_counter() -> None:
    # Turn 1: Galactica locates the field (dice 1 + 1); the basestar and Eye are detected.
    game = at_movement(dice=[1, 1])
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    both_end_phase(game)
    assert len(game.view(COLONIALS)["board"]["fields"]) == 1
    for _ in range(2):
        both_end_phase(game)  # combat, initiative: turn 2's Movement Phase
    game.command(CYLONS, {"type": "launch", "carrier": "basestar"})
    (line,) = lines(game, COLONIALS, "launch")
    assert line["text"] == (
        "The ship counter at hex 1010 launches a fighter flight, a new counter in its hex."
    )
    flight = next(k for k in known_ships(game, COLONIALS) if k["id"] == line["flight"])
    assert (flight["level"], flight["facts"]) == ("detected", {})
    assert flight["public"]["category"] == "fighter flight"
    assert "Raider" not in json.dumps(game.view(COLONIALS))


@pytest.mark.spec("BSG-R06", "BSG-R16", "BSG-R07")
def test_a_hidden_flight_that_flies_out_of_the_field_is_identified_and_gives_pi() -> None:
    game = at_movement()
    game.command(CYLONS, {"type": "launch", "carrier": "basestar"})
    game.command(CYLONS, {"type": "plot", "moves": [{"ship": "basestar-flight-1", "to": "1015"}]})
    both_end_phase(game)
    (flight,) = known_ships(game, COLONIALS)
    assert (flight["level"], flight["facts"]["name"]) == ("identified", "Raider flight 1")
    field = next(p.id for p in game.state.pieces.values() if p.kind == "field")
    assert game.state.board.has_pi(COLONIALS, field)  # it was launched in the field (R16)


# --- recovering ----------------------------------------------------------------------------


@pytest.mark.spec("BSG-R07")
def test_a_hidden_recovery_tells_the_enemy_nothing_and_a_relaunch_is_a_new_counter() -> None:
    game = at_movement()
    game.command(CYLONS, {"type": "launch", "carrier": "basestar"})
    first = own(game, CYLONS, "basestar-flight-1")["id"]
    game.command(CYLONS, {"type": "recover", "flight": first, "carrier": "basestar"})
    assert first not in game.state.pieces
    hangar = own(game, CYLONS, "basestar")["secret"]["hangar"]
    assert [f["key"] for f in hangar] == ["basestar-flight-2", "basestar-flight-1"]
    assert lines(game, CYLONS, "recovered")[-1]["text"] == "Raider flight 1 lands aboard Basestar."
    assert lines(game, COLONIALS, "recovered") == []
    game.command(CYLONS, {"type": "launch", "carrier": "basestar"})
    game.command(CYLONS, {"type": "launch", "carrier": "basestar"})
    again = own(game, CYLONS, "basestar-flight-1")
    assert again["id"] != first
    assert again["secret"]["name"] == "Raider flight 1"
    assert known_ships(game, COLONIALS) == []


@pytest.mark.spec("BSG-R07", "BSG-R10")
def test_a_flight_the_enemy_sees_is_seen_to_land_and_leave_the_board() -> None:
    game = at_movement()
    game.command(COLONIALS, {"type": "launch", "carrier": "galactica"})
    both_end_phase(game)
    for _ in range(2):
        both_end_phase(game)  # turn 2's Movement Phase
    viper = own(game, COLONIALS, "galactica-flight-1")["id"]
    game.command(COLONIALS, {"type": "recover", "flight": viper, "carrier": "galactica"})
    (line,) = lines(game, CYLONS, "recovered")
    assert line["text"] == "Viper flight 1 lands aboard a carrier and leaves the board."
    assert [k["facts"]["name"] for k in known_ships(game, CYLONS)] == ["Galactica"]
    assert len(own(game, COLONIALS, "galactica")["secret"]["hangar"]) == 1


def test_launches_and_recoveries_are_refused_for_reasons_of_the_game() -> None:
    data = scenario(raiders={"side": CYLONS, "name": "Raiders", "class": "fighter_flight"})
    data["ships"][-1]["at"] = "1010"
    game = started(data)
    assert refusal(game, CYLONS, {"type": "launch", "carrier": "basestar"})[0] == "not_your_turn"
    both_end_phase(game)
    assert refusal(game, CYLONS, {"type": "launch", "carrier": "eye"})[0] == "not_a_carrier"
    # The bays hold two, and two are aboard: the scenario's Raiders cannot land.
    full = {"type": "recover", "flight": "raiders", "carrier": "basestar"}
    assert refusal(game, CYLONS, full)[0] == "hangar_full"
    game.command(CYLONS, {"type": "launch", "carrier": "basestar"})
    game.command(CYLONS, {"type": "launch", "carrier": "basestar"})
    assert refusal(game, CYLONS, {"type": "launch", "carrier": "basestar"})[0] == "hangar_empty"
    not_a_flight = {"type": "recover", "flight": "eye", "carrier": "basestar"}
    assert refusal(game, CYLONS, not_a_flight)[0] == "not_a_flight"
    game.command(CYLONS, {"type": "plot", "moves": [{"ship": "raiders", "to": "1011"}]})
    both_end_phase(game)
    for _ in range(2):
        both_end_phase(game)
    game.command(CYLONS, {"type": "recover", "flight": "basestar-flight-1", "carrier": "basestar"})
    apart = {"type": "recover", "flight": "raiders", "carrier": "basestar"}
    assert refusal(game, CYLONS, apart)[0] == "not_in_the_carriers_hex"


@pytest.mark.spec("BSG-R05")
def test_naming_a_hidden_carrier_or_flight_reads_like_naming_nothing() -> None:
    game = at_movement()
    game.command(CYLONS, {"type": "launch", "carrier": "basestar"})
    hidden = [p.id for p in game.state.pieces.values() if p.owner == CYLONS and p.kind == "ship"]
    for ref in hidden:
        for command in (
            {"type": "launch", "carrier": ref},
            {"type": "recover", "flight": ref, "carrier": "galactica"},
            {"type": "recover", "flight": "galactica", "carrier": ref},
        ):
            nothing = {k: NOBODY if v == ref else v for k, v in command.items()}
            assert refusal(game, COLONIALS, command) == refusal(game, COLONIALS, nothing)


@pytest.mark.spec("BSG-R07", "BSG-R05")
def test_two_worlds_which_hidden_carrier_launches_does_not_show() -> None:
    """World A's basestar launches, world B's light cruiser (both in the field): the
    Colonials' view is the same, through the end of the Movement Phase and their own launch."""
    extra = {
        "cl": {
            "side": CYLONS,
            "name": "Light cruiser",
            "at": "1011",
            "fighters": {"flights": 1, "name": "Heavy raider flight"},
        }
    }
    a, b = at_movement(scenario(**extra)), at_movement(scenario(**extra))
    a.command(CYLONS, {"type": "launch", "carrier": "basestar"})
    b.command(CYLONS, {"type": "launch", "carrier": "cl"})
    for step in (
        lambda g: None,
        lambda g: g.command(COLONIALS, {"type": "launch", "carrier": "galactica"}),
        both_end_phase,
    ):
        step(a)
        step(b)
        for watcher in (COLONIALS, "spectator"):
            assert comparable(a.view(watcher)) == comparable(b.view(watcher))
    assert a.view(CYLONS) != b.view(CYLONS)


# --- the secrets a side can hold -----------------------------------------------------------


def test_the_bound_on_secrets_counts_the_flights_aboard_and_holds_in_play() -> None:
    ruleset = registry.get("ambush-fields")
    with_fighters = ruleset.secret_facts(load_scenario(scenario()))
    data = scenario()
    for ship in data["ships"]:
        ship.pop("fighters", None)
    assert with_fighters > ruleset.secret_facts(load_scenario(data))
    game = at_movement()
    for carrier, side in (("basestar", CYLONS), ("basestar", CYLONS), ("galactica", COLONIALS)):
        game.command(side, {"type": "launch", "carrier": carrier})
    game.command(
        CYLONS,
        {
            "type": "plot",
            "moves": [
                {"ship": key, "to": "1011", "note": "a note"}
                for key in ("basestar-flight-1", "basestar-flight-2", "eye")
            ],
        },
    )
    both_end_phase(game)
    bound = ruleset.secret_facts(game.scenario)
    assert all(len(r.slots) <= bound for r in game.ledger.rosters.values())
    game.command(CYLONS, {"type": "end_game"})
    report = audit(game.record())
    assert report.ok, report.findings


# --- the scenario -------------------------------------------------------------------------


def test_a_carriers_flights_are_numbered_from_its_fighter_profile() -> None:
    parsed = load_scenario(scenario())
    galactica = next(s for s in parsed.ships if s.key == "galactica")
    assert galactica.flights() == [
        {"key": "galactica-flight-1", "name": "Viper flight 1", "type": "Viper"}
    ]
    assert galactica.fighters.bays == 2


@pytest.mark.parametrize(
    ("fighters", "ship_class", "problem"),
    [
        ({"flights": 3, "capacity": 2}, "capital", "do not fit"),
        ({"flights": 0}, "capital", "needs a capacity"),
        ({"flights": 1}, "fighter_flight", "carries no fighters"),
        ({"flights": 1}, "shuttle", "carries no fighters"),
        ({"flights": 1, "key": "eye"}, "capital", "key must differ"),
    ],
)
def test_a_carrier_is_checked_when_the_scenario_is_read(
    fighters: dict[str, Any], ship_class: str, problem: str
) -> None:
    data = scenario()
    data["ships"][0] = {**data["ships"][0], "fighters": fighters, "class": ship_class}
    data["fields"] = [] if ship_class != "capital" else data["fields"]
    if "key" in fighters:
        data["ships"].append({"key": "eye-1", "side": CYLONS, "name": "Eye 1", "at": "0101"})
    with pytest.raises(ScenarioError, match=problem):
        load_scenario(data)
