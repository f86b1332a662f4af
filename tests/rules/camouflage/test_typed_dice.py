"""Typed dice in camouflage (issue 24, finding 5): the side that gives a command types in only
its own troopers' dice — a Face to Face die is its roller's, and ghillie rolls the other
side's — every side reads who typed which, and a map game takes none unless it says so."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from ghillie import Game, Refusal, examples
from ghillie.state import SPECTATOR
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
    second,
)
from .test_red_team import both, worlds

SHOTGUN = {"weapon": "Boarding Shotgun", "burst": 2, "range_mod": 6, "ps": 6}
COMBI = {"weapon": "Combi Rifle", "burst": 1, "range_mod": 3, "ps": 5}


def face_to_face(game: Game | None = None) -> Game:
    """INF-T01 up to the roll: the Caliban's Burst 2 against the Fusilier's Burst 1."""
    game = game or deployed()
    fusilier = pid(game, "fusilier")
    order(game, NOMADS, marker_of(game, "caliban"), {"skill": "move"})
    aros(game, PANO, {"piece": fusilier, "aro": "delay"})
    attack = {"skill": "bs_attack", "target": fusilier, "measured": measured(6)}
    second(game, NOMADS, {**attack, "attack": SHOTGUN})
    aro = {"piece": fusilier, "aro": "bs_attack", "measured": measured(10), "attack": COMBI}
    aros(game, PANO, aro)
    return game


@pytest.mark.spec("INF-T01")
def test_the_opponents_face_to_face_die_typed_by_the_active_side_is_refused() -> None:
    game = face_to_face()
    # The Caliban's two dice and the Fusilier's: the third is PanOceania's.
    refusal = refused(game, NOMADS, {"type": "resolve_order", "rolls": {"dice": [5, 11, 8]}})
    assert refusal.code == "not_your_die"
    assert refusal.field == "rolls.dice"
    assert "ghillie rolls the other side's" in refusal.detail
    # The trial the server makes before asking any page refuses it the same way.
    with pytest.raises(Refusal) as tried:
        game.trial(NOMADS, {"type": "resolve_order", "rolls": {"dice": [5, 11, 8]}})
    assert tried.value.code == "not_your_die"


@pytest.mark.spec("INF-T01")
def test_own_dice_typed_in_are_taken_and_every_side_reads_who_typed_them() -> None:
    game = face_to_face()
    with ghillie_rolls(game, 8):  # the Fusilier's die: ghillie's to roll
        event = game.command(NOMADS, {"type": "resolve_order", "rolls": {"dice": [5, 11]}})
    assert [(r.face, r.entered, r.by) for r in event.rolls] == [
        (5, True, NOMADS),
        (11, True, NOMADS),
        (8, False, None),
    ]
    typed = "Nomads typed in 2 dice rolled at the table: 5, 11."
    for observer in (NOMADS, PANO, SPECTATOR):
        lines = last_said(game, observer)
        assert lines[0].startswith("Face to Face Roll: Caliban rolls 5, 11 needing 17")
        assert lines[-1] == typed, observer
    # The referee's log names the typer of each die; ghillie's own has none.
    rolls = view(game, "referee")["log"][-1]["rolls"]
    assert [r.get("by") for r in rolls] == [NOMADS, NOMADS, None]


@pytest.mark.spec("INF-T01")
def test_the_reactive_side_types_its_own_saving_rolls() -> None:
    game = face_to_face()
    with ghillie_rolls(game, 8):
        game.command(NOMADS, {"type": "resolve_order", "rolls": {"dice": [5, 11]}})
    event = game.command(PANO, {"type": "saving_rolls", "rolls": {"dice": [12]}})
    assert [(r.face, r.by) for r in event.rolls] == [(12, PANO)]
    assert last_said(game, NOMADS)[-1] == "PanOceania typed in 1 die rolled at the table: 12."


@pytest.mark.spec("INF-R10")
def test_a_typed_die_too_many_is_refused_the_same_whatever_the_marker_hides() -> None:
    """A Discover of the marker that is the Zondbot in one world and the mine in the other:
    one die is PanOceania's; a second typed in is refused alike in both."""
    a, b = worlds()
    end_turn(a, NOMADS)
    end_turn(b, NOMADS)
    x = marker_of(a, "zondbot")
    fusilier = pid(a, "fusilier")
    for side, command in (
        (
            PANO,
            {
                "type": "first_skill",
                "piece": fusilier,
                "skill": {"skill": "discover", "target": x, "measured": measured(6)},
            },
        ),
        (NOMADS, {"type": "aros", "aros": []}),
        (PANO, {"type": "second_skill", "skill": {"skill": "idle"}}),
        (NOMADS, {"type": "aros", "aros": []}),
    ):
        assert both(a, b, side, command) == ("accepted",)
    got = both(a, b, PANO, {"type": "resolve_order", "rolls": {"dice": [20, 20]}})
    assert got[:2] == ("refused", "not_your_die")


