"""BMF-A02's other reading (``bmf.close_combat = "strength"``): "a 10% reduction in
strength" in a host close combat by strength numbers is nine tenths of the defender's
strength, rounded with the host's rule (``bmf.strength_rounding``); the DEFAULT stays a
percent chance 10 points lower. Exact odds by enumeration of the d100."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from ghillie import Game
from ghillie.rules.ambush_fire.odds import ODDS, Shot
from ghillie.rules.ambush_fire.scenario import AmbushFireSwitches

from .test_challenge import SECOND_TANK, column_move, said
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
ROUNDED = {
    "half_up": lambda x: math.floor(x + Fraction(1, 2)),
    "down": math.floor,
    "up": math.ceil,
}


def by_hand(number: int) -> Fraction:
    return Fraction(sum(1 for face in range(1, 101) if face <= number), 100)


@pytest.mark.spec("BMF-A02")
@pytest.mark.parametrize("rounding", sorted(ROUNDED))
def test_bmf_a02_a_strength_number_is_nine_tenths_rounded_with_the_host_rule(
    rounding: str,
) -> None:
    sw = AmbushFireSwitches.model_validate(
        {"bmf.close_combat": "strength", "bmf.strength_rounding": rounding}
    )
    for strength in range(101):
        expected = by_hand(ROUNDED[rounding](Fraction(strength * 9, 10)))
        assert ODDS["defence"].check(Shot(chance=strength), sw).odds()["hit"] == expected


@pytest.mark.spec("BMF-A02")
def test_bmf_a02_the_default_is_still_ten_points_off_a_percent_chance() -> None:
    for chance in range(101):
        odds = ODDS["defence"].check(Shot(chance=chance), AmbushFireSwitches()).odds()
        assert odds["hit"] == by_hand(max(0, chance - 10))


def attacked(**switches: Any) -> Game | None:
    """The grenadiers' Ambush Close Combat at the lead tank, a seed where it survives and
    the Soviets are asked for their defence; None if no seed of the first 60 does."""
    for seed in range(60):
        data = {**SCENARIO, "units": [*SCENARIO["units"], SECOND_TANK], "switches": switches}
        game = Game.create(data, seed=seed)
        game.command(
            GERMANS,
            {
                "type": "conceal",
                "units": [
                    {"unit": "pak", "at": [1000, 300]},
                    {"unit": "grenadiers", "at": [1100, 745]},
                ],
            },
        )
        order = {"unit": "grenadiers", "reaction": "close_combat", "trigger": {}, "chance": 45}
        game.command(GERMANS, {"type": "ready", "orders": [order]})
        game.command(SOVIETS, {"type": "ready"})
        game.command(GERMANS, {"type": "end_step"})
        game.command(SOVIETS, column_move())
        window = game.state.window
        if window is not None and window.name == "return_fire":
            return game
    return None


@pytest.mark.spec("BMF-A02")
@pytest.mark.spec("BMF-R17")
@pytest.mark.parametrize(
    ("switches", "words"),
    [
        ({}, "(45%, 10 less for the surprise)"),
        ({"bmf.close_combat": "strength"}, "(strength 50: nine tenths of 55 for the surprise)"),
        (
            {"bmf.close_combat": "strength", "bmf.strength_rounding": "down"},
            "(strength 49: nine tenths of 55 for the surprise)",
        ),
    ],
)
def test_bmf_a02_the_defence_is_rolled_and_told_as_the_switch_reads_it(
    switches: dict[str, str], words: str
) -> None:
    game = attacked(**switches)
    assert game is not None
    game.command(SOVIETS, {"type": "return_fire", "fire": True, "chance": 55})
    defence = next(line for line in said(game, GERMANS) if line.startswith("The defence of"))
    assert words in defence
