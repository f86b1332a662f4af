"""Reactions given live, with prompts that give nothing away (issue 14): a live side is asked
after every leg of every enemy move, the same way whatever its units could do; a reaction
it gives is carried out as a standing order that fires; a time-out holds fire."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, Refusal, clock
from ghillie.engine import replay
from ghillie.fairness.audit import audit
from ghillie.state import SPECTATOR
from tests.contract.harness import comparable

from .test_challenge import pid, said
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
T0 = "2026-12-01T20:00:00.000+00:00"
MOVE = {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]]}]}
HOLD = {"type": "react", "reaction": "hold"}
NEAR, FAR = [1000, 300], [3900, 100]  # the PaK within 1250 m of the tank's path, or not


def at(seconds: float) -> str:
    return clock.later(T0, seconds)


def live_game(pak_at: list[float], seed: int = 5, **extra: Any) -> Game:
    """The Germans decide live; the Soviets' T-34 stands at 1800, 700 (metres)."""
    scenario = {**SCENARIO, "width": 4000, "live": [GERMANS], "prompt_seconds": 20, **extra}
    game = Game.create(scenario, seed=seed)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": pak_at}, {"unit": "grenadiers", "at": [3900, 1400]}],
        },
        now=T0,
    )
    game.command(GERMANS, {"type": "ready"}, now=T0)
    game.command(SOVIETS, {"type": "ready"}, now=T0)
    game.command(GERMANS, {"type": "end_step"}, now=T0)
    return game


def seen(game: Game) -> str:
    return json.dumps([comparable(game.view(o)) for o in (SOVIETS, SPECTATOR)], sort_keys=True)


def where(game: Game, key: str) -> list[float]:
    return list(game.state.pieces[pid(game, key)].public["at"])


def test_a_live_side_is_asked_after_every_leg_whether_or_not_it_could_react() -> None:
    worlds = [live_game(NEAR), live_game(FAR)]
    for game in worlds:
        game.command(SOVIETS, MOVE, now=at(1))
    assert seen(worlds[0]) == seen(worlds[1])
    prompts = 0
    while worlds[0].state.window is not None:
        window = worlds[0].state.window
        assert window.name == "react"
        assert window.asks == (GERMANS,)
        assert window.limit == 20
        reaction = worlds[0].view(SOVIETS)["reaction"]
        assert reaction["limit"] == 20
        assert reaction["waiting_for"] == GERMANS
        assert worlds[0].view(SOVIETS)["status"][0] == "Germans are deciding whether to react."
        prompts += 1
        for game in worlds:
            game.command(GERMANS, HOLD, now=at(1 + prompts))
        assert seen(worlds[0]) == seen(worlds[1])
    assert prompts == 2  # legs = 2: the leg's end and the move's end
    assert worlds[1].state.window is None
    assert where(worlds[0], "t34_1") == [900, 700]


def test_a_move_in_two_legs_stops_the_visible_movers_at_half_the_visible_path() -> None:
    game = live_game(FAR)
    game.command(SOVIETS, MOVE, now=at(1))
    assert where(game, "t34_1") == [1350, 700]  # 900 m of path: 450 m, then a prompt
    # The tank is in view: both sides read where it paused (in inches: here one metre each).
    for side in (SOVIETS, GERMANS):
        assert said(game, side)[-1] == "T-34 (1): on the way, at 1350, 700."
    game.command(GERMANS, HOLD, now=at(2))
    assert where(game, "t34_1") == [900, 700]
    assert said(game, SOVIETS)[-1] == "T-34 (1): moved to 900, 700."


def test_legs_set_how_many_prompts_a_move_brings() -> None:
    game = live_game(FAR, legs=3)
    game.command(SOVIETS, MOVE, now=at(1))
    assert where(game, "t34_1") == [1500, 700]
    prompts = 0
    while game.state.window is not None:
        prompts += 1
        game.command(GERMANS, HOLD, now=at(1 + prompts))
    assert prompts == 3


@pytest.mark.parametrize("by", ["key", "id"])
def test_a_live_reaction_names_its_unit_and_target_by_key_or_by_id_alike(by: str) -> None:
    """Issue 25: a live ``react`` naming its unit by its scenario key passed the check (which
    reads keys and ids alike) and then failed where it was carried out (a KeyError: a 500
    over HTTP). Both names now lead to the same shot."""
    game = live_game(NEAR)
    game.command(SOVIETS, MOVE, now=at(1))
    pak, tank = pid(game, "pak"), pid(game, "t34_1")
    unit, target = ("pak", "t34_1") if by == "key" else (pak, tank)
    react = {"type": "react", "reaction": "ambush", "unit": unit, "target": target, "chance": 60}
    game.command(GERMANS, react, now=at(2))
    assert any(
        line.startswith("Ambush Fire from hiding: PaK 40 at T-34 (1)!")
        for line in said(game, SOVIETS)
    )
    assert game.state.pieces[pak].public["concealed"] is False