def _scenario(name: str, **top: Any) -> dict[str, Any]:
    data = copy.deepcopy(examples.data(name))
    data.update(top)
    return data


def _discovering(game: Game) -> Game:
    """A Nomad marker placed on the map; PanOceania's Seraph is about to Discover it."""
    game.command(
        NOMADS,
        {
            "type": "deploy",
            "markers": [
                {"piece": "caliban", "at": [22, 10]},
                {"piece": "zondbot", "at": [34, 20]},
                {"piece": "mine", "at": [20, 30]},
            ],
        },
    )
    game.command(PANO, {"type": "deploy", "markers": [{"piece": "croc_man", "at": [12, 34]}]})
    end_turn(game, NOMADS)
    seraph = pid(game, "seraph")
    mine = marker_of(game, "mine")
    order(game, PANO, seraph, {"skill": "discover", "target": mine})
    aros(game, NOMADS)
    second(game, PANO, {"skill": "idle"})
    aros(game, NOMADS)
    return game


def test_a_map_game_takes_no_typed_dice_by_default() -> None:
    game = _discovering(Game.create(examples.data("camouflage"), seed=5))
    assert view(game, PANO)["typed_dice"] is False
    refusal = refused(game, PANO, {"type": "resolve_order", "rolls": {"dice": [14]}})
    assert refusal.code == "no_typed_dice"
    assert refusal.detail == "In this game ghillie rolls every die: type none in."
    game.command(PANO, {"type": "resolve_order"})  # ghillie rolls it


def test_a_map_game_may_take_typed_dice_and_a_table_game_may_refuse_them() -> None:
    game = _discovering(Game.create(_scenario("camouflage", typed_dice=True), seed=5))
    assert view(game, PANO)["typed_dice"] is True
    event = game.command(PANO, {"type": "resolve_order", "rolls": {"dice": [14]}})
    assert [(r.face, r.by) for r in event.rolls] == [(14, PANO)]

    table = Game.create(_scenario("camouflage-table", typed_dice=False), seed=3)
    for side, keys in {NOMADS: ("caliban", "zondbot", "mine"), PANO: ("croc_man",)}.items():
        table.command(side, {"type": "deploy", "markers": [{"piece": k} for k in keys]})
    face_to_face(table)
    for observer in (NOMADS, PANO, SPECTATOR):
        assert view(table, observer)["typed_dice"] is False
    assert refused(table, NOMADS, {"type": "resolve_order", "rolls": {"dice": [5]}}).code == (
        "no_typed_dice"
    )


def test_a_table_game_takes_typed_dice_by_default() -> None:
    game = face_to_face()
    assert view(game, NOMADS)["typed_dice"] is True
    with ghillie_rolls(game, 8):
        game.command(NOMADS, {"type": "resolve_order", "rolls": {"dice": [5, 11]}})
    assert "Caliban hits Fusilier once." in last_said(game, PANO)
