"""The square grid with references like D2 (RULES-SPEC DWV-R03, DWV-A02, DWV-A03, DWV-A04,
DWV-T01)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ghillie.measure.grid import Grid, column_index, column_letters

# Tables of any size the scenarios allow, in inches; sometimes whole feet, sometimes not.
lengths = st.one_of(
    st.integers(1, 20).map(lambda feet: float(12 * feet)),
    st.floats(1.0, 240.0, allow_nan=False, allow_infinity=False),
)
orientations = st.fixed_dictionaries(
    {"along_x": st.booleans(), "rows_from_near": st.booleans(), "partial": st.booleans()}
)


@st.composite
def grids(draw: st.DrawFn, partial: bool | None = None) -> Grid:
    options = draw(orientations)
    if partial is not None:
        options["partial"] = partial
    return Grid(draw(lengths), draw(lengths), **options)


@st.composite
def on_table(draw: st.DrawFn, grid: Grid) -> tuple[float, float]:
    """A point on the table, often on a square line or a table edge."""

    def coordinate(length: float) -> float:
        lines = [min(12.0 * i, length) for i in range(int(length // 12) + 2)]
        return draw(
            st.one_of(
                st.floats(0, length, allow_nan=False),
                st.sampled_from([*lines, length]),
            )
        )

    return (coordinate(grid.width), coordinate(grid.depth))


def owners(grid: Grid, point: tuple[float, float]) -> list[str]:
    """Every square that claims the point by the documented rule: half-open in table
    coordinates, [x0, x1) × [y0, y1), the table's far edges closed."""
    x, y = point

    def holds(low: float, high: float, at: float, length: float) -> bool:
        return low <= at < high or at == high == length

    out = []
    for ref in grid.refs():
        x0, y0, x1, y1 = grid.bounds(ref)
        if holds(x0, x1, x, grid.width) and holds(y0, y1, y, grid.depth):
            out.append(ref)
    return out


# --- DWV-T01 / DWV-R03 the rule text's 3' x 5' table -------------------------------------------


@pytest.mark.spec("DWV-T01", "DWV-R03")
def test_dwv_t01_a_60_by_36_table_has_squares_a1_to_e3() -> None:
    grid = Grid(60, 36)
    assert grid.refs() == [f"{c}{r}" for c in "ABCDE" for r in "123"]
    assert (grid.columns, grid.rows) == (5, 3)
    assert grid.bounds("D2") == (36, 12, 48, 24)
    assert grid.ref_at((40, 15)) == "D2"


@pytest.mark.spec("DWV-R03")
def test_dwv_r03_references_are_read_in_either_case_and_with_spaces() -> None:
    grid = Grid(60, 36)
    assert grid.parse(" d2 ") == (3, 1)
    assert grid.canonical(" d2 ") == "D2"
    for bad in ("F1", "A4", "A0", "D02", "2D", "", "D", "AAA1"):
        assert not grid.is_ref(bad)
        with pytest.raises(ValueError, match="grid"):
            grid.parse(bad)


# --- refs round-trip ----------------------------------------------------------------------------


@pytest.mark.spec("DWV-R03")
@given(index=st.integers(0, 26 * 27 - 1))
def test_dwv_r03_column_letters_round_trip(index: int) -> None:
    letters = column_letters(index)
    assert letters.isalpha()
    assert letters.isupper()
    assert column_index(letters) == index


@pytest.mark.spec("DWV-R03")
@given(grid=grids())
def test_dwv_r03_every_reference_round_trips_through_parse(grid: Grid) -> None:
    refs = grid.refs()
    assert len(refs) == len(set(refs)) == grid.columns * grid.rows
    for ref in refs:
        assert grid.format(*grid.parse(ref)) == ref
        assert grid.parse(ref.lower()) == grid.parse(ref)


@pytest.mark.spec("DWV-R03")
def test_dwv_r03_column_letters_go_on_past_z() -> None:
    assert [column_letters(i) for i in (0, 25, 26, 27, 51, 52)] == [
        "A", "Z", "AA", "AB", "AZ", "BA",
    ]  # fmt: skip


# --- DWV-A04 every point in exactly one square ---------------------------------------------------


@pytest.mark.spec("DWV-A04", "DWV-A02")
@given(data=st.data(), grid=grids(partial=True))
def test_dwv_a04_every_point_on_the_table_lies_in_exactly_one_square(
    data: st.DataObject, grid: Grid
) -> None:
    point = data.draw(on_table(grid))
    ref = grid.ref_at(point)
    assert ref is not None
    assert owners(grid, point) == [ref]
    x0, y0, x1, y1 = grid.bounds(ref)
    assert x0 <= point[0] <= x1
    assert y0 <= point[1] <= y1


@pytest.mark.spec("DWV-A04", "DWV-A02")
@given(data=st.data(), grid=grids(partial=False))
def test_dwv_a04_without_part_squares_a_point_is_in_one_square_or_in_none(
    data: st.DataObject, grid: Grid
) -> None:
    point = data.draw(on_table(grid))
    ref = grid.ref_at(point)
    assert owners(grid, point) == ([] if ref is None else [ref])


