"""When a standing order fires during an enemy move (issue 14; RULES-SPEC BMF-R01, R06,
R08, A04, A19, BMF-T02)."""

from __future__ import annotations

import pytest

from ghillie.rules.ambush_fire.geometry import Area, Ground
from ghillie.rules.ambush_fire.triggers import Mover, Order, first_fired, when

WOOD = Area("the wood", "woods", ((0, 0), (400, 0), (400, 1000), (0, 1000)), conceals=True)
TOWN = Area("the town", "town", ((600, 0), (1000, 0), (1000, 1000), (600, 1000)), conceals=True)
GROUND = Ground(2000, 1000, (WOOD, TOWN))
GAP = Order(
    "o1", 1, "challenge", firer=(500, 900), zone=((500, 400), (500, 600)), target_class="vehicle"
)


def tank(key: str, y: float, behind: float = 0) -> Mover:
    """A tank driving east from the wood to the town, through the gap at x = 500."""
    return Mover(key, "vehicle", ((300 - behind, y), (800, y)))


@pytest.mark.spec("BMF-R01")
@pytest.mark.spec("BMF-A04")
def test_bmf_r01_a04_challenge_fire_takes_a_mover_exposed_in_its_zone() -> None:
    crossing = when(GAP, tank("t1", 500), GROUND)
    assert crossing is not None
    assert crossing.point == pytest.approx((500, 500))
    # Outside the zone (the gap spans y 400-600), or not of the class ordered: no fire.
    assert when(GAP, tank("t1", 700), GROUND) is None
    assert when(GAP, Mover("i1", "infantry", ((300, 500), (800, 500))), GROUND) is None


@pytest.mark.spec("BMF-R01")
def test_bmf_r01_a_mover_that_stays_in_cover_is_never_challenged() -> None:
    covered = Ground(
        2000,
        1000,
        (Area("the forest", "woods", ((0, 0), (2000, 0), (2000, 1000), (0, 1000)), conceals=True),),
    )
    assert when(GAP, tank("t1", 500), covered) is None


@pytest.mark.spec("BMF-T02")
@pytest.mark.spec("BMF-A19")
def test_bmf_t02_the_first_tank_of_the_column_through_the_gap_draws_the_fire() -> None:
    column = [tank("t3", 500, behind=60), tank("t1", 500), tank("t2", 500, behind=30)]
    fired = first_fired([GAP], column, GROUND)
    assert fired is not None
    assert (fired.order, fired.target) == ("o1", "t1")


@pytest.mark.spec("BMF-R08")
def test_bmf_r08_an_ambush_order_fires_at_the_first_enemy_within_its_distance_and_range() -> None:
    ambush = Order("o2", 2, "ambush", firer=(1500, 500), within=800)
    fired = first_fired([ambush], [tank("t1", 500)], GROUND)
    assert fired is not None
    assert fired.point[0] == pytest.approx(700, abs=1.0)  # the first point 800 m from it
    near = Order("o4", 4, "ambush", firer=(1500, 500), within=400)
    assert first_fired([near], [tank("t1", 500)], GROUND) is None  # it stops 700 m away
    far = Order("o3", 3, "ambush", firer=(1500, 500), within=1300)
    assert first_fired([far], [Mover("t9", "vehicle", ((100, 500), (150, 500)))], GROUND) is None
    # ... beyond 1250 m: no Ambush Fire, whatever the order says.


def test_of_two_orders_the_one_whose_trigger_comes_first_fires_then_the_earlier_given() -> None:
    late = Order("late", 9, "challenge", firer=(500, 900), zone=((450, 400), (450, 600)))
    fired = first_fired([GAP, late], [tank("t1", 500)], GROUND)
    assert fired is not None
    assert fired.order == "late"  # x = 450 comes before x = 500 on the way east
    twin = Order("twin", 0, "challenge", firer=(500, 900), zone=((500, 400), (500, 600)))
    assert first_fired([GAP, twin], [tank("t1", 500)], GROUND).order == "twin"  # type: ignore[union-attr]


def test_bmf_s2_an_ambush_waits_for_a_concealed_mover_to_leave_cover() -> None:
    ambush = Order("o2", 2, "ambush", firer=(200, 500), within=250)
    scouts = Mover("s1", "infantry", ((100, 500), (800, 500)), concealed=True)
    crossing = when(ambush, scouts, GROUND)
    # In view it would fire at once (100 m off); concealed, only where it leaves the wood.
    assert when(ambush, Mover("s1", "infantry", scouts.path), GROUND) is not None
    assert crossing is not None
    assert crossing.point == pytest.approx((400, 500))


@pytest.mark.spec("BMF-A04")
def test_bmf_a04_with_no_zone_required_challenge_fire_takes_the_first_exposed_point() -> None:
    bare = Order("o3", 3, "challenge", firer=(500, 700), target_class="vehicle")
    assert when(bare, tank("t1", 500), GROUND) is None  # DEFAULT: no zone, no fire
    anywhere = Order("o3", 3, "challenge", firer=(500, 700), needs_zone=False)
    crossing = when(anywhere, tank("t1", 500), GROUND)
    assert crossing is not None  # within 1250 m: where it leaves the wood
    assert crossing.point == pytest.approx((400, 500))
    near = Order("o3", 3, "challenge", firer=(500, 700), within=210, needs_zone=False)
    crossing = when(near, tank("t1", 500), GROUND)
    assert crossing is not None  # the first exposed point within 210 m
    assert crossing.point == pytest.approx((436, 500), abs=1)
    # Never in cover: a mover that stays in the town is not taken.
    assert when(anywhere, Mover("t2", "vehicle", ((700, 500), (900, 500))), GROUND) is None