def test_a_live_ambush_at_a_prompt_reveals_and_fires_like_a_standing_order() -> None:
    game = live_game(NEAR)
    game.command(SOVIETS, MOVE, now=at(1))
    pak, tank = pid(game, "pak"), pid(game, "t34_1")
    react = {"type": "react", "reaction": "ambush", "unit": pak, "target": tank, "chance": 60}
    game.command(GERMANS, react, now=at(2))
    lines = said(game, SOVIETS)
    assert any(line.startswith("Ambush Fire from hiding: PaK 40 at T-34 (1)!") for line in lines)
    assert game.state.pieces[pak].public["concealed"] is False
    assert game.state.known(SOVIETS, pak).level.name == "IDENTIFIED"
    # The order it was carried out as was opened to the Soviets, with its words.
    opened = json.dumps(game.view(SOVIETS))
    assert "PaK 40: Ambush Fire at T-34 (1), given live, base chance 60%" in opened
    window = game.state.window
    assert window is not None
    if tank in game.state.pieces:
        assert window.name == "return_fire"
        game.command(SOVIETS, {"type": "return_fire", "fire": False}, now=at(3))
        window = game.state.window
        assert window is not None
    assert window.name == "retreat"
    game.command(GERMANS, {"type": "retreat", "path": []}, now=at(4))
    # The walk goes on to the move's end, and the last prompt comes.
    window = game.state.window
    assert window is not None
    assert window.name == "react"
    if tank in game.state.pieces:
        assert where(game, "t34_1") == [900, 700]
    game.command(GERMANS, HOLD, now=at(5))
    assert game.state.window is None
    assert game.state.board.walk is None


def test_a_time_out_holds_fire_and_the_move_goes_on() -> None:
    game = live_game(NEAR)
    game.command(SOVIETS, MOVE, now=at(1))
    early = _unchanged(game, lambda: game.time_out(now=at(20)))
    assert early.code == "time_not_up"
    game.time_out(now=at(21))
    assert said(game, SOVIETS)[-2] == "Time ran out: Germans hold fire."
    assert where(game, "t34_1") == [900, 700]
    assert game.state.window is not None
    assert game.state.window.name == "react"
    game.time_out(now=at(42))
    assert game.state.window is None
    assert game.state.pieces[pid(game, "pak")].public["concealed"] is True
    game.command(SOVIETS, {"type": "end_step"}, now=at(43))  # the game goes on


def _unchanged(game: Game, attempt: Any) -> Refusal:
    before, log = game.state, game.events()
    with pytest.raises(Refusal) as caught:
        attempt()
    assert game.state == before
    assert game.events() == log
    return caught.value


@pytest.mark.parametrize(
    ("answer", "code"),
    [
        ({"reaction": "ambush", "unit": "pak"}, "out_of_range"),
        ({"reaction": "close_combat", "unit": "pak"}, "not_eligible"),  # a gun eats nothing
        ({"reaction": "close_combat", "unit": "grenadiers"}, "out_of_range"),
        ({"reaction": "challenge", "unit": "pak"}, "needs_zone"),
        ({"reaction": "ambush"}, "no_unit"),
    ],
)
def test_a_reaction_the_rules_forbid_is_refused_and_changes_nothing(
    answer: dict[str, Any], code: str
) -> None:
    game = live_game(FAR)
    game.command(SOVIETS, MOVE, now=at(1))
    given: dict[str, Any] = {"type": "react", "chance": 50, **answer}
    if "unit" in given:
        given["unit"] = pid(game, given["unit"])
        given["target"] = pid(game, "t34_1")
    refused = _unchanged(game, lambda: game.command(GERMANS, given, now=at(2)))
    assert refused.code == code
    if code == "needs_zone":
        assert refused.detail == (
            "Challenge Fire is taken at a zone given in advance: give it as a standing order."
        )


