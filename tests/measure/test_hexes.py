"""Hex-map geometry for the ambush-fields ruleset (RULES-SPEC BSG-R04, BSG-A01)."""

from __future__ import annotations

import itertools
import math
from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghillie.measure.hexes import (
    HEXSIDES,
    Hex,
    HexMap,
    center,
    corners,
    direction,
    disc,
    distance,
    from_offset,
    line,
    nearest_distance_to_disc,
    neighbours,
    ring,
    rotate,
    to_offset,
)

coordinates = st.integers(-60, 60)
hexes = st.builds(Hex, coordinates, coordinates)
radii = st.integers(0, 12)
parities = st.sampled_from(["even", "odd"])
SFB = HexMap(42, 30)
ORIGIN = Hex(0, 0)


def angle_from_up(step: Hex) -> float:
    """Degrees clockwise from up the map to ``step``, from the drawing centres (floats)."""
    x, y = center(step)
    return math.degrees(math.atan2(x, -y)) % 360


# --- distance ---------------------------------------------------------------------------------


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, a) == 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a) >= 0
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, hexes)
def test_distance_is_half_the_cube_manhattan_distance(a: Hex, b: Hex) -> None:
    d = a - b
    assert distance(a, b) == max(abs(d.q), abs(d.r), abs(d.s))
    assert 2 * distance(a, b) == abs(d.q) + abs(d.r) + abs(d.s)


def test_distance_is_the_number_of_steps_a_search_counts() -> None:
    depth = 8
    steps = {ORIGIN: 0}
    queue = deque([ORIGIN])
    while queue:
        h = queue.popleft()
        if steps[h] == depth:
            continue
        for n in neighbours(h):
            if n not in steps:
                steps[n] = steps[h] + 1
                queue.append(n)
    box = [Hex(q, r) for q in range(-10, 11) for r in range(-10, 11)]
    for h in box:
        if distance(ORIGIN, h) <= depth:
            assert steps[h] == distance(ORIGIN, h)
        else:
            assert h not in steps


@given(hexes, st.integers(-20, 20))
def test_hex_arithmetic_and_rotation(h: Hex, k: int) -> None:
    assert h + Hex(0, 0) == h == (h - h) + h
    assert h.scale(k) == Hex(h.q * k, h.r * k)
    assert h.q + h.r + h.s == 0
    assert distance(ORIGIN, rotate(h, k)) == distance(ORIGIN, h)
    assert rotate(rotate(h, k), -k) == h
    assert rotate(h, 6) == h


# --- directions and neighbours ----------------------------------------------------------------


def test_directions_run_clockwise_from_hexside_a_up_the_map() -> None:
    angles = [angle_from_up(direction(i)) for i in range(6)]
    assert angles == pytest.approx([0, 60, 120, 180, 240, 300])
    assert [rotate(direction(0), i) for i in range(6)] == [direction(i) for i in range(6)]
    assert HEXSIDES[3] == "D"
    assert direction(3) == Hex(0, 1)  # D is straight down the column


@pytest.mark.parametrize("bad", [-1, 6, 1.0, "A"])
def test_a_direction_is_0_to_5(bad: object) -> None:
    with pytest.raises(ValueError, match=r"0\.\.5"):
        direction(bad)  # type: ignore[arg-type]


@given(hexes)
def test_neighbours_are_six_distinct_hexes_one_away(h: Hex) -> None:
    around = neighbours(h)
    assert len(set(around)) == 6
    assert all(distance(h, n) == 1 for n in around)
    assert around == [h + direction(i) for i in range(6)]


# --- rings and discs (BSG-R04) ----------------------------------------------------------------


@given(hexes, radii)
def test_a_ring_has_6r_hexes_at_distance_r_each_touching_the_next(c: Hex, r: int) -> None:
    hexes_ = ring(c, r)
    assert len(hexes_) == len(set(hexes_)) == (6 * r if r else 1)
    assert all(distance(c, h) == r for h in hexes_)
    if r:
        assert hexes_[0] == c + direction(0).scale(r)
        assert all(
            distance(a, b) == 1 for a, b in zip(hexes_, hexes_[1:] + hexes_[:1], strict=True)
        )


