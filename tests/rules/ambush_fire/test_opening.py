"""When in the turn the standing Ambush Fire and Ambush Close Combat orders fire (RULES-SPEC
BMF-A17, ``bmf.ambush_timing``): during the enemy's movement and, for those still waiting,
at the start of the fire phase (DEFAULT), or only at the start of the fire phase."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game

from .test_challenge import SECOND_TANK, column_move, pid, said
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"


def lying_in_wait(at: list[float], seed: int = 1, **switches: Any) -> Game:
    units = [*SCENARIO["units"], SECOND_TANK]
    game = Game.create({**SCENARIO, "units": units, "switches": switches}, seed=seed)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": at}],
        },
    )
    order = {"unit": "grenadiers", "reaction": "ambush"}
    game.command(
        GERMANS, {"type": "ready", "orders": [{**order, "trigger": {"within": 150}, "chance": 40}]}
    )
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})  # the Germans move first: they stay put
    return game


@pytest.mark.spec("BMF-A17")
def test_bmf_a17_by_default_an_order_still_waiting_fires_at_the_start_of_the_fire_phase() -> None:
    # 120 m from the T-34, which never moves: nothing sets it off during the movement...
    game = lying_in_wait([1800, 820])
    seen = len(game.events())
    game.command(SOVIETS, {"type": "end_step"})
    lines = said(game, SOVIETS, seen)
    # ... and the fire phase opens with it, before anyone fires normally.
    assert lines[0] == "The fire phase: Soviets fire first."
    assert lines[1].startswith("Ambush Fire from hiding: Grenadiers at T-34 (1)!")
    assert game.state.window is not None


@pytest.mark.spec("BMF-A17")
def test_bmf_a17_by_default_an_ambush_fires_during_the_move() -> None:
    game = lying_in_wait([1000, 820])
    game.command(SOVIETS, column_move())
    assert any(
        line.startswith("Ambush Fire from hiding: Grenadiers") for line in said(game, SOVIETS)
    )


@pytest.mark.spec("BMF-A17")
def test_bmf_a17_fire_phase_timing_the_order_waits_for_the_fire_phase() -> None:
    game = lying_in_wait([1000, 820], **{"bmf.ambush_timing": "fire_phase"})
    seen = len(game.events())
    game.command(SOVIETS, column_move())
    # The column drives past untouched...
    assert said(game, SOVIETS, seen) == [
        "T-34 (1): moved to 900, 700.",
        "T-34 (2): moved to 950, 700.",
    ]
    assert game.state.window is None
    seen = len(game.events())
    game.command(SOVIETS, {"type": "end_step"})
    lines = said(game, SOVIETS, seen)
    # ... and at the start of the fire phase the order fires at the tank then within 150 m
    # (T-34 (2), 130 m off; T-34 (1) is 156 m off).
    assert lines[1].startswith("Ambush Fire from hiding: Grenadiers at T-34 (2)!")
    window = game.state.window
    assert window is not None
    # When its windows are answered, normal fire follows: the Soviets fire first.
    if window.name == "return_fire":
        game.command(SOVIETS, {"type": "return_fire"})
    if game.state.window is not None:
        game.command(GERMANS, {"type": "retreat"})
    assert game.state.window is None
    assert game.state.board.moving == SOVIETS
    assert not [p for p in game.state.pieces.values() if p.kind == "order"]


@pytest.mark.spec("BMF-A17")
def test_bmf_a17_an_order_with_no_target_in_reach_at_the_fire_phase_keeps_waiting() -> None:
    game = lying_in_wait([200, 200], **{"bmf.ambush_timing": "fire_phase"})
    game.command(SOVIETS, column_move())
    seen = len(game.events())
    game.command(SOVIETS, {"type": "end_step"})
    assert said(game, SOVIETS, seen) == ["The fire phase: Soviets fire first."]
    assert game.state.window is None
    order = [p for p in game.state.pieces.values() if p.kind == "order"]
    assert len(order) == 1
    assert pid(game, "grenadiers") in game.state.pieces


@pytest.mark.spec("BMF-A17")
@pytest.mark.spec("BMF-R15")
def test_bmf_a17_a_close_combat_order_strikes_at_the_start_of_the_fire_phase() -> None:
    units = [*SCENARIO["units"], SECOND_TANK]
    game = Game.create({**SCENARIO, "units": units}, seed=2)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [
                {"unit": "pak", "at": [1000, 300]},
                {"unit": "grenadiers", "at": [1800, 740]},
            ],
        },
    )
    order = {"unit": "grenadiers", "reaction": "close_combat"}
    game.command(GERMANS, {"type": "ready", "orders": [{**order, "trigger": {}, "chance": 45}]})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    seen = len(game.events())
    game.command(SOVIETS, {"type": "end_step"})  # the T-34s never moved
    lines = said(game, SOVIETS, seen)
    # 40 m from T-34 (1), within its 50 m reach; T-34 (2), 64 m off, is not.
    assert lines[1].startswith("Ambush Close Combat: Grenadiers out of cover in a dash at T-34 (1)")
