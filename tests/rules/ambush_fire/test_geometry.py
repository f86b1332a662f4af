"""The ground of ambush-fire in metres: ranges, reveal circles, challenge zones, exposure
between cover, retreats, dashes and weapon facing (RULES-SPEC §2, BMF-*)."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point

from ghillie.rules.ambush_fire.geometry import (
    BLOCKED,
    IMPASSABLE,
    INFANTRY_ARC,
    LISTED_REVEAL_WIDTH,
    NOT_AWAY,
    OFF_GROUND,
    TOO_FAR,
    TOO_LONG,
    Area,
    ChallengeZone,
    Dash,
    Ground,
    Stretch,
    atgm_immediate,
    bearing,
    challenge_point,
    column_order,
    dash,
    distance,
    faces,
    first_crossing,
    in_ambush_range,
    inches_to_metres,
    metres_to_inches,
    path_length,
    path_until,
    point_along,
    point_to_metres,
    reach,
    retreat_ok,
    reveal_radius,
    revealed,
    within_reach,
)


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


# A 2000 × 1500 m battlefield, y down. Two woods with open ground between them, a marsh
# marked impassable south of the open ground, and a hedge that conceals but does not slow.
WEST_WOOD = Area("west wood", "woods", _rect(0, 0, 400, 400), conceals=True)
EAST_WOOD = Area("east wood", "woods", _rect(600, 0, 1000, 400), conceals=True)
MARSH = Area("marsh", "marsh", _rect(450, 500, 550, 700), impassable=True)
HEDGE = Area("hedge", "hedge", _rect(0, 900, 2000, 905), conceals=True)
GROUND = Ground(2000, 1500, [WEST_WOOD, EAST_WOOD, MARSH, HEDGE])
OPEN_GROUND = Ground(2000, 1500)
HUMAN = {"open": 100.0, "woods": 50.0}  # BMF-T01's human; half speed in woods


# --- the ground -------------------------------------------------------------------------


def test_terrain_at_a_point_edges_included_and_open_ground_empty() -> None:
    assert GROUND.terrain_at((200, 200)) == (WEST_WOOD,)
    assert GROUND.terrain_at((400, 200)) == (WEST_WOOD,)  # on the wood's edge
    assert GROUND.terrain_at((500, 200)) == ()
    assert GROUND.is_concealing((400, 200))
    assert not GROUND.is_concealing((500, 200))
    assert not GROUND.is_concealing((500, 600))  # a marsh hides nobody
    assert GROUND.is_impassable((500, 600))
    assert not GROUND.is_impassable((450, 600))  # its edge can be stood on


@pytest.mark.spec("BMF-R15")
def test_bmf_r15_running_distance_by_terrain_kind() -> None:
    assert GROUND.running_at((500, 200), HUMAN) == 100  # open ground
    assert GROUND.running_at((200, 200), HUMAN) == 50  # woods
    assert GROUND.running_at((500, 902), HUMAN) == 100  # a kind not listed runs as open
    assert GROUND.running_at((500, 600), HUMAN) == 0  # in the marsh
    with pytest.raises(ValueError, match="open ground"):
        GROUND.running_at((200, 200), {"woods": 50})


def test_overlapping_areas_run_at_the_slowest_and_conceal_if_any_does() -> None:
    scrub = Area("scrub", "scrub", _rect(300, 300, 500, 500))
    ground = Ground(2000, 1500, [WEST_WOOD, scrub])
    assert ground.terrain_at((350, 350)) == (WEST_WOOD, scrub)
    assert ground.running_at((350, 350), {"open": 100, "woods": 50, "scrub": 25}) == 25
    assert ground.is_concealing((350, 350))
    assert not ground.is_concealing((450, 450))


def test_a_bad_ground_or_area_is_refused() -> None:
    with pytest.raises(ValueError, match="positive width"):
        Ground(0, 100)
    with pytest.raises(ValueError, match="not a simple polygon"):
        Ground(100, 100, [Area("line", "woods", ((0, 0), (5, 5), (10, 10)))])


def test_leaving_the_ground() -> None:
    assert not GROUND.leaves_ground([(0, 0), (2000, 1500)])  # its edge is on it
    assert GROUND.leaves_ground([(10, 10), (-1, 10)])


# --- table mode (RULES-SPEC §2.6) -----------------------------------------------------------


def test_inches_measured_at_the_table_convert_with_the_ground_scale() -> None:
    assert inches_to_metres(50, 25) == 1250
    assert metres_to_inches(1250, 25) == 50
    assert point_to_metres((2, 4.5), 25) == (50, 112.5)
    assert in_ambush_range(inches_to_metres(50, 25))
    assert not in_ambush_range(inches_to_metres(50.5, 25))
    for bad_scale in (0, -1, math.inf, math.nan):
        with pytest.raises(ValueError, match="ground scale"):
            inches_to_metres(1, bad_scale)
    with pytest.raises(ValueError, match="inches"):
        inches_to_metres(-1, 25)


# --- ranges (BMF-R08, R10, A10, T06) --------------------------------------------------------


@pytest.mark.spec("BMF-T06", "BMF-A10", "BMF-R08", "BMF-R10")
def test_bmf_r10_atgm_ambush_ranges() -> None:
    # 1000 m: legal and the missile arrives at once.
    assert in_ambush_range(1000)
    assert atgm_immediate(1000)
    # Exactly 1250 m: legal (the maximum is inclusive), but not "less than 1250m".
    assert in_ambush_range(1250)
    assert not atgm_immediate(1250)
    # 1300 m: no Ambush Fire at all.
    assert not in_ambush_range(1300)
    assert not atgm_immediate(1300)


@pytest.mark.spec("BMF-A10", "BMF-R08")
def test_the_1250_m_edge_from_positions_and_float_sums() -> None:
    firer, target = (100.0, 100.0), (850.0, 1100.0)  # 750 across, 1000 down: 1250 m
    assert distance(firer, target) == 1250
    assert in_ambush_range(distance(firer, target))
    assert not atgm_immediate(distance(firer, target))
    # A range that is 1250 m but for float rounding is still on the edge.
    summed = sum([0.1] * 12500)  # 1250.0000000001...
    assert summed != 1250
    assert in_ambush_range(summed)
    assert not atgm_immediate(summed)
    assert atgm_immediate(1249.99)
    assert not in_ambush_range(1250.01)
    with pytest.raises(ValueError, match="range"):
        in_ambush_range(-1)


# --- reveal areas (BMF-R09, A06, A07, A08, T05) ---------------------------------------------


@pytest.mark.spec("BMF-T05", "BMF-R09", "BMF-A06")
def test_bmf_r09_a06_t05_infantry_ambush_reveals_a_circle_125_m_round_the_firer() -> None:
    firer = (1000.0, 700.0)
    radius = reveal_radius("infantry")
    assert radius == 125  # 250 m wide: a diameter
    positions = {
        "own_mg": (1000.0, 600.0),  # 100 m, the firer's own side
        "enemy_at_125": (1125.0, 700.0),  # exactly on the edge: revealed
        "enemy_diagonal_125": (1075.0, 800.0),  # 75 across, 100 down: 125 m
        "enemy_at_130": (1000.0, 830.0),  # 130 m: not revealed
        "far_target": (1000.0, 1600.0),  # the target, 900 m away, is not concealed here
    }
    found = revealed(firer, radius, positions)
    assert found == {"own_mg", "enemy_at_125", "enemy_diagonal_125"}


@pytest.mark.spec("BMF-T05", "BMF-A06", "BMF-A08")
def test_bmf_t05_an_atgm_reveals_625_m_round_it_of_either_side() -> None:
    firer = (1000.0, 700.0)
    radius = reveal_radius("atgm")
    assert radius == 625
    assert reveal_radius("at_gun") == 625
    positions = {
        "friend": (1000.0, 200.0),  # 500 m
        "enemy_at_130": (1000.0, 830.0),
        "enemy_at_625": (1625.0, 700.0),
        "enemy_at_626": (374.0, 700.0),
        "firer": firer,
    }
    assert revealed(firer, radius, positions) == {"friend", "enemy_at_130", "enemy_at_625", "firer"}
    assert revealed(firer, reveal_radius("infantry"), positions) == {"firer"}


@pytest.mark.spec("BMF-A07")
def test_bmf_a07_vehicle_and_artillery_guns_reveal_like_at_guns() -> None:
    assert reveal_radius("vehicle") == reveal_radius("artillery") == 625
    assert reveal_radius("infantry") == 125  # an MG team is infantry
    # The switch off: only the two classes the text names; the rest is not guessed.
    assert reveal_radius("atgm", LISTED_REVEAL_WIDTH) == 625
    with pytest.raises(ValueError, match="no reveal width for class 'vehicle'"):
        reveal_radius("vehicle", LISTED_REVEAL_WIDTH)
    with pytest.raises(ValueError, match="no reveal width"):
        reveal_radius("animal")
    # A scenario's own table.
    assert reveal_radius("vehicle", {"vehicle": 500}) == 250


# --- challenge zones (BMF-A04) and moving between cover (BMF-R01) ---------------------------

# From the west wood across the open ground to the east wood, at y = 200.
DASH_ACROSS = [(300.0, 200.0), (700.0, 200.0)]


@pytest.mark.spec("BMF-R01")
def test_the_exposed_stretch_between_two_woods() -> None:
    assert GROUND.moves_between_cover(DASH_ACROSS)
    assert GROUND.exposed_stretches(DASH_ACROSS) == [Stretch(100.0, 300.0)]
    assert GROUND.exposed_stretches(DASH_ACROSS)[0].length == 200
    # Inside one wood all along: never exposed.
    assert GROUND.exposed_stretches([(100.0, 100.0), (300.0, 300.0)]) == []
    # Out into the open and back: two stretches, the wood between them hidden.
    out_and_back = [(450.0, 100.0), (300.0, 100.0), (450.0, 150.0)]
    stretches = GROUND.exposed_stretches(out_and_back)
    assert [round(s.start, 6) for s in stretches] == [
        0,
        round(150 + 100 * math.sqrt(10) / 3, 6),
    ]  # 2/3 of the way
    assert stretches[0].end == 50
    # A path in the open over several waypoints is one stretch.
    assert GROUND.exposed_stretches([(450, 450), (550, 450), (550, 480)]) == [Stretch(0, 130)]
    # Standing still: in the open, exposed; in a wood, not.
    assert GROUND.exposed_stretches([(500, 200)]) == [Stretch(0, 0)]
    assert GROUND.exposed_stretches([(200, 200)]) == []
    assert not GROUND.moves_between_cover([(500, 200), (700, 200)])


@pytest.mark.spec("BMF-R01")
@settings(deadline=None)  # 200 terrain look-ups an example: slow on a busy machine
@given(
    st.lists(
        st.tuples(st.integers(0, 2000), st.integers(0, 1000)).map(lambda p: (p[0], p[1])),
        min_size=2,
        max_size=5,
    )
)
def test_exposed_stretches_are_exactly_where_the_path_is_out_of_cover(
    path: list[tuple[int, int]],
) -> None:
    points = [(float(x), float(y)) for x, y in path]
    stretches = GROUND.exposed_stretches(points)
    length = path_length(points)
    for s, t in pairwise(stretches):
        assert s.end < t.start  # in order, apart
    for k in range(1, 200):
        along = length * k / 200
        inside = any(s.start + 1e-6 < along < s.end - 1e-6 for s in stretches)
        outside = all(along < s.start - 1e-6 or along > s.end + 1e-6 for s in stretches)
        point = point_along(points, along)
        here = GROUND.is_concealing(point)
        # Within EPS of a wood's edge either answer is right: a path that only touches
        # cover stays exposed, and a float may put a point on the edge a hair outside.
        edge = any(a.conceals and a.edge.distance(Point(point)) <= 1e-6 for a in GROUND.areas)
        if inside:
            assert not here or edge
        if outside:
            assert here or edge


@pytest.mark.spec("BMF-A04")
def test_where_a_path_first_enters_each_kind_of_zone() -> None:
    # A gap in the dragons' teeth: the line across it at x = 500, from y = 150 to y = 250.
    gap = ChallengeZone.gap((500, 150), (500, 250))
    assert first_crossing(DASH_ACROSS, gap) == (200.0, (500.0, 200.0))
    assert first_crossing([(300, 300), (700, 300)], gap) is None  # passes south of the gap
    assert first_crossing([(300, 250), (700, 250)], gap) == (200, (500, 250))  # its end is in
    # A point with a radius: the path enters the circle 10 m before its centre.
    crossroads = ChallengeZone.point((500, 200), 10)
    assert first_crossing(DASH_ACROSS, crossroads) == (190.0, (490.0, 200.0))
    grazing = first_crossing([(300, 210), (700, 210)], crossroads)  # touches its edge
    assert grazing is not None
    assert grazing.distance == pytest.approx(200)
    assert first_crossing([(300, 210.01), (700, 210.01)], crossroads) is None
    assert first_crossing([(500, 205)], crossroads) == (0, (500, 205))  # starts in it
    # A street: its centre line north to south at x = 520, 6 m either side.
    street = ChallengeZone.street([(520, 0), (520, 400)], radius=6)
    hit = first_crossing(DASH_ACROSS, street)
    assert hit is not None
    assert hit.distance == pytest.approx(214)
    assert hit.point == pytest.approx((514, 200))
    # Any shapely shape in metres will do.
    assert first_crossing(DASH_ACROSS, LineString([(550, 0), (550, 400)])) == (250, (550, 200))


@pytest.mark.spec("BMF-A04")
def test_a_zone_is_first_crossed_along_the_path_not_nearest_the_start() -> None:
    # The path loops: it passes near the zone's far end before crossing near its start.
    gap = ChallengeZone.gap((500, 0), (500, 400))
    path = [(450, 50), (450, 300), (550, 300)]
    assert first_crossing(path, gap) == (300, (500, 300))


@pytest.mark.spec("BMF-A04", "BMF-R01")
def test_a_challenge_takes_a_target_only_in_the_zone_and_in_the_open() -> None:
    gap = ChallengeZone.gap((500, 150), (500, 250))
    assert challenge_point(DASH_ACROSS, gap, GROUND) == (200, (500, 200))
    # A zone drawn inside the east wood: the path crosses it, but concealed.
    in_the_wood = ChallengeZone.gap((800, 0), (800, 400))
    assert first_crossing([(300, 200), (900, 200)], in_the_wood) == (500, (800, 200))
    assert challenge_point([(300, 200), (900, 200)], in_the_wood, GROUND) is None
    # A street zone that starts in the wood and runs out into the open: the challenge
    # takes the target where it leaves the wood.
    street = ChallengeZone.street([(350, 200), (450, 200)], radius=5)
    entered = first_crossing(DASH_ACROSS, street)
    assert entered is not None
    assert entered.distance == pytest.approx(45)  # at its round end, still in the wood
    hit = challenge_point(DASH_ACROSS, street, GROUND)
    assert hit is not None
    assert hit.distance == pytest.approx(100)
    assert hit.point == pytest.approx((400, 200))


@pytest.mark.spec("BMF-A04")
def test_a_malformed_zone_is_refused() -> None:
    with pytest.raises(ValueError, match="radius greater than 0"):
        ChallengeZone.point((0, 0), 0)
    with pytest.raises(ValueError, match="two different points"):
        ChallengeZone.gap((1, 1), (1, 1))
    with pytest.raises(ValueError, match="two or more points"):
        ChallengeZone.street([(1, 1)])
    with pytest.raises(ValueError, match="point, a gap or a street"):
        ChallengeZone("square", ((0, 0),))  # type: ignore[arg-type]


# --- the column (BMF-R06, A19, T02) ---------------------------------------------------------


@pytest.mark.spec("BMF-A19", "BMF-R06")
def test_bmf_r06_a_column_crosses_the_gap_nose_to_tail_and_halts_where_it_is() -> None:
    gap = ChallengeZone.gap((500, 150), (500, 250))
    road = [(200.0, 200.0), (900.0, 200.0)]
    paths = {
        "tank_3": [(100.0, 200.0), *road[1:]],
        "tank_1": [(300.0, 200.0), *road[1:]],
        "tank_2": road,
        "scout_car": [(300.0, 600.0), (900.0, 600.0)],  # another route: not in the column
    }
    order = column_order(paths, gap)
    assert [key for key, _ in order] == ["tank_1", "tank_2", "tank_3"]
    lead = order[0][1]
    assert lead == (200, (500, 200))
    # T02: the lead tank is destroyed in the gap; the others stop at once, having come as
    # far as the lead did, nose to tail.
    assert path_until(paths["tank_2"], lead.distance) == [(200, 200), (400, 200)]
    assert point_along(paths["tank_3"], lead.distance) == (300, 200)


@pytest.mark.spec("BMF-A19")
def test_bmf_a19_units_level_with_each_other_keep_the_order_given() -> None:
    gap = ChallengeZone.gap((500, 0), (500, 1000))
    paths = {"b": [(400, 100), (600, 100)], "a": [(400, 300), (600, 300)]}
    assert [key for key, _ in column_order(paths, gap)] == ["b", "a"]


def test_paths_lengths_and_points_along() -> None:
    path = [(0.0, 0.0), (30.0, 40.0), (30.0, 40.0), (30.0, 100.0)]
    assert path_length(path) == 110
    assert point_along(path, 25) == (15, 20)
    assert point_along(path, 80) == (30, 70)
    assert point_along(path, -5) == (0, 0)
    assert point_along(path, 500) == (30, 100)
    assert path_until(path, 80) == [(0, 0), (30, 40), (30, 70)]
    assert path_until(path, 0) == [(0, 0), (0, 0)]
    with pytest.raises(ValueError, match="at least one point"):
        path_length([])


# --- retreat (BMF-R13, R18, A11, A21, T07) --------------------------------------------------

AMBUSHERS = (500.0, 480.0)  # in the open, 20 m north of the marsh's north edge
ENEMY = (500.0, 400.0)  # 80 m north of the ambushers


@pytest.mark.spec("BMF-T07", "BMF-A11", "BMF-R13", "BMF-R18")
def test_bmf_r13_r18_a11_a_retreat_of_at_most_50_m_away_from_the_enemy_is_allowed() -> None:
    west = [(450.0, 480.0)]  # 50 m west: now sqrt(50² + 80²) ≈ 94 m from the enemy
    verdict = retreat_ok(AMBUSHERS, west, [ENEMY], GROUND)
    assert verdict.ok
    assert verdict
    assert verdict.reason is None
    assert retreat_ok(AMBUSHERS, [(500.0, 500.0)], [ENEMY], GROUND).ok  # onto the marsh's edge


@pytest.mark.spec("BMF-T07", "BMF-A11", "BMF-R13", "BMF-R18")
def test_bmf_r18_a_retreat_longer_than_50_m_is_refused() -> None:
    west = [(449.0, 480.0)]  # 51 m
    verdict = retreat_ok(AMBUSHERS, west, [ENEMY], GROUND)
    assert not verdict
    assert verdict.reasons == (TOO_LONG,)
    # The length is the path's, not the distance between its ends: 30 + 30 m is 60 m.
    dogleg = [(530.0, 480.0), (530.0, 450.0)]
    assert retreat_ok(AMBUSHERS, dogleg, [ENEMY], GROUND).reason == TOO_LONG


@pytest.mark.spec("BMF-T07", "BMF-A11", "BMF-R13", "BMF-R18")
def test_bmf_a11_a_retreat_must_end_farther_from_the_nearest_enemy() -> None:
    assert retreat_ok(AMBUSHERS, [(500.0, 440.0)], [ENEMY], GROUND).reason == NOT_AWAY
    # Sideways round the enemy at the same distance is not away either.
    sideways = [(500 + 80 * math.sin(0.5), 400 + 80 * math.cos(0.5))]
    assert retreat_ok(AMBUSHERS, sideways, [ENEMY], GROUND).reason == NOT_AWAY
    # Away from one enemy but nearer another: the nearest counts at each end.
    second = (400.0, 480.0)  # 100 m west of the ambushers
    west = [(460.0, 480.0)]  # 40 m west: 60 m from the second enemy
    assert retreat_ok(AMBUSHERS, west, [ENEMY, second], GROUND).reason == NOT_AWAY
    # Staying put is no retreat.
    assert retreat_ok(AMBUSHERS, [], [ENEMY], GROUND).reason == NOT_AWAY
    # With no enemy to count, any direction is away.
    assert retreat_ok(AMBUSHERS, [(500.0, 440.0)], [], GROUND).ok


@pytest.mark.spec("BMF-T07", "BMF-A11", "BMF-R13", "BMF-R18")
def test_bmf_t07_a_retreat_never_goes_through_the_marsh_marked_impassable() -> None:
    south = [(500.0, 520.0)]  # 40 m south, straight away from the enemy, into the marsh
    verdict = retreat_ok(AMBUSHERS, south, [ENEMY], GROUND)
    assert verdict.reasons == (IMPASSABLE,)
    # Along the marsh's edge is not through it.
    along_edge = [(450.0, 500.0), (450.0, 510.0)]
    assert not GROUND.crosses_impassable([AMBUSHERS, *along_edge])
    assert GROUND.first_impassable([AMBUSHERS, *south]) == 20
    # A retreat that fails on several counts names them all, in a fixed order.
    far_south = [(500.0, 560.0)]
    assert retreat_ok(AMBUSHERS, far_south, [ENEMY], GROUND).reasons == (IMPASSABLE, TOO_LONG)
    # Off the battlefield is refused too.
    edge = (10.0, 1480.0)
    assert retreat_ok(edge, [(10.0, 1510.0)], [(10.0, 1400.0)], GROUND).reason == OFF_GROUND


@pytest.mark.spec("BMF-A21")
def test_bmf_a21_away_counts_only_the_enemies_given_those_the_retreating_side_sees() -> None:
    seen = [ENEMY]
    concealed = (400.0, 480.0)  # a hidden enemy 100 m west of the ambushers
    away_from_seen = [(450.0, 480.0)]  # 50 m west: 94 m from ENEMY, 50 m from the hidden one
    # The ruleset passes only the seen enemy: the retreat is judged without the hidden one,
    # so being refused cannot tell the retreating side where it is.
    assert retreat_ok(AMBUSHERS, away_from_seen, seen, GROUND).ok
    # Had the hidden one been counted (bmf.retreat_counts_concealed), it would be refused.
    assert retreat_ok(AMBUSHERS, away_from_seen, [*seen, concealed], GROUND).reason == NOT_AWAY


# --- ambush close combat (BMF-R15, R19, A16, T01, T08) --------------------------------------


@pytest.mark.spec("BMF-T01", "BMF-R15")
def test_bmf_t01_a_human_on_open_ground_reaches_50_m() -> None:
    assert reach(100) == 50
    assert within_reach(50, 100)
    assert not within_reach(51, 100)
    attacker = (500.0, 1000.0)
    at_50, at_51 = (550.0, 1000.0), (551.0, 1000.0)
    assert within_reach(distance(attacker, at_50), 100)
    assert not within_reach(distance(attacker, at_51), 100)
    assert dash(attacker, at_50, 100, GROUND) == dash(attacker, at_50, HUMAN, GROUND)
    made = dash(attacker, at_50, HUMAN, GROUND)
    assert made == Dash(True, at_50, 50.0, None)
    short = dash(attacker, at_51, HUMAN, GROUND)
    assert not short.contact
    assert short.reason == TOO_FAR
    assert short.end == (550.0, 1000.0)
    with pytest.raises(ValueError, match="running distance"):
        reach(-1)


@pytest.mark.spec("BMF-R15")
def test_running_through_woods_spends_the_reach_twice_as_fast() -> None:
    # 40 m of open ground (0.4 of a run), then 20 m into the wood (0.4): more than half.
    start, goal = (440.0, 200.0), (380.0, 200.0)
    gone = dash(start, goal, HUMAN, GROUND)
    assert not gone.contact
    assert gone.reason == TOO_FAR
    # 40 m open = 0.4 of a run; 0.1 left runs 5 m into the wood.
    assert gone.travelled == pytest.approx(45)
    assert gone.end == pytest.approx((395.0, 200.0))
    # With one number for all ground the wood does not slow it: it runs the whole 50 m.
    assert dash(start, goal, 100, GROUND) == Dash(False, (390.0, 200.0), 50.0, TOO_FAR)
    assert dash(start, (395.0, 200.0), HUMAN, GROUND).contact  # 0.4 + 0.1: just half a run
    # Inside the wood a human reaches 25 m.
    assert dash((200, 200), (200, 225), HUMAN, GROUND).contact
    assert not dash((200, 200), (200, 226), HUMAN, GROUND).contact
    assert not dash((380.0, 500.0), (380.0, 380.0), HUMAN, OPEN_GROUND).contact  # 120 m


@pytest.mark.spec("BMF-T08", "BMF-A16", "BMF-R19")
def test_a_blocked_dash_fails_and_leaves_the_attacker_at_the_farthest_point_reached() -> None:
    # T08: a human 40 m from its target, with the marsh between them.
    attacker, target = (500.0, 480.0), (500.0, 520.0)
    assert within_reach(distance(attacker, target), 100)  # the attack may be made
    gone = dash(attacker, target, HUMAN, GROUND)
    assert not gone.contact
    assert gone.reason == BLOCKED
    assert gone.end == (500.0, 500.0)  # at the marsh's edge, out in the open (R19)
    assert gone.travelled == 20
    assert not GROUND.is_concealing(gone.end)


@pytest.mark.spec("BMF-T08", "BMF-R15")
def test_a_target_60_m_off_on_open_ground_is_out_of_reach() -> None:
    assert not within_reach(60, 100)
    assert not within_reach(distance((0, 1000), (60, 1000)), 100)


@pytest.mark.spec("BMF-A16")
def test_bmf_a16_the_farthest_point_is_where_the_first_limit_falls() -> None:
    # The marsh is 70 m off, beyond the 50 m reach: it runs out of reach first.
    attacker = (500.0, 430.0)
    gone = dash(attacker, (500.0, 520.0), HUMAN, GROUND)
    assert gone.reason == TOO_FAR
    assert gone.end == (500.0, 480.0)
    # Standing next to the target is contact without running.
    assert dash(attacker, attacker, HUMAN, GROUND).contact


# --- weapon facing (BMF-A18) ----------------------------------------------------------------


@pytest.mark.spec("BMF-A18")
def test_bmf_a18_bearings_are_clockwise_from_the_top_edge_with_y_down() -> None:
    here = (100.0, 100.0)
    assert bearing(here, (100, 50)) == 0  # toward the top edge
    assert bearing(here, (150, 100)) == 90  # toward the right edge
    assert bearing(here, (100, 150)) == 180  # toward the bottom edge
    assert bearing(here, (50, 100)) == 270
    assert bearing(here, (150, 150)) == pytest.approx(135)
    with pytest.raises(ValueError, match="no bearing"):
        bearing(here, here)


@pytest.mark.spec("BMF-A18")
def test_infantry_faces_what_is_in_its_front_180_degrees_edges_in() -> None:
    rifles = (100.0, 100.0)
    north = 0.0
    assert faces(rifles, north, INFANTRY_ARC, (100, 0))  # dead ahead
    assert faces(rifles, north, INFANTRY_ARC, (200, 100))  # exactly abeam: on the edge
    assert faces(rifles, north, INFANTRY_ARC, (0, 100))
    assert faces(rifles, north, INFANTRY_ARC, (200, 99.99))
    assert not faces(rifles, north, INFANTRY_ARC, (200, 100.01))  # just behind the line
    assert not faces(rifles, north, INFANTRY_ARC, (100, 200))  # dead behind


@pytest.mark.spec("BMF-A18")
def test_a_vehicle_faces_what_is_in_its_turrets_arc() -> None:
    tank = (0.0, 0.0)
    # Turret east, a 60° arc: from 60° to 120° clockwise from up.
    east = 90.0
    assert faces(tank, east, 60, (100, 0))
    assert faces(tank, east, 60, (100 * math.sin(math.radians(60)), -50))  # 60°: the edge
    assert not faces(tank, east, 60, (100, -60))  # about 59°
    assert not faces(tank, east, 60, (0, -100))  # dead ahead of the hull, not the turret
    # An arc across north: facing 350°, 40° wide, holds bearings 330° to 10°.
    assert faces(tank, 350, 40, (10, -100))  # about 5.7°
    assert faces(tank, 350, 40, (-50, -100))  # about 333°
    assert not faces(tank, 350, 40, (30, -100))  # about 16.7°
    assert faces(tank, -10, 40, (10, -100))  # -10° is 350°
    # All round.
    assert faces(tank, 0, 360, (0, 100))
    with pytest.raises(ValueError, match="0 to 360"):
        faces(tank, 0, 400, (0, 100))
    with pytest.raises(ValueError, match="no bearing"):
        faces(tank, 0, 360, tank)


@pytest.mark.spec("BMF-A06")
def test_bmf_a06_the_reveal_area_is_a_circle_not_a_square_or_a_strip() -> None:
    firer = (1000.0, 700.0)
    radius = reveal_radius("infantry")  # 250 m wide: 125 m round the firer
    near = 125 / math.sqrt(2) - 0.01  # on a diagonal, just inside the circle
    units = {
        "diagonal": (firer[0] + near, firer[1] + near),
        "corner": (firer[0] + 120, firer[1] + 120),  # inside a 250 m square, 170 m off
        "flank": (firer[0] + 300, firer[1]),  # on a frontage strip, 300 m off
    }
    assert revealed(firer, radius, units) == {"diagonal"}
