"""BMF-R01: "Challenge fire is taken when a target moves from one concealed position to
another." The test ground's tanks wait in the orchard (1750..1900, 650..750) and the farm
beyond the gap (860..960, 660..740) conceals too; the PaK challenges the gap at x = 1000."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game

from .test_challenge import GERMANS, PAK_AT_THE_GAP, SOVIETS, said
from .test_scenario import SCENARIO

CHALLENGED = "Challenge Fire from PaK 40 at T-34 (1)"


def game_with_the_tank_at(start: list[float] | None, **extra: Any) -> Game:
    """The Germans concealed, the PaK's order at the gap, the tank where ``start`` says (the
    scenario's own place, in the orchard, if None); the Soviets to move."""
    units = [
        {**u, "at": start} if u["key"] == "t34_1" and start is not None else u
        for u in SCENARIO["units"]
    ]
    game = Game.create({**SCENARIO, "units": units, **extra}, seed=3)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [200, 200]}],
        },
    )
    game.command(GERMANS, {"type": "ready", "orders": [PAK_AT_THE_GAP]})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    return game


def drive(start: list[float] | None, to: list[float]) -> list[str]:
    game = game_with_the_tank_at(start)
    seen = len(game.events())
    game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [to]}]})
    return said(game, SOVIETS, seen)


@pytest.mark.spec("BMF-R01")
def test_bmf_r01_a_tank_from_the_orchard_to_the_farm_is_challenged_at_the_gap() -> None:
    assert any(line.startswith(CHALLENGED) for line in drive(None, [900, 700]))


@pytest.mark.spec("BMF-R01")
@pytest.mark.parametrize(
    ("start", "to"),
    [
        ([1500, 700], [900, 700]),  # from the open, across the gap, into the farm
        (None, [800, 700]),  # from the orchard, across the gap, to the open beyond the farm
        ([1500, 700], [800, 700]),  # open to open
    ],
)
def test_bmf_r01_a_move_that_does_not_run_between_cover_is_not_challenged(
    start: list[float] | None, to: list[float]
) -> None:
    lines = drive(start, to)
    assert not any("Challenge Fire" in line for line in lines)
    assert lines[-1].startswith("T-34 (1): moved to")


@pytest.mark.spec("BMF-R01")
def test_bmf_r01_a_move_resumed_after_a_pause_is_the_same_move_from_the_same_start() -> None:
    """A live side is asked halfway (the tank pauses in the open, 1350, 700): the rest of
    the walk starts in the open, but the move this turn started in the orchard and ends in
    the farm, so the PaK's order still fires at the gap."""
    game = game_with_the_tank_at(None, live=[GERMANS], legs=2)
    game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]]}]})
    assert said(game, SOVIETS)[-1] == "T-34 (1): on the way, at 1350, 700."
    seen = len(game.events())
    game.command(GERMANS, {"type": "react", "reaction": "hold"})
    assert any(line.startswith(CHALLENGED) for line in said(game, SOVIETS, seen))