@given(hexes, radii)
def test_a_disc_has_3r_r_plus_1_plus_1_hexes(c: Hex, r: int) -> None:
    hexes_ = disc(c, r)
    assert len(hexes_) == len(set(hexes_)) == 3 * r * (r + 1) + 1
    assert hexes_[0] == c


@pytest.mark.spec("BSG-R04")
@given(hexes, st.integers(0, 6), st.integers(0, 5))
def test_bsg_r04_the_field_is_every_hex_within_r_and_moves_with_its_controller(
    controller: Hex, r: int, moved: int
) -> None:
    box = [controller + Hex(q, s) for q in range(-8, 9) for s in range(-8, 9)]
    assert set(disc(controller, r)) == {h for h in box if distance(controller, h) <= r}
    step = direction(moved)
    assert set(disc(controller + step, r)) == {h + step for h in disc(controller, r)}


@pytest.mark.parametrize("call", [ring, disc, lambda c, r: nearest_distance_to_disc(c, c, r)])
def test_a_radius_is_never_negative(call: object) -> None:
    with pytest.raises(ValueError, match="radius"):
        call(ORIGIN, -1)  # type: ignore[operator]


@pytest.mark.spec("BSG-A01")
@given(hexes, hexes, st.integers(0, 6))
def test_bsg_a01_range_to_a_field_is_to_its_nearest_hex(ship: Hex, c: Hex, r: int) -> None:
    reach = nearest_distance_to_disc(ship, c, r)
    if distance(ship, c) <= r:
        assert reach == 0  # inside: BSG-R26, no roll
    else:
        assert reach == min(distance(ship, h) for h in disc(c, r))
        assert reach == max(1, distance(ship, c) - r)


@pytest.mark.spec("BSG-A01")
def test_bsg_a01_one_hex_outside_a_radius_3_field_is_range_1() -> None:
    assert nearest_distance_to_disc(Hex(0, 4), ORIGIN, 3) == 1
    assert nearest_distance_to_disc(Hex(0, 3), ORIGIN, 3) == 0
    assert nearest_distance_to_disc(Hex(0, 24), ORIGIN, 3) == 21  # beyond 20: no roll


# --- lines ------------------------------------------------------------------------------------


@given(hexes, hexes)
def test_a_line_has_distance_plus_1_hexes_each_touching_the_next(a: Hex, b: Hex) -> None:
    hexes_ = line(a, b)
    assert len(hexes_) == distance(a, b) + 1
    assert hexes_[0] == a
    assert hexes_[-1] == b
    assert all(distance(p, q) == 1 for p, q in itertools.pairwise(hexes_))


@given(st.builds(Hex, st.integers(-12, 12), st.integers(-12, 12)))
def test_a_line_runs_through_the_hexes_nearest_the_straight_line(b: Hex) -> None:
    n = distance(ORIGIN, b)
    bx, by = center(b)
    for i, h in enumerate(line(ORIGIN, b)):
        point = (bx * i / max(n, 1), by * i / max(n, 1))
        here = math.dist(point, center(h))
        assert all(here <= math.dist(point, center(o)) + 1e-9 for o in neighbours(h))


def float_line(a: Hex, b: Hex) -> list[Hex]:
    """The usual floating-point hex line, nudged by (1, 2, -3)·1e-6 as ``line`` is by ε."""
    n = distance(a, b)
    out = []
    for i in range(n + 1):
        t = i / max(n, 1)
        x = [
            p + (q - p) * t + e * 1e-6
            for p, q, e in zip((a.q, a.r, a.s), (b.q, b.r, b.s), (1, 2, -3), strict=True)
        ]
        rq, rr, rs = (round(v) for v in x)
        dq, dr, ds = (abs(r - v) for r, v in zip((rq, rr, rs), x, strict=True))
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        out.append(Hex(rq, rr))
    return out


@given(st.builds(Hex, st.integers(-20, 20), st.integers(-20, 20)), hexes)
def test_a_line_matches_the_floating_point_drawing(step: Hex, a: Hex) -> None:
    assert line(a, a + step) == float_line(a, a + step)


