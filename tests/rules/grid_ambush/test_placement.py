"""The set-up check for a revealed ambush (RULES-SPEC DWV-R08, A08, A09; test case T06).

A set-up either stands as given, with every model left out shown to have no room, or is a
slip: the check never trims a set-up to what the rule allows.

Geometry: the rule text's 60" x 36" table; D2 = x [36, 48) × y [12, 24), D3 below it =
y [24, 36]. Bases are 1" across (radius 0.5), so models 1.5" apart are 0.5" base to base.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghillie.measure.grid import Grid
from ghillie.measure.tabletop import XY, Tabletop, Terrain
from ghillie.rules.grid_ambush.placement import (
    Fault,
    Ground,
    Loss,
    Setup,
    Slip,
    check,
    check_counted,
    fault_at,
    plan,
    room,
)
from ghillie.rules.grid_ambush.scenario import Rounding

GRID = Grid(60, 36)
R = 0.5
FAR_ENEMY = [((44.0, 34.0), R)]  # a Marine well away from everything below
Box = tuple[float, float, float, float]


def _woods(*boxes: Box) -> Tabletop:
    return Tabletop(
        60,
        36,
        [
            Terrain(f"woods {i}", "woods", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))
            for i, (x0, y0, x1, y1) in enumerate(boxes)
        ],
    )


def _ground(
    table: Tabletop,
    enemies: Sequence[tuple[XY, float]] = FAR_ENEMY,
    rounding: Rounding = Rounding.UP,
    friends: Sequence[tuple[XY, float]] = (),
    wooded: bool = True,
) -> Ground:
    return Ground(
        table=table,
        in_square=lambda point: GRID.ref_at(point) == "D2",
        square=GRID.polygon("D2"),
        enemies=enemies,
        friends=friends,
        base_radius=R,
        rounding=rounding,
        wooded=wooded,
    )


def _row(y: float, count: int, x: float = 37.0) -> list[XY | None]:
    return [(x + 1.5 * i, y) for i in range(count)]


def _slip(result: Setup | Slip) -> Slip:
    assert isinstance(result, Slip), f"expected a slip, the set-up stood: {result}"
    return result


def _stands(result: Setup | Slip) -> Setup:
    assert isinstance(result, Setup), f"expected the set-up to stand, got {result}"
    return result


def _with(proposed: list[XY | None], i: int, point: XY | None) -> list[XY | None]:
    return [*proposed[:i], point, *proposed[i + 1 :]]


# --- DWV-T06, the three cases ---------------------------------------------------------------

# D2's woods are a strip x 36-39.4, y 23.5-24 where only 4 bases fit (each next one at least
# 0.87" further along); D3 is wooded.
STRIP_AND_D3 = _woods((36, 23.5, 39.4, 24), (36, 24, 48, 30))
FOUR_IN_THE_STRIP: list[XY | None] = [(36.0 + i, 23.75) for i in range(4)]
IN_D3 = _row(25, 6, x=36.5)


@pytest.mark.spec("DWV-T06", "DWV-R08")
def test_dwv_t06_six_in_woods_in_d2_and_four_in_d3_all_stand() -> None:
    table = _woods((36, 18, 48, 30))
    proposed = _row(23, 6) + _row(24.5, 4)  # 6 in D2, 4 in D3, one coherent block
    assert [GRID.ref_at(p) for p in proposed if p] == ["D2"] * 6 + ["D3"] * 4
    result = _stands(check(proposed, _ground(table)))
    assert result.placed == tuple(range(10))
    assert result.casualties == {}


@pytest.mark.spec("DWV-T06", "DWV-R08", "DWV-A08")
def test_dwv_t06_only_four_fit_in_d2_so_eight_stand_and_two_cannot_be_set_up() -> None:
    ground = _ground(STRIP_AND_D3)
    # Set up as the owner would: 4 in D2, 4 in D3, and the last two left out.
    proposed = [*FOUR_IN_THE_STRIP, *IN_D3[:4], None, None]
    result = _stands(check(proposed, ground))
    assert result.placed == tuple(range(8))
    # There is room for them in D3, but not in D2, and a fifth outside would be too many.
    assert result.casualties == {8: Loss.TOO_MANY_OUTSIDE, 9: Loss.TOO_MANY_OUTSIDE}


@pytest.mark.spec("DWV-T06", "DWV-R08", "DWV-A08")
def test_dwv_t06_six_outside_the_square_with_four_in_it_is_a_slip_not_a_trim() -> None:
    proposed = [*FOUR_IN_THE_STRIP, *IN_D3]
    slip = _slip(check(proposed, _ground(STRIP_AND_D3)))
    assert slip == Slip(Fault.TOO_FEW_IN_SQUARE, inside=4, total=10, need=5)


@pytest.mark.spec("DWV-T06", "DWV-R08")
def test_dwv_t06_models_left_out_while_d2_has_room_are_a_slip() -> None:
    # Only three in the strip: a fourth fits there, so neither model left out is lost.
    proposed = [*FOUR_IN_THE_STRIP[:3], *IN_D3[:3], None, None, None, None]
    slip = _slip(check(proposed, _ground(STRIP_AND_D3)))
    assert slip.fault is Fault.HAS_ROOM
    assert slip.model == 6
    assert slip.room is not None
    assert GRID.ref_at(slip.room) == "D2"  # a fourth outside would break the half rule
    fourth = _with(proposed, 6, slip.room)
    assert _slip(check(fourth, _ground(STRIP_AND_D3))).model == 7  # and a fifth outside fits


@pytest.mark.spec("DWV-T06", "DWV-A09")
def test_dwv_t06_no_woods_in_d2_all_ten_are_casualties() -> None:
    ground = _ground(_woods((36, 24, 48, 30)))  # woods in D3 only
    result = _stands(check([None] * 10, ground))
    assert result.placed == ()
    assert result.casualties == dict.fromkeys(range(10), Loss.NO_FIRST_MODEL)
    # Set up in D3's woods, or in the open in D2, it is a slip: with no room in D2 to put
    # it right.
    in_d3 = _row(25, 5) + _row(26.5, 5)
    assert _slip(check(in_d3, ground)) == Slip(Fault.NONE_IN_SQUARE, 0, None)
    in_d2_open = _row(20, 5) + _row(21.5, 5)
    assert _slip(check(in_d2_open, ground)) == Slip(Fault.NOT_WOODED, 0, None)


@pytest.mark.spec("DWV-A09")
def test_dwv_a09_a_unit_with_room_for_a_first_model_is_not_lost() -> None:
    slip = _slip(check([None] * 10, _ground(STRIP_AND_D3)))
    assert slip.fault is Fault.HAS_ROOM
    assert slip.model == 0
    assert slip.room is not None
    assert GRID.ref_at(slip.room) == "D2"
    assert STRIP_AND_D3.in_kind(slip.room, frozenset({"woods"}))


@pytest.mark.spec("DWV-A09")
def test_dwv_a09_without_the_woods_requirement_the_unit_stands_in_the_open() -> None:
    ground = _ground(_woods((36, 24, 48, 30)), wooded=False)
    proposed = _row(20, 5) + _row(21.5, 5)
    assert _stands(check(proposed, ground)).placed == tuple(range(10))


# --- each condition of DWV-R08 ---------------------------------------------------------------

WOODED_D2 = _woods((36, 12, 48, 24))


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_at_least_one_inch_from_enemy_models_base_to_base() -> None:
    ground = _ground(WOODED_D2, [((42.0, 20.0), R)])
    exactly_one_inch = (42.0, 18.0)  # centres 2" apart: 1" between the bases
    too_close = (42.0, 18.1)
    base = _row(16.5, 4, x=38)
    assert _stands(check([*base, exactly_one_inch], ground)).placed == (0, 1, 2, 3, 4)
    slip = _slip(check([*base, too_close], ground))
    assert (slip.fault, slip.model) == (Fault.NEAR_ENEMY, 4)
    assert slip.room is not None  # there is room elsewhere: it can be put right


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_squad_coherency_is_two_inches_base_to_base() -> None:
    just = (38.0 + 4 * 1.5 + 3.0, 15.0)  # 3" centre to centre: 2" between bases
    beyond = (38.0 + 4 * 1.5 + 3.1, 15.0)
    base = _row(15, 5, x=38)
    assert _stands(check([*base, just], _ground(WOODED_D2))).casualties == {}
    slip = _slip(check([*base, beyond], _ground(WOODED_D2)))
    assert (slip.fault, slip.model) == (Fault.NOT_COHERENT, 5)


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_models_may_not_stand_on_each_others_bases_or_off_the_table() -> None:
    base = _row(15, 3, x=38)
    slip = _slip(check([*base, (38.5, 15.0)], _ground(WOODED_D2)))
    assert (slip.fault, slip.model) == (Fault.ON_A_BASE, 3)
    slip = _slip(check([*base, (-1.0, 15.0)], _ground(WOODED_D2)))
    assert (slip.fault, slip.model) == (Fault.OFF_TABLE, 3)


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_nor_on_the_bases_of_the_owners_other_units() -> None:
    """Friendly models already on the table are no enemies (no 1" gap), but a base cannot
    be set up on theirs."""
    ground = _ground(WOODED_D2, friends=[((41.0, 15.0), R)])
    # 38, 39.5, 41, 42.5: the third stands on the friend
    slip = _slip(check(_row(15, 4, x=38), ground))
    assert (slip.fault, slip.model) == (Fault.ON_A_BASE, 2)
    beside = _with(_row(15, 4, x=38), 2, (41.0, 16.0))
    assert _stands(check(beside, ground)).placed == (0, 1, 2, 3)


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_the_model_out_of_the_largest_group_is_the_one_named() -> None:
    # One model alone in a corner of D2, proposed first; the other nine together elsewhere
    # in D2. The lone model is out of coherency, and there is room for it by the nine.
    proposed = [(47.0, 23.0), *_row(13, 5, x=37), *_row(14.5, 4, x=37)]
    slip = _slip(check(proposed, _ground(WOODED_D2)))
    assert (slip.fault, slip.model) == (Fault.NOT_COHERENT, 0)
    assert slip.room is not None
    assert _stands(check(_with(proposed, 0, slip.room), _ground(WOODED_D2))).casualties == {}


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_the_first_model_is_set_up_in_the_recorded_square() -> None:
    in_d3 = _row(25, 5, x=37)
    slip = _slip(check(in_d3, _ground(_woods((36, 12, 48, 30)))))
    assert slip.fault is Fault.NONE_IN_SQUARE
    assert slip.room is not None
    assert GRID.ref_at(slip.room) == "D2"


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_a_model_with_no_room_left_anywhere_is_a_casualty() -> None:
    # Woods just big enough for three bases in a row, all in D2.
    ground = _ground(_woods((37.5, 15.5, 40.5, 16.5)))
    proposed: list[XY | None] = [(38.0, 16.0), (39.0, 16.0), (40.0, 16.0), None]
    assert _stands(check(proposed, ground)).casualties == {3: Loss.NO_ROOM}
    assert room([p for p in proposed if p], ground) is None


# --- how room is found ---------------------------------------------------------------------------


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_room_found_is_a_legal_position_rounded_where_it_can_be() -> None:
    standing = [p for p in _row(15, 3, x=38) if p]
    spot = room(standing, _ground(WOODED_D2))
    assert spot is not None
    assert spot == (round(spot[0], 1), round(spot[1], 1))
    assert fault_at(spot, _ground(WOODED_D2), standing) is None
    assert any(math.dist(spot, q) <= 3 for q in standing)


@pytest.mark.spec("DWV-R08", "DWV-A04")
def test_dwv_r08_room_in_the_square_keeps_to_the_squares_half_open_edges() -> None:
    # Woods only along D2's far edge x = 48 (x 47.9-48.1): a centre at x = 48 is in E2.
    ground = _ground(_woods((47.9, 12, 48.1, 24)))
    spot = room((), ground)
    assert spot is not None
    assert GRID.ref_at(spot) == "D2"


# --- DWV-A08 counts, as entered at a physical table ---------------------------------------------


@pytest.mark.spec("DWV-A08", "DWV-R08")
@pytest.mark.parametrize(
    ("size", "casualties", "in_square", "rounding", "fault"),
    [
        (10, (), 5, Rounding.UP, None),
        (10, (), 4, Rounding.UP, Fault.TOO_FEW_IN_SQUARE),
        (10, (), 4, Rounding.DOWN, Fault.TOO_FEW_IN_SQUARE),
        (10, (9,), 4, Rounding.DOWN, None),  # 4 of 9: 9 // 2 = 4
        (10, (8, 9), 4, Rounding.UP, None),  # T06: 4 in the square carry 4 outside it
        (5, (), 2, Rounding.UP, Fault.TOO_FEW_IN_SQUARE),
        (5, (4,), 2, Rounding.UP, None),
        (5, (), 2, Rounding.DOWN, None),
        (1, (), 1, Rounding.UP, None),
        (10, (), 0, Rounding.UP, Fault.NONE_IN_SQUARE),  # the first model is in the square
        (10, (), 0, Rounding.DOWN, Fault.NONE_IN_SQUARE),
    ],
)
def test_dwv_a08_counts_are_checked_never_rounded_off(
    size: int, casualties: tuple[int, ...], in_square: int, rounding: Rounding, fault: Fault | None
) -> None:
    result = check_counted(size, casualties, in_square, rounding)
    if fault is not None:
        assert _slip(result).fault is fault
        return
    stood = _stands(result)
    assert stood.placed == tuple(i for i in range(size) if i not in casualties)
    assert stood.casualties == dict.fromkeys(casualties, Loss.NOT_SET_UP)


@pytest.mark.spec("DWV-A09")
def test_dwv_a09_at_a_table_a_unit_none_of_which_could_be_set_up_is_lost() -> None:
    result = _stands(check_counted(5, range(5), None, Rounding.UP))
    assert result == Setup((), dict.fromkeys(range(5), Loss.NO_FIRST_MODEL))


@pytest.mark.spec("DWV-A08")
@given(size=st.integers(1, 30), data=st.data(), rounding=st.sampled_from(list(Rounding)))
def test_dwv_a08_counts_stand_exactly_when_the_half_rule_holds(
    size: int, data: st.DataObject, rounding: Rounding
) -> None:
    lost = data.draw(st.sets(st.integers(0, size - 1), max_size=size))
    placed = size - len(lost)
    in_square = data.draw(st.integers(0, placed))
    result = check_counted(size, sorted(lost), in_square, rounding)
    if not placed:
        assert _stands(result).placed == ()
        return
    if isinstance(result, Slip):
        assert in_square == 0 or not half_ok(in_square, placed, rounding)
        return
    assert in_square >= 1
    assert half_ok(in_square, placed, rounding)
    assert set(result.casualties) == lost  # nothing removed the owner did not list


def half_ok(in_square: int, total: int, rounding: Rounding) -> bool:
    need = math.ceil(total / 2) if rounding is Rounding.UP else total // 2
    return in_square >= need


# --- every set-up the check accepts keeps every condition ----------------------------------------

points = st.tuples(st.floats(30, 54), st.floats(6, 32)).map(
    lambda p: (round(p[0] * 2) / 2, round(p[1] * 2) / 2)
)
JUNGLE_BOX: Box = (34, 10, 50, 25)
in_d2 = st.tuples(st.integers(72, 96), st.integers(24, 48)).map(lambda p: (p[0] / 2, p[1] / 2))
steps = st.tuples(st.integers(-5, 5), st.integers(-5, 5)).map(lambda d: (d[0] / 2, d[1] / 2))


@st.composite
def set_ups(draw: st.DrawFn) -> list[XY | None]:
    """Set-ups as a hand makes them: a walk from a point near D2, each model a step from
    the one before (some steps too long, some onto a base, off the woods), some left out."""
    here = draw(in_d2)
    out: list[XY | None] = []
    for _ in range(draw(st.integers(1, 10))):
        if draw(st.integers(0, 5)) == 0:
            out.append(None)
            continue
        dx, dy = draw(steps)
        here = (here[0] + dx, here[1] + dy)
        out.append(here)
    return out


def _obeys_every_condition(spots: Sequence[XY], enemies: Sequence[XY], rounding: Rounding) -> None:
    x0, y0, x1, y1 = JUNGLE_BOX
    for p in spots:
        assert x0 <= p[0] <= x1  # (b)
        assert y0 <= p[1] <= y1
        assert all(math.dist(p, e) - 2 * R >= 1 - 1e-9 for e in enemies)  # (c)
    for i, p in enumerate(spots):  # never two on one base
        assert all(math.dist(p, q) >= 2 * R - 1e-9 for q in spots[i + 1 :])
    inside = sum(GRID.ref_at(p) == "D2" for p in spots)
    assert inside >= 1  # the first model
    assert half_ok(inside, len(spots), rounding)  # (d)
    # (a): one chain, each link at most 2" between bases.
    joined, frontier = {0}, [0]
    while frontier:
        here = spots[frontier.pop()]
        for j, there in enumerate(spots):
            if j not in joined and math.dist(here, there) - 2 * R <= 2 + 1e-9:
                joined.add(j)
                frontier.append(j)
    assert len(joined) == len(spots)


@pytest.mark.spec("DWV-R08")
@settings(max_examples=150, deadline=None)
@given(
    proposed=st.one_of(set_ups(), st.lists(st.one_of(st.none(), points), min_size=1, max_size=10)),
    enemies=st.lists(points, max_size=3),
    rounding=st.sampled_from(list(Rounding)),
)
def test_dwv_r08_whatever_is_proposed_it_stands_as_given_or_is_a_true_slip(
    proposed: list[XY | None], enemies: list[XY], rounding: Rounding
) -> None:
    ground = _ground(_woods(JUNGLE_BOX), [(e, R) for e in enemies], rounding)
    result = check(proposed, ground)
    if isinstance(result, Setup):
        # Exactly the models given positions stand; exactly those left out are casualties.
        assert result.placed == tuple(i for i, p in enumerate(proposed) if p is not None)
        assert set(result.casualties) == {i for i, p in enumerate(proposed) if p is None}
        spots = [p for p in proposed if p is not None]
        if spots:
            _obeys_every_condition(spots, enemies, rounding)
        return
    if result.fault in (Fault.OFF_TABLE, Fault.NOT_WOODED, Fault.NEAR_ENEMY, Fault.ON_A_BASE):
        assert result.model is not None
        point = proposed[result.model]
        assert point is not None
        earlier = [p for p in proposed[: result.model] if p is not None]
        assert fault_at(point, ground, earlier) is result.fault
    if result.fault is Fault.HAS_ROOM:
        assert result.model is not None
        assert proposed[result.model] is None
        assert result.room is not None
        again = check(_with(proposed, result.model, result.room), ground)
        # The room given puts that model right: what is wrong now, if anything, is another
        # model left out that has room too.
        if isinstance(again, Slip):
            assert again.fault is Fault.HAS_ROOM
            assert again.model != result.model


# --- a model is lost only when a search of the ground finds no room for it ------------------------

small_box = st.tuples(
    st.integers(34, 46), st.integers(10, 22), st.integers(1, 5), st.integers(1, 4)
)
MARGIN = 0.05  # a brute-force position must be legal by this much, to be sure it is room


def _brute_force_room(
    standing: Sequence[XY], ground: Ground, woods: Sequence[Box], in_square: bool
) -> XY | None:
    """A position legal with a margin to spare, found by trying every tenth of an inch in
    the woods near the unit: independent of shapely."""
    reach = 2 + 2 * R
    step = 0.1
    for x0, y0, x1, y1 in woods:
        for i in range(round((x1 - x0) / step) + 1):
            for j in range(round((y1 - y0) / step) + 1):
                p = (x0 + i * step, y0 + j * step)
                if not _within(p, (x0, y0, x1, y1)):
                    continue
                if in_square and not _within(p, (36, 12, 48, 24)):
                    continue
                if standing and not any(math.dist(p, q) <= reach - MARGIN for q in standing):
                    continue
                if any(math.dist(p, e) - R - r < 1 + MARGIN for e, r in ground.enemies):
                    continue
                occupied = [*ground.friends, *((q, R) for q in standing)]
                if any(math.dist(p, q) < R + r + MARGIN for q, r in occupied):
                    continue
                return p
    return None


def _within(p: XY, area: Box) -> bool:
    x0, y0, x1, y1 = area
    return x0 + MARGIN <= p[0] <= x1 - MARGIN and y0 + MARGIN <= p[1] <= y1 - MARGIN


@pytest.mark.spec("DWV-R08", "DWV-A09", "DWV-T06")
@settings(max_examples=60, deadline=None)
@given(
    boxes=st.lists(small_box, min_size=1, max_size=2),
    enemies=st.lists(points, max_size=4),
    size=st.integers(1, 12),
    rounding=st.sampled_from(list(Rounding)),
)
def test_a_planned_set_up_stands_and_what_it_leaves_out_has_no_room(
    boxes: list[tuple[int, int, int, int]], enemies: list[XY], size: int, rounding: Rounding
) -> None:
    woods = [(float(x), float(y), float(x + w), float(y + h)) for x, y, w, h in boxes]
    ground = _ground(_woods(*woods), [(e, R) for e in enemies], rounding)
    planned = plan(size, ground)
    result = _stands(check(planned, ground))
    assert set(result.casualties) == {i for i, p in enumerate(planned) if p is None}
    standing = [p for p in planned if p is not None]
    if not standing:
        assert _brute_force_room((), ground, woods, in_square=True) is None
        return
    _obeys_every_condition_in(standing, ground)
    if result.casualties:
        inside = sum(ground.in_square(p) for p in standing)
        only_inside = not half_ok(inside, len(standing) + 1, rounding)
        assert _brute_force_room(standing, ground, woods, only_inside) is None


def _obeys_every_condition_in(standing: Sequence[XY], ground: Ground) -> None:
    for i, p in enumerate(standing):
        assert fault_at(p, ground, standing[:i]) is None
    assert any(ground.in_square(p) for p in standing)


@pytest.mark.spec("DWV-A09")
def test_dwv_a09_the_search_for_a_first_model_sees_enemy_models_and_bases() -> None:
    # D2's woods are a 2" x 2" patch; an enemy model in the middle of it, or friends'
    # bases all over it, leave no room.
    patch = _woods((41, 17, 43, 19))
    assert room((), _ground(patch)) is not None
    assert room((), _ground(patch, [((42.0, 18.0), R)])) is None
    friends = [((41.0 + x, 17.0 + y), R) for x in (0, 1, 2) for y in (0, 1, 2)]
    assert room((), _ground(patch, friends=friends)) is None
    assert room((), replace(_ground(patch), friends=friends[:3])) is not None  # x = 41 only
