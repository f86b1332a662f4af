"""BMF-R15, BMF-T08: an Ambush Close Combat reaches half the attacker's running distance
over the ground its dash crosses — the grenadiers run 100 m a turn in the open and 50 m in
woods — and an attack its dash cannot reach is not made: a standing order does not fire
where the woods would stop it short, and a live one is refused. A dash blocked by
impassable ground within reach is made and fails (test_close_combat: T08's third case)."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game, Refusal

from .test_challenge import SECOND_TANK, column_move, pid, said
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"


def thicket(top: float, bottom: float) -> dict[str, Any]:
    """A strip of woods (not concealing) across the grenadiers' way to the tanks' road."""
    return {
        "name": "the thicket",
        "kind": "woods",
        "outline": [[1000, top], [1500, top], [1500, bottom], [1000, bottom]],
    }


def waiting(at: list[float], terrain: list[dict[str, Any]], **extra: Any) -> Game:
    data = {
        **SCENARIO,
        "units": [*SCENARIO["units"], SECOND_TANK],
        "terrain": [*SCENARIO["terrain"], *terrain],
        **extra,
    }
    game = Game.create(data, seed=2)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": at}],
        },
    )
    orders = []
    if "live" not in extra:
        orders = [{"unit": "grenadiers", "reaction": "close_combat", "trigger": {}, "chance": 45}]
    game.command(GERMANS, {"type": "ready", "orders": orders})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    return game


@pytest.mark.spec("BMF-R15")
@pytest.mark.spec("BMF-T08")
def test_bmf_r15_a_dash_the_woods_keep_from_the_road_is_never_made() -> None:
    """25 m of woods is half a run already: no point of the road, 45 m off, is in reach,
    though the tanks pass within 50 m (the open-ground reach)."""
    game = waiting([1100, 745], [thicket(720, 745)])
    game.command(SOVIETS, column_move())
    lines = said(game, SOVIETS)
    assert not any("Ambush Close Combat" in line for line in lines)
    assert "T-34 (1): moved to 900, 700." in lines
    assert game.state.pieces[pid(game, "grenadiers")].public["concealed"] is True


@pytest.mark.spec("BMF-R15")
def test_bmf_r15_the_order_strikes_where_the_dash_over_the_ground_first_reaches() -> None:
    """5 m of woods, then open ground: the road at 50 m is out of reach (6.25 m of woods and
    43.75 m of open ground is 0.56 of a run), so the order waits until the lead tank is
    44.4 m off (0.5 of a run exactly), and the dash makes contact there."""
    game = waiting([1100, 740], [thicket(735, 740)])
    game.command(SOVIETS, column_move())
    lines = said(game, SOVIETS)
    attack = next(line for line in lines if line.startswith("Ambush Close Combat"))
    assert attack.startswith("Ambush Close Combat: Grenadiers out of cover in a dash at T-34 (1)!")
    grenadiers = game.state.pieces[pid(game, "grenadiers")].public["at"]
    assert grenadiers[1] == pytest.approx(700)
    assert grenadiers[0] == pytest.approx(1100 + ((400 / 9) ** 2 - 40**2) ** 0.5, abs=0.01)


@pytest.mark.spec("BMF-R15")
@pytest.mark.spec("BMF-T08")
def test_bmf_r15_a_live_close_combat_the_woods_put_out_of_reach_is_refused() -> None:
    """The lead tank pauses at 1350, 700, 45 m from the grenadiers: in reach in the open,
    out of it through 45 m of woods. Refused with the same words whatever is hidden."""
    react = {
        "type": "react",
        "reaction": "close_combat",
        "unit": "grenadiers",
        "target": "t34_1",
        "chance": 45,
    }
    woods = waiting([1350, 745], [thicket(700, 745)], live=[GERMANS], legs=2)
    woods.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]]}]})
    assert said(woods, SOVIETS)[-1] == "T-34 (1): on the way, at 1350, 700."
    before = woods.events()
    with pytest.raises(Refusal) as refused:
        woods.command(GERMANS, react)
    assert refused.value.code == "out_of_range"
    assert refused.value.detail == (
        "Its target is beyond its reach: half its running distance over the ground between them."
    )
    assert woods.events() == before
    open_ground = waiting([1350, 745], [], live=[GERMANS], legs=2)
    open_ground.command(
        SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]]}]}
    )
    open_ground.command(GERMANS, react)
    assert any(line.startswith("Ambush Close Combat") for line in said(open_ground, SOVIETS))