def test_a_line_along_a_hexside_takes_the_same_side_every_time() -> None:
    # (0,0) to (2,-1) runs along the hexside between (1,-1) and (1,0): the middle is a tie.
    expected = [Hex(0, 0), Hex(1, 0), Hex(2, -1)]
    assert line(ORIGIN, Hex(2, -1)) == line(ORIGIN, Hex(2, -1)) == expected
    assert line(Hex(2, -1), ORIGIN) == [Hex(2, -1), Hex(1, 0), Hex(0, 0)]


@given(hexes, hexes)
def test_a_line_drawn_backwards_is_the_same_hexes(a: Hex, b: Hex) -> None:
    assert line(b, a) == line(a, b)[::-1]


# --- printed maps -----------------------------------------------------------------------------


@given(st.integers(-120, 120), st.integers(-120, 120), parities)
def test_offset_to_axial_and_back(column: int, row: int, shifted: str) -> None:
    assert to_offset(from_offset(column, row, shifted), shifted) == (column, row)  # type: ignore[arg-type]


@given(hexes, parities)
def test_axial_to_offset_and_back(h: Hex, shifted: str) -> None:
    assert from_offset(*to_offset(h, shifted), shifted) == h  # type: ignore[arg-type]


def test_every_label_on_a_42_by_30_map_round_trips() -> None:
    labels = [f"{c:02d}{r:02d}" for c in range(1, 43) for r in range(1, 31)]
    on_map = SFB.hexes()
    assert [SFB.to_label(h) for h in on_map] == labels
    assert [SFB.from_label(label) for label in labels] == on_map
    assert len(set(on_map)) == 42 * 30


@given(hexes)
def test_a_hex_is_on_the_map_exactly_when_it_has_a_label(h: Hex) -> None:
    if SFB.on_map(h):
        assert SFB.from_label(SFB.to_label(h)) == h
    else:
        with pytest.raises(ValueError, match="off this 42×30 map"):
            SFB.to_label(h)


def test_even_columns_sit_half_a_hex_lower_on_sfb_maps() -> None:
    h0101, h0201, h0102 = (SFB.from_label(x) for x in ("0101", "0201", "0102"))
    assert h0201 == h0101 + direction(HEXSIDES.index("C"))  # down and right
    assert h0102 == h0101 + direction(HEXSIDES.index("D"))
    assert SFB.from_label("0301") == h0201 + direction(HEXSIDES.index("B"))
    assert center(h0201)[1] == pytest.approx(center(h0101)[1] + math.sqrt(3) / 2)
    odd = HexMap(42, 30, shifted="odd")
    assert odd.from_label("0201") == odd.from_label("0101") + direction(HEXSIDES.index("B"))


@pytest.mark.parametrize("label", ["0000", "0100", "4301", "0131", "9999"])
def test_off_map_labels_are_refused_by_name(label: str) -> None:
    with pytest.raises(ValueError, match=f"hex {label} is off"):
        SFB.from_label(label)
    assert not SFB.is_label(label)


@pytest.mark.parametrize("label", ["412", "04-12", "O412", "", "04120", "0412a"])
def test_malformed_labels_are_refused(label: str) -> None:
    with pytest.raises(ValueError, match="not a hex label"):
        SFB.from_label(label)


def test_labels_are_read_with_surrounding_spaces() -> None:
    assert SFB.from_label(" 0412 ") == Hex(3, 10)
    assert SFB.is_label("4230")


@pytest.mark.parametrize(
    ("columns", "rows", "shifted"), [(0, 30, "even"), (100, 30, "even"), (42, 30, "up")]
)
def test_a_map_has_two_digit_sizes_and_a_known_parity(
    columns: int, rows: int, shifted: str
) -> None:
    with pytest.raises(ValueError, match=r"columns|shifted"):
        HexMap(columns, rows, shifted)  # type: ignore[arg-type]


# --- drawing ----------------------------------------------------------------------------------


@given(hexes)
def test_corners_are_one_from_the_centre_and_neighbours_root_3_apart(h: Hex) -> None:
    middle = center(h)
    assert all(math.dist(middle, corner) == pytest.approx(1) for corner in corners(h))
    assert all(math.dist(middle, center(n)) == pytest.approx(math.sqrt(3)) for n in neighbours(h))


# --- fire arcs (BSG-A07) ----------------------------------------------------------------------