# --- the triggers worked out analytically (issue 24): as the orders' words state them ------


@pytest.mark.spec("BMF-R08")
def test_bmf_r08_an_ambush_fires_exactly_where_its_distance_is_met() -> None:
    """Where the mover first comes within the order's distance, to the micrometre — not at
    the next whole metre of a walk along its path."""
    ambush = Order("o2", 2, "ambush", firer=(1500, 500), within=800.5)
    fired = first_fired([ambush], [tank("t1", 500)], GROUND)
    assert fired is not None
    assert fired.point == pytest.approx((699.5, 500), abs=1e-6)
    assert fired.along == pytest.approx(399.5, abs=1e-6)


@pytest.mark.spec("BMF-R08")
def test_bmf_r08_an_ambush_at_a_zone_fires_at_its_first_point_within_1250_m() -> None:
    """A zone that reaches beyond Ambush Fire's range: the order fires at the first point
    of the zone within 1250 m of the firer, not where the mover enters the zone out of
    range (and not never)."""
    street = ((100, 500), (900, 500))
    order = Order("o5", 5, "ambush", firer=(1550, 500), zone=street, radius=10)
    fired = first_fired([order], [tank("t1", 500)], GROUND)
    assert fired is not None
    assert fired.point == pytest.approx((300, 500))  # in the zone from its start: 1250 m
    order = Order("o5", 5, "ambush", firer=(1750, 500), zone=street, radius=10)
    fired = first_fired([order], [tank("t1", 500)], GROUND)
    assert fired is not None
    assert fired.point == pytest.approx((500, 500))  # 1250 m from the firer


@pytest.mark.spec("BMF-R08")
def test_bmf_r08_an_ambush_with_a_zone_and_a_distance_fires_at_whichever_comes_first() -> None:
    """ "Ambush Fire at the first vehicle that crosses the gap ... or within 300 m": the
    order's words. The tank comes within 300 m of the firer before it reaches the gap."""
    gap = ((700, 400), (700, 600))
    order = Order("o6", 6, "ambush", firer=(500, 900), zone=gap, within=410)
    fired = first_fired([order], [tank("t1", 500)], GROUND)
    assert fired is not None
    assert fired.point == pytest.approx((500 - 90.0, 500), abs=1e-6)  # 410 m from the firer
    only_gap = Order("o7", 7, "ambush", firer=(500, 900), zone=gap)
    fired = first_fired([only_gap], [tank("t1", 500)], GROUND)
    assert fired is not None
    assert fired.point == pytest.approx((700, 500))


@pytest.mark.spec("BMF-R08")
def test_bmf_r08_an_ambush_with_no_zone_nor_distance_fires_within_range() -> None:
    """ "Ambush Fire at the first enemy unit within range": with neither a zone nor a
    distance, the first point within 1250 m."""
    order = Order("o8", 8, "ambush", firer=(1950, 500))
    fired = first_fired([order], [tank("t1", 500)], GROUND)
    assert fired is not None
    assert fired.point == pytest.approx((700, 500))
    assert first_fired([order], [Mover("t2", "vehicle", ((100, 500), (600, 500)))], GROUND) is None


@pytest.mark.spec("BMF-R15")
def test_bmf_r15_a_close_combat_strikes_within_its_reach_or_at_its_zone_as_ordered() -> None:
    """An Ambush Close Combat with no zone and no distance strikes within its reach (half
    its running distance on open ground: 50 m for a human); one given a zone strikes at
    its zone, as its words say, not wherever the enemy comes within reach."""
    pioneers = Order("o9", 9, "close_combat", firer=(550, 540), running=100)
    fired = first_fired([pioneers], [tank("t1", 500)], GROUND)
    assert fired is not None
    assert fired.point == pytest.approx((550 - 30.0, 500), abs=1e-6)  # 50 m off
    zoned = Order(
        "o9", 9, "close_combat", firer=(550, 540), zone=((700, 500),), radius=5, running=100
    )
    fired = first_fired([zoned], [tank("t1", 500)], GROUND)
    assert fired is not None
    assert fired.point == pytest.approx((695, 500), abs=1e-6)


@pytest.mark.spec("BMF-R01")
@pytest.mark.spec("BMF-A04")
def test_bmf_a04_a_street_zone_is_its_line_with_round_ends_exactly() -> None:
    """A street zone reaches ``radius`` metres either side of its centre line and round its
    ends: a mover passing 3 m beyond the end of a street 6 m wide each side meets it
    sqrt(6² - 3²) m before the line's end (no polygon stands in for the round end)."""
    street = Order("o10", 10, "challenge", firer=(500, 900), zone=((520, 0), (520, 497)), radius=6)
    crossing = when(street, tank("t1", 500), GROUND)
    assert crossing is not None
    assert crossing.point[0] == pytest.approx(520 - 27**0.5, abs=1e-9)
