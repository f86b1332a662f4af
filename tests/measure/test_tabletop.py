"""Tabletop geometry (map mode): cover, open ground, line of sight, inside a squad."""

from __future__ import annotations

import pytest

from ghillie.errors import Refusal
from ghillie.measure.tabletop import Cover, Tabletop, Terrain, group_covers
from ghillie.measuring import MapMeasure, Measured, TableMeasure, refuse_entered_on_map
from ghillie.state import Piece

WOOD = Terrain("wood", "wood", ((10, 10), (20, 10), (20, 20), (10, 20)), Cover.SOFT)
HOUSE = Terrain("house", "building", ((30, 10), (34, 10), (34, 14), (30, 14)), Cover.HARD, True)
TABLE = Tabletop(48, 48, [WOOD, HOUSE])


def test_cover_is_the_best_of_the_features_at_a_point() -> None:
    assert TABLE.cover_at((15, 15)) is Cover.SOFT
    assert TABLE.cover_at((32, 12)) is Cover.HARD
    assert TABLE.cover_at((40, 40)) is Cover.NONE
    assert TABLE.cover_at((10, 15)) is Cover.SOFT  # on the edge counts as in


def test_open_terrain_is_where_no_feature_is() -> None:
    assert TABLE.in_open((5, 5))
    assert not TABLE.in_open((15, 15))


def test_a_sight_blocking_feature_blocks_a_line_across_it() -> None:
    assert not TABLE.line_of_sight((25, 12), (40, 12))
    assert TABLE.line_of_sight((25, 30), (40, 30))
    assert TABLE.line_of_sight((25, 12), (25, 12))


def test_one_sees_out_of_and_into_the_feature_one_stands_in() -> None:
    assert TABLE.line_of_sight((32, 12), (40, 12))
    assert TABLE.line_of_sight((40, 12), (32, 12))
    assert TABLE.line_of_sight((5, 15), (25, 15))  # a wood does not block sight here


def test_off_the_table() -> None:
    assert TABLE.on_table((0, 48))
    assert not TABLE.on_table((48.1, 2))


def test_a_degenerate_terrain_outline_is_refused() -> None:
    with pytest.raises(ValueError, match="not a simple polygon"):
        _ = Terrain("line", "wood", ((0, 0), (5, 5), (10, 10))).shape


def test_inside_a_squad_by_hull_or_by_base_contact() -> None:
    square = [(0, 0), (4, 0), (4, 4), (0, 4)]
    assert group_covers(square, 0.5, (2, 2))
    assert not group_covers(square, 0.5, (2, 2), hull=False)
    assert group_covers(square, 0.5, (4.4, 4), hull=False)
    line = [(0, 0), (2, 0), (4, 0)]
    assert group_covers(line, 0.5, (3, 0.3))  # a squad in a line still covers its line
    assert not group_covers([], 0.5, (0, 0))


def _unit(*models: tuple[float, float]) -> Piece:
    return Piece("u", "a", "unit", {"models": list(models)})


def test_map_measure_uses_the_closest_models_that_see_each_other() -> None:
    measure = MapMeasure(TABLE, lambda p: p.public["models"])
    a, b = _unit((25, 12), (25, 30)), _unit((40, 12))
    assert measure.line_of_sight(a, b)
    # (25, 12) is 15" away but the house is in the way; (25, 30) sees it at ~23.4".
    assert measure.range(a, b) == pytest.approx((15**2 + 18**2) ** 0.5)
    assert measure.cover(_unit((15, 15), (16, 16), (40, 40))) is Cover.SOFT
    assert measure.asserted() == {"measured_by": "map"}


def test_table_measure_returns_what_players_entered_and_asks_for_what_is_missing() -> None:
    measure = TableMeasure(Measured(range=30, cover=Cover.SOFT), "keno")
    a, b = _unit((0, 0)), _unit((1, 1))
    assert measure.range(a, b) == 30
    assert measure.cover(b) is Cover.SOFT
    with pytest.raises(Refusal) as missing:
        measure.line_of_sight(a, b)
    assert missing.value.code == "measurement_required"
    assert measure.asserted() == {"measured_by": "keno", "range": 30.0, "cover": "soft"}


def test_a_map_game_refuses_entered_measurements() -> None:
    refuse_entered_on_map(None)
    refuse_entered_on_map(Measured())
    with pytest.raises(Refusal) as entered:
        refuse_entered_on_map(Measured(range=3))
    assert entered.value.code == "measured_by_map"
