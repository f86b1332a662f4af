"""The set-up validator for a revealed ambush (RULES-SPEC DWV-R08, A08, A09; test case T06).

Geometry: the rule text's 60" x 36" table; D2 = x [36, 48) × y [12, 24), D3 below it =
y [24, 36]. Bases are 1" across (radius 0.5), so models 1.5" apart are 0.5" base to base.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghillie.measure.grid import Grid
from ghillie.measure.tabletop import XY, Tabletop, Terrain
from ghillie.rules.grid_ambush import placement
from ghillie.rules.grid_ambush.placement import (
    NEAR_ENEMY,
    NO_FIRST_MODEL,
    NOT_COHERENT,
    NOT_PLACED,
    NOT_WOODED,
    ON_A_BASE,
    TOO_MANY_OUTSIDE,
    set_up,
    set_up_counted,
)
from ghillie.rules.grid_ambush.scenario import Rounding

GRID = Grid(60, 36)
R = 0.5
FAR_ENEMY = [((44.0, 34.0), R)]  # a Marine well away from everything below


def _woods(*boxes: tuple[float, float, float, float]) -> Tabletop:
    return Tabletop(
        60,
        36,
        [
            Terrain(f"woods {i}", "woods", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))
            for i, (x0, y0, x1, y1) in enumerate(boxes)
        ],
    )


def _in(square: str) -> Callable[[XY], bool]:
    return lambda point: GRID.ref_at(point) == square


def _row(y: float, count: int, x: float = 37.0) -> list[XY | None]:
    return [(x + 1.5 * i, y) for i in range(count)]


def _set_up(
    proposed: list[XY | None],
    table: Tabletop,
    enemies: list[tuple[XY, float]] = FAR_ENEMY,
    rounding: Rounding = Rounding.UP,
) -> placement.Setup:
    return set_up(
        proposed,
        table=table,
        in_square=_in("D2"),
        enemies=enemies,
        base_radius=R,
        rounding=rounding,
    )


# --- DWV-T06, the three cases ---------------------------------------------------------------


@pytest.mark.spec("DWV-T06", "DWV-R08")
def test_dwv_t06_six_in_woods_in_d2_and_four_in_d3_all_stand() -> None:
    table = _woods((36, 18, 48, 30))
    proposed = _row(23, 6) + _row(24.5, 4)  # 6 in D2, 4 in D3, one coherent block
    assert [GRID.ref_at(p) for p in proposed if p] == ["D2"] * 6 + ["D3"] * 4
    result = _set_up(proposed, table)
    assert result.placed == tuple(range(10))
    assert result.casualties == {}


@pytest.mark.spec("DWV-T06", "DWV-R08", "DWV-A08")
def test_dwv_t06_only_four_fit_in_d2_so_eight_stand_and_two_are_casualties() -> None:
    # D2's woods hold only a strip at its edge; D3 is wooded.
    table = _woods((36, 22, 42, 24), (36, 24, 48, 30))
    proposed = _row(23, 4) + _row(24.5, 6)
    result = _set_up(proposed, table)
    assert len(result.placed) == 8
    inside = [i for i in result.placed if GRID.ref_at(proposed[i]) == "D2"]  # type: ignore[arg-type]
    assert len(inside) == 4
    assert result.casualties == {8: TOO_MANY_OUTSIDE, 9: TOO_MANY_OUTSIDE}


@pytest.mark.spec("DWV-T06", "DWV-R08")
def test_dwv_t06_only_four_fit_in_d2_the_others_proposed_there_are_not_in_woods() -> None:
    table = _woods((36, 22, 42, 24), (36, 24, 48, 30))
    # Six proposed in D2, but the last two of them stand in open ground.
    proposed = _row(23, 6) + _row(24.5, 4)
    result = _set_up(proposed, table)
    assert result.placed == (0, 1, 2, 3, 6, 7, 8, 9)
    assert result.casualties == {4: NOT_WOODED, 5: NOT_WOODED}


@pytest.mark.spec("DWV-T06", "DWV-A09")
def test_dwv_t06_no_woods_in_d2_all_ten_are_casualties() -> None:
    table = _woods((36, 24, 48, 30))  # woods in D3 only
    in_d3 = _row(25, 5) + _row(26.5, 5)
    result = _set_up(in_d3, table)
    assert result.placed == ()
    assert result.casualties == dict.fromkeys(range(10), NO_FIRST_MODEL)
    in_d2_open = _row(20, 5) + _row(21.5, 5)
    result = _set_up(in_d2_open, table)
    assert result.placed == ()
    assert result.casualties == dict.fromkeys(range(10), NOT_WOODED)


@pytest.mark.spec("DWV-A09")
def test_dwv_a09_without_the_woods_requirement_the_unit_stands_in_the_open() -> None:
    table = _woods((36, 24, 48, 30))
    proposed = _row(20, 5) + _row(21.5, 5)
    result = set_up(
        proposed, table=table, in_square=_in("D2"), enemies=FAR_ENEMY, base_radius=R, wooded=False
    )
    assert result.placed == tuple(range(10))


# --- each condition of DWV-R08 ---------------------------------------------------------------

WOODED_D2 = _woods((36, 12, 48, 24))


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_at_least_one_inch_from_enemy_models_base_to_base() -> None:
    enemy = [((42.0, 20.0), R)]
    exactly_one_inch = (42.0, 18.0)  # centres 2" apart: 1" between the bases
    too_close = (42.0, 18.1)
    base = _row(16.5, 4, x=38)
    assert _set_up([*base, exactly_one_inch], WOODED_D2, enemy).placed == (0, 1, 2, 3, 4)
    result = _set_up([*base, too_close], WOODED_D2, enemy)
    assert result.casualties == {4: NEAR_ENEMY}


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_squad_coherency_is_two_inches_base_to_base() -> None:
    just = (38.0 + 4 * 1.5 + 3.0, 15.0)  # 3" centre to centre: 2" between bases
    beyond = (38.0 + 4 * 1.5 + 3.1, 15.0)
    base = _row(15, 5, x=38)
    assert _set_up([*base, just], WOODED_D2).casualties == {}
    assert _set_up([*base, beyond], WOODED_D2).casualties == {5: NOT_COHERENT}


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_models_may_not_stand_on_each_others_bases_or_off_the_table() -> None:
    base = _row(15, 3, x=38)
    result = _set_up([*base, (38.5, 15.0), None], WOODED_D2)
    assert result.placed == (0, 1, 2)
    assert result.casualties == {3: ON_A_BASE, 4: NOT_PLACED}

    off = _set_up([*base, (-1.0, 15.0)], WOODED_D2)
    assert off.casualties == {3: placement.OFF_TABLE}


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_nor_on_the_bases_of_the_owners_other_units() -> None:
    """Friendly models already on the table are no enemies (no 1" gap), but a base cannot
    be set up on theirs."""
    friend = [((41.0, 15.0), R)]  # a model of another of the owner's units
    result = set_up(
        _row(15, 4, x=38),  # 38, 39.5, 41, 42.5: the third stands on the friend
        table=WOODED_D2,
        in_square=_in("D2"),
        enemies=FAR_ENEMY,
        base_radius=R,
        friends=friend,
    )
    assert result.casualties == {2: ON_A_BASE}
    assert result.placed == (0, 1, 3)


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_the_largest_coherent_group_with_a_model_in_the_square_stands() -> None:
    # One model alone in a corner of D2, proposed first; the other nine together elsewhere
    # in D2. The nine stand, not the one.
    proposed = [(47.0, 23.0), *_row(13, 5, x=37), *_row(14.5, 4, x=37)]
    result = _set_up(proposed, WOODED_D2)
    assert result.placed == tuple(range(1, 10))
    assert result.casualties == {0: NOT_COHERENT}


# --- DWV-A08 counts, as entered at a physical table ---------------------------------------------


@pytest.mark.spec("DWV-A08")
@pytest.mark.parametrize(
    ("size", "placed", "in_square", "up", "down"),
    [
        (10, 10, 4, 8, 9),
        (10, 10, 5, 10, 10),
        (10, 6, 2, 4, 5),
        (5, 5, 2, 4, 5),
        (5, 5, 3, 5, 5),
        (1, 1, 1, 1, 1),
        (10, 10, 0, 0, 0),  # DWV-A09: nobody in the square, no first model
    ],
)
def test_dwv_a08_half_rule_on_counts(
    size: int, placed: int, in_square: int, up: int, down: int
) -> None:
    assert len(set_up_counted(size, placed, in_square, Rounding.UP).placed) == up
    assert len(set_up_counted(size, placed, in_square, Rounding.DOWN).placed) == down


@pytest.mark.spec("DWV-A08")
@given(
    size=st.integers(1, 30),
    data=st.data(),
    rounding=st.sampled_from(list(Rounding)),
)
def test_dwv_a08_counts_keep_as_many_as_the_half_rule_allows(
    size: int, data: st.DataObject, rounding: Rounding
) -> None:
    placed = data.draw(st.integers(0, size))
    in_square = data.draw(st.integers(0, placed))
    result = set_up_counted(size, placed, in_square, rounding)
    kept = len(result.placed)
    assert set(result.placed) | set(result.casualties) == set(range(size))
    assert not set(result.placed) & set(result.casualties)
    if in_square == 0:
        assert kept == 0
        return
    assert half_ok(in_square, kept, rounding)
    assert kept == placed or not half_ok(in_square, kept + 1, rounding)


def half_ok(in_square: int, total: int, rounding: Rounding) -> bool:
    need = math.ceil(total / 2) if rounding is Rounding.UP else total // 2
    return in_square >= need


# --- every set-up the validator accepts keeps every condition -------------------------------------

points = st.tuples(st.floats(30, 54), st.floats(6, 32)).map(
    lambda p: (round(p[0] * 2) / 2, round(p[1] * 2) / 2)
)


@pytest.mark.spec("DWV-R08")
@settings(max_examples=150, deadline=None)
@given(
    proposed=st.lists(st.one_of(st.none(), points), min_size=1, max_size=10),
    enemies=st.lists(points, max_size=3),
    rounding=st.sampled_from(list(Rounding)),
)
def test_dwv_r08_whatever_is_proposed_the_models_kept_obey_every_condition(
    proposed: list[XY | None], enemies: list[XY], rounding: Rounding
) -> None:
    table = _woods((34, 10, 50, 25))
    result = _set_up(proposed, table, [(e, R) for e in enemies], rounding)
    kept = [proposed[i] for i in result.placed]
    assert set(result.placed) | set(result.casualties) == set(range(len(proposed)))
    if not kept:
        return
    spots = [p for p in kept if p is not None]
    assert len(spots) == len(kept)
    for p in spots:
        assert table.in_kind(p, frozenset({"woods"}))  # (b)
        assert all(math.dist(p, e) - 2 * R >= 1 - 1e-9 for e in enemies)  # (c)
    for i, p in enumerate(spots):  # never two on one base
        assert all(math.dist(p, q) >= 2 * R for q in spots[i + 1 :])
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
