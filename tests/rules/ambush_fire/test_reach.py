"""BMF-R15, BMF-T08: an Ambush Close Combat reaches half the attacker's running distance
over the ground its dash crosses — the grenadiers run 100 m a turn in the open and 50 m in
woods — and an attack its dash cannot reach is not made: a standing order does not fire
where the woods would stop it short, and a live one is refused. A dash blocked by
impassable ground within reach is made and fails (test_close_combat: T08's third case)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ghillie import Game, Refusal
from ghillie.rules.ambush_fire import geometry, reach, triggers

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


# Woods, a hedge over them, a marsh, a ditch inside a wood: edges to run along, corners to
# run through, overlaps to cost at the slowest ground.
TANGLE = [
    geometry.Area("the wood", "woods", ((0, 0), (20, 0), (20, 20), (0, 20))),
    geometry.Area("the hedge", "hedge", ((10, 10), (40, 10), (40, 30), (10, 30))),
    geometry.Area("the marsh", "marsh", ((50, 0), (60, 0), (60, 30), (50, 30)), impassable=True),
    geometry.Area("the copse", "woods", ((25, -20), (45, -20), (35, 5)), conceals=True),
    geometry.Area("the spinney", "woods", ((0, 40), (30, 40), (30, 60), (0, 60))),
    geometry.Area("the ditch", "ditch", ((5, 45), (15, 45), (15, 55), (5, 55))),
]
PACES = {"open": 100.0, "woods": 50.0, "hedge": 60.0}
# Places on a 5 m grid (on edges and corners) or anywhere.
PLACES = st.one_of(
    st.tuples(st.integers(-2, 14), st.integers(-2, 14)).map(lambda p: (5.0 * p[0], 5.0 * p[1])),
    st.tuples(st.integers(-10_000, 70_000), st.integers(-10_000, 70_000)).map(
        lambda p: (p[0] / 1000, p[1] / 1000)  # anywhere, to the millimetre
    ),
)


@pytest.mark.spec("BMF-R15")
@pytest.mark.spec("BMF-T08")
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(PLACES, PLACES), min_size=1, max_size=8))
# Exactly 50 m from the marsh, grazing the copse's point: a hair of wood either way.
@example([((55.0, 20.0), (15.0, -10.0))])
def test_bmf_r15_every_dash_looked_at_alike_is_costed_as_the_rule_says(
    dashes: list[tuple[geometry.XY, geometry.XY]],
) -> None:
    """The dashes every order's look costs at once (edges near its firer, the ground cut into
    cells where areas overlap) reach where one dash measured stretch by stretch does: along
    an edge at the wood's pace, through a corner, across a marsh at the other ground's pace."""
    ground = geometry.Ground(200, 200, TANGLE)
    paces = tuple(PACES.items())
    orders = [
        triggers.Order(str(i), i, "close_combat", start, running=100.0, paces=paces)
        for i, (start, _) in enumerate(dashes)
    ]
    ends = [end for _, end in dashes]
    found = reach.reached_each(orders, ends, ground, 50.0)
    for i, (start, _) in enumerate(dashes):
        for j, end in enumerate(ends):
            # Lengths within EPS count as equal (the geometry's notes): 50.00000001 is 50.
            near = math.dist(start, end) <= 50.0 + geometry.EPS
            assert found[i, j] == (near and geometry.reaches(start, end, PACES, ground))
