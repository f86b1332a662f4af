"""Ships leave the board at an edge hex and come back onto it (BSG-R04, R05, R06, R27).

A plotted move may end across the map edge: the ship is off the board, and a side that saw
it go knows that much. A later plot brings it back at an edge hex. The map is 42 × 30; the
basestar at 1010 generates a radius-3 field with the scout Eye inside at 1112; Galactica
waits in the open at 1030, on the bottom edge.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.fairness.audit import audit
from tests.contract.harness import comparable

from . import turns
from .turns import both_end_phase

CYLONS, COLONIALS = "cylons", "colonials"


def scenario(basestar: str = "1010", eye: str = "1112") -> dict[str, Any]:
    return {
        "ruleset": "ambush-fields",
        "title": "Ragnar anchorage",
        "mode": "map",
        "sides": [{"id": CYLONS, "name": "Cylons"}, {"id": COLONIALS, "name": "Colonials"}],
        "map": {"columns": 42, "rows": 30},
        "ships": [
            {"key": "basestar", "side": CYLONS, "name": "Basestar", "at": basestar},
            {"key": "eye", "side": CYLONS, "name": "Eye", "class": "scout", "at": eye},
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


def next_movement(game: Game) -> None:
    """From the end of one Movement Phase to the next one."""
    both_end_phase(game)
    both_end_phase(game)
    assert game.view(CYLONS)["board"]["step"] == "movement"


def plot(game: Game, side: str, ship: str, to: str, **move: Any) -> None:
    game.command(side, {"type": "plot", "moves": [{"ship": ship, "to": to, **move}]})


def own(game: Game, side: str, key: str) -> dict[str, Any]:
    return next(p for p in game.view(side)["pieces"] if p["secret"].get("key") == key)


def known_ships(game: Game, side: str) -> list[dict[str, Any]]:
    return [k for k in game.view(side)["known"] if k["kind"] == "ship"]


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


@pytest.mark.spec("BSG-R05", "BSG-R06")
def test_a_hidden_ship_leaves_unseen_and_comes_back_identified_outside_the_field() -> None:
    game = at_movement()
    plot(game, CYLONS, "eye", "0112", leave=True, speed=10)
    both_end_phase(game)
    eye = own(game, CYLONS, "eye")
    assert eye["public"]["at"] is None
    assert (eye["public"]["off_board"], eye["public"]["left_from"]) == (True, "0112")
    assert texts(game, CYLONS, "left_board") == ["Eye leaves the board at hex 0112."]
    assert texts(game, COLONIALS, "left_board") == []
    assert known_ships(game, COLONIALS) == []
    next_movement(game)
    plot(game, CYLONS, "eye", "0112")
    both_end_phase(game)
    (seen,) = known_ships(game, COLONIALS)
    assert (seen["facts"]["name"], seen["public"]["at"]) == ("Eye", "0112")
    assert "off_board" not in own(game, CYLONS, "eye")["public"]
    # It came from off the board, not out of the field: no partial information (R16).
    field = next(p.id for p in game.state.pieces.values() if p.kind == "field")
    assert not game.state.board.has_pi(COLONIALS, field)
    assert texts(game, COLONIALS, "entered_board") == []  # a ship it never saw: no return


@pytest.mark.spec("BSG-R05", "BSG-R06")
def test_a_hidden_ship_coming_back_inside_its_field_stays_hidden() -> None:
    # The basestar at 1003: its field reaches the top edge (row 1).
    game = at_movement(scenario(basestar="1003", eye="1104"))
    plot(game, CYLONS, "eye", "1101", leave=True)
    both_end_phase(game)
    next_movement(game)
    plot(game, CYLONS, "eye", "1001")
    both_end_phase(game)
    assert own(game, CYLONS, "eye")["public"]["at"] == "1001"
    assert known_ships(game, COLONIALS) == []


@pytest.mark.spec("BSG-R10", "BSG-R11")
def test_a_ship_the_enemy_sees_is_seen_to_leave_and_to_come_back() -> None:
    game = at_movement()
    plot(game, COLONIALS, "galactica", "1030", leave=True, speed=1)
    both_end_phase(game)
    assert texts(game, CYLONS, "left_board") == ["Galactica leaves the board at hex 1030."]
    (galactica,) = known_ships(game, CYLONS)
    assert galactica["level"] == "identified"
    assert galactica["public"]["at"] is None
    assert galactica["public"]["off_board"] is True
    next_movement(game)
    plot(game, COLONIALS, "galactica", "0130", heading="B", speed=2)
    both_end_phase(game)
    assert texts(game, CYLONS, "entered_board") == [
        "Galactica comes back onto the board at hex 0130."
    ]
    assert known_ships(game, CYLONS)[0]["public"]["at"] == "0130"
    assert texts(game, COLONIALS, "entered_board") == [
        "Galactica comes back onto the board at hex 0130."
    ]


def test_a_ship_leaves_and_comes_back_only_at_an_edge_hex() -> None:
    game = at_movement()
    assert refused(game, CYLONS, _plot("eye", "1112", leave=True)) == "not_an_edge"
    game.command(CYLONS, _plot("eye", "0112", leave=True))
    game.command(COLONIALS, _plot("galactica", "1030", leave=True))
    both_end_phase(game)
    next_movement(game)
    assert refused(game, CYLONS, _plot("eye", "0512")) == "not_an_edge"
    assert refused(game, CYLONS, _plot("eye", "0112", leave=True)) == "off_board"
    assert refused(game, CYLONS, {"type": "scan", "ships": ["eye"]}) == "off_board"
    assert refused(game, COLONIALS, {"type": "launch", "carrier": "galactica"}) == "off_board"


def _plot(ship: str, to: str, **move: Any) -> dict[str, Any]:
    return {"type": "plot", "moves": [{"ship": ship, "to": to, **move}]}


@pytest.mark.spec("BSG-R04", "BSG-R06", "BSG-A11")
def test_a_controller_that_leaves_takes_its_field_along() -> None:
    game = at_movement(dice=[])
    plot(game, CYLONS, "basestar", "1001", leave=True, speed=9)
    game.command(COLONIALS, {"type": "scan", "ships": ["galactica"]})
    both_end_phase(game)
    # The Eye is left in the open: identified where it is (R06). No field is on the board,
    # so Galactica rolls nothing and reads "no contact" (no dice were scripted).
    assert [k["facts"]["name"] for k in known_ships(game, COLONIALS)] == ["Eye"]
    assert texts(game, COLONIALS, "scan") == ["Galactica scans: no contact."]
    both_end_phase(game)
    game.command(CYLONS, {"type": "drop_field", "field": "veil"})  # nothing left to reveal
    assert [k["facts"]["name"] for k in known_ships(game, COLONIALS)] == ["Eye"]


def test_a_controller_lost_off_the_board_drops_its_field_quietly() -> None:
    game = at_movement()
    plot(game, CYLONS, "basestar", "1001", leave=True)
    both_end_phase(game)
    game.command(CYLONS, {"type": "destroyed", "ship": "basestar"})
    both_end_phase(game)  # segment 10
    field = next(p for p in game.state.pieces.values() if p.kind == "field")
    assert field.secret["active"] is False
    game.command(CYLONS, {"type": "end_game"})
    report = audit(game.record())
    assert report.ok, report.findings


@pytest.mark.spec("BSG-R05")
def test_two_worlds_a_hidden_ship_leaving_looks_like_one_staying() -> None:
    a, b = at_movement(), at_movement()
    plot(a, CYLONS, "eye", "0112", leave=True, note="slipping away")
    plot(b, CYLONS, "eye", "1111", note="holding on")
    for step in (lambda g: None, both_end_phase, next_movement):
        step(a)
        step(b)
        for watcher in (COLONIALS, "spectator"):
            assert comparable(a.view(watcher)) == comparable(b.view(watcher))
    assert "slipping" not in json.dumps(a.view(COLONIALS))