@pytest.mark.spec("DWV-A04")
@given(grid=grids(), point=st.tuples(st.floats(-50, 300), st.floats(-50, 300)))
def test_dwv_a04_a_point_off_the_table_is_in_no_square(
    grid: Grid, point: tuple[float, float]
) -> None:
    x, y = point
    assume(not (0 <= x <= grid.width and 0 <= y <= grid.depth))
    assert grid.ref_at(point) is None


@pytest.mark.spec("DWV-A04")
@given(grid=grids())
def test_dwv_a04_a_squares_centre_is_in_that_square(grid: Grid) -> None:
    for ref in grid.refs():
        x0, y0, x1, y1 = grid.bounds(ref)
        assert grid.ref_at(((x0 + x1) / 2, (y0 + y1) / 2)) == ref


# --- DWV-A02 partial squares ---------------------------------------------------------------------


@pytest.mark.spec("DWV-A02")
def test_dwv_a02_part_squares_at_the_far_edges_are_squares() -> None:
    grid = Grid(66, 40)
    assert (grid.columns, grid.rows) == (6, 4)
    assert grid.bounds("F1") == (60, 0, 66, 12)
    assert grid.bounds("F4") == (60, 36, 66, 40)
    assert grid.ref_at((66, 40)) == "F4"
    assert grid.ref_at((60, 36)) == "F4"


@pytest.mark.spec("DWV-A02")
def test_dwv_a02_without_part_squares_the_strip_beyond_is_in_no_square() -> None:
    grid = Grid(66, 40, partial=False)
    assert (grid.columns, grid.rows) == (5, 3)
    assert grid.ref_at((59.9, 35.9)) == "E3"
    assert grid.ref_at((60, 10)) is None  # the strip starts at the last whole square's edge
    assert grid.ref_at((66, 10)) is None
    assert grid.ref_at((10, 40)) is None


@pytest.mark.spec("DWV-A02")
@given(grid=grids(partial=True))
def test_dwv_a02_part_squares_tile_the_whole_table(grid: Grid) -> None:
    area = 0.0
    for ref in grid.refs():
        x0, y0, x1, y1 = grid.bounds(ref)
        assert 0 <= x0 < x1 <= grid.width
        assert 0 <= y0 < y1 <= grid.depth
        assert x1 - x0 <= grid.size + 1e-9
        assert y1 - y0 <= grid.size + 1e-9
        area += (x1 - x0) * (y1 - y0)
    assert area == pytest.approx(grid.width * grid.depth)


@pytest.mark.spec("DWV-A02")
@given(grid=grids(partial=False))
def test_dwv_a02_without_part_squares_every_square_is_a_whole_foot(grid: Grid) -> None:
    for ref in grid.refs():
        x0, y0, x1, y1 = grid.bounds(ref)
        assert (x1 - x0, y1 - y0) == (pytest.approx(12), pytest.approx(12))


# --- DWV-A03 orientation switches --------------------------------------------------------------


@pytest.mark.spec("DWV-A03")
def test_dwv_a03_rows_from_the_far_edge_reverse_the_row_numbers() -> None:
    near, far = Grid(60, 36), Grid(60, 36, rows_from_near=False)
    assert far.bounds("D1") == near.bounds("D3") == (36, 24, 48, 36)
    assert far.bounds("D3") == near.bounds("D1") == (36, 0, 48, 12)
    assert far.ref_at((40, 30)) == "D1"


@pytest.mark.spec("DWV-A03")
def test_dwv_a03_columns_along_the_depth_turn_the_grid() -> None:
    turned = Grid(60, 36, along_x=False)
    assert (turned.columns, turned.rows) == (3, 5)
    assert turned.refs()[:5] == ["A1", "A2", "A3", "A4", "A5"]
    assert turned.bounds("A2") == (12, 0, 24, 12)
    assert turned.bounds("C5") == (48, 24, 60, 36)
    assert turned.ref_at((50, 30)) == "C5"


@pytest.mark.spec("DWV-A03")
@given(
    feet=st.tuples(st.integers(1, 20), st.integers(1, 20)),
    options=orientations,
    data=st.data(),
)
def test_dwv_a03_orientation_changes_only_the_names_of_whole_foot_squares(
    feet: tuple[int, int], options: dict[str, bool], data: st.DataObject
) -> None:
    """On a table of whole feet, any orientation cuts the table into the same squares; a
    point lies in the same piece of table whatever that piece is called."""
    width, depth = 12.0 * feet[0], 12.0 * feet[1]
    plain, other = Grid(width, depth), Grid(width, depth, **options)
    assert {plain.bounds(r) for r in plain.refs()} == {other.bounds(r) for r in other.refs()}
    point = data.draw(on_table(plain))
    assert plain.bounds(plain.ref_at(point)) == other.bounds(other.ref_at(point))  # type: ignore[arg-type]


@pytest.mark.spec("DWV-A03")
@given(grid=grids())
def test_dwv_a03_column_a_row_1_is_at_the_origin_corner_of_the_orientation(grid: Grid) -> None:
    assume(grid.refs())
    x0, y0, x1, y1 = grid.bounds("A1")
    rows_run_along_y = grid.along_x
    if grid.rows_from_near:
        assert (x0, y0) == (0, 0)
    elif rows_run_along_y:
        assert (x0, y1) == (0, grid.depth)
    else:
        assert (x1, y0) == (grid.width, 0)