def test_an_ambusher_that_moved_is_not_eligible() -> None:
    game = live_game(NEAR)
    game.command(SOVIETS, MOVE, now=at(1))
    game.command(GERMANS, HOLD, now=at(2))
    game.command(GERMANS, HOLD, now=at(3))
    game.command(SOVIETS, {"type": "end_step"}, now=at(4))
    # The fire phase and turn 2: the Germans move the PaK, then the Soviets move again.
    game.command(SOVIETS, {"type": "end_step"}, now=at(5))
    game.command(GERMANS, {"type": "end_step"}, now=at(6))
    game.command(
        GERMANS, {"type": "move", "units": [{"unit": "pak", "path": [[1000, 320]]}]}, now=at(7)
    )
    game.command(GERMANS, {"type": "end_step"}, now=at(8))
    back = {"type": "move", "units": [{"unit": "t34_1", "path": [[1300, 700]]}]}
    game.command(SOVIETS, back, now=at(9))
    given = {
        "type": "react",
        "reaction": "ambush",
        "unit": pid(game, "pak"),
        "target": pid(game, "t34_1"),
        "chance": 50,
    }
    refused = _unchanged(game, lambda: game.command(GERMANS, given, now=at(10)))
    assert refused.code == "not_eligible"


def test_challenge_fire_live_with_the_switch_off_fires_at_a_target_in_the_open() -> None:
    game = live_game(NEAR, switches={"bmf.challenge_requires_zone": False})
    game.command(SOVIETS, MOVE, now=at(1))
    given = {
        "type": "react",
        "reaction": "challenge",
        "unit": pid(game, "pak"),
        "target": pid(game, "t34_1"),
        "chance": 50,
    }
    game.command(GERMANS, given, now=at(2))
    assert any(line.startswith("Challenge Fire from PaK 40") for line in said(game, SOVIETS))
    assert game.state.window is not None
    assert game.state.window.name == "return_fire"


SCOUTS = {
    "key": "scouts",
    "side": "soviets",
    "name": "Scouts",
    "class": "infantry",
    "diet": "omnivore",
    "concealed": True,
}
WOOD = {
    "name": "the far wood",
    "kind": "woods",
    "outline": [[1500, 1000], [2000, 1000], [2000, 1400], [1500, 1400]],
    "conceals": True,
}


def test_a_concealed_movers_crossings_are_told_whole_at_the_moves_end() -> None:
    scenario = {
        **SCENARIO,
        "width": 4000,
        "live": [GERMANS],
        "units": [*SCENARIO["units"], SCOUTS],
        "terrain": [*SCENARIO["terrain"], WOOD],
    }
    game = Game.create(scenario, seed=5)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": FAR}, {"unit": "grenadiers", "at": [3900, 1400]}],
        },
        now=T0,
    )
    game.command(GERMANS, {"type": "ready"}, now=T0)
    game.command(
        SOVIETS, {"type": "conceal", "units": [{"unit": "scouts", "at": [1900, 1100]}]}, now=T0
    )
    game.command(SOVIETS, {"type": "ready"}, now=T0)
    game.command(GERMANS, {"type": "end_step"}, now=T0)
    move = {
        "type": "move",
        "units": [
            {"unit": "t34_1", "path": [[1400, 700]]},  # 400 m: a pause after 200 m
            # From the wood across the open and back into it, far longer than the T-34.
            {"unit": "scouts", "path": [[1900, 900], [800, 900], [1600, 1100]]},
        ],
    }
    game.command(SOVIETS, move, now=at(1))
    assert where(game, "t34_1") == [1600, 700]  # the visible path's half, not the Scouts'
    assert not any(line.startswith("Seen crossing") for line in said(game, GERMANS))
    game.command(GERMANS, HOLD, now=at(2))
    crossings = [line for line in said(game, GERMANS) if line.startswith("Seen crossing")]
    assert crossings == ["Seen crossing open ground: infantry, from 1900, 1000 to 1500, 1075."]
    game.command(GERMANS, HOLD, now=at(3))
    assert game.state.window is None
    assert replay(game.state.ruleset, game.scenario, game.events()) == game.state


def test_a_game_with_a_live_ambush_and_a_time_out_passes_the_audit() -> None:
    game = live_game(NEAR)
    game.command(SOVIETS, MOVE, now=at(1))
    pak, tank = pid(game, "pak"), pid(game, "t34_1")
    react = {"type": "react", "reaction": "ambush", "unit": pak, "target": tank, "chance": 60}
    game.command(GERMANS, react, now=at(2))
    answers = {
        "return_fire": {"type": "return_fire", "fire": False},
        "retreat": {"type": "retreat", "path": []},
    }
    while game.state.window is not None and game.state.window.name != "react":
        window = game.state.window
        assert window.awaiting is not None
        game.command(window.awaiting, answers[window.name], now=at(3))
    game.time_out(now=at(30))  # the last prompt: the time runs out
    assert game.state.window is None
    game.command(GERMANS, {"type": "end_game"}, now=at(31))
    report = audit(game.record())
    assert report.ok, report.findings
